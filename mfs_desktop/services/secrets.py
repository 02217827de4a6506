"""Secrets a person gives the app — an endpoint's API key, an MCP server's token — kept where
the database key is: the OS keychain when the data folder uses one, else inside the encrypted
database (a headless machine has no keychain). Never in the plain settings."""

from __future__ import annotations

from mfs_desktop.services.session import Session
from mfs_desktop.store.database import Database
from mfs_desktop.store.settings import SettingsStore
from mfs_desktop.vault import keychain
from mfs_desktop.vault.vault_file import read_vault


def keychain_entry(session: Session, name: str) -> str:
    """The keychain entry a secret called `name` goes to, or "" when secrets stay in the database."""
    record = read_vault(session.data_dir.vault)
    return f"{record.database_id}-{name}" if record.mode == "keychain" else ""


def keep_secret(session: Session, name: str, value: str, what: str, *, entry_name: str = "") -> str:
    """Store `value` (or forget it, when empty) under `name` in the database, or under
    `entry_name` (default `name`) in the keychain; returns the keychain entry used, "" for none."""
    settings = SettingsStore(session.database)
    entry = keychain_entry(session, entry_name or name)
    if entry and value:
        keychain.store_secret(entry, value, what)
        settings.set_secret(name, "")
        return entry
    if entry:
        keychain.forget_key(entry)
    settings.set_secret(name, value)
    return ""


def read_secret(database: Database, name: str, entry: str) -> str:
    return (keychain.load_secret(entry) or "") if entry else SettingsStore(database).secret(name)


def drop_secret(database: Database, name: str, entry: str) -> None:
    if entry:
        keychain.forget_key(entry)
    SettingsStore(database).set_secret(name, "")
