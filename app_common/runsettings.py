"""The settings every run page shares, drawn from one description: the run's size (steps, prompts per step,
group size G), the learning rate, the sampling temperature, PPO's epochs μ and mini-batches, and the
held-out samples.

A run page (live, sampling, MoE, mismatch, warm start, critic) says which of them it offers and how each
differs from the usual (its widget key, its label, its help, its width), once::

    rs = RunSettings("sampling", "s_", D, disabled=rp.running,
                     steps=Field(), prompts=Field("lp", "live_prompts"), group_size=Field("lG", "live_group_size"),
                     lr=Field(choices=LR_CHOICES), temperature=Field("ltemp", help=True),
                     heldout=Field(help=True, n=HELDOUT_SIZE))
    with rp.settings:
        steps, prompts, G = rs.inline("steps", "prompts", "group_size")
    with rp.details, st.expander(tr("sampling.more_settings"), expanded=rp.presenting):
        rs.row("lr", "temperature", "heldout")          # one column each
    DynamicSamplingConfig(**rs.config(), seed=...)      # steps=..., prompts_per_step=..., lr=...
    rp.controls(..., settings_keys=(*rs.keys, "s_rounds"))

Each field's default is the page's defaults dataclass's (``defaults.steps``, ``.prompts_per_step``,
``.group_size``, ``.lr``, ``.temperature``, ``.mu``, ``.mini_batches``, ``.heldout_samples``); its label is
``<locale>.<label>`` and, with ``help``, its help ``<locale>.<label>_help``; its key ``<prefix><key>`` is
bound to the URL; it is drawn disabled while the run advances. The run's size goes through
:func:`app_common.runs.run_size_input` (never more than this server runs).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import streamlit as st

from app_common.runs import run_size_input
from app_common.text import tr


@dataclasses.dataclass(frozen=True)
class Field:
    """How one page draws one shared setting; each part left out is the kind's own (:data:`KINDS`).

    Attributes:
        key: the widget key after the page's prefix (``"lp"``: ``s_lp``).
        label: the label's locale key after the page's locale prefix (``"live_prompts"``:
            ``sampling.live_prompts``).
        help: whether the field carries help, the locale key ``<locale>.<label>_help``.
        width: the widget's width in pixels (a field in a horizontal row); ``None``: Streamlit's own.
        choices: the learning rate's choices (a ``select_slider``, shown as ``{:g}``); the default must
            be one of them.
        high: the held-out samples' maximum (0 to ``high``).
        n: the held-out help's ``{n}`` (the task's held-out prompts); ``None``: the help takes no number.
    """

    key: str | None = None
    label: str | None = None
    help: bool = False
    width: int | None = None
    choices: tuple[float, ...] = ()
    high: int = 32
    n: int | None = None


@dataclasses.dataclass(frozen=True)
class Kind:
    """One shared setting: the run config's field that it sets and reads its default from (``config``),
    its usual key and label, the type of its value and how it is drawn (``draw(where, label, default,
    field, **kwargs)``, ``kwargs``: key, help, bind, disabled and width)."""

    config: str
    key: str
    label: str
    cast: type
    draw: Callable[..., object]


def _size(size: str, low: int) -> Callable[..., object]:
    """A field of the run's size (``size``: steps, prompts or group_size; ``low``: its minimum)."""
    return lambda where, label, default, field, **kw: run_size_input(where, size, label, low, default, **kw)


def _number(low: int, high: int | None = None) -> Callable[..., object]:
    """A whole-number field from ``low`` to ``high`` (``None``: the field's ``high``)."""
    return lambda where, label, default, field, **kw: where.number_input(
        label, low, field.high if high is None else high, default, **kw
    )


def _lr(where, label: str, default: float, field: Field, **kw) -> object:
    if not field.choices:
        raise ValueError("choices: a learning-rate field needs its choices")
    return where.select_slider(label, field.choices, value=default, format_func="{:g}".format, **kw)


def _temperature(where, label: str, default: float, field: Field, **kw) -> object:
    return where.slider(label, 0.1, 2.0, float(default), 0.05, **kw)


# name -> the kind; the order in which a page usually lists them
KINDS: dict[str, Kind] = {
    "steps": Kind("steps", "steps", "steps", int, _size("steps", 1)),
    "prompts": Kind("prompts_per_step", "lp", "prompts", int, _size("prompts", 1)),
    "group_size": Kind("group_size", "lG", "group_size", int, _size("group_size", 2)),
    "lr": Kind("lr", "lr", "lr", float, _lr),
    "temperature": Kind("temperature", "ltemp", "temperature", float, _temperature),
    "mu": Kind("mu", "mu", "mu", int, _number(1, 16)),
    "mini_batches": Kind("mini_batches", "mb", "mini_batches", int, _number(1, 64)),
    "heldout": Kind("heldout_samples", "heldout", "heldout", int, _number(0)),
}


class RunSettings:
    """The shared run settings a page offers (module doc), drawn where the page says.

    Args:
        locale: the page's locale prefix (``"sampling"``: labels ``sampling.steps``, ...).
        prefix: the widget keys' prefix (``"s_"``).
        defaults: the page's run-config dataclass instance whose fields give the defaults.
        disabled: draw the fields disabled (``RunPage.running``: a run is advancing).
        **fields: name (a key of :data:`KINDS`) -> its :class:`Field`, in the order of ``keys``.

    Raises:
        ValueError: a name that is not a kind (``fields``), or a kind whose config field the defaults lack.
    """

    def __init__(self, locale: str, prefix: str, defaults: object, *, disabled: bool, **fields: Field):
        unknown = [name for name in fields if name not in KINDS]
        if unknown:
            raise ValueError(f"fields: {', '.join(unknown)} not among {', '.join(KINDS)}")
        missing = [KINDS[name].config for name in fields if not hasattr(defaults, KINDS[name].config)]
        if missing:
            raise ValueError(f"defaults: {type(defaults).__name__} has no {', '.join(missing)}")
        self.locale, self.prefix, self.defaults, self.disabled = locale, prefix, defaults, disabled
        self.fields = fields
        self.values: dict[str, object] = {}  # name -> the value drawn in this script run

    def key(self, name: str) -> str:
        """The widget key of the field ``name`` (``s_lp``)."""
        return self.prefix + (self.fields[name].key or KINDS[name].key)

    @property
    def keys(self) -> tuple[str, ...]:
        """Every field's widget key, in the description's order: the run's ``settings_keys``."""
        return tuple(self.key(name) for name in self.fields)

    def draw(self, name: str, where=None, **help_fmt: object):
        """The field ``name`` drawn in ``where`` (a column or container; ``None``: where ``st`` draws now);
        returns its value, as the widget returns it. ``help_fmt``: the help's format arguments known only
        as the page draws (the live page's ``n``, its chosen task's held-out prompts)."""
        kind, field = KINDS[name], self.fields[name]
        label = f"{self.locale}.{field.label or kind.label}"
        kwargs: dict[str, object] = {"key": self.key(name), "bind": "query-params", "disabled": self.disabled}
        if field.help:
            fmt = ({"n": field.n} if field.n is not None else {}) | help_fmt
            kwargs["help"] = tr(f"{label}_help", **fmt)
        if field.width is not None:
            kwargs["width"] = field.width
        value = kind.draw(
            st if where is None else where, tr(label), getattr(self.defaults, kind.config), field, **kwargs
        )
        self.values[name] = value
        return value

    def inline(self, *names: str) -> list:
        """The fields ``names`` one after the other where ``st`` draws now (a horizontal row such as
        ``RunPage.settings``); returns their values in order."""
        return [self.draw(name) for name in names]

    def row(self, *names: str, columns: int | Sequence | None = None) -> list:
        """The fields ``names`` side by side, one per column (``columns``: a count or widths for
        ``st.columns``, or the columns themselves; ``None``: one column per field; extra columns stay
        empty); returns their values in order."""
        if columns is None or isinstance(columns, int) or not hasattr(columns[0], "number_input"):
            columns = st.columns(len(names) if columns is None else columns)
        return [self.draw(name, col) for name, col in zip(names, columns)]

    def config(self) -> dict[str, object]:
        """The run config's fields the drawn settings set (``prompts_per_step``, ``heldout_samples``, ...),
        each as its type (``int`` / ``float``): ``Config(**rs.config(), ...)``."""
        return {KINDS[name].config: KINDS[name].cast(value) for name, value in self.values.items()}
