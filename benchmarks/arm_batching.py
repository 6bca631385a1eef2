"""What batching the arms of a side-by-side run into one forward could save at most (issue 13).

.venv/bin/python benchmarks/arm_batching.py [--rounds 8] [--arms 4]   (part of make bench)

A live run steps each arm on its own batch (16 prompts x G 8 at the defaults): a sampling loop of
about 16 decoding forwards, then forward and backward passes over the batch. Batching the arms would
run them as one forward over stacked weights (one larger matrix product per layer instead of one per
arm). Whatever the stacking costs, it cannot do less work than the same rows through one model, so
this measures that bound on the shipped tiny LM, one torch thread, the CPU seconds of this thread:

- sampling: ``--arms`` calls of ``sample_rollouts`` on 16 prompts each, against one call on all the
  prompts at once (the same seed in both each round; the responses differ, their lengths are drawn
  from the same policy);
- a forward and backward: ``response_log_probs`` and ``backward`` on ``--arms`` slices of one sampled
  batch, against the whole batch at once (the same rows).

The contenders alternate, one each per round, after one round of warm-up; each figure is the median
of the per-round ratios (batched / separate). A ratio of 0.8 means batching could save at most a
fifth of that phase.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PROMPTS_PER_ARM = 16  # TrainConfig's default prompts per step
GROUP = 8  # its default G
NEW_TOKENS = 16  # its default response limit
TEMPERATURE = 1.0


def _cpu(fn) -> float:
    t0 = time.thread_time()
    fn()
    return time.thread_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--arms", type=int, default=4)
    args = parser.parse_args()
    if args.rounds < 1 or args.arms < 2:
        parser.error("--rounds must be >= 1 and --arms >= 2")

    import torch

    torch.set_num_threads(1)
    from rlviz.lm import task
    from rlviz.lm.model import load_policy
    from rlviz.lm.rollout import response_log_probs, sample_rollouts

    model, tokenizer = load_policy(device="cpu")
    model.train()
    problems = task.train_problems(0)[: PROMPTS_PER_ARM * args.arms]
    rows = PROMPTS_PER_ARM * GROUP

    def sample(seed: int, batched: bool):
        gen = torch.Generator().manual_seed(seed)
        if batched:
            return [sample_rollouts(model, tokenizer, problems, GROUP, NEW_TOKENS, TEMPERATURE, gen, score=False)]
        return [
            sample_rollouts(
                model, tokenizer, problems[a * PROMPTS_PER_ARM : (a + 1) * PROMPTS_PER_ARM], GROUP, NEW_TOKENS,
                TEMPERATURE, gen, score=False,
            )
            for a in range(args.arms)
        ]  # fmt: skip

    def update(batch, batched: bool) -> None:
        slices = [slice(None)] if batched else [slice(a * rows, (a + 1) * rows) for a in range(args.arms)]
        for s in slices:
            logp, _ = response_log_probs(
                model,
                batch.input_ids[s],
                batch.attention_mask[s],
                batch.position_ids[s],
                batch.prompt_width,
                TEMPERATURE,
            )
            (logp * batch.response_mask[s]).sum().backward()
            model.zero_grad(set_to_none=True)

    ratios: dict[str, list[float]] = {"sampling": [], "forward+backward": []}
    seconds: dict[str, list[float]] = {
        k: [] for k in ("sampling separate", "sampling batched", "fb separate", "fb batched")
    }
    for r in range(args.rounds + 1):
        order = (False, True) if r % 2 == 0 else (True, False)
        got = {}
        for batched in order:
            got[batched] = _cpu(lambda b=batched, r=r: sample(r, b))
        whole = sample(1000 + r, True)[0]
        fb = {}
        for batched in order:
            fb[batched] = _cpu(lambda b=batched, w=whole: update(w, b))
        if r == 0:
            continue  # warm-up
        ratios["sampling"].append(got[True] / got[False])
        ratios["forward+backward"].append(fb[True] / fb[False])
        seconds["sampling separate"].append(got[False])
        seconds["sampling batched"].append(got[True])
        seconds["fb separate"].append(fb[False])
        seconds["fb batched"].append(fb[True])

    med = {k: statistics.median(v) for k, v in seconds.items()}
    print(f"{args.arms} arms x {PROMPTS_PER_ARM} prompts x G {GROUP}, up to {NEW_TOKENS} new tokens; one thread; "
          f"median CPU s over {args.rounds} rounds")  # fmt: skip
    print(f"  sampling:         separate {med['sampling separate']:.3f}  batched {med['sampling batched']:.3f}  "
          f"batched/separate {statistics.median(ratios['sampling']):.2f}")  # fmt: skip
    print(f"  forward+backward: separate {med['fb separate']:.3f}  batched {med['fb batched']:.3f}  "
          f"batched/separate {statistics.median(ratios['forward+backward']):.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
