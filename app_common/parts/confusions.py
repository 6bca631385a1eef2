"""The confusions page's Streamlit-bound support: what frames each section's widgets (its heading, its
predict-then-reveal question, its explanation on demand, its export), the two sections' cached runs of the
tiny LM with their spinner and error message, the words of each figure in the session's language, each
section's figure (drawn without what answers its question while that waits), and the tables and numbers the
sections show. Every number comes from ``rlviz.experiments.confusions`` (its ``*_reading`` / ``*_state``
functions); the page keeps each section's widgets, their keys and its layout."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from app_common.charts import chart, csv_download
from app_common.feedback import show_bad_input
from app_common.predictions import answers_held, held_note, predict
from app_common.template import notes
from app_common.text import escape_markdown, labels, tr
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES
from rlviz.experiments import confusions as X
from rlviz.numbering import response_number
from rlviz.plots import confusions as P
from rlviz.teach.predict import PREDICTIONS

QUESTIONS = {p.key.split(".", 1)[1]: p for p in PREDICTIONS["confusions"]}  # section -> its question
UPDATE_PROMPTS, UPDATE_G = 4, 4  # section 3: a small step (4 prompts x G 4)
GAP_PROMPTS, GAP_G = 4, 4  # section 5
SIGNS = {1: "A = +1", -1: "A = −1"}  # sections 4 and 8: the advantage's sign (the same in both languages)


# ------------------------------------------------------------------------------------ a section's frame
def tip(name: str, **fmt: Any) -> dict[str, str]:
    """A setting's keyword arguments beside its label, range and key (which the page writes out): its hover
    help, the locale's ``confusions.<name>_help`` filled with ``fmt``, and its value kept in the URL."""
    return {"help": tr(f"confusions.{name}_help", **fmt), "bind": "query-params"}


def fields(section: str, **names: str) -> dict[str, str]:
    """The labels a bad-input message names its field by: library parameter -> the label of the widget
    ``confusions.<section>.<name>`` (``fields("window", steps="steps")``)."""
    return {param: tr(f"confusions.{section}.{name}") for param, name in names.items()}


def sign_radio(where, label: str, key: str, index: int = 0) -> int:
    """The sign of the advantage, A = +1 or A = −1 (``SIGNS``), as a horizontal radio in ``where`` keyed
    ``key`` and kept in the URL; returns +1 or −1."""
    return where.radio(
        label, list(SIGNS), index=index, format_func=SIGNS.get, horizontal=True, key=key, bind="query-params"
    )


def head(name: str) -> None:
    """The section's heading: the confusion as a question (its full title and the way people state it are
    in its explanation, :func:`explain`)."""
    st.subheader(tr(f"confusions.{name}.ask"))


def holds(name: str, question_state: dict) -> bool:
    """Whether section ``name``'s question waits for the learner at ``question_state``: then the section
    draws nothing that states its answer (``answers_held``)."""
    return answers_held([QUESTIONS[name]], question_state)


def ask(name: str, question_state: dict) -> None:
    """The section's predict-then-reveal question, under its figure (which holds its answer back)."""
    with st.container(border=True):
        st.caption(f"**{tr('teach.header')}** · {tr('teach.intro')}")
        predict(QUESTIONS[name], question_state)


def left_out(what: str) -> None:
    """One line under a figure drawn without the part that answers the section's question."""
    st.caption(":material/visibility_off: " + tr("confusions.left_out", what=what))


@contextlib.contextmanager
def explain(name: str):
    """The section's explanation, on demand: its full title, the confusion as people state it, then what
    the block adds (the reading of the figure, tables), then the public threads."""
    with notes(key=f"cf_notes_{name}"):
        st.markdown(f"**{tr(f'confusions.{name}.header')}**")
        st.markdown(f"**{tr('confusions.said')}** {tr(f'confusions.{name}.said')}")
        yield
        st.caption(f"**{tr('confusions.sources')}** {tr(f'confusions.{name}.sources')}")


def reading(name: str, held: bool, values: dict[str, Any] | None, key: str = "reading") -> None:
    """The reading of the section's figure (locale ``confusions.<name>.<key>`` filled with ``values``), or
    the held note while its question waits."""
    if held:
        held_note()
    else:
        st.markdown(tr(f"confusions.{name}.{key}", **(values or {})))


def export(held: bool, frame: pd.DataFrame, name: str, key: str) -> None:
    """The section's numbers as CSV (``rlviz-<name>.csv``), once its question no longer waits."""
    if not held:
        csv_download(frame, name, key=key)


def close(
    name: str,
    question_state: dict,
    held: bool,
    values: dict[str, Any] | None,
    frame: pd.DataFrame,
    csv: tuple[str, str],
    key: str = "reading",
    extra: Callable[[], None] | None = None,
) -> None:
    """The end of most sections, under the figure: the question, the explanation with its reading
    (:func:`reading`) and ``extra`` (drawn after it, held or not), then the export ``csv`` =
    ``(file name, widget key)``."""
    ask(name, question_state)
    with explain(name):
        reading(name, held, values, key)
        if extra is not None:
            extra()
    export(held, frame, *csv)


# ------------------------------------------------------------------------- the runs of the tiny LM
@st.cache_data(show_spinner=False, max_entries=32)
def updates(mu: int, mini_batches: int, lr: float, seed: int, model_dir, device) -> pd.DataFrame:
    """Section 3: :func:`rlviz.experiments.confusions.ratio_by_update` on ``UPDATE_PROMPTS`` x ``UPDATE_G``."""
    # loads its own model copy and returns a plain frame: nothing mutable is shared between sessions
    return X.ratio_by_update(mu, mini_batches, lr, seed, UPDATE_PROMPTS, UPDATE_G, model_dir=model_dir, device=device)


@st.cache_data(show_spinner=False, max_entries=16)
def gap(seed: int, dtype: str, cap: float, model_dir, device) -> X.GapResult:
    """Section 5: :func:`rlviz.experiments.confusions.sampler_trainer_gap` on ``GAP_PROMPTS`` x ``GAP_G``."""
    # loads its own model copy and returns plain frames: nothing mutable is shared between sessions
    return X.sampler_trainer_gap(seed, GAP_PROMPTS, GAP_G, dtype, cap, model_dir, device)


def model_fields(**fields: str) -> dict[str, str]:
    """A model-running section's field labels (parameter -> label): ``fields`` and the sidebar's device
    and model, which the library's errors may name too."""
    state = st.session_state
    model = state.get("model_dir") or tr("side.model_tiny")
    return fields | {"device": tr("side.device"), "model_dir": tr("side.model", model=model)}


def run_model(compute: Callable[[], Any], fields: dict[str, str]) -> Any:
    """``compute()`` under the section's spinner; ``None`` after a message in its place: a ``ValueError``
    names its field (``fields``), any other failure is said in one line, never a traceback."""
    try:
        with st.spinner(tr("confusions.running")):
            return compute()
    except ValueError as exc:
        show_bad_input(exc, fields)
    except Exception as exc:  # noqa: BLE001 -- the page boundary: a message, never a traceback
        st.error(tr("confusions.failed", error=escape_markdown(f"{type(exc).__name__}: {exc}")))
    return None


# --------------------------------------------------------------------------------- the figures' words
def aggregation_labels(lengths) -> dict[str, str]:
    """Section 1's figure: its words and each response's label (its number from 1 and its length)."""
    responses = {f"response.{i}": tr("confusions.response", i=response_number(i), n=n) for i, n in enumerate(lengths)}
    return labels("confusions.aggregation", "per_token", "share", **responses)


def microbatch_labels(frame: pd.DataFrame) -> dict[str, str]:
    """Section 2's figure: its words and each response's tick (its number, length and micro-batch, each
    counted from 1)."""
    ticks = {
        f"response.{int(r.response)}": tr(
            "confusions.microbatch.tick", i=response_number(int(r.response)), n=int(r.length), j=int(r.micro_batch) + 1
        )
        for r in frame.itertuples()
    }
    return labels("confusions.microbatch", "global", "micro", "weight", **ticks)


def ratio_labels() -> dict[str, str]:
    return labels(
        "confusions.ratio_one", "ratio_panel", "clip_panel", "update", "ratio", "clip", "mean", "range", "tick"
    )


def sequence_labels() -> dict[str, str]:
    return labels(
        "confusions.sequence",
        "ratio_panel",
        "push_panel",
        position=tr("word.position"),
        ratio=tr("confusions.clip.ratio_axis"),
        push=tr("confusions.clip.push"),
        **{f"state.{s}": tr(f"weighting.state_{s}") for s in TOKEN_STATES},
        **{f"title.{n}": ALGORITHMS[n].title for n in X.RATIO_PAIR},
    )


def sampler_labels() -> dict[str, str]:
    return labels("confusions.sampler", "gap_panel", "ppo_panel", "gap_x", "ppo_x", "log_ratio", "tokens")


def kl_labels() -> dict[str, str]:
    return labels("confusions.kl", "value_panel", "grad_panel", "x", "value", "grad", "loss", "reward")


def difficulty_labels() -> dict[str, str]:
    return labels(
        "confusions.difficulty",
        "group",
        "none",
        relative=tr("confusions.difficulty.relative"),
        p=tr("confusions.difficulty.p_axis"),
    )


def clip_setting_labels() -> dict[str, str]:
    """Section 8's sliders: ε_low, ε_high and c, each with its TRL and verl names (from the registry)."""
    spec = ALGORITHMS[X.CLIP_ALGORITHM]
    names = {n: spec.setting(n) for n in ("epsilon_low", "epsilon_high", "dual_clip_c")}
    keys = {"epsilon_low": "eps_low", "epsilon_high": "eps_high", "dual_clip_c": "c"}
    return {n: tr(f"confusions.clip.{keys[n]}", trl=names[n].trl, verl=names[n].verl) for n in keys}


def clip_labels() -> dict[str, str]:
    return labels(
        "confusions.clip",
        "positive",
        "negative",
        "push",
        ratio=tr("confusions.clip.ratio_axis"),
        **{f"bound.{b}": tr(f"confusions.clip.bound.{b}") for b in X.BOUNDS},
    )


def window_labels() -> dict[str, str]:
    keys = ("tokens", "counted", "scale", "tokens_panel", "scale_panel", "step", "tokens_axis", "scale_axis")
    return labels("confusions.window", *keys)


def drift_labels() -> dict[str, str]:
    return labels("confusions.drift", "token", "product", "truncate", "mask", "length", "weight")


def gdpo_labels() -> dict[str, str]:
    return labels("confusions.gdpo", "grpo", "gdpo", "advantage", "tick")


# ------------------------------------------------------------------------- the sections' tables and numbers
def mode_table() -> None:
    """Section 1's table of the aggregation modes under their names in papers, TRL and verl."""
    st.caption(tr("confusions.aggregation.table_note"))
    names = X.mode_names().rename(
        columns={
            "mode": tr("confusions.aggregation.col_mode"),
            "papers": tr("confusions.aggregation.col_papers"),
            "trl": "TRL",
            "verl": "verl",
        }
    )
    st.dataframe(names.replace("", tr("word.none")), hide_index=True)


def sampler_metrics(summary: dict[str, float]) -> None:
    """Section 5's four numbers under its figure (``rlviz.experiments.confusions.sampler_metrics``)."""
    values = X.sampler_metrics(summary)
    for column, key in zip(st.columns(4), ("gap", "above", "tis", "seq"), strict=True):
        column.metric(tr(f"confusions.sampler.metric_{key}"), values[key])


def kl_table(table: pd.DataFrame, held: bool) -> None:
    """Section 6's table of each route's expected gradient and its error (``kl_expected_gradients``), or the
    held note while its question waits."""
    if held:
        held_note()
        return
    st.caption(tr("confusions.kl.table_note", kl=f"{float(table.kl.iloc[0]):.4f}"))
    shown = pd.DataFrame(
        {
            tr("confusions.kl.col_route"): [tr(f"confusions.kl.route.{r}") for r in table.route],
            tr("confusions.kl.col_estimator"): table.estimator,
            tr("confusions.kl.col_value"): table.expected_value.map("{:.4f}".format),
            tr("confusions.kl.col_error"): table.rel_error.map("{:.3f}".format),
        }
    )
    st.dataframe(shown, hide_index=True)


# ------------------------------------------------------------------------------------ the sections' figures
# Each draws its section's figure under the section's controls; ``held``: the section's question waits, so
# the figure leaves out the part that answers it (and one line says so), or a held note stands for it.
def aggregation_figure(weights: pd.DataFrame, lengths, question_state: dict, held: bool) -> None:
    """Section 1: each response's share of the loss per mode; while ``held``, without the mode the question
    asks about (its bars are the answer)."""
    asked = QUESTIONS["aggregation"].fields(question_state)["mode"]
    shown = X.aggregation_held(weights, asked) if held else weights
    chart(P.aggregation_figure(shown, aggregation_labels(lengths)), "cf_agg_chart")
    if held:
        left_out(asked)


def microbatch_figure(frame: pd.DataFrame, held: bool) -> None:
    """Section 2: each response's weight under the global token-mean and per micro-batch; while ``held``,
    only the global token-mean (the bars per micro-batch are the answer)."""
    words = microbatch_labels(frame)
    chart(P.microbatch_figure(frame, words, series=("global",) if held else ("global", "micro")), "cf_mb_chart")
    if held:
        left_out(words["micro"])


def ratio_figure(frame: pd.DataFrame, held: bool) -> None:
    """Section 3: the ratio and the clip fraction per update; the whole figure is the answer (a held note
    while ``held``)."""
    if held:
        held_note()
    else:
        chart(P.update_figure(frame, ratio_labels()), "cf_ratio_chart")


def sequence_figure(df: pd.DataFrame, held: bool) -> None:
    """Section 4: each token's ratio and push under the token-level and the sequence-level objective; while
    ``held``, only the token-level one (the sequence-level one's markers are the answer)."""
    token, seq = X.RATIO_PAIR
    chart(P.sequence_figure(df[df.algorithm == token] if held else df, sequence_labels()), "cf_seq_chart")
    if held:
        left_out(ALGORITHMS[seq].title)


def sampler_view(result: X.GapResult, summary: dict[str, float], held: bool) -> None:
    """Section 5: the sampler-trainer gap and PPO's ratio per token, then four numbers (``summary``:
    ``result.summary()``); both panels and every number show which ratio moved (a held note while ``held``)."""
    if held:
        held_note()
    else:
        chart(P.gap_figure(result.tokens, result.cap, sampler_labels()), "cf_gap_chart")
        sampler_metrics(summary)


def kl_figure(curves: pd.DataFrame) -> None:
    """Section 6: each KL estimator's value and gradient against x = log π − log π_ref, marked at
    ``X.KL_MARK`` (not the answer: never held back)."""
    chart(P.kl_figure(curves, X.KL_MARK, kl_labels()), "cf_kl_chart")


def kl_explanation(curves: pd.DataFrame, table: pd.DataFrame, held: bool) -> None:
    """Section 6's explanation: the reading of the KL curves at ``X.KL_MARK``, then the table of each route's
    expected gradient (:func:`kl_table`, the answer: a held note while ``held``)."""
    with explain("kl"):
        st.markdown(tr("confusions.kl.reading", **X.kl_reading(curves, X.KL_MARK)))
        kl_table(table, held)


def difficulty_figure(df: pd.DataFrame, p: float, held: bool) -> None:
    """Section 7: the advantage's size against the pass rate, with and without the division by the group's
    std, marked at ``p``; while ``held``, only the curve without it (the other is the answer)."""
    words = difficulty_labels()
    chart(P.difficulty_figure(df, p, words, series=("none",) if held else ("group", "none")), "cf_diff_chart")
    if held:
        left_out(words["group"])


def clip_figure(df: pd.DataFrame, eps_low: float, eps_high: float, dual: float | None, held: bool) -> None:
    """Section 8: each ratio coloured by what stops its gradient (the answer: a held note while ``held``)."""
    if held:
        held_note()
    else:
        chart(P.clip_figure(df, eps_low, eps_high, dual, clip_labels()), "cf_clip_chart")


def window_figure(df: pd.DataFrame, held: bool) -> None:
    """Section 9: each step's tokens, the tokens its window counts and their ratio; while ``held``, only the
    steps' own tokens (the tokens counted and their ratio are the answer)."""
    words = window_labels()
    series = ("tokens",) if held else ("tokens", "counted", "scale")
    chart(P.window_figure(df, words, series=series), "cf_win_chart")
    if held:
        left_out(f"{words['counted']}, {words['scale']}")


def drift_figure(df: pd.DataFrame, cap: float, held: bool) -> None:
    """Section 10: each token's ratio, their product over the response and where truncation or the mask at
    ``cap`` acts; while ``held``, only each token's ratio (the product and the mask are the answer)."""
    series = ("token",) if held else ("token", "product", "truncate", "mask")
    chart(P.drift_figure(df, cap, drift_labels(), series=series), "cf_drift_chart")
    if held:
        left_out(tr("confusions.drift.left_out"))


def gdpo_figure(df: pd.DataFrame, held: bool) -> None:
    """Section 11: each response's advantage under GRPO and GDPO; while ``held``, only GRPO's (GDPO's bars
    are the answer)."""
    words = gdpo_labels()
    chart(P.gdpo_figure(df, words, series=("grpo",) if held else ("grpo", "gdpo")), "cf_gdpo_chart")
    if held:
        left_out(words["gdpo"])
