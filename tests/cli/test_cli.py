"""The command line as a person runs it: a child process, its output and exit code."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO, open_test_session, run_cli

from mfs_desktop import __version__
from mfs_desktop.store.models import MessageDraft


def test_version_and_help() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mfs_desktop", "--version"], capture_output=True, text=True, cwd=REPO
    )
    assert result.returncode == 0 and __version__ in result.stdout
    entry = Path(sys.executable).parent / "mfs-desktop"
    assert entry.exists(), "the console entry point is installed"
    helped = subprocess.run([str(entry), "--help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "doctor" in helped.stdout and "--data-dir" in helped.stdout


def test_doctor_all_ok_offscreen(tmp_path: Path) -> None:
    result = run_cli("doctor", data_dir=tmp_path, QT_QPA_PLATFORM="offscreen")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.strip().splitlines()
    names = ["python", "sqlcipher", "data dir", "key storage", "tokenizer", "llama.cpp", "default model", "qt"]
    started = [line.split(None, 1)[1].startswith(name) for line, name in zip(lines, names, strict=False)]
    assert started == [True] * len(names)
    assert all(line.startswith("OK") for line in lines)
    assert "SQLCipher 4." in result.stdout and ".gguf" in result.stdout and "offscreen" in result.stdout


def test_doctor_explains_what_is_missing(tmp_path: Path) -> None:
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    environment["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    result = subprocess.run([sys.executable, "-m", "mfs_desktop", "--data-dir", str(tmp_path), "doctor"],
                            capture_output=True, text=True, env=environment, cwd=REPO)
    assert result.returncode == 1
    qt_line = next(line for line in result.stdout.splitlines() if " qt " in line)
    assert qt_line.startswith("FAIL") and "no display" in qt_line
    assert "no keychain service is available" in result.stdout and "passphrase mode" in result.stdout


def test_verbose_logs_carry_no_message_text(data_root: Path) -> None:
    session = open_test_session(data_root)
    conversation = session.transcript.create_conversation()
    session.transcript.append(conversation.id, [MessageDraft("user", "private-words-4417")])
    session.transcript.trash(conversation.id, now=0.0)
    session.close()
    result = run_cli("-v", "list", "--trash", data_dir=data_root)
    assert result.returncode == 0
    assert "retention: 1 conversations" in result.stderr
    assert "private-words-4417" not in result.stderr


def test_window_without_display_says_so(tmp_path: Path) -> None:
    environment = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    result = subprocess.run([sys.executable, "-m", "mfs_desktop", "--data-dir", str(tmp_path)],
                            capture_output=True, text=True, env=environment, cwd=REPO, timeout=60)
    assert result.returncode == 13 and "No display" in result.stderr and "Traceback" not in result.stderr
    assert not any(tmp_path.iterdir()), "nothing is created before the window can open"


def test_trash_commands(data_root: Path) -> None:
    session = open_test_session(data_root)
    conversation = session.transcript.create_conversation()
    session.transcript.append(conversation.id, [MessageDraft("user", "hello")])
    session.close()
    assert run_cli("delete", conversation.id, data_dir=data_root).returncode == 0
    assert conversation.id in run_cli("list", "--trash", data_dir=data_root).stdout
    assert run_cli("restore", conversation.id, data_dir=data_root).returncode == 0
    assert conversation.id in run_cli("list", data_dir=data_root).stdout
    assert run_cli("delete", conversation.id, data_dir=data_root).returncode == 0
    emptied = run_cli("empty-trash", data_dir=data_root)
    assert emptied.returncode == 0 and "purged 1" in emptied.stdout
    assert "(no conversations)" in run_cli("list", data_dir=data_root).stdout
