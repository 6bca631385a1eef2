"""The length page's Streamlit-bound support: the rollout sample, its analysis and sweep, the curves, cached
by their inputs, and each figure's spec cached by what decides it; the group picker's options and the
group's table (replayed on a hit); the page's lower sections (one group, overlong filtering, the sweep)
and its last, the length claims measured on make_sum (the shipped record, its question, figures and
reading). The library is called through its module (``X.penalty_curves``, ``M.load_record``), so a test
that replaces a library function sees the page use it."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_common.charts import chart, csv_download, figure_cache, settings_hash
from app_common.feedback import show_bad_input
from app_common.predictions import answers_held, held_note, predict
from app_common.shell import fragment
from app_common.text import formula, labels, tr
from rlviz.core.objectives import get_algorithm
from rlviz.experiments import length as X
from rlviz.experiments import length_claims as M
from rlviz.experiments.length import ShapingSettings
from rlviz.i18n import LIST_SEPARATOR
from rlviz.plots.length import filter_figure, group_figure, length_histogram_figure, penalty_curves_figure, sweep_figure
from rlviz.plots.length_claims import efficiency_figure, length_change_figure, noise_figure

HASH = settings_hash(ShapingSettings)  # the settings hashed by their repr (app_common.settings_hash)


@st.cache_data(show_spinner=False, max_entries=16)
def rollouts(seed: int, n_prompts: int, group_size: int, limit: int, temperature: float, model_dir, device):
    """Sampled once per input; the function loads the model itself and returns plain data."""
    return X.sample_length_rollouts(seed, n_prompts, group_size, limit, temperature, model_dir, device)


@st.cache_data(show_spinner=False, max_entries=32, hash_funcs=HASH)
def analysis(sample: tuple, settings: ShapingSettings):
    """``analyse`` of the rollouts that ``rollouts(*sample)`` returns, under ``settings``."""
    return X.analyse(rollouts(*sample), settings)


@st.cache_data(show_spinner=False, max_entries=32)
def sweep(sample: tuple, max_length: int, buffer_length: int, factor: float):
    """``sweep`` of the rollouts of ``rollouts(*sample)``: it reads only L_max, L_cache and the
    factor, so moving the Kimi or cosine values reuses it."""
    return X.sweep(rollouts(*sample), ShapingSettings(max_length, buffer_length, factor), limit=X.SAMPLE_LIMIT)


@st.cache_data(show_spinner=False, max_entries=32, hash_funcs=HASH)
def curves(settings: ShapingSettings):
    """``(penalty_curves, kimi_curve)`` under ``settings``."""
    return X.penalty_curves(settings), X.kimi_curve(1, settings.max_length, settings.kimi_weight)


# Each figure is cached by what decides it (``language`` decides its labels, ``_words``), so that a
# rerun which leaves it alone replays it (``app_common.chart``) instead of building and sending it
# again. An argument named with a leading underscore is not hashed: it is what the others decide,
# which the page holds already (reading the analysis from its cache again would unpickle it each time).
@figure_cache(hash_funcs=HASH)
def curves_figure(settings: ShapingSettings, others: tuple, language: str, _words: tuple):
    penalty, kimi = curves(settings)
    lmax, lcache = settings.max_length, settings.buffer_length
    return penalty_curves_figure(penalty, kimi, lmax, lcache, dict(_words), show=list(others), as_spec=True)


@figure_cache(hash_funcs=HASH)
def histogram_figure(
    sample: tuple, settings: ShapingSettings, language: str, _words: tuple, _resp: pd.DataFrame, _penalty: pd.DataFrame
):
    lmax, lcache = settings.max_length, settings.buffer_length
    return length_histogram_figure(_resp, _penalty, lmax, lcache, dict(_words), as_spec=True)


@figure_cache(hash_funcs=HASH)
def filter_chart(sample: tuple, settings: ShapingSettings, language: str, _words: tuple, _resp: pd.DataFrame):
    return filter_figure(_resp, dict(_words), as_spec=True)


@figure_cache
def sweep_chart(
    sample: tuple, max_length: int, buffer_length: int, factor: float, language: str, _words: tuple, _frame
):
    return sweep_figure(_frame, max_length, buffer_length, dict(_words), as_spec=True)


@figure_cache(hash_funcs=HASH)
def group_chart(
    sample: tuple, settings: ShapingSettings, chosen: int, shown: tuple, language: str, _words: tuple, _rows
):
    return group_figure(_rows, dict(_words), schemes=list(shown), as_spec=True)


@st.cache_data(show_spinner=False, max_entries=32, hash_funcs=HASH)
def group_options(sample: tuple, settings: ShapingSettings, _groups: pd.DataFrame) -> tuple[list[int], dict[int, str]]:
    """The groups, most affected first, and their names (what a shared URL carries: only what the
    rollouts fix, not the settings); ``_groups`` is the analysis' ``groups`` of these."""
    return X.group_options(_groups)


@st.cache_data(show_spinner=False, max_entries=32, hash_funcs=HASH)
def group_table(
    sample: tuple, settings: ShapingSettings, chosen: int, shown: tuple, language: str, _rows: pd.DataFrame
) -> pd.DataFrame:
    """Draws group ``chosen``'s table (``_rows``, its responses, by length, in ``language``) and returns it
    unrounded for the CSV. Replayed on a hit: the table is not built and marshalled again by a rerun that
    leaves it alone."""
    view, rounded = X.group_table(_rows, shown, language)
    st.table(rounded, hide_index=True, border="horizontal")  # headers wrap: no column hides at 1400 px
    return view


# ---------------------------------------------------------------------------------------- the lower sections
@fragment
def group_section(
    result, sample: tuple, settings: ShapingSettings, shown: list[str], group_size: int, held: bool = False
) -> None:
    """One group's responses and advantages (``result``: the analysis of ``sample`` under ``settings``);
    its picker reruns only this section. ``held``: a question of the page waits for the learner, and
    the group's table (its DAPO penalties) would state its answer: a note stands in its place."""
    state, language = st.session_state, _language()
    summary, factor = result.summary, settings.penalty_factor
    options, group_names = group_options(sample, settings, result.groups)
    if state.get("l_group") not in options:
        state["l_group"] = options[0]  # first load, or fewer prompts than before: the most affected group
    chosen = st.selectbox(
        tr("length.group_pick"), options, format_func=group_names.get, key="l_group", bind="query-params"
    )
    info = result.groups.set_index("group").loc[chosen]
    rows = result.responses[result.responses["group"] == chosen]
    st.markdown(X.group_text(info, group_size, factor, language))
    schemes = (f"scheme_{k}" for k in X.SCHEMES)
    words = labels(
        "length", "advantage", "response", "right", "wrong", "truncated", "length", "reward", *schemes
    )  # fmt: skip
    # the figure at the page's width (its axis titles whole at 1024 px), its formula and reading under it
    chart(group_chart(sample, settings, chosen, tuple(shown), language, tuple(words.items()), rows), "length-group")
    formula(r"A_i=\frac{R_i-\operatorname{mean}(R)}{\operatorname{std}(R)+\epsilon},\quad R=(R_1,\dots,R_G)")
    note = "factor_note_zero" if factor == 0 else "factor_note" if factor <= 1 else "factor_note_high"
    st.caption(tr(f"length.{note}", reversed=summary["pairs_reversed"], broken=summary["ties_broken"]))
    if held:
        held_note()
        return
    view = group_table(sample, settings, chosen, tuple(shown), language, rows)
    csv_download(view, f"length-group-{chosen}", key="l_csv_group")


def filter_section(sample: tuple, settings: ShapingSettings, summary: dict, resp: pd.DataFrame, held: bool) -> None:
    """Overlong filtering: what leaves the loss. A truncated response is exactly L_max long: DAPO takes the
    full factor off it only with a buffer (what it takes off answers a question: said only once the
    learner has committed, ``held`` False)."""
    factor, lcache = settings.penalty_factor, settings.buffer_length
    st.subheader(tr("length.filter_header"))
    extra = tr("length.filter_penalty", factor=f"{factor:g}") if factor > 0 and lcache > 0 and not held else ""
    st.markdown(tr("length.filter_text", penalty=extra))
    f1, f2 = st.columns([1, 3], gap="large")
    f1.metric(tr("length.metric_truncated"), f"{summary['truncated_share']:.1%}")
    f1.metric(tr("length.metric_masked_tokens"), f"{summary['masked_token_share']:.1%}")
    f1.metric(
        tr("length.metric_grad_truncated"),
        f"{summary['grad_share_truncated']:.1%} → 0%",
        help=tr("length.metric_grad_truncated_help"),
    )
    with f2:
        words = labels("length", "right", "wrong", "truncated", "no_filter", "with_filter", "grad_share")
        chart(filter_chart(sample, settings, _language(), tuple(words.items()), resp), "length-filter")


def sweep_section(sample: tuple, settings: ShapingSettings, frame: pd.DataFrame) -> None:
    """The same rollouts re-scored for every L_max and every L_cache (``frame``: :func:`sweep`'s)."""
    lmax, lcache, factor = settings.max_length, settings.buffer_length, settings.penalty_factor
    st.subheader(tr("length.sweep_header"))
    st.markdown(tr("length.sweep_text_zero" if factor == 0 else "length.sweep_text", lcache=lcache, lmax=lmax))
    shares = ("mean_reward_task", "mean_reward_dapo", "truncated_share", "signal_task", "signal_dapo")
    words = labels(
        "length",
        "panel_lmax",
        "panel_lcache",
        "value",
        lmax=tr("length.lmax_axis"),
        lcache=tr("length.lcache_axis"),
        **{k: tr(f"length.s_{k}") for k in shares},
    )
    chart(sweep_chart(sample, lmax, lcache, factor, _language(), tuple(words.items()), frame), "length-sweep")
    csv_download(frame, "length-sweep", key="l_csv_sweep")


def _language() -> str:
    from app_common.text import lang

    return lang()


# ---------------------------------------------------------------------------------------- measured claims
@st.cache_data(show_spinner=False, max_entries=2)
def claims_record() -> dict:
    """The shipped record of the length claims (``rlviz.experiments.length_claims.load_record``), read once."""
    return M.load_record()


@figure_cache
def claims_change_chart(language: str, _words: tuple, _record: dict):
    return length_change_figure(M.length_change_table(_record), dict(_words))


@figure_cache
def claims_noise_chart(language: str, _words: tuple, _record: dict):
    return noise_figure(M.noise_table(_record), dict(_words))


@figure_cache
def claims_efficiency_chart(language: str, _words: tuple, _record: dict):
    return efficiency_figure(M.efficiency_table(_record), dict(_words))


def claims_section() -> None:
    """The page's last section: the length claims measured on make_sum (``benchmarks/length_claims.py``'s
    record). Its lede, one question (``length.q_bias``, asked at the record's
    :func:`~rlviz.experiments.length_claims.question_state`), the three figures and the reading computed
    from the record, with the command, the date and the commit that measured it. Until the learner
    commits, the first figure and the reading of the length bias (they state the answer) are held back."""
    from rlviz.teach.predict import PREDICTIONS

    language = _language()
    try:
        record = claims_record()
        task = M.task_label(record, language) if record else None
    except ValueError as exc:  # a damaged record: said in the page's language, the rest of the page stands
        st.subheader(tr("length.claims_header_none"))
        show_bad_input(exc)
        return
    if not record:
        st.subheader(tr("length.claims_header_none"))
        st.info(tr("length.claims_none", path=M.RECORD.name))
        return
    # the task by its registry label in the page's language ("Make a sum" / "凑数"), never its key
    st.subheader(tr("length.claims_header", task=task))
    s, titles = record["settings"], {a: get_algorithm(a).title for a in record["settings"]["arms"]}
    fixed, (gspo, grpo) = M.BIAS_PAIR[1], M.EFFICIENCY_PAIR
    st.markdown(
        tr(
            "length.claims_lede",
            fixed=get_algorithm(fixed).title,
            gspo=get_algorithm(gspo).title,
            grpo=get_algorithm(grpo).title,
            limit=s["edges"][-1],
            arms=LIST_SEPARATOR[language].join(titles.values()),
            n=len(record["seeds"]),
            steps=s["steps"],
            task=task,
        )
    )
    question_state = M.question_state(record)
    questions = [p for p in PREDICTIONS["length"] if p.applies(question_state)]
    held = answers_held(questions, question_state)
    with st.container(border=True):
        st.markdown(f"**{tr('teach.header')}**")  # the heading the held notes below name
        for prediction in questions:
            predict(prediction, question_state)
    first, last = question_state["first"], question_state["last"]
    if held:
        held_note()
    else:
        words = labels(
            "length",
            change=tr("length.claims_fig_change_title", first=first, last=last),
            gain=tr("length.claims_fig_gain"),
            seed=tr("length.claims_fig_seed"),
        )
        chart(claims_change_chart(language, tuple(words.items()), record), "length-claims-change")
        st.caption(
            tr("length.claims_fig_caption", window=s["window"], prompts=M.heldout_prompts(record), heldout=s["heldout"])
        )
    words = labels(
        "length",
        token=tr("length.claims_noise_token"),
        sum=tr("length.claims_noise_sum"),
        mean=tr("length.claims_noise_mean", gspo=get_algorithm(gspo).title),
        bin=tr("length.claims_fig_bin"),
        variance=tr("length.claims_fig_var"),
    )
    chart(claims_noise_chart(language, tuple(words.items()), record), "length-claims-noise")
    st.caption(tr("length.claims_noise_caption", gspo=get_algorithm(gspo).title, min=M.MIN_BIN_RESPONSES))
    words = labels(
        "length",
        per_k=tr("length.claims_fig_per_k"),
        clip=tr("length.claims_fig_clip"),
        seed=tr("length.claims_fig_seed"),
    )
    chart(claims_efficiency_chart(language, tuple(words.items()), record), "length-claims-efficiency")
    st.caption(tr("length.claims_eff_caption"))
    st.markdown(f"**{tr('length.claims_reading')}**")
    paragraphs = M.reading(record, language)
    for i, paragraph in enumerate(paragraphs):
        if i == 0 and held:  # the length bias's reading states the question's answer
            held_note()
            continue
        st.markdown(paragraph)
    st.caption(M.provenance_text(record, language))
