"""Answer functions of the interview bank's critic and GAE questions (``rlviz/teach/bank/critic.toml``).

Each function turns the question's arguments (plain numbers and lists from the data file) into float64
tensors and calls the code that trains: ``rlviz.core.advantages.gae`` (verl's
``compute_gae_advantage_return``), and for the critic's size the critic ``rlviz.lm.trainer.Trainer`` builds
for PPO on the shipped tiny LM (loaded once per process, with ``transformers``: a few seconds the first
time). Bad arguments raise ``ValueError`` naming the parameter.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import torch

from rlviz.core.advantages import gae
from rlviz.teach.answers import answer

_F64 = torch.float64
ZERO = 1e-12  # |advantage| below this is float rounding of an exact zero
MB = 1024.0**2


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name}: must be a finite number, got {value!r}")
    return float(value)


def _row(name: str, values: Any) -> torch.Tensor:
    """A non-empty list of finite numbers as a [1, N] float64 tensor."""
    if not isinstance(values, (list, tuple)) or not values:
        raise ValueError(f"{name}: must be a non-empty list of numbers, got {values!r}")
    return torch.tensor([[_number(name, v) for v in values]], dtype=_F64)


def _index(name: str, value: Any, size: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < size:
        raise ValueError(f"{name}: must be a whole number in [0, {size - 1}], got {value!r}")
    return value


def _gae(rewards, values, gamma, lam, whiten: bool = False) -> torch.Tensor:
    r, v = _row("rewards", rewards), _row("values", values)
    if r.shape != v.shape:
        raise ValueError(f"values: expected {r.shape[1]} values (one per token), got {v.shape[1]}")
    adv, _ = gae(r, v, torch.ones_like(r), _number("gamma", gamma), _number("lam", lam), whiten=whiten)
    return adv[0]


@answer("cr_td_credit")
def cr_td_credit(rewards, values, gamma: float = 1.0, lam: float = 0.0) -> str:
    """Which tokens of one trajectory get a non-zero GAE advantage (``gae``, before whitening): ``"last"``
    when only the last one does, else ``"more"``. With V = 0 and the reward on the last token, lam = 0 gives
    "last" (every earlier TD error is 0 + gamma 0 - 0)."""
    adv = _gae(rewards, values, gamma, lam)
    return "more" if bool((adv[:-1].abs() > ZERO).any()) else "last"


@answer("cr_credit_weight")
def cr_credit_weight(k: int, gamma: float, lam: float) -> float:
    """The weight GAE gives a TD error ``k`` tokens ahead in A_0: ``gae`` on a trajectory whose only TD error
    is 1 at token k (reward 1 there, V = 0 everywhere), so A_0 = (gamma lam)^k. Schulman et al. arXiv
    1506.02438 eq. 16."""
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 10_000:
        raise ValueError(f"k: must be a whole number in [0, 10000], got {k!r}")
    rewards = [0.0] * (k + 1)
    rewards[k] = 1.0
    return float(_gae(rewards, [0.0] * (k + 1), gamma, lam)[0])


@answer("cr_value_moves_first")
def cr_value_moves_first(rewards, values, t: int, shift: float, gamma: float = 1.0, lam: float = 1.0) -> str:
    """Whether raising V(s_t) by ``shift`` changes the first token's advantage (``gae``, before whitening):
    ``"yes"`` or ``"no"``. At lam = 1 the later values telescope away: "no" for every t >= 1."""
    base = _gae(rewards, values, gamma, lam)
    moved = list(values)
    i = _index("t", t, len(moved))
    moved[i] = _number("values", moved[i]) + _number("shift", shift)
    return "yes" if abs(float(_gae(rewards, moved, gamma, lam)[0] - base[0])) > ZERO else "no"


@answer("cr_whitened")
def cr_whitened(rewards, values, t: int = 0, gamma: float = 1.0, lam: float = 1.0) -> float:
    """Token ``t``'s GAE advantage after verl's whitening over the trajectory's tokens (``gae`` with
    ``whiten=True``: minus the mean, over sqrt(unbiased variance + 1e-8))."""
    adv = _gae(rewards, values, gamma, lam, whiten=True)
    return float(adv[_index("t", t, adv.numel())])


@functools.lru_cache(maxsize=1)
def _shipped_sizes() -> dict[str, float]:
    """The shipped tiny LM's policy and the critic PPO's trainer builds for it: parameters, hidden size,
    bytes of the critic's float32 weights."""
    from rlviz.lm.model import load_policy
    from rlviz.lm.trainer import TrainConfig, Trainer

    model, tokenizer = load_policy(device="cpu")
    trainer = Trainer(TrainConfig(algorithm="ppo", measure_kl_ref=False), model, tokenizer)
    critic = list(trainer.critic.parameters())
    return {
        "policy": float(sum(p.numel() for p in model.parameters())),
        "critic": float(sum(p.numel() for p in critic)),
        "hidden": float(model.config.hidden_size),
        "critic_bytes": float(sum(p.numel() * p.element_size() for p in critic)),
    }


@answer("cr_shipped_size")
def cr_shipped_size(what: str) -> float:
    """A size of the shipped tiny LM and its PPO critic, counted from the modules: ``"policy"`` or
    ``"critic"`` (parameters), ``"hidden"`` (the hidden size), ``"critic_train_mb"`` (MB the critic's
    training holds in float32 with AdamW: its weights, their gradients and AdamW's two moments, 4 x the
    weights' bytes)."""
    sizes = _shipped_sizes()
    if what == "critic_train_mb":
        return 4 * sizes["critic_bytes"] / MB
    if what not in ("policy", "critic", "hidden"):
        raise ValueError(f"what: {what!r} is not one of policy, critic, hidden, critic_train_mb")
    return sizes[what]
