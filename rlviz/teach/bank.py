"""The interview bank: questions and a deck of claims to judge (wrong and true), in English and 简体中文.

The questions live in data files (``rlviz/teach/bank/*.toml``; the format is described at the top of
``basics.toml``). A number question's answer is never typed: it names an answer function of
:mod:`rlviz.teach.answers` that calls ``rlviz.core`` at reveal time. A choice question stores its
correct choice, and where ``rlviz`` can compute it names a function too: the tests recompute it, so a
stored answer that disagrees with the code fails.

Every question links to the page that proves it (``page`` and ``query``, a key of
:data:`rlviz.app_pages.PAGES` plus its URL settings).
"""

from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlviz.i18n import LANGS
from rlviz.teach import answers
from rlviz.teach.predict import Prediction, Reveal, reveal

__all__ = ["BANK_DIR", "TOPICS", "Bank", "Claim", "Question", "load_bank"]

BANK_DIR = Path(__file__).resolve().parent / "bank"

# topic key -> the topic's name in each language (the interview page's topic picker and score table)
TOPICS: dict[str, dict[str, str]] = {
    "objectives": {"en": "Objectives", "zh": "目标函数"},
    "clipping": {"en": "Clipping and trust regions", "zh": "裁剪与信任域"},
    "aggregation": {"en": "Loss aggregation", "zh": "损失聚合"},
    "advantages": {"en": "Advantages", "zh": "优势估计"},
    "kl": {"en": "KL and entropy regularisation", "zh": "KL 与熵正则"},
    "length": {"en": "Length and overlong shaping", "zh": "长度与超长惩罚"},
    "sampling": {"en": "Group sampling", "zh": "组采样"},
    "moe": {"en": "Mixture of experts", "zh": "混合专家"},
}
KINDS = ("number", "choice", "explain")
CHECKLIST_SIZE = (3, 5)  # an "explain why" question's checklist: at least 3 points, at most 5


def _texts(entry: Mapping[str, Any], stem: str, where: str) -> dict[str, str]:
    out = {}
    for lang in LANGS:
        value = entry.get(f"{stem}_{lang}")
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{where}: {stem}_{lang} missing or empty")
        out[lang] = value
    return out


def _fields(args: Mapping[str, Any]) -> dict[str, str]:
    """``args`` as text for the question: numbers with ``:g``, lists joined with commas."""
    out = {}
    for name, value in args.items():
        if isinstance(value, bool) or value is None:
            out[name] = str(value)
        elif isinstance(value, (int, float)):
            out[name] = f"{value:g}"
        elif isinstance(value, (list, tuple)):
            out[name] = ", ".join(f"{v:g}" if isinstance(v, (int, float)) else str(v) for v in value)
        else:
            out[name] = str(value)
    return out


def format_answer(value: Any) -> str:
    """A computed number as shown: a whole number in full (16384, never 1.638e+04), any other to 5
    significant digits (GSPO's band end 1.0004 keeps its last digit); a choice key unchanged."""
    if not isinstance(value, float):
        return str(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.5g}"


@dataclass(frozen=True)
class Question:
    """One interview question.

    Attributes:
        id: unique key (``"<topic>-<name>"``); ``topic``: a key of :data:`TOPICS`.
        kind: ``"number"``, ``"choice"`` or ``"explain"`` (an "explain why" question: free text, not
            auto-scored; the learner reveals the model answer and ticks the checklist points they made).
        page, query: the page that proves it and its URL settings.
        algorithms: registry entries it is about.
        text, why: ``{lang: text}`` of the question and of the explanation (``{answer}`` inside); for
            an explain question ``why`` is the model answer, a template whose numbers are ``facts``.
        answer_fn, args: the answer function (``rlviz.teach.answers``) and its arguments, or ``None``.
        tolerance: for number questions, the absolute distance a guess may be off.
        choices, choice_text, correct: for choice questions, the keys, ``{key: {lang: text}}`` and
            the stored correct key.
        facts: further computed numbers the texts quote, ``{name: (function, args)}`` (data file:
            ``facts = { eps = { answer = "band_high", args = {...} } }``): never a typed number.
        checklist: for explain questions, ``{lang: (point, ...)}``, 3 to 5 points the model answer
            makes, the same number in each language (data file: ``checklist_en = [...]``).
    """

    id: str
    topic: str
    kind: str
    page: str
    text: dict[str, str]
    why: dict[str, str]
    query: dict[str, Any] = field(default_factory=dict)
    algorithms: tuple[str, ...] = ()
    answer_fn: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    tolerance: float = 0.0
    choices: tuple[str, ...] = ()
    choice_text: dict[str, dict[str, str]] = field(default_factory=dict)
    correct: str | None = None
    facts: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    checklist: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def compute(self) -> Any:
        """The answer now: the answer function's value, else the stored correct choice; for an
        explain question the full score, the number of checklist points (an int)."""
        if self.kind == "explain":
            return len(self.checklist["en"])
        if self.answer_fn is not None:
            return answers.compute(self.answer_fn, self.args)
        return self.correct

    def prediction(self) -> Prediction:
        """This question as a :class:`~rlviz.teach.predict.Prediction` (its state is ignored)."""
        return Prediction(
            self.id, self.kind, lambda state: self.compute(), tolerance=self.tolerance, choices=self.choices
        )

    def check(self, guess: Any) -> Reveal:
        """Judge ``guess`` against the answer computed now. For an explain question ``guess`` is the
        checklist points the learner ticked (0-based indices); it is right when every point is ticked.
        Raises ``ValueError`` naming ``guess``."""
        if self.kind == "explain":
            ticks = self.ticks(guess)
            return Reveal(len(ticks) == len(self.checklist["en"]), len(self.checklist["en"]), ticks)
        return reveal(self.prediction(), {}, guess)

    def ticks(self, guess: Any) -> tuple[int, ...]:
        """An explain question's ticked points, sorted. Raises ``ValueError`` naming ``guess`` (not a
        list of distinct whole numbers in ``range(len(checklist))``)."""
        n = len(self.checklist.get("en", ()))
        if self.kind != "explain":
            raise ValueError(f"guess: {self.id!r} is not an explain question")
        if not isinstance(guess, (list, tuple)) or any(
            isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n for i in guess
        ):
            raise ValueError(f"guess: must be checklist points among 0..{n - 1}, got {guess!r}")
        if len(set(guess)) != len(guess):
            raise ValueError(f"guess: a checklist point is ticked twice in {guess!r}")
        return tuple(sorted(guess))

    def credit(self, guess: Any) -> float:
        """The score of ``guess`` in [0, 1]: the share of checklist points ticked (explain questions),
        else 1 for a right answer and 0 for a wrong one. Raises ``ValueError`` naming ``guess``."""
        if self.kind == "explain":
            return len(self.ticks(guess)) / len(self.checklist["en"])
        return float(self.check(guess).correct)

    def fields(self) -> dict[str, str]:
        """The texts' placeholders: the arguments, and each computed fact (``facts``) as shown."""
        return _fields(self.args) | {
            name: format_answer(answers.compute(fn, args)) for name, (fn, args) in self.facts.items()
        }

    def question(self, lang: str) -> str:
        """The question in ``lang`` with its arguments and facts filled in."""
        return self.text[lang].format(**self.fields())

    def explanation(self, lang: str, answer: Any) -> str:
        """The explanation in ``lang`` with the computed ``answer`` (a choice shown by its label)."""
        if self.kind == "explain":
            return self.why[lang].format(**self.fields())
        shown = self.choice_text[answer][lang] if self.kind == "choice" else format_answer(answer)
        return self.why[lang].format(**(self.fields() | {"answer": shown}))


@dataclass(frozen=True)
class Claim:
    """One statement of the "claims to judge" deck: a wrong claim with its correction, or a true one
    with the evidence that it holds (about a third of the deck is true, so the learner must decide).

    Attributes:
        id, topic, page, query: as for :class:`Question`.
        claim, correction: ``{lang: text}``; the correction (for a true claim: the evidence) may quote
            the computed ``{answer}``.
        source: where the claim circulates or what refutes it (for a true claim: what states it).
        true: whether the claim holds (data file: ``true = true``; absent means a wrong claim).
        answer_fn, args: an answer function whose value the correction quotes, or ``None``.
        facts: further computed numbers the texts quote, ``{name: (function, args)}``.
    """

    id: str
    topic: str
    page: str
    claim: dict[str, str]
    correction: dict[str, str]
    source: str
    query: dict[str, Any] = field(default_factory=dict)
    answer_fn: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    facts: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    true: bool = False

    @property
    def right_verdict(self) -> str:
        """The verdict that judges this claim right: ``"agree"`` for a true claim, else ``"push_back"``."""
        return "agree" if self.true else "push_back"

    def corrected(self, lang: str) -> str:
        """The correction in ``lang``, with the computed answer and facts filled in."""
        fields = _fields(self.args) | {
            name: format_answer(answers.compute(fn, a)) for name, (fn, a) in self.facts.items()
        }
        if self.answer_fn is not None:
            fields["answer"] = format_answer(answers.compute(self.answer_fn, self.args))
        return self.correction[lang].format(**fields)


@dataclass(frozen=True)
class Bank:
    """Every question and claim of the data files, in file order."""

    questions: tuple[Question, ...]
    claims: tuple[Claim, ...]

    def question(self, qid: str) -> Question:
        """The question ``qid``. Raises ``ValueError`` naming ``qid``."""
        for q in self.questions:
            if q.id == qid:
                return q
        raise ValueError(f"qid: no question {qid!r}")

    def by_topic(self, topic: str) -> tuple[Question, ...]:
        """The questions of ``topic``. Raises ``ValueError`` naming ``topic``."""
        if topic not in TOPICS:
            raise ValueError(f"topic: {topic!r} is not one of {', '.join(TOPICS)}")
        return tuple(q for q in self.questions if q.topic == topic)


def _common(entry: Mapping[str, Any], where: str) -> dict[str, Any]:
    from rlviz.app_pages import PAGES

    for name in ("id", "topic", "page"):
        if not isinstance(entry.get(name), str):
            raise ValueError(f"{where}: {name} missing")
    if entry["topic"] not in TOPICS:
        raise ValueError(f"{where}: topic {entry['topic']!r} is not one of {', '.join(TOPICS)}")
    if entry["page"] not in {p.key for p in PAGES}:
        raise ValueError(f"{where}: page {entry['page']!r} is not a page of the app")
    return {
        "id": entry["id"],
        "topic": entry["topic"],
        "page": entry["page"],
        "query": dict(entry.get("query", {})),
        "answer_fn": entry.get("answer"),
        "args": dict(entry.get("args", {})),
        "facts": _facts(entry.get("facts", {}), where),
    }


def _facts(table: Mapping[str, Any], where: str) -> dict[str, tuple[str, dict[str, Any]]]:
    out = {}
    for name, spec in table.items():
        if not isinstance(spec, Mapping) or not isinstance(spec.get("answer"), str):
            raise ValueError(f"{where}: facts.{name} needs an answer function")
        out[name] = (spec["answer"], dict(spec.get("args", {})))
    return out


def _question(entry: Mapping[str, Any], where: str) -> Question:
    from rlviz.core.objectives import ALGORITHMS

    common = _common(entry, where)
    kind = entry.get("kind")
    if kind not in KINDS:
        raise ValueError(f"{where}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
    algorithms = tuple(entry.get("algorithms", ()))
    unknown = set(algorithms) - set(ALGORITHMS)
    if unknown:
        raise ValueError(f"{where}: algorithms {sorted(unknown)} not in the registry")
    extra: dict[str, Any] = {}
    if kind == "number":
        if common["answer_fn"] is None:
            raise ValueError(f"{where}: a number question needs an answer function")
        tolerance = entry.get("tolerance")
        if not isinstance(tolerance, (int, float)) or not math.isfinite(tolerance) or tolerance < 0:
            raise ValueError(f"{where}: tolerance must be a finite number >= 0")
        extra["tolerance"] = float(tolerance)
    elif kind == "explain":
        if not common["facts"]:
            raise ValueError(f"{where}: an explain question's model answer needs computed facts")
        checklist = {}
        for lang in LANGS:
            points = entry.get(f"checklist_{lang}")
            low, high = CHECKLIST_SIZE
            if (
                not isinstance(points, list)
                or not low <= len(points) <= high
                or not all(isinstance(p, str) and p.strip() for p in points)
            ):
                raise ValueError(f"{where}: checklist_{lang} must hold {low} to {high} non-empty points")
            checklist[lang] = tuple(points)
        if len({len(v) for v in checklist.values()}) != 1:
            raise ValueError(f"{where}: checklist_en and checklist_zh must hold as many points")
        extra["checklist"] = checklist
    else:
        choices = tuple(entry.get("choices", ()))
        if len(choices) < 2:
            raise ValueError(f"{where}: a choice question needs at least two choices")
        choice_text = {}
        for c in choices:
            choice_text[c] = {}
            for lang in LANGS:
                label = entry.get(f"choice_{lang}", {}).get(c)
                if not isinstance(label, str) or not label.strip():
                    raise ValueError(f"{where}: choice_{lang}.{c} missing")
                choice_text[c][lang] = label
        if entry.get("correct") not in choices:
            raise ValueError(f"{where}: correct must be one of the choices")
        extra |= {"choices": choices, "choice_text": choice_text, "correct": entry["correct"]}
    return Question(
        kind=kind,
        algorithms=algorithms,
        text=_texts(entry, "q", where),
        why=_texts(entry, "why", where),
        **common,
        **extra,
    )


def _claim(entry: Mapping[str, Any], where: str) -> Claim:
    common = _common(entry, where)
    if not isinstance(entry.get("source"), str) or not entry["source"].strip():
        raise ValueError(f"{where}: source missing")
    if not isinstance(entry.get("true", False), bool):
        raise ValueError(f"{where}: true must be true or false")
    return Claim(
        true=entry.get("true", False),
        claim=_texts(entry, "claim", where),
        correction=_texts(entry, "correction", where),
        source=entry["source"],
        **common,
    )


@functools.cache
def load_bank(directory: Path = BANK_DIR) -> Bank:
    """Read every ``*.toml`` of ``directory`` (sorted by name) into one :class:`Bank`.

    Raises:
        ValueError: a malformed entry (naming the file and the entry), or an id used twice.
    """
    questions: list[Question] = []
    claims: list[Claim] = []
    for path in sorted(Path(directory).glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for i, entry in enumerate(data.get("question", [])):
            questions.append(_question(entry, f"{path.name} question {entry.get('id', i)}"))
        for i, entry in enumerate(data.get("claim", [])):
            claims.append(_claim(entry, f"{path.name} claim {entry.get('id', i)}"))
    ids = [q.id for q in questions] + [c.id for c in claims]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ValueError(f"id: used more than once: {twice}")
    return Bank(tuple(questions), tuple(claims))
