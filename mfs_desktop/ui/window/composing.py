"""What is about to be sent: quotes, documents, long pastes, links in the stream, pins and edits.

A mixin of `MainWindow` (ui/window/main_window.py), which owns the widgets it uses."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFileDialog,
    QInputDialog,
    QMessageBox,
)

from mfs_desktop.errors import EnvironmentFault
from mfs_desktop.services.conversation import composer
from mfs_desktop.services.conversation.composer import Outgoing
from mfs_desktop.services.conversation.documents import read_limit
from mfs_desktop.services.conversation.pins import PinChange, change_pin
from mfs_desktop.ui.i18n import error_text, tr
from mfs_desktop.ui.operations import run_operation
from mfs_desktop.ui.window.code_blocks import fenced_code


class ComposingMixin:
    def _set_pending(self, outgoing: Outgoing, label: str) -> None:
        self.pending = outgoing
        self.pending_label.setText(label)
        self.pending_label.show()
        self.pending_clear.show()

    def clear_pending(self) -> None:
        self.pending = None
        self.pending_label.hide()
        self.pending_clear.hide()

    def quote_message(self, uid: int) -> None:
        if self.current_id is None:
            return
        try:
            outgoing = composer.quoting(self.session.transcript, self.current_id, uid)
        except EnvironmentFault as error:
            QMessageBox.warning(self, "MFS Desktop", error_text(error))
            return
        first = outgoing.text.splitlines()[0][2:82]
        self._set_pending(outgoing, tr("Quoting the assistant (#{uid}): “{excerpt}…” — add your note below, or "
                                       "send as is.").format(uid=uid, excerpt=first))
        self.composer.setFocus()

    def pick_quote(self) -> None:
        if self.current_id is None:
            return
        answers = [m for m in self.session.transcript.newest_page(self.current_id, limit=200) if m.role == "assistant"]
        if not answers:
            self.statusBar().showMessage(tr("There is no assistant message to quote yet."), 4000)
            return
        labels = [f"#{m.uid}: {m.text[:90].replace(chr(10), ' ')}" for m in reversed(answers)]
        chosen, ok = QInputDialog.getItem(self, tr("Quote a message"), tr("Which answer?"), labels, 0, False)
        if ok:
            self.quote_message(int(chosen.split(":")[0].removeprefix("#")))

    def pick_document(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("Attach a document"), "",
                                              tr("Documents (*.txt *.md *.pdf *.docx *.csv *.json *.log)") + ";;" +
                                              tr("All files (*)"))
        if path:
            self.attach_file(path)

    def attach_file(self, path: str) -> None:
        def read_and_snapshot() -> Outgoing:
            with open(path, "rb") as handle:
                head = handle.read(8)
                data = head + handle.read(read_limit(head) + 1 - len(head))
            return composer.attach_document(self.session.database, data, Path(path).name)

        run_operation(read_and_snapshot, lambda outgoing: self._set_pending(
            outgoing, tr("Document: {file} ({characters:,} characters) — it is sent with your message.").format(
                file=Path(path).name, characters=len(outgoing.text))), self._failed)

    def _on_long_paste(self, text: str) -> None:
        if self.ask_paste_as_document(len(text)):
            run_operation(lambda: composer.paste_as_document(self.session.database, text),
                          lambda outgoing: self._set_pending(
                              outgoing, tr("Pasted text as a document ({characters:,} characters).").format(
                                  characters=len(text))), self._failed)
        else:
            self.composer.insertPlainText(text)

    def ask_paste_as_document(self, characters: int) -> bool:
        answer = QMessageBox.question(
            self, tr("Long paste"), tr("Paste these {characters:,} characters as a document? A document is kept as a "
                                       "snapshot and stays out of the quotes of your own words when history is "
                                       "compacted.").format(characters=characters))
        return answer == QMessageBox.StandardButton.Yes

    def _outgoing(self, text: str) -> Outgoing:
        pending = self.pending
        if pending is None:
            return composer.own_words(text)
        if pending.origin == "document":
            return Outgoing(f"{text.strip()}\n\n{pending.text}" if text.strip() else pending.text, "document",
                            attachment_sha256=pending.attachment_sha256)
        return composer.quoting(self.session.transcript, self.current_id, pending.quoted_uid, text)

    # links in the stream ------------------------------------------------------------

    def _on_link(self, url: QUrl) -> None:
        action, _, uid_text = url.toString().partition(":")
        if action == "copycode":
            self.copy_code(*uid_text.partition(":")[::2])
            return
        if action == "think":  # the thought above an answer opens and closes in place
            self.view.toggle_thought(uid_text)
            return
        if not uid_text.isdigit() or self.current_id is None:
            return
        uid = int(uid_text)
        message = self.session.transcript.messages(self.current_id, uid_from=uid, uid_to=uid)
        if not message:
            return
        if action == "copy":
            QGuiApplication.clipboard().setText(message[0].text)
            self.statusBar().showMessage(tr("Copied."), 2000)
        elif action == "quote":
            self.quote_message(uid)
        elif action == "edit":
            self.edit_message(uid, message[0].text)
        elif action in ("pin", "unpin"):
            self.set_pinned(uid, action == "pin")

    def copy_code(self, uid_text: str, index_text: str) -> None:
        """The code of one fenced block of an answer, as stored (not as rendered)."""
        if self.current_id is None or not (uid_text.isdigit() and index_text.isdigit()):
            return
        message = self.session.transcript.messages(self.current_id, uid_from=int(uid_text), uid_to=int(uid_text))
        blocks = fenced_code(message[0].text) if message else []
        if int(index_text) < len(blocks):
            QGuiApplication.clipboard().setText(blocks[int(index_text)])
            self.statusBar().showMessage(tr("Code copied."), 2000)

    def set_pinned(self, uid: int, pinned: bool) -> None:
        """Pin or unpin one of the user's messages: an event, noted in the stream and the ledger."""
        if self.current_id is None:
            return
        conversation_id, window = self.current_id, self.model_choice.window

        def changed(change: PinChange) -> None:
            # The note is the pins service's own sentence, shown as it comes.
            said = (tr("Message #{uid} pinned: the next reply re-reads the context.") if change.pinned else
                    tr("Message #{uid} unpinned: the next reply re-reads the context."))
            self.statusBar().showMessage(said.format(uid=change.uid), 5000)
            if conversation_id == self.current_id:
                self.show_transcript()
                self.refresh_side_tabs()
                self.inspect_requested.emit(conversation_id)

        run_operation(lambda: change_pin(self.session, conversation_id, uid, pinned, window), changed, self._failed)

    def edit_message(self, uid: int, text: str) -> None:
        if self.generating or not self.model_ready:
            return
        new_text, ok = QInputDialog.getMultiLineText(
            self, tr("Edit and send again"), tr("The conversation goes back to this message; the later turns stay "
                                                "stored (and exportable) but leave the view."), text)
        if ok and new_text.strip() and new_text != text:
            self._begin_generation()
            self.edit_requested.emit(self.current_id, uid, new_text)

    # messages ----------------------------------------------------------------------
