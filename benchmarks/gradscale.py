"""What the gradient-scale page measures on the shipped tiny LM, over seeds (docs/gradscale.md).

    .venv/bin/python benchmarks/gradscale.py [--seeds 0 1 2] [--objective grpo] [--out PATH]

For each seed, the page's batch (``rlviz.experiments.gradscale.batch_at(seed, 8, "")``: one group of G = 8
from the first of 8 drawn prompts whose answers are not all alike, as the step page draws it):

- ``gradient_norms`` for each aggregation choice (each entry its own, then every ``loss_agg_mode``): the
  trainer's ``grad_norm`` of every registry entry at the first (on-policy) update, and, with its own
  aggregation, at the second (mu = 2) with its clip fraction;
- ``scale_sweep`` of ``--objective`` at the trainer's lr: ||delta theta|| and mean |delta log pi| for every c,
  AdamW and SGD, clipping on and off.

Prints Markdown tables (medians and ranges over the seeds), the time of the page's first chart (the
sample and ``gradient_norms`` with its own aggregation, each seed's first call, one torch thread) and,
with ``--out``, writes every number as JSON. About two minutes on a loaded 2-core CPU.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root holds rlviz

import argparse
import json
import statistics
import time

import torch

from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import gradscale as X


def _span(values: list[float], digits: str = ".3g") -> str:
    """The median and, when they differ, the range of ``values``."""
    med = statistics.median(values)
    lo, hi = min(values), max(values)
    return (
        f"{med:{digits}}" if f"{lo:{digits}}" == f"{hi:{digits}}" else f"{med:{digits}} ({lo:{digits}}–{hi:{digits}})"
    )


def measure(seeds: list[int], objective: str) -> dict:
    out: dict = {"seeds": seeds, "objective": objective, "norms": {}, "second": {}, "sweep": {}, "first_chart_s": []}
    for seed in seeds:
        t0 = time.perf_counter()
        sample = X.batch_at(seed, X.DEFAULT_GROUP_SIZE, "")
        own = X.gradient_norms(sample, X.OWN)
        out["first_chart_s"].append(time.perf_counter() - t0)
        out.setdefault("batches", []).append(
            {
                "seed": seed,
                "prompt": sample.batch.problems[0].prompt,
                "lengths": sample.batch.response_lengths.tolist(),
                "rewards": sample.batch.rewards.tolist(),
            }
        )
        out["norms"].setdefault(X.OWN, []).append(own.to_dict("records"))
        for mode in X.AGGREGATION_CHOICES[1:]:
            out["norms"].setdefault(mode, []).append(X.gradient_norms(sample, mode).to_dict("records"))
        out["second"].setdefault(X.OWN, []).append(X.gradient_norms(sample, X.OWN, second=True).to_dict("records"))
        out["sweep"][seed] = X.scale_sweep(sample, objective).to_dict("records")
        print(f"seed {seed}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return out


def report(out: dict) -> str:
    lines = []
    seeds = out["seeds"]
    lines.append(
        f"Seeds {seeds}; batches: "
        + "; ".join(
            f"seed {b['seed']} {b['prompt']} lengths {b['lengths']} right {int(sum(b['rewards']))}/{len(b['rewards'])}"
            for b in out["batches"]
        )
    )
    lines.append("")
    modes = list(out["norms"])
    lines.append("| objective | " + " | ".join(modes) + " | 2nd update (own) | clipped at 2nd |")
    lines.append("|---" * (len(modes) + 3) + "|")
    for i, name in enumerate(ALGORITHMS):
        cells = [_span([run[i]["grad_norm"] for run in out["norms"][m]]) for m in modes]
        second = [run[i]["grad_norm_second"] for run in out["second"][X.OWN]]
        clip = [run[i]["clip_fraction_second"] for run in out["second"][X.OWN]]
        own_mode = out["norms"][X.OWN][0][i]["loss_agg_mode"]
        lines.append(
            f"| {ALGORITHMS[name].title} ({own_mode}) | "
            + " | ".join(cells)
            + f" | {_span(second)} | {_span(clip, '.0%')} |"
        )
    lines.append("")
    lines.append(f"Scale sweep of {out['objective']} (||delta theta||; relative to c = 1 in brackets):")
    lines.append("")
    scales = sorted({r["scale"] for r in out["sweep"][seeds[0]]})
    lines.append("| optimizer, clip | " + " | ".join(f"c = {c:g}" for c in scales) + " |")
    lines.append("|---" * (len(scales) + 1) + "|")
    for optimizer in X.OPTIMIZERS:
        for clip in (True, False):
            cells = []
            for c in scales:
                rows = [
                    next(
                        r
                        for r in out["sweep"][s]
                        if r["optimizer"] == optimizer and r["clip"] == clip and r["scale"] == c
                    )
                    for s in seeds
                ]
                cells.append(f"{_span([r['delta_theta'] for r in rows])} (×{_span([r['relative'] for r in rows])})")
            lines.append(f"| {optimizer}, clip {'on' if clip else 'off'} | " + " | ".join(cells) + " |")
    ref = [next(r for r in out["sweep"][s] if r["optimizer"] == "adamw" and r["scale"] == 1.0) for s in seeds]
    lines.append("")
    lines.append(
        f"lr·sqrt(n): {_span([r['adam_reference'] for r in ref], '.4g')}, n = {ref[0]['nonzero']} "
        f"of {ref[0]['parameters']} parameters with a nonzero gradient"
    )
    lines.append(f"First chart (sample + every objective's first update): {_span(out['first_chart_s'])} s")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--objective", default=X.BASELINE)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    torch.set_num_threads(1)
    X.optimizer_settings()  # the model's first load (transformers' import) outside the timings
    out = measure(args.seeds, args.objective)
    print(report(out))
    if args.out:
        args.out.write_text(json.dumps(out, indent=1, default=float))


if __name__ == "__main__":
    main()
