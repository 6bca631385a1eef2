"""The length claims of issue 41 on make_sum, over seeds: GRPO, Dr.GRPO and GSPO side by side.

    nice -n 15 .venv/bin/python benchmarks/length_claims.py [--seeds 0 1 2] [--steps 100] [--heldout 8] \
        [--window 10] [--edges 0 10 20 30 40] [--out /tmp/length_claims.json]

For each seed one ``rlviz.experiments.live.LiveRun`` on the make_sum task (the run of
``python -m rlviz compare --task make_sum --algorithms grpo,dr_grpo,gspo --seed S``: 16 prompts x G 8 per step,
mu 2 x 2 mini-batches, lr 1e-4, temperature 1, length limit 40 tokens, each objective with its registry
(paper) settings), its arms stepped one after the other on one torch thread, so each arm's CPU time per
step is its own. What it measures, per arm (the trainer's own metrics, ``rlviz.lm.trainer.METRICS``, and
its per-response token log-ratios, ``Trainer.last_log_ratios``):

- claim 18 (Dr.GRPO's length bias; ``../shared/teaching.md``): the mean length of the wrong and of the
  right training responses (``response_length_wrong`` / ``_right``) in windows of ``--window`` steps;
- claims 8 and 10 (token-ratio noise grows with length; GSPO's 1/|y|): over every off-policy update of
  the run, per response-length bin (``--edges``, tokens), the variance of the token log-ratio
  log(pi/pi_old), of its sum over a response (the log of the product of token ratios) and of its mean
  (the log of GSPO's sequence ratio), ``rlviz.lm.length_stats.noise_by_length``; and per window the
  step metrics ``seq_log_ratio_var``, ``seq_log_ratio_mean_var``, ``log_ratio_length_corr``;
- claim 11 (GSPO's efficiency): the clip fraction, the held-out pass@1 gain (57 held-out prompts x
  ``--heldout`` samples, before and after), the gain per 1,000 rollouts and per CPU second of training.

Prints per seed and the mean (± standard deviation over seeds) of each figure, and writes everything as
JSON with ``--out`` (with the date, the commit and the command). ``--record`` writes the length page's
shipped record (``rlviz/data/measured/length_claims.json``, ``rlviz.experiments.length_claims``) from this
run's seeds, merged into the record there (a seed measured again replaces its entry; other settings
replace the record whole); ``--from FILE ...`` builds it from earlier ``--out`` files instead of running:

    .venv/bin/python benchmarks/length_claims.py --record --from length_s0.json length_s1.json length_s2.json

An output that does not name its commit (written before the option existed) gets the last commit before
its run began (the file's time minus its wall time), marked ``commit_inferred`` in the record. Time: about 1-2 s of CPU per arm-step on this 2-core machine (the CPU time per
arm-step is printed), plus two held-out evaluations per arm.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root holds rlviz

import argparse
import json
import math
import shlex
import statistics
import subprocess
import time
from datetime import UTC, datetime

import torch

from rlviz.core.objectives import get_algorithm
from rlviz.experiments.length_claims import RECORD, load_record, merge_records, record_from_outputs
from rlviz.experiments.live import LiveConfig, LiveRun
from rlviz.lm.length_stats import noise_by_length
from rlviz.lm.tasks import get_task

ARMS = ("grpo", "dr_grpo", "gspo")
TASK = "make_sum"
ROOT = Path(__file__).resolve().parent.parent
# the per-window figures: means over the window's steps of these trainer metrics (NaN steps left out)
WINDOW_METRICS = (
    "response_length_wrong",
    "response_length_right",
    "response_length_mean",
    "pass_at_1",
    "clip_fraction",
    "token_ratio_var",
    "seq_log_ratio_var",
    "seq_log_ratio_mean_var",
    "log_ratio_length_corr",
)


def nanmean(xs) -> float:
    xs = [x for x in xs if x is not None and math.isfinite(x)]
    return sum(xs) / len(xs) if xs else math.nan


def spread(xs) -> tuple[float, float]:
    """Mean and standard deviation over seeds (sample sd; NaN with one seed)."""
    xs = [x for x in xs if math.isfinite(x)]
    if not xs:
        return math.nan, math.nan
    return sum(xs) / len(xs), statistics.stdev(xs) if len(xs) > 1 else math.nan


def one_seed(seed: int, steps: int, heldout: int, window: int, edges: list[int]) -> dict:
    """One run of the three arms: per arm its windows, its noise by length and its efficiency."""
    task = get_task(TASK)
    config = LiveConfig(
        algorithms=ARMS,
        steps=steps,
        task=TASK,
        max_new_tokens=task.max_new_tokens,
        overlong_buffer_length=task.overlong_buffer_length,
        seed=seed,
        heldout_samples=heldout,
        device="cpu",
    )
    wall0 = time.perf_counter()
    run = LiveRun(config)
    records: dict[str, list[torch.Tensor]] = {a: [] for a in ARMS}
    while (out := run.step_next()) is not None:  # round robin, one arm-step at a time
        name, m = out
        records[name].append(run.trainers[name].last_log_ratios)
        if m["step"] % 10 == 0 and name == ARMS[-1]:
            print(f"  seed {seed}: step {m['step']}/{steps}  {time.perf_counter() - wall0:.0f} s", flush=True)
    wall = time.perf_counter() - wall0
    frame = run.metrics_frame()
    summary = run.summary_frame().set_index("arm")
    arms = {}
    for name in ARMS:
        t = run.trainers[name]
        h = frame[frame["arm"] == name]
        cpu = sum(sum(p.values()) for p in t.phase_seconds)  # the stepping thread's CPU, training only
        train_wall = float(h["seconds"].sum())
        rollouts = int(h["rollouts"].sum())
        gain = float(summary.loc[name, "heldout_gain"])
        windows = []
        for lo in range(1, steps + 1, window):
            w = h[(h["step"] >= lo) & (h["step"] < lo + window)]
            windows.append(
                {"steps": f"{lo}-{min(lo + window - 1, steps)}"} | {k: nanmean(w[k]) for k in WINDOW_METRICS}
            )
        pooled = torch.cat(records[name]) if records[name] else torch.zeros(0, 3, dtype=torch.float64)
        arms[name] = {
            "windows": windows,
            "noise_by_length": noise_by_length(pooled, edges),
            "clip_fraction": nanmean(h["clip_fraction"]),
            "heldout_pass_at_1_start": float(summary.loc[name, "heldout_pass_at_1_start"]),
            "heldout_pass_at_1_end": float(summary.loc[name, "heldout_pass_at_1_end"]),
            "heldout_gain": gain,
            "rollouts": rollouts,
            "gain_per_1k_rollouts": gain / rollouts * 1000 if rollouts else math.nan,
            "cpu_s": cpu,
            "train_wall_s": train_wall,
            "cpu_per_step_s": cpu / steps,
            "gain_per_cpu_minute": gain / cpu * 60 if cpu > 0 else math.nan,
            "wrong_length_change": windows[-1]["response_length_wrong"] - windows[0]["response_length_wrong"],
            "right_length_change": windows[-1]["response_length_right"] - windows[0]["response_length_right"],
        }
    return {"seed": seed, "wall_s": wall, "arms": arms}


def show(seed_runs: list[dict], edges: list[int]) -> dict:
    """Print each seed's tables and the means over seeds; returns the means."""
    f = lambda x: "—" if not math.isfinite(x) else f"{x:.3g}"  # noqa: E731
    for r in seed_runs:
        print(f"\nseed {r['seed']} ({r['wall_s']:.0f} s wall, held-out evaluations included)")
        for name, a in r["arms"].items():
            print(f"  {get_algorithm(name).title}: CPU {a['cpu_per_step_s']:.2f} s per step, clip fraction "
                  f"{f(a['clip_fraction'])}, held-out pass@1 {f(a['heldout_pass_at_1_start'])} -> "
                  f"{f(a['heldout_pass_at_1_end'])} (gain {f(a['heldout_gain'])}), "
                  f"{a['rollouts']} rollouts")  # fmt: skip
            print("    steps     wrong len  right len  pass@1  clip   var Σlog r  var log s  corr(|y|,|Σ|)")
            for w in a["windows"]:
                print(f"    {w['steps']:<9} {f(w['response_length_wrong']):>9}  {f(w['response_length_right']):>9}  "
                      f"{f(w['pass_at_1']):>6}  {f(w['clip_fraction']):>5}  {f(w['seq_log_ratio_var']):>10}  "
                      f"{f(w['seq_log_ratio_mean_var']):>9}  {f(w['log_ratio_length_corr']):>8}")  # fmt: skip
            print("    length bin  responses  var log r_t  var Σ log r  var log s")
            for b in a["noise_by_length"]:
                print(f"    {b['lo'] + 1:>3}-{b['hi']:<6} {b['responses']:>9}  {f(b['token_log_ratio_var']):>11}  "
                      f"{f(b['seq_log_ratio_var']):>11}  {f(b['seq_log_ratio_mean_var']):>9}")  # fmt: skip
    keys = ("wrong_length_change", "right_length_change", "clip_fraction", "heldout_gain",
            "gain_per_1k_rollouts", "gain_per_cpu_minute", "cpu_per_step_s")  # fmt: skip
    means: dict[str, dict] = {}
    print(f"\nmean ± sd over {len(seed_runs)} seed(s)")
    print("  arm       " + "  ".join(f"{k:>22}" for k in keys))
    for name in ARMS:
        means[name] = {k: spread([r["arms"][name][k] for r in seed_runs]) for k in keys}
        # the bins pooled over seeds: the mean of each seed's bin figure
        means[name]["noise_by_length"] = [
            {"lo": lo, "hi": hi}
            | {
                k: spread([r["arms"][name]["noise_by_length"][j][k] for r in seed_runs])[0]
                for k in ("token_log_ratio_var", "seq_log_ratio_var", "seq_log_ratio_mean_var")
            }
            for j, (lo, hi) in enumerate(zip(edges, edges[1:]))
        ]
        cells = [f"{f(means[name][k][0])} ± {f(means[name][k][1])}" for k in keys]
        print(f"  {name:<9} " + "  ".join(f"{c:>22}" for c in cells))
    return means


def _git(*args: str) -> str:
    """A git command's output in the repository ("" where git or the repository is missing)."""
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _command(settings: dict) -> str:
    """The command line that measures at ``settings`` (an output's, written before it named its own)."""
    seeds = " ".join(str(s) for s in settings["seeds"])
    edges = " ".join(str(e) for e in settings["edges"])
    return (
        f"python benchmarks/length_claims.py --seeds {seeds} --steps {settings['steps']} "
        f"--heldout {settings['heldout']} --window {settings['window']} --edges {edges}"
    )


def provenance(output: dict, path: Path | None = None) -> dict:
    """Date, commit and command of one output: its own, or for an output without them, the date of its
    file, the last commit before its run began and the command its settings name."""
    s = output["settings"]
    if s.get("commit"):
        return {"date": s["date"], "commit": s["commit"], "command": s["command"]}
    if path is None:
        raise ValueError("path: an output without its commit needs its file's time")
    mtime = path.stat().st_mtime
    began = mtime - max(float(r["wall_s"]) for r in output["seeds"])
    commit = _git("rev-list", "-1", f"--before={int(began)}", "HEAD")
    return {
        "date": datetime.fromtimestamp(mtime, UTC).strftime("%Y-%m-%d"),
        "commit": commit or "unknown",
        "command": _command(s),
        "commit_inferred": True,
    }


def write_record(outputs: list[dict], paths: list[Path | None], record: Path) -> dict:
    """The record of ``outputs`` merged into the one at ``record`` and written there; returns it."""
    new = record_from_outputs(outputs, [provenance(o, p) for o, p in zip(outputs, paths)])
    merged = merge_records(load_record(record) if record.exists() else None, new)
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps(merged, indent=1) + "\n", encoding="utf-8")
    return merged


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--heldout", type=int, default=8, help="held-out samples per prompt (57 prompts)")
    ap.add_argument("--window", type=int, default=10, help="steps per window of the length tables")
    ap.add_argument("--edges", type=int, nargs="+", default=[0, 10, 20, 30, 40], help="length bins, tokens")
    ap.add_argument("--out", type=Path, default=None, help="write every number as JSON here")
    ap.add_argument(
        "--record",
        type=Path,
        nargs="?",
        const=RECORD,
        default=None,
        help=f"write/merge the length page's record (default {RECORD.relative_to(ROOT)})",
    )
    ap.add_argument("--from", dest="sources", type=Path, nargs="+", default=None, help="--out files: no run")
    args = ap.parse_args()
    if args.sources is not None:
        if args.record is None:
            ap.error("--from: needs --record (it only builds the record)")
        try:
            outputs = [json.loads(p.read_text(encoding="utf-8")) for p in args.sources]
            merged = write_record(outputs, list(args.sources), args.record)
        except (OSError, ValueError, KeyError) as exc:
            ap.error(f"--from: {exc}")
        print(f"wrote {args.record}: seeds {', '.join(merged['seeds'])}")
        return
    if args.steps < 1 or args.window < 1:
        ap.error("--steps and --window: must be >= 1")
    torch.set_num_threads(1)
    seed_runs = []
    for seed in args.seeds:
        seed_runs.append(one_seed(seed, args.steps, args.heldout, args.window, args.edges))
    means = show(seed_runs, args.edges)
    stamp = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "commit": _git("rev-parse", "HEAD") or "unknown",
        "command": " ".join(["python", "benchmarks/length_claims.py", *map(shlex.quote, sys.argv[1:])]),
    }
    out = {
        "settings": {**vars(args), "out": str(args.out), "record": str(args.record), "sources": None}
        | {"arms": ARMS, "task": TASK}
        | stamp,
        "seeds": seed_runs,
        "means": means,
    }
    if args.out:
        args.out.write_text(json.dumps(out, indent=1, default=float))
        print(f"wrote {args.out}")
    if args.record:
        write_record([json.loads(json.dumps(out, default=float))], [args.out], args.record)
        print(f"wrote {args.record}")


if __name__ == "__main__":
    main()
