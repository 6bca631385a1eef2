"""Why SFT before RL, over seeds: the figures of docs/warm-start.md.

    .venv/bin/python benchmarks/warmstart.py [--seeds 3] [--steps 30] [--out /tmp/warmstart.json]

For each seed, the /warmstart page's live run (rlviz.experiments.warmstart.WarmStartRun: GRPO from the
task's supervised warm start and from its weak warm start, the page's defaults otherwise: 8 prompts x
G 8 per step, lr 1e-4, mu 2, 2 mini-batches) for ``--steps`` steps, with held-out pass@1 (96 prompts x
``--heldout`` samples) before and after. Prints, per arm, the share of zero-advantage groups, training
pass@1 and the gradient norm per block of 10 steps (mean over the seeds, and each seed's), held-out
pass@1 start and end; the process CPU time of the default page run (seed 0, ``--page-steps`` steps,
timed apart); and first, why the weak arm's gradient norm is not zero when every group is all wrong: the
gradient norm of each update of its first step without the KL term and with GRPO's default β
(``--only-first-updates``: that alone). One torch thread, so the numbers do not depend on the core count.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root holds rlviz

import argparse
import json
import time

import pandas as pd
import torch

from rlviz.core.objectives import get_algorithm
from rlviz.experiments.warmstart import ARMS, WarmStartConfig, WarmStartRun

BLOCK = 10  # steps per row of the per-block table


def one_seed(seed: int, steps: int, heldout: int) -> tuple[pd.DataFrame, pd.DataFrame, float, float]:
    """One run: its metrics, its summary, its wall seconds and its process CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    run = WarmStartRun(WarmStartConfig(steps=steps, seed=seed, heldout_samples=heldout, device="cpu"))
    while run.step_next() is not None:
        pass
    metrics, summary = run.metrics_frame(), run.summary_frame()
    metrics.insert(0, "seed", seed)
    summary.insert(0, "seed", seed)
    return metrics, summary, time.perf_counter() - wall, time.process_time() - cpu


def first_update_norms(beta: float, seed: int = 0) -> tuple[float, list[float]]:
    """The weak arm's first step (4 prompts x G 4) at KL coefficient ``beta``: its share of zero-advantage
    groups and the gradient norm of each of its mu x mini-batch updates, read where the trainer clips it
    (``torch.nn.utils.clip_grad_norm_`` returns the norm before clipping; wrapped here for the one step)."""
    run = WarmStartRun(
        WarmStartConfig(
            steps=1, prompts_per_step=4, group_size=4, heldout_samples=0, seed=seed, device="cpu",
            settings={"beta": beta},
        )
    )  # fmt: skip
    norms: list[float] = []
    clip = torch.nn.utils.clip_grad_norm_

    def spy(params, max_norm, *a, **k):
        norm = clip(params, max_norm, *a, **k)
        norms.append(float(norm))
        return norm

    torch.nn.utils.clip_grad_norm_ = spy
    try:
        metrics = run.step_arm("weak")
    finally:
        torch.nn.utils.clip_grad_norm_ = clip
    return float(metrics["zero_adv_group_fraction"]), norms


def blocks(metrics: pd.DataFrame) -> pd.DataFrame:
    """Per arm, block of 10 steps and seed: mean zero-advantage share, training pass@1, gradient norm."""
    m = metrics.assign(block=(metrics["step"] - 1) // BLOCK)
    m["steps"] = m["block"].map(lambda b: f"{b * BLOCK + 1}-{(b + 1) * BLOCK}")
    cols = {"zero_adv_group_fraction": "zero_adv", "pass_at_1": "pass_at_1", "grad_norm": "grad_norm"}
    per_seed = m.groupby(["arm", "steps", "seed"], sort=False)[list(cols)].mean().rename(columns=cols)
    return per_seed.reset_index()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--heldout", type=int, default=8, help="held-out samples per prompt (96 prompts)")
    ap.add_argument("--page-steps", type=int, default=WarmStartConfig().steps)
    ap.add_argument("--out", default=None, help="write every number as JSON here")
    ap.add_argument("--only-first-updates", action="store_true", help="only the weak arm's first step, per update")
    args = ap.parse_args()
    torch.set_num_threads(1)

    # why the weak arm's gradient norm is not zero: its first step's updates with and without the KL term
    first = {}
    for beta in (0.0, get_algorithm("grpo").defaults["beta"]):  # none, and GRPO's default (the page's)
        zero, norms = first_update_norms(beta)
        first[beta] = norms
        print(f"weak arm, step 1, beta {beta:g}: zero-advantage share {zero:.2f}, gradient norm per update "
              + ", ".join(f"{n:.3g}" for n in norms))  # fmt: skip
    if args.only_first_updates:
        return

    # the page's default run, timed apart (its own held-out evaluations included)
    d = WarmStartConfig()
    _, _, page_wall, page_cpu = one_seed(0, args.page_steps, d.heldout_samples)
    print(
        f"page default run ({args.page_steps} steps x 2 arms, {d.prompts_per_step} prompts x G {d.group_size}, "
        f"held-out {d.heldout_samples}/prompt): {page_cpu:.1f} s CPU, {page_wall:.1f} s wall, one thread"
    )

    all_metrics, all_summary, times = [], [], []
    for seed in range(args.seeds):
        metrics, summary, wall, cpu = one_seed(seed, args.steps, args.heldout)
        all_metrics.append(metrics)
        all_summary.append(summary)
        times.append({"seed": seed, "wall_s": wall, "cpu_s": cpu})
        print(f"seed {seed}: {cpu:.1f} s CPU, {wall:.1f} s wall", flush=True)
    metrics, summary = pd.concat(all_metrics), pd.concat(all_summary)
    per_seed = blocks(metrics)
    mean = per_seed.groupby(["arm", "steps"], sort=False)[["zero_adv", "pass_at_1", "grad_norm"]].mean()
    pd.set_option("display.width", 200)
    print("\nper block of 10 steps, mean over seeds:")
    print(mean.round(3).to_string())
    print("\nper block and seed:")
    print(per_seed.round(3).to_string(index=False))
    held = summary[["seed", "arm", "heldout_pass_at_1_start", "heldout_pass_at_1_end", "heldout_gain"]]
    print("\nheld-out pass@1 (96 prompts x", args.heldout, "samples):")
    print(held.round(3).to_string(index=False))
    print(held.groupby("arm", sort=False)[["heldout_pass_at_1_start", "heldout_pass_at_1_end", "heldout_gain"]].mean())
    if args.out:
        out = {
            "settings": {**vars(args), "arms": list(ARMS), "config": WarmStartConfig(steps=args.steps).__dict__},
            "page_run": {"steps": args.page_steps, "cpu_s": page_cpu, "wall_s": page_wall},
            "first_update_norms": {str(b): n for b, n in first.items()},
            "times": times,
            "blocks": per_seed.to_dict(orient="records"),
            "heldout": held.to_dict(orient="records"),
            "metrics": metrics.drop(columns=["collapse"]).to_dict(orient="records"),
        }
        Path(args.out).write_text(json.dumps(out, indent=1, default=float))


if __name__ == "__main__":
    main()
