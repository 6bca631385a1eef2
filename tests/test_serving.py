"""A classroom on one server (issue 12), the library side: model loads from many sessions at once,
safetensors only, and a clear message for a directory that does not load."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import torch

from rlviz.lm.model import load_policy
from rlviz.lm.moe import MOE_MODEL_DIR


def test_concurrent_loads_all_succeed_and_are_independent():
    # two loads in two threads once broke every load of the server ("Cannot copy out of meta tensor")
    results, errors = [], []

    def load(model_dir):
        try:
            results.append(load_policy(model_dir, "cpu"))
        except Exception as exc:  # noqa: BLE001 - any failure is the bug
            errors.append(repr(exc))

    threads = [threading.Thread(target=load, args=(MOE_MODEL_DIR if i % 2 else None,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(results) == 6
    (a, _), (b, _) = load_policy(None, "cpu"), load_policy(None, "cpu")  # and later loads still work
    # every session gets its own copy: changing one changes no other
    with torch.no_grad():
        next(a.parameters()).add_(1.0)
    assert not torch.equal(next(a.parameters()), next(b.parameters()))
    assert all(p.requires_grad for p in b.parameters())


def test_a_pickle_checkpoint_is_refused_and_a_broken_directory_is_named(tmp_path):
    model, tokenizer = load_policy(None, "cpu")
    pickled = tmp_path / "pickled"
    model.config.save_pretrained(pickled)
    tokenizer.save_pretrained(pickled)
    torch.save(model.state_dict(), pickled / "pytorch_model.bin")  # a pickle: loading it can run code
    assert not list(pickled.glob("*.safetensors"))
    with pytest.raises(ValueError, match="^model_dir: 'pickled' could not be loaded.*safetensors"):
        load_policy(str(pickled), "cpu")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text(json.dumps({"model_type": "llama"}))  # no weights, no tokenizer
    with pytest.raises(ValueError, match="^model_dir: 'broken' could not be loaded"):
        load_policy(str(broken), "cpu")


# -- the shared-server limits and the step queue ----------------------------------------------------

from rlviz import serving  # noqa: E402
from rlviz.experiments.runner import Arm, RunConfig, SideBySideRun  # noqa: E402


def test_limits_from_the_environment():
    limits = serving.ServerLimits.from_env({"RLVIZ_MAX_STEPS": "50", "RLVIZ_CONCURRENT_STEPS": "3"})
    assert limits.max_steps == 50 and limits.concurrent_steps == 3
    assert limits.max_group_size == serving.ServerLimits().max_group_size  # the rest keep the defaults
    with pytest.raises(ValueError, match="^RLVIZ_MAX_STEPS:"):
        serving.ServerLimits.from_env({"RLVIZ_MAX_STEPS": "inf"})
    with pytest.raises(ValueError, match="^max_arms:"):
        serving.ServerLimits(max_arms=0)


def test_step_niceness_is_checked_and_read_from_the_environment():
    assert serving.ServerLimits().step_niceness == 10
    assert serving.ServerLimits(step_niceness=0).step_niceness == 0  # 0: the server's own priority
    assert serving.ServerLimits.from_env({"RLVIZ_STEP_NICENESS": "19"}).step_niceness == 19
    for bad in (-1, 20, 2.5, True):
        with pytest.raises(ValueError, match="^step_niceness: must be a whole number from 0 to 19"):
            serving.ServerLimits(step_niceness=bad)
    with pytest.raises(ValueError, match="^RLVIZ_STEP_NICENESS: must be a whole number from 0 to 19, got 25"):
        serving.ServerLimits.from_env({"RLVIZ_STEP_NICENESS": "25"})


def _nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's")
def test_a_step_on_a_server_runs_below_the_pages_priority_and_the_caller_keeps_its_own(monkeypatch):
    base = os.getpriority(os.PRIO_PROCESS, os.getpid())
    caller = _nice()
    seen = {}

    def step():
        seen["nice"], seen["thread"] = _nice(), threading.get_ident()
        seen["torch_threads"] = torch.get_num_threads()
        return "metrics"

    monkeypatch.setattr(serving, "_LIMITS", serving.ServerLimits(step_niceness=5))
    assert serving.run_niced(step) == "metrics"
    assert seen["nice"] == min(19, base + 5)  # nice 5 below the server's own priority
    assert seen["thread"] != threading.get_ident()  # a thread of its own, which is then gone
    assert seen["torch_threads"] == torch.get_num_threads()  # the server's torch threads
    assert _nice() == caller  # the page's thread keeps its priority (it could not get it back)

    def broken():
        raise ValueError("lr: must be > 0")

    with pytest.raises(ValueError, match="^lr: must be > 0$"):  # the step's own error, in the caller
        serving.run_niced(broken)
    for limits in (None, serving.ServerLimits(step_niceness=0)):  # the CLI; a server that turns it off
        monkeypatch.setattr(serving, "_LIMITS", limits)
        serving.run_niced(step)
        assert seen["thread"] == threading.get_ident() and seen["nice"] == caller


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's")
def test_a_runs_steps_and_held_out_passes_go_through_the_niced_thread(monkeypatch):
    calls = []
    real = serving.run_niced

    def spy(fn):
        calls.append(fn)
        return real(fn)

    import rlviz.experiments.runner as runner_module

    monkeypatch.setattr(runner_module, "run_niced", spy)
    monkeypatch.setattr(serving, "_LIMITS", serving.ServerLimits(step_niceness=3))
    train = {"prompts_per_step": 1, "group_size": 2, "mu": 1, "mini_batches": 1, "max_new_tokens": 4}
    run = SideBySideRun([Arm("grpo", "grpo")], RunConfig(steps=1, heldout_samples=2, train=train))
    run.step()
    assert len(calls) == 3  # the checkpoint's held-out pass, the step, the arm's held-out pass
    assert run.done and run.heldout  # the results came back from the other thread


@pytest.fixture
def installed():
    threads = torch.get_num_threads()
    serving.configure(serving.ServerLimits(max_steps=5, max_group_size=4, max_responses_per_step=12, max_parameters=10))
    yield serving.limits()
    serving.configure(None)
    serving.STEPS.resize(serving.ServerLimits().concurrent_steps)
    torch.set_num_threads(threads)


def test_a_run_over_the_limits_is_refused_naming_the_setting(installed):
    train = {"prompts_per_step": 2, "group_size": 4, "mu": 1, "mini_batches": 1}
    serving.check_run(5, [train], 1)  # at the limits: fine
    for steps, t, param in (
        (6, train, "steps"),
        (5, train | {"group_size": 8}, "group_size"),
        (5, train | {"prompts_per_step": 4}, "prompts_per_step"),  # 4 x 4 = 16 responses > 12
    ):
        with pytest.raises(ValueError, match=f"^{param}: at most"):
            serving.check_run(steps, [t], 1)
    # a run is refused before any model is loaded (the directory does not even exist), and a model
    # over the size limit after loading
    config = RunConfig(steps=9, heldout_samples=0, train=train, model_dir="/nonexistent")
    with pytest.raises(ValueError, match="^steps: at most 5"):
        SideBySideRun([Arm("grpo", "grpo")], config)
    with pytest.raises(ValueError, match="^model_dir: at most 10"):
        SideBySideRun([Arm("grpo", "grpo")], RunConfig(steps=1, heldout_samples=0, train=train))
    serving.configure(None)  # the CLI and the benchmarks: no limits
    serving.check_run(10_000, [train | {"group_size": 64}], 99)


def test_the_step_queue_runs_at_most_its_capacity_first_come_first_served():
    queue = serving.StepQueue(1)
    order, waits = [], []
    first_in = threading.Event()
    release = threading.Event()

    def first():
        with queue.turn():
            first_in.set()
            order.append("first")
            release.wait(5)

    def second():
        with queue.turn(on_wait=waits.append):
            order.append("second")

    a = threading.Thread(target=first)
    a.start()
    first_in.wait(5)
    b = threading.Thread(target=second)
    b.start()
    for _ in range(100):  # the second is in line, not running
        if queue.waiting == 1:
            break
        threading.Event().wait(0.01)
    assert queue.running == 1 and queue.waiting == 1 and order == ["first"]
    release.set()
    a.join(5)
    b.join(5)
    assert order == ["first", "second"] and waits == [0]  # told it was next in line, once
    assert queue.running == 0 and queue.waiting == 0


def test_a_failed_or_stopped_wait_gives_the_place_back():
    queue = serving.StepQueue(1)
    with queue.turn():

        def stop(ahead):  # a Streamlit rerun ends the waiting script run with an exception
            raise RuntimeError("rerun")

        with pytest.raises(RuntimeError):
            with queue.turn(on_wait=stop):
                pass
        assert queue.waiting == 0
    with pytest.raises(KeyError):
        with queue.turn():
            raise KeyError("a step that fails")
    assert queue.running == 0


def test_the_sidebar_shows_the_servers_limits():
    from apptools import no_exception, open_page

    from rlviz.i18n import t

    for lang in ("en", "zh"):
        at = open_page("pages/home.py", lang=lang)
        no_exception(at)
        (box,) = [e for e in at.sidebar.expander if e.label == t("side.limits", lang)]
        text = "\n".join(m.value for m in box.markdown)
        limits = serving.limits() or serving.ServerLimits()
        assert f"**{limits.max_steps}**" in text and f"**{limits.concurrent_steps}**" in text


def test_generation_stops_on_every_eos_id_of_the_generation_config():
    # a chat model ends its turn with a token of its own, listed in generation_config.eos_token_id
    import copy

    from rlviz.lm.rollout import eos_token_ids, sample_rollouts
    from rlviz.lm.task import sample_problems

    model, tokenizer = load_policy(None, "cpu")
    chat = copy.deepcopy(model)
    stop = tokenizer.convert_tokens_to_ids("1")
    chat.generation_config.eos_token_id = [tokenizer.eos_token_id, stop]
    assert eos_token_ids(chat, tokenizer) == [tokenizer.eos_token_id, stop]
    assert eos_token_ids(model, tokenizer)[0] == tokenizer.eos_token_id
    problems = sample_problems(8, torch.Generator().manual_seed(0))
    batch = sample_rollouts(chat, tokenizer, problems, 4, 16, 1.0, torch.Generator().manual_seed(1))
    ids = batch.response_ids.tolist()
    stopped = 0
    for row, n, truncated in zip(ids, batch.response_lengths.tolist(), batch.truncated.tolist()):
        real = row[:n]
        if stop in real:  # the response ends at the first "1": nothing after it, and it counts as finished
            assert real.index(stop) == n - 1 and not truncated
            stopped += 1
    assert stopped > 0  # the digit does get sampled, so the rule was exercised


# -- legal but unusual settings -------------------------------------------------------------------

from rlviz.core.advice import UNUSUAL, unusual_settings  # noqa: E402


def test_unusual_settings_are_named_and_the_usual_ones_are_not():
    from rlviz.core.objectives import ALGORITHMS

    # every registry entry at its paper defaults: nothing unusual
    for name in ALGORITHMS:
        assert unusual_settings(name, {}) == [], name
    # GSPO (a sequence ratio) with token-mean; k1 in the loss; both overlong switches on DAPO
    assert [n["key"] for n in unusual_settings("gspo", {"loss_agg_mode": "token-mean"})] == [
        "sequence_ratio_token_mean"
    ]
    assert unusual_settings("grpo", {"kl_estimator": "k1", "beta": 0.04})[0]["key"] == "k1_in_loss"
    assert unusual_settings("grpo", {"kl_estimator": "k1", "beta": 0.04}, kl_in_reward=True) == []
    assert unusual_settings("grpo", {"kl_estimator": "k1", "beta": 0.0}) == []
    both = unusual_settings("dapo", {"overlong_shaping": True, "overlong_filtering": True})
    assert [n["key"] for n in both] == ["overlong_both"]
    assert {r.key for r in UNUSUAL} == {"sequence_ratio_token_mean", "k1_in_loss", "overlong_both"}
    with pytest.raises(ValueError, match="^algorithm|^name"):
        unusual_settings("nope", {})


def test_the_live_page_says_why_a_setting_is_unusual():
    from apptools import no_exception, open_page

    from rlviz.i18n import t

    at = open_page("pages/live.py", lv_algos=["GSPO"])
    no_exception(at)
    assert not [i for i in at.info if "token-mean" in i.value]
    key = [k for k in at.session_state if str(k).endswith("loss_agg_mode") and "gspo" in str(k)]
    assert key, "the GSPO aggregation widget"
    at.session_state[key[0]] = "token-mean"
    at.run()
    no_exception(at)
    text = t("advice.sequence_ratio_token_mean", "en", title="GSPO", paper_mode="seq-mean-token-mean")
    assert text in [i.value for i in at.info]


@pytest.mark.parametrize(
    "name, overrides, param",
    [
        ("sapo", {"tau_pos": 1e-40}, "tau_pos"),
        ("grpo", {"beta": 1e300}, "beta"),
        ("ppo", {"epsilon_high": 1e308}, "epsilon_high"),
    ],
)
def test_extreme_typed_values_are_refused_naming_the_setting(name, overrides, param):
    # typed on the live page, these once stopped a run with a message about NaN in the loss
    from rlviz.core.objectives import resolve_settings
    from rlviz.lm.trainer import TrainConfig

    with pytest.raises(ValueError, match=f"^{param}: must be at"):
        resolve_settings(name, **overrides)
    with pytest.raises(ValueError, match=f"^{param}: must be at"):
        TrainConfig(algorithm=name, settings=overrides).validate()
    with pytest.raises(ValueError, match="^temperature:"):
        TrainConfig(temperature=1e-9).validate()


def _tiny_run(steps: int = 1) -> SideBySideRun:
    train = {"prompts_per_step": 2, "group_size": 2, "max_new_tokens": 4}
    return SideBySideRun(
        [Arm("grpo", "grpo"), Arm("gspo", "gspo")], RunConfig(steps=steps, heldout_samples=0, train=train)
    )


def test_a_released_run_frees_its_models_and_keeps_every_result():
    import gc
    import weakref

    run = _tiny_run(steps=2)
    run.step()
    held = [weakref.ref(t.model) for t in run.trainers.values()] + [weakref.ref(run.ref_model)]
    held += [weakref.ref(t.optimizer) for t in run.trainers.values()]
    before = (run.metrics_frame(), run.to_json(), run.token_view(1, "grpo"), run.ratio_histogram(1))
    run.release()
    gc.collect()
    assert run.released and all(ref() is None for ref in held)  # nothing else held them
    after = (run.metrics_frame(), run.to_json(), run.token_view(1, "grpo"), run.ratio_histogram(1))
    assert after[0].equals(before[0]) and after[1] == before[1] and after[2] == before[2]
    assert after[3].equals(before[3])
    with pytest.raises(ValueError, match="^run: released"):  # one step was left: it cannot be taken
        run.step()
    run.release()  # idempotent


def test_a_dropped_run_leaves_nothing_behind():
    """A session that closes drops its run (Streamlit discards its session state): nothing global
    (the step queue, the model-load templates, a cache) may keep its models alive."""
    import gc
    import weakref

    run = _tiny_run()
    run.step()
    held = [weakref.ref(run), weakref.ref(run.ref_model)] + [weakref.ref(t.model) for t in run.trainers.values()]
    del run
    gc.collect()
    assert all(ref() is None for ref in held)


def test_a_freed_run_asks_the_server_to_give_memory_back(monkeypatch):
    """Released and dropped runs ask for a trim (glibc keeps freed tensors in its free lists
    otherwise: measured, 712 MiB after four dropped runs against 432 MiB after a trim)."""
    import gc

    asked = []
    monkeypatch.setattr("rlviz.experiments.runner.request_trim", lambda: asked.append(1))
    run = _tiny_run()
    run.release()
    assert len(asked) == 1
    del run
    gc.collect()
    assert len(asked) == 2
    serving.trim_memory()  # runs on any C library (a no-op without malloc_trim)


_HEAP_TOP = """
import ctypes, sys, threading
from rlviz import serving
if sys.argv[1] == "tuned":
    assert serving.tune_malloc({})
big = bytearray(30 << 20)  # a large block freed, as a run's logits are: glibc raises its thresholds
del big
def run():  # a script thread: 40 MiB of 1 MiB blocks in its own arena, all freed
    blocks = [bytearray(1 << 20) for _ in range(40)]
    del blocks
thread = threading.Thread(target=run)
thread.start()
thread.join()
ctypes.CDLL("libc.so.6").malloc_trim(0)  # what serving.trim_memory does
print(next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmRSS:")))
"""


def test_memory_a_thread_freed_goes_back_to_the_system_once_malloc_is_tuned():
    """glibc keeps the freed top of a thread's heap while its sliding trim threshold is high, and
    ``malloc_trim`` does not trim it (it trims the main heap's top only): 40 MiB stay resident
    untuned; tuned, the top is trimmed when the blocks are freed."""
    import ctypes.util

    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    if not hasattr(libc, "gnu_get_libc_version"):
        assert not serving.tune_malloc({})  # another C library: its mallopt numbers are not touched
        return
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MALLOC_", "GLIBC_TUNABLES"))}
    rss = {}
    for how in ("default", "tuned"):
        out = subprocess.run([sys.executable, "-c", _HEAP_TOP, how], capture_output=True, text=True, env=env)
        assert out.returncode == 0, out.stderr
        rss[how] = int(out.stdout) / 1024  # MiB
    assert rss["default"] - rss["tuned"] > 30, rss  # the 40 MiB top: kept untuned, handed back tuned


def test_glibc_keeps_a_heaps_top_while_steps_run_and_trims_it_once_none_does(monkeypatch):
    """Trimming on every free made the explorers' p95 while runs go 1.99-2.57 s against 1.20 s: the
    step queue sets the busy threshold while any step runs and the idle one when the last is done."""
    calls = []
    monkeypatch.setattr(serving, "_malloc_busy", calls.append)
    queue = serving.StepQueue(2)
    with queue.turn():
        with queue.turn():
            assert calls == [True, True]
        assert calls == [True, True]  # one step still runs
    assert calls == [True, True, False]
    libc_calls = []

    class Libc:
        def mallopt(self, param, value):
            libc_calls.append((param, value))
            return 1

    monkeypatch.undo()
    monkeypatch.setattr(serving, "_LIBC", Libc())
    serving._malloc_busy(True)
    serving._malloc_busy(False)
    assert libc_calls == [(-1, serving.BUSY_TRIM_THRESHOLD), (-1, serving.TRIM_THRESHOLD)]  # M_TRIM_THRESHOLD


def test_tune_malloc_leaves_an_operators_own_thresholds():
    assert not serving.tune_malloc({"RLVIZ_TUNE_MALLOC": "0"})
    assert not serving.tune_malloc({"MALLOC_TRIM_THRESHOLD_": "131072"})
    assert not serving.tune_malloc({"MALLOC_MMAP_THRESHOLD_": "131072"})
    assert not serving.tune_malloc({"GLIBC_TUNABLES": "glibc.malloc.trim_threshold=131072"})


_THREADS = """
import ctypes, os, sys, threading
from rlviz import serving
if sys.argv[1] == "env":  # the app's first step, before torch is imported
    assert serving.default_thread_env()
    assert os.environ["OMP_NUM_THREADS"] == os.environ["RLVIZ_TORCH_THREADS"]
import torch
assert not serving.default_thread_env()  # too late once torch is loaded: nothing set
try:
    omp = ctypes.CDLL(None).omp_get_max_threads  # the calling thread's OpenMP thread count
except AttributeError:  # torch without OpenMP: nothing per thread to read
    omp = None
torch.set_num_threads(int(os.environ["RLVIZ_TORCH_THREADS"]))
seen = {}
omp = omp or torch.get_num_threads
def fresh(match):
    seen["before"] = omp()
    if match:
        serving.match_torch_threads()
    seen["after"] = omp()
def step():  # a thread that computes a training step
    with serving.StepQueue(1).turn():
        seen["step"] = omp()
for target, args in ((fresh, (True,)), (step, ())):
    thread = threading.Thread(target=target, args=args)
    thread.start()
    thread.join()
print(seen["before"], seen["after"], seen["step"], "openmp" if omp is not torch.get_num_threads else "none")
"""


@pytest.mark.parametrize("how", ["plain", "env"])
def test_threads_that_compute_use_the_servers_torch_threads(how):
    """OpenMP keeps a thread count per thread: a new thread (each Streamlit script run, each arm's
    stepping thread) started with one per core whatever torch was set to (measured: a float64
    ``torch.cos`` of 401 values took 4-8 ms in such a thread, 0.01 ms once set). The step queue and
    every page's first call set the thread's count to torch's; the app sets ``OMP_NUM_THREADS``
    before torch loads, so that every thread starts with it (fragment reruns included)."""
    default = os.cpu_count() or 1
    threads = default + 1  # not the default, so that a thread left at it shows
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    env["RLVIZ_TORCH_THREADS"] = str(threads)
    out = subprocess.run([sys.executable, "-c", _THREADS, how], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    before, after, step = map(int, out.stdout.split()[:3])
    assert (after, step) == (threads, threads)
    openmp = out.stdout.split()[3] == "openmp"
    # with the variable every new thread starts with the server's count; without, with OpenMP's
    # default, one per core (torch without OpenMP keeps one count for the process)
    assert before == (threads if how == "env" or not openmp else default)


_FRAGMENT_THREADS = """
import ctypes, sys, threading
import torch
from app_common import with_torch_threads
try:
    omp = ctypes.CDLL(None).omp_get_max_threads  # the calling thread's OpenMP thread count
except AttributeError:
    omp = None
torch.set_num_threads(int(sys.argv[1]))
seen = {}
read = omp or torch.get_num_threads
def fragment_rerun():  # a new thread, as Streamlit runs a fragment's rerun
    seen["plain"] = read()
    seen["wrapped"] = with_torch_threads(read)()
thread = threading.Thread(target=fragment_rerun)
thread.start()
thread.join()
print(seen["plain"], seen["wrapped"], "openmp" if omp else "none")
"""


def test_a_fragments_rerun_takes_the_servers_torch_threads():
    """A fragment's rerun is a new thread that skips ``ensure_shell``; when a fresh server's first
    session opens a deep link, torch loads before ``app.py`` can set ``OMP_NUM_THREADS``, and such a
    thread computed with one thread per core (the length page's float64 ``torch.cos``: 3.3 ms a
    call, against 0.02 ms). ``app_common.fragment`` wraps every page's fragments so that each run
    sets its thread's count first."""
    root = Path(__file__).resolve().parent.parent
    default = os.cpu_count() or 1
    threads = default + 1  # not the default, so that a thread left at it shows
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    env["PYTHONPATH"] = str(root)
    out = subprocess.run(
        [sys.executable, "-c", _FRAGMENT_THREADS, str(threads)], capture_output=True, text=True, env=env, cwd=root
    )
    assert out.returncode == 0, out.stderr
    plain, wrapped, kind = out.stdout.split()[-3:]
    assert int(wrapped) == threads
    # unwrapped, the new thread has OpenMP's default (torch without OpenMP keeps one count)
    assert int(plain) == (default if kind == "openmp" else threads)


def test_every_page_fragment_goes_through_app_common():
    """No page calls ``st.fragment`` itself: each uses ``app_common.fragment`` (above)."""
    root = Path(__file__).resolve().parent.parent
    direct = [p.name for p in sorted((root / "pages").glob("*.py")) if "st.fragment" in p.read_text()]
    assert direct == []
    uses = [p.name for p in sorted((root / "pages").glob("*.py")) if "@fragment" in p.read_text()]
    assert "length.py" in uses and "curves.py" in uses  # the check reads the pages that have fragments


def test_every_thread_that_steps_an_arm_takes_torchs_thread_count(monkeypatch):
    # step_parallel's helper threads compute steps and, after an arm's last step, its held-out
    # pass@1 outside the step queue's turn: each sets its count first, as the queue does for a step
    import rlviz.experiments.runner as runner

    callers = []
    monkeypatch.setattr(runner, "match_torch_threads", lambda: callers.append(threading.get_ident()))
    monkeypatch.setattr(serving, "match_torch_threads", lambda: None)  # the queue's own call: not counted
    run = _tiny_run()
    assert len(run.step_parallel(workers=2)) == 2
    threads = set(callers)
    assert len(threads) == 2 and threading.get_ident() in threads  # the caller's thread and one helper


def test_default_thread_env_sets_the_servers_count_and_leaves_an_operators_own(monkeypatch):
    environ = {}
    assert not serving.default_thread_env(environ) and environ == {}  # torch is loaded here: too late
    monkeypatch.delitem(sys.modules, "torch")  # as in the app before its first import
    for given, expected in (
        ({}, str(serving.ServerLimits().torch_threads)),
        ({"RLVIZ_TORCH_THREADS": "3"}, "3"),
        ({"RLVIZ_TORCH_THREADS": "three"}, str(serving.ServerLimits().torch_threads)),  # reported by the app
    ):
        environ = dict(given)
        assert serving.default_thread_env(environ)
        assert environ["OMP_NUM_THREADS"] == expected
    environ = {"OMP_NUM_THREADS": "4", "RLVIZ_TORCH_THREADS": "2"}
    assert not serving.default_thread_env(environ)
    assert environ["OMP_NUM_THREADS"] == "4"


def test_the_trimmer_runs_its_hooks_first_and_survives_one_that_raises(monkeypatch):
    calls = []
    here = threading.current_thread()  # the server's trimmer thread (started by configure) may trim meanwhile
    monkeypatch.setattr(serving, "_BEFORE_TRIM", [])
    monkeypatch.setattr(
        serving, "trim_memory", lambda: calls.append("trim") if threading.current_thread() is here else None
    )

    def hook():
        if threading.current_thread() is here:
            calls.append("hook")

    def broken():
        raise RuntimeError("boom")

    serving.configure(None, before_trim=hook)
    serving.configure(None, before_trim=hook)  # added once, however often the server configures
    serving.configure(None, before_trim=broken)
    serving._trim_once()
    assert calls == ["hook", "trim"]  # the broken hook is logged and skipped; the trim still runs


def test_closed_sessions_are_dropped_once_their_time_to_reconnect_has_passed():
    """Streamlit keeps a closed session for server.disconnectedSessionTTL and removes it only when
    a later session disconnects; app_common.expire_closed_sessions (run by the server's trimmer)
    drops it on time. Built on Streamlit's own session manager and storage, so a rename of the
    private names it reads fails here instead of leaving sessions in memory."""
    import time
    from types import SimpleNamespace

    from streamlit.runtime.memory_session_storage import MemorySessionStorage
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.runtime.session_manager import SessionInfo
    from streamlit.runtime.websocket_session_manager import WebsocketSessionManager

    from app_common import expire_closed_sessions

    storage = MemorySessionStorage(ttl_seconds=0.3)
    manager = WebsocketSessionManager(storage, MemoryUploadedFileManager("/upload"), ScriptCache(), None)
    held = SimpleNamespace(id="closed-a-while-ago")  # stands for an AppSession and all it holds
    storage.save(SessionInfo(client=None, session=held, script_run_count=1))
    assert expire_closed_sessions(manager) == 0  # still within its time to reconnect
    assert storage._cache._data  # noqa: SLF001
    time.sleep(0.4)
    assert storage.list() == []  # expired: no longer listed ...
    assert storage._cache._data  # noqa: SLF001 - ... but still held, as the load benchmark found
    assert expire_closed_sessions(manager) == 1
    assert not storage._cache._data  # noqa: SLF001
    assert expire_closed_sessions(SimpleNamespace()) == 0  # no such names: nothing dropped, no error
    assert expire_closed_sessions() == 0  # no server running here


def test_make_run_replicas_starts_two_servers_with_one_secret_and_stops_both():
    """``make run-replicas`` (README "Several replicas"): a server on each port, one cookie secret
    shared by both, one training step at a time each; Ctrl-C (SIGINT to the group) stops them all."""
    import time
    import urllib.request

    from browsertools import check_replicas, ctrl_c, free_ports, make_target

    port = free_ports(2)
    with make_target("run-replicas", REPLICAS=2, PORT=port) as make:
        up = set()
        for _ in range(240):
            for p in (port, port + 1):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{p}/_stcore/health", timeout=1)
                    up.add(p)
                except OSError:
                    pass
            if len(up) == 2:
                break
            time.sleep(0.5)
        assert up == {port, port + 1}
        ctrl_c(make, check_replicas([port, port + 1]))
