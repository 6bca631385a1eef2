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
Widget keys start with ``ls_``. The draft's state, the builder's callbacks and the widget helpers the sections
share are in ``app_common.parts.lessons``; the tables and words in ``rlviz.teach.lessons.views``.
"""

from __future__ import annotations

import streamlit as st

from app_common import ensure_shell, escape_markdown, lang, show_bad_input, tr
from app_common.parts import lessons as parts
from app_common.parts.lessons import ASKING, DRAFT, ID_DEFAULT, OPENED, OPENED_DRAFT
from app_common.template import notes, page_top
from rlviz.i18n import DEFAULT_LANG
from rlviz.teach.lessons import (
    MAX_CODE_CHARS,
    MAX_ID_CHARS,
    MAX_TITLE_CHARS,
    LessonStep,
    draft_ref,
    encode_draft,
    lesson_ref,
    page_of_address,
    parse_settings,
    resolve_draft,
    shipped_lessons,
    step_pages,
    visible_choices,
)
from rlviz.teach.lessons.views import builder_fields, settings_text, steps_table
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
state = st.session_state
PAGE_KEYS = list(step_pages())
KEEP = "session"  # the builder's fields keep their values while a presentation or another page is open
# the library parameter a builder error names -> the widget that sets it
FIELDS = builder_fields(L)

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
            parts.open_draft(opened)
        else:
            state[ASKING] = (ref, opened, None)


parts.ask(None)
if state.get(OPENED_DRAFT) is not None and state.get(ASKING) is None:  # never beside the question
    if state[OPENED_DRAFT] == parts.current():
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
        parts.lesson_actions(lesson, lesson.id, edit=True)
        parts.ask(lesson.id)
        with st.expander(tr("lessons.steps_expander")):  # the steps and the presenter link, on demand
            st.dataframe(steps_table(lesson, L), hide_index=True)
            parts.presenter_link(lesson_ref(lesson))
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
    parts.setting_warning(page, parsed)
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
        parts.visible_warning(page, parsed, state.get("ls_visible"))
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
    st.button(tr("lessons.add_step"), key="ls_add", on_click=parts.add_step, icon=":material/add:", type="primary")
    error = state.pop("ls_add_error", None)
    if error is not None and str(error) != settings_error:  # the settings' error is shown above already
        show_bad_input(error, FIELDS)

st.subheader(tr("lessons.steps_header"))
steps: list[LessonStep] = state.setdefault(DRAFT, [])
# the draft into the page's address (after its fields are drawn: each holds its value), so a reload
# opens it; a draft too long for a link stays out of it, with a note (the address keeps its last code)
draft = parts.current()
draft_code, too_long = None, False
if draft is not None and not draft.blank:
    try:
        draft_code = draft_ref(draft)
    except ValueError:
        too_long = True
        chars = len(encode_draft(draft))
        st.warning(tr("lessons.too_long", chars=chars, limit=MAX_CODE_CHARS), icon=":material/link_off:")
if draft is not None and not too_long and not presenting:
    parts.sync_address(draft_code)
if not steps:
    st.info(tr("lessons.no_steps"))
for i, step in enumerate(steps):
    with st.container(border=True, horizontal=True, vertical_alignment="center"):
        with st.container():
            st.markdown(tr("lessons.step_line", k=i + 1, page=tr(f"nav.{step.page}")))
            if step.settings:
                # a lesson comes from a URL: its settings and notes are shown as typed, never rendered
                # (no image or link in them is fetched; app_common.escape_markdown)
                st.caption(escape_markdown(settings_text(step)))
            if step.note[L].strip():
                st.caption(escape_markdown(step.note[L]))
            parts.setting_warning(step.page, step.settings)
            parts.visible_warning(step.page, step.settings, step.visible)
        st.button(
            "",
            key=f"ls_up_{i}",
            on_click=parts.move,
            args=(i, -1),
            icon=":material/arrow_upward:",
            help=tr("lessons.up"),
            disabled=i == 0,
        )
        st.button(
            "",
            key=f"ls_down_{i}",
            on_click=parts.move,
            args=(i, 1),
            icon=":material/arrow_downward:",
            help=tr("lessons.down"),
            disabled=i == len(steps) - 1,
        )
        st.button(
            "", key=f"ls_rm_{i}", on_click=parts.remove, args=(i,), icon=":material/delete:", help=tr("lessons.remove")
        )
st.button(tr("lessons.clear"), key="ls_clear", on_click=parts.clear, icon=":material/restart_alt:")

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
            st.code(f"{parts.base_url()}/lessons?lesson={draft_code}{lang_part}", language=None, wrap_lines=True)
        parts.lesson_actions(lesson, "draft", draft_code, linked=not too_long)
        if not too_long:
            parts.presenter_link(draft_code)
        st.dataframe(steps_table(lesson, L), hide_index=True)
