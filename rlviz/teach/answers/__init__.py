"""Named answer functions of the interview bank (``rlviz.teach.bank``).

A question's stored answer is never a typed number: its data file names a function here
(``answer = "ppo_band_high"``) and the arguments (``args = {...}``); :func:`compute` calls it at
reveal time. Each function calls ``rlviz.core`` (the code that trains) and returns a float (number
questions) or a choice key (choice questions).

Every module of this package registers its functions with :func:`answer`; the modules are found by
themselves, so a new topic's module needs no edit here.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections.abc import Callable
from typing import Any

__all__ = ["ANSWERS", "answer", "compute"]

ANSWERS: dict[str, Callable[..., Any]] = {}


def answer(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``fn`` as the answer function ``name``. Raises ``RuntimeError`` on a name used twice."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        if name in ANSWERS:
            raise RuntimeError(f"answer function {name!r} defined twice")
        ANSWERS[name] = fn
        return fn

    return register


def compute(name: str, args: dict[str, Any] | None = None) -> Any:
    """Call answer function ``name`` with ``args``.

    Returns:
        a finite float or a choice key (str).

    Raises:
        ValueError: ``name`` is unknown (naming ``answer``), or the function returned a non-finite
            number, or the function raised it for a bad argument.
    """
    _load()
    if name not in ANSWERS:
        raise ValueError(f"answer: no answer function {name!r}")
    value = ANSWERS[name](**(args or {}))
    if isinstance(value, str):
        return value
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"answer: {name}({args}) gave {value}")
    return value


_LOADED = False


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        importlib.import_module(f"{__name__}.{info.name}")
    _LOADED = True
