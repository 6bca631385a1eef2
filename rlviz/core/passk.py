"""pass@k and the diversity of right answers: what a sampled group says beyond its mean reward.

pass@k is the chance that at least one of k samples is right. From n >= k samples of which c are right,
the unbiased estimator of Chen et al. 2021 ("Evaluating Large Language Models Trained on Code",
arXiv 2107.03374, section 2.1) is

    pass@k = 1 - C(n - c, k) / C(n, k),

averaged over prompts. The binomials overflow for large n, so it is computed as the product
``1 - prod_{i = n - c + 1}^{n} (1 - k / i)`` (the paper's numpy code, Figure 3), which equals it exactly.
``1 - (1 - c/n)^k`` (plugging the pass rate into the formula for independent draws) is biased low.

Distinct right answers: among a prompt's samples, how many different right answers there are (two
answers being the same when a task's ``answer_key`` says so). A task with one right answer per prompt
has at most 1; a policy that collapses onto a few answers of a task with many has few.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

from .validate import check_whole

__all__ = ["pass_at_k", "mean_pass_at_k", "pass_at_k_curve", "distinct_right"]


def _check_counts(n: int, c: int, k: int) -> None:
    for name, v in (("n", n), ("c", c), ("k", k)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"{name}: must be a whole number, got {v!r}")
    if n < 1:
        raise ValueError(f"n: must be >= 1, got {n}")
    if not 0 <= c <= n:
        raise ValueError(f"c: must be in [0, n={n}], got {c}")
    if not 1 <= k <= n:
        raise ValueError(f"k: must be in [1, n={n}], got {k}")


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k estimate of one prompt from ``n`` samples of which ``c`` are right.

    ``1 - C(n - c, k) / C(n, k)`` (Chen et al. 2021, arXiv 2107.03374, section 2.1), computed as
    ``1 - prod_{i=n-c+1}^{n} (1 - k/i)``: 1.0 when ``n - c < k`` (every k-subset holds a right sample),
    ``c / n`` at k = 1. Example: n = 4, c = 1, k = 2: 1 - C(3, 2) / C(4, 2) = 1 - 3/6 = 0.5.

    Args:
        n: samples of the prompt (>= 1).
        c: right ones among them (0..n).
        k: the k of pass@k (1..n).

    Returns:
        A float in [0, 1].

    Raises:
        ValueError: a count that is not a whole number or is out of range (the message names it).
    """
    _check_counts(n, c, k)
    if n - c < k:
        return 1.0
    prod = 1.0
    for i in range(n - c + 1, n + 1):
        prod *= 1.0 - k / i
    return 1.0 - prod


def mean_pass_at_k(counts: Iterable[tuple[int, int]], k: int) -> float:
    """pass@k over prompts: the mean of :func:`pass_at_k` over ``(n, c)`` pairs, one per prompt.

    Raises:
        ValueError: no prompt, or a pair out of range for ``k`` (as :func:`pass_at_k`).
    """
    if isinstance(counts, (str, bytes, dict)) or not isinstance(counts, Iterable):
        raise ValueError(f"counts: must be (n, c) pairs, one per prompt, got {type(counts).__name__}")
    pairs = list(counts)
    if not all(isinstance(p, (tuple, list)) and len(p) == 2 for p in pairs):
        raise ValueError("counts: each entry must be an (n, c) pair")
    values = [pass_at_k(n, c, k) for n, c in pairs]
    if not values:
        raise ValueError("counts: needs at least one prompt")
    return math.fsum(values) / len(values)


def pass_at_k_curve(right: Sequence[int], n: int, ks: Iterable[int] | None = None) -> dict[int, float]:
    """pass@k over prompts that each have ``n`` samples, for several k.

    Args:
        right: right samples per prompt (each 0..n), one entry per prompt.
        n: samples per prompt.
        ks: the k to report (each 1..n); ``None``: 1, 2, 4, ... up to n, and n.

    Returns:
        ``{k: pass@k}`` in increasing k; non-decreasing in k.

    Raises:
        ValueError: as :func:`pass_at_k`, or ``right`` is empty.
    """
    if isinstance(right, (str, bytes, dict)) or not isinstance(right, Sequence):
        raise ValueError(f"right: must be a sequence of counts, one per prompt, got {type(right).__name__}")
    check_whole(n, "n", low=1)
    for c in right:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= n:
            raise ValueError(f"right: each entry must be a whole number in [0, n={n}], got {c!r}")
    if ks is None:
        ks = sorted({2**j for j in range(max(n, 1).bit_length()) if 2**j <= n} | {n})
    elif isinstance(ks, (str, bytes, dict)) or not isinstance(ks, Iterable):
        raise ValueError(f"ks: must be whole numbers in [1, n], got {type(ks).__name__}")
    return {k: mean_pass_at_k(((n, c) for c in right), k) for k in sorted(set(ks))}


def distinct_right(texts: Sequence[str], rewards: Sequence[float], key: Callable[[str], str] | None = None) -> int:
    """How many different right answers one prompt's samples hold.

    Args:
        texts: the prompt's sampled responses (decoded text).
        rewards: their rewards, the same length; a response is right when its reward is >= 1 (the
            verifier's 1.0: a shaped reward below it is not right).
        key: what makes two answers the same (a task's ``answer_key``); ``None``: the text itself.

    Returns:
        The number of distinct keys among the right responses (0 when none is right).

    Raises:
        ValueError: ``texts`` is not a sequence of strings, ``rewards`` not one of numbers, or the
            lengths differ (the message names the parameter).
    """
    if isinstance(texts, (str, bytes)) or not isinstance(texts, Sequence) or not all(isinstance(t, str) for t in texts):
        raise ValueError("texts: must be a sequence of strings")
    if isinstance(rewards, (str, bytes)) or not isinstance(rewards, Sequence):
        raise ValueError(f"rewards: must be a sequence of numbers, got {type(rewards).__name__}")
    if not all(isinstance(r, (int, float)) and not isinstance(r, bool) and math.isfinite(r) for r in rewards):
        raise ValueError("rewards: must be finite numbers")
    if key is not None and not callable(key):
        raise ValueError(f"key: must be a function of an answer's text, got {type(key).__name__}")
    if len(texts) != len(rewards):
        raise ValueError(f"rewards: {len(rewards)} values for {len(texts)} texts")
    key = (lambda t: t) if key is None else key
    return len({key(t) for t, r in zip(texts, rewards) if r >= 1.0})
