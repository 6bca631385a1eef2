"""Parity with TRL and verl: rlviz against vectors computed by the frameworks' own code.

The vectors (``rlviz/data/parity/*.json``) come from ``tools/parity/generate.py``, which runs TRL's
``GRPOTrainer._compute_loss`` and ``_generate_and_score_completions`` (its vLLM importance-sampling
correction) and verl's ``core_algos`` policy losses, ``kl_penalty``, advantage estimators and
``rollout_corr_helper`` weights and rejection masks on fixed float64 inputs; neither framework is
needed here. Each stored case is recomputed by rlviz and must agree to 1e-6 (loss and every per-token
gradient entry; KL values; advantages), rollout corrections to 1e-9 relative on every weight with the
same kept tokens. A case whose rlviz objective, estimator or correction does not exist fails, naming it.
"""

from __future__ import annotations

import json
import shutil

import pytest

from rlviz.core.corrections import CORRECTIONS, PRESETS
from rlviz.core.objectives import ALGORITHMS
from rlviz.core.parity import PARITY_DIR, TOLERANCE, check_all, checked_against, load_parity
from rlviz.experiments.home import framework_check

RESULTS = check_all()


@pytest.mark.parametrize("result", RESULTS, ids=[r.case_id for r in RESULTS])
def test_rlviz_matches_the_framework(result):
    # every stored case's objective or estimator exists now: one renamed or removed fails here
    assert result.status == "pass", (
        f"{result.case_id} ({result.framework} {result.version}, {result.function}, settings {result.settings}): "
        f"{result.reason}"
    )


def test_every_case_names_its_framework_version_function_and_settings():
    data = load_parity()
    assert set(data["frameworks"]) == {"trl", "verl"}
    for name, doc in data["frameworks"].items():
        assert doc["framework"] == name and doc["version"] and doc["dtype"] == "float64"
        for case in doc["corrections"] + doc["policy"] + doc.get("kl", []) + doc.get("advantages", []):
            assert case["function"] and isinstance(case["settings"], dict), case["id"]
    assert {r.kind for r in RESULTS} == {"correction", "policy", "kl", "advantages"}


def test_every_objective_a_framework_implements_has_a_case():
    # a registry entry that names a TRL or verl implementation needs a row in tools/parity/generate.py
    stored = {r.subject for r in RESULTS if r.kind == "policy"}
    named = {n for n, spec in ALGORITHMS.items() if spec.trl is not None or spec.verl is not None}
    assert named <= stored, f"no parity case for {sorted(named - stored)}"


def test_every_correction_a_framework_implements_has_a_case():
    # a correction entry that names a TRL or verl setting (other than "correction off") needs a case
    # for that framework in tools/parity/generate.py CORRECTION_CASES
    stored = {(r.subject, r.framework) for r in RESULTS if r.kind == "correction"}
    named = {
        (n, fw) for n, spec in CORRECTIONS.items() if spec.kind != "none" for fw in ("trl", "verl") if getattr(spec, fw)
    }
    assert named <= stored, f"no parity case for {sorted(named - stored)}"


def test_every_verl_preset_with_a_correction_part_has_a_case():
    # a preset that weighs or rejects (not bypass_ppo_clip / bypass_pg_is, which are the ppo and bypass_pg
    # objectives and checked by their cases) is run by verl's own compute_rollout_correction_and_rejection_mask
    stored = {r.subject for r in RESULTS if r.case_id.startswith("preset/verl/")}
    acting = {n for n, p in PRESETS.items() if p.is_correction is not None or p.rs_correction is not None}
    assert acting <= stored, f"no parity case for {sorted(acting - stored)}"
    assert stored <= set(PRESETS)


def test_a_wrong_correction_fails(tmp_path):
    # not vacuous: a kept token flipped, or a weight moved by 1e-8 relative, makes a passing case fail
    for file in PARITY_DIR.glob("*.json"):
        shutil.copy(file, tmp_path / file.name)
    doc = json.loads((tmp_path / "verl.json").read_text())
    mis, tis = (next(c for c in doc["corrections"] if c["correction"] == n) for n in ("token_mis", "token_tis"))
    mis["kept"][2][1] = not mis["kept"][2][1]
    tis["weight"][1][0] *= 1 + 1e-8
    (tmp_path / "verl.json").write_text(json.dumps(doc))
    results = {r.case_id: r for r in check_all(tmp_path)}
    assert results[mis["id"]].status == "fail" and "kept" in results[mis["id"]].reason
    assert results[tis["id"]].status == "fail" and "relative" in results[tis["id"]].reason


def test_a_wrong_number_fails(tmp_path):
    # the check is not vacuous: 2e-6 added to one gradient entry of a passing case makes it fail
    for file in PARITY_DIR.glob("*.json"):
        shutil.copy(file, tmp_path / file.name)
    doc = json.loads((tmp_path / "verl.json").read_text())
    case = next(c for c in doc["policy"] if c["objective"] == "grpo")
    case["grad"][1][2] += 2 * TOLERANCE
    (tmp_path / "verl.json").write_text(json.dumps(doc))
    result = next(r for r in check_all(tmp_path) if r.case_id == case["id"])
    assert result.status == "fail" and "gradient" in result.reason
    with pytest.raises(ValueError, match="directory"):
        load_parity(tmp_path / "missing")


def test_home_card_names_the_checked_versions():
    versions = {name: doc["version"] for name, doc in load_parity()["frameworks"].items()}
    assert checked_against()["grpo"] == (("TRL", versions["trl"]), ("verl", versions["verl"]))
    assert checked_against()["gspo_token"] == (("verl", versions["verl"]),)  # TRL's trainer has no GSPO-token
    assert framework_check("cispo") == ("checked", f"TRL {versions['trl']} / verl {versions['verl']}")
    with pytest.raises(ValueError, match="name"):
        framework_check("reinforce")
    assert checked_against("correction")["token_mis"] == (("TRL", versions["trl"]), ("verl", versions["verl"]))
    assert checked_against("correction")["geo_mean_rs"] == (("verl", versions["verl"]),)  # TRL has no such filter
    with pytest.raises(ValueError, match="kind"):
        checked_against("estimator")
