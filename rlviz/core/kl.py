"""KL estimators between the policy and a frozen reference, per token (Schulman's k1/k2/k3).

With x = log pi(y_t) - log pi_ref(y_t) for a token sampled from pi:
    k1 = x                    unbiased, high variance, can be negative
    k2 = x^2 / 2              biased, low variance, >= 0
    k3 = exp(-x) + x - 1      unbiased, low variance, >= 0 (GRPO, DeepSeekMath eq. 4)
verl: ``kl_loss_type`` / ``kl_penalty`` = kl|k1, mse|k2, low_var_kl|k3; TRL always uses k3 (``beta``).
Shapes: inputs [B, T] (any equal shapes), output the same shape.
"""

from __future__ import annotations

import torch

__all__ = ["KL_ESTIMATORS", "kl_estimate"]

KL_ESTIMATORS = ("k1", "k2", "k3")


def kl_estimate(log_prob: torch.Tensor, ref_log_prob: torch.Tensor, estimator: str = "k3") -> torch.Tensor:
    """Per-token estimate of KL(pi || pi_ref) from log-probs of sampled tokens.

    Args:
        log_prob: [B, T] log pi(y_t), nats.
        ref_log_prob: [B, T] log pi_ref(y_t), nats.
        estimator: ``"k1"``, ``"k2"`` or ``"k3"``.

    Returns:
        [B, T] estimate in nats. x is clamped to [-20, 20] before ``exp`` and k3 to [-10, 10] (as
        verl and SkyRL do: a saturated token then has zero gradient), so one wild token cannot blow
        up the loss.

    Raises:
        ValueError: unknown ``estimator``.
    """
    if estimator not in KL_ESTIMATORS:
        raise ValueError(f"kl_estimator: {estimator!r} is not one of {', '.join(KL_ESTIMATORS)}")
    x = (log_prob - ref_log_prob).clamp(-20.0, 20.0)
    if estimator == "k1":
        return x
    if estimator == "k2":
        return 0.5 * x * x
    return (torch.exp(-x) + x - 1.0).clamp(-10.0, 10.0)
