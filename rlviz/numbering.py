"""How every page numbers a group's responses: from 1, as a learner counts (issue 39's try-out found #1 on one
page and #0 on the next). One place for the convention, below every layer that draws a label: the library's
frames and URL values keep 0-based indices; what a page, a figure or a question shows goes through
:func:`response_number` (a locale string's ``#{i}``) or :func:`response_tag` (a bare ``#n``). Nothing here is
translated: ``#n`` reads the same in both languages, so the figure builders of ``rlviz.plots``, which take their
words only through ``labels``, may use it for a label the caller left out.
"""

from __future__ import annotations

import operator

__all__ = ["response_number", "response_tag"]


def response_number(index: int) -> int:
    """The number every page shows for the response at 0-based ``index`` (its row in a group or batch, a
    frame's 0-based ``response`` column): counted from 1, as a learner counts, so that "#1" is the first
    response on every page. Locale strings write ``#{i}`` with ``i`` from here.

    Raises:
        ValueError: ``index`` is not a whole number >= 0."""
    try:
        i = operator.index(index)  # an int or a numpy integer; never a float, a text or a bool
    except TypeError:
        i = -1
    if isinstance(index, bool) or i < 0:
        raise ValueError(f"index: must be a whole number >= 0, got {index!r}")
    return i + 1


def response_tag(index: int) -> str:
    """``"#n"``, the label of the response at 0-based ``index`` where no locale string frames it (a figure's
    default row or tick label): ``response_tag(0) == "#1"`` (:func:`response_number`)."""
    return f"#{response_number(index)}"
