"""Real GGUF files (the bundled one, and truncated, damaged and foreign copies of it) laid out
the way LM Studio, GPT4All, Jan, the Hugging Face cache and Ollama keep their models."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from mfs_desktop.runtime.model_files import default_model_path

# Where model discovery looks besides HOME: cleared so only the temporary home is seen.
HOME_VARIABLES = ("XDG_DATA_HOME", "XDG_CACHE_HOME", "HF_HOME", "HF_HUB_CACHE", "OLLAMA_MODELS", "APPDATA",
                  "LOCALAPPDATA")


def place(source: Path, target: Path) -> Path:
    """A hard link where the file system allows one (each path its own file to the app, no
    98 MB copy), else a copy."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
    return target


def foreign_architecture_copy(target: Path) -> Path:
    """The bundled model with `general.architecture` renamed to one no llama.cpp knows."""
    data = bytearray(default_model_path().read_bytes())
    key = b"general.architecture"
    at = data.index(key) + len(key) + 4 + 8  # the value: type (4 bytes), length (8), text
    assert data[at:at + 5] == b"llama"
    data[at:at + 5] = b"zq9xw"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(bytes(data))
    return target


def lay_out_apps(home: Path, model: Path | None = None) -> dict[str, Path]:
    """One model in each app's folder under `home`; returns where each went."""
    model = model or default_model_path()
    places = {
        "lmstudio": place(model, home / ".lmstudio/models/HuggingFaceTB/SmolLM2-GGUF/smol-q4.gguf"),
        "lmstudio-old": place(model, home / ".cache/lm-studio/models/old/repo/smol-old.gguf"),
        "gpt4all": place(model, home / ".local/share/nomic.ai/GPT4All/smol-gpt4all.gguf"),
        "jan": place(model, home / "jan/models/smol/model.gguf"),
        "jan-data": place(model, home / ".local/share/Jan/data/llamacpp/models/smol-jan/model.gguf"),
    }
    hub = home / ".cache/huggingface/hub/models--HuggingFaceTB--SmolLM2-135M-Instruct-GGUF"
    blob = place(model, hub / "blobs" / "0f1e2d3c")
    snapshot = hub / "snapshots" / ("a" * 40) / "smollm2-135m-instruct-q4_1.gguf"
    snapshot.parent.mkdir(parents=True)
    snapshot.symlink_to(os.path.relpath(blob, snapshot.parent))
    places["huggingface"] = snapshot
    digest = hashlib.sha256(b"stand-in digest").hexdigest()
    blob = place(model, home / ".ollama/models/blobs" / f"sha256-{digest}")
    manifest = home / ".ollama/models/manifests/registry.ollama.ai/library/smollm2/135m"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(json.dumps({"schemaVersion": 2, "layers": [
        {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256-" + "1" * 64, "size": 10},
        {"mediaType": "application/vnd.ollama.image.model", "digest": f"sha256:{digest}", "size": blob.stat().st_size},
    ]}))
    places["ollama"] = blob
    return places
