"""A classroom on one server: N real browser sessions at once against one rlviz server.

    .venv/bin/python benchmarks/load.py [--sessions 30] [--runs 4] [--pages curves,weighting,...]
        [--out PATH] [--port 8799]

Starts ``streamlit run app.py`` on 127.0.0.1 (the server's own process, as ``make run`` does), then
drives it with Playwright (Debian's chromium, headless, one browser, one context per session):

1. warm-up: one session opens every page once (caches filled, models loaded); the server's resident
   memory after it closes is the baseline;
2. quiet: every session opens each explorer page and waits for its first chart, then moves its first
   slider one step (a rerun) and waits for the page to settle;
3. busy: ``--runs`` sessions start a short live run (3 steps, 4 prompts x G 4) while the others repeat
   step 2;
4. all sessions close; the server's memory is read again once Streamlit has dropped them (it keeps a
   closed session for server.disconnectedSessionTTL, 120 s).

Reports (and writes as JSON with ``--out``): errors (an exception box, an error message, a page that
never settles, a browser error), per page p50 / p95 of the time to the first chart and of a slider's
rerun, quiet and busy, the server's peak resident memory and its memory after the sessions closed,
against the baseline. Targets of issue 12: 30 sessions, zero errors, explorer p95 under 2 s while
runs go, memory back within 10% of the baseline. Not a test: timing depends on the machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root holds rlviz

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import threading
import time
import urllib.request

from playwright.async_api import async_playwright

ROOT = Path(__file__).resolve().parent.parent
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
CHART = "[data-testid=stPlotlyChart], .js-plotly-plot"
EXPLORERS = ("curves", "weighting", "length", "sampling", "advantages", "kl")
LIVE = "live?lv_steps=3&lv_prompts=4&lv_G=4&lv_mu=1&lv_heldout=0"


def rss_kib(pid: int) -> int:
    """Resident memory of process ``pid`` and its children, KiB (from /proc)."""
    total = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


class MemoryWatch(threading.Thread):
    """Samples the server's resident memory every 0.2 s; ``peak`` in KiB."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stop = pid, 0, threading.Event()

    def run(self):
        while not self.stop.is_set():
            self.peak = max(self.peak, rss_kib(self.pid))
            time.sleep(0.2)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


async def settle(page, timeout: float) -> None:
    await page.wait_for_selector("h1", timeout=timeout * 1000)
    await page.wait_for_selector(IDLE, timeout=timeout * 1000)


async def errors_on(page) -> list[str]:
    found = []
    if await page.locator("[data-testid=stException]").count():
        found.append("exception box")
    for alert in await page.locator("[data-testid=stAlertContentError]").all():
        found.append("error: " + (await alert.inner_text())[:120])
    return found


async def explore(page, base: str, pages: list[str], record: dict, errors: list, label: str, timeout: float):
    """Open each page, time its first chart, move its first slider, time the rerun."""
    for name in pages:
        t0 = time.perf_counter()
        try:
            await page.goto(f"{base}/{name}", wait_until="commit")
            await page.wait_for_selector(CHART, timeout=timeout * 1000)
            record.setdefault((label, name, "first_chart"), []).append(time.perf_counter() - t0)
            await settle(page, timeout)
            slider = page.locator("[data-testid=stSlider] input[type=range]").first
            if await slider.count():
                t1 = time.perf_counter()
                await slider.focus()
                await slider.press("ArrowRight")
                await page.wait_for_timeout(150)  # the rerun starts after the widget's debounce
                await settle(page, timeout)
                record.setdefault((label, name, "rerun"), []).append(time.perf_counter() - t1)
            errors += [f"{label} {name}: {e}" for e in await errors_on(page)]
        except Exception as exc:  # noqa: BLE001 - a page that never settles is an error to report
            errors.append(f"{label} {name}: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")


async def start_run(page, base: str, errors: list, timeout: float) -> None:
    try:
        await page.goto(f"{base}/{LIVE}")
        await settle(page, timeout)
        await page.locator(".st-key-lv_run button").click()
    except Exception as exc:  # noqa: BLE001
        errors.append(f"run: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")


async def finish_run(page, errors: list, timeout: float) -> None:
    try:
        await page.wait_for_selector("[data-testid=stAlertContentSuccess]", timeout=timeout * 1000)
        errors += [f"run: {e}" for e in await errors_on(page)]
    except Exception as exc:  # noqa: BLE001
        errors.append(f"run: never finished ({type(exc).__name__})")


async def main_async(a) -> dict:
    base = f"http://127.0.0.1:{a.port}"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
        + ["--server.port", str(a.port), "--server.address", "127.0.0.1"],
        cwd=ROOT,
        env=env,
        stdout=open(a.log, "w"),
        stderr=subprocess.STDOUT,
    )
    for _ in range(120):
        try:
            urllib.request.urlopen(f"{base}/_stcore/health", timeout=1)
            break
        except OSError:
            time.sleep(0.5)
    watch = MemoryWatch(server.pid)
    watch.start()
    record: dict = {}
    errors: list[str] = []
    pages = a.pages.split(",")
    try:
        async with async_playwright() as p:
            browser = await p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
            )
            # 1. warm-up
            ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
            page = await ctx.new_page()
            await explore(page, base, pages, {}, errors, "warm-up", a.timeout)
            await ctx.close()
            await asyncio.sleep(3)
            baseline = rss_kib(server.pid)
            contexts = [await browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(a.sessions)]
            tabs = [await c.new_page() for c in contexts]
            for tab in tabs:
                tab.on("pageerror", lambda exc: errors.append(f"browser: {str(exc)[:120]}"))
            # 2. quiet
            t0 = time.perf_counter()
            await asyncio.gather(*(explore(t, base, pages, record, errors, "quiet", a.timeout) for t in tabs))
            quiet_s = time.perf_counter() - t0
            # 3. busy: some sessions train while the others explore
            runners, explorers = tabs[: a.runs], tabs[a.runs :]
            await asyncio.gather(*(start_run(t, base, errors, a.timeout) for t in runners))
            t0 = time.perf_counter()
            await asyncio.gather(
                *(explore(t, base, pages, record, errors, "busy", a.timeout) for t in explorers),
                *(finish_run(t, errors, a.timeout * 4) for t in runners),
            )
            busy_s = time.perf_counter() - t0
            # 4. close every session
            for c in contexts:
                await c.close()
            await browser.close()
        await asyncio.sleep(a.settle)
        after = rss_kib(server.pid)
    finally:
        watch.stop.set()
        server.terminate()
        server.wait(10)
    table = {}
    for (label, name, what), values in sorted(record.items()):
        table[f"{label}/{name}/{what}"] = {
            "n": len(values),
            "p50_s": round(statistics.median(values), 3),
            "p95_s": round(pct(values, 0.95), 3),
        }
    return {
        "sessions": a.sessions,
        "runs": a.runs,
        "pages": pages,
        "errors": errors,
        "times": table,
        "quiet_seconds": round(quiet_s, 1),
        "busy_seconds": round(busy_s, 1),
        "memory_mib": {
            "baseline": round(baseline / 1024, 1),
            "peak": round(watch.peak / 1024, 1),
            "after_close": round(after / 1024, 1),
            "after_vs_baseline": round(after / baseline - 1, 3) if baseline else None,
        },
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sessions", type=int, default=30)
    p.add_argument("--runs", type=int, default=4)
    p.add_argument("--pages", default=",".join(EXPLORERS))
    p.add_argument("--port", type=int, default=8799)
    p.add_argument("--timeout", type=float, default=120.0, help="seconds a page may take to settle")
    p.add_argument(
        "--settle",
        type=float,
        default=150.0,
        help="seconds after the sessions close (Streamlit keeps a closed session 120 s)",
    )
    p.add_argument("--log", default="/tmp/rlviz-load-server.log")
    p.add_argument("--out", type=Path, default=None)
    a = p.parse_args(argv)
    out = asyncio.run(main_async(a))
    for key, row in out["times"].items():
        print(f"{key:45s} n={row['n']:3d}  p50 {row['p50_s']:6.2f} s  p95 {row['p95_s']:6.2f} s")
    print(f"errors: {len(out['errors'])}", *out["errors"][:20], sep="\n  ")
    print("memory (MiB):", out["memory_mib"])
    if a.out is not None:
        a.out.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
