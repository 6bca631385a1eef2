"""The real thing, part 2: what a reader does with the app in a real browser (Playwright, headless
chromium): live runs (stopped, continued, the language switched and the page left mid-run, a
second session beside them), a dynamic-sampling run, a session spoken in Streamlit's protocol, a run
size out of range, the key hints' language. Part 1 (every page, the shell) is tests/test_browser.py,
part 3 (interview and lessons) tests/test_browser_lessons.py. Skips only when /usr/bin/chromium is
missing.
"""

from __future__ import annotations

import time

from browsertools import (
    BROWSER,
    LIVE_SMALL,
    check_and_shoot,
    no_exception_now,
    settle,
    wait_count,
    wait_idle_after_click,
)
from firstscreen import RUN_BARS, RUN_CURVES, RUN_IN_VIEW_JS, click_run_timed

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


def test_a_live_run_moves_in_view_after_run(server, page):
    """Issue 39, "a run you can watch": at 1400 x 900, after Run, the run's progress appears in the
    first screen and advances there, and its curves fill in view, without scrolling (a browser check
    once saw nothing move in view for 15 s after Run: the progress and the curves were below the fold,
    under the question cards). How soon (the issue asks for 2 s) is measured, not asserted:
    ``make bench-first-screen`` times the click to the first bar in view (docs/first-screen.md); here
    it is only printed, since the other tests share the two cores."""
    page.set_viewport_size({"width": 1400, "height": 900})
    shown, first = click_run_timed(page, f"{server}/{LIVE_SMALL.format(steps=3)}")
    print(f"click -> the run's first bar in view: {shown:.0f} ms")
    assert first and all(b["inView"] for b in first), first
    # ... then it advances there (a step done), still in view: the page never scrolled
    page.wait_for_function(
        f"() => ({RUN_IN_VIEW_JS})({RUN_BARS!r}).some(b => b.inView && /step [1-9]/.test(b.text))", timeout=120_000
    )
    assert page.evaluate("document.querySelector('[data-testid=stMain]').scrollTop") == 0
    # ... and the curves fill in view, in the place they held before the run
    page.wait_for_function(f"() => ({RUN_IN_VIEW_JS})({RUN_CURVES!r}).some(c => c.points > 0)", timeout=120_000)
    during = [c for c in page.evaluate(RUN_IN_VIEW_JS, RUN_CURVES) if c["points"]]
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
