"""The first screen of every page, in headless chromium (issue 39): is the page's first chart in view
at 1400x900 and at 1024x768 (sidebar open), how many words stand above it, and how long after a click
on the page's sidebar link its first chart is drawn, on a warm server; and how long after a click on the live page's Run its progress shows in the first
screen (a small run: 2 objectives, 4 prompts x G 4, 3 steps; the page's stop ends each run).

    .venv/bin/python benchmarks/first_screen.py [--langs en,zh] [--widths 1400,1024] [--repeat 3]

Prints one row per page, language and width, then the counts and medians the issue asks for; writes
the rows as JSON to --out (default /tmp/rlviz-first-screen.json). Needs /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browsertools import LIVE_SMALL, launch, serve, settle  # noqa: E402
from firstscreen import CHART, click_run_timed, first_screen  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from rlviz.app_pages import PAGES  # noqa: E402
from rlviz.i18n import t  # noqa: E402

HEIGHT = {1400: 900, 1024: 768}


def click_to_chart(pg, server: str, entry, lang: str, repeat: int) -> list[float]:
    """Seconds from a click on ``entry``'s sidebar link (from the home page) to its first chart drawn."""
    times = []
    for _ in range(repeat):
        pg.goto(f"{server}/?lang={lang}")
        settle(pg)
        before = pg.locator("h1").first.inner_text()
        link = pg.locator("[data-testid=stSidebarNav]").get_by_role(
            "link", name=t(f"nav.{entry.key}", lang), exact=True
        )
        start = time.monotonic()
        link.click()
        try:
            pg.wait_for_function(
                """([sel, before]) => document.querySelector('h1')?.innerText !== before &&
                   [...document.querySelectorAll(sel)].some(c => c.checkVisibility() && c.querySelector('.main-svg'))""",
                arg=[CHART, before],
                timeout=60_000,
                polling=50,
            )
        except Exception:
            times.append(float("nan"))
            continue
        times.append(time.monotonic() - start)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--langs", default="en,zh")
    ap.add_argument("--widths", default="1400,1024")
    ap.add_argument("--repeat", type=int, default=3, help="clicks timed per page (English, 1400 px); 0: no timings")
    ap.add_argument("--live-runs", type=int, default=3, help="live runs timed from Run to progress in view")
    ap.add_argument("--pages", default="", help="comma-separated page keys (default: all)")
    ap.add_argument("--out", default="/tmp/rlviz-first-screen.json")
    args = ap.parse_args()
    langs = args.langs.split(",")
    widths = [int(w) for w in args.widths.split(",")]
    pages = [p for p in PAGES if not args.pages or p.key in args.pages.split(",")]
    rows = []
    with serve() as server, sync_playwright() as p:
        browser = launch(p)
        for width in widths:
            for lang in langs:
                context = browser.new_context(viewport={"width": width, "height": HEIGHT.get(width, 900)})
                pg = context.new_page()
                for entry in pages:
                    pg.goto(f"{server}/{entry.url_path}?lang={lang}")
                    settle(pg)
                    m = first_screen(pg)
                    row = {"page": entry.key, "lang": lang, "width": width, **m}
                    rows.append(row)
                    print(
                        f"{entry.key:11s} {lang} {width:5d}  chart in view: {str(m['chart_in_view']):5s}  "
                        f"top {m['chart_top']!s:>6}  words above {m['words_above']:5d}",
                        flush=True,
                    )
                context.close()
        if args.repeat:
            context = browser.new_context(viewport={"width": 1400, "height": 900})
            pg = context.new_page()
            charted = {r["page"] for r in rows if r.get("chart_in_view") or r.get("chart_top") is not None}
            settle_warm = [p for p in pages if not p.is_home and (p.key in charted or not rows)]  # no chart: no timing
            for entry in settle_warm:
                times = click_to_chart(pg, server, entry, "en", args.repeat)
                rows.append({"page": entry.key, "click_to_chart_s": times})
                print(f"{entry.key:11s} click -> first chart: {', '.join(f'{x:.2f}' for x in times)} s", flush=True)
            if args.live_runs:
                run_ms = []
                for _ in range(args.live_runs):
                    shown, _bars = click_run_timed(pg, f"{server}/{LIVE_SMALL.format(steps=3)}")
                    run_ms.append(shown / 1000)
                    pg.locator("[data-testid=stAlertContentSuccess]").wait_for(timeout=300_000)
                rows.append({"page": "live", "run_to_progress_s": run_ms})
                print(f"live Run -> progress in view: {', '.join(f'{x:.2f}' for x in run_ms)} s", flush=True)
            context.close()
        browser.close()
    print()
    for width in widths:
        for lang in langs:
            sel = [r for r in rows if r.get("width") == width and r.get("lang") == lang]
            if not sel:
                continue
            n = sum(r["chart_in_view"] for r in sel)
            med = statistics.median(r["words_above"] for r in sel)
            print(
                f"{width} px, {lang}: chart in the first screen on {n} of {len(sel)} pages; median words above {med:g}"
            )
    clicks = [statistics.median(r["click_to_chart_s"]) for r in rows if "click_to_chart_s" in r]
    if clicks:
        print(
            f"click -> first chart, median over pages of each page's median: {statistics.median(clicks):.2f} s; "
            f"worst page {max(clicks):.2f} s"
        )
    runs = [x for r in rows for x in r.get("run_to_progress_s", [])]
    if runs:
        print(f"live Run -> progress in view, median of {len(runs)}: {statistics.median(runs):.2f} s")
    Path(args.out).write_text(json.dumps(rows, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
