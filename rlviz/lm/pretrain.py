"""Build the shipped tiny LM: tokenizer + Llama from a seed, warm-started by a short supervised run.

    python -m rlviz.lm.pretrain [--task NAME] [--moe] [--seed 0] [--out DIR] [--steps N]

``--task`` picks the task from the registry (``rlviz.lm.tasks.TASKS``; default ``reversed_addition``):
its prompts, its warm-start targets (``TaskSpec.sft_problems`` / ``sft_target``), its alphabet, its
length limit, its number of steps and its checkpoint directory (``assets/tinylm`` for reversed
addition, ``assets/make_sum`` for ``make_sum``).

``--moe`` builds the mixture-of-experts model instead (``rlviz.lm.moe``: Qwen3-MoE, 8 experts, top-2)
into ``assets/tinymoe``, with the router's auxiliary load-balancing loss (Switch Transformer, arXiv
2101.03961; ``router_aux_loss_coef`` x :func:`per_layer_balance_loss`) added to the supervised loss
so that every expert of every layer stays in use.

The supervised targets are deliberately imperfect so that RL has something to improve. For reversed
addition (``rlviz.lm.task``, where ``PRETRAIN_LEVELS``, ``NOISE``, ``FILLER_NONE``, ``FILLER_MAX`` and
``LONG_SHARE`` are defined):
- level 1 (1+1 digits) targets are clean, so those prompts end up almost always right;
- levels 2-4 targets have one answer digit changed with probability ``NOISE`` (the model learns to be
  right only some of the time: groups are mixed, and GRPO can sharpen them);
- level 4 (3+3 digits) is rarely seen, so those prompts stay almost always wrong;
- a random number of filler characters ``.`` precedes the answer (lengths vary), and a small share
  ``LONG_SHARE`` of level 2-4 targets have filler running past the response limit (so some samples truncate,
  which DAPO's overlong shaping acts on).
For ``make_sum`` (``rlviz.lm.make_sum``): random right answers, each term slipping with a small chance.

Deterministic given the seed on the same machine: a fixed number of steps, one generator for the data,
one CPU thread (so the core count does not change the float reduction order).
Writes model (safetensors), tokenizer, generation config and ``rlviz_card.json`` (measured figures).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from transformers import GenerationConfig

from .model import build_model
from .moe import MOE_MODEL_DIR, build_moe_model, capture_routing, expert_load, routers
from .rollout import evaluate_pass_at_1
from .task import FILLER_MAX, FILLER_NONE, LONG_SHARE, NOISE, PRETRAIN_LEVELS, Problem  # noqa: F401 (re-exported)
from .task import sft_target as _target  # noqa: F401 (its name here before the task registry)
from .tasks import DEFAULT_TASK, TaskSpec, get_task
from .tokenizer import build_tokenizer

STEPS, BATCH, LR, WARMUP = 3000, 64, 1.5e-3, 50  # AdamW, cosine decay to LR/10 (STEPS: reversed addition's)


def per_layer_balance_loss(model, router_logits, attention_mask) -> torch.Tensor:
    """The Switch load-balancing loss (arXiv 2101.03961, eq. 4) of each MoE layer, averaged over layers.

    ``transformers``' ``load_balancing_loss_func`` pools the routes of all layers before balancing,
    which lets one layer starve an expert that another layer overuses; here it is applied to one
    layer at a time. ``router_logits``: per layer (B * L, E); ``attention_mask``: (B, L).
    Equals top_k (2) when every layer is perfectly balanced.
    """
    from transformers.models.qwen3_moe.modeling_qwen3_moe import load_balancing_loss_func

    cfg = model.config
    losses = [
        load_balancing_loss_func((logits,), cfg.num_experts, cfg.num_experts_per_tok, attention_mask)
        for logits in router_logits
    ]
    return torch.stack(losses).mean()


def make_batch(tokenizer, n: int, g: torch.Generator, task: TaskSpec | None = None):
    """(input_ids, attention_mask, labels), each (n, L), right-padded; labels -100 off the response.

    ``task``: whose warm-start data (``sft_problems``, then ``sft_target`` for each, drawn from ``g``
    in that order); ``None`` for the default task (reversed addition)."""
    task = get_task(DEFAULT_TASK) if task is None else task
    problems = task.sft_problems(n, g)
    rows, labels = [], []
    for p in problems:
        prompt = tokenizer(p.prompt)["input_ids"]  # [BOS, ...prompt]
        resp = tokenizer(task.sft_target(p, g), add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
        resp = resp[: task.max_new_tokens]  # nothing past the response limit is ever sampled
        rows.append(prompt + resp)
        labels.append([-100] * len(prompt) + resp)
    L = max(map(len, rows))
    pad = tokenizer.pad_token_id
    ids = torch.tensor([r + [pad] * (L - len(r)) for r in rows])  # (n, L)
    mask = torch.tensor([[1] * len(r) + [0] * (L - len(r)) for r in rows])  # (n, L)
    lab = torch.tensor([r + [-100] * (L - len(r)) for r in labels])  # (n, L)
    return ids, mask, lab


def pretrain(
    seed: int = 0,
    steps: int | None = None,
    log_every: int = 250,
    moe: bool = False,
    aux_coef: float | None = None,
    task: str = DEFAULT_TASK,
):
    """Supervised warm start on ``task``'s data; returns ``(model, tokenizer)`` (model in eval mode, on CPU).

    Deterministic given ``seed`` on the same machine and thread count (the caller sets one thread:
    :func:`main` does). ``steps``: optimizer steps (``None``: the task's ``pretrain_steps``).
    With ``moe`` the model is the tiny Qwen3-MoE (``rlviz.lm.moe.build_moe_model``) and the loss adds
    ``router_aux_loss_coef`` x the load-balancing loss over the real tokens (``aux_coef`` overrides the
    config's coefficient and is saved with it).

    Raises:
        ValueError: ``task`` is not in ``rlviz.lm.tasks.TASKS``.
    """
    spec = get_task(task)
    steps = spec.pretrain_steps if steps is None else steps
    torch.manual_seed(seed)
    tokenizer = build_tokenizer(spec.chars)
    model = (build_moe_model if moe else build_model)(tokenizer, seed)
    if moe and aux_coef is not None:
        model.config.router_aux_loss_coef = aux_coef
    g = torch.Generator().manual_seed(seed + 1)
    opt = torch.optim.AdamW(model.parameters(), lr=LR, betas=(0.9, 0.98), weight_decay=0.01)

    def lr_factor(s: int) -> float:  # linear warm-up, then cosine from 1 down to 0.1
        cosine = 0.5 * (1 + torch.cos(torch.tensor(s / steps * 3.14159265)).item())
        return min(1.0, (s + 1) / WARMUP) * (0.1 + 0.9 * cosine)

    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_factor)
    model.train()
    t0 = time.time()
    for step in range(steps):
        ids, mask, lab = make_batch(tokenizer, BATCH, g, spec)
        out = model(input_ids=ids, attention_mask=mask, **({"output_router_logits": True} if moe else {}))
        logits = out.logits  # (n, L, V)
        loss = F.cross_entropy(logits[:, :-1].flatten(0, 1), lab[:, 1:].flatten(), ignore_index=-100)
        if moe:  # keep every expert of every layer in use
            loss = loss + model.config.router_aux_loss_coef * per_layer_balance_loss(model, out.router_logits, mask)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        if log_every and (step % log_every == 0 or step == steps - 1):
            print(f"step {step:5d}  loss {loss.item():.3f}  {time.time() - t0:6.1f}s", flush=True)
    model.eval()
    return model, tokenizer


def _rounded(x):
    """Floats to 4 decimals (NaN as None: the card is strict JSON), recursively through dicts."""
    if isinstance(x, float):
        return round(x, 4) if x == x else None
    if isinstance(x, dict):
        return {k: _rounded(v) for k, v in x.items()}
    return x


def measure(model, tokenizer, seed: int = 0, group_size: int = 8, task: str = DEFAULT_TASK) -> dict:
    """pass@1, pass@k, distinct right answers, lengths etc. on ``task``'s held-out set and on as many
    train prompts, G samples each, temperature 1, at the task's length limit
    (``rlviz.lm.rollout.evaluate_pass_at_1``; the per-prompt lists left out, a ``per_level`` pass@1 added)."""
    spec = get_task(task)
    out = {}
    g = torch.Generator().manual_seed(seed + 2)
    held = spec.heldout_problems()
    train = spec.sample_problems(len(held), torch.Generator().manual_seed(seed + 3))
    for name, probs in (("heldout", held), ("train", train)):
        m = evaluate_pass_at_1(model, tokenizer, probs, group_size, spec.max_new_tokens, 1.0, g)
        per_level = {}
        for lvl in sorted({p.level for p in probs}):
            rates = [r for p, r in zip(probs, m["per_prompt"]) if p.level == lvl]
            per_level[str(lvl)] = round(sum(rates) / len(rates), 3)
        m = {k: v for k, v in m.items() if not k.startswith("per_prompt")}
        out[name] = _rounded(m) | {"per_level": per_level}
    if routers(model):
        out["expert_load"] = measure_expert_load(model, tokenizer, held, group_size, g)
    return out


@torch.no_grad()
def measure_expert_load(model, tokenizer, problems, group_size: int, g: torch.Generator) -> dict:
    """Per layer, the share of (token, slot) routes each expert gets on sampled held-out rollouts
    (prompt and response tokens), and the smallest and largest share over all layers and experts."""
    from .rollout import response_log_probs, sample_rollouts

    limit = get_task(problems[0].task).max_new_tokens
    batch = sample_rollouts(model, tokenizer, problems, group_size, limit, 1.0, g, score=False)
    with capture_routing(model) as cap:
        response_log_probs(model, batch.input_ids, batch.attention_mask, batch.position_ids, batch.prompt_width, 1.0)
    load = expert_load(cap.indices(*batch.input_ids.shape), batch.attention_mask, model.config.num_experts)
    return {
        "per_layer": [[round(float(x), 4) for x in row] for row in load],
        "min_share": round(float(load.min()), 4),
        "max_share": round(float(load.max()), 4),
        "uniform_share": round(1 / model.config.num_experts, 4),
    }


def main(argv=None) -> dict:
    """``python -m rlviz.lm.pretrain [--task NAME] [--seed 0] [--steps N] [--out DIR]``: build,
    warm-start, save the checkpoint and its card (``rlviz_card.json``); returns the card as a dict.
    ``--moe`` is for reversed addition only (its shipped MoE model)."""
    from .tasks import TASKS

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--task", choices=tuple(TASKS), default=DEFAULT_TASK, help="the task (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=None, help="default: the task's (3000 for reversed addition)")
    ap.add_argument("--out", default=None, help="default: the task's checkpoint, or assets/tinymoe with --moe")
    ap.add_argument("--moe", action="store_true", help="the mixture-of-experts model (8 experts, top-2)")
    ap.add_argument("--aux-coef", type=float, default=None, help="MoE load-balancing loss coefficient")
    args = ap.parse_args(argv)
    spec = get_task(args.task)
    if args.moe and args.task != DEFAULT_TASK:
        ap.error("--moe: the MoE model is built for reversed addition only")
    if args.steps is None:
        args.steps = spec.pretrain_steps
    if args.out is None:
        args.out = MOE_MODEL_DIR if args.moe else spec.model_dir
    torch.set_num_threads(1)  # one thread: the same bits on any core count (and robust to a busy CPU)
    t0 = time.time()
    model, tokenizer = pretrain(args.seed, args.steps, moe=args.moe, aux_coef=args.aux_coef, task=args.task)
    train_s = time.time() - t0
    figures = measure(model, tokenizer, args.seed, task=args.task)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    model.generation_config = GenerationConfig(
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        do_sample=True,
        temperature=1.0,
        max_new_tokens=spec.max_new_tokens,
    )
    model.save_pretrained(out, safe_serialization=True)
    tokenizer.save_pretrained(out)
    card = {
        "architecture": type(model).__name__,
        "task": spec.name,
        "seed": args.seed,
        "steps": args.steps,
        "batch_size": BATCH,
        "lr": LR,
        **spec.recipe,
        "max_new_tokens": spec.max_new_tokens,
        "eval": f"G=8 samples per prompt, temperature 1, {len(spec.heldout_problems())} held-out prompts "
        "and as many train prompts",
        "figures": figures,
        "parameters": sum(p.numel() for p in model.parameters()),
        "safetensors_bytes": (out / "model.safetensors").stat().st_size,
        "pretrain_seconds": round(train_s, 1),
        "torch": torch.__version__,
    }
    (out / "rlviz_card.json").write_text(json.dumps(card, indent=2) + "\n")
    print(json.dumps(card, indent=2))
    return card


if __name__ == "__main__":
    main()
