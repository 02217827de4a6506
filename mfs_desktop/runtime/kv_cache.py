"""A llama.cpp KV cache kept for a later process: what it holds, and how it is sealed on disk.

A cache holds the conversation's tokens, so it is encrypted like everything else: AES-256-GCM
under a key derived from the database key, with the conversation id as associated data (a file
copied under another conversation's name does not open). The header inside names the model
file, the window and the exact token ids; a cache is used only when all three match and its
ids are the start of the prompt about to be sent.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

MAGIC = b"MFSKV1"
_IDENTITY_SPAN = 1 << 20


class CacheUnusable(Exception):
    """Why a saved cache is ignored; `str()` goes to the log (no text of the conversation)."""


@dataclass(frozen=True)
class CacheSnapshot:
    model_id: str
    window: int
    token_ids: tuple[int, ...]
    text: str  # what the ids stand for, so the next prompt is tokenized the same way
    state: bytes  # llama.cpp's sequence state: the KV cells of those ids


def model_identity(path: Path) -> str:
    """The model file's size with the hash of its first and last MiB: another file, or the same
    name rewritten, gets another identity without hashing gigabytes."""
    size = path.stat().st_size
    digest = hashlib.sha256(str(size).encode())
    with open(path, "rb") as handle:
        digest.update(handle.read(_IDENTITY_SPAN))
        handle.seek(max(0, size - _IDENTITY_SPAN))
        digest.update(handle.read(_IDENTITY_SPAN))
    return digest.hexdigest()[:32]


def seal(snapshot: CacheSnapshot, key: bytes, conversation_id: str) -> bytes:
    header = json.dumps({"model_id": snapshot.model_id, "window": snapshot.window,
                         "tokens": len(snapshot.token_ids), "text": snapshot.text}).encode("utf-8")
    ids = struct.pack(f"<{len(snapshot.token_ids)}i", *snapshot.token_ids)
    plain = struct.pack("<I", len(header)) + header + ids + snapshot.state
    nonce = os.urandom(12)
    return MAGIC + nonce + AESGCM(key).encrypt(nonce, plain, conversation_id.encode("utf-8"))


def unseal(blob: bytes, key: bytes, conversation_id: str) -> CacheSnapshot:
    if not blob.startswith(MAGIC) or len(blob) < len(MAGIC) + 12 + 16:
        raise CacheUnusable("not a saved cache")
    nonce = blob[len(MAGIC):len(MAGIC) + 12]
    try:
        plain = AESGCM(key).decrypt(nonce, blob[len(MAGIC) + 12:], conversation_id.encode("utf-8"))
    except InvalidTag:
        raise CacheUnusable("does not authenticate (damaged, another key or another conversation)") from None
    try:
        (length,) = struct.unpack_from("<I", plain)
        header = json.loads(plain[4:4 + length])
        count = int(header["tokens"])
        start = 4 + length
        ids = struct.unpack_from(f"<{count}i", plain, start)
        return CacheSnapshot(str(header["model_id"]), int(header["window"]), tuple(ids), str(header["text"]),
                             plain[start + 4 * count:])
    except (struct.error, ValueError, KeyError, TypeError) as error:
        raise CacheUnusable(f"malformed inside ({type(error).__name__})") from None
