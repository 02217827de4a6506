"""The Hugging Face Hub's side of a download, through `huggingface_hub`: where a repository's
file is, how big, its SHA-256 (the LFS object id the Hub sends as the linked ETag), and the
headers a request needs (the user's token, the library's user agent). `HF_ENDPOINT` is read
at each call, so a mirror set for one command applies to it.

The bytes themselves go through `download.download`, not `hf_hub_download`: the app keeps
its own files (`<data>/models`, removable from the Models tab), writes `.part` files that
survive a kill, and refuses a file whose digest is wrong before it gets its name.
"""

from __future__ import annotations

import os
import re

from mfs_desktop.errors import DownloadFailed, NotFound
from mfs_desktop.runtime.download import CONNECT_TIMEOUT, DownloadSource
from mfs_desktop.runtime.download_faults import transport_reason
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def hub_endpoint() -> str:
    return os.environ.get("HF_ENDPOINT", "").rstrip("/") or "https://huggingface.co"


def resolve_hub_file(repo_id: str, filename: str, revision: str = "main", token: str | None = None) -> DownloadSource:
    """The download of `filename` in model repository `repo_id`, or a plain error saying why not."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_url
    from huggingface_hub.errors import (
        EntryNotFoundError,
        GatedRepoError,
        HfHubHTTPError,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )
    from huggingface_hub.utils import build_hf_headers

    endpoint = hub_endpoint()
    url = hf_hub_url(repo_id, filename, revision=revision, endpoint=endpoint)
    # token=False: only the token the user saved here, never one lying in ~/.cache/huggingface
    credential: str | bool = token or False
    try:
        metadata = get_hf_file_metadata(url, token=credential, endpoint=endpoint)
    except GatedRepoError:
        raise DownloadFailed.worded(QT_TRANSLATE_NOOP("", "{repo} is gated: accept its terms on {endpoint}/{repo} and "
                                                          "save a token with `mfs-desktop models token`."),
                                    repo=repo_id, endpoint=endpoint) from None
    except RepositoryNotFoundError:
        raise NotFound.worded(QT_TRANSLATE_NOOP("", "There is no model repository {repo} on {endpoint} (or it is "
                                                    "private and needs a token: `mfs-desktop models token`)."),
                              repo=repo_id, endpoint=endpoint) from None
    except RevisionNotFoundError:
        raise NotFound.worded(QT_TRANSLATE_NOOP("", "{repo} has no revision {revision!r}."), repo=repo_id,
                              revision=revision) from None
    except EntryNotFoundError:
        raise NotFound.worded(QT_TRANSLATE_NOOP("", "{repo} has no file {file!r}; its files are listed on "
                                                    "{endpoint}/{repo}."),
                              repo=repo_id, file=filename, endpoint=endpoint) from None
    except HfHubHTTPError as error:
        raise _hub_refusal(error, repo_id, filename) from None
    except _transport_errors() as error:
        raise DownloadFailed.worded(QT_TRANSLATE_NOOP("", "Could not reach {endpoint} ({kind}); check the network."),
                                    endpoint=endpoint, kind=transport_reason(error, CONNECT_TIMEOUT)) from None
    etag = (metadata.etag or "").lower()
    headers = build_hf_headers(token=credential)
    headers["Accept-Encoding"] = "identity"  # the digest is over the file's own bytes
    return DownloadSource(url=url, file_name=filename.rsplit("/", 1)[-1], size=metadata.size,
                          sha256=etag if _SHA256.match(etag) else None, headers=headers)


def _transport_errors() -> tuple[type[Exception], ...]:
    """huggingface_hub 1.x speaks through httpx, 2.x through httpx2: a refused connection or a
    timeout is either one's TransportError, a redirect loop its TooManyRedirects (both are
    RequestErrors), a redirect to a malformed address its InvalidURL."""
    import importlib

    errors: list[type[Exception]] = [OSError]
    for name in ("httpx", "httpx2"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        errors += [kind for kind in (getattr(module, "RequestError", None), getattr(module, "InvalidURL", None))
                   if isinstance(kind, type) and issubclass(kind, Exception)]
    return tuple(errors)


def _hub_refusal(error: Exception, repo_id: str, filename: str) -> DownloadFailed:
    """The Hub's HTTP status in the sentence when the error carries one."""
    status = getattr(getattr(error, "response", None), "status_code", None)
    if status is None:
        return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "The Hub answered an error for {repo}/{file}; try again "
                                                           "later."), repo=repo_id, file=filename)
    return DownloadFailed.worded(QT_TRANSLATE_NOOP("", "The Hub answered {status} for {repo}/{file}; try again later."),
                                 status=str(status), repo=repo_id, file=filename)
