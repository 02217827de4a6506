"""Settings (JSON values) and secrets (endpoint keys), both inside the encrypted database."""

from __future__ import annotations

import json
from typing import Any

from mfs_desktop.store.database import Connection, Database


class SettingsStore:
    def __init__(self, database: Database) -> None:
        self._db = database

    def get(self, key: str, default: Any = None) -> Any:
        row = self._db.connection().execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set(self, key: str, value: Any) -> None:
        def change(connection: Connection) -> None:
            connection.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, json.dumps(value)))

        self._db.write(change)

    def delete(self, key: str) -> None:
        def change(connection: Connection) -> None:
            connection.execute("DELETE FROM settings WHERE key = ?", (key,))

        self._db.write(change)

    def secret(self, name: str) -> str:
        row = self._db.connection().execute("SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()
        return "" if row is None else row[0]

    def set_secret(self, name: str, value: str) -> None:
        def change(connection: Connection) -> None:
            if value:
                connection.execute("INSERT OR REPLACE INTO secrets (name, value) VALUES (?, ?)", (name, value))
            else:
                connection.execute("DELETE FROM secrets WHERE name = ?", (name,))

        self._db.write(change)
