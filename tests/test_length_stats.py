"""The length measurements of issue 41 (rlviz.lm.length_stats) on tiny batches computed by hand, and their
place among the trainer's metrics and the live page's panels (the trainer's step filling them from its own
batch is tests/test_trainer.py's test_a_step_measures_length_by_outcome_and_log_ratio_noise_by_response)."""

import math

import pytest
import torch

from rlviz.lm.length_stats import length_noise, noise_by_length, outcome_lengths, response_log_ratios


def test_outcome_lengths_split_the_mean_by_reward():
    lengths = torch.tensor([10, 20, 30, 40, 5])
    rewards = torch.tensor([1.0, 0.0, 0.0, 1.0, 0.0])
    right, wrong = outcome_lengths(lengths, rewards)
    assert right == pytest.approx((10 + 40) / 2)  # 25
    assert wrong == pytest.approx((20 + 30 + 5) / 3)  # 18.333...
    # the whole-step mean is their mix by pass@1: 0.4 * 25 + 0.6 * 18.33 = 21
    assert 0.4 * right + 0.6 * wrong == pytest.approx(float(lengths.float().mean()))


def test_outcome_lengths_of_an_empty_side_is_nan_as_other_empty_metrics():
    right, wrong = outcome_lengths(torch.tensor([7, 9]), torch.tensor([0.0, 0.0]))
    assert math.isnan(right) and wrong == 8.0
    right, wrong = outcome_lengths(torch.tensor([7, 9]), torch.tensor([1.0, 1.0]))
    assert right == 8.0 and math.isnan(wrong)
    with pytest.raises(ValueError, match="lengths"):
        outcome_lengths(torch.tensor([7, 9]), torch.tensor([1.0]))


def test_response_log_ratios_and_length_noise_by_hand():
    # three responses: 2 tokens (log r = 0.1, 0.3), 4 tokens (-0.2 x 4), 1 token (0.5) + padding,
    # and a fourth row with no loss token (dropped)
    log_ratio = torch.tensor(
        [
            [0.1, 0.3, 9.0, 9.0],  # padding holds junk: the mask removes it
            [-0.2, -0.2, -0.2, -0.2],
            [0.5, 0.0, 0.0, 0.0],
            [0.7, 0.7, 0.0, 0.0],
        ]
    )
    mask = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 1], [1, 0, 0, 0], [0, 0, 0, 0]])
    rec = response_log_ratios(log_ratio, mask)
    # rows (|y|, S = sum log r, Q = sum (log r)^2): (2, 0.4, 0.01 + 0.09), (4, -0.8, 4 x 0.04), (1, 0.5, 0.25)
    expected = torch.tensor([[2, 0.4, 0.10], [4, -0.8, 0.16], [1, 0.5, 0.25]], dtype=torch.float64)
    assert torch.allclose(rec, expected)

    m = length_noise(rec)
    # S = (0.4, -0.8, 0.5): mean 0.0333; var = (0.4^2 + 0.8^2 + 0.5^2)/3 - 0.0333^2 = 0.35 - 0.001111 = 0.348889
    assert m["seq_log_ratio_var"] == pytest.approx(0.35 - (0.1 / 3) ** 2)
    # S/|y| = (0.2, -0.2, 0.5): mean 0.1667; var = (0.04 + 0.04 + 0.25)/3 - 0.1667^2 = 0.11 - 0.027778 = 0.082222
    assert m["seq_log_ratio_mean_var"] == pytest.approx(0.11 - (0.5 / 3) ** 2)
    # corr of |y| = (2, 4, 1) with |S| = (0.4, 0.8, 0.5): deviations (-1/3, 5/3, -4/3) and
    # (-0.1667, 0.2333, -0.0667); sum of products 0.0556 + 0.3889 + 0.0889 = 0.5333;
    # norms sqrt(4.6667) = 2.1602 and sqrt(0.08667) = 0.29439: r = 0.5333 / 0.63596 = 0.83863
    assert m["log_ratio_length_corr"] == pytest.approx(0.5333333 / (math.sqrt(14 / 3) * math.sqrt(0.0866667)), rel=1e-5)


def test_length_noise_of_nothing_or_of_exact_ratios_is_nan_not_an_error():
    empty = length_noise(torch.zeros(0, 3))
    assert all(math.isnan(v) for v in empty.values())
    # on-policy (every log r = 0): variances 0, the correlation undefined (|S| constant)
    flat = length_noise(torch.tensor([[3.0, 0.0, 0.0], [5.0, 0.0, 0.0]]))
    assert flat["seq_log_ratio_var"] == 0.0 and flat["seq_log_ratio_mean_var"] == 0.0
    assert math.isnan(flat["log_ratio_length_corr"])
    with pytest.raises(ValueError, match="records"):
        length_noise(torch.zeros(2, 2))


def test_noise_by_length_bins_tokens_and_responses():
    rec = torch.tensor([[2, 0.4, 0.10], [4, -0.8, 0.16], [1, 0.5, 0.25]], dtype=torch.float64)
    short, long, empty = noise_by_length(rec, (0, 2, 4, 10))
    # bin (0, 2]: |y| = 2 and 1, 3 tokens, log r = 0.1, 0.3, 0.5: mean 0.3, var (0.01+0.09+0.25)/3 - 0.09 = 0.026667
    assert (short["responses"], short["tokens"]) == (2, 3)
    assert short["token_log_ratio_var"] == pytest.approx(0.35 / 3 - 0.09)
    assert short["seq_log_ratio_var"] == pytest.approx(0.0025)  # S = 0.4, 0.5: ((0.05)^2 x 2)/2
    assert short["seq_log_ratio_mean_var"] == pytest.approx(0.0225)  # S/|y| = 0.2, 0.5: 0.15^2
    # bin (2, 4]: one response of four tokens all -0.2: no spread anywhere
    assert (long["responses"], long["tokens"]) == (1, 4)
    assert long["token_log_ratio_var"] == pytest.approx(0.0, abs=1e-12) and long["seq_log_ratio_var"] == 0.0
    assert empty["responses"] == 0 and math.isnan(empty["token_log_ratio_var"])
    with pytest.raises(ValueError, match="edges"):
        noise_by_length(rec, (4, 2))


NEW_METRICS = (
    "response_length_right",
    "response_length_wrong",
    "seq_log_ratio_var",
    "seq_log_ratio_mean_var",
    "log_ratio_length_corr",
)


def test_the_new_metrics_are_trainer_metrics_and_live_panels_with_labels_in_each_language():
    from rlviz.experiments.live import ALL_METRICS
    from rlviz.i18n import t
    from rlviz.lm.trainer import METRICS

    for key in NEW_METRICS:
        assert key in METRICS and key in ALL_METRICS, key  # the live page's panel picker offers ALL_METRICS
        en, zh = t(f"metric.{key}", "en"), t(f"metric.{key}", "zh")
        assert en != f"metric.{key}" and any("\u4e00" <= ch <= "\u9fff" for ch in zh), (en, zh)
        assert "$" not in en + zh and "\\" not in en + zh  # plot titles render no LaTeX
