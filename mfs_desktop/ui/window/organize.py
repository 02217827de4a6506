"""The conversation list's organizing: which conversations it shows (all, archived, a tag), date
groups, and the per-conversation menu (pin, archive, tags, rename, trash).

A mixin of `MainWindow` (ui/window/main_window.py), which owns the widgets it uses."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QInputDialog, QListWidgetItem, QMenu

from mfs_desktop.services.display import shown_line
from mfs_desktop.store.conversation_list import (
    ListedConversation,
    all_tags,
    is_archived,
    list_for_window,
    set_archived,
    set_conversation_pinned,
    set_tags,
)
from mfs_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from mfs_desktop.ui.operations import run_operation

TAG_SEPARATORS = r"[,，、;；]"  # an IME's full-width comma or enumeration mark separates too

ALL, ARCHIVED = "", "\x00archived"
# Older groups are a month: one template a month, so a translation orders month and year its way.
MONTH_GROUPS = (
    QT_TRANSLATE_NOOP("", "January {year}"), QT_TRANSLATE_NOOP("", "February {year}"),
    QT_TRANSLATE_NOOP("", "March {year}"), QT_TRANSLATE_NOOP("", "April {year}"), QT_TRANSLATE_NOOP("", "May {year}"),
    QT_TRANSLATE_NOOP("", "June {year}"), QT_TRANSLATE_NOOP("", "July {year}"), QT_TRANSLATE_NOOP("", "August {year}"),
    QT_TRANSLATE_NOOP("", "September {year}"), QT_TRANSLATE_NOOP("", "October {year}"),
    QT_TRANSLATE_NOOP("", "November {year}"), QT_TRANSLATE_NOOP("", "December {year}"))


def date_group(updated_at: float, today: date) -> str:
    day = datetime.fromtimestamp(updated_at).date()
    if day >= today:
        return tr("Today")
    if day == today - timedelta(days=1):
        return tr("Yesterday")
    if day > today - timedelta(days=7):
        return tr("Previous 7 days")
    if day > today - timedelta(days=30):
        return tr("Previous 30 days")
    return tr(MONTH_GROUPS[day.month - 1]).format(year=day.year)


class OrganizeMixin:
    def _build_view_picker(self) -> QComboBox:
        self.list_view = QComboBox()
        self.list_view.activated.connect(lambda _: self.refresh_conversations())
        self.conversations.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.conversations.customContextMenuRequested.connect(self._conversation_menu)
        self._fill_view_picker()
        return self.list_view

    def _fill_view_picker(self) -> None:
        chosen = self.list_view.currentData() or ALL
        self.list_view.clear()
        self.list_view.addItem(tr("All conversations"), ALL)
        self.list_view.addItem(tr("Archived"), ARCHIVED)
        for tag in all_tags(self.session.database):
            self.list_view.addItem(f"#{shown_line(tag)}", tag)
        self.list_view.setCurrentIndex(max(0, self.list_view.findData(chosen)))

    def listed(self) -> list[ListedConversation]:
        """What the list shows now: the chosen view, filtered by title."""
        chosen = self.list_view.currentData() or ALL
        tag = None if chosen in (ALL, ARCHIVED) else chosen
        needle, untitled = self.filter.text().strip().lower(), tr("New conversation")  # matched as shown
        return [c for c in list_for_window(self.session.database, archived=chosen == ARCHIVED, tag=tag)
                if not needle or needle in shown_line(c.title or untitled).lower()]

    def fill_list(self, wanted: str | None) -> None:
        """Rows under date headings (pinned ones first, under their own); `wanted` selected."""
        today, group, untitled = date.today(), None, tr("New conversation")
        line = self.conversations.fontMetrics().lineSpacing()
        for listed in self.listed():
            heading = tr("Pinned") if listed.pinned else date_group(listed.updated_at, today)
            if heading != group:
                group = heading
                header = QListWidgetItem(heading)
                header.setFlags(Qt.ItemFlag.NoItemFlags)
                header.setForeground(QColor("#7b8595"))
                self.conversations.addItem(header)
            tags = "".join(f"  #{shown_line(tag)}" for tag in listed.tags)
            title = ("📌 " if listed.pinned else "") + shown_line(listed.title or untitled) + tags
            preview = shown_line(listed.preview) if listed.preview else tr("no messages yet")
            item = QListWidgetItem(f"{title}\n" + tr("{turns} turns · {preview}").format(turns=listed.turns,
                                                                                          preview=preview))
            item.setToolTip(listed.preview)
            # Room for two lines in any script: a CJK title falls back to a taller font.
            item.setSizeHint(QSize(0, int(line * 2.8)))
            item.setData(Qt.ItemDataRole.UserRole, listed.id)
            self.conversations.addItem(item)
            if listed.id == wanted:
                self.conversations.setCurrentItem(item)
        if self.conversations.currentItem() is None:
            first = next((self.conversations.item(i) for i in range(self.conversations.count())
                          if self.conversations.item(i).data(Qt.ItemDataRole.UserRole)), None)
            if first is not None:
                self.conversations.setCurrentItem(first)

    def reveal(self, conversation_id: str) -> None:
        """Make the list show the view holding `conversation_id` (a search hit may be archived)."""
        self.filter.clear()
        wanted = ARCHIVED if is_archived(self.session.database, conversation_id) else ALL
        if (self.list_view.currentData() or ALL) != wanted:
            self.list_view.setCurrentIndex(self.list_view.findData(wanted))

    def listed_ids(self) -> list[str]:
        items = (self.conversations.item(i) for i in range(self.conversations.count()))
        return [item.data(Qt.ItemDataRole.UserRole) for item in items if item.data(Qt.ItemDataRole.UserRole)]

    def item_for(self, conversation_id: str) -> QListWidgetItem | None:
        return next((self.conversations.item(i) for i in range(self.conversations.count())
                     if self.conversations.item(i).data(Qt.ItemDataRole.UserRole) == conversation_id), None)

    def _conversation_menu(self, where: QPoint) -> None:
        item = self.conversations.itemAt(where)
        conversation_id = item.data(Qt.ItemDataRole.UserRole) if item else None
        if not conversation_id:
            return
        listed = next((c for c in self.listed() if c.id == conversation_id), None)
        if listed is None:
            return
        menu = QMenu(self)
        menu.addAction(tr("Unpin") if listed.pinned else tr("Pin to the top"),
                       lambda: self.organize(conversation_id, pinned=not listed.pinned))
        menu.addAction(tr("Unarchive") if listed.archived else tr("Archive"),
                       lambda: self.organize(conversation_id, archived=not listed.archived))
        menu.addAction(tr("Tags…"), lambda: self._ask_tags(listed))
        menu.addSeparator()
        menu.addAction(tr("Rename…"), self.rename_current)
        menu.addAction(tr("Move to trash…"), self._ask_trash)
        menu.exec(self.conversations.viewport().mapToGlobal(where))

    def _ask_tags(self, listed: ListedConversation) -> None:
        text, ok = QInputDialog.getText(self, tr("Tags"), tr("Tags, separated by commas:"),
                                        text=", ".join(listed.tags))
        if ok:
            self.organize(listed.id, tags=re.split(TAG_SEPARATORS, text))

    def organize(self, conversation_id: str, *, pinned: bool | None = None, archived: bool | None = None,
                 tags: list[str] | None = None) -> None:
        database = self.session.database

        def change() -> None:
            if pinned is not None:
                set_conversation_pinned(database, conversation_id, pinned)
            if archived is not None:
                set_archived(database, conversation_id, archived)
            if tags is not None:
                set_tags(database, conversation_id, tags)

        def done(_: None) -> None:
            self._fill_view_picker()
            self.refresh_conversations(select=conversation_id)
            if archived:
                self.statusBar().showMessage(tr("Archived: out of the list, still searchable (the list's Archived "
                                                "view shows it)."), 6000)

        run_operation(change, done, self._failed)
