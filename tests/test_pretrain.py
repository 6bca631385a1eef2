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
