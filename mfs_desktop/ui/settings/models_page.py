"""Settings › Models: every GGUF found on this machine, the catalogue, downloads with progress.

Listing and downloading run on the operation pool; progress comes back through a queued
signal. Closing Settings cancels a running download and keeps its `.part` file, so the next
download of the same file resumes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mfs_desktop.errors import EnvironmentFault
from mfs_desktop.runtime.download import Cancelled, Downloaded, Progress
from mfs_desktop.services.display import shown_line
from mfs_desktop.services.models.actions import (
    Fit,
    available_memory,
    download_model,
    fit_to_machine,
    remove_model,
    save_hub_token,
)
from mfs_desktop.services.models.catalogue import CATALOGUE, CatalogueEntry
from mfs_desktop.services.models.library import LibraryModel, list_models, set_user_folders, user_folders
from mfs_desktop.services.models.templates import (
    FAMILIES,
    OWN,
    check_model_template,
    set_template_family,
    template_family,
)
from mfs_desktop.services.session import Session
from mfs_desktop.services.units import byte_size, duration
from mfs_desktop.ui.i18n import QT_TRANSLATE_NOOP, error_text, tr
from mfs_desktop.ui.operations import run_operation

# Labels marked for translation and translated where shown; the other sources are product names.
SOURCE_LABELS = {"bundled": QT_TRANSLATE_NOOP("", "bundled"), "downloaded": QT_TRANSLATE_NOOP("", "downloaded here"),
                 "lmstudio": "LM Studio", "gpt4all": "GPT4All", "jan": "Jan",
                 "huggingface": QT_TRANSLATE_NOOP("", "Hugging Face cache"), "ollama": "Ollama",
                 "folder": QT_TRANSLATE_NOOP("", "your folder")}
MODEL_COLUMNS = [QT_TRANSLATE_NOOP("", "Model"), QT_TRANSLATE_NOOP("", "Source"), QT_TRANSLATE_NOOP("", "Size"),
                 QT_TRANSLATE_NOOP("", "Quantization"), QT_TRANSLATE_NOOP("", "Context"),
                 QT_TRANSLATE_NOOP("", "On this machine")]
CATALOGUE_COLUMNS = [QT_TRANSLATE_NOOP("", "Model"), QT_TRANSLATE_NOOP("", "Size"), "中文",
                     QT_TRANSLATE_NOOP("", "Thinks"), QT_TRANSLATE_NOOP("", "Tools"),
                     QT_TRANSLATE_NOOP("", "On this machine"), QT_TRANSLATE_NOOP("", "Note")]


class _ProgressRelay(QObject):
    progressed = Signal(object)


def _item(text: str, data: object = None) -> QTableWidgetItem:
    item = QTableWidgetItem(shown_line(text))
    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    if data is not None:
        item.setData(Qt.ItemDataRole.UserRole, data)
    return item


def fit_text(fit: Fit) -> str:
    if fit.fits:
        return tr("fits · window {window:,} · ~{estimate}").format(window=fit.window, estimate=byte_size(fit.estimate))
    return tr("too big · ~{estimate} of {free} free").format(estimate=byte_size(fit.estimate),
                                                              free=byte_size(fit.budget))


class ModelsPage(QWidget):
    """`on_use(path, window, here)` takes a choice: the default model (`here` False) or the
    open conversation's own; an empty path is the bundled model, None follows the default."""

    def __init__(self, session: Session, on_use: Callable[[str | None, int, bool], None],
                 conversation_id: str | None = None) -> None:
        super().__init__()
        self.session = session
        self.on_use = on_use
        self.conversation_id = conversation_id
        self.models: list[tuple[LibraryModel, Fit | None]] = []
        self._cancel = threading.Event()
        self._downloading = False
        self._relay = _ProgressRelay()
        self._relay.progressed.connect(self._show_progress, Qt.ConnectionType.QueuedConnection)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(tr("Models found on this computer:")))
        self.table = self._table(MODEL_COLUMNS)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        layout.addWidget(self.table, 2)
        layout.addLayout(self._model_buttons())
        layout.addWidget(QLabel(tr("Download a well-known model (from the Hugging Face Hub):")))
        self.catalogue = self._table(CATALOGUE_COLUMNS)
        layout.addWidget(self.catalogue, 1)
        layout.addLayout(self._download_row())
        self.progress = QProgressBar()
        self.progress.hide()
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        self._fill_catalogue()
        self.reload()

    def _table(self, columns: list[str]) -> QTableWidget:
        table = QTableWidget(0, len(columns))
        table.setHorizontalHeaderLabels([tr(column) for column in columns])
        table.horizontalHeader().setStretchLastSection(True)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # repo/…/file.gguf keeps both ends
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.verticalHeader().hide()
        return table

    def _model_buttons(self) -> QHBoxLayout:
        self.use_button, self.remove_button = QPushButton(tr("Use as default")), QPushButton(tr("Remove…"))
        self.use_here_button, self.follow_button = QPushButton(tr("Use in this conversation")), QPushButton(
            tr("This conversation: follow the default"))
        add_folder, refresh = QPushButton(tr("Add folder…")), QPushButton(tr("Refresh"))
        self.template = QComboBox()
        self.template.setToolTip(tr("The chat template the model runs with: its own, or a known family's in place "
                                    "of one that cannot be used"))
        self.template.addItem(tr("Its own template"), OWN)
        for family in FAMILIES:
            self.template.addItem(family, family)
        self.use_button.clicked.connect(self.use_selected)
        self.use_here_button.clicked.connect(lambda: self.use_selected(here=True))
        self.follow_button.clicked.connect(self.follow_default)
        self.remove_button.clicked.connect(self.remove_selected)
        add_folder.clicked.connect(self._add_folder)
        refresh.clicked.connect(self.reload)
        row = QHBoxLayout()
        for button in (self.template, self.use_button, self.use_here_button, self.follow_button, self.remove_button,
                       add_folder, refresh):
            row.addWidget(button)
        row.addStretch(1)
        self._update_buttons()
        return row

    def _download_row(self) -> QHBoxLayout:
        self.source = QLineEdit()
        self.source.setPlaceholderText(tr("or: owner/repo file.gguf, or https://…/file.gguf"))
        self.download_button, self.cancel_button = QPushButton(tr("Download")), QPushButton(tr("Cancel"))
        token = QPushButton(tr("Hub token…"))
        token.setToolTip(tr("A Hugging Face access token, for gated models; kept where the database key is"))
        self.download_button.clicked.connect(self.download_chosen)
        self.cancel_button.clicked.connect(self.cancel_download)
        token.clicked.connect(self._ask_token)
        self.cancel_button.setEnabled(False)
        row = QHBoxLayout()
        row.addWidget(self.source, 1)
        for button in (self.download_button, self.cancel_button, token):
            row.addWidget(button)
        return row

    def _ask_token(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        token, ok = QInputDialog.getText(self, tr("Hugging Face token"), tr("Token (empty removes the saved one):"),
                                         QLineEdit.EchoMode.Password)
        if ok:
            self.save_token(token.strip())

    def save_token(self, token: str) -> None:
        session = self.session
        run_operation(lambda: save_hub_token(session, token), lambda where: self.status.setText(
            tr("Token saved in the keychain.") if where == "keychain" else
            tr("Token saved in the database.") if where else tr("Token removed.")), self._show_error, owner=self)

    # the list ---------------------------------------------------------------------------

    def reload(self) -> None:
        database, data_dir = self.session.database, self.session.data_dir

        def read() -> list[tuple[LibraryModel, Fit | None]]:
            free = available_memory()  # one reading for the whole list
            return [(model, fit_to_machine(model.info, free) if model.info.usable else None)
                    for model in list_models(database, data_dir)]

        run_operation(read, self._show_models, self._show_error, owner=self)

    def _show_models(self, models: list[tuple[LibraryModel, Fit | None]]) -> None:
        self.models = models
        self.table.setRowCount(len(models))
        for row, (model, fit) in enumerate(models):
            info = model.info
            source = tr(SOURCE_LABELS[model.source]) if model.source in SOURCE_LABELS else model.source
            cells = (model.label, source, byte_size(info.size), info.quantization,
                     f"{info.context_length:,}" if info.context_length else "",
                     fit_text(fit) if fit else tr("cannot be used: {problem}").format(problem=info.problem))
            for column, text in enumerate(cells):
                item = _item(text, row)
                item.setToolTip(f"{info.path}\n{info.problem}" if info.problem else info.path)
                self.table.setItem(row, column, item)
        self._fit_columns(self.table)
        self._update_buttons()

    @staticmethod
    def _fit_columns(table: QTableWidget) -> None:
        """Every column as wide as its text, but the name never more than a third of the table."""
        table.resizeColumnsToContents()
        table.setColumnWidth(0, min(table.columnWidth(0), max(240, table.viewport().width() // 3)))

    def _selected(self) -> tuple[LibraryModel, Fit | None] | None:
        rows = self.table.selectionModel().selectedRows()
        return self.models[rows[0].row()] if rows and rows[0].row() < len(self.models) else None

    def _update_buttons(self) -> None:
        chosen = self._selected()
        usable = chosen is not None and chosen[1] is not None
        self.use_button.setEnabled(usable)
        self.use_here_button.setEnabled(usable and self.conversation_id is not None)
        self.follow_button.setEnabled(self.conversation_id is not None)
        self.remove_button.setEnabled(chosen is not None and chosen[0].downloaded)
        if chosen is not None:
            family = template_family(self.session.database, chosen[0].info.path)
            self.template.setCurrentIndex(max(0, self.template.findData(family)))

    def select_path(self, path: str) -> None:
        for row, (model, _fit) in enumerate(self.models):
            if model.info.path == path:
                self.table.selectRow(row)

    def use_selected(self, here: bool = False) -> None:
        chosen = self._selected()
        if chosen is None or chosen[1] is None or (here and self.conversation_id is None):
            return
        model, fit = chosen
        family = self.template.currentData()
        try:  # the trial is a child process of a fraction of a second, bounded at a few seconds
            check_model_template(model.info.path, family)
        except EnvironmentFault as fault:
            self._show_error(fault)
            suggested = fault.values.get("families", OWN)  # one family when the template's tokens name it
            self.template.setCurrentIndex(max(0, self.template.findData(suggested)))
            return
        set_template_family(self.session.database, model.info.path, family)
        self.on_use("" if model.source == "bundled" else model.info.path, fit.window, here)
        chosen_text = (tr("{model} at a window of {window:,} tokens is chosen for this conversation; Save loads it.")
                       if here else tr("{model} at a window of {window:,} tokens is chosen as the default; Save loads "
                                       "it."))
        self.status.setText(chosen_text.format(model=model.label, window=fit.window))

    def follow_default(self) -> None:
        if self.conversation_id is not None:
            self.on_use(None, 0, True)
            self.status.setText(tr("This conversation will follow the default model; Save loads it."))

    def remove_selected(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        chosen = self._selected()
        if chosen is None or not chosen[0].downloaded:
            return
        path = Path(chosen[0].info.path)
        question = tr("Delete {file} ({size}) from this computer?").format(file=path.name,
                                                                             size=byte_size(chosen[0].info.size))
        if QMessageBox.question(self, tr("Remove model"), question) != QMessageBox.StandardButton.Yes:
            return
        run_operation(lambda: remove_model(self.session, path), lambda _: self.reload(), self._show_error, owner=self)

    def _add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, tr("A folder with GGUF models"))
        if folder:
            self.add_folder(Path(folder))

    def add_folder(self, folder: Path) -> None:
        database = self.session.database
        run_operation(lambda: set_user_folders(database, [*user_folders(database), folder]),
                      lambda _: self.reload(), self._show_error, owner=self)

    # catalogue and downloads ------------------------------------------------------------------

    def _fill_catalogue(self) -> None:
        self.catalogue.setRowCount(len(CATALOGUE))
        free = available_memory()
        for row, entry in enumerate(CATALOGUE):
            fit = fit_to_machine(entry.as_info(), free)
            marks = ("✓" if mark else "" for mark in (entry.chinese, entry.thinks, entry.tools))
            cells = (entry.title, byte_size(entry.size), *marks, fit_text(fit), tr(entry.note))
            for column, text in enumerate(cells):
                self.catalogue.setItem(row, column, _item(text, entry.key))
        self._fit_columns(self.catalogue)

    def _chosen_download(self) -> tuple[str, str | None] | None:
        typed = self.source.text().split()
        if typed:
            return typed[0], typed[1] if len(typed) > 1 else None
        rows = self.catalogue.selectionModel().selectedRows()
        if not rows:
            return None
        entry: CatalogueEntry = CATALOGUE[rows[0].row()]
        return entry.repo, entry.file

    def download_chosen(self) -> None:
        chosen = self._chosen_download()
        if chosen is None:
            self.status.setText(tr("Choose a model in the list, or type a repository and file, or a URL."))
            return
        if self._downloading:
            return
        what, file = chosen
        self._cancel.clear()
        self._downloading = True
        self.download_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setRange(0, 0)
        self.progress.show()
        self.status.setText(tr("Downloading {file}…").format(file=file or what))
        session, relay, cancel = self.session, self._relay, self._cancel
        run_operation(lambda: download_model(session, what, file, on_progress=relay.progressed.emit,
                                             cancelled=cancel.is_set),
                      self._downloaded, self._download_failed, owner=self)

    def cancel_download(self) -> None:
        self._cancel.set()

    def _show_progress(self, progress: Progress) -> None:
        if progress.total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * progress.done / progress.total))
        # An estimate needs a total; one template for each case keeps a translation's word order.
        template = (tr("{done} at {speed}/s") if not progress.total else tr("{done} of {total} at {speed}/s")
                    if progress.eta is None else tr("{done} of {total} at {speed}/s, {remaining} left"))
        self.status.setText(template.format(
            done=byte_size(progress.done), total=byte_size(progress.total) if progress.total else "",
            speed=byte_size(int(progress.speed)), remaining=duration(progress.eta) if progress.eta is not None else ""))

    def _end_download(self) -> None:
        self._downloading = False
        self.download_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.hide()

    def _downloaded(self, result: Downloaded) -> None:
        self._end_download()
        done = (tr("Downloaded {file} ({size}, SHA-256 verified). Select it and press Use.") if result.verified
                else tr("Downloaded {file} ({size}, no published SHA-256). Select it and press Use."))
        self.status.setText(done.format(file=result.path.name, size=byte_size(result.size)))
        self.reload()

    def _download_failed(self, error: BaseException) -> None:
        self._end_download()
        if isinstance(error, Cancelled):
            self.status.setText(tr("Download cancelled; what arrived is kept, and the next download of this file "
                                   "resumes from there."))
            return
        self._show_error(error)

    def _show_error(self, error: BaseException) -> None:
        self.status.setText(error_text(error))

    def stop_download(self, wait: float = 5.0) -> None:
        """Cancel and wait (events still flowing) until the download has let go of its file."""
        import time

        from PySide6.QtWidgets import QApplication

        self._cancel.set()
        deadline = time.monotonic() + wait
        while self._downloading and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.01)
