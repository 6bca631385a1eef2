"""Every page numbers a group's responses the same way, from #1 as a learner counts (``rlviz.numbering.response_number``
and ``response_tag``): the label builders of the live, weighting, step, confusions, length and advantages pages
and the figures' own default labels all call the first response #1, never #0. The formula page's labels are
checked on the page (tests/test_page_formula.py), the step and confusions pages' in their page tests."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from rlviz.experiments import confusions as C
from rlviz.experiments import live as LV
from rlviz.experiments import step as S
from rlviz.experiments import weighting as W
from rlviz.experiments.advantages import prediction_fields
from rlviz.experiments.length import ShapingSettings, analyse, group_table
from rlviz.i18n import t
from rlviz.numbering import response_number, response_tag
from rlviz.plots import token_weight_figure
from rlviz.plots.confusions import gdpo_figure
from rlviz.plots.length import group_figure


def test_the_helper_counts_from_one_and_names_bad_input():
    # index 0 is the first response: #1; a numpy integer (a frame's column) as well as an int
    assert [response_number(i) for i in (0, 1, np.int64(7))] == [1, 2, 8]
    assert response_tag(0) == "#1" and response_tag(np.int64(3)) == "#4"
    for bad in (-1, 1.0, True, "0", None):
        with pytest.raises(ValueError, match="^index"):
            response_number(bad)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_pages_labels_call_the_first_response_one(lang):
    two = SimpleNamespace(rewards=np.array([1.0, 0.0]), advantages=np.array([0.7, -0.7]))
    # live: the token heatmaps' rows (row.0 is the first response)
    view = {
        "rows": [
            {"reward": 1.0, "advantage": 0.7, "in_loss": True},
            {"reward": 0.0, "advantage": -0.7, "in_loss": True},
        ]
    }
    rows = LV.token_row_labels(view, lang)
    assert rows["row.0"].startswith("#1 ") and rows["row.1"].startswith("#2 ")
    # weighting: the aggregation figure's responses, the real group's rows, the claim's per-response weights
    assert W.response_labels([200, 10], [1, -1], lang)[0].startswith("#1 ")
    assert W.real_row_labels(two, "grpo", {}, lang)["row.0"].startswith("#1 ")
    table = W.aggregation_table([200, 10], [1, -1], 200)
    assert W.aggregation_view(table, [200, 10], ["a", "b"])[1].startswith("#1: (1/200)")
    # step: the rows of every stage's figure (its frame's response column counts from 1 too)
    walk = SimpleNamespace(rewards=two.rewards, adv_rows=two.advantages, group_size=2)
    assert S.row_labels(walk, True, lang) == {
        1: t("step.row_adv", lang, i=1, mark="✓", adv="+0.70"),
        2: t("step.row_adv", lang, i=2, mark="✗", adv="-0.70"),
    }
    # confusions: the GDPO question's pair and the micro-batch question's last response (of 4: #4)
    components = C.parse_components("1, 0, 0, 0", "0, 1, 1, 0")
    gdpo = C.fields_gdpo(C.gdpo_state(components))
    assert (gdpo["i"], gdpo["j"]) == ("1", "2")
    micro = C.fields_microbatch({"lengths": (200, 10, 10, 10), "advantages": (1, -1, 1, -1), "micro_batches": 2})
    assert micro["last"] == "4"
    for choice, index in zip(("first", "second"), C.GDPO_PAIR, strict=True):  # its choices name them alike
        assert response_tag(index) in t(f"confusions.gdpo.choice.{choice}", lang)
    # advantages: the question's "response #i" (the first best response of 0, 1, 0: #2)
    assert prediction_fields({"rewards": (0.0, 1.0, 0.0)})["i"] == "2"


def test_the_figures_default_labels_count_from_one():
    tokens = pd.DataFrame(
        {"response": [0, 0, 1], "position": [0, 1, 0], "token": ["1", "⏎", "⏎"], "weight": [0.1, 0.2, -0.1]}
    ).assign(advantage=[0.5, 0.5, -0.5])
    assert list(token_weight_figure(tokens, {}).data[0].y) == ["#1", "#2"]  # the live and weighting heatmaps
    comps = C.parse_components("1, 0, 0, 0", "0, 1, 1, 0")
    ticks = gdpo_figure(C.gdpo_vs_grpo(comps), {"tick": "g{g} #{i}"}).data[0].x
    assert list(ticks) == ["g1 #1", "g1 #2", "g1 #3", "g1 #4"]


def test_the_length_pages_samples_count_from_one():
    # two groups of two responses by hand ("5" right, "9" wrong; EOS ends each): sample 0 is #1 in the group's
    # table and figure
    rows = []
    for g in range(2):
        for s, text in enumerate(("5", "9")):
            tokens = (*text, "⏎")
            rows.append(
                {"group": g, "sample": s, "prompt": "1+4=", "answer": "5", "level": 1, "length": len(tokens)}
                | {"finished": True, "reward": float(text == "5"), "tokens": tokens}
            )
    a = analyse(pd.DataFrame(rows), ShapingSettings(8, 4, 1.0))
    group = a.responses[a.responses["group"] == 0]
    view, _ = group_table(group, ("dapo",), "en")
    assert sorted(view[t("length.col_sample", "en")]) == [1, 2]
    assert [x.split(" · ")[0] for x in group_figure(group, {}).data[0].x] == ["#1", "#2"]
