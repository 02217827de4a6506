"""Where MFS Desktop keeps its files."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "mfs-desktop"
DATABASE_FILENAME = "transcript.db"
VAULT_FILENAME = "vault.json"


def resolve_data_dir(option: str | None = None) -> Path:
    """The `--data-dir` option wins, then `MFS_DATA_DIR`, then the platform's data dir."""
    chosen = option or os.environ.get("MFS_DATA_DIR")
    if chosen:
        return Path(chosen).expanduser().resolve()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
