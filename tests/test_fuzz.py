"""Fuzz: every core function against random shapes, dtypes, extreme values and junk.

Each call either raises a ``ValueError`` whose message starts with the name of one of its
parameters (or a setting it takes) or returns finite values. NaN / inf at a real position must be
refused; the same junk at a padded position must change nothing (the result equals the one with the
padding zeroed). Shapes include B = 1, T = 1, empty groups and all-padding rows; dtypes float16,
bfloat16, float32 and float64; values include ±1e4 log-probs, log-ratios of ±12, zero and huge
advantages and rewards. The lists of objectives, estimators, corrections, scales and modes come
from the registries. A few examples per case keep the whole file under 30 s on one core.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import os
import pkgutil
import re

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rlviz.core
from rlviz.core import advice, corrections, entropy_control, estimators, frameworks, parity, passk, sampling
from rlviz.core.advantages import ADVANTAGE_SCALES, gae, group_advantages
from rlviz.core.aggregation import LOSS_AGG_MODES, aggregate, masked_mean, token_weights
from rlviz.core.corrections import CORRECTIONS, cap_shares, correction_band, correction_weights, get_correction
from rlviz.core.estimators import (
    ESTIMATORS,
    estimate_advantages,
    expected_group_weight,
    get_estimator,
    reference_batch,
    whiten,
)
from rlviz.core.kl import KL_ESTIMATORS, kl_estimate
from rlviz.core.masks import high_entropy_mask, off_policy_sequence_mask, sequence_kl
from rlviz.core.objectives import (
    ALGORITHMS,
    get_algorithm,
    gradient_weights,
    policy_loss,
    resolve_settings,
    token_states,
    trust_band,
)
from rlviz.core.sampling import informative_groups
from rlviz.core.shaping import cosine_length_reward, kimi_length_reward, overlong_filter_mask, overlong_penalty

# RLVIZ_FUZZ_EXAMPLES=500 for a deeper (random, not derandomized) hunt
_DEEP = int(os.environ.get("RLVIZ_FUZZ_EXAMPLES", "0"))
FUZZ = settings(max_examples=_DEEP or 12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=not _DEEP)
DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
JUNK = (math.nan, math.inf, -math.inf)
# aliases: the name a ValueError uses for a parameter called otherwise in the signature
ALIASES = {
    group_advantages: {"scale_rewards"},
    estimate_advantages: {"adv_estimator"},
    expected_group_weight: {"adv_estimator"},
    get_estimator: {"adv_estimator"},
    kl_estimate: {"kl_estimator"},
    correction_weights: {"correction"},
    cap_shares: {"correction"},
    correction_band: {"correction"},
    get_correction: {"correction"},
    corrections.get_preset: {"preset"},
    corrections.correction_statistic: {"correction"},
    corrections.preset_weights: {"preset", "correction"},
    estimators.estimate_token_advantages: {"adv_estimator"},
    # the controller's settings named as TrainConfig names them (entropy_target, entropy_coef_delta, ...)
    **{
        fn: {"entropy_target", "entropy_coef_delta", "entropy_coef_min", "entropy_coef_max", "entropy_coef"}
        for fn in (
            entropy_control.validate_entropy_control,
            entropy_control.adaptive_entropy_update,
            entropy_control.adaptive_entropy_trajectory,
            entropy_control.entropy_bonus,
            entropy_control.controller_run,
        )
    },
    sampling.fill_cost: {"pass_rate"},
    sampling.mixture_signal_probability: {"pass_rate"},
}
# a setting's value: its default, the registry's choices, or something out of range or of a wrong type
ODD_VALUES = (0, -1.0, 1e-40, 1e-8, 0.5, 2.0, 1e8, 1e300, math.nan, math.inf, True, "x", None, [1.0])


def names_of(fn, extra=()) -> set[str]:
    return set(inspect.signature(fn).parameters) | ALIASES.get(fn, set()) | set(extra)


def assert_finite(x, what="result"):
    """Every float in ``x`` (tensors, numbers, tuples, dataclasses) is finite."""
    if isinstance(x, torch.Tensor):
        if x.is_floating_point():
            assert bool(torch.isfinite(x).all()), f"{what}: not finite: {x}"
    elif isinstance(x, float):
        assert math.isfinite(x), f"{what}: {x}"
    elif isinstance(x, (tuple, list)):
        for i, item in enumerate(x):
            assert_finite(item, f"{what}[{i}]")
    elif dataclasses.is_dataclass(x):
        for f in dataclasses.fields(x):
            assert_finite(getattr(x, f.name), f"{what}.{f.name}")


def outcome(call, names: set[str]):
    """``call()``: its result (checked finite), or ``None`` after a ValueError naming one of ``names``."""
    try:
        out = call()
    except ValueError as err:
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*): ", str(err))
        assert m is not None and m.group(1) in names, f"ValueError does not name a parameter: {err}"
        return None
    assert_finite(out)
    return out


def same(a, b) -> bool:
    """Equal results (NaN-free by then), or both refused."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, torch.Tensor):
        return a.shape == b.shape and bool(torch.equal(a, b))
    if isinstance(a, (tuple, list)):
        return all(same(x, y) for x, y in zip(a, b, strict=True))
    if dataclasses.is_dataclass(a):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    return a == b


# ------------------------------------------------------------------------------------------ inputs

value = st.one_of(
    st.floats(-30.0, 30.0, allow_nan=False, width=32),
    st.sampled_from((0.0, -0.0, 12.0, -12.0, 1e4, -1e4, 1e-30, 70000.0, 1e30, -1e30, 1e300)),
)


@st.composite
def tokens(draw, rows=None, cols=None, low_b=1):
    """A [B, T] batch: ``mask`` (1 real, 0 padding; all-padding rows and batches included), ``dtype``
    and a draw of values for any tensor of that shape (``fill()``)."""
    B = rows if rows is not None else draw(st.integers(low_b, 4))
    T = cols if cols is not None else draw(st.integers(1, 5))
    kind = draw(st.sampled_from(("random", "full", "row_padding", "all_padding")))
    mask = torch.tensor(draw(st.lists(st.booleans(), min_size=B * T, max_size=B * T)), dtype=torch.bool).view(B, T)
    if kind == "full":
        mask[:] = True
    elif kind == "row_padding":
        mask[0] = False
    elif kind == "all_padding":
        mask[:] = False
    dtype = draw(st.sampled_from(DTYPES))

    def fill(shape=(B, T), low=None, high=None):
        vals = draw(st.lists(value, min_size=math.prod(shape), max_size=math.prod(shape)))
        t = torch.tensor(vals, dtype=torch.float64).view(shape)
        if low is not None or high is not None:
            t = t.clamp(low, high)
        return t.to(dtype)

    return B, T, mask, dtype, fill


def poison(draw, t: torch.Tensor, mask: torch.Tensor, where: str) -> torch.Tensor:
    """``t`` with NaN / inf put at one real (``"real"``) or every padded (``"padding"``) position."""
    t = t.clone()
    junk = draw(st.sampled_from(JUNK))
    if where == "real" and bool(mask.any()):
        idx = torch.nonzero(mask)[draw(st.integers(0, int(mask.sum()) - 1))]
        t[tuple(idx)] = junk
    elif where == "padding":
        t[~mask] = junk
    return t


def zeroed(t: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return torch.where(mask, t, torch.zeros_like(t))


# ------------------------------------------------------------------------------------ policy losses


@pytest.mark.parametrize("name", list(ALGORITHMS))
@FUZZ
@given(data=st.data())
def test_policy_loss_and_gradient_weights(name, data):
    draw = data.draw
    B, T, mask, dtype, fill = draw(tokens())
    spec = ALGORITHMS[name]
    lp, old, ref = fill(high=0.0), fill(high=0.0), fill(high=0.0)
    adv = fill((B,)) if draw(st.booleans()) else fill()
    overrides = {}
    if draw(st.booleans()):  # one setting given an odd value (or a registry choice)
        setting = draw(st.sampled_from(spec.loss_settings))
        pool = {"loss_agg_mode": LOSS_AGG_MODES, "kl_estimator": KL_ESTIMATORS}.get(setting.name, ODD_VALUES)
        overrides[setting.name] = draw(st.sampled_from(pool))
    names = names_of(policy_loss) | set(spec.defaults)
    where = draw(st.sampled_from(("none", "padding", "real")))
    target = draw(st.sampled_from(("lp", "old", "ref", "adv")))
    junk = {"lp": lp, "old": old, "ref": ref, "adv": adv if adv.dim() == 2 else None}
    if junk[target] is not None:
        junk[target] = poison(draw, junk[target], mask, where)
    bad = {k: (v if v is not None else adv) for k, v in junk.items()}
    entropy = fill(low=0.0) if spec.reads_entropy else None

    def run(lp, old, ref, adv):
        grad, out = gradient_weights(name, lp, old, adv, mask.to(dtype), ref_log_prob=ref, **overrides)
        keep = policy_loss(name, lp, old, adv, mask, ref_log_prob=ref, keep_mask=mask, entropy=entropy, **overrides)
        return grad, out, keep.loss

    got = outcome(lambda: run(**bad), names)
    if where == "real" and bool(mask.any()) and junk[target] is not None:
        assert got is None, "NaN / inf at a real token must be refused"
    if where == "padding":
        clean = {k: zeroed(v, mask) if v.dim() == 2 else v for k, v in bad.items()}
        assert same(got, outcome(lambda: run(**clean), names)), "junk at padding changed the result"


# ---------------------------------------------------------------------------------- aggregation, KL


@pytest.mark.parametrize("mode", LOSS_AGG_MODES)
@FUZZ
@given(data=st.data())
def test_aggregate_token_weights_masked_mean(mode, data):
    draw = data.draw
    B, T, mask, dtype, fill = draw(tokens())
    loss = fill()
    norm_length = draw(st.sampled_from((None, 1, 7.5, 1e-40, 1e300, 0, -1.0, math.nan, True, "x")))
    where = draw(st.sampled_from(("none", "padding", "real")))
    bad = poison(draw, loss, mask, where)
    got = outcome(lambda: aggregate(bad, mask, mode, norm_length), names_of(aggregate))
    if where == "padding":
        assert same(got, outcome(lambda: aggregate(zeroed(bad, mask), mask, mode, norm_length), names_of(aggregate)))
    if where == "real" and bool(mask.any()):
        assert got is None
    outcome(lambda: token_weights(mask.to(dtype), mode, norm_length), names_of(token_weights))
    outcome(lambda: masked_mean(poison(draw, loss, mask, "padding"), mask, dim=-1), names_of(masked_mean))


@pytest.mark.parametrize("estimator", KL_ESTIMATORS)
@FUZZ
@given(data=st.data())
def test_kl_estimate(estimator, data):
    draw = data.draw
    B, T, mask, dtype, fill = draw(tokens())
    lp, ref = fill(), fill()
    old = fill() if draw(st.booleans()) else None
    if draw(st.booleans()):
        lp = poison(draw, lp, torch.ones_like(mask), "real")
    clamp = draw(st.sampled_from((True, False, 1, None)))
    names = names_of(kl_estimate)
    got = outcome(lambda: kl_estimate(lp, ref, estimator, old_log_prob=old, clamp=clamp), names)
    if bool(torch.isnan(lp).any()):
        assert got is None, "a NaN log-prob must be refused"
    if got is not None and clamp is True:  # the gradient too, through a leaf of the computing dtype
        leaf = lp.to(got.dtype).requires_grad_(True)
        (grad,) = torch.autograd.grad(kl_estimate(leaf, ref, estimator, old_log_prob=old).sum(), leaf)
        assert_finite(grad, "gradient")


# ---------------------------------------------------------------------------------------- advantages


@st.composite
def reward_groups(draw, low_n=0, low_g=0):
    n, g = draw(st.integers(low_n, 3)), draw(st.integers(low_g, 5))
    dtype = draw(st.sampled_from(DTYPES))
    kind = draw(st.sampled_from(("random", "equal", "nearly_equal", "binary")))
    vals = torch.tensor(draw(st.lists(value, min_size=n * g, max_size=n * g)), dtype=torch.float64).view(n, g)
    if kind == "equal" and n * g:
        vals[:] = vals.reshape(-1)[0]
    elif kind == "nearly_equal" and n * g:
        base = torch.tensor(draw(st.sampled_from((0.35, 1.0, -3.0, 1e4))), dtype=dtype)
        vals = base.expand(n, g).clone().double()
        vals[:, -1] = torch.nextafter(base, torch.tensor(math.inf, dtype=dtype)).double()
    elif kind == "binary":
        vals = (vals > 0).double()
    if draw(st.booleans()) and n * g:
        vals[draw(st.integers(0, n - 1)), draw(st.integers(0, g - 1))] = draw(st.sampled_from(JUNK))
    return vals.to(dtype)


@pytest.mark.parametrize("scale", ADVANTAGE_SCALES)
@FUZZ
@given(rewards=reward_groups(), eps=st.sampled_from((0.0, 1e-6, 1e-4, 1.0, 1e300, -1.0, math.nan, True, "x")))
def test_group_advantages(scale, rewards, eps):
    out = outcome(lambda: group_advantages(rewards, scale, eps), names_of(group_advantages))
    if out is not None:
        assert out.dtype == rewards.dtype and out.shape == rewards.shape
        equal = (rewards == rewards[:, :1]).all(dim=1)
        assert bool((out[equal] == 0).all()), "an all-equal group gets exactly 0, whatever eps"
    if not bool(torch.isfinite(rewards).all()):
        assert out is None


@pytest.mark.parametrize("name", list(ESTIMATORS))
@FUZZ
@given(data=st.data())
def test_estimate_advantages(name, data):
    draw = data.draw
    rewards = draw(reward_groups())
    n, g = rewards.shape
    extra = {}
    if draw(st.booleans()):
        extra["greedy_rewards"] = draw(st.sampled_from((torch.zeros(n), torch.full((n,), 1e30), torch.ones(n + 1))))
    if draw(st.booleans()):
        extra["lengths"] = draw(st.sampled_from((torch.ones(n, g), torch.full((n, g), 300.0), torch.zeros(n, g))))
    if draw(st.booleans()):
        k = draw(st.integers(1, 2))
        extra["components"] = torch.cat([rewards[..., None].double()] * k, dim=-1)
    out = outcome(lambda: estimate_advantages(name, rewards, **extra), names_of(estimate_advantages))
    if out is not None:
        assert out.dtype == rewards.dtype and out.shape == rewards.shape
    outcome(lambda: whiten(rewards, extra.get("lengths")), names_of(whiten))


@FUZZ
@given(data=st.data())
def test_gae(data):
    draw = data.draw
    B, T, mask, dtype, fill = draw(tokens())
    rewards, values = fill(), fill()
    where = draw(st.sampled_from(("none", "padding", "real")))
    rewards = poison(draw, rewards, mask, where)
    gamma, lam = draw(st.sampled_from((1.0, 0.9, 0.0, 1.5, math.nan, True))), draw(st.sampled_from((0.95, 0.0, 1.0)))
    got = outcome(lambda: gae(rewards, values, mask, gamma, lam, whiten=True), names_of(gae))
    if where == "padding":
        assert same(got, outcome(lambda: gae(zeroed(rewards, mask), values, mask, gamma, lam), names_of(gae)))


@FUZZ
@given(rewards=reward_groups())
def test_informative_groups(rewards):
    out = outcome(lambda: informative_groups(rewards), names_of(informative_groups))
    if out is not None:
        assert out.shape == rewards.shape[:1] and out.dtype == torch.bool


# ----------------------------------------------------------------------------- corrections and masks


@pytest.mark.parametrize("name", list(CORRECTIONS))
@FUZZ
@given(data=st.data())
def test_correction_weights(name, data):
    draw = data.draw
    B, T, mask, dtype, fill = draw(tokens())
    old, rollout = fill(high=0.0), fill(high=0.0)
    where = draw(st.sampled_from(("none", "padding", "real")))
    old = poison(draw, old, mask, where)
    low = draw(st.sampled_from((None, 0.5, 1e-30, 0.0, -1.0, math.inf, True, "x")))
    high = draw(st.sampled_from((None, 2.0, 1e30, 1e300, math.nan)))
    names = names_of(correction_weights)
    got = outcome(lambda: correction_weights(name, old, rollout, mask, low, high), names)
    if where == "real" and bool(mask.any()):
        assert got is None
    if where == "padding":
        assert same(got, outcome(lambda: correction_weights(name, zeroed(old, mask), rollout, mask, low, high), names))
    if got is not None:
        assert got[0].dtype == torch.promote_types(dtype, torch.float32)


@FUZZ
@given(data=st.data())
def test_masks(data):
    draw = data.draw
    B, T, mask, dtype, fill = draw(tokens())
    lp, sampled, entropy = fill(high=0.0), fill(high=0.0), fill(low=0.0)
    adv = fill((B,)) if draw(st.booleans()) else fill()
    where = draw(st.sampled_from(("none", "padding", "real")))
    lp, entropy = poison(draw, lp, mask, where), poison(draw, entropy, mask, where)
    quantile = draw(st.sampled_from((1.0, 0.2, 1e-30, 0.0, 1.5, math.nan, True)))
    threshold = draw(st.sampled_from((0.0, 0.5, 1e300, -1.0, math.inf, True)))
    for fn, call in (
        (high_entropy_mask, lambda e: high_entropy_mask(e, mask, quantile)),
        (sequence_kl, lambda e: sequence_kl(lp, sampled, mask)),
        (off_policy_sequence_mask, lambda e: off_policy_sequence_mask(adv, lp, sampled, mask, threshold)),
    ):
        got = outcome(lambda call=call: call(entropy), names_of(fn))
        if where == "real" and bool(mask.any()):
            assert got is None, fn.__name__


# ------------------------------------------------------------------------------------------- shaping


@FUZZ
@given(data=st.data())
def test_shaping(data):
    draw = data.draw
    n, g = draw(st.integers(0, 3)), draw(st.integers(0, 4))
    dtype = draw(st.sampled_from(DTYPES))
    pool = (0.0, 1.0, 7.0, 300.0, 4096.0, 70000.0, 1e30, -1.0, math.nan, math.inf)
    lengths = torch.tensor(draw(st.lists(st.sampled_from(pool), min_size=n * g, max_size=n * g))).view(n, g).to(dtype)
    correct = torch.tensor(draw(st.lists(st.booleans(), min_size=n * g, max_size=n * g)), dtype=torch.bool).view(n, g)
    max_length = draw(st.sampled_from((1, 512, 4096, 0, 1e300, math.nan, True)))
    buffer = draw(st.sampled_from((0, 128, 1e300, -1, "x")))
    outcome(lambda: overlong_penalty(lengths.reshape(-1), max_length, buffer, 1.0), names_of(overlong_penalty))
    outcome(lambda: overlong_filter_mask(correct.reshape(-1)), names_of(overlong_filter_mask))
    outcome(lambda: kimi_length_reward(lengths, correct), names_of(kimi_length_reward))
    reward = draw(st.sampled_from((2.0, -10.0, 1e300, math.inf)))
    outcome(
        lambda: cosine_length_reward(lengths.reshape(-1), correct.reshape(-1), max_length, r0_correct=reward),
        names_of(cosine_length_reward),
    )


# --------------------------------------------------------------------------------------- bad types

_LP = torch.tensor([[-1.0, -2.0], [-0.5, -0.1]])
_OLD = torch.tensor([[-1.1, -2.0], [-0.4, -0.3]])
_MASK = torch.tensor([[1.0, 1.0], [1.0, 0.0]])
_ADV = torch.tensor([1.0, -1.0])
# one valid call of every public function of rlviz.core (each keyword is then replaced by junk)
VALID_CALLS = (
    (group_advantages, dict(rewards=[[1.0, 0.0]], scale="group", eps=1e-6)),
    (gae, dict(rewards=_LP, values=_OLD, response_mask=_MASK, gamma=1.0, lam=0.95, whiten=True)),
    (masked_mean, dict(x=_LP, mask=_MASK, dim=-1)),
    (token_weights, dict(response_mask=_MASK, loss_agg_mode="seq-mean-token-sum-norm", norm_length=4)),
    (aggregate, dict(per_token_loss=_LP, response_mask=_MASK, loss_agg_mode="token-mean", norm_length=None)),
    (get_correction, dict(name="token_tis")),
    (correction_band, dict(name="token_mis", low=0.5, high=2.0)),
    (
        correction_weights,
        dict(name="token_mis", old_log_prob=_LP, rollout_log_prob=_OLD, response_mask=_MASK, low=0.5, high=2.0),
    ),
    (cap_shares, dict(name="token_tis", old_log_prob=_LP, rollout_log_prob=_OLD, response_mask=_MASK, high=2.0)),
    (estimate_advantages, dict(name="remax", rewards=[[1.0, 0.0]], greedy_rewards=[0.5], lengths=[[3, 4]])),
    (estimate_advantages, dict(name="gdpo", rewards=[[1.0, 0.0]], components=[[[1.0], [0.0]]])),
    (expected_group_weight, dict(name="grpo", pass_rate=[0.5], group_size=4)),
    (get_estimator, dict(name="grpo")),
    (reference_batch, dict(group_size=3, dtype=torch.float64)),
    (whiten, dict(values=[[1.0, 0.0]], lengths=[[3, 4]])),
    (kl_estimate, dict(log_prob=_LP, ref_log_prob=_OLD, estimator="k3_bc", old_log_prob=_OLD, clamp=True)),
    (high_entropy_mask, dict(entropy=-_LP, response_mask=_MASK, top_quantile=0.5)),
    (sequence_kl, dict(log_prob=_LP, sampling_log_prob=_OLD, response_mask=_MASK)),
    (
        off_policy_sequence_mask,
        dict(advantages=_ADV, log_prob=_LP, sampling_log_prob=_OLD, response_mask=_MASK, threshold=0.1),
    ),
    (get_algorithm, dict(name="grpo")),
    (resolve_settings, dict(name="grpo", epsilon_low=0.2, beta=0.0, loss_agg_mode="token-mean")),
    (trust_band, dict(name="grpo", epsilon_low=0.2)),
    (
        policy_loss,
        dict(
            name="aspo",
            log_prob=_LP,
            old_log_prob=_OLD,
            advantages=_ADV,
            response_mask=_MASK,
            ref_log_prob=_OLD,
            rows_alone=False,
            keep_mask=_MASK,
            entropy=-_LP,
            beta=0.1,
        ),
    ),
    (
        gradient_weights,
        dict(name="sapo", log_prob=_LP, old_log_prob=_OLD, advantages=_ADV, response_mask=_MASK, tau_pos=1.0),
    ),
    (token_states, dict(name="grpo", out=policy_loss("grpo", _LP, _OLD, _ADV, _MASK, _OLD), response_mask=_MASK)),
    (informative_groups, dict(rewards=[[1.0, 0.0]])),
    (sampling.signal_probability, dict(pass_rate=[0.5], group_size=4)),
    (sampling.beta_signal_probability, dict(a=1.0, b=2.0, group_size=4)),
    (sampling.mixture_signal_probability, dict(pass_rates=[0.5], weights=[1.0], group_size=4)),
    (sampling.binomial_cdf_below, dict(trials=[4], prob=0.5, below=2)),
    (sampling.fill_cost, dict(signal_prob=0.5, prompts_per_round=4, target_groups=4, group_size=4, max_rounds=3)),
    (sampling.binomial_pmf_upto, dict(trials=4, prob=0.5, upto=2)),
    (sampling.expected_advantage_mass, dict(pass_rate=[0.5], group_size=4, scale_rewards="group")),
    (overlong_penalty, dict(lengths=[3, 9], max_length=10, buffer_length=4, penalty_factor=1.0)),
    (overlong_filter_mask, dict(truncated=[True, False])),
    (kimi_length_reward, dict(lengths=[[3, 9]], correct=[[True, False]])),
    (cosine_length_reward, dict(lengths=[3, 9], correct=[True, False], max_length=10, r0_correct=2.0)),
    (parity.load_parity, dict(directory=parity.PARITY_DIR)),
    (parity.checked_against, dict(kind="policy")),
    (parity.check_all, dict(directory=parity.PARITY_DIR)),
    (frameworks.framework_name, dict(setting=ALGORITHMS["grpo"].setting("beta"), framework="verl")),
    (passk.pass_at_k, dict(n=8, c=3, k=2)),
    (passk.mean_pass_at_k, dict(counts=[(8, 3), (8, 0)], k=2)),
    (passk.pass_at_k_curve, dict(right=[3, 0], n=8)),
    (passk.distinct_right, dict(texts=["12", "21", "12"], rewards=[1.0, 1.0, 0.0])),
    (corrections.get_preset, dict(name="decoupled_geo_rs")),
    (
        corrections.correction_statistic,
        dict(name="k3_rs", old_log_prob=_LP, rollout_log_prob=_OLD, response_mask=_MASK),
    ),
    (
        corrections.preset_weights,
        dict(name="decoupled_seq_is_rs", old_log_prob=_LP, rollout_log_prob=_OLD, response_mask=_MASK),
    ),
    (entropy_control.validate_entropy_control, dict(target=0.5, delta=0.001, coef_min=0.0, coef_max=0.5)),
    (entropy_control.adaptive_entropy_update, dict(coef=0.0, entropy=0.4, target=0.5, delta=0.001)),
    (entropy_control.adaptive_entropy_trajectory, dict(entropies=[0.6, 0.4], target=0.5, delta=0.001)),
    (entropy_control.controller_run, dict(entropies=[0.6, 0.5, 0.4], target=0.5, delta=0.001, rule="trl")),
    (
        entropy_control.entropy_bonus,
        dict(entropy=-_LP, response_mask=_MASK, coef=0.01, loss_agg_mode="seq-mean-token-sum-norm", norm_length=8),
    ),
    (
        estimators.estimate_token_advantages,
        dict(
            name="optimal_token_baseline",
            rewards=[[1.0, 0.0]],
            response_mask=[[[1.0, 1.0], [1.0, 0.0]]],
            old_log_probs=[[[-0.1, -0.2], [-0.5, -3.0]]],
            sum_pi_squared=[[[0.8, 0.7], [0.5, 0.9]]],
        ),
    ),
    (
        advice.unusual_settings,
        dict(algorithm="grpo", settings={"kl_estimator": "k1", "beta": 0.04}, kl_in_reward=False),
    ),
)
# a string, None, a bool, a mixed or ragged list, a dict, an object, NaN, an overflowing float, a complex tensor
JUNK_ARGS = ("x", None, True, [1.0, "a"], [[1.0, 2.0], [3.0]], {"a": 1}, object(), math.nan, 1e400, torch.tensor([1j]))


@pytest.mark.parametrize("fn, kwargs", VALID_CALLS, ids=[f"{fn.__name__}-{i}" for i, (fn, _) in enumerate(VALID_CALLS)])
def test_bad_types_raise_value_error_naming_a_parameter(fn, kwargs):
    # never a TypeError or AttributeError from inside torch: either the call copes (None is a valid
    # "off" for some settings) or a ValueError says which parameter is wrong
    names = names_of(fn, kwargs)
    fn(**kwargs)
    for key in kwargs:
        for junk in JUNK_ARGS:
            try:
                fn(**{**kwargs, key: junk})
            except ValueError as err:
                m = re.match(r"([A-Za-z_][A-Za-z0-9_]*): ", str(err))
                assert m is not None and m.group(1) in names, f"{fn.__name__}({key}={junk!r}): {err}"


def test_every_public_core_function_is_in_the_bad_type_table():
    covered = {fn for fn, _ in VALID_CALLS}
    missing = []
    for info in pkgutil.iter_modules(rlviz.core.__path__):
        if info.name == "validate":  # the checks themselves
            continue
        module = importlib.import_module(f"rlviz.core.{info.name}")
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if inspect.isfunction(obj) and obj not in covered:
                missing.append(f"{info.name}.{name}")
    allowed = {
        "objectives.check_types",
        "parity.check_all",
    }  # check_types: the settings' own check; check_all: as load_parity
    assert set(missing) <= allowed, sorted(set(missing) - allowed)
