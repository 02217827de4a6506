"""Layering (DESIGN section 3), enforced by tools: the import-linter contracts in
pyproject.toml (layers, Qt only in ui, a shared bottom), ruff on all code, and mypy on the
layers below services."""

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
    assert "3 kept, 0 broken" in result.stdout


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
