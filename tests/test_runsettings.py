"""app_common.runsettings: the run pages' shared settings drawn from one description (issue 39). The pages
themselves (their keys, labels and a run through them) are covered by tests/test_page_*.py and test_app.py;
here the helper alone: its keys, labels, help, defaults, URL binding, disabled state and typed values, and
a wrong description refused with the parameter named."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from rlviz.i18n import t

TIMEOUT = 60


def _script():
    import streamlit as st

    from app_common.runsettings import Field, RunSettings
    from rlviz.experiments.sampling import DynamicSamplingConfig

    st.session_state["lang"] = st.session_state.get("want", "en")
    rs = RunSettings(
        "sampling",
        "s_",
        DynamicSamplingConfig(),
        disabled=st.session_state.get("running", False),
        steps=Field(),
        prompts=Field(label="live_prompts"),
        lr=Field(choices=(1e-5, 1e-4, 1e-3)),
        temperature=Field(help=True),
        heldout=Field(help=True, n=7),
    )
    st.session_state["drawn"] = rs.inline("steps", "prompts")
    rs.row("lr", "temperature", "heldout")
    st.session_state["config"] = rs.config()
    st.session_state["keys"] = rs.keys


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_fields_carry_the_pages_keys_labels_defaults_and_typed_values(lang):
    from rlviz.experiments.sampling import DynamicSamplingConfig

    D = DynamicSamplingConfig()
    at = AppTest.from_function(_script, default_timeout=TIMEOUT)
    at.session_state["want"] = lang
    at.query_params["s_lp"] = "3"  # a shared link's value: the field is bound to the URL
    at.run()
    assert not at.exception
    # the keys in the description's order, each <prefix><key>; a kind's usual key unless the Field names one
    assert at.session_state["keys"] == ("s_steps", "s_lp", "s_lr", "s_ltemp", "s_heldout")
    steps, prompts = at.number_input(key="s_steps"), at.number_input(key="s_lp")
    assert steps.label == t("sampling.steps", lang) and steps.value == D.steps and steps.help in (None, "")
    assert prompts.label == t("sampling.live_prompts", lang) and prompts.value == 3
    temperature = at.slider(key="s_ltemp")
    assert temperature.value == pytest.approx(D.temperature) and temperature.help == t(
        "sampling.temperature_help", lang
    )
    heldout = at.number_input(key="s_heldout")
    assert heldout.help == t("sampling.heldout_help", lang, n=7) and (heldout.min, heldout.max) == (0, 32)
    assert at.select_slider(key="s_lr").value == D.lr
    assert not any(w.disabled for w in (steps, prompts, temperature, heldout))
    # the run config's own field names, typed: DynamicSamplingConfig(**rs.config(), ...) takes them
    config = at.session_state["config"]
    assert config == {"steps": D.steps, "prompts_per_step": 3, "lr": D.lr, "temperature": D.temperature,
                      "heldout_samples": D.heldout_samples}  # fmt: skip
    assert isinstance(config["steps"], int) and isinstance(config["lr"], float)
    DynamicSamplingConfig(**config)


def test_a_running_run_draws_every_field_disabled():
    at = AppTest.from_function(_script, default_timeout=TIMEOUT)
    at.session_state["running"] = True
    at.run()
    keys = at.session_state["keys"]
    widgets = [*at.number_input, *at.slider, *at.select_slider]
    assert {w.key for w in widgets} == set(keys) and all(w.disabled for w in widgets)


def test_a_wrong_description_is_refused_naming_the_parameter():
    from app_common.runsettings import Field, RunSettings
    from rlviz.experiments.sampling import DynamicSamplingConfig

    with pytest.raises(ValueError, match=r"^fields: rounds not among"):
        RunSettings("sampling", "s_", DynamicSamplingConfig(), disabled=False, rounds=Field())

    class NoMu:
        steps = 3

    with pytest.raises(ValueError, match=r"^defaults: NoMu has no mu$"):
        RunSettings("sampling", "s_", NoMu(), disabled=False, steps=Field(), mu=Field())
