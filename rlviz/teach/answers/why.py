"""Answer functions used only by the "explain why" questions (``rlviz/teach/bank/why.toml``)."""

from __future__ import annotations

from rlviz.core.passk import mean_pass_at_k
from rlviz.teach.answers import answer


@answer("ex_mean_pass_at_k")
def ex_mean_pass_at_k(counts: list[list[int]], k: int) -> float:
    """Mean unbiased pass@k over prompts (``rlviz.core.passk.mean_pass_at_k``, Chen et al. 2021,
    arXiv 2107.03374 eq. 1). ``counts``: one ``[n, c]`` per prompt (n samples drawn, c of them right).
    Raises ``ValueError`` from ``mean_pass_at_k`` for c > n or k > n."""
    return mean_pass_at_k([(int(n), int(c)) for n, c in counts], int(k))
