"""Does each symptom's reproduction show it on the shipped model? Measures and writes the file the
symptoms page quotes (rlviz/experiments/symptoms_measured.json).

    .venv/bin/python benchmarks/symptoms.py [--steps 30] [--seed 0] [--out PATH] [--only KEY,KEY]

One side-by-side run per task and run length from one seed: a baseline arm (BASELINE_ALGORITHM, GRPO,
on that task for that many steps, its other settings at the live page's defaults; each entry records
its algorithm, task and steps, and the page labels the baseline from them), and one arm per live symptom with its reproducing settings
(rlviz.experiments.symptoms.SYMPTOMS; a symptom's ``task`` and ``steps`` choose its run, the other
settings its arm). Every arm's metrics go through the same detectors the page runs on a learner's own
run (``detect``). The MoE symptom is measured by the MoE page's own experiment (routing_shift at its
defaults) on the MoE and on the dense control. ``--only`` measures the symptoms named and keeps the
other entries of ``--out`` as they were; each entry records its own date, seed, command and seconds.
Takes about 10-20 minutes on a 2-core CPU for the 30-step symptoms, about 5 more for the 100-step
make_sum one (entropy collapse).
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
from rlviz.experiments.symptoms import (
    BASELINE_ALGORITHM,
    MEASURED,
    SYMPTOMS,
    THRESHOLDS,
    detect,
    load_measured,
    settings_signature,
)

RUN_LEVEL = ("algorithms", "steps", "task")  # a symptom's settings that choose its run, not its arm


def _arm(key: str, settings: dict) -> Arm:
    (objective,) = settings["algorithms"]
    return Arm(key, objective, train={k: v for k, v in settings.items() if k not in RUN_LEVEL})


def measure_live(steps: int, seed: int, only: set[str] | None = None) -> dict:
    """The live symptoms (those in ``only``, or all): one run per (task, steps) of their settings."""
    runs: dict[tuple[str, int], list] = {}
    for s in SYMPTOMS:
        if s.page == "live" and (only is None or s.key in only):
            run_key = (s.settings.get("task", LiveConfig.task), int(s.settings.get("steps", steps)))
            runs.setdefault(run_key, []).append(s)
    out = {}
    for (task, n), symptoms in runs.items():
        out |= _measure_run(task, n, seed, symptoms)
    return out


def _measure_run(task: str, steps: int, seed: int, symptoms: list) -> dict:
    base = LiveConfig(
        algorithms=(BASELINE_ALGORITHM,), steps=steps, seed=seed, heldout_samples=0, device="cpu", task=task
    )
    arms = [Arm("baseline", BASELINE_ALGORITHM)] + [_arm(s.key, s.settings) for s in symptoms]
    run = SideBySideRun(arms, base.run_config())
    t0 = time.perf_counter()
    while not run.done:
        run.step()
        print(f"{task}: step {min(run.progress.values())}/{steps}  {time.perf_counter() - t0:.0f} s", flush=True)
    metrics = run.metrics_frame()
    found = detect(metrics)
    out = {}
    base_rows = found[found["arm"] == "baseline"].set_index("symptom")
    seconds = round(time.perf_counter() - t0)
    for s in symptoms:
        row = found[(found["arm"] == s.key) & (found["symptom"] == s.key)].iloc[0]
        out[s.key] = _stamped(seed, seconds) | {
            "present": bool(row["present"]),
            "evidence": float(row["evidence"]),
            "baseline_algorithm": BASELINE_ALGORITHM,
            "baseline_present": bool(base_rows.loc[s.key, "present"]),
            "baseline_evidence": float(base_rows.loc[s.key, "evidence"]),
            "series": [float(v) for v in metrics[metrics["arm"] == s.key][s.metric]],
            "baseline_series": [float(v) for v in metrics[metrics["arm"] == "baseline"][s.metric]],
            "settings": settings_signature(s.key),
            "steps": steps,
            "task": task,
        }
    return out


def _stamped(seed: int, seconds: int) -> dict:
    """What each entry records of its own measurement (an entry remeasured with --only keeps its own)."""
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "seed": seed,
        "command": " ".join(["python", "benchmarks/symptoms.py", *sys.argv[1:]]),
        "seconds": seconds,
    }


def measure_moe(seed: int, only: set[str] | None = None) -> dict:
    out = {}
    for s in SYMPTOMS:
        if s.page != "moe" or (only is not None and s.key not in only):
            continue
        t0 = time.perf_counter()
        moe = routing_shift(RoutingShiftSettings(model="moe", seed=seed, device="cpu"))
        dense = routing_shift(RoutingShiftSettings(model="dense", seed=seed, device="cpu"))
        share = moe.summary()["route_change_last"]
        out[s.key] = _stamped(seed, round(time.perf_counter() - t0)) | {
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
    parser.add_argument("--only", default="", help="comma-separated symptom keys; the others stay as measured")
    args = parser.parse_args()
    only = {k.strip() for k in args.only.split(",") if k.strip()} or None
    unknown = sorted((only or set()) - {s.key for s in SYMPTOMS})
    if unknown:
        parser.error(f"--only: no symptom {', '.join(unknown)}")
    torch.set_num_threads(2)
    t0 = time.perf_counter()
    symptoms = measure_live(args.steps, args.seed, only) | measure_moe(args.seed, only)
    before = load_measured(Path(args.out)) if only is not None else {}
    if only is not None:  # the other entries as they were measured, each with its own date and seed
        symptoms = before.get("symptoms", {}) | symptoms
        symptoms = {s.key: symptoms[s.key] for s in SYMPTOMS if s.key in symptoms}
    data = {
        "meta": before.get("meta", {}) | {"updated": datetime.now(UTC).strftime("%Y-%m-%d"), "thresholds": THRESHOLDS}
        if only is not None
        else {
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
