"""Layering (DESIGN section 3): only mfs_desktop.ui imports Qt."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mfs_desktop"


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_only_ui_imports_qt() -> None:
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "ui" not in path.relative_to(PACKAGE).parts[:1]
        and any(name.split(".")[0] in ("PySide6", "shiboken6") for name in _imports(path))
    ]
    assert offenders == []
    assert any("PySide6" in name for path in (PACKAGE / "ui").rglob("*.py") for name in _imports(path))


def test_core_layers_do_not_import_services_or_ui() -> None:
    for layer in ("store", "vault", "context", "compaction", "runtime"):
        for path in (PACKAGE / layer).rglob("*.py"):
            bad = {n for n in _imports(path) if n.startswith(("mfs_desktop.services", "mfs_desktop.ui"))}
            assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}"
