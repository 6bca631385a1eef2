"""The task registry: every verifiable task the tiny LMs are trained on is one :class:`TaskSpec` entry.

As objectives are entries of ``rlviz.core.objectives.ALGORITHMS``, tasks are entries of :data:`TASKS`:
its name (the CLI's ``--task``, ``TrainConfig.task``), its label and description in English and
Chinese, its prompts (a train sampler and a fixed held-out set, never trained on), its verifier, its
response length limit, its shipped checkpoint and the warm start's data (``rlviz.lm.pretrain``).

- ``reversed_addition`` (the default everywhere; ``rlviz.lm.task``): one right answer per prompt,
  answers of 2-16 tokens.
- ``make_sum`` (``rlviz.lm.make_sum``): digits up to m adding up to T; many right answers per
  prompt, answers of 3-40 tokens.

A :class:`~rlviz.lm.task.Problem` names its task (``Problem.task``), so the sampler scores a batch
with the right verifier (:func:`task_of`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from . import make_sum, task
from .model import DEFAULT_MODEL_DIR
from .task import Problem
from .tokenizer import CHARS

__all__ = ["DEFAULT_TASK", "TASKS", "TaskSpec", "get_task", "task_of"]

DEFAULT_TASK = "reversed_addition"
_ASSETS = Path(__file__).resolve().parent / "assets"


@dataclass(frozen=True)
class TaskSpec:
    """One verifiable task.

    Attributes:
        name: registry key (snake_case), ``Problem.task`` of its problems.
        label, description: ``{"en": ..., "zh": ...}``: a short name and one or two sentences.
        summary: ``{"en": ..., "zh": ...}``: the description in one short line (about 12 words), the
            caption under a task picker on a first screen.
        sample_problems: ``(n, generator) -> n`` train-split problems, deterministic given the
            CPU ``torch.Generator`` (the only randomness); raises ``ValueError`` for ``n`` < 0.
        heldout_problems: ``() -> `` the fixed held-out problems (never in the train split).
        is_heldout: ``prompt -> bool``: the split rule.
        reward: the verifier ``(problem, response_text, finished) -> 0.0 or 1.0`` (``response_text``
            decoded without special tokens; ``finished``: it ended with EOS within the limit).
        format_reward: ``(problem, response_text, finished) -> 0.0 or 1.0``: well-formed, right or
            wrong (GDPO's second reward column).
        answer_key: ``response_text -> str``: two right answers with the same key count once among
            the distinct right answers of a prompt.
        max_new_tokens: the response length limit L_max in tokens (EOS included).
        overlong_buffer_length: DAPO's L_cache for this task (tokens).
        model_dir: its shipped checkpoint (``load_policy`` / ``from_pretrained``).
        chars: the tokenizer's alphabet, one token per character (``build_tokenizer(chars)``).
        sft_problems, sft_target: the warm start's prompts ``(n, generator) -> problems`` and a
            target response for one of them ``(problem, generator) -> text`` (EOS added by the caller).
        pretrain_steps: the warm start's optimizer steps (batch and learning rate: ``rlviz.lm.pretrain``).
        recipe: what the checkpoint's card records about the warm start's data.
        weak_model_dir, weak_pretrain_steps: a weak warm start of the same model (the same data and
            seed, ``weak_pretrain_steps`` optimizer steps with their own schedule instead of
            ``pretrain_steps``; ``python -m rlviz.lm.pretrain --steps N --out DIR``), shipped beside the
            checkpoint to show why RL starts from a supervised warm start (the /warmstart page); ``None``
            where a task ships none.
        panels: the trainer's per-step metrics (``rlviz.lm.trainer.METRICS``) a live page adds to its
            default panels for this task (a task with many right answers per prompt: how many different
            ones a group finds, and pass@G).
        reference_answer: ``{"en": ..., "zh": ...}``: how a page names a problem's ``Problem.answer``, a
            template with ``{answer}`` (Markdown); the default says it is the right answer, a task with
            its own notation or with many right answers says so.
    """

    name: str
    label: dict[str, str]
    description: dict[str, str]
    summary: dict[str, str]
    sample_problems: Callable[[int, torch.Generator], list[Problem]]
    heldout_problems: Callable[[], list[Problem]]
    is_heldout: Callable[[str], bool]
    reward: Callable[[Problem, str, bool], float]
    format_reward: Callable[[Problem, str, bool], float]
    answer_key: Callable[[str], str]
    max_new_tokens: int
    overlong_buffer_length: int
    model_dir: str
    chars: tuple[str, ...]
    sft_problems: Callable[[int, torch.Generator], list[Problem]]
    sft_target: Callable[[Problem, torch.Generator], str]
    pretrain_steps: int
    recipe: dict[str, Any] = field(default_factory=dict)
    weak_model_dir: str | None = None
    weak_pretrain_steps: int | None = None
    panels: tuple[str, ...] = ()
    reference_answer: dict[str, str] = field(
        default_factory=lambda: {"en": "right answer `{answer}`", "zh": "正确答案 `{answer}`"}
    )


def _strip_filler(text: str) -> str:
    return text.lstrip(task.FILLER)


_SPECS = (
    TaskSpec(
        name="reversed_addition",
        label={"en": "Reversed addition", "zh": "倒序加法"},
        description={
            "en": "Add two numbers and write the sum least-significant digit first (37+5= → 24). "
            "One right answer per prompt; answers of 2-16 tokens.",
            "zh": "两数相加，和从个位写起（37+5= → 24）。每道题只有一个正确答案；回答长 2-16 个 token。",
        },
        summary={
            "en": "Add two numbers; write the sum units digit first (37+5= → 24).",
            "zh": "两数相加，和从个位写起（37+5= → 24）。",
        },
        sample_problems=lambda n, g: task.sample_problems(n, g),
        heldout_problems=task.heldout_problems,
        is_heldout=task.is_heldout,
        reward=task.reward,
        format_reward=task.format_reward,
        answer_key=_strip_filler,
        max_new_tokens=task.DEFAULT_MAX_NEW_TOKENS,
        overlong_buffer_length=4,
        model_dir=DEFAULT_MODEL_DIR,
        weak_model_dir=str(_ASSETS / "tinylm_weak"),
        weak_pretrain_steps=60,
        chars=tuple(CHARS),
        sft_problems=task.sft_problems,
        sft_target=task.sft_target,
        pretrain_steps=3000,
        recipe={
            "pretrain_levels": task.PRETRAIN_LEVELS,
            "noise": task.NOISE,
            "long_filler_share": task.LONG_SHARE,
        },
        reference_answer={
            "en": "expected answer `{answer}` (digits reversed)",
            "zh": "正确答案 `{answer}`（数字倒序书写）",
        },
    ),
    TaskSpec(
        name=make_sum.NAME,
        label={"en": "Make a sum", "zh": "凑数"},
        description={
            "en": "Write digits from 1 to m that add up to T (23:5= → 5+5+5+5+3, or 3+4+5+2+5+4, ...). "
            "Many right answers per prompt; answers of 3-40 tokens.",
            "zh": "写出若干个 1 到 m 之间的数字，使其和为 T（23:5= → 5+5+5+5+3，或 3+4+5+2+5+4……）。"
            "每道题有许多正确答案；回答长 3-40 个 token。",
        },
        summary={
            "en": "Write digits from 1 to m that add up to T; many right answers.",
            "zh": "用 1 到 m 的数字凑出 T，答案很多。",
        },
        sample_problems=make_sum.sample_problems,
        heldout_problems=make_sum.heldout_problems,
        is_heldout=task.is_heldout,
        reward=make_sum.reward,
        format_reward=make_sum.format_reward,
        answer_key=make_sum.answer_key,
        max_new_tokens=make_sum.MAX_NEW_TOKENS,
        overlong_buffer_length=make_sum.OVERLONG_BUFFER,
        model_dir=str(_ASSETS / make_sum.NAME),
        chars=make_sum.CHARS,
        sft_problems=make_sum.sft_problems,
        sft_target=make_sum.sft_target,
        pretrain_steps=1500,
        recipe={
            "targets": [make_sum.T_MIN, make_sum.T_MAX],
            "largest_digit": [make_sum.M_MIN, make_sum.M_MAX],
            "slip": make_sum.SLIP,
        },
        panels=("distinct_right", "pass_at_group"),
        reference_answer={
            "en": "one right answer of many: `{answer}`",
            "zh": "多个正确答案之一：`{answer}`",
        },
    ),
)

TASKS: dict[str, TaskSpec] = {spec.name: spec for spec in _SPECS}


def get_task(name: str) -> TaskSpec:
    """The registry entry called ``name``.

    Raises:
        ValueError: ``name`` is not in :data:`TASKS` (the message names ``task`` and lists the choices).
    """
    if not isinstance(name, str) or name not in TASKS:
        raise ValueError(f"task: {name!r} is not one of {', '.join(TASKS)}")
    return TASKS[name]


def task_of(problem: Problem) -> TaskSpec:
    """The task whose verifier scores ``problem`` (``problem.task``). Raises ``ValueError`` as :func:`get_task`."""
    return get_task(problem.task)
