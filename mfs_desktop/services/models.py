"""Build the chat model a command or the window asked for."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.protocol import ChatModel

PROVIDERS = ("embedded", "openai", "fake")
DEFAULT_WINDOW = 8192


@dataclass(frozen=True)
class ModelChoice:
    provider: str = "embedded"
    model_path: Path | None = None  # embedded: a GGUF file; None is the bundled default
    window: int = DEFAULT_WINDOW
    threads: int | None = None


def build_model(choice: ModelChoice) -> ChatModel:
    if choice.provider == "fake":
        from mfs_desktop.runtime.fake import FakeModel

        return FakeModel.from_environment()
    if choice.provider == "embedded":
        from mfs_desktop.runtime.embedded import EmbeddedModel
        from mfs_desktop.runtime.model_files import default_model_path

        return EmbeddedModel(choice.model_path or default_model_path(), n_ctx=choice.window, n_threads=choice.threads)
    raise InvalidInput(f"Unknown provider {choice.provider!r}; use one of {', '.join(PROVIDERS)}.")
