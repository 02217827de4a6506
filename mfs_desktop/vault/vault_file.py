"""The vault file beside the database: how to obtain the 32-byte raw SQLCipher key.

Like Signal Desktop, the database key is random and never derived from anything the user
types. It is either kept in the OS keychain (the vault file then names the keychain entry)
or wrapped with AES-256-GCM under a key derived from a passphrase with scrypt (random salt
in the vault file). A wrong passphrase fails the GCM tag before the database is touched.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from mfs_desktop.errors import NotAnMfsDatabase, PassphraseRequired, WrongPassphrase
from mfs_desktop.translatable import QT_TRANSLATE_NOOP
from mfs_desktop.vault import keychain

KEY_BYTES = 32
VAULT_FORMAT = "mfs-desktop-vault"
VAULT_VERSION = 1
# scrypt cost: 2**17 × r 8 is 128 MiB and ~0.3 s here, OWASP's recommendation for scrypt.
DEFAULT_SCRYPT_N = 2**17
SCRYPT_R = 8
SCRYPT_P = 1
# what this version writes, so a tampered file is refused before scrypt or AES sees it
SALT_BYTES, NONCE_BYTES, TAG_BYTES = 16, 12, 16
MIN_SCRYPT_N, MAX_SCRYPT_N = 2**12, 2**20  # 2**20 × r 8 is 1 GiB: beyond it a tampered file would exhaust memory


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
        raise PassphraseRequired(QT_TRANSLATE_NOOP("", "An empty passphrase would protect nothing; choose one."))
    salt = secrets.token_bytes(SALT_BYTES)
    nonce = secrets.token_bytes(NONCE_BYTES)
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
        raise PassphraseRequired(
            QT_TRANSLATE_NOOP("", "This database is locked with a passphrase; give it (or set MFS_PASSPHRASE)."))
    wrapping = _derive_wrapping_key(passphrase, record.salt, record.scrypt_n)
    try:
        return AESGCM(wrapping).decrypt(record.nonce, record.wrapped_key, record.database_id.encode("ascii"))
    except InvalidTag:
        raise WrongPassphrase(
            QT_TRANSLATE_NOOP("", "Wrong passphrase: the database was not opened and nothing was changed.")) from None


def read_vault(path: Path) -> VaultRecord:
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(body, dict) or body.get("format") != VAULT_FORMAT:
            raise ValueError("it is not an MFS Desktop key file")
        if body.get("version") != VAULT_VERSION:
            raise ValueError(f"its version {body.get('version')!r} is not {VAULT_VERSION}")
        database_id = _checked_name(body["database_id"], "database id")
        if body["mode"] == "keychain":
            return VaultRecord(
                database_id, "keychain", keychain_user=_checked_name(body["keychain"]["user"], "keychain entry")
            )
        if body["mode"] == "passphrase":
            kdf, wrap = body["kdf"], body["wrap"]
            if kdf.get("name") != "scrypt" or wrap.get("name") != "aes-256-gcm":
                raise ValueError("it names a key derivation or cipher this version does not use")
            if kdf.get("r") != SCRYPT_R or kdf.get("p") != SCRYPT_P:
                raise ValueError(
                    f"its scrypt parameters r={kdf.get('r')!r}, p={kdf.get('p')!r} are not {SCRYPT_R} and {SCRYPT_P}"
                )
            return VaultRecord(
                database_id,
                "passphrase",
                salt=_checked_bytes(kdf["salt"], "salt", SALT_BYTES),
                scrypt_n=_checked_cost(kdf["n"]),
                nonce=_checked_bytes(wrap["nonce"], "nonce", NONCE_BYTES),
                wrapped_key=_checked_bytes(wrap["key"], "wrapped key", KEY_BYTES + TAG_BYTES),
            )
        raise ValueError(f"its mode {body['mode']!r} is neither keychain nor passphrase")
    except FileNotFoundError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError) as exc:
        why = (f"field {exc} is missing" if isinstance(exc, KeyError)
               else "it is not UTF-8 text" if isinstance(exc, UnicodeDecodeError)
               else "it is not JSON" if isinstance(exc, json.JSONDecodeError)
               else str(exc) if isinstance(exc, ValueError) else "a field has the wrong type")
        raise NotAnMfsDatabase(f"The key file {path} is damaged ({why}); restore it from a backup. The database "
                               f"was not opened.") from exc


def _checked_name(value: object, what: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 128 or not value.isascii() or not value.isprintable():
        raise ValueError(f"its {what} is not a short ASCII name")
    return value


def _checked_bytes(value: object, what: str, size: int) -> bytes:
    if not isinstance(value, str):
        raise ValueError(f"its {what} is not base64 text")
    try:
        raw = base64.b64decode(value, validate=True)
    except binascii.Error:
        raise ValueError(f"its {what} is not base64 text") from None
    if len(raw) != size:
        raise ValueError(f"its {what} has {len(raw)} bytes, not {size}")
    return raw


def _checked_cost(value: object) -> int:
    if type(value) is not int or value & (value - 1) or not MIN_SCRYPT_N <= value <= MAX_SCRYPT_N:
        raise ValueError(f"its scrypt cost n={value!r} is not a power of two from 2^{MIN_SCRYPT_N.bit_length() - 1} "
                         f"to 2^{MAX_SCRYPT_N.bit_length() - 1}")
    return value


def write_vault(path: Path, record: VaultRecord) -> None:
    """Write atomically: a crash leaves either the old file or the new one, never half of one."""
    temporary = path.with_name(path.name + ".tmp")
    # 0600 from its first byte: a wrapped key is nobody else's business even for a moment
    with open(os.open(temporary, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600), "w", encoding="utf-8") as handle:
        handle.write(record.to_json())
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(temporary, 0o600)  # an older .tmp left behind keeps its mode through O_CREAT
    os.replace(temporary, path)
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
