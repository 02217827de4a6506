"""Primary and fallback OpenAI-compatible endpoints: url and model in settings; the API key
goes where the database key is — the OS keychain when the data directory uses one, else
inside the encrypted database (a headless machine has no keychain)."""

from __future__ import annotations

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.endpoint_switch import Endpoint
from mfs_desktop.services.secrets import drop_secret, keep_secret, keychain_entry, read_secret
from mfs_desktop.services.session import Session
from mfs_desktop.store.database import Database
from mfs_desktop.store.settings import SettingsStore
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

ROLES = ("primary", "fallback")
# One sentence per role, so a translation names the role in its own words.
_URL_SCHEME = {
    "primary": QT_TRANSLATE_NOOP("", "The primary endpoint URL must start with http:// or https:// (got {url!r})."),
    "fallback": QT_TRANSLATE_NOOP("", "The fallback endpoint URL must start with http:// or https:// (got {url!r})."),
}
_NO_MODEL = {"primary": QT_TRANSLATE_NOOP("", "The primary endpoint needs a model name."),
             "fallback": QT_TRANSLATE_NOOP("", "The fallback endpoint needs a model name.")}


def key_home(session: Session, role: str) -> str:
    """The keychain entry for this endpoint's key, or "" when keys stay in the database."""
    return keychain_entry(session, f"endpoint-{role}")


def check_endpoint(role: str, url: str, model: str) -> None:
    """A plain InvalidInput for an endpoint that could not be saved (the settings dialog asks first)."""
    if role not in ROLES:
        raise InvalidInput(f"An endpoint is {' or '.join(ROLES)}, not {role!r}.")
    if not url.startswith(("http://", "https://")):
        raise InvalidInput.worded(_URL_SCHEME[role], url=url)
    if not model.strip():
        raise InvalidInput(_NO_MODEL[role])


def save_endpoint(session: Session, role: str, url: str, model: str, api_key: str) -> str:
    """Save, and say where the key went ("keychain", "database" or "" when there is none)."""
    check_endpoint(role, url, model)
    settings = SettingsStore(session.database)
    keychain_user = keep_secret(session, f"endpoint.{role}.key", api_key, "the endpoint key",
                                entry_name=f"endpoint-{role}")
    settings.set(f"endpoint.{role}", {"url": url, "model": model.strip(), "keychain_user": keychain_user})
    if not api_key:
        return ""
    return "keychain" if keychain_user else "database"


def clear_endpoint(session: Session, role: str) -> None:
    settings = SettingsStore(session.database)
    stored = settings.get(f"endpoint.{role}") or {}
    drop_secret(session.database, f"endpoint.{role}.key", stored.get("keychain_user", ""))
    settings.delete(f"endpoint.{role}")


def load_endpoint(database: Database, role: str) -> Endpoint | None:
    settings = SettingsStore(database)
    stored = settings.get(f"endpoint.{role}")
    if not stored:
        return None
    api_key = read_secret(database, f"endpoint.{role}.key", stored.get("keychain_user", ""))
    return Endpoint(stored["url"], stored["model"], api_key)
