"""The tiny policy: a Llama-style causal LM built by `transformers` from a config, loaded like any HF model."""

from __future__ import annotations

import copy
import threading
from pathlib import Path

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, LlamaConfig, LlamaForCausalLM

from ..device import pick_device

__all__ = ["DEFAULT_MODEL_DIR", "model_config", "build_model", "load_policy"]

DEFAULT_MODEL_DIR = str(Path(__file__).resolve().parent / "assets" / "tinylm")  # shipped checkpoint

# ``from_pretrained`` builds the model on the meta device by patching process-wide state; two loads
# in two threads (two sessions of one server) interleave those patches and leave them in place, so
# both fail and so does every later load ("Cannot copy out of meta tensor"). Loads are serialised,
# and each directory is read once per process: sessions get deep copies of a template no one trains.
_LOAD_LOCK = threading.Lock()
_TEMPLATES: dict[tuple, tuple] = {}


def _signature(path: Path) -> tuple:
    """What identifies a directory's contents: the name, size and modification time of each file."""
    return tuple(sorted((f.name, f.stat().st_size, f.stat().st_mtime_ns) for f in path.iterdir() if f.is_file()))


def model_config(tokenizer) -> LlamaConfig:
    """The shipped architecture: ~0.8M parameters, ~3.5 MB as float32 safetensors."""
    return LlamaConfig(
        vocab_size=len(tokenizer),  # 16 characters and specials
        hidden_size=128,  # residual width
        intermediate_size=384,  # SwiGLU MLP width
        num_hidden_layers=4,
        num_attention_heads=4,  # head dim 32
        num_key_value_heads=4,
        max_position_embeddings=64,  # prompt (<= 9) + response (<= 16) with room to spare
        rope_theta=10000.0,
        tie_word_embeddings=True,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )


def build_model(tokenizer, seed: int) -> LlamaForCausalLM:
    """A freshly initialised tiny Llama for ``tokenizer``; initial weights depend only on ``seed``.

    Initialisation uses a forked global RNG so the caller's RNG state is left untouched.
    """
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = LlamaForCausalLM(model_config(tokenizer))
    return model


def load_policy(model_dir: str | None = None, device: str | None = None, dtype: torch.dtype = torch.float32):
    """Load a causal LM and its tokenizer from a local Hugging Face directory.

    Args:
        model_dir: directory written by ``save_pretrained`` (``None``: the shipped ``DEFAULT_MODEL_DIR``).
            Any local HF causal-LM directory works the same way (no remote code is trusted).
        device: device name for ``rlviz.device.pick_device`` (``None``: best available).
        dtype: parameter dtype.

    Returns:
        ``(model, tokenizer)``: the model in eval mode on the chosen device; the tokenizer with
        ``padding_side = "left"`` and a pad token (EOS when the checkpoint has none).

    Thread-safe: loads are serialised process-wide, and a directory is read from disk once per
    process (again when its files change); every call returns its own deep copy, so sessions never
    share a model or a tokenizer. Weights load from safetensors only (``use_safetensors=True``): a
    pickle checkpoint (``pytorch_model.bin``) is refused.

    Raises:
        ValueError: naming ``model_dir``: it does not exist, has no ``config.json``, or does not load
            (no tokenizer, no safetensors weights, a corrupt file: the message says which and how to
            fix it); naming ``device``: unavailable.
    """
    model_dir = DEFAULT_MODEL_DIR if model_dir is None else str(model_dir)
    path = Path(model_dir)
    if not path.is_dir():
        raise ValueError(f"model_dir: {model_dir!r} is not a directory")
    if not (path / "config.json").is_file():
        raise ValueError(f"model_dir: {model_dir!r} has no config.json (not a Hugging Face model directory)")
    dev = pick_device(device)
    key = (str(path.resolve()), dtype, _signature(path))
    with _LOAD_LOCK:
        if key not in _TEMPLATES:
            try:
                tokenizer = AutoTokenizer.from_pretrained(model_dir)
                template = AutoModelForCausalLM.from_pretrained(model_dir, dtype=dtype, use_safetensors=True)
            except (OSError, ValueError, KeyError, TypeError, RuntimeError) as exc:  # what transformers raises
                raise ValueError(
                    f"model_dir: {path.name!r} could not be loaded as a Hugging Face causal LM with a tokenizer and "
                    f"safetensors weights ({type(exc).__name__}: {str(exc).splitlines()[0][:200]}); "
                    "save it with save_pretrained(..., safe_serialization=True) and its tokenizer beside it"
                ) from exc
            tokenizer.padding_side = "left"
            if tokenizer.pad_token is None:
                tokenizer.pad_token = tokenizer.eos_token
            for old in [k for k in _TEMPLATES if k[:2] == key[:2]]:  # the directory's files changed
                del _TEMPLATES[old]
            _TEMPLATES[key] = (template.eval().requires_grad_(False), tokenizer)
        template, tokenizer = _TEMPLATES[key]
        model, tokenizer = copy.deepcopy(template), copy.deepcopy(tokenizer)
    model.requires_grad_(True)
    return model.to(dev).eval(), tokenizer
