"""What a reader sees in the first screen of a page (issue 39's measures), read in a real browser.

Shared by the browser test (tests/test_browser_layout.py) and the benchmark
(benchmarks/first_screen.py): both call :func:`first_screen` on a settled page.

- ``chart_in_view``: the page's first chart (a Plotly figure, drawn) shows at least
  :data:`MIN_VISIBLE_PX` of its height inside the viewport, scrolled to the top.
- ``words_above``: the words of the main area's visible text that stand above that chart (English:
  whitespace-separated words; Chinese: one word per CJK character, as a reading-time measure counts
  them); the sidebar and the header do not count.
- ``overlaps``: pairs of a figure's own texts (title, subplot titles, legend, axis titles) whose
  boxes overlap, and texts cut by the figure's edge (see :data:`OVERLAPS_JS`).
"""

from __future__ import annotations

MIN_VISIBLE_PX = 150
CHART = "[data-testid=stPlotlyChart]"

FIRST_SCREEN_JS = """([minVisible]) => {
  const main = document.querySelector('[data-testid=stMain]');
  const vh = window.innerHeight;
  const charts = [...document.querySelectorAll('[data-testid=stPlotlyChart]')]
    .filter(c => c.checkVisibility());
  const first = charts[0] || null;
  const top = first ? first.getBoundingClientRect().top + window.scrollY : Infinity;
  const bottom = first ? first.getBoundingClientRect().bottom + window.scrollY : Infinity;
  const inView = first ? Math.min(bottom, vh) - top >= Math.min(minVisible, bottom - top) : false;
  // visible text above the chart, in the main area (not the sidebar, not a collapsed expander)
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  let words = 0, text = [];
  const range = document.createRange();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const s = node.textContent.trim();
    if (!s) continue;
    const el = node.parentElement;
    if (!el || !el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    if (el.closest('script,style,.katex-mathml,[data-testid=stPlotlyChart],[data-testid=stIconMaterial]')) continue;
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (r.height === 0 || r.width === 0) continue;
    if (r.bottom + window.scrollY > top + 1) continue;
    const cjk = (s.match(/[\\u3400-\\u9fff]/g) || []).length;
    const latin = s.replace(/[\\u3400-\\u9fff]/g, ' ').split(/\\s+/).filter(w => /[\\p{L}\\p{N}]/u.test(w)).length;
    words += cjk + latin;
    text.push(s);
  }
  return {chart_in_view: inView, chart_top: first ? Math.round(top) : null, words_above: words,
          n_charts: charts.length, text_above: text.join(' | ').slice(0, 3000)};
}"""

# A figure's texts that must not overlap one another or be cut by the figure's box: the title, the
# subplot titles (annotations), the legend, the axis titles. Tick labels are plotly's own to place.
OVERLAPS_JS = """() => {
  const out = [];
  const boxes = el => { const r = el.getBoundingClientRect(); return r; };
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  document.querySelectorAll('[data-testid=stPlotlyChart]').forEach((chart, ci) => {
    if (!chart.checkVisibility()) return;
    const svg = chart.querySelector('.main-svg');
    if (!svg) return;
    const frame = chart.getBoundingClientRect();
    const items = [];
    chart.querySelectorAll('.g-gtitle text, .annotation-text-g text, .g-xtitle text, .g-ytitle text, '
        + '.g-x2title text, .g-y2title text, .g-x3title text, .g-y3title text, .infolayer .legend .bg')
      .forEach(el => {
        const r = boxes(el);
        if (r.width < 1 || r.height < 1) return;
        const kind = el.classList.contains('bg') ? 'legend' : (el.closest('.g-gtitle') ? 'title'
          : el.closest('.annotation-text-g') ? 'annotation' : 'axis title');
        items.push({kind, text: el.classList.contains('bg') ? 'legend' : el.textContent.slice(0, 40), r});
      });
    for (const it of items) {
      if (it.kind === 'legend') continue;  // a legend may scroll inside its box
      if (it.r.left < frame.left - 2 || it.r.right > frame.right + 2 || it.r.top < frame.top - 2
          || it.r.bottom > frame.bottom + 2)
        out.push({chart: ci, cut: it.text, kind: it.kind});
    }
    for (let i = 0; i < items.length; i++)
      for (let j = i + 1; j < items.length; j++) {
        const a = items[i], b = items[j];
        if (a.kind === 'axis title' && b.kind === 'axis title') continue;
        if (hit(a.r, b.r)) out.push({chart: ci, a: a.text, b: b.text, kinds: [a.kind, b.kind]});
      }
  });
  return out;
}"""


def first_screen(pg, wait_ms: int = 30000) -> dict:
    """The measures above on the settled page ``pg`` (scrolled to the top first), once its first chart
    is drawn (Plotly's bundle loads lazily on a tab's first chart; waited for up to ``wait_ms``)."""
    try:
        pg.wait_for_function(
            # Streamlit draws a skeleton in place of each lazily loaded element (a chart, a table) until its
            # code has loaded: none left, and the first chart drawn
            "() => { if (document.querySelector('[data-testid=stMain] [data-testid=stSkeleton]')) return false;"
            " const c = [...document.querySelectorAll('[data-testid=stPlotlyChart]')]"
            ".find(e => e.checkVisibility()); return !c || c.querySelector('.main-svg'); }",
            timeout=wait_ms,
        )
    except Exception:  # noqa: BLE001 -- measured as it stands
        pass
    pg.evaluate("document.querySelector('[data-testid=stMain]')?.scrollTo(0, 0); window.scrollTo(0, 0)")
    return pg.evaluate(FIRST_SCREEN_JS, [MIN_VISIBLE_PX])


def overlaps(pg) -> list[dict]:
    """Pairs of overlapping figure texts and cut texts on the page ``pg`` (:data:`OVERLAPS_JS`)."""
    return pg.evaluate(OVERLAPS_JS)


# The live page's run (issue 39, "a run you can watch"): its figure area's progress bars and curves.
RUN_BARS = ".st-key-live_run_figure [data-testid=stProgress]"
RUN_CURVES = ".st-key-live_run_figure [data-testid=stPlotlyChart]"

# each visible element matching a selector, where it stands and whether it is inside the viewport (and,
# for a figure, how many points it draws)
RUN_IN_VIEW_JS = """(sel) => [...document.querySelectorAll(sel)].filter(e => e.checkVisibility()).map(e => {
    const r = e.getBoundingClientRect();
    return {text: e.innerText, top: r.top, bottom: r.bottom, inView: r.top >= 0 && r.bottom <= innerHeight,
            points: e.querySelectorAll('.scatterlayer .point').length};
})"""


def click_run_timed(page, url: str) -> tuple[float, list]:
    """Open the live page at ``url`` (a small run's settings), check its empty figure is in view, click
    Run: the milliseconds from the click's own event to the first progress bar of the run inside the
    viewport (a MutationObserver in the page: what the reader sees, without Playwright's round trips),
    and the bars then (:data:`RUN_IN_VIEW_JS`). Raises AssertionError if the empty figure is not in the
    first screen before the click, or a bar is already there; Playwright's TimeoutError if no bar comes
    into view within 60 s."""
    from browsertools import settle, wait_count

    page.goto(url)
    settle(page)
    wait_count(page, f"{RUN_CURVES} .main-svg", 1)  # plotly draws lazily
    before = page.evaluate(RUN_IN_VIEW_JS, RUN_CURVES)
    height = page.viewport_size["height"]
    assert len(before) == 1 and before[0]["top"] < height - MIN_VISIBLE_PX and before[0]["points"] == 0, before
    assert page.evaluate(RUN_IN_VIEW_JS, RUN_BARS) == []
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
        [RUN_BARS],
    )
    page.locator(".st-key-lv_run button").click()
    page.wait_for_function("() => window.__run.shown !== undefined", timeout=60_000, polling=50)
    return page.evaluate("window.__run.shown"), page.evaluate(RUN_IN_VIEW_JS, RUN_BARS)
