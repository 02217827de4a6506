"""Layering (DESIGN section 3), enforced by tools: the import-linter contracts in
pyproject.toml (layers, Qt only in ui, a shared bottom, and between the subpackages of services
and ui), no import cycle anywhere, ruff on all code, and mypy on the layers below services."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TOOLS = Path(sys.executable).parent


def _run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=600)


def test_import_contracts_are_kept() -> None:
    result = _run(str(TOOLS / "lint-imports"))
    assert result.returncode == 0, result.stdout[-3000:]
    assert "9 kept, 0 broken" in result.stdout


def test_no_module_imports_itself_through_others() -> None:
    """Issue 47: no import cycle, `if TYPE_CHECKING` imports included (a cycle there is still two
    modules that cannot be read apart). Strongly connected parts of the import graph, found by
    Tarjan's algorithm over grimp's graph (the one import-linter checks)."""
    import grimp

    graph = grimp.build_graph("mfs_desktop")
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            part = stack[stack.index(module):]
            del stack[stack.index(module):]
            if len(part) > 1:
                cycles.append(sorted(part))

    for module in sorted(graph.modules):
        if module not in order:
            visit(module)
    assert cycles == []


def test_ruff_is_clean() -> None:
    result = _run(str(TOOLS / "ruff"), "check", "--no-cache", "mfs_desktop", "tests", "scripts")
    assert result.returncode == 0, result.stdout[-3000:]


def test_mypy_is_clean_below_services() -> None:
    result = _run(sys.executable, "-m", "mypy", "mfs_desktop/store", "mfs_desktop/context", "mfs_desktop/compaction",
                  "mfs_desktop/runtime")
    assert result.returncode == 0, result.stdout[-3000:]


def test_no_module_is_over_400_lines() -> None:
    """Issue 28 item 4: small modules named for what they hold."""
    long = {str(path.relative_to(REPO)): lines for path in (REPO / "mfs_desktop").rglob("*.py")
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}
