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

# MFSKV1 (one AES-GCM message) and MFSKV2 (its state size not authenticated) are ignored as "an
# older format" and replaced.
MAGIC = b"MFSKV3"
_IDENTITY_SPAN = 1 << 20
# Sealed a MiB at a time: AES-GCM and the copies around it hold the GIL, and one 50 MB message
# stopped the window's event loop for 25-45 ms after every answer; a MiB takes about 1 ms.
CHUNK = 1 << 20
_RECORD = struct.Struct("<I")
_PREFIX = 8  # random nonce prefix; a chunk's nonce is the prefix and its index


class CacheUnusable(Exception):
    """Why a saved cache is ignored; `str()` goes to the log (no text of the conversation)."""


@dataclass(frozen=True)
class CacheSnapshot:
    model_id: str
    window: int
    token_ids: tuple[int, ...]
    text: str  # what the ids stand for, so the next prompt is tokenized the same way
    state: bytes | bytearray | memoryview  # llama.cpp's sequence state: the KV cells of those ids


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


def _chunk_key(conversation_id: str, index: int, last: bool, state_size: int) -> bytes:
    """Each chunk authenticates its place (reordered, dropped or appended chunks do not open) and the
    state size the file announces, so no size is trusted before the first chunk has opened."""
    return conversation_id.encode("utf-8") + struct.pack("<I?Q", index, last, state_size)


def seal(snapshot: CacheSnapshot, key: bytes, conversation_id: str) -> list[bytes]:
    """The sealed cache as pieces to write one after another (joined, they are the file)."""
    header = json.dumps({"model_id": snapshot.model_id, "window": snapshot.window,
                         "tokens": len(snapshot.token_ids), "text": snapshot.text}).encode("utf-8")
    ids = struct.pack(f"<{len(snapshot.token_ids)}i", *snapshot.token_ids)
    state = memoryview(snapshot.state).cast("B")
    chunks = [_RECORD.pack(len(header)) + header + ids] + [state[at:at + CHUNK] for at in range(0, len(state), CHUNK)]
    cipher, prefix = AESGCM(key), os.urandom(_PREFIX)
    pieces = [MAGIC + prefix + _RECORD.pack(len(state))]
    for index, chunk in enumerate(chunks):
        sealed = cipher.encrypt(prefix + _RECORD.pack(index), chunk,
                                _chunk_key(conversation_id, index, index == len(chunks) - 1, len(state)))
        pieces += [_RECORD.pack(len(sealed)), sealed]
    return pieces


def unseal(blob: bytes, key: bytes, conversation_id: str) -> CacheSnapshot:
    if blob.startswith(MAGIC[:-1]) and not blob.startswith(MAGIC):
        raise CacheUnusable("an older format")
    start = len(MAGIC) + _PREFIX + _RECORD.size
    if not blob.startswith(MAGIC) or len(blob) < start:
        raise CacheUnusable("not a saved cache")
    prefix = blob[len(MAGIC):len(MAGIC) + _PREFIX]
    (state_size,) = _RECORD.unpack_from(blob, start - _RECORD.size)
    if state_size > len(blob):  # sealed state is never smaller than the state; checked again once authenticated
        raise CacheUnusable("malformed (announces more state than the file holds)")
    view, cipher, state = memoryview(blob), AESGCM(key), bytearray()
    at, filled, index, head = start, 0, 0, b""
    try:
        while at < len(blob):
            (length,) = _RECORD.unpack_from(blob, at)
            end = at + _RECORD.size + length
            if end > len(blob):
                raise CacheUnusable("cut short")
            plain = cipher.decrypt(prefix + _RECORD.pack(index), view[at + _RECORD.size:end],
                                   _chunk_key(conversation_id, index, end == len(blob), state_size))
            if index == 0:
                head, state = plain, bytearray(state_size)  # the size opened with the first chunk
            elif filled + len(plain) > state_size:
                raise CacheUnusable("malformed inside (more state than announced)")
            else:
                state[filled:filled + len(plain)] = plain
                filled += len(plain)
            at, index = end, index + 1
    except InvalidTag:
        raise CacheUnusable("does not authenticate (damaged, cut short, another key or another conversation)") \
            from None
    except struct.error:
        raise CacheUnusable("cut short") from None
    if index == 0 or filled != state_size:
        raise CacheUnusable("cut short")
    try:
        (length,) = _RECORD.unpack_from(head)
        header = json.loads(head[4:4 + length])
        count = int(header["tokens"])
        ids = struct.unpack_from(f"<{count}i", head, 4 + length)
        return CacheSnapshot(str(header["model_id"]), int(header["window"]), tuple(ids), str(header["text"]), state)
    except (struct.error, ValueError, KeyError, TypeError) as error:
        raise CacheUnusable(f"malformed inside ({type(error).__name__})") from None
