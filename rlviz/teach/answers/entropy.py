"""Answer functions of the interview bank's entropy-regularisation questions (``rlviz/teach/bank/entropy.toml``).

Each function turns the question's arguments (plain numbers and lists from the data file) into a call of
the code the trainer itself uses (``rlviz.lm.trainer``):

* :func:`rlviz.core.entropy_control.entropy_bonus`, the constant bonus ``coef * agg(H)`` the trainer subtracts
  from the policy loss (verl ``actor.entropy_coeff``, aggregated with the policy loss's ``loss_agg_mode``);
  per-token weights and the loss's gradient come from autograd through it;
* :func:`rlviz.core.entropy_control.controller_run`, Skywork-OR1's adaptive entropy control (arXiv 2505.22312;
  the authors' ``EntController``, strict ``e < target``) or TRL 1.16's (``use_adaptive_entropy``: ``e <= target``
  and no bonus before a first entropy is measured), the function :mod:`rlviz.core.parity` checks against TRL's
  own code.

Entropies are in nats per token. The update after step k sets the coefficient and the switch step k + 1
uses; the authors' step 1 uses ``coef0`` with the bonus on. Bad arguments raise ``ValueError`` naming the
parameter. No ``transformers`` import.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from rlviz.core.entropy_control import CONTROLLER_RULES, controller_run, entropy_bonus
from rlviz.teach.answers import answer

_F64 = torch.float64
SAME_RTOL = 1e-9  # two token weights this close (relative) are the same (float rounding)


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name}: must be a finite number, got {value!r:.60}")
    return float(value)


def _batch(entropies: Any) -> tuple[torch.Tensor, torch.Tensor]:
    """``entropies``, one list of per-token entropies (nats) per response, as a right-padded [B, T] float64
    tensor (a leaf that needs its gradient) and its response mask [B, T]."""
    if not isinstance(entropies, (list, tuple)) or not entropies:
        raise ValueError(f"entropies: must be a non-empty list of responses, got {entropies!r:.60}")
    rows = []
    for row in entropies:
        if not isinstance(row, (list, tuple)) or not row:
            raise ValueError(f"entropies: every response needs at least one token's entropy, got {row!r:.60}")
        rows.append([_number("entropies", h) for h in row])
    width = max(len(r) for r in rows)
    h = torch.zeros(len(rows), width, dtype=_F64)
    mask = torch.zeros(len(rows), width, dtype=_F64)
    for i, r in enumerate(rows):
        h[i, : len(r)] = torch.tensor(r, dtype=_F64)
        mask[i, : len(r)] = 1.0
    return h.requires_grad_(True), mask


def _bonus_and_grad(entropies: Any, coef: float, mode: str) -> tuple[float, torch.Tensor]:
    """The bonus ``coef * agg(H)`` (``entropy_bonus``) and its gradient with respect to each H_t, [B, T]."""
    h, mask = _batch(entropies)
    bonus = entropy_bonus(h, mask, _number("coef", coef), mode)
    (grad,) = torch.autograd.grad(bonus, h)
    return float(bonus.detach()), grad


@answer("ent_bonus")
def ent_bonus(entropies, coef: float, mode: str) -> float:
    """The entropy bonus the trainer subtracts from the policy loss, ``coef * agg(H)`` with ``mode``
    (``entropy_bonus``; verl 0.9.1 ``ppo_loss``: ``policy_loss -= entropy_coeff * agg_loss(entropy, ...)``)."""
    return _bonus_and_grad(entropies, coef, mode)[0]


@answer("ent_token_weight")
def ent_token_weight(entropies, coef: float, mode: str, row: int = 0) -> float:
    """d bonus / d H_t of the first token of response ``row``: ``coef`` times that token's weight under
    ``mode`` (token-mean: coef / all tokens; seq-mean-token-mean: coef / (B |o_i|))."""
    grad = _bonus_and_grad(entropies, coef, mode)[1]
    if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < grad.shape[0]:
        raise ValueError(f"row: must be a whole number in [0, {grad.shape[0] - 1}], got {row!r}")
    return float(grad[row, 0])


@answer("ent_loss_gradient")
def ent_loss_gradient(entropies, coef: float, mode: str, row: int = 0) -> float:
    """d loss / d H_t of the first token of response ``row``, the loss being ``policy_loss - bonus``: minus
    :func:`ent_token_weight` (the policy loss does not depend on H)."""
    return -ent_token_weight(entropies, coef, mode, row)


@answer("ent_compare_token_weights")
def ent_compare_token_weights(entropies, coef: float, mode: str) -> str:
    """``"more"``, ``"same"`` or ``"less"``: how much one token of response 0 counts in the bonus (its
    d bonus / d H_t) against one token of response 1."""
    a = ent_token_weight(entropies, coef, mode, 0)
    b = ent_token_weight(entropies, coef, mode, 1)
    if math.isclose(a, b, rel_tol=SAME_RTOL, abs_tol=1e-15):
        return "same"
    return "more" if a > b else "less"


@answer("ent_descent_effect")
def ent_descent_effect(entropies, coef: float, mode: str) -> str:
    """What one gradient-descent step on ``policy_loss - bonus`` does to the entropies it reads, from the
    sign of d loss / d H at every response token: ``"raise"`` (every step -lr * grad is > 0), ``"lower"``
    (every one < 0) or ``"nothing"`` (coef = 0: no gradient)."""
    _, mask = _batch(entropies)
    grad = -_bonus_and_grad(entropies, coef, mode)[1][mask > 0]
    if bool((grad == 0).all()):
        return "nothing"
    if bool((grad < 0).all()):
        return "raise"
    if bool((grad > 0).all()):
        return "lower"
    raise ValueError("entropies: the tokens' gradients have mixed signs")  # not reachable with coef >= 0


def _run(
    entropies, target: float, delta: float, coef0: float, coef_min: float, coef_max: float, rule: str
) -> tuple[list[tuple[float, bool]], list[float]]:
    """``controller_run`` (the states after each step, and the coefficient each step's loss applies, with one
    more entry: the step after the sequence's)."""
    t = _number("target", target)
    if not isinstance(entropies, (list, tuple)) or not entropies:
        raise ValueError(f"entropies: must be a non-empty list of step entropies (nats), got {entropies!r:.60}")
    traj, applied = controller_run(entropies, t, delta, coef0, coef_min, coef_max, rule=rule)
    return traj, applied + [traj[-1][0] if traj[-1][1] else 0.0]


def _step(name: str, value: Any, n: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n:
        raise ValueError(f"{name}: must be a step in [1, {n}], got {value!r}")
    return value


@answer("ent_adaptive_coef")
def ent_adaptive_coef(
    entropies,
    target: float,
    delta: float,
    step: int,
    coef0: float = 0.0,
    coef_min: float = 0.0,
    coef_max: float = 0.5,
    rule: str = "authors",
) -> float:
    """alpha after the update of step ``step`` (1-based), the coefficient step ``step`` + 1 uses while its
    switch is on (``adaptive_entropy_trajectory``)."""
    traj, _ = _run(entropies, target, delta, coef0, coef_min, coef_max, rule)
    return traj[_step("step", step, len(traj)) - 1][0]


@answer("ent_applied_coef")
def ent_applied_coef(
    entropies,
    target: float,
    delta: float,
    step: int,
    coef0: float = 0.0,
    coef_min: float = 0.0,
    coef_max: float = 0.5,
    rule: str = "authors",
) -> float:
    """The coefficient the loss of step ``step`` (1-based) applies: alpha times the switch, both set by the
    update after the step before (step 1: ``coef0`` for the authors, 0 for TRL). ``step`` may be one past the
    sequence (the next step's)."""
    _, applied = _run(entropies, target, delta, coef0, coef_min, coef_max, rule)
    return applied[_step("step", step, len(applied)) - 1]


@answer("ent_bonus_steps")
def ent_bonus_steps(
    entropies,
    target: float,
    delta: float,
    coef0: float = 0.0,
    coef_min: float = 0.0,
    coef_max: float = 0.5,
    rule: str = "authors",
) -> str:
    """The steps (1-based, up to one past the sequence) whose loss applies a bonus (coefficient > 0), as
    text: ``"4, 5, 6, 7"``; ``"—"`` when none does."""
    _, applied = _run(entropies, target, delta, coef0, coef_min, coef_max, rule)
    steps = [str(k) for k, a in enumerate(applied, start=1) if a > 0]
    return ", ".join(steps) if steps else "—"


@answer("ent_peak_coef")
def ent_peak_coef(
    entropies,
    target: float,
    delta: float,
    coef0: float = 0.0,
    coef_min: float = 0.0,
    coef_max: float = 0.5,
    rule: str = "authors",
) -> float:
    """The largest alpha the controller reaches over the sequence (``coef0`` included)."""
    traj, _ = _run(entropies, target, delta, coef0, coef_min, coef_max, rule)
    return max([float(coef0)] + [a for a, _ in traj])


@answer("ent_at_target")
def ent_at_target(coef: float, target: float, delta: float, coef_min: float = 0.0, coef_max: float = 0.5) -> str:
    """Where one update moves alpha when the step's entropy equals the target exactly, under the authors' rule
    and under TRL's, as ``"<authors>_<trl>"`` with each ``"up"``, ``"down"`` or ``"same"`` (a bound): the
    authors' strict ``<`` gives ``"down"``, TRL's ``<=`` ``"up"`` (``adaptive_entropy_update``)."""
    t = _number("target", target)
    moves = []
    for rule in CONTROLLER_RULES:
        trajectory, _ = controller_run([t], t, delta, coef, coef_min, coef_max, rule=rule)
        new = trajectory[0][0]  # alpha after one update at e = target
        moves.append("same" if new == coef else ("up" if new > coef else "down"))
    return "_".join(moves)
