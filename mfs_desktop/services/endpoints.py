"""Primary and fallback OpenAI-compatible endpoints: url and model in settings, key as a secret."""

from __future__ import annotations

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.openai_http import Endpoint
from mfs_desktop.store.database import Database
from mfs_desktop.store.settings import SettingsStore

ROLES = ("primary", "fallback")


def save_endpoint(database: Database, role: str, url: str, model: str, api_key: str) -> None:
    if role not in ROLES:
        raise InvalidInput(f"An endpoint is {' or '.join(ROLES)}, not {role!r}.")
    if not url.startswith(("http://", "https://")):
        raise InvalidInput(f"The endpoint URL must start with http:// or https:// (got {url!r}).")
    settings = SettingsStore(database)
    settings.set(f"endpoint.{role}", {"url": url, "model": model})
    settings.set_secret(f"endpoint.{role}.key", api_key)


def clear_endpoint(database: Database, role: str) -> None:
    settings = SettingsStore(database)
    settings.delete(f"endpoint.{role}")
    settings.set_secret(f"endpoint.{role}.key", "")


def load_endpoint(database: Database, role: str) -> Endpoint | None:
    settings = SettingsStore(database)
    stored = settings.get(f"endpoint.{role}")
    if not stored:
        return None
    return Endpoint(stored["url"], stored["model"], settings.secret(f"endpoint.{role}.key"))
