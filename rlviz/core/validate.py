"""Argument checks shared by every public function of ``rlviz.core``: a bad argument is a
``ValueError`` whose message starts with the parameter's name (``"rewards: ..."``), never a
``TypeError`` or ``AttributeError`` from deep inside torch.

Also the two dtype rules of the library:

- group statistics (a group's mean, std, min / max; a batch whitening) are computed in float64
  (:data:`STAT_DTYPE`) and returned in the caller's dtype: a float32 mean of a nearly equal group can
  round past every member and give them all the same sign;
- anything that exponentiates a log-ratio or a KL term is computed in at least float32
  (:func:`compute_dtype`): ``exp(11.1)`` already exceeds float16's largest number, 65504.

Shapes are not checked here; each function checks its own.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

import torch

__all__ = [
    "STAT_DTYPE",
    "check_choice",
    "check_flag",
    "check_number",
    "check_tensor",
    "check_whole",
    "compute_dtype",
    "float_dtype",
]

STAT_DTYPE = torch.float64


def _type_name(x: Any) -> str:
    return type(x).__name__


def check_tensor(x: Any, name: str, *, floating: bool = True, dtype: torch.dtype | None = None) -> torch.Tensor:
    """``x`` as a tensor: a tensor unchanged, a list / tuple / array of numbers through
    ``torch.as_tensor`` (with ``dtype`` where given, so Python floats keep their float64 digits);
    with ``floating``, integers and bools become the default float dtype.

    Raises:
        ValueError: ``name: ...`` for a string, ``None``, a ragged or non-numeric list, a complex tensor.
    """
    if isinstance(x, torch.Tensor):
        t = x
    elif x is None or isinstance(x, (str, bytes, dict)):
        raise ValueError(f"{name}: expected a tensor of numbers, got {_type_name(x)}")
    else:
        try:
            t = torch.as_tensor(x, dtype=dtype)
        except (TypeError, ValueError, RuntimeError, OverflowError):
            raise ValueError(f"{name}: expected a tensor of numbers, got {_type_name(x)} {x!r:.60}") from None
    if t.is_complex():
        raise ValueError(f"{name}: expected real numbers, got a {t.dtype} tensor")
    if floating and not t.is_floating_point():
        t = t.to(torch.get_default_dtype())
    return t


def float_dtype(x: torch.Tensor) -> torch.dtype:
    """The dtype a result for ``x`` comes back in: ``x``'s own if it is a float, else the default."""
    return x.dtype if x.is_floating_point() else torch.get_default_dtype()


def compute_dtype(*xs: torch.Tensor | None) -> torch.dtype:
    """The dtype to exponentiate in: the widest float dtype among ``xs``, at least float32 (float16
    overflows at exp(11.1) and bfloat16 keeps 8 bits of mantissa)."""
    dtype = torch.float32
    for x in xs:
        if x is not None and x.is_floating_point():
            dtype = torch.promote_types(dtype, x.dtype)
    return dtype


def check_number(
    x: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    finite: bool = True,
    optional: bool = False,
) -> float | None:
    """``x`` as a float: a real number (a bool is not one), or a one-element tensor.

    ``low`` / ``high`` bound it (open bounds with ``low_open`` / ``high_open``); ``optional``
    lets ``None`` through.

    Raises:
        ValueError: ``name: ...`` for a bool, a string, ``None`` (unless ``optional``), NaN, inf
            (with ``finite``), or a value outside the bounds.
    """
    if x is None and optional:
        return None
    if isinstance(x, torch.Tensor) and x.numel() == 1 and not x.is_complex() and x.dtype != torch.bool:
        x = x.item()
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise ValueError(f"{name}: must be a number, got {_type_name(x)} {x!r:.60}")
    value = float(x)
    if math.isnan(value) or (finite and not math.isfinite(value)):
        raise ValueError(f"{name}: must be a finite number, got {value}")
    if low is not None and (value < low or (low_open and value == low)):
        raise ValueError(f"{name}: must be {'>' if low_open else '>='} {low:g}, got {value:g}")
    if high is not None and (value > high or (high_open and value == high)):
        raise ValueError(f"{name}: must be {'<' if high_open else '<='} {high:g}, got {value:g}")
    return value


def check_whole(x: Any, name: str, *, low: int | None = None, optional: bool = False) -> int | None:
    """``x`` as an int: a whole number (``8`` or ``8.0``; not a bool), at least ``low``.

    Raises:
        ValueError: ``name: ...`` for anything else.
    """
    if x is None and optional:
        return None
    value = check_number(x, name)
    if value != int(value):
        raise ValueError(f"{name}: must be a whole number, got {x!r}")
    if low is not None and value < low:
        raise ValueError(f"{name}: must be a whole number >= {low}, got {x!r}")
    return int(value)


def check_flag(x: Any, name: str) -> bool:
    """``x`` as a bool: ``True`` / ``False`` only (numpy's bools too).

    Raises:
        ValueError: ``name: ...`` for a number, a string or ``None``.
    """
    if isinstance(x, bool) or type(x).__name__ == "bool_":
        return bool(x)
    raise ValueError(f"{name}: must be true or false, got {_type_name(x)} {x!r:.60}")


def check_choice(x: Any, name: str, choices: Iterable[str]) -> str:
    """``x`` if it is one of ``choices`` (strings).

    Raises:
        ValueError: ``name: ... is not one of ...``.
    """
    choices = tuple(choices)
    if not isinstance(x, str) or x not in choices:
        raise ValueError(f"{name}: {x!r:.60} is not one of {', '.join(choices)}")
    return x
