"""Advantages: group-relative (GRPO, Dr.GRPO) and GAE (PPO).

Legend: n groups (prompts), G responses per group, B = n * G responses, T response width.
"""

from __future__ import annotations

import torch

from .validate import STAT_DTYPE, check_choice, check_flag, check_number, check_tensor

__all__ = ["ADVANTAGE_SCALES", "gae", "group_advantages"]

ADVANTAGE_SCALES = ("group", "batch", "none")


def _centred_and_std(rewards: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Each group's deviations from its mean and its unbiased std, in float64 (Bessel, n - 1).

    The group's first member is subtracted before the mean (exact for a nearly equal group, by
    Sterbenz's lemma), so the deviations of a group whose members differ by a rounding step keep
    their true signs; the std is computed on the deviations scaled by their largest magnitude, so it
    neither overflows (|R| ~ 1e200) nor underflows (a spread of 1e-200) to a wrong 0 or inf.

    Args:
        rewards: [n, G], any float dtype (read in float64), G >= 2.

    Returns:
        ``(centred [n, G], std [n, 1])``, float64; exactly 0 for a group whose members are all equal.
    """
    r = rewards.to(STAT_DTYPE)
    shifted = r - r[:, :1]  # (n, G)
    centred = shifted - shifted.mean(dim=1, keepdim=True)  # (n, G)
    equal = (r == r[:, :1]).all(dim=1, keepdim=True)  # (n, 1)
    centred = torch.where(equal, torch.zeros_like(centred), centred)
    return centred, _scaled_std(centred)


def _scaled_std(centred: torch.Tensor) -> torch.Tensor:
    """[m, k] values already centred per row -> [m, 1] their unbiased std (n - 1), computed on the
    values divided by the row's largest magnitude (no overflow or underflow in the squares)."""
    scale = centred.abs().amax(dim=1, keepdim=True)  # (m, 1)
    safe = torch.where(scale > 0, scale, torch.ones_like(scale))
    unit = centred / safe  # (m, k) in [-1, 1]
    return safe * ((unit * unit).sum(dim=1, keepdim=True) / (centred.shape[1] - 1)).sqrt()


def group_advantages(rewards: torch.Tensor, scale: str = "group", eps: float = 1e-6) -> torch.Tensor:
    """Group-relative advantages, one per response (GRPO, DeepSeekMath arXiv 2402.03300 §4.1.2).

    ``A = (R - group mean) / (std + eps)``, std unbiased (Bessel, n-1), as verl, TRL and SkyRL.
    The statistics are computed in float64 (see :func:`_centred_and_std`) and the advantages returned
    in the dtype of ``rewards``: a float32 mean of seven rewards of 0.35 and one a float32 step above
    rounds below 0.35 and would give all eight a positive advantage.

    Args:
        rewards: [n, G] scalar rewards, groups in rows (a tensor, or a nested list of numbers).
        scale: ``"group"``: divide by the group's std (GRPO; TRL ``scale_rewards="group"``, verl
            ``norm_adv_by_std_in_grpo=True``); ``"batch"``: by the std of all rewards in the batch
            (TRL ``"batch"``); ``"none"``: no division (Dr.GRPO; TRL ``"none"``, verl ``False``).
        eps: added to the std (verl and SkyRL 1e-6; TRL 1e-4), >= 0.

    Returns:
        [n, G] advantages in the dtype of ``rewards`` (integers and bools: the default dtype). A group
        whose rewards are all equal gets exactly 0 (no signal), whatever ``eps`` (also 0); so does a
        group of size one (it has no baseline; verl instead gives R / (1 + eps)).

    Raises:
        ValueError: ``rewards`` not a 2-D tensor of numbers, with a zero dimension, with NaN / inf,
            or so large that its advantages overflow float64 or its own dtype; unknown ``scale``
            (named ``scale_rewards``); ``eps`` not a finite number >= 0.
    """
    rewards = check_tensor(rewards, "rewards")
    if rewards.dim() != 2 or rewards.shape[0] == 0 or rewards.shape[1] == 0:
        raise ValueError(f"rewards: expected shape [n_groups, G] with n_groups, G >= 1, got {tuple(rewards.shape)}")
    if not bool(torch.isfinite(rewards).all()):
        raise ValueError("rewards: contains NaN or inf")
    check_choice(scale, "scale_rewards", ADVANTAGE_SCALES)
    eps = check_number(eps, "eps", low=0.0)
    dtype = rewards.dtype
    n, g = rewards.shape
    if g == 1:
        return torch.zeros_like(rewards)
    centred, std = _centred_and_std(rewards)  # (n, G), (n, 1) float64
    if scale == "none":
        adv = centred
    else:
        if scale == "batch":
            flat = rewards.to(STAT_DTYPE).reshape(1, -1)
            shifted = flat - flat[:, :1]
            std = _scaled_std(shifted - shifted.mean())  # (1, 1)
        denom = std + eps
        # a zero-spread group (or batch) has centred == 0: exactly 0, also with eps = 0 (no 0 / 0)
        adv = torch.where(denom > 0, centred / denom, torch.zeros_like(centred))
    return _in_dtype(adv, dtype, "rewards")


def _in_dtype(adv: torch.Tensor, dtype: torch.dtype, name: str) -> torch.Tensor:
    """``adv`` (float64) cast to ``dtype``; ``ValueError`` naming ``name`` where it is not finite there."""
    if not bool(torch.isfinite(adv).all()):
        raise ValueError(f"{name}: too large in magnitude: the advantages overflow float64")
    out = adv.to(dtype)
    if not bool(torch.isfinite(out).all()):
        raise ValueError(
            f"{name}: the advantages (up to {float(adv.abs().max()):.4g}) overflow {dtype}; pass float32 rewards"
        )
    return out


def gae(
    rewards: torch.Tensor,
    values: torch.Tensor,
    response_mask: torch.Tensor,
    gamma: float = 1.0,
    lam: float = 0.95,
    whiten: bool = True,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalised advantage estimation (Schulman et al., arXiv 1506.02438 eq. 16), verl-style.

    Backwards over t: ``delta_t = r_t + gamma V_{t+1} - V_t``, ``A_t = delta_t + gamma lam A_{t+1}``
    (after the last real token V = 0). Padded positions carry the next value and advantage through.

    Args:
        rewards: [B, T] per-token rewards (the score on the last real token, KL penalties if any).
        values: [B, T] value estimates V(s_t) (detached).
        response_mask: [B, T] 1 for real tokens.
        gamma, lam: discount and GAE lambda, in [0, 1] (verl ``algorithm.gamma``, ``algorithm.lam``).
        whiten: subtract the masked mean and divide by the masked unbiased std (+1e-8), as verl.

    Returns:
        ``(advantages [B, T], returns [B, T])``; returns = un-whitened advantages + values; both 0
        at padding.

    The recursion and the whitening run in float64; both results come back in the dtype of ``values``.

    Raises:
        ValueError: naming the parameter: not a tensor of numbers, shapes differ, ``gamma`` or ``lam``
            not a number in [0, 1], ``whiten`` not a bool, NaN / inf at real tokens.
    """
    rewards = check_tensor(rewards, "rewards")
    values = check_tensor(values, "values")
    response_mask = check_tensor(response_mask, "response_mask", floating=False)
    if rewards.shape != values.shape or rewards.shape != response_mask.shape or rewards.dim() != 2:
        raise ValueError(
            f"rewards: shapes of rewards, values, response_mask must all be [B, T]; got "
            f"{tuple(rewards.shape)}, {tuple(values.shape)}, {tuple(response_mask.shape)}"
        )
    gamma = check_number(gamma, "gamma", low=0.0, high=1.0)
    lam = check_number(lam, "lam", low=0.0, high=1.0)
    whiten = check_flag(whiten, "whiten")
    dtype = values.dtype
    real = response_mask > 0
    m = real.to(STAT_DTYPE)
    for label, x in (("rewards", rewards), ("values", values)):
        if not bool(torch.isfinite(x[real]).all()):
            raise ValueError(f"{label}: contains NaN or inf at response tokens")
    zero = torch.zeros((), dtype=STAT_DTYPE, device=values.device)
    r = torch.where(real, rewards.to(STAT_DTYPE), zero)
    v = torch.where(real, values.to(STAT_DTYPE), zero)
    B, T = r.shape
    next_value = torch.zeros(B, dtype=v.dtype, device=v.device)
    last_adv = torch.zeros(B, dtype=v.dtype, device=v.device)
    adv = torch.zeros_like(v)
    for t in reversed(range(T)):
        delta = r[:, t] + gamma * next_value - v[:, t]
        a_t = delta + gamma * lam * last_adv
        # padding: carry through unchanged
        next_value = m[:, t] * v[:, t] + (1 - m[:, t]) * next_value
        last_adv = m[:, t] * a_t + (1 - m[:, t]) * last_adv
        adv[:, t] = last_adv
    returns = (adv + v) * m
    adv = adv * m
    if not bool(torch.isfinite(returns).all()):
        raise ValueError("rewards: too large in magnitude: the returns overflow float64")
    if whiten and int(real.sum()) > 1:
        mean = adv[real].mean()
        var = adv[real].var(unbiased=True)
        adv = (adv - mean) * torch.rsqrt(var + 1e-8) * m
    adv, returns = adv.to(dtype), returns.to(dtype)
    if not bool(torch.isfinite(returns).all()):
        raise ValueError(f"rewards: the returns overflow {dtype}; pass float32 rewards and values")
    return adv, returns
