"""How a live step scales with G, prompts per step and response length, and what a session holds (issue 13).

.venv/bin/python benchmarks/scaling.py [--steps 4]   (part of make bench)

Step time: one GRPO arm at the trainer's defaults (mu 2, 2 mini-batches, beta 0.04 with its
reference) on the shipped tiny LM, one torch thread, the median CPU seconds of the stepping thread
over ``--steps`` steps after one warm-up, as one setting at a time moves off the default (16 prompts
x G 8, up to 16 new tokens); then a least-squares line through every point, seconds against
responses per step.

Memory: a fresh process per count of arms builds a side-by-side run (the live page's session) and
takes one step of every arm, so each holds its gradients and AdamW moments: the bytes of the tensors
it holds, and its resident memory (VmRSS) over the same process after a warm-up run of the same
arms was dropped and trimmed (so torch's lazily allocated buffers are not counted), each against
the model's fp32 size.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def step_seconds(model, tokenizer, ref, steps: int, **config) -> tuple[float, float]:
    """Median CPU s of a GRPO arm-step with ``config`` over ``TrainConfig``'s defaults, and the
    mean response length (tokens) it sampled."""
    from rlviz.lm.trainer import TrainConfig, Trainer

    trainer = Trainer(TrainConfig(algorithm="grpo", **config), copy.deepcopy(model), tokenizer, ref)
    trainer.step()  # warm-up
    times = []
    for _ in range(steps):
        t0 = time.thread_time()
        trainer.step()
        times.append(time.thread_time() - t0)
    return statistics.median(times), statistics.mean(m["response_length_mean"] for m in trainer.history[1:])


def memory(arms: int) -> dict:
    """Run in a child: what a session of ``arms`` arms holds after each took a step: the bytes of
    its tensors (weights, gradients, AdamW moments, the reference), and its resident memory over the
    same process after a warm-up run (torch's lazily allocated buffers) was dropped and trimmed. The
    arms step as the live page steps them: as many at once as a server computes steps at once."""
    import gc

    import torch

    from rlviz.core.objectives import ALGORITHMS
    from rlviz.experiments.runner import Arm, RunConfig, SideBySideRun
    from rlviz.lm.model import load_policy
    from rlviz.serving import ServerLimits, trim_memory

    torch.set_num_threads(1)
    policy = load_policy(None, device="cpu")
    names = list(ALGORITHMS)[:arms]
    warm = SideBySideRun([Arm(n, n) for n in names], RunConfig(steps=2, heldout_samples=0), policy)
    workers = ServerLimits().concurrent_steps
    warm.step_parallel(workers)
    del warm
    gc.collect()
    trim_memory()
    base = _rss_mib()
    run = SideBySideRun([Arm(n, n) for n in names], RunConfig(steps=2, heldout_samples=0), policy)
    run.step_parallel(workers)
    held = _rss_mib() - base
    tensors = {id(run.ref_model): list(run.ref_model.parameters())}
    for t in run.trainers.values():
        own = [*t.model.parameters(), *(p.grad for p in t.model.parameters() if p.grad is not None)]
        own += [v for state in t.optimizer.state.values() for v in state.values() if torch.is_tensor(v)]
        tensors[id(t)] = own
    tensor_mib = sum(x.numel() * x.element_size() for xs in tensors.values() for x in xs) / 2**20
    model_mib = sum(p.numel() * p.element_size() for p in policy[0].parameters()) / 2**20
    return {"arms": arms, "held_mib": held, "tensor_mib": tensor_mib, "model_mib": model_mib}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=4, help="measured steps per setting")
    p.add_argument("--memory-child", type=int, default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.memory_child is not None:
        print(json.dumps(memory(args.memory_child)))
        return
    import torch

    from rlviz.lm.model import load_policy

    torch.set_num_threads(1)
    model, tokenizer = load_policy(None, device="cpu")
    ref = copy.deepcopy(model).eval().requires_grad_(False)
    settings = [("default", {})]
    settings += [(f"G {g}", {"group_size": g}) for g in (4, 16, 32)]
    settings += [(f"prompts {n}", {"prompts_per_step": n}) for n in (8, 32)]
    settings += [(f"max new tokens {n}", {"max_new_tokens": n}) for n in (4, 8, 32)]
    print(f"GRPO arm-step, torch {torch.__version__}, 1 thread; median CPU s of {args.steps} steps")
    print(f"  {'setting':<20}{'responses':>10}{'mean length':>12}{'s/step':>8}")
    points = []
    for label, kw in settings:
        seconds, length = step_seconds(model, tokenizer, ref, args.steps, **kw)
        responses = kw.get("prompts_per_step", 16) * kw.get("group_size", 8)
        points.append((responses * length, responses, seconds))
        print(f"  {label:<20}{responses:>10}{length:>12.1f}{seconds:>8.3f}")
    # seconds = a + b * responses, over the settings that keep the length limit
    xs = [r for (_, r, _), (_, kw) in zip(points, settings) if "max_new_tokens" not in kw]
    ys = [s for (_, _, s), (_, kw) in zip(points, settings) if "max_new_tokens" not in kw]
    fit = statistics.linear_regression(xs, ys)
    print(f"  fit over G and prompts: {fit.intercept:.3f} s + {fit.slope * 1000:.1f} ms per response")
    print("\nmemory of a session (a side-by-side run after one step of every arm)")
    for arms in (1, 4):
        out = subprocess.run(
            [sys.executable, __file__, "--memory-child", str(arms)], capture_output=True, text=True, check=True
        )
        m = json.loads(out.stdout.strip().splitlines()[-1])
        copies, ratio = m["tensor_mib"] / m["model_mib"], m["held_mib"] / m["model_mib"]
        print(
            f"  {arms} arm(s): tensors {m['tensor_mib']:.1f} MiB = {copies:.1f} copies of the model's "
            f"{m['model_mib']:.2f} MiB (fp32); resident {m['held_mib']:.1f} MiB = {ratio:.1f}x"
        )


if __name__ == "__main__":
    main()
