"""The real thing: `streamlit run app.py` driven by headless chromium (Playwright).

Opens every page in both languages, fails on any exception element, saves a full-page screenshot
of each under $RLVIZ_ARTIFACTS (default /tmp/rlviz-screens), and runs a small live comparison
through the UI. Skips only when /usr/bin/chromium is missing.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from rlviz.app_pages import PAGES

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("RLVIZ_ARTIFACTS", "/tmp/rlviz-screens"))
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _serve():
    """``streamlit run app.py`` on a free loopback port; yields its URL once healthy."""
    port = _free_port()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log_path = ARTIFACTS / "streamlit.log"
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
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"streamlit did not become healthy (exit code {proc.poll()}): {log_path.read_text()[-2000:]}")
        time.sleep(0.5)
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="module")
def server():
    with _serve() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
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
        yield b
        b.close()


LOCAL = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:")


@pytest.fixture
def page(browser):
    """A fresh 1400 px browser tab. The app must work offline: a request to any host but the
    local server (a favicon or a font from the internet, say) fails the test."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    pg = context.new_page()
    outside: list[str] = []
    pg.on("request", lambda r: None if r.url.startswith(LOCAL) else outside.append(r.url))
    yield pg
    context.close()
    assert not outside, f"requests leaving the machine: {sorted(set(outside))[:5]}"


def _settle(pg, timeout_ms: int = 90_000) -> None:
    pg.wait_for_selector("h1", timeout=timeout_ms)
    pg.wait_for_selector(IDLE, timeout=timeout_ms)
    pg.wait_for_timeout(800)  # let plotly and katex draw
    pg.wait_for_selector(IDLE, timeout=timeout_ms)


def _wait_count(pg, selector: str, at_least: int, timeout_ms: int = 60_000) -> None:
    """Wait until ``selector`` matches at least ``at_least`` elements (charts render lazily)."""
    pg.wait_for_function(
        "([sel, n]) => document.querySelectorAll(sel).length >= n", arg=[selector, at_least], timeout=timeout_ms
    )


def _check_and_shoot(pg, name: str) -> None:
    exceptions = pg.locator("[data-testid=stException]")
    assert exceptions.count() == 0, exceptions.first.inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    height = pg.evaluate("document.querySelector('[data-testid=stMain]').scrollHeight")
    pg.set_viewport_size({"width": 1400, "height": max(1000, min(int(height) + 40, 12000))})
    pg.wait_for_timeout(500)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    pg.set_viewport_size({"width": 1400, "height": 1000})


PATHS = [p.url_path for p in PAGES]  # the app's one page table

# A formula whose content is wider than its box (more than a pixel of rounding) scrolls sideways.
OVERFLOWING_FORMULAS = """() => [...document.querySelectorAll('.katex-display')]
    .filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.textContent.slice(0, 50))"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("path", PATHS)
def test_every_page_renders(server, page, path, lang):
    page.goto(f"{server}/{path}?lang={lang}")
    _settle(page)
    _check_and_shoot(page, f"{path or 'home'}-{lang}")
    title = page.locator("h1").first.inner_text()
    assert title.strip()
    if lang == "zh":
        assert "lang=zh" in page.url  # a copied link keeps the language
        assert any("\u4e00" <= ch <= "\u9fff" for ch in title), title
    # the sidebar (language, seed, device) is on every page
    page.get_by_text("Seed" if lang == "en" else "随机种子").first.wait_for(timeout=30_000)
    # formulas fit their columns: English on a projector (1024 px, sidebar open), Chinese at 1400 px
    _formulas_fit(page, width=1024 if lang == "en" else 1400)


def _formulas_fit(page, width: int) -> None:
    """Every formula fits its column at ``width`` px with the sidebar open (none scrolls sideways)."""
    page.set_viewport_size({"width": width, "height": 900})
    assert page.locator("[data-testid=stSidebar]").is_visible()
    page.evaluate("document.fonts.ready")  # KaTeX lays out again once its fonts are in
    with contextlib.suppress(Exception):  # give the new layout a few seconds, then read the result
        page.wait_for_function(f"({OVERFLOWING_FORMULAS})().length === 0", timeout=8000)
    assert page.evaluate(OVERFLOWING_FORMULAS) == [], f"formulas wider than their column at {width} px"


LIVE_SMALL = "live?lv_algos=GRPO&lv_algos=SAPO&lv_steps={steps}&lv_prompts=4&lv_G=4&lv_heldout=1"


def _wait_idle_after_click(pg, timeout_ms: int = 300_000) -> None:
    pg.wait_for_timeout(1000)
    pg.wait_for_selector(IDLE, timeout=timeout_ms)
    pg.wait_for_timeout(1000)
    pg.wait_for_selector(IDLE, timeout=timeout_ms)


def test_live_run_in_the_browser(server, page):
    page.goto(f"{server}/{LIVE_SMALL.format(steps=2)}")
    _settle(page)
    assert "lv_steps=2" in page.url and "GRPO" in page.url  # the settings live in the URL
    page.locator(".st-key-lv_run button").click()
    page.get_by_text("Finished: 2 steps per algorithm.").wait_for(timeout=300_000)
    _wait_idle_after_click(page)
    # curves, ratio histogram and one token heatmap per algorithm
    _wait_count(page, ".js-plotly-plot", 4)
    assert page.get_by_text("GRPO: step 2 / 2").count() == 1
    assert page.get_by_role("button", name="Download metrics (CSV)").count() == 1
    _check_and_shoot(page, "live-run-en")


def test_live_stop_keeps_partial_results(server, page):
    page.goto(f"{server}/{LIVE_SMALL.format(steps=200)}")
    _settle(page)
    page.locator(".st-key-lv_run button").click()
    page.locator(".st-key-lv_stop button:enabled").wait_for(timeout=60_000)
    # while it runs, Continue and Reset are there but disabled: nothing can drop the run in progress
    assert page.locator(".st-key-lv_reset button").is_disabled()
    assert page.locator(".st-key-lv_continue button").is_disabled()
    page.get_by_text("GRPO: step 2 / 200").wait_for(timeout=120_000)
    page.locator(".st-key-lv_stop button").click()
    page.locator(".st-key-lv_continue button:enabled").wait_for(timeout=120_000)
    _wait_idle_after_click(page)
    assert page.get_by_text("Stopped after").count() == 1  # the round in progress was finished: arms level
    bars = page.locator("[data-testid=stProgress]").all_inner_texts()
    assert len(bars) == 2 and len({b.split(": step ")[1] for b in bars}) == 1, bars
    _wait_count(page, ".js-plotly-plot", 2)  # the partial results are there
    _check_and_shoot(page, "live-stopped-en")
    page.locator(".st-key-lv_reset button").click()
    page.get_by_text("Choose the settings and press").wait_for(timeout=60_000)


def _no_exception_now(pg) -> None:
    exceptions = pg.locator("[data-testid=stException]")
    assert exceptions.count() == 0, exceptions.first.inner_text()


def test_live_run_survives_language_setting_and_page_switches(server, page):
    # Mid-run: switch the language (a rerun that used to start a second step on the same model while
    # the first was in its backward pass), change a setting (the seed), leave for the home page and
    # come back. The run stays consistent and finishes, and no exception is ever shown.
    steps = 6
    page.goto(f"{server}/{LIVE_SMALL.format(steps=steps)}")
    _settle(page)
    page.locator(".st-key-lv_run button").click()
    page.get_by_text(f"GRPO: step 1 / {steps}").wait_for(timeout=120_000)
    # the settings are disabled while the run advances
    assert page.locator(".st-key-lv_steps input").is_disabled()
    _no_exception_now(page)
    page.get_by_text("中文", exact=True).click()
    page.wait_for_function("document.querySelector('h1') && document.querySelector('h1').innerText === '实时策略更新'")
    page.get_by_text(f"GRPO：第 2 / {steps} 步").wait_for(timeout=120_000)  # still running, in Chinese
    _no_exception_now(page)
    seed = page.locator(".st-key-seed input")
    seed.fill("1")
    seed.press("Enter")
    page.get_by_text(f"GRPO：第 3 / {steps} 步").wait_for(timeout=120_000)  # a setting changed: still running
    _no_exception_now(page)
    page.get_by_role("link", name="首页").first.click()
    page.wait_for_function("document.querySelector('h1') && document.querySelector('h1').innerText !== '实时策略更新'")
    _settle(page)
    _no_exception_now(page)
    page.get_by_role("link", name="实时策略更新").first.click()
    page.wait_for_url("**/live**")
    page.wait_for_selector(".st-key-lv_run", timeout=60_000)
    finished = page.get_by_text(f"训练完成：每个算法 {steps} 步。")
    deadline = time.monotonic() + 300
    while finished.count() == 0 and time.monotonic() < deadline:
        _no_exception_now(page)
        if page.locator(".st-key-lv_continue button:enabled").count():
            page.locator(".st-key-lv_continue button").click()  # Continue if the run was left paused
        page.wait_for_timeout(1000)
    finished.wait_for(timeout=10_000)
    _wait_idle_after_click(page)
    _no_exception_now(page)
    assert page.get_by_text(f"GRPO：第 {steps} / {steps} 步").count() == 1
    assert page.get_by_text(f"SAPO：第 {steps} / {steps} 步").count() == 1
    assert page.locator("[data-testid=stAlertContentError]").count() == 0
    assert not page.locator(".st-key-lv_steps input").is_disabled()  # editable again
    _check_and_shoot(page, "live-switches-zh")


def test_home_has_the_map_and_formulas(server, page):
    page.goto(server)
    _settle(page)
    _wait_count(page, ".js-plotly-plot", 1)
    _wait_count(page, ".katex-display", 9)
    # switching the language in the sidebar rewrites the page and the URL
    page.get_by_text("中文", exact=True).click()
    page.wait_for_function(
        "document.querySelector('h1') && /[\\u4e00-\\u9fff]/.test(document.querySelector('h1').innerText)"
    )
    _settle(page)
    assert "lang=zh" in page.url
    # the language (and the seed) survive moving to another page
    page.get_by_role("link", name="实时策略更新").first.click()
    page.wait_for_url("**/live?**")
    _settle(page)
    assert "lang=zh" in page.url and page.locator("h1").first.inner_text() == "实时策略更新"
    assert page.locator("[data-testid=stException]").count() == 0


def test_deep_link_on_a_fresh_server_gets_the_app_shell(browser):
    # The first session of a new server opens a shared /live link: Streamlit's legacy pages/ mode
    # would run pages/live.py alone; app_common.ensure_shell sends it through app.py instead.
    with _serve() as url:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        pg = context.new_page()
        pg.goto(f"{url}/live?lang=zh")
        _settle(pg)
        assert pg.locator("h1").first.inner_text() == "实时策略更新"
        assert pg.get_by_text("随机种子").count() >= 1  # app.py's sidebar is there
        assert pg.get_by_text("Page not found").count() == 0
        assert pg.locator("[data-testid=stException]").count() == 0
        assert "lang=zh" in pg.url
        context.close()


def test_two_sessions_never_see_each_others_runs(server, browser):
    # Each browser session owns its LiveRun (models, optimizers) in st.session_state.
    first = browser.new_context(viewport={"width": 1400, "height": 1000})
    second = browser.new_context(viewport={"width": 1400, "height": 1000})
    a, b = first.new_page(), second.new_page()
    a.goto(f"{server}/{LIVE_SMALL.format(steps=1)}")
    _settle(a)
    a.locator(".st-key-lv_run button").click()
    a.get_by_text("Finished: 1 steps per algorithm.").wait_for(timeout=300_000)
    b.goto(f"{server}/{LIVE_SMALL.format(steps=1)}")
    _settle(b)
    assert b.get_by_text("Choose the settings and press").count() == 1
    assert b.get_by_text("Finished:").count() == 0 and b.locator(".js-plotly-plot").count() == 0
    first.close()
    second.close()


def test_language_switch_after_a_run(server, page):
    page.goto(f"{server}/{LIVE_SMALL.format(steps=1)}")
    _settle(page)
    page.locator(".st-key-lv_run button").click()
    page.get_by_text("Finished: 1 steps per algorithm.").wait_for(timeout=300_000)
    _wait_idle_after_click(page)
    for label, title in (("中文", "实时策略更新"), ("English", "Live policy update"), ("中文", "实时策略更新")):
        page.get_by_text(label, exact=True).click()
        page.wait_for_function(
            "t => document.querySelector('h1') && document.querySelector('h1').innerText === t", arg=title
        )
        _wait_idle_after_click(page)
        exceptions = page.locator("[data-testid=stException]")
        assert exceptions.count() == 0, exceptions.first.inner_text()
        assert "panels" not in page.url
        _wait_count(page, ".js-plotly-plot", 2)


def test_shared_curves_link_reopens_the_view(server, page):
    # A teacher's link: ε_high = 0.3 and the marker at π_old = 0.5 -> ceiling 0.5 * 1.3 = 0.65
    # (symmetric clip) vs DAPO's 0.5 * 1.28 = 0.64, both read off the loss's gradient.
    page.goto(f"{server}/curves?c_grpo_epsilon_high=0.3&c_pi=0.5")
    _settle(page)
    _wait_count(page, ".js-plotly-plot", 3)
    # the claim's own token (π_old = 0.2) is always spelled out, then the marked one
    texts = page.locator("[data-testid=stMarkdownContainer]", has_text="can reach at most").all_inner_texts()
    assert len(texts) == 2, texts
    assert "π_old = 0.20" in texts[0] and "0.260" in texts[0] and "0.256" in texts[0], texts[0]
    assert "π_old = 0.50" in texts[1] and "0.650" in texts[1] and "0.640" in texts[1], texts[1]
    # moving a slider writes the URL, so the link can be copied
    slider = page.locator(".st-key-c_pi input[type=range]")
    slider.focus()
    slider.press("ArrowRight")
    _wait_idle_after_click(page)
    assert "c_pi=0.51" in page.url and "c_grpo_epsilon_high=0.3" in page.url, page.url
    assert page.get_by_text("A token at π_old = 0.51 can reach at most").count() == 1
    _check_and_shoot(page, "curves-shared-link")


def test_dynamic_sampling_run_in_the_browser(server, page):
    page.goto(f"{server}/sampling?s_steps=2&s_lp=4&s_lG=4&s_heldout=1")
    _settle(page)
    page.locator(".st-key-s_run button").click()
    page.get_by_text("Finished 2 steps.").wait_for(timeout=300_000)
    _wait_idle_after_click(page)
    assert page.get_by_role("button", name="Download the numbers (CSV)").count() >= 4
    _check_and_shoot(page, "sampling-run-en")


def test_dark_theme_is_readable_and_every_control_takes_the_keyboard(server, browser):
    """The reader's dark system theme gives a dark page whose black chart lines are drawn light and
    whose charts name themselves to screen readers; Tab alone reaches the page's sliders, toggles
    and selects, and an arrow key moves a focused slider (and the chart with it)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme="dark")
    pg = context.new_page()
    try:
        pg.goto(f"{server}/curves")
        _settle(pg)
        _wait_count(pg, ".js-plotly-plot", 3)
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
        _settle(pg)
        assert pg.locator("[data-testid=stException]").count() == 0
    finally:
        context.close()


def _mock_answer(pg, q, value, lang: str) -> None:
    """Enter ``value`` as the answer to ``q`` on its mock-interview card."""
    card = pg.locator(f"[class~='st-key-iv_mock_card_{q.id}']")
    if q.kind == "number":
        card.locator("[data-testid=stNumberInput] input").fill(f"{value:.6g}")
    else:
        card.locator("[data-testid=stRadio]").get_by_text(q.choice_text[value][lang], exact=True).click()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_mock_interview_in_the_browser(server, page, lang):
    # A whole mock interview through the real UI: start, answer every question drawn (the first one
    # wrong, the rest with the answer rlviz computes), and the review's score says so.
    import re

    from rlviz.i18n import t
    from rlviz.teach.bank import load_bank

    bank = load_bank()
    page.goto(f"{server}/interview?lang={lang}")
    _settle(page)
    page.locator("[data-testid=stButtonGroup] button", has_text=t("interview.mode_mock", lang)).click()
    page.locator(".st-key-iv_start button").click()
    cards, reviews = "[class*='st-key-iv_mock_card_']", "[class*='st-key-iv_review_']"
    page.wait_for_selector(cards, timeout=60_000)
    asked: list[str] = []
    while page.locator(cards).count():
        qid = re.search(r"st-key-iv_mock_card_(\S+)", page.locator(cards).first.get_attribute("class")).group(1)
        assert qid not in asked
        q = bank.question(qid)
        if asked:
            value = q.compute()
        else:  # one wrong answer: another choice, or a number far outside the tolerance
            value = next(c for c in q.choices if c != q.compute()) if q.kind == "choice" else q.compute() + 1.0
        _mock_answer(page, q, value, lang)
        page.locator(".st-key-iv_mock_commit button").click()
        page.locator(f"[class~='st-key-iv_mock_card_{qid}']").wait_for(state="detached", timeout=60_000)
        page.wait_for_selector(f"{cards}, {reviews}", timeout=60_000)
        page.wait_for_selector(IDLE, timeout=60_000)  # the run is over: the last card's input is gone
        asked.append(qid)
        _no_exception_now(page)
    n = len(asked)
    assert n == min(10, len(bank.questions))
    page.wait_for_selector(IDLE, timeout=60_000)
    assert page.locator(reviews).count() == n
    score = page.locator("[data-testid=stMetric]", has_text=t("interview.score", lang)).first.inner_text()
    assert t("interview.score_value", lang, right=n - 1, total=n) in score, score
    _check_and_shoot(page, f"interview-mock-{lang}")


def test_present_a_shipped_lesson_on_a_projector(server, page):
    """A teacher opens a shipped lesson's presenter link on a 1024 px projector, in each language, and
    presses Next: the step's page with its settings, no sidebar, large type, only the step's controls."""
    from rlviz.i18n import t

    page.set_viewport_size({"width": 1024, "height": 768})
    for lang in ("en", "zh"):
        page.goto(f"{server}/lessons?lesson=clipping&present=1" + ("&lang=zh" if lang == "zh" else ""))
        page.wait_for_selector(".st-key-ls_bar", timeout=90_000)
        _settle(page)
        assert "/curves?" in page.url and "step=0" in page.url, page.url
        page.locator(".st-key-ls_bar_next button").click()
        page.wait_for_function("location.href.includes('step=1')", timeout=90_000)
        page.wait_for_selector(".st-key-ls_bar", timeout=90_000)
        _wait_idle_after_click(page)
        exceptions = page.locator("[data-testid=stException]")
        assert exceptions.count() == 0, exceptions.first.inner_text()
        assert "c_ppo_epsilon_high=0.28" in page.url, page.url  # step 2: PPO with DAPO's clip-higher
        bar = page.locator(".st-key-ls_bar").inner_text()
        assert t("lessons.bar.step", lang, k=2, n=4, page=t("nav.curves", lang)) in bar, bar
        style = page.evaluate(
            """() => {
              const shown = (sel) => { const e = document.querySelector(sel); return !!e && e.checkVisibility(); };
              const p = document.querySelector('[data-testid=stMain] [data-testid=stMarkdownContainer] p');
              return {sidebar: shown('[data-testid=stSidebar]'), toggle: shown('[data-testid=stExpandSidebarButton]'),
                      font: parseFloat(getComputedStyle(p).fontSize),
                      width: document.querySelector('[data-testid=stMainBlockContainer]').getBoundingClientRect().width,
                      epsHigh: shown('.st-key-c_ppo_epsilon_high'), epsLow: shown('.st-key-c_ppo_epsilon_low'),
                      algos: shown('.st-key-c_algos'), asked: shown('.st-key-pred_teach-curves_ceiling'),
                      other: shown('.st-key-pred_teach-curves_negative')}
            }"""
        )
        assert not style["sidebar"] and not style["toggle"], style
        assert style["font"] >= 20 and style["width"] <= 1024, style
        assert style["epsHigh"] and not style["epsLow"] and not style["algos"], style  # only the step's controls
        assert style["asked"] and not style["other"], style  # the step's question, not the page's other one
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"lesson-presenter-{lang}.png"))
