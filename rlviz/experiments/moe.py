"""Mixture-of-experts routing: how much routing shifts when the policy updates, what that does to the
importance ratio, and what routing replay and GSPO's sequence ratio do about it.

GSPO (arXiv 2507.18071, §5.3) reports that after one gradient step about 10% of the experts a token
is routed to change in a 48-layer Qwen3-30B-A3B, so token ratios swing for reasons unrelated to the
update and GRPO needs routing replay to train stably; GSPO's sequence ratio averages that noise.

Two experiments on the shipped models (the MoE, and the dense model as the control):

- :func:`routing_shift`: one rollout batch, k optimizer steps on it under GRPO, GRPO + R2 replay
  and GSPO (each from the same weights; the dense model has no R2 arm). After each step it
  measures, on the plain token-ratio arm's weights (GRPO; ``measured_arm``), the share of (response token, layer) routes whose expert
  set changed, and the token log-ratio ``log pi/pi_old`` with the policy's own routing and with the
  old routing replayed (same weights: the difference is routing alone), and GSPO's sequence
  log-ratio; for every arm, the clip fraction and ratio variance its update saw.
- :class:`MoeLiveRun`: a live side-by-side run (GRPO, GRPO + routing replay, GSPO) on the MoE from
  one checkpoint and seed, with the runner's collapse flag.

Every number comes from the code that trains: ``rlviz.core.objectives.policy_loss`` for ratios,
clipping and the loss, ``rlviz.lm.moe`` hooks for routing, ``rlviz.lm.rollout`` for sampling.

Legend: n prompts, G group size, B = n * G responses, T response width, L full width, k updates.
"""

from __future__ import annotations

import contextlib
import copy
import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import torch

from rlviz.core.advantages import group_advantages
from rlviz.core.objectives import get_algorithm, policy_loss
from rlviz.i18n import cell, num, pct, t
from rlviz.lm.model import DEFAULT_MODEL_DIR
from rlviz.lm.moe import MOE_MODEL_DIR, capture_routing, is_moe, replay_routing, route_changed
from rlviz.lm.rollout import response_log_probs, sample_rollouts
from rlviz.lm.task import DEFAULT_MAX_NEW_TOKENS, sample_problems
from rlviz.lm.trainer import split_settings

from .runner import COLLAPSE, Arm, RunConfig, SideBySideRun, train_config, validate

__all__ = [
    "LIVE_PANELS",
    "REPLAY_ARMS",
    "architecture",
    "arm_names",
    "arms_words",
    "clip_reading",
    "exported_arms",
    "live_fields",
    "live_notes_text",
    "live_summary_table",
    "live_words",
    "make_live_run",
    "model_names",
    "ratio_readings",
    "ratio_words",
    "route_reading",
    "route_words",
    "shift_fields",
    "strip_words",
    "ARTICLE_ROUTE_CHANGE",
    "MODELS",
    "MODEL_URL_ALIASES",
    "REPLAY_VISIBLE",
    "SHIFT_ARMS",
    "arms_apart",
    "measured_arm",
    "sequence_objective",
    "LIVE_ARMS",
    "RoutingShiftSettings",
    "RoutingShiftResult",
    "routing_shift",
    "MoeLiveConfig",
    "MoeLiveRun",
]

# GSPO arXiv 2507.18071 §5.3: "roughly 10% of the experts activated for the new policy differ from
# those of the old policy" after each gradient update (Qwen3-30B-A3B-Base, 48 layers).
ARTICLE_ROUTE_CHANGE = 0.10

# replaying the old routing narrows the token log-ratio's spread (σ) by at least this share: routing adds
# a visible part of it (the MoE page's reading, and its prediction, use this one threshold)
REPLAY_VISIBLE = 0.10

# the shipped checkpoints the page offers: the MoE and its dense control
MODELS = {"moe": MOE_MODEL_DIR, "dense": DEFAULT_MODEL_DIR}
# the values the page's model choices (mo_model, mo_lmodel) carried in the URL before they carried the
# keys of MODELS: the labels they showed, the same in both languages then; older links still open them
MODEL_URL_ALIASES = {"MoE": "moe", "Dense": "dense"}

# the arms compared on one batch and live: GRPO, GRPO with the old routing replayed, GSPO
SHIFT_ARMS = (
    Arm("grpo", "grpo"),
    Arm("grpo_r2", "grpo", {"routing_replay": "R2"}),
    Arm("gspo", "gspo"),
)


def _replays(arm: Arm) -> bool:
    return arm.settings.get("routing_replay", "none") != "none"


def _ratio_level(arm: Arm) -> str:
    return get_algorithm(arm.objective).ratio_level


def measured_arm(arms=SHIFT_ARMS) -> Arm:
    """The arm whose weights :func:`routing_shift` measures the shift on: the first one with a
    token-level ratio (registry ``ratio_level``) and no routing replay (GRPO in :data:`SHIFT_ARMS`).

    Raises:
        ValueError: no such arm.
    """
    for arm in arms:
        if _ratio_level(arm) == "token" and not _replays(arm):
            return arm
    raise ValueError("arms: none has a token-level ratio without routing replay")


def sequence_objective(arms=SHIFT_ARMS) -> str:
    """The objective whose sequence ratio ``log s_i`` :func:`routing_shift` reads on the measured
    weights: the first arm's objective with a sequence-level ratio (GSPO in :data:`SHIFT_ARMS`).

    Raises:
        ValueError: no such arm.
    """
    for arm in arms:
        if _ratio_level(arm) == "sequence":
            return arm.objective
    raise ValueError("arms: none has a sequence-level ratio")


@dataclass
class RoutingShiftSettings:
    """One batch, k updates.

    Attributes:
        model: ``"moe"`` or ``"dense"`` (a key of :data:`MODELS`).
        updates: k, optimizer steps on the one batch (>= 1; as mu = k with one mini-batch).
        lr: AdamW learning rate (>= 0; 0 changes nothing, so no route changes).
        prompts: n prompts, each sampled ``group_size`` times.
        group_size: G >= 2 (group-relative advantages).
        temperature: sampling temperature (> 0); log-probs use the same.
        seed: the prompts, samples and nothing else (deterministic).
        grad_clip: max gradient norm (> 0).
        device: ``None`` for automatic, or a device name.
    """

    model: str = "moe"
    updates: int = 4
    lr: float = 1e-3
    prompts: int = 16
    group_size: int = 8
    temperature: float = 1.0
    seed: int = 0
    grad_clip: float = 1.0
    device: str | None = None

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first bad parameter."""
        if self.model not in MODELS:
            raise ValueError(f"model: {self.model!r} is not one of {', '.join(MODELS)}")
        for name, low in (("updates", 1), ("prompts", 1), ("group_size", 2)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < low:
                raise ValueError(f"{name}: must be a whole number >= {low}, got {v!r}")
        if self.updates > 50:
            raise ValueError(f"updates: at most 50, got {self.updates}")
        if self.prompts * self.group_size > 512:
            raise ValueError(f"prompts: {self.prompts} x G {self.group_size} is more than 512 responses")
        if not (isinstance(self.lr, (int, float)) and math.isfinite(self.lr) and 0 <= self.lr <= 0.1):
            raise ValueError(f"lr: must be a number in [0, 0.1], got {self.lr!r}")
        for name in ("temperature", "grad_clip"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
                raise ValueError(f"{name}: must be a finite number > 0, got {v!r}")


@dataclass
class RoutingShiftResult:
    """What :func:`routing_shift` measured.

    Attributes:
        settings: the settings it ran with.
        moe: whether the model routes (False: the dense control; no route or replay results).
        layers: MoE layers (0 for the dense model).
        route_change: columns ``update`` (1..k), ``layer`` (1..layers), ``share`` (of the response
            tokens' routes in that layer whose expert set differs from the old policy's; a token's
            route is the one at the position that computes its probability, the one before it);
            the GRPO arm's weights. Empty for the dense model.
        log_ratios: long frame, columns ``update``, ``kind`` (``"token_own"``: token log-ratio
            with the new policy's own routing; ``"token_replay"``: the same weights with the old
            routing replayed; ``"sequence"``: GSPO's sequence log-ratio ``log s_i``, own routing),
            ``value``, ``changed`` (the experts that computed the token's probability, at the
            position before it, changed in at least one layer; for ``sequence``: in at least one
            token of the response; always False for the dense model); the GRPO arm's weights, one
            row per real response token (per response for ``sequence``), the same tokens in the
            same order for each token kind. No ``token_replay`` rows for the dense model.
        arms: columns ``arm``, ``objective``, ``update`` (1..k), ``clip_fraction`` (what the clip
            acted on in that update's loss, ``policy_loss``), ``ratio_var`` (variance of the
            ratio the objective used), ``token_log_ratio_std`` (std of the token log-ratio the
            update saw).
        token: one response after the last update: ``prompt``, ``tokens`` (list of str),
            ``layers_changed`` (per token, layers whose experts changed at the position that
            computes its probability; ``None``
            for the dense model), ``log_ratio_own`` and ``log_ratio_replay`` per token (the
            latter ``None`` for the dense model). The response with the most changed routes.
        sampler_mismatch: share of response routes where a bfloat16 copy of the same weights (an
            inference engine's precision) chooses other experts than the float32 trainer: why R3
            (replaying the sampler's routing) needs a sampler that differs. NaN for dense.
        reward_mean: mean reward of the batch; ``signal_groups``: groups with a non-zero advantage.
    """

    settings: RoutingShiftSettings
    moe: bool
    layers: int
    route_change: pd.DataFrame
    log_ratios: pd.DataFrame
    arms: pd.DataFrame
    token: dict[str, Any]
    sampler_mismatch: float
    reward_mean: float
    signal_groups: int
    notes: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, float]:
        """Headline numbers: ``route_change_first`` / ``route_change_last`` (share after update 1
        and k, all layers), ``token_std_own`` / ``token_std_replay`` / ``sequence_std`` (std of the
        log-ratios after the last update), ``routing_only_std`` (std over tokens of own − replay
        after the last update: the part of the token log-ratio that routing alone causes; NaN for
        the dense model), ``tokens_changed_share`` (tokens whose experts changed in some layer),
        ``abs_own_changed`` / ``abs_own_unchanged`` / ``abs_replay_changed`` /
        ``abs_replay_unchanged`` (mean |log-ratio| of those tokens and of the others, with their own
        routing and with the old one replayed), ``replay_removed_share`` (the share of the changed
        tokens' extra |log-ratio| that replay takes away; NaN when they do not swing more),
        ``replay_spread_change`` ((σ replayed − σ own) / σ own), ``routing_share_of_own``
        (``routing_only_std`` / σ own), ``clip_<arm>`` (clip fraction at the last update)."""
        k = self.settings.updates
        out: dict[str, float] = {}
        rc = self.route_change
        out["route_change_first"] = float(rc[rc["update"] == 1]["share"].mean()) if len(rc) else math.nan
        out["route_change_last"] = float(rc[rc["update"] == k]["share"].mean()) if len(rc) else math.nan
        last = self.log_ratios[self.log_ratios["update"] == k]
        kinds = (("token_own", "token_std_own"), ("token_replay", "token_std_replay"), ("sequence", "sequence_std"))
        for kind, key in kinds:
            v = last[last["kind"] == kind]["value"]
            out[key] = float(v.std(ddof=0)) if len(v) else math.nan
        own = last[last["kind"] == "token_own"]["value"].to_numpy()
        rep = last[last["kind"] == "token_replay"]["value"].to_numpy()
        # the routing-only part of each token's log-ratio (rows are the same tokens in the same order)
        out["routing_only_std"] = float((own - rep).std()) if len(rep) else math.nan
        o, r = out["token_std_own"], out["token_std_replay"]
        out["replay_spread_change"] = (r - o) / o if o > 0 and math.isfinite(r) else math.nan
        out["routing_share_of_own"] = out["routing_only_std"] / o if o > 0 else math.nan
        # mean |log-ratio| of the tokens whose experts changed and of the others, own and replayed
        tok = last[last["kind"] == "token_own"]
        out["tokens_changed_share"] = float(tok["changed"].mean()) if len(tok) and len(rep) else math.nan
        for kind, name in (("token_own", "own"), ("token_replay", "replay")):
            d = last[last["kind"] == kind]
            for flag, which in ((True, "changed"), (False, "unchanged")):
                v = d[d["changed"] == flag]["value"].abs()
                out[f"abs_{name}_{which}"] = float(v.mean()) if len(v) else math.nan
        own_c, own_u, rep_c = out["abs_own_changed"], out["abs_own_unchanged"], out["abs_replay_changed"]
        extra = own_c - own_u  # how much more the changed tokens swing than the others
        out["replay_removed_share"] = (own_c - rep_c) / extra if extra > 0 and math.isfinite(rep_c) else math.nan
        for arm, d in self.arms.groupby("arm", sort=False):
            out[f"clip_{arm}"] = float(d[d["update"] == k]["clip_fraction"].iloc[0])
        return out


def _load(settings: RoutingShiftSettings):
    from rlviz.lm.model import load_policy

    return load_policy(MODELS[settings.model], settings.device)


@torch.no_grad()
def _forward(model, batch, temperature: float, replay: torch.Tensor | None = None):
    """``(log_prob (B, T), own routes (B, L, layers, k) or None)``: a no-grad forward on the batch,
    replaying ``replay`` if given (the capture still sees the routers' own choice)."""
    args = (batch.input_ids, batch.attention_mask, batch.position_ids, batch.prompt_width, temperature)
    if not is_moe(model):
        return response_log_probs(model, *args)[0], None
    with capture_routing(model) as cap:
        with replay_routing(model, replay) if replay is not None else contextlib.nullcontext():
            lp, _ = response_log_probs(model, *args)
    return lp, cap.indices(*batch.input_ids.shape)


def routing_shift(settings: RoutingShiftSettings, policy=None, on_update=None) -> RoutingShiftResult:
    """k updates on one rollout batch under each arm of :data:`SHIFT_ARMS`; see the module doc.

    Args:
        settings: a :class:`RoutingShiftSettings` (validated here).
        policy: optionally an already loaded ``(model, tokenizer)`` (copied, never changed).
        on_update: optional ``callable(done, total)`` called after each optimizer step (progress).

    Returns:
        :class:`RoutingShiftResult`.

    Raises:
        ValueError: a bad setting (the message names it).
    """
    settings.validate()
    model, tokenizer = policy if policy is not None else _load(settings)
    moe = is_moe(model)
    device = next(model.parameters()).device
    s = settings
    gen = torch.Generator().manual_seed(s.seed)
    problems = sample_problems(s.prompts, gen)
    batch = sample_rollouts(  # the trainer's forward below scores it
        model, tokenizer, problems, s.group_size, DEFAULT_MAX_NEW_TOKENS, s.temperature, gen, score=False
    )
    mask = batch.response_mask  # (B, T)
    real = mask > 0
    P = batch.prompt_width
    old, old_routes = _forward(model, batch, s.temperature)  # the trainer's old_log_prob and its routing

    sampler_mismatch = math.nan
    if moe:  # the same weights in bfloat16, as an inference engine holds them
        sampler = copy.deepcopy(model).to(torch.bfloat16)
        _, bf16_routes = _forward(sampler, batch, s.temperature)
        del sampler
        mismatch = route_changed(old_routes[:, P - 1 : -1], bf16_routes[:, P - 1 : -1])  # (B, T, layers)
        sampler_mismatch = float(mismatch[real.cpu()].float().mean())

    arms = [a for a in SHIFT_ARMS if moe or not _replays(a)]
    measured, seq_objective = measured_arm(arms), sequence_objective(arms)
    total = s.updates * len(arms)
    done = 0
    arm_rows, rc_rows, lr_rows = [], [], []
    token = {}
    for arm in arms:
        loss_params, train_params = split_settings(arm.objective, arm.settings)
        adv = group_advantages(batch.rewards.view(-1, s.group_size).cpu(), train_params["scale_rewards"])
        adv = adv.reshape(-1).to(device)  # (B,)
        policy_copy = copy.deepcopy(model).train()
        opt = torch.optim.AdamW(policy_copy.parameters(), lr=s.lr, weight_decay=0.0)
        replay = old_routes if _replays(arm) else None
        args = (batch.input_ids, batch.attention_mask, batch.position_ids, P, s.temperature)
        for j in range(1, s.updates + 1):
            with replay_routing(policy_copy, replay) if replay is not None else contextlib.nullcontext():
                lp, _ = response_log_probs(policy_copy, *args)
            # the batch's policy is the checkpoint, so it is also the reference of the KL term
            out = policy_loss(arm.objective, lp, old, adv, mask, ref_log_prob=old, **loss_params)
            token_lr = (lp.detach() - old)[real]
            arm_rows.append(
                {
                    "arm": arm.name,
                    "objective": arm.objective,
                    "update": j,
                    "clip_fraction": out.clip_fraction,
                    "ratio_var": float(out.ratio[real].double().var(unbiased=False)),
                    "token_log_ratio_std": float(token_lr.double().std(unbiased=False)),
                }
            )
            opt.zero_grad(set_to_none=True)
            out.loss.backward()
            torch.nn.utils.clip_grad_norm_(policy_copy.parameters(), s.grad_clip)
            opt.step()
            done += 1
            if arm is measured:  # the shift on the plain token-ratio arm's new weights
                policy_copy.eval()
                lp_own, new_routes = _forward(policy_copy, batch, s.temperature)
                own = lp_own - old
                changed = None
                if moe:  # the experts that computed each response token's probability: position P - 1 + t
                    changed = route_changed(old_routes[:, P - 1 : -1], new_routes[:, P - 1 : -1])  # (B, T, layers)
                    per_layer = changed[real.cpu()].float().mean(0)  # (layers,)
                    rc_rows += [{"update": j, "layer": i + 1, "share": float(x)} for i, x in enumerate(per_layer)]
                any_changed = (
                    changed.any(-1).to(device) if changed is not None else torch.zeros_like(real)
                )  # (B, T) bool
                flags = any_changed[real].tolist()
                lr_rows += [
                    {"update": j, "kind": "token_own", "value": float(v), "changed": c}
                    for v, c in zip(own[real].tolist(), flags)
                ]
                # the sequence ratio s_i of each response, as the sequence-level objective computes it
                seq = policy_loss(seq_objective, lp_own, old, adv, mask).ratio[:, 0].log()
                seq_changed = (any_changed & real).any(-1).tolist()
                lr_rows += [
                    {"update": j, "kind": "sequence", "value": float(v), "changed": c}
                    for v, c in zip(seq.tolist(), seq_changed)
                ]
                if moe:
                    lp_rep, _ = _forward(policy_copy, batch, s.temperature, replay=old_routes)
                    rep = lp_rep - old
                    lr_rows += [
                        {"update": j, "kind": "token_replay", "value": float(v), "changed": c}
                        for v, c in zip(rep[real].tolist(), flags)
                    ]
                if j == s.updates:
                    token = _token_example(batch, own, rep if moe else None, changed if moe else None)
                policy_copy.train()
            if on_update is not None:
                on_update(done, total)
        del policy_copy, opt
    return RoutingShiftResult(
        settings=s,
        moe=moe,
        layers=0 if old_routes is None else old_routes.shape[2],
        route_change=pd.DataFrame(rc_rows, columns=["update", "layer", "share"]),
        log_ratios=pd.DataFrame(lr_rows, columns=["update", "kind", "value", "changed"]),
        arms=pd.DataFrame(
            arm_rows, columns=["arm", "objective", "update", "clip_fraction", "ratio_var", "token_log_ratio_std"]
        ),
        token=token,
        sampler_mismatch=sampler_mismatch,
        reward_mean=float(batch.rewards.float().mean()),
        signal_groups=int((batch.rewards.view(-1, s.group_size).std(-1) > 0).sum()),
    )


def _token_example(batch, own: torch.Tensor, rep: torch.Tensor | None, changed: torch.Tensor | None) -> dict:
    """One response for the token strip: the one with the most changed (token, layer) routes (the
    longest response for the dense model)."""
    lengths = batch.response_lengths.cpu()
    if changed is not None:
        score = changed.sum(-1).float() * (batch.response_mask.cpu() > 0)  # (B, T)
        i = int(torch.argmax(score.sum(-1) + lengths * 1e-3))
    else:
        i = int(torch.argmax(lengths))
    n = int(lengths[i])
    return {
        "prompt": batch.problems[i].prompt,
        "tokens": batch.tokens[i],
        "reward": float(batch.rewards[i]),
        "layers_changed": None if changed is None else changed[i, :n].sum(-1).tolist(),
        "log_ratio_own": own[i, :n].tolist(),
        "log_ratio_replay": None if rep is None else rep[i, :n].tolist(),
    }


def arms_apart(ends: list[float], samples: int) -> tuple[float, float, float] | None:
    """Whether a run's arms end apart on held-out pass@1: ``(low, high, two_se)``, the lowest and
    highest end and two standard errors of a difference of two independent pass rates at their middle
    p, ``2 sqrt(2 p (1 - p) / samples)``; ``None`` with fewer than two finite ends or no samples.

    Args:
        ends: held-out pass@1 of each arm at its end (NaN where not measured).
        samples: held-out samples per arm.
    """
    finite = [float(v) for v in ends if math.isfinite(v)]
    if len(finite) < 2 or samples < 1:
        return None
    low, high = min(finite), max(finite)
    mid = (low + high) / 2
    return low, high, 2 * math.sqrt(2 * mid * (1 - mid) / samples)


# -- live side by side ------------------------------------------------------------------------


@dataclass
class MoeLiveConfig:
    """A live run on the shipped MoE: the arms of :data:`SHIFT_ARMS` (or a subset), one seed.

    Attributes:
        arms: names from :data:`SHIFT_ARMS` (``grpo``, ``grpo_r2``, ``gspo``) or ``grpo_r3``
            (GRPO replaying the sampler's routing, with the sampler in bfloat16).
        steps, lr, mu, mini_batches, prompts_per_step, group_size, seed: as ``TrainConfig``.
        heldout_samples: samples per held-out prompt for pass@1 before and after (0: skip).
        model: ``"moe"`` or ``"dense"`` (the control: no routing, so no replay arm).
        device: ``None`` for automatic, or a device name.
    """

    arms: tuple[str, ...] = ("grpo", "grpo_r2", "gspo")
    steps: int = 20
    lr: float = 1e-4
    mu: int = 2
    mini_batches: int = 2
    prompts_per_step: int = 16
    group_size: int = 8
    seed: int = 0
    heldout_samples: int = 4
    model: str = "moe"
    device: str | None = None

    def arm_list(self) -> list[Arm]:
        """The chosen arms, in the order of :data:`LIVE_ARMS`."""
        known = {a.name: a for a in LIVE_ARMS}
        for name in self.arms:
            if name not in known:
                raise ValueError(f"arms: {name!r} is not one of {', '.join(known)}")
        return [copy.deepcopy(a) for a in LIVE_ARMS if a.name in self.arms]

    def run_config(self) -> RunConfig:
        """The shared :class:`RunConfig`."""
        train = {
            "lr": self.lr,
            "mu": self.mu,
            "mini_batches": self.mini_batches,
            "prompts_per_step": self.prompts_per_step,
            "group_size": self.group_size,
            "seed": self.seed,
        }
        if self.model not in MODELS:
            raise ValueError(f"model: {self.model!r} is not one of {', '.join(MODELS)}")
        return RunConfig(
            steps=self.steps,
            heldout_samples=self.heldout_samples,
            train=train,
            device=self.device,
            model_dir=MODELS[self.model],
        )

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first bad parameter."""
        if not self.arms:
            raise ValueError("arms: choose at least one")
        arms = self.arm_list()
        if self.model == "dense" and any(_replays(a) for a in arms):
            raise ValueError("arms: routing replay needs the MoE model (the dense model has no router)")
        validate(arms, self.run_config())


# GRPO + R3: replay the routing of a bfloat16 sampler (with a float32 sampler, R3 would equal R2)
LIVE_ARMS = (
    *SHIFT_ARMS[:2],
    Arm("grpo_r3", "grpo", {"routing_replay": "R3"}, {"rollout_dtype": "bfloat16"}),
    SHIFT_ARMS[2],
)


class MoeLiveRun(SideBySideRun):
    """The side-by-side run of a :class:`MoeLiveConfig`; keep one per session.

    Raises:
        ValueError: a bad setting (the message names it).
    """

    def __init__(self, config: MoeLiveConfig, policy=None):
        config.validate()
        super().__init__(config.arm_list(), config.run_config(), policy=policy)
        self.moe_config = config


# -- the page's words and tables, in a language (the page draws them; no Streamlit here) ----------------

# the live run's figure panels (metrics of ``MoeLiveRun.metrics_frame``)
LIVE_PANELS = ("reward_mean", "pass_at_1", "token_ratio_var", "clip_fraction", "kl_ref", "route_change_fraction")
# the live arms that replay routing (refused on the dense model)
REPLAY_ARMS = frozenset(a.name for a in LIVE_ARMS if a.settings.get("routing_replay", "none") != "none")


def architecture(model_dir: str | None = None) -> dict[str, int]:
    """``layers``, ``experts`` and ``top_k`` (experts per token) of the shipped MoE (or ``model_dir``), read
    from its Hugging Face config."""
    from transformers import AutoConfig

    config = AutoConfig.from_pretrained(model_dir or MODELS["moe"])
    experts = getattr(config, "num_experts", None) or getattr(config, "num_local_experts", 0)
    return {"layers": config.num_hidden_layers, "experts": experts, "top_k": config.num_experts_per_tok}


def model_names(lang: str) -> dict[str, str]:
    """Model key of :data:`MODELS` -> its name in ``lang``."""
    return {m: t(f"moe.model_code.{m}", lang) for m in MODELS}


def arm_names(lang: str) -> dict[str, str]:
    """Live arm name of :data:`LIVE_ARMS` -> its name in ``lang``."""
    return {a.name: t(f"moe.arm.{a.name}", lang) for a in LIVE_ARMS}


def shift_fields(lang: str) -> dict[str, str]:
    """The one-batch experiment's parameters (:class:`RoutingShiftSettings`', the sidebar's) -> their widget's label."""
    keys = ("model", "updates", "lr", "prompts", "group_size")
    return {k: t(f"moe.{k}", lang) for k in keys} | {"device": t("side.device", lang)}


def live_fields(lang: str) -> dict[str, str]:
    """The live run's parameters (:class:`MoeLiveConfig`'s, the sidebar's) -> their widget's label."""
    keys = {
        "arms": "arms",
        "model": "model",
        "steps": "steps",
        "lr": "lr",
        "prompts_per_step": "prompts",
        "group_size": "group_size",
        "mu": "mu",
        "mini_batches": "mini_batches",
        "heldout_samples": "heldout",
    }
    return {k: t(f"moe.{v}", lang) for k, v in keys.items()} | {"device": t("side.device", lang)}


def ratio_words(k: int, lang: str) -> dict[str, str]:
    """The ``labels`` of the ratios' figure (``rlviz.plots.moe.log_ratio_figure``) after ``k`` updates, in ``lang``."""
    keys = (*(f"kind.{kind}" for kind in ("token_own", "token_replay", "sequence", "routing")), "log_ratio")
    words = {key: t(f"moe.{key}", lang) for key in (*keys, "routing_axis", "panel.routing")}
    words |= {"share": t("moe.token_share", lang), "title": t("moe.ratio_header", lang)}
    return words | {"panel.ratios": t("moe.panel.ratios", lang, k=k)}


def ratio_readings(result: RoutingShiftResult, hold_replay: bool, hold_sequence: bool, lang: str) -> list[str]:
    """What the ratios' figure shows, as paragraphs in ``lang``: how replay changes the spread of the token
    log-ratios (or the dense model's token against sequence spread), whether the tokens whose routes changed
    swing more, and GSPO's sequence spread. A reading that answers a waiting question (``hold_replay``,
    ``hold_sequence``) is left out."""
    summary, k, shift_lr = result.summary(), result.settings.updates, result.settings.lr
    own, seq = summary["token_std_own"], summary["sequence_std"]
    out = []
    if shift_lr == 0:
        out.append(t("moe.read_lr0", lang))
    elif result.moe and not hold_replay:
        rep, routing = summary["token_std_replay"], summary["routing_only_std"]
        change = summary["replay_spread_change"] if math.isfinite(summary["replay_spread_change"]) else 0.0
        if abs(change) < 0.005:
            effect = t("moe.effect.same", lang)
        elif change < 0:
            effect = t("moe.effect.narrowed", lang, pct=pct(-change))
        else:
            effect = t("moe.effect.widened", lang, pct=pct(change))
        # replay narrows the spread by a tenth or more: routing adds to it; else it only reshuffles tokens
        verdict = t("moe.verdict.routing" if change <= -REPLAY_VISIBLE else "moe.verdict.update", lang)
        numbers = dict(own=num(own), rep=num(rep), routing=num(routing), pct=pct(summary["routing_share_of_own"]))
        out.append(t("moe.read_replay", lang, k=k, effect=effect, verdict=verdict, **numbers))
    elif not result.moe and not hold_sequence:
        out.append(t("moe.read_dense", lang, k=k, own=num(own), seq=num(seq)))
    if shift_lr != 0 and result.moe and not hold_replay and math.isfinite(summary["abs_own_changed"]):
        own_c, own_u, rep_c = summary["abs_own_changed"], summary["abs_own_unchanged"], summary["abs_replay_changed"]
        numbers = dict(
            share=pct(summary["tokens_changed_share"]),
            own_changed=num(own_c, 4),
            own_unchanged=num(own_u, 4),
            rep_changed=num(rep_c, 4),
        )
        if not math.isfinite(own_u):  # every token's experts changed: nothing to compare with
            out.append(t("moe.changed.all", lang, **numbers))
        elif own_c <= own_u:
            out.append(t("moe.changed.not_more", lang, **numbers))
        elif rep_c >= own_c:  # replay did not calm them
            out.append(t("moe.read_changed_up", lang, **numbers))
        else:
            removed = summary["replay_removed_share"]  # share of the extra swing that replay takes away
            verdict = t("moe.changed.mostly_routing" if removed >= 0.5 else "moe.changed.mostly_update", lang)
            out.append(t("moe.read_changed", lang, removed=pct(removed), verdict=verdict, **numbers))
    if shift_lr != 0 and result.moe and not hold_sequence:
        if 0 < seq < own:
            out.append(t("moe.read_sequence", lang, seq=num(seq), own=num(own), pct=pct(seq / own)))
        else:
            out.append(t("moe.read_sequence_not", lang, seq=num(seq), own=num(own)))
    return out


def route_reading(result: RoutingShiftResult, lang: str) -> str:
    """The share of routes the first update changed against the article's, in ``lang``, and (after more
    updates) the last update's share and the layer that changed most."""
    summary, k, shift_lr, rc = result.summary(), result.settings.updates, result.settings.lr, result.route_change
    if shift_lr == 0:
        return t("moe.read_lr0", lang)
    first, last = summary["route_change_first"], summary["route_change_last"]
    gap = first - ARTICLE_ROUTE_CHANGE
    cmp = "equal" if abs(gap) < 0.005 else ("above" if gap > 0 else "below")
    article = f"{ARTICLE_ROUTE_CHANGE:.0%}"
    reading = t(
        "moe.read_share", lang, lr=f"{shift_lr:g}", first=pct(first), cmp=t(f"moe.cmp.{cmp}", lang), article=article
    )
    at_k = rc[rc["update"] == k]
    top = at_k.loc[at_k["share"].idxmax()] if len(at_k) else None
    if top is not None and k > 1:
        layer, share = int(top["layer"]), pct(float(top["share"]))
        reading += t("moe.read_share_more", lang, k=k, last=pct(last), layer=layer, layer_share=share)
    elif top is not None:
        reading += t("moe.read_share_layer", lang, layer=int(top["layer"]), layer_share=pct(float(top["share"])))
    return reading


def route_words(layers: int, lang: str) -> dict[str, str]:
    """The ``labels`` of the route-change figure (``rlviz.plots.moe.route_change_figure``) in ``lang``."""
    words = {key: t(f"moe.{key}", lang) for key in ("update", "share", "all_layers")}
    words["article"] = t("moe.article_line", lang, share=f"{ARTICLE_ROUTE_CHANGE:.0%}")
    return words | {f"layer.{i}": t("moe.layer", lang, i=i) for i in range(1, layers + 1)}


def arms_words(panels: tuple[str, ...], names: dict[str, str], lang: str) -> dict[str, str]:
    """The ``labels`` of the arms' figure (``rlviz.plots.moe.arm_metrics_figure``) over ``panels``, in ``lang``;
    the arms by ``names``."""
    words = {f"metric.{m}": t(f"moe.metric.{m}", lang) for m in panels}
    words |= {key: t(f"moe.{key}", lang) for key in ("update", "collapse")}
    words |= {f"name.{arm}": text for arm, text in names.items()}
    return words | {m: words[f"metric.{m}"] for m in panels}


def clip_reading(result: RoutingShiftResult, names: dict[str, str], lang: str) -> str:
    """The share of tokens each arm's clip acted on at the last update, as a Markdown list in ``lang``."""
    summary, k = result.summary(), result.settings.updates
    parts = [
        t("moe.read_clip_part", lang, share=pct(summary[f"clip_{arm}"]), arm=names.get(arm, arm))
        for arm in dict.fromkeys(result.arms["arm"])
    ]
    return t("moe.read_clip", lang, k=k) + "\n" + "".join(f"\n- {part}" for part in parts)


def strip_words(lang: str) -> dict[str, str]:
    """The ``labels`` of the one-response figure (``rlviz.plots.moe.token_strip_figure``) in ``lang``."""
    words = {key: t(f"moe.strip.{key}", lang) for key in ("layers_changed", "own", "replay", "routing")}
    return words | {"token": t("word.token", lang), "position": t("word.position", lang)}


def live_notes_text(lang: str) -> str:
    """The live section's explanation in ``lang``, with the collapse rule's numbers (``runner.COLLAPSE``)."""
    return t(
        "moe.live_text",
        lang,
        window=COLLAPSE["window"],
        drop=f"{COLLAPSE['reward_drop']:g}",
        se=f"{COLLAPSE['noise_se']:g}",
        jump=f"{COLLAPSE['jump']:g}",
        kl_floor=f"{COLLAPSE['kl_floor']:g}",
        var_floor=f"{COLLAPSE['ratio_var_floor']:g}",
    )


def make_live_run(config: MoeLiveConfig, lang: str) -> MoeLiveRun:
    """The :class:`MoeLiveRun` of ``config`` (loads the model).

    Raises:
        ValueError: naming ``arms`` in ``lang`` for a replay arm on the dense model (before the library
            refuses it in English), or whatever :class:`MoeLiveRun` raises."""
    if config.model == "dense" and REPLAY_ARMS & set(config.arms):
        raise ValueError(f"arms: {t('moe.dense_no_replay', lang)}")
    return MoeLiveRun(config)


def exported_arms(config: MoeLiveConfig, lang: str) -> dict[str, tuple]:
    """The arms' configs for the TRL / verl export: the arm's name in ``lang`` -> ``(objective, None, None,
    TrainConfig)``."""
    return {
        t(f"moe.arm_code.{a.name}", lang): (a.objective, None, None, train_config(a, config.run_config()))
        for a in config.arm_list()
    }


def live_words(names: dict[str, str], lang: str) -> dict[str, str]:
    """The ``labels`` of the live figure (``rlviz.plots.moe.live_arms_figure``) in ``lang``; arms by ``names``."""
    words = {m: t(f"metric.{m}", lang) for m in ("reward_mean", "pass_at_1", "clip_fraction", "kl_ref")}
    words |= {"step": t("word.step", lang)}
    words |= {m: t(f"moe.metric.{m}", lang) for m in ("token_ratio_var", "route_change_fraction")}
    words |= {"collapse": t("moe.collapse", lang), "smoothed": t("moe.smoothed", lang)}
    return words | {f"name.{arm}": text for arm, text in names.items()}


def live_summary_table(summary: pd.DataFrame, names: dict[str, str], lang: str) -> pd.DataFrame:
    """The live run's table: per arm of ``summary`` (``SideBySideRun.summary_frame``) held-out pass@1 start ->
    end, its gain, the collapse step, the mean route change, token-ratio variance and clip share, the steps;
    as text in ``lang``."""
    return pd.DataFrame(
        {
            t("moe.col.arm", lang): [names.get(a, a) for a in summary["arm"]],
            t("moe.col.heldout", lang): [
                f"{cell(a)} → {cell(b)}"
                for a, b in zip(summary["heldout_pass_at_1_start"], summary["heldout_pass_at_1_end"])
            ],
            t("moe.col.gain", lang): [cell(v, signed=True) for v in summary["heldout_gain"]],
            t("moe.col.collapse_step", lang): [cell(v, 0) for v in summary["collapse_step"]],
            t("moe.col.route_change_mean", lang): [pct(v) for v in summary["route_change_mean"]],
            t("moe.col.token_ratio_var_mean", lang): [num(v) for v in summary["token_ratio_var_mean"]],
            t("moe.col.clip_fraction_mean", lang): [pct(v) for v in summary["clip_fraction_mean"]],
            t("moe.col.steps", lang): [str(int(v)) for v in summary["steps"]],
        }
    )
