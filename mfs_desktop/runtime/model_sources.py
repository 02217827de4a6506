"""Where the apps our users come from keep their GGUF files, on Linux, macOS and Windows.

Nothing here opens a model: each source yields candidate files with a display name, and
`model_info` reads their headers. Folders that do not exist are skipped silently.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MAX_DEPTH = 6  # LM Studio: models/publisher/repo/file; the HF cache: hub/models--x/snapshots/rev/dir/file
OLLAMA_MODEL_MEDIA = "application/vnd.ollama.image.model"


@dataclass(frozen=True)
class Candidate:
    path: Path
    source: str  # bundled, downloaded, lmstudio, gpt4all, jan, huggingface, ollama, folder
    label: str  # what a person recognises: repo/file, ollama's name:tag, or the file name


def _home() -> Path:
    return Path(os.environ.get("HOME") or os.environ.get("USERPROFILE") or Path.home())


def _data_homes() -> list[Path]:
    """The per-user application-data folders of this platform, most specific first."""
    home = _home()
    if sys.platform == "darwin":
        return [home / "Library" / "Application Support"]
    if sys.platform == "win32":
        return [Path(os.environ[name]) for name in ("APPDATA", "LOCALAPPDATA") if os.environ.get(name)]
    return [Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")]


def lmstudio_folders() -> list[Path]:
    home = _home()
    return [home / ".lmstudio" / "models", home / ".cache" / "lm-studio" / "models"]


def gpt4all_folders() -> list[Path]:
    return [base / "nomic.ai" / "GPT4All" for base in _data_homes()]


def jan_folders() -> list[Path]:
    folders = [_home() / "jan" / "models"]
    for base in _data_homes():
        folders += [base / "Jan" / "data" / "models", base / "Jan" / "data" / "llamacpp" / "models"]
    return folders


def huggingface_hub_folder() -> Path:
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"])
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]) / "hub"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or _home() / ".cache")
    return cache / "huggingface" / "hub"


def ollama_folder() -> Path:
    return Path(os.environ["OLLAMA_MODELS"]) if os.environ.get("OLLAMA_MODELS") else _home() / ".ollama" / "models"


def gguf_files(folder: Path, max_depth: int = MAX_DEPTH) -> Iterator[Path]:
    """Every *.gguf under `folder` (no deeper than `max_depth`), without following folder
    links out of it; a file link (the HF cache's snapshots) is followed."""
    base_depth = len(folder.parts)
    for root, dirs, files in os.walk(folder, onerror=lambda _error: None):
        here = Path(root)
        if len(here.parts) - base_depth >= max_depth:
            dirs.clear()
        dirs[:] = sorted(name for name in dirs if not name.startswith("."))
        for name in sorted(files):
            if name.lower().endswith(".gguf"):
                yield here / name


def folder_candidates(folders: list[Path], source: str) -> Iterator[Candidate]:
    for folder in folders:
        for path in gguf_files(folder):
            yield Candidate(path, source, path.relative_to(folder).as_posix())


def huggingface_candidates() -> Iterator[Candidate]:
    hub = huggingface_hub_folder()
    for path in gguf_files(hub):
        parts = path.relative_to(hub).parts
        # models--org--name/snapshots/<revision>/<file…>
        if len(parts) >= 4 and parts[0].startswith("models--") and parts[1] == "snapshots":
            repo = parts[0].removeprefix("models--").replace("--", "/")
            yield Candidate(path, "huggingface", f"{repo}/{'/'.join(parts[3:])}")


def ollama_candidates() -> Iterator[Candidate]:
    """Ollama names files by digest: manifests/<registry>/<namespace>/<model>/<tag> list the
    layers, and the model layer's digest names the blob holding the GGUF."""
    root = ollama_folder()
    manifests = root / "manifests"
    if not manifests.is_dir():
        return
    for manifest in sorted(p for p in manifests.rglob("*") if p.is_file()):
        parts = manifest.relative_to(manifests).parts
        if len(parts) != 4:
            continue
        registry, namespace, model, tag = parts
        try:
            layers = json.loads(manifest.read_text("utf-8")).get("layers", [])
        except (OSError, ValueError, AttributeError):
            continue
        for layer in layers if isinstance(layers, list) else []:
            if isinstance(layer, dict) and layer.get("mediaType") == OLLAMA_MODEL_MEDIA:
                digest = str(layer.get("digest", "")).replace(":", "-")
                short = model if namespace == "library" and registry == "registry.ollama.ai" else f"{namespace}/{model}"
                yield Candidate(root / "blobs" / digest, "ollama", f"{short}:{tag}")


def app_candidates() -> Iterator[Candidate]:
    """Every other app's models, in the order the model list shows their sources."""
    yield from folder_candidates(lmstudio_folders(), "lmstudio")
    yield from folder_candidates(gpt4all_folders(), "gpt4all")
    yield from folder_candidates(jan_folders(), "jan")
    yield from huggingface_candidates()
    yield from ollama_candidates()
