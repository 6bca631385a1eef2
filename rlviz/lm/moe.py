"""The tiny mixture-of-experts policy, and routing capture and replay with hooks on its routers.

The MoE model is a Qwen3-MoE causal LM built by ``transformers`` from a config (``moe_config``):
the dense model's width, depth and tokenizer, with each MLP replaced by 8 experts of which the
router picks 2 per token. Shipped in ``assets/tinymoe`` (``python -m rlviz.lm.pretrain --moe``).

Routing is read and replayed without copying model code: ``transformers``' MoE blocks (Qwen2-MoE,
Qwen3-MoE, OLMoE, Mixtral) each own a router submodule (``mlp.gate``, a ``*TopKRouter``) that maps
the flattened hidden states (N, H), N = B * L, to ``(router_logits (N, E), gate weights (N, k),
expert indices (N, k))``. A forward hook on each router

- records the chosen experts and router probabilities (:func:`capture_routing`);
- or replaces the chosen experts by recorded ones (:func:`replay_routing`), with the gate weights
  recomputed from the current router's probabilities at those experts (renormalised over the k
  where the model normalises its top-k), so the router still gets a gradient. This is what routing
  replay does in Megatron-core (``transformer/moe/router_replay.py``), which verl drives with
  ``actor_rollout_ref.actor.router_replay.mode``: R2 replays the routing the training engine
  recorded for the old policy (arXiv 2512.01374), R3 the routing the rollout engine used
  (arXiv 2510.11370).

Routes are stored as verl does: (B, L, layers, k) expert indices, int64.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import torch
from transformers import Qwen3MoeConfig, Qwen3MoeForCausalLM

__all__ = [
    "MOE_MODEL_DIR",
    "ROUTING_REPLAY_MODES",
    "moe_config",
    "build_moe_model",
    "routers",
    "is_moe",
    "RoutingCapture",
    "capture_routing",
    "replay_routing",
    "route_changed",
    "expert_load",
]

MOE_MODEL_DIR = str(Path(__file__).resolve().parent / "assets" / "tinymoe")  # shipped MoE checkpoint
# verl actor_rollout_ref.actor.router_replay.mode: none (disabled), R2, R3
ROUTING_REPLAY_MODES = ("none", "R2", "R3")


def moe_config(tokenizer) -> Qwen3MoeConfig:
    """The shipped MoE architecture: the dense model's attention, 8 experts per layer, top-2.

    ~1.4M parameters (~5.8 MB as float32 safetensors), of which ~0.6M are active per token.
    """
    return Qwen3MoeConfig(
        vocab_size=len(tokenizer),
        hidden_size=128,
        moe_intermediate_size=96,  # each expert's SwiGLU width; 2 active = 192 (dense model: 384)
        intermediate_size=384,  # unused (every layer is sparse)
        num_hidden_layers=4,
        num_attention_heads=4,
        num_key_value_heads=4,
        head_dim=32,
        num_experts=8,
        num_experts_per_tok=2,  # top-2
        norm_topk_prob=True,  # the two gate weights sum to 1 (Qwen3-30B-A3B does the same)
        decoder_sparse_step=1,  # every layer is an MoE layer
        router_aux_loss_coef=0.01,  # Switch load balancing, per layer (pretrain.per_layer_balance_loss)
        max_position_embeddings=64,
        rope_theta=10000.0,
        tie_word_embeddings=True,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )


def build_moe_model(tokenizer, seed: int) -> Qwen3MoeForCausalLM:
    """A freshly initialised tiny Qwen3-MoE for ``tokenizer``; weights depend only on ``seed``
    (a forked RNG: the caller's RNG state is untouched)."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Qwen3MoeForCausalLM(moe_config(tokenizer))
    return model


def routers(model) -> list[torch.nn.Module]:
    """The MoE routers of ``model`` in layer order (``[]`` for a dense model).

    A router is a ``transformers`` ``*TopKRouter`` module (Qwen2-MoE, Qwen3-MoE, OLMoE, Mixtral):
    ``forward(hidden (N, H)) -> (logits (N, E), gate weights (N, k), expert indices (N, k))``.
    """
    return [m for m in model.modules() if type(m).__name__.endswith("TopKRouter")]


def is_moe(model) -> bool:
    """Whether ``model`` routes tokens to experts (has at least one router)."""
    return bool(routers(model))


class RoutingCapture:
    """What the routers chose during the forward passes inside :func:`capture_routing`.

    Attributes:
        calls: per router, a list of ``(indices (N, k) int64, probs (N, E) float32)``, one per
            forward pass, on the CPU.
    """

    def __init__(self, n_routers: int):
        self.calls: list[list[tuple[torch.Tensor, torch.Tensor]]] = [[] for _ in range(n_routers)]

    def _last(self, which: int) -> list[torch.Tensor]:
        if not self.calls or not self.calls[0]:
            raise ValueError("routes: nothing was captured (no forward pass ran inside capture_routing)")
        return [calls[-1][which] for calls in self.calls]

    def indices(self, batch: int, length: int) -> torch.Tensor:
        """The last forward's chosen experts as (B, L, layers, k) int64 (verl's layout).

        Raises:
            ValueError: nothing captured, or ``batch * length`` is not the number of routed rows.
        """
        per_layer = self._last(0)
        n = per_layer[0].shape[0]
        if batch * length != n:
            raise ValueError(f"batch: {batch} x {length} positions is not the {n} routed rows")
        return torch.stack(per_layer, dim=1).view(batch, length, len(per_layer), -1)

    def probs(self, batch: int, length: int) -> torch.Tensor:
        """The last forward's router probabilities as (B, L, layers, E) float32 (same errors)."""
        per_layer = self._last(1)
        n = per_layer[0].shape[0]
        if batch * length != n:
            raise ValueError(f"batch: {batch} x {length} positions is not the {n} routed rows")
        return torch.stack(per_layer, dim=1).view(batch, length, len(per_layer), -1)


@contextmanager
def capture_routing(model) -> Iterator[RoutingCapture]:
    """Record every router's choice in the forward passes run inside the block.

    Changes nothing the model computes (the hooks only read). Yields a :class:`RoutingCapture`;
    for a dense model it captures nothing and :meth:`RoutingCapture.indices` raises.
    """
    mods = routers(model)
    cap = RoutingCapture(len(mods))

    def make(i):
        def hook(module, args, output):
            logits, _, idx = output
            probs = torch.softmax(logits.detach().float(), dim=-1)
            cap.calls[i].append((idx.detach().to("cpu", torch.int64), probs.cpu()))

        return hook

    handles = [m.register_forward_hook(make(i)) for i, m in enumerate(mods)]
    try:
        yield cap
    finally:
        for h in handles:
            h.remove()


@contextmanager
def replay_routing(model, indices: torch.Tensor) -> Iterator[None]:
    """Inside the block, every router uses the experts in ``indices`` instead of its own top-k.

    Args:
        model: an MoE causal LM (see :func:`routers`).
        indices: (B, L, layers, k) expert indices recorded for exactly the (B, L) batch the forward
            passes inside the block see (e.g. ``routes[rows]`` for a mini-batch of rows).

    The gate weights are the current router's softmax probabilities at the replayed experts,
    renormalised over the k experts where the model normalises its top-k (``norm_topk_prob``,
    always for Mixtral), so gradients still reach the router (Megatron-core's router replay).

    Raises:
        ValueError: ``model`` has no router, ``indices`` has the wrong number of layers or experts
            per token, an index out of range, or (at the forward) a different number of rows.
    """
    mods = routers(model)
    if not mods:
        raise ValueError("model: routing replay needs a mixture-of-experts model (this one has no router)")
    if indices.dim() != 4 or indices.shape[2] != len(mods) or indices.shape[3] != mods[0].top_k:
        raise ValueError(
            f"indices: expected (B, L, {len(mods)} layers, {mods[0].top_k}) expert indices, got {tuple(indices.shape)}"
        )
    n_exp = mods[0].num_experts
    if indices.numel() and (int(indices.min()) < 0 or int(indices.max()) >= n_exp):
        raise ValueError(f"indices: expert indices must be in [0, {n_exp - 1}]")
    flat = indices.reshape(-1, len(mods), indices.shape[3])  # (B * L, layers, k)

    def make(i):
        def hook(module, args, output):
            logits, _, _ = output
            if logits.shape[0] != flat.shape[0]:
                raise ValueError(
                    f"indices: recorded for {flat.shape[0]} positions, the forward routes {logits.shape[0]}"
                )
            idx = flat[:, i].to(logits.device)  # (N, k)
            probs = torch.softmax(logits.float(), dim=-1)  # (N, E)
            gates = probs.gather(-1, idx)  # (N, k)
            if getattr(module, "norm_topk_prob", True):
                gates = gates / gates.sum(-1, keepdim=True)
            return logits, gates.to(output[1].dtype), idx

        return hook

    handles = [m.register_forward_hook(make(i)) for i, m in enumerate(mods)]
    try:
        yield
    finally:
        for h in handles:
            h.remove()


def route_changed(before: torch.Tensor, after: torch.Tensor) -> torch.Tensor:
    """Whether each (token, layer) route chose a different set of experts (order ignored).

    Args:
        before, after: (..., layers, k) expert indices of the same positions.

    Returns:
        (..., layers) bool: True where the two top-k sets differ.

    Raises:
        ValueError: the shapes differ.
    """
    if before.shape != after.shape:
        raise ValueError(f"after: shape {tuple(after.shape)} differs from before's {tuple(before.shape)}")
    a, _ = before.sort(dim=-1)
    b, _ = after.sort(dim=-1)
    return (a != b).any(dim=-1)


def expert_load(indices: torch.Tensor, mask: torch.Tensor, num_experts: int) -> torch.Tensor:
    """Share of the routed (token, slot) assignments each expert gets, per layer.

    Args:
        indices: (B, L, layers, k) expert indices.
        mask: (B, L) 1 on the positions to count (e.g. the attention mask), 0 elsewhere.
        num_experts: E.

    Returns:
        (layers, E) float: each row sums to 1 (all 1/E when perfectly balanced).

    Raises:
        ValueError: shapes disagree, ``num_experts < 1`` or no position is counted.
    """
    if num_experts < 1:
        raise ValueError(f"num_experts: must be >= 1, got {num_experts}")
    if mask.shape != indices.shape[:2]:
        raise ValueError(f"mask: shape {tuple(mask.shape)} is not the (B, L) of indices {tuple(indices.shape)}")
    keep = mask.bool()
    if not bool(keep.any()):
        raise ValueError("mask: no position to count")
    sel = indices[keep]  # (n, layers, k)
    onehot = torch.nn.functional.one_hot(sel, num_experts).float()  # (n, layers, k, E)
    counts = onehot.sum(dim=(0, 2))  # (layers, E)
    return counts / counts.sum(-1, keepdim=True)
