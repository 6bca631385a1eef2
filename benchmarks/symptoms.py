"""Does each symptom's reproduction show it on the shipped model? Measures and writes the file the
symptoms page quotes (rlviz/experiments/symptoms_measured.json).

    .venv/bin/python benchmarks/symptoms.py [--steps 30] [--seed 0] [--out PATH]

One side-by-side run from one seed: the live page's defaults (GRPO) as the baseline arm, and one arm
per live symptom with its reproducing settings (rlviz.experiments.symptoms.SYMPTOMS). Every arm's
metrics go through the same detectors the page runs on a learner's own run (``detect``). The MoE
symptom is measured by the MoE page's own experiment (routing_shift at its defaults) on the MoE and
on the dense control. Takes about 10-20 minutes on a 2-core CPU.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root holds rlviz

import argparse
import json
import platform
import time
from datetime import UTC, datetime

import torch

from rlviz.experiments.live import LiveConfig
from rlviz.experiments.moe import RoutingShiftSettings, routing_shift
from rlviz.experiments.runner import Arm, SideBySideRun
from rlviz.experiments.symptoms import MEASURED, SYMPTOMS, THRESHOLDS, detect, settings_signature


def _arm(key: str, settings: dict) -> Arm:
    settings = dict(settings)
    (objective,) = settings.pop("algorithms")
    settings.pop("steps", None)
    return Arm(key, objective, train=settings)


def measure_live(steps: int, seed: int) -> dict:
    base = LiveConfig(algorithms=("grpo",), steps=steps, seed=seed, heldout_samples=0, device="cpu")
    arms = [Arm("baseline", "grpo")] + [_arm(s.key, s.settings) for s in SYMPTOMS if s.page == "live"]
    run = SideBySideRun(arms, base.run_config())
    t0 = time.perf_counter()
    while not run.done:
        run.step()
        print(f"step {min(run.progress.values())}/{steps}  {time.perf_counter() - t0:.0f} s", flush=True)
    metrics = run.metrics_frame()
    found = detect(metrics)
    out = {}
    base_rows = found[found["arm"] == "baseline"].set_index("symptom")
    for s in SYMPTOMS:
        if s.page != "live":
            continue
        row = found[(found["arm"] == s.key) & (found["symptom"] == s.key)].iloc[0]
        out[s.key] = {
            "present": bool(row["present"]),
            "evidence": float(row["evidence"]),
            "baseline_present": bool(base_rows.loc[s.key, "present"]),
            "baseline_evidence": float(base_rows.loc[s.key, "evidence"]),
            "series": [float(v) for v in metrics[metrics["arm"] == s.key][s.metric]],
            "baseline_series": [float(v) for v in metrics[metrics["arm"] == "baseline"][s.metric]],
            "settings": settings_signature(s.key),
            "steps": steps,
        }
    return out


def measure_moe(seed: int) -> dict:
    out = {}
    for s in SYMPTOMS:
        if s.page != "moe":
            continue
        moe = routing_shift(RoutingShiftSettings(model="moe", seed=seed, device="cpu"))
        dense = routing_shift(RoutingShiftSettings(model="dense", seed=seed, device="cpu"))
        share = moe.summary()["route_change_last"]
        out[s.key] = {
            "present": bool(share > THRESHOLDS["route_change"]),
            "evidence": float(share),
            "baseline_present": False,  # the dense control has no routes
            "baseline_evidence": 0.0,
            "series": [float(v) for v in moe.route_change.groupby("update")["share"].mean()],
            "baseline_series": [],
            "token_std_own": float(moe.summary()["token_std_own"]),
            "token_std_replay": float(moe.summary()["token_std_replay"]),
            "dense_token_std": float(dense.summary()["token_std_own"]),
            "settings": settings_signature(s.key),
            "steps": RoutingShiftSettings().updates,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(MEASURED))
    args = parser.parse_args()
    torch.set_num_threads(2)
    t0 = time.perf_counter()
    symptoms = measure_live(args.steps, args.seed) | measure_moe(args.seed)
    data = {
        "meta": {
            "command": "python benchmarks/symptoms.py",
            "date": datetime.now(UTC).strftime("%Y-%m-%d"),
            "seed": args.seed,
            "torch": torch.__version__,
            "machine": f"{platform.machine()}, {torch.get_num_threads()} threads",
            "seconds": round(time.perf_counter() - t0),
            "thresholds": THRESHOLDS,
        },
        "symptoms": symptoms,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    for key, entry in symptoms.items():
        print(
            f"{key:18s} present={entry['present']!s:5s} evidence={entry['evidence']:.3g}  "
            f"baseline={entry['baseline_present']!s:5s} {entry['baseline_evidence']:.3g}"
        )


if __name__ == "__main__":
    main()
