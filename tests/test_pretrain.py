"""`python -m rlviz.lm.pretrain` rebuilds a checkpoint deterministically; the result loads like any HF model."""

import json

import pytest
import torch

from rlviz.lm.model import load_policy
from rlviz.lm.pretrain import main, pretrain


@pytest.fixture(autouse=True)
def one_thread():
    """main() runs on one thread (the same bits on any core count); restore the count afterwards."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def test_pretrain_is_deterministic_given_the_seed():
    a, _ = pretrain(seed=3, steps=4, log_every=0)
    b, _ = pretrain(seed=3, steps=4, log_every=0)
    c, _ = pretrain(seed=4, steps=4, log_every=0)
    for (name, pa), pb in zip(a.state_dict().items(), b.state_dict().values()):
        assert torch.equal(pa, pb), name
    assert any(not torch.equal(pa, pc) for pa, pc in zip(a.state_dict().values(), c.state_dict().values()))


def test_pretrain_main_writes_a_loadable_checkpoint_and_card(tmp_path):
    card = main(["--seed", "1", "--steps", "3", "--out", str(tmp_path)])
    saved = json.loads((tmp_path / "rlviz_card.json").read_text())
    assert saved["steps"] == card["steps"] == 3
    assert 0.0 <= saved["figures"]["heldout"]["pass_at_1"] <= 1.0
    model, tok = load_policy(str(tmp_path), device="cpu")
    assert sum(p.numel() for p in model.parameters()) == saved["parameters"]
    assert tok.decode(tok("12+3=")["input_ids"], skip_special_tokens=True) == "12+3="


def test_pretrain_moe_writes_a_moe_checkpoint_with_its_expert_load(tmp_path):
    card = main(["--moe", "--seed", "1", "--steps", "2", "--out", str(tmp_path)])
    assert card["architecture"] == "Qwen3MoeForCausalLM"
    load = card["figures"]["expert_load"]
    assert len(load["per_layer"]) == 4
    for row in load["per_layer"]:  # shares of the (token, slot) routes of each layer sum to 1
        assert sum(row) == pytest.approx(1.0, abs=1e-3) and len(row) == 8
    model, _ = load_policy(str(tmp_path), device="cpu")
    assert type(model).__name__ == "Qwen3MoeForCausalLM"


def test_per_layer_balance_loss_is_top_k_when_balanced_and_larger_when_not():
    from types import SimpleNamespace

    from rlviz.lm.pretrain import per_layer_balance_loss

    model = SimpleNamespace(config=SimpleNamespace(num_experts=4, num_experts_per_tok=2))
    mask = torch.ones(1, 4)
    # 4 tokens; token t prefers experts t and t+1 (mod 4): every expert gets half the tokens
    rotated = torch.stack([torch.roll(torch.tensor([5.0, 5.0, 0.0, 0.0]), t) for t in range(4)])
    # E x sum_i f_i P_i with f_i = 1/2 and P_i = 1/4 (rolled rows average to uniform): 4 x 4 x 1/8 = 2
    assert float(per_layer_balance_loss(model, (rotated,), mask)) == pytest.approx(2.0, abs=1e-3)
    skewed = torch.tensor([[9.0, 9.0, 0.0, 0.0]] * 4)  # every token to experts 0 and 1, P ~ (1/2, 1/2, 0, 0)
    # f = (1, 1, 0, 0), P ~ (0.5, 0.5, 0, 0): 4 x (0.5 + 0.5) = 4
    assert float(per_layer_balance_loss(model, (skewed,), mask)) == pytest.approx(4.0, abs=1e-3)
    # averaged over layers: (2 + 4) / 2
    assert float(per_layer_balance_loss(model, (rotated, skewed), mask)) == pytest.approx(3.0, abs=1e-3)


def test_pretrain_takes_the_task_and_is_deterministic_for_it():
    a, tok = pretrain(seed=3, steps=3, log_every=0, task="make_sum")
    b, _ = pretrain(seed=3, steps=3, log_every=0, task="make_sum")
    for (name, pa), pb in zip(a.state_dict().items(), b.state_dict().values()):
        assert torch.equal(pa, pb), name
    assert ":" in tok.get_vocab() and a.config.vocab_size == len(tok)
    with pytest.raises(ValueError, match="^task:"):
        pretrain(seed=0, steps=1, log_every=0, task="nope")


def test_make_batch_holds_the_tasks_warm_start_targets():
    from rlviz.lm import make_sum
    from rlviz.lm.pretrain import make_batch
    from rlviz.lm.tasks import TASKS
    from rlviz.lm.tokenizer import build_tokenizer

    tok = build_tokenizer(make_sum.CHARS)
    ids, mask, lab = make_batch(tok, 16, torch.Generator().manual_seed(0), TASKS["make_sum"])
    for row, m, lr in zip(ids, mask, lab):
        text = tok.decode(row[m.bool()], skip_special_tokens=True)
        prompt, _, answer = text.partition("=")
        assert make_sum.format_reward(None, answer, True)  # digits with + between them
        assert int(lr[lr >= 0][-1]) == tok.eos_token_id
        assert int((lr >= 0).sum()) == len(answer) + 1  # the answer and EOS are the only labels


def test_pretrain_main_builds_a_make_sum_checkpoint(tmp_path, monkeypatch):
    import dataclasses

    from rlviz.lm import tasks

    spec = tasks.TASKS["make_sum"]
    few = spec.heldout_problems()[:3]  # the card measured on 3 held-out prompts (and 3 train ones): cheap
    monkeypatch.setitem(tasks.TASKS, "make_sum", dataclasses.replace(spec, heldout_problems=lambda: few))
    card = main(["--task", "make_sum", "--seed", "1", "--steps", "2", "--out", str(tmp_path)])
    assert card["task"] == "make_sum" and card["max_new_tokens"] == 40 and card["slip"] == 0.08
    held = card["figures"]["heldout"]
    assert held["n_samples"] == 3 * 8 and set(held["pass_at_k"]) == {1, 2, 4, 8}
    assert 0 <= held["distinct_right"] <= 8
    # strict JSON: a share with no right answer (NaN) is written as null, never as NaN
    json.loads((tmp_path / "rlviz_card.json").read_text(), parse_constant=lambda c: pytest.fail(f"card holds {c}"))
    model, tok = load_policy(str(tmp_path), device="cpu")
    assert tok.decode(tok("23:5=")["input_ids"], skip_special_tokens=True) == "23:5="
    with pytest.raises(SystemExit):
        main(["--task", "make_sum", "--moe", "--steps", "1", "--out", str(tmp_path)])
