"""The weighting page through AppTest: defaults, extreme widget values, both languages, bad input
as a message, the settings in the URL."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
from apptools import assert_finite_figures, figures, no_exception, open_page

from rlviz.i18n import t

PAGE = "pages/weighting.py"
N_FIGURES = 7  # modes, algorithms, off-policy, noise, and one heatmap per default real-group algorithm (3)


def _text(at) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def test_defaults_show_every_section_with_claim5_numbers():
    at = open_page(PAGE)
    no_exception(at)
    assert at.title[0].value == t("weighting.title", "en")
    # heatmaps leave padding cells empty (null) on purpose: gaps allowed
    figs = assert_finite_figures(at, at_least=N_FIGURES, gaps=True)
    assert len(figs) == N_FIGURES
    text = _text(at)
    for number in ("0.0025", "0.05", "0.00476", "1/210"):  # claim 5
        assert number in text, number
    assert "GSPO" in text and "s = 0.9727" in text  # the whole response is clipped
    # the modes figure holds the per-token weights of the table
    modes = figs[0]
    smtm = [tr for tr in modes["data"] if tr["name"] == "seq-mean-token-mean" and tr["xaxis"] == "x"][0]
    assert smtm["text"] == ["0.0025", "0.05"]
    assert len(at.get("download_button")) == 4


def test_chinese():
    at = open_page(PAGE, lang="zh")
    no_exception(at)
    assert at.title[0].value == t("weighting.title", "zh")
    assert at.text_input(key="wt_len").label == t("weighting.lengths", "zh")
    assert t("weighting.off_try", "zh")[:10] in _text(at)
    assert_finite_figures(at, at_least=N_FIGURES, gaps=True)


def test_language_switch_keeps_the_settings():
    at = open_page(PAGE)
    at.slider(key="wt_L").set_value(80)
    at.multiselect(key="wt_algos").set_value(["grpo", "sapo"]).run()
    for lang in ("zh", "en"):
        at.radio(key="lang").set_value(lang).run()
        no_exception(at)
        assert at.title[0].value == t("weighting.title", lang)
        assert at.slider(key="wt_L").value == 80
        assert at.multiselect(key="wt_algos").value == ["grpo", "sapo"]


def test_extreme_widget_values_low():
    at = open_page(PAGE)
    at.text_input(key="wt_len").set_value("1")
    at.text_input(key="wt_adv").set_value("-3")
    at.number_input(key="wt_lmax").set_value(1)
    at.slider(key="wt_L").set_value(2)
    at.number_input(key="wt_k").set_value(0)
    at.slider(key="wt_r").set_value(0.1)
    at.radio(key="wt_A").set_value(1)
    at.toggle(key="wt_clip").set_value(False)
    at.select_slider(key="wt_sigma").set_value(0.001)
    at.select_slider(key="wt_n").set_value(200)
    at.number_input(key="wt_G").set_value(2)
    at.select_slider(key="wt_lr").set_value(1e-5)
    at.toggle(key="wt_after").set_value(False)
    at.run()
    no_exception(at)
    assert_finite_figures(at, at_least=N_FIGURES, gaps=True)


def test_extreme_widget_values_high():
    at = open_page(PAGE)
    at.text_input(key="wt_len").set_value(", ".join(["8192"] + ["1"] * 15))
    at.text_input(key="wt_adv").set_value(", ".join(["1e6"] + ["-1"] * 15))
    at.number_input(key="wt_lmax").set_value(8192)
    at.slider(key="wt_L").set_value(400)
    at.number_input(key="wt_k").set_value(400)
    at.slider(key="wt_r").set_value(5.0)
    at.slider(key="wt_noise").set_value(0.2)
    at.select_slider(key="wt_sigma").set_value(0.2)
    at.select_slider(key="wt_n").set_value(5000)
    at.number_input(key="wt_G").set_value(16)
    at.select_slider(key="wt_lr").set_value(1e-3)
    at.multiselect(key="wt_ralgos").set_value(["dr_grpo", "gmpo", "cispo"])
    at.run()
    no_exception(at)
    assert_finite_figures(at, at_least=N_FIGURES, gaps=True)


def test_bad_inputs_are_messages_and_other_sections_still_render():
    at = open_page(PAGE)
    at.text_input(key="wt_len").set_value("200, ten").run()
    assert not at.exception
    assert at.error and "lengths" in at.error[0].value
    assert len(figures(at)) == N_FIGURES - 2  # the two aggregation figures are skipped, the rest stay
    at.text_input(key="wt_len").set_value("200, 10")
    at.text_input(key="wt_adv").set_value("1").run()
    assert at.error and "advantages" in at.error[0].value
    at.text_input(key="wt_adv").set_value("-1, 1")
    at.number_input(key="wt_lmax").set_value(100).run()
    assert at.error and "norm_length" in at.error[0].value
    at.number_input(key="wt_lmax").set_value(256)
    at.slider(key="wt_L").set_value(10)
    at.number_input(key="wt_k").set_value(11).run()
    assert at.error and "n_outliers" in at.error[0].value
    at.number_input(key="wt_k").set_value(2)
    at.text_input(key="wt_prompt").set_value("hello").run()
    assert not at.exception
    assert len(at.error) == 1 and "prompt" in at.error[0].value
    at.text_input(key="wt_prompt").set_value("12+7=").run()
    no_exception(at)
    assert "12+7=" in _text(at)


def test_no_algorithm_chosen_is_a_hint():
    at = open_page(PAGE)
    at.multiselect(key="wt_algos").set_value([])
    at.multiselect(key="wt_ralgos").set_value([]).run()
    no_exception(at)
    assert len(at.info) >= 2
    assert len(figures(at)) == 3  # modes, algorithms, noise


KEYS = (
    "wt_len",
    "wt_adv",
    "wt_lmax",
    "wt_L",
    "wt_k",
    "wt_r",
    "wt_A",
    "wt_noise",
    "wt_clip",
    "wt_algos",
    "wt_sigma",
    "wt_n",
    "wt_prompt",
    "wt_G",
    "wt_lr",
    "wt_ralgos",
    "wt_after",
)
KINDS = ("text_input", "number_input", "slider", "select_slider", "radio", "toggle", "multiselect")


def test_every_setting_is_bound_to_the_url_and_a_link_restores_it():
    at = open_page(PAGE)
    bound = {el.key: el.proto.query_param_key for kind in KINDS for el in at.get(kind) if el.key in KEYS}
    assert bound == {k: k for k in KEYS}  # the browser writes each into the URL (?wt_L=80 ...)
    # a teacher's link opens the same view (values as the browser writes them into the URL)
    shared = open_page(PAGE, wt_len="100, 20, 5", wt_adv="1, -1, 0.5", wt_L="80", wt_sigma="0.05", wt_clip="false")
    no_exception(shared)
    assert shared.text_input(key="wt_len").value == "100, 20, 5"
    assert shared.slider(key="wt_L").value == 80
    assert shared.select_slider(key="wt_sigma").value == 0.05
    assert shared.toggle(key="wt_clip").value is False
    assert "#2 · 5 tokens · A=+0.5" in figures(shared)[0]["data"][0]["x"]


def test_bad_input_in_chinese_names_the_widget():
    at = open_page(PAGE, lang="zh")
    at.text_input(key="wt_len").set_value("abc").run()
    assert not at.exception
    assert t("weighting.lengths", "zh") in at.error[0].value and "lengths:" in at.error[0].value
    at.text_input(key="wt_len").set_value("200, 10")
    at.number_input(key="wt_lmax").set_value(100).run()
    assert t("weighting.lmax", "zh") in at.error[0].value
    at.number_input(key="wt_lmax").set_value(256)
    at.slider(key="wt_L").set_value(2)
    at.number_input(key="wt_k").set_value(3).run()
    assert len(at.error) == 1 and t("weighting.n_outliers", "zh") in at.error[0].value
    at.number_input(key="wt_k").set_value(0)
    at.text_input(key="wt_prompt").set_value("hello").run()
    assert len(at.error) == 1 and t("weighting.prompt", "zh") in at.error[0].value


def _page_field_names() -> set[str]:
    """Keys of the page's ``*_FIELDS`` dicts (parameter name -> widget label)."""
    tree = ast.parse(Path(PAGE).read_text(encoding="utf-8"))
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(x, ast.Name) and x.id.endswith("_FIELDS") for x in node.targets
        ):
            keys |= {k.value for k in node.value.keys}
    return keys


def test_every_parameter_the_library_names_maps_to_a_widget():
    raised = set()
    for path in ("rlviz/experiments/weighting.py", "rlviz/lm/model.py", "rlviz/device.py"):
        raised |= set(re.findall(r'ValueError\(\s*f?"(\w+):', Path(path).read_text(encoding="utf-8")))
    assert {"lengths", "advantages", "norm_length", "n_outliers", "prompt", "device"} <= raised
    assert raised - _page_field_names() == set()


def test_no_negative_zero_on_screen():
    at = open_page(PAGE)  # default: GSPO clips the whole response, its push is exactly 0
    off = figures(at)[2]
    gspo = [a["text"] for a in off["layout"]["annotations"] if a["text"].startswith("GSPO ")][0]
    assert gspo.endswith("r=1: 0.00")
    shown = "\n".join([a["text"] for f in figures(at) for a in f["layout"].get("annotations", [])] + [_text(at)])
    assert not re.search(r"-0(\.0+)?(?![.\d])", shown.replace("−", "-")), "a negative zero is displayed"
    summary = at.dataframe[1].value
    floats = summary.select_dtypes("float")
    assert not (np.signbit(floats) & (floats == 0)).any().any()


def test_formulas_fit_their_columns():
    at = open_page(PAGE)
    latex = [x.value for x in at.latex]
    sapo = [x for x in latex if "SAPO" in x][0]
    # three short lines (objective, gate derivative, σ_τ) instead of one long one
    assert r"\begin{gathered}" in sapo and sapo.count(r"\\") == 2 and r"\sigma_\tau(r)=" in sapo
    loss = [x for x in latex if r"\mathcal L=\sum" in x][0]
    assert loss.count(r"\\") == 1  # the loss and its gradient on two lines
    modes = figures(at)[0]["layout"]
    assert modes["xaxis"]["domain"] == [0.0, 1.0]  # the labelled bar chart gets the page's full width
