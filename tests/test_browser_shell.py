"""The real thing, part 1b: the app's shell in a real browser (Playwright, headless chromium), in both
languages: a deep link on a fresh server, the home map and its formulas, a shared curves link, the
dark theme and the keyboard. Every page rendered is tests/test_browser.py; each file has its own
server and browser, so ``make test``'s workers run them side by side. Skips only when
/usr/bin/chromium is missing.
"""

from __future__ import annotations

from browsertools import (
    BROWSER,
    check_and_shoot,
    settle,
    wait_count,
    wait_idle_after_click,
)

pytestmark = BROWSER


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
