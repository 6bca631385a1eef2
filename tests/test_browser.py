"""The real thing: `streamlit run app.py` driven by headless chromium (Playwright), part 1: every
page (in English; with RLVIZ_BROWSER_LANGS=en,zh in Chinese too), and the app's shell in both
languages (home, deep links, shared links, dark theme, keyboard).

Fails on any exception element; saves a screenshot of each page under $RLVIZ_ARTIFACTS (default
/tmp/rlviz-screens; the first screenful, or the whole page with RLVIZ_FULL_SCREENS=1). Live runs
through the UI are in tests/test_browser_flows.py. Skips only when /usr/bin/chromium is missing.
"""

from __future__ import annotations

import contextlib
import os

import pytest
from browsertools import (
    BROWSER,
    LOCAL,
    check_and_shoot,
    settle,
    wait_count,
    wait_idle_after_click,
)
from firstscreen import first_screen, overlaps

from rlviz.app_pages import PAGES
from rlviz.i18n import t

pytestmark = BROWSER

PATHS = [p.url_path for p in PAGES]  # the app's one page table

# A formula whose content is wider than its box (more than a pixel of rounding) scrolls sideways.
OVERFLOWING_FORMULAS = """() => [...document.querySelectorAll('.katex-display')]
    .filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.textContent.slice(0, 50))"""


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


def test_deep_link_on_a_fresh_server_gets_the_app_shell(server, browser, request):
    # The first session of a new server opens a shared /live link: Streamlit's legacy pages/ mode
    # would run pages/live.py alone; app_common.ensure_shell sends it through app.py instead. The
    # module's server is fresh only for its first test, so this one is first in the file (and the
    # guard below fails, rather than passing without testing anything, if that ever changes).
    on_this_server = [i for i in request.session.items if i.module is request.module and "server" in i.fixturenames]
    assert on_this_server[0] is request.node, "this test must be the first to use the module's server"
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        pg = context.new_page()
        pg.goto(f"{server}/live?lang=zh")
        settle(pg)
        assert pg.locator("h1").first.inner_text() == "实时策略更新"
        pg.get_by_text("随机种子").first.wait_for(timeout=30_000)  # app.py's sidebar is there
        assert pg.get_by_text("Page not found").count() == 0
        assert pg.locator("[data-testid=stException]").count() == 0
        assert "lang=zh" in pg.url
    finally:
        context.close()


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
    _formulas_fit(page)
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


def _formulas_fit(page) -> None:
    """Every formula fits its column at the tab's width with the sidebar open (none scrolls sideways)."""
    assert page.locator("[data-testid=stSidebar]").is_visible()
    page.evaluate("document.fonts.ready")  # KaTeX lays out again once its fonts are in
    with contextlib.suppress(Exception):  # give the layout a few seconds, then read the result
        page.wait_for_function(f"({OVERFLOWING_FORMULAS})().length === 0", timeout=8000)
    width = page.viewport_size["width"]
    assert page.evaluate(OVERFLOWING_FORMULAS) == [], f"formulas wider than their column at {width} px"


def test_home_has_the_map_and_formulas(server, page):
    page.goto(server)
    settle(page)
    wait_count(page, ".js-plotly-plot", 1)
    wait_count(page, ".katex-display", 9)
    # switching the language in the sidebar rewrites the page and the URL
    page.get_by_text("中文", exact=True).click()
    page.wait_for_function(
        "document.querySelector('h1') && /[\\u4e00-\\u9fff]/.test(document.querySelector('h1').innerText)"
    )
    settle(page)
    assert "lang=zh" in page.url
    # the language (and the seed) survive moving to another page
    page.get_by_role("link", name="实时策略更新").first.click()
    page.wait_for_url("**/live?**")
    settle(page)
    assert "lang=zh" in page.url and page.locator("h1").first.inner_text() == "实时策略更新"
    assert page.locator("[data-testid=stException]").count() == 0


def test_shared_curves_link_reopens_the_view(server, page):
    # A teacher's link: ε_high = 0.3 and the marker at π_old = 0.5 -> ceiling 0.5 * 1.3 = 0.65
    # (symmetric clip) vs DAPO's 0.5 * 1.28 = 0.64, both read off the loss's gradient.
    page.goto(f"{server}/curves?c_grpo_epsilon_high=0.3&c_pi=0.5")
    settle(page)
    wait_count(page, ".js-plotly-plot", 3)
    # the ceilings answer the page's first question: held back until it is answered or skipped
    assert page.locator("[data-testid=stMarkdownContainer]", has_text="can reach at most").count() == 0
    page.locator(".st-key-pred_teach-curves_ceiling").get_by_role("button", name="Skip: show me").click()
    wait_idle_after_click(page)
    # the claim's own token (π_old = 0.2) is always spelled out, then the marked one
    texts = page.locator("[data-testid=stMarkdownContainer]", has_text="can reach at most").all_inner_texts()
    assert len(texts) == 2, texts
    assert "π_old = 0.20" in texts[0] and "0.260" in texts[0] and "0.256" in texts[0], texts[0]
    assert "π_old = 0.50" in texts[1] and "0.650" in texts[1] and "0.640" in texts[1], texts[1]
    # moving a slider writes the URL, so the link can be copied
    slider = page.locator(".st-key-c_pi input[type=range]")
    slider.focus()
    slider.press("ArrowRight")
    wait_idle_after_click(page)
    assert "c_pi=0.51" in page.url and "c_grpo_epsilon_high=0.3" in page.url, page.url
    assert page.get_by_text("A token at π_old = 0.51 can reach at most").count() == 1
    check_and_shoot(page, "curves-shared-link")


def test_dark_theme_is_readable_and_every_control_takes_the_keyboard(server, browser):
    """The reader's dark system theme gives a dark page whose black chart lines are drawn light and
    whose charts name themselves to screen readers; Tab alone reaches the page's sliders, toggles
    and selects, and an arrow key moves a focused slider (and the chart with it)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme="dark")
    pg = context.new_page()
    try:
        pg.goto(f"{server}/curves")
        settle(pg)
        wait_count(pg, ".js-plotly-plot", 3)
        background = pg.evaluate("getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor")
        channels = [int(c) for c in background[background.index("(") + 1 : background.index(")")].split(",")[:3]]
        assert max(channels) < 80, background  # a dark page
        strokes = pg.evaluate(
            "[...document.querySelectorAll('.js-plotly-plot .scatterlayer path.js-line')].map(p => p.style.stroke)"
        )
        assert strokes and "rgb(0, 0, 0)" not in strokes  # no black line on the dark background
        labels = pg.evaluate("[...document.querySelectorAll('[data-testid=stPlotlyChart] [aria-label]')].length")
        assert labels >= 3  # every chart carries its text alternative
        reached = set()
        for _ in range(90):
            pg.keyboard.press("Tab")
            reached.add(pg.evaluate("(e => e.getAttribute('role') || e.type || e.tagName)(document.activeElement)"))
        assert {"range", "switch", "combobox", "number"} <= reached, reached  # sliders, toggles, selects, inputs
        slider = pg.locator("input[type=range]").first
        slider.focus()
        before = slider.input_value()
        pg.keyboard.press("ArrowRight")
        pg.wait_for_function("([b]) => document.querySelector('input[type=range]').value !== b", arg=[before])
        settle(pg)
        assert pg.locator("[data-testid=stException]").count() == 0
    finally:
        context.close()
