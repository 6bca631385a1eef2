"""Lessons for a class: the shipped lessons (present, worksheet, answer key), a builder, and sharing.

The page template (``app_common.template``): title and lede, then the ready lessons, each with its row of
Present / worksheet / answer key / Edit a copy (its steps and presenter link on demand), the notes on
what a lesson is, then the builder.

Widgets -> ``rlviz.teach.lessons`` (lessons, their codes, worksheets with computed answers) ->
``rlviz.plots.lessons`` (the printable HTML). Presenting is ``app_common.present_lesson`` (called by
app.py before every page): Present here only switches to it (``app_common.go_to_step``). The draft
lesson of the builder lives in ``st.session_state`` (its fields with ``persist_state="session"``, so a
presentation or another page in between keeps them) and in the page's address: each change writes the
draft's code (``draft_ref``) into ``?lesson=``, so a reload of the tab, or a new session after the old
one expired, opens the same draft, and the address is the draft's share link; a draft whose code is too
long for a link says so. A link or Exit to a lesson other than the draft asks before replacing it.
Widget keys start with ``ls_``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import streamlit as st

from app_common import ensure_shell, escape_markdown, go_to_step, lang, show_bad_input, tr
from app_common.template import notes, page_top
from rlviz.app_pages import PAGES
from rlviz.i18n import CLAUSE_SEPARATOR, DEFAULT_LANG, LANGS, t
from rlviz.plots.lessons import WORKSHEET_LABELS, worksheet_html
from rlviz.teach.lessons import (
    MAX_CODE_CHARS,
    MAX_ID_CHARS,
    MAX_TITLE_CHARS,
    Draft,
    Lesson,
    LessonStep,
    draft_ref,
    encode_draft,
    lesson_ref,
    page_of_address,
    parse_settings,
    resolve_draft,
    setting_warnings,
    shipped_lessons,
    step_pages,
    steps_frame,
    visible_choices,
    visible_warnings,
    worksheet,
)
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
state = st.session_state
PAGE_KEYS = list(step_pages())
DRAFT = "ls_draft_steps"  # the builder's steps (LessonStep), this session only
OPENED = "ls_opened"  # the last ?lesson= this session opened, asked about or wrote: each link is handled once
# (ref, Draft, where) of a lesson not opened over a draft of other steps, until answered; where: None for a
# link (asked at the top of the page), a shipped lesson's id for its Edit a copy (asked under the button)
ASKING = "ls_asking"
OPENED_DRAFT = "ls_opened_draft"  # the Draft a link opened: "opened" is said while the builder holds it
ID_DEFAULT = "my-lesson"
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


def lesson_actions(lesson: Lesson, key: str, ref: str | None = None, linked: bool = True, edit: bool = False) -> None:
    """One row of buttons for ``lesson`` (whose ``?lesson=`` is ``ref``; ``lesson_ref(lesson)`` when not
    given): Present, the worksheet and its answer key, and with ``edit`` Edit a copy (into the builder).
    Without ``linked`` (a lesson too long for a link) no Present."""
    ref = ref or lesson_ref(lesson)
    try:
        questions = worksheet(lesson)
    except ValueError as exc:
        show_bad_input(exc, FIELDS)
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
    if edit:
        row.button(
            tr("lessons.edit_copy"),
            key=f"ls_copy_{lesson.id}",
            on_click=_edit_copy,
            args=(lesson,),
            icon=":material/edit:",
        )


def presenter_link(ref: str) -> None:
    """The link that opens the lesson ``ref`` straight in the presenter view, to copy."""
    st.caption(tr("lessons.link"))
    lang_part = "" if L == DEFAULT_LANG else f"&lang={L}"
    st.code(f"{_base_url()}/lessons?lesson={ref}&present=1{lang_part}", language=None, wrap_lines=True)


# ---------------------------------------------------------------------------------------- the builder's state
def _draft() -> Draft:
    """The builder's draft: its fields as typed (the id stripped of spaces) and its steps."""
    return Draft(
        (state.get("ls_id", ID_DEFAULT) or "").strip(),
        {code: state.get(f"ls_title_{code}") or "" for code in LANGS},
        tuple(state.get(DRAFT) or ()),
    )


def _load(draft: Draft) -> None:
    """Put ``draft`` into the builder (before its widgets are drawn in this run)."""
    state["ls_id"] = draft.id
    state["ls_title_en"] = draft.title["en"]
    state["ls_title_zh"] = draft.title["zh"]
    state[DRAFT] = list(draft.steps)
    state.pop(ASKING, None)  # a question about a link is answered by loading anything


def _edit_copy(lesson: Lesson) -> None:
    """Edit a copy of ``lesson``; over a draft of other steps, ask first (under the button)."""
    mine = state.get(DRAFT) or []
    if mine and list(mine) != list(lesson.steps):
        state[ASKING] = (lesson.id, Draft.of(lesson), lesson.id)
    else:
        _load(Draft.of(lesson))


def _clear() -> None:
    _load(Draft(""))


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


def _open(draft: Draft) -> None:
    """Open the lesson (or draft) of a link in the builder; "opened" is said while the builder holds it."""
    _load(draft)
    state[OPENED_DRAFT] = draft


def _keep() -> None:
    state.pop(ASKING, None)  # the link is answered: the builder keeps the draft (the address holds it)
    state[OPENED_DRAFT] = None  # the builder holds the teacher's own lesson: nothing was opened


def _current() -> Draft | None:
    """The builder's draft, or None while a field holds what no draft can (text too long)."""
    try:
        return _draft()
    except ValueError:
        return None


def _sync_address(ref: str | None) -> None:
    """Write the draft's code ``ref`` into ``?lesson=`` (take it out for None: a blank draft), so a
    reload of the tab opens the draft again."""
    if st.query_params.get("lesson") != ref:
        if ref is None:
            st.query_params.pop("lesson", None)
        else:
            st.query_params["lesson"] = ref
    state[OPENED] = ref  # written by the builder: not a link to open on the next run


def _visible_warnings(page: str, settings, visible) -> None:
    """A warning naming each control left visible that the step's page will not draw."""
    problems = visible_warnings(page, settings, visible, L)
    if problems:
        st.warning(
            tr("lessons.visible_warning", problems=escape_markdown(CLAUSE_SEPARATOR[L].join(problems))),
            icon=":material/warning:",
        )


def _setting_warnings(page: str, settings) -> None:
    """A warning naming each setting the registry says ``page`` will not take (the step is still added)."""
    problems = setting_warnings(page, settings, L)
    if problems:
        st.warning(
            tr("lessons.settings_warning", problems=escape_markdown(CLAUSE_SEPARATOR[L].join(problems))),
            icon=":material/warning:",
        )


page_top("lessons")  # title and lede; the ready lessons with their Present buttons follow at once

# a lesson in the URL (?lesson=<id or code>, not presenting): a shared link, Exit from a presentation,
# or the builder's own draft after a reload (a new session). Each is handled once: opened in the
# builder, unless that would drop a draft of other steps; then the question stays until answered
# (meanwhile the address holds the draft, so a reload keeps it).
presenting = st.query_params.get("present") == "1"
ref = st.query_params.get("lesson")
if ref and not presenting and state.get(OPENED) != ref:
    state[OPENED] = ref
    try:
        opened = resolve_draft(ref)
    except ValueError as exc:
        show_bad_input(exc)
    else:
        mine = state.get(DRAFT) or []
        if not mine or list(mine) == list(opened.steps):
            _open(opened)
        else:
            state[ASKING] = (ref, opened, None)


def _ask(where: str | None) -> None:
    """The question about a lesson not opened over the draft, if it was asked ``where``: keep the draft,
    or open the lesson instead (a link's is said to be opened; a copy to edit just fills the builder)."""
    asking = state.get(ASKING)
    if asking is None or asking[2] != where:
        return
    title = escape_markdown(asking[1].name(L))
    text = "lessons.draft_kept" if where is None else "lessons.copy_asked"
    st.warning(tr(text, steps=len(state.get(DRAFT) or []), title=title), icon=":material/edit_note:")
    row = st.container(horizontal=True)
    row.button(tr("lessons.draft_keep"), key="ls_keep_draft", on_click=_keep, type="primary")
    row.button(
        tr("lessons.draft_replace", title=title),
        key="ls_replace_draft",
        on_click=_open if where is None else _load,
        args=(asking[1],),
    )


_ask(None)
if state.get(OPENED_DRAFT) is not None and state.get(ASKING) is None:  # never beside the question
    if state[OPENED_DRAFT] == _current():
        st.success(tr("lessons.opened", title=escape_markdown(state[OPENED_DRAFT].name(L))), icon=":material/school:")
    else:
        state[OPENED_DRAFT] = None  # edited since: the teacher's own lesson now

# ---------------------------------------------------------------------------------------- shipped lessons
st.header(tr("lessons.shipped_header"))
for lesson in shipped_lessons().values():
    with st.container(border=True, key=f"ls_lesson_{lesson.id}"):
        n_questions = sum(step.prediction is not None for step in lesson.steps)
        st.markdown(f"**{escape_markdown(lesson.title[L])}**")
        st.caption(tr("lessons.summary", steps=len(lesson.steps), questions=n_questions))
        lesson_actions(lesson, lesson.id, edit=True)
        _ask(lesson.id)
        with st.expander(tr("lessons.steps_expander")):  # the steps and the presenter link, on demand
            st.dataframe(_steps_table(lesson), hide_index=True)
            presenter_link(lesson_ref(lesson))
with notes("lessons.notes"):  # what a lesson is and what Present does
    st.markdown(tr("lessons.intro"))

# ---------------------------------------------------------------------------------------- builder
st.header(tr("lessons.builder_header"))
st.markdown(tr("lessons.builder_intro"))
c1, c2, c3 = st.columns(3)
c1.text_input(
    tr("lessons.id"), ID_DEFAULT, key="ls_id", help=tr("lessons.id_help"), max_chars=MAX_ID_CHARS, persist_state=KEEP
)
c2.text_input(tr("lessons.title_en"), key="ls_title_en", max_chars=MAX_TITLE_CHARS, persist_state=KEEP)
c3.text_input(tr("lessons.title_zh"), key="ls_title_zh", max_chars=MAX_TITLE_CHARS, persist_state=KEEP)

with st.container(border=True):
    page_names = {k: tr(f"nav.{k}") for k in PAGE_KEYS}
    # another page's address pasted: the step's page follows it, once per pasted text (a page chosen
    # afterwards is the teacher's; the settings then say the address opens another page)
    text = state.get("ls_settings")
    pasted = page_of_address(text)
    if pasted is not None and state.get("ls_page") != pasted and state.get("ls_followed") != text:
        state["ls_page"] = pasted
        st.info(tr("lessons.page_from_address", page=page_names[pasted]), icon=":material/link:")
    state["ls_followed"] = text
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
    settings_error = None
    try:
        parsed = parse_settings(state.get("ls_settings", ""), page)
    except ValueError as exc:
        show_bad_input(exc, FIELDS)
        parsed, settings_error = {}, str(exc)
    _setting_warnings(page, parsed)
    c1, c2 = st.columns([1, 3], vertical_alignment="bottom")
    all_visible = c1.checkbox(tr("lessons.step_all_visible"), value=True, key="ls_all_visible", persist_state=KEEP)
    prefix = step_pages()[page].prefix
    chosen = state.get("ls_visible", [])
    if any(not k.startswith(prefix) for k in chosen):
        chosen = state["ls_visible"] = [k for k in chosen if k.startswith(prefix)]  # keys of a page chosen before
    offered = list(dict.fromkeys([*parsed, *visible_choices(page, parsed), *chosen]))
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
    if not all_visible:
        _visible_warnings(page, parsed, state.get("ls_visible"))
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
    if error is not None and str(error) != settings_error:  # the settings' error is shown above already
        show_bad_input(error, FIELDS)

st.subheader(tr("lessons.steps_header"))
steps: list[LessonStep] = state.setdefault(DRAFT, [])
# the draft into the page's address (after its fields are drawn: each holds its value), so a reload
# opens it; a draft too long for a link stays out of it, with a note (the address keeps its last code)
draft = _current()
draft_code, too_long = None, False
if draft is not None and not draft.blank:
    try:
        draft_code = draft_ref(draft)
    except ValueError:
        too_long = True
        chars = len(encode_draft(draft))
        st.warning(tr("lessons.too_long", chars=chars, limit=MAX_CODE_CHARS), icon=":material/link_off:")
if draft is not None and not too_long and not presenting:
    _sync_address(draft_code)
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
            _setting_warnings(step.page, step.settings)
            _visible_warnings(step.page, step.settings, step.visible)
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
if steps and draft is not None:
    st.subheader(tr("lessons.share_header"))
    try:
        lesson = draft.lesson()
    except ValueError as exc:
        show_bad_input(exc, FIELDS)
    else:
        if not too_long:  # the page's address: the draft's code (draft_ref)
            st.caption(tr("lessons.share_caption"))
            lang_part = "" if L == DEFAULT_LANG else f"&lang={L}"  # opens in the language it was built in
            st.code(f"{_base_url()}/lessons?lesson={draft_code}{lang_part}", language=None, wrap_lines=True)
        lesson_actions(lesson, "draft", draft_code, linked=not too_long)
        if not too_long:
            presenter_link(draft_code)
        st.dataframe(_steps_table(lesson), hide_index=True)
