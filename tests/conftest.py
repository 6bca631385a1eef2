"""Shared test setup. The repository root is on sys.path through pytest's ``pythonpath`` setting
(pyproject.toml), so `import rlviz` and `app_common` work however pytest is started."""

from __future__ import annotations

import os

import pytest

# The longest test files first, in this order: `make test` runs pytest-xdist with --dist loadfile
# --no-loadscope-reorder, which hands out whole files in collection order, so each worker starts on
# one of the three browser files (each minutes long, with its own server and browser) and the rest fill in
# behind them. (xdist's own reordering puts files with many tests first, which left the browser
# files to the end, both on one worker.)
FIRST = (
    "test_browser.py",
    "test_browser_flows.py",
    "test_browser_lessons.py",
    "test_browser_shell.py",
    "test_learning.py",
)


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (``make test``): two workers per core. The browser tests spend most of their time
    waiting on their server and chromium (about half of their wall time is CPU here), and the other
    workers compute meanwhile: on this 2-core machine the suite took 7 min 55 s with three workers
    against 9 min 16 s with two, in the same hour (2026-12-03); on 2026-12-06, quiet, 13 min 17 s with
    three (two timing-sensitive browser tests failed) and 9 min 8 s with four, all passing.
    PYTEST_XDIST_AUTO_NUM_WORKERS still sets the count."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return 2 * cores


def pytest_collection_modifyitems(config, items):
    rank = {name: k for k, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(FIRST)))  # stable: the rest keep their order


def pytest_configure(config):
    """Once per test process: AppTest scans every installed package for Streamlit components on each
    new AppTest (about 0.2 s, hundreds of times a run); the packages do not change while the tests
    run, so the scan's result is kept (the app itself has no such components).

    Under pytest-xdist (``make test`` runs one worker per core) each worker computes with one torch
    thread: two workers with torch's default of one thread per core would fight over the cores."""
    import functools

    from streamlit.components.v2 import manifest_scanner

    if not hasattr(manifest_scanner.scan_component_manifests, "cache_info"):
        scan = manifest_scanner.scan_component_manifests
        manifest_scanner.scan_component_manifests = functools.cache(lambda max_workers=None: scan(max_workers))
    if os.environ.get("PYTEST_XDIST_WORKER"):
        import torch

        torch.set_num_threads(1)


@pytest.fixture(autouse=True)
def _server_past_its_first_session(monkeypatch):
    """AppTest builds a new PagesManager for every ``run()``, as if each run were the first session
    of a fresh server, which (with a ``pages/`` folder) starts in Streamlit's legacy multipage mode
    and makes ``app_common.ensure_shell`` re-run, swallowing a button click. A real server leaves
    that mode for good on its first ``st.navigation`` call; model that here. The fresh-server deep
    link itself is tested in a real browser (tests/test_browser.py)."""
    from streamlit.runtime.pages_manager import PagesManager

    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


@pytest.fixture(autouse=True)
def _registry_restored():
    """Tests add, replace and remove registry entries (``monkeypatch.setitem`` / ``delitem``);
    monkeypatch puts a removed entry back at the end, which would change the registry's order (the
    order of every legend and colour). Restore the registry exactly, order included, after each test."""
    from rlviz.core.objectives import ALGORITHMS

    saved = dict(ALGORITHMS)
    yield
    ALGORITHMS.clear()
    ALGORITHMS.update(saved)


# ------------------------------------------------------------------ the real-browser tests' fixtures
# (tests/test_browser.py, tests/test_browser_flows.py; helpers in tests/browsertools.py). Module
# scope: each of those files gets one server and one browser.


@pytest.fixture(scope="module")
def server():
    """``streamlit run app.py`` on a free loopback port; its URL."""
    from browsertools import serve

    with serve() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    """A headless chromium (Playwright)."""
    from browsertools import launch
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A fresh 1400 px browser tab. The app must work offline: a request to any host but the
    local server (a favicon or a font from the internet, say) fails the test."""
    from browsertools import LOCAL

    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    pg = context.new_page()
    outside: list[str] = []
    pg.on("request", lambda r: None if r.url.startswith(LOCAL) else outside.append(r.url))
    yield pg
    context.close()
    assert not outside, f"requests leaving the machine: {sorted(set(outside))[:5]}"
