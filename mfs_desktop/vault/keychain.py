"""The OS keychain through `keyring`, and whether one is usable here."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import keyring
import keyring.errors

from mfs_desktop.errors import KeychainProblem

SERVICE = "mfs-desktop"


@dataclass(frozen=True)
class KeychainStatus:
    usable: bool
    backend: str
    reason: str


def _backend_name() -> str:
    backend = keyring.get_keyring()
    return f"{type(backend).__module__}.{type(backend).__name__}"


def keychain_status() -> KeychainStatus:
    """Probe the keychain with a real write, read and delete: a backend that loads is not one that works."""
    try:
        backend = keyring.get_keyring()
        name = _backend_name()
        if backend.priority <= 0:  # keyring.backends.fail / null: nothing real behind it
            return KeychainStatus(False, name, "no keychain service is available")
        probe_user = f"probe-{secrets.token_hex(6)}"
        keyring.set_password(SERVICE, probe_user, "probe")
        read_back = keyring.get_password(SERVICE, probe_user)
        keyring.delete_password(SERVICE, probe_user)
    except Exception as exc:  # every backend raises its own types; all mean "not usable here"
        return KeychainStatus(False, _safe_backend_name(), f"keychain did not answer ({type(exc).__name__})")
    if read_back != "probe":
        return KeychainStatus(False, name, "keychain did not return what was stored")
    return KeychainStatus(True, name, "ok")


def _safe_backend_name() -> str:
    try:
        return _backend_name()
    except Exception:
        return "unknown"


def store_key(username: str, key: bytes) -> None:
    store_secret(username, key.hex(), "the database key")


def store_secret(username: str, secret: str, what: str) -> None:
    try:
        keyring.set_password(SERVICE, username, secret)
    except Exception as exc:
        raise KeychainProblem(f"Could not store {what} in the system keychain ({type(exc).__name__}).") from exc


def load_secret(username: str) -> str | None:
    try:
        return keyring.get_password(SERVICE, username)
    except Exception as exc:
        raise KeychainProblem(
            f"The system keychain did not answer ({type(exc).__name__}); unlock it and try again."
        ) from exc


def load_key(username: str) -> bytes:
    stored = load_secret(username)
    if stored is None:
        raise KeychainProblem(
            "The database key is missing from the system keychain; restore the keychain "
            "(a new key would not open the existing database)."
        )
    return bytes.fromhex(stored)


def forget_key(username: str) -> None:
    try:
        keyring.delete_password(SERVICE, username)
    except keyring.errors.PasswordDeleteError:
        pass
