"""Lessons: the shipped lessons are valid and round-trip through their URL code, malformed or oversized
codes are refused naming ``lesson``, a worksheet's answers are ``Prediction.compute`` at each step's
settings (hand values beside), and the state a page's settings give its predictions."""

from __future__ import annotations

import base64
import html
import json
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlviz.experiments.curves import CurveSettings, variant_overrides
from rlviz.i18n import LANGS, t
from rlviz.plots.lessons import WORKSHEET_LABELS, css_class, hidden_answers_css, presenter_css, worksheet_html
from rlviz.teach import lessons as X
from rlviz.teach.lessons import (
    MAX_CODE_CHARS,
    Draft,
    Lesson,
    LessonStep,
    curve_controls,
    decode_draft,
    decode_lesson,
    draft_ref,
    encode_draft,
    encode_lesson,
    lesson_ref,
    page_of_address,
    page_widget_keys,
    parse_settings,
    resolve_draft,
    resolve_lesson,
    setting_warnings,
    shipped_lessons,
    step_pages,
    step_query,
    visible_choices,
    visible_warnings,
    worksheet,
)
from rlviz.teach.predict import PREDICTIONS, state_from_settings

SHIPPED = shipped_lessons()
NOTE = {"en": "", "zh": ""}


def _pack(raw: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(raw)).rstrip(b"=").decode()


# ---------------------------------------------------------------------------------------- shipped and round trip
def test_three_lessons_ship():
    assert list(SHIPPED) == ["clipping", "token_vs_sequence", "grpo_to_gspo_live"]
    assert [s.page for s in SHIPPED["clipping"].steps] == ["curves"] * 4
    assert {s.page for s in SHIPPED["token_vs_sequence"].steps} == {"weighting", "curves"}
    live = SHIPPED["grpo_to_gspo_live"].steps
    assert {s.page for s in live} == {"live"} and all(s.settings["lv_algos"] == ("GRPO", "GSPO") for s in live)


@pytest.mark.parametrize("lesson_id", list(SHIPPED))
def test_every_shipped_lesson_round_trips_and_every_step_is_valid(lesson_id):
    lesson = SHIPPED[lesson_id]
    code = encode_lesson(lesson)
    assert decode_lesson(code) == lesson
    assert set(code) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert lesson_ref(lesson) == lesson_id and resolve_lesson(lesson_id) is lesson
    assert resolve_lesson(code) == lesson
    for step in lesson.steps:
        entry = step_pages()[step.page]
        assert all(k.startswith(entry.prefix) for k in [*step.settings, *(step.visible or ())])
        assert all(step.note[lang].strip() for lang in LANGS), "every shipped step has a note in both languages"
        if step.prediction is not None:
            assert step.prediction in [p.key for p in PREDICTIONS[step.page]]
            state_from_settings(step.page, step.settings)  # a valid state
    # a changed lesson is no longer the shipped one: its reference is its code
    changed = Lesson(lesson.id, lesson.title, lesson.steps[:1])
    assert lesson_ref(changed) == encode_lesson(changed)


def _keys(prefix: str):
    return st.from_regex(r"[A-Za-z0-9_.\-]{1,12}", fullmatch=True).map(lambda k: prefix + k)


@st.composite
def lessons(draw):
    pages = step_pages()
    steps = []
    for _ in range(draw(st.integers(1, 4))):
        page = draw(st.sampled_from(sorted(pages)))
        prefix = pages[page].prefix
        text = st.text(max_size=20)
        settings_ = draw(st.dictionaries(_keys(prefix), text | st.tuples(text, text), max_size=4))
        visible = draw(st.none() | st.lists(_keys(prefix), max_size=3, unique=True).map(tuple))
        prediction = draw(st.sampled_from([None, *(p.key for p in PREDICTIONS.get(page, ()))]))
        note = {lang: draw(st.text(max_size=30)) for lang in LANGS}
        steps.append(LessonStep(page, settings_, visible, prediction, note))
    title = {lang: draw(st.text(min_size=1, max_size=20).filter(str.strip)) for lang in LANGS}
    lesson_id = draw(st.from_regex(r"[a-z0-9][a-z0-9_-]{0,10}", fullmatch=True))
    return Lesson(lesson_id, title, tuple(steps))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lessons())
def test_any_lesson_round_trips(lesson):
    assert decode_lesson(encode_lesson(lesson)) == lesson


# ---------------------------------------------------------------------------------------- refusing bad codes
BOMB = _pack(b"[" + b" " * (X.MAX_JSON_BYTES + 10) + b"]")  # a small code that inflates past the limit


@pytest.mark.parametrize(
    "bad",
    [
        None,
        123,
        "",
        "not a code!",
        "abcde",  # 5 base64 characters cannot be whole bytes
        "AAAA",  # base64 of three zero bytes: not zlib data
        _pack(b"no json here"),
        _pack(json.dumps({"id": "x"}).encode()),  # JSON, but no title and no steps
        _pack(json.dumps({"v": 2, "id": "x", "title": {"en": "a", "zh": "b"}, "steps": []}).encode()),
        _pack(json.dumps({"id": "x", "title": {"en": "a", "zh": "b"}, "steps": [{"page": "nowhere"}]}).encode()),
        _pack(json.dumps([1, 2, 3]).encode()),
        BOMB,
        "A" * (X.MAX_CODE_CHARS + 1),
        encode_lesson(SHIPPED["clipping"])[:-8],  # cut short
    ],
)
def test_malformed_or_huge_codes_are_refused_naming_lesson(bad):
    with pytest.raises(ValueError, match="^lesson:"):
        decode_lesson(bad)
    if isinstance(bad, str) and bad not in SHIPPED:
        with pytest.raises(ValueError, match="^lesson:"):
            resolve_lesson(bad)


def test_bad_steps_and_lessons_name_the_parameter():
    with pytest.raises(ValueError, match="^page:"):
        LessonStep("nowhere")
    with pytest.raises(ValueError, match="^page:"):
        LessonStep("lessons")  # a lesson never opens the lessons page
    with pytest.raises(ValueError, match="^settings:.*wt_len"):
        LessonStep("curves", {"wt_len": "200"})  # a key of another page
    with pytest.raises(ValueError, match="^settings:"):
        LessonStep("curves", {"c_algos": {"a": 1}})
    with pytest.raises(ValueError, match="^settings:"):
        LessonStep("curves", {"c_bad key": "1"})
    with pytest.raises(ValueError, match="^visible:"):
        LessonStep("curves", visible=("lv_algos",))
    with pytest.raises(ValueError, match="^prediction:"):
        LessonStep("curves", prediction="teach.weighting_token_mean")  # asked on another page
    with pytest.raises(ValueError, match="^prediction:"):
        LessonStep("live", prediction="teach.curves_ceiling")
    with pytest.raises(ValueError, match="^note:"):
        LessonStep("curves", note={"en": "x", "fr": "y"})
    step = LessonStep("curves")
    with pytest.raises(ValueError, match="^id:"):
        Lesson("Bad Id", {"en": "a", "zh": "b"}, (step,))
    with pytest.raises(ValueError, match="^title:"):
        Lesson("ok", {"en": " ", "zh": ""}, (step,))
    # a lesson for a class in one language: the other title is the same text
    assert Lesson("ok", {"en": "Clipping", "zh": " "}, (step,)).title == {"en": "Clipping", "zh": "Clipping"}
    assert Lesson("ok", {"en": "", "zh": "裁剪"}, (step,)).title == {"en": "裁剪", "zh": "裁剪"}
    with pytest.raises(ValueError, match="^steps:"):
        Lesson("ok", {"en": "a", "zh": "b"}, ())
    # typed values become URL text as Streamlit writes it
    step = LessonStep("curves", {"c_zoom": True, "c_pi": 0.5, "c_x": 3.0, "c_algos": ["PPO", "DAPO"]})
    assert step.settings == {"c_zoom": "true", "c_pi": "0.5", "c_x": "3", "c_algos": ("PPO", "DAPO")}


def test_a_bad_data_file_names_itself(tmp_path):
    (tmp_path / "bad.toml").write_text('id = "x"\ntitle_en = "a"\ntitle_zh = "b"\n[[steps]]\npage = "nowhere"\n')
    with pytest.raises(ValueError, match=r"^bad\.toml: steps: step 1: page:"):
        shipped_lessons(tmp_path)


# ---------------------------------------------------------------------------------------- worksheets and answer keys
def test_answer_keys_are_prediction_compute_at_each_steps_settings():
    for lesson in SHIPPED.values():
        for q in worksheet(lesson):
            step = lesson.steps[q.step - 1]
            prediction = step.predict()
            if prediction.needs_result:  # measured by the class's run: no answer before it exists
                assert q.answer is None
                continue
            assert q.answer == prediction.compute(state_from_settings(step.page, step.settings))
            assert q.text["en"] == t(
                f"{q.key}.q", "en", **prediction.fields(state_from_settings(step.page, step.settings))
            )
    clipping = [q.answer for q in worksheet(SHIPPED["clipping"])]
    # pi_max = pi_old (1 + eps_high) = 0.2 x 1.2 = 0.24, then DAPO's clip-higher 0.2 x 1.28 = 0.256
    assert clipping[0] == pytest.approx(0.24, abs=1e-12) and clipping[1] == pytest.approx(0.256, abs=1e-12)
    # A < 0 at r = 1.5 > 1 + eps: the unclipped r A keeps a gradient; with the dual clip c = 1.2 < 1.5 it is capped
    assert clipping[2:] == ["flows", "zero"]
    token, seq = (q.answer for q in worksheet(SHIPPED["token_vs_sequence"]))
    # lengths 200 and 10: token-mean totals 200/210 : 10/210 = 20; seq-mean-token-mean per token
    # (1/2)(1/10) : (1/2)(1/200) = 20
    assert token == pytest.approx(20.0) and seq == pytest.approx(20.0)
    live = worksheet(SHIPPED["grpo_to_gspo_live"])
    assert [(q.step, q.key, q.answer) for q in live] == [(1, "teach.live_clip", None), (2, "teach.live_heldout", None)]
    for q in live:  # the key says where the run reveals it; no number is printed
        assert q.answer_text == {lang: t("lessons.ws.measured", lang, step=q.step) for lang in LANGS}
    # mu x mini-batches = 2 x 2 = 4 updates at the defaults; GRPO's band [1 - 0.2, 1 + 0.2]
    assert "GRPO makes 4 updates" in live[0].text["en"] and "[0.8, 1.2]" in live[0].text["en"]
    assert live[1].choices == ({"en": "GRPO", "zh": "GRPO"}, {"en": "GSPO", "zh": "GSPO"})


def test_the_live_state_reads_the_live_pages_url_settings():
    from rlviz.experiments.live import LiveConfig

    d = LiveConfig()
    state = state_from_settings("live", {"lv_algos": ["GRPO", "gspo"], "lv_mu": "3", "lv_grpo.epsilon_high": "0.28"})
    assert state["algorithms"] == ("grpo", "gspo") and state["mu"] == 3
    assert state["settings"] == {"grpo": {"epsilon_high": 0.28}}
    assert state["group_size"] == d.group_size and state["heldout_samples"] == d.heldout_samples
    # a value out of the widget's range, or not a number, is the page's default, as Streamlit seeds it
    bad = state_from_settings("live", {"lv_mu": "99", "lv_G": "x", "lv_grpo.epsilon_high": "nan"})
    assert bad["mu"] == d.mu and bad["group_size"] == d.group_size and bad["settings"] == {}
    assert bad["algorithms"] == tuple(d.algorithms)


def test_worksheet_html_is_bilingual_with_blank_lines_and_the_key_has_the_answers():
    lesson = SHIPPED["clipping"]
    questions = worksheet(lesson)
    words = {n: {lang: f"<{n}-{lang}>" for lang in LANGS} for n in WORKSHEET_LABELS}
    words |= {f"page.{p}": {lang: f"{p}-{lang}" for lang in LANGS} for p in step_pages()}
    sheet = worksheet_html(lesson.title, questions, words, answers=False)
    key = worksheet_html(lesson.title, questions, words, answers=True)
    for q in questions:
        for lang in LANGS:
            assert html.escape(q.text[lang]) in sheet and html.escape(q.text[lang]) in key
    assert sheet.count('class="line"') == 3 * len(questions)
    assert 'class="answer"' not in sheet and key.count('class="answer"') == len(questions)
    assert "0.256" in key and t("teach.curves_negative.choice.zero", "zh") in key
    assert "<sheet-en>" not in sheet and "&lt;sheet-en&gt;" in sheet  # every text is escaped
    assert "<script" not in sheet and "http" not in sheet  # self-contained: nothing fetched


# ---------------------------------------------------------------------------------------- settings, URLs, presenting
def test_parse_settings_from_a_page_url_or_lines():
    url = "http://localhost:8501/curves?c_algos=PPO&c_algos=DAPO&c_ppo_epsilon_high=0.28&lang=zh&seed=3"
    assert parse_settings(url, "curves") == {"c_algos": ("PPO", "DAPO"), "c_ppo_epsilon_high": "0.28"}
    assert parse_settings("?wt_len=100%2C%205", "weighting") == {"wt_len": "100, 5"}
    lines = "c_algos=PPO\nc_algos=GRPO\n\n# a comment\nc_zoom = true"
    assert parse_settings(lines, "curves") == {"c_algos": ("PPO", "GRPO"), "c_zoom": "true"}
    assert parse_settings("", "curves") == {}
    with pytest.raises(ValueError, match="^settings:.*'weighting'"):
        parse_settings("http://h/weighting?wt_len=3", "curves")
    with pytest.raises(ValueError, match="^settings:"):
        parse_settings("c_algos PPO", "curves")
    with pytest.raises(ValueError, match="^settings:"):
        parse_settings("lv_steps=3", "curves")
    with pytest.raises(ValueError, match="^page:"):
        parse_settings("", "nowhere")


def test_step_query_opens_a_step_in_presenter_mode():
    lesson = SHIPPED["clipping"]
    query = step_query("clipping", lesson, 1)
    assert query["c_algos"] == ["PPO", "DAPO"] and query["c_ppo_epsilon_high"] == "0.28"
    # step 2 of 4: the URL counts from 1, as the presenter bar does
    assert (query["lesson"], query["step"], query["present"]) == ("clipping", "2", "1") and "lang" not in query
    assert step_query("clipping", lesson, 0, "zh")["lang"] == "zh"
    for bad in (-1, 4, True, "1"):
        with pytest.raises(ValueError, match="^step:"):
            step_query("clipping", lesson, bad)
    # a step the lesson has, else the first (as a URL value a widget cannot take falls back to its default)
    assert X.step_index("4", lesson) == 3 and X.step_index("1", lesson) == 0 and X.step_index("2", lesson) == 1
    assert X.step_index("5", lesson) == 0 and X.step_index("0", lesson) == 0 and X.step_index("x", lesson) == 0
    assert X.step_index("-1", lesson) == 0 and X.step_index(None, lesson) == 0 and X.step_index("9" * 5000, lesson) == 0


def test_presenter_css_hides_the_sidebar_and_the_controls_not_listed():
    css = presenter_css("lv_", ("lv_algos", "lv_grpo.lr"), ("teach.a",), "teach.b")
    assert "[data-testid=stSidebar]" in css and "max-width:1024px" in css and "font-size:20px" in css
    assert '[class*="st-key-lv_"]' in css and ":not(.st-key-lv_algos):not(.st-key-lv_grpo-lr)" in css
    # the page's other question, and the empty place the step's question left (it is drawn at the top of
    # the page), each with the wrapper around it: taken out, not hidden in place
    assert ".st-key-pred_teach-a,[data-testid=stLayoutWrapper]:has(> .st-key-pred_teach-a)," in css
    assert (
        ".st-key-pred_moved_teach-b,[data-testid=stLayoutWrapper]:has(> .st-key-pred_moved_teach-b){display:none" in css
    )
    # what holds only them (a question's column, an expander of questions) goes too, unless a figure is in it
    assert "[data-testid=stColumn]:has(> [data-testid=stVerticalBlock] > :is(.st-key-pred_teach-a," in css
    assert (
        '[data-testid=stExpander]:has(:is(.st-key-pred_teach-a,.st-key-pred_moved_teach-b)):not(:has(:is([class*="st-key-pred_"]'
        in css
    )
    assert css.count("[data-testid=stPlotlyChart]") >= 2
    assert ".st-key-pred_teach-b{outline" in css
    assert "st-key-ls_bar{" in css and "ls_bar{display:none" not in css
    assert ".st-key-path_marker,[data-testid=stLayoutWrapper]:has(> .st-key-path_marker){display:none" in css
    # an expander left with nothing in it (the page drew nothing in place of what it holds back)
    assert "[data-testid=stExpanderDetails]>[data-testid=stVerticalBlock]:empty" in css
    # what only hidden controls are in: every element in it a control of the page's not listed, no button
    assert '[data-testid=stElementContainer]:not([class*="st-key-lv_"])' in css
    assert "[data-testid=stElementContainer].st-key-lv_algos" in css and "[data-testid=stButton]" in css
    assert "[class*=" not in presenter_css("c_", None)  # visible None: every control stays
    assert css_class(" a.b c ") == "st-key-a-b-c"
    # nothing is hidden in place: every rule takes what it hides out (display:none), leaving no gap
    for sheet in (css, presenter_css("c_", ("c_algos",), (), "teach.x"), hidden_answers_css()):
        assert "visibility" not in sheet and "display:none" in sheet
    assert '[class*="st-key-answers_"]' in hidden_answers_css()


def test_the_builder_offers_the_pages_own_keys():
    keys = page_widget_keys("curves")
    assert {"c_algos", "c_zoom", "c_pi", "c_ppo_dual_clip_c_on"} <= set(keys)
    assert all(k.startswith("c_") and "csv" not in k for k in keys)
    with pytest.raises(ValueError, match="^page:"):
        page_widget_keys("home")


# ---------------------------------------------------------------------------------------- a page's settings -> its state
def test_state_from_settings_reads_url_text_and_typed_values_alike():
    ppo = variant_overrides("ppo", CurveSettings({}))
    # the default curves hold Dual-clip PPO, not PPO: its sliders, as the page's clip-cases table
    assert state_from_settings("curves", {}) == variant_overrides("ppo_dual", CurveSettings({}))
    assert state_from_settings("curves", {"c_algos": ["GRPO"]}) == ppo  # no PPO curve at all: PPO's defaults
    url = {"c_algos": ["PPO", "DAPO"], "c_ppo_epsilon_high": "0.28", "c_ppo_dual_clip_c_on": "true"}
    typed = {"c_algos": ["ppo", "dapo"], "c_ppo_epsilon_high": 0.28, "c_ppo_dual_clip_c_on": True}
    # the dual clip switched on without a value starts where the slider starts: Dual-clip PPO's c = 3
    expected = variant_overrides("ppo", CurveSettings({"ppo": {"epsilon_high": 0.28, "dual_clip_c": 3.0}}))
    assert state_from_settings("curves", url) == state_from_settings("curves", typed) == expected
    # a value the slider would refuse (out of range, not a number) leaves the default, as Streamlit does
    assert state_from_settings("curves", {"c_algos": "PPO", "c_ppo_epsilon_low": "5"}) == ppo
    assert state_from_settings("curves", {"c_algos": "GRPO", "c_ppo_epsilon_high": "0.28"}) == ppo
    assert state_from_settings("weighting", {}) == {"lengths": (200, 10)}
    assert state_from_settings("weighting", {"wt_len": "3, 1, 2", "wt_adv": "1, 1, 1"}) == {"lengths": (3, 1, 2)}
    with pytest.raises(ValueError, match="^advantages:"):
        state_from_settings("weighting", {"wt_len": "3, 1, 2"})
    # the buffer is held at L_max when set longer (as the page does)
    assert state_from_settings("length", {"l_max": "6", "l_cache": "10", "l_pen": 0.5}) == {
        "max_length": 6,
        "buffer_length": 6,
        "penalty_factor": 0.5,
    }
    assert state_from_settings("sampling", {"s_Gs": ["2", "32"]}) == {"group_size": 32}
    assert state_from_settings("sampling", {"s_Gs": [4, 8]}) == {"group_size": 8}
    with pytest.raises(ValueError, match="^group_size:"):
        state_from_settings("sampling", {"s_Gs": []})
    with pytest.raises(ValueError, match="^page:"):
        state_from_settings("moe", {})


# ---------------------------------------------------------------------------------------- the builder's draft
def test_a_draft_round_trips_as_typed_and_is_a_lesson_code_once_whole():
    steps = SHIPPED["clipping"].steps[:2]
    untitled = Draft("my-lesson", {"en": "", "zh": ""}, steps)
    code = encode_draft(untitled)
    assert decode_draft(code) == untitled and resolve_draft(code) == untitled
    with pytest.raises(ValueError, match=r"^lesson: title: empty"):
        decode_lesson(code)  # not yet a lesson: a link presents nothing
    whole = Draft("mine", {"en": " Mine ", "zh": ""}, steps)
    assert decode_draft(encode_draft(whole)) == whole  # the fields as typed (a reload shows them so)
    assert decode_lesson(draft_ref(whole)) == whole.lesson() == Lesson("mine", {"en": "Mine", "zh": "Mine"}, steps)
    assert Draft("", {"en": "", "zh": ""}).blank and not Draft("", {"en": "", "zh": "课"}).blank
    assert not Draft(steps=steps).blank
    assert whole.name("zh") == "Mine" and untitled.name("en") == "my-lesson"


def test_an_unchanged_shipped_lesson_is_its_id_and_a_draft_too_long_for_a_link_is_refused():
    for lesson_id, lesson in SHIPPED.items():
        assert draft_ref(Draft.of(lesson)) == lesson_id and resolve_draft(lesson_id) == Draft.of(lesson)
    import random

    rng = random.Random(1)

    def noise() -> str:  # text that does not compress
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(1900))

    steps = tuple(LessonStep("length", note={"en": noise(), "zh": noise()}) for _ in range(6))
    long = Draft("x", {"en": "Long", "zh": ""}, steps)
    assert len(encode_draft(long)) > MAX_CODE_CHARS
    with pytest.raises(ValueError, match=rf"^lesson: .*longer than the {MAX_CODE_CHARS}"):
        draft_ref(long)


@pytest.mark.parametrize(
    ("bad", "named"),
    [
        ({"v": 1, "id": 3, "title": {"en": "", "zh": ""}, "steps": []}, "id"),
        ({"v": 1, "id": "", "title": {"fr": "x"}, "steps": []}, "title"),
        ({"v": 1, "id": "", "title": {"en": "", "zh": ""}, "steps": [{"page": "nope"}]}, "steps: step 1: page"),
        ({"v": 1, "id": "", "title": {"en": "", "zh": ""}, "steps": [], "extra": 1}, "lesson"),
        ({"v": 1, "steps": [{"page": "length"}] * 41}, "steps"),
    ],
)
def test_a_bad_draft_names_the_field(bad, named):
    code = _pack(json.dumps(bad).encode())
    with pytest.raises(ValueError, match=rf"^lesson: {named}"):
        decode_draft(code)


@pytest.mark.parametrize(
    ("page", "settings", "named"),
    [
        ("curves", {"c_algos": "NOPE"}, ["c_algos"]),
        ("curves", {"c_algos": "ppo"}, ["c_algos"]),  # the page's URL names a curve by its title
        ("curves", {"c_algos": ("PPO", "nope", "GSPO")}, ["c_algos"]),
        ("curves", {"c_algos": "PPO", "c_ppo_epsilon_high": "7"}, ["c_ppo_epsilon_high"]),  # range (0, 1)
        ("curves", {"c_algos": "PPO", "c_ppo_epsilon_low": "-0.1"}, ["c_ppo_epsilon_low"]),
        ("curves", {"c_algos": "PPO", "c_ppo_epsilon_high": "wide"}, ["c_ppo_epsilon_high"]),
        ("curves", {"c_algos": "PPO", "c_ppo_epsilon_high": ("0.2", "0.3")}, ["c_ppo_epsilon_high"]),
        ("curves", {"c_algos": "PPO", "c_ppo_dual_clip_c_on": "maybe"}, ["c_ppo_dual_clip_c_on"]),
        ("curves", {"c_algos": "GSPO", "c_gspo_epsilon_low": "0.00033"}, ["c_gspo_epsilon_low"]),  # not a choice
        ("curves", {"c_ppo_epsilon_high": "0.3"}, ["c_ppo_epsilon_high"]),  # PPO is not a default curve
        ("live", {"lv_algos": ("GRPO", "NOPE")}, ["lv_algos"]),
        ("curves", {"c_algos": ("PPO", "GSPO"), "c_ppo_epsilon_high": "1", "c_gspo_epsilon_low": "5e-05"}, []),
        ("curves", {"c_algos": "PPO", "c_ppo_dual_clip_c_on": "true", "c_ppo_dual_clip_c": "3"}, []),
        ("curves", {"c_algos": "", "c_zoom": "true"}, []),
        ("curves", {"c_grpo_epsilon_high": "0.3"}, []),  # GRPO is a default curve
        ("live", {"lv_algos": ("GRPO", "GSPO"), "lv_steps": "9999"}, []),  # lv_steps' range is the page's
        ("length", {"l_max": "-5"}, []),  # the page's own range: not stated by the library, not checked
    ],
)
def test_setting_warnings_name_what_the_registry_says_the_page_will_not_take(page, settings, named):
    problems = setting_warnings(page, settings)
    assert [p.split(":", 1)[0] for p in problems] == named, problems


@pytest.mark.parametrize(
    "settings",
    [
        {"c_algos": ("PPO", "NOPE")},
        {"c_ppo_epsilon_high": "0.3"},
        {"c_algos": "PPO", "c_ppo_epsilon_high": ("0.2", "0.3")},
        {"c_algos": "PPO", "c_ppo_dual_clip_c_on": "maybe"},
        {"c_algos": "PPO", "c_ppo_epsilon_high": "wide"},
        {"c_algos": "GSPO", "c_gspo_epsilon_low": "0.00033"},
        {"c_algos": "PPO", "c_ppo_epsilon_high": "7"},
    ],
)
def test_setting_warnings_speak_the_language_asked(settings):
    # found by a new user: the builder's warning in Chinese carried the library's English sentence
    import re

    (en,) = setting_warnings("curves", settings, "en")
    (zh,) = setting_warnings("curves", settings, "zh")
    assert en.split(":", 1)[0] == zh.split(":", 1)[0]  # the same parameter named first
    assert re.search(r"[\u4e00-\u9fff]", zh) and not re.search(r"[\u4e00-\u9fff]", en)
    (lv,) = setting_warnings("live", {"lv_algos": "NOPE"}, "zh")
    assert lv.startswith("lv_algos: 'NOPE' 不是这个页面的目标函数（1 个")
    with pytest.raises(ValueError, match="^lang:"):
        setting_warnings("curves", settings, "fr")


def test_curve_controls_are_each_curves_registry_settings():
    from rlviz.core.objectives import ALGORITHMS
    from rlviz.experiments.curves import variants

    controls = curve_controls()
    for key, variant in variants().items():
        for s in ALGORITHMS[variant.algorithm].surrogate_settings:
            assert controls[f"c_{key}_{s.name}"] == (key, s, False)
            assert (f"c_{key}_{s.name}_on" in controls) == (s.default is None)


def test_the_visible_list_offers_the_sliders_of_the_curves_the_step_shows():
    # found by a new user: a step showing DAPO and Dual-clip PPO was offered only PPO's sliders, and
    # c_ppo_epsilon_high left visible drew nothing, without a word
    shown = {"c_algos": ("DAPO", "Dual-clip PPO")}
    offered = visible_choices("curves", shown)
    assert {"c_dapo_epsilon_high", "c_ppo_dual_dual_clip_c", "c_ppo_dual_epsilon_high"} <= set(offered)
    assert not any(k.startswith("c_gspo_") for k in offered)  # GSPO is not shown
    assert set(page_widget_keys("curves")) <= set(offered)
    (warning,) = visible_warnings("curves", shown, ["c_algos", "c_ppo_epsilon_high", "c_dapo_epsilon_high"])
    assert warning.startswith("c_ppo_epsilon_high: PPO is not among the step's curves")
    assert visible_warnings("curves", shown, None) == () and visible_warnings("length", {}, ["l_max"]) == ()
    (zh,) = visible_warnings("curves", shown, ["c_ppo_epsilon_high"], "zh")
    assert "不在这一步的曲线" in zh
    with pytest.raises(ValueError, match="^page:"):
        visible_warnings("lessons", {}, [])


def test_page_of_address_names_the_step_page_an_address_opens():
    assert page_of_address("http://host:8501/moe?mo_lr=0.001") == "moe"
    assert page_of_address("/curves?c_algos=PPO") == "curves"
    assert page_of_address("https://school.example/rlviz/length") == "length"  # under a prefix
    for text in ("c_algos=PPO", "?c_algos=PPO", "http://host/lessons?lesson=x", "http://host/nowhere", "", None, 3):
        assert page_of_address(text) is None


def test_no_shipped_step_gets_a_setting_warning():
    for lesson in SHIPPED.values():
        for step in lesson.steps:
            assert setting_warnings(step.page, step.settings) == ()
    with pytest.raises(ValueError, match="^page:"):
        setting_warnings("lessons", {})
