"""The one shape of a run page (live, dynamic sampling, MoE, mismatch): a side-by-side run kept in the
session, with its settings, Run / Stop / Continue / Reset, progress, curves and reading.

From the top, the places of a :class:`RunPage` (``st.container`` slots made when it is made, so a page
fills them in whatever order its code needs: the settings are read before the run starts, the run's
figure is drawn before the long loop that advances it, the notes before an early :func:`stop`)::

    page_top(...)                        # title, path marker, lede (RunPage(page=...) draws it)
    settings      the few main settings, one compact row (a horizontal container: draw each field into it
                  with ``st.<widget>(..., width=...)``)                        (rp.settings)
    buttons       Run / Stop / Continue / Reset and their messages  (rp.controls(...))
    figure        progress bars, status, the curves: in the first screen, the same place before,
                  during and after the run (rp.watch(...))
    reading       what this run shows, in words computed from it    (rp.reading)
    details       the other settings, in expanders                  (rp.details)
    predictions   predict, then check (below the figure: never pushes it down)  (rp.predictions)
    sections      the page's own views of the run (tables, histograms)           (rp.sections)
    notes         "How to read this" (rp.notes())
    practitioners TRL / verl names, the config export (rp.practitioners())
    downloads     CSV / JSON of the run (rp.downloads)

A page on it::

    rp = RunPage("live", run_key="live_run", flag_key="live_running",
                 buttons=("lv_run", "lv_stop", "lv_continue", "lv_reset"), page="live",
                 starting=lambda: (arms_from(state["lv_algos"]), state["lv_steps"]))
    rs = RunSettings("live", "lv_", LiveConfig(), disabled=rp.running, steps=Field(width=120),
                     lr=Field(help=True, choices=LR_CHOICES), ...)   # app_common.runsettings
    with rp.settings:
        algorithms = st.multiselect(..., disabled=rp.running)
        steps = rs.draw("steps")
    with rp.details, st.expander(..., expanded=rp.presenting):
        rs.row("lr", "temperature")
    with rp.notes():
        st.markdown(tr("live.intro"))
    rp.controls(lambda: LiveRun(config()), fields=FIELDS, settings_keys=("lv_algos", *rs.keys))
    run = rp.watch(figure_of, names=arm_names, chart_key="live-curves")   # drives a running run
    if run is None:
        stop()
    rp.read(reading_of(run))                 # under the figure: what this run shows, computed from it
    with rp.sections: ...                    # the run's own tables and views
    with rp.downloads: csv_download(...)

``figure_of(run)`` builds the curves' figure; ``figure_of(None)`` the same panels empty (before a run:
their titles, the x axis over the run's steps, a line saying what will fill them, no number invented).

The strings are the page's own, under its ``prefix``: ``<prefix>.run`` / ``.stop`` / ``.continue`` /
``.reset`` (the buttons), ``.no_run`` (under the empty figure), ``.progress`` (``{title}`` or ``{arm}``,
``{done}``, ``{total}``), ``.running``, ``.finished``, ``.stopped``, ``.stopped_arms``
(:func:`app_common.runs.show_run_status`) and ``.settings_changed``; "starting" is the shared
``run.starting``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Mapping

import streamlit as st

from app_common.charts import chart
from app_common.feedback import show_bad_input
from app_common.runs import _start_key, drive, run_active, run_controls, show_run_status
from app_common.text import tr

# In the script run that Run starts, the script pauses this long before it builds the run (loading and
# copying the model holds the interpreter for seconds): Streamlit's server thread sends the elements drawn
# so far (the bars at step 0, "starting") in that pause. Without it a browser on a busy two-core machine
# sometimes saw them only with the first step, 4-6 s after Run.
SEND_PAUSE_S = 0.3


class RunPage:
    """The places of a run page (module doc), made in page order where it is constructed.

    Args:
        prefix: the page's locale prefix (``live``: ``live.run``, ``live.progress``, ...).
        run_key: where the run lives in ``st.session_state`` (``live_run``); also the prefix of the
            slots' keys (CSS classes ``st-key-<run_key>_figure``, ...).
        flag_key: the session-state flag that says the run is advancing (``live_running``).
        buttons: the keys of the Run, Stop, Continue and Reset buttons.
        page: the page key whose :func:`app_common.template.page_top` (title, path marker, lede) is
            drawn first; ``None`` for a run further down a page (its section draws its own header).
        starting: ``() -> (arms, total)``, the arms (arm -> label) and steps of the run that Run is
            starting, read from the widgets' values in ``st.session_state`` (the widgets are drawn
            later): in the script run that Run starts, the figure area shows their progress bars at
            step 0 and "starting" first thing, before the page's many settings are sent and before the
            model is loaded, so the run moves in view at once. Without it, only "starting".
    """

    def __init__(
        self,
        prefix: str,
        *,
        run_key: str,
        flag_key: str,
        buttons: tuple[str, str, str, str],
        page: str | None = None,
        starting: Callable[[], tuple[Mapping[str, str], int]] | None = None,
    ):
        self.prefix, self.run_key, self.flag_key, self.button_keys = prefix, run_key, flag_key, buttons
        st.session_state.setdefault(flag_key, False)
        self.running = run_active(flag_key)  # True from the Run click's own script run: settings disabled
        if page is not None:
            from app_common.template import page_top

            page_top(page)
        # one row: the fields share its width (they wrap onto a second row when it is too narrow)
        self.settings = st.container(key=f"{run_key}_settings", horizontal=True, vertical_alignment="bottom")
        self.buttons = st.container(key=f"{run_key}_buttons")
        self.figure = st.container(key=f"{run_key}_figure")
        # the figure area: progress and status (head), the curves, then a line under them; the same places
        # before, during and after a run, so nothing in it moves when the run starts
        self._head = self.figure.empty()
        self._curves = self.figure.empty()
        self._foot = self.figure.empty()
        if _start_key(flag_key) in st.session_state:  # Run was pressed: say so first, before anything is read
            self._start(*(starting() if starting is not None else ({}, 1)))
        self.reading = st.container(key=f"{run_key}_reading")
        self.details = st.container(key=f"{run_key}_details")
        self.predictions = st.container(key=f"{run_key}_predictions")
        self.sections = st.container(key=f"{run_key}_sections")
        self._notes = st.container(key=f"{run_key}_notes")
        self._practitioners = st.container(key=f"{run_key}_practitioners")
        self.downloads = st.container(key=f"{run_key}_downloads", horizontal=True)

    @property
    def presenting(self) -> bool:
        """Whether the page is shown in a lesson's presenter view (:func:`app_common.predictions.presenting`):
        the expanders of settings in :attr:`details` open then, so that a control the step lists stands
        in view (the presenter hides the others)."""
        from app_common.predictions import presenting

        return presenting()

    # -- the run --------------------------------------------------------------------------------
    @property
    def run(self):
        """This session's run, or ``None`` before Run (and after Reset)."""
        return st.session_state.get(self.run_key)

    def controls(
        self,
        make_run: Callable[[], object],
        *,
        fields: Mapping[str, str],
        settings_keys: Iterable[str],
        arms: Mapping[str, str] | None = None,
        total: int | None = None,
    ) -> bool:
        """Run / Stop / Continue / Reset under the main settings (:func:`app_common.runs.run_controls`):
        ``make_run()`` builds the run from this script run's widget values when Run was pressed; a
        ``ValueError`` it raises is shown by :func:`app_common.show_bad_input` with ``fields`` (a
        parameter -> its widget's label); ``settings_keys``: every settings widget drawn with
        ``disabled=self.running``. ``arms`` (arm -> label) and ``total`` (steps), as the widgets say,
        for a page without ``starting`` (see :class:`RunPage`): the bars at step 0 are drawn here, before
        ``make_run()`` loads the model. Returns (and sets ``self.running``) whether the run is advancing."""
        if _start_key(self.flag_key) in st.session_state:  # Run was pressed: the run is built below
            if arms and not getattr(self, "_bars", None):
                self._start(arms, total or 1)
            # let the server's event loop send what is drawn: building the run holds the interpreter for seconds
            time.sleep(SEND_PAUSE_S)
        labels = tuple(tr(f"{self.prefix}.{b}") for b in ("run", "stop", "continue", "reset"))
        with self.buttons:
            self.running = run_controls(
                self.run_key,
                self.flag_key,
                make_run,
                labels=labels,
                keys=self.button_keys,
                on_error=lambda exc: show_bad_input(exc, dict(fields)),
                settings_keys=tuple(settings_keys),
            )
        return self.running

    def _start(self, arms: Mapping[str, str], total: int) -> None:
        """The figure area of a run that is starting: ``arms``' bars at step 0 of ``total``, "starting"."""
        self._draw_head(list(arms))
        self._draw_bars(dict(arms), dict.fromkeys(arms, 0), max(int(total), 1))
        self._status.info(tr("run.starting"), icon=":material/hourglass_top:")

    def _draw_head(self, arms: list[str]) -> None:
        """The head of the figure area: a row of progress bars, one per arm (``self._bars``: arm -> its
        ``st.empty``), and under it the status line (``self._status``)."""
        with self._head.container():
            self._bars = {name: col.empty() for name, col in zip(arms, st.columns(len(arms)))} if arms else {}
            self._status = st.empty()

    def _draw_bars(self, names: Mapping[str, str], progress: Mapping[str, int], total: int) -> None:
        """Each arm's bar at ``progress`` of ``total`` steps, labelled ``<prefix>.progress``."""
        for name, done in progress.items():
            label = names.get(name, name)
            text = tr(f"{self.prefix}.progress", title=label, arm=label, done=done, total=total)
            self._bars[name].progress(min(done / total, 1.0), text=text)

    def watch(
        self,
        figure: Callable[[object | None], object],
        *,
        names: Mapping[str, str],
        chart_key: str,
        changed: Callable[[object], bool] | None = None,
        no_run: str | None = None,
    ):
        """The run's figure area, in the first screen: before a run ``figure(None)`` (the panels the
        run will fill, empty) with ``no_run`` (default ``<prefix>.no_run``) under it; with a run, a row of progress bars
        (one per arm, ``names``: arm -> its label), the status line and ``figure(run)``. While the run
        advances it is driven here (:func:`app_common.runs.drive`: progress after every arm-step, the
        curves after a round at most once a second), and the page reruns when it stops. Once it is not
        advancing the status says where it stands and, when ``changed(run)`` is true (the settings in
        view differ from the run's), ``<prefix>.settings_changed`` under the figure. Returns the run
        (``None`` before Run)."""
        run, p = self.run, self.prefix
        if run is None:
            self._head.empty()
            with self._curves:
                chart(figure(None), chart_key)
            self._foot.info(no_run or tr(f"{p}.no_run"), icon=":material/play_arrow:")
            return None
        self._foot.empty()  # the line under the figure before the run ("press Run") goes at once
        total = run.config.steps
        if list(getattr(self, "_bars", {})) != list(run.arms):  # none drawn yet in this script run
            self._draw_head(list(run.arms))

        def draw_progress(progress: Mapping[str, int]) -> None:
            self._draw_bars(names, progress, total)

        def draw_curves(key: str) -> None:
            with self._curves:
                chart(figure(run), key)

        draw_progress(run.progress)  # waits for a step still in flight in a previous script run
        if self.running:
            drive(run, self.flag_key, self._status, tr(f"{p}.running"), draw_progress, draw_curves, chart_key)
        draw_curves(chart_key)
        show_run_status(run, self._status, p, dict(names))
        if changed is not None:
            try:
                differs = changed(run)
            except ValueError:  # a setting that is not a number: the run cannot be the widgets' run
                differs = True
            if differs:
                self._foot.caption(tr(f"{p}.settings_changed"))
        return run

    # -- the blocks below the figure ------------------------------------------------------------
    def read(self, text: str) -> None:
        """A paragraph of the run's reading (text computed from the run) right under its figure."""
        with self.reading:
            st.markdown(text)

    @contextlib.contextmanager
    def notes(self, label_key: str = "page.notes"):
        """The page's explanations, collapsed (:func:`app_common.template.notes`), in their place."""
        from app_common.template import notes

        with self._notes, notes(label_key):
            yield

    @contextlib.contextmanager
    def practitioners(self):
        """The block for practitioners (:func:`app_common.template.practitioners`), in its place."""
        from app_common.template import practitioners

        with self._practitioners, practitioners():
            yield
