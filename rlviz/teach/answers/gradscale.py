"""Answer functions of the interview bank's gradient-scale questions (``rlviz/teach/bank/gradscale.toml``).

Each function turns the question's arguments (plain numbers and lists) into a call of the code the page
measures with: ``rlviz.experiments.gradscale.logprob_gradient_norm`` (autograd through the objective's
``policy_loss`` at ratio 1) and ``first_step_size`` (one step of the trainer's AdamW, or SGD, after
``clip_grad_norm_``). Bad arguments raise ``ValueError`` naming the parameter. No ``transformers`` import.
"""

from __future__ import annotations

import math

import torch

from rlviz.experiments.gradscale import first_step_size, logprob_gradient_norm
from rlviz.teach.answers import answer

SAME_RTOL = 1e-6  # two norms this close (relative) are the same (float rounding)


def _choice(a: float, b: float) -> str:
    """``"smaller"``, ``"same"`` or ``"larger"``: ``a`` against ``b``."""
    if math.isclose(a, b, rel_tol=SAME_RTOL, abs_tol=1e-15):
        return "same"
    return "smaller" if a < b else "larger"


@answer("gs_logprob_norm")
def gs_logprob_norm(lengths, advantages, mode: str, objective: str = "grpo") -> float:
    """||d loss / d log pi|| of a hand-made group at ratio 1 under ``mode`` (``logprob_gradient_norm``).
    Source: verl ``agg_loss`` (the aggregation modes); DeepSeekMath arXiv 2402.03300 eq. 3."""
    return logprob_gradient_norm(list(lengths), list(advantages), mode, objective)


@answer("gs_norm_ratio")
def gs_norm_ratio(lengths, advantages, mode: str, reference_mode: str, objective: str = "grpo") -> float:
    """The gradient norm under ``mode`` over the norm under ``reference_mode``, same group, ratio 1."""
    ref = gs_logprob_norm(lengths, advantages, reference_mode, objective)
    if ref <= 0:
        raise ValueError("advantages: the group has no gradient (every advantage is 0)")
    return gs_logprob_norm(lengths, advantages, mode, objective) / ref


@answer("gs_compare_objectives")
def gs_compare_objectives(lengths, advantages, mode: str, objective: str, reference: str) -> str:
    """``"smaller"`` / ``"same"`` / ``"larger"``: ``objective``'s gradient norm against ``reference``'s on
    the same group at ratio 1 (the first, on-policy update), both aggregated with ``mode``."""
    return _choice(
        gs_logprob_norm(lengths, advantages, mode, objective), gs_logprob_norm(lengths, advantages, mode, reference)
    )


@answer("gs_step_ratio")
def gs_step_ratio(grad, scale: float, optimizer: str, lr: float = 1e-4, max_norm: float | None = None) -> float:
    """||delta theta|| of the first step with the gradient multiplied by ``scale`` over that of the
    gradient as it is (``first_step_size``; ``max_norm``: clipping at it, ``None``: off). Source: Kingma & Ba
    arXiv 1412.6980, Algorithm 1 (Adam); PyTorch ``clip_grad_norm_``."""
    base = first_step_size(list(grad), lr, 1.0, optimizer, max_norm)
    if base <= 0:
        raise ValueError("grad: every entry is 0, the step is 0")
    return first_step_size(list(grad), lr, scale, optimizer, max_norm) / base


@answer("gs_step_size")
def gs_step_size(n: int, lr: float, optimizer: str = "adamw") -> float:
    """||delta theta|| of the first step on ``n`` parameters whose gradients are all nonzero (spread from
    -1 to 1, none near eps): about lr x sqrt(n) under Adam."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 1_000_000:
        raise ValueError(f"n: must be a whole number in [1, 1000000], got {n!r}")
    grad = [(-1.0) ** i * (0.5 + 0.5 * i / max(n - 1, 1)) for i in range(n)]  # |g| from 0.5 to 1
    return first_step_size(grad, lr, 1.0, optimizer)


@answer("gs_step_fraction")
def gs_step_fraction(g: float, lr: float = 1e-3) -> float:
    """One parameter with gradient ``g``: its first AdamW step as a fraction of lr (lr·|g|/(|g| + eps) / lr)."""
    return first_step_size([g], lr, 1.0, "adamw") / lr


@answer("gs_which_follows_scale")
def gs_which_follows_scale(grad, scale: float, lr: float = 1e-4) -> str:
    """Which optimizer's first step changes (by more than 10 %) when the gradient is multiplied by ``scale``,
    without clipping: ``"adamw"``, ``"sgd"``, ``"both"`` or ``"neither"``."""
    moved = [o for o in ("adamw", "sgd") if abs(gs_step_ratio(grad, scale, o, lr) - 1.0) > 0.1]
    return {0: "neither", 2: "both"}.get(len(moved), moved[0] if moved else "neither")


@answer("gs_grad_norm")
def gs_grad_norm(grad, scale: float = 1.0) -> float:
    """||scale x grad|| (the norm ``clip_grad_norm_`` compares with its max norm)."""
    if not isinstance(grad, (list, tuple)) or not grad:
        raise ValueError(f"grad: must be a non-empty list of numbers, got {grad!r:.80}")
    if any(isinstance(g, bool) or not isinstance(g, (int, float)) or not math.isfinite(g) for g in grad):
        raise ValueError("grad: must be finite numbers")
    return float(scale) * float(torch.linalg.vector_norm(torch.tensor([float(g) for g in grad], dtype=torch.float64)))


@answer("gs_adam_eps")
def gs_adam_eps() -> float:
    """Adam's eps as the trainer builds its optimizer (``torch.optim.AdamW``'s default; ``first_step_size``)."""
    return float(torch.optim.AdamW([torch.nn.Parameter(torch.zeros(1))], lr=1e-3, weight_decay=0.0).defaults["eps"])
