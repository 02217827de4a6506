"""A conversation's own system prompt and sampling, checked, and the presets that fill them.

Built-in presets cover the common wishes (a balanced default, precise answers, free writing,
repeatable output); a person's own presets are kept in the encrypted settings table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.protocol import SamplingSettings
from mfs_desktop.services.session import Session
from mfs_desktop.store.conversation_settings import (
    SAMPLING_FIELDS,
    ConversationSettings,
    conversation_settings,
    save_conversation_settings,
)
from mfs_desktop.store.settings import SettingsStore
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

SYSTEM_PROMPT_MAX_CHARS = 8_000  # it rides in every request, ahead of the compacted history
# (low, high) for each value; the ranges llama.cpp and the OpenAI API accept and that make sense
RANGES: dict[str, tuple[float, float]] = {
    "temperature": (0.0, 2.0), "top_p": (0.0, 1.0), "top_k": (0, 500), "min_p": (0.0, 1.0),
    "repeat_penalty": (0.5, 2.0), "max_tokens": (1, 32_768), "seed": (0, 2**31 - 1),
}
INTEGER_FIELDS = frozenset({"top_k", "max_tokens", "seed"})
BUILT_IN_PRESETS: dict[str, dict[str, float | int]] = {
    "balanced": {"temperature": 0.7, "top_p": 0.95, "top_k": 40, "min_p": 0.05, "repeat_penalty": 1.05},
    "precise": {"temperature": 0.2, "top_p": 0.9, "top_k": 20, "min_p": 0.1, "repeat_penalty": 1.05},
    "creative": {"temperature": 1.0, "top_p": 0.98, "top_k": 100, "min_p": 0.02, "repeat_penalty": 1.1},
    "repeatable": {"temperature": 0.0, "seed": 1},
}
_PRESETS_KEY = "sampling_presets"
THINKING_MODES = ("on", "off")
REASONING_EFFORTS = ("low", "medium", "high")  # the values OpenAI's API, vLLM and llama.cpp's server take
THINKING_TOKENS_RANGE = (64, 32_768)  # fewer than 64 is no thought at all; more is the max_tokens range


@dataclass(frozen=True)
class ThinkingChoice:
    """What a person asked about thinking; None leaves a field as it is."""

    mode: str | None = None  # "on" / "off" / "default"
    tokens: int | None = None  # a cap; 0 removes it
    effort: str | None = None  # "low" / "medium" / "high" / "default"


def presets(session: Session) -> dict[str, dict[str, float | int]]:
    own = SettingsStore(session.database).get(_PRESETS_KEY, {})
    return {**BUILT_IN_PRESETS, **(own if isinstance(own, dict) else {})}


def checked_values(values: dict[str, object]) -> dict[str, float | int]:
    """The sampling values as numbers in range, or InvalidInput naming the first that is not."""
    checked: dict[str, float | int] = {}
    for name, value in values.items():
        if name not in RANGES:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Unknown sampling setting {name!r}; the settings are "
                                                            "{settings}."),
                                      name=name, settings=", ".join(SAMPLING_FIELDS))
        low, high = RANGES[name]
        try:
            number: float | int = int(value) if name in INTEGER_FIELDS else float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} must be a number (got {value!r})."), name=name,
                                      value=value) from None
        if name in INTEGER_FIELDS and float(value) != number:  # type: ignore[arg-type]
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} must be a whole number (got {value!r})."),
                                      name=name, value=value)
        if not low <= number <= high:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} must be between {low:g} and {high:g} (got "
                                                            "{value})."), name=name, low=low, high=high, value=value)
        checked[name] = number
    return checked


def save_preset(session: Session, name: str, values: dict[str, object]) -> None:
    name = name.strip().lower()
    if not name:
        raise InvalidInput(QT_TRANSLATE_NOOP("", "A preset needs a name."))
    if name in BUILT_IN_PRESETS:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Choose a preset name other than {names}."),
                                  names=", ".join(BUILT_IN_PRESETS))
    settings = SettingsStore(session.database)
    own = settings.get(_PRESETS_KEY, {})
    settings.set(_PRESETS_KEY, {**own, name: checked_values(values)})


def checked_thinking(thinking: ThinkingChoice) -> dict[str, object]:
    """The thinking fields to change: "default" (or "") returns a field to the model's own."""
    chosen: dict[str, object] = {}
    for name, value, allowed in (("thinking", thinking.mode, THINKING_MODES),
                                 ("reasoning_effort", thinking.effort, REASONING_EFFORTS)):
        if value is None:
            continue
        if value not in (*allowed, "default", ""):
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} must be one of {choices} (got {value!r})."),
                                      name=name, choices=", ".join((*allowed, "default")), value=value)
        chosen[name] = value if value in allowed else None
    if thinking.tokens is not None:
        low, high = THINKING_TOKENS_RANGE
        if thinking.tokens != 0 and not low <= thinking.tokens <= high:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The thinking cap must be between {low:,} and {high:,} "
                                                            "tokens, or 0 for none (got {value})."),
                                      low=low, high=high, value=thinking.tokens)
        chosen["thinking_tokens"] = thinking.tokens or None
    return chosen


def configure(session: Session, conversation_id: str, *, system_prompt: str | None = None,
              values: dict[str, object] | None = None, preset: str | None = None,
              reset: bool = False, recall: bool | None = None, thinking: ThinkingChoice = ThinkingChoice(),
              mcp_servers: list[str] | None = None) -> tuple[ConversationSettings, bool]:
    """Change what is given (a preset first, then single values over it); `reset` returns to
    the defaults; `recall` False answers this conversation without recall (issue 45);
    `thinking` sets how a thinking model thinks (issue 48); `mcp_servers` names the MCP servers
    this conversation offers (["all"]: every enabled one). Returns the new settings and whether
    the system prompt changed."""
    current = ConversationSettings() if reset else conversation_settings(session.database, conversation_id)
    chosen: dict[str, object] = {}
    if preset is not None:
        known = presets(session)
        if preset.lower() not in known:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "No preset {preset!r}; the presets are {names}."),
                                      preset=preset, names=", ".join(known))
        chosen = {name: None for name in SAMPLING_FIELDS} | dict(known[preset.lower()])
        current = replace(current, preset=preset.lower())
    explicit = checked_values({k: v for k, v in (values or {}).items() if v is not None})
    if explicit and preset is None:
        current = replace(current, preset=None)
    chosen |= explicit
    if system_prompt is not None:
        if len(system_prompt) > SYSTEM_PROMPT_MAX_CHARS:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The system prompt is limited to {limit:,} characters (it "
                                                            "has {count:,})."),
                                      limit=SYSTEM_PROMPT_MAX_CHARS, count=len(system_prompt))
        chosen["system_prompt"] = system_prompt.strip() or None
    if recall is not None:
        chosen["recall"] = None if recall else False  # None: on, as every conversation starts
    chosen |= checked_thinking(thinking)
    if mcp_servers is not None:
        names = sorted({name.strip() for name in mcp_servers if name.strip()})
        chosen["mcp_servers"] = None if names == ["all"] else json.dumps([] if names == ["none"] else names)
    updated = replace(current, **chosen)  # type: ignore[arg-type]
    return updated, save_conversation_settings(session.database, conversation_id, updated)


def effective_sampling(base: SamplingSettings, settings: ConversationSettings,
                       overrides: dict[str, float | int] | None = None) -> SamplingSettings:
    """`base`, then the conversation's own values, then `overrides` (a command's own flags)."""
    own = {**settings.sampling_overrides(), **settings.thinking_overrides()}
    return replace(base, **{**own, **(overrides or {})})  # type: ignore[arg-type]
