"""Length shaping: DAPO's soft overlong punishment and overlong filtering, and two other published
length rewards (Kimi k1.5's group-relative length reward, the cosine length-scaled reward).

Legend: B responses, n groups (prompts), G responses per group. Lengths are counted in tokens (EOS
included). ``correct``: bool, True where the verifier accepted the answer.
"""

from __future__ import annotations

import math

import torch

from .validate import STAT_DTYPE, check_number, check_tensor

__all__ = ["cosine_length_reward", "kimi_length_reward", "overlong_filter_mask", "overlong_penalty"]


def overlong_penalty(
    lengths: torch.Tensor, max_length: int, buffer_length: int, penalty_factor: float = 1.0
) -> torch.Tensor:
    """DAPO soft overlong punishment (DAPO arXiv 2503.14476 §3.4, eq. 13), added to the task reward.

    ``0`` for ``L <= max_length - buffer_length``; ``-penalty_factor * (L - (max_length -
    buffer_length)) / buffer_length`` in the buffer; ``-penalty_factor`` beyond ``max_length`` (as
    the paper; verl leaves it unbounded there, OpenRLHF caps it like here). With ``buffer_length = 0``
    there is no ramp: ``-penalty_factor`` only beyond ``max_length``.

    verl: ``reward.reward_kwargs.overlong_buffer_cfg.len`` / ``.penalty_factor``, L_max =
    ``reward.reward_kwargs.max_resp_len`` (verl-recipe DAPO); TRL:
    ``get_soft_overlong_punishment(max_completion_len, soft_punish_cache)``.

    Args:
        lengths: [B] response lengths in tokens (int or float).
        max_length: L_max, tokens, >= 1.
        buffer_length: L_cache, tokens, in [0, max_length].
        penalty_factor: >= 0, the penalty at and beyond L_max.

    Returns:
        [B] penalties in [-penalty_factor, 0], in the default dtype (computed in float64).

    Raises:
        ValueError: naming ``max_length``, ``buffer_length`` (e.g. a buffer longer than the
            maximum length), ``penalty_factor`` (negative, or beyond the default dtype's range) or
            ``lengths`` (not a tensor of numbers, negative or NaN).
    """
    max_length = check_number(max_length, "max_length", low=1.0)
    buffer_length = check_number(buffer_length, "buffer_length")
    if not 0 <= buffer_length <= max_length:
        raise ValueError(f"buffer_length: must be in [0, max_length={max_length:g}], got {buffer_length:g}")
    out_dtype = torch.get_default_dtype()
    penalty_factor = check_number(penalty_factor, "penalty_factor", low=0.0, high=torch.finfo(out_dtype).max)
    lengths = _check_lengths(lengths).to(STAT_DTYPE)  # computed in float64, returned in the default dtype
    return _soft_overlong(lengths, max_length, buffer_length, penalty_factor).to(out_dtype)


def _soft_overlong(
    lengths: torch.Tensor,
    max_length: float | torch.Tensor,
    buffer_length: float | torch.Tensor,
    penalty_factor: float,
) -> torch.Tensor:
    """The formula of :func:`overlong_penalty` without its checks, in ``lengths``' dtype: the one
    place it is written. For a caller in rlviz that has checked its settings with
    :func:`overlong_penalty` and evaluates many at once (``rlviz.experiments.length.sweep``).

    Args:
        lengths: float tensor of response lengths in tokens, any shape.
        max_length: L_max, a number or a float tensor broadcastable against ``lengths`` (e.g. [K, 1]
            for K settings of [K, B] lengths), each >= 1.
        buffer_length: L_cache, the same, each in [0, its L_max].
        penalty_factor: >= 0.

    Returns:
        The penalties, ``lengths`` broadcast against the settings, in [-penalty_factor, 0].

    Raises:
        Nothing of its own: invalid settings give meaningless values (check them with
        :func:`overlong_penalty`).
    """
    start = max_length - buffer_length
    if not isinstance(buffer_length, torch.Tensor):
        if buffer_length == 0:  # no ramp: the full factor only beyond L_max
            return torch.where(
                lengths > max_length, -penalty_factor * torch.ones_like(lengths), torch.zeros_like(lengths)
            )
        return -penalty_factor * ((lengths - start) / buffer_length).clamp(0.0, 1.0)
    # several settings: a buffer of 0 divides by zero in the ramp, which the step replaces
    ramp = -penalty_factor * ((lengths - start) / buffer_length).clamp(0.0, 1.0)
    step = torch.where(lengths > max_length, -penalty_factor * torch.ones_like(ramp), torch.zeros_like(ramp))
    return torch.where(buffer_length == 0, step, ramp)


def overlong_filter_mask(truncated: torch.Tensor) -> torch.Tensor:
    """Overlong filtering (DAPO arXiv 2503.14476 §3.4): truncated responses leave the loss.

    TRL: ``mask_truncated_completions=True``. Multiply the response mask by the result.

    Args:
        truncated: [B] bool, True where the response hit the length limit without EOS.

    Returns:
        [B, 1] float, 0 for truncated rows and 1 otherwise.

    Raises:
        ValueError: ``truncated`` not a 1-D tensor of bools or numbers (NaN / inf included).
    """
    truncated = check_tensor(truncated, "truncated", floating=False)
    if truncated.dim() != 1:
        raise ValueError(f"truncated: expected shape [B], got {tuple(truncated.shape)}")
    if truncated.is_floating_point() and not bool(torch.isfinite(truncated).all()):
        raise ValueError("truncated: contains NaN or inf")
    return (~truncated.bool()).to(torch.get_default_dtype())[:, None]


def _check_lengths(lengths: torch.Tensor) -> torch.Tensor:
    """``lengths`` as a float tensor in its own dtype (integers: the default), finite and >= 0."""
    lengths = check_tensor(lengths, "lengths")
    if not bool(torch.isfinite(lengths).all()) or bool((lengths < 0).any()):
        raise ValueError("lengths: must be finite and >= 0")
    return lengths


def kimi_length_reward(lengths: torch.Tensor, correct: torch.Tensor) -> torch.Tensor:
    """Kimi k1.5 length reward, group-relative (Kimi Team, arXiv 2501.12599, §2.3.3 "Length Penalty").

    Within each group of G sampled responses to one prompt, with ``min_len`` / ``max_len`` the
    group's shortest and longest response::

        lambda_i = 0.5 - (len_i - min_len) / (max_len - min_len)      in [-0.5, 0.5]
        len_reward_i = lambda_i            if response i is correct
                       min(0, lambda_i)    otherwise

    The shortest right answer gains +0.5, the longest loses 0.5; a wrong answer is never rewarded
    for being short, only punished for being long. The report adds it to the task reward with a
    weight and warms it up. When all lengths in a group are equal ``max_len - min_len = 0``: rlviz
    gives the whole group 0 (nothing to compare), as Hugging Face open-r1's ``len_reward`` does.
    (open-r1 counts characters; rlviz counts tokens.)

    Args:
        lengths: [n, G] response lengths in tokens.
        correct: [n, G] bool (or 0/1), the verifier's verdict.

    Returns:
        [n, G] float length rewards in [-0.5, 0.5] (the default dtype; the group min / max and the
        ratios are computed in float64).

    Raises:
        ValueError: ``lengths`` not 2-D, empty, NaN / inf or negative; ``correct`` of another shape.
    """
    lengths = _check_lengths(lengths).to(STAT_DTYPE)  # the group statistics in float64
    if lengths.dim() != 2 or lengths.numel() == 0:
        raise ValueError(f"lengths: expected shape [n_groups, G] with n_groups, G >= 1, got {tuple(lengths.shape)}")
    correct = _check_correct(correct, lengths.shape)
    lo = lengths.min(dim=1, keepdim=True).values  # (n, 1)
    hi = lengths.max(dim=1, keepdim=True).values  # (n, 1)
    span = hi - lo  # (n, 1)
    lam = 0.5 - (lengths - lo) / span.clamp(min=1e-12)  # (n, G)
    lam = torch.where(span > 0, lam, torch.zeros_like(lam))  # all-equal group: 0
    return torch.where(correct, lam, lam.clamp(max=0.0)).to(torch.get_default_dtype())


def _check_correct(correct, shape) -> torch.Tensor:
    """``correct`` as a bool tensor of ``shape`` (bools or 0/1 numbers)."""
    correct = check_tensor(correct, "correct", floating=False)
    if correct.shape != shape:
        raise ValueError(f"correct: expected shape {tuple(shape)}, got {tuple(correct.shape)}")
    if correct.is_floating_point() and not bool(torch.isfinite(correct).all()):
        raise ValueError("correct: contains NaN or inf")
    return correct.bool()


def cosine_length_reward(
    lengths: torch.Tensor,
    correct: torch.Tensor,
    max_length: int,
    r0_correct: float = 2.0,
    rl_correct: float = 1.0,
    r0_wrong: float = -10.0,
    rl_wrong: float = 0.0,
    exceed_penalty: float = -10.0,
) -> torch.Tensor:
    """Cosine length-scaled reward (Yeo et al., "Demystifying Long Chain-of-Thought Reasoning in
    LLMs", arXiv 2502.03373, §4.2 "Active scaling of CoT length", the CosFn reward; section as
    numbered in the preprint and in its code's script names. It replaces the 0/1 task reward).

    ``CosFn(t, T, r0, rL) = rL + (r0 - rL) (1 + cos(t pi / T)) / 2`` goes from ``r0`` at length
    t = 0 to ``rL`` at t = T = ``max_length``. A right answer gets ``CosFn(t, T, r0_correct,
    rl_correct)`` (shorter is better), a wrong one ``CosFn(t, T, r0_wrong, rl_wrong)`` (longer is
    less bad: more thinking is encouraged when the answer is still wrong), and a response that
    reaches the length limit (t >= T) gets ``exceed_penalty`` whatever it says.

    Defaults are the paper's (r0_c, rL_c, r0_w, rL_w, r_e) = (2, 1, -10, 0, -10), as in its code
    (``math_rule_cosine_scale_*`` and ``math_rule_common_exceed_length``; that code applies r_e a
    small margin before the limit). Hugging Face open-r1's ``get_cosine_scaled_reward`` uses the
    same curve with defaults (0.5..1 right, -1..-0.5 wrong, T = 1000 characters) and no exceed
    penalty; TRL's ``trl.rewards`` has no cosine reward (it has ``get_soft_overlong_punishment``).

    Args:
        lengths: [B] response lengths in tokens.
        correct: [B] bool (or 0/1).
        max_length: T = L_max in tokens, >= 1.
        r0_correct, rl_correct: reward of a right answer at length 0 and at T.
        r0_wrong, rl_wrong: reward of a wrong answer at length 0 and at T.
        exceed_penalty: reward at and beyond T.

    Returns:
        [B] rewards in the default dtype (computed in float64).

    Raises:
        ValueError: ``max_length`` < 1; a reward value not a finite number within the default
            dtype's range (named); ``lengths`` NaN, inf or negative; ``correct`` of another shape.
    """
    max_length = check_number(max_length, "max_length", low=1.0)
    params = dict(
        r0_correct=r0_correct,
        rl_correct=rl_correct,
        r0_wrong=r0_wrong,
        rl_wrong=rl_wrong,
        exceed_penalty=exceed_penalty,
    )
    out_dtype = torch.get_default_dtype()
    big = torch.finfo(out_dtype).max
    for name, value in params.items():
        check_number(value, name, low=-big, high=big)
    lengths = _check_lengths(lengths).to(STAT_DTYPE)  # computed in float64, returned in the default dtype
    correct = _check_correct(correct, lengths.shape)
    half_cos = 0.5 * (1.0 + torch.cos(lengths.clamp(max=max_length) * math.pi / max_length))  # (B,) 1 -> 0
    right = rl_correct + (r0_correct - rl_correct) * half_cos
    wrong = rl_wrong + (r0_wrong - rl_wrong) * half_cos
    reward = torch.where(correct, right, wrong)
    reward = torch.where(lengths >= max_length, torch.full_like(reward, float(exceed_penalty)), reward)
    return reward.to(out_dtype)
