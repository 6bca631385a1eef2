"""Dynamic sampling (DAPO arXiv 2503.14476 §3.2): which groups carry a learning signal.

Legend: n groups, G responses per group.
"""

from __future__ import annotations

import torch

__all__ = ["informative_groups", "signal_probability"]


def informative_groups(rewards: torch.Tensor) -> torch.Tensor:
    """Which groups have rewards that are not all equal (their advantages are not all zero).

    verl recipe ``algorithm.filter_groups`` keeps a group when the population std of its metric is
    above 0. A group of size one has no signal here (its advantage is 0 in rlviz).

    Args:
        rewards: [n, G] rewards.

    Returns:
        [n] bool, True for a group worth keeping.

    Raises:
        ValueError: ``rewards`` not 2-D or with NaN.
    """
    if rewards.dim() != 2:
        raise ValueError(f"rewards: expected shape [n_groups, G], got {tuple(rewards.shape)}")
    if bool(torch.isnan(rewards).any()):
        raise ValueError("rewards: contains NaN")
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
    if int(group_size) < 1:
        raise ValueError(f"group_size: must be >= 1, got {group_size}")
    p = torch.as_tensor(pass_rate, dtype=torch.get_default_dtype())
    if not bool(((p >= 0) & (p <= 1)).all()):
        raise ValueError("pass_rate: must lie in [0, 1]")
    if group_size == 1:
        return torch.zeros_like(p)
    return 1.0 - p**group_size - (1.0 - p) ** group_size
