"""Rollouts: sample G responses per prompt, score them, and compute per-token log-probs.

Shape legend: B rows (= n_prompts * G, groups contiguous), G group size, P prompt width (left-padded),
T response width (right-padded), L = P + T, V vocabulary.
"""

from __future__ import annotations

import contextlib
import copy
import math
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from rlviz.core.passk import distinct_right, pass_at_k_curve

from .moe import capture_routing, is_moe
from .task import DEFAULT_MAX_NEW_TOKENS, Problem
from .tasks import task_of

__all__ = [
    "RolloutBatch",
    "sample_rollouts",
    "response_log_probs",
    "eos_token_ids",
    "evaluate_pass_at_1",
    "truncate_logits",
    "packable",
    "PACKED_MODEL_TYPES",
    "EOS_DISPLAY",
    "DEFAULT_MAX_NEW_TOKENS",
]

EOS_DISPLAY = "⏎"  # how EOS is shown among the response tokens

# The sampler stops computing a row once it has sampled EOS. False decodes every row to the end, as
# before 2026-12-03: the same responses, at 1.4-1.5x the sampling cost (tests compare the two).
_DROP_FINISHED = True


@dataclass
class RolloutBatch:
    """G sampled responses for each of n prompts, with everything a policy-gradient step needs."""

    problems: list[Problem]  # B, groups contiguous (G consecutive rows share a prompt)
    group_size: int  # G
    input_ids: torch.LongTensor  # (B, L) left-padded prompt, then response right-padded with pad id
    attention_mask: torch.LongTensor  # (B, L) 1 on real prompt and response tokens (EOS included)
    position_ids: torch.LongTensor  # (B, L) cumsum(attention_mask) - 1, clamped at 0
    prompt_width: int  # P
    response_ids: torch.LongTensor  # (B, T) = input_ids[:, P:]
    response_mask: torch.Tensor  # (B, T) float 1.0 on real response tokens (EOS included)
    response_lengths: torch.LongTensor  # (B,) real response tokens, EOS included
    truncated: torch.BoolTensor  # (B,) no EOS within max_new_tokens
    texts: list[str]  # B decoded responses, special tokens removed
    tokens: list[list[str]]  # B lists of display strings, EOS shown as EOS_DISPLAY
    # (B, T) the sampler's log-probs (verl name), 0 on padding; None when sampled with score=False
    rollout_log_prob: torch.Tensor | None
    rewards: torch.Tensor  # (B,) float task reward
    # (B,) float, 1 for a well-formed answer (its task's format_reward): GDPO's second reward column
    format_rewards: torch.Tensor | None = None
    # (B, L, layers, k) CPU int64: the experts the sampler's routers chose for every position (MoE
    # models, when asked for); R3 routing replay trains with them
    rollout_routing: torch.Tensor | None = None
    # (B, T, V) bool: the vocabulary entries the sampler's top-p / top-k truncation kept at each response
    # token (vLLM's ``sampling_mask``), True everywhere at padding; None when it did not truncate. A trainer
    # with ``replay_sampling_mask`` renormalises its log-probs over it (DeepSeek-V3.2's Keep Sampling Mask)
    sampling_mask: torch.Tensor | None = None


def eos_token_ids(model, tokenizer) -> list[int]:
    """Every id that ends a response: the tokenizer's EOS and each one the model's generation config
    lists (``generation_config.eos_token_id``, an int or a list: chat models end turns with a token of
    their own, e.g. ``<|im_end|>``), in that order, without repeats."""
    ids = [tokenizer.eos_token_id]
    config = getattr(model, "generation_config", None)
    extra = getattr(config, "eos_token_id", None) if config is not None else None
    ids += list(extra) if isinstance(extra, (list, tuple)) else [extra]
    return list(dict.fromkeys(i for i in ids if isinstance(i, int)))


def _check(group_size: int, max_new_tokens: int, temperature: float) -> None:
    if group_size < 1:
        raise ValueError(f"group_size: must be >= 1, got {group_size}")
    if max_new_tokens < 1:
        raise ValueError(f"max_new_tokens: must be >= 1, got {max_new_tokens}")
    if not (temperature > 0 and math.isfinite(temperature)):  # also rejects NaN
        raise ValueError(f"temperature: must be a finite number > 0, got {temperature}")


def _check_truncation(top_p: float, top_k: int) -> None:
    if isinstance(top_p, bool) or not isinstance(top_p, (int, float)) or not (0 < top_p <= 1):  # rejects NaN
        raise ValueError(f"top_p: must be in (0, 1], got {top_p!r}")
    if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 0:
        raise ValueError(f"top_k: must be a whole number >= 0 (0 = off), got {top_k!r}")


def truncate_logits(logits: torch.Tensor, top_p: float = 1.0, top_k: int = 0) -> torch.Tensor:
    """Truncated sampling's support: the logits with every token outside it set to ``-inf``.

    The order is vLLM's (and transformers' ``TopKLogitsWarper`` then ``TopPLogitsWarper``): first the
    ``top_k`` most likely tokens, then among those the smallest set, most likely first, whose
    probability (renormalised after top-k) reaches ``top_p``. The most likely token is always kept;
    ties at the k-th logit go to the lower token id (``torch.topk``'s order).

    Args:
        logits: [..., V] logits, already divided by the temperature.
        top_p: nucleus mass in (0, 1]; 1 keeps everything (vLLM / TRL ``top_p``).
        top_k: keep the k most likely tokens; 0 keeps everything (vLLM ``top_k`` -1 / TRL ``top_k`` 0).

    Returns:
        [..., V] float, the same logits inside the support and ``-inf`` outside.

    Raises:
        ValueError: ``top_p`` not in (0, 1], ``top_k`` not a whole number >= 0.
    """
    _check_truncation(top_p, top_k)
    out = logits.float()
    V = out.shape[-1]
    if 0 < top_k < V:
        kth = torch.topk(out, top_k, dim=-1).values[..., -1:]  # (..., 1)
        out = out.masked_fill(out < kth, float("-inf"))
    if top_p < 1:
        sorted_logits, order = torch.sort(out, dim=-1, descending=True)
        probs = torch.softmax(sorted_logits, dim=-1)
        before = probs.cumsum(-1) - probs  # mass of the more likely tokens
        drop_sorted = before >= top_p  # the set already reached top_p without this token
        drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)
        out = out.masked_fill(drop, float("-inf"))
    return out


# Dense decoders whose attention masks come from transformers' masking_utils, which reads several
# sequences packed into one row from position ids that restart at 0 (with no attention mask and no
# cache): their padding need not be computed. An MoE model is run padded (its routing is recorded
# and replayed per padded position).
PACKED_MODEL_TYPES = frozenset({"llama", "qwen2", "qwen3", "mistral"})
PACK_ROWS = 8  # sequences per packed row: the attention's cost grows with the square of a row's width


def packable(model) -> bool:
    """Whether :func:`response_log_probs` packs ``model``'s rows (see ``PACKED_MODEL_TYPES``)."""
    config = getattr(model, "config", None)
    return getattr(config, "model_type", None) in PACKED_MODEL_TYPES and not is_moe(model)


def _packed_response_logits(model, input_ids, attention_mask, position_ids, prompt_width: int):
    """(B, T, V) logits of the positions that predict the response tokens, computed with the real
    tokens only: the rows' real tokens (each row one contiguous run of ``attention_mask``) are
    packed about ``PACK_ROWS`` rows at a time into one row of the model's input, each keeping its position
    ids, so each attends to exactly the tokens it attends to padded; the unused tail of a packed row
    is filler at position 0 (each filler its own sequence). Where T has no real token of a row the
    logits are another position of that row's (finite, meaningless: the caller masks them).
    ``None`` when a row's real tokens are not one contiguous run from position 0 (then the caller
    runs the padded batch)."""
    B, L = input_ids.shape
    dev = input_ids.device
    real = attention_mask.bool()  # (B, L)
    n = real.sum(1)  # (B,) real tokens per row
    if bool((n == 0).any()):
        return None
    rows = torch.arange(B, device=dev)
    flat_row = rows.repeat_interleave(n)  # (N,) the row of each real token, row-major
    offset = torch.cumsum(n, 0) - n  # (B,) where each row starts among the N real tokens
    k = torch.arange(int(n.sum()), device=dev) - offset[flat_row]  # (N,) index inside its row
    if not bool((position_ids[real] == k).all()):  # not one contiguous run from position 0 per row
        return None
    # rows dealt to R packed rows longest first, back and forth (R, R-1, ..., 1, 1, 2, ...), so the
    # packed rows come out about equally long: the widest sets the width every one is computed at
    R = -(-B // PACK_ROWS)
    lane = torch.arange(B, device=dev) % (2 * R)
    dealt = torch.where(lane < R, lane, 2 * R - 1 - lane)  # the packed row of the i-th longest row
    chunk = torch.empty_like(dealt)
    chunk[torch.argsort(n, descending=True, stable=True)] = dealt  # (B,) the packed row of each row
    by_chunk = torch.argsort(chunk, stable=True)  # rows in packed order
    before = torch.cumsum(n[by_chunk], 0) - n[by_chunk]  # real tokens before each, in packed order
    first = torch.searchsorted(chunk[by_chunk], torch.arange(R, device=dev))  # each packed row's first
    start = torch.empty_like(n)
    start[by_chunk] = before - before[first[chunk[by_chunk]]]  # (B,) where each row starts in its packed row
    width = int((start + n).max())
    ids = torch.zeros(R, width, dtype=input_ids.dtype, device=dev)  # filler: token 0 at position 0
    pos = torch.zeros(R, width, dtype=position_ids.dtype, device=dev)
    col = start[flat_row] + k  # (N,)
    ids[chunk[flat_row], col] = input_ids[real]
    pos[chunk[flat_row], col] = k.to(pos.dtype)
    logits = model(input_ids=ids, position_ids=pos, attention_mask=None, use_cache=False).logits  # (R, W, V)
    # response token j of row i is predicted at the row's real token p_i + j - 1 (p_i: its prompt)
    p = real[:, :prompt_width].sum(1)  # (B,)
    T = L - prompt_width
    j = torch.arange(T, device=dev)
    at = (p.unsqueeze(1) + j - 1).clamp(min=0)  # (B, T) index among the row's real tokens
    at = torch.minimum(at, (n - 1).unsqueeze(1))  # past the row's end: its last token (masked later)
    return logits[chunk.unsqueeze(1), start.unsqueeze(1) + at]  # (B, T, V)


def response_log_probs(
    model,
    input_ids: torch.Tensor,
    attention_mask: torch.Tensor,
    position_ids: torch.Tensor,
    prompt_width: int,
    temperature: float,
    with_entropy: bool = False,
    sampling_mask: torch.Tensor | None = None,
    with_sum_pi_squared: bool = False,
) -> tuple[torch.Tensor, ...]:
    """Log-probs of the response tokens given everything before them (differentiable).

    Args:
        model: a causal LM returning ``.logits`` of shape (B, L, V).
        input_ids, attention_mask, position_ids: (B, L) as in ``RolloutBatch``.
        prompt_width: P; the response is ``input_ids[:, P:]`` (T = L - P tokens).
        temperature: logits are divided by it before the log-softmax (use the sampling temperature,
            or the ratio to the sampling policy is not 1 before the first update).
        with_entropy: also return the entropy (nats) of each position's distribution.
        sampling_mask: optional (B, T, V) bool, the sampler's kept set at each response token
            (``RolloutBatch.sampling_mask``): the logits outside it are set to -inf before the
            log-softmax, so the log-probs (and the entropy) are renormalised over the tokens the
            sampler could draw, as the sampler's own are (vLLM's sampling-mask replay, the
            ``sampling_mask`` its ``--return-sampling-mask`` returns; DeepSeek-V3.2, arXiv
            2512.02556, "Keep Sampling Mask"). ``None``: the full vocabulary.
        with_sum_pi_squared: also return Σ_v π(v)² of each position's distribution (in (0, 1], the
            same distribution as the log-probs), which the Optimal Token Baseline reads: computed
            from the log-softmax already formed, as verl's ``calculate_sum_pi_squared_from_logits``
            (``exp(logsumexp(2 log π))``, ``verl/utils/torch_functional.py``).

    Returns:
        ``(log_prob, entropy)``: float32 (B, T) each (entropy ``None`` unless asked), and with
        ``with_sum_pi_squared`` a third, ``sum_pi_squared`` (B, T). Values at padding positions are
        finite but meaningless; the caller masks them with ``response_mask``.

    Raises:
        ValueError: naming ``sampling_mask`` when it is not a bool tensor of shape (B, T, V), or keeps no
            token at some position.

    A dense Llama, Qwen2/3 or Mistral (:func:`packable`) runs its real tokens only, packed several
    rows to a row (``_packed_response_logits``; verl's ``use_remove_padding`` does the same with
    flash-attention's variable-length kernels): about half the positions of a padded batch here, the
    same log-probs up to float rounding. Other models run the padded batch.
    """
    logits = None
    if packable(model):
        logits = _packed_response_logits(model, input_ids, attention_mask, position_ids, prompt_width)
    if logits is None:
        logits = model(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids, use_cache=False)
        logits = logits.logits[:, prompt_width - 1 : -1]  # (B, T, V) position t predicts t+1
    logits = logits.float() / temperature  # (B, T, V)
    if sampling_mask is not None:
        _check_sampling_mask(sampling_mask, logits.shape)
        logits = logits.masked_fill(~sampling_mask.to(logits.device), float("-inf"))  # outside the kept set
    logp_all = F.log_softmax(logits, dim=-1)  # (B, T, V), -inf outside the kept set
    targets = input_ids[:, prompt_width:]  # (B, T)
    log_prob = logp_all.gather(-1, targets.unsqueeze(-1)).squeeze(-1)  # (B, T)
    entropy = None
    if with_entropy and sampling_mask is None:
        entropy = -(logp_all.exp() * logp_all).sum(-1)  # (B, T)
    elif with_entropy:  # p log p is 0 for a dropped token (p = 0), not 0 x -inf; the gradient stays finite too
        entropy = -(logp_all.exp() * logp_all.masked_fill(~logp_all.isfinite(), 0.0)).sum(-1)  # (B, T)
    if with_sum_pi_squared:  # Σπ² = exp(logsumexp(2 log π)): -inf outside a kept set adds exp(-inf) = 0
        return log_prob, entropy, torch.logsumexp(2.0 * logp_all, dim=-1).exp()  # (B, T)
    return log_prob, entropy


def _check_sampling_mask(mask: torch.Tensor, shape: torch.Size) -> None:
    """Raise ``ValueError`` naming ``sampling_mask`` unless it is (B, T, V) bool with a kept token everywhere."""
    if not isinstance(mask, torch.Tensor) or mask.dtype != torch.bool:
        raise ValueError(f"sampling_mask: must be a bool tensor, got {getattr(mask, 'dtype', type(mask).__name__)}")
    if tuple(mask.shape) != tuple(shape):
        raise ValueError(f"sampling_mask: expected shape {tuple(shape)} (B, T, V), got {tuple(mask.shape)}")
    if not bool(mask.any(-1).all()):
        raise ValueError("sampling_mask: keeps no token at some position (every position needs one)")


@torch.no_grad()
def sample_rollouts(
    model,
    tokenizer,
    problems: list[Problem],
    group_size: int,
    max_new_tokens: int,
    temperature: float,
    generator: torch.Generator,
    sampler_dtype: torch.dtype | None = None,
    record_routing: bool = False,
    greedy: bool = False,
    top_p: float = 1.0,
    top_k: int = 0,
    score: bool = True,
) -> RolloutBatch:
    """Sample ``group_size`` responses per problem at ``temperature`` and score them.

    Deterministic given ``generator`` (a CPU or device generator; the global RNG is never used).
    A row leaves the decoding forwards once it has sampled EOS (its KV cache with it), so a batch
    costs about its real tokens; every step still draws for all B rows, so which rows have finished
    never changes another row's draw. The model is put in eval mode for sampling and its previous
    train/eval mode is restored.
    ``rewards`` come from the problem's task's verifier (``rlviz.lm.tasks.task_of(problem).reward``) on the
    decoded text; a response containing a special token
    other than EOS (a sampled pad or BOS, which decoding would hide) gets 0.

    Args:
        problems: n prompts; row ``i * G + j`` of the batch is sample j of problem i.
        group_size: G >= 1.
        max_new_tokens: response length limit (>= 1); rows without EOS by then are ``truncated``.
        temperature: finite, > 0.
        generator: the only source of randomness.
        sampler_dtype: the sampler's parameter dtype (``torch.bfloat16`` as an inference engine
            serving a float32-trained policy in bf16; verl ``rollout.dtype``). ``None`` or the model's
            own dtype: sample with ``model`` itself. Otherwise a copy in that dtype samples and scores
            (``rollout_log_prob``), so its probabilities, and an MoE's routing, differ from the
            trainer's.
        record_routing: also record the sampler's expert choices in ``rollout_routing`` (MoE
            models; ``None`` for a dense model).
        greedy: decode greedily (the argmax token at every step, the limit temperature -> 0; ties go
            to the lowest token id) instead of sampling: ReMax's baseline response (verl generates it
            with ``do_sample=False``). ``generator`` is then not drawn from.
        top_p, top_k: truncated sampling (:func:`truncate_logits`): the sampler draws from the
            renormalised distribution over the kept tokens, and ``rollout_log_prob`` is the log-prob
            under it, as an inference engine reports it (the full distribution's log-prob minus the
            log of the kept mass at that position). The trainer's log-probs are the full
            distribution's, so their ratio to the sampler's is the kept mass (<= 1), not a change of
            policy. Defaults: no truncation. A truncating sampler also records what it kept at each
            token in ``sampling_mask`` ((B, T, V) bool, True at padding; vLLM's ``sampling_mask``, the
            tokens whose processed logit is finite), which a trainer can replay (``replay_sampling_mask``);
            it costs B x T x V bytes, little for the tiny models' 16-token vocabulary.
        score: compute ``rollout_log_prob`` (one more no-grad forward over the whole batch, most of
            a short batch's cost). ``False``: it is ``None``, for a caller that reads only the
            responses and their rewards (the sampling page's pass-rate measurement); the responses
            and rewards are the same either way (that forward draws nothing from ``generator``).

    Raises:
        ValueError: a parameter is out of range (the message names it), or ``problems`` is empty.
    """
    _check(group_size, max_new_tokens, temperature)
    _check_truncation(top_p, top_k)
    truncating = (top_p < 1 or top_k > 0) and not greedy
    if not problems:
        raise ValueError("problems: must not be empty")
    if record_routing and not score:
        raise ValueError("score: record_routing reads the routing off the scoring forward; keep score=True")
    if sampler_dtype is not None and not (isinstance(sampler_dtype, torch.dtype) and sampler_dtype.is_floating_point):
        raise ValueError(f"sampler_dtype: must be a floating torch dtype, got {sampler_dtype!r}")
    policy = model
    if sampler_dtype is not None and sampler_dtype != next(model.parameters()).dtype:
        model = copy.deepcopy(model).to(sampler_dtype)  # the weights as the inference engine holds them
    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    pad_id = tokenizer.pad_token_id
    eos_ids = eos_token_ids(policy, tokenizer)  # the tokenizer's EOS and the generation config's
    eos_set = set(eos_ids)
    eos_tensor = torch.tensor(eos_ids, device=device)
    rows = [p for p in problems for _ in range(group_size)]  # B
    enc = tokenizer([p.prompt for p in rows], padding=True, padding_side="left", return_tensors="pt")
    prompt_ids = enc["input_ids"].to(device)  # (B, P)
    mask = enc["attention_mask"].to(device)  # (B, P)
    B, P = prompt_ids.shape

    # A hand-written loop rather than model.generate: generate cannot take a torch.Generator, and
    # Streamlit serves many sessions in threads, so sampling must never touch the global RNG.
    pos = (mask.cumsum(-1) - 1).clamp(min=0)  # (B, P)
    out = model(input_ids=prompt_ids, attention_mask=mask, position_ids=pos, use_cache=True, logits_to_keep=1)
    cache, logits = out.cache, out.logits[:, -1].clone()  # logits (B, V); KV cache is `cache` in transformers 5
    # A row that has sampled EOS leaves the decoding forwards (its KV cache, mask and positions are
    # dropped): at the shipped model's lengths a batch needs about a third of the row-steps of
    # decoding every row to the limit. Every step still draws
    # for all B rows (a finished row from its last logits; its draw is replaced by padding), so the
    # generator advances as it does for the whole batch.
    cached = torch.arange(B, device=device)  # (b,) the batch rows the KV cache holds, ascending
    drop = _DROP_FINISHED and hasattr(cache, "batch_select_indices")  # another cache type decodes every row
    next_pos = pos[:, -1:] + 1  # (B, 1)
    finished = torch.zeros(B, dtype=torch.bool, device=device)
    new_tokens, new_mask, kept_sets = [], [], []
    for step in range(max_new_tokens):
        if greedy:
            tok = logits.float().argmax(dim=-1, keepdim=True)  # (B, 1)
        elif truncating:
            scaled = logits.float() / temperature  # (B, V)
            kept = truncate_logits(scaled, top_p, top_k)
            kept_sets.append(kept > float("-inf"))  # (B, V) the support drawn from (vLLM: isfinite)
            probs = F.softmax(kept, dim=-1)
            gen_dev = generator.device
            tok = torch.multinomial(probs.to(gen_dev), 1, generator=generator).to(device)  # (B, 1)
        else:
            probs = F.softmax(logits.float() / temperature, dim=-1)  # (B, V)
            gen_dev = generator.device
            tok = torch.multinomial(probs.to(gen_dev), 1, generator=generator).to(device)  # (B, 1)
        alive = ~finished  # rows still generating: this token is real
        tok = torch.where(alive.unsqueeze(1), tok, torch.full_like(tok, pad_id))
        new_tokens.append(tok)
        new_mask.append(alive.long().unsqueeze(1))
        finished = finished | torch.isin(tok.squeeze(1), eos_tensor)
        live = (~finished).nonzero().squeeze(1)  # (b,) rows that go on decoding
        if live.numel() == 0 or step == max_new_tokens - 1:
            break  # every row has ended, or the last token is drawn: no more logits are needed
        if drop and live.numel() < len(cached):  # rows just finished: out of the cache, mask and positions
            keep = torch.searchsorted(cached, live)  # (b,) their places among the cached rows
            cache.batch_select_indices(keep)
            mask, next_pos, cached = mask[keep], next_pos[keep], live
        mask = torch.cat([mask, (~finished[cached]).long().unsqueeze(1)], dim=1)  # (b, P + t + 1)
        out = model(input_ids=tok[cached], attention_mask=mask, position_ids=next_pos, cache=cache, use_cache=True)
        cache = out.cache
        logits[cached] = out.logits[:, -1]  # a finished row keeps its last logits: drawn from, never used
        next_pos = next_pos + 1

    response_ids = torch.cat(new_tokens, dim=1)  # (B, T)
    response_mask_long = torch.cat(new_mask, dim=1)  # (B, T)
    input_ids = torch.cat([prompt_ids, response_ids], dim=1)  # (B, L)
    attention_mask = torch.cat([enc["attention_mask"].to(device), response_mask_long], dim=1)  # (B, L)
    position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)  # (B, L)
    truncated = ~finished  # (B,) finished means EOS was sampled
    lengths = response_mask_long.sum(-1)  # (B,)

    routing, rollout_log_prob, sampling_mask = None, None, None
    response_mask = response_mask_long.float()
    if kept_sets:  # (B, T, V); padding keeps every token, so a replayed log-softmax stays finite there
        sampling_mask = torch.stack(kept_sets, dim=1) | ~response_mask_long.bool().unsqueeze(-1)
    if score:
        # a truncating sampler's probability is renormalised over the kept tokens (vLLM's processed
        # logprobs): the full log-prob minus the log of the kept mass, with the kept sets it drew from
        with capture_routing(model) if record_routing else contextlib.nullcontext() as cap:
            rollout_log_prob, _ = response_log_probs(
                model, input_ids, attention_mask, position_ids, P, temperature, sampling_mask=sampling_mask
            )
        if record_routing and is_moe(model):
            routing = cap.indices(*input_ids.shape)  # (B, L, layers, k)
        rollout_log_prob = rollout_log_prob * response_mask  # 0 on padding
    model.train(was_training)
    model = policy

    ids_cpu, len_cpu = response_ids.cpu().tolist(), lengths.cpu().tolist()
    texts, tokens = [], []
    for row, n in zip(ids_cpu, len_cpu):
        real = row[:n]
        texts.append(tokenizer.decode(real, skip_special_tokens=True))
        tokens.append([EOS_DISPLAY if t in eos_set else tokenizer.convert_ids_to_tokens(t) for t in real])
    # a response holding another special token (pad/BOS sampled mid-way) is never right: its decoded
    # text would hide that token, so it is scored as unfinished
    special = set(tokenizer.all_special_ids) - eos_set
    fin = [f and not special.intersection(row[:n]) for f, row, n in zip(finished.cpu().tolist(), ids_cpu, len_cpu)]
    tasks = [task_of(p) for p in rows]  # each problem is scored by its own task's verifier
    rewards = torch.tensor([s.reward(p, t, f) for s, p, t, f in zip(tasks, rows, texts, fin)], dtype=torch.float32)
    formats = [s.format_reward(p, t, f) for s, p, t, f in zip(tasks, rows, texts, fin)]
    formats = torch.tensor(formats, dtype=torch.float32)
    return RolloutBatch(
        problems=rows,
        group_size=group_size,
        input_ids=input_ids,
        attention_mask=attention_mask,
        position_ids=position_ids,
        prompt_width=P,
        response_ids=response_ids,
        response_mask=response_mask,
        response_lengths=lengths,
        truncated=truncated,
        texts=texts,
        tokens=tokens,
        rollout_log_prob=rollout_log_prob,
        rewards=rewards.to(device),
        format_rewards=formats.to(device),
        rollout_routing=routing,
        sampling_mask=sampling_mask,
    )


def evaluate_pass_at_1(
    model,
    tokenizer,
    problems: list[Problem],
    samples_per_prompt: int,
    max_new_tokens: int,
    temperature: float,
    generator: torch.Generator,
    chunk_prompts: int = 64,
) -> dict:
    """Estimate pass@1 (and pass@k) by sampling ``samples_per_prompt`` responses to every problem.

    Returns a dict:
        ``pass_at_1`` (mean reward over all samples), ``per_prompt`` (list of pass rates, one per
        problem, in order), ``all_correct`` / ``all_wrong`` (fraction of prompts whose samples are all
        right / all wrong), ``length_p10`` / ``length_p50`` / ``length_p90`` (response length
        percentiles in tokens, EOS included), ``mean_length``, ``truncated`` (fraction of samples
        without EOS within ``max_new_tokens``), ``n_samples``;
        ``pass_at_k``: ``{k: pass@k}`` for k = 1, 2, 4, ... and n = ``samples_per_prompt``, the
        unbiased estimator of Chen et al. 2021 over the n samples of each prompt
        (``rlviz.core.passk.pass_at_k_curve``; its k = 1 is ``pass_at_1``);
        ``distinct_right``: the mean over prompts of the number of different right answers among
        its samples (two the same when the task's ``answer_key`` says so:
        ``rlviz.core.passk.distinct_right``), and ``per_prompt_distinct`` (one per problem);
        ``distinct_right_share``: distinct right answers over right answers, pooled over prompts
        (1 when every right answer is different; NaN when none is right).

    Raises:
        ValueError: as ``sample_rollouts`` (``samples_per_prompt`` plays the role of ``group_size``).
    """
    if samples_per_prompt < 1:
        raise ValueError(f"samples_per_prompt: must be >= 1, got {samples_per_prompt}")
    per_prompt, lengths, truncs, right, distinct = [], [], [], [], []
    n = samples_per_prompt
    for i in range(0, len(problems), chunk_prompts):
        batch = sample_rollouts(
            model,
            tokenizer,
            problems[i : i + chunk_prompts],
            samples_per_prompt,
            max_new_tokens,
            temperature,
            generator,
            score=False,  # only rewards and lengths are read
        )
        groups = batch.rewards.view(-1, n).cpu()  # (prompts, n)
        per_prompt += groups.mean(-1).tolist()
        right += (groups >= 1.0).sum(-1).tolist()
        for j, p in enumerate(problems[i : i + chunk_prompts]):
            texts = batch.texts[j * n : (j + 1) * n]
            distinct.append(distinct_right(texts, groups[j].tolist(), task_of(p).answer_key))
        lengths += batch.response_lengths.cpu().tolist()
        truncs += batch.truncated.cpu().tolist()
    pp = np.array(per_prompt)
    lengths = np.array(lengths)
    return {
        "pass_at_1": float(pp.mean()),
        "per_prompt": per_prompt,
        "all_correct": float((pp == 1.0).mean()),
        "all_wrong": float((pp == 0.0).mean()),
        "length_p10": float(np.percentile(lengths, 10)),
        "length_p50": float(np.percentile(lengths, 50)),
        "length_p90": float(np.percentile(lengths, 90)),
        "mean_length": float(lengths.mean()),
        "truncated": float(np.mean(truncs)),
        "n_samples": int(len(lengths)),
        "pass_at_k": pass_at_k_curve(right, n) if right else {},
        "distinct_right": float(np.mean(distinct)) if distinct else float("nan"),
        "per_prompt_distinct": distinct,
        "distinct_right_share": float(sum(distinct) / sum(right)) if sum(right) else float("nan"),
    }
