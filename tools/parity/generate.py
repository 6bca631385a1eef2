"""Parity vectors: TRL's and verl's own loss code run on fixed float64 inputs.

Run it in the parity environment (``tools/parity/requirements.txt``), never the app's:

    /tmp/venv-parity/bin/python tools/parity/generate.py            # writes rlviz/data/parity/*.json

It writes, for every case of the tables below, the framework's loss and its gradient with respect to
each token's log-prob (autograd, float64), or a rollout correction's weight per token, with the
framework's name and version, the function that computed it and the exact settings passed;
``tests/test_parity.py`` checks ``rlviz`` against them to 1e-6 (corrections: 1e-9 relative, the kept
tokens exactly) and ``rlviz.core.parity`` tells the Home page which framework version each objective
(and correction) was checked against. A new objective is one row of ``POLICY_CASES``, a new
correction one row of ``CORRECTION_CASES``, a verl preset one row of ``PRESET_CASES`` (and, if the framework needs new plumbing, one argument of
``run_trl`` / ``run_verl``).

How each framework's own code is run (nothing of it is copied or re-implemented here):

* TRL: ``GRPOTrainer._compute_loss`` (``trl/trainer/grpo_trainer.py``), the method a training step
  calls, on an instance made with ``GRPOTrainer.__new__`` (no model, dataset or generation): the
  attributes ``_compute_loss`` reads are copied from a real ``GRPOConfig`` the way
  ``GRPOTrainer.__init__`` copies them (``loss_type``, ``epsilon_low``/``epsilon_high``, ``beta``,
  ``importance_sampling_level``, ...), and the instance's ``_get_per_token_logps_and_entropies`` (the
  model forward) is replaced by one that returns the fixed log-probs (a leaf tensor that requires
  grad) and the fixed per-token entropies (``ENTROPY``; only the high-entropy mask reads them). A real ``accelerate.Accelerator`` (CPU, one process) serves the metric
  gathers. One micro-batch, ``gradient_accumulation_steps = steps_per_generation = 1``,
  ``num_items_in_batch`` = the real tokens, so every ``loss_type`` is normalised over this batch alone.
  GMPO: the same on ``trl.experimental.gmpo.GMPOTrainer`` with a ``GMPOConfig``.
  TRL's advantages are computed inline in ``_generate_and_score_completions``, which needs a model and
  generation: they are not run here (the estimator vectors are verl's).
* verl: ``get_policy_loss_fn(loss_mode)`` of ``verl/trainer/ppo/core_algos.py`` called with a real
  ``ActorConfig`` / ``PolicyLossConfig`` (``global_batch_info`` empty, i.e. one micro-batch normalised
  locally, except ``loss_scale_factor``, which verl's ``workers/utils/losses.py`` passes through
  ``global_batch_info``); ``kl_penalty``; the advantage estimators from ``get_adv_estimator_fn``.
  ``import verl`` needs ray, tensordict, hydra and omegaconf (installed, nothing stubbed).

Rollout corrections (``rlviz.core.corrections``; ``CORRECTION_CASES``, run on their own inputs: log pi_old
and log pi_rollout with log-ratios in [-1.5, 1.5]). Each case stores the weight per token, ``kept``
(the real tokens whose weight is not 0) and the band (low, high) of the rlviz entry it maps to:

* verl: ``rollout_corr_helper.compute_rollout_correction_weights`` (``rollout_is`` token / sequence;
  a number is TIS, clamped from above only; a ``"lower_upper"`` string is IcePop, 0 outside) and
  ``compute_rollout_rejection_mask`` (``rollout_rs="seq_mean_k1"``; its weight is the returned
  response mask), each given ``log_ratio = old_log_prob - rollout_log_prob`` as verl's
  ``compute_rollout_correction_and_rejection_mask`` forms it. verl applies IS weights to the per-token
  loss (``pg_losses * rollout_is_weights``) but a rejection by replacing ``response_mask`` (a rejected
  response leaves the normaliser too); each case's ``applied_as`` says which.
* TRL: the correction is inline in ``GRPOTrainer._generate_and_score_completions``; it is run whole on
  a ``GRPOTrainer.__new__`` instance whose generation (``_generate``: the fixed completions and vLLM's
  per-token log-probs, unpadded lists as vLLM returns them), forward pass
  (``_get_per_token_logps_and_entropies``: the fixed old log-probs) and rewards (``_calculate_rewards``)
  are stubs, with ``use_vllm=True`` and the ``vllm_importance_sampling_*`` settings of a real
  ``GRPOConfig``; the case stores ``output["importance_sampling_ratio"]`` as TRL returns it (``output``:
  1 at padding for the token modes, [B, 1] for the sequence modes) and, as ``weight``, that ratio
  broadcast over the response times ``completion_mask`` (what TRL's loss multiplies and aggregates).

Entropy terms (issue 41; ``entropy_vectors``, on the ``regions`` inputs with their per-token entropies):

* verl: ``ppo_loss`` (``verl/workers/utils/losses.py``, the actor's loss function: the policy loss of
  ``get_policy_loss_fn``, then ``policy_loss -= entropy_coeff * agg_loss(entropy, ...)``) with a real
  ``ActorConfig`` (``entropy_coeff`` 0, 0.01, 0.05; three ``loss_agg_mode``s), the model output (log-probs and
  entropies, both leaves) in verl's flat no-padding layout and a ``TensorDict`` batch (``run_verl_ppo_loss``).
  Each case stores the loss and its gradient with respect to the log-probs and to the entropies.
* TRL: ``_compute_loss`` as above with a constant ``entropy_coef`` (the same three numbers per case), and its
  adaptive controller (``use_adaptive_entropy``): one trainer over a sequence of steps, each step's forward
  returning fixed entropies, TRL's own state read after every call (``run_trl_entropy_control``).

Value conventions. Where a framework's loss is ``-sg[w] A log pi`` (CISPO, VESPO, DPPO), its value
depends on the absolute log-probs; rlviz reports the same gradient with the readable value ``-A w``
(``-sg[w] A pi/sg[pi]``). Such a loss is linear in log pi with slope g (the stored gradient), so the
generator asserts ``loss == sum(g * log_prob)`` and stores ``value_form = "log_prob"``: the test then
compares rlviz's loss with ``sum(g)``, the framework's loss in rlviz's convention. A loss with such a term
and a part that reads only the log-ratio (verl's DRO: ``-A log pi + beta/2 l^2``) stores ``value_form =
"log_prob_term"`` and ``shift_grad`` k, the slope of the loss along a common shift of log pi and log pi_old
(d loss / d log pi + d loss / d log pi_old per token; the generator checks the loss moves by c sum(k) when
both shift by c): rlviz's value is then ``loss - sum(k (log pi - 1))`` (for CISPO's form k = g, the same as
``sum(g)``).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import math
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import torch

torch.set_default_dtype(torch.float64)  # TRL builds some scalars with the default dtype (SAPO's temperatures)

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "rlviz" / "data" / "parity"
NO_DUAL = 1e12  # verl's vanilla loss always applies clip_ratio_c; a c beyond any ratio (r <= e^20) switches it off

# ----------------------------------------------------------------------------------------------
# Inputs (shared/reference/algorithms.md §15): B = 4 responses of lengths 3, 5, 8, 2 padded to 8.
# ----------------------------------------------------------------------------------------------

LENGTHS = (3, 5, 8, 2)
T = 8
SEQ_ADV = (1.0, -1.0, 0.5, -0.5)
# log pi_old of the real tokens; chosen with the ratios below so that pi = pi_old r < 1 everywhere,
# some tokens move pi by more than DPPO's TV 0.15 / binary-KL 0.05 in their advantage's direction,
# and exactly one token's covariance (A - mean A)(log pi - mean log pi) lies in Clip-Cov's (1, 5).
OLD = (
    (-1.0, -0.5, -0.9),
    (-0.4, -2.2, -1.2, -2.5, -0.3),
    (-0.7, -1.5, -0.6, -3.0, -1.1, -0.9, -2.2, -0.4),
    (-1.6, -0.9),
)
# token ratios r = pi / pi_old landing in every region of the clip at eps 0.2 / 0.28, dual clip c = 3:
# A > 0: below 1 - eps (unclipped), inside, in (1.2, 1.28] (clip-higher), above (clipped);
# A < 0: below 1 - eps (clipped), inside, above 1 + eps (unclipped), beyond c (r = 4.48, dual clip).
RATIOS = (
    (0.7, 1.1, 1.5),
    (0.5, 0.9, 1.3, 4.48, 1.0),
    (0.95, 1.25, 1.35, 0.75, 1.02, 0.85, 1.15, 1.21),
    (0.78, 1.22),
)
# GSPO scale (|log r| ~ 1e-4, eps 3e-4 / 4e-4): sequence log-ratios 5e-4 (A > 0, clipped), -4e-4
# (A < 0, clipped), ~6e-5 (inside), 3e-4 (A < 0, above the band: unclipped branch).
SMALL_LOG_RATIOS = (
    (6e-4, 4e-4, 5e-4),
    (-5e-4, -3e-4, -4e-4, -2e-4, -6e-4),
    (1e-4, -2e-4, 3e-4, 0.0, 2e-4, -1e-4, 1.5e-4, 0.5e-4),
    (2e-4, 4e-4),
)
TOKEN_ADV = (
    (1.0, -0.5, 0.8),
    (-1.0, 0.3, -0.7, -1.2, 0.6),
    (0.5, -0.2, 0.9, -0.4, 0.1, 0.7, -0.9, 0.3),
    (-0.5, 1.1),
)
# per-token entropies of the current policy (nats) for the token masks' cases: 18 distinct values, so
# that the high-entropy mask's threshold (a quantile) falls strictly between two of them (no tie
# that float32, in which TRL takes the quantile, could break differently from float64)
ENTROPY = (
    (0.41, 1.93, 0.12),
    (2.71, 0.58, 1.37, 0.05, 2.24),
    (0.87, 3.02, 0.33, 1.61, 0.74, 2.49, 0.19, 1.08),
    (2.95, 0.66),
)
JUNK_ENT = (-5.0, 9.0, 0.0)
# ``far``: tokens past verl's +-20 log-ratio clamp, with moderate sequence means (issue 43: a sequence
# ratio averages the unclamped log-ratios; a detached weight's gradient flows through log pi). The
# responses with A > 0 hold a token at l = 22 with pi = e^-5 (CISPO caps it at 1.2, DPPO keeps it with
# weight min(r, c)) and one far below; their sequence log-ratios -0.167 and -0.106 put GSPO on its
# unclipped branch (a per-token clamp first would have clipped both); GMPO keeps their low tokens raw.
# Values stay below ~20 in size, so verl's 1e-8 in its token counts stays below the 1e-6 tolerance
# (GSPO's cap at log s = 10 and a GMPO ratio past it are checked by hand in tests/test_objectives.py).
FAR_OLD = (
    (-1.0, -27.0, -3.0),
    (-0.5, -2.0, -1.5, -0.8, -2.5),
    (-0.7, -27.0, -0.6, -3.0, -1.1, -0.9, -2.2, -0.4),
    (-1.6, -1.0),
)
FAR_LOG_RATIOS = (
    (-24.0, 22.0, 1.5),
    (-21.0, 1.0, 0.5, 0.3, 0.1),
    (0.1, 22.0, -0.2, 0.05, -23.0, 0.3, 0.0, -0.1),
    (0.2, -26.0),
)
REF_SHIFT = (0.3, -0.2, 0.1, -0.4, 0.25, -0.15, 0.05, -0.35)  # log pi_ref = log pi_old + shift (KL terms)
# finite junk in the padding (log-probs, advantages): it must reach neither a loss nor a gradient
JUNK_LP, JUNK_OLD, JUNK_ADV = (2.5, -7.0, 0.3, -0.1, 9.0, -3.0, 1.0), (-9.0, 4.0, -0.2, 6.0, -1.5, 3.0, 0.0), 7.5


def _pad(rows, junk):
    out = []
    for row in rows:
        pad = [junk[(k + len(row)) % len(junk)] if isinstance(junk, tuple) else junk for k in range(T - len(row))]
        out.append(list(row) + pad)
    return torch.tensor(out)


def build_inputs() -> dict[str, dict[str, torch.Tensor]]:
    """The four input sets: ``regions`` (every clip region), ``gspo_scale`` (|log r| ~ 1e-4),
    ``token_adv`` (the ``regions`` log-probs with token-varying advantages), ``far`` (tokens past the
    +-20 log-ratio clamp, its own log pi_old). Tensors [B, T] (or [B] for sequence advantages),
    float64, junk in the padding."""
    mask = torch.tensor([[1.0] * n + [0.0] * (T - n) for n in LENGTHS])
    old = _pad(OLD, JUNK_OLD)
    sets = {}
    for name, log_ratios in (
        ("regions", [[math.log(r) for r in row] for row in RATIOS]),
        ("gspo_scale", SMALL_LOG_RATIOS),
    ):
        lp = [[o + lr for o, lr in zip(orow, lrow)] for orow, lrow in zip(OLD, log_ratios)]
        sets[name] = {"log_prob": _pad(lp, JUNK_LP), "advantages": torch.tensor(SEQ_ADV)}
    sets["token_adv"] = {"log_prob": sets["regions"]["log_prob"].clone(), "advantages": _pad(TOKEN_ADV, JUNK_ADV)}
    ref = [[o + REF_SHIFT[t] for t, o in enumerate(row)] for row in OLD]
    for s in sets.values():
        s.update(old_log_prob=old.clone(), ref_log_prob=_pad(ref, JUNK_LP))
    far = [[o + lr for o, lr in zip(orow, lrow)] for orow, lrow in zip(FAR_OLD, FAR_LOG_RATIOS)]
    sets["far"] = {
        "log_prob": _pad(far, JUNK_LP),
        "advantages": torch.tensor(SEQ_ADV),
        "old_log_prob": _pad(FAR_OLD, JUNK_OLD),
        "ref_log_prob": _pad([[o + REF_SHIFT[t] for t, o in enumerate(row)] for row in FAR_OLD], JUNK_LP),
    }
    for s in sets.values():
        s.update(response_mask=mask.clone(), entropy=_pad(ENTROPY, JUNK_ENT))
        assert bool((s["log_prob"][mask > 0] < 0).all()), "every real token needs pi < 1"
    return sets


def adv_bt(inp) -> torch.Tensor:
    """Advantages as [B, T]: sequence advantages broadcast and zeroed at padding (what verl's
    estimators hand the loss), token advantages as they are (junk in the padding kept)."""
    a = inp["advantages"]
    return a[:, None] * inp["response_mask"] if a.dim() == 1 else a


# ----------------------------------------------------------------------------------------------
# Running the frameworks
# ----------------------------------------------------------------------------------------------


def _leaf(inp):
    return inp["log_prob"].detach().clone().requires_grad_(True)


_ACCELERATOR = None


def run_trl(settings: dict, inp: dict, trainer: str = "GRPOTrainer") -> tuple[torch.Tensor, torch.Tensor, str]:
    """TRL's ``_compute_loss`` on the fixed inputs; returns (loss, d loss / d log_prob [B, T], function)."""
    t = _trl_trainer(settings, trainer)
    lp = _leaf(inp)
    # the model forward, replaced: the fixed log-probs and entropies, no aux loss
    t._get_per_token_logps_and_entropies = lambda *a, **k: (lp, inp["entropy"].clone(), None)
    loss = t._compute_loss(t.model, _trl_inputs(inp))
    (grad,) = torch.autograd.grad(loss, lp)
    return loss.detach(), grad, f"trl.{'experimental.gmpo.' if trainer == 'GMPOTrainer' else ''}{trainer}._compute_loss"


def _trl_trainer(settings: dict, trainer: str = "GRPOTrainer"):
    """A ``GRPOTrainer`` (or GMPO) made with ``__new__`` that carries what ``_compute_loss`` reads, copied
    from a real config as ``GRPOTrainer.__init__`` copies it (the entropy controller's state included)."""
    global _ACCELERATOR
    from accelerate import Accelerator

    if trainer == "GMPOTrainer":
        from trl.experimental.gmpo import GMPOConfig as Config
        from trl.experimental.gmpo import GMPOTrainer as Trainer
    else:
        from trl import GRPOConfig as Config
        from trl import GRPOTrainer as Trainer

    with tempfile.TemporaryDirectory() as tmp:
        args = Config(output_dir=tmp, report_to=[], use_cpu=True, **settings)
    _ACCELERATOR = Accelerator(cpu=True)  # after the config: building TrainingArguments resets accelerate's state
    t = Trainer.__new__(Trainer)
    # what GRPOTrainer.__init__ copies from args and _compute_loss reads
    t.args = args
    t.loss_type = args.loss_type
    t.importance_sampling_level = args.importance_sampling_level
    t.epsilon_low = args.epsilon
    t.epsilon_high = args.epsilon_high if args.epsilon_high is not None else args.epsilon
    t.beta = args.beta
    t.max_completion_length = args.max_completion_length
    t.top_entropy_quantile = args.top_entropy_quantile
    t.off_policy_mask_threshold = args.off_policy_mask_threshold
    t.use_vllm = args.use_vllm
    t.vllm_importance_sampling_correction = args.vllm_importance_sampling_correction
    t.entropy_coef = args.entropy_coef
    t.use_adaptive_entropy = args.use_adaptive_entropy
    t._entropy_bonus_enabled = t.entropy_coef != 0.0 or t.use_adaptive_entropy
    t._last_world_entropy = float("inf")  # as __init__: no bonus until a first entropy is measured
    t._entropy_window_stats = None
    t.aux_loss_enabled = False
    t.current_gradient_accumulation_steps = 1
    t.accelerator = _ACCELERATOR
    t.model = torch.nn.Module().train()
    t._metrics = {"train": _Metrics(), "eval": _Metrics()}
    return t


def _trl_inputs(inp: dict) -> dict:
    """The batch ``_compute_loss`` reads (what ``_generate_and_score_completions`` would hand it)."""
    mask = inp["response_mask"]
    B = mask.shape[0]
    return {
        "prompt_ids": torch.zeros(B, 1, dtype=torch.long),
        "prompt_mask": torch.ones(B, 1, dtype=torch.long),
        "completion_ids": torch.zeros(B, T, dtype=torch.long),
        "completion_mask": mask.clone(),
        "advantages": inp["advantages"].clone(),
        "old_per_token_logps": inp["old_log_prob"].clone(),
        "ref_per_token_logps": inp["ref_log_prob"].clone(),
        "num_items_in_batch": mask.sum(),
    }


class _Metrics(dict):
    def __missing__(self, key):
        self[key] = []
        return self[key]


def run_verl(settings: dict, inp: dict, shift: bool = False):
    """verl's ``get_policy_loss_fn(loss_mode)`` on the fixed inputs: (loss, d loss / d log_prob [B, T],
    function), and with ``shift`` also d loss / d old_log_prob [B, T] (the value form ``log_prob_term``).
    ``rollout_correction`` (bypass mode): a ``RolloutCorrectionConfig`` in ``policy_loss``, as verl's
    ``rollout_corr_helper.apply_bypass_mode`` puts it there."""
    from verl.trainer.config import RolloutCorrectionConfig
    from verl.trainer.ppo.core_algos import get_policy_loss_fn
    from verl.workers.config import ActorConfig, PolicyLossConfig

    s = dict(settings)
    mode = s.pop("loss_mode")
    agg = s.pop("loss_agg_mode")
    policy_keys = {"clip_cov_ratio", "clip_cov_lb", "clip_cov_ub", "kl_cov_ratio", "ppo_kl_coef", "dro_beta"}
    policy = {k: s.pop(k) for k in list(s) if k in policy_keys}
    if "rollout_correction" in s:
        policy["rollout_correction"] = RolloutCorrectionConfig(**s.pop("rollout_correction"))
    scale = s.pop("loss_scale_factor", None)
    cfg = ActorConfig(
        strategy="fsdp",
        rollout_n=4,
        ppo_mini_batch_size=4,
        ppo_micro_batch_size_per_gpu=4,
        loss_agg_mode=agg,
        loss_scale_factor=scale,
        policy_loss=PolicyLossConfig(loss_mode=mode, **policy),
        **s,
    )
    if scale is not None:  # as verl/workers/utils/losses.py does
        cfg.global_batch_info["loss_scale_factor"] = scale
    lp = _leaf(inp)
    old = inp["old_log_prob"].clone().requires_grad_(shift)
    fn = get_policy_loss_fn(mode)
    loss, _ = fn(
        old_log_prob=old,
        log_prob=lp,
        advantages=adv_bt(inp).clone(),
        response_mask=inp["response_mask"].clone(),
        loss_agg_mode=agg,
        config=cfg,
    )
    function = f"verl.trainer.ppo.core_algos.{fn.__name__} (get_policy_loss_fn({mode!r}))"
    if shift:
        grad, grad_old = torch.autograd.grad(loss, (lp, old), allow_unused=True)
        grad_old = torch.zeros_like(grad) if grad_old is None else grad_old
        return loss.detach(), grad, function, grad_old
    (grad,) = torch.autograd.grad(loss, lp)
    return loss.detach(), grad, function


# ----------------------------------------------------------------------------------------------
# The case table: one row per (objective, framework, settings). rlviz: policy_loss overrides.
# inputs: the input sets it runs on (default all three); value_form: see the module docstring.
# ----------------------------------------------------------------------------------------------

ALL = ("regions", "gspo_scale", "token_adv")  # ``far`` only where a case names it
SEQ_ONLY = ("regions", "gspo_scale")


def verl(mode, agg, low, high, c=NO_DUAL, **extra):
    return {"loss_mode": mode, "loss_agg_mode": agg, "clip_ratio_low": low, "clip_ratio_high": high} | (
        {"clip_ratio_c": c} | extra
    )


POLICY_CASES = [
    # PPO: verl's vanilla loss always has the dual clip (c = 3 by default); TRL's delta is the same cap
    dict(
        objective="ppo",
        rlviz={"dual_clip_c": 3.0},
        framework="verl",
        settings=verl("vanilla", "token-mean", 0.2, 0.2, 3.0),
    ),
    dict(
        objective="ppo",
        rlviz={"dual_clip_c": 3.0},
        framework="trl",
        settings={"loss_type": "dapo", "epsilon": 0.2, "delta": 3.0},
    ),
    dict(
        objective="ppo",
        rlviz={"loss_agg_mode": "seq-mean-token-sum"},
        framework="verl",
        settings=verl("vanilla", "seq-mean-token-sum", 0.2, 0.2),
    ),
    # GRPO: seq-mean-token-mean; TRL adds beta * k3 per token before aggregation
    dict(
        objective="grpo",
        rlviz={"beta": 0.0},
        framework="verl",
        settings=verl("vanilla", "seq-mean-token-mean", 0.2, 0.2),
    ),
    dict(
        objective="grpo",
        rlviz={"beta": 0.0},
        framework="trl",
        settings={"loss_type": "grpo", "epsilon": 0.2, "beta": 0.0},
    ),
    # TRL 1.16 defaults to use_bias_correction_kl=True (k3 x ratio): plain k3 needs it False
    dict(
        objective="grpo",
        rlviz={"beta": 0.04},
        framework="trl",
        settings={"loss_type": "grpo", "epsilon": 0.2, "beta": 0.04, "use_bias_correction_kl": False},
    ),
    dict(
        objective="grpo",
        rlviz={"beta": 0.04, "kl_estimator": "k3_bc"},
        framework="trl",
        settings={"loss_type": "grpo", "epsilon": 0.2, "beta": 0.04, "use_bias_correction_kl": True},
    ),
    dict(
        objective="grpo",
        rlviz={"beta": 0.0, "loss_agg_mode": "token-mean"},
        framework="trl",
        settings={"loss_type": "bnpo", "epsilon": 0.2, "beta": 0.0},
    ),
    # Dr.GRPO: TRL divides by B * max_completion_length; verl 0.9.1's seq-mean-token-sum-norm by
    # B * loss_scale_factor (the 1/B that algorithms.md §14.1 found missing in the 2026-01 snapshot is there)
    dict(
        objective="dr_grpo",
        rlviz={"norm_length": 10},
        framework="trl",
        settings={"loss_type": "dr_grpo", "epsilon": 0.2, "max_completion_length": 10},
    ),
    dict(
        objective="dr_grpo",
        rlviz={"norm_length": 10},
        framework="verl",
        settings=verl("vanilla", "seq-mean-token-sum-norm", 0.2, 0.2, loss_scale_factor=10),
    ),
    dict(
        objective="dr_grpo",
        rlviz={},
        framework="verl",
        settings=verl("vanilla", "seq-mean-token-sum-norm", 0.2, 0.2),
        note="loss_scale_factor unset: verl takes the padded width T, as rlviz's norm_length = None",
    ),
    # DAPO: clip-higher 0.2 / 0.28, token-mean; the verl recipe's clip_ratio_c = 10
    dict(
        objective="dapo",
        rlviz={"dual_clip_c": 10.0},
        framework="verl",
        settings=verl("vanilla", "token-mean", 0.2, 0.28, 10.0),
    ),
    dict(
        objective="dapo",
        rlviz={},
        framework="trl",
        settings={"loss_type": "dapo", "epsilon": 0.2, "epsilon_high": 0.28},
    ),
    # GSPO: TRL's sequence ratio; verl's gspo is GSPO-token (equal to GSPO for sequence advantages)
    dict(
        objective="gspo",
        rlviz={},
        framework="trl",
        settings={"loss_type": "grpo", "importance_sampling_level": "sequence", "epsilon": 3e-4, "epsilon_high": 4e-4},
    ),
    dict(
        objective="gspo",
        rlviz={},
        framework="verl",
        inputs=SEQ_ONLY,
        settings=verl("gspo", "seq-mean-token-mean", 3e-4, 4e-4),
        note="verl's gspo is the GSPO-token construction: GSPO's value and gradient only for sequence advantages",
    ),
    dict(objective="gspo_token", rlviz={}, framework="verl", settings=verl("gspo", "seq-mean-token-mean", 3e-4, 4e-4)),
    # GMPO: log-space clip; both frameworks take one advantage per sequence
    dict(
        objective="gmpo", rlviz={}, framework="trl", trainer="GMPOTrainer", inputs=SEQ_ONLY, settings={"epsilon": 0.4}
    ),
    dict(
        objective="gmpo",
        rlviz={},
        framework="verl",
        inputs=SEQ_ONLY,
        settings=verl("geo_mean", "seq-mean-token-mean", 0.4, 0.4),
        note="verl's geo_mean clips each token by the sign of its own advantage: sequence advantages only",
    ),
    # SAPO: both force seq-mean-token-mean
    dict(
        objective="sapo",
        rlviz={},
        framework="trl",
        settings={"loss_type": "sapo", "sapo_temperature_pos": 1.0, "sapo_temperature_neg": 1.05},
    ),
    dict(
        objective="sapo",
        rlviz={},
        framework="verl",
        settings=verl("sapo", "seq-mean-token-mean", 0.2, 0.2, tau_pos=1.0, tau_neg=1.05),
    ),
    # CISPO: TRL's epsilon_high is the absolute cap (no lower bound); verl's bounds are offsets from 1
    dict(
        objective="cispo",
        rlviz={},
        framework="trl",
        settings={"loss_type": "cispo", "epsilon_high": 1.2},
        value_form="log_prob",
    ),
    dict(
        objective="cispo",
        rlviz={"epsilon_high": 4.0},
        framework="trl",
        settings={"loss_type": "cispo", "epsilon_high": 5.0},
        value_form="log_prob",
    ),
    dict(
        objective="cispo",
        rlviz={},
        framework="verl",
        settings=verl("cispo", "token-mean", 1.0, 0.2),
        value_form="log_prob",
    ),
    dict(
        objective="cispo",
        rlviz={"epsilon_low": 0.2, "epsilon_high": 0.2},
        framework="verl",
        settings=verl("cispo", "token-mean", 0.2, 0.2),
        value_form="log_prob",
    ),
    # DPPO (verl dppo_tv / dppo_kl): epsilon_* are the divergence bounds, tis_cap is clip_ratio_c
    dict(
        objective="dppo_tv",
        rlviz={"loss_agg_mode": "token-mean"},
        framework="verl",
        value_form="log_prob",
        settings=verl("dppo_tv", "token-mean", 0.15, 0.15, 10000.0),
    ),
    dict(
        objective="dppo_tv",
        rlviz={"loss_agg_mode": "token-mean", "tis_cap": 2.0},
        framework="verl",
        value_form="log_prob",
        settings=verl("dppo_tv", "token-mean", 0.15, 0.15, 2.0),
    ),
    dict(
        objective="dppo_tv",
        rlviz={},
        framework="verl",
        value_form="log_prob",
        settings=verl("dppo_tv", "seq-mean-token-sum-norm", 0.15, 0.15, 10000.0),
    ),
    dict(
        objective="dppo_kl",
        rlviz={"loss_agg_mode": "token-mean"},
        framework="verl",
        value_form="log_prob",
        settings=verl("dppo_kl", "token-mean", 0.05, 0.05, 10000.0),
    ),
    # Clip-Cov / KL-Cov (verl): the inputs leave at most as many Clip-Cov candidates as it detaches,
    # so verl's random draw is not a draw (the generator checks this under three seeds)
    dict(
        objective="clip_cov",
        rlviz={},
        framework="verl",
        inputs=("regions",),
        settings=verl("clip_cov", "token-mean", 0.2, 0.2, clip_cov_ratio=2e-4, clip_cov_lb=1.0, clip_cov_ub=5.0),
    ),
    dict(
        objective="clip_cov",
        rlviz={"clip_cov_ratio": 0.15},
        framework="verl",
        inputs=("gspo_scale",),
        settings=verl("clip_cov", "token-mean", 0.2, 0.2, clip_cov_ratio=0.15, clip_cov_lb=1.0, clip_cov_ub=5.0),
    ),
    dict(
        objective="clip_cov",
        rlviz={"clip_cov_ratio": 0.2, "clip_cov_lb": 0.5},
        framework="verl",
        inputs=("token_adv",),
        settings=verl("clip_cov", "token-mean", 0.2, 0.2, clip_cov_ratio=0.2, clip_cov_lb=0.5, clip_cov_ub=5.0),
    ),
    dict(
        objective="kl_cov",
        rlviz={},
        framework="verl",
        settings=verl("kl_cov", "token-mean", 0.2, 0.2, kl_cov_ratio=2e-4, ppo_kl_coef=1.0),
    ),
    dict(
        objective="kl_cov",
        rlviz={"kl_cov_ratio": 0.2, "ppo_kl_coef": 0.1},
        framework="verl",
        settings=verl("kl_cov", "token-mean", 0.2, 0.2, kl_cov_ratio=0.2, ppo_kl_coef=0.1),
    ),
    # VESPO (TRL): a sequence weight from one advantage per sequence
    dict(
        objective="vespo",
        rlviz={},
        framework="trl",
        inputs=SEQ_ONLY,
        value_form="log_prob",
        settings={
            "loss_type": "vespo",
            "vespo_k_pos": 2.0,
            "vespo_lambda_pos": 3.0,
            "vespo_k_neg": 3.0,
            "vespo_lambda_neg": 2.0,
        },
        note="TRL's get_gamma_weights picks (k, lambda) by each token's advantage sign: sequence advantages only",
    ),
    # LUSPO (TRL): GSPO's sequence clip, each sequence's term times its length
    dict(
        objective="luspo",
        rlviz={},
        framework="trl",
        settings={"loss_type": "luspo", "importance_sampling_level": "sequence", "epsilon": 3e-4, "epsilon_high": 4e-4},
    ),
    # token masks that apply to any objective (TRL multiplies the per-token loss, the normaliser and the
    # KL term unchanged): the high-entropy top-20% mask and DeepSeek-V3.2's off-policy sequence mask
    # (TRL's sampling log-prob is the old one here: no vLLM). rlviz: rlviz.core.masks -> keep_mask.
    dict(
        objective="grpo",
        rlviz={"beta": 0.0},
        masks={"top_entropy_quantile": 0.2},
        framework="trl",
        settings={"loss_type": "grpo", "epsilon": 0.2, "beta": 0.0, "top_entropy_quantile": 0.2},
    ),
    dict(
        objective="dapo",
        rlviz={},
        masks={"top_entropy_quantile": 0.5},
        framework="trl",
        settings={"loss_type": "dapo", "epsilon": 0.2, "epsilon_high": 0.28, "top_entropy_quantile": 0.5},
    ),
    dict(
        objective="grpo",
        rlviz={"beta": 0.0},
        masks={"off_policy_mask_threshold": 0.02},
        inputs=("regions", "token_adv"),  # at GSPO scale (|log r| ~ 1e-4) no mean KL reaches delta
        framework="trl",
        settings={"loss_type": "grpo", "epsilon": 0.2, "beta": 0.0, "off_policy_mask_threshold": 0.02},
    ),
    dict(
        objective="cispo",
        rlviz={},
        masks={"off_policy_mask_threshold": 0.0, "top_entropy_quantile": 0.5},
        inputs=("regions", "token_adv"),  # at GSPO scale (|log r| ~ 1e-4) no mean KL reaches delta
        framework="trl",
        settings={
            "loss_type": "cispo",
            "epsilon_high": 1.2,
            "off_policy_mask_threshold": 0.0,
            "top_entropy_quantile": 0.5,
        },
        value_form="log_prob",
    ),
    # ``far`` (issue 43): the +-20 clamp acts where each framework's own code clamps. verl clamps a token's
    # log-ratio for vanilla / SAPO / CISPO / DPPO (token ratios), averages GSPO's raw log-ratios and caps
    # log s_{i,t} at 10, has no clamp in geo_mean; CISPO / DPPO / VESPO take the gradient through log pi.
    dict(
        objective="ppo",
        rlviz={"dual_clip_c": 3.0},
        framework="verl",
        inputs=("far",),
        settings=verl("vanilla", "token-mean", 0.2, 0.2, 3.0),
    ),
    dict(
        objective="sapo",
        rlviz={},
        framework="verl",
        inputs=("far",),
        settings=verl("sapo", "seq-mean-token-mean", 0.2, 0.2, tau_pos=1.0, tau_neg=1.05),
    ),
    dict(
        objective="gspo",
        rlviz={},
        framework="verl",
        inputs=("far",),
        settings=verl("gspo", "seq-mean-token-mean", 3e-4, 4e-4),
    ),
    dict(
        objective="gspo_token",
        rlviz={},
        framework="verl",
        inputs=("far",),
        settings=verl("gspo", "seq-mean-token-mean", 3e-4, 4e-4),
    ),
    dict(
        objective="gmpo",
        rlviz={},
        framework="verl",
        inputs=("far",),
        settings=verl("geo_mean", "seq-mean-token-mean", 0.4, 0.4),
    ),
    dict(
        objective="cispo",
        rlviz={},
        framework="verl",
        inputs=("far",),
        value_form="log_prob",
        settings=verl("cispo", "token-mean", 1.0, 0.2),
    ),
    dict(
        objective="dppo_tv",
        rlviz={"loss_agg_mode": "token-mean"},
        framework="verl",
        inputs=("far",),
        value_form="log_prob",
        settings=verl("dppo_tv", "token-mean", 0.15, 0.15, 10000.0),
    ),
    dict(
        objective="dppo_kl",
        rlviz={"loss_agg_mode": "token-mean"},
        framework="verl",
        inputs=("far",),
        value_form="log_prob",
        settings=verl("dppo_kl", "token-mean", 0.05, 0.05, 10000.0),
    ),
    dict(
        objective="gspo",
        rlviz={},
        framework="trl",
        inputs=("far",),
        settings={"loss_type": "grpo", "importance_sampling_level": "sequence", "epsilon": 3e-4, "epsilon_high": 4e-4},
    ),
    dict(
        objective="luspo",
        rlviz={},
        framework="trl",
        inputs=("far",),
        settings={"loss_type": "luspo", "importance_sampling_level": "sequence", "epsilon": 3e-4, "epsilon_high": 4e-4},
    ),
    dict(
        objective="gmpo", rlviz={}, framework="trl", trainer="GMPOTrainer", inputs=("far",), settings={"epsilon": 0.4}
    ),
    dict(
        objective="cispo",
        rlviz={},
        framework="trl",
        inputs=("far",),
        value_form="log_prob",
        settings={"loss_type": "cispo", "epsilon_high": 1.2},
    ),
    dict(
        objective="vespo",
        rlviz={},
        framework="trl",
        inputs=("far",),
        value_form="log_prob",
        settings={
            "loss_type": "vespo",
            "vespo_k_pos": 2.0,
            "vespo_lambda_pos": 3.0,
            "vespo_k_neg": 3.0,
            "vespo_lambda_neg": 2.0,
        },
    ),
    # verl's token-sum aggregation (agg_loss, loss_agg_mode="token-sum"; one process: dp_size 1, the plain sum)
    dict(
        objective="dapo",
        rlviz={"loss_agg_mode": "token-sum", "dual_clip_c": 10.0},
        framework="verl",
        settings=verl("vanilla", "token-sum", 0.2, 0.28, 10.0),
    ),
    # issue 43: GPG's loss (-A log pi), verl's DRO (-A log pi + dro_beta/2 l^2, no clip and no clamp: the far
    # set too) and verl's bypass mode (old_log_prob = the rollout's; loss_type reinforce: -sg[min(rho, C)] A log pi
    # with rho per response or per token; loss_type ppo_clip: verl's vanilla loss, no IS weight = rlviz's PPO)
    dict(
        objective="gpg", rlviz={}, framework="verl", value_form="log_prob", settings=verl("gpg", "token-mean", 0.2, 0.2)
    ),
    dict(
        objective="gpg",
        rlviz={"loss_agg_mode": "seq-mean-token-mean"},
        framework="verl",
        value_form="log_prob",
        settings=verl("gpg", "seq-mean-token-mean", 0.2, 0.2),
    ),
    dict(
        objective="dro",
        rlviz={},
        framework="verl",
        inputs=(*ALL, "far"),
        value_form="log_prob_term",
        settings=verl("dro", "token-mean", 0.2, 0.2, dro_beta=1.0),
    ),
    dict(
        objective="dro",
        rlviz={"dro_beta": 0.5, "loss_agg_mode": "seq-mean-token-mean"},
        framework="verl",
        value_form="log_prob_term",
        settings=verl("dro", "seq-mean-token-mean", 0.2, 0.2, dro_beta=0.5),
    ),
    dict(
        objective="bypass_pg",
        rlviz={},
        framework="verl",
        inputs=(*ALL, "far"),
        value_form="log_prob",
        settings=verl(
            "bypass_mode",
            "token-mean",
            0.2,
            0.2,
            rollout_correction={
                "bypass_mode": True,
                "loss_type": "reinforce",
                "rollout_is": "sequence",
                "rollout_is_threshold": 2.0,
            },
        ),
        note="RolloutCorrectionConfig.bypass_pg_is(): sequence-level truncated IS, C = 2",
    ),
    dict(
        objective="bypass_pg",
        rlviz={"bypass_is_level": "token", "bypass_is_cap": 1.5},
        framework="verl",
        inputs=(*ALL, "far"),
        value_form="log_prob",
        settings=verl(
            "bypass_mode",
            "token-mean",
            0.2,
            0.2,
            rollout_correction={
                "bypass_mode": True,
                "loss_type": "reinforce",
                "rollout_is": "token",
                "rollout_is_threshold": 1.5,
            },
        ),
    ),
    dict(
        objective="ppo",
        rlviz={"dual_clip_c": 3.0},
        framework="verl",
        settings=verl(
            "bypass_mode",
            "token-mean",
            0.2,
            0.2,
            3.0,
            rollout_correction={"bypass_mode": True, "loss_type": "ppo_clip", "rollout_is": None},
        ),
        note="RolloutCorrectionConfig.bypass_ppo_clip(): verl's vanilla loss with old_log_prob = the rollout's",
    ),
]
# rlviz objectives with no implementation in TRL or verl at these versions: gppo, ce_gppo, m2po, aspo
# (GPPO lives in the authors' verl fork, CE-GPPO in theirs; neither is in volcengine/verl or TRL).

# verl's KL estimators (kl_penalty) against rlviz's names
KL_CASES = [
    ("k1", "kl"),
    ("k1", "k1"),
    ("abs", "abs"),
    ("k2", "mse"),
    ("k2", "k2"),
    ("k3", "low_var_kl"),
    ("k3", "k3"),
    ("k1+", "k1+"),
    ("k3+", "k3+"),
]
# verl's advantage estimators (get_adv_estimator_fn) against rlviz's estimator names
ADV_CASES = [
    ("grpo", "grpo", {"norm_adv_by_std_in_grpo": True}),
    ("grpo", "grpo_vectorized", {"norm_adv_by_std_in_grpo": True}),
    ("dr_grpo", "grpo", {"norm_adv_by_std_in_grpo": False}),
    ("rloo", "rloo", {}),
    ("rloo", "rloo_vectorized", {}),
    ("reinforce_pp", "reinforce_plus_plus", {}),
    ("reinforce_pp_baseline", "reinforce_plus_plus_baseline", {}),
    ("remax", "remax", {}),
    ("gdpo", "gdpo", {}),
    ("gpg", "gpg", {}),
    ("opo", "opo", {}),
    ("grpo_passk", "grpo_passk", {"norm_adv_by_std_in_grpo": True}),
]
# two prompts, G = 4 each; lengths per response; the greedy response's reward per prompt (ReMax);
# a second reward component for GDPO (exact in float32: verl reads components as float32)
ADV_REWARDS = ((1.0, 0.0, 0.0, 1.0), (0.5, 0.25, 0.0, 0.75))
ADV_LENGTHS = ((3, 5, 8, 2), (6, 1, 4, 7))
ADV_GREEDY = (1.0, 0.25)
ADV_FORMAT = ((1.0, 1.0, 0.0, 0.5), (0.0, 1.0, 1.0, 1.0))
# the Optimal Token Baseline (verl optimal_token_baseline, a per-token estimator): the old policy's statistics of
# each sampled token on the same responses, from fixed logits over a vocabulary of 5 (seed 43); Σπ² by verl's own
# calculate_sum_pi_squared_from_logits; finite junk in the padding (verl multiplies it by the mask). Both groups'
# longest response is the only one past the second longest, so handle_zero_tail acts in each; the second case
# scales the token variances by rollout IS weights squared (rho in [0.5, 2]).
OTB_VOCAB, OTB_SEED, OTB_JUNK = 5, 43, (3.0, 7.0, 9.0)
OTB_CASES = [("optimal_token_baseline", {"handle_zero_tail": True}), ("optimal_token_baseline", {"rollout_is": True})]


# ----------------------------------------------------------------------------------------------
# Rollout corrections (rlviz.core.corrections): the sampler's log-probs differ from the trainer's
# ----------------------------------------------------------------------------------------------

# B = 6 responses of lengths 3, 5, 8, 2, 6, 4 padded to T = 8; log pi_old (the trainer's) of the real
# tokens, all <= -1.6 so that log pi_rollout = log pi_old - l stays < 0 for every l below.
CORR_LENGTHS = (3, 5, 8, 2, 6, 4)
CORR_OLD = (
    (-1.7, -2.3, -1.9),
    (-2.6, -1.8, -3.1, -2.0, -1.65),
    (-1.9, -2.4, -1.7, -3.3, -2.1, -2.8, -1.75, -2.2),
    (-2.5, -1.85),
    (-2.05, -1.95, -2.7, -1.6, -2.35, -3.0),
    (-1.8, -2.9, -2.15, -2.45),
)
# l = log pi_old - log pi_rollout per token, in [-1.5, 1.5]: tokens on both sides of [0.5, 2] (log +-0.69)
# and above 1.5. Per response, sum l = 1.2, -0.9, 0.3, -1.0, 0.0012, 1.0 (sequence ratio 3.32, 0.41,
# 1.35, 0.37, 1.001, 2.72: above 3, below 0.5, inside, below, inside, in (2, 3)); mean of k1 = -l:
# -0.4, 0.18, -0.0375, 0.5, -0.0002, -0.25 (geometric mean 0.67, 1.20, 0.96, 1.65, 0.9998, 0.78: only
# the fifth inside verl's 0.999_1.001, the second, third and fifth inside 0.8_1.25). No statistic lies
# within 1e-3 of a bound, so no comparison can be flipped by rounding.
CORR_LOG_RATIOS = (
    (0.9, -0.2, 0.5),
    (-1.2, 0.3, 0.6, -0.1, -0.5),
    (1.5, -1.4, 0.2, -0.3, 1.0, -0.9, -0.6, 0.8),
    (-0.6, -0.4),
    (0.9, -0.9, 0.5, -0.5, 0.0012, 0.0),
    (0.6, 0.3, -0.1, 0.2),
)
JUNK_ROLLOUT = (4.0, -12.0, 0.7, -0.05, 25.0)  # finite junk, and a padded log-ratio beyond verl's +-20 clamp


def build_correction_inputs() -> dict[str, torch.Tensor]:
    """The corrections' inputs: ``old_log_prob``, ``rollout_log_prob``, ``response_mask``, [B, T]
    float64, finite junk in the padding of both log-probs."""
    width = max(CORR_LENGTHS)
    rollout = [[o - lr for o, lr in zip(orow, lrow)] for orow, lrow in zip(CORR_OLD, CORR_LOG_RATIOS)]
    out = {
        "old_log_prob": _pad_to(CORR_OLD, JUNK_OLD, width),
        "rollout_log_prob": _pad_to(rollout, JUNK_ROLLOUT, width),
        "response_mask": torch.tensor([[1.0] * n + [0.0] * (width - n) for n in CORR_LENGTHS]),
    }
    real = out["response_mask"] > 0
    assert bool((out["old_log_prob"][real] < 0).all()) and bool((out["rollout_log_prob"][real] < 0).all())
    return out


def _pad_to(rows, junk, width):
    return torch.tensor([list(r) + [junk[(k + len(r)) % len(junk)] for k in range(width - len(r))] for r in rows])


def run_verl_correction(settings: dict, inp: dict) -> tuple[torch.Tensor, torch.Tensor, str]:
    """verl's ``compute_rollout_correction_weights`` (``rollout_is`` set) or
    ``compute_rollout_rejection_mask`` (``rollout_rs`` set) on the fixed inputs, given
    ``log_ratio = old_log_prob - rollout_log_prob`` as verl's ``compute_rollout_correction_and_rejection_mask``
    forms it. Returns (weight [B, T], the framework's own output [B, T], function): for IS the weights
    themselves; for rejection the modified ``response_mask`` (weight 1 where kept)."""
    from verl.trainer.ppo import rollout_corr_helper as h

    log_ratio = inp["old_log_prob"] - inp["rollout_log_prob"]
    mask = inp["response_mask"].clone()
    if "rollout_is" in settings:
        out, _ = h.compute_rollout_correction_weights(log_ratio, mask, **settings)
        return out, out, "verl.trainer.ppo.rollout_corr_helper.compute_rollout_correction_weights"
    out, _ = h.compute_rollout_rejection_mask(log_ratio, mask, **settings)
    return out.to(torch.float64), out, "verl.trainer.ppo.rollout_corr_helper.compute_rollout_rejection_mask"


class _NoCheckpointing(torch.nn.Module):
    is_gradient_checkpointing = False  # read by trl.models.utils.disable_gradient_checkpointing


def run_trl_correction(settings: dict, inp: dict) -> tuple[torch.Tensor, torch.Tensor, str]:
    """TRL's vLLM importance-sampling correction: ``GRPOTrainer._generate_and_score_completions`` on a
    ``GRPOTrainer.__new__`` instance whose generation (``_generate``: the fixed completions and their
    sampling log-probs, as vLLM would return them, one unpadded list per response), forward pass
    (``_get_per_token_logps_and_entropies``: the fixed old log-probs) and rewards (``_calculate_rewards``:
    zeros) are stubs; everything else, the padding and the correction included, is TRL's. Returns
    (weight [B, T], TRL's ``output["importance_sampling_ratio"]`` ([B, T], or [B, 1] for the sequence
    modes), function)."""
    import types
    from collections import defaultdict, deque

    from accelerate import Accelerator
    from trl import GRPOConfig, GRPOTrainer

    mask = inp["response_mask"]
    B = mask.shape[0]
    lengths = [int(n) for n in mask.sum(-1)]
    with tempfile.TemporaryDirectory() as tmp:
        args = GRPOConfig(
            output_dir=tmp,
            report_to=[],
            use_cpu=True,
            use_vllm=True,
            vllm_importance_sampling_correction=True,
            per_device_train_batch_size=B,
            num_generations=B,
            beta=0.0,
            **settings,
        )
    accelerator = Accelerator(cpu=True)  # after the config, as in run_trl
    t = GRPOTrainer.__new__(GRPOTrainer)
    # what GRPOTrainer.__init__ copies from args (or sets) and _generate_and_score_completions reads
    t.args = args
    t.accelerator = accelerator
    t.model = _NoCheckpointing().train()
    t.environment_factories = None
    t.environments = None
    t.tools = []
    t._tokenizer = types.SimpleNamespace(pad_token_id=0)
    t.pad_to_multiple_of = args.pad_to_multiple_of
    t.mask_truncated_completions = args.mask_truncated_completions
    t.use_vllm = args.use_vllm
    t.vllm_importance_sampling_correction = args.vllm_importance_sampling_correction
    t.vllm_importance_sampling_mode = args.vllm_importance_sampling_mode
    t.vllm_importance_sampling_clip_max = args.vllm_importance_sampling_clip_max
    t.vllm_importance_sampling_clip_min = args.vllm_importance_sampling_clip_min
    t.beta = args.beta
    t.num_generations = args.num_generations
    t.num_iterations = args.num_iterations
    t.num_generations_eval = args.num_generations_eval or args.num_generations
    t.multi_objective_aggregation = args.multi_objective_aggregation
    t.scale_rewards = args.scale_rewards
    t.reward_funcs = [None]
    t.reward_func_names = ["stub"]
    t.reward_weights = torch.ones(1)
    t.log_multimodal = args.log_multimodal
    t._metrics = {"train": defaultdict(list), "eval": defaultdict(list)}
    n = args.generation_batch_size
    t._logs = {
        "images": deque(maxlen=n),
        "prompt": deque(maxlen=n),
        "completion": deque(maxlen=n),
        "rewards": defaultdict(lambda: deque(maxlen=n)),
        "advantages": deque(maxlen=n),
        "extra": defaultdict(lambda: deque(maxlen=n)),
    }
    t._pending_extra_logs = defaultdict(list)
    t._pending_metrics = defaultdict(list)
    # the stubs: generation (vLLM's completions and per-token log-probs), the trainer's forward, rewards
    rollout = [inp["rollout_log_prob"][i, :k].tolist() for i, k in enumerate(lengths)]
    completion_ids = [[1] * k for k in lengths]
    t._generate = lambda prompts: ([[1]] * B, completion_ids, None, ["c"] * B, rollout, {}, None, None)
    old = inp["old_log_prob"].clone()
    t._get_per_token_logps_and_entropies = lambda *a, **k: (old.clone(), None, None)
    t._calculate_rewards = lambda *a: torch.zeros(B, 1)
    output = t._generate_and_score_completions([{"prompt": "p"}] * B)
    assert torch.equal(output["completion_mask"].to(mask.dtype), mask), "TRL padded the completions differently"
    ratio = output["importance_sampling_ratio"]
    # TRL's loss multiplies the per-token loss by this ratio and aggregates over completion_mask only
    weight = ratio.expand_as(mask) * output["completion_mask"]
    return weight, ratio, "trl.GRPOTrainer._generate_and_score_completions (output['importance_sampling_ratio'])"


def _trl_mode(mode, low, high):
    return {
        "vllm_importance_sampling_mode": mode,
        "vllm_importance_sampling_clip_min": low,
        "vllm_importance_sampling_clip_max": high,
    }


# One row per (framework, settings); rlviz: the CORRECTIONS entry and the band (low, high) it maps to.
CORRECTION_CASES = [
    # verl: a single threshold is TIS, clamped from above only (no lower bound: rlviz low = None)
    dict(
        correction="token_tis",
        rlviz={"low": None, "high": 2.0},
        framework="verl",
        settings={"rollout_is": "token", "rollout_is_threshold": 2.0},
    ),
    dict(
        correction="token_tis",
        rlviz={"low": None, "high": 1.5},
        framework="verl",
        settings={"rollout_is": "token", "rollout_is_threshold": 1.5},
    ),
    dict(
        correction="sequence_tis",
        rlviz={"low": None, "high": 2.0},
        framework="verl",
        settings={"rollout_is": "sequence", "rollout_is_threshold": 2.0},
    ),
    # verl: a "lower_upper" threshold is IcePop: the ratio inside [lower, upper], 0 outside
    dict(
        correction="token_mis",
        rlviz={"low": 0.5, "high": 2.0},
        framework="verl",
        settings={"rollout_is": "token", "rollout_is_threshold": "0.5_2.0"},
    ),
    dict(
        correction="sequence_mis",
        rlviz={"low": 0.5, "high": 2.0},
        framework="verl",
        settings={"rollout_is": "sequence", "rollout_is_threshold": "0.5_2.0"},
    ),
    # verl rejection: seq_mean_k1 bounds the mean of k1 = -l (log of the geometric mean of
    # pi_rollout / pi_train) by [log lower, log upper]; a single value u means [1/u, u]
    dict(
        correction="geo_mean_rs",
        rlviz={"low": 0.999, "high": 1.001},
        framework="verl",
        settings={"rollout_rs": "seq_mean_k1", "rollout_rs_threshold": "0.999_1.001"},
    ),
    dict(
        correction="geo_mean_rs",
        rlviz={"low": 0.8, "high": 1.25},
        framework="verl",
        settings={"rollout_rs": "seq_mean_k1", "rollout_rs_threshold": "0.8_1.25"},
    ),
    dict(
        correction="geo_mean_rs",
        rlviz={"low": 1 / 1.25, "high": 1.25},
        framework="verl",
        settings={"rollout_rs": "seq_mean_k1", "rollout_rs_threshold": 1.25},
    ),
    # TRL: *_truncate clamps into [clip_min, clip_max] (clip_min None: from above only), *_mask zeroes
    # the ratio outside [clip_min, clip_max]; sequence modes use the product of the token ratios
    dict(
        correction="token_tis",
        rlviz={"low": None, "high": 2.0},
        framework="trl",
        settings=_trl_mode("token_truncate", None, 2.0),
    ),
    dict(
        correction="token_tis",
        rlviz={"low": 0.5, "high": 2.0},
        framework="trl",
        settings=_trl_mode("token_truncate", 0.5, 2.0),
    ),
    dict(
        correction="sequence_tis",
        rlviz={"low": None, "high": 2.0},
        framework="trl",
        settings=_trl_mode("sequence_truncate", None, 2.0),
    ),
    dict(
        correction="sequence_tis",
        rlviz={"low": 0.5, "high": 2.0},
        framework="trl",
        settings=_trl_mode("sequence_truncate", 0.5, 2.0),
    ),
    dict(
        correction="token_mis",
        rlviz={"low": 0.5, "high": 2.0},
        framework="trl",
        settings=_trl_mode("token_mask", 0.5, 2.0),
    ),
    dict(
        correction="sequence_mis",
        rlviz={"low": None, "high": 3.0},
        framework="trl",
        settings=_trl_mode("sequence_mask", None, 3.0),
        note="TRL's defaults (vllm_importance_sampling_mode='sequence_mask', clip_min None, clip_max 3.0)",
    ),
    dict(
        correction="sequence_mis",
        rlviz={"low": 0.5, "high": 2.0},
        framework="trl",
        settings=_trl_mode("sequence_mask", 0.5, 2.0),
    ),
]
# verl rejection on the response's ratio (seq_sum_k1: sum of k1 = -l within [log lower, log upper]) and on
# the mean k3 = e^l - 1 - l (seq_mean_k3, an upper bound only; per response 0.242, 0.177, 0.536, 0.110, 0.187,
# 0.0745 on these inputs, so 0.15 keeps the fourth and sixth, 0.2 the second and fifth too)
CORRECTION_CASES += [
    dict(
        correction="seq_ratio_rs",
        rlviz={"low": 0.5, "high": 2.0},
        framework="verl",
        settings={"rollout_rs": "seq_sum_k1", "rollout_rs_threshold": "0.5_2.0"},
    ),
    dict(
        correction="k3_rs",
        rlviz={"low": None, "high": 0.15},
        framework="verl",
        settings={"rollout_rs": "seq_mean_k3", "rollout_rs_threshold": 0.15},
    ),
    dict(
        correction="k3_rs",
        rlviz={"low": None, "high": 0.2},
        framework="verl",
        settings={"rollout_rs": "seq_mean_k3", "rollout_rs_threshold": 0.2},
    ),
]

# verl's presets (rlviz.core.corrections.PRESETS): each RolloutCorrectionConfig classmethod builds the config,
# and verl's compute_rollout_correction_and_rejection_mask runs it; the weight stored is the IS weights
# times the returned response mask (what the loss multiplies). ``is_in_weight`` False: the IS weight is
# the rlviz bypass objective's (bypass_pg, checked by its own cases), so only the mask is stored. The
# K3-RS default 0.01 rejects every response of these inputs (mean k3 >= 0.0745): those presets run with
# rs_threshold=0.15. Not stored: bypass_ppo_clip and bypass_pg_is, whose correction part is empty (they
# are rlviz's ppo and bypass_pg objectives, checked by their cases).
PRESET_CASES = [
    dict(preset="decoupled_token_is", kwargs={}),
    dict(preset="decoupled_seq_is", kwargs={}),
    dict(preset="decoupled_token_icepop", kwargs={}),
    dict(preset="decoupled_seq_is_rs", kwargs={}),
    dict(preset="decoupled_geo_rs", kwargs={}),
    dict(preset="decoupled_geo_rs_seq_tis", kwargs={}),
    dict(preset="decoupled_geo_rs_token_tis", kwargs={}),
    dict(preset="decoupled_k3_rs", kwargs={"rs_threshold": 0.15}, rlviz={"rs_band": [None, 0.15]}),
    dict(preset="decoupled_k3_rs_seq_tis", kwargs={"rs_threshold": 0.15}, rlviz={"rs_band": [None, 0.15]}),
    dict(preset="decoupled_k3_rs_token_tis", kwargs={"rs_threshold": 0.15}, rlviz={"rs_band": [None, 0.15]}),
    dict(preset="bypass_ppo_clip_geo_rs", kwargs={}),
    dict(preset="bypass_ppo_clip_k3_rs", kwargs={"rs_threshold": 0.15}, rlviz={"rs_band": [None, 0.15]}),
    dict(preset="bypass_pg_token_icepop", kwargs={}),
    dict(preset="bypass_pg_geo_rs", kwargs={}),
    dict(preset="bypass_pg_geo_rs_seq_tis", kwargs={}, is_in_weight=False),
    dict(preset="bypass_pg_geo_rs_token_tis", kwargs={}, is_in_weight=False),
]


def run_verl_preset(row: dict, inp: dict) -> tuple[torch.Tensor, dict]:
    """verl's ``RolloutCorrectionConfig.<preset>(**kwargs)`` run through
    ``compute_rollout_correction_and_rejection_mask`` on the fixed inputs (in bypass mode verl calls it
    with the current policy's log-probs as ``old_log_prob``: the fixed trainer log-probs here). Returns
    (weight [B, T]: the IS weights, where the row keeps them, times the modified response mask; the
    settings the classmethod wrote)."""
    from verl.trainer.config.algorithm import RolloutCorrectionConfig
    from verl.trainer.ppo import rollout_corr_helper as h

    config = getattr(RolloutCorrectionConfig, row["preset"])(**row["kwargs"])
    settings = {
        k: getattr(config, k)
        for k in (
            "rollout_is",
            "rollout_is_threshold",
            "rollout_is_batch_normalize",
            "rollout_rs",
            "rollout_rs_threshold",
        )
    }
    weights, mask, _ = h.compute_rollout_correction_and_rejection_mask(
        inp["old_log_prob"], inp["rollout_log_prob"], inp["response_mask"].clone(), **settings
    )
    weight = mask.to(torch.float64)
    if weights is not None and row.get("is_in_weight", True):
        weight = weight * weights.batch["rollout_is_weights"]
    settings |= {"bypass_mode": config.bypass_mode, "loss_type": config.loss_type}
    return weight, settings


def preset_vectors(inp: dict) -> list:
    """Every row of ``PRESET_CASES`` run by verl; stored after the verl corrections (same inputs)."""
    cases = []
    real = inp["response_mask"] > 0
    for k, row in enumerate(PRESET_CASES):
        weight, settings = run_verl_preset(row, inp)
        assert bool(torch.isfinite(weight).all()) and float(weight[~real].abs().max()) == 0.0, row
        assert bool(((weight - 1).abs() > 1e-12)[real].any()), f"the preset does nothing here: {row}"
        case = {
            "id": f"preset/verl/{k}",
            "correction": row["preset"],
            "preset": row["preset"],
            "rlviz": row.get("rlviz", {}),
            "function": "verl.trainer.ppo.rollout_corr_helper.compute_rollout_correction_and_rejection_mask",
            "settings": settings | {"classmethod": f"RolloutCorrectionConfig.{row['preset']}", **row["kwargs"]},
            "weight": _tensor_list(weight),
            "kept": ((weight != 0) & real).tolist(),
            "applied_as": "pg_losses * rollout_is_weights over the modified response_mask"
            if row.get("is_in_weight", True)
            else "the modified response_mask (the IS weight is the bypass_pg objective's)",
        }
        cases.append(case)
    return cases


# Not stored (no rlviz entry to map to): verl's token_k1 rejection (weight 1 inside a band on the token's
# pi_rollout / pi_train), the k2, token / sum k3 and seq_max rejection filters,
# rollout_is_batch_normalize; TRL's token_mask with clip_min None (rlviz's token_mis takes low = None as
# its default 0.5, so it cannot say "no lower bound").


# ----------------------------------------------------------------------------------------------


def _tensor_list(x: torch.Tensor) -> list:
    return x.detach().tolist()


def _version(pkg: str) -> str:
    return importlib.metadata.version(pkg)


def _mask_acts(masks: dict, inp: dict) -> bool:
    """Whether the masks of a case keep some real tokens and drop others (else the case tests nothing):
    the high-entropy rule (TRL: quantile over the real tokens, >=) and the off-policy rule (drop when
    A < 0 and the mean of log pi_old - log pi over the response exceeds delta)."""
    real = inp["response_mask"] > 0
    keep = real.clone()
    if "top_entropy_quantile" in masks:
        threshold = torch.quantile(inp["entropy"][real], 1 - masks["top_entropy_quantile"])
        keep &= inp["entropy"] >= threshold
    if "off_policy_mask_threshold" in masks:
        kl = ((inp["old_log_prob"] - inp["log_prob"]) * real).sum(1) / real.sum(1)
        adv = adv_bt(inp)
        keep &= (adv >= 0) | (kl[:, None] <= masks["off_policy_mask_threshold"])
    return bool(keep[real].any()) and not bool(keep[real].all())


def policy_vectors(inputs) -> dict[str, list]:
    cases = {"trl": [], "verl": []}
    for row in POLICY_CASES:
        for set_name in row.get("inputs", ALL):
            inp = inputs[set_name]
            if row["framework"] == "trl":
                loss, grad, function = run_trl(row["settings"], inp, row.get("trainer", "GRPOTrainer"))
            elif row.get("value_form") == "log_prob_term":
                loss, grad, function, grad_old = run_verl(row["settings"], inp, shift=True)
                shift_grad = grad + grad_old
                moved = {**inp, "log_prob": inp["log_prob"] + 0.25, "old_log_prob": inp["old_log_prob"] + 0.25}
                again = run_verl(row["settings"], moved)[0]  # linear along a common shift, with slope sum(k)
                slope = float((shift_grad * inp["response_mask"]).sum())
                assert abs(float(again) - float(loss) - 0.25 * slope) < 1e-9, (row, set_name)
            else:
                loss, grad, function = run_verl(row["settings"], inp)
                if row["settings"]["loss_mode"] == "clip_cov":  # a random draw must not be one
                    for seed in (1, 2, 3):
                        torch.manual_seed(seed)
                        again, g2, _ = run_verl(row["settings"], inp)
                        assert float(again) == float(loss) and torch.equal(g2, grad), f"clip_cov draws at {set_name}"
            assert math.isfinite(float(loss)) and bool(torch.isfinite(grad).all()), (row, set_name)
            assert float(grad[inp["response_mask"] == 0].abs().max()) == 0.0, f"padding gradient {row} {set_name}"
            case = {
                "id": f"{row['objective']}/{row['framework']}/{len(cases[row['framework']])}",
                "objective": row["objective"],
                "rlviz": row["rlviz"],
                "inputs": set_name,
                "function": function,
                "settings": row["settings"],
                "value_form": row.get("value_form", "surrogate"),
                "loss": float(loss),
                "grad": _tensor_list(grad),
            }
            if case["value_form"] == "log_prob_term":
                case["shift_grad"] = _tensor_list(shift_grad)
            if case["value_form"] == "log_prob":  # linear in log pi with slope grad: loss = sum(g * lp)
                lin = float((grad * inp["log_prob"] * inp["response_mask"]).sum())
                assert abs(lin - float(loss)) < 1e-10, (row, set_name, lin, float(loss))
            if "note" in row:
                case["note"] = row["note"]
            if "masks" in row:
                case["masks"] = row["masks"]
                assert _mask_acts(row["masks"], inp), f"the masks drop nothing or everything: {row} {set_name}"
            cases[row["framework"]].append(case)
    return cases


def kl_vectors(inputs) -> list[dict]:
    from verl.trainer.ppo.core_algos import kl_penalty

    inp = inputs["regions"]
    # one token at x = log pi - log pi_ref = -3, where k3 = e^3 - 4 ~ 16 > 10: verl's clamp acts (zero gradient)
    ref = inp["ref_log_prob"].clone()
    ref[2, 3] = inp["log_prob"][2, 3] + 3.0
    out = []
    for rlviz_name, verl_name in KL_CASES:
        lp = _leaf(inp)
        try:
            kl = kl_penalty(lp, ref, verl_name)
        except NotImplementedError as exc:  # recorded, so the test can say so
            out.append({"id": f"kl/{verl_name}", "estimator": rlviz_name, "verl": verl_name, "error": repr(exc)})
            continue
        (grad,) = torch.autograd.grad((kl * inp["response_mask"]).sum(), lp)
        out.append(
            {
                "id": f"kl/{verl_name}",
                "estimator": rlviz_name,
                "function": f"verl.trainer.ppo.core_algos.kl_penalty(logprob, ref_logprob, {verl_name!r})",
                "settings": {"kl_penalty": verl_name},
                "value": _tensor_list(kl.detach() * inp["response_mask"]),
                "grad": _tensor_list(grad),
            }
        )
    return out, ref


def adv_vectors() -> tuple[list[dict], dict]:
    from verl.trainer.config import AlgoConfig
    from verl.trainer.ppo.core_algos import get_adv_estimator_fn

    rewards = torch.tensor(ADV_REWARDS).reshape(-1)  # (B,)
    lengths = torch.tensor(ADV_LENGTHS).reshape(-1)
    bsz, width = len(rewards), int(lengths.max())
    mask = (torch.arange(width)[None, :] < lengths[:, None]).to(torch.float64)  # (B, T)
    token_rewards = torch.zeros(bsz, width)
    token_rewards[torch.arange(bsz), lengths - 1] = rewards  # the score sits on the last real token
    index = np.array([f"p{i // 4}" for i in range(bsz)], dtype=object)
    greedy = torch.tensor(ADV_GREEDY).repeat_interleave(4)  # (B,) the prompt's greedy reward
    out = []
    for rlviz_name, verl_name, kwargs in ADV_CASES:
        fn = get_adv_estimator_fn(verl_name)
        call = {"token_level_rewards": token_rewards.clone(), "response_mask": mask.clone()}
        if verl_name == "remax":
            call["reward_baselines"] = greedy.clone()
        else:
            call["index"] = index
        if verl_name == "reinforce_plus_plus":
            call["config"] = AlgoConfig(gamma=1.0)
        if verl_name == "grpo_passk":  # it reads norm_adv_by_std_in_grpo from the config
            call["config"] = AlgoConfig(norm_adv_by_std_in_grpo=kwargs["norm_adv_by_std_in_grpo"])
        settings = dict(kwargs)
        if verl_name == "gdpo":
            # two components through verl's own path: non_tensor_batch keys + batch prompts / attention_mask
            comps = {"accuracy": np.array(ADV_REWARDS, dtype=np.float32).reshape(-1)}
            comps["format"] = np.array(ADV_FORMAT, dtype=np.float32).reshape(-1)
            call["config"] = AlgoConfig(gdpo_reward_keys=["accuracy", "format"])
            call["non_tensor_batch"] = comps
            call["batch"] = {
                "prompts": torch.zeros(bsz, 2, dtype=torch.long),
                "attention_mask": torch.cat([torch.ones(bsz, 2), mask], 1).long(),
            }
            settings["gdpo_reward_keys"] = ["accuracy", "format"]
        adv, _ = fn(**call, **kwargs)
        per_response = [float(adv[i, 0]) for i in range(bsz)]
        assert torch.allclose(adv, torch.tensor(per_response)[:, None] * mask, atol=1e-12), verl_name
        out.append(
            {
                "id": f"adv/{verl_name}/{len(out)}",
                "estimator": rlviz_name,
                "function": f"verl.trainer.ppo.core_algos.{fn.__name__} (get_adv_estimator_fn({verl_name!r}))",
                "settings": settings,
                "advantages": [per_response[:4], per_response[4:]],
            }
        )
    stats = otb_token_stats(mask)
    for rlviz_name, settings in OTB_CASES:  # per-token estimators: [n, G, T] advantages
        fn = get_adv_estimator_fn(rlviz_name)
        weights = stats["rollout_is_weights"] if settings.get("rollout_is") else None
        adv, _ = fn(
            token_level_rewards=token_rewards.clone(),
            response_mask=mask.clone(),
            index=index,
            old_log_probs=stats["old_log_probs"].clone(),
            sum_pi_squared=stats["sum_pi_squared"].clone(),
            rollout_is_weights=None if weights is None else weights.clone(),
        )
        out.append(
            {
                "id": f"adv/{rlviz_name}/{len(out)}",
                "estimator": rlviz_name,
                "function": f"verl.trainer.ppo.core_algos.{fn.__name__} (get_adv_estimator_fn({rlviz_name!r}))",
                "settings": settings,
                "per_token": True,
                "advantages": _tensor_list(adv.reshape(len(ADV_REWARDS), 4, width)),
            }
        )
    inputs = {
        "rewards": [list(r) for r in ADV_REWARDS],
        "lengths": [list(n) for n in ADV_LENGTHS],
        "greedy_rewards": list(ADV_GREEDY),
        "components": [[[a, f] for a, f in zip(ra, rf)] for ra, rf in zip(ADV_REWARDS, ADV_FORMAT)],
        "token_stats": {k: _tensor_list(v.reshape(len(ADV_REWARDS), 4, width)) for k, v in stats.items()},
    }
    return out, inputs


def otb_token_stats(mask: torch.Tensor) -> dict[str, torch.Tensor]:
    """The Optimal Token Baseline's inputs on the advantage cases' responses ([B, T] float64 each, junk in
    the padding): ``old_log_probs`` of a sampled token under fixed logits, ``sum_pi_squared`` by verl's
    ``calculate_sum_pi_squared_from_logits``, and ``rollout_is_weights`` in [0.5, 2]."""
    from verl.utils.torch_functional import calculate_sum_pi_squared_from_logits

    gen = torch.Generator().manual_seed(OTB_SEED)
    bsz, width = mask.shape
    logits = 2.0 * torch.randn(bsz, width, OTB_VOCAB, generator=gen, dtype=torch.float64)
    tokens = torch.randint(0, OTB_VOCAB, (bsz, width), generator=gen)
    old = logits.log_softmax(-1).gather(-1, tokens[..., None])[..., 0]
    s2 = calculate_sum_pi_squared_from_logits(logits)
    rho = 0.5 + 1.5 * torch.rand(bsz, width, generator=gen, dtype=torch.float64)
    real = mask > 0
    return {
        name: torch.where(real, x, torch.full_like(x, junk))
        for (name, x), junk in zip(
            (("old_log_probs", old), ("sum_pi_squared", s2), ("rollout_is_weights", rho)), OTB_JUNK
        )
    }


def correction_vectors(inp: dict) -> dict[str, list]:
    """Every row of ``CORRECTION_CASES`` run by its framework on the corrections' inputs. A case stores
    the weight per token ([B, T], 0 at padding) and ``kept`` (the real tokens whose weight is not 0)."""
    cases = {"trl": [], "verl": []}
    mask = inp["response_mask"]
    real = mask > 0
    log_ratio = torch.where(real, inp["old_log_prob"] - inp["rollout_log_prob"], torch.zeros(()))
    for row in CORRECTION_CASES:
        run = run_trl_correction if row["framework"] == "trl" else run_verl_correction
        weight, output, function = run(row["settings"], inp)
        assert weight.shape == mask.shape and bool(torch.isfinite(weight).all()), row
        assert float(weight[~real].abs().max()) == 0.0, f"a weight at padding: {row}"
        kept = (weight != 0) & real
        # the band must act on these inputs: some tokens kept and some dropped, or some clamped and some not
        if row["correction"].endswith("_tis"):
            seq = row["correction"].startswith("sequence")
            raw = torch.exp(log_ratio.sum(-1, keepdim=True) if seq else log_ratio).expand_as(weight)
            clamped = (weight - raw).abs() > 1e-12
            assert bool(clamped[real].any()) and not bool(clamped[real].all()), f"nothing or all clamped: {row}"
        else:
            assert bool(kept[real].any()) and not bool(kept[real].all()), f"nothing or all dropped: {row}"
        case = {
            "id": f"correction/{row['framework']}/{len(cases[row['framework']])}",
            "correction": row["correction"],
            "rlviz": row["rlviz"],
            "function": function,
            "settings": row["settings"],
            "weight": _tensor_list(weight),
            "kept": kept.tolist(),
        }
        if row["framework"] == "trl":  # TRL's own tensor: 1 (not 0) at padding for the token modes, [B, 1] per sequence
            case["output"] = _tensor_list(output)
            case["applied_as"] = "per_token_loss * importance_sampling_ratio, aggregated over completion_mask"
        elif "rollout_rs" in row["settings"]:
            case["applied_as"] = (
                "response_mask (the returned mask replaces it: a dropped response leaves the normaliser)"
            )
        else:
            case["applied_as"] = "pg_losses * rollout_is_weights (an IcePop zero stays in the normaliser)"
        if "note" in row:
            case["note"] = row["note"]
        cases[row["framework"]].append(case)
    return cases


# ----------------------------------------------------------------------------------------------
# Entropy terms (issue 41): verl's constant bonus in ppo_loss, TRL's constant bonus and its adaptive
# controller in _compute_loss. rlviz: rlviz.core.entropy_control (entropy_bonus, adaptive_entropy_trajectory).
# ----------------------------------------------------------------------------------------------

# verl ppo_loss: policy_loss -= entropy_coeff * agg_loss(entropy, response_mask, loss_agg_mode); one row per
# loss_agg_mode (the rlviz objective whose existing cases map that verl loss), each at entropy_coeff 0, 0.01, 0.05
ENTROPY_COEFS = (0.0, 0.01, 0.05)
VERL_ENTROPY_CASES = [
    dict(objective="ppo", rlviz={"dual_clip_c": 3.0}, settings=verl("vanilla", "token-mean", 0.2, 0.2, 3.0)),
    dict(objective="grpo", rlviz={"beta": 0.0}, settings=verl("vanilla", "seq-mean-token-mean", 0.2, 0.2)),
    dict(
        objective="dr_grpo",
        rlviz={"norm_length": 10},
        settings=verl("vanilla", "seq-mean-token-sum-norm", 0.2, 0.2, loss_scale_factor=10),
    ),
]
# TRL _compute_loss with a constant entropy_coef: the bonus is the token mean of H whatever loss_type aggregates
TRL_ENTROPY_CASES = [
    dict(objective="dapo", rlviz={}, settings={"loss_type": "dapo", "epsilon": 0.2, "epsilon_high": 0.28}, coef=0.01),
    dict(objective="grpo", rlviz={"beta": 0.0}, settings={"loss_type": "grpo", "epsilon": 0.2, "beta": 0.0}, coef=0.05),
]
# TRL's adaptive controller (use_adaptive_entropy): entropy sequences (nats, one per optimizer step), each crossing
# the target both ways, with steps exactly at the target (marked by the generator's check) and reaching both bounds.
# Step k's per-token entropies are e_k + ENTROPY_OFFSETS (multiples of 1/64 summing to 0 over the 18 real tokens,
# junk in the padding), so TRL's measured mean is e_k to rounding, and exactly the target where e_k is (the
# targets and those steps' e_k are dyadic: the generator asserts it). The cases store TRL's measured values.
ENTROPY_OFFSETS = tuple(
    k / 64 for row in ((3, -1, -2), (4, -3, 1, -2, 0), (2, -4, 1, 3, -1, -2, 0, 1), (-1, 1)) for k in row
)
TRL_CONTROL_CASES = [
    dict(
        name="bounds",
        settings={"entropy_coef": 0.01, "entropy_target": 0.5, "entropy_coef_delta": 0.01, "entropy_coef_max": 0.03},
        entropy=(0.4, 0.3, 0.45, 0.5, 0.7, 0.6, 0.9, 0.55, 0.5, 0.25, 0.5, 0.8),
    ),
    dict(
        name="floor",
        settings={
            "entropy_coef": 0.05,
            "entropy_target": 0.25,
            "entropy_coef_delta": 0.03,
            "entropy_coef_min": 0.02,
            "entropy_coef_max": 0.1,
        },
        entropy=(0.3, 0.375, 0.25, 0.125, 0.1875, 0.25, 0.5, 0.5),
    ),
    dict(name="trl_defaults", settings={}, entropy=(0.375, 0.1875, 0.2, 0.15, 0.3, 0.2, 0.125, 0.5)),
]


def _entropy_leaf(inp: dict) -> torch.Tensor:
    return inp["entropy"].detach().clone().requires_grad_(True)


def run_verl_ppo_loss(settings: dict, inp: dict) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, str]:
    """verl's ``ppo_loss`` (``verl/workers/utils/losses.py``, the actor's loss function) on the fixed inputs:
    returns (loss, d loss / d log_prob [B, T], d loss / d entropy [B, T], function). It reads the model output
    in verl's no-padding layout: one flat tensor per field over every sequence's prompt (1 token here) and
    response, left-shifted by one (a response's values start at its prompt's last position; the slot after its
    last token holds junk), which verl's ``no_padding_2_padding`` slices back to [B, T] with zeros at padding;
    the batch is a ``TensorDict`` with ``dp_size`` 1, ``batch_num_tokens`` the real tokens and
    ``global_batch_size`` B (one micro-batch, one process), as verl's engines set them."""
    from tensordict import TensorDict
    from verl.utils import tensordict_utils as tu
    from verl.workers.config import ActorConfig, PolicyLossConfig
    from verl.workers.utils.losses import ppo_loss

    s = dict(settings)
    mode = s.pop("loss_mode")
    cfg = ActorConfig(
        strategy="fsdp",
        rollout_n=4,
        ppo_mini_batch_size=4,
        ppo_micro_batch_size_per_gpu=4,
        policy_loss=PolicyLossConfig(loss_mode=mode),
        **s,
    )
    mask = inp["response_mask"]
    B = mask.shape[0]
    lengths = [int(n) for n in mask.sum(-1)]
    lp, ent = _leaf(inp), _entropy_leaf(inp)

    def flat(x, junk):  # [B, T] -> verl's flat model output over prompt + response, shifted left by one
        return torch.cat([torch.cat([x[i, :n], torch.tensor([junk])]) for i, n in enumerate(lengths)])

    data = TensorDict(
        {
            "prompts": torch.zeros(B, 1, dtype=torch.long),
            "responses": torch.zeros(B, T, dtype=torch.long),
            "attention_mask": torch.cat([torch.ones(B, 1), mask], 1).long(),
            "response_mask": mask.long(),
            "old_log_probs": inp["old_log_prob"].clone(),
            "advantages": adv_bt(inp).clone(),
        },
        batch_size=[B],
    )
    tu.assign_non_tensor(data, dp_size=1, batch_num_tokens=int(mask.sum()), global_batch_size=B)
    loss, _ = ppo_loss(cfg, {"log_probs": flat(lp, JUNK_LP[1]), "entropy": flat(ent, JUNK_ENT[1])}, data)
    grad, grad_ent = torch.autograd.grad(loss, (lp, ent))
    return loss.detach(), grad, grad_ent, "verl.workers.utils.losses.ppo_loss"


def run_trl_entropy(settings: dict, inp: dict) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, str]:
    """TRL's ``_compute_loss`` as :func:`run_trl`, with the per-token entropies a leaf too: (loss,
    d loss / d log_prob [B, T], d loss / d entropy [B, T], function)."""
    t = _trl_trainer(settings)
    lp, ent = _leaf(inp), _entropy_leaf(inp)
    t._get_per_token_logps_and_entropies = lambda *a, **k: (lp, ent, None)
    loss = t._compute_loss(t.model, _trl_inputs(inp))
    grad, grad_ent = torch.autograd.grad(loss, (lp, ent))
    return loss.detach(), grad, grad_ent, "trl.GRPOTrainer._compute_loss"


def run_trl_entropy_control(settings: dict, inp: dict, entropy: tuple) -> dict:
    """TRL's adaptive entropy controller (``use_adaptive_entropy``), inline in ``GRPOTrainer._compute_loss``:
    one trainer instance (:func:`_trl_trainer`), one ``_compute_loss`` call per optimizer step (one micro-batch,
    ``sync_gradients`` True), step k's forward returning the fixed log-probs and the per-token entropies
    e_k + ``ENTROPY_OFFSETS``. Records per step TRL's own state after the call (``_last_world_entropy``, the
    entropy it measured; ``entropy_coef``, the coefficient the next step uses) and the coefficient this
    step's loss applied, read from TRL's gradient: d loss / d H_t = -coef m_t / N, so coef = -sum_t d loss / d H_t."""
    t = _trl_trainer(settings)
    assert t.accelerator.sync_gradients, "every call must be an optimizer-step boundary"
    mask = inp["response_mask"]
    real = mask > 0
    offsets = torch.zeros_like(mask)
    offsets[real] = torch.tensor(ENTROPY_OFFSETS)
    out = {"measured": [], "coef": [], "applied": []}
    for e in entropy:
        lp = _leaf(inp)
        ent = torch.where(real, e + offsets, inp["entropy"]).requires_grad_(True)  # junk in the padding
        t._get_per_token_logps_and_entropies = lambda *a, _lp=lp, _ent=ent, **k: (_lp, _ent, None)
        loss = t._compute_loss(t.model, _trl_inputs(inp))
        (grad_ent,) = torch.autograd.grad(loss, ent)
        out["applied"].append(0.0 - float(grad_ent.sum()))  # 0.0 - : no -0.0 in the file
        out["measured"].append(float(t._last_world_entropy))
        out["coef"].append(float(t.entropy_coef))
    return out


def entropy_vectors(inputs) -> dict[str, dict[str, list]]:
    """The entropy cases: ``{"trl": {"entropy": [...], "entropy_control": [...]}, "verl": {"entropy": [...]}}``.
    An ``entropy`` case is a policy case (loss, ``grad``) with ``grad_entropy`` (d loss / d H [B, T]),
    ``entropy_coef`` and ``entropy_loss_agg_mode`` (how the framework aggregates H); an ``entropy_control``
    case holds TRL's measured entropy, coefficient and applied coefficient per step."""
    inp = inputs["regions"]
    real = inp["response_mask"] > 0
    out = {"trl": {"entropy": [], "entropy_control": []}, "verl": {"entropy": []}}

    def store(framework, objective, rlviz, settings, coef, agg, result):
        loss, grad, grad_ent, function = result
        assert math.isfinite(float(loss)) and float(grad[~real].abs().max()) == 0.0
        assert float(grad_ent[~real].abs().max()) == 0.0, "an entropy gradient at padding"
        assert (float(grad_ent[real].abs().max()) > 0) == (coef > 0), "the bonus acts exactly when coef > 0"
        cases = out[framework]["entropy"]
        cases.append(
            {
                "id": f"entropy/{framework}/{len(cases)}",
                "objective": objective,
                "rlviz": rlviz,
                "entropy_coef": coef,
                "entropy_loss_agg_mode": agg,
                "inputs": "regions",
                "function": function,
                "settings": settings,
                "value_form": "surrogate",
                "loss": float(loss),
                "grad": _tensor_list(grad),
                "grad_entropy": _tensor_list(grad_ent),
            }
        )

    for row in VERL_ENTROPY_CASES:
        for coef in ENTROPY_COEFS:
            settings = row["settings"] | {"entropy_coeff": coef}
            result = run_verl_ppo_loss(settings, inp)
            if coef == 0.0:  # with no bonus, ppo_loss is the policy-loss function the policy cases call
                assert abs(float(result[0]) - float(run_verl(row["settings"], inp)[0])) < 1e-12, row
            store("verl", row["objective"], row["rlviz"], settings, coef, row["settings"]["loss_agg_mode"], result)
    for row in TRL_ENTROPY_CASES:
        settings = row["settings"] | {"entropy_coef": row["coef"]}
        store(
            "trl", row["objective"], row["rlviz"], settings, row["coef"], "token-mean", run_trl_entropy(settings, inp)
        )
    for row in TRL_CONTROL_CASES:
        settings = {"use_adaptive_entropy": True} | row["settings"]
        got = run_trl_entropy_control(settings, inp, row["entropy"])
        args = _trl_trainer(settings).args  # TRL's defaults for what the row leaves out
        # TRL measures e_k (to rounding); a step at the target measures it exactly, so its <= acts there
        assert max(abs(m - e) for m, e in zip(got["measured"], row["entropy"])) < 1e-12, row["name"]
        at = [e == args.entropy_target for e in row["entropy"]]
        assert any(at) and all(m == e for m, e, a in zip(got["measured"], row["entropy"], at) if a), row["name"]
        assert got["applied"][0] == 0.0, "TRL applies no bonus before it has measured an entropy"
        out["trl"]["entropy_control"].append(
            {
                "id": f"entropy_control/trl/{row['name']}",
                "function": "trl.GRPOTrainer._compute_loss (use_adaptive_entropy)",
                "settings": settings,
                "rlviz": {
                    "target": args.entropy_target,
                    "delta": args.entropy_coef_delta,
                    "coef0": args.entropy_coef,
                    "coef_min": args.entropy_coef_min,
                    "coef_max": args.entropy_coef_max,
                },
                "entropy": got["measured"],
                "coef": got["coef"],
                "applied": got["applied"],
            }
        )
    return out


def _dump(doc: dict) -> str:
    """JSON with one case per line (small, and a regenerated file diffs case by case)."""
    lines = ["{"]
    items = list(doc.items())
    for k, (key, value) in enumerate(items):
        end = "," if k < len(items) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            body = ",\n".join("  " + json.dumps(v, ensure_ascii=False) for v in value)
            lines.append(f" {json.dumps(key)}: [\n{body}\n ]{end}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{end}")
    return "\n".join(lines + ["}"]) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    start = time.perf_counter()
    inputs = build_inputs()
    policy = policy_vectors(inputs)
    kl, kl_ref = kl_vectors(inputs)
    adv, adv_inputs = adv_vectors()
    corr_inputs = build_correction_inputs()
    corrections = correction_vectors(corr_inputs)
    corrections["verl"] += preset_vectors(corr_inputs)  # after the verl corrections: the file only gains lines
    entropy = entropy_vectors(inputs)
    args.out.mkdir(parents=True, exist_ok=True)
    common = {
        "generated": datetime.date.today().isoformat(),
        "generator": "tools/parity/generate.py",
        "torch": _version("torch"),
        "dtype": "float64",
    }
    (args.out / "inputs.json").write_text(
        json.dumps(
            {
                "about": "fixed inputs of the parity cases (shared/reference/algorithms.md §15); [B, T] lists, "
                "junk in the padding; ref_log_prob_kl: the KL cases' reference (one token at x = -3)",
                "sets": {n: {k: _tensor_list(v) for k, v in s.items()} for n, s in inputs.items()},
                "ref_log_prob_kl": _tensor_list(kl_ref),
                "advantage_inputs": adv_inputs,
                "correction": {k: _tensor_list(v) for k, v in corr_inputs.items()},
            },
            indent=None,
        )
        + "\n"
    )
    for framework, package in (("trl", "trl"), ("verl", "verl")):
        # corrections before policy: a regenerated file only gains lines
        doc = common | {"framework": framework, "version": _version(package), "corrections": corrections[framework]}
        doc["policy"] = policy[framework]
        if framework == "verl":
            doc |= {"kl": kl, "advantages": adv}
        doc |= entropy[framework]  # last: the earlier lines stay as they were
        (args.out / f"{framework}.json").write_text(_dump(doc))
    n = sum(len(v) for v in policy.values()) + len(kl) + len(adv) + sum(len(v) for v in corrections.values())
    n += sum(len(v) for by_kind in entropy.values() for v in by_kind.values())
    print(f"{n} cases written to {args.out} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
