"""Hand-off check: rlviz's exported settings given to TRL's and verl's own config code.

Run it in the parity environment (``tools/parity/requirements.txt``), never the app's:

    git -C VERL_RECIPE_CHECKOUT log -1     # github.com/verl-project/verl-recipe (its dapo/config)
    /work/venv-parity/bin/python tools/parity/handoff.py --verl-recipe VERL_RECIPE_CHECKOUT
    # writes rlviz/data/parity/handoff.json

For every case of :func:`cases` (each registry entry at its defaults and with a run's training
settings, changed sliders, every KL estimator, advantage estimator and rollout correction, the
shaping and masking switches) it calls :func:`rlviz.teach.export.export_config` and hands the result
to the frameworks as a user would paste it:

* TRL: the snippet ``ExportedConfig.to_trl_python()`` is parsed (its one ``GRPOConfig(...)`` call, the
  keyword arguments read as literals) and ``trl.GRPOConfig`` is built with those arguments plus the
  placeholder ``use_cpu=True`` (this machine has no GPU: TRL refuses its bf16 default without one).
  Each exported argument is read back from the config object with ``getattr``: a name TRL does not
  know raises, a value its ``__post_init__`` rewrites differs.
* verl: the lines of ``ExportedConfig.to_verl_cli()`` are Hydra overrides, composed the way
  ``python -m verl.trainer.main_ppo`` composes them (``@hydra.main(config_path="config",
  config_name="ppo_trainer")``: here ``hydra.initialize_config_dir`` on the installed
  ``verl/trainer/config`` and ``hydra.compose("ppo_trainer", overrides)``); no Ray, no GPU, no model or
  data: verl's config needs no model path or data files to compose (``actor_rollout_ref.model.path``
  and ``data.train_files`` keep their defaults; they matter only when training starts). Each override
  is read back with ``OmegaConf.select``. The typed configs verl builds from it are then made:
  ``omega_conf_to_dataclass`` of ``actor_rollout_ref.actor`` (``ActorConfig``: checks the loss
  aggregation mode, the clip ratios ...) and of ``algorithm`` (``AlgoConfig``, with the rollout
  correction); the policy loss is looked up (``core_algos.get_policy_loss_fn``), the advantage
  estimator (``get_adv_estimator_fn``) and, with a KL loss or KL in the reward, ``core_algos.kl_penalty``
  is run on two tokens with that estimator. Where ``ppo_trainer`` refuses a key (a setting of
  verl-recipe's DAPO trainer, ``python -m recipe.dapo.main_dapo``, as the export's notes say), the same
  overrides are composed on verl-recipe's ``dapo/config/dapo_trainer.yaml`` (its ``hydra.searchpath``
  pointed at the installed verl config) and the case records which config took them.

Each case stores its inputs (so the main test suite can recompute the export without TRL or verl),
the exported arguments, and per framework: ``accepted``, ``error`` (the first line of what the
framework raised, or ``null``), ``read_back`` (``{key: value}`` as the framework holds it) and, for
verl, ``config`` (which trainer config composed it) and ``refused_by`` (what ``ppo_trainer`` said, where
verl-recipe's config took it). ``tests/test_handoff.py`` reads the file.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import importlib.metadata
import json
import subprocess
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "rlviz" / "data" / "parity" / "handoff.json"
TRL_PLACEHOLDERS = {"use_cpu": True}  # no GPU here: GRPOConfig's bf16 default needs one (or use_cpu)
# a hardware choice verl's ActorConfig requires (or use_dynamic_bsz); no algorithm setting: rlviz never exports it
VERL_PLACEHOLDERS = ["actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1"]
# a run's training settings (the export test's run, plus a few sliders moved off their defaults)
RUN = {
    "prompts_per_step": 6,
    "group_size": 4,
    "mini_batches": 3,
    "max_new_tokens": 10,
    "lr": 2e-6,
    "mu": 2,
    "temperature": 0.9,
    "grad_clip": 0.5,
}


def cases() -> list[dict]:
    """The cases: ``{"id", "algorithm", "loss_overrides", "train_overrides", "train_config"}``."""
    from rlviz.core.corrections import CORRECTIONS
    from rlviz.core.estimators import ESTIMATORS
    from rlviz.core.kl import KL_ESTIMATORS
    from rlviz.core.objectives import ALGORITHMS

    out = []

    def add(case_id, name, loss=None, train=None, run=None):
        out.append(
            {"id": case_id, "algorithm": name, "loss_overrides": loss or {}, "train_overrides": train or {}}
            | {"train_config": run or {}}
        )

    for name, spec in ALGORITHMS.items():
        add(f"{name}/defaults", name)
        dual = {"dual_clip_c": 3.0} if "dual_clip_c" in spec.defaults else {}
        add(f"{name}/run", name, {"beta": 0.1} | dual, run=RUN)
    add("sapo/tau_pos", "sapo", {"tau_pos": 2.5})
    add("dapo/epsilon_high", "dapo", {"epsilon_high": 0.35})
    add("dapo/dual_clip_low", "dapo", {"dual_clip_c": 1.2})
    add("grpo/dual_clip", "grpo", {"dual_clip_c": 3.0})
    add("grpo/loss_agg_token_sum_norm", "grpo", {"loss_agg_mode": "seq-mean-token-sum-norm"})
    for kl in KL_ESTIMATORS:
        add(f"grpo/kl_{kl}", "grpo", {"kl_estimator": kl})
    add("grpo/kl_in_reward", "grpo", run={"kl_in_reward": True})
    add("grpo/scale_batch", "grpo", train={"scale_rewards": "batch"})
    add("grpo/routing_R2", "grpo", train={"routing_replay": "R2"})
    for est in ESTIMATORS:
        add(f"grpo/adv_{est}", "grpo", train={"adv_estimator": est})
    for corr in CORRECTIONS:
        add(f"grpo/correction_{corr}", "grpo", run={"rollout_correction": corr})
    add("grpo/correction_token_mis_band", "grpo", run={"rollout_correction": "token_mis"} | _band(0.5, 2.0))
    add("grpo/correction_sequence_mis_high", "grpo", run={"rollout_correction": "sequence_mis"} | _band(None, 3.0))
    add("grpo/correction_geo_mean_rs_band", "grpo", run={"rollout_correction": "geo_mean_rs"} | _band(0.8, 1.25))
    add("grpo/rollout_bf16_top_p", "grpo", run={"rollout_dtype": "bfloat16", "top_p": 0.9})
    add(
        "grpo/overlong_shaping",
        "grpo",
        train={"overlong_shaping": True},
        run={"max_new_tokens": 12, "overlong_buffer_length": 3, "overlong_penalty_factor": 0.5},
    )
    add("dapo/dynamic_sampling_rounds", "dapo", run={"max_resample_rounds": 4})
    add("cispo/token_masks", "cispo", train={"top_entropy_quantile": 0.2, "off_policy_mask_threshold": 0.5})
    add("ppo/gae_value_lr", "ppo", run={"value_lr": 1e-5, "entropy_coef": 0.01})
    return out


def _band(low, high) -> dict:
    return {"rollout_correction_low": low, "rollout_correction_high": high}


def _first_line(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip()
    return text.splitlines()[0][:300]


def _plain(value):
    """A read-back value as JSON (OmegaConf containers and enums as plain values)."""
    from omegaconf import OmegaConf

    if OmegaConf.is_config(value):
        return OmegaConf.to_container(value)
    if hasattr(value, "value") and not isinstance(value, (int, float, str, bool)):
        return value.value  # an enum (TRL / transformers keep some arguments as enums)
    return value


def check_trl(exported) -> dict:
    """Build ``trl.GRPOConfig`` from the exported snippet and read every argument back."""
    from trl import GRPOConfig

    tree = ast.parse(exported.to_trl_python())
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert len(calls) == 1 and calls[0].func.id == "GRPOConfig", "the snippet is one GRPOConfig(...) call"
    kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in calls[0].keywords}
    try:
        config = GRPOConfig(**kwargs, **TRL_PLACEHOLDERS)
    except Exception as exc:  # noqa: BLE001 - any refusal is the result
        return {"accepted": False, "error": _first_line(exc), "read_back": {}}
    read_back = {k: _plain(getattr(config, k, "<missing>")) for k in kwargs}
    return {"accepted": True, "error": None, "read_back": read_back}


def _compose(config_dir: Path, name: str, overrides: list[str]):
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(config_dir), version_base=None):
        return compose(config_name=name, overrides=overrides)


def _verl_typed(cfg) -> None:
    """What verl builds from the composed config before training (raises as verl would)."""
    import torch
    from verl.trainer.ppo import core_algos
    from verl.utils.config import omega_conf_to_dataclass

    actor = omega_conf_to_dataclass(cfg.actor_rollout_ref.actor)
    omega_conf_to_dataclass(cfg.algorithm)
    core_algos.get_policy_loss_fn(actor.policy_loss.loss_mode)
    core_algos.get_adv_estimator_fn(cfg.algorithm.adv_estimator)
    kinds = []
    if cfg.actor_rollout_ref.actor.use_kl_loss:
        kinds.append(cfg.actor_rollout_ref.actor.kl_loss_type)
    if cfg.algorithm.use_kl_in_reward:
        kinds.append(cfg.algorithm.kl_penalty)
    for kind in kinds:
        lp = torch.tensor([[-1.0, -0.5]], dtype=torch.float64)
        core_algos.kl_penalty(lp, lp - 0.1, kind)


def check_verl(exported, recipe_dir: Path | None) -> dict:
    """Compose the exported overrides on verl's ppo_trainer (else verl-recipe's dapo_trainer)."""
    import verl
    from omegaconf import OmegaConf

    lines = exported.to_verl_cli().splitlines()
    main_dir = Path(verl.__file__).parent / "trainer" / "config"
    targets = [("verl ppo_trainer", main_dir, "ppo_trainer", [])]
    if recipe_dir is not None:
        searchpath = ["hydra.searchpath=[pkg://verl.trainer.config]"]
        targets.append(("verl-recipe dapo_trainer", recipe_dir / "dapo" / "config", "dapo_trainer", searchpath))
    errors = []
    for label, directory, name, extra in targets:
        try:
            cfg = _compose(directory, name, extra + VERL_PLACEHOLDERS + lines)
        except Exception as exc:  # noqa: BLE001 - a refused override: try the next config
            errors.append(f"{label}: {_first_line(exc)}")
            continue
        read_back = {line.split("=", 1)[0]: _plain(OmegaConf.select(cfg, line.split("=", 1)[0])) for line in lines}
        try:
            _verl_typed(cfg)
        except Exception as exc:  # noqa: BLE001 - composed, but verl's typed config refuses it
            return {"accepted": False, "error": f"{label}: {_first_line(exc)}", "read_back": read_back, "config": label}
        result = {"accepted": True, "error": None, "read_back": read_back, "config": label}
        return result | ({"refused_by": "; ".join(errors)} if errors else {})
    return {"accepted": False, "error": "; ".join(errors), "read_back": {}, "config": None}


def _recipe_commit(recipe: Path | None) -> str | None:
    if recipe is None:
        return None
    try:
        return subprocess.run(
            ["git", "-C", str(recipe), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv=None) -> int:
    from rlviz.teach.export import export_config

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--verl-recipe", type=Path, default=None, help="a verl-recipe checkout (dapo/config)")
    parser.add_argument("--recipe-commit", default=None, help="its commit, if the path is not a git checkout")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    start = time.perf_counter()
    results = []
    for case in cases():
        exported = export_config(
            case["algorithm"], case["loss_overrides"], case["train_overrides"], case["train_config"]
        )
        results.append(
            case
            | {
                "exported": {"trl": exported.trl, "verl": exported.verl},
                "trl": check_trl(exported),
                "verl": check_verl(exported, args.verl_recipe),
            }
        )
    doc = {
        "about": "rlviz.teach.export output handed to trl.GRPOConfig and to verl's Hydra trainer config; "
        "written by tools/parity/handoff.py (its docstring says how)",
        "generated": datetime.date.today().isoformat(),
        "generator": "tools/parity/handoff.py",
        "versions": {p: importlib.metadata.version(p) for p in ("trl", "transformers", "verl", "hydra-core")},
        "verl_recipe_commit": args.recipe_commit or _recipe_commit(args.verl_recipe),
        "trl_placeholders": TRL_PLACEHOLDERS,
        "verl_placeholders": VERL_PLACEHOLDERS,
        "cases": results,
    }
    lines = ["{"]
    items = [(k, v) for k, v in doc.items() if k != "cases"]
    lines += [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in items]
    lines.append(' "cases": [')
    lines.append(",\n".join("  " + json.dumps(c, ensure_ascii=False) for c in results))
    lines += [" ]", "}"]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad = [(c["id"], fw, c[fw]["error"]) for c in results for fw in ("trl", "verl") if not c[fw]["accepted"]]
    differ = [
        (c["id"], fw, k)
        for c in results
        for fw in ("trl", "verl")
        for k, v in c["exported"][fw].items()
        if c[fw]["accepted"] and c[fw]["read_back"].get(k) != v
    ]
    for item in bad:
        print("refused:", *item, file=sys.stderr)
    for item in differ:
        print("read back differs:", *item, file=sys.stderr)
    print(f"{len(results)} cases written to {args.out} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
