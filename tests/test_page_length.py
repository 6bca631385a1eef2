"""The Length penalties page through AppTest: defaults, extreme widget values, both languages, bad
input as st.error, settings in the URL."""

from __future__ import annotations

import html
import re
from dataclasses import replace

import numpy as np
import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, trace_values

from rlviz.experiments.length_claims import load_record, provenance_text
from rlviz.experiments.length_claims import reading as reading_of
from rlviz.i18n import t
from rlviz.lm.tasks import get_task
from rlviz.teach.predict import PREDICTIONS

PAGE = "pages/length.py"


def _texts(at) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption] + [s.value for s in at.subheader])


def _skip_all(at, lang: str = "en"):
    """Press "Skip: show me" on every question of the page still waiting (one at a time: each reruns
    the page); at least one must be waiting."""
    assert [b for b in at.button if b.label == t("teach.skip", lang)], "no question waits"
    for _ in PREDICTIONS["length"]:
        skip = [b for b in at.button if b.label == t("teach.skip", lang)]
        if skip:
            skip[0].click().run()
    assert not [b for b in at.button if b.label == t("teach.skip", lang)]
    return at


def _chart_keys(at) -> list[str]:
    """The keys the page gave its charts (Streamlit's element id: ``$$ID-<hash>-<key>``)."""
    return [el.proto.id.split("-", 2)[2] for el in at.get("plotly_chart")]


def _flat(node):
    """The page's elements and blocks in the order they are drawn (a block, then what it holds)."""
    yield node
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        for k in sorted(children):
            yield from _flat(children[k])


def _plain(markdown: str) -> str:
    """A Markdown text as read: the glossary's hover help (``<abbr>``) taken off."""
    return html.unescape(re.sub(r"<[^>]+>", "", markdown))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_first_screen_is_title_lede_sliders_then_the_curves(lang):
    at = open_page(PAGE, lang=lang)
    no_exception(at)
    order = list(_flat(at.main))
    kinds = [getattr(el, "type", "") for el in order]
    title = kinds.index("title")
    lede = [i for i, el in enumerate(order) if kinds[i] == "markdown" and _plain(el.value) == t("length.lede", lang)]
    sliders = [i for i, el in enumerate(order) if getattr(el, "key", None) in ("l_max", "l_cache", "l_pen")]
    chart = kinds.index("plotly_chart")
    assert lede and title < lede[0] < sliders[0] < sliders[1] < sliders[2] < chart
    assert {kinds[i] for i in range(sliders[2] + 1, chart)} <= {"flex_container", "column"}  # nothing between
    assert order[chart].key == "length-curves"
    # no long intro, no subheader, no export, no question above the curves
    assert t("length.intro", lang) not in [el.value for el, k in zip(order[:chart], kinds) if k == "markdown"]
    assert not [k for k in kinds[:chart] if k in ("subheader", "expander", "number_input")]
    # the intro in the notes; the papers, the frameworks' keys and the export in the practitioners' block
    (notes,) = [e for e in at.expander if e.label == t("page.notes", lang)]
    assert t("length.intro", lang) in [m.value for m in notes.get("markdown")]
    (block,) = [e for e in at.expander if e.label == t("page.practitioners", lang)]
    shown = [m.value for m in block.get("markdown")]
    assert t("length.dapo_source", lang) in shown and t("length.papers", lang) in shown
    assert [e for e in block.get("expander") if e.label == t("export.title", lang)]


def test_the_answers_are_held_until_the_questions_are_answered():
    at = open_page(PAGE)
    no_exception(at)
    held = ":material/visibility_off: " + t("teach.held", "en")
    reading = t("length.curves_text", "en", start=4, lmax=8, factor="1", edge="0")
    # before the commit: the curves are drawn, their reading, the group's table (its DAPO penalties) and the
    # filtering text's penalty are not: a note in place of each
    assert figures(at)[0]["layout"]["annotations"] and reading not in _texts(at)
    # and in the measured section at the page's foot, its own question's evidence: the figure of the wrong
    # answers' lengths and the reading of the length bias (2 + 2 notes)
    record = load_record()
    bias, *others = reading_of(record, "en")
    assert [c.value for c in at.caption].count(held) == 4 and not at.table
    assert "length-claims-change" not in _chart_keys(at) and bias not in _texts(at)
    assert all(p in _texts(at) for p in others)  # the noise, the efficiency and the limits are no answer
    assert "on top" not in _texts(at)
    _skip_all(at)
    no_exception(at)
    text = _texts(at)
    assert reading in text and held not in [c.value for c in at.caption]
    assert at.table and t("length.col_penalty", "en") in at.table[0].value.columns
    assert t("length.filter_penalty", "en", factor="1") in text
    # the section's question answered: its figure, its reading and the command that measured it
    assert "length-claims-change" in _chart_keys(at) and bias in text
    assert provenance_text(record, "en") in [c.value for c in at.caption]


def _claims_name_their_task(at, lang: str) -> None:
    """Found by a new learner: the measured section's heading read "Measured on make_sum" / "在 make_sum 上实测",
    the task's internal key. Its heading, lede and provenance name the task by the registry's label in the
    page's language ("Make a sum" / "凑数"), and its key shows nowhere on the page."""
    record = load_record()
    label = get_task(record["settings"]["task"]).label[lang]
    assert t("length.claims_header", lang, task=label) in [h.value for h in at.subheader]
    lede = [m.value for m in at.markdown if t("length.claims_lede", lang).split("{")[0] in m.value]
    assert len(lede) == 1 and label in lede[0]
    assert any(label in c.value for c in at.caption)  # the provenance
    assert record["settings"]["task"] not in _texts(at)


def test_defaults_show_every_section():
    at = open_page(PAGE)
    no_exception(at)
    assert at.title[0].value == t("length.title", "en")
    figs = assert_finite_figures(at, at_least=5)
    # curves, histogram, group, filtering, sweep; the measured claims' noise and efficiency (their figure of
    # the wrong answers' lengths waits for the section's question)
    assert len(figs) == 7
    text = _texts(at)
    for key in ("curves_header", "rollouts_header", "group_header", "filter_header", "sweep_header"):
        assert t(f"length.{key}", "en") in text
    _claims_name_their_task(at, "en")
    assert "arxiv.org/abs/2501.12599" in text and "arxiv.org/abs/2502.03373" in text
    assert len(at.get("latex")) >= 4  # DAPO, Kimi, cosine, advantage
    # at the defaults (L_max 8, L_cache 4) the penalty and the truncation both bite
    metrics = {m.label: m.value for m in at.metric}
    truncated = metrics[t("length.metric_truncated", "en")]
    assert truncated != "0.0%"
    assert at.dataframe, "the per-scheme and per-group tables are missing"
    # the schemes table gives the share of groups with a signal in percent, shown whole like the
    # metric above it (the metric: "97% → 94%", task then DAPO; the table's rows: task, DAPO, ...)
    schemes = at.dataframe[0].value
    signal = schemes[t("length.col_signal", "en")]
    shown = metrics[t("length.metric_signal", "en")].replace("%", "").split(" → ")
    assert [f"{v:.0f}" for v in signal[:2]] == shown
    assert 0 <= signal.min() and signal.max() <= 100
    # three panels in the curves figure (DAPO, Kimi, cosine)
    assert len(figs[0]["layout"]["annotations"]) == 3


def test_chinese():
    at = open_page(PAGE, lang="zh")
    no_exception(at)
    assert at.title[0].value == t("length.title", "zh")
    assert t("length.filter_header", "zh") in _texts(at)
    assert_finite_figures(at, at_least=5)
    # the measured section in Chinese: its header, the reading computed from the record (the length bias's
    # paragraph waits for the question), the command and the date that measured it
    record = load_record()
    text = _texts(at)
    _claims_name_their_task(at, "zh")
    assert all(p in text for p in reading_of(record, "zh")[1:])
    assert provenance_text(record, "zh") in [c.value for c in at.caption]


def test_extreme_lengths_and_factor():
    at = open_page(PAGE)
    at.slider(key="l_cache").set_value(0).run()
    at.slider(key="l_max").set_value(1).run()  # the smallest limit: everything is truncated
    no_exception(at)
    assert_finite_figures(at, at_least=5)
    at.slider(key="l_pen").set_value(0.0).run()  # no penalty at all
    no_exception(at)
    assert_finite_figures(at, at_least=5)
    at.slider(key="l_max").set_value(32).run()
    at.slider(key="l_cache").set_value(32).run()  # the whole range is the buffer
    at.slider(key="l_pen").set_value(3.0).run()
    no_exception(at)
    assert_finite_figures(at, at_least=5)
    assert t("length.factor_note_high", "en").split("{")[0][:30] in _texts(at)


def test_other_penalty_parameters_at_their_bounds():
    at = open_page(PAGE)
    for key, value in (
        ("l_kw", 10.0),
        ("l_c0", 20.0),
        ("l_cl", -20.0),
        ("l_w0", -20.0),
        ("l_wl", 20.0),
        ("l_ex", -20.0),
    ):
        at.number_input(key=key).set_value(value)
    at.run()
    no_exception(at)
    assert_finite_figures(at, at_least=5)
    at.multiselect(key="l_other").set_value([]).run()  # DAPO alone
    no_exception(at)
    assert len(figures(at)[0]["layout"]["annotations"]) == 1


def test_rollout_settings_at_their_bounds():
    at = open_page(PAGE)
    at.number_input(key="l_n").set_value(2)
    at.number_input(key="l_g").set_value(16)
    at.slider(key="l_temp").set_value(2.0).run()
    no_exception(at)
    assert_finite_figures(at, at_least=5)
    at.number_input(key="l_n").set_value(48)
    at.number_input(key="l_g").set_value(2)
    at.slider(key="l_temp").set_value(0.3).run()
    no_exception(at)
    figs = assert_finite_figures(at, at_least=5)
    bars = [tr for tr in figs[1]["data"] if tr["type"] == "bar"]
    assert sum(sum(trace_values(b, "y")) for b in bars) == 48 * 2  # every response in the histogram


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_buffer_longer_than_max_is_held_at_max(lang):
    # a shared link with L_max 3 below the default L_cache 4: the page keeps working with L_cache = 3
    at = open_page(PAGE, lang=lang, l_max="3")
    no_exception(at)
    assert [w.value for w in at.warning] == [t("length.lcache_held", lang, lcache=4, lmax=3)]
    assert at.slider(key="l_cache").value == 4  # the widget (and the URL) keep what the user set
    figs = assert_finite_figures(at, at_least=5)
    assert len(figs) == 7  # the page's five and the measured section's two (neither reads the sliders)
    # the buffer band of the curves runs from L_max - L_cache = 0 to L_max = 3
    bands = [(sh["x0"], sh["x1"]) for sh in figs[0]["layout"]["shapes"] if sh["type"] == "rect"]
    assert bands and set(bands) == {(0, 3)}
    text = _texts(at)
    assert t("length.sweep_text", lang, lcache=3, lmax=3) in text
    # moving the slider past L_max from the page does the same
    at = open_page(PAGE, lang=lang)
    at.slider(key="l_cache").set_value(12).run()  # L_max stays 8
    no_exception(at)
    assert [w.value for w in at.warning] == [t("length.lcache_held", lang, lcache=12, lmax=8)]
    assert_finite_figures(at, at_least=5)
    at.slider(key="l_cache").set_value(8).run()  # equal is allowed: no message
    no_exception(at)
    assert not at.warning


def test_no_penalty_says_so():
    # factor 0 with the whole range as buffer: no text claims that responses lose reward
    at = _skip_all(open_page(PAGE, l_pen="0", l_max="32", l_cache="32"))  # the curves' reading shown
    no_exception(at)
    assert_finite_figures(at, at_least=5)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics[t("length.metric_penalised", "en")] == "0.0%"
    text = _texts(at)
    for key in ("curves_text_zero", "rollouts_no_penalty_zero", "group_no_effect_zero"):
        assert t(f"length.{key}", "en") in text, key
    assert t("length.sweep_text_zero", "en", lcache=32, lmax=32) in text
    assert t("length.factor_note_zero", "en", reversed=0, broken=0) in text
    assert t("length.rollouts_penalised", "en").split("{")[0].split(":")[0] not in text
    assert "on top" not in text  # the filtering text does not add a penalty either
    # a nonzero factor but L_cache = 0: responses cut at L_max are exactly L_max long, none is penalised
    at = _skip_all(open_page(PAGE, l_cache="0"))
    no_exception(at)
    assert {m.label: m.value for m in at.metric}[t("length.metric_penalised", "en")] == "0.0%"
    text = _texts(at)
    assert t("length.rollouts_no_penalty", "en", start=8) in text
    assert t("length.curves_text_step", "en", lmax=8, factor="1") in text
    # at the defaults the effect is there and said
    text = _texts(open_page(PAGE))
    assert t("length.rollouts_penalised", "en").split("{")[0] in text


def test_tables_hold_no_negative_zero():
    at = open_page(PAGE)
    no_exception(at)
    for frame in [d.value for d in at.dataframe] + [tb.value for tb in at.table]:
        numbers = frame.select_dtypes("number").to_numpy(dtype=float)
        assert not (np.signbit(numbers) & (numbers == 0)).any()


def test_bad_model_dir_names_it_in_chinese(monkeypatch, tmp_path):
    # the one bad input left that no widget range excludes: a server started with a wrong model path
    monkeypatch.setenv("RLVIZ_MODEL_DIR", str(tmp_path / "missing"))
    at = open_page(PAGE, lang="zh")
    assert not at.exception
    assert len(at.error) == 1
    message = at.error[0].value
    assert message.startswith("请检查") and t("length.model_dir", "zh") in message and "model_dir:" in message
    assert len(figures(at)) == 1  # the curves need no model and stay


def test_library_error_names_the_widget_in_chinese(monkeypatch):
    # widget ranges (and the L_cache hold) keep bad settings away from the library, so hand the real
    # core function a buffer longer than the maximum length to see its message reach the page
    import rlviz.experiments.length as length

    real = length.penalty_curves
    monkeypatch.setattr(length, "penalty_curves", lambda s: real(replace(s, buffer_length=s.max_length + 1)))
    at = open_page(PAGE, lang="zh", l_pen="0.35")  # settings no other test draws: the page's curves cache misses
    assert not at.exception
    message = at.error[0].value
    assert message.startswith("请检查") and t("length.lcache", "zh") in message and "buffer_length:" in message
    assert not figures(at)


def test_settings_in_the_url_and_back():
    # a shared link sets the widgets (a multiselect or selectbox carries its labels) ...
    label = open_page(PAGE).selectbox(key="l_group").options[3]
    at = open_page(PAGE, l_max="10", l_cache="6", l_pen="0.5", l_other="Kimi k1.5", l_ex="-5.0", l_group=label)
    no_exception(at)
    assert at.slider(key="l_max").value == 10 and at.slider(key="l_cache").value == 6
    assert at.slider(key="l_pen").value == 0.5
    assert list(at.multiselect(key="l_other").value) == ["kimi"]
    assert at.number_input(key="l_ex").value == -5.0
    assert at.selectbox(key="l_group").value == int(label.split(" ")[0].lstrip("#"))
    # ... and every setting is bound to its own URL parameter (the browser writes it back)
    widgets = [at.slider(key=k) for k in ("l_max", "l_cache", "l_pen", "l_temp")]
    widgets += [at.number_input(key=k) for k in ("l_kw", "l_c0", "l_cl", "l_w0", "l_wl", "l_ex", "l_n", "l_g")]
    widgets += [at.multiselect(key="l_other"), at.selectbox(key="l_group")]
    for w in widgets:
        assert w.proto.query_param_key == w.key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_shared_labels_helper(monkeypatch, lang):
    # app_common.labels: each key -> its text under the prefix in the session's language, extras as given
    import app_common
    from app_common import text

    monkeypatch.setattr(text, "lang", lambda: lang)
    got = app_common.labels("length", "right", "wrong", sampled="sampled (24)")
    assert got == {"right": t("length.right", lang), "wrong": t("length.wrong", lang), "sampled": "sampled (24)"}
    assert app_common.labels("length", "right", right="kept") == {"right": "kept"}  # an extra wins


def test_figures_follow_the_language_and_every_setting_under_their_cheap_key():
    # The page's caches hash its settings by their repr (app_common.settings_hash) and its figures
    # by the language, not by their labels: the same settings in the other language must not be
    # answered from the first one's cache, and the repr must name every field, nested ones too.
    import dataclasses

    from app_common import settings_hash
    from rlviz.experiments.length import CosineParams, ShapingSettings

    key = settings_hash(ShapingSettings)[ShapingSettings]
    base = ShapingSettings()
    changed = [replace(base, **{f.name: 7}) for f in dataclasses.fields(base) if f.name != "cosine"]
    changed += [replace(base, cosine=replace(base.cosine, **{f.name: 0.25})) for f in dataclasses.fields(CosineParams)]
    assert len({key(s) for s in [base, *changed]}) == 1 + len(changed)
    assert key(replace(base, penalty_factor=0.1 + 0.2)) != key(replace(base, penalty_factor=0.3))  # exact floats
    with pytest.raises(ValueError, match="types"):
        settings_hash(dataclasses.make_dataclass("Loose", [("x", int)]))  # not frozen

    import json

    query = {"l_pen": "2.9", "l_cache": "3"}  # settings no other test draws
    for lang, other in (("en", "zh"), ("zh", "en"), ("en", "zh")):  # en first, then from the cache
        at = open_page(PAGE, lang=lang, **query)
        no_exception(at)
        layouts = json.dumps([fig["layout"] for fig in figures(at)], ensure_ascii=False)
        assert t("length.panel_dapo", lang) in layouts and t("length.panel_dapo", other) not in layouts


def test_cache_keys_are_streamlits_own_and_computed_once_per_function(monkeypatch):
    # app_common.memoize_function_keys: a page's cached functions are keyed as Streamlit keys them
    # (module, name, source text), once per function while its code is the same, not on every rerun
    # (inspect.getsource tokenised the page file: about 7 ms a rerun of this page).
    import inspect
    import linecache

    from streamlit.runtime.caching import cache_utils
    from streamlit.runtime.caching.cache_type import CacheType

    from app_common import figure_cache, memoize_function_keys

    assert memoize_function_keys() and cache_utils._make_function_key._rlviz_memo  # in place, once
    original = cache_utils._make_function_key.__wrapped__
    path = "/tmp/rlviz-memo-page.py"  # a page script's source, as linecache holds a file's
    source = "def figure_a(x):\n    return {'a': x}\n\ndef figure_b(x):\n    return {'b': x}\n"
    monkeypatch.setitem(linecache.cache, path, (len(source), None, source.splitlines(True), path))
    code = compile(source, path, "exec")

    def rerun(code):  # the page script runs again: its decorators run again
        space = {"__name__": "__main__"}
        exec(code, space)
        return [figure_cache(space["figure_a"]), figure_cache(space["figure_b"])]

    made = [rerun(code) for _ in range(3)]
    calls = []
    real_getsource = inspect.getsource
    monkeypatch.setattr(inspect, "getsource", lambda f: calls.append(f) or real_getsource(f))
    again = rerun(code)
    assert calls == []  # nothing read the source again
    keys = [[f._function_key for f in run] for run in [*made, again]]
    assert all(k == keys[0] for k in keys) and keys[0][0] != keys[0][1]  # stable; one per function
    # Streamlit's own key for each (a figure_cache wrapper unwraps to the page's function)
    assert keys[0] == [original(CacheType.DATA, w._info.func) for w in again]
    assert len(calls) == 2  # that did read it
    # an edited function compiles to new code: a new key
    edited = source.replace("{'a': x}", "{'a': x + 1}")
    monkeypatch.setitem(linecache.cache, path, (len(edited), None, edited.splitlines(True), path))
    assert rerun(compile(edited, path, "exec"))[0]._function_key != keys[0][0]
