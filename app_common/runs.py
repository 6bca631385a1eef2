"""Run controls shared by the run pages: Run / Stop / Continue / Reset, advancing a side-by-side run
step by step, its progress, status and reading."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable

import streamlit as st

from app_common.feedback import show_run_failure
from app_common.shell import server_limits
from app_common.text import _css_string, cell, lang, tr


def live_reading(summary_frame, names: dict[str, str], prefix: str, heldout_samples: int) -> str:
    """What a side-by-side run's summary shows, in the session's language: the arms the collapse flag
    marked (:func:`collapse_reading`), then, with held-out samples, whether the arms' final held-out
    pass@1 lie apart beyond two standard errors (:func:`apart_reading`). ``names``: arm -> its label."""
    from rlviz.i18n import SENTENCE_SEPARATOR

    parts = [collapse_reading(summary_frame, names, prefix), apart_reading(summary_frame, prefix, heldout_samples)]
    return SENTENCE_SEPARATOR[lang()].join(part for part in parts if part)


def collapse_reading(summary_frame, names: dict[str, str], prefix: str) -> str:
    """The arms a run's collapse flag marked, with the step (``<prefix>.read_live_collapse`` /
    ``.read_live_arm_step``), or ``<prefix>.read_live_no_collapse``."""
    from rlviz.i18n import LIST_SEPARATOR

    collapsed = [
        tr(f"{prefix}.read_live_arm_step", arm=names.get(a, a), step=int(v))
        for a, v in zip(summary_frame["arm"], summary_frame["collapse_step"])
        if math.isfinite(v)
    ]
    if collapsed:
        return tr(f"{prefix}.read_live_collapse", arms=LIST_SEPARATOR[lang()].join(collapsed))
    return tr(f"{prefix}.read_live_no_collapse")


def apart_reading(summary_frame, prefix: str, heldout_samples: int) -> str:
    """Whether the arms' final held-out pass@1 lie apart beyond two standard errors
    (``<prefix>.read_live_apart`` with ``.live_verdict.separates`` / ``.noise``;
    ``rlviz.experiments.moe.arms_apart``); "" with fewer than two arms measured."""
    from rlviz.experiments.moe import arms_apart
    from rlviz.lm.task import HELDOUT_SIZE

    samples = HELDOUT_SIZE * heldout_samples
    apart = arms_apart(list(summary_frame["heldout_pass_at_1_end"]), samples)
    if apart is None:
        return ""
    low, high, two_se = apart
    verdict = tr(f"{prefix}.live_verdict.separates" if high - low > two_se else f"{prefix}.live_verdict.noise")
    return tr(
        f"{prefix}.read_live_apart", low=cell(low), high=cell(high), n=samples, two_se=cell(two_se), verdict=verdict
    )


RUN_SIZE_LIMITS = {"steps": "max_steps", "prompts": "max_prompts_per_step", "group_size": "max_group_size"}


def run_size_input(where, size: str, label: str, low: int, default: int, **kwargs) -> int:
    """``where.number_input`` for a live run's ``size`` ("steps", "prompts" or "group_size") from ``low``
    to this server's limit (:func:`server_limits`, :data:`RUN_SIZE_LIMITS`), so a field never offers
    what the server refuses; the default is held inside, and a limit below ``low`` (an operator's
    ``RLVIZ_*``) leaves the field at ``low`` rather than making Streamlit refuse it. ``kwargs`` are
    ``number_input``'s (key, help, bind, disabled)."""
    high = max(low, int(getattr(server_limits(), RUN_SIZE_LIMITS[size])))
    return where.number_input(label, low, high, min(max(int(default), low), high), **kwargs)


def run_active(flag_key: str) -> bool:
    """Whether this session's step-wise run behind ``flag_key`` is advancing. True from the very
    script run that the Run click starts (the click's callback sets the flag before the script
    runs), so the settings widgets above the controls render disabled from the first moment."""
    return bool(st.session_state.get(flag_key))


def stop_requested(flag_key: str) -> bool:
    """Whether Stop was pressed and the run is finishing the round in progress."""
    return bool(st.session_state.get(_stop_key(flag_key)))


def _error_key(flag_key: str) -> str:
    return f"{flag_key}__error"


def _start_key(flag_key: str) -> str:
    return f"{flag_key}__start"


def _bad_start_key(flag_key: str) -> str:
    return f"{flag_key}__bad_start"


def _stop_key(flag_key: str) -> str:
    return f"{flag_key}__stop"


def run_controls(
    run_key: str,
    flag_key: str,
    make_run,
    labels: tuple[str, str, str, str],
    keys: tuple[str, str, str, str],
    on_error,
    settings_keys: Iterable[str] = (),
) -> bool:
    """Run / Stop / Continue / Reset for a step-wise experiment kept in this session.

    The run object lives in ``st.session_state[run_key]`` (never cached across sessions); it must
    have a ``done`` property. ``st.session_state[flag_key]`` says whether the page keeps advancing it
    (see :func:`advance`). Every button acts in its ``on_click`` callback, before the script runs:
    Run sets the flag (so the widgets above, drawn with ``disabled=run_active(flag_key)``, are
    disabled in that same script run) and asks for a new run, which ``make_run()`` builds here from
    this script run's widget values. A ``ValueError`` it raises goes to ``on_error(exc)`` (a message
    in the page) after a rerun that draws the widgets enabled again; any other error is shown as a
    failed run (:func:`show_run_failure`). Stop asks :func:`advance` to stop once every arm has
    finished the round in progress (the run stays level: every arm at the same step), Continue
    sets the flag again, Reset drops the run; nothing done is lost. ``labels`` and ``keys`` are those of the
    Run, Stop, Continue and Reset buttons. Returns whether the run is advancing after this call.

    ``settings_keys``: the keys of the settings widgets drawn with ``disabled=run_active(...)``.
    Streamlit drops a value that arrives for a widget drawn disabled, so a value typed and sent
    together with the Run click (a field still being edited when Run is pressed) would be lost; the
    Run callback re-assigns these widgets' values as they arrived, which Streamlit keeps.
    """
    state = st.session_state
    error_key, start_key, bad_start_key = _error_key(flag_key), _start_key(flag_key), _bad_start_key(flag_key)
    stop_key = _stop_key(flag_key)

    def _run() -> None:
        for key in settings_keys:
            if key in state:
                state[key] = state[key]  # keep the value sent with the click (see above)
        state[flag_key] = True
        state[start_key] = True
        state.pop(error_key, None)
        state.pop(stop_key, None)

    def _stop() -> None:
        state[stop_key] = True  # advance() finishes the round in progress, then stops

    def _continue() -> None:
        state[flag_key] = run_key in state
        state.pop(error_key, None)
        state.pop(stop_key, None)

    def _reset() -> None:
        if state.get(flag_key) and run_key in state:
            return  # a click on a button left from before the run started: never drop a running run
        state.pop(run_key, None)
        state.pop(error_key, None)
        state.pop(stop_key, None)
        state[flag_key] = False

    if state.pop(start_key, False):
        try:
            state[run_key] = make_run()
        except Exception as exc:  # noqa: BLE001 -- the page boundary: a message, never a traceback
            state[flag_key] = False
            state[bad_start_key] = exc
            st.rerun()  # draw the settings enabled again, with the message below them
    running = bool(state.get(flag_key)) and run_key in state
    if state.get(flag_key) and not running:
        state[flag_key] = False  # a flag left without a run (e.g. Reset in another tab)
    run_label, stop_label, continue_label, reset_label = labels
    run_btn, stop_btn, continue_btn, reset_btn = keys
    controls = st.container(horizontal=True)
    controls.button(
        run_label, type="primary", key=run_btn, disabled=running, on_click=_run, icon=":material/play_arrow:"
    )
    # The four buttons are drawn in every script run, in the same places, enabled or not: a button
    # drawn only in some runs would stay on screen (faded but clickable) from the previous run while a
    # long run keeps this script busy, e.g. a Reset that would drop the run in progress.
    has_run = run_key in state
    controls.button(
        stop_label,
        key=stop_btn,
        on_click=_stop,
        icon=":material/stop:",
        disabled=not running or bool(state.get(stop_key)),  # disabled once pressed: the round finishes
    )
    controls.button(
        continue_label,
        key=continue_btn,
        on_click=_continue,
        icon=":material/resume:",
        disabled=running or not has_run or state[run_key].done,
    )
    controls.button(
        reset_label, key=reset_btn, on_click=_reset, icon=":material/delete:", disabled=running or not has_run
    )
    css = _invalid_field_css(settings_keys, (run_btn, continue_btn), tr("run.fix_field"))
    if css:
        st.html(css)
    bad_start = state.pop(bad_start_key, None)
    if isinstance(bad_start, ValueError):
        on_error(bad_start)  # a bad setting: the run never started
    elif bad_start is not None:
        show_run_failure(bad_start)  # e.g. the model could not be loaded
    error = state.get(error_key)
    if error is not None and not running:
        show_run_failure(error)  # kept until Run, Continue or Reset, and redrawn in the current language
    return running


def _invalid_field_css(settings_keys: Iterable[str], buttons: tuple[str, ...], message: str) -> str:
    """A style rule that hides the ``buttons`` (Run, Continue) and shows ``message`` in Run's place while a
    number field among ``settings_keys`` holds a value out of its range. The browser never sends such a
    value (it outlines the field in red and keeps the last valid one), so the server cannot see it:
    without this, a field reading 0 steps beside an enabled Run started a run with the old value."""
    from rlviz.plots.lessons import css_class  # lv_grpo.epsilon_high -> st-key-lv_grpo-epsilon_high

    fields = ", ".join(f'.{css_class(key)} input[aria-invalid="true"]' for key in settings_keys)
    if not fields:
        return ""
    main = f"[data-testid=stMain]:has({fields})"
    hide = ", ".join(f"{main} .{css_class(key)} button" for key in buttons)
    return (
        f"<style>{hide} {{ display: none; }} "
        f"{main} .{css_class(buttons[0])}::after {{ content: {_css_string(message)}; "
        "color: var(--st-red-color, #d6293e); }</style>"
    )


def advance(run, flag_key: str, on_progress, on_wait=None) -> None:
    """Advance ``run`` while ``st.session_state[flag_key]`` is set, as many arms at once as the server
    computes steps at once (``rlviz.serving.STEPS.capacity``, each arm in a thread with its own turn
    in the queue: a lone session uses every core it is allowed, a busy server shares them in turn).

    ``run`` is a :class:`rlviz.experiments.runner.SideBySideRun` (its ``step_parallel`` holds the run's
    lock, so a second script run started by a rerun, e.g. a language switch, waits for the steps in
    flight instead of starting another on the same model). ``on_progress()`` draws progress after
    each batch of arm-steps; its Streamlit calls are where a rerun (a widget change, a language switch, a page
    switch, Stop) ends this script run, always between two arm-steps; the next script run on the
    page picks the run up where it is (the flag is still set). After Stop it steps on only until
    every arm has finished the round in progress. At the end the flag is cleared and the page reruns
    to draw the results; an error clears the flag and reruns, and :func:`run_controls` shows it in
    words (:func:`show_run_failure`) until Run, Continue or Reset, with every step done so far kept
    (Continue retries). A run that is done frees its models (``run.release()``: its results stay,
    shown and downloadable); a stopped one keeps them, so it can continue, until Reset or the end of
    the session. Each arm-step waits for its turn in the server's step queue
    (``rlviz.serving.STEPS``); ``on_wait(ahead)`` says the place in line while it waits.
    """
    from rlviz import serving

    state = st.session_state
    stop_key = _stop_key(flag_key)
    try:
        while state.get(flag_key) and not (state.get(stop_key) and run.level):
            if run.step_parallel(serving.STEPS.capacity, on_wait=on_wait) is None:
                break
            on_progress()
    except Exception as exc:  # noqa: BLE001 -- the page boundary: a message, never a traceback
        state[flag_key] = False
        state.pop(stop_key, None)
        state[_error_key(flag_key)] = exc
        st.rerun()  # redraw with the controls of a stopped run and the message (run_controls)
    if run.done:
        run.release()  # every result stays; the models, optimizers and reference are freed now
    state[flag_key] = False
    state.pop(stop_key, None)
    st.rerun()


# While a run goes its curves are redrawn after a round at most once a second: each redraw mounts a new
# chart in the browser. Measured in headless chromium on this machine (20 steps of two arms, one prompt
# x G 4, about 0.3 s a round): the browser's long tasks took 5.4-5.9 s of the run against 8.4 s with a
# redraw every round, and the run ended in 8.0-8.4 s against 9.7-9.8 s.
CURVES_EVERY_S = 1.0


def drive(run, flag_key: str, status, running_text: str, draw_progress, draw_curves, chart_key: str) -> None:
    """The script run of a page whose side-by-side ``run`` is active: say so in ``status`` (or that it
    is stopping), draw the curves, then :func:`advance` it one arm-step at a time, drawing
    ``draw_progress(progress)`` after each and ``draw_curves(key)`` after a full round once
    ``CURVES_EVERY_S`` have passed since the last drawing (a fresh ``<chart_key>-<steps done>`` key per
    redraw: the chart is redrawn several times in one script run; the page draws them once more when
    the run stops). Reruns when done; an error is shown by :func:`run_controls`."""
    status.info(tr("run.stopping") if stop_requested(flag_key) else running_text)
    draw_curves(f"{chart_key}-{sum(run.progress.values())}")
    drawn = [time.monotonic()]

    def on_progress() -> None:
        progress = run.progress
        draw_progress(progress)
        if len(set(progress.values())) == 1 and time.monotonic() - drawn[0] >= CURVES_EVERY_S:
            drawn[0] = time.monotonic()  # a round done (every arm at the same step), and time to redraw
            draw_curves(f"{chart_key}-{sum(progress.values())}")

    def on_wait(ahead: int) -> None:
        status.info(tr("run.queued", ahead=ahead))

    advance(run, flag_key, on_progress, on_wait)


def show_run_status(run, status, prefix: str, names: dict[str, str]) -> None:
    """Say in ``status`` (an ``st.empty``) where a side-by-side ``run`` stands once it is not stepping:
    ``<prefix>.finished`` when done, ``<prefix>.stopped`` when every arm is at the same step, else
    ``<prefix>.stopped_arms`` naming each arm (``names``: arm -> its label) with its step."""
    progress, total = run.progress, run.config.steps
    if run.done:
        status.success(tr(f"{prefix}.finished", total=total))
    elif len(set(progress.values())) == 1:
        status.warning(tr(f"{prefix}.stopped", done=min(progress.values()), total=total))
    else:  # stopped between two arms of a round: say where each is
        steps_text = ", ".join(f"{names.get(name, name)} {done}" for name, done in progress.items())
        status.warning(tr(f"{prefix}.stopped_arms", steps=steps_text, total=total))
