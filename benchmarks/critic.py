"""What the critic page measures, over seeds: PPO's critic against the returns, its error by token position,
and what it costs beside GRPO (docs/critic.md quotes this script's output).

    .venv/bin/python benchmarks/critic.py [--task reversed_addition] [--steps 20] [--seeds 0 1 2]
        [--prompts 8] [--group-size 8] [--out PATH]
    .venv/bin/python benchmarks/critic.py --summary PATH   # the by-length summary of a saved --out again

For each seed one ``rlviz.experiments.critic.CriticRun`` (the page's live run: PPO with its critic beside
GRPO with beta = 0, the same checkpoint, seed and first batch), its arms stepped one after the other on one
torch thread, so each arm's CPU time per step is its own. Prints per seed and averaged over the seeds: the
critic's RMS error (V - the discounted return) at each response's first and last token over the run's
second half, by token position and by response length (beside GRPO's group baseline on the same
responses, with the slope of each error on the length), its mean value against the mean return, its parameters and training
memory beside the policy's, and the CPU seconds per step of PPO, of GRPO and of PPO's critic. ``--out``
writes the numbers as JSON. A few minutes on a loaded 2-core CPU for 3 seeds of 20 steps.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root holds rlviz

import argparse
import json
import math
import statistics
import time

import torch

from rlviz.experiments import critic as C


def measure(task: str, steps: int, seed: int, prompts: int, group_size: int) -> dict:
    config = C.CriticLiveConfig(steps=steps, task=task, prompts_per_step=prompts, group_size=group_size, seed=seed)
    run = C.make_live_run(config)
    t0 = time.perf_counter()
    while run.step_parallel(1) is not None:  # one arm after the other: each arm's CPU time is its own
        print(f"  seed {seed}: step {min(run.progress.values())}/{steps}  {time.perf_counter() - t0:.0f} s", flush=True)
    values = C.value_frame(run)
    late = C.late_steps(run)
    ends = C.ends_error(values, late)
    by_position = C.error_by_position(values, late)
    late_values = values[(values["step"] >= late[0]) & (values["step"] <= late[1])]
    cost = C.cost_frame(run).set_index("quantity")
    frame = C.live_frame(run)
    responses = C.response_errors(values)
    by_length = {
        name: C.error_by_length(responses, span).to_dict(orient="records")
        for name, span in (("fresh", (1, 1)), ("late", late))
    }
    trend = {col: C.length_trend(responses, col, late) for col in ("critic_first", "critic_tokens", "baseline")}
    return {
        "length_ends": C.length_ends(responses, late),
        "responses": responses.to_dict(orient="list"),
        "by_length": by_length,
        "trend": trend,
        "length_range": [int(responses["length"].min()), int(responses["length"].max())],
        "seed": seed,
        "late_steps": list(late),
        "rmse_first": ends["first"],
        "rmse_last": ends["last"],
        "value_mean": float(late_values["value"].mean()),
        # the error of the best constant guess (the returns' own spread): what a critic that learned only the
        # average reward would score
        "rmse_constant": float(((late_values["return_mc"] - late_values["return_mc"].mean()) ** 2).mean() ** 0.5),
        "return_mean": float(late_values["return_mc"].mean()),
        "rmse_by_position": {int(p): float(r) for p, r in zip(by_position["position"], by_position["rmse"])},
        "tokens_by_position": {int(p): int(n) for p, n in zip(by_position["position"], by_position["tokens"])},
        "critic_rmse_first_step": float(frame.loc[(frame["arm"] == "ppo") & (frame["step"] == 1), "critic_rmse"].iloc[0]),
        "critic_rmse_last_step": float(frame.loc[(frame["arm"] == "ppo") & (frame["step"] == steps), "critic_rmse"].iloc[0]),
        "reward_last": {a: float(frame.loc[(frame["arm"] == a) & (frame["step"] == steps), "reward_mean"].iloc[0]) for a in ("ppo", "grpo")},
        "parameters": {"policy": cost.loc["parameters", "policy"], "critic": cost.loc["parameters", "critic"]},
        "train_mb": {"policy": cost.loc["train_mb", "policy"], "critic": cost.loc["train_mb", "critic"]},
        "cpu_step": {"grpo": cost.loc["cpu_step", "policy"], "ppo": cost.loc["cpu_step", "critic"]},
        "cpu_ratio": cost.loc["cpu_step", "ratio"],
        "cpu_critic": cost.loc["cpu_critic", "critic"],
    }  # fmt: skip


def length_summary(runs: list[dict], group_size: int) -> None:
    """Print the by-length numbers pooled over the seeds (from each run's ``responses``, late steps): per bin
    of ``C.LENGTH_BIN`` tokens the responses, the pass rate p, 2p(1 - p) (the error of a guess that knows only
    p), the critic's error (token mean, first token) and the group baseline's; per seed the overall means,
    the baseline left out of its group's mean (x G / (G - 1)), the bins where the baseline errs less, and the
    slope of the critic's error minus the baseline's (``C.length_trend`` of ``excess``)."""
    import pandas as pd

    late = []
    print(
        "\n| seed | critic | group baseline | baseline, itself left out | bins where the baseline errs less | slope of critic − baseline |"
    )
    print("|---|---|---|---|---|---|")
    for r in runs:
        x = pd.DataFrame(r["responses"])
        x = x[(x["step"] >= r["late_steps"][0]) & (x["step"] <= r["late_steps"][1])]
        x = x.assign(excess=x["critic_tokens"] - x["baseline"])
        bins = C.error_by_length(x)
        trend = C.length_trend(x, "excess")
        print(
            f"| {r['seed']} | {x['critic_tokens'].mean():.3f} | {x['baseline'].mean():.3f} | "
            f"{x['baseline'].mean() * group_size / (group_size - 1):.3f} | "
            f"{int((bins['baseline'] < bins['critic_tokens']).sum())} of {len(bins)} | "
            f"{trend['slope']:+.4f} ± {trend['se']:.4f} ({trend['verdict']}) |"
        )
        late.append(x)
    pooled = pd.concat(late)
    bins = C.error_by_length(pooled)
    k = (pooled["length"].astype(int) - 1) // C.LENGTH_BIN
    p = pooled.groupby(k)["reward"].mean().to_numpy()
    print("\nPooled over the seeds (late steps)")
    print("| lengths | " + " | ".join(f"{lo}–{hi}" for lo, hi in zip(bins["lo"], bins["hi"])) + " |")
    print("|---|" + "---|" * len(bins))
    print("| responses | " + " | ".join(str(int(n)) for n in bins["responses"]) + " |")
    print("| pass rate | " + " | ".join(f"{v:.3f}" for v in p) + " |")
    print("| 2p(1 − p) | " + " | ".join(f"{2 * v * (1 - v):.3f}" for v in p) + " |")
    for col, word in (
        ("critic_tokens", "critic, token mean"),
        ("critic_first", "critic, first token"),
        ("baseline", "group baseline"),
    ):
        print(f"| {word} | " + " | ".join(f"{v:.3f}" for v in bins[col]) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="reversed_addition")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--prompts", type=int, default=8)
    parser.add_argument("--group-size", type=int, default=8)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--summary", type=Path, default=None, help="print the by-length summary of a saved --out")
    args = parser.parse_args()
    if args.summary is not None:
        saved = json.loads(args.summary.read_text())
        length_summary(saved["runs"], saved.get("group_size", args.group_size))
        return
    torch.set_num_threads(1)  # as the app's steps run (ServerLimits.torch_threads): the thread's CPU time is all of it
    runs = [measure(args.task, args.steps, s, args.prompts, args.group_size) for s in args.seeds]

    def mean(key: str, sub: str | None = None) -> float:
        xs = [r[key][sub] if sub else r[key] for r in runs]
        return statistics.fmean(xs) if all(math.isfinite(x) for x in xs) else math.nan

    print(f"\n{args.task}, {args.steps} steps of {args.prompts} prompts x G {args.group_size}, seeds {args.seeds}")
    print(
        "| seed | RMS first token | RMS last token | RMS constant | mean V | mean return | CPU s/step GRPO | PPO | ratio | critic |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        print(
            f"| {r['seed']} | {r['rmse_first']:.3f} | {r['rmse_last']:.3f} | {r['rmse_constant']:.3f} | {r['value_mean']:.3f} | "
            f"{r['return_mean']:.3f} | {r['cpu_step']['grpo']:.3f} | {r['cpu_step']['ppo']:.3f} | "
            f"{r['cpu_ratio']:.2f} | {r['cpu_critic']:.3f} |"
        )
    print(
        f"| mean | {mean('rmse_first'):.3f} | {mean('rmse_last'):.3f} | {mean('rmse_constant'):.3f} | {mean('value_mean'):.3f} | "
        f"{mean('return_mean'):.3f} | {mean('cpu_step', 'grpo'):.3f} | {mean('cpu_step', 'ppo'):.3f} | "
        f"{mean('cpu_ratio'):.2f} | {mean('cpu_critic'):.3f} |"
    )
    positions = sorted({p for r in runs for p in r["rmse_by_position"]})
    print("\n| position | " + " | ".join(f"seed {r['seed']}" for r in runs) + " | tokens (seed 0) |")
    print("|---|" + "---|" * (len(runs) + 1))
    for p in positions:
        cells = " | ".join(f"{r['rmse_by_position'][p]:.3f}" if p in r["rmse_by_position"] else "–" for r in runs)
        print(f"| {p} | {cells} | {runs[0]['tokens_by_position'].get(p, 0)} |")
    print("\nBy response length (mean |error| per response; fresh: step 1; trained: the late steps)")
    print(
        "| seed | lengths | responses | fresh critic, token mean | trained critic, first token | token mean | group baseline |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in runs:
        fresh = {(b["lo"], b["hi"]): b for b in r["by_length"]["fresh"]}
        for b in r["by_length"]["late"]:
            f = fresh.get((b["lo"], b["hi"]))
            print(
                f"| {r['seed']} | {b['lo']}–{b['hi']} | {b['responses']} | {f['critic_tokens']:.3f} | "
                if f
                else f"| {r['seed']} | {b['lo']}–{b['hi']} | {b['responses']} | – | ",
                end="",
            )
            print(f"{b['critic_first']:.3f} | {b['critic_tokens']:.3f} | {b['baseline']:.3f} |")
    print("\nSlope per token of length (late steps), ± its standard error, verdict")
    for r in runs:
        cells = "; ".join(
            f"{c} {v['slope']:+.4f} ± {v['se']:.4f} ({v['verdict']}, n {v['responses']})" for c, v in r["trend"].items()
        )
        print(f"seed {r['seed']} (lengths {r['length_range'][0]}–{r['length_range'][1]}): {cells}")
    print("\nShortest and longest quarter of the responses (late steps): mean |error| per response")
    print(
        "| seed | short: lengths | n | critic, token mean | first token | group baseline | long: lengths | n | critic, token mean | first token | group baseline |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        e = r["length_ends"]
        print(
            f"| {r['seed']} | ≤ {e['q1']:.0f} | {e['short']} | {e['critic_tokens_short']:.3f} | {e['critic_first_short']:.3f} | "
            f"{e['baseline_short']:.3f} | ≥ {e['q3']:.0f} | {e['long']} | {e['critic_tokens_long']:.3f} | "
            f"{e['critic_first_long']:.3f} | {e['baseline_long']:.3f} |"
        )
    r0 = runs[0]
    print(
        f"\nparameters: policy {r0['parameters']['policy']:,.0f}, critic {r0['parameters']['critic']:,.0f}; "
        f"training MB: policy {r0['train_mb']['policy']:.2f}, critic {r0['train_mb']['critic']:.2f}"
    )
    length_summary(runs, args.group_size)
    if args.out is not None:
        saved = {"task": args.task, "steps": args.steps, "group_size": args.group_size, "runs": runs}
        args.out.write_text(json.dumps(saved, indent=1))


if __name__ == "__main__":
    main()
