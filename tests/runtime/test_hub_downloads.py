"""Downloads through huggingface_hub from a loopback server speaking the Hub's resolve
protocol, then use and remove through the CLI."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mfs_desktop.errors import DownloadFailed, InvalidInput, NotFound
from mfs_desktop.runtime.model_files import default_model_path
from tests.conftest import PASSPHRASE, run_cli
from tests.file_servers import HubServer

REPO_ID = "HuggingFaceTB/SmolLM2-135M-Instruct-GGUF"
FILE = "smollm2-135m-instruct-q4_1.gguf"
TOKEN = "hf_loopbacktesttoken"


@pytest.fixture(scope="module")
def model_bytes() -> bytes:
    return default_model_path().read_bytes()


@pytest.fixture
def hub(model_bytes: bytes):
    server = HubServer({REPO_ID: {FILE: model_bytes}, "someone/gated-GGUF": {FILE: model_bytes}},
                       gated={"someone/gated-GGUF": TOKEN})
    yield server
    server.stop()


def _cli(data: Path, hub: HubServer, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MFS_", "HF_"))}
    env |= {"MFS_KEY_STORE": "passphrase", "MFS_PASSPHRASE": PASSPHRASE, "HF_ENDPOINT": hub.endpoint,
            "HF_HUB_DISABLE_TELEMETRY": "1"}
    return subprocess.run([sys.executable, "-m", "mfs_desktop", "--data-dir", str(data), *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=180)


def test_a_hub_file_downloads_verified_by_its_lfs_digest_and_becomes_the_model(hub, model_bytes, tmp_path) -> None:
    data = tmp_path / "data"
    done = _cli(data, hub, "models", "download", REPO_ID, FILE)
    assert done.returncode == 0, done.stderr
    target = data / "models" / "HuggingFaceTB" / "SmolLM2-135M-Instruct-GGUF" / FILE
    assert f"sha256 {hashlib.sha256(model_bytes).hexdigest()} (verified)" in done.stdout
    assert target.read_bytes() == model_bytes
    assert hub.resolve_requests[0]["method"] == "HEAD"  # huggingface_hub asked the resolve URL
    assert all("authorization" not in request for request in hub.cdn_files[next(iter(hub.cdn_files))].requests)

    listed = json.loads(_cli(data, hub, "models", "list", "--json").stdout)
    mine = [row for row in listed if row["source"] == "downloaded"]
    assert [row["path"] for row in mine] == [str(target)] and mine[0]["context_length"] == 8192

    used = _cli(data, hub, "models", "use", str(target))
    assert used.returncode == 0 and "window 8,192 tokens" in used.stdout
    shown = run_cli("models", "list", data_dir=data)
    assert "* downloaded" in shown.stdout

    refused = _cli(data, hub, "models", "remove", str(default_model_path()))
    assert refused.returncode == InvalidInput.exit_code and "was not downloaded by MFS Desktop" in refused.stderr
    removed = _cli(data, hub, "models", "remove", str(target))
    assert removed.returncode == 0 and "bundled model is the default again" in removed.stdout
    assert not target.exists()


def test_a_gated_repository_needs_the_saved_token_which_never_reaches_the_cdn(hub, tmp_path) -> None:
    data = tmp_path / "data"
    refused = _cli(data, hub, "models", "download", "someone/gated-GGUF", FILE)
    assert refused.returncode == DownloadFailed.exit_code and "is gated" in refused.stderr
    assert not list((data / "models").rglob("*.part"))
    saved = _cli(data, hub, "models", "token", stdin=TOKEN + "\n")
    assert saved.returncode == 0 and "token saved (database)" in saved.stdout
    done = _cli(data, hub, "models", "download", "someone/gated-GGUF", FILE)
    assert done.returncode == 0, done.stderr
    assert hub.resolve_requests[-1]["authorization"] == f"Bearer {TOKEN}"
    cdn_requests = next(iter(hub.cdn_files.values())).requests
    assert cdn_requests and all("authorization" not in request for request in cdn_requests)


def test_a_wrong_digest_from_the_hub_is_refused_with_nothing_left(model_bytes, tmp_path) -> None:
    server = HubServer({REPO_ID: {FILE: model_bytes}}, wrong_digest=True)
    try:
        done = _cli(tmp_path / "data", server, "models", "download", REPO_ID, FILE)
    finally:
        server.stop()
    assert done.returncode == DownloadFailed.exit_code and "does not match its SHA-256" in done.stderr
    assert [p for p in (tmp_path / "data" / "models").rglob("*") if p.is_file()] == []


def test_missing_repositories_and_files_are_named_plainly(hub, tmp_path) -> None:
    no_file = _cli(tmp_path / "data", hub, "models", "download", REPO_ID, "other.gguf")
    assert no_file.returncode == NotFound.exit_code and "has no file 'other.gguf'" in no_file.stderr
    no_repo = _cli(tmp_path / "data", hub, "models", "download", "nobody/nothing", FILE)
    assert no_repo.returncode == NotFound.exit_code and "no model repository nobody/nothing" in no_repo.stderr
    offline = subprocess.run([sys.executable, "-c", (
        "import os; os.environ['HF_ENDPOINT'] = 'http://127.0.0.1:9';"
        "from mfs_desktop.runtime.hub import resolve_hub_file\n"
        "try:\n    resolve_hub_file('a/b', 'c.gguf')\nexcept Exception as e: print(type(e).__name__, e)")],
        capture_output=True, text=True, timeout=60)
    assert offline.stdout.startswith("DownloadFailed Could not reach http://127.0.0.1:9"), offline.stdout


@pytest.mark.parametrize("repo, file", [("a/b", "../../escape.gguf"), ("../x", "m.gguf"), ("a/b", "/etc/m.gguf")])
def test_a_repository_path_cannot_leave_the_models_folder(session, repo, file) -> None:
    from mfs_desktop.services.models.actions import download_model

    with pytest.raises(InvalidInput, match="inside a repository"):
        download_model(session, repo, file)
