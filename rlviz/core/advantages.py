"""Advantages: group-relative (GRPO, Dr.GRPO) and GAE (PPO).

Legend: n groups (prompts), G responses per group, B = n * G responses, T response width.
"""

from __future__ import annotations

import torch

__all__ = ["ADVANTAGE_SCALES", "gae", "group_advantages"]

ADVANTAGE_SCALES = ("group", "batch", "none")


def group_advantages(rewards: torch.Tensor, scale: str = "group", eps: float = 1e-6) -> torch.Tensor:
    """Group-relative advantages, one per response (GRPO, DeepSeekMath arXiv 2402.03300 §4.1.2).

    ``A = (R - group mean) / (std + eps)``, std unbiased (Bessel, n-1), as verl, TRL and SkyRL.

    Args:
        rewards: [n, G] scalar rewards, groups in rows.
        scale: ``"group"``: divide by the group's std (GRPO; TRL ``scale_rewards="group"``, verl
            ``norm_adv_by_std_in_grpo=True``); ``"batch"``: by the std of all rewards in the batch
            (TRL ``"batch"``); ``"none"``: no division (Dr.GRPO; TRL ``"none"``, verl ``False``).
        eps: added to the std (verl and SkyRL 1e-6; TRL 1e-4).

    Returns:
        [n, G] advantages. A group whose rewards are all equal gets exactly 0 (no signal); so does
        a group of size one (it has no baseline; verl instead gives R / (1 + eps)).

    Raises:
        ValueError: ``rewards`` not 2-D, with a zero dimension, or with NaN / inf; unknown
            ``scale``; ``eps`` < 0.
    """
    if rewards.dim() != 2 or rewards.shape[0] == 0 or rewards.shape[1] == 0:
        raise ValueError(f"rewards: expected shape [n_groups, G] with n_groups, G >= 1, got {tuple(rewards.shape)}")
    if not bool(torch.isfinite(rewards).all()):
        raise ValueError("rewards: contains NaN or inf")
    if scale not in ADVANTAGE_SCALES:
        raise ValueError(f"scale_rewards: {scale!r} is not one of {', '.join(ADVANTAGE_SCALES)}")
    if not eps >= 0:
        raise ValueError(f"eps: must be >= 0, got {eps}")
    rewards = rewards.to(torch.get_default_dtype()) if not rewards.is_floating_point() else rewards
    n, g = rewards.shape
    if g == 1:
        return torch.zeros_like(rewards)
    centred = rewards - rewards.mean(dim=1, keepdim=True)  # (n, G)
    # An all-equal group: exactly zero, whatever rounding left in `centred`.
    equal = (rewards == rewards[:, :1]).all(dim=1, keepdim=True)  # (n, 1)
    centred = torch.where(equal, torch.zeros_like(centred), centred)
    if scale == "none":
        return centred
    if scale == "group":
        std = rewards.std(dim=1, unbiased=True, keepdim=True)  # (n, 1)
    else:
        std = rewards.reshape(-1).std(unbiased=True) if rewards.numel() > 1 else rewards.new_tensor(0.0)
    return centred / (std + eps)


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

    Raises:
        ValueError: shapes differ, ``gamma`` or ``lam`` outside [0, 1], NaN / inf at real tokens.
    """
    if rewards.shape != values.shape or rewards.shape != response_mask.shape or rewards.dim() != 2:
        raise ValueError(
            f"rewards: shapes of rewards, values, response_mask must all be [B, T]; got "
            f"{tuple(rewards.shape)}, {tuple(values.shape)}, {tuple(response_mask.shape)}"
        )
    for label, x in (("gamma", gamma), ("lam", lam)):
        if not 0.0 <= x <= 1.0:
            raise ValueError(f"{label}: must be in [0, 1], got {x}")
    real = response_mask > 0
    m = real.to(values.dtype)
    for label, x in (("rewards", rewards), ("values", values)):
        if not bool(torch.isfinite(x[real]).all()):
            raise ValueError(f"{label}: contains NaN or inf at response tokens")
    r = torch.where(real, rewards, torch.zeros_like(rewards))
    v = torch.where(real, values, torch.zeros_like(values))
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
    if whiten and int(real.sum()) > 1:
        mean = adv[real].mean()
        var = adv[real].var(unbiased=True)
        adv = (adv - mean) * torch.rsqrt(var + 1e-8) * m
    return adv, returns
