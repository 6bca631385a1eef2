"""Selecting and joining rollout batches (for dynamic sampling and mini-batches).

Legend: B rows, P prompt width (left-padded), T response width (right-padded), L = P + T.
"""

from __future__ import annotations

from dataclasses import replace

import torch

from .rollout import RolloutBatch

__all__ = ["concat_batches", "select_rows"]


def select_rows(batch: RolloutBatch, rows: torch.Tensor | list[int]) -> RolloutBatch:
    """The rows ``rows`` of ``batch`` (widths unchanged). ``group_size`` is kept as it is, so
    select whole groups when the result is to be read as groups."""
    idx = torch.as_tensor(rows, dtype=torch.long)
    il = idx.tolist()
    dev_idx = idx.to(batch.input_ids.device)
    return replace(
        batch,
        problems=[batch.problems[i] for i in il],
        input_ids=batch.input_ids[dev_idx],
        attention_mask=batch.attention_mask[dev_idx],
        position_ids=batch.position_ids[dev_idx],
        response_ids=batch.response_ids[dev_idx],
        response_mask=batch.response_mask[dev_idx],
        response_lengths=batch.response_lengths[dev_idx],
        truncated=batch.truncated[dev_idx],
        texts=[batch.texts[i] for i in il],
        tokens=[batch.tokens[i] for i in il],
        rollout_log_prob=None if batch.rollout_log_prob is None else batch.rollout_log_prob[dev_idx],
        rewards=batch.rewards[dev_idx],
        format_rewards=None if batch.format_rewards is None else batch.format_rewards[dev_idx],
        rollout_routing=None if batch.rollout_routing is None else batch.rollout_routing[idx],
        sampling_mask=None if batch.sampling_mask is None else batch.sampling_mask[dev_idx],
    )


def _pad(x: torch.Tensor, width: int, value, left: bool) -> torch.Tensor:
    extra = width - x.shape[1]
    if extra == 0:
        return x
    pad = torch.full((x.shape[0], extra, *x.shape[2:]), value, dtype=x.dtype, device=x.device)
    return torch.cat([pad, x] if left else [x, pad], dim=1)


def concat_batches(batches: list[RolloutBatch], pad_token_id: int) -> RolloutBatch:
    """Join batches with the same group size: prompts re-left-padded to the widest P, responses
    re-right-padded to the widest T, position ids recomputed from the attention mask.

    Raises:
        ValueError: ``batches`` is empty or the group sizes differ.
    """
    if not batches:
        raise ValueError("batches: nothing to join")
    if len({b.group_size for b in batches}) != 1:
        raise ValueError("batches: group sizes differ")
    if len(batches) == 1:
        return batches[0]
    P = max(b.prompt_width for b in batches)
    T = max(b.response_ids.shape[1] for b in batches)
    prompt_ids = torch.cat([_pad(b.input_ids[:, : b.prompt_width], P, pad_token_id, True) for b in batches])
    prompt_mask = torch.cat([_pad(b.attention_mask[:, : b.prompt_width], P, 0, True) for b in batches])
    response_ids = torch.cat([_pad(b.response_ids, T, pad_token_id, False) for b in batches])  # (B, T)
    resp_attn = torch.cat([_pad(b.attention_mask[:, b.prompt_width :], T, 0, False) for b in batches])
    attention_mask = torch.cat([prompt_mask, resp_attn], dim=1)  # (B, P + T)
    return RolloutBatch(
        problems=[p for b in batches for p in b.problems],
        group_size=batches[0].group_size,
        input_ids=torch.cat([prompt_ids, response_ids], dim=1),
        attention_mask=attention_mask,
        position_ids=(attention_mask.cumsum(-1) - 1).clamp(min=0),
        prompt_width=P,
        response_ids=response_ids,
        response_mask=torch.cat([_pad(b.response_mask, T, 0.0, False) for b in batches]),
        response_lengths=torch.cat([b.response_lengths for b in batches]),
        truncated=torch.cat([b.truncated for b in batches]),
        texts=[t for b in batches for t in b.texts],
        tokens=[t for b in batches for t in b.tokens],
        rollout_log_prob=None
        if any(b.rollout_log_prob is None for b in batches)
        else torch.cat([_pad(b.rollout_log_prob, T, 0.0, False) for b in batches]),
        rewards=torch.cat([b.rewards for b in batches]),
        format_rewards=None
        if any(b.format_rewards is None for b in batches)
        else torch.cat([b.format_rewards for b in batches]),
        rollout_routing=_join_routes(batches, P, T),
        # the sampler's kept sets (B, T, V), padding keeping every token; None unless every batch has them
        sampling_mask=None
        if any(b.sampling_mask is None for b in batches)
        else torch.cat([_pad(b.sampling_mask, T, True, False) for b in batches]),
    )


def _join_routes(batches: list[RolloutBatch], P: int, T: int) -> torch.Tensor | None:
    """The sampler's routes (B, L, layers, k) re-padded like the tokens (expert 0 on padding), or
    ``None`` unless every batch has them."""
    if any(b.rollout_routing is None for b in batches):
        return None
    return torch.cat(
        [
            torch.cat(
                [
                    _pad(b.rollout_routing[:, : b.prompt_width], P, 0, True),
                    _pad(b.rollout_routing[:, b.prompt_width :], T, 0, False),
                ],
                dim=1,
            )
            for b in batches
        ]
    )
