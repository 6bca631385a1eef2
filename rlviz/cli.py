"""Command line: ``rlviz`` (installed) or ``python -m rlviz`` (the same), with three commands.

- ``rlviz app [--port 8501] [--address 127.0.0.1] [--model-dir DIR] [--device auto]``: serve the app
  (:mod:`rlviz.launch`).
- ``rlviz compare --algorithms grpo,dapo,gspo,sapo --steps 30 --out run.json``: train side by side,
  headless. On the shipped mixture-of-experts model, with routing replay for one arm:
  ``rlviz compare --model moe --algorithms grpo,gspo --set grpo.routing_replay=R2``.
- ``rlviz balancer --port 8501 --replica-ports 8502 8503``: print an HAProxy configuration for replicas
  (:mod:`rlviz.balancer`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

__all__ = ["main", "parse_setting"]


def parse_setting(text: str) -> tuple[str, str, object]:
    """Parse ``ALGO.NAME=VALUE`` (e.g. ``dapo.epsilon_high=0.3``, ``ppo.dual_clip_c=none``,
    ``dapo.dynamic_sampling=false``). ``none`` is None; true/yes/on and false/no/off are booleans;
    numbers are numbers; anything else is a string (a named choice). Types are checked by the run.

    Raises:
        ValueError: not of the form ``ALGO.NAME=VALUE``.
    """
    key, sep, raw = text.partition("=")
    algo, dot, name = key.partition(".")
    if not (sep and dot and algo and name):
        raise ValueError(f"--set: expected ALGO.NAME=VALUE, got {text!r}")
    low = raw.strip().lower()
    if low in ("none", "null"):
        return algo, name, None
    if low in ("true", "yes", "on"):
        return algo, name, True
    if low in ("false", "no", "off"):
        return algo, name, False
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        try:
            value = float(raw)  # nan, inf, 1e-3 ... (rejected later where out of range)
        except ValueError:
            value = raw  # a named choice such as token-mean
    return algo, name, value


def _parser() -> argparse.ArgumentParser:
    from rlviz import launch
    from rlviz.experiments.live import DEFAULT_ALGORITHMS, LiveConfig
    from rlviz.lm.tasks import DEFAULT_TASK, TASKS

    d = LiveConfig()
    p = argparse.ArgumentParser(prog="rlviz", description="rlviz from the command line (python -m rlviz is the same)")
    sub = p.add_subparsers(dest="command", required=True)
    # `app` and `balancer` are handed to their modules before this parser is built (main); listed here for --help
    launch.add_arguments(sub.add_parser("app", help="serve the app (Streamlit): rlviz app --help"))
    sub.add_parser("balancer", help="print an HAProxy configuration for app replicas: rlviz balancer --help")
    c = sub.add_parser("compare", help="train the tiny LM with several algorithms side by side, headless")
    c.add_argument("--algorithms", default=",".join(DEFAULT_ALGORITHMS), help="comma-separated registry names")
    c.add_argument("--steps", type=int, default=d.steps)
    c.add_argument("--seed", type=int, default=d.seed)
    c.add_argument("--out", type=Path, default=None, help="write every per-step metric to this JSON file")
    c.add_argument("--csv", type=Path, default=None, help="also write the per-step metrics as CSV")
    c.add_argument("--device", default=None, help="auto (default), cpu, cuda, cuda:1, mps")
    c.add_argument(
        "--model",
        choices=("dense", "moe"),
        default=None,
        help="a shipped model: dense (the tiny Llama, default) or moe (the tiny Qwen3-MoE, 8 experts, top-2)",
    )
    c.add_argument(
        "--model-dir", default=None, help="a local Hugging Face model directory (default: the shipped tiny LM)"
    )
    c.add_argument("--group-size", type=int, default=d.group_size, help="G, responses per prompt")
    c.add_argument("--prompts-per-step", type=int, default=d.prompts_per_step)
    c.add_argument("--lr", type=float, default=d.lr)
    c.add_argument("--mu", type=int, default=d.mu, help="passes over each rollout batch")
    c.add_argument("--mini-batches", type=int, default=d.mini_batches)
    c.add_argument("--temperature", type=float, default=d.temperature)
    c.add_argument("--task", choices=tuple(TASKS), default=DEFAULT_TASK, help="the task (default: %(default)s)")
    c.add_argument("--max-new-tokens", type=int, default=None, help="response length limit (default: the task's)")
    c.add_argument("--overlong-buffer", type=int, default=None, help="DAPO L_cache in tokens (default: the task's)")
    c.add_argument(
        "--overlong-penalty-factor",
        type=float,
        default=d.overlong_penalty_factor,
        help="DAPO penalty at the length limit (verl reward.reward_kwargs.overlong_buffer_cfg.penalty_factor)",
    )
    c.add_argument("--kl-in-reward", action="store_true", help="beta x KL in the reward instead of the loss")
    c.add_argument("--entropy-coef", type=float, default=d.entropy_coef, help="entropy bonus (verl entropy_coeff)")
    c.add_argument(
        "--entropy-target",
        type=float,
        default=d.entropy_target,
        help="adaptive entropy control (Skywork-OR1, arXiv 2505.22312): target entropy in nats/token; "
        "the coefficient starts at --entropy-coef and moves by --entropy-coef-delta each step (default: off)",
    )
    c.add_argument(
        "--entropy-coef-delta",
        type=float,
        default=d.entropy_coef_delta,
        help="adaptive entropy control: the coefficient's step (Skywork-OR1 delta_ent_coef)",
    )
    c.add_argument(
        "--entropy-coef-min", type=float, default=d.entropy_coef_min, help="adaptive entropy control: lower bound"
    )
    c.add_argument(
        "--entropy-coef-max",
        type=float,
        default=d.entropy_coef_max,
        help="adaptive entropy control: upper bound (Skywork-OR1 max_ent_coef)",
    )
    c.add_argument(
        "--heldout-samples", type=int, default=d.heldout_samples, help="samples per held-out prompt (0: skip)"
    )
    c.add_argument(
        "--workers",
        type=int,
        default=None,
        help="arms stepped at once, each in a thread with torch threads = cores / workers "
        "(default: the number of arms, at most the number of cores; 1: one after another)",
    )
    c.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="ALGO.NAME=VALUE",
        help="an objective setting, e.g. dapo.epsilon_high=0.3 (repeatable)",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the CLI (the ``rlviz`` command); returns the exit code (2 on a bad setting, with the message
    on stderr; 130 when interrupted). ``app`` goes to :func:`rlviz.launch.main` and ``balancer`` to
    :func:`rlviz.balancer.main` before anything heavy is imported. ``compare`` steps ``--workers`` arms
    at once (``SideBySideRun.step_parallel``), with torch's threads set to the cores divided among them
    for the run and put back after.

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["app"]:
        from rlviz import launch

        return launch.main(argv[1:])
    if argv[:1] == ["balancer"]:
        from rlviz import balancer

        return balancer.main(argv[1:], prog="rlviz balancer")
    args = _parser().parse_args(argv)

    import torch

    from rlviz.experiments.live import LiveConfig, LiveRun
    from rlviz.lm.tasks import DEFAULT_TASK, get_task
    from rlviz.serving import STEPS

    try:
        if args.model and args.model_dir:
            raise ValueError("--model: give either --model or --model-dir, not both")
        if args.model and args.task != DEFAULT_TASK:
            raise ValueError(f"--model: the shipped models are {DEFAULT_TASK}'s; --task {args.task} has its own")
        if args.model:
            from rlviz.experiments.moe import MODELS

            args.model_dir = MODELS[args.model]
        task = get_task(args.task)  # its length limit and L_cache unless given
        limit, buffer = args.max_new_tokens, args.overlong_buffer
        settings: dict[str, dict] = {}
        for text in args.set:
            algo, name, value = parse_setting(text)
            settings.setdefault(algo, {})[name] = value
        config = LiveConfig(
            algorithms=tuple(a.strip() for a in args.algorithms.split(",") if a.strip()),
            steps=args.steps,
            prompts_per_step=args.prompts_per_step,
            group_size=args.group_size,
            temperature=args.temperature,
            lr=args.lr,
            mu=args.mu,
            mini_batches=args.mini_batches,
            task=args.task,
            max_new_tokens=task.max_new_tokens if limit is None else limit,
            overlong_buffer_length=task.overlong_buffer_length if buffer is None else buffer,
            overlong_penalty_factor=args.overlong_penalty_factor,
            seed=args.seed,
            device=args.device,
            model_dir=args.model_dir,
            settings=settings,
            heldout_samples=args.heldout_samples,
            kl_in_reward=args.kl_in_reward,
            entropy_coef=args.entropy_coef,
            entropy_target=args.entropy_target,
            entropy_coef_delta=args.entropy_coef_delta,
            entropy_coef_min=args.entropy_coef_min,
            entropy_coef_max=args.entropy_coef_max,
        )
        cores = os.cpu_count() or 1
        workers = min(len(config.algorithms), cores) if args.workers is None else args.workers
        if isinstance(workers, bool) or workers < 1:
            raise ValueError(f"--workers: must be a whole number >= 1, got {args.workers!r}")
        run = LiveRun(config)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    threads, capacity = torch.get_num_threads(), STEPS.capacity
    torch.set_num_threads(max(1, cores // workers))  # workers x threads = the cores, not more
    STEPS.resize(max(capacity, workers))  # the queue of a shared server's steps; here one run
    try:
        return _compare(args, config, run, workers)
    finally:  # as they were (a caller in the same process, such as a test)
        torch.set_num_threads(threads)
        STEPS.resize(capacity)


def _compare(args, config, run, workers: int) -> int:
    import pandas as pd
    from tqdm import tqdm

    from rlviz.core.objectives import get_algorithm

    interrupted = False
    with tqdm(total=config.steps * len(config.algorithms), unit="step", file=sys.stderr) as bar:

        def on_step(name: str, m: dict) -> None:  # in the thread that made the step
            bar.set_postfix_str(f"{name} step {m['step']}: pass@1 {m['pass_at_1']:.2f}")
            bar.update(1)

        try:
            while run.step_parallel(workers, on_step=on_step) is not None:  # a round at a time
                pass
        except KeyboardInterrupt:
            interrupted = True
            print("\ninterrupted: writing what has been measured so far", file=sys.stderr)
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.precision", 3):
        summary = run.summary_frame()
        summary["arm"] = [get_algorithm(name).title for name in summary.pop("algorithm")]
        print(summary.to_string(index=False, na_rep="—"))  # a figure that does not apply, as on the pages
    if args.out:
        args.out.write_text(run.to_json())
        print(f"wrote {args.out}")
    if args.csv:
        run.metrics_frame().to_csv(args.csv, index=False)
        print(f"wrote {args.csv}")
    return 130 if interrupted else 0
