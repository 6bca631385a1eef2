"""Lessons for a class: the shipped lessons (present, worksheet, answer key), a builder, and sharing.

Widgets -> ``rlviz.experiments.lessons`` (lessons, their codes, worksheets with computed answers) ->
``rlviz.plots.lessons`` (the printable HTML). Presenting is ``app_common.present_lesson`` (called by
app.py before every page): Present here only switches to it (``app_common.go_to_step``). The draft
lesson of the builder lives in ``st.session_state`` (this session only; its fields with
``persist_state="session"``, so a presentation or another page in between keeps them; a link or Exit
to a lesson other than the draft asks before replacing it). Widget keys start with ``ls_``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import streamlit as st

from app_common import ensure_shell, escape_markdown, go_to_step, lang, show_bad_input, tr
from rlviz.app_pages import PAGES
from rlviz.experiments.lessons import (
    Lesson,
    LessonStep,
    encode_lesson,
    lesson_ref,
    page_widget_keys,
    parse_settings,
    resolve_lesson,
    shipped_lessons,
    step_pages,
    steps_frame,
    worksheet,
)
from rlviz.i18n import DEFAULT_LANG, LANGS, t
from rlviz.plots.lessons import WORKSHEET_LABELS, worksheet_html
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
state = st.session_state
PAGE_KEYS = list(step_pages())
DRAFT = "ls_draft_steps"  # the builder's steps (LessonStep), this session only
KEEP = "session"  # the builder's fields keep their values while a presentation or another page is open
# the library parameter a builder error names -> the widget that sets it
FIELDS = {
    "id": tr("lessons.id"),
    "title": f"{tr('lessons.title_en')} / {tr('lessons.title_zh')}",
    "page": tr("lessons.step_page"),
    "settings": tr("lessons.step_settings"),
    "visible": tr("lessons.step_visible"),
    "prediction": tr("lessons.step_prediction"),
    "note": f"{tr('lessons.note_en')} / {tr('lessons.note_zh')}",
}


def _base_url() -> str:
    """The app's address as the browser sees it (scheme and host), or "" when unknown."""
    url = getattr(st.context, "url", None) or ""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def _ws_labels() -> dict[str, dict[str, str]]:
    """The worksheet's words in both languages (it is bilingual whatever the session's language)."""
    words = {name: {code: t(f"lessons.ws.{name}", code) for code in LANGS} for name in WORKSHEET_LABELS}
    return words | {f"page.{p.key}": {code: t(f"nav.{p.key}", code) for code in LANGS} for p in PAGES}


def _steps_table(lesson: Lesson):
    frame = steps_frame(lesson, L)
    frame["visible"] = frame["visible"].where([s.visible is not None for s in lesson.steps], tr("lessons.all_controls"))
    return frame.rename(columns={c: tr(f"lessons.col.{c}") for c in frame.columns})


def lesson_actions(lesson: Lesson, key: str) -> None:
    """Present, the worksheet and its answer key, and the presenter link, for ``lesson``."""
    ref = lesson_ref(lesson)
    try:
        questions = worksheet(lesson)
    except ValueError as exc:
        show_bad_input(exc, FIELDS)
        return
    row = st.container(horizontal=True)
    row.button(
        tr("lessons.present"),
        key=f"ls_present_{key}",
        type="primary",
        icon=":material/slideshow:",
        help=tr("lessons.present_help"),
        on_click=go_to_step,
        args=(ref, 0),
    )
    words = _ws_labels()
    for answers, label, suffix in (
        (False, "lessons.worksheet", "worksheet"),
        (True, "lessons.answer_key", "answer-key"),
    ):
        row.download_button(
            tr(label),
            worksheet_html(lesson.title, questions, words, answers=answers).encode("utf-8"),
            file_name=f"rlviz-lesson-{lesson.id}-{suffix}.html",
            mime="text/html",
            key=f"ls_{suffix}_{key}",
            icon=":material/print:",
            help=tr("lessons.worksheet_help"),
            on_click="ignore",
        )
    st.caption(tr("lessons.link"))
    lang_part = "" if L == DEFAULT_LANG else f"&lang={L}"
    st.code(f"{_base_url()}/lessons?lesson={ref}&present=1{lang_part}", language=None, wrap_lines=True)


# ---------------------------------------------------------------------------------------- the builder's state
def _load(lesson: Lesson) -> None:
    """Put ``lesson`` into the builder (before its widgets are drawn in this run)."""
    state["ls_id"] = lesson.id
    state["ls_title_en"] = lesson.title["en"]
    state["ls_title_zh"] = lesson.title["zh"]
    state[DRAFT] = list(lesson.steps)


def _edit_copy(lesson: Lesson) -> None:
    _load(lesson)


def _clear() -> None:
    for key in ("ls_id", "ls_title_en", "ls_title_zh"):
        state[key] = ""
    state[DRAFT] = []


def _add_step() -> None:
    """The Add step callback: the step from the builder's fields, or the error kept to show."""
    page = state.get("ls_page", PAGE_KEYS[0])
    try:
        settings = parse_settings(state.get("ls_settings", ""), page)
        visible = None if state.get("ls_all_visible", True) else tuple(state.get("ls_visible", []))
        note = {code: state.get(f"ls_note_{code}", "") for code in LANGS}
        step = LessonStep(page, settings, visible, state.get("ls_prediction"), note)
    except ValueError as exc:
        state["ls_add_error"] = exc
        return
    state.setdefault(DRAFT, []).append(step)
    for key in ("ls_settings", "ls_note_en", "ls_note_zh"):
        state[key] = ""
    state.pop("ls_add_error", None)


def _move(i: int, by: int) -> None:
    steps = state.get(DRAFT, [])
    j = i + by
    if 0 <= i < len(steps) and 0 <= j < len(steps):
        steps[i], steps[j] = steps[j], steps[i]


def _remove(i: int) -> None:
    steps = state.get(DRAFT, [])
    if 0 <= i < len(steps):
        steps.pop(i)


st.title(tr("lessons.title"))
st.markdown(tr("lessons.intro"))


def _open(lesson: Lesson, ref: str) -> None:
    """Open the lesson of the link ``ref`` in the builder (once per link)."""
    _load(lesson)
    state["ls_opened"] = ref
    state["ls_opened_title"] = dict(lesson.title)  # shown in the language of each later run


def _keep(ref: str) -> None:
    state["ls_opened"] = ref  # the link is answered: the builder keeps the draft
    state["ls_opened_title"] = None


# a lesson in the URL (?lesson=<id or code>, not presenting; Exit from a presentation comes here too):
# open it in the builder, once per link, unless that would drop a draft of other steps: then ask
ref = st.query_params.get("lesson")
if ref and st.query_params.get("present") != "1" and state.get("ls_opened") != ref:
    try:
        opened = resolve_lesson(ref)
    except ValueError as exc:
        show_bad_input(exc)
    else:
        draft_steps = state.get(DRAFT) or []
        if not draft_steps or list(draft_steps) == list(opened.steps):
            _open(opened, ref)
        else:
            title = escape_markdown(opened.title[L])
            st.warning(tr("lessons.draft_kept", steps=len(draft_steps), title=title), icon=":material/edit_note:")
            row = st.container(horizontal=True)
            row.button(tr("lessons.draft_keep"), key="ls_keep_draft", on_click=_keep, args=(ref,), type="primary")
            row.button(
                tr("lessons.draft_replace", title=title), key="ls_replace_draft", on_click=_open, args=(opened, ref)
            )
if state.get("ls_opened") == ref and ref and state.get("ls_opened_title") is not None:
    st.success(tr("lessons.opened", title=escape_markdown(state["ls_opened_title"][L])), icon=":material/school:")

# ---------------------------------------------------------------------------------------- shipped lessons
st.header(tr("lessons.shipped_header"))
for lesson in shipped_lessons().values():
    with st.container(border=True):
        n_questions = sum(step.prediction is not None for step in lesson.steps)
        st.subheader(lesson.title[L])
        st.caption(tr("lessons.summary", steps=len(lesson.steps), questions=n_questions))
        lesson_actions(lesson, lesson.id)
        with st.expander(tr("lessons.steps_expander")):
            st.dataframe(_steps_table(lesson), hide_index=True)
        st.button(
            tr("lessons.edit_copy"),
            key=f"ls_copy_{lesson.id}",
            on_click=_edit_copy,
            args=(lesson,),
            icon=":material/edit:",
        )

# ---------------------------------------------------------------------------------------- builder
st.header(tr("lessons.builder_header"))
st.markdown(tr("lessons.builder_intro"))
c1, c2, c3 = st.columns(3)
c1.text_input(tr("lessons.id"), "my-lesson", key="ls_id", help=tr("lessons.id_help"), persist_state=KEEP)
c2.text_input(tr("lessons.title_en"), key="ls_title_en", persist_state=KEEP)
c3.text_input(tr("lessons.title_zh"), key="ls_title_zh", persist_state=KEEP)

with st.container(border=True):
    page_names = {k: tr(f"nav.{k}") for k in PAGE_KEYS}
    page = st.selectbox(
        tr("lessons.step_page"), PAGE_KEYS, format_func=page_names.get, key="ls_page", persist_state=KEEP
    )
    st.text_area(
        tr("lessons.step_settings"),
        key="ls_settings",
        help=tr("lessons.step_settings_help"),
        height=90,
        persist_state=KEEP,
    )
    try:
        parsed = parse_settings(state.get("ls_settings", ""), page)
    except ValueError as exc:
        show_bad_input(exc, FIELDS)
        parsed = {}
    c1, c2 = st.columns([1, 3], vertical_alignment="bottom")
    all_visible = c1.checkbox(tr("lessons.step_all_visible"), value=True, key="ls_all_visible", persist_state=KEEP)
    prefix = step_pages()[page].prefix
    chosen = state.get("ls_visible", [])
    if any(not k.startswith(prefix) for k in chosen):
        chosen = state["ls_visible"] = [k for k in chosen if k.startswith(prefix)]  # keys of a page chosen before
    offered = list(dict.fromkeys([*parsed, *page_widget_keys(page), *chosen]))
    c2.multiselect(
        tr("lessons.step_visible"),
        offered,
        key="ls_visible",
        help=tr("lessons.step_visible_help"),
        accept_new_options=True,
        placeholder=tr("lessons.step_visible_placeholder"),
        disabled=all_visible,
        persist_state=KEEP,
    )
    predictions = [None, *(p.key for p in PREDICTIONS.get(page, ()))]
    if state.get("ls_prediction") not in predictions:
        state["ls_prediction"] = None
    try:
        fields_of = {p.key: p.fields(state_from_settings(page, parsed)) for p in PREDICTIONS.get(page, ())}
    except ValueError:
        fields_of = {}

    questions = {key: tr(f"{key}.q", **fields_of[key]) if key in fields_of else key for key in predictions if key}
    questions[None] = tr("lessons.no_prediction")
    st.selectbox(
        tr("lessons.step_prediction"), predictions, format_func=questions.get, key="ls_prediction", persist_state=KEEP
    )
    c1, c2 = st.columns(2)
    c1.text_area(tr("lessons.note_en"), key="ls_note_en", height=90, persist_state=KEEP)
    c2.text_area(tr("lessons.note_zh"), key="ls_note_zh", height=90, persist_state=KEEP)
    st.button(tr("lessons.add_step"), key="ls_add", on_click=_add_step, icon=":material/add:", type="primary")
    error = state.pop("ls_add_error", None)
    if error is not None:
        show_bad_input(error, FIELDS)

st.subheader(tr("lessons.steps_header"))
steps: list[LessonStep] = state.setdefault(DRAFT, [])
if not steps:
    st.info(tr("lessons.no_steps"))
for i, step in enumerate(steps):
    with st.container(border=True, horizontal=True, vertical_alignment="center"):
        with st.container():
            st.markdown(tr("lessons.step_line", k=i + 1, page=tr(f"nav.{step.page}")))
            if step.settings:
                # a lesson comes from a URL: its settings and notes are shown as typed, never rendered
                # (no image or link in them is fetched; app_common.escape_markdown)
                st.caption(
                    escape_markdown(
                        " · ".join(
                            f"{k}={'|'.join(v) if isinstance(v, tuple) else v}" for k, v in step.settings.items()
                        )
                    )
                )
            if step.note[L].strip():
                st.caption(escape_markdown(step.note[L]))
        st.button(
            "",
            key=f"ls_up_{i}",
            on_click=_move,
            args=(i, -1),
            icon=":material/arrow_upward:",
            help=tr("lessons.up"),
            disabled=i == 0,
        )
        st.button(
            "",
            key=f"ls_down_{i}",
            on_click=_move,
            args=(i, 1),
            icon=":material/arrow_downward:",
            help=tr("lessons.down"),
            disabled=i == len(steps) - 1,
        )
        st.button(
            "", key=f"ls_rm_{i}", on_click=_remove, args=(i,), icon=":material/delete:", help=tr("lessons.remove")
        )
st.button(tr("lessons.clear"), key="ls_clear", on_click=_clear, icon=":material/restart_alt:")

# ---------------------------------------------------------------------------------------- share and present
if steps:
    st.subheader(tr("lessons.share_header"))
    try:
        draft = Lesson(
            (state.get("ls_id") or "").strip(),
            {code: (state.get(f"ls_title_{code}") or "").strip() for code in LANGS},
            tuple(steps),
        )
    except ValueError as exc:
        show_bad_input(exc, FIELDS)
    else:
        st.caption(tr("lessons.share_caption"))
        lang_part = "" if L == DEFAULT_LANG else f"&lang={L}"  # opens in the language it was built in
        st.code(f"{_base_url()}/lessons?lesson={encode_lesson(draft)}{lang_part}", language=None, wrap_lines=True)
        lesson_actions(draft, "draft")
        st.dataframe(_steps_table(draft), hide_index=True)
