"""How long an explorer's computation takes while training steps run, with the steps at the server's
priority and below it (issue 12: "runs never starve the explorer pages").

.venv/bin/python benchmarks/step_priority.py [--blocks 3] [--calls 20]

One process, as the server is: ``concurrent_steps`` threads (2, the server's default) step GRPO arms
at the defaults through the server's step queue and :func:`rlviz.serving.run_niced`, as live runs do,
while the main thread computes the curves page's frame for every objective (about 0.1 s of CPU, its
pandas, numpy and autograd: what a slider's rerun computes) over and over, timing each call in wall
seconds. Blocks alternate between ``step_niceness`` 10 (the server's default) and 0 (the steps at the
pages' priority); each line gives the p50 / p95 of a call and the arm-steps the two threads finished
per second in that block (what the runs pay for it).
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=3, help="blocks of each setting, alternating")
    parser.add_argument("--calls", type=int, default=20, help="timed explorer calls per block")
    parser.add_argument("--niceness", type=int, default=10, help="the setting compared with 0")
    args = parser.parse_args()
    if args.blocks < 1 or args.calls < 2:
        parser.error("--blocks must be >= 1 and --calls >= 2")

    import numpy as np

    from rlviz import serving
    from rlviz.experiments.curves import CurveSettings, curves_frame, variants
    from rlviz.lm.model import load_policy
    from rlviz.lm.trainer import TrainConfig, Trainer

    limits = serving.ServerLimits()
    serving.configure(limits)  # the server's: 2 steps at once, one torch thread each
    model, tokenizer = load_policy(device="cpu")
    ref = copy.deepcopy(model).eval().requires_grad_(False)
    trainers = [
        Trainer(TrainConfig(algorithm="grpo", seed=i), copy.deepcopy(model), tokenizer, ref)
        for i in range(limits.concurrent_steps)
    ]
    stop = threading.Event()
    done = [0] * len(trainers)

    def arm(i: int) -> None:
        serving.match_torch_threads()
        while not stop.is_set():
            with serving.STEPS.turn():
                serving.run_niced(trainers[i].step)
            done[i] += 1

    keys = tuple(variants())
    settings = CurveSettings()

    def explorer() -> float:
        t0 = time.perf_counter()
        curves_frame(keys, settings)
        return time.perf_counter() - t0

    serving.match_torch_threads()
    alone = [explorer() for _ in range(args.calls)]
    print(f"explorer call alone (no steps running): p50 {statistics.median(alone):.3f} s, "
          f"p95 {np.percentile(alone, 95):.3f} s")  # fmt: skip
    threads = [threading.Thread(target=arm, args=(i,), daemon=True) for i in range(len(trainers))]
    for t in threads:
        t.start()
    time.sleep(3)  # the arms' first steps (warm-up)
    rows: dict[int, list[tuple[float, float, float]]] = {args.niceness: [], 0: []}
    try:
        for b in range(args.blocks):
            for niceness in (args.niceness, 0) if b % 2 == 0 else (0, args.niceness):
                serving.configure(serving.ServerLimits(step_niceness=niceness))
                time.sleep(1.5)  # the steps begun under the other setting finish
                before, t0 = sum(done), time.perf_counter()
                times = [explorer() for _ in range(args.calls)]
                rate = (sum(done) - before) / (time.perf_counter() - t0)
                rows[niceness].append((statistics.median(times), float(np.percentile(times, 95)), rate))
                print(f"  block {b}, step_niceness {niceness:2d}: p50 {rows[niceness][-1][0]:.3f} s, "
                      f"p95 {rows[niceness][-1][1]:.3f} s, arm-steps/s {rate:.2f}", flush=True)  # fmt: skip
    finally:
        stop.set()
        for t in threads:
            t.join()
    for niceness, got in rows.items():
        p50 = statistics.median(r[0] for r in got)
        p95 = statistics.median(r[1] for r in got)
        rate = statistics.median(r[2] for r in got)
        print(f"step_niceness {niceness:2d}: explorer p50 {p50:.3f} s, p95 {p95:.3f} s (medians of {len(got)} "
              f"blocks); arm-steps/s {rate:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
