"""The curves page through AppTest: defaults, extreme widget values, both languages, URL state."""

from __future__ import annotations

from apptools import assert_finite_figures, figures, no_exception, open_page

from rlviz.experiments.curves import DEFAULT_VARIANTS
from rlviz.i18n import t

PAGE = "pages/curves.py"
SLIDERS = (
    "c_eps_low",
    "c_eps_high",
    "c_dual",
    "c_dapo_high",
    "c_gmpo_eps",
    "c_tau_pos",
    "c_tau_neg",
    "c_cispo_low",
    "c_cispo_high",
    "c_pi",
)
SELECT_SLIDERS = ("c_gspo_low", "c_gspo_high")


def _markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_defaults_english():
    at = open_page(PAGE)
    no_exception(at)
    assert at.title[0].value == t("curves.title", "en")
    assert at.multiselect(key="c_algos").value == list(DEFAULT_VARIANTS)
    figs = assert_finite_figures(at, at_least=3)
    assert len(figs) == 3
    overlay, gallery, prob = figs
    assert len(overlay["data"]) == 4 * len(DEFAULT_VARIANTS)
    assert any(a.get("text") == "Dual-clip PPO" for a in gallery["layout"]["annotations"])
    assert len(at.get("latex")) == 5  # beside the curves, the six cases (2) and the probability view (2)
    assert len(at.dataframe) == 2  # gradient ranges and the six cases
    text = _markdown(at)
    # claim 2 with numbers read off the gradient, not typed
    assert "**0.240**" in text and "**0.256**" in text
    assert len(at.get("download_button")) == 4


def test_defaults_chinese():
    at = open_page(PAGE, lang="zh")
    no_exception(at)
    assert at.title[0].value == t("curves.title", "zh")
    figs = assert_finite_figures(at, at_least=3)
    titles = " ".join(a.get("text", "") for a in figs[0]["layout"]["annotations"])
    assert "目标 J" in titles and "梯度权重" in titles
    assert "梯度消失之前" in _markdown(at)


def _set_all(at, pick):
    for key in SLIDERS:
        w = at.slider(key=key)
        w.set_value(pick(w.min, w.max))
    for key in SELECT_SLIDERS:
        w = at.select_slider(key=key)
        w.set_value(float(pick(w.options[0], w.options[-1])))  # options are the formatted labels
    return at.run()


def test_extreme_values_min_then_max_and_axis_toggles():
    at = open_page(PAGE)
    at.multiselect(key="c_algos").set_value(
        ["ppo", "grpo", "dr_grpo", "dapo", "ppo_dual", "gspo", "gspo_token", "gmpo", "sapo", "cispo"]
    )
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


def test_no_algorithm_selected_is_a_hint_not_an_error():
    at = open_page(PAGE)
    at.multiselect(key="c_algos").set_value([]).run()
    no_exception(at)
    assert at.info and at.info[0].value == t("curves.none_selected", "en")
    assert len(figures(at)) == 1  # the probability view does not depend on the selection
    assert len(at.dataframe) == 1  # the six cases neither


def test_settings_are_bound_to_the_url_and_a_shared_link_opens_the_same_view():
    at = open_page(PAGE)
    # every control is bound to ?<key>= (the browser writes the URL; AppTest cannot see that side)
    widgets = [at.slider(key=k) for k in SLIDERS] + [at.select_slider(key=k) for k in SELECT_SLIDERS]
    widgets += [at.toggle(key="c_logx"), at.toggle(key="c_zoom"), at.multiselect(key="c_algos")]
    for w in widgets:
        assert w.proto.query_param_key == w.key, w.key
    # the numbers follow the sliders: 0.2·1.3 = 0.26 and 0.2·1.4 = 0.28
    at.slider(key="c_eps_high").set_value(0.3)
    at.slider(key="c_dapo_high").set_value(0.4).run()
    text = _markdown(at)
    assert "**0.260**" in text and "**0.280**" in text
    # a shared link opens the same view
    shared = open_page(
        PAGE, c_eps_high="0.3", c_algos=["GRPO", "Dual-clip PPO"], c_pi="0.5", c_logx="true", c_gspo_high="0.001"
    )
    no_exception(shared)
    assert shared.slider(key="c_eps_high").value == 0.3
    assert shared.slider(key="c_pi").value == 0.5
    assert shared.select_slider(key="c_gspo_high").value == 0.001
    assert shared.multiselect(key="c_algos").value == ["grpo", "ppo_dual"]  # the URL holds the titles
    assert shared.toggle(key="c_logx").value is True
    assert figures(shared)[0]["layout"]["xaxis"]["type"] == "log"
    assert "π_old = 0.50" in _markdown(shared)


def test_out_of_range_url_value_does_not_crash():
    at = open_page(PAGE, c_dual="0.5", c_eps_low="-3", c_gspo_low="0.123")
    assert not at.exception, [e.message for e in at.exception]
    assert_finite_figures(at, at_least=3)
    assert at.slider(key="c_dual").value > 1


def test_language_switch_keeps_the_settings():
    at = open_page(PAGE)
    at.slider(key="c_eps_high").set_value(0.3).run()
    at.radio(key="lang").set_value("zh").run()
    no_exception(at)
    assert at.title[0].value == t("curves.title", "zh")
    assert at.slider(key="c_eps_high").value == 0.3
    assert at.multiselect(key="c_algos").value == list(DEFAULT_VARIANTS)
    assert "**0.260**" in _markdown(at)
    assert_finite_figures(at, at_least=3)
