"""Predictions that don't give their answer away (issue 39): every page with questions is rendered as a
learner first sees it, before any commit, and no element in view may state a question's computed answer.

For each question the page asks (``app_common.predictions.ASKED_KEY``: the state it was asked at), the
answer is computed by the question's own ``compute`` at that state (``rlviz.teach.predict``), never typed
here. A number answer must not appear, in any of the ways a page writes numbers, in any text of the page
(Markdown, captions, alerts, tables, data frames) nor in any text a figure shows without a hover (titles,
annotations, trace texts, legend names, axis titles). A choice or "which line" answer cannot be searched
for as text: for those the page must hold its evidence back (``answers_held`` recorded the question) until
the commit. The questions' own containers are left out (they repeat the settings, not the answer).
"""

from __future__ import annotations

import json
import math
import re

import pytest
from apptools import no_exception, open_page

from app_common.predictions import ASKED_KEY, HELD_KEY
from rlviz.app_pages import page
from rlviz.teach.predict import PREDICTIONS

# pages with questions a learner can answer before any run (the live page's are read from a run that has
# not happened yet when the page opens: nothing exists to leak); a lighter default where the page's first
# experiment takes seconds (as tests/test_browser.py does)
PAGES = [p for p in PREDICTIONS if p != "live"]
LIGHTER = {"moe": {"mo_n": "4"}, "mismatch": {"mm_n": "4"}}
# choice questions whose evidence can be searched for as text: the explanation's fields (``explain``) that
# state it, which must not be in view before the commit (the length page's measured section: each seed's
# change of the wrong answers' length, the numbers its figure and its reading show); and the questions a
# page must ask at its defaults
EVIDENCE = {"length.q_bias": ("drift_changes", "fixed_changes")}
MUST_ASK = {"length": {"teach.length_in_buffer", "teach.length_at_limit", "length.q_bias"}}


def _forms(value: float) -> list[str]:
    """The ways a page may write ``value``: significant digits and fixed decimals (and a share as a
    percentage), each at least three characters long (a short form such as "20" or "1" names half the
    numbers on any page)."""
    forms = {f"{value:.4g}", f"{value:.3g}", f"{value:.3f}", f"{value:.2f}"}
    if 0 < abs(value) < 1:
        forms |= {f"{value:.1%}", f"{value:.0%}"}
    return sorted(f for f in forms if len(f.replace("-", "")) >= 3 and f not in ("0.00", "0.000", "0%", "0.0%"))


def _figure_texts(spec: dict) -> list[str]:
    """The texts a figure shows without a hover."""
    out = []
    layout = spec.get("layout", {})

    def title(obj):
        t = (obj or {}).get("title")
        return t.get("text", "") if isinstance(t, dict) else (t or "")

    out.append(title(layout))
    out += [a.get("text", "") for a in layout.get("annotations", [])]
    out += [title(v) for k, v in layout.items() if re.fullmatch(r"[xy]axis\d*", k)]
    for trace in spec.get("data", []):
        if trace.get("showlegend", True) is not False:
            out.append(str(trace.get("name") or ""))
        for k in ("text", "texttemplate"):
            v = trace.get(k)
            out += [str(x) for x in v] if isinstance(v, list) else [str(v or "")]
    return [t for t in out if t]


def _page_texts(at) -> list[str]:
    """Every text of the page outside the questions' own containers (``pred_<key>``)."""
    texts = []

    def walk(node, inside_question: bool) -> None:
        try:
            key = str(node.key or "")
        except Exception:  # noqa: BLE001 -- an element without a key
            key = ""
        if inside_question or key.startswith("pred_"):
            return
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                walk(child, False)
            return
        kind = getattr(node, "type", "")
        if kind == "plotly_chart":
            texts.extend(_figure_texts(json.loads(node.proto.spec)))
        elif kind in ("dataframe", "table"):
            try:
                texts.append(node.value.to_string())
            except Exception:  # noqa: BLE001 -- a table AppTest cannot read back: its proto
                texts.append(str(node.proto))
        elif hasattr(node, "value") and isinstance(getattr(node, "value", None), str):
            texts.append(node.value)

    walk(at._tree, False)
    return texts


def _contains(text: str, form: str) -> bool:
    return re.search(r"(?<![\d.])" + re.escape(form) + r"(?!\d)", text) is not None


@pytest.mark.parametrize("key", PAGES)
def test_no_answer_in_view_before_the_commit(key):
    at = open_page(page(key).file, **LIGHTER.get(key, {}))
    no_exception(at)
    asked = at.session_state[ASKED_KEY] if ASKED_KEY in at.session_state else {}
    questions = [p for p in PREDICTIONS[key] if p.key in asked]
    assert questions, f"{key}: no question asked at the page's defaults"
    assert MUST_ASK.get(key, set()) <= set(asked), f"{key}: asks {sorted(asked)}"
    held = at.session_state[HELD_KEY] if HELD_KEY in at.session_state else set()
    texts = _page_texts(at)
    for prediction in questions:
        state = asked[prediction.key]
        answer = prediction.compute(state)
        if prediction.kind != "number":
            assert prediction.key in held, f"{prediction.key}: the page does not hold its evidence back"
            evidence = prediction.why_fields(state)
            for field in EVIDENCE.get(prediction.key, ()):
                # each seed's value as the page writes it ("+2.67"), and the whole list
                forms = [evidence[field], *evidence[field].split(" / ")]
                leaks = [x[:200] for x in texts for form in forms if _contains(x, form)]
                assert not leaks, f"{prediction.key}: its evidence {field} is in view before the commit: {leaks[:3]}"
            continue
        value = float(answer)
        assert math.isfinite(value)
        question = prediction.fields(state)
        given = " ".join(str(v) for v in question.values())  # the settings the question names
        for form in _forms(value):
            if _contains(given, form):
                continue  # the question names it itself: a setting, not the answer
            leaks = [t[:200] for t in texts if _contains(t, form)]
            assert not leaks, f"{prediction.key}: the answer {form} is in view before the commit: {leaks[:3]}"
