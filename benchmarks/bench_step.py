"""Seconds per RL step of each algorithm on the shipped tiny LM (measured here, never asserted in tests).

.venv/bin/python benchmarks/bench_step.py [--steps 5] [--device cpu]   (or: make bench)

Each algorithm is an arm of one ``rlviz.experiments.runner.SideBySideRun`` (one copy of the model per
arm, the same checkpoint and seed, the trainer's defaults); every arm-step is timed on its own (wall
seconds), and split into the trainer's phases (``Trainer.phase_seconds``: CPU seconds of the
stepping thread).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root holds rlviz


def main() -> None:
    import torch

    from rlviz.core.objectives import ALGORITHMS
    from rlviz.experiments.runner import Arm, RunConfig, SideBySideRun

    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--device", default=None)
    args = p.parse_args()
    run = SideBySideRun(
        [Arm(name, name) for name in ALGORITHMS], RunConfig(steps=args.steps, heldout_samples=0, device=args.device)
    )
    device = next(run.ref_model.parameters()).device
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, device {device}")
    from rlviz.lm.trainer import PHASES

    print(f"{'algorithm':<12}{'median s/step':>14}{'min':>8}{'max':>8}   median CPU s per phase")
    for name in run.arms:  # one algorithm at a time, as before: its steps back to back
        times = []
        for _ in range(args.steps):
            t0 = time.perf_counter()
            run.step_arm(name)
            times.append(time.perf_counter() - t0)
        phases = run.trainers[name].phase_seconds
        split = ", ".join(f"{k} {statistics.median(p[k] for p in phases):.3f}" for k in PHASES)
        print(f"{name:<12}{statistics.median(times):>14.3f}{min(times):>8.3f}{max(times):>8.3f}   {split}")


if __name__ == "__main__":
    main()
