"""The second verifiable task, "make a sum": many right answers per prompt, tens of tokens each.

The prompt ``"23:5="`` asks for single digits, each from 1 to 5, that add up to 23, written with ``+``
between them; ``"5+5+5+5+3"``, ``"3+4+5+2+5+4"`` and ``"1+2+3+4+5+4+4"`` are all right, in any order
and any number of terms. So a prompt has hundreds to millions of right answers, and a policy can
spread its samples over many of them or collapse onto a few (the largest digits first is the
shortest). An answer of k terms is 2k - 1 tokens and EOS: from 3 tokens (``"10:9="``, ``"9+1"``) to
about 40 (``"32:3="``, sixteen 1s, 2s and 3s), the limit being ``MAX_NEW_TOKENS`` = 40.

Prompts: the target T from ``T_MIN`` to ``T_MAX`` (10 to 48) and the largest digit m from 3 to 9,
with T <= 8 (m + 1) so that an answer whose digits are drawn at random (mean (m + 1) / 2) takes
about 16 terms at most: 249 prompts in all.

Difficulty level: the fewest terms an answer needs, ``ceil(T / m)``: level 1 needs at most 3,
level 2 needs 4 or 5, level 3 needs 6 to 8, level 4 needs 9 or more.

Train / held-out split: the reversed-addition rule (``rlviz.lm.task.is_heldout``: a prompt is held
out iff the first byte of ``md5(prompt)`` is divisible by 4), so the held-out prompts are never
trained on; :func:`heldout_problems` is all of them, in a fixed order.

The supervised warm start (``rlviz.lm.pretrain --task make_sum``) trains on answers whose digits
are drawn one at a time, uniform over 1..min(m, what is left), so they are spread over many right
answers; then each term has a chance ``SLIP`` of being replaced by another digit from 1 to m (the
others unchanged), so the sum comes out wrong, more often the more terms an answer has: the
warm-started model is right only part of the time, and less often on long answers, which is what RL
can sharpen (and, by preferring few, large terms, collapse onto a few right answers).
"""

from __future__ import annotations

import math
import re

import torch

from .task import Problem, is_heldout

__all__ = [
    "NAME",
    "MAX_NEW_TOKENS",
    "OVERLONG_BUFFER",
    "CHARS",
    "T_MIN",
    "T_MAX",
    "M_MIN",
    "M_MAX",
    "SLIP",
    "make_problem",
    "all_prompts",
    "reward",
    "format_reward",
    "answer_key",
    "sample_problems",
    "heldout_problems",
    "sft_problems",
    "sft_target",
]

NAME = "make_sum"
MAX_NEW_TOKENS = 40  # response length limit (tokens, EOS included)
OVERLONG_BUFFER = 8  # DAPO's L_cache for this task: the soft penalty starts at 32 tokens
CHARS = tuple("0123456789+:=")  # the tokenizer's alphabet (one token per character)
T_MIN, T_MAX = 10, 48  # targets
M_MIN, M_MAX = 3, 9  # largest digit allowed
SLIP = 0.08  # warm-start data: the chance that a term is replaced by another digit
_ANSWER = re.compile(r"[1-9](\+[1-9])*")  # well-formed: digits 1-9 with a + between them


def _level(target: int, largest: int) -> int:
    fewest = math.ceil(target / largest)  # the fewest terms a right answer needs
    return 1 if fewest <= 3 else 2 if fewest <= 5 else 3 if fewest <= 8 else 4


def make_problem(target: int, largest: int) -> Problem:
    """The problem ``"{target}:{largest}="``: digits from 1 to ``largest`` that add up to ``target``.

    ``answer`` is one right answer, the shortest: ``largest`` repeated, then the remainder
    (``make_problem(23, 5).answer == "5+5+5+5+3"``); ``level`` is 1-4 by the fewest terms needed
    (module docstring).

    Raises:
        ValueError: ``target`` < 1 or ``largest`` not in 1..9.
    """
    if not 1 <= largest <= 9:
        raise ValueError(f"largest: must be a digit from 1 to 9, got {largest}")
    if target < 1:
        raise ValueError(f"target: must be >= 1, got {target}")
    q, r = divmod(target, largest)
    terms = [largest] * q + ([r] if r else [])
    return Problem(
        prompt=f"{target}:{largest}=",
        answer="+".join(map(str, terms)),
        level=_level(target, largest),
        task=NAME,
    )


def all_prompts() -> list[Problem]:
    """Every prompt of the task (249), by largest digit then target; both splits."""
    return [make_problem(t, m) for m in range(M_MIN, M_MAX + 1) for t in range(T_MIN, T_MAX + 1) if t <= 8 * (m + 1)]


def _parse(problem: Problem) -> tuple[int, int]:
    target, largest = problem.prompt.rstrip("=").split(":")
    return int(target), int(largest)


def format_reward(problem: Problem, response_text: str, finished: bool) -> float:
    """1.0 when the response ended with EOS and is digits from 1 to 9 with a ``+`` between each two
    (``"5+5+3"``), right or wrong; else 0.0. ``problem`` is not read (same signature as :func:`reward`)."""
    return 1.0 if finished and _ANSWER.fullmatch(response_text) else 0.0


def reward(problem: Problem, response_text: str, finished: bool) -> float:
    """Rule-based verifier: 1.0 iff the response ended with EOS, is well-formed
    (:func:`format_reward`), every digit is at most the prompt's largest digit, and the digits add up
    to the target; else 0.0.

    Args:
        problem: a problem of this task (``"23:5="``).
        response_text: the decoded response without special tokens.
        finished: whether it ended with EOS within the length limit.

    Examples (``"23:5="``): ``"5+5+5+5+3"`` and ``"3+5+5+5+5"`` give 1.0; ``"9+9+5"`` (a digit
    above 5), ``"5+5+5+5+2"`` (22), ``"5+5+5+5+3+"`` and ``"55553"`` give 0.0.
    """
    if not format_reward(problem, response_text, finished):
        return 0.0
    target, largest = _parse(problem)
    digits = [int(c) for c in response_text[::2]]
    return 1.0 if max(digits) <= largest and sum(digits) == target else 0.0


def answer_key(response_text: str) -> str:
    """What makes two answers the same answer: the text itself (``"5+3"`` and ``"3+5"`` differ)."""
    return response_text


def _split(heldout: bool) -> list[Problem]:
    return [p for p in all_prompts() if is_heldout(p.prompt) == heldout]


_TRAIN: list[Problem] | None = None
_HELDOUT: list[Problem] | None = None


def heldout_problems() -> list[Problem]:
    """The held-out set: every prompt of the held-out split (57), in :func:`all_prompts` order."""
    global _HELDOUT
    if _HELDOUT is None:
        _HELDOUT = _split(True)
    return list(_HELDOUT)


def _train() -> list[Problem]:
    global _TRAIN
    if _TRAIN is None:
        _TRAIN = _split(False)
    return _TRAIN


def sample_problems(n: int, generator: torch.Generator) -> list[Problem]:
    """Draw ``n`` problems, with replacement and uniformly, from the TRAIN split (192 prompts).

    Deterministic given ``generator`` (a CPU ``torch.Generator``, the only randomness used).

    Raises:
        ValueError: ``n`` is negative.
    """
    if n < 0:
        raise ValueError(f"n: must be >= 0, got {n}")
    train = _train()
    return [train[int(i)] for i in torch.randint(0, len(train), (n,), generator=generator)]


def sft_problems(n: int, generator: torch.Generator) -> list[Problem]:
    """The warm start's prompts: :func:`sample_problems` (the train split, uniformly)."""
    return sample_problems(n, generator)


def sft_target(problem: Problem, generator: torch.Generator) -> str:
    """A warm-start response for ``problem`` (EOS added by the caller): digits drawn one at a time,
    uniform over 1..min(m, what is left) until the target is reached, then each term replaced with
    probability ``SLIP`` by another digit from 1 to m (so the sum is off). Deterministic given
    ``generator``."""
    target, largest = _parse(problem)
    terms, left = [], target
    while left > 0:
        d = 1 + int(torch.randint(0, min(largest, left), (1,), generator=generator))
        terms.append(d)
        left -= d
    for i, d in enumerate(terms):
        if torch.rand(1, generator=generator).item() < SLIP:
            other = 1 + int(torch.randint(0, largest - 1, (1,), generator=generator))  # 1..m-1
            terms[i] = other if other < d else other + 1  # a digit from 1..m other than d
    return "+".join(map(str, terms))
