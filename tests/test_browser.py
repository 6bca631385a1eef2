"""The real thing: `streamlit run app.py` driven by headless chromium (Playwright), part 1: every
page, in English and Chinese (RLVIZ_BROWSER_LANGS=en or zh: one language), its first screen and its
figures' texts. The app's shell (deep links, home, shared links, dark theme, keyboard) is
tests/test_browser_shell.py.

Fails on any exception element; saves a screenshot of each page under $RLVIZ_ARTIFACTS (default
/tmp/rlviz-screens; the first screenful, or the whole page with RLVIZ_FULL_SCREENS=1). Live runs
through the UI are in tests/test_browser_flows.py. Skips only when /usr/bin/chromium is missing.
"""

from __future__ import annotations

import os

import pytest
from browsertools import (
    BROWSER,
    LOCAL,
    check_and_shoot,
    formulas_fit,
    page_links_fit,
    settle,
)
from firstscreen import first_screen, overlaps

from rlviz.app_pages import PAGES
from rlviz.i18n import t

pytestmark = BROWSER

PATHS = [p.url_path for p in PAGES]  # the app's one page table

# A formula whose content is wider than its box (more than a pixel of rounding) scrolls sideways.
# Every page in both languages on a projector (1024x768, sidebar open, Streamlit's default at that
# width): its first chart in the first screen, few words above it, and no figure text overlapping
# another or cut (tests/firstscreen.py; issue 39). RLVIZ_BROWSER_LANGS=en (or zh) renders one language.
RENDER_WIDTH = {"en": 1024, "zh": 1024}
RENDER_HEIGHT = 768
LANGS = [lang for lang in os.environ.get("RLVIZ_BROWSER_LANGS", "en,zh").split(",") if lang in RENDER_WIDTH] or ["en"]
# pages without a chart: the interview bank (a question and its answer field) and the lessons list
NO_CHART = {"interview", "lessons"}
# the most words above a page's first chart on one page (title, path marker, lede, the controls' labels);
# the median over the pages is held to 60 (test_few_words_above_the_first_chart_over_all_pages)
MAX_WORDS_ABOVE = 80
FIRST_SCREENS: dict[tuple[str, str], dict] = {}  # (page, lang) -> tests/firstscreen.py's measures


@pytest.fixture(scope="module")
def render_tabs(browser):
    """One tab per language for the page renders, opened at that language's width and kept across
    pages: each page after the first is reached by its sidebar link, as a reader clicks from page to
    page (the app's scripts load once; a full page load per page cost the file about a quarter more). Any request to
    a host but the local server fails the test that made it."""
    tabs, contexts, outside = {}, [], []
    for lang in LANGS:
        width = RENDER_WIDTH[lang]
        context = browser.new_context(viewport={"width": width, "height": RENDER_HEIGHT}, locale="en-US")
        tab = context.new_page()
        tab.on("request", lambda r: None if r.url.startswith(LOCAL) else outside.append(r.url))
        tabs[lang] = tab
        contexts.append(context)
    yield tabs, outside
    for context in contexts:
        context.close()


# A page whose default experiment takes seconds renders the same elements with a smaller batch
# (AppTest renders its defaults): the MoE page's one-batch experiment, 16 prompts x G 8 by default,
# costs about 10 s of one core; with 4 prompts, a quarter of that. The mismatch page samples its 16
# prompts x G 4 once per sampler choice (its slowest render here, 12 s alone, 23-26 s in the suite).
LIGHTER = {"moe": "&mo_n=4", "mismatch": "&mm_n=4"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", PATHS)
def test_every_page_renders(server, render_tabs, path, lang):
    tabs, outside = render_tabs
    page = tabs[lang]
    outside.clear()
    if page.url.startswith(server) and path not in LIGHTER:
        # from the page before, by the sidebar's link, as a reader moves (the app's scripts stay loaded)
        entry = next(p for p in PAGES if p.url_path == path)
        before = page.locator("h1").first.inner_text()
        nav = page.locator("[data-testid=stSidebarNav]")
        nav.get_by_role("link", name=t(f"nav.{entry.key}", lang), exact=True).click()
        page.wait_for_function("([b]) => document.querySelector('h1')?.innerText !== b", arg=[before], timeout=60_000)
    else:
        page.goto(f"{server}/{path}?lang={lang}{LIGHTER.get(path, '')}")
    settle(page)
    check_and_shoot(page, f"{path or 'home'}-{lang}")
    title = page.locator("h1").first.inner_text()
    assert title.strip()
    if lang == "zh":
        assert "lang=zh" in page.url  # a copied link keeps the language
        assert any("\u4e00" <= ch <= "\u9fff" for ch in title), title
    # the sidebar (language, seed, device) is on every page
    page.get_by_text("Seed" if lang == "en" else "随机种子").first.wait_for(timeout=30_000)
    formulas_fit(page)
    page_links_fit(page)
    assert not outside, f"requests leaving the machine: {sorted(set(outside))[:5]}"
    _figure_first(page, path, lang)


def _figure_first(page, path: str, lang: str) -> None:
    """The page's first chart in the first screen at 1024x768 (sidebar open), at most MAX_WORDS_ABOVE
    words above it, and no figure text (title, subplot title, legend, axis title) overlapping another
    or cut by its figure (tests/firstscreen.py)."""
    key = next(p.key for p in PAGES if p.url_path == path)
    measured = first_screen(page)
    FIRST_SCREENS[key, lang] = measured
    if key not in NO_CHART:
        assert measured["chart_in_view"], f"{key} ({lang}): first chart at y={measured['chart_top']}, below the fold"
        assert measured["words_above"] <= MAX_WORDS_ABOVE, (
            f"{key} ({lang}): {measured['words_above']} words above the first chart: {measured['text_above'][:400]}"
        )
    clashes = overlaps(page)
    assert not clashes, f"{key} ({lang}) at {page.viewport_size['width']} px: {clashes[:5]}"


def test_few_words_above_the_first_chart_over_all_pages():
    # after test_every_page_renders (same file, run in order): the median over the pages with a chart
    import statistics

    for lang in LANGS:
        words = [m["words_above"] for (key, lg), m in FIRST_SCREENS.items() if lg == lang and key not in NO_CHART]
        if len(words) < len(PAGES) - len(NO_CHART):
            pytest.skip(f"only {len(words)} pages measured in {lang} (run the whole file)")
        assert statistics.median(words) <= 60, (lang, sorted(words))
