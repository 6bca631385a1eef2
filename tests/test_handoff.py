"""The config export (rlviz.teach.export) as TRL and verl take it: the stored results of
``tools/parity/handoff.py``, which hands each case's export to ``trl.GRPOConfig`` and to verl's Hydra
trainer config (``ppo_trainer``, or verl-recipe's ``dapo_trainer`` for the DAPO reward manager's keys)
and reads every value back. Neither framework is needed here: each stored case's export is recomputed
by rlviz and must be the stored one (an export.py change without a regenerated file fails), accepted by
both frameworks with every value read back unchanged, except the refusals listed in KNOWN_REFUSED.
"""

from __future__ import annotations

import json

import pytest

from rlviz.core.corrections import CORRECTIONS
from rlviz.core.estimators import ESTIMATORS
from rlviz.core.kl import KL_ESTIMATORS
from rlviz.core.objectives import ALGORITHMS
from rlviz.core.parity import PARITY_DIR
from rlviz.teach.export import FRAMEWORKS, export_config

DOC = json.loads((PARITY_DIR / "handoff.json").read_text(encoding="utf-8"))
CASES = DOC["cases"]
REGENERATE = "regenerate: /work/venv-parity/bin/python tools/parity/handoff.py --verl-recipe <checkout>"
# (case id, framework) -> what the framework says; a new refusal fails, and so does a fixed one left here
KNOWN_REFUSED = {
    # verl 0.9.1 has router replay in its Megatron engine only (actor.megatron.router_replay.mode in
    # ppo_megatron_trainer); the FSDP ppo_trainer has no such key
    ("grpo/routing_R2", "verl"): "Could not override 'actor_rollout_ref.actor.router_replay.mode'",
}


def _json(value) -> str:
    # strict: True is not 1, 2.0 is not 2, "0.5_2" is not 0.52
    return json.dumps(value, sort_keys=True)


def _export(case):
    return export_config(case["algorithm"], case["loss_overrides"], case["train_overrides"], case["train_config"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_stored_export_is_what_rlviz_exports_now(case):
    exported = _export(case)
    assert _json({"trl": exported.trl, "verl": exported.verl}) == _json(case["exported"]), REGENERATE


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_frameworks_took_every_value(case):
    for fw in FRAMEWORKS:
        result = case[fw]
        known = KNOWN_REFUSED.get((case["id"], fw))
        if known is not None:
            assert not result["accepted"] and known in result["error"], (fw, result["error"])
            continue
        assert result["accepted"], (fw, result["error"])
        for key, value in case["exported"][fw].items():  # no name ignored, renamed or re-parsed
            assert _json(result["read_back"].get(key)) == _json(value), (fw, key, result["read_back"].get(key))


def test_every_registry_entry_is_accepted_by_both_frameworks():
    by_id = {c["id"]: c for c in CASES}
    for name in ALGORITHMS:
        for variant in ("defaults", "run"):  # the registry's settings; with a run's training settings
            case = by_id.get(f"{name}/{variant}")
            assert case is not None, f"no stored case {name}/{variant}: {REGENERATE}"
            assert case["trl"]["accepted"] and case["verl"]["accepted"], case["id"]


def test_the_cases_cover_the_registries_and_name_their_versions():
    ids = {c["id"] for c in CASES}
    assert {f"grpo/kl_{k}" for k in KL_ESTIMATORS} <= ids, REGENERATE
    assert {f"grpo/adv_{e}" for e in ESTIMATORS} <= ids, REGENERATE
    assert {f"grpo/correction_{c}" for c in CORRECTIONS} <= ids, REGENERATE
    assert DOC["versions"]["trl"] and DOC["versions"]["verl"] and DOC["verl_recipe_commit"]
    assert {c[fw].get("config") for c in CASES for fw in ("verl",)} <= {
        "verl ppo_trainer",
        "verl-recipe dapo_trainer",
        None,
    }
    assert set(KNOWN_REFUSED) <= {(c["id"], fw) for c in CASES for fw in FRAMEWORKS}
