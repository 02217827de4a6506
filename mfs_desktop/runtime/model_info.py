"""What a GGUF file is, read from its header, and how much memory it needs at a window."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from gguf import LlamaFileType

from mfs_desktop.runtime.gguf_header import GgufHeader, GgufUnreadable, read_gguf_header
from mfs_desktop.runtime.llama_arches import loadable_architecture

KV_BYTES = 2  # llama.cpp keeps K and V as f16 unless told otherwise
BATCH = 512  # EmbeddedModel's n_batch
WINDOW_STEP = 1024
SMALLEST_WINDOW = 2048
_SPLIT = re.compile(r"-(\d{5})-of-(\d{5})\.gguf$", re.IGNORECASE)


@dataclass(frozen=True)
class ModelInfo:
    """One file in the model list; `problem` is empty when llama.cpp can load it."""

    path: str
    size: int
    architecture: str = ""
    name: str = ""
    parameters: int = 0
    context_length: int = 0
    quantization: str = ""
    chat_template: bool = False
    layers: int = 0
    kv_width: int = 0  # K plus V elements per token per layer, over all KV heads
    vocabulary: int = 0
    problem: str = ""

    @property
    def usable(self) -> bool:
        return not self.problem

    def memory_bytes(self, window: int, contexts: int = 1) -> int:
        """Weights (the mapped file) plus, per llama.cpp context, the f16 KV cache of `window`
        tokens and one batch of logits. An upper bound in practice: the bundled model measured
        187 MB / 329 MB of resident growth at 2,048 / 8,192 against 246 MB / 388 MB here
        (tests/test_model_info.py measures it again)."""
        kv_cache = window * self.layers * self.kv_width * KV_BYTES
        logits = BATCH * self.vocabulary * 4
        return self.size + contexts * (kv_cache + logits)

    def fitting_window(self, available: int, contexts: int = 1) -> int | None:
        """The largest window up to the file's context length whose estimate fits in
        `available` bytes, in steps of 1,024 tokens; None when not even 2,048 fits."""
        longest = self.context_length or SMALLEST_WINDOW
        if self.memory_bytes(min(longest, SMALLEST_WINDOW), contexts) > available:
            return None
        if self.memory_bytes(longest, contexts) <= available:
            return longest
        per_token = max(1, contexts * self.layers * self.kv_width * KV_BYTES)
        spare = available - self.memory_bytes(0, contexts)
        return max(SMALLEST_WINDOW, min(longest, spare // per_token // WINDOW_STEP * WINDOW_STEP))


def is_later_split(path: Path) -> bool:
    """Parts 2… of a split GGUF; llama.cpp opens the set from part 1."""
    match = _SPLIT.search(path.name)
    return match is not None and int(match.group(1)) > 1


def quantization_name(header: GgufHeader) -> str:
    file_type = header.metadata.get("general.file_type")
    if isinstance(file_type, int):
        try:
            return LlamaFileType(file_type).name.removeprefix("MOSTLY_").removeprefix("ALL_")
        except ValueError:
            pass
    if not header.tensor_types:
        return ""
    return max(header.tensor_types.items(), key=lambda item: item[1])[0]


MAX_CONTEXT_LENGTH = 1 << 27  # the longest claimed by real models is about 10 M tokens


def _number(metadata: dict[str, object], key: str, default: int = 0) -> int:
    # Per-layer head counts are arrays (their length is all the header walk keeps): fall back.
    value = metadata.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def info_from_header(path: Path, size: int, header: GgufHeader) -> ModelInfo:
    meta = header.metadata
    architecture = str(meta.get("general.architecture", ""))
    prefix = f"{architecture}."
    embedding = _number(meta, prefix + "embedding_length")
    heads = _number(meta, prefix + "attention.head_count")
    kv_heads = _number(meta, prefix + "attention.head_count_kv", heads)
    head_width = embedding // heads if heads else 0
    key_width = _number(meta, prefix + "attention.key_length", head_width)
    value_width = _number(meta, prefix + "attention.value_length", head_width)
    vocabulary = _number(meta, prefix + "vocab_size", _number(meta, "tokenizer.ggml.tokens"))
    info = ModelInfo(
        path=str(path), size=size, architecture=architecture, name=str(meta.get("general.name", "")),
        parameters=header.parameters, context_length=_number(meta, prefix + "context_length"),
        quantization=quantization_name(header), chat_template=isinstance(meta.get("tokenizer.chat_template"), str),
        layers=_number(meta, prefix + "block_count"), kv_width=kv_heads * (key_width + value_width),
        vocabulary=vocabulary,
    )
    return _with_problem(info, header)


def _with_problem(info: ModelInfo, header: GgufHeader) -> ModelInfo:
    if header.data_end > info.size:
        missing = header.data_end - info.size
        return replace(info, problem=f"truncated: {missing:,} bytes of its weights are missing "
                                     "(an unfinished download or copy)")
    if header.metadata.get("general.type") in ("mmproj", "adapter") or "mmproj" in Path(info.path).name.lower():
        return replace(info, problem="not a chat model (a vision projector or adapter that belongs to one)")
    if not info.architecture:
        return replace(info, problem="its header names no architecture")
    if header.tensor_count == 0 or header.parameters == 0:
        return replace(info, problem="it holds no weights (a header without tensors)")
    if not 0 <= info.context_length <= MAX_CONTEXT_LENGTH:
        return replace(info, problem=f"its header gives an impossible context length ({info.context_length:,})")
    if not loadable_architecture(info.architecture):
        return replace(info, problem=f"architecture {info.architecture!r} is not supported by this "
                                     "llama.cpp; update llama-cpp-python")
    return info


def read_model_info(path: Path) -> ModelInfo:
    """The model list's row for `path`; an unreadable file comes back with its reason."""
    try:
        size = path.stat().st_size
        return info_from_header(path, size, read_gguf_header(path))
    except GgufUnreadable as reason:
        return ModelInfo(path=str(path), size=_size(path), problem=str(reason))
    except OSError as error:
        return ModelInfo(path=str(path), size=_size(path), problem=f"cannot be read: {error.strerror or error}")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
