"""Every policy loss in one registry: the per-token surrogate of each algorithm.

Legend: B responses, T padded response width. ``l = log pi - log pi_old`` (token log-ratio),
``r = exp(l)`` (token importance ratio), ``s_i = exp(mean_t l_{i,t})`` (GSPO's sequence ratio),
``A`` advantages broadcast to [B, T]. Every loss is ``-objective`` (to minimise); the per-token
loss is aggregated by ``loss_agg_mode`` (see :mod:`rlviz.core.aggregation`), a separate axis from
the per-token surrogate, as in TRL (``loss_type``) and verl (``loss_agg_mode``).

The one entry point is :func:`policy_loss`. Curves, gradient weights and the training step all
call it, so what a page shows is what trains the model. Sources: ``shared/reference/algorithms.md``
and the papers cited in each spec.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from rlviz.core.aggregation import LOSS_AGG_MODES, aggregate, masked_mean, token_weights
from rlviz.core.estimators import ESTIMATORS
from rlviz.core.kl import KL_ESTIMATORS, kl_estimate
from rlviz.core.validate import check_flag, check_tensor, compute_dtype

__all__ = [
    "ALGORITHMS",
    "AlgorithmSpec",
    "Example",
    "FrameworkNote",
    "PolicyLossOutput",
    "Setting",
    "TOKEN_STATES",
    "MOE_ONLY_SETTINGS",
    "OWN_ESTIMATOR",
    "TRAINER_SETTINGS",
    "TRUST_REGION_KINDS",
    "get_algorithm",
    "gradient_weights",
    "policy_loss",
    "resolve_settings",
    "token_states",
    "trust_band",
]

# What the trust region does to one token: the one vocabulary of every page, hover and table.
#   active   the gradient flows unchanged
#   clipped  a hard clip acted: the token's gradient is exactly zero (PPO clip, dual clip, GSPO, GMPO)
#   capped   the weight was bounded but the gradient is kept (CISPO's clipped IS weight)
#   gated    a soft gate scales the gradient down, never to zero (SAPO)
#   masked   the token is out of the loss altogether (padding, overlong filtering)
TOKEN_STATES: tuple[str, ...] = ("active", "clipped", "capped", "gated", "masked")
# The kinds of trust region an objective can have (``AlgorithmSpec.trust_region``).
TRUST_REGION_KINDS: tuple[str, ...] = ("clipped", "capped", "gated")
GATE_ACTIVE_BELOW = 0.99  # a soft gate weight below this counts as "gated" (1 at r = 1)

# |log r| clamp of a token's log-ratio before exp() (verl's token-level losses, core_algos.py); it never
# reaches a sequence ratio or the gradient path of a detached weight (see _sequence_log_ratio, _grad_path)
LOG_RATIO_CLAMP = 20.0
SEQ_LOG_RATIO_MAX = 10.0  # log s <= 10 (verl, SkyRL GSPO), on the sequence log-ratio


# ----------------------------------------------------------------------------------------------
# Specs
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    """One setting of an algorithm, with its default and where the default comes from.

    Attributes:
        name: rlviz parameter name (an override of :func:`policy_loss` or a training setting).
        default: the paper value (or the framework default where the paper gives none).
        source: where the default comes from (paper, arXiv id, section / equation).
        trl: the TRL ``GRPOConfig`` name of this setting, or ``None`` if TRL has none.
        verl: the verl config name, or ``None``.
        help: one line in each language, ``{"zh": ..., "en": ...}``.
        surrogate: True for a setting that shapes the per-token surrogate (a clip bound, a gate
            temperature): the ratio-curves page gives it a slider in the algorithm's panel.
        range: ``(low, high, step)`` of that slider, in the setting's own units.
        choices: a fixed set of values instead of a range (a select slider), e.g. GSPO's ε.
        optional: ``None`` is a valid value, meaning "off" (the dual clip's c, Dr.GRPO's
            ``norm_length``), also where the default is a number.
    """

    name: str
    default: Any
    source: str
    trl: str | None = None
    verl: str | None = None
    help: dict[str, str] = field(default_factory=dict)
    surrogate: bool = False
    optional: bool = False
    range: tuple[float, float, float] | None = None
    choices: tuple[Any, ...] | None = None


# ``adv_estimator``'s default: the objective's own ``advantage`` / ``scale_rewards`` settings decide.
OWN_ESTIMATOR = "own"
# Trainer settings that only a mixture-of-experts model can use (a page for a dense model leaves them out).
MOE_ONLY_SETTINGS: frozenset[str] = frozenset({"routing_replay"})

# Settings of the trainer that every objective accepts, whatever its paper says (pages that show
# one objective's own settings list ``train_settings``; these belong to the system, not the paper).
TRAINER_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "routing_replay",
        "none",
        "verl actor_rollout_ref.actor.router_replay.mode; R2: arXiv 2512.01374, R3: arXiv 2510.11370",
        trl=None,
        verl="actor_rollout_ref.actor.router_replay.mode",
        help={
            "zh": "路由回放（仅 MoE）：none 关闭；R2 重放训练端为旧策略记录的专家；R3 重放采样端用过的专家",
            "en": "routing replay (MoE only): none; R2 replays the experts the trainer recorded for the "
            "old policy; R3 the experts the sampler used",
        },
        choices=("none", "R2", "R3"),
    ),
    Setting(
        "adv_estimator",
        OWN_ESTIMATOR,
        "rlviz.core.estimators.ESTIMATORS (sources there); own: the objective's advantage and scale_rewards",
        # remarks only (the config export leaves it unmapped): each estimator's own TRL / verl names
        # are in rlviz.core.estimators.ESTIMATORS (TRL scale_rewards, verl algorithm.adv_estimator, ...)
        trl="(scale_rewards / multi_objective_aggregation: see the estimator)",
        verl="(algorithm.adv_estimator: see the estimator)",
        help={
            "zh": "优势估计器：own 用目标自己的 advantage / scale_rewards 设置；其余取自优势估计器注册表"
            "（组内相对优势，GAE 时不可用）",
            "en": "advantage estimator: own = the objective's advantage / scale_rewards settings; the others "
            "come from the estimator registry (group-relative path only, not with GAE)",
        },
        choices=(OWN_ESTIMATOR, *ESTIMATORS),
    ),
    Setting(
        "top_entropy_quantile",
        1.0,
        "arXiv 2506.01939 (Beyond the 80/20 rule) §4: rho = 0.2 learns from the top 20% of tokens by entropy; "
        "TRL GRPOConfig.top_entropy_quantile (default 1.0 = every token); rlviz.core.masks.high_entropy_mask",
        trl="top_entropy_quantile",
        verl=None,
        help={
            "zh": "高熵 token 掩码：只让熵最高的这一比例的 token 参与策略损失（论文用 0.2；1 = 全部 token）",
            "en": "high-entropy token mask: only this share of the batch's tokens, highest entropy first, "
            "enter the policy loss (the paper uses 0.2; 1 = every token)",
        },
        range=(0.05, 1.0, 0.05),
    ),
    Setting(
        "off_policy_mask_threshold",
        None,
        "DeepSeek-V3.2 arXiv 2512.02556 §3.1 (off-policy sequence masking); TRL GRPOConfig.off_policy_mask_threshold "
        "(default None = off); rlviz.core.masks.off_policy_sequence_mask",
        trl="off_policy_mask_threshold",
        verl=None,
        help={
            "zh": "离策略序列掩码 δ（DeepSeek-V3.2）：优势为负且每 token 平均 KL(π_采样‖π_θ) 超过 δ 的回答不参与策略损失；"
            "留空 = 关闭",
            "en": "off-policy sequence mask δ (DeepSeek-V3.2): a response with a negative advantage whose mean "
            "per-token KL(π_sample‖π_θ) exceeds δ leaves the policy loss; empty = off",
        },
        optional=True,
        range=(0.0, 1.0, 0.01),
    ),
)


@dataclass(frozen=True)
class Example:
    """A named setting of an algorithm that the explorer pages draw as a curve of its own, e.g.
    PPO with the dual clip switched on. Its key is ``<algorithm>_<suffix>``; ``overrides`` are
    :func:`policy_loss` overrides; ``title`` is the same in both languages."""

    suffix: str
    title: str
    overrides: dict[str, Any]


@dataclass(frozen=True)
class FrameworkNote:
    """A documented difference between a framework's implementation and rlviz's, as data (the
    config export, :mod:`rlviz.teach.export`, shows the notes that apply to the settings at hand).

    Attributes:
        framework: ``"trl"`` or ``"verl"``.
        text: ``{"en": ..., "zh": ...}``; its ``{placeholders}`` are filled with the settings and
            the quantities the export computes from them (``rlviz.teach.export.export_fields``).
        when: ``fields -> bool``, whether the note applies to these settings; ``None``: always.
        unmapped: settings the framework cannot express when the note applies: left out of its
            config and listed as having no equivalent.
        omit: settings left out of the framework's config when the note applies, because the note
            says what stands for them there (a reward function instead of an argument).
    """

    framework: str
    text: dict[str, str]
    when: Callable[[Mapping[str, Any]], bool] | None = field(default=None, repr=False)
    unmapped: tuple[str, ...] = ()
    omit: tuple[str, ...] = ()

    def __post_init__(self):
        if self.framework not in ("trl", "verl"):
            raise ValueError(f"framework: must be 'trl' or 'verl', got {self.framework!r}")


@dataclass(frozen=True)
class AlgorithmSpec:
    """One algorithm: its loss, its settings with sourced defaults, and its text for the pages.

    Attributes:
        name: registry key (``ppo``, ``grpo``, ...).
        title: display name (``"GRPO"``).
        paper: short citation; ``arxiv``: arXiv id; ``equation``: where the objective is.
        parent: the algorithm it refines (for the home map), or ``None``.
        summary: one line per language; ``changes``: what it changed relative to ``parent``.
        latex: the per-token objective in LaTeX (for ``st.latex``).
        ratio_level: ``"token"`` or ``"sequence"`` (which ratio the clip or gate sees).
        loss_settings: overrides accepted by :func:`policy_loss` with their defaults.
        train_settings: how the trainer builds advantages and rewards for this algorithm
            (``advantage``, ``beta``, ``kl_estimator``, overlong shaping, dynamic sampling ...).
        surrogate: the per-token surrogate ``(log_ratio, adv, mask, params) -> (per_token_loss,
            ratio, clipped_low, clipped_high, clipped_dual, gate_weight)``, all [B, T].
        trust_region: which kinds of trust region it has, a subset of ``TRUST_REGION_KINDS``
            (``{"clipped"}`` for a hard clip, ``{"capped"}`` for CISPO, ``{"gated"}`` for SAPO).
            Pages read the token states from it (:func:`token_states`), never from the name.
        clip_space: where ``epsilon_low`` / ``epsilon_high`` bound the ratio: ``"ratio"``
            (``[1 - ε_low, 1 + ε_high]``), ``"log"`` (``[e^-ε_low, e^ε_high]``, GMPO) or ``None``
            (no band, e.g. a soft gate). See :func:`trust_band`.
        style: ``{"color": "#rrggbb", "dash": "solid"}`` for every chart, or ``None``: then the
            plots assign the first unused colour-blind-safe colour (and dash) in registry order.
        examples: named settings drawn as curves of their own on the explorer pages.
        trl: the TRL ``GRPOConfig`` arguments that select this objective in ``trl.GRPOTrainer``
            (``{}``: its default clipped surrogate, the aggregation then set through
            ``loss_agg_mode``'s ``loss_type``), or ``None`` where TRL's main trainer has no
            implementation (a note says where it is). An argument here overrides the one a setting
            maps to; a value may be a function of the export's fields (the framework's value
            computed from the settings) or ``None`` (left out: the trainer does not read it here).
        verl: the verl Hydra overrides that select it (``...policy_loss.loss_mode``), the same way;
            ``None`` where verl has none.
        framework_notes: this objective's documented differences from TRL and verl
            (:class:`FrameworkNote`); those of a setting every objective shares live with the export.
        acts_on_policy: its token selection can act at r = 1, on fresh samples (Clip-Cov detaches
            tokens by their covariance, not by their ratio); ``False`` for every ratio-based clip.
        batch_coupled: a token's loss depends on the other tokens of the batch (a batch mean or a
            top-k: Clip-Cov, KL-Cov, M2PO), so a curve of one token evaluates each point alone.
        monotone: the per-token objective never decreases as r moves the way A asks and its gradient
            never points against A (every clip, cap and gate); ``False`` where a mask drops a token's
            term to 0 past the trust region (DPPO, M2PO), a penalty pulls it back (KL-Cov), a scale
            β ≠ 1 makes the clipped value jump (CE-GPPO) or the
            shown value is a weight that rises then falls (VESPO's gamma φ(w) A).
        detached_weight: the loss multiplies grad log pi by a stop-gradient weight everywhere
            (VESPO's φ, DPPO's truncated IS weight): its value is not a surrogate whose derivative is the
            gradient, so only autograd defines the gradient (CISPO does this at its capped tokens).
        reads_probability: the loss reads pi and pi_old themselves, not only their ratio (DPPO's
            divergences between pi and pi_old): a curve against the ratio depends on pi_old and ends
            at r = 1/pi_old, where pi = 1. ``False`` for every ratio-only objective.
        reads_entropy: its surrogate reads each token's policy entropy (``policy_loss(entropy=)``;
            ASPO's wider band for a response's top-entropy tokens): the trainer passes it.
        follows_paper: where rlviz follows the paper's description and not the authors' released
            code, what the code does instead, ``{"en": ..., "zh": ...}``: the home card says so.
            ``None`` where rlviz follows the code, or the two agree.
    """

    name: str
    title: str
    paper: str
    arxiv: str
    equation: str
    parent: str | None
    summary: dict[str, str]
    changes: dict[str, str]
    latex: str
    ratio_level: str
    loss_settings: tuple[Setting, ...]
    train_settings: tuple[Setting, ...]
    surrogate: Callable = field(repr=False, default=None)
    trust_region: frozenset[str] = frozenset({"clipped"})
    clip_space: str | None = "ratio"
    style: dict[str, str] | None = None
    examples: tuple[Example, ...] = ()
    trl: dict[str, Any] | None = None
    verl: dict[str, Any] | None = None
    framework_notes: tuple[FrameworkNote, ...] = ()
    acts_on_policy: bool = False
    batch_coupled: bool = False
    monotone: bool = True
    detached_weight: bool = False
    reads_probability: bool = False
    reads_entropy: bool = False
    follows_paper: dict[str, str] | None = None

    def __post_init__(self):
        unknown = set(self.trust_region) - set(TRUST_REGION_KINDS)
        if unknown:
            raise ValueError(f"trust_region: {sorted(unknown)} not among {', '.join(TRUST_REGION_KINDS)}")
        if self.clip_space not in ("ratio", "log", None):
            raise ValueError(f"clip_space: must be 'ratio', 'log' or None, got {self.clip_space!r}")
        if not callable(self.surrogate):
            raise ValueError(f"surrogate: {self.name} needs a per-token surrogate function")
        if self.follows_paper is not None and not all(self.follows_paper.get(k) for k in ("en", "zh")):
            raise ValueError(f"follows_paper: {self.name} needs the note in both en and zh")

    @property
    def surrogate_settings(self) -> tuple[Setting, ...]:
        """The loss settings that shape the per-token surrogate (a slider each on the curves page)."""
        return tuple(s for s in self.loss_settings if s.surrogate)

    @property
    def defaults(self) -> dict[str, Any]:
        """Loss overrides with their default values, ``{name: default}``."""
        return {s.name: s.default for s in self.loss_settings}

    @property
    def train_defaults(self) -> dict[str, Any]:
        """Training settings with their default values, ``{name: default}``: the algorithm's own
        and the trainer's settings every objective accepts (:data:`TRAINER_SETTINGS`)."""
        return {s.name: s.default for s in self.train_settings + TRAINER_SETTINGS}

    def setting(self, name: str) -> Setting:
        """The :class:`Setting` called ``name`` (loss, training, or one of :data:`TRAINER_SETTINGS`).
        Raises ``ValueError``."""
        for s in self.loss_settings + self.train_settings + TRAINER_SETTINGS:
            if s.name == name:
                return s
        raise ValueError(f"{name}: not a setting of {self.name}")


@dataclass
class PolicyLossOutput:
    """What :func:`policy_loss` returns.

    Attributes:
        loss: scalar to minimise (= minus the objective, plus ``beta`` x KL if asked).
        per_token_loss: [B, T] surrogate (+ KL) per token before aggregation, 0 at padding.
        token_weight: [B, T] aggregation weight of each token (``loss = sum(w * per_token_loss)``).
        ratio: [B, T] the ratio the algorithm actually uses (token r, or the sequence ratio
            broadcast along the row for GSPO / GMPO), detached, 1 at padding.
        clipped: [B, T] bool, True where the clip acted (zero gradient for hard clips; for CISPO
            the weight was capped but the gradient is not zero; always False for SAPO).
        gate_weight: [B, T] SAPO's soft gate weight f'(r) = 4 sigma (1 - sigma), else ``None``.
        dual: [B, T] bool, where the dual clip acted (part of ``clipped``).
        clip_fraction: fraction of real tokens with ``clipped``; ``clip_fraction_low`` /
            ``clip_fraction_high``: A<0 below the lower bound / A>0 above the upper bound
            (TRL ``clip_ratio/low_mean`` and ``high_mean``); ``clip_fraction_dual``: A<0 with r > c.
        kl: mean per-token KL estimate to the reference over real tokens, ``None`` without one.
    """

    loss: torch.Tensor
    per_token_loss: torch.Tensor
    token_weight: torch.Tensor
    ratio: torch.Tensor
    clipped: torch.Tensor
    gate_weight: torch.Tensor | None
    clip_fraction: float
    clip_fraction_low: float
    clip_fraction_high: float
    clip_fraction_dual: float
    kl: float | None
    dual: torch.Tensor | None = None


# ----------------------------------------------------------------------------------------------
# Per-token surrogates. Each takes (log_ratio l [B,T], adv A [B,T], mask m [B,T] float, params,
# **ctx) and returns (per_token_loss, ratio, clipped_low, clipped_high, clipped_dual, gate_weight).
# Inputs are already finite (padding zeroed) and l is clamped to +-20: the guard of a token ratio's
# exp() (verl core_algos.py clamps there for its token-level losses). ctx: ``raw_log_ratio``, the same
# log-ratio unclamped (differentiable): a sequence ratio is formed from it (_sequence_log_ratio, GMPO)
# and a detached weight's gradient flows through it (_grad_path), as verl does; ``log_prob`` (log pi,
# differentiable) and ``old_log_prob`` (log pi_old) [B,T], for the few objectives that read the
# probabilities themselves (DPPO's divergences, Clip-Cov / KL-Cov's covariance); a caller with only
# ratios (the formula page's probes) leaves them out: those objectives then take pi_old = 1/2, and the
# raw log-ratio is the one given.
# ----------------------------------------------------------------------------------------------


def _clip_surrogate(ratio, adv, eps_low, eps_high, dual_clip_c=None):
    """PPO clip (PPO arXiv 1707.06347 eq. 7) with clip-higher bounds and optional dual clip.

    per-token loss = max(-A r, -A clip(r, 1-eps_low, 1+eps_high)); with dual clip (Ye et al.
    2020, arXiv 1912.09729) and A<0: min(that, -A c). At r = c exactly the two branches of the min
    tie and autograd splits the gradient between them (half of the unclipped one), as verl's
    ``torch.min(pg_losses3, clip_pg_losses1)`` does.
    """
    unclipped = -adv * ratio  # (B, T)
    clipped_branch = -adv * ratio.clamp(1.0 - eps_low, 1.0 + eps_high)  # (B, T)
    loss = torch.maximum(unclipped, clipped_branch)
    high = (adv > 0) & (ratio > 1.0 + eps_high)
    low = (adv < 0) & (ratio < 1.0 - eps_low)
    dual = torch.zeros_like(high)
    if dual_clip_c is not None:
        loss = torch.where(adv < 0, torch.minimum(loss, -adv * dual_clip_c), loss)
        dual = (adv < 0) & (ratio > dual_clip_c)
    return loss, low, high, dual


def _raw(log_ratio, ctx):
    """The unclamped log-ratio [B, T] (``ctx["raw_log_ratio"]``), or ``log_ratio`` itself for a caller
    that gives only ratios."""
    raw = ctx.get("raw_log_ratio")
    return log_ratio if raw is None else raw


def _grad_path(log_ratio, ctx):
    """``pi / sg[pi]`` per token [B, T]: value 1, derivative 1 per unit of grad log pi at every token,
    past the log-ratio clamp too. A detached weight times it is verl's ``-sg[w] A log pi`` in gradient
    (core_algos.py compute_policy_loss_cispo, compute_policy_loss_dppo_tv: the weight is formed from
    the clamped ratio, the gradient flows through log pi itself), with a readable value ``-A w``."""
    raw = _raw(log_ratio, ctx)
    return torch.exp(raw - raw.detach())


def _ppo_like(log_ratio, adv, mask, p, **_):
    ratio = torch.exp(log_ratio)
    loss, low, high, dual = _clip_surrogate(ratio, adv, p["epsilon_low"], p["epsilon_high"], p.get("dual_clip_c"))
    return loss, ratio, low, high, dual, None


def _sequence_log_ratio(log_ratio, mask, ctx):
    """log s_i = mean over real tokens of the *unclamped* l (GSPO arXiv 2507.18071 eq. 7), [B]. Not
    clamped here: verl (core_algos.py compute_policy_loss_gspo) and TRL (grpo_trainer.py,
    importance_sampling_level="sequence") average the raw log-ratios; the clamp acts on the sequence
    log-ratio (log s <= SEQ_LOG_RATIO_MAX), in :func:`_gspo` / :func:`_gspo_token`."""
    return masked_mean(_raw(log_ratio, ctx), mask, dim=-1)


def _gspo(log_ratio, adv, mask, p, **ctx):
    # GSPO eq. 5: one ratio s_i per response, clipped as a whole, every token shares it; log s <= 10
    # (verl), with no gradient past it.
    log_s = _sequence_log_ratio(log_ratio, mask, ctx).clamp(max=SEQ_LOG_RATIO_MAX)  # (B,)
    ratio = torch.exp(log_s)[:, None].expand_as(log_ratio)  # (B, T)
    loss, low, high, dual = _clip_surrogate(ratio, adv, p["epsilon_low"], p["epsilon_high"])
    return loss, ratio, low, high, dual, None


def _gspo_token(log_ratio, adv, mask, p, **ctx):
    # GSPO-token (GSPO §4.3): s_{i,t} = sg[s_i] * pi / sg[pi]; value s_i, d/dl_t = s_i. As verl
    # (core_algos.py compute_policy_loss_gspo): log s_{i,t} = log pi - sg[log pi] + sg[log s_i], then
    # clamped at 10, so past it no token of the response has a gradient (GSPO's own clamp, the same).
    raw = _raw(log_ratio, ctx)
    log_s = _sequence_log_ratio(log_ratio, mask, ctx).detach()[:, None]  # (B, 1)
    ratio = torch.exp((raw - raw.detach() + log_s).clamp(max=SEQ_LOG_RATIO_MAX))  # (B, T)
    loss, low, high, dual = _clip_surrogate(ratio, adv, p["epsilon_low"], p["epsilon_high"])
    return loss, ratio, low, high, dual, None


def _gmpo(log_ratio, adv, mask, p, **ctx):
    # GMPO (arXiv 2507.20673): clip each token's log-ratio one-sidedly by the sign of A, then
    # take the geometric mean: rho_i = exp(mean_t l~_{i,t}); loss_i = -A_i rho_i. The tokens' own
    # log-ratios, unclamped (verl core_algos.py compute_policy_loss_geo_mean has no token clamp); the
    # guard of exp() acts on the sequence log-ratio, |mean l~| <= 20.
    raw = _raw(log_ratio, ctx)
    adv_seq = masked_mean(adv, mask, dim=-1)[:, None]  # (B, 1) sequence advantage
    clamped = raw.clamp(-p["epsilon_low"], p["epsilon_high"])
    tilde = torch.where(adv_seq > 0, torch.minimum(raw, clamped), torch.maximum(raw, clamped))
    log_rho = masked_mean(tilde, mask, dim=-1).clamp(-LOG_RATIO_CLAMP, LOG_RATIO_CLAMP)
    rho = torch.exp(log_rho)[:, None]  # (B, 1)
    loss = (-adv_seq * rho).expand_as(log_ratio)  # (B, T): the sequence term on every token
    high = (adv_seq > 0) & (log_ratio > p["epsilon_high"])
    low = (adv_seq < 0) & (log_ratio < -p["epsilon_low"])
    return loss, rho.expand_as(log_ratio), low, high, torch.zeros_like(high), None


def _sapo(log_ratio, adv, mask, p, **_):
    # SAPO (arXiv 2511.20347): soft gate f(r) = (4/tau) sigmoid(tau (r - 1)), tau by sign of A.
    ratio = torch.exp(log_ratio)
    tau = torch.where(adv > 0, torch.full_like(ratio, p["tau_pos"]), torch.full_like(ratio, p["tau_neg"]))
    x = tau * (ratio - 1.0)  # (B, T)
    # sigma(x) for x > 0 written as 1 - sigma(-x): the same value, but its autograd derivative
    # sigma(-x)(1 - sigma(-x)) stays > 0 far out (sigmoid's own backward, y(1 - y), is exactly 0 once
    # y rounds to 1, at x ~ 37 in float64), so the gate's gradient never becomes an exact 0 early.
    sig = torch.where(x > 0, 1.0 - torch.sigmoid(-x), torch.sigmoid(x))
    loss = -adv * (4.0 / tau) * sig
    gate = (4.0 * torch.sigmoid(x) * torch.sigmoid(-x)).detach()  # f'(r): 1 at r = 1, smooth decay, never 0
    none = torch.zeros_like(ratio, dtype=torch.bool)
    return loss, ratio, none, none, none, gate


def _cispo(log_ratio, adv, mask, p, **ctx):
    # CISPO (MiniMax-M1, arXiv 2506.13585 §3.1): gradient -sg[clip(r)] A grad log pi.
    # Written as -A sg[r^] pi/sg[pi]: value -A r^ (readable), gradient -A r^ per token, the same
    # gradient as verl/TRL's -sg[r^] A log pi (whose value depends on log pi itself). r^ from the
    # clamped ratio, the gradient through log pi, past the clamp too (verl compute_policy_loss_cispo).
    ratio = torch.exp(log_ratio)
    capped = ratio.clamp(1.0 - p["epsilon_low"], 1.0 + p["epsilon_high"]).detach()
    loss = -adv * capped * _grad_path(log_ratio, ctx)
    high = ratio > 1.0 + p["epsilon_high"]
    low = ratio < 1.0 - p["epsilon_low"]
    return loss, ratio, low, high, torch.zeros_like(high), None


def _probs(log_ratio, ctx):
    """(log pi, log pi_old) [B, T] from the context, or pi_old = 1/2 when the caller gave only ratios."""
    lp, old = ctx.get("log_prob"), ctx.get("old_log_prob")
    if lp is None or old is None:
        old = torch.full_like(log_ratio, -math.log(2.0))
        return old + log_ratio, old
    return lp, old


def _preserving_clip(log_ratio, adv, eps_low, eps_high, scale_low=1.0, scale_high=1.0, ctx=None):
    """PPO's clip whose clipped tokens keep a bounded gradient (GPPO arXiv 2508.07629 §2.3; CE-GPPO
    arXiv 2509.20712 §3, official code ``compute_gppo_loss_general_beta``).

    Where PPO's clip acts (A > 0, r > 1 + ε_high or A < 0, r < 1 - ε_low) the term is
    ``-A β (1 ± ε) r / sg[r]``: the clipped value times β, gradient ``-A β (1 ± ε)`` per unit of
    grad log pi (PPO: 0); elsewhere ``-A r``. β_low (A < 0) and β_high (A > 0) are 1 in GPPO."""
    ratio = torch.exp(log_ratio)
    high = (adv > 0) & (ratio > 1.0 + eps_high)
    low = (adv < 0) & (ratio < 1.0 - eps_low)
    keep = _grad_path(log_ratio, ctx or {})  # value 1, d/dl = 1, past the clamp too
    loss = torch.where(
        high,
        -adv * scale_high * (1.0 + eps_high) * keep,
        torch.where(low, -adv * scale_low * (1.0 - eps_low) * keep, -adv * ratio),
    )
    return loss, ratio, low, high


def _gppo(log_ratio, adv, mask, p, **ctx):
    # GPPO (Klear-Reasoner, arXiv 2508.07629): gradient-preserving clip, beta = 1 on both sides.
    loss, ratio, low, high = _preserving_clip(log_ratio, adv, p["epsilon_low"], p["epsilon_high"], ctx=ctx)
    return loss, ratio, low, high, torch.zeros_like(high), None


def _ce_gppo(log_ratio, adv, mask, p, **ctx):
    # CE-GPPO (arXiv 2509.20712): the clipped tokens' gradients scaled by beta_1 (A < 0) and beta_2 (A > 0).
    loss, ratio, low, high = _preserving_clip(
        log_ratio, adv, p["epsilon_low"], p["epsilon_high"], p["gppo_beta1"], p["gppo_beta2"], ctx=ctx
    )
    return loss, ratio, low, high, torch.zeros_like(high), None


def _dppo(divergence):
    """DPPO (arXiv 2602.04879; verl ``dppo_tv`` / ``dppo_kl``, core_algos.py): no ratio clip; a token
    whose policy moved past the trust region in the direction its advantage pushes is masked (zero
    gradient); the others get the truncated-IS policy gradient ``-A sg[min(r, c)] grad log pi``.

    ``tv``: binary total variation, moved up ``pi - pi_old > δ_high`` (A > 0) or down ``pi - pi_old <
    -δ_low`` (A < 0). ``kl``: the binary KL ``pi_old log(pi_old/pi) + (1 - pi_old) log((1 - pi_old +
    1e-8)/(1 - pi + 1e-8))`` above δ_high with ``pi > pi_old`` (A > 0), above δ_low with ``pi <
    pi_old`` (A < 0). δ_low, δ_high are ``epsilon_low`` / ``epsilon_high`` (verl reads them from
    clip_ratio_low / clip_ratio_high); c is ``tis_cap`` (verl clip_ratio_c). Value ``-A min(r, c)``
    (the readable one), gradient verl's."""

    def surrogate(log_ratio, adv, mask, p, **ctx):
        lp, old = _probs(log_ratio, ctx)
        prob, old_prob = torch.exp(lp.detach()), torch.exp(old.detach())
        if divergence == "tv":
            up = (prob - old_prob) > p["epsilon_high"]
            down = (prob - old_prob) < -p["epsilon_low"]
        else:
            kl = old_prob * (old - lp.detach()) + (1.0 - old_prob) * torch.log(
                (1.0 - old_prob + 1e-8) / (1.0 - prob + 1e-8)
            )
            up = (kl > p["epsilon_high"]) & (prob > old_prob)
            down = (kl > p["epsilon_low"]) & (prob < old_prob)
        high = (adv > 0) & up
        low = (adv <= 0) & down  # verl: the A > 0 test picks the side, A = 0 goes with A < 0
        ratio = torch.exp(log_ratio)
        weight = ratio.clamp(max=p["tis_cap"]).detach()  # from the clamped ratio, as verl's truncated_ratio
        loss = -adv * weight * _grad_path(log_ratio, ctx)
        loss = torch.where(low | high, torch.zeros_like(loss), loss)
        return loss, ratio, low, high, torch.zeros_like(high), None

    return surrogate


def _covariance(adv, lp, mask, alone=False):
    """Each token's centred covariance term (A - mean A)(log pi - mean log pi), the means over the
    batch's real tokens (per response when ``alone``) (Clip-Cov / KL-Cov, arXiv 2505.22617 eq. 10;
    verl clip_cov / kl_cov). [B, T]."""
    real = mask > 0
    if alone:
        return (adv - masked_mean(adv, mask, dim=-1)[:, None]) * (
            lp.detach() - masked_mean(lp.detach(), mask, dim=-1)[:, None]
        )
    a_bar = adv[real].mean() if bool(real.any()) else adv.new_tensor(0.0)
    lp_bar = lp.detach()[real].mean() if bool(real.any()) else adv.new_tensor(0.0)
    return (adv - a_bar) * (lp.detach() - lp_bar)


def _rank_in_row(values, descending):
    """Each entry's 0-based rank within its row (a stable sort: ties keep their order). [B, T]."""
    order = torch.sort(values, dim=-1, descending=descending, stable=True).indices
    ranks = torch.empty_like(order)
    ranks.scatter_(-1, order, torch.arange(values.shape[-1], device=values.device).expand_as(order))
    return ranks


def _clip_cov(log_ratio, adv, mask, p, **ctx):
    # Clip-Cov (arXiv 2505.22617 §4; verl compute_policy_loss_clip_cov): PPO's clip, and a few tokens
    # whose covariance lies in (lb, ub) and that the clip left alone lose their gradient too: at most
    # max(1, int(ratio N)) of them, drawn at random when there are more (verl: the global RNG; here
    # a generator seeded at 0, so a loss is a function of its inputs).
    lp, _ = _probs(log_ratio, ctx)
    alone = bool(ctx.get("alone"))
    ratio = torch.exp(log_ratio)
    loss, low, high, _ = _clip_surrogate(ratio, adv, p["epsilon_low"], p["epsilon_high"])
    real = mask > 0
    cov = _covariance(adv, lp, mask, alone)
    clipped_by_ppo = (-adv * ratio.clamp(1.0 - p["epsilon_low"], 1.0 + p["epsilon_high"]) > -adv * ratio) & real
    candidates = (cov > p["clip_cov_lb"]) & (cov < p["clip_cov_ub"]) & real & ~clipped_by_ppo
    groups = [(i, i + 1) for i in range(len(real))] if alone else [(0, len(real))]  # batches: rows, or all
    detached = candidates.clone()
    for a, b in groups:
        idx = torch.nonzero(candidates[a:b])
        limit = max(int(p["clip_cov_ratio"] * int(real[a:b].sum())), 1)
        if len(idx) > limit:  # more candidates than the limit: a seeded random subset (rare in a curve)
            keep = idx[torch.randperm(len(idx), generator=torch.Generator().manual_seed(0))[:limit].to(idx.device)]
            detached[a:b] = False
            detached[a + keep[:, 0], keep[:, 1]] = True
    loss = torch.where(detached, torch.zeros_like(loss), loss)
    return loss, ratio, low, high, detached, None


def _kl_cov(log_ratio, adv, mask, p, **ctx):
    # KL-Cov (arXiv 2505.22617 §4; verl compute_policy_loss_kl_cov): no clip, -A r for every token;
    # the max(1, int(ratio N)) tokens of largest covariance also get coef |log r| (a KL-like pull).
    lp, _ = _probs(log_ratio, ctx)
    ratio = torch.exp(log_ratio)
    loss = -adv * ratio
    real = mask > 0
    if ctx.get("alone"):  # each response its own batch: its own top max(1, int(n ratio)) tokens
        cov = _covariance(adv, lp, mask, alone=True).masked_fill(~real, -math.inf)
        k = (real.sum(-1) * p["kl_cov_ratio"]).floor().clamp(min=1)[:, None]  # (B, 1)
        top = (_rank_in_row(cov, descending=True) < k) & real
    else:
        cov = _covariance(adv, lp, mask)[real]  # the real tokens in row order, as verl lists them
        k = min(max(int(int(real.sum()) * p["kl_cov_ratio"]), 1), int(real.sum()))
        top = torch.zeros_like(real)
        if k > 0:  # ties go to the earlier token (a stable sort), so padding never changes the choice
            pick = torch.nonzero(real)[torch.sort(cov, descending=True, stable=True).indices[:k]]
            top[pick[:, 0], pick[:, 1]] = True
    loss = torch.where(top, loss + p["ppo_kl_coef"] * log_ratio.abs(), loss)
    none = torch.zeros_like(real)
    return loss, ratio, none, none, none, None


def _m2po(log_ratio, adv, mask, p, **ctx):
    # M2PO (arXiv 2510.01161, Algorithm 1, as Trinity-RFT's m2po policy loss reads it): no ratio clip;
    # among the tokens the advantage pushes further from pi_old (A l > 0), the largest l^2 are masked
    # until the mean l^2 of those kept is <= tau (0.04); the rest get -A r. A batch-level mask.
    real = mask > 0
    second = (log_ratio.detach() ** 2).masked_fill(~real, 0.0)
    pushed = real & (((adv > 0) & (log_ratio > 0)) | ((adv < 0) & (log_ratio < 0)))
    values = second[pushed]
    drop = torch.zeros_like(real)
    if ctx.get("alone"):  # each response its own batch: the same rule within each row
        ordered = torch.sort(second.masked_fill(~pushed, math.inf), dim=-1, stable=True).values
        finite = torch.isfinite(ordered)
        means = torch.cumsum(torch.where(finite, ordered, 0.0), -1) / torch.arange(
            1, ordered.shape[-1] + 1, dtype=ordered.dtype, device=ordered.device
        )
        keep = ((means <= p["m2_threshold"]) & finite).sum(-1, keepdim=True)  # (B, 1)
        ranks = _rank_in_row(second.masked_fill(~pushed, math.inf), descending=False)
        drop = pushed & (ranks >= keep)
    elif values.numel() and float(values.mean()) > p["m2_threshold"]:
        ordered, order = torch.sort(values, stable=True)
        means = torch.cumsum(ordered, 0) / torch.arange(1, len(ordered) + 1, dtype=ordered.dtype)
        keep = int((means <= p["m2_threshold"]).sum())
        where = torch.nonzero(pushed)[order[keep:]]
        drop[where[:, 0], where[:, 1]] = True
    ratio = torch.exp(log_ratio)
    loss = torch.where(drop, torch.zeros_like(log_ratio), -adv * ratio)
    high, low = drop & (adv > 0), drop & (adv < 0)
    return loss, ratio, low, high, torch.zeros_like(high), None


def _vespo(log_ratio, adv, mask, p, **ctx):
    # VESPO (arXiv 2602.10693; TRL loss_type="vespo", grpo_trainer.get_gamma_weights): a detached
    # sequence weight phi(w) = e^lambda w^k e^(-lambda w) (phi(1) = 1) of the sequence ratio
    # w = prod_t r_t (log w clamped to [log 1e-8, 20]; TRL clamps each token's log-ratio to +-20 before
    # the sum, so w reads the clamped l), k, lambda by the sign of A (A >= 0: pos); per token
    # -phi A grad log pi, the gradient through log pi past the clamp too (TRL's -phi A log pi).
    # Value -A phi (readable), gradient TRL's.
    log_w = (log_ratio * mask).sum(-1, keepdim=True).clamp(math.log(1e-8), 20.0)  # (B, 1)
    adv_seq = masked_mean(adv, mask, dim=-1)[:, None]  # (B, 1)
    pos = adv_seq >= 0
    k = torch.where(pos, torch.full_like(log_w, p["vespo_k_pos"]), torch.full_like(log_w, p["vespo_k_neg"]))
    lam = torch.where(pos, torch.full_like(log_w, p["vespo_lambda_pos"]), torch.full_like(log_w, p["vespo_lambda_neg"]))
    phi = torch.exp(lam + k * log_w - lam * torch.exp(log_w)).detach()  # (B, 1)
    # a soft gate never reaches an exact 0: far off-policy exp() underflows (TRL's then gives 0), so
    # phi is floored at the smallest normal float, a difference below 1e-300 (1e-38 in float32)
    phi = torch.nan_to_num(phi, nan=0.0, posinf=0.0, neginf=0.0).clamp(min=torch.finfo(phi.dtype).tiny)
    loss = -adv * phi * _grad_path(log_ratio, ctx)
    w = torch.exp(log_w).expand_as(log_ratio)
    none = torch.zeros_like(log_ratio, dtype=torch.bool)
    return loss, w, none, none, none, phi.expand_as(log_ratio)


def _wide_tokens(entropy, mask, quantile):
    """ASPO's wide-band tokens: per response, those whose entropy lies above the ``quantile`` of its
    real tokens' entropies (Archer2.0 ``dp_actor.py``: ``torch.nanquantile`` per row, ``<=`` the
    quantile keeps the narrow band). ``entropy`` None: no token (a lone token is never above its own
    quantile). [B, T] bool."""
    real = mask > 0
    if entropy is None:
        return torch.zeros_like(real)
    ent = entropy.detach().to(torch.float64)
    q = torch.nanquantile(torch.where(real, ent, torch.full_like(ent, math.nan)), quantile, dim=-1, keepdim=True)
    return (ent > torch.nan_to_num(q, nan=math.inf)) & real


def _aspo(log_ratio, adv, mask, p, **ctx):
    # ASPO (arXiv 2510.06062; official code wizard-III/Archer2.0 verl/trainer/ppo/core_algos.py
    # compute_policy_loss_archer). A > 0: the importance ratio is flipped, weight 1/r (the value -A/r
    # with gradient -A/r per unit of grad log pi) under PPO's upper clip r <= 1 + ε_high (beyond:
    # flat, zero gradient); below r = 1/c the weight is capped at c and the gradient kept (the soft
    # dual clip). A < 0: PPO's lower clip (r < 1 - ε_low: flat), and above r = c the weight is capped
    # at c with the gradient kept. ε is wider (aspo_wide_epsilon) for each response's top-entropy
    # tokens (entropy above its aspo_entropy_quantile). Value -A w at a capped token (the official
    # code's value there is -A c log pi: the same gradient).
    ratio = torch.exp(log_ratio)
    wide = _wide_tokens(ctx.get("entropy"), mask, p["aspo_entropy_quantile"])
    eps_low = torch.where(wide, p["aspo_wide_epsilon"], p["epsilon_low"]).to(ratio.dtype)
    eps_high = torch.where(wide, p["aspo_wide_epsilon"], p["epsilon_high"]).to(ratio.dtype)
    c = p["aspo_dual_c"]
    keep = _grad_path(log_ratio, ctx)  # value 1, d/dl = 1, past the clamp too
    up = torch.clamp(ratio, max=1.0 + eps_high)  # A > 0 (clamp: at the bound itself the gradient passes)
    pos_cap = 1.0 / up.detach() > c
    pos = torch.where(pos_cap, -adv * c * keep, -adv * (up / up.detach()) / up.detach())
    down = torch.clamp(ratio, min=1.0 - eps_low)  # A < 0
    neg_cap = down.detach() > c
    neg = torch.where(neg_cap, -adv * c * keep, -adv * down)
    negative = adv < 0  # the official code's split: A = 0 takes the positive branch (its loss is 0)
    loss = torch.where(negative, neg, pos)
    high = ~negative & (adv > 0) & (ratio > 1.0 + eps_high)
    low = negative & (ratio < 1.0 - eps_low)
    dual = (negative & neg_cap) | (~negative & (adv > 0) & pos_cap)
    return loss, ratio, low, high, dual, None


def _dro(log_ratio, adv, mask, p, **ctx):
    # DRO as verl 0.9.1 implements it (loss_mode="dro", core_algos.py compute_policy_loss_dro): per token
    # -(A log pi - beta/2 (log pi - log pi_old)^2), no clip and no clamp on l. In rlviz's value convention
    # (-A log pi read as -A pi/sg[pi], as CISPO's): -A + beta/2 l^2, gradient -A + beta l per unit of
    # grad log pi, verl's. The penalty pulls a token back once l passes A / beta.
    raw = _raw(log_ratio, ctx)
    loss = -adv * _grad_path(log_ratio, ctx) + 0.5 * p["dro_beta"] * raw * raw
    none = torch.zeros_like(log_ratio, dtype=torch.bool)
    return loss, torch.exp(log_ratio), none, none, none, None


def _gpg(log_ratio, adv, mask, p, **ctx):
    # GPG (arXiv 2504.02546; verl loss_mode="gpg", core_algos.py compute_policy_loss_gpg): the plain
    # policy gradient -A log pi, no ratio, clip or KL. Value -A (the readable -A pi/sg[pi]), gradient -A.
    none = torch.zeros_like(log_ratio, dtype=torch.bool)
    return -adv * _grad_path(log_ratio, ctx), torch.exp(log_ratio), none, none, none, None


def _bypass_pg(log_ratio, adv, mask, p, **ctx):
    # verl 0.9.1 bypass mode, loss_type="reinforce" (core_algos.py compute_policy_loss_bypass_mode ->
    # compute_policy_loss_reinforce; rollout_corr_helper.compute_rollout_correction_weights): a REINFORCE
    # loss -sg[w] A log pi with the truncated importance weight w = min(rho, C) of pi over the sampling
    # policy (verl: its rollout log-probs stand for pi_old), rho per token (exp of l clamped to +-20) or per
    # response (exp of the sum of l, clamped to +-20). Value -A w, gradient -A w (CISPO's convention).
    raw = _raw(log_ratio, ctx).detach()
    if p["bypass_is_level"] == "token":
        rho = torch.exp(raw.clamp(-LOG_RATIO_CLAMP, LOG_RATIO_CLAMP))  # (B, T)
    else:
        total = (raw * mask).sum(-1, keepdim=True)  # (B, 1)
        rho = torch.exp(total.clamp(-LOG_RATIO_CLAMP, LOG_RATIO_CLAMP)).expand_as(raw)
    weight = rho.clamp(max=p["bypass_is_cap"])
    loss = -adv * weight * _grad_path(log_ratio, ctx)
    capped = rho > p["bypass_is_cap"]
    none = torch.zeros_like(capped)
    return loss, rho, none, capped, none, None


# ----------------------------------------------------------------------------------------------
# Registry
# ----------------------------------------------------------------------------------------------

_AGG_HELP = {
    "zh": "损失聚合方式：token-mean / seq-mean-token-mean / seq-mean-token-sum / seq-mean-token-sum-norm",
    "en": "loss aggregation: token-mean / seq-mean-token-mean / seq-mean-token-sum / seq-mean-token-sum-norm",
}


def _eps(
    low,
    high,
    source,
    log_space=False,
    low_range=(0.0, 0.9, 0.01),
    high_range=(0.0, 1.0, 0.01),
    choices=None,
    what=None,
):
    """ε_low / ε_high: offsets of the ratio from 1 (of the log-ratio from 0 with ``log_space``), or
    ``what = {"en": ..., "zh": ...}`` where they bound something else (DPPO's divergence δ)."""
    what_zh = "对数比率，相对 0 的偏移" if log_space else "比率，相对 1 的偏移"
    what_en = "log-ratio offset from 0" if log_space else "ratio offset from 1"
    if what is not None:
        what_en, what_zh = what["en"], what["zh"]
    return (
        Setting(
            "epsilon_low",
            low,
            source,
            trl="epsilon",
            verl="actor.clip_ratio_low",
            help={
                "zh": f"下界裁剪 ε_low（{what_zh}）",
                "en": f"lower clip ε_low ({what_en})",
            },
            surrogate=True,
            range=None if choices else low_range,
            choices=choices,
        ),
        Setting(
            "epsilon_high",
            high,
            source,
            trl="epsilon_high",
            verl="actor.clip_ratio_high",
            help={
                "zh": f"上界裁剪 ε_high（{what_zh}）",
                "en": f"upper clip ε_high ({what_en})",
            },
            surrogate=True,
            range=None if choices else high_range,
            choices=choices,
        ),
    )


def _dual(source):
    return Setting(
        "dual_clip_c",
        None,
        source,
        trl="delta",
        verl="actor.clip_ratio_c",
        help={"zh": "双重裁剪 c（仅 A<0；可关闭）", "en": "dual clip c (A<0 only; can be off)"},
        surrogate=True,
        optional=True,
        range=(1.1, 10.0, 0.1),
    )


def _agg(mode, source):
    return Setting("loss_agg_mode", mode, source, trl="loss_type", verl="actor.loss_agg_mode", help=_AGG_HELP)


def _norm_length(source):
    """Dr.GRPO's constant length for ``seq-mean-token-sum-norm`` (TRL ``max_completion_length``)."""
    return Setting(
        "norm_length",
        None,
        source + " (the generation budget L_max; None = the run's length "
        "limit in training, the padded width in a bare policy_loss call)",
        trl="max_completion_length",
        verl="actor.loss_scale_factor",
        help={
            "zh": "常数长度 L_max（留空表示用本次训练的回答长度上限）",
            "en": "constant length L_max (empty = the run's response length limit)",
        },
        optional=True,
    )


def _kl(beta, source, estimator="k3"):
    return (
        Setting(
            "beta",
            beta,
            source,
            trl="beta",
            verl="actor.kl_loss_coef (with use_kl_loss)",
            help={
                "zh": "KL 惩罚系数 β（对参考策略，加在每个 token 的损失上）",
                "en": "KL coefficient β (to the reference policy, added per token to the loss)",
            },
        ),
        Setting(
            "kl_estimator",
            estimator,
            "DeepSeekMath arXiv 2402.03300 eq. 4 (k3)",
            trl="use_bias_correction_kl (TRL's KL is always k3: k3 = False, k3_bc = True; default True since TRL 1.x)",
            verl="actor.kl_loss_type (low_var_kl = k3)",
            help={"zh": "KL 估计器：" + " / ".join(KL_ESTIMATORS), "en": "KL estimator: " + " / ".join(KL_ESTIMATORS)},
        ),
    )


def _adv(kind, scale, source):
    return (
        Setting(
            "advantage",
            kind,
            source,
            trl=None,
            verl="algorithm.adv_estimator",
            help={
                "zh": "优势估计：group（组内相对）或 gae（价值网络）",
                "en": "advantage estimator: group (group-relative) or gae (value head)",
            },
        ),
        Setting(
            "scale_rewards",
            scale,
            source,
            trl="scale_rewards",
            verl="algorithm.norm_adv_by_std_in_grpo",
            help={
                "zh": "优势的标准差缩放：group / batch / none",
                "en": "std scaling of advantages: group / batch / none",
            },
        ),
    )


def _shaping(overlong, filtering, dynamic, source):
    return (
        Setting(
            "overlong_shaping",
            overlong,
            source,
            trl="get_soft_overlong_punishment (reward fn)",
            verl="reward.reward_kwargs.overlong_buffer_cfg.enable (recipe)",
            help={"zh": "DAPO 软超长惩罚", "en": "DAPO soft overlong punishment"},
        ),
        Setting(
            "overlong_filtering",
            filtering,
            source,
            trl="mask_truncated_completions",
            verl=None,
            help={
                "zh": "超长过滤：截断的回答不进入损失",
                "en": "overlong filtering: truncated responses leave the loss",
            },
        ),
        Setting(
            "dynamic_sampling",
            dynamic,
            source,
            trl=None,
            verl="algorithm.filter_groups.enable (recipe)",
            help={
                "zh": "动态采样：丢弃奖励全相同的组并补采",
                "en": "dynamic sampling: drop all-equal groups, re-sample",
            },
        ),
    )


_R = r"r_{i,t}=\frac{\pi_\theta(y_{i,t})}{\pi_{\theta_\text{old}}(y_{i,t})}"
_PPO_TEX = (
    r"\lambda_{i,t}=-\min\big(r_{i,t}A_{i,t},\ \operatorname{clip}(r_{i,t},1-\varepsilon_\text{low},1+\varepsilon_\text{high})A_{i,t}\big),\quad "
    + _R
)

_DS = "DeepSeekMath, arXiv 2402.03300, eq. 3"
_DAPO = "DAPO, arXiv 2503.14476, §3"
_DR = "Dr.GRPO, arXiv 2503.20783, §3.1"
_GSPO = "GSPO, arXiv 2507.18071, eq. 5 and §5.1"
_GMPO = "GMPO, arXiv 2507.20673"
_SAPO = "SAPO, arXiv 2511.20347"
_CISPO = "MiniMax-M1 (CISPO), arXiv 2506.13585, §3.1"
_GPPO = "Klear-Reasoner (GPPO), arXiv 2508.07629, §2.3"
_CE_GPPO = "CE-GPPO, arXiv 2509.20712, §3 (official code compute_gppo_loss_general_beta)"
_DPPO = "DPPO, arXiv 2602.04879 (verl dppo_tv / dppo_kl, examples/dppo_trainer)"
_COV = "Clip-Cov / KL-Cov, arXiv 2505.22617, §4 (verl clip_cov / kl_cov)"
_VESPO = "VESPO, arXiv 2602.10693 (TRL loss_type='vespo')"
_LUSPO = "LUSPO, arXiv 2602.05261 (TRL loss_type='luspo')"
_M2PO = "M2PO, arXiv 2510.01161, §5 and Algorithm 1"
_ASPO = "ASPO, arXiv 2510.06062 (Archer2.0 code)"
_DRO = "verl 0.9.1 loss_mode='dro' (core_algos.py compute_policy_loss_dro; docs/algo/dro.md)"
_GPG = "GPG, arXiv 2504.02546, the GPG objective (verl loss_mode='gpg')"
_BYPASS = "verl 0.9.1 bypass mode, loss_type='reinforce' (core_algos.py compute_policy_loss_bypass_mode)"
_RC = "algorithm.rollout_correction"

# GSPO's ε is of order 1e-4: a slider over a few such values rather than a linear range.
_GSPO_EPS = (0.0, 5e-5, 1e-4, 2e-4, 3e-4, 4e-4, 5e-4, 7e-4, 1e-3, 2e-3, 5e-3, 1e-2)
_GSPO_LOSS = (
    *_eps(3e-4, 4e-4, _GSPO + " (3e-4, 4e-4)", choices=_GSPO_EPS),
    _agg("seq-mean-token-mean", _GSPO),
    *_kl(0.0, _GSPO + " (β = 0)"),
)
_GSPO_TRAIN = (*_adv("group", "group", _GSPO), *_shaping(False, False, False, "not in GSPO"))


def _dppo_settings(delta, divergence, high):
    """DPPO's loss settings: the divergence threshold δ on both sides (verl reads clip_ratio_low /
    clip_ratio_high), the truncated-IS cap and verl's example aggregation."""
    step = high / 100
    what = (
        {"en": "δ on π − π_old, not on the ratio", "zh": "π − π_old 的界 δ，不是比率"}
        if divergence == "TV"
        else {
            "en": "δ on the binary KL of π_old and π, not on the ratio",
            "zh": "π_old 与 π 的二元 KL 的界 δ，不是比率",
        }
    )
    return (
        *_eps(
            delta,
            delta,
            _DPPO + f" (δ = {delta} for {divergence})",
            low_range=(0.0, high, step),
            high_range=(0.0, high, step),
            what=what,
        ),
        Setting(
            "tis_cap",
            10000.0,
            _DPPO + " (clip_ratio_c = 10000: truncation effectively off)",
            verl="actor.clip_ratio_c",
            help={"zh": "截断重要性采样的上限 c（min(r, c)）", "en": "truncated-IS cap c (min(r, c))"},
        ),
        _agg("seq-mean-token-sum-norm", _DPPO + " (seq-mean-token-sum-norm)"),
        _norm_length(_DPPO),
        *_kl(0.0, _DPPO + " (use_kl_loss = False)"),
    )


_DPPO_TRAIN = (
    *_adv("group", "none", _DPPO + " (norm_adv_by_std_in_grpo = False)"),
    *_shaping(False, False, False, "not in DPPO"),
)


def _vespo_setting(name, default, symbol, condition):
    """One of VESPO's four gamma-weight parameters (TRL's own name and default, grpo_config.py)."""
    return Setting(
        name,
        default,
        _VESPO + f" ({name} = {default:g})",
        trl=name,
        help={"zh": f"{condition} 时的 {symbol}", "en": f"{symbol} for {condition}"},
        surrogate=True,
        range=(0.5, 6.0, 0.5),
    )


# The framework selectors of each entry (AlgorithmSpec.trl / .verl) and its notes. Sources, the
# snapshots of shared/reference/algorithms.md §0: TRL trl/trainer/grpo_trainer.py (_compute_loss:
# loss_type, importance_sampling_level), trl/experimental/{gspo_token,gmpo}; verl
# verl/trainer/ppo/core_algos.py (the @register_policy_loss names) and trainer/config/actor/actor.yaml.
_LOSS_MODE = "actor_rollout_ref.actor.policy_loss.loss_mode"


def _fixed_agg(framework: str, mode: str, where: str) -> FrameworkNote:
    """A note: ``where`` (a framework's loss for this objective) aggregates with ``mode`` whatever
    ``loss_agg_mode`` says, so another mode has no equivalent there."""
    return FrameworkNote(
        framework,
        {
            "en": f"{where} aggregates with {mode} whatever loss_agg_mode says: "
            "loss_agg_mode = {loss_agg_mode} has no equivalent there.",
            "zh": f"{where} 固定按 {mode} 聚合，不读 loss_agg_mode：loss_agg_mode = {{loss_agg_mode}} 在那里没有对应。",
        },
        when=lambda f: f["loss_agg_mode"] != mode,
        unmapped=("loss_agg_mode",),
    )


_GSPO_TOKEN_VERL = FrameworkNote(
    "verl",
    {
        "en": "verl's loss_mode='gspo' computes GSPO-token (sg[s_i]·π/sg[π]): the same value and gradient as "
        "GSPO when each response has one advantage, as here.",
        "zh": "verl 的 loss_mode='gspo' 实际计算 GSPO-token（sg[s_i]·π/sg[π]）：每条回答一个优势时（本应用即如此），"
        "数值与梯度都与 GSPO 相同。",
    },
)

_SPECS = [
    AlgorithmSpec(
        name="ppo",
        title="PPO",
        paper="Schulman et al. 2017, Proximal Policy Optimization",
        arxiv="1707.06347",
        equation="eq. 7 (clip); dual clip: Ye et al. 2020, arXiv 1912.09729",
        parent=None,
        summary={
            "zh": "裁剪重要性比率的信任域近似，配合价值网络与 GAE 估计优势。",
            "en": "Clipped importance ratio as a cheap trust region, with a value head and GAE advantages.",
        },
        changes={
            "zh": "起点：每个 token 一个比率，超出 [1−ε, 1+ε] 的一侧梯度为零。",
            "en": "The starting point: one ratio per token; past [1−ε, 1+ε] on the helpful side the gradient is zero.",
        },
        latex=_PPO_TEX + r",\ \text{dual clip }(A<0):\ \min(\lambda,\,-cA)",
        ratio_level="token",
        loss_settings=(
            *_eps(0.2, 0.2, "PPO arXiv 1707.06347 §6 (ε = 0.2)"),
            _dual("Ye et al. arXiv 1912.09729 (c = 3 in verl; off in TRL)"),
            _agg("token-mean", "verl default loss_agg_mode"),
            *_kl(0.0, "verl default use_kl_loss = False"),
        ),
        train_settings=(
            *_adv("gae", "none", "verl default adv_estimator = gae"),
            Setting(
                "gamma",
                1.0,
                "verl algorithm.gamma default",
                verl="algorithm.gamma",
                help={"zh": "折扣因子 γ", "en": "discount γ"},
            ),
            Setting(
                "lam",
                0.95,
                "GAE, Schulman et al. arXiv 1506.02438 (λ = 0.95)",
                verl="algorithm.lam",
                help={"zh": "GAE 的 λ", "en": "GAE λ"},
            ),
            *_shaping(False, False, False, "off in PPO"),
        ),
        surrogate=_ppo_like,
        style={"color": "#000000", "dash": "dot"},
        examples=(Example("dual", "Dual-clip PPO", {"dual_clip_c": 3.0}),),
        trl={},  # trl.GRPOTrainer's clipped surrogate; loss_type follows loss_agg_mode
        verl={_LOSS_MODE: "vanilla"},  # core_algos.py @register_policy_loss("vanilla")
    ),
    AlgorithmSpec(
        name="grpo",
        title="GRPO",
        paper="Shao et al. 2024, DeepSeekMath",
        arxiv="2402.03300",
        equation="eq. 3",
        parent="ppo",
        summary={
            "zh": "去掉价值网络：同一提示的 G 个回答互为基线，优势 = 组内标准化奖励。",
            "en": "No value head: the G responses to one prompt are each other's baseline; advantage = group-normalised reward.",
        },
        changes={
            "zh": "优势改为组内相对（减均值、除标准差），KL 直接加在损失里，按回答求平均。",
            "en": "Group-relative advantages (minus mean, over std), KL in the loss, mean per response.",
        },
        latex=_PPO_TEX + r",\quad A_i=\frac{R_i-\operatorname{mean}(R)}{\operatorname{std}(R)},\quad "
        r"\mathcal L=\frac1G\sum_i\frac{1}{|o_i|}\sum_t\big(\lambda_{i,t}+\beta\,\mathbb D_\text{KL}^{k3}\big)",
        ratio_level="token",
        loss_settings=(
            *_eps(0.2, 0.2, _DS + " (ε = 0.2)"),
            _dual("off in the GRPO paper"),
            _agg("seq-mean-token-mean", _DS + " (1/G Σ 1/|o_i| Σ_t)"),
            *_kl(0.04, "DeepSeekMath arXiv 2402.03300 §4.2 (β = 0.04)"),
        ),
        train_settings=(*_adv("group", "group", _DS), *_shaping(False, False, False, "not in GRPO")),
        surrogate=_ppo_like,
        style={"color": "#0072B2", "dash": "solid"},
        trl={},  # trl.GRPOTrainer's clipped surrogate; loss_type follows loss_agg_mode
        verl={_LOSS_MODE: "vanilla"},  # core_algos.py @register_policy_loss("vanilla")
    ),
    AlgorithmSpec(
        name="dr_grpo",
        title="Dr.GRPO",
        paper="Liu et al. 2025, Understanding R1-Zero-Like Training",
        arxiv="2503.20783",
        equation="§3.1",
        parent="grpo",
        summary={
            "zh": "去掉 GRPO 的两个偏置：不除以回答长度（改用常数），不除以组内标准差。",
            "en": "Removes GRPO's two biases: no division by response length (a constant instead), no division by the group std.",
        },
        changes={
            "zh": "长度偏置与难度偏置消失：错误回答不再被鼓励变长。",
            "en": "Length and difficulty biases gone: wrong answers are no longer pushed to grow longer.",
        },
        latex=_PPO_TEX
        + r",\quad A_i=R_i-\operatorname{mean}(R),\quad \mathcal L=\frac{1}{B\,L_\text{max}}\sum_i\sum_t\lambda_{i,t}",
        ratio_level="token",
        loss_settings=(
            *_eps(0.2, 0.2, _DR),
            _dual("off in the Dr.GRPO paper"),
            _agg("seq-mean-token-sum-norm", _DR + " (TRL loss_type = dr_grpo)"),
            _norm_length(_DR),
            *_kl(0.0, _DR + " (β = 0)"),
        ),
        train_settings=(*_adv("group", "none", _DR + " (no std)"), *_shaping(False, False, False, "not in Dr.GRPO")),
        surrogate=_ppo_like,
        style={"color": "#56B4E9", "dash": "dash"},
        trl={},  # trl.GRPOTrainer's clipped surrogate; loss_type follows loss_agg_mode
        verl={_LOSS_MODE: "vanilla"},  # core_algos.py @register_policy_loss("vanilla")
    ),
    AlgorithmSpec(
        name="dapo",
        title="DAPO",
        paper="Yu et al. 2025, DAPO",
        arxiv="2503.14476",
        equation="§3 (full objective)",
        parent="grpo",
        summary={
            "zh": "解耦裁剪（clip-higher）、动态采样、token 级损失与超长奖励整形。",
            "en": "Clip-higher, dynamic sampling, token-level loss and overlong reward shaping.",
        },
        changes={
            "zh": "ε_high 提高到 0.28 防熵坍缩；全对/全错组被过滤并补采；按 token 求平均；去掉 KL。",
            "en": "ε_high raised to 0.28 against entropy collapse; all-equal groups filtered and re-sampled; token mean; no KL.",
        },
        latex=_PPO_TEX + r",\quad \mathcal L=\frac{1}{\sum_i|o_i|}\sum_i\sum_t\lambda_{i,t}",
        ratio_level="token",
        loss_settings=(
            *_eps(0.2, 0.28, _DAPO + ".1 Clip-Higher (ε_low = 0.2, ε_high = 0.28)"),
            _dual("off in the DAPO paper (the verl recipe sets 10)"),
            _agg("token-mean", _DAPO + ".3 Token-Level Policy Gradient Loss"),
            *_kl(0.0, _DAPO + " (KL removed)"),
        ),
        train_settings=(*_adv("group", "group", _DAPO), *_shaping(True, False, True, _DAPO + ".2 and §3.4")),
        surrogate=_ppo_like,
        style={"color": "#E69F00", "dash": "solid"},
        trl={},  # trl.GRPOTrainer's clipped surrogate; loss_type follows loss_agg_mode
        verl={_LOSS_MODE: "vanilla"},  # core_algos.py @register_policy_loss("vanilla")
    ),
    AlgorithmSpec(
        name="gspo",
        title="GSPO",
        paper="Zheng et al. 2025, Group Sequence Policy Optimization",
        arxiv="2507.18071",
        equation="eq. 5 (objective), eq. 7 (sequence ratio)",
        parent="grpo",
        summary={
            "zh": "序列级重要性比率（token 比率的几何平均），整条回答一起裁剪。",
            "en": "A sequence-level importance ratio (geometric mean of token ratios), clipped per whole response.",
        },
        changes={
            "zh": "比率从 token 级改为序列级；ε 约 3e-4，裁掉的 token 多得多却更稳定。",
            "en": "Token ratio replaced by a sequence ratio; ε ≈ 3e-4; clips far more tokens yet trains more stably.",
        },
        latex=r"\lambda_i=-\min\big(s_iA_i,\ \operatorname{clip}(s_i,1-\varepsilon_\text{low},1+\varepsilon_\text{high})A_i\big),\quad s_i=\Big(\prod_t r_{i,t}\Big)^{1/|y_i|}",
        ratio_level="sequence",
        loss_settings=_GSPO_LOSS,
        train_settings=_GSPO_TRAIN,
        surrogate=_gspo,
        style={"color": "#009E73", "dash": "solid"},
        trl={"importance_sampling_level": "sequence"},  # grpo_trainer.py: one ratio s_i per response
        verl={_LOSS_MODE: "gspo"},  # core_algos.py @register_policy_loss("gspo")
        framework_notes=(
            _GSPO_TOKEN_VERL,
            _fixed_agg("verl", "seq-mean-token-mean", "verl's loss_mode='gspo'"),
        ),
    ),
    AlgorithmSpec(
        name="gspo_token",
        title="GSPO-token",
        paper="Zheng et al. 2025, GSPO",
        arxiv="2507.18071",
        equation="§4.3 (GSPO-token)",
        parent="gspo",
        summary={
            "zh": "GSPO 的 token 版：数值等于序列比率，梯度走各自 token，允许逐 token 优势。",
            "en": "GSPO per token: the value of the sequence ratio, each token's own gradient, per-token advantages allowed.",
        },
        changes={
            "zh": "优势沿序列恒定时与 GSPO 完全相同。",
            "en": "Identical to GSPO when the advantage is constant along the response.",
        },
        latex=r"s_{i,t}=\operatorname{sg}[s_i]\,\frac{\pi_\theta(y_{i,t})}{\operatorname{sg}[\pi_\theta(y_{i,t})]},\quad \lambda_{i,t}=-\min\big(s_{i,t}A_{i,t},\ \operatorname{clip}(s_{i,t})A_{i,t}\big)",
        ratio_level="sequence",
        loss_settings=_GSPO_LOSS,
        train_settings=_GSPO_TRAIN,
        surrogate=_gspo_token,
        style={"color": "#332288", "dash": "dashdot"},
        trl=None,  # trl.GRPOTrainer refuses importance_sampling_level="sequence_token"
        verl={_LOSS_MODE: "gspo"},  # core_algos.py: verl's gspo loss is the GSPO-token construction
        framework_notes=(
            FrameworkNote(
                "trl",
                {
                    "en": "Not in trl.GRPOTrainer: use trl.experimental.gspo_token.GRPOTrainer with these "
                    'GRPOConfig arguments and importance_sampling_level="sequence_token".',
                    "zh": "trl.GRPOTrainer 中没有：请用 trl.experimental.gspo_token.GRPOTrainer，配以这些 GRPOConfig "
                    '参数并加 importance_sampling_level="sequence_token"。',
                },
            ),
            _fixed_agg("verl", "seq-mean-token-mean", "verl's loss_mode='gspo'"),
        ),
    ),
    AlgorithmSpec(
        name="gmpo",
        title="GMPO",
        paper="Zhao et al. 2025, Geometric-Mean Policy Optimization",
        arxiv="2507.20673",
        equation="GMPO objective (geometric mean of token terms)",
        parent="grpo",
        summary={
            "zh": "最大化 token 级项的几何平均，并在对数空间裁剪（约 e^±0.4），对极端比率更稳健。",
            "en": "Maximises the geometric mean of token terms, clipped in log space (about e^±0.4): robust to extreme ratios.",
        },
        changes={
            "zh": "算术平均换成几何平均；裁剪范围放宽到对数空间 ±0.4。",
            "en": "Arithmetic mean replaced by a geometric mean; clip range widened to ±0.4 in log space.",
        },
        latex=r"\lambda_i=-A_i\exp\Big(\frac{1}{|y_i|}\sum_t \tilde\ell_{i,t}\Big),\quad \tilde\ell=\begin{cases}\min(\ell,\operatorname{clip}(\ell,-\varepsilon_\text{low},\varepsilon_\text{high}))&A>0\\\max(\ell,\operatorname{clip}(\ell,-\varepsilon_\text{low},\varepsilon_\text{high}))&A<0\end{cases}",
        ratio_level="sequence",
        loss_settings=(
            *_eps(
                0.4,
                0.4,
                _GMPO + " (log-space range (e^-0.4, e^0.4))",
                log_space=True,
                low_range=(0.05, 1.5, 0.05),
                high_range=(0.05, 1.5, 0.05),
            ),
            _agg("seq-mean-token-mean", _GMPO + " (one term per response)"),
            *_kl(0.0, _GMPO + " (β = 0)"),
        ),
        train_settings=(*_adv("group", "group", _GMPO), *_shaping(False, False, False, "not in GMPO")),
        surrogate=_gmpo,
        clip_space="log",
        style={"color": "#999933", "dash": "longdash"},
        trl=None,  # only trl.experimental.gmpo (GMPOConfig, GMPOTrainer)
        verl={_LOSS_MODE: "geo_mean"},  # core_algos.py @register_policy_loss("geo_mean")
        framework_notes=(
            FrameworkNote(
                "trl",
                {
                    "en": "Not in trl.GRPOTrainer: use trl.experimental.gmpo.GMPOTrainer with GMPOConfig (it takes these "
                    "arguments). epsilon and epsilon_high are log-space bounds there too: the ratio stays in "
                    "({ratio_low:.4g}, {ratio_high:.4g}).",
                    "zh": "trl.GRPOTrainer 中没有：请用 trl.experimental.gmpo.GMPOTrainer 与 GMPOConfig（接受这些参数）。"
                    "那里的 epsilon、epsilon_high 同样是对数空间的界：比率保持在 ({ratio_low:.4g}, {ratio_high:.4g})。",
                },
            ),
            FrameworkNote(
                "verl",
                {
                    "en": "verl's loss_mode='geo_mean' reads clip_ratio_low / clip_ratio_high as log-space bounds, as "
                    "rlviz does: the ratio stays in ({ratio_low:.4g}, {ratio_high:.4g}).",
                    "zh": "verl 的 loss_mode='geo_mean' 与 rlviz 一样把 clip_ratio_low / clip_ratio_high 当作对数空间的界："
                    "比率保持在 ({ratio_low:.4g}, {ratio_high:.4g})。",
                },
            ),
            _fixed_agg("trl", "seq-mean-token-mean", "GMPOTrainer (one term per response)"),
            _fixed_agg("verl", "seq-mean-token-mean", "verl's loss_mode='geo_mean' (one term per response)"),
        ),
    ),
    AlgorithmSpec(
        name="sapo",
        title="SAPO",
        paper="Gao et al. 2025, Soft Adaptive Policy Optimization",
        arxiv="2511.20347",
        equation="soft gate f(r) = (4/τ) σ(τ(r−1))",
        parent="gspo",
        summary={
            "zh": "用平滑门控 f(r)=(4/τ)σ(τ(r−1)) 替代硬裁剪；负优势用更大的温度。",
            "en": "A smooth gate f(r) = (4/τ)σ(τ(r−1)) instead of a hard clip; a larger temperature for negative advantages.",
        },
        changes={
            "zh": "只衰减偏离的 token，其余照常学习；梯度权重 4σ(1−σ) 在 r=1 处为 1，永不为零。",
            "en": "Damps only the off-policy tokens; the weight 4σ(1−σ) is 1 at r = 1 and never exactly zero.",
        },
        latex=r"\lambda_{i,t}=-\frac{4}{\tau}\,\sigma\big(\tau(r_{i,t}-1)\big)A_{i,t},\quad \tau=\begin{cases}\tau_\text{pos}&A>0\\\tau_\text{neg}&A\le0\end{cases}",
        ratio_level="token",
        loss_settings=(
            Setting(
                "tau_pos",
                1.0,
                _SAPO + " (τ_pos = 1.0)",
                trl="sapo_temperature_pos",
                verl="actor.tau_pos",
                help={"zh": "正优势的门控温度 τ_pos", "en": "gate temperature for A>0, τ_pos"},
                surrogate=True,
                range=(0.25, 10.0, 0.05),
            ),
            Setting(
                "tau_neg",
                1.05,
                _SAPO + " (τ_neg = 1.05)",
                trl="sapo_temperature_neg",
                verl="actor.tau_neg",
                help={"zh": "负优势的门控温度 τ_neg", "en": "gate temperature for A≤0, τ_neg"},
                surrogate=True,
                range=(0.25, 10.0, 0.05),
            ),
            _agg("seq-mean-token-mean", _SAPO + " (TRL loss_type = sapo)"),
            *_kl(0.0, _SAPO + " (β = 0)"),
        ),
        train_settings=(*_adv("group", "group", _SAPO), *_shaping(False, False, False, "not in SAPO")),
        surrogate=_sapo,
        trust_region=frozenset({"gated"}),
        clip_space=None,
        style={"color": "#CC79A7", "dash": "solid"},
        trl={"loss_type": "sapo"},  # grpo_trainer.py: the soft gate with sapo_temperature_pos / _neg
        verl={_LOSS_MODE: "sapo"},  # core_algos.py @register_policy_loss("sapo")
        framework_notes=(
            _fixed_agg("trl", "seq-mean-token-mean", "TRL's loss_type='sapo'"),
            _fixed_agg("verl", "seq-mean-token-mean", "verl's loss_mode='sapo'"),
        ),
    ),
    AlgorithmSpec(
        name="cispo",
        title="CISPO",
        paper="MiniMax 2025, MiniMax-M1",
        arxiv="2506.13585",
        equation="§3.1 (CISPO)",
        parent="grpo",
        summary={
            "zh": "裁剪重要性采样权重而不是裁剪更新：越界的 token 仍有有界梯度。",
            "en": "Clips the importance-sampling weight, not the update: a token outside the trust region keeps a bounded gradient.",
        },
        changes={
            "zh": "保护罕见但关键的“分叉” token 的梯度；按 token 求平均。",
            "en": "Keeps the gradient of rare but important 'fork' tokens; token mean.",
        },
        latex=r"\lambda_{i,t}=-\operatorname{sg}\big[\operatorname{clip}(r_{i,t},1-\varepsilon_\text{low},1+\varepsilon_\text{high})\big]A_{i,t}\log\pi_\theta(y_{i,t})",
        ratio_level="token",
        loss_settings=(
            *_eps(
                1.0,
                0.2,
                _CISPO + " (no lower bound; verl example cap 1 + 0.2)",
                low_range=(0.0, 1.0, 0.05),
                high_range=(0.0, 4.0, 0.05),
            ),
            _agg("token-mean", _CISPO + " (token-level loss)"),
            *_kl(0.0, _CISPO + " (β = 0)"),
        ),
        train_settings=(*_adv("group", "group", _CISPO), *_shaping(False, False, False, "not in CISPO")),
        surrogate=_cispo,
        trust_region=frozenset({"capped"}),
        style={"color": "#D55E00", "dash": "dash"},
        # grpo_trainer.py: clamp(r, max=epsilon_high), epsilon unread: TRL's epsilon_high is the cap itself
        trl={"loss_type": "cispo", "epsilon_high": lambda f: f["ratio_high"], "epsilon": None},
        verl={_LOSS_MODE: "cispo"},  # core_algos.py @register_policy_loss("cispo"): offsets from 1, two-sided
        framework_notes=(
            FrameworkNote(
                "trl",
                {
                    "en": "TRL's CISPO reads epsilon_high as the absolute cap on r, not an offset from 1: ε_high = "
                    "{epsilon_high:g} here is epsilon_high = {ratio_high:g} there. TRL has no lower bound (it does not "
                    "read epsilon).",
                    "zh": "TRL 的 CISPO 把 epsilon_high 当作 r 的绝对上限，而不是相对 1 的偏移：这里的 ε_high = "
                    "{epsilon_high:g} 在 TRL 中是 epsilon_high = {ratio_high:g}。TRL 没有下界（不读 epsilon）。",
                },
            ),
            FrameworkNote(
                "trl",
                {
                    "en": "The lower bound 1 − ε_low = {ratio_low:g} has no TRL equivalent (TRL caps r from above "
                    "only; ε_low ≥ 1 means no lower bound).",
                    "zh": "下界 1 − ε_low = {ratio_low:g} 在 TRL 中没有对应（TRL 只从上方截断 r；ε_low ≥ 1 即无下界）。",
                },
                when=lambda f: f["ratio_low"] > 0,
                unmapped=("epsilon_low",),
            ),
            _fixed_agg("trl", "token-mean", "TRL's loss_type='cispo'"),
        ),
    ),
    AlgorithmSpec(
        name="gppo",
        title="GPPO",
        paper="Su et al. 2025, Klear-Reasoner",
        arxiv="2508.07629",
        equation="§2.3 (GPPO objective)",
        parent="dapo",
        summary={
            "zh": "保梯度裁剪：前向值与 PPO 裁剪相同，被裁的 token 仍以 (1±ε) 的有界权重回传梯度。",
            "en": "Gradient-preserving clip: the forward value of PPO's clip, but clipped tokens still pass a bounded (1±ε) gradient.",
        },
        changes={
            "zh": "把裁剪项写成 (1±ε)·r/sg[r]：越界 token 的梯度不再为零，探索信号与次优轨迹的负信号都保留下来。",
            "en": "The clipped branch becomes (1±ε)·r/sg[r]: out-of-band tokens keep a gradient, so exploration and negative signals survive.",
        },
        latex=r"\lambda_{i,t}=-\min\Big(r_{i,t}A_{i,t},\ \operatorname{clip}\big(r_{i,t},\tfrac{1-\varepsilon_\text{low}}{\operatorname{sg}[r_{i,t}]}r_{i,t},\tfrac{1+\varepsilon_\text{high}}{\operatorname{sg}[r_{i,t}]}r_{i,t}\big)A_{i,t}\Big)",
        ratio_level="token",
        loss_settings=(
            *_eps(0.2, 0.28, _GPPO + " (built on DAPO's clip-higher bounds 0.2 / 0.28)"),
            _agg("token-mean", _GPPO + " (official code default loss_agg_mode = token-mean)"),
            *_kl(0.0, _GPPO + " (no KL)"),
        ),
        train_settings=(*_adv("group", "group", _GPPO), *_shaping(False, False, False, "not in GPPO")),
        surrogate=_gppo,
        trust_region=frozenset({"capped"}),
        trl=None,
        verl=None,
        framework_notes=(
            FrameworkNote(
                "trl",
                {
                    "en": "Neither TRL nor verl ships GPPO; the authors' verl fork (Kwai-Klear/KlearReasoner, "
                    "core_algos.py compute_gppo_loss) does, with a dual clip on A < 0 that rlviz leaves out.",
                    "zh": "TRL 与 verl 都没有 GPPO；作者的 verl 分支（Kwai-Klear/KlearReasoner，core_algos.py 的 "
                    "compute_gppo_loss）实现了它，并对 A < 0 加了双重裁剪，rlviz 没有加。",
                },
            ),
        ),
    ),
    AlgorithmSpec(
        name="ce_gppo",
        title="CE-GPPO",
        paper="Su et al. 2025, CE-GPPO",
        arxiv="2509.20712",
        equation="§3 (CE-GPPO objective)",
        parent="gppo",
        summary={
            "zh": "在 GPPO 上用 β₁、β₂ 分别缩放两侧被裁 token 的梯度，借此调控熵。",
            "en": "GPPO with the clipped tokens' gradients scaled by β₁ (A < 0) and β₂ (A > 0), to steer the entropy.",
        },
        changes={
            "zh": "β₁ 控制负优势低概率 token（防熵爆炸），β₂ 控制正优势低概率 token（防熵坍缩）。",
            "en": "β₁ weighs negative-advantage low-probability tokens (against entropy explosion), β₂ positive ones (against collapse).",
        },
        latex=r"\lambda_{i,t}=\begin{cases}-\beta_1\frac{1-\varepsilon_\text{low}}{\operatorname{sg}[r]}r\,A & A<0,\ r<1-\varepsilon_\text{low}\\-\beta_2\frac{1+\varepsilon_\text{high}}{\operatorname{sg}[r]}r\,A & A>0,\ r>1+\varepsilon_\text{high}\\-r\,A & \text{otherwise}\end{cases}",
        ratio_level="token",
        loss_settings=(
            *_eps(0.2, 0.28, _CE_GPPO + " (DAPO's bounds 0.2 / 0.28)"),
            Setting(
                "gppo_beta1",
                0.75,
                _CE_GPPO + " (gppo_loss_beta1 = 0.75)",
                help={
                    "zh": "β₁：A<0 且 r<1−ε_low 的被裁 token 的梯度倍数",
                    "en": "β₁: gradient scale of clipped tokens with A<0, r<1−ε_low",
                },
                surrogate=True,
                range=(0.05, 2.0, 0.05),
            ),
            Setting(
                "gppo_beta2",
                1.0,
                _CE_GPPO + " (gppo_loss_beta2 = 1)",
                help={
                    "zh": "β₂：A>0 且 r>1+ε_high 的被裁 token 的梯度倍数",
                    "en": "β₂: gradient scale of clipped tokens with A>0, r>1+ε_high",
                },
                surrogate=True,
                range=(0.05, 2.0, 0.05),
            ),
            _agg("token-mean", _CE_GPPO + " (token-mean)"),
            *_kl(0.0, _CE_GPPO + " (no KL)"),
        ),
        train_settings=(*_adv("group", "group", _CE_GPPO), *_shaping(False, False, False, "not in CE-GPPO")),
        surrogate=_ce_gppo,
        monotone=False,
        trust_region=frozenset({"capped"}),
        trl=None,
        verl=None,
        framework_notes=(
            FrameworkNote(
                "trl",
                {
                    "en": "Neither TRL nor verl ships CE-GPPO; the authors' code (Kwai-Klear/CE-GPPO, "
                    "compute_gppo_loss_general_beta) adds a dual clip c = 3 on A < 0 that rlviz leaves out.",
                    "zh": "TRL 与 verl 都没有 CE-GPPO；作者代码（Kwai-Klear/CE-GPPO 的 compute_gppo_loss_general_beta）"
                    "对 A < 0 加了 c = 3 的双重裁剪，rlviz 没有加。",
                },
            ),
        ),
    ),
    AlgorithmSpec(
        name="dppo_tv",
        title="DPPO-TV",
        paper="Qi et al. 2026, Divergence Proximal Policy Optimization",
        arxiv="2602.04879",
        equation="Binary-TV trust region",
        parent="grpo",
        summary={
            "zh": "用分布的偏移（二元全变差 |π−π_old|）代替比率裁剪：偏移超出信任域的 token 被屏蔽。",
            "en": "A divergence trust region instead of a ratio clip: tokens whose probability moved more than δ (binary TV) are masked.",
        },
        changes={
            "zh": "比率裁剪对低概率 token 过严、对高概率 token 过松；按概率差 π−π_old 设界更公平，梯度用截断 IS 权重。",
            "en": "A ratio clip is too strict on rare tokens and too loose on likely ones; bounding π−π_old is even-handed; truncated-IS weights.",
        },
        latex=r"\lambda_{i,t}=-\mathbb 1\big[\text{in region}\big]\operatorname{sg}[\min(r_{i,t},c)]A_{i,t}\log\pi_\theta,\quad \text{region: }A>0:\ \pi-\pi_\text{old}\le\delta_\text{high};\ A\le0:\ \pi-\pi_\text{old}\ge-\delta_\text{low}",
        ratio_level="token",
        loss_settings=_dppo_settings(0.15, "TV", 1.0),
        train_settings=_DPPO_TRAIN,
        surrogate=_dppo("tv"),
        detached_weight=True,
        reads_probability=True,
        monotone=False,
        clip_space=None,
        trl=None,
        verl={_LOSS_MODE: "dppo_tv"},
    ),
    AlgorithmSpec(
        name="dppo_kl",
        title="DPPO-KL",
        paper="Qi et al. 2026, Divergence Proximal Policy Optimization",
        arxiv="2602.04879",
        equation="Binary-KL trust region",
        parent="dppo_tv",
        summary={
            "zh": "DPPO 的 KL 版：用采样 token 的二元 KL 衡量偏移，超过 δ 且朝优势方向移动的 token 被屏蔽。",
            "en": "DPPO with a binary KL between π and π_old at the sampled token; past δ in the advantage's direction, the token is masked.",
        },
        changes={
            "zh": "把全变差换成二元 KL，δ 约 0.05。",
            "en": "Binary KL in place of the total variation, δ ≈ 0.05.",
        },
        latex=r"D=\pi_\text{old}\log\tfrac{\pi_\text{old}}{\pi}+(1-\pi_\text{old})\log\tfrac{1-\pi_\text{old}}{1-\pi},\quad \lambda_{i,t}=-\mathbb 1\big[D\le\delta\ \text{or moving against }A\big]\operatorname{sg}[\min(r,c)]A\log\pi_\theta",
        ratio_level="token",
        loss_settings=_dppo_settings(0.05, "KL", 0.5),
        train_settings=_DPPO_TRAIN,
        surrogate=_dppo("kl"),
        detached_weight=True,
        reads_probability=True,
        monotone=False,
        clip_space=None,
        trl=None,
        verl={_LOSS_MODE: "dppo_kl"},
    ),
    AlgorithmSpec(
        name="clip_cov",
        title="Clip-Cov",
        paper="Cui et al. 2025, The Entropy Mechanism of RL for Reasoning LMs",
        arxiv="2505.22617",
        equation="§4 (Clip-Cov)",
        parent="grpo",
        summary={
            "zh": "熵的变化由 log π 与优势的协方差驱动：把少数高协方差 token 的梯度断开，防止熵坍缩。",
            "en": "Entropy change is driven by the covariance of log π and the advantage: detach a few high-covariance tokens to stop the collapse.",
        },
        changes={
            "zh": "PPO 裁剪之外，在协方差位于 (lb, ub) 的 token 中随机选至多 ratio·N 个，梯度置零。",
            "en": "Besides PPO's clip, up to ratio·N tokens with covariance in (lb, ub) are picked at random and get zero gradient.",
        },
        latex=_PPO_TEX
        + r",\quad \lambda_{i,t}=0\ \text{for a few }t\text{ with }(A_t-\bar A)(\log\pi_t-\overline{\log\pi})\in(\text{lb},\text{ub})",
        ratio_level="token",
        loss_settings=(
            *_eps(0.2, 0.2, _COV + " (PPO's ε = 0.2)"),
            Setting(
                "clip_cov_ratio",
                2e-4,
                _COV + " (clip_cov_ratio = 2e-4)",
                verl="actor.policy_loss.clip_cov_ratio",
                help={"zh": "被断开梯度的 token 比例上限", "en": "share of tokens detached, at most"},
            ),
            Setting(
                "clip_cov_lb",
                1.0,
                _COV + " (clip_cov_lb = 1)",
                verl="actor.policy_loss.clip_cov_lb",
                help={"zh": "协方差下界 lb", "en": "covariance lower bound lb"},
            ),
            Setting(
                "clip_cov_ub",
                5.0,
                _COV + " (clip_cov_ub = 5)",
                verl="actor.policy_loss.clip_cov_ub",
                help={"zh": "协方差上界 ub", "en": "covariance upper bound ub"},
            ),
            _agg("token-mean", _COV + " (verl default token-mean)"),
            *_kl(0.0, _COV + " (no KL)"),
        ),
        train_settings=(*_adv("group", "group", _COV), *_shaping(False, False, False, "not in Clip-Cov")),
        surrogate=_clip_cov,
        acts_on_policy=True,
        batch_coupled=True,
        trl=None,
        verl={_LOSS_MODE: "clip_cov"},
        framework_notes=(
            FrameworkNote(
                "verl",
                {
                    "en": "verl draws the detached tokens with the global random generator; rlviz with one seeded "
                    "at 0, so the same inputs give the same loss. With fewer candidates than the limit both agree.",
                    "zh": "verl 用全局随机数选出被断开的 token；rlviz 用种子为 0 的生成器，相同输入给出相同损失。"
                    "候选数不超过上限时两者一致。",
                },
            ),
        ),
    ),
    AlgorithmSpec(
        name="kl_cov",
        title="KL-Cov",
        paper="Cui et al. 2025, The Entropy Mechanism of RL for Reasoning LMs",
        arxiv="2505.22617",
        equation="§4 (KL-Cov)",
        parent="grpo",
        summary={
            "zh": "不裁剪；对协方差最大的少数 token 加上 |log r| 的 KL 惩罚，抑制熵坍缩。",
            "en": "No clip; the few tokens of largest covariance get a |log r| KL penalty, against entropy collapse.",
        },
        changes={
            "zh": "用对少数高协方差 token 的 KL 约束代替对所有 token 的比率裁剪。",
            "en": "A KL pull on the few highest-covariance tokens replaces the ratio clip on every token.",
        },
        latex=r"\lambda_{i,t}=-r_{i,t}A_{i,t}+\mathbb 1[t\in\text{top-}k\ \text{cov}]\ \beta_\text{cov}\,\big|\log r_{i,t}\big|",
        ratio_level="token",
        loss_settings=(
            Setting(
                "kl_cov_ratio",
                2e-4,
                _COV + " (kl_cov_ratio = 2e-4)",
                verl="actor.policy_loss.kl_cov_ratio",
                help={"zh": "加 KL 惩罚的 token 比例", "en": "share of tokens given the KL penalty"},
            ),
            Setting(
                "ppo_kl_coef",
                1.0,
                _COV + " (ppo_kl_coef = 1, the code default)",
                verl="actor.policy_loss.ppo_kl_coef",
                help={"zh": "KL 惩罚系数", "en": "KL penalty coefficient"},
                surrogate=True,
                range=(0.0, 5.0, 0.1),
            ),
            _agg("token-mean", _COV + " (verl default token-mean)"),
            *_kl(0.0, _COV + " (no KL to the reference)"),
        ),
        train_settings=(*_adv("group", "group", _COV), *_shaping(False, False, False, "not in KL-Cov")),
        surrogate=_kl_cov,
        monotone=False,
        batch_coupled=True,
        trust_region=frozenset(),
        clip_space=None,
        trl=None,
        verl={_LOSS_MODE: "kl_cov"},
    ),
    AlgorithmSpec(
        name="vespo",
        title="VESPO",
        paper="VESPO 2026, Variational Sequence-Level Soft Policy Optimization",
        arxiv="2602.10693",
        equation="gamma weight φ(w)",
        parent="gspo",
        summary={
            "zh": "不硬裁剪：用序列比率 w 的平滑 gamma 权重 φ(w) = e^λ w^k e^{−λw}（φ(1)=1）缩放整条回答的梯度。",
            "en": "No hard clip: a smooth gamma weight φ(w) = e^λ w^k e^{−λw} of the sequence ratio w (φ(1) = 1) scales a response's gradient.",
        },
        changes={
            "zh": "w 远离 1 时权重平滑趋零；正负优势各有 (k, λ)。",
            "en": "The weight fades smoothly as w leaves 1; separate (k, λ) for positive and negative advantages.",
        },
        latex=r"\lambda_{i,t}=-\operatorname{sg}\big[\varphi(w_i)\big]A_i\log\pi_\theta(y_{i,t}),\quad \varphi(w)=e^{\lambda}w^{k}e^{-\lambda w},\quad w_i=\prod_t r_{i,t}",
        ratio_level="sequence",
        loss_settings=(
            *(
                _vespo_setting(f"vespo_{k}_{sign}", value, sym, cond)
                for sign, cond in (("pos", "A ≥ 0"), ("neg", "A < 0"))
                for k, sym, value in (
                    ("k", "k", {"pos": 2.0, "neg": 3.0}[sign]),
                    ("lambda", "λ", {"pos": 3.0, "neg": 2.0}[sign]),
                )
            ),
            _agg("token-mean", _VESPO + " (TRL: token sum over the batch's tokens)"),
            *_kl(0.0, _VESPO + " (β = 0)"),
        ),
        train_settings=(*_adv("group", "group", _VESPO), *_shaping(False, False, False, "not in VESPO")),
        surrogate=_vespo,
        detached_weight=True,
        monotone=False,
        trust_region=frozenset({"gated"}),
        clip_space=None,
        trl={"loss_type": "vespo"},
        verl=None,
        framework_notes=(_fixed_agg("trl", "token-mean", "TRL's loss_type='vespo'"),),
        follows_paper={
            "en": "rlviz picks k and λ by the sign of the response's mean advantage, as the paper describes the "
            "weight per response (TRL: by each token's advantage, the same for one advantage per response); the "
            "authors' released code reads the sign of the response's first token's advantage.",
            "zh": "rlviz 按回答平均优势的符号选择 k 与 λ，与论文按回答定义权重的描述一致（TRL 按每个 token 的优势，"
            "每条回答一个优势时相同）；作者发布的代码读取回答第一个 token 的优势符号。",
        },
    ),
    AlgorithmSpec(
        name="luspo",
        title="LUSPO",
        paper="LUSPO 2026, Length-Unbiased Sequence Policy Optimization",
        arxiv="2602.05261",
        equation="LUSPO objective",
        parent="gspo",
        summary={
            "zh": "GSPO 的序列裁剪，但每条回答的项乘以它的长度：长回答不再因平均而被低估。",
            "en": "GSPO's sequence clip with each response's term multiplied by its length, so long responses are not averaged down.",
        },
        changes={
            "zh": "聚合从 seq-mean-token-mean 改为 seq-mean-token-sum（|o_i|·λ_i 的平均）。",
            "en": "Aggregation moves from seq-mean-token-mean to seq-mean-token-sum (the mean of |o_i|·λ_i).",
        },
        latex=r"\lambda_i=-\min\big(s_iA_i,\ \operatorname{clip}(s_i,1-\varepsilon_\text{low},1+\varepsilon_\text{high})A_i\big),\quad \mathcal L=\frac1G\sum_i|o_i|\,\lambda_i",
        ratio_level="sequence",
        loss_settings=(
            *_eps(3e-4, 4e-4, _LUSPO + " (GSPO's 3e-4, 4e-4)", choices=_GSPO_EPS),
            _agg("seq-mean-token-sum", _LUSPO + " (mean over responses of |o_i| x the sequence term)"),
            *_kl(0.0, _LUSPO + " (β = 0)"),
        ),
        train_settings=(*_adv("group", "group", _LUSPO), *_shaping(False, False, False, "not in LUSPO")),
        surrogate=_gspo,
        trl={"loss_type": "luspo", "importance_sampling_level": "sequence"},
        verl=None,
        framework_notes=(_fixed_agg("trl", "seq-mean-token-sum", "TRL's loss_type='luspo'"),),
    ),
    AlgorithmSpec(
        name="m2po",
        title="M2PO",
        paper="Zheng, Zhao, Chen 2025, Prosperity before Collapse",
        arxiv="2510.01161",
        equation="§5, Algorithm 1",
        parent="grpo",
        summary={
            "zh": "不裁剪单个比率，而限制整批 log 比率的二阶矩：只屏蔽最极端的少数 token，适合陈旧（离策略）数据。",
            "en": "No per-token ratio clip: bound the batch's second moment of the log-ratio, masking only the most extreme tokens (stale, off-policy data).",
        },
        changes={
            "zh": "在优势推动方向上 l² 最大的 token 依次被屏蔽，直到剩余的 l² 均值 ≤ τ = 0.04。",
            "en": "Tokens pushed further by their advantage are masked, largest l² first, until the mean l² of the rest is ≤ τ = 0.04.",
        },
        latex=r"\lambda_{i,t}=-M_{i,t}\,r_{i,t}A_{i,t},\quad M=\text{drop the largest }l^2\text{ where }A\,l>0\text{ until }\overline{l^2}\le\tau_{M_2},\ l=\log r",
        ratio_level="token",
        loss_settings=(
            Setting(
                "m2_threshold",
                0.04,
                _M2PO + " (τ_M2 = 0.04)",
                help={
                    "zh": "二阶矩阈值 τ_M2（l² 的均值上限）",
                    "en": "second-moment threshold τ_M2 (bound on the mean l²)",
                },
            ),
            _agg("token-mean", _M2PO + " (normalised by every valid token)"),
            *_kl(0.0, _M2PO + " (no KL)"),
        ),
        train_settings=(*_adv("group", "group", _M2PO), *_shaping(False, False, False, "not in M2PO")),
        surrogate=_m2po,
        monotone=False,
        batch_coupled=True,
        clip_space=None,
        trl=None,
        verl=None,
        follows_paper={
            "en": "rlviz masks the largest second moments l² until the mean of those kept is within τ, as the "
            "paper's Algorithm 1 (and AReaL and Trinity-RFT) describe; the authors' released code instead caps "
            "the second moment and hard-clips the ratio at a breakpoint.",
            "zh": "rlviz 依次屏蔽 l² 最大的 token，直到保留者的均值不超过 τ，与论文算法 1（及 AReaL、Trinity-RFT）"
            "的描述一致；作者发布的代码则是给二阶矩设上限，并在一个断点处硬裁剪比率。",
        },
        framework_notes=(
            FrameworkNote(
                "verl",
                {
                    "en": "Neither TRL nor verl ships M2PO. Implementations disagree on which tokens may be "
                    "masked: AReaL (docs/en/algorithms/m2po.md) drops the largest l² among all tokens; the paper's "
                    "Algorithm 1 (as Trinity-RFT reads it, and rlviz) only among those whose advantage pushes the "
                    "ratio further from 1, the tokens a PPO clip could act on.",
                    "zh": "TRL 与 verl 都没有 M2PO。各实现对可屏蔽的 token 看法不同：AReaL（docs/en/algorithms/m2po.md）"
                    "在全部 token 中去掉 l² 最大者；论文的算法 1（按 Trinity-RFT 的理解，rlviz 同此）只在优势把比率推离 1 "
                    "的 token（PPO 裁剪可能作用的那些）中选。",
                },
            ),
        ),
    ),
    AlgorithmSpec(
        name="aspo",
        title="ASPO",
        paper="Wang et al. 2025, Asymmetric Importance Sampling Policy Optimization",
        arxiv="2510.06062",
        equation="§4",
        parent="grpo",
        summary={
            "zh": "正优势 token 的重要性比率取倒数：低概率 token 权重更大、已高概率的更小；越界时用软双重裁剪限幅但保留梯度。",
            "en": "Flip the importance ratio of positive-advantage tokens: rare tokens weigh more, already likely ones less; a soft dual clip caps extreme weights but keeps their gradient.",
        },
        changes={
            "zh": "A>0 时权重为 1/r（PPO 的上裁剪仍在），低于 r = 1/c 限幅为 c；A<0 时超过 r = c 限幅为 c 而非清零。",
            "en": "A > 0 weighs 1/r (PPO's upper clip kept), capped at c below r = 1/c; A < 0 is capped at c above r = c instead of zeroed.",
        },
        latex=r"\nabla\lambda_{i,t}=-w_{i,t}A_i\nabla\log\pi_\theta,\quad "
        r"w_{i,t}=\begin{cases}\min(1/r,c)&A>0,\,r\le1+\varepsilon_\text{h}\\"
        r"\min(r,c)&A<0,\,r\ge1-\varepsilon_\text{l}\\0&\text{else}\end{cases}",
        ratio_level="token",
        loss_settings=(
            *_eps(0.2, 0.2, _ASPO + " (ε = 0.2 for the low-entropy tokens)"),
            Setting(
                "aspo_dual_c",
                3.0,
                _ASPO + " (positive_clip_ratio_c = negative_clip_ratio_c = 3)",
                help={
                    "zh": "软双重裁剪 c：权重上限（A>0 时 1/r，A<0 时 r）",
                    "en": "soft dual clip c: the cap on the weight (1/r for A>0, r for A<0)",
                },
                surrogate=True,
                range=(1.1, 10.0, 0.1),
            ),
            Setting(
                "aspo_wide_epsilon",
                0.4,
                _ASPO + " (high_entropy_clip_ratio_low / _high = 0.4)",
                help={
                    "zh": "高熵 token 的裁剪 ε（两侧）",
                    "en": "clip ε of the high-entropy tokens (both sides)",
                },
            ),
            Setting(
                "aspo_entropy_quantile",
                0.8,
                _ASPO + " (token_entropy_quantile = 0.8, per response)",
                help={
                    "zh": "熵分位数：每个回答中熵高于它的 token 用宽的 ε",
                    "en": "entropy quantile: in each response, tokens above it get the wide ε",
                },
            ),
            _agg("token-mean", _ASPO + " (loss_agg_mode = token-mean)"),
            *_kl(0.001, _ASPO + " (use_kl_loss, kl_loss_coef = 0.001, low_var_kl)"),
        ),
        train_settings=(
            *_adv("group", "group", _ASPO + " (adv_estimator = grpo)"),
            *_shaping(True, False, False, _ASPO + " (overlong buffer on, no overlong or group filter)"),
        ),
        surrogate=_aspo,
        style={"color": "#AA3377", "dash": "dashdot"},
        trust_region=frozenset({"clipped", "capped"}),
        monotone=False,
        detached_weight=True,
        reads_entropy=True,
        trl=None,
        verl=None,
        framework_notes=(
            FrameworkNote(
                "verl",
                {
                    "en": "Neither TRL nor verl ships ASPO; its official code is a verl fork (Archer2.0). There "
                    "the mask called high_entropy_mask holds each response's tokens at or below its 0.8 entropy "
                    "quantile, which get ε = 0.2; the top 20% get 0.4 (rlviz names them the other way round, "
                    "by what they are). At a capped token its loss value is -A c log π, rlviz's -A c: the "
                    "gradient is the same.",
                    "zh": "TRL 与 verl 都没有 ASPO；官方代码是 verl 的分支（Archer2.0）。其中名为 high_entropy_mask "
                    "的掩码装的是每个回答中熵不超过 0.8 分位数的 token（ε = 0.2），熵最高的 20% 用 0.4"
                    "（rlviz 按实际含义命名）。被限幅的 token 官方损失值为 -A c log π，rlviz 为 -A c，梯度相同。",
                },
            ),
        ),
    ),
    AlgorithmSpec(
        name="gpg",
        title="GPG",
        paper="Chu et al. 2025, GPG: A Simple and Strong Reinforcement Learning Baseline for Model Reasoning",
        arxiv="2504.02546",
        equation="the GPG objective (−A log π, no ratio)",
        parent="grpo",
        summary={
            "zh": "最朴素的策略梯度：直接最小化 −A·log π，没有重要性比率、没有裁剪、没有 KL。",
            "en": "The plain policy gradient: minimise −A·log π, with no importance ratio, no clip and no KL.",
        },
        changes={
            "zh": "去掉 GRPO 的比率与裁剪（每批样本只更新一次时二者本就不起作用），优势只减组内均值，再按批次里非零奖励的比例放大（GPG 优势估计器）。",
            "en": "Drops GRPO's ratio and clip (idle anyway with one update per batch); advantages subtract the group mean "
            "and are scaled up by the batch's share of non-zero rewards (the GPG advantage estimator).",
        },
        latex=r"\lambda_{i,t}=-A_{i,t}\log\pi_\theta(y_{i,t}),\quad \mathcal L=\frac{1}{\sum_i|o_i|}\sum_{i,t}\lambda_{i,t}",
        ratio_level="token",
        loss_settings=(
            _agg("token-mean", _GPG + " (token-level mean; verl's default loss_agg_mode)"),
            *_kl(0.0, _GPG + " (no KL term)"),
        ),
        train_settings=(
            *_adv("group", "none", _GPG + " (group mean only, no std; the α scale: adv_estimator = gpg)"),
            *_shaping(False, False, False, "not in GPG"),
        ),
        surrogate=_gpg,
        trust_region=frozenset(),
        clip_space=None,
        detached_weight=True,
        trl=None,
        verl={_LOSS_MODE: "gpg"},  # core_algos.py @register_policy_loss("gpg")
    ),
    AlgorithmSpec(
        name="dro",
        title="DRO (verl)",
        paper="verl 0.9.1, loss_mode dro (after Richemond et al. 2024, Direct Reward Optimisation)",
        arxiv="2405.19107",
        equation="verl compute_policy_loss_dro (quadratic log-ratio penalty)",
        parent="gpg",
        summary={
            "zh": "朴素策略梯度 −A·log π 加上二次惩罚 (β/2)(log π − log π_old)²：不裁剪，用平滑的拉力代替信任域。",
            "en": "The plain policy gradient −A·log π plus a quadratic penalty (β/2)(log π − log π_old)²: no clip, a smooth pull instead of a trust region.",
        },
        changes={
            "zh": "梯度为 −A + β·log r：token 的对数比率超过 A/β 后惩罚占上风，把它往回拉。论文的 DRO 还有价值函数和参考策略；这里按 verl 的实现。",
            "en": "The gradient is −A + β·log r: once a token's log-ratio passes A/β the penalty wins and pulls it back. "
            "The paper's DRO also has a value function and a reference policy; this is verl's implementation.",
        },
        latex=r"\lambda_{i,t}=-A_{i,t}\log\pi_\theta(y_{i,t})+\frac{\beta}{2}\big(\log\pi_\theta(y_{i,t})-\log\pi_{\theta_\text{old}}(y_{i,t})\big)^2",
        ratio_level="token",
        loss_settings=(
            Setting(
                "dro_beta",
                1.0,
                _DRO + " (dro_beta: null, must be > 0: verl ships no value; 1.0 is rlviz's choice)",
                verl="actor.policy_loss.dro_beta",
                help={
                    "zh": "β：对数比率二次惩罚的系数（必须 > 0）",
                    "en": "β: coefficient of the quadratic log-ratio penalty (must be > 0)",
                },
                surrogate=True,
                range=(0.05, 5.0, 0.05),
            ),
            _agg("token-mean", _DRO + " (verl's default loss_agg_mode)"),
            *_kl(0.0, _DRO + " (use_kl_loss = False)"),
        ),
        train_settings=(
            *_adv("group", "group", _DRO + " (GRPO advantages)"),
            *_shaping(False, False, False, "not in DRO"),
        ),
        surrogate=_dro,
        trust_region=frozenset(),
        clip_space=None,
        monotone=False,
        detached_weight=True,
        trl=None,
        verl={_LOSS_MODE: "dro"},  # core_algos.py @register_policy_loss("dro")
    ),
    AlgorithmSpec(
        name="bypass_pg",
        title="Bypass REINFORCE (verl)",
        paper="REINFORCE for LLMs (Ahmadian et al. 2024, Back to Basics) with the truncated sequence IS weight of "
        "Liu, Li et al. 2025, When Speed Kills Stability (blog, richardli.xyz/rl-collapse), as verl 0.9.1's bypass mode",
        arxiv="2402.14740",
        equation="verl compute_policy_loss_bypass_mode (loss_type = reinforce)",
        parent="gpg",
        summary={
            "zh": "verl 的 bypass 模式：采样端的 log-prob 直接充当 π_old，损失是带截断重要性权重的 REINFORCE：−sg[min(ρ, C)]·A·log π。",
            "en": "verl's bypass mode: the sampler's log-probs stand in for π_old, and the loss is REINFORCE with a truncated "
            "importance weight: −sg[min(ρ, C)]·A·log π.",
        },
        changes={
            "zh": "省掉训练端重算 π_old；ρ 可按整条回答（默认，比率之积）或按 token 计算，超过 C 的权重被截顶但梯度保留。",
            "en": "Skips the trainer's recompute of π_old; ρ is per response (the default: the product of the ratios) or per "
            "token, and a weight above C is capped with its gradient kept.",
        },
        latex=r"\lambda_{i,t}=-\operatorname{sg}\big[\min(\rho_i,C)\big]A_{i,t}\log\pi_\theta(y_{i,t}),\quad "
        r"\rho_i=\prod_t r_{i,t},\quad " + _R,
        ratio_level="sequence",
        loss_settings=(
            Setting(
                "bypass_is_level",
                "sequence",
                _BYPASS + " (RolloutCorrectionConfig.bypass_pg_is: rollout_is = 'sequence')",
                verl=f"{_RC}.rollout_is",
                help={
                    "zh": "重要性权重 ρ 的层级：sequence（整条回答比率之积）或 token（每个 token 自己的比率）",
                    "en": "level of the importance weight ρ: sequence (the product of a response's ratios) or token "
                    "(each token's own ratio)",
                },
                choices=("sequence", "token"),
            ),
            Setting(
                "bypass_is_cap",
                2.0,
                _BYPASS + " (rollout_is_threshold = 2.0, bypass_pg_is)",
                verl=f"{_RC}.rollout_is_threshold",
                help={"zh": "截断上限 C（min(ρ, C)）", "en": "truncation cap C (min(ρ, C))"},
                surrogate=True,
                range=(1.0, 10.0, 0.1),
            ),
            _agg("token-mean", _BYPASS + " (the actor's loss_agg_mode, token-mean by default)"),
            *_kl(0.0, _BYPASS + " (use_kl_loss = False)"),
        ),
        train_settings=(
            *_adv("group", "group", _BYPASS + " (GRPO advantages)"),
            *_shaping(False, False, False, "not in verl's bypass mode"),
        ),
        surrogate=_bypass_pg,
        trust_region=frozenset({"capped"}),
        clip_space=None,
        detached_weight=True,
        trl=None,
        # verl: rollout_corr_helper.apply_bypass_mode sets old_log_probs = rollout_log_probs and loss_mode = bypass_mode
        verl={_LOSS_MODE: "bypass_mode", f"{_RC}.bypass_mode": True, f"{_RC}.loss_type": "reinforce"},
        framework_notes=(
            FrameworkNote(
                "verl",
                {
                    "en": "verl's bypass mode passes the sampler's (vLLM's) log-probs as π_old, so ρ is π over the "
                    "sampler; rlviz's trainer passes its own π_old, the same when the sampler matches the trainer. "
                    "verl's loss value is −sg[w]·A·log π, rlviz's −A·w: the same gradient.",
                    "zh": "verl 的 bypass 模式把采样端（vLLM）的 log-prob 当作 π_old，所以 ρ 是 π 对采样端的比率；rlviz 的训练器"
                    "传入它自己的 π_old，采样端与训练端一致时二者相同。verl 的损失值是 −sg[w]·A·log π，rlviz 是 −A·w：梯度相同。",
                },
            ),
        ),
    ),
]

ALGORITHMS: dict[str, AlgorithmSpec] = {spec.name: spec for spec in _SPECS}


def get_algorithm(name: str) -> AlgorithmSpec:
    """The spec registered as ``name``. Raises ``ValueError`` naming ``name`` if unknown."""
    if not isinstance(name, str) or name not in ALGORITHMS:
        raise ValueError(f"name: unknown algorithm {name!r:.60}; known: {', '.join(ALGORITHMS)}")
    return ALGORITHMS[name]


def check_types(defaults: dict[str, Any], values: dict[str, Any], optional: frozenset[str] = frozenset()) -> None:
    """Each value must have its default's type: a finite number for a number (or ``None`` where the
    default is ``None`` or the setting is in ``optional``: None = off), a bool for a bool, a string
    for a string. Raises ``ValueError`` naming it."""
    for key, value in values.items():
        default = defaults[key]
        if value is None and key in optional:
            continue
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"{key}: must be true or false, got {value!r}")
        elif isinstance(default, str):
            if not isinstance(value, str):
                raise ValueError(f"{key}: must be one of the named choices, got {value!r}")
        elif value is not None or default is not None:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{key}: must be a number, got {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"{key}: must be finite, got {value}")


# the largest magnitude a numeric loss setting may take (beyond it the loss overflows float32), and the
# smallest gate temperature (SAPO's gradient scales by 4 / tau)
MAX_SETTING = 1e12
MIN_TEMPERATURE = 1e-6


def resolve_settings(name: str, **overrides) -> dict[str, Any]:
    """The loss settings of ``name`` with ``overrides`` applied and checked.

    Raises:
        ValueError: naming the parameter, for an unknown name, an ε below zero, a dual-clip c not
            above 1, a temperature below ``MIN_TEMPERATURE``, a negative β, an unknown
            ``loss_agg_mode`` or ``kl_estimator``, a ``norm_length`` not above 0, any NaN / inf, or
            any number larger than ``MAX_SETTING`` in size.
    """
    spec = get_algorithm(name)
    params = spec.defaults
    for key, value in overrides.items():
        if key not in params:
            raise ValueError(f"{key}: not a setting of {name} (settings: {', '.join(params)})")
        params[key] = value
    check_types(spec.defaults, params, frozenset(s.name for s in spec.loss_settings if s.optional))
    for key, value in params.items():  # a typed 1e300 overflows the loss: say so, naming the setting
        if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) > MAX_SETTING:
            raise ValueError(
                f"{key}: must be at most {MAX_SETTING:g} in size, got {value:g} (larger values overflow the loss)"
            )
    for key in ("epsilon_low", "epsilon_high"):
        if key in params and params[key] < 0:
            raise ValueError(f"{key}: must be >= 0, got {params[key]}")
    if params.get("dual_clip_c") is not None and params["dual_clip_c"] <= 1:
        raise ValueError(f"dual_clip_c: must be > 1 (or None), got {params['dual_clip_c']}")
    for key in (
        "vespo_k_pos",
        "vespo_lambda_pos",
        "vespo_k_neg",
        "vespo_lambda_neg",
        "tis_cap",
        "gppo_beta1",
        "gppo_beta2",
        "dro_beta",
        "bypass_is_cap",
    ):
        if key in params and params[key] <= 0:
            raise ValueError(f"{key}: must be > 0, got {params[key]}")
    if params.get("aspo_dual_c") is not None and params["aspo_dual_c"] <= 1:
        raise ValueError(f"aspo_dual_c: must be > 1, got {params['aspo_dual_c']}")
    if "aspo_wide_epsilon" in params and params["aspo_wide_epsilon"] < 0:
        raise ValueError(f"aspo_wide_epsilon: must be >= 0, got {params['aspo_wide_epsilon']}")
    if "aspo_entropy_quantile" in params and not 0 < params["aspo_entropy_quantile"] <= 1:
        raise ValueError(f"aspo_entropy_quantile: must be in (0, 1], got {params['aspo_entropy_quantile']}")
    for key in ("ppo_kl_coef", "m2_threshold"):
        if key in params and params[key] < 0:
            raise ValueError(f"{key}: must be >= 0, got {params[key]}")
    for key in ("clip_cov_ratio", "kl_cov_ratio"):
        if key in params and not 0 < params[key] <= 1:
            raise ValueError(f"{key}: must be in (0, 1], got {params[key]}")
    if "clip_cov_lb" in params and params["clip_cov_lb"] >= params["clip_cov_ub"]:
        raise ValueError(
            f"clip_cov_lb: must be below clip_cov_ub = {params['clip_cov_ub']}, got {params['clip_cov_lb']}"
        )
    for key in ("tau_pos", "tau_neg"):
        if key in params and params[key] < MIN_TEMPERATURE:  # SAPO's gate scales by 4 / tau
            raise ValueError(f"{key}: must be at least {MIN_TEMPERATURE:g}, got {params[key]:g}")
    if "bypass_is_level" in params and params["bypass_is_level"] not in ("sequence", "token"):
        raise ValueError(f"bypass_is_level: must be 'sequence' or 'token', got {params['bypass_is_level']!r:.60}")
    if "bypass_is_cap" in params and params["bypass_is_cap"] < 1:
        raise ValueError(f"bypass_is_cap: must be >= 1, got {params['bypass_is_cap']}")
    if params["loss_agg_mode"] not in LOSS_AGG_MODES:
        raise ValueError(f"loss_agg_mode: {params['loss_agg_mode']!r} is not one of {', '.join(LOSS_AGG_MODES)}")
    if params.get("norm_length") is not None and params["norm_length"] <= 0:
        raise ValueError(f"norm_length: must be > 0, got {params['norm_length']}")
    if params["beta"] < 0:
        raise ValueError(f"beta: must be >= 0, got {params['beta']}")
    if params["kl_estimator"] not in KL_ESTIMATORS:
        raise ValueError(f"kl_estimator: {params['kl_estimator']!r} is not one of {', '.join(KL_ESTIMATORS)}")
    return params


def _check_inputs(log_prob, old_log_prob, advantages, response_mask, ref_log_prob, keep_mask, entropy):
    """The inputs of :func:`policy_loss` as tensors, checked: ``(tensors..., real [B, T], adv [B, T])``."""
    log_prob = check_tensor(log_prob, "log_prob")
    old_log_prob = check_tensor(old_log_prob, "old_log_prob")
    advantages = check_tensor(advantages, "advantages")
    response_mask = check_tensor(response_mask, "response_mask", floating=False)
    ref_log_prob = None if ref_log_prob is None else check_tensor(ref_log_prob, "ref_log_prob")
    keep_mask = None if keep_mask is None else check_tensor(keep_mask, "keep_mask", floating=False)
    entropy = None if entropy is None else check_tensor(entropy, "entropy")
    if log_prob.dim() != 2:
        raise ValueError(f"log_prob: expected shape [B, T], got {tuple(log_prob.shape)}")
    for label, x in (
        ("old_log_prob", old_log_prob),
        ("response_mask", response_mask),
        ("ref_log_prob", ref_log_prob),
        ("keep_mask", keep_mask),
        ("entropy", entropy),
    ):
        if x is not None and x.shape != log_prob.shape:
            raise ValueError(f"{label}: shape {tuple(x.shape)} differs from log_prob {tuple(log_prob.shape)}")
    if advantages.shape not in (log_prob.shape[:1], log_prob.shape):
        raise ValueError(f"advantages: expected [B] or [B, T] = {tuple(log_prob.shape)}, got {tuple(advantages.shape)}")
    real = response_mask > 0
    adv = advantages[:, None].expand_as(log_prob) if advantages.dim() == 1 else advantages
    for label, x in (
        ("log_prob", log_prob),
        ("old_log_prob", old_log_prob),
        ("advantages", adv),
        ("ref_log_prob", ref_log_prob),
        ("keep_mask", keep_mask),
        ("entropy", entropy),
    ):
        if x is not None and not bool(torch.isfinite(x.detach()[real]).all()):
            raise ValueError(f"{label}: contains NaN or inf at response tokens")
    return log_prob, old_log_prob, ref_log_prob, keep_mask, entropy, real, adv


def _overflow(spec, params, surrogate_args, adv, real, dtype) -> ValueError:
    """The error for a per-token surrogate that is not finite at a real token, naming the culprit:
    ``advantages`` where the surrogate is finite with |A| = 1, else the first surrogate setting whose
    default value makes it finite (a temperature of 1e-40 divides by it), else ``log_prob``."""
    log_ratio, mask, ctx = surrogate_args
    unit = torch.sign(adv)

    def finite(p):
        try:
            out = spec.surrogate(log_ratio.detach(), unit, mask, p, **ctx)[0]
        except (ValueError, RuntimeError):
            return False
        return bool(torch.isfinite(out.detach()[real]).all())

    if finite(params):
        amax = float(adv.detach().abs().max())
        return ValueError(
            f"advantages: the per-token loss of {spec.name} overflows {dtype} with |A| up to {amax:.3g}; "
            "scale the advantages down or pass float64 log-probs"
        )
    for setting in spec.loss_settings:
        trial = dict(params, **{setting.name: setting.default})
        if params.get(setting.name) != setting.default and finite(trial):
            return ValueError(
                f"{setting.name}: {params[setting.name]!r} makes the per-token loss of {spec.name} overflow "
                f"{dtype} (default {setting.default!r})"
            )
    return ValueError(f"log_prob: the per-token loss of {spec.name} is not finite in {dtype} for these inputs")


def policy_loss(
    name: str,
    log_prob: torch.Tensor,
    old_log_prob: torch.Tensor,
    advantages: torch.Tensor,
    response_mask: torch.Tensor,
    ref_log_prob: torch.Tensor | None = None,
    rows_alone: bool = False,
    keep_mask: torch.Tensor | None = None,
    entropy: torch.Tensor | None = None,
    **overrides,
) -> PolicyLossOutput:
    """The policy loss of algorithm ``name`` (one of ``ALGORITHMS``), aggregated to a scalar.

    Args:
        name: ``ppo``, ``grpo``, ``dr_grpo``, ``dapo``, ``gspo``, ``gspo_token``, ``gmpo``,
            ``sapo`` or ``cispo``.
        log_prob: [B, T] log pi_theta of the sampled tokens (nats), differentiable.
        old_log_prob: [B, T] log pi_old of the same tokens (the sampling policy).
        advantages: [B] (one per response) or [B, T] (per token).
        response_mask: [B, T], 1 for real response tokens, 0 for padding. Padding may hold any
            junk (NaN included): it never reaches the loss or the gradient.
        ref_log_prob: [B, T] log pi_ref for the KL term; needed when ``beta > 0``.
        **overrides: the algorithm's settings (see ``ALGORITHMS[name].loss_settings``):
            ``epsilon_low``, ``epsilon_high`` (offsets from 1; log-space bounds for GMPO),
            ``dual_clip_c``, ``tau_pos``, ``tau_neg``, ``loss_agg_mode``, ``norm_length``,
            ``beta``, ``kl_estimator``.
        rows_alone: each response is its own batch for a batch-coupled objective's selection
            (``AlgorithmSpec.batch_coupled``: Clip-Cov, KL-Cov, M2PO), as when a curve describes
            one lone token per point; the aggregation is unchanged. No effect on the others.
        keep_mask: [B, T] (bool or 0/1), a token mask that applies to any objective
            (:mod:`rlviz.core.masks`: the high-entropy mask, the off-policy sequence mask): the
            per-token policy loss is multiplied by it before aggregation, whose normaliser is
            unchanged, and the KL term is not masked (TRL ``GRPOTrainer._compute_loss``).
            ``None``: every token.
        entropy: [B, T] the policy's entropy at each response position (nats), read only by an
            objective with ``AlgorithmSpec.reads_entropy`` (ASPO's band); ``None``: every token
            counts as low-entropy. Detached.

    Returns:
        :class:`PolicyLossOutput`. ``loss = sum(token_weight * per_token_loss)``. Computed in the
        dtype of ``log_prob``, at least float32: float16 and bfloat16 log-probs give float32 tensors
        (``exp`` of a log-ratio above 11.1 overflows float16). The gradient autograd sends back to a
        float16 ``log_prob`` is cast to float16 and can still overflow there (a per-token gradient
        above 65504); :func:`gradient_weights` returns it in float32.

    Raises:
        ValueError: naming the parameter: unknown ``name`` or setting, out-of-range setting, an
            input not a tensor of numbers, shape mismatch, NaN / inf at a response token (in any
            input, ``keep_mask`` and ``entropy`` included), ``beta > 0`` without ``ref_log_prob``,
            ``rows_alone`` not a bool; a loss that overflows its dtype (naming ``advantages``, ``beta``
            or the setting that makes it overflow: :data:`MAX_SETTING` and :data:`MIN_TEMPERATURE`
            keep today's settings within float32, the check covers any later one).

    Sources: PPO arXiv 1707.06347 eq. 7; GRPO arXiv 2402.03300 eq. 3; DAPO arXiv 2503.14476;
    Dr.GRPO arXiv 2503.20783; GSPO arXiv 2507.18071 eq. 5; GMPO arXiv 2507.20673; SAPO arXiv
    2511.20347; CISPO arXiv 2506.13585. Conventions: ``shared/reference/algorithms.md``.
    """
    spec = get_algorithm(name)
    params = resolve_settings(name, **overrides)
    rows_alone = check_flag(rows_alone, "rows_alone")
    log_prob, old_log_prob, ref_log_prob, keep_mask, entropy, real, adv = _check_inputs(
        log_prob, old_log_prob, advantages, response_mask, ref_log_prob, keep_mask, entropy
    )
    if params["beta"] > 0 and ref_log_prob is None:
        raise ValueError("ref_log_prob: required when beta > 0")
    dtype = compute_dtype(log_prob)  # exp(l) overflows float16 at l = 11.1: at least float32
    log_prob = log_prob.to(dtype)
    mask = real.to(dtype)
    zero = torch.zeros_like(log_prob)
    # Neutralise padding before any arithmetic so junk never reaches values or gradients.
    lp = torch.where(real, log_prob, zero)
    old = torch.where(real, old_log_prob.to(dtype), zero)
    adv = torch.where(real, adv.to(dtype), zero)
    raw_log_ratio = lp - old  # (B, T), 0 at padding
    if not bool(torch.isfinite(raw_log_ratio.detach()).all()):
        raise ValueError(f"log_prob: log_prob - old_log_prob overflows {dtype} at a response token")
    log_ratio = raw_log_ratio.clamp(-LOG_RATIO_CLAMP, LOG_RATIO_CLAMP)  # (B, T): a token ratio's exp() guard

    ctx = dict(log_prob=lp, old_log_prob=old, alone=rows_alone, entropy=entropy, raw_log_ratio=raw_log_ratio)
    per_token, ratio, low, high, dual, gate = spec.surrogate(log_ratio, adv, mask, params, **ctx)
    if not bool(torch.isfinite(per_token.detach()[real]).all()):
        raise _overflow(spec, params, (log_ratio, mask, ctx), adv, real, dtype)
    if keep_mask is not None:
        keep = torch.where(real, keep_mask.to(dtype), zero)
        per_token = per_token * (keep * mask)
    kl_mean = None
    if ref_log_prob is not None:
        ref = torch.where(real, ref_log_prob.to(dtype), zero)
        kl = kl_estimate(lp, ref, params["kl_estimator"], old_log_prob=old)  # (B, T); k3_bc reads old
        kl_mean = float(masked_mean(kl.detach(), mask))
        if params["beta"] > 0:
            per_token = per_token + params["beta"] * kl
            if not bool(torch.isfinite(per_token.detach()[real]).all()):
                raise ValueError(f"beta: beta = {params['beta']:g} times the KL term overflows {dtype}")
    per_token = torch.where(real, per_token, zero)
    try:
        loss = aggregate(per_token, mask, params["loss_agg_mode"], params.get("norm_length"))
    except ValueError as err:
        if not str(err).startswith("per_token_loss:"):
            raise
        culprit = "beta" if params["beta"] > 0 else "advantages"
        raise ValueError(f"{culprit}: the aggregated loss of {name} overflows {dtype}; scale it down") from None

    n_real = max(int(real.sum()), 1)
    low, high, dual = low & real, high & real, dual & real
    clipped = low | high | dual

    def frac(x):
        return float(x.sum()) / n_real

    return PolicyLossOutput(
        loss=loss,
        per_token_loss=per_token,
        token_weight=token_weights(mask, params["loss_agg_mode"], params.get("norm_length")),
        ratio=torch.where(real, ratio.detach(), torch.ones_like(zero)),
        clipped=clipped,
        gate_weight=None if gate is None else torch.where(real, gate, zero),
        clip_fraction=frac(clipped),
        clip_fraction_low=frac(low),
        clip_fraction_high=frac(high),
        clip_fraction_dual=frac(dual),
        kl=kl_mean,
        dual=dual,
    )


def trust_band(name: str, **overrides) -> tuple[float, float] | None:
    """The ratio interval ``(low, high)`` that ``name``'s clip keeps (its trust region as a band):
    ``(max(0, 1 - ε_low), 1 + ε_high)`` where ``clip_space == "ratio"``, ``(e^-ε_low, e^ε_high)``
    where it is ``"log"`` (GMPO), ``None`` without a band (SAPO's soft gate).

    Raises ``ValueError`` as :func:`resolve_settings` (unknown name or setting, ε below zero, ...).
    Sources: PPO arXiv 1707.06347 eq. 7; GMPO arXiv 2507.20673 (log-space clip).
    """
    spec = get_algorithm(name)
    params = resolve_settings(name, **overrides)
    if spec.clip_space is None or "epsilon_low" not in params:
        return None
    if spec.clip_space == "log":
        return math.exp(-params["epsilon_low"]), math.exp(params["epsilon_high"])
    return max(0.0, 1.0 - params["epsilon_low"]), 1.0 + params["epsilon_high"]


def token_states(name: str, out: PolicyLossOutput, response_mask: torch.Tensor | None = None) -> np.ndarray:
    """What the trust region did to each token, in the app's one vocabulary (``TOKEN_STATES``).

    Args:
        name: the algorithm whose :func:`policy_loss` produced ``out``.
        out: that output ([B, T] ``clipped`` and ``gate_weight``).
        response_mask: [B, T]; tokens with 0 (padding, overlong-filtered) are ``"masked"``.

    Returns:
        [B, T] array of strings: ``"masked"``; else, where the clip acted, ``"capped"`` for an
        objective whose trust region caps the weight (``"capped" in spec.trust_region``) and
        ``"clipped"`` (zero gradient) otherwise; else ``"gated"`` where a soft gate weighs the
        token below ``GATE_ACTIVE_BELOW``; else ``"active"``. An objective with both kinds (ASPO:
        a hard band and a soft dual clip) is ``"capped"`` where its dual clip acted, ``"clipped"``
        where its band did. Decided from the spec, never the name.

    Raises ``ValueError`` for an unknown ``name``, an ``out`` that is not a :class:`PolicyLossOutput`,
    or a ``response_mask`` that is not a tensor of ``out``'s shape.
    """
    spec = get_algorithm(name)
    if not isinstance(out, PolicyLossOutput):
        raise ValueError(f"out: expected the PolicyLossOutput of policy_loss, got {type(out).__name__}")
    if response_mask is not None:
        response_mask = check_tensor(response_mask, "response_mask", floating=False)
        if response_mask.shape != out.clipped.shape:
            raise ValueError(
                f"response_mask: shape {tuple(response_mask.shape)} differs from {tuple(out.clipped.shape)}"
            )
    clipped = out.clipped.detach().cpu().numpy().astype(bool)
    hit = "capped" if "capped" in spec.trust_region else "clipped"
    states = np.where(clipped, hit, "active").astype(object)
    if {"capped", "clipped"} <= spec.trust_region:  # both (ASPO): the dual clip caps, the band clips
        dual = out.dual.detach().cpu().numpy().astype(bool)
        states = np.where(clipped & ~dual, "clipped", states)
    if out.gate_weight is not None:
        gate = out.gate_weight.detach().cpu().numpy()
        states = np.where(~clipped & (gate < GATE_ACTIVE_BELOW), "gated", states)
    if response_mask is not None:
        states = np.where(response_mask.detach().cpu().numpy() > 0, states, "masked")
    return states


def gradient_weights(
    name: str,
    log_prob: torch.Tensor,
    old_log_prob: torch.Tensor,
    advantages: torch.Tensor,
    response_mask: torch.Tensor,
    ref_log_prob: torch.Tensor | None = None,
    rows_alone: bool = False,
    **overrides,
) -> tuple[torch.Tensor, PolicyLossOutput]:
    """d loss / d log_prob per token, by autograd through :func:`policy_loss`.

    This is what multiplies grad log pi(y_t) in the update (negative = the token is pushed up).
    Shapes and ``rows_alone`` as :func:`policy_loss`; returns ``(grad [B, T] detached, 0 at padding, output)``,
    the gradient in the dtype of ``log_prob``, at least float32 (as the loss).
    Raises ``ValueError`` as :func:`policy_loss`.
    """
    get_algorithm(name)
    log_prob = check_tensor(log_prob, "log_prob")
    old_log_prob = check_tensor(old_log_prob, "old_log_prob")
    advantages = check_tensor(advantages, "advantages")
    lp = log_prob.detach().to(compute_dtype(log_prob)).clone().requires_grad_(True)
    out = policy_loss(
        name,
        lp,
        old_log_prob.detach(),
        advantages.detach(),
        response_mask,
        None if ref_log_prob is None else check_tensor(ref_log_prob, "ref_log_prob").detach(),
        rows_alone=rows_alone,
        **overrides,
    )
    (grad,) = torch.autograd.grad(out.loss, lp, allow_unused=True)
    if grad is None:
        grad = torch.zeros_like(lp)
    return grad.detach(), out
