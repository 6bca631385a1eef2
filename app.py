"""rlviz: the Streamlit entry point (``streamlit run app.py`` / ``make run``).

Shared controls live here (language, seed, device); each page is one file under ``pages/``.
Streamlit quirk: while a ``pages/`` folder exists, the first session of a freshly started server
that opens a deep link (``/live``) runs that page file directly, as an old-style multipage app,
until ``st.navigation`` has been called once in the process. Every page therefore starts with
``app_common.ensure_shell()`` (and so does this file), which re-runs such a session through
this file and ``st.navigation``. The URL parameters are checked around the page's run
(``ensure_shell(app=True)`` before any widget, ``report_url_params()`` after the page): a value
a widget cannot take falls back to its default with a note naming the parameter.
Server-start options, never typed in the browser:

    RLVIZ_MODEL_DIR=/path/to/hf-model RLVIZ_DEVICE=cuda make run
    streamlit run app.py -- --model-dir /path/to/hf-model --device cuda
"""

from __future__ import annotations

from rlviz.serving import default_thread_env

# Before anything imports torch: every thread of the server starts with the server's torch threads
# (OpenMP keeps a count per thread; a fragment's rerun runs in a new thread). See rlviz.serving.
default_thread_env()

from pathlib import Path  # noqa: E402

import streamlit as st  # noqa: E402

from app_common import (  # noqa: E402
    IMAGE_FORMATS,
    ensure_shell,
    escape_markdown,
    input_hints_css,
    note_url_param,
    present_lesson,
    report_url_params,
    server_limits,
    server_options,
    show_server_limits,
    tr,
)
from app_common.template import GLOSSARY_CSS, glossary_list  # noqa: E402
from rlviz.app_pages import PAGES, SECTIONS  # noqa: E402
from rlviz.device import available_devices, pick_device  # noqa: E402
from rlviz.i18n import DEFAULT_LANG, LANGS  # noqa: E402

FAVICON = Path(__file__).resolve().parent / "assets" / "favicon.png"

ensure_shell(app=True)  # also checks the URL parameters before any widget is drawn
# The favicon is a file in the repository: a Material icon as page_icon would be fetched from the
# internet by the browser, and the app must work offline.
st.set_page_config(page_title="rlviz", page_icon=str(FAVICON), layout="wide")

# A formula wider than its column scrolls instead of being cut off; on a narrow window (a projector,
# a laptop with the sidebar open) a column that would get narrower than 200 px wraps onto its own
# row, so a formula column moves under its figure instead of being squeezed beside it.
st.html(
    "<style>.katex-display{overflow-x:auto;overflow-y:hidden}.katex-display>.katex{padding:0 0.2em}"
    "[data-testid=stHorizontalBlock]{flex-wrap:wrap}"
    "[data-testid=stColumn]{min-width:min(200px,100%)}"
    "[data-testid=stTable] td,[data-testid=stTable] th{overflow-wrap:anywhere}"
    # Streamlit's own "Stop" in the header ends the script run, not a training run: a live run then
    # read "Training..." with nothing computing until the next click resumed it (found by a teacher,
    # who took it for the page's Stop). The run pages' Stop is the one to press.
    "[data-testid=stStatusWidget] [data-testid=stBaseButton-header]{display:none}</style>"
)

options = server_options()
st.session_state["model_dir"] = options.model_dir
server_limits()  # installed once per process: run limits, the step queue, torch threads

# The language lives in ?lang=zh|en (kept in sync by hand rather than with bind=, so the URL
# carries the language code and a language taken from the URL on a first visit stays in it).
if "lang" not in st.session_state:
    url_lang = st.query_params.get_all("lang")
    if url_lang and (len(url_lang) > 1 or url_lang[0] not in LANGS):
        note_url_param("lang", "repeated" if len(url_lang) > 1 else "invalid")
    st.session_state["lang"] = url_lang[0] if len(url_lang) == 1 and url_lang[0] in LANGS else DEFAULT_LANG

with st.sidebar:
    # The language switch comes first; it is bound to ?lang= so a shared link keeps the language.
    st.radio("Language / 语言", list(LANGS), format_func=LANGS.get, horizontal=True, key="lang")
    if st.session_state["lang"] == DEFAULT_LANG:
        st.query_params.pop("lang", None)
    else:
        st.query_params["lang"] = st.session_state["lang"]
    hints = input_hints_css(st.session_state["lang"])  # Streamlit's key hints, in English only
    if hints:
        st.html(hints)
    st.number_input(
        tr("side.seed"),
        min_value=0,
        max_value=2**31 - 1,
        value=0,
        step=1,
        key="seed",
        help=tr("side.seed_help"),
        bind="query-params",
    )
    devices = ["auto", *available_devices()]
    default_device = options.device
    if default_device not in devices:
        try:
            default_device = str(pick_device(default_device))
        except ValueError as exc:
            st.warning(tr("side.server_device_bad", value=options.device, error=exc))
            default_device = "auto"
        if default_device not in devices:
            devices.append(default_device)  # e.g. "cuda:1"
    best = available_devices()[0]
    st.selectbox(
        tr("side.device"),
        devices,
        index=devices.index(default_device),
        format_func={d: tr("side.device_auto", best=best) if d == "auto" else d for d in devices}.get,
        key="device",
        help=tr("side.device_help"),
        bind="query-params",
    )
    st.radio(
        tr("side.image_format"),
        IMAGE_FORMATS,
        format_func=str.upper,
        horizontal=True,
        key="img_format",
        help=tr("side.image_format_help"),
    )
    # the directory's name only: a path on the server is never shown in the browser
    model_name = escape_markdown(Path(options.model_dir).name) if options.model_dir else tr("side.model_tiny")
    st.caption(tr("side.model", model=model_name), help=tr("side.model_help"))
    with st.popover(tr("glossary.header"), icon=":material/dictionary:", help=tr("glossary.help")):
        glossary_list()
    show_server_limits()
st.html(GLOSSARY_CSS)  # the glossary's terms in the pages' text: dotted underline, hover help

# the sidebar's sections, in the page table's order (rlviz.app_pages.SECTIONS)
pages = {
    tr(f"nav.section.{section}"): [
        st.Page(p.file, title=tr(f"nav.{p.key}"), icon=p.icon, url_path=p.url_path or None, default=p.is_home)
        for p in PAGES
        if p.section == section
    ]
    for section in SECTIONS
}
# every page listed: folded, the list ends in Streamlit's own "View N more" button, which stays in
# English on a Chinese page
navigation = st.navigation(pages, position="sidebar", expanded=True)
present_lesson(navigation.url_path)  # a lesson's presenter view, when the URL asks for one
navigation.run()
report_url_params()  # URL parameters the page's widgets did not take: a note at the top of the page
