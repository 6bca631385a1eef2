"""Lessons for a class: an ordered list of views of the app, shared as one URL and presented step by step.

A :class:`LessonStep` is one view: a page (``rlviz.app_pages``), the URL parameters it opens with (its
widgets' values, ``bind="query-params"``), which of its controls stay visible while presenting, the
prediction to ask (a key of ``rlviz.teach.predict.PREDICTIONS[page]``) and a teacher's note in English
and 简体中文. A :class:`Lesson` is an id, a bilingual title and its steps.

- :func:`encode_lesson` / :func:`decode_lesson`: a lesson as one URL-safe text (compact JSON, zlib,
  base64url), ``/lessons?lesson=<code>``; decoding refuses malformed or oversized input.
- :class:`Draft`, :func:`draft_ref` / :func:`resolve_draft`: the builder's lesson while it is being
  built (title, id or steps may still be missing), in the same code, kept in the lessons page's address.
- :func:`shipped_lessons`: the lessons shipped in ``rlviz/teach/lessons/*.toml`` (the format is
  described at the top of ``01_clipping.toml``).
- :func:`worksheet`: one question per step that asks a prediction, in both languages, with the answer
  ``Prediction.compute`` gives at the step's settings (``rlviz.teach.predict.state_from_settings``):
  never a typed number.
- :func:`step_query`, :func:`parse_settings`: the URL parameters that open a step in presenter mode,
  and the settings read back from a pasted page URL or ``key=value`` lines; :func:`setting_warnings`:
  the settings the step's page will not take, where the registry says so.

No Streamlit here; every bad input raises ``ValueError`` naming the parameter.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import math
import re
import tomllib
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pandas as pd

from rlviz.app_pages import PAGES, PageEntry, app_dir
from rlviz.i18n import DEFAULT_LANG, LANGS, LIST_SEPARATOR, t
from rlviz.teach.predict import PREDICTIONS, Prediction, state_from_settings

__all__ = [
    "APP_PARAMS",
    "MAX_CODE_CHARS",
    "MAX_ID_CHARS",
    "MAX_TITLE_CHARS",
    "LESSONS_DIR",
    "LESSON_PAGE",
    "Lesson",
    "LessonStep",
    "Draft",
    "Question",
    "decode_draft",
    "decode_lesson",
    "draft_ref",
    "encode_draft",
    "encode_lesson",
    "lesson_ref",
    "page_widget_keys",
    "parse_settings",
    "resolve_draft",
    "resolve_lesson",
    "curve_controls",
    "page_of_address",
    "visible_choices",
    "visible_warnings",
    "setting_warnings",
    "shipped_lessons",
    "step_pages",
    "step_query",
    "steps_frame",
    "worksheet",
]

LESSONS_DIR = Path(__file__).resolve().parent  # the shipped lessons' TOML files sit beside this module
LESSON_PAGE = "lessons"  # the page that lists, builds and shares lessons (never a step's page)
FORMAT = 1  # the version of the encoded form
MAX_STEPS = 40
MAX_SETTINGS = 120  # URL parameters per step
MAX_VALUES = 64  # values of one repeated parameter (a multiselect)
MAX_VALUE_CHARS = 400
MAX_TITLE_CHARS = 200
MAX_ID_CHARS = 40  # a lesson's id (``_ID``)
MAX_NOTE_CHARS = 2000
MAX_CODE_CHARS = 16_000  # an encoded lesson in a URL
MAX_JSON_BYTES = 256 * 1024  # what a code may inflate to
# the app's own URL parameters, never a page's widget: dropped when settings are read from a pasted URL
APP_PARAMS = ("lang", "seed", "device", "embed", "embed_options", "lesson", "step", "present", "go")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_KEY = re.compile(r"^[A-Za-z0-9_.\-]{1,80}$")
_CODE = re.compile(r"^[A-Za-z0-9_-]+$")
_LITERAL_KEY = re.compile(r"""\bkey\s*=\s*["']([A-Za-z0-9_.\-]+)["']""")
ROOT = app_dir()  # the app's files (the repository root of a clone): PageEntry.file is relative to it

Value = str | tuple[str, ...]


def step_pages() -> dict[str, PageEntry]:
    """The pages a step can open: every page of ``rlviz.app_pages.PAGES`` with a widget prefix, but
    the lessons page itself. Read when called, so a page added to the table is offered at once."""
    return {p.key: p for p in PAGES if p.prefix and p.key != LESSON_PAGE}


def _url_text(value: Any, where: str) -> str:
    """One URL value as text, as Streamlit writes it (``True`` -> ``"true"``, ``5.0`` -> ``"5"``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where}: must be finite, got {value}")
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, str):
        if len(value) > MAX_VALUE_CHARS:
            raise ValueError(f"{where}: longer than {MAX_VALUE_CHARS} characters")
        return value
    raise ValueError(f"{where}: must be text, a number or true/false, got {type(value).__name__}")


def _settings(page: PageEntry, settings: Any) -> dict[str, Value]:
    if not isinstance(settings, Mapping):
        raise ValueError(f"settings: must be a mapping of URL parameters, got {type(settings).__name__}")
    if len(settings) > MAX_SETTINGS:
        raise ValueError(f"settings: more than {MAX_SETTINGS} parameters")
    out: dict[str, Value] = {}
    for key, value in settings.items():
        if not isinstance(key, str) or not _KEY.match(key):
            raise ValueError(f"settings: {key!r} is not a URL parameter name")
        if not key.startswith(page.prefix):
            raise ValueError(
                f"settings: {key!r} is not a widget of page {page.key!r} (its keys start with {page.prefix!r})"
            )
        if isinstance(value, (list, tuple)):
            if len(value) > MAX_VALUES:
                raise ValueError(f"settings: {key!r} has more than {MAX_VALUES} values")
            out[key] = tuple(_url_text(v, f"settings: {key!r}") for v in value)
        else:
            out[key] = _url_text(value, f"settings: {key!r}")
    return out


def _texts(value: Any, name: str, limit: int, required: bool) -> dict[str, str]:
    """A text in every language of ``rlviz.i18n.LANGS`` (``{"en": ..., "zh": ...}``)."""
    if not isinstance(value, Mapping):
        raise ValueError(f"{name}: must map each language ({', '.join(LANGS)}) to a text")
    extra = set(value) - set(LANGS)
    if extra:
        raise ValueError(f"{name}: unknown languages {sorted(map(str, extra))}; languages: {', '.join(LANGS)}")
    out = {}
    for lang in LANGS:
        text = value.get(lang, "")
        if not isinstance(text, str):
            raise ValueError(f"{name}: the {lang} text must be text, got {type(text).__name__}")
        if required and not text.strip():
            raise ValueError(f"{name}: the {lang} text is empty")
        if len(text) > limit:
            raise ValueError(f"{name}: the {lang} text is longer than {limit} characters")
        out[lang] = text
    return out


@dataclass(frozen=True)
class LessonStep:
    """One view of a lesson.

    Attributes:
        page: a page key (``rlviz.app_pages``; one of :func:`step_pages`).
        settings: the page's URL parameters (widget key -> text, or a tuple of texts for a
            multiselect), e.g. ``{"c_algos": ("PPO", "DAPO"), "c_ppo_epsilon_high": "0.28"}``: values
            as the page's URL carries them (a choice by its label). Every key starts with the page's
            widget prefix (``PageEntry.prefix``); numbers and true/false are turned into URL text.
        visible: the widget keys left visible while presenting; ``None``: all of them.
        prediction: the prediction the step asks (a ``Prediction.key`` of ``PREDICTIONS[page]``), or
            ``None``: the page's questions are shown as usual.
        note: the teacher's note, ``{"en": ..., "zh": ...}`` (may be empty).

    Raises:
        ValueError: naming ``page``, ``settings``, ``visible``, ``prediction`` or ``note``.
    """

    page: str
    settings: Mapping[str, Value] = field(default_factory=dict)
    visible: tuple[str, ...] | None = None
    prediction: str | None = None
    note: Mapping[str, str] = field(default_factory=lambda: dict.fromkeys(LANGS, ""))

    def __post_init__(self):
        pages = step_pages()
        if self.page not in pages:
            raise ValueError(f"page: {self.page!r} is not a page a step can open; pages: {', '.join(pages)}")
        entry = pages[self.page]
        object.__setattr__(self, "settings", _settings(entry, self.settings))
        if self.visible is not None:
            if isinstance(self.visible, str) or not isinstance(self.visible, Iterable):
                raise ValueError("visible: must be a list of widget keys, or None for all")
            visible = tuple(self.visible)
            for key in visible:
                if not isinstance(key, str) or not _KEY.match(key) or not key.startswith(entry.prefix):
                    raise ValueError(f"visible: {key!r} is not a widget of page {self.page!r}")
            if len(visible) > MAX_SETTINGS:
                raise ValueError(f"visible: more than {MAX_SETTINGS} keys")
            object.__setattr__(self, "visible", tuple(dict.fromkeys(visible)))
        if self.prediction is not None:
            keys = [p.key for p in PREDICTIONS.get(self.page, ())]
            if self.prediction not in keys:
                raise ValueError(
                    f"prediction: {self.prediction!r} is not asked on page {self.page!r}; "
                    f"its predictions: {', '.join(keys) or 'none'}"
                )
        object.__setattr__(self, "note", _texts(self.note, "note", MAX_NOTE_CHARS, required=False))

    @property
    def entry(self) -> PageEntry:
        """The step's row of ``rlviz.app_pages.PAGES``."""
        return step_pages()[self.page]

    def predict(self) -> Prediction | None:
        """The step's :class:`~rlviz.teach.predict.Prediction`, or ``None``."""
        return next((p for p in PREDICTIONS.get(self.page, ()) if p.key == self.prediction), None)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON / TOML): tuples become lists."""
        return {
            "page": self.page,
            "settings": {k: list(v) if isinstance(v, tuple) else v for k, v in self.settings.items()},
            "visible": None if self.visible is None else list(self.visible),
            "prediction": self.prediction,
            "note": dict(self.note),
        }

    @classmethod
    def from_dict(cls, data: Any) -> LessonStep:
        """The step from :meth:`to_dict`'s form. Raises ``ValueError`` naming the field."""
        if not isinstance(data, Mapping):
            raise ValueError(f"step: must be a mapping, got {type(data).__name__}")
        unknown = set(data) - {"page", "settings", "visible", "prediction", "note"}
        if unknown:
            raise ValueError(f"step: unknown fields {sorted(map(str, unknown))}")
        page = data.get("page")
        if not isinstance(page, str):
            raise ValueError(f"page: must be a page key, got {page!r}")
        prediction = data.get("prediction")
        if prediction is not None and not isinstance(prediction, str):
            raise ValueError(f"prediction: must be a prediction key or null, got {prediction!r}")
        return cls(
            page=page,
            settings=data.get("settings", {}),
            visible=data.get("visible"),
            prediction=prediction,
            note=data.get("note", dict.fromkeys(LANGS, "")),
        )


def _checked_steps(steps: Any, at_least: int) -> tuple[LessonStep, ...]:
    """``steps`` as a tuple of :class:`LessonStep`, ``at_least`` to ``MAX_STEPS`` of them. Raises
    ``ValueError`` naming ``steps``."""
    if isinstance(steps, (str, Mapping)) or not isinstance(steps, Iterable):
        raise ValueError("steps: must be a list of steps")
    steps = tuple(steps)
    if not at_least <= len(steps) <= MAX_STEPS:
        raise ValueError(f"steps: a lesson has 1 to {MAX_STEPS} steps, got {len(steps)}")
    for i, step in enumerate(steps):
        if not isinstance(step, LessonStep):
            raise ValueError(f"steps: step {i + 1} is not a LessonStep")
    return steps


def _fields_from_dict(data: Any, required: bool) -> dict[str, Any]:
    """The ``id``, ``title`` and ``steps`` (read into :class:`LessonStep`) of a lesson's or a draft's
    plain data (``to_dict``'s form), checked for its format and fields; without ``required`` (a draft)
    a missing ``steps`` is none. Raises ``ValueError`` naming the field."""
    if not isinstance(data, Mapping):
        raise ValueError(f"lesson: must be a mapping, got {type(data).__name__}")
    if data.get("v", FORMAT) != FORMAT:
        raise ValueError(f"v: format {data.get('v')!r} is not {FORMAT}")
    unknown = set(data) - {"v", "id", "title", "steps"}
    if unknown:
        raise ValueError(f"lesson: unknown fields {sorted(map(str, unknown))}")
    raw_steps = data.get("steps") if required else data.get("steps", [])
    if not isinstance(raw_steps, list):
        raise ValueError("steps: must be a list of steps")
    if len(raw_steps) > MAX_STEPS:
        raise ValueError(f"steps: a lesson has 1 to {MAX_STEPS} steps, got {len(raw_steps)}")
    steps = []
    for i, raw in enumerate(raw_steps):
        try:
            steps.append(LessonStep.from_dict(raw))
        except ValueError as exc:
            raise ValueError(f"steps: step {i + 1}: {exc}") from None
    return {"id": data.get("id"), "title": data.get("title"), "steps": tuple(steps)}


@dataclass(frozen=True)
class Lesson:
    """An ordered list of views, presented one after another.

    Attributes:
        id: a short name (``[a-z0-9][a-z0-9_-]*``, at most 40 characters); a shipped lesson's id is its
            URL reference (``?lesson=clipping``).
        title: ``{"en": ..., "zh": ...}``, at least one non-empty; an empty one takes the other's
            text (a lesson written for a class in one language shows that title in both).
        steps: one to ``MAX_STEPS`` :class:`LessonStep`.

    Raises:
        ValueError: naming ``id``, ``title`` or ``steps`` (``steps: step 2: page: ...``).
    """

    id: str
    title: Mapping[str, str]
    steps: tuple[LessonStep, ...]

    def __post_init__(self):
        if not isinstance(self.id, str) or not _ID.match(self.id):
            raise ValueError(f"id: {self.id!r} must be 1-40 of a-z, 0-9, _ and -, starting with a letter or digit")
        title = _texts(self.title, "title", MAX_TITLE_CHARS, required=False)
        given = [text.strip() for text in title.values() if text.strip()]
        if not given:
            raise ValueError(f"title: empty in every language ({', '.join(LANGS)})")
        object.__setattr__(self, "title", {lang: text.strip() or given[0] for lang, text in title.items()})
        object.__setattr__(self, "steps", _checked_steps(self.steps, at_least=1))

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON): ``{"v": 1, "id", "title", "steps": [...]}``."""
        return {"v": FORMAT, "id": self.id, "title": dict(self.title), "steps": [s.to_dict() for s in self.steps]}

    @classmethod
    def from_dict(cls, data: Any) -> Lesson:
        """The lesson from :meth:`to_dict`'s form. Raises ``ValueError`` naming the field."""
        return cls(**_fields_from_dict(data, required=True))


# ---------------------------------------------------------------------------------------- one URL


def encode_lesson(lesson: Lesson) -> str:
    """``lesson`` as one URL-safe text: compact JSON (UTF-8), zlib level 9, base64url without padding.
    :func:`decode_lesson` gives back an equal lesson."""
    return _pack(lesson.to_dict())


def _pack(data: dict[str, Any]) -> str:
    """Plain data as a code: compact JSON (UTF-8), zlib level 9, base64url without padding (:func:`_unpack`
    reads it back)."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(b"=").decode("ascii")


def _unpack(text: Any) -> Any:
    """The JSON data of a code written by :func:`encode_lesson` or :func:`encode_draft`. Raises
    ``ValueError`` naming ``lesson`` (see :func:`decode_lesson`)."""
    if not isinstance(text, str):
        raise ValueError(f"lesson: must be text, got {type(text).__name__}")
    text = text.strip()
    if not text:
        raise ValueError("lesson: empty")
    if len(text) > MAX_CODE_CHARS:
        raise ValueError(f"lesson: longer than {MAX_CODE_CHARS} characters")
    if not _CODE.match(text) or len(text) % 4 == 1:
        raise ValueError("lesson: not a lesson code (base64url text)")
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_JSON_BYTES)
    except (binascii.Error, zlib.error, ValueError):
        raise ValueError("lesson: not a lesson code (cannot be unpacked)") from None
    if inflater.unconsumed_tail:
        raise ValueError(f"lesson: unpacks to more than {MAX_JSON_BYTES} bytes")
    if not inflater.eof:
        raise ValueError("lesson: not a lesson code (cut short)")
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise ValueError("lesson: not a lesson code (not JSON)") from None


def decode_lesson(text: Any) -> Lesson:
    """The lesson :func:`encode_lesson` (or :func:`encode_draft`, for a draft that is a whole lesson) wrote.

    Raises:
        ValueError: ``lesson: ...`` for anything else: not text, longer than ``MAX_CODE_CHARS``,
            characters outside base64url, not zlib data, inflating past ``MAX_JSON_BYTES``, not JSON, or
            JSON that is not a valid lesson (the message then names the field after ``lesson:``).
    """
    data = _unpack(text)
    try:
        return Lesson.from_dict(data)
    except ValueError as exc:
        raise ValueError(f"lesson: {exc}") from None


# ---------------------------------------------------------------------------------------- the builder's draft


@dataclass(frozen=True)
class Draft:
    """A lesson while it is being built: what the lesson builder holds, kept in the page's address
    (``/lessons?lesson=<code>``, :func:`draft_ref`) so that a reload of the browser tab, or a new
    session after the old one expired, opens it again.

    Unlike a :class:`Lesson`, nothing is required yet: the id and the title are kept as typed (they
    may be empty, or not yet a valid id), and there may be no step. Each step is a valid
    :class:`LessonStep`.

    Attributes:
        id: the short name as typed (text, at most ``MAX_ID_CHARS`` characters).
        title: ``{"en": ..., "zh": ...}`` as typed (either may be empty).
        steps: zero to ``MAX_STEPS`` :class:`LessonStep`.

    Raises:
        ValueError: naming ``id``, ``title`` or ``steps``.
    """

    id: str = ""
    title: Mapping[str, str] = field(default_factory=lambda: dict.fromkeys(LANGS, ""))
    steps: tuple[LessonStep, ...] = ()

    def __post_init__(self):
        if not isinstance(self.id, str):
            raise ValueError(f"id: must be text, got {type(self.id).__name__}")
        if len(self.id) > MAX_ID_CHARS:
            raise ValueError(f"id: longer than {MAX_ID_CHARS} characters")
        object.__setattr__(self, "title", _texts(self.title, "title", MAX_TITLE_CHARS, required=False))
        object.__setattr__(self, "steps", _checked_steps(self.steps, at_least=0))

    @classmethod
    def of(cls, lesson: Lesson) -> Draft:
        """``lesson`` as a draft (to edit it in the builder)."""
        return cls(lesson.id, dict(lesson.title), lesson.steps)

    @property
    def blank(self) -> bool:
        """Nothing to keep yet: no step and no title (the id alone is the builder's default)."""
        return not self.steps and not any(text.strip() for text in self.title.values())

    def name(self, lang: str) -> str:
        """What to call the draft in ``lang``: its title there, else its title in another language, else its id."""
        titles = [self.title.get(lang, ""), *self.title.values()]
        return next((text.strip() for text in titles if text.strip()), self.id.strip())

    def lesson(self) -> Lesson:
        """The draft as a :class:`Lesson` (id and titles stripped of surrounding spaces).

        Raises:
            ValueError: as :class:`Lesson`, naming ``id``, ``title`` or ``steps``, while the draft is not
                yet a whole lesson.
        """
        return Lesson(self.id.strip(), {lang: text.strip() for lang, text in self.title.items()}, self.steps)

    def to_dict(self) -> dict[str, Any]:
        """Plain data, in the form of :meth:`Lesson.to_dict` (so a draft that is a whole lesson decodes as one)."""
        return {"v": FORMAT, "id": self.id, "title": dict(self.title), "steps": [s.to_dict() for s in self.steps]}

    @classmethod
    def from_dict(cls, data: Any) -> Draft:
        """The draft from :meth:`to_dict`'s form (or a lesson's). Raises ``ValueError`` naming the field."""
        fields = _fields_from_dict(data, required=False)
        return cls(data.get("id", ""), data.get("title", dict.fromkeys(LANGS, "")), fields["steps"])


def encode_draft(draft: Draft) -> str:
    """``draft`` as one URL-safe text, as :func:`encode_lesson` writes a lesson (the same form: a draft
    that is a whole lesson is a lesson code any lesson link takes). :func:`decode_draft` gives back an
    equal draft. The text may be longer than ``MAX_CODE_CHARS`` (:func:`draft_ref` says so)."""
    return _pack(draft.to_dict())


def decode_draft(text: Any) -> Draft:
    """The draft :func:`encode_draft` wrote (or a lesson :func:`encode_lesson` wrote, as a draft).

    Raises:
        ValueError: ``lesson: ...``, as :func:`decode_lesson`, but an empty or invalid id, an empty title
            and no steps are a draft's, not errors.
    """
    data = _unpack(text)
    try:
        return Draft.from_dict(data)
    except ValueError as exc:
        raise ValueError(f"lesson: {exc}") from None


def resolve_draft(ref: Any) -> Draft:
    """The draft ``?lesson=`` names on the lessons page: a shipped lesson's id (that lesson), else a code
    (:func:`decode_draft`). Raises ``ValueError`` naming ``lesson``."""
    if isinstance(ref, str) and ref in shipped_lessons():
        return Draft.of(shipped_lessons()[ref])
    return decode_draft(ref)


def draft_ref(draft: Draft) -> str:
    """What ``?lesson=`` carries for ``draft`` (the builder writes it into the page's address, and its
    share link and Present use it): a shipped lesson's id when the draft is that lesson unchanged, else
    :func:`encode_draft` (the lesson's code once the draft is a whole lesson).

    Raises:
        ValueError: naming ``lesson`` when the code is longer than ``MAX_CODE_CHARS`` (no link could
            open it: a note that the draft would be lost, rather than a link that fails).
    """
    for lesson_id, shipped in shipped_lessons().items():
        if Draft.of(shipped) == draft:
            return lesson_id
    code = encode_draft(draft)
    if len(code) > MAX_CODE_CHARS:
        raise ValueError(f"lesson: its code is {len(code)} characters, longer than the {MAX_CODE_CHARS} a link carries")
    return code


# ---------------------------------------------------------------------------------------- shipped


def _from_toml(data: Mapping[str, Any]) -> Lesson:
    """A lesson from a data file's table (see ``01_clipping.toml``): ``title_en`` / ``title_zh``, and per
    ``[[steps]]`` ``note_en`` / ``note_zh`` beside ``page``, ``prediction``, ``visible`` and a
    ``[steps.settings]`` table."""
    unknown = set(data) - {"id", "title_en", "title_zh", "steps"}
    if unknown:
        raise ValueError(f"lesson: unknown fields {sorted(unknown)}")
    steps = []
    for i, raw in enumerate(data.get("steps", [])):
        raw = dict(raw)
        note = {lang: raw.pop(f"note_{lang}", "") for lang in LANGS}
        try:
            steps.append(LessonStep.from_dict({**raw, "note": note}))
        except ValueError as exc:
            raise ValueError(f"steps: step {i + 1}: {exc}") from None
    return Lesson(data.get("id"), {lang: data.get(f"title_{lang}", "") for lang in LANGS}, tuple(steps))


@functools.cache
def shipped_lessons(folder: Path = LESSONS_DIR) -> dict[str, Lesson]:
    """The lessons shipped in ``folder`` (``*.toml``, one lesson a file), by id, in file-name order.

    Raises:
        ValueError: ``<file>: ...`` for a file that is not a valid lesson, or an id used twice.
    """
    out: dict[str, Lesson] = {}
    for path in sorted(Path(folder).glob("*.toml")):
        try:
            lesson = _from_toml(tomllib.loads(path.read_text(encoding="utf-8")))
        except (ValueError, tomllib.TOMLDecodeError) as exc:
            raise ValueError(f"{path.name}: {exc}") from None
        if lesson.id in out:
            raise ValueError(f"{path.name}: id {lesson.id!r} is used twice")
        out[lesson.id] = lesson
    return out


def lesson_ref(lesson: Lesson) -> str:
    """What ``?lesson=`` carries for ``lesson``: a shipped lesson's id when it is that lesson
    unchanged, else its code (:func:`encode_lesson`)."""
    shipped = shipped_lessons().get(lesson.id)
    return lesson.id if shipped == lesson else encode_lesson(lesson)


def resolve_lesson(ref: Any) -> Lesson:
    """The lesson ``?lesson=`` names: a shipped lesson's id, else a code. Raises ``ValueError``
    naming ``lesson`` (:func:`decode_lesson`)."""
    if isinstance(ref, str) and ref in shipped_lessons():
        return shipped_lessons()[ref]
    return decode_lesson(ref)


# ---------------------------------------------------------------------------------------- presenting


def step_query(ref: str, lesson: Lesson, index: int, lang: str = DEFAULT_LANG) -> dict[str, str | list[str]]:
    """The URL parameters that open step ``index`` (0-based) of ``lesson`` in presenter mode: the
    step's settings, then ``lesson=<ref>``, ``step`` (``index + 1``: counted from 1, as the presenter
    bar says "Step 2 of 4"), ``present=1`` and ``lang`` (left out for the default language).

    Raises:
        ValueError: naming ``step`` when ``index`` is not a step of the lesson.
    """
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(lesson.steps):
        raise ValueError(f"step: {index!r} is not a step of the lesson (0 to {len(lesson.steps) - 1})")
    step = lesson.steps[index]
    query: dict[str, str | list[str]] = {k: list(v) if isinstance(v, tuple) else v for k, v in step.settings.items()}
    query.update({"lesson": ref, "step": str(index + 1), "present": "1"})
    if lang != DEFAULT_LANG and lang in LANGS:
        query["lang"] = lang
    return query


def step_index(value: Any, lesson: Lesson) -> int:
    """``?step=`` (the step's number counted from 1, as text: ``step=2`` is "Step 2 of n") as an index
    of ``lesson.steps`` (0-based): 0, the first step, when it is not a whole number written as such or
    not a step of the lesson, as any URL parameter a page cannot take falls back to its default (the app
    notes it: ``str(step_index(v, lesson) + 1) != v``)."""
    text = str(value)
    if not text.isascii() or not text.isdecimal() or len(text) > 6:  # "-1", "1.5", "７", a 5,000-digit number
        return 0
    number = int(text)
    return number - 1 if 1 <= number <= len(lesson.steps) and text == str(number) else 0  # "01": not as written


def _is_address(text: str) -> bool:
    """Whether a pasted settings text is one page address (or its ``?query``), not ``key=value`` lines."""
    return "\n" not in text and ("?" in text or "://" in text or text.startswith("/"))


def _address_path(parts) -> str:
    """The page part of an address's path (``/curves`` -> ``curves``; a deployment's prefix dropped)."""
    return parts.path.strip("/").split("/")[-1] if parts.path else ""


def page_of_address(text: Any) -> str | None:
    """The step page a pasted page address opens (``http://host/moe?mo_lr=...`` -> ``"moe"``), or
    ``None`` for anything else: ``key=value`` lines, a bare ``?query``, an address of a page no step
    can open. The builder sets its page field from it, so pasting another page's address switches
    the step's page instead of being refused by :func:`parse_settings`."""
    if not isinstance(text, str) or not _is_address(text.strip()):
        return None
    path = _address_path(urlsplit(text.strip()))
    return next((key for key, entry in step_pages().items() if path and entry.url_path == path), None)


def parse_settings(text: str, page: str) -> dict[str, Value]:
    """A step's settings from what a teacher pastes: a page URL (``http://host/curves?c_algos=PPO&...``,
    or just its ``?query``), or ``key=value`` lines (a key repeated for a multiselect's values).

    The app's own parameters (``APP_PARAMS``: language, seed, device, lesson) are dropped.

    Raises:
        ValueError: naming ``settings``: a line without ``=``, a URL of another page, a key that is not
            a widget of ``page`` (as :class:`LessonStep`); naming ``page`` for an unknown page.
    """
    pages = step_pages()
    if page not in pages:
        raise ValueError(f"page: {page!r} is not a page a step can open; pages: {', '.join(pages)}")
    text = (text or "").strip()
    pairs: list[tuple[str, str]] = []
    if not text:
        return {}
    if _is_address(text):
        parts = urlsplit(text)
        path = _address_path(parts)
        if path and path != pages[page].url_path:
            other = next((p.key for p in PAGES if p.url_path == path), path)
            raise ValueError(f"settings: the link opens page {other!r}, not {page!r}")
        for key, values in parse_qs(parts.query, keep_blank_values=True).items():
            pairs.extend((key, v) for v in values)
    else:
        for n, line in enumerate(text.splitlines(), start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if "=" not in line:
                raise ValueError(f"settings: line {n} {line[:40]!r} is not key=value")
            key, value = line.split("=", 1)
            pairs.append((key.strip(), value.strip()))
    grouped: dict[str, list[str]] = {}
    for key, value in pairs:
        if key in APP_PARAMS:
            continue
        grouped.setdefault(key, []).append(value)
    raw = {k: v[0] if len(v) == 1 else tuple(v) for k, v in grouped.items()}
    return dict(_settings(pages[page], raw))


def _values(value: Value) -> list[str]:
    return list(value) if isinstance(value, tuple) else [value]


def _unknown_labels(
    key: str, value: Value, labels: Mapping[str, str], kind: str, lang: str
) -> tuple[list[str], str | None]:
    """A multiselect's URL values (its options' labels): the options they name, and a message in
    ``lang`` naming ``key`` for the labels that name none (the page then shows its default choice
    instead); ``kind``: ``curve`` or ``objective`` (``lessons.warn.unknown_<kind>``)."""
    given = [v for v in _values(value) if v != ""]  # ``key=`` alone: an empty choice
    by_label = {label: option for option, label in labels.items()}
    unknown = [v for v in given if v not in by_label]
    if not unknown:
        return [by_label[v] for v in given], None
    names = LIST_SEPARATOR[lang].join(repr(v) for v in unknown)
    text = t(f"lessons.warn.unknown_{kind}", lang, n=len(unknown), names=names, known=", ".join(labels.values()))
    return [], f"{key}: {text}"


def _curves_warnings(settings: Mapping[str, Value], lang: str) -> list[str]:
    from rlviz.experiments import curves as C

    catalog = C.variants()
    out = []
    chosen = list(C.DEFAULT_VARIANTS)
    if "c_algos" in settings:
        named, problem = _unknown_labels(
            "c_algos", settings["c_algos"], {k: v.title for k, v in catalog.items()}, "curve", lang
        )
        if problem is None:
            chosen = named
        else:
            out.append(problem)
    controls = curve_controls()
    for key, value in settings.items():
        if key not in controls:
            continue
        variant, s, toggle = controls[key]
        values = _values(value)

        def warn(what: str, **fields) -> None:
            out.append(f"{key}: {t(f'lessons.warn.{what}', lang, **fields)}")  # noqa: B023 -- called at once

        if variant not in chosen:
            warn("not_shown", title=catalog[variant].title)
        elif len(values) != 1:
            warn("repeated", n=len(values))
        elif toggle:
            if values[0].lower() not in ("true", "false"):
                warn("not_bool", value=repr(values[0]))
        else:
            try:
                number = float(values[0])
            except ValueError:
                warn("not_number", value=repr(values[0]))
                continue
            if s.choices and not any(math.isclose(number, float(c), rel_tol=1e-9, abs_tol=0.0) for c in s.choices):
                warn("not_choice", value=values[0], choices=", ".join(f"{c:g}" for c in s.choices))
            elif s.range and not float(s.range[0]) <= number <= float(s.range[1]):
                warn("out_of_range", value=values[0], low=f"{s.range[0]:g}", high=f"{s.range[1]:g}")
    return out


def curve_controls() -> dict[str, tuple[str, Any, bool]]:
    """The curves page's per-curve sliders, by widget key: ``c_<variant>_<setting>`` -> ``(variant,
    its registry Setting, False)``, and for an optional setting (default ``None``) its toggle
    ``c_<variant>_<setting>_on`` -> ``(variant, Setting, True)``; read from the registry
    (``rlviz.experiments.curves.variants`` and each objective's ``surrogate_settings``)."""
    from rlviz.core.objectives import ALGORITHMS
    from rlviz.experiments import curves as C

    controls = {}
    for key, variant in C.variants().items():
        for s in ALGORITHMS[variant.algorithm].surrogate_settings:
            controls[f"c_{key}_{s.name}"] = (key, s, False)
            if s.default is None:
                controls[f"c_{key}_{s.name}_on"] = (key, s, True)
    return controls


def _shown_curves(settings: Mapping[str, Value]) -> list[str]:
    """The curves a curves-page step shows: those its ``c_algos`` names (by title), else the page's
    default curves (also when ``c_algos`` names none the page knows: the page falls back to them)."""
    from rlviz.experiments import curves as C

    if "c_algos" not in settings:
        return list(C.DEFAULT_VARIANTS)
    named, problem = _unknown_labels(
        "c_algos", settings["c_algos"], {k: v.title for k, v in C.variants().items()}, "curve", DEFAULT_LANG
    )
    return list(C.DEFAULT_VARIANTS) if problem is not None else named


def visible_choices(page: str, settings: Mapping[str, Value]) -> tuple[str, ...]:
    """The widget keys the builder offers for a step's ``visible`` list on ``page`` at ``settings``:
    :func:`page_widget_keys`, and on the curves page the sliders of the curves the step shows
    (:func:`curve_controls`; a step showing DAPO offers ``c_dapo_epsilon_high``). Raises
    ``ValueError`` naming ``page``."""
    keys = list(page_widget_keys(page))
    if page == "curves":
        shown = set(_shown_curves(settings))
        keys += [key for key, (variant, _, _) in curve_controls().items() if variant in shown]
    return tuple(dict.fromkeys(keys))


def visible_warnings(
    page: str, settings: Mapping[str, Value], visible: Iterable[str] | None, lang: str = DEFAULT_LANG
) -> tuple[str, ...]:
    """The keys of a step's ``visible`` list that ``page`` will not draw at ``settings``, as the library
    knows them: on the curves page a curve's slider for a curve the step does not show. One message
    per key in ``lang``, starting with the key. Raises ``ValueError`` naming ``page`` or ``lang``."""
    pages = step_pages()
    if page not in pages:
        raise ValueError(f"page: {page!r} is not a page a step can open; pages: {', '.join(pages)}")
    if lang not in LANGS:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGS)}")
    if page != "curves" or not visible:
        return ()
    from rlviz.experiments import curves as C

    shown, controls, catalog = set(_shown_curves(settings)), curve_controls(), C.variants()
    return tuple(
        f"{key}: {t('lessons.warn.not_shown', lang, title=catalog[controls[key][0]].title)}"
        for key in visible
        if key in controls and controls[key][0] not in shown
    )


def _live_warnings(settings: Mapping[str, Value], lang: str) -> list[str]:
    from rlviz.core.objectives import ALGORITHMS

    if "lv_algos" not in settings:
        return []
    labels = {name: spec.title for name, spec in ALGORITHMS.items()}
    _, problem = _unknown_labels("lv_algos", settings["lv_algos"], labels, "objective", lang)
    return [] if problem is None else [problem]


# the settings a page takes whose choices or ranges the library states (the registry), by page
_SETTING_CHECKS = {"curves": _curves_warnings, "live": _live_warnings}


def setting_warnings(page: str, settings: Mapping[str, Value], lang: str = DEFAULT_LANG) -> tuple[str, ...]:
    """What ``page`` will not take among a step's ``settings`` (URL text, as :func:`parse_settings`
    returns them), from what the library states about the page's controls; one message per problem
    in ``lang`` (``lessons.warn.*``), each starting with the parameter's name. The builder shows them as a warning and still adds the
    step (the presented page notes such a value and shows its default).

    Checked, from the registry (``ALGORITHMS``, ``rlviz.experiments.curves.variants``):

    - curves: ``c_algos`` names curves by their titles; ``c_<variant>_<setting>`` is a number within
      the setting's ``Setting.range``, or one of its ``Setting.choices``; its ``..._on`` toggle is
      true or false; a setting of a curve the step does not show (not in ``c_algos``, or not among
      the page's defaults ``DEFAULT_VARIANTS`` when ``c_algos`` is not given) has no slider.
    - live: ``lv_algos`` names objectives by their titles.

    Nothing else: the other controls' ranges and choices are written in the page scripts, not in
    the library, so a value outside them is left to the page's own URL check.

    Raises:
        ValueError: naming ``page`` for a page a step cannot open; naming ``lang``.
    """
    pages = step_pages()
    if page not in pages:
        raise ValueError(f"page: {page!r} is not a page a step can open; pages: {', '.join(pages)}")
    if lang not in LANGS:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGS)}")
    check = _SETTING_CHECKS.get(page)
    return tuple(check(settings, lang)) if check else ()


# ---------------------------------------------------------------------------------------- worksheets


@dataclass(frozen=True)
class Question:
    """One worksheet question: a step's prediction, asked at the step's settings.

    Attributes:
        number: 1, 2, ... among the lesson's questions.
        step: the step's number (1-based).
        page: the step's page key.
        key: the prediction's key (``teach.curves_ceiling``).
        kind: ``"number"``, ``"choice"`` or ``"line"``.
        text: the question in each language (``<key>.q`` with the step's fields).
        choices: for a choice question, each choice's label in each language; for a line question, the
            lines of the view (an objective by its registry title).
        answer: ``Prediction.compute`` at the step's state (a float, or a choice key); ``None`` for a
            question whose answer the class's run measures (``Prediction.needs_result``: the live page).
        answer_text: the answer as the app shows it, in each language (for a measured one, where the
            app reveals it: ``lessons.ws.measured``).
        why: the explanation in each language (``<key>.why`` / ``<key>.why.<choice>``; for a measured
            one, ``lessons.ws.measured_why``).
        note: the step's teacher's note.
    """

    number: int
    step: int
    page: str
    key: str
    kind: str
    text: Mapping[str, str]
    choices: tuple[Mapping[str, str], ...]
    answer: Any
    answer_text: Mapping[str, str]
    why: Mapping[str, str]
    note: Mapping[str, str]


def answer_text(prediction: Prediction, answer: Any, lang: str) -> str:
    """An answer as the app's predict-then-reveal widget shows it: a number to 4 significant digits,
    a choice by its label in ``lang``."""
    if prediction.kind == "number":
        return f"{float(answer):.4g}"
    return t(f"{prediction.key}.choice.{answer}", lang)


def _line_name(line: str) -> str:
    """A line of a view by its name: an objective by its registry title, else the key itself."""
    from rlviz.core.objectives import ALGORITHMS

    return ALGORITHMS[line].title if line in ALGORITHMS else line


def worksheet(lesson: Lesson) -> tuple[Question, ...]:
    """One :class:`Question` per step of ``lesson`` that asks a prediction, in step order, each with the
    answer computed now by ``Prediction.compute`` at ``state_from_settings(step.page, step.settings)``;
    a question answered by a run the class makes (``needs_result``, the live page) is asked with its
    fields and its key says where the app reveals the measured answer (no number is typed or guessed).

    Raises:
        ValueError: ``steps: step k: ...`` when a step's settings give no valid state (the message
            names the setting) or its prediction does not apply at them.
    """
    out = []
    for i, step in enumerate(lesson.steps):
        prediction = step.predict()
        if prediction is None:
            continue
        try:
            state = state_from_settings(step.page, step.settings)
            if not prediction.applies(state):
                raise ValueError(f"prediction: {prediction.key!r} does not apply at this step's settings")
            answer = None if prediction.needs_result else prediction.compute(state)
            fields = prediction.fields(state)
            lines = prediction.options(state) if prediction.kind == "line" else ()
        except ValueError as exc:
            raise ValueError(f"steps: step {i + 1}: {exc}") from None
        if answer is None:  # measured by the class's run: the key says where the app reveals it
            shown = {lang: t("lessons.ws.measured", lang, step=i + 1) for lang in LANGS}
            why = {lang: t("lessons.ws.measured_why", lang) for lang in LANGS}
        else:
            shown = {lang: answer_text(prediction, answer, lang) for lang in LANGS}
            why_key = f"{prediction.key}.why" if prediction.kind == "number" else f"{prediction.key}.why.{answer}"
            why = {lang: t(why_key, lang, answer=shown[lang], **fields) for lang in LANGS}
        if prediction.kind == "line":
            choices = tuple(dict.fromkeys(LANGS, _line_name(line)) for line in lines)
        else:
            choices = tuple(
                {lang: t(f"{prediction.key}.choice.{c}", lang) for lang in LANGS} for c in prediction.choices
            )
        out.append(
            Question(
                number=len(out) + 1,
                step=i + 1,
                page=step.page,
                key=prediction.key,
                kind=prediction.kind,
                text={lang: t(f"{prediction.key}.q", lang, **fields) for lang in LANGS},
                choices=choices,
                answer=answer,
                answer_text=shown,
                why=why,
                note=dict(step.note),
            )
        )
    return tuple(out)


def steps_frame(lesson: Lesson, lang: str) -> pd.DataFrame:
    """The lesson's steps as a table: ``step`` (1-based), ``page`` (its title in ``lang``),
    ``settings`` (``key=value`` joined), ``visible`` (the keys, or empty for all), ``prediction`` (its
    question in ``lang`` at the step's settings, or empty) and ``note`` (in ``lang``)."""
    questions = {q.step: q for q in worksheet(lesson)}
    rows = []
    for i, step in enumerate(lesson.steps, start=1):
        settings = "; ".join(f"{k}={'|'.join(v) if isinstance(v, tuple) else v}" for k, v in step.settings.items())
        rows.append(
            {
                "step": i,
                "page": t(f"nav.{step.page}", lang),
                "settings": settings,
                "visible": "" if step.visible is None else ", ".join(step.visible),
                "prediction": questions[i].text[lang] if i in questions else "",
                "note": step.note[lang],
            }
        )
    return pd.DataFrame(rows, columns=["step", "page", "settings", "visible", "prediction", "note"])


def page_widget_keys(page: str) -> tuple[str, ...]:
    """The widget keys the lesson builder offers for a step's ``visible`` list on ``page``: the keys
    written literally in the page's script (``key="c_algos"``) that carry the page's prefix (download
    buttons' keys left out), then those
    the shipped lessons' steps on that page name, without repeats. Keys made at run time (the curves
    page's ``c_<variant>_<setting>``) are not in the script: a step's own settings add theirs, and the
    builder accepts any key with the page's prefix. Raises ``ValueError`` naming ``page``."""
    pages = step_pages()
    if page not in pages:
        raise ValueError(f"page: {page!r} is not a page a step can open; pages: {', '.join(pages)}")
    entry = pages[page]
    path = ROOT / entry.file
    found = _LITERAL_KEY.findall(path.read_text(encoding="utf-8")) if path.exists() else []
    for lesson in shipped_lessons().values():
        for step in lesson.steps:
            if step.page == page:
                found += [*step.settings, *(step.visible or ())]
    downloads = re.compile(r"csv|_dl(_|$)")  # download buttons' keys (c_csv_curves, lv_dl_json): not settings
    return tuple(k for k in dict.fromkeys(found) if k.startswith(entry.prefix) and not downloads.search(k))
