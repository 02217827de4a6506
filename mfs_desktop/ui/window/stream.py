"""The transcript on screen: the newest page, what is new after an answer, older pages on
demand, with the ledger's notices between the rows.

A mixin of `MainWindow` (ui/window/main_window.py), which owns the widgets it uses."""

from __future__ import annotations

from mfs_desktop.services.conversation.notices import Notice, notice_for
from mfs_desktop.services.display import shown_line
from mfs_desktop.store import ledger
from mfs_desktop.store.models import Conversation
from mfs_desktop.ui.i18n import tr
from mfs_desktop.ui.window.rows import RowMarks, row_marks, stream_rows

PAGE = 50


class StreamMixin:
    def show_transcript(self) -> None:
        """The newest page (and the answer being written); older pages come with `load_older`."""
        if self.current_id is None:
            self.heading.setText(tr("No conversation yet — start one with Ctrl+N or just write below"))
            self.view.show_rows([])
            return
        conversation = self.session.transcript.conversation(self.current_id)
        self._show_heading(conversation)
        self._shown_epoch = conversation.epoch
        messages = self.session.transcript.newest_page(self.current_id, limit=PAGE)
        self._oldest_uid = messages[0].uid if messages else None
        self._oldest_time = messages[0].created_at if messages else 0.0
        self.view.show_rows(stream_rows(messages, self._notices(self._oldest_time, float("inf")), self._marks()))
        self.show_live()

    def refresh_stream(self) -> None:
        """After an answer or a compaction: only what is new goes below the rows on screen. If
        the shown rows are no longer the start of the current view (an edit, a regenerated or
        re-selected answer), the page is read again."""
        last_uid = self.view.stream.last_uid()
        if self.current_id is None or last_uid is None:
            self.show_transcript()
            return
        conversation = self.session.transcript.conversation(self.current_id)
        newest_shown = self.session.transcript.newest_page(self.current_id, limit=1, before_uid=last_uid + 1)
        if conversation.epoch != self._shown_epoch or not newest_shown or newest_shown[0].uid != last_uid:
            self.show_transcript()
            return
        shown = {row.key for row in self.view.stream.rows}
        rows = stream_rows(self.session.transcript.messages(self.current_id, uid_from=last_uid + 1),
                           self._notices(self._oldest_time, float("inf")), self._marks())
        self.view.append_rows([row for row in rows if row.key not in shown])
        self._show_heading(conversation)

    def _show_heading(self, conversation: Conversation) -> None:
        title = shown_line(conversation.title or tr("New conversation"))
        self.heading.setText(tr("{title}   ·   epoch {epoch}").format(title=title, epoch=conversation.epoch))

    def _marks(self) -> RowMarks:
        return row_marks(self.session.database, self.current_id)

    def _notices(self, since: float, before: float) -> list[Notice]:
        return [n for n in (notice_for(e) for e in ledger.entries(self.session.database, self.current_id))
                if n is not None and since <= n.created_at < before]

    def load_older(self) -> None:
        """Lazily, when the reader reaches the top: the previous page goes above, nothing else moves."""
        if self.current_id is None or self._oldest_uid is None:
            return
        page = self.session.transcript.newest_page(self.current_id, limit=PAGE, before_uid=self._oldest_uid)
        if not page:
            return
        rows = stream_rows(page, self._notices(page[0].created_at, self._oldest_time), self._marks())
        self._oldest_uid, self._oldest_time = page[0].uid, page[0].created_at
        self.view.prepend_rows(rows)
