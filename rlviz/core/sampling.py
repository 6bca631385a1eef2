"""Dynamic sampling (DAPO arXiv 2503.14476 §3.2): which groups carry a learning signal, and what
filling a batch with such groups costs.

Legend: n groups (prompts) per round, G responses per group, N informative groups wanted per step,
K cap on generation rounds, p a prompt's pass rate, q the chance one group is informative,
R rounds used, S_r informative groups after r rounds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .validate import check_choice, check_number, check_tensor, check_whole

__all__ = [
    "FillCost",
    "beta_signal_probability",
    "binomial_cdf_below",
    "binomial_pmf_upto",
    "expected_advantage_mass",
    "fill_cost",
    "informative_groups",
    "mixture_signal_probability",
    "signal_probability",
]


def informative_groups(rewards: torch.Tensor) -> torch.Tensor:
    """Which groups have rewards that are not all equal (their advantages are not all zero).

    verl recipe ``algorithm.filter_groups`` keeps a group when the population std of its metric is
    above 0. A group of size one has no signal here (its advantage is 0 in rlviz).

    Args:
        rewards: [n, G] rewards.

    Returns:
        [n] bool, True for a group worth keeping.

    Raises:
        ValueError: ``rewards`` not a 2-D tensor of numbers, or with NaN / inf (as
            :func:`rlviz.core.advantages.group_advantages`).
    """
    rewards = check_tensor(rewards, "rewards", floating=False)
    if rewards.dim() != 2:
        raise ValueError(f"rewards: expected shape [n_groups, G], got {tuple(rewards.shape)}")
    if rewards.is_floating_point() and not bool(torch.isfinite(rewards).all()):
        raise ValueError("rewards: contains NaN or inf")
    if rewards.shape[1] < 2:
        return torch.zeros(rewards.shape[0], dtype=torch.bool, device=rewards.device)
    return ~(rewards == rewards[:, :1]).all(dim=1)


def signal_probability(pass_rate: torch.Tensor, group_size: int) -> torch.Tensor:
    """Chance that a group of ``group_size`` 0/1 rewards is mixed: ``1 - p^G - (1 - p)^G``.

    Args:
        pass_rate: any shape, probabilities p in [0, 1].
        group_size: G >= 1.

    Returns:
        Same shape as ``pass_rate``.

    Raises:
        ValueError: ``group_size`` < 1 or ``pass_rate`` outside [0, 1] / NaN.
    """
    group_size = _check_group_size(group_size)
    p = check_tensor(pass_rate, "pass_rate", dtype=torch.get_default_dtype()).to(torch.get_default_dtype())
    if not bool(((p >= 0) & (p <= 1)).all()):
        raise ValueError("pass_rate: must lie in [0, 1]")
    if group_size == 1:
        return torch.zeros_like(p)
    return 1.0 - p**group_size - (1.0 - p) ** group_size


# ---------------------------------------------------------------------------------------------------
# Analytic cost of dynamic sampling (added for the Dynamic sampling page).
#
# Model: prompts are drawn i.i.d. from a pass-rate distribution D; a prompt with pass rate p gets G
# 0/1 rewards, so its group is informative (0 < #correct < G, DAPO arXiv 2503.14476 §3.2, eq. 11
# constraint) with chance s(p) = 1 - p^G - (1-p)^G. Marginally every group is informative with
# chance q = E_{p~D}[s(p)], independently of the other groups. The verl recipe
# (``algorithm.filter_groups``, ``max_num_gen_batches``) draws rounds of n prompts, keeps the
# informative groups and stops once N are kept (the surplus is dropped) or after K rounds. With
# S_r ~ Binomial(r n, q) the informative groups after r rounds and R the rounds used:
#   P(R > r) = P(S_r < N) for r < K, so E[R] = sum_{r=0}^{K-1} P(S_r < N);
#   groups obtained = min(S_K, N) (full when S_K >= N; otherwise what K rounds gave);
#   rollouts spent = n G R.
# ---------------------------------------------------------------------------------------------------


_F64 = torch.float64
MAX_UNCAPPED_ROUNDS = 1_000_000  # rounds summed for an uncapped expectation before giving up


def _check_group_size(group_size: int) -> int:
    return check_whole(group_size, "group_size", low=1)


def _check_positive(name: str, value: float) -> float:
    return check_number(value, name, low=0.0, low_open=True)


def beta_signal_probability(a: float, b: float, group_size: int) -> float:
    """Chance that a group is informative when pass rates follow Beta(a, b): E[1 - p^G - (1-p)^G].

    Derivation: for p ~ Beta(a, b), E[p^G] = B(a+G, b) / B(a, b) = prod_{j<G} (a+j)/(a+b+j), and
    likewise E[(1-p)^G] with a and b swapped; exact, in float64. Beta(1, 1) (uniform) gives
    (G-1)/(G+1).

    Args:
        a, b: Beta shape parameters (> 0); mean pass rate a / (a + b).
        group_size: G >= 1 (G = 1 gives 0: one sample is never mixed).

    Returns:
        q in [0, 1] (a float).

    Raises:
        ValueError: ``a`` or ``b`` not a finite number > 0 (named), ``group_size`` < 1.

    Source: DAPO (arXiv 2503.14476) §3.2, eq. 11 constraint 0 < |{o_i correct}| < G.
    """
    a, b = _check_positive("a", a), _check_positive("b", b)
    G = _check_group_size(group_size)
    j = torch.arange(G, dtype=_F64)  # (G,)
    e_right = torch.exp(torch.log((a + j) / (a + b + j)).sum())  # E[p^G]
    e_wrong = torch.exp(torch.log((b + j) / (a + b + j)).sum())  # E[(1-p)^G]
    return float((1.0 - e_right - e_wrong).clamp(0.0, 1.0))


def mixture_signal_probability(pass_rates, weights, group_size: int) -> float:
    """Chance that a group is informative for a discrete pass-rate distribution (a histogram).

    q = sum_k w_k (1 - p_k^G - (1-p_k)^G) / sum_k w_k, with :func:`signal_probability` per value.

    Args:
        pass_rates: [K] pass rates p_k in [0, 1].
        weights: [K] non-negative weights (counts or shares), not all zero.
        group_size: G >= 1.

    Returns:
        q in [0, 1] (a float).

    Raises:
        ValueError: ``pass_rate`` outside [0, 1] or NaN; ``weights`` negative, NaN, all zero or of
        another length; ``group_size`` < 1.

    Source: DAPO (arXiv 2503.14476) §3.2.
    """
    G = _check_group_size(group_size)
    p = check_tensor(pass_rates, "pass_rate", dtype=_F64).to(_F64).reshape(-1)  # (K,)
    w = check_tensor(weights, "weights", dtype=_F64).to(_F64).reshape(-1)  # (K,)
    if p.numel() == 0 or w.shape != p.shape:
        raise ValueError(f"weights: expected {p.numel()} weights (one per pass rate, at least one), got {w.numel()}")
    if not bool(((p >= 0) & (p <= 1)).all()):
        raise ValueError("pass_rate: must lie in [0, 1]")
    if not bool(((w >= 0) & torch.isfinite(w)).all()) or float(w.sum()) <= 0:
        raise ValueError("weights: must be finite, >= 0 and not all zero")
    s = 1.0 - p**G - (1.0 - p) ** G if G > 1 else torch.zeros_like(p)  # (K,) as signal_probability
    return float(((w * s).sum() / w.sum()).clamp(0.0, 1.0))


def binomial_cdf_below(trials: torch.Tensor, prob: float, below: int) -> torch.Tensor:
    """P(Binomial(m, q) < N) for each m in ``trials``, exactly (float64 log-space sums).

    Args:
        trials: [R] whole numbers m >= 0.
        prob: q in [0, 1].
        below: N >= 0 (N = 0 gives 0).

    Returns:
        [R] float64 probabilities.

    Raises:
        ValueError: ``trials`` not whole numbers >= 0, ``prob`` not in [0, 1], ``below`` not a whole
            number.
    """
    m = check_tensor(trials, "trials", dtype=_F64).to(_F64).reshape(-1, 1)  # (R, 1)
    if not bool(((m >= 0) & (m == m.floor()) & torch.isfinite(m)).all()):
        raise ValueError("trials: must be whole numbers >= 0")
    k = torch.arange(max(check_whole(below, "below"), 0), dtype=_F64).reshape(1, -1)  # (1, N)
    q = torch.tensor(check_number(prob, "prob", low=0.0, high=1.0), dtype=_F64)
    if k.numel() == 0:
        return torch.zeros(m.shape[0], dtype=_F64)
    valid = k <= m  # (R, N): C(m, k) = 0 for k > m
    kk = torch.minimum(k, m)
    log_pmf = (
        torch.lgamma(m + 1)
        - torch.lgamma(kk + 1)
        - torch.lgamma(m - kk + 1)
        + torch.xlogy(kk, q)
        + torch.xlogy(m - kk, 1 - q)
    )  # (R, N)
    pmf = torch.where(valid, log_pmf.exp(), torch.zeros_like(log_pmf))
    return pmf.sum(dim=1).clamp(0.0, 1.0)  # (R,)


@dataclass(frozen=True)
class FillCost:
    """Expected cost of filling one training batch with dynamic sampling (see :func:`fill_cost`).

    Attributes:
        signal_probability: q, the chance one group is informative.
        expected_rounds: E[R], generation rounds (batches of n prompts) per step.
        expected_rollouts: n G E[R], responses generated per step.
        expected_groups: E[min(S_K, N)], informative groups that enter the loss (N = full batch).
        full_batch_probability: P(S_K >= N), the chance the batch is full (1 without a cap if q > 0).
        rollouts_per_group: expected_rollouts / expected_groups (inf when no group is expected).
        round_probabilities: P(R = r) for r = 1..len (tuple; for a cap K it has K entries, the last
            including every run the cap stopped).
    """

    signal_probability: float
    expected_rounds: float
    expected_rollouts: float
    expected_groups: float
    full_batch_probability: float
    rollouts_per_group: float
    round_probabilities: tuple[float, ...]


def fill_cost(
    signal_prob: float, prompts_per_round: int, target_groups: int, group_size: int, max_rounds: int | None
) -> FillCost:
    """Expected rounds, rollouts and kept groups of dynamic sampling with an optional cap on rounds.

    Derivation (module comment above): with S_r ~ Binomial(r n, q),
    E[R] = sum_{r=0}^{K-1} P(S_r < N), E[groups] = E[min(S_K, N)] = N - sum_{k<N} (N-k) P(S_K = k),
    P(full) = P(S_K >= N), rollouts = n G E[R]. Without a cap (K = inf) the sum runs until its
    terms vanish. n = N and K = 1 is plain GRPO with the filter: on average n q groups survive.

    Args:
        signal_prob: q in [0, 1] (from :func:`beta_signal_probability`, :func:`mixture_signal_probability`).
        prompts_per_round: n >= 1, prompts per generation round (verl ``data.gen_batch_size``;
            rlviz's trainer uses n = N).
        target_groups: N >= 1, informative groups wanted per step (verl ``data.train_batch_size``).
        group_size: G >= 1, responses per prompt.
        max_rounds: K >= 1, the cap on rounds (verl recipe ``algorithm.filter_groups.max_num_gen_batches``;
            rlviz ``TrainConfig.max_resample_rounds``), or None for no cap.

    Returns:
        A :class:`FillCost`. Without a cap and q = 0 the rounds and rollouts are inf.

    Raises:
        ValueError: ``pass_rate`` / q outside [0, 1] or NaN; ``prompts_per_round``, ``target_groups``,
        ``group_size`` or ``max_rounds`` < 1; no cap and q so small that the rounds do not converge.

    Source: DAPO (arXiv 2503.14476) §3.2 and Algorithm 1 ("sample until the batch is full"); verl
    recipe/dapo ``filter_groups`` with ``max_num_gen_batches``.
    """
    q = check_number(signal_prob, "pass_rate", finite=False)  # "pass_rate: must be a finite number" for NaN
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"pass_rate: the signal probability must lie in [0, 1], got {signal_prob}")
    n = check_whole(prompts_per_round, "prompts_per_round", low=1)
    N = check_whole(target_groups, "target_groups", low=1)
    G = _check_group_size(group_size)
    max_rounds = check_whole(max_rounds, "max_rounds", low=1, optional=True)

    if max_rounds is not None:
        K = int(max_rounds)
        tail = binomial_cdf_below(torch.arange(K, dtype=_F64) * n, q, N)  # (K,) P(R > r), r = 0..K-1
        s_k = binomial_pmf_upto(K * n, q, N)  # (N,) P(S_K = k), k < N
    elif q == 0.0:
        return FillCost(0.0, math.inf, math.inf, 0.0, 0.0, math.inf, ())
    else:
        parts, start, chunk = [], 0, max(64, 4 * math.ceil(N / (n * q)))
        while True:
            part = binomial_cdf_below(torch.arange(start, start + chunk, dtype=_F64) * n, q, N)
            parts.append(part)
            start += chunk
            if float(part[-1]) < 1e-15:
                break
            if start > MAX_UNCAPPED_ROUNDS:
                raise ValueError(
                    f"pass_rate: signal probability q={q:.3g} is too small to fill the batch without a cap"
                )
        tail = torch.cat(parts)
        tail = tail[: int((tail >= 1e-15).sum()) + 1]  # drop the vanishing end
        K = tail.numel()
        s_k = torch.zeros(N, dtype=_F64)  # the batch always fills
    rounds = float(tail.sum())
    groups = float(N - ((N - torch.arange(N, dtype=_F64)) * s_k).sum())
    full = float(1.0 - s_k.sum())
    # P(R = r) = P(R > r-1) - P(R > r), r = 1..K; with a cap the last one is P(R > K-1)
    nxt = torch.cat([tail[1:], torch.zeros(1, dtype=_F64)])
    round_p = tuple(float(x) for x in (tail - nxt).clamp(min=0.0))
    rollouts = n * G * rounds
    return FillCost(
        signal_probability=q,
        expected_rounds=rounds,
        expected_rollouts=rollouts,
        expected_groups=max(0.0, min(float(N), groups)),
        full_batch_probability=min(1.0, max(0.0, full)),
        rollouts_per_group=rollouts / groups if groups > 0 else math.inf,
        round_probabilities=round_p,
    )


def binomial_pmf_upto(trials: int, prob: float, upto: int) -> torch.Tensor:
    """P(Binomial(m, q) = k) for k = 0..N-1 (zeros where k > m), float64. Shape [N].

    Raises ``ValueError`` naming ``trials`` (not a whole number >= 0), ``prob`` (not in [0, 1]) or
    ``upto`` (not a whole number)."""
    m = torch.tensor(float(check_whole(trials, "trials", low=0)), dtype=_F64)
    k = torch.arange(max(check_whole(upto, "upto"), 0), dtype=_F64)  # (N,)
    q = torch.tensor(check_number(prob, "prob", low=0.0, high=1.0), dtype=_F64)
    kk = torch.minimum(k, m)
    log_pmf = (
        torch.lgamma(m + 1)
        - torch.lgamma(kk + 1)
        - torch.lgamma(m - kk + 1)
        + torch.xlogy(kk, q)
        + torch.xlogy(m - kk, 1 - q)
    )
    return torch.where(k <= m, log_pmf.exp(), torch.zeros_like(log_pmf))


def expected_advantage_mass(pass_rate, group_size: int, scale_rewards: str = "group") -> torch.Tensor:
    """Expected total |advantage| of one group, E_k[sum_i |A_i|], over k ~ Binomial(G, p) correct.

    A proxy for how much a prompt of pass rate p weighs in a GRPO step (each response's gradient is
    scaled by its advantage). The advantages come from :func:`rlviz.core.advantages.group_advantages`
    on the G+1 possible groups (k right answers, G-k wrong), so this is the trainer's own rule:
    ``scale_rewards="group"`` divides by the group's std (GRPO), ``"none"`` does not (Dr.GRPO,
    arXiv 2503.20783 §3.1, "question-level difficulty bias"). By hand, G = 2: the mixed group has
    A = ±0.5 / std = ±0.707 with std, ±0.5 without, so the mass is 2p(1-p)·1.414 vs 2p(1-p).

    Args:
        pass_rate: [P] pass rates in [0, 1].
        group_size: G >= 2.
        scale_rewards: ``"group"``, ``"batch"`` (treated per group here) or ``"none"``.

    Returns:
        [P] float64 expected sum of |A_i| over the group (0 at p = 0 and p = 1).

    Raises:
        ValueError: ``group_size`` < 2, ``pass_rate`` outside [0, 1] / NaN, unknown ``scale_rewards``.
    """
    from .advantages import group_advantages

    G = _check_group_size(group_size)
    if G < 2:
        raise ValueError(f"group_size: group-relative advantages need G >= 2, got {G}")
    check_choice(scale_rewards, "scale_rewards", ("group", "batch", "none"))
    p = check_tensor(pass_rate, "pass_rate", dtype=_F64).to(_F64).reshape(-1)  # (P,)
    if not bool(((p >= 0) & (p <= 1)).all()):
        raise ValueError("pass_rate: must lie in [0, 1]")
    k = torch.arange(G + 1)  # (G+1,) right answers in the group
    rewards = (torch.arange(G).unsqueeze(0) < k.unsqueeze(1)).to(_F64)  # (G+1, G): k ones, then zeros
    scale = "group" if scale_rewards == "batch" else scale_rewards
    mass = group_advantages(rewards, scale).abs().sum(dim=1)  # (G+1,)
    kf = k.to(_F64).unsqueeze(0)  # (1, G+1)
    log_c = torch.lgamma(torch.tensor(G + 1.0, dtype=_F64)) - torch.lgamma(kf + 1) - torch.lgamma(G - kf + 1)
    pmf = torch.exp(log_c + torch.xlogy(kf, p.unsqueeze(1)) + torch.xlogy(G - kf, 1 - p.unsqueeze(1)))  # (P, G+1)
    return pmf @ mass  # (P,)
