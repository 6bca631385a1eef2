"""rlviz's RL step against its bare floor and against TRL's ``GRPOTrainer``, side by side (issue 13).

.venv/bin/python benchmarks/step_floor.py [--steps 10] [--mu 1,4] [--trl-python .venv-bench/bin/python]
(or: make bench, which sets up .venv-bench with TRL for the peer)

The same shipped tiny Llama (0.86M parameters, fp32, CPU, one torch thread), the same task and
batch shape (16 prompts x 8 responses, up to 16 new tokens, GRPO's clipped loss, one mini-batch,
lr 1e-4), trained by three contenders that take turns, one RL step each per round, the order
rotated every round:

- ``rlviz``: :class:`rlviz.lm.trainer.Trainer` as the CLI and the app run it, except that it skips
  the reference at beta = 0 (``measure_kl_ref=False``, as TRL and verl do); ``rlviz (app)`` is the
  app's default, which also measures KL to the reference at beta = 0 (one no-grad forward).
- ``floor``: the least any trainer must do: rlviz's own KV-cache sampler without scoring (the
  responses, decoded, and their rewards), group advantages, then mu forward/backward passes and
  AdamW steps over the batch (the first pass's log-probs, detached, are the old policy's; with
  beta > 0 one no-grad forward of the reference too). No metrics, no token view.
- ``TRL``: ``benchmarks/trl_peer.py`` in a python that has TRL (a worker process driven step by
  step; set up fairly for CPU: fp32, no gradient checkpointing, no vLLM, one thread).

Each figure is the median over the measured rounds of the CPU seconds of the stepping thread
(``time.thread_time``; the machine is shared, and CPU time is what a busy neighbour disturbs
least), and each ratio the median of the per-round ratios (measured side by side in one round).
rlviz's step is also split into its phases (``Trainer.phase_seconds``).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the repository root holds rlviz


def _floor_contender(model, tokenizer, ref, cfg: dict):
    """A step of the bare floor (see the module docstring); returns the stepping thread's CPU s."""
    import torch

    from rlviz.core.advantages import group_advantages
    from rlviz.lm.rollout import response_log_probs, sample_rollouts
    from rlviz.lm.task import sample_problems

    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=0.0)
    gen = torch.Generator().manual_seed(cfg["seed"])
    n, G, eps, beta = cfg["prompts"], cfg["group_size"], 0.2, cfg["beta"]

    def step() -> float:
        t0 = time.thread_time()
        batch = sample_rollouts(
            model, tokenizer, sample_problems(n, gen), G, cfg["max_new_tokens"], 1.0, gen, score=False
        )
        adv = group_advantages(batch.rewards.view(-1, G)).reshape(-1, 1)  # (B, 1)
        args = (batch.input_ids, batch.attention_mask, batch.position_ids, batch.prompt_width, 1.0)
        mask = batch.response_mask
        ref_lp = None
        if beta > 0:
            with torch.no_grad():
                ref_lp, _ = response_log_probs(ref, *args)
        model.train()
        old = None
        for _ in range(cfg["mu"]):
            lp, _ = response_log_probs(model, *args)
            old = lp.detach() if old is None else old
            ratio = torch.exp(lp - old)
            per_token = -torch.minimum(ratio * adv, ratio.clamp(1 - eps, 1 + eps) * adv)
            if ref_lp is not None:  # k3, as GRPO's loss
                per_token = per_token + beta * (torch.exp(ref_lp - lp) - (ref_lp - lp) - 1)
            loss = (per_token * mask).sum() / mask.sum()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
        model.eval()
        return time.thread_time() - t0

    return step


def _rlviz_contender(model, tokenizer, ref, cfg: dict, measure_kl_ref: bool):
    from rlviz.lm.trainer import TrainConfig, Trainer

    config = TrainConfig(
        algorithm="grpo",
        prompts_per_step=cfg["prompts"],
        group_size=cfg["group_size"],
        max_new_tokens=cfg["max_new_tokens"],
        mu=cfg["mu"],
        mini_batches=1,
        lr=cfg["lr"],
        seed=cfg["seed"],
        settings={"beta": cfg["beta"]},
        measure_kl_ref=measure_kl_ref,
    )
    trainer = Trainer(config, model, tokenizer, ref)

    def step() -> float:
        t0 = time.thread_time()
        trainer.step()
        return time.thread_time() - t0

    step.trainer = trainer
    return step


class _TRLWorker:
    """``benchmarks/trl_peer.py`` in another python, one RL step per ``step()`` call."""

    def __init__(self, python: str, cfg: dict):
        keys = ("prompts", "group_size", "max_new_tokens", "mu", "lr", "seed", "beta")
        env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        self.proc = subprocess.Popen(
            [
                python,
                str(ROOT / "benchmarks" / "trl_peer.py"),
                json.dumps({k: cfg[k] for k in keys} | {"temperature": 1.0}),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        hello = self._read()
        self.version = hello.get("trl", "?")

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the TRL worker exited (run benchmarks/trl_peer.py by hand to see why)")
        return json.loads(line)

    def __call__(self) -> float:
        self.proc.stdin.write("step\n")
        self.proc.stdin.flush()
        return self._read()["cpu_s"]

    def close(self) -> None:
        try:
            self.proc.stdin.write("stop\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=30)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.proc.kill()


def _default_trl_python() -> str | None:
    candidate = ROOT / ".venv-bench" / "bin" / "python"  # make bench's venv with TRL
    return str(candidate) if candidate.exists() else None


def measure(cfg: dict, steps: int, warmup: int, trl_python: str | None) -> dict:
    """One setting: every contender's per-round CPU seconds and rlviz's phases."""

    from rlviz.lm.model import load_policy

    model, tokenizer = load_policy(None, device="cpu")
    ref = copy.deepcopy(model).eval().requires_grad_(False)
    contenders = {
        "rlviz": _rlviz_contender(copy.deepcopy(model), tokenizer, ref, cfg, measure_kl_ref=False),
        "floor": _floor_contender(copy.deepcopy(model), tokenizer, ref, cfg),
    }
    if cfg["beta"] == 0:
        contenders["rlviz (app)"] = _rlviz_contender(copy.deepcopy(model), tokenizer, ref, cfg, measure_kl_ref=True)
    trl = None
    if trl_python:
        try:
            trl = contenders["TRL"] = _TRLWorker(trl_python, cfg)
        except (OSError, RuntimeError) as exc:
            print(f"  TRL peer not measured: {exc}")
    times: dict[str, list[float]] = {name: [] for name in contenders}
    names = list(contenders)
    for r in range(warmup + steps):
        order = names[r % len(names) :] + names[: r % len(names)]  # rotate who goes first
        for name in order:
            t = contenders[name]()
            if r >= warmup:
                times[name].append(t)
    if trl is not None:
        trl.close()
    phases = contenders["rlviz"].trainer.phase_seconds[warmup:]
    return {
        "times": times,
        "phases": {k: statistics.median(p[k] for p in phases) for k in phases[0]},
        "trl_version": None if trl is None else trl.version,
    }


def main() -> None:
    import torch

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=10, help="measured rounds per setting")
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--mu", default="1,4", help="comma-separated mu values")
    p.add_argument("--beta", default="0,0.04", help="comma-separated beta values (> 0: with the reference)")
    p.add_argument("--prompts", type=int, default=16)
    p.add_argument("--group-size", type=int, default=8)
    p.add_argument("--max-new-tokens", type=int, default=16)
    p.add_argument("--trl-python", default=_default_trl_python(), help="a python with TRL ('' skips the peer)")
    args = p.parse_args()
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, 1 thread, CPU; {args.prompts} prompts x G {args.group_size}, ", end="")
    print(f"{args.max_new_tokens} new tokens; medians of {args.steps} rounds (CPU s of the stepping thread)")
    if not args.trl_python:
        print("TRL peer: no python with TRL (make bench sets up .venv-bench); measuring rlviz against its floor only")
    for mu in (int(x) for x in args.mu.split(",")):
        for beta in (float(x) for x in args.beta.split(",")):
            cfg = {
                "prompts": args.prompts,
                "group_size": args.group_size,
                "max_new_tokens": args.max_new_tokens,
                "mu": mu,
                "lr": 1e-4,
                "seed": 0,
                "beta": beta,
            }
            out = measure(cfg, args.steps, args.warmup, args.trl_python or None)
            times = out["times"]
            print(f"\nmu {mu}, beta {beta:g}" + (f" (TRL {out['trl_version']})" if out["trl_version"] else ""))
            print(f"  {'contender':<13}{'s/step':>8}{'x floor':>9}")
            for name, ts in times.items():
                ratio = statistics.median(t / f for t, f in zip(ts, times["floor"]))
                print(f"  {name:<13}{statistics.median(ts):>8.3f}{ratio:>9.2f}")
            if "TRL" in times:
                vs = statistics.median(t / f for t, f in zip(times["rlviz"], times["TRL"]))
                print(f"  rlviz / TRL: {vs:.2f}")
            print("  rlviz phases: " + ", ".join(f"{k} {v:.3f}" for k, v in out["phases"].items()))


if __name__ == "__main__":
    main()
