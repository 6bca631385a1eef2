"""CPU seconds of a page's script runs for a reader who arrives on it from the home page (issue 39),
through AppTest, which a busy machine's load moves far less than the browser's wall times.

    .venv/bin/python benchmarks/page_cpu.py [--pages weighting,sampling,length] [--repeat 5] [--root DIR]

For each page: one run of the home page, then the page's run (the arrival; timed with
``time.process_time``, all of the process's threads), then the run that follows it (with
``app_common.template.first_screen_only`` the browser asks for it at once: it draws the rest of the
page). Warm: the caches as the warm-up left them; cold: ``st.cache_data`` cleared just before the
arrival (modules imported, ``st.cache_resource`` kept, so the model's files are not read again).
Median of ``--repeat`` after one warm-up. ``--root``: the app to run (a checkout of another commit, to
compare; this repository by default); the charts counted on arrival say which code ran.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _quiet_apptest() -> None:
    """What tests/conftest.py does for every AppTest: the component scan once, and the session past
    Streamlit's legacy ``pages/`` mode (a real server leaves it on its first ``st.navigation``)."""
    from streamlit.components.v2 import manifest_scanner
    from streamlit.runtime.pages_manager import PagesManager

    scan = manifest_scanner.scan_component_manifests
    manifest_scanner.scan_component_manifests = functools.cache(lambda max_workers=None: scan(max_workers))
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    PagesManager.__init__ = init


def arrive(root: Path, page: str, cold: bool) -> tuple[float, float, int]:
    """(CPU seconds of the arrival run, of the run after it, charts drawn on arrival)."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(root / "app.py"), default_timeout=300)
    at.run()
    at.switch_page(f"pages/{page}.py")
    if cold:
        st.cache_data.clear()
    start = time.process_time()
    at.run()
    first = time.process_time() - start
    charts = len(at.get("plotly_chart"))
    start = time.process_time()
    at.run()
    rest = time.process_time() - start
    if at.exception:
        raise RuntimeError(f"{page}: {at.exception[0].message}")
    return first, rest, charts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", default="weighting,sampling,length")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--root", default=str(ROOT))
    args = ap.parse_args()
    root = Path(args.root).resolve()
    sys.path[:0] = [str(root)]
    os.chdir(root)
    _quiet_apptest()
    for page in args.pages.split(","):
        arrive(root, page, cold=False)  # the warm-up: imports, caches
        for cold in (False, True):
            runs = [arrive(root, page, cold) for _ in range(args.repeat)]
            first = statistics.median(r[0] for r in runs)
            rest = statistics.median(r[1] for r in runs)
            print(
                f"{page:10s} {'cold' if cold else 'warm'}: arrival {first:.3f} s CPU ({runs[0][2]} charts), "
                f"the run after it {rest:.3f} s; load average {os.getloadavg()[0]:.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
