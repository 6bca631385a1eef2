"""One server, many sessions: the shared-server limits and the queue of training steps.

A teacher serves one process to a class. Streamlit runs every session's script in a thread of that
process, so three things are shared and set here, once, when the server starts:

- :class:`ServerLimits`: the largest run a session may ask for (steps, prompts per step, G, updates per
  step, arms, model size), how many training steps the server computes at once, and torch's threads.
  ``RLVIZ_MAX_*`` environment variables override the defaults (:meth:`ServerLimits.from_env`);
  :func:`configure` installs them for the process (the app does it at start; the CLI and the
  benchmarks install none, so they are unlimited).
- :data:`STEPS`: a first-come, first-served queue of training steps (:class:`StepQueue`). A live
  run takes a turn for each arm-step, so at most ``concurrent_steps`` steps compute at once whatever the
  number of sessions, the explorer pages keep CPU, and a waiting session is told its place in line.
- torch's intra-op threads: ``torch_threads`` per step, so a few runs cannot starve the rest of the
  server. torch keeps the number for the process, but OpenMP and MKL keep theirs per thread: each
  thread that computes takes it (:func:`match_torch_threads`, :func:`default_thread_env`).

No Streamlit here: the app shows the limits and the queue position with these values.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = [
    "STEPS",
    "ServerLimits",
    "StepQueue",
    "check_run",
    "configure",
    "default_thread_env",
    "limits",
    "match_torch_threads",
    "request_trim",
    "run_niced",
    "trim_memory",
    "tune_malloc",
]


MAX_NICENESS = 19  # Linux's lowest priority (nice 19)


@dataclass(frozen=True)
class ServerLimits:
    """What one session may ask of a shared server.

    Attributes:
        max_steps: RL steps per arm.
        max_prompts_per_step: prompts (groups) per step, n.
        max_group_size: responses per prompt, G.
        max_responses_per_step: n x G.
        max_updates_per_step: mu x mini_batches optimizer steps per RL step.
        max_arms: arms of one side-by-side run.
        max_parameters: parameters of the model a run trains (each arm holds a copy, its optimizer
            state and gradients).
        concurrent_steps: training steps the server computes at once (the others wait in line).
        torch_threads: torch intra-op threads (process-wide).
        step_niceness: how much lower than the rest of the server a training step's thread runs, in
            Linux nice steps (0 to 19; 0: the same priority). The explorer pages' reruns then take
            the cores first while runs go (:func:`run_niced`). Linux only; elsewhere steps run at the
            server's priority.
        figure_cache_entries: figures each explorer's figure cache keeps (shared by all sessions,
            least recently used dropped first): a figure asked for again, by this session or another,
            costs a lookup instead of a build. Each entry is a figure's spec, tens to hundreds of KiB.

    Raises:
        ValueError: a field that is not a whole number >= 1 (naming it).
    """

    max_steps: int = 200
    max_prompts_per_step: int = 64
    max_group_size: int = 32
    max_responses_per_step: int = 512
    max_updates_per_step: int = 64
    max_arms: int = 12
    max_parameters: int = 50_000_000
    concurrent_steps: int = 2
    torch_threads: int = 1
    figure_cache_entries: int = 32
    step_niceness: int = 10

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "step_niceness":
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_NICENESS:
                    raise ValueError(f"{f.name}: must be a whole number from 0 to {MAX_NICENESS}, got {value!r}")
            elif isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{f.name}: must be a whole number >= 1, got {value!r}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ServerLimits:
        """The defaults, each overridden by ``RLVIZ_<FIELD>`` in upper case (``RLVIZ_MAX_STEPS=50``,
        ``RLVIZ_CONCURRENT_STEPS=4``, ``RLVIZ_STEP_NICENESS=0``). Raises ``ValueError`` naming the
        variable for a bad value."""
        environ = os.environ if environ is None else environ
        values = {}
        for f in fields(cls):
            name = f"RLVIZ_{f.name.upper()}"
            if name in environ:
                try:
                    values[f.name] = int(environ[name])
                except ValueError:
                    raise ValueError(f"{name}: must be a whole number, got {environ[name]!r}") from None
        try:
            return cls(**values)
        except ValueError as exc:  # name the variable, not the field
            field_name, _, why = str(exc).partition(": ")
            raise ValueError(f"RLVIZ_{field_name.upper()}: {why}") from None

    def as_dict(self) -> dict[str, int]:
        """``{field: value}`` in declaration order (what the app shows)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _at_most(name: str, value: int, limit: int, field: str) -> None:
    if value > limit:
        raise ValueError(
            f"{name}: at most {limit} on this server, got {value} (the server's limit {field}; "
            f"its operator sets RLVIZ_{field.upper()})"
        )


def check_run(steps: int, train: Iterable[Mapping[str, int]], arms: int, parameters: int | None = None) -> None:
    """Refuse a run larger than the installed limits (:func:`limits`; none installed: no limit).

    Args:
        steps: RL steps per arm.
        train: each arm's training settings (``prompts_per_step``, ``group_size``, ``mu``,
            ``mini_batches``).
        arms: how many arms.
        parameters: the model's parameter count, once loaded (``None``: not checked yet).

    Raises:
        ValueError: naming the parameter over its limit (``steps``, ``prompts_per_step``,
            ``group_size``, ``mu`` (for mu x mini_batches), ``arms``, ``model_dir``), with the limit.
    """
    lim = _LIMITS
    if lim is None:
        return
    _at_most("steps", steps, lim.max_steps, "max_steps")
    _at_most("arms", arms, lim.max_arms, "max_arms")
    for t in train:
        n, g = int(t["prompts_per_step"]), int(t["group_size"])
        _at_most("prompts_per_step", n, lim.max_prompts_per_step, "max_prompts_per_step")
        _at_most("group_size", g, lim.max_group_size, "max_group_size")
        _at_most("prompts_per_step", n * g, lim.max_responses_per_step, "max_responses_per_step")
        _at_most("mu", int(t["mu"]) * int(t["mini_batches"]), lim.max_updates_per_step, "max_updates_per_step")
    if parameters is not None:
        _at_most("model_dir", parameters, lim.max_parameters, "max_parameters")


class StepQueue:
    """A first-come, first-served line for training steps: at most ``capacity`` run at once.

    :meth:`turn` is a context manager: it waits until the caller is among the first ``capacity``
    in line (calling ``on_wait(ahead)`` whenever the number of steps ahead of it changes) and frees
    the place on exit, also on an error or when the waiting thread is stopped.
    """

    def __init__(self, capacity: int):
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"capacity: must be a whole number >= 1, got {capacity!r}")
        self.capacity = capacity
        self._cond = threading.Condition()
        self._line: list[int] = []  # tickets in order of arrival; the first `capacity` are running
        self._tickets = itertools.count()

    def resize(self, capacity: int) -> None:
        """Change how many steps run at once (from the next turn on)."""
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"capacity: must be a whole number >= 1, got {capacity!r}")
        with self._cond:
            self.capacity = capacity
            self._cond.notify_all()

    @property
    def waiting(self) -> int:
        """Steps in line that are not running yet."""
        with self._cond:
            return max(0, len(self._line) - self.capacity)

    @property
    def running(self) -> int:
        """Steps running now."""
        with self._cond:
            return min(len(self._line), self.capacity)

    @contextlib.contextmanager
    def turn(self, on_wait: Callable[[int], None] | None = None, poll: float = 0.5) -> Iterator[None]:
        """Wait for a turn, run the body, give the turn back.

        Args:
            on_wait: called with the number of steps ahead of this one that are themselves waiting
                (0: next in line) each time it changes while this one waits; never called when a turn
                is free at once. It may raise (a Streamlit rerun ends a waiting script run): the place
                in line is given back.
            poll: seconds between checks while waiting.
        """
        with self._cond:
            ticket = next(self._tickets)
            self._line.append(ticket)
        try:
            last = None
            while True:
                with self._cond:
                    place = self._line.index(ticket)
                    if place < self.capacity:
                        break
                    ahead = place - self.capacity
                    if ahead != last:
                        last = ahead
                    else:
                        self._cond.wait(poll)
                        continue
                if on_wait is not None:
                    on_wait(ahead)  # outside the lock: it draws, and may raise
            _malloc_busy(True)
            match_torch_threads()  # this thread computes the step: the server's torch threads
            yield
        finally:
            with self._cond:
                self._line.remove(ticket)
                self._cond.notify_all()
                if not self._line:  # the last step done: freed memory goes back again
                    _malloc_busy(False)


def match_torch_threads() -> bool:
    """Give the calling thread torch's process-wide intra-op thread count (``torch.get_num_threads()``).

    OpenMP and MKL keep their thread count per thread: ``torch.set_num_threads`` sets it for the
    thread that calls it, and every other thread starts with OpenMP's default (``OMP_NUM_THREADS``,
    else one per core), whatever the process was set to. Streamlit runs each script in a new thread
    and a run steps its arms in threads of its own, so the server's ``torch_threads`` did not reach
    the threads that compute. Measured here (2 cores, one busy): a float64 ``torch.cos`` of 401
    values in such a thread took 4-8 ms, against 0.01 ms once its count was set (MKL waiting for a
    second thread); an arm-step took 0.93 s against 0.87 s. Does nothing until torch is imported.

    Returns whether torch was imported (and the thread's count set).
    """
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    torch.set_num_threads(torch.get_num_threads())
    return True


def _lower_thread_priority(niceness: int) -> bool:
    """Run the calling thread ``niceness`` nice steps below the process (Linux keeps a nice value
    per thread; at most 19). An unprivileged thread cannot raise its priority again, so this is for
    a thread that does nothing else afterwards. Returns whether the priority was set."""
    if niceness <= 0 or not sys.platform.startswith("linux"):
        return False
    try:
        base = os.getpriority(os.PRIO_PROCESS, os.getpid())  # the main thread's: the server's own
        target = min(MAX_NICENESS, base + niceness)
        tid = threading.get_native_id()
        if os.getpriority(os.PRIO_PROCESS, tid) < target:
            os.setpriority(os.PRIO_PROCESS, tid, target)
    except (OSError, AttributeError):  # not permitted, or no per-thread priorities here
        return False
    return True


def run_niced(fn: Callable[[], T]) -> T:
    """``fn()`` computed at the installed limits' ``step_niceness`` below the server's priority, in a
    thread of its own (then joined), so that while runs train the explorer pages' reruns take the
    cores first; its return value, or the exception it raised. Without limits (the CLI, the
    benchmarks), with ``step_niceness`` 0 or off Linux, ``fn()`` runs in the calling thread.

    A thread of its own because Linux lets an unprivileged thread lower its priority but never
    raise it back: the calling thread (a page's script thread, which draws the run's progress next)
    keeps its own. The new thread takes the server's torch threads (:func:`match_torch_threads`).
    A thread costs about 0.1 ms against a step's 0.1-1 s. Weights under Linux's scheduler: nice 10
    gets about a tenth of the CPU time of nice 0 when both want a core.
    """
    lim = _LIMITS
    niceness = 0 if lim is None else lim.step_niceness
    if niceness <= 0 or not sys.platform.startswith("linux"):
        return fn()
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            _lower_thread_priority(niceness)
            match_torch_threads()
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 -- raised again in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=target, name="rlviz-step", daemon=True)
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def default_thread_env(environ: MutableMapping[str, str] | None = None) -> bool:
    """Before torch is imported: set ``OMP_NUM_THREADS`` in ``environ`` (``os.environ`` by default) to
    the server's ``torch_threads`` (``RLVIZ_TORCH_THREADS``, else the default), so that every thread
    of the process starts with that many (:func:`match_torch_threads` covers the threads that run a
    page or a step). OpenMP reads the variable once, when torch loads it: a later change has no
    effect. It comes too late when a fresh server's first session opens a deep link (Streamlit runs
    that page file before ``app.py``, and it imports torch), so the app's fragments set their
    thread's count on each run as well (``app_common.fragment``). Leaves an ``OMP_NUM_THREADS``
    the operator set, and a bad ``RLVIZ_TORCH_THREADS`` (the app reports it, and falls back to
    the defaults), as they are.

    Returns whether it set the variable (False once torch is imported, or when it was set).
    """
    environ = os.environ if environ is None else environ
    if "torch" in sys.modules or "OMP_NUM_THREADS" in environ:
        return False
    try:
        threads = ServerLimits.from_env(environ).torch_threads
    except ValueError:
        threads = ServerLimits().torch_threads
    environ["OMP_NUM_THREADS"] = str(threads)
    return True


_LIMITS: ServerLimits | None = None
STEPS = StepQueue(ServerLimits().concurrent_steps)


def trim_memory() -> None:
    """Collect garbage, then hand the freed heap back to the operating system (glibc's
    ``malloc_trim(0)``; a no-op where the C library has none). A freed model's tensors go back to
    malloc's free lists, not to the system: measured here, four dropped 4-arm runs left the process
    at 712 MiB, and 432 MiB after the trim (415 MiB before the runs)."""
    import gc

    gc.collect()
    try:
        _c_library().malloc_trim(0)
    except (OSError, AttributeError):  # not glibc (macOS, musl, Windows): nothing to trim
        pass


def _c_library():
    """The process's C library (ctypes); ``OSError`` where there is none to load."""
    import ctypes
    import ctypes.util

    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")


# glibc's mallopt parameters (malloc.h) and the values the server sets (:func:`tune_malloc`)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
TRIM_THRESHOLD = 1 << 20  # bytes of free memory at the top of a heap kept for the next allocation
BUSY_TRIM_THRESHOLD = 64 << 20  # the same while training steps run: glibc's own ceiling (2 x the
# largest mmap threshold), so steps allocate and free as untuned; trimming on every free then made the
# explorers' p95 1.99 and 2.57 s against 1.20 s (2 cores: each trim is a TLB shootdown and refaults)
_LIBC = None  # glibc, once tune_malloc has set its thresholds
MMAP_THRESHOLD = 32 << 20  # allocations this large or larger get their own mapping: glibc's own ceiling
# for its sliding threshold on 64-bit systems, which a server with torch reaches soon anyway


def tune_malloc(environ: Mapping[str, str] | None = None) -> bool:
    """Make glibc give memory back as soon as it is freed, in every thread's heap, not only the main one.

    glibc raises its trim threshold by itself, up to 64 MiB, each time a large block is freed
    (``mallopt(3)``, "dynamic mmap threshold"), and ``malloc_trim`` hands back the free pages inside
    every heap but the top of the main heap only. Streamlit runs each script in a thread of its own,
    and each thread allocates from an arena of its own; a run's tensors, freed, join the top of that
    arena's heap and stay resident. Measured here (a class of 16 sessions, 3 runs, twice): 590 and
    600 MiB after the sessions closed against 512 MiB after the warm-up; with this, 532 and 535 MiB
    against 510. Fixing the thresholds (trim ``TRIM_THRESHOLD``, own mapping from ``MMAP_THRESHOLD``)
    turns the sliding off, so that the top of any heap is trimmed when a large block is freed into it.
    While training steps run, :data:`STEPS` raises the trim threshold to ``BUSY_TRIM_THRESHOLD`` (a
    trim per free cost the explorers' p95 while runs go: 1.99 and 2.57 s against 1.20 s) and lowers
    it once the last step is done, so a finished or dropped run's models, freed, take their heap's
    top with them.

    Left as it is where the operator set glibc's own ``MALLOC_TRIM_THRESHOLD_`` /
    ``MALLOC_MMAP_THRESHOLD_`` or a ``GLIBC_TUNABLES`` malloc threshold (``environ``: the
    environment, ``os.environ`` by default), where ``RLVIZ_TUNE_MALLOC=0``, and where the C library
    is not glibc. Returns whether
    it set the thresholds. Called by :func:`configure` for a server; the CLI keeps glibc's defaults.
    """
    environ = os.environ if environ is None else environ
    tunables = environ.get("GLIBC_TUNABLES", "")
    if (
        environ.get("RLVIZ_TUNE_MALLOC", "1") == "0"
        or any(k in environ for k in ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_"))
        or any(k in tunables for k in ("malloc.trim_threshold", "malloc.mmap_threshold"))
    ):
        return False
    try:
        libc = _c_library()
        if not hasattr(libc, "gnu_get_libc_version"):  # another C library's mallopt numbers mean other things
            return False
        if not (libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) and libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)):
            return False
    except (OSError, AttributeError):
        return False
    global _LIBC
    _LIBC = libc
    return True


def _malloc_busy(busy: bool) -> None:
    """While training steps run, glibc keeps up to ``BUSY_TRIM_THRESHOLD`` free at a heap's top;
    once none runs, ``TRIM_THRESHOLD`` again (nothing where :func:`tune_malloc` did not tune)."""
    if _LIBC is not None:
        _LIBC.mallopt(_M_TRIM_THRESHOLD, BUSY_TRIM_THRESHOLD if busy else TRIM_THRESHOLD)


_TRIM = threading.Event()
_TRIMMER: threading.Thread | None = None
TRIM_DELAY_S = 2.0  # wait this long after a request, so several frees cost one trim
TRIM_EVERY_S = 60.0  # and anyway this often: a dropped session without a run, the cycles a rerun leaves
# (Streamlit's postScriptGC, a full collection after every rerun, is off: .streamlit/config.toml); a
# collection costs about 0.4 s of CPU with torch loaded, 0.6% of a core at this period


def request_trim() -> None:
    """Ask the server's trimmer thread (started by :func:`configure`) for a :func:`trim_memory`
    soon: called when a run frees its models and when a dropped run is collected. Without a
    configured server (the CLI, tests) it does nothing."""
    _TRIM.set()


# callables the trimmer runs first (the server's own: drop the expired sessions)
_BEFORE_TRIM: list[Callable[[], object]] = []


def _trim_loop() -> None:
    while True:
        _TRIM.wait(TRIM_EVERY_S)
        _TRIM.clear()
        time.sleep(TRIM_DELAY_S)
        _trim_once()


def _trim_once() -> None:
    """One pass of the trimmer: each ``before_trim`` callable (one that raises is logged and
    skipped: the trim still runs), then :func:`trim_memory`."""
    for hook in list(_BEFORE_TRIM):
        try:
            hook()
        except Exception:  # noqa: BLE001 - a hook must not stop the trimmer thread
            import logging

            logging.getLogger("rlviz").exception("before-trim hook %r failed", hook)
    trim_memory()


def configure(server_limits: ServerLimits | None, before_trim: Callable[[], object] | None = None) -> None:
    """Install ``server_limits`` for this process (``None``: no limits, as for the CLI): the run
    checks of :func:`check_run`, the capacity of :data:`STEPS`, torch's intra-op threads, and a
    daemon thread that gives freed memory back to the system (:func:`request_trim`; every
    ``TRIM_EVERY_S`` anyway), and glibc's thresholds that let it (:func:`tune_malloc`). ``before_trim``: a callable of no arguments the trimmer runs before
    each trim (the app's: drop the sessions whose time to reconnect has passed, which Streamlit
    keeps until another session disconnects), added once however often ``configure`` is called. Call it
    once when the server starts; calling it again with equal limits changes nothing."""
    global _LIMITS
    _LIMITS = server_limits
    if before_trim is not None and before_trim not in _BEFORE_TRIM:
        _BEFORE_TRIM.append(before_trim)
    if server_limits is not None:
        import torch

        STEPS.resize(server_limits.concurrent_steps)
        if torch.get_num_threads() != server_limits.torch_threads:
            torch.set_num_threads(server_limits.torch_threads)
        global _TRIMMER
        if _TRIMMER is None:  # one per process: memory freed by sessions goes back to the system
            tune_malloc()
            _TRIMMER = threading.Thread(target=_trim_loop, name="rlviz-trim-memory", daemon=True)
            _TRIMMER.start()


def limits() -> ServerLimits | None:
    """The installed limits (``None``: none)."""
    return _LIMITS
