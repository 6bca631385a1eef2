"""Objective and gradient weight vs the importance ratio, for every algorithm side by side.

Widgets -> one call ``rlviz.experiments.curves.run`` (cached: a pure function of the sliders) ->
figure builders of ``rlviz.plots.curves``. Every curve is ``policy_loss`` evaluated on one token
and differentiated by autograd: the same code that trains the model on the Live page.
No randomness on this page: the sidebar seed and device do not change anything here.
"""

from __future__ import annotations

from dataclasses import asdict

import streamlit as st

from app_common import chart, csv_download, ensure_shell, lang, show_bad_input, tr
from rlviz.experiments.curves import (
    DEFAULT_VARIANTS,
    VARIANTS,
    CurveSettings,
    CurvesResult,
    probability_frame,
    run,
    trust_region,
    variant_title,
)
from rlviz.plots.curves import (
    cases_table,
    curves_gallery_figure,
    curves_overlay_figure,
    probability_figure,
    support_table,
)

ensure_shell()
L = lang()
D = CurveSettings()  # registry defaults
GSPO_EPS = (0.0, 5e-5, 1e-4, 2e-4, 3e-4, 4e-4, 5e-4, 7e-4, 1e-3, 2e-3, 5e-3, 1e-2)
titles = {v: variant_title(v) for v in VARIANTS}
# One token, advantage A, ratio r; short lines so they fit the column beside the figure.
FORMULAS = r"""\small\begin{gathered}
r=\frac{\pi_\theta(y)}{\pi_{\theta_\text{old}}(y)}\\[4pt]
w=\frac{\partial J}{\partial\log\pi}=r\,\frac{\partial J}{\partial r}\\[6pt]
\text{PPO: } J=\min\big(rA,\ \bar r A\big)\\
\bar r=\operatorname{clip}(r,1\!-\!\varepsilon_\text{low},1\!+\!\varepsilon_\text{high})\\[6pt]
\text{dual, }A<0\text{: } J=\max(J_\text{PPO},\,cA)\\[6pt]
\text{CISPO: } w=\operatorname{sg}[\bar r]\,A\\[6pt]
\text{SAPO: } J=\tfrac{4}{\tau}\,\sigma\big(\tau(r-1)\big)A\\
w=4\sigma(1-\sigma)\,rA\\[6pt]
\text{GMPO: } J=A\,e^{\tilde\ell}\\
\tilde\ell=\operatorname{clip}_A(\log r,\,\pm\varepsilon)\\[6pt]
\text{GSPO: } s=\Big(\prod_t r_t\Big)^{1/|y|}=r
\end{gathered}"""

st.title(tr("curves.title"))
st.markdown(tr("curves.intro"))

# ---------------------------------------------------------------------------------------- controls
variants = st.multiselect(
    tr("curves.algorithms"),
    list(VARIANTS),
    default=list(DEFAULT_VARIANTS),
    format_func=titles.get,
    key="c_algos",
    help=tr("curves.algorithms_help"),
    bind="query-params",
)
with st.expander(tr("curves.settings"), expanded=True):
    c1, c2, c3, c4 = st.columns(4, gap="medium")
    with c1:
        st.markdown(tr("curves.group_ppo"))
        eps_low = st.slider(
            tr("curves.eps_low"),
            0.0,
            0.9,
            D.epsilon_low,
            0.01,
            key="c_eps_low",
            help=tr("curves.eps_low_help"),
            bind="query-params",
        )
        eps_high = st.slider(
            tr("curves.eps_high"),
            0.0,
            1.0,
            D.epsilon_high,
            0.01,
            key="c_eps_high",
            help=tr("curves.eps_high_help"),
            bind="query-params",
        )
        dual_c = st.slider(
            tr("curves.dual_c"),
            1.1,
            10.0,
            D.dual_clip_c,
            0.1,
            key="c_dual",
            help=tr("curves.dual_c_help"),
            bind="query-params",
        )
    with c2:
        st.markdown(tr("curves.group_dapo_gmpo"))
        dapo_high = st.slider(
            tr("curves.dapo_high"),
            0.0,
            1.0,
            D.dapo_epsilon_high,
            0.01,
            key="c_dapo_high",
            help=tr("curves.dapo_high_help"),
            bind="query-params",
        )
        gmpo_eps = st.slider(
            tr("curves.gmpo_eps"),
            0.05,
            1.5,
            D.gmpo_epsilon,
            0.05,
            key="c_gmpo_eps",
            help=tr("curves.gmpo_eps_help"),
            bind="query-params",
        )
    with c3:
        st.markdown(tr("curves.group_sapo"))
        tau_pos = st.slider(
            tr("curves.tau_pos"),
            0.25,
            10.0,
            D.tau_pos,
            0.05,
            key="c_tau_pos",
            help=tr("curves.tau_help"),
            bind="query-params",
        )
        tau_neg = st.slider(
            tr("curves.tau_neg"),
            0.25,
            10.0,
            D.tau_neg,
            0.05,
            key="c_tau_neg",
            help=tr("curves.tau_help"),
            bind="query-params",
        )
    with c4:
        st.markdown(tr("curves.group_cispo_gspo"))
        cispo_low = st.slider(
            tr("curves.cispo_low"),
            0.0,
            1.0,
            D.cispo_epsilon_low,
            0.05,
            key="c_cispo_low",
            help=tr("curves.cispo_help"),
            bind="query-params",
        )
        cispo_high = st.slider(
            tr("curves.cispo_high"),
            0.0,
            4.0,
            D.cispo_epsilon_high,
            0.05,
            key="c_cispo_high",
            help=tr("curves.cispo_help"),
            bind="query-params",
        )
        gspo_low = st.select_slider(
            tr("curves.gspo_low"),
            GSPO_EPS,
            value=D.gspo_epsilon_low,
            format_func="{:g}".format,
            key="c_gspo_low",
            help=tr("curves.gspo_help"),
            bind="query-params",
        )
        gspo_high = st.select_slider(
            tr("curves.gspo_high"),
            GSPO_EPS,
            value=D.gspo_epsilon_high,
            format_func="{:g}".format,
            key="c_gspo_high",
            help=tr("curves.gspo_help"),
            bind="query-params",
        )
axis_row = st.container(horizontal=True)
with axis_row:
    log_x = st.toggle(tr("curves.log_x"), value=False, key="c_logx", help=tr("curves.log_x_help"), bind="query-params")
    zoom = st.toggle(tr("curves.zoom"), value=False, key="c_zoom", help=tr("curves.zoom_help"), bind="query-params")


@st.cache_data(max_entries=64, show_spinner=False)
def _compute(variants: tuple[str, ...], settings: tuple[tuple[str, float], ...], zoom: bool) -> CurvesResult:
    """The experiment, cached by its inputs (all plain values; nothing random)."""
    return run(variants, CurveSettings(**dict(settings)), zoom=zoom)


@st.cache_data(max_entries=64, show_spinner=False)
def _probability(settings: tuple[tuple[str, float], ...], marks: tuple[float, ...]):
    """The probability view, cached by its inputs."""
    return probability_frame(CurveSettings(**dict(settings)), marks=marks)


settings = CurveSettings(
    epsilon_low=float(eps_low),
    epsilon_high=float(eps_high),
    dapo_epsilon_high=float(dapo_high),
    dual_clip_c=float(dual_c),
    tau_pos=float(tau_pos),
    tau_neg=float(tau_neg),
    gmpo_epsilon=float(gmpo_eps),
    cispo_epsilon_low=float(cispo_low),
    cispo_epsilon_high=float(cispo_high),
    gspo_epsilon_low=float(gspo_low),
    gspo_epsilon_high=float(gspo_high),
)
key = tuple(asdict(settings).items())
# CurveSettings field -> the slider that sets it, for error messages
FIELDS = {
    "epsilon_low": tr("curves.eps_low"),
    "epsilon_high": tr("curves.eps_high"),
    "dual_clip_c": tr("curves.dual_c"),
    "dapo_epsilon_high": tr("curves.dapo_high"),
    "gmpo_epsilon": tr("curves.gmpo_eps"),
    "tau_pos": tr("curves.tau_pos"),
    "tau_neg": tr("curves.tau_neg"),
    "cispo_epsilon_low": tr("curves.cispo_low"),
    "cispo_epsilon_high": tr("curves.cispo_high"),
    "gspo_epsilon_low": tr("curves.gspo_low"),
    "gspo_epsilon_high": tr("curves.gspo_high"),
}
try:
    res = _compute(tuple(variants), key, bool(zoom))
except ValueError as exc:
    show_bad_input(exc, FIELDS)
    st.stop()

x_range = res.x_range
log_axis = bool(log_x) and not zoom  # a log axis over 1 ± 1e-3 would look linear anyway
if zoom:
    st.caption(tr("curves.zoom_note", lo=f"{x_range[0]:.5g}", hi=f"{x_range[1]:.5g}"))

# ---------------------------------------------------------------------------------------- overlay
st.subheader(tr("curves.overlay_header"))
if not res.variants:
    st.info(tr("curves.none_selected"))
else:
    left, right = st.columns([5, 2], gap="medium")
    with left:
        fig = curves_overlay_figure(res.curves, L, x_range=x_range, log_x=log_axis, band=trust_region("grpo", settings))
        chart(fig, "c_overlay")
    with right:
        st.latex(FORMULAS)
        st.markdown(tr("curves.convention"))
    st.caption(tr("curves.overlay_caption"))
    csv_download(res.curves.drop(columns=["title"]), "curves", key="c_csv_curves", label=tr("curves.csv_curves"))

    # ------------------------------------------------------------------------------------ gallery
    st.subheader(tr("curves.gallery_header"))
    fig = curves_gallery_figure(
        res.curves, L, bands=res.bands, x_range=x_range, log_x=log_axis, dual_clip_c=settings.dual_clip_c
    )
    chart(fig, "c_gallery")
    st.caption(tr("curves.gallery_caption"))
    st.markdown(f"**{tr('curves.support_header')}**")
    st.dataframe(support_table(res.support, L), hide_index=True)
    st.caption(tr("curves.support_caption"))
    csv_download(
        res.support.drop(columns=["title"]),
        "curves-gradient-range",
        key="c_csv_support",
        label=tr("curves.csv_support"),
    )
    with st.expander(tr("curves.look_header"), expanded=True):
        st.markdown(tr("curves.look"))

# ---------------------------------------------------------------------------------------- six cases
st.subheader(tr("curves.cases_header"))
left, right = st.columns(2, gap="medium")
left.latex(r"J=\min\big(rA,\ \operatorname{clip}(r,1-\varepsilon_\text{low},1+\varepsilon_\text{high})A\big)")
right.latex(
    r"\frac{\partial J}{\partial\log\pi}=rA\cdot\mathbb{1}\big[\,rA\le\operatorname{clip}(r,1-\varepsilon_\text{low},1+\varepsilon_\text{high})A\,\big]"
)
st.dataframe(cases_table(res.cases, L), hide_index=True)
st.caption(tr("curves.cases_caption"))
csv_download(res.cases, "curves-ppo-cases", key="c_csv_cases", label=tr("curves.csv_cases"))

# ---------------------------------------------------------------------------------------- probability
st.subheader(tr("curves.prob_header"))
st.markdown(tr("curves.prob_intro"))


@st.fragment
def probability_section() -> None:
    """The probability view; its slider reruns only this part."""
    left, right = st.columns([3, 1], gap="medium")
    with right:
        mark = st.slider(
            tr("curves.prob_mark"),
            0.01,
            0.99,
            0.2,
            0.01,
            key="c_pi",
            help=tr("curves.prob_mark_help"),
            bind="query-params",
        )
        st.latex(r"\pi_\text{new}\le\min\big(1,\ \pi_\text{old}\,r^*\big)")
        st.latex(r"r^*=\max\{r:\ w(r)\ne0\}")
    marks = tuple(dict.fromkeys([0.2, round(float(mark), 4)]))
    try:
        prob, ceilings = _probability(key, marks)
    except ValueError as exc:
        show_bad_input(exc, FIELDS)
        return
    eps_of = {"grpo": settings.epsilon_high, "dapo": settings.dapo_epsilon_high}
    names = {v: tr("curves.prob_name", title=titles[v], eps=f"{eps_of[v]:.2f}") for v in eps_of}
    with left:
        chart(probability_figure(prob, L, names=names), "c_prob")
    for p in marks:
        at = {v: prob[(prob["algorithm"] == v) & (prob["pi_old"] == p)].iloc[0] for v in eps_of}
        st.markdown(
            tr(
                "curves.prob_result",
                p=f"{p:.2f}",
                a=names["grpo"],
                b=names["dapo"],
                pa=f"{at['grpo']['pi_new_max']:.3f}",
                pb=f"{at['dapo']['pi_new_max']:.3f}",
                da=f"{at['grpo']['room']:.3f}",
                db=f"{at['dapo']['room']:.3f}",
                ra=f"{ceilings['grpo']:.4g}",
                rb=f"{ceilings['dapo']:.4g}",
            )
        )
    csv_download(prob, "curves-probability", key="c_csv_prob", label=tr("curves.csv_prob"))


probability_section()
