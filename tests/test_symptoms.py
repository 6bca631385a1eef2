"""Symptom to cause: each detector on hand-made metrics (the rule beside each), the reproduction's
URL and config, the measurement file (complete, fresh, and quoted by the page), and the page."""

from __future__ import annotations

import json
import math
import re
from urllib.parse import parse_qs

import pandas as pd
import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, texts

from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments.live import LiveConfig
from rlviz.experiments.symptoms import (
    BASELINE_ALGORITHM,
    MEASURED,
    SYMPTOMS,
    THRESHOLDS,
    baseline_label,
    baseline_run,
    detect,
    diagnose,
    load_measured,
    reproduce_config,
    reproduce_query,
    settings_signature,
    settings_text,
    symptom,
)
from rlviz.i18n import t
from rlviz.lm.tasks import TASKS
from rlviz.lm.trainer import METRICS


def _frame(arm: str = "grpo", steps: int = 6, **columns) -> pd.DataFrame:
    """One arm's metrics: every METRICS column 0.5 unless given (a list per step)."""
    data = {"arm": [arm] * steps, "step": list(range(1, steps + 1))}
    for m in METRICS:
        data[m] = columns.get(m, [0.5] * steps)
    return pd.DataFrame(data)


def _found(frame: pd.DataFrame, key: str) -> tuple[bool, float]:
    row = detect(frame).set_index("symptom").loc[key]
    return bool(row["present"]), float(row["evidence"])


def test_entropy_collapse_compares_the_last_third_with_the_first_step():
    # last third (steps 5, 6) mean 0.2 / first step 1.0 = 0.2 < 0.5: collapse
    assert _found(_frame(entropy=[1.0, 0.8, 0.6, 0.4, 0.2, 0.2]), "entropy_collapse") == (True, pytest.approx(0.2))
    # 0.9 / 1.0 = 0.9: no collapse
    assert _found(_frame(entropy=[1.0, 1, 1, 1, 0.9, 0.9]), "entropy_collapse") == (False, pytest.approx(0.9))


def test_reward_flat_and_length_runaway_compare_thirds():
    # reward: last third (0.31, 0.33) mean 0.32 - first third (0.3, 0.3) mean 0.3 = 0.02 < 0.05: flat
    flat, gain = _found(_frame(reward_mean=[0.3, 0.3, 0.3, 0.3, 0.31, 0.33]), "reward_flat")
    assert flat and gain == pytest.approx(0.02)
    assert not _found(_frame(reward_mean=[0.2, 0.2, 0.3, 0.4, 0.5, 0.5]), "reward_flat")[0]  # 0.5 - 0.2 = 0.3
    # length: last third mean 9 / first third mean 4 = 2.25 >= 1.5: runaway
    lengths = [4.0, 4.0, 5.0, 7.0, 9.0, 9.0]
    assert _found(_frame(response_length_mean=lengths, overlong_fraction=[0.0] * 6), "length_runaway") == (
        True,
        pytest.approx(2.25),
    )
    # steady length but 60% of the last third at the limit: runaway too
    overlong = [0.0, 0.0, 0.1, 0.3, 0.6, 0.6]
    assert _found(_frame(response_length_mean=[5.0] * 6, overlong_fraction=overlong), "length_runaway")[0]


def test_kl_zero_advantage_and_clip_detectors():
    assert _found(_frame(kl_ref=[0.0, 0.1, 0.2, 0.4, 0.6, 0.9]), "kl_blowup") == (True, pytest.approx(0.9))
    # zero-advantage share: mean of (0.7, 0.7, 0.7, 0.4, 0.4, 0.4) = 0.55 >= 0.5
    assert _found(_frame(zero_adv_group_fraction=[0.7] * 3 + [0.4] * 3), "zero_advantage") == (
        True,
        pytest.approx(0.55),
    )
    # clip fraction exactly 0 at every step (NaN steps, e.g. no update, are skipped)
    zero = _frame(clip_fraction=[0.0, 0.0, math.nan, 0.0, 0.0, 0.0])
    assert _found(zero, "clip_zero") == (True, 0.0) and not _found(zero, "clip_high")[0]
    high = _frame(clip_fraction=[0.1, 0.2, 0.3, 0.3, 0.3, 0.3])  # mean 0.25 > 0.2
    assert _found(high, "clip_high") == (True, pytest.approx(0.25)) and not _found(high, "clip_zero")[0]


def test_a_metric_that_does_not_apply_is_not_a_symptom_and_arms_are_separate():
    dense = _frame("dense", route_change_fraction=[math.nan] * 6)
    moe = _frame("moe", route_change_fraction=[0.1] * 6)  # 0.1 > 0.05
    found = diagnose(pd.concat([dense, moe]))
    assert "moe_ratio_spikes" not in found["dense"] and "moe_ratio_spikes" in found["moe"]
    with pytest.raises(ValueError, match="^metrics"):
        detect(pd.DataFrame({"arm": []}))
    with pytest.raises(ValueError, match="^metrics"):
        detect(pd.DataFrame({"arm": [], "step": []}))


def test_every_symptom_is_complete_and_reproducible():
    assert {s.key for s in SYMPTOMS} >= {
        "entropy_collapse",
        "reward_flat",
        "length_runaway",
        "kl_blowup",
        "zero_advantage",
        "clip_zero",
        "clip_high",
        "moe_ratio_spikes",
    }
    for s in SYMPTOMS:
        assert s.metric in METRICS and (s.threshold is None or s.threshold in THRESHOLDS)
        if s.page == "live":
            config = reproduce_config(s.key, seed=3)  # validated
            assert config.seed == 3 and config.algorithms == tuple(s.settings["algorithms"])
            query = reproduce_query(s.key)
            titles = [ALGORITHMS[a].title for a in s.settings["algorithms"]]  # what the widget shows
            assert query["lv_algos"] == titles and all(k.startswith("lv_") for k in query)
    assert reproduce_query("clip_zero")["lv_mu"] == "1"
    with pytest.raises(ValueError, match="^key"):
        symptom("fever")
    with pytest.raises(ValueError, match="^key"):
        reproduce_config("moe_ratio_spikes")


def test_the_measurement_file_covers_every_symptom_with_the_current_settings():
    data = load_measured()
    assert data, f"{MEASURED} missing: run benchmarks/symptoms.py"
    for s in SYMPTOMS:
        entry = data["symptoms"][s.key]
        assert entry["settings"] == settings_signature(s.key), f"{s.key}: measured with other settings"
        assert isinstance(entry["present"], bool) and math.isfinite(entry["evidence"])
        assert entry["series"] and all(v is None or math.isfinite(v) for v in entry["series"])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_settings_and_baselines_are_named_as_the_pages_name_them(lang):
    """Found by a new learner: the page showed "task = make_sum、algorithms = dapo、steps = 100" (raw keys) and
    labelled the measured baseline "live page defaults" (4 algorithms x 30 steps on reversed addition), while
    benchmarks/symptoms.py ran GRPO on the reproduction's task for its steps. The settings read with the live
    page's labels, the task registry's label and the algorithms' titles; the baseline is what the entry ran."""
    measured = load_measured()["symptoms"]
    for s in SYMPTOMS:
        text = settings_text(s.key, lang)
        if s.page != "live":
            assert text == ""
            continue
        for name, value in s.settings.items():
            label = t(f"live.{'prompts' if name == 'prompts_per_step' else name}", lang)
            assert label.lower() in text.lower(), (s.key, name, text)
            if name == "task":
                assert TASKS[value].label[lang] in text and value not in text
            if name == "algorithms":
                assert all(ALGORITHMS[a].title in text for a in value)
        # no raw key: neither a setting's code name (lr, group_size; "task" and "steps" are English words too)
        # nor a registry key (make_sum, dapo; case-sensitive: the title is DAPO)
        raw = [n for n in s.settings if "_" in n or n == "lr"] + list(s.settings.get("algorithms", ()))
        raw += [s.settings["task"]] if "task" in s.settings else []
        assert not any(re.search(rf"\b{re.escape(k)}\b", text) for k in raw), (s.key, text)
        run = baseline_run(measured[s.key])
        assert run["algorithm"] == BASELINE_ALGORITHM and run["steps"] == s.settings["steps"]
        assert run["task"] == s.settings.get("task", LiveConfig.task)  # a symptom without one: the default task
        shown = baseline_label(measured[s.key], lang)
        assert ALGORITHMS[run["algorithm"]].title in shown and TASKS[run["task"]].label[lang] in shown
        assert str(run["steps"]) in shown
    # entropy collapse: the record's baseline is GRPO on make-a-sum for 100 steps (benchmarks/symptoms.py)
    assert baseline_run(measured["entropy_collapse"]) == {"algorithm": "grpo", "task": "make_sum", "steps": 100}
    assert baseline_label(measured["entropy_collapse"], lang) == (
        "GRPO on Make a sum for 100 steps" if lang == "en" else "GRPO（凑数，100 步）"
    )
    assert settings_text("entropy_collapse", lang) == (
        "task = Make a sum, algorithms = DAPO, steps = 100" if lang == "en" else "任务 = 凑数、算法 = DAPO、步数 = 100"
    )
    with pytest.raises(ValueError, match="^entry"):
        baseline_run({"task": "make_sum"})  # no steps recorded


def test_a_broken_measurement_file_is_a_value_error(tmp_path):
    bad = tmp_path / "m.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="^path"):
        load_measured(bad)
    bad.write_text(json.dumps({"meta": {}}), encoding="utf-8")
    with pytest.raises(ValueError, match="^path"):
        load_measured(bad)
    assert load_measured(tmp_path / "absent.json") == {}


class _Run:
    """Stands in for a LiveRun in the session: only ``metrics_frame`` is read."""

    def __init__(self, frame):
        self.frame = frame

    def metrics_frame(self):
        return self.frame


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_renders_each_symptom_and_checks_a_run(lang):
    at = open_page("pages/symptoms.py", lang=lang)
    no_exception(at)
    assert_finite_figures(at, at_least=1)
    # the template: the lede under the title (the old introduction whole in "How to read this"); each knob
    # by its name beside the figure, its TRL and verl names in the practitioners' block
    assert t("symptoms.lede", lang) in re.sub(r"<[^>]+>", "", texts(at))
    assert t("symptoms.intro", lang, baseline=ALGORITHMS[BASELINE_ALGORITHM].title) in texts(at)
    assert t("page.practitioners", lang) in [e.label for e in at.expander]
    first = SYMPTOMS[0]
    knobs = at.table[0].value
    assert list(knobs.columns) == [t(f"symptoms.knob_{c}", lang) for c in ("setting", "trl", "verl")]
    assert knobs.iloc[:, 0].tolist() == list(first.knobs)
    assert all(f"`{k}`" in texts(at) for k in first.knobs)
    label = t("symptoms.reproduce", lang, page=t(f"nav.{first.page}", lang))
    link = next(e.proto for e in at.get("page_link") if e.proto.label == label)
    # the link carries the reproduction's settings (reproduce_query), the task by its registry key
    sent = parse_qs(link.query_string)
    sent.pop("lang", None)  # the page's language rides along
    wanted = {k: v if isinstance(v, list) else [v] for k, v in reproduce_query(first.key).items()}
    assert link.page == "live" and sent == wanted, (sent, wanted)
    # found by a new learner: the settings as raw keys ("task = make_sum、algorithms = dapo") and the measured
    # baseline labelled "live page defaults"; now the live page's labels, and what the record's baseline ran
    assert t("symptoms.settings", lang, settings=settings_text(first.key, lang)) in [c.value for c in at.caption]
    baseline = baseline_label(load_measured()["symptoms"][first.key], lang)
    assert baseline in [trace.get("name") for fig in figures(at) for trace in fig["data"]]
    assert any(baseline in box.value for box in [*at.success, *at.warning])
    for key in ("clip_zero", "moe_ratio_spikes"):
        at.segmented_control(key="sy_symptom").set_value(key).run()
        no_exception(at)
        # the measured figure names its metric as the run pages do, never by its column key (found by a
        # Chinese reader: "实测：每步的clip_fraction")
        metric = next(s.metric for s in SYMPTOMS if s.key == key)
        title = next(c.value for c in at.caption if c.value.startswith(t("symptoms.fig_title", lang, metric="|")[:4]))
        assert metric not in title, title  # the figure's title, a caption under it
        for fig in figures(at):
            assert metric not in str(fig["layout"]["yaxis"]["title"])
            assert fig["layout"]["legend"]["yref"] == "container"  # under the axis, never over the plot
    at.session_state["live_run"] = _Run(_frame(clip_fraction=[0.0] * 6))
    at.run()
    no_exception(at)
    table = at.dataframe[-1].value
    assert len(table) == len(SYMPTOMS)
    present = table.iloc[:, 2].tolist()
    assert present.count("yes" if lang == "en" else "是") >= 1
    assert ("Check your own run" if lang == "en" else "检查你自己的运行") in texts(at) or at.subheader


def test_the_reproduction_link_sets_the_live_page():
    """The live page reads every value of each reproduction's URL (a value it cannot take would fall
    back to its default without a word)."""
    for s in SYMPTOMS:
        if s.page != "live":
            continue
        at = open_page("pages/live.py", **reproduce_query(s.key))
        no_exception(at)
        widgets = {"lv_lr": at.select_slider(key="lv_lr").value, "lv_algos": at.multiselect(key="lv_algos").value}
        for name in ("lv_steps", "lv_G", "lv_mu", "lv_mb"):
            widgets[name] = at.number_input(key=name).value
        widgets["lv_task"] = at.session_state["lv_task"]  # the task picker holds the registry key
        for name, value in reproduce_query(s.key).items():
            got = widgets[name]
            if name == "lv_algos":  # the URL names the titles, the widget's value is the registry keys
                assert list(got) == list(s.settings["algorithms"]), (s.key, got)
            elif name == "lv_task":
                assert got == value == s.settings["task"], (s.key, got)
            else:
                assert float(got) == float(value), (s.key, name)


def test_every_knob_has_its_framework_names():
    # registry settings (epsilon_high) and training settings (temperature, entropy_coef, lr) alike
    from rlviz.experiments.symptoms import knob_names

    assert knob_names("temperature") == ("temperature", "actor_rollout_ref.rollout.temperature")
    assert knob_names("entropy_coef") == ("entropy_coef", "actor_rollout_ref.actor.entropy_coeff")
    assert knob_names("lr") == ("learning_rate", "actor_rollout_ref.actor.optim.lr")
    # registry settings with the same full keys the config export writes
    assert knob_names("epsilon_high") == ("epsilon_high", "actor_rollout_ref.actor.clip_ratio_high")
    for s in SYMPTOMS:
        for knob in s.knobs:
            trl, verl = knob_names(knob)
            assert trl or verl, knob  # every knob the page suggests exists in at least one framework
    with pytest.raises(ValueError, match="name"):
        knob_names("warp_drive")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_symptom_link_names_it_by_key_in_either_language(lang):
    """Found by a new user: the address carried the symptom's label, so a link copied in Chinese named no
    symptom in English (a note, and the first symptom instead)."""
    key = SYMPTOMS[2].key
    at = open_page("pages/symptoms.py", lang=lang, sy_symptom=key)
    no_exception(at)
    assert at.segmented_control(key="sy_symptom").value == key and not at.warning
    assert t(f"symptoms.{key}.title", lang) in texts(at)
    if lang == "en":  # AppTest sends a choice by its English label
        other = SYMPTOMS[1].key
        at.segmented_control(key="sy_symptom").set_value(other).run()
        assert at.query_params["sy_symptom"] == other  # the key, never the label
        at.segmented_control(key="sy_symptom").set_value(None).run()  # a click on the chosen one
        assert at.segmented_control(key="sy_symptom").value == other
    bad = open_page("pages/symptoms.py", lang=lang, sy_symptom="KL blow-up")  # a label: not a key
    assert bad.segmented_control(key="sy_symptom").value == SYMPTOMS[0].key
    assert any("sy_symptom" in w.value for w in bad.warning)


def test_a_symptom_found_by_its_second_criterion_says_so():
    """Found by a new user: length runaway was found in the measured run while the number shown (1.16x
    growth) stayed below its 1.5x threshold; the page now says the other criterion fired."""
    entry = load_measured()["symptoms"]["length_runaway"]
    growth = entry["evidence"]
    assert entry["present"] and growth < THRESHOLDS["length_growth"]  # the shipped measurement's case
    at = open_page("pages/symptoms.py", sy_symptom="length_runaway")
    no_exception(at)
    other = t("symptoms.length_runaway.other", "en", threshold=f"{THRESHOLDS['length_growth']:g}")
    assert any(other in s.value and f"{growth:.3g}" in s.value for s in at.success), [s.value for s in at.success]


def test_found_by_other_is_the_second_criterion_alone():
    from rlviz.experiments.symptoms import found_by_other

    # length runaway: growth >= 1.5x, or half the last third's responses at the limit (not in the evidence)
    assert found_by_other("length_runaway", True, 1.16)  # found, growth below 1.5: the limit share fired
    assert not found_by_other("length_runaway", True, 1.5)  # growth at the threshold finds it itself
    assert not found_by_other("length_runaway", False, 1.16)  # not found at all
    assert not found_by_other("kl_blowup", True, 0.01)  # no second criterion
    with pytest.raises(ValueError, match="key"):
        found_by_other("warp_drive", True, 1.0)
