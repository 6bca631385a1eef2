"""The MoE routing page through AppTest: both languages, the numbers read from the result, a widget
that changes a number, the dense control without routes, bad input as a message, the settings in
the URL, and a tiny live run. Small settings throughout (4 prompts x G 4, 2 updates): the one-batch
experiment takes well under a second at that size on one thread."""

from __future__ import annotations

import re

import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, texts, torch_threads

from rlviz.experiments.moe import ARTICLE_ROUTE_CHANGE, MODELS, RoutingShiftSettings, routing_shift
from rlviz.i18n import t
from rlviz.lm.task import HELDOUT_SIZE
from rlviz.teach.bank import load_bank

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


def _expected(lr: float = 1e-3, model: str = "moe"):
    settings = RoutingShiftSettings(model=model, updates=2, lr=lr, prompts=4, group_size=4, seed=0, device="auto")
    return routing_shift(settings)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_both_languages_show_every_figure_and_read_the_result(lang):
    at = open_page(PAGE, lang=lang, **SMALL)
    no_exception(at)
    assert at.title[0].value == t("moe.title", lang)
    figs = assert_finite_figures(at, at_least=4)  # route change, log-ratios, arms, token strip
    route, ratios, arms, strip = figs[:4]
    # the figures' words come from the locale in the page's language
    names = [tr["name"] for tr in route["data"]]
    assert names[-2:] == [t("moe.all_layers", lang), t("moe.article_line", lang, share=f"{ARTICLE_ROUTE_CHANGE:.0%}")]
    assert route["data"][-1]["y"] == [ARTICLE_ROUTE_CHANGE] * 2  # the dashed line at the article's share
    kinds = [tr["name"].split(" · ")[0] for tr in ratios["data"]]
    assert kinds == [t(f"moe.kind.{k}", lang) for k in ("token_own", "token_replay", "sequence", "routing")]
    assert {tr["name"] for tr in arms["data"]} == {t(f"moe.arm.{a}", lang) for a in ("grpo", "grpo_r2", "gspo")}
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
    at = open_page(PAGE, **SMALL)
    first = _metrics(at)[t("moe.m_first", "en")]
    assert first != "0.0%"
    at.select_slider(key="mo_lr").set_value(0.0).run()
    no_exception(at)
    # at lr 0 nothing moves: no route changed, every ratio 1, and the page says so
    assert _metrics(at)[t("moe.m_first", "en")] == "0.0%"
    assert _texts(at).count(t("moe.read_lr0", "en")) == 1  # said once
    assert_finite_figures(at, at_least=3)  # no token strip: no token changed experts
    at.select_slider(key="mo_lr").set_value(3e-3).run()
    no_exception(at)
    assert _metrics(at)[t("moe.m_first", "en")] not in (first, "0.0%")


def test_the_dense_control_has_no_route_figure_and_no_replay_arm():
    at = open_page(PAGE, **SMALL)
    n_moe = len(figures(at))
    at.radio(key="mo_model").set_value("dense").run()
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
    assert len(figures(at)) == 0  # nothing drawn from a result that was never computed
    assert t("moe.live_header", "zh") in _texts(at)  # the rest of the page still draws


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
    at.multiselect(key="mo_arms").set_value(["grpo", "grpo_r3", "gspo"])
    at.button(key="mo_run").click().run()
    no_exception(at)
    run = at.session_state["moe_run"]
    assert run.done and run.progress == {"grpo": 2, "grpo_r3": 2, "gspo": 2}
    assert at.success[0].value == t("moe.finished", "en", total=2)
    figs = assert_finite_figures(at, at_least=n_before + 1)
    live = figs[-1]
    titles = [a["text"] for a in live["layout"]["annotations"]]
    assert titles[:2] == [t("metric.reward_mean", "en"), t("metric.pass_at_1", "en")]
    assert t("moe.metric.route_change_fraction", "en") in titles  # the MoE measures its routes
    names = {tr["name"] for tr in live["data"]} - {t("moe.collapse", "en")}
    assert names == {t(f"moe.arm.{a}", "en") for a in ("grpo", "grpo_r3", "gspo")}
    frame = run.metrics_frame()
    reward = [tr for tr in live["data"] if tr["name"] == t("moe.arm.grpo", "en") and tr["yaxis"] == "y"]
    assert reward and reward[0]["y"] == pytest.approx(frame[frame.arm == "grpo"]["reward_mean"].tolist())
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
    at = open_page(PAGE, **settings)
    no_exception(at)
    assert_finite_figures(at, at_least=3)
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
