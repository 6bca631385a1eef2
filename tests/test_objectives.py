"""Every objective against values computed by hand (formula in the comment) and against autograd.

Two kinds of test: hand values, one algorithm at a time; and generic properties parametrised over
every entry of ``ALGORITHMS`` (and each entry's named examples), so a new entry gets them with no
test edit. A property that differs between entries reads the difference from the spec
(``trust_region``, ``clip_space``, its settings), never from the name.
"""

import dataclasses
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from rlviz.core.aggregation import aggregate, token_weights
from rlviz.core.kl import kl_estimate
from rlviz.core.objectives import (
    ALGORITHMS,
    TOKEN_STATES,
    gradient_weights,
    policy_loss,
    resolve_settings,
    token_states,
    trust_band,
)


@pytest.fixture(autouse=True)
def float64():
    """Hand-computed values are checked in float64; restore the default afterwards."""
    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(before)


# every registry entry with its default settings, then each of its named examples (e.g. PPO with the
# dual clip on): the cases of the generic properties below
NAMES = list(ALGORITHMS)
CASES = [pytest.param(n, {}, id=n) for n in NAMES] + [
    pytest.param(n, dict(ex.overrides), id=f"{n}_{ex.suffix}") for n, spec in ALGORITHMS.items() for ex in spec.examples
]


def one_token(ratio, adv):
    """A [1, 1] batch whose single token has importance ratio ``ratio`` and advantage ``adv``."""
    old = torch.tensor([[math.log(0.2)]])
    lp = old + math.log(ratio)
    return lp, old, torch.tensor([float(adv)]), torch.ones(1, 1)


def test_registry_has_the_twenty_two_algorithms_with_sourced_defaults():
    first = ["ppo", "grpo", "dr_grpo", "dapo", "gspo", "gspo_token", "gmpo", "sapo", "cispo"]
    after_gspo = ["gppo", "ce_gppo", "dppo_tv", "dppo_kl", "clip_cov", "kl_cov", "vespo", "luspo", "m2po", "aspo"]
    issue_43 = ["gpg", "dro", "bypass_pg"]
    assert list(ALGORITHMS) == first + after_gspo + issue_43
    for spec in ALGORITHMS.values():
        assert spec.summary["zh"] and spec.summary["en"] and spec.arxiv
        for s in spec.loss_settings + spec.train_settings:
            assert s.source, (spec.name, s.name)
    assert ALGORITHMS["dapo"].defaults["epsilon_high"] == 0.28
    assert ALGORITHMS["gspo"].defaults["epsilon_low"] == 3e-4
    assert ALGORITHMS["sapo"].defaults["tau_neg"] == 1.05
    assert ALGORITHMS["dapo"].setting("epsilon_high").trl == "epsilon_high"
    assert ALGORITHMS["dapo"].setting("epsilon_high").verl == "actor.clip_ratio_high"


@pytest.mark.parametrize(
    "ratio, adv, loss, grad",
    [
        # A>0, r=1.5 > 1+0.2: max(-1.5, -1.2) = -1.2, clipped -> zero gradient
        (1.5, 1.0, -1.2, 0.0),
        # A>0, r=0.5 < 1-0.2: max(-0.5, -0.8) = -0.5, unclipped branch, d(-A r)/dl = -A r = -0.5
        (0.5, 1.0, -0.5, -0.5),
        # A<0, r=0.5 < 0.8: max(0.5, 0.8) = 0.8, clipped -> zero gradient
        (0.5, -1.0, 0.8, 0.0),
        # A<0, r=1.5 > 1.2: max(1.5, 1.2) = 1.5, unclipped, gradient -A r = 1.5
        (1.5, -1.0, 1.5, 1.5),
        # inside the band: A=2, r=1.1: -A r = -2.2, gradient -2.2
        (1.1, 2.0, -2.2, -2.2),
    ],
)
def test_ppo_clip_six_cases(ratio, adv, loss, grad):
    lp, old, a, m = one_token(ratio, adv)
    g, out = gradient_weights("ppo", lp, old, a, m)
    assert out.loss.item() == pytest.approx(loss, abs=1e-12)
    assert float(g[0, 0]) == pytest.approx(grad, abs=1e-12)
    assert bool(out.clipped[0, 0]) == (grad == 0.0)


def test_clip_ceiling_in_probability_space():
    # pi_old = 0.2, eps = 0.2: the ceiling is 0.2 * 1.2 = 0.24; with eps_high = 0.28 it is 0.256.
    old = torch.tensor([[math.log(0.2)]])
    m, a = torch.ones(1, 1), torch.tensor([1.0])
    for name, ceiling in (("grpo", 0.24), ("dapo", 0.256)):
        below, _ = gradient_weights(name, torch.tensor([[math.log(ceiling - 1e-4)]]), old, a, m, beta=0.0)
        above, _ = gradient_weights(name, torch.tensor([[math.log(ceiling + 1e-4)]]), old, a, m, beta=0.0)
        assert float(below[0, 0]) < 0.0
        assert float(above[0, 0]) == 0.0


def test_dual_clip_acts_only_for_negative_advantage():
    # A=-1, r=4 > c=3: min(max(4, 1.2), 3) = 3 and the gradient is zero.
    lp, old, a, m = one_token(4.0, -1.0)
    g, out = gradient_weights("ppo", lp, old, a, m, dual_clip_c=3.0)
    assert out.loss.item() == pytest.approx(3.0)
    assert float(g[0, 0]) == 0.0 and out.clip_fraction_dual == 1.0
    # without dual clip the same token costs 4 with gradient -A r = 4
    g, out = gradient_weights("ppo", lp, old, a, m)
    assert out.loss.item() == pytest.approx(4.0) and float(g[0, 0]) == pytest.approx(4.0)
    # A=+1, r=4: dual clip changes nothing: max(-4, -1.2) = -1.2
    lp, old, a, m = one_token(4.0, 1.0)
    _, with_c = gradient_weights("ppo", lp, old, a, m, dual_clip_c=3.0)
    _, without = gradient_weights("ppo", lp, old, a, m)
    assert with_c.loss.item() == without.loss.item() == pytest.approx(-1.2)
    assert with_c.clip_fraction_dual == 0.0


def _two_responses(long=200, short=10):
    T = long
    mask = torch.zeros(2, T)
    mask[0, :long] = 1
    mask[1, :short] = 1
    lp = torch.full((2, T), -1.0)
    return lp, mask


def test_token_vs_sequence_weighting_200_and_10():
    lp, mask = _two_responses()
    adv = torch.tensor([1.0, 1.0])
    # seq-mean-token-mean (GRPO): (1/2)(1/200) per long token, (1/2)(1/10) per short token
    g, _ = gradient_weights("grpo", lp, lp, adv, mask, beta=0.0)
    assert float(g[0, 0]) == pytest.approx(-(1 / 200) * (1 / 2))
    assert float(g[1, 0]) == pytest.approx(-(1 / 10) * (1 / 2))
    # token-mean (DAPO): 1/210 for every token
    g, _ = gradient_weights("dapo", lp, lp, adv, mask)
    assert float(g[0, 0]) == pytest.approx(-1 / 210) and float(g[1, 5]) == pytest.approx(-1 / 210)
    assert float(g[1, 10]) == 0.0  # padding
    # seq-mean-token-sum-norm (Dr.GRPO) with norm_length 100: 1 / (B * 100) = 1/200 per token
    g, _ = gradient_weights("dr_grpo", lp, lp, adv, mask, norm_length=100)
    assert float(g[0, 0]) == pytest.approx(-1 / 200) and float(g[1, 0]) == pytest.approx(-1 / 200)
    # seq-mean-token-sum: 1/B = 1/2 per token
    w = token_weights(mask, "seq-mean-token-sum")
    assert float(w[0, 0]) == pytest.approx(0.5)


def test_gspo_sequence_ratio_and_gradient():
    # l = (0.1, -0.1, 0.3): log s = 0.1, s = e^0.1 ~ 1.105 > 1 + 4e-4
    old = torch.zeros(1, 3)
    lp = torch.tensor([[0.1, -0.1, 0.3]])
    m = torch.ones(1, 3)
    s = math.exp(0.1)
    g, out = gradient_weights("gspo", lp, old, torch.tensor([1.0]), m)
    assert torch.allclose(out.ratio, torch.full((1, 3), s))
    assert out.loss.item() == pytest.approx(-(1 + 4e-4))  # clipped at 1 + eps_high, A = 1
    assert torch.all(g == 0) and out.clip_fraction == 1.0  # the whole response is clipped
    # A = -1 with s > 1: the unclipped branch; each token gets -A s / (B L) = s / 3
    g, out = gradient_weights("gspo", lp, old, torch.tensor([-1.0]), m)
    assert torch.allclose(g, torch.full((1, 3), s / 3))
    assert out.clip_fraction == 0.0


def test_gspo_token_equals_gspo_for_constant_advantage():
    torch.manual_seed(0)
    lp = -torch.rand(3, 6)
    old = lp + 1e-4 * torch.randn(3, 6)
    mask = torch.ones(3, 6)
    mask[1, 4:] = 0
    adv = torch.tensor([0.7, -1.2, 0.3])
    g1, o1 = gradient_weights("gspo", lp, old, adv, mask)
    g2, o2 = gradient_weights("gspo_token", lp, old, adv, mask)
    assert torch.allclose(o1.loss, o2.loss, atol=1e-12)
    assert torch.allclose(g1, g2, atol=1e-12)


def test_gmpo_log_space_clip():
    # l = (0.5, 0.1), A = 1, eps = 0.4: l~ = (0.4, 0.1), rho = e^0.25, loss = -rho;
    # token 1 is clipped (zero gradient), token 2 gets -rho / 2.
    old = torch.zeros(1, 2)
    lp = torch.tensor([[0.5, 0.1]])
    g, out = gradient_weights("gmpo", lp, old, torch.tensor([1.0]), torch.ones(1, 2))
    rho = math.exp(0.25)
    assert out.loss.item() == pytest.approx(-rho)
    assert float(g[0, 0]) == 0.0 and float(g[0, 1]) == pytest.approx(-rho / 2)
    assert out.clipped.tolist() == [[True, False]]


def test_sapo_gate():
    # r = 1: loss = -A (4/tau) sigma(0) = -2A/tau; gradient -A f'(1) r = -A
    lp, old, a, m = one_token(1.0, 1.0)
    g, out = gradient_weights("sapo", lp, old, a, m)
    assert out.loss.item() == pytest.approx(-2.0 / 1.0)
    assert float(g[0, 0]) == pytest.approx(-1.0)
    assert float(out.gate_weight[0, 0]) == pytest.approx(1.0)
    # r = 2, tau_pos = 1: f'(2) = 4 s (1 - s), s = sigmoid(1); gradient = -A f'(r) r
    lp, old, a, m = one_token(2.0, 1.0)
    g, out = gradient_weights("sapo", lp, old, a, m)
    s = 1 / (1 + math.exp(-1))
    assert float(g[0, 0]) == pytest.approx(-4 * s * (1 - s) * 2)
    assert float(out.gate_weight[0, 0]) == pytest.approx(4 * s * (1 - s))
    # A < 0 uses tau_neg = 1.05: loss at r = 1 is -A * 4/1.05 * 0.5
    lp, old, a, m = one_token(1.0, -1.0)
    _, out = gradient_weights("sapo", lp, old, a, m)
    assert out.loss.item() == pytest.approx(2.0 / 1.05)


def test_cispo_keeps_a_bounded_gradient_outside_the_trust_region():
    # r = 2 > 1 + 0.2: weight clipped to 1.2, gradient -A * 1.2 (not zero, unlike PPO)
    lp, old, a, m = one_token(2.0, 1.0)
    g, out = gradient_weights("cispo", lp, old, a, m)
    assert float(g[0, 0]) == pytest.approx(-1.2)
    assert out.loss.item() == pytest.approx(-1.2)
    assert bool(out.clipped[0, 0])
    g_ppo, _ = gradient_weights("ppo", lp, old, a, m)
    assert float(g_ppo[0, 0]) == 0.0


def test_gppo_and_ce_gppo_keep_a_scaled_gradient_where_ppo_clips():
    # A > 0, r = 1.5 > 1 + 0.28: PPO's clipped value -1.28, gradient 0; GPPO the same value with
    # gradient -A (1 + 0.28) = -1.28; CE-GPPO times beta_2 = 1
    lp, old, a, m = one_token(1.5, 1.0)
    for name in ("gppo", "ce_gppo"):
        g, out = gradient_weights(name, lp, old, a, m)
        assert out.loss.item() == pytest.approx(-1.28) and float(g[0, 0]) == pytest.approx(-1.28)
        assert token_states(name, out).tolist() == [["capped"]]
    # A < 0, r = 0.5 < 1 - 0.2: GPPO value -A (1 - 0.2) = 0.8 and gradient 0.8; CE-GPPO beta_1 = 0.75:
    # value and gradient 0.75 x 0.8 = 0.6
    lp, old, a, m = one_token(0.5, -1.0)
    g, out = gradient_weights("gppo", lp, old, a, m)
    assert out.loss.item() == pytest.approx(0.8) and float(g[0, 0]) == pytest.approx(0.8)
    g, out = gradient_weights("ce_gppo", lp, old, a, m)
    assert out.loss.item() == pytest.approx(0.6) and float(g[0, 0]) == pytest.approx(0.6)
    # inside the band (r = 1.1): -A r, gradient -A r = -1.1, as PPO
    lp, old, a, m = one_token(1.1, 1.0)
    assert float(gradient_weights("ce_gppo", lp, old, a, m)[0][0, 0]) == pytest.approx(-1.1)


def test_dppo_masks_by_the_probability_shift_not_the_ratio():
    # one_token: pi_old = 0.2. r = 1.5 -> pi = 0.3, pi - pi_old = 0.1 <= 0.15: kept, although PPO clips it;
    # gradient -A min(r, c) = -1.5
    lp, old, a, m = one_token(1.5, 1.0)
    g, out = gradient_weights("dppo_tv", lp, old, a, m)
    assert float(g[0, 0]) == pytest.approx(-1.5) and not bool(out.clipped[0, 0])
    # r = 1.8 -> pi = 0.36, shift 0.16 > 0.15 with A > 0: masked, zero gradient
    lp, old, a, m = one_token(1.8, 1.0)
    g, out = gradient_weights("dppo_tv", lp, old, a, m)
    assert float(g[0, 0]) == 0.0 and token_states("dppo_tv", out).tolist() == [["clipped"]]
    # the same shift with A < 0 moves against the advantage's push: kept, gradient -A r = 1.8
    lp, old, a, m = one_token(1.8, -1.0)
    assert float(gradient_weights("dppo_tv", lp, old, a, m)[0][0, 0]) == pytest.approx(1.8)
    # binary KL at pi_old = 0.2, pi = 0.3: 0.2 ln(0.2/0.3) + 0.8 ln(0.8/0.7) = 0.02573 <= 0.05: kept;
    # pi = 0.4 (r = 2): 0.2 ln 0.5 + 0.8 ln(0.8/0.6) = 0.09151 > 0.05 and pi > pi_old: masked for A > 0
    lp, old, a, m = one_token(1.5, 1.0)
    assert float(gradient_weights("dppo_kl", lp, old, a, m)[0][0, 0]) == pytest.approx(-1.5)
    lp, old, a, m = one_token(2.0, 1.0)
    assert float(gradient_weights("dppo_kl", lp, old, a, m)[0][0, 0]) == 0.0


def test_clip_cov_detaches_a_high_covariance_token_and_kl_cov_penalises_it():
    # two tokens, A = (2, -2) (per token), log pi = (-1, -3), r = 1: means 0 and -2; covariances
    # (2 - 0)(-1 + 2) = 2 in (1, 5) and (-2)(-1) = 2 in (1, 5); limit max(1, int(2e-4 x 2)) = 1 token
    lp = torch.tensor([[-1.0, -3.0]], dtype=torch.float64)
    adv = torch.tensor([[2.0, -2.0]], dtype=torch.float64)
    m = torch.ones(1, 2, dtype=torch.float64)
    g, out = gradient_weights("clip_cov", lp, lp, adv, m)
    assert int(out.clipped.sum()) == 1  # one of the two detached, on-policy (acts_on_policy)
    kept = ~out.clipped[0]
    # token-mean over 2 tokens: the kept token's gradient -A / 2
    assert torch.allclose(g[0][kept], -adv[0][kept] / 2) and float(g[0][~kept]) == 0.0
    # KL-Cov at r = e^0.5 on token 1 only: the top-1 covariance token gets coef |l| = 0.5 added;
    # its gradient -A r + coef sign(l) = -2 e^0.5 + 1, over 2 tokens
    old = lp.clone()
    new = lp + torch.tensor([[0.5, 0.0]], dtype=torch.float64)
    g, out = gradient_weights("kl_cov", new, old, adv, m)
    assert float(g[0, 0]) == pytest.approx((-2 * math.exp(0.5) + 1.0) / 2)
    assert float(g[0, 1]) == pytest.approx(2.0 / 2)


def test_vespo_weights_a_response_by_a_gamma_of_its_sequence_ratio():
    # one response of two tokens, l = (0.1, 0.2): w = e^0.3; A = 1 >= 0 -> k = 2, lambda = 3:
    # phi = e^(3 + 2 x 0.3 - 3 e^0.3); per-token gradient -A phi, token-mean over 2 -> -phi / 2
    old = torch.zeros(1, 2, dtype=torch.float64)
    lp = torch.tensor([[0.1, 0.2]], dtype=torch.float64)
    g, out = gradient_weights("vespo", lp, old, torch.tensor([1.0], dtype=torch.float64), torch.ones(1, 2))
    phi = math.exp(3 + 0.6 - 3 * math.exp(0.3))
    assert torch.allclose(g, torch.full_like(g, -phi / 2)) and out.loss.item() == pytest.approx(-phi)
    assert float(out.gate_weight[0, 0]) == pytest.approx(phi)
    # on-policy w = 1: phi(1) = e^lambda e^-lambda = 1, the plain policy gradient


def test_luspo_is_gspo_with_each_response_weighted_by_its_length():
    # two responses of lengths 1 and 3 inside the band: GSPO averages -A s per response;
    # LUSPO sums it over the tokens, mean over responses: (1 x (-1) + 3 x (-1)) / 2 = -2
    lp = torch.zeros(2, 3, dtype=torch.float64)
    m = torch.tensor([[1.0, 0.0, 0.0], [1.0, 1.0, 1.0]], dtype=torch.float64)
    a = torch.tensor([1.0, 1.0], dtype=torch.float64)
    assert policy_loss("luspo", lp, lp, a, m).loss.item() == pytest.approx(-2.0)
    assert policy_loss("gspo", lp, lp, a, m).loss.item() == pytest.approx(-1.0)


def test_m2po_masks_the_largest_pushed_log_ratios_until_the_second_moment_fits():
    # A = +1 on four tokens with l = (0.1, 0.2, 0.3, -0.5): pushed (A l > 0) are the first three,
    # l^2 = (0.01, 0.04, 0.09), mean 0.0467 > 0.04; sorted prefix means 0.01, 0.025, 0.0467: keep 2,
    # mask l = 0.3. Token-mean over 4: gradients -r/4 for the kept, 0 for the masked one; l = -0.5
    # (A l < 0) is never masked
    old = torch.zeros(1, 4, dtype=torch.float64)
    lp = torch.tensor([[0.1, 0.2, 0.3, -0.5]], dtype=torch.float64)
    g, out = gradient_weights("m2po", lp, old, torch.tensor([1.0], dtype=torch.float64), torch.ones(1, 4))
    assert out.clipped.tolist() == [[False, False, True, False]]
    expected = [-math.exp(0.1) / 4, -math.exp(0.2) / 4, 0.0, -math.exp(-0.5) / 4]
    assert g[0].tolist() == pytest.approx(expected)


def test_gpg_dro_and_bypass_reinforce_by_hand():
    # one response of two tokens, A = 1, l = (0.5, -0.2), token-mean over 2 tokens (weight 1/2 each)
    old = torch.tensor([[-1.0, -1.0]])
    lp = old + torch.tensor([[0.5, -0.2]])
    adv, mask = torch.tensor([1.0]), torch.ones(1, 2)
    # GPG: -A log pi, gradient -A / 2 per token whatever the ratio; value -A (rlviz's -A pi/sg[pi])
    g, out = gradient_weights("gpg", lp, old, adv, mask)
    assert g[0].tolist() == pytest.approx([-0.5, -0.5]) and out.loss.item() == pytest.approx(-1.0)
    # DRO (beta = 1): gradient (-A + beta l) / 2 = (-1 + 0.5) / 2 = -0.25 and (-1 - 0.2) / 2 = -0.6;
    # value (-A + l^2 / 2) / 2 summed: (-1 + 0.125 - 1 + 0.02) / 2 = -0.9275
    g, out = gradient_weights("dro", lp, old, adv, mask)
    assert g[0].tolist() == pytest.approx([-0.25, -0.6]) and out.loss.item() == pytest.approx(-0.9275)
    # past l = A / beta the penalty wins: l = 2 with beta = 0.5 and A = 0.5 -> (-0.5 + 1) = +0.5, pulled back
    g, _ = gradient_weights("dro", old[:, :1] + 2.0, old[:, :1], torch.tensor([0.5]), torch.ones(1, 1), dro_beta=0.5)
    assert float(g[0, 0]) == pytest.approx(0.5)
    # bypass REINFORCE, sequence level (default): rho = exp(0.5 - 0.2) = 1.3499 < C = 2 -> -rho / 2 per token
    g, out = gradient_weights("bypass_pg", lp, old, adv, mask)
    assert g[0].tolist() == pytest.approx([-math.exp(0.3) / 2] * 2) and not out.clipped.any()
    # token level, C = 1.5: min(e^0.5 = 1.6487, 1.5) = 1.5 (capped, gradient kept) and e^-0.2 = 0.8187
    g, out = gradient_weights("bypass_pg", lp, old, adv, mask, bypass_is_level="token", bypass_is_cap=1.5)
    assert g[0].tolist() == pytest.approx([-0.75, -math.exp(-0.2) / 2])
    assert token_states("bypass_pg", out, mask)[0].tolist() == ["capped", "active"]
    # a whole response past C: rho = exp(0.9 + 0.3) = 3.32 > 2, every token capped at weight 2
    g, out = gradient_weights("bypass_pg", old + torch.tensor([[0.9, 0.3]]), old, adv, mask)
    assert g[0].tolist() == pytest.approx([-1.0, -1.0]) and bool(out.clipped.all())
    for setting, value in (("dro_beta", 0.0), ("bypass_is_cap", 0.5), ("bypass_is_level", "batch")):
        with pytest.raises(ValueError, match=f"^{setting}"):
            policy_loss("dro" if setting == "dro_beta" else "bypass_pg", lp, old, adv, mask, **{setting: value})


def test_kl_estimators_and_kl_in_loss():
    x = 0.5  # log pi - log pi_ref
    lp, ref = torch.tensor([[x]]), torch.tensor([[0.0]])
    assert float(kl_estimate(lp, ref, "k1")) == pytest.approx(0.5)  # x
    assert float(kl_estimate(lp, ref, "k2")) == pytest.approx(0.125)  # x^2 / 2
    assert float(kl_estimate(lp, ref, "k3")) == pytest.approx(math.exp(-0.5) + 0.5 - 1)  # e^-x + x - 1
    # k3 is clamped at 10 (verl, SkyRL): x = -15 gives e^15 - 16 > 10
    assert float(kl_estimate(torch.tensor([[-15.0]]), ref, "k3")) == 10.0
    # GRPO on-policy, A = 0: the loss is beta * k3 alone
    out = policy_loss("grpo", lp, lp, torch.tensor([0.0]), torch.ones(1, 1), ref_log_prob=ref, beta=0.04)
    assert out.loss.item() == pytest.approx(0.04 * (math.exp(-0.5) - 0.5))
    assert out.kl == pytest.approx(math.exp(-0.5) - 0.5)


@pytest.mark.parametrize(
    "name, override, param",
    [
        ("ppo", {"epsilon_low": -0.1}, "epsilon_low"),
        ("dapo", {"epsilon_high": float("nan")}, "epsilon_high"),
        ("ppo", {"dual_clip_c": 0.5}, "dual_clip_c"),
        ("sapo", {"tau_neg": 0.0}, "tau_neg"),
        ("grpo", {"loss_agg_mode": "mean"}, "loss_agg_mode"),
        ("grpo", {"kl_estimator": "k4"}, "kl_estimator"),
        ("gspo", {"tau_pos": 1.0}, "tau_pos"),
        ("dr_grpo", {"norm_length": 0}, "norm_length"),
        ("nope", {}, "name"),
    ],
)
def test_bad_settings_raise_value_error_naming_the_parameter(name, override, param):
    with pytest.raises(ValueError, match=param):
        resolve_settings(name, **override)


def test_bad_inputs_raise_value_error():
    lp, old, a, m = one_token(1.0, 1.0)
    with pytest.raises(ValueError, match="log_prob"):
        policy_loss("grpo", torch.tensor([[float("nan")]]), old, a, m, beta=0.0)
    with pytest.raises(ValueError, match="ref_log_prob"):
        policy_loss("grpo", lp, old, a, m)  # beta = 0.04 by default, no reference
    with pytest.raises(ValueError, match="advantages"):
        policy_loss("dapo", lp, old, torch.ones(3), m)


# ---------------------------------------------------------------------------------------------
# Trust band and token states: hand values
# ---------------------------------------------------------------------------------------------


def test_trust_band_hand_values():
    assert trust_band("ppo") == pytest.approx((0.8, 1.2))  # 1 -/+ 0.2
    assert trust_band("dapo") == pytest.approx((0.8, 1.28))  # clip-higher: 1 + 0.28
    assert trust_band("gspo") == pytest.approx((1 - 3e-4, 1 + 4e-4))
    assert trust_band("gmpo") == pytest.approx((math.exp(-0.4), math.exp(0.4)))  # log space: e^-+0.4
    assert trust_band("cispo") == pytest.approx((0.0, 1.2))  # max(0, 1 - 1): no lower bound
    assert trust_band("sapo") is None  # a soft gate has no band
    assert trust_band("ppo", epsilon_high=0.3) == pytest.approx((0.8, 1.3))
    assert trust_band("gmpo", epsilon_low=0.1) == pytest.approx((math.exp(-0.1), math.exp(0.4)))
    with pytest.raises(ValueError, match="name"):
        trust_band("nope")
    with pytest.raises(ValueError, match="epsilon_low"):
        trust_band("ppo", epsilon_low=-1.0)


def _row(ratios, adv, real=None):
    """One response of len(ratios) tokens with these importance ratios, advantage ``adv``, and a
    mask (1 where ``real``, default all); padding holds NaN junk."""
    old = torch.full((1, len(ratios)), math.log(0.2))
    lp = old + torch.tensor([math.log(r) for r in ratios])[None, :]
    mask = torch.ones(1, len(ratios)) if real is None else torch.tensor([real], dtype=torch.get_default_dtype())
    lp = torch.where(mask > 0, lp, torch.full_like(lp, float("nan")))
    return lp, old, torch.tensor([float(adv)]), mask


def _states(name, ratios, adv, real=None, **overrides):
    lp, old, a, mask = _row(ratios, adv, real)
    out = policy_loss(name, lp, old, a, mask, beta=0.0, **overrides)
    return token_states(name, out, mask)[0].tolist()


def test_token_states_hand_cases():
    # PPO, A = +1: r = 1.5 > 1 + 0.2 is clipped; r = 0.5 < 0.8 stays on the unclipped branch -A r
    assert _states("ppo", [1.0, 1.5, 0.5, 1.0], 1.0, [1, 1, 1, 0]) == ["active", "clipped", "active", "masked"]
    # PPO, A = -1: the other way round; with dual clip c = 3, r = 4 > c is clipped too
    assert _states("ppo", [1.0, 1.5, 0.5, 4.0], -1.0) == ["active", "active", "clipped", "active"]
    assert _states("ppo", [1.0, 1.5, 0.5, 4.0], -1.0, dual_clip_c=3.0) == ["active", "active", "clipped", "clipped"]
    # CISPO: r = 2 > 1 + 0.2 is capped (bounded weight 1.2, gradient kept); r = 0.5 >= 1 - 1 is not
    assert _states("cispo", [1.0, 2.0, 0.5], 1.0) == ["active", "capped", "active"]
    # SAPO (tau_pos = 1): gate 4 s(x) s(-x), x = r - 1: r = 1.1 gives 0.9975 >= 0.99 (active),
    # r = 3 gives 4 * 0.8808 * 0.1192 = 0.42 (gated)
    assert _states("sapo", [1.0, 1.1, 3.0], 1.0) == ["active", "active", "gated"]
    # GSPO: s = sqrt(1 * 1.01) = 1.005 > 1 + 4e-4 with A > 0: the whole response is clipped
    assert _states("gspo", [1.0, 1.01], 1.0) == ["clipped", "clipped"]
    assert _states("gspo", [1.0, 1.0001], 1.0) == ["active", "active"]  # s = 1.00005 is inside
    # GMPO (log space, eps 0.4): l = log 2 = 0.69 > 0.4 with A > 0 is clipped, l = log 1.2 = 0.18 is not
    assert _states("gmpo", [1.2, 2.0], 1.0) == ["active", "clipped"]


def test_token_states_are_decided_by_the_spec_not_the_name(monkeypatch):
    # PPO's clipped surrogate under another name, declared as a capping trust region: "capped"
    capped = dataclasses.replace(ALGORITHMS["ppo"], name="ppo_capped", trust_region=frozenset({"capped"}))
    monkeypatch.setitem(ALGORITHMS, "ppo_capped", capped)
    assert _states("ppo_capped", [1.0, 1.5], 1.0) == ["active", "capped"]
    monkeypatch.setitem(ALGORITHMS, "soft", dataclasses.replace(ALGORITHMS["sapo"], name="soft"))
    assert _states("soft", [1.0, 3.0], 1.0) == ["active", "gated"]
    with pytest.raises(ValueError, match="name"):
        token_states("nope", policy_loss("ppo", *_row([1.0], 1.0)), None)


def test_a_renamed_copy_of_dapo_is_dapo(monkeypatch):
    copy = dataclasses.replace(ALGORITHMS["dapo"], name="dapo_copy", title="DAPO copy", style=None)
    monkeypatch.setitem(ALGORITHMS, "dapo_copy", copy)
    torch.manual_seed(0)
    lp = -torch.rand(4, 7)
    old = lp + 0.3 * torch.randn(4, 7)  # ratios on both sides of the band
    mask = (torch.arange(7)[None, :] < torch.tensor([7, 3, 5, 1])[:, None]).double()
    adv = torch.tensor([1.0, -1.0, 0.5, -2.0])
    for overrides in ({}, {"epsilon_high": 0.4, "dual_clip_c": 2.0}, {"loss_agg_mode": "seq-mean-token-sum"}):
        g_copy, o_copy = gradient_weights("dapo_copy", lp, old, adv, mask, **overrides)
        g, o = gradient_weights("dapo", lp, old, adv, mask, **overrides)
        assert torch.equal(g_copy, g) and torch.equal(o_copy.loss, o.loss)
        for field in ("per_token_loss", "token_weight", "ratio", "clipped"):
            assert torch.equal(getattr(o_copy, field), getattr(o, field)), field
        assert (o_copy.clip_fraction, o_copy.clip_fraction_low, o_copy.clip_fraction_high) == (
            o.clip_fraction,
            o.clip_fraction_low,
            o.clip_fraction_high,
        )
        assert np.array_equal(token_states("dapo_copy", o_copy, mask), token_states("dapo", o, mask))
    assert trust_band("dapo_copy") == trust_band("dapo")
    assert o.clip_fraction > 0  # the batch does reach the clip


# ---------------------------------------------------------------------------------------------
# Properties of every registry entry (parametrised over ALGORITHMS: a new entry gets them all)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_empty_response_and_all_padding(name):
    lp = torch.full((2, 3), float("nan"))
    mask = torch.zeros(2, 3)
    g, out = gradient_weights(name, lp, lp, torch.tensor([1.0, -1.0]), mask, beta=0.0)
    assert out.loss.item() == 0.0 and torch.all(g == 0) and out.clip_fraction == 0.0
    assert set(token_states(name, out, mask).ravel()) == {"masked"}


finite = st.floats(-3.0, 3.0, allow_nan=False)


@st.composite
def batches(draw):
    B = draw(st.integers(1, 4))
    T = draw(st.integers(1, 6))
    lp = torch.tensor(draw(st.lists(st.lists(st.floats(-8, 0), min_size=T, max_size=T), min_size=B, max_size=B)))
    dl = torch.tensor(draw(st.lists(st.lists(finite, min_size=T, max_size=T), min_size=B, max_size=B)))
    adv = torch.tensor(draw(st.lists(finite, min_size=B, max_size=B)))
    lengths = draw(st.lists(st.integers(0, T), min_size=B, max_size=B))
    mask = torch.zeros(B, T)
    for i, n in enumerate(lengths):
        mask[i, :n] = 1
    return lp, lp - dl, adv, mask


@pytest.mark.parametrize("name, overrides", CASES)
@settings(max_examples=15, deadline=None)
@given(batch=batches())
def test_no_nan_for_finite_inputs(name, overrides, batch):
    lp, old, adv, mask = batch
    g, out = gradient_weights(name, lp, old, adv, mask, ref_log_prob=old, **overrides)
    assert torch.isfinite(out.loss) and torch.isfinite(g).all()
    assert torch.isfinite(out.ratio).all()


@pytest.mark.parametrize("name, overrides", CASES)
@settings(max_examples=15, deadline=None)
@given(batch=batches(), extra=st.integers(1, 3))
def test_padding_never_changes_the_loss(name, overrides, batch, extra):
    lp, old, adv, mask = batch
    junk = torch.tensor([float("nan"), float("inf"), -1e30])[torch.arange(extra) % 3]
    pad = junk.expand(lp.shape[0], extra)
    wide = [torch.cat([x, pad], dim=1) for x in (lp, old)]
    mask_wide = torch.cat([mask, torch.zeros(lp.shape[0], extra)], dim=1)
    # a constant length (Dr.GRPO's L_max) defaults to the padded width: pin it so only padding differs
    kw = {"norm_length": lp.shape[1]} if "norm_length" in ALGORITHMS[name].defaults else {}
    g0, out0 = gradient_weights(name, lp, old, adv, mask, ref_log_prob=old, **kw, **overrides)
    g2, out2 = gradient_weights(name, wide[0], wide[1], adv, mask_wide, ref_log_prob=wide[1], **kw, **overrides)
    assert torch.allclose(out0.loss, out2.loss, atol=1e-12)
    assert torch.allclose(g0, g2[:, : lp.shape[1]], atol=1e-12)
    assert torch.all(g2[:, lp.shape[1] :] == 0)
    assert np.array_equal(token_states(name, out0, mask), token_states(name, out2, mask_wide)[:, : lp.shape[1]])


@pytest.mark.parametrize("name, overrides", CASES)
@settings(max_examples=15, deadline=None)
@given(batch=batches())
def test_on_policy_ratio_is_one_and_gradient_is_plain_policy_gradient(name, overrides, batch):
    # r = 1 (pi_old = sg[pi], the first update on fresh samples) with the entry's own settings (its
    # KL term too, against a reference equal to the policy: zero gradient there): every token's
    # gradient weight is -A x its aggregation weight, whatever the surrogate
    lp, _, adv, mask = batch
    g, out = gradient_weights(name, lp, lp, adv, mask, ref_log_prob=lp, **overrides)
    assert torch.allclose(out.ratio, torch.ones_like(lp))
    params = resolve_settings(name, **overrides)
    w = token_weights(mask, params["loss_agg_mode"], params.get("norm_length"))  # (B, T)
    kept = ~out.clipped  # every token, except where a selection that ignores the ratio acts (Clip-Cov)
    assert torch.allclose(g[kept], (-adv[:, None] * w)[kept], atol=1e-12)
    assert torch.all(g[out.clipped] == 0)
    if not ALGORITHMS[name].acts_on_policy:
        assert set(token_states(name, out, mask)[mask.numpy() > 0]) <= {"active"}  # no trust region acts at r = 1


@pytest.mark.parametrize("name, overrides", CASES)
@settings(max_examples=20, deadline=None)
@given(batch=batches())
def test_token_states_and_gradients_agree(name, overrides, batch):
    # "clipped": exactly zero gradient; "capped" / "gated": bounded or scaled down, never zero
    # (where A is not 0); every state is one the spec's trust region can produce
    lp, old, adv, mask = batch
    g, out = gradient_weights(name, lp, old, adv, mask, beta=0.0, **overrides)
    states = token_states(name, out, mask)  # (B, T)
    assert set(states.ravel()) <= {"active", "masked"} | set(ALGORITHMS[name].trust_region)
    assert set(states.ravel()) <= set(TOKEN_STATES)
    assert np.array_equal(states == "masked", mask.numpy() == 0)
    g = g.numpy()
    assert (g[states == "clipped"] == 0).all()
    signal = np.broadcast_to((adv.abs() > 1e-6).numpy()[:, None], g.shape)
    assert (g[np.isin(states, ["capped", "gated"]) & signal] != 0).all()


@pytest.mark.parametrize("name, overrides", CASES)
def test_every_trust_region_kind_acts_on_a_spread_batch(name, overrides):
    # the property above, on a batch where each kind of the spec's trust region surely occurs:
    # ratios from 0.05 to 20 with A = +1 and A = -1, and two one-token responses far off-policy
    ratios = [0.05, 0.3, 0.7, 0.95, 1.0, 1.05, 1.5, 20.0]
    old = torch.full((4, 8), math.log(0.01))
    lp = old.clone()
    lp[:2] += torch.tensor(ratios).log()
    lp[2, 0], lp[3, 0] = old[2, 0] + math.log(3.0), old[3, 0] + math.log(0.3)
    mask = torch.ones(4, 8)
    mask[2:, 1:] = 0
    adv = torch.tensor([1.0, -1.0, 1.0, -1.0])
    g, out = gradient_weights(name, lp, old, adv, mask, beta=0.0, **overrides)
    states = token_states(name, out, mask)
    assert set(ALGORITHMS[name].trust_region) <= set(states.ravel()), sorted(set(states.ravel()))
    g = g.numpy()
    assert (g[states == "clipped"] == 0).all() and (g[np.isin(states, ["capped", "gated", "active"])] != 0).all()


@pytest.mark.parametrize("name", NAMES)
def test_trust_band_is_where_no_clip_acts(name):
    # one token: inside the band the token is active; past its edge on the side the advantage pushes
    # toward, the trust region acts (clipped or capped, as the spec says); no band: a soft gate
    spec, band = ALGORITHMS[name], trust_band(name)
    if band is None:
        assert spec.clip_space is None or "epsilon_low" not in spec.defaults
        return
    lo, hi = band
    assert 0 <= lo < 1 < hi
    hit = {"clipped", "capped"} & set(spec.trust_region)
    assert hit, f"{name} has a band but no hard trust region"
    assert _states(name, [(lo + hi) / 2], 1.0) == _states(name, [(lo + hi) / 2], -1.0) == ["active"]
    assert _states(name, [hi * 1.05], 1.0)[0] in hit
    if lo > 0:
        assert _states(name, [lo * 0.95], -1.0)[0] in hit


def test_aggregate_matches_token_weights():
    x = torch.tensor([[1.0, 2.0, float("nan")], [3.0, 0.0, 0.0]])
    m = torch.tensor([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    assert float(aggregate(x, m, "token-mean")) == pytest.approx((1 + 2 + 3) / 3)
    assert float(aggregate(x, m, "seq-mean-token-mean")) == pytest.approx((1.5 + 3) / 2)
    assert float(aggregate(x, m, "seq-mean-token-sum")) == pytest.approx((3 + 3) / 2)
    assert float(aggregate(x, m, "seq-mean-token-sum-norm", norm_length=3)) == pytest.approx(6 / (2 * 3))
    # verl's token-sum (agg_loss, loss_agg_mode="token-sum", one process): sum_i S_i = 1 + 2 + 3, weight 1 a token
    assert float(aggregate(x, m, "token-sum")) == pytest.approx(1 + 2 + 3)
    assert token_weights(m, "token-sum").tolist() == [[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]]


def test_token_sum_gives_each_token_the_plain_policy_gradient():
    # on-policy (r = 1), DAPO's surrogate with token-sum: loss = sum_t -A r, so each token's gradient is
    # -A (1 per token, whatever the batch size), 200x what token-mean gives over 200 tokens (-A / 200)
    lp = torch.full((2, 100), -1.0)
    adv, mask = torch.tensor([1.0, -0.5]), torch.ones(2, 100)
    g, out = gradient_weights("dapo", lp, lp, adv, mask, loss_agg_mode="token-sum")
    assert out.loss.item() == pytest.approx(-(100 * 1.0 + 100 * -0.5))
    assert g[0].tolist() == pytest.approx([-1.0] * 100) and g[1].tolist() == pytest.approx([0.5] * 100)
    g_mean, _ = gradient_weights("dapo", lp, lp, adv, mask)
    assert float(g_mean[0, 0]) == pytest.approx(-1.0 / 200)


def test_an_optional_setting_can_be_switched_off_where_its_default_is_a_number(monkeypatch):
    """None means "off" for an optional setting (the dual clip's c), whatever its default."""
    spec = ALGORITHMS["ppo"]
    on = tuple(dataclasses.replace(s, default=3.0) if s.name == "dual_clip_c" else s for s in spec.loss_settings)
    monkeypatch.setitem(ALGORITHMS, "ppo_dual_on", dataclasses.replace(spec, name="ppo_dual_on", loss_settings=on))
    assert resolve_settings("ppo_dual_on")["dual_clip_c"] == 3.0
    assert resolve_settings("ppo_dual_on", dual_clip_c=None)["dual_clip_c"] is None
    with pytest.raises(ValueError, match="epsilon_low"):
        resolve_settings("ppo_dual_on", epsilon_low=None)  # not optional: still a number


@pytest.mark.parametrize("name", [n for n in NAMES if ALGORITHMS[n].batch_coupled])
def test_rows_alone_is_each_response_as_its_own_batch(name):
    # a batch-coupled selection (covariance, top-k, second moment) with rows_alone=True equals
    # policy_loss on each response alone, stacked (what a curve of lone tokens draws)
    gen = torch.Generator().manual_seed(1)
    lp = torch.randn(5, 4, dtype=torch.float64, generator=gen) * 0.5 - 1
    old = lp + torch.randn(5, 4, dtype=torch.float64, generator=gen) * 0.4
    adv = torch.randn(5, 4, dtype=torch.float64, generator=gen)
    mask = torch.ones(5, 4, dtype=torch.float64)
    mask[2, 2:] = 0
    out = policy_loss(name, lp, old, adv, mask, rows_alone=True)
    rows = [policy_loss(name, lp[i : i + 1], old[i : i + 1], adv[i : i + 1], mask[i : i + 1]) for i in range(5)]
    assert torch.allclose(out.per_token_loss, torch.cat([r.per_token_loss for r in rows]))
    assert torch.equal(out.clipped, torch.cat([r.clipped for r in rows]))


# ------------------------------------------------------------------------------------------- ASPO
@pytest.mark.parametrize(
    "ratio, adv, weight, value, state",
    [
        # A > 0, flipped ratio: w = 1/r inside r <= 1 + 0.2; value -A/r, so J = 1/0.5 = 2
        (0.5, 1.0, 2.0, 2.0, "active"),
        (1.1, 1.0, 1 / 1.1, 1 / 1.1, "active"),
        # r = 1.3 > 1.2: clamp(r, max 1.2) is flat: J = 1/1.2, no gradient
        (1.3, 1.0, 0.0, 1 / 1.2, "clipped"),
        # r = 0.25 < 1/c = 1/3: 1/r = 4 > c = 3: soft dual clip, w = c = 3 (gradient kept)
        (0.25, 1.0, 3.0, 3.0, "capped"),
        # A < 0: PPO's lower clip: r = 0.5 < 0.8 -> J = -A max(r, 0.8) = -0.8, flat
        (0.5, -1.0, 0.0, -0.8, "clipped"),
        # inside: w = r A = -1.5
        (1.5, -1.0, -1.5, -1.5, "active"),
        # r = 4 > c = 3: capped at c, gradient kept: w = -3 (PPO's dual clip would give 0)
        (4.0, -1.0, -3.0, -3.0, "capped"),
    ],
)
def test_aspo_flips_the_ratio_of_positive_tokens_and_caps_softly(ratio, adv, weight, value, state):
    lp, old, a, mask = one_token(ratio, adv)
    g, out = gradient_weights("aspo", lp, old, a, mask, beta=0.0)
    assert -float(g[0, 0]) == pytest.approx(weight, abs=1e-12)  # w = -d loss / d log pi (one token)
    assert -float(out.per_token_loss.detach()[0, 0]) == pytest.approx(value, abs=1e-12)
    assert token_states("aspo", out)[0, 0] == state


def test_aspo_widens_the_band_of_each_responses_top_entropy_tokens():
    # one response of five tokens, all at r = 1.3, A > 0; entropies 0.1 .. 0.5: the 0.8 quantile of
    # the row is 0.42 (linear interpolation), so only the last token (0.5) is above it and gets
    # ε = 0.4: 1.3 <= 1.4 keeps its gradient 1/1.3; the others are clipped at 1 + 0.2
    old = torch.full((1, 5), math.log(0.2), dtype=torch.float64)
    lp = old + math.log(1.3)
    entropy = torch.tensor([[0.1, 0.2, 0.3, 0.4, 0.5]], dtype=torch.float64)
    lp = lp.clone().requires_grad_(True)
    out = policy_loss("aspo", lp, old, torch.ones(1, dtype=torch.float64), torch.ones(1, 5), entropy=entropy, beta=0.0)
    (g,) = torch.autograd.grad(out.loss, lp)
    w = -g[0] * 5  # token-mean over 5 tokens: the aggregation weight 1/5 divided out
    assert torch.allclose(w, torch.tensor([0, 0, 0, 0, 1 / 1.3], dtype=torch.float64), atol=1e-12)
    # without entropies every token is in the narrow band (as a lone token always is)
    lp2 = lp.detach().clone().requires_grad_(True)
    out2 = policy_loss("aspo", lp2, old, torch.ones(1, dtype=torch.float64), torch.ones(1, 5), beta=0.0)
    (g2,) = torch.autograd.grad(out2.loss, lp2)
    assert bool((g2 == 0).all())


def test_aspo_padding_entropy_never_moves_the_band():
    # padding holds junk entropy: the quantile is over the real tokens only
    old = torch.full((1, 4), math.log(0.2), dtype=torch.float64)
    lp = (old + math.log(1.3)).requires_grad_(True)
    mask = torch.tensor([[1.0, 1.0, 0.0, 0.0]])
    ent = torch.tensor([[0.1, 0.2, 1e9, math.nan]], dtype=torch.float64)
    out = policy_loss("aspo", lp, old, torch.ones(1, dtype=torch.float64), mask, entropy=ent, beta=0.0)
    (g,) = torch.autograd.grad(out.loss, lp)
    # quantile 0.8 of (0.1, 0.2) is 0.18: token 2 (0.2) is wide (1.3 <= 1.4 keeps 1/1.3), token 1 is not
    assert torch.allclose(-g[0] * 2, torch.tensor([0, 1 / 1.3, 0, 0], dtype=torch.float64), atol=1e-12)


@pytest.mark.parametrize(
    "setting, value",
    [("aspo_dual_c", 1.0), ("aspo_wide_epsilon", -0.1), ("aspo_entropy_quantile", 0.0), ("aspo_entropy_quantile", 1.5)],
)
def test_aspo_bad_settings_are_named(setting, value):
    with pytest.raises(ValueError, match=setting):
        resolve_settings("aspo", **{setting: value})


def test_dppo_bounds_are_labelled_as_divergence_bounds_not_ratio_offsets():
    # DPPO reads epsilon_low / epsilon_high as its δ (verl clip_ratio_low / _high): the sliders say so
    for name in ("dppo_tv", "dppo_kl"):
        for s in ALGORITHMS[name].surrogate_settings:
            assert "δ" in s.help["en"] and "δ" in s.help["zh"] and "ratio offset" not in s.help["en"]


# ------------------------------------------------------------------ half precision: at least float32


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=["fp16", "bf16"])
@pytest.mark.parametrize("name", NAMES)
def test_half_precision_log_ratio_12_gives_a_finite_loss_and_gradient(name, dtype):
    # exp(12) = 162755 > 65504, float16's largest number: the loss is computed in float32. B = 4, T = 8
    # and |A| = 1 keep the true per-token gradient (at most r / B = 40689) within float16 too, so the
    # gradient autograd hands back to a float16 leaf is finite as well.
    lp = torch.full((4, 8), -0.1, dtype=dtype, requires_grad=True)
    old = torch.full((4, 8), -12.1, dtype=dtype)  # log r = 12
    adv = torch.tensor([1.0, -1.0, 1.0, -1.0], dtype=dtype)
    mask = torch.ones(4, 8, dtype=dtype)
    out = policy_loss(name, lp, old, adv, mask, ref_log_prob=old, entropy=torch.ones(4, 8, dtype=dtype))
    assert out.loss.dtype == torch.float32 and math.isfinite(float(out.loss.detach()))
    assert bool(torch.isfinite(out.per_token_loss).all()) and bool(torch.isfinite(out.ratio).all())
    out.loss.backward()
    assert lp.grad.dtype == dtype and bool(torch.isfinite(lp.grad).all())
    grad, _ = gradient_weights(name, lp, old, adv, mask, ref_log_prob=old)
    assert grad.dtype == torch.float32 and bool(torch.isfinite(grad).all())


def test_a_loss_that_overflows_float32_names_its_cause(monkeypatch):
    f32 = torch.float32  # this file's default dtype is float64
    lp, old, mask = torch.zeros(1, 1, dtype=f32), torch.full((1, 1), -0.5, dtype=f32), torch.ones(1, 1)
    adv = torch.ones(1, dtype=f32)
    with pytest.raises(ValueError, match="^advantages:"):  # -A r = 3e38 e^0.5 = 4.9e38 overflows float32
        policy_loss("ppo", lp, old, torch.full((1,), -3e38, dtype=f32), mask, epsilon_low=0.9, epsilon_high=0.9)
    assert math.isfinite(float(policy_loss("ppo", lp.double(), old.double(), torch.full((1,), -3e38), mask).loss))
    # a setting that makes the loss overflow is named (resolve_settings' MIN_TEMPERATURE keeps SAPO's
    # tau away from it; lifted here): 4 / tau = 4e40 > float32's 3.4e38
    monkeypatch.setattr("rlviz.core.objectives.MIN_TEMPERATURE", 0.0)
    with pytest.raises(ValueError, match="^tau_pos:"):
        policy_loss("sapo", lp, old, adv, mask, tau_pos=1e-40)
    out = policy_loss("sapo", lp.double(), old.double(), adv.double(), mask, tau_pos=1e-40)
    # x = tau (r - 1) ~ 6.5e-41, sigma(x) = 1/2 + x/4: loss = -(4 / tau) sigma(x) = -2e40 - (r - 1) = -2e40
    assert float(out.loss) == pytest.approx(-2e40, rel=1e-9)


def test_half_precision_aggregate_is_float32():
    # 4 tokens of 60000 in one row: seq-mean-token-sum = 240000 / 1 row, beyond float16's 65504
    per_token = torch.full((1, 4), 60000.0, dtype=torch.float16)
    loss = aggregate(per_token, torch.ones(1, 4), "seq-mean-token-sum")
    assert loss.dtype == torch.float32 and float(loss) == 240000.0


# ----------------------------------------- the log-ratio clamp (|l| <= 20) acts where verl's does (issue 43)
# verl clamps a token's log-ratio before exp() for its token-level losses, but forms GSPO's sequence ratio
# from the unclamped log-ratios and clamps the sequence log-ratio (core_algos.py
# compute_policy_loss_gspo: log s_{i,t} <= 10), has no clamp in GMPO (compute_policy_loss_geo_mean), and
# writes CISPO / DPPO as -sg[w] A log pi (compute_policy_loss_cispo, compute_policy_loss_dppo_tv): the
# weight w comes from the clamped ratio, the gradient flows through log pi itself, whatever the log-ratio.


def test_a_sequence_ratio_reads_each_tokens_own_log_ratio_past_the_clamp():
    # one response, l = (-24, 10, 2): log s = mean l = (-24 + 10 + 2) / 3 = -4 (a per-token clamp at -20
    # first would give (-20 + 10 + 2) / 3 = -8/3); A = +1 with s = e^-4 < 1: GSPO's unclipped branch
    # -A s, each token's gradient -A s / (B L) = -e^-4 / 3, the token at -24 included
    old = torch.zeros(1, 3)
    lp = torch.tensor([[-24.0, 10.0, 2.0]])
    one, mask = torch.tensor([1.0]), torch.ones(1, 3)
    s = math.exp(-4.0)
    for name in ("gspo", "gspo_token", "luspo"):
        g, out = gradient_weights(name, lp, old, one, mask)
        assert out.ratio[0].tolist() == pytest.approx([s] * 3), name
    for name in ("gspo", "gspo_token"):
        g, _ = gradient_weights(name, lp, old, one, mask)
        assert g[0].tolist() == pytest.approx([-s / 3] * 3), name
    # GMPO, A = +1, ε = 0.4: l~ = (min(-24, -0.4), min(10, 0.4), min(2, 0.4)) = (-24, 0.4, 0.4);
    # rho = exp((-24 + 0.8) / 3), loss -A rho; the token at -24 is unclipped: gradient -A rho / 3
    g, out = gradient_weights("gmpo", lp, old, one, mask)
    rho = math.exp(-23.2 / 3)
    assert out.loss.item() == pytest.approx(-rho) and out.ratio[0, 0].item() == pytest.approx(rho)
    assert g[0].tolist() == pytest.approx([-rho / 3, 0.0, 0.0])


def test_the_sequence_log_ratio_is_clamped_at_10_with_no_gradient_past_it():
    # l = (40, 0): log s = 20 > 10, so s = e^10 and the clamp leaves no gradient (verl clamps
    # log s_{i,t} = log pi - sg[log pi] + sg[log s_i] at 10); A = -1 takes the unclipped branch
    old = torch.zeros(1, 2)
    lp = torch.tensor([[40.0, 0.0]])
    for name in ("gspo", "gspo_token"):
        g, out = gradient_weights(name, lp, old, torch.tensor([-1.0]), torch.ones(1, 2))
        assert out.ratio[0].tolist() == pytest.approx([math.exp(10.0)] * 2), name
        assert out.loss.item() == pytest.approx(math.exp(10.0)), name  # -A s
        assert g[0].tolist() == [0.0, 0.0], name


@pytest.mark.parametrize(
    "name, log_ratio, adv, grad",
    [
        # CISPO: w = clip(e^20, 1 - 1, 1 + 0.2) = 1.2, gradient -A w = -1.2 (verl: -sg[w] A log pi)
        ("cispo", 25.0, 1.0, -1.2),
        # GPPO: A > 0 past 1 + 0.28, the clipped value kept with gradient -A (1 + 0.28)
        ("gppo", 25.0, 1.0, -1.28),
        # CE-GPPO: A < 0 below 1 - 0.2, gradient -A beta_1 (1 - 0.2) = 0.75 x 0.8
        ("ce_gppo", -25.0, -1.0, 0.6),
        # DPPO-TV / KL: pi = e^-5 moved up from pi_old = e^-30, against A < 0's push: kept, with the
        # truncated-IS weight min(e^20, c = 10000) = 10000, gradient -A x 10000
        ("dppo_tv", 25.0, -1.0, 10000.0),
        ("dppo_kl", 25.0, -1.0, 10000.0),
        # ASPO's soft dual clip: A < 0 with r > c = 3 caps the weight at 3 (gradient -A c = 3); A > 0
        # with 1/r > 3 caps 1/r at 3 (gradient -A c = -3)
        ("aspo", 25.0, -1.0, 3.0),
        ("aspo", -25.0, 1.0, -3.0),
    ],
)
def test_a_token_past_the_clamp_keeps_the_gradient_of_its_capped_weight(name, log_ratio, adv, grad):
    # one token; log pi = -5 for l = +25, log pi_old = -1 for l = -25 (probabilities below 1)
    old = torch.tensor([[-30.0 if log_ratio > 0 else -1.0]])
    lp = old + log_ratio
    g, _ = gradient_weights(name, lp, old, torch.tensor([adv]), torch.ones(1, 1), beta=0.0)
    assert float(g[0, 0]) == pytest.approx(grad)


def test_vespo_keeps_trls_weight_and_gives_every_token_its_gradient():
    # l = (21, -20.5), A = 1: TRL's get_gamma_weights clamps each token's log-ratio to +-20 before the
    # sum (grpo_trainer.py), so log w = 20 - 20 = 0, w = 1, phi(1) = 1; its loss -sg[phi] A log pi
    # gives each token the gradient -A phi, token-mean over 2: -1/2 each, both tokens past the clamp
    old = torch.zeros(1, 2)
    lp = torch.tensor([[21.0, -20.5]])
    g, out = gradient_weights("vespo", lp, old, torch.tensor([1.0]), torch.ones(1, 2))
    assert float(out.gate_weight[0, 0]) == pytest.approx(1.0)
    assert g[0].tolist() == pytest.approx([-0.5, -0.5])


@pytest.mark.parametrize("name, overrides", CASES)
def test_a_capped_token_past_the_log_ratio_clamp_keeps_a_gradient(name, overrides):
    # "capped" promises a bounded gradient, never zero: also at |l| = 25, past the clamp, for each sign
    # of A and of l (four one-token responses; pi_old chosen so that every probability is below 1)
    ell = torch.tensor([25.0, 25.0, -25.0, -25.0])
    old = torch.where(ell > 0, -30.0, -1.0)[:, None]  # (4, 1)
    lp = old + ell[:, None]
    adv = torch.tensor([1.0, -1.0, 1.0, -1.0])
    g, out = gradient_weights(name, lp, old, adv, torch.ones(4, 1), beta=0.0, **overrides)
    capped = token_states(name, out, torch.ones(4, 1)) == "capped"
    assert (g.numpy()[capped] != 0).all(), g.numpy()[capped]
