"""Per-step measurements that relate a step's responses to their length (issue 41, length claims).

Two questions of ``../shared/teaching.md``:

- claim 18 (Dr.GRPO, arXiv 2503.20783, section 3.1): GRPO's per-response 1/|o| gives long wrong answers
  smaller penalties per token, so wrong answers drift longer; :func:`outcome_lengths` splits a step's
  mean response length into the right and the wrong responses.
- claims 8 and 10 (GSPO, arXiv 2507.18071, eq. 7 and the motivation for its 1/|y|): the product of a response's token
  ratios, ``exp(sum_t log r_t)``, drifts further from 1 the longer the response (the noise of the token
  ratios accumulates), and GSPO's sequence ratio ``s = exp((1/|y|) sum_t log r_t)`` removes that
  growth. :func:`response_log_ratios` reduces a mini-batch's token log-ratios to one record per
  response, :func:`length_noise` summarises a step's records and :func:`noise_by_length` bins them.

Pure torch; the trainer (``rlviz.lm.trainer.Trainer.step``) calls these on its own batch.
"""

from __future__ import annotations

import math

import torch

__all__ = ["length_noise", "noise_by_length", "outcome_lengths", "response_log_ratios"]


def outcome_lengths(lengths: torch.Tensor, rewards: torch.Tensor) -> tuple[float, float]:
    """Mean response length of the right and of the wrong responses.

    Args:
        lengths: (N,) response lengths in tokens (EOS included, as ``RolloutBatch.response_lengths``).
        rewards: (N,) the task's accuracy reward; a response is right when its reward is >= 1 (as the
            trainer's ``pass_at_1`` and ``distinct_right`` count it), wrong otherwise.

    Returns:
        ``(right_mean, wrong_mean)`` in tokens; NaN for a side with no response (a step where every
        response is right, or every one wrong), as the trainer's other metrics of an empty set: a
        NaN is left out of the plots.

    Raises:
        ValueError: ``lengths`` and ``rewards`` are not 1-D of one size.
    """
    if lengths.dim() != 1 or rewards.shape != lengths.shape:
        raise ValueError(
            f"lengths: must be 1-D and match rewards, got {tuple(lengths.shape)} and {tuple(rewards.shape)}"
        )
    right = rewards >= 1.0
    lengths = lengths.double()

    def mean(sel: torch.Tensor) -> float:
        return float(lengths[sel].mean()) if bool(sel.any()) else math.nan

    return mean(right), mean(~right)


def response_log_ratios(log_ratio: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """One record per response of a mini-batch's token log-ratios.

    Args:
        log_ratio: (B, T) ``log pi_theta - log pi_old`` per response token.
        mask: (B, T) the loss mask (1 on the tokens that enter the loss, 0 on padding and on what a
            mask removed).

    Returns:
        (K, 3) float64, one row per response with at least one masked-in token: its token count
        ``|y|``, ``sum_t log r_t`` (the log of the product of its token ratios) and
        ``sum_t (log r_t)^2``. Responses with no token are dropped.

    Raises:
        ValueError: the shapes differ or are not 2-D.
    """
    if log_ratio.dim() != 2 or mask.shape != log_ratio.shape:
        raise ValueError(f"log_ratio: must be 2-D and match mask, got {tuple(log_ratio.shape)} and {tuple(mask.shape)}")
    m = (mask > 0).double()
    x = log_ratio.detach().double() * m
    out = torch.stack([m.sum(dim=1), x.sum(dim=1), (x * x).sum(dim=1)], dim=1)
    return out[out[:, 0] > 0]


def length_noise(records: torch.Tensor) -> dict[str, float]:
    """A step's token-ratio noise against length, from :func:`response_log_ratios` records.

    With ``S_i = sum_t log r_t`` and ``|y_i|`` over the records (one per response and update):

    - ``seq_log_ratio_var``: the population variance of ``S_i``, the log of the unnormalised
      product of token ratios (what GSPO's 1/|y| is there to tame: it grows with length);
    - ``seq_log_ratio_mean_var``: the population variance of ``S_i / |y_i|``, the log of GSPO's
      sequence ratio s_i (arXiv 2507.18071, eq. 7);
    - ``log_ratio_length_corr``: the Pearson correlation of ``|y_i|`` with ``|S_i|`` (> 0: the longer
      the response, the further its product of ratios from 1).

    Args:
        records: (K, 3) rows ``(|y|, S, sum of squares)``.

    Returns:
        the three metrics; NaN where they cannot be measured: no record (variances), fewer than two
        records or a constant length or ``|S|`` (the correlation).

    Raises:
        ValueError: ``records`` is not (K, 3).
    """
    if records.dim() != 2 or records.shape[1] != 3:
        raise ValueError(f"records: must be (K, 3), got {tuple(records.shape)}")
    out = {"seq_log_ratio_var": math.nan, "seq_log_ratio_mean_var": math.nan, "log_ratio_length_corr": math.nan}
    if records.shape[0] == 0:
        return out
    r = records.double()
    length, total = r[:, 0], r[:, 1]
    out["seq_log_ratio_var"] = float(total.var(unbiased=False))
    out["seq_log_ratio_mean_var"] = float((total / length).var(unbiased=False))
    if records.shape[0] >= 2:
        a, b = length - length.mean(), total.abs() - total.abs().mean()
        den = float((a * a).sum().sqrt() * (b * b).sum().sqrt())
        if den > 0:
            out["log_ratio_length_corr"] = float((a * b).sum()) / den
    return out


def noise_by_length(records: torch.Tensor, edges: list[int] | tuple[int, ...]) -> list[dict[str, float]]:
    """:func:`response_log_ratios` records binned by response length.

    Args:
        records: (K, 3) rows ``(|y|, S, sum of squares)``, pooled over any number of steps.
        edges: increasing bin edges in tokens; bin j holds ``edges[j] < |y| <= edges[j + 1]``.

    Returns:
        one dict per bin: ``lo`` / ``hi`` (its edges), ``responses`` (records), ``tokens``,
        ``token_log_ratio_var`` (population variance of log r_t over the bin's tokens: the per-token
        noise), ``seq_log_ratio_var`` (of ``S``) and ``seq_log_ratio_mean_var`` (of ``S / |y|``); NaN
        for an empty bin.

    Raises:
        ValueError: ``records`` is not (K, 3), or fewer than two edges, or edges not increasing.
    """
    if records.dim() != 2 or records.shape[1] != 3:
        raise ValueError(f"records: must be (K, 3), got {tuple(records.shape)}")
    if len(edges) < 2 or any(b <= a for a, b in zip(edges, edges[1:])):
        raise ValueError(f"edges: must be at least two increasing values, got {list(edges)}")
    r = records.double()
    rows = []
    for lo, hi in zip(edges, edges[1:]):
        sel = r[(r[:, 0] > lo) & (r[:, 0] <= hi)]
        row = {"lo": lo, "hi": hi, "responses": int(sel.shape[0]), "tokens": int(sel[:, 0].sum())}
        if sel.shape[0]:
            n = float(sel[:, 0].sum())
            mean = float(sel[:, 1].sum()) / n
            row["token_log_ratio_var"] = max(float(sel[:, 2].sum()) / n - mean * mean, 0.0)
            row["seq_log_ratio_var"] = float(sel[:, 1].var(unbiased=False))
            row["seq_log_ratio_mean_var"] = float((sel[:, 1] / sel[:, 0]).var(unbiased=False))
        else:
            row |= {"token_log_ratio_var": math.nan, "seq_log_ratio_var": math.nan, "seq_log_ratio_mean_var": math.nan}
        rows.append(row)
    return rows
