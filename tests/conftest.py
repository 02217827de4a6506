from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mfs_desktop.services.session import Session, open_session
from mfs_desktop.services.unlock import DataDir

PASSPHRASE = "correct horse battery staple"
# A cheaper scrypt than the default keeps the suite fast; one test opens with the default.
TEST_SCRYPT_N = 2**12
REPO = Path(__file__).resolve().parent.parent


def open_test_session(root: Path, passphrase: str = PASSPHRASE) -> Session:
    return open_session(DataDir(root), lambda new: passphrase, use_keychain=False, scrypt_n=TEST_SCRYPT_N)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary HOME, with every variable model discovery reads besides it cleared."""
    from tests.model_layouts import HOME_VARIABLES

    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    for name in HOME_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return folder


@pytest.fixture
def data_root(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def session(data_root: Path) -> Iterator[Session]:
    opened = open_test_session(data_root)
    yield opened
    opened.close()


def run_cli(*args: str, data_dir: Path, passphrase: str | None = PASSPHRASE, as_user: tuple[str, ...] = (),
            **env: str) -> subprocess.CompletedProcess:
    """`as_user` prefixes the command (e.g. setpriv) to run it as another account."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MFS_")}
    environment["MFS_KEY_STORE"] = "passphrase"
    if passphrase is not None:
        environment["MFS_PASSPHRASE"] = passphrase
    environment.update(env)
    return subprocess.run(
        [*as_user, sys.executable, "-m", "mfs_desktop", "--data-dir", str(data_dir), *args],
        capture_output=True, text=True, env=environment, stdin=subprocess.DEVNULL, timeout=120,
    )


def directory_digest(root: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.iterdir()) if p.is_file()}
