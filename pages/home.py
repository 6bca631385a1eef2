"""Home: the map of the registry's algorithms, each with what it changed, its paper and its formula.

Names, papers, summaries, changes, formulas and defaults all come from the algorithm registry
(``rlviz.core.objectives.ALGORITHMS``), the same one the losses are built from.
"""

from __future__ import annotations

import math

import streamlit as st

from app_common import chart, csv_download, ensure_shell, formula, lang, tr
from app_common.template import notes, page_top
from rlviz.app_pages import PAGES, PATH, page
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments.home import family_tree, framework_check, paper_note, settings_frame
from rlviz.plots.home import lineage_figure

ensure_shell()
L = lang()
names = list(ALGORITHMS)

page_top("home", n=len(names))

# The path's first stop, one click away, then the family tree with the whole path beside it. Below
# 1200 px (a projector, a laptop with the sidebar open) the tree needs the main column's full width:
# the two stack, the tree first (a style rule; the server does not know the window's width).
first = page(PATH[0])
st.page_link(first.file, label=tr("home.start_button", title=tr(f"nav.{first.key}")), icon=":material/flag:")
st.html(
    "<style>@media (max-width: 1200px) {.st-key-h_columns [data-testid=stHorizontalBlock]"
    "{flex-direction: column-reverse} .st-key-h_columns [data-testid=stColumn]{width: 100%; flex: 1 1 100%}}</style>"
)
with st.container(key="h_columns"):
    start, tree_column = st.columns([2, 3], gap="medium")
with start, st.container(key="h_start"):
    st.subheader(tr("home.start_header"))
    for k, key in enumerate(PATH, 1):
        entry = page(key)
        st.page_link(entry.file, label=f"{k}. {tr(f'nav.{key}')}", icon=entry.icon)
        st.caption(tr(f"path.{key}"))
    st.markdown(f"**{tr('home.other_ways')}**")
    for key in ("lessons", "interview"):
        entry = page(key)
        st.page_link(entry.file, label=tr(f"home.entry_{key}"), icon=entry.icon)
with tree_column:
    tree = family_tree(L)
    tree_labels = {f"name.{n}": title for n, title in tree["titles"].items()}
    tree_labels |= {f"hover.{n}": text for n, text in tree["hover"].items()}
    chart(lineage_figure(tree["parents"], tree_labels), "h_lineage")
    st.caption(f"**{tr('home.map_header')}**: {tr('home.map_caption')}")

with notes():
    st.markdown(tr("home.intro", n=len(names)))
    st.markdown(tr("home.notation"))
    live = page("live")
    st.page_link(live.file, label=tr("home.open_live"), icon=live.icon)

st.subheader(tr("home.algos_header", n=len(names)))


def _fmt(value: object) -> str:
    """A setting's value as text: none (or a missing framework name) reads as the word "none"."""
    return tr("word.none") if value is None or (isinstance(value, float) and math.isnan(value)) else str(value)


for name in names:
    spec = ALGORITHMS[name]
    with st.container(border=True):
        st.markdown(f"### {spec.title}")
        parent = tr("home.parent", parent=ALGORITHMS[spec.parent].title) if spec.parent else tr("home.root")
        level = tr(f"level.{spec.ratio_level}")
        st.caption(f"{parent} · {tr('home.ratio_level', level=level)}")
        formula(spec.latex)
        left, right = st.columns(2, gap="large")
        with left:
            st.markdown(f"**{spec.summary[L]}**")
            st.markdown(tr("home.changed", text=spec.changes[L]))
        with right:
            st.markdown(tr("home.paper", paper=spec.paper, arxiv=spec.arxiv, where=spec.equation))
            state, frameworks = framework_check(name)
            st.caption(tr(f"home.parity_{state}", frameworks=frameworks))
            note = paper_note(name, L)  # the registry's note where rlviz follows the paper, not the code
            if note:
                st.caption(tr("home.follows_paper", text=note))
        with st.expander(tr("home.settings")):  # full width: six columns of text
            table = settings_frame(L, name).drop(columns="algorithm")
            table["default"] = table["default"].map(_fmt)
            table[["trl", "verl"]] = table[["trl", "verl"]].map(_fmt)
            columns = {c: tr(f"col.{c}") for c in table.columns}
            st.table(table.rename(columns=columns), hide_index=True, border="horizontal")  # wraps: no column hides

everything = settings_frame(L)
csv_download(everything, "settings", key="h_csv_settings", label=tr("home.csv_settings"))

st.subheader(tr("home.pages_header"))
for p in PAGES:
    if p.is_home:
        continue
    st.page_link(p.file, label=tr(f"nav.{p.key}"), icon=p.icon)
    st.markdown(tr(f"home.{p.key}_claims"))
