"""Parity with TRL and verl: rlviz's losses, KL estimators, advantages and rollout corrections against
the frameworks' own code, run on fixed float64 inputs.

The vectors in ``rlviz/data/parity/`` were written by ``tools/parity/generate.py``, which calls TRL's
``GRPOTrainer._compute_loss`` and ``_generate_and_score_completions`` and verl's ``core_algos`` and
``rollout_corr_helper`` functions (their names, versions and the exact settings passed are stored with
each case; the generator's docstring says how). This module reads them and recomputes each case with
rlviz (:func:`rlviz.core.objectives.policy_loss` and autograd, :func:`rlviz.core.kl.kl_estimate`,
:func:`rlviz.core.estimators.estimate_advantages`, :func:`rlviz.core.corrections.correction_weights`),
so ``tests/test_parity.py`` and the Home page's "checked against" line use one check. The entropy terms
(issue 41): verl's ``ppo_loss`` and TRL's ``_compute_loss`` with an entropy bonus against
:func:`rlviz.core.entropy_control.entropy_bonus`, and TRL's adaptive controller against
:func:`rlviz.core.entropy_control.adaptive_entropy_trajectory` under the two stated differences.

Legend: B responses, T padded width, [B, T] tensors as nested lists in the JSON files; losses are
scalars, gradients d loss / d log pi per token (0 at padding); correction weights per token (0 at
padding) with ``kept``, the real tokens whose weight is not 0.
"""

from __future__ import annotations

import importlib
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import torch

__all__ = [
    "FRAMEWORK_TITLES",
    "PARITY_DIR",
    "TOLERANCE",
    "CORRECTION_RTOL",
    "CONTROL_TOLERANCE",
    "ParityResult",
    "check_all",
    "checked_against",
    "load_parity",
]

PARITY_DIR = Path(__file__).resolve().parents[1] / "data" / "parity"
TOLERANCE = 1e-6  # absolute, float64, on the loss and on every gradient entry
CORRECTION_RTOL = 1e-9  # relative, float64, on every correction weight (a 0 must be exactly 0)
CONTROL_TOLERANCE = 1e-12  # absolute, on every coefficient of an adaptive entropy controller's trajectory
FRAMEWORK_TITLES = {"trl": "TRL", "verl": "verl"}


@dataclass(frozen=True)
class ParityResult:
    """One stored case recomputed by rlviz.

    Attributes:
        case_id: the case's id in its file (``"grpo/verl/3"``).
        kind: ``"policy"`` (a policy loss), ``"kl"`` (a KL estimator), ``"advantages"``,
            ``"correction"`` (a rollout correction's weights), ``"entropy"`` (a policy loss minus the
            entropy bonus) or ``"entropy_control"`` (TRL's adaptive entropy controller over a sequence).
        subject: the rlviz objective, KL estimator, advantage estimator or correction it checks.
        framework: ``"trl"`` or ``"verl"``; ``version``: the framework's version that computed it.
        function: the framework function that computed it; ``settings``: what it was given.
        status: ``"pass"`` (every number within :data:`TOLERANCE`; corrections: every weight within
            :data:`CORRECTION_RTOL` relative and ``kept`` equal; the entropy controller: every coefficient
            within :data:`CONTROL_TOLERANCE`), ``"fail"`` or ``"skip"`` (rlviz has no
            such objective or estimator yet).
        reason: why it failed or was skipped (``""`` for a pass).
        error: the largest absolute difference found (loss and gradient entries; corrections: the
            largest relative weight difference), ``None`` if skipped.
    """

    case_id: str
    kind: str
    subject: str
    framework: str
    version: str
    function: str
    settings: dict
    status: str
    reason: str = ""
    error: float | None = None


def load_parity(directory: Path | str = PARITY_DIR) -> dict[str, Any]:
    """The stored vectors: ``{"inputs": ..., "frameworks": {"trl": doc, "verl": doc}}``, each doc as
    written by the generator (``framework``, ``version``, ``corrections``, ``policy``, and for verl
    ``kl`` and ``advantages`` lists of cases). Raises ``ValueError`` naming ``directory`` if it holds no inputs."""
    if not isinstance(directory, (str, os.PathLike)):
        raise ValueError(f"directory: expected a path, got {type(directory).__name__}")
    directory = Path(directory)
    path = directory / "inputs.json"
    if not path.is_file():
        raise ValueError(f"directory: no parity vectors in {directory} (run tools/parity/generate.py)")
    frameworks = {}
    for name in FRAMEWORK_TITLES:
        file = directory / f"{name}.json"
        if file.is_file():
            frameworks[name] = json.loads(file.read_text(encoding="utf-8"))
    return {"inputs": json.loads(path.read_text(encoding="utf-8")), "frameworks": frameworks}


def _t(x) -> torch.Tensor:
    return torch.tensor(x, dtype=torch.float64)


def _result(case, kind, subject, doc, status, reason="", error=None) -> ParityResult:
    return ParityResult(
        case_id=case["id"],
        kind=kind,
        subject=subject,
        framework=doc["framework"],
        version=doc["version"],
        function=case.get("function", ""),
        settings=case.get("settings", {}),
        status=status,
        reason=reason,
        error=error,
    )


def _verdict(case, kind, subject, doc, error: float, what: str, tolerance: float = TOLERANCE) -> ParityResult:
    if error <= tolerance:
        return _result(case, kind, subject, doc, "pass", error=error)
    return _result(case, kind, subject, doc, "fail", f"{what} differs by {error:.3g} > {tolerance:g}", error)


def _missing_kl_estimator(name: str | None) -> str | None:
    from rlviz.core.kl import KL_ESTIMATORS

    if name is not None and name not in KL_ESTIMATORS:
        return f"rlviz has no KL estimator {name!r} yet"
    return None


def _keep_mask(masks: dict, inp: dict, lp: torch.Tensor) -> torch.Tensor | None:
    """A case's token masks (TRL's ``top_entropy_quantile`` / ``off_policy_mask_threshold``) computed
    by :mod:`rlviz.core.masks` on the case's inputs (the sampling log-prob is the old one); ``None``:
    no mask. Raises ``ValueError`` for a mask rlviz does not know."""
    from rlviz.core.masks import high_entropy_mask, off_policy_sequence_mask

    unknown = set(masks) - {"top_entropy_quantile", "off_policy_mask_threshold"}
    if unknown:
        raise ValueError(f"masks: rlviz has no token mask {', '.join(sorted(unknown))}")
    mask = _t(inp["response_mask"])
    keep = None
    if "top_entropy_quantile" in masks:
        keep = high_entropy_mask(_t(inp["entropy"]), mask, masks["top_entropy_quantile"])
    if "off_policy_mask_threshold" in masks:
        off = off_policy_sequence_mask(
            _t(inp["advantages"]), lp, _t(inp["old_log_prob"]), mask, masks["off_policy_mask_threshold"]
        )
        keep = off if keep is None else keep & off
    return keep


def _check_policy(case: dict, sets: dict, doc: dict, kind: str = "policy") -> ParityResult:
    """A policy case; ``kind="entropy"``: the same with the entropy bonus subtracted
    (:func:`rlviz.core.entropy_control.entropy_bonus` with the case's ``entropy_coef`` and the framework's
    ``entropy_loss_agg_mode``), the gradient with respect to the per-token entropies checked too."""
    from rlviz.core.entropy_control import entropy_bonus
    from rlviz.core.objectives import ALGORITHMS, policy_loss

    name = case["objective"]
    if name not in ALGORITHMS:
        return _result(case, kind, name, doc, "skip", f"rlviz has no objective {name!r} yet")
    missing = _missing_kl_estimator(case["rlviz"].get("kl_estimator"))
    if missing:
        return _result(case, kind, name, doc, "skip", missing)
    inp = sets[case["inputs"]]
    mask = _t(inp["response_mask"])
    lp = _t(inp["log_prob"]).requires_grad_(True)
    ent = _t(inp["entropy"]).requires_grad_(True)
    try:
        keep = _keep_mask(case.get("masks", {}), inp, lp)
        out = policy_loss(
            name,
            lp,
            _t(inp["old_log_prob"]),
            _t(inp["advantages"]),
            mask,
            ref_log_prob=_t(inp["ref_log_prob"]),
            keep_mask=keep,
            **case["rlviz"],
        )
        loss = out.loss
        if kind == "entropy":  # the trainer's bonus: loss - coef * agg(H)
            norm_length = case["rlviz"].get("norm_length")
            loss = loss - entropy_bonus(ent, mask, case["entropy_coef"], case["entropy_loss_agg_mode"], norm_length)
    except ValueError as exc:  # a setting rlviz does not take: the case's mapping is out of date
        return _result(case, kind, name, doc, "fail", f"policy_loss refused the case's settings: {exc}")
    grad, grad_ent = torch.autograd.grad(loss, (lp, ent), allow_unused=True)
    grad = torch.zeros_like(lp) if grad is None else grad
    framework_grad = _t(case["grad"])
    # a loss -sg[w] A log pi is linear in log pi: in rlviz's value convention (-A w) it reads sum(g); one that
    # adds a log-ratio term (verl's DRO) reads loss - sum(k (log pi - 1)), k its slope along a common shift of
    # log pi and log pi_old (the generator's docstring)
    if case["value_form"] == "surrogate":
        expected = case["loss"]
    elif case["value_form"] == "log_prob_term":
        shift = _t(case["shift_grad"]) * mask
        expected = case["loss"] - float((shift * (_t(inp["log_prob"]) - 1.0)).sum())
    else:
        expected = float((framework_grad * mask).sum())
    loss_error = abs(float(loss.detach()) - expected)
    grad_error = float((grad - framework_grad).abs().max())
    what = "the loss" if loss_error >= grad_error else "the gradient"
    error = max(loss_error, grad_error)
    if kind == "entropy":
        grad_ent = torch.zeros_like(ent) if grad_ent is None else grad_ent
        ent_error = float((grad_ent - _t(case["grad_entropy"])).abs().max())
        what = "the entropy gradient" if ent_error > error else what
        error = max(error, ent_error)
    return _verdict(case, kind, name, doc, error, what)


def _check_entropy_control(case: dict, doc: dict) -> ParityResult:
    """TRL's adaptive entropy controller (``use_adaptive_entropy``) against
    :func:`rlviz.core.entropy_control.controller_run` under ``rule="trl"``: the Skywork-OR1 authors' rule plus the
    two differences docs/parity.md states, and nothing else: TRL raises the coefficient at ``e <= target``
    (the authors: ``e < target``; for floats, ``e <= t`` is ``e < nextafter(t, +inf)``), and applies no
    bonus until it has measured a first entropy (the authors start with it on), then step k applies
    alpha_{k-1} while its switch is on. Every stored coefficient and applied coefficient must agree
    within :data:`CONTROL_TOLERANCE`."""
    from rlviz.core.entropy_control import controller_run

    s = case["rlviz"]
    traj, applied = controller_run(
        case["entropy"],
        target=s["target"],
        delta=s["delta"],
        coef0=s["coef0"],
        coef_min=s["coef_min"],
        coef_max=s["coef_max"],
        rule="trl",
    )
    coef_error = max(abs(a - b) for (a, _), b in zip(traj, case["coef"], strict=True))
    applied_error = max(abs(a - b) for a, b in zip(applied, case["applied"], strict=True))
    what = "the coefficient" if coef_error >= applied_error else "the applied coefficient"
    error = max(coef_error, applied_error)
    return _verdict(case, "entropy_control", "adaptive_entropy", doc, error, what, CONTROL_TOLERANCE)


def _check_kl(case: dict, inputs: dict, doc: dict) -> ParityResult:
    from rlviz.core.kl import kl_estimate

    name = case["estimator"]
    if "error" in case:
        return _result(case, "kl", name, doc, "skip", f"verl raised {case['error']}")
    missing = _missing_kl_estimator(name)
    if missing:
        return _result(case, "kl", name, doc, "skip", missing)
    inp = inputs["sets"]["regions"]
    mask = _t(inp["response_mask"])
    lp = _t(inp["log_prob"]).requires_grad_(True)
    kl = kl_estimate(lp, _t(inputs["ref_log_prob_kl"]), name)
    (grad,) = torch.autograd.grad((kl * mask).sum(), lp)
    value_error = float(((kl.detach() - _t(case["value"])) * mask).abs().max())
    grad_error = float((grad - _t(case["grad"])).abs().max())
    what = "the value" if value_error >= grad_error else "the gradient"
    return _verdict(case, "kl", name, doc, max(value_error, grad_error), what)


def _check_advantages(case: dict, inputs: dict, doc: dict) -> ParityResult:
    name = case["estimator"]
    try:
        estimators = importlib.import_module("rlviz.core.estimators")
    except ImportError:
        return _result(case, "advantages", name, doc, "skip", "rlviz has no advantage-estimator registry yet")
    if name not in estimators.ESTIMATORS:
        return _result(case, "advantages", name, doc, "skip", f"rlviz has no advantage estimator {name!r} yet")
    adv_in = inputs["advantage_inputs"]
    if estimators.ESTIMATORS[name].per_token:  # one advantage per token, from the old policy's token statistics
        if "token_stats" not in adv_in:
            return _result(case, "advantages", name, doc, "skip", "the stored inputs hold no token statistics")
        stats = {k: _t(v) for k, v in adv_in["token_stats"].items()}
        lengths = _t(adv_in["lengths"])  # (n, G)
        mask = (torch.arange(stats["old_log_probs"].shape[-1]) < lengths[..., None]).to(lengths.dtype)
        adv = estimators.estimate_token_advantages(
            name,
            _t(adv_in["rewards"]),
            mask,
            old_log_probs=stats["old_log_probs"],
            sum_pi_squared=stats["sum_pi_squared"],
            rollout_is_weights=stats["rollout_is_weights"] if case["settings"].get("rollout_is") else None,
        )
        error = float((adv - _t(case["advantages"])).abs().max())
        return _verdict(case, "advantages", name, doc, error, "the advantages")
    extra = {"components": _t(adv_in["components"])} if name == "gdpo" else {}
    adv = estimators.estimate_advantages(
        name,
        _t(adv_in["rewards"]),
        greedy_rewards=_t(adv_in["greedy_rewards"]),
        lengths=_t(adv_in["lengths"]),
        **extra,
    )
    error = float((adv - _t(case["advantages"])).abs().max())
    return _verdict(case, "advantages", name, doc, error, "the advantages")


def _check_correction(case: dict, inputs: dict, doc: dict) -> ParityResult:
    from rlviz.core.corrections import CORRECTIONS, PRESETS, correction_weights, preset_weights

    name = case["correction"]
    registry = PRESETS if "preset" in case else CORRECTIONS  # a verl preset case: rlviz's PRESETS entry
    if name not in registry:
        return _result(case, "correction", name, doc, "skip", f"rlviz has no rollout correction {name!r} yet")
    inp = inputs["correction"]
    tensors = (_t(inp["old_log_prob"]), _t(inp["rollout_log_prob"]), _t(inp["response_mask"]))
    try:
        if "preset" in case:  # the case's bands replace the preset's defaults where it gives them
            weight, kept = preset_weights(name, *tensors, **{k: tuple(v) for k, v in case["rlviz"].items()})
        else:
            weight, kept = correction_weights(name, *tensors, **case["rlviz"])
    except ValueError as exc:  # a band rlviz does not take: the case's mapping is out of date
        return _result(case, "correction", name, doc, "fail", f"correction_weights refused the case's band: {exc}")
    expected = _t(case["weight"])
    scale = expected.abs()
    error = float(((weight - expected).abs() / torch.where(scale > 0, scale, torch.ones_like(scale))).max())
    exact_zero = bool((weight[scale == 0] == 0).all())
    mismatched = int((kept != torch.tensor(case["kept"])).sum())
    if mismatched:
        return _result(case, "correction", name, doc, "fail", f"kept differs at {mismatched} tokens", error)
    if not exact_zero:
        return _result(case, "correction", name, doc, "fail", "a weight the framework sets to 0 is not 0", error)
    if error > CORRECTION_RTOL:
        reason = f"the weights differ by {error:.3g} relative > {CORRECTION_RTOL:g}"
        return _result(case, "correction", name, doc, "fail", reason, error)
    return _result(case, "correction", name, doc, "pass", error=error)


def check_all(directory: Path | str = PARITY_DIR) -> list[ParityResult]:
    """Every stored case recomputed by rlviz, in file order (TRL, then verl: corrections, policy, KL,
    advantages, entropy bonus, TRL's entropy controller). Raises ``ValueError`` as :func:`load_parity`."""
    data = load_parity(directory)
    inputs = data["inputs"]
    results = []
    for doc in data["frameworks"].values():
        results += [_check_correction(c, inputs, doc) for c in doc.get("corrections", [])]
        results += [_check_policy(c, inputs["sets"], doc) for c in doc.get("policy", [])]
        results += [_check_kl(c, inputs, doc) for c in doc.get("kl", [])]
        results += [_check_advantages(c, inputs, doc) for c in doc.get("advantages", [])]
        results += [_check_policy(c, inputs["sets"], doc, "entropy") for c in doc.get("entropy", [])]
        results += [_check_entropy_control(c, doc) for c in doc.get("entropy_control", [])]
    return results


def checked_against(kind: str = "policy") -> dict[str, tuple[tuple[str, str], ...]]:
    """Per rlviz objective (``kind="policy"``) or rollout correction (``kind="correction"``), the
    frameworks it was checked against: ``{name: (("TRL", "1.16.0"), ("verl", "0.9.1"))}``, a framework
    listed when it has at least one stored case of that kind for the name and every one of them passes.
    A name with no such framework is absent. Computed once per process and kind from the stored
    vectors (a few hundred milliseconds). Raises ``ValueError`` naming ``kind`` for another kind."""
    if not isinstance(kind, str) or kind not in ("policy", "correction"):
        raise ValueError(f"kind: must be 'policy' or 'correction', got {kind!r:.60}")
    return _checked_against(kind)


@lru_cache(maxsize=4)
def _checked_against(kind: str) -> dict[str, tuple[tuple[str, str], ...]]:
    passed: dict[str, dict[str, tuple[str, bool]]] = {}
    for r in check_all():
        if r.kind != kind or r.status == "skip":
            continue
        title = FRAMEWORK_TITLES[r.framework]
        ok = passed.setdefault(r.subject, {}).get(title, (r.version, True))[1] and r.status == "pass"
        passed[r.subject][title] = (r.version, ok)
    return {
        name: tuple((title, version) for title, (version, ok) in sorted(by.items()) if ok)
        for name, by in passed.items()
        if any(ok for _, ok in by.values())
    }
