"""Every user-visible string of the app, in English and 简体中文: one table, merged from the
modules of :mod:`rlviz.locale` (one per page, plus ``shell`` for the navigation and sidebar and
``tex`` for the words inside formulas).

``t(key, lang, **fmt)`` looks a string up and formats it with ``str.format`` when ``fmt`` is given.
One format spec of its own chooses an English noun's number: ``{n:plural:prompt|prompts}`` gives
"prompt" when ``n`` is 1 and "prompts" otherwise (``"{n} {n:plural:prompt|prompts}"`` -> "1 prompt",
"16 prompts"); Chinese does not inflect and writes ``{n}`` alone.
A missing key or an unknown language raises: the table must be complete, and the tests check that
every key has a non-empty text in both languages. Algorithm names, paper titles and one-line
summaries are not here: they come from the algorithm registry (``rlviz.core.objectives``).
The registries write their formulas in English; ``latex_text(latex, lang)`` puts the words of their
``\\text{...}`` annotations (``\\text{dual clip}``, ``\\text{otherwise}``) in the language shown.
"""

from __future__ import annotations

import math
import re
import string

__all__ = [
    "CLAUSE_SEPARATOR",
    "DEFAULT_LANG",
    "FULL_STOP",
    "LANGS",
    "LIST_SEPARATOR",
    "SENTENCE_SEPARATOR",
    "STRINGS",
    "cell",
    "fill",
    "latex_text",
    "num",
    "pct",
    "t",
]

# punctuation, not text: between the items of a list, and between two sentences
LIST_SEPARATOR = {"en": ", ", "zh": "、"}
# between clauses of one message (a list of problems)
CLAUSE_SEPARATOR = {"en": "; ", "zh": "；"}
SENTENCE_SEPARATOR = {"en": " ", "zh": ""}
FULL_STOP = {"en": ". ", "zh": "。"}  # ends a sentence (and, in English, spaces it from the next)

# language code -> the language's own name (shown in the switch)
LANGS: dict[str, str] = {"en": "English", "zh": "中文"}
DEFAULT_LANG = "en"

STRINGS: dict[str, dict[str, str]] = {}


def _merge_locale_modules() -> None:
    """Add every module of :mod:`rlviz.locale` (one per page, plus ``shell``) to :data:`STRINGS`,
    found by itself: a new page's ``rlviz/locale/<page>.py`` needs no edit here. A key defined
    twice is a bug and raises ``RuntimeError``."""
    import importlib
    import pkgutil

    import rlviz.locale

    for info in sorted(pkgutil.iter_modules(rlviz.locale.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"rlviz.locale.{info.name}")
        clash = STRINGS.keys() & module.STRINGS.keys()
        if clash:
            raise RuntimeError(f"{module.__name__}: keys already defined: {sorted(clash)}")
        STRINGS.update(module.STRINGS)


_merge_locale_modules()


class _Formatter(string.Formatter):
    """``str.format`` plus the ``plural:<one>|<many>`` format spec (module doc)."""

    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec.startswith("plural:"):
            one, bar, many = format_spec.removeprefix("plural:").partition("|")
            if not bar:
                raise ValueError(f"format_spec: {format_spec!r} is not plural:<one>|<many>")
            # the count 1 (an int, or its text "1"): a decimal such as 1.0 takes the plural in English
            is_one = str(value).strip() == "1" and not isinstance(value, float)
            return one if is_one else many
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def fill(text: str, **fmt: object) -> str:
    """``text`` (a string of the table, in one language) formatted with ``fmt``, as :func:`t` formats
    it: ``str.format`` plus the ``plural`` spec (module doc). For callers that hold the text itself.

    Raises:
        KeyError: ``text`` names a field that ``fmt`` lacks.
        ValueError: a malformed format spec (``format_spec``)."""
    return _FORMATTER.format(text, **fmt)


def t(key: str, lang: str, **fmt: object) -> str:
    """The text for ``key`` in ``lang``, formatted with ``fmt`` when given.

    Raises:
        KeyError: ``key`` is not in the table (a missing string is a bug, not a fallback).
        ValueError: ``lang`` is not one of ``LANGS``.
    """
    if lang not in LANGS:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGS)}")
    text = STRINGS[key][lang]
    return _FORMATTER.format(text, **fmt) if fmt else text


# numbers as text, the same in both languages (the pages' tables and readings; app_common.text re-exports them)
def pct(value: float | None) -> str:
    """A share as a percentage: two decimals below 0.1%, else one; "—" for a missing or NaN value."""
    if value is None or not math.isfinite(value):
        return "—"
    return f"{value:.2%}" if 0 < abs(value) < 0.001 else f"{value:.1%}"


def num(value: float | None, digits: int = 3) -> str:
    """A number to ``digits`` significant digits; "—" for a missing or NaN value."""
    return f"{value:.{digits}g}" if value is not None and math.isfinite(value) else "—"


def cell(value: float | None, digits: int = 3, signed: bool = False) -> str:
    """A table cell to ``digits`` decimals (with its sign if ``signed``); "—" for a missing or NaN value."""
    if value is None or not math.isfinite(value):
        return "—"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


# \text{...} with no brace inside (a symbol's subscript \text{old}, or words); its content split into the
# spaces and punctuation around it and the words in between, which are what the table translates
_TEXT_RUN = re.compile(r"\\text\{([^{}]*)\}")
_EDGES = re.compile(r"^([\s,:;]*)(.*?)([\s,:;]*)$", re.DOTALL)
TEX_PREFIX = "tex."  # the keys of the words inside formulas (rlviz/locale/tex.py)


def latex_text(latex: str, lang: str) -> str:
    """``latex`` with the words of its ``\\text{...}`` annotations in ``lang``.

    The registries (``AlgorithmSpec.latex``, ``EstimatorSpec.latex``, ``KLEstimator.latex``) and the
    pages write formulas in English; a ``\\text{}`` whose words (the content without the spaces and the
    ``,:;`` around it) are the English text of a ``tex.*`` key of the table gets that key's text in
    ``lang``, the spaces and punctuation around it kept: ``\\text{dual clip }`` -> ``\\text{双裁剪 }``.
    Any other ``\\text{}`` (a symbol's name such as ``\\text{old}`` in ``\\pi_\\text{old}``, a term
    such as ``\\text{KL}``) is left as written, as is everything outside ``\\text{}``. In English,
    ``latex`` unchanged.

    Raises:
        ValueError: ``lang`` is not one of ``LANGS``.
    """
    if lang not in LANGS:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGS)}")
    if lang == DEFAULT_LANG or "\\text{" not in latex:
        return latex
    words = {v["en"]: v[lang] for k, v in STRINGS.items() if k.startswith(TEX_PREFIX)}

    def one(match: re.Match) -> str:
        lead, core, tail = _EDGES.match(match.group(1)).groups()
        return "\\text{" + lead + words[core] + tail + "}" if core in words else match.group(0)

    return _TEXT_RUN.sub(one, latex)
