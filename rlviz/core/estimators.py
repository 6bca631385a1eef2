"""Advantage estimators for outcome rewards: one registry, ``ESTIMATORS``, of how a step turns each
response's reward into its advantage (GRPO, Dr.GRPO, batch std, RLOO, REINFORCE++, REINFORCE++-baseline,
ReMax, MaxRL, GDPO, GPG, OPO, Pass@k, and the per-token Optimal Token Baseline).

Legend: n groups (prompts), G responses per group, K reward components (GDPO), B = n * G responses.
Every estimator maps ``rewards [n, G]`` (plus, where it needs them, ``components [n, G, K]``, one
``greedy_rewards [n]`` per prompt, ``lengths [n, G]``) to ``advantages [n, G]``, one per response,
which the trainer broadcasts over the response's tokens. The one entry point is
:func:`estimate_advantages`; the trainer (``rlviz.lm.trainer``), the advantages page and its
predictions all call it.

A per-token estimator (``needs`` holds ``"token_stats"``: :attr:`EstimatorSpec.per_token`) gives one
advantage per token, ``[n, G, T]``, from the rewards and the sampled tokens' statistics under the old
policy: ``old_log_probs [n, G, T]``, ``sum_pi_squared [n, G, T]`` (Σ_v π(v)² over the vocabulary at each
position) and the ``response_mask [n, G, T]``. Its entry point is :func:`estimate_token_advantages`, which
also broadcasts every outcome estimator over the tokens; :func:`estimate_advantages` refuses it (rewards
alone do not determine it), and the pages read that from the registry.

Framework sources (read for this module; facts, not code, carried over):
- verl ``verl/trainer/ppo/core_algos.py`` (``algorithm.adv_estimator``): ``compute_grpo_outcome_advantage``
  (``grpo``, ``norm_adv_by_std_in_grpo``), ``compute_rloo_outcome_advantage`` (``rloo``),
  ``compute_reinforce_plus_plus_outcome_advantage`` (``reinforce_plus_plus``),
  ``compute_reinforce_plus_plus_baseline_outcome_advantage`` (``reinforce_plus_plus_baseline``),
  ``compute_remax_outcome_advantage`` (``remax``; the greedy baseline is generated in
  ``verl/trainer/ppo/ray_trainer.py`` with ``do_sample=False``); ``verl/utils/torch_functional.py``
  ``masked_whiten`` (token-weighted mean and Bessel-corrected variance, ``(x - mean) * rsqrt(var + 1e-8)``).
- TRL ``trl/trainer/grpo_trainer.py`` (``_generate_and_score_completions``): ``scale_rewards`` =
  ``"group"`` / ``"batch"`` / ``"none"`` and ``multi_objective_aggregation="normalize_then_sum"`` (GDPO).
- GDPO's own verl fork: NVlabs/GDPO ``verl-GDPO/verl/trainer/ppo/ray_trainer.py``, ``adv_estimator == 'gdpo'``
  (volcengine/verl's ``core_algos.py`` of 2026-01-29 has no ``gdpo``).
- Optimal Token Baseline: verl 0.9.1 ``core_algos.py`` ``compute_optimal_token_baseline_advantage``
  (``optimal_token_baseline``), Σπ² from ``verl/utils/torch_functional.py``
  ``calculate_sum_pi_squared_from_logits`` (``actor.calculate_sum_pi_squared=True``), passed in by
  ``verl/trainer/ppo/ray_trainer.py`` ``compute_advantage`` with ``old_log_probs`` and ``rollout_is_weights``.
- MaxRL: the authors' project page (Zanette-Labs/MaxRL ``site/code.html``, the one-line diff to verl's
  GRPO advantage: divide by the group's mean reward instead of its std).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch

from .advantages import _in_dtype, group_advantages
from .validate import STAT_DTYPE, check_tensor, check_whole

__all__ = [
    "ESTIMATORS",
    "EstimatorSpec",
    "WHITEN_EPS",
    "estimate_advantages",
    "estimate_token_advantages",
    "expected_group_weight",
    "get_estimator",
    "reference_batch",
    "whiten",
]

GROUP_EPS = 1e-6  # added to the group std or mean (verl ``epsilon``; TRL uses 1e-4)
WHITEN_EPS = 1e-8  # inside rsqrt(var + eps) of batch whitening (verl ``masked_whiten``)
OTB_EPS = 1e-8  # added to the Optimal Token Baseline's denominator (verl ``epsilon``)
NEEDS = frozenset({"greedy", "components", "token_stats"})  # the values ``EstimatorSpec.needs`` may hold


@dataclass(frozen=True)
class EstimatorSpec:
    """One advantage estimator.

    Attributes:
        name: registry key (``grpo``, ``rloo``, ...).
        title: display name.
        paper: short citation; ``arxiv``: arXiv id; ``equation``: where the estimator is defined.
        summary: one line per language (``{"en": ..., "zh": ...}``); ``changes``: what it changes
            relative to GRPO's z-score.
        latex: the advantage of response i of a group, in LaTeX (``,\\quad `` separates lines).
        trl: the TRL ``GRPOConfig`` arguments that select it, as text, or ``None`` (TRL has none).
        verl: the verl setting that selects it (``algorithm.adv_estimator=...``), or ``None``.
        function: ``(rewards [n, G], components [n, G, K] | None, greedy [n] | None,
            lengths [n, G] | None) -> [n, G]``; inputs already checked by :func:`estimate_advantages`.
            A per-token estimator's: ``(rewards [n, G], old_log_probs [n, G, T], sum_pi_squared
            [n, G, T], mask [n, G, T], is_weights [n, G, T] | None) -> [n, G, T]``, float64, inputs
            checked by :func:`estimate_token_advantages`.
        baseline: what is subtracted: ``"group"`` (the group's mean or leave-one-out mean),
            ``"batch"`` (the batch mean only) or ``"greedy"`` (the reward of a greedy response).
        batch_statistics: True where a statistic of the whole batch enters (a batch std or batch
            whitening): then one group's advantages depend on the other groups.
        needs: extra inputs it requires: ``"greedy"`` (ReMax), ``"components"`` (GDPO; without
            them it uses the one reward as its only component), ``"token_stats"`` (a per-token
            estimator: the old policy's log-prob of each sampled token and Σπ² at each position, so
            rewards alone cannot show it; :attr:`per_token`).
        nonnegative: its formula needs rewards >= 0 (MaxRL divides by the group's mean reward).
        length_note: ``{"en", "zh"}``: how response length enters it, or ``None`` where it does not.
        style: ``{"color", "dash"}`` for its charts, or ``None`` (the plots assign one).
        trl_args: the TRL ``GRPOConfig`` arguments that select it (the config export writes them),
            ``None`` where TRL's ``GRPOTrainer`` has no equivalent.
        verl_args: the verl overrides that select it, ``None`` where verl has none.
    """

    name: str
    title: str
    paper: str
    arxiv: str
    equation: str
    summary: dict[str, str]
    changes: dict[str, str]
    latex: str
    trl: str | None
    verl: str | None
    function: Callable = field(repr=False)
    baseline: str = "group"
    batch_statistics: bool = False
    needs: frozenset[str] = frozenset()
    nonnegative: bool = False
    length_note: dict[str, str] | None = None
    style: dict[str, str] | None = None
    trl_args: dict[str, Any] | None = None
    verl_args: dict[str, Any] | None = None

    def __post_init__(self):
        if self.baseline not in ("group", "batch", "greedy"):
            raise ValueError(f"baseline: must be 'group', 'batch' or 'greedy', got {self.baseline!r}")
        unknown = set(self.needs) - NEEDS
        if unknown:
            raise ValueError(f"needs: {sorted(unknown)} not among {', '.join(sorted(NEEDS))}")
        if not callable(self.function):
            raise ValueError(f"function: {self.name} needs an advantage function")

    @property
    def per_token(self) -> bool:
        """True for an estimator that gives one advantage per token from the tokens' statistics
        (``"token_stats"`` in ``needs``): :func:`estimate_token_advantages` computes it, and a page
        that holds rewards only cannot show it."""
        return "token_stats" in self.needs


# ----------------------------------------------------------------------------------------------
# The estimators (each: rewards [n, G], components [n, G, K] | None, greedy [n] | None,
# lengths [n, G] | None -> advantages [n, G])
# ----------------------------------------------------------------------------------------------


def whiten(values: torch.Tensor, lengths: torch.Tensor | None = None) -> torch.Tensor:
    """Batch whitening ``(x - mean) / sqrt(var + 1e-8)`` over every response of the batch.

    As verl's ``masked_whiten`` (``verl/utils/torch_functional.py``) on per-token advantages that are
    constant along each response: with ``lengths``, each response counts once per token (mean and
    variance weighted by length; Bessel's correction over the token count), so long responses move
    the batch mean; without, each response counts once. Computed in float64 (the first value
    subtracted before the mean, the variance on the deviations scaled to at most 1, so nearly equal
    values keep their signs and huge ones do not overflow), returned in the dtype of ``values``.

    Args:
        values: [n, G] one value per response (any shape works: every entry is one response).
        lengths: [n, G] response lengths in tokens (finite, > 0), or ``None``.

    Returns:
        [n, G]; all zeros where every value is equal or the batch holds a single token (no
        variance: verl raises there).

    Raises:
        ValueError: ``values`` not a tensor of finite numbers or empty; ``lengths`` of another
            shape, not finite or not > 0.
    """
    values = check_tensor(values, "values")
    if values.numel() == 0:
        raise ValueError(f"values: expected at least one value, got shape {tuple(values.shape)}")
    if not bool(torch.isfinite(values).all()):
        raise ValueError("values: contains NaN or inf")
    dtype = values.dtype
    v = values.to(STAT_DTYPE)
    if lengths is None:
        w = torch.ones_like(v)
    else:
        w = check_tensor(lengths, "lengths").to(STAT_DTYPE)
        if w.shape != v.shape:
            raise ValueError(f"lengths: expected shape {tuple(v.shape)}, got {tuple(w.shape)}")
        if not bool((torch.isfinite(w) & (w > 0)).all()):
            raise ValueError("lengths: every response length must be finite and > 0")
    total = w.sum()
    if not bool(torch.isfinite(total)):
        raise ValueError("lengths: their sum overflows float64")
    if float(total) <= 1 or bool((v == v.reshape(-1)[0]).all()):
        return torch.zeros_like(values)
    shifted = v - v.reshape(-1)[0]  # exact for nearly equal values (Sterbenz)
    centred = shifted - (w * shifted).sum() / total  # (n, G)
    scale = centred.abs().max().clamp(min=1.0)  # divide the squares' inputs by it: no overflow
    unit = centred / scale
    var = (w * unit * unit).sum() / (total - 1)  # Bessel over the count, in units of scale^2
    out = unit * torch.rsqrt(var + WHITEN_EPS / (scale * scale))
    return _in_dtype(out, dtype, "values")


def _grpo(rewards, components, greedy, lengths):
    # A_i = (R_i - mean_G R) / (std_G R + eps), DeepSeekMath arXiv 2402.03300 §4.1.2
    return group_advantages(rewards, "group", GROUP_EPS)


def _dr_grpo(rewards, components, greedy, lengths):
    # A_i = R_i - mean_G R, Dr.GRPO arXiv 2503.20783 §3.1 (no std)
    return group_advantages(rewards, "none")


def _batch_std(rewards, components, greedy, lengths):
    # A_i = (R_i - mean_G R) / (std_batch R + eps): TRL scale_rewards="batch"
    return group_advantages(rewards, "batch", GROUP_EPS)


def _rloo(rewards, components, greedy, lengths):
    # A_i = R_i - mean_{j != i} R_j = G / (G - 1) (R_i - mean_G R), arXiv 2402.14740 (verl rloo)
    G = rewards.shape[1]
    if G < 2:
        return torch.zeros_like(rewards)
    return group_advantages(rewards, "none") * (G / (G - 1))


def _reinforce_pp(rewards, components, greedy, lengths):
    # A_i = whiten_batch(R_i), REINFORCE++ arXiv 2501.03262 (verl reinforce_plus_plus, gamma = 1)
    return whiten(rewards, lengths)


def _reinforce_pp_baseline(rewards, components, greedy, lengths):
    # A_i = whiten_batch(R_i - mean_G R), verl reinforce_plus_plus_baseline
    return whiten(group_advantages(rewards, "none"), lengths)


def _remax(rewards, components, greedy, lengths):
    # A_i = R_i - R(greedy response of the prompt), ReMax arXiv 2310.10505 Alg. 1 (verl remax)
    return rewards - greedy[:, None]


def _maxrl(rewards, components, greedy, lengths):
    # A_i = (R_i - mean_G R) / (mean_G R + eps): MaxRL arXiv 2602.02710 (authors' verl diff); for 0/1
    # rewards A_i = R_i / p_hat - 1, so a correct answer weighs 1 / p_hat. An all-zero group gets 0.
    mean = rewards.mean(dim=1, keepdim=True)  # (n, 1)
    return group_advantages(rewards, "none") / (mean + GROUP_EPS)


def _gdpo(rewards, components, greedy, lengths):
    # A = whiten_batch(sum_k (R_k - mean_G R_k) / (std_G R_k + eps)), GDPO arXiv 2601.05242 (NVlabs
    # verl-GDPO: compute_grpo_outcome_advantage per reward, sum, masked_whiten; TRL
    # multi_objective_aggregation="normalize_then_sum" with reward_weights all 1)
    comps = rewards[..., None] if components is None else components  # (n, G, K)
    summed = sum(group_advantages(comps[..., k], "group", GROUP_EPS) for k in range(comps.shape[-1]))
    return whiten(summed, lengths)


def _gpg(rewards, components, greedy, lengths):
    # A_i = alpha (R_i - mean_G R), alpha = B / max(1, #{j : R_j != 0}) over the whole batch: GPG arXiv
    # 2504.02546 (α = B / M), as verl 0.9.1 computes it (compute_gpg_outcome_advantage, f_norm = 1; its alpha counts
    # the batch's non-zero rewards, the paper's M its valid samples). A group of one gets 0, as every group
    # baseline here (verl takes its mean as 0: A = alpha R).
    alpha = rewards.numel() / max(int(torch.count_nonzero(rewards)), 1)
    return alpha * group_advantages(rewards, "none")


def _opo(rewards, components, greedy, lengths):
    # A_i = R_i - sum_j |o_j| R_j / sum_j |o_j|: OPO arXiv 2505.23585 (the optimal baseline for an exactly
    # on-policy step, weighted by length; verl compute_opo_outcome_advantage); a singleton group's baseline is 0
    # in verl (A = R); a group of one gets 0 here, as under every group baseline of this registry. Without
    # lengths every response weighs 1 (the group mean). The baseline is formed as R_0 + the weighted mean of
    # R - R_0, so a group of equal rewards gets exactly 0.
    w = torch.ones_like(rewards) if lengths is None else lengths
    if rewards.shape[1] == 1:
        return torch.zeros_like(rewards)
    first = rewards[:, :1]  # (n, 1)
    baseline = first + (w * (rewards - first)).sum(1, keepdim=True) / w.sum(1, keepdim=True)
    return rewards - baseline


def _grpo_passk(rewards, components, greedy, lengths):
    # Pass@k (Tang et al., arXiv 2503.19595) as verl 0.9.1's grpo_passk computes it (compute_grpo_passk_outcome_advantage,
    # norm_adv_by_std_in_grpo = True): only each group's best response gets an advantage, (R_max - R_second) /
    # (std_G R + eps); every other response 0. verl refuses a group of one; here it gets 0.
    n, G = rewards.shape
    out = torch.zeros_like(rewards)
    if G < 2:
        return out
    top, idx = torch.topk(rewards, 2, dim=1)  # (n, 2): ties give R_max - R_second = 0 whichever index wins
    gap = (top[:, 0] - top[:, 1]) / (rewards.std(dim=1) + GROUP_EPS)  # (n,)
    out[torch.arange(n), idx[:, 0]] = gap
    return out


def _optimal_token_baseline(rewards, old_log_probs, sum_pi_squared, mask, is_weights):
    # Optimal Token Baseline (arXiv 2602.07078), as verl 0.9.1 computes it (compute_optimal_token_baseline_advantage,
    # handle_zero_tail = True, epsilon = 1e-8), for an outcome reward (the return G_t is R at every response token):
    #   w_t = 1 - 2 pi_t + sum_v pi(v)^2  (= ||e_t - pi||^2, the squared score norm of the token's logits), times
    #   rho_t^2 with rollout IS weights; W_t = sum_{j <= t} w_j over the response's tokens;
    #   B_t = sum_i R_i W_{i,t} / (sum_i W_{i,t} + eps) over the group's responses that reach t; A_{i,t} = R_i - B_t.
    # The baseline is formed around the group's first reward (R_0 + the weighted mean of R - R_0), so a group of
    # equal rewards gets exactly 0 (verl's num / (den + eps) leaves about eps R / sum W). handle_zero_tail: past
    # the second-longest response, the one longest response's baseline is 0 (A = R) instead of its own reward.
    # A group of one gets 0 here, as under every group baseline of this registry (verl: no baseline, A = R).
    n, G, T = old_log_probs.shape
    if G < 2:
        return torch.zeros_like(old_log_probs)
    w = 1.0 - 2.0 * old_log_probs.exp() + sum_pi_squared  # (n, G, T)
    if is_weights is not None:
        w = w * is_weights.square()
    W = (w * mask).cumsum(dim=-1) * mask  # (n, G, T): the path's accumulated variance, 0 past the end
    first = rewards[:, :1, None]  # (n, 1, 1)
    centred = (rewards[..., None] - first) * W  # (n, G, T)
    baseline = first + centred.sum(1, keepdim=True) / (W.sum(1, keepdim=True) + OTB_EPS)  # (n, 1, T)
    baseline = baseline.expand(n, G, T).clone()
    lengths = mask.sum(-1)  # (n, G)
    top, _ = torch.topk(lengths, 2, dim=1)  # (n, 2): the longest and second-longest lengths
    longest = lengths == top[:, :1]  # (n, G)
    lone = (longest.sum(1) == 1) & (top[:, 0] > top[:, 1])  # (n,): one response longer than every other
    tail = torch.arange(T, dtype=lengths.dtype)[None, None, :] >= top[:, 1, None, None]  # (n, 1, T)
    baseline = baseline.masked_fill(tail & (longest & lone[:, None])[..., None], 0.0)
    return (rewards[..., None] - baseline) * mask


_WHITEN_LENGTH_NOTE = {
    "en": "verl whitens per token (masked_whiten over the response mask): a response counts once per token, "
    "so long responses pull the batch mean and variance.",
    "zh": "verl 按 token 做白化（在 response mask 上 masked_whiten）：每条回答按其 token 数计入，长回答会拉动批次均值和方差。",
}

_SPECS: tuple[EstimatorSpec, ...] = (
    EstimatorSpec(
        name="grpo",
        title="GRPO (z-score)",
        paper="Shao et al. 2024, DeepSeekMath",
        arxiv="2402.03300",
        equation="§4.1.2",
        summary={
            "en": "Subtract the group's mean reward, divide by the group's std.",
            "zh": "减去组内平均奖励，再除以组内标准差。",
        },
        changes={
            "en": "the reference: a group of G answers is its own baseline",
            "zh": "基准：G 条回答的组就是自己的基线",
        },
        latex=r"A_i = \frac{R_i - \operatorname{mean}(R_{1..G})}{\operatorname{std}(R_{1..G}) + \epsilon}",
        trl='scale_rewards="group"',
        verl="algorithm.adv_estimator=grpo (norm_adv_by_std_in_grpo=True)",
        function=_grpo,
        trl_args={"scale_rewards": "group"},
        verl_args={"algorithm.adv_estimator": "grpo", "algorithm.norm_adv_by_std_in_grpo": True},
    ),
    EstimatorSpec(
        name="dr_grpo",
        title="Dr.GRPO (mean only)",
        paper="Liu et al. 2025, Understanding R1-Zero-Like Training",
        arxiv="2503.20783",
        equation="§3.1",
        summary={
            "en": "Subtract the group's mean reward; no division by the std.",
            "zh": "只减去组内平均奖励，不除以标准差。",
        },
        changes={
            "en": "drops the std: no extra weight for groups that are nearly all right or all wrong",
            "zh": "去掉标准差：几乎全对或全错的组不再被额外放大",
        },
        latex=r"A_i = R_i - \operatorname{mean}(R_{1..G})",
        trl='scale_rewards="none"',
        verl="algorithm.adv_estimator=grpo, algorithm.norm_adv_by_std_in_grpo=False",
        function=_dr_grpo,
        trl_args={"scale_rewards": "none"},
        verl_args={"algorithm.adv_estimator": "grpo", "algorithm.norm_adv_by_std_in_grpo": False},
    ),
    EstimatorSpec(
        name="batch_std",
        title="Batch std",
        paper="Liu et al. 2025, Part I: Tricks or Traps? (PPO Lite)",
        arxiv="2508.08221",
        equation="group-mean, batch-std advantage normalisation (Lite PPO)",
        summary={
            "en": "Subtract the group's mean, divide by the std of all rewards in the batch.",
            "zh": "减去组内均值，再除以整个批次所有奖励的标准差。",
        },
        changes={
            "en": "one std for the whole batch instead of one per group",
            "zh": "整个批次共用一个标准差，而不是每组一个",
        },
        latex=r"A_i = \frac{R_i - \operatorname{mean}(R_{1..G})}{\operatorname{std}(R_\text{batch}) + \epsilon}",
        trl='scale_rewards="batch"',
        verl=None,
        function=_batch_std,
        trl_args={"scale_rewards": "batch"},
        verl_args=None,
        batch_statistics=True,
    ),
    EstimatorSpec(
        name="rloo",
        title="RLOO",
        paper="Ahmadian et al. 2024, Back to Basics: REINFORCE style optimization",
        arxiv="2402.14740",
        equation="the RLOO estimator (after Kool et al. 2019)",
        summary={
            "en": "Baseline: the mean reward of the other G − 1 answers (leave one out).",
            "zh": "基线是同组其余 G − 1 条回答的平均奖励（留一法）。",
        },
        changes={
            "en": "leave-one-out mean, no std: equals Dr.GRPO times G/(G − 1), an unbiased baseline",
            "zh": "留一均值、不除标准差：等于 Dr.GRPO 乘以 G/(G − 1)，基线无偏",
        },
        latex=r"A_i = R_i - \frac{1}{G-1}\sum_{j \ne i} R_j = \frac{G}{G-1}\big(R_i - \operatorname{mean}(R_{1..G})\big)",
        trl=None,
        verl="algorithm.adv_estimator=rloo",
        function=_rloo,
        trl_args=None,
        verl_args={"algorithm.adv_estimator": "rloo"},
    ),
    EstimatorSpec(
        name="reinforce_pp",
        title="REINFORCE++",
        paper="Hu et al. 2025, REINFORCE++",
        arxiv="2501.03262",
        equation="§3 (global advantage normalisation)",
        summary={
            "en": "No group baseline: whiten the rewards over the whole batch.",
            "zh": "没有组内基线：在整个批次上对奖励做白化（减均值、除标准差）。",
        },
        changes={
            "en": "the batch mean replaces the group mean: an all-correct group still gets positive advantages",
            "zh": "用批次均值代替组内均值：全对的组也会得到正优势",
        },
        latex=r"A_i = \frac{R_i - \operatorname{mean}(R_\text{batch})}{\sqrt{\operatorname{var}(R_\text{batch}) + \epsilon}}",
        trl=None,
        verl="algorithm.adv_estimator=reinforce_plus_plus",
        function=_reinforce_pp,
        trl_args=None,
        verl_args={"algorithm.adv_estimator": "reinforce_plus_plus"},
        baseline="batch",
        batch_statistics=True,
        length_note=_WHITEN_LENGTH_NOTE,
    ),
    EstimatorSpec(
        name="reinforce_pp_baseline",
        title="REINFORCE++-baseline",
        paper="Hu et al. 2025, REINFORCE++",
        arxiv="2501.03262",
        equation="§3 (with group baseline)",
        summary={
            "en": "Subtract the group's mean, then whiten over the whole batch.",
            "zh": "先减去组内均值，再在整个批次上白化。",
        },
        changes={
            "en": "group mean as baseline, then one batch-wide scale",
            "zh": "组内均值做基线，再用整个批次统一缩放",
        },
        latex=r"\tilde A_i = R_i - \operatorname{mean}(R_{1..G}),\quad A_i = \frac{\tilde A_i - \operatorname{mean}(\tilde A_\text{batch})}{\sqrt{\operatorname{var}(\tilde A_\text{batch}) + \epsilon}}",
        trl=None,
        verl="algorithm.adv_estimator=reinforce_plus_plus_baseline",
        function=_reinforce_pp_baseline,
        trl_args=None,
        verl_args={"algorithm.adv_estimator": "reinforce_plus_plus_baseline"},
        batch_statistics=True,
        length_note={
            "en": _WHITEN_LENGTH_NOTE["en"] + " Token-weighted, the batch mean of the group-centred rewards is no "
            "longer 0, so even an all-equal group gets a small non-zero advantage.",
            "zh": _WHITEN_LENGTH_NOTE["zh"]
            + "按 token 加权后，组内中心化奖励的批次均值不再为 0，所以奖励全相同的组也会得到一个小的非零优势。",
        },
    ),
    EstimatorSpec(
        name="remax",
        title="ReMax",
        paper="Li et al. 2024, ReMax",
        arxiv="2310.10505",
        equation="Algorithm 1",
        summary={
            "en": "Baseline: the reward of the prompt's greedy (argmax) response.",
            "zh": "基线是该提示贪心（argmax）回答的奖励。",
        },
        changes={
            "en": "one extra greedy generation per prompt instead of a group statistic; no scaling",
            "zh": "每个提示多生成一条贪心回答作为基线，不用组统计量，也不缩放",
        },
        latex=r"A_i = R_i - R(\bar y),\quad \bar y = \text{greedy decoding}(x)",
        trl=None,
        verl="algorithm.adv_estimator=remax",
        function=_remax,
        trl_args=None,
        verl_args={"algorithm.adv_estimator": "remax"},
        baseline="greedy",
        needs=frozenset({"greedy"}),
    ),
    EstimatorSpec(
        name="maxrl",
        title="MaxRL",
        paper="Tajwar et al. 2026, Maximum Likelihood Reinforcement Learning",
        arxiv="2602.02710",
        equation="the on-policy estimator (normalise by the group's mean reward)",
        summary={
            "en": "Subtract the group's mean reward, divide by the group's mean reward (its pass rate).",
            "zh": "减去组内平均奖励，再除以组内平均奖励（即通过率）。",
        },
        changes={
            "en": "divides by the pass rate instead of the std: a right answer weighs 1/p̂, hard prompts count most",
            "zh": "除以通过率而不是标准差：答对的回答权重为 1/p̂，难题权重最大",
        },
        latex=r"A_i = \frac{R_i - \operatorname{mean}(R_{1..G})}{\operatorname{mean}(R_{1..G}) + \epsilon}",
        trl=None,
        verl=None,
        function=_maxrl,
        trl_args=None,
        verl_args=None,
        nonnegative=True,
    ),
    EstimatorSpec(
        name="gdpo",
        title="GDPO",
        paper="Liu et al. 2026, GDPO: Group reward-Decoupled Normalization Policy Optimization",
        arxiv="2601.05242",
        equation="§3 (decoupled normalisation)",
        summary={
            "en": "Several rewards: z-score each within its group, add them, then whiten over the batch.",
            "zh": "多个奖励：每个奖励各自在组内做 z-score，相加后再在批次上白化。",
        },
        changes={
            "en": "normalise each reward on its own before adding, so distinct reward combinations keep distinct advantages",
            "zh": "每个奖励先单独归一化再相加，不同的奖励组合保持不同的优势",
        },
        latex=r"\hat A_i = \sum_k \frac{R_{i,k} - \operatorname{mean}(R_{1..G,k})}{\operatorname{std}(R_{1..G,k}) + \epsilon},\quad A_i = \frac{\hat A_i - \operatorname{mean}(\hat A_\text{batch})}{\sqrt{\operatorname{var}(\hat A_\text{batch}) + \epsilon}}",
        trl='multi_objective_aggregation="normalize_then_sum"',
        verl="algorithm.adv_estimator=gdpo (NVlabs/GDPO verl fork)",
        function=_gdpo,
        trl_args={"multi_objective_aggregation": "normalize_then_sum"},
        verl_args=None,
        batch_statistics=True,
        needs=frozenset({"components"}),
        length_note=_WHITEN_LENGTH_NOTE,
    ),
    EstimatorSpec(
        name="gpg",
        title="GPG",
        paper="Chu et al. 2025, GPG: A Simple and Strong Reinforcement Learning Baseline for Model Reasoning",
        arxiv="2504.02546",
        equation="the corrected gradient estimate (α = B / M)",
        summary={
            "en": "Subtract the group's mean reward (no std), then scale every advantage by B / M, the batch size over "
            "its count of non-zero rewards.",
            "zh": "减去组内平均奖励（不除标准差），再把所有优势乘以 B / M：批次大小除以其中非零奖励的个数。",
        },
        changes={
            "en": "mean-only like Dr.GRPO, scaled up when few rewards in the batch are non-zero (a hard batch)",
            "zh": "和 Dr.GRPO 一样只减均值；批次里非零奖励越少（题越难），整体放大得越多",
        },
        latex=r"A_i = \alpha\big(R_i - \operatorname{mean}(R_{1..G})\big),\quad \alpha = \frac{B}{\max(1,\ \#\{j: R_j \ne 0\})}",
        trl=None,
        verl="algorithm.adv_estimator=gpg",
        function=_gpg,
        trl_args=None,
        verl_args={"algorithm.adv_estimator": "gpg"},
        batch_statistics=True,
    ),
    EstimatorSpec(
        name="opo",
        title="OPO",
        paper="Hao et al. 2025, On-Policy RL with Optimal Reward Baseline",
        arxiv="2505.23585",
        equation="the optimal baseline, weighted by response length",
        summary={
            "en": "Baseline: the group's mean reward weighted by response length; no std.",
            "zh": "基线是按回答长度加权的组内平均奖励；不除标准差。",
        },
        changes={
            "en": "the length-weighted mean replaces the plain mean: long responses move the baseline more",
            "zh": "用按长度加权的均值代替普通均值：长回答对基线的影响更大",
        },
        latex=r"A_i = R_i - \frac{\sum_j |o_j|\,R_j}{\sum_j |o_j|}",
        trl=None,
        verl="algorithm.adv_estimator=opo",
        function=_opo,
        trl_args=None,
        verl_args={"algorithm.adv_estimator": "opo"},
        length_note={
            "en": "The baseline weighs each response by its length |o_j| (the response mask's sum in verl); with no "
            "lengths every response counts once and OPO is Dr.GRPO.",
            "zh": "基线按每条回答的长度 |o_j| 加权（verl 中为 response mask 之和）；不给长度时每条回答各算一次，OPO 即 Dr.GRPO。",
        },
    ),
    EstimatorSpec(
        name="grpo_passk",
        title="Pass@k",
        paper="Tang, Zheng, Synnaeve, Munos 2025, Optimizing Language Models for Inference Time Objectives using RL",
        arxiv="2503.19595",
        equation="pass@k objective, as verl grpo_passk computes it (the best response against the second best)",
        summary={
            "en": "Only the group's best response gets an advantage: its lead over the second best, over the group's std.",
            "zh": "只有组内最好的回答得到优势：它领先第二名的差值，除以组内标准差。",
        },
        changes={
            "en": "rewards the one response that makes the group's best of k better; every other response gets 0",
            "zh": "只奖励让“k 个里最好的那个”变得更好的那一条回答；其余回答优势都是 0",
        },
        latex=r"A_{i^*} = \frac{R_{(1)} - R_{(2)}}{\operatorname{std}(R_{1..G}) + \epsilon},\quad i^* = \arg\max_i R_i,\quad A_i = 0\ (i \ne i^*)",
        trl=None,
        verl="algorithm.adv_estimator=grpo_passk (norm_adv_by_std_in_grpo=True)",
        function=_grpo_passk,
        trl_args=None,
        verl_args={"algorithm.adv_estimator": "grpo_passk", "algorithm.norm_adv_by_std_in_grpo": True},
    ),
    EstimatorSpec(
        name="optimal_token_baseline",
        title="Optimal Token Baseline",
        paper="Li, Xu, Li et al. 2026, The Optimal Token Baseline: Variance Reduction for Long-Horizon LLM-RL",
        arxiv="2602.07078",
        equation="the optimal token baseline with the logit-gradient proxy, as verl optimal_token_baseline computes it",
        summary={
            "en": "A baseline per token: the group's rewards weighted by each response's accumulated path variance "
            "up to that token, W_t = Σ_j (1 − 2π_j + Σπ²).",
            "zh": "每个 token 一个基线：组内奖励按各回答到该 token 为止累积的路径方差 W_t = Σ_j (1 − 2π_j + Σπ²) 加权平均。",
        },
        changes={
            "en": "the baseline varies along the response: responses whose sampled tokens were uncertain weigh more",
            "zh": "基线沿回答逐 token 变化：采样时越不确定的回答，在基线里的权重越大",
        },
        latex=r"A_{i,t} = R_i - B_t,\quad B_t = \frac{\sum_j R_j W_{j,t}}{\sum_j W_{j,t} + \epsilon},\quad "
        r"W_{j,t} = \sum_{s \le t} \big(1 - 2\pi_{j,s} + \textstyle\sum_v \pi_{j,s}(v)^2\big)",
        trl=None,
        verl="algorithm.adv_estimator=optimal_token_baseline (actor.calculate_sum_pi_squared=True)",
        function=_optimal_token_baseline,
        trl_args=None,
        verl_args={
            "algorithm.adv_estimator": "optimal_token_baseline",
            "actor_rollout_ref.actor.calculate_sum_pi_squared": True,
        },
        needs=frozenset({"token_stats"}),
        length_note={
            "en": "Per token: a response weighs in the baseline at token t only if it reaches t, and its weight W_t "
            "grows with every token before t; past the second-longest response, verl sets the longest one's "
            "baseline to 0 (handle_zero_tail), so its tail gets its whole reward as advantage.",
            "zh": "逐 token：一条回答只有长度达到 t 才参与第 t 个 token 的基线，其权重 W_t 随之前每个 token 增长；"
            "超过第二长回答的部分，verl 把最长回答的基线设为 0（handle_zero_tail），这段尾部的优势就是它的全部奖励。",
        },
    ),
)

ESTIMATORS: dict[str, EstimatorSpec] = {spec.name: spec for spec in _SPECS}


def get_estimator(name: str) -> EstimatorSpec:
    """The spec registered as ``name``. Raises ``ValueError`` naming ``adv_estimator`` if unknown."""
    if not isinstance(name, str) or name not in ESTIMATORS:
        raise ValueError(f"adv_estimator: unknown estimator {name!r:.60}; known: {', '.join(ESTIMATORS)}")
    return ESTIMATORS[name]


def _as_float(x, label: str) -> torch.Tensor:
    x = check_tensor(x, label)
    if not bool(torch.isfinite(x).all()):
        raise ValueError(f"{label}: contains NaN or inf")
    return x


def _check_rewards(rewards) -> tuple[torch.Tensor, torch.dtype]:
    """``(rewards in float64 [n, G], the dtype the advantages come back in)``; raises naming ``rewards``."""
    r = check_tensor(rewards, "rewards")
    if r.dim() != 2 or r.shape[0] == 0 or r.shape[1] == 0:
        raise ValueError(f"rewards: expected shape [n_groups, G] with n_groups, G >= 1, got {tuple(r.shape)}")
    r = _as_float(r, "rewards")
    return r.to(STAT_DTYPE), r.dtype  # every statistic is float64; the advantages come back in r's dtype


def estimate_advantages(
    name: str,
    rewards: torch.Tensor,
    *,
    components: torch.Tensor | None = None,
    greedy_rewards: torch.Tensor | None = None,
    lengths: torch.Tensor | None = None,
) -> torch.Tensor:
    """The advantages of estimator ``name`` (a key of ``ESTIMATORS``), one per response.

    Args:
        name: the estimator.
        rewards: [n, G] scalar rewards, groups (prompts) in rows.
        components: [n, G, K] the reward's components (GDPO normalises each on its own); ``None``:
            GDPO uses ``rewards`` as its one component; the other estimators ignore it.
        greedy_rewards: [n] the reward of one greedy response per prompt (needed by ReMax).
        lengths: [n, G] response lengths in tokens (> 0) for the estimators that whiten over the
            batch (REINFORCE++, REINFORCE++-baseline, GDPO): token-weighted as verl; ``None``: each
            response counts once.

    Returns:
        [n, G] advantages, finite, in the dtype of ``rewards`` (integers become the default dtype).
        Every group and batch statistic is computed in float64 (the inputs are read in float64 and
        the estimator runs there), so a nearly equal float32 group keeps its true signs; a group
        whose rewards are all equal gets exactly 0 from every estimator that centres on the group.

    Raises:
        ValueError: unknown ``name`` (naming ``adv_estimator``) or a per-token one
            (:attr:`EstimatorSpec.per_token`: :func:`estimate_token_advantages` computes it);
            ``rewards`` not a tensor of numbers
            [n, G] with n, G >= 1 or with NaN / inf; ``components`` not [n, G, K] with K >= 1 or not
            finite; ``greedy_rewards`` missing for ReMax, not [n] or not finite; ``lengths`` not
            [n, G] or not > 0; a reward below 0 for an estimator that needs ``rewards >= 0`` (MaxRL);
            rewards (or components) so large that the advantages overflow float64 or the dtype of
            ``rewards``.
    """
    spec = get_estimator(name)
    if spec.per_token:
        raise ValueError(
            f"adv_estimator: {spec.title} gives one advantage per token from the old policy's token statistics "
            "(old log-probs and Σπ²), which rewards alone do not give; call estimate_token_advantages"
        )
    r, dtype = _check_rewards(rewards)
    n, G = r.shape
    comps = None
    if components is not None:
        comps = check_tensor(components, "components")
        if comps.dim() != 3 or tuple(comps.shape[:2]) != (n, G) or comps.shape[2] == 0:
            raise ValueError(f"components: expected shape [{n}, {G}, K] with K >= 1, got {tuple(comps.shape)}")
        comps = _as_float(comps, "components").to(STAT_DTYPE)
    greedy = None
    if greedy_rewards is not None:
        greedy = check_tensor(greedy_rewards, "greedy_rewards")
        if greedy.dim() == 2 and greedy.shape[1] == 1:
            greedy = greedy[:, 0]
        if tuple(greedy.shape) != (n,):
            raise ValueError(f"greedy_rewards: expected shape [{n}] (one per prompt), got {tuple(greedy.shape)}")
        greedy = _as_float(greedy, "greedy_rewards").to(STAT_DTYPE)
    if "greedy" in spec.needs and greedy is None:
        raise ValueError(
            f"greedy_rewards: {spec.title} needs the reward of one greedy response per prompt, shape [{n}]"
        )
    w = None
    if lengths is not None:
        w = check_tensor(lengths, "lengths")
        if tuple(w.shape) != (n, G):
            raise ValueError(f"lengths: expected shape [{n}, {G}], got {tuple(w.shape)}")
        w = _as_float(w, "lengths").to(STAT_DTYPE)
        if not bool((w > 0).all()):
            raise ValueError("lengths: every response length must be > 0")
    if spec.nonnegative:
        low = float(r.min()) if comps is None else min(float(r.min()), float(comps.min()))
        if low < 0:
            raise ValueError(
                f"rewards: {spec.title} divides by the group's mean reward, so rewards must be >= 0, got {low:g}"
            )
    out = spec.function(r, comps, greedy, w)  # (n, G) float64
    return _in_dtype(out, dtype, "rewards" if comps is None else "components")


def _token_input(x, label: str, shape: tuple[int, ...], mask: torch.Tensor | None) -> torch.Tensor:
    """``x`` checked to be ``shape`` and finite on the response tokens (``mask`` > 0), in float64, its
    padding set to 0 (padding may hold anything: the caller's junk never reaches a statistic)."""
    x = check_tensor(x, label)
    if tuple(x.shape) != shape:
        raise ValueError(f"{label}: expected shape {list(shape)}, got {tuple(x.shape)}")
    x = x.to(STAT_DTYPE)
    if mask is not None:
        x = torch.where(mask > 0, x, torch.zeros_like(x))
    if not bool(torch.isfinite(x).all()):
        raise ValueError(f"{label}: contains NaN or inf at a response token")
    return x


def estimate_token_advantages(
    name: str,
    rewards: torch.Tensor,
    response_mask: torch.Tensor,
    *,
    old_log_probs: torch.Tensor | None = None,
    sum_pi_squared: torch.Tensor | None = None,
    rollout_is_weights: torch.Tensor | None = None,
    components: torch.Tensor | None = None,
    greedy_rewards: torch.Tensor | None = None,
    lengths: torch.Tensor | None = None,
) -> torch.Tensor:
    """The advantage of every response token under estimator ``name``: a per-token estimator
    (:attr:`EstimatorSpec.per_token`, the Optimal Token Baseline) from the tokens' statistics, any other
    one broadcast over its response's tokens (``estimate_advantages(...)[..., None] * response_mask``).

    Args:
        name: a key of ``ESTIMATORS``.
        rewards: [n, G] outcome rewards (the return at every token of the response).
        response_mask: [n, G, T] 1 on a response token, 0 on padding.
        old_log_probs: [n, G, T] log π_old of each sampled token (nats, <= 0), the policy the rollout
            was scored under (verl ``old_log_probs``); needed by a per-token estimator.
        sum_pi_squared: [n, G, T] Σ_v π_old(v)² over the vocabulary at each position, in (0, 1] (verl
            ``calculate_sum_pi_squared_from_logits``); needed by a per-token estimator.
        rollout_is_weights: [n, G, T] truncated rollout importance weights ρ̄ (>= 0), or ``None``; the
            Optimal Token Baseline scales each token's variance by ρ̄² (verl ``rollout_is_weights``).
        components, greedy_rewards, lengths: as :func:`estimate_advantages`, for the outcome estimators
            (``lengths`` default: the mask's token count of each response, at least 1).

    Returns:
        [n, G, T] advantages, 0 on padding, finite, in the dtype of ``rewards``; every statistic in float64.

    Raises:
        ValueError: unknown ``name`` (``adv_estimator``); ``rewards`` as :func:`estimate_advantages`;
            ``response_mask`` not [n, G, T] with T >= 1 or not 0 / 1; for a per-token estimator
            ``old_log_probs`` or ``sum_pi_squared`` missing, of another shape or not finite at a
            response token, a log-prob above 0 or a Σπ² outside (0, 1]; ``rollout_is_weights`` of
            another shape, not finite or below 0 at a response token; as :func:`estimate_advantages`
            for an outcome estimator.
    """
    spec = get_estimator(name)
    r, dtype = _check_rewards(rewards)
    n, G = r.shape
    mask = check_tensor(response_mask, "response_mask")
    if mask.dim() != 3 or tuple(mask.shape[:2]) != (n, G) or mask.shape[2] == 0:
        raise ValueError(f"response_mask: expected shape [{n}, {G}, T] with T >= 1, got {tuple(mask.shape)}")
    mask = mask.to(STAT_DTYPE)
    if not bool(((mask == 0) | (mask == 1)).all()):
        raise ValueError("response_mask: every entry must be 0 or 1")
    shape = tuple(mask.shape)
    if not spec.per_token:
        if lengths is None:
            lengths = mask.sum(-1).clamp(min=1)
        adv = estimate_advantages(name, rewards, components=components, greedy_rewards=greedy_rewards, lengths=lengths)
        return adv[..., None] * mask.to(adv.dtype)
    for value, label in ((old_log_probs, "old_log_probs"), (sum_pi_squared, "sum_pi_squared")):
        if value is None:
            raise ValueError(f"{label}: {spec.title} needs the old policy's {label}, shape {list(shape)}")
    logp = _token_input(old_log_probs, "old_log_probs", shape, mask)
    if bool((logp > 0).any()):
        raise ValueError(f"old_log_probs: a log-probability must be <= 0, got {float(logp.max()):g}")
    s2 = _token_input(sum_pi_squared, "sum_pi_squared", shape, mask)
    real = mask > 0
    if bool(real.any()) and not bool(((s2[real] > 0) & (s2[real] <= 1 + 1e-6)).all()):
        raise ValueError("sum_pi_squared: Σπ² of a distribution lies in (0, 1] at every response token")
    s2 = s2.clamp(max=1.0)  # float32 rounding of a certain token's 1.0
    rho = None
    if rollout_is_weights is not None:
        rho = _token_input(rollout_is_weights, "rollout_is_weights", shape, mask)
        if bool((rho < 0).any()):
            raise ValueError(f"rollout_is_weights: an importance weight must be >= 0, got {float(rho.min()):g}")
    out = spec.function(r, logp, s2, mask, rho)  # (n, G, T) float64
    return _in_dtype(out, dtype, "rewards")


# ----------------------------------------------------------------------------------------------
# Difficulty bias: how much a prompt of pass rate p weighs, per estimator (0/1 rewards)
# ----------------------------------------------------------------------------------------------


def reference_batch(group_size: int, dtype=torch.float64) -> torch.Tensor:
    """The G + 1 possible groups of 0/1 rewards, one per count k = 0..G of right answers (row k: k
    ones, then zeros): [G + 1, G]. As one batch it spans every difficulty evenly (mean reward 1/2);
    :func:`expected_group_weight` reads batch statistics from it."""
    group_size = check_whole(group_size, "group_size", low=1)
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
        raise ValueError(f"dtype: expected a torch float dtype, got {dtype!r:.60}")
    k = torch.arange(group_size + 1)[:, None]  # (G+1, 1)
    return (torch.arange(group_size)[None, :] < k).to(dtype)  # (G+1, G)


def expected_group_weight(name: str, pass_rate, group_size: int) -> torch.Tensor:
    """Expected total |advantage| of one group, E_k[Σ_i |A_i|], for 0/1 rewards with k ~ Binomial(G, p)
    right answers: how much a prompt of pass rate p weighs in a step (each response's gradient is
    scaled by its advantage), the difficulty bias of estimator ``name``.

    The advantages come from :func:`estimate_advantages` on :func:`reference_batch` (the G + 1 possible
    groups as one batch: a group-local estimator sees only its own row; one with batch statistics sees
    a batch that spans every difficulty evenly). ReMax's greedy answer is right with probability p,
    independently of the samples: the mass is averaged over both. GDPO has one reward here (its
    component is the reward itself). A per-token estimator sees one-token responses with equal token
    statistics (π = 1/2 of two tokens), where its per-token baseline is the group's mean reward: the
    weight its outcome rewards alone imply. Generalises ``rlviz.core.sampling.expected_advantage_mass``
    (GRPO / Dr.GRPO) to every estimator. By hand, G = 2, Dr.GRPO: 2 p (1 - p); MaxRL: 2G(1 - p - (1 - p)^G).

    Args:
        name: a key of ``ESTIMATORS``.
        pass_rate: [P] pass rates in [0, 1].
        group_size: G >= 2.

    Returns:
        [P] float64.

    Raises:
        ValueError: unknown ``name`` (``adv_estimator``), ``group_size`` not a whole number >= 2,
            ``pass_rate`` outside [0, 1] or NaN.
    """
    spec = get_estimator(name)
    G = check_whole(group_size, "group_size", low=2)
    p = check_tensor(pass_rate, "pass_rate", dtype=torch.float64).to(torch.float64).reshape(-1)  # (P,)
    if not bool(((p >= 0) & (p <= 1)).all()):
        raise ValueError("pass_rate: must lie in [0, 1]")
    batch = reference_batch(G)  # (G+1, G)
    k = torch.arange(G + 1, dtype=torch.float64)[None, :]  # (1, G+1)
    log_c = math.lgamma(G + 1) - torch.lgamma(k + 1) - torch.lgamma(G - k + 1)
    pmf = torch.exp(log_c + torch.xlogy(k, p[:, None]) + torch.xlogy(G - k, 1 - p[:, None]))  # (P, G+1)
    if "greedy" in spec.needs:
        right = estimate_advantages(name, batch, greedy_rewards=torch.ones(G + 1, dtype=torch.float64))
        wrong = estimate_advantages(name, batch, greedy_rewards=torch.zeros(G + 1, dtype=torch.float64))
        return p * (pmf @ right.abs().sum(1)) + (1 - p) * (pmf @ wrong.abs().sum(1))
    if spec.per_token:  # one token per response, the same statistics for each: the baseline is the group mean
        stats = torch.full((G + 1, G, 1), 0.5, dtype=torch.float64)  # pi_t = 1/2 of two tokens: Σπ² = 1/2
        token = estimate_token_advantages(
            name, batch, torch.ones_like(stats), old_log_probs=stats.log(), sum_pi_squared=stats
        )
        return pmf @ token[..., 0].abs().sum(dim=1)
    mass = estimate_advantages(name, batch).abs().sum(dim=1)  # (G+1,)
    return pmf @ mass
