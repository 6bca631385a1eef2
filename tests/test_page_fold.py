"""The first screen first (issue 39, ``app_common.template.first_screen_only``): a reader who arrives on
the weighting, sampling or length page from another page gets a first run with the page's main figure
and its questions only; the run that follows (the one the browser asks for once it has drawn them)
draws the whole page. A link that carries a page's settings is drawn whole at once."""

from __future__ import annotations

import pytest
from apptools import APP, TIMEOUT, no_exception
from streamlit.testing.v1 import AppTest

from rlviz.i18n import t
from rlviz.teach.predict import PREDICTIONS, state_from_settings

# page -> (its main figure's chart key, the charts of the whole page with its defaults)
PAGES = {
    "weighting": ("wt_modes_chart", 7),  # modes, objectives, off-policy, noise, one heatmap per real-group default (3)
    "sampling": ("sampling-signal", 6),  # signal, difficulty bias, measured, Beta, fill cost, live (empty)
    # curves, histogram, one group, filtering, sweep; the measured claims' noise and efficiency (the third
    # figure of that section waits for its question)
    "length": ("length-curves", 7),
}


def _key(el) -> str:
    """A chart's key as the page gave it (Streamlit's element id ends with it)."""
    for key, _ in PAGES.values():
        if el.proto.id.endswith(key):
            return key
    return el.proto.id


@pytest.mark.parametrize("page", list(PAGES))
def test_arrival_draws_the_first_screen_then_the_whole_page(page):
    key, n_charts = PAGES[page]
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()  # the home page
    at.switch_page(f"pages/{page}.py").run()  # a click on the sidebar's link
    no_exception(at)
    assert [_key(el) for el in at.get("plotly_chart")] == [key]  # the main figure, alone
    # and its questions, each waiting for the learner ("Skip: show me"): those asked at its settings (the
    # length page's foot asks one more, at its measured record's state, in the run that follows)
    first = [p for p in PREDICTIONS[page] if p.applies(state_from_settings(page, {}))]
    assert len([b for b in at.button if b.label == t("teach.skip", "en")]) == len(first) > 0
    at.run()  # the run the browser asks for (the fragment's auto-rerun asks for a full run)
    no_exception(at)
    assert len(at.get("plotly_chart")) == n_charts
    assert _key(at.get("plotly_chart")[0]) == key


def test_a_link_with_the_page_settings_is_drawn_whole():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.query_params["wt_L"] = "10"  # a setting of the off-policy section, below the first screen
    at.switch_page("pages/weighting.py").run()
    no_exception(at)
    assert len(at.get("plotly_chart")) == PAGES["weighting"][1]
    assert at.slider(key="wt_L").value == 10
