"""The critic and GAE page (issue 41): PPO's value model on the shipped tiny LM, what GAE makes of its
values, GRPO's group baseline beside it, and what the critic costs.

Two parts, as the page has them:

1. **One group** (:func:`sample_group`, :func:`gae_frame`, :func:`grpo_frame`): G responses of the shipped
   model to one prompt, their rewards, a critic's value V(s_t) per token (a freshly initialised critic, or
   the critic of a short PPO run of ``critic_steps`` steps from the same checkpoint, whose policy then
   samples the group), and per token the GAE advantage at any gamma and lambda
   (``rlviz.core.advantages.gae``: verl's ``compute_gae_advantage_return``), with its two ends, lambda = 0
   (one TD error) and lambda = 1 (Monte-Carlo return minus value); beside it GRPO's one advantage per
   response (``group_advantages``, GRPO's own ``scale_rewards``).
2. **A live run** (:class:`CriticRun`): PPO with its critic and GRPO side by side
   (``rlviz.experiments.runner.SideBySideRun``), both without a KL term, so the difference in cost is the
   critic's (and GRPO's old log-probs coming from its first update's own forward); per step the critic's
   values against the returns (``Trainer.value_views``), its error by token position
   (:func:`error_by_position`), its error per response by response length beside GRPO's group baseline
   on the same responses (:func:`response_errors`, :func:`error_by_length`, :func:`length_ends`,
   :func:`length_trend`), its size and training memory beside the policy's (counted from the modules and
   the optimizer's state), and the CPU time of each arm's steps (``Trainer.phase_seconds``).

No Streamlit here. Frames are plain pandas; words come from ``rlviz.locale.critic``.

Legend: G group size, T response width (tokens), B responses per step, t a token's position (0-based in
tensors, 1-based in frames).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import torch

from rlviz.core.advantages import gae, group_advantages
from rlviz.core.objectives import ALGORITHMS
from rlviz.i18n import t
from rlviz.lm.tasks import DEFAULT_TASK, TASKS, get_task

from .runner import Arm, RunConfig, SideBySideRun, train_config

__all__ = [
    "CRITIC_STEPS",
    "critic_arms",
    "DEFAULT_GAMMA",
    "DEFAULT_LAM",
    "CriticGroup",
    "CriticLiveConfig",
    "CriticRun",
    "GroupSettings",
    "cost_frame",
    "error_by_length",
    "error_by_position",
    "length_ends",
    "length_trend",
    "gae_frame",
    "group_state",
    "grpo_frame",
    "live_frame",
    "live_result",
    "response_errors",
    "sample_group",
    "value_frame",
]

# the critic of the group view: freshly initialised (0) or trained by this many PPO steps first
CRITIC_STEPS = (0, 5, 10, 20)
CRITIC_PROMPTS = 4  # prompts per PPO step while that critic trains (G responses each)
MAX_TRIES = 8  # prompts drawn for the group until one has right and wrong answers
GROUP_SEED_OFFSET = 7_919  # the group's draws, apart from the critic's training draws
# PPO's registry defaults (rlviz.core.objectives): the sliders start there
DEFAULT_GAMMA = float(ALGORITHMS["ppo"].train_defaults["gamma"])
DEFAULT_LAM = float(ALGORITHMS["ppo"].train_defaults["lam"])
ZERO = 1e-9  # |advantage| below this counts as zero (float rounding of an exact zero)


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= int(value) <= high:
        raise ValueError(f"{name}: must be a whole number in [{low}, {high}], got {value!r}")
    return int(value)


def _unit(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{name}: must be a number in [0, 1], got {value!r}")
    return float(value)


# ============================================================================================ one group
@dataclass(frozen=True)
class GroupSettings:
    """What the group view samples.

    Attributes:
        task: a key of ``rlviz.lm.tasks.TASKS``.
        group_size: G, responses to the one prompt (2-16).
        critic_steps: PPO steps (``CRITIC_PROMPTS`` prompts x G each, the trainer's defaults otherwise)
            that train the critic, and the policy with it, before the group is sampled; 0: a freshly
            initialised critic (rlviz's value head starts at zero, so V = 0 everywhere) and the shipped
            policy. At most 50.
        seed: seeds the critic's training and the group's draws.
        device: ``None`` / ``"auto"`` or a torch device name.
    """

    task: str = DEFAULT_TASK
    group_size: int = 8
    critic_steps: int = 0
    seed: int = 0
    device: str | None = None

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first bad field (``task``, ``group_size``, ``critic_steps``, ``seed``)."""
        get_task(self.task)
        _whole("group_size", self.group_size, 2, 16)
        _whole("critic_steps", self.critic_steps, 0, 50)
        _whole("seed", self.seed, 0, 2**31 - 1)


@dataclass(frozen=True)
class CriticGroup:
    """One sampled group and its critic's values.

    Attributes:
        settings: what sampled it.
        prompt, answer: the prompt and its reference answer.
        tokens: per response its tokens as shown (EOS as ``⏎``), G tuples of L_i strings.
        rewards: (G,) the verifier's rewards.
        values: G tuples of L_i floats: V(s_t), the critic's value of the state before token t.
        tries: prompts drawn until a group with right and wrong answers came (at most ``MAX_TRIES``:
            the last one drawn then, whatever its rewards).
        value_loss: the critic's value loss at its last training step (NaN for a fresh critic).
    """

    settings: GroupSettings
    prompt: str
    answer: str
    tokens: tuple[tuple[str, ...], ...]
    rewards: tuple[float, ...]
    values: tuple[tuple[float, ...], ...]
    tries: int
    value_loss: float

    @property
    def lengths(self) -> tuple[int, ...]:
        """(G,) response lengths in tokens (EOS included)."""
        return tuple(len(v) for v in self.values)

    def tensors(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """``(token_rewards, values, mask)``, each [G, T] float64: :func:`tensors_of` of this group."""
        return tensors_of(self.rewards, self.values)


def tensors_of(rewards, values) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(token_rewards, values, mask)``, each [G, T] float64 (T the longest response), from per-response
    rewards (G,) and values (G lists of L_i): the reward on each response's last token, as the trainer
    places an outcome reward (``Trainer._advantages``), 0 elsewhere and at padding.

    Raises:
        ValueError: naming ``values`` (no response, an empty one, a count that differs from the rewards')
            or ``rewards`` / ``values`` holding a number that is not finite.
    """
    if not values or len(values) != len(rewards) or any(len(v) == 0 for v in values):
        raise ValueError(f"values: need one non-empty list per reward ({len(rewards)}), got {len(values)}")
    G, T = len(values), max(len(v) for v in values)
    r = torch.zeros(G, T, dtype=torch.float64)
    v = torch.zeros(G, T, dtype=torch.float64)
    m = torch.zeros(G, T, dtype=torch.float64)
    for i, (reward, row) in enumerate(zip(rewards, values)):
        v[i, : len(row)] = torch.tensor([float(x) for x in row], dtype=torch.float64)
        m[i, : len(row)] = 1.0
        r[i, len(row) - 1] = float(reward)
    if not (torch.isfinite(r).all() and torch.isfinite(v).all()):
        raise ValueError("values: rewards and values must be finite numbers")
    return r, v, m


def sample_group(settings: GroupSettings, on_step: Callable[[int, int], None] | None = None) -> CriticGroup:
    """Sample the group view's group (CPU seconds: a load, ``critic_steps`` PPO steps, one sampling).

    The critic is the one ``rlviz.lm.trainer.Trainer`` builds for PPO (``advantage="gae"``: a copy of the
    policy's trunk with a scalar head that starts at zero); with ``critic_steps`` > 0 that trainer first
    runs so many PPO steps (``CRITIC_PROMPTS`` prompts x G, the trainer's other defaults, no KL reference
    measured), which train the policy and the critic together, and the group is sampled from that policy.
    The group's prompt is the first of up to ``MAX_TRIES`` drawn from the task's train split whose G
    responses are not all right or all wrong.

    Args:
        settings: :class:`GroupSettings`.
        on_step: ``on_step(done, total)`` after each of the critic's training steps (a progress bar).

    Raises:
        ValueError: a bad setting (naming it), or the model does not load (naming ``model_dir``).
    """
    from rlviz.lm.model import load_policy
    from rlviz.lm.rollout import sample_rollouts
    from rlviz.lm.trainer import TrainConfig, Trainer

    s = settings
    s.validate()
    task = get_task(s.task)
    model, tokenizer = load_policy(task.model_dir, None if s.device in (None, "auto") else s.device)
    config = TrainConfig(
        algorithm="ppo",
        prompts_per_step=CRITIC_PROMPTS,
        group_size=s.group_size,
        max_new_tokens=task.max_new_tokens,
        seed=s.seed,
        task=s.task,
        measure_kl_ref=False,
    )
    trainer = Trainer(config, model, tokenizer)  # trains this fresh copy in place
    value_loss = math.nan
    for k in range(s.critic_steps):
        value_loss = float(trainer.step()["value_loss"])
        if on_step is not None:
            on_step(k + 1, s.critic_steps)
    generator = torch.Generator().manual_seed(s.seed + GROUP_SEED_OFFSET)
    tries = 0
    while True:
        tries += 1
        problems = task.sample_problems(1, generator)
        batch = sample_rollouts(
            trainer.model, tokenizer, problems, s.group_size, task.max_new_tokens, config.temperature, generator
        )
        rewards = batch.rewards.cpu().double()
        if bool((rewards > rewards.min()).any()) or tries == MAX_TRIES:  # right and wrong answers, or the last try
            break
    with torch.no_grad():
        values = trainer.critic(batch).double().cpu()  # (G, T) V(s_t), the state before token t
    lengths = batch.response_lengths.cpu().tolist()
    return CriticGroup(
        settings=s,
        prompt=problems[0].prompt,
        answer=problems[0].answer,
        tokens=tuple(tuple(batch.tokens[i][: lengths[i]]) for i in range(s.group_size)),
        rewards=tuple(float(r) for r in rewards),
        values=tuple(tuple(float(x) for x in values[i, : lengths[i]]) for i in range(s.group_size)),
        tries=tries,
        value_loss=value_loss,
    )


def gae_frame(group: CriticGroup, gamma: float, lam: float, whiten: bool = False) -> pd.DataFrame:
    """Per token of ``group``: what GAE makes of the critic's values at ``gamma`` and ``lam``.

    GAE is ``rlviz.core.advantages.gae`` (Schulman et al. arXiv 1506.02438 eq. 16, verl
    ``compute_gae_advantage_return``): backwards over t, ``delta_t = r_t + gamma V(s_{t+1}) - V(s_t)``
    (V = 0 after the last token) and ``A_t = delta_t + gamma lam A_{t+1}``; the value target is
    ``A_t + V(s_t)``. verl then whitens the advantages over the batch's tokens: ``whiten`` does that
    over this group's tokens.

    Returns:
        One row per real token: ``response`` (1..G), ``position`` (1..L_i), ``token``, ``length``
        (L_i), ``reward`` (R_i), ``token_reward`` (r_t: R_i on the last token, else 0), ``value``
        (V(s_t)), ``td`` (the advantage at lam = 0: one TD error), ``advantage`` (at ``lam``, whitened
        if asked), ``advantage_mc`` (at lam = 1: the discounted return minus V(s_t)), ``target`` (the
        value target at ``lam``, un-whitened advantage + V), ``return_mc`` (the discounted return
        sum_k gamma^k r_{t+k}).

    Raises:
        ValueError: ``gamma`` or ``lam`` not in [0, 1] (naming it), ``whiten`` not a bool.
    """
    gamma, lam = _unit("gamma", gamma), _unit("lam", lam)
    r, v, m = group.tensors()
    adv, _ = gae(r, v, m, gamma, lam, whiten=whiten)  # (G, T)
    _, target = gae(r, v, m, gamma, lam, whiten=False)  # the value target: un-whitened advantage + V
    td, _ = gae(r, v, m, gamma, 0.0, whiten=False)
    mc, ret_mc = gae(r, v, m, gamma, 1.0, whiten=False)
    rows = []
    for i, tokens in enumerate(group.tokens):
        for k, token in enumerate(tokens):
            rows.append(
                {
                    "response": i + 1,
                    "position": k + 1,
                    "token": token,
                    "length": len(tokens),
                    "reward": group.rewards[i],
                    "token_reward": float(r[i, k]),
                    "value": float(v[i, k]),
                    "td": float(td[i, k]),
                    "advantage": float(adv[i, k]),
                    "advantage_mc": float(mc[i, k]),
                    "target": float(target[i, k]),
                    "return_mc": float(ret_mc[i, k]),
                }
            )
    return pd.DataFrame(rows)


def grpo_frame(group: CriticGroup) -> pd.DataFrame:
    """GRPO's group baseline on the same group: one advantage per response, every token of it the same.

    ``group_advantages`` with GRPO's registry ``scale_rewards`` (DeepSeekMath arXiv 2402.03300 §4.1.2:
    (R - group mean) / (unbiased std + 1e-6)).

    Returns:
        One row per response: ``response`` (1..G), ``reward``, ``length``, ``advantage``.
    """
    scale = ALGORITHMS["grpo"].train_defaults["scale_rewards"]
    adv = group_advantages(torch.tensor([group.rewards], dtype=torch.float64), scale)[0]
    return pd.DataFrame(
        {
            "response": range(1, len(group.rewards) + 1),
            "reward": group.rewards,
            "length": group.lengths,
            "advantage": adv.tolist(),
        }
    )


def asked_row(group: CriticGroup) -> int:
    """The response the group's questions ask about (0-based): the longest right answer (the first of
    equal ones), else the longest response."""
    right = [i for i, r in enumerate(group.rewards) if r > 0]
    pool = right or list(range(len(group.rewards)))
    return max(pool, key=lambda i: (group.lengths[i], -i))


def group_state(group: CriticGroup, gamma: float) -> dict[str, Any]:
    """The state the group's predictions are asked at: ``gamma``, ``critic_steps``, ``rewards`` (G,),
    ``values`` (G tuples), ``row`` (:func:`asked_row`). Plain numbers and tuples (a guess stands while
    they do)."""
    return {
        "gamma": float(gamma),
        "critic_steps": int(group.settings.critic_steps),
        "rewards": tuple(group.rewards),
        "values": tuple(tuple(row) for row in group.values),
        "row": asked_row(group),
    }


def _state_gae(state: Mapping[str, Any], lam: float) -> torch.Tensor:
    r, v, m = tensors_of(state["rewards"], state["values"])
    adv, _ = gae(r, v, m, _unit("gamma", state["gamma"]), lam, whiten=False)
    return adv


def answer_td(state: Mapping[str, Any]) -> str:
    """At lam = 0 (each advantage one TD error) and the state's gamma: ``"last"`` if no token of a right
    answer but its last gets a non-zero advantage, else ``"more"``."""
    adv = _state_gae(state, 0.0)
    for i, (reward, row) in enumerate(zip(state["rewards"], state["values"])):
        if reward > 0 and bool((adv[i, : len(row) - 1].abs() > ZERO).any()):
            return "more"
    return "last"


def td_applies(state: Mapping[str, Any]) -> bool:
    """The TD question needs a right answer of at least two tokens."""
    return any(r > 0 and len(v) >= 2 for r, v in zip(state["rewards"], state["values"]))


def fields_td(state: Mapping[str, Any]) -> dict[str, str]:
    return {"gamma": f"{float(state['gamma']):g}", "steps": str(int(state["critic_steps"]))}


def answer_mc(state: Mapping[str, Any]) -> float:
    """At lam = 1: the advantage of the first token of response ``row``, gamma^(L-1) R - V(s_0)."""
    return float(_state_gae(state, 1.0)[int(state["row"]), 0])


def fields_mc(state: Mapping[str, Any]) -> dict[str, str]:
    i = int(state["row"])
    return {
        "gamma": f"{float(state['gamma']):g}",
        "row": str(i + 1),
        "length": str(len(state["values"][i])),
        "reward": f"{float(state['rewards'][i]):g}",
        "v0": f"{float(state['values'][i][0]):.3f}",
    }


# ============================================================================================ the live run
@dataclass(frozen=True)
class CriticLiveConfig:
    """A live run of PPO with its critic beside GRPO, from the same checkpoint and seed.

    Attributes:
        steps: RL steps per arm.
        task: a key of ``rlviz.lm.tasks.TASKS`` (its checkpoint and its length limit).
        prompts_per_step, group_size, lr, seed: as ``TrainConfig`` (shared by both arms).
        value_lr: the critic's learning rate (PPO only; ``TrainConfig.value_lr``).
        gamma, lam: PPO's GAE settings (verl ``algorithm.gamma``, ``algorithm.lam``).
        device: ``None`` / ``"auto"`` or a torch device name.

    Both arms train without a KL term (GRPO's beta set to 0, PPO's default) and without measuring one,
    so the only extra work of the PPO arm is its critic, plus the old log-prob forward that GRPO saves
    by taking it from its first update (``Trainer._defer_old``).
    """

    steps: int = 10
    task: str = DEFAULT_TASK
    prompts_per_step: int = 8
    group_size: int = 8
    lr: float = 1e-4
    value_lr: float = 1e-3
    gamma: float = DEFAULT_GAMMA
    lam: float = DEFAULT_LAM
    seed: int = 0
    device: str | None = None

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first bad field (the runner checks the rest)."""
        get_task(self.task)
        _unit("gamma", self.gamma)
        _unit("lam", self.lam)

    def arms(self) -> list[Arm]:
        """``ppo`` (GAE with its critic) and ``grpo`` (the group baseline, beta = 0)."""
        return [
            Arm("ppo", "ppo", {"gamma": float(self.gamma), "lam": float(self.lam)}, {"value_lr": float(self.value_lr)}),
            Arm("grpo", "grpo", {"beta": 0.0}),
        ]

    def run_config(self) -> RunConfig:
        """The shared :class:`RunConfig`: no held-out evaluation (the page measures the critic)."""
        task = get_task(self.task)
        train = {
            "prompts_per_step": self.prompts_per_step,
            "group_size": self.group_size,
            "lr": self.lr,
            "seed": self.seed,
            "task": self.task,
            "max_new_tokens": task.max_new_tokens,
            "measure_kl_ref": False,
        }
        device = None if self.device in (None, "auto") else self.device
        return RunConfig(steps=self.steps, heldout_samples=0, train=train, device=device)


def _module_bytes(module: torch.nn.Module, optimizer: torch.optim.Optimizer | None) -> dict[str, float]:
    """Parameters (count), and bytes of the weights, their gradients and the optimizer's state, as held now."""
    params = list(module.parameters())
    state = optimizer.state.values() if optimizer is not None else ()
    return {
        "parameters": float(sum(p.numel() for p in params)),
        "weights": float(sum(p.numel() * p.element_size() for p in params)),
        "grads": float(sum(p.grad.numel() * p.grad.element_size() for p in params if p.grad is not None)),
        "optimizer": float(
            sum(x.numel() * x.element_size() for s in state for x in s.values() if isinstance(x, torch.Tensor))
        ),
    }


class CriticRun(SideBySideRun):
    """The side-by-side run of a :class:`CriticLiveConfig`: arms ``ppo`` and ``grpo``; keep one per session.

    Attributes:
        critic_config: the config.
        memory: ``{"policy": ..., "critic": ...}`` of :func:`_module_bytes` for the PPO arm, measured after
            its first step (AdamW's state exists from then on); empty before.

    Raises:
        ValueError: a bad setting (the message names it).
    """

    def __init__(self, config: CriticLiveConfig, policy=None):
        config.validate()
        super().__init__(config.arms(), config.run_config(), policy=policy)
        self.critic_config = config
        self.memory: dict[str, dict[str, float]] = {}

    def _step_unlocked(self, name: str, on_wait=None):
        metrics = super()._step_unlocked(name, on_wait)
        trainer = self.trainers[name]
        if not self.memory and trainer.critic is not None:  # the arm with a critic (GAE), whatever its name
            self.memory = {
                "policy": _module_bytes(trainer.model, trainer.optimizer),
                "critic": _module_bytes(trainer.critic, trainer.critic_optimizer),
            }
        return metrics


def critic_arms(run: SideBySideRun) -> list[str]:
    """The arms of ``run`` whose advantages come from GAE with a critic: read from each arm's objective in the
    registry and its settings (``advantage == "gae"``), never from its name."""
    return [
        name
        for name, arm in run.arms.items()
        if arm.settings.get("advantage", ALGORITHMS[arm.objective].train_defaults.get("advantage")) == "gae"
    ]


def value_frame(run: SideBySideRun, arm: str = "ppo") -> pd.DataFrame:
    """Every loss token of every step of ``arm`` (a PPO arm): the critic's value against the returns.

    Returns:
        One row per token: ``step``, ``row`` (the response in its step's batch), ``group`` (its prompt's
        group in the batch, ``row // G``), ``position`` (1..L), ``length`` (L), ``reward`` (the response's
        reward R: the sum of its token rewards), ``value`` (V(s_t) before the step's critic updates), ``target`` (the GAE return
        it was trained towards), ``return_mc`` (the discounted return sum_k gamma^k r_{t+k}: what the
        response actually earned from token t on, ``gae`` at lam = 1 with V = 0), ``error``
        (``value - return_mc``). Empty (with these columns) before the first step.

    Raises:
        KeyError: no arm ``arm``.
    """
    columns = ["step", "row", "group", "position", "length", "reward", "value", "target", "return_mc", "error"]
    with run.lock:
        trainer = run.trainers[arm]
        views = list(getattr(trainer, "value_views", []))
        gamma = float(trainer.train_params.get("gamma", 1.0))
        group_size = int(trainer.config.group_size)
    parts = []
    for step, view in enumerate(views, start=1):
        if view is None:
            continue
        mask = view["mask"].double()
        _, ret = gae(view["token_rewards"].double(), torch.zeros_like(mask), mask, gamma, 1.0, whiten=False)
        real = mask > 0
        rows, pos = torch.nonzero(real, as_tuple=True)
        value = view["values"].double()[real]
        ret_mc = ret[real]
        reward = view["token_rewards"].double().sum(dim=1)  # (B,) the outcome reward, on the last token
        parts.append(
            pd.DataFrame(
                {
                    "step": step,
                    "row": rows.numpy(),
                    "group": rows.numpy() // group_size,  # the batch holds each prompt's G responses in a row
                    "position": pos.numpy() + 1,
                    "length": view["lengths"][rows].numpy().astype(int),
                    "reward": reward[rows].numpy(),
                    "value": value.numpy(),
                    "target": view["returns"].double()[real].numpy(),
                    "return_mc": ret_mc.numpy(),
                    "error": (value - ret_mc).numpy(),
                }
            )
        )
    if not parts:
        return pd.DataFrame(columns=columns)
    return pd.concat(parts, ignore_index=True)[columns]


def _rmse(x: pd.Series) -> float:
    x = pd.to_numeric(x, errors="coerce").dropna()
    return float(np.sqrt((x * x).mean())) if len(x) else math.nan


def error_by_position(values: pd.DataFrame, steps: tuple[int, int] | None = None) -> pd.DataFrame:
    """The critic's error by token position over the steps ``steps`` (first, last; ``None``: all).

    Returns:
        One row per position: ``position``, ``tokens`` (how many tokens the row averages), ``value``
        (mean V), ``return_mc`` (mean discounted return), ``bias`` (mean of V - return), ``rmse`` (root
        mean square of V - return).
    """
    d = values
    if steps is not None and not d.empty:
        d = d[(d["step"] >= steps[0]) & (d["step"] <= steps[1])]
    columns = ["position", "tokens", "value", "return_mc", "bias", "rmse"]
    if d.empty:
        return pd.DataFrame(columns=columns)
    g = d.groupby("position")
    out = pd.DataFrame(
        {
            "tokens": g.size(),
            "value": g["value"].mean(),
            "return_mc": g["return_mc"].mean(),
            "bias": g["error"].mean(),
            "rmse": g["error"].apply(_rmse),
        }
    ).reset_index()
    return out[columns]


def ends_error(values: pd.DataFrame, steps: tuple[int, int] | None = None) -> dict[str, float]:
    """The critic's RMS error at each response's first token and at its last token (over ``steps``,
    ``None``: all): ``{"first": ..., "last": ..., "tokens": responses counted}`` (NaN without a step)."""
    d = values
    if steps is not None and not d.empty:
        d = d[(d["step"] >= steps[0]) & (d["step"] <= steps[1])]
    if d.empty:
        return {"first": math.nan, "last": math.nan, "tokens": 0}
    first = d[d["position"] == 1]
    last = d[d["position"] == d["length"]]
    return {"first": _rmse(first["error"]), "last": _rmse(last["error"]), "tokens": int(len(first))}


LENGTH_BIN = 4  # tokens per bin of the by-length view (reversed addition: 4 bins; make sum: up to 10)
MIN_BIN_RESPONSES = 5  # a length bin with fewer responses is not drawn nor quoted: its mean is one or two answers
RESPONSE_COLUMNS = ["step", "row", "group", "length", "reward", "critic_first", "critic_tokens", "baseline", "excess"]


def _in_steps(d: pd.DataFrame, steps: tuple[int, int] | None) -> pd.DataFrame:
    if steps is None or d.empty:
        return d
    return d[(d["step"] >= steps[0]) & (d["step"] <= steps[1])]


def response_errors(values: pd.DataFrame) -> pd.DataFrame:
    """Per response of :func:`value_frame`: how far the critic and GRPO's group baseline are from what it earned.

    The critic's error is ``|V(s_t) - return_t|`` (the return ``sum_k gamma^k r_{t+k}``, as in
    :func:`value_frame`), at the response's first token and averaged over its tokens; the group baseline's
    is ``|mean of the group's rewards - R|``, GRPO's baseline (DeepSeekMath arXiv 2402.03300 §4.1.2, the
    numerator of its advantage) for the same response among its G siblings. With gamma = 1 and an outcome
    reward both predict the same thing from the first token: R.

    Args:
        values: :func:`value_frame` (one row per token; columns ``step``, ``row``, ``group``, ``position``,
            ``length``, ``reward``, ``error``).

    Returns:
        One row per (step, response): ``step``, ``row``, ``group``, ``length`` (L, tokens), ``reward`` (R),
        ``critic_first`` (|V(s_0) - return_0|), ``critic_tokens`` (mean over its L tokens of
        |V(s_t) - return_t|), ``baseline`` (|group mean R - R|), ``excess`` (``critic_tokens - baseline``:
        how much more the critic errs than the group baseline on this response). Empty (with these
        columns) for an empty frame.

    Raises:
        ValueError: naming ``values`` when a column is missing.
    """
    need = {"step", "row", "group", "position", "length", "reward", "error"}
    if not need <= set(values.columns):
        raise ValueError(f"values: need the columns {sorted(need)}, got {sorted(values.columns)}")
    if values.empty:
        return pd.DataFrame(columns=RESPONSE_COLUMNS)
    d = values.assign(abs_error=values["error"].astype(float).abs())
    g = d.groupby(["step", "row"], sort=True)
    out = g.agg(group=("group", "first"), length=("length", "first"), reward=("reward", "first"))
    out["critic_tokens"] = g["abs_error"].mean()
    first = d[d["position"] == 1].set_index(["step", "row"])["abs_error"]
    out["critic_first"] = first.reindex(out.index)
    out = out.reset_index()
    group_mean = out.groupby(["step", "group"])["reward"].transform("mean")
    out["baseline"] = (group_mean - out["reward"]).abs()
    out["excess"] = out["critic_tokens"] - out["baseline"]
    return out[RESPONSE_COLUMNS]


def error_by_length(
    responses: pd.DataFrame, steps: tuple[int, int] | None = None, width: int = LENGTH_BIN
) -> pd.DataFrame:
    """The critic's and the group baseline's errors binned by response length, over the steps ``steps``
    (first, last; ``None``: all).

    Args:
        responses: :func:`response_errors`.
        steps: the steps counted.
        width: tokens per bin; bin k holds lengths k*width + 1 .. (k+1)*width.

    Returns:
        One row per bin that holds a response, shortest first: ``lo``, ``hi`` (the bin's lengths, tokens),
        ``responses`` (how many), ``critic_first``, ``critic_tokens``, ``baseline``, ``reward`` (each the mean
        over the bin's responses of :func:`response_errors`' column; ``reward`` tells a bin of only wrong
        answers, where a critic with V = 0 is exactly right).

    Raises:
        ValueError: ``width`` not a whole number in [1, 1000] (naming it).
    """
    width = _whole("width", width, 1, 1000)
    columns = ["lo", "hi", "responses", "critic_first", "critic_tokens", "baseline", "reward"]
    d = _in_steps(responses, steps)
    if d.empty:
        return pd.DataFrame(columns=columns)
    k = (d["length"].astype(int) - 1) // width  # (N,) the bin of each response
    g = d.groupby(k)
    out = pd.DataFrame(
        {
            "responses": g.size(),
            "critic_first": g["critic_first"].mean(),
            "critic_tokens": g["critic_tokens"].mean(),
            "baseline": g["baseline"].mean(),
            "reward": g["reward"].mean().astype(float),
        }
    )
    out["lo"] = out.index.to_numpy() * width + 1
    out["hi"] = (out.index.to_numpy() + 1) * width
    return out.reset_index(drop=True)[columns]


def split_bins(bins: pd.DataFrame, min_responses: int | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(drawn, dropped)``: the rows of :func:`error_by_length` with at least ``min_responses`` responses
    (``None``: :data:`MIN_BIN_RESPONSES`; what the by-length figure draws and its reading quotes) and the
    others (named under the figure).

    Raises:
        ValueError: ``min_responses`` not a whole number in [1, 1000] (naming it).
    """
    min_responses = _whole("min_responses", MIN_BIN_RESPONSES if min_responses is None else min_responses, 1, 1000)
    if bins.empty:
        return bins, bins
    enough = bins["responses"].astype(int) >= min_responses
    return bins[enough].reset_index(drop=True), bins[~enough].reset_index(drop=True)


def bin_ends(drawn: pd.DataFrame) -> dict[str, float]:
    """The first and the last bin of ``drawn`` (:func:`split_bins`' first frame): ``<column>_short`` and
    ``<column>_long`` for ``lo``, ``hi``, ``responses``, ``critic_first``, ``critic_tokens``, ``baseline``,
    the very values the by-length figure plots at its two ends; ``{}`` for no bin."""
    if drawn.empty:
        return {}
    first, last = drawn.iloc[0], drawn.iloc[-1]
    columns = ("lo", "hi", "responses", "critic_first", "critic_tokens", "baseline")
    return {f"{c}_short": float(first[c]) for c in columns} | {f"{c}_long": float(last[c]) for c in columns}


def length_ends(responses: pd.DataFrame, steps: tuple[int, int] | None = None) -> dict[str, float]:
    """The errors of the shortest and the longest quarter of the responses of ``steps`` (``None``: all):
    lengths up to the lower quartile ``q1`` and from the upper quartile ``q3`` on (``np.quantile`` with
    ``method="lower"`` and ``"higher"``: lengths that occur).

    Returns:
        ``q1``, ``q3`` (tokens), ``short``, ``long`` (how many responses), and ``<column>_short`` /
        ``<column>_long`` for ``critic_first``, ``critic_tokens`` and ``baseline`` (means); NaN and 0
        without a response.
    """
    columns = ("critic_first", "critic_tokens", "baseline")
    d = _in_steps(responses, steps)
    if d.empty:
        return {"q1": math.nan, "q3": math.nan, "short": 0, "long": 0} | {
            f"{c}_{end}": math.nan for c in columns for end in ("short", "long")
        }
    length = d["length"].to_numpy(dtype=float)
    q1 = float(np.quantile(length, 0.25, method="lower"))
    q3 = float(np.quantile(length, 0.75, method="higher"))
    short, long = d[length <= q1], d[length >= q3]
    out: dict[str, float] = {"q1": q1, "q3": q3, "short": len(short), "long": len(long)}
    for c in columns:
        out[f"{c}_short"] = float(short[c].mean())
        out[f"{c}_long"] = float(long[c].mean())
    return out


def length_trend(responses: pd.DataFrame, column: str, steps: tuple[int, int] | None = None) -> dict[str, float]:
    """Whether an error grows with response length: the least-squares slope of ``column`` on ``length`` over
    the responses of ``steps`` (``None``: all), per token, and its standard error.

    Returns:
        ``{"slope": ..., "se": ..., "responses": n, "verdict": "grows" | "shrinks" | "flat" | "few"}``:
        ``grows`` when the slope is more than two standard errors above 0, ``shrinks`` more than two below,
        else ``flat``; NaN slope and ``few`` with fewer than 3 responses or a single length.

    Raises:
        ValueError: naming ``column`` when ``responses`` lacks it.
    """
    if column not in responses.columns:
        raise ValueError(f"column: not a column of the responses: {column!r}")
    d = _in_steps(responses, steps)
    d = d[np.isfinite(pd.to_numeric(d[column], errors="coerce").astype(float))] if not d.empty else d
    n = len(d)
    x = d["length"].to_numpy(dtype=float) if n else np.zeros(0)
    y = d[column].to_numpy(dtype=float) if n else np.zeros(0)
    if n < 3 or float(np.ptp(x)) == 0.0:
        return {"slope": math.nan, "se": math.nan, "responses": n, "verdict": "few"}
    xc = x - x.mean()
    slope = float((xc * (y - y.mean())).sum() / (xc * xc).sum())
    resid = y - y.mean() - slope * xc
    se = float(math.sqrt((resid * resid).sum() / (n - 2) / (xc * xc).sum()))
    verdict = "grows" if slope - 2 * se > 0 else "shrinks" if slope + 2 * se < 0 else "flat"
    return {"slope": slope, "se": se, "responses": n, "verdict": verdict}


def late_steps(run: SideBySideRun) -> tuple[int, int]:
    """The second half of the steps done so far (at least the last step): where the readings look."""
    done = max(run.progress.values()) if run.progress else 0
    return (max(1, done // 2 + 1), max(done, 1))


def live_frame(run: CriticRun) -> pd.DataFrame:
    """Per arm and step: ``reward_mean``, ``pass_at_1``, ``value_loss`` (PPO), ``critic_rmse`` (PPO: RMS of
    V - return over the step's tokens), ``cpu_seconds`` (the stepping thread's CPU time in the step,
    ``Trainer.phase_seconds``), ``critic_seconds`` (PPO: the part in the critic), ``seconds`` (wall)."""
    frame = run.metrics_frame()
    keep = ["arm", "algorithm", "step", "reward_mean", "pass_at_1", "value_loss", "seconds"]
    frame = frame[keep].copy()
    with run.lock:
        cpu = {
            (name, k + 1): float(sum(p.values()))
            for name, t in run.trainers.items()
            for k, p in enumerate(t.phase_seconds)
        }
        critic = {
            (name, k + 1): (math.nan if v is None else float(v["critic_seconds"]))
            for name, tr in run.trainers.items()
            for k, v in enumerate(getattr(tr, "value_views", []))
        }
    frame["cpu_seconds"] = [cpu.get((a, int(s)), math.nan) for a, s in zip(frame["arm"], frame["step"])]
    frame["critic_seconds"] = [critic.get((a, int(s)), math.nan) for a, s in zip(frame["arm"], frame["step"])]
    with_critic = critic_arms(run)
    values = (
        pd.concat([value_frame(run, a).assign(arm=a) for a in with_critic])
        if with_critic
        else pd.DataFrame(columns=["arm", "step", "error"])
    )
    rmse = values.groupby(["arm", "step"])["error"].apply(_rmse).to_dict() if not values.empty else {}
    frame["critic_rmse"] = [rmse.get((a, int(s)), math.nan) for a, s in zip(frame["arm"], frame["step"])]
    return frame


def cost_frame(run: CriticRun) -> pd.DataFrame:
    """What the critic costs, measured in this run: one row per quantity, ``quantity``, ``policy``
    (or GRPO's step), ``critic`` (or PPO's step), ``ratio`` (critic / policy, PPO / GRPO).

    Rows: ``parameters`` (counted), ``weights_mb`` (MB of float32 weights), ``train_mb`` (MB of weights,
    gradients and AdamW's two moments, as held after PPO's first step), ``cpu_step`` (mean CPU seconds
    of a step: GRPO's in ``policy``, PPO's in ``critic``), ``cpu_critic`` (mean CPU seconds of PPO's step
    spent in the critic, beside PPO's whole step). NaN where not measured yet.
    """
    mem = run.memory
    frame = live_frame(run)

    def mean(arm: str, col: str) -> float:
        x = pd.to_numeric(frame.loc[frame["arm"] == arm, col], errors="coerce").dropna()
        return float(x.mean()) if len(x) else math.nan

    def row(quantity: str, a: float, b: float) -> dict[str, Any]:
        return {"quantity": quantity, "policy": a, "critic": b, "ratio": b / a if a and math.isfinite(a) else math.nan}

    mb = 1024.0**2
    p, c = mem.get("policy", {}), mem.get("critic", {})

    def train_mb(m: Mapping[str, float]) -> float:
        return (m["weights"] + m["grads"] + m["optimizer"]) / mb if m else math.nan

    ppo_step = mean("ppo", "cpu_seconds")
    rows = [
        row("parameters", p.get("parameters", math.nan), c.get("parameters", math.nan)),
        row("weights_mb", p.get("weights", math.nan) / mb, c.get("weights", math.nan) / mb),
        row("train_mb", train_mb(p), train_mb(c)),
        row("cpu_step", mean("grpo", "cpu_seconds"), ppo_step),
        row("cpu_critic", ppo_step, mean("ppo", "critic_seconds")),
    ]
    return pd.DataFrame(rows, columns=["quantity", "policy", "critic", "ratio"])


def live_result(run: CriticRun) -> dict[str, Any]:
    """What the live questions read from a finished run: ``cpu_ratio`` (PPO's mean CPU seconds per step
    over GRPO's), ``rmse_first`` / ``rmse_last`` (the critic's RMS error at responses' first and last
    tokens over the run's second half, :func:`ends_error`)."""
    cost = cost_frame(run).set_index("quantity")
    ends = ends_error(value_frame(run), late_steps(run))
    return {"cpu_ratio": float(cost.loc["cpu_step", "ratio"]), "rmse_first": ends["first"], "rmse_last": ends["last"]}


def answer_cost(state: Mapping[str, Any]) -> float:
    """PPO's CPU time per step over GRPO's (the finished run's ``cpu_ratio``)."""
    value = float(state["cpu_ratio"])
    if not math.isfinite(value):
        raise ValueError("cpu_ratio: the run has not measured both arms yet")
    return value


def answer_where(state: Mapping[str, Any]) -> str:
    """``"early"`` if the critic's RMS error is larger at responses' first tokens than at their last,
    else ``"late"`` (over the run's second half)."""
    first, last = float(state["rmse_first"]), float(state["rmse_last"])
    if not (math.isfinite(first) and math.isfinite(last)):
        raise ValueError("rmse_first: the run has no critic values yet")
    return "early" if first > last else "late"


def fields_live(state: Mapping[str, Any]) -> dict[str, str]:
    return {
        "steps": str(int(state["steps"])),
        "G": str(int(state["group_size"])),
        "n": str(int(state["prompts_per_step"])),
    }


def explain_where(state: Mapping[str, Any]) -> dict[str, str]:
    return fields_live(state) | {
        "first": f"{float(state['rmse_first']):.3f}",
        "last": f"{float(state['rmse_last']):.3f}",
    }


def live_state(config: CriticLiveConfig) -> dict[str, Any]:
    """The state the live questions are asked at: the run's settings (they do not change while it goes)."""
    return dataclasses.asdict(config)


# ============================================================================================ words
def task_names(lang: str) -> dict[str, str]:
    """Task key -> its label in ``lang`` (the registry's own)."""
    return {name: spec.label[lang] for name, spec in TASKS.items()}


def critic_words(steps: int, lang: str) -> str:
    """Which critic the group view shows, in ``lang``."""
    return t("critic.critic_fresh", lang) if steps == 0 else t("critic.critic_trained", lang, steps=steps)


def exported_arms(config: CriticLiveConfig, lang: str) -> dict[str, tuple]:
    """The arms' configs for the TRL / verl export: the arm's name in ``lang`` -> ``(objective, None, None,
    TrainConfig)``."""
    return {
        t(f"critic.arm.{a.name}", lang): (a.objective, None, None, train_config(a, config.run_config()))
        for a in config.arms()
    }


def make_live_run(config: CriticLiveConfig) -> CriticRun:
    """The :class:`CriticRun` of ``config`` (loads the model)."""
    return CriticRun(config)
