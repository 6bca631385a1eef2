"""The learning check: 30 GRPO steps with the defaults raise held-out pass@1 well outside noise."""

import math

import pytest

from rlviz.experiments.live import LiveConfig, LiveRun
from rlviz.lm.task import heldout_problems


@pytest.mark.slow
def test_thirty_grpo_steps_raise_heldout_pass_at_1():
    config = LiveConfig(algorithms=("grpo",), steps=30, seed=0, heldout_samples=8, device="cpu")
    run = LiveRun(config)
    while not run.done:
        run.step()
    n = len(heldout_problems()) * config.heldout_samples
    assert n >= 512  # held-out prompts are never trained on (split by a rule in rlviz.lm.task)
    start, end = run.heldout["start"], run.heldout["grpo"]
    # standard error of a difference of two pass@1 estimates on n samples each
    se = math.sqrt(start * (1 - start) / n + end * (1 - end) / n)
    assert end - start > max(0.05, 4 * se), (start, end, se)
