"""Packaging hook: the project is declared in pyproject.toml; this only adds the Streamlit app to the wheel.

The app's files stay where a clone runs them (``make run``: ``app.py``, ``pages/``, ``app_common/``,
``assets/`` and ``.streamlit/config.toml`` at the repository root); a build copies them into the package
as ``rlviz/_app/``, where ``rlviz app`` serves them from (``rlviz.app_pages.app_dir``). An editable
install (``pip install -e .``) copies nothing: it runs them from the clone.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

# what the installed app needs besides the rlviz package, relative to the repository root
APP_FILES = ("app.py", "pages/*.py", "app_common/**/*.py", "assets/favicon.png", ".streamlit/config.toml")
APP_DIR = "rlviz/_app"  # where they go in the wheel


class BuildWithApp(build_py):
    """``build_py`` that also copies :data:`APP_FILES` into ``build_lib/rlviz/_app``.

    Raises:
        SystemExit: a pattern of :data:`APP_FILES` matches no file (a wheel without its app would
            install and then fail at ``rlviz app``).
    """

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        root = Path(__file__).resolve().parent
        target = Path(self.build_lib) / APP_DIR
        for pattern in APP_FILES:
            found = sorted(p for p in root.glob(pattern) if p.is_file())
            if not found:
                raise SystemExit(f"setup.py: no file matches {pattern!r} in {root}: the app is incomplete")
            for source in found:
                destination = target / source.relative_to(root)
                self.mkpath(str(destination.parent))
                self.copy_file(str(source), str(destination))


setup(cmdclass={"build_py": BuildWithApp})
