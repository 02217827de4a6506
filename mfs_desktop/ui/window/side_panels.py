"""The side tabs, settings and the transfer actions of the window.

A mixin of `MainWindow` (ui/window/main_window.py), which owns the widgets it uses."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QMessageBox,
)

from mfs_desktop.errors import EnvironmentFault
from mfs_desktop.services.conversation.inspect import payload_series, segment_detail
from mfs_desktop.services.models.actions import model_choice_for
from mfs_desktop.services.models.endpoints import clear_endpoint, load_endpoint, save_endpoint
from mfs_desktop.services.preferences import save_preferences
from mfs_desktop.services.transfer.exports import export_text, import_json, read_import_file, turn_span, write_export
from mfs_desktop.services.transfer.foreign import (
    ForeignExport,
    import_foreign,
    is_foreign_export,
    read_export_document,
    read_foreign_export,
)
from mfs_desktop.store import ledger
from mfs_desktop.store.conversation_models import set_conversation_model
from mfs_desktop.store.trajectory import trajectory
from mfs_desktop.ui.dialogs.export import ExportDialog
from mfs_desktop.ui.i18n import tr
from mfs_desktop.ui.look import apply_look
from mfs_desktop.ui.operations import run_operation
from mfs_desktop.ui.settings.dialog import SettingsChoice, SettingsDialog
from mfs_desktop.ui.window.conversation_tab import ConversationTab


class PanelsMixin:
    def refresh_side_tabs(self) -> None:
        """Trajectory and ledger come straight from the store, read on the pool."""
        if self.current_id is None:
            return
        conversation_id = self.current_id
        database = self.session.database

        def read() -> tuple:
            calls = trajectory(database, conversation_id)
            results = {m.uid: m.text for m in self.session.transcript.messages(conversation_id, include_retracted=True)
                       if m.role == "tool"}
            return ([(call, results.get(call.result_uid, "")) for call in calls],
                    ledger.entries(database, conversation_id), payload_series(self.session, conversation_id))

        def show(data: tuple) -> None:
            if conversation_id != self.current_id:
                return
            calls, entries, series = data
            self.trajectory_tab.show_entries(calls)
            profile_warn = self.last_report.get("warn", 0.85)
            profile_hard = self.last_report.get("hard", 0.95)
            self.ledger_tab.show_ledger(entries, series, self.model_choice.window, profile_warn, profile_hard)

        run_operation(read, show, self._failed)

    def show_segment(self, uid_start: int) -> None:
        if self.current_id is None or uid_start is None:
            return
        conversation_id = self.current_id
        run_operation(lambda: segment_detail(self.session, conversation_id, uid_start), self.layers.show_segment,
                      self._failed)

    # settings ----------------------------------------------------------------------

    def open_settings(self, page: str = "") -> None:
        """`page`: a tab's English title (the tabs show it translated)."""
        dialog = SettingsDialog(self, self.session, self.preferences, self.current_id)
        for index in range(dialog.tabs.count()):
            if page and dialog.tabs.tabText(index) == tr(page):
                dialog.tabs.setCurrentIndex(index)
        accepted = dialog.exec() == SettingsDialog.DialogCode.Accepted
        if dialog.tools_page.changed:  # saved as they were made, whether or not Save was pressed
            self.tools_changed.emit()
        if accepted:
            self.apply_settings(dialog.choice())

    def apply_settings(self, choice: SettingsChoice) -> None:
        """Saved on the pool; a changed model or window reloads the worker once nothing is running."""
        conversation_id = self.current_id

        def save():
            saved = save_preferences(self.session.database, choice.preferences)
            for edit in choice.endpoints:
                if edit.url:
                    stored = load_endpoint(self.session.database, edit.role)
                    key = edit.api_key if edit.api_key is not None else (stored.api_key if stored else "")
                    save_endpoint(self.session, edit.role, edit.url, edit.model, key)
                elif load_endpoint(self.session.database, edit.role) is not None:
                    clear_endpoint(self.session, edit.role)
            if conversation_id is not None and choice.memory_mode is not None:
                self.session.transcript.set_memory_mode(conversation_id, choice.memory_mode)
            if conversation_id is not None and choice.conversation_model is not None:
                set_conversation_model(self.session.database, conversation_id, choice.conversation_model.model)
            return saved

        def saved(preferences) -> None:
            if preferences.model_choice() != self.preferences.model_choice():
                self.base_choice = preferences.model_choice()
            if (preferences.theme, preferences.font_size) != (self.preferences.theme, self.preferences.font_size):
                apply_look(QApplication.instance(), preferences.theme, preferences.font_size)
                self.view.rows_delegate.forget_layouts()
                self.refresh_stream()
            self.preferences = preferences
            self.composer.set_send_key(preferences.send_key)
            self.statusBar().showMessage(tr("Settings saved."), 4000)
            if not self.follow_conversation_model() and conversation_id is not None:
                self._sync_memory_menu()
                self.inspect_requested.emit(conversation_id)

        run_operation(save, saved, self._failed)

    def _selection_changed(self) -> None:
        """What follows the open conversation: the search scope, its settings tab, and the
        warm-up of the one left (stopped: its prefill would only delay this one's)."""
        self.search_panel.conversation_id = self.current_id
        self.conversation_tab.load(self.current_id)
        if getattr(self, "worker", None) is not None:
            self.worker.cancel_warm_up()

    def _warming(self, conversation_id: str) -> None:
        if conversation_id == self.current_id and not self.generating:
            self.usage_label.setText(tr("Model: {name} · preparing context…").format(name=self.model_name))

    def _warmed(self, conversation_id: str, warmed) -> None:
        if conversation_id == self.current_id and not self.generating:
            self.usage_label.setText(tr("Model: {name} · context ready").format(name=self.model_name))

    def _build_conversation_tab(self) -> None:
        self.conversation_tab = ConversationTab(self.session)
        self.conversation_tab.saved.connect(self._conversation_settings_saved)
        self.tabs.addTab(self.conversation_tab, tr("Conversation"))

    def _conversation_settings_saved(self, _prompt_changed: bool) -> None:
        """The stream shows the notice of a changed prompt; the meter counts the new one."""
        if self.current_id is not None:
            self.refresh_stream()
            self.inspect_requested.emit(self.current_id)

    def follow_conversation_model(self) -> bool:
        """A conversation with a model of its own runs on it, the others on the default; True
        when that means loading another model."""
        wanted = model_choice_for(self.session.database, self.base_choice, self.current_id)
        if wanted == (self._next_model or self.model_choice):
            return False
        self._next_model = wanted
        self._maybe_restart_model()
        return True

    # export / import ---------------------------------------------------------------

    def export_current(self) -> None:
        if self.current_id is None:
            return
        conversation = self.session.transcript.conversation(self.current_id)
        turns = max((m.turn_ordinal for m in self.session.transcript.newest_page(self.current_id, limit=1)), default=1)
        dialog = ExportDialog(self, conversation.title or "conversation", turns)
        if dialog.exec() != ExportDialog.DialogCode.Accepted:
            return
        self.export_to(*dialog.choice())

    def export_to(self, fmt: str, path: str, span: tuple[int, int] | None) -> None:
        conversation_id = self.current_id
        database = self.session.database

        def write() -> str:
            uids = turn_span(database, conversation_id, *span) if span else None
            text = (
                export_text(database, conversation_id, fmt, uids)
                if uids
                else export_text(database, conversation_id, fmt)
            )
            write_export(Path(path), text)
            return path

        run_operation(write, lambda written: self.statusBar().showMessage(
            tr("Exported to {path} (plaintext).").format(path=written), 6000), self._failed)

    def import_export(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("Import conversations"), "",
                                              tr("MFS Desktop, ChatGPT or Claude exports (*.json *.zip);;"
                                                 "All files (*)"))
        if path:
            self.import_from(Path(path))

    def import_from(self, path: Path) -> None:
        """An MFS Desktop export goes straight in; another app's is read, shown, then confirmed."""
        try:
            foreign = is_foreign_export(path)
        except EnvironmentFault as fault:
            self._failed(fault)
            return
        if not foreign:
            run_operation(lambda: import_json(self.session.database, read_import_file(path)),
                          lambda conversation_id: self.refresh_conversations(select=conversation_id), self._failed)
            return
        run_operation(lambda: read_foreign_export(read_export_document(path)), self._confirm_import, self._failed)

    def _confirm_import(self, export: ForeignExport) -> None:
        answer = QMessageBox.question(self, tr("Import conversations"),
                                      tr("{preview}.\n\nImport them?").format(preview=export.preview(tr)))
        if answer != QMessageBox.StandardButton.Yes:
            return
        run_operation(lambda: import_foreign(self.session.database, export), self._imported, self._failed)

    def _imported(self, result: tuple[list[str], int]) -> None:
        created, already = result
        self.refresh_conversations(select=created[0] if created else None)
        self.statusBar().showMessage(
            (tr("Imported {count:,} conversations; {already:,} were here already") if already
             else tr("Imported {count:,} conversations")).format(count=len(created), already=already), 8000)
