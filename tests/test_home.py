"""The home page's library part: the family tree and the settings tables come from the registry."""

from __future__ import annotations

import dataclasses

import pytest

from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments.home import SETTING_COLUMNS, family_tree, paper_note, settings_frame


def test_family_tree_follows_the_registry():
    tree = family_tree("en")
    assert list(tree["parents"]) == list(ALGORITHMS)
    assert tree["parents"]["grpo"] == "ppo" and tree["parents"]["ppo"] is None
    assert tree["titles"]["gspo_token"] == "GSPO-token"
    assert tree["hover"]["sapo"].startswith("<b>SAPO</b><br>")
    assert "<br>" in family_tree("zh")["hover"]["grpo"]
    with pytest.raises(ValueError, match="lang"):
        family_tree("fr")


def test_settings_frame_has_every_setting_with_its_framework_names():
    frame = settings_frame("en")
    assert tuple(frame.columns) == SETTING_COLUMNS
    assert len(frame) == sum(len(s.loss_settings) + len(s.train_settings) for s in ALGORITHMS.values())
    grpo = settings_frame("zh", "grpo").set_index("setting")
    assert grpo.loc["epsilon_low", "default"] == 0.2  # DeepSeekMath eq. 3, ε = 0.2
    assert grpo.loc["epsilon_low", "trl"] == "epsilon" and grpo.loc["epsilon_low", "verl"] == "actor.clip_ratio_low"
    assert grpo.loc["beta", "default"] == 0.04  # DeepSeekMath §4.2
    assert "KL" in grpo.loc["beta", "meaning"]
    with pytest.raises(ValueError, match="algorithm"):
        settings_frame("en", "reinforce")


def test_an_added_entry_is_in_the_tree_and_the_tables(monkeypatch):
    copy = dataclasses.replace(ALGORITHMS["dapo"], name="dapo_copy", title="DAPO copy", style=None)
    monkeypatch.setitem(ALGORITHMS, "dapo_copy", copy)
    assert family_tree("en")["parents"]["dapo_copy"] == "grpo"
    assert set(settings_frame("en")["algorithm"]) >= {"DAPO copy"}


def test_where_rlviz_follows_the_paper_not_the_code_the_registry_says_so():
    # M2PO (the paper's drop-the-largest rule, not the released code's cap and breakpoint) and VESPO (the
    # response's mean advantage picks k and lambda, not its first token's): a note in both languages
    assert {n for n, s in ALGORITHMS.items() if s.follows_paper} == {"m2po", "vespo"}
    for name in ("m2po", "vespo"):
        assert "code" in paper_note(name, "en") and "代码" in paper_note(name, "zh")
    assert paper_note("grpo", "en") is None
    with pytest.raises(ValueError, match="name"):
        paper_note("reinforce", "en")
    with pytest.raises(ValueError, match="lang"):
        paper_note("m2po", "fr")
    with pytest.raises(ValueError, match="follows_paper"):  # a note in one language only is refused
        dataclasses.replace(ALGORITHMS["dapo"], follows_paper={"en": "only English"})


def test_the_family_tree_boxes_do_not_overlap():
    """The registry's tree as drawn: no two boxes intersect (rectangles read from the figure's spec), each box
    holds its label (its longest line in character widths, the x axis's unit), and the tree fits the Home
    page's tree column at 1024 px (about 370 px: at 7 px per character width, at most 52 of them)."""
    import json
    import re

    from rlviz.plots.home import lineage_figure

    tree = family_tree("en")
    spec = json.loads(lineage_figure(tree["parents"], {f"name.{n}": t for n, t in tree["titles"].items()}).to_json())
    boxes = [(s["x0"], s["x1"], s["y0"], s["y1"]) for s in spec["layout"]["shapes"]]
    assert len(boxes) == len(ALGORITHMS)
    for i, (ax0, ax1, ay0, ay1) in enumerate(boxes):
        for bx0, bx1, by0, by1 in boxes[i + 1 :]:
            assert ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0  # apart on x or on y
    labels = [a for a in spec["layout"]["annotations"] if not a.get("showarrow")]
    for (x0, x1, _, _), label in zip(boxes, labels):
        lines = re.sub(r"</?b>", "", label["text"]).split("<br>")
        assert x1 - x0 >= max(len(line) for line in lines) + 1
    bypass = next(a["text"] for a in labels if "Bypass" in a["text"])  # 23 characters: wrapped, not widened
    assert bypass.count("<br>") >= 1
    low, high = spec["layout"]["xaxis"]["range"]
    assert high - low <= 52


def test_the_family_tree_labels_fit_their_boxes_in_pixels():
    """A label's coloured background is as tall as its lines (plotly draws about 1.25 x the 12 px font per
    line, so 15 px, plus 1 px of padding above and below); the box under it must be at least that tall on
    screen, or the background sticks out of the box (it did for three-line labels: 42 px boxes, 47 px labels).
    Pixels per axis unit = (figure height - top and bottom margins) / the y range."""
    import json
    import re

    from rlviz.plots.home import LINE_PX, lineage_figure

    tree = family_tree("en")
    spec = json.loads(lineage_figure(tree["parents"], {f"name.{n}": t for n, t in tree["titles"].items()}).to_json())
    layout = spec["layout"]
    low, high = layout["yaxis"]["range"]
    px_per_unit = (layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]) / (high - low)
    labels = [a for a in layout["annotations"] if not a.get("showarrow")]
    lines = [re.sub(r"</?b>", "", a["text"]).count("<br>") + 1 for a in labels]
    assert max(lines) == 3  # "Bypass REINFORCE (verl)" wraps to three lines: the case that stuck out
    for shape, n in zip(layout["shapes"], lines):
        assert (shape["y1"] - shape["y0"]) * px_per_unit >= n * LINE_PX + 2
