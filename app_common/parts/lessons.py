"""The lessons page's Streamlit-bound support: the builder's draft in ``st.session_state`` (its keys, the
callbacks of its buttons, the draft's code in the page's address), and the widget helpers its sections
share (a lesson's row of actions, the presenter link, the warnings under a step, the question about a
lesson not opened over the draft)."""

from __future__ import annotations

from urllib.parse import urlsplit

import streamlit as st

from app_common.feedback import show_bad_input
from app_common.presenter import go_to_step
from app_common.text import escape_markdown, lang, tr
from rlviz.i18n import CLAUSE_SEPARATOR, DEFAULT_LANG, LANGS
from rlviz.plots.lessons import worksheet_html
from rlviz.teach.lessons import (
    Draft,
    Lesson,
    LessonStep,
    lesson_ref,
    parse_settings,
    setting_warnings,
    step_pages,
    visible_warnings,
    worksheet,
)
from rlviz.teach.lessons.views import builder_fields, worksheet_labels

DRAFT = "ls_draft_steps"  # the builder's steps (LessonStep), this session only
OPENED = "ls_opened"  # the last ?lesson= this session opened, asked about or wrote: each link is handled once
# (ref, Draft, where) of a lesson not opened over a draft of other steps, until answered; where: None for a
# link (asked at the top of the page), a shipped lesson's id for its Edit a copy (asked under the button)
ASKING = "ls_asking"
OPENED_DRAFT = "ls_opened_draft"  # the Draft a link opened: "opened" is said while the builder holds it
ID_DEFAULT = "my-lesson"


def base_url() -> str:
    """The app's address as the browser sees it (scheme and host), or "" when unknown."""
    url = getattr(st.context, "url", None) or ""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def lesson_actions(lesson: Lesson, key: str, ref: str | None = None, linked: bool = True, edit: bool = False) -> None:
    """One row of buttons for ``lesson`` (whose ``?lesson=`` is ``ref``; ``lesson_ref(lesson)`` when not
    given): Present, the worksheet and its answer key, and with ``edit`` Edit a copy (into the builder).
    Without ``linked`` (a lesson too long for a link) no Present."""
    ref = ref or lesson_ref(lesson)
    try:
        questions = worksheet(lesson)
    except ValueError as exc:
        show_bad_input(exc, builder_fields(lang()))
        return
    row = st.container(horizontal=True)
    if linked:
        row.button(
            tr("lessons.present"),
            key=f"ls_present_{key}",
            type="primary",
            icon=":material/slideshow:",
            help=tr("lessons.present_help"),
            on_click=go_to_step,
            args=(ref, 0),
        )
    words = worksheet_labels()
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
    if edit:
        row.button(
            tr("lessons.edit_copy"),
            key=f"ls_copy_{lesson.id}",
            on_click=edit_copy,
            args=(lesson,),
            icon=":material/edit:",
        )


def presenter_link(ref: str) -> None:
    """The link that opens the lesson ``ref`` straight in the presenter view, to copy."""
    st.caption(tr("lessons.link"))
    L = lang()
    lang_part = "" if L == DEFAULT_LANG else f"&lang={L}"
    st.code(f"{base_url()}/lessons?lesson={ref}&present=1{lang_part}", language=None, wrap_lines=True)


# ---------------------------------------------------------------------------------------- the builder's state
def draft() -> Draft:
    """The builder's draft: its fields as typed (the id stripped of spaces) and its steps."""
    state = st.session_state
    return Draft(
        (state.get("ls_id", ID_DEFAULT) or "").strip(),
        {code: state.get(f"ls_title_{code}") or "" for code in LANGS},
        tuple(state.get(DRAFT) or ()),
    )


def load(d: Draft) -> None:
    """Put the draft ``d`` into the builder (before its widgets are drawn in this run)."""
    state = st.session_state
    state["ls_id"] = d.id
    state["ls_title_en"] = d.title["en"]
    state["ls_title_zh"] = d.title["zh"]
    state[DRAFT] = list(d.steps)
    state.pop(ASKING, None)  # a question about a link is answered by loading anything


def edit_copy(lesson: Lesson) -> None:
    """Edit a copy of ``lesson``; over a draft of other steps, ask first (under the button)."""
    state = st.session_state
    mine = state.get(DRAFT) or []
    if mine and list(mine) != list(lesson.steps):
        state[ASKING] = (lesson.id, Draft.of(lesson), lesson.id)
    else:
        load(Draft.of(lesson))


def clear() -> None:
    load(Draft(""))


def add_step() -> None:
    """The Add step callback: the step from the builder's fields, or the error kept to show."""
    state = st.session_state
    page = state.get("ls_page", list(step_pages())[0])
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


def move(i: int, by: int) -> None:
    steps = st.session_state.get(DRAFT, [])
    j = i + by
    if 0 <= i < len(steps) and 0 <= j < len(steps):
        steps[i], steps[j] = steps[j], steps[i]


def remove(i: int) -> None:
    steps = st.session_state.get(DRAFT, [])
    if 0 <= i < len(steps):
        steps.pop(i)


def open_draft(d: Draft) -> None:
    """Open the lesson (or draft) of a link in the builder; "opened" is said while the builder holds it."""
    load(d)
    st.session_state[OPENED_DRAFT] = d


def keep() -> None:
    st.session_state.pop(ASKING, None)  # the link is answered: the builder keeps the draft (the address holds it)
    st.session_state[OPENED_DRAFT] = None  # the builder holds the teacher's own lesson: nothing was opened


def current() -> Draft | None:
    """The builder's draft, or None while a field holds what no draft can (text too long)."""
    try:
        return draft()
    except ValueError:
        return None


def sync_address(ref: str | None) -> None:
    """Write the draft's code ``ref`` into ``?lesson=`` (take it out for None: a blank draft), so a
    reload of the tab opens the draft again."""
    if st.query_params.get("lesson") != ref:
        if ref is None:
            st.query_params.pop("lesson", None)
        else:
            st.query_params["lesson"] = ref
    st.session_state[OPENED] = ref  # written by the builder: not a link to open on the next run


def visible_warning(page: str, settings, visible) -> None:
    """A warning naming each control left visible that the step's page will not draw."""
    L = lang()
    problems = visible_warnings(page, settings, visible, L)
    if problems:
        st.warning(
            tr("lessons.visible_warning", problems=escape_markdown(CLAUSE_SEPARATOR[L].join(problems))),
            icon=":material/warning:",
        )


def setting_warning(page: str, settings) -> None:
    """A warning naming each setting the registry says ``page`` will not take (the step is still added)."""
    L = lang()
    problems = setting_warnings(page, settings, L)
    if problems:
        st.warning(
            tr("lessons.settings_warning", problems=escape_markdown(CLAUSE_SEPARATOR[L].join(problems))),
            icon=":material/warning:",
        )


def ask(where: str | None) -> None:
    """The question about a lesson not opened over the draft, if it was asked ``where``: keep the draft,
    or open the lesson instead (a link's is said to be opened; a copy to edit just fills the builder)."""
    state = st.session_state
    asking = state.get(ASKING)
    if asking is None or asking[2] != where:
        return
    title = escape_markdown(asking[1].name(lang()))
    text = "lessons.draft_kept" if where is None else "lessons.copy_asked"
    st.warning(tr(text, steps=len(state.get(DRAFT) or []), title=title), icon=":material/edit_note:")
    row = st.container(horizontal=True)
    row.button(tr("lessons.draft_keep"), key="ls_keep_draft", on_click=keep, type="primary")
    row.button(
        tr("lessons.draft_replace", title=title),
        key="ls_replace_draft",
        on_click=open_draft if where is None else load,
        args=(asking[1],),
    )
