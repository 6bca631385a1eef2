"""Answer functions of the interview bank's training topics: advantages, KL, length shaping, group
sampling and mixture-of-experts routing (``rlviz/teach/bank/training.toml`` and ``claims.toml``).

Each function is small: it turns the question's arguments (plain numbers and lists from the data
file) into float64 tensors, calls the code that trains (``rlviz.core``; for routing the router class
and the load-balancing loss the shipped MoE trains with), and returns a float or a choice key. Bad
arguments raise ``ValueError`` naming the parameter ("name: what is wrong").

The MoE functions import ``transformers`` when first called (a few seconds once per process); the
rest of the bank never does.
"""

from __future__ import annotations

import dataclasses
import math
from types import SimpleNamespace
from typing import Any

import torch

from rlviz.core.advantages import gae, group_advantages
from rlviz.core.estimators import estimate_token_advantages
from rlviz.core.kl import KL_ESTIMATORS, SCHULMAN_ESTIMATORS, kl_estimate
from rlviz.core.objectives import get_algorithm, policy_loss
from rlviz.core.sampling import (
    FillCost,
    beta_signal_probability,
    expected_advantage_mass,
    fill_cost,
    informative_groups,
    mixture_signal_probability,
    signal_probability,
)
from rlviz.core.shaping import cosine_length_reward, kimi_length_reward, overlong_filter_mask, overlong_penalty
from rlviz.teach.answers import answer

_F64 = torch.float64
FRAMEWORKS = ("trl", "verl")
ZERO = 1e-12  # |value| below this is float rounding of an exact zero: shown as 0


# ---------------------------------------------------------------------------------------------- helpers
def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name}: must be a finite number, got {value!r}")
    return float(value)


def _vector(name: str, values: Any) -> torch.Tensor:
    """A non-empty list of finite numbers as a [N] float64 tensor."""
    if not isinstance(values, (list, tuple)) or not values:
        raise ValueError(f"{name}: must be a non-empty list of numbers, got {values!r}")
    return torch.tensor([_number(name, v) for v in values], dtype=_F64)


def _matrix(name: str, rows: Any) -> torch.Tensor:
    """A list of equally long lists (or one flat list = one row) as an [n, m] float64 tensor."""
    if isinstance(rows, (list, tuple)) and rows and all(isinstance(r, (list, tuple)) for r in rows):
        out = [_vector(name, r) for r in rows]
        if len({len(r) for r in out}) != 1:
            raise ValueError(f"{name}: every row must have the same length")
        return torch.stack(out)
    return _vector(name, rows)[None, :]


def _index(name: str, index: Any, size: int) -> int:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < size:
        raise ValueError(f"{name}: must be a whole number in [0, {size - 1}], got {index!r}")
    return index


def _whole(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name}: must be a whole number >= {low}, got {value!r}")
    return value


def _clean(value: float) -> float:
    """An exact zero left as float rounding noise (|x| < 1e-12) becomes 0.0, so it reads as 0."""
    return 0.0 if abs(value) < ZERO else float(value)


def _sign(value: float) -> str:
    value = _clean(value)
    return "positive" if value > 0 else "negative" if value < 0 else "zero"


def _probs(name: str, values: Any) -> torch.Tensor:
    p = _vector(name, values)
    if bool((p <= 0).any()) or abs(float(p.sum()) - 1.0) > 1e-9:
        raise ValueError(f"{name}: must be probabilities > 0 that sum to 1, got {values!r}")
    return p


# ---------------------------------------------------------------------------------------------- advantages
@answer("tr_group_advantage")
def tr_group_advantage(rewards, index: int, scale: str = "group", eps: float = 1e-6, row: int = 0) -> float:
    """The advantage of response ``index`` of group ``row``: ``group_advantages(rewards, scale, eps)``
    (GRPO z-score ``(R - mean) / (std + eps)`` with the unbiased std; ``"none"``: Dr.GRPO's
    ``R - mean``; ``"batch"``: divided by the std of every reward in the batch).

    ``rewards``: one group as a flat list, or a batch as a list of groups. Source: DeepSeekMath
    arXiv 2402.03300 §4.1.2; Dr.GRPO arXiv 2503.20783 §3.1; TRL ``scale_rewards``.
    """
    r = _matrix("rewards", rewards)
    row = _index("row", row, r.shape[0])
    index = _index("index", index, r.shape[1])
    return _clean(float(group_advantages(r, scale, _number("eps", eps))[row, index]))


def _otb(rewards, probs, sum_pi_squared) -> torch.Tensor:
    """verl's Optimal Token Baseline (``estimate_token_advantages("optimal_token_baseline", ...)``) of one
    group: ``rewards`` [G], ``probs`` G lists (one per response, its length the response's) of the old
    policy's probability of each sampled token, ``sum_pi_squared`` the same shape, Σπ² at each position.
    Returns the advantages [G, T] (0 past each response's end)."""
    r = _vector("rewards", rewards)
    rows = []
    for name, values in (("probs", probs), ("sum_pi_squared", sum_pi_squared)):
        if not isinstance(values, (list, tuple)) or len(values) != len(r):
            raise ValueError(f"{name}: give one list per response ({len(r)}), got {values!r}")
        rows.append([_vector(name, v) for v in values])
    lengths = [len(v) for v in rows[0]]
    if [len(v) for v in rows[1]] != lengths:
        raise ValueError("sum_pi_squared: one value per token, as many as probs gives each response")
    if any(bool(((v <= 0) | (v > 1)).any()) for v in rows[0]):
        raise ValueError("probs: each token's probability must lie in (0, 1]")
    T = max(lengths)
    mask = (torch.arange(T)[None, :] < torch.tensor(lengths)[:, None]).to(_F64)  # (G, T)

    def padded(vs):
        return torch.stack([torch.cat([v, torch.full((T - len(v),), 0.5, dtype=_F64)]) for v in vs])

    adv = estimate_token_advantages(
        "optimal_token_baseline",
        r[None, :],
        mask[None],
        old_log_probs=padded(rows[0]).log()[None],
        sum_pi_squared=padded(rows[1])[None],
    )
    return adv[0]


@answer("tr_otb_baseline")
def tr_otb_baseline(rewards, probs, sum_pi_squared, token: int) -> float:
    """The Optimal Token Baseline's B_t at position ``token`` (0-based) of a group: R_i − A_i,t of the
    first response that reaches ``token`` (every response there shares it, but for the one longest
    response past the second longest, where verl's ``handle_zero_tail`` sets it to 0). Inputs as
    :func:`_otb`. Source: arXiv 2602.07078; verl ``compute_optimal_token_baseline_advantage``."""
    adv = _otb(rewards, probs, sum_pi_squared)
    token = _index("token", token, adv.shape[1])
    i = next(i for i, p in enumerate(probs) if len(p) > token)
    return _clean(float(rewards[i]) - float(adv[i, token]))


@answer("tr_otb_larger")
def tr_otb_larger(rewards, probs, sum_pi_squared, first: int, second: int, token: int) -> str:
    """``"first"``, ``"second"`` or ``"same"``: which of two responses gets the larger Optimal Token Baseline
    advantage at position ``token`` (0-based; both must reach it). Inputs as :func:`_otb`."""
    adv = _otb(rewards, probs, sum_pi_squared)
    token = _index("token", token, adv.shape[1])
    first, second = _index("first", first, adv.shape[0]), _index("second", second, adv.shape[0])
    for name, i in (("first", first), ("second", second)):
        if len(probs[i]) <= token:
            raise ValueError(f"{name}: response {i} ends before token {token}")
    diff = _clean(float(adv[first, token] - adv[second, token]))
    return "first" if diff > 0 else "second" if diff < 0 else "same"


@answer("tr_advantage_sign")
def tr_advantage_sign(rewards, index: int, scale: str = "group") -> str:
    """``"positive"``, ``"zero"`` or ``"negative"``: the sign of :func:`tr_group_advantage`."""
    return _sign(tr_group_advantage(rewards, index, scale))


@answer("tr_group_abs_sum")
def tr_group_abs_sum(rewards, scale: str = "group") -> float:
    """Sum of |advantage| over one group (``group_advantages``): how hard the whole group pushes.
    Source: Dr.GRPO arXiv 2503.20783 §3.1 (question-level difficulty bias)."""
    r = _matrix("rewards", rewards)
    if r.shape[0] != 1:
        raise ValueError("rewards: give one group (a flat list)")
    return _clean(float(group_advantages(r, scale).abs().sum()))


@answer("tr_group_mass_ratio")
def tr_group_mass_ratio(rewards, reference_rewards, scale: str = "group") -> float:
    """How hard one group pushes relative to another: the ratio of their sums of |advantage|
    (:func:`tr_group_abs_sum`). Raises ``ValueError`` naming ``reference_rewards`` for a reference
    group without a signal. Source: Dr.GRPO arXiv 2503.20783 §3.1."""
    ref = tr_group_abs_sum(reference_rewards, scale)
    if ref <= 0:
        raise ValueError("reference_rewards: the reference group has no signal (all rewards equal)")
    return tr_group_abs_sum(rewards, scale) / ref


@answer("tr_advantage_mass")
def tr_advantage_mass(pass_rate: float, group_size: int, scale_rewards: str = "group") -> float:
    """Expected sum of |advantage| of one group of a prompt with this pass rate
    (``expected_advantage_mass``), all-equal groups included. Source: Dr.GRPO arXiv 2503.20783 §3.1."""
    return float(expected_advantage_mass([_number("pass_rate", pass_rate)], group_size, scale_rewards)[0])


@answer("tr_mass_ratio")
def tr_mass_ratio(pass_rate: float, reference_rate: float, group_size: int, scale_rewards: str = "group") -> float:
    """How much a prompt of ``pass_rate`` weighs relative to one of ``reference_rate``: the ratio of
    their expected |advantage| sums (``expected_advantage_mass``). Raises ``ValueError`` naming
    ``reference_rate`` when that prompt never has a signal (rate 0 or 1)."""
    mass = expected_advantage_mass(
        [_number("pass_rate", pass_rate), _number("reference_rate", reference_rate)], group_size, scale_rewards
    )
    if float(mass[1]) <= 0:
        raise ValueError(f"reference_rate: a prompt with pass rate {reference_rate} never has a signal")
    return float(mass[0] / mass[1])


def _gae(rewards, values, gamma: float, lam: float) -> tuple[torch.Tensor, torch.Tensor]:
    r = _vector("rewards", rewards)[None, :]
    v = _vector("values", values)[None, :]
    if r.shape != v.shape:
        raise ValueError(f"values: expected {r.shape[1]} values (one per token), got {v.shape[1]}")
    adv, ret = gae(r, v, torch.ones_like(r), _number("gamma", gamma), _number("lam", lam), whiten=False)
    return adv[0], ret[0]


@answer("tr_gae_advantage")
def tr_gae_advantage(rewards, values, t: int = 0, gamma: float = 1.0, lam: float = 0.95) -> float:
    """GAE advantage of token ``t`` of one trajectory, before whitening (``gae``):
    ``delta_t = r_t + gamma V_{t+1} - V_t``, ``A_t = delta_t + gamma lam A_{t+1}``, V = 0 after the
    last token. Source: Schulman et al. arXiv 1506.02438 eq. 16; verl ``compute_gae_advantage_return``."""
    adv, _ = _gae(rewards, values, gamma, lam)
    return _clean(float(adv[_index("t", t, adv.numel())]))


@answer("tr_gae_return")
def tr_gae_return(rewards, values, t: int = 0, gamma: float = 1.0, lam: float = 0.95) -> float:
    """The value target (return) of token ``t``: un-whitened GAE advantage + V_t (``gae``)."""
    _, ret = _gae(rewards, values, gamma, lam)
    return _clean(float(ret[_index("t", t, ret.numel())]))


@answer("tr_setting_name")
def tr_setting_name(algorithm: str, setting: str, framework: str) -> str:
    """The TRL or verl name of one registry setting (``AlgorithmSpec.setting(...).trl / .verl``),
    as a choice key. Raises ``ValueError`` naming ``framework`` when that framework has none."""
    if framework not in FRAMEWORKS:
        raise ValueError(f"framework: {framework!r} is not one of {', '.join(FRAMEWORKS)}")
    name = getattr(get_algorithm(algorithm).setting(setting), framework)
    if not name:
        raise ValueError(f"framework: {framework} has no name for {setting}")
    return name


@answer("tr_setting_default")
def tr_setting_default(algorithm: str, setting: str) -> float:
    """The registry default of a numeric setting of ``algorithm`` (its paper's value, with source in
    ``Setting.source``). Raises ``ValueError`` naming ``setting`` when it is not a number."""
    value = get_algorithm(algorithm).setting(setting).default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"setting: {setting} of {algorithm} is not a number ({value!r})")
    return float(value)


# ---------------------------------------------------------------------------------------------- KL
def _kl_grad(log_ratio: float, estimator: str) -> tuple[float, float]:
    x = torch.tensor([[_number("log_ratio", log_ratio)]], dtype=_F64, requires_grad=True)
    k = kl_estimate(x, torch.zeros_like(x), estimator)
    (g,) = torch.autograd.grad(k.sum(), x)
    return float(k.detach()), float(g)


@answer("tr_kl_value")
def tr_kl_value(log_ratio: float, estimator: str) -> float:
    """One token's KL estimate at ``x = log pi - log pi_ref`` (``kl_estimate``: k1 = x, k2 = x^2/2,
    k3 = e^-x + x - 1, with verl's clamps). Source: Schulman, "Approximating KL divergence" (2020);
    DeepSeekMath arXiv 2402.03300 eq. 4 (k3)."""
    return _clean(_kl_grad(log_ratio, estimator)[0])


@answer("tr_kl_grad")
def tr_kl_grad(log_ratio: float, estimator: str) -> float:
    """d(estimate)/d(log pi) of one token at ``x`` by autograd through ``kl_estimate``: what the KL
    term of the loss multiplies grad log pi(y_t) by (k1: 1, k2: x, k3: 1 - e^-x; 0 where clamped)."""
    return _clean(_kl_grad(log_ratio, estimator)[1])


@answer("tr_kl_negative_estimator")
def tr_kl_negative_estimator(log_ratios) -> str:
    """Which estimators (``kl_estimate``) give a negative value for at least one of these per-token
    log-ratios, comma-joined in registry order (``"none"`` if none does)."""
    x = _vector("log_ratios", log_ratios)[None, :]
    neg = [e for e in SCHULMAN_ESTIMATORS if bool((kl_estimate(x, torch.zeros_like(x), e) < 0).any())]
    return ",".join(neg) or "none"


def _categorical(probs, ref_probs) -> tuple[torch.Tensor, torch.Tensor]:
    p, q = _probs("probs", probs), _probs("ref_probs", ref_probs)
    if p.shape != q.shape:
        raise ValueError(f"ref_probs: expected {p.numel()} probabilities like probs, got {q.numel()}")
    return p, q


@answer("tr_kl_expected")
def tr_kl_expected(probs, ref_probs, estimator: str) -> float:
    """Exact expectation of one token's estimate when the token is drawn from the policy:
    ``sum_y pi(y) k(log pi(y) - log pi_ref(y))`` over a categorical ``probs`` (``kl_estimate``).
    With k1 (and k3) this is the true KL(pi || pi_ref)."""
    p, q = _categorical(probs, ref_probs)
    k = kl_estimate(p.log()[None, :], q.log()[None, :], estimator)[0]
    return _clean(float((p * k).sum()))


@answer("tr_kl_biased_estimator")
def tr_kl_biased_estimator(probs, ref_probs) -> str:
    """Which estimators' expectation (:func:`tr_kl_expected`) differs from the true KL (the
    expectation of k1, which is exact) on this pair of distributions, comma-joined (``"none"``)."""
    true = tr_kl_expected(probs, ref_probs, "k1")
    off = [e for e in SCHULMAN_ESTIMATORS if abs(tr_kl_expected(probs, ref_probs, e) - true) > 1e-9]
    return ",".join(off) or "none"


def _logit_grad(probs, ref_probs, estimator: str | None, index: int) -> float:
    p, q = _categorical(probs, ref_probs)
    index = _index("index", index, p.numel())
    logits = p.log().clone().requires_grad_(True)  # softmax(log p) = p
    logp = torch.log_softmax(logits, dim=0)
    if estimator is None:  # the true KL(pi || pi_ref) = E_pi[k1], pi differentiated everywhere
        total = (logp.exp() * kl_estimate(logp[None, :], q.log()[None, :], "k1")[0]).sum()
    else:  # the loss term: sampled tokens (weights detached), each token's estimate differentiated
        total = (p * kl_estimate(logp[None, :], q.log()[None, :], estimator)[0]).sum()
    (g,) = torch.autograd.grad(total, logits)
    return _clean(float(g[index]))


@answer("tr_kl_loss_gradient")
def tr_kl_loss_gradient(probs, ref_probs, estimator: str, index: int = 0) -> float:
    """Expected gradient, w.r.t. logit ``index`` of a softmax policy ``probs``, of putting the
    estimator into the loss as GRPO does (``+ beta * k`` per sampled token, ``beta = 1``): the
    tokens are drawn from the policy (their weights carry no gradient) and each token's estimate
    is differentiated through ``kl_estimate``. k2 gives the true gradient of KL(pi || pi_ref), k1
    gives zero, k3 gives the gradient of KL(pi_ref || pi). Source: verl-project/verl#2953;
    OpenRLHF/OpenRLHF#1309."""
    if estimator not in KL_ESTIMATORS:
        raise ValueError(f"estimator: {estimator!r} is not one of {', '.join(KL_ESTIMATORS)}")
    return _logit_grad(probs, ref_probs, estimator, index)


@answer("tr_kl_true_gradient")
def tr_kl_true_gradient(probs, ref_probs, index: int = 0) -> float:
    """The exact gradient of KL(pi || pi_ref) w.r.t. logit ``index`` (autograd of the expectation
    of k1 with the policy's probabilities differentiated too)."""
    return _logit_grad(probs, ref_probs, None, index)


@answer("tr_kl_reward_advantage")
def tr_kl_reward_advantage(
    scores, log_ratios, beta: float, index: int, estimator: str = "k3", scale: str = "group"
) -> float:
    """Group advantage of response ``index`` with the KL in the reward, as rlviz's trainer does it
    (verl ``algorithm.use_kl_in_reward``): ``R_i = score_i - beta * sum_t k(x_{i,t})`` with
    ``x = log pi_old - log pi_ref`` per token (``log_ratios``: one list per response), then
    ``group_advantages``. Source: rlviz.lm.trainer ``_advantages``; verl ``apply_kl_penalty``."""
    s = _vector("scores", scores)
    if not isinstance(log_ratios, (list, tuple)) or len(log_ratios) != s.numel():
        raise ValueError(f"log_ratios: expected one list of per-token log-ratios per response ({s.numel()})")
    beta = _number("beta", beta)
    if beta < 0:
        raise ValueError(f"beta: must be >= 0, got {beta}")
    per_response = [_vector("log_ratios", x)[None, :] for x in log_ratios]  # each (1, T_i)
    kl = torch.stack([kl_estimate(x, torch.zeros_like(x), estimator).sum() for x in per_response])  # (G,)
    return tr_group_advantage((s - beta * kl).tolist(), index, scale)


# ---------------------------------------------------------------------------------------------- length
@answer("tr_overlong_penalty")
def tr_overlong_penalty(length: float, max_length: int, buffer_length: int, penalty_factor: float = 1.0) -> float:
    """DAPO's soft overlong punishment of one response (``overlong_penalty``): 0 up to
    L_max - L_cache, a linear ramp to -factor at L_max, -factor beyond. Source: DAPO arXiv
    2503.14476 §3.4 eq. 13."""
    pen = overlong_penalty(torch.tensor([_number("length", length)]), max_length, buffer_length, penalty_factor)
    return _clean(float(pen[0]))


@answer("tr_overlong_free_length")
def tr_overlong_free_length(max_length: int, buffer_length: int) -> float:
    """The longest whole length (tokens) that ``overlong_penalty`` leaves unpunished."""
    max_length = _whole("max_length", max_length, 1)
    lengths = torch.arange(max_length + 1, dtype=_F64)
    pen = overlong_penalty(lengths, max_length, buffer_length)
    return float(lengths[pen == 0].max())


@answer("tr_dapo_reward")
def tr_dapo_reward(
    length: float, correct: int, max_length: int, buffer_length: int, penalty_factor: float = 1.0
) -> float:
    """A response's reward under DAPO's shaping: the 0/1 task reward plus ``overlong_penalty``."""
    if correct not in (0, 1):
        raise ValueError(f"correct: must be 0 or 1, got {correct!r}")
    return _clean(correct + tr_overlong_penalty(length, max_length, buffer_length, penalty_factor))


@answer("tr_dapo_group_advantage")
def tr_dapo_group_advantage(
    lengths, correct, max_length: int, buffer_length: int, index: int, penalty_factor: float = 1.0
) -> float:
    """Group advantage of response ``index`` when the rewards are task reward + DAPO's overlong
    penalty (``overlong_penalty`` then ``group_advantages``), as on the Length page."""
    lengths_t = _vector("lengths", lengths)
    c = _vector("correct", correct)
    if c.shape != lengths_t.shape or not bool(((c == 0) | (c == 1)).all()):
        raise ValueError(f"correct: expected {lengths_t.numel()} values, each 0 or 1")
    rewards = c + overlong_penalty(lengths_t, max_length, buffer_length, penalty_factor).to(_F64)
    return tr_group_advantage(rewards.tolist(), index)


@answer("tr_filtered_token_share")
def tr_filtered_token_share(lengths, truncated) -> float:
    """Share of the batch's response tokens that stay in the loss under overlong filtering
    (``overlong_filter_mask``: a truncated response leaves the loss). Source: DAPO arXiv 2503.14476
    §3.4; TRL ``mask_truncated_completions``."""
    lengths_t = _vector("lengths", lengths)
    cut = _vector("truncated", truncated)
    if cut.shape != lengths_t.shape or not bool(((cut == 0) | (cut == 1)).all()):
        raise ValueError(f"truncated: expected {lengths_t.numel()} values, each 0 or 1")
    if float(lengths_t.sum()) <= 0 or bool((lengths_t < 0).any()):
        raise ValueError("lengths: must be >= 0 and not all zero")
    keep = overlong_filter_mask(cut.bool())[:, 0].to(_F64)  # (B,)
    return float((keep * lengths_t).sum() / lengths_t.sum())


def _one_group(lengths, correct) -> tuple[torch.Tensor, torch.Tensor]:
    lengths_t = _vector("lengths", lengths)[None, :]
    c = _vector("correct", correct)[None, :]
    if c.shape != lengths_t.shape or not bool(((c == 0) | (c == 1)).all()):
        raise ValueError(f"correct: expected {lengths_t.shape[1]} values, each 0 or 1")
    return lengths_t, c.bool()


@answer("tr_kimi_reward")
def tr_kimi_reward(lengths, correct, index: int) -> float:
    """Kimi k1.5's group-relative length reward of response ``index`` (``kimi_length_reward``):
    ``lambda = 0.5 - (len - min) / (max - min)``, kept for a right answer, ``min(0, lambda)`` for a
    wrong one. Source: Kimi k1.5 arXiv 2501.12599 §2.3.3."""
    lengths_t, c = _one_group(lengths, correct)
    index = _index("index", index, lengths_t.shape[1])
    return _clean(float(kimi_length_reward(lengths_t, c)[0, index]))


@answer("tr_cosine_reward")
def tr_cosine_reward(length: float, correct: int, max_length: int, **values) -> float:
    """The cosine length-scaled reward of one response (``cosine_length_reward``, the paper's
    defaults unless ``values`` override r0_correct, rl_correct, r0_wrong, rl_wrong, exceed_penalty).
    Source: Yeo et al. arXiv 2502.03373 §4.2."""
    if correct not in (0, 1):
        raise ValueError(f"correct: must be 0 or 1, got {correct!r}")
    out = cosine_length_reward(
        torch.tensor([_number("length", length)], dtype=_F64), torch.tensor([bool(correct)]), max_length, **values
    )
    return _clean(float(out[0]))


# ---------------------------------------------------------------------------------------------- sampling
@answer("tr_signal_probability")
def tr_signal_probability(pass_rate: float, group_size: int) -> float:
    """Chance that a group of G 0/1 rewards is mixed, so its advantages are not all zero
    (``signal_probability``: ``1 - p^G - (1-p)^G``). Source: DAPO arXiv 2503.14476 §3.2."""
    return _clean(float(signal_probability(torch.tensor(_number("pass_rate", pass_rate), dtype=_F64), group_size)))


@answer("tr_zero_advantage_share")
def tr_zero_advantage_share(pass_rate: float, group_size: int) -> float:
    """Expected share of groups whose advantages are all zero (all right or all wrong):
    1 - ``signal_probability``."""
    return _clean(1.0 - tr_signal_probability(pass_rate, group_size))


@answer("tr_min_group_size")
def tr_min_group_size(pass_rate: float, target: float, largest: int = 4096) -> float:
    """The smallest group size G whose ``signal_probability`` reaches ``target`` for this pass rate.
    Raises ``ValueError`` naming ``target`` when no G up to ``largest`` does (e.g. p = 0 or 1)."""
    target = _number("target", target)
    if not 0 < target < 1:
        raise ValueError(f"target: must lie in (0, 1), got {target}")
    sizes = torch.arange(1, _whole("largest", largest, 1) + 1)
    p = torch.tensor(_number("pass_rate", pass_rate), dtype=_F64)
    s = torch.stack([signal_probability(p, int(g)) for g in sizes])
    hit = (s >= target).nonzero()
    if hit.numel() == 0:
        raise ValueError(f"target: no group size up to {largest} reaches {target} at pass rate {pass_rate}")
    return float(sizes[hit[0, 0]])


@answer("tr_beta_signal")
def tr_beta_signal(a: float, b: float, group_size: int) -> float:
    """Share of informative groups when pass rates follow Beta(a, b) (``beta_signal_probability``)."""
    return beta_signal_probability(a, b, group_size)


@answer("tr_mixture_signal")
def tr_mixture_signal(pass_rates, weights, group_size: int) -> float:
    """Share of informative groups for a histogram of pass rates (``mixture_signal_probability``)."""
    return _clean(mixture_signal_probability(pass_rates, weights, group_size))


_FILL_FIELDS = tuple(f.name for f in dataclasses.fields(FillCost) if f.name != "round_probabilities")


@answer("tr_fill_cost")
def tr_fill_cost(
    signal_prob: float,
    prompts_per_round: int,
    target_groups: int,
    group_size: int,
    max_rounds: int | None = None,
    field: str = "expected_rounds",
) -> float:
    """One number of ``fill_cost`` (dynamic sampling: rounds of n prompts until N informative groups,
    at most K rounds): ``field`` is one of expected_rounds, expected_rollouts, expected_groups,
    full_batch_probability, rollouts_per_group, signal_probability. Source: DAPO arXiv 2503.14476
    §3.2; verl recipe ``filter_groups.max_num_gen_batches``."""
    if field not in _FILL_FIELDS:
        raise ValueError(f"field: {field!r} is not one of {', '.join(_FILL_FIELDS)}")
    return float(getattr(fill_cost(signal_prob, prompts_per_round, target_groups, group_size, max_rounds), field))


@answer("tr_dynamic_vs_plain")
def tr_dynamic_vs_plain(signal_prob: float, prompts_per_round: int, group_size: int, max_rounds: int | None) -> str:
    """``"more"``, ``"same"`` or ``"fewer"``: responses sampled per step with dynamic sampling
    (``fill_cost`` with N = n) against plain GRPO's one round of n prompts x G."""
    cost = fill_cost(signal_prob, prompts_per_round, prompts_per_round, group_size, max_rounds)
    plain = prompts_per_round * group_size
    if abs(cost.expected_rollouts - plain) <= 1e-9 * plain:
        return "same"
    return "more" if cost.expected_rollouts > plain else "fewer"


@answer("tr_informative_count")
def tr_informative_count(rewards) -> float:
    """How many groups of the batch carry a signal (rewards not all equal; ``informative_groups``,
    verl recipe ``filter_groups``)."""
    return float(informative_groups(_matrix("rewards", rewards)).sum())


# ---------------------------------------------------------------------------------------------- MoE
def _router(logits, top_k: int, norm_topk_prob: bool = True):
    """Route tokens with the router class the shipped MoE uses (``transformers``' Qwen3-MoE
    ``TopKRouter``: softmax, top-k, renormalised over the k where ``norm_topk_prob``), its weight
    set to the identity so its input is the router logits. Returns ``(gate weights, indices)``."""
    from transformers.models.qwen3_moe.modeling_qwen3_moe import Qwen3MoeTopKRouter

    z = _matrix("logits", logits)  # (N, E)
    n_exp = z.shape[1]
    top_k = _whole("top_k", top_k, 1)
    if top_k > n_exp:
        raise ValueError(f"top_k: at most the {n_exp} experts, got {top_k}")
    cfg = SimpleNamespace(
        num_experts_per_tok=top_k, num_experts=n_exp, norm_topk_prob=bool(norm_topk_prob), hidden_size=n_exp
    )
    router = Qwen3MoeTopKRouter(cfg).double()
    with torch.no_grad():
        router.weight.copy_(torch.eye(n_exp, dtype=_F64))
        _, gates, idx = router(z)
    return gates, idx


@answer("tr_gate_weight")
def tr_gate_weight(logits, top_k: int, rank: int = 0, norm_topk_prob: bool = True) -> float:
    """The gate weight of the ``rank``-th chosen expert (0 = the largest) for one token's router
    ``logits``. Source: Qwen3-MoE (``norm_topk_prob``); Switch Transformer arXiv 2101.03961 §2."""
    gates, _ = _router(logits, top_k, norm_topk_prob)
    return float(gates[0, _index("rank", rank, gates.shape[1])])


@answer("tr_router_expert")
def tr_router_expert(logits, top_k: int, rank: int = 0) -> str:
    """``"e<i>"``: the expert chosen in place ``rank`` for one token's router ``logits``."""
    _, idx = _router(logits, top_k)
    return f"e{int(idx[0, _index('rank', rank, idx.shape[1])])}"


def _routes(name: str, indices) -> torch.Tensor:
    """Per-token expert lists [[e, e], ...] as (1, T, 1 layer, k) int64, verl's layout."""
    m = _matrix(name, indices)
    if bool((m < 0).any()) or bool((m != m.round()).any()):
        raise ValueError(f"{name}: expert indices must be whole numbers >= 0")
    return m.long()[None, :, None, :]


@answer("tr_route_change_share")
def tr_route_change_share(before, after) -> float:
    """Share of tokens whose set of chosen experts differs (order ignored) between two routings of
    the same tokens (``rlviz.lm.moe.route_changed``). Source: GSPO arXiv 2507.18071 §5.3."""
    from rlviz.lm.moe import route_changed

    b, a = _routes("before", before), _routes("after", after)
    if a.shape != b.shape:
        raise ValueError(f"after: {a.shape[1]} tokens x {a.shape[3]} experts, before has {b.shape[1]} x {b.shape[3]}")
    return float(route_changed(b, a).double().mean())


@answer("tr_route_flip")
def tr_route_flip(logits_before, logits_after, top_k: int) -> str:
    """``"yes"`` if routing one token with ``logits_after`` picks another set of experts than with
    ``logits_before`` (the model's router, then ``route_changed``), else ``"no"``."""
    from rlviz.lm.moe import route_changed

    _, i0 = _router(logits_before, top_k)
    _, i1 = _router(logits_after, top_k)
    if i0.shape != i1.shape:
        raise ValueError("logits_after: must route as many tokens over as many experts as logits_before")
    return "yes" if bool(route_changed(i0[None, :, None, :], i1[None, :, None, :]).any()) else "no"


@answer("tr_expert_load")
def tr_expert_load(indices, expert: int, num_experts: int) -> float:
    """Share of the (token, slot) assignments that go to ``expert`` (``rlviz.lm.moe.expert_load``);
    1/E each when perfectly balanced."""
    from rlviz.lm.moe import expert_load

    routes = _routes("indices", indices)
    num_experts = _whole("num_experts", num_experts, 1)
    if int(routes.max()) >= num_experts:
        raise ValueError(f"indices: expert indices must be below num_experts={num_experts}")
    load = expert_load(routes, torch.ones(routes.shape[:2]), num_experts)
    return float(load[0, _index("expert", expert, num_experts)])


@answer("tr_balance_loss")
def tr_balance_loss(router_logits, top_k: int) -> float:
    """The Switch load-balancing loss of one MoE layer for these router logits (one row per token),
    as the shipped MoE was pretrained with it (``rlviz.lm.pretrain.per_layer_balance_loss``:
    ``E * sum_i f_i P_i``, f_i the share of top-k assignments counted per slot, P_i the mean router
    probability): ``top_k`` when perfectly balanced. Source: Switch Transformer arXiv 2101.03961 eq. 4."""
    from rlviz.lm.pretrain import per_layer_balance_loss

    z = _matrix("router_logits", router_logits)
    top_k = _whole("top_k", top_k, 1)
    if top_k > z.shape[1]:
        raise ValueError(f"top_k: at most the {z.shape[1]} experts, got {top_k}")
    model = SimpleNamespace(config=SimpleNamespace(num_experts=z.shape[1], num_experts_per_tok=top_k))
    return float(per_layer_balance_loss(model, (z,), torch.ones(1, z.shape[0])))


def _one_token_shift(length: int, delta: float, algorithm: str, advantage: float = 1.0):
    """``policy_loss`` (its registry defaults, no KL term) on one response of ``length`` tokens whose
    log-ratios are all 0 except the last one, ``delta`` (one token whose probability moved, e.g.
    because its experts changed)."""
    length = _whole("length", length, 1)
    lp = torch.zeros(1, length, dtype=_F64)
    lp[0, -1] = _number("delta", delta)
    return policy_loss(
        algorithm,
        lp,
        torch.zeros_like(lp),
        torch.tensor([_number("advantage", advantage)], dtype=_F64),
        torch.ones_like(lp),
        beta=0.0,  # the clip alone: no reference policy here
    )


@answer("tr_token_ratio")
def tr_token_ratio(length: int, delta: float) -> float:
    """The shifted token's importance ratio under a token-level objective (``policy_loss("grpo")``):
    ``exp(delta)``, whatever the response's length."""
    return float(_one_token_shift(length, delta, "grpo").ratio[0, -1])


@answer("tr_sequence_ratio")
def tr_sequence_ratio(length: int, delta: float) -> float:
    """GSPO's sequence ratio of that response (``policy_loss("gspo")``): ``exp(delta / length)``, the
    geometric mean of the token ratios. Source: GSPO arXiv 2507.18071 eq. 7 and §5.3."""
    return float(_one_token_shift(length, delta, "gspo").ratio[0, 0])


@answer("tr_clip_fraction")
def tr_clip_fraction(algorithm: str, length: int, delta: float, advantage: float = 1.0) -> float:
    """Share of that response's tokens ``algorithm``'s clip acts on (``policy_loss(...).clip_fraction``)
    at its registry defaults."""
    return float(_one_token_shift(length, delta, algorithm, advantage).clip_fraction)


@answer("tr_ratio_moves_more")
def tr_ratio_moves_more(length: int, delta: float) -> str:
    """``"token"`` or ``"sequence"`` (or ``"same"``): which ratio moves further from 1 in log space
    when one token's log-probability shifts by ``delta``: the token's own ratio or GSPO's sequence
    ratio."""
    tok = abs(math.log(tr_token_ratio(length, delta)))
    seq = abs(math.log(tr_sequence_ratio(length, delta)))
    if abs(tok - seq) <= 1e-12:
        return "same"
    return "token" if tok > seq else "sequence"
