"""Config export: the settings of a page as TRL ``GRPOConfig`` arguments and verl Hydra overrides.

:func:`export_config` turns an objective's settings (and, where a page has them, the run's training
settings, :class:`rlviz.lm.trainer.TrainConfig`) into an :class:`ExportedConfig`: the TRL keyword
arguments, the verl overrides, the documented differences that apply to these settings (each with its
numbers computed from them) and the settings neither framework can express.

Where the names come from, never typed per objective here:

* each setting's ``Setting.trl`` / ``Setting.verl`` in the registry (``rlviz.core.objectives``);
* each objective's selector arguments ``AlgorithmSpec.trl`` / ``.verl`` and its notes
  ``AlgorithmSpec.framework_notes``;
* below, the vocabulary of settings every objective shares: how a framework spells a named value
  (:data:`VALUES`), what it does for a setting it has no name for (:data:`IMPLICIT`), the training
  settings (:data:`TRAIN_NAMES`) and the notes on shared settings (:data:`SETTING_NOTES`).

Sources (the snapshots of ``shared/reference/algorithms.md`` §0): TRL ``trl/trainer/grpo_config.py``
and ``grpo_trainer.py``; verl ``verl/trainer/config/actor/actor.yaml``, ``rollout/rollout.yaml``,
``data/legacy_data.yaml``, ``verl/trainer/config/algorithm.py``, ``verl/trainer/ppo/core_algos.py``;
verl-recipe ``dapo/config/dapo_trainer.yaml`` (overlong buffer, ``filter_groups``). What TRL 1.16 and
verl 0.9.1 make of an export is checked by ``tools/parity/handoff.py`` (``tests/test_handoff.py``).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rlviz.core.corrections import CORRECTIONS, correction_band
from rlviz.core.estimators import ESTIMATORS
from rlviz.core.frameworks import FRAMEWORKS, TRAIN_NAMES, TRL_LOSS_TYPES, framework_name
from rlviz.core.objectives import OWN_ESTIMATOR, TRAINER_SETTINGS, FrameworkNote, get_algorithm, trust_band
from rlviz.lm.trainer import TrainConfig, split_settings
from rlviz.locale.export import STRINGS

__all__ = [
    "FRAMEWORKS",
    "TRL_LOSS_TYPES",
    "IMPLICIT",
    "SETTING_NOTES",
    "TRAIN_NAMES",
    "VALUES",
    "ExportedConfig",
    "export_config",
    "export_fields",
    "framework_name",
]

_LANGS = ("en", "zh")

# How a framework spells a named value of a shared setting; a value missing here has no equivalent.
VALUES: dict[tuple[str, str], dict[Any, Any]] = {
    ("trl", "loss_agg_mode"): {mode: names[0] for mode, names in TRL_LOSS_TYPES.items() if names},
    ("verl", "kl_estimator"): {
        "k1": "kl",
        "k2": "mse",
        "k3": "low_var_kl",
        "abs": "abs",
        "k1+": "k1+",
        "k3+": "k3+",
    },  # actor.yaml kl_loss_type; '+' needs verl with verl-project/verl#6058
    # GRPOConfig.use_bias_correction_kl (default True in TRL 1.16): plain k3 must switch it off
    ("trl", "kl_estimator"): {"k3": False, "k3_bc": True},
    ("verl", "advantage"): {"group": "grpo", "gae": "gae"},  # algorithm.py adv_estimator
    ("verl", "scale_rewards"): {"group": True, "none": False},  # algorithm.py norm_adv_by_std_in_grpo
    ("verl", "routing_replay"): {"none": "disabled", "R2": "R2", "R3": "R3"},  # actor.yaml router_replay.mode
}
# What a framework does for a setting it has no name for; any other value has no equivalent there.
IMPLICIT: dict[tuple[str, str], Any] = {
    ("trl", "advantage"): "group",  # GRPOTrainer: group-relative advantages only
    ("trl", "dynamic_sampling"): False,
    ("trl", "routing_replay"): "none",
    ("trl", "kl_in_reward"): False,
    ("trl", "rollout_dtype"): "float32",  # samples with the trained weights (without vLLM)
    ("trl", "rollout_stale_steps"): 0,  # samples with the current weights
    ("verl", "rollout_stale_steps"): 0,  # the synchronous trainer; the async one bounds staleness instead
    ("verl", "overlong_filtering"): False,
    ("trl", "replay_sampling_mask"): False,  # the trainer scores the full vocabulary
    ("verl", "replay_sampling_mask"): False,
}
# Framework names that are not config arguments (TRL's overlong punishment is a reward function).
_NOT_ARGUMENTS = {("trl", "overlong_shaping")}
# Settings that do not matter at these values (left out of both configs).
_IRRELEVANT: dict[str, Callable[[Mapping[str, Any]], bool]] = {"kl_estimator": lambda f: f["beta"] == 0}
# A switch (a bool setting) is written only when on: off is every framework's default, and verl's
# main trainer has no overlong-buffer keys to set off. Switched on, it brings these.
_COMPANIONS: dict[tuple[str, str], dict[str, Any]] = {
    ("verl", "overlong_shaping"): {"reward.reward_manager.name": "dapo"},  # verl-recipe DAPO reward manager
    ("verl", "dynamic_sampling"): {"algorithm.filter_groups.metric": "acc"},  # rlviz filters on the 0/1 reward
}

# verl's mask band needs a lower bound > 0; this one never binds (ratios are >= exp(-SAFETY_BOUND))
_NO_LOWER = 1e-9
# the settings _correction_args writes
_CORRECTION_FIELDS = ("rollout_correction", "rollout_correction_low", "rollout_correction_high")
# a training setting is written only where it acts
_TRAIN_RELEVANT: dict[str, Callable[[Mapping[str, Any]], bool]] = {
    "kl_in_reward": lambda f: f["beta"] > 0,
    "overlong_buffer_length": lambda f: f["overlong_shaping"],
    "overlong_penalty_factor": lambda f: f["overlong_shaping"],
    "max_resample_rounds": lambda f: f["dynamic_sampling"],
    "value_lr": lambda f: f["advantage"] == "gae",
    "top_p": lambda f: f["top_p"] < 1,
    "top_k": lambda f: f["top_k"] > 0,
    "replay_sampling_mask": lambda f: f["top_p"] < 1 or f["top_k"] > 0,  # no mask to replay without truncation
    # Skywork-OR1's adaptive entropy control acts only with a target
    **{
        name: (lambda f: f["entropy_target"] is not None)
        for name in ("entropy_target", "entropy_coef_delta", "entropy_coef_min", "entropy_coef_max")
    },
}


def _note(framework: str, key: str, when=None, unmapped: tuple[str, ...] = (), omit: tuple[str, ...] = ()):
    return FrameworkNote(framework, STRINGS[f"export.note.{key}"], when, unmapped, omit)


_BATCH = ("prompts_per_step", "group_size", "mini_batches")


def _given(*names: str) -> Callable[[Mapping[str, Any]], bool]:
    """Whether the caller gave any of these training settings (notes about them need them)."""
    return lambda f: any(name in f["given"] for name in names)


# Notes on settings every objective shares (an objective's own are in its registry entry).
# Sources: shared/reference/algorithms.md §2, §4, §5, §7, §13, §14.
SETTING_NOTES: tuple[FrameworkNote, ...] = (
    _note("verl", "agg_norm", lambda f: f["loss_agg_mode"] == "seq-mean-token-sum-norm"),
    _note("trl", "agg_sum", lambda f: f["loss_agg_mode"] == "seq-mean-token-sum"),
    _note("trl", "agg_token_sum", lambda f: f["loss_agg_mode"] == "token-sum"),
    _note("verl", "agg_token_sum", lambda f: f["loss_agg_mode"] == "token-sum"),
    _note(
        "trl",
        "dapo_scope",
        lambda f: _given(*_BATCH)(f) and f["loss_agg_mode"] == "token-mean" and f["mini_batches"] > 1,
    ),
    _note("verl", "dual_off", lambda f: "dual_clip_c" in f and f["dual_clip_c"] is None, unmapped=("dual_clip_c",)),
    _note("trl", "delta_equal", lambda f: f.get("dual_clip_c") is not None and f["dual_clip_c"] > f["ratio_high"]),
    _note(
        "trl",
        "delta_differs",
        lambda f: f.get("dual_clip_c") is not None and f["dual_clip_c"] <= f["ratio_high"],
        unmapped=("dual_clip_c",),
    ),
    _note("trl", "kl_k3", lambda f: f["beta"] > 0 and f["kl_estimator"] not in ("k3", "k3_bc")),
    _note("trl", "kl_bc", lambda f: f["beta"] > 0 and f["kl_estimator"] == "k3_bc"),
    _note("verl", "kl_bc", lambda f: f["beta"] > 0 and f["kl_estimator"] == "k3_bc"),
    _note("trl", "kl_in_reward", lambda f: f["kl_in_reward"] and f["beta"] > 0),
    _note("verl", "scale_batch", lambda f: f["scale_rewards"] == "batch"),
    _note("trl", "gae", lambda f: f["advantage"] == "gae", unmapped=("value_lr",)),
    _note(
        "trl",
        "overlong_trl",
        lambda f: f["overlong_shaping"],
        omit=("overlong_buffer_length", "overlong_penalty_factor"),
    ),
    _note("verl", "overlong_verl", lambda f: f["overlong_shaping"]),
    _note("trl", "dynamic_trl", lambda f: f["dynamic_sampling"], unmapped=("max_resample_rounds",)),
    _note("verl", "dynamic_verl", lambda f: f["dynamic_sampling"]),
    _note("verl", "filtering_verl", lambda f: f["overlong_filtering"]),
    _note("trl", "routing_trl", lambda f: f["routing_replay"] != "none"),
    _note(
        "trl",
        "entropy_trl",
        lambda f: _given("entropy_coef")(f) and f["entropy_coef"] > 0 and f["loss_agg_mode"] != "token-mean",
    ),
    _note("trl", "adaptive_entropy_trl", lambda f: _given("entropy_target")(f) and f["entropy_target"] is not None),
    _note("verl", "adaptive_entropy_verl", lambda f: _given("entropy_target")(f) and f["entropy_target"] is not None),
    _note(
        "trl",
        "batch_trl",
        lambda f: _given(*_BATCH)(f) and f["responses_per_step"] % f["mini_batches"] != 0,
        unmapped=("mini_batches",),
    ),
    _note(
        "verl",
        "batch_verl",
        lambda f: _given(*_BATCH)(f) and f["prompts_per_step"] % f["mini_batches"] != 0,
        unmapped=("mini_batches",),
    ),
    _note("trl", "processes_trl", _given(*_BATCH)),
    _note("trl", "rollout_dtype_trl", lambda f: _given("rollout_dtype")(f) and f["rollout_dtype"] != "float32"),
    _note(
        "verl",
        "correction_no_lower_verl",
        lambda f: (
            _given("rollout_correction")(f)
            and f["rollout_correction"] in CORRECTIONS
            and CORRECTIONS[f["rollout_correction"]].kind == "mask"
            and correction_band(f["rollout_correction"], f["rollout_correction_low"], f["rollout_correction_high"])[0]
            is None
        ),
    ),
    _note(
        "trl",
        "correction_trl",
        lambda f: _given("rollout_correction")(f) and f["rollout_correction"] != "none",
    ),
)

# the TrainConfig fields a run exports (the algorithm and its settings come separately; a seed does
# not carry across frameworks, measure_kl_ref is what rlviz reports, not how it trains, and the task
# is the data set and reward function, not a trainer argument)
_RUN_FIELDS = tuple(
    f.name
    for f in dataclasses.fields(TrainConfig)
    if f.name not in ("algorithm", "settings", "seed", "measure_kl_ref", "task")
)


# The arguments an advantage estimator other than the objective's own replaces (``adv_estimator``).
_ESTIMATOR_KEYS = {
    "trl": ("scale_rewards", "multi_objective_aggregation"),
    "verl": ("algorithm.adv_estimator", "algorithm.norm_adv_by_std_in_grpo"),
}


def _estimator_args(fw: str, fields: Mapping[str, Any], out: dict[str, Any], missing: set[str]) -> None:
    """With ``adv_estimator`` set to a registry estimator, its framework arguments
    (``EstimatorSpec.trl_args`` / ``verl_args``) replace the objective's own advantage arguments in
    ``out``; where the framework has none, ``adv_estimator`` goes into ``missing``."""
    name = fields.get("adv_estimator", OWN_ESTIMATOR)
    if name == OWN_ESTIMATOR:
        return
    args = getattr(ESTIMATORS[name], f"{fw}_args")
    for key in _ESTIMATOR_KEYS[fw]:
        out.pop(key, None)
    if args is None:
        missing.add("adv_estimator")
    else:
        missing.discard("adv_estimator")
        out.update(args)


def _number(x: Any) -> Any:
    """A float rounded to 12 significant digits (1 + 0.2 prints as 1.2); anything else unchanged."""
    if isinstance(x, float) and math.isfinite(x):
        return float(f"{x:.12g}")
    return x


def _count(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


def export_fields(
    name: str,
    loss_overrides: Mapping[str, Any] | None = None,
    train_overrides: Mapping[str, Any] | None = None,
    train_config: TrainConfig | Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Everything the export reads, checked: ``(fields, given)``.

    ``fields``: every loss and training setting of ``name`` (resolved, by rlviz name), the run's
    training settings (``TrainConfig`` fields: given, or the trainer's defaults), and what the notes
    compute from them: ``responses_per_step`` (prompts x G), ``B`` (responses per optimizer step:
    that / mini-batches), ``norm_constant`` (Dr.GRPO's L_max: ``norm_length`` or the length limit),
    ``verl_scale`` (B x L_max, verl's ``loss_scale_factor`` for the same step), ``ratio_low`` /
    ``ratio_high`` (the trust band, :func:`rlviz.core.objectives.trust_band`), ``title``, ``given``.
    ``given``: the ``TrainConfig`` fields the caller gave (the ones exported).

    Raises ``ValueError`` naming the parameter: see :func:`export_config`.
    """
    spec = get_algorithm(name)
    loss_overrides, train_overrides = dict(loss_overrides or {}), dict(train_overrides or {})
    for key in loss_overrides:
        if key not in spec.defaults:
            raise ValueError(f"{key}: not a loss setting of {name} (loss settings: {', '.join(spec.defaults)})")
    for key in train_overrides:
        if key not in spec.train_defaults:
            raise ValueError(
                f"{key}: not a training setting of {name} (training settings: {', '.join(spec.train_defaults)})"
            )
    defaults = TrainConfig()
    if isinstance(train_config, TrainConfig):
        if train_config.algorithm != name:
            raise ValueError(f"train_config: its algorithm is {train_config.algorithm!r}, not {name!r}")
        run = {f: getattr(train_config, f) for f in _RUN_FIELDS}
        given = _RUN_FIELDS
        base = dict(train_config.settings)
    elif train_config is None:
        run, given, base = {f: getattr(defaults, f) for f in _RUN_FIELDS}, (), {}
    elif isinstance(train_config, Mapping):
        unknown = set(train_config) - set(_RUN_FIELDS)
        if unknown:
            raise ValueError(f"train_config: {sorted(unknown)} not among {', '.join(_RUN_FIELDS)}")
        run = {f: train_config.get(f, getattr(defaults, f)) for f in _RUN_FIELDS}
        given, base = tuple(f for f in _RUN_FIELDS if f in train_config), {}
    else:
        raise ValueError(f"train_config: a TrainConfig, a mapping of its fields or None, got {type(train_config)}")
    settings = {**base, **loss_overrides, **train_overrides}
    loss, train = split_settings(name, settings)  # checked: names, types and ranges
    if given:
        TrainConfig(algorithm=name, settings=settings, **run).validate()
        if loss.get("norm_length", 0) is None and "max_new_tokens" in given:
            loss["norm_length"] = run["max_new_tokens"]  # as the trainer: Dr.GRPO's L_max is the length limit
    band = trust_band(name, **loss)
    responses = run["prompts_per_step"] * run["group_size"]
    per_step = _count(responses / run["mini_batches"])
    norm_constant = loss.get("norm_length") or run["max_new_tokens"]
    fields = {
        **loss,
        **train,
        **run,
        "responses_per_step": responses,
        "B": per_step,
        "norm_constant": norm_constant,
        "verl_scale": _count(_number(per_step * norm_constant)),
        "ratio_low": None if band is None else _number(band[0]),
        "ratio_high": None if band is None else _number(band[1]),
        "title": spec.title,
        "given": given,
    }
    return fields, given


def _batch_args(framework: str, f: Mapping[str, Any]) -> dict[str, Any]:
    """The batch sizes of one step: G x prompts responses, ``mini_batches`` optimizer steps each pass.
    TRL: one generation batch of ``per_device_train_batch_size x steps_per_generation`` completions
    (one process, no gradient accumulation); verl: ``data.train_batch_size`` prompts in mini-batches
    of ``ppo_mini_batch_size`` prompts (verl multiplies it by ``rollout.n``)."""
    n, m = f["prompts_per_step"], f["mini_batches"]
    if framework == "trl":
        return {
            "per_device_train_batch_size": f["responses_per_step"] // m,
            "gradient_accumulation_steps": 1,
            "steps_per_generation": m,
        }
    return {"data.train_batch_size": n, "actor_rollout_ref.actor.ppo_mini_batch_size": n // m}


def _verl_kl(out: dict[str, Any], f: Mapping[str, Any], in_reward_given: bool) -> None:
    """verl's KL switches: ``actor.use_kl_loss`` with ``kl_loss_coef`` / ``kl_loss_type`` (the
    registry's "with use_kl_loss"), or, with ``kl_in_reward``, ``algorithm.kl_ctrl.kl_coef`` and
    ``algorithm.kl_penalty`` (verl ``algorithm.py``)."""
    coef, kind = "actor_rollout_ref.actor.kl_loss_coef", "actor_rollout_ref.actor.kl_loss_type"
    in_reward = in_reward_given and f["kl_in_reward"] and f["beta"] > 0
    out["actor_rollout_ref.actor.use_kl_loss"] = f["beta"] > 0 and not in_reward
    if f["beta"] == 0:
        out.pop(coef, None)
    elif in_reward:
        out["algorithm.kl_ctrl.kl_coef"] = out.pop(coef)
        if kind in out:
            out["algorithm.kl_penalty"] = out.pop(kind)


@dataclass(frozen=True)
class ExportedConfig:
    """An objective's settings in TRL and verl.

    Attributes:
        algorithm: the registry name; ``title``: its display name.
        trl: ``GRPOConfig`` keyword arguments, ``{name: value}``.
        trl_main: whether ``trl.GRPOTrainer`` implements the objective (else a note says where).
        verl: Hydra overrides, ``{dotted.key: value}``.
        notes: the documented differences that apply to these settings, each
            ``{"framework": "trl" | "verl", "en": ..., "zh": ...}`` with its numbers filled in.
        unmapped: per framework, the settings it has no equivalent for (rlviz names, with values).
    """

    algorithm: str
    title: str
    trl: dict[str, Any]
    trl_main: bool
    verl: dict[str, Any]
    notes: list[dict[str, str]] = field(default_factory=list)
    unmapped: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_trl_python(self) -> str:
        """A copyable snippet: ``from trl import GRPOConfig`` and ``config = GRPOConfig(...)``, with a
        comment naming what has no equivalent (and, where the main trainer lacks the objective, that)."""
        lines = []
        if not self.trl_main:
            lines.append(f"# {self.title} is not in trl.GRPOTrainer: see the notes for its trainer.")
        lines += ["from trl import GRPOConfig", "", "config = GRPOConfig("]
        lines += [f"    {key}={_python(value)}," for key, value in self.trl.items()]
        lines.append(")")
        missing = self.unmapped.get("trl", {})
        if missing:
            lines.append("# no GRPOConfig equivalent: " + ", ".join(f"{k}={v!r}" for k, v in missing.items()))
        return "\n".join(lines)

    def to_verl_cli(self) -> str:
        """The verl overrides as ``key=value`` lines (Hydra syntax: ``True`` / ``False``, ``null``)."""
        return "\n".join(f"{key}={_hydra(value)}" for key, value in self.verl.items())


def _python(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value)  # double quotes; a valid Python literal for these ASCII names
    return repr(_number(value))


def _hydra(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value)
    return str(_number(value))


def _format(text: dict[str, str], fields: Mapping[str, Any]) -> dict[str, str]:
    from rlviz.i18n import fill

    return {lang: fill(text[lang], **fields) for lang in _LANGS}


def _correction_args(fw: str, fields: Mapping[str, Any], out: dict[str, Any], missing: set[str]) -> None:
    """Write the rollout correction (``rlviz.core.corrections``) as ``fw`` names it, into ``out``.

    TRL (``GRPOConfig``, applied on its vLLM path only): ``vllm_importance_sampling_correction``,
    ``vllm_importance_sampling_mode`` = ``<token|sequence>_<truncate|mask>`` and
    ``vllm_importance_sampling_clip_min`` / ``_max``; it has no rejection filter. verl
    (``algorithm.rollout_correction``): ``rollout_is`` = token / sequence with ``rollout_is_threshold``
    (a number: the truncation C; ``"lower_upper"``: IcePop's mask band, which needs a lower bound)
    and ``rollout_rs`` (``seq_mean_k1``, ``seq_sum_k1``: a ``"lower_upper"`` band; ``seq_mean_k3``: an
    upper bound) with ``rollout_rs_threshold`` for a rejection filter (``VERL_RS_OPTION``).
    Settings a framework cannot express go to ``missing``."""
    from rlviz.core.corrections import VERL_RS_OPTION, correction_band, get_correction

    name = fields["rollout_correction"]
    spec = get_correction(name)
    mismatched = (
        fields["rollout_dtype"] != "float32"
        or fields["rollout_stale_steps"] > 0
        or fields["top_p"] < 1
        or fields["top_k"] > 0
    )
    if fw == "trl" and spec.kind in ("none", "reject"):
        # TRL corrects by default on its vLLM path (sequence_mask, C_max 3): a run that samples with
        # another engine and applies none of TRL's modes switches it off
        if mismatched:
            out["vllm_importance_sampling_correction"] = False
        if spec.kind == "reject":
            missing.add("rollout_correction")
        return
    if name == "none":
        return
    low, high = correction_band(name, fields["rollout_correction_low"], fields["rollout_correction_high"])
    if fw == "trl":
        out["vllm_importance_sampling_correction"] = True
        out["vllm_importance_sampling_mode"] = f"{spec.level}_{spec.kind}"
        out["vllm_importance_sampling_clip_max"] = high
        if low is not None:
            out["vllm_importance_sampling_clip_min"] = low
        return
    root = "algorithm.rollout_correction"
    if spec.kind == "reject":
        option = VERL_RS_OPTION[spec.statistic]
        if not option.endswith("k1"):  # an upper bound alone (seq_mean_k3)
            if low is not None:
                missing.add("rollout_correction_low")
            out[f"{root}.rollout_rs"] = option
            out[f"{root}.rollout_rs_threshold"] = high
            return
        if low is None or high is None:
            missing.add("rollout_correction_low" if low is None else "rollout_correction_high")
            return
        out[f"{root}.rollout_rs"] = option
        out[f"{root}.rollout_rs_threshold"] = _band_text(low, high)
        return
    if spec.kind == "truncate":
        if low is not None:  # verl's TIS truncates from above only
            missing.add("rollout_correction_low")
        out[f"{root}.rollout_is"] = spec.level
        out[f"{root}.rollout_is_threshold"] = high
        return
    if high is None:
        missing.add("rollout_correction_high")
        return
    # a mask band in verl is "lower_upper" with lower > 0; without a lower bound, one that never binds:
    # verl clamps log-ratios (and their sums) to ±20, so no ratio is below exp(-20) ≈ 2.1e-9
    lower = low if low is not None else _NO_LOWER
    out[f"{root}.rollout_is"] = spec.level
    out[f"{root}.rollout_is_threshold"] = _band_text(lower, high)


def _band_text(low: float, high: float) -> str:
    """verl's ``"lower_upper"`` band. Each bound keeps a decimal point or an exponent (``repr`` of a
    float): Hydra's override grammar reads digits joined by ``_`` as one number (``0.5_2`` is 0.52,
    ``1e-09_3`` is 1e-93), a band like ``0.5_2.0`` stays the string verl parses."""
    return f"{float(low)!r}_{float(high)!r}"


def export_config(
    name: str,
    loss_overrides: Mapping[str, Any] | None = None,
    train_overrides: Mapping[str, Any] | None = None,
    train_config: TrainConfig | Mapping[str, Any] | None = None,
) -> ExportedConfig:
    """The TRL and verl configs equivalent to objective ``name`` with these settings.

    Args:
        name: a registry key (``rlviz.core.objectives.ALGORITHMS``).
        loss_overrides: loss settings of ``name`` that differ from the registry (``epsilon_high``,
            ``loss_agg_mode``, ...), as :func:`rlviz.core.objectives.policy_loss` takes them.
        train_overrides: training settings of ``name`` (``scale_rewards``, ``overlong_shaping``,
            ``dynamic_sampling``, ``routing_replay``, ...).
        train_config: the run's training settings: a :class:`~rlviz.lm.trainer.TrainConfig` (all its
            fields exported, its ``settings`` under the overrides), a mapping of some of its fields
            (only those exported, e.g. ``{"max_new_tokens": 16}``), or ``None`` (the objective alone;
            notes that need a batch size take the trainer's defaults and say so with the numbers).

    Returns:
        :class:`ExportedConfig`: the TRL arguments and verl overrides (names from the registry and the
        tables of this module), the notes that apply (numbers computed from these settings), and the
        settings with no equivalent.

    Raises:
        ValueError: naming the parameter: an unknown ``name``; a setting that is not one of
            ``name``'s, or out of range; a ``train_config`` of another algorithm, with an unknown
            field, or out of range (``TrainConfig.validate``).
    """
    spec = get_algorithm(name)
    fields, given = export_fields(name, loss_overrides, train_overrides, train_config)
    selectors = {"trl": spec.trl, "verl": spec.verl}
    configs: dict[str, dict[str, Any]] = {}
    notes: list[dict[str, str]] = []
    unmapped: dict[str, dict[str, Any]] = {}
    for fw in FRAMEWORKS:
        selector = dict(selectors[fw] or {})
        applying = [
            n for n in spec.framework_notes + SETTING_NOTES if n.framework == fw and (n.when is None or n.when(fields))
        ]
        missing = {s for n in applying for s in n.unmapped}
        skip = missing | {s for n in applying for s in n.omit}
        out: dict[str, Any] = {}
        source: dict[str, str] = {}  # config key -> the setting it came from
        collisions: list[dict[str, str]] = []
        for s in spec.loss_settings + spec.train_settings + TRAINER_SETTINGS:
            value = fields[s.name]
            if s.name in skip or (s.name in _IRRELEVANT and _IRRELEVANT[s.name](fields)):
                continue
            if s in TRAINER_SETTINGS and value == s.default:
                continue  # a trainer setting left at its default is not part of the objective's config
            key = None if (fw, s.name) in _NOT_ARGUMENTS else framework_name(s, fw)
            if key is None:
                if (fw, s.name) in _NOT_ARGUMENTS or IMPLICIT.get((fw, s.name), object()) == value:
                    continue
                missing.add(s.name)
                continue
            if value is None or value is False:
                continue  # off: every framework's default (a switch is written only when on)
            if (fw, s.name) in VALUES:
                if value not in VALUES[fw, s.name]:
                    missing.add(s.name)
                    continue
                value = VALUES[fw, s.name][value]
            if key in selector:
                continue  # the objective's selector decides this argument
            out[key], source[key] = value, s.name
            out.update(_COMPANIONS.get((fw, s.name), {}) if value is True else {})
        if fw == "verl":
            _verl_kl(out, fields, "kl_in_reward" in given)
        for f in given:
            if f in ("prompts_per_step", "mini_batches") or f in skip or f in _CORRECTION_FIELDS:
                continue
            if f in _TRAIN_RELEVANT and not _TRAIN_RELEVANT[f](fields):
                continue
            key = TRAIN_NAMES[f][FRAMEWORKS.index(fw)]
            if key is None:
                if IMPLICIT.get((fw, f), object()) != fields[f]:
                    missing.add(f)
                continue
            if key in source and out[key] != fields[f]:  # a setting wanted this key: the run's value wins
                other = source.pop(key)
                missing.add(other)
                collisions.append(
                    {"setting": other, "value": out[key], "key": key, "other": f, "other_value": fields[f]}
                )
            out[key] = fields[f]
        if fw == "trl" and "entropy_target" in out:
            out["use_adaptive_entropy"] = True  # TRL's switch for the target (GRPOConfig, 1.16)
            for name in ("entropy_coef_delta", "entropy_coef_min", "entropy_coef_max"):  # TRL's defaults differ
                out.setdefault(name, fields[name])
        if fw == "verl" and fields["overlong_shaping"] and "max_new_tokens" in given:
            out["reward.reward_kwargs.max_resp_len"] = fields["max_new_tokens"]  # the DAPO manager's L_max
        if set(given) & set(_BATCH) and "mini_batches" not in skip:
            out.update(_batch_args(fw, fields))
        if "rollout_correction" in given:
            _correction_args(fw, fields, out, missing)
        _estimator_args(fw, fields, out, missing)
        for key, value in selector.items():
            value = value(fields) if callable(value) else value
            out.pop(key, None)
            if value is not None:
                out[key] = value
        # the selector's arguments first, then the settings' in registry order, then the run's
        order = [k for k in selector if k in out] + [k for k in out if k not in selector]
        configs[fw] = {k: _number(out[k]) for k in order}
        # a training setting the caller did not give is not part of this export
        unmapped[fw] = {s: fields[s] for s in sorted(missing) if s not in _RUN_FIELDS or s in given}
        label = {"trl": "TRL", "verl": "verl"}[fw]
        for n in applying:
            notes.append({"framework": fw, **_format(n.text, fields)})
        if selectors[fw] is None and not any(n.framework == fw for n in spec.framework_notes):
            text = STRINGS["export.note.no_selector"]
            notes.append({"framework": fw, **_format(text, {**fields, "framework": label})})
        for c in collisions:
            notes.append({"framework": fw, **_format(STRINGS["export.note.collision"], {**c, "framework": label})})
    return ExportedConfig(
        algorithm=name,
        title=spec.title,
        trl=configs["trl"],
        trl_main=spec.trl is not None,
        verl=configs["verl"],
        notes=notes,
        unmapped={fw: names for fw, names in unmapped.items() if names},
    )
