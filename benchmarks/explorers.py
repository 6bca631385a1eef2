"""Server-side time of the explorer pages: a first open and a rerun after each slider moves.

    .venv/bin/python benchmarks/explorers.py [--pages curves,weighting,...] [--repeats 3] [--out PATH]

Each page is opened through ``app.py`` in Streamlit's ``AppTest`` (the script the server runs, without
a browser): first with every ``st.cache_data`` cache empty (the first visitor after a restart), then
again in a fresh session (a later visitor: the shared caches are filled). Then every slider of the
page is dragged, in turn, to ``--repeats`` values it has not had yet (so no figure cache answers for
the slider itself), and each rerun is timed.
Imports are done by a warm-up page before anything is timed.

Reports wall and CPU seconds of the process (``time.process_time``: this machine is shared, and CPU
time is what other sessions feel), p50 and p95 over the reruns. Targets of issue 13: rerun p50 under
0.1 s, first chart under 3 s. Not a test: timing depends on the machine.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the repository root holds rlviz
sys.path.insert(0, str(ROOT / "tests"))  # apptools: open a page as a browser does

EXPLORERS = ("curves", "weighting", "length", "sampling", "advantages", "kl")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def slider_moves(at, repeats: int):
    """Yield (key, AppTest after the rerun, wall s, cpu s): each slider, in turn, dragged to
    ``repeats`` values it has not had yet (one step, two steps, ... from where it started, upwards
    while it can, else downwards), so a figure cache never answers for the slider itself; it is set
    back to where it started (not timed) before the next slider moves."""
    keys = [s.key for s in at.slider if not s.disabled]
    for key in keys:
        start = at.slider(key).value
        for k in range(1, repeats + 1):
            s = at.slider(key)
            if s.disabled:  # another widget's value disabled it
                break
            ranged = isinstance(start, (tuple, list))
            ref = start[1] if ranged else start
            new = ref + k * s.step
            if not s.min <= new <= s.max or (ranged and new <= start[0]):
                new = ref - k * s.step
            if not s.min <= new <= s.max or (ranged and new <= start[0]):
                break
            s.set_value((start[0], new) if ranged else new)
            at, wall, cpu = timed(at.run)
            yield key, at, wall, cpu
        if at.slider(key).value != start and not at.slider(key).disabled:
            at.slider(key).set_value(start)
            at = at.run()


def measure(page: str, repeats: int) -> dict:
    import streamlit as st
    from apptools import no_exception, open_page

    st.cache_data.clear()
    at, cold_wall, cold_cpu = timed(lambda: open_page(f"pages/{page}.py"))
    no_exception(at)
    at, warm_wall, warm_cpu = timed(lambda: open_page(f"pages/{page}.py"))
    walls, cpus, per_slider = [], [], {}
    for key, after, wall, cpu in slider_moves(at, repeats):
        no_exception(after)
        walls.append(wall)
        cpus.append(cpu)
        per_slider.setdefault(key, []).append(cpu)
    return {
        "first_open_empty_caches": {"wall_s": round(cold_wall, 3), "cpu_s": round(cold_cpu, 3)},
        "first_open_caches_filled": {"wall_s": round(warm_wall, 3), "cpu_s": round(warm_cpu, 3)},
        "reruns": len(walls),
        "rerun_wall_p50_s": round(statistics.median(walls), 3) if walls else None,
        "rerun_wall_p95_s": round(pct(walls, 0.95), 3) if walls else None,
        "rerun_cpu_p50_s": round(statistics.median(cpus), 3) if cpus else None,
        "rerun_cpu_p95_s": round(pct(cpus, 0.95), 3) if cpus else None,
        "rerun_cpu_p50_by_slider_s": {k: round(statistics.median(v), 3) for k, v in per_slider.items()},
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pages", default=",".join(EXPLORERS))
    p.add_argument("--repeats", type=int, default=3, help="new values each slider is dragged to")
    p.add_argument("--by-slider", action="store_true", help="print each slider's CPU p50 too")
    p.add_argument("--out", type=Path, default=None)
    a = p.parse_args(argv)
    for name in ("streamlit", "streamlit.runtime.caching", "streamlit.runtime.scriptrunner_utils"):
        logging.getLogger(name).setLevel(logging.ERROR)
    from apptools import open_page

    open_page("pages/home.py")  # imports (torch, plotly, the app) before anything is timed
    out = {}
    print(f"{'page':<12}{'first open s':>14}{'again s':>9}{'reruns':>8}{'p50 s':>8}{'p95 s':>8}   (CPU seconds)")
    for page in a.pages.split(","):
        r = out[page] = measure(page, a.repeats)
        print(
            f"{page:<12}{r['first_open_empty_caches']['cpu_s']:>14.2f}{r['first_open_caches_filled']['cpu_s']:>9.2f}"
            f"{r['reruns']:>8d}{r['rerun_cpu_p50_s'] or 0:>8.3f}{r['rerun_cpu_p95_s'] or 0:>8.3f}"
        )
        if a.by_slider:
            for key, v in r["rerun_cpu_p50_by_slider_s"].items():
                print(f"    {key:<30}{v:>8.3f}")
    if a.out is not None:
        a.out.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
