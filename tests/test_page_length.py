"""The Length penalties page through AppTest: defaults, extreme widget values, both languages, bad
input as st.error, settings in the URL."""

from __future__ import annotations

from apptools import assert_finite_figures, figures, no_exception, open_page, trace_values

from rlviz.i18n import t

PAGE = "pages/length.py"


def _texts(at) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption] + [s.value for s in at.subheader])


def test_defaults_show_every_section():
    at = open_page(PAGE)
    no_exception(at)
    assert at.title[0].value == t("length.title", "en")
    figs = assert_finite_figures(at, at_least=5)
    assert len(figs) == 5  # curves, histogram, group, filtering, sweep
    text = _texts(at)
    for key in ("curves_header", "rollouts_header", "group_header", "filter_header", "sweep_header"):
        assert t(f"length.{key}", "en") in text
    assert "arxiv.org/abs/2501.12599" in text and "arxiv.org/abs/2502.03373" in text
    assert len(at.get("latex")) >= 4  # DAPO, Kimi, cosine, advantage
    # at the defaults (L_max 8, L_cache 4) the penalty and the truncation both bite
    metrics = {m.label: m.value for m in at.metric}
    truncated = metrics[t("length.metric_truncated", "en")]
    assert truncated != "0.0%"
    assert at.dataframe, "the per-scheme and per-group tables are missing"
    # three panels in the curves figure (DAPO, Kimi, cosine)
    assert len(figs[0]["layout"]["annotations"]) == 3


def test_chinese():
    at = open_page(PAGE, lang="zh")
    no_exception(at)
    assert at.title[0].value == t("length.title", "zh")
    assert t("length.filter_header", "zh") in _texts(at)
    assert_finite_figures(at, at_least=5)


def test_extreme_lengths_and_factor():
    at = open_page(PAGE)
    at.slider(key="l_cache").set_value(0).run()
    at.slider(key="l_max").set_value(1).run()  # the smallest limit: everything is truncated
    no_exception(at)
    assert_finite_figures(at, at_least=5)
    at.slider(key="l_pen").set_value(0.0).run()  # no penalty at all
    no_exception(at)
    assert_finite_figures(at, at_least=5)
    at.slider(key="l_max").set_value(32).run()
    at.slider(key="l_cache").set_value(32).run()  # the whole range is the buffer
    at.slider(key="l_pen").set_value(3.0).run()
    no_exception(at)
    assert_finite_figures(at, at_least=5)
    assert t("length.factor_note_high", "en").split("{")[0][:30] in _texts(at)


def test_other_penalty_parameters_at_their_bounds():
    at = open_page(PAGE)
    for key, value in (("l_kw", 10.0), ("l_c0", 20.0), ("l_cl", -20.0), ("l_w0", -20.0), ("l_wl", 20.0), ("l_ex", -20.0)):
        at.number_input(key=key).set_value(value)
    at.run()
    no_exception(at)
    assert_finite_figures(at, at_least=5)
    at.multiselect(key="l_other").set_value([]).run()  # DAPO alone
    no_exception(at)
    assert len(figures(at)[0]["layout"]["annotations"]) == 1


def test_rollout_settings_at_their_bounds():
    at = open_page(PAGE)
    at.number_input(key="l_n").set_value(2)
    at.number_input(key="l_g").set_value(16)
    at.slider(key="l_temp").set_value(2.0).run()
    no_exception(at)
    assert_finite_figures(at, at_least=5)
    at.number_input(key="l_n").set_value(48)
    at.number_input(key="l_g").set_value(2)
    at.slider(key="l_temp").set_value(0.3).run()
    no_exception(at)
    figs = assert_finite_figures(at, at_least=5)
    bars = [tr for tr in figs[1]["data"] if tr["type"] == "bar"]
    assert sum(sum(trace_values(b, "y")) for b in bars) == 48 * 2  # every response in the histogram


def test_buffer_longer_than_max_is_an_error_message():
    at = open_page(PAGE)
    at.slider(key="l_cache").set_value(12).run()  # L_max stays 8
    assert not at.exception
    assert at.error and "buffer_length" in at.error[0].value
    assert not figures(at)


def test_settings_in_the_url_and_back():
    # a shared link sets the widgets (a multiselect or selectbox carries its labels) ...
    label = open_page(PAGE).selectbox(key="l_group").options[3]
    at = open_page(PAGE, l_max="10", l_cache="6", l_pen="0.5", l_other="Kimi k1.5", l_ex="-5.0", l_group=label)
    no_exception(at)
    assert at.slider(key="l_max").value == 10 and at.slider(key="l_cache").value == 6
    assert at.slider(key="l_pen").value == 0.5
    assert list(at.multiselect(key="l_other").value) == ["kimi"]
    assert at.number_input(key="l_ex").value == -5.0
    assert at.selectbox(key="l_group").value == int(label.split(" ")[0].lstrip("#"))
    # ... and every setting is bound to its own URL parameter (the browser writes it back)
    widgets = [at.slider(key=k) for k in ("l_max", "l_cache", "l_pen", "l_temp")]
    widgets += [at.number_input(key=k) for k in ("l_kw", "l_c0", "l_cl", "l_w0", "l_wl", "l_ex", "l_n", "l_g")]
    widgets += [at.multiselect(key="l_other"), at.selectbox(key="l_group")]
    for w in widgets:
        assert w.proto.query_param_key == w.key
