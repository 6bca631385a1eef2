"""The gradient-scale experiment (rlviz.experiments.gradscale): the per-token weights of each aggregation worked
out by hand on a two-response group, Adam's first step against lr x sqrt(n) for any constant factor c, SGD's
step following c until clipping caps it, and the same on the shipped model through the trainer's own update
(a handful of registry entries: every entry runs on the page and in tests/test_page_gradscale.py)."""

from __future__ import annotations

import math

import pytest
import torch

from rlviz.core.aggregation import LOSS_AGG_MODES
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import gradscale as X
from rlviz.i18n import LANGS
from rlviz.teach.bank import load_bank

SUBSET = ("grpo", "gspo", "dapo", "dr_grpo")  # two aggregations, a sequence-level entry, a std-free advantage


# ------------------------------------------------------------------------------------ by hand
def test_two_responses_token_mean_against_seq_mean_by_hand():
    # lengths 2 and 8, A = +1 and -1, ratio 1: d loss / d log pi = -A x (the token's aggregation weight)
    lengths, adv = [2, 8], [1.0, -1.0]
    # token-mean: every token 1/N = 1/10 -> norm sqrt(10 x (1/10)^2) = sqrt(0.1)
    token_mean = X.logprob_gradient_norm(lengths, adv, "token-mean")
    assert token_mean == pytest.approx(math.sqrt(0.1), rel=1e-9)
    # seq-mean-token-mean: 1/(B |y_i|) = 1/4 on the 2 short tokens, 1/16 on the 8 long ones
    # -> sqrt(2/16 + 8/256) = sqrt(0.15625)
    seq_mean = X.logprob_gradient_norm(lengths, adv, "seq-mean-token-mean")
    assert seq_mean == pytest.approx(math.sqrt(0.15625), rel=1e-9)
    assert seq_mean / token_mean == pytest.approx(1.25, rel=1e-9)  # sqrt(0.15625 / 0.1)
    # token-sum: weight 1 -> sqrt(10) = N x token-mean; seq-mean-token-sum: 1/B -> sqrt(10)/2
    assert X.logprob_gradient_norm(lengths, adv, "token-sum") == pytest.approx(math.sqrt(10), rel=1e-9)
    assert X.logprob_gradient_norm(lengths, adv, "seq-mean-token-sum") == pytest.approx(math.sqrt(10) / 2, rel=1e-9)
    # seq-mean-token-sum-norm with Dr.GRPO's constant L = 16: 1/(B L) = 1/32 -> sqrt(10)/32
    dr = X.logprob_gradient_norm(lengths, adv, "seq-mean-token-sum-norm", "dr_grpo", norm_length=16)
    assert dr == pytest.approx(math.sqrt(10) / 32, rel=1e-9)


@pytest.mark.parametrize("mode", LOSS_AGG_MODES)
def test_a_sequence_ratio_gives_the_token_ratios_gradient_at_ratio_one(mode):
    # ds/dlog pi_t = s/|y| and every token of a response weighs the same under each mode: GSPO = GRPO on-policy
    lengths, adv = [3, 7, 1], [0.8, -1.2, 0.4]
    gspo = X.logprob_gradient_norm(lengths, adv, mode, "gspo")
    assert gspo == pytest.approx(X.logprob_gradient_norm(lengths, adv, mode, "grpo"), rel=1e-9)


def test_adam_first_step_is_lr_sqrt_n_whatever_c_and_sgd_follows_c_until_clipped():
    g = [0.3, -0.02, 0.001, -1.5, 2.0]  # every |g| far above eps = 1e-8; ||g|| = sqrt(6.340401)
    lr = 1e-3
    for c in (0.01, 1.0, 100.0):
        # Adam's first step: lr c g / (|c g| + eps) per parameter (m = g, v = g^2 after bias correction)
        exact = lr * math.sqrt(sum((abs(c * x) / (abs(c * x) + 1e-8)) ** 2 for x in g))
        assert X.first_step_size(g, lr, c, "adamw") == pytest.approx(exact, rel=1e-9)
        assert exact == pytest.approx(lr * math.sqrt(5), rel=1e-3)  # lr sqrt(n): eps / |c g| <= 1e-3 here
        # SGD: lr c ||g||
        assert X.first_step_size(g, lr, c, "sgd") == pytest.approx(lr * c * math.sqrt(6.340401), rel=1e-9)
        # SGD clipped at 1: lr min(c ||g||, 1) (clip_grad_norm_ divides by ||g|| + 1e-6)
        assert X.first_step_size(g, lr, c, "sgd", max_norm=1.0) == pytest.approx(
            lr * min(c * math.sqrt(6.340401), 1.0), rel=1e-5
        )
    # a gradient equal to eps: lr eps / (eps + eps) = lr / 2
    assert X.first_step_size([1e-8], lr) / lr == pytest.approx(0.5, rel=1e-6)


def test_the_banks_optimizer_is_the_trainers():
    # first_step_size builds AdamW as the trainer does; a Trainer's own optimizer has the same settings
    settings = X.optimizer_settings()
    built = torch.optim.AdamW([torch.nn.Parameter(torch.zeros(1))], lr=settings["lr"], weight_decay=0.0).defaults
    assert {k: built[k] for k in settings} == settings and settings["weight_decay"] == 0.0


def test_the_banks_hand_values():
    bank = load_bank()

    def value(qid):
        return bank.question(qid).compute()

    assert value("aggregation-gradscale-seq-over-token") == pytest.approx(1.25)  # sqrt(0.15625 / 0.1)
    assert value("aggregation-gradscale-token-sum") == pytest.approx(20)  # N = 3 + 5 + 12
    assert value("aggregation-gradscale-adam-size") == pytest.approx(1e-4 * math.sqrt(10_000), rel=1e-4)
    assert value("aggregation-gradscale-sgd-clip") == pytest.approx(0.4, rel=1e-5)  # min(0.4, 1) / min(4, 1)
    assert value("aggregation-gradscale-adam-eps") == pytest.approx(0.5, rel=1e-6)
    assert value("aggregation-gradscale-gspo-first-step") == "same"
    assert value("aggregation-gradscale-which-optimizer") == "sgd"


# ----------------------------------------------------------------------------- the shipped model
@pytest.fixture(scope="module")
def sample():
    return X.batch_at(0, 4, "12+7=")


def test_norms_from_the_trainer(sample, monkeypatch):
    monkeypatch.setattr(X, "ALGORITHMS", {n: ALGORITHMS[n] for n in SUBSET})
    recorded = []
    clip = torch.nn.utils.clip_grad_norm_

    def record(*args, **kwargs):  # the norm the trainer's own clip_grad_norm_ call returns, each step
        norm = clip(*args, **kwargs)
        recorded.append(float(norm))
        return norm

    monkeypatch.setattr(torch.nn.utils, "clip_grad_norm_", record)
    own = X.gradient_norms(sample, second=True).set_index("objective")
    assert list(own.index) == list(SUBSET)
    # per objective: the first run's step, then the mu = 2 run's two steps
    steps = {n: recorded[3 * i : 3 * i + 3] for i, n in enumerate(SUBSET)}
    for name in SUBSET:
        first, again, later = steps[name]
        assert own.loc[name, "grad_norm"] == pytest.approx(first, rel=1e-6)
        assert again == pytest.approx(first, rel=1e-6)  # the same first step in both runs
        assert own.loc[name, "grad_norm_second"] == pytest.approx(later, rel=1e-5)  # 2 x mean - first
    # every ratio is 1 at the first step: the sequence-level entry equals the token-level one, same mode
    assert own.loc["gspo", "grad_norm"] == pytest.approx(own.loc["grpo", "grad_norm"], rel=1e-6)
    assert X.equal_groups(own.reset_index())[0] == ["grpo", "gspo"]
    monkeypatch.setattr(torch.nn.utils, "clip_grad_norm_", clip)
    # token-sum against token-mean on the same batch: every gradient N times larger, N the loss tokens
    summed = X.gradient_norms(sample, "token-sum").set_index("objective")
    mean = X.gradient_norms(sample, "token-mean").set_index("objective")
    N = int(sample.batch.response_mask.sum())
    assert (summed["tokens"] == N).all() and (summed["loss_agg_mode"] == "token-sum").all()
    for name in SUBSET:
        assert summed.loc[name, "grad_norm"] / mean.loc[name, "grad_norm"] == pytest.approx(N, rel=1e-4)
    for lang in LANGS:  # the reading names the equal pair and every mode's weight
        text = " ".join(X.norms_reading(own.reset_index(), sample, False, lang))
        assert "{" not in text and "GSPO" in text and "seq-mean-token-mean" in text


def test_update_size_through_the_trainer(sample):
    clip = X.grad_clip()
    one = X.update_size(sample, "grpo", 1e-4, 1.0, "adamw", clip=False)
    big = X.update_size(sample, "grpo", 1e-4, 100.0, "adamw", clip=False)
    assert big.grad_norm == pytest.approx(100 * one.grad_norm, rel=1e-5)  # the hook scales the gradient
    # Adam: lr sqrt(n) within 3 % (parameters whose |g| is near eps move less), and the same for c = 100
    for size in (one, big):
        assert size.nonzero > 0.9 * size.parameters
        assert size.delta_theta == pytest.approx(size.adam_reference, rel=0.03)
    assert big.delta_theta / one.delta_theta == pytest.approx(1.0, abs=0.02)
    # SGD without clipping: lr ||g||, c times larger for c x loss; with clipping: lr min(||g||, clip)
    sgd = X.update_size(sample, "grpo", 1e-4, 1.0, "sgd", clip=False)
    assert sgd.delta_theta == pytest.approx(1e-4 * sgd.grad_norm, rel=1e-4)
    sgd10 = X.update_size(sample, "grpo", 1e-4, 10.0, "sgd", clip=False)
    assert sgd10.delta_theta / sgd.delta_theta == pytest.approx(10.0, rel=1e-4)
    capped = X.update_size(sample, "grpo", 1e-4, 10.0, "sgd", clip=True)
    assert capped.delta_theta == pytest.approx(1e-4 * min(capped.grad_norm, clip), rel=1e-4)
    assert capped.delta_log_prob < sgd10.delta_log_prob  # the policy moved less
    with pytest.raises(ValueError, match="^scale"):
        X.update_size(sample, "grpo", 1e-4, 0.0)
    with pytest.raises(ValueError, match="^optimizer"):
        X.update_size(sample, "grpo", 1e-4, 1.0, "adam")
    with pytest.raises(ValueError, match="^name|^objective|^algorithm"):
        X.update_size(sample, "nope")


def test_the_predictions_answers():
    # the page's default state: Adam without clipping ignores the factor 10; SGD with clipping at 1 follows
    # 0.1 only below the threshold: min(0.1 ||g||, 1) / min(||g||, 1)
    state = X.prediction_state({})
    assert state == {"objective": "grpo", "group_size": 8, "prompt": "", "lr": 1e-4, "seed": 0}
    assert X.answer_adam(state) == pytest.approx(1.0, abs=0.02)
    g = X._size(state, 1.0, "sgd", True).grad_norm
    clip = X.grad_clip()
    # (within 0.2 %: the step is measured on float32 weights, whose rounding a 1e-5 step feels)
    assert X.answer_sgd(state) == pytest.approx(min(0.1 * g, clip) / min(g, clip), rel=2e-3)
    words = {**X.explain_adam(state), **X.explain_sgd(state)}
    assert all(v and "{" not in v for v in words.values())


def test_bad_input_names_the_parameter(sample):
    with pytest.raises(ValueError, match="^aggregation"):
        X.gradient_norms(sample, "mean")
    with pytest.raises(ValueError, match="^lr"):
        X.gradient_norms(sample, lr=0.0)
    with pytest.raises(ValueError, match="^lengths"):
        X.logprob_gradient_norm([], [], "token-mean")
    with pytest.raises(ValueError, match="^advantages"):
        X.logprob_gradient_norm([2, 3], [1.0], "token-mean")
    with pytest.raises(ValueError, match="^grad"):
        X.first_step_size([], 1e-3)
    with pytest.raises(ValueError, match="^max_norm"):
        X.first_step_size([1.0], 1e-3, max_norm=-1.0)
    with pytest.raises(ValueError, match="^scales"):
        X.scale_sweep(sample, scales=())
