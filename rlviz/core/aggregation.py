"""Loss aggregation: how per-token losses [B, T] become one scalar (verl ``loss_agg_mode``).

Legend: B responses, T padded response width; ``m`` is the response mask [B, T] and
``L_i = sum_t m[i, t]`` the length of response i.

| mode                      | formula                         | verl                      | TRL loss_type |
|---------------------------|---------------------------------|---------------------------|---------------|
| token-mean                | sum_i S_i / sum_i L_i           | token-mean (default)      | dapo / bnpo   |
| seq-mean-token-mean       | (1/B) sum_i S_i / L_i           | seq-mean-token-mean       | grpo          |
| seq-mean-token-sum        | (1/B) sum_i S_i                 | seq-mean-token-sum        | -             |
| seq-mean-token-sum-norm   | sum_i S_i / (B * norm_length)   | seq-mean-token-sum-norm*  | dr_grpo       |

with S_i = sum_t m[i, t] * loss[i, t]. (*verl omits the 1/B and uses the padded width as the
constant; rlviz follows the Dr.GRPO paper and TRL: B * norm_length, norm_length defaulting to T.)
Rows with no real token are left out of B in the seq-mean-* modes (as verl does).
"""

from __future__ import annotations

import torch

__all__ = ["LOSS_AGG_MODES", "aggregate", "masked_mean", "token_weights"]

LOSS_AGG_MODES = (
    "token-mean",
    "seq-mean-token-mean",
    "seq-mean-token-sum",
    "seq-mean-token-sum-norm",
)


def masked_mean(x: torch.Tensor, mask: torch.Tensor, dim=None) -> torch.Tensor:
    """Mean of ``x`` over entries where ``mask`` is 1; 0 where there is none.

    Junk (even NaN or inf) at masked-out entries never reaches the result or its gradient.
    Shapes: ``x`` and ``mask`` broadcastable; ``dim`` as in ``torch.sum``.
    """
    mask = mask.to(x.dtype)
    total = torch.where(mask > 0, x, torch.zeros_like(x)).sum(dim=dim)
    count = mask.sum(dim=dim)
    return total / count.clamp(min=1.0)


def token_weights(response_mask: torch.Tensor, loss_agg_mode: str, norm_length: float | None = None) -> torch.Tensor:
    """The weight each token's loss gets in the aggregate: ``loss = sum(w * per_token_loss)``.

    Args:
        response_mask: [B, T], 1 for real response tokens, 0 for padding.
        loss_agg_mode: one of ``LOSS_AGG_MODES``.
        norm_length: the constant of ``seq-mean-token-sum-norm`` (Dr.GRPO's generation budget,
            TRL ``max_completion_length``, verl ``loss_scale_factor``); ``None`` means the padded
            width T. Ignored by the other modes.

    Returns:
        w: [B, T] float, 0 at padding. Example (claim 5 of the teaching notes): one 200-token and
        one 10-token response get 1/(2*200) and 1/(2*10) per token under ``seq-mean-token-mean``
        and 1/210 each under ``token-mean``.

    Raises:
        ValueError: unknown ``loss_agg_mode``; ``norm_length`` not positive.
    """
    if loss_agg_mode not in LOSS_AGG_MODES:
        raise ValueError(f"loss_agg_mode: {loss_agg_mode!r} is not one of {', '.join(LOSS_AGG_MODES)}")
    m = (response_mask > 0).to(
        torch.get_default_dtype() if not response_mask.is_floating_point() else response_mask.dtype
    )
    lengths = m.sum(dim=-1, keepdim=True)  # (B, 1)
    n_seq = (lengths > 0).sum().clamp(min=1).to(m.dtype)  # rows with at least one real token
    if loss_agg_mode == "token-mean":
        return m / m.sum().clamp(min=1.0)
    if loss_agg_mode == "seq-mean-token-mean":
        return m / lengths.clamp(min=1.0) / n_seq
    if loss_agg_mode == "seq-mean-token-sum":
        return m / n_seq
    # seq-mean-token-sum-norm (Dr.GRPO)
    if norm_length is None:
        norm_length = float(m.shape[-1])
    norm_length = float(norm_length)
    if not norm_length > 0:
        raise ValueError(f"norm_length: must be > 0, got {norm_length}")
    return m / (n_seq * norm_length)


def aggregate(
    per_token_loss: torch.Tensor,
    response_mask: torch.Tensor,
    loss_agg_mode: str,
    norm_length: float | None = None,
) -> torch.Tensor:
    """Aggregate a per-token loss [B, T] into a scalar with ``loss_agg_mode`` (see module table).

    Padding never contributes, whatever it holds (NaN and inf included). An all-padding batch
    gives 0. Raises ``ValueError`` as :func:`token_weights`.
    """
    w = token_weights(response_mask, loss_agg_mode, norm_length).to(per_token_loss.dtype)
    safe = torch.where(w > 0, per_token_loss, torch.zeros_like(per_token_loss))
    return (w * safe).sum()
