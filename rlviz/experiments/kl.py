"""The KL page: every estimator of ``rlviz.core.kl.KL_SPECS``, its value and gradient against
x = log pi - log pi_ref, and, on a small categorical distribution the user sets, what each one does
in expectation: in the loss (differentiated, a pathwise gradient) and in the reward (a detached
penalty times the score function, a REINFORCE term), against the exact gradient of KL(pi || pi_ref).

Everything goes through the code that trains: ``kl_estimate`` for the values and
``policy_loss(PG_ALGORITHM, ...)`` for both placements (the KL term ``beta * k`` of the loss, or the
penalty as each token's advantage), with torch autograd; expectations are exact sums over the
vocabulary (no sampling noise).

Legend: V tokens in the vocabulary; theta the policy's logits [V]; pi = softmax(theta); pi_old the
sampler (``old_shift`` of the way from pi to pi_ref in logit space; 0 = on-policy).

Sources: Schulman, "Approximating KL divergence" (2020); Tang & Munos arXiv 2506.09477 (the
gradient of a KL estimate is not an estimate of the KL's gradient); Liu et al. arXiv 2510.01555
(k2 in the loss is gradient-equivalent to k1 in the reward on-policy; k3 in the loss is a biased
approximation); Shah et al. arXiv 2512.21852 ("A Comedy of Estimators"); DeepSeek-V3.2 arXiv
2512.02556 §3.1 (k3 times pi / pi_old); verl ``core_algos.py`` ``kl_penalty``; TRL
``grpo_trainer.py`` (``use_bias_correction_kl``).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd
import torch

from rlviz.core.kl import KL_ESTIMATORS, kl_estimate
from rlviz.core.objectives import MAX_SETTING, policy_loss

__all__ = [
    "DEFAULT_POLICY",
    "DEFAULT_REF",
    "DIRECTIONS",
    "EXACT",
    "LIVE_ARMS",
    "LIVE_SETTINGS",
    "LIVE_WINDOW",
    "MEASURED",
    "PG_ALGORITHM",
    "ROUTES",
    "CategoricalView",
    "answer_k1_loss",
    "answer_k3_direction",
    "categorical_view",
    "estimator_curves",
    "fields_k1_loss",
    "fields_k3_direction",
    "kl_state",
    "live_arm_settings",
    "live_query",
    "load_measured",
    "measured_reading",
    "parse_logits",
]

_F64 = torch.float64
PG_ALGORITHM = "grpo"  # the objective whose loss carries both placements (its clip switched off)
NO_CLIP = {
    "epsilon_low": 1.0,
    "epsilon_high": MAX_SETTING,
}  # only the KL placement differs (no ratio reaches MAX_SETTING)
ROUTES = ("loss", "reward")  # where the estimate goes
DIRECTIONS = ("reverse", "forward", "neither")  # which KL a route's expected gradient is exactly
EXACT = 1e-9  # a relative error below this is exact (float64 sums over a few tokens)
MAX_VOCAB = 8
DEFAULT_POLICY = "2, 1, 0, -1"
DEFAULT_REF = "0, 0.5, 1, 0"


# ------------------------------------------------------------------------------------------- (a)
def estimator_curves(x_min: float = -3.0, x_max: float = 3.0, points: int = 121) -> pd.DataFrame:
    """Value and gradient of every estimator against x = log pi - log pi_ref, for one token sampled
    on-policy (pi_old = pi, so ``k3_bc``'s rho is 1 in value and keeps its gradient).

    Returns:
        One row per (estimator, x): ``estimator``, ``x``, ``value`` = ``kl_estimate(x, 0, e)``,
        ``grad`` = d value / d log pi by autograd (what the KL term of the loss multiplies
        grad log pi(y) by, per unit beta), ``value_raw`` / ``grad_raw`` the same without k3's
        [-10, 10] clamp, ``clamped`` (bool) where the clamp changes the value or the gradient.

    Raises:
        ValueError: naming ``x_max`` (not above ``x_min``, or either not finite or beyond the
            [-20, 20] clamp of x) or ``points`` (not in [2, 2001]).
    """
    if not (math.isfinite(x_min) and math.isfinite(x_max) and -20 <= x_min < x_max <= 20):
        raise ValueError(f"x_max: must be above x_min = {x_min}, both in [-20, 20], got {x_max}")
    if isinstance(points, bool) or not isinstance(points, int) or not 2 <= points <= 2001:
        raise ValueError(f"points: must be a whole number in [2, 2001], got {points!r}")
    x = torch.linspace(x_min, x_max, points, dtype=_F64)[None, :]  # (1, P): P tokens of one response
    ref = torch.zeros_like(x)
    frames = []
    for e in KL_ESTIMATORS:
        out = {}
        for clamp in (True, False):
            lp = x.clone().requires_grad_(True)
            value = kl_estimate(lp, ref, e, clamp=clamp)  # (1, P); old = lp.detach(): on-policy
            (grad,) = torch.autograd.grad(value.sum(), lp)  # each token's own derivative
            out[clamp] = (value.detach()[0], grad[0])
        (v, g), (v_raw, g_raw) = out[True], out[False]
        frames.append(
            pd.DataFrame(
                {
                    "estimator": e,
                    "x": x[0].numpy(),
                    "value": v.numpy(),
                    "grad": g.numpy(),
                    "value_raw": v_raw.numpy(),
                    "grad_raw": g_raw.numpy(),
                    "clamped": ((v != v_raw) | (g != g_raw)).numpy(),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


# ------------------------------------------------------------------------------------------- (b)
def parse_logits(text: str | Sequence[float], name: str) -> list[float]:
    """Logits typed as ``"2, 1, 0, -1"`` (commas or spaces) or given as numbers.

    Raises:
        ValueError: ``<name>: ...`` for text that is not numbers, a non-finite value, fewer than 2
            or more than 8 of them.
    """
    if isinstance(text, str):
        parts = [p for p in text.replace(",", " ").split() if p]
        try:
            values = [float(p) for p in parts]
        except ValueError:
            raise ValueError(f"{name}: numbers separated by commas, like {DEFAULT_POLICY!r}; got {text!r}") from None
    else:
        values = [float(v) for v in text]
    if not 2 <= len(values) <= MAX_VOCAB:
        raise ValueError(f"{name}: between 2 and {MAX_VOCAB} logits (one per token), got {len(values)}")
    if not all(math.isfinite(v) and abs(v) <= 30 for v in values):
        raise ValueError(f"{name}: every logit must be a finite number in [-30, 30], got {values}")
    return values


@dataclass(frozen=True)
class CategoricalView:
    """What :func:`categorical_view` computes.

    Attributes:
        tokens: one row per token: ``token``, ``pi``, ``pi_ref``, ``pi_old`` (probabilities),
            ``x`` = log pi - log pi_ref.
        table: one row per (route, estimator): ``route``, ``estimator``, ``expected_value`` (the
            mean penalty over samples from pi_old: in the loss k at pi, in the reward k at pi_old,
            as the trainer computes it when it samples), ``value_bias`` = that minus KL,
            ``rel_error`` = |E g - grad KL| / |grad KL| (0: exact in expectation),
            ``rel_error_forward`` against grad KL(pi_ref || pi), ``norm_ratio`` = |E g| / |grad KL|,
            ``cosine`` between E g and grad KL, ``std`` = the single-sample gradient's spread
            (sqrt of the trace of its covariance, per unit beta), ``direction`` (one of
            ``DIRECTIONS``: which KL's gradient E g is exactly).
        gradients: one row per (series, token): ``series`` (``<estimator>_<route>``,
            ``true_reverse`` = grad KL(pi || pi_ref), ``true_forward`` = grad KL(pi_ref || pi)),
            ``route``, ``estimator``, ``token``, ``grad`` (d / d theta_token).
        kl: KL(pi || pi_ref), nats. kl_forward: KL(pi_ref || pi). old_shift: as given.
    """

    tokens: pd.DataFrame
    table: pd.DataFrame
    gradients: pd.DataFrame
    kl: float
    kl_forward: float
    old_shift: float

    def row(self, estimator: str, route: str) -> dict[str, Any]:
        """The table's row of (estimator, route) as a dict. Raises ``ValueError`` naming
        ``estimator`` or ``route``."""
        if estimator not in KL_ESTIMATORS:
            raise ValueError(f"estimator: {estimator!r} is not one of {', '.join(KL_ESTIMATORS)}")
        if route not in ROUTES:
            raise ValueError(f"route: {route!r} is not one of {', '.join(ROUTES)}")
        t = self.table
        return t[(t.estimator == estimator) & (t.route == route)].iloc[0].to_dict()


def _per_token_loss(theta, log_ref, log_old, estimator: str, route: str) -> torch.Tensor:
    """(V,) the loss of each token if it were the one sampled, beta = 1, from ``policy_loss``:
    in the loss its KL term k(log pi); in the reward its surrogate -rho * A with A = -k(log pi_old)."""
    lp = torch.log_softmax(theta, -1)[None, :]  # (1, V): each token one position of one response
    mask = torch.ones_like(lp)
    old, ref = log_old[None, :], log_ref[None, :]
    if route == "loss":
        adv = torch.zeros(1, dtype=_F64)  # no reward signal: the loss is beta * k alone
        out = policy_loss(PG_ALGORITHM, lp, old, adv, mask, ref, beta=1.0, kl_estimator=estimator, **NO_CLIP)
    else:
        adv = -kl_estimate(old, ref, estimator, old_log_prob=old)  # (1, V) the penalty, fixed when sampled
        out = policy_loss(PG_ALGORITHM, lp, old, adv, mask, beta=0.0, **NO_CLIP)
    return out.per_token_loss[0]  # (V,)


def _reward_route_losses(theta, log_ref, log_old) -> torch.Tensor:
    """(E, V): :func:`_per_token_loss` in the reward of every estimator (``KL_ESTIMATORS`` order),
    from one ``policy_loss`` call: one row per estimator, its penalty as the row's advantage (the
    surrogate -rho * A of a token does not depend on the other rows)."""
    old, ref = log_old[None, :], log_ref[None, :]
    adv = torch.cat([-kl_estimate(old, ref, e, old_log_prob=old) for e in KL_ESTIMATORS])  # (E, V)
    lp = torch.log_softmax(theta, -1)[None, :].expand_as(adv)  # (E, V)
    out = policy_loss(PG_ALGORITHM, lp, old.expand_as(adv), adv, torch.ones_like(adv), beta=0.0, **NO_CLIP)
    return out.per_token_loss  # (E, V)


def categorical_view(
    policy_logits: str | Sequence[float] = DEFAULT_POLICY,
    ref_logits: str | Sequence[float] = DEFAULT_REF,
    old_shift: float = 0.0,
) -> CategoricalView:
    """Exact expectations of every estimator, in the loss and in the reward, on a categorical policy.

    pi = softmax(theta) over V tokens, pi_ref = softmax(theta_ref), and the sampler
    pi_old = softmax((1 - s) theta + s theta_ref) with s = ``old_shift`` (0: on-policy; the
    sampler is an earlier policy, nearer the reference). One token y ~ pi_old is one sample; its
    gradient estimate g(y) is the gradient w.r.t. theta of its loss (:func:`_per_token_loss`), and
    E g = sum_y pi_old(y) g(y) exactly, compared with grad_theta KL(pi || pi_ref) by autograd.

    Args:
        policy_logits, ref_logits: V logits each (text ``"2, 1, 0, -1"`` or numbers), 2 <= V <= 8.
        old_shift: s in [0, 1].

    Returns:
        :class:`CategoricalView`.

    Raises:
        ValueError: naming ``policy_logits``, ``ref_logits`` (bad text, another length than
            ``policy_logits``) or ``old_shift`` (not in [0, 1]); ``policy_logits`` when pi equals
            pi_ref (no KL to follow: every gradient is 0).
    """
    policy = tuple(parse_logits(policy_logits, "policy_logits"))
    ref = tuple(parse_logits(ref_logits, "ref_logits"))
    if len(ref) != len(policy):
        raise ValueError(f"ref_logits: need {len(policy)} logits like policy_logits, got {len(ref)}")
    if not (math.isfinite(old_shift) and 0 <= old_shift <= 1):
        raise ValueError(f"old_shift: must be in [0, 1], got {old_shift}")
    v = _categorical_view(policy, ref, float(old_shift))
    # the memo's frames stay its own: the caller gets copies
    return replace(v, tokens=v.tokens.copy(), table=v.table.copy(), gradients=v.gradients.copy())


@functools.lru_cache(maxsize=64)
def _categorical_view(policy: tuple[float, ...], ref: tuple[float, ...], old_shift: float) -> CategoricalView:
    """:func:`categorical_view` of checked logits, kept for the last 64 inputs (a pure function: the
    page and its predictions ask for the same view several times a rerun)."""
    theta = torch.tensor(policy, dtype=_F64)  # (V,)
    theta_ref = torch.tensor(ref, dtype=_F64)
    log_ref = torch.log_softmax(theta_ref, -1)
    log_pi = torch.log_softmax(theta, -1)
    log_old = torch.log_softmax((1 - old_shift) * theta + old_shift * theta_ref, -1)
    p_old = log_old.exp()  # (V,)

    def grad_of(fn) -> torch.Tensor:
        t = theta.clone().requires_grad_(True)
        (g,) = torch.autograd.grad(fn(torch.log_softmax(t, -1)), t)
        return g  # (V,)

    true = grad_of(lambda lp: (lp.exp() * (lp - log_ref)).sum())  # grad KL(pi || pi_ref)
    forward = grad_of(lambda lp: (log_ref.exp() * (log_ref - lp)).sum())  # grad KL(pi_ref || pi)
    kl = float((log_pi.exp() * (log_pi - log_ref)).sum())
    kl_forward = float((log_ref.exp() * (log_ref - log_pi)).sum())
    if float(true.norm()) < 1e-12:
        raise ValueError("policy_logits: π equals π_ref (up to a constant): the KL and its gradient are 0")

    rows, grads = [], []
    for name, g in (("true_reverse", true), ("true_forward", forward)):
        grads += [
            {"series": name, "route": "", "estimator": "", "token": v, "grad": float(g[v])} for v in range(len(g))
        ]
    V, E = len(theta), len(KL_ESTIMATORS)
    eye = torch.eye(V, dtype=_F64)  # (V, V): one backward pass per sampled token, batched
    # the reward route of every estimator at once: (E * V, V), row (e, y) = d loss_e(y) / d theta
    t = theta.clone().requires_grad_(True)
    reward_losses = _reward_route_losses(t, log_ref, log_old)  # (E, V)
    (reward_jac,) = torch.autograd.grad(
        reward_losses, t, grad_outputs=torch.eye(E * V, dtype=_F64).view(E * V, E, V), is_grads_batched=True
    )
    for route in ROUTES:
        for i, e in enumerate(KL_ESTIMATORS):
            if route == "reward":
                per_token, jac = reward_losses[i].detach(), reward_jac[i * V : (i + 1) * V]
            else:
                t = theta.clone().requires_grad_(True)
                loss = _per_token_loss(t, log_ref, log_old, e, route)  # (V,)
                per_token = loss.detach()
                # (V, V): row y = d loss(y) / d theta, the gradient estimate of sample y
                (jac,) = torch.autograd.grad(loss, t, grad_outputs=eye, is_grads_batched=True)
            mean = (p_old[:, None] * jac).sum(0)  # (V,) E_{y ~ pi_old} g(y)
            second = float((p_old * (jac * jac).sum(1)).sum())
            if route == "loss":
                value = per_token  # k at pi (beta = 1)
            else:
                value = kl_estimate(log_old[None], log_ref[None], e, old_log_prob=log_old[None])[0]
            rel = float((mean - true).norm() / true.norm())
            rel_f = float((mean - forward).norm() / forward.norm()) if float(forward.norm()) > 0 else math.inf
            rows.append(
                {
                    "route": route,
                    "estimator": e,
                    "expected_value": float((p_old * value).sum()),
                    "value_bias": float((p_old * value).sum()) - kl,
                    "rel_error": rel,
                    "rel_error_forward": rel_f,
                    "norm_ratio": float(mean.norm() / true.norm()),
                    "cosine": float(torch.dot(mean, true) / (mean.norm() * true.norm()))
                    if float(mean.norm()) > EXACT * float(true.norm())  # no direction for a zero vector
                    else 0.0,
                    "std": math.sqrt(max(second - float(mean.norm()) ** 2, 0.0)),
                    "direction": "reverse" if rel < EXACT else "forward" if rel_f < EXACT else "neither",
                }
            )
            grads += [
                {"series": f"{e}_{route}", "route": route, "estimator": e, "token": v, "grad": float(mean[v])}
                for v in range(len(mean))
            ]
    tokens = pd.DataFrame(
        {
            "token": range(len(theta)),
            "pi": log_pi.exp().numpy(),
            "pi_ref": log_ref.exp().numpy(),
            "pi_old": p_old.numpy(),
            "x": (log_pi - log_ref).numpy(),
        }
    )
    table = pd.DataFrame(rows)
    # -0.0 -> 0.0 so that tables and hovers never show a signed zero
    table[table.select_dtypes("number").columns] += 0.0
    gradients = pd.DataFrame(grads)
    gradients["grad"] += 0.0
    return CategoricalView(tokens, table, gradients, kl, kl_forward, float(old_shift))


# ------------------------------------------------------------------------------- predictions
def _view(state: Mapping[str, Any]) -> CategoricalView:
    return categorical_view(state["policy_logits"], state["ref_logits"], float(state["old_shift"]))


def answer_k1_loss(state: Mapping[str, Any]) -> float:
    """state ``{"policy_logits", "ref_logits", "old_shift"}``: |E g| / |grad KL| of k1 in the loss
    (:func:`categorical_view`): 0 on-policy, since E_pi[grad log pi] = 0."""
    return float(_view(state).row("k1", "loss")["norm_ratio"])


def fields_k1_loss(state: Mapping[str, Any]) -> dict[str, str]:
    v = _view(state)
    return {
        "shift": f"{float(state['old_shift']):g}",
        "kl": f"{v.kl:.4f}",
        "k1_reward": f"{v.row('k1', 'reward')['norm_ratio']:.3f}",
        "k2_loss": f"{v.row('k2', 'loss')['norm_ratio']:.3f}",
    }


def answer_k3_direction(state: Mapping[str, Any]) -> str:
    """state as :func:`answer_k1_loss`: which KL's gradient k3 in the loss gives exactly in
    expectation, one of ``DIRECTIONS`` (on-policy: ``forward``, KL(pi_ref || pi))."""
    return str(_view(state).row("k3", "loss")["direction"])


def fields_k3_direction(state: Mapping[str, Any]) -> dict[str, str]:
    v = _view(state)
    k3 = v.row("k3", "loss")
    return {
        "shift": f"{float(state['old_shift']):g}",
        "err_reverse": f"{k3['rel_error']:.3g}",
        "err_forward": f"{k3['rel_error_forward']:.3g}",
        "err_bc": f"{v.row('k3_bc', 'loss')['rel_error']:.3g}",
    }


# ------------------------------------------------------------------------------------------- (d)
# The live comparison: GRPO on the shipped tiny LM, only the KL changed. benchmarks/kl_effect.py runs
# these arms and writes MEASURED; the page links each arm to the live page with the same settings.
LIVE_ARMS: tuple[tuple[str, str, bool], ...] = (  # (arm, kl_estimator, kl_in_reward); no_kl has beta = 0
    ("no_kl", "k3", False),
    ("k1_loss", "k1", False),
    ("k3_loss", "k3", False),
    ("k1_reward", "k1", True),
)
LIVE_SETTINGS: dict[str, Any] = {"steps": 30, "beta": 0.5, "lr": 1e-4, "prompts_per_step": 8, "mu": 2, "seed": 0}
LIVE_WINDOW = 10  # the last steps the measurement averages
MEASURED = Path(__file__).resolve().parent / "kl_measured.json"


def live_arm_settings(arm: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(objective settings, TrainConfig fields)`` of one arm of ``LIVE_ARMS`` (GRPO).
    Raises ``ValueError`` naming ``arm``."""
    for name, estimator, in_reward in LIVE_ARMS:
        if name == arm:
            beta = 0.0 if name == "no_kl" else float(LIVE_SETTINGS["beta"])
            return {"beta": beta, "kl_estimator": estimator}, {"kl_in_reward": in_reward}
    raise ValueError(f"arm: {arm!r} is not one of {', '.join(a for a, _, _ in LIVE_ARMS)}")


def live_query(arm: str) -> dict[str, Any]:
    """The live page's URL parameters (its widget keys) that run ``arm`` alone with ``LIVE_SETTINGS``.
    Raises ``ValueError`` naming ``arm``."""
    from rlviz.core.objectives import ALGORITHMS

    settings, train = live_arm_settings(arm)
    s = LIVE_SETTINGS
    return {
        "lv_algos": [ALGORITHMS[PG_ALGORITHM].title],
        "lv_steps": str(s["steps"]),
        "lv_prompts": str(s["prompts_per_step"]),
        "lv_mu": str(s["mu"]),
        "lv_lr": f"{s['lr']:g}",
        f"lv_{PG_ALGORITHM}.beta": f"{settings['beta']:g}",
        f"lv_{PG_ALGORITHM}.kl_estimator": settings["kl_estimator"],
        "lv_kl_rew": "true" if train["kl_in_reward"] else "false",
    }


def load_measured(path: Path = MEASURED) -> dict[str, Any]:
    """The stored measurement of ``LIVE_ARMS`` (``benchmarks/kl_effect.py --out``), or ``{}`` when there
    is none or it was taken with other settings than ``LIVE_SETTINGS`` (stale).

    Raises ``ValueError`` naming ``path`` for a file that is not valid JSON."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"path: {path.name} is not valid JSON ({exc})") from None
    taken = data.get("settings", {})
    if any(taken.get(k) != v for k, v in LIVE_SETTINGS.items()) or set(data.get("arms", {})) != {
        a for a, _, _ in LIVE_ARMS
    }:
        return {}
    return data


def measured_reading(measured: Mapping[str, Any]) -> dict[str, Any]:
    """What the page says about a measurement (:func:`load_measured`): ``low`` / ``high`` = the least
    and the largest kl_ref over the last steps among the arms with a KL term (every arm but
    ``no_kl``), ``spread`` = ``high - low`` (how much the estimator and its placement changed it),
    ``no_kl`` = that of the arm without KL (NaN if absent), ``verdict`` = ``"small"`` when the spread
    is below a tenth of ``high``, else ``"large"``.
    Raises ``ValueError`` naming ``measured`` when it has no arm with a KL term."""
    arms = measured.get("arms") or {}
    kls = [float(a["kl_ref_last"]) for name, a in arms.items() if name != "no_kl"]
    if not kls:
        raise ValueError("measured: no arm with a KL term")
    low, high = min(kls), max(kls)
    return {
        "low": low,
        "high": high,
        "spread": high - low,
        "no_kl": float(arms["no_kl"]["kl_ref_last"]) if "no_kl" in arms else math.nan,
        "verdict": "small" if high - low < 0.1 * high else "large",
    }


def kl_state(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The state the page's predictions are asked at, from its widgets (``kl_pol``, ``kl_ref``,
    ``kl_shift``; typed or as URL text; a missing one takes the page's default).

    Raises:
        ValueError: naming ``policy_logits``, ``ref_logits`` or ``old_shift`` (as :func:`categorical_view`).
    """
    try:
        shift = float(settings.get("kl_shift", 0.0))
    except (TypeError, ValueError):
        raise ValueError(f"old_shift: must be a number in [0, 1], got {settings.get('kl_shift')!r}") from None
    state = {
        "policy_logits": str(settings.get("kl_pol", DEFAULT_POLICY)),
        "ref_logits": str(settings.get("kl_ref", DEFAULT_REF)),
        "old_shift": shift,
    }
    categorical_view(state["policy_logits"], state["ref_logits"], shift)  # checks every setting
    return state
