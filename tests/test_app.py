"""Every page through Streamlit's AppTest: no exception, real content, the language switch works."""

from __future__ import annotations

import dataclasses
import json
import math
import os
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_common import server_options
from rlviz.app_pages import PAGES, page
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES
from rlviz.experiments.home import framework_check
from rlviz.experiments.live import DEFAULT_ALGORITHMS, LiveConfig, LiveRun
from rlviz.experiments.runner import SUMMARY_TAIL
from rlviz.i18n import t

APP = str(Path(__file__).resolve().parent.parent / "app.py")
TIMEOUT = 120


def _app(**query) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(query)
    return at


def _texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [e.value for e in at.title] + [e.value for e in at.subheader]
    parts += [e.value for e in at.caption]
    return "\n".join(parts)


def _no_exception(at: AppTest):
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def test_home_english_by_default():
    at = _app().run()
    _no_exception(at)
    assert at.session_state["lang"] == "en"
    assert at.title[0].value == t("home.title", "en")
    text = _texts(at)
    for spec in ALGORITHMS.values():
        assert f"### {spec.title}" in text
        assert spec.summary["en"] in text
        assert f"arxiv.org/abs/{spec.arxiv}" in text
        state, frameworks = framework_check(spec.name)  # checked against TRL / verl, or by no framework
        assert t(f"home.parity_{state}", "en", frameworks=frameworks) in text
        if spec.follows_paper:  # the registry's note where rlviz follows the paper, not the authors' code
            assert t("home.follows_paper", "en", text=spec.follows_paper["en"]) in text
    assert t("home.parity_checked", "en", frameworks=framework_check("grpo")[1]) in text
    assert len(at.get("latex")) == len(ALGORITHMS) == 22
    assert at.get("plotly_chart"), "the family tree is missing"


def test_home_lists_every_page_of_the_page_table():
    at = _app().run()
    _no_exception(at)
    # the settings tables: a setting without a TRL / verl name reads "none", never nan
    cells = [str(v) for table in at.table for v in table.value.to_numpy().ravel()]
    assert cells and "nan" not in cells and t("word.none", "en") in cells
    links = [link.proto.page for link in at.get("page_link")]
    for entry in PAGES:
        if not entry.is_home:
            assert entry.url_path in links, entry.key
            assert t(f"home.{entry.key}_claims", "en") in _texts(at)
    assert t("home.algos_header", "en", n=len(ALGORITHMS)) in _texts(at)  # the count comes from the registry


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_opens_with_the_newcomers_path_beside_the_figure(lang):
    # issue 40: "Start here" first (a link to the path's first stop, then every stop in order with its
    # sentence), entry points for a teacher and an interview candidate; the family tree beside the path
    from rlviz.app_pages import PATH

    at = _app()
    at.query_params["lang"] = lang
    at.run()
    _no_exception(at)
    assert at.markdown[0].value.startswith(t("home.lede", lang, n=len(ALGORITHMS))[:12])  # the lede, first
    links = [(link.proto.page, link.proto.label) for link in at.get("page_link")]
    first = page(PATH[0])
    assert links[0] == (first.url_path, t("home.start_button", lang, title=t(f"nav.{first.key}", lang)))
    stops = [label for _, label in links[1 : 1 + len(PATH)]]
    assert stops == [f"{k}. {t(f'nav.{key}', lang)}" for k, key in enumerate(PATH, 1)]
    captions = [c.value for c in at.caption]
    assert all(t(f"path.{key}", lang) in captions for key in PATH)
    assert [url for url, _ in links[1 + len(PATH) : 3 + len(PATH)]] == ["lessons", "interview"]
    assert at.get("plotly_chart"), "the family tree is missing"


def test_an_entry_added_to_the_registry_is_on_the_home_map(monkeypatch):
    note = {"en": "The copy's code does something else.", "zh": "副本的代码另有做法。"}
    copy = dataclasses.replace(ALGORITHMS["dapo"], name="dapo_copy", title="DAPO copy", style=None, follows_paper=note)
    monkeypatch.setitem(ALGORITHMS, "dapo_copy", copy)
    at = _app().run()
    _no_exception(at)
    assert "### DAPO copy" in _texts(at)
    assert t("home.follows_paper", "en", text=note["en"]) in _texts(at)  # its card reads the note, no page edit
    tree = json.loads(at.get("plotly_chart")[0].proto.spec)
    boxes = [a["text"] for a in tree["layout"]["annotations"] if a.get("text")]
    assert "<b>DAPO copy</b>" in boxes
    assert t("home.algos_header", "en", n=len(ALGORITHMS)) in _texts(at)  # the registry with the copy


def test_charts_have_the_short_toolbar():
    # camera, zoom, pan and reset only: the full toolbar covered the 8th entry of a legend's first row
    at = _app().run()
    _no_exception(at)
    config = json.loads(at.get("plotly_chart")[0].proto.config)
    assert set(config["modeBarButtonsToRemove"]) == {"zoomIn2d", "zoomOut2d", "autoScale2d", "select2d", "lasso2d"}
    assert config["displaylogo"] is False and config["toImageButtonOptions"]["format"] == "svg"


def test_language_switch_changes_text():
    at = _app().run()
    english = at.title[0].value
    at.radio(key="lang").set_value("zh").run()
    _no_exception(at)
    assert at.title[0].value == t("home.title", "zh") != english
    assert ALGORITHMS["gspo"].summary["zh"] in _texts(at)
    assert at.query_params["lang"] == "zh"  # a copied link keeps the language


def test_language_from_the_url():
    at = _app(lang="zh").run()
    _no_exception(at)
    assert at.session_state["lang"] == "zh"
    assert at.title[0].value == t("home.title", "zh")
    # AppTest keeps sidebar elements in the tree of the first run only (st.navigation apps)
    assert at.number_input(key="seed").label == t("side.seed", "zh")
    assert at.query_params["lang"] == "zh"  # the language stays in the URL


def test_unknown_language_in_the_url_falls_back():
    at = _app(lang="fr").run()
    _no_exception(at)
    assert at.session_state["lang"] == "en"


def test_sidebar_state_for_pages():
    at = _app().run()
    for key in ("lang", "seed", "device", "model_dir"):
        assert key in at.session_state, key
    assert at.session_state["seed"] == 0
    assert at.session_state["device"] == "auto"
    assert at.session_state["model_dir"] == (os.environ.get("RLVIZ_MODEL_DIR") or None)
    options = at.selectbox(key="device").options
    assert options[0].startswith("auto")


def test_server_options_from_argv_and_env():
    opts = server_options(["--model-dir", "/m", "--device", "cpu", "--other", "x"], {})
    assert (opts.model_dir, opts.device) == ("/m", "cpu")
    opts = server_options([], {"RLVIZ_MODEL_DIR": "/env", "RLVIZ_DEVICE": "cuda"})
    assert (opts.model_dir, opts.device) == ("/env", "cuda")
    opts = server_options(["--device", "mps"], {"RLVIZ_DEVICE": "cuda"})
    assert opts.device == "mps"  # the command line wins over the environment
    assert server_options([], {}) == type(opts)(model_dir=None, device="auto")


def test_unavailable_server_device_is_a_warning_not_a_crash(monkeypatch):
    monkeypatch.setenv("RLVIZ_DEVICE", "xpu")
    at = _app().run()
    assert not at.exception
    assert at.warning and "xpu" in at.warning[0].value
    assert at.session_state["device"] == "auto"


# ---------------------------------------------------------------------------------------- live page
LIVE = "pages/live.py"


def _live(**query) -> AppTest:
    return _app(**query).switch_page(LIVE).run()


def _small(at: AppTest, algorithms=("grpo", "gspo"), steps=2, prompts=4, G=4, heldout=1) -> AppTest:
    at.multiselect(key="lv_algos").set_value(list(algorithms))
    at.number_input(key="lv_steps").set_value(steps)
    at.number_input(key="lv_prompts").set_value(prompts)
    at.number_input(key="lv_G").set_value(G)
    at.number_input(key="lv_heldout").set_value(heldout)
    return at.run()


def _figure(at: AppTest, index: int = 0) -> dict:
    return json.loads(at.get("plotly_chart")[index].proto.spec)


def test_live_page_first_load():
    at = _live()
    _no_exception(at)
    assert at.title[0].value == t("live.title", "en")
    assert at.multiselect(key="lv_algos").value == list(DEFAULT_ALGORITHMS)
    assert [e.label for e in at.expander if "settings" in e.label][-4:] == [
        t("live.algo_settings", "en", title=ALGORITHMS[n].title) for n in DEFAULT_ALGORITHMS
    ]
    # every algorithm setting defaults to the registry value
    for name in DEFAULT_ALGORITHMS:
        for s in ALGORITHMS[name].loss_settings:
            widget = at.get("text_input") + at.get("selectbox") + at.get("checkbox")
            values = {w.key: w.value for w in widget if w.key}
            expected = "" if s.default is None else (f"{s.default:g}" if isinstance(s.default, float) else s.default)
            assert values[f"lv_{name}.{s.name}"] == expected, (name, s.name)
    assert at.info and "Run" in at.info[0].value
    # every widget of the page carries the page's prefix
    keys = [
        w.key
        for kind in ("multiselect", "number_input", "slider", "select_slider", "text_input", "checkbox")
        for w in at.get(kind)
        if w.key
    ]
    sidebar = {"seed"}
    # the predict-then-check component's widgets are named after their question (pr_teach.live_...)
    assert all(k.startswith(("lv_", "pr_teach.live_")) or k in sidebar for k in keys), keys


def test_live_page_in_chinese():
    at = _live(lang="zh")
    _no_exception(at)
    assert at.title[0].value == t("live.title", "zh")
    assert at.button(key="lv_run").label == t("live.run", "zh")


def test_the_run_buttons_are_always_drawn_and_enabled_only_when_they_can_act():
    # a button drawn only in some script runs stays on screen from the previous run while a long run
    # keeps the script busy (a stale Reset could drop the run): all four are drawn every time
    at = _small(_live())
    assert not at.button(key="lv_run").disabled and at.button(key="lv_stop").disabled
    assert at.button(key="lv_continue").disabled and at.button(key="lv_reset").disabled  # no run yet
    at.button(key="lv_run").click().run()
    assert at.session_state["live_run"].done
    assert at.button(key="lv_continue").disabled and not at.button(key="lv_reset").disabled
    assert at.button(key="lv_stop").disabled


def test_the_final_tables_caption_says_when_held_out_pass_at_1_was_not_measured():
    # held-out samples 0 skips the evaluation: its columns read "—" after the run, and the caption
    # must say why (it said "— until an algorithm finishes its steps" under a finished run)
    from rlviz.lm.task import HELDOUT_SIZE

    at = _small(_live(lang="zh"), algorithms=("grpo",), heldout=0)
    at.button(key="lv_run").click().run()
    _no_exception(at)
    captions = [c.value for c in at.caption]
    assert t("live.summary_caption_no_heldout", "zh", tail=SUMMARY_TAIL) in captions
    assert t("live.summary_caption", "zh", n=HELDOUT_SIZE, tail=SUMMARY_TAIL) not in captions


def test_the_run_size_fields_offer_no_more_than_the_server_runs():
    # found by a new user: the fields went to 128 prompts and G 64 where the server refuses above 64 / 32
    from app_common import server_limits

    limits = server_limits()
    at = _live()
    assert at.number_input(key="lv_steps").max == limits.max_steps
    assert at.number_input(key="lv_prompts").max == limits.max_prompts_per_step
    assert at.number_input(key="lv_G").max == limits.max_group_size


@pytest.mark.parametrize("page", ["pages/live.py", "pages/sampling.py", "pages/mismatch.py", "pages/moe.py"])
def test_an_operators_lower_limits_bound_every_run_size_field(page, monkeypatch):
    # RLVIZ_* limits below a page's defaults (steps 30+, 16 prompts, G 8) and one below a field's minimum
    # (G >= 2): every field of the run's size stops at the limit, none makes Streamlit refuse the page
    from app_common import RUN_SIZE_LIMITS, server_limits

    monkeypatch.setenv("RLVIZ_MAX_STEPS", "3")
    monkeypatch.setenv("RLVIZ_MAX_PROMPTS_PER_STEP", "4")
    monkeypatch.setenv("RLVIZ_MAX_GROUP_SIZE", "1")
    server_limits.clear()  # read once per process (st.cache_resource): read these
    try:
        at = _app().switch_page(page).run(timeout=120)
    finally:  # the process's limits (rlviz.serving.configure) back to the defaults for the other tests
        monkeypatch.undo()
        server_limits.clear()
        server_limits()
    _no_exception(at)
    prefix = {"pages/live.py": "lv_", "pages/sampling.py": "s_", "pages/mismatch.py": "mm_", "pages/moe.py": "mo_"}[
        page
    ]
    bounded = {"steps": 3, "prompts": 4, "group_size": 2}  # G's field cannot go below 2: held there
    fields = {
        "lv_": {"steps": "lv_steps", "prompts": "lv_prompts", "group_size": "lv_G"},
        "s_": {"steps": "s_steps", "prompts": "s_lp", "group_size": "s_lG"},
        "mm_": {"steps": "mm_steps", "prompts": "mm_lp", "group_size": "mm_lG"},
        "mo_": {"steps": "mo_steps", "prompts": "mo_lp", "group_size": "mo_lG"},
    }[prefix]
    assert set(fields) == set(RUN_SIZE_LIMITS)
    for size, key in fields.items():
        field = at.number_input(key=key)
        assert field.max == bounded[size] and field.value <= bounded[size], (key, field.max, field.value)


def test_live_run_through_the_ui():
    at = _small(_live())
    at.button(key="lv_run").click().run()
    _no_exception(at)
    run = at.session_state["live_run"]
    assert run.done and run.progress == {"grpo": 2, "gspo": 2}
    assert at.session_state["live_running"] is False
    # a finished run has freed its models (advance -> run.release()); everything below is drawn from
    # the stored results alone
    assert run.released and all(tr.model is None and tr.optimizer is None for tr in run.trainers.values())
    # the curves, read back from the figure JSON: both algorithms, real numbers, no NaN
    curves = _figure(at, 0)
    names = {tr["name"] for tr in curves["data"]}
    assert names == {"GRPO", "GSPO"}
    for trace in curves["data"]:
        assert trace["x"] and all(isinstance(v, (int, float)) and math.isfinite(v) for v in trace["y"]), trace["name"]
    reward = [tr for tr in curves["data"] if tr["yaxis"] in ("y", "y1")]
    assert reward and all(-2.0 <= v <= 1.0 for tr in reward for v in tr["y"])
    frame = run.metrics_frame()
    grpo_entropy = frame[frame.arm == "grpo"]["entropy"].tolist()
    assert any(tr["name"] == "GRPO" and tr["y"] == pytest.approx(grpo_entropy) for tr in curves["data"])
    # the entropy reading is this run's own numbers: the arm whose entropy fell the most (or, when every
    # arm's rose, rose the least: the page said "lost the most" of an entropy that had risen), from its
    # metrics, in the run's reading right under its figure
    entropy = run.entropy_frame()
    lost = entropy.loc[entropy["entropy_change"].idxmin()]
    reading = t(
        "live.entropy_reading" if lost["entropy_change"] < 0 else "live.entropy_reading_rose",
        "en",
        title=ALGORITHMS[lost["algorithm"]].title,
        first=f"{lost['entropy_first']:.2f}",
        last=f"{lost['entropy_last']:.2f}",
        steps=2,
        high=f"{lost['clip_high_mean']:.1%}",
    )
    assert reading in _texts(at)
    under_figure = [m.value for m in at.markdown if reading in m.value]
    assert under_figure and under_figure[0].startswith(reading)
    from rlviz.lm.task import HELDOUT_SIZE  # held-out pass@1 measured (1 sample a prompt): the caption says on what

    assert t("live.summary_caption", "en", n=HELDOUT_SIZE, tail=SUMMARY_TAIL) in [c.value for c in at.caption]
    # ratio histogram, token views, final table, downloads
    assert len(at.get("plotly_chart")) >= 2
    # each token heatmap's hover says what the trust region did to each token (at the step's first
    # update, the weights shown by default), in the page's words
    words = {s: t(f"live.state.{s}", "en") for s in TOKEN_STATES}
    heatmaps = [_figure(at, i)["data"][0] for i in range(2, len(at.get("plotly_chart")))]
    views = [run.token_view(1, arm) for arm in ("grpo", "gspo")]
    assert len(heatmaps) == sum(v is not None for v in views) >= 1
    for hm, view in zip(heatmaps, [v for v in views if v is not None]):
        assert hm["type"] == "heatmap" and hm["hovertemplate"].count("%{customdata[2]}") == 1
        shown = [[cell[2] for cell in row[: len(r["tokens"])]] for row, r in zip(hm["customdata"], view["rows"])]
        assert shown == [[words[s] for s in r["state_first"]] for r in view["rows"]]
    table = at.dataframe[-1].value
    assert len(table) == 2
    # a compact table: the key result first, short headers, nothing that needs scrolling sideways
    assert list(table.columns[:2]) == [t("sum.algorithm", "en"), t("sum.heldout", "en")]
    assert len(table.columns) <= 10 and all(len(c) <= 16 for c in table.columns)
    assert table.iloc[0, 0] == "GRPO" and "→" in table.iloc[0, 1]
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == [t("live.download_csv", "en"), t("live.download_json", "en")]
    assert at.success and "2" in at.success[0].value


def test_the_run_click_disables_the_settings_in_its_own_script_run(monkeypatch):
    # The Run button's callback sets the running flag before the script runs: the settings above
    # the controls are drawn disabled in that same script run, before the first step.
    import streamlit

    events = []
    multiselect, step_parallel = streamlit.multiselect, LiveRun.step_parallel

    def recording_multiselect(*args, **kwargs):
        if kwargs.get("key") == "lv_algos":
            events.append(("algorithms widget", kwargs.get("disabled")))
        return multiselect(*args, **kwargs)

    def recording_step_parallel(self, *args, **kwargs):
        events.append(("step", None))
        return step_parallel(self, *args, **kwargs)

    monkeypatch.setattr(streamlit, "multiselect", recording_multiselect)
    monkeypatch.setattr(LiveRun, "step_parallel", recording_step_parallel)
    at = _small(_live(), algorithms=("grpo",), steps=1)
    assert not at.multiselect(key="lv_algos").disabled
    events.clear()
    at.button(key="lv_run").click().run()
    _no_exception(at)
    first_step = events.index(("step", None))
    assert events[first_step - 1] == ("algorithms widget", True)  # disabled in the click's own script run
    assert events[0] == ("algorithms widget", True)
    assert at.session_state["live_run"].done
    # once the run is done the settings are editable again
    assert not at.multiselect(key="lv_algos").disabled and not at.number_input(key="lv_steps").disabled


def test_a_value_sent_with_the_run_click_is_kept():
    # a field still being edited when Run is pressed arrives with the click, while the settings are
    # drawn disabled; Streamlit drops values of disabled widgets unless the Run callback keeps them
    at = _small(_live(), algorithms=("grpo",), steps=2)
    at.number_input(key="lv_steps").set_value(1)
    at.button(key="lv_run").click().run()
    _no_exception(at)
    assert at.session_state["live_run"].config.steps == 1 and at.number_input(key="lv_steps").value == 1


def test_bad_setting_is_an_error_message_not_a_traceback():
    at = _small(_live())
    at.text_input(key="lv_gspo.epsilon_high").set_value("abc").run()
    at.button(key="lv_run").click().run()
    assert not at.exception
    assert at.error and "epsilon_high" in at.error[0].value
    assert "live_run" not in at.session_state
    assert not at.multiselect(key="lv_algos").disabled  # the settings can be fixed
    assert at.session_state["live_running"] is False


def test_out_of_range_value_from_rlviz_is_an_error_message():
    at = _small(_live())
    at.text_input(key="lv_grpo.epsilon_low").set_value("-0.5").run()
    at.button(key="lv_run").click().run()
    assert not at.exception
    assert at.error and "epsilon_low" in at.error[0].value


def test_a_bad_run_setting_names_its_widget():
    at = _small(_live(), algorithms=("grpo",), G=4)
    at.number_input(key="lv_mb").set_value(64).run()  # more mini-batches than the 16 responses
    at.button(key="lv_run").click().run()
    assert not at.exception
    assert at.error and t("live.mini_batches", "en") in at.error[0].value


def test_stopped_run_keeps_results_and_continues():
    at = _small(_live(), algorithms=("grpo", "sapo"), steps=3)
    config = LiveConfig(
        algorithms=("grpo", "sapo"),
        steps=3,
        prompts_per_step=4,
        group_size=4,
        heldout_samples=1,
        model_dir=at.session_state["model_dir"],
    )
    run = LiveRun(config)
    run.step()  # as if Stop was clicked after the first step
    at.session_state["live_run"] = run
    at.session_state["live_running"] = False
    at.run()
    _no_exception(at)
    assert at.warning and "1" in at.warning[0].value  # "stopped after 1 of 3 steps"
    assert _figure(at, 0)["data"], "partial results are shown"
    at.button(key="lv_continue").click().run()
    _no_exception(at)
    assert at.session_state["live_run"] is run and run.done
    assert {tr["name"] for tr in _figure(at, 0)["data"]} == {"GRPO", "SAPO"}
    at.button(key="lv_reset").click().run()
    assert "live_run" not in at.session_state


def test_a_run_stopped_between_two_arms_says_so_and_catches_up():
    at = _small(_live(), algorithms=("grpo", "sapo"), steps=2)
    config = LiveConfig(algorithms=("grpo", "sapo"), steps=2, prompts_per_step=4, group_size=4, heldout_samples=0)
    run = LiveRun(config)
    run.step_next()  # GRPO has stepped, SAPO not yet: a Stop between two arm-steps
    at.session_state["live_run"] = run
    at.run()
    _no_exception(at)
    assert at.warning[0].value == t("live.stopped_arms", "en", steps="GRPO 1, SAPO 0", total=2)
    at.button(key="lv_continue").click().run()
    _no_exception(at)
    assert run.progress == {"grpo": 2, "sapo": 2}


def test_error_during_a_run_is_a_message_in_words_and_keeps_the_steps(monkeypatch):
    original = LiveRun._step_unlocked  # an arm's step, whichever thread makes it

    def failing(self, name, on_wait=None):
        if self.trainers[name].step_count >= 1:
            raise RuntimeError("simulated: CUDA out of memory")
        return original(self, name, on_wait)

    monkeypatch.setattr(LiveRun, "_step_unlocked", failing)
    for lang in ("en", "zh"):
        at = _small(_live(lang=lang), algorithms=("grpo",), steps=3)
        at.button(key="lv_run").click().run()
        assert not at.exception
        # the learner reads what happened in words; Python's own text only in a collapsed expander
        assert at.error and at.error[0].value == t("run.failed", lang, what=t("run.err_memory", lang))
        assert "simulated" not in at.error[0].value and "RuntimeError" not in at.error[0].value
        details = [e for e in at.expander if e.label == t("run.details", lang)]
        assert details and "RuntimeError: simulated: CUDA out of memory" in details[0].code[0].value
        run = at.session_state["live_run"]
        assert run.progress == {"grpo": 1} and len(run.metrics_frame()) == 1
        assert at.session_state["live_running"] is False
        assert not at.button(key="lv_continue").disabled  # the steps are kept; Continue tries again
        assert len(at.get("download_button")) == 2  # ... and downloadable (CSV and JSON)
        assert not run.released  # a failed run keeps its models, for Continue
    # the message follows the language switch, until Continue or Reset
    at.radio(key="lang").set_value("en").run()
    assert at.error[0].value == t("run.failed", "en", what=t("run.err_memory", "en"))
    at.button(key="lv_reset").click().run()
    assert not at.error and "live_run" not in at.session_state


def test_language_switch_during_a_run_continues_it():
    # A rerun mid-run (here: the language switch) finds the run flag still set and keeps stepping
    # the same run from where it is; the settings stay disabled while it runs.
    at = _small(_live(), algorithms=("grpo",), steps=2)
    config = LiveConfig(algorithms=("grpo",), steps=2, prompts_per_step=4, group_size=4, heldout_samples=1)
    run = LiveRun(config)
    run.step()
    at.session_state["live_run"] = run
    at.session_state["live_running"] = True  # as if the switch came while the run was advancing
    at.radio(key="lang").set_value("zh").run()
    _no_exception(at)
    assert at.session_state["live_run"] is run and run.done and run.progress == {"grpo": 2}
    assert at.success[0].value == t("live.finished", "zh", total=2)


def test_language_switch_after_a_run_keeps_the_page_working():
    at = _small(_live(), algorithms=("grpo",), steps=1)
    at.button(key="lv_run").click().run()
    at.multiselect(key="lv_panels_en").set_value(["pass_at_1", "kl_ref"]).run()
    panels = ["pass_at_1", "kl_ref"]
    for lang in ("zh", "en", "zh"):
        at.radio(key="lang").set_value(lang).run()
        _no_exception(at)
        assert at.title[0].value == t("live.title", lang)
        assert list(at.multiselect(key=f"lv_panels_{lang}").value) == panels  # carried across languages
        assert "lv_panels" not in at.query_params
        assert at.get("plotly_chart")


def test_gae_is_offered_only_where_there_is_a_value_model():
    at = _live()
    at.multiselect(key="lv_algos").set_value(["ppo", "grpo"]).run()
    assert at.selectbox(key="lv_ppo.advantage").options == ["group", "gae"]
    assert at.selectbox(key="lv_grpo.advantage").options == ["group"]
    at.text_input(key="lv_ppo.dual_clip_c").set_value("none").run()
    _no_exception(at)


def test_an_entry_added_to_the_registry_is_offered_and_trains(monkeypatch):
    copy = dataclasses.replace(ALGORITHMS["dapo"], name="dapo_copy", title="DAPO copy", style=None)
    monkeypatch.setitem(ALGORITHMS, "dapo_copy", copy)
    at = _live()
    _no_exception(at)
    assert "DAPO copy" in at.multiselect(key="lv_algos").options  # offered, under its registry title
    at = _small(at, algorithms=("dapo_copy",), steps=1, prompts=2, G=2, heldout=0)
    _no_exception(at)
    # its settings widgets, generated from its spec
    assert t("live.algo_settings", "en", title="DAPO copy") in [e.label for e in at.expander]
    keys = {w.key for kind in ("text_input", "selectbox", "checkbox") for w in at.get(kind)}
    for s in copy.loss_settings + copy.train_settings:
        assert f"lv_dapo_copy.{s.name}" in keys, s.name
    at.button(key="lv_run").click().run()
    _no_exception(at)
    run = at.session_state["live_run"]
    assert run.done and run.progress == {"dapo_copy": 1} and run.arms["dapo_copy"].objective == "dapo_copy"
    assert {tr["name"] for tr in _figure(at, 0)["data"]} <= {"DAPO copy"}
    assert at.dataframe[-1].value.iloc[0, 0] == "DAPO copy"


def _bad_input_script():
    import streamlit as st

    from app_common import show_bad_input

    st.session_state["lang"] = st.session_state.get("want", "en")
    show_bad_input(ValueError("buffer_length: must be in [0, max_length=3], got 4"), {"buffer_length": "L_cache 缓冲"})
    show_bad_input(ValueError("mystery: unmapped"), {"buffer_length": "L_cache 缓冲"})


@pytest.mark.parametrize("lang, prefix", [("en", "Please check **L_cache 缓冲**"), ("zh", "请检查“**L_cache 缓冲**”")])
def test_show_bad_input_names_the_widget(lang, prefix):
    # the parameter before the first colon is looked up; an unmapped one falls back to the generic text
    at = AppTest.from_function(_bad_input_script, default_timeout=TIMEOUT)
    at.session_state["want"] = lang
    at.run()
    assert not at.exception
    first, second = (e.value for e in at.error)
    assert first.startswith(prefix) and "buffer_length: must be in [0, max_length=3], got 4" in first
    assert second == t("common.bad_input", lang, error="mystery: unmapped")


def test_the_run_note_css_names_each_field_by_its_streamlit_class():
    # a registry setting's key has a dot (lv_grpo.epsilon_high); Streamlit's class has a dash there,
    # and a selector written from the key itself named no element
    from app_common.runs import _invalid_field_css

    css = _invalid_field_css(["lv_steps", "lv_grpo.epsilon_high"], ("lv_run", "lv_continue"), 'fix "it"')
    assert '.st-key-lv_grpo-epsilon_high input[aria-invalid="true"]' in css and "lv_grpo.epsilon" not in css
    assert ".st-key-lv_run button" in css and ".st-key-lv_continue button" in css
    assert 'content: "fix \\"it\\""' in css  # the message as a CSS string
    assert _invalid_field_css([], ("lv_run", "lv_continue"), "x") == ""


def test_a_running_run_redraws_its_curves_at_most_once_a_second(monkeypatch):
    # each redraw mounts a new chart in the browser; a round every 0.3 s redrew it three times a second
    from app_common import runs

    clock = [100.0]
    monkeypatch.setattr(runs.time, "monotonic", lambda: clock[0])

    class Run:
        progress = {"a": 0, "b": 0}

    class Status:
        def info(self, text):
            pass

    run, drawn, bars = Run(), [], []

    def rounds(run_, flag_key, on_progress, on_wait):
        for step in range(1, 8):  # 7 rounds of two arms, 0.3 s a round
            for arm in ("a", "b"):
                run_.progress = {**run_.progress, arm: step}
                on_progress()
            clock[0] += 0.3

    monkeypatch.setattr(runs, "advance", rounds)
    monkeypatch.setattr(runs, "stop_requested", lambda key: False)
    runs.drive(run, "flag", Status(), "running", bars.append, drawn.append, "curves")
    assert len(bars) == 14  # the progress after every arm-step
    # at the start (t = 0), then after round 5, the first to end at least a second later (t = 4 x 0.3
    # = 1.2 s; 10 arm-steps done); rounds 6 and 7 end 0.3 and 0.6 s after that drawing
    assert drawn == ["curves-0", "curves-10"]
