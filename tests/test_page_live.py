"""The live page on the run-page skeleton (``app_common.runpage.RunPage``, issue 39 "figure first"), through
AppTest, in both languages: title, path marker and lede, then one row of main settings, Run / Stop /
Continue / Reset, and the curves' figure (its empty panels before any run, in the place the run fills),
the run's reading right under it, then the other settings, the predictions, the run's own views, notes,
practitioners and downloads. The run's behaviours (Stop, Continue, Reset, errors, queueing) are in
tests/test_app.py; the real browser's first screen and a run watched in it in tests/test_browser_flows.py."""

from __future__ import annotations

import json
import re

import pytest
from apptools import no_exception, open_page, torch_threads

from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments.live import DEFAULT_ALGORITHMS, LiveConfig, run_reading
from rlviz.i18n import t

PAGE = "pages/live.py"
# the places of a run page, top to bottom (app_common.runpage.RunPage), under the keys of the live run
PLACES = ("settings", "buttons", "figure", "reading", "details", "predictions", "sections", "notes")
PLACES += ("practitioners", "downloads")


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


def blocks(at) -> list[tuple[str, str, object]]:
    """The main area's children, in page order: (element type, key or "", node)."""
    out = []
    for node in at.main.children.values():
        try:
            key = str(node.key or "")
        except Exception:  # noqa: BLE001 -- an element without a key
            key = ""
        out.append((getattr(node, "type", ""), key, node))
    return out


def descendants(node) -> list:
    """``node``'s elements and blocks below it, in page order (a block before its children)."""
    children = getattr(node, "children", None)
    if not isinstance(children, dict):
        return [node]
    return [node] + [d for child in children.values() for d in descendants(child)]


def words(text: str) -> int:
    """Words as tests/firstscreen.py counts them: a CJK character is one, else whitespace-separated words
    with a letter or a digit."""
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    latin = [w for w in re.sub(r"[\u3400-\u9fff]", " ", text).split() if re.search(r"\w", w)]
    return cjk + len(latin)


def shown_text(text: str) -> str:
    """Markdown as a reader sees it: no tags (the glossary's hover help), no ** or backticks."""
    return re.sub(r"<[^>]+>|\*\*|`", "", text)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_is_title_lede_settings_run_then_the_figure(lang):
    at = open_page(PAGE, lang=lang)
    no_exception(at)
    order = blocks(at)
    keys = [key for _, key, _ in order]
    places = [f"live_run_{p}" for p in PLACES]
    assert [k for k in keys if k.startswith("live_run_")] == places  # every place, in the skeleton's order
    # above the settings: the title, the path marker, the lede and nothing else (two sentences at most)
    first = keys.index("live_run_settings")
    shown = [(kind, key, node) for kind, key, node in order[:first] if kind != "flex_container" or key]
    above = [(kind, key) for kind, key, _ in shown]  # (unkeyed containers: the shell's, the presenter's slot)
    assert above == [("title", ""), ("flex_container", "path_marker"), ("markdown", "")], above
    marker, lede = shown[1][2], shown[2][2].value
    assert shown_text(lede) == shown_text(t("live.lede", lang)) and lede.count(".") + lede.count("。") <= 2
    # one row of main settings: the algorithms, the steps, the task; Run / Stop / Continue / Reset just under it
    settings = order[first][2]
    widgets = [n.key for n in descendants(settings) if getattr(n, "key", None)]
    assert widgets == ["live_run_settings", "lv_algos", "lv_steps", "lv_task"]
    buttons = [n for n in descendants(order[first + 1][2]) if getattr(n, "type", "") == "button"]
    assert [b.key for b in buttons] == ["lv_run", "lv_stop", "lv_continue", "lv_reset"]
    assert [b.label for b in buttons] == [t(f"live.{b}", lang) for b in ("run", "stop", "continue", "reset")]
    # the page's first chart is the curves' figure, right under the buttons: its empty panels over the
    # run's steps, a line that says what fills them, and no point (nothing invented before a run)
    figure = [n for n in descendants(order[first + 2][2]) if getattr(n, "type", "") == "plotly_chart"]
    assert figure and at.get("plotly_chart")[0].proto.spec == figure[0].proto.spec
    spec = json.loads(figure[0].proto.spec)
    assert spec["layout"]["title"]["text"] == t("live.empty_figure", lang)
    assert spec["data"] and all(tr["x"] == [] and tr["y"] == [] for tr in spec["data"])
    assert spec["layout"]["xaxis"]["range"] == [0.5, LiveConfig().steps + 0.5]
    titles = [a["text"] for a in spec["layout"]["annotations"]]
    assert titles[:3] == [t(f"metric.{m}", lang) for m in ("reward_mean", "pass_at_1", "response_length_mean")]
    assert at.info[0].value == t("live.no_run", lang, n=len(DEFAULT_ALGORITHMS), steps=LiveConfig().steps)
    # a link with other settings (the symptoms page's reproduction: DAPO alone, 100 steps) is told its own run
    linked = open_page(PAGE, lang=lang, lv_algos="DAPO", lv_steps="100")
    assert linked.info[0].value == t("live.no_run", lang, n=1, steps=100)
    # the words above it, counted as the first-screen measure counts them: at most 60 in either language
    above_words = [at.title[0].value, shown_text(lede)]
    for n in descendants(marker)[1:]:  # "Newcomer's path · stop k of n", Previous, Next
        above_words.append(n.value if n.type == "caption" else n.proto.label)
    above_words += [t("live.algorithms", lang), t("live.steps", lang)]
    above_words += [ALGORITHMS[a].title for a in DEFAULT_ALGORITHMS]  # the chosen algorithms' chips
    above_words += [b.label for b in buttons]
    assert sum(words(w) for w in above_words) <= 60, above_words
    # Skywork-OR1's entropy target, next to the entropy bonus: off (0) by default, its help naming the
    # source and the controller's step as TrainConfig has it
    target = at.number_input(key="lv_ent_tgt")
    assert target.label == t("live.entropy_target", lang) and target.value == 0.0
    assert "2505.22312" in target.help and f"{LiveConfig().entropy_coef_delta:g}" in target.help
    # the predictions are below the figure: they never push it down
    predictions = order[keys.index("live_run_predictions")][2]
    assert any(getattr(n, "key", "") and str(n.key).startswith("pred_") for n in descendants(predictions))
    # today's explanations are kept, in the notes
    notes = " ".join(
        n.value for n in descendants(order[keys.index("live_run_notes")][2]) if getattr(n, "type", "") == "markdown"
    )
    for key in ("live.intro", "live.tips", "live.curves_caption", "live.metric_notes"):
        assert t(key, lang) in notes, key


def test_the_settings_row_is_the_only_place_of_the_runs_size_and_algorithms():
    # the other settings are below the figure, in expanders (the per-algorithm ones each in its own)
    at = open_page(PAGE)
    order = blocks(at)
    details = order[[k for _, k, _ in order].index("live_run_details")][2]
    inside = {n.key for n in descendants(details) if getattr(n, "key", None)}
    for key in ("lv_prompts", "lv_G", "lv_mu", "lv_lr", "lv_temp", "lv_mb", "lv_heldout", "lv_panels_en"):
        assert key in inside, key
    assert {f"lv_grpo.{s.name}" for s in ALGORITHMS["grpo"].loss_settings} <= inside


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_finished_run_reads_itself_under_its_figure(lang):
    at = open_page(PAGE, lang=lang, lv_algos=["GRPO", "GSPO"], lv_steps="2", lv_prompts="4", lv_G="4", lv_heldout="1")
    at.button(key="lv_run").click().run()
    no_exception(at)
    run = at.session_state["live_run"]
    assert run.done
    order = blocks(at)
    keys = [k for _, k, _ in order]
    figure = order[keys.index("live_run_figure")][2]
    spec = json.loads(next(n for n in descendants(figure) if getattr(n, "type", "") == "plotly_chart").proto.spec)
    assert "title" not in spec["layout"] or not spec["layout"]["title"].get("text")  # no "press Run" once drawn
    bars = [n.proto.text for n in descendants(figure) if getattr(n, "type", "") == "progress"]
    assert bars == [t("live.progress", lang, title=ALGORITHMS[a].title, done=2, total=2) for a in ("grpo", "gspo")]
    # the reading: what this run shows, computed from its metrics (rlviz.experiments.live.run_reading)
    reading = order[keys.index("live_run_reading")][2]
    text = " ".join(n.value for n in descendants(reading) if getattr(n, "type", "") == "markdown")
    got = run_reading(run.entropy_frame(), run.summary_frame())
    lost, gained = got["entropy"], got["heldout"]
    entropy = t(
        "live.entropy_reading" if lost["fell"] else "live.entropy_reading_rose",
        lang,
        title=ALGORITHMS[lost["arm"]].title,
        first=f"{lost['first']:.2f}",
        last=f"{lost['last']:.2f}",
        steps=2,
        high=f"{lost['clip_high']:.1%}",
    )
    heldout = t(
        "live.heldout_reading" if gained["rose"] else "live.heldout_reading_fell",
        lang,
        title=ALGORITHMS[gained["arm"]].title,
        start=f"{gained['start']:.3f}",
        end=f"{gained['end']:.3f}",
        gain=f"{gained['gain']:+.3f}",
    )
    assert text.startswith(entropy) and heldout in text
    verdicts = [t(f"live.live_verdict.{v}", lang) for v in ("separates", "noise")]
    assert any(v in text for v in verdicts)  # two arms measured: whether they lie apart beyond noise
    # the smoothing is said, with its span, next to the figure
    captions = [n.value for n in descendants(reading) if getattr(n, "type", "") == "caption"]
    assert captions == [t("live.smooth_caption", lang, span=5, curves=t("live.curves", lang))]


def test_the_task_choice_sets_its_length_limit_and_panels_and_trains_on_that_task():
    """Issue 41: the live page's task picker (the task registry): choosing make_sum sets the response
    length limit and the overlong buffer to make_sum's own and adds its panels (distinct right answers
    per group, pass@G); a run then samples make_sum's prompts and draws those panels with numbers."""
    from rlviz.lm.tasks import TASKS

    spec = TASKS["make_sum"]
    at = open_page(PAGE, lv_algos=["GRPO"], lv_steps="1", lv_prompts="2", lv_G="4", lv_heldout="0")
    assert at.number_input(key="lv_Lmax").value == TASKS["reversed_addition"].max_new_tokens
    at.selectbox(key="lv_task").set_value("make_sum").run()
    no_exception(at)
    assert at.number_input(key="lv_Lmax").value == spec.max_new_tokens == 40
    assert at.number_input(key="lv_Lcache").value == spec.overlong_buffer_length
    assert set(spec.panels) <= set(at.multiselect(key="lv_panels_en").value)
    at.button(key="lv_run").click().run()
    no_exception(at)
    run = at.session_state["live_run"]
    assert run.done and run.live_config.task == "make_sum" and run.live_config.max_new_tokens == 40
    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    titles = [a["text"] for a in figure["layout"]["annotations"]]
    for metric in spec.panels:
        assert any(t(f"metric.{metric}", "en") in title for title in titles), (metric, titles)
    frame = run.metrics_frame()
    assert frame["distinct_right"].notna().all() and frame["pass_at_group"].between(0, 1).all()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_link_names_the_task_by_its_registry_key_in_every_language(lang):
    """``?lv_task=make_sum`` opens the live page on make_sum in either language, with its length limit, and
    no note about the link (the URL carries the registry key; a bound selectbox would carry the label,
    which differs between the languages); the label a link may carry is taken too."""
    from rlviz.lm.tasks import TASKS

    for value in ("make_sum", TASKS["make_sum"].label[lang]):
        at = open_page(PAGE, lang=lang, lv_task=value)
        no_exception(at)
        assert at.selectbox(key="lv_task").value == "make_sum"
        assert at.number_input(key="lv_Lmax").value == TASKS["make_sum"].max_new_tokens
        assert "lv_task" not in " ".join(w.value for w in at.warning)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_make_sum_link_says_the_task_keeps_its_panels_and_names_its_answers_as_the_registry_does(lang):
    """A tester's make_sum run (``?lv_task=make_sum``): the task's one-line summary (``TaskSpec.summary``)
    as a caption right after the task picker, in the settings row; the task's panels (``TaskSpec.panels``)
    in the empty preview and still there after Run; the token heatmaps' title names the reference answer
    as the registry does (``TaskSpec.reference_answer``: one right answer of many, no "digits reversed")."""
    from rlviz.lm.tasks import TASKS

    spec = TASKS["make_sum"]
    query = dict(lv_task="make_sum", lv_algos=["GRPO"], lv_steps="1", lv_prompts="2", lv_G="4", lv_heldout="0")
    at = open_page(PAGE, lang=lang, **query)
    no_exception(at)
    order = blocks(at)
    settings = order[[k for _, k, _ in order].index("live_run_settings")][2]
    row = [n for n in descendants(settings) if getattr(n, "type", "") in ("selectbox", "caption")]
    assert [n.type for n in row] == ["selectbox", "caption"] and row[0].key == "lv_task"
    assert row[1].value == spec.summary[lang] and words(spec.summary[lang]) <= 15  # the first screen's word cap

    def panel_titles() -> list[str]:
        return [a["text"] for a in json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]["annotations"]]

    wanted = [t(f"metric.{m}", lang) for m in spec.panels]
    assert set(wanted) <= set(panel_titles())  # before Run: the empty preview
    at.button(key="lv_run").click().run()
    no_exception(at)
    assert at.session_state["live_run"].done
    assert set(wanted) <= set(panel_titles())  # after Run: the same panels, drawn
    note = spec.reference_answer[lang].split("{answer}")[0]  # "one right answer of many: "
    reversed_note = TASKS["reversed_addition"].reference_answer[lang].split("{answer}")[1].strip()
    lines = [m.value for m in at.markdown if note in m.value]
    assert lines and not any(reversed_note in line for line in lines), lines
