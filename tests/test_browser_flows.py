"""The real thing, part 2: what a reader does with the app in a real browser (Playwright, headless
chromium): live runs (stopped, continued, the language switched and the page left mid-run, a
second session beside them), a dynamic-sampling run, a whole mock interview, a lesson on a
projector. Part 1 (every page, the shell) is tests/test_browser.py. Skips only when
/usr/bin/chromium is missing.
"""

from __future__ import annotations

import time

from browsertools import (
    ARTIFACTS,
    BROWSER,
    IDLE,
    LIVE_SMALL,
    check_and_shoot,
    no_exception_now,
    settle,
    wait_count,
    wait_idle_after_click,
)

pytestmark = BROWSER


def test_live_run_in_the_browser(server, page, browser):
    # One small run through the UI; then the language switched after it (the switch redraws the
    # finished run's figures, in Chinese); then a second browser session, which must not see the run
    # (each session owns its LiveRun, models and optimizers, in st.session_state).
    page.goto(f"{server}/{LIVE_SMALL.format(steps=2)}")
    settle(page)
    assert "lv_steps=2" in page.url and "GRPO" in page.url  # the settings live in the URL
    page.locator(".st-key-lv_run button").click()
    page.get_by_text("Finished: 2 steps per algorithm.").wait_for(timeout=300_000)
    wait_idle_after_click(page)
    # curves, ratio histogram and one token heatmap per algorithm
    wait_count(page, ".js-plotly-plot", 4)
    assert page.get_by_text("GRPO: step 2 / 2").count() == 1
    assert page.get_by_role("button", name="Download metrics (CSV)").count() == 1
    check_and_shoot(page, "live-run-en")
    page.get_by_text("中文", exact=True).click()
    page.wait_for_function("document.querySelector('h1') && document.querySelector('h1').innerText === '实时策略更新'")
    wait_idle_after_click(page)
    no_exception_now(page)
    assert "panels" not in page.url
    wait_count(page, ".js-plotly-plot", 4)
    assert page.get_by_text("GRPO：第 2 / 2 步").count() == 1  # the finished run, now in Chinese
    other = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        b = other.new_page()
        b.goto(f"{server}/{LIVE_SMALL.format(steps=2)}")
        settle(b)
        assert b.get_by_text("Choose the settings and press").count() == 1
        assert b.get_by_text("Finished:").count() == 0
        # the curves' figure is there before any run (its empty panels), but with none of the other
        # session's points, and no progress bar
        wait_count(b, ".st-key-live_run_figure .js-plotly-plot", 1)
        assert b.locator(".st-key-live_run_figure .scatterlayer .point").count() == 0
        assert b.locator("[data-testid=stProgress]").count() == 0
    finally:
        other.close()


# a visible progress bar of the live run's figure area, or its curves' figure, and where it is on screen
_RUN_IN_VIEW_JS = """(sel) => [...document.querySelectorAll(sel)].filter(e => e.checkVisibility()).map(e => {
    const r = e.getBoundingClientRect();
    return {text: e.innerText, top: r.top, bottom: r.bottom, inView: r.top >= 0 && r.bottom <= innerHeight,
            points: e.querySelectorAll('.scatterlayer .point').length};
})"""


def _click_run_timed(page, server: str, bars: str, curves: str) -> tuple[float, list]:
    """Open the small live run, check its empty figure is in view, click Run: the milliseconds from the
    click's own event to the first bar of the run inside the viewport (a MutationObserver in the page:
    what the reader sees, without Playwright's round trips), and the bars then."""
    page.goto(f"{server}/{LIVE_SMALL.format(steps=3)}")
    settle(page)
    wait_count(page, f"{curves} .main-svg", 1)  # plotly draws lazily
    before = page.evaluate(_RUN_IN_VIEW_JS, curves)
    assert len(before) == 1 and before[0]["top"] < 900 - 150 and before[0]["points"] == 0  # the empty figure, in view
    assert page.evaluate(_RUN_IN_VIEW_JS, bars) == []
    page.evaluate(
        """([sel]) => {
          window.__run = {};
          document.querySelector('.st-key-lv_run button').addEventListener('click', () => {
            window.__run.clicked = performance.now(); }, true);
          const seen = () => [...document.querySelectorAll(sel)].some(e => { const r = e.getBoundingClientRect();
            return e.checkVisibility() && r.top >= 0 && r.bottom <= innerHeight; });
          new MutationObserver(() => { if (window.__run.clicked !== undefined && window.__run.shown === undefined
            && seen()) window.__run.shown = performance.now() - window.__run.clicked; })
            .observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
        }""",
        [bars],
    )
    page.locator(".st-key-lv_run button").click()
    page.wait_for_function("() => window.__run.shown !== undefined", timeout=60_000, polling=50)
    return page.evaluate("window.__run.shown"), page.evaluate(_RUN_IN_VIEW_JS, bars)


def test_a_live_run_moves_in_view_within_two_seconds_of_run(server, page):
    """Issue 39, "a run you can watch": at 1400 x 900, after Run, the run's progress is in the first
    screen within 2 s of the click and advances there, and its curves fill in view, without scrolling
    (a browser check once saw nothing move in view for 15 s after Run: the progress and the curves were
    below the fold, under the question cards). The tests run two at a time on two cores: when another
    test's training holds the cores at the click, the run is timed once more in a fresh session after
    the first has finished (the better of two; both are printed)."""
    page.set_viewport_size({"width": 1400, "height": 900})
    bars = ".st-key-live_run_figure [data-testid=stProgress]"
    curves = ".st-key-live_run_figure [data-testid=stPlotlyChart]"
    shown, first = _click_run_timed(page, server, bars, curves)
    tries = [shown]
    if shown > 2_000:
        page.locator("[data-testid=stAlertContentSuccess]").wait_for(timeout=300_000)  # the first run done
        shown, first = _click_run_timed(page, server, bars, curves)
        tries.append(shown)
    print(f"click -> the run's first bar in view: {', '.join(f'{x:.0f}' for x in tries)} ms")
    assert min(tries) <= 2_000 and first and all(b["inView"] for b in first), (tries, first)
    # ... then it advances there (a step done), still in view: the page never scrolled
    page.wait_for_function(
        f"() => ({_RUN_IN_VIEW_JS})({bars!r}).some(b => b.inView && /step [1-9]/.test(b.text))", timeout=120_000
    )
    assert page.evaluate("document.querySelector('[data-testid=stMain]').scrollTop") == 0
    # ... and the curves fill in view, in the place they held before the run
    page.wait_for_function(f"() => ({_RUN_IN_VIEW_JS})({curves!r}).some(c => c.points > 0)", timeout=120_000)
    during = [c for c in page.evaluate(_RUN_IN_VIEW_JS, curves) if c["points"]]
    assert during and during[0]["top"] < 900 - 150, during  # at least 150 px of it in the first screen
    no_exception_now(page)
    page.locator("[data-testid=stAlertContentSuccess]").wait_for(timeout=300_000)
    check_and_shoot(page, "live-run-watched-en")


# the step a progress bar shows ("GRPO: step 3 / 200", "GRPO：第 3 / 200 步"), -1 while none does
_STEP_JS = """(prefix) => Math.max(-1, ...[...document.querySelectorAll('[data-testid=stProgress]')]
    .map(e => e.innerText).filter(t => t.startsWith(prefix)).map(t => parseInt(t.slice(prefix.length))))"""


def _shown_step(pg, prefix: str) -> int:
    return int(pg.evaluate(_STEP_JS, prefix))


def _wait_step(pg, prefix: str, at_least: int, timeout_ms: int = 120_000) -> int:
    """Wait until the progress bar starting with ``prefix`` shows step ``at_least`` or later; that step."""
    pg.wait_for_function(f"([p, n]) => ({_STEP_JS})(p) >= n", arg=[prefix, at_least], timeout=timeout_ms)
    return _shown_step(pg, prefix)


def test_live_run_survives_switches_mid_run_then_stops_keeping_its_steps(server, page):
    # Mid-run: switch the language (a rerun that used to start a second step on the same model while
    # the first was in its backward pass), change a setting (the seed), leave for the home page and
    # come back. The run stays consistent, and no exception is ever shown. Then Stop: the round in
    # progress is finished (the arms level), the partial results stay, Continue is offered; Reset.
    from rlviz.i18n import t

    steps = 400  # far more than the test lets it take: it is still running when Stop is pressed
    page.goto(f"{server}/{LIVE_SMALL.format(steps=steps)}")
    settle(page)
    page.locator(".st-key-lv_run button").click()
    _wait_step(page, "GRPO: step ", 1)  # running (a fast machine may already show a later step)
    # while it runs the settings are disabled, and so are Continue and Reset: nothing can drop the run
    assert page.locator(".st-key-lv_steps input").is_disabled()
    assert page.locator(".st-key-lv_reset button").is_disabled()
    assert page.locator(".st-key-lv_continue button").is_disabled()
    no_exception_now(page)
    page.get_by_text("中文", exact=True).click()
    page.wait_for_function("document.querySelector('h1') && document.querySelector('h1').innerText === '实时策略更新'")
    k = _wait_step(page, "GRPO：第 ", 1)  # still running, in Chinese (whichever step it is on by now)
    no_exception_now(page)
    seed = page.locator(".st-key-seed input")
    seed.fill("1")
    seed.press("Enter")
    k = _wait_step(page, "GRPO：第 ", k + 1)  # a setting changed: still running, a step further
    no_exception_now(page)
    page.get_by_role("link", name="首页").first.click()
    page.wait_for_function("document.querySelector('h1') && document.querySelector('h1').innerText !== '实时策略更新'")
    settle(page)
    no_exception_now(page)
    page.get_by_role("link", name="实时策略更新").first.click()
    page.wait_for_url("**/live**")
    page.wait_for_selector(".st-key-lv_run", timeout=60_000)
    # back on the page: the run goes on (Continue if it was left paused), a step further again
    deadline = time.monotonic() + 300
    while _shown_step(page, "GRPO：第 ") <= k and time.monotonic() < deadline:
        no_exception_now(page)
        if page.locator(".st-key-lv_continue button:enabled").count():
            page.locator(".st-key-lv_continue button").click()
        page.wait_for_timeout(500)
    assert _shown_step(page, "GRPO：第 ") > k
    # while the run goes, Streamlit's own header "Stop" (which ends the script run and left the page
    # reading "training" with nothing computing; a teacher took it for the page's Stop) is hidden
    page.locator("[data-testid=stStatusWidget]").first.wait_for(state="attached", timeout=30_000)
    assert page.locator("[data-testid=stStatusWidget] button:visible").count() == 0
    page.locator(".st-key-lv_stop button:enabled").click()
    page.locator(".st-key-lv_continue button:enabled").wait_for(timeout=120_000)
    wait_idle_after_click(page)
    no_exception_now(page)
    assert page.locator("[data-testid=stAlertContentError]").count() == 0
    stopped = t("live.stopped", "zh", done=0, total=steps).split("0")[0]  # "已在第 " + the step it stopped at
    assert page.get_by_text(stopped).count() == 1  # the round in progress was finished: arms level
    bars = page.locator("[data-testid=stProgress]").all_inner_texts()
    assert len(bars) == 2 and len({b.split("第 ")[1] for b in bars}) == 1, bars
    wait_count(page, ".js-plotly-plot", 2)  # the partial results are there
    assert not page.locator(".st-key-lv_steps input").is_disabled()  # editable again
    check_and_shoot(page, "live-stopped-zh")
    page.locator(".st-key-lv_reset button").click()
    page.get_by_text(t("live.no_run", "zh").split("**")[0].strip()).wait_for(timeout=60_000)


def test_dynamic_sampling_run_in_the_browser(server, page):
    # the run is what this test is about: the page's measured pass rates on 8 prompts x G 4, not 64 x 8
    page.goto(f"{server}/sampling?s_steps=2&s_lp=4&s_lG=4&s_heldout=1&s_np=8&s_mG=4")
    settle(page)
    page.locator(".st-key-s_run button").click()
    page.get_by_text("Finished 2 steps.").wait_for(timeout=300_000)
    wait_idle_after_click(page)
    assert page.get_by_role("button", name="Download the numbers (CSV)").count() >= 4
    check_and_shoot(page, "sampling-run-en")


def _mock_answer(pg, q, value, lang: str) -> None:
    """Enter ``value`` as the answer to ``q`` on its mock-interview card and commit it: a number is
    typed and Enter submits the card's form (as a reader does; a click on the button right after
    typing could reach the server before the typed value), a choice is clicked, then the button."""
    card = pg.locator(f"[class~='st-key-iv_mock_card_{q.id}']")
    if q.kind == "number":
        box = card.locator("[data-testid=stNumberInput] input")
        box.fill(f"{value:.6g}")
        box.press("Enter")
        try:  # Enter submits the form; if the page was still busy and it did not, the button does
            card.wait_for(state="detached", timeout=5_000)
        except Exception:
            if card.count() and box.input_value() == f"{value:.6g}":
                pg.locator(".st-key-iv_mock_commit button").click()
    else:
        card.locator("[data-testid=stRadio]").get_by_text(q.choice_text[value][lang], exact=True).click()
        pg.locator(".st-key-iv_mock_commit button").click()


def test_mock_interview_in_the_browser(server, page):
    # A whole mock interview through the real UI: start, answer every question drawn (the first one
    # wrong, the rest with the answer rlviz computes), and the review's score says so. In Chinese
    # here; tests/test_page_interview.py runs it in both languages through AppTest.
    lang = "zh"
    import re

    from rlviz.i18n import t
    from rlviz.teach.bank import load_bank

    bank = load_bank()
    page.goto(f"{server}/interview?lang={lang}")
    settle(page)
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
        page.locator(f"[class~='st-key-iv_mock_card_{qid}']").wait_for(state="detached", timeout=60_000)
        page.wait_for_selector(f"{cards}, {reviews}", timeout=60_000)
        page.wait_for_selector(IDLE, timeout=60_000)  # the run is over: the last card's input is gone
        asked.append(qid)
        no_exception_now(page)
    n = len(asked)
    assert n == min(10, len(bank.questions))
    page.wait_for_selector(IDLE, timeout=60_000)
    assert page.locator(reviews).count() == n
    score = page.locator("[data-testid=stMetric]", has_text=t("interview.score", lang)).first.inner_text()
    assert t("interview.score_value", lang, right=n - 1, total=n) in score, score
    check_and_shoot(page, f"interview-mock-{lang}")


def test_present_a_shipped_lesson_on_a_projector(server, page):
    """A teacher opens a shipped lesson's presenter link on a 1024 px projector, in each language, and
    presses Next: the step's page with its settings, no sidebar, large type, only the step's controls."""
    from rlviz.i18n import t

    page.set_viewport_size({"width": 1024, "height": 768})
    for lang in ("en", "zh"):
        page.goto(f"{server}/lessons?lesson=clipping&present=1" + ("&lang=zh" if lang == "zh" else ""))
        page.wait_for_selector(".st-key-ls_bar", timeout=90_000)
        settle(page)
        assert "/curves?" in page.url and "step=1" in page.url, page.url
        page.locator(".st-key-ls_bar_next button").click()
        page.wait_for_function("location.href.includes('step=2')", timeout=90_000)
        page.wait_for_selector(".st-key-ls_bar", timeout=90_000)
        wait_idle_after_click(page)
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
                      other: shown('.st-key-pred_teach-curves_negative'), path: shown('.st-key-path_marker'),
                      askedTop: document.querySelector('.st-key-pred_teach-curves_ceiling').getBoundingClientRect().top,
                      chartTop: [...document.querySelectorAll('[data-testid=stPlotlyChart]')]
                        .find(c => c.checkVisibility()).getBoundingClientRect().top}
            }"""
        )
        assert not style["sidebar"] and not style["toggle"], style
        assert style["font"] >= 20 and style["width"] <= 1024, style
        assert style["epsHigh"] and not style["epsLow"] and not style["algos"], style  # only the step's controls
        assert style["asked"] and not style["other"], style  # the step's question, not the page's other one
        # the question in the first projector screen, above the page's first figure; no newcomer's path
        # (its Previous / Next are not the lesson's)
        assert style["askedTop"] < 768 and style["askedTop"] < style["chartTop"] and not style["path"], style
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"lesson-presenter-{lang}.png"))
        if lang == "en":
            # Previous: step 1's ε_high (0.2, the default) is shown, not the 0.28 the browser last drew
            # for that slider, and the next move of another control does not send 0.28 back
            page.locator(".st-key-ls_bar_prev button").click()
            page.wait_for_function("/[?&]step=1(&|$)/.test(location.href)", timeout=90_000)
            wait_idle_after_click(page)
            thumb = ".st-key-c_ppo_epsilon_high [data-testid=stSliderThumbValue]"
            assert page.locator(thumb).inner_text() == "0.20"
            page.locator(".st-key-c_ppo_epsilon_low input[type=range]").press("ArrowRight")
            page.wait_for_function("location.href.includes('c_ppo_epsilon_low=0.21')", timeout=90_000)
            wait_idle_after_click(page)
            assert page.locator(thumb).inner_text() == "0.20" and "epsilon_high" not in page.url, page.url


def test_a_session_spoken_in_streamlits_protocol(server):
    """The load benchmark's sessions without a browser (benchmarks/protocol_session.py) ask the server
    what a browser asks: a page by its address, another from the sidebar in the same session, a slider
    moved (the charts change, and moving it back gives the first charts again), Run pressed on a small
    live run (it finishes with its success message); none of it shows an error."""
    import asyncio
    import concurrent.futures
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from protocol_session import ProtocolSession

    async def session():
        s = ProtocolSession(server, timeout=120)
        try:
            opened = await s.open("curves")
            assert opened.first_chart is not None and opened.errors == [], opened.errors
            assert s.pages["length"], s.pages  # the server's navigation: every page's script hash
            moved = await s.move_slider(2)
            assert moved is not None and moved.errors == []
            assert moved.charts != opened.charts  # the slider's new value reached the script
            back = await s.move_slider(-2)
            assert back.charts == opened.charts
            nav = await s.open("length")
            assert nav.first_chart is not None and nav.errors == [] and nav.charts[0] not in opened.charts
            await s.open(*LIVE_SMALL.format(steps=2).split("?"))
            run = await s.press("lv_run")
            assert run.errors == [] and run.successes, (run.errors, run.successes)
        finally:
            await s.close()

    # in a thread of its own: Playwright's sync API (this module's browser tests) keeps an event
    # loop running in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, session()).result()


def test_a_run_size_typed_out_of_range_hides_run_until_corrected(server, page):
    """Steps typed as 0 (below the field's minimum): the browser outlines the field in red and never
    sends the value, so a Run beside it would start a run with the old one. Run is replaced by a note
    saying what to correct (in the session's language) until the field holds a valid value."""
    from rlviz.i18n import t

    page.goto(f"{server}/{LIVE_SMALL.format(steps=2)}&lang=zh")
    settle(page)
    run, box = page.locator(".st-key-lv_run"), page.locator(".st-key-lv_steps input")
    note = "e => getComputedStyle(e, '::after').content"
    box.fill("0")
    box.press("Enter")
    page.wait_for_timeout(500)
    assert box.get_attribute("aria-invalid") == "true"
    assert not run.locator("button").is_visible() and not page.locator(".st-key-lv_continue button").is_visible()
    assert run.evaluate(note) == f'"{t("run.fix_field", "zh")}"'
    box.fill("3")
    box.press("Enter")
    page.wait_for_function("location.href.includes('lv_steps=3')", timeout=60_000)
    wait_idle_after_click(page)
    assert run.locator("button").is_visible() and run.evaluate(note) == "none"
    no_exception_now(page)


# a presented step as the class sees it (the main column, scrolled to the top): where the question
# ``asked`` (its container's CSS class) and the first figure stand, any element hidden in place that keeps
# a height, the blank stretches over 60 px between what is drawn, the text in view outside the question
# and the figures, and whether the style that takes the answers_<name> sentences out is on the page
PRESENTED_JS = """(asked) => {
  const main = document.querySelector('[data-testid=stMain]');
  main.scrollTo(0, 0); window.scrollTo(0, 0);
  const box = e => e.getBoundingClientRect();
  const q = document.querySelector('.' + asked);
  const chart = [...main.querySelectorAll('[data-testid=stPlotlyChart]')].find(c => c.checkVisibility());
  const inPlace = [...main.querySelectorAll('*')]
    .filter(e => !e.closest('[data-testid=stDataFrame]') && getComputedStyle(e).visibility === 'hidden'
                 && box(e).height > 0)
    .map(e => (e.getAttribute('data-testid') || e.className.toString()).slice(0, 60) + ' ' + Math.round(box(e).height));
  const drawn = [...main.querySelectorAll('[data-testid=stElementContainer], [data-testid=stExpander] summary')]
    .filter(e => e.checkVisibility()).map(box).filter(r => r.height > 0).sort((a, b) => a.top - b.top);
  const gaps = [];
  let end = drawn.length ? drawn[0].bottom : 0;
  for (const r of drawn) {
    if (r.top - end > 60) gaps.push([Math.round(end), Math.round(r.top - end)]);
    end = Math.max(end, r.bottom);
  }
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  const text = [];
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!el || el.closest('.' + asked + ',[data-testid=stPlotlyChart],style,script,.katex-mathml')) continue;
    if (el.checkVisibility({visibilityProperty: true})) text.push(walker.currentNode.textContent);
  }
  return {question: q && q.checkVisibility() ? Math.round(box(q).top) : null,
          bar: Math.round(box(document.querySelector('.st-key-ls_bar')).bottom),
          chart: chart ? Math.round(box(chart).top) : null, inPlace, gaps, text: text.join(' '),
          styled: [...document.querySelectorAll('style')].some(e => e.textContent.includes('st-key-answers_'))};
}"""


def test_a_presenters_question_stands_first_and_the_answers_wait_in_the_browser(server, page):
    """On a projector (1024x768): the step's question stands under the page's lede, inside the first
    screen and above the page's first figure; nothing in view states its answer before the class commits,
    and nothing hidden keeps a height (found by a teacher: the charts were hidden in place, leaving blank
    gaps of 400-650 px, their captions still showing, one of them hinting at the answer, and the question
    stood about six screens down). After the commit the verdict stands in its place at the top."""
    from test_no_leak import _contains, _forms

    from rlviz.plots.lessons import css_class
    from rlviz.teach.lessons import shipped_lessons, worksheet

    page.set_viewport_size({"width": 1024, "height": 768})
    for lesson_id, step in (("clipping", 1), ("token_vs_sequence", 1)):
        lesson = shipped_lessons()[lesson_id]
        question = next(q for q in worksheet(lesson) if q.step == step)
        asked = css_class(f"pred_{question.key}")
        page.goto(f"{server}/lessons?lesson={lesson_id}&present=1&step={step}")
        page.wait_for_selector(f".{asked}", timeout=90_000)
        settle(page)
        seen = page.evaluate(PRESENTED_JS, asked)
        assert seen["question"] is not None and seen["bar"] <= seen["question"] < 768, seen
        assert seen["chart"] is not None and seen["question"] < seen["chart"], seen
        assert not seen["inPlace"] and not seen["gaps"], seen
        assert seen["styled"]
        leaks = [form for form in _forms(float(question.answer)) if _contains(seen["text"], form)]
        assert not leaks, (lesson_id, step, leaks, seen["text"][:400])
        no_exception_now(page)
    # the class commits the computed answer (the worksheet's, at the step's settings): the verdict stands
    # at the top, the answers' sentences return, and still nothing hidden keeps a height
    box = page.locator(f".{asked}")
    box.locator("input").first.fill(f"{float(question.answer):g}")
    box.locator("[data-testid=stFormSubmitButton] button").first.click()
    wait_idle_after_click(page)
    box.locator("[data-testid=stAlert]").first.wait_for(timeout=60_000)
    seen = page.evaluate(PRESENTED_JS, asked)
    assert seen["question"] < 768 and seen["question"] < seen["chart"], seen
    assert not seen["styled"] and not seen["inPlace"] and not seen["gaps"], seen
    no_exception_now(page)


def test_a_lesson_draft_survives_a_reload_of_the_tab(server, page):
    """Found by a teacher: the lesson being built lived only in the session, so reloading the tab (or
    the server dropping a session disconnected for 2 minutes) lost it. Each change now writes the
    draft's code into the page's address (``?lesson=``): a reload, a new session, opens the same
    draft, its steps and its fields, in either language; a code longer than the 1,000 characters the
    URL check allows a widget's value is kept whole (``lesson`` is not a widget's parameter)."""
    import random

    from app_common import MAX_URL_VALUE_CHARS
    from rlviz.i18n import t

    rng = random.Random(0)
    note = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 ") for _ in range(1500))  # a long code

    def fill(key: str, text: str, area: bool = False) -> None:
        box = page.locator(f".st-key-{key} {'textarea' if area else 'input'}")
        box.fill(text)
        box.press("Control+Enter" if area else "Enter")
        wait_idle_after_click(page)

    def add_step() -> None:
        page.locator(".st-key-ls_add button").click()
        wait_idle_after_click(page)

    for lang in ("en", "zh"):
        page.goto(f"{server}/lessons" + ("?lang=zh" if lang == "zh" else ""))
        settle(page)
        fill("ls_title_en", f"Reload me {lang}")
        # a page's address pasted: the step's page follows it (the builder's first page is another one)
        fill("ls_settings", f"{server}/curves?c_algos=PPO&c_ppo_epsilon_high=0.28", area=True)
        fill("ls_note_en", note, area=True)
        add_step()
        fill("ls_settings", "c_algos=GRPO\nc_grpo_epsilon_low=0.1", area=True)
        add_step()
        page.wait_for_function("location.search.includes('lesson=')", timeout=60_000)
        assert len(page.url.split("lesson=", 1)[1].split("&")[0]) > MAX_URL_VALUE_CHARS, page.url
        address = page.url
        lines = [
            t("lessons.step_line", lang, k=k, page=t(f"nav.{p}", lang)).replace("**", "")
            for k, p in ((1, "curves"), (2, "curves"))
        ]
        page.reload()
        settle(page)
        wait_idle_after_click(page)
        no_exception_now(page)
        assert page.url == address  # the same address: no new history entry
        main = page.locator("[data-testid=stMain]").inner_text()
        assert all(line in main for line in lines), (lines, main[-3000:])
        assert "c_algos=PPO · c_ppo_epsilon_high=0.28" in main and "c_algos=GRPO · c_grpo_epsilon_low=0.1" in main
        assert page.locator(".st-key-ls_title_en input").input_value() == f"Reload me {lang}"
        assert page.locator(".st-key-ls_id input").input_value() == "my-lesson"
        assert t("lessons.opened", lang, title=f"Reload me {lang}") in main
        assert ("lang=zh" in page.url) == (lang == "zh")
        check_and_shoot(page, f"lesson-draft-reloaded-{lang}")
        # a new lesson: the address drops the draft, and a reload opens an empty builder
        page.locator(".st-key-ls_clear button").click()
        page.wait_for_function("!location.search.includes('lesson=')", timeout=60_000)
        wait_idle_after_click(page)
        page.reload()
        settle(page)
        assert t("lessons.no_steps", lang) in page.locator("[data-testid=stMain]").inner_text()


def test_streamlits_key_hints_are_in_the_sessions_language(server, page):
    # Streamlit writes "Press Enter to apply" / "Press Enter to submit form" in English only; in Chinese
    # the page draws the locale's text in their place (app_common.input_hints_css)
    from rlviz.i18n import t

    def hint_after(field) -> tuple[str, str]:
        span = field.locator("[data-testid=InputInstructions] > span").first
        span.wait_for(state="attached", timeout=10_000)
        return span.evaluate("e => [getComputedStyle(e).visibility, getComputedStyle(e, '::after').content]")

    for lang in ("zh", "en"):
        page.goto(f"{server}/curves?lang={lang}")
        settle(page)
        seen = []
        for field in (
            page.locator("[data-testid=stSidebar] [data-testid=stNumberInput]").first,  # the seed
            page.locator("[data-testid=stForm] [data-testid=stNumberInput]").first,  # a prediction's guess
        ):
            box = field.locator("input")
            box.scroll_into_view_if_needed()
            box.click()
            box.press("End")
            box.type("7")  # edited, not applied yet: the hint shows
            seen.append(hint_after(field))
            box.press("Escape")
        if lang == "zh":
            assert seen == [
                ["hidden", f'"{t("hint.enter_apply", "zh")}"'],
                ["hidden", f'"{t("hint.enter_submit", "zh")}"'],
            ]
        else:  # English: Streamlit's own text, shown as it is
            assert seen == [["visible", "none"], ["visible", "none"]]
        no_exception_now(page)
