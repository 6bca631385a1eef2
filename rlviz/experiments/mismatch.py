"""The rollout-training mismatch: when the sampler's probabilities are not the trainer's.

Real systems sample with an inference engine and train with another, in other precisions and
kernels, with weights that arrive late; and they sample from a truncated distribution (top-p, top-k)
while the trainer scores the full one. The loss's denominator is the trainer's ``old_log_prob``, so
the responses come from a policy the loss does not know about. Two experiments on the shipped models:

- :func:`measure_mismatch`: one batch of prompts sampled by each sampler choice of
  :data:`SAMPLERS` (the policy itself in float32, its copies in bfloat16 and float16, a copy k steps
  behind, top-p and top-k truncation of the policy, each with and without the trainer replaying the
  sampler's kept set) and scored by the trainer, giving the per-token log-ratio
  ``l = log pi_train - log pi_rollout`` and its sum over each response, the KL between sampler and
  trainer, and what each rollout correction of ``rlviz.core.corrections.CORRECTIONS`` does to that
  batch (weights, tokens and responses dropped, how often a truncation's cap binds).
- :class:`MismatchLiveRun`: a live side-by-side run from one checkpoint and seed with a mismatched
  sampler: no correction against each correction, against a float16 sampler, against the trainer
  replaying the sampler's top-p support and against a matched sampler (the control), and on the MoE
  model GRPO replaying the sampler's routing (R3).

Every number comes from the code that trains: ``rlviz.lm.rollout`` samples and scores,
``rlviz.core.corrections.correction_weights`` weighs, ``rlviz.lm.trainer.Trainer`` trains.
Sources: Yao et al. 2025 (TIS); Ring-1T arXiv 2510.18855 (IcePop); Qi et al. arXiv 2510.26788
(fp16 instead of bf16); DeepSeek-V3.2 arXiv 2512.02556 (Keep Sampling Mask; vLLM's
``return_sampling_mask``, vllm#49577); TRL ``vllm_importance_sampling_*``; verl
``algorithm.rollout_correction``.

Legend: n prompts, G group size, B = n * G responses, T response width.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import torch

from rlviz.core.corrections import CORRECTIONS, PRESETS, cap_shares, correction_weights, preset_weights
from rlviz.core.kl import kl_estimate
from rlviz.i18n import LIST_SEPARATOR, cell, num, pct, t
from rlviz.lm.rollout import response_log_probs, sample_rollouts
from rlviz.lm.task import DEFAULT_MAX_NEW_TOKENS, sample_problems
from rlviz.lm.trainer import ROLLOUT_DTYPES, TrainConfig, Trainer

from .moe import MODELS, MoeLiveConfig
from .runner import COLLAPSE, Arm, SideBySideRun, train_config

__all__ = [
    "EVIDENCE",
    "LIVE_ARM_KEYS",
    "LIVE_PANELS",
    "MASK_REPLAYS",
    "MODELS",
    "SAMPLERS",
    "MismatchLiveConfig",
    "MismatchLiveRun",
    "MismatchResult",
    "MismatchSettings",
    "PRECISIONS",
    "TRUNCATION",
    "answer_precision",
    "answer_truncation",
    "cap_readings",
    "correction_curves",
    "trust_region_curves",
    "fields_precision",
    "fields_truncation",
    "load_measured",
    "measured_consistency",
    "measured_reading",
    "mismatch_state",
    "live_arms",
    "measure_mismatch",
    "StoredReading",
    "arm_names",
    "correction_names",
    "correction_words",
    "corrections_list",
    "effect_table",
    "exported_arms",
    "grid_words",
    "live_fields",
    "live_notes_text",
    "live_summary_table",
    "live_warnings",
    "live_words",
    "make_live_run",
    "measure_fields",
    "measurement_readings",
    "model_names",
    "preset_effect_table",
    "preset_table",
    "registry_table",
    "rejection_readings",
    "sampler_names",
    "stored_reading",
    "summary_table",
    "times_text",
]

# The sampler choices measured: each one ``TrainConfig`` sampler setting away from the trainer (a
# ``_replay`` one: the truncation before it, with the trainer replaying the sampler's kept set).
SAMPLERS = ("float32", "bfloat16", "float16", "stale", "top_p", "top_p_replay", "top_k", "top_k_replay")
# each sampler whose kept set the trainer replays -> the truncated sampler it replays
MASK_REPLAYS = {"top_p_replay": "top_p", "top_k_replay": "top_k"}


@dataclass(frozen=True)
class MismatchSettings:
    """One measurement of the sampler-trainer mismatch.

    Attributes:
        prompts, group_size: n prompts, G responses each (the same prompts for every sampler).
        stale_steps: k, how many GRPO steps (β = 0) the trainer is ahead of the stale sampler.
        stale_lr: the learning rate of those k steps (the larger, the further apart).
        top_p, top_k: the truncated samplers' settings (TRL / vLLM ``top_p`` / ``top_k``), with and
            without the trainer replaying their kept sets (``TrainConfig.replay_sampling_mask``).
        temperature: sampling temperature (TRL / verl ``temperature``).
        model: ``"dense"`` (the shipped tiny Llama) or ``"moe"``.
        seed: seeds prompts and samples. device: ``None`` for automatic, or a device name.
    """

    prompts: int = 16
    group_size: int = 4
    stale_steps: int = 4
    stale_lr: float = 3e-4
    top_p: float = 0.9
    top_k: int = 8
    temperature: float = 1.0
    model: str = "dense"
    seed: int = 0
    device: str | None = None

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first parameter out of range."""
        for name, low, high in (("prompts", 1, 64), ("group_size", 1, 32), ("stale_steps", 1, 16), ("top_k", 1, 4096)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"{name}: must be a whole number in [{low}, {high}], got {value!r}")
        for name in ("stale_lr", "temperature"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not (math.isfinite(value) and value > 0)
            ):
                raise ValueError(f"{name}: must be a finite number > 0, got {value!r}")
        if isinstance(self.top_p, bool) or not isinstance(self.top_p, (int, float)) or not 0 < self.top_p <= 1:
            raise ValueError(f"top_p: must be in (0, 1], got {self.top_p!r}")
        if self.model not in MODELS:
            raise ValueError(f"model: {self.model!r} is not one of {', '.join(MODELS)}")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or not 0 <= self.seed < 2**63:
            raise ValueError(f"seed: must be a whole number in [0, 2**63), got {self.seed!r}")

    def sampler_settings(self, sampler: str) -> dict[str, Any]:
        """The ``TrainConfig`` sampler fields of choice ``sampler`` (one of :data:`SAMPLERS`).

        Raises:
            ValueError: naming ``sampler`` if unknown.
        """
        table = {
            "float32": {},
            "bfloat16": {"rollout_dtype": "bfloat16"},
            "float16": {"rollout_dtype": "float16"},
            "stale": {"rollout_stale_steps": self.stale_steps},
            "top_p": {"top_p": self.top_p},
            "top_p_replay": {"top_p": self.top_p, "replay_sampling_mask": True},
            "top_k": {"top_k": self.top_k},
            "top_k_replay": {"top_k": self.top_k, "replay_sampling_mask": True},
        }
        if sampler not in table:
            raise ValueError(f"sampler: {sampler!r} is not one of {', '.join(SAMPLERS)}")
        return table[sampler]


@dataclass
class MismatchResult:
    """What :func:`measure_mismatch` measured (plain data: pandas frames and numbers).

    Attributes:
        settings: the :class:`MismatchSettings`.
        tokens: one row per response token and sampler: ``sampler``, ``log_ratio`` (l, nats),
            ``position`` (0-based), ``kept_mass`` (for the truncated samplers: the share of the
            trainer's full distribution the truncation kept at that position, which is exp l unless
            the trainer replays the kept set; NaN otherwise).
        sequences: one row per response and sampler: ``sampler``, ``length`` (tokens),
            ``log_ratio_sum`` (sum of l: the log of the response's ratio), ``log_ratio_mean``.
        summary: one row per sampler: ``kl`` (k3 estimate of KL(pi_rollout || pi_train) per token,
            nats), ``abs_mean`` / ``abs_p99`` / ``abs_max`` (of |l|), ``mean`` (of l),
            ``seq_abs_max`` (of |sum l|), ``tokens``, ``sequences``, ``ratio_below_one`` (share
            of tokens with l < 0).
        corrections: one row per sampler and correction (and per verl preset of
            ``rlviz.core.corrections.PRESETS``, its correction part, ``preset_weights``; the preset's
            name in ``correction``): ``weight_mean`` (over tokens),
            ``tokens_dropped`` (share with weight 0 by the band), ``sequences_dropped`` (share of
            responses with every token dropped), ``sequences_touched`` (share with any token dropped),
            ``tokens_capped`` / ``sequences_capped`` (a truncated-IS correction: the shares of tokens
            and of responses whose raw weight hit its cap, ``rlviz.core.corrections.cap_shares``; NaN
            for the other kinds).
        reward_mean: the mean task reward of the float32 sampler's responses.
        stale_kl: the stale sampler's KL (as ``summary``'s ``kl``) after each of the k steps, in order:
            the last is the ``stale`` row's.
    """

    settings: MismatchSettings
    tokens: pd.DataFrame
    sequences: pd.DataFrame
    summary: pd.DataFrame
    corrections: pd.DataFrame
    reward_mean: float
    stale_kl: list[float] = dataclasses.field(default_factory=list)

    def row(self, sampler: str) -> dict[str, float]:
        """The :attr:`summary` row of ``sampler`` as a dict."""
        return self.summary.set_index("sampler").loc[sampler].to_dict()

    def correction(self, sampler: str, correction: str) -> dict[str, float]:
        """The :attr:`corrections` row of (``sampler``, ``correction``) as a dict."""
        frame = self.corrections.set_index(["sampler", "correction"])
        return frame.loc[(sampler, correction)].to_dict()


# -- predictions (rlviz.teach.predict asks them; the page passes mismatch_state(result)) ---------------
PRECISIONS = ("bfloat16", "float16", "same")  # which copy's probabilities are closer to the trainer's
TRUNCATION = ("below", "above", "both")  # where top-p puts the ratio pi_train / pi_rollout


def mismatch_state(result: MismatchResult) -> dict[str, Any]:
    """The predictions' state from a :class:`MismatchResult`: its settings (``model``, ``stale_steps``,
    ``stale_lr``, ``top_p``, ``top_k``, ``prompts``, ``group_size``, ``seed``) and the measured
    ``summary`` (sampler -> its :attr:`MismatchResult.summary` row) and ``max_log_ratio`` (sampler ->
    the largest l)."""
    s = result.settings
    rows = {row["sampler"]: dict(row) for row in result.summary.to_dict("records")}
    top = result.tokens.groupby("sampler")["log_ratio"].max().to_dict()
    return dataclasses.asdict(s) | {"summary": rows, "max_log_ratio": {k: float(v) for k, v in top.items()}}


def answer_precision(state: Mapping[str, Any]) -> str:
    """``"float16"`` or ``"bfloat16"``: whose copy has the smaller measured KL to the trainer
    (``"same"`` when equal)."""
    bf16, fp16 = state["summary"]["bfloat16"]["kl"], state["summary"]["float16"]["kl"]
    return "same" if bf16 == fp16 else ("float16" if fp16 < bf16 else "bfloat16")


def fields_precision(state: Mapping[str, Any]) -> dict[str, str]:
    bf16, fp16 = state["summary"]["bfloat16"]["kl"], state["summary"]["float16"]["kl"]
    return {"bf16": f"{bf16:.3g}", "fp16": f"{fp16:.3g}", "times": f"{bf16 / fp16:.3g}" if fp16 > 0 else "∞"}


def answer_truncation(state: Mapping[str, Any]) -> str:
    """Where the measured top-p sampler's token ratios pi_train / pi_rollout lie against 1:
    ``"below"`` (none above 1), ``"above"`` (none below 1) or ``"both"``."""
    above = state["max_log_ratio"]["top_p"] > 0
    below = state["summary"]["top_p"]["ratio_below_one"] > 0
    return "both" if above and below else ("above" if above else "below")


def fields_truncation(state: Mapping[str, Any]) -> dict[str, str]:
    row = state["summary"]["top_p"]
    return {
        "p": f"{float(state['top_p']):g}",
        "below": f"{row['ratio_below_one']:.1%}",
        "max_l": f"{state['max_log_ratio']['top_p']:.3g}",
    }


# -- the stored live run (benchmarks/mismatch_effect.py) ------------------------------------------------
MEASURED = Path(__file__).resolve().parent / "mismatch_measured.json"


def load_measured(path: Path = MEASURED) -> dict[str, Any] | None:
    """The stored runs of ``benchmarks/mismatch_effect.py``: ``{"runs": [...]}``, one per seed, each
    with ``settings``, ``window`` and ``arms`` (per arm ``reward_mean``, ``rollout_kl``,
    ``heldout_end``, ``collapse_step``, ...), or ``None`` when the file is missing or unreadable."""
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None


def measured_reading(measured: Mapping[str, Any]) -> dict[str, Any]:
    """What the stored run shows, judged against sampling noise: ``verdict`` (a locale suffix) and
    ``fields`` (the numbers it quotes).

    Held-out pass@1 at the end is compared with two standard errors of a difference of two means of
    n = ``HELDOUT_SIZE * heldout_samples`` samples (sqrt(2 p (1 - p) / n)). ``"uncorrected_worse"``:
    the uncorrected arm ends below the matched control by more than that, and ``best`` (the corrected
    or fp16 arm with the highest end) above the uncorrected one by more than that; ``"gap_uncorrected"``:
    the first holds but no correction is apart from no correction; ``"no_gap"``: the uncorrected arm is
    within noise of the control (the mismatch did not measurably hurt).
    """
    from rlviz.lm.task import HELDOUT_SIZE

    arms = measured["arms"]
    n = HELDOUT_SIZE * int(measured["settings"]["heldout_samples"])
    matched, none = arms["matched"]["heldout_end"], arms["none"]["heldout_end"]
    others = {a: v["heldout_end"] for a, v in arms.items() if a not in ("matched", "none")}
    best = max(others, key=others.get)

    def two_se(a: float, b: float) -> float:
        p = (a + b) / 2
        return 2 * math.sqrt(max(2 * p * (1 - p), 1e-12) / n)

    fields = {
        "matched": f"{matched:.3f}",
        "none": f"{none:.3f}",
        "best": best,
        "best_value": f"{others[best]:.3f}",
        "two_se": f"{two_se(matched, none):.3f}",
        "n": str(n),
        "none_kl": f"{arms['none']['rollout_kl']:.3g}",
    }
    if matched - none <= two_se(matched, none):
        verdict = "no_gap"
    elif others[best] - none > two_se(others[best], none):
        verdict = "uncorrected_worse"
    else:
        verdict = "gap_uncorrected"
    return {"verdict": verdict, "best": best, "fields": fields}


def measured_consistency(doc: Mapping[str, Any]) -> dict[str, Any]:
    """What the stored runs (one per seed) show together.

    Returns:
        ``readings``: :func:`measured_reading` of each run, with its ``seed``; ``agree``: whether
        every run has the same verdict; ``kl_lower``: ``{arm: [rollout_kl per run]}`` for each
        correction arm (a key of ``CORRECTIONS`` other than ``none``) whose sampler-trainer KL is below
        the uncorrected arm's in every run; ``none_kl``: the uncorrected arm's, per run.
    """
    runs = list(doc["runs"])
    readings = [measured_reading(run) | {"seed": run["settings"]["seed"]} for run in runs]
    none_kl = [run["arms"]["none"]["rollout_kl"] for run in runs]
    arms = [a for a in runs[0]["arms"] if a in CORRECTIONS and a != "none"]
    kl_lower = {
        a: [run["arms"][a]["rollout_kl"] for run in runs]
        for a in arms
        if all(run["arms"][a]["rollout_kl"] < kl for run, kl in zip(runs, none_kl))
    }
    return {
        "readings": readings,
        "agree": len({r["verdict"] for r in readings}) == 1,
        "kl_lower": kl_lower,
        "none_kl": none_kl,
    }


def _load(model: str, device: str | None):
    from rlviz.lm.model import load_policy

    return load_policy(MODELS[model], device)


def _stale_trainer(settings: MismatchSettings, model, tokenizer, on_progress: Callable | None, score: Callable):
    """The policy after k GRPO steps from ``model`` (the sampler stays at ``model``), and
    ``score(policy)`` after each step."""
    s = settings
    # beta = 0: the stale copy is k policy-gradient steps away from the sampler, no KL term (a trainer
    # with beta > 0 and no reference would build one and add it; the stored measurements have none)
    config = TrainConfig(
        algorithm="grpo",
        lr=s.stale_lr,
        prompts_per_step=s.prompts,
        group_size=max(s.group_size, 2),
        seed=s.seed,
        settings={"beta": 0.0},
    )
    trainer = Trainer(config, copy.deepcopy(model), tokenizer)
    scores = []
    for k in range(s.stale_steps):
        trainer.step()
        scores.append(score(trainer.model.eval()))
        if on_progress is not None:
            on_progress(k + 1, s.stale_steps + len(SAMPLERS))
    return trainer.model.eval(), scores


def measure_mismatch(
    settings: MismatchSettings, policy=None, on_progress: Callable[[int, int], None] | None = None
) -> MismatchResult:
    """Sample the same prompts with each sampler of :data:`SAMPLERS`, score them with the trainer.

    For ``float32`` / ``bfloat16`` / ``float16``, ``top_p`` and ``top_k`` the trainer is the
    checkpoint in float32; the sampler is the same weights in that precision, or the same model
    sampling from its truncated distribution (``rollout_log_prob`` renormalised over the kept tokens,
    as an inference engine reports it). ``top_p_replay`` / ``top_k_replay`` (:data:`MASK_REPLAYS`)
    sample the same responses, and the trainer renormalises its log-probs over the sampler's kept set
    (``RolloutBatch.sampling_mask``, as ``TrainConfig.replay_sampling_mask`` trains). For ``stale`` the
    trainer is the policy after ``stale_steps`` GRPO steps and the sampler the checkpoint it started
    from. Each sampler draws from a generator seeded with ``seed``.

    Args:
        settings: a :class:`MismatchSettings` (validated here).
        policy: optionally an already loaded ``(model, tokenizer)`` (copied, never changed).
        on_progress: optional ``callable(done, total)`` after each stale step and each sampler.

    Returns:
        :class:`MismatchResult`.

    Raises:
        ValueError: a bad setting (the message names it).
    """
    settings.validate()
    s = settings
    model, tokenizer = policy if policy is not None else _load(s.model, s.device)
    model = model.eval()
    total = s.stale_steps + len(SAMPLERS)
    problems = sample_problems(s.prompts, torch.Generator().manual_seed(s.seed))
    # the stale sampler is the checkpoint: its batch, scored by the trainer after each of the k steps
    gen = torch.Generator().manual_seed(s.seed + 1)
    stale_batch = sample_rollouts(model, tokenizer, problems, s.group_size, DEFAULT_MAX_NEW_TOKENS, s.temperature, gen)

    def score(policy) -> float:
        with torch.no_grad():
            lp, _ = response_log_probs(
                policy,
                stale_batch.input_ids,
                stale_batch.attention_mask,
                stale_batch.position_ids,
                stale_batch.prompt_width,
                s.temperature,
            )
        kl = kl_estimate(stale_batch.rollout_log_prob.double(), lp.double(), "k3")
        return float(kl[stale_batch.response_mask > 0].mean())

    ahead, stale_kl = _stale_trainer(s, model, tokenizer, on_progress, score)
    tokens, sequences, summary, corrections = [], [], [], []
    reward_mean = math.nan
    batches = {}  # one batch per way of sampling (the same seed draws the same batch): a replay row reuses its truncation's
    for i, name in enumerate(SAMPLERS):
        cfg = s.sampler_settings(name)
        trainer_model = ahead if name == "stale" else model
        how = (cfg.get("rollout_dtype"), cfg.get("top_p", 1.0), cfg.get("top_k", 0))
        if how not in batches:
            sampler = model
            if "rollout_dtype" in cfg:
                sampler = copy.deepcopy(model).to(ROLLOUT_DTYPES[cfg["rollout_dtype"]])
            gen = torch.Generator().manual_seed(s.seed + 1)
            batches[how] = sample_rollouts(
                sampler,
                tokenizer,
                problems,
                s.group_size,
                DEFAULT_MAX_NEW_TOKENS,
                s.temperature,
                gen,
                top_p=cfg.get("top_p", 1.0),
                top_k=cfg.get("top_k", 0),
            )
        batch = batches[how]
        args = (batch.input_ids, batch.attention_mask, batch.position_ids, batch.prompt_width, s.temperature)
        with torch.no_grad():
            full, _ = response_log_probs(trainer_model, *args)  # (B, T) over the whole vocabulary
            old = full
            if cfg.get("replay_sampling_mask"):  # the trainer renormalises over the sampler's kept set
                old, _ = response_log_probs(trainer_model, *args, sampling_mask=batch.sampling_mask)
        if name == "float32":
            reward_mean = float(batch.rewards.float().mean())
        mask = batch.response_mask
        real = mask > 0
        log_ratio = torch.where(real, old - batch.rollout_log_prob, torch.zeros_like(old)).double()  # (B, T)
        flat = log_ratio[real]
        pos = torch.arange(log_ratio.shape[1]).expand_as(log_ratio)[real.cpu()]
        kept_mass = math.nan
        if batch.sampling_mask is not None:  # truncated: the full distribution's mass the sampler kept
            kept_mass = (full - batch.rollout_log_prob)[real].double().exp().cpu().numpy()
        tokens.append(
            pd.DataFrame(
                {
                    "sampler": name,
                    "log_ratio": flat.cpu().numpy(),
                    "position": pos.numpy(),
                    "kept_mass": kept_mass,
                }
            )
        )
        lengths = real.sum(-1).cpu()
        seq_sum = log_ratio.sum(-1).cpu()
        sequences.append(
            pd.DataFrame(
                {
                    "sampler": name,
                    "length": lengths.numpy(),
                    "log_ratio_sum": seq_sum.numpy(),
                    "log_ratio_mean": (seq_sum / lengths.clamp(min=1)).numpy(),
                }
            )
        )
        kl = kl_estimate(batch.rollout_log_prob.double(), old.double(), "k3")  # samples from the sampler
        summary.append(
            {
                "sampler": name,
                "kl": float(kl[real].mean()),
                "mean": float(flat.mean()),
                "abs_mean": float(flat.abs().mean()),
                "abs_p99": float(flat.abs().quantile(0.99)),
                "abs_max": float(flat.abs().max()),
                "seq_abs_max": float(seq_sum.abs().max()),
                "ratio_below_one": float((flat < 0).double().mean()),
                "tokens": int(real.sum()),
                "sequences": int(len(lengths)),
            }
        )
        for cname, spec in CORRECTIONS.items():
            weight, kept = correction_weights(cname, old, batch.rollout_log_prob, mask)
            dropped = (~kept) & real
            capped = (math.nan, math.nan)
            if spec.kind == "truncate":  # how often its cap binds (verl rollout_is_ratio_fraction_high)
                capped = cap_shares(cname, old, batch.rollout_log_prob, mask)
            corrections.append(
                {
                    "sampler": name,
                    "correction": cname,
                    "weight_mean": float(weight[real].double().mean()),
                    "tokens_dropped": float(dropped[real].double().mean()),
                    "sequences_dropped": float((dropped.sum(-1) == real.sum(-1)).double().mean()),
                    "sequences_touched": float(dropped.any(-1).double().mean()),
                    "tokens_capped": capped[0],
                    "sequences_capped": capped[1],
                }
            )
        # verl's presets (their correction part): before the step's first update pi = pi_old, so a bypass
        # preset's weights (verl forms them from pi / pi_rollout) are these too
        for pname in PRESETS:
            weight, kept = preset_weights(pname, old, batch.rollout_log_prob, mask)
            dropped = (~kept) & real
            corrections.append(
                {
                    "sampler": name,
                    "correction": pname,
                    "weight_mean": float(weight[real].double().mean()),
                    "tokens_dropped": float(dropped[real].double().mean()),
                    "sequences_dropped": float((dropped.sum(-1) == real.sum(-1)).double().mean()),
                    "sequences_touched": float(dropped.any(-1).double().mean()),
                    "tokens_capped": math.nan,
                    "sequences_capped": math.nan,
                }
            )
        if on_progress is not None:
            on_progress(s.stale_steps + i + 1, total)
    return MismatchResult(
        settings=s,
        tokens=pd.concat(tokens, ignore_index=True),
        sequences=pd.concat(sequences, ignore_index=True),
        summary=pd.DataFrame(summary),
        corrections=pd.DataFrame(corrections),
        reward_mean=reward_mean,
        stale_kl=stale_kl,
    )


def correction_curves(r_min: float = 0.2, r_max: float = 5.0, points: int = 241) -> pd.DataFrame:
    """Each correction's weight against the ratio pi_train / pi_rollout, from ``correction_weights``.

    Evaluated on one-token responses, so a token rule's ratio, a sequence rule's product ratio and
    (inverted) the geometric-mean rule's statistic are the same number r: the curve of a sequence
    rule is its weight as a function of the whole response's ratio. Default bands.

    Returns:
        one row per (correction, r): ``correction``, ``ratio`` (r, log-spaced in [r_min, r_max]),
        ``weight``, ``kept`` (bool).

    Raises:
        ValueError: naming ``r_min`` / ``r_max`` / ``points`` out of range.
    """
    if not (math.isfinite(r_min) and math.isfinite(r_max) and 0 < r_min < 1 < r_max):
        raise ValueError(f"r_min: need 0 < r_min < 1 < r_max, got r_min={r_min}, r_max={r_max}")
    if isinstance(points, bool) or not isinstance(points, int) or not 3 <= points <= 10_001:
        raise ValueError(f"points: must be a whole number in [3, 10001], got {points!r}")
    log_r = torch.linspace(math.log(r_min), math.log(r_max), points, dtype=torch.float64)
    log_r = torch.cat([log_r, torch.zeros(1, dtype=torch.float64)]).unique()  # r = 1 exactly on the grid
    old = log_r.unsqueeze(1)  # (N, 1) one-token responses, rollout log-prob 0
    rollout = torch.zeros_like(old)
    mask = torch.ones_like(old)
    frames = []
    for name in CORRECTIONS:
        weight, kept = correction_weights(name, old, rollout, mask)
        frames.append(
            pd.DataFrame(
                {
                    "correction": name,
                    "ratio": log_r.exp().numpy(),
                    "weight": weight[:, 0].numpy(),
                    "kept": kept[:, 0].numpy(),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


TRUST_REGION_OBJECTIVE = "grpo"  # the trust region drawn beside the corrections (the live arms train it)


def trust_region_curves(r_min: float = 0.2, r_max: float = 5.0, points: int = 241) -> pd.DataFrame:
    """The trust region of :data:`TRUST_REGION_OBJECTIVE` on the same ratio axis: its gradient weight
    dJ/d log pi against r = pi_theta / pi_old for A = +1 and A = -1, from
    ``rlviz.experiments.curves.evaluate`` (``policy_loss`` and autograd), default settings.

    Returns:
        one row per (advantage, r): ``advantage``, ``ratio``, ``gradient_weight``.

    Raises:
        ValueError: as :func:`correction_curves`.
    """
    from rlviz.experiments.curves import CurveSettings, evaluate

    ratios = correction_curves(r_min, r_max, points).query("correction == 'none'")["ratio"].to_numpy()
    frames = []
    for advantage in (1.0, -1.0):
        frame = evaluate(TRUST_REGION_OBJECTIVE, ratios, advantage, CurveSettings())
        frames.append(frame[["ratio", "gradient_weight"]].assign(advantage=advantage))
    return pd.concat(frames, ignore_index=True)


# -- live side by side ------------------------------------------------------------------------

# The live run's arms besides one per correction: the matched control, an fp16 sampler, the trainer
# replaying the sampler's kept set (top-p < 1), R3 (MoE).
EXTRA_ARMS = ("matched", "float16", "mask_replay", "r3")
LIVE_ARM_KEYS = ("matched", *CORRECTIONS, *EXTRA_ARMS[1:])


def live_arms(sampler: dict[str, Any], model: str) -> list[Arm]:
    """Every arm the live run offers with the mismatched ``sampler`` (``TrainConfig`` sampler fields).

    ``matched``: the sampler is the policy (float32, no staleness, no truncation), the control;
    one arm per entry of ``CORRECTIONS`` (``none`` is the mismatched sampler uncorrected): the
    mismatched sampler with that correction (default band); ``float16``: the same sampler in
    float16 (Qi et al. arXiv 2510.26788), uncorrected; ``mask_replay``: the mismatched sampler
    uncorrected, the trainer renormalising over the sampler's top-p kept set
    (``TrainConfig.replay_sampling_mask``; the same as ``none`` when the sampler does not truncate);
    ``r3`` (MoE only): the mismatched sampler uncorrected, the trainer replaying the sampler's routing
    (verl R3). All train GRPO.
    """
    arms = [Arm("matched", "grpo", {}, {"rollout_dtype": "float32", "rollout_stale_steps": 0, "top_p": 1.0})]
    arms += [Arm(name, "grpo", {}, {**sampler, "rollout_correction": name}) for name in CORRECTIONS]
    arms.append(Arm("float16", "grpo", {}, {**sampler, "rollout_dtype": "float16"}))
    arms.append(Arm("mask_replay", "grpo", {}, {**sampler, "replay_sampling_mask": True}))
    if model == "moe":
        arms.append(Arm("r3", "grpo", {"routing_replay": "R3"}, dict(sampler)))
    return arms


@dataclass
class MismatchLiveConfig(MoeLiveConfig):
    """A live run with a mismatched sampler: the arms of :func:`live_arms` (a subset), one seed.

    Attributes:
        arms: keys of :data:`LIVE_ARM_KEYS` (``r3`` only with ``model="moe"``).
        rollout_dtype, rollout_stale_steps, top_p: the mismatched sampler (``TrainConfig`` fields).
        steps, lr, mu, mini_batches, prompts_per_step, group_size, seed, heldout_samples, model,
        device: as :class:`rlviz.experiments.moe.MoeLiveConfig` (``model``: ``"dense"`` or ``"moe"``).
    """

    arms: tuple[str, ...] = ("matched", "none", "token_tis", "sequence_mis", "float16")
    lr: float = 3e-4
    model: str = "dense"
    rollout_dtype: str = "bfloat16"
    rollout_stale_steps: int = 4
    top_p: float = 1.0

    def sampler(self) -> dict[str, Any]:
        """The mismatched sampler's ``TrainConfig`` fields."""
        return {
            "rollout_dtype": self.rollout_dtype,
            "rollout_stale_steps": self.rollout_stale_steps,
            "top_p": self.top_p,
        }

    def arm_list(self) -> list[Arm]:
        """The chosen arms, in the order of :func:`live_arms`.

        Raises:
            ValueError: naming ``arms`` (unknown, or ``r3`` on the dense model) or ``model``.
        """
        if self.model not in MODELS:
            raise ValueError(f"model: {self.model!r} is not one of {', '.join(MODELS)}")
        for name in self.arms:
            if name not in LIVE_ARM_KEYS:
                raise ValueError(f"arms: {name!r} is not one of {', '.join(LIVE_ARM_KEYS)}")
        if "r3" in self.arms and self.model != "moe":
            raise ValueError("arms: r3 (routing replay) needs the MoE model (the dense model has no router)")
        return [a for a in live_arms(self.sampler(), self.model) if a.name in self.arms]


class MismatchLiveRun(SideBySideRun):
    """The side-by-side run of a :class:`MismatchLiveConfig`; keep one per session.

    Raises:
        ValueError: a bad setting (the message names it).
    """

    def __init__(self, config: MismatchLiveConfig, policy=None):
        config.validate()
        super().__init__(config.arm_list(), config.run_config(), policy=policy)
        self.mismatch_config = dataclasses.replace(config)


# -- the page's tables and readings, in a language (the page draws them; no Streamlit here) -------------

# the samplers whose rows answer each of the page's questions, held back while it waits
EVIDENCE = {
    "mismatch.q_precision": ("bfloat16", "float16"),
    "mismatch.q_truncation": ("top_p", "top_k", *MASK_REPLAYS),  # the replay rows are the fix: they hint
}
# the live run's figure panels (metrics of ``MismatchLiveRun.metrics_frame``)
LIVE_PANELS = ("reward_mean", "pass_at_1", "rollout_kl", "correction_masked_fraction", "kl_ref", "token_ratio_var")


def times_text(x: float) -> str:
    """A ratio between two measurements as text: 3 significant digits, whole numbers from 100 on."""
    return f"{x:,.0f}" if math.isfinite(x) and x >= 100 else num(x, 2)


def model_names(lang: str) -> dict[str, str]:
    """Model key of :data:`MODELS` -> its name in ``lang``."""
    return {m: t(f"mismatch.model_code.{m}", lang) for m in MODELS}


def correction_names(lang: str) -> dict[str, str]:
    """Correction key of ``CORRECTIONS`` -> its label in ``lang``, in registry order."""
    return {name: spec.label(lang) for name, spec in CORRECTIONS.items()}


def arm_names(lang: str) -> dict[str, str]:
    """Live arm key of :data:`LIVE_ARM_KEYS` -> its name in ``lang`` (a correction arm: the correction's)."""
    corrections = correction_names(lang)
    return {
        key: t(f"mismatch.arm.{key}", lang) if key in (*EXTRA_ARMS, "none") else corrections[key]
        for key in LIVE_ARM_KEYS
    }


def sampler_names(settings: MismatchSettings, lang: str) -> dict[str, str]:
    """Sampler key of :data:`SAMPLERS` -> its name in ``lang``, with the ``settings``' k, p and top-k."""
    s = settings
    names = {name: t(f"mismatch.sampler.{name}", lang, k=s.stale_steps, p=f"{s.top_p:g}") for name in SAMPLERS}
    return names | {name: t(f"mismatch.sampler.{name}", lang, k=s.top_k) for name in ("top_k", "top_k_replay")}


def measure_fields(lang: str) -> dict[str, str]:
    """The measurement's parameters (``MismatchSettings`` fields and the sidebar's) -> their widget's label,
    for the message about a bad value."""
    keys = ("model", "stale_steps", "stale_lr", "top_p", "top_k", "prompts", "group_size")
    return {k: t(f"mismatch.{k}", lang) for k in keys} | {
        "seed": t("side.seed", lang),
        "device": t("side.device", lang),
    }


def live_fields(lang: str) -> dict[str, str]:
    """The live run's parameters (``MismatchLiveConfig`` fields and the sidebar's) -> their widget's label."""
    keys = {
        "arms": "arms",
        "model": "model",
        "rollout_dtype": "live_dtype",
        "rollout_stale_steps": "live_stale",
        "top_p": "live_top_p",
        "steps": "steps",
        "lr": "lr",
        "prompts_per_step": "prompts",
        "group_size": "group_size",
        "mu": "mu",
        "mini_batches": "mini_batches",
        "heldout_samples": "heldout",
    }
    return {k: t(f"mismatch.{v}", lang) for k, v in keys.items()} | {"device": t("side.device", lang)}


def summary_table(result: MismatchResult, shown: list[str], names: Mapping[str, str], lang: str) -> pd.DataFrame:
    """The measurement's table: one row per sampler of ``shown`` (in :data:`SAMPLERS` order), its KL to the
    trainer, |l| mean / p99 / max, the largest |sum of l| of a response, the share of ratios below 1 and the
    token count, as text; the columns named in ``lang``, the samplers by ``names``."""
    summary = result.summary[result.summary["sampler"].isin(shown)]
    return pd.DataFrame(
        {
            t("mismatch.col.sampler", lang): [names[x] for x in summary["sampler"]],
            t("mismatch.col.kl", lang): [num(v) for v in summary["kl"]],
            t("mismatch.col.abs_mean", lang): [num(v) for v in summary["abs_mean"]],
            t("mismatch.col.abs_p99", lang): [num(v) for v in summary["abs_p99"]],
            t("mismatch.col.abs_max", lang): [num(v) for v in summary["abs_max"]],
            t("mismatch.col.seq_abs_max", lang): [num(v) for v in summary["seq_abs_max"]],
            t("mismatch.col.below_one", lang): [pct(v) for v in summary["ratio_below_one"]],
            t("mismatch.col.tokens", lang): [str(int(v)) for v in summary["tokens"]],
        }
    )


def measurement_readings(result: MismatchResult, hidden: set[str], lang: str) -> list[str]:
    """The measurement's readings in ``lang`` (Markdown, one paragraph each): bf16 against fp16, the stale
    copy, top-p, top-k; a reading that quotes a sampler of ``hidden`` (held back by a question) is left out."""
    s = result.settings
    bf16, fp16, stale_row = result.row("bfloat16"), result.row("float16"), result.row("stale")
    readings = []
    if "float16" not in hidden:
        if fp16["kl"] < bf16["kl"]:
            times = times_text(bf16["kl"] / max(fp16["kl"], 1e-300))
            verdict = t("mismatch.verdict.fp16_closer", lang, times=times)
        else:
            verdict = t("mismatch.verdict.not_closer", lang)
        readings.append(t("mismatch.read_precision", lang, bf16=num(bf16["kl"]), fp16=num(fp16["kl"]), verdict=verdict))
    if stale_row["kl"] > bf16["kl"]:
        readings.append(
            t(
                "mismatch.read_stale",
                lang,
                k=s.stale_steps,
                kl=num(stale_row["kl"]),
                seq=num(stale_row["seq_abs_max"]),
                times=times_text(stale_row["kl"] / max(bf16["kl"], 1e-300)),
                by_step=" → ".join(num(v) for v in result.stale_kl),
            )
        )
    else:
        readings.append(t("mismatch.read_stale_small", lang, k=s.stale_steps, kl=num(stale_row["kl"])))
    tok, seqs = result.tokens, result.sequences
    if s.top_p < 1 and "top_p" not in hidden:
        tp = tok[tok["sampler"] == "top_p"]
        seq_tp = seqs[seqs["sampler"] == "top_p"]
        readings.append(
            t(
                "mismatch.read_top_p",
                lang,
                p=f"{s.top_p:g}",
                below=pct(result.row("top_p")["ratio_below_one"]),
                max_l=num(float(tp["log_ratio"].max())),
                mass=num(float(tp["kept_mass"].mean())),
                seq_weight=num(float(seq_tp["log_ratio_sum"].map(math.exp).mean())),
            )
        )
    if "top_k" not in hidden:
        tk = tok[tok["sampler"] == "top_k"]
        below = pct(result.row("top_k")["ratio_below_one"])
        readings.append(t("mismatch.read_top_k", lang, k=s.top_k, below=below, mass=num(float(tk["kept_mass"].mean()))))
    if not hidden & {*MASK_REPLAYS, *MASK_REPLAYS.values()}:
        readings.append(_replay_reading(result, lang))
    return readings


def _replay_reading(result: MismatchResult, lang: str) -> str:
    """The mask-replay rows against the truncations they replay: the largest |l| and the KL, with and
    without the trainer renormalising over the sampler's kept set."""
    s = result.settings
    rows = {x: result.row(x) for x in (*MASK_REPLAYS, *MASK_REPLAYS.values())}
    return t(
        "mismatch.read_replay",
        lang,
        p=f"{s.top_p:g}",
        k=s.top_k,
        p_max=num(rows["top_p"]["abs_max"]),
        p_kl=num(rows["top_p"]["kl"]),
        k_max=num(rows["top_k"]["abs_max"]),
        replay_max=num(max(rows[x]["abs_max"] for x in MASK_REPLAYS)),
        replay_kl=num(max(rows[x]["kl"] for x in MASK_REPLAYS)),
    )


def cap_readings(result: MismatchResult, shown: list[str], names: Mapping[str, str], lang: str) -> list[str]:
    """Whether each truncated-IS correction's cap C binds on the measured batch, in ``lang``: one line per
    correction of kind ``"truncate"``, naming the samplers of ``shown`` (by ``names``) where some raw
    weight hit the cap, with the shares of tokens and of responses (``MismatchResult.corrections``'
    ``tokens_capped`` / ``sequences_capped``, from ``rlviz.core.corrections.cap_shares``)."""
    sep = LIST_SEPARATOR[lang]
    lines = []
    for name, spec in CORRECTIONS.items():
        if spec.kind != "truncate":
            continue
        band = f"C = {spec.high:g}" if spec.low is None and spec.high is not None else _band(spec)
        rows = [(x, result.correction(x, name)) for x in shown]
        binds = [(x, r) for x, r in rows if r["tokens_capped"] > 0]
        if not binds:
            lines.append(t("mismatch.read_cap_none", lang, correction=spec.label(lang), band=band))
            continue
        where = sep.join(
            t(
                "mismatch.read_cap_one",
                lang,
                sampler=names[x],
                tokens=pct(r["tokens_capped"]),
                responses=pct(r["sequences_capped"]),
            )
            for x, r in binds
        )
        others = len(rows) - len(binds)
        key = "mismatch.read_cap" if others else "mismatch.read_cap_all"
        lines.append(t(key, lang, correction=spec.label(lang), band=band, where=where, n=others))
    return lines


def _band(spec) -> str:
    """A correction's band as text: ``[low, high]`` (0 and ∞ for an open end), "—" for none."""
    low = "0" if spec.low is None else f"{spec.low:g}"
    high = "∞" if spec.high is None else f"{spec.high:g}"
    return "—" if spec.kind == "none" else f"[{low}, {high}]"


def corrections_list(lang: str) -> str:
    """Every correction of ``CORRECTIONS`` as a Markdown list in ``lang``: its label, level, band and summary."""
    return "\n".join(
        f"- **{spec.label(lang)}** ({t(f'mismatch.level.{spec.level}', lang)}, {_band(spec)}): {spec.summary[lang]}"
        for spec in CORRECTIONS.values()
    )


def registry_table(lang: str) -> pd.DataFrame:
    """The corrections' framework names: one row per correction, the TRL and verl names and the framework
    versions its parity vectors were checked against (``rlviz.core.parity.checked_against``)."""
    from rlviz.core.parity import checked_against

    checked = checked_against("correction")
    none = t("mismatch.none_framework", lang)
    return pd.DataFrame(
        {
            t("mismatch.reg.col.name", lang): [spec.label(lang) for spec in CORRECTIONS.values()],
            t("mismatch.reg.col.checked", lang): [
                LIST_SEPARATOR[lang].join(f"{fw} {version}" for fw, version in checked.get(name, ())) or "—"
                for name in CORRECTIONS
            ],
            t("mismatch.reg.col.trl", lang): [spec.trl or none for spec in CORRECTIONS.values()],
            t("mismatch.reg.col.verl", lang): [spec.verl or none for spec in CORRECTIONS.values()],
        }
    )


def effect_table(result: MismatchResult, shown: list[str], names: Mapping[str, str], lang: str) -> pd.DataFrame:
    """What each correction does to each sampler of ``shown``: tokens dropped · responses touched (mean
    weight), one column per correction (its label in ``lang``), the samplers by ``names``."""
    return pd.DataFrame(
        {
            t("mismatch.col.sampler", lang): [names[x] for x in shown],
            **{
                label: [
                    f"{pct(row['tokens_dropped'])} · {pct(row['sequences_touched'])} ({num(row['weight_mean'])})"
                    for row in (result.correction(x, c) for x in shown)
                ]
                for c, label in correction_names(lang).items()
            },
        }
    )


def rejection_readings(result: MismatchResult, lang: str) -> list[str]:
    """The rejection filters' reading in ``lang``, one per correction of kind ``"reject"``: its label, its
    default band and the share of bf16 and top-p tokens it drops."""
    return [
        t(
            "mismatch.read_rs",
            lang,
            correction=spec.label(lang),
            band=_band(spec),
            bf16=pct(result.correction("bfloat16", name)["tokens_dropped"]),
            top_p=pct(result.correction("top_p", name)["tokens_dropped"]),
            p=f"{result.settings.top_p:g}",
        )
        for name, spec in CORRECTIONS.items()
        if spec.kind == "reject"
    ]


def _piece(name: str | None, band: tuple, lang: str) -> str:
    """A preset's IS weight or rejection filter as text: the correction's label and band, "—" for none."""
    if name is None:
        return "—"
    low, high = band
    return f"{CORRECTIONS[name].label(lang)} [{'0' if low is None else f'{low:g}'}, {'∞' if high is None else f'{high:g}'}]"


def preset_table(lang: str) -> pd.DataFrame:
    """verl's rollout-correction presets (``rlviz.core.corrections.PRESETS``): one row per
    ``RolloutCorrectionConfig`` classmethod, its mode (decoupled, or bypass with verl's ``loss_type`` and
    the rlviz objective that is its loss), the IS weight (:attr:`PresetSpec.importance_weight`, marked
    where the bypass objective holds it) and the rejection filter it composes (corrections of
    ``CORRECTIONS`` with their default bands), and the frameworks its weights were checked against: a
    preset with no weight and no filter of its own is the loss alone, so the loss's check
    (``checked_against("policy")``) stands there, marked as such. Plain text cells (a table cell does
    not render markdown).

    Raises:
        ValueError: ``lang`` is not one of ``rlviz.i18n.LANGS``.
    """
    from rlviz.core.objectives import ALGORITHMS
    from rlviz.core.parity import checked_against

    checked, by_loss = checked_against("correction"), checked_against("policy")
    sep = LIST_SEPARATOR[lang]

    def loss(spec) -> str:
        if spec.objective is None:
            return t("mismatch.preset.any_objective", lang)
        return t("mismatch.preset.bypass", lang, loss=spec.loss_type, objective=ALGORITHMS[spec.objective].title)

    def weight(spec) -> str:
        name, band, in_objective = spec.importance_weight
        text = _piece(name, band, lang)
        return t("mismatch.preset.in_loss", lang, weight=text) if in_objective else text

    def check(spec) -> str:
        frameworks = checked.get(spec.name, ())
        if frameworks:
            return sep.join(f"{fw} {version}" for fw, version in frameworks)
        if spec.objective is not None and spec.rs_correction is None and spec.is_correction is None:
            loss_checked = sep.join(f"{fw} {version}" for fw, version in by_loss.get(spec.objective, ()))
            if loss_checked:
                return t("mismatch.preset.checked_loss", lang, checked=loss_checked)
        return "—"

    specs = list(PRESETS.values())
    return pd.DataFrame(
        {
            t("mismatch.preset.col.name", lang): [f"{s.label(lang)} ({s.name})" for s in specs],
            t("mismatch.preset.col.loss", lang): [loss(s) for s in specs],
            t("mismatch.preset.col.is", lang): [weight(s) for s in specs],
            t("mismatch.preset.col.rs", lang): [_piece(s.rs_correction, s.rs_band, lang) for s in specs],
            t("mismatch.preset.col.checked", lang): [check(s) for s in specs],
        }
    )


def preset_effect_table(result: MismatchResult, shown: list[str], names: Mapping[str, str], lang: str) -> pd.DataFrame:
    """What each verl preset's correction part does to each sampler of ``shown`` (columns, by ``names``):
    tokens dropped · responses touched (mean weight), one row per preset (its label in ``lang``)."""
    return pd.DataFrame(
        {
            t("mismatch.preset.col.name", lang): [spec.label(lang) for spec in PRESETS.values()],
            **{
                names[x]: [
                    f"{pct(row['tokens_dropped'])} · {pct(row['sequences_touched'])} ({num(row['weight_mean'])})"
                    for row in (result.correction(x, p) for p in PRESETS)
                ]
                for x in shown
            },
        }
    )


def live_notes_text(lang: str) -> str:
    """The live section's explanation in ``lang``, with the collapse rule's numbers (``runner.COLLAPSE``)."""
    return t(
        "mismatch.live_text",
        lang,
        window=COLLAPSE["window"],
        drop=f"{COLLAPSE['reward_drop']:g}",
        se=f"{COLLAPSE['noise_se']:g}",
        jump=f"{COLLAPSE['jump']:g}",
    )


def live_warnings(arms, model: str, top_p: float, lang: str) -> list[str]:
    """What the chosen live ``arms`` cannot show with this ``model`` and sampler ``top_p``, in ``lang``, to
    say before Run: R3 on the dense model (refused), the mask-replay arm with a sampler that does not
    truncate (top-p 1: it trains exactly as no correction)."""
    out = []
    if model == "dense" and "r3" in arms:
        out.append(t("mismatch.dense_no_r3", lang))
    if "mask_replay" in arms and top_p >= 1:
        out.append(t("mismatch.replay_no_truncation", lang))
    return out


def make_live_run(config: MismatchLiveConfig, lang: str) -> MismatchLiveRun:
    """A :class:`MismatchLiveRun` of ``config``.

    Raises:
        ValueError: naming ``arms`` (in ``lang``) for an R3 arm on the dense model, or whatever
            :class:`MismatchLiveRun` raises."""
    if config.model == "dense" and "r3" in config.arms:
        raise ValueError(f"arms: {t('mismatch.dense_no_r3', lang)}")
    return MismatchLiveRun(config)


def exported_arms(config: MismatchLiveConfig, names: Mapping[str, str]) -> dict[str, tuple]:
    """The arms' configs for the TRL / verl export: arm name (by ``names``) -> ``(objective, None, None,
    TrainConfig)``; an R3 arm on the dense model is left out (the page's warning says why)."""
    if config.model == "dense":
        config = dataclasses.replace(config, arms=tuple(a for a in config.arms if a != "r3"))
    return {names[a.name]: (a.objective, None, None, train_config(a, config.run_config())) for a in config.arm_list()}


def live_words(names: Mapping[str, str], lang: str) -> dict[str, str]:
    """The ``labels`` of the live figure (``rlviz.plots.moe.live_arms_figure``) in ``lang``: the panels'
    titles, the step axis, the collapse marker, the smoothed line and each arm's name (``name.<arm>``)."""
    words = {k: t(f"metric.{k}", lang) for k in LIVE_PANELS[:5]} | {"step": t("word.step", lang)}
    words |= {"token_ratio_var": t("moe.metric.token_ratio_var", lang), "collapse": t("mismatch.collapse", lang)}
    return words | {"smoothed": t("mismatch.smoothed", lang), **{f"name.{k}": v for k, v in names.items()}}


def live_summary_table(frame: pd.DataFrame, summary: pd.DataFrame, names: Mapping[str, str], lang: str) -> pd.DataFrame:
    """The live run's table: per arm of ``summary`` (``SideBySideRun.summary_frame``) held-out pass@1 start
    -> end, its gain, the collapse step, the mean sampler-trainer KL and masked share over the steps of
    ``frame`` (``metrics_frame``) and the steps run, as text in ``lang``."""

    def arm_mean(arm: str, column: str) -> float:
        values = pd.to_numeric(frame.loc[frame["arm"] == arm, column], errors="coerce")
        return float(values.mean()) if values.notna().any() else math.nan

    arms = summary["arm"]
    return pd.DataFrame(
        {
            t("mismatch.col.arm", lang): [names.get(a, a) for a in arms],
            t("mismatch.col.heldout", lang): [
                f"{cell(a)} → {cell(b)}"
                for a, b in zip(summary["heldout_pass_at_1_start"], summary["heldout_pass_at_1_end"])
            ],
            t("mismatch.col.gain", lang): [cell(v, signed=True) for v in summary["heldout_gain"]],
            t("mismatch.col.collapse_step", lang): [cell(v, 0) for v in summary["collapse_step"]],
            t("mismatch.col.rollout_kl", lang): [num(arm_mean(a, "rollout_kl")) for a in arms],
            t("mismatch.col.masked", lang): [pct(arm_mean(a, "correction_masked_fraction")) for a in arms],
            t("mismatch.col.steps", lang): [str(int(v)) for v in summary["steps"]],
        }
    )


@dataclass(frozen=True)
class StoredReading:
    """What the stored runs (:func:`load_measured`) showed, as the page writes it: a ``header``, the
    runs' settings (``text``), one ``table`` (per arm and seed: held-out pass@1 at the end, the
    sampler-trainer KL, the collapse step) and the ``readings`` below it (Markdown paragraphs)."""

    header: str
    text: str
    table: pd.DataFrame
    readings: list[str]


def stored_reading(measured: Mapping[str, Any], names: Mapping[str, str], lang: str) -> StoredReading:
    """The stored runs of ``benchmarks/mismatch_effect.py`` (the page's defaults, one per seed) in ``lang``,
    the arms by ``names``: the flagged collapses per seed, :func:`measured_consistency`'s verdict per run
    and whether the seeds agree."""
    sep = LIST_SEPARATOR[lang]
    runs = measured["runs"]
    m = runs[0]["settings"]
    text = t(
        "mismatch.measured_text",
        lang,
        arms=sep.join(names.get(a, a) for a in m["arms"]),
        dtype=m["rollout_dtype"],
        stale=m["rollout_stale_steps"],
        lr=f"{m['lr']:g}",
        steps=m["steps"],
        seeds=sep.join(str(run["settings"]["seed"]) for run in runs),
        window=runs[0]["window"],
    )
    columns = {t("mismatch.col.arm", lang): [names.get(a, a) for a in runs[0]["arms"]]}
    for run in runs:
        seed, rows = run["settings"]["seed"], run["arms"].values()
        columns[f"{t('mismatch.col.heldout', lang)} · {seed}"] = [cell(r["heldout_end"]) for r in rows]
        columns[f"{t('mismatch.col.rollout_kl', lang)} · {seed}"] = [num(r["rollout_kl"]) for r in rows]
        columns[f"{t('mismatch.col.collapse_step', lang)} · {seed}"] = [
            "—" if r["collapse_step"] is None else str(r["collapse_step"]) for r in rows
        ]
    readings = []
    for run in runs:
        flagged = [a for a, r in run["arms"].items() if r["collapse_step"] is not None]
        if flagged:
            key = "mismatch.measured_collapse_control" if "matched" in flagged else "mismatch.measured_collapse"
            readings.append(t(key, lang, seed=run["settings"]["seed"], arms=sep.join(names.get(a, a) for a in flagged)))
    together = measured_consistency(measured)
    for reading in together["readings"]:
        fields = reading["fields"] | {"best": names.get(reading["best"], reading["best"]), "seed": reading["seed"]}
        readings.append(t(f"mismatch.measured.{reading['verdict']}", lang, **fields))
    if together["agree"]:
        readings.append(t("mismatch.measured_seeds.agree", lang))
    else:
        if together["kl_lower"]:
            ranges = sep.join(
                f"{names.get(a, a)} {' / '.join(num(v) for v in values)}" for a, values in together["kl_lower"].items()
            )
            none = " / ".join(num(v) for v in together["none_kl"])
            consistent = t("mismatch.measured_consistent.kl", lang, ranges=ranges, none=none)
        else:
            consistent = t("mismatch.measured_consistent.none", lang)
        readings.append(t("mismatch.measured_seeds.disagree", lang, consistent=consistent))
    header = t("mismatch.measured_header", lang)
    return StoredReading(header=header, text=text, table=pd.DataFrame(columns), readings=readings)


def grid_words(names: Mapping[str, str], lang: str) -> dict[str, str]:
    """The ``labels`` of the measurement's figure (``rlviz.plots.mismatch.log_ratio_grid``) in ``lang``: its
    panels, axes and title, and each sampler's name (``sampler.<key>``, by ``names``)."""
    words = {k: t(f"mismatch.{k}", lang) for k in ("panel.token", "panel.sequence", "share", "log_ratio")}
    return words | {"title": t("mismatch.grid_header", lang), **{f"sampler.{k}": v for k, v in names.items()}}


def correction_words(lang: str) -> dict[str, str]:
    """The ``labels`` of the corrections' figure (``rlviz.plots.mismatch.correction_figure``) in ``lang``:
    axes, advantage signs, panels (the trust region's names :data:`TRUST_REGION_OBJECTIVE`) and each
    correction's label (``name.<key>``)."""
    from rlviz.core.objectives import ALGORITHMS

    keys = ("ratio", "weight", "trust_ratio", "trust_weight", "adv.pos", "adv.neg", "panel.corrections")
    words = {k: t(f"mismatch.{k}", lang) for k in keys}
    words |= {f"name.{k}": v for k, v in correction_names(lang).items()}
    objective = ALGORITHMS[TRUST_REGION_OBJECTIVE].title
    return words | {"panel.trust": t("mismatch.panel.trust", lang, objective=objective)}
