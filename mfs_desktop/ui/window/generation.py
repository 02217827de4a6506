"""A generation as the window sees it: send or stop, regenerate, alternatives, the live answer.

A mixin of `MainWindow` (ui/window/main_window.py), which owns the widgets it uses."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QInputDialog,
    QMessageBox,
)

from mfs_desktop.errors import EnvironmentFault
from mfs_desktop.services.conversation.chat import TurnResult
from mfs_desktop.services.conversation.turn import TOOL_LIMIT
from mfs_desktop.store.generations import GenerationStore, answer_alternatives
from mfs_desktop.ui.i18n import error_text, tr
from mfs_desktop.ui.operations import run_operation


class GenerationMixin:
    def send_or_stop(self) -> None:
        if self.generating:
            self.worker_stop()
            return
        text = self.composer.toPlainText()
        if (not text.strip() and self.pending is None) or not self.model_ready:
            return
        if self.current_id is None:  # writing before any conversation exists starts one
            self.new_conversation(then=self.send_or_stop)
            return
        try:
            outgoing = self._outgoing(text)
        except EnvironmentFault as error:
            QMessageBox.warning(self, "MFS Desktop", error_text(error))
            return
        self._unsent = (text, self.pending)
        self.composer.clear()
        self.clear_pending()
        self._begin_generation()
        self.send_requested.emit(self.current_id, outgoing)

    def regenerate(self) -> None:
        if self.current_id is None or self.generating or not self.model_ready:
            return
        self._begin_generation()
        self.regenerate_requested.emit(self.current_id)

    def pick_alternative(self) -> None:
        if self.current_id is None or self.generating:
            return
        answers = answer_alternatives(self.session.database, self.current_id)
        if len(answers) < 2:
            self.statusBar().showMessage(tr("The last turn has one answer; Regenerate makes another."), 4000)
            return
        labels = [(tr("{number} (shown): {answer}") if shown else "{number}: {answer}").format(
            number=index + 1, answer=text[:100].replace(chr(10), " "))
            for index, (_, text, shown) in enumerate(answers)]
        current = next(index for index, (_, _, shown) in enumerate(answers) if shown) if any(
            shown for _, _, shown in answers) else 0
        chosen, ok = QInputDialog.getItem(
            self, tr("Answers to the last turn"), tr("Show which answer?"), labels, current, False
        )
        if ok:
            self.select_alternative(answers[labels.index(chosen)][0])

    def select_alternative(self, generation_id: str) -> None:
        conversation_id = self.current_id
        run_operation(lambda: GenerationStore(self.session.database).select_answer(conversation_id, generation_id),
                      lambda _: (self.show_transcript(), self.inspect_requested.emit(conversation_id)), self._failed)

    def worker_stop(self) -> None:
        self.worker.stop()

    def _begin_generation(self) -> None:
        self.generating = True
        self._live_answer, self._live_thinking = "", ""
        self._thought_began = self._thought_ended = 0.0
        self.send_button.setText(tr("Stop"))
        self.statusBar().showMessage(tr("Answering…"))
        QTimer.singleShot(50, self, self._show_sent)  # the stored user message appears at once

    def _show_sent(self) -> None:
        self.refresh_stream()
        self.show_live()

    def show_live(self) -> None:
        """The answer being written, and the thought before it with how long it has lasted."""
        if not self.generating:
            return
        seconds = 0.0
        if self._thought_began:
            seconds = (self._thought_ended or time.monotonic()) - self._thought_began
        self.view.set_live(self._live_answer, self._live_thinking, seconds)

    def _on_piece(self, piece: str) -> None:
        """Pieces are gathered and shown a few times a second: only the live row is laid out again."""
        if self._thought_began and not self._thought_ended:
            self._thought_ended = time.monotonic()
        self._live_answer += piece
        if not self._live_flush.isActive():
            self._live_flush.start()

    def _on_thought(self, piece: str) -> None:
        if not self._thought_began:
            self._thought_began = time.monotonic()
        self._live_thinking += piece
        if not self._live_flush.isActive():
            self._live_flush.start()

    def _end_generation(self) -> None:
        self.generating = False
        self._live_answer, self._live_thinking = "", ""
        self._live_flush.stop()
        self.view.set_live(None)
        self.send_button.setText(tr("Send"))
        QTimer.singleShot(0, self, self._maybe_restart_model)

    def _on_answer(self, result: TurnResult) -> None:
        self._end_generation()
        self._unsent = None
        self.refresh_conversations(select=result.conversation_id)
        usage = result.usage
        self.usage_label.setText(tr(
            "Last request {prompt:,} tokens · reused {reused:,} from the cache · prefill {prefill_ms:.0f} ms · "
            "{answer_tokens} tokens in {decode_ms:.0f} ms").format(
            prompt=usage.prompt_tokens, reused=usage.prompt_tokens_reused, prefill_ms=usage.prefill_ms,
            answer_tokens=usage.completion_tokens, decode_ms=usage.decode_ms))
        if result.messages_left_out:
            self.usage_label.setText(self.usage_label.text() + " · " + tr(
                "{count} oldest messages not sent (window full)").format(count=result.messages_left_out))
        note = tr("Stopped: the partial answer is kept.") if result.status == "partial" else tr("Answer stored.")
        if result.finish_reason == TOOL_LIMIT:
            note += " " + tr("The model kept calling tools past the limit; nothing more was run.")
        if usage.thinking_capped:
            note += " " + tr("The thinking reached its cap and was cut short (conversation settings: thinking cap).")
        self.statusBar().showMessage(note, 5000)
        self.refresh_side_tabs()
