"""The "one update, slowly" page through AppTest: every stage reachable by Next in each language, the stage in
the URL, an objective switch that keeps the batch (and marks what the objective changes), the evidence of
both questions held back at every stage until the commit, a bad prompt as a message beside its field, and
an entry added to the registry replayed like the others."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, texts, trace_values
from test_no_leak import _contains, _forms, _page_texts

from app_common.predictions import ASKED_KEY, HELD_KEY
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import step as S
from rlviz.i18n import t
from rlviz.teach.predict import PREDICTIONS

PAGE = "pages/step.py"


def _walk(at) -> S.Walk:
    """The walk the page drew (its session's cache holds the last replay last)."""
    walks = at.session_state["_st_walks"]
    return walks[list(walks)[-1]]


def _param(at, key: str, default: str | None = None) -> str | None:
    """URL parameter ``key`` as the page left it (AppTest keeps a value the script wrote as a text, one
    from the opening URL as a list)."""
    value = at.query_params.get(key, default)
    return value[-1] if isinstance(value, list) else value


def _title(fig: dict) -> str:
    title = fig["layout"].get("title") or {}
    return title.get("text", "") if isinstance(title, dict) else str(title)


def _skip(at, key: str) -> None:
    """Press question ``key``'s "Skip: show me" (its answer shown, no verdict)."""
    skip = t("teach.skip", at.session_state["lang"])
    next(b for b in at.button if b.label == skip and b.proto.form_id == f"form_{key}").click().run()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_stage_is_reachable_by_next_and_carried_in_the_url(lang):
    at = open_page(PAGE, lang=lang)
    no_exception(at)
    assert at.title[0].value == t("step.title", lang)
    assert t("page.practitioners", lang) in [e.label for e in at.expander]
    walk = _walk(at)
    titles = []
    for k, stage in enumerate(S.STAGES, 1):
        if k > 1:
            at.button(key="st_next").click().run()
            no_exception(at)
        assert at.session_state["st_stage"] == stage
        # the URL names the stage by its key, the same in both languages (none at the first stage)
        assert _param(at, "st_stage", S.STAGES[0]) == stage
        assert f"**{k}. {t(f'step.stage.{stage}', lang)}**" in texts(at)
        page = S.STAGE_PAGES[stage]  # each stage links to the page that explores it
        assert any(link.proto.page == page for link in at.get("page_link")), stage
        figs = assert_finite_figures(at, at_least=1, gaps=True)  # heatmap padding cells are gaps
        titles.append(_title(figs[0]))
        assert at.button(key="st_prev").disabled == (k == 1)
        assert at.button(key="st_next").disabled == (k == len(S.STAGES))
    # each stage its own figure, except the two held back before the commit: the advantages (the rewards
    # they are computed from instead) and the clip's states (the ratios it reads instead)
    assert titles[1] == titles[2] == t("step.fig.rewards", lang)
    assert titles[3] == titles[4] == t("step.fig.ratio", lang)
    assert len(set(titles)) == len(S.STAGES) - 2
    assert titles[0] == t("step.fig.responses", lang, prompt=walk.prompt, G=walk.group_size)
    at.button(key="st_prev").click().run()
    assert at.session_state["st_stage"] == S.STAGES[-2]


def test_the_first_figure_is_the_groups_tokens_coloured_by_pi_old():
    at = open_page(PAGE)
    walk = _walk(at)
    heat = figures(at)[0]["data"][0]
    assert heat["type"] == "heatmap"
    assert heat["y"][0].startswith("#1 ")  # responses numbered from #1, as on every page
    assert S.token_note(walk, "en") in texts(at)  # under the figure: what its dots and ⏎ are
    z = np.array(trace_values(heat, "z"), dtype=float)
    assert z.shape[0] == walk.group_size == S.DEFAULT_GROUP_SIZE
    for i, tokens in enumerate(walk.tokens):
        assert [str(x) for x in heat["text"][i][: len(tokens)]] == tokens
        assert np.allclose(z[i, : len(tokens)], np.exp(walk.old_log_prob[i, : len(tokens)]), atol=1e-9)
        assert np.isnan(z[i, len(tokens) :]).all()  # padding: no cell


@pytest.mark.parametrize(
    "value,stage,noted", [("advantages", "advantages", False), ("5", "clip", False), ("zzz", "responses", True)]
)
def test_the_stage_from_the_url(value, stage, noted):
    at = open_page(PAGE, st_stage=value)
    no_exception(at)
    assert at.session_state["st_stage"] == stage
    note = t("url.ignored", "en", params="|").split("|")[0]
    assert any(str(w.value).startswith(note) and "st_stage" in str(w.value) for w in at.warning) == noted


def test_an_objective_switch_replays_the_same_batch_and_marks_its_changes():
    at = open_page(PAGE)
    before = _walk(at)
    text_before = figures(at)[0]["data"][0]["text"]
    assert t("step.baseline_note", "en", title="GRPO") in texts(at)
    at.selectbox(key="st_obj").set_value("dapo").run()
    no_exception(at)
    after = _walk(at)
    assert after.objective == "dapo" and _param(at, "st_obj") == "dapo"
    assert len(at.session_state["_st_samples"]) == 1  # sampled once
    assert after.tokens == before.tokens and np.array_equal(after.rewards, before.rewards)
    assert np.allclose(after.old_log_prob, before.old_log_prob, atol=1e-6)
    assert figures(at)[0]["data"][0]["text"] == text_before
    # the stage list marks the stages DAPO changes, read from its spec
    marks = S.changes("dapo")
    options = at.radio(key="st_stage").options
    for k, stage in enumerate(S.STAGES):
        assert options[k].endswith(t("step.changed_mark", "en", item="|").split("|")[1]) == (stage in marks)
    badge = t("step.changed_badge", "en", title="DAPO")
    for stage in S.STAGES:
        at.radio(key="st_stage").set_value(stage).run()
        no_exception(at)
        shown = any(badge in str(m.value) for m in at.markdown)
        assert shown == (stage in marks), stage
    at.radio(key="st_stage").set_value("clip").run()
    change = next(c for c in marks["clip"] if c.feature == "epsilon_high")
    line = t("step.change_line", "en", feature="`epsilon_high`", old=f"{change.baseline:g}", new=f"{change.value:g}")
    assert line in texts(at)


def test_the_answers_are_held_back_until_the_commit_then_shown():
    at = open_page(PAGE, st_stage="advantages")
    no_exception(at)
    walk = _walk(at)
    held = at.session_state[HELD_KEY]
    assert {"step.q_advantage", "step.q_clip"} <= held
    fig = figures(at)[0]
    assert _title(fig) == t("step.fig.rewards", "en")  # not the advantages: they are the answer
    assert t("teach.held", "en") in texts(at)
    _skip(at, "step.q_advantage")
    no_exception(at)
    fig = figures(at)[0]
    assert _title(fig) == t("step.fig.advantages", "en")
    assert np.allclose(trace_values(fig["data"][0], "x"), walk.adv_rows, atol=1e-9)
    assert t("teach.skipped", "en", answer=f"{walk.adv_rows[0]:.4g}") in [i.value for i in at.info]
    # the clip's states stay held until its own question is answered
    at.radio(key="st_stage").set_value("clip").run()
    assert _title(figures(at)[0]) == t("step.fig.ratio", "en")
    _skip(at, "step.q_clip")
    fig = figures(at)[0]
    assert _title(fig) == t("step.fig.clip", "en")
    ticks = fig["data"][0]["colorbar"]["ticktext"]
    assert t("step.state.clipped", "en") in ticks and t("step.state.active", "en") in ticks


@pytest.mark.parametrize("stage", S.STAGES)
def test_no_answer_in_view_at_any_stage_before_the_commit(stage):
    at = open_page(PAGE, st_stage=stage)
    no_exception(at)
    asked = at.session_state[ASKED_KEY]
    questions = [p for p in PREDICTIONS["step"] if p.key in asked]
    assert len(questions) == 2
    texts_ = _page_texts(at)
    for prediction in questions:
        value = float(prediction.compute(asked[prediction.key]))
        assert math.isfinite(value)
        given = " ".join(prediction.fields(asked[prediction.key]).values())
        for form in _forms(value):
            if _contains(given, form):
                continue
            leaks = [x[:200] for x in texts_ if _contains(x, form)]
            assert not leaks, f"{stage}: {prediction.key}'s answer {form} in view: {leaks[:3]}"


def test_a_bad_prompt_is_a_message_beside_its_field_and_the_page_goes_on():
    at = open_page(PAGE, st_prompt="12x")
    assert not at.exception
    assert len(at.error) == 1 and t("step.prompt", "en") in at.error[0].value
    assert figures(at) and _walk(at).auto  # a drawn prompt meanwhile


def test_a_typed_prompt_and_group_size_and_learning_rate_make_a_new_batch():
    at = open_page(PAGE, st_prompt="12+7=", st_G="4", st_lr="0.001")
    no_exception(at)
    walk = _walk(at)
    assert walk.prompt == "12+7=" and walk.group_size == 4 and walk.lr == 1e-3 and not walk.auto


def test_an_entry_added_to_the_registry_is_replayed_and_marked_from_its_spec(monkeypatch):
    copy = dataclasses.replace(ALGORITHMS["dapo"], name="dapo_copy", title="DAPO copy", style=None)
    monkeypatch.setitem(ALGORITHMS, "dapo_copy", copy)
    at = open_page(PAGE, st_obj="dapo_copy", st_stage="aggregation")
    no_exception(at)
    assert "dapo_copy" in at.selectbox(key="st_obj").options or "DAPO copy" in at.selectbox(key="st_obj").options
    assert _walk(at).objective == "dapo_copy"
    assert set(S.changes("dapo_copy")) == set(S.changes("dapo"))
    assert any(t("step.changed_badge", "en", title="DAPO copy") in str(m.value) for m in at.markdown)
