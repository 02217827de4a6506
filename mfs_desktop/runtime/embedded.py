"""The embedded llama.cpp model (llama-cpp-python), with KV-cache prefix reuse across turns.

A `Llama` object is not thread-safe: one `EmbeddedModel` belongs to one worker thread.
The chat template comes from the GGUF. To keep the cache prefix exact, the tokens of the
previous call (prompt + the answer's sampled ids, as they sit in the KV cache) are kept and
the next prompt is tokenized only past them whenever its text extends theirs: re-tokenizing
an answer need not reproduce the ids that were sampled.
"""

from __future__ import annotations

import codecs
import ctypes
import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import llama_cpp

from mfs_desktop.errors import NotFound
from mfs_desktop.runtime.chat_template import FAMILIES, ChatTemplate, TemplateFailed, template_unusable
from mfs_desktop.runtime.kv_cache import CacheSnapshot, model_identity
from mfs_desktop.runtime.model_files import check_gguf
from mfs_desktop.runtime.neutral import WORD_JOINER
from mfs_desktop.runtime.protocol import (
    ChatMessage,
    Completion,
    SamplingSettings,
    TextSink,
    ToolSpec,
    Usage,
    thinking_sink,
)
from mfs_desktop.runtime.thinking import ThinkingSplitter, opens_thinking, without_opened_thinking
from mfs_desktop.runtime.tool_calls import ToolCallWatcher, call_grammar, message_content, tool_instructions
from mfs_desktop.translatable import QT_TRANSLATE_NOOP


@llama_cpp.llama_log_callback
def _quiet_llama_log(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
    """llama.cpp's own log lines never reach the user's terminal."""


llama_cpp.llama_log_set(_quiet_llama_log, ctypes.c_void_p())


WARM_BATCH = 512  # the n_batch the model is loaded with


def _or(chosen, default):
    return default if chosen is None else chosen


class EmbeddedModel:
    counts_exactly = True  # the GGUF's own template and tokenizer

    def __init__(
        self, model_path: Path, *, n_ctx: int = 8192, n_threads: int | None = None, tokenizer_only: bool = False,
        template_family: str = "",
    ) -> None:
        """`tokenizer_only` loads the vocabulary and template without the weights: exact counts
        and renders for replays and `inspect`, no answers. `template_family` names a known family's
        template to use instead of the file's own (one that cannot be used)."""
        check_gguf(model_path)
        try:
            self._llama = llama_cpp.Llama(
                str(model_path), n_ctx=n_ctx, n_threads=n_threads, n_batch=512, verbose=False, use_mmap=True,
                vocab_only=tokenizer_only,
            )
        except (ValueError, RuntimeError) as exc:
            raise NotFound.worded(QT_TRANSLATE_NOOP("", "llama.cpp could not load {path} ({reason}); choose another "
                                                        "GGUF file."), path=model_path, reason=str(exc)) from None
        self.name = model_path.name
        self._path = model_path
        self.identity = model_identity(model_path)
        self.window = n_ctx if tokenizer_only else self._llama.n_ctx()
        family = FAMILIES.get(template_family)
        template = family.source if family else self._llama.metadata.get("tokenizer.chat_template")
        if not template:
            raise NotFound.worded(QT_TRANSLATE_NOOP("", "{path} carries no chat template; choose an instruction-tuned "
                                                        "GGUF."), path=model_path)
        vocab_text = lambda token: self._llama.detokenize([token], special=True).decode("utf-8", "ignore")  # noqa: E731
        try:
            self._template = ChatTemplate(template, eos_token=vocab_text(self._llama.token_eos()),
                                          bos_token=vocab_text(self._llama.token_bos()),
                                          system_role=family.system_role if family else None)
        except TemplateFailed as reason:
            raise template_unusable(model_path, template, str(reason)) from None
        self._cached_text = ""
        self._cached_tokens: list[int] = []
        self._plain_texts: dict[str, str] = {}
        self._cancel: threading.Event | None = None
        # llama.cpp polls this between compute graphs: it is how a long prefill is aborted.
        self._abort_callback = llama_cpp.ggml_abort_callback(self._should_abort)
        llama_cpp.llama_set_abort_callback(self._llama._ctx.ctx, self._abort_callback, ctypes.c_void_p())

    def _should_abort(self, _data: ctypes.c_void_p) -> bool:
        return self._cancel is not None and self._cancel.is_set()

    def render(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = (),
               thinking: str | None = None) -> str:
        """The prompt the template makes. The prompt is tokenized with special tokens parsed (the
        template's own structure is made of them), so no message may spell one. `thinking` "on" /
        "off" is passed as `enable_thinking` (Qwen3's switch; other templates ignore it), and "off"
        also closes a thinking the template opened by itself."""
        form = self._template.tool_call_form if tools else ""  # the template describes tools in its own words
        native = bool(form)
        wire: list[Any] = [{"role": m.role, "content": self._without_control(message_content(m, bare=form == "bare"))}
                           for m in messages]
        if tools and not native:
            if wire and wire[0]["role"] == "system":
                wire[0] = {"role": "system", "content": wire[0]["content"] + "\n\n" + tool_instructions(tools)}
            else:
                wire.insert(0, {"role": "system", "content": tool_instructions(tools)})
        try:
            prompt = self._template.render(wire, enable_thinking=None if thinking is None else thinking == "on",
                                           tools=[tool.as_openai() for tool in tools] if native else None)
        except TemplateFailed as reason:
            raise template_unusable(self._path, self._template.source, str(reason)) from None
        return without_opened_thinking(prompt) if thinking == "off" else prompt

    def _without_control(self, text: str) -> str:
        """`text` with any of this vocabulary's special tokens it spells broken by a WORD JOINER
        (neutral.py does the same for the shapes common to all templates)."""
        known = self._plain_texts.get(text)
        if known is not None:
            return known
        plain = text
        for _ in range(4):  # a broken token may reveal another only rarely; bounded all the same
            raw = plain.encode("utf-8")
            special = self._llama.tokenize(raw, add_bos=False, special=True)
            if special == self._llama.tokenize(raw, add_bos=False, special=False):
                break
            for token in set(special) - set(self._llama.tokenize(raw, add_bos=False, special=False)):
                spelled = self._llama.detokenize([token], special=True).decode("utf-8", "ignore")
                if len(spelled) > 1:
                    plain = plain.replace(spelled, spelled[0] + WORD_JOINER + spelled[1:])
        if len(self._plain_texts) > 4096:  # a long chat's messages; old ones are rarely rendered again
            self._plain_texts.clear()
        self._plain_texts[text] = plain
        return plain

    def _tokenize(self, text: str, *, first: bool) -> list[int]:
        return self._llama.tokenize(text.encode("utf-8"), add_bos=first, special=True)

    def prompt_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = (),
                      thinking: str | None = None) -> list[int]:
        text = self.render(messages, tools, thinking)
        if self._cached_tokens and text.startswith(self._cached_text):
            return self._cached_tokens + self._tokenize(text[len(self._cached_text):], first=False)
        return self._tokenize(text, first=True)

    def answer_tokens(self, text: str) -> list[int]:
        """The ids an answer adds to the cache when it is sampled (tokenized in place)."""
        return self._tokenize(text, first=False)

    def text_of(self, ids: Sequence[int]) -> str:
        """The text of token ids (benchmarks read what a request held)."""
        return self._llama.detokenize(list(ids), special=True).decode("utf-8", errors="replace")

    def count_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int:
        return len(self.prompt_tokens(messages, tools))

    def warm(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = (),
             cancel: threading.Event | None = None) -> tuple[int, int]:
        """Evaluate the prompt these messages make into the KV cache, as far as it is not there
        already, so the next answer prefills only what follows; (tokens reused, evaluated).
        `cancel` stops it between batches (and inside one, through the abort callback)."""
        prompt_text = self.render(messages, tools)
        tokens = self.prompt_tokens(messages, tools)
        if len(tokens) + 1 >= self.window:
            return 0, 0
        llama = self._llama
        held = [int(t) for t in llama._input_ids.tolist()]
        pairs = zip(held, tokens, strict=False)
        common = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(held), len(tokens)))
        if common < len(held):
            llama._ctx.kv_cache_seq_rm(-1, common, -1)
            llama.n_tokens = common
        self._cancel = cancel
        try:
            for start in range(common, len(tokens), WARM_BATCH):
                if cancel is not None and cancel.is_set():
                    break
                llama.eval(tokens[start:start + WARM_BATCH])
        except RuntimeError:
            if cancel is None or not cancel.is_set():
                raise
            self.clear_cache()  # aborted inside a batch: what the cache holds is not known
            return common, 0
        finally:
            self._cancel = None
        llama._requires_eval = True  # the logits are the prompt's, not an answer's
        # llama.cpp books a batch's counts when the context synchronises: done here, so the next
        # answer's reset of them does not leave this prefill in its "evaluated" figure.
        llama_cpp.llama_synchronize(llama._ctx.ctx)
        self._remember(prompt_text, tokens)
        return common, llama.n_tokens - common

    def snapshot_cache(self) -> CacheSnapshot | None:
        """The KV cache as it stands (the last prompt and answer), for a later process."""
        context, count = self._llama._ctx.ctx, self._llama.n_tokens
        if not count or self._cached_tokens[:count] != [int(t) for t in self._llama._input_ids.tolist()]:
            return None
        size = llama_cpp.llama_state_seq_get_size(context, 0)
        buffer = (ctypes.c_uint8 * size)()
        written = llama_cpp.llama_state_seq_get_data(context, buffer, size, 0)
        if not written:
            return None
        return CacheSnapshot(self.identity, self.window, tuple(self._cached_tokens[:count]), self._cached_text,
                             memoryview(buffer).cast("B")[:written])  # no copy: tens of MB, under the GIL

    def restore_cache(self, snapshot: CacheSnapshot) -> bool:
        """Load a saved cache made by this model file at this window; False (and an empty
        cache) when llama.cpp refuses it."""
        if snapshot.model_id != self.identity or snapshot.window != self.window or \
                not 0 < len(snapshot.token_ids) < self.window:
            return False
        self.clear_cache()
        kind = ctypes.c_uint8 * len(snapshot.state)
        state = snapshot.state
        buffer = kind.from_buffer(state) if isinstance(state, bytearray) else kind.from_buffer_copy(state)
        if llama_cpp.llama_state_seq_set_data(self._llama._ctx.ctx, buffer, len(snapshot.state), 0) == 0:
            self.clear_cache()
            return False
        count = len(snapshot.token_ids)
        self._llama.input_ids[:count] = snapshot.token_ids
        self._llama.n_tokens = count
        self._llama._requires_eval = True  # no logits were saved: the next prompt re-evaluates its end
        self._cached_text, self._cached_tokens = snapshot.text, list(snapshot.token_ids)
        return True

    def clear_cache(self) -> None:
        """Forget the KV cache (used to measure a cold turn)."""
        self._llama.reset()
        self._llama._ctx.kv_cache_clear()
        self._cached_text, self._cached_tokens = "", []

    def complete(
        self, messages: Sequence[ChatMessage], settings: SamplingSettings, on_text: TextSink, cancel: threading.Event,
        tools: Sequence[ToolSpec] = (), tool_choice: str = "auto", json_schema: dict | None = None,
    ) -> Completion:
        """As the protocol says; with `json_schema` the answer is grammar-constrained to it. A
        thinking cap closes the thinking in the model's own words and lets it answer."""
        prompt_text = self.render(messages, tools, settings.thinking)
        tokens = self.prompt_tokens(messages, tools, settings.thinking)
        if len(tokens) + 1 >= self.window:
            raise NotFound.worded(QT_TRANSLATE_NOOP("", "The prompt needs {count} tokens; the model window is "
                                                        "{window}."), count=len(tokens), window=self.window)
        named = [tool for tool in tools if tool.name == tool_choice]
        forced = bool(tools) and (tool_choice == "required" or bool(named))
        watcher = ToolCallWatcher(on_text, enabled=bool(tools) and tool_choice == "auto" and json_schema is None,
                                  names=frozenset(tool.name for tool in tools))
        # Thinking is told apart before the watcher sees the text; grammar-bound output has none.
        splitter = None if forced or json_schema is not None else ThinkingSplitter(
            thinking_first=opens_thinking(prompt_text), on_thinking=thinking_sink(on_text))
        grammar: llama_cpp.LlamaGrammar | None
        if json_schema is not None:
            grammar = llama_cpp.LlamaGrammar.from_json_schema(json.dumps(json_schema), verbose=False)
        else:
            grammar = call_grammar(named or tools) if forced else None
        context = self._llama._ctx.ctx
        llama_cpp.llama_perf_context_reset(context)
        self._llama.set_seed(settings.seed)
        self._cancel = cancel
        decoder = codecs.getincrementaldecoder("utf-8")("ignore")
        cap = settings.thinking_tokens if splitter is not None else None
        finish, capped, feeding = "length", False, tokens
        sampled: list[int] = []
        prompt_evaluated: int | None = None  # before the cap re-reads the close of the thinking
        try:
            while True:  # once, or twice when the thinking reaches its cap
                cut = False
                for token in self._llama.generate(
                    feeding, temp=settings.temperature, top_p=settings.top_p, reset=True,
                    grammar=grammar, top_k=_or(settings.top_k, 40), min_p=_or(settings.min_p, 0.05),
                    repeat_penalty=_or(settings.repeat_penalty, 1.0),  # llama-cpp-python's own defaults
                ):
                    if llama_cpp.llama_vocab_is_eog(self._llama._model.vocab, token):
                        finish = "stop"
                        break
                    sampled.append(token)
                    piece = decoder.decode(self._llama.detokenize([token], special=False))
                    if piece and splitter is not None:
                        piece = splitter.feed(piece)
                    if piece and (forced or watcher.feed(piece)):
                        if forced:
                            watcher.captured.append(piece)
                        else:
                            finish = "stop"
                            break
                    if cancel.is_set():
                        finish = "cancelled"
                        break
                    if len(sampled) >= settings.max_tokens or len(feeding) + len(sampled) + 1 >= self.window:
                        break
                    if cap and splitter is not None and splitter.thinking_now and splitter.thinking_pieces >= cap:
                        cut = True
                        break
                if not cut or splitter is None:
                    break
                capped, prompt_evaluated = True, int(llama_cpp.llama_perf_context(context).n_p_eval)
                decoder.reset()  # a character cut by the cap is dropped with the rest of the thought
                feeding = tokens + sampled + self._tokenize(splitter.close_thinking(), first=False)
        except RuntimeError:
            if not cancel.is_set():
                raise
            finish = "cancelled"
            self.clear_cache()
        finally:
            self._cancel = None
        perf = llama_cpp.llama_perf_context(context)
        tail = decoder.decode(b"", final=True)
        watcher.feed(tail if splitter is None else splitter.feed(tail) + splitter.close())
        text, calls = watcher.result(forced)
        if calls and finish != "cancelled":
            finish = "tool_call"
        evaluated_prompt = min(len(tokens), int(perf.n_p_eval) if prompt_evaluated is None else prompt_evaluated)
        self._remember(prompt_text, tokens)
        usage = Usage(prompt_tokens=len(tokens), prompt_tokens_reused=len(tokens) - evaluated_prompt,
                      prompt_tokens_evaluated=evaluated_prompt, completion_tokens=len(sampled),
                      prefill_ms=round(float(perf.t_p_eval_ms), 3), decode_ms=round(float(perf.t_eval_ms), 3))
        if splitter is None:
            return Completion(text=text, finish_reason=finish, usage=usage, tool_calls=calls)
        return Completion(text=text, finish_reason=finish, usage=splitter.usage_of(usage, capped=capped),
                          tool_calls=calls, thinking=splitter.result.thinking)

    def _remember(self, prompt_text: str, prompt_ids: list[int]) -> None:
        """Keep the exact ids now in the KV cache and the text they stand for."""
        in_cache = [int(t) for t in self._llama._input_ids.tolist()]
        self._cached_text, self._cached_tokens = "", []
        if in_cache[: len(prompt_ids)] != prompt_ids:
            return
        try:
            answer_text = self._llama.detokenize(in_cache[len(prompt_ids):], special=False).decode("utf-8", "strict")
        except UnicodeDecodeError:  # the cache ends inside a character: start afresh next time
            return
        self._cached_text = prompt_text + answer_text
        self._cached_tokens = in_cache
