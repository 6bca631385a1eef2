"""Server-side CPU of one slider change on each explorer page, as a browser makes it.

    .venv/bin/python benchmarks/explorer_reruns.py [--pages curves,weighting,...] [--repeats 3] [--out PATH]

Starts ``streamlit run app.py`` on 127.0.0.1 (as ``make run`` does) and drives it with Playwright
(Debian's chromium, headless, under Linux's SCHED_IDLE policy so that the browser takes only the CPU
the server leaves). Each page is opened three times by its address (the time to its first chart, as
the browser sees it, is the median; the first opening fills the server's caches); then every enabled slider of the page, in turn, is moved with the keyboard to ``--repeats``
values it has not had (one, two, ... steps from where it started: a figure cache never answers for
the slider itself), and the server process's CPU seconds (user + system, from /proc, all its threads:
the script, Streamlit's serialisation and websocket) are read from the key press until the server is
quiet again. A slider inside an ``st.fragment`` reruns only its fragment, as in use; the others rerun
the page. Then each slider steps back once, to a value the session has had ("back": what the
page's caches and replayed figures save when a student moves a slider to and fro); the p50 and p95
are of the new values only.

The first chart is also timed on a bare page (``benchmarks/floor_page.py``: a title and one small
plotly chart, on a second server, the median of four openings), the floor of what Streamlit,
plotly.js and chromium cost here.

This is what issue 13 asks of an explorer ("server-side time of one rerun after a slider change"):
``benchmarks/explorers.py`` measures the same moves through ``AppTest``, which reruns the whole page
every time and adds its own element-tree parsing to the process's CPU. Targets: rerun p50 under
0.1 s, first chart under 3 s. Not a test: timing depends on the machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root holds rlviz
sys.path.insert(0, str(Path(__file__).resolve().parent))

import argparse
import json
import socket
import statistics
import time
from types import SimpleNamespace

from load import EXPLORERS, IDLE, cpu_seconds, idle_browser, pct, start_server
from playwright.sync_api import sync_playwright

CHART = "[data-testid=stPlotlyChart]"
# a widget's key, from the st-key-<key> class Streamlit puts on its container
KEY_JS = "e => ((e.closest('[class*=\"st-key-\"]') || e).className.match(/st-key-(\\S+)/) || [])[1] || null"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def quiet_cpu(pid: int, still: float = 0.25, timeout: float = 60.0) -> float:
    """The server's CPU seconds once they stop growing (two reads ``still`` seconds apart agree to
    10 ms: the rerun and the messages after it are done)."""
    last = cpu_seconds(pid)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(still)
        now = cpu_seconds(pid)
        if now - last < 0.01:
            return now
        last = now
    return last


def settle(page, timeout_ms: int = 120_000) -> None:
    page.wait_for_selector("h1", timeout=timeout_ms)
    page.wait_for_selector(IDLE, timeout=timeout_ms)


def slider_values(thumb) -> tuple[float, float, float]:
    """(value, min, max) of a slider thumb (Streamlit's slider: a visually hidden ``input type=range``
    per thumb)."""
    return thumb.evaluate("e => [Number(e.value), Number(e.min), Number(e.max)]")


def first_chart(page, url: str, times: int = 3) -> float:
    """Median wall seconds from opening ``url`` to its first chart in the browser, over ``times``
    openings (the first fills the server's caches, as any earlier visitor would have)."""
    seconds = []
    for _ in range(times):
        t0 = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_selector(CHART, timeout=120_000)
        seconds.append(time.perf_counter() - t0)
        settle(page)
    return statistics.median(seconds)


def measure(page, base: str, pid: int, name: str, repeats: int) -> dict:
    """Open page ``name`` (the first chart timed), then move each slider; the CPU of each rerun."""
    first = first_chart(page, f"{base}/{name}")
    quiet_cpu(pid)
    errors = [f"{name}: {e}" for e in errors_on_sync(page)]
    cpus, per_slider, backs = [], {}, []
    count = page.locator("[data-testid=stSlider]").count()
    for i in range(count):
        slider = page.locator("[data-testid=stSlider]").nth(i)
        thumb = slider.locator("input[type=range]").last  # a range slider: its upper end
        if not thumb.count() or thumb.is_disabled():
            continue
        key = slider.evaluate(KEY_JS) or f"slider {i}"
        now, low, high = slider_values(thumb)
        if low == high:
            continue
        direction = "ArrowRight" if now < high else "ArrowLeft"
        for _ in range(repeats):  # one step further each time: a value the slider has not had
            now, low, high = slider_values(thumb)
            if (direction == "ArrowRight" and now >= high) or (direction == "ArrowLeft" and now <= low):
                break
            cpu = press(page, pid, thumb, direction)
            cpus.append(cpu)
            per_slider.setdefault(key, []).append(cpu)
        if per_slider.get(key):  # then one step back: a value this session has had (its caches answer)
            backs.append(press(page, pid, thumb, "ArrowLeft" if direction == "ArrowRight" else "ArrowRight"))
        errors += [f"{name} {key}: {e}" for e in errors_on_sync(page)]
    return {
        "first_chart_s": round(first, 2),
        "reruns": len(cpus),
        "rerun_cpu_p50_s": round(statistics.median(cpus), 3) if cpus else None,
        "rerun_cpu_p95_s": round(pct(cpus, 0.95), 3) if cpus else None,
        "rerun_cpu_p50_by_slider_s": {k: round(statistics.median(v), 3) for k, v in per_slider.items()},
        "back_cpu_p50_s": round(statistics.median(backs), 3) if backs else None,
        "errors": errors,
    }


def press(page, pid: int, thumb, key: str) -> float:
    """Press ``key`` on a slider's thumb; the server's CPU seconds until it is quiet again."""
    c0 = cpu_seconds(pid)
    thumb.focus()
    thumb.press(key)
    page.wait_for_timeout(150)  # the widget's debounce, then the rerun starts
    settle(page)
    return quiet_cpu(pid) - c0


def errors_on_sync(page) -> list[str]:
    found = []
    if page.locator("[data-testid=stException]").count():
        found.append("exception box")
    for alert in page.locator("[data-testid=stAlertContentError]").all():
        found.append("error: " + alert.inner_text()[:120])
    return found


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pages", default=",".join(EXPLORERS))
    p.add_argument("--repeats", type=int, default=3, help="new values each slider is moved to")
    p.add_argument("--by-slider", action="store_true", help="print each slider's CPU p50 too")
    p.add_argument("--out", type=Path, default=None)
    a = p.parse_args(argv)
    port, floor_port = free_port(), free_port()
    server = start_server(SimpleNamespace(port=port, log="/tmp/rlviz-explorer-reruns.log"))
    floor = start_server(
        SimpleNamespace(port=floor_port, log="/tmp/rlviz-floor-page.log"), script="benchmarks/floor_page.py"
    )
    base = f"http://127.0.0.1:{port}"
    out = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=idle_browser(), args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.goto(f"{base}/advantages")  # imports and the model before anything is timed
            settle(page)
            out["floor"] = {"first_chart_s": round(first_chart(page, f"http://127.0.0.1:{floor_port}/", 4), 2)}
            floor.terminate()
            print(
                f"{'page':<12}{'first chart s':>15}{'reruns':>8}{'p50 s':>8}{'p95 s':>8}{'back s':>8}"
                "   (server CPU seconds)"
            )
            print(f"{'(floor)':<12}{out['floor']['first_chart_s']:>15.2f}   a bare page: a title and one small chart")
            for name in a.pages.split(","):
                r = out[name] = measure(page, base, server.pid, name, a.repeats)
                print(
                    f"{name:<12}{r['first_chart_s']:>15.2f}{r['reruns']:>8d}"
                    f"{r['rerun_cpu_p50_s'] or 0:>8.3f}{r['rerun_cpu_p95_s'] or 0:>8.3f}{r['back_cpu_p50_s'] or 0:>8.3f}",
                    flush=True,
                )
                if a.by_slider:
                    for key, v in r["rerun_cpu_p50_by_slider_s"].items():
                        print(f"    {key:<30}{v:>8.3f}")
                for e in r["errors"]:
                    print(f"    error: {e}")
            browser.close()
    finally:
        for proc in (server, floor):
            proc.terminate()
            proc.wait(15)
    if a.out is not None:
        a.out.write_text(json.dumps(out, indent=1) + "\n")
    return 1 if any(r.get("errors") for r in out.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
