"""Settings (JSON values) and secrets (endpoint keys), both inside the encrypted database."""

from __future__ import annotations

import json
from typing import Any

from mfs_desktop.store.database import Database


class SettingsStore:
    def __init__(self, database: Database) -> None:
        self._db = database

    def get(self, key: str, default: Any = None) -> Any:
        row = self._db.connection().execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set(self, key: str, value: Any) -> None:
        with self._db.transaction() as connection:
            connection.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, json.dumps(value)))

    def delete(self, key: str) -> None:
        with self._db.transaction() as connection:
            connection.execute("DELETE FROM settings WHERE key = ?", (key,))

    def secret(self, name: str) -> str:
        row = self._db.connection().execute("SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()
        return "" if row is None else row[0]

    def set_secret(self, name: str, value: str) -> None:
        with self._db.transaction() as connection:
            if value:
                connection.execute("INSERT OR REPLACE INTO secrets (name, value) VALUES (?, ?)", (name, value))
            else:
                connection.execute("DELETE FROM secrets WHERE name = ?", (name,))
