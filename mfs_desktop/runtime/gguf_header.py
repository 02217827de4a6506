"""Read a GGUF file's header — its key/value metadata and tensor table — without loading it.

The `gguf` package names the value types, quantization types and their block sizes; the
walk itself is our own because `gguf.GGUFReader` builds a Python object for every element
of every array (49,152 tokens and 48,900 merges in the bundled 135M file: 1.8 s a file),
while a model list must read a few hundred headers in about a second. Arrays are skipped
here, counted but never decoded.
"""

from __future__ import annotations

import mmap
import os
import stat
import struct
from dataclasses import dataclass, field
from pathlib import Path

from gguf import GGML_QUANT_SIZES, GGMLQuantizationType, GGUFValueType

MAGIC = b"GGUF"
_U64 = struct.Struct("<Q")
SUPPORTED_VERSIONS = (2, 3)
DEFAULT_ALIGNMENT = 32
_FIXED = {
    GGUFValueType.UINT8: "<B", GGUFValueType.INT8: "<b", GGUFValueType.UINT16: "<H",
    GGUFValueType.INT16: "<h", GGUFValueType.UINT32: "<I", GGUFValueType.INT32: "<i",
    GGUFValueType.FLOAT32: "<f", GGUFValueType.BOOL: "<?", GGUFValueType.UINT64: "<Q",
    GGUFValueType.INT64: "<q", GGUFValueType.FLOAT64: "<d",
}
# Walk limits: a header is someone else's file, and the walk must stay under a second and a
# few MB of memory whatever it claims. Real files are far inside them: some 50 metadata keys,
# vocabularies up to about 262,000 tokens plus as many merges, tensor tables of a few thousand
# rows (the largest MoE models about 2,000), templates of a few KB.
MAX_METADATA_ENTRIES = 1 << 16
MAX_TENSORS = 1 << 17
MAX_ARRAY_ELEMENTS = 1 << 24  # one array (token types are fixed-size and skipped in one step)
MAX_ARRAY_STRINGS = 1 << 22  # all string array elements of the header together, each walked one by one
MAX_STRING_BYTES = 16 << 20  # one key or string value
# The least bytes an entry can take, so a count the file cannot hold is refused before any walk:
# a metadata entry is a key (8-byte length, 1 byte at least), a type (4) and a value (1 at least).
_SMALLEST_ENTRY = 14
_SMALLEST_TENSOR = 8 + 1 + 4 + 4 + 8  # name length, name, dimensions, type, offset


class GgufUnreadable(Exception):
    """Why a file is not a usable GGUF; `str()` is a plain reason for the model list."""


@dataclass(frozen=True)
class GgufHeader:
    version: int
    metadata: dict[str, object]  # scalars and strings; an array appears as its length
    tensor_count: int
    parameters: int
    tensor_types: dict[str, int] = field(default_factory=dict)  # quantization name -> elements
    data_end: int = 0  # the byte the last tensor ends at; beyond the file means truncated


class _Cursor:
    def __init__(self, buffer: mmap.mmap, size: int) -> None:
        self.buffer = buffer
        self.size = size
        self.at = 0
        self.strings_left = MAX_ARRAY_STRINGS

    def unpack(self, fmt: str) -> int | float | bool:
        width = struct.calcsize(fmt)
        if self.at + width > self.size:
            raise GgufUnreadable("truncated: the file ends inside its header")
        (value,) = struct.unpack_from(fmt, self.buffer, self.at)
        self.at += width
        return value

    def count(self, most: int, smallest: int = 1) -> int:
        """A count of entries, refused past `most` or past what the rest of the file can hold at
        `smallest` bytes an entry."""
        value = int(self.unpack("<Q"))
        if value > most:
            raise GgufUnreadable(f"its header claims {value:,} entries (damaged)")
        if value * smallest > self.size - self.at:
            raise GgufUnreadable("truncated: the file ends inside its header")
        return value

    def string(self) -> str:
        length = int(self.unpack("<Q"))
        if length > MAX_STRING_BYTES:
            raise GgufUnreadable(f"its header holds a text of {length:,} bytes (damaged)")
        if self.at + length > self.size:
            raise GgufUnreadable("truncated: the file ends inside its header")
        raw = self.buffer[self.at:self.at + length]
        self.at += length
        return raw.decode("utf-8", errors="replace")

    def skip_strings(self, count: int) -> None:
        self.strings_left -= count
        if self.strings_left < 0:
            raise GgufUnreadable(f"its header holds more than {MAX_ARRAY_STRINGS:,} listed texts (damaged)")
        at, buffer, limit, length_at = self.at, self.buffer, self.size - 8, _U64.unpack_from
        for _ in range(count):
            if at > limit:
                raise GgufUnreadable("truncated: the file ends inside its header")
            at += 8 + length_at(buffer, at)[0]
        if at > self.size:
            raise GgufUnreadable("truncated: the file ends inside its header")
        self.at = at


def _value_type(raw: int) -> GGUFValueType:
    try:
        return GGUFValueType(raw)
    except ValueError:
        raise GgufUnreadable(f"its header holds an unknown value type {raw} (damaged)") from None


def _read_value(cursor: _Cursor, kind: GGUFValueType) -> object:
    if kind == GGUFValueType.STRING:
        return cursor.string()
    if kind == GGUFValueType.ARRAY:
        element = _value_type(int(cursor.unpack("<I")))
        count = cursor.count(MAX_ARRAY_ELEMENTS, 8 if element == GGUFValueType.STRING else 1)
        if element == GGUFValueType.STRING:
            cursor.skip_strings(count)
        elif element == GGUFValueType.ARRAY:
            raise GgufUnreadable("its header nests arrays, which GGUF does not allow (damaged)")
        else:
            cursor.at += count * struct.calcsize(_FIXED[element])
        return count
    return cursor.unpack(_FIXED[kind])


def _tensor_bytes(elements: int, kind: GGMLQuantizationType) -> int:
    block, size = GGML_QUANT_SIZES[kind]
    return elements // block * size


def read_gguf_header(path: Path) -> GgufHeader:
    """The header of `path`, or GgufUnreadable with the reason (not a regular file, not a GGUF, an
    old format, damaged, or truncated: the tensor data runs past the end of the file)."""
    # Opened without blocking: a FIFO or a device named *.gguf would otherwise hang the model list.
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with open(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise GgufUnreadable("it is not a regular file (a pipe, a device or a socket)")
        size = handle.seek(0, 2)
        if size < 24:
            raise GgufUnreadable("it is too short to be a GGUF model file")
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as buffer:
            if buffer[:4] != MAGIC:
                raise GgufUnreadable("it is not a GGUF file (no GGUF signature)")
            cursor = _Cursor(buffer, size)
            cursor.at = 4
            version = int(cursor.unpack("<I"))
            if version not in SUPPORTED_VERSIONS:
                raise GgufUnreadable(f"GGUF version {version} is not supported (only 2 and 3)")
            tensor_count = cursor.count(MAX_TENSORS, _SMALLEST_TENSOR)
            kv_count = cursor.count(MAX_METADATA_ENTRIES, _SMALLEST_ENTRY)
            metadata: dict[str, object] = {}
            for _ in range(kv_count):
                key = cursor.string()
                metadata[key] = _read_value(cursor, _value_type(int(cursor.unpack("<I"))))
            return _read_tensors(cursor, version, metadata, tensor_count)


def _read_tensors(cursor: _Cursor, version: int, metadata: dict[str, object], tensor_count: int) -> GgufHeader:
    parameters, data_end = 0, 0
    types: dict[str, int] = {}
    for _ in range(tensor_count):
        cursor.string()
        dims = int(cursor.unpack("<I"))
        if dims > 8:
            raise GgufUnreadable(f"a tensor claims {dims} dimensions (damaged)")
        elements = 1
        for _ in range(dims):
            elements *= int(cursor.unpack("<Q"))
        try:
            kind = GGMLQuantizationType(int(cursor.unpack("<I")))
        except ValueError:
            raise GgufUnreadable("a tensor has a type this version of gguf does not know") from None
        offset = int(cursor.unpack("<Q"))
        parameters += elements
        types[kind.name] = types.get(kind.name, 0) + elements
        data_end = max(data_end, offset + _tensor_bytes(elements, kind))
    alignment = metadata.get("general.alignment", DEFAULT_ALIGNMENT)
    align = alignment if isinstance(alignment, int) and alignment > 0 else DEFAULT_ALIGNMENT
    data_start = -(-cursor.at // align) * align
    return GgufHeader(version, metadata, tensor_count, parameters, types, data_start + data_end)
