"""Symptom to cause: pick what you see in training; get the likely causes, the knob to try, a link
that opens the live page with settings that reproduce it, whether they did on the shipped model
(measured by ``benchmarks/symptoms.py``), and the same detectors run on this session's live run.

Widgets -> ``rlviz.experiments.symptoms`` (the symptoms, their detectors and measurements) ->
``rlviz.plots.symptoms`` (the measured metric per step).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    lang,
    seed_choice_from_url,
    show_bad_input,
    tr,
    write_choice_to_url,
)
from app_common.template import notes, page_top, practitioners
from rlviz.app_pages import page
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments.symptoms import (
    BASELINE_ALGORITHM,
    SYMPTOMS,
    THRESHOLDS,
    baseline_label,
    detect,
    found_by_other,
    knob_names,
    load_measured,
    reproduce_query,
    settings_signature,
    settings_text,
    symptom,
)
from rlviz.i18n import FULL_STOP, LIST_SEPARATOR, STRINGS
from rlviz.plots.symptoms import measured_figure

ensure_shell()
L = lang()
state = st.session_state

page_top("symptoms")
# the choice beside the figure it drives: the symptom's words on the left, its measured run on the right
left, right = st.columns([1, 1], gap="medium")

keys = [s.key for s in SYMPTOMS]
# the URL carries the symptom's key, the same in both languages (a bound widget writes its label: a
# link copied in Chinese named no symptom in English)
seed_choice_from_url("sy_symptom", keys, keys[0])
if state.get("sy_symptom") not in keys:  # a click on the chosen one clears it: keep the last one
    state["sy_symptom"] = state.get("sy_last", keys[0])
chosen = left.segmented_control(
    tr("symptoms.pick"),
    keys,
    format_func=lambda k: tr(f"symptoms.{k}.title"),
    key="sy_symptom",
    wrap=True,  # onto several rows in half a page (in a column it would run off its edge at 1024 px)
)
chosen = chosen if chosen in keys else state.get("sy_last", keys[0])
state["sy_last"] = chosen
write_choice_to_url("sy_symptom", keys[0])
s = symptom(chosen)


def _evidence(key: str, value: float, present: bool = False) -> str:
    """The detector's number against its threshold; for a symptom found by its second criterion
    alone (``found_by_other``: length runaway, half the responses at the limit), the sentence
    ``symptoms.<key>.other`` saying so (the number alone read as a contradiction)."""
    name = symptom(key).threshold
    threshold = f"{THRESHOLDS[name]:g}" if name else ""
    text = tr(f"symptoms.{key}.evidence", value=f"{value:.3g}", threshold=threshold)
    if found_by_other(key, present, value):
        text += " " + tr(f"symptoms.{key}.other", threshold=threshold)
    return text


def _knob_rows(names) -> pd.DataFrame:
    """Each knob with its TRL and verl names (``knob_names``; "–" where a framework has none)."""
    rows = []
    for name in names:
        trl, verl = knob_names(name)
        rows.append(
            {
                tr("symptoms.knob_setting"): name,
                tr("symptoms.knob_trl"): trl or "–",
                tr("symptoms.knob_verl"): verl or "–",
            }
        )
    return pd.DataFrame(rows)


with left:
    stop = FULL_STOP[L].rstrip()  # "." or "。" after the title, in bold with it
    st.markdown(f"**{tr(f'symptoms.{chosen}.title')}{stop}** {tr(f'symptoms.{chosen}.what')}")
    st.markdown(f"#### {tr('symptoms.causes')}")
    st.markdown(tr(f"symptoms.{chosen}.causes"))
    st.markdown(f"#### {tr('symptoms.knobs')}")
    # the settings by their names on the live page; their TRL and verl names are in the practitioners' block
    st.markdown(LIST_SEPARATOR[L].join(f"`{name}`" for name in s.knobs))
    target = page(s.page)
    if s.settings:  # by the live page's labels: the task's label, the algorithms' titles (never their keys)
        st.caption(tr("symptoms.settings", settings=settings_text(chosen, L)))
    else:
        st.caption(tr("symptoms.moe_settings"))
    st.page_link(
        target.file,
        label=tr("symptoms.reproduce", page=tr(f"nav.{target.key}")),
        icon=target.icon,
        query_params=reproduce_query(chosen) | ({"lang": L} if L != "en" else {}),
    )

with right:
    try:
        measured = load_measured()
    except ValueError as exc:
        show_bad_input(exc)
        measured = {}
    entry = measured.get("symptoms", {}).get(chosen)
    if not entry:
        st.info(tr("symptoms.not_measured"))
    else:
        meta = measured.get("meta", {})
        if entry.get("settings") != settings_signature(chosen):
            st.warning(tr("symptoms.stale"))
        # the metric by its name on the run pages (metric.<key>, or the MoE page's moe.metric.<key>)
        metric = next((tr(k) for k in (f"metric.{s.metric}", f"moe.metric.{s.metric}") if k in STRINGS), s.metric)
        # the baseline by what the entry records it ran (algorithm, task, steps), never "the live page's
        # defaults" (4 algorithms x 30 steps on reversed addition); the MoE entry's dense control draws no line
        try:
            baseline = baseline_label(entry, L) if s.page == "live" else ""
        except ValueError as exc:
            show_bad_input(exc)
            baseline = ""
        labels = {
            "x": tr("symptoms.moe_fig_x" if s.page == "moe" else "symptoms.fig_x"),
            "y": metric,
            "reproduced": tr("symptoms.fig_reproduced"),
            "baseline": baseline,
        }
        # the figure's title under it, as a caption: half a page at 1024 px cut it inside the figure
        chart(measured_figure(entry, labels), key=f"sy_fig_{chosen}")
        st.caption(tr("symptoms.fig_title", metric=metric))
        found = "symptoms.measured_yes" if entry["present"] else "symptoms.measured_no"
        text = tr(
            found,
            date=entry.get("date", meta.get("date", "?")),  # an entry remeasured alone keeps its own
            seed=entry.get("seed", meta.get("seed", "?")),
            steps=entry.get("steps", "?"),
            evidence=_evidence(chosen, entry["evidence"], entry["present"]),
        )
        if baseline:
            base = "symptoms.baseline_yes" if entry["baseline_present"] else "symptoms.baseline_no"
            text += " " + tr(base, baseline=baseline, value=f"{entry['baseline_evidence']:.3g}")
        (st.success if entry["present"] else st.warning)(text)

with notes(key="sy_notes"):
    st.markdown(tr("symptoms.intro", baseline=ALGORITHMS[BASELINE_ALGORITHM].title))
with practitioners(key="sy_practitioners"):
    st.markdown(f"**{tr('symptoms.knobs')}**")
    # a table wraps its cells: verl's long names (actor_rollout_ref.actor.kl_loss_coef) show whole
    st.table(_knob_rows(s.knobs), hide_index=True, border="horizontal")
    st.caption(tr("symptoms.knob_note"))

# ------------------------------------------------------------------------------ your own live run
st.subheader(tr("symptoms.yours"))
run = state.get("live_run")
frame = run.metrics_frame() if run is not None else None
if frame is None or frame.empty:
    st.info(tr("symptoms.yours_none"))
    st.page_link(page("live").file, label=tr("nav.live"), icon=page("live").icon)
else:
    st.caption(tr("symptoms.yours_intro", steps=int(frame["step"].max())))
    try:
        found = detect(frame)
    except ValueError as exc:
        show_bad_input(exc)
    else:
        yes, no = tr("symptoms.yes"), tr("symptoms.no")
        table = pd.DataFrame(
            {
                tr("symptoms.col_arm"): [ALGORITHMS[a].title if a in ALGORITHMS else a for a in found["arm"]],
                tr("symptoms.col_symptom"): [tr(f"symptoms.{k}.title") for k in found["symptom"]],
                tr("symptoms.col_present"): [yes if p else no for p in found["present"]],
                tr("symptoms.col_evidence"): [f"{v:.3g}" if pd.notna(v) else "–" for v in found["evidence"]],
            }
        )
        st.dataframe(table, hide_index=True, width="stretch")
        csv_download(found, "symptoms-check", key="sy_dl", label=tr("symptoms.download"))
