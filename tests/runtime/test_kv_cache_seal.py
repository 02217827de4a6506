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


# Issue 46: a cache file is someone else's once it is on disk.


def test_a_tampered_state_size_is_refused_before_anything_is_allocated() -> None:
    """The audit: 4 changed bytes of the size made unseal allocate 4.6 GB and take 11.5 s."""
    import time
    import tracemalloc

    blob = bytearray(b"".join(seal(_snapshot(os.urandom(CHUNK + 99)), KEY, "c1")))
    at = len(MAGIC) + 8
    for size in (0xFFFF_FFFF, len(blob) - 10, CHUNK + 100):
        blob[at:at + 4] = size.to_bytes(4, "little")
        tracemalloc.start()
        started = time.monotonic()
        with pytest.raises(CacheUnusable):
            unseal(bytes(blob), KEY, "c1")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert time.monotonic() - started < 1 and peak < 3 * len(blob), (size, peak)


def test_a_cache_file_replaced_by_a_device_a_fifo_or_another_size_is_ignored(session) -> None:
    import time

    from mfs_desktop.store.kv_states import KvStateStore

    store = KvStateStore(session.database, 1 << 30)
    conversation = session.transcript.create_conversation().id
    pieces = seal(_snapshot(os.urandom(5000)), KEY, conversation)
    replacements = (lambda path: path.symlink_to("/dev/zero"), os.mkfifo,
                    lambda path: path.write_bytes(b"".join(pieces) + b"more"))
    for replace in replacements:
        store.save(conversation, pieces, "model-1", 4096, 4)
        (name,) = [row[0] for row in session.database.connection().execute("SELECT file_name FROM kv_states")]
        (store.folder / name).unlink()
        replace(store.folder / name)
        started = time.monotonic()
        assert store.load(conversation, "model-1", 4096) is None
        assert time.monotonic() - started < 1
        assert session.database.connection().execute("SELECT count(*) FROM kv_states").fetchone()[0] == 0


@settings(max_examples=60, deadline=None)
@given(changes=st.lists(st.tuples(st.integers(0, 200), st.binary(min_size=1, max_size=8)), min_size=1, max_size=4),
       cut=st.integers(0, 400))
def test_any_damage_to_a_cache_header_is_refused_quickly_and_small(changes, cut: int) -> None:
    """Fuzzed head and first records (where the sizes are): CacheUnusable or the cache as it was, within a
    second and without allocating more than the file."""
    import time
    import tracemalloc

    state = bytes(range(256)) * 40
    blob = bytearray(b"".join(seal(_snapshot(state), KEY, "c1")))
    for at, raw in changes:
        blob[at:at + len(raw)] = raw
    damaged = bytes(blob[:len(blob) - cut])
    tracemalloc.start()
    started = time.monotonic()
    try:
        assert bytes(unseal(damaged, KEY, "c1").state) == state
    except CacheUnusable:
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert time.monotonic() - started < 1 and peak < 4 * len(blob) + 65536
