"""The app's shell: what every script run of every page does first (the legacy-pages guard, the URL
check, torch threads), the server's start options and limits, and the sidebar's "This server"."""

from __future__ import annotations

import argparse
import functools
import inspect
import os
import sys
from dataclasses import dataclass

import streamlit as st

from app_common.text import _css_string, tr
from app_common.urlstate import _url_notes_slot, start_url_check
from rlviz.i18n import t


def memoize_function_keys() -> bool:
    """Compute each cached page function's cache key once per process, not on every rerun.

    A page script runs again on every rerun, and so do its ``@st.cache_data`` decorators: each
    makes Streamlit key the function by its module, name and source text, read with
    ``inspect.getsource`` (which tokenises the file's lines): about 0.6 ms a function, 7 ms a rerun
    of the length page's eleven, measured here. Streamlit compiles a page script once and keeps its
    code objects, so a function's code object names its source as well: the key is computed the
    first time and reused while the code is the same (an edited file compiles to new code, and gets
    a new key). The keys are Streamlit's own (tested). Returns whether it is in place (False if this
    Streamlit has no ``_make_function_key``, in which case nothing changes)."""
    from streamlit.runtime.caching import cache_utils

    make = getattr(cache_utils, "_make_function_key", None)
    if make is None:
        return False
    if getattr(make, "_rlviz_memo", False):
        return True
    keys: dict[tuple, str] = {}

    @functools.wraps(make)
    def function_key(cache_type, func):
        code = getattr(inspect.unwrap(func), "__code__", None)  # the page's function, not a wrapper's
        if code is None:
            return make(cache_type, func)
        at = (cache_type, func.__module__, func.__qualname__, code.co_filename, code)
        key = keys.get(at)
        if key is None:
            key = keys[at] = make(cache_type, func)
        return key

    function_key._rlviz_memo = True
    cache_utils._make_function_key = function_key
    return True


memoize_function_keys()


@dataclass(frozen=True)
class ServerOptions:
    """Chosen when the server starts, never in the browser."""

    model_dir: str | None  # a local Hugging Face model directory; None = the shipped tiny LM
    device: str  # "auto" or a torch device name


def server_options(argv: list[str] | None = None, environ: dict[str, str] | None = None) -> ServerOptions:
    """Read ``--model-dir`` / ``--device`` (after ``--`` on the streamlit command line), falling
    back to ``RLVIZ_MODEL_DIR`` / ``RLVIZ_DEVICE``; unknown arguments are ignored."""
    environ = os.environ if environ is None else environ
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--model-dir", default=None)
    parser.add_argument("--device", default=None)
    args, _ = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    model_dir = args.model_dir or environ.get("RLVIZ_MODEL_DIR") or None
    device = args.device or environ.get("RLVIZ_DEVICE") or "auto"
    return ServerOptions(model_dir=model_dir, device=device)


def ensure_shell(app: bool = False) -> None:
    """Called first thing by every page, and by ``app.py`` with ``app=True``.

    Leaves Streamlit's legacy ``pages/`` mode, if this run is in it, by re-running the session. While
    a ``pages/`` folder exists, Streamlit starts a fresh server in its old multipage mode: the first
    session runs a deep link's page file alone (without ``app.py``'s sidebar) or nests ``app.py``
    inside an automatic page list, until ``st.navigation`` has been called once in the process. This
    switches that mode off and re-runs, so the session goes through ``app.py`` and ``st.navigation``
    to the same page.

    Then the URL check (see :func:`start_url_check`): in ``app.py``, before any widget is drawn, the
    URL parameters of the sidebar and of every page's widgets (``rlviz.app_pages`` prefixes) are
    checked; on a page, the place at its top where the notes about ignored parameters appear.
    """
    from streamlit.runtime.pages_manager import PagesManager

    from rlviz.serving import match_torch_threads

    match_torch_threads()  # each script run is a new thread: the server's torch threads, not one per core
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
    if app:
        start_url_check()
    else:
        _url_notes_slot()
        _note_arrival()


ARRIVED = "_rlviz_arrived"  # session key: this full run is the first of its page since another page was shown
_LAST_PAGE = "_rlviz_last_page"  # session key: the page of the last full run (its script hash)


def _note_arrival() -> None:
    """Mark in the session whether this full run of a page follows one of another page (a click on the
    sidebar, a page link): :func:`app_common.template.first_screen_only` reads it. A new session's first
    run is no arrival (nothing was shown before it)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    page = getattr(ctx, "page_script_hash", None)
    last = st.session_state.get(_LAST_PAGE)
    st.session_state[_LAST_PAGE] = page
    st.session_state[ARRIVED] = last is not None and last != page


def input_hints_css(language: str) -> str:
    """A style rule that shows Streamlit's own key hints under a text or number field ("Press Enter to
    apply", "Press Enter to submit form", "Press Ctrl+Enter to apply") in ``language``, or ``""`` in
    English (Streamlit writes them in English only). The hint's text is hidden and the locale's
    ``hint.*`` text drawn in its place; a field with a character limit is left alone (its hint
    shares the line with the count, which must stay)."""
    if language == "en":
        return ""
    plain = ":not(:has([maxlength]))"
    single = ("[data-testid=stNumberInput]", f"[data-testid=stTextInput]{plain}")
    multi = (f"[data-testid=stTextArea]{plain}",)

    def rule(fields: tuple[str, ...], key: str, inside_form: bool) -> str:
        spans = [
            f"{'[data-testid=stForm] ' if inside_form else ''}{f} [data-testid=InputInstructions] > span"
            for f in fields
        ]
        return (
            f"{', '.join(spans)} {{ visibility: hidden; position: relative; }} "
            f"{', '.join(f'{span}::after' for span in spans)} {{ content: {_css_string(t(key, language))}; "
            "visibility: visible; position: absolute; right: 0; white-space: nowrap; }"
        )

    return (
        "<style>"
        + rule(single, "hint.enter_apply", False)
        + rule(single, "hint.enter_submit", True)
        + rule(multi, "hint.ctrl_enter_apply", False)
        + rule(multi, "hint.ctrl_enter_submit", True)
        + "</style>"
    )


def with_torch_threads(func):
    """``func``, which first gives the thread that calls it the server's torch threads
    (:func:`rlviz.serving.match_torch_threads`). For code that Streamlit runs in a thread of its
    own without :func:`ensure_shell`: a fragment's rerun (see :func:`fragment`)."""

    @functools.wraps(func)
    def run(*args, **kwargs):
        from rlviz.serving import match_torch_threads

        match_torch_threads()
        return func(*args, **kwargs)

    return run


def fragment(func=None, **kwargs):
    """``st.fragment`` for a page (used as ``@fragment`` or ``@fragment(run_every=1)``; the keyword
    arguments are ``st.fragment``'s). A fragment's rerun runs in a new thread and skips the page's
    :func:`ensure_shell`, so it started with MKL's and OpenMP's defaults (one thread per core) unless
    ``OMP_NUM_THREADS`` was set before torch loaded, which :func:`rlviz.serving.default_thread_env`
    in ``app.py`` cannot do when a fresh server's first session opens a deep link (Streamlit runs
    that page file first, and it imports torch). Measured in such a server: the length page's float64
    ``torch.cos`` calls took 3.3 ms each in a fragment's rerun, 0.02 ms in a full one. Each run of a
    fragment therefore takes the server's torch threads first (:func:`with_torch_threads`); its
    identity (module and name) is the function's, as with ``st.fragment``."""
    if func is None:
        return functools.partial(fragment, **kwargs)
    return st.fragment(with_torch_threads(func), **kwargs)


@st.cache_resource
def server_limits():
    """The shared-server limits (``rlviz.serving.ServerLimits.from_env``), installed for the process
    on the first call (``rlviz.serving.configure``: run checks, the step queue, torch threads). The
    cached object is immutable; a bad ``RLVIZ_*`` value falls back to the defaults with a log line."""
    from rlviz import serving

    try:
        limits = serving.ServerLimits.from_env()
    except ValueError as exc:
        import logging

        logging.getLogger("rlviz").error("server limits: %s; using the defaults", exc)
        limits = serving.ServerLimits()
    serving.configure(limits, before_trim=expire_closed_sessions)
    return limits


def expire_closed_sessions(manager=None) -> int:
    """Drop the sessions whose browser closed more than ``server.disconnectedSessionTTL`` (120 s)
    ago, with everything they hold (a stopped run's models, its optimizers, its reference); returns
    how many. Streamlit keeps a closed session in a TTL cache so that a reconnect finds it, but
    removes an expired one only when a later session disconnects: after a class leaves, its last
    sessions (and any run they left mid-way) stayed in memory until the next visitor (found with
    the load benchmark: 30 sessions closed, 150 s later all 30 still held, two of them with a 4-arm
    run, 75 MiB of tensors). The server's trimmer calls this every minute, before it hands freed
    memory back (``rlviz.serving.configure``'s ``before_trim``). This is what Streamlit's own
    expiry does on its next save: the session is let go, not shut down.

    ``manager``: a Streamlit ``WebsocketSessionManager`` (default: the running server's). Reads its
    private ``_session_storage._cache`` under its ``_storage_lock`` (``tests/test_serving.py`` checks
    these names on Streamlit's own classes); where they are missing it drops nothing and returns 0."""
    import contextlib

    if manager is None:
        from streamlit.runtime import Runtime

        if not Runtime.exists():
            return 0
        manager = getattr(Runtime.instance(), "_session_mgr", None)
    cache = getattr(getattr(manager, "_session_storage", None), "_cache", None)
    expire = getattr(cache, "expire", None)
    if not callable(expire):
        return 0
    with getattr(manager, "_storage_lock", None) or contextlib.nullcontext():
        return len(expire())


def show_server_limits() -> None:
    """The sidebar's "This server" expander: the limits a session may ask for and the training
    steps running and waiting now (``rlviz.serving.STEPS``)."""
    from rlviz import serving

    limits = server_limits()
    with st.expander(tr("side.limits")):
        st.markdown(
            tr(
                "side.limits_text",
                running=serving.STEPS.running,
                waiting=serving.STEPS.waiting,
                **limits.as_dict(),
            )
        )
