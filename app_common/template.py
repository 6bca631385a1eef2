"""The one shape of every page (``../shared/explorables.md``): title, a lede of a sentence or two, the main
figure with the controls that drive it, then notes on demand, a block for practitioners (TRL / verl
names, papers, framework notes), predictions and export.

A page fills it in this order::

    page_top("weighting")                 # title, place on the path, lede (locale ``weighting.lede``)
    ... controls, then chart(...) ...      # the figure, inside the first screen
    with notes():                          # "How to read this": the explanations, collapsed
        st.markdown(...)
    with practitioners():                  # "For practitioners": config keys, arXiv ids, framework notes
        st.markdown(...)

Terms of the glossary (``rlviz.locale.glossary``) in a lede or a note get hover help (:func:`glossed`).
"""

from __future__ import annotations

import contextlib
import html
import re

import streamlit as st

from app_common.text import lang, tr
from rlviz.i18n import t

TOP_SLOT = "_rlviz_top_slot"  # this script run's slot under the lede: a presenter's question is drawn there
LEDE_MAX_WORDS = 60  # the most words of a lede (English words; Chinese: characters / 2)


def page_top(key: str, *, title_key: str | None = None, lede_key: str | None = None, **fields: object) -> None:
    """The top of page ``key``: its title (``<key>.title``), the slot where a lesson's presenter puts
    the step's question (:data:`TOP_SLOT`), and its lede (``<key>.lede`` formatted with ``fields``;
    at most :data:`LEDE_MAX_WORDS` words), with the glossary's terms as hover help."""
    st.title(tr(title_key or f"{key}.title"))
    from app_common.path import path_marker  # the newcomer's path (issue 40): step k of n, Previous / Next

    path_marker(key)
    lede(tr(lede_key or f"{key}.lede", **fields))
    st.session_state[TOP_SLOT] = st.container()


def top_slot():
    """The container under this page's lede (:func:`page_top`), or None on a page drawn without it."""
    return st.session_state.get(TOP_SLOT)


def lede(text: str) -> None:
    """A paragraph of the page's own words (a locale string, never user input) with hover help on
    the glossary's terms."""
    st.markdown(glossed(text), unsafe_allow_html=True)


@contextlib.contextmanager
def notes(label_key: str = "page.notes", expanded: bool = False, key: str | None = None):
    """The page's explanations, on demand: an expander (``label_key``, default "How to read this")."""
    with st.expander(tr(label_key), expanded=expanded, icon=":material/menu_book:", key=key):
        yield


@contextlib.contextmanager
def practitioners(key: str | None = None):
    """The block for practitioners: TRL / verl names, arXiv ids, framework differences (collapsed)."""
    with st.expander(tr("page.practitioners"), icon=":material/build:", key=key):
        yield


# ---------------------------------------------------------------------------------------- glossary
_SKIP = re.compile(r"(\$[^$]*\$|`[^`]*`|\[[^\]]*\]\([^)]*\)|<[^>]*>|\*\*)")


def _terms(language: str) -> list[tuple[str, str, str]]:
    """(term key, a name as written in ``language``, its definition), longest names first."""
    from rlviz.locale.glossary import TERMS

    out = []
    for term in TERMS:
        definition = t(f"glossary.{term}.def", language)
        for name in t(f"glossary.{term}.names", language).split("|"):
            if name.strip():
                out.append((term, name.strip(), definition))
    return sorted(out, key=lambda x: -len(x[1]))


def glossed(text: str, language: str | None = None) -> str:
    """``text`` (Markdown of the page's own locale) with the first use of each glossary term wrapped
    in ``<abbr title="definition">`` (hover help). Formulas (``$...$``), code, links and HTML are
    left as they are; Latin names match whole words only (not the k1 of Kimi k1.5), case-insensitively."""
    language = language or lang()
    done: set[str] = set()
    markup: list[str] = []
    parts = _SKIP.split(text)  # odd items: what is left as it is
    for term, name, definition in _terms(language):
        if term in done:
            continue
        latin = name.isascii()
        pattern = re.compile(
            (r"(?<![\w-])" + re.escape(name) + r"(?![\w-]|\.\d)") if latin else re.escape(name),  # not k1 of k1.5
            flags=re.IGNORECASE if latin else 0,
        )
        for i in range(0, len(parts), 2):
            match = pattern.search(parts[i])
            if match is None:
                continue
            done.add(term)
            tip = html.escape(definition, quote=True)
            markup.append(f'<abbr class="rlviz-term" title="{tip}">{html.escape(match.group(0))}</abbr>')
            # a marker no later name can match inside; replaced by the markup at the end
            parts[i] = parts[i][: match.start()] + f"\0{len(markup) - 1}\0" + parts[i][match.end() :]
            break
    return re.sub(r"\0(\d+)\0", lambda m: markup[int(m.group(1))], "".join(parts))


GLOSSARY_CSS = "<style>abbr.rlviz-term{text-decoration:underline dotted;text-underline-offset:3px;cursor:help}</style>"


def glossary_list() -> None:
    """Every term of the glossary with its definition, in the session's language (the sidebar's
    "Glossary" popover)."""
    from rlviz.locale.glossary import TERMS

    rows = [f"**{tr(f'glossary.{t}.names').split('|')[0]}**: {tr(f'glossary.{t}.def')}" for t in TERMS]
    st.markdown("\n\n".join(rows))
