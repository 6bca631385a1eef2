"""The critic and GAE page through AppTest: the page in each language (the group's figure read back against
``rlviz.core.advantages.gae`` and ``group_advantages``, the GAE panel held until the questions are answered),
bad URL values and a library error as messages next to the fields, and one tiny live run through its buttons
(the curves, the reading, the cost table and the live questions judged on it)."""

from __future__ import annotations

import math

import pytest
import torch
from apptools import assert_finite_figures, figures, no_exception, open_page, trace_values

from app_common.predictions import ASKED_KEY, HELD_KEY
from rlviz.core.advantages import gae, group_advantages
from rlviz.experiments import critic as C
from rlviz.i18n import t
from rlviz.teach.predict import PREDICTIONS

PAGE = "pages/critic.py"
LIVE_SMALL = {"cr_lsteps": "2", "cr_lp": "1", "cr_lG": "2"}


def _note(at) -> str:
    """The page's note about URL parameters it did not use ("" when none)."""
    leads = tuple(t("url.ignored", lang, params="|").split("|")[0] for lang in ("en", "zh"))
    return next((w.value for w in at.warning if str(w.value).startswith(leads)), "")


def _skip_all(at) -> None:
    """Press "Skip: show me" on every question still waiting, one at a time (each reruns the page)."""
    skip = t("teach.skip", at.session_state["lang"])
    while buttons := [b for b in at.button if b.label == skip]:
        buttons[0].click().run()


def _group_figure(at) -> dict:
    lang = at.session_state["lang"]
    return next(f for f in figures(at) if f["layout"]["annotations"][0]["text"] == t("critic.values", lang))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_in_each_language(lang):
    at = open_page(PAGE, lang=lang)
    no_exception(at)
    assert at.title[0].value == t("critic.title", lang)
    asked = at.session_state[ASKED_KEY]
    assert {"critic.q_td", "critic.q_mc"} <= set(asked) and {"critic.q_td", "critic.q_mc"} <= at.session_state[HELD_KEY]
    state = asked["critic.q_mc"]
    # before the commit: the values and GRPO's bars, but no GAE heatmap (its numbers answer the questions)
    fig = _group_figure(at)
    kinds = [(tr["type"], tr.get("xaxis", "x")) for tr in fig["data"]]
    assert kinds == [("heatmap", "x"), ("bar", "x3")]
    assert t("critic.held_figure", lang) in [a["text"] for a in fig["layout"]["annotations"]]
    # a fresh critic: its value head starts at zero, so every cell of the left panel is exactly 0
    z = trace_values(fig["data"][0], "z")
    assert {v for row in z for v in row if v is not None} == {0.0}
    # GRPO's bars: group_advantages of the group's rewards (GRPO's own scale, group std)
    rewards = torch.tensor([state["rewards"]], dtype=torch.float64)
    assert trace_values(fig["data"][1], "x") == pytest.approx(group_advantages(rewards, "group")[0].tolist())
    assert len(figures(at)) == 2  # the group and the live run's empty panels; the λ figure held too
    if lang == "zh":
        return
    _skip_all(at)
    no_exception(at)
    figs = assert_finite_figures(at, at_least=3, gaps=True)  # padding cells of the heatmaps are blank
    fig = _group_figure(at)
    gae_trace = next(tr for tr in fig["data"] if tr["type"] == "heatmap" and tr.get("xaxis") == "x2")
    r, v, m = C.tensors_of(state["rewards"], state["values"])
    adv, _ = gae(r, v, m, C.DEFAULT_GAMMA, C.DEFAULT_LAM, whiten=False)  # the sliders' defaults, no whitening
    shown = trace_values(gae_trace, "z")
    for i, row in enumerate(state["values"]):
        assert shown[i][: len(row)] == pytest.approx(adv[i, : len(row)].tolist(), abs=1e-9)
        assert all(x is None for x in shown[i][len(row) :])
    # the λ figure: the asked response, its advantage at λ = 0, at the slider's λ and at λ = 1
    ends = figs[1]
    row = state["row"]
    assert ends["layout"]["title"]["text"] == t("critic.ends_title", "en", row=row + 1, lam=f"{C.DEFAULT_LAM:g}")
    lam1 = next(tr for tr in ends["data"] if tr["name"] == t("critic.mc", "en"))
    assert lam1["y"][0] == pytest.approx(C.answer_mc(state))  # what the λ = 1 question asked
    # moving λ to 0 redraws the GAE panel with the TD errors
    at.slider(key="cr_lam").set_value(0.0).run()
    adv0, _ = gae(r, v, m, C.DEFAULT_GAMMA, 0.0, whiten=False)
    gae_trace = next(tr for tr in _group_figure(at)["data"] if tr["type"] == "heatmap" and tr.get("xaxis") == "x2")
    assert trace_values(gae_trace, "z")[row][: len(state["values"][row])] == pytest.approx(
        adv0[row].tolist()[: len(state["values"][row])]
    )


def test_bad_url_values_fall_back_with_a_note():
    at = open_page(PAGE, cr_gamma="2", cr_G="99", cr_steps="7", cr_task="nope")
    no_exception(at)
    note = _note(at)
    for key in ("cr_gamma", "cr_G", "cr_steps", "cr_task"):
        assert f"`{key}`" in note, note
    assert at.slider(key="cr_gamma").value == C.DEFAULT_GAMMA and at.number_input(key="cr_G").value == 8
    assert _group_figure(at)  # drawn at the defaults


def test_a_library_error_is_a_message_next_to_the_row(monkeypatch):
    def refuse(settings, on_step=None):
        raise ValueError("group_size: refused here")

    monkeypatch.setattr(C, "sample_group", refuse)
    at = open_page(PAGE, cr_G="3")  # settings no other test sampled (the sampling is cached by them)
    assert not at.exception
    assert at.error and t("critic.group_size", "en") in at.error[0].value and "refused here" in at.error[0].value
    assert [f for f in figures(at) if f["layout"]["annotations"][:1] == [{"text": t("critic.values", "en")}]] == []


def test_a_tiny_live_run(monkeypatch):
    monkeypatch.setattr(C, "MIN_BIN_RESPONSES", 1)  # 2 responses a step here: draw every length bin
    at = open_page(PAGE, **LIVE_SMALL)
    before = len(figures(at))
    at.button(key="cr_run").click().run()
    no_exception(at)
    run = at.session_state["critic_run"]
    assert run.done and run.progress == {"ppo": 2, "grpo": 2}
    assert at.success[0].value == t("critic.finished", "en", total=2)
    figs = assert_finite_figures(at, at_least=before, gaps=True)  # the heatmap's padding cells; sections held
    live = next(
        f for f in figs if t("critic.metric.critic_rmse", "en") in [a["text"] for a in f["layout"]["annotations"]]
    )
    names = {tr["name"] for tr in live["data"]}
    assert names == {t("critic.arm.ppo", "en"), t("critic.arm.grpo", "en")}
    # issue 39: the live questions stand above the reading; the run started with neither answered, so its
    # curves (the CPU seconds per step) show the answer already: each question is closed (no guess offered,
    # a note says why) and shows its computed answer, as a skip would
    result = C.live_result(run)
    live_forms = {f"form_{p.key}" for p in PREDICTIONS["critic"] if p.needs_result}
    assert not [b for b in at.button if getattr(b, "form_id", None) in live_forms]  # the page's others stay open
    assert sum(t("teach.too_late", "en") in c.value for c in at.caption) == 2
    shown = "\n".join(i.value for i in at.info)
    assert f"{result['cpu_ratio']:.4g}" in shown
    assert t(f"critic.q_where.choice.{C.answer_where(result)}", "en") in shown
    assert math.isfinite(result["rmse_first"])
    marks = [m.value for m in at.markdown]
    header = max(i for i, m in enumerate(marks) if m == f"#### {t('teach.header', 'en')}")
    assert header < next(i for i, m in enumerate(marks) if f"{result['cpu_ratio']:.3f}" in m)  # questions first
    table = at.table[-1].value
    assert len(table) == 5 and table.iloc[3, 3] == f"{result['cpu_ratio']:.3f}"
    # the by-length figure: the group baseline's line is error_by_length of the run's own responses over the
    # late steps (step 2 alone here: its legend says "step 2", not "steps 2–2")
    responses = C.response_errors(C.value_frame(run))
    late = C.error_by_length(responses, C.late_steps(run))
    name = t("critic.length_baseline", "en", steps=t("critic.step_one", "en", a=2))
    assert name.endswith("step 2")
    figs = figures(at)
    base = next(tr for f in figs for tr in f["data"] if tr.get("name") == name)
    assert trace_values(base, "y") == pytest.approx(late["baseline"].tolist())
    tokens = next(tr for f in figs for tr in f["data"] if tr.get("name", "").startswith("critic, step 2, token"))
    # the reading quotes the first and the last bin drawn: numbers found on the figure's own points
    ends = C.bin_ends(late)
    shortest, longest = trace_values(tokens, "y")[0], trace_values(tokens, "y")[-1]
    assert ends["critic_tokens_short"] == pytest.approx(shortest) and ends["critic_tokens_long"] == pytest.approx(
        longest
    )
    reading = next(m.value for m in at.markdown if m.value.startswith("Over step 2 ("))
    assert f"{shortest:.3f}" in reading and f"{ends['baseline_short']:.3f}" in reading
    assert "–2 " not in reading and ": it" not in reading  # one step named as one; one sentence per line
