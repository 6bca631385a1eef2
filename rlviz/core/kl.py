"""KL estimators between the policy and a frozen reference, per token: one registry, ``KL_SPECS``.

Legend: B responses, T tokens; every tensor is [B, T] (any equal shapes work); nats.
With x = log pi(y_t) - log pi_ref(y_t) for a token sampled from pi (Schulman, "Approximating KL
divergence", 2020, http://joschu.net/blog/kl-approx.html):
    k1 = x                    unbiased, high variance, can be negative
    k2 = x^2 / 2              biased, low variance, >= 0
    k3 = exp(-x) + x - 1      unbiased, low variance, >= 0 (GRPO, DeepSeekMath arXiv 2402.03300 eq. 4)
and the variants the two frameworks ship:
    abs = |x|                 verl ``abs``
    k1+, k3+                  verl straight-through: the value of k1 / k3, the gradient of k2
    k3_bc = rho * k3          DeepSeek-V3.2's unbiased estimate (arXiv 2512.02556 §3.1), TRL
                              ``use_bias_correction_kl``; rho = pi / pi_old, the ratio to the sampler

verl (``verl/trainer/ppo/core_algos.py`` ``kl_penalty`` / ``kl_penalty_forward``, read at commit
b178a3c, 2026-01): ``kl`` = ``k1``, ``mse`` = ``k2``, ``low_var_kl`` = ``k3`` (one branch: the same
estimator, clamped alike), ``abs``; a trailing ``+`` keeps the value and takes k2's gradient
(verl-project/verl#2953). At that commit the suffix reached ``kl_penalty_forward`` unstripped and
every ``+`` name raised ``NotImplementedError``; verl-project/verl#6058 (merged 2026-04) fixed it.
Config paths: ``actor_rollout_ref.actor.kl_loss_type`` (KL in the loss), ``algorithm.kl_penalty``
(KL in the reward). TRL ``GRPOTrainer`` always uses k3 (``beta``), multiplied by its importance
ratio ``coef_1`` when ``use_bias_correction_kl=True`` (``trl/trainer/grpo_trainer.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from .validate import check_flag, check_tensor, compute_dtype

__all__ = [
    "KL_CLAMP",
    "KL_ESTIMATORS",
    "KL_SPECS",
    "SCHULMAN_ESTIMATORS",
    "X_CLAMP",
    "KLEstimator",
    "kl_estimate",
]

X_CLAMP = 20.0  # |x| clamp before exp (verl, SkyRL): exp stays finite
KL_CLAMP = 10.0  # k3 clamped to [-10, 10] (verl low_var_kl, SkyRL): a saturated token has zero gradient


def _k1(x: torch.Tensor, clamp: bool) -> torch.Tensor:
    return x


def _k2(x: torch.Tensor, clamp: bool) -> torch.Tensor:
    return 0.5 * x * x


def _k3(x: torch.Tensor, clamp: bool) -> torch.Tensor:
    k3 = torch.exp(-x) + x - 1.0
    return k3.clamp(-KL_CLAMP, KL_CLAMP) if clamp else k3


def _abs(x: torch.Tensor, clamp: bool) -> torch.Tensor:
    return x.abs()


_BASE: dict[str, Callable[[torch.Tensor, bool], torch.Tensor]] = {"k1": _k1, "k2": _k2, "k3": _k3, "abs": _abs}


@dataclass(frozen=True)
class KLEstimator:
    """One per-token KL estimator (an entry of ``KL_SPECS``).

    Attributes:
        name: registry key; the value of the ``kl_estimator`` setting.
        value: the base formula whose value it returns (``k1``, ``k2``, ``k3`` or ``abs``).
        grad: ``None`` (autograd of the value) or the base whose gradient it takes instead (a
            straight-through estimator: verl's ``+`` suffix takes ``k2``).
        importance_weighted: multiplied by rho = pi / pi_old (needs ``old_log_prob``; without it
            the sampler is the current policy, rho = 1 with rho's gradient kept, as TRL does when
            ``old_per_token_logps`` is ``None``).
        symbol: its name as LaTeX (for formulas).
        latex: its formula in x = log pi - log pi_ref and rho = pi / pi_old.
        verl: its name in verl's ``kl_loss_type`` / ``kl_penalty``, or ``None``.
        trl: how TRL ``GRPOConfig`` selects it, or ``None``.
        source: paper or framework file.
        help: one line in each language.
    """

    name: str
    value: str
    grad: str | None = None
    importance_weighted: bool = False
    symbol: str = ""
    latex: str = ""
    verl: str | None = None
    trl: str | None = None
    source: str = ""
    help: dict[str, str] = field(default_factory=dict)


_SCHULMAN = 'Schulman, "Approximating KL divergence" (2020)'
_VERL = "verl verl/trainer/ppo/core_algos.py kl_penalty"
_SPECS = (
    KLEstimator(
        "k1",
        "k1",
        symbol="k1",
        latex=r"x",
        verl="kl (k1)",
        source=_SCHULMAN,
        help={"en": "k1 = x: unbiased value, can be negative", "zh": "k1 = x：值无偏，可为负"},
    ),
    KLEstimator(
        "k2",
        "k2",
        symbol="k2",
        latex=r"\tfrac12x^2",
        verl="mse (k2)",
        source=_SCHULMAN,
        help={"en": "k2 = x²/2: biased value, ≥ 0", "zh": "k2 = x²/2：值有偏，非负"},
    ),
    KLEstimator(
        "k3",
        "k3",
        symbol="k3",
        latex=r"e^{-x}+x-1",
        verl="low_var_kl (k3)",
        trl="beta > 0 (always k3)",
        source=_SCHULMAN + "; DeepSeekMath arXiv 2402.03300 eq. 4; " + _VERL + " (clamped to [-10, 10])",
        help={
            "en": "k3 = e^−x + x − 1 (verl low_var_kl): unbiased value, ≥ 0, clamped at 10",
            "zh": "k3 = e^−x + x − 1（verl low_var_kl）：值无偏，非负，在 10 处截断",
        },
    ),
    KLEstimator(
        "abs",
        "abs",
        symbol=r"\mathrm{abs}",
        latex=r"|x|",
        verl="abs",
        source=_VERL,
        help={"en": "|x| (verl abs): biased value, ≥ 0", "zh": "|x|（verl abs）：值有偏，非负"},
    ),
    KLEstimator(
        "k1+",
        "k1",
        grad="k2",
        symbol="k1^{+}",
        latex=r"x\ \text{(value)},\ \nabla\tfrac12x^2\ \text{(gradient)}",
        verl="k1+",
        source=_VERL + " (straight-through, verl-project/verl#2953)",
        help={
            "en": "k1+ (verl): the value of k1, the gradient of k2 (straight-through)",
            "zh": "k1+（verl）：取 k1 的值、k2 的梯度（直通）",
        },
    ),
    KLEstimator(
        "k3+",
        "k3",
        grad="k2",
        symbol="k3^{+}",
        latex=r"e^{-x}+x-1\ \text{(value)},\ \nabla\tfrac12x^2\ \text{(gradient)}",
        verl="k3+ (low_var_kl+)",
        source=_VERL + " (straight-through, verl-project/verl#2953)",
        help={
            "en": "k3+ (verl): the value of k3, the gradient of k2 (straight-through)",
            "zh": "k3+（verl）：取 k3 的值、k2 的梯度（直通）",
        },
    ),
    KLEstimator(
        "k3_bc",
        "k3",
        importance_weighted=True,
        symbol=r"k3\rho",
        latex=r"\rho\,(e^{-x}+x-1),\ \rho=\pi_\theta/\pi_\text{old}",
        trl="use_bias_correction_kl=True",
        source="DeepSeek-V3.2 arXiv 2512.02556 §3.1; TRL trl/trainer/grpo_trainer.py (per_token_kl * coef_1)",
        help={
            "en": "k3 × π/π_old (DeepSeek-V3.2, TRL use_bias_correction_kl): unbiased under the sampler",
            "zh": "k3 × π/π_old（DeepSeek-V3.2，TRL use_bias_correction_kl）：对采样策略无偏",
        },
    ),
)
KL_SPECS: dict[str, KLEstimator] = {s.name: s for s in _SPECS}
KL_ESTIMATORS: tuple[str, ...] = tuple(KL_SPECS)  # the values of the ``kl_estimator`` setting
SCHULMAN_ESTIMATORS: tuple[str, ...] = ("k1", "k2", "k3")  # the three classic ones


def kl_estimate(
    log_prob: torch.Tensor,
    ref_log_prob: torch.Tensor,
    estimator: str = "k3",
    old_log_prob: torch.Tensor | None = None,
    clamp: bool = True,
) -> torch.Tensor:
    """Per-token estimate of KL(pi || pi_ref) from log-probs of sampled tokens.

    Args:
        log_prob: [B, T] log pi(y_t), nats (differentiate through it for the KL in the loss).
        ref_log_prob: [B, T] log pi_ref(y_t), nats.
        estimator: a key of ``KL_SPECS``: ``"k1"``, ``"k2"``, ``"k3"``, ``"abs"``, ``"k1+"``,
            ``"k3+"``, ``"k3_bc"``.
        old_log_prob: [B, T] log pi_old(y_t) of the sampling policy; only ``k3_bc`` reads it.
            ``None``: the tokens were sampled from pi itself (rho = pi / sg(pi) = 1 in value, its
            gradient kept, as TRL when ``old_per_token_logps`` is ``None``).
        clamp: ``False`` leaves k3 unclamped (to show where the clamp acts); x keeps its clamp.

    Returns:
        [B, T] estimate in nats, computed and returned in the widest float dtype of the inputs and at
        least float32 (float16 and bfloat16 inputs give float32: exp(11.1) overflows float16, and
        k3's clamp would turn that inf into a NaN gradient). x is clamped to [-20, 20] before ``exp`` and k3 to [-10, 10] (as
        verl and SkyRL do: a saturated token then has zero gradient), so one wild token cannot blow
        up the loss. Straight-through estimators return their value with the gradient of k2 at the
        same (clamped) x; verl's k2 in the ``+`` backward is unclamped, which differs only where
        |x| > 20. ``k3_bc`` clamps log rho to [-20, 20]; TRL clamps neither k3 nor rho.

    Raises:
        ValueError: naming the parameter: unknown ``estimator`` (named ``kl_estimator``); a log-prob
            not a tensor of numbers; ``ref_log_prob`` not broadcastable with ``log_prob``, ``old_log_prob`` of
            another shape; a NaN input, or a log-ratio inf - inf; ``clamp`` not a bool. A log-prob
            of ±inf is fine: its log-ratio is clamped like any other.
    """
    spec = KL_SPECS.get(estimator) if isinstance(estimator, str) else None
    if spec is None:
        raise ValueError(f"kl_estimator: {estimator!r:.60} is not one of {', '.join(KL_ESTIMATORS)}")
    log_prob = check_tensor(log_prob, "log_prob")
    ref_log_prob = check_tensor(ref_log_prob, "ref_log_prob")
    clamp = check_flag(clamp, "clamp")
    try:
        torch.broadcast_shapes(log_prob.shape, ref_log_prob.shape)
    except RuntimeError:
        raise ValueError(
            f"ref_log_prob: shape {tuple(ref_log_prob.shape)} does not broadcast with {tuple(log_prob.shape)}"
        ) from None
    dtype = compute_dtype(log_prob, ref_log_prob)
    log_prob, ref_log_prob = log_prob.to(dtype), ref_log_prob.to(dtype)
    for label, t in (("log_prob", log_prob), ("ref_log_prob", ref_log_prob)):
        if bool(torch.isnan(t.detach()).any()):
            raise ValueError(f"{label}: contains NaN")
    diff = log_prob - ref_log_prob
    if bool(torch.isnan(diff.detach()).any()):
        raise ValueError("ref_log_prob: log_prob - ref_log_prob is inf - inf at some token")
    x = diff.clamp(-X_CLAMP, X_CLAMP)  # (B, T)
    value = _BASE[spec.value](x, clamp)
    if spec.grad is not None:  # straight-through: forward value, backward gradient of spec.grad
        surrogate = _BASE[spec.grad](x, clamp)
        value = surrogate - surrogate.detach() + value.detach()
    if spec.importance_weighted:
        if old_log_prob is None:
            old_log_prob = log_prob.detach()
        else:
            old_log_prob = check_tensor(old_log_prob, "old_log_prob")
            if old_log_prob.shape != log_prob.shape:
                raise ValueError(
                    f"old_log_prob: shape {tuple(old_log_prob.shape)} differs from {tuple(log_prob.shape)}"
                )
            old_log_prob = old_log_prob.to(dtype)
        log_rho = log_prob - old_log_prob
        if bool(torch.isnan(log_rho.detach()).any()):
            raise ValueError("old_log_prob: contains NaN, or log_prob - old_log_prob is inf - inf at some token")
        rho = torch.exp(log_rho.clamp(-X_CLAMP, X_CLAMP))  # (B, T) pi / pi_old
        value = rho * value
    return value
