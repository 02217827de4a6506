"""GGUF files written byte by byte (hostile headers need exact control), and copies of the
bundled model with another chat template."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from pathlib import Path

from mfs_desktop.runtime.model_files import default_model_path

UINT32, INT32, STRING, ARRAY = 4, 5, 8, 9


def _text(value: str) -> bytes:
    raw = value.encode("utf-8")
    return struct.pack("<Q", len(raw)) + raw


def _value(kind: int, value: object) -> bytes:
    if kind == STRING:
        return _text(str(value))
    return struct.pack({UINT32: "<I", INT32: "<i"}[kind], value)


def gguf_bytes(metadata: Sequence[tuple[str, int, object]], *, tensors: int = 1) -> bytes:
    """A GGUF v3 file: `metadata` as (key, type, value), then `tensors` F32 tensors of 32 elements
    each with their data, aligned as llama.cpp expects."""
    head = b"GGUF" + struct.pack("<IQQ", 3, tensors, len(metadata))
    for key, kind, value in metadata:
        head += _text(key) + struct.pack("<I", kind) + _value(kind, value)
    for number in range(tensors):
        head += _text(f"blk.{number}.weight") + struct.pack("<IQIQ", 1, 32, 0, number * 128)
    head += b"\0" * (-len(head) % 32)
    return head + b"\0" * (128 * tensors)


def small_model(path: Path, template: str | None = "{% for m in messages %}{{ m['content'] }}{% endfor %}",
                **extra: tuple[int, object]) -> Path:
    """A tiny GGUF that passes every header check (an architecture llama.cpp knows, weights that are
    all there) without being loadable weights; for checks made before a model loads."""
    metadata: list[tuple[str, int, object]] = [("general.architecture", STRING, "llama"),
                                               ("llama.context_length", UINT32, 2048)]
    if template is not None:
        metadata.append(("tokenizer.chat_template", STRING, template))
    metadata += [(key.replace("__", "."), kind, value) for key, (kind, value) in extra.items()]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gguf_bytes(metadata))
    return path


def template_copy(target: Path, template: str) -> Path:
    """The bundled model with `template` as its chat template. The new text is padded with a Jinja
    comment to the old one's length, so the header keeps its size and the weights their offsets."""
    data = bytearray(default_model_path().read_bytes())
    key = b"tokenizer.chat_template"
    at = data.index(key) + len(key) + 4
    (length,) = struct.unpack_from("<Q", data, at)
    padding = length - len(template.encode("utf-8")) - 4
    assert padding >= 0, "the new template must not be longer than the bundled one"
    data[at + 8:at + 8 + length] = template.encode("utf-8") + b"{#" + b" " * padding + b"#}"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(bytes(data))
    return target
