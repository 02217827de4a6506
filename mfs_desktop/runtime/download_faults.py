"""Why a model download failed, in words a user can act on: every failure of the network, the
server or a redirect becomes a `DownloadFailed` (or `DiskFull`), never a bare httpx exception.

`download.py` decides what stays on disk; this module only names the cause. httpx (ours) and
httpx2 (huggingface_hub's) raise look-alike classes, so the wording goes by the OS error under
the exception and by class names rather than by `isinstance` against one library.
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from mfs_desktop.errors import DiskFull, DownloadFailed
from mfs_desktop.translatable import QT_TRANSLATE_NOOP


class Dropped(Exception):
    """The connection broke (after bytes arrived, or while asking); worth an automatic retry."""


class Stalled(Exception):
    """The server went silent or slower than the minimum rate; the reason is in plain words."""


class RefusedRedirect(Exception):
    """A redirect to something that is not http(s): never followed. Raised from a response hook,
    before httpx builds (or tries to fetch) the next request."""

    def __init__(self, target: str) -> None:
        super().__init__(target)
        self.target = target


class Oversize(Exception):
    """More bytes than announced arrived."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


def host_of(url: str) -> str:
    return urlsplit(url).hostname or url


def _causes(error: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def transport_reason(error: BaseException, connect_timeout: float) -> str:
    """What went wrong reaching a server, in a few plain words (for httpx and httpx2 alike)."""
    chain = _causes(error)
    if any(isinstance(cause, socket.gaierror) for cause in chain):
        return "the name does not resolve: offline, or a mistyped address"
    if any(isinstance(cause, ConnectionRefusedError) for cause in chain):
        return "it refused the connection: no server is listening there"
    names = {type(cause).__name__ for cause in chain}
    if "ConnectTimeout" in names or any(isinstance(cause, TimeoutError) for cause in chain):
        return f"no answer within {connect_timeout:g} s"
    if "TooManyRedirects" in names:
        return "too many redirects"
    if "ProxyError" in names:
        return "the proxy refused or failed"
    detail = str(error).strip()
    return detail or type(error).__name__


def unreachable(error: BaseException, url: str, connect_timeout: float) -> DownloadFailed:
    return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "Could not reach {host} ({reason}); check the network and the "
                                                       "address."),
                                 host=host_of(url), reason=transport_reason(error, connect_timeout))


def redirect_loop(url: str, limit: int) -> DownloadFailed:
    return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "{url} sent more than {count} redirects (a redirect loop); "
                                                       "nothing was downloaded."), url=url, count=limit)


def refused_redirect(url: str, target: str) -> DownloadFailed:
    return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "{url} redirects to {target}, which is not a web (http or "
                                                       "https) address; MFS Desktop does not follow it, and nothing "
                                                       "was downloaded."), url=url, target=target[:200])


def not_a_web_address(url: str) -> DownloadFailed:
    return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "{url} is not a web (http or https) address MFS Desktop can "
                                                       "download from."), url=url)


def encoded(url: str, encoding: str) -> DownloadFailed:
    return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "{host} sent the file compressed ({encoding}) although MFS "
                                                       "Desktop asked for it as it is; its size cannot be checked, so "
                                                       "nothing was kept."), host=host_of(url), encoding=encoding[:40])


def oversize(url: str, name: str, limit: int) -> DownloadFailed:
    return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "{host} sent more than the {size:,} bytes announced for {name}; "
                                                       "the download was stopped and deleted."),
                                 host=host_of(url), size=limit, name=name)


def stalled(url: str, reason: str, kept: int) -> DownloadFailed:
    if kept:
        return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "The download from {host} stalled ({reason}); run the "
                                                           "download again to resume from {size:,} bytes."),
                                     host=host_of(url), reason=reason, size=kept)
    return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "The download from {host} stalled ({reason}) before any data "
                                                       "arrived; nothing was kept. Try again later."),
                                 host=host_of(url), reason=reason)


def kept_dropping(reason: str, kept: int) -> DownloadFailed:
    if kept:
        return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "The connection kept dropping ({reason}); run the download "
                                                           "again to resume from {size:,} bytes."),
                                     reason=reason, size=kept)
    return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "The connection kept dropping ({reason}) before any data "
                                                       "arrived; nothing was kept. Try again later."), reason=reason)


def disk_ran_low(folder: object, free: int, url: str) -> DiskFull:
    return DiskFull.worded(QT_TRANSLATE_NOOP("", "{folder} is down to {free:.2f} GB free and {host} did not say how "
                                                 "big the file is; the download was stopped and deleted."),
                           folder=folder, free=free / 1e9, host=host_of(url))
