"""Shared test setup. The repository root is on sys.path through pytest's ``pythonpath`` setting
(pyproject.toml), so `import rlviz` and `app_common` work however pytest is started."""

from __future__ import annotations

import pytest


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
