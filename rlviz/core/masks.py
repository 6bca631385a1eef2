"""Token masks that apply to any objective: which tokens the policy loss keeps.

A mask multiplies the per-token policy loss before aggregation; the aggregation's normaliser is
left as it is (TRL ``GRPOTrainer._compute_loss`` multiplies ``per_token_loss`` by the mask and then
aggregates with the completion mask), so a dropped token still counts in token-mean's denominator.
The KL term (``beta > 0``) is not masked, as in TRL.

- :func:`high_entropy_mask`: only the top-ρ share of tokens by entropy learn ("Beyond the 80/20
  rule", arXiv 2506.01939: ρ = 0.2; TRL ``top_entropy_quantile``, default 1.0 = off).
- :func:`off_policy_sequence_mask`: DeepSeek-V3.2's off-policy sequence mask (arXiv 2512.02556,
  §3.1): a response with a negative advantage whose mean per-token KL(π_sample || π_θ) exceeds δ is
  dropped (TRL ``off_policy_mask_threshold``, default None = off).

Shapes: B responses, T padded response width.
"""

from __future__ import annotations

import torch

from .validate import check_number, check_tensor

__all__ = ["high_entropy_mask", "off_policy_sequence_mask", "sequence_kl"]


def _check_real(label: str, x: torch.Tensor, real: torch.Tensor) -> None:
    if not bool(torch.isfinite(x.detach()[real]).all()):
        raise ValueError(f"{label}: contains NaN or inf at response tokens")


def high_entropy_mask(entropy: torch.Tensor, response_mask: torch.Tensor, top_quantile: float) -> torch.Tensor:
    """Keep the tokens whose entropy is in the top ``top_quantile`` share of the batch's response tokens.

    The threshold is the ``1 - top_quantile`` quantile (``torch.quantile``, linear interpolation)
    of the entropies of every real token in the batch; a token is kept when its entropy is at least
    the threshold (ties at the threshold are kept). ``top_quantile = 1`` keeps every real token.

    Args:
        entropy: [B, T] per-token entropy of the current policy (nats, >= 0); padding may hold junk.
        response_mask: [B, T], 1 for real response tokens, 0 for padding.
        top_quantile: ρ in (0, 1], the share of tokens kept (TRL ``top_entropy_quantile``).

    Returns:
        [B, T] bool, False at padding.

    Raises:
        ValueError: ``top_quantile`` not a number in (0, 1]; an input not a tensor of numbers; shapes
            differ; NaN / inf entropy at a response token.

    Source: Wang et al., "Beyond the 80/20 Rule", arXiv 2506.01939 (§4, ρ = 20%); TRL
    ``GRPOTrainer.get_high_entropy_mask`` (quantile over every real token of the batch, >=).
    """
    top_quantile = check_number(top_quantile, "top_quantile", low=0.0, high=1.0, low_open=True)
    entropy = check_tensor(entropy, "entropy")
    response_mask = check_tensor(response_mask, "response_mask", floating=False)
    if entropy.shape != response_mask.shape:
        raise ValueError(
            f"entropy: shape {tuple(entropy.shape)} differs from response_mask {tuple(response_mask.shape)}"
        )
    real = response_mask > 0
    _check_real("entropy", entropy, real)
    values = entropy.detach()[real].double()
    if values.numel() == 0:
        return torch.zeros_like(real)
    if top_quantile >= 1:
        return real.clone()
    threshold = torch.quantile(values, 1.0 - float(top_quantile))
    return (entropy.detach().double() >= threshold) & real


def sequence_kl(log_prob: torch.Tensor, sampling_log_prob: torch.Tensor, response_mask: torch.Tensor) -> torch.Tensor:
    """Each response's mean per-token estimate of KL(π_sample || π_θ): mean over its real tokens of
    ``log π_sample - log π_θ`` (nats per token). [B, T] inputs -> [B] (0 for a response with no
    real token), float64. ``log_prob`` is detached. Padding may hold junk (NaN included). Raises
    ``ValueError`` naming the input that is not a 2-D tensor of numbers, of another shape, or NaN / inf
    at a response token. Source: DeepSeek-V3.2, arXiv 2512.02556 §3.1."""
    log_prob = check_tensor(log_prob, "log_prob")
    sampling_log_prob = check_tensor(sampling_log_prob, "sampling_log_prob")
    response_mask = check_tensor(response_mask, "response_mask", floating=False)
    if log_prob.dim() != 2:
        raise ValueError(f"log_prob: expected shape [B, T], got {tuple(log_prob.shape)}")
    if log_prob.shape != sampling_log_prob.shape or log_prob.shape != response_mask.shape:
        raise ValueError(
            f"sampling_log_prob: shapes differ: log_prob {tuple(log_prob.shape)}, sampling_log_prob "
            f"{tuple(sampling_log_prob.shape)}, response_mask {tuple(response_mask.shape)}"
        )
    real = response_mask > 0
    _check_real("log_prob", log_prob, real)
    _check_real("sampling_log_prob", sampling_log_prob, real)
    zero = torch.zeros((), dtype=torch.float64, device=log_prob.device)
    diff = torch.where(real, sampling_log_prob.detach().double() - log_prob.detach().double(), zero)
    return diff.sum(-1) / real.sum(-1).clamp(min=1).double()


def off_policy_sequence_mask(
    advantages: torch.Tensor,
    log_prob: torch.Tensor,
    sampling_log_prob: torch.Tensor,
    response_mask: torch.Tensor,
    threshold: float,
) -> torch.Tensor:
    """DeepSeek-V3.2's off-policy sequence mask: drop a response whose advantage is negative and
    whose mean per-token KL(π_sample || π_θ) (:func:`sequence_kl`) exceeds ``threshold`` = δ.

    A response that did well (A >= 0) is always kept: only negative samples that the current
    policy has drifted far from are dropped, the ones whose push is most likely harmful.

    Args:
        advantages: [B] or [B, T] (per token; a token is dropped when its own advantage is < 0).
        log_prob: [B, T] log π_θ of the sampled tokens (nats; detached here).
        sampling_log_prob: [B, T] log-probs of the policy that sampled them (the rollout log-prob;
            rlviz's trainer samples with its own policy, so the old log-prob).
        response_mask: [B, T], 1 for real response tokens.
        threshold: δ >= 0 in nats per token (TRL ``off_policy_mask_threshold``).

    Returns:
        [B, T] bool: True = kept; False at padding.

    Raises:
        ValueError: ``threshold`` not a finite number >= 0; an input not a tensor of numbers; shapes
            differ; NaN / inf at a response token.

    Source: DeepSeek-AI, DeepSeek-V3.2, arXiv 2512.02556, §3.1 ("Off-Policy Sequence Masking");
    TRL ``GRPOTrainer.get_off_policy_mask`` (keep if A >= 0 or mean KL <= δ).
    """
    threshold = check_number(threshold, "threshold", low=0.0)
    advantages = check_tensor(advantages, "advantages")
    log_prob = check_tensor(log_prob, "log_prob")
    if advantages.shape not in (log_prob.shape[:1], log_prob.shape):
        raise ValueError(f"advantages: expected [B] or [B, T] = {tuple(log_prob.shape)}, got {tuple(advantages.shape)}")
    kl = sequence_kl(log_prob, sampling_log_prob, response_mask)  # [B]
    real = response_mask > 0
    adv = advantages[:, None].expand_as(log_prob) if advantages.dim() == 1 else advantages
    _check_real("advantages", adv, real)
    keep = (adv.detach() >= 0) | (kl[:, None] <= threshold)
    return keep & real
