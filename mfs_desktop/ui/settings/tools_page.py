"""Settings › Tools: the MCP servers whose tools the model may call — add, edit, remove, switch
on and off, import an mcp.json, and test one (start it, list its tools). Changes are saved at
once, on the operation pool; the chat picks them up when the dialog closes (`changed`)."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.mcp_client import McpServer
from mfs_desktop.services.display import shown_line
from mfs_desktop.services.mcp.servers import (
    ask_tools,
    known_tools,
    named_values,
    parse_mcp_json,
    remove_server,
    save_server,
    servers,
    set_enabled,
)
from mfs_desktop.services.session import Session
from mfs_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from mfs_desktop.ui.operations import run_operation

COLUMNS = [QT_TRANSLATE_NOOP("", "On"), QT_TRANSLATE_NOOP("", "Server"), QT_TRANSLATE_NOOP("", "Command or URL"),
           QT_TRANSLATE_NOOP("", "Tools")]


class ServerDialog(QDialog):
    """One server: a command (with its folder and environment) or a URL (with headers)."""

    def __init__(self, parent: QWidget | None, server: McpServer | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("MCP server"))
        self.name = QLineEdit(server.name if server else "")
        self.name.setReadOnly(server is not None)
        self.command = QLineEdit(shlex.join([server.command, *server.args]) if server and server.command else "")
        self.command.setPlaceholderText("uvx mcp-server-time --local-timezone Europe/Berlin")
        self.cwd = QLineEdit(server.cwd if server else "")
        self.env = QPlainTextEdit("\n".join(f"{k}={v}" for k, v in server.env) if server else "")
        self.url = QLineEdit(server.url if server else "")
        self.url.setPlaceholderText("http://127.0.0.1:3001/mcp")
        self.headers = QPlainTextEdit("\n".join(f"{k}: {v}" for k, v in server.headers) if server else "")
        self.headers.setPlaceholderText("Authorization: Bearer …")
        for box in (self.env, self.headers):
            box.setMaximumHeight(70)
        form = QFormLayout()
        form.addRow(tr("Name"), self.name)
        form.addRow(tr("Command"), self.command)
        form.addRow(tr("Working folder"), self.cwd)
        form.addRow(tr("Environment (NAME=VALUE)"), self.env)
        form.addRow(tr("or URL (streamable HTTP)"), self.url)
        form.addRow(tr("Headers (kept encrypted)"), self.headers)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.enabled = server.enabled if server else True

    def server(self) -> McpServer:
        """What was written, as a server; InvalidInput for a command line that does not parse."""
        try:
            words = shlex.split(self.command.text())
        except ValueError as error:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The command does not parse ({reason})."),
                                      reason=str(error)) from None
        env = named_values(self.env.toPlainText().splitlines(), "=")
        headers = named_values(self.headers.toPlainText().splitlines(), ":")
        return McpServer(self.name.text().strip(), words[0] if words else "", tuple(words[1:]), env,
                         self.cwd.text().strip(), self.url.text().strip(), headers, self.enabled)


class ToolsPage(QWidget):
    def __init__(self, session: Session, on_error: Callable[[BaseException], None]) -> None:
        super().__init__()
        self.session = session
        self.on_error = on_error
        self.changed = False
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels([tr(title) for title in COLUMNS])
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.horizontalHeader().setSectionResizeMode(2, self.table.horizontalHeader().ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._show_tools)
        self.table.itemChanged.connect(self._switched)
        self.tools = QListWidget()
        self.status = QLabel()
        self.status.setWordWrap(True)
        buttons = QHBoxLayout()
        for label, slot in ((tr("Add…"), self.add), (tr("Edit…"), self.edit), (tr("Remove"), self.remove),
                            (tr("Test"), self.test), (tr("Import mcp.json…"), self._import)):
            button = QPushButton(label)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        note = QLabel(tr("Tools from MCP servers (Model Context Protocol). The window asks before every call — "
                         "allow once, always for that tool, or deny. A server starts at its first call."))
        note.setWordWrap(True)
        layout.addWidget(note)
        layout.addWidget(self.table, 2)
        layout.addLayout(buttons)
        layout.addWidget(QLabel(tr("Tools the selected server offers:")))
        layout.addWidget(self.tools, 1)
        layout.addWidget(self.status)
        self.reload()

    def reload(self) -> None:
        self._servers = servers(self.session.database)
        self._tools = known_tools(self.session.database)
        self.table.blockSignals(True)
        self.table.setRowCount(len(self._servers))
        for row, server in enumerate(self._servers):
            switch = QTableWidgetItem()
            switch.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            switch.setCheckState(Qt.CheckState.Checked if server.enabled else Qt.CheckState.Unchecked)
            where = shlex.join([server.command, *server.args]) if server.command else server.url
            cells = [switch, QTableWidgetItem(shown_line(server.name)), QTableWidgetItem(shown_line(where)),
                     QTableWidgetItem(str(len(self._tools.get(server.name, []))))]
            for column, item in enumerate(cells):
                self.table.setItem(row, column, item)
        self.table.blockSignals(False)
        self.table.resizeColumnToContents(1)
        if self._servers and not self.table.selectedItems():
            self.table.selectRow(0)
        self._show_tools()

    def selected(self) -> McpServer | None:
        rows = self.table.selectionModel().selectedRows()
        return self._servers[rows[0].row()] if rows else None

    def _show_tools(self) -> None:
        self.tools.clear()
        server = self.selected()
        if server is None:
            self.tools.addItem(tr("Add a server to see its tools here."))
            return
        tools = self._tools.get(server.name, [])
        if not tools:
            self.tools.addItem(tr("Not asked yet: press Test."))
        for tool in tools:
            self.tools.addItem(shown_line(f"{tool.name} — {' '.join(tool.description.split())[:160]}"))

    def _saved(self, note: str) -> None:
        self.changed = True
        self.reload()
        self.status.setText(note)

    def _switched(self, item: QTableWidgetItem) -> None:
        if item.column() != 0:
            return
        name, on = self._servers[item.row()].name, item.checkState() == Qt.CheckState.Checked
        run_operation(lambda: set_enabled(self.session.database, name, on),
                      lambda _: self._saved(tr("{name} is on.").format(name=name) if on else
                                            tr("{name} is off.").format(name=name)), self.on_error, owner=self)

    def add(self) -> None:
        self._edit(None)

    def edit(self) -> None:
        if self.selected() is not None:
            self._edit(self.selected())

    def _edit(self, server: McpServer | None) -> None:
        dialog = ServerDialog(self, server)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        try:
            edited = dialog.server()
        except InvalidInput as error:
            self.on_error(error)
            return
        run_operation(lambda: save_server(self.session, edited),
                      lambda _: (self._saved(tr("Saved {name}.").format(name=edited.name)), self.test(edited.name)),
                      self.on_error, owner=self)

    def remove(self) -> None:
        server = self.selected()
        if server is not None:
            run_operation(lambda: remove_server(self.session.database, server.name),
                          lambda _: self._saved(tr("Removed {name}.").format(name=server.name)), self.on_error,
                          owner=self)

    def test(self, name: str | None = None) -> None:
        """Start the server and list its tools, off the window's thread."""
        name = name or (self.selected().name if self.selected() else None)
        if not name:
            return
        self.status.setText(tr("Starting {name}…").format(name=name))
        run_operation(lambda: ask_tools(self.session.database, name),
                      lambda tools: self._saved(tr("{name} offers {count} tools.").format(name=name,
                                                                                         count=len(tools))),
                      lambda error: (self.status.setText(tr("{name} did not answer: {reason}").format(
                          name=name, reason=error)), self.reload()), owner=self)

    def _import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("Import MCP servers"), str(Path.home()), "JSON (*.json)")
        if path:
            self.import_file(Path(path))

    def import_file(self, path: Path) -> None:
        def work() -> list[str]:
            imported = parse_mcp_json(path)
            for server in imported:
                save_server(self.session, server)
            return [server.name for server in imported]

        run_operation(work, lambda names: self._saved(tr("Imported {names}.").format(names=", ".join(names))),
                      self.on_error, owner=self)
