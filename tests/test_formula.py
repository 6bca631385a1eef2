"""Formula diff: terms derived from the registry for every entry, what differs between pairs, the
bound numbers against policy_loss / gradient_weights and against hand values, bad input, figures."""

from __future__ import annotations

import dataclasses
import math
import string

import numpy as np
import pandas as pd
import pytest
import torch

from rlviz.core.objectives import ALGORITHMS, gradient_weights, policy_loss
from rlviz.experiments import formula as F
from rlviz.i18n import LANGS, t
from rlviz.plots.formula import HIGHLIGHT_FRAME, term_latex, token_strip_figure


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


# ---------------------------------------------------------------------------------------- terms


@pytest.mark.parametrize("name", F.described_names())
def test_terms_of_every_registry_entry(name):
    terms = F.objective_terms(name)
    assert tuple(terms) == F.TERM_KEYS
    for key, term in terms.items():
        assert term.key == key and term.kind
        assert term.latex and all(isinstance(line, str) and line for line in term.latex)
        assert term.same_as(term)
        for text_key, fields in term.text:  # every description part exists and takes its fields
            for lang in LANGS:
                assert _fields(t(text_key, lang)) == set(fields), text_key
                assert t(text_key, lang, **fields) if fields else t(text_key, lang)
    assert F.differing_terms(name, name) == ()  # compared with itself, it differs nowhere
    spec = ALGORITHMS[name]
    assert (terms["ratio"].kind == "token") == (spec.ratio_level == "token")
    assert set(terms["trust_region"].kind.split("+")) == (set(spec.trust_region) or {"none"})
    assert terms["aggregation"].kind == spec.defaults["loss_agg_mode"]
    assert (terms["kl"].kind == "off") == (spec.defaults["beta"] == 0)


def test_what_differs_between_pairs():
    # Dr.GRPO changes the advantage (no std) and the aggregation (constant length), not the clip
    grpo_dr = F.differing_terms("grpo", "dr_grpo")
    assert {"advantage", "aggregation"} <= set(grpo_dr)
    assert "trust_region" not in grpo_dr and "ratio" not in grpo_dr
    # GSPO: a sequence ratio instead of the token ratio
    assert "ratio" in F.differing_terms("grpo", "gspo")
    # GSPO-token differs from GSPO only in how its ratio is built (same value, per-token gradient)
    assert F.differing_terms("gspo", "gspo_token") == ("ratio",)
    # DAPO's clip-higher: the same kind of clip with another band
    assert "trust_region" in F.differing_terms("grpo", "dapo") and "ratio" not in F.differing_terms("grpo", "dapo")
    # GMPO clips each token in log space before the mean; GSPO clips the sequence ratio
    assert F.objective_terms("gmpo")["trust_region"].setting("level") == "token"
    assert F.objective_terms("gspo")["trust_region"].setting("level") == "sequence"
    assert F.objective_terms("gmpo")["trust_region"].setting("space") == "log"
    assert F.objective_terms("sapo")["trust_region"].kind == "gated"
    assert F.objective_terms("cispo")["trust_region"].kind == "capped"
    assert F.objective_terms("ppo")["advantage"].kind == "gae"
    assert F.objective_terms("gspo_token")["ratio"].kind == "sequence_token"


def test_terms_come_from_the_spec_not_the_name(monkeypatch):
    copy = dataclasses.replace(ALGORITHMS["gspo"], name="seq_copy", title="Seq copy", style=None)
    monkeypatch.setitem(ALGORITHMS, "seq_copy", copy)
    assert F.differing_terms("gspo", "seq_copy") == ()
    # a registry entry that says "sequence" but whose surrogate uses token ratios is refused
    wrong = dataclasses.replace(ALGORITHMS["grpo"], name="wrong", ratio_level="sequence")
    monkeypatch.setitem(ALGORITHMS, "wrong", wrong)
    with pytest.raises(ValueError, match="^ratio_level:"):
        F.objective_terms("wrong")


def test_other_settings():
    names = {n for n, _, _ in F.other_settings("grpo", "dapo")}
    assert {"overlong_shaping", "dynamic_sampling"} <= names
    assert F.other_settings("gspo", "gspo") == []


# ---------------------------------------------------------------------------------------- example batch


def test_example_batch_is_deterministic_and_mixed():
    a, b = F.example_batch(3, 0.1), F.example_batch(3, 0.1)
    assert torch.equal(a.log_prob, b.log_prob) and a.lengths == b.lengths
    assert not torch.equal(F.example_batch(4, 0.1).log_prob, a.log_prob)
    assert len(set(a.lengths)) == F.GROUP_SIZE
    assert all(F.MIN_LENGTH <= n <= F.MAX_LENGTH for n in a.lengths)
    assert 0 < float(a.rewards.sum()) < F.GROUP_SIZE  # the group carries a signal
    assert torch.equal(a.response_mask.sum(-1), torch.tensor(a.lengths, dtype=a.response_mask.dtype))
    i, j = F.default_token(a)
    assert abs(float(a.log_ratio[i, j])) == float(a.log_ratio.abs().max())


# ---------------------------------------------------------------------------------------- bound numbers


@pytest.mark.parametrize("seed, spread", [(0, 0.1), (1, 1e-4), (2, 0.5)])
def test_bound_numbers_are_policy_loss(seed, spread):
    """Every token, every objective: the formula evaluated on the substituted numbers equals the J
    that policy_loss computed, and every number equals a direct policy_loss / gradient_weights call."""
    batch = F.example_batch(seed, spread)
    for name in F.described_names():
        adv = F._advantages(name, batch)
        grad, out = gradient_weights(
            name, batch.log_prob, batch.old_log_prob, adv, batch.response_mask, batch.ref_log_prob
        )
        run, terms = (adv, grad, out), F.objective_terms(name)
        total = 0.0
        for i, n in enumerate(batch.lengths):
            for j in range(n):
                bound = F.bind_token(name, batch, i, j, run, terms)
                v = bound.values
                total += v["weighted_loss"]
                assert math.isclose(bound.formula_value, v["objective"], rel_tol=1e-9, abs_tol=1e-12), (name, i, j)
                assert v["per_token_loss"] == pytest.approx(float(out.per_token_loss.detach()[i, j]), abs=1e-12)
                assert v["token_weight"] == pytest.approx(float(out.token_weight[i, j]), abs=1e-15)
                assert v["grad_weight"] == pytest.approx(float(grad[i, j]), abs=1e-15)
                assert v["ratio_used"] == pytest.approx(float(out.ratio[i, j]), rel=1e-12)
                assert set(bound.latex) == set(F.TERM_KEYS)
        # the tokens' shares w * lambda add up to the loss policy_loss returns
        loss = policy_loss(name, batch.log_prob, batch.old_log_prob, adv, batch.response_mask, batch.ref_log_prob)
        assert total == pytest.approx(float(loss.loss), rel=1e-10, abs=1e-14)


def test_dual_clip_is_bound_too(monkeypatch):
    """An entry whose dual clip is on by default (a PPO copy with c = 1.5): its trust-region term says
    so, and the formula with max(J, cA) still equals policy_loss at every token."""
    ppo = ALGORITHMS["ppo"]
    settings = tuple(dataclasses.replace(s, default=1.5) if s.name == "dual_clip_c" else s for s in ppo.loss_settings)
    monkeypatch.setitem(ALGORITHMS, "ppo_dual_on", dataclasses.replace(ppo, name="ppo_dual_on", loss_settings=settings))
    terms = F.objective_terms("ppo_dual_on")
    assert terms["trust_region"].setting("dual_clip_c") == 1.5
    assert F.differing_terms("ppo", "ppo_dual_on") == ("trust_region",)
    batch = F.example_batch(0, 0.5)
    run = F._run("ppo_dual_on", batch)
    dual = 0
    for i, n in enumerate(batch.lengths):
        for j in range(n):
            bound = F.bind_token("ppo_dual_on", batch, i, j, run, terms)
            assert bound.formula_value == pytest.approx(bound.values["objective"], rel=1e-9, abs=1e-12)
            dual += len(bound.latex["trust_region"]) == 4  # the max(J, cA) line: A < 0
    assert dual > 0


def test_hand_values_grpo_and_gspo():
    batch = F.example_batch(0, 1e-4)  # every ratio inside GSPO's band (and GRPO's)
    G = F.GROUP_SIZE
    i, j = 1, 2
    L_i = batch.lengths[i]
    R = batch.rewards.tolist()
    mean = sum(R) / G
    std = math.sqrt(sum((x - mean) ** 2 for x in R) / (G - 1))
    A = (R[i] - mean) / (std + 1e-6)  # A_i = (R_i - mean(R)) / (std(R) + 1e-6), unbiased std
    ell = float(batch.log_prob[i, j] - batch.old_log_prob[i, j])
    r = math.exp(ell)  # r = pi / pi_old
    x = float(batch.log_prob[i, j] - batch.ref_log_prob[i, j])
    k3 = math.exp(-x) + x - 1  # D_k3 = e^-x + x - 1
    beta = 0.04

    diff = F.formula_diff("grpo", "gspo", seed=0, response=i, token=j, spread=1e-4)
    grpo, gspo = (b.values for b in diff.bound)
    # GRPO: lambda = -min(rA, clip(r, 0.8, 1.2) A) + beta D_k3 ; w = 1 / (G L_i)
    assert grpo["advantage"] == pytest.approx(A, rel=1e-12)
    assert grpo["per_token_loss"] == pytest.approx(-min(r * A, min(max(r, 0.8), 1.2) * A) + beta * k3, rel=1e-10)
    assert grpo["token_weight"] == pytest.approx(1 / (G * L_i), rel=1e-12)
    # unclipped: d loss / d log pi = w (-A r + beta (1 - e^-x))
    assert grpo["grad_weight"] == pytest.approx((-A * r + beta * (1 - math.exp(-x))) / (G * L_i), rel=1e-8)
    # GSPO: s = exp(mean_t l); lambda = -s A ; every token of the response: d loss / d log pi = -A s / (G L_i)
    ells = (batch.log_prob[i, :L_i] - batch.old_log_prob[i, :L_i]).tolist()
    s = math.exp(sum(ells) / L_i)
    assert gspo["sequence_ratio"] == pytest.approx(s, rel=1e-12)
    assert gspo["per_token_loss"] == pytest.approx(-s * A, rel=1e-10)
    assert gspo["grad_weight"] == pytest.approx(-A * s / (G * L_i), rel=1e-8)
    assert diff.table.set_index("quantity").loc["advantage", "differs"] == False  # noqa: E712 -- same A
    # the values table and the token frame hold the same numbers
    pushes = diff.tokens.set_index(["response", "position"])
    assert pushes.loc[(i, j), "push_a"] == pytest.approx(-grpo["grad_weight"], abs=1e-15)


def test_same_objective_twice_differs_nowhere():
    diff = F.formula_diff("sapo", "sapo", seed=5)
    assert diff.differs == () and not diff.table["differs"].any() and diff.others == []


def test_gspo_token_equals_gspo_number_for_number():
    diff = F.formula_diff("gspo", "gspo_token", seed=2, spread=1e-4)
    assert diff.differs == ("ratio",)
    table = diff.table.set_index("quantity")
    for q in ("objective", "per_token_loss", "token_weight"):
        assert table.loc[q, "a"] == pytest.approx(table.loc[q, "b"], rel=1e-12)
    assert table.loc["grad_weight", "a"] == pytest.approx(table.loc["grad_weight", "b"], rel=1e-9)


def test_cispo_keeps_a_capped_tokens_gradient():
    diff = F.formula_diff("dapo", "cispo", seed=0, spread=0.5)  # both without a KL term
    states = diff.tokens
    capped = states[states["state_b"] == "capped"]
    assert len(capped) and (capped["push_b"].abs() > 0).all()
    clipped = states[states["state_a"] == "clipped"]
    assert len(clipped) and (clipped["push_a"] == 0).all()


# ---------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"a": "nope"}, "a"),
        ({"b": "nope"}, "b"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"spread": 0.0}, "spread"),
        ({"spread": 2.0}, "spread"),
        ({"spread": float("nan")}, "spread"),
        ({"response": 9, "token": 0}, "response"),
        ({"response": 0, "token": F.MAX_LENGTH}, "token"),
        ({"response": 0, "token": 1.5}, "token"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, field):
    args = {"a": "grpo", "b": "gspo"} | kwargs
    with pytest.raises(ValueError, match=f"^{field}:"):
        F.formula_diff(**args)


def test_tex_number():
    assert F.tex_number(1.5e-5) == r"1.5\times10^{-5}"
    assert F.tex_number(3e-4) == "0.0003"
    assert F.tex_number(1e-6) == "10^{-6}"
    assert F.tex_number(-0.0) == "0"
    assert F.tex_number(-0.5) == "{-0.5}" and F.tex_number(-1e-6) == "{-10^{-6}}"
    assert F.tex_number(1.23456) == "1.235"
    with pytest.raises(ValueError, match="^x:"):
        F.tex_number(float("nan"))


# ---------------------------------------------------------------------------------------- figures and LaTeX


def test_term_latex_boxes_only_what_differs():
    plain = term_latex(["a=1"], ["a=2"])
    boxed = term_latex(["a=1"], ["a=2"], boxed=True)
    assert HIGHLIGHT_FRAME not in plain and r"\fcolorbox{" + HIGHLIGHT_FRAME in boxed
    # a line opening with "[" is never read as the spacing argument of the line break before it
    assert r"\\[3pt]{}[0,1]" in term_latex(["x", "[0,1]"])
    assert term_latex(["[0,1]"]).endswith(r"\begin{gathered}{}[0,1]\end{gathered}")


def test_token_strip_figure_is_finite():
    diff = F.formula_diff("grpo", "sapo", seed=1)
    fig = token_strip_figure(diff.tokens, {}, selected=(0, 0)).to_plotly_json()
    assert len(fig["data"]) == 6  # three strips, three frames of the picked token
    for trace in fig["data"]:
        for axis in ("x", "y"):
            assert np.isfinite(np.asarray(trace[axis], dtype=float)).all()
    for trace in fig["data"][:3]:  # the strips' colours (the frames are black)
        assert np.isfinite(np.asarray(trace["marker"]["color"], dtype=float)).all()
    empty = token_strip_figure(pd.DataFrame(), {})
    assert empty.to_plotly_json()["data"] == []


def test_an_objective_without_a_term_form_is_refused_by_name():
    # the diff splits the clips, CISPO's cap and SAPO's gate; a mask or a penalty it lists apart
    others = [n for n in ALGORITHMS if n not in F.described_names()]
    assert others and "ppo" in F.described_names() and "luspo" in F.described_names()  # LUSPO: GSPO's surrogate
    for name in others:
        with pytest.raises(ValueError, match="^name:"):
            F.objective_terms(name)
