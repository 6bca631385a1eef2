"""Shared by the real-browser tests (tests/test_browser.py, tests/test_browser_flows.py): a
``streamlit run app.py`` server on a free loopback port, Debian's headless chromium through
Playwright, and the waits and checks both files use. Each test file gets its own server and browser
(the module-scoped fixtures ``server`` and ``browser`` in tests/conftest.py); ``make test``
distributes by file, so each file runs on one worker."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("RLVIZ_ARTIFACTS", "/tmp/rlviz-screens"))
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
REST_PENDING = ".st-key-rlviz_rest_pending"  # app_common.template.REST_PENDING_KEY: the rest of a page is coming

FULL_SCREENS = os.environ.get("RLVIZ_FULL_SCREENS") == "1"

# every real-browser test module sets ``pytestmark = BROWSER``
BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(n: int) -> int:
    """A port p with p, p + 1, ..., p + n - 1 all free on 127.0.0.1 (for ``make run-replicas`` and
    ``make run-balanced``, which take consecutive ports)."""
    for _ in range(50):
        port = free_port()
        try:
            for k in range(1, n):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port + k))
            return port
        except OSError:
            continue
    raise RuntimeError(f"no {n} consecutive free ports")


def gone(pid: int, seconds: float = 10.0) -> bool:
    """Whether process ``pid`` has exited (or is a zombie) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        stat = Path(f"/proc/{pid}/stat")
        try:
            if stat.read_text().rsplit(")", 1)[1].split()[0] == "Z":
                return True
        except OSError:  # no such process
            return True
        time.sleep(0.25)
    return False


def wait_healthy(url: str, proc: subprocess.Popen, seconds: float, what: str, log) -> None:
    """Wait until ``url``'s Streamlit health endpoint answers 200 (directly or through a balancer);
    kill ``proc`` and fail the test, with the end of ``log()``, if it exits or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"{what} did not become healthy (exit code {proc.poll()}): {log()[-2000:]}")
        time.sleep(0.3)


def environment(pid: int) -> dict[str, str]:
    """Process ``pid``'s environment (Linux ``/proc``)."""
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(x.decode().split("=", 1) for x in raw if b"=" in x)


@contextlib.contextmanager
def make_target(target: str, **variables: object):
    """``make TARGET NAME=VALUE ...`` in the repository, in a process group of its own and with
    SIGINT's default action, as a terminal gives it (``RLVIZ_CONCURRENT_STEPS`` left to the
    Makefile's default); yields the ``Popen``. The
    whole group is killed at the end, whatever the test did."""
    env = {k: v for k, v in os.environ.items() if k != "RLVIZ_CONCURRENT_STEPS"}
    args = ["make", "--no-print-directory", target, *(f"{k}={v}" for k, v in variables.items())]
    # Ctrl-C reaches a terminal's programs; a test run started in the background (as `cmd &` from a
    # script starts it) ignores SIGINT, and every program started from it would inherit that. A small
    # Python restores SIGINT's default and becomes make (exec keeps it); no preexec_fn, which is not
    # safe beside the browser's threads.
    default_sigint = (
        "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", default_sigint, *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def ctrl_c(make: subprocess.Popen, pids: list[int]) -> None:
    """Ctrl-C in ``make``'s terminal (SIGINT to its process group); each of ``pids`` must stop."""
    os.killpg(make.pid, signal.SIGINT)
    try:
        make.wait(60)
    except subprocess.TimeoutExpired:
        left = subprocess.run(["ps", "-o", "pid,stat,etime,args", "-g", str(make.pid)], capture_output=True, text=True)
        raise AssertionError(f"make still running 60 s after Ctrl-C; its group:\n{left.stdout}") from None
    for pid in pids:  # a replica saving its state on a loaded machine (two test workers) can take a while
        assert gone(pid, 30.0), f"process {pid} still running 30 s after Ctrl-C"


def check_replicas(ports: list[int]) -> list[int]:
    """The pids of the ``streamlit run`` processes on ``ports`` (``make run-replicas``,
    ``make run-balanced``), after checking that there is one per port, that they share one random
    cookie secret (64 hex digits) and that each computes one training step at a time."""
    pattern = f"streamlit run app.py .*--server.port ({'|'.join(map(str, ports))})$"
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True)
    pids = [int(x) for x in found.stdout.split()]
    assert len(pids) == len(ports), (pattern, pids)
    envs = [environment(pid) for pid in pids]
    shared = {e.get("STREAMLIT_SERVER_COOKIE_SECRET") for e in envs}
    assert len(shared) == 1 and len(next(iter(shared)) or "") == 64, "one random cookie secret for all"
    assert {e.get("RLVIZ_CONCURRENT_STEPS") for e in envs} == {"1"}
    return pids


@contextlib.contextmanager
def serve(env: dict[str, str] | None = None, port: int | None = None):
    """``streamlit run app.py`` on a loopback port (``port``, or a free one), with ``env`` added to
    the environment; yields its URL once healthy."""
    port = port or free_port()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log_path = ARTIFACTS / f"streamlit-{port}.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
        ],
        cwd=ROOT,
        # one torch thread: `make test` runs the server beside a pytest worker and chromium on two cores,
        # and torch's default (a thread per core) made the three fight over them
        # and a limit of steps above the 400 the mid-run flow starts (it must still be running at Stop)
        env={**os.environ, "OMP_NUM_THREADS": "1", "RLVIZ_MAX_STEPS": "1000", **(env or {})},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    wait_healthy(url, proc, 90, "streamlit", lambda: log_path.read_text())
    try:
        yield url
    finally:  # a test that fails inside the block must not leave its server running
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


LOCAL = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")


def launch(playwright):
    """Debian's chromium, headless, with nothing that reaches the network on its own."""
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    )


def settle(pg, timeout_ms: int = 90_000) -> None:
    pg.wait_for_selector("h1", timeout=timeout_ms)
    pg.wait_for_selector(IDLE, timeout=timeout_ms)
    pg.wait_for_timeout(800)  # let plotly and katex draw
    # a page drawn first screen first (app_common.template.draw_rest_later): its rest's run has replaced it
    pg.wait_for_selector(REST_PENDING, state="detached", timeout=timeout_ms)
    pg.wait_for_selector(IDLE, timeout=timeout_ms)


def wait_count(pg, selector: str, at_least: int, timeout_ms: int = 60_000) -> None:
    """Wait until ``selector`` matches at least ``at_least`` elements (charts render lazily)."""
    pg.wait_for_function(
        "([sel, n]) => document.querySelectorAll(sel).length >= n", arg=[selector, at_least], timeout=timeout_ms
    )


def check_and_shoot(pg, name: str) -> None:
    """No exception element on the page; a screenshot of it (the whole page with RLVIZ_FULL_SCREENS=1:
    the viewport grows to the page's height first, which redraws every chart, so it is opt-in)."""
    exceptions = pg.locator("[data-testid=stException]")
    assert exceptions.count() == 0, exceptions.first.inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if not FULL_SCREENS:
        pg.screenshot(path=str(ARTIFACTS / f"{name}.png"))
        return
    size = pg.viewport_size
    height = pg.evaluate("document.querySelector('[data-testid=stMain]').scrollHeight")
    pg.set_viewport_size({"width": size["width"], "height": max(size["height"], min(int(height) + 40, 12000))})
    pg.wait_for_timeout(500)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    pg.set_viewport_size(size)


def no_exception_now(pg) -> None:
    exceptions = pg.locator("[data-testid=stException]")
    assert exceptions.count() == 0, exceptions.first.inner_text()


def wait_idle_after_click(pg, timeout_ms: int = 300_000) -> None:
    pg.wait_for_timeout(1000)
    pg.wait_for_selector(IDLE, timeout=timeout_ms)
    pg.wait_for_timeout(1000)
    pg.wait_for_selector(IDLE, timeout=timeout_ms)


# a small live comparison: two objectives, 4 prompts x G 4, one held-out prompt
LIVE_SMALL = "live?lv_algos=GRPO&lv_algos=SAPO&lv_steps={steps}&lv_prompts=4&lv_G=4&lv_heldout=0"


# a formula wider than its column (KaTeX display math): its text
OVERFLOWING_FORMULAS = """() => [...document.querySelectorAll('.katex-display')]
    .filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.textContent.slice(0, 50))"""


# A link to another page whose label is cut: Streamlit keeps a page link on one line and hides what does not fit,
# with no ellipsis (found by a new learner: "Reproduce it on the Live policy update" at 1024 px, "page" gone).
CUT_PAGE_LINKS = """() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stPageLink-NavLink]')]
    .filter(a => a.checkVisibility()
        && [a, ...a.querySelectorAll('*')].some(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1))
    .map(a => a.innerText.trim().slice(0, 80))"""


def page_links_fit(page) -> None:
    """Every link to another page in the page's main area shows its whole label at the tab's width."""
    width = page.viewport_size["width"]
    assert page.evaluate(CUT_PAGE_LINKS) == [], f"page links cut at {width} px: {page.evaluate(CUT_PAGE_LINKS)}"


def formulas_fit(page) -> None:
    """Every formula fits its column at the tab's width with the sidebar open (none scrolls sideways)."""
    assert page.locator("[data-testid=stSidebar]").is_visible()
    page.evaluate("document.fonts.ready")  # KaTeX lays out again once its fonts are in
    with contextlib.suppress(Exception):  # give the layout a few seconds, then read the result
        page.wait_for_function(f"({OVERFLOWING_FORMULAS})().length === 0", timeout=8000)
    width = page.viewport_size["width"]
    assert page.evaluate(OVERFLOWING_FORMULAS) == [], f"formulas wider than their column at {width} px"
