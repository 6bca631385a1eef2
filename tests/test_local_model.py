"""A user's own local Hugging Face model directory works like the shipped one (other architectures)."""

import math

import pytest
from transformers import GPT2Config, GPT2LMHeadModel, Qwen2Config, Qwen2ForCausalLM

from rlviz.experiments.live import LiveConfig, LiveRun
from rlviz.lm.tokenizer import build_tokenizer


def _qwen2(tok):
    return Qwen2ForCausalLM(
        Qwen2Config(
            vocab_size=len(tok),
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=2,
            num_key_value_heads=1,
            max_position_embeddings=64,
            bos_token_id=tok.bos_token_id,
            eos_token_id=tok.eos_token_id,
            pad_token_id=tok.pad_token_id,
        )
    )


def _gpt2(tok):
    return GPT2LMHeadModel(
        GPT2Config(
            vocab_size=len(tok),
            n_embd=32,
            n_layer=2,
            n_head=2,
            n_positions=64,
            bos_token_id=tok.bos_token_id,
            eos_token_id=tok.eos_token_id,
        )
    )


@pytest.mark.parametrize("build", [_qwen2, _gpt2], ids=["qwen2", "gpt2"])
def test_live_run_on_a_local_model_directory(tmp_path, build):
    tok = build_tokenizer()
    build(tok).save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    run = LiveRun(
        LiveConfig(
            algorithms=("grpo", "ppo"),
            steps=1,
            prompts_per_step=2,
            group_size=2,
            heldout_samples=1,
            model_dir=str(tmp_path),
            device="cpu",
        )
    )
    run.step()
    frame = run.metrics_frame()
    assert list(frame.algorithm) == ["grpo", "ppo"]
    assert all(math.isfinite(v) for v in frame.entropy) and all(math.isfinite(v) for v in frame.grad_norm)
    assert math.isfinite(frame.value_loss.iloc[1])  # PPO's critic is built on this architecture's trunk


def test_a_missing_model_directory_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="model_dir"):
        LiveRun(LiveConfig(model_dir=str(tmp_path / "nope")))
