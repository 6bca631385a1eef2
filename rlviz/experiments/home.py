"""What the Home page shows, read from the registry (``rlviz.core.objectives.ALGORITHMS``) each
call, so an entry added to it is on the map and in the tables with no other edit."""

from __future__ import annotations

import textwrap

import pandas as pd

from rlviz.core.objectives import ALGORITHMS
from rlviz.core.parity import checked_against

__all__ = ["SETTING_COLUMNS", "family_tree", "framework_check", "paper_note", "settings_frame"]

SETTING_COLUMNS = ("algorithm", "setting", "default", "meaning", "source", "trl", "verl")


def family_tree(lang: str, wrap: int | None = None) -> dict[str, dict[str, str | None]]:
    """The map of the registry: ``{"parents": {name: parent or None}, "titles": {name: title},
    "hover": {name: "<b>title</b><br>summary..."}}``, in registry order; the summary in ``lang``
    (``"en"`` / ``"zh"``), wrapped every ``wrap`` characters (default 50 for en, 26 for zh).

    Raises ``ValueError`` for a language the summaries do not have."""
    if any(lang not in spec.summary for spec in ALGORITHMS.values()):
        raise ValueError(f"lang: {lang!r} is not a language of the registry's summaries")
    width = wrap or (50 if lang == "en" else 26)
    parents = {n: s.parent for n, s in ALGORITHMS.items()}
    titles = {n: s.title for n, s in ALGORITHMS.items()}
    hover = {
        n: f"<b>{s.title}</b><br>" + "<br>".join(textwrap.wrap(s.summary[lang], width)) for n, s in ALGORITHMS.items()
    }
    return {"parents": parents, "titles": titles, "hover": hover}


def settings_frame(lang: str, algorithm: str | None = None) -> pd.DataFrame:
    """Every setting of every registry entry (or of ``algorithm`` only): one row each, columns
    ``SETTING_COLUMNS``: the algorithm's title, the setting's name, its default (``None`` = off or
    none), its meaning in ``lang``, the source of the default, and its TRL / verl names (``None``
    where the framework has none). Raises ``ValueError`` for an unknown ``algorithm``."""
    if algorithm is not None and algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm: unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
    names = [algorithm] if algorithm else list(ALGORITHMS)
    rows = [
        {
            "algorithm": ALGORITHMS[n].title,
            "setting": s.name,
            "default": s.default,
            "meaning": s.help.get(lang, ""),
            "source": s.source,
            "trl": s.trl,
            "verl": s.verl,
        }
        for n in names
        for s in ALGORITHMS[n].loss_settings + ALGORITHMS[n].train_settings
    ]
    return pd.DataFrame(rows, columns=list(SETTING_COLUMNS))


def framework_check(name: str) -> tuple[str, str]:
    """Whether objective ``name`` was checked against TRL / verl (``rlviz.core.parity``: the frameworks'
    own loss code on fixed float64 inputs, loss and per-token gradient to 1e-6).

    Returns ``(state, frameworks)``: ``("checked", "TRL 1.16.0 / verl 0.9.1")`` with every framework
    whose stored cases for it all pass; ``("unchecked", "")`` where the registry names a TRL or verl
    implementation (``spec.trl`` / ``spec.verl``) but no stored case passes; ``("none", "")`` where
    no framework implements it. Raises ``ValueError`` for an unknown ``name``."""
    if name not in ALGORITHMS:
        raise ValueError(f"name: unknown algorithm {name!r}; known: {', '.join(ALGORITHMS)}")
    checked = checked_against().get(name, ())
    if checked:
        return "checked", " / ".join(f"{title} {version}" for title, version in checked)
    spec = ALGORITHMS[name]
    return ("unchecked" if spec.trl is not None or spec.verl is not None else "none"), ""


def paper_note(name: str, lang: str) -> str | None:
    """Where rlviz follows the paper's description of objective ``name`` and not its authors' released
    code, what the code does instead, in ``lang`` (the registry's ``AlgorithmSpec.follows_paper``); ``None``
    where it follows the code or the two agree. Raises ``ValueError`` for an unknown ``name`` or a
    language the note does not have."""
    if name not in ALGORITHMS:
        raise ValueError(f"name: unknown algorithm {name!r}; known: {', '.join(ALGORITHMS)}")
    note = ALGORITHMS[name].follows_paper
    if note is None:
        return None
    if lang not in note:
        raise ValueError(f"lang: {lang!r} is not a language of {name}'s note")
    return note[lang]
