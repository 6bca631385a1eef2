"""TRL & verl: eleven common confusions, each answered by a computation of rlviz's own code.

One function (or two) per confusion, each returning plain data (a DataFrame or a small dataclass)
for ``pages/confusions.py``; no Streamlit here. Every number the page shows comes from these
functions, and they call the code that trains (``rlviz.core``: ``token_weights``, ``aggregate``,
``policy_loss``, ``gradient_weights``, ``token_states``, ``trust_band``, ``kl_estimate``,
``expected_advantage_mass``; ``rlviz.lm``: the ``Trainer``,
``sample_rollouts``, ``response_log_probs``).

1. :func:`aggregation_weights`: what each ``loss_agg_mode`` / TRL ``loss_type`` averages over.
2. :func:`microbatch_weights`: a global token-mean vs a token-mean per micro-batch.
3. :func:`ratio_by_update`: the importance ratio and clip fraction on every update of one step.
4. :func:`token_vs_sequence`: token ratios r_t vs GSPO's sequence ratio s, and what each clips.
5. :func:`sampler_trainer_gap`: log(π_train / π_rollout) of a bf16 sampler and a fp32 trainer.
6. :func:`kl_curves`, :func:`kl_expected_gradients`: k1 / k2 / k3, in the reward or in the loss.
7. :func:`difficulty_curve`: expected advantage mass per prompt with and without the std division.
8. :func:`clip_cases`, :func:`acting_bound`: which of ε_low, ε_high and the dual clip c acts.

From public reports (issue 43):

9. :func:`token_count_window`: a token-mean whose token count comes from another window than the
   optimizer step's (huggingface/trl#6024): the step's gradient is N_step / N_window of the intended.
10. :func:`sequence_weight_drift`, :func:`first_masked_length`, :func:`drift_curve`: a sequence
    importance weight is the product of its token ratios, so a small per-token drift compounds with
    length until the cap masks the response (huggingface/trl#5814, #5815).
11. :func:`gdpo_vs_grpo`, :func:`parse_components`, :func:`group_spread`: GDPO normalises each reward
    within its group before summing and whitens over the batch, GRPO normalises the sum per group,
    over several groups.

What each section of the page reads out of these (its question's state, the numbers of its reading, as
text) is built at the end of the module (``*_state``, ``*_reading``); the page formats no number itself.

Legend: B responses, T padded width, G group size, V vocabulary. Sources:
``shared/reference/algorithms.md`` (§2 aggregation, §4 clip, §5 KL, §6 Dr.GRPO, §8 GSPO) and the
papers cited in each function.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from rlviz.core.aggregation import LOSS_AGG_MODES, aggregate, token_weights
from rlviz.core.corrections import correction_weights, get_correction
from rlviz.core.estimators import estimate_advantages
from rlviz.core.frameworks import TRL_LOSS_TYPES
from rlviz.core.kl import SCHULMAN_ESTIMATORS, kl_estimate
from rlviz.core.objectives import ALGORITHMS, get_algorithm, gradient_weights, policy_loss, token_states, trust_band
from rlviz.core.sampling import expected_advantage_mass
from rlviz.experiments.weighting import MAX_LENGTH, no_negative_zero, parse_group, parse_numbers
from rlviz.numbering import response_number

__all__ = [
    "BOUNDS",
    "CLIP_ALGORITHM",
    "GDPO_CHOICES",
    "GDPO_PAIR",
    "MAX_GROUPS",
    "MAX_GROUP_SIZE",
    "REPORT_LENGTH",
    "KL_CHOICES",
    "KL_ROUTES",
    "MAX_TOKENS",
    "PG_ALGORITHM",
    "RATIO_PAIR",
    "RATIO_TOLERANCE",
    "SAMPLER_DTYPES",
    "TRL_LOSS_TYPES",
    "GapResult",
    "MicroBatchResult",
    "acting_bound",
    "check_lengths",
    "aggregation_weights",
    "averages_over",
    "clip_cases",
    "difficulty_curve",
    "drift_curve",
    "group_spread",
    "parse_components",
    "sequence_cap",
    "first_masked_length",
    "gdpo_vs_grpo",
    "sequence_weight_drift",
    "token_count_window",
    "kl_curves",
    "kl_expected_gradients",
    "mode_names",
    "mode_of_loss_type",
    "microbatch_weights",
    "parse_lengths",
    "parse_log_ratios",
    "ratio_by_update",
    "relative_mass",
    "sampler_trainer_gap",
    "token_vs_sequence",
    "which_ratio_moves",
    # what the page's sections read out (below)
    "KL_MARK",
    "aggregation_held",
    "aggregation_reading",
    "clip_reading",
    "clip_state",
    "difficulty_reading",
    "drift_reading",
    "gdpo_reading",
    "gdpo_state",
    "kl_reading",
    "microbatch_reading",
    "pct_text",
    "ratio_one_reading",
    "ratio_one_state",
    "sampler_metrics",
    "sampler_reading",
    "sampler_state",
    "sequence_reading",
    "window_reading",
]

_F64 = torch.float64

MAX_TOKENS = 64  # log-ratios typed for one response (section 4)
RATIO_PAIR = ("grpo", "gspo")  # a token-level and a sequence-level objective (checked by ratio_level)
PG_ALGORITHM = "grpo"  # the objective trained in section 3 and used for the "KL in the reward" push
CLIP_ALGORITHM = "ppo"  # the clip with ε_low, ε_high and the dual clip c (section 8)
BOUNDS = ("eps_low", "eps_high", "c", "none")  # what stops a token's gradient (section 8)
KL_ROUTES = ("loss", "reward")  # where the KL estimate goes (section 6)
SAMPLER_DTYPES = ("bfloat16", "float16", "float32")  # the sampler's precision (section 5)
# A ratio counts as "different from 1" when |log r| exceeds this (float32 log-probs are exact to
# ~1e-7 nats; the sampler-trainer gap of a bf16 sampler is of order 1e-2).
RATIO_TOLERANCE = 1e-6


def _mask(lengths) -> torch.Tensor:
    """[B, T] float64 right-padded response mask, T = max length."""
    lengths = [int(n) for n in lengths]
    return (torch.arange(max(lengths))[None, :] < torch.tensor(lengths)[:, None]).to(_F64)


def _agg_setting():
    """The registry's ``loss_agg_mode`` setting (its TRL and verl names)."""
    return next(iter(ALGORITHMS.values())).setting("loss_agg_mode")


# ------------------------------------------------------------------------------------------------ 1
def mode_of_loss_type(loss_type: str) -> str:
    """The aggregation mode of a TRL ``loss_type`` (``"dapo"`` -> ``"token-mean"``).

    Raises ``ValueError`` naming ``loss_type`` for a name without one."""
    for mode, names in TRL_LOSS_TYPES.items():
        if loss_type in names:
            return mode
    known = ", ".join(n for names in TRL_LOSS_TYPES.values() for n in names)
    raise ValueError(f"loss_type: {loss_type!r} is not one of {known}")


def mode_names() -> pd.DataFrame:
    """Who uses each aggregation mode: one row per mode of ``LOSS_AGG_MODES``.

    Columns: ``mode``, ``papers`` (titles of the registry entries whose default ``loss_agg_mode`` is
    this mode, read from ``ALGORITHMS`` on every call), ``trl`` (``"loss_type = dapo / bnpo"`` with
    the registry's TRL setting name, or ``""``), ``verl`` (``"actor.loss_agg_mode = token-mean"``).
    """
    setting = _agg_setting()
    rows = []
    for mode in LOSS_AGG_MODES:
        papers = [s.title for s in ALGORITHMS.values() if s.defaults.get("loss_agg_mode") == mode]
        trl = TRL_LOSS_TYPES.get(mode, ())
        rows.append(
            {
                "mode": mode,
                "papers": ", ".join(papers),
                "trl": f"{setting.trl} = {' / '.join(trl)}" if trl else "",
                "verl": f"{setting.verl} = {mode}",
            }
        )
    return pd.DataFrame(rows)


def parse_lengths(text: str) -> list[int]:
    """Response lengths from text (``"200, 10"``). Raises ``ValueError`` naming ``lengths``: empty,
    not whole numbers, a length outside [1, ``MAX_LENGTH``], too many responses."""
    return check_lengths(parse_numbers(text, "lengths", integer=True))


def check_lengths(lengths) -> list[int]:
    """``lengths`` as ints, each in [1, ``MAX_LENGTH``], at least one. Raises ``ValueError`` naming
    ``lengths``."""
    values = list(lengths)
    if not values:
        raise ValueError("lengths: need at least one response")
    for n in values:
        if isinstance(n, bool) or not float(n).is_integer() or not 1 <= n <= MAX_LENGTH:
            raise ValueError(f"lengths: each length must be a whole number in [1, {MAX_LENGTH}], got {n!r}")
    return [int(n) for n in values]


def aggregation_weights(lengths) -> pd.DataFrame:
    """Each response's per-token and total weight under every aggregation mode (``token_weights``).

    Args:
        lengths: B response lengths, each in [1, ``MAX_LENGTH``].

    Returns:
        One row per (mode, response): ``mode, response, length, token_weight`` (the weight of each
        of its tokens in ``loss = Σ w λ``), ``response_weight`` (= length × token_weight),
        ``share`` (its response_weight over the mode's total: the part of the update it controls).
        ``seq-mean-token-sum-norm`` uses the longest length as its constant.

    Raises:
        ValueError: naming ``lengths`` (empty, below 1, too long).
    """
    lengths = check_lengths(lengths)
    mask = _mask(lengths)
    rows = []
    for mode in LOSS_AGG_MODES:
        w = token_weights(mask, mode)  # (B, T)
        totals = w.sum(dim=1)  # (B,)
        for i, n in enumerate(lengths):
            rows.append(
                {
                    "mode": mode,
                    "response": i,
                    "length": n,
                    "token_weight": float(w[i, 0]),
                    "response_weight": float(totals[i]),
                    "share": float(totals[i] / totals.sum()),
                }
            )
    return pd.DataFrame(rows)


def averages_over(lengths, loss_type: str = "dapo") -> str:
    """What TRL's ``loss_type`` averages over for a group of ``lengths``, read off ``token_weights``:
    ``"tokens"`` (every real token has the same weight 1/N), ``"responses"`` (every response has the
    same total weight 1/B), ``"both"`` (all lengths equal) or ``"neither"``."""
    w = token_weights(_mask(lengths), mode_of_loss_type(loss_type))
    real = w[_mask(lengths) > 0]
    tokens = bool(torch.allclose(real, real[0].expand_as(real), rtol=1e-12, atol=0))
    totals = w.sum(dim=1)
    responses = bool(torch.allclose(totals, totals[0].expand_as(totals), rtol=1e-12, atol=0))
    return {(True, True): "both", (True, False): "tokens", (False, True): "responses"}.get(
        (tokens, responses), "neither"
    )


# ------------------------------------------------------------------------------------------------ 2
@dataclass
class MicroBatchResult:
    """A batch under a global token-mean and under a token-mean per micro-batch.

    Attributes:
        frame: one row per response: ``response, length, advantage, micro_batch``,
            ``token_global`` / ``token_micro`` (the weight of each of its tokens in the step's
            gradient), ``total_global`` / ``total_micro`` (length × that).
        loss_global: Σ_i,t λ / N over the whole batch (TRL ``dapo``; verl with the global token count).
        loss_micro: Σ_j (b_j / B) · token-mean of micro-batch j (TRL ``bnpo`` with gradient
            accumulation; verl's legacy ``dp_actor`` path).
        tokens: N, the real tokens of the batch; ``micro_tokens``: N_j of each micro-batch.
    """

    frame: pd.DataFrame
    loss_global: float
    loss_micro: float
    tokens: int
    micro_tokens: tuple[int, ...]


def microbatch_weights(lengths, advantages, micro_batches: int) -> MicroBatchResult:
    """One batch split into ``micro_batches`` equal, contiguous micro-batches (gradient accumulation).

    Per-token loss on-policy (r = 1): λ_i,t = −A_i (the clipped surrogate of PPO eq. 7 at r = 1), so
    d loss / d log π_i,t = −A_i · w_i,t and w is the gradient weight. Global: w = 1/N
    (``token_weights(mask, "token-mean")`` of the whole batch). Per micro-batch j with b_j responses
    and N_j tokens: each micro-batch's own token-mean scaled by b_j / B (verl ``dp_actor.py``,
    ``loss_scale_factor``; TRL ``bnpo`` divides by ``gradient_accumulation_steps`` = 1/k, the same for
    equal micro-batches), so w = (b_j / B) / N_j. Both go through ``rlviz.core.aggregation``.
    Sources: verl-project/verl#5625; huggingface/trl#6024; algorithms.md §2 and §14.8.

    Args:
        lengths: B response lengths; ``advantages``: B advantages.
        micro_batches: k >= 1, a divisor of B.

    Raises:
        ValueError: naming ``lengths``, ``advantages`` or ``micro_batches``.
    """
    lengths, advantages = parse_group(", ".join(str(n) for n in lengths), ", ".join(repr(float(a)) for a in advantages))
    B = len(lengths)
    if isinstance(micro_batches, bool) or not isinstance(micro_batches, int) or not 1 <= micro_batches <= B:
        raise ValueError(f"micro_batches: must be a whole number in [1, {B}] (the responses), got {micro_batches!r}")
    if B % micro_batches:
        raise ValueError(f"micro_batches: {micro_batches} does not divide the {B} responses into equal micro-batches")
    mask = _mask(lengths)  # (B, T)
    adv = torch.tensor(advantages, dtype=_F64)
    per_token = -adv[:, None] * mask  # (B, T) λ at r = 1
    w_global = token_weights(mask, "token-mean")  # (B, T)
    loss_global = float(aggregate(per_token, mask, "token-mean"))
    w_micro = torch.zeros_like(mask)
    loss_micro = 0.0
    micro_of = []
    n_tokens = []
    for j, rows in enumerate(torch.tensor_split(torch.arange(B), micro_batches)):
        scale = len(rows) / B  # b_j / B
        w_micro[rows] = scale * token_weights(mask[rows], "token-mean")
        loss_micro += scale * float(aggregate(per_token[rows], mask[rows], "token-mean"))
        micro_of += [j] * len(rows)
        n_tokens.append(int(mask[rows].sum()))
    frame = pd.DataFrame(
        {
            "response": range(B),
            "length": lengths,
            "advantage": advantages,
            "micro_batch": micro_of,
            "token_global": w_global[:, 0].tolist(),
            "token_micro": w_micro[:, 0].tolist(),
            "total_global": w_global.sum(1).tolist(),
            "total_micro": w_micro.sum(1).tolist(),
        }
    )
    return MicroBatchResult(
        no_negative_zero(frame), loss_global + 0.0, loss_micro + 0.0, int(mask.sum()), tuple(n_tokens)
    )


# ------------------------------------------------------------------------------------------------ 3
def ratio_by_update(
    mu: int = 2,
    mini_batches: int = 2,
    lr: float = 1e-4,
    seed: int = 0,
    prompts: int = 4,
    group_size: int = 4,
    algorithm: str = PG_ALGORITHM,
    model_dir: str | None = None,
    device: str | None = None,
) -> pd.DataFrame:
    """One RL step of the shipped tiny LM with μ passes × ``mini_batches`` optimizer steps, and the
    importance ratio r = π_θ / π_old and the clip fraction measured on each of those updates.

    The step is ``rlviz.lm.trainer.Trainer.step`` itself (rollout, group advantages, the trainer's
    ``old_log_prob``, μ × mini-batch updates with ``policy_loss``), read back from the trainer's
    record of each optimizer step (``Trainer.last_updates``). Loads its own copy of the policy
    (``load_policy``), so nothing is shared between callers. With μ = 1 and one mini-batch the only
    update is on-policy: π_old is the same weights, r = 1 exactly, and no clip can act (TRL
    ``num_iterations = 1``, verl ``ppo_epochs = 1`` with one mini-batch; huggingface/trl#3120,
    huggingface/trl#3757). Every later update sees a policy already moved, so r leaves 1.

    Args:
        mu: passes over the batch (TRL ``num_iterations``, verl ``ppo_epochs``), 1..8.
        mini_batches: optimizer steps per pass (TRL ``steps_per_generation``), 1..prompts × G.
        lr: AdamW learning rate, finite and > 0.
        seed, prompts, group_size: the run's generator seed, n prompts and G (the trainer's checks).
        algorithm: a registry objective; model_dir, device: as ``rlviz.lm.model.load_policy``.

    Returns:
        One row per optimizer step: ``update`` (1, 2, ...), ``epoch``, ``mini_batch``, ``tokens``,
        ``ratio_mean``, ``ratio_std`` (population), ``ratio_min``, ``ratio_max``, ``max_dev``
        (max |r − 1|), ``clip_fraction``, ``clip_fraction_low``, ``clip_fraction_high``.

    Raises:
        ValueError: naming ``mu``, ``mini_batches``, ``lr``, ``prompts`` / ``prompts_per_step``,
            ``group_size``, ``algorithm`` (``name``), ``model_dir`` or ``device``.
    """
    from rlviz.lm.model import load_policy
    from rlviz.lm.trainer import TrainConfig, Trainer

    if isinstance(mu, bool) or not isinstance(mu, int) or not 1 <= mu <= 8:
        raise ValueError(f"mu: must be a whole number in [1, 8], got {mu!r}")
    get_algorithm(algorithm)
    config = TrainConfig(
        algorithm=algorithm,
        prompts_per_step=prompts,
        group_size=group_size,
        mu=mu,
        mini_batches=mini_batches,
        lr=lr,
        seed=int(seed),
    )
    config.validate()  # before the model is loaded
    model, tokenizer = load_policy(model_dir, device)
    trainer = Trainer(config, model, tokenizer)
    trainer.step()
    records = [dict(r, max_dev=max(r["ratio_max"] - 1.0, 1.0 - r["ratio_min"])) for r in trainer.last_updates]
    frame = pd.DataFrame(records)
    if len(frame):
        frame.insert(2, "mini_batch", frame.groupby("epoch").cumcount() + 1)
    return no_negative_zero(frame)


# ------------------------------------------------------------------------------------------------ 4
def parse_log_ratios(text: str) -> list[float]:
    """Token log-ratios log r_t = log π − log π_old of one response, from text (``"0.02, -0.3"``).

    Raises ``ValueError`` naming ``log_ratios``: empty, not numbers, more than ``MAX_TOKENS``,
    or |log r| > 5."""
    values = parse_numbers(text, "log_ratios")
    if len(values) > MAX_TOKENS:
        raise ValueError(f"log_ratios: at most {MAX_TOKENS} tokens, got {len(values)}")
    for v in values:
        if abs(v) > 5:
            raise ValueError(f"log_ratios: each |log r| must be at most 5, got {v:g}")
    return values


def token_vs_sequence(log_ratios, advantage: float = 1.0, pair=RATIO_PAIR) -> pd.DataFrame:
    """One response's tokens under a token-ratio and a sequence-ratio objective (registry defaults).

    The token-level objective clips each r_t = exp(log r_t) on its own; the sequence-level one clips
    s = exp(mean_t log r_t) (GSPO arXiv 2507.18071 eq. 7, the geometric mean of the r_t), shared by
    every token. ``policy_loss`` / ``gradient_weights`` / ``token_states`` of each, one response (B = 1).

    Args:
        log_ratios: L token log-ratios (see :func:`parse_log_ratios`).
        advantage: the response's advantage A, finite and non-zero.
        pair: two registry names; the first must have ``ratio_level == "token"``, the second
            ``"sequence"``.

    Returns:
        One row per (algorithm, position): ``algorithm, ratio_level, position, log_ratio,
        token_ratio, ratio_used`` (r_t or s), ``state`` (active / clipped ...), ``push``
        (−d loss / d log π), ``band_low, band_high`` (``trust_band``).

    Raises:
        ValueError: naming ``log_ratios``, ``advantage`` or ``pair``.
    """
    values = parse_log_ratios(", ".join(repr(float(v)) for v in log_ratios))
    if not (math.isfinite(advantage) and advantage != 0):
        raise ValueError(f"advantage: must be a finite non-zero number, got {advantage}")
    levels = tuple(get_algorithm(n).ratio_level for n in pair)
    if levels != ("token", "sequence"):
        raise ValueError(f"pair: need a token-level then a sequence-level objective, got levels {levels}")
    lr = torch.tensor([values], dtype=_F64)  # (1, L)
    old = torch.full_like(lr, math.log(0.5))
    mask = torch.ones_like(lr)
    adv = torch.tensor([float(advantage)], dtype=_F64)
    rows = []
    for name in pair:
        grad, out = gradient_weights(name, old + lr, old, adv, mask, beta=0.0)
        states = token_states(name, out, mask)
        low, high = trust_band(name)
        for t, v in enumerate(values):
            rows.append(
                {
                    "algorithm": name,
                    "ratio_level": ALGORITHMS[name].ratio_level,
                    "position": t,
                    "log_ratio": v,
                    "token_ratio": math.exp(v),
                    "ratio_used": float(out.ratio[0, t]),
                    "state": str(states[0, t]),
                    "push": -float(grad[0, t]),
                    "band_low": low,
                    "band_high": high,
                }
            )
    return no_negative_zero(pd.DataFrame(rows))


# ------------------------------------------------------------------------------------------------ 5
@dataclass
class GapResult:
    """The sampler's and the trainer's log-probs of the same sampled tokens.

    Attributes:
        tokens: one row per real response token: ``response, position, token``,
            ``log_gap`` = log π_train − log π_rollout (nats), ``is_ratio`` = exp(log_gap),
            ``tis_weight`` = min(is_ratio, C), ``ppo_log_ratio`` = log π_θ − log π_old at the step's
            first update (the trainer against itself).
        sequences: one row per response: ``response, length, log_gap_sum``, ``seq_ratio`` =
            exp(Σ_t log_gap) (the sequence-level IS ratio), ``seq_tis`` = min(seq_ratio, C).
        cap: C; ``sampler_dtype``: the sampler's precision.
    """

    tokens: pd.DataFrame
    sequences: pd.DataFrame
    cap: float
    sampler_dtype: str

    def summary(self) -> dict[str, float]:
        """``tokens``, ``gap_std``, ``gap_max`` (max |log_gap|), ``ppo_max`` (max |PPO log-ratio|),
        ``above_cap`` (share of tokens with is_ratio > C), ``tis_mean`` (mean truncated weight),
        ``seq_min`` / ``seq_max`` (sequence IS ratios)."""
        g = self.tokens["log_gap"].to_numpy()
        return {
            "tokens": float(len(g)),
            "gap_std": float(np.std(g)) if len(g) else 0.0,
            "gap_max": float(np.abs(g).max()) if len(g) else 0.0,
            "ppo_max": float(self.tokens["ppo_log_ratio"].abs().max()) if len(g) else 0.0,
            "above_cap": float((self.tokens["is_ratio"] > self.cap).mean()) if len(g) else 0.0,
            "tis_mean": float(self.tokens["tis_weight"].mean()) if len(g) else 0.0,
            "seq_min": float(self.sequences["seq_ratio"].min()) if len(g) else 1.0,
            "seq_max": float(self.sequences["seq_ratio"].max()) if len(g) else 1.0,
        }


def sampler_trainer_gap(
    seed: int = 0,
    prompts: int = 4,
    group_size: int = 4,
    sampler_dtype: str = "bfloat16",
    cap: float = 2.0,
    model_dir: str | None = None,
    device: str | None = None,
) -> GapResult:
    """Sample with the policy's weights cast to ``sampler_dtype`` (as an inference engine serving a
    float32 trainer does; ``sample_rollouts(sampler_dtype=...)``, verl ``rollout.dtype``), then score
    the same tokens with the float32 trainer (``response_log_probs``).

    The per-token importance ratio π_train / π_rollout measures only the numerical gap between the
    two engines: the weights are the same. Truncated importance sampling multiplies each token's
    policy-gradient term by sg[min(ratio, C)] (verl-project/verl#2953, huggingface/trl#3867). The
    PPO ratio of the step's first update compares the trainer with itself (π_θ / π_old, both
    float32, the same weights) and is 1 whatever the sampler did.

    Args:
        seed, prompts (1..16), group_size (1..16): the sample.
        sampler_dtype: one of ``SAMPLER_DTYPES``; ``"float32"`` samples with the trainer's weights.
        cap: C >= 1, finite.
        model_dir, device: as ``rlviz.lm.model.load_policy``.

    Raises:
        ValueError: naming ``sampler_dtype``, ``cap``, ``prompts``, ``group_size``, ``model_dir`` or
            ``device``.
    """
    from rlviz.lm.model import load_policy
    from rlviz.lm.rollout import response_log_probs, sample_rollouts
    from rlviz.lm.task import sample_problems
    from rlviz.lm.trainer import ROLLOUT_DTYPES

    if sampler_dtype not in SAMPLER_DTYPES:
        raise ValueError(f"sampler_dtype: {sampler_dtype!r} is not one of {', '.join(SAMPLER_DTYPES)}")
    if isinstance(cap, bool) or not isinstance(cap, (int, float)) or not (math.isfinite(cap) and cap >= 1):
        raise ValueError(f"cap: must be a finite number >= 1, got {cap!r}")
    for name, value in (("prompts", prompts), ("group_size", group_size)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 16:
            raise ValueError(f"{name}: must be a whole number in [1, 16], got {value!r}")
    model, tokenizer = load_policy(model_dir, device)
    gen = torch.Generator().manual_seed(int(seed))
    problems = sample_problems(prompts, gen)
    batch = sample_rollouts(
        model, tokenizer, problems, group_size, 16, 1.0, gen, sampler_dtype=ROLLOUT_DTYPES[sampler_dtype]
    )
    args = (batch.input_ids, batch.attention_mask, batch.position_ids, batch.prompt_width, 1.0)
    with torch.no_grad():
        old, _ = response_log_probs(model, *args)  # (B, T) the trainer's old_log_prob
    model.train()
    current, _ = response_log_probs(model, *args)  # (B, T) the first update's forward (grad on)
    model.eval()
    mask = batch.response_mask > 0  # (B, T)
    gap = (old - batch.rollout_log_prob).double()  # (B, T)
    ppo = (current.detach() - old).double()  # (B, T)
    ratio = torch.exp(gap)
    tis = ratio.clamp(max=float(cap))
    rows = []
    for i in range(mask.shape[0]):
        for t in range(int(mask[i].sum())):
            rows.append(
                {
                    "response": i,
                    "position": t,
                    "token": batch.tokens[i][t],
                    "log_gap": float(gap[i, t]),
                    "is_ratio": float(ratio[i, t]),
                    "tis_weight": float(tis[i, t]),
                    "ppo_log_ratio": float(ppo[i, t]),
                }
            )
    seq_sum = (gap * mask).sum(-1)  # (B,)
    seq_ratio = torch.exp(seq_sum)
    sequences = pd.DataFrame(
        {
            "response": range(mask.shape[0]),
            "length": mask.sum(-1).cpu().tolist(),
            "log_gap_sum": seq_sum.cpu().tolist(),
            "seq_ratio": seq_ratio.cpu().tolist(),
            "seq_tis": seq_ratio.clamp(max=float(cap)).cpu().tolist(),
        }
    )
    return GapResult(no_negative_zero(pd.DataFrame(rows)), no_negative_zero(sequences), float(cap), sampler_dtype)


def which_ratio_moves(gap_max: float, ppo_max: float) -> str:
    """Which ratio differs from 1 (|log r| > ``RATIO_TOLERANCE``) before any update: ``"sampler"``
    (π_train / π_rollout), ``"ppo"`` (π_θ / π_old), ``"both"`` or ``"neither"``."""
    gap, ppo = gap_max > RATIO_TOLERANCE, ppo_max > RATIO_TOLERANCE
    return {(True, True): "both", (True, False): "sampler", (False, True): "ppo"}.get((gap, ppo), "neither")


# ------------------------------------------------------------------------------------------------ 6
def kl_curves(x_min: float = -1.5, x_max: float = 1.5, points: int = 121, beta: float = 1.0) -> pd.DataFrame:
    """Value and gradient of k1, k2, k3 against x = log π − log π_ref, for one token.

    ``value`` = ``kl_estimate(x, 0, e)``; ``grad_loss`` = β · d k_e / d log π by autograd (KL in the
    loss: verl ``use_kl_loss``, TRL ``beta``); ``grad_reward`` = the push on the same token when
    −β · k_e(x) is put into its reward instead and reaches the loss only as the (detached) advantage
    of a policy-gradient term: d loss / d log π of ``policy_loss(PG_ALGORITHM)`` at r = 1 with
    A = −β k_e(x) (verl ``use_kl_in_reward``), which is β · k_e(x). Schulman, "Approximating KL
    divergence" (2020); DeepSeekMath arXiv 2402.03300 eq. 4 (k3).

    Returns one row per (estimator, x): ``estimator, x, value, grad_loss, grad_reward``.
    Raises ``ValueError`` naming ``x_max`` (not above ``x_min``), ``points`` (< 2) or ``beta`` (< 0).
    """
    if not (math.isfinite(x_min) and math.isfinite(x_max) and x_max > x_min):
        raise ValueError(f"x_max: must be a finite number above x_min = {x_min}, got {x_max}")
    if points < 2:
        raise ValueError(f"points: need at least 2, got {points}")
    if not (math.isfinite(beta) and beta >= 0):
        raise ValueError(f"beta: must be a finite number >= 0, got {beta}")
    x = torch.linspace(x_min, x_max, points, dtype=_F64)[:, None]  # (P, 1): P tokens of one row each
    ref = torch.zeros_like(x)
    mask = torch.ones_like(x)
    rows = []
    for e in SCHULMAN_ESTIMATORS:
        lp = x.clone().requires_grad_(True)
        value = kl_estimate(lp, ref, e)  # (P, 1)
        (grad,) = torch.autograd.grad(value.sum(), lp)
        adv = (-beta * value.detach())[:, 0]  # (P,) the KL penalty as each token's advantage
        # seq-mean-token-sum: each one-token row keeps weight 1/P; times P below -> per-token push
        push, _ = gradient_weights(PG_ALGORITHM, x, x, adv, mask, loss_agg_mode="seq-mean-token-sum", beta=0.0)
        for k in range(len(x)):
            rows.append(
                {
                    "estimator": e,
                    "x": float(x[k, 0]),
                    "value": float(value[k, 0].detach()),
                    "grad_loss": beta * float(grad[k, 0]),
                    "grad_reward": float(push[k, 0]) * len(x),
                }
            )
    return no_negative_zero(pd.DataFrame(rows))


def kl_expected_gradients(distance: float = 0.5, vocab: int = 6, seed: int = 0) -> pd.DataFrame:
    """Expected gradient of each estimator, in the loss and in the reward, against the true gradient
    of KL(π ‖ π_ref), exactly (a sum over a small vocabulary, no sampling).

    π = softmax(θ) and π_ref = softmax(θ_ref) over V tokens with θ = θ_ref + distance · z (z a
    standard normal draw from ``seed``). Tokens are sampled from π (on-policy). For each estimator e:
    in the loss, E_y~π[∇_θ k_e(y)] (the sampled tokens fixed, π's weights detached); in the reward,
    E_y~π[sg[k_e(y)] ∇_θ log π(y)] (a REINFORCE term). Each against ∇_θ KL(π ‖ π_ref) by autograd.
    ``kl_estimate`` gives every k_e. Sources: Schulman (2020); huggingface/trl#4967 (k1 in the reward
    vs k3 in the loss); the k3 discussion in verl-project/verl#2953.

    Returns:
        One row per (route, estimator): ``route`` (``"loss"`` / ``"reward"``), ``estimator``,
        ``rel_error`` = ‖g − ∇KL‖ / ‖∇KL‖ (0 = exact in expectation), ``norm_ratio`` = ‖g‖ / ‖∇KL‖,
        ``expected_value`` = E_y~π[k_e(y)], ``kl`` = KL(π ‖ π_ref).

    Raises:
        ValueError: naming ``distance`` (not in (0, 5]) or ``vocab`` (not in [2, 64]).
    """
    if not (math.isfinite(distance) and 0 < distance <= 5):
        raise ValueError(f"distance: must be in (0, 5], got {distance}")
    if isinstance(vocab, bool) or not isinstance(vocab, int) or not 2 <= vocab <= 64:
        raise ValueError(f"vocab: must be a whole number in [2, 64], got {vocab!r}")
    gen = torch.Generator().manual_seed(int(seed))
    theta_ref = torch.randn(vocab, generator=gen, dtype=_F64)  # (V,)
    theta0 = theta_ref + distance * torch.randn(vocab, generator=gen, dtype=_F64)
    log_ref = torch.log_softmax(theta_ref, -1)

    def grad_of(fn) -> torch.Tensor:
        theta = theta0.clone().requires_grad_(True)
        (g,) = torch.autograd.grad(fn(torch.log_softmax(theta, -1)), theta)
        return g  # (V,)

    true = grad_of(lambda lp: (lp.exp() * (lp - log_ref)).sum())
    lp0 = torch.log_softmax(theta0, -1)  # (V,)
    kl = float((lp0.exp() * (lp0 - log_ref)).sum())
    rows = []
    for route in KL_ROUTES:
        for e in SCHULMAN_ESTIMATORS:
            if route == "loss":
                g = grad_of(lambda lp, e=e: (lp.exp().detach() * kl_estimate(lp, log_ref, e)).sum())
            else:
                g = grad_of(lambda lp, e=e: (lp.exp().detach() * kl_estimate(lp, log_ref, e).detach() * lp).sum())
            rows.append(
                {
                    "route": route,
                    "estimator": e,
                    "rel_error": float((g - true).norm() / true.norm()),
                    "norm_ratio": float(g.norm() / true.norm()),
                    "expected_value": float((lp0.exp() * kl_estimate(lp0, log_ref, e)).sum()),
                    "kl": kl,
                }
            )
    return no_negative_zero(pd.DataFrame(rows))


# ------------------------------------------------------------------------------------------------ 7
def difficulty_curve(group_size: int = 8, points: int = 99) -> pd.DataFrame:
    """Expected advantage mass E_k[Σ_i |A_i|] of one prompt against its pass rate p, with the group's
    std division (GRPO, TRL ``scale_rewards="group"``, verl ``norm_adv_by_std_in_grpo=True``) and
    without it (Dr.GRPO, ``"none"`` / ``False``): ``rlviz.core.sampling.expected_advantage_mass``.

    Returns one row per p in (0, 1) (``points`` evenly spaced, plus 0.5): ``p, mass_group,
    mass_none``, and ``rel_group`` / ``rel_none``: each divided by its value at p = 0.5 (how much a
    prompt weighs relative to one solved half the time). Dr.GRPO arXiv 2503.20783 §3.1.
    Raises ``ValueError`` naming ``group_size`` (< 2) or ``points`` (< 3).
    """
    if points < 3:
        raise ValueError(f"points: need at least 3, got {points}")
    p = torch.linspace(0, 1, points + 2, dtype=_F64)[1:-1]
    p = torch.unique(torch.cat([p, torch.tensor([0.5], dtype=_F64)]))  # sorted, 0.5 included
    group = expected_advantage_mass(p, group_size, "group")
    none = expected_advantage_mass(p, group_size, "none")
    half = (p - 0.5).abs().argmin()
    return pd.DataFrame(
        {
            "p": p.tolist(),
            "mass_group": group.tolist(),
            "mass_none": none.tolist(),
            "rel_group": (group / group[half]).tolist(),
            "rel_none": (none / none[half]).tolist(),
        }
    )


def relative_mass(p: float, group_size: int, scale_rewards: str) -> float:
    """E Σ|A| of a prompt of pass rate ``p`` over that of a prompt with p = 0.5
    (``expected_advantage_mass``). Raises ``ValueError`` as it (naming ``pass_rate``, ``group_size``)."""
    mass = expected_advantage_mass(torch.tensor([float(p), 0.5], dtype=_F64), group_size, scale_rewards)
    return float(mass[0] / mass[1])


# ------------------------------------------------------------------------------------------------ 8
def acting_bound(
    ratio: float, advantage: float, epsilon_low: float, epsilon_high: float, dual_clip_c: float | None
) -> str:
    """Which setting stops the gradient of one token with ``ratio`` and ``advantage`` under PPO's clip
    (``policy_loss(CLIP_ALGORITHM)``'s own flags): ``"eps_low"`` (A < 0, r < 1 − ε_low), ``"eps_high"``
    (A > 0, r > 1 + ε_high), ``"c"`` (the dual clip: A < 0, r > c) or ``"none"`` (the gradient flows).

    Raises ``ValueError`` naming ``ratio`` (not > 0), ``advantage`` (zero) or a setting
    (``resolve_settings``). PPO arXiv 1707.06347 eq. 7; dual clip arXiv 1912.09729."""
    if not (math.isfinite(ratio) and ratio > 0):
        raise ValueError(f"ratio: must be a finite number > 0, got {ratio}")
    if not (math.isfinite(advantage) and advantage != 0):
        raise ValueError(f"advantage: must be a finite non-zero number, got {advantage}")
    lp = torch.tensor([[math.log(ratio)]], dtype=_F64)
    out = policy_loss(
        CLIP_ALGORITHM,
        lp,
        torch.zeros_like(lp),
        torch.tensor([float(advantage)], dtype=_F64),
        torch.ones_like(lp),
        epsilon_low=epsilon_low,
        epsilon_high=epsilon_high,
        dual_clip_c=dual_clip_c,
    )
    if out.clip_fraction_dual > 0:
        return "c"
    if out.clip_fraction_low > 0:
        return "eps_low"
    if out.clip_fraction_high > 0:
        return "eps_high"
    return "none"


def clip_cases(
    epsilon_low: float = 0.2,
    epsilon_high: float = 0.28,
    dual_clip_c: float | None = 3.0,
    r_max: float | None = None,
    points: int = 121,
) -> pd.DataFrame:
    """PPO's clip for A = +1 and A = −1 over a range of ratios: the push −d loss / d log π
    (``gradient_weights``) and which bound acts (:func:`acting_bound`).

    Args:
        epsilon_low, epsilon_high: offsets from 1 (TRL ``epsilon`` / ``epsilon_high``, verl
            ``clip_ratio_low`` / ``clip_ratio_high``).
        dual_clip_c: c > 1 or ``None`` (off) (TRL ``delta``, verl ``clip_ratio_c``).
        r_max: the largest ratio drawn; ``None``: max(2.5, c + 1).
        points: ratios per sign, evenly spaced in (0, r_max].

    Returns one row per (sign, ratio): ``advantage, ratio, push, bound``.
    Raises ``ValueError`` naming the setting (``resolve_settings``), ``r_max`` or ``points``.
    """
    trust_band(CLIP_ALGORITHM, epsilon_low=epsilon_low, epsilon_high=epsilon_high, dual_clip_c=dual_clip_c)
    if r_max is None:
        r_max = max(2.5, (dual_clip_c or 0.0) + 1.0)
    if not (math.isfinite(r_max) and r_max > 0):
        raise ValueError(f"r_max: must be a finite number > 0, got {r_max}")
    if points < 2:
        raise ValueError(f"points: need at least 2, got {points}")
    ratios = np.linspace(r_max / points, r_max, points)
    rows = []
    for sign in (1.0, -1.0):
        lp = torch.tensor(np.log(ratios), dtype=_F64)[:, None]  # (P, 1)
        grad, _ = gradient_weights(
            CLIP_ALGORITHM,
            lp,
            torch.zeros_like(lp),
            torch.full((len(ratios),), sign, dtype=_F64),
            torch.ones_like(lp),
            epsilon_low=epsilon_low,
            epsilon_high=epsilon_high,
            dual_clip_c=dual_clip_c,
            loss_agg_mode="seq-mean-token-sum",
        )
        for k, r in enumerate(ratios):
            rows.append(
                {
                    "advantage": sign,
                    "ratio": float(r),
                    "push": -float(grad[k, 0]) * len(ratios),  # one token's own push (undo the 1/P)
                    "bound": acting_bound(float(r), sign, epsilon_low, epsilon_high, dual_clip_c),
                }
            )
    return no_negative_zero(pd.DataFrame(rows))


# ------------------------------------------------------------------------------------------------
# Predict, then reveal: the answer and the text fields of each question, from the page's ``state``
# (``rlviz.teach.predict.PREDICTIONS["confusions"]`` wraps them). Every answer is one of the
# functions above, evaluated at the page's current settings.
# ------------------------------------------------------------------------------------------------
def _g(x: float) -> str:
    return f"{x:.4g}"


def answer_aggregation(state) -> str:
    """state ``{"lengths": (L_1, ...)}``: what TRL's ``loss_type="dapo"`` averages over."""
    return averages_over(state["lengths"], "dapo")


def fields_aggregation(state) -> dict[str, str]:
    lengths = [int(n) for n in state["lengths"]]
    mode = mode_of_loss_type("dapo")
    w = token_weights(_mask(lengths), mode)
    long_i = max(range(len(lengths)), key=lambda i: lengths[i])
    short_i = min(range(len(lengths)), key=lambda i: lengths[i])
    smtm = token_weights(_mask(lengths), mode_of_loss_type("grpo"))
    return {
        "lengths": ", ".join(map(str, lengths)),
        "mode": mode,
        "N": str(sum(lengths)),
        "B": str(len(lengths)),
        "w": _g(float(w[long_i, 0])),
        "long": str(lengths[long_i]),
        "short": str(lengths[short_i]),
        "long_share": f"{float(w[long_i].sum() / w.sum()):.1%}",
        "w_short_grpo": _g(float(smtm[short_i, 0])),
        "w_long_grpo": _g(float(smtm[long_i, 0])),
    }


def _micro(state) -> MicroBatchResult:
    return microbatch_weights(state["lengths"], state["advantages"], int(state["micro_batches"]))


def answer_microbatch(state) -> float:
    """state ``{"lengths", "advantages", "micro_batches"}``: how many times its global weight one
    token of the last response gets when each micro-batch takes its own token-mean."""
    row = _micro(state).frame.iloc[-1]
    return float(row.token_micro / row.token_global)


def fields_microbatch(state) -> dict[str, str]:
    result = _micro(state)
    row = result.frame.iloc[-1]
    k = int(state["micro_batches"])
    return {
        "k": str(k),
        "last": str(response_number(int(row.response))),
        "N": str(result.tokens),
        "Nj": str(result.micro_tokens[int(row.micro_batch)]),
        "bj": str(len(result.frame) // k),
        "B": str(len(result.frame)),
        "global": _g(float(row.token_global)),
        "micro": _g(float(row.token_micro)),
    }


def answer_ratio_one(state) -> str:
    """state ``{"mu", "mini_batches", "clip": (clip fraction of each update), "dev": (max |r-1| of
    each)}`` (from :func:`ratio_by_update`): ``"acts"`` if the clip acted on any update, else ``"never"``."""
    return "acts" if any(c > 0 for c in state["clip"]) else "never"


def fields_ratio_one(state) -> dict[str, str]:
    clips, devs = list(state["clip"]), list(state["dev"])
    return {
        "mu": str(int(state["mu"])),
        "mb": str(int(state["mini_batches"])),
        "n": str(len(clips)),
        "clips": " · ".join(f"{c:.1%}" for c in clips),
        "devs": " · ".join(f"{d:.3g}" for d in devs),
        "first_dev": f"{devs[0]:.3g}" if devs else "0",
    }


def _sequence_counts(state) -> tuple[pd.DataFrame, int, int]:
    df = token_vs_sequence(state["log_ratios"], float(state["advantage"]))
    token, seq = RATIO_PAIR
    n_tok = int((df[(df.algorithm == token)].state == "clipped").sum())
    n_seq = int((df[(df.algorithm == seq)].state == "clipped").sum())
    return df, n_tok, n_seq


def answer_sequence(state) -> str:
    """state ``{"log_ratios", "advantage"}``: how many tokens the sequence-ratio objective clips:
    ``"all"``, ``"none"`` or ``"some"``."""
    df, _, n_seq = _sequence_counts(state)
    L = int((df.algorithm == RATIO_PAIR[1]).sum())
    return "all" if n_seq == L else "none" if n_seq == 0 else "some"


def fields_sequence(state) -> dict[str, str]:
    df, n_tok, _ = _sequence_counts(state)
    token, seq = RATIO_PAIR
    s_rows = df[df.algorithm == seq]
    return {
        "token": ALGORITHMS[token].title,
        "seq": ALGORITHMS[seq].title,
        "L": str(len(s_rows)),
        "n_tok": str(n_tok),
        "s": f"{float(s_rows.ratio_used.iloc[0]):.4f}",
        "seq_low": f"{float(s_rows.band_low.iloc[0]):.4f}",
        "seq_high": f"{float(s_rows.band_high.iloc[0]):.4f}",
        "tok_low": f"{float(df[df.algorithm == token].band_low.iloc[0]):g}",
        "tok_high": f"{float(df[df.algorithm == token].band_high.iloc[0]):g}",
        "sign": "> 0" if float(state["advantage"]) > 0 else "< 0",
    }


def answer_sampler(state) -> str:
    """state ``{"dtype", "gap_max", "ppo_max", ...}`` (from :meth:`GapResult.summary`): which ratio
    differs from 1 before any update (:func:`which_ratio_moves`)."""
    return which_ratio_moves(float(state["gap_max"]), float(state["ppo_max"]))


def fields_sampler(state) -> dict[str, str]:
    return {
        "dtype": str(state["dtype"]),
        "gap_max": f"{float(state['gap_max']):.3g}",
        "gap_std": f"{float(state['gap_std']):.3g}",
        "ppo_max": f"{float(state['ppo_max']):.3g}",
    }


KL_CHOICES = ("k1_loss", "k3_loss", "k1_reward")  # the three routes the KL question offers


def answer_kl(state) -> str:
    """state ``{"distance", "seed"}``: of ``KL_CHOICES``, the route whose expected gradient is
    closest to ∇ KL(π ‖ π_ref) (:func:`kl_expected_gradients`)."""
    df = kl_expected_gradients(float(state["distance"]), seed=int(state["seed"]))
    errors = {f"{r.estimator}_{r.route}": r.rel_error for r in df.itertuples()}
    return min(KL_CHOICES, key=lambda c: errors[c])


def fields_kl(state) -> dict[str, str]:
    df = kl_expected_gradients(float(state["distance"]), seed=int(state["seed"]))
    errors = {f"{r.estimator}_{r.route}": r.rel_error for r in df.itertuples()}
    return {f"err_{k}": f"{v:.3f}" for k, v in errors.items()} | {"kl": f"{float(df.kl.iloc[0]):.4f}"}


def answer_difficulty(state) -> float:
    """state ``{"group_size", "p"}``: with the std division, a prompt of pass rate p's expected
    advantage mass over that of a prompt with p = 0.5 (:func:`relative_mass`)."""
    return relative_mass(float(state["p"]), int(state["group_size"]), "group")


def fields_difficulty(state) -> dict[str, str]:
    p, G = float(state["p"]), int(state["group_size"])
    return {
        "p": f"{p:g}",
        "G": str(G),
        "none": f"{relative_mass(p, G, 'none'):.3f}",
        "group": f"{relative_mass(p, G, 'group'):.3f}",
    }


def answer_clip(state) -> str:
    """state ``{"epsilon_low", "epsilon_high", "dual_clip_c", "ratio", "advantage"}``: which setting
    stops the token's gradient (:func:`acting_bound`)."""
    return acting_bound(
        float(state["ratio"]),
        float(state["advantage"]),
        float(state["epsilon_low"]),
        float(state["epsilon_high"]),
        state["dual_clip_c"],
    )


def fields_clip(state) -> dict[str, str]:
    low, high = trust_band(
        CLIP_ALGORITHM,
        epsilon_low=float(state["epsilon_low"]),
        epsilon_high=float(state["epsilon_high"]),
        dual_clip_c=state["dual_clip_c"],
    )
    c = state["dual_clip_c"]
    return {
        "r": f"{float(state['ratio']):g}",
        "sign": "> 0" if float(state["advantage"]) > 0 else "< 0",
        "low": f"{low:g}",
        "high": f"{high:g}",
        "c": "∞" if c is None else f"{float(c):g}",
    }


# ------------------------------------------------------------------------------ from public reports (issue 43)
def token_count_window(lengths, steps: int, window: int) -> pd.DataFrame:
    """A token-mean loss whose token count is taken over another window than the optimizer step's.

    A generation batch of B responses (``lengths``) is used for ``steps`` optimizer steps of B / steps
    contiguous responses each (TRL ``steps_per_generation``). The intended token-mean of step j divides
    its token sum by its own tokens N_j (``token_weights(mask_j, "token-mean")``: 1/N_j per token); a
    normaliser counted over ``window`` responses from the step's first one (wrapping around the batch)
    divides by their tokens N_w instead (``token_weights(mask_j, "token-sum") / N_w``). The step's
    gradient is then N_j / N_w times the intended: 1/2 when the window is twice the step, 4 when it is
    a quarter of it (huggingface/trl#6024: num_items_in_batch counted over the wrong window).

    Args:
        lengths: B response lengths (:func:`check_lengths`); ``steps``: k >= 1 dividing B;
        window: the responses whose tokens are counted, 1..B.

    Returns:
        One row per step: ``step`` (1..k), ``responses``, ``tokens`` (N_j), ``counted`` (N_w),
        ``weight_intended`` (1/N_j), ``weight_used`` (1/N_w), ``scale`` (N_j / N_w, NaN where no
        token is counted).

    Raises:
        ValueError: naming ``lengths``, ``steps`` or ``window``.
    """
    lengths = check_lengths(lengths)
    B = len(lengths)
    if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= B or B % steps:
        raise ValueError(f"steps: must be a whole number in [1, {B}] that divides the {B} responses, got {steps!r}")
    if isinstance(window, bool) or not isinstance(window, int) or not 1 <= window <= B:
        raise ValueError(f"window: must be a whole number of responses in [1, {B}], got {window!r}")
    mask = _mask(lengths)  # (B, T)
    size = B // steps
    rows = []
    for j in range(steps):
        step = mask[j * size : (j + 1) * size]  # (B / k, T)
        counted_rows = [(j * size + i) % B for i in range(window)]
        n_window = float(token_weights(mask[counted_rows], "token-sum").sum())
        intended = token_weights(step, "token-mean")  # 1 / N_j at each real token
        n_step = float(token_weights(step, "token-sum").sum())
        rows.append(
            {
                "step": j + 1,
                "responses": size,
                "tokens": int(n_step),
                "counted": int(n_window),
                "weight_intended": float(intended.max()) if n_step else 0.0,
                "weight_used": 1.0 / n_window if n_window else math.nan,
                "scale": n_step / n_window if n_window else math.nan,
            }
        )
    return pd.DataFrame(rows)


def sequence_weight_drift(drift: float, lengths, cap: float | None = None) -> pd.DataFrame:
    """A sequence-level importance weight is the product of its token ratios: a per-token drift
    compounds with length until the cap acts (huggingface/trl#5814; TRL sums the per-token log-ratios of
    a response, ``vllm_importance_sampling_mode="sequence_mask"`` / ``"sequence_truncate"``, default cap 3).

    Each response of length L has the same log-ratio ``drift`` = log π_train − log π_rollout at every
    token. Its weight under rlviz's rollout corrections (the trainer's code,
    :func:`rlviz.core.corrections.correction_weights`): ``sequence_mis`` (TRL sequence_mask: the
    product exp(L·drift), 0 above the cap) and ``sequence_tis`` (TRL sequence_truncate: clamped at the
    cap), beside the per-token geometric mean exp(drift) (what #5815 proposed, and GSPO's ratio).

    Args:
        drift: the per-token log-ratio, finite, |drift| <= 1.
        lengths: response lengths (:func:`check_lengths`).
        cap: the cap C; ``None``: the default of ``sequence_mis`` (TRL's 3).

    Returns:
        One row per length: ``length``, ``product`` (exp(L·drift), the raw sequence weight),
        ``geo_mean`` (exp(drift)), ``weight_mask`` (sequence_mis), ``weight_truncate``
        (sequence_tis at the same cap), ``masked`` (the mask dropped the response).

    Raises:
        ValueError: naming ``drift``, ``lengths`` or ``cap``.
    """
    if isinstance(drift, bool) or not isinstance(drift, (int, float)) or not math.isfinite(drift) or abs(drift) > 1:
        raise ValueError(f"drift: must be a finite number in [-1, 1] (nats per token), got {drift!r}")
    lengths = check_lengths(lengths)
    if cap is None:
        cap = float(get_correction("sequence_mis").high)
    if isinstance(cap, bool) or not isinstance(cap, (int, float)) or not math.isfinite(cap) or cap <= 1:
        raise ValueError(f"cap: must be a finite number > 1, got {cap!r}")
    mask = _mask(lengths)  # (B, T)
    old = torch.full_like(mask, float(drift)) * mask  # log π_train − log π_rollout = drift per token
    rollout = torch.zeros_like(mask)
    w_mask, kept = correction_weights("sequence_mis", old, rollout, mask, high=cap)
    w_trunc, _ = correction_weights("sequence_tis", old, rollout, mask, high=cap)
    frame = pd.DataFrame(
        {
            "length": lengths,
            "product": [math.exp(n * drift) for n in lengths],
            "geo_mean": [math.exp(drift)] * len(lengths),
            "weight_mask": w_mask[:, 0].tolist(),
            "weight_truncate": w_trunc[:, 0].tolist(),
            "masked": (~kept[:, 0]).tolist(),
        }
    )
    return no_negative_zero(frame)


def first_masked_length(drift: float, cap: float | None = None) -> int | None:
    """The shortest response whose sequence weight exp(L·drift) exceeds the cap (TRL sequence_mask
    drops it): floor(log(cap) / drift) + 1 for drift > 0; ``None`` for drift <= 0 (the weight never
    grows). Raises ``ValueError`` as :func:`sequence_weight_drift`."""
    sequence_weight_drift(drift, [1], cap)  # checks drift and cap
    if drift <= 0:
        return None
    cap = float(get_correction("sequence_mis").high) if cap is None else float(cap)
    return math.floor(math.log(cap) / drift) + 1


def gdpo_vs_grpo(components) -> pd.DataFrame:
    """GDPO's per-reward normalisation against GRPO's, over several groups (GDPO arXiv 2601.05242;
    TRL ``multi_objective_aggregation="normalize_then_sum"`` vs ``"sum_then_normalize"``).

    GRPO sums a response's reward components and normalises the sum within its group; GDPO normalises
    each component within its group, sums, then whitens over the whole batch (every group): both through
    :func:`rlviz.core.estimators.estimate_advantages`.

    Args:
        components: [n, G, K] nested lists: n groups (prompts) of G >= 2 responses, K >= 1 reward
            components each, finite.

    Returns:
        One row per response: ``group``, ``response``, ``reward_<k>`` for each component, ``reward``
        (their sum), ``grpo``, ``gdpo`` (the advantages).

    Raises:
        ValueError: naming ``components`` (shape, G < 2, not finite), or as ``estimate_advantages``.
    """
    try:
        comps = torch.tensor(components, dtype=_F64)
    except (TypeError, ValueError, RuntimeError):
        raise ValueError("components: expected [n, G, K] nested lists of numbers") from None
    if comps.dim() != 3 or 0 in comps.shape:
        raise ValueError(f"components: expected shape [n, G, K] with every size >= 1, got {tuple(comps.shape)}")
    if comps.shape[1] < 2:
        raise ValueError(f"components: a group needs at least 2 responses, got G = {comps.shape[1]}")
    if not bool(torch.isfinite(comps).all()):
        raise ValueError("components: contains NaN or inf")
    rewards = comps.sum(-1)  # (n, G)
    grpo = estimate_advantages("grpo", rewards)
    gdpo = estimate_advantages("gdpo", rewards, components=comps)
    n, G, K = comps.shape
    rows = []
    for i in range(n):
        for j in range(G):
            row = {"group": i, "response": j}
            row.update({f"reward_{k}": float(comps[i, j, k]) for k in range(K)})
            row.update(reward=float(rewards[i, j]), grpo=float(grpo[i, j]), gdpo=float(gdpo[i, j]))
            rows.append(row)
    return no_negative_zero(pd.DataFrame(rows))


MAX_GROUPS = 8  # groups typed in section 11
MAX_GROUP_SIZE = 16  # responses per typed group
REPORT_LENGTH = 100  # the response length huggingface/trl#5814 quotes ("about 3x over 100 tokens")


def sequence_cap() -> float:
    """The default cap of TRL's ``sequence_mask`` (rlviz ``sequence_mis``'s upper bound: 3)."""
    return float(get_correction("sequence_mis").high)


def drift_curve(drift: float, cap: float | None = None, points: int = 100) -> pd.DataFrame:
    """:func:`sequence_weight_drift` over response lengths from 1 to twice the first masked one (at
    least 2 × ``REPORT_LENGTH``, at most ``MAX_LENGTH``), about ``points`` lengths, always including the
    first masked length and the one before it (where the mask's step is).

    Raises:
        ValueError: as :func:`sequence_weight_drift`; ``points`` below 2.
    """
    if isinstance(points, bool) or not isinstance(points, int) or points < 2:
        raise ValueError(f"points: must be a whole number >= 2, got {points!r}")
    first = first_masked_length(drift, cap)
    top = min(MAX_LENGTH, max(2 * REPORT_LENGTH, 2 * first if first else 0))
    lengths = {int(x) for x in np.linspace(1, top, points).round()}
    if first is not None and first <= top:
        lengths |= {first, max(1, first - 1)}
    return sequence_weight_drift(drift, sorted(lengths), cap)


def parse_components(first: str, second: str) -> list[list[list[float]]]:
    """Two rewards of n groups from text: groups separated by ``;`` or ``|``, the responses of a group by
    commas (``"1, 0, 0, 0; 1, 1, 0, 0"``). Returns ``[n, G, 2]`` nested lists for :func:`gdpo_vs_grpo`.

    Raises:
        ValueError: naming ``reward_1`` or ``reward_2`` (not numbers, more than ``MAX_GROUPS`` groups, a
            group of other than 2..``MAX_GROUP_SIZE`` responses, groups of different sizes), or
            ``components`` (the two rewards differ in shape).
    """
    parsed = []
    for field, text in (("reward_1", first), ("reward_2", second)):
        groups = [g for g in re.split(r"[;|；]", str(text)) if g.strip()]
        if not groups:
            raise ValueError(f"{field}: empty; give each group's rewards, groups separated by ';'")
        if len(groups) > MAX_GROUPS:
            raise ValueError(f"{field}: at most {MAX_GROUPS} groups, got {len(groups)}")
        values = [parse_numbers(g, field) for g in groups]
        sizes = {len(v) for v in values}
        if len(sizes) > 1:
            raise ValueError(f"{field}: every group needs the same number of responses, got {sorted(sizes)}")
        G = sizes.pop()
        if not 2 <= G <= MAX_GROUP_SIZE:
            raise ValueError(f"{field}: a group needs 2 to {MAX_GROUP_SIZE} responses, got {G}")
        parsed.append(values)
    one, two = parsed
    if (len(one), len(one[0])) != (len(two), len(two[0])):
        raise ValueError(
            f"components: reward 1 is {len(one)} × {len(one[0])} (groups × responses), reward 2 "
            f"{len(two)} × {len(two[0])}; give both rewards for every response"
        )
    return [[[a, b] for a, b in zip(g1, g2, strict=True)] for g1, g2 in zip(one, two, strict=True)]


def group_spread(frame: pd.DataFrame) -> pd.DataFrame:
    """The std (unbiased) of each group's GRPO and GDPO advantages in :func:`gdpo_vs_grpo`'s frame:
    GRPO normalises every group by itself (std ≈ 1 unless all its rewards are equal); GDPO whitens once
    over the batch, so the groups' spreads differ. Columns ``group``, ``grpo``, ``gdpo``."""
    return frame.groupby("group", sort=True)[["grpo", "gdpo"]].std(ddof=1).reset_index()


# -- the questions of sections 9 to 11 (``PREDICTIONS["confusions"]``) --------------------------------------
def _window(state) -> pd.DataFrame:
    return token_count_window(list(state["lengths"]), int(state["steps"]), int(state["window"]))


def answer_window(state) -> float:
    """state ``{"lengths", "steps", "window"}``: the first optimizer step's gradient over the intended
    one, N_1 / N_w (:func:`token_count_window`)."""
    return float(_window(state).scale.iloc[0])


def fields_window(state) -> dict[str, str]:
    lengths = [int(n) for n in state["lengths"]]
    k = int(state["steps"])
    return {
        "lengths": ", ".join(map(str, lengths)),
        "B": str(len(lengths)),
        "k": str(k),
        "size": str(len(lengths) // k),
        "w": str(int(state["window"])),
    }


def explain_window(state) -> dict[str, str]:
    row = _window(state).iloc[0]
    return fields_window(state) | {
        "N1": str(int(row.tokens)),
        "Nw": str(int(row.counted)),
        "intended": _g(float(row.weight_intended)),
        "used": _g(float(row.weight_used)),
    }


def answer_drift(state) -> float:
    """state ``{"drift", "cap"}`` (drift > 0): the shortest response TRL's ``sequence_mask`` drops
    (:func:`first_masked_length`)."""
    first = first_masked_length(float(state["drift"]), float(state["cap"]))
    if first is None:
        raise ValueError(f"drift: must be > 0 for a response to reach the cap, got {state['drift']!r}")
    return float(first)


def fields_drift(state) -> dict[str, str]:
    d = float(state["drift"])
    return {"drift": f"{d:g}", "ratio": f"{math.exp(d):.4f}", "cap": f"{float(state['cap']):g}"}


def explain_drift(state) -> dict[str, str]:
    d, cap = float(state["drift"]), float(state["cap"])
    first = int(answer_drift(state))
    at = sequence_weight_drift(d, [first - 1, first] if first > 1 else [first], cap).set_index("length")
    return fields_drift(state) | {
        "bound": f"{math.log(cap) / d:.2f}",
        "before": str(first - 1),
        "w_before": f"{float(at['product'].iloc[0]):.4f}" if first > 1 else "1",
        "w_first": f"{float(at.loc[first, 'product']):.4f}",
    }


GDPO_PAIR = (0, 1)  # the two responses of the first group the GDPO question compares
GDPO_CHOICES = ("first", "same", "second")


def _gdpo_pair(state) -> pd.DataFrame:
    frame = gdpo_vs_grpo([[list(r) for r in g] for g in state["components"]])
    first = frame[frame.group == 0].set_index("response")
    return first.loc[list(GDPO_PAIR)]


def answer_gdpo(state) -> str:
    """state ``{"components": [n, G, 2]}``: which of the first group's first two responses (``GDPO_PAIR``,
    from 0; #1 and #2 on the page) gets the larger GDPO advantage (:func:`gdpo_vs_grpo`): ``"first"``,
    ``"second"`` or ``"same"`` (within 1e-6)."""
    a, b = _gdpo_pair(state).gdpo.tolist()
    return "same" if abs(a - b) <= 1e-6 else "first" if a > b else "second"


def fields_gdpo(state) -> dict[str, str]:
    pair = _gdpo_pair(state)
    (i, j), (p, q) = GDPO_PAIR, pair.itertuples()
    return {
        "i": str(response_number(i)),
        "j": str(response_number(j)),
        "a_i": f"{p.reward_0:g}",
        "b_i": f"{p.reward_1:g}",
        "a_j": f"{q.reward_0:g}",
        "b_j": f"{q.reward_1:g}",
        "sum_i": f"{p.reward:g}",
        "sum_j": f"{q.reward:g}",
        "n": str(len(state["components"])),
    }


def explain_gdpo(state) -> dict[str, str]:
    pair = _gdpo_pair(state)
    grpo, gdpo = pair.grpo.tolist(), pair.gdpo.tolist()
    return fields_gdpo(state) | {
        "grpo_i": f"{grpo[0]:.3f}",
        "grpo_j": f"{grpo[1]:.3f}",
        "gdpo_i": f"{gdpo[0]:.3f}",
        "gdpo_j": f"{gdpo[1]:.3f}",
    }


# ------------------------------------------------------------------------------------------------
# What each section of the page reads out of its computation: the question's state (what its answer is
# computed from) and the numbers of its reading (the locale's ``confusions.<section>.reading``), as text.
# The page formats nothing itself; the same functions give the numbers to any other view.
# ------------------------------------------------------------------------------------------------
KL_MARK = 0.5  # section 6: the x = log π − log π_ref the reading quotes the curves at


def pct_text(x: float) -> str:
    """A share as the page writes it: one decimal of a percent (0.125 -> ``"12.5%"``)."""
    return f"{x:.1%}"


def aggregation_held(weights: pd.DataFrame, mode: str) -> pd.DataFrame:
    """:func:`aggregation_weights`'s frame without ``mode``'s rows: what section 1 draws while its question
    (what ``mode`` averages over) waits."""
    return weights[weights["mode"] != mode]


def aggregation_reading(weights: pd.DataFrame, lengths) -> dict[str, str | int]:
    """Section 1's reading of :func:`aggregation_weights` (``weights``) for ``lengths`` (B of them): the
    longest response's length ``long`` and its share of the step's weight under token-mean
    (``tm_share``) and seq-mean-token-mean (``sm_share``), and ``B``."""
    lengths = [int(n) for n in lengths]
    long_i = max(range(len(lengths)), key=lambda i: lengths[i])
    share = weights.set_index(["mode", "response"])["share"]
    return {
        "long": lengths[long_i],
        "tm_share": pct_text(share[("token-mean", long_i)]),
        "sm_share": pct_text(share[("seq-mean-token-mean", long_i)]),
        "B": len(lengths),
    }


def microbatch_reading(result: MicroBatchResult) -> dict[str, str]:
    """Section 2's reading of :func:`microbatch_weights`: the loss under a global token-mean and per
    micro-batch (4 significant digits), and each micro-batch's tokens N_j."""
    return {
        "loss_global": f"{result.loss_global:.4g}",
        "loss_micro": f"{result.loss_micro:.4g}",
        "micro_tokens": " / ".join(map(str, result.micro_tokens)),
    }


def ratio_one_state(mu: int, mini_batches: int, lr: float, frame: pd.DataFrame) -> dict:
    """Section 3's question state from its settings and :func:`ratio_by_update`'s ``frame``: each
    update's clip fraction and max |r − 1|, rounded to 6 decimals (what :func:`answer_ratio_one` reads)."""
    return {
        "mu": int(mu),
        "mini_batches": int(mini_batches),
        "lr": float(lr),
        "clip": tuple(round(float(c), 6) for c in frame["clip_fraction"]),
        "dev": tuple(round(float(d), 6) for d in frame["max_dev"]),
    }


def ratio_one_reading(frame: pd.DataFrame) -> tuple[str, dict[str, str]]:
    """Section 3's reading of :func:`ratio_by_update`'s ``frame``: ``(key, values)``, ``key`` the
    locale's ``reading`` (the first update's ratio range and clip fraction, then the later updates')
    or ``reading_single`` (one update only: the first's)."""
    first, later = frame.iloc[0], frame.iloc[1:]
    values = {
        "first_min": f"{first.ratio_min:.4f}",
        "first_max": f"{first.ratio_max:.4f}",
        "first_clip": pct_text(first.clip_fraction),
    }
    if not len(later):
        return "reading_single", values
    return "reading", values | {
        "later_min": f"{later.ratio_min.min():.3f}",
        "later_max": f"{later.ratio_max.max():.3f}",
        "later_clip": pct_text(later.clip_fraction.max()),
    }


def sequence_reading(frame: pd.DataFrame, state) -> dict[str, str | int]:
    """Section 4's reading: the question's numbers (:func:`fields_sequence` at ``state``) and ``n_seq``,
    the tokens the sequence-level objective clips in :func:`token_vs_sequence`'s ``frame``."""
    n_seq = int((frame[frame.algorithm == RATIO_PAIR[1]].state == "clipped").sum())
    return {"n_seq": n_seq, **fields_sequence(state)}


def sampler_state(dtype: str, summary: dict[str, float]) -> dict:
    """Section 5's question state: the sampler's precision and :meth:`GapResult.summary`'s gaps, rounded
    to 9 decimals (what :func:`answer_sampler` reads)."""
    return {
        "dtype": str(dtype),
        "gap_max": round(summary["gap_max"], 9),
        "gap_std": round(summary["gap_std"], 9),
        "ppo_max": round(summary["ppo_max"], 9),
    }


def sampler_metrics(summary: dict[str, float]) -> dict[str, str]:
    """Section 5's four numbers under its figure, from :meth:`GapResult.summary`: the largest
    |log π_train − log π_rollout| (``gap``), the share of tokens above the cap (``above``), the mean
    truncated weight (``tis``), the sequence ratios' range (``seq``)."""
    return {
        "gap": f"{summary['gap_max']:.3g}",
        "above": pct_text(summary["above_cap"]),
        "tis": f"{summary['tis_mean']:.4f}",
        "seq": f"{summary['seq_min']:.3f}…{summary['seq_max']:.3f}",
    }


def sampler_reading(result: GapResult) -> dict[str, str | int]:
    """Section 5's reading of :func:`sampler_trainer_gap`: the tokens compared, the range of their IS
    ratios (1 without tokens), the share above the cap C, C, the mean truncated weight and the range of
    the sequence ratios."""
    s, tokens = result.summary(), result.tokens
    return {
        "tokens": int(s["tokens"]),
        "r_min": f"{tokens.is_ratio.min():.4f}" if len(tokens) else "1",
        "r_max": f"{tokens.is_ratio.max():.4f}" if len(tokens) else "1",
        "above": pct_text(s["above_cap"]),
        "cap": f"{result.cap:g}",
        "tis": f"{s['tis_mean']:.4f}",
        "seq_min": f"{s['seq_min']:.4f}",
        "seq_max": f"{s['seq_max']:.4f}",
    }


def kl_reading(curves: pd.DataFrame, x: float = KL_MARK) -> dict[str, str]:
    """Section 6's reading of :func:`kl_curves` (``curves``) at ``x`` (one of its points): the gradient
    in the loss of k1, k2, k3 (``l1``..``l3``) and k1's push in the reward (``r1``).

    Raises:
        KeyError: ``x`` is not a point of ``curves``.
    """
    at = curves[(curves.x - x).abs() < 1e-9].set_index("estimator")
    return {
        "x": f"{x:g}",
        "l1": f"{at.loc['k1', 'grad_loss']:.3f}",
        "l2": f"{at.loc['k2', 'grad_loss']:.3f}",
        "l3": f"{at.loc['k3', 'grad_loss']:.3f}",
        "r1": f"{at.loc['k1', 'grad_reward']:.3f}",
    }


def difficulty_reading(curve: pd.DataFrame, state) -> dict[str, str]:
    """Section 7's reading: the relative mass with and without the std division at the question's
    ``state`` (``{"group_size", "p"}``) and at the last pass rate of :func:`difficulty_curve`'s ``curve``."""
    edge = float(curve.p.iloc[-1])
    f = fields_difficulty(state)
    edge_f = fields_difficulty({"group_size": int(state["group_size"]), "p": edge})
    return {
        "p": f["p"],
        "group": f["group"],
        "none": f["none"],
        "p_edge": f"{edge:.2f}",
        "group_edge": edge_f["group"],
        "none_edge": edge_f["none"],
    }


def clip_state(
    epsilon_low: float, epsilon_high: float, dual_clip_c: float | None, ratio: float, advantage: float
) -> dict:
    """Section 8's question state (what :func:`answer_clip` reads): the clip's settings (``dual_clip_c``
    ``None``: no dual clip), one token's importance ratio and its advantage's sign (±1)."""
    return {
        "epsilon_low": float(epsilon_low),
        "epsilon_high": float(epsilon_high),
        "dual_clip_c": dual_clip_c,
        "ratio": float(ratio),
        "advantage": float(advantage),
    }


def clip_reading(cases: pd.DataFrame, state) -> dict[str, str | int]:
    """Section 8's reading: the trust band and c at ``state`` (:func:`fields_clip`) and how many of
    :func:`clip_cases`'s ``cases`` each bound stops (``n_low``, ``n_high``, ``n_c``, of ``n``)."""
    counts = cases["bound"].value_counts()
    f = fields_clip(state)
    return {
        "low": f["low"],
        "high": f["high"],
        "c": f["c"],
        "n": len(cases),
        "n_low": int(counts.get("eps_low", 0)),
        "n_high": int(counts.get("eps_high", 0)),
        "n_c": int(counts.get("c", 0)),
    }


def window_reading(frame: pd.DataFrame) -> dict[str, str | int]:
    """Section 9's reading of :func:`token_count_window`: the steps ``k`` and each step's gradient over
    the intended one (``"0.5× · 2×"``)."""
    return {"k": len(frame), "scales": " · ".join(f"{v:.3g}×" for v in frame.scale)}


def drift_reading(drift: float, cap: float, at_report: pd.DataFrame) -> dict[str, str | int | None]:
    """Section 10's reading for a per-token drift ``drift`` (nats) and the cap: the sequence weight at
    ``REPORT_LENGTH`` (``at_report``: :func:`sequence_weight_drift` there), each token's ratio e^drift and
    the first length the cap masks (:func:`first_masked_length`; ``None``: none)."""
    return {
        "L": REPORT_LENGTH,
        "w_L": f"{float(at_report['product'].iloc[0]):.3f}",
        "ratio": fields_drift({"drift": drift, "cap": cap})["ratio"],
        "first": first_masked_length(float(drift), float(cap)),
    }


def gdpo_state(components) -> dict:
    """Section 11's question state: the components ``[n, G, 2]`` as nested tuples (a hashable state)."""
    return {"components": tuple(tuple(tuple(r) for r in g) for g in components)}


def gdpo_reading(frame: pd.DataFrame) -> dict[str, str]:
    """Section 11's reading of :func:`gdpo_vs_grpo`: each group's std of GRPO's and of GDPO's advantages
    (:func:`group_spread`), 3 decimals."""
    spread = group_spread(frame)
    return {
        "grpo_std": " · ".join(f"{v:.3f}" for v in spread.grpo),
        "gdpo_std": " · ".join(f"{v:.3f}" for v in spread.gdpo),
    }
