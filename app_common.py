"""Small helpers shared by app.py and the pages (Streamlit side only)."""

from __future__ import annotations

import argparse
import functools
import inspect
import math
import os
import re
import sys
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import streamlit as st

from rlviz.i18n import DEFAULT_LANG, LANGS, latex_text, t


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


def formula(latex: str, small: bool = False) -> None:
    """``st.latex`` with one line per ``,\\quad``-separated part, so long objectives fit a column;
    ``small`` sets it a size smaller (for a narrow column beside a figure). The words of its
    ``\\text{}`` annotations are shown in the session's language (:func:`rlviz.i18n.latex_text`)."""
    size = r"\small" if small else ""
    latex = latex_text(latex, lang())
    st.latex(size + r"\begin{gathered}" + latex.replace(r",\quad ", r",\\ ") + r"\end{gathered}")


def lang() -> str:
    """The language of this session ("en" or "zh")."""
    value = st.session_state.get("lang", DEFAULT_LANG)
    return value if value in LANGS else DEFAULT_LANG


def tr(key: str, **fmt: object) -> str:
    """``rlviz.i18n.t`` in the session's language."""
    return t(key, lang(), **fmt)


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


IMAGE_FORMATS = ("svg", "png")


def figure_cache(func=None, *, hash_funcs: dict | None = None):
    """``st.cache_data`` for a page's figure builder: ``func`` (settings and the language in, a
    figure out) returns the figure's spec (``go.Figure.to_plotly_json()``, a plain dict), kept for
    the last ``ServerLimits.figure_cache_entries`` distinct arguments and shared by every session
    (a pure result: the same arguments give the same figure). Pass what it returns to :func:`chart`,
    which shows a spec without validating it again (plotly's validation is most of a figure's
    build). Exceptions are not cached: a ``ValueError`` reaches the page as before. Used as
    ``@figure_cache`` or ``@figure_cache(hash_funcs=...)`` (``st.cache_data``'s: how to hash an
    argument's type, e.g. :func:`settings_hash`'s)."""
    if func is None:
        return functools.partial(figure_cache, hash_funcs=hash_funcs)

    @functools.wraps(func)
    def spec(*args, **kwargs):
        fig = func(*args, **kwargs)
        out = fig.to_plotly_json() if hasattr(fig, "to_plotly_json") else fig
        # the figure's identity, kept in the cache with it: chart() draws a figure once per look
        # (language, theme, image format, key) and replays the drawn element afterwards
        out[CHART_ID] = uuid.uuid4().hex  # unique per build (a content hash would cost a pickling of it)
        return out

    entries = server_limits().figure_cache_entries
    return st.cache_data(max_entries=entries, show_spinner=False, hash_funcs=hash_funcs)(spec)


def settings_hash(*types: type) -> dict:
    """``hash_funcs`` for ``st.cache_data`` that hash frozen dataclasses (a page's settings) by their
    ``repr``: Streamlit hashes a dataclass through ``dataclasses.asdict``, which deep-copies it
    (0.3-0.5 ms a call here, a dozen calls a rerun on the length page), where its ``repr`` names
    every field and value exactly (floats round-trip) in a few microseconds."""
    for cls in types:
        params = getattr(cls, "__dataclass_params__", None)
        if params is None or not params.frozen:
            raise ValueError(f"types: {cls.__name__} is not a frozen dataclass (its repr may not name its state)")
    return {cls: repr for cls in types}


CHART_ID = "_rlviz_chart_id"  # a spec's identity (figure_cache), read and removed by chart()


@functools.cache
def _spec_figure_class():
    import plotly.graph_objects as go

    class SpecFigure(go.Figure):
        """A figure that hands its spec, as it is, to whoever serialises it."""

        def to_dict(self):
            return self._rlviz_spec

        to_plotly_json = to_dict

    return SpecFigure


def as_figure(fig_or_spec):
    """What ``st.plotly_chart`` is given: a ``go.Figure`` as it is; for a spec that
    :func:`figure_cache` returned, a ``go.Figure`` that hands Streamlit the spec itself.
    ``st.plotly_chart`` validates a dict again (most of a figure's build) and deep-copies a figure
    (``to_dict``) before serialising it; the spec was built through plotly's validated API and is a
    fresh copy from the cache, so it is serialised as it is."""
    if not isinstance(fig_or_spec, dict):
        return fig_or_spec
    cls = _spec_figure_class()
    # not initialised: go.Figure() would set up an empty layout and its template (a third of a small
    # page's chart); Streamlit reads nothing of it but to_dict (plotly.tools.return_figure_from_figure_or_data)
    fig = cls.__new__(cls)
    fig._rlviz_spec = fig_or_spec
    return fig


def chart(fig, key: str, **kwargs):
    """``st.plotly_chart`` with the app's toolbar: the camera button saves the figure in the format
    chosen in the sidebar (SVG or PNG), named after ``key``; no Plotly logo. Screen readers get a
    text alternative read from the figure (``rlviz.plots.describe_figure``: title, panels, axes,
    series) in the session's language. ``fig`` is a ``go.Figure`` or a spec from :func:`figure_cache`.
    In the dark theme black lines are drawn light
    (``rlviz.plots.for_dark_background``). ``kwargs`` go to ``st.plotly_chart`` (e.g.
    ``on_select``, ``selection_mode``); returns what it returns.

    A spec from :func:`figure_cache` shown without ``kwargs`` (not a widget) that this session
    shows again is drawn once per figure, key and look (the image format, the theme, the language)
    and replayed by Streamlit's cache from then on: a rerun that leaves a figure alone does not
    serialise it again (about 3 ms a figure of 0.5 MB). A figure shown for the first time is drawn
    as it is (recording it costs about as much as it saves once: a slider moved to a new value
    changes most figures). Returns None when replayed."""
    fmt = st.session_state.get("img_format", IMAGE_FORMATS[0])
    fmt = fmt if fmt in IMAGE_FORMATS else IMAGE_FORMATS[0]
    dark = st.context.theme.type == "dark"  # the reader's theme (system setting or the ⋮ menu)
    chart_id = fig.pop(CHART_ID, None) if isinstance(fig, dict) else None
    if chart_id is not None and not kwargs:
        seen = st.session_state.setdefault(_SEEN_CHARTS, {})  # per session: ids in the order last shown
        if seen.pop((chart_id, key), None) is not None:
            seen[chart_id, key] = True
            _drawn_chart()(chart_id, key, fmt, dark, lang(), fig)
            return None
        seen[chart_id, key] = True
        while len(seen) > 64:  # the figures of the last few reruns are enough
            seen.pop(next(iter(seen)))
    return _draw_chart(fig, key, fmt, dark, **kwargs)


_SEEN_CHARTS = "_rlviz_seen_charts"  # session-state key: the figure_cache charts this session has shown


@functools.cache
def _drawn_chart():
    """:func:`_draw_chart` of ``_fig`` (not hashed: ``chart_id`` is its identity), recorded by
    Streamlit and replayed on a hit. Kept for the last 4 × ``ServerLimits.figure_cache_entries``
    drawings (128 by default; each holds its figure's element, up to about 0.4 MB)."""

    def drawn_chart(chart_id: str, key: str, fmt: str, dark: bool, language: str, _fig: dict) -> None:
        _draw_chart(_fig, key, fmt, dark)

    return st.cache_data(max_entries=4 * server_limits().figure_cache_entries, show_spinner=False)(drawn_chart)


MODEBAR_REMOVED = ("zoomIn2d", "zoomOut2d", "autoScale2d", "select2d", "lasso2d")


def _draw_chart(fig, key: str, fmt: str, dark: bool, **kwargs):
    """The body of :func:`chart`."""
    from rlviz.i18n import FULL_STOP, LIST_SEPARATOR
    from rlviz.plots import describe_figure, for_dark_background

    config = {
        "displaylogo": False,
        # the camera, zoom, pan and reset: a shorter toolbar, which covered the 8th entry of a
        # legend's first row on hover (zoom in / out and autoscale repeat zoom and reset)
        "modeBarButtonsToRemove": list(MODEBAR_REMOVED),
        "toImageButtonOptions": {"format": fmt, "filename": f"rlviz-{key}", "scale": 2 if fmt == "png" else 1},
    }
    if dark:
        fig = for_dark_background(fig)
    words = {w: tr(f"common.alt_{w}") for w in ("chart", "panels", "axes", "series")}
    words["stop"] = FULL_STOP[lang()]
    alt = describe_figure(fig, words, LIST_SEPARATOR[lang()])
    fig = as_figure(fig)  # a figure_cache spec: shown without a second validation or a copy
    return st.plotly_chart(fig, config=config, key=key, alt=alt, **kwargs)


def csv_download(df, name: str, key: str, label: str | None = None) -> None:
    """A download button for ``df`` as CSV (UTF-8 with BOM, so spreadsheet apps read 中文 right)."""
    st.download_button(
        label or tr("common.download_csv"),
        lambda: df.to_csv(index=False).encode("utf-8-sig"),  # built on the click, not on every rerun
        file_name=f"rlviz-{name}.csv",
        mime="text/csv",
        key=key,
        icon=":material/download:",
    )


def pct(value: float | None) -> str:
    """A share as a percentage: two decimals below 0.1%, else one; "—" for a missing or NaN value."""
    if value is None or not math.isfinite(value):
        return "—"
    return f"{value:.2%}" if 0 < abs(value) < 0.001 else f"{value:.1%}"


def num(value: float | None, digits: int = 3) -> str:
    """A number to ``digits`` significant digits; "—" for a missing or NaN value."""
    return f"{value:.{digits}g}" if value is not None and math.isfinite(value) else "—"


def cell(value: float | None, digits: int = 3, signed: bool = False) -> str:
    """A table cell to ``digits`` decimals (with its sign if ``signed``); "—" for a missing or NaN value."""
    if value is None or not math.isfinite(value):
        return "—"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def live_reading(summary_frame, names: dict[str, str], prefix: str, heldout_samples: int) -> str:
    """What a side-by-side run's summary shows, in the session's language: the arms the collapse flag
    marked (``<prefix>.read_live_collapse`` / ``.read_live_arm_step``, or ``.read_live_no_collapse``),
    then, with held-out samples, whether the arms' final held-out pass@1 lie apart beyond two
    standard errors (``<prefix>.read_live_apart`` with ``.live_verdict.separates`` / ``.noise``;
    ``rlviz.experiments.moe.arms_apart``). ``names``: arm -> its label."""
    from rlviz.experiments.moe import arms_apart
    from rlviz.i18n import LIST_SEPARATOR, SENTENCE_SEPARATOR
    from rlviz.lm.task import HELDOUT_SIZE

    collapsed = [
        tr(f"{prefix}.read_live_arm_step", arm=names.get(a, a), step=int(v))
        for a, v in zip(summary_frame["arm"], summary_frame["collapse_step"])
        if math.isfinite(v)
    ]
    language = lang()
    reading = (
        tr(f"{prefix}.read_live_collapse", arms=LIST_SEPARATOR[language].join(collapsed))
        if collapsed
        else tr(f"{prefix}.read_live_no_collapse")
    )
    samples = HELDOUT_SIZE * heldout_samples
    apart = arms_apart(list(summary_frame["heldout_pass_at_1_end"]), samples)
    if apart is not None:
        low, high, two_se = apart
        verdict = tr(f"{prefix}.live_verdict.separates" if high - low > two_se else f"{prefix}.live_verdict.noise")
        reading += SENTENCE_SEPARATOR[language] + tr(
            f"{prefix}.read_live_apart", low=cell(low), high=cell(high), n=samples, two_se=cell(two_se), verdict=verdict
        )
    return reading


def show_bad_input(exc: Exception, fields: dict[str, str] | None = None, where=None) -> None:
    """Show a library ``ValueError`` as a message in the page, never a traceback.

    rlviz errors start with the parameter's name (``"buffer_length: must be ..."``); when ``fields``
    maps that name to the widget's label (in the session's language), the message names the widget
    the user has to change, followed by the library's own detail, shown literally
    (:func:`escape_markdown`: a message quoting ``![x](http://...)`` from the URL fetches nothing).
    """
    message = str(exc)
    name = message.split(":", 1)[0].strip()
    label = (fields or {}).get(name)
    error = escape_markdown(message)  # it may quote what was typed or put in the URL: shown, never rendered
    text = tr("common.bad_field", field=label, error=error) if label else tr("common.bad_input", error=error)
    (where or st).error(text, icon=":material/error:")


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


RUN_SIZE_LIMITS = {"steps": "max_steps", "prompts": "max_prompts_per_step", "group_size": "max_group_size"}


def run_size_input(where, size: str, label: str, low: int, default: int, **kwargs) -> int:
    """``where.number_input`` for a live run's ``size`` ("steps", "prompts" or "group_size") from ``low``
    to this server's limit (:func:`server_limits`, :data:`RUN_SIZE_LIMITS`), so a field never offers
    what the server refuses; the default is held inside, and a limit below ``low`` (an operator's
    ``RLVIZ_*``) leaves the field at ``low`` rather than making Streamlit refuse it. ``kwargs`` are
    ``number_input``'s (key, help, bind, disabled)."""
    high = max(low, int(getattr(server_limits(), RUN_SIZE_LIMITS[size])))
    return where.number_input(label, low, high, min(max(int(default), low), high), **kwargs)


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


def run_active(flag_key: str) -> bool:
    """Whether this session's step-wise run behind ``flag_key`` is advancing. True from the very
    script run that the Run click starts (the click's callback sets the flag before the script
    runs), so the settings widgets above the controls render disabled from the first moment."""
    return bool(st.session_state.get(flag_key))


def stop_requested(flag_key: str) -> bool:
    """Whether Stop was pressed and the run is finishing the round in progress."""
    return bool(st.session_state.get(_stop_key(flag_key)))


def _error_key(flag_key: str) -> str:
    return f"{flag_key}__error"


def _start_key(flag_key: str) -> str:
    return f"{flag_key}__start"


def _bad_start_key(flag_key: str) -> str:
    return f"{flag_key}__bad_start"


def _stop_key(flag_key: str) -> str:
    return f"{flag_key}__stop"


def run_controls(
    run_key: str,
    flag_key: str,
    make_run,
    labels: tuple[str, str, str, str],
    keys: tuple[str, str, str, str],
    on_error,
    settings_keys: Iterable[str] = (),
) -> bool:
    """Run / Stop / Continue / Reset for a step-wise experiment kept in this session.

    The run object lives in ``st.session_state[run_key]`` (never cached across sessions); it must
    have a ``done`` property. ``st.session_state[flag_key]`` says whether the page keeps advancing it
    (see :func:`advance`). Every button acts in its ``on_click`` callback, before the script runs:
    Run sets the flag (so the widgets above, drawn with ``disabled=run_active(flag_key)``, are
    disabled in that same script run) and asks for a new run, which ``make_run()`` builds here from
    this script run's widget values. A ``ValueError`` it raises goes to ``on_error(exc)`` (a message
    in the page) after a rerun that draws the widgets enabled again; any other error is shown as a
    failed run (:func:`show_run_failure`). Stop asks :func:`advance` to stop once every arm has
    finished the round in progress (the run stays level: every arm at the same step), Continue
    sets the flag again, Reset drops the run; nothing done is lost. ``labels`` and ``keys`` are those of the
    Run, Stop, Continue and Reset buttons. Returns whether the run is advancing after this call.

    ``settings_keys``: the keys of the settings widgets drawn with ``disabled=run_active(...)``.
    Streamlit drops a value that arrives for a widget drawn disabled, so a value typed and sent
    together with the Run click (a field still being edited when Run is pressed) would be lost; the
    Run callback re-assigns these widgets' values as they arrived, which Streamlit keeps.
    """
    state = st.session_state
    error_key, start_key, bad_start_key = _error_key(flag_key), _start_key(flag_key), _bad_start_key(flag_key)
    stop_key = _stop_key(flag_key)

    def _run() -> None:
        for key in settings_keys:
            if key in state:
                state[key] = state[key]  # keep the value sent with the click (see above)
        state[flag_key] = True
        state[start_key] = True
        state.pop(error_key, None)
        state.pop(stop_key, None)

    def _stop() -> None:
        state[stop_key] = True  # advance() finishes the round in progress, then stops

    def _continue() -> None:
        state[flag_key] = run_key in state
        state.pop(error_key, None)
        state.pop(stop_key, None)

    def _reset() -> None:
        if state.get(flag_key) and run_key in state:
            return  # a click on a button left from before the run started: never drop a running run
        state.pop(run_key, None)
        state.pop(error_key, None)
        state.pop(stop_key, None)
        state[flag_key] = False

    if state.pop(start_key, False):
        try:
            state[run_key] = make_run()
        except Exception as exc:  # noqa: BLE001 -- the page boundary: a message, never a traceback
            state[flag_key] = False
            state[bad_start_key] = exc
            st.rerun()  # draw the settings enabled again, with the message below them
    running = bool(state.get(flag_key)) and run_key in state
    if state.get(flag_key) and not running:
        state[flag_key] = False  # a flag left without a run (e.g. Reset in another tab)
    run_label, stop_label, continue_label, reset_label = labels
    run_btn, stop_btn, continue_btn, reset_btn = keys
    controls = st.container(horizontal=True)
    controls.button(
        run_label, type="primary", key=run_btn, disabled=running, on_click=_run, icon=":material/play_arrow:"
    )
    # The four buttons are drawn in every script run, in the same places, enabled or not: a button
    # drawn only in some runs would stay on screen (faded but clickable) from the previous run while a
    # long run keeps this script busy, e.g. a Reset that would drop the run in progress.
    has_run = run_key in state
    controls.button(
        stop_label,
        key=stop_btn,
        on_click=_stop,
        icon=":material/stop:",
        disabled=not running or bool(state.get(stop_key)),  # disabled once pressed: the round finishes
    )
    controls.button(
        continue_label,
        key=continue_btn,
        on_click=_continue,
        icon=":material/resume:",
        disabled=running or not has_run or state[run_key].done,
    )
    controls.button(
        reset_label, key=reset_btn, on_click=_reset, icon=":material/delete:", disabled=running or not has_run
    )
    css = _invalid_field_css(settings_keys, (run_btn, continue_btn), tr("run.fix_field"))
    if css:
        st.html(css)
    bad_start = state.pop(bad_start_key, None)
    if isinstance(bad_start, ValueError):
        on_error(bad_start)  # a bad setting: the run never started
    elif bad_start is not None:
        show_run_failure(bad_start)  # e.g. the model could not be loaded
    error = state.get(error_key)
    if error is not None and not running:
        show_run_failure(error)  # kept until Run, Continue or Reset, and redrawn in the current language
    return running


def _css_string(text: str) -> str:
    """``text`` as a quoted CSS string (for ``content:``)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\A ") + '"'


def _invalid_field_css(settings_keys: Iterable[str], buttons: tuple[str, ...], message: str) -> str:
    """A style rule that hides the ``buttons`` (Run, Continue) and shows ``message`` in Run's place while a
    number field among ``settings_keys`` holds a value out of its range. The browser never sends such a
    value (it outlines the field in red and keeps the last valid one), so the server cannot see it:
    without this, a field reading 0 steps beside an enabled Run started a run with the old value."""
    from rlviz.plots.lessons import css_class  # lv_grpo.epsilon_high -> st-key-lv_grpo-epsilon_high

    fields = ", ".join(f'.{css_class(key)} input[aria-invalid="true"]' for key in settings_keys)
    if not fields:
        return ""
    main = f"[data-testid=stMain]:has({fields})"
    hide = ", ".join(f"{main} .{css_class(key)} button" for key in buttons)
    return (
        f"<style>{hide} {{ display: none; }} "
        f"{main} .{css_class(buttons[0])}::after {{ content: {_css_string(message)}; "
        "color: var(--st-red-color, #d6293e); }</style>"
    )


def describe_failure(exc: BaseException) -> str:
    """What stopped a run, in words in the session's language (never the exception's own text)."""
    text = f"{type(exc).__name__} {exc}".lower()
    if isinstance(exc, MemoryError) or "out of memory" in text:
        return tr("run.err_memory")
    if "nan" in text.split() or "inf" in text.split() or "non-finite" in text or "infinit" in text:
        return tr("run.err_numeric")
    if isinstance(exc, ValueError):
        return tr("run.err_value")
    return tr("run.err_other")


def show_run_failure(exc: BaseException, where=None) -> None:
    """A run that stopped on an error: a message in the user's language, and the technical detail
    only inside a collapsed expander."""
    box = where or st
    box.error(tr("run.failed", what=describe_failure(exc)), icon=":material/error:")
    with box.expander(tr("run.details"), expanded=False):
        st.code(f"{type(exc).__name__}: {exc}", language=None)


def advance(run, flag_key: str, on_progress, on_wait=None) -> None:
    """Advance ``run`` while ``st.session_state[flag_key]`` is set, as many arms at once as the server
    computes steps at once (``rlviz.serving.STEPS.capacity``, each arm in a thread with its own turn
    in the queue: a lone session uses every core it is allowed, a busy server shares them in turn).

    ``run`` is a :class:`rlviz.experiments.runner.SideBySideRun` (its ``step_parallel`` holds the run's
    lock, so a second script run started by a rerun, e.g. a language switch, waits for the steps in
    flight instead of starting another on the same model). ``on_progress()`` draws progress after
    each batch of arm-steps; its Streamlit calls are where a rerun (a widget change, a language switch, a page
    switch, Stop) ends this script run, always between two arm-steps; the next script run on the
    page picks the run up where it is (the flag is still set). After Stop it steps on only until
    every arm has finished the round in progress. At the end the flag is cleared and the page reruns
    to draw the results; an error clears the flag and reruns, and :func:`run_controls` shows it in
    words (:func:`show_run_failure`) until Run, Continue or Reset, with every step done so far kept
    (Continue retries). A run that is done frees its models (``run.release()``: its results stay,
    shown and downloadable); a stopped one keeps them, so it can continue, until Reset or the end of
    the session. Each arm-step waits for its turn in the server's step queue
    (``rlviz.serving.STEPS``); ``on_wait(ahead)`` says the place in line while it waits.
    """
    from rlviz import serving

    state = st.session_state
    stop_key = _stop_key(flag_key)
    try:
        while state.get(flag_key) and not (state.get(stop_key) and run.level):
            if run.step_parallel(serving.STEPS.capacity, on_wait=on_wait) is None:
                break
            on_progress()
    except Exception as exc:  # noqa: BLE001 -- the page boundary: a message, never a traceback
        state[flag_key] = False
        state.pop(stop_key, None)
        state[_error_key(flag_key)] = exc
        st.rerun()  # redraw with the controls of a stopped run and the message (run_controls)
    if run.done:
        run.release()  # every result stays; the models, optimizers and reference are freed now
    state[flag_key] = False
    state.pop(stop_key, None)
    st.rerun()


def predict(prediction, state: dict, result: dict | None = None, labels: dict[str, str] | None = None) -> None:
    """Predict, then reveal (``rlviz.teach.predict``): the question at the page's current ``state``,
    a committed guess (a form: typing does not rerun the page), then the answer ``rlviz`` computes for
    the same state, the verdict, the explanation and, where the prediction names one, the figure
    element that shows it. A committed guess is kept per session until the learner tries again or the
    settings change (then the question is asked afresh).

    ``result``: for a prediction with ``needs_result``, what the answer is read from beyond ``state``
    (a finished run's measurements), or ``None`` while the page has none: then a committed guess waits
    with a note. It is not part of the signature, so a guess committed before a run survives the run.
    ``labels``: the names of a line question's lines (default: their keys).
    Drawn in a container keyed ``pred_<prediction key>`` (CSS class ``st-key-pred_...``), so a lesson's
    presenter view can highlight the step's question and hide the page's others (:func:`present_lesson`).
    """
    with st.container(key=f"pred_{prediction.key}"):
        _predict(prediction, state, result, labels)


def _predict(prediction, state: dict, result: dict | None = None, labels: dict[str, str] | None = None) -> None:
    from rlviz.i18n import LIST_SEPARATOR
    from rlviz.teach.predict import reveal

    state_ = st.session_state
    key = prediction.key
    store = f"pr_{key}"
    fields = prediction.fields(state)
    signature = repr(sorted(state.items()))

    def name(choice: str) -> str:  # a choice's label, or a line's name in the view
        return tr(f"{key}.choice.{choice}") if prediction.kind == "choice" else (labels or {}).get(choice, choice)

    st.markdown(tr(f"{key}.q", **fields))
    committed = state_.get(store)
    # every answer committed in this session, by question and settings: back at settings answered
    # before (a presenter's Previous, a slider moved back) the answer stands again; a teacher found
    # Next then Previous asked the class the same question twice
    answered = state_.setdefault(ANSWERED_KEY, {})
    changed = committed is not None and committed["signature"] != signature
    if changed or committed is None:
        state_.pop(store, None)
        committed = None
        if (key, signature) in answered:
            committed = state_[store] = {"signature": signature, "guess": answered[(key, signature)]}
        elif changed:
            st.caption(tr("teach.changed"))
    if committed is None:
        if state_.get(ASKING_KEY) == key:  # a presenter's question: the page's answers wait for the class
            from rlviz.plots.lessons import hidden_answers_css

            st.html(hidden_answers_css())
            st.caption(tr("teach.answers_hidden"))
        with st.form(key=f"form_{key}", border=False):
            if prediction.kind == "number":
                guess = st.number_input(tr("teach.your_guess"), value=None, step=0.01, format="%.4f", key=f"{store}_in")
            else:
                guess = st.radio(
                    tr("teach.your_guess"),
                    list(prediction.options(state)),
                    index=None,
                    format_func=name,
                    key=f"{store}_in_{lang()}",
                )
            if st.form_submit_button(tr("teach.commit")) and guess is not None:
                state_[store] = {"signature": signature, "guess": guess}
                answered[(key, signature)] = guess
                st.rerun()
        return
    if prediction.needs_result and result is None:  # committed before the run: kept until it has finished
        guess = committed["guess"]
        st.info(
            tr("teach.waiting", guess=f"{guess:.4g}" if prediction.kind == "number" else name(guess)),
            icon=":material/hourglass_empty:",
        )
    else:
        merged = {**state, **(result or {})}
        try:
            verdict = reveal(prediction, merged, committed["guess"])
        except ValueError as exc:  # the measurement holds no answer (e.g. a step that made no update)
            st.warning(tr("teach.no_answer", error=str(exc)), icon=":material/info:")
            verdict = None
        if verdict is not None:
            if prediction.kind == "number":
                answer, guess = f"{verdict.answer:.4g}", f"{verdict.guess:.4g}"
                why = f"{key}.why"
            elif prediction.kind == "choice":
                answer, guess = name(verdict.answer), name(verdict.guess)
                why = f"{key}.why.{verdict.answer}"
            else:  # a line: the highest, and any line the measurement cannot tell from it
                answer = LIST_SEPARATOR[lang()].join(name(line) for line in verdict.answer.top)
                guess = name(verdict.guess)
                why = f"{key}.why.{'tied' if verdict.answer.tied else 'apart'}"
            if verdict.correct:
                st.success(tr("teach.right", answer=answer), icon=":material/check_circle:")
            else:
                st.warning(tr("teach.wrong", guess=guess, answer=answer), icon=":material/lightbulb:")
            why_fields = prediction.why_fields(merged)
            st.markdown(tr(why, answer=answer, **why_fields))
            if prediction.figure:
                st.markdown(":material/arrow_downward: " + tr(prediction.figure, answer=answer, **why_fields))
    if st.button(tr("teach.again"), key=f"{store}_again"):
        state_.pop(store, None)
        answered.pop((key, signature), None)
        st.rerun()


# While a run goes its curves are redrawn after a round at most once a second: each redraw mounts a new
# chart in the browser. Measured in headless chromium on this machine (20 steps of two arms, one prompt
# x G 4, about 0.3 s a round): the browser's long tasks took 5.4-5.9 s of the run against 8.4 s with a
# redraw every round, and the run ended in 8.0-8.4 s against 9.7-9.8 s.
CURVES_EVERY_S = 1.0


def drive(run, flag_key: str, status, running_text: str, draw_progress, draw_curves, chart_key: str) -> None:
    """The script run of a page whose side-by-side ``run`` is active: say so in ``status`` (or that it
    is stopping), draw the curves, then :func:`advance` it one arm-step at a time, drawing
    ``draw_progress(progress)`` after each and ``draw_curves(key)`` after a full round once
    ``CURVES_EVERY_S`` have passed since the last drawing (a fresh ``<chart_key>-<steps done>`` key per
    redraw: the chart is redrawn several times in one script run; the page draws them once more when
    the run stops). Reruns when done; an error is shown by :func:`run_controls`."""
    status.info(tr("run.stopping") if stop_requested(flag_key) else running_text)
    draw_curves(f"{chart_key}-{sum(run.progress.values())}")
    drawn = [time.monotonic()]

    def on_progress() -> None:
        progress = run.progress
        draw_progress(progress)
        if len(set(progress.values())) == 1 and time.monotonic() - drawn[0] >= CURVES_EVERY_S:
            drawn[0] = time.monotonic()  # a round done (every arm at the same step), and time to redraw
            draw_curves(f"{chart_key}-{sum(progress.values())}")

    def on_wait(ahead: int) -> None:
        status.info(tr("run.queued", ahead=ahead))

    advance(run, flag_key, on_progress, on_wait)


def show_run_status(run, status, prefix: str, names: dict[str, str]) -> None:
    """Say in ``status`` (an ``st.empty``) where a side-by-side ``run`` stands once it is not stepping:
    ``<prefix>.finished`` when done, ``<prefix>.stopped`` when every arm is at the same step, else
    ``<prefix>.stopped_arms`` naming each arm (``names``: arm -> its label) with its step."""
    progress, total = run.progress, run.config.steps
    if run.done:
        status.success(tr(f"{prefix}.finished", total=total))
    elif len(set(progress.values())) == 1:
        status.warning(tr(f"{prefix}.stopped", done=min(progress.values()), total=total))
    else:  # stopped between two arms of a round: say where each is
        steps_text = ", ".join(f"{names.get(name, name)} {done}" for name, done in progress.items())
        status.warning(tr(f"{prefix}.stopped_arms", steps=steps_text, total=total))


def labels(prefix: str, *keys: str, **extra: str) -> dict[str, str]:
    """The ``labels`` mapping a figure builder of ``rlviz.plots`` takes: each of ``keys`` -> its text
    ``tr(f"{prefix}.{key}")`` in the session's language, then ``extra`` (texts the page has already
    formatted, e.g. ``sampled=tr("length.sampled", limit=24)``) added over them."""
    return {k: tr(f"{prefix}.{k}") for k in keys} | extra


def export_config(
    name: str, loss_overrides=None, train_overrides=None, train_config=None, key: str = "export", fields=None
) -> None:
    """The "Export to TRL / verl" expander for one objective (``rlviz.teach.export.export_config``'s
    arguments): see :func:`export_configs`."""
    from rlviz.core.objectives import ALGORITHMS

    title = ALGORITHMS[name].title if name in ALGORITHMS else name
    export_configs({title: (name, loss_overrides, train_overrides, train_config)}, key=key, fields=fields)


def export_configs(items, key: str = "export", fields: dict[str, str] | None = None) -> None:
    """The "Export to TRL / verl" expander of a page: for each entry of ``items`` (label ->
    ``(name, loss_overrides, train_overrides, train_config)``, or a function returning that mapping,
    called here so that a bad value in the page's widgets becomes a message in the expander) the TRL
    ``GRPOConfig`` snippet and the verl overrides in ``st.code`` blocks (each has a copy button), the
    notes that apply in the session's language and the settings with no equivalent; one tab per entry
    when there are several. ``key`` names the expander's container (one per page) and, with
    ``_open``, its open state; ``fields`` maps a parameter to its widget's label, for the message
    about a bad value (:func:`show_bad_input`).

    The contents are built only while the expander is open (opening it reruns the page): closed, a
    Streamlit expander still sends its contents, and the browser highlighted every code block of it
    (on the curves page, 14 blocks and about 0.4 s of the page's first draw)."""
    from rlviz.teach.export import export_config as _export

    box = st.expander(tr("export.title"), icon=":material/output:", key=f"{key}_open", on_change="rerun")
    with box, st.container(key=key):
        if not box.open:
            return
        st.caption(tr("export.caption"))
        try:
            exports = {label: _export(*args) for label, args in (items() if callable(items) else items).items()}
        except ValueError as exc:
            show_bad_input(exc, fields)
            return
        tabs = st.tabs(list(exports)) if len(exports) > 1 else [st.container() for _ in exports]
        for tab, exported in zip(tabs, exports.values()):
            with tab:
                _show_export(exported)


def _show_export(exported) -> None:
    """One objective's export: the two code blocks, then the notes and what has no equivalent."""
    from rlviz.i18n import LIST_SEPARATOR

    names = {"trl": "TRL", "verl": "verl"}
    st.markdown(tr("export.trl_header"))
    st.code(exported.to_trl_python(), language="python")
    st.markdown(tr("export.verl_header"))
    st.code(exported.to_verl_cli(), language="bash")
    st.markdown(f"**{tr('export.notes_header')}**")
    notes = [f"- **{names[n['framework']]}** · {n[lang()]}" for n in exported.notes]
    st.markdown("\n".join(notes) if notes else tr("export.no_notes"))
    for fw, missing in exported.unmapped.items():
        listed = LIST_SEPARATOR[lang()].join(f"`{k} = {v}`" for k, v in missing.items())
        st.caption(tr("export.unmapped", framework=names[fw], names=listed))


# ---------------------------------------------------------------------------------------- lessons
LESSONS_PAGE_FILE = "pages/lessons.py"


def _lang_param() -> dict[str, str]:
    return {} if lang() == DEFAULT_LANG else {"lang": lang()}


GO_KEY = "ls_go"  # a presenter move asked for by a button's callback, made by present_lesson
SHOWN_STEP_KEY = "presenter_step"  # (lesson, step) whose settings this session has taken (present_lesson)
ASKING_KEY = "presenter_asks"  # the Prediction.key the presented step asks in this script run, else absent
ANSWERED_KEY = "predictions_answered"  # (Prediction.key, settings signature) -> the guess committed, this session
RESYNC_KEY = "presenter_resync"  # the widget-key prefix of a step's page just entered, until its widgets are resent


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
    (``rlviz.experiments.lessons.step_query``). On the step's page it adds the presenter style (large
    type, no sidebar, 1024 px wide, the controls the step does not list hidden, the step's question
    outlined and the page's other questions hidden, all of them on a step that asks none:
    ``rlviz.plots.lessons.presenter_css``) and the
    presenter bar at the top: the lesson's title, step k of n, the teacher's note, Previous / Next /
    Exit and the language switch (the sidebar's is hidden). A lesson that cannot be read is a message.
    """
    from rlviz.experiments.lessons import resolve_lesson, step_index, step_query
    from rlviz.plots.lessons import BAR_KEY, presenter_css
    from rlviz.teach.predict import PREDICTIONS

    st.session_state.pop(ASKING_KEY, None)
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
    if step.prediction is not None:
        st.session_state[ASKING_KEY] = step.prediction  # its answers stay hidden until committed (_predict)
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
_MARKDOWN_ESCAPES = re.compile(
    r"(?P<directive>:[A-Za-z\-]{1,20})\["  # Streamlit's :red[...] / :blue-badge[...]: the [ escaped
    r"|[\\`*~$]"  # code, emphasis, strike-through, formulas: anywhere
    r"|!(?=\[)|(?<=\])\("  # an image, a link's target
    r"|<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;)"  # an HTML tag, comment or autolink; an HTML entity
    # a bare URL or e-mail address: Streamlit links it even with the : . @ backslash-escaped
    r"|(?P<autolink>(?i:(?<=https)|(?<=http)|(?<=ftp)|(?<=mailto)):|(?i:(?<=www))\.|@)"
)
WORD_JOINER = "\u2060"  # an invisible character that breaks an autolink (escape_markdown)
_MARKDOWN_LINE_START = re.compile(r"^(\s*\d{0,9})((?<=\d)[.)]|(?<!\d)[#>+\-=|\[])")  # a heading, quote, list


def escape_markdown(text: object) -> str:
    r"""``text`` (e.g. an error message quoting what was typed or put in the URL) as Markdown on one
    line that shows it as typed and makes nothing of it: no image (so no URL in it is fetched), link,
    autolink, HTML tag or entity, formula (``$``), Streamlit colour or badge (``:red[...]``), code,
    bold or strike-through, heading, list or quote. Only the characters that would start one get a
    backslash (CommonMark: any ASCII punctuation may be escaped): ``\ ` * ~ $`` anywhere, ``!``
    before ``[``, ``(`` after ``]``, ``[`` after ``:name``, ``<`` before a tag, ``&`` before an
    entity, a block marker at the start; the ``:`` or ``.`` of ``http:`` / ``www.`` and every ``@``
    get an invisible word joiner (U+2060) before them instead, since Streamlit's renderer turns a
    bare URL or e-mail address into a link whatever is escaped in it (checked in chromium); each run
    of white space (line breaks, tabs) becomes one space. The rest stays as typed, so a library message
    reads the same in the Markdown source (``epsilon_high: must be in [0, 1], got 2``); ``_a_``
    between spaces would show in italics, and nothing else."""
    one_line = " ".join(str(text).split())  # no line break, no indented code block

    def escape(m: re.Match) -> str:
        if m.group("directive"):
            return m.group("directive") + "\\["
        return (WORD_JOINER if m.group("autolink") else "\\") + m.group(0)

    escaped = _MARKDOWN_ESCAPES.sub(escape, one_line)
    return _MARKDOWN_LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), escaped)


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
