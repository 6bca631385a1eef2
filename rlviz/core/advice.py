"""Settings that are legal but rarely sensible: each runs, and the app says why it is unusual and
what the paper uses. Rules are data (:data:`UNUSUAL`); :func:`unusual_settings` returns the ones that
apply to an objective's resolved settings. No Streamlit; the texts are locale keys
(``advice.<key>``, formatted with the rule's fields).

Sources: GSPO arXiv 2507.18071 (sequence ratio, its loss averaged per response); DeepSeekMath
arXiv 2402.03300 eq. 4 and Schulman's note on KL estimators (k1's expected gradient on-policy is 0:
in the loss it does not pull towards the reference; k1 belongs in the reward, verl
``use_kl_in_reward``); DAPO arXiv 2503.14476 §3.4 (overlong filtering and soft overlong punishment
are two alternatives).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .objectives import get_algorithm
from .validate import check_flag

__all__ = ["UNUSUAL", "Unusual", "unusual_settings"]


@dataclass(frozen=True)
class Unusual:
    """One rule: ``when(spec, settings)`` is true for an unusual combination; ``fields(spec, settings)``
    fills its text ``advice.<key>``. ``settings`` are the objective's resolved loss and training
    settings plus ``kl_in_reward``."""

    key: str
    when: Callable[[Any, Mapping[str, Any]], bool]
    fields: Callable[[Any, Mapping[str, Any]], dict[str, str]]


def _positive(x: Any) -> bool:
    """A number above 0 (a bool, a string or None is not)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x > 0


def _default(spec, name: str) -> Any:
    return {**spec.defaults, **spec.train_defaults}.get(name)


UNUSUAL: tuple[Unusual, ...] = (
    Unusual(
        "sequence_ratio_token_mean",
        lambda spec, s: (
            spec.ratio_level == "sequence"
            and s.get("loss_agg_mode") == "token-mean"
            and _default(spec, "loss_agg_mode") != "token-mean"
        ),
        lambda spec, s: {"title": spec.title, "paper_mode": str(_default(spec, "loss_agg_mode"))},
    ),
    Unusual(
        "k1_in_loss",
        lambda spec, s: _positive(s.get("beta")) and s.get("kl_estimator") == "k1" and not s.get("kl_in_reward"),
        lambda spec, s: {"title": spec.title, "beta": f"{s['beta']:g}"},
    ),
    Unusual(
        "overlong_both",
        lambda spec, s: bool(s.get("overlong_shaping")) and bool(s.get("overlong_filtering")),
        lambda spec, s: {"title": spec.title},
    ),
)


def unusual_settings(algorithm: str, settings: Mapping[str, Any], kl_in_reward: bool = False) -> list[dict[str, Any]]:
    """The unusual combinations in ``algorithm``'s settings: ``[{"key", "fields"}]`` in rule order.

    Args:
        algorithm: a registry name (``rlviz.core.objectives.ALGORITHMS``).
        settings: overrides of its loss and training settings (the registry's defaults fill the rest).
        kl_in_reward: whether the KL goes into the reward (``TrainConfig.kl_in_reward``).

    Raises:
        ValueError: naming ``algorithm`` if unknown, ``settings`` if not a mapping, ``kl_in_reward``
            if not a bool. A setting of another type than its default (checked where it is used, by
            :func:`rlviz.core.objectives.resolve_settings`) makes no rule apply.
    """
    try:
        spec = get_algorithm(algorithm)
    except ValueError as err:
        raise ValueError(f"algorithm: {str(err).split(': ', 1)[1]}") from None
    if not isinstance(settings, Mapping):
        raise ValueError(f"settings: expected a mapping of setting names to values, got {type(settings).__name__}")
    resolved = {**spec.defaults, **spec.train_defaults, **dict(settings)}
    resolved["kl_in_reward"] = check_flag(kl_in_reward, "kl_in_reward")
    return [{"key": r.key, "fields": r.fields(spec, resolved)} for r in UNUSUAL if r.when(spec, resolved)]
