"""The Streamlit side of rlviz, shared by app.py and the pages: one module per concern.

- :mod:`app_common.shell`: what every script run does first, the server's options and limits;
- :mod:`app_common.text`: the session's language, translated words, numbers as text, safe Markdown;
- :mod:`app_common.template`: the one shape of every page (title, lede, figure, notes, practitioners);
- :mod:`app_common.charts`: cached figure specs, ``chart``, CSV downloads;
- :mod:`app_common.urlstate`: URL state and the check of every URL parameter;
- :mod:`app_common.runs`: the run pages' controls, progress and status;
- :mod:`app_common.runpage`: the one shape of a run page (its places, Run / Stop / Continue / Reset, the figure);
- :mod:`app_common.runsettings`: the settings every run page shares, drawn from one description;
- :mod:`app_common.feedback`: messages about bad input and failed runs;
- :mod:`app_common.predictions`: predict, then reveal;
- :mod:`app_common.export`: the "Export to TRL / verl" expander;
- :mod:`app_common.presenter`: a lesson's presenter view;
- :mod:`app_common.parts`: one module per page for what is bound to Streamlit but is not the page's widgets
  and layout (its cached results and figures, widget helpers its sections share, its callbacks).

Pages import from the package (``from app_common import chart, tr``); each name lives in one module.
"""

from __future__ import annotations

from app_common.charts import (
    CHART_ID,
    IMAGE_FORMATS,
    MODEBAR_REMOVED,
    as_figure,
    chart,
    csv_download,
    figure_cache,
    settings_hash,
)
from app_common.export import export_config, export_configs
from app_common.feedback import describe_failure, show_bad_input, show_run_failure
from app_common.keys import ANSWERED_KEY, ASKING_KEY, GO_KEY, RESYNC_KEY, SHOWN_STEP_KEY
from app_common.predictions import predict
from app_common.presenter import LESSONS_PAGE_FILE, go_to_step, present_lesson
from app_common.runs import (
    CURVES_EVERY_S,
    RUN_SIZE_LIMITS,
    advance,
    drive,
    live_reading,
    run_active,
    run_controls,
    run_size_input,
    show_run_status,
    stop_requested,
)
from app_common.shell import (
    ServerOptions,
    ensure_shell,
    expire_closed_sessions,
    fragment,
    input_hints_css,
    memoize_function_keys,
    server_limits,
    server_options,
    show_server_limits,
    with_torch_threads,
)
from app_common.text import WORD_JOINER, cell, escape_markdown, formula, labels, lang, num, pct, tr
from app_common.urlstate import (
    MAX_URL_VALUE_CHARS,
    MAX_URL_VALUES,
    SHELL_URL_KEYS,
    note_url_param,
    report_url_params,
    seed_choice_from_url,
    seed_choices_from_url,
    start_url_check,
    stop,
    write_choice_to_url,
    write_choices_to_url,
)

__all__ = [
    "ANSWERED_KEY",
    "ASKING_KEY",
    "CHART_ID",
    "CURVES_EVERY_S",
    "GO_KEY",
    "IMAGE_FORMATS",
    "LESSONS_PAGE_FILE",
    "MAX_URL_VALUES",
    "MAX_URL_VALUE_CHARS",
    "MODEBAR_REMOVED",
    "RESYNC_KEY",
    "RUN_SIZE_LIMITS",
    "SHELL_URL_KEYS",
    "SHOWN_STEP_KEY",
    "WORD_JOINER",
    "ServerOptions",
    "advance",
    "as_figure",
    "cell",
    "chart",
    "csv_download",
    "describe_failure",
    "drive",
    "ensure_shell",
    "escape_markdown",
    "expire_closed_sessions",
    "export_config",
    "export_configs",
    "figure_cache",
    "formula",
    "fragment",
    "go_to_step",
    "input_hints_css",
    "labels",
    "lang",
    "live_reading",
    "memoize_function_keys",
    "note_url_param",
    "num",
    "pct",
    "predict",
    "present_lesson",
    "report_url_params",
    "run_active",
    "run_controls",
    "run_size_input",
    "seed_choice_from_url",
    "seed_choices_from_url",
    "server_limits",
    "server_options",
    "settings_hash",
    "show_bad_input",
    "show_run_failure",
    "show_run_status",
    "show_server_limits",
    "start_url_check",
    "stop",
    "stop_requested",
    "tr",
    "with_torch_threads",
    "write_choice_to_url",
    "write_choices_to_url",
]
