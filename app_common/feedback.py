"""Messages about bad input and failed runs, in the session's language: never a traceback."""

from __future__ import annotations

import streamlit as st

from app_common.text import escape_markdown, tr


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
