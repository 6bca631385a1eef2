"""Formula diff: two objectives term by term, with the numbers of one picked token bound into both.

Widgets (two objectives, the spread of the example's log-ratios, the picked token) -> one call
``rlviz.experiments.formula.formula_diff`` -> the token strips
(``rlviz.plots.formula.token_strip_figure``: a click on a square picks that token), the terms table, both formulas
term by term with the token's numbers substituted and the differing terms boxed
(``rlviz.plots.formula.term_latex``), the values table, CSV.

Layout (the page template, ``app_common.template``): title and lede, the pair of objectives just above
the token strips, the pick (spread, response, token) under them, the notes and the block for
practitioners (the two papers, the TRL / verl export), then the terms, the formulas and the numbers.

Nothing here branches on an algorithm's name: the terms, their kinds and what differs come from
each registry entry (``rlviz.experiments.formula.objective_terms``), so a new entry is offered and
decomposed here as it is. The example group is drawn from the sidebar seed.
"""

from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from app_common import chart, csv_download, ensure_shell, export_configs, lang, show_bad_input, stop, tr
from app_common.template import notes, page_top, practitioners
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES
from rlviz.experiments import formula as F
from rlviz.i18n import LIST_SEPARATOR, latex_text
from rlviz.numbering import response_number, response_tag
from rlviz.plots.formula import HIGHLIGHT_FILL, term_latex, token_strip_figure

ensure_shell()
L = lang()
state = st.session_state
SEED = int(state.get("seed", 0))
NAMES = F.described_names()  # read from the registry on every run: those the diff can split into terms
titles = {n: ALGORITHMS[n].title for n in NAMES}
# Below ~440 px a column of formulas would be too narrow: the two objectives then stack (e.g. on a
# 1024 px window with the sidebar open); side by side from about 1300 px.
st.html("<style>.st-key-fd_cols [data-testid=stColumn]{min-width:min(440px,100%)}</style>")

FIELDS = {
    "a": tr("formula.a"),
    "b": tr("formula.b"),
    "spread": tr("formula.spread"),
    "response": tr("formula.response"),
    "token": tr("formula.token"),
    "seed": tr("side.seed"),
}

# the figure first (issue 39): the pair of objectives just above it, the token strips, then how to pick a
# token (a click on a square, or the fields under the figure); the terms, the formulas and the numbers
# of the picked token follow
page_top("formula")


def _index(name: str) -> int:
    return NAMES.index(name) if name in NAMES else 0


pair = st.container(horizontal=True, gap="small")  # one row at 1024 px too (columns would stack there)
with pair:
    a = st.selectbox(
        tr("formula.a"),
        NAMES,
        index=_index(F.DEFAULT_PAIR[0]),
        format_func=titles.get,
        key="fd_a",
        help=tr("formula.pick_help"),
        bind="query-params",
    )
    b = st.selectbox(
        tr("formula.b"),
        NAMES,
        index=_index(F.DEFAULT_PAIR[1]),
        format_func=titles.get,
        key="fd_b",
        help=tr("formula.pick_help"),
        bind="query-params",
    )
figure_box = st.container()  # the token strips: drawn here once the pick below is read
st.markdown(f"**{tr('formula.pick_header')}**")
pick_intro = st.container()  # what the group is and how to pick: written once the group is drawn
# under the figure: the spread and the typed pick, aligned on their fields (their labels wrap unevenly)
picks = st.container(horizontal=True, gap="small", vertical_alignment="bottom")
spread = picks.select_slider(
    tr("formula.spread"),
    list(F.SPREADS),
    value=0.1,
    format_func=lambda v: f"{v:g}",
    key="fd_spread",
    help=tr("formula.spread_help"),
    bind="query-params",
)

try:
    batch = F.example_batch(SEED, float(spread))
except ValueError as exc:
    show_bad_input(exc, FIELDS)
    stop()
first_response, first_token = F.default_token(batch)


def _clamp_token() -> None:
    """A new response: keep the token inside it (its last token at most)."""
    n = batch.lengths[int(state["fd_resp"])]
    state["fd_tok"] = min(int(state.get("fd_tok", 0)), n - 1)


def _picked(key: str) -> None:
    """A click on a square of the token strips: that token becomes the pick."""
    event = state.get(key)
    points = (event or {}).get("selection", {}).get("points", []) if event is not None else []
    if not points:
        return
    point = points[-1]
    custom = point.get("customdata")
    if custom and len(custom) >= 2:
        response, position = int(custom[0]), int(custom[1])
    else:
        response, position = int(round(point.get("y", 0))), int(round(point.get("x", 0)))
    if 0 <= response < len(batch.lengths) and 0 <= position < batch.lengths[response]:
        state["fd_resp"], state["fd_tok"] = response, position


# labels made now, in this run's language (a widget may format its value again outside the run)
response_labels = {
    k: tr("formula.response_option", i=response_number(k), n=n, r=f"{float(batch.rewards[k]):g}")
    for k, n in enumerate(batch.lengths)
}
response = picks.selectbox(
    tr("formula.response"),
    list(range(len(batch.lengths))),
    index=first_response,
    format_func=response_labels.get,
    key="fd_resp",
    on_change=_clamp_token,
    bind="query-params",
)
token = picks.number_input(
    tr("formula.token"),
    min_value=0,
    max_value=F.MAX_LENGTH - 1,
    value=first_token,
    step=1,
    key="fd_tok",
    help=tr("formula.token_help"),
    bind="query-params",
)
pick_intro.caption(tr("formula.pick_intro", G=len(batch.lengths), right=int(batch.rewards.sum())))

try:
    diff = F.formula_diff(a, b, SEED, int(response), int(token), float(spread))
except ValueError as exc:
    show_bad_input(exc, FIELDS)
    stop()

# ---------------------------------------------------------------------------------------- the token strips
i, t = diff.bound[0].response, diff.bound[0].token
strip_labels = {
    "panel.ratio": tr("formula.panel_ratio"),
    "panel.a": tr("formula.panel_push", name=f"A · {titles[a]}"),
    "panel.b": tr("formula.panel_push", name=f"B · {titles[b]}"),
    "position": tr("formula.position"),
    "response": tr("formula.hover_response"),
    "log_ratio": tr("formula.hover_log_ratio"),
    "ratio": tr("formula.hover_ratio"),
    "push": tr("formula.hover_push"),
    "advantage": tr("formula.hover_advantage"),
    **{f"state.{s}": tr(f"formula.state.{s}") for s in TOKEN_STATES},
    **{f"row.{k}": f"{response_tag(k)} · R={float(batch.rewards[k]):g}" for k in range(len(batch.lengths))},
}
strip_key = f"fd_strip_{i}_{t}"  # a fresh chart per pick: the last click's selection does not linger
with figure_box:
    chart(
        token_strip_figure(diff.tokens, strip_labels, selected=(i, t)),
        strip_key,
        on_select=partial(_picked, strip_key),
        selection_mode="points",
    )
    st.caption(tr("formula.strip_caption"))

with notes():
    st.markdown(tr("formula.intro"))
    others = [ALGORITHMS[n].title for n in ALGORITHMS if n not in NAMES]
    if others:
        st.caption(tr("formula.not_described", names=LIST_SEPARATOR[L].join(others)))
with practitioners():  # the two papers, and the pair as a TRL / verl configuration
    for name, side in ((a, "A"), (b, "B")):
        spec = ALGORITHMS[name]
        st.markdown(
            f"{side} · "
            + tr("formula.paper", title=spec.title, paper=spec.paper, arxiv=spec.arxiv, where=spec.equation)
        )
    export_configs({f"A · {titles[a]}": (a, {}), f"B · {titles[b]}": (b, {})}, key="fd_export")

# which terms differ, and how each objective builds each term
names = [tr(f"formula.term.{k}") for k in diff.differs]
if diff.differs:
    summary = tr("formula.summary", n=len(diff.differs), total=len(F.TERM_KEYS), names=LIST_SEPARATOR[L].join(names))
else:
    summary = tr("formula.summary_none")


def _describe(term: F.Term) -> str:
    return LIST_SEPARATOR[L].join(tr(key, **fields) if fields else tr(key) for key, fields in term.text)


col_a, col_b = f"A · {titles[a]}", f"B · {titles[b]}"
terms_table = pd.DataFrame(
    {
        tr("formula.col_term"): [tr(f"formula.term.{k}") for k in F.TERM_KEYS],
        col_a: [_describe(diff.terms[k][0]) for k in F.TERM_KEYS],
        col_b: [_describe(diff.terms[k][1]) for k in F.TERM_KEYS],
        tr("formula.col_differs"): [
            tr("formula.mark_differs") if k in diff.differs else tr("formula.mark_same") for k in F.TERM_KEYS
        ],
    }
).set_index(tr("formula.col_term"))


def _word(value) -> str:
    """A setting's value in words: on / off for a switch, a dash for a setting the entry lacks."""
    if value is None:
        return tr("formula.none")
    if isinstance(value, bool):
        return tr("formula.on") if value else tr("formula.off")
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


# ---------------------------------------------------------------------------------------- term by term
st.subheader(tr("formula.terms_header"))
st.markdown(summary)
st.table(terms_table)
if diff.others:
    items = []
    for name, va, vb in diff.others:
        owner = next(ALGORITHMS[n] for n in (a, b) if name in ALGORITHMS[n].defaults | ALGORITHMS[n].train_defaults)
        what = owner.setting(name).help.get(L, name)
        items.append(tr("formula.other_item", what=what, a=titles[a], va=_word(va), b=titles[b], vb=_word(vb)))
    st.caption(tr("formula.others", items=LIST_SEPARATOR[L].join(items)))

# ---------------------------------------------------------------------------------------- the formulas
# One row per term: A's formula and numbers beside B's, boxed where the terms differ (the rows
# stack, A above B, on a narrow window).
st.subheader(tr("formula.formulas_header", i=response_number(i), t=t))
st.caption(tr("formula.boxed_caption"))
heads = [f"A · {titles[a]}", f"B · {titles[b]}"]
grad_differs = bool(diff.table.set_index("quantity").loc["grad_weight", "differs"])
with st.container(key="fd_cols"):
    for key in (*F.TERM_KEYS, "gradient"):  # the terms, then the gradient (autograd, not a term)
        differs = key in diff.differs or (key == "gradient" and grad_differs)
        title = tr(f"formula.term.{key}")
        badge = f" :orange-badge[{tr('formula.mark_differs')}]" if differs else ""
        st.markdown(f"**{title}**{badge}")
        columns = st.columns(2, gap="small")
        for side, (col, head, bound) in enumerate(zip(columns, heads, diff.bound)):
            with col:
                st.caption(head)
                if key == "gradient":
                    st.latex(term_latex((), (bound.gradient_latex,)))
                else:  # the words of a term's \text{} annotations (a KL estimator's) in the page's language
                    boxed = key in diff.differs
                    st.latex(latex_text(term_latex(diff.terms[key][side].latex, bound.latex[key], boxed=boxed), L))

# ---------------------------------------------------------------------------------------- the numbers
st.subheader(tr("formula.values_header"))


def _fmt(quantity: str, value) -> str:
    if value is None:
        return tr("formula.none")
    if quantity == "state":
        return tr(f"formula.state.{value}")
    return f"{float(value) + 0.0:.4g}"


table = diff.table
shown = pd.DataFrame(
    {
        tr("formula.col_quantity"): [tr(f"formula.q.{q}") for q in table["quantity"]],
        col_a: [_fmt(q, v) for q, v in zip(table["quantity"], table["a"])],
        col_b: [_fmt(q, v) for q, v in zip(table["quantity"], table["b"])],
        tr("formula.col_differs"): ["≠" if d else "" for d in table["differs"]],
    }
).set_index(tr("formula.col_quantity"))
n_differ = int(table["differs"].sum())
st.markdown(tr("formula.n_differ", n=n_differ, total=len(table)) if n_differ else tr("formula.same_numbers"))
rows_style = [f"background-color: {HIGHLIGHT_FILL}" if d else "" for d in table["differs"]]
st.table(shown.style.apply(lambda column: rows_style, axis=0))  # the differing rows shaded
st.caption(tr("formula.values_caption"))
export = table.assign(label=[tr(f"formula.q.{q}") for q in table["quantity"]], algorithm_a=a, algorithm_b=b)
export = export.assign(response=i, token=t, seed=SEED, spread=float(spread))
d1, d2 = st.columns(2)
with d1:
    csv_download(export, f"formula-{a}-{b}", key="fd_csv_values", label=tr("formula.csv_values"))
with d2:
    csv_download(
        diff.tokens.assign(algorithm_a=a, algorithm_b=b),
        f"formula-group-{a}-{b}",
        key="fd_csv_tokens",
        label=tr("formula.csv_tokens"),
    )
