"""What the KL estimator and its placement do to the update on the shipped tiny LM. Measures and
writes the file the KL page quotes (rlviz/experiments/kl_measured.json).

    .venv/bin/python benchmarks/kl_effect.py [--out PATH] [--device cpu]

One side-by-side run from one seed with ``rlviz.experiments.kl.LIVE_SETTINGS``: GRPO with beta = 0 as
the control and one arm per (estimator, placement) of ``LIVE_ARMS`` (k1 / k3 in the loss, verl
``use_kl_loss`` / TRL ``beta``; k1 in the reward, verl ``use_kl_in_reward``). Only ``beta``,
``kl_estimator`` and ``kl_in_reward`` differ, so the arms see the same first batch. Prints and stores,
per arm, the KL to the reference (the sampler's mean k3, the live page's ``kl_ref``) and the reward
averaged over the last ``LIVE_WINDOW`` steps. About an hour on a loaded 2-core CPU.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root holds rlviz

import argparse
import json
import time

from rlviz.experiments.kl import LIVE_ARMS, LIVE_SETTINGS, LIVE_WINDOW, PG_ALGORITHM, live_arm_settings
from rlviz.experiments.live import LiveConfig
from rlviz.experiments.runner import Arm, SideBySideRun


def measure(device: str) -> dict:
    s = LIVE_SETTINGS
    base = LiveConfig(
        algorithms=(PG_ALGORITHM,),
        steps=s["steps"],
        seed=s["seed"],
        lr=s["lr"],
        mu=s["mu"],
        prompts_per_step=s["prompts_per_step"],
        heldout_samples=0,
        device=device,
    )
    arms = [Arm(name, PG_ALGORITHM, *live_arm_settings(name)) for name, _, _ in LIVE_ARMS]
    run = SideBySideRun(arms, base.run_config())
    t0 = time.perf_counter()
    while not run.done:
        run.step()
        print(f"step {min(run.progress.values())}/{s['steps']}  {time.perf_counter() - t0:.0f} s", flush=True)
    m = run.metrics_frame()
    out = {"settings": dict(s) | {"device": device}, "window": LIVE_WINDOW, "arms": {}}
    for name, _, _ in LIVE_ARMS:
        a = m[m["arm"] == name]
        last = a.tail(LIVE_WINDOW)
        out["arms"][name] = {
            "kl_ref_last": float(last["kl_ref"].mean()),
            "reward_last": float(last["reward_mean"].mean()),
            "kl_ref": [float(v) for v in a["kl_ref"]],
            "reward": [float(v) for v in a["reward_mean"]],
        }
        r = out["arms"][name]
        print(f"{name:12s} kl_ref {r['kl_ref_last']:.4f}  reward {r['reward_last']:.3f}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--out", default="")
    args = ap.parse_args()
    out = measure(args.device)
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
