"""Fetch one model file over HTTP: into `<name>.part`, resumable, verified, then moved into place.

A kill, a dropped connection or a cancel leaves `<name>.part` and `<name>.part.json` (where
it came from and the validator it was served with); the next download of the same file
resumes with a Range request, and `If-Range` makes a server whose file changed send it whole
instead of splicing two versions. Only a file whose SHA-256 matches and that starts like a
GGUF reaches its real name.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from mfs_desktop.errors import DiskFull, DownloadFailed
from mfs_desktop.runtime.model_files import GGUF_MAGIC
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

CHUNK = 1 << 20
RETRIES = 3  # automatic resumes after a dropped connection, with 1 s, 2 s, 4 s between
DISK_MARGIN = 64 << 20  # leave this much free beyond the file
PROGRESS_INTERVAL = 0.25


@dataclass(frozen=True)
class DownloadSource:
    url: str
    file_name: str
    size: int | None = None
    sha256: str | None = None  # lower-case hex; None: computed and reported, not checked
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Progress:
    done: int
    total: int | None
    speed: float  # bytes per second over this attempt
    resumed_from: int

    @property
    def eta(self) -> float | None:
        if not self.total or self.speed <= 0:
            return None
        return max(0.0, (self.total - self.done) / self.speed)


@dataclass(frozen=True)
class Downloaded:
    path: Path
    size: int
    sha256: str
    verified: bool  # against a digest known before the download
    resumed_from: int  # bytes already on disk when this call started


class Cancelled(Exception):
    """The caller asked to stop; the `.part` file stays for a later resume."""


class _Dropped(Exception):
    pass


def part_paths(destination: Path) -> tuple[Path, Path]:
    return destination.with_name(destination.name + ".part"), destination.with_name(destination.name + ".part.json")


def _hash_file(path: Path) -> tuple[int, hashlib._Hash]:
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return size, digest


def _check_disk(folder: Path, needed: int) -> None:
    free = shutil.disk_usage(folder).free
    if free < needed + DISK_MARGIN:
        raise DiskFull.worded(QT_TRANSLATE_NOOP("", "{folder} has {free:.2f} GB free; this download needs {needed:.2f} "
                                                    "GB more. Free some space or choose another folder."),
                              folder=folder, free=free / 1e9, needed=needed / 1e9)


def _discard(*paths: Path) -> None:
    for path in paths:
        path.unlink(missing_ok=True)


def download(source: DownloadSource, destination: Path, *, on_progress: Callable[[Progress], None] | None = None,
             cancelled: Callable[[], bool] = lambda: False, client: httpx.Client | None = None,
             retry_pause: float = 1.0) -> Downloaded:
    """Download `source` to `destination` (DownloadFailed, DiskFull or Cancelled otherwise)."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    if destination.exists():
        raise DownloadFailed.worded(QT_TRANSLATE_NOOP("", "{path} already exists; remove it first or use it as it is."),
                                    path=destination)
    part, meta = part_paths(destination)
    if part.exists() and _part_meta(meta).get("url") not in (None, source.url):
        _discard(part, meta)  # a different file under the same name: start over
    started_with = part.stat().st_size if part.exists() else 0
    if source.size is not None:
        _check_disk(destination.parent, max(0, source.size - started_with))
    own = client is None
    http = client or httpx.Client(timeout=httpx.Timeout(30.0, connect=10.0), follow_redirects=True)
    try:
        for attempt in range(RETRIES + 1):
            try:
                _fetch(http, source, part, meta, on_progress, cancelled, started_with)
                break
            except _Dropped as dropped:
                if attempt == RETRIES:
                    raise DownloadFailed.worded(QT_TRANSLATE_NOOP("", "The connection kept dropping ({reason}); run "
                                                                      "the download again to resume from {size:,} "
                                                                      "bytes."),
                                                reason=str(dropped), size=part.stat().st_size) from None
                time.sleep(retry_pause * 2 ** attempt)
    finally:
        if own:
            http.close()
    return _verify_and_place(source, part, meta, destination, started_with)


def _part_meta(meta: Path) -> dict:
    """What `.part.json` says of the bytes in `.part` (its URL and validator); {} when unreadable."""
    try:
        stored = json.loads(meta.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return stored if isinstance(stored, dict) else {}


def _fetch(http: httpx.Client, source: DownloadSource, part: Path, meta: Path,
           on_progress: Callable[[Progress], None] | None, cancelled: Callable[[], bool], started_with: int) -> None:
    have = part.stat().st_size if part.exists() else 0
    if source.size is not None and have == source.size:
        return
    headers = dict(source.headers)
    validator = _part_meta(meta).get("validator") or None
    if have and validator:
        headers["Range"] = f"bytes={have}-"
        headers["If-Range"] = validator
    elif have:
        have = 0  # no validator to prove the bytes on disk are this file's: start over
    try:
        with http.stream("GET", source.url, headers=headers) as response:
            if response.status_code == 416 and have:
                return  # the part already holds every byte; verification decides
            if response.status_code >= 400:
                raise _http_refusal(response.status_code, source.url)
            resuming = response.status_code == 206
            if not resuming:
                have = 0
            meta.write_text(json.dumps({"url": source.url, "validator": _response_validator(response)}), "utf-8")
            total = source.size or _total_length(response, have if resuming else 0)
            if source.size is None and total is not None:  # a plain URL tells its size only now
                _check_disk(part.parent, total - have)
            _receive(response, part, "ab" if resuming else "wb", have, total, on_progress, cancelled, started_with)
    except (httpx.TransportError, httpx.StreamError) as error:
        raise _Dropped(type(error).__name__) from None
    if source.size is not None and part.stat().st_size < source.size:
        raise _Dropped(f"the server stopped at {part.stat().st_size:,} of {source.size:,} bytes")


def _receive(response: httpx.Response, part: Path, mode: str, have: int, total: int | None,
             on_progress: Callable[[Progress], None] | None, cancelled: Callable[[], bool], started_with: int) -> None:
    began, last_report, done = time.monotonic(), 0.0, have
    with open(part, mode) as handle:
        for chunk in response.iter_bytes(CHUNK):
            if cancelled():
                raise Cancelled()
            handle.write(chunk)
            done += len(chunk)
            now = time.monotonic()
            if on_progress and now - last_report >= PROGRESS_INTERVAL:
                last_report = now
                on_progress(Progress(done, total, (done - have) / max(now - began, 1e-6), started_with))
        handle.flush()
        os.fsync(handle.fileno())
    if on_progress:
        on_progress(Progress(done, total, (done - have) / max(time.monotonic() - began, 1e-6), started_with))


def _response_validator(response: httpx.Response) -> str:
    etag = response.headers.get("ETag", "")
    return etag if etag and not etag.startswith("W/") else response.headers.get("Last-Modified", "")


def _total_length(response: httpx.Response, offset: int) -> int | None:
    length = response.headers.get("Content-Length")
    return offset + int(length) if length and length.isdigit() else None


def _http_refusal(status: int, url: str) -> DownloadFailed:
    if status in (401, 403):
        return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "The server refused the download ({status}): the file "
                                                           "needs a login or accepted terms. For the Hugging Face "
                                                           "Hub, accept the model's terms on its page and save a "
                                                           "token with `mfs-desktop models token`."), status=status)
    if status == 404:
        return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "There is no file at {url} (404)."), url=url)
    return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "The server answered {status} for {url}; try again later."),
                                 status=status, url=url)


def _verify_and_place(source: DownloadSource, part: Path, meta: Path, destination: Path,
                      started_with: int) -> Downloaded:
    size, digest = _hash_file(part)
    actual = digest.hexdigest()
    if source.sha256 and actual != source.sha256.lower():
        _discard(part, meta)
        raise DownloadFailed.worded(QT_TRANSLATE_NOOP("", "The download of {name} does not match its SHA-256 "
                                                          "(expected {expected}, got {actual}); it was deleted."),
                                    name=source.file_name, expected=source.sha256.lower(), actual=actual)
    if source.size is not None and size != source.size:
        _discard(part, meta)
        raise DownloadFailed.worded(QT_TRANSLATE_NOOP("", "The download of {name} has {size:,} bytes, not "
                                                          "{expected:,}; it was deleted."),
                                    name=source.file_name, size=size, expected=source.size)
    with open(part, "rb") as handle:
        if handle.read(4) != GGUF_MAGIC:
            _discard(part, meta)
            raise DownloadFailed.worded(QT_TRANSLATE_NOOP("", "{url} did not send a GGUF model file; it was deleted."),
                                        url=source.url)
    os.replace(part, destination)
    _discard(meta)
    return Downloaded(destination, size, actual, bool(source.sha256), started_with)
