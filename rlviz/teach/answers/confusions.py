"""Answer functions of the bank's questions on the confusions from public reports (issue 43;
``rlviz/teach/bank/confusions.toml``): a token count from another window than the optimizer step's,
sequence weights that compound with length, GDPO against GRPO over several groups.

Each calls the function of :mod:`rlviz.experiments.confusions` that draws the confusions page, so a
question's answer is the number the page shows at the same settings.
"""

from __future__ import annotations

from rlviz.experiments import confusions as X
from rlviz.teach.answers import answer

_RULES = {"product": "product", "mask": "weight_mask", "truncate": "weight_truncate"}
_ESTIMATORS = ("grpo", "gdpo")


def _step_row(lengths: list[int], steps: int, window: int, step: int):
    df = X.token_count_window(list(lengths), int(steps), int(window))
    if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= len(df):
        raise ValueError(f"step: must be a whole number in [1, {len(df)}], got {step!r}")
    return df.iloc[step - 1]


@answer("cf_window_scale")
def window_scale(lengths: list[int], steps: int, window: int, step: int = 1) -> float:
    """Optimizer step ``step``'s gradient over the intended one when the token-mean counts the tokens
    of ``window`` responses (``token_count_window``: N_step / N_window)."""
    return float(_step_row(lengths, steps, window, step).scale)


@answer("cf_window_counted")
def window_counted(lengths: list[int], steps: int, window: int, step: int = 1) -> float:
    """The tokens the normaliser of step ``step`` counted, N_window (``token_count_window``)."""
    return float(_step_row(lengths, steps, window, step).counted)


@answer("cf_window_tokens")
def window_tokens(lengths: list[int], steps: int, window: int, step: int = 1) -> float:
    """The tokens optimizer step ``step`` holds, N_step (``token_count_window``)."""
    return float(_step_row(lengths, steps, window, step).tokens)


@answer("cf_window_uniform")
def window_uniform(lengths: list[int], steps: int, window: int) -> str:
    """``"same"`` if every optimizer step's gradient is off by the same factor (within 1e-9), else
    ``"different"`` (``token_count_window``)."""
    scales = X.token_count_window(list(lengths), int(steps), int(window)).scale
    return "same" if float(scales.max() - scales.min()) <= 1e-9 else "different"


@answer("cf_sequence_weight")
def sequence_weight(drift: float, length: int, rule: str = "product", cap: float | None = None) -> float:
    """The sequence importance weight of a response of ``length`` tokens, each with log-ratio ``drift``:
    ``rule`` ``"product"`` (e^(L·d)), ``"mask"`` (TRL sequence_mask) or ``"truncate"`` (sequence_truncate),
    at ``cap`` (``None``: TRL's default) (``sequence_weight_drift``)."""
    if rule not in _RULES:
        raise ValueError(f"rule: must be one of {', '.join(_RULES)}, got {rule!r}")
    return float(X.sequence_weight_drift(drift, [length], cap)[_RULES[rule]].iloc[0])


@answer("cf_sequence_kept")
def sequence_kept(drift: float, length: int, cap: float | None = None) -> str:
    """Which of TRL's sequence_mask and sequence_truncate leave a response of ``length`` tokens a
    non-zero weight: ``"both"``, ``"truncate"``, ``"mask"`` or ``"neither"`` (``sequence_weight_drift``)."""
    row = X.sequence_weight_drift(drift, [length], cap).iloc[0]
    mask, truncate = float(row.weight_mask) > 0, float(row.weight_truncate) > 0
    return {(True, True): "both", (False, True): "truncate", (True, False): "mask"}.get((mask, truncate), "neither")


@answer("cf_first_masked")
def first_masked(drift: float, cap: float | None = None) -> float:
    """The shortest response TRL's sequence_mask drops at a per-token drift > 0 (``first_masked_length``)."""
    first = X.first_masked_length(drift, cap)
    if first is None:
        raise ValueError(f"drift: must be > 0 for a response to reach the cap, got {drift!r}")
    return float(first)


@answer("cf_default_cap")
def default_cap() -> float:
    """TRL's default cap of sequence_mask (rlviz ``sequence_mis``)."""
    return X.sequence_cap()


def _estimator(estimator: str) -> str:
    if estimator not in _ESTIMATORS:
        raise ValueError(f"estimator: must be one of {', '.join(_ESTIMATORS)}, got {estimator!r}")
    return estimator


@answer("cf_gdpo_advantage")
def gdpo_advantage(components: list, group: int, response: int, estimator: str = "gdpo") -> float:
    """The ``estimator`` (``"grpo"`` or ``"gdpo"``) advantage of ``response`` in ``group`` (0-based) of
    ``components`` [n, G, K] (``gdpo_vs_grpo``)."""
    df = X.gdpo_vs_grpo(components)
    row = df[(df.group == group) & (df.response == response)]
    if row.empty:
        raise ValueError(f"response: no response {response} in group {group}")
    return float(row[_estimator(estimator)].iloc[0])


@answer("cf_gdpo_compare")
def gdpo_compare(components: list, group: int, first: int, second: int, estimator: str = "gdpo") -> str:
    """Which of two responses of ``group`` gets the larger ``estimator`` advantage: ``"first"``,
    ``"second"`` or ``"same"`` (within 1e-6) (``gdpo_vs_grpo``)."""
    a = gdpo_advantage(components, group, first, estimator)
    b = gdpo_advantage(components, group, second, estimator)
    return "same" if abs(a - b) <= 1e-6 else "first" if a > b else "second"


@answer("cf_wider_group")
def wider_group(components: list, estimator: str = "gdpo") -> str:
    """Of two groups, the one whose ``estimator`` advantages spread wider (unbiased std):
    ``"first"``, ``"second"`` or ``"same"`` (within 1e-4 of each other: GRPO's group std is 1 up to its
    epsilon) (``group_spread``)."""
    spread = X.group_spread(X.gdpo_vs_grpo(components))[_estimator(estimator)].tolist()
    if len(spread) != 2:
        raise ValueError(f"components: needs exactly 2 groups, got {len(spread)}")
    a, b = spread
    return "same" if abs(a - b) <= 1e-4 * max(1.0, a, b) else "first" if a > b else "second"


@answer("cf_group_std")
def group_std(components: list, group: int, estimator: str = "gdpo") -> float:
    """The unbiased std of ``group``'s ``estimator`` advantages (``group_spread``)."""
    spread = X.group_spread(X.gdpo_vs_grpo(components)).set_index("group")
    if group not in spread.index:
        raise ValueError(f"group: no group {group}")
    return float(spread.loc[group, _estimator(estimator)])
