"""A peer for the step benchmark: TRL's own ``GRPOTrainer`` training the shipped tiny LM, one RL step per command.

What it measures: the cost of one GRPO step as TRL runs it, on the same model (the shipped 0.86M Llama from
``rlviz.lm.model.load_policy``), task (``rlviz.lm.task``: prompts from ``sample_problems``, reward from ``reward``)
and batch (prompts x G completions, the same response length) as rlviz's trainer. One RL step = one generation of
prompts x G completions, their rewards and advantages, and ``mu`` optimizer steps on that batch (TRL's
``num_iterations``). Its time runs from the end of the previous step's report (for the first step: the end of
TRL's training set-up, when ``on_train_begin`` returns) to the end of the step's last optimizer step, so it covers
TRL's generation, scoring, loss, backward, clipping and AdamW, and whatever the ``Trainer`` loop does in between.

Written against TRL 1.16.0 (transformers 5.24, accelerate 1.16, torch 2.13 CPU). It needs a python with TRL; rlviz
is imported from this repository (``rlviz.lm`` imports only torch, transformers and numpy)::

    /path/to/python-with-trl benchmarks/trl_peer.py '{"prompts": 16, "group_size": 8, "max_new_tokens": 16,
        "mu": 1, "lr": 1e-4, "temperature": 1.0, "seed": 0, "beta": 0.0}'

Protocol: line-based JSON on stdout, commands on stdin; everything else (TRL's and transformers' logs and
warnings, anything printed) goes to stderr, so stdout carries the protocol lines only.

- after building the model, dataset and trainer, and TRL's training set-up (optimizer, scheduler, dataloader), it
  prints ``{"ready": true, "trl": "<version>", "params": N, "torch_threads": 1}``;
- then, per line read from stdin: ``step`` runs ONE RL step and prints
  ``{"cpu_s": ..., "process_cpu_s": ..., "wall_s": ..., "reward_mean": ..., "step": k}`` where ``cpu_s`` is the
  main thread's CPU time (``time.thread_time``), ``process_cpu_s`` the whole process's (``time.process_time``),
  ``wall_s`` from ``time.perf_counter``, and ``reward_mean`` the mean reward of the step's prompts x G completions
  (as sampled, before the update); ``stop`` (or end of input) exits with status 0. Any other line exits with 2.

How the step is driven: ``trainer.train()`` is TRL's blocking loop; a ``TrainerCallback`` blocks in
``on_train_begin`` for the first command and in ``on_step_end`` after every ``mu``-th optimizer step (the end of
an RL step: TRL regenerates every ``steps_per_generation * num_iterations`` = ``mu`` optimizer steps), where it
reports the step and reads the next command. ``max_steps`` is ``10000 * mu``, more RL steps than anyone asks for.

Set up fairly for a CPU, as a user would, nothing that handicaps TRL:

- one torch thread (``torch.set_num_threads(1)`` before anything is built), CPU (``use_cpu=True``), fp32
  (``bf16=False``, ``fp16=False``: TRL defaults ``bf16`` to True), no gradient checkpointing (TRL defaults it to
  True), no vLLM, no continuous batching, no logging, reporting, saving or evaluation, no progress bar,
  ``dataloader_num_workers=0``;
- batch: ``per_device_train_batch_size = generation_batch_size = prompts * G``, ``gradient_accumulation_steps=1``,
  hence ``steps_per_generation=1``: one optimizer step per pass over the whole batch, no mini-batching;
  ``num_iterations=mu``. At ``mu=1`` TRL skips the old-log-prob forward (it uses the detached current log-probs);
  at ``mu>1`` it runs one no-grad forward for them after generation;
- objective: ``num_generations=G``, ``loss_type="dapo"`` (TRL's default: the token losses averaged over all the
  batch's completion tokens), ``scale_rewards="group"`` (TRL's default: advantages divided by the group's std),
  ``epsilon=0.2``, ``beta`` as given (0.0: TRL loads no reference model), ``mask_truncated_completions=False``
  (default);
- sampling: ``temperature`` as given, ``top_p=1.0``, ``top_k=0`` (no top-k), ``min_p=None``,
  ``repetition_penalty=1.0``, ``max_completion_length=max_new_tokens``; TRL's plain ``model.generate`` path with
  the KV cache; prompts are plain text (the tokenizer has no chat template) tokenized with BOS as rlviz does;
- optimizer: TRL/transformers' default AdamW (``optim="adamw_torch_fused"``, which has a CPU kernel),
  ``weight_decay=0.0`` as rlviz's, betas (0.9, 0.999), eps 1e-8, ``learning_rate=lr``,
  ``lr_scheduler_type="constant"``, no warmup, ``max_grad_norm=1.0``;
- data: ``prompts * 500`` problems (500 RL steps before they repeat) drawn with
  ``sample_problems(n, torch.Generator().manual_seed(seed))``, in order (``shuffle_dataset=False``), each prompt
  repeated G times by TRL's sampler; the reward function gets the ``answer`` and ``level`` columns and TRL's
  ``completion_ids``; a completion is "finished" iff its last id is EOS (TRL cuts completions after the first EOS
  and keeps it), as ``rlviz.lm.task.reward`` expects.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the repository root holds rlviz

DEFAULTS = {
    "prompts": 16,
    "group_size": 8,
    "max_new_tokens": 16,
    "mu": 1,
    "lr": 1e-4,
    "temperature": 1.0,
    "seed": 0,
    "beta": 0.0,
}
PROBLEMS_PER_PROMPT_SLOT = 500  # dataset rows = prompts * this: RL steps before TRL's sampler starts a new epoch


def _protocol_stream():
    """A private line-buffered handle on the real stdout; fd 1 and ``sys.stdout`` then point at stderr, so that
    nothing TRL, transformers or torch prints (even from C) can interleave with the protocol lines."""
    sys.stdout.flush()
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return proto


def main() -> None:
    proto = _protocol_stream()
    cfg = dict(DEFAULTS)
    if len(sys.argv) > 1:
        given = json.loads(sys.argv[1])
        unknown = sorted(set(given) - set(DEFAULTS))
        if unknown:
            raise SystemExit(f"trl_peer: unknown settings {unknown}; known: {sorted(DEFAULTS)}")
        cfg.update(given)
    prompts, group, mu = int(cfg["prompts"]), int(cfg["group_size"]), int(cfg["mu"])

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import torch

    torch.set_num_threads(1)

    import datasets
    import transformers
    import trl
    from transformers import TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    sys.path.insert(0, str(ROOT))
    from rlviz.lm.model import load_policy
    from rlviz.lm.task import Problem, reward, sample_problems

    transformers.utils.logging.set_verbosity_warning()
    datasets.disable_progress_bars()

    model, tokenizer = load_policy(None, device="cpu")
    eos_id = tokenizer.eos_token_id
    problems = sample_problems(prompts * PROBLEMS_PER_PROMPT_SLOT, torch.Generator().manual_seed(int(cfg["seed"])))
    train = datasets.Dataset.from_dict(
        {
            "prompt": [p.prompt for p in problems],
            "answer": [p.answer for p in problems],
            "level": [p.level for p in problems],
        }
    )

    last_rewards: list[float] = []

    def task_reward(prompts, completions, completion_ids, answer, level, **_):
        """rlviz's verifier on TRL's decoded completions (special tokens skipped); finished = ended with EOS."""
        out = [
            reward(Problem(prompt=p, answer=a, level=lv), text, bool(ids) and ids[-1] == eos_id)
            for p, text, ids, a, lv in zip(prompts, completions, completion_ids, answer, level, strict=True)
        ]
        last_rewards[:] = out
        return out

    out_dir = tempfile.mkdtemp(prefix="trl_peer_")  # TrainingArguments wants one; nothing is written there

    def leave(code: int) -> None:
        """Exit at once from inside TRL's loop (no trainer teardown): protocol flushed, the empty output dir gone."""
        proto.flush()
        shutil.rmtree(out_dir, ignore_errors=True)
        os._exit(code)

    args = GRPOConfig(
        output_dir=out_dir,
        use_cpu=True,
        seed=int(cfg["seed"]),
        bf16=False,
        fp16=False,
        gradient_checkpointing=False,  # TRL's default is True; transformers 5 renamed it (below)
        **(
            {"activation_checkpointing": False} if "activation_checkpointing" in GRPOConfig.__dataclass_fields__ else {}
        ),
        use_vllm=False,
        # batch: one generation of prompts x G, one optimizer step per pass over all of it, mu passes
        per_device_train_batch_size=prompts * group,
        gradient_accumulation_steps=1,
        generation_batch_size=prompts * group,
        num_generations=group,
        num_iterations=mu,
        max_steps=10000 * mu,
        shuffle_dataset=False,
        # sampling
        max_completion_length=int(cfg["max_new_tokens"]),
        temperature=float(cfg["temperature"]),
        top_p=1.0,
        top_k=0,
        min_p=None,
        repetition_penalty=1.0,
        # objective
        loss_type="dapo",
        scale_rewards="group",
        epsilon=0.2,
        beta=float(cfg["beta"]),
        # optimizer
        learning_rate=float(cfg["lr"]),
        weight_decay=0.0,
        lr_scheduler_type="constant",
        warmup_steps=0,
        max_grad_norm=1.0,
        # no logging, reporting, saving, evaluation, progress bars or worker processes
        logging_strategy="no",
        save_strategy="no",
        eval_strategy="no",
        report_to="none",
        disable_tqdm=True,
        log_completions=False,
        dataloader_num_workers=0,
        dataloader_pin_memory=False,
    )

    class StepGate(TrainerCallback):
        """Blocks TRL's loop between RL steps: reports the step that just ended, then waits for a command."""

        def __init__(self) -> None:
            self.t_wall = self.t_thread = self.t_proc = 0.0
            self.steps = 0

        def _command(self) -> None:
            line = sys.stdin.readline()
            cmd = line.strip()
            if cmd == "step":
                self.t_wall, self.t_thread, self.t_proc = time.perf_counter(), time.thread_time(), time.process_time()
                return
            if cmd == "stop" or line == "":
                leave(0)
            print(f"trl_peer: unknown command {cmd!r} (expected 'step' or 'stop')", file=sys.stderr, flush=True)
            leave(2)

        def on_train_begin(self, args, state, control, **kwargs):
            opt = kwargs.get("optimizer")
            setup = {
                "optimizer": type(getattr(opt, "optimizer", opt)).__name__,
                "fused": getattr(opt, "defaults", {}).get("fused"),
                "weight_decay": sorted({g["weight_decay"] for g in opt.param_groups}),
                "dtype": str(next(model.parameters()).dtype),
                "device": str(next(model.parameters()).device),
                "activation_checkpointing": bool(
                    model.is_activation_checkpointing
                    if hasattr(type(model), "is_activation_checkpointing")
                    else model.is_gradient_checkpointing
                ),
                "steps_per_generation": args.steps_per_generation,
                "generation_batch_size": args.generation_batch_size,
                "reference_model": trainer.ref_model is not None,
            }
            print(f"trl_peer: set-up {json.dumps(setup, default=str)}", file=sys.stderr, flush=True)
            params = sum(p.numel() for p in model.parameters())
            ready = {"ready": True, "trl": trl.__version__, "params": params, "torch_threads": torch.get_num_threads()}
            proto.write(json.dumps(ready) + "\n")
            self._command()

        def on_step_end(self, args, state, control, **kwargs):
            if state.global_step % mu:
                return  # inside an RL step: more optimizer passes over the same generation follow
            wall, thread, proc = time.perf_counter(), time.thread_time(), time.process_time()
            self.steps += 1
            report = {
                "cpu_s": thread - self.t_thread,
                "process_cpu_s": proc - self.t_proc,
                "wall_s": wall - self.t_wall,
                "reward_mean": sum(last_rewards) / len(last_rewards) if last_rewards else float("nan"),
                "step": self.steps,
            }
            proto.write(json.dumps(report) + "\n")
            self._command()

    trainer = GRPOTrainer(
        model=model,
        reward_funcs=task_reward,
        args=args,
        train_dataset=train,
        processing_class=tokenizer,
        callbacks=[StepGate()],
    )
    trainer.train()
    leave(0)  # max_steps reached: nothing more to report


if __name__ == "__main__":
    main()
