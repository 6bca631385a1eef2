"""The task registry and its second task, make_sum: verifier hand cases, splits, warm-start data,
dispatch by ``Problem.task`` in the sampler, the trainer, the runner and the CLI, and the shipped
checkpoint with its card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from rlviz.lm import make_sum
from rlviz.lm import task as addition
from rlviz.lm.model import DEFAULT_MODEL_DIR, load_policy
from rlviz.lm.rollout import evaluate_pass_at_1, sample_rollouts
from rlviz.lm.tasks import DEFAULT_TASK, TASKS, get_task, task_of
from rlviz.lm.tokenizer import build_tokenizer
from rlviz.lm.trainer import METRICS, TrainConfig, Trainer

SUM_DIR = Path(TASKS["make_sum"].model_dir)


@pytest.fixture(scope="module")
def sum_policy():
    return load_policy(str(SUM_DIR), device="cpu")


# --- the registry ------------------------------------------------------------------------------


def test_registry_entries_are_complete_and_reversed_addition_is_the_default():
    assert DEFAULT_TASK == "reversed_addition" == next(iter(TASKS))
    assert set(TASKS) == {"reversed_addition", "make_sum"}
    assert TrainConfig().task == DEFAULT_TASK
    for name, spec in TASKS.items():
        assert spec.name == name
        for text in (spec.label, spec.description):
            assert set(text) == {"en", "zh"} and all(text.values())
        assert Path(spec.model_dir, "config.json").is_file()
        assert spec.max_new_tokens >= 1 and 0 <= spec.overlong_buffer_length <= spec.max_new_tokens
        held = spec.heldout_problems()
        assert held == spec.heldout_problems() and len({p.prompt for p in held}) == len(held) > 0
        assert all(spec.is_heldout(p.prompt) and p.task == name for p in held)
        train = spec.sample_problems(300, torch.Generator().manual_seed(0))
        assert not any(spec.is_heldout(p.prompt) for p in train)
        assert train[:20] == spec.sample_problems(20, torch.Generator().manual_seed(0))
        for p in train[:50] + held:  # the stored answer is a right one
            assert spec.reward(p, p.answer, True) == 1.0 == spec.format_reward(p, p.answer, True)
            assert spec.reward(p, p.answer, False) == 0.0
        assert set("".join(p.prompt + p.answer for p in train + held)) <= set(spec.chars)
        assert set(spec.panels) <= set(METRICS)  # what a live page adds to its panels: the trainer's metrics
        if spec.weak_model_dir is not None:  # the weak warm start: the same model and tokenizer, fewer steps
            card = json.loads(Path(spec.weak_model_dir, "rlviz_card.json").read_text())
            assert card["steps"] == spec.weak_pretrain_steps < spec.pretrain_steps and card["task"] == name
            weak_tok = AutoTokenizer.from_pretrained(spec.weak_model_dir)
            assert weak_tok.get_vocab() == AutoTokenizer.from_pretrained(spec.model_dir).get_vocab()
            # it is weak: most held-out groups are all wrong, so most give GRPO no signal
            assert card["figures"]["heldout"]["all_wrong"] > 0.8 > card["figures"]["heldout"]["pass_at_1"] * 10
    assert TASKS["reversed_addition"].model_dir == DEFAULT_MODEL_DIR
    assert TASKS["reversed_addition"].reward is addition.reward


def test_get_task_names_the_parameter():
    assert get_task("make_sum") is TASKS["make_sum"]
    with pytest.raises(ValueError, match="^task: 'nope' is not one of reversed_addition, make_sum"):
        get_task("nope")
    with pytest.raises(ValueError, match="^task:"):
        TrainConfig(task="nope").validate()
    assert task_of(addition.make_problem(3, 4, 1)) is TASKS["reversed_addition"]


def test_reversed_addition_entry_is_the_task_module_unchanged():
    spec = TASKS["reversed_addition"]
    g1, g2 = torch.Generator().manual_seed(5), torch.Generator().manual_seed(5)
    assert spec.sample_problems(40, g1) == addition.sample_problems(40, g2)
    assert spec.heldout_problems() == addition.heldout_problems()
    assert spec.max_new_tokens == addition.DEFAULT_MAX_NEW_TOKENS == 16
    assert spec.answer_key("..24") == spec.answer_key("24")  # filler does not make another answer


# --- make_sum ------------------------------------------------------------------------------------


def test_make_sum_verifier_hand_cases():
    p = make_sum.make_problem(23, 5)
    assert (p.prompt, p.answer, p.level, p.task) == ("23:5=", "5+5+5+5+3", 2, "make_sum")  # ceil(23/5) = 5 terms
    right = ["5+5+5+5+3", "3+5+5+5+5", "3+4+5+2+5+4", "1+2+3+4+5+4+4", "1" + "+1" * 22]
    for text in right:
        assert make_sum.reward(p, text, True) == 1.0, text
    assert make_sum.reward(p, "5+5+5+5+3", False) == 0.0  # truncated
    assert make_sum.reward(p, "9+9+5", True) == 0.0  # 9 > 5
    assert make_sum.reward(p, "5+5+5+5+2", True) == 0.0  # 22
    assert make_sum.reward(p, "5+5+5+5+4", True) == 0.0  # 24
    for bad in ("5+5+5+5+3+", "+5+5+5+5+3", "55553", "5++5+5+5+3", "5+5+5+5+0+3", "23", ""):
        assert make_sum.reward(p, bad, True) == 0.0 == make_sum.format_reward(p, bad, True), bad
    assert make_sum.format_reward(p, "9+9+5", True) == 1.0  # well-formed, wrong
    assert [make_sum.make_problem(t, m).level for t, m in ((10, 9), (20, 5), (40, 5), (32, 3))] == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="largest"):
        make_sum.make_problem(10, 0)
    with pytest.raises(ValueError, match="^n:"):
        make_sum.sample_problems(-1, torch.Generator())


def test_make_sum_prompts_and_splits():
    prompts = make_sum.all_prompts()
    assert len(prompts) == 249 and len({p.prompt for p in prompts}) == 249
    held = make_sum.heldout_problems()
    assert len(held) == 57 and {p.level for p in held} == {1, 2, 3, 4}
    assert len(held) + len(make_sum._train()) == 249
    for p in prompts:  # each has right answers, and the shortest fits the length limit
        assert make_sum.reward(p, p.answer, True) == 1.0 and len(p.answer) + 1 <= make_sum.MAX_NEW_TOKENS


def test_make_sum_warm_start_targets(monkeypatch):
    g = torch.Generator().manual_seed(0)
    problems = make_sum.sft_problems(400, g)
    targets = [make_sum.sft_target(p, g) for p in problems]
    assert all(make_sum.format_reward(p, t, True) for p, t in zip(problems, targets))
    assert all(max(map(int, t[::2])) <= int(p.prompt[:-1].split(":")[1]) for p, t in zip(problems, targets))
    share = sum(make_sum.reward(p, t, True) for p, t in zip(problems, targets)) / len(problems)
    assert 0.35 < share < 0.7  # each term slips with chance SLIP: right about half the time
    g = torch.Generator().manual_seed(1)
    p = make_sum.make_problem(30, 5)
    assert len({make_sum.sft_target(p, g) for _ in range(50)}) > 40  # spread over many answers
    monkeypatch.setattr(make_sum, "SLIP", 0.0)
    assert all(make_sum.reward(p, make_sum.sft_target(p, g), True) for p in problems[:100])  # no slip: all right


def test_tokenizer_alphabet_per_task():
    tok = build_tokenizer(make_sum.CHARS)
    ids = tok("23:5=")["input_ids"]
    assert tok.decode(ids, skip_special_tokens=True) == "23:5=" and len(ids) == 6
    assert build_tokenizer().get_vocab() == build_tokenizer(TASKS["reversed_addition"].chars).get_vocab()
    with pytest.raises(ValueError, match="chars"):
        build_tokenizer(["1", "1"])


# --- dispatch ------------------------------------------------------------------------------------


def test_sampler_scores_with_the_problems_task(sum_policy):
    model, tok = sum_policy
    problems = make_sum.heldout_problems()[:3]
    batch = sample_rollouts(model, tok, problems, 4, make_sum.MAX_NEW_TOKENS, 1.0, torch.Generator().manual_seed(0))
    fin = ~batch.truncated
    want = [make_sum.reward(p, t, bool(f)) for p, t, f in zip(batch.problems, batch.texts, fin)]
    assert batch.rewards.tolist() == want
    assert batch.format_rewards.tolist() == [
        make_sum.format_reward(p, t, bool(f)) for p, t, f in zip(batch.problems, batch.texts, fin)
    ]


def test_evaluate_reports_pass_at_k_and_distinct_right_answers(sum_policy):
    model, tok = sum_policy
    problems = make_sum.heldout_problems()[::8]
    m = evaluate_pass_at_1(model, tok, problems, 4, make_sum.MAX_NEW_TOKENS, 1.0, torch.Generator().manual_seed(0))
    assert list(m["pass_at_k"]) == [1, 2, 4]
    assert m["pass_at_k"][1] == pytest.approx(m["pass_at_1"])
    assert m["pass_at_k"][1] <= m["pass_at_k"][2] <= m["pass_at_k"][4]
    right = [round(r * 4) for r in m["per_prompt"]]
    assert m["pass_at_k"][4] == pytest.approx(sum(r > 0 for r in right) / len(right))  # k = n: any right
    assert all(0 <= d <= r for d, r in zip(m["per_prompt_distinct"], right))
    assert m["distinct_right"] == pytest.approx(sum(m["per_prompt_distinct"]) / len(problems))


def test_trainer_samples_its_task():
    model, tok = load_policy(str(SUM_DIR), device="cpu")
    config = TrainConfig(task="make_sum", prompts_per_step=2, group_size=2, mu=1, mini_batches=1, max_new_tokens=40)
    trainer = Trainer(config, model, tok)
    batch = trainer._rollout()
    assert {p.task for p in batch.problems} == {"make_sum"}
    assert all(not make_sum.is_heldout(p.prompt) for p in batch.problems)


def test_a_training_step_reports_pass_at_group_and_distinct_right_answers():
    """The live metrics of issue 41 from a step's own groups: ``pass_at_group`` is the share of groups
    with at least one right answer (pass@k at k = n = G, Chen et al.'s estimator is exactly that), and
    ``distinct_right`` the mean number of different right answers per group (make_sum: "1+3" and "3+1"
    are two answers of "T:4=")."""
    model, tok = load_policy(str(SUM_DIR), device="cpu")
    config = TrainConfig(task="make_sum", prompts_per_step=3, group_size=4, mu=1, mini_batches=1, max_new_tokens=40)
    trainer = Trainer(config, model, tok)
    seen = []
    rollout = trainer._rollout
    trainer._rollout = lambda *a, **k: seen.append(rollout(*a, **k)) or seen[-1]
    m = trainer.step()
    (batch,) = seen
    groups = batch.rewards.view(-1, 4).tolist()
    right = [sum(r >= 1.0 for r in g) for g in groups]
    keys = [
        {make_sum.answer_key(text) for text, r in zip(batch.texts[4 * i : 4 * i + 4], g) if r >= 1.0}
        for i, g in enumerate(groups)
    ]
    assert m["pass_at_group"] == pytest.approx(sum(c > 0 for c in right) / 3)
    assert m["distinct_right"] == pytest.approx(sum(len(k) for k in keys) / 3)
    assert m["pass_at_1"] <= m["pass_at_group"] and m["distinct_right"] <= 4


def test_cli_takes_the_task():
    from rlviz.cli import _parser, main

    args = _parser().parse_args(["compare", "--task", "make_sum"])
    assert args.task == "make_sum" and args.max_new_tokens is None  # the task's limit, set in main
    assert _parser().parse_args(["compare"]).task == DEFAULT_TASK
    with pytest.raises(SystemExit):
        _parser().parse_args(["compare", "--task", "nope"])
    assert main(["compare", "--task", "make_sum", "--model", "moe", "--steps", "1"]) == 2


def test_export_leaves_the_task_out():
    from rlviz.teach.export import export_config

    exported = export_config("grpo", train_config=TrainConfig(task="make_sum", max_new_tokens=40))
    assert "task" not in json.dumps(exported.trl) and exported.trl["max_completion_length"] == 40
    assert all("task" not in unmapped for unmapped in exported.unmapped.values())


# --- the shipped checkpoint -----------------------------------------------------------------------


def test_shipped_make_sum_checkpoint_and_card():
    assert (SUM_DIR / "model.safetensors").stat().st_size < 5e6
    model = AutoModelForCausalLM.from_pretrained(SUM_DIR, use_safetensors=True)
    tok = AutoTokenizer.from_pretrained(SUM_DIR)
    assert tok.decode(tok("23:5=")["input_ids"], skip_special_tokens=True) == "23:5="
    card = json.loads((SUM_DIR / "rlviz_card.json").read_text())
    assert card["task"] == "make_sum" and card["max_new_tokens"] == make_sum.MAX_NEW_TOKENS
    assert card["parameters"] == sum(p.numel() for p in model.parameters())
    held = card["figures"]["heldout"]
    assert 0.3 <= held["pass_at_1"] <= 0.6  # moderate: RL has something to raise
    assert held["pass_at_k"]["8"] > held["pass_at_1"]
    assert held["distinct_right_share"] > 0.9  # at temperature 1 nearly every right answer is a new one
    assert held["length_p90"] >= 20  # tens of tokens


def test_cli_compare_on_make_sum_reports_pass_at_k(tmp_path, capsys):
    from rlviz.cli import main

    out = tmp_path / "run.json"
    small = ["--algorithms", "grpo", "--steps", "1", "--group-size", "2", "--prompts-per-step", "2", "--mu", "1"]
    # --workers 2: one torch thread (cores // workers), as the suite's workers have; two on two cores
    # competed with the other workers' tests (174 s against 16 s in one loaded run)
    small += ["--workers", "2"]
    assert (
        main(
            [
                "compare",
                "--task",
                "make_sum",
                *small,
                "--mini-batches",
                "1",
                "--heldout-samples",
                "2",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    data = json.loads(out.read_text())
    assert data["config"]["train"]["task"] == "make_sum" and data["config"]["train"]["max_new_tokens"] == 40
    assert data["config"]["train"]["overlong_buffer_length"] == make_sum.OVERLONG_BUFFER
    for key in ("start", "grpo"):
        held = data["heldout"][key]
        assert set(held["pass_at_k"]) == {"1", "2"} and held["pass_at_k"]["1"] == pytest.approx(
            data["heldout_pass_at_1"][key]
        )
        assert 0 <= held["distinct_right"] <= 2
    assert "heldout_pass_at_k_end" in capsys.readouterr().out
