"""Answer functions used by the first questions of the bank (trust bands, token weights)."""

from __future__ import annotations

import torch

from rlviz.core.aggregation import token_weights
from rlviz.core.objectives import trust_band
from rlviz.teach.answers import answer


@answer("band_high")
def band_high(algorithm: str, **overrides) -> float:
    """Upper end of ``algorithm``'s trust band on the ratio (``trust_band``), at its defaults plus
    ``overrides``."""
    return trust_band(algorithm, **overrides)[1]


@answer("band_low")
def band_low(algorithm: str, **overrides) -> float:
    """Lower end of ``algorithm``'s trust band on the ratio (``trust_band``)."""
    return trust_band(algorithm, **overrides)[0]


@answer("token_weight")
def token_weight(lengths: list[int], mode: str, row: int, norm_length: float | None = None) -> float:
    """The weight of one token of response ``row`` (0-based) in a group with these ``lengths``
    under aggregation ``mode`` (``token_weights``)."""
    mask = (torch.arange(max(lengths))[None, :] < torch.tensor(lengths)[:, None]).double()
    return float(token_weights(mask, mode, norm_length)[row, 0])


@answer("compare_token_weights")
def compare_token_weights(lengths: list[int], mode: str) -> str:
    """``"more"``, ``"same"`` or ``"less"``: one token of the shortest response against one of the
    longest under aggregation ``mode`` (``token_weights``)."""
    short = min(range(len(lengths)), key=lambda i: lengths[i])
    long = max(range(len(lengths)), key=lambda i: lengths[i])
    w_short = token_weight(lengths, mode, short)
    w_long = token_weight(lengths, mode, long)
    if abs(w_short - w_long) <= 1e-12 * max(abs(w_short), abs(w_long)):
        return "same"
    return "more" if w_short > w_long else "less"
