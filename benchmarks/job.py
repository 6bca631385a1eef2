"""The whole job: 4 objectives x 30 steps at the defaults, headless and on the live page (issue 13).

.venv/bin/python benchmarks/job.py [--steps 30] [--repeat 1] [--skip-page]   (part of make bench)

- ``CLI``: ``python -m rlviz compare --steps 30`` in a fresh process, wall seconds from start to exit
  (start-up, the shipped model's load, the held-out pass@1 before and after, 4 x 30 steps). Its
  default steps as many arms at once as there are cores (``--workers``, threads of one process:
  ``SideBySideRun.step_parallel``), each with torch threads = cores / arms at once.
- ``CLI, --workers 1``: one arm after another, torch's threads on every core (the CLI before
  ``--workers``).
- ``live page``: the live page through Streamlit's ``AppTest`` (the page's own code: settings, Run,
  progress after every round, the curves redrawn after every round, the results), wall seconds
  from the click on Run to the page drawn with the results. ``app.py`` installs the server's limits:
  as many arms at once as the server computes steps at once (``concurrent_steps``, 2), each with
  one torch thread, as on a shared server; compare it with ``CLI``.

The three take turns (``--repeat`` rounds); each figure is the median of its rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def cli(steps: int, workers: int | None) -> float:
    extra = [] if workers is None else ["--workers", str(workers)]
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "rlviz", "compare", "--steps", str(steps), *extra],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - t0


def page(steps: int) -> float:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=3600)
    at.switch_page("pages/live.py").run()
    at.number_input(key="lv_steps").set_value(steps).run()
    t0 = time.perf_counter()
    at.button(key="lv_run").click().run()
    seconds = time.perf_counter() - t0
    run = at.session_state["live_run"]
    if at.exception or not run.done:
        raise RuntimeError(f"the live page did not finish: {[e.message for e in at.exception]}")
    return seconds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--skip-page", action="store_true", help="time the CLI only")
    args = p.parse_args()
    jobs = {"CLI": lambda: cli(args.steps, None), "CLI, --workers 1": lambda: cli(args.steps, 1)}
    if not args.skip_page:
        jobs["live page"] = lambda: page(args.steps)
    times: dict[str, list[float]] = {name: [] for name in jobs}
    for r in range(args.repeat):
        order = list(jobs)[r % len(jobs) :] + list(jobs)[: r % len(jobs)]
        for name in order:
            times[name].append(jobs[name]())
            print(f"  round {r + 1}: {name} {times[name][-1]:.1f} s", flush=True)
    print(f"4 objectives x {args.steps} steps at the defaults, {os.cpu_count()} cores; median wall s of {args.repeat}")
    for name, ts in times.items():
        print(f"  {name:<18}{statistics.median(ts):>8.1f}")
    if "live page" in times:
        ratio = statistics.median(times["live page"]) / statistics.median(times["CLI"])
        print(f"  live page / CLI: {ratio:.2f}")


if __name__ == "__main__":
    main()
