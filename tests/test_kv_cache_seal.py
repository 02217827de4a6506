"""The sealed KV-cache file (issue 31, sealed a MiB at a time since issue 32's stall run): what
is sealed opens as it was, and anything changed, cut, reordered, grown or moved to another
conversation does not open."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mfs_desktop.runtime.kv_cache import CHUNK, MAGIC, CacheSnapshot, CacheUnusable, seal, unseal

KEY = bytes(range(32))


def _snapshot(state: bytes) -> CacheSnapshot:
    return CacheSnapshot("model-1", 4096, (1, 2, 3, 70_000), "你好 hello", state)


def test_a_multi_chunk_state_opens_exactly_and_from_a_view() -> None:
    state = os.urandom(3 * CHUNK + 12_345)
    pieces = seal(_snapshot(memoryview(bytearray(state))), KEY, "c1")
    assert len(pieces) == 1 + 2 * 5  # the head, then five records: header chunk and four state chunks
    opened = unseal(b"".join(pieces), KEY, "c1")
    assert bytes(opened.state) == state and isinstance(opened.state, bytearray)
    assert (opened.model_id, opened.window, opened.token_ids, opened.text) == ("model-1", 4096, (1, 2, 3, 70_000),
                                                                               "你好 hello")


@settings(max_examples=25, deadline=None)
@given(st.binary(max_size=3000))
def test_any_state_round_trips(state: bytes) -> None:
    assert bytes(unseal(b"".join(seal(_snapshot(state), KEY, "c")), KEY, "c").state) == state


def _records(blob: bytes) -> tuple[bytes, list[bytes]]:
    head, at, records = blob[:len(MAGIC) + 12], len(MAGIC) + 12, []
    while at < len(blob):
        length = int.from_bytes(blob[at:at + 4], "little")
        records.append(blob[at:at + 4 + length])
        at += 4 + length
    return head, records


def test_cut_reordered_flipped_foreign_or_older_caches_do_not_open() -> None:
    blob = b"".join(seal(_snapshot(os.urandom(2 * CHUNK + 7)), KEY, "c1"))
    head, records = _records(blob)
    variants = {
        "cut at a chunk": head + b"".join(records[:-1]),
        "cut inside a chunk": blob[:-100],
        "reordered": head + records[0] + records[2] + records[1] + records[3],
        "grown": blob + records[-1],
        "flipped": blob[:500] + bytes([blob[500] ^ 1]) + blob[501:],
        "older format": b"MFSKV1" + blob[6:],
        "not a cache": b"SQLite format 3\x00" + blob,
    }
    for name, variant in variants.items():
        with pytest.raises(CacheUnusable):
            unseal(variant, KEY, "c1")
            pytest.fail(name)
    with pytest.raises(CacheUnusable, match="another conversation"):
        unseal(blob, KEY, "c2")
    with pytest.raises(CacheUnusable):
        unseal(blob, bytes(32), "c1")
