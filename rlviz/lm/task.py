"""The verifiable task: addition with the sum written least-significant digit first ("reversed").

A prompt is ``"37+5="``; the expected response is optional filler characters (``.``), then the digits
of the sum reversed (42 -> ``"24"``), then EOS. Writing the sum reversed lets a left-to-right model
emit the carry-free digit first, which a tiny model learns in minutes (forward order barely learns).

Difficulty levels (the operands' digit counts) and their share of both the train distribution and the
held-out set (``LEVEL_WEIGHTS``):

=====  ===================  ======  =========================================================
level  operands             share   shipped checkpoint (sampling at temperature 1)
=====  ===================  ======  =========================================================
1      1 digit + 1 digit     25 %   trained on clean targets: almost always right
2      2 digits + 1 digit    30 %   trained on noisy targets: sometimes right
3      2 digits + 2 digits   25 %   trained on noisy targets: mostly wrong, sometimes right
4      3 digits + 3 digits   20 %   rarely trained: almost always wrong
=====  ===================  ======  =========================================================

(the operand order of levels 2 is random: ``"37+5="`` and ``"5+37="`` both occur).

Train / held-out split: a prompt is held out iff the first byte of ``md5(prompt)`` is divisible by 4
(about a quarter of all prompts), a rule independent of any seed, so the two splits never overlap.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import torch

from .tokenizer import FILLER

__all__ = [
    "Problem",
    "LEVEL_WEIGHTS",
    "DEFAULT_MAX_NEW_TOKENS",
    "HELDOUT_SIZE",
    "reward",
    "format_reward",
    "make_problem",
    "is_heldout",
    "sample_problems",
    "train_problems",
    "heldout_problems",
    "PRETRAIN_LEVELS",
    "NOISE",
    "FILLER_NONE",
    "FILLER_MAX",
    "LONG_SHARE",
    "sft_problems",
    "sft_target",
]

DEFAULT_MAX_NEW_TOKENS = 16  # response length limit (tokens, EOS included)
LEVEL_WEIGHTS = {1: 0.25, 2: 0.30, 3: 0.25, 4: 0.20}  # share of each difficulty level
HELDOUT_SIZE = 96  # prompts in the fixed held-out set
# operand digit counts per level (level 2 also appears with its operands swapped)
_DIGITS = {1: (1, 1), 2: (2, 1), 3: (2, 2), 4: (3, 3)}


@dataclass(frozen=True)
class Problem:
    """One prompt of the task.

    Attributes:
        prompt: the text fed to the model after BOS, e.g. ``"37+5="``.
        answer: the reversed digits of the sum the verifier expects, e.g. ``"24"`` (in a task with
            many right answers, one of them: ``rlviz.lm.make_sum``).
        level: difficulty level, 1 (easiest) to 4 (see the module docstring).
        task: the name of its task in ``rlviz.lm.tasks.TASKS``, whose verifier scores it.
    """

    prompt: str
    answer: str
    level: int
    task: str = "reversed_addition"


def reward(problem: Problem, response_text: str, finished: bool) -> float:
    """Rule-based verifier: 1.0 for a right answer, else 0.0.

    Args:
        problem: the prompt being answered.
        response_text: the decoded response without special tokens (no EOS, no padding).
        finished: whether the response ended with EOS within the length limit.

    Returns:
        1.0 iff ``finished`` and ``response_text`` with its leading filler characters stripped equals
        ``problem.answer`` exactly; 0.0 otherwise (wrong digits, filler after a digit, truncation).
    """
    if not finished:
        return 0.0
    return 1.0 if response_text.lstrip(FILLER) == problem.answer else 0.0


def format_reward(problem: Problem, response_text: str, finished: bool) -> float:
    """A second, rule-based reward for a well-formed answer, right or wrong: 1.0 when the response
    ends with EOS and is optional leading filler then one or more digits and nothing else; else 0.0.

    Only GDPO (several rewards, each normalised in its group: ``rlviz.core.estimators``) reads it, as
    the second reward column; every other estimator trains on :func:`reward` alone. ``problem`` is
    not used (the format does not depend on the prompt); it is there so both rewards share a signature.

    Args:
        problem: the prompt being answered.
        response_text: the decoded response without special tokens.
        finished: whether the response ended with EOS within the length limit.
    """
    digits = response_text.lstrip(FILLER)
    return 1.0 if finished and digits != "" and digits.isascii() and digits.isdigit() else 0.0


def make_problem(a: int, b: int, level: int) -> Problem:
    """The problem ``"a+b="`` with answer ``str(a + b)`` reversed."""
    return Problem(prompt=f"{a}+{b}=", answer=str(a + b)[::-1], level=level)


def is_heldout(prompt: str) -> bool:
    """True iff ``prompt`` belongs to the held-out split (md5 rule, see module docstring)."""
    return hashlib.md5(prompt.encode()).digest()[0] % 4 == 0


def _randint_digits(n_digits: int, generator: torch.Generator) -> int:
    lo = 0 if n_digits == 1 else 10 ** (n_digits - 1)
    return int(torch.randint(lo, 10**n_digits, (1,), generator=generator))


def _draw(level: int, generator: torch.Generator) -> Problem:
    da, db = _DIGITS[level]
    a, b = _randint_digits(da, generator), _randint_digits(db, generator)
    if da != db and int(torch.randint(0, 2, (1,), generator=generator)):
        a, b = b, a
    return make_problem(a, b, level)


def sample_problems(n: int, generator: torch.Generator, levels: dict[int, float] | None = None) -> list[Problem]:
    """Draw ``n`` problems (with replacement) from the TRAIN split.

    Args:
        n: number of problems.
        generator: a CPU ``torch.Generator``; the draw is deterministic given its state and it is
            the only randomness used (never the global RNG).
        levels: level -> weight; defaults to ``LEVEL_WEIGHTS``.

    Raises:
        ValueError: ``n`` is negative or ``levels`` has an unknown level or no positive weight.
    """
    if n < 0:
        raise ValueError(f"n: must be >= 0, got {n}")
    levels = LEVEL_WEIGHTS if levels is None else levels
    if not levels or any(k not in _DIGITS for k in levels) or sum(levels.values()) <= 0:
        raise ValueError(f"levels: expected weights over levels {sorted(_DIGITS)}, got {levels}")
    keys = sorted(levels)
    w = torch.tensor([float(levels[k]) for k in keys])
    out = []
    for _ in range(n):
        level = keys[int(torch.multinomial(w, 1, generator=generator))]
        while True:  # rejection: keep only train-split prompts
            p = _draw(level, generator)
            if not is_heldout(p.prompt):
                break
        out.append(p)
    return out


def train_problems(seed: int, n: int = 256) -> list[Problem]:
    """A deterministic list of ``n`` train-split problems drawn with ``torch.Generator().manual_seed(seed)``."""
    return sample_problems(n, torch.Generator().manual_seed(seed))


_HELDOUT: list[Problem] | None = None


def heldout_problems() -> list[Problem]:
    """The fixed held-out set: ``HELDOUT_SIZE`` (96) distinct prompts, none in the train split.

    Per level, ``round(HELDOUT_SIZE * LEVEL_WEIGHTS[level])`` prompts (24 / 29 / 24 / 19): the first
    distinct held-out-split prompts met when drawing that level as the train sampler does, from a
    generator seeded with 0; the same list on every machine and every call.
    """
    global _HELDOUT
    if _HELDOUT is None:
        g = torch.Generator().manual_seed(0)
        out = []
        for level, w in sorted(LEVEL_WEIGHTS.items()):
            k, seen = round(HELDOUT_SIZE * w), {}
            while len(seen) < k:  # level 1 has 25 held-out prompts in all, so this ends
                p = _draw(level, g)
                if is_heldout(p.prompt):
                    seen.setdefault(p.prompt, p)
            out += list(seen.values())
        _HELDOUT = out
    return list(_HELDOUT)


# -- the supervised warm start's data (``rlviz.lm.pretrain``) -------------------------------------
# The targets are deliberately imperfect so that RL has something to improve:
# - level 1 (1+1 digits) targets are clean, so those prompts end up almost always right;
# - levels 2-4 targets have one answer digit changed with probability ``NOISE`` (the model learns to be
#   right only some of the time: groups are mixed, and GRPO can sharpen them);
# - level 4 (3+3 digits) is rarely seen, so those prompts stay almost always wrong;
# - a random number of filler characters ``.`` precedes the answer (lengths vary), and a small share
#   ``LONG_SHARE`` of level 2-4 targets have filler running past the response limit (so some samples
#   truncate, which DAPO's overlong shaping acts on).
PRETRAIN_LEVELS = {1: 0.25, 2: 0.35, 3: 0.35, 4: 0.05}  # level mix of the supervised data
NOISE = {1: 0.0, 2: 0.5, 3: 0.5, 4: 0.5}  # chance that one answer digit is changed
FILLER_NONE = 0.5  # share of targets without filler
FILLER_MAX = 6  # otherwise 1..FILLER_MAX filler characters ...
LONG_SHARE = 0.04  # ... or, for this share, a filler run past the response limit


def sft_problems(n: int, generator: torch.Generator) -> list[Problem]:
    """The warm start's prompts: ``n`` train-split problems at the level mix ``PRETRAIN_LEVELS``."""
    return sample_problems(n, generator, PRETRAIN_LEVELS)


def sft_target(p: Problem, g: torch.Generator) -> str:
    """A (possibly noisy) warm-start response for ``p``: filler + reversed digits (EOS added by the
    caller), drawn from ``g`` as described above ``PRETRAIN_LEVELS``."""
    r = lambda hi: int(torch.randint(0, hi, (1,), generator=g))  # noqa: E731
    ans = list(p.answer)
    if torch.rand(1, generator=g).item() < NOISE[p.level]:
        i = r(len(ans))
        ans[i] = str((int(ans[i]) + 1 + r(9)) % 10)  # a different digit
    u = torch.rand(1, generator=g).item()
    long_share = LONG_SHARE if p.level > 1 else 0.0  # easy prompts never ramble
    if u < long_share:
        n_fill = DEFAULT_MAX_NEW_TOKENS - 2 + r(8)  # 14..21: mostly no EOS within the limit
    elif u < long_share + FILLER_NONE:
        n_fill = 0
    else:
        n_fill = 1 + r(FILLER_MAX)
    return FILLER * n_fill + "".join(ans)
