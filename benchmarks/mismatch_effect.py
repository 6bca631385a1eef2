"""What a mismatched sampler and each rollout correction do to training on the shipped tiny LM.
Measures and writes the file the mismatch page quotes (rlviz/experiments/mismatch_measured.json).

    .venv/bin/python benchmarks/mismatch_effect.py [--out PATH] [--seeds 0,1] [--steps N] [--stale K]
        [--lr LR] [--dtype bfloat16] [--arms matched,none,token_tis,...] [--model dense] [--device cpu]

One side-by-side run per seed (``rlviz.experiments.mismatch.MismatchLiveRun``, the page's defaults
unless told otherwise): the matched sampler as the control, the mismatched sampler uncorrected, one arm
per correction chosen, an fp16 sampler. Prints and stores per seed and arm the reward and KL between
sampler and trainer over the last ``--window`` steps, held-out pass@1 at the end, and the first step
the runner's collapse flag fires (``{"runs": [one per seed]}``). About 6 minutes a seed on a loaded
2-core CPU.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root holds rlviz

import argparse
import dataclasses
import json
import math
import time

import torch

from rlviz.experiments.mismatch import MismatchLiveConfig, MismatchLiveRun

OUT = Path(__file__).resolve().parent.parent / "rlviz" / "experiments" / "mismatch_measured.json"


def measure(config: MismatchLiveConfig, window: int) -> dict:
    run = MismatchLiveRun(config)
    t0 = time.perf_counter()
    while not run.done:
        run.step()
        print(f"step {min(run.progress.values())}/{config.steps}  {time.perf_counter() - t0:.0f} s", flush=True)
    m = run.metrics_frame()
    s = run.summary_frame().set_index("arm")
    out = {"settings": dataclasses.asdict(config), "window": window, "seconds": time.perf_counter() - t0, "arms": {}}
    for arm in config.arms:
        rows = m[m["arm"] == arm].sort_values("step").tail(window)

        def mean(col, rows=rows):
            v = float(rows[col].mean())
            return None if math.isnan(v) else v

        collapse = float(s.loc[arm, "collapse_step"])
        out["arms"][arm] = {
            "reward_mean": mean("reward_mean"),
            "pass_at_1": mean("pass_at_1"),
            "rollout_kl": mean("rollout_kl"),
            "kl_ref": mean("kl_ref"),
            "token_ratio_var": mean("token_ratio_var"),
            "correction_masked_fraction": mean("correction_masked_fraction"),
            "heldout_end": float(s.loc[arm, "heldout_pass_at_1_end"]),
            "heldout_start": float(s.loc[arm, "heldout_pass_at_1_start"]),
            "collapse_step": None if math.isnan(collapse) else int(collapse),
        }
        print(arm, out["arms"][arm], flush=True)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    d = MismatchLiveConfig()
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--steps", type=int, default=d.steps)
    p.add_argument("--stale", type=int, default=d.rollout_stale_steps)
    p.add_argument("--lr", type=float, default=d.lr)
    p.add_argument("--dtype", default=d.rollout_dtype)
    p.add_argument("--top-p", type=float, default=d.top_p)
    p.add_argument("--arms", default=",".join(d.arms))
    p.add_argument("--model", default=d.model)
    p.add_argument("--heldout", type=int, default=d.heldout_samples)
    p.add_argument("--window", type=int, default=5)
    p.add_argument("--seeds", default="0,1")
    p.add_argument("--device", default="cpu")
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    runs = []
    for seed in (int(x) for x in a.seeds.split(",")):
        config = MismatchLiveConfig(
            arms=tuple(a.arms.split(",")),
            rollout_dtype=a.dtype,
            rollout_stale_steps=a.stale,
            top_p=a.top_p,
            steps=a.steps,
            lr=a.lr,
            heldout_samples=a.heldout,
            model=a.model,
            seed=seed,
            device=a.device,
        )
        runs.append(measure(config, a.window))
    text = json.dumps({"runs": runs}, indent=1)
    if a.out is not None:
        a.out.write_text(text + "\n")
        print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
