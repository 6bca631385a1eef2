"""Token masks that apply to any objective (rlviz.core.masks): hand values, the loss they change,
every registry entry, and the trainer settings that switch them on."""

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from rlviz.core.aggregation import token_weights
from rlviz.core.masks import high_entropy_mask, off_policy_sequence_mask, sequence_kl
from rlviz.core.objectives import ALGORITHMS, TRAINER_SETTINGS, gradient_weights, policy_loss, resolve_settings
from rlviz.lm.trainer import split_settings

NAN = float("nan")


def test_high_entropy_mask_by_hand():
    # real entropies 0.1 0.5 0.9 | 0.3 0.7 (the last column of row 2 is padding, junk)
    # rho = 0.5: threshold = quantile([0.1, 0.3, 0.5, 0.7, 0.9], 1 - 0.5) = the median = 0.5; keep H >= 0.5
    entropy = torch.tensor([[0.1, 0.5, 0.9], [0.3, 0.7, NAN]])
    mask = torch.tensor([[1.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
    kept = high_entropy_mask(entropy, mask, 0.5)
    assert kept.tolist() == [[False, True, True], [False, True, False]]
    # rho = 0.2: threshold = quantile(.., 0.8) = 0.7 + 0.2 * (0.9 - 0.7) * ... linear: position 0.8 * 4 = 3.2
    # -> 0.7 + 0.2 * (0.9 - 0.7) = 0.74: only the 0.9 token is kept (1 of 5 = the top 20%)
    assert high_entropy_mask(entropy, mask, 0.2).tolist() == [[False, False, True], [False, False, False]]
    # rho = 1: every real token, never padding
    assert high_entropy_mask(entropy, mask, 1.0).tolist() == (mask > 0).tolist()
    # no real token at all: nothing kept
    assert not high_entropy_mask(entropy, torch.zeros_like(mask), 0.2).any()


@pytest.mark.parametrize("bad", [0.0, -0.1, 1.5, NAN, math.inf])
def test_high_entropy_mask_rejects_a_quantile_outside_0_1(bad):
    with pytest.raises(ValueError, match="top_quantile"):
        high_entropy_mask(torch.ones(1, 2), torch.ones(1, 2), bad)


def test_high_entropy_mask_rejects_nan_at_a_real_token_and_a_shape_mismatch():
    with pytest.raises(ValueError, match="entropy"):
        high_entropy_mask(torch.tensor([[NAN, 1.0]]), torch.ones(1, 2), 0.5)
    with pytest.raises(ValueError, match="entropy"):
        high_entropy_mask(torch.ones(1, 3), torch.ones(1, 2), 0.5)


def test_off_policy_sequence_mask_by_hand():
    # mean per-token KL(pi_sample || pi_theta) = mean(log pi_sample - log pi_theta):
    #   row 0: (0.3 + 0.1) / 2 = 0.2 > delta = 0.1 and A < 0 -> dropped
    #   row 1: (0.05 + 0.05) / 2 = 0.05 <= 0.1                -> kept
    #   row 2: 0.5 > 0.1 but A > 0                             -> kept (good samples always stay)
    #   row 3: one real token, 0.15 > 0.1, A = 0 (>= 0)       -> kept
    lp = torch.zeros(4, 2)
    sample = torch.tensor([[0.3, 0.1], [0.05, 0.05], [0.5, 0.5], [0.15, NAN]])
    mask = torch.tensor([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0], [1.0, 0.0]])
    adv = torch.tensor([-1.0, -1.0, 1.0, 0.0])
    assert sequence_kl(lp, sample, mask).tolist() == pytest.approx([0.2, 0.05, 0.5, 0.15])
    kept = off_policy_sequence_mask(adv, lp, sample, mask, 0.1)
    assert kept.tolist() == [[False, False], [True, True], [True, True], [True, False]]
    # delta large enough: nothing dropped
    assert off_policy_sequence_mask(adv, lp, sample, mask, 0.25).tolist() == (mask > 0).tolist()


@pytest.mark.parametrize("bad", [-0.01, NAN, math.inf])
def test_off_policy_mask_rejects_a_bad_threshold(bad):
    with pytest.raises(ValueError, match="threshold"):
        off_policy_sequence_mask(torch.ones(1), torch.zeros(1, 2), torch.zeros(1, 2), torch.ones(1, 2), bad)


def test_the_mask_multiplies_the_policy_loss_and_keeps_the_normaliser():
    # GRPO on-policy (r = 1), token-mean over 4 real tokens: per-token loss -A = -1, weight 1/4.
    # Masking 2 tokens leaves their loss 0 but the denominator 4 (TRL): loss = 2 x (-1) / 4 = -0.5
    lp = torch.zeros(1, 4, dtype=torch.float64)
    mask = torch.ones(1, 4, dtype=torch.float64)
    keep = torch.tensor([[True, False, True, False]])
    g, out = gradient_weights("grpo", lp, lp, torch.tensor([1.0], dtype=torch.float64), mask, beta=0.0, keep_mask=keep)
    assert out.loss.item() == pytest.approx(-0.5)
    assert g.tolist() == [[-0.25, 0.0, -0.25, 0.0]]
    with pytest.raises(ValueError, match="keep_mask"):
        policy_loss("grpo", lp, lp, torch.tensor([1.0]), mask, beta=0.0, keep_mask=torch.ones(1, 3))


def test_the_kl_term_is_not_masked():
    # beta > 0 with every token masked: what is left is beta x KL, whose gradient still reaches every token
    lp = torch.tensor([[-1.0, -2.0]], dtype=torch.float64)
    ref = lp - 0.3
    mask = torch.ones(1, 2, dtype=torch.float64)
    none = torch.zeros(1, 2, dtype=torch.bool)
    g, out = gradient_weights("grpo", lp, lp, torch.tensor([1.0]), mask, ref_log_prob=ref, beta=0.1, keep_mask=none)
    assert out.loss.item() != 0 and bool((g != 0).all())
    g0, out0 = gradient_weights("grpo", lp, lp, torch.tensor([0.0]), mask, ref_log_prob=ref, beta=0.1)
    assert torch.allclose(g, g0) and torch.allclose(out.loss, out0.loss)  # = the KL term alone


@st.composite
def masked_batches(draw):
    B, T = draw(st.integers(1, 4)), draw(st.integers(1, 5))
    floats = st.floats(-2.0, 2.0, allow_nan=False)
    lp = torch.tensor(draw(st.lists(st.lists(st.floats(-6, 0), min_size=T, max_size=T), min_size=B, max_size=B)))
    dl = torch.tensor(draw(st.lists(st.lists(floats, min_size=T, max_size=T), min_size=B, max_size=B)))
    adv = torch.tensor(draw(st.lists(floats, min_size=B, max_size=B)))
    keep = torch.tensor(draw(st.lists(st.lists(st.booleans(), min_size=T, max_size=T), min_size=B, max_size=B)))
    return lp.double(), (lp - dl).double(), adv.double(), keep


@pytest.mark.parametrize("name", list(ALGORITHMS))
@settings(max_examples=10, deadline=None)
@given(batch=masked_batches())
def test_every_objective_a_masked_token_gets_no_gradient_and_all_ones_changes_nothing(name, batch):
    lp, old, adv, keep = batch
    mask = torch.ones_like(lp)
    g, out = gradient_weights(name, lp, old, adv, mask, beta=0.0)
    g1, out1 = gradient_weights(name, lp, old, adv, mask, beta=0.0, keep_mask=torch.ones_like(keep))
    assert torch.equal(g, g1) and torch.equal(out.loss, out1.loss)
    gm, outm = gradient_weights(name, lp, old, adv, mask, beta=0.0, keep_mask=keep)
    assert torch.all(outm.per_token_loss[~keep] == 0)
    # a response masked whole gets no gradient; with a token-level ratio no masked token does (with a
    # sequence-level ratio a masked token still moves its response's ratio, which its kept tokens use)
    dropped = ~keep.any(dim=1)
    assert torch.all(gm[dropped] == 0)
    if ALGORITHMS[name].ratio_level == "token":
        assert torch.all(gm[~keep] == 0)
    # a kept token's loss is what it was: the mask multiplies, nothing else moves
    assert torch.allclose(outm.per_token_loss[keep], out.per_token_loss[keep])
    w = token_weights(mask, resolve_settings(name)["loss_agg_mode"], resolve_settings(name).get("norm_length"))
    assert torch.allclose(outm.loss, (w * outm.per_token_loss).sum())


def test_the_trainer_settings_are_sourced_and_checked():
    names = {s.name: s for s in TRAINER_SETTINGS}
    assert names["top_entropy_quantile"].trl == "top_entropy_quantile" and names["top_entropy_quantile"].default == 1.0
    assert names["off_policy_mask_threshold"].trl == "off_policy_mask_threshold"
    assert names["off_policy_mask_threshold"].default is None
    for algorithm in ALGORITHMS:  # every objective accepts them
        _, train = split_settings(algorithm, {"top_entropy_quantile": 0.2, "off_policy_mask_threshold": 0.5})
        assert train["top_entropy_quantile"] == 0.2 and train["off_policy_mask_threshold"] == 0.5
    with pytest.raises(ValueError, match="top_entropy_quantile"):
        split_settings("grpo", {"top_entropy_quantile": 0.0})
    with pytest.raises(ValueError, match="off_policy_mask_threshold"):
        split_settings("grpo", {"off_policy_mask_threshold": -1.0})
    with pytest.raises(ValueError, match="off_policy_mask_threshold"):
        split_settings("grpo", {"off_policy_mask_threshold": "big"})


def test_the_trainer_applies_the_masks_to_any_objective():
    # the tiny LM, 4 prompts x G 4, mu 2 x 2 mini-batches
    import copy

    from rlviz.lm.model import load_policy
    from rlviz.lm.trainer import TrainConfig, Trainer

    model, tok = load_policy(device="cpu")

    def run(algorithm, **settings):
        config = TrainConfig(
            algorithm=algorithm, prompts_per_step=4, group_size=4, mu=2, mini_batches=2, seed=0, settings=settings
        )
        trainer = Trainer(config, copy.deepcopy(model), tok, copy.deepcopy(model).requires_grad_(False))
        return trainer.step(), trainer.last_updates

    m0, u0 = run("gspo")
    assert all(u["kept_fraction"] == 1.0 for u in u0)
    # rho = 0.2: each update keeps the top 20% of its tokens by entropy (ties at the threshold may add a few)
    m1, u1 = run("cispo", top_entropy_quantile=0.2)
    assert all(0.2 <= u["kept_fraction"] < 0.35 for u in u1), [u["kept_fraction"] for u in u1]
    assert m1["grad_token_fraction"] < 0.35  # only the kept tokens are pushed (CISPO's ratio is per token)
    # delta = 0: the first update is on-policy (KL 0), nothing is dropped; once the policy has moved, a
    # negative response it moved away from (mean log pi_old - log pi_theta > 0) is dropped
    _, u2 = run("grpo", off_policy_mask_threshold=0.0)
    assert u2[0]["kept_fraction"] == 1.0
    assert min(u["kept_fraction"] for u in u2[1:]) < 1.0
