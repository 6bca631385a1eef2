"""The sampler-trainer mismatch page through AppTest: the figure first (title, lede, the measurement's
controls in one row, its figure), each question holding back the samplers' rows that answer it until it
is answered or skipped, both languages with the numbers read from the measurement, the corrections'
curves from the registry, bad input as a message naming the widget, and a tiny live run on the run-page
skeleton (2 arms, 2 steps, 2 prompts x G 2). Small measurement settings throughout (2 prompts x G 2, one
stale step)."""

from __future__ import annotations

import json

import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, texts, torch_threads

from app_common.predictions import HELD_KEY
from rlviz.core.corrections import CORRECTIONS, PRESETS
from rlviz.experiments.mismatch import (
    SAMPLERS,
    MismatchSettings,
    cap_readings,
    load_measured,
    measure_mismatch,
    measured_consistency,
    sampler_names,
)
from rlviz.i18n import t
from rlviz.plots.live import SMOOTH_SPAN, ema
from rlviz.plots.mismatch import ARM_STYLES
from rlviz.teach.predict import PREDICTIONS

PAGE = "pages/mismatch.py"
SMALL = {"mm_n": 2, "mm_G": 2, "mm_k": 1}
LIVE_SMALL = {"mm_steps": 2, "mm_lp": 2, "mm_lG": 2, "mm_mu": 1, "mm_mb": 1, "mm_heldout": 0, "mm_stale": 1}


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


def _skip(at, key: str) -> None:
    """Press the question ``key``'s "Skip: show me" (its answer shown, no verdict)."""
    skip = t("teach.skip", at.session_state["lang"])
    next(b for b in at.button if b.label == skip and b.proto.form_id == f"form_{key}").click().run()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_figure_first_then_the_questions_then_the_run_on_the_run_page_skeleton(lang):
    # issue 39: the title, the lede and at once the measurement's controls in one row and its figure (at
    # most 60 words above it); the notes and the questions under it; the live run in the run pages' shape
    from test_page_live import blocks, descendants, shown_text, words

    at = open_page(PAGE, lang=lang, **SMALL)
    no_exception(at)
    order = blocks(at)
    keys = [key for _, key, _ in order]
    first_chart = next(
        i
        for i, (_, _, node) in enumerate(order)
        if any(getattr(n, "type", "") == "plotly_chart" for n in descendants(node))
    )
    # (unkeyed containers: the shell's, the presenter's slot; the experiment's progress bar, emptied)
    shown = [(k, key, node) for k, key, node in order[:first_chart] if (k != "flex_container" or key) and k != "empty"]
    assert [(kind, key) for kind, key, _ in shown] == [
        ("title", ""),
        ("markdown", ""),
        ("flex_container", "mm_measure_settings"),
    ]
    lede = shown_text(shown[1][2].value)
    assert lede == shown_text(t("mismatch.lede", lang)) and lede.count(".") + lede.count("。") <= 2
    row = descendants(shown[2][2])
    row_keys = [n.key for n in row if str(getattr(n, "key", None) or "").startswith("mm_")]
    assert row_keys == ["mm_measure_settings", "mm_model", "mm_k", "mm_top_p", "mm_lr", "mm_top_k", "mm_n", "mm_G"]
    popover = next(n for n in row if getattr(n, "type", "") == "popover")
    assert {"mm_lr", "mm_top_k", "mm_n", "mm_G"} == {getattr(n, "key", None) for n in descendants(popover)} - {None}
    above = [at.title[0].value, lede, popover.proto.popover.label] + [
        n.proto.label for n in row if getattr(n, "key", None) in ("mm_model", "mm_k", "mm_top_p")
    ]
    assert sum(words(w) for w in above) <= 60, above
    (chart,) = [n for n in descendants(order[first_chart][2]) if getattr(n, "type", "") == "plotly_chart"]
    assert chart.key == "mismatch-log-ratios"
    assert json.loads(chart.proto.spec)["layout"]["title"]["text"] == t("mismatch.grid_header", lang)
    notes = next(
        i for i, (kind, _, node) in enumerate(order) if kind == "expander" and node.label == t("page.notes", lang)
    )
    questions = [
        i
        for i, (_, _, node) in enumerate(order)
        if any(str(getattr(n, "key", "") or "").startswith("pred_") for n in descendants(node))
    ]
    assert first_chart < notes < min(questions)
    places = [k for k in keys if k.startswith("mismatch_run_")]
    assert places == [
        f"mismatch_run_{p}"
        for p in (
            "settings",
            "buttons",
            "figure",
            "reading",
            "details",
            "predictions",
            "sections",
            "notes",
            "practitioners",
            "downloads",
        )
    ]
    settings = descendants(order[keys.index("mismatch_run_settings")][2])
    assert [n.key for n in settings[1:] if getattr(n, "key", None)] == ["mm_arms", "mm_dtype", "mm_stale", "mm_steps"]
    details = {getattr(n, "key", None) for n in descendants(order[keys.index("mismatch_run_details")][2])}
    assert {"mm_lmodel", "mm_ltop_p", "mm_llr", "mm_lp", "mm_lG", "mm_mu", "mm_mb", "mm_heldout"} <= details
    figure = [
        n for n in descendants(order[keys.index("mismatch_run_figure")][2]) if getattr(n, "type", "") == "plotly_chart"
    ]
    live = json.loads(figure[0].proto.spec)
    assert figure[0].key == "mismatch-live" and live["layout"]["title"]["text"] == t("mismatch.empty_figure", lang)
    assert all(tr["x"] == [] for tr in live["data"]) and live["layout"]["xaxis"]["range"] == [0.5, 20.5]
    # before a run, the stored runs' reading stands in the run's sections
    sections = descendants(order[keys.index("mismatch_run_sections")][2])
    assert any(getattr(n, "type", "") == "table" for n in sections)
    # today's texts are all on the page: the intro, the formula's caption and the samplers in the notes,
    # the collapse flag's definition in the run's notes
    text = texts(at)
    for expected in (
        t("mismatch.intro", lang),
        t("mismatch.formula_caption", lang),
        t("mismatch.measure_text", lang, k=1, lr="0.0003"),
        t("mismatch.grid_caption", lang),
        t("mismatch.corr_text", lang),
        t("mismatch.live_lede", lang),
    ):
        assert expected in text, expected[:60]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_question_holds_back_the_rows_that_answer_it(lang):
    at = open_page(PAGE, lang=lang, **SMALL)
    no_exception(at)
    assert at.session_state[HELD_KEY] >= {p.key for p in PREDICTIONS["mismatch"]}
    result = measure_mismatch(MismatchSettings(prompts=2, group_size=2, stale_steps=1))
    bf16, fp16 = result.row("bfloat16")["kl"], result.row("float16")["kl"]
    sampler = {x: t(f"mismatch.sampler.{x}", lang, k=1, p="0.9") for x in SAMPLERS}
    sampler |= {x: t(f"mismatch.sampler.{x}", lang, k=8) for x in ("top_k", "top_k_replay")}

    def rows() -> list[str]:  # the samplers of the figure, of the measurement's table and of the effect table
        grid = figures(at)[0]
        drawn = [x for x in SAMPLERS if sampler[x] in {tr["name"] for tr in grid["data"]}]
        titles = [spec.label(lang) for spec in CORRECTIONS.values()]
        (effect,) = [tb.value for tb in at.table if list(tb.value.columns[1:]) == titles]
        tables = [at.table[0].value.iloc[:, 0].tolist(), effect.iloc[:, 0].tolist()]
        assert all(table == [sampler[x] for x in drawn] for table in tables), (drawn, tables)
        return drawn

    # neither answered: the policy itself and the stale copy only; neither precision nor truncation
    assert rows() == ["float32", "stale"]
    text = texts(at)
    assert (
        t("mismatch.read_precision", lang, bf16=f"{bf16:.3g}", fp16=f"{fp16:.3g}", verdict="").split(":")[0] not in text
    )
    assert t("mismatch.read_top_k", lang, k=8, below="", mass="").split(":")[0][:12] not in text
    assert text.count(t("teach.held", lang)) >= 3  # under the figure, the table and the effect table
    _skip(at, "mismatch.q_precision")  # the precision rows come back, truncation's stay held
    assert rows() == ["float32", "bfloat16", "float16", "stale"]
    assert f"{bf16:.3g}" in texts(at) and f"{fp16:.3g}" in texts(at)
    _skip(at, "mismatch.q_truncation")
    assert rows() == list(SAMPLERS)
    assert t("teach.held", lang) not in texts(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_both_languages_read_the_measurement(lang):
    at = open_page(PAGE, lang=lang, **SMALL)
    for key in ("mismatch.q_precision", "mismatch.q_truncation"):
        _skip(at, key)
    no_exception(at)
    assert at.title[0].value == t("mismatch.title", lang)
    grid, curves = assert_finite_figures(at, at_least=2)[:2]
    # one histogram row per sampler, two columns; one curve per correction, in registry order
    assert len(grid["data"]) == 2 * len(SAMPLERS)
    names = [tr["name"] for tr in curves["data"]]
    assert names == [spec.label(lang) for spec in CORRECTIONS.values()] + [
        t("mismatch.adv.pos", lang),
        t("mismatch.adv.neg", lang),
    ]
    # the trust region beside them: GRPO's clip, gradient weight 0 past 1 + ε for A > 0 (ε = 0.2)
    pos = curves["data"][len(CORRECTIONS)]
    assert [w for r, w in zip(pos["x"], pos["y"]) if r > 1.25] == [0.0] * sum(r > 1.25 for r in pos["x"])
    # the numbers in the table are the measurement's (deterministic given the seed)
    result = measure_mismatch(MismatchSettings(prompts=2, group_size=2, stale_steps=1))
    table = at.table[0].value
    assert len(table) == len(SAMPLERS)
    assert table.iloc[:, 1].tolist() == [f"{v:.3g}" for v in result.summary["kl"]]
    text = texts(at)
    bf16, fp16 = result.row("bfloat16")["kl"], result.row("float16")["kl"]
    assert f"{bf16:.3g}" in text and f"{fp16:.3g}" in text
    # one effect cell per sampler and correction, a header per correction
    titles = [spec.label(lang) for spec in CORRECTIONS.values()]
    (effect,) = [tb.value for tb in at.table if list(tb.value.columns[1:]) == titles]
    assert len(effect) == len(SAMPLERS)
    # under it, whether each TIS cap binds, and the mask-replay rows' reading (l = 0 with the kept set replayed)
    names = sampler_names(result.settings, lang)
    assert [x for x in cap_readings(result, list(SAMPLERS), names, lang) if x in text] == cap_readings(
        result, list(SAMPLERS), names, lang
    )
    assert len(cap_readings(result, list(SAMPLERS), names, lang)) == 2  # token and sequence TIS
    assert (
        t("mismatch.read_replay", lang, p="", k="", p_max="", p_kl="", k_max="", replay_max="", replay_kl="")[:12]
        in text
    )
    # before any run: the stored run of benchmarks/mismatch_effect.py, with its verdict from the numbers
    stored = load_measured()
    together = measured_consistency(stored)
    stored_table = at.table[-1].value
    assert len(stored_table) == len(stored["runs"][0]["arms"])
    assert len(stored_table.columns) == 1 + 3 * len(stored["runs"])  # held-out, KL, collapse per seed
    for reading in together["readings"]:
        assert reading["fields"]["matched"] in text and reading["fields"]["none"] in text
    assert (t("mismatch.measured_seeds.agree", lang) in text) == together["agree"]
    if lang == "zh":  # verl's presets in Chinese: no markup shown, Chinese titles (one page run for both checks)
        _preset_block_reads_as_plain_text_in_chinese(at)


def _unclosed_strong(markdown: str) -> list[str]:
    """The ``**...**`` spans of ``markdown`` whose closing ``**`` a CommonMark renderer does not take as a
    closer, so the asterisks show: one preceded by punctuation (Unicode P* / S*, e.g. "）") must be followed
    by whitespace, punctuation or the end (a right-flanking delimiter run)."""
    import re
    import unicodedata

    def punct(ch: str) -> bool:
        return unicodedata.category(ch)[0] in "PS"

    marks = [m.start() for m in re.finditer(r"(?<!\*)\*\*(?!\*)", markdown)]
    bad = []
    for start, end in zip(marks[::2], marks[1::2]):
        before, after = markdown[end - 1], markdown[end + 2 : end + 3]
        if punct(before) and after and not (after.isspace() or punct(after)):
            bad.append(markdown[start : end + 3])
    return bad


def _preset_block_reads_as_plain_text_in_chinese(at) -> None:
    """On the Chinese page ``at``: the mode words in bold render ("**解耦（decoupled）**模式" showed its
    asterisks: a closing ** after "）" and before a letter is no closer); the presets' table holds plain
    cells, Chinese titles, and a short last header (it was cut at 1024 px)."""
    assert _unclosed_strong("**解耦（decoupled）**模式") == ["**解耦（decoupled）**模"]  # the bug, as a check
    assert not [m.value for m in at.markdown if _unclosed_strong(str(m.value))]
    assert t("mismatch.preset_text", "zh") in [m.value for m in at.markdown]
    (table,) = [tb.value for tb in at.table if t("mismatch.preset.col.checked", "zh") in tb.value.columns]
    names = table.iloc[:, 0].tolist()
    assert names == [f"{spec.label('zh')} ({key})" for key, spec in PRESETS.items()]
    assert not [n for n in names if n.startswith("Bypass")]
    assert not [c for c in table.astype(str).to_numpy().ravel() if "**" in c or "`" in c]


def test_bad_input_is_a_message_naming_the_widget():
    at = open_page(PAGE, **SMALL)
    at.number_input(key="mm_lG").set_value(2).run()
    at.multiselect(key="mm_arms").set_value(["none", "r3", "mask_replay"]).run()
    warnings = "\n".join(w.value for w in at.warning)  # said before Run: R3 needs the MoE, replay a top-p < 1
    assert t("mismatch.dense_no_r3", "en") in warnings and t("mismatch.replay_no_truncation", "en") in warnings
    at.button(key="mm_run").click().run()
    assert not at.exception
    (error,) = [e.value for e in at.error]  # the run refused, in the page's words, naming the widget
    assert t("mismatch.dense_no_r3", "en") in error and t("mismatch.arms", "en") in error
    assert "mismatch_run" not in at.session_state


def test_tiny_live_run():
    at = open_page(PAGE, **SMALL, **LIVE_SMALL)
    n_before = len(figures(at))
    empty = figures(at)[-1]  # before the run its figure is there, in the place the run fills
    assert empty["layout"]["title"]["text"] == t("mismatch.empty_figure", "en")
    assert empty["layout"]["xaxis"]["range"] == [0.5, 2.5]  # the widget's 2 steps
    at.multiselect(key="mm_arms").set_value(["matched", "token_tis"])
    at.button(key="mm_run").click().run()
    no_exception(at)
    run = at.session_state["mismatch_run"]
    assert run.done and run.progress == {"matched": 2, "token_tis": 2}
    assert at.success[0].value == t("mismatch.finished", "en", total=2)
    figs = assert_finite_figures(at, at_least=n_before)
    assert len(figs) == n_before  # the same figure, filled: nothing added above or below it
    live = figs[-1]
    assert live["layout"]["xaxis"]["range"] == [0.5, 2.5]
    # each arm's per-step points, faded, under their moving average, in the arm's own style
    kl = [tr for tr in live["data"] if tr["name"] == CORRECTIONS["token_tis"].title and tr["yaxis"] == "y3"]
    points, line = kl
    raw = run.metrics_frame().query("arm == 'token_tis'")["rollout_kl"].tolist()
    assert points["mode"] == "markers" and points["y"] == pytest.approx(raw)
    assert line["mode"] == "lines" and line["y"] == pytest.approx(ema(raw, SMOOTH_SPAN))
    assert (
        line["line"]["color"] == ARM_STYLES["token_tis"]["color"]
        and line["line"]["dash"] == ARM_STYLES["token_tis"]["dash"]
    )
    assert t("mismatch.smooth_caption", "en", span=SMOOTH_SPAN) in texts(at)
    # the run's summary, then the stored runs' reading, under its figure
    assert at.table[-1].value.shape[0] == len(load_measured()["runs"][0]["arms"])
    assert len(at.table[-2].value) == 2
    titles = [a["text"] for a in live["layout"]["annotations"]]
    assert t("metric.rollout_kl", "en") in titles and t("metric.correction_masked_fraction", "en") in titles
    frame = run.metrics_frame()
    matched = frame[frame.arm == "matched"]
    assert (matched["rollout_kl"] == 0).all()  # the control: the sampler is the trainer
    names = {tr["name"] for tr in live["data"]} - {t("mismatch.collapse", "en")}
    assert names == {t("mismatch.arm.matched", "en"), CORRECTIONS["token_tis"].title}
    at.radio(key="lang").set_value("zh").run()
    no_exception(at)
    names = {tr["name"] for tr in figures(at)[-1]["data"]} - {t("mismatch.collapse", "zh")}
    assert names == {t("mismatch.arm.matched", "zh"), CORRECTIONS["token_tis"].label("zh")}
    at.button(key="mm_reset").click().run()
    no_exception(at)
    assert "mismatch_run" not in at.session_state and len(figures(at)) == n_before
