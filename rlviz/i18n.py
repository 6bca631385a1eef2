"""Every user-visible string of the app, in English and 简体中文: one table, merged from the
modules of :mod:`rlviz.locale` (one per page, plus ``shell`` for the navigation and sidebar).

``t(key, lang, **fmt)`` looks a string up and formats it with ``str.format`` when ``fmt`` is given.
A missing key or an unknown language raises: the table must be complete, and the tests check that
every key has a non-empty text in both languages. Algorithm names, paper titles and one-line
summaries are not here: they come from the algorithm registry (``rlviz.core.objectives``).
"""

from __future__ import annotations

__all__ = ["DEFAULT_LANG", "FULL_STOP", "LANGS", "LIST_SEPARATOR", "SENTENCE_SEPARATOR", "STRINGS", "t"]

# punctuation, not text: between the items of a list, and between two sentences
LIST_SEPARATOR = {"en": ", ", "zh": "、"}
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


def t(key: str, lang: str, **fmt: object) -> str:
    """The text for ``key`` in ``lang``, formatted with ``fmt`` when given.

    Raises:
        KeyError: ``key`` is not in the table (a missing string is a bug, not a fallback).
        ValueError: ``lang`` is not one of ``LANGS``.
    """
    if lang not in LANGS:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LANGS)}")
    text = STRINGS[key][lang]
    return text.format(**fmt) if fmt else text
