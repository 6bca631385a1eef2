"""A classroom on one server (issue 12), the library side: model loads from many sessions at once,
safetensors only, and a clear message for a directory that does not load."""

from __future__ import annotations

import json
import threading

import pytest
import torch

from rlviz.lm.model import load_policy
from rlviz.lm.moe import MOE_MODEL_DIR


def test_concurrent_loads_all_succeed_and_are_independent():
    # two loads in two threads once broke every load of the server ("Cannot copy out of meta tensor")
    results, errors = [], []

    def load(model_dir):
        try:
            results.append(load_policy(model_dir, "cpu"))
        except Exception as exc:  # noqa: BLE001 - any failure is the bug
            errors.append(repr(exc))

    threads = [threading.Thread(target=load, args=(MOE_MODEL_DIR if i % 2 else None,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(results) == 6
    (a, _), (b, _) = load_policy(None, "cpu"), load_policy(None, "cpu")  # and later loads still work
    # every session gets its own copy: changing one changes no other
    with torch.no_grad():
        next(a.parameters()).add_(1.0)
    assert not torch.equal(next(a.parameters()), next(b.parameters()))
    assert all(p.requires_grad for p in b.parameters())


def test_a_pickle_checkpoint_is_refused_and_a_broken_directory_is_named(tmp_path):
    model, tokenizer = load_policy(None, "cpu")
    pickled = tmp_path / "pickled"
    model.config.save_pretrained(pickled)
    tokenizer.save_pretrained(pickled)
    torch.save(model.state_dict(), pickled / "pytorch_model.bin")  # a pickle: loading it can run code
    assert not list(pickled.glob("*.safetensors"))
    with pytest.raises(ValueError, match="^model_dir: 'pickled' could not be loaded.*safetensors"):
        load_policy(str(pickled), "cpu")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text(json.dumps({"model_type": "llama"}))  # no weights, no tokenizer
    with pytest.raises(ValueError, match="^model_dir: 'broken' could not be loaded"):
        load_policy(str(broken), "cpu")
