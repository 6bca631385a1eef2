"""The critic page's Streamlit-bound support: the group view's sampling (cached, with its progress bar), its
figures in the session's language, the live run's figure, reading and tables."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from app_common.charts import figure_cache, settings_hash
from app_common.text import cell, lang, tr
from rlviz.experiments import critic as X
from rlviz.lm.tasks import get_task
from rlviz.plots.critic import group_figure, lambda_figure, length_figure, live_figure, position_figure
from rlviz.plots.live import SMOOTH_SPAN

LIVE_PANELS = ("reward_mean", "critic_rmse", "value_loss", "cpu_seconds")


@st.cache_data(show_spinner=False, max_entries=16)
def group(task: str, group_size: int, critic_steps: int, seed: int, device: str) -> X.CriticGroup:
    """:func:`rlviz.experiments.critic.sample_group`, cached by its settings and shared by every session (a
    pure result of them). The progress bar is made, moved and removed in here (a cache hit replays them)."""
    bar = st.empty()

    def on_step(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=tr("critic.computing", done=done, total=total))

    settings = X.GroupSettings(task=task, group_size=group_size, critic_steps=critic_steps, seed=seed, device=device)
    result = X.sample_group(settings, on_step=on_step)
    bar.empty()
    return result


def row_labels(g: X.CriticGroup) -> dict[str, str]:
    """``row.<i>`` -> response i's label (its number and reward)."""
    return {f"row.{i}": tr("critic.row", i=i, r=f"{r:g}") for i, r in enumerate(g.rewards, start=1)}


def _group_words(g: X.CriticGroup) -> dict[str, str]:
    keys = ("values", "gae", "grpo", "grpo_axis", "position", "token", "value", "advantage", "td", "mc", "return")
    return {k: tr(f"critic.{k}") for k in keys} | {"held": tr("critic.held_figure")} | row_labels(g)


_BY_REPR = settings_hash(X.CriticGroup, X.GroupSettings)  # a group is hashed by its repr (every number in it)


@figure_cache(hash_funcs=_BY_REPR)
def group_spec(g: X.CriticGroup, gamma: float, lam: float, whiten: bool, held: bool, language: str):
    """The main figure's spec for group ``g``, cached per look (``language``: part of the key)."""
    return group_figure(X.gae_frame(g, gamma, lam, whiten), X.grpo_frame(g), _group_words(g), held=held)


@figure_cache(hash_funcs=_BY_REPR)
def lambda_spec(g: X.CriticGroup, gamma: float, lam: float, response: int, language: str):
    """The λ figure's spec for one response of group ``g``."""
    words = {
        "td": tr("critic.td"),
        "advantage": tr("critic.ends_now", lam=f"{lam:g}"),
        "mc": tr("critic.mc"),
        "value": tr("critic.value"),
        "position": tr("critic.position"),
        "y": tr("critic.ends_y"),
        "title": tr("critic.ends_title", row=response, lam=f"{lam:g}"),
    }
    return lambda_figure(X.gae_frame(g, gamma, lam), response, words)


def group_caption(g: X.CriticGroup, gamma: float, lam: float, whiten: bool) -> str:
    """The line under the main figure: the prompt, how many responses are right, which critic, the GAE settings."""
    steps = g.settings.critic_steps
    critic = (
        tr("critic.critic_fresh")
        if steps == 0
        else tr("critic.critic_trained", steps=steps, loss=f"{g.value_loss:.3f}")
    )
    return tr(
        "critic.group_caption",
        prompt=g.prompt,
        answer=g.answer,
        right=sum(r > 0 for r in g.rewards),
        G=len(g.rewards),
        tries=tr("critic.tries", tries=g.tries) if g.tries > 1 else "",
        critic=critic,
        gamma=f"{gamma:g}",
        lam=f"{lam:g}",
        whitened=tr("critic.whitened") if whiten else "",
    )


def group_reading(frame: pd.DataFrame, grpo: pd.DataFrame, row: int, lam: float) -> str:
    """What the figure shows for response ``row`` (1-based): its first and last token's advantage, GRPO's."""
    d = frame[frame["response"] == row]
    return tr(
        "critic.reading",
        lam=f"{lam:g}",
        row=row,
        first=f"{float(d['advantage'].iloc[0]):+.3f}",
        last=f"{float(d['advantage'].iloc[-1]):+.3f}",
        grpo=f"{float(grpo.loc[grpo['response'] == row, 'advantage'].iloc[0]):+.3f}",
    )


# ------------------------------------------------------------------------------------------ the live run
def arm_names() -> dict[str, str]:
    return {"ppo": tr("critic.arm.ppo"), "grpo": tr("critic.arm.grpo")}


def live_words(empty: str) -> dict[str, str]:
    words = {m: tr(f"critic.metric.{m}") for m in LIVE_PANELS}
    words |= {"step": tr("word.step"), "smoothed": tr("critic.smoothed"), "empty": tr(empty)}
    return words | {f"name.{a}": n for a, n in arm_names().items()}


def live_curves(run: X.CriticRun | None, steps: int):
    """The run's curves; before a run the same panels, empty, over the widgets' ``steps``."""
    if run is None:
        frame = pd.DataFrame(columns=["arm", "step", *LIVE_PANELS])
        return live_figure(frame, LIVE_PANELS, live_words("critic.empty_figure"), steps=int(steps), smooth=SMOOTH_SPAN)
    return live_figure(
        X.live_frame(run), LIVE_PANELS, live_words("critic.first_step"), steps=run.config.steps, smooth=SMOOTH_SPAN
    )


def steps_words(steps: tuple[int, int]) -> str:
    """A window of steps (first, last) in words: "step 3" for one step, "steps 2–5" for more."""
    a, b = steps
    return tr("critic.step_one", a=a) if a == b else tr("critic.steps_range", a=a, b=b)


def live_reading(run: X.CriticRun) -> str:
    """The run's reading, every number computed from it."""
    steps = X.late_steps(run)
    values = X.value_frame(run)
    ends = X.ends_error(values, steps)
    late = values[(values["step"] >= steps[0]) & (values["step"] <= steps[1])] if not values.empty else values
    cost = X.cost_frame(run).set_index("quantity")
    return tr(
        "critic.live_reading",
        steps=steps_words(steps),
        first=cell(ends["first"]),
        last=cell(ends["last"]),
        value=cell(float(late["value"].mean()) if len(late) else math.nan),
        ret=cell(float(late["return_mc"].mean()) if len(late) else math.nan),
        ratio=cell(cost.loc["cpu_step", "ratio"]),
        ppo=cell(cost.loc["cpu_step", "critic"]),
        grpo=cell(cost.loc["cpu_step", "policy"]),
        critic=cell(cost.loc["cpu_critic", "critic"]),
        params=f"{cost.loc['parameters', 'critic']:,.0f}"
        if math.isfinite(cost.loc["parameters", "critic"])
        else cell(None),
        pratio=cell(cost.loc["parameters", "ratio"]),
    )


def position_chart_figure(run: X.CriticRun):
    """The critic against the returns by position: late steps, and early steps against late ones."""
    values = X.value_frame(run)
    late = X.late_steps(run)
    early = (1, max(1, late[0] - 1))
    words = {
        "left": tr("critic.position_left", steps=steps_words(late)),
        "right": tr("critic.position_right"),
        "value": tr("critic.mean_value"),
        "return": tr("critic.mean_return"),
        "early": steps_words(early),
        "late": steps_words(late),
        "position": tr("critic.position"),
        "tokens": tr("critic.tokens"),
    }
    early_frame = X.error_by_position(values, early) if late[0] > 1 else X.error_by_position(values.iloc[0:0])
    return position_figure(X.error_by_position(values, late), early_frame, words)


def _length_frames(run: X.CriticRun) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame, tuple[int, int]]:
    """``(responses, fresh, trained, dropped, late)``: the run's per-response errors (:func:`X.response_errors`),
    the by-length bins drawn (:func:`X.split_bins`) of step 1 (the fresh critic) and of the late steps ``late``
    (empty before the second step: step 1 is the fresh critic's), and the late steps' bins left out."""
    responses = X.response_errors(X.value_frame(run))
    late = X.late_steps(run)
    fresh, _ = X.split_bins(X.error_by_length(responses, (1, 1)))
    trained_all = X.error_by_length(responses, late) if late[0] > 1 else X.error_by_length(responses.iloc[0:0])
    trained, dropped = X.split_bins(trained_all)
    return responses, fresh, trained, dropped, late


def length_chart_figure(run: X.CriticRun):
    """The critic's error and the group baseline's by response length: step 1 and the late steps, each over
    the bins with enough responses to read (:data:`X.MIN_BIN_RESPONSES`)."""
    _, fresh, trained, _, late = _length_frames(run)
    window = steps_words(late)
    words = {
        "fresh": tr("critic.length_fresh"),
        "tokens": tr("critic.length_tokens", steps=window),
        "first": tr("critic.length_first", steps=window),
        "baseline": tr("critic.length_baseline", steps=window),
        "length": tr("critic.length_axis"),
        "y": tr("critic.length_y"),
        "responses": tr("critic.responses"),
        "reward": tr("critic.mean_reward"),
    }
    return length_figure(fresh, trained, words)


def length_caption(run: X.CriticRun) -> str:
    """The line under the by-length figure: what each line measures, the bins, the run's task and its limit,
    and the late steps' bins not drawn (too few responses), with their counts."""
    task = get_task(run.critic_config.task)
    _, _, _, dropped, _ = _length_frames(run)
    listed = "; ".join(
        tr("critic.length_bin", lo=int(r.lo), hi=int(r.hi), n=int(r.responses)) for r in dropped.itertuples()
    )
    gone = tr("critic.length_dropped", min=X.MIN_BIN_RESPONSES, bins=listed) if listed else ""
    return tr(
        "critic.length_caption", width=X.LENGTH_BIN, task=task.label[lang()], limit=task.max_new_tokens, dropped=gone
    )


def _trend(responses: pd.DataFrame, column: str, late: tuple[int, int]) -> str:
    trend = X.length_trend(responses, column, late)
    return tr(
        f"critic.trend.{trend['verdict']}",
        who=tr(f"critic.who.{column}"),
        slope=f"{trend['slope']:+.4f}",
        se=f"{trend['se']:.4f}",
    )


def length_reading(run: X.CriticRun) -> str:
    """What the by-length figure shows in this run, every number computed from it: the first and the last bin
    it draws (:func:`X.bin_ends`, the points at the ends of its lines), one sentence per line's trend; ""
    before step 2 or without a bin to draw."""
    responses, _, trained, _, late = _length_frames(run)
    if trained.empty:
        return ""
    ends = X.bin_ends(trained)
    counted = responses[(responses["step"] >= late[0]) & (responses["step"] <= late[1])]
    ends_and_trends = tr(
        "critic.length_reading" if len(trained) > 1 else "critic.length_reading_one",
        steps=steps_words(late),
        n=len(counted),
        lmin=int(counted["length"].min()),
        lmax=int(counted["length"].max()),
        s_lo=int(ends["lo_short"]),
        s_hi=int(ends["hi_short"]),
        l_lo=int(ends["lo_long"]),
        l_hi=int(ends["hi_long"]),
        ns=int(ends["responses_short"]),
        nl=int(ends["responses_long"]),
        short=cell(ends["critic_tokens_short"]),
        long=cell(ends["critic_tokens_long"]),
        b_short=cell(ends["baseline_short"]),
        b_long=cell(ends["baseline_long"]),
        critic=_trend(responses, "critic_tokens", late),
        base=_trend(responses, "baseline", late),
        below=int((trained["baseline"] < trained["critic_tokens"]).sum()),
        bins=len(trained),
    )
    fresh = tr(
        "critic.length_fresh_note", fresh=cell(float(responses.loc[responses["step"] == 1, "critic_tokens"].mean()))
    )
    return "\n\n".join((ends_and_trends, _trend(responses, "excess", late), fresh))


def cost_table(run: X.CriticRun) -> pd.DataFrame:
    """The cost frame as text in the session's language."""
    cost = X.cost_frame(run)

    def fmt(quantity: str, v: float) -> str:
        if not math.isfinite(v):
            return cell(v)  # "—": not measured yet
        return f"{v:,.0f}" if quantity == "parameters" else cell(v)

    return pd.DataFrame(
        {
            tr("critic.col.quantity"): [tr(f"critic.cost.{q}") for q in cost["quantity"]],
            tr("critic.col.policy"): [fmt(q, v) for q, v in zip(cost["quantity"], cost["policy"])],
            tr("critic.col.critic"): [fmt(q, v) for q, v in zip(cost["quantity"], cost["critic"])],
            tr("critic.col.ratio"): [cell(v) for v in cost["ratio"]],
        }
    )


def fields() -> dict[str, str]:
    """A parameter's name -> its widget's label (for :func:`app_common.show_bad_input`)."""
    return {
        "task": tr("critic.task"),
        "group_size": tr("critic.group_size"),
        "critic_steps": tr("critic.critic"),
        "gamma": tr("critic.gamma"),
        "lam": tr("critic.lam"),
        "steps": tr("critic.steps"),
        "lr": tr("critic.lr"),
        "value_lr": tr("critic.value_lr"),
        "prompts_per_step": tr("critic.prompts"),
    }
