"""The vault file beside the database: how to obtain the 32-byte raw SQLCipher key.

Like Signal Desktop, the database key is random and never derived from anything the user
types. It is either kept in the OS keychain (the vault file then names the keychain entry)
or wrapped with AES-256-GCM under a key derived from a passphrase with scrypt (random salt
in the vault file). A wrong passphrase fails the GCM tag before the database is touched.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from mfs_desktop.errors import NotAnMfsDatabase, PassphraseRequired, WrongPassphrase
from mfs_desktop.vault import keychain

KEY_BYTES = 32
VAULT_FORMAT = "mfs-desktop-vault"
VAULT_VERSION = 1
# scrypt cost: 2**17 × r 8 is 128 MiB and ~0.3 s here, OWASP's recommendation for scrypt.
DEFAULT_SCRYPT_N = 2**17
SCRYPT_R = 8
SCRYPT_P = 1


@dataclass(frozen=True)
class VaultRecord:
    """One parsed vault file; `mode` is "keychain" or "passphrase"."""

    database_id: str
    mode: str
    keychain_user: str = ""
    salt: bytes = b""
    scrypt_n: int = 0
    nonce: bytes = b""
    wrapped_key: bytes = b""

    def to_json(self) -> str:
        body: dict[str, object] = {
            "format": VAULT_FORMAT,
            "version": VAULT_VERSION,
            "database_id": self.database_id,
            "mode": self.mode,
        }
        if self.mode == "keychain":
            body["keychain"] = {"service": keychain.SERVICE, "user": self.keychain_user}
        else:
            body["kdf"] = {"name": "scrypt", "n": self.scrypt_n, "r": SCRYPT_R, "p": SCRYPT_P, "salt": _b64(self.salt)}
            body["wrap"] = {"name": "aes-256-gcm", "nonce": _b64(self.nonce), "key": _b64(self.wrapped_key)}
        return json.dumps(body, indent=2, sort_keys=True) + "\n"


def new_database_key() -> bytes:
    return secrets.token_bytes(KEY_BYTES)


def new_database_id() -> str:
    return secrets.token_hex(16)


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def _derive_wrapping_key(passphrase: str, salt: bytes, n: int) -> bytes:
    return Scrypt(salt=salt, length=KEY_BYTES, n=n, r=SCRYPT_R, p=SCRYPT_P).derive(passphrase.encode("utf-8"))


def passphrase_record(database_id: str, key: bytes, passphrase: str, scrypt_n: int = DEFAULT_SCRYPT_N) -> VaultRecord:
    if not passphrase:
        raise PassphraseRequired("An empty passphrase would protect nothing; choose one.")
    salt = secrets.token_bytes(16)
    nonce = secrets.token_bytes(12)
    wrapping = _derive_wrapping_key(passphrase, salt, scrypt_n)
    wrapped = AESGCM(wrapping).encrypt(nonce, key, database_id.encode("ascii"))
    return VaultRecord(database_id, "passphrase", salt=salt, scrypt_n=scrypt_n, nonce=nonce, wrapped_key=wrapped)


def keychain_record(database_id: str, key: bytes) -> VaultRecord:
    """Store `key` in the keychain under a fresh entry name and describe it."""
    user = f"{database_id}-{secrets.token_hex(4)}"
    keychain.store_key(user, key)
    return VaultRecord(database_id, "keychain", keychain_user=user)


def unlock_record(record: VaultRecord, passphrase: str | None) -> bytes:
    """The raw database key this record protects."""
    if record.mode == "keychain":
        return keychain.load_key(record.keychain_user)
    if passphrase is None:
        raise PassphraseRequired("This database is locked with a passphrase; give it (or set MFS_PASSPHRASE).")
    wrapping = _derive_wrapping_key(passphrase, record.salt, record.scrypt_n)
    try:
        return AESGCM(wrapping).decrypt(record.nonce, record.wrapped_key, record.database_id.encode("ascii"))
    except InvalidTag:
        raise WrongPassphrase("Wrong passphrase: the database was not opened and nothing was changed.") from None


def read_vault(path: Path) -> VaultRecord:
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
        if body.get("format") != VAULT_FORMAT:
            raise ValueError("format")
        if body.get("version") != VAULT_VERSION:
            raise ValueError("version")
        if body["mode"] == "keychain":
            return VaultRecord(body["database_id"], "keychain", keychain_user=body["keychain"]["user"])
        if body["mode"] == "passphrase":
            kdf, wrap = body["kdf"], body["wrap"]
            return VaultRecord(
                body["database_id"],
                "passphrase",
                salt=base64.b64decode(kdf["salt"], validate=True),
                scrypt_n=int(kdf["n"]),
                nonce=base64.b64decode(wrap["nonce"], validate=True),
                wrapped_key=base64.b64decode(wrap["key"], validate=True),
            )
        raise ValueError("mode")
    except FileNotFoundError:
        raise
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise NotAnMfsDatabase(f"The key file {path} is damaged or not an MFS Desktop key file.") from exc


def write_vault(path: Path, record: VaultRecord) -> None:
    """Write atomically: a crash leaves either the old file or the new one, never half of one."""
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(record.to_json())
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
