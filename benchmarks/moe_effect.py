"""Where the MoE routing effect shows on the shipped models: the figures of docs/moe.md.

    .venv/bin/python benchmarks/moe_effect.py [--seeds 3] [--live-steps 20] [--skip-live]

One batch (16 prompts x G 8), k = 4 updates, at several learning rates, on the MoE and on the dense
control: the route-change share after 1 and k updates, the token log-ratio spread with the model's
own routing and with the old routing replayed, the routing-only part, GSPO's sequence log-ratio
spread and each arm's clip fraction (rlviz.experiments.moe.routing_shift). Then a live side-by-side
run (GRPO, GRPO + R2, GRPO + R3 with a bf16 sampler, GSPO) on the MoE from one seed, at two
learning rates: held-out pass@1, mean route change, token-ratio variance, clip fraction, KL and
the first collapse-flagged step (rlviz.experiments.moe.MoeLiveRun). Prints the tables.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root holds rlviz

import argparse
import time

import pandas as pd
import torch

from rlviz.experiments.moe import MODELS, MoeLiveConfig, MoeLiveRun, RoutingShiftSettings, routing_shift
from rlviz.lm.model import load_policy


def shift_table(seeds: int, lrs: list[float]) -> pd.DataFrame:
    rows = []
    for model in ("moe", "dense"):
        policy = load_policy(MODELS[model], "cpu")
        for lr in lrs:
            for seed in range(seeds):
                r = routing_shift(RoutingShiftSettings(model=model, lr=lr, updates=4, seed=seed), policy=policy)
                rows.append(
                    {"model": model, "lr": lr, "seed": seed, "sampler_mismatch": r.sampler_mismatch, **r.summary()}
                )
    df = pd.DataFrame(rows)
    return df.groupby(["model", "lr"]).mean(numeric_only=True).drop(columns="seed").reset_index()


def live_table(steps: int, lrs: list[float]) -> pd.DataFrame:
    rows = []
    for lr in lrs:
        cfg = MoeLiveConfig(
            arms=("grpo", "grpo_r2", "grpo_r3", "gspo"), steps=steps, lr=lr, heldout_samples=8, device="cpu"
        )
        t0 = time.time()
        run = MoeLiveRun(cfg)
        while run.step_next() is not None:
            pass
        s = run.summary_frame()
        s.insert(0, "lr", lr)
        s["seconds"] = time.time() - t0
        rows.append(s)
    cols = [
        "lr",
        "arm",
        "heldout_pass_at_1_start",
        "heldout_pass_at_1_end",
        "route_change_mean",
        "token_ratio_var_mean",
        "clip_fraction_mean",
        "kl_ref_last",
        "collapse_step",
        "seconds_total",
    ]
    return pd.concat(rows)[cols]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--live-steps", type=int, default=20)
    ap.add_argument("--skip-live", action="store_true")
    ap.add_argument("--skip-shift", action="store_true")
    ap.add_argument("--lrs", default="1e-4,3e-4,1e-3,3e-3")
    ap.add_argument("--live-lrs", default="1e-4,3e-4,1e-3")
    args = ap.parse_args()
    torch.set_num_threads(1)
    lrs = [float(x) for x in args.lrs.split(",")]
    with pd.option_context("display.width", 250, "display.max_columns", 30, "display.precision", 4):
        if not args.skip_shift:
            print(shift_table(args.seeds, lrs).to_string(index=False), flush=True)
        if not args.skip_live:
            print(live_table(args.live_steps, [float(x) for x in args.live_lrs.split(",")]).to_string(index=False))


if __name__ == "__main__":
    main()
