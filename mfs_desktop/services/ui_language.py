"""Which language the window speaks: "system" (the desktop's) or one the app is translated to.

Kept in a small plain file in the data folder, not in the encrypted settings, because the
unlock dialog is shown before the database can be read; the choice says nothing about the
conversations. `MFS_LANGUAGE` overrides it for one run (screenshots, tests)."""

from __future__ import annotations

import os
from pathlib import Path

from mfs_desktop.errors import InvalidInput

LANGUAGE_CODES = ("system", "en", "zh_CN")
_FILE = "language"


def load_language(root: Path) -> str:
    chosen = os.environ.get("MFS_LANGUAGE", "").strip()
    if not chosen:
        try:
            chosen = (root / _FILE).read_text(encoding="utf-8").strip()
        except (FileNotFoundError, NotADirectoryError, UnicodeDecodeError):
            chosen = ""
    return chosen if chosen in LANGUAGE_CODES else "system"


def save_language(root: Path, language: str) -> None:
    if language not in LANGUAGE_CODES:
        raise InvalidInput(f"The language is one of {', '.join(LANGUAGE_CODES)}.")
    root.mkdir(parents=True, exist_ok=True)
    staged = root / (_FILE + ".new")
    staged.write_text(language + "\n", encoding="utf-8")
    os.replace(staged, root / _FILE)
