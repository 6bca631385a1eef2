"""Tests for the tiny LM: tokenizer, task verifier and splits, loading, rollouts and log-probs."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest
import torch
from transformers import AutoTokenizer

from rlviz.lm.model import DEFAULT_MODEL_DIR, build_model, load_policy
from rlviz.lm.rollout import EOS_DISPLAY, response_log_probs, sample_rollouts
from rlviz.lm.task import (
    HELDOUT_SIZE,
    Problem,
    heldout_problems,
    is_heldout,
    make_problem,
    reward,
    sample_problems,
    train_problems,
)
from rlviz.lm.tokenizer import build_tokenizer


@pytest.fixture(scope="module")
def policy():
    return load_policy(device="cpu")


@pytest.fixture(scope="module")
def mixed_problems():
    held = heldout_problems()
    return [held[0], held[30], held[60], held[-1]]  # levels 1..4: prompt widths differ


# --- tokenizer ---------------------------------------------------------------------------------


def test_tokenizer_round_trip_and_specials():
    tok = build_tokenizer()
    ids = tok("37+5=.24")["input_ids"]
    assert ids[0] == tok.bos_token_id and len(ids) == 9  # BOS + one token per character
    assert tok.decode(ids, skip_special_tokens=True) == "37+5=.24"
    assert tok.convert_ids_to_tokens(ids[1:4]) == ["3", "7", "+"]
    assert len({tok.pad_token_id, tok.bos_token_id, tok.eos_token_id}) == 3
    tok.padding_side = "left"
    batch = tok(["1+1=", "37+45="], padding=True)
    assert batch["input_ids"][0][:2] == [tok.pad_token_id] * 2
    assert batch["attention_mask"][0] == [0, 0, 1, 1, 1, 1, 1]


def test_shipped_tokenizer_loads_with_autotokenizer():
    tok = AutoTokenizer.from_pretrained(DEFAULT_MODEL_DIR)
    ref = build_tokenizer()
    for text in ["0+0=", "999+999=..1", "12+3=57"]:
        assert tok(text)["input_ids"] == ref(text)["input_ids"]
    ids = tok("8+9=71")["input_ids"] + [tok.eos_token_id]
    assert tok.decode(ids, skip_special_tokens=True) == "8+9=71"


# --- task --------------------------------------------------------------------------------------


def test_reward_hand_cases():
    p = make_problem(37, 5, level=2)
    assert p == Problem("37+5=", "24", 2)
    assert reward(p, "24", True) == 1.0
    assert reward(p, "...24", True) == 1.0  # leading filler stripped
    assert reward(p, "42", True) == 0.0  # forward order is wrong
    assert reward(p, "2.4", True) == 0.0  # filler inside the answer
    assert reward(p, "24", False) == 0.0  # unfinished (no EOS)
    assert reward(p, "240", True) == 0.0
    assert reward(p, "", True) == 0.0


def test_splits_disjoint_and_deterministic():
    held = heldout_problems()
    assert len(held) == HELDOUT_SIZE >= 64
    assert len({p.prompt for p in held}) == len(held)
    assert {p.level for p in held} == {1, 2, 3, 4}
    assert all(is_heldout(p.prompt) for p in held)
    train = sample_problems(500, torch.Generator().manual_seed(0))
    assert not any(is_heldout(p.prompt) for p in train)
    assert all(p.answer == str(eval(p.prompt[:-1]))[::-1] for p in train + held)
    assert train_problems(3, 20) == train_problems(3, 20) != train_problems(4, 20)
    with pytest.raises(ValueError, match="levels"):
        sample_problems(2, torch.Generator(), levels={7: 1.0})


# --- model -------------------------------------------------------------------------------------


def test_load_policy_shipped(policy):
    model, tok = policy
    assert tok.padding_side == "left" and tok.pad_token_id is not None
    assert not model.training and next(model.parameters()).device.type == "cpu"
    card = json.loads((Path(DEFAULT_MODEL_DIR) / "rlviz_card.json").read_text())
    assert card["parameters"] == sum(p.numel() for p in model.parameters())
    assert (Path(DEFAULT_MODEL_DIR) / "model.safetensors").stat().st_size < 10e6
    # the shipped model has learned something: greedy answer to an easy prompt is right
    ids = tok("3+4=", return_tensors="pt")["input_ids"]
    assert tok.convert_ids_to_tokens(model(input_ids=ids).logits[0, -1].argmax().item()) in {"7", "."}


def test_load_policy_errors(tmp_path):
    with pytest.raises(ValueError, match="model_dir"):
        load_policy(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="model_dir"):
        load_policy(str(tmp_path))  # exists, no config.json


def test_build_model_seeded():
    tok = build_tokenizer()
    a, b, c = build_model(tok, 0), build_model(tok, 0), build_model(tok, 1)
    wa, wb, wc = (m.model.layers[0].mlp.up_proj.weight for m in (a, b, c))
    assert torch.equal(wa, wb) and not torch.equal(wa, wc)


# --- rollouts ----------------------------------------------------------------------------------


def test_rollout_deterministic_given_generator(policy, mixed_problems):
    model, tok = policy
    a = sample_rollouts(model, tok, mixed_problems, 4, 16, 1.0, torch.Generator().manual_seed(0))
    b = sample_rollouts(model, tok, mixed_problems, 4, 16, 1.0, torch.Generator().manual_seed(0))
    c = sample_rollouts(model, tok, mixed_problems, 4, 16, 1.0, torch.Generator().manual_seed(1))
    assert torch.equal(a.input_ids, b.input_ids) and a.texts == b.texts
    assert torch.equal(a.rollout_log_prob, b.rollout_log_prob) and torch.equal(a.rewards, b.rewards)
    assert not torch.equal(a.input_ids, c.input_ids) if a.input_ids.shape == c.input_ids.shape else True
    assert a.texts != c.texts


def test_rollout_shapes_masks_and_rewards(policy, mixed_problems):
    model, tok = policy
    G, T = 8, 16
    b = sample_rollouts(model, tok, mixed_problems, G, T, 1.0, torch.Generator().manual_seed(2))
    B, P = len(mixed_problems) * G, b.prompt_width
    assert b.problems == [p for p in mixed_problems for _ in range(G)] and b.group_size == G
    assert b.input_ids.shape[0] == B and b.response_ids.shape[1] <= T
    assert torch.equal(b.response_ids, b.input_ids[:, P:])
    assert P == max(len(tok(p.prompt)["input_ids"]) for p in mixed_problems)
    assert torch.equal(b.position_ids, (b.attention_mask.cumsum(-1) - 1).clamp(min=0))
    assert torch.equal(b.response_mask, b.attention_mask[:, P:].float())
    eos, pad = tok.eos_token_id, tok.pad_token_id
    for i in range(B):
        row, n = b.response_ids[i].tolist(), int(b.response_lengths[i])
        assert b.response_mask[i].sum() == n and b.response_mask[i, :n].all()
        assert all(t == pad for t in row[n:])
        if b.truncated[i]:
            assert n == T and eos not in row
        else:
            assert row.index(eos) == n - 1 and b.tokens[i][-1] == EOS_DISPLAY
        assert len(b.tokens[i]) == n
        clean = not ({pad, tok.bos_token_id} & set(row[:n]))  # no hidden special token sampled
        assert b.rewards[i] == reward(b.problems[i], b.texts[i], not bool(b.truncated[i]) and clean)
        assert b.texts[i] == tok.decode(row[:n], skip_special_tokens=True)
    assert (b.rollout_log_prob[b.response_mask == 0] == 0).all()
    assert (b.rollout_log_prob[b.response_mask == 1] <= 0).all() and b.rollout_log_prob.sum() < 0
    # the shipped checkpoint gets easy prompts right most of the time and the 3-digit one wrong
    r = b.rewards.view(-1, G).mean(-1)
    assert r[0] >= 0.5 and r[-1] <= 0.5


@pytest.mark.parametrize(
    "kwargs",
    [
        {"temperature": 1.0},
        {"temperature": 1.6},
        {"temperature": 1.0, "top_p": 0.9, "top_k": 5},
        {"temperature": 1.0, "greedy": True},
        {"temperature": 1.0, "sampler_dtype": torch.bfloat16},
    ],
    ids=["t1", "t1.6", "truncated", "greedy", "bf16"],
)
def test_sampler_drops_finished_rows_and_samples_the_same(policy, mixed_problems, kwargs, monkeypatch):
    """A row stops being decoded once it has sampled EOS; the responses are those of decoding every row."""
    import rlviz.lm.rollout as rollout

    model, tok = policy
    seen = []  # rows of each one-token decoding forward (the prompt's forward and the scoring one are longer)
    hook = model.register_forward_pre_hook(
        lambda m, a, kw: seen.append(kw["input_ids"].shape[0]) if kw["input_ids"].shape[1] == 1 else None,
        with_kwargs=True,
    )
    batches, rows = {}, {}
    try:
        for drop in (True, False):
            monkeypatch.setattr(rollout, "_DROP_FINISHED", drop)
            seen.clear()
            batches[drop] = sample_rollouts(
                model, tok, mixed_problems, 8, 16, generator=torch.Generator().manual_seed(7), **kwargs
            )
            rows[drop] = list(seen)
    finally:
        hook.remove()
    a, b = batches[True], batches[False]
    for name in ("input_ids", "attention_mask", "position_ids", "response_lengths", "truncated", "rewards"):
        assert torch.equal(getattr(a, name), getattr(b, name)), name
    assert a.texts == b.texts
    # the decoding forwards' rows differ by batch size only, so their log-probs (the truncated sampler's
    # kept mass) agree to rounding; the scoring forward is over the same whole batch
    torch.testing.assert_close(a.rollout_log_prob, b.rollout_log_prob, atol=1e-5, rtol=0)
    if kwargs.get("sampler_dtype") is None:  # one model: no deep copy whose forwards the hook misses
        B, T = a.input_ids.shape[0], a.response_ids.shape[1]
        # a response of n tokens (EOS included) needs the logits after each of its first n - 1 tokens
        assert sum(rows[True]) == int(a.response_lengths.sum()) - B
        assert rows[False] == [B] * (T - 1)  # every row, up to the last drawn token
        assert rows[True] == sorted(rows[True], reverse=True) and rows[True][-1] < B
        assert sum(rows[True]) < 0.8 * sum(rows[False])  # the shipped model's responses mostly end early


def test_rollout_log_prob_is_the_recompute_and_padding_invariant(policy, mixed_problems):
    model, tok = policy
    b = sample_rollouts(model, tok, mixed_problems, 3, 12, 0.7, torch.Generator().manual_seed(3))
    lp, ent = response_log_probs(
        model, b.input_ids, b.attention_mask, b.position_ids, b.prompt_width, 0.7, with_entropy=True
    )
    m = b.response_mask.bool()
    assert torch.equal(torch.exp(lp[m] - b.rollout_log_prob[m]), torch.ones(int(m.sum())))  # ratio exactly 1
    assert ent.shape == lp.shape and (ent[m] >= 0).all() and (ent[m] <= math.log(len(tok)) + 1e-5).all()
    assert torch.isfinite(lp).all()
    # a padded row scores as the same sequence alone, without any padding
    for i in range(0, len(b.problems), 3):
        keep = b.attention_mask[i].bool()
        ids = b.input_ids[i][keep][None]  # (1, n_real)
        p_real = int(b.attention_mask[i, : b.prompt_width].sum())
        alone, _ = response_log_probs(model, ids, torch.ones_like(ids), torch.arange(ids.shape[1])[None], p_real, 0.7)
        n = int(b.response_lengths[i])
        torch.testing.assert_close(alone[0, :n], b.rollout_log_prob[i, :n], atol=1e-5, rtol=0)


def test_response_log_probs_is_differentiable_and_tempered(policy, mixed_problems):
    model, tok = policy
    b = sample_rollouts(model, tok, mixed_problems[:2], 2, 8, 1.0, torch.Generator().manual_seed(4))
    args = (model, b.input_ids, b.attention_mask, b.position_ids, b.prompt_width)
    lp1, _ = response_log_probs(*args, 1.0)
    lp2, _ = response_log_probs(*args, 2.0)
    m = b.response_mask.bool()
    assert not torch.allclose(lp1[m], lp2[m])
    (lp1 * b.response_mask).sum().backward()
    grad = model.model.embed_tokens.weight.grad
    assert grad is not None and grad.abs().sum() > 0
    model.zero_grad(set_to_none=True)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"group_size": 0}, "group_size"),
        ({"max_new_tokens": 0}, "max_new_tokens"),
        ({"temperature": 0.0}, "temperature"),
        ({"temperature": -1.0}, "temperature"),
        ({"temperature": float("nan")}, "temperature"),
    ],
)
def test_sample_rollouts_validates(policy, mixed_problems, kwargs, name):
    model, tok = policy
    args = {"group_size": 2, "max_new_tokens": 4, "temperature": 1.0} | kwargs
    with pytest.raises(ValueError, match=name):
        sample_rollouts(model, tok, mixed_problems, generator=torch.Generator(), **args)


def _padded(model, b, temperature):
    """The reference computation: the padded batch through the model, logits sliced, log-softmax."""
    logits = model(input_ids=b.input_ids, attention_mask=b.attention_mask, position_ids=b.position_ids).logits
    logp = torch.log_softmax(logits[:, b.prompt_width - 1 : -1].float() / temperature, -1)  # (B, T, V)
    return logp.gather(-1, b.input_ids[:, b.prompt_width :, None]).squeeze(-1), -(logp.exp() * logp).sum(-1)


@pytest.mark.parametrize("arch", ["shipped llama", "qwen2"])
def test_packed_rows_give_the_padded_batchs_log_probs_and_gradients(policy, mixed_problems, arch):
    # response_log_probs packs the real tokens of several rows into one (no padding computed); every
    # response token's log-prob, entropy and gradient are the padded batch's up to float rounding
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from rlviz.lm.rollout import packable

    model, tok = policy
    if arch == "qwen2":
        torch.manual_seed(0)
        shape = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2)
        model = Qwen2ForCausalLM(Qwen2Config(vocab_size=len(tok), num_key_value_heads=1, **shape))
    assert packable(model)
    b = sample_rollouts(model, tok, mixed_problems * 3, 4, 12, 1.0, torch.Generator().manual_seed(5), score=False)
    args = (model, b.input_ids, b.attention_mask, b.position_ids, b.prompt_width, 0.8)
    m = b.response_mask.bool()
    lp, ent = response_log_probs(*args, with_entropy=True)
    (lp * b.response_mask).sum().backward()
    packed_grad = [p.grad.clone() for p in model.parameters()]
    model.zero_grad(set_to_none=True)
    ref_lp, ref_ent = _padded(model, b, 0.8)
    (ref_lp * b.response_mask).sum().backward()
    torch.testing.assert_close(lp[m], ref_lp[m], atol=1e-5, rtol=0)
    torch.testing.assert_close(ent[m], ref_ent[m], atol=1e-5, rtol=0)
    for got, want in zip(packed_grad, (p.grad for p in model.parameters())):
        torch.testing.assert_close(got, want, atol=1e-4, rtol=1e-4)
    model.zero_grad(set_to_none=True)
    assert torch.isfinite(lp).all() and torch.isfinite(ent).all()  # padding: finite, meaningless


def test_rows_that_are_not_one_run_of_tokens_are_scored_padded(policy, mixed_problems):
    # a mask with a hole in a row cannot be packed as one sequence: the padded batch is run instead
    from rlviz.lm.rollout import _packed_response_logits

    model, tok = policy
    b = sample_rollouts(model, tok, mixed_problems, 2, 8, 1.0, torch.Generator().manual_seed(6), score=False)
    holed = b.attention_mask.clone()
    holed[0, b.prompt_width - 2] = 0  # a prompt token of row 0 masked out, the positions kept
    assert _packed_response_logits(model, b.input_ids, holed, b.position_ids, b.prompt_width) is None
    with torch.no_grad():
        lp, _ = response_log_probs(model, b.input_ids, holed, b.position_ids, b.prompt_width, 1.0)
        want = _padded(model, dataclasses.replace(b, attention_mask=holed), 1.0)[0]
    m = b.response_mask.bool()
    torch.testing.assert_close(lp[m], want[m], atol=1e-6, rtol=0)
