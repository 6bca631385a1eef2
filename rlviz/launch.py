"""``rlviz app``: serve the Streamlit app of this rlviz, installed (``pip install``) or from a clone.

The app's files are those of :func:`rlviz.app_pages.app_dir` (``rlviz/_app`` in an installed rlviz, the
repository root of a clone), served by Streamlit's own command line on their ``app.py`` with their
hardened ``.streamlit/config.toml`` (Streamlit reads the config beside the script it runs, from any
working directory). Before the server starts, what can be checked is: the port is free on the address,
the device exists here, the model directory holds a loadable Hugging Face causal LM, the ``RLVIZ_*``
limits are whole numbers. A problem is one message saying what is wrong and how to fix it, exit code 2,
no traceback. The run limits and the cookie secret pass through the environment as with ``make run``
(``RLVIZ_CONCURRENT_STEPS``, ``RLVIZ_MAX_STEPS``, ``STREAMLIT_SERVER_COOKIE_SECRET``, ...).

No Streamlit import here (``rlviz`` never imports Streamlit; ``tests/test_layers.py``): the server is a
``python -m streamlit run`` that replaces this process.
"""

from __future__ import annotations

import argparse
import errno
import importlib.util
import json
import math
import os
import shlex
import socket
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from rlviz.app_pages import app_dir

__all__ = [
    "LaunchError",
    "add_arguments",
    "check_device",
    "check_limits",
    "check_model_dir",
    "check_port",
    "main",
    "streamlit_command",
]

DEFAULT_PORT = 8501
DEFAULT_ADDRESS = "127.0.0.1"  # this machine only; a class network is a choice (README "Serving a class")
_MAX_HEADER = 100 * 1024 * 1024  # a safetensors header larger than this is not a header


class LaunchError(ValueError):
    """What stops ``rlviz app`` from starting: ``problem`` (what is wrong, naming the option or the
    environment variable) and ``fix`` (what to do about it)."""

    def __init__(self, problem: str, fix: str):
        super().__init__(f"{problem}; {fix}")
        self.problem = problem
        self.fix = fix


def check_port(address: str, port: int) -> None:
    """Check that a server can listen on ``address``:``port`` now (binds a socket there and closes it,
    with ``SO_REUSEADDR`` as the server's own socket has, so a port left in TIME_WAIT counts as free).

    Args:
        address: an address of this machine (``127.0.0.1``, ``0.0.0.0``, ``::1``, a host name).
        port: a TCP port, 1 to 65535.

    Raises:
        LaunchError: the port is out of range, in use, or needs privileges, or the address is not one
            of this machine's.
    """
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise LaunchError(
            f"--port: {port!r} is not a TCP port", f"give a number from 1 to 65535, e.g. --port {DEFAULT_PORT}"
        )
    not_here = LaunchError(
        f"--address: {address!r} is not an address of this machine",
        "use --address 127.0.0.1 (this machine only) or --address 0.0.0.0 (every network it is on)",
    )
    try:
        infos = socket.getaddrinfo(address, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        raise not_here from None
    family, kind, proto, _, where = infos[0]
    with socket.socket(family, kind, proto) as sock:
        if os.name != "nt":  # on Windows SO_REUSEADDR would let two servers share the port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(where)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                other = DEFAULT_PORT if port != DEFAULT_PORT else DEFAULT_PORT + 1
                raise LaunchError(
                    f"--port: port {port} on {address} is already in use (another rlviz or Streamlit server?)",
                    f"stop that server, or choose a free port, e.g. --port {other}",
                ) from None
            if exc.errno == errno.EACCES:
                raise LaunchError(
                    f"--port: port {port} on {address} needs administrator rights",
                    f"choose a port from 1024 up, e.g. --port {DEFAULT_PORT}",
                ) from None
            if exc.errno == errno.EADDRNOTAVAIL:
                raise not_here from None
            raise LaunchError(
                f"--address/--port: cannot listen on {address}:{port} ({exc.strerror or exc})",
                "check --address and --port",
            ) from None


def check_device(device: str | None, source: str = "--device") -> None:
    """Check that ``device`` is a torch device available here (``None``, ``""`` and ``"auto"`` always
    are: the best one, cuda then mps then cpu). Imports torch only for a named device.

    Args:
        device: a device name (``cpu``, ``cuda``, ``cuda:1``, ``mps``, ``auto``).
        source: where it came from, for the message (``--device`` or ``RLVIZ_DEVICE``).

    Raises:
        LaunchError: not a torch device name, or a device this machine does not have.
    """
    if device in (None, "", "auto"):
        return
    from rlviz.device import available_devices, pick_device

    try:
        pick_device(device)
    except ValueError as exc:
        text = str(exc).removeprefix("device: ")
        raise LaunchError(
            f"{source}: {text}",
            f"use auto (the best one here: {available_devices()[0]}) or one of: {', '.join(available_devices())}",
        ) from None


def _safetensors_parameters(path: Path) -> int:
    """The number of values the tensors of one safetensors file hold, read from its header; raises
    ``ValueError`` when the header is unreadable or names bytes past the end of the file."""
    size = path.stat().st_size
    with path.open("rb") as f:
        head = f.read(8)
        if len(head) < 8:
            raise ValueError("shorter than a safetensors header")
        length = int.from_bytes(head, "little")
        if length > min(size - 8, _MAX_HEADER):
            raise ValueError("its header is cut or is not a safetensors header")
        try:
            header = json.loads(f.read(length))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ValueError("its header is not valid JSON") from None
    data = size - 8 - length
    total = 0
    try:
        for name, info in header.items():
            if name == "__metadata__":
                continue
            start, end = info["data_offsets"]
            if not 0 <= start <= end <= data:
                raise ValueError(f"tensor {name!r} lies past the end of the file (cut short?)")
            total += math.prod(int(n) for n in info["shape"])
    except (AttributeError, KeyError, TypeError) as exc:
        raise ValueError(f"its header is not a safetensors header ({type(exc).__name__})") from None
    return total


def check_model_dir(model_dir: str | os.PathLike | None, source: str = "--model-dir", environ=None) -> None:
    """Check, without loading the weights, that ``model_dir`` is a local Hugging Face causal LM that the
    app can load: a folder with a ``config.json`` of a causal-LM type transformers knows (no remote code),
    a tokenizer, and safetensors weights whose files are whole and within the server's
    ``max_parameters`` (``RLVIZ_MAX_PARAMETERS``). ``None`` is the shipped tiny LM: nothing to check.

    Args:
        model_dir: the folder (absolute, or relative to the working directory).
        source: where it came from, for the message (``--model-dir`` or ``RLVIZ_MODEL_DIR``).
        environ: the environment the server limits are read from (``os.environ`` by default).

    Raises:
        LaunchError: missing, not a folder, or not loadable (the message says which file and how to
            save the model so that it loads).
    """
    if model_dir is None:
        return
    path = Path(model_dir).expanduser()
    save = "save the model with model.save_pretrained(DIR) and its tokenizer with tokenizer.save_pretrained(DIR)"
    if not path.exists():
        raise LaunchError(
            f"{source}: {str(model_dir)!r} does not exist",
            "give the folder of a local Hugging Face model (config.json, tokenizer, *.safetensors), "
            "or leave it out for the shipped tiny LM",
        )
    if not path.is_dir():
        raise LaunchError(
            f"{source}: {str(model_dir)!r} is a file, not a folder", "give the folder that holds config.json"
        )
    if not (path / "config.json").is_file():
        raise LaunchError(f"{source}: {str(model_dir)!r} has no config.json (not a Hugging Face model folder)", save)
    try:  # before transformers is imported (seconds): a cut or hand-edited config.json is the usual damage
        json.loads((path / "config.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LaunchError(
            f"{source}: the config.json of {path.name!r} does not load ({type(exc).__name__}: {exc})", save
        ) from None
    weights = sorted(path.glob("*.safetensors"))
    if not weights:
        pickled = [p.name for p in path.glob("*.bin")]
        raise LaunchError(
            f"{source}: {str(model_dir)!r} has no safetensors weights"
            + (f" ({', '.join(pickled)} is refused: a pickle can run code when loaded)" if pickled else ""),
            "save it with model.save_pretrained(DIR, safe_serialization=True)",
        )
    index = path / "model.safetensors.index.json"
    if index.is_file():
        try:
            shards = set(json.loads(index.read_text(encoding="utf-8"))["weight_map"].values())
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            raise LaunchError(f"{source}: {index.name} in {str(model_dir)!r} is damaged", save) from None
        missing = sorted(s for s in shards if not (path / s).is_file())
        if missing:
            raise LaunchError(f"{source}: {str(model_dir)!r} lacks weight files {', '.join(missing[:3])}", save)
    parameters = 0
    for file in weights:
        try:
            parameters += _safetensors_parameters(file)
        except (OSError, ValueError) as exc:
            raise LaunchError(f"{source}: the weights file {file.name} is damaged: {exc}", save) from None
    _check_loads(path, source, save)
    from rlviz.serving import ServerLimits

    try:
        limit = ServerLimits.from_env(environ).max_parameters
    except ValueError:
        return  # check_limits says it
    if parameters > limit:
        raise LaunchError(
            f"{source}: the model has {parameters:,} parameters, over this server's limit of {limit:,} "
            "(each session trains its own copies)",
            f"choose a smaller model, or raise the limit: RLVIZ_MAX_PARAMETERS={parameters} "
            "(docs/serving.md, GPU and your own model)",
        )


def _check_loads(path: Path, source: str, save: str) -> None:
    """transformers reads ``path``'s config and tokenizer (small files; no weights), as the app will."""
    from transformers import AutoConfig, AutoTokenizer
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

    what = "config.json"
    try:
        config = AutoConfig.from_pretrained(path)
        if config.model_type not in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
            raise LaunchError(
                f"{source}: {path.name!r} is a {config.model_type!r} model, not a causal language model",
                "give a causal LM (one that AutoModelForCausalLM loads, e.g. a Llama, Qwen or GPT-2 model)",
            )
        what = "tokenizer"
        AutoTokenizer.from_pretrained(path)
    except LaunchError:
        raise
    except Exception as exc:  # transformers raises many kinds for a damaged or unknown file
        first = (str(exc).splitlines() or [""])[0][:200]
        raise LaunchError(
            f"{source}: the {what} of {path.name!r} does not load ({type(exc).__name__}: {first})", save
        ) from None


def check_limits(environ: Mapping[str, str] | None = None) -> None:
    """Check the server limits of the environment (``RLVIZ_MAX_STEPS``, ``RLVIZ_CONCURRENT_STEPS``, ...;
    :meth:`rlviz.serving.ServerLimits.from_env`). The app would fall back to the defaults with a log line.

    Raises:
        LaunchError: naming the variable that is not a whole number in its range.
    """
    from rlviz.serving import ServerLimits

    try:
        ServerLimits.from_env(environ)
    except ValueError as exc:
        name = str(exc).split(":", 1)[0]
        raise LaunchError(str(exc), f"set {name} to a whole number in range, or unset it for the default") from None


def streamlit_command(
    address: str = DEFAULT_ADDRESS,
    port: int = DEFAULT_PORT,
    model_dir: str | None = None,
    device: str | None = None,
    python: str | None = None,
) -> list[str]:
    """The command that serves the app: Streamlit's command line on :func:`app_dir`'s ``app.py``,
    headless, with the app's options after ``--`` (read by ``app_common.server_options``).

    Args:
        address, port: where the server listens.
        model_dir: a model folder (made absolute), ``None`` for the shipped tiny LM.
        device: the default device (``None``: auto).
        python: the interpreter (default: this one).

    Returns:
        The argument list, program first.
    """
    command = [python or sys.executable, "-m", "streamlit", "run", str(app_dir() / "app.py")]
    command += ["--server.address", address, "--server.port", str(port), "--server.headless", "true", "--"]
    if model_dir is not None:
        command += ["--model-dir", str(Path(model_dir).expanduser().resolve())]
    if device not in (None, ""):
        command += ["--device", device]
    return command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``rlviz app``'s options to ``parser``."""
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the TCP port ({DEFAULT_PORT})")
    parser.add_argument(
        "--address",
        default=DEFAULT_ADDRESS,
        help="where to listen: 127.0.0.1 (default, this machine only); 0.0.0.0 serves every network, "
        "e.g. a class (README 'Serving a class')",
    )
    parser.add_argument(
        "--model-dir",
        default=None,
        help="a local Hugging Face causal LM folder (default: RLVIZ_MODEL_DIR, else the shipped tiny LM)",
    )
    parser.add_argument(
        "--device",
        default=None,
        help="the default device: auto, cpu, cuda, cuda:1, mps (default: RLVIZ_DEVICE, else auto)",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="check everything and print the server command, without starting it"
    )


def run(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> int:
    """Check ``args`` and serve the app: on POSIX this process becomes the server (``exec``), so its exit
    code and signals are the server's.

    Args:
        args: the parsed options of :func:`add_arguments`.
        environ: where ``RLVIZ_MODEL_DIR``, ``RLVIZ_DEVICE`` and the limits are read (``os.environ`` by
            default; the server itself inherits this process's environment).

    Returns:
        2 after printing the problem and its fix to stderr when a check fails (no exception escapes),
        0 after ``--dry-run`` (the command printed); elsewhere than POSIX, the server's exit code.
    """
    environ = os.environ if environ is None else environ
    model_dir, model_source = args.model_dir, "--model-dir"
    if model_dir is None and environ.get("RLVIZ_MODEL_DIR"):
        model_dir, model_source = environ["RLVIZ_MODEL_DIR"], "RLVIZ_MODEL_DIR"
    device, device_source = args.device, "--device"
    if device is None and environ.get("RLVIZ_DEVICE"):
        device, device_source = environ["RLVIZ_DEVICE"], "RLVIZ_DEVICE"
    try:
        if not (app_dir() / "app.py").is_file():
            raise LaunchError(
                f"this rlviz has no app files ({app_dir() / 'app.py'} is missing)",
                "reinstall it from a wheel or with pip install . in a clone (setup.py adds them)",
            )
        if importlib.util.find_spec("streamlit") is None:
            raise LaunchError(f"Streamlit is not installed for {sys.executable}", "pip install rlviz installs it")
        check_limits(environ)
        check_port(args.address, args.port)
        check_device(device, device_source)
        check_model_dir(model_dir, model_source, environ)
    except LaunchError as exc:
        print(f"rlviz app: {exc.problem}\n  fix: {exc.fix}", file=sys.stderr)
        return 2
    command = streamlit_command(args.address, args.port, model_dir, device)
    if args.dry_run:
        print(shlex.join(command))
        return 0
    model = Path(model_dir).name if model_dir else "the shipped tiny LM"
    print(f"rlviz app: serving {app_dir()} with {model} (device {device or 'auto'}); Ctrl-C stops it", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(command[0], command)  # never returns
    try:  # elsewhere (Windows) a child process
        return subprocess.call(command)
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """``rlviz app [--port N] [--address A] [--model-dir DIR] [--device D] [--dry-run]``; see :func:`run`.

    Args:
        argv: the arguments after ``app`` (default: ``sys.argv[1:]``).

    Returns:
        The exit code: 2 for bad input (an unknown option exits 2 through argparse), 0 for ``--dry-run``;
        a started server does not return on POSIX.
    """
    parser = argparse.ArgumentParser(prog="rlviz app", description="Serve the rlviz app (Streamlit).")
    add_arguments(parser)
    return run(parser.parse_args(argv))
