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
A page with much below its first screen draws only that screen when a reader arrives on it, and the
rest in the run that follows (:func:`first_screen_only`, :func:`draw_rest_later`).
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


# ---------------------------------------------------------------------------------------- the first screen first
FOLD_DELAY_S = 0.05  # the browser's wait before it asks for the rest of the page (a fragment's run_every)
_FOLD_WAIT = "_rlviz_fold_wait"  # session key: the loader below was drawn in this run (its first call)


def first_screen_only() -> bool:
    """Whether this run of a page draws only its first screen (title, lede, the main figure with its
    controls, the questions) and leaves the rest to :func:`draw_rest_later`.

    True in the full run in which a reader arrives from another page (the sidebar, a page link) with
    nothing but the sidebar's own parameters in the URL (``lang``, ``app_common.urlstate.SHELL_URL_KEYS``;
    a link with a page's settings, a lesson's step, is drawn whole: its widgets must take their values
    in this run). A browser draws all the elements that reach it together in one go: a page whose
    script sends its figure and 80 more elements within a tenth of a second drew its first chart only
    with the last of them (issue 39: 1.7-2.6 s from the click on the weighting, sampling and length
    pages, against 0.7 s for two charts). Drawn first alone, the figure is in view while the rest is
    still on its way. Within a run the answer does not change; later runs of the page (its widgets,
    the rest's own run) are whole, and so is a fragment's rerun (a widget moved before the rest came, a
    field corrected after a bad value stopped the first run)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    from app_common.shell import ARRIVED
    from app_common.urlstate import SHELL_URL_KEYS

    state = st.session_state
    ctx = get_script_run_ctx()
    if not state.get(ARRIVED) or (ctx is not None and ctx.fragment_ids_this_run):
        return False
    return set(st.query_params) <= {"lang", *SHELL_URL_KEYS}


def draw_rest_later() -> None:
    """At the end of a run that :func:`first_screen_only` cut short: a fragment that the browser reruns
    :data:`FOLD_DELAY_S` after it has taken in this run's elements (``st.fragment``'s ``run_every``; its
    timer waits while the browser is busy drawing them), and that then asks for a full run of the page,
    which draws it whole. That run cancels the timer (a full run clears every fragment's auto-rerun).
    Nothing is drawn twice but the first screen, whose figures Streamlit replays from its caches. A
    block with nothing visible in it marks the page meanwhile (CSS class ``st-key-`` + :data:`REST_PENDING_KEY`), so that a
    browser test waits for the whole page (``tests/browsertools.settle``)."""
    st.session_state[_FOLD_WAIT] = True
    st.container(key=REST_PENDING_KEY).html("<span hidden></span>")  # an empty block is not drawn at all
    _rest_loader()


REST_PENDING_KEY = "rlviz_rest_pending"  # the key of the empty block that stands for the rest of the page


@st.fragment(run_every=FOLD_DELAY_S)
def _rest_loader() -> None:
    from app_common.shell import ARRIVED

    if st.session_state.pop(_FOLD_WAIT, False):
        return  # its first call, in the run that drew the first screen: the browser's timer starts now
    st.session_state[ARRIVED] = False  # the page is shown: the next run draws all of it
    st.rerun()


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
