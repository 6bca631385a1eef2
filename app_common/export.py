"""The "Export to TRL / verl" expander of a page."""

from __future__ import annotations

import streamlit as st

from app_common.feedback import show_bad_input
from app_common.text import lang, tr


def export_config(
    name: str, loss_overrides=None, train_overrides=None, train_config=None, key: str = "export", fields=None
) -> None:
    """The "Export to TRL / verl" expander for one objective (``rlviz.teach.export.export_config``'s
    arguments): see :func:`export_configs`."""
    from rlviz.core.objectives import ALGORITHMS

    title = ALGORITHMS[name].title if name in ALGORITHMS else name
    export_configs({title: (name, loss_overrides, train_overrides, train_config)}, key=key, fields=fields)


def export_configs(items, key: str = "export", fields: dict[str, str] | None = None) -> None:
    """The "Export to TRL / verl" expander of a page: for each entry of ``items`` (label ->
    ``(name, loss_overrides, train_overrides, train_config)``, or a function returning that mapping,
    called here so that a bad value in the page's widgets becomes a message in the expander) the TRL
    ``GRPOConfig`` snippet and the verl overrides in ``st.code`` blocks (each has a copy button), the
    notes that apply in the session's language and the settings with no equivalent; one tab per entry
    when there are several. ``key`` names the expander's container (one per page) and, with
    ``_open``, its open state; ``fields`` maps a parameter to its widget's label, for the message
    about a bad value (:func:`show_bad_input`).

    The contents are built only while the expander is open (opening it reruns the page): closed, a
    Streamlit expander still sends its contents, and the browser highlighted every code block of it
    (on the curves page, 14 blocks and about 0.4 s of the page's first draw)."""
    from rlviz.teach.export import export_config as _export

    box = st.expander(tr("export.title"), icon=":material/output:", key=f"{key}_open", on_change="rerun")
    with box, st.container(key=key):
        if not box.open:
            return
        st.caption(tr("export.caption"))
        try:
            exports = {label: _export(*args) for label, args in (items() if callable(items) else items).items()}
        except ValueError as exc:
            show_bad_input(exc, fields)
            return
        tabs = st.tabs(list(exports)) if len(exports) > 1 else [st.container() for _ in exports]
        for tab, exported in zip(tabs, exports.values()):
            with tab:
                _show_export(exported)


def _show_export(exported) -> None:
    """One objective's export: the two code blocks, then the notes and what has no equivalent."""
    from rlviz.i18n import LIST_SEPARATOR

    names = {"trl": "TRL", "verl": "verl"}
    st.markdown(tr("export.trl_header"))
    st.code(exported.to_trl_python(), language="python")
    st.markdown(tr("export.verl_header"))
    st.code(exported.to_verl_cli(), language="bash")
    st.markdown(f"**{tr('export.notes_header')}**")
    notes = [f"- **{names[n['framework']]}** · {n[lang()]}" for n in exported.notes]
    st.markdown("\n".join(notes) if notes else tr("export.no_notes"))
    for fw, missing in exported.unmapped.items():
        listed = LIST_SEPARATOR[lang()].join(f"`{k} = {v}`" for k, v in missing.items())
        st.caption(tr("export.unmapped", framework=names[fw], names=listed))
