"""A short list of well-known instruct GGUFs, a file each in a recommended quantization.

Q4_K_M is the usual recommendation for chat on a CPU: about 4.8 bits a weight, quality close
to Q8_0 at 60% of its size. Sizes are the files' sizes on the Hub; layers, KV heads and head
width come from each model's config and give the KV-cache part of the memory estimate before
a byte is downloaded. The Hub supplies each file's SHA-256 at download time.
"""

from __future__ import annotations

from dataclasses import dataclass

from mfs_desktop.runtime.model_info import ModelInfo
from mfs_desktop.translatable import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class CatalogueEntry:
    key: str
    title: str
    repo: str
    file: str
    size: int
    parameters: int
    context_length: int
    layers: int
    kv_heads: int
    head_width: int
    vocabulary: int
    chinese: bool  # trained and evaluated on Chinese, not merely able to emit it
    note: str  # English, marked for the window's translation

    def as_info(self) -> ModelInfo:
        """The model as the memory estimate sees it, before the file exists here."""
        return ModelInfo(path="", size=self.size, parameters=self.parameters, context_length=self.context_length,
                         quantization="Q4_K_M", chat_template=True, layers=self.layers,
                         kv_width=self.kv_heads * 2 * self.head_width, vocabulary=self.vocabulary)


CATALOGUE = (
    CatalogueEntry("qwen2.5-1.5b", "Qwen2.5 1.5B Instruct", "Qwen/Qwen2.5-1.5B-Instruct-GGUF",
                   "qwen2.5-1.5b-instruct-q4_k_m.gguf", 1_117_320_736, 1_540_000_000, 32_768, 28, 2, 128, 151_936,
                   True, QT_TRANSLATE_NOOP("", "small and quick; Chinese and English")),
    CatalogueEntry("qwen2.5-3b", "Qwen2.5 3B Instruct", "Qwen/Qwen2.5-3B-Instruct-GGUF",
                   "qwen2.5-3b-instruct-q4_k_m.gguf", 2_104_932_768, 3_090_000_000, 32_768, 36, 2, 128, 151_936,
                   True, QT_TRANSLATE_NOOP("", "a good first choice on 8 GB of memory")),
    CatalogueEntry("qwen2.5-7b", "Qwen2.5 7B Instruct", "bartowski/Qwen2.5-7B-Instruct-GGUF",
                   "Qwen2.5-7B-Instruct-Q4_K_M.gguf", 4_683_073_184, 7_620_000_000, 32_768, 28, 4, 128, 152_064,
                   True, QT_TRANSLATE_NOOP("", "much better answers; wants 16 GB")),
    CatalogueEntry("llama-3.2-3b", "Llama 3.2 3B Instruct", "bartowski/Llama-3.2-3B-Instruct-GGUF",
                   "Llama-3.2-3B-Instruct-Q4_K_M.gguf", 2_019_377_696, 3_210_000_000, 131_072, 28, 8, 128, 128_256,
                   False, QT_TRANSLATE_NOOP("", "English, German, French, Spanish, Italian, Portuguese, Hindi, Thai")),
    CatalogueEntry("gemma-3-4b", "Gemma 3 4B it", "bartowski/google_gemma-3-4b-it-GGUF",
                   "google_gemma-3-4b-it-Q4_K_M.gguf", 2_489_894_016, 3_880_000_000, 131_072, 34, 4, 256, 262_144,
                   True, QT_TRANSLATE_NOOP("", "over 140 languages")),
    CatalogueEntry("phi-4-mini", "Phi-4 mini instruct", "bartowski/microsoft_Phi-4-mini-instruct-GGUF",
                   "microsoft_Phi-4-mini-instruct-Q4_K_M.gguf", 2_491_874_816, 3_840_000_000, 131_072, 32, 8, 128,
                   200_064, True, QT_TRANSLATE_NOOP("", "strong at reasoning for its size")),
)


def catalogue_entry(key: str) -> CatalogueEntry | None:
    return next((entry for entry in CATALOGUE if entry.key == key), None)
