"""The config export (rlviz.teach.export): TRL GRPOConfig arguments and verl overrides named by the
registry, the documented differences computed for the settings at hand, and the expander on each page
that exports (AppTest)."""

from __future__ import annotations

import ast
import dataclasses
import re
import string

import pytest
from apptools import no_exception, open_page

from rlviz.core.objectives import ALGORITHMS, TRAINER_SETTINGS
from rlviz.i18n import t
from rlviz.lm.trainer import TrainConfig
from rlviz.teach.export import (
    FRAMEWORKS,
    IMPLICIT,
    SETTING_NOTES,
    TRAIN_NAMES,
    VALUES,
    ExportedConfig,
    export_config,
    framework_name,
)

LOSS_MODE = "actor_rollout_ref.actor.policy_loss.loss_mode"
VERL_LINE = re.compile(r"^[A-Za-z_][\w.]*=\S+$")
# Every argument the export may write, read from the framework snapshots of shared/reference
# (TRL f2cd577 trl/trainer/grpo_config.py, with TrainingArguments' batch and optimiser fields, and
# TRL 1.16.0's use_bias_correction_kl, top_entropy_quantile, off_policy_mask_threshold; verl
# b178a3c _generated_ppo_trainer.yaml, and verl-recipe's dapo_trainer.yaml for the DAPO-only keys):
# a name mistyped in the registry or in the export fails here.
TRL_ARGUMENTS = set(
    "beta delta entropy_coef epsilon epsilon_high gradient_accumulation_steps importance_sampling_level "
    "learning_rate loss_type mask_truncated_completions max_completion_length max_grad_norm num_generations "
    "num_iterations per_device_train_batch_size sapo_temperature_neg sapo_temperature_pos scale_rewards "
    "steps_per_generation temperature vespo_k_pos vespo_lambda_pos vespo_k_neg vespo_lambda_neg "
    "use_bias_correction_kl top_entropy_quantile off_policy_mask_threshold".split()
)
VERL_KEYS = {
    *(
        f"actor_rollout_ref.actor.{k}"
        for k in (
            "policy_loss.loss_mode clip_ratio_low clip_ratio_high clip_ratio_c tau_pos tau_neg loss_agg_mode "
            "loss_scale_factor use_kl_loss kl_loss_coef kl_loss_type entropy_coeff ppo_epochs ppo_mini_batch_size "
            "grad_clip optim.lr router_replay.mode policy_loss.clip_cov_ratio policy_loss.clip_cov_lb "
            "policy_loss.clip_cov_ub policy_loss.kl_cov_ratio policy_loss.ppo_kl_coef policy_loss.dro_beta"
        ).split()
    ),
    "actor_rollout_ref.rollout.n",
    "actor_rollout_ref.rollout.temperature",
    "actor_rollout_ref.rollout.dtype",
    "data.train_batch_size",
    "data.max_response_length",
    "critic.optim.lr",
    *(
        f"algorithm.{k}"
        for k in (
            "adv_estimator norm_adv_by_std_in_grpo gamma lam use_kl_in_reward kl_penalty kl_ctrl.kl_coef "
            "filter_groups.enable filter_groups.metric filter_groups.max_num_gen_batches "
            # verl 0.9.1 _generated_ppo_trainer.yaml: the rollout correction's bypass mode (bypass_pg)
            "rollout_correction.bypass_mode rollout_correction.loss_type rollout_correction.rollout_is "
            "rollout_correction.rollout_is_threshold"
        ).split()
    ),
    # verl-recipe dapo/config/dapo_trainer.yaml (48ea0a7): the DAPO reward manager's settings
    "reward.reward_manager.name",
    "reward.reward_kwargs.max_resp_len",
    "reward.reward_kwargs.overlong_buffer_cfg.enable",
    "reward.reward_kwargs.overlong_buffer_cfg.len",
    "reward.reward_kwargs.overlong_buffer_cfg.penalty_factor",
}
RUN = {"prompts_per_step": 6, "group_size": 4, "mini_batches": 3, "max_new_tokens": 10}  # B = 6 * 4 / 3 = 8


def _run(name: str, **settings) -> TrainConfig:
    """A run of ``name`` that switches every optional branch on (KL in the loss, the dual clip)."""
    return TrainConfig(algorithm=name, **RUN, settings=settings)


def _notes(exported: ExportedConfig, framework: str, lang: str = "en") -> str:
    return "\n".join(n[lang] for n in exported.notes if n["framework"] == framework)


def _check(exported: ExportedConfig) -> None:
    """Names from the registry and the snapshots; the snippet parses; the overrides are key=value."""
    assert set(exported.trl) <= TRL_ARGUMENTS, set(exported.trl) - TRL_ARGUMENTS
    assert set(exported.verl) <= VERL_KEYS, set(exported.verl) - VERL_KEYS
    tree = ast.parse(exported.to_trl_python())
    call = next(node for node in ast.walk(tree) if isinstance(node, ast.Call))
    assert call.func.id == "GRPOConfig"
    assert {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords} == exported.trl
    lines = exported.to_verl_cli().splitlines()
    assert lines and all(VERL_LINE.match(line) for line in lines), lines
    assert {line.split("=", 1)[0] for line in lines} == set(exported.verl)
    for note in exported.notes:
        assert note["framework"] in FRAMEWORKS and note["en"] and note["zh"] and "{" not in note["en"] + note["zh"]


@pytest.mark.parametrize("name", list(ALGORITHMS))
@pytest.mark.parametrize("with_run", [False, True])
def test_every_entry_exports_under_the_registry_names(name, with_run):
    spec = ALGORITHMS[name]
    settings = {"beta": 0.1} | ({"dual_clip_c": 3.0} if "dual_clip_c" in spec.defaults else {})
    exported = export_config(name, settings, train_config=_run(name) if with_run else None)
    _check(exported)
    assert exported.trl_main is (spec.trl is not None)
    # the objective's selector, then each surrogate setting under its registry name (unless the
    # selector decides that argument, or a note says the framework has no equivalent)
    for fw, selector, out in (("trl", spec.trl or {}, exported.trl), ("verl", spec.verl or {}, exported.verl)):
        for key, value in selector.items():
            assert (key in out) is (value is not None)
        for s in spec.surrogate_settings:
            key = framework_name(s, fw)
            if key and key not in selector and s.name not in exported.unmapped.get(fw, {}):
                assert key in out, (fw, s.name, key)
    if spec.verl is None:  # no verl loss selects it: the export writes none and says so
        assert LOSS_MODE not in exported.verl and any(n["framework"] == "verl" for n in exported.notes)
    else:
        assert exported.verl[LOSS_MODE] == spec.verl[LOSS_MODE]
    assert exported.trl["beta"] == 0.1 and exported.verl["actor_rollout_ref.actor.kl_loss_coef"] == 0.1
    assert exported.verl["actor_rollout_ref.actor.use_kl_loss"] is True
    if with_run:  # the run's training settings, under the names of TrainConfig's table
        assert exported.trl["learning_rate"] == TrainConfig.lr and exported.trl["num_generations"] == 4
        assert exported.verl["actor_rollout_ref.rollout.n"] == 4 and exported.verl["data.train_batch_size"] == 6
        assert exported.verl["actor_rollout_ref.actor.ppo_mini_batch_size"] == 2  # prompts per mini-batch
        assert exported.trl["num_iterations"] == exported.verl["actor_rollout_ref.actor.ppo_epochs"] == TrainConfig.mu
        assert exported.trl["per_device_train_batch_size"] * exported.trl["steps_per_generation"] == 24
        assert exported.trl["max_completion_length"] == exported.verl["data.max_response_length"] == 10


def test_dapo_by_hand():
    exported = export_config("dapo")
    assert exported.trl["epsilon"] == 0.2 and exported.trl["epsilon_high"] == 0.28
    assert exported.trl["loss_type"] == "dapo"
    assert exported.verl["actor_rollout_ref.actor.clip_ratio_low"] == 0.2
    assert exported.verl["actor_rollout_ref.actor.clip_ratio_high"] == 0.28
    assert exported.verl["actor_rollout_ref.actor.loss_agg_mode"] == "token-mean"
    assert exported.verl[LOSS_MODE] == "vanilla"
    # DAPO's dynamic sampling: verl-recipe only; none in TRL
    assert exported.verl["algorithm.filter_groups.enable"] is True
    assert "dynamic_sampling" in exported.unmapped["trl"]


def test_gspo_by_hand():
    exported = export_config("gspo")
    assert exported.trl["importance_sampling_level"] == "sequence" and exported.trl["loss_type"] == "grpo"
    assert exported.verl[LOSS_MODE] == "gspo"
    # verl's gspo loss fixes seq-mean-token-mean: another mode has no equivalent there, and says so
    token = export_config("gspo", {"loss_agg_mode": "token-mean"})
    assert "loss_agg_mode" in token.unmapped["verl"] and "token-mean" in _notes(token, "verl")
    assert token.trl["loss_type"] == "dapo"


def test_dr_grpo_note_computes_the_factor_b():
    exported = export_config("dr_grpo", train_config=_run("dr_grpo"))
    assert exported.trl["loss_type"] == "dr_grpo" and exported.trl["max_completion_length"] == 10
    assert exported.trl["scale_rewards"] == "none"
    assert exported.verl["actor_rollout_ref.actor.loss_scale_factor"] == 10  # L_max, as the trainer uses
    note = _notes(exported, "verl")
    # B = 6 prompts x 4 responses / 3 mini-batches = 8 responses per optimizer step; B x L_max = 80
    assert "B = 8 " in note and "8 times larger" in note and "loss_scale_factor=80" in note
    assert "B = 8 " in _notes(exported, "verl", "zh")
    # a Dr.GRPO constant other than the length limit: TRL reads max_completion_length for both
    other = export_config("dr_grpo", {"norm_length": 20}, train_config=_run("dr_grpo"))
    assert "norm_length" in other.unmapped["trl"] and other.trl["max_completion_length"] == 10
    assert "max_completion_length" in _notes(other, "trl")
    assert other.verl["actor_rollout_ref.actor.loss_scale_factor"] == 20


def test_cispo_note_about_trl_absolute_cap():
    exported = export_config("cispo", {"epsilon_high": 0.5})
    assert exported.trl["loss_type"] == "cispo"
    assert exported.trl["epsilon_high"] == 1.5 and "epsilon" not in exported.trl  # the cap itself; epsilon unread
    assert exported.verl["actor_rollout_ref.actor.clip_ratio_high"] == 0.5  # verl: an offset from 1
    note = _notes(exported, "trl")
    assert "absolute cap" in note and "epsilon_high = 1.5" in note
    # a lower bound above 0 (ε_low < 1) has no TRL equivalent
    floored = export_config("cispo", {"epsilon_low": 0.2})
    assert "epsilon_low" in floored.unmapped["trl"] and "0.8" in _notes(floored, "trl")
    assert floored.verl["actor_rollout_ref.actor.clip_ratio_low"] == 0.2


def test_a_changed_slider_appears_in_both_outputs():
    exported = export_config("sapo", {"tau_pos": 2.5})
    assert exported.trl["sapo_temperature_pos"] == 2.5 and exported.verl["actor_rollout_ref.actor.tau_pos"] == 2.5
    assert exported.trl["loss_type"] == "sapo"
    exported = export_config("dapo", {"epsilon_high": 0.35})
    assert exported.trl["epsilon_high"] == 0.35 and exported.verl["actor_rollout_ref.actor.clip_ratio_high"] == 0.35
    assert "epsilon_high=0.35" in exported.to_trl_python() and "clip_ratio_high=0.35" in exported.to_verl_cli()


def test_dual_clip_and_shared_vocabulary():
    off = export_config("grpo")
    assert "dual_clip_c" in off.unmapped["verl"] and "clip_ratio_c" in _notes(off, "verl")  # always on in verl
    on = export_config("grpo", {"dual_clip_c": 3.0})
    assert on.trl["delta"] == 3.0 and on.verl["actor_rollout_ref.actor.clip_ratio_c"] == 3.0
    low = export_config("dapo", {"dual_clip_c": 1.2})  # c <= 1 + ε_high: TRL's delta would cap A > 0 too
    assert "delta" not in low.trl and "dual_clip_c" in low.unmapped["trl"]
    k2 = export_config("grpo", {"kl_estimator": "k2"})
    assert k2.verl["actor_rollout_ref.actor.kl_loss_type"] == "mse" and "kl_estimator" in k2.unmapped["trl"]
    batch = export_config("grpo", train_overrides={"scale_rewards": "batch"})
    assert batch.trl["scale_rewards"] == "batch" and "scale_rewards" in batch.unmapped["verl"]
    replay = export_config("grpo", train_overrides={"routing_replay": "R2"})
    assert (
        replay.verl["actor_rollout_ref.actor.router_replay.mode"] == "R2" and "routing_replay" in replay.unmapped["trl"]
    )
    in_reward = export_config("grpo", train_config={"kl_in_reward": True})
    assert in_reward.verl["algorithm.use_kl_in_reward"] is True
    assert (
        in_reward.verl["algorithm.kl_ctrl.kl_coef"] == 0.04
        and not in_reward.verl["actor_rollout_ref.actor.use_kl_loss"]
    )
    shaped = export_config(
        "grpo",
        train_overrides={"overlong_shaping": True},
        train_config={"max_new_tokens": 12, "overlong_buffer_length": 3, "overlong_penalty_factor": 0.5},
    )
    overlong = "reward.reward_kwargs.overlong_buffer_cfg"
    assert shaped.verl[f"{overlong}.len"] == 3 and shaped.verl["reward.reward_manager.name"] == "dapo"
    assert shaped.verl["reward.reward_kwargs.max_resp_len"] == 12  # the DAPO reward manager's L_max
    assert "get_soft_overlong_punishment(max_completion_len=12, soft_punish_cache=3)" in _notes(shaped, "trl")
    assert shaped.trl["max_completion_length"] == 12 and "overlong_shaping" not in shaped.unmapped.get("trl", {})
    # only the training settings given are exported: no batch sizes here
    assert "per_device_train_batch_size" not in shaped.trl and "data.train_batch_size" not in shaped.verl
    assert "max_resample_rounds" not in export_config("dapo").unmapped["trl"]  # not given, not listed


def test_an_entry_without_selectors_says_so(monkeypatch):
    copy = dataclasses.replace(ALGORITHMS["dapo"], name="dapo_copy", trl=None, verl=None, framework_notes=())
    monkeypatch.setitem(ALGORITHMS, "dapo_copy", copy)
    exported = export_config("dapo_copy")
    _check(exported)
    assert LOSS_MODE not in exported.verl and not exported.trl_main
    assert "no TRL implementation" in _notes(exported, "trl") and "no verl implementation" in _notes(exported, "verl")


def test_the_tables_name_real_settings():
    names = {s.name for spec in ALGORITHMS.values() for s in spec.loss_settings + spec.train_settings}
    names |= {s.name for s in TRAINER_SETTINGS}
    assert {setting for _, setting in VALUES} <= names and {setting for _, setting in IMPLICIT} - names <= set(
        TRAIN_NAMES
    )
    assert set(TRAIN_NAMES) <= {f for f in TrainConfig.__dataclass_fields__}


@pytest.mark.parametrize(
    "note", [n for spec in ALGORITHMS.values() for n in spec.framework_notes] + list(SETTING_NOTES)
)
def test_note_placeholders_match_in_both_languages(note):
    def fields(text):
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    assert fields(note.text["en"]) == fields(note.text["zh"])


def test_bad_names_are_refused():
    for call, parameter in (
        (lambda: export_config("nope"), "name"),
        (lambda: export_config("grpo", {"tau_pos": 1.0}), "tau_pos"),
        (lambda: export_config("grpo", {"dynamic_sampling": True}), "dynamic_sampling"),
        (lambda: export_config("grpo", train_overrides={"epsilon_high": 0.3}), "epsilon_high"),
        (lambda: export_config("grpo", {"epsilon_high": -1.0}), "epsilon_high"),
        (lambda: export_config("grpo", train_config={"learning_rate": 1e-5}), "train_config"),
        (lambda: export_config("grpo", train_config=TrainConfig(algorithm="dapo")), "train_config"),
        (lambda: export_config("grpo", train_config={"mini_batches": 0}), "mini_batches"),
        (lambda: framework_name(ALGORITHMS["grpo"].setting("beta"), "openrlhf"), "framework"),
    ):
        with pytest.raises(ValueError, match=rf"^{parameter}:"):
            call()


# ---------------------------------------------------------------------------------------- pages
PAGES = {
    "pages/curves.py": {"lang": "zh"},
    "pages/live.py": {},
    "pages/length.py": {"l_n": 2, "l_g": 2},
    "pages/sampling.py": {"s_np": 4, "s_mG": 2},
    "pages/weighting.py": {"lang": "zh"},
    "pages/moe.py": {"mo_n": 4, "mo_G": 4, "mo_k": 2},
}


@pytest.mark.parametrize("page", list(PAGES))
def test_page_shows_the_export(page):
    query = PAGES[page]
    at = open_page(page, **query)
    no_exception(at)
    lang = query.get("lang", "en")
    (expander,) = [e for e in at.expander if e.label == t("export.title", lang)]
    assert not expander.get("code")  # closed: nothing built or sent
    (key,) = [k for k in at.session_state if k.endswith("export_open")]
    assert at.session_state[key] is False
    at.session_state[key] = True  # the reader opens it
    at.run()
    no_exception(at)
    (expander,) = [e for e in at.expander if e.label == t("export.title", lang)]
    codes = [c for c in expander.get("code")]
    python = [c.value for c in codes if c.language == "python"]
    verl = [c.value for c in codes if c.language == "bash"]
    assert python and all("config = GRPOConfig(" in p for p in python), python
    for p in python:
        ast.parse(p)
    assert verl and all(f"{LOSS_MODE}=" in v for v in verl)
    assert t("export.notes_header", lang) in "\n".join(m.value for m in expander.get("markdown"))


def test_the_kl_estimator_sets_trls_bias_correction_either_way():
    # TRL 1.16's GRPOConfig.use_bias_correction_kl defaults to True (the DeepSeek-V3.2 estimate): an
    # rlviz k3 run must switch it off to be the same run, a k3_bc run switches it on; beta = 0: no KL
    assert export_config("grpo").trl["use_bias_correction_kl"] is False  # GRPO: beta 0.04, k3
    assert export_config("grpo", {"kl_estimator": "k3_bc"}).trl["use_bias_correction_kl"] is True
    assert "use_bias_correction_kl" not in export_config("grpo", {"beta": 0.0}).trl
    k2 = export_config("grpo", {"kl_estimator": "k2"})
    assert "use_bias_correction_kl" not in k2.trl and "kl_estimator" in k2.unmapped["trl"]


def test_the_token_masks_export_to_trl_and_have_no_verl_key():
    exported = export_config("cispo", train_overrides={"top_entropy_quantile": 0.2, "off_policy_mask_threshold": 0.5})
    assert exported.trl["top_entropy_quantile"] == 0.2 and exported.trl["off_policy_mask_threshold"] == 0.5
    assert {"top_entropy_quantile", "off_policy_mask_threshold"} <= set(exported.unmapped["verl"])
    plain = export_config("cispo")  # left at their defaults: not part of the config
    assert "top_entropy_quantile" not in plain.trl and "top_entropy_quantile" not in plain.unmapped.get("verl", {})
