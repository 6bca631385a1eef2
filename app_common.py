"""Small helpers shared by app.py and the pages (Streamlit side only)."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass

import streamlit as st

from rlviz.i18n import DEFAULT_LANG, LANGS, t


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


def ensure_shell() -> None:
    """Leave Streamlit's legacy ``pages/`` mode, if this run is in it, by re-running the session.

    While a ``pages/`` folder exists, Streamlit starts a fresh server in its old multipage mode: the
    first session runs a deep link's page file alone (without ``app.py``'s sidebar) or nests
    ``app.py`` inside an automatic page list, until ``st.navigation`` has been called once in the
    process. Called first thing by ``app.py`` and by every page: it switches that mode off and
    re-runs, so the session goes through ``app.py`` and ``st.navigation`` to the same page.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def formula(latex: str, small: bool = False) -> None:
    """``st.latex`` with one line per ``,\\quad``-separated part, so long objectives fit a column;
    ``small`` sets it a size smaller (for a narrow column beside a figure)."""
    size = r"\small" if small else ""
    st.latex(size + r"\begin{gathered}" + latex.replace(r",\quad ", r",\\ ") + r"\end{gathered}")


def lang() -> str:
    """The language of this session ("en" or "zh")."""
    value = st.session_state.get("lang", DEFAULT_LANG)
    return value if value in LANGS else DEFAULT_LANG


def tr(key: str, **fmt: object) -> str:
    """``rlviz.i18n.t`` in the session's language."""
    return t(key, lang(), **fmt)


IMAGE_FORMATS = ("svg", "png")


def chart(fig, key: str) -> None:
    """``st.plotly_chart`` with the app's toolbar: the camera button saves the figure in the format
    chosen in the sidebar (SVG or PNG), named after ``key``; no Plotly logo."""
    fmt = st.session_state.get("img_format", IMAGE_FORMATS[0])
    fmt = fmt if fmt in IMAGE_FORMATS else IMAGE_FORMATS[0]
    config = {
        "displaylogo": False,
        "toImageButtonOptions": {"format": fmt, "filename": f"rlviz-{key}", "scale": 2 if fmt == "png" else 1},
    }
    st.plotly_chart(fig, config=config, key=key)


def csv_download(df, name: str, key: str, label: str | None = None) -> None:
    """A download button for ``df`` as CSV (UTF-8 with BOM, so spreadsheet apps read 中文 right)."""
    st.download_button(
        label or tr("common.download_csv"),
        df.to_csv(index=False).encode("utf-8-sig"),
        file_name=f"rlviz-{name}.csv",
        mime="text/csv",
        key=key,
        icon=":material/download:",
    )


def show_bad_input(exc: Exception, fields: dict[str, str] | None = None, where=None) -> None:
    """Show a library ``ValueError`` as a message in the page, never a traceback.

    rlviz errors start with the parameter's name (``"buffer_length: must be ..."``); when ``fields``
    maps that name to the widget's label (in the session's language), the message names the widget
    the user has to change, followed by the library's own detail.
    """
    message = str(exc)
    name = message.split(":", 1)[0].strip()
    label = (fields or {}).get(name)
    text = tr("common.bad_field", field=label, error=message) if label else tr("common.bad_input", error=message)
    (where or st).error(text, icon=":material/error:")


def run_controls(
    run_key: str,
    flag_key: str,
    make_run,
    labels: tuple[str, str, str, str],
    keys: tuple[str, str, str, str],
    on_error,
) -> bool:
    """Run / Stop / Continue / Reset for a step-wise experiment kept in this session.

    The run object lives in ``st.session_state[run_key]`` (never cached across sessions); it must
    have a ``done`` property. ``st.session_state[flag_key]`` says whether the page keeps advancing it,
    one step per script run. ``make_run()`` builds a new run when Run is pressed; a ``ValueError`` it
    raises goes to ``on_error(exc)`` (a message in the page). ``labels`` and ``keys`` are those of the
    Run, Stop, Continue and Reset buttons. Stop and Reset act in callbacks, so the step in progress is
    kept and nothing is lost. Returns whether the run is advancing after this call.
    """
    state = st.session_state
    running = bool(state.get(flag_key)) and run_key in state

    def _stop() -> None:
        state[flag_key] = False

    def _continue() -> None:
        state[flag_key] = run_key in state

    def _reset() -> None:
        state.pop(run_key, None)
        state[flag_key] = False

    run_label, stop_label, continue_label, reset_label = labels
    run_btn, stop_btn, continue_btn, reset_btn = keys
    controls = st.container(horizontal=True)
    if controls.button(run_label, type="primary", key=run_btn, disabled=running, icon=":material/play_arrow:"):
        try:
            new_run = make_run()
        except ValueError as exc:
            on_error(exc)
        else:
            state[run_key] = new_run
            state[flag_key] = running = True
    if running:
        controls.button(stop_label, key=stop_btn, on_click=_stop, icon=":material/stop:")
    elif run_key in state and not state[run_key].done:
        controls.button(continue_label, key=continue_btn, on_click=_continue, icon=":material/resume:")
    if run_key in state and not running:
        controls.button(reset_label, key=reset_btn, on_click=_reset, icon=":material/delete:")
    return running


def labels(prefix: str, *keys: str, **extra: str) -> dict[str, str]:
    """The ``labels`` mapping a figure builder of ``rlviz.plots`` takes: each of ``keys`` -> its text
    ``tr(f"{prefix}.{key}")`` in the session's language, then ``extra`` (texts the page has already
    formatted, e.g. ``sampled=tr("length.sampled", limit=24)``) added over them."""
    return {k: tr(f"{prefix}.{k}") for k in keys} | extra
