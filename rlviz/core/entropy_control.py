"""Adaptive entropy control (Skywork-OR1): the entropy coefficient follows a target entropy.

Skywork Open Reasoner 1 (He et al. 2025, arXiv 2505.22312, the section "adaptive entropy control")
keeps the policy's entropy near a target ``H_tgt`` instead of fixing the entropy bonus's weight: after
every step k the coefficient moves by ``delta``, up while the batch's entropy ``e_k`` is below the
target and down otherwise, is clipped to ``[coef_min, coef_max]``, and the bonus
``-alpha * H`` enters the next step's loss only while ``e_k`` is below the target.

The rule here is the one of the authors' released code (SkyworkAI/Skywork-OR1, a verl fork):
``EntController.update`` in ``verl/trainer/ppo/core_algos.py`` (called once per step by
``RayPPOTrainer.fit`` in ``verl/trainer/ppo/ray_trainer.py`` with ``metrics["actor/entropy_loss"]``, which
``DataParallelPPOActor.get_entropy_metric`` in ``verl/workers/actor/dp_actor.py`` computes as
``-masked_mean(old_log_probs, response_mask)`` over the step's batch before the update):

* strict comparison: ``e_k < H_tgt`` raises the coefficient and switches the bonus on; ``e_k == H_tgt``
  lowers it and switches it off;
* the clip comes after the move (``np.clip(value, min_ent_coef, max_ent_coef)``);
* the controller starts at ``alpha_0 = actor.entropy_coeff`` with the bonus switched on (its
  ``entropy_loss_enabled = 1``), so step 1 uses ``alpha_0`` whatever its entropy;
* the update after step k sets the coefficient and the switch that step k + 1 uses.

Config keys (authors' ``actor.adaptive_entropy.*`` in ``verl/trainer/config/ppo_trainer.yaml``): ``enabled``,
``target_entropy`` (yaml default 0), ``delta_ent_coef`` (0.001), ``max_ent_coef`` (0.5), ``min_ent_coef``
(0); their released training scripts (``or1_scripts/train/*.sh``) use target 0.2, delta 1e-4, max 0.005,
min 0, ``entropy_coeff`` 0. TRL's ``GRPOConfig`` (1.16) has the same controller under
``use_adaptive_entropy`` / ``entropy_target`` (default 0.2) / ``entropy_coef_delta`` (0.005) /
``entropy_coef_min`` (0) / ``entropy_coef_max`` (1.0), with two differences: it compares with ``<=`` and
switches the bonus off until the first entropy is measured (``GRPOTrainer._compute_loss``). verl mainline
has no adaptive entropy coefficient.

The bonus itself, constant or adaptive, is :func:`entropy_bonus`: ``alpha * agg(H)`` with the policy loss's
``loss_agg_mode``, which the trainer subtracts from the policy loss (verl 0.9.1 ``ppo_loss`` in
``verl/workers/utils/losses.py``: ``policy_loss -= entropy_coeff * agg_loss(entropy, response_mask,
loss_agg_mode)``). TRL 1.16 takes the token mean whatever its ``loss_type`` (``GRPOTrainer._compute_loss``):
``entropy_bonus(..., "token-mean")``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import torch

from .aggregation import aggregate

__all__ = [
    "CONTROLLER_RULES",
    "adaptive_entropy_trajectory",
    "adaptive_entropy_update",
    "controller_run",
    "entropy_bonus",
    "validate_entropy_control",
]


def entropy_bonus(
    entropy: torch.Tensor,
    response_mask: torch.Tensor,
    coef: float,
    loss_agg_mode: str,
    norm_length: float | None = None,
) -> torch.Tensor:
    """The entropy bonus the trainer subtracts from the policy loss: ``coef * agg(H)``.

    verl 0.9.1 ``ppo_loss`` (``verl/workers/utils/losses.py``) computes ``policy_loss -= entropy_coeff *
    agg_loss(entropy, response_mask, loss_agg_mode)``, the entropy aggregated like the policy loss;
    ``rlviz.lm.trainer`` does the same with this function (``coef``: ``entropy_coef``, or the adaptive
    controller's alpha_k while its switch is on). TRL 1.16 (``GRPOTrainer._compute_loss``) always takes the
    token mean (``loss_agg_mode="token-mean"``) over the tokens it trains on. Checked against both
    frameworks' own code by ``tests/test_parity.py`` (``docs/parity.md``).

    Args:
        entropy: H, the policy's per-token entropy in nats, [B, T]; the gradient flows through it.
        response_mask: [B, T], 1 at response tokens (padding never contributes, whatever it holds).
        coef: the coefficient (>= 0, finite).
        loss_agg_mode: a :data:`rlviz.core.aggregation.LOSS_AGG_MODES` mode.
        norm_length: the constant of ``seq-mean-token-sum-norm`` (verl ``loss_scale_factor``; ``None``: T).

    Returns:
        A scalar tensor (nats, times ``coef``), in ``entropy``'s dtype (at least float32).

    Raises:
        ValueError: ``coef`` not a finite number >= 0 (named ``entropy_coef``); ``entropy`` not a tensor of
            numbers, of another shape than ``response_mask`` or NaN / inf at a response token; the mask, mode
            or ``norm_length`` as :func:`rlviz.core.aggregation.aggregate` names them.
    """
    if isinstance(coef, bool) or not isinstance(coef, (int, float)) or not math.isfinite(coef) or coef < 0:
        raise ValueError(f"entropy_coef: must be a finite number >= 0, got {coef!r:.60}")
    try:
        return coef * aggregate(entropy, response_mask, loss_agg_mode, norm_length)
    except ValueError as exc:  # aggregate names its first argument per_token_loss: here it is the entropy
        message = str(exc)
        if message.startswith("per_token_loss:"):
            raise ValueError("entropy:" + message.removeprefix("per_token_loss:")) from None
        raise


def validate_entropy_control(
    target: float | None, delta: float, coef_min: float, coef_max: float, coef0: float = 0.0, *, start: bool = True
) -> None:
    """Check the controller's settings.

    Args:
        target: the target entropy H_tgt in nats per token (``None``: no controller).
        delta: the step of the coefficient (> 0).
        coef_min, coef_max: the coefficient's bounds, 0 <= coef_min <= coef_max.
        coef0: the starting coefficient alpha_0 (>= 0; with a target and ``start``, inside
            [coef_min, coef_max]).
        start: ``coef0`` is a run's starting coefficient (``False``: a coefficient in the middle of a run,
            which the update clips into the bounds as the authors' controller does).

    Raises:
        ValueError: naming ``entropy_target``, ``entropy_coef_delta``, ``entropy_coef_min``,
            ``entropy_coef_max`` or ``entropy_coef`` when it is not a finite number in range.
    """
    for name, value in (
        ("entropy_coef_delta", delta),
        ("entropy_coef_min", coef_min),
        ("entropy_coef_max", coef_max),
        ("entropy_coef", coef0),
    ):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise ValueError(f"{name}: must be a finite number >= 0, got {value!r}")
    if delta == 0:
        raise ValueError("entropy_coef_delta: must be > 0 (0 keeps the coefficient constant)")
    if coef_max < coef_min:
        raise ValueError(f"entropy_coef_max: must be >= entropy_coef_min = {coef_min:g}, got {coef_max:g}")
    if target is not None and (
        isinstance(target, bool) or not isinstance(target, (int, float)) or not math.isfinite(target) or target < 0
    ):
        raise ValueError(f"entropy_target: must be a finite number of nats >= 0, got {target!r}")
    if start and target is not None and not coef_min <= coef0 <= coef_max:
        # the authors clip alpha into [min, max] at the first update, TRL only on the side it moves toward:
        # a start outside the bounds means two different runs, so it is refused (docs/parity.md)
        raise ValueError(
            f"entropy_coef: the starting coefficient must lie in [entropy_coef_min, entropy_coef_max] = "
            f"[{coef_min:g}, {coef_max:g}] when entropy_target is set, got {coef0:g}"
        )


def adaptive_entropy_update(
    coef: float, entropy: float, target: float, delta: float, coef_min: float = 0.0, coef_max: float = 0.5
) -> tuple[float, bool]:
    """One step of the controller: the coefficient and the switch the next step uses.

    ``alpha_{k+1} = clip(alpha_k + delta, coef_min, coef_max)`` if ``e_k < H_tgt`` else
    ``clip(alpha_k - delta, coef_min, coef_max)``; ``active_{k+1} = e_k < H_tgt`` (Skywork-OR1
    ``EntController.update``, ``verl/trainer/ppo/core_algos.py`` of SkyworkAI/Skywork-OR1).

    Args:
        coef: alpha_k, the coefficient step k used (before its gate).
        entropy: e_k, step k's entropy in nats per token (the authors: the mean of ``-log pi_old`` over
            the batch's response tokens).
        target: H_tgt in nats per token.
        delta: the coefficient's step.
        coef_min, coef_max: its bounds (defaults: the authors' yaml, 0 and 0.5).

    Returns:
        ``(alpha_{k+1}, active_{k+1})``: floats and a bool. The loss of step k + 1 subtracts
        ``alpha_{k+1} * active_{k+1} * H``.

    Raises:
        ValueError: ``entropy`` is not a finite number (a NaN would move the coefficient down silently);
            a setting out of range or of a wrong type, named as :func:`validate_entropy_control` names it
            (``coef`` as ``entropy_coef``; a missing ``target`` as ``entropy_target``).
    """
    if isinstance(entropy, bool) or not isinstance(entropy, (int, float)) or not math.isfinite(entropy):
        raise ValueError(f"entropy: must be a finite number of nats, got {entropy!r:.60}")
    if target is None:
        raise ValueError("entropy_target: the controller needs a target (nats per token), got None")
    validate_entropy_control(target, delta, coef_min, coef_max, coef, start=False)
    below = entropy < target
    coef = coef + delta if below else coef - delta
    return min(max(coef, coef_min), coef_max), below


def adaptive_entropy_trajectory(
    entropies: Iterable[float],
    target: float,
    delta: float,
    coef0: float = 0.0,
    coef_min: float = 0.0,
    coef_max: float = 0.5,
) -> list[tuple[float, bool]]:
    """The controller's state after each step of an entropy sequence.

    Args:
        entropies: e_1..e_n in nats per token.
        target, delta, coef_min, coef_max: as :func:`adaptive_entropy_update`.
        coef0: alpha_0 (the authors: ``actor.entropy_coeff``); step 1 uses it with the bonus on.

    Returns:
        n pairs ``(alpha_k, active_k)``, the state after step k's update (what step k + 1 uses).

    Raises:
        ValueError: from :func:`validate_entropy_control` and :func:`adaptive_entropy_update`.
    """
    validate_entropy_control(target, delta, coef_min, coef_max, coef0)
    out, coef = [], float(coef0)
    try:
        values = [float(e) for e in entropies]
    except (TypeError, ValueError, RuntimeError):  # RuntimeError: torch's complex or overflowing values
        raise ValueError(f"entropies: must be numbers (nats per token), got {entropies!r:.60}") from None
    for e in values:
        coef, active = adaptive_entropy_update(coef, e, target, delta, coef_min, coef_max)
        out.append((coef, active))
    return out


# Skywork-OR1's released controller (the trainer's), and TRL 1.16's ``use_adaptive_entropy`` (docs/parity.md)
CONTROLLER_RULES = ("authors", "trl")


def controller_run(
    entropies: Iterable[float],
    target: float,
    delta: float,
    coef0: float = 0.0,
    coef_min: float = 0.0,
    coef_max: float = 0.5,
    rule: str = "authors",
) -> tuple[list[tuple[float, bool]], list[float]]:
    """The controller over an entropy sequence under the authors' rule or TRL's, with the coefficient each
    step's loss applies.

    TRL 1.16's controller is the authors' with two differences and no other (checked against TRL's own code,
    ``rlviz.core.parity``): it raises the coefficient at ``e <= target`` (the authors at ``e < target``; for
    floats ``e <= t`` is ``e < nextafter(t, +inf)``), and applies no bonus before it has measured a first
    entropy (the authors start with the bonus on at alpha_0).

    Args:
        entropies: e_1..e_n in nats per token.
        target, delta, coef0, coef_min, coef_max: as :func:`adaptive_entropy_trajectory`.
        rule: one of :data:`CONTROLLER_RULES`.

    Returns:
        ``(trajectory, applied)``: the n states ``(alpha_k, active_k)`` after each step's update, and the n
        coefficients the steps' losses apply (step 1: alpha_0 for the authors, 0 for TRL; step k > 1:
        alpha_{k-1} if its switch is on, else 0).

    Raises:
        ValueError: naming ``rule``, or from :func:`adaptive_entropy_trajectory`.
    """
    if rule not in CONTROLLER_RULES:
        raise ValueError(f"rule: {rule!r} is not one of {', '.join(CONTROLLER_RULES)}")
    if rule == "trl" and isinstance(target, (int, float)) and not isinstance(target, bool):
        target = math.nextafter(float(target), math.inf)  # TRL's <=
    trajectory = adaptive_entropy_trajectory(entropies, target, delta, coef0, coef_min, coef_max)
    first = 0.0 if rule == "trl" else float(coef0)  # TRL: off until an entropy is measured
    applied = [first] + [a if on else 0.0 for a, on in trajectory[:-1]]
    return trajectory, applied
