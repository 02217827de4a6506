"""Opening the SQLCipher database: key, verify, classify failures, migrate; one writer thread, readers per thread."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TypeAlias, TypeVar

import sqlcipher3

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

from mfs_desktop.errors import DatabaseBusy, DatabaseDamaged, DatabaseTooNew, DiskFull, NotAnMfsDatabase
from mfs_desktop.store.search_text import search_text
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)

APPLICATION_ID = 0x4D465344  # 'MFSD', set by migration 0001
PLAIN_SQLITE_HEADER = b"SQLite format 3\x00"
PAGE_SIZE = 4096  # SQLCipher 4 default
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

Connection: TypeAlias = sqlcipher3.Connection  # untyped: the module ships no stubs


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations() -> tuple[Migration, ...]:
    found = []
    for entry in resources.files("mfs_desktop.store.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda migration: migration.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations are not numbered 1..n: {[m.version for m in found]}")
    return tuple(found)


MIGRATIONS = load_migrations()
LATEST_VERSION = MIGRATIONS[-1].version


def _silence_sqlcipher_log() -> None:
    # SQLCipher writes "ERROR CORE ... hmac check failed" to stderr on every wrong key; the
    # log level is process-wide, so set it once before any keyed connection exists.
    probe = sqlcipher3.connect(":memory:")
    try:
        probe.execute("PRAGMA cipher_log_level = NONE")
    finally:
        probe.close()


_silence_sqlcipher_log()


def _raw_key_pragma(key: bytes) -> str:
    if len(key) != 32:
        raise ValueError("the database key must be 32 bytes")
    return f"PRAGMA key = \"x'{key.hex()}'\""


def _file_state(path: Path) -> str:
    """A plain reason the file does not open, from its outside: size and header."""
    size = path.stat().st_size
    with open(path, "rb") as handle:
        head = handle.read(16)
    if head == PLAIN_SQLITE_HEADER:
        return "plain"
    if size < PAGE_SIZE or size % PAGE_SIZE:
        return "truncated"
    return "unreadable"


def _refuse_unopenable(path: Path, cause: Exception) -> Exception:
    state = _file_state(path)
    if state == "plain":
        return NotAnMfsDatabase.worded(QT_TRANSLATE_NOOP("", "{path} is an unencrypted SQLite file, not an MFS "
                                                             "Desktop database; nothing was changed."), path=path)
    if state == "truncated":
        return DatabaseDamaged.worded(QT_TRANSLATE_NOOP("", "{path} is truncated (cut off mid-page); restore it from "
                                                            "a backup. Nothing was changed."), path=path)
    return DatabaseDamaged.worded(QT_TRANSLATE_NOOP("", "{path} does not open with its key: it is damaged or is not "
                                                        "the database this key belongs to. Nothing was changed."),
                                  path=path)


def connect(path: Path, key: bytes, *, check_integrity: bool = False, migrate: bool = True,
            factory: type[Connection] = sqlcipher3.Connection, for_writing: bool = True) -> Connection:
    """Open, key and verify a connection; migrate the schema forward if asked.

    Nothing is written before the key is verified by a query (and, with `check_integrity`,
    before `quick_check` passes), so a wrong key or a damaged file is never changed.
    """
    exists = path.exists() and path.stat().st_size > 0
    # check_same_thread=False only so that a connection whose last reference goes in another
    # thread may still be closed there; each connection is used by the one thread that opened it.
    connection = sqlcipher3.connect(str(path), isolation_level=None, timeout=10.0, check_same_thread=False,
                                    factory=factory)
    try:
        connection.execute(_raw_key_pragma(key))
        try:
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            if check_integrity and exists:
                problems = [row[0] for row in connection.execute("PRAGMA quick_check")]
                if problems != ["ok"]:
                    raise DatabaseDamaged.worded(QT_TRANSLATE_NOOP("", "{path} is damaged ({count} problems found); "
                                                                       "restore it from a backup. Nothing was "
                                                                       "changed."), path=path, count=len(problems))
        except sqlcipher3.DatabaseError as exc:
            if exists:
                raise _refuse_unopenable(path, exc) from exc
            raise
        _check_identity(connection, path, exists)
        if for_writing:
            # The search index's triggers call it. Readers go without: a reader is closed when
            # its thread ends, and freeing a Python function there (Qt's pool threads drop their
            # thread state first) aborted the process.
            connection.create_function("mfs_search_text", 1, search_text, deterministic=True)
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute("PRAGMA busy_timeout = 10000")
        connection.execute("PRAGMA secure_delete = ON")
        connection.execute("PRAGMA journal_mode = WAL")
        # FULL: every committed turn survives a power cut too, not only a process crash. The
        # fsync per commit measured 0.3 ms median per turn here (NORMAL: 0.13 ms).
        connection.execute("PRAGMA synchronous = FULL")
        if migrate:
            apply_migrations(connection)
        return connection
    except BaseException:
        connection.close()
        raise


def _check_identity(connection: Connection, path: Path, exists: bool) -> None:
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version > LATEST_VERSION:
        raise DatabaseTooNew.worded(QT_TRANSLATE_NOOP("", "{path} was written by a newer MFS Desktop (schema "
                                                          "{version}, this one knows {latest}); update the app. "
                                                          "Nothing was changed."),
                                    path=path, version=version, latest=LATEST_VERSION)
    if version == 0:
        tables = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if tables:
            raise NotAnMfsDatabase.worded(QT_TRANSLATE_NOOP("", "{path} holds tables that are not MFS Desktop's; "
                                                                "nothing was changed."), path=path)
        return
    application_id = connection.execute("PRAGMA application_id").fetchone()[0]
    if application_id != APPLICATION_ID:
        raise NotAnMfsDatabase.worded(QT_TRANSLATE_NOOP("", "{path} is not an MFS Desktop database; nothing was "
                                                            "changed."), path=path)


def schema_version(connection: Connection) -> int:
    return connection.execute("PRAGMA user_version").fetchone()[0]


def apply_migrations(connection: Connection, target: int = LATEST_VERSION) -> list[int]:
    """Apply every migration after the stored version, each in its own transaction."""
    applied = []
    for migration in MIGRATIONS:
        if migration.version <= schema_version(connection) or migration.version > target:
            continue
        started = time.perf_counter()
        script = f"BEGIN IMMEDIATE;\n{migration.sql}\nPRAGMA user_version = {migration.version};\nCOMMIT;\n"
        try:
            connection.executescript(script)
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        applied.append(migration.version)
        log.info("migration %04d applied in %.1f ms", migration.version, (time.perf_counter() - started) * 1000)
    return applied


class _Presence:
    """Each process with the database open holds a shared lock on `<database>.lock`; a rekey
    needs it exclusively, so it never re-encrypts under another process's feet (that
    process's next commit would fail and its answer be lost), and no process opens the
    database halfway through one. Where there is no flock (Windows), there is no guard."""

    def __init__(self, path: Path) -> None:
        self._fd: int | None = None
        if fcntl is None:
            return
        fd = os.open(path.with_name(path.name + ".lock"), os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise DatabaseBusy.worded(QT_TRANSLATE_NOOP("", "{path} is being re-encrypted by another MFS Desktop "
                                                            "process; try again when it is done."), path=path) from None
        self._fd = fd

    @contextlib.contextmanager
    def alone(self) -> Iterator[None]:
        if self._fd is None:
            yield
            return
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fcntl.flock(self._fd, fcntl.LOCK_SH)  # a failed conversion may have dropped it
            raise DatabaseBusy(QT_TRANSLATE_NOOP("", "Another MFS Desktop window or command has this database open: "
                                                     "close it, then change the key. Nothing was changed.")) from None
        try:
            yield
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_SH)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class _ReaderConnection(sqlcipher3.Connection):
    """A thread's reading connection, tracked weakly: when the thread that opened it ends, its
    thread-local reference goes and the connection closes itself in that thread."""


_Result = TypeVar("_Result")


class Database:
    """The database file plus its key. Every write runs on one writer thread through one
    connection (as Anki's collection executor and Signal Desktop's SQL worker do), so writes of
    the window, the turn, the pre-compactor and the tools never contend inside one process;
    each other thread reads through its own read-only connection, closed when the thread ends."""

    def __init__(self, path: Path, key: bytes) -> None:
        self.path = path
        self._key = key
        self._local = threading.local()
        self._lock = threading.Lock()
        self._readers: weakref.WeakSet[Connection] = weakref.WeakSet()
        self._executor: ThreadPoolExecutor | None = None
        self._writer: Connection | None = None
        self._writer_ident = -1
        self._presence: _Presence | None = None
        try:
            self._start_writer(first=True)
            self._presence = _Presence(path)
        except BaseException:
            self.close()
            raise

    def derived_key(self, purpose: str) -> bytes:
        """A 32-byte key for files kept beside the database (HKDF-SHA256 of the database key),
        one per purpose, so no file shares the database's own key."""
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF

        return HKDF(hashes.SHA256(), 32, salt=None, info=f"mfs-desktop {purpose}".encode()).derive(self._key)

    def alone(self) -> contextlib.AbstractContextManager[None]:
        """While held, no other process has this database open (see `_Presence`)."""
        if self._presence is None:
            return contextlib.nullcontext()
        return self._presence.alone()

    def _start_writer(self, *, first: bool = False) -> ThreadPoolExecutor:
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mfs-db-writer")
        try:
            self._writer = executor.submit(connect, self.path, self._key, check_integrity=first,
                                           migrate=first).result()
            self._writer_ident = executor.submit(threading.get_ident).result()
        except BaseException:
            executor.shutdown()
            raise
        self._executor = executor
        return executor

    def _on_writer(self, work: Callable[[], _Result]) -> _Result:
        if threading.get_ident() == self._writer_ident:
            return work()
        with self._lock:
            # reopened on demand after `close`, as a reader is (a late signal of a closed window)
            executor = self._executor or self._start_writer()
        return executor.submit(work).result()

    def connection(self) -> Connection:
        """This thread's connection for reading; on the writer thread, the writer's own, so a
        change reads what it has written so far."""
        if self._writer is not None and threading.get_ident() == self._writer_ident:
            return self._writer
        existing = getattr(self._local, "connection", None)
        if existing is None:
            existing = connect(self.path, self._key, migrate=False, factory=_ReaderConnection, for_writing=False)
            # A reader that writes would bypass the writer thread and could meet SQLITE_BUSY.
            existing.execute("PRAGMA query_only = ON")
            self._local.connection = existing
            with self._lock:
                self._readers.add(existing)
        return existing

    def write(self, change: Callable[[Connection], _Result]) -> _Result:
        """Run `change(connection)` on the writer thread in one BEGIN IMMEDIATE … COMMIT (or
        ROLLBACK on any exception, which reaches the caller) and return its result."""
        return self._on_writer(lambda: self._transaction(change))

    def _transaction(self, change: Callable[[Connection], _Result]) -> _Result:
        connection = self.connection()
        try:
            connection.execute("BEGIN IMMEDIATE")
        except sqlcipher3.OperationalError as exc:
            raise DatabaseBusy.worded(QT_TRANSLATE_NOOP("", "The database is busy (another MFS Desktop process is "
                                                            "writing): {error}."), error=exc) from exc
        try:
            result = change(connection)
            connection.execute("COMMIT")
            return result
        except BaseException as exc:
            # SQLite may already have rolled back (a full disk does): then there is nothing to undo.
            with contextlib.suppress(sqlcipher3.OperationalError):
                connection.execute("ROLLBACK")
            if isinstance(exc, sqlcipher3.OperationalError) and "full" in str(exc):
                raise DiskFull.worded(QT_TRANSLATE_NOOP("", "The disk holding {folder} is full: the last change was "
                                                            "not stored (everything stored before it is intact). Free "
                                                            "some space and try again."),
                                      folder=self.path.parent) from exc
            raise

    def rekey(self, new_key: bytes) -> None:
        """Re-encrypt every page under `new_key` in one transaction (SQLCipher's PRAGMA rekey).
        A reader still open would go on with the old key, so this thread's own is closed first
        and any other thread's refuses the rekey."""
        self._close_own_reader()
        if self.open_readers():
            raise RuntimeError("rekey needs every reading connection closed")

        def rekey_on_writer() -> None:
            self.connection().execute(_raw_key_pragma(new_key).replace("PRAGMA key", "PRAGMA rekey", 1))
            self.checkpoint()  # on the writer thread: runs in place

        self._on_writer(rekey_on_writer)
        self._key = new_key

    def open_readers(self) -> int:
        """Reading connections of threads that still hold one (the writer's is not counted)."""
        with self._lock:
            return len(self._readers)

    def checkpoint(self) -> None:
        """Move the WAL into the main file and truncate it, so no old page versions linger."""
        self._on_writer(lambda: self.connection().execute("PRAGMA wal_checkpoint(TRUNCATE)"))

    def _close_own_reader(self) -> None:
        own = getattr(self._local, "connection", None)
        self._local.connection = None
        if own is not None:
            with self._lock:
                self._readers.discard(own)
            own.close()

    def close(self) -> None:
        """Close the writer and this thread's reader. Another thread's reader is left to close
        when that thread ends: closing a connection another thread may be stepping through is a
        use-after-free in the C library (Open WebUI saw its process die with exit 139 so)."""
        self._close_own_reader()
        with self._lock:
            executor, writer, self._executor, self._writer = self._executor, self._writer, None, None
        if executor is not None:
            if writer is not None:
                with contextlib.suppress(sqlcipher3.ProgrammingError):
                    executor.submit(writer.close).result()
            executor.shutdown(wait=True)
        self._writer_ident = -1
        presence, self._presence = self._presence, None
        if presence is not None:
            presence.release()
