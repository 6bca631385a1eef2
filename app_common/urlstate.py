"""URL state: choice widgets seeded from and written to the address, and the check of every URL
parameter a widget reads (a value it cannot take falls back to its default with a note)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

import streamlit as st

from app_common.keys import RESYNC_KEY
from app_common.text import lang, tr


def seed_choice_from_url(key: str, options, default: str, aliases: Mapping[str, str] | None = None) -> None:
    """Before the widget ``key`` is drawn: on the page's first run in the session, set its value from
    the URL parameter of the same name when that names one of ``options`` (page or registry keys),
    else ``default`` (with a note naming the parameter when it named none or came several times).
    ``aliases``: other URL values taken for an option (value -> option), such as the label a link
    carried before the widget wrote its key. With :func:`write_choice_to_url` after the widget, the
    URL carries the key, the same in every language (Streamlit's ``bind="query-params"`` writes the
    label the widget shows). After a change of language the value is set again
    (:func:`_relabel_choice`), so the widget shows its choice in the new labels."""
    if key not in st.session_state:
        values = st.query_params.get_all(key)
        value = values[0] if len(values) == 1 else None
        value = (aliases or {}).get(value, value)
        if len(values) > 1:
            note_url_param(key, "repeated")  # a note at the top of the page (report_url_params)
        elif values and value not in options:
            note_url_param(key)
        st.session_state[key] = value if value in options else default
    _relabel_choice(key, lambda value: value in options)


def seed_choices_from_url(key: str, options, default, aliases: Mapping[str, str] | None = None) -> None:
    """:func:`seed_choice_from_url` for a multiselect: on the page's first run in the session, its
    value from the URL parameter ``key`` given once per chosen option (``?k=a&k=b``; ``?k=`` alone: none
    chosen), in the order of ``options``, when every value names one of ``options`` (or of ``aliases``,
    value -> option); else ``default`` (a list of options) with a note naming the parameter. Pair it
    with :func:`write_choices_to_url` after the widget, which is drawn without a ``default``."""
    if key not in st.session_state:
        values = st.query_params.get_all(key)
        chosen = list(default)
        if values == [""]:
            chosen = []
        elif values:
            named = [(aliases or {}).get(v, v) for v in values]
            if all(v in options for v in named):
                chosen = [o for o in options if o in named]
            else:
                note_url_param(key)  # a note at the top of the page (report_url_params)
        st.session_state[key] = chosen
    _relabel_choice(key, lambda value: isinstance(value, list) and all(v in options for v in value))


_CHOICE_LANG = "_choice_lang"  # widget key -> the language its option labels were last drawn in


def _relabel_choice(key: str, valid) -> None:
    """Before the choice widget ``key`` (options: keys, shown through a translated ``format_func``) is
    drawn: when the language changed since it was last drawn, set its value again, as it is, if
    ``valid(value)``. The browser holds the labels it showed and the server sends no value it thinks
    unchanged, so the widget kept the old language's labels as its choice (a radio showed none) and
    its next change sent them back, naming no option; a value set through ``st.session_state`` is
    sent with the new labels."""
    drawn = st.session_state.setdefault(_CHOICE_LANG, {})
    if key in st.session_state and drawn.get(key, lang()) != lang() and valid(st.session_state[key]):
        st.session_state[key] = st.session_state[key]
    drawn[key] = lang()


def write_choices_to_url(key: str, default) -> None:
    """After the multiselect ``key``: its values (keys) into the URL, one parameter each (an empty
    one when none is chosen), or no parameter at ``default``."""
    value = list(st.session_state.get(key) or [])
    if value == list(default):
        st.query_params.pop(key, None)
    else:
        st.query_params[key] = value or [""]


def write_choice_to_url(key: str, default: str) -> None:
    """After the widget ``key``: its value (a key) into the URL, or no parameter at ``default``."""
    value = st.session_state.get(key)
    if value is None or value == default:
        st.query_params.pop(key, None)
    else:
        st.query_params[key] = value


# ---------------------------------------------------------------------------------- URL parameters
# Every widget of the sidebar and of the pages is bound to the URL (``bind="query-params"``).
# Streamlit 1.67 seeds a bound widget from the URL when the widget is first drawn in a session
# (``SessionState._seed_widget_from_url``): it parses the value for the widget's type, runs the
# widget's deserializer and keeps the value, or silently falls back to the default for a value it
# cannot parse, out of [min, max] or not among the options. It does not catch everything: an integer
# widget given a non-finite number (``?seed=inf``, ``1e999``) raises OverflowError in its deserializer
# and crashes the page; a repeated parameter of a one-value widget (``?seed=1&seed=2``) takes the last
# value; an integer given ``3.5`` becomes 3; a multiselect keeps the valid part of a list. The check
# below makes every one of these fall back to the widget's default with a note naming the parameter:
# before any widget is drawn (``ensure_shell(app=True)`` in app.py), values that no widget here can
# take (non-finite numbers, values longer than MAX_URL_VALUE_CHARS, more than MAX_URL_VALUES values)
# are dropped from the URL; after the page has run (:func:`report_url_params`, from app.py and
# :func:`stop`), each parameter that seeded a widget is compared with the value the widget took
# (the widget's own parser and serializer) and a value not taken as given is noted and reset to the
# widget's default (one rerun). The parameters checked are the sidebar's (SHELL_URL_KEYS) and those
# with a page's widget-key prefix (``rlviz.app_pages.PAGES``). Streamlit's parsing and the widget's
# metadata are internal APIs: a failure to read them leaves the value as Streamlit took it, never
# an error on the page (tests/test_url_params.py pins the behaviour).
SHELL_URL_KEYS = ("seed", "device")  # the sidebar's widgets bound to the URL (app.py)


MAX_URL_VALUE_CHARS = 1000  # the longest value any widget here takes (a list of rewards, a few dozen numbers)


MAX_URL_VALUES = 64  # the most values of one parameter (a multiselect's choices)


_MAX_PENDING = 128  # the most parameters held for checking in one session


_URL_KEY = re.compile(r"[A-Za-z0-9_.\-]{1,80}")  # a widget key of this app (lv_grpo.beta); other names are not ours


_ARRAY_TYPES = frozenset({"string_array_value", "int_array_value", "double_array_value"})


_URL_RUN = "_url_run"  # this script run: {"slot", "notes", "reported"}


_URL_PENDING = "_url_pending"  # parameter -> its values in the URL, until its widget is drawn and checked


_URL_RESETS = "_url_resets"  # widget key -> default, set at the start of the next run


_URL_RESENDS = "_url_resends"  # widget key -> its value, set again at the start of the next run (its URL kept)


def _guarded(key: str) -> bool:
    """Whether URL parameter ``key`` is one this app's widgets read: a sidebar key or a page's prefix."""
    from rlviz.app_pages import PAGES

    if not _URL_KEY.fullmatch(key):
        return False
    return key in SHELL_URL_KEYS or any(p.prefix and key.startswith(p.prefix) for p in PAGES)


def _value_problem(values: list[str]) -> str | None:
    """What makes these URL values unusable by any widget here, before the widget is known: "too_long"
    (a value longer than MAX_URL_VALUE_CHARS, or more than MAX_URL_VALUES values), "invalid" (a
    non-finite number: inf, nan, 1e999), or None."""
    if len(values) > MAX_URL_VALUES or any(len(v) > MAX_URL_VALUE_CHARS for v in values):
        return "too_long"
    for v in values:
        try:
            number = float(v)
        except ValueError:
            continue
        if not math.isfinite(number):
            return "invalid"
    return None


def note_url_param(key: str, reason: str = "invalid") -> None:
    """Note that URL parameter ``key`` was not used (``reason``: "invalid", "repeated", "too_long");
    shown at the top of the page with the others. For parameters a page reads by hand
    (:func:`seed_choice_from_url`, the language)."""
    run = st.session_state.get(_URL_RUN)
    if run is not None and (key, reason) not in run["notes"]:
        run["notes"].append((key, reason))


def start_url_check() -> None:
    """The first half of the URL check, in app.py before any widget is drawn (``ensure_shell(app=True)``):
    apply the resets the last run asked for, drop the values no widget can take (with a note), and hold
    the other parameters of widgets not yet drawn in this session for :func:`report_url_params`."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    state = st.session_state
    previous = state.get(_URL_RUN)
    carried = list(previous["notes"]) if previous is not None and not previous["reported"] else []
    run = {"slot": None, "notes": carried, "reported": False}
    state[_URL_RUN] = run
    resets = state.pop(_URL_RESETS, {})
    for key, value in [*state.pop(_URL_RESENDS, {}).items(), *resets.items()]:
        state[key] = value  # before the widget is drawn: it starts at its default (or is resent as it is)
    pending = state.setdefault(_URL_PENDING, {})
    params = st.query_params
    dropped = []
    for key in list(params):
        if not _guarded(key) or key in state:
            continue  # not a widget's, or its widget already has a value in this session (no seeding)
        values = params.get_all(key)
        problem = _value_problem(values)
        if problem is not None:
            dropped.append(key)
            pending.pop(key, None)
            note_url_param(key, problem)
        elif key not in pending and len(pending) < _MAX_PENDING:
            pending[key] = list(values)
    ctx = get_script_run_ctx()
    if (dropped or resets) and ctx is not None:
        from urllib.parse import urlencode

        with ctx.session_state.query_params() as qp:
            for key in [*dropped, *resets]:
                qp.remove_param(key)  # out of the address bar (a widget at its default has no parameter)
            if dropped:  # and out of the values widgets are seeded from in this run
                qp.set_initial_query_params(urlencode({k: qp.get_all(k) for k in qp}, doseq=True))


def _url_notes_slot() -> None:
    """At the top of a page: the place where :func:`report_url_params` puts its note."""
    run = st.session_state.get(_URL_RUN)
    if run is not None and run["slot"] is None and not run["reported"]:
        run["slot"] = st.container()


def _took_url_value(metadata, values: list[str], value) -> str | None:
    """Whether a widget (its Streamlit ``metadata``) took the URL ``values`` as given, now holding
    ``value``: None if so, else "repeated" (several values for a one-value widget) or "invalid"
    (malformed, out of range, not an option, changed on the way in). Uses the widget's own parser
    (``parse_url_param``, as Streamlit seeds it) and serializer (as Streamlit writes it to the URL)."""
    from streamlit.runtime.state.query_params import is_empty_url_value, parse_url_param

    if metadata.value_type not in _ARRAY_TYPES and len(values) > 1:
        return "repeated"
    raw = values[0] if len(values) == 1 else values
    if is_empty_url_value(raw) and not metadata.clearable:
        return "invalid"
    try:
        given = parse_url_param(raw, metadata.value_type)
        shown = metadata.serializer(value)
    except (ValueError, TypeError, OverflowError, IndexError, KeyError):
        return "invalid"
    if isinstance(shown, tuple):
        shown = list(shown)
    return None if shown == given else "invalid"


def _resend_step_widgets(ctx) -> dict[str, object]:
    """After the first run of a lesson step's page (:func:`present_lesson` entered it): each drawn
    widget of the page bound to the URL -> its value, to be set again before the widgets are drawn in
    one more run. A widget keeps its id from step to step, and the browser keeps the value it last
    showed for an id it still draws: the page switches of a presenter move never end a run without
    it, and a value equal to the widget's default is not resent. Without this, Previous from a step
    that set ε_high = 0.28 back to one at the default showed 0.28 while the page computed with 0.2,
    and the next move of any control sent 0.28 back. A value set through ``st.session_state`` before
    its widget is drawn is always resent (the widget's ``set_value``)."""
    prefix = st.session_state.pop(RESYNC_KEY, None)
    if not prefix or ctx is None:
        return {}
    keys = [k for k in list(st.session_state.keys()) if isinstance(k, str) and k.startswith(prefix)]
    with ctx.session_state.query_params() as qp:
        return {k: st.session_state[k] for k in keys if qp.get_binding_for_param(k) is not None}


def report_url_params() -> None:
    """The second half of the URL check, once per run after the page's widgets are drawn (app.py after
    the page; :func:`stop` before a page stops early): each held parameter whose widget is now drawn
    is compared with the value the widget took; one not taken as given is noted, and a widget left
    at another value than its default is reset to it (a rerun). The notes go, as one warning that
    names each parameter, at the top of the page (:func:`ensure_shell`)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    state = st.session_state
    ctx = get_script_run_ctx()
    resends = _resend_step_widgets(ctx)
    if resends:
        state[_URL_RESENDS] = resends
    run = state.get(_URL_RUN)
    if run is None or run["reported"]:
        if resends:
            st.rerun()
        return
    run["reported"] = True
    pending = state.get(_URL_PENDING) or {}
    resets = {}
    if pending and ctx is not None:
        with ctx.session_state.query_params() as qp:
            found = {}
            for key in list(pending):
                binding = qp.get_binding_for_param(key)
                if binding is None:
                    if not qp.has_param(key):
                        del pending[key]  # gone from the URL without a widget: nothing to check
                    continue
                try:
                    found[key] = ctx.session_state._state.get_widget_metadata(binding.widget_id)
                except AttributeError:  # Streamlit's internals moved: leave the value as Streamlit took it
                    found[key] = None
        for key, metadata in found.items():
            values = pending.pop(key)
            if metadata is None or key not in state:
                continue
            problem = _took_url_value(metadata, values, state[key])
            if problem is None:
                continue
            note_url_param(key, problem)
            try:
                default = metadata.deserializer(None)
            except Exception:  # noqa: BLE001 -- a widget without a default: keep what Streamlit chose
                continue
            if state[key] != default:
                resets[key] = default
    if resets or resends:
        state[_URL_RESETS] = resets
        run["reported"] = False  # the notes carry over to the rerun (start_url_check)
        st.rerun()
    if run["notes"]:
        from rlviz.i18n import LIST_SEPARATOR

        items = [tr(f"url.{reason}", param=key, limit=MAX_URL_VALUE_CHARS) for key, reason in run["notes"]]
        where = run["slot"] if run["slot"] is not None else st
        where.warning(tr("url.ignored", params=LIST_SEPARATOR[lang()].join(items)), icon=":material/link_off:")


def stop() -> None:
    """``st.stop()`` for a page: first the notes about ignored URL parameters (:func:`report_url_params`),
    which nothing can draw once the run is stopped."""
    report_url_params()
    st.stop()
