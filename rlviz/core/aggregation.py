"""Loss aggregation: how per-token losses [B, T] become one scalar (verl ``loss_agg_mode``).

Legend: B responses, T padded response width; ``m`` is the response mask [B, T] and
``L_i = sum_t m[i, t]`` the length of response i.

| mode                      | formula                         | verl                      | TRL loss_type |
|---------------------------|---------------------------------|---------------------------|---------------|
| token-mean                | sum_i S_i / sum_i L_i           | token-mean (default)      | dapo / bnpo   |
| seq-mean-token-mean       | (1/B) sum_i S_i / L_i           | seq-mean-token-mean       | grpo          |
| seq-mean-token-sum        | (1/B) sum_i S_i                 | seq-mean-token-sum        | -             |
| seq-mean-token-sum-norm   | sum_i S_i / (B * norm_length)   | seq-mean-token-sum-norm*  | dr_grpo       |
| token-sum                 | sum_i S_i                       | token-sum**               | -             |

with S_i = sum_t m[i, t] * loss[i, t]. (*verl omits the 1/B and uses the padded width as the
constant; rlviz follows the Dr.GRPO paper and TRL: B * norm_length, norm_length defaulting to T.
**verl multiplies each data-parallel rank's token sum by the number of ranks, so that DDP's mean of
the ranks' gradients is the sum over the global batch: on one process, the sum itself.)
Rows with no real token are left out of B in the seq-mean-* modes (as verl does).

Each mode is one :class:`AggregationSpec` of :data:`AGGREGATIONS` (its weight rule, its formula in
TeX, its TRL ``loss_type`` names, its source): :func:`token_weights`, the framework names, the
formula and weighting pages and their charts read it, so a mode added there shows everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from .validate import check_choice, check_number, check_tensor, compute_dtype

__all__ = ["AGGREGATIONS", "AggregationSpec", "LOSS_AGG_MODES", "aggregate", "masked_mean", "token_weights"]


@dataclass(frozen=True)
class AggregationSpec:
    """One aggregation mode (verl ``loss_agg_mode``): how each token's loss is weighted.

    Attributes:
        name: the mode, verl's own ``loss_agg_mode`` value.
        formula: the aggregate in plain text (``S_i`` a response's token sum, ``L_i`` its length).
        tex: the weight of one token, ``w_{i,t}=...``, in LaTeX (the formula and weighting pages).
        numbers: ``(N, G, L_i, L_max) -> str``, the denominator of that weight with a batch's numbers
            in LaTeX (N real tokens, G responses, this response's length, the constant length).
        trl: the TRL ``GRPOConfig.loss_type`` values that aggregate this way, the one an export
            writes first; ``()`` where TRL has none.
        source: where the mode is defined (paper or framework file).
        pattern: the bar pattern of the mode on the weighting charts (the cue after its colour).
        weight: ``(m [B, T], lengths [B, 1], n_seq, norm_length) -> w [B, T]``: the token weights,
            0 at padding (``n_seq``: rows with a real token; ``norm_length``: the checked constant
            of a mode that reads it, else ``None``).
        reads_norm_length: the weight reads ``norm_length`` (Dr.GRPO's constant).
    """

    name: str
    formula: str
    tex: str
    numbers: Callable[[int, int, int, str], str] = field(repr=False)
    trl: tuple[str, ...]
    source: str
    pattern: str
    weight: Callable[..., torch.Tensor] = field(repr=False)
    reads_norm_length: bool = False


_AGG = "verl verl/trainer/ppo/core_algos.py agg_loss"
_SPECS = (
    AggregationSpec(
        "token-mean",
        "sum_i S_i / sum_i L_i",
        r"w_{i,t}=\frac{1}{\sum_j|y_j|}",
        lambda N, G, L, Lmax: str(N),
        ("dapo", "bnpo", "cispo"),
        f"DAPO arXiv 2503.14476 eq. 8; {_AGG} (the default)",
        "",
        lambda m, lengths, n_seq, norm: m / m.sum().clamp(min=1.0),
    ),
    AggregationSpec(
        "seq-mean-token-mean",
        "(1/B) sum_i S_i / L_i",
        r"w_{i,t}=\frac{1}{B\,|y_i|}",
        lambda N, G, L, Lmax: rf"{G}\cdot{L}",
        ("grpo", "sapo"),
        f"DeepSeekMath arXiv 2402.03300 eq. 3; {_AGG}",
        "/",
        lambda m, lengths, n_seq, norm: m / lengths.clamp(min=1.0) / n_seq,
    ),
    AggregationSpec(
        "seq-mean-token-sum",
        "(1/B) sum_i S_i",
        r"w_{i,t}=\frac{1}{B}",
        lambda N, G, L, Lmax: str(G),
        (),
        _AGG,
        "x",
        lambda m, lengths, n_seq, norm: m / n_seq,
    ),
    AggregationSpec(
        "seq-mean-token-sum-norm",
        "sum_i S_i / (B * norm_length)",
        r"w_{i,t}=\frac{1}{B\,L_\text{max}}",
        lambda N, G, L, Lmax: rf"{G}\cdot{Lmax}",
        ("dr_grpo",),
        f"Dr.GRPO arXiv 2503.20783 §3.1; TRL loss_type='dr_grpo'; {_AGG}",
        ".",
        lambda m, lengths, n_seq, norm: m / (n_seq * norm),
        reads_norm_length=True,
    ),
    AggregationSpec(
        "token-sum",
        "sum_i S_i",
        r"w_{i,t}=1",
        lambda N, G, L, Lmax: "1",
        (),
        f"{_AGG} (loss_agg_mode='token-sum', verl-project/verl PR #7197; verl 0.9.1): each rank's token sum "
        "times the data-parallel size, so DDP's mean of gradients is the global batch's sum",
        "-",
        lambda m, lengths, n_seq, norm: m.clone(),
    ),
)
AGGREGATIONS: dict[str, AggregationSpec] = {spec.name: spec for spec in _SPECS}
LOSS_AGG_MODES: tuple[str, ...] = tuple(AGGREGATIONS)


def _dim(dim):
    if dim is None or (isinstance(dim, int) and not isinstance(dim, bool)):
        return dim
    if isinstance(dim, (tuple, list)) and all(isinstance(d, int) and not isinstance(d, bool) for d in dim):
        return tuple(dim)
    raise ValueError(f"dim: expected None, an int or a tuple of ints, got {dim!r:.60}")


def masked_mean(x: torch.Tensor, mask: torch.Tensor, dim=None) -> torch.Tensor:
    """Mean of ``x`` over entries where ``mask`` is 1 (> 0); 0 where there is none.

    Junk (even NaN or inf) at masked-out entries never reaches the result or its gradient.
    Shapes: ``x`` and ``mask`` broadcastable; ``dim`` as in ``torch.sum``. Computed and returned in
    the dtype of ``x``, at least float32 (a float16 sum overflows at 65504).

    Raises:
        ValueError: ``x`` / ``mask`` not tensors of numbers or not broadcastable; ``dim`` not
            None, an int or a tuple of ints, or out of range; NaN / inf in ``x`` where ``mask`` is 1,
            or a sum that overflows.
    """
    x = check_tensor(x, "x")
    mask = check_tensor(mask, "mask", floating=False)
    dim = _dim(dim)
    dtype = compute_dtype(x)
    x, mask = x.to(dtype), mask.to(dtype)
    try:
        total = torch.where(mask > 0, x, torch.zeros_like(x)).sum(dim=dim)
        count = mask.sum(dim=dim)
    except (RuntimeError, IndexError) as err:
        raise ValueError(f"mask: shape {tuple(mask.shape)} or dim {dim!r} does not fit x: {err}") from None
    out = total / count.clamp(min=1.0)
    if not bool(torch.isfinite(out.detach()).all()):
        raise ValueError(f"x: NaN or inf at a masked-in entry, or a sum that overflows {dtype}")
    return out


def token_weights(response_mask: torch.Tensor, loss_agg_mode: str, norm_length: float | None = None) -> torch.Tensor:
    """The weight each token's loss gets in the aggregate: ``loss = sum(w * per_token_loss)``.

    Args:
        response_mask: [B, T], 1 for real response tokens, 0 for padding.
        loss_agg_mode: one of ``LOSS_AGG_MODES``.
        norm_length: the constant of ``seq-mean-token-sum-norm`` (Dr.GRPO's generation budget,
            TRL ``max_completion_length``, verl ``loss_scale_factor``); ``None`` means the padded
            width T. Ignored by the other modes.

    Returns:
        w: [B, T] float (the mask's float dtype, at least float32; the default dtype for an integer
        or bool mask), 0 at padding. Example (claim 5 of the teaching notes): one 200-token and
        one 10-token response get 1/(2*200) and 1/(2*10) per token under ``seq-mean-token-mean``
        and 1/210 each under ``token-mean``.

    Raises:
        ValueError: ``response_mask`` not a tensor of numbers with at least one dimension; unknown ``loss_agg_mode``;
            ``norm_length`` not a finite number > 0, or so small that the weights overflow.
    """
    check_choice(loss_agg_mode, "loss_agg_mode", LOSS_AGG_MODES)
    response_mask = check_tensor(response_mask, "response_mask", floating=False)
    if response_mask.dim() == 0:
        raise ValueError("response_mask: expected shape [B, T], got a scalar")
    dtype = compute_dtype(response_mask) if response_mask.is_floating_point() else torch.get_default_dtype()
    m = (response_mask > 0).to(dtype)
    lengths = m.sum(dim=-1, keepdim=True)  # (B, 1)
    n_seq = (lengths > 0).sum().clamp(min=1).to(m.dtype)  # rows with at least one real token
    spec = AGGREGATIONS[loss_agg_mode]
    if not spec.reads_norm_length:
        return spec.weight(m, lengths, n_seq, None)
    norm_length = check_number(norm_length, "norm_length", low=0.0, low_open=True, optional=True)
    if norm_length is None:
        norm_length = float(max(m.shape[-1], 1))
    w = spec.weight(m, lengths, n_seq, norm_length)
    if not bool(torch.isfinite(w).all()):
        raise ValueError(f"norm_length: {norm_length:g} is so small that the token weights overflow {w.dtype}")
    return w


def aggregate(
    per_token_loss: torch.Tensor,
    response_mask: torch.Tensor,
    loss_agg_mode: str,
    norm_length: float | None = None,
) -> torch.Tensor:
    """Aggregate a per-token loss [B, T] into a scalar with ``loss_agg_mode`` (see module table).

    Padding never contributes, whatever it holds (NaN and inf included). An all-padding batch
    gives 0. Computed and returned in the dtype of ``per_token_loss``, at least float32 (a float16
    sum overflows at 65504).

    Raises:
        ValueError: as :func:`token_weights`; ``per_token_loss`` not a tensor of numbers, of another
            shape than ``response_mask``, NaN / inf at a real token, or so large that the aggregate
            overflows.
    """
    per_token_loss = check_tensor(per_token_loss, "per_token_loss")
    w = token_weights(response_mask, loss_agg_mode, norm_length)
    if per_token_loss.shape != w.shape:
        raise ValueError(
            f"per_token_loss: shape {tuple(per_token_loss.shape)} differs from response_mask {tuple(w.shape)}"
        )
    dtype = compute_dtype(per_token_loss)
    w = w.to(dtype)
    real = check_tensor(response_mask, "response_mask", floating=False) > 0
    if not bool(torch.isfinite(per_token_loss.detach()[real]).all()):
        raise ValueError("per_token_loss: contains NaN or inf at response tokens")
    safe = torch.where(real, per_token_loss.to(dtype), torch.zeros((), dtype=dtype, device=w.device))
    loss = (w * safe).sum()
    if not bool(torch.isfinite(loss.detach())):
        raise ValueError(f"per_token_loss: the aggregate overflows {dtype}; scale the loss down")
    return loss
