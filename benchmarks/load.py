"""A classroom on one server: N real browser sessions at once against one rlviz server.

    .venv/bin/python benchmarks/load.py [--sessions 30] [--browsers K] [--runs 4] [--abandon 2]
        [--think 5] [--pages curves,weighting,...] [--restart] [--out PATH] [--port 8799]
        [--url http://server:8501] [--replicas N [--balancer]]

Starts ``streamlit run app.py`` on 127.0.0.1 (the server's own process, as ``make run`` does), or
with ``--url`` drives a server running elsewhere (the browsers on this machine, the server on its
own, as in a class; then without memory, CPU and restart figures), then
drives it with Playwright (Debian's chromium, headless, one browser, one context per session):

1. warm-up: one session opens every page once (models loaded, the default figures cached); the
   server's resident memory ``--settle`` seconds after it closes (the session dropped and the
   server's trimmer run since, as when "after" is read in step 4) is the baseline;
2. quiet: the sessions arrive over ``--ramp`` seconds; each opens the first explorer page by its
   address (the browser loads the app: ``first_chart``) and the others by their sidebar links, as a
   student does (``nav_chart``: the same session), waits for the page's first chart, thinks (a random pause, ``--think`` seconds on average), drags the page's first slider
   1 to 3 steps (its own draw: sessions do not all ask for the same figure) and waits for the rerun;
3. busy: ``--runs`` sessions open a link to the live page (its settings in the URL) and start a short
   live run (3 steps, 4 prompts x G 4) and ``--abandon``
   others start a longer one and close their browser mid-run, while the rest repeat step 2, each
   after a pause of its own (as between pages), since a class is not in step;
4. all sessions close; the server's memory is read again once Streamlit has dropped them (it keeps a
   closed session for server.disconnectedSessionTTL, 120 s);
5. with ``--restart``: the server is restarted under a page left open in a few sessions, and each
   of them must reconnect and draw its charts again without an error.

Reports (and writes as JSON with ``--out``): errors (an exception box, an error message, a page that
never settles, a browser error), per page p50 / p95 of the time to the first chart (after a full load
or a click in the sidebar) and of a slider's rerun, quiet and busy, the server's peak resident memory and its memory after the sessions closed,
against the baseline, and the server's CPU use (cores) in each phase. Times are seen from the
browser, which shares this machine's two cores with the server (in a classroom each student's
browser runs on their own machine): the browsers run under SCHED_IDLE (``--no-idle-browsers`` turns
it off), so they take only the CPU the server leaves; a page still waits for its tab to draw it. Targets of issue 12:
30 sessions, zero errors, explorer p95 under 2 s while runs go, memory back within 10% of the
baseline. Not a test: timing depends on the machine.

With ``--browsers K`` only K of the sessions are chromium tabs; the others speak Streamlit's
websocket protocol themselves (``benchmarks/protocol_session.py``): the same requests a browser
sends, in the same order and with the same pauses (a page by its address, the others from the
sidebar, a slider moved 1-3 steps, Run pressed, a connection dropped mid-run), timed until the
server has sent the page's first chart (``sent_first_chart``, ``sent_nav_chart``) and until a
rerun's script run has finished (``sent_rerun``). They load the server as a class does, whose
browsers run on the students' machines, without thirty tabs drawing on the server's two cores; the
K browsers time what a student sees, drawing included. The live runs (``--runs``, ``--abandon``)
go to protocol sessions first.

With ``--replicas N`` the class is served by N server processes on ports ``--port`` .. ``--port`` +
N - 1, all with one cookie secret (README "Serving a class", "Several replicas"), and session k always talks
to replica k mod N, as a load balancer with sticky sessions sends it. Each replica keeps its own
limits, so give each its share of the machine through the environment the benchmark passes on
(``RLVIZ_CONCURRENT_STEPS=1`` for two replicas on two cores). Memory and CPU are the replicas'
sums; the warm-up opens every page once on each replica. With ``--balancer`` the sessions go
through HAProxy instead (``rlviz.balancer``'s configuration, as ``make run-balanced`` serves a class,
on the port after the replicas'): a browser is kept on its replica by the cookie, a protocol session
by its one WebSocket, and each new one goes to the replica with the fewest open connections.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository root holds rlviz
sys.path.insert(0, str(Path(__file__).resolve().parent))  # protocol_session

import argparse
import asyncio
import json
import math
import os
import random
import secrets
import statistics
import subprocess
import threading
import time
import urllib.request

from playwright.async_api import async_playwright
from protocol_session import ProtocolSession

ROOT = Path(__file__).resolve().parent.parent
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
CHART = "[data-testid=stPlotlyChart], .js-plotly-plot"
EXPLORERS = ("curves", "weighting", "length", "sampling", "advantages", "kl")
LIVE = "live?lv_steps=3&lv_prompts=4&lv_G=4&lv_mu=1&lv_heldout=0"
LONG = "live?lv_steps=40&lv_prompts=8&lv_G=8&lv_mu=1&lv_heldout=0"  # closed mid-run


def cpu_seconds(pid: int | None) -> float:
    """CPU seconds (user + system) the process ``pid`` has used so far, from /proc (NaN: none)."""
    if pid is None:
        return float("nan")
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def machine_seconds() -> float:
    """CPU seconds the whole machine has been busy (all cores: /proc/stat's first line without idle
    and iowait; NaN where there is none)."""
    try:
        ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return float("nan")
    return (sum(ticks[:8]) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # user .. steal, less idle, iowait


def own_seconds() -> float:
    """CPU seconds of this process (the benchmark: its protocol sessions and Playwright's client)."""
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def idle_browser() -> str:
    """A chromium launcher under Linux's SCHED_IDLE policy (``chrt --idle 0``), inherited by every
    browser process and kept whatever niceness chromium sets itself: the browsers use only the CPU
    the server leaves, as if they ran on the students' own machines. Plain chromium where ``chrt``
    is missing."""
    import shutil
    import tempfile

    if shutil.which("chrt") is None:
        return "/usr/bin/chromium"
    path = Path(tempfile.gettempdir()) / "rlviz-idle-chromium.sh"
    path.write_text('#!/bin/sh\nexec chrt --idle 0 /usr/bin/chromium "$@"\n')
    path.chmod(0o755)
    return str(path)


class RemoteServer:
    """A server this script did not start (``--url``): nothing to measure in /proc, to stop or restart."""

    pid = None

    def terminate(self) -> None:
        pass

    def wait(self, timeout=None) -> None:
        pass


def rss_kib(pid: int | None) -> int:
    """Resident memory of process ``pid`` and its children, KiB (from /proc); 0 for no process."""
    if pid is None:
        return 0
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


class Servers:
    """The replicas serving the class (one unless ``--replicas``): their summed CPU seconds and
    resident memory."""

    def __init__(self, procs: list):
        self.procs = procs

    def cpu(self) -> float:
        return sum(cpu_seconds(p.pid) for p in self.procs)

    def rss(self) -> int:
        return sum(rss_kib(p.pid) for p in self.procs)


def phase_start(servers: Servers) -> tuple[float, float, float, float]:
    """The clocks a phase is measured from: wall, the servers' CPU, the machine's, this process's."""
    return time.perf_counter(), servers.cpu(), machine_seconds(), own_seconds()


def phase_end(label: str, start: tuple, servers: Servers, errors: list) -> tuple[float, float, tuple[float, float]]:
    """Prints and returns a phase's wall seconds, the servers' busy cores and (the machine's busy
    cores, this benchmark's own), measured since :func:`phase_start`."""
    t0, c0, m0, d0 = start
    seconds = time.perf_counter() - t0
    cores = (servers.cpu() - c0) / seconds
    machine = ((machine_seconds() - m0) / seconds, (own_seconds() - d0) / seconds)
    print(
        f"{label} phase: {seconds:.0f} s, server {cores:.2f} cores (machine {machine[0]:.2f}, "
        f"this benchmark {machine[1]:.2f}), errors so far {len(errors)}",
        flush=True,
    )
    return seconds, cores, machine


class MemoryWatch(threading.Thread):
    """Samples the servers' summed resident memory every 0.2 s; ``peak`` in KiB."""

    def __init__(self, servers: Servers):
        super().__init__(daemon=True)
        self.servers, self.peak, self.stop = servers, 0, threading.Event()

    def run(self):
        while not self.stop.is_set():
            self.peak = max(self.peak, self.servers.rss())
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


NEW_PAGE_CHART = """([title]) => {
  const h1 = document.querySelector('h1');
  const fresh = [...document.querySelectorAll('[data-testid=stPlotlyChart]')].filter(
    (c) => (c.closest('[data-testid=stElementContainer]') || c).getAttribute('data-stale') !== 'true');
  return h1 && h1.innerText !== title && fresh.length > 0;
}"""


async def open_page(page, base: str, name: str, timeout: float) -> str:
    """Go to page ``name``: the first time in a session by its address (the browser loads the app),
    then as a student does, by its link in the sidebar (the same Streamlit session; "View more"
    first where the list is folded). Returns once the new page's first chart is drawn; what is timed
    is ``first_chart`` (a full load) or ``nav_chart`` (a click in the app)."""
    link = page.locator(f"[data-testid=stSidebarNavLink][href$='/{name}']")
    if not page.url.startswith(base) or not await page.locator("h1").count():
        await page.goto(f"{base}/{name}", wait_until="commit")
        await page.wait_for_selector(CHART, timeout=timeout * 1000)
        return "first_chart"
    title = await page.locator("h1").first.inner_text()
    if not await link.count() or not await link.first.is_visible():
        more = page.locator("[data-testid=stSidebarNavViewButton]")
        if await more.count():
            await more.first.click()
    await link.first.click()
    await page.wait_for_function(NEW_PAGE_CHART, arg=[title], timeout=timeout * 1000)
    return "nav_chart"


async def explore(
    page, base: str, pages: list[str], record: dict, errors: list, label: str, timeout: float, rng, think: float
):
    """Open each page, time its first chart, think, drag its first slider 1-3 steps, time the rerun."""
    for name in pages:
        t0 = time.perf_counter()
        try:
            how = await open_page(page, base, name, timeout)
            record.setdefault((label, name, how), []).append(time.perf_counter() - t0)
            await settle(page, timeout)
            await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
            slider = page.locator("[data-testid=stSlider] input[type=range]").first
            if await slider.count():
                t1 = time.perf_counter()
                await slider.focus()
                for _ in range(rng.randint(1, 3)):
                    await slider.press(rng.choice(["ArrowRight", "ArrowLeft"]))
                await page.wait_for_timeout(150)  # the rerun starts after the widget's debounce
                await settle(page, timeout)
                record.setdefault((label, name, "rerun"), []).append(time.perf_counter() - t1)
            errors += [f"{label} {name}: {e}" for e in await errors_on(page)]
        except Exception as exc:  # noqa: BLE001 - a page that never settles is an error to report
            errors.append(f"{label} {name}: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")


async def start_run(page, base: str, errors: list, timeout: float, url: str = LIVE) -> None:
    try:
        await page.goto(f"{base}/{url}")
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


async def explore_protocol(
    session: ProtocolSession, pages: list[str], record: dict, errors: list, label: str, rng, think: float
):
    """:func:`explore` spoken in Streamlit's protocol: open each page (by its address the first time,
    then as from the sidebar), time until its first chart was sent, think, move its first slider 1-3
    steps as one change (the frontend sends a slider's value once the keys stop), time the rerun."""
    for name in pages:
        try:
            how = "sent_first_chart" if session.page is None else "sent_nav_chart"
            done = await session.open(name)
            if done.first_chart is None:
                errors.append(f"{label} {name} (protocol): no chart")
            else:
                record.setdefault((label, name, how), []).append(done.first_chart)
            errors += [f"{label} {name} (protocol): {e}" for e in done.errors]
            await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
            moved = await session.move_slider(rng.choice([-1, 1]) * rng.randint(1, 3))
            if moved is not None:
                record.setdefault((label, name, "sent_rerun"), []).append(moved.seconds)
                errors += [f"{label} {name} (protocol): {e}" for e in moved.errors]
        except Exception as exc:  # noqa: BLE001 - a page that never finishes is an error to report
            errors.append(f"{label} {name} (protocol): {type(exc).__name__}: {str(exc)[:120]}")


async def start_run_protocol(session: ProtocolSession, errors: list, url: str = LIVE) -> asyncio.Task | None:
    """Open the live page at ``url`` (its settings in the query) and press Run; returns the task that
    ends when the run's script run does (None: the page did not open)."""
    page, _, query = url.partition("?")
    try:
        await session.open(page, query)
    except Exception as exc:  # noqa: BLE001
        errors.append(f"run (protocol): {type(exc).__name__}: {str(exc)[:120]}")
        return None
    return asyncio.create_task(session.press("lv_run"))


async def finish_run_protocol(task: asyncio.Task | None, errors: list) -> None:
    if task is None:
        return
    try:
        done = await task
        errors += [f"run (protocol): {e}" for e in done.errors]
        if not done.successes:
            errors.append("run (protocol): ended without its success message")
    except Exception as exc:  # noqa: BLE001
        errors.append(f"run (protocol): never finished ({type(exc).__name__}: {str(exc)[:120]})")


async def abandon_protocol(task: asyncio.Task | None, session: ProtocolSession) -> None:
    """The browser closed while its run is stepping: the connection drops mid-script."""
    await session.close()
    if task is not None:
        task.cancel()
        try:
            await task
        except BaseException:  # noqa: BLE001 - the cut connection is the point
            pass


def start_server(
    a, log_mode: str = "w", script: str = "app.py", port: int | None = None, env: dict | None = None
) -> subprocess.Popen:
    """``streamlit run <script>`` (the app by default) on 127.0.0.1:``port`` (``a.port``), logging to
    ``a.log`` (a replica other than the first: ``a.log`` plus its port), with ``env`` added to this
    process's environment; returns once its health check answers (or after 60 s)."""
    port = a.port if port is None else port
    base = f"http://127.0.0.1:{port}"
    log = a.log if port == a.port else f"{a.log}.{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true"]
        + ["--server.port", str(port), "--server.address", "127.0.0.1"],
        cwd=ROOT,
        env=dict(os.environ, PYTHONUNBUFFERED="1", **(env or {})),
        stdout=open(log, log_mode),
        stderr=subprocess.STDOUT,
    )
    for _ in range(120):
        try:
            urllib.request.urlopen(f"{base}/_stcore/health", timeout=1)
            break
        except OSError:
            time.sleep(0.5)
    return server


async def restart_phase(
    a, browser, server, base: str, pages: list[str], errors: list
) -> tuple[subprocess.Popen, float]:
    """Leave a page open in a few sessions, restart the server, and check each session reconnects
    and draws its charts again with no error. Returns the new server and the seconds until every
    session had its charts back."""
    n = min(a.sessions, 5)
    contexts = [await browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(n)]
    tabs = [await c.new_page() for c in contexts]
    for k, tab in enumerate(tabs):
        await tab.goto(f"{base}/{pages[k % len(pages)]}")
        await settle(tab, a.timeout)
    server.terminate()
    server.wait(10)
    t0 = time.perf_counter()
    server = start_server(a, log_mode="a")

    async def back(tab, k):
        try:  # Streamlit's page reconnects by itself and runs the page in a new session
            await tab.wait_for_selector(CHART, timeout=a.timeout * 1000)
            await settle(tab, a.timeout)
            errors.extend(f"restart {pages[k % len(pages)]}: {e}" for e in await errors_on(tab))
        except Exception as exc:  # noqa: BLE001
            errors.append(f"restart {pages[k % len(pages)]}: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")

    await asyncio.gather(*(back(t, k) for k, t in enumerate(tabs)))
    seconds = time.perf_counter() - t0
    for c in contexts:
        await c.close()
    return server, seconds


def start_balancer(ports: list[int], port: int) -> subprocess.Popen:
    """HAProxy on 127.0.0.1:``port`` in front of the replicas on ``ports`` (``rlviz.balancer``), once it
    answers Streamlit's health check through a replica."""
    from rlviz.balancer import find_haproxy, haproxy_config

    haproxy = find_haproxy()
    cfg = Path(f"/tmp/rlviz-load-haproxy-{port}.cfg")
    cfg.write_text(haproxy_config(ports, port=port))
    proc = subprocess.Popen([haproxy, "-db", "-f", str(cfg)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(120):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                return proc
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError("haproxy did not answer")


async def main_async(a) -> dict:
    base = a.url.rstrip("/") if a.url else f"http://127.0.0.1:{a.port}"
    if a.url:
        servers, bases = Servers([RemoteServer()]), [base]
    else:
        ports = [a.port + i for i in range(a.replicas)]
        # one cookie secret for every replica, as behind a load balancer (README "Serving a class")
        shared = {"STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32)} if a.replicas > 1 else {}
        servers = Servers([start_server(a, port=port, env=shared) for port in ports])
        bases = [f"http://127.0.0.1:{port}" for port in ports]
    # where the class's sessions go: each to its replica (k mod N), or all to the balancer
    targets = [f"http://127.0.0.1:{a.port + a.replicas}"] if a.balancer else bases
    balancer = None
    server = servers.procs[0]
    watch = MemoryWatch(servers)
    watch.start()
    record: dict = {}
    errors: list[str] = []
    pages = a.pages.split(",")
    rng = random.Random(a.seed)
    restart_s = None
    try:
        if a.balancer:  # inside the try: if it fails, the replicas are stopped below
            balancer = start_balancer(ports, a.port + a.replicas)
        async with async_playwright() as p:
            browser = await p.chromium.launch(
                executable_path=idle_browser() if a.idle_browsers else "/usr/bin/chromium",
                args=["--no-sandbox", "--disable-gpu"],
            )
            # 1. warm-up, on each replica
            for replica in bases:
                ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
                page = await ctx.new_page()
                await explore(page, replica, pages, {}, errors, "warm-up", a.timeout, rng, 0)
                await ctx.close()
            await asyncio.sleep(3)
            warm = servers.rss()  # the baseline before 2026-12-03: the warm-up session still held
            # the baseline: the server as "after" finds it, the warm-up session dropped (its time to
            # reconnect over) and the trimmer run since; otherwise freed memory not yet handed back
            # counts against the baseline instead of against the class
            await asyncio.sleep(a.settle)
            baseline = servers.rss()
            n_browsers = a.sessions if a.browsers is None else min(a.browsers, a.sessions)
            contexts = [await browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(n_browsers)]
            tabs = [await c.new_page() for c in contexts]
            for tab in tabs:
                tab.on("pageerror", lambda exc: errors.append(f"browser: {str(exc)[:120]}"))
            # session k (the browsers first, then the protocol sessions) always talks to one replica
            bots = [
                ProtocolSession(targets[(n_browsers + k) % len(targets)], a.timeout)
                for k in range(a.sessions - n_browsers)
            ]
            tab_base = {id(t): targets[k % len(targets)] for k, t in enumerate(tabs)}
            rngs = [random.Random(a.seed * 1000 + k) for k in range(a.sessions)]

            async def arrive(k, coro):
                # a class arrives mixed: the browsers spread over the ramp, the protocol sessions too
                j, n = (k, n_browsers) if k < n_browsers else (k - n_browsers, len(bots))
                await asyncio.sleep(a.ramp * j / max(n, 1))
                await coro

            def explorers_of(label, tab_list, bot_list):
                return [
                    explore(t, tab_base[id(t)], pages, record, errors, label, a.timeout, rngs[k], a.think)
                    for k, t in enumerate(tab_list)
                ] + [
                    explore_protocol(b, pages, record, errors, label, rngs[n_browsers + k], a.think)
                    for k, b in enumerate(bot_list)
                ]

            # 2. quiet
            start = phase_start(servers)
            await asyncio.gather(*(arrive(k, c) for k, c in enumerate(explorers_of("quiet", tabs, bots))))
            quiet_s, quiet_cores, machine_quiet = phase_end("quiet", start, servers, errors)
            report(record, "quiet")
            # 3. busy: some sessions train, some start a long run and close the browser mid-run,
            # the others explore; the runs go to protocol sessions first
            run_bots, leave_bots = bots[: a.runs], bots[a.runs : a.runs + a.abandon]
            more_runs = a.runs - len(run_bots)
            more_leave = a.abandon - len(leave_bots)
            runners, leavers = tabs[:more_runs], tabs[more_runs : more_runs + more_leave]
            explorers = tabs[more_runs + more_leave :]
            explorer_bots = bots[a.runs + a.abandon :]
            await asyncio.gather(*(start_run(t, tab_base[id(t)], errors, a.timeout) for t in runners))
            await asyncio.gather(*(start_run(t, tab_base[id(t)], errors, a.timeout, LONG) for t in leavers))
            run_tasks = await asyncio.gather(*(start_run_protocol(b, errors) for b in run_bots))
            leave_tasks = await asyncio.gather(*(start_run_protocol(b, errors, LONG) for b in leave_bots))
            await asyncio.sleep(2)
            for t in leavers:  # the browser closed while its run is stepping
                await t.context.close()
            for task, b in zip(leave_tasks, leave_bots):
                await abandon_protocol(task, b)
            start = phase_start(servers)

            async def out_of_step(k, coro):
                # students are not in step: each goes on after a pause of its own, drawn as its other
                # pauses (without it, every explorer asked for the same page at the same instant)
                await asyncio.sleep(rngs[k].expovariate(1 / a.think) if a.think > 0 else 0)
                await coro

            busy = [out_of_step(k, c) for k, c in enumerate(explorers_of("busy", explorers, explorer_bots))]
            await asyncio.gather(
                *busy,
                *(finish_run(t, errors, a.timeout * 4) for t in runners),
                *(finish_run_protocol(task, errors) for task in run_tasks),
            )
            busy_s, busy_cores, machine_busy = phase_end("busy", start, servers, errors)
            report(record, "busy")
            # 4. close every session
            for c in contexts:
                if c not in [t.context for t in leavers]:
                    await c.close()
            for b in bots:
                await b.close()
            await asyncio.sleep(a.settle)
            after = servers.rss()
            # 5. a server restart under open pages
            if a.restart:
                server, restart_s = await restart_phase(a, browser, server, base, pages, errors)
                servers.procs[0] = server
            await browser.close()
    finally:
        watch.stop.set()
        if balancer is not None:
            balancer.terminate()
            balancer.wait(10)
        for proc in servers.procs:
            proc.terminate()
        for proc in servers.procs:
            proc.wait(10)
    table = {}
    for (label, name, what), values in sorted(record.items()):
        table[f"{label}/{name}/{what}"] = {
            "n": len(values),
            "p50_s": round(statistics.median(values), 3),
            "p95_s": round(pct(values, 0.95), 3),
        }
    explorer_busy = [v for (label, _, what), vs in record.items() if label == "busy" and "sent" not in what for v in vs]
    served_busy = [v for (label, _, what), vs in record.items() if label == "busy" and "sent" in what for v in vs]
    return {
        "sessions": a.sessions,
        "replicas": len(bases),
        "balancer": "haproxy" if balancer else None,
        "browsers": n_browsers,
        "runs": a.runs,
        "abandoned_runs": a.abandon,
        "think_s": a.think,
        "ramp_s": a.ramp,
        "pages": pages,
        "errors": errors,
        "times": table,
        "busy_all_pages_p95_s": round(pct(explorer_busy, 0.95), 3) if explorer_busy else None,
        "busy_all_pages_sent_p95_s": round(pct(served_busy, 0.95), 3) if served_busy else None,
        "quiet_seconds": round(quiet_s, 1),
        "server_cores_quiet": None if math.isnan(quiet_cores) else round(quiet_cores, 2),
        "server_cores_busy": None if math.isnan(busy_cores) else round(busy_cores, 2),
        # the whole machine's busy cores and this benchmark's own (its sessions and Playwright's
        # client; the browsers are other processes), each phase: (quiet, busy)
        "machine_cores": [None if math.isnan(m[0]) else round(m[0], 2) for m in (machine_quiet, machine_busy)],
        "benchmark_cores": [round(m[1], 2) for m in (machine_quiet, machine_busy)],
        "busy_seconds": round(busy_s, 1),
        "restart_seconds": None if restart_s is None else round(restart_s, 1),
        "memory_mib": None
        if a.url
        else {
            "baseline": round(baseline / 1024, 1),
            "warm_up_closed_3s": round(warm / 1024, 1),
            "peak": round(watch.peak / 1024, 1),
            "after_close": round(after / 1024, 1),
            "after_vs_baseline": round(after / baseline - 1, 3) if baseline else None,
        },
    }


def report(record: dict, label: str) -> None:
    for (phase, name, what), values in sorted(record.items()):
        if phase == label:
            print(
                f"  {phase}/{name}/{what}: n={len(values)} p50 {statistics.median(values):.2f} s "
                f"p95 {pct(values, 0.95):.2f} s",
                flush=True,
            )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sessions", type=int, default=30)
    p.add_argument(
        "--browsers",
        type=int,
        default=None,
        help="how many of the sessions are chromium tabs (default: all); the others speak Streamlit's "
        "websocket protocol (benchmarks/protocol_session.py) and are timed until the server has sent",
    )
    p.add_argument("--runs", type=int, default=4, help="sessions that run a short live run to its end")
    p.add_argument("--abandon", type=int, default=2, help="sessions that close the browser mid-run")
    p.add_argument("--think", type=float, default=5.0, help="mean seconds a student looks before moving")
    p.add_argument("--ramp", type=float, default=30.0, help="seconds over which the sessions arrive")
    p.add_argument("--restart", action="store_true", help="restart the server under open pages at the end")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--url",
        default=None,
        help="drive a server already running elsewhere (e.g. http://classroom:8501) instead of starting one "
        "here: run the browsers on other machines than the server; no memory, CPU or restart figures",
    )
    p.add_argument(
        "--no-idle-browsers",
        dest="idle_browsers",
        action="store_false",
        help="run the browsers at normal priority, competing with the server for this machine's cores",
    )
    p.add_argument("--pages", default=",".join(EXPLORERS))
    p.add_argument("--port", type=int, default=8799)
    p.add_argument(
        "--replicas",
        type=int,
        default=1,
        help="server processes, on --port and the ports after it; session k talks to replica k mod N",
    )
    p.add_argument(
        "--balancer",
        action="store_true",
        help="with --replicas: the sessions go through HAProxy (rlviz.balancer) on the port after the replicas'",
    )
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
    if a.url and a.restart:
        p.error("--restart needs the server started here (not --url)")
    if a.replicas < 1 or (a.replicas > 1 and (a.url or a.restart)):
        p.error("--replicas: a whole number >= 1; more than one needs the servers started here, without --restart")
    from rlviz.balancer import find_haproxy

    if a.balancer and (a.replicas < 2 or find_haproxy() is None):
        p.error("--balancer: needs --replicas 2 or more and haproxy (apt-get install haproxy)")
    if min(a.runs, a.abandon) < 0 or a.runs + a.abandon >= a.sessions:
        # otherwise no session is left to explore while the runs go, and the busy phase measures nothing
        p.error("--runs and --abandon: whole numbers >= 0 that leave at least one of --sessions to explore")
    if a.url:
        a.settle = 0.0  # nothing to read after the sessions close
    out = asyncio.run(main_async(a))
    for key, row in out["times"].items():
        print(f"{key:45s} n={row['n']:3d}  p50 {row['p50_s']:6.2f} s  p95 {row['p95_s']:6.2f} s")
    print(f"errors: {len(out['errors'])}", *out["errors"][:20], sep="\n  ")
    print("explorer p95 while runs go (all pages), in the browsers:", out["busy_all_pages_p95_s"], "s")
    print("  and as sent by the server (protocol sessions):", out["busy_all_pages_sent_p95_s"], "s")
    print("memory (MiB):", out["memory_mib"])
    if out["restart_seconds"] is not None:
        print("after a restart, every open page was back in", out["restart_seconds"], "s")
    if a.out is not None:
        a.out.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
