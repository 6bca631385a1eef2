"""The layers import one way only (``../shared/design.md``): pages and ``app_common`` (Streamlit) on top;
``rlviz.plots`` and ``rlviz.teach`` above ``rlviz.experiments``; ``rlviz.experiments`` above ``rlviz.lm`` and
``rlviz.core``; ``rlviz`` never imports Streamlit. Read from the source (every import statement, at module
level or inside a function), so a lazy import counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RLVIZ = ROOT / "rlviz"


def _imports(path: Path, package: str | None = None) -> set[str]:
    """The modules ``path`` imports (absolute names; a relative import is resolved against its package,
    by default the one its place under the repository names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if package is None:
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                out.add(f"{base}.{node.module}" if node.module else base)
            elif node.module:
                out.add(node.module)
    return out


def _files(package: str) -> list[Path]:
    return sorted((RLVIZ / package).rglob("*.py")) if package else sorted(RLVIZ.rglob("*.py"))


# layer -> the rlviz packages it must never import
FORBIDDEN = {
    "core": ("rlviz.lm", "rlviz.experiments", "rlviz.teach", "rlviz.plots", "rlviz.locale"),
    "lm": ("rlviz.experiments", "rlviz.teach", "rlviz.plots"),
    "experiments": ("rlviz.teach", "rlviz.plots"),
    "plots": ("rlviz.teach",),
}


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_each_layer_imports_only_the_layers_below_it(layer):
    wrong = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in _files(layer)
        for name in _imports(path)
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[layer])
    }
    assert not wrong, sorted(wrong)


def test_the_library_never_imports_streamlit():
    wrong = [str(p.relative_to(ROOT)) for p in _files("") if any(n.split(".")[0] == "streamlit" for n in _imports(p))]
    assert not wrong, wrong


def test_the_import_reader_sees_lazy_and_relative_imports(tmp_path):
    # the check above must not pass for want of reading: a function-level import and a relative one count
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from rlviz.teach import predict\n\nfrom . import curves\n", encoding="utf-8")
    assert _imports(probe, package="rlviz.experiments") == {"rlviz.teach", "rlviz.experiments"}
