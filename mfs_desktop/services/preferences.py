"""The app's own preferences, kept in the encrypted settings table: which model the window
runs, how it sends, and the user's profile text that the knowledge slot carries."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.model_files import check_gguf
from mfs_desktop.runtime.model_info import read_model_info
from mfs_desktop.services.models.choice import DEFAULT_WINDOW, PROVIDERS, ModelChoice
from mfs_desktop.store.database import Database
from mfs_desktop.store.settings import SettingsStore
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

SEND_KEYS = ("enter", "ctrl+enter")
WINDOW_RANGE = (512, 131_072)
# The profile rides in every request's knowledge slot; a page of text is plenty and keeps the
# slot well inside the window's fixed zones.
PROFILE_MAX_CHARS = 4_000
_KEY = "preferences"
CACHE_MB_MAX = 1 << 20
THEMES = ("system", "light", "dark")
FONT_RANGE = (7, 32)


@dataclass(frozen=True)
class Preferences:
    provider: str = "embedded"
    model_path: str = ""  # empty: the bundled default model
    window: int = DEFAULT_WINDOW
    threads: int = 0  # 0: llama.cpp decides
    send_key: str = "enter"
    profile_text: str = ""
    cache_mb: int = 2048  # saved KV caches of conversations (warm start); 0 keeps none
    theme: str = "system"  # system | light | dark
    font_size: int = 0  # points; 0 is the system's

    @property
    def cache_bytes(self) -> int:
        return self.cache_mb << 20

    def model_choice(self) -> ModelChoice:
        return ModelChoice(self.provider, Path(self.model_path) if self.model_path else None, self.window,
                           self.threads or None)


def load_preferences(database: Database) -> Preferences:
    stored = SettingsStore(database).get(_KEY, {})
    known = {name: stored[name] for name in Preferences.__dataclass_fields__ if name in stored}
    return replace(Preferences(), **known)


def validate(preferences: Preferences) -> Preferences:
    """The preferences as they will be saved, or a plain InvalidInput naming the bad field."""
    if preferences.provider not in PROVIDERS:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Unknown model provider {provider!r}."),
                                  provider=preferences.provider)
    model_path = preferences.model_path.strip()
    if model_path:
        check_gguf(Path(model_path).expanduser())
        problem = read_model_info(Path(model_path).expanduser()).problem
        if problem:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{path} cannot be used: {problem}."), path=model_path,
                                      problem=problem)
    low, high = WINDOW_RANGE
    if not low <= preferences.window <= high:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The window must be between {low:,} and {high:,} tokens."),
                                  low=low, high=high)
    if not 0 <= preferences.threads <= (os.cpu_count() or 1) * 2:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Threads must be between 0 (automatic) and {most}."),
                                  most=(os.cpu_count() or 1) * 2)
    if not 0 <= preferences.cache_mb <= CACHE_MB_MAX:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The saved context cache is between 0 (none) and {most:,} MB."),
                                  most=CACHE_MB_MAX)
    if preferences.theme not in THEMES:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The theme is one of {themes}."), themes=", ".join(THEMES))
    if preferences.font_size and not FONT_RANGE[0] <= preferences.font_size <= FONT_RANGE[1]:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The text size is 0 (the system's) or {low} to {high} points."),
                                  low=FONT_RANGE[0], high=FONT_RANGE[1])
    if preferences.send_key not in SEND_KEYS:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The send key is one of {keys}."), keys=", ".join(SEND_KEYS))
    if len(preferences.profile_text) > PROFILE_MAX_CHARS:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The profile is limited to {limit:,} characters (it has "
                                                        "{count:,})."),
                                  limit=PROFILE_MAX_CHARS, count=len(preferences.profile_text))
    return replace(preferences, model_path=str(Path(model_path).expanduser()) if model_path else "",
                   profile_text=preferences.profile_text.strip())


def save_preferences(database: Database, preferences: Preferences) -> Preferences:
    checked = validate(preferences)
    SettingsStore(database).set(_KEY, checked.__dict__)
    return checked
