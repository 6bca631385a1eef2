"""Formula diff: two objectives of the registry, term by term, with one token's numbers bound in.

Every objective's per-token objective is split into five named *terms*, each derived from its
:class:`~rlviz.core.objectives.AlgorithmSpec` (never from its name):

- ``ratio``: the importance ratio the surrogate sees. ``"token"`` (``r_{i,t}``) where
  ``ratio_level == "token"``; for a sequence-level entry the surrogate is evaluated on a probe
  response and the Jacobian of the ratio it returns tells ``"sequence"`` (GSPO's ``s_i``, every
  token's ratio moves with every token) from ``"sequence_token"`` (GSPO-token's
  ``sg[s_i] pi / sg[pi]``: the value of ``s_i``, each token's own gradient).
- ``trust_region``: the kinds of ``spec.trust_region`` (hard clip, capped weight, soft gate), the
  band (:func:`~rlviz.core.objectives.trust_band`) in its ``clip_space``, the level at which the clip
  acts (a probe: a response whose token log-ratios cancel, so a clip on the sequence ratio stays
  idle while a per-token clip acts, GMPO), and the other surrogate settings (dual clip ``c``,
  gate temperatures).
- ``advantage``: the training settings ``advantage`` (group-relative or GAE) with ``scale_rewards``
  (divide by the group's std, the batch's std, or not: Dr.GRPO), or GAE's ``gamma`` and ``lam``.
- ``kl``: ``beta`` and ``kl_estimator`` (off when ``beta == 0``).
- ``aggregation``: ``loss_agg_mode`` (with ``norm_length`` for ``seq-mean-token-sum-norm``).

Two objectives' terms are the same when their descriptors (kind and settings) are equal
(:meth:`Term.same_as`); the LaTeX is generated from the descriptors and never compared.

The bound numbers: a fixed example group (:func:`example_batch`: ``G`` responses of different
lengths, token log-ratios, rewards, a reference policy and critic values, all drawn from the seed)
goes whole through :func:`~rlviz.core.objectives.gradient_weights` (autograd through
:func:`~rlviz.core.objectives.policy_loss`) for each objective, with that objective's own advantages
(:func:`~rlviz.core.advantages.group_advantages` or :func:`~rlviz.core.advantages.gae`). For one
token the ratio, the trust-region value, the advantage, the KL term, the per-token loss, the
aggregation weight and the gradient weight are read back and substituted into the formula
(:func:`bind_token`); ``BoundToken.formula_value`` is the formula evaluated on those numbers, which
the tests hold equal to what ``policy_loss`` computed.

Legend: B = G responses (one group), T padded width, ``l = log pi - log pi_old`` (token
log-ratio), ``J`` the per-token objective without the KL term (``lambda = -J + beta D``, the
per-token loss), ``w`` the aggregation weight (``L = sum w lambda``). Sources: the papers cited in
each registry entry; conventions in ``shared/reference/algorithms.md``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import torch

from rlviz.core import objectives as _objectives
from rlviz.core.advantages import gae, group_advantages
from rlviz.core.aggregation import AGGREGATIONS, masked_mean
from rlviz.core.kl import KL_SPECS, kl_estimate
from rlviz.core.objectives import (
    ALGORITHMS,
    LOG_RATIO_CLAMP,
    SEQ_LOG_RATIO_MAX,
    TRAINER_SETTINGS,
    get_algorithm,
    gradient_weights,
    resolve_settings,
    token_states,
    trust_band,
)

__all__ = [
    "DESCRIBED_SURROGATES",
    "DEFAULT_PAIR",
    "GROUP_SIZE",
    "MAX_LENGTH",
    "MIN_LENGTH",
    "QUANTITIES",
    "SPREADS",
    "TERM_KEYS",
    "BoundToken",
    "describable",
    "described_names",
    "ExampleBatch",
    "FormulaDiff",
    "Term",
    "default_token",
    "differing_terms",
    "bind_token",
    "example_batch",
    "formula_diff",
    "objective_terms",
    "other_settings",
    "tex_number",
    "tex_plain",
]

# The terms, in the order the formula reads: ratio -> advantage -> J (trust region) -> lambda (KL) -> L
TERM_KEYS: tuple[str, ...] = ("ratio", "advantage", "trust_region", "kl", "aggregation")
# What is read back for the picked token, per objective (the rows of the values table)
QUANTITIES: tuple[str, ...] = (
    "log_ratio",
    "token_ratio",
    "sequence_ratio",
    "ratio_used",
    "trust_value",
    "state",
    "advantage",
    "objective",
    "kl_term",
    "per_token_loss",
    "token_weight",
    "weighted_loss",
    "grad_weight",
)
DEFAULT_PAIR = ("grpo", "gspo")  # the page's first view (data only: every registry entry is accepted)
GROUP_SIZE = 4  # responses in the example group
MIN_LENGTH, MAX_LENGTH = 3, 12  # their lengths: distinct, drawn from this range
# Spreads (std of the token log-ratios) the page offers: GSPO's band is ~1e-4 wide, GRPO's 0.2
SPREADS: tuple[float, ...] = (1e-4, 3e-4, 1e-3, 0.01, 0.05, 0.1, 0.2, 0.5)
REF_SPREAD = 0.05  # std of log pi - log pi_ref in the example (the KL term's input)
EPS_ADV = 1e-6  # group_advantages' default eps, shown in the formula
# Settings each term reads; a setting outside these is reported by :func:`other_settings`
_TERM_TRAIN = frozenset({"advantage", "scale_rewards", "gamma", "lam"})
_TERM_LOSS = frozenset({"loss_agg_mode", "norm_length", "beta", "kl_estimator"})
_SCALE_KIND = {"group": "group_std", "batch": "batch_std", "none": "group_mean"}


# ---------------------------------------------------------------------------------------- numbers in LaTeX


def tex_number(x: float, digits: int = 4) -> str:
    """``x`` with ``digits`` significant digits as LaTeX: ``1.5\\times10^{-5}`` instead of
    ``1.5e-05``, ``0`` for ±0, a negative number in braces (``{-0.5}``: a unary minus wherever it
    stands, e.g. right after ``\\big(``). Raises ``ValueError`` (``x``) for NaN or inf."""
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"x: not a finite number: {x}")
    if x == 0:
        return "0"
    text = f"{abs(x):.{digits}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        power = f"10^{{{int(exponent)}}}"
        text = power if mantissa == "1" else rf"{mantissa}\times{power}"
    return f"{{-{text}}}" if x < 0 else text


def _p(x: float, digits: int = 4) -> str:
    """:func:`tex_number`, in parentheses when negative (a factor in a product)."""
    text = tex_number(x, digits)
    return f"({text})" if float(x) < 0 else text


# ---------------------------------------------------------------------------------------- terms


@dataclass(frozen=True)
class Term:
    """One term of an objective's per-token objective, derived from its registry entry.

    Attributes:
        key: one of :data:`TERM_KEYS`.
        kind: what it is: ratio ``token`` / ``sequence`` / ``sequence_token``; trust region the
            sorted kinds of ``spec.trust_region`` joined by ``+`` (``clipped``, ``capped``,
            ``gated``) or ``none``; advantage ``group_std`` / ``batch_std`` / ``group_mean`` /
            ``gae``; KL ``off`` or the estimator (``k1``, ``k2``, ``k3``); aggregation the
            ``loss_agg_mode``.
        settings: ``((name, value), ...)`` the descriptor's values that shape the term (the band,
            its space and level, ``dual_clip_c``, ``tau_pos`` ...); compared by :meth:`same_as`.
        latex: the term's formula for this objective, one LaTeX line per entry (symbols only).
        text: its description as locale parts ``((key, {field: text}), ...)``, joined by the page.
    """

    key: str
    kind: str
    settings: tuple[tuple[str, Any], ...]
    latex: tuple[str, ...]
    text: tuple[tuple[str, dict[str, str]], ...]

    def same_as(self, other: Term) -> bool:
        """Whether ``other`` is the same term: same key, same kind, same settings (numbers equal to
        a relative 1e-12; a band compared bound by bound)."""
        if self.key != other.key or self.kind != other.kind:
            return False
        mine, theirs = dict(self.settings), dict(other.settings)
        return mine.keys() == theirs.keys() and all(_same_value(mine[k], theirs[k]) for k in mine)

    def setting(self, name: str) -> Any:
        """The value of one of :attr:`settings`. Raises ``ValueError`` naming ``name``."""
        for key, value in self.settings:
            if key == name:
                return value
        raise ValueError(f"name: {name!r} is not a setting of the {self.key} term")


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        return a == b
    return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-15)


def _probe_ratio_kind(name: str) -> str:
    """``token``, ``sequence`` or ``sequence_token``: the spec's ``ratio_level``, and for a sequence
    level, the Jacobian d ratio / d l of its surrogate on one probe response of three tokens whose
    log-ratios (1e-5 apart) lie inside every band. ``sequence``: one value per response and every
    token's ratio depends on every token; ``sequence_token``: one value, each token's own gradient.
    Raises ``ValueError`` (``ratio_level``) for a sequence-level surrogate whose ratio varies along
    the response."""
    spec = get_algorithm(name)
    if spec.ratio_level == "token":
        return "token"
    params = resolve_settings(name)
    log_ratio = torch.tensor([[1e-5, -2e-5, 4e-5]], dtype=torch.float64, requires_grad=True)  # (1, 3)
    ones = torch.ones_like(log_ratio)
    _, ratio, *_ = spec.surrogate(log_ratio, ones, ones.detach(), params)
    values = ratio.detach()[0]
    jac = torch.zeros(3, 3, dtype=torch.float64)
    if ratio.requires_grad:
        for t in range(3):
            (row,) = torch.autograd.grad(ratio[0, t], log_ratio, retain_graph=True, allow_unused=True)
            jac[t] = 0.0 if row is None else row[0]
    off_diagonal = bool((jac - torch.diag(torch.diag(jac))).abs().max() > 0)
    if not torch.allclose(values, values[0].expand(3), rtol=1e-12, atol=0.0):
        raise ValueError(f"ratio_level: {name} is 'sequence' but its surrogate's ratio varies along the response")
    return "sequence" if off_diagonal else "sequence_token"


def _probe_clip_level(name: str, ratio_kind: str, band: tuple[float, float] | None) -> str:
    """Where a band acts: ``token`` for a token ratio; for a sequence ratio, the surrogate is given a
    response whose log-ratios (+a, -a, 0) cancel (sequence ratio 1, inside the band) with ``a`` far
    outside the band: a clip that still flags a token acts per token before the mean (GMPO), one
    that does not acts on the sequence ratio (GSPO)."""
    if ratio_kind == "token" or band is None:
        return "token" if ratio_kind == "token" else "sequence"
    spec = get_algorithm(name)
    params = resolve_settings(name)
    lo, hi = band
    width = max(abs(math.log(lo)) if lo > 0 else 1.0, abs(math.log(hi)))
    a = min(2.0 * width + 1.0, LOG_RATIO_CLAMP / 2)
    log_ratio = torch.tensor([[a, -a, 0.0]], dtype=torch.float64)  # (1, 3), mean 0
    ones = torch.ones_like(log_ratio)
    _, _, low, high, dual, _ = spec.surrogate(log_ratio, ones, ones, params)
    return "token" if bool((low | high | dual).any()) else "sequence"


# the symbols of one objective's formula, from its ratio and advantage kinds
def _symbols(ratio_kind: str, adv_kind: str) -> dict[str, str]:
    x = {"token": "r_{i,t}", "sequence": "s_i", "sequence_token": "s_{i,t}"}[ratio_kind]
    return {
        "x": x,
        "xbar": {"token": r"\bar r_{i,t}", "sequence": r"\bar s_i", "sequence_token": r"\bar s_{i,t}"}[ratio_kind],
        "A": "A_{i,t}" if adv_kind == "gae" else "A_i",
        "J": "J_i" if ratio_kind == "sequence" else "J_{i,t}",
    }


_RATIO_TEX = {
    "token": (r"r_{i,t}=\frac{\pi_\theta(y_{i,t})}{\pi_{\theta_\text{old}}(y_{i,t})}=e^{\ell_{i,t}}",),
    "sequence": (r"s_i=\Big(\prod_t r_{i,t}\Big)^{1/|y_i|}=\exp\Big(\frac{1}{|y_i|}\sum_t\ell_{i,t}\Big)",),
    "sequence_token": (
        r"s_{i,t}=\operatorname{sg}[s_i]\,\frac{\pi_\theta(y_{i,t})}{\operatorname{sg}[\pi_\theta(y_{i,t})]}",
        r"s_i=\Big(\prod_t r_{i,t}\Big)^{1/|y_i|}",
    ),
}
_ADV_TEX = {
    "group_std": (r"A_i=\frac{R_i-\operatorname{mean}(R)}{\operatorname{std}(R)+\epsilon}",),
    "batch_std": (r"A_i=\frac{R_i-\operatorname{mean}(R)}{\operatorname{std}_\text{batch}(R)+\epsilon}",),
    "group_mean": (r"A_i=R_i-\operatorname{mean}(R)",),
    "gae": (
        r"A_{i,t}=\operatorname{whiten}\Big(\sum_{l\ge0}(\gamma\lambda)^l\,\delta_{i,t+l}\Big)",
        r"\delta_{i,t}=R_{i,t}+\gamma V_{i,t+1}-V_{i,t}",
    ),
}
# each estimator's formula, from its registry entry (rlviz.core.kl.KL_SPECS), x and rho per token
_KL_TEX = {
    name: rf"\mathbb D^{{{spec.symbol}}}_{{i,t}}="
    + re.sub(r"\bx\b", "x_{i,t}", spec.latex).replace("x^2", "x_{i,t}^2").replace(r"\rho", r"\rho_{i,t}")
    for name, spec in KL_SPECS.items()
}
_X_REF = r"x_{i,t}=\log\pi_\theta(y_{i,t})-\log\pi_\text{ref}(y_{i,t})"
_AGG_W = {name: spec.tex for name, spec in AGGREGATIONS.items()}  # the aggregation registry's weights
_EPS_BAND = r"1-\varepsilon_\text{low},1+\varepsilon_\text{high}"


def _trust_latex(kind: str, space: str | None, level: str, sym: dict[str, str], extra: dict[str, Any]) -> list[str]:
    """The trust-region term's lines (symbols): the surrogate J built around the ratio."""
    x, xbar, A, J = sym["x"], sym["xbar"], sym["A"], sym["J"]
    kinds = set(kind.split("+"))
    if "clipped" in kinds and space == "log" and level == "token":
        lines = [
            rf"{J}=A_i\exp\Big(\frac{{1}}{{|y_i|}}\sum_t\tilde\ell_{{i,t}}\Big)",
            r"\tilde\ell_{i,t}=\begin{cases}\min(\ell_{i,t},\bar\ell_{i,t})&A_i>0\\"
            r"\max(\ell_{i,t},\bar\ell_{i,t})&A_i\le0\end{cases}",
            r"\bar\ell_{i,t}=\operatorname{clip}(\ell_{i,t},-\varepsilon_\text{low},\varepsilon_\text{high})",
        ]
    elif "clipped" in kinds:
        band = r"e^{-\varepsilon_\text{low}},e^{\varepsilon_\text{high}}" if space == "log" else _EPS_BAND
        lines = [
            rf"{J}=\min\big({x}{A},\ {xbar}{A}\big)",
            rf"{xbar}=\operatorname{{clip}}({x},{band})",
        ]
    elif "capped" in kinds:
        lines = [
            rf"{J}=\operatorname{{sg}}[\hat r_{{i,t}}]\,{A}\,\frac{{\pi_\theta(y_{{i,t}})}}{{\operatorname{{sg}}[\pi_\theta(y_{{i,t}})]}}",
            rf"\hat r_{{i,t}}=\operatorname{{clip}}({x},{_EPS_BAND})",
        ]
    elif "gated" in kinds:
        lines = [
            rf"{J}=\frac{{4}}{{\tau}}\,\sigma\big(\tau({x}-1)\big){A}",
            r"\tau=\tau_\text{pos}\ (A>0),\ \tau_\text{neg}\ (A\le0)",
        ]
    else:
        lines = [rf"{J}={x}{A}"]
    if extra.get("dual_clip_c") is not None:
        lines.append(rf"A<0:\ {J}\leftarrow\max({J},\ c{A})")
    return lines


# The per-token surrogates whose trust region this page can write as a term (a clip, a log-space clip,
# CISPO's capped weight, SAPO's gate). An objective whose trust region is a mask, a penalty or a
# batch-level selection (DPPO, Clip-Cov / KL-Cov, M2PO, GPPO's gradient-preserving clip, VESPO's gamma
# weight) has no term form here yet: the page says so and lists it apart.
DESCRIBED_SURROGATES = frozenset(
    getattr(_objectives, f) for f in ("_ppo_like", "_gspo", "_gspo_token", "_gmpo", "_sapo", "_cispo")
)


def describable(name: str) -> bool:
    """Whether the formula diff can split objective ``name`` into its five terms: its registry entry's
    surrogate is one of :data:`DESCRIBED_SURROGATES`. Raises ``ValueError`` naming ``name`` if unknown."""
    return get_algorithm(name).surrogate in DESCRIBED_SURROGATES


def described_names() -> list[str]:
    """The registry entries the formula diff describes, in registry order (read on every call)."""
    return [n for n in ALGORITHMS if describable(n)]


def objective_terms(name: str) -> dict[str, Term]:
    """The five terms of objective ``name`` (:data:`TERM_KEYS` -> :class:`Term`), from its registry
    entry's defaults: ``ratio_level`` and the surrogate (ratio), ``trust_region`` / ``clip_space`` /
    :func:`~rlviz.core.objectives.trust_band` / the other surrogate settings (trust region), the
    training settings ``advantage`` / ``scale_rewards`` / ``gamma`` / ``lam`` (advantage),
    ``beta`` / ``kl_estimator`` (KL) and ``loss_agg_mode`` / ``norm_length`` (aggregation).

    Raises ``ValueError`` naming ``name`` if unknown or not :func:`describable` (or ``ratio_level``
    if the surrogate disagrees).
    """
    spec = get_algorithm(name)
    if not describable(name):
        raise ValueError(f"name: {spec.title}'s trust region has no term form in the formula diff yet")
    params = resolve_settings(name)
    train = spec.train_defaults

    ratio_kind = _probe_ratio_kind(name)
    adv_kind = "gae" if train.get("advantage") == "gae" else _SCALE_KIND.get(train.get("scale_rewards"), "group_std")
    sym = _symbols(ratio_kind, adv_kind)
    terms: dict[str, Term] = {}
    terms["ratio"] = Term("ratio", ratio_kind, (), _RATIO_TEX[ratio_kind], ((f"formula.kind.ratio.{ratio_kind}", {}),))

    if adv_kind == "gae":
        adv_settings = (("gamma", train["gamma"]), ("lam", train["lam"]))
        fields = {"gamma": tex_plain(train["gamma"]), "lam": tex_plain(train["lam"])}
        adv_lines = (*_ADV_TEX["gae"], rf"(\gamma,\lambda)=({tex_number(train['gamma'])},{tex_number(train['lam'])})")
    else:
        adv_settings = (("scale_rewards", train.get("scale_rewards")),)
        fields, adv_lines = {}, _ADV_TEX[adv_kind]
    terms["advantage"] = Term(
        "advantage", adv_kind, adv_settings, tuple(adv_lines), ((f"formula.kind.advantage.{adv_kind}", fields),)
    )

    band = trust_band(name)
    kinds = sorted(spec.trust_region)
    trust_kind = "+".join(kinds) or "none"
    level = _probe_clip_level(name, ratio_kind, band) if ("clipped" in kinds or "capped" in kinds) else ratio_kind
    level = "token" if level == "sequence_token" else level
    extra = {s.name: params[s.name] for s in spec.surrogate_settings if s.name not in ("epsilon_low", "epsilon_high")}
    lines = _trust_latex(trust_kind, spec.clip_space, level, sym, extra)
    text: list[tuple[str, dict[str, str]]] = []
    if band is not None:
        lo, hi = band
        if spec.clip_space == "log":
            lines.append(
                rf"(-\varepsilon_\text{{low}},\varepsilon_\text{{high}})=({tex_number(-params['epsilon_low'])},"
                rf"{tex_number(params['epsilon_high'])})"
            )
        else:
            lines.append(rf"[{_EPS_BAND}]=[{tex_number(lo, 6)},{tex_number(hi, 6)}]")
    for k in kinds or ["none"]:
        text.append((f"formula.kind.trust_region.{k}", {}))
    if band is not None:
        text.append((f"formula.band.{spec.clip_space}", {"lo": tex_plain(band[0], 6), "hi": tex_plain(band[1], 6)}))
    if band is not None or ratio_kind != "token":
        text.append((f"formula.level.{level}", {}))
    for setting, value in extra.items():
        if value is None:
            continue
        if setting in ("tau_pos", "tau_neg"):
            continue
        text.append(("formula.setting", {"name": setting, "value": tex_plain(value)}))
    if "tau_pos" in extra and "tau_neg" in extra:
        lines.append(
            rf"(\tau_\text{{pos}},\tau_\text{{neg}})=({tex_number(extra['tau_pos'])},{tex_number(extra['tau_neg'])})"
        )
        text.append(("formula.taus", {"pos": tex_plain(extra["tau_pos"]), "neg": tex_plain(extra["tau_neg"])}))
    if extra.get("dual_clip_c") is not None:
        lines.append(rf"c={tex_number(extra['dual_clip_c'])}")
    trust_settings = (
        ("space", spec.clip_space if band is not None else None),
        ("level", level),
        ("band", None if band is None else (float(band[0]), float(band[1]))),
        *sorted(extra.items()),
    )
    terms["trust_region"] = Term("trust_region", trust_kind, trust_settings, tuple(lines), tuple(text))

    beta = float(params["beta"])
    if beta > 0:
        est = params["kl_estimator"]
        kl_lines = (
            rf"\lambda_{{i,t}}=-{sym['J']}+\beta\,\mathbb D^{{{KL_SPECS[est].symbol}}}_{{i,t}}",
            _KL_TEX[est],
            _X_REF,
        )
        kl_lines = (*kl_lines, rf"\beta={tex_number(beta)}")
        terms["kl"] = Term(
            "kl", est, (("beta", beta),), kl_lines, (("formula.kind.kl.on", {"beta": tex_plain(beta), "est": est}),)
        )
    else:
        terms["kl"] = Term(
            "kl", "off", (), (rf"\lambda_{{i,t}}=-{sym['J']}\quad(\beta=0)",), (("formula.kind.kl.off", {}),)
        )

    mode = params["loss_agg_mode"]
    agg_settings: tuple[tuple[str, Any], ...] = ()
    if mode == "seq-mean-token-sum-norm":
        agg_settings = (("norm_length", params.get("norm_length")),)
    agg_lines = (r"\mathcal L=\sum_{i,t}w_{i,t}\,\lambda_{i,t}", _AGG_W[mode])
    terms["aggregation"] = Term(
        "aggregation", mode, agg_settings, agg_lines, ((f"formula.kind.aggregation.{mode}", {}),)
    )
    return {k: terms[k] for k in TERM_KEYS}


def tex_plain(x: Any, digits: int = 4) -> str:
    """A setting's value as plain text for a description (``0.0003``, ``1.05``, ``none``)."""
    if x is None:
        return "none"
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return str(x)
    return f"{float(x):.{digits}g}"


def differing_terms(a: str, b: str) -> tuple[str, ...]:
    """The keys of :data:`TERM_KEYS` whose terms differ between objectives ``a`` and ``b``, in that
    order. Raises ``ValueError`` naming ``a`` or ``b`` if either is unknown."""
    ta, tb = _terms_of("a", a), _terms_of("b", b)
    return tuple(k for k in TERM_KEYS if not ta[k].same_as(tb[k]))


def _terms_of(field: str, name: str) -> dict[str, Term]:
    if name not in ALGORITHMS:
        raise ValueError(f"{field}: unknown objective {name!r}; known: {', '.join(ALGORITHMS)}")
    return objective_terms(name)


def other_settings(a: str, b: str) -> list[tuple[str, Any, Any]]:
    """Settings outside the five terms (reward shaping, overlong filtering, dynamic sampling ...)
    whose defaults differ between ``a`` and ``b``: ``[(name, value in a, value in b), ...]`` in
    registry order (``None`` where one of them lacks the setting). Raises ``ValueError`` naming
    ``a`` or ``b`` if unknown."""
    for field, name in (("a", a), ("b", b)):
        if name not in ALGORITHMS:
            raise ValueError(f"{field}: unknown objective {name!r}; known: {', '.join(ALGORITHMS)}")
    sa, sb = ALGORITHMS[a], ALGORITHMS[b]
    skip = _TERM_TRAIN | _TERM_LOSS | {s.name for s in TRAINER_SETTINGS}
    skip |= {s.name for s in sa.surrogate_settings + sb.surrogate_settings}
    names = [s.name for s in sa.loss_settings + sa.train_settings + sb.loss_settings + sb.train_settings]
    va, vb = sa.defaults | sa.train_defaults, sb.defaults | sb.train_defaults
    out = []
    for n in dict.fromkeys(names):
        if n in skip:
            continue
        if not _same_value(va.get(n), vb.get(n)):
            out.append((n, va.get(n), vb.get(n)))
    return out


# ---------------------------------------------------------------------------------------- example batch


@dataclass(frozen=True)
class ExampleBatch:
    """One group of ``G`` responses to one prompt, everything an objective needs (float64).

    Attributes:
        log_prob, old_log_prob, ref_log_prob: [G, T] log-probs of the sampled tokens under the
            current, the sampling and the reference policy (nats); 0 at padding.
        response_mask: [G, T] 1 for real tokens.
        rewards: [G] 0 / 1 verifier rewards (at least one of each: the group carries a signal).
        values: [G, T] critic values V for GAE (objectives whose ``advantage`` is ``gae``).
        lengths: the responses' lengths (distinct). ``seed``, ``spread``: what drew them.
    """

    log_prob: torch.Tensor
    old_log_prob: torch.Tensor
    ref_log_prob: torch.Tensor
    response_mask: torch.Tensor
    rewards: torch.Tensor
    values: torch.Tensor
    lengths: tuple[int, ...]
    seed: int
    spread: float

    @property
    def log_ratio(self) -> torch.Tensor:
        """[G, T] ``log pi - log pi_old``, 0 at padding."""
        return (self.log_prob - self.old_log_prob) * self.response_mask


def _check_seed_spread(seed: Any, spread: Any) -> tuple[int, float]:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or int(seed) < 0:
        raise ValueError(f"seed: must be a whole number >= 0, got {seed!r}")
    if isinstance(spread, bool) or not isinstance(spread, (int, float)) or not math.isfinite(spread):
        raise ValueError(f"spread: must be a finite number, got {spread!r}")
    if not 0 < float(spread) <= 1.0:
        raise ValueError(f"spread: must be in (0, 1] (the std of the token log-ratios), got {spread}")
    return int(seed), float(spread)


def example_batch(seed: int = 0, spread: float = 0.1) -> ExampleBatch:
    """The example group, drawn deterministically from ``seed``.

    ``GROUP_SIZE`` responses of distinct lengths in [``MIN_LENGTH``, ``MAX_LENGTH``]; 1 to G-1 of
    them rewarded 1, the rest 0; ``pi_old`` of each token uniform in (0.05, 0.95); token
    log-ratios ``l ~ N(0, spread^2)``; ``log pi_ref = log pi - N(0, REF_SPREAD^2)``; critic values
    uniform in (0, 1).

    Raises:
        ValueError: ``seed`` not a whole number >= 0; ``spread`` not in (0, 1].
    """
    seed, spread = _check_seed_spread(seed, spread)
    gen = torch.Generator().manual_seed(seed)
    G, dtype = GROUP_SIZE, torch.float64
    span = MAX_LENGTH - MIN_LENGTH + 1
    lengths = (torch.randperm(span, generator=gen)[:G] + MIN_LENGTH).tolist()
    T = max(lengths)
    mask = (torch.arange(T)[None, :] < torch.tensor(lengths)[:, None]).to(dtype)  # (G, T)
    n_right = int(torch.randint(1, G, (1,), generator=gen))
    rewards = torch.zeros(G, dtype=dtype)
    rewards[torch.randperm(G, generator=gen)[:n_right]] = 1.0
    old = torch.log(0.05 + 0.9 * torch.rand(G, T, generator=gen, dtype=dtype))  # (G, T)
    log_ratio = spread * torch.randn(G, T, generator=gen, dtype=dtype)
    ref_noise = REF_SPREAD * torch.randn(G, T, generator=gen, dtype=dtype)
    values = torch.rand(G, T, generator=gen, dtype=dtype)
    lp = old + log_ratio
    return ExampleBatch(
        log_prob=lp * mask,
        old_log_prob=old * mask,
        ref_log_prob=(lp - ref_noise) * mask,
        response_mask=mask,
        rewards=rewards,
        values=values * mask,
        lengths=tuple(int(n) for n in lengths),
        seed=seed,
        spread=spread,
    )


def default_token(batch: ExampleBatch) -> tuple[int, int]:
    """``(response, token)`` of the most off-policy token (largest ``|l|``): the page's first pick."""
    score = torch.where(batch.response_mask > 0, batch.log_ratio.abs(), torch.full_like(batch.log_ratio, -1.0))
    flat = int(torch.argmax(score))
    return flat // score.shape[1], flat % score.shape[1]


def _advantages(name: str, batch: ExampleBatch) -> torch.Tensor:
    """The advantages objective ``name`` trains with on ``batch``: [G] group-relative (scaled by its
    ``scale_rewards``) or [G, T] GAE (the reward on the last real token, its ``gamma`` / ``lam``,
    whitened), as ``rlviz.lm.trainer`` computes them."""
    train = get_algorithm(name).train_defaults
    if train.get("advantage") == "gae":
        token_r = torch.zeros_like(batch.values)
        last = torch.tensor(batch.lengths) - 1
        token_r[torch.arange(len(last)), last] = batch.rewards
        adv, _ = gae(token_r, batch.values, batch.response_mask, train["gamma"], train["lam"])
        return adv
    return group_advantages(batch.rewards[None, :], train.get("scale_rewards", "group"))[0]


# ---------------------------------------------------------------------------------------- one token, bound


@dataclass(frozen=True)
class BoundToken:
    """One objective's numbers for one token of the example batch.

    Attributes:
        algorithm: registry name; ``response``, ``token``: the token's place.
        values: :data:`QUANTITIES` -> value (float; ``state`` a string of ``TOKEN_STATES``;
            ``sequence_ratio`` ``None`` for a token-level ratio). ``objective`` is ``J``,
            ``kl_term`` is ``beta D``, ``per_token_loss`` is ``lambda = -J + beta D``, ``grad_weight``
            is d loss / d log pi of the token (autograd over the whole batch).
        latex: :data:`TERM_KEYS` -> the term's lines with the numbers substituted.
        gradient_latex: the gradient weight as a LaTeX line (not a term).
        formula_value: ``J`` evaluated from the substituted numbers by the term's formula (equal to
            ``values["objective"]`` from ``policy_loss``: the formula shown is the one computed).
    """

    algorithm: str
    response: int
    token: int
    values: dict[str, Any]
    latex: dict[str, tuple[str, ...]]
    gradient_latex: str
    formula_value: float


def _check_token(batch: ExampleBatch, response: Any, token: Any) -> tuple[int, int]:
    G = len(batch.lengths)
    for field, v in (("response", response), ("token", token)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise ValueError(f"{field}: must be a whole number, got {v!r}")
    response, token = int(response), int(token)
    if not 0 <= response < G:
        raise ValueError(f"response: must be in 0..{G - 1}, got {response}")
    n = batch.lengths[response]
    if not 0 <= token < n:
        raise ValueError(f"token: response {response} has {n} tokens (0..{n - 1}), got {token}")
    return response, token


def _run(name: str, batch: ExampleBatch):
    adv = _advantages(name, batch)
    grad, out = gradient_weights(name, batch.log_prob, batch.old_log_prob, adv, batch.response_mask, batch.ref_log_prob)
    return adv, grad, out


def bind_token(
    name: str,
    batch: ExampleBatch,
    response: int,
    token: int,
    computed: tuple[torch.Tensor, torch.Tensor, Any] | None = None,
    terms: dict[str, Term] | None = None,
) -> BoundToken:
    """Objective ``name``'s numbers for token ``token`` of response ``response`` of ``batch``, read
    from :func:`~rlviz.core.objectives.gradient_weights` on the whole batch, and its terms' formulas
    with those numbers substituted.

    ``computed``: ``(advantages, grad, PolicyLossOutput)`` of this objective on ``batch`` when
    already at hand (what :func:`formula_diff` computes once for every token); ``terms``: its
    :func:`objective_terms`. Both are computed here when ``None``.

    Raises:
        ValueError: unknown ``name``; ``response`` / ``token`` not whole numbers in range (a token
            past the response's end is padding).
    """
    i, t = _check_token(batch, response, token)
    terms = objective_terms(name) if terms is None else terms
    params = resolve_settings(name)
    adv, grad, out = _run(name, batch) if computed is None else computed
    adv_bt = adv[:, None].expand_as(batch.log_prob) if adv.dim() == 1 else adv  # (G, T)
    mask = batch.response_mask
    log_ratio = batch.log_ratio.clamp(-LOG_RATIO_CLAMP, LOG_RATIO_CLAMP)  # a token ratio's exp() guard
    ell = float(log_ratio[i, t])
    r = math.exp(ell)
    # the sequence log-ratio averages the tokens' own (unclamped) log-ratios; its clamp is log s <= 10
    mean_ell = float(masked_mean(batch.log_ratio[i], mask[i]).clamp(max=SEQ_LOG_RATIO_MAX))
    s = math.exp(mean_ell)
    A = float(adv_bt[i, t])
    L_i, G = batch.lengths[i], len(batch.lengths)
    beta = float(params["beta"])
    kl_all = kl_estimate(batch.log_prob, batch.ref_log_prob, params["kl_estimator"], old_log_prob=batch.old_log_prob)
    kl = float(kl_all[i, t])
    lam = float(out.per_token_loss.detach()[i, t])
    J = -(lam - beta * kl) if beta > 0 else -lam
    w = float(out.token_weight[i, t])
    g = float(grad[i, t])
    used = float(out.ratio[i, t])
    state = str(token_states(name, out, mask)[i, t])

    ratio_kind = terms["ratio"].kind
    x = r if ratio_kind == "token" else s
    sym = _symbols(ratio_kind, terms["advantage"].kind)
    lines: dict[str, tuple[str, ...]] = {}

    # ratio
    r_line = rf"r_{{i,t}}=e^{{{tex_number(ell)}}}={tex_number(r)}"
    s_line = rf"s_i=\exp\Big(\frac{{1}}{{{L_i}}}\sum_t\ell_{{i,t}}\Big)=e^{{{tex_number(mean_ell)}}}={tex_number(s)}"
    if ratio_kind == "token":
        lines["ratio"] = (r_line,)
    elif ratio_kind == "sequence":
        lines["ratio"] = (r_line, s_line)
    else:
        sg = rf"s_{{i,t}}=\operatorname{{sg}}[{tex_number(s)}]\cdot\frac{{\pi_\theta}}{{\operatorname{{sg}}[\pi_\theta]}}={tex_number(s)}"
        lines["ratio"] = (r_line, s_line, sg)

    # advantage
    adv_kind = terms["advantage"].kind
    R = batch.rewards
    R_i, R_mean = float(R[i]), float(R.mean())
    std = float(R.std(unbiased=True)) if len(R) > 1 else 0.0
    if adv_kind == "gae":
        lines["advantage"] = (rf"A_{{i,t}}={tex_number(A)}",)
    elif adv_kind == "group_mean":
        lines["advantage"] = (rf"A_i={tex_number(R_i)}-{_p(R_mean)}={tex_number(A)}",)
    else:
        lines["advantage"] = (
            rf"A_i=\frac{{{tex_number(R_i)}-{_p(R_mean)}}}{{{tex_number(std)}+{tex_number(EPS_ADV)}}}={tex_number(A)}",
        )

    # trust region: J from the numbers, by the term's formula
    kinds = set(terms["trust_region"].kind.split("+"))
    band = terms["trust_region"].setting("band")
    space = terms["trust_region"].setting("space")
    level = terms["trust_region"].setting("level")
    Jsym = sym["J"]
    trust_value: float
    if "clipped" in kinds and space == "log" and level == "token":
        lo_l, hi_l = -float(params["epsilon_low"]), float(params["epsilon_high"])
        row = log_ratio[i, :L_i].tolist()
        a_seq = float(masked_mean(adv_bt[i], mask[i]))
        pick = min if a_seq > 0 else max
        tilde = [pick(v, min(max(v, lo_l), hi_l)) for v in row]
        mean_tilde = sum(tilde) / L_i
        formula_value = a_seq * math.exp(mean_tilde)
        trust_value = tilde[t]
        op = r"\min" if a_seq > 0 else r"\max"
        clipped_l = min(max(ell, lo_l), hi_l)
        lines["trust_region"] = (
            rf"\bar\ell_{{i,t}}=\operatorname{{clip}}({tex_number(ell)},{tex_number(lo_l)},{tex_number(hi_l)})"
            rf"={tex_number(clipped_l)}",
            rf"\tilde\ell_{{i,t}}={op}\big({tex_number(ell)},\ {tex_number(clipped_l)}\big)={tex_number(trust_value)}",
            rf"{Jsym}={_p(a_seq)}\cdot e^{{{tex_number(mean_tilde)}}}={tex_number(J)}",
        )
    elif "clipped" in kinds:
        lo, hi = band
        xbar = min(max(x, lo), hi)
        trust_value = xbar
        j0 = min(x * A, xbar * A)
        formula_value = j0
        lines_t = [
            rf"{sym['xbar']}=\operatorname{{clip}}({tex_number(x)},{tex_number(lo, 6)},{tex_number(hi, 6)})={tex_number(xbar)}",
            rf"{Jsym}=\min\big({tex_number(x)}\cdot{_p(A)},\ {tex_number(xbar)}\cdot{_p(A)}\big)",
            rf"=\min\big({tex_number(x * A)},\ {tex_number(xbar * A)}\big)={tex_number(j0)}",
        ]
        c = params.get("dual_clip_c")
        if c is not None and A < 0:
            formula_value = max(j0, c * A)
            lines_t.append(
                rf"{Jsym}=\max\big({tex_number(j0)},\ {tex_number(c)}\cdot{_p(A)}\big)={tex_number(formula_value)}"
            )
        lines["trust_region"] = tuple(lines_t)
    elif "capped" in kinds:
        lo, hi = band
        rhat = min(max(x, lo), hi)
        trust_value = rhat
        formula_value = rhat * A
        lines["trust_region"] = (
            rf"\hat r_{{i,t}}=\operatorname{{clip}}({tex_number(x)},{tex_number(lo, 6)},{tex_number(hi, 6)})={tex_number(rhat)}",
            rf"{Jsym}=\operatorname{{sg}}[{tex_number(rhat)}]\cdot{_p(A)}\cdot\frac{{\pi_\theta}}{{\operatorname{{sg}}[\pi_\theta]}}"
            rf"={tex_number(formula_value)}",
        )
    elif "gated" in kinds:
        tau = float(params["tau_pos"] if A > 0 else params["tau_neg"])
        f = 4.0 / tau * (1.0 / (1.0 + math.exp(-tau * (x - 1.0))))
        trust_value = f
        formula_value = f * A
        which = r"\tau_\text{pos}" if A > 0 else r"\tau_\text{neg}"
        lines["trust_region"] = (
            rf"\tau={which}={tex_number(tau)}",
            rf"{Jsym}=\frac{{4}}{{{tex_number(tau)}}}\,\sigma\big({tex_number(tau)}\cdot({tex_number(x)}-1)\big)\cdot{_p(A)}"
            rf"={tex_number(formula_value)}",
        )
    else:
        trust_value = x
        formula_value = x * A
        lines["trust_region"] = (rf"{Jsym}={tex_number(x)}\cdot{_p(A)}={tex_number(formula_value)}",)

    # KL
    if beta > 0:
        est = params["kl_estimator"]
        xr = float(batch.log_prob[i, t] - batch.ref_log_prob[i, t])
        lines["kl"] = (
            rf"x_{{i,t}}={tex_number(xr)},\ \mathbb D^{{{est}}}_{{i,t}}={tex_number(kl)}",
            rf"\lambda_{{i,t}}=-{_p(J)}+{tex_number(beta)}\cdot{_p(kl)}={tex_number(lam)}",
        )
    else:
        lines["kl"] = (rf"\lambda_{{i,t}}=-{_p(J)}={tex_number(lam)}",)

    # aggregation
    mode = params["loss_agg_mode"]
    norm = params.get("norm_length")
    l_max = tex_number(float(mask.shape[1]) if norm is None else norm)
    denominator = AGGREGATIONS[mode].numbers(int(mask.sum()), G, L_i, l_max)  # the registry's, with numbers
    lines["aggregation"] = (rf"w_{{i,t}}=\frac{{1}}{{{denominator}}}={tex_number(w)}",)

    values = {
        "log_ratio": ell,
        "token_ratio": r,
        "sequence_ratio": None if ratio_kind == "token" else s,
        "ratio_used": used,
        "trust_value": trust_value,
        "state": state,
        "advantage": A,
        "objective": J,
        "kl_term": beta * kl,
        "per_token_loss": lam,
        "token_weight": w,
        "weighted_loss": w * lam,
        "grad_weight": g,
    }
    return BoundToken(
        algorithm=name,
        response=i,
        token=t,
        values=values,
        latex={k: lines[k] for k in TERM_KEYS},
        gradient_latex=rf"\frac{{\partial\mathcal L}}{{\partial\log\pi_\theta(y_{{i,t}})}}={tex_number(g)}",
        formula_value=float(formula_value),
    )


# ---------------------------------------------------------------------------------------- the page's one call


@dataclass(frozen=True)
class FormulaDiff:
    """What the formula-diff page shows for objectives ``a`` and ``b``.

    Attributes:
        a, b: registry names. ``terms``: :data:`TERM_KEYS` -> ``(term of a, term of b)``.
        differs: the keys whose terms differ (:func:`differing_terms`).
        bound: ``(BoundToken of a, BoundToken of b)`` for the picked token.
        table: one row per :data:`QUANTITIES`: ``quantity``, ``a``, ``b``, ``differs`` (bool).
        tokens: one row per real token of the batch: ``response``, ``position``, ``log_ratio``,
            ``token_ratio``, ``advantage_a`` / ``advantage_b``, ``push_a`` / ``push_b``
            (-d loss / d log pi), ``state_a`` / ``state_b``.
        batch: the example batch. ``others``: :func:`other_settings` of the pair.
    """

    a: str
    b: str
    terms: dict[str, tuple[Term, Term]]
    differs: tuple[str, ...]
    bound: tuple[BoundToken, BoundToken]
    table: pd.DataFrame
    tokens: pd.DataFrame
    batch: ExampleBatch
    others: list[tuple[str, Any, Any]]


def _differ(x: Any, y: Any) -> bool:
    if x is None or y is None:
        return (x is None) != (y is None)
    if isinstance(x, str) or isinstance(y, str):
        return x != y
    return not math.isclose(float(x), float(y), rel_tol=1e-9, abs_tol=1e-12)


def formula_diff(
    a: str, b: str, seed: int = 0, response: int | None = None, token: int | None = None, spread: float = 0.1
) -> FormulaDiff:
    """Objectives ``a`` and ``b`` term by term, and the token ``(response, token)`` of the example
    batch drawn from ``seed`` and ``spread`` (:func:`example_batch`) bound into both.

    ``response`` / ``token`` ``None``: the most off-policy token (:func:`default_token`).

    Raises:
        ValueError: naming ``a`` / ``b`` (unknown objective), ``seed``, ``spread``, ``response`` or
            ``token`` (out of range, or a padding position).
    """
    for field, name in (("a", a), ("b", b)):
        if name not in ALGORITHMS:
            raise ValueError(f"{field}: unknown objective {name!r}; known: {', '.join(ALGORITHMS)}")
    batch = example_batch(seed, spread)
    if response is None or token is None:
        response, token = default_token(batch)
    i, t = _check_token(batch, response, token)
    terms_a, terms_b = objective_terms(a), objective_terms(b)
    differs = tuple(k for k in TERM_KEYS if not terms_a[k].same_as(terms_b[k]))
    runs = {name: _run(name, batch) for name in dict.fromkeys((a, b))}
    bound = (bind_token(a, batch, i, t, runs[a], terms_a), bind_token(b, batch, i, t, runs[b], terms_b))
    table = pd.DataFrame(
        {
            "quantity": list(QUANTITIES),
            "a": [bound[0].values[q] for q in QUANTITIES],
            "b": [bound[1].values[q] for q in QUANTITIES],
            "differs": [_differ(bound[0].values[q], bound[1].values[q]) for q in QUANTITIES],
        }
    )
    real = batch.response_mask > 0
    rows, cols = torch.nonzero(real, as_tuple=True)
    frame = {
        "response": rows.numpy(),
        "position": cols.numpy(),
        "log_ratio": batch.log_ratio[real].numpy(),
        "token_ratio": torch.exp(batch.log_ratio[real]).numpy(),
    }
    for suffix, name in (("a", a), ("b", b)):
        adv, grad, out = runs[name]
        adv_bt = adv[:, None].expand_as(batch.log_prob) if adv.dim() == 1 else adv
        frame[f"advantage_{suffix}"] = adv_bt[real].numpy()
        frame[f"push_{suffix}"] = (-grad[real]).numpy() + 0.0
        frame[f"state_{suffix}"] = token_states(name, out, batch.response_mask)[real.numpy()]
    return FormulaDiff(
        a=a,
        b=b,
        terms={k: (terms_a[k], terms_b[k]) for k in TERM_KEYS},
        differs=differs,
        bound=bound,
        table=table,
        tokens=pd.DataFrame(frame),
        batch=batch,
        others=other_settings(a, b),
    )
