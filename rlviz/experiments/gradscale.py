"""Gradient scale and the learning rate (issue 41): the gradient norm of one batch under every registry
objective, and what a constant scale c of the loss does to the size of AdamW's and SGD's update.

Everything is the trainer's own update (``rlviz.lm.trainer.Trainer.update``) on one group sampled from the
shipped tiny LM (``rlviz.experiments.step.sample_group``, the batch the step page replays), never a
second formula:

- :func:`gradient_norms`: for each entry of ``rlviz.core.objectives.ALGORITHMS`` (its registry defaults,
  or every entry on one ``loss_agg_mode`` of ``rlviz.core.aggregation.AGGREGATIONS``), a Trainer with
  mu = 1 and one mini-batch makes the first optimizer step, on-policy (every ratio is 1); its metric
  ``grad_norm`` is the norm ``clip_grad_norm_`` returns, before clipping. With ``second=True`` a Trainer
  with mu = 2 also makes the second step, which sees the ratios the first step made (the trainer
  reports the mean of its two steps' norms, so the second is 2 x mean - first) and its clip fraction.
- :func:`update_size`: one first step of one objective with its loss's gradient multiplied by c (a hook
  on each parameter multiplies the gradient backward computes: the gradient of c x loss), under the
  trainer's AdamW or under ``torch.optim.SGD`` swapped in for ``Trainer.optimizer``, with the trainer's
  gradient clipping (``TrainConfig.grad_clip``, TRL ``max_grad_norm``, verl ``actor.grad_clip``) on or
  off. It measures ||delta theta|| over the policy's parameters and the mean |delta log pi| of the
  batch's loss tokens. :func:`scale_sweep` runs it over :data:`SCALES`.

Expected, and measured by the page: Adam's first step is m / (sqrt(v) + eps) with m = g and v = g^2 after
bias correction, so each parameter moves lr x g / (|g| + eps), about lr x sign(g): ||delta theta|| is about
lr x sqrt(n) for n parameters with a nonzero gradient (Kingma & Ba, arXiv 1412.6980, Algorithm 1), the
same for every c until |c g| nears eps; SGD moves lr x g, c times more for c x loss, until clipping caps
||g|| at ``grad_clip``. Limits: one batch, one step, a tiny model (855k parameters), the trainer's AdamW
with weight decay 0.

No Streamlit here. Legend: G responses in the group, T the padded response width, N the loss tokens.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import torch

from rlviz.core.aggregation import AGGREGATIONS, LOSS_AGG_MODES, token_weights
from rlviz.core.objectives import ALGORITHMS, get_algorithm
from rlviz.i18n import LIST_SEPARATOR, t

from .step import BASELINE, DEFAULT_GROUP_SIZE, DEFAULT_LR, GROUP_SIZES, LRS, Sample, sample_group

__all__ = [
    "ADAM_SCALE",
    "AGGREGATION_CHOICES",
    "BASELINE",
    "CLIP_OFF",
    "DEFAULT_GROUP_SIZE",
    "DEFAULT_LR",
    "DEFAULT_SCALE",
    "GROUP_SIZES",
    "LRS",
    "OPTIMIZERS",
    "OWN",
    "SCALES",
    "SGD_SCALE",
    "UpdateSize",
    "advantage_rule",
    "answer_adam",
    "answer_sgd",
    "batch_at",
    "equal_groups",
    "explain_adam",
    "explain_sgd",
    "fields",
    "fields_adam",
    "fields_sgd",
    "first_step_size",
    "grad_clip",
    "gradient_norms",
    "logprob_gradient_norm",
    "norms_reading",
    "optimizer_settings",
    "prediction_state",
    "scale_reading",
    "scale_sweep",
    "update_size",
    "weight_range",
]

OWN = "own"  # each objective on its own loss_agg_mode (its registry default)
AGGREGATION_CHOICES: tuple[str, ...] = (OWN, *LOSS_AGG_MODES)
SCALES: tuple[float, ...] = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)  # c, the loss's constant factor
DEFAULT_SCALE = 10.0
OPTIMIZERS: tuple[str, ...] = ("adamw", "sgd")  # the trainer's AdamW, and plain SGD swapped in
# gradient clipping off: a max norm above any norm here, so clip_grad_norm_ multiplies by min(1, max / ||g||) = 1
# (TrainConfig refuses an infinite grad_clip)
CLIP_OFF = 1e30
ADAM_SCALE = 10.0  # the Adam question's c: "multiply the loss by 10"
SGD_SCALE = 0.1  # the SGD question's c: "multiply the loss by 0.1"
EQUAL_RTOL = 1e-6  # two norms this close (relative) are the same number (float rounding of one computation)


def grad_clip() -> float:
    """The trainer's default max gradient norm (``TrainConfig.grad_clip``; TRL ``max_grad_norm``, verl
    ``actor.grad_clip``), read from the trainer, not typed here."""
    from rlviz.lm.trainer import TrainConfig

    return float(TrainConfig().grad_clip)


@functools.lru_cache(maxsize=1)
def optimizer_settings() -> dict[str, Any]:
    """The trainer's own AdamW settings, read from a :class:`~rlviz.lm.trainer.Trainer` built at its defaults
    on the shipped policy: ``lr``, ``betas``, ``eps``, ``weight_decay`` (``torch.optim.AdamW``'s
    ``defaults`` as the trainer made it). Kept once per process."""
    from rlviz.lm.model import load_policy
    from rlviz.lm.trainer import TrainConfig, Trainer

    model, tokenizer = load_policy(None, "cpu")
    config = TrainConfig(algorithm=next(n for n, s in ALGORITHMS.items() if not (s.defaults.get("beta") or 0)))
    defaults = Trainer(config, model, tokenizer).optimizer.defaults
    return {k: defaults[k] for k in ("lr", "betas", "eps", "weight_decay")}


# --------------------------------------------------------------------------------------------- the batch
@functools.lru_cache(maxsize=4)
def batch_at(seed: int, group_size: int, prompt: str) -> Sample:
    """The group of (seed, G, prompt): :func:`rlviz.experiments.step.sample_group` (the step page's batch),
    kept for the last few arguments (a :class:`Sample` is never changed: each update works on a copy).

    Raises:
        ValueError: naming ``seed``, ``group_size`` or ``prompt``."""
    return sample_group(seed, group_size, prompt)


def drawn_prompt(seed: int, group_size: int) -> str:
    """The prompt of the batch drawn at (seed, G) when none is typed (:func:`batch_at` with ``""``): what the
    page's Prompt box shows as its value, and a typed prompt equal to it means that same drawn batch
    (:func:`prediction_state`).

    Raises:
        ValueError: naming ``seed`` or ``group_size``."""
    return str(batch_at(seed, group_size, "").batch.problems[0].prompt)


def advantage_rule(name: str) -> str:
    """How entry ``name`` scales its advantages, as a key (``gradscale.adv.<key>``): ``gae`` (a critic),
    ``estimator`` (a named estimator of ``rlviz.core.estimators``) or its ``scale_rewards`` (``group``: divided
    by the group's std, ``batch``, ``none``: only centred)."""
    train = get_algorithm(name).train_defaults
    if train["advantage"] == "gae":
        return "gae"
    if train["adv_estimator"] != "own":
        return "estimator"
    return str(train["scale_rewards"])


def _check_choice(value: Any, name: str, options) -> str:
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name}: {value!r} is not one of {', '.join(map(str, options))}")
    return value


def _check_scale(scale: Any) -> float:
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale: must be a finite number > 0, got {scale!r}")
    return float(scale)


def _check_lr(lr: Any) -> float:
    if isinstance(lr, bool) or not isinstance(lr, (int, float)) or not (math.isfinite(lr) and 0 < lr <= 1):
        raise ValueError(f"lr: must be a finite number in (0, 1], got {lr!r}")
    return float(lr)


class _Bench:
    """One copy of the shipped policy, reset to its starting weights before each trainer (cheaper than a
    fresh copy per objective), and one frozen reference for the entries whose KL term reads it."""

    def __init__(self):
        from rlviz.lm.model import load_policy

        self.model, self.tokenizer = load_policy(None, "cpu")
        self.start = {k: v.detach().clone() for k, v in self.model.state_dict().items()}
        self._ref = None

    def ref(self, name: str):
        """The frozen starting policy where ``name``'s KL term needs it (beta > 0), else ``None``."""
        if (get_algorithm(name).defaults.get("beta") or 0) <= 0:
            return None
        if self._ref is None:
            self._ref = copy.deepcopy(self.model).eval().requires_grad_(False)
            self._ref.load_state_dict(self.start)
        return self._ref

    def trainer(
        self,
        sample: Sample,
        name: str,
        *,
        mu: int = 1,
        lr: float = DEFAULT_LR,
        clip: float | None = None,
        settings=None,
    ):
        """A :class:`~rlviz.lm.trainer.Trainer` of ``name`` on the starting weights, for ``sample``'s group."""
        from rlviz.lm.trainer import TrainConfig, Trainer

        self.model.load_state_dict(self.start)
        self.model.zero_grad(set_to_none=True)
        config = TrainConfig(
            algorithm=name,
            prompts_per_step=len(sample.batch.problems) // max(sample.group_size, 1) or 1,
            group_size=sample.group_size,
            lr=lr,
            mu=mu,
            mini_batches=1,
            max_new_tokens=sample.max_new_tokens,
            temperature=sample.temperature,
            seed=sample.seed,
            grad_clip=grad_clip() if clip is None else clip,
            settings=dict(settings or {}),
            measure_kl_ref=False,
        )
        return Trainer(config, self.model, self.tokenizer, self.ref(name))


def _agg_settings(aggregation: str) -> dict[str, Any]:
    """The settings that put an entry on ``aggregation`` (none for :data:`OWN`). An entry without a
    ``norm_length`` setting put on seq-mean-token-sum-norm divides by the padded width T
    (``rlviz.core.aggregation``); the trainer gives an entry with one its L_max."""
    return {} if aggregation == OWN else {"loss_agg_mode": aggregation}


# ------------------------------------------------------------------------------------ 1. the norms
def gradient_norms(
    sample: Sample, aggregation: str = OWN, second: bool = False, lr: float = DEFAULT_LR
) -> pd.DataFrame:
    """The gradient norm of ``sample``'s group under every registry entry, read from the trainer.

    Each entry (its registry defaults; ``aggregation`` other than :data:`OWN`: with that ``loss_agg_mode``)
    makes the first optimizer step of a fresh :class:`~rlviz.lm.trainer.Trainer` (mu = 1, one mini-batch,
    AdamW at ``lr``, the trainer's ``grad_clip``) on the same starting weights and the same group; the
    norm is the trainer's metric ``grad_norm`` (``clip_grad_norm_``'s return: before clipping). With
    ``second``, a Trainer with mu = 2 makes the first step again and a second one, which sees the ratios
    the first made: the trainer reports the mean of its two norms, so the second is 2 x mean - first,
    and its clip fraction is its own record (``Trainer.last_updates[1]``).

    Returns:
        One row per registry entry, in registry order: ``objective``, ``title``, ``ratio_level``
        (token / sequence), ``loss_agg_mode``, ``norm_length`` (the constant of seq-mean-token-sum-norm
        the trainer used: L_max for an entry with that setting, else the padded width T; NaN for the
        other modes), ``advantage`` (:func:`advantage_rule`), ``tokens`` (N, the loss tokens),
        ``grad_norm`` (first step), ``grad_norm_second`` and ``clip_fraction_second`` (NaN without
        ``second``).

    Raises:
        ValueError: naming ``aggregation`` (not one of :data:`AGGREGATION_CHOICES`) or ``lr``; or the
            trainer's own message.
    """
    _check_choice(aggregation, "aggregation", AGGREGATION_CHOICES)
    lr = _check_lr(lr)
    bench = _Bench()
    width = int(sample.batch.response_mask.shape[-1])
    rows = []
    for name, spec in list(ALGORITHMS.items()):
        settings = _agg_settings(aggregation)
        trainer = bench.trainer(sample, name, lr=lr, settings=settings)
        metrics, _, data = trainer.update(dataclasses.replace(sample.batch))
        params = trainer.loss_settings(data)
        mode = str(params["loss_agg_mode"])
        norm_length = params.get("norm_length")
        first = float(metrics["grad_norm"])
        later, clipped = math.nan, math.nan
        if second:
            trainer = bench.trainer(sample, name, mu=2, lr=lr, settings=settings)
            metrics2, _, _ = trainer.update(dataclasses.replace(sample.batch))
            later = max(2.0 * float(metrics2["grad_norm"]) - first, 0.0)
            ups = trainer.last_updates
            clipped = float(ups[1]["clip_fraction"]) if len(ups) > 1 else math.nan
        rows.append(
            {
                "objective": name,
                "title": spec.title,
                "ratio_level": spec.ratio_level,
                "loss_agg_mode": mode,
                "norm_length": (float(norm_length) if norm_length is not None else float(width))
                if AGGREGATIONS[mode].reads_norm_length
                else math.nan,
                "advantage": advantage_rule(name),
                "tokens": int((data.mask > 0).sum()),
                "grad_norm": first,
                "grad_norm_second": later,
                "clip_fraction_second": clipped,
            }
        )
    return pd.DataFrame(rows)


def equal_groups(frame: pd.DataFrame, column: str = "grad_norm") -> list[list[str]]:
    """The entries of ``frame`` (:func:`gradient_norms`) whose ``column`` is the same number (relative
    difference below ``EQUAL_RTOL``: one computation's float rounding), groups of two or more, largest
    group first: each group a list of ``objective`` keys in registry order."""
    values = frame.set_index("objective")[column]
    groups: list[list[str]] = []
    for name, value in values.items():
        if not math.isfinite(value):
            continue
        for group in groups:
            ref = values[group[0]]
            if abs(value - ref) <= EQUAL_RTOL * max(abs(ref), 1e-12):
                group.append(name)
                break
        else:
            groups.append([name])
    return sorted((g for g in groups if len(g) > 1), key=lambda g: -len(g))


def weight_range(sample: Sample, mode: str, norm_length: float | None = None) -> tuple[float, float]:
    """``(smallest, largest)`` weight one loss token of ``sample``'s group gets under ``mode``
    (``rlviz.core.aggregation.token_weights`` on the group's response mask; ``norm_length`` as there)."""
    mask = sample.batch.response_mask
    w = token_weights(mask, mode, norm_length)
    real = w[mask > 0]
    return float(real.min()), float(real.max())


def logprob_gradient_norm(
    lengths, advantages, loss_agg_mode: str, objective: str = BASELINE, norm_length: float | None = None
) -> float:
    """||d loss / d log pi|| over every token of a hand-made group at ratio 1 (on-policy), by autograd
    through the objective's ``policy_loss`` (``rlviz.core.objectives.gradient_weights``).

    Args:
        lengths: [B] response lengths (whole numbers >= 1); ``advantages``: [B] one per response.
        loss_agg_mode: one of ``LOSS_AGG_MODES``; ``norm_length``: its constant where it reads one.
        objective: a registry entry; its KL term (if any) reads a reference equal to the policy, so it
            adds nothing at this point.

    Example (tests/test_gradscale.py): lengths (2, 8), advantages (+1, -1): token-mean gives every token
    |A| / 10, norm sqrt(10) / 10; seq-mean-token-mean gives 1/(2·2) and 1/(2·8), norm sqrt(0.15625).

    Raises:
        ValueError: naming ``lengths`` or ``advantages`` (empty, not whole / finite numbers, or of
            different counts), or as ``policy_loss`` does.
    """
    from rlviz.core.objectives import gradient_weights

    if not isinstance(lengths, (list, tuple)) or not lengths:
        raise ValueError(f"lengths: must be a non-empty list of whole numbers >= 1, got {lengths!r}")
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in lengths):
        raise ValueError(f"lengths: must be whole numbers >= 1, got {lengths!r}")
    if not isinstance(advantages, (list, tuple)) or len(advantages) != len(lengths):
        raise ValueError(f"advantages: one per response ({len(lengths)}), got {advantages!r}")
    if any(isinstance(a, bool) or not isinstance(a, (int, float)) or not math.isfinite(a) for a in advantages):
        raise ValueError(f"advantages: must be finite numbers, got {advantages!r}")
    B, T = len(lengths), max(lengths)
    mask = (torch.arange(T)[None, :] < torch.tensor(lengths)[:, None]).to(torch.float64)  # [B, T]
    log_prob = torch.full((B, T), math.log(0.5), dtype=torch.float64) * mask  # any value: ratio 1 is what counts
    adv = torch.tensor([float(a) for a in advantages], dtype=torch.float64)  # [B]
    extra = (
        {"norm_length": norm_length}
        if norm_length is not None and "norm_length" in get_algorithm(objective).defaults
        else {}
    )
    grad, _ = gradient_weights(
        objective, log_prob, log_prob, adv, mask, ref_log_prob=log_prob, loss_agg_mode=loss_agg_mode, **extra
    )
    return float(torch.linalg.vector_norm(grad * mask))


def first_step_size(
    grad, lr: float, scale: float = 1.0, optimizer: str = "adamw", max_norm: float | None = None
) -> float:
    """||delta theta|| of one first optimizer step on a parameter vector whose gradient is ``scale`` x ``grad``:
    the trainer's optimizer as it builds it (``torch.optim.AdamW(params, lr=lr, weight_decay=0.0)``: betas
    (0.9, 0.999), eps 1e-8; :func:`optimizer_settings` reads the same from a Trainer) or ``torch.optim.SGD``,
    after ``torch.nn.utils.clip_grad_norm_`` at ``max_norm`` (``None``: no clipping). The interview bank's
    small cases (tests/test_gradscale.py checks it against a Trainer's own AdamW).

    Raises:
        ValueError: naming ``grad`` (empty or not finite numbers), ``lr``, ``scale``, ``optimizer`` or
            ``max_norm`` (not a finite number > 0).
    """
    if not isinstance(grad, (list, tuple)) or not grad:
        raise ValueError(f"grad: must be a non-empty list of numbers, got {grad!r:.80}")
    if any(isinstance(g, bool) or not isinstance(g, (int, float)) or not math.isfinite(g) for g in grad):
        raise ValueError("grad: must be finite numbers")
    lr, scale = _check_lr(lr), _check_scale(scale)
    _check_choice(optimizer, "optimizer", OPTIMIZERS)
    if max_norm is not None and (
        isinstance(max_norm, bool)
        or not isinstance(max_norm, (int, float))
        or not (math.isfinite(max_norm) and max_norm > 0)
    ):
        raise ValueError(f"max_norm: must be a finite number > 0 or None, got {max_norm!r}")
    theta = torch.nn.Parameter(torch.zeros(len(grad), dtype=torch.float64))  # [n]
    opt = (
        torch.optim.AdamW([theta], lr=lr, weight_decay=0.0) if optimizer == "adamw" else torch.optim.SGD([theta], lr=lr)
    )
    theta.grad = scale * torch.tensor([float(g) for g in grad], dtype=torch.float64)
    if max_norm is not None:
        torch.nn.utils.clip_grad_norm_([theta], max_norm)
    opt.step()
    return float(torch.linalg.vector_norm(theta.detach()))


# ------------------------------------------------------------------------- 2. a constant scale c
@dataclass(frozen=True)
class UpdateSize:
    """One first optimizer step of c x loss (plain numbers).

    Attributes:
        objective, optimizer (``adamw`` / ``sgd``), clip (gradient clipping on), scale (c), lr.
        grad_norm: ||g|| of c x loss before clipping (the trainer's ``grad_norm``).
        delta_theta: ||theta_after - theta_before|| over every parameter of the policy.
        delta_log_prob: mean |log pi_after - log pi_before| over the group's loss tokens (nats).
        nonzero: the number of parameters with a nonzero gradient; ``parameters``: all of them.
    """

    objective: str
    optimizer: str
    clip: bool
    scale: float
    lr: float
    grad_norm: float
    delta_theta: float
    delta_log_prob: float
    nonzero: int
    parameters: int

    @property
    def adam_reference(self) -> float:
        """lr x sqrt(nonzero): the size of Adam's first step if every parameter with a gradient moved
        exactly lr (|g| much larger than Adam's eps)."""
        return self.lr * math.sqrt(self.nonzero)


@contextlib.contextmanager
def _scaled_gradients(model, scale: float):
    """While inside: every gradient backward computes for ``model``'s parameters is multiplied by
    ``scale`` before it is stored, which is the gradient of ``scale`` x loss."""
    handles = [p.register_hook(lambda g, c=scale: g * c) for p in model.parameters() if p.requires_grad]
    try:
        yield
    finally:
        for handle in handles:
            handle.remove()


def _update_size(
    bench: _Bench, sample: Sample, objective: str, lr: float, scale: float, optimizer: str, clip: bool
) -> UpdateSize:
    trainer = bench.trainer(sample, objective, lr=lr, clip=None if clip else CLIP_OFF)
    model = bench.model
    if optimizer == "sgd":  # the same step with plain SGD (no momentum, no weight decay) in place of AdamW
        trainer.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    before = [p.detach().clone() for p in model.parameters()]
    with _scaled_gradients(model, scale):
        metrics, _, data = trainer.update(dataclasses.replace(sample.batch))
    delta = math.sqrt(sum(float(((p.detach() - q) ** 2).sum()) for p, q in zip(model.parameters(), before)))
    nonzero = sum(int((p.grad != 0).sum()) for p in model.parameters() if p.grad is not None)
    B = len(sample.batch.problems)
    after, _, _ = trainer.policy_log_prob(data, range(B))
    real = data.mask > 0
    moved = float((after - data.old_log_prob)[real].abs().mean()) if bool(real.any()) else 0.0
    return UpdateSize(
        objective=objective,
        optimizer=optimizer,
        clip=bool(clip),
        scale=scale,
        lr=lr,
        grad_norm=float(metrics["grad_norm"]),
        delta_theta=delta,
        delta_log_prob=moved,
        nonzero=nonzero,
        parameters=sum(p.numel() for p in model.parameters()),
    )


def update_size(
    sample: Sample,
    objective: str = BASELINE,
    lr: float = DEFAULT_LR,
    scale: float = 1.0,
    optimizer: str = "adamw",
    clip: bool = True,
) -> UpdateSize:
    """The first optimizer step of ``objective`` on ``sample``'s group with the loss multiplied by ``scale``.

    A :class:`~rlviz.lm.trainer.Trainer` of ``objective`` (its defaults, mu = 1, one mini-batch) runs its own
    update on the starting weights; a hook on each parameter multiplies the gradient backward computes by
    ``scale`` (the gradient of ``scale`` x loss), before the trainer clips it (``clip``: at its
    ``grad_clip``; off: at :data:`CLIP_OFF`) and steps. ``optimizer``: ``adamw`` (the trainer's own:
    lr, betas (0.9, 0.999), eps 1e-8, weight decay 0) or ``sgd`` (``torch.optim.SGD`` at the same lr,
    swapped in for ``Trainer.optimizer``).

    Raises:
        ValueError: naming ``objective``, ``lr``, ``scale`` or ``optimizer``.
    """
    get_algorithm(objective)
    lr, scale = _check_lr(lr), _check_scale(scale)
    _check_choice(optimizer, "optimizer", OPTIMIZERS)
    return _update_size(_Bench(), sample, objective, lr, scale, optimizer, bool(clip))


def scale_sweep(sample: Sample, objective: str = BASELINE, lr: float = DEFAULT_LR, scales=SCALES) -> pd.DataFrame:
    """:func:`update_size` for every c of ``scales``, both optimizers, clipping on and off (one copy of
    the policy, reset before each step).

    Returns:
        One row per (optimizer, clip, scale): the fields of :class:`UpdateSize`, ``adam_reference``
        (lr x sqrt(nonzero)) and ``relative`` (``delta_theta`` over that of c = 1 for the same optimizer
        and clip; NaN where c = 1 is not in ``scales``).

    Raises:
        ValueError: as :func:`update_size`; naming ``scales`` when empty.
    """
    get_algorithm(objective)
    lr = _check_lr(lr)
    scales = tuple(_check_scale(c) for c in scales)
    if not scales:
        raise ValueError("scales: at least one c")
    bench = _Bench()
    rows = []
    for optimizer in OPTIMIZERS:
        for clip in (True, False):
            for c in scales:
                size = _update_size(bench, sample, objective, lr, c, optimizer, clip)
                rows.append({**dataclasses.asdict(size), "adam_reference": size.adam_reference})
    frame = pd.DataFrame(rows)
    base = frame[frame["scale"] == 1.0].set_index(["optimizer", "clip"])["delta_theta"]
    frame["relative"] = [  # NaN without a step at c = 1 to compare with (a group without a gradient)
        r.delta_theta / base[(r.optimizer, r.clip)]
        if (r.optimizer, r.clip) in base.index and base[(r.optimizer, r.clip)] > 0
        else math.nan
        for r in frame.itertuples()
    ]
    return frame


# ------------------------------------------------------------------------------- the page's words
def fields(lang: str) -> dict[str, str]:
    """The page's parameters -> their widget's label in ``lang``, for the message about a bad value."""
    return {k: t(f"gradscale.{k}", lang) for k in ("prompt", "group_size", "lr", "objective", "aggregation", "scale")}


def _titles(names, lang: str) -> str:
    return LIST_SEPARATOR[lang].join(ALGORITHMS[n].title if n in ALGORITHMS else n for n in names)


def _few(names, lang: str, most: int = 4) -> str:
    """The titles of ``names``, the first ``most`` of them and how many more."""
    names = list(names)
    if len(names) <= most + 1:
        return _titles(names, lang)
    return t("gradscale.read.more", lang, titles=_titles(names[:most], lang), k=len(names) - most)


def norms_reading(frame: pd.DataFrame, sample: Sample, second: bool, lang: str) -> list[str]:
    """What the norms figure shows, as sentences in ``lang``, every number read from ``frame``
    (:func:`gradient_norms`) and ``sample``: the range, the entries with equal norms, the weight one
    token gets under each aggregation in view, and (``second``) what the second step's trust regions did."""
    sep = LIST_SEPARATOR[lang]
    out = []
    col = "grad_norm_second" if second else "grad_norm"
    values = frame.set_index("objective")[col]
    finite = values[np.isfinite(values) & (values > 0)]
    zero = [n for n, v in values.items() if v == 0]
    if zero:  # no bar on the log axis: said in words
        key = "gradscale.read.zero_alike" if len(set(sample.batch.rewards.tolist())) == 1 else "gradscale.read.zero"
        out.append(t(key, lang, titles=_few(zero, lang), k=len(zero)))
    if finite.empty:
        return out
    low, high = finite.idxmin(), finite.idxmax()
    if low != high:
        out.append(
            t(
                "gradscale.read.range",
                lang,
                low=_titles([low], lang),
                low_norm=f"{finite[low]:.3g}",
                high=_titles([high], lang),
                high_norm=f"{finite[high]:.3g}",
                ratio=f"{finite[high] / finite[low]:.3g}",
            )
        )
    groups = [g for g in equal_groups(frame, col) if values[g[0]] > 0]
    if groups:
        parts = [t("gradscale.read.group", lang, norm=f"{values[g[0]]:.4g}", titles=_few(g, lang)) for g in groups[:3]]
        out.append(t("gradscale.read.equal", lang, groups=" ".join(parts)))
    if not second:
        level = frame.set_index("objective")["ratio_level"]
        mixed = [g for g in groups if {level[n] for n in g} == {"token", "sequence"}]
        if mixed:  # the group with the most sequence-level entries
            g = max(mixed, key=lambda g: sum(level[n] == "sequence" for n in g))
            seq = [n for n in g if level[n] == "sequence"]
            tok = [n for n in g if level[n] == "token"]
            out.append(
                t("gradscale.read.sequence", lang, seq=_few(seq, lang), tok=_few(tok, lang), norm=f"{values[g[0]]:.4g}")
            )
    weights = []
    for mode in dict.fromkeys(frame["loss_agg_mode"]):
        norm_length = frame.loc[frame["loss_agg_mode"] == mode, "norm_length"].iloc[0]
        lo, hi = weight_range(sample, mode, None if not math.isfinite(norm_length) else float(norm_length))
        weight = f"{lo:.3g}" if math.isclose(lo, hi, rel_tol=1e-9) else f"{lo:.3g}–{hi:.3g}"
        weights.append(t("gradscale.read.weight_part", lang, mode=mode, weight=weight))
    N = int(frame["tokens"].iloc[0])
    out.append(t("gradscale.read.weight", lang, parts=sep.join(weights), N=N, G=sample.group_size))
    if second:
        top = frame.sort_values("clip_fraction_second", ascending=False).head(3)
        parts = [
            t(
                "gradscale.read.clip_part",
                lang,
                title=r.title,
                clip=f"{r.clip_fraction_second:.0%}",
                first=f"{r.grad_norm:.3g}",
                second=f"{r.grad_norm_second:.3g}",
            )
            for r in top.itertuples()
            if math.isfinite(r.clip_fraction_second) and r.clip_fraction_second > 0
        ]
        if parts:
            out.append(t("gradscale.read.clipped", lang, parts=sep.join(parts)))
    return out


def scale_reading(sweep: pd.DataFrame, scale: float, lang: str) -> list[str]:
    """What the scale figure shows at c = ``scale``, as sentences in ``lang`` (numbers from ``sweep``,
    :func:`scale_sweep`): each optimizer's update relative to c = 1, with clipping on and off, and how
    close Adam's step is to lr x sqrt(n)."""
    out = []
    at = sweep[np.isclose(sweep["scale"], scale)]
    if at.empty:
        return out
    if not (sweep["delta_theta"] > 0).any():  # every advantage 0: nothing moves at any c
        return [t("gradscale.read.no_update", lang, title=get_algorithm(str(sweep["objective"].iloc[0])).title)]

    def rel(optimizer: str, clip: bool) -> str:
        row = at[(at["optimizer"] == optimizer) & (at["clip"] == clip)]
        return f"{float(row['relative'].iloc[0]):.3g}" if len(row) else "—"

    one = sweep[(sweep["scale"] == 1.0) & sweep["clip"]]
    g = float(one["grad_norm"].iloc[0]) if len(one) else math.nan
    out.append(
        t(
            "gradscale.read.scale",
            lang,
            c=f"{scale:g}",
            adam_on=rel("adamw", True),
            adam_off=rel("adamw", False),
            sgd_on=rel("sgd", True),
            sgd_off=rel("sgd", False),
            g=f"{g:.3g}",
            cg=f"{g * scale:.3g}",
            clip=f"{grad_clip():g}",
        )
    )
    adam = at[(at["optimizer"] == "adamw") & ~at["clip"]]
    if len(adam):
        r = adam.iloc[0]
        out.append(
            t(
                "gradscale.read.adam",
                lang,
                step=f"{r['delta_theta']:.4g}",
                reference=f"{r['adam_reference']:.4g}",
                n=f"{int(r['nonzero']):,}",
                lr=f"{r['lr']:g}",
            )
        )
    return out


# ---------------------------------------------------------------------------------- the predictions
# state: the page's settings (prediction_state): ``objective``, ``group_size``, ``prompt`` (normalised: ""
# when drawn or unreadable), ``lr``, ``seed``. The answers are computed by update_size on batch_at: the
# same update the page's figure draws.


def _last(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return value[-1] if value else None
    return value


def prediction_state(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The predictions' state from the page's settings, typed (``st.session_state``) or as URL text:
    ``gs_obj`` (a registry key; else GRPO), ``gs_G``, ``gs_prompt``, ``gs_lr`` and the sidebar's ``seed``,
    read as the step page reads its own (``rlviz.experiments.step.prediction_state``). A prompt equal to the one
    drawn at the same seed and G (:func:`drawn_prompt`, which the page's box shows) is read as ``""``: the
    drawn batch itself, so the box showing the prompt in use changes nothing it computes."""
    from .step import prediction_state as step_state

    state = step_state(
        {
            "st_obj": settings.get("gs_obj"),
            "st_G": settings.get("gs_G"),
            "st_prompt": settings.get("gs_prompt"),
            "st_lr": settings.get("gs_lr"),
            "seed": settings.get("seed"),
        }
    )
    if state["prompt"] and state["prompt"] == drawn_prompt(state["seed"], state["group_size"]):
        state["prompt"] = ""
    return state


@functools.lru_cache(maxsize=16)
def _size_cached(
    seed: int,
    group_size: int,
    prompt: str,
    objective: str,
    lr: float,
    scale: float,
    optimizer: str,
    clip: bool,
    registry: int,
) -> UpdateSize:
    return update_size(batch_at(seed, group_size, prompt), objective, lr, scale, optimizer, clip)


def _size(state: Mapping[str, Any], scale: float, optimizer: str, clip: bool) -> UpdateSize:
    objective = str(state["objective"])
    spec = get_algorithm(objective)
    return _size_cached(
        int(state["seed"]),
        int(state["group_size"]),
        str(state["prompt"]),
        objective,
        float(state["lr"]),
        scale,
        optimizer,
        clip,
        id(spec),
    )


def _relative(state: Mapping[str, Any], scale: float, optimizer: str, clip: bool) -> float:
    """||delta theta|| at c = ``scale`` over ||delta theta|| at c = 1. Raises ``ValueError`` naming ``prompt``
    when the objective gets no gradient from the group (nothing moves at c = 1)."""
    base = _size(state, 1.0, optimizer, clip).delta_theta
    if base <= 0:
        title = get_algorithm(str(state["objective"])).title
        raise ValueError(f"prompt: this group gives {title} no gradient (every advantage is 0): no update to compare")
    return _size(state, scale, optimizer, clip).delta_theta / base


def answer_adam(state: Mapping[str, Any]) -> float:
    """AdamW, clipping off: ||delta theta|| at c = :data:`ADAM_SCALE` over ||delta theta|| at c = 1."""
    return _relative(state, ADAM_SCALE, "adamw", False)


def answer_sgd(state: Mapping[str, Any]) -> float:
    """SGD, the trainer's clipping on: ||delta theta|| at c = :data:`SGD_SCALE` over ||delta theta|| at c = 1."""
    return _relative(state, SGD_SCALE, "sgd", True)


def fields_adam(state: Mapping[str, Any]) -> dict[str, str]:
    """The Adam question's words: the objective's title, c, the learning rate."""
    return {
        "title": get_algorithm(str(state["objective"])).title,
        "c": f"{ADAM_SCALE:g}",
        "lr": f"{float(state['lr']):g}",
    }


def fields_sgd(state: Mapping[str, Any]) -> dict[str, str]:
    """The SGD question's words: the objective's title, c, the learning rate and the max gradient norm."""
    return {
        "title": get_algorithm(str(state["objective"])).title,
        "c": f"{SGD_SCALE:g}",
        "lr": f"{float(state['lr']):g}",
        "clip": f"{grad_clip():g}",
    }


def explain_adam(state: Mapping[str, Any]) -> dict[str, str]:
    """The Adam explanation's numbers: both steps' sizes, lr x sqrt(n) and n."""
    one, big = _size(state, 1.0, "adamw", False), _size(state, ADAM_SCALE, "adamw", False)
    return fields_adam(state) | {
        "one": f"{one.delta_theta:.4g}",
        "big": f"{big.delta_theta:.4g}",
        "reference": f"{one.adam_reference:.4g}",
        "n": f"{one.nonzero:,}",
    }


def explain_sgd(state: Mapping[str, Any]) -> dict[str, str]:
    """The SGD explanation's numbers: ||g|| at c = 1 and at c, both steps' sizes."""
    one, small = _size(state, 1.0, "sgd", True), _size(state, SGD_SCALE, "sgd", True)
    return fields_sgd(state) | {
        "g": f"{one.grad_norm:.3g}",
        "cg": f"{small.grad_norm:.3g}",
        "one": f"{one.delta_theta:.3g}",
        "small": f"{small.delta_theta:.3g}",
    }
