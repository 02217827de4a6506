"""A short list of well-known instruct GGUFs, a file each in a recommended quantization.

Q4_K_M is the usual recommendation for chat on a CPU: about 4.8 bits a weight, quality close
to Q8_0 at 60% of its size. Sizes are the files' sizes on the Hub; layers, KV heads and head
width come from each model's config and give the KV-cache part of the memory estimate before
a byte is downloaded. The Hub supplies each file's SHA-256 at download time.

Every repository, file name and byte size was checked on 2026-12-07 against the Hub's published
listings as stored copies of them show (docs/catalogue.md names the source of each), not written
from memory; `thinks` marks a model that thinks before it answers (shown apart, issue 48),
`tools` one trained to call tools.
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
    thinks: bool = False
    tools: bool = False

    def as_info(self) -> ModelInfo:
        """The model as the memory estimate sees it, before the file exists here."""
        return ModelInfo(path="", size=self.size, parameters=self.parameters, context_length=self.context_length,
                         quantization="Q4_K_M", chat_template=True, layers=self.layers,
                         kv_width=self.kv_heads * 2 * self.head_width, vocabulary=self.vocabulary)


def _qwen3(size_b: str, repo: str, size: int, parameters: int, layers: int, note: str) -> CatalogueEntry:
    """Qwen3 dense models share a shape: 8 KV heads of 128, the same vocabulary, 40,960 tokens."""
    return CatalogueEntry(f"qwen3-{size_b.lower()}", f"Qwen3 {size_b}", repo, f"Qwen3-{size_b}-Q4_K_M.gguf", size,
                          parameters, 40_960, layers, 8, 128, 151_936, True, note, thinks=True, tools=True)


CATALOGUE = (
    _qwen3("1.7B", "unsloth/Qwen3-1.7B-GGUF", 1_107_409_472, 2_030_000_000, 28,
           QT_TRANSLATE_NOOP("", "thinks, or answers at once; small and quick")),
    _qwen3("4B", "Qwen/Qwen3-4B-GGUF", 2_497_280_256, 4_020_000_000, 36,
           QT_TRANSLATE_NOOP("", "a good first thinking model on 8 GB of memory")),
    _qwen3("8B", "Qwen/Qwen3-8B-GGUF", 5_027_783_488, 8_190_000_000, 36,
           QT_TRANSLATE_NOOP("", "much better answers and tool use; wants 16 GB")),
    CatalogueEntry("deepseek-r1-distill-1.5b", "DeepSeek-R1-Distill-Qwen 1.5B",
                   "bartowski/DeepSeek-R1-Distill-Qwen-1.5B-GGUF",
                   "DeepSeek-R1-Distill-Qwen-1.5B-Q4_K_M.gguf", 1_117_320_800, 1_780_000_000, 131_072, 28, 2, 128,
                   151_936, True, QT_TRANSLATE_NOOP("", "always thinks first; mathematics and puzzles"), thinks=True),
    CatalogueEntry("smollm3-3b", "SmolLM3 3B", "unsloth/SmolLM3-3B-GGUF", "SmolLM3-3B-Q4_K_M.gguf", 1_915_306_528,
                   3_080_000_000, 65_536, 36, 4, 128, 128_256, False,
                   QT_TRANSLATE_NOOP("", "thinks or not; English, French, Spanish, German, Italian, Portuguese"),
                   thinks=True),
    CatalogueEntry("gemma-3-1b", "Gemma 3 1B it", "ggml-org/gemma-3-1b-it-GGUF", "gemma-3-1b-it-Q4_K_M.gguf",
                   806_058_240, 1_000_000_000, 32_768, 26, 1, 256, 262_144, False,
                   QT_TRANSLATE_NOOP("", "tiny and quick; many languages")),
    CatalogueEntry("gemma-3-4b", "Gemma 3 4B it", "bartowski/google_gemma-3-4b-it-GGUF",
                   "google_gemma-3-4b-it-Q4_K_M.gguf", 2_489_758_112, 3_880_000_000, 131_072, 34, 4, 256, 262_144,
                   True, QT_TRANSLATE_NOOP("", "over 140 languages")),
    CatalogueEntry("qwen2.5-1.5b", "Qwen2.5 1.5B Instruct", "Qwen/Qwen2.5-1.5B-Instruct-GGUF",
                   "qwen2.5-1.5b-instruct-q4_k_m.gguf", 1_117_320_736, 1_540_000_000, 32_768, 28, 2, 128, 151_936,
                   True, QT_TRANSLATE_NOOP("", "small and quick; Chinese and English"), tools=True),
    CatalogueEntry("qwen2.5-7b", "Qwen2.5 7B Instruct", "bartowski/Qwen2.5-7B-Instruct-GGUF",
                   "Qwen2.5-7B-Instruct-Q4_K_M.gguf", 4_683_074_240, 7_620_000_000, 32_768, 28, 4, 128, 152_064,
                   True, QT_TRANSLATE_NOOP("", "answers at once, no thinking; wants 16 GB"), tools=True),
    CatalogueEntry("llama-3.2-3b", "Llama 3.2 3B Instruct", "bartowski/Llama-3.2-3B-Instruct-GGUF",
                   "Llama-3.2-3B-Instruct-Q4_K_M.gguf", 2_019_377_696, 3_210_000_000, 131_072, 28, 8, 128, 128_256,
                   False, QT_TRANSLATE_NOOP("", "English, German, French, Spanish, Italian, Portuguese, Hindi, Thai"),
                   tools=True),
    CatalogueEntry("phi-4-mini", "Phi-4 mini instruct", "bartowski/microsoft_Phi-4-mini-instruct-GGUF",
                   "microsoft_Phi-4-mini-instruct-Q4_K_M.gguf", 2_491_874_688, 3_840_000_000, 131_072, 32, 8, 128,
                   200_064, True, QT_TRANSLATE_NOOP("", "strong at reasoning for its size"), tools=True),
)
