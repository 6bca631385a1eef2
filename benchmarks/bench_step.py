"""Seconds per RL step of each algorithm on the shipped tiny LM (measured here, never asserted in tests).

.venv/bin/python benchmarks/bench_step.py [--steps 5] [--device cpu]
"""

import argparse
import copy
import statistics
import time

import torch

from rlviz.core.objectives import ALGORITHMS
from rlviz.lm.model import load_policy
from rlviz.lm.trainer import TrainConfig, Trainer


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--device", default=None)
    args = p.parse_args()
    model, tok = load_policy(device=args.device)
    ref = copy.deepcopy(model).requires_grad_(False)
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, device {next(model.parameters()).device}")
    print(f"{'algorithm':<12}{'median s/step':>14}{'min':>8}{'max':>8}")
    for name in ALGORITHMS:
        trainer = Trainer(TrainConfig(algorithm=name), copy.deepcopy(model), tok, ref)
        times = []
        for _ in range(args.steps):
            t0 = time.perf_counter()
            trainer.step()
            times.append(time.perf_counter() - t0)
        print(f"{name:<12}{statistics.median(times):>14.3f}{min(times):>8.3f}{max(times):>8.3f}")


if __name__ == "__main__":
    main()
