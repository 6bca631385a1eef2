"""Length shaping: DAPO's soft overlong punishment and overlong filtering.

Legend: B responses. Lengths are counted in tokens (EOS included).
"""

from __future__ import annotations

import torch

__all__ = ["overlong_filter_mask", "overlong_penalty"]


def overlong_penalty(
    lengths: torch.Tensor, max_length: int, buffer_length: int, penalty_factor: float = 1.0
) -> torch.Tensor:
    """DAPO soft overlong punishment (DAPO arXiv 2503.14476 §3.4, eq. 13), added to the task reward.

    ``0`` for ``L <= max_length - buffer_length``; ``-penalty_factor * (L - (max_length -
    buffer_length)) / buffer_length`` in the buffer; ``-penalty_factor`` beyond ``max_length`` (as
    the paper; verl leaves it unbounded there, OpenRLHF caps it like here). With ``buffer_length = 0``
    there is no ramp: ``-penalty_factor`` only beyond ``max_length``.

    verl: ``reward_model.overlong_buffer.len`` / ``.penalty_factor``, L_max =
    ``data.max_response_length``; TRL: ``get_soft_overlong_punishment(max_completion_len,
    soft_punish_cache)``.

    Args:
        lengths: [B] response lengths in tokens (int or float).
        max_length: L_max, tokens, >= 1.
        buffer_length: L_cache, tokens, in [0, max_length].
        penalty_factor: >= 0, the penalty at and beyond L_max.

    Returns:
        [B] float penalties in [-penalty_factor, 0].

    Raises:
        ValueError: naming ``max_length``, ``buffer_length`` (e.g. a buffer longer than the
            maximum length), ``penalty_factor`` or ``lengths`` (negative or NaN).
    """
    if not max_length >= 1:
        raise ValueError(f"max_length: must be >= 1, got {max_length}")
    if not 0 <= buffer_length <= max_length:
        raise ValueError(f"buffer_length: must be in [0, max_length={max_length}], got {buffer_length}")
    if not penalty_factor >= 0:
        raise ValueError(f"penalty_factor: must be >= 0, got {penalty_factor}")
    lengths = torch.as_tensor(lengths, dtype=torch.get_default_dtype())
    if not bool(torch.isfinite(lengths).all()) or bool((lengths < 0).any()):
        raise ValueError("lengths: must be finite and >= 0")
    start = max_length - buffer_length
    if buffer_length == 0:
        return torch.where(lengths > max_length, -penalty_factor * torch.ones_like(lengths), torch.zeros_like(lengths))
    ramp = ((lengths - start) / buffer_length).clamp(0.0, 1.0)  # (B,)
    return -penalty_factor * ramp


def overlong_filter_mask(truncated: torch.Tensor) -> torch.Tensor:
    """Overlong filtering (DAPO arXiv 2503.14476 §3.4): truncated responses leave the loss.

    TRL: ``mask_truncated_completions=True``. Multiply the response mask by the result.

    Args:
        truncated: [B] bool, True where the response hit the length limit without EOS.

    Returns:
        [B, 1] float, 0 for truncated rows and 1 otherwise.
    """
    return (~truncated.bool()).to(torch.get_default_dtype())[:, None]
