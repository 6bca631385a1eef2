"""The curves page through AppTest: defaults, extreme widget values, both languages, URL state, and
a page generated from the registry (an entry added at runtime gets its own panel and sliders); the
page's shape (lede, then the algorithms and the figure) and its questions' answers held back until
the learner commits or skips them."""

from __future__ import annotations

import dataclasses
import re

from apptools import assert_finite_figures, figures, no_exception, open_page, texts, trace_values

from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments.curves import DEFAULT_VARIANTS, get_variant, reads_probability, variants
from rlviz.i18n import t
from rlviz.teach.predict import PREDICTIONS

PAGE = "pages/curves.py"
CEILING, NEGATIVE = (p.key for p in PREDICTIONS["curves"])


def reveal(at, *keys: str):
    """Skip the page's questions ``keys`` (default: both) with "Skip: show me" (each form's last button),
    as a learner does: what the page held back for them is drawn."""
    for key in keys or (CEILING, NEGATIVE):
        [b for b in at.button if str(b.key).startswith(f"FormSubmitter:form_{key}-")][-1].click().run()
    return at


def leaves(at) -> list[tuple[str, str, str]]:
    """The main column's elements in the order a reader meets them: (type, key, text)."""
    out = []

    def walk(node) -> None:
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                walk(child)
            return
        value = getattr(node, "value", "")
        out.append((node.type, str(getattr(node, "key", "") or ""), value if isinstance(value, str) else ""))

    walk(at.main)
    return out


def held_notes(at) -> int:
    return sum(c.value.endswith(t("teach.held", "en")) for c in at.caption)


def _settings(variant: str):
    return ALGORITHMS[get_variant(variant).algorithm].surrogate_settings


def expected_keys(chosen) -> tuple[list[str], list[str], list[str]]:
    """The keys the registry promises for the chosen variants: sliders (a range), select sliders
    (choices) and on/off toggles (a setting that is off by default), ``c_<variant>_<setting>``."""
    sliders, selects, toggles = [], [], []
    for v in chosen:
        for s in _settings(v):
            (selects if s.choices else sliders).append(f"c_{v}_{s.name}")
            if s.default is None:
                toggles.append(f"c_{v}_{s.name}_on")
    return sliders, selects, toggles


def _markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def assert_figure_words(at, lang: str) -> None:
    """The page hands every builder its words in ``lang`` (``app_common.labels``): no key shows."""
    overlay, gallery, prob = figures(at)
    panels = [t(f"curves.panel_{q}", lang, sign=sign) for q in ("j", "w") for sign in ("A = +1", "A = −1")]
    assert [a["text"] for a in overlay["layout"]["annotations"]] == panels
    assert overlay["layout"]["xaxis3"]["title"]["text"] == t("curves.x_title", lang)
    assert t("curves.state.clipped", lang) in overlay["data"][0]["text"]
    assert {tr["name"] for tr in gallery["data"]} == {t("curves.legend_j", lang), t("curves.legend_w", lang)}
    assert t("curves.prob_hover", lang) in prob["data"][1]["hovertemplate"]
    names = {tr.get("name") for tr in prob["data"]}
    assert t("curves.prob_name", lang, title="GRPO", eps="0.20") in names
    assert t("curves.prob_identity", lang) in names
    support, cases = (d.value for d in at.dataframe)
    assert list(support.columns)[0] == t("word.algorithm", lang)
    assert list(cases.columns)[1] == t("curves.cases.col_zero_gradient", lang)
    assert t("curves.cases.yes", lang) in set(cases.iloc[:, 1])


def test_defaults_english():
    at = open_page(PAGE)
    no_exception(at)
    assert at.title[0].value == t("curves.title", "en")
    assert at.multiselect(key="c_algos").value == list(DEFAULT_VARIANTS)
    # one panel of sliders per chosen variant, generated from its surrogate settings
    sliders, selects, toggles = expected_keys(DEFAULT_VARIANTS)
    assert [w.key for w in at.slider if w.key != "c_pi"] == sliders
    assert [w.key for w in at.select_slider] == selects
    assert [w.key for w in at.toggle if w.key not in ("c_logx", "c_zoom")] == toggles
    assert at.slider(key="c_dapo_epsilon_high").value == 0.28
    assert at.slider(key="c_grpo_epsilon_high").value == 0.2
    assert at.select_slider(key="c_gspo_epsilon_high").value == 4e-4
    # Dual-clip PPO starts with its dual clip on at c = 3; GRPO's is off
    assert at.toggle(key="c_ppo_dual_dual_clip_c_on").value is True
    assert at.slider(key="c_ppo_dual_dual_clip_c").value == 3.0
    assert at.toggle(key="c_grpo_dual_clip_c_on").value is False
    assert at.slider(key="c_grpo_dual_clip_c").proto.disabled
    figs = assert_finite_figures(at, at_least=3)
    assert len(figs) == 3
    overlay, gallery, prob = figs
    assert len(overlay["data"]) == 4 * len(DEFAULT_VARIANTS)
    assert any(a.get("text") == "Dual-clip PPO" for a in gallery["layout"]["annotations"])
    # under the curves the definitions and each chosen objective's loss from its registry entry (once per
    # algorithm: Dual-clip PPO is PPO's), then the six cases (2) and the probability view (1: r* is in words)
    algorithms = list(dict.fromkeys(get_variant(v).algorithm for v in DEFAULT_VARIANTS))
    latex = [e.body for e in at.get("latex")]
    assert len(latex) == 1 + len(algorithms) + 3
    assert t("curves.rstar", "en") in texts(at)
    for name in algorithms:
        assert any(ALGORITHMS[name].latex.replace(r",\quad ", r",\\ ") in s for s in latex), name
        assert f"**{ALGORITHMS[name].title}**" in _markdown(at)
    # before the learner answers: the tables and sentences that state the answers are held back
    assert len(at.dataframe) == 0 and "**0.240**" not in _markdown(at)
    assert len(at.get("download_button")) == 2  # the curves and the probability view
    reveal(at)
    no_exception(at)
    assert len(at.dataframe) == 2  # gradient ranges and the six cases
    text = _markdown(at)
    # claim 2 with numbers read off the gradient, not typed
    assert "**0.240**" in text and "**0.256**" in text
    assert len(at.get("download_button")) == 4
    # the six cases: seven rows, the answer column in view next to the case
    cases = at.dataframe[1].value
    assert len(cases) == 7 and list(cases.columns)[:2] == ["case", "zero gradient?"]
    assert "Grey band: the trust region of GRPO, [0.8, 1.2]" in " ".join(c.value for c in at.caption)
    assert_figure_words(at, "en")


def _plain(markdown: str) -> str:
    """A Markdown element's text without the glossary's hover markup (``<abbr ...>``)."""
    return re.sub(r"<[^>]+>", "", markdown)


def test_the_page_opens_on_its_lede_then_the_algorithms_and_the_figure():
    # issue 39: title, path marker and lede, then the choice of curves just above the figure; the sliders
    # that shape the curves beside it, the explanations under it
    for lang in ("en", "zh"):
        at = open_page(PAGE, lang=lang)
        no_exception(at)
        order = leaves(at)
        lede = next(i for i, (kind, _, text) in enumerate(order) if kind == "markdown" and text)
        assert order[0] == ("title", "", t("curves.title", lang))
        assert _plain(order[lede][2]) == t("curves.lede", lang)
        assert {kind for kind, _, _ in order[1:lede]} <= {"caption", "page_link"}  # only the path marker
        assert [(kind, key) for kind, key, _ in order[lede + 1 : lede + 3]] == [
            ("multiselect", "c_algos"),
            ("plotly_chart", "c_overlay"),
        ]
        after = [key for _, key, _ in order[lede + 3 :] if key]  # the figure's caption has none
        assert after[:2] == ["c_zoom", "c_logx"]  # the column beside the figure: the axis, then the sliders
        assert after.index("c_grpo_epsilon_high") < after.index("c_csv_curves")
        # the lede stays short, and the intro it replaces is kept whole in the notes under the figure
        assert len(t("curves.lede", "en").split()) <= 40
        assert t("curves.intro", lang) in _markdown(at)
        assert at.expander[0].label == t("page.notes", lang)


def test_answers_are_held_until_the_learner_commits():
    from app_common.predictions import HELD_KEY
    from rlviz.teach.predict import state_from_settings

    at = open_page(PAGE)
    no_exception(at)
    assert {CEILING, NEGATIVE} <= at.session_state[HELD_KEY]
    # in place of the gradient ranges, the rules in words, the six cases and the probability sentences:
    # one note each; the probability figure's marked points carry no value
    assert held_notes(at) == 4 and len(at.dataframe) == 0
    assert t("curves.look", "en") not in _markdown(at)
    prob = figures(at)[2]
    marked = [tr for tr in prob["data"] if tr.get("mode", "").startswith("markers")]
    assert marked and not any(tr.get("text") for tr in marked)
    overlay = figures(at)[0]  # the main figure stays, whole
    assert len(overlay["data"]) == 4 * len(DEFAULT_VARIANTS)
    # commit the first question (its answer computed here at the page's state, not typed): its evidence
    # shows, the second question's stays held
    state = state_from_settings("curves", {})
    ceiling = next(p for p in PREDICTIONS["curves"] if p.key == CEILING)
    answer = float(ceiling.compute(state))
    at.number_input(key=f"pr_{CEILING}_in").set_value(answer)
    [b for b in at.button if str(b.key).startswith(f"FormSubmitter:form_{CEILING}-")][0].click().run()
    no_exception(at)
    assert at.success  # right
    assert f"**{answer:.3f}**" in _markdown(at) and held_notes(at) == 3 and len(at.dataframe) == 0
    prob = figures(at)[2]
    labelled = [x for tr in prob["data"] if tr.get("text") for x in tr["text"]]
    assert f"{answer:.3f}" in labelled
    # then the second: the tables and the rules in words
    negative = next(p for p in PREDICTIONS["curves"] if p.key == NEGATIVE)
    at.radio(key=f"pr_{NEGATIVE}_in_en").set_value(negative.compute(state))
    [b for b in at.button if str(b.key).startswith(f"FormSubmitter:form_{NEGATIVE}-")][0].click().run()
    no_exception(at)
    assert held_notes(at) == 0 and len(at.dataframe) == 2
    assert t("curves.look", "en") in _markdown(at)
    # "Answer again" asks afresh: held back again
    at.button(key=f"pr_{CEILING}_again").click().run()
    assert held_notes(at) == 1 and f"**{answer:.3f}**" not in _markdown(at)


def test_defaults_chinese():
    at = reveal(open_page(PAGE, lang="zh"))
    no_exception(at)
    assert at.title[0].value == t("curves.title", "zh")
    figs = assert_finite_figures(at, at_least=3)
    titles = " ".join(a.get("text", "") for a in figs[0]["layout"]["annotations"])
    assert "目标 J" in titles and "梯度权重" in titles
    assert "梯度消失之前" in _markdown(at)
    # the sliders are labelled with the registry's help text in the session's language
    eps_high = next(s for s in _settings("dapo") if s.name == "epsilon_high")
    assert at.slider(key="c_dapo_epsilon_high").label == eps_high.help["zh"]
    assert_figure_words(at, "zh")


def test_formulas_show_their_words_in_the_language():
    # the registry's PPO formula (its dual clip) and the page's own case formula, through
    # rlviz.i18n.latex_text: Chinese words inside \text{} in Chinese, the registry's English in English
    zh = "\n".join(el.value for el in open_page(PAGE, lang="zh").latex)
    assert r"\text{双裁剪 }(A<0)" in zh and r"\text{双裁剪, }A<0" in zh
    assert "dual" not in zh
    en = "\n".join(el.value for el in open_page(PAGE).latex)
    assert r"\text{dual clip }(A<0)" in en and r"\text{dual, }A<0" in en


def _set_all(at, pick):
    for w in at.slider:
        w.set_value(pick(w.min, w.max))
    for w in at.select_slider:
        w.set_value(float(pick(w.options[0], w.options[-1])))  # options are the formatted labels
    return at.run()


def test_extreme_values_min_then_max_and_axis_toggles():
    at = open_page(PAGE)
    every = list(variants())
    at.multiselect(key="c_algos").set_value(every).run()
    no_exception(at)
    sliders, selects, toggles = expected_keys(every)
    # the pi_old slider: one of the chosen objectives reads probabilities (DPPO)
    assert {w.key for w in at.slider} == {*sliders, "c_pi", "c_old_prob"}
    for key in toggles:  # switch every dual clip on, so that its slider acts
        at.toggle(key=key).set_value(True)
    at.run()
    _set_all(at, lambda lo, hi: lo)
    no_exception(at)
    assert_finite_figures(at, at_least=3)
    _set_all(at, lambda lo, hi: hi)
    no_exception(at)
    assert_finite_figures(at, at_least=3)
    at.toggle(key="c_logx").set_value(True).run()
    no_exception(at)
    assert figures(at)[0]["layout"]["xaxis"]["type"] == "log"
    at.toggle(key="c_zoom").set_value(True).run()
    no_exception(at)
    figs = assert_finite_figures(at, at_least=3)
    lo, hi = figs[0]["layout"]["xaxis"]["range"]
    assert lo > 0.9 and hi < 1.1  # zoomed around r = 1 (GSPO scale), linear
    assert figs[0]["layout"]["xaxis"]["type"] == "linear"
    # and the log toggle says so: disabled while zoomed, its value kept for when the zoom is off
    assert at.toggle(key="c_logx").disabled and at.toggle(key="c_logx").value is True
    assert t("curves.log_x_zoomed", "en") in at.toggle(key="c_logx").help
    at.toggle(key="c_zoom").set_value(False).run()
    assert not at.toggle(key="c_logx").disabled and figures(at)[0]["layout"]["xaxis"]["type"] == "log"


def test_no_algorithm_selected_is_a_hint_not_an_error():
    at = open_page(PAGE)
    at.multiselect(key="c_algos").set_value([]).run()
    reveal(at)  # at PPO's defaults now (no PPO curve is chosen): asked afresh
    no_exception(at)
    assert at.info and at.info[0].value == t("curves.none_selected", "en")
    assert len(figures(at)) == 1  # the probability view does not depend on the selection
    assert len(at.dataframe) == 1  # the six cases neither
    assert [w.key for w in at.slider] == ["c_pi"]  # no panels
    assert "**0.240**" in _markdown(at) and "**0.256**" in _markdown(at)  # the defaults


def test_settings_are_bound_to_the_url_and_a_shared_link_opens_the_same_view():
    at = reveal(open_page(PAGE))
    # every control is bound to ?<key>= (the browser writes the URL; AppTest cannot see that side)
    widgets = [*at.slider, *at.select_slider, *at.toggle, at.multiselect(key="c_algos")]
    assert len(widgets) > 20
    for w in widgets:
        assert w.proto.query_param_key == w.key, w.key
    # the numbers follow each variant's own ε_high: 0.2·1.3 = 0.26 and 0.2·1.4 = 0.28
    at.slider(key="c_grpo_epsilon_high").set_value(0.3)
    at.slider(key="c_dapo_epsilon_high").set_value(0.4).run()
    text = _markdown(at)
    assert "**0.260**" in text and "**0.280**" in text
    # a shared link opens the same view
    shared = open_page(
        PAGE,
        c_grpo_epsilon_high="0.3",
        c_algos=["GRPO", "Dual-clip PPO", "GSPO"],
        c_pi="0.5",
        c_logx="true",
        c_gspo_epsilon_high="0.001",
        c_ppo_dual_dual_clip_c="2",
    )
    no_exception(shared)
    reveal(shared)
    assert shared.slider(key="c_grpo_epsilon_high").value == 0.3
    assert shared.slider(key="c_pi").value == 0.5
    assert shared.select_slider(key="c_gspo_epsilon_high").value == 0.001
    assert shared.slider(key="c_ppo_dual_dual_clip_c").value == 2.0
    assert shared.multiselect(key="c_algos").value == ["grpo", "ppo_dual", "gspo"]  # the URL holds the titles
    assert shared.toggle(key="c_logx").value is True
    assert figures(shared)[0]["layout"]["xaxis"]["type"] == "log"
    assert "π_old = 0.50" in _markdown(shared)
    cases = shared.dataframe[1].value
    assert cases.iloc[-1]["r"] == 2.5  # the seventh case at 1.25·c with Dual-clip PPO's c = 2


def test_dual_clip_switched_off_from_the_url():
    at = reveal(open_page(PAGE, c_ppo_dual_dual_clip_c_on="false"))
    no_exception(at)
    assert at.toggle(key="c_ppo_dual_dual_clip_c_on").value is False
    assert at.slider(key="c_ppo_dual_dual_clip_c").proto.disabled
    assert len(at.dataframe[1].value) == 6  # no seventh case
    gallery = figures(at)[1]
    assert not [s for s in gallery["layout"]["shapes"] if s["type"] == "line" and s["line"].get("dash") == "dash"]


def test_out_of_range_url_value_does_not_crash():
    at = open_page(PAGE, c_ppo_dual_dual_clip_c="0.5", c_grpo_epsilon_low="-3", c_gspo_epsilon_low="0.123")
    assert not at.exception, [e.message for e in at.exception]
    assert_finite_figures(at, at_least=3)
    assert at.slider(key="c_ppo_dual_dual_clip_c").value > 1


def test_language_switch_keeps_the_settings():
    at = reveal(open_page(PAGE))
    at.slider(key="c_grpo_epsilon_high").set_value(0.3).run()
    at.radio(key="lang").set_value("zh").run()
    no_exception(at)
    assert at.title[0].value == t("curves.title", "zh")
    assert at.slider(key="c_grpo_epsilon_high").value == 0.3
    assert at.multiselect(key="c_algos").value == list(DEFAULT_VARIANTS)
    assert "**0.260**" in _markdown(at)
    assert_finite_figures(at, at_least=3)


# ------------------------------------------------------------------------------- the registry drives it
def test_a_registry_entry_added_at_runtime_gets_its_panel_and_sliders(monkeypatch):
    copy = dataclasses.replace(ALGORITHMS["dapo"], name="dapo_copy", title="DAPO copy", style=None)
    monkeypatch.setitem(ALGORITHMS, "dapo_copy", copy)
    at = open_page(PAGE)
    assert "DAPO copy" in at.multiselect(key="c_algos").options  # offered, by its title
    at.multiselect(key="c_algos").set_value([*DEFAULT_VARIANTS, "dapo_copy"]).run()
    reveal(at)
    no_exception(at)
    for key in ("c_dapo_copy_epsilon_low", "c_dapo_copy_epsilon_high", "c_dapo_copy_dual_clip_c"):
        assert at.slider(key=key).proto.query_param_key == key
    assert at.toggle(key="c_dapo_copy_dual_clip_c_on").value is False
    assert at.slider(key="c_dapo_copy_epsilon_high").value == 0.28
    at.slider(key="c_dapo_copy_epsilon_high").set_value(0.5).run()
    no_exception(at)
    overlay, gallery, _ = assert_finite_figures(at, at_least=3)
    assert "DAPO copy" in {tr["name"] for tr in overlay["data"]}
    assert any(a.get("text") == "DAPO copy" for a in gallery["layout"]["annotations"])  # its own panel
    assert any("DAPO copy" in tr.get("hovertemplate", "") for tr in gallery["data"])
    support = at.dataframe[0].value
    row = support[support.iloc[:, 0] == "DAPO copy"].iloc[0]
    assert row.iloc[1] == "[0.8, 1.5]"  # its own slider, not DAPO's 1.28
    assert at.slider(key="c_dapo_epsilon_high").value == 0.28


def test_a_bad_value_names_the_slider_of_its_own_panel(monkeypatch):
    # an entry whose slider allows a value the registry rejects: the message names that panel's slider
    dapo = ALGORITHMS["dapo"]
    loose = tuple(
        dataclasses.replace(s, range=(-0.5, 0.9, 0.05)) if s.name == "epsilon_low" else s for s in dapo.loss_settings
    )
    monkeypatch.setitem(
        ALGORITHMS,
        "dapo_copy",
        dataclasses.replace(dapo, name="dapo_copy", title="DAPO copy", style=None, loss_settings=loose),
    )
    at = open_page(PAGE)
    at.multiselect(key="c_algos").set_value(["grpo", "dapo_copy"]).run()
    at.slider(key="c_dapo_copy_epsilon_low").set_value(-0.5).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.error, "expected a message"
    message = at.error[0].value
    label = next(s for s in loose if s.name == "epsilon_low").help["en"]
    assert f"DAPO copy · {label}" in message and "epsilon_low: must be >= 0" in message


def test_pi_old_slider_shows_only_for_an_objective_that_reads_probabilities():
    # the default choice reads only ratios: no pi_old slider, nothing that depends on it
    assert not any(reads_probability(v) for v in DEFAULT_VARIANTS)
    assert "c_old_prob" not in [s.key for s in open_page(PAGE).slider]
    at = reveal(open_page(PAGE, c_algos=["DPPO-TV", "GRPO"], c_old_prob="0.4"))
    no_exception(at)
    assert at.slider(key="c_old_prob").value == 0.4
    assert at.slider(key="c_old_prob").proto.query_param_key == "c_old_prob"
    assert "1/π_old = 2.5" in " ".join(c.value for c in at.caption)
    overlay = assert_finite_figures(at, at_least=3)[0]
    top = {tr["legendgroup"]: max(trace_values(tr, "x")) for tr in overlay["data"]}
    assert top["dppo_tv"] == 2.5  # pi = r pi_old reaches 1 at r = 1/0.4
    assert top["grpo"] == 3.5  # the whole axis
    # the mask follows pi_old: at 0.4 the A > 0 bound is 1 + 0.15/0.4 = 1.375; moved to 0.2 it is 1.75
    support = at.dataframe[0].value
    assert "1.375" in support.to_string()
    at.slider(key="c_old_prob").set_value(0.2).run()
    no_exception(at)
    assert "1.75" in at.dataframe[0].value.to_string()


def test_a_bad_pi_old_in_the_url_falls_back():
    at = open_page(PAGE, c_algos=["DPPO-KL"], c_old_prob="7")
    assert not at.exception, [e.message for e in at.exception]
    assert 0.05 <= at.slider(key="c_old_prob").value <= 0.95
    assert_finite_figures(at, at_least=3)


def _count_calls(monkeypatch) -> dict[str, list[list[str]]]:
    """Record the variants of every ``curves_frame`` / ``support_frame`` call from now on."""
    import rlviz.experiments.curves as curves

    calls = {"curves": [], "support": []}
    real_curves, real_support = curves.curves_frame, curves.support_frame
    monkeypatch.setattr(
        curves, "curves_frame", lambda vs, *a, **k: calls["curves"].append(list(vs)) or real_curves(vs, *a, **k)
    )
    monkeypatch.setattr(
        curves, "support_frame", lambda vs, *a: calls["support"].append(list(vs)) or real_support(vs, *a)
    )
    return calls


def test_a_slider_recomputes_only_its_own_variant(monkeypatch):
    # the page keeps each variant's curves and gradient range by that variant's own sliders: moving
    # GRPO's ε_high to a value no session has had evaluates GRPO's curves and range again, and no other
    at = open_page(PAGE)
    no_exception(at)
    calls = _count_calls(monkeypatch)
    at.slider(key="c_grpo_epsilon_high").set_value(0.47).run()
    no_exception(at)
    assert calls == {"curves": [["grpo"]], "support": [["grpo"]]}
    # and the drawn GRPO curve is the new one: its A>0 gradient stops at 1 + 0.47
    overlay = figures(at)[0]
    grpo = [tr for tr in overlay["data"] if tr.get("name", "").startswith("GRPO")]
    assert grpo and any(abs(x - 1.47) < 1e-9 for tr in grpo for x in trace_values(tr, "x"))


def test_pi_old_recomputes_only_the_objectives_that_read_it(monkeypatch):
    # GRPO reads only the ratio: moving pi_old evaluates DPPO-TV's curves and range again, not GRPO's
    at = open_page(PAGE, c_algos=["DPPO-TV", "GRPO"])
    no_exception(at)
    calls = _count_calls(monkeypatch)
    at.slider(key="c_old_prob").set_value(0.35).run()
    no_exception(at)
    assert calls == {"curves": [["dppo_tv"]], "support": [["dppo_tv"]]}
    overlay = figures(at)[0]
    top = {tr["legendgroup"]: max(trace_values(tr, "x")) for tr in overlay["data"] if "legendgroup" in tr}
    assert abs(top["dppo_tv"] - 1 / 0.35) < 1e-9 and top["grpo"] == 3.5  # pi = r pi_old reaches 1


def test_a_figure_left_alone_is_replayed_not_drawn_again(monkeypatch):
    # app_common.chart draws a figure_cache spec as it is the first time a session shows it, records
    # the drawn element the second time, and replays it from then on: the same chart, not serialised
    # again. Here the page reruns twice unchanged.
    from app_common import charts

    at = open_page(PAGE, c_gmpo_epsilon_high="0.37")  # settings no other test draws: nothing cached yet
    no_exception(at)
    assert at.slider(key="c_gmpo_epsilon_high").value == 0.37
    first = {el.proto.id: el.proto.spec for el in at.get("plotly_chart")}
    drawn = []
    real = charts._draw_chart
    monkeypatch.setattr(charts, "_draw_chart", lambda fig, key, *a, **k: drawn.append(key) or real(fig, key, *a, **k))
    at.run()  # the second showing: drawn and recorded (the probability figure does not read GMPO:
    # another test's session may have recorded it already, so it may be replayed here)
    assert {"c_overlay", "c_gallery"} <= set(drawn)
    drawn.clear()
    at.run()  # the third: replayed
    no_exception(at)
    assert not {"c_overlay", "c_gallery", "c_prob"} & set(drawn)
    assert {el.proto.id: el.proto.spec for el in at.get("plotly_chart")} == first
    # a figure the rerun changes is drawn anew: the overlay after GMPO's ε_high moves
    at.slider(key="c_gmpo_epsilon_high").set_value(0.38).run()
    no_exception(at)
    assert "c_overlay" in drawn and {el.proto.spec for el in at.get("plotly_chart")} != set(first.values())


def test_the_settings_key_names_every_override_and_pi_old():
    # The page's caches hash CurveSettings by its repr (app_common.settings_hash): each slider's
    # value, nested in the overrides, and π_old must change the key; equal settings must not.
    from app_common import settings_hash
    from rlviz.experiments.curves import CurveSettings

    key = settings_hash(CurveSettings)[CurveSettings]
    base = CurveSettings({"dapo": {"epsilon_high": 0.28}}, old_prob=0.5)
    assert key(base) == key(CurveSettings({"dapo": {"epsilon_high": 0.28}}, old_prob=0.5))
    others = [
        CurveSettings({"dapo": {"epsilon_high": 0.29}}, old_prob=0.5),
        CurveSettings({"dapo": {"epsilon_low": 0.28}}, old_prob=0.5),
        CurveSettings({"grpo": {"epsilon_high": 0.28}}, old_prob=0.5),
        CurveSettings({"dapo": {"epsilon_high": 0.28}}, old_prob=0.25),
        CurveSettings({"ppo_dual": {"dual_clip_c": None}}, old_prob=0.5),
    ]
    assert len({key(s) for s in [base, *others]}) == 1 + len(others)
