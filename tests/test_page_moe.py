"""The MoE routing page through AppTest: the figure first (title, lede, the one-batch experiment's controls
in one row, its figure), each question holding back what answers it until it is answered or skipped, both
languages, the numbers read from the result, a widget that changes a number, the dense control without
routes, bad input as a message, the settings in the URL, and a tiny live run on the run-page skeleton.
Small settings throughout (4 prompts x G 4, 2 updates): the one-batch experiment takes well under a second
at that size on one thread."""

from __future__ import annotations

import json
import re

import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, texts, torch_threads

from app_common.predictions import HELD_KEY
from rlviz.experiments.moe import ARTICLE_ROUTE_CHANGE, MODELS, RoutingShiftSettings, routing_shift
from rlviz.i18n import t
from rlviz.lm.task import HELDOUT_SIZE
from rlviz.plots.live import SMOOTH_SPAN, ema
from rlviz.plots.moe import ARM_STYLES
from rlviz.teach.bank import load_bank
from rlviz.teach.predict import PREDICTIONS

PAGE = "pages/moe.py"
SMALL = {"mo_n": 4, "mo_G": 4, "mo_k": 2}  # the one-batch experiment, small
LIVE_SMALL = {"mo_steps": 2, "mo_lp": 2, "mo_lG": 2, "mo_mu": 1, "mo_mb": 1, "mo_heldout": 0}


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


_texts = texts


def _note(at) -> str:
    """The page's note about URL parameters it did not use ("" when none)."""
    leads = tuple(t("url.ignored", lang, params="|").split("|")[0] for lang in ("en", "zh"))
    return next((w.value for w in at.warning if str(w.value).startswith(leads)), "")


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _pct(value: float) -> str:
    return f"{value:.2%}" if 0 < abs(value) < 0.001 else f"{value:.1%}"


def _skip(at, key: str) -> None:
    """Press the question ``key``'s "Skip: show me" (its answer shown, no verdict)."""
    skip = t("teach.skip", at.session_state["lang"])
    next(b for b in at.button if b.label == skip and b.proto.form_id == f"form_{key}").click().run()


def _reveal(at):
    """Skip every question still waiting (one at a time: each reruns the page); none waits afterwards."""
    skip = t("teach.skip", at.session_state["lang"])
    for _ in PREDICTIONS["moe"]:
        waiting = [b for b in at.button if b.label == skip]
        if waiting:
            waiting[0].click().run()
    assert not [b for b in at.button if b.label == skip]
    return at


def _arch() -> dict[str, int]:
    """The shipped MoE's layers, experts and experts per token, read from its config as the page reads them."""
    from transformers import AutoConfig

    config = AutoConfig.from_pretrained(MODELS["moe"])
    experts = getattr(config, "num_experts", None) or getattr(config, "num_local_experts", 0)
    return {"layers": config.num_hidden_layers, "experts": experts, "top_k": config.num_experts_per_tok}


def _panel_titles(fig: dict) -> list[str]:
    """A figure's subplot titles as read (a title wrapped onto lines: one line)."""
    return [a["text"].replace("<br>", " ") for a in fig["layout"].get("annotations", [])]


def _expected(lr: float = 1e-3, model: str = "moe"):
    settings = RoutingShiftSettings(model=model, updates=2, lr=lr, prompts=4, group_size=4, seed=0, device="auto")
    return routing_shift(settings)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_figure_first_then_the_questions_then_the_run_on_the_run_page_skeleton(lang):
    # issue 39: the title, the lede and at once the one-batch experiment's controls in one row and its
    # figure (at most 60 words above it); the notes and the questions under it; the live run's section in
    # the run pages' shape (app_common.runpage), its empty panels already there before Run
    from test_page_live import blocks, descendants, shown_text, words

    at = open_page(PAGE, lang=lang, **SMALL)
    no_exception(at)
    order = blocks(at)
    keys = [key for _, key, _ in order]
    first_chart = next(
        i
        for i, (_, _, node) in enumerate(order)
        if any(getattr(n, "type", "") == "plotly_chart" for n in descendants(node))
    )
    # (unkeyed containers: the shell's, the presenter's slot; the experiment's progress bar, emptied)
    shown = [(k, key, node) for k, key, node in order[:first_chart] if (k != "flex_container" or key) and k != "empty"]
    assert [(kind, key) for kind, key, _ in shown] == [
        ("title", ""),
        ("markdown", ""),
        ("flex_container", "mo_shift_settings"),
    ]
    lede = shown_text(shown[1][2].value)
    assert lede == shown_text(t("moe.lede", lang)) and lede.count(".") + lede.count("。") <= 2
    # the row: the model, the learning rate, the updates, then a popover with the batch's size
    row = descendants(shown[2][2])
    assert [n.key for n in row if getattr(n, "key", None) and n.key.startswith("mo_")][:5] == [
        "mo_shift_settings",
        "mo_model",
        "mo_lr",
        "mo_k",
        "mo_n",
    ]
    assert "mo_G" in [getattr(n, "key", None) for n in row]
    popover = next(n for n in row if getattr(n, "type", "") == "popover")
    labels_above = [at.title[0].value, lede, popover.proto.popover.label] + [
        n.proto.label for n in row if getattr(n, "key", None) in ("mo_model", "mo_lr", "mo_k")
    ]
    assert sum(words(w) for w in labels_above) <= 60, labels_above
    # the first chart is the log-ratio figure, named as the questions' reveal names it
    (chart,) = [n for n in descendants(order[first_chart][2]) if getattr(n, "type", "") == "plotly_chart"]
    spec = json.loads(chart.proto.spec)
    assert chart.key == "moe-log-ratios" and spec["layout"]["title"]["text"] == t("moe.ratio_header", lang)
    # the notes and the questions come after it, then the live run's places in the skeleton's order
    notes = next(
        i for i, (kind, _, node) in enumerate(order) if kind == "expander" and node.label == t("page.notes", lang)
    )
    questions = [
        i
        for i, (_, _, node) in enumerate(order)
        if any(str(getattr(n, "key", "") or "").startswith("pred_") for n in descendants(node))
    ]
    assert first_chart < notes < min(questions)
    places = [k for k in keys if k.startswith("moe_run_")]
    assert places == [
        f"moe_run_{p}"
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
    assert keys.index("moe_run_settings") > max(questions)
    settings = descendants(order[keys.index("moe_run_settings")][2])
    assert [n.key for n in settings[1:] if getattr(n, "key", None)] == ["mo_arms", "mo_lmodel", "mo_steps", "mo_llr"]
    details = {getattr(n, "key", None) for n in descendants(order[keys.index("moe_run_details")][2])}
    assert {"mo_lp", "mo_lG", "mo_mu", "mo_mb", "mo_heldout"} <= details
    figure = [
        n for n in descendants(order[keys.index("moe_run_figure")][2]) if getattr(n, "type", "") == "plotly_chart"
    ]
    live = json.loads(figure[0].proto.spec)
    assert figure[0].key == "moe-live" and live["layout"]["title"]["text"] == t("moe.empty_figure", lang)
    assert all(tr["x"] == [] for tr in live["data"])  # empty panels: no point invented before the run
    assert live["layout"]["xaxis"]["range"] == [0.5, 20.5]  # the widget's 20 steps, from the start
    assert _panel_titles(live)[-1] == t("moe.metric.route_change_fraction", lang)  # the MoE routes: its panel
    # today's texts are all on the page: the intro, the models and the formula in the notes, the replay
    # keys of verl for practitioners, the collapse flag's definition in the run's notes
    arch = _arch()
    text = _texts(at)
    for expected in (
        t("moe.intro", lang, article=f"{ARTICLE_ROUTE_CHANGE:.0%}", **arch),
        t("moe.models", lang, **arch),
        t("moe.replay_frameworks", lang),
        t("moe.shift_text", lang),
        t("moe.formula_caption", lang),
        t("moe.ratio_caption_held", lang, k=2),  # its questions wait: the caption names only what is drawn
        t("moe.live_lede", lang),
    ):
        assert expected in text, expected[:60]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_question_holds_back_what_answers_it_until_it_is_answered(lang):
    at = open_page(PAGE, lang=lang, **SMALL)
    no_exception(at)
    result = _expected()
    s = result.summary()
    assert at.session_state[HELD_KEY] >= {p.key for p in PREDICTIONS["moe"]}  # all four wait at lr 1e-3
    figs = assert_finite_figures(at, at_least=3)
    ratios, arms = figs[:2]
    # the log-ratios with the own routing only: the replayed and GSPO's distributions answer two questions
    assert [tr["name"].split(" · ")[0] for tr in ratios["data"]] == [t("moe.kind.token_own", lang)]
    # no route-change figure and no token strip (their lines and colours are the share of changed routes);
    # the arms' figure without the clip fraction panel (which arm clips the most)
    assert _panel_titles(arms) == [t(f"moe.metric.{m}", lang) for m in ("ratio_var", "token_log_ratio_std")]
    assert len(figs) == 3  # the ratios, the arms, the live run's empty panels
    metrics = _metrics(at)
    assert t("moe.m_first", lang) not in metrics and t("moe.m_last", lang, k=2) not in metrics
    assert not [label for label in metrics if label.startswith(t("moe.m_clip", lang, arm="", k=2).split("·")[0])]
    assert metrics[t("moe.m_sampler", lang)] == _pct(result.sampler_mismatch)  # no question asks it
    text = _texts(at)
    for form in (_pct(s["route_change_first"]), _pct(s["route_change_last"]), f"{s['token_std_replay']:.3g}"):
        assert form not in text, form
    held = t("teach.held", lang)
    assert text.count(held) >= 4  # in place of each element held back
    # each question, answered, gives back its own evidence and no other's
    _skip(at, "teach.moe_replay")
    ratios = figures(at)[0]
    assert [tr["name"].split(" · ")[0] for tr in ratios["data"]] == [
        t(f"moe.kind.{k}", lang) for k in ("token_own", "token_replay", "routing")
    ]
    assert f"**{s['token_std_replay']:.3g}**" in _texts(at) and t("moe.m_first", lang) not in _metrics(at)
    _skip(at, "teach.moe_sequence")
    assert [tr["name"].split(" · ")[0] for tr in figures(at)[0]["data"]] == [
        t(f"moe.kind.{k}", lang) for k in ("token_own", "token_replay", "sequence", "routing")
    ]
    assert len(figures(at)) == 3
    _skip(at, "teach.moe_route")
    assert len(figures(at)) == 5  # the route change and the token strip
    assert _metrics(at)[t("moe.m_first", lang)] == _pct(s["route_change_first"])
    assert not [label for label in _metrics(at) if label.startswith(t("moe.m_clip", lang, arm="", k=2).split("·")[0])]
    _skip(at, "teach.moe_clip")
    assert _panel_titles(figures(at)[2])[0] == t("moe.metric.clip_fraction", lang)
    assert t("teach.held", lang) not in _texts(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_both_languages_show_every_figure_and_read_the_result(lang):
    at = _reveal(open_page(PAGE, lang=lang, **SMALL))
    no_exception(at)
    assert at.title[0].value == t("moe.title", lang)
    figs = assert_finite_figures(at, at_least=4)  # log-ratios, route change, arms, token strip
    ratios, route, arms, strip = figs[:4]
    # the figures' words come from the locale in the page's language
    names = [tr["name"] for tr in route["data"]]
    assert names[-2:] == [t("moe.all_layers", lang), t("moe.article_line", lang, share=f"{ARTICLE_ROUTE_CHANGE:.0%}")]
    assert route["data"][-1]["y"] == [ARTICLE_ROUTE_CHANGE] * 2  # the dashed line at the article's share
    kinds = [tr["name"].split(" · ")[0] for tr in ratios["data"]]
    assert kinds == [t(f"moe.kind.{k}", lang) for k in ("token_own", "token_replay", "sequence", "routing")]
    assert {tr["name"] for tr in arms["data"]} == {t(f"moe.arm.{a}", lang) for a in ("grpo", "grpo_r2", "gspo")}
    assert _panel_titles(arms) == [
        t(f"moe.metric.{m}", lang) for m in ("clip_fraction", "ratio_var", "token_log_ratio_std")
    ]
    assert strip["data"][0]["type"] == "heatmap"
    # the numbers on the page are the result's (computed here the same way, deterministic)
    result = _expected()
    s = result.summary()
    metrics = _metrics(at)
    assert metrics[t("moe.m_first", lang)] == _pct(s["route_change_first"])
    assert metrics[t("moe.m_last", lang, k=2)] == _pct(s["route_change_last"])
    assert metrics[t("moe.m_sampler", lang)] == _pct(result.sampler_mismatch)
    for arm in ("grpo", "grpo_r2", "gspo"):
        assert metrics[t("moe.m_clip", lang, arm=t(f"moe.arm.{arm}", lang), k=2)] == _pct(s[f"clip_{arm}"])
    text = _texts(at)
    assert f"**{_pct(s['route_change_first'])}**" in text and f"**{s['token_std_own']:.3g}**" in text
    assert f"**{s['token_std_replay']:.3g}**" in text and f"**{s['sequence_std']:.3g}**" in text
    own, seq = s["token_std_own"], s["sequence_std"]
    if 0 < seq < own:  # GSPO's sequence ratio, narrower than the tokens', as a share of their spread
        assert t("moe.read_sequence", lang, seq=f"{seq:.3g}", own=f"{own:.3g}", pct=_pct(seq / own)) in text
    # the tokens whose experts changed: their swing with and without replay, read from the result
    own_c, own_u, rep_c = s["abs_own_changed"], s["abs_own_unchanged"], s["abs_replay_changed"]
    numbers = dict(
        share=_pct(s["tokens_changed_share"]),
        own_changed=f"{own_c:.4g}",
        own_unchanged=f"{own_u:.4g}",
        rep_changed=f"{rep_c:.4g}",
    )
    if own_c <= own_u:
        assert t("moe.changed.not_more", lang, **numbers) in text
    elif rep_c >= own_c:  # replay did not calm them (the case at these settings)
        assert t("moe.read_changed_up", lang, **numbers) in text
    else:
        removed = (own_c - rep_c) / (own_c - own_u)
        verdict = t("moe.changed.mostly_routing" if removed >= 0.5 else "moe.changed.mostly_update", lang)
        assert t("moe.read_changed", lang, removed=_pct(removed), verdict=verdict, **numbers) in text
    cmp = "above" if s["route_change_first"] > ARTICLE_ROUTE_CHANGE + 0.005 else None
    if cmp:
        assert t(f"moe.cmp.{cmp}", lang) in text
    # the live section waits for Run
    assert at.info and t("moe.run", lang) in [b.label for b in at.button]


def test_the_learning_rate_changes_the_numbers():
    at = _reveal(open_page(PAGE, **SMALL))
    first = _metrics(at)[t("moe.m_first", "en")]
    assert first != "0.0%"
    at.select_slider(key="mo_lr").set_value(0.0).run()
    no_exception(at)
    assert t("moe.m_first", "en") not in _metrics(at)  # new settings: the question is asked afresh, held again
    _reveal(at)
    # at lr 0 nothing moves: no route changed, every ratio 1, and the page says so
    assert _metrics(at)[t("moe.m_first", "en")] == "0.0%"
    assert _texts(at).count(t("moe.read_lr0", "en")) == 1  # said once
    assert len(assert_finite_figures(at, at_least=4)) == 4  # no token strip: no token changed experts
    at.select_slider(key="mo_lr").set_value(3e-3).run()
    _reveal(at)
    no_exception(at)
    assert _metrics(at)[t("moe.m_first", "en")] not in (first, "0.0%")


def test_the_dense_control_has_no_route_figure_and_no_replay_arm():
    at = _reveal(open_page(PAGE, **SMALL))
    n_moe = len(figures(at))
    at.radio(key="mo_model").set_value("dense").run()
    _reveal(at)
    no_exception(at)
    assert t("moe.dense_note", "en") in [i.value for i in at.info]
    figs = assert_finite_figures(at, at_least=2)
    assert len(figs) == n_moe - 2  # no route-change figure, no token strip
    ratios, arms = figs[:2]
    assert len(ratios["data"]) == 2  # own routing and GSPO's log s: nothing to replay
    assert {tr["name"] for tr in arms["data"]} == {t("moe.arm.grpo", "en"), t("moe.arm.gspo", "en")}
    labels = set(_metrics(at))
    assert t("moe.m_first", "en") not in labels and not any("R2" in label for label in labels)
    assert t("moe.read_dense", "en", k=2, own="", seq="").split("σ")[0] in _texts(at)


def test_too_many_responses_is_a_message_naming_the_widget():
    at = open_page(PAGE, lang="zh", mo_n=64, mo_G=16, mo_k=1)
    assert not at.exception
    assert at.error and t("moe.prompts", "zh") in at.error[0].value and "512" in at.error[0].value
    # nothing drawn from a result that was never computed: the one figure is the live run's, still empty
    assert [f["layout"]["title"]["text"] for f in figures(at)] == [t("moe.empty_figure", "zh")]
    assert t("moe.live_header", "zh") in _texts(at)  # the rest of the page still draws
    assert t("moe.intro", "zh", article=f"{ARTICLE_ROUTE_CHANGE:.0%}", **_arch()) in _texts(at)  # its notes too


def test_url_holds_the_settings():
    # AppTest does not write the URL back (the browser does); every bound widget must read it
    shared = {"mo_model": "Dense", "mo_lr": "0.0003", "mo_k": "3", "mo_n": "3", "mo_G": "2"}
    shared |= {"mo_arms": ["GRPO", "GSPO"], "mo_lmodel": "Dense", "mo_steps": "3", "mo_llr": "0.0005"}
    shared |= {"mo_lp": "5", "mo_lG": "3", "mo_mu": "2", "mo_mb": "1", "mo_heldout": "0"}
    at = open_page(PAGE, **shared)
    no_exception(at)
    # "Dense": the label these radios wrote before the URL carried MODELS' keys (older links keep working)
    assert at.radio(key="mo_model").value == "dense" and at.radio(key="mo_lmodel").value == "dense"
    assert _note(at) == ""
    assert at.select_slider(key="mo_lr").value == 3e-4 and at.select_slider(key="mo_llr").value == 5e-4
    assert at.slider(key="mo_k").value == 3
    assert at.multiselect(key="mo_arms").value == ["grpo", "gspo"]
    for key in ("mo_n", "mo_G", "mo_steps", "mo_lp", "mo_lG", "mo_mu", "mo_mb", "mo_heldout"):
        assert at.number_input(key=key).value == int(shared[key]), key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_model_radios_carry_keys_in_the_url_and_labels_in_the_language(lang):
    at = open_page(PAGE, lang=lang, **SMALL, mo_model="dense", mo_lmodel="dense")
    no_exception(at)
    assert _note(at) == ""
    for key in ("mo_model", "mo_lmodel"):
        radio = at.radio(key=key)
        assert radio.value == "dense" and at.query_params[key] == "dense", key  # the key, in both languages
        assert list(radio.proto.options) == [t(f"moe.model_code.{m}", lang) for m in MODELS], key
    if lang == "zh":
        assert (
            "Dense" not in at.radio(key="mo_model").proto.options and "稠密" in at.radio(key="mo_model").proto.options
        )
    at.radio(key="mo_model").set_value("moe").run()
    assert at.radio(key="mo_model").value == "moe" and "mo_model" not in at.query_params  # the default: none


def test_the_model_radio_shows_its_choice_after_the_language_changes():
    # the browser holds the label it showed: the server sends the choice again in the new labels
    at = open_page(PAGE, **SMALL, mo_model="dense")
    at.radio(key="lang").set_value("zh").run()
    no_exception(at)
    radio = at.radio(key="mo_model")
    assert radio.value == "dense" and radio.proto.set_value and radio.proto.raw_value == t("moe.model_code.dense", "zh")


def test_the_question_bank_links_open_their_model_without_a_note():
    # every interview-bank link to this page (questions and claims: mo_model = "moe") opens as written
    bank = load_bank()
    queries = {tuple(sorted(e.query.items())) for e in (*bank.questions, *bank.claims) if e.page == "moe"}
    assert queries
    for query in queries:
        at = open_page(PAGE, lang="zh", **SMALL, **dict(query))
        no_exception(at)
        assert _note(at) == "", query
        for key, value in query:
            if key in ("mo_model", "mo_lmodel"):
                assert at.radio(key=key).value == value, query


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_dense_model_refuses_replay_arms_in_words(lang):
    at = open_page(PAGE, lang=lang, **SMALL, **LIVE_SMALL)
    at.radio(key="mo_lmodel").set_value("dense").run()
    at.button(key="mo_run").click().run()
    assert not at.exception
    assert at.error and t("moe.dense_no_replay", lang) in at.error[0].value
    assert t("moe.arms", lang) in at.error[0].value  # the message names the widget to change
    assert "moe_run" not in at.session_state and not at.multiselect(key="mo_arms").disabled


def test_tiny_live_run():
    at = open_page(PAGE, **SMALL, **LIVE_SMALL)
    n_before = len(figures(at))
    empty = figures(at)[-1]  # before the run its figure is there, in the place the run fills
    assert empty["layout"]["title"]["text"] == t("moe.empty_figure", "en")
    assert empty["layout"]["xaxis"]["range"] == [0.5, 2.5]  # the widget's 2 steps
    at.multiselect(key="mo_arms").set_value(["grpo", "grpo_r3", "gspo"])
    at.button(key="mo_run").click().run()
    no_exception(at)
    run = at.session_state["moe_run"]
    assert run.done and run.progress == {"grpo": 2, "grpo_r3": 2, "gspo": 2}
    assert at.success[0].value == t("moe.finished", "en", total=2)
    figs = assert_finite_figures(at, at_least=n_before)
    assert len(figs) == n_before  # the same figure, filled: nothing added above or below it
    live = figs[-1]
    assert live["layout"]["xaxis"]["range"] == [0.5, 2.5]  # the run's whole length from the start
    titles = [a["text"] for a in live["layout"]["annotations"]]
    assert titles[:2] == [t("metric.reward_mean", "en"), t("metric.pass_at_1", "en")]
    assert t("moe.metric.route_change_fraction", "en") in titles  # the MoE measures its routes
    names = {tr["name"] for tr in live["data"]} - {t("moe.collapse", "en")}
    assert names == {t(f"moe.arm.{a}", "en") for a in ("grpo", "grpo_r3", "gspo")}
    frame = run.metrics_frame()
    reward = [tr for tr in live["data"] if tr["name"] == t("moe.arm.grpo", "en") and tr["yaxis"] == "y"]
    raw = frame[frame.arm == "grpo"]["reward_mean"].tolist()
    # each step's own points, faded, under their moving average (the line, in the arm's own colour)
    points, line = reward
    assert points["mode"] == "markers" and points["y"] == pytest.approx(raw) and points["opacity"] < 1
    assert line["mode"] == "lines" and line["y"] == pytest.approx(ema(raw, SMOOTH_SPAN))
    r3 = [tr for tr in live["data"] if tr["name"] == t("moe.arm.grpo_r3", "en") and tr["mode"] == "lines"]
    assert r3[0]["line"]["color"] == ARM_STYLES["grpo_r3"]["color"] and r3[0]["line"]["dash"] == "dot"
    # the run's reading and the smoothing's note under its figure
    assert t("moe.smooth_caption", "en", span=SMOOTH_SPAN) in _texts(at)
    summary = at.table[-1].value
    assert len(summary) == 3 and list(summary.columns[:2]) == [t("moe.col.arm", "en"), t("moe.col.heldout", "en")]
    assert summary.iloc[:, 1].tolist() == ["— → —"] * 3  # held-out pass@1 skipped (0 samples)
    # the reading names the collapse-flagged arms, or says none was; no held-out verdict without samples
    flagged = run.summary_frame()["collapse_step"].notna().any()
    text = _texts(at)
    assert (t("moe.read_live_no_collapse", "en") in text) != bool(flagged)
    for verdict in ("noise", "separates"):  # no held-out samples, no comparison of the arms
        assert t(f"moe.live_verdict.{verdict}", "en") not in text
    # the language switch keeps the run and relabels it
    at.radio(key="lang").set_value("zh").run()
    no_exception(at)
    names = {tr["name"] for tr in figures(at)[-1]["data"]} - {t("moe.collapse", "zh")}
    assert names == {t(f"moe.arm.{a}", "zh") for a in ("grpo", "grpo_r3", "gspo")}
    at.button(key="mo_reset").click().run()
    no_exception(at)
    assert "moe_run" not in at.session_state and len(figures(at)) == n_before


@pytest.mark.parametrize(
    "settings",
    [
        {"mo_n": 1, "mo_G": 2, "mo_k": 1, "mo_lr": "0.0"},  # the smallest batch, nothing moves
        {"mo_n": 1, "mo_G": 2, "mo_k": 1, "mo_lr": "0.003"},  # one update: every clip fraction is 0 (on-policy)
        {"mo_n": 2, "mo_G": 4, "mo_k": 8, "mo_lr": "0.003"},  # the most updates at the largest step
    ],
)
def test_widget_limits_draw_no_nan(settings):
    at = _reveal(open_page(PAGE, **settings))
    no_exception(at)
    assert_finite_figures(at, at_least=4)
    assert not re.search(r"\bnan\b", _texts(at) + " ".join(m.value for m in at.metric), re.IGNORECASE)


def test_live_reading_compares_the_arms_with_the_evaluation_noise():
    live = {**LIVE_SMALL, "mo_steps": 1, "mo_heldout": 1}
    at = open_page(PAGE, **SMALL, **live)
    at.multiselect(key="mo_arms").set_value(["grpo", "gspo"])
    at.button(key="mo_run").click().run()
    no_exception(at)
    s = at.session_state["moe_run"].summary_frame()
    ends = s["heldout_pass_at_1_end"].tolist()
    low, high = min(ends), max(ends)
    mid, n = (low + high) / 2, HELDOUT_SIZE  # the held-out prompts x 1 sample
    two_se = 2 * (2 * mid * (1 - mid) / n) ** 0.5  # of a difference of two pass rates
    verdict = t("moe.live_verdict.separates" if high - low > two_se else "moe.live_verdict.noise", "en")
    expected = t(
        "moe.read_live_apart", "en", low=f"{low:.3f}", high=f"{high:.3f}", n=n, two_se=f"{two_se:.3f}", verdict=verdict
    )
    assert expected in _texts(at)
