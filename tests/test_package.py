"""rlviz as an installed package (issue 42): the wheel, a fresh virtual environment outside the checkout,
the ``rlviz`` command, and ``rlviz app``'s answers to bad input.

The wheel is built from a copy of the sources in a temporary folder, by the PEP 517 hook that ``pip wheel
--no-build-isolation`` calls (``setuptools.build_meta.build_wheel``, setuptools from the project's venv;
without pip's start-up, a second less), so the checkout gets no ``build/``. The fresh
venv gets the wheel alone (``pip --python VENV install --no-deps``); its heavy dependencies (torch,
transformers, Streamlit) come from the project's venv through a ``.pth`` line, not reinstalled. Every
command in it runs from another temporary folder, with the checkout on no path: each test checks that
what ran is the installed copy. The server and its home page (headless chromium) are marked ``browser``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import tomllib
import zipfile
from pathlib import Path

import pytest
from browsertools import BROWSER, check_and_shoot, free_port, settle, wait_count, wait_healthy
from packaging.requirements import Requirement

import rlviz
from rlviz import launch
from rlviz.app_pages import PAGES
from rlviz.cli import main as cli_main

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# what a build reads: setup.py copies the app's files (APP_FILES) into the wheel as rlviz/_app
SOURCES = (
    "pyproject.toml",
    "setup.py",
    "MANIFEST.in",
    "README.md",
    "requirements.txt",
    "app.py",
    "rlviz",
    "pages",
    "app_common",
    "assets",
    ".streamlit",
)
CLEAN = {"OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1"}  # one torch thread beside the other test workers


def _env() -> dict[str, str]:
    """The environment of a command in the fresh venv: no PYTHONPATH (the checkout on no path), no RLVIZ_* setting."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH" and not k.startswith("RLVIZ_")}
    return {**env, **CLEAN}


def _runtime_requirements() -> list[str]:
    """requirements.txt's lines above its test-only pins (the ``# tests`` line), comments dropped."""
    lines = []
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() == "# tests":
            break
        text = line.split("#", 1)[0].strip()
        if text:
            lines.append(text)
    return lines


# ------------------------------------------------------------------ one list of dependencies, one version
def test_requirements_txt_and_the_package_pin_the_same_dependencies():
    package = [str(Requirement(r)) for r in PYPROJECT["project"]["dependencies"]]
    requirements = [str(Requirement(r)) for r in _runtime_requirements()]
    assert requirements == package, "requirements.txt above '# tests' must repeat pyproject.toml's dependencies"
    assert all(len(Requirement(r).specifier) == 1 and "==" in str(Requirement(r).specifier) for r in package)
    assert "torch==2.13.0" in package and "streamlit==1.67.0" in package


def test_the_package_declares_its_python_version_and_command():
    project = PYPROJECT["project"]
    assert project["name"] == "rlviz" and project["version"] == rlviz.__version__
    assert project["requires-python"] == ">=3.11"
    assert project["scripts"] == {"rlviz": "rlviz.cli:main"}


# ------------------------------------------------------------------------------ the wheel and the venv
@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of a copy of the sources (its path)."""
    started = time.monotonic()
    source = tmp_path_factory.mktemp("source")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SOURCES:
        path = ROOT / name
        (shutil.copytree(path, source / name, ignore=ignore) if path.is_dir() else shutil.copy2(path, source / name))
    out = tmp_path_factory.mktemp("dist")
    hook = f"from setuptools import build_meta; build_meta.build_wheel({str(out)!r})"
    done = subprocess.run([sys.executable, "-c", hook], cwd=source, capture_output=True, text=True, env=_env())
    assert done.returncode == 0, done.stderr[-3000:]
    (built,) = out.glob("rlviz-*.whl")
    print(f"wheel built in {time.monotonic() - started:.1f} s")
    return built


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv outside the checkout with the wheel installed (its folder). Its site-packages comes
    first on its path; the project venv's site-packages follows (``.pth``), for the dependencies only."""
    started = time.monotonic()
    home = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(home)], check=True)
    python = home / "bin" / "python"
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-compile",
            "-q",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        env=_env(),
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    purelib = Path(
        subprocess.check_output(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    deps = sysconfig.get_paths()["purelib"]  # the project venv's (this process runs in it), after the venv's own
    (purelib / "zz_rlviz_dependencies.pth").write_text(f"import site; site.addsitedir({deps!r})\n")
    print(f"venv ready in {time.monotonic() - started:.1f} s")
    return home


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory) -> Path:
    """The working directory of every command in the fresh venv: an empty folder outside the checkout."""
    return tmp_path_factory.mktemp("elsewhere")


def _package_files() -> set[str]:
    """The files of rlviz/ in the repository (git's list; without git, those on disk but caches)."""
    listed = subprocess.run(["git", "ls-files", "-z", "rlviz"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout:
        return {name for name in listed.stdout.split("\0") if name and (ROOT / name).is_file()}
    return {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "rlviz").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


def test_the_wheel_holds_everything_the_app_reads(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        config = z.read("rlviz/_app/.streamlit/config.toml")
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        entry_points = z.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    # every file of the package (checkpoints, locale, bank, lessons, parity vectors, measured figures)
    package = _package_files()
    assert package - names == set()
    assert {"rlviz/lm/assets/tinylm/model.safetensors", "rlviz/lm/assets/tinymoe/model.safetensors"} <= names
    assert {"rlviz/teach/bank/basics.toml", "rlviz/teach/lessons/01_clipping.toml", "rlviz/locale/home.py"} <= names
    # the app: its entry, every page of the page table, the shell, the favicon and the same hardened config
    app = {"rlviz/_app/app.py", "rlviz/_app/assets/favicon.png", "rlviz/_app/.streamlit/config.toml"}
    app |= {f"rlviz/_app/{p.file}" for p in PAGES}
    app |= {f"rlviz/_app/{p.relative_to(ROOT).as_posix()}" for p in (ROOT / "app_common").rglob("*.py")}
    assert app - names == set()
    assert config == (ROOT / ".streamlit" / "config.toml").read_bytes()
    assert not any("__pycache__" in n or n.startswith(("tests/", "app_common/", "pages/")) for n in names)
    assert "Requires-Python: >=3.11" in meta and "Requires-Dist: torch==2.13.0" in meta
    assert "rlviz = rlviz.cli:main" in entry_points


def test_the_fresh_venv_runs_the_installed_copy(venv, elsewhere):
    probe = """
import json, sys
import rlviz.launch
light = "torch" not in sys.modules  # rlviz app's checks start without torch
import rlviz
from rlviz.app_pages import app_dir
from streamlit import config
config._main_script_path = str(app_dir() / "app.py")  # as `streamlit run` sets it: the config beside the script
config.get_config_options(force_reparse=True)
print(json.dumps({"rlviz": rlviz.__file__, "app": str(app_dir()), "path": sys.path, "light": light,
    "upload": config.get_option("server.maxUploadSize"), "gc": config.get_option("runner.postScriptGC"),
    "details": config.get_option("client.showErrorDetails")}))
"""
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-c", probe], cwd=elsewhere, capture_output=True, text=True, env=_env()
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert Path(found["rlviz"]).is_relative_to(venv)
    assert Path(found["app"]) == Path(found["rlviz"]).parent / "_app"
    assert not any(Path(p).resolve() == ROOT for p in found["path"] if p), "the checkout is on the path"
    assert found["light"]
    # Streamlit reads the installed .streamlit/config.toml from any working directory
    assert found["upload"] == 0 and found["gc"] is False and found["details"] == "none"


def test_the_page_files_are_found_where_the_app_is():
    # the lesson builder reads the page scripts' widget keys from app_dir() (rlviz/_app once installed)
    from rlviz.app_pages import app_dir
    from rlviz.teach import lessons

    assert lessons.ROOT == app_dir() == ROOT  # a clone: the repository root
    assert all((app_dir() / p.file).is_file() for p in PAGES)
    assert "c_algos" in lessons.page_widget_keys("curves")


def test_rlviz_compare_runs_one_step_in_the_fresh_venv(venv, elsewhere):
    started = time.monotonic()
    out = elsewhere / "run.json"
    done = subprocess.run(
        [str(venv / "bin" / "rlviz"), "compare", "--algorithms", "grpo", "--steps", "1", "--prompts-per-step", "1"]
        + ["--group-size", "2", "--mu", "1", "--mini-batches", "1", "--max-new-tokens", "8", "--heldout-samples", "0"]
        + ["--workers", "1", "--out", str(out)],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    run = json.loads(out.read_text())
    text = json.dumps(run)
    assert "grpo" in text and "pass_at_1" in text
    assert "GRPO" in done.stdout  # the summary table, one row for the arm
    print(f"rlviz compare --steps 1 in {time.monotonic() - started:.1f} s")


def test_python_m_rlviz_is_the_rlviz_command(venv, elsewhere):
    port = free_port()
    args = ["app", "--dry-run", "--port", str(port)]
    by_module = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "rlviz", *args], cwd=elsewhere, capture_output=True, text=True, env=_env()
    )
    by_command = subprocess.run(
        [str(venv / "bin" / "rlviz"), *args], cwd=elsewhere, capture_output=True, text=True, env=_env()
    )
    assert by_module.returncode == by_command.returncode == 0, by_module.stderr + by_command.stderr
    assert by_module.stdout == by_command.stdout
    command = by_command.stdout.split()
    assert command[1:4] == ["-m", "streamlit", "run"] and Path(command[4]).is_relative_to(venv)
    assert command[command.index("--server.address") + 1] == "127.0.0.1"  # this machine only, by default
    assert command[command.index("--server.port") + 1] == str(port)


def test_bad_input_through_the_installed_command_exits_2_without_a_traceback(venv, elsewhere):
    done = subprocess.run(
        [str(venv / "bin" / "rlviz"), "app", "--model-dir", "no-such-model", "--port", str(free_port())],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env=_env(),
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert "--model-dir: 'no-such-model' does not exist" in done.stderr and "fix:" in done.stderr


def _browser(test):
    """The marks of every real-browser test (``browsertools.BROWSER``: ``browser``, skipped without chromium)."""
    for mark in BROWSER:
        test = mark(test)
    return test


@_browser
def test_rlviz_app_from_another_folder_serves_the_home_page(venv, elsewhere, page):
    started = time.monotonic()
    port = free_port()
    log_path = elsewhere / f"rlviz-app-{port}.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [str(venv / "bin" / "rlviz"), "app", "--port", str(port)],
            cwd=elsewhere,
            env=_env(),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            wait_healthy(url, proc, 90, "rlviz app", log_path.read_text)
            # `rlviz app` became the server (exec): the installed app.py, not the checkout's
            cmdline = Path(f"/proc/{proc.pid}/cmdline").read_bytes().split(b"\0")
            script = Path(cmdline[cmdline.index(b"run") + 1].decode())
            assert script == venv_app(venv) and script.is_file()
            page.goto(url)
            settle(page)
            wait_count(page, ".js-plotly-plot", 1)  # the family tree of the objectives
            assert page.locator("h1").first.inner_text().strip()
            links = page.locator("[data-testid=stSidebarNav] a").count()
            assert links == len(PAGES), f"{links} links in the sidebar, {len(PAGES)} pages"
            check_and_shoot(page, "installed-home")
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(f"rlviz app up and its home page checked in {time.monotonic() - started:.1f} s")


def venv_app(venv: Path) -> Path:
    """The installed app.py of ``venv``."""
    (found,) = venv.glob("lib/python3*/site-packages/rlviz/_app/app.py")
    return found


# ------------------------------------------------------------ rlviz app's checks, in this process (fast)
def _app(capsys, *args: str) -> tuple[int, str]:
    """``rlviz app ARGS --dry-run``: the exit code and stderr; stdout must be empty unless it passed."""
    code = cli_main(["app", *args, "--dry-run"])
    out, err = capsys.readouterr()
    if code != 0:
        assert out == "" and "Traceback" not in err
    return code, err


def test_a_missing_model_dir_says_so_and_how_to_fix_it(capsys, tmp_path, monkeypatch):
    code, err = _app(capsys, "--model-dir", str(tmp_path / "nope"), "--port", str(free_port()))
    assert code == 2 and "does not exist" in err and "fix: give the folder of a local Hugging Face model" in err
    # the same from the environment names the variable
    monkeypatch.setenv("RLVIZ_MODEL_DIR", str(tmp_path / "nope"))
    code, err = _app(capsys, "--port", str(free_port()))
    assert code == 2 and err.startswith("rlviz app: RLVIZ_MODEL_DIR:")
    code, err = _app(capsys, "--model-dir", str(tmp_path), "--port", str(free_port()))  # a folder, no model
    assert code == 2 and "has no config.json" in err and "save_pretrained" in err


def _model_copy(tmp_path: Path) -> Path:
    from rlviz.lm.model import DEFAULT_MODEL_DIR

    return Path(shutil.copytree(DEFAULT_MODEL_DIR, tmp_path / "model"))


def test_a_corrupt_model_dir_names_the_damaged_file(capsys, tmp_path):
    model = _model_copy(tmp_path)
    assert _app(capsys, "--model-dir", str(model), "--port", str(free_port()))[0] == 0  # whole: it passes
    weights = model / "model.safetensors"
    data = weights.read_bytes()
    weights.write_bytes(data[: len(data) // 2])  # a download cut half way
    code, err = _app(capsys, "--model-dir", str(model), "--port", str(free_port()))
    assert code == 2 and "model.safetensors is damaged" in err and "past the end of the file" in err
    weights.write_bytes(b"not a safetensors file")
    code, err = _app(capsys, "--model-dir", str(model), "--port", str(free_port()))
    assert code == 2 and "model.safetensors is damaged" in err
    weights.unlink()
    (model / "pytorch_model.bin").write_bytes(b"pickle")
    code, err = _app(capsys, "--model-dir", str(model), "--port", str(free_port()))
    assert code == 2 and "no safetensors weights" in err and "safe_serialization=True" in err
    model = _model_copy(tmp_path / "again")
    config = (model / "config.json").read_text()
    (model / "config.json").write_text('{"model_type": "llama", ')  # cut short
    code, err = _app(capsys, "--model-dir", str(model), "--port", str(free_port()))
    assert code == 2 and "the config.json of 'model' does not load" in err and "fix:" in err
    (model / "config.json").write_text('{"model_type": "vit"}')  # an image model
    code, err = _app(capsys, "--model-dir", str(model), "--port", str(free_port()))
    assert code == 2 and "is a 'vit' model, not a causal language model" in err
    (model / "config.json").write_text(config)
    (model / "tokenizer.json").write_text("{")
    code, err = _app(capsys, "--model-dir", str(model), "--port", str(free_port()))
    assert code == 2 and "the tokenizer of 'model' does not load" in err


def test_a_model_over_the_servers_parameter_limit_is_refused_before_the_start(capsys, tmp_path, monkeypatch):
    model = _model_copy(tmp_path)
    monkeypatch.setenv("RLVIZ_MAX_PARAMETERS", "1000")
    code, err = _app(capsys, "--model-dir", str(model), "--port", str(free_port()))
    assert code == 2 and "over this server's limit of 1,000" in err and "RLVIZ_MAX_PARAMETERS=" in err


def test_a_port_in_use_says_so_and_suggests_another(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, err = _app(capsys, "--port", str(port))
    assert code == 2 and f"port {port} on 127.0.0.1 is already in use" in err and "fix:" in err and "--port" in err
    code, err = _app(capsys, "--port", "70000")
    assert code == 2 and "is not a TCP port" in err
    code, err = _app(capsys, "--address", "192.0.2.1", "--port", str(free_port()))  # TEST-NET: never this machine's
    assert code == 2 and "is not an address of this machine" in err and "--address 127.0.0.1" in err


def test_an_unknown_or_absent_device_lists_the_ones_here(capsys, monkeypatch):
    from rlviz.device import available_devices

    code, err = _app(capsys, "--device", "tpu", "--port", str(free_port()))
    assert code == 2 and "--device: 'tpu' is not a torch device name" in err
    assert f"one of: {', '.join(available_devices())}" in err
    if "cuda" not in available_devices():
        code, err = _app(capsys, "--device", "cuda", "--port", str(free_port()))
        assert code == 2 and "'cuda' is not available here" in err
    monkeypatch.setenv("RLVIZ_DEVICE", "tpu")
    code, err = _app(capsys, "--port", str(free_port()))
    assert code == 2 and "RLVIZ_DEVICE: 'tpu'" in err


def test_a_bad_limit_in_the_environment_is_named(capsys, monkeypatch):
    monkeypatch.setenv("RLVIZ_CONCURRENT_STEPS", "two")
    code, err = _app(capsys, "--port", str(free_port()))
    assert code == 2 and "RLVIZ_CONCURRENT_STEPS" in err and "fix: set RLVIZ_CONCURRENT_STEPS to a whole number" in err


def test_good_input_gives_the_server_command(capsys, monkeypatch):
    monkeypatch.delenv("RLVIZ_MODEL_DIR", raising=False)
    monkeypatch.delenv("RLVIZ_DEVICE", raising=False)
    port = free_port()
    assert cli_main(["app", "--port", str(port), "--address", "0.0.0.0", "--device", "cpu", "--dry-run"]) == 0
    command = capsys.readouterr().out.split()
    assert command[command.index("--server.address") + 1] == "0.0.0.0"
    assert command[-2:] == ["--device", "cpu"] and "--model-dir" not in command
    assert Path(command[command.index("run") + 1]) == ROOT / "app.py"  # a clone serves its own files
    assert launch.streamlit_command(model_dir="m")[-2:] == ["--model-dir", str(Path("m").resolve())]
