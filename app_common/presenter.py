"""A lesson's presenter view: the bar at the top of the step's page, its moves, and the step's settings."""

from __future__ import annotations

import streamlit as st

from app_common.keys import ASKING_KEY, GO_KEY, RESYNC_KEY, SHOWN_STEP_KEY
from app_common.template import TOP_SLOT
from app_common.text import escape_markdown, lang, tr
from app_common.urlstate import note_url_param
from rlviz.i18n import DEFAULT_LANG, LANGS

# ---------------------------------------------------------------------------------------- lessons
LESSONS_PAGE_FILE = "pages/lessons.py"


def _lang_param() -> dict[str, str]:
    return {} if lang() == DEFAULT_LANG else {"lang": lang()}


def go_to_step(ref: str, index: int | None) -> None:
    """A button callback: open step ``index`` (0-based) of the lesson ``ref`` (a shipped id or a code)
    in the presenter view, or leave it for the lessons page when ``index`` is None.

    :func:`present_lesson` makes the move in the script run the click starts (a callback cannot switch
    pages). It goes through the lessons page, which sends it on to the step's page with the step's
    settings: a page's widgets bound to the URL take the step's values only when the page is entered
    afresh, so even a step on the same page as the one before is entered from another page."""
    st.session_state[GO_KEY] = (ref, index)


def _release(prefix: str) -> None:
    """Let the widgets of the page whose keys start with ``prefix`` start afresh from the URL of the next
    page switch: forget their values in this session and their binding to the URL, so a step shows its
    page with its settings and the page's defaults, whatever an earlier step or the class changed.
    Streamlit drops both once a run ends without the widget; a presenter move switches pages before any
    run ends, so a widget of the page just left may still be bound (``st.switch_page`` then refuses its
    parameter) and keep its old value. Session keys of the pages that are not widgets never carry a
    page's widget prefix (``live_run``, ``pr_<question>``)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    keys = [key for key in list(st.session_state.keys()) if isinstance(key, str) and key.startswith(prefix)]
    for key in keys:
        del st.session_state[key]
    ctx = get_script_run_ctx()
    if ctx is None:
        return
    with ctx.session_state.query_params() as params:  # Streamlit's own URL state (no public call unbinds)
        for key in keys:
            binding = params.get_binding_for_param(key)
            if binding is not None:
                params.unbind_widget(binding.widget_id)


def _switch_language(code: str) -> None:
    st.session_state["lang"] = code  # a callback: runs before the sidebar's language switch is drawn


def present_lesson(current_url_path: str) -> None:
    """The presenter view of a lesson, when the URL asks for it (``?lesson=<id or code>&step=<k>&present=1``, k counted from 1).

    Called by app.py between ``st.navigation`` and the page's run, with the url path of the page about
    to run. On another page than the step's, or on the step's page the first time this session shows
    that step (a link straight to it), it switches to the step's page with the step's settings
    (``rlviz.teach.lessons.step_query``). On the step's page it adds the presenter style (large
    type, no sidebar, 1024 px wide, the controls the step does not list hidden, the step's question
    outlined and the page's other questions hidden, all of them on a step that asks none:
    ``rlviz.plots.lessons.presenter_css``) and the
    presenter bar at the top: the lesson's title, step k of n, the teacher's note, Previous / Next /
    Exit and the language switch (the sidebar's is hidden). A lesson that cannot be read is a message.
    """
    from rlviz.plots.lessons import BAR_KEY, presenter_css
    from rlviz.teach.lessons import resolve_lesson, step_index, step_query
    from rlviz.teach.predict import PREDICTIONS

    st.session_state.pop(ASKING_KEY, None)
    st.session_state.pop(TOP_SLOT, None)  # an earlier run's slot: only the page about to run may set it (page_top)
    go = st.session_state.pop(GO_KEY, None)
    if go is not None:
        ref, index = go
        query = {"lesson": ref} if index is None else {"lesson": ref, "step": str(index + 1), "present": "1"}
        st.switch_page(LESSONS_PAGE_FILE, query_params={**query, **_lang_param()})
    params = st.query_params
    ref = params.get("lesson")
    if not ref or params.get("present") != "1":
        return
    try:
        lesson = resolve_lesson(ref)
    except ValueError as exc:
        st.error(tr("lessons.bar.bad", error=escape_markdown(exc)), icon=":material/error:")
        return
    given = params.get_all("step")
    k = step_index(given[0] if len(given) == 1 else None, lesson)  # repeated: the first step, as a widget's default
    if len(given) > 1:
        note_url_param("step", "repeated")
    elif given and given[0] != str(k + 1):  # not a whole number, or outside the lesson's steps: step 1 opens
        note_url_param("step")
    step, n = lesson.steps[k], len(lesson.steps)
    if current_url_path != step.entry.url_path or st.session_state.get(SHOWN_STEP_KEY) != (ref, k):
        # entering the step, from another page or from a link straight to the step's page (a new
        # session: its widgets are not drawn yet), takes the step's settings once; on later reruns the
        # presenter's own moves of the visible controls stay
        st.session_state[SHOWN_STEP_KEY] = (ref, k)
        st.session_state[RESYNC_KEY] = step.entry.prefix
        query = step_query(ref, lesson, k, lang())
        _release(step.entry.prefix)
        st.switch_page(step.entry.file, query_params=query)
    others = [p.key for p in PREDICTIONS.get(step.page, ()) if p.key != step.prediction]  # the step asks one, or none
    # the question the step asks (None: none), drawn at the top of the page; its evidence held back until
    # the class commits, the page's other questions hidden (app_common.predictions)
    st.session_state[ASKING_KEY] = step.prediction
    st.html(presenter_css(step.entry.prefix, step.visible, others, step.prediction))
    L = lang()
    with st.container(key=BAR_KEY):
        # a lesson comes from a URL: its title and notes are shown, never rendered (no image is fetched)
        title = escape_markdown(lesson.title[L])
        st.markdown(f"**{title}** · " + tr("lessons.bar.step", k=k + 1, n=n, page=tr(f"nav.{step.page}")))
        if step.note[L].strip():
            st.markdown(escape_markdown(step.note[L]))
        row = st.container(horizontal=True)
        row.button(
            tr("lessons.bar.prev"),
            key="ls_bar_prev",
            disabled=k == 0,
            icon=":material/arrow_back:",
            on_click=go_to_step,
            args=(ref, k - 1),
        )
        row.button(
            tr("lessons.bar.next"),
            key="ls_bar_next",
            type="primary",
            disabled=k == n - 1,
            icon=":material/arrow_forward:",
            on_click=go_to_step,
            args=(ref, k + 1),
        )
        row.button(
            tr("lessons.bar.exit"), key="ls_bar_exit", icon=":material/close:", on_click=go_to_step, args=(ref, None)
        )
        other = next(code for code in LANGS if code != L)
        row.button(
            tr("lessons.bar.language"),
            key="ls_bar_lang",
            on_click=_switch_language,
            args=(other,),
            icon=":material/translate:",
        )
