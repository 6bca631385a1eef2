"""The critic page's Streamlit-bound support: the group view's sampling (cached, with its progress bar), its
figures in the session's language, the live run's figure, reading and tables."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from app_common.charts import figure_cache, settings_hash
from app_common.text import cell, tr
from rlviz.experiments import critic as X
from rlviz.plots.critic import group_figure, lambda_figure, live_figure, position_figure
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


def live_reading(run: X.CriticRun) -> str:
    """The run's reading, every number computed from it."""
    steps = X.late_steps(run)
    values = X.value_frame(run)
    ends = X.ends_error(values, steps)
    late = values[(values["step"] >= steps[0]) & (values["step"] <= steps[1])] if not values.empty else values
    cost = X.cost_frame(run).set_index("quantity")
    return tr(
        "critic.live_reading",
        a=steps[0],
        b=steps[1],
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
        "left": tr("critic.position_left", a=late[0], b=late[1]),
        "right": tr("critic.position_right"),
        "value": tr("critic.mean_value"),
        "return": tr("critic.mean_return"),
        "early": tr("critic.steps_range", a=early[0], b=early[1]),
        "late": tr("critic.steps_range", a=late[0], b=late[1]),
        "position": tr("critic.position"),
        "tokens": tr("critic.tokens"),
    }
    early_frame = X.error_by_position(values, early) if late[0] > 1 else X.error_by_position(values.iloc[0:0])
    return position_figure(X.error_by_position(values, late), early_frame, words)


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
