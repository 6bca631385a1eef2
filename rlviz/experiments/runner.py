"""One side-by-side runner: named arms train copies of the same tiny LM, one step at a time.

An :class:`Arm` is a name (the key of its curves, rows and labels), an objective (a name in the
registry ``rlviz.core.objectives.ALGORITHMS``), that objective's settings to override (loss and
training settings, e.g. ``{"epsilon_high": 0.28, "dynamic_sampling": True}``) and, optionally,
training settings of its own (``TrainConfig`` fields such as ``lr``) over the run's shared ones
(:class:`RunConfig`). Arms may share an objective and differ only in their settings (GRPO vs GRPO
+ dynamic sampling).

A :class:`SideBySideRun` owns the models: one copy of the policy per arm, all from the same
checkpoint and with the same seed (so step 1 sees the same prompts and, for the same sampling
settings, the same answers), and a frozen copy as the reference for KL. It advances one step at a
time (:meth:`~SideBySideRun.step`, :meth:`~SideBySideRun.step_arm`,
:meth:`~SideBySideRun.step_next`, or a few arms at once in threads:
:meth:`~SideBySideRun.step_parallel`), so a caller (a page, the CLI) can draw progress and stop between
steps without losing anything.

Thread safety: one ``threading.RLock`` per run. Every step and every reader holds it, so a run
never steps twice at once and a reader never sees an arm half-way through a step. A Streamlit
rerun (a widget change, a language switch, Stop) starts the next script run while the previous
one may still be inside a step; with the lock, the new one waits for that step to end.

Legend: n prompts per step, G group size, K cap on generation rounds (dynamic sampling).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import threading
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import pandas as pd
import torch

from rlviz.lm.tasks import get_task
from rlviz.lm.trainer import METRICS, RATIO_BIN_EDGES, TrainConfig, Trainer
from rlviz.serving import STEPS, check_run, match_torch_threads, request_trim, run_niced

__all__ = ["COLLAPSE", "DERIVED_METRICS", "SUMMARY_TAIL", "Arm", "RunConfig", "SideBySideRun", "collapse_flags"]

# TrainConfig fields a run or an arm may set (the objective and its settings live on the arm)
_TRAIN_FIELDS = tuple(f.name for f in dataclasses.fields(TrainConfig) if f.name not in ("algorithm", "settings"))
# columns metrics_frame() adds to the trainer's METRICS
DERIVED_METRICS = ("signal_groups", "rollouts_cum", "rounds", "collapse")
SUMMARY_TAIL = 5  # the summary's "_last5" columns: means over each arm's last this many steps

# The collapse flag (:func:`collapse_flags`): the reward falls while the KL or the ratio variance jumps.
COLLAPSE = {
    "window": 3,  # steps in the trailing mean of the reward
    "reward_drop": 0.15,  # the trailing mean this far (absolute, reward in [0, 1]) below its best so far ...
    "noise_se": 3.0,  # ... and at least this many standard errors of a trailing mean of the steps' rewards
    "jump": 3.0,  # KL to the reference, or the token-ratio variance, this many times its value at the best step ...
    "kl_floor": 0.1,  # ... and above this (nats per token): a KL of 0.001 tripling is no collapse
    "ratio_var_floor": 0.05,  # ... or, for the token-ratio variance, above this
}


def _jumped(xs: list[float], best_at: int, t: int, floor: float) -> bool:
    base, now = xs[best_at], xs[t]
    return math.isfinite(base) and math.isfinite(now) and now > COLLAPSE["jump"] * base and now > floor


def collapse_flags(
    reward: list[float], kl: list[float], ratio_var: list[float], samples: list[float] | None = None
) -> list[bool]:
    """Per step, whether the run looks collapsed: the reward falls while KL or ratio variance jumps.

    Step t is flagged when (thresholds in :data:`COLLAPSE`)

    - the trailing mean of ``reward`` over ``window`` steps is below the best trailing mean so far
      by at least ``reward_drop``, and by at least ``noise_se`` standard errors of the difference,
      ``sqrt(p (1 - p) (1/m + 1/m_best))`` with p the best mean and m, m_best the responses in the two
      windows (with 16 responses a step, a drop of 0.15 is noise), and
    - at the same step ``kl`` (KL to the reference) is above ``jump`` times its value at that best
      step and above ``kl_floor``, or ``ratio_var`` (variance of the token ratio in the updates) is
      above ``jump`` times its value there and above ``ratio_var_floor``.

    NaN values never flag.

    Args:
        reward, kl, ratio_var: one value per step, the same length.
        samples: responses behind each step's reward, the same length (``None``: no noise term).

    Returns:
        One bool per step.

    Raises:
        ValueError: the lengths differ.
    """
    n = len(reward)
    if not n == len(kl) == len(ratio_var) or (samples is not None and len(samples) != n):
        raise ValueError(f"kl: lengths differ ({n}, {len(kl)}, {len(ratio_var)})")
    c = COLLAPSE
    w = c["window"]
    flags, best, best_at, best_m = [], -math.inf, 0, 0.0
    for t in range(n):
        lo = max(0, t - w + 1)
        window = [r for r in reward[lo : t + 1] if math.isfinite(r)]
        trail = sum(window) / len(window) if window else math.nan
        m = sum(samples[lo : t + 1]) if samples is not None else 0.0
        if math.isfinite(trail) and trail > best:
            best, best_at, best_m = trail, t, m
        need = c["reward_drop"]
        if samples is not None and math.isfinite(best) and m > 0 and best_m > 0:
            p = min(max(best, 0.0), 1.0)  # the standard error of the difference of the two means
            need = max(need, c["noise_se"] * math.sqrt(p * (1 - p) * (1 / m + 1 / best_m)))
        fell = math.isfinite(trail) and best - trail >= need
        jumped = _jumped(kl, best_at, t, c["kl_floor"]) or _jumped(ratio_var, best_at, t, c["ratio_var_floor"])
        flags.append(bool(fell and jumped))
    return flags


@dataclass
class Arm:
    """One arm of a side-by-side run.

    Attributes:
        name: the arm's key: unique within a run; the ``arm`` column of every frame and the key of
            its label on a page (a registry name gets that algorithm's colour in the figures).
        objective: the registry name of its objective (``"grpo"``, ``"dapo"``, ...).
        settings: that objective's settings to override, loss and training alike (``epsilon_high``,
            ``beta``, ``loss_agg_mode``, ``dynamic_sampling``, ``overlong_shaping``, ...): see the
            objective's spec; the others keep the registry's (paper) defaults.
        train: ``TrainConfig`` fields for this arm only (``lr``, ``mu``, ``max_resample_rounds``,
            ...), over :attr:`RunConfig.train`.
        start: a local checkpoint directory this arm starts from, and keeps as its frozen reference
            (``None``: the run's, :attr:`RunConfig.model_dir` or its task's shipped one). Its tokenizer
            must be the run's (the same task's alphabet): the /warmstart page starts one arm from the
            task's warm-started checkpoint and one from a weak warm start.
    """

    name: str
    objective: str
    settings: dict[str, Any] = field(default_factory=dict)
    train: dict[str, Any] = field(default_factory=dict)
    start: str | None = None


@dataclass
class RunConfig:
    """What every arm of a run shares.

    Attributes:
        steps: RL steps per arm (>= 1).
        heldout_samples: samples per held-out prompt for pass@1 before the first step and after each
            arm's last step (96 fixed prompts never trained on); 0 skips the evaluation.
        train: ``TrainConfig`` fields shared by every arm (``prompts_per_step``, ``group_size``,
            ``temperature``, ``lr``, ``mu``, ``mini_batches``, ``max_new_tokens``, ``seed``, ...);
            the rest keep ``TrainConfig``'s defaults. The held-out evaluation samples with this
            temperature and length limit, seeded from this seed.
        device: ``None`` / ``"auto"`` or a torch device name.
        model_dir: ``None`` for the shipped checkpoint of the run's task (``train["task"]``, by default
            reversed addition's tiny LM: ``rlviz.lm.tasks.TaskSpec.model_dir``), or a local Hugging
            Face model directory chosen when the server starts (never typed in a browser).
    """

    steps: int = 30
    heldout_samples: int = 8
    train: dict[str, Any] = field(default_factory=dict)
    device: str | None = None
    model_dir: str | None = None


def _train_kwargs(where: str, values: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(values) - set(_TRAIN_FIELDS))
    if unknown:
        raise ValueError(f"{unknown[0]}: not a training setting ({where}); known: {', '.join(_TRAIN_FIELDS)}")
    return dict(values)


def train_config(arm: Arm, config: RunConfig) -> TrainConfig:
    """The :class:`TrainConfig` of ``arm`` in a run with ``config`` (not validated).

    Raises:
        ValueError: a key of ``config.train`` or ``arm.train`` that is not a ``TrainConfig`` field.
    """
    shared = _train_kwargs("train", config.train)
    own = _train_kwargs(f"arm {arm.name!r}", arm.train)
    return TrainConfig(algorithm=arm.objective, settings=dict(arm.settings), **{**shared, **own})


def validate(arms: Iterable[Arm], config: RunConfig) -> None:
    """Check a run before any model is loaded.

    Raises:
        ValueError: the message starts with the bad parameter's name: ``arms`` (none, or a name
        twice), ``objective`` (not in the registry), ``steps``, ``heldout_samples``, or any
        ``TrainConfig`` field or objective setting (``epsilon_high: ... (in DAPO, arm 'dapo')``:
        a setting's message ends with the arm it belongs to).
    """
    from rlviz.core.objectives import ALGORITHMS

    arms = list(arms)
    if not arms:
        raise ValueError("arms: choose at least one")
    names = [a.name for a in arms]
    if len(set(names)) != len(names):
        raise ValueError(f"arms: each name at most once, got {names}")
    if not isinstance(config.steps, int) or isinstance(config.steps, bool) or config.steps < 1:
        raise ValueError(f"steps: must be a whole number >= 1, got {config.steps!r}")
    if not isinstance(config.heldout_samples, int) or config.heldout_samples < 0:
        raise ValueError(f"heldout_samples: must be a whole number >= 0, got {config.heldout_samples!r}")
    shared = TrainConfig(**_train_kwargs("train", config.train))  # the held-out evaluation's settings
    if not (math.isfinite(float(shared.temperature)) and shared.temperature > 0):
        raise ValueError(f"temperature: must be a finite number > 0, got {shared.temperature}")
    if not isinstance(shared.max_new_tokens, int) or shared.max_new_tokens < 1:
        raise ValueError(f"max_new_tokens: must be a whole number >= 1, got {shared.max_new_tokens!r}")
    for arm in arms:
        if arm.objective not in ALGORITHMS:  # read at call time: an entry added later is known
            raise ValueError(f"objective: {arm.objective!r} is not one of {', '.join(ALGORITHMS)}")
        try:
            train_config(arm, config).validate()
        except ValueError as exc:  # the same setting exists in every arm: say which one is wrong
            raise ValueError(f"{exc} (in {ALGORITHMS[arm.objective].title}, arm {arm.name!r})") from None


def _clean(x):
    """NaN / inf as None, recursively (strict JSON)."""
    if isinstance(x, float):
        return None if math.isnan(x) or math.isinf(x) else x
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    return x


class SideBySideRun:
    """Arms trained side by side from one checkpoint, advanced one step at a time.

    Keep one per session (``st.session_state``), never in a cache shared across sessions: it owns
    its models, optimizers and generators.

    Args:
        arms: the arms, in the order they step and are listed.
        config: what they share (:class:`RunConfig`).
        policy: optionally an already loaded ``(model, tokenizer)`` to start from (copied, never
            trained); by default loaded from ``config.model_dir`` with ``from_pretrained``.

    Attributes:
        arms: ``{name: Arm}`` in order. ``config``: the :class:`RunConfig`.
        trainers: ``{name: rlviz.lm.trainer.Trainer}`` (their ``history``, ``ratio_hists`` and
            ``token_views`` hold every step's results; read them through the methods below,
            which hold the lock).
        lock: the run's ``threading.RLock``.

    Raises:
        ValueError: as :func:`validate`, or a bad ``model_dir`` / ``device``, or a run larger than
            the limits a shared server installed (``rlviz.serving.check_run``).
    """

    def __init__(self, arms: Iterable[Arm], config: RunConfig, policy=None):
        from rlviz.lm.model import load_policy

        arms = list(arms)
        validate(arms, config)
        train = [dataclasses.asdict(train_config(a, config)) for a in arms]
        check_run(config.steps, train, len(arms))  # a shared server's limits (none outside the app)
        self.arms: dict[str, Arm] = {a.name: a for a in arms}
        self.config = config
        self.lock = threading.RLock()
        task = get_task(TrainConfig(**config.train).task)
        model_dir = task.model_dir if config.model_dir is None else config.model_dir
        model, tokenizer = policy if policy is not None else load_policy(model_dir, config.device)
        check_run(config.steps, train, len(arms), parameters=sum(p.numel() for p in model.parameters()))
        self.tokenizer = tokenizer
        self.ref_model = copy.deepcopy(model).eval().requires_grad_(False)  # the frozen start = reference
        # an arm with its own start (Arm.start): that checkpoint, frozen, is its reference and its "start"
        self._refs: dict[str | None, Any] = {None: self.ref_model}
        starts = {None: model}
        for a in arms:
            if a.start is not None and a.start not in starts:
                starts[a.start], own_tokenizer = load_policy(a.start, config.device)
                if own_tokenizer.get_vocab() != tokenizer.get_vocab():
                    raise ValueError(f"start: {a.start!r} has another tokenizer than the run's (arm {a.name!r})")
                self._refs[a.start] = copy.deepcopy(starts[a.start]).eval().requires_grad_(False)
        self.trainers: dict[str, Trainer] = {
            a.name: Trainer(train_config(a, config), copy.deepcopy(starts[a.start]), tokenizer, self._refs[a.start])
            for a in arms
        }
        self._eval = TrainConfig(**config.train)  # the held-out evaluation's temperature, length, seed
        self._heldout: dict[str, float] = {}  # "start" and each arm's held-out pass@1 after its last step
        self._heldout_detail: dict[str, dict[str, Any]] = {}  # the same keys: pass@k, distinct right answers
        weakref.finalize(self, request_trim)  # a dropped run (a closed session): memory back to the system

    # -- progress --------------------------------------------------------------------------------

    @property
    def progress(self) -> dict[str, int]:
        """Steps done per arm (waits for a step in progress in another thread)."""
        with self.lock:
            return {name: t.step_count for name, t in self.trainers.items()}

    @property
    def done(self) -> bool:
        """True once every arm has done ``config.steps`` steps."""
        return all(n >= self.config.steps for n in self.progress.values())

    @property
    def level(self) -> bool:
        """True when every arm has done the same number of steps (no round cut short)."""
        return len(set(self.progress.values())) == 1

    @property
    def heldout(self) -> dict[str, float]:
        """Held-out pass@1 measured so far: ``"start"`` (the checkpoint), ``"start:<dir>"`` for an arm's own start
        (:meth:`start_key`), and each finished arm."""
        with self.lock:
            return dict(self._heldout)

    def pending(self) -> list[str]:
        """The arms :meth:`step` would advance now, in order: every unfinished arm when all are
        level, else only those behind the others (a round cut short between two arms)."""
        with self.lock:
            counts = self.progress
            target = min(min(counts.values()) + 1, self.config.steps)
            return [name for name, n in counts.items() if n < target]

    # -- stepping --------------------------------------------------------------------------------

    @property
    def heldout_detail(self) -> dict[str, dict[str, Any]]:
        """What each held-out evaluation measured besides pass@1, under the keys of :attr:`heldout`:
        ``pass_at_k`` (``{k: pass@k}``, k = 1, 2, 4, ... up to ``heldout_samples``, the unbiased
        estimator: ``rlviz.core.passk``), ``distinct_right`` (mean distinct right answers per prompt),
        ``distinct_right_share``, ``mean_length``, ``truncated``."""
        with self.lock:
            return {k: dict(v) for k, v in self._heldout_detail.items()}

    def _evaluate(self, model, key: str) -> float:
        """Held-out pass@1 of ``model`` on the run's task (its other figures kept under ``key``)."""
        from rlviz.lm.rollout import evaluate_pass_at_1

        c = self._eval
        gen = torch.Generator().manual_seed(10_000 + c.seed)  # the same draws for every model
        m = evaluate_pass_at_1(
            model,
            self.tokenizer,
            get_task(c.task).heldout_problems(),
            self.config.heldout_samples,
            c.max_new_tokens,
            c.temperature,
            gen,
        )
        keep = ("pass_at_k", "distinct_right", "distinct_right_share", "mean_length", "truncated")
        self._heldout_detail[key] = {name: m[name] for name in keep}
        return m["pass_at_1"]

    def step_arm(self, name: str, on_wait=None) -> dict[str, Any] | None:
        """One step of arm ``name``; its metrics, or ``None`` if it has finished.

        Held-out pass@1 is measured before the run's first step and after the arm's last step
        (when ``heldout_samples`` > 0). Holds the lock throughout. The step itself waits for its turn
        in the server's queue (``rlviz.serving.STEPS``), calling ``on_wait(ahead)`` while it waits.

        Raises:
            KeyError: no arm is called ``name``.
        """
        with self.lock:
            if self.trainers[name].step_count >= self.config.steps:
                return None
            self._start()
            return self._step_unlocked(name, on_wait)

    def _start(self) -> None:
        """Refuse a released run; measure the checkpoint's held-out pass@1 before the first step.
        The caller holds the lock."""
        if self.ref_model is None:
            raise ValueError("run: released (its models were freed when it finished); start a new run")
        if self.config.heldout_samples:
            for start, ref in self._refs.items():
                key = self.start_key(start)
                if key not in self._heldout:
                    self._heldout[key] = run_niced(lambda ref=ref, key=key: self._evaluate(ref, key))

    @staticmethod
    def start_key(start: str | None) -> str:
        """The key of :attr:`heldout` under which a start's checkpoint is measured: ``"start"`` for the
        run's, ``"start:<dir>"`` for an arm's own (:attr:`Arm.start`)."""
        return "start" if start is None else f"start:{start}"

    def _step_unlocked(self, name: str, on_wait=None) -> dict[str, Any] | None:
        """One step of arm ``name`` and, after its last, its held-out pass@1; ``None`` if it has
        finished. Touches only that arm's trainer and held-out entry, so the threads of
        :meth:`step_parallel` run it side by side while their caller holds the lock."""
        trainer = self.trainers[name]
        if trainer.step_count >= self.config.steps:
            return None
        with STEPS.turn(on_wait):  # the server's queue: at most its capacity of steps at once
            metrics = run_niced(trainer.step)  # below the explorers' priority on a server
        if trainer.step_count == self.config.steps and self.config.heldout_samples:
            self._heldout[name] = run_niced(lambda: self._evaluate(trainer.model, name))
        return metrics

    def step_parallel(self, workers: int = 1, on_wait=None, on_step=None) -> list[tuple[str, dict[str, Any]]] | None:
        """Step every arm of :meth:`pending` (a round, or the rest of one cut short) with ``workers``
        threads, the caller's among them: each takes the next arm not taken yet, in arm order, with
        its own turn in the server's step queue. Returns ``[(arm name, its metrics), ...]`` in arm
        order, or ``None`` once the run is done; ``workers`` = 1 is :meth:`step`.

        The arms share nothing they write (each has its own model, optimizer and generator; the
        reference is only read), so every arm's results are exactly those of one arm after another;
        torch computes with the interpreter lock released, so two threads on two cores take about
        0.6x the time (``benchmarks/job.py``). The caller holds the run's lock until the round is
        done, also when ``on_wait`` (called in the caller's thread only, while its own arm waits for
        a turn) or ``on_step`` raises: a reader waits, and the arms never drift more than one step
        apart (an arm left behind is :meth:`pending` first).

        Args:
            workers: threads that step arms at once (at most the arms pending are used).
            on_wait: ``on_wait(ahead)``, as in :meth:`step_arm`, for the caller's own arms.
            on_step: ``on_step(name, metrics)`` after each arm-step, in the thread that made it.

        Raises:
            ValueError: ``workers`` not a whole number >= 1; a released run. The first error of an
                arm's step, once every thread has stopped (the arms not started then are not stepped).
        """
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers: must be a whole number >= 1, got {workers!r}")
        with self.lock:
            todo = self.pending()
            if not todo:
                return None
            self._start()
            results: dict[str, Any] = {}
            errors: list[BaseException] = []
            queue = iter(todo)
            take = threading.Lock()

            def work(wait=None) -> None:
                match_torch_threads()  # a helper thread: torch's thread count, not OpenMP's one per core
                while not errors:
                    with take:
                        name = next(queue, None)
                    if name is None:
                        return
                    try:
                        results[name] = metrics = self._step_unlocked(name, wait)
                        if on_step is not None and metrics is not None:
                            on_step(name, metrics)
                    except BaseException as exc:  # noqa: BLE001 -- handed to the caller after the join
                        errors.append(exc)
                        return

            helpers = [threading.Thread(target=work, daemon=True) for _ in range(min(workers, len(todo)) - 1)]
            for h in helpers:
                h.start()
            try:
                work(on_wait)
            finally:
                for h in helpers:
                    h.join()
            if errors:
                raise errors[0]
            return [(name, results[name]) for name in todo if results.get(name) is not None]

    def step_next(self, on_wait=None) -> tuple[str, dict[str, Any]] | None:
        """One arm-step: the first arm of :meth:`pending` (round robin in arm order). Returns
        ``(arm name, its metrics)``, or ``None`` once the run is done. Whichever thread calls it,
        the arms never drift more than one step apart."""
        with self.lock:
            todo = self.pending()
            if not todo:
                return None
            return todo[0], self.step_arm(todo[0], on_wait)

    def step(self) -> dict[str, dict[str, Any]]:
        """One step of every unfinished arm (of each arm behind, if a round was cut short, so a
        call always ends with the arms level); returns their metrics by arm name."""
        out = {}
        with self.lock:
            for name in self.pending():
                m = self.step_arm(name)
                if m is not None:
                    out[name] = m
        return out

    @property
    def released(self) -> bool:
        """True once :meth:`release` has freed the models."""
        with self.lock:
            return self.ref_model is None

    def release(self) -> None:
        """Free the models, optimizers and sampler copies of every arm and the reference (each
        arm holds several copies of the model: policy, AdamW's two moments, gradients); keep every
        result (``metrics_frame``, ``summary_frame``, ``token_view``, ``ratio_histogram``,
        ``to_json`` read stored data only). A released run cannot step again: the app calls this
        when a run is done, and a stopped run keeps its models so that it can continue. Idempotent.
        """
        with self.lock:
            for trainer in self.trainers.values():
                trainer.release()
            self.ref_model = None
            self._refs.clear()
        request_trim()

    # -- results ---------------------------------------------------------------------------------

    def metrics_frame(self) -> pd.DataFrame:
        """Long frame, one row per (arm, step), in arm order.

        Columns: ``arm``, ``algorithm`` (its objective's registry name), ``step``, every metric of
        ``rlviz.lm.trainer.METRICS`` (NaN where one does not apply, e.g. the gate weight), then
        :data:`DERIVED_METRICS`: ``signal_groups`` (groups with a non-zero advantage that entered
        the loss: the effective batch; read from the arm's ``dynamic_sampling`` setting: with it
        every kept group has a signal, without it the all-equal groups are trained on too),
        ``rollouts_cum`` (responses sampled so far), ``rounds`` (generation rounds of n
        prompts this step) and ``collapse`` (:func:`collapse_flags` on the reward, the KL to the
        reference and the token-ratio variance).
        """
        rows = []
        with self.lock:
            for name, t in self.trainers.items():
                G, n = t.config.group_size, t.config.prompts_per_step
                filtered = bool(t.train_params["dynamic_sampling"])
                total = 0
                h = t.history
                flags = collapse_flags(
                    [m["reward_mean"] for m in h],
                    [m["kl_ref"] for m in h],
                    [m["token_ratio_var"] for m in h],
                    [m["rollouts"] for m in h],
                )
                for m, flag in zip(h, flags):
                    rollouts = int(m["rollouts"])
                    total += rollouts
                    seen = rollouts // G  # groups generated
                    zero = round(m["zero_adv_group_fraction"] * seen)
                    kept = int(m["kept_groups"])
                    derived = {
                        "signal_groups": kept if filtered else kept - zero,
                        "rollouts_cum": total,
                        "rounds": seen // n,
                        "collapse": flag,
                    }
                    rows.append({"arm": name, "algorithm": self.arms[name].objective, **m, **derived})
        return pd.DataFrame(rows, columns=["arm", "algorithm", "step", *METRICS, *DERIVED_METRICS])

    def summary_frame(self) -> pd.DataFrame:
        """One row per arm, in arm order.

        Columns: ``arm``, ``algorithm``, ``steps``, ``heldout_pass_at_1_start`` /
        ``heldout_pass_at_1_end`` / ``heldout_gain`` (NaN until measured), ``train_pass_at_1_last5``,
        ``response_length_last5`` (means over the last 5 steps), ``clip_fraction_mean``,
        ``entropy_last``, ``kl_ref_last``, ``rollouts_total``, ``signal_groups_mean``,
        ``signal_groups_total``, ``rollouts_per_signal_group``, ``seconds_total``,
        ``token_ratio_var_mean``, ``route_change_mean`` (NaN for a dense model),
        ``collapse_step`` (the first step flagged as collapsed, NaN if none), and from the same
        held-out evaluations as pass@1 (NaN until measured): ``heldout_pass_at_k_start`` /
        ``heldout_pass_at_k_end`` (pass@k at k = ``heldout_samples``, every sample of a prompt:
        the unbiased estimator, ``rlviz.core.passk``) and ``heldout_distinct_right_start`` /
        ``heldout_distinct_right_end`` (distinct right answers per prompt).
        """
        with self.lock:
            df = self.metrics_frame()
            heldout = dict(self._heldout)
            detail = self.heldout_detail
        k = self.config.heldout_samples

        def measured(key: str, what: str) -> float:
            d = detail.get(key)
            if d is None:
                return math.nan
            return float(d["pass_at_k"].get(k, math.nan)) if what == "pass_at_k" else float(d[what])

        rows = []
        for name, arm in self.arms.items():
            d = df[df["arm"] == name]
            tail = d.tail(SUMMARY_TAIL)
            start, end = heldout.get(self.start_key(arm.start), math.nan), heldout.get(name, math.nan)
            rollouts, signal = float(d["rollouts"].sum()), float(d["signal_groups"].sum())
            rows.append(
                {
                    "arm": name,
                    "algorithm": arm.objective,
                    "steps": len(d),
                    "heldout_pass_at_1_start": start,
                    "heldout_pass_at_1_end": end,
                    "heldout_gain": end - start,
                    "train_pass_at_1_last5": tail["pass_at_1"].mean(),
                    "response_length_last5": tail["response_length_mean"].mean(),
                    "clip_fraction_mean": d["clip_fraction"].mean(),
                    "entropy_last": d["entropy"].iloc[-1] if len(d) else math.nan,
                    "kl_ref_last": d["kl_ref"].iloc[-1] if len(d) else math.nan,
                    "rollouts_total": int(rollouts),
                    "signal_groups_mean": float(d["signal_groups"].mean()) if len(d) else math.nan,
                    "signal_groups_total": int(signal),
                    "rollouts_per_signal_group": rollouts / signal if signal else math.nan,
                    "seconds_total": d["seconds"].sum(),
                    "token_ratio_var_mean": d["token_ratio_var"].mean(),
                    "route_change_mean": d["route_change_fraction"].mean(),
                    "collapse_step": float(d.loc[d["collapse"], "step"].min())
                    if bool(d["collapse"].any())
                    else math.nan,
                    "heldout_pass_at_k_start": measured(self.start_key(arm.start), "pass_at_k"),
                    "heldout_pass_at_k_end": measured(name, "pass_at_k"),
                    "heldout_distinct_right_start": measured(self.start_key(arm.start), "distinct_right"),
                    "heldout_distinct_right_end": measured(name, "distinct_right"),
                }
            )
        return pd.DataFrame(rows)

    def entropy_frame(self) -> pd.DataFrame:
        """How each arm's policy entropy moved, beside what could explain it; one row per arm that
        has run a step, in arm order.

        Columns: ``arm``, ``algorithm``, ``steps``, ``entropy_first`` / ``entropy_last`` (nats per
        token at the first and last step), ``entropy_last5`` (mean over the last 5 steps),
        ``entropy_change`` (last minus first), ``clip_high_mean`` / ``clip_low_mean`` (mean share of
        tokens the upper bound clipped with A > 0, the lower bound with A < 0: TRL's
        ``clip_ratio/high_mean`` and ``low_mean``), ``signal_groups_mean`` (groups with a learning
        signal per update), ``rollouts_total``, ``heldout_gain`` (held-out pass@1 after minus
        before; NaN until measured). Numbers only: the page says what they show.
        """
        with self.lock:
            df = self.metrics_frame()
            heldout = dict(self._heldout)
        rows = []
        for name, arm in self.arms.items():
            d = df[df["arm"] == name]
            if d.empty:
                continue
            entropy = d["entropy"].astype(float)
            rows.append(
                {
                    "arm": name,
                    "algorithm": arm.objective,
                    "steps": len(d),
                    "entropy_first": float(entropy.iloc[0]),
                    "entropy_last": float(entropy.iloc[-1]),
                    "entropy_last5": float(entropy.tail(5).mean()),
                    "entropy_change": float(entropy.iloc[-1] - entropy.iloc[0]),
                    "clip_high_mean": float(d["clip_fraction_high"].mean()),
                    "clip_low_mean": float(d["clip_fraction_low"].mean()),
                    "signal_groups_mean": float(d["signal_groups"].mean()),
                    "rollouts_total": int(d["rollouts"].sum()),
                    "heldout_gain": heldout.get(name, math.nan)
                    - heldout.get(self.start_key(self.arms[name].start), math.nan),
                }
            )
        columns = ["arm", "algorithm", "steps", "entropy_first", "entropy_last", "entropy_last5", "entropy_change"]
        columns += ["clip_high_mean", "clip_low_mean", "signal_groups_mean", "rollouts_total", "heldout_gain"]
        return pd.DataFrame(rows, columns=columns)

    def token_view(self, step: int, arm: str) -> dict[str, Any] | None:
        """One group of step ``step`` (1-based) of ``arm``, with each token's gradient weight
        d loss / d log pi after that step's updates (autograd of the arm's loss) and at its first
        update; ``None`` if that step made no update.

        Raises:
            ValueError: a step the arm has not run. KeyError: no such arm.
        """
        with self.lock:
            views = self.trainers[arm].token_views
            if not 1 <= step <= len(views):
                raise ValueError(f"step: {arm} has run {len(views)} steps, got {step}")
            return views[step - 1]

    def ratio_histogram(self, step: int) -> pd.DataFrame:
        """Ratio histogram of every arm that has run step ``step`` (over all updates of that step):
        ``arm, algorithm, bin_left, bin_right, count, fraction``. Bins are log-spaced over
        [e^-0.5, e^0.5]; ratios outside are counted in the end bins."""
        rows = []
        with self.lock:
            for name, t in self.trainers.items():
                if not 1 <= step <= len(t.ratio_hists):
                    continue
                counts = t.ratio_hists[step - 1]
                total = max(sum(counts), 1)
                for k, n in enumerate(counts):
                    rows.append(
                        {
                            "arm": name,
                            "algorithm": self.arms[name].objective,
                            "bin_left": RATIO_BIN_EDGES[k],
                            "bin_right": RATIO_BIN_EDGES[k + 1],
                            "count": n,
                            "fraction": n / total,
                        }
                    )
        return pd.DataFrame(rows, columns=["arm", "algorithm", "bin_left", "bin_right", "count", "fraction"])

    def to_dict(self) -> dict[str, Any]:
        """Everything measured, as plain JSON-able data (NaN as ``None``): ``config``, ``arms``,
        ``heldout_pass_at_1``, ``heldout`` (:attr:`heldout_detail`, pass@k keyed by k as text), and per arm ``metrics``, ``ratio_histograms`` (with
        ``ratio_bin_edges``) and ``token_views``."""
        with self.lock:
            return _clean(
                {
                    "config": asdict(self.config),
                    "arms": [asdict(a) for a in self.arms.values()],
                    "heldout_pass_at_1": dict(self._heldout),
                    "heldout": {
                        key: {**d, "pass_at_k": {str(k): v for k, v in d["pass_at_k"].items()}}
                        for key, d in self._heldout_detail.items()
                    },
                    "metrics": {name: list(t.history) for name, t in self.trainers.items()},
                    "ratio_bin_edges": RATIO_BIN_EDGES,
                    "ratio_histograms": {name: list(t.ratio_hists) for name, t in self.trainers.items()},
                    "token_views": {name: list(t.token_views) for name, t in self.trainers.items()},
                }
            )

    def to_json(self) -> str:
        """:meth:`to_dict` as a strict JSON string."""
        return json.dumps(self.to_dict(), allow_nan=False)
