"""Warm start: a reopened conversation answers as fast as a continued one.

When the model leaves a conversation it answered in (for another one, or as the app closes),
its KV cache (the prompt and the answer, as llama.cpp holds them) is sealed and kept for that
conversation: one copy per visit rather than one per answer, which at tens of MB per 1,000
tokens (hundreds for a 7B model) spared the disk a full rewrite after every reply. A crash
loses only the visit's copy: the conversation then prefills once, as on a first open.
Opening the conversation again loads the copy when it was made by the same model file at the
same window and its tokens begin the prompt about to be sent; then whatever the prompt adds is
prefilled in the background while the person reads and types.
A cache that does not open, does not match or does not load is ignored (logged), never used.
Sealing and writing run on a thread of their own: the answer is not held up by the disk.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from mfs_desktop.runtime.kv_cache import CacheSnapshot, CacheUnusable, seal, unseal
from mfs_desktop.runtime.protocol import ChatMessage, ToolSpec
from mfs_desktop.store.database import Database
from mfs_desktop.store.kv_states import KvStateStore

log = logging.getLogger(__name__)

KEY_PURPOSE = "kv-cache v1"
DEFAULT_CAP_BYTES = 2 << 30


@dataclass(frozen=True)
class Warmed:
    restored_tokens: int  # from the saved cache
    reused_tokens: int  # already in the cache before the prefill (restored ones included)
    evaluated_tokens: int
    seconds: float


class WarmStart:
    def __init__(self, database: Database, model, cap_bytes: int = DEFAULT_CAP_BYTES) -> None:
        self.model = model  # an EmbeddedModel: warm, snapshot_cache, restore_cache, identity, window
        self.store = KvStateStore(database, cap_bytes)
        self._key = database.derived_key(KEY_PURPOSE)
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mfs-kv-writer")
        self._pending: Future | None = None
        self._lock = threading.Lock()
        self._waiting: dict[str, CacheSnapshot] = {}
        self.holding: str | None = None  # the conversation the model's cache is now about
        self._answered = False  # the holding conversation was answered since its cache was kept

    @staticmethod
    def supports(model) -> bool:
        return all(hasattr(model, name) for name in ("warm", "snapshot_cache", "restore_cache"))

    def after_answer(self, conversation_id: str) -> None:
        """On the model's thread, right after an answer: the cache now holds this conversation,
        to be kept when the model leaves it."""
        self.holding, self._answered = conversation_id, True

    def before_use(self, conversation_id: str) -> None:
        """On the model's thread, before the model works for `conversation_id`: if that moves it
        off a conversation answered since its last copy, that one's cache is kept first."""
        if self.holding not in (None, conversation_id):
            self.keep()

    def keep(self) -> None:
        """On the model's thread: keep the conversation held now if it was answered since its
        last copy (the model leaves it, the app closes). The copy is sealed and written beside
        the database on the writer thread; copies quicker than the disk replace the one still
        waiting (one per conversation)."""
        if not self._answered:
            return
        conversation_id, self._answered = self.holding, False
        snapshot = self.model.snapshot_cache() if conversation_id is not None else None
        if conversation_id is None or snapshot is None:
            return
        with self._lock:
            self._waiting[conversation_id] = snapshot
            if self._pending is None or self._pending.done():
                self._pending = self._writer.submit(self._write_waiting)

    def _write_waiting(self) -> None:
        while True:
            with self._lock:
                if not self._waiting:
                    return
                conversation_id, snapshot = self._waiting.popitem()
            began = time.perf_counter()
            written = self.store.save(conversation_id, seal(snapshot, self._key, conversation_id), snapshot.model_id,
                                      snapshot.window, len(snapshot.token_ids))
            log.info("conversation %s: cache of %d tokens kept (%d bytes, %.0f ms)", conversation_id,
                     len(snapshot.token_ids), written, (time.perf_counter() - began) * 1000)

    def warm(self, conversation_id: str, messages: list[ChatMessage], tools: tuple[ToolSpec, ...] | list[ToolSpec],
             cancel: threading.Event | None = None) -> Warmed:
        """Bring the model's cache to the start of the next request for this conversation."""
        began = time.perf_counter()
        restored = 0
        self.before_use(conversation_id)
        if self.holding != conversation_id:
            restored = self._restore(conversation_id, messages, tools)
        reused, evaluated = self.model.warm(messages, tools, cancel)
        self.holding = conversation_id
        return Warmed(restored, reused, evaluated, time.perf_counter() - began)

    def _restore(self, conversation_id: str, messages: list[ChatMessage], tools) -> int:
        self.flush()  # the newest cache of this conversation may still be on its way to disk
        blob = self.store.load(conversation_id, self.model.identity, self.model.window)
        if blob is None:
            return 0
        try:
            snapshot = unseal(blob, self._key, conversation_id)
        except CacheUnusable as reason:
            log.warning("saved cache of conversation %s ignored: %s", conversation_id, reason)
            self.store.delete(conversation_id)
            return 0
        # Compared as text: the saved ids were sampled, and a fresh tokenization of the same
        # words may split them otherwise; after the restore the prompt is tokenized from them.
        if not self.model.render(messages, tools).startswith(snapshot.text):
            log.info("saved cache of conversation %s no longer begins its prompt (an event changed it)",
                     conversation_id)
            return 0
        if not self.model.restore_cache(snapshot):
            log.warning("saved cache of conversation %s ignored: llama.cpp refused it", conversation_id)
            self.store.delete(conversation_id)
            return 0
        return len(snapshot.token_ids)

    def flush(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is None:
            return
        try:
            pending.result()
        except Exception as error:  # a full disk or a trashed conversation: the cache is an optimisation
            log.warning("a conversation's cache was not kept: %s", type(error).__name__)

    def close(self) -> None:
        """On the model's thread, with nothing generating: the conversation held is kept too."""
        try:
            self.keep()
            self.flush()
        finally:
            self._writer.shutdown(wait=True)
