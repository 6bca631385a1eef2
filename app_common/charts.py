"""Figures on a page: the cached figure specs, the one ``chart`` call every page draws with, and CSV downloads."""

from __future__ import annotations

import functools
import uuid

import streamlit as st

from app_common.shell import server_limits
from app_common.text import lang, tr

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
