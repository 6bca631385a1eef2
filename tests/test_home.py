"""The home page's library part: the family tree and the settings tables come from the registry."""

from __future__ import annotations

import dataclasses

import pytest

from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments.home import SETTING_COLUMNS, family_tree, settings_frame


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
