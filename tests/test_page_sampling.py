"""The Dynamic sampling page through AppTest: defaults, extreme widget values, both languages, a bad
input shown as a message, the URL holding the settings, and a tiny live run."""

from __future__ import annotations

import json
import math

import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, texts, torch_threads

from rlviz.core.objectives import ALGORITHMS
from rlviz.i18n import t

PAGE = "pages/sampling.py"


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


_texts = texts


def assert_figure_words(at, lang: str) -> None:
    """The page hands the signal, bias, measured, Beta and cost figures their words in ``lang``
    (``app_common.labels``): no key shows."""
    signal, bias, measured, beta, cost = figures(at)[:5]

    def s(key: str, **fmt) -> str:
        return t(f"sampling.{key}", lang, **fmt)

    assert signal["layout"]["xaxis"]["title"]["text"] == s("pass_rate")
    assert f"<br>{s('mixed_hover')}: " in signal["data"][0]["hovertemplate"]
    assert bias["layout"]["yaxis"]["title"]["text"] == s("bias_axis")
    assert [tr["name"] for tr in bias["data"]] == [ALGORITHMS[a].title for a in ("grpo", "dr_grpo")]
    assert [a["text"] for a in measured["layout"]["annotations"]] == [
        s("hist_title"),
        s("outcome_title"),
        s("zero_band"),
    ]
    outcomes = [tr["name"] for tr in measured["data"] if tr.get("orientation") == "h"]
    assert outcomes == [s("all_wrong_share"), s("mixed_share"), s("all_correct_share")]
    assert beta["data"][0]["name"] == s("beta_name", a=0.3, b=0.5)
    assert beta["layout"]["annotations"][0]["text"].startswith(s("mean") + " ")
    assert [a["text"].strip() for a in cost["layout"]["annotations"]][:3] == [
        s("cost_groups"),
        s("cost_full"),
        s("cost_rollouts"),
    ]
    assert {tr["name"] for tr in cost["data"] if tr.get("showlegend") is not False} >= {
        s("beta_name", a=0.3, b=0.5),
        s("measured_name"),
    }


def test_defaults_show_every_section():
    at = open_page(PAGE)
    no_exception(at)
    assert at.title[0].value == t("sampling.title", "en")
    figs = assert_finite_figures(at, at_least=5)  # signal, difficulty bias, measured, Beta, cost
    assert len(at.get("latex")) >= 5
    text = _texts(at)
    for key in ("sampling.signal_header", "sampling.measured_header", "sampling.cost_header", "sampling.live_header"):
        assert t(key, "en") in text
    # the measured zero-advantage share is a real number between 0 and 100 %
    zero = at.metric[0].value
    assert zero.endswith("%") and 0 <= int(zero[:-1]) <= 100
    # the cost figure has one trace per distribution and panel (Beta and measured) plus baselines
    cost = [f for f in figs if len(f["data"]) == 8]
    assert cost, "the cost figure with both distributions is missing"
    assert at.table  # the table at the chosen K (the simulation check runs once its expander opens)
    assert at.info and t("sampling.run", "en") in [b.label for b in at.button]
    assert_figure_words(at, "en")


def test_chinese():
    at = open_page(PAGE, lang="zh")
    no_exception(at)
    assert at.title[0].value == t("sampling.title", "zh")
    assert t("sampling.cost_caption", "zh") in _texts(at)
    assert_finite_figures(at, at_least=5)
    assert_figure_words(at, "zh")


def test_extreme_widget_values_low():
    at = open_page(PAGE)
    at.multiselect(key="s_Gs").set_value([1])
    at.slider(key="s_bG").set_value(2)
    at.number_input(key="s_np").set_value(4)
    at.number_input(key="s_mG").set_value(2)
    at.slider(key="s_temp").set_value(0.1)
    at.number_input(key="s_N").set_value(1)
    at.number_input(key="s_n").set_value(1)
    at.number_input(key="s_G").set_value(2)
    at.number_input(key="s_K").set_value(1)
    at.slider(key="s_a").set_value(0.1)
    at.slider(key="s_b").set_value(0.1)
    at.run()
    no_exception(at)
    assert_finite_figures(at, at_least=5)


def test_extreme_widget_values_high():
    at = open_page(PAGE)
    at.multiselect(key="s_Gs").set_value([1, 2, 4, 8, 16, 32, 64])
    at.slider(key="s_bG").set_value(64)
    at.number_input(key="s_np").set_value(4)
    at.number_input(key="s_mG").set_value(32)
    at.slider(key="s_temp").set_value(2.0)
    at.number_input(key="s_N").set_value(512)
    at.number_input(key="s_n").set_value(1024)
    at.number_input(key="s_G").set_value(64)
    at.number_input(key="s_K").set_value(50)
    at.slider(key="s_a").set_value(10.0)
    at.slider(key="s_b").set_value(10.0)
    at.run()
    no_exception(at)
    assert_finite_figures(at, at_least=5)
    # the other corner: one prompt per round cannot fill 512 groups in 50 rounds
    at.number_input(key="s_n").set_value(1).run()
    no_exception(at)
    assert_finite_figures(at, at_least=5)


def test_many_prompts_measured():
    at = open_page(PAGE)
    at.number_input(key="s_np").set_value(256)
    at.number_input(key="s_mG").set_value(2)
    at.run()
    no_exception(at)
    assert_finite_figures(at, at_least=5)


def test_no_group_size_is_a_message_not_a_crash():
    at = open_page(PAGE)
    at.multiselect(key="s_Gs").set_value([]).run()
    assert not at.exception
    assert at.error and "group_size" in at.error[0].value
    assert_finite_figures(at, at_least=4)  # the rest of the page still draws


def test_bad_input_in_chinese_names_the_widget():
    at = open_page(PAGE, lang="zh")
    at.multiselect(key="s_Gs").set_value([]).run()
    assert not at.exception
    message = at.error[0].value
    # show_bad_input: the widget's Chinese label, then the library's parameter and detail
    assert t("sampling.group_sizes", "zh") in message and message.startswith("请检查")
    assert "group_size: " + t("sampling.need_group_size", "zh") in message


def _stopped_run(grpo_steps: int, ds_steps: int):
    from rlviz.experiments.sampling import DynamicSamplingConfig, DynamicSamplingRun
    from rlviz.lm.model import load_policy

    run = DynamicSamplingRun(
        DynamicSamplingConfig(steps=3, prompts_per_step=2, group_size=2, heldout_samples=0),
        policy=load_policy(None, "cpu"),
    )
    for arm, n in (("grpo", grpo_steps), ("grpo_ds", ds_steps)):
        for _ in range(n):
            run.trainers[arm].step()
    return run


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_stopped_message_agrees_with_the_progress_bars(lang):
    # a run stopped after one step of both arms: the bars and the message say the same
    at = open_page(PAGE, lang=lang)
    at.session_state["sampling_run"] = _stopped_run(1, 1)
    at.run()
    assert not at.exception
    bars = [b.proto.text for b in at.get("progress")]
    arms = [t(f"sampling.arm_{a}", lang) for a in ("grpo", "grpo_ds")]
    assert bars == [t("sampling.progress", lang, arm=a, done=1, total=3) for a in arms]
    assert at.warning[0].value == t("sampling.stopped", lang, done=1, total=3)
    assert t("sampling.continue", lang) in [b.label for b in at.button]


def test_stopped_message_names_both_arms_when_they_differ():
    at = open_page(PAGE)
    at.session_state["sampling_run"] = _stopped_run(2, 1)
    at.run()
    assert not at.exception
    steps = f"{t('sampling.arm_grpo', 'en')} 2, {t('sampling.arm_grpo_ds', 'en')} 1"
    assert at.warning[0].value == t("sampling.stopped_arms", "en", steps=steps, total=3)
    # Continue brings the arm behind up first: both at 2, and the plain message again
    at.button(key="s_continue").click().run()
    assert not at.exception
    assert at.session_state["sampling_run"].progress == {"grpo": 3, "grpo_ds": 3}
    assert at.success


def test_url_holds_the_settings():
    # AppTest does not write the URL back (the browser does); every bound widget must read it
    shared = {
        "s_Gs": ["2", "64"],
        "s_bG": "16",
        "s_np": "8",
        "s_mG": "4",
        "s_temp": "0.5",
        "s_N": "32",
        "s_n": "64",
        "s_G": "16",
        "s_K": "7",
        "s_a": "2.0",
        "s_b": "3.0",
        "s_steps": "3",
        "s_lp": "4",
        "s_lG": "4",
        "s_rounds": "5",
        "s_lr": "0.0002",
        "s_ltemp": "0.8",
        "s_heldout": "0",
        "s_mc": "true",  # the simulation check's expander, open
    }
    at = open_page(PAGE, **shared)
    no_exception(at)
    assert at.multiselect(key="s_Gs").value == [2, 64]
    for key in ("s_bG", "s_temp", "s_a", "s_b", "s_ltemp"):
        assert at.slider(key=key).value == float(shared[key]), key
    for key in ("s_np", "s_mG", "s_N", "s_n", "s_G", "s_K", "s_steps", "s_lp", "s_lG", "s_rounds", "s_heldout"):
        assert at.number_input(key=key).value == int(shared[key]), key
    assert at.select_slider(key="s_lr").value == 2e-4
    assert at.metric[0].value.endswith("%")  # the measurement ran with the shared settings
    assert at.dataframe  # the simulation check, run because its expander is open
    assert_finite_figures(at, at_least=5)


def test_tiny_live_run():
    at = open_page(PAGE)
    at.number_input(key="s_steps").set_value(2)
    at.number_input(key="s_lp").set_value(2)
    at.number_input(key="s_lG").set_value(2)
    at.number_input(key="s_rounds").set_value(10)
    at.number_input(key="s_heldout").set_value(0)
    at.run()
    # before the run its figure is already there, in the place the run fills: the empty panels over the
    # run's steps, with a line that says so, and no invented point
    n_before = len(figures(at))
    empty = figures(at)[-1]
    assert empty["data"] and all(tr["x"] == [] and tr["y"] == [] for tr in empty["data"])  # four empty panels
    assert empty["layout"]["title"]["text"] == t("sampling.empty_figure", "en")
    assert empty["layout"]["xaxis"]["range"] == [0.5, 2.5]  # steps 1 to 2, the widget's steps
    at.button(key="s_run").click().run()
    no_exception(at)
    assert at.success and at.success[0].value == t("sampling.finished", "en", total=2)
    figs = assert_finite_figures(at, at_least=n_before)
    assert len(figs) == n_before  # the same figure, filled: nothing was added above or below it
    live = figs[-1]
    assert live["data"] and live["layout"]["xaxis"]["range"] == [0.5, 2.5]
    names = {tr["name"] for tr in live["data"]}
    assert names == {t("sampling.arm_grpo", "en"), t("sampling.arm_grpo_ds", "en")}
    summary = at.table[-1].value
    assert len(summary) == 2
    # the key result first, visible without scrolling sideways: the run, then held-out pass@1 start -> end
    assert list(summary.columns[:3]) == [
        t("sampling.col_arm", "en"),
        t("sampling.col_heldout", "en"),
        t("sampling.col_train_last5", "en"),
    ]
    assert summary.iloc[:, 1].tolist() == ["— → —", "— → —"]  # held-out pass@1 skipped (0 samples)
    # the run's reading under its figure: per step, the groups with a signal and the responses of each
    # arm, read from the run (rlviz.experiments.sampling.run_comparison)
    from rlviz.experiments.sampling import run_comparison

    got = run_comparison(at.session_state["sampling_run"].summary_frame())

    def one(v, digits):
        return f"{v:.{digits}f}"

    reading = t(
        "sampling.read_compare",
        "en",
        signal_ds=one(got["signal_grpo_ds"], 1),
        signal=one(got["signal_grpo"], 1),
        times=one(got["times"], 1),
        rollouts_ds=one(got["rollouts_grpo_ds"], 0),
        rollouts=one(got["rollouts_grpo"], 0),
        per_ds=one(got["per_signal_grpo_ds"], 1) if math.isfinite(got["per_signal_grpo_ds"]) else "—",
        per=one(got["per_signal_grpo"], 1) if math.isfinite(got["per_signal_grpo"]) else "—",
    )
    assert reading in [m.value for m in at.markdown]
    assert at.success  # finished: no stopped warning
    # switching the language keeps the run and relabels it
    at.radio(key="lang").set_value("zh").run()
    no_exception(at)
    assert {tr["name"] for tr in figures(at)[-1]["data"]} == {
        t("sampling.arm_grpo", "zh"),
        t("sampling.arm_grpo_ds", "zh"),
    }
    # Reset clears the run
    at.button(key="s_reset").click().run()
    no_exception(at)
    assert len(figures(at)) == n_before and at.info


@pytest.mark.parametrize("seed, temperature", [(0, 1.0), (7, 2.0)])
def test_measured_caption_names_the_levels_this_measurement_shows(seed, temperature):
    # The sentence about which levels dynamic sampling drops is read from the measurement itself:
    # the level with the largest all-right share and the one with the largest all-wrong share.
    from rlviz.experiments.sampling import measure_pass_rates

    at = open_page(PAGE, seed=seed, s_temp=temperature)
    no_exception(at)
    m = measure_pass_rates(seed, 64, 8, temperature, device="cpu")
    share = m.outcomes_by_level()
    share = share[share["level"] > 0].pivot(index="level", columns="outcome", values="share")
    captions = "\n".join(c.value for c in at.caption)
    if share["all_correct"].max() > 0 and share["all_wrong"].max() > 0:
        expected = t(
            "sampling.measured_levels",
            "en",
            lv_right=int(share["all_correct"].idxmax()),
            right=float(share["all_correct"].max()),
            lv_wrong=int(share["all_wrong"].idxmax()),
            wrong=float(share["all_wrong"].max()),
        )
        assert expected.strip() in captions
    else:
        assert "are most common at level" not in captions


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_figure_first_then_the_run_on_the_run_page_skeleton(lang):
    # issue 39: the title, the path marker, the lede and at once the signal figure, its control beside it;
    # the predictions under it; the live run's section in the run pages' shape (app_common.runpage)
    from test_page_live import blocks, descendants, shown_text, words

    at = open_page(PAGE, lang=lang)
    no_exception(at)
    order = blocks(at)
    keys = [key for _, key, _ in order]
    first_chart = next(
        i
        for i, (_, _, node) in enumerate(order)
        if any(getattr(n, "type", "") == "plotly_chart" for n in descendants(node))
    )
    shown = [(kind, key, node) for kind, key, node in order[:first_chart] if kind != "flex_container" or key]
    assert [(kind, key) for kind, key, _ in shown] == [
        ("title", ""),
        ("flex_container", "path_marker"),
        ("markdown", ""),
    ]
    lede = shown_text(shown[2][2].value)
    assert lede == shown_text(t("sampling.lede", lang))
    above = [at.title[0].value, lede] + [
        n.value if n.type == "caption" else n.proto.label for n in descendants(shown[1][2])[1:]
    ]
    assert sum(words(w) for w in above) <= 60, above
    # the first chart is the signal figure, beside the group sizes that drive it
    row = descendants(order[first_chart][2])
    charts = [n for n in row if getattr(n, "type", "") == "plotly_chart"]
    assert charts[0].key == "sampling-signal" and "s_Gs" in [getattr(n, "key", None) for n in row]
    # the predictions come after it
    assert keys.index("sampling_run_settings") > first_chart
    predictions = [
        i
        for i, (_, _, node) in enumerate(order)
        if any(str(getattr(n, "key", "") or "").startswith("pred_") for n in descendants(node))
    ]
    assert predictions and min(predictions) >= first_chart
    # the live run: its places in the skeleton's order, the run's size in one row, Run, then its figure
    places = [k for k in keys if k.startswith("sampling_run_")]
    assert places == [
        f"sampling_run_{p}"
        for p in (
            "settings",
            "buttons",
            "figure",
            "reading",
            "details",
            "predictions",
            "sections",
            "notes",
            "practitioners",
            "downloads",
        )
    ]
    settings = descendants(order[keys.index("sampling_run_settings")][2])
    assert [n.key for n in settings[1:] if getattr(n, "key", None)] == ["s_steps", "s_lp", "s_lG", "s_rounds"]
    details = descendants(order[keys.index("sampling_run_details")][2])
    assert {"s_lr", "s_ltemp", "s_heldout"} <= {getattr(n, "key", None) for n in details}
    figure = descendants(order[keys.index("sampling_run_figure")][2])
    live = [n for n in figure if getattr(n, "type", "") == "plotly_chart"]
    spec = json.loads(live[0].proto.spec)
    assert live[0].key == "sampling-live" and spec["layout"]["title"]["text"] == t("sampling.empty_figure", lang)
    notes = " ".join(
        n.value for n in descendants(order[keys.index("sampling_run_notes")][2]) if getattr(n, "type", "") == "markdown"
    )
    assert t("sampling.live_text", lang) in notes and t("sampling.live_caption", lang) in notes
