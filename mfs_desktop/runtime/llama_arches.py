"""Whether the llama.cpp inside llama-cpp-python knows a model architecture.

llama.cpp has no call that lists its architectures, and loading a file to find out costs
the vocabulary's load. Its library holds every architecture name as a NUL-terminated
string (the linker may share a name's bytes with a longer string ending in it), so a name
that does not occur there is one this llama.cpp cannot load. The converse is only likely:
a file that passes and still fails to load gets llama.cpp's own error when it is opened.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def _library_bytes() -> bytes | None:
    try:
        import llama_cpp
    except ImportError:
        return None
    folder = Path(llama_cpp.__file__).parent / "lib"
    for pattern in ("libllama.so", "libllama.dylib", "llama.dll", "libllama*.so*"):
        for library in sorted(folder.glob(pattern)):
            try:
                return library.read_bytes()
            except OSError:
                continue
    return None


def loadable_architecture(name: str) -> bool:
    """False only when this llama.cpp certainly lacks `name`; True when it has it or when
    the library cannot be read (llama.cpp then judges at load time)."""
    library = _library_bytes()
    if library is None or not name:
        return library is None
    return name.encode("utf-8") + b"\0" in library
