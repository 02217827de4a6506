"""Build the chat model a command or the window asked for."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.protocol import ChatModel
from mfs_desktop.store.database import Database

log = logging.getLogger(__name__)


def _log_switch(kind: str, reason: str) -> None:
    log.warning("model endpoint: now using the %s (%s)", kind, reason)

PROVIDERS = ("embedded", "openai", "fake")
DEFAULT_WINDOW = 8192


@dataclass(frozen=True)
class ModelChoice:
    provider: str = "embedded"
    model_path: Path | None = None  # embedded: a GGUF file; None is the bundled default
    window: int = DEFAULT_WINDOW
    threads: int | None = None


def build_model(choice: ModelChoice, database: Database | None = None) -> ChatModel:
    if choice.provider == "fake":
        from mfs_desktop.runtime.fake import FakeModel

        return FakeModel.from_environment()
    if choice.provider == "embedded":
        return _embedded(choice, database)()
    if choice.provider == "openai":
        from mfs_desktop.runtime.endpoint_switch import EndpointSwitch
        from mfs_desktop.runtime.openai_http import OpenAICompatibleModel
        from mfs_desktop.services.models.endpoints import load_endpoint

        primary = load_endpoint(database, "primary") if database is not None else None
        if primary is None:
            raise InvalidInput(
                "No endpoint is configured; run `mfs-desktop endpoint set primary --url URL --model NAME`."
            )
        switch = EndpointSwitch(primary, load_endpoint(database, "fallback"), on_event=_log_switch)
        return OpenAICompatibleModel(switch)
    raise InvalidInput(f"Unknown provider {choice.provider!r}; use one of {', '.join(PROVIDERS)}.")


def _embedded(choice: ModelChoice, database: Database | None) -> Callable[[], ChatModel]:
    """A maker of the model, with the template chosen for its file read now (on the caller's thread)."""
    from mfs_desktop.runtime.embedded import EmbeddedModel
    from mfs_desktop.runtime.model_files import default_model_path
    from mfs_desktop.services.models.templates import template_family

    family = template_family(database, choice.model_path)
    return lambda: EmbeddedModel(choice.model_path or default_model_path(), n_ctx=choice.window,
                                 n_threads=choice.threads, template_family=family)


def compactor_factory(choice: ModelChoice, database: Database | None = None):
    """The embedded model compacts on a second context of its own over the same mapped file
    (a llama.cpp context is not thread-safe); other providers use the deterministic compactor."""
    if choice.provider != "embedded":
        return None
    from mfs_desktop.compaction.compactor import ModelCompactor

    model = _embedded(choice, database)
    return lambda: ModelCompactor(model())
