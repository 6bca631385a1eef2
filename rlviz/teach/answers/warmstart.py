"""Answer functions of the interview bank's "why SFT before RL" questions (``rlviz/teach/bank/warmstart.toml``).

The pass rates they start from are never typed: they are read from the card each shipped checkpoint
carries (``rlviz_card.json``, written by ``rlviz.lm.pretrain`` when it built the checkpoint: 96 held-out
prompts x 8 samples at temperature 1), for the task's supervised warm start (``start = "warm"``) and its
weak one (``"weak"``), both named by the task registry (``rlviz.lm.tasks.TaskSpec.model_dir`` /
``weak_model_dir``). Then the code that trains computes the rest: ``rlviz.core.sampling`` (the chance a
group carries a signal, dynamic sampling's fill cost), ``rlviz.core.advantages`` and
``rlviz.core.objectives`` (the gradient of an all-wrong group). Bad arguments raise ``ValueError`` naming
the parameter.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import torch

from rlviz.core.advantages import group_advantages
from rlviz.core.objectives import policy_loss
from rlviz.core.sampling import fill_cost, signal_probability
from rlviz.teach.answers import answer

_F64 = torch.float64
CARD_FIGURES = ("pass_at_1", "all_wrong", "all_correct")


@functools.lru_cache(maxsize=8)
def _card(start: str, task: str) -> dict:
    from rlviz.experiments.warmstart import start_dirs

    dirs = start_dirs(task)
    if start not in dirs:
        raise ValueError(f"start: {start!r} is not one of {', '.join(dirs)}")
    return json.loads((Path(dirs[start]) / "rlviz_card.json").read_text(encoding="utf-8"))


def _whole(name: str, value, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name}: must be a whole number >= {low}, got {value!r}")
    return value


@answer("ws_card")
def ws_card(start: str, figure: str = "pass_at_1", task: str = "reversed_addition") -> float:
    """A held-out figure of a start's checkpoint card: ``pass_at_1`` (right answers over all), ``all_wrong``
    / ``all_correct`` (share of prompts whose 8 samples are all wrong / all right), as measured by
    ``rlviz.lm.pretrain`` when it built the checkpoint."""
    if figure not in CARD_FIGURES:
        raise ValueError(f"figure: {figure!r} is not one of {', '.join(CARD_FIGURES)}")
    return float(_card(start, task)["figures"]["heldout"][figure])


@answer("ws_card_zero")
def ws_card_zero(start: str, task: str = "reversed_addition") -> float:
    """The measured share of a start's groups of 8 with all rewards equal (all wrong + all right, its card)."""
    return ws_card(start, "all_wrong", task) + ws_card(start, "all_correct", task)


@answer("ws_signal")
def ws_signal(start: str, group_size: int, task: str = "reversed_addition") -> float:
    """The chance a group of G is mixed if every prompt had the start's held-out pass@1 p (its card):
    ``1 - p^G - (1 - p)^G`` (``rlviz.core.sampling.signal_probability``; DAPO arXiv 2503.14476 §3.2)."""
    p = torch.tensor(ws_card(start, "pass_at_1", task), dtype=_F64)
    return float(signal_probability(p, _whole("group_size", group_size, 1)))


@answer("ws_uniform_zero")
def ws_uniform_zero(start: str, group_size: int, task: str = "reversed_addition") -> float:
    """1 - :func:`ws_signal`: the share of all-equal groups a uniform pass rate would give."""
    return 1.0 - ws_signal(start, group_size, task)


@answer("ws_group_size_for")
def ws_group_size_for(start: str, share: float, task: str = "reversed_addition", largest: int = 4096) -> float:
    """The smallest G whose :func:`ws_signal` reaches ``share`` at the start's pass@1.

    Raises:
        ValueError: naming ``share`` (not in (0, 1)) or ``largest`` (no G up to it reaches it)."""
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share < 1:
        raise ValueError(f"share: must be a number in (0, 1), got {share!r}")
    p = torch.tensor(ws_card(start, "pass_at_1", task), dtype=_F64)
    for G in range(1, _whole("largest", largest, 1) + 1):
        if float(signal_probability(p, G)) >= share:
            return float(G)
    raise ValueError(f"largest: no G up to {largest} reaches a share of {share}")


@answer("ws_fill_per_group")
def ws_fill_per_group(
    start: str, group_size: int, prompts: int, max_rounds: int | None = None, task: str = "reversed_addition"
) -> float:
    """Answers dynamic sampling spends per group with a signal (``fill_cost(...).rollouts_per_group``),
    rounds of ``prompts`` prompts until as many mixed groups, at most ``max_rounds`` rounds, q =
    :func:`ws_signal` (DAPO arXiv 2503.14476 §3.2; verl recipe ``filter_groups.max_num_gen_batches``)."""
    q = ws_signal(start, group_size, task)
    cost = fill_cost(q, _whole("prompts", prompts, 1), prompts, group_size, max_rounds).rollouts_per_group
    if not math.isfinite(cost):
        raise ValueError(f"max_rounds: no group with a signal expected at q = {q:g}")
    return float(cost)


@answer("ws_all_wrong_gradient")
def ws_all_wrong_gradient(group_size: int, length: int = 5, beta: float = 0.0) -> str:
    """Whether GRPO's policy loss has a gradient on a group whose G answers are all wrong: ``"zero"`` or
    ``"nonzero"``, by autograd of ``policy_loss("grpo", ...)`` at the group's advantages
    (``group_advantages`` of G zeros) with log-probs drawn from a seeded generator, on- and off-policy
    (GRPO arXiv 2402.03300 eq. 3)."""
    G, T = _whole("group_size", group_size, 2), _whole("length", length, 1)
    gen = torch.Generator().manual_seed(0)
    adv = group_advantages(torch.zeros(1, G, dtype=_F64)).reshape(G)  # (G,) all zero
    old = -torch.rand(G, T, generator=gen, dtype=_F64) - 0.1  # (G, T) log-probs of the sampled tokens
    log_prob = (old + 0.3 * torch.randn(G, T, generator=gen, dtype=_F64)).requires_grad_(True)  # moved off 1
    out = policy_loss("grpo", log_prob, old, adv, torch.ones(G, T, dtype=_F64), beta=float(beta), ref_log_prob=old)
    (grad,) = torch.autograd.grad(out.loss, log_prob)
    return "zero" if float(grad.abs().max()) == 0.0 else "nonzero"
