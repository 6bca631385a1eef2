"""The lessons page and the presenter view through AppTest: the page in both languages, each shipped lesson
presented from its first step to its last with Next (each step's page opens with the step's settings:
every widget holds the value the lesson gives it, and the question asked is the worksheet's, at the
state the step's settings give), in English and in Chinese."""

from __future__ import annotations

import re

import pytest
from apptools import no_exception, open_page

from app_common import escape_markdown
from rlviz.i18n import t
from rlviz.teach.lessons import (
    MAX_CODE_CHARS,
    Draft,
    Lesson,
    LessonStep,
    decode_lesson,
    draft_ref,
    encode_lesson,
    shipped_lessons,
    worksheet,
)

PAGE = "pages/lessons.py"
SHIPPED = shipped_lessons()
WIDGETS = (
    "slider",
    "select_slider",
    "number_input",
    "multiselect",
    "toggle",
    "checkbox",
    "text_input",
    "selectbox",
    "radio",
)


def _markdown(at) -> list[str]:
    return [m.value for m in at.markdown]


def _widget(at, key: str):
    for kind in WIDGETS:
        for w in getattr(at, kind):
            if w.key == key:
                return kind, w
    raise AssertionError(f"no widget {key!r} on the page")


def _as_url(kind: str, w) -> str | tuple[str, ...]:
    """A widget's value as its URL carries it (a choice by its label, a number as text)."""
    if kind == "multiselect":
        return tuple(w.options[i] for i in w.indices)
    if kind in ("selectbox", "radio"):
        return w.options[w.index]
    if kind in ("toggle", "checkbox"):
        return "true" if w.value else "false"
    return str(w.value)


def _same(kind: str, got, wanted) -> bool:
    if kind == "multiselect":
        return got == (wanted if isinstance(wanted, tuple) else (wanted,))
    if kind in ("slider", "number_input", "select_slider"):
        return float(got) == pytest.approx(float(wanted))
    return got == wanted


def _leaves(node, pred: str = "") -> list[tuple[str, str, str, str]]:
    """The elements under ``node`` in the order a reader meets them: (type, key, text, the key of the
    question container ``pred_<key>`` they are drawn in, or "")."""
    out = []
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        try:
            key = str(node.key or "")
        except Exception:  # noqa: BLE001 -- a block without a key
            key = ""
        inside = key if key.startswith("pred_") and not key.startswith("pred_moved_") else pred
        for child in children.values():
            out += _leaves(child, inside)
        return out
    value = getattr(node, "value", "")
    out.append((node.type, str(getattr(node, "key", "") or ""), value if isinstance(value, str) else "", pred))
    return out


def _plain(markdown: str) -> str:
    """A Markdown element's text without the glossary's hover markup (``<abbr ...>``)."""
    return re.sub(r"<[^>]+>", "", markdown)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lessons_page_in_both_languages(lang):
    at = open_page(PAGE, lang=lang)
    no_exception(at)
    assert at.title[0].value == t("lessons.title", lang)
    shown = _markdown(at)
    assert all(f"**{escape_markdown(lesson.title[lang])}**" in shown for lesson in SHIPPED.values())
    assert len(at.get("download_button")) == 2 * len(SHIPPED)  # a worksheet and an answer key each
    assert [b.key for b in at.button if b.key.startswith("ls_present_")] == [f"ls_present_{k}" for k in SHIPPED]
    # the page template (issue 39): title and a short lede, then at once the ready lessons and their Present
    # buttons; what a lesson is, in the notes under them; then the builder
    order = _leaves(at.main)
    assert order[0][:3] == ("title", "", t("lessons.title", lang))
    assert order[1][0] == "markdown" and _plain(order[1][2]) == t("lessons.lede", lang)
    assert order[2][:3] == ("header", "", t("lessons.shipped_header", lang))
    first = next(lesson for lesson in SHIPPED.values())
    assert order[3][2] == f"**{escape_markdown(first.title[lang])}**"
    keys = [key for _, key, _, _ in order]
    present = keys.index(f"ls_present_{first.id}")  # between it and the lede: the lesson's title and summary
    assert [kind for kind, _, _, _ in order[2:present]] == ["header", "markdown", "caption"]
    assert len(t("lessons.lede", "en").split()) <= 40
    assert t("lessons.notes", lang) in [e.label for e in at.expander]
    intro = next(i for i, (_, _, text, _) in enumerate(order) if text == t("lessons.intro", lang))
    assert intro > keys.index(f"ls_present_{list(SHIPPED)[-1]}") and intro < keys.index("ls_id")
    # each lesson's presenter link, on demand under its steps
    codes = [c.value for c in at.code]
    assert all(any(f"/lessons?lesson={k}&present=1" in c for c in codes) for k in SHIPPED)


@pytest.mark.parametrize(
    ("lesson_id", "lang"), [("clipping", "zh"), ("token_vs_sequence", "en"), ("grpo_to_gspo_live", "en")]
)
def test_present_a_shipped_lesson_from_first_step_to_last(lesson_id, lang):
    lesson = SHIPPED[lesson_id]
    questions = {q.step: q for q in worksheet(lesson)}
    at = open_page(PAGE, lang=lang)
    at.button(key=f"ls_present_{lesson_id}").click().run()  # Present: step 1 in the presenter view
    n = len(lesson.steps)
    for k, step in enumerate(lesson.steps):
        no_exception(at)
        bar = _markdown(at)[0]
        assert lesson.title[lang] in bar
        assert t("lessons.bar.step", lang, k=k + 1, n=n, page=t(f"nav.{step.page}", lang)) in bar
        assert escape_markdown(step.note[lang]) in _markdown(at)  # shown as typed, never rendered
        assert at.query_params.get("lesson") == lesson_id and at.query_params.get("step") == str(k + 1)
        for key, wanted in step.settings.items():  # the page took every value of the step
            kind, w = _widget(at, key)
            assert _same(kind, _as_url(kind, w), wanted), (k, key, _as_url(kind, w), wanted)
        if k + 1 in questions:  # the page asks the worksheet's question: the same state from the same settings
            assert questions[k + 1].text[lang] in _markdown(at)
        assert at.button(key="ls_bar_prev").disabled == (k == 0)
        assert at.button(key="ls_bar_next").disabled == (k == n - 1)
        if k < n - 1:
            at.button(key="ls_bar_next").click().run()
    at.button(key="ls_bar_exit").click().run()  # Exit: back to the lessons page, the lesson in the builder
    no_exception(at)
    assert at.title[0].value == t("lessons.title", lang)
    assert t("lessons.opened", lang, title=lesson.title[lang]) in [s.value for s in at.success]
    assert len(at.session_state["ls_draft_steps"]) == n


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_link_straight_to_a_steps_page_takes_the_steps_settings(lang):
    # a presenter link that already points at the step's page (found by a new user: the page kept its
    # defaults while the teacher's note described the step's settings)
    lesson = SHIPPED["clipping"]
    k = next(i for i, step in enumerate(lesson.steps) if step.settings)  # a step that sets something
    step = lesson.steps[k]
    at = open_page(step.entry.file, lesson="clipping", present="1", step=str(k + 1), lang=lang)
    no_exception(at)
    assert (
        t("lessons.bar.step", lang, k=k + 1, n=len(lesson.steps), page=t(f"nav.{step.page}", lang)) in _markdown(at)[0]
    )
    for key, wanted in step.settings.items():
        kind, w = _widget(at, key)
        assert _same(kind, _as_url(kind, w), wanted), (key, _as_url(kind, w), wanted)
    # taken once: a presenter's move of a control on a later rerun stays
    assert at.session_state["presenter_step"] == ("clipping", k)


@pytest.mark.parametrize(
    ("step", "reason"),
    [
        ("-1", "invalid"),
        ("0", "invalid"),  # steps count from 1, as the presenter bar does
        ("5", "invalid"),
        ("99", "invalid"),
        ("two", "invalid"),
        ("1.5", "invalid"),
        ("01", "invalid"),
        ("7" * 5000, "invalid"),
        (["1", "2"], "repeated"),
    ],
)
def test_a_bad_step_in_a_presenter_link_opens_step_one_with_a_note(step, reason):
    # found by a new user: ?step=-1 (or a 5,000-digit step) opened step 1 without a word
    lesson = SHIPPED["clipping"]
    first = lesson.steps[0]
    at = open_page(first.entry.file, lesson="clipping", present="1", step=step)
    no_exception(at)
    assert t("lessons.bar.step", "en", k=1, n=len(lesson.steps), page=t(f"nav.{first.page}", "en")) in _markdown(at)[0]
    notes = [w.value for w in at.warning]
    assert t("url.ignored", "en", params=t(f"url.{reason}", "en", param="step")) in notes, notes
    assert at.query_params["step"] == "1"  # the address bar shows the step opened


@pytest.mark.parametrize("step", ["1", "3", "4", None])
def test_a_good_step_or_none_gets_no_note(step):
    query = {"lesson": "clipping", "present": "1"} | ({} if step is None else {"step": step})
    k = int(step or 1) - 1
    at = open_page(SHIPPED["clipping"].steps[k].entry.file, **query)
    no_exception(at)
    assert not [w.value for w in at.warning if "step" in w.value]


def test_a_bad_lesson_link_is_a_message():
    at = open_page(PAGE, lesson="garbage!", present="1")
    assert not at.exception
    assert any("lesson:" in e.value for e in at.error)


def test_build_share_and_reopen_a_lesson():
    at = open_page(PAGE)
    at.text_input(key="ls_id").set_value("mine")
    at.text_input(key="ls_title_en").set_value("My lesson")
    at.text_input(key="ls_title_zh").set_value("我的课")
    at.selectbox(key="ls_page").set_value("curves").run()
    at.text_area(key="ls_settings").set_value(
        "http://localhost:8501/curves?c_algos=PPO&c_ppo_epsilon_high=0.3&lang=zh"
    ).run()
    at.checkbox(key="ls_all_visible").set_value(False).run()
    at.multiselect(key="ls_visible").set_value(["c_ppo_epsilon_high"])
    at.selectbox(key="ls_prediction").set_value("teach.curves_ceiling")
    at.text_area(key="ls_note_en").set_value("Ask.")
    at.text_area(key="ls_note_zh").set_value("提问。")
    at.button(key="ls_add").click().run()
    no_exception(at)
    (step,) = at.session_state["ls_draft_steps"]
    assert step.settings == {"c_algos": "PPO", "c_ppo_epsilon_high": "0.3"} and step.visible == ("c_ppo_epsilon_high",)
    assert step.prediction == "teach.curves_ceiling" and step.note == {"en": "Ask.", "zh": "提问。"}
    share = next(c.value for c in at.code if "/lessons?lesson=" in c.value and "present" not in c.value)
    code = share.split("lesson=", 1)[1]
    reopened = open_page(PAGE, lesson=code)  # whoever opens the link gets the lesson in the builder
    no_exception(reopened)
    assert reopened.session_state["ls_draft_steps"] == [step]
    assert reopened.text_input(key="ls_title_zh").value == "我的课"
    assert len(reopened.get("download_button")) == 2 * len(SHIPPED) + 2  # its own worksheet and answer key


def _draft_of_one_step(at):
    at.text_input(key="ls_title_en").set_value("Mine")  # one title: the other language shows it too
    at.selectbox(key="ls_page").set_value("curves").run()
    at.text_area(key="ls_settings").set_value("c_algos=PPO\nc_ppo_epsilon_high=0.3").run()
    at.button(key="ls_add").click().run()
    (step,) = at.session_state["ls_draft_steps"]
    return step


@pytest.mark.parametrize("choice", ["ls_keep_draft", "ls_replace_draft"])
def test_exit_from_a_shipped_lesson_keeps_the_builders_draft_until_asked(choice):
    # found by a teacher: presenting a shipped lesson and pressing Exit put that lesson over their
    # half-built one in the builder, steps and all, with no way back
    at = open_page(PAGE)
    mine = _draft_of_one_step(at)
    at.button(key="ls_present_clipping").click().run()
    at.button(key="ls_bar_exit").click().run()
    no_exception(at)
    assert at.title[0].value == t("lessons.title", "en")
    code = draft_ref(Draft("my-lesson", {"en": "Mine", "zh": ""}, (mine,)))
    assert at.query_params.get("lesson") == code  # the address holds the draft again: a reload keeps it
    assert at.session_state["ls_draft_steps"] == [mine]
    assert at.text_input(key="ls_title_en").value == "Mine"  # the fields too, not drawn while presenting
    title = SHIPPED["clipping"].title["en"]
    assert t("lessons.draft_kept", "en", steps=1, title=title) in [w.value for w in at.warning]
    assert not at.success  # never "opened" beside the question (a new user saw both at once)
    at.button(key=choice).click().run()
    no_exception(at)
    kept = choice == "ls_keep_draft"
    assert at.session_state["ls_draft_steps"] == ([mine] if kept else list(SHIPPED["clipping"].steps))
    assert not at.warning and bool(at.success) == (not kept)  # answered once: the question is gone
    assert at.query_params.get("lesson") == (code if kept else "clipping")
    at.run()
    assert not at.warning


@pytest.mark.parametrize("choice", ["ls_keep_draft", "ls_replace_draft"])
def test_edit_a_copy_over_a_draft_asks_first(choice):
    # found by a new user: "Edit a copy" put the shipped lesson over their draft without a word (the
    # address then held the shipped lesson, so a reload did not bring the draft back either)
    at = open_page(PAGE)
    mine = _draft_of_one_step(at)
    at.button(key="ls_copy_clipping").click().run()
    no_exception(at)
    assert at.session_state["ls_draft_steps"] == [mine]  # nothing replaced yet
    title = SHIPPED["clipping"].title["en"]
    assert [w.value for w in at.warning] == [t("lessons.copy_asked", "en", steps=1, title=title)]
    assert not at.success  # never "opened" beside the question
    at.button(key=choice).click().run()
    no_exception(at)
    kept = choice == "ls_keep_draft"
    assert at.session_state["ls_draft_steps"] == ([mine] if kept else list(SHIPPED["clipping"].steps))
    assert not at.warning and not at.success
    at.button(key="ls_clear").click().run()  # an empty builder: a copy fills it without a question
    at.button(key="ls_copy_clipping").click().run()
    assert at.session_state["ls_draft_steps"] == list(SHIPPED["clipping"].steps) and not at.warning


def test_a_shared_lessons_notes_and_settings_are_shown_not_rendered_in_the_builder():
    # found by a teacher: a shared link's note rendered in the builder's step list, and its image was fetched
    image = "![x](http://example.com/a.png)"
    lesson = Lesson(
        id="hostile",
        title={"en": "Hostile", "zh": "恶意"},
        steps=(
            LessonStep(
                page="curves",
                settings={"c_ppo_epsilon_high": "0.3"},
                note={"en": f"{image} $x^2$ :red[red]", "zh": image},
            ),
        ),
    )
    at = open_page(PAGE, lesson=encode_lesson(lesson))
    no_exception(at)
    captions = [c.value for c in at.caption]
    assert escape_markdown(f"{image} $x^2$ :red[red]") in captions, captions
    assert not [c for c in captions if image in c or "$x^2$" in c]


def test_a_lessons_title_and_note_from_the_url_are_shown_not_rendered():
    # a lesson arrives in a URL: an image in its note must not be fetched, a link not followed
    from rlviz.teach.lessons import Lesson, LessonStep, encode_lesson

    image = "![x](http://example.invalid/pixel.png)"
    lesson = Lesson(
        id="probe",
        title={"en": f"Probe {image}", "zh": f"探针 {image}"},
        steps=(LessonStep(page="curves", settings={}, note={"en": f"see {image}", "zh": f"看 {image}"}),),
    )
    at = open_page("pages/curves.py", lesson=encode_lesson(lesson), present="1", step="1")
    no_exception(at)
    shown = "\n".join(m.value for m in at.markdown)
    assert "Probe" in shown and "see" in shown
    assert image not in shown  # escaped: "\!\[x\]..." shows the characters, makes no image


STEPS = [(lesson.id, k) for lesson in SHIPPED.values() for k in range(len(lesson.steps))]


@pytest.mark.parametrize(("lesson_id", "k"), STEPS)
def test_a_presented_steps_question_stands_first_and_nothing_in_view_gives_its_answer(lesson_id, k):
    # found by a teacher: the step's question stood about six projector screens down the page, under
    # charts hidden in place (blank gaps of 400-650 px) whose captions still showed ("[0.8, 1.28]" hinted
    # at the answer). Now the question is drawn under the page's lede, above its first figure and its
    # controls; the page holds back only that question's evidence, and nothing stands in its place
    from test_no_leak import _contains, _forms, _page_texts

    from app_common.predictions import HELD_KEY
    from rlviz.plots.lessons import hidden_answers_css
    from rlviz.teach.predict import PREDICTIONS, state_from_settings

    lesson = SHIPPED[lesson_id]
    step = lesson.steps[k]
    at = open_page(step.entry.file, lesson=lesson_id, present="1", step=str(k + 1))
    no_exception(at)

    def styled() -> bool:  # the presenter's style that takes the answers_<name> sentences out
        return any(h.proto.body == hidden_answers_css() for h in at.get("html"))

    held = at.session_state[HELD_KEY] if HELD_KEY in at.session_state else set()
    assert t("teach.held", "en") not in " ".join(c.value for c in at.caption)  # no line in place of what is held
    order = _leaves(at.main)
    if step.prediction is None:
        # a step that asks nothing holds nothing back (the class could never release it)
        assert not held and not styled()
        return
    prediction = next(p for p in PREDICTIONS[step.page] if p.key == step.prediction)
    asked = f"pred_{step.prediction}"
    first = next(i for i, leaf in enumerate(order) if leaf[3] == asked)
    lede = next(i for i, (kind, _, text, _) in enumerate(order) if kind == "markdown" and text)
    charts = [i for i, (kind, _, _, _) in enumerate(order) if kind == "plotly_chart"]
    controls = [i for i, (_, key, _, pred) in enumerate(order) if key.startswith(step.entry.prefix) and not pred]
    assert lede < first < min(charts + controls), (order[: first + 1], charts[:1], controls[:1])
    assert [leaf[3] for leaf in order[first:]].count(asked) == sum(leaf[3] == asked for leaf in order)  # whole
    assert styled()
    if not prediction.needs_result:
        state = state_from_settings(step.page, at.session_state)
        if prediction.kind == "number":
            value = float(prediction.compute(state))
            given = " ".join(str(v) for v in prediction.fields(state).values())
            texts = _page_texts(at)  # every text outside the questions' containers, figures' texts too
            for form in _forms(value):
                if not _contains(given, form):
                    assert not [x for x in texts if _contains(x, form)], (form, step.prediction)
        else:
            assert step.prediction in held  # the page holds the evidence of a choice back itself
        assert held <= {step.prediction}  # and only the step's question's: the class sees no other
    skip = f"FormSubmitter:form_{step.prediction}-{t('teach.skip', 'en')}"
    next(b for b in at.button if b.key == skip).click().run()  # the class answers (here: skips)
    no_exception(at)
    assert not styled()  # the page's answers return
    if not prediction.needs_result:  # the reveal stands where the question was, at the top of the page
        order = _leaves(at.main)
        reveal = [
            i for i, (kind, _, _, pred) in enumerate(order) if pred == asked and kind not in ("markdown", "button")
        ]
        charts = [i for i, (kind, _, _, _) in enumerate(order) if kind == "plotly_chart"]
        assert reveal and reveal[0] < min(charts), [order[i][:2] for i in reveal]
        assert [order[i][0] for i in reveal] == ["info"], [order[i][:2] for i in reveal]
        assert order[reveal[0]][2].startswith(t("teach.skipped", "en", answer="").rstrip("."))


def test_outside_a_presentation_the_question_stays_in_its_section_and_held_notes_are_shown():
    # the same page opened by itself: its questions where the page draws them, a line for what it holds back
    lesson = SHIPPED["token_vs_sequence"]
    step = lesson.steps[0]
    at = open_page(step.entry.file)
    no_exception(at)
    order = _leaves(at.main)
    first = next(i for i, leaf in enumerate(order) if leaf[3] == f"pred_{step.prediction}")
    assert first > min(i for i, (kind, _, _, _) in enumerate(order) if kind == "plotly_chart")
    assert t("teach.held", "en") in " ".join(c.value for c in at.caption)
    assert not [leaf for leaf in order if leaf[1].startswith("pred_moved_")]


# ---------------------------------------------------------------------------------------- the draft in the address
def _add(at, page: str, settings: str = "", note: str = "") -> None:
    at.selectbox(key="ls_page").set_value(page).run()
    at.text_area(key="ls_settings").set_value(settings)
    at.text_area(key="ls_note_en").set_value(note)
    at.button(key="ls_add").click().run()


def _reload(at, **extra):
    """A reload of the tab (or a new session after the old one expired): a new session at the address."""
    return open_page(PAGE, **({k: at.query_params[k] for k in at.query_params} | extra))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_reload_opens_the_same_draft_with_the_same_fields(lang):
    # found by a teacher: reloading the tab (or coming back after the session expired) lost the draft
    at = open_page(PAGE, lang=lang)
    assert "lesson" not in at.query_params  # nothing built yet: the address is the page's own
    _add(at, "curves", "c_algos=PPO\nc_ppo_epsilon_high=0.28", "Ask about the ceiling.")
    _add(at, "weighting")
    assert not at.exception
    steps = list(at.session_state["ls_draft_steps"])
    assert len(steps) == 2
    # no title yet: not a whole lesson (the share section says so), but the address keeps the draft
    assert [e.value for e in at.error if "title: empty" in e.value]
    assert t("lessons.share_caption", lang) not in [c.value for c in at.caption]
    again = _reload(at)
    assert not again.exception
    assert again.session_state["ls_draft_steps"] == steps
    # the title typed: the address is now the lesson's share link, shown below
    again.text_input(key="ls_id").set_value("ceiling")
    again.text_input(key="ls_title_en").set_value("The ceiling").run()
    code = again.query_params["lesson"]
    assert decode_lesson(code).title == {"en": "The ceiling", "zh": "The ceiling"}
    assert any(c.value.endswith(f"/lessons?lesson={code}" + ("&lang=zh" if lang == "zh" else "")) for c in again.code)
    assert again.query_params.get("lang") == (lang if lang != "en" else None)
    third = _reload(again)
    no_exception(third)
    assert third.session_state["ls_draft_steps"] == steps
    assert third.text_input(key="ls_id").value == "ceiling"
    assert third.text_input(key="ls_title_en").value == "The ceiling"
    assert third.text_input(key="ls_title_zh").value == ""  # as typed, not filled in from the English one
    assert third.query_params["lesson"] == code  # unchanged: no new history entry, no question
    assert not third.warning
    # a new lesson: the address is the page's own again, and a reload opens an empty builder
    third.button(key="ls_clear").click().run()
    assert "lesson" not in third.query_params
    assert _reload(third).session_state["ls_draft_steps"] == []


def test_each_change_of_the_draft_is_in_the_address():
    at = open_page(PAGE)
    at.text_input(key="ls_title_en").set_value("Moves").run()
    titled = at.query_params["lesson"]  # a title alone is worth keeping
    assert _reload(at).text_input(key="ls_title_en").value == "Moves"
    _add(at, "curves", "c_ppo_epsilon_high=0.3")
    _add(at, "length")
    two = at.query_params["lesson"]
    assert two != titled
    at.button(key="ls_down_0").click().run()  # reordered
    moved = _reload(at).session_state["ls_draft_steps"]
    assert [s.page for s in moved] == ["length", "curves"]
    at.button(key="ls_rm_0").click().run()  # removed
    assert [s.page for s in _reload(at).session_state["ls_draft_steps"]] == ["curves"]


def test_presenting_the_draft_and_exit_come_back_to_it_without_a_question():
    at = open_page(PAGE)
    at.text_input(key="ls_title_en").set_value("Mine")
    _add(at, "curves", "c_algos=PPO\nc_ppo_epsilon_high=0.3")
    code = at.query_params["lesson"]
    at.button(key="ls_present_draft").click().run()
    assert at.query_params.get("lesson") == code and at.query_params.get("present") == "1"
    at.button(key="ls_bar_exit").click().run()
    no_exception(at)
    assert at.query_params.get("lesson") == code and "present" not in at.query_params
    assert not at.warning and not at.success  # its own draft: nothing opened, nothing asked


def test_a_shared_link_is_opened_once_and_kept_in_the_address():
    at = open_page(PAGE, lesson="clipping")
    no_exception(at)
    title = SHIPPED["clipping"].title["en"]
    assert t("lessons.opened", "en", title=title) in [s.value for s in at.success]
    assert at.query_params["lesson"] == "clipping"  # the draft is that lesson, unchanged: its id
    at.text_input(key="ls_title_en").set_value("My clipping").run()
    assert not at.success  # edited: the teacher's own lesson now
    assert at.query_params["lesson"] != "clipping"
    assert decode_lesson(at.query_params["lesson"]).steps == SHIPPED["clipping"].steps


def test_a_question_about_a_link_keeps_the_draft_in_the_address_until_answered():
    at = open_page(PAGE)
    mine = _draft_of_one_step(at)
    at.button(key="ls_present_clipping").click().run()
    at.button(key="ls_bar_exit").click().run()
    asked = t("lessons.draft_kept", "en", steps=1, title=SHIPPED["clipping"].title["en"])
    assert asked in [w.value for w in at.warning]
    at.text_input(key="ls_title_zh").set_value("我的").run()  # another change: the question stays
    assert asked in [w.value for w in at.warning]
    assert _reload(at).session_state["ls_draft_steps"] == [mine]  # a reload meanwhile keeps the draft


def test_a_draft_too_long_for_a_link_says_so_and_the_address_keeps_its_last_code():
    import random

    at = open_page(PAGE)
    at.text_input(key="ls_title_en").set_value("Long").run()
    rng = random.Random(0)
    last = None
    for _ in range(12):  # notes of text that does not compress, until the code passes MAX_CODE_CHARS
        note = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 ") for _ in range(1900))
        _add(at, "length", note=note)
        if not [w for w in at.warning if t("lessons.too_long", "en", chars=0, limit=0)[:30] in w.value]:
            last = at.query_params["lesson"]
            continue
        break
    else:
        pytest.fail("the draft never grew too long")
    no_exception(at)
    n = len(at.session_state["ls_draft_steps"])
    warning = next(w.value for w in at.warning if "too long" in w.value)
    assert f"{MAX_CODE_CHARS}" in warning
    assert at.query_params["lesson"] == last and len(last) <= MAX_CODE_CHARS  # the last code that fit
    assert len(decode_lesson(last).steps) == n - 1
    assert not [c for c in at.code if "present=1" not in c.value]  # no share link that would not open
    assert not [b for b in at.button if b.key == "ls_present_draft"]
    at.button(key=f"ls_rm_{n - 1}").click().run()  # short enough again: the address follows
    assert not [w for w in at.warning if "too long" in w.value]
    assert at.query_params["lesson"] == last


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ("c_algos=NOPE", "c_algos"),
        ("c_algos=PPO\nc_ppo_epsilon_high=7", "c_ppo_epsilon_high"),
        ("c_algos=PPO\nc_gspo_epsilon_low=0.0003", "c_gspo_epsilon_low"),
    ],
)
def test_the_builder_warns_about_settings_the_page_will_not_take(settings, named):
    # found by a teacher: a step with c_algos=NOPE was added without a word; the presented page then
    # noted the parameter and showed its defaults
    at = open_page(PAGE)
    at.selectbox(key="ls_page").set_value("curves").run()
    at.text_area(key="ls_settings").set_value(settings).run()
    no_exception(at)
    (warning,) = [w.value for w in at.warning]
    assert warning.startswith(t("lessons.settings_warning", "en", problems="")) and f"{named}:" in warning
    at.button(key="ls_add").click().run()  # a warning, not a refusal: the step is added
    assert len(at.session_state["ls_draft_steps"]) == 1
    assert [w.value for w in at.warning if f"{named}:" in w.value]  # and said again on the step


def test_the_builders_warning_is_in_the_pages_language():
    # found by a new user: the Chinese builder warned in the library's English
    at = open_page(PAGE, lang="zh")
    at.selectbox(key="ls_page").set_value("curves").run()
    at.text_area(key="ls_settings").set_value("c_algos=PPO\nc_ppo_epsilon_high=7").run()
    no_exception(at)
    (warning,) = [w.value for w in at.warning]
    problem = t("lessons.warn.out_of_range", "zh", value="7", low="0", high="1")
    assert warning == t("lessons.settings_warning", "zh", problems=escape_markdown(f"c_ppo_epsilon_high: {problem}"))


def test_the_builder_offers_the_shown_curves_sliders_and_warns_about_a_control_the_page_will_not_draw():
    at = open_page(PAGE)
    at.selectbox(key="ls_page").set_value("curves").run()
    at.text_area(key="ls_settings").set_value("c_algos=DAPO").run()
    at.checkbox(key="ls_all_visible").uncheck().run()
    assert "c_dapo_epsilon_high" in at.multiselect(key="ls_visible").options
    assert not at.warning
    at.multiselect(key="ls_visible").set_value(["c_dapo_epsilon_high", "c_ppo_epsilon_high"]).run()
    no_exception(at)
    (warning,) = [w.value for w in at.warning]
    assert warning.startswith(t("lessons.visible_warning", "en", problems="")) and "c_ppo_epsilon_high:" in warning
    assert "c_dapo_epsilon_high:" not in warning


def test_a_bad_settings_text_is_said_once_also_after_add_step():
    # found by a new user: the same error box stood under the settings and under Add step
    at = open_page(PAGE)
    at.text_area(key="ls_settings").set_value("no equals sign here").run()
    assert len(at.error) == 1
    at.button(key="ls_add").click().run()
    assert not at.exception
    assert len(at.error) == 1 and not at.session_state["ls_draft_steps"]


def test_pasting_another_pages_address_switches_the_steps_page_once():
    # found by a new user: an address of the MoE page pasted on a curves step was refused ("the link
    # opens page 'moe'") instead of the step's page following it
    at = open_page(PAGE)
    at.selectbox(key="ls_page").set_value("curves").run()
    at.text_area(key="ls_settings").set_value("http://127.0.0.1:8501/moe?mo_lr=0.001").run()
    no_exception(at)
    assert at.selectbox(key="ls_page").value == "moe"
    assert t("lessons.page_from_address", "en", page=t("nav.moe", "en")) in [i.value for i in at.info]
    at.selectbox(key="ls_page").set_value("curves").run()  # the teacher's own choice afterwards stands
    assert at.selectbox(key="ls_page").value == "curves" and at.error  # and the address is refused for it


def test_previous_brings_back_the_answer_the_class_committed_at_a_step():
    # found by a new user: Next then Previous asked the class step 1's question again, its charts
    # hidden again, though the class had answered it
    from rlviz.plots.lessons import hidden_answers_css

    lesson = SHIPPED["clipping"]
    first = lesson.steps[0]
    at = open_page(first.entry.file, lesson=lesson.id, present="1", step="1")

    def hidden():
        return any(h.proto.body == hidden_answers_css() for h in at.get("html"))

    assert hidden()
    at.number_input(key=f"pr_{first.prediction}_in").set_value(0.24)
    [b for b in at.button if str(b.key).startswith(f"FormSubmitter:form_{first.prediction}-")][0].click().run()
    assert not hidden() and at.success
    at.button(key="ls_bar_next").click().run()
    at.button(key="ls_bar_prev").click().run()
    no_exception(at)
    assert at.query_params.get("step") == "1"
    assert not hidden() and at.success  # the committed answer stands: no second asking
    at.button(key=f"pr_{first.prediction}_again").click().run()  # "Answer again" still asks again
    assert hidden()


def test_settings_the_page_takes_get_no_warning():
    at = open_page(PAGE)
    at.selectbox(key="ls_page").set_value("curves").run()
    at.text_area(key="ls_settings").set_value("c_algos=PPO\nc_algos=GSPO\nc_gspo_epsilon_low=0.0003").run()
    no_exception(at)
    assert not at.warning


def test_after_a_reload_the_question_about_a_link_stands_alone_and_keep_says_nothing_was_opened():
    # found by a new user: after a reload the builder said "Opened the lesson 'Mine'" (its own draft,
    # back from the address) beside the question about the shipped lesson, and kept saying it after Keep
    at = open_page(PAGE)
    _draft_of_one_step(at)
    at = _reload(at)
    assert at.success  # the draft came back from the address: said once
    at.button(key="ls_present_clipping").click().run()
    at.button(key="ls_bar_exit").click().run()
    assert at.warning and not at.success
    at.button(key="ls_keep_draft").click().run()
    no_exception(at)
    assert not at.warning and not at.success
