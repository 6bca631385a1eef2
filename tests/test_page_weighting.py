"""The weighting page through AppTest: defaults, extreme widget values, both languages, bad input
as a message, the settings in the URL, an algorithm added to the registry, formulas and titles that
fit a 1024 px window."""

from __future__ import annotations

import ast
import dataclasses
import html
import re
from pathlib import Path

import numpy as np
import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page

from rlviz.core.objectives import ALGORITHMS
from rlviz.i18n import t
from rlviz.teach.predict import PREDICTIONS

PAGE = "pages/weighting.py"
N_FIGURES = 7  # modes, algorithms, off-policy, noise, and one heatmap per default real-group algorithm (3)


def _text(at) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def _skip_all(at, lang: str = "en"):
    """Press "Skip: show me" on every question of the page still waiting (one at a time: each reruns
    the page); at least one must be waiting."""
    assert [b for b in at.button if b.label == t("teach.skip", lang)], "no question waits"
    for _ in PREDICTIONS["weighting"]:
        skip = [b for b in at.button if b.label == t("teach.skip", lang)]
        if skip:
            skip[0].click().run()
    assert not [b for b in at.button if b.label == t("teach.skip", lang)]
    return at


def _flat(node):
    """The page's elements and blocks in the order they are drawn (a block, then what it holds)."""
    yield node
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        for k in sorted(children):
            yield from _flat(children[k])


def _plain(markdown: str) -> str:
    """A Markdown text as read: the glossary's hover help (``<abbr>``) taken off."""
    return html.unescape(re.sub(r"<[^>]+>", "", markdown))


def _labelled(fig) -> bool:
    """Whether a figure shows value labels on its bars."""
    return any(tr.get("text") for tr in fig["data"])


def assert_figure_words(at, lang: str) -> None:
    """The page hands every weighting figure its words in ``lang`` (``app_common.labels``): no key shows."""
    modes, algos, off, noise = figures(at)[:4]
    for fig in (modes, algos):
        titles = [a["text"] for a in fig["layout"]["annotations"]]
        assert titles == [t("weighting.per_token", lang), t("weighting.per_response", lang)]
        assert f"<br>{t('word.grad_weight', lang)}: " in fig["data"][0]["hovertemplate"]
        assert f"<br>{t('word.advantage', lang)} = " in fig["data"][0]["hovertemplate"]
        assert fig["data"][0]["x"][0] == t("weighting.response_label", lang, i=1, n=200, adv="-1")  # from #1
    assert {tr["name"] for tr in algos["data"]} == {a.title for a in ALGORITHMS.values()}
    axes = {k: v["title"]["text"] for k, v in off["layout"].items() if k[1:5] == "axis" and "title" in v}
    assert set(axes.values()) == {t("weighting.relative", lang), t("word.position", lang)}
    assert f"<br>{t('weighting.ratio_used', lang)} = " in off["data"][0]["hovertemplate"]
    assert t("weighting.state_clipped", lang) in {c[3] for c in off["data"][0]["customdata"]}
    assert [a["text"] for a in noise["layout"]["annotations"]] == [
        t("weighting.var_title", lang),
        t("weighting.clip_title", lang),
    ]
    assert noise["data"][0]["name"] == t("weighting.var_s", lang)
    clip_lines = [tr["name"] for tr in noise["data"][2:]]  # registry order
    assert clip_lines == [
        t("weighting.clip_line.token", lang, title=ALGORITHMS["grpo"].title, eps="0.2"),
        t("weighting.clip_line.sequence", lang, title=ALGORITHMS["gspo"].title, eps="0.0004"),
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_first_screen_is_title_lede_fields_then_the_figure(lang):
    at = open_page(PAGE, lang=lang)
    no_exception(at)
    order = list(_flat(at.main))
    kinds = [getattr(el, "type", "") for el in order]
    title = kinds.index("title")
    lede = [i for i, el in enumerate(order) if kinds[i] == "markdown" and _plain(el.value) == t("weighting.lede", lang)]
    fields = [i for i, el in enumerate(order) if getattr(el, "key", None) in ("wt_len", "wt_adv")]
    chart = kinds.index("plotly_chart")
    assert lede and title < lede[0] < fields[0] < fields[1] < chart  # title, lede, the two fields, the figure
    assert {kinds[i] for i in range(fields[1] + 1, chart)} <= {"flex_container", "column"}  # nothing between
    annotations = [a["text"] for a in figures(at)[0]["layout"]["annotations"]]
    assert annotations == [t("weighting.per_token", lang), t("weighting.per_response", lang)]  # the modes figure
    # no subheader, no export and no question above the figure; the export is in the practitioners' block
    assert not [k for k in kinds[:chart] if k in ("subheader", "expander", "number_input")]
    (block,) = [e for e in at.expander if e.label == t("page.practitioners", lang)]
    assert [e for e in block.get("expander") if e.label == t("export.title", lang)]
    assert t("weighting.practitioners", lang) in [m.value for m in block.get("markdown")]


def test_defaults_hold_the_answers_until_both_questions_are_answered():
    at = open_page(PAGE)
    no_exception(at)
    assert at.title[0].value == t("weighting.title", "en")
    # heatmaps leave padding cells empty (null) on purpose: gaps allowed
    figs = assert_finite_figures(at, at_least=N_FIGURES, gaps=True)
    assert len(figs) == N_FIGURES
    held = ":material/visibility_off: " + t("teach.held", "en")
    # before the commit: the figure without its value labels, no table of weights, no claim; a note instead
    text = _text(at)
    assert not _labelled(figs[0]) and held in [c.value for c in at.caption]
    for number in ("0.0025", "0.05", "0.00476", "1/210"):  # claim 5: the answers' numbers
        assert number not in text, number
    assert len(at.dataframe) == 1  # the off-policy summary only
    # the rest of the page is there: the off-policy reading, the registry's count
    assert "GSPO" in text and "s = 0.9727" in text  # the whole response is clipped
    assert "**GSPO-token** gives every token the same push as **GSPO**" in text
    assert f"The {len(ALGORITHMS)} objectives" in text and "nine" not in text.lower()
    # one answer committed: the other question still waits, the answers stay held
    at.number_input(key="pr_teach.weighting_token_mean_in").set_value(20.0)
    [b for b in at.button if b.label == t("teach.commit", "en")][0].click().run()
    no_exception(at)
    assert at.success and not _labelled(figures(at)[0]) and "0.0025" not in _text(at)
    # both answered (the second skipped): the value labels, the table and the claim
    _skip_all(at)
    no_exception(at)
    text = _text(at)
    for number in ("0.0025", "0.05", "0.00476", "1/210"):  # claim 5
        assert number in text, number
    assert held not in [c.value for c in at.caption]
    modes = figures(at)[0]
    smtm = [tr for tr in modes["data"] if tr["name"] == "seq-mean-token-mean" and tr["xaxis"] == "x"][0]
    assert smtm["text"] == ["0.0025", "0.05"]  # the modes figure holds the per-token weights of the table
    assert len(at.dataframe) == 2
    assert len(at.get("download_button")) == 4
    assert_figure_words(at, "en")


def test_a_presenters_question_holds_only_its_own_answer():
    # on a lesson's step the class sees one question (the page's others are hidden): its commit shows the labels
    at = open_page(PAGE, lesson="token_vs_sequence", present="1", step="1")
    no_exception(at)
    assert not _labelled(figures(at)[0])
    at.number_input(key="pr_teach.weighting_token_mean_in").set_value(20.0)
    [b for b in at.button if str(b.key).startswith("FormSubmitter:form_teach.weighting_token_mean-")][0].click().run()
    no_exception(at)
    assert _labelled(figures(at)[0]) and "0.0025" in _text(at)


def test_chinese():
    at = open_page(PAGE, lang="zh")
    no_exception(at)
    assert at.title[0].value == t("weighting.title", "zh")
    assert at.text_input(key="wt_len").label == t("weighting.lengths", "zh")
    assert t("weighting.off_try", "zh")[:10] in _text(at)
    assert_finite_figures(at, at_least=N_FIGURES, gaps=True)
    assert_figure_words(at, "zh")


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
    assert "#3 · 5 tokens · A=+0.5" in figures(shared)[0]["data"][0]["x"]  # the third response, from #1


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
    """Keys of the page's ``*_FIELDS`` dicts (parameter name -> widget label): the page assigns each from a
    ``W.<section>_fields(...)`` call of ``rlviz.experiments.weighting``, whose keys are read here."""
    from rlviz.experiments import weighting as W

    tree = ast.parse(Path(PAGE).read_text(encoding="utf-8"))
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(x, ast.Name) and x.id.endswith("_FIELDS") for x in ast.walk(node.targets[0])
        ):
            for call in ast.walk(node.value):  # W.<section>_fields(L) or (L, model_dir): called with "en" (, None)
                name = getattr(getattr(call, "func", None), "attr", "")
                if isinstance(call, ast.Call) and name.endswith("_fields"):
                    keys |= set(getattr(W, name)(*["en", None][: len(call.args)]))
    return keys


def test_every_parameter_the_library_names_maps_to_a_widget():
    raised = set()
    for path in ("rlviz/experiments/weighting.py", "rlviz/lm/model.py", "rlviz/device.py"):
        raised |= set(re.findall(r'ValueError\(\s*f?"(\w+):', Path(path).read_text(encoding="utf-8")))
    assert {"lengths", "advantages", "norm_length", "n_outliers", "prompt", "device"} <= raised
    # noise_sweep's ``algorithms`` (the pair W.NOISE_PAIR) is data the page passes unchanged: no widget sets it
    fixed_by_the_page = {"algorithms"}
    assert raised - _page_field_names() - fixed_by_the_page == set()


def test_no_negative_zero_on_screen():
    at = _skip_all(open_page(PAGE))  # default: GSPO clips the whole response, its push is exactly 0
    off = figures(at)[2]
    gspo = [a["text"] for a in off["layout"]["annotations"] if a["text"].startswith("GSPO ")][0]
    assert gspo.endswith("r=1: 0.00")
    shown = "\n".join([a["text"] for f in figures(at) for a in f["layout"].get("annotations", [])] + [_text(at)])
    assert not re.search(r"-0(\.0+)?(?![.\d])", shown.replace("−", "-")), "a negative zero is displayed"
    summary = at.dataframe[1].value
    floats = summary.select_dtypes("float")
    assert not (np.signbit(floats) & (floats == 0)).any().any()


# ---------------------------------------------------------------------------------------- 1024 px window
# On a 1024 px window with the sidebar open (Streamlit 1.67: sidebar 300 px, side padding 1 rem)
# the page's main area is about 680 px wide; its narrowest formula column (noise: 1 of 3, gap 2 rem)
# gets about 215 px, the off-policy figure's column (5 of 8) about 405 px.
NARROWEST_FORMULA_PX = 215
OFFPOLICY_FIGURE_PX = 405
DISPLAY_PX = 16 * 1.21  # KaTeX display math: 1.21 x the 16 px body font; \small: 0.9 x that
_ZERO = {"begin", "end", "left", "right", "big", "Big", "bigg", "Bigg", "mathcal", "mathbf", "small", "limits"}
_SPACE = {",": 0.17, ":": 0.22, ";": 0.28, " ": 0.33, "!": -0.17, "quad": 1.0, "qquad": 2.0}
_TEXT = {"text", "operatorname", "mathrm"}


def _argument(tex: str, i: int) -> tuple[str, int]:
    """The argument starting at ``tex[i]`` (a {...} group, a command with its argument, or one
    character) and the index after it."""
    if tex[i] == "{":
        depth = 0
        for j in range(i, len(tex)):
            depth += {"{": 1, "}": -1}.get(tex[j], 0)
            if depth == 0:
                return tex[i + 1 : j], j + 1
    if tex[i] == "\\":
        m = re.match(r"\\([A-Za-z]+|.)", tex[i:])
        j = i + len(m.group(0))
        return (tex[i : _argument(tex, j)[1]], _argument(tex, j)[1]) if m.group(1) in _TEXT else (m.group(0), j)
    return tex[i], i + 1


def _em(tex: str) -> float:
    """Rough rendered width of a one-line formula in em: a symbol 0.6, a relation 1.3, a binary
    operator 1.2, text 0.5 per character, a fraction its wider part, a sub/superscript 0.7 x."""
    w, i = 0.0, 0
    while i < len(tex):
        c = tex[i]
        if c == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", tex[i:])
            name, i = m.group(1), i + len(m.group(0))
            if name in ("begin", "end"):
                i = _argument(tex, i)[1]
            elif name in ("frac", "tfrac", "dfrac"):
                a, i = _argument(tex, i)
                b, i = _argument(tex, i)
                w += max(_em(a), _em(b)) + 0.2
            elif name in _TEXT:
                a, i = _argument(tex, i)
                w += 0.5 * len(a)
            elif name in _SPACE or name in _ZERO:
                w += _SPACE.get(name, 0.0)
            elif name in ("sum", "prod"):
                w += 1.4
            elif name in ("sim", "approx", "le", "ge", "to"):
                w += 1.3
            elif name in ("log", "exp", "min", "max"):
                w += 0.5 * len(name) + 0.17
            else:
                w += 0.6  # a Greek letter or a symbol
        elif c in "_^":
            a, i = _argument(tex, i + 1)
            w += 0.7 * _em(a)
        else:
            w += {"=": 1.3, "<": 1.3, ">": 1.3, "+": 1.2, "-": 1.2, "'": 0.3}.get(c, 0.0 if c in "{}& " else 0.6)
            i += 1
    return w


def _formula_px(latex: str) -> float:
    """Rough rendered width in px of a display formula: its widest line, or for an aligned block the
    widest cell of each column added up."""
    body = latex.strip().strip("$").strip()
    rows = [line.split("&") for line in body.split("\\\\")]
    columns = max(len(r) for r in rows)
    px = sum(max(_em(r[c]) for r in rows if c < len(r)) for c in range(columns)) * DISPLAY_PX
    return px * (0.9 if "\\small" in body else 1.0)


def test_the_width_estimate_flags_the_formulas_that_overflowed():
    # the old one-line formulas overflowed a 1024 px window; the estimate must say so
    assert _formula_px(r"\log\prod_t r_t=\sum_t\log r_t=|y|\,\log s") > NARROWEST_FORMULA_PX + 50
    old_sapo = r"\text{SAPO: } -\frac{\partial\mathcal L}{\partial\log\pi_t}=\frac{A\,f'_\tau(r_t)\,r_t}{|y|}"
    assert _formula_px(old_sapo) > 243  # the off-policy formula column (3 of 8)
    old_modes = r"\begin{aligned}\text{seq-mean-token-sum-norm:}\quad & w_{i,t}=\frac{1}{B\,L_\text{max}}\end{aligned}"
    assert _formula_px(old_modes) > 324  # half the main area
    assert _formula_px(r"r_t=\frac{\pi_\theta(y_t)}{\pi_\text{old}(y_t)}") < 150


def test_formulas_fit_their_columns():
    at = open_page(PAGE)
    latex = [x.value for x in at.latex]
    assert len(latex) >= 8
    wide = {x.strip()[:60]: round(_formula_px(x)) for x in latex if _formula_px(x) > NARROWEST_FORMULA_PX}
    assert not wide, f"formulas wider than the narrowest column at 1024 px: {wide}"
    sapo = [x for x in latex if r"\text{SAPO: }" in x][0]
    assert r"\begin{aligned}" in sapo and sapo.count(r"\\") == 3  # one short line per objective
    assert any(r"\sigma_\tau=" in x for x in latex)  # the gate on lines of its own
    modes = figures(at)[0]["layout"]
    assert modes["xaxis"]["domain"] == [0.0, 1.0]  # the labelled bar chart gets the page's full width


def _text_px(text: str) -> float:
    """Rough width in px of a 13 px plot title: CJK characters 13 px, others 7 px."""
    return sum(13 if "\u4e00" <= c <= "\u9fff" or "\uff00" <= c <= "\uffef" else 7 for c in text)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_offpolicy_panel_titles_keep_the_name_at_1024_px(lang):
    at = open_page(PAGE, lang=lang)
    off = figures(at)[2]
    titles = [a for a in off["layout"]["annotations"] if a.get("xanchor") == "left"]
    names = [ALGORITHMS[n].title for n in ("grpo", "gspo", "gspo_token", "gmpo", "sapo", "cispo")]
    assert [a["text"].split(" · ")[0] for a in titles] == names
    # each title starts at the panel's left edge, so a cut falls at its end, never on the name...
    assert all(a["x"] == 0 and a["xref"] == "paper" for a in titles)
    # ...and is short enough to fit the panel (figure width less the 60 + 20 px margins) whole
    plot_px = OFFPOLICY_FIGURE_PX - 80
    assert max(_text_px(a["text"]) for a in titles) < plot_px, [a["text"] for a in titles]


# ---------------------------------------------------------------------------------------- a new registry entry


def test_an_algorithm_added_to_the_registry_shows_on_the_page(monkeypatch):
    copy = dataclasses.replace(ALGORITHMS["dapo"], name="dapo_copy", title="DAPO copy", style=None)
    monkeypatch.setitem(ALGORITHMS, "dapo_copy", copy)
    at = open_page(PAGE)
    no_exception(at)
    # offered in both algorithm choices (AppTest reads the options as shown: titles, registry order)
    for key in ("wt_algos", "wt_ralgos"):
        assert at.multiselect(key=key).options == [spec.title for spec in ALGORITHMS.values()]
        assert at.multiselect(key=key).options[-1] == "DAPO copy"
    # the aggregation section counts and lists it
    text = _text(at)
    assert f"The {len(ALGORITHMS)} objectives" in text and len(ALGORITHMS) == 23  # 22 and the copy
    token_mean = [spec.title for spec in ALGORITHMS.values() if spec.defaults["loss_agg_mode"] == "token-mean"]
    assert token_mean[-1] == "DAPO copy" and "token-mean: " + ", ".join(token_mean) in text
    algos_fig = figures(at)[1]
    assert "DAPO copy" in {tr["name"] for tr in algos_fig["data"]}
    # chosen: its own off-policy panel, its sentence and rows, and its real-group heatmap
    at.multiselect(key="wt_algos").set_value(["grpo", "dapo_copy"])
    at.multiselect(key="wt_ralgos").set_value(["dapo_copy"]).run()
    no_exception(at)
    _skip_all(at)  # the table of weights shown too: the off-policy summary is the second table
    off = figures(at)[2]
    assert [tr["name"] for tr in off["data"] if tr["type"] == "bar"] == ["GRPO", "DAPO copy"]
    assert any(a["text"].startswith("DAPO copy · ") for a in off["layout"]["annotations"])
    # at r = 0.5 with A = -1 DAPO clips as GRPO does: the reading says so (not by name: by numbers)
    assert "**DAPO copy** gives every token the same push as **GRPO**" in _text(at)
    summary = at.dataframe[1].value
    assert "DAPO copy" in set(summary.iloc[:, 0])
    assert "DAPO copy" in _text(at)  # the heatmap's heading
    assert len(figures(at)) == 5  # modes, algorithms, off-policy, noise, one heatmap (DAPO copy)
