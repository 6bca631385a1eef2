"""Helpers for AppTest page tests: open a page through app.py, read figures back from their JSON."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parent.parent / "app.py")
TIMEOUT = 120


def open_page(page: str, **query: Any) -> AppTest:
    """Run app.py on ``page`` (e.g. ``"pages/curves.py"``) with ``query`` in the URL.

    One script run, as a browser that opens the page's address: every page's ``url_path`` is its file
    name, which is how AppTest identifies a page before the first run (no detour through home)."""
    from rlviz.app_pages import PAGES

    assert any(p.file == page and Path(page).stem == (p.url_path or "home") for p in PAGES), page
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({k: v for k, v in query.items()})
    return at.switch_page(page).run()


def no_exception(at: AppTest) -> None:
    """No exception element and no st.error on the page, and no text of the string table shown
    unformatted (a plural spec such as ``{n:plural:step|steps}`` left in a text or a figure)."""
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    texts = [e.value for kind in ("markdown", "caption", "info", "warning", "success") for e in at.get(kind)]
    texts += [e.proto.spec for e in at.get("plotly_chart")]
    raw = [text for text in texts if isinstance(text, str) and ":plural:" in text]
    assert not raw, raw[0][:300]


def figures(at: AppTest) -> list[dict]:
    """Every Plotly figure on the page, as its JSON spec (``{"data": [...], "layout": {...}}``)."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def _numbers(value: Any, gaps: bool) -> Iterator[float]:
    if value is None:
        # plotly writes a NaN in a Python list as null: count it as NaN unless gaps are allowed
        if not gaps:
            yield math.nan
        return
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield float(value)
    elif isinstance(value, str):
        if value.lower() in ("nan", "inf", "-inf", "infinity", "-infinity"):
            yield float(value)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _numbers(v, gaps)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _numbers(v, gaps)


def trace_values(trace: dict, axis: str) -> list:
    """The ``x`` / ``y`` / ``z`` values of a trace, decoding Plotly's typed-array form
    (``{"dtype": "f8", "bdata": ...}``) when present."""
    value = trace.get(axis)
    if isinstance(value, dict) and "bdata" in value:
        import base64

        import numpy as np

        arr = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        if "shape" in value:
            arr = arr.reshape([int(n) for n in str(value["shape"]).split(",")])
        return arr.tolist()
    return [] if value is None else value


def assert_finite_figures(at: AppTest, at_least: int = 1, gaps: bool = False) -> list[dict]:
    """At least ``at_least`` figures, and no NaN / inf in any plotted x, y or z (typed arrays
    decoded; plotly writes NaN in a list as null, so null counts as NaN unless ``gaps`` allows
    deliberate gaps, e.g. padding cells of a heatmap); every figure carries a text alternative for
    screen readers (``alt``, read from the figure by ``app_common.chart``); returns the figures."""
    figs = figures(at)
    assert len(figs) >= at_least, f"expected at least {at_least} figures, found {len(figs)}"
    for i, el in enumerate(at.get("plotly_chart")):
        alt = el.proto.alt
        # plain words: no HTML tag and no unfilled {placeholder} (a comparison such as "A<0" is words)
        assert alt.strip() and not re.search(r"<\s*/?[A-Za-z]", alt) and "{" not in alt, f"figure {i}: alt {alt!r}"
    for i, fig in enumerate(figs):
        for j, trace in enumerate(fig.get("data", [])):
            for axis in ("x", "y", "z"):
                values = trace_values(trace, axis)
                bad = [v for v in _numbers(values, gaps) if not math.isfinite(v)]
                assert not bad, f"figure {i} trace {j} ({trace.get('name')}) {axis}: {bad[:5]}"
    return figs


def texts(at: AppTest) -> str:
    """Every markdown, caption and subheader text of the page, one per line."""
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [s.value for s in at.subheader]
    return "\n".join(parts)


@contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """Run the block with ``n`` torch threads, then restore the count (a module fixture's body: one
    thread is fast and steady on a shared 2-core machine)."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)
