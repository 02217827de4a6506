"""Fetch one model file over HTTP: into `<name>.part`, resumable, verified, then moved into place.

A kill, a dropped connection or a cancel leaves `<name>.part` and `<name>.part.json` (where
it came from and the validator it was served with); the next download of the same file
resumes with a Range request, and `If-Range` makes a server whose file changed send it whole
instead of splicing two versions. Only a file whose SHA-256 matches and that starts like a
GGUF reaches its real name.

Every other failure is a `DownloadFailed` (or `DiskFull`) saying why: a host that does not
resolve or refuses, a redirect loop or a redirect to anything but http(s), a compressed body,
more bytes than announced, a server that goes silent or trickles. A `.part` stays only when it
holds bytes a later run can resume from; nothing stays after a failure before the first byte.
Files are 0600 in folders the download creates 0700: a model may be private or licensed.
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
from urllib.parse import urljoin, urlsplit

import httpx

from mfs_desktop.errors import DiskFull, DownloadFailed
from mfs_desktop.runtime import download_faults as faults
from mfs_desktop.runtime.download_faults import Dropped, Oversize, RefusedRedirect, Stalled
from mfs_desktop.runtime.model_files import GGUF_MAGIC
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

CHUNK = 1 << 20  # hashing reads; network reads take whatever each socket read returns
RETRIES = 3  # automatic resumes after a dropped connection, with 1 s, 2 s, 4 s between
DISK_MARGIN = 64 << 20  # leave this much free beyond the file
PROGRESS_INTERVAL = 0.25
# The bounds below are read at each call (not bound as defaults), so a test can set them small.
# A host that has not accepted the connection in 10 s is, for a person waiting, unreachable.
CONNECT_TIMEOUT = 10.0
# No byte at all for 8 s: the route or the server is dead (a CDN sends continuously; the Hub's
# own client gives up after 10 s, HF_HUB_DOWNLOAD_TIMEOUT). A stall keeps the part, so the
# next run resumes: judging early costs a rerun, never the bytes.
IDLE_TIMEOUT = 8.0
# Under 1 KiB/s even the smallest model (~100 MB) would take more than a day, so that is a
# stall, not a download; a poor mobile link (10 KiB/s and up) passes. Judged over 4 s, at the
# first read past it: a byte every 5 s is named at 5 s, inside the 10 s any hostile input gets.
MIN_RATE = 1024
RATE_WINDOW = 4.0
# The Hub needs one redirect (resolve → CDN), a mirror perhaps two or three; ten is a loop.
MAX_REDIRECTS = 10
# A server that gives no length is checked against the free space this often while it sends.
UNSIZED_DISK_CHECK = 64 << 20
WEB_SCHEMES = ("http", "https")


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


def part_paths(destination: Path) -> tuple[Path, Path]:
    return destination.with_name(destination.name + ".part"), destination.with_name(destination.name + ".part.json")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


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


def _make_private_folders(folder: Path) -> None:
    """Create the missing folders up to `folder`, each 0700 (`mkdir(parents=True)` would give
    the parents the umask's mode); folders that exist already are left as they are."""
    missing = [folder, *folder.parents]
    missing = [path for path in missing if not path.exists()]
    for path in reversed(missing):
        path.mkdir(mode=0o700, exist_ok=True)


def _private_writer(path: Path, append: bool) -> int:
    """A descriptor on `path` only its owner may read; a part an older version left 0644 is
    tightened too (O_CREAT's mode applies only to a new file)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC), 0o600)
    os.chmod(path, 0o600)
    return descriptor


def _refuse_odd_redirects(response: httpx.Response) -> None:
    """A response hook: a redirect to file:, ftp:, data: and the like is refused here, before
    httpx builds the next request (it would raise InvalidURL for data:, and a file: URL must
    never be opened on a server's say-so)."""
    if response.has_redirect_location:
        target = urljoin(str(response.url), response.headers["Location"].strip())
        if urlsplit(target).scheme.lower() not in WEB_SCHEMES:
            raise RefusedRedirect(target)


def download(source: DownloadSource, destination: Path, *, on_progress: Callable[[Progress], None] | None = None,
             cancelled: Callable[[], bool] = lambda: False, retry_pause: float = 1.0) -> Downloaded:
    """Download `source` to `destination` (DownloadFailed, DiskFull or Cancelled otherwise)."""
    try:
        if httpx.URL(source.url).scheme not in WEB_SCHEMES:
            raise faults.not_a_web_address(source.url)
    except httpx.InvalidURL:
        raise faults.not_a_web_address(source.url) from None
    _make_private_folders(destination.parent)
    if destination.exists():
        raise DownloadFailed.worded(QT_TRANSLATE_NOOP("", "{path} already exists; remove it first or use it as it is."),
                                    path=destination)
    part, meta = part_paths(destination)
    if part.exists() and _part_meta(meta).get("url") not in (None, source.url):
        _discard(part, meta)  # a different file under the same name: start over
    started_with = _size(part)
    if source.size is not None:
        _check_disk(destination.parent, max(0, source.size - started_with))
    http = httpx.Client(timeout=httpx.Timeout(IDLE_TIMEOUT, connect=CONNECT_TIMEOUT), follow_redirects=True,
                        max_redirects=MAX_REDIRECTS, event_hooks={"response": [_refuse_odd_redirects]})
    try:
        for attempt in range(RETRIES + 1):
            try:
                _fetch(http, source, part, meta, on_progress, cancelled, started_with, attempt)
                break
            except Dropped as dropped:
                if attempt == RETRIES:
                    raise faults.kept_dropping(str(dropped), _size(part)) from None
                time.sleep(retry_pause * 2 ** attempt)
    except Stalled as stall:
        raise faults.stalled(source.url, str(stall), _size(part)) from None
    except Oversize as over:
        _discard(part, meta)
        raise faults.oversize(source.url, source.file_name, over.limit) from None
    except RefusedRedirect as refused:
        _discard(part, meta)
        raise faults.refused_redirect(source.url, refused.target) from None
    finally:
        http.close()
        if not _size(part):  # a failure before the first byte leaves nothing, not an empty part
            _discard(part, meta)
    return _verify_and_place(source, part, meta, destination, started_with)


def _part_meta(meta: Path) -> dict:
    """What `.part.json` says of the bytes in `.part` (its URL and validator); {} when unreadable."""
    try:
        stored = json.loads(meta.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return stored if isinstance(stored, dict) else {}


def _fetch(http: httpx.Client, source: DownloadSource, part: Path, meta: Path,
           on_progress: Callable[[Progress], None] | None, cancelled: Callable[[], bool], started_with: int,
           attempt: int) -> None:
    have = _size(part)
    if source.size is not None and have == source.size:
        return
    # The digest and the announced size are of the file's own bytes: no compression, please.
    headers = dict(source.headers) | {"Accept-Encoding": "identity"}
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
            encoding = response.headers.get("Content-Encoding", "identity").strip().lower()
            if encoding not in ("", "identity"):
                _discard(part, meta)
                raise faults.encoded(str(response.url), encoding)
            resuming = response.status_code == 206
            if not resuming:
                have = 0
            _write_meta(meta, {"url": source.url, "validator": _response_validator(response)})
            sent = _total_length(response, have if resuming else 0)
            total = source.size or sent
            if source.size is None and total is not None:  # a plain URL tells its size only now
                _check_disk(part.parent, total - have)
            limit = min((n for n in (source.size, sent) if n is not None), default=None)
            try:
                _receive(response, part, resuming, have, total, limit, on_progress, cancelled, started_with)
            except DiskFull:
                _discard(part, meta)  # the space it holds is what the user needs back
                raise
    except httpx.TooManyRedirects:
        _discard(part, meta)
        raise faults.redirect_loop(source.url, MAX_REDIRECTS) from None
    except httpx.UnsupportedProtocol as error:  # the hook refuses these first; a last guard
        raise RefusedRedirect(_failed_url(error, source.url)) from None
    except httpx.ConnectTimeout as error:
        raise _connect_failure(error, source.url, attempt) from None
    except httpx.TimeoutException:  # a read: the server went silent
        raise Stalled(f"no data for {IDLE_TIMEOUT:g} s") from None
    except (httpx.ConnectError, httpx.ProxyError) as error:
        raise _connect_failure(error, source.url, attempt) from None
    except (httpx.TransportError, httpx.StreamError) as error:
        raise Dropped(faults.transport_reason(error, CONNECT_TIMEOUT)) from None
    if source.size is not None and _size(part) < source.size:
        raise Dropped(f"the server stopped at {_size(part):,} of {source.size:,} bytes")


def _failed_url(error: httpx.RequestError, fallback: str) -> str:
    """The URL of the request that failed (the CDN's after a redirect, not the one asked)."""
    try:
        return str(error.request.url)
    except RuntimeError:  # httpx raises this when the error carries no request
        return fallback


def _connect_failure(error: httpx.RequestError, url: str, attempt: int) -> Exception:
    """The first attempt failing to connect is final (retrying an unknown host helps no one);
    a reconnect after a dropped connection is retried like the drop itself."""
    if attempt:
        return Dropped(faults.transport_reason(error, CONNECT_TIMEOUT))
    return faults.unreachable(error, _failed_url(error, url), CONNECT_TIMEOUT)


def _write_meta(meta: Path, values: dict[str, str]) -> None:
    with open(_private_writer(meta, append=False), "w", encoding="utf-8") as handle:
        json.dump(values, handle)


def _receive(response: httpx.Response, part: Path, resuming: bool, have: int, total: int | None, limit: int | None,
             on_progress: Callable[[Progress], None] | None, cancelled: Callable[[], bool], started_with: int) -> None:
    """Write the body as it arrives (each socket read, so a trickle still shows progress),
    stopping past `limit`, below MIN_RATE over RATE_WINDOW, or on a disk running low."""
    began, last_report, done = time.monotonic(), 0.0, have
    window_began, window_done = began, have
    next_disk_check = have + UNSIZED_DISK_CHECK
    with open(_private_writer(part, append=resuming), "ab" if resuming else "wb") as handle:
        # iter_raw, not iter_bytes: no decoding, so the bytes counted are the bytes written.
        for chunk in response.iter_raw():
            if cancelled():
                raise Cancelled()
            done += len(chunk)
            if limit is not None and done > limit:
                raise Oversize(limit)
            handle.write(chunk)
            now = time.monotonic()
            if now - window_began >= RATE_WINDOW:
                if (done - window_done) / (now - window_began) < MIN_RATE:
                    raise Stalled(f"under {MIN_RATE / 1024:g} KiB/s for {now - window_began:.0f} s")
                window_began, window_done = now, done
            if total is None and done >= next_disk_check:
                next_disk_check = done + UNSIZED_DISK_CHECK
                free = shutil.disk_usage(part.parent).free
                if free < DISK_MARGIN:
                    raise faults.disk_ran_low(part.parent, free, str(response.url))
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
