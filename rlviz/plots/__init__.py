"""Plotly figure builders for rlviz (no Streamlit here): the shared pieces.

One colour per algorithm, the same in every figure: the spec's own ``style`` in the registry
(``rlviz.core.objectives.ALGORITHMS``), or, for an entry without one, the first colour-blind-safe
colour of ``PALETTE`` (then dash) that no other entry uses, in registry order. The order of
algorithms in every legend is the registry's. Labels use Unicode and ``<sub>``: Plotly inside
Streamlit cannot render LaTeX. One module per page holds that page's builders (``curves``,
``weighting``, ``length``, ``sampling``, ``live``, ``home``).

Every builder skips NaN points and returns an empty but valid figure for an empty frame.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from rlviz.core.objectives import ALGORITHMS
from rlviz.numbering import response_tag

__all__ = [
    "DASHES",
    "DIVERGING_SCALE",
    "OKABE_ITO",
    "PALETTE",
    "algorithm_order",
    "algorithm_style",
    "algorithms_in",
    "base_layout",
    "describe_figure",
    "for_dark_background",
    "ordered",
    "style_or_default",
    "text_color_on",
    "token_weight_figure",
]

# Okabe & Ito (2008), "Color Universal Design"; grey added as a neutral colour.
OKABE_ITO: dict[str, str] = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
    "grey": "#999999",
}
# Colours for registry entries without a style of their own: Okabe-Ito without its yellow (it
# vanishes on white), then Paul Tol's colour-blind-safe "muted" scheme (olive, wine, indigo, green,
# rose, teal, cyan, sand; not its purple, too near ASPO's, nor its pale grey). Dashes are the second
# cue once the colours run out.
PALETTE: tuple[str, ...] = (
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#000000",
    "#999933", "#882255", "#332288", "#999999",
    "#117733", "#CC6677", "#44AA99", "#88CCEE", "#DDCC77",
)  # fmt: skip
DASHES: tuple[str, ...] = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
# A curve of an example setting (e.g. Dual-clip PPO) keeps its algorithm's colour with this dash.
EXAMPLE_DASH = "longdashdot"

DIVERGING_SCALE = [
    [0.0, "#542788"],
    [0.25, "#998ec3"],
    [0.5, "#f7f7f7"],
    [0.75, "#f1a340"],
    [1.0, "#b35806"],
]

FONT_FAMILY = "Noto Sans, Noto Sans CJK SC, Source Han Sans SC, PingFang SC, Microsoft YaHei, sans-serif"


def algorithm_order() -> tuple[str, ...]:
    """Registry names in registry order (read each time: an entry added to the registry shows)."""
    return tuple(ALGORITHMS)


def ordered(names: Iterable[str]) -> list[str]:
    """``names`` in registry order, each once; names not in the registry last, sorted."""
    present = list(dict.fromkeys(names))
    known = [a for a in ALGORITHMS if a in present]
    return known + sorted(a for a in present if a not in ALGORITHMS)


def _assigned_styles() -> dict[str, dict[str, str]]:
    """Every registry entry's style: its own, or the first unused (colour, dash) pair of
    ``PALETTE`` x ``DASHES`` in registry order: colours no entry uses first, then dashes, where a
    colour no entry of its own style uses comes before the colours of those entries (GRPO's blue
    dashed would read as a GRPO variant)."""
    styles = {n: dict(s.style) for n, s in ALGORITHMS.items() if s.style}
    used = {(s["color"], s["dash"]) for s in styles.values()}
    used_colors = {c for c, _ in used}
    by_owner = [c for c in PALETTE if c not in used_colors] + [c for c in PALETTE if c in used_colors]
    pairs = [(c, "solid") for c in PALETTE if c not in used_colors]
    pairs += [(c, d) for d in DASHES[1:] for c in by_owner if (c, d) not in used]
    free = iter(pairs)
    for name in ALGORITHMS:
        if name not in styles:
            color, dash = next(free)
            styles[name] = {"color": color, "dash": dash}
    return styles


def algorithm_style(name: str) -> dict[str, str]:
    """The fixed colour and dash of one algorithm, e.g. ``{"color": "#0072B2", "dash": "solid"}``,
    or of one of its examples (``"ppo_dual"``: PPO's colour, dash ``EXAMPLE_DASH``). A new dict.

    Raises:
        ValueError: ``name`` is neither a registry algorithm nor one of their examples.
    """
    styles = _assigned_styles()
    if name in styles:
        return styles[name]
    for algo, spec in ALGORITHMS.items():
        if any(f"{algo}_{ex.suffix}" == name for ex in spec.examples):
            return {"color": styles[algo]["color"], "dash": EXAMPLE_DASH}
    raise ValueError(f"algorithm: {name!r} is not one of {', '.join(ALGORITHMS)}")


def style_or_default(name: str) -> dict[str, str]:
    """:func:`algorithm_style`, or grey solid for a name the registry does not know."""
    try:
        return algorithm_style(name)
    except ValueError:
        return {"color": OKABE_ITO["grey"], "dash": "solid"}


def text_color_on(color: str) -> str:
    """Black or white, whichever reads better on ``color`` ("#rrggbb"; WCAG relative luminance)."""
    r, g, b = (int(color.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    lum = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    return "#000000" if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else "#ffffff"


# The app's plotly template. Made plotly's default here, so that every figure starts with it at
# construction, where plotly applies its default without validating it again; assigning it to a
# figure afterwards copies and validates the whole template (about 25 ms a figure, most of a
# page's rerun when it draws many). base_layout still assigns it if someone changed the default.
TEMPLATE = "plotly_white"
pio.templates.default = TEMPLATE


def base_layout(
    fig: go.Figure,
    *,
    title: str | None = None,
    height: int | None = None,
    legend_title: str | None = None,
    x_title: str | None = None,
    y_title: str | None = None,
) -> go.Figure:
    """Apply the app's common look to ``fig`` in place and return it (one layout update)."""
    layout: dict = {
        "font": {"family": FONT_FAMILY, "size": 13},
        "margin": {"l": 60, "r": 20, "t": 60 if title else 30, "b": 50},
        "legend": {
            "orientation": "h",
            "yanchor": "bottom",
            "y": 1.02,
            "xanchor": "left",
            "x": 0.0,
            "title": {"text": legend_title} if legend_title else None,
        },
        "hoverlabel": {"font": {"family": FONT_FAMILY}},
    }
    if fig.layout.template is None or pio.templates.default != TEMPLATE:
        layout["template"] = TEMPLATE  # a figure made while another default was set
    if title:
        layout["title"] = {"text": title, "x": 0.0, "xanchor": "left"}
    if height:
        layout["height"] = height
    fig.update_layout(layout)
    if x_title is not None:
        fig.update_xaxes(title_text=x_title)
    if y_title is not None:
        fig.update_yaxes(title_text=y_title)
    return fig


def algorithms_in(df: pd.DataFrame) -> list[str]:
    """Algorithms present in ``df``, in the app's fixed order (unknown names last, sorted)."""
    if "algorithm" not in df.columns or df.empty:
        return []
    return ordered(dict.fromkeys(df["algorithm"].astype(str)))


def token_weight_figure(df: pd.DataFrame, labels: Mapping[str, str], *, zmax: float | None = None) -> go.Figure:
    """Heatmap of per-token gradient weights for one group of responses.

    Args:
        df: long frame, one row per real response token, with columns ``response`` (int),
            ``position`` (int), ``token`` (str), ``weight`` (float) and ``advantage`` (float);
            optionally ``state`` (str: one of ``rlviz.core.objectives.TOKEN_STATES``, what the trust
            region did to the token; ``None`` where unknown).
        labels: already-translated texts: ``token``, ``grad_weight``, ``advantage`` (the hover's
            words for the token, its weight and its advantage), ``position`` (the x axis title,
            also in the hover), ``push`` (the colour bar's title), ``state.<state>`` for each state
            in ``df`` (the hover's last line); optionally ``row.<i>``, response ``i``'s y-axis
            label (e.g. "#1 ✓ A=+0.9"; a missing one: "#n", counted from 1: ``rlviz.numbering.response_tag``).
            A missing key shows the key itself.
        zmax: the colour scale spans [-zmax, zmax] (share it between figures to compare them);
            default: the largest |weight| in ``df``.

    Rows are responses, columns positions, the cell text is the token's characters; the colour
    scale is diverging and centred at 0 (purple: pushed down, orange: pushed up); padding cells
    stay empty. Hover shows token, weight and advantage, and the token's state when ``df`` has one.
    """
    x_title = _l(labels, "position")
    fig = go.Figure()
    needed = {"response", "position", "token", "weight", "advantage"}
    if df.empty or not needed.issubset(df.columns):
        return base_layout(fig, height=240, x_title=x_title)
    data = df.copy()
    data["weight"] = pd.to_numeric(data["weight"], errors="coerce")
    data["advantage"] = pd.to_numeric(data["advantage"], errors="coerce")
    responses = sorted(int(r) for r in data["response"].unique())
    width = int(data["position"].max()) + 1
    z = np.full((len(responses), width), np.nan)
    text = np.full((len(responses), width), "", dtype=object)
    adv = np.full((len(responses), width), np.nan)
    state = np.full((len(responses), width), "", dtype=object)
    with_state = "state" in data.columns and data["state"].notna().any()
    row_of = {r: i for i, r in enumerate(responses)}
    for rec in data.itertuples(index=False):
        i, j = row_of[int(rec.response)], int(rec.position)
        z[i, j] = rec.weight
        text[i, j] = _visible(str(rec.token))
        adv[i, j] = rec.advantage
        if with_state and isinstance(rec.state, str):
            state[i, j] = _l(labels, f"state.{rec.state}")
    if zmax is None or not (math.isfinite(zmax) and zmax > 0):
        finite = z[np.isfinite(z)]
        zmax = float(np.max(np.abs(finite))) if finite.size else 1.0
        zmax = zmax if zmax > 0 else 1.0
    y = [labels.get(f"row.{r}", response_tag(r)) for r in responses]  # responses from 0, shown from #1
    # Plotly writes NaN as null, which a heatmap leaves blank; hover data uses "" for padding.
    z_list = [[None if not np.isfinite(v) else float(v) for v in row] for row in z]
    custom = [
        [
            [text[i, j], "" if not np.isfinite(adv[i, j]) else f"{adv[i, j]:+.3f}"]
            + ([state[i, j]] if with_state else [])
            for j in range(width)
        ]
        for i in range(len(responses))
    ]
    state_line = "<br>%{customdata[2]}" if with_state else ""
    fig.add_trace(
        go.Heatmap(
            z=z_list,
            x=list(range(width)),
            y=y,
            text=text.tolist(),
            texttemplate="%{text}",
            textfont={"family": "DejaVu Sans Mono, Noto Sans Mono, monospace", "size": 14},
            customdata=custom,
            colorscale=DIVERGING_SCALE,
            zmid=0.0,
            zmin=-zmax,
            zmax=zmax,
            xgap=2,
            ygap=2,
            hoverongaps=False,
            colorbar={"title": {"text": _l(labels, "push"), "side": "right"}, "thickness": 14},
            hovertemplate=(
                f"{_l(labels, 'token')}: %{{customdata[0]}}<br>{_l(labels, 'grad_weight')}: %{{z:.3g}}"
                f"<br>{_l(labels, 'advantage')}: %{{customdata[1]}}{state_line}"
                f"<extra>%{{y}}, {x_title} %{{x}}</extra>"
            ),
        )
    )
    base_layout(fig, height=max(220, 34 * len(responses) + 110), x_title=x_title)
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(dtick=1, showgrid=False)
    return fig


def _l(labels: Mapping[str, str], key: str) -> str:
    """The text of ``key`` in ``labels``, or the key itself."""
    return labels.get(key, key)


def _visible(token: str) -> str:
    """Make whitespace and special tokens visible in a heatmap cell."""
    return {" ": "␣", "\n": "⏎", "\t": "⇥", "": "∅"}.get(token, token)


def _plain(text) -> str:
    """Plotly label text as plain text: tags such as ``<sub>`` and ``<br>`` removed, spaces collapsed."""
    import re

    text = re.sub(r"<br\s*/?>", " ", str(text or ""))
    return " ".join(re.sub(r"<[^>]+>", "", text).split())


def _text(value) -> str:
    """A title's text, whether a spec holds it as ``{"text": ...}`` or as a bare string."""
    if isinstance(value, dict):
        value = value.get("text")
    return _plain(value) if value else ""


def describe_figure(fig, words: Mapping[str, str], separator: str = ", ") -> str:
    """A short text alternative of ``fig`` for screen readers, read from the figure itself: its
    title, the titles of its panels and axes, and the names of its series.

    Args:
        fig: any plotly figure, or its spec (``fig.to_plotly_json()``, what the app's figure cache
            keeps): read as plain dicts, without building plotly objects.
        words: the reader's language: ``chart`` (used when the figure has no title), ``panels``,
            ``axes`` and ``series`` (templates with ``{items}``), ``stop`` (the full stop).
        separator: between the items of a list (the i18n module's ``LIST_SEPARATOR``).

    Returns:
        one line of plain text (no markup), never empty.
    """
    if isinstance(fig, dict):
        layout, traces = fig.get("layout") or {}, fig.get("data") or ()
    else:
        layout = fig.layout.to_plotly_json()
        traces = [{"name": t.name, "showlegend": t.showlegend} for t in fig.data]
    parts = [_text(layout.get("title")) or words["chart"]]
    notes = layout.get("annotations") or ()
    panels = [_text(a.get("text")) for a in notes if a.get("text") and a.get("showarrow") is False]
    panels = list(dict.fromkeys(p for p in panels if p))
    if panels:
        parts.append(words["panels"].format(items=separator.join(panels[:8])))
    axes = []
    for name in sorted(k for k in layout if k.startswith(("xaxis", "yaxis"))):
        title = _text((layout[name] or {}).get("title"))
        if title and title not in axes:
            axes.append(title)
    if axes:
        parts.append(words["axes"].format(items=separator.join(axes[:8])))
    names = [_plain(t.get("name")) for t in traces if t.get("name") and t.get("showlegend") is not False]
    names = list(dict.fromkeys(names))
    if names:
        parts.append(words["series"].format(items=separator.join(names[:12])))
    stop = words["stop"]
    return stop.join(parts) + stop.strip()


# Okabe-Ito's black vanishes on a dark background; there it is drawn in this light grey instead.
DARK_BACKGROUND_BLACK = "#E8E8E8"


def for_dark_background(fig):
    """A copy of ``fig`` readable on a dark background: every black line, marker, shape and
    annotation (``#000000``, Okabe-Ito's black) becomes :data:`DARK_BACKGROUND_BLACK`; every other
    colour, dash and value is unchanged. Streamlit's dark theme sets the background and the text.

    ``fig``: a plotly figure or its spec. Returns a figure for a figure, a spec (plain dicts and
    lists, nothing validated again) for a spec."""
    import json

    import plotly.io as pio

    spec = fig.to_json() if not isinstance(fig, dict) else pio.json.to_json_plotly(fig)
    for black in ('"#000000"', '"#000"', '"black"'):
        spec = spec.replace(black, f'"{DARK_BACKGROUND_BLACK}"')
    return json.loads(spec) if isinstance(fig, dict) else pio.from_json(spec)
