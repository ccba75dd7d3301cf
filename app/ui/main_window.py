"""The arbiter's main window: file menu, navigation between views, group selector, status bar.

Each view is built — and its module imported — the first time it is shown: the program opens on one
view (the rounds, or the players before round 1) without paying for the seven others.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import UserError
from app.services.backups import restore_backup
from app.services.snapshot import export_snapshot, import_snapshot
from app.services.tournaments import FILE_SUFFIX, NewEvent, create_event
from app.ui import file_dialogs
from app.ui.dialogs.audit_backups import AuditLogDialog, BackupListDialog
from app.ui.dialogs.open_file import open_document
from app.ui.document import TournamentDocument
from app.ui.i18n import app_settings, current_language, tr, translate_noop
from app.ui.progress import run_with_progress

if TYPE_CHECKING:
    from app.ui.hall import HallDialog

MAX_RECENT = 8

# (key, label) of every view in the navigation, in the order of the arbiter's day.
VIEWS = (
    ("players", translate_noop("MainWindow", "报名")),
    ("rounds", translate_noop("MainWindow", "编排")),
    ("bracket", translate_noop("MainWindow", "淘汰赛")),
    ("standings", translate_noop("MainWindow", "名次")),
    ("teams", translate_noop("MainWindow", "团体")),
    ("team_matches", translate_noop("MainWindow", "团体赛")),
    ("prizes", translate_noop("MainWindow", "奖金")),
    ("records", translate_noop("MainWindow", "棋谱")),
    ("settings", translate_noop("MainWindow", "设置")),
)


def user_message(error: UserError) -> str:
    return error.en if current_language() == "en" else error.zh


def recent_files() -> list[str]:
    value = app_settings().value("recent", [])  # the INI file gives one name as a str, several as a list
    files = [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []
    return [str(f) for f in files if f]


def remember_file(path: Path) -> None:
    files = [str(path)] + [f for f in recent_files() if f != str(path)]
    settings = app_settings()
    settings.setValue("recent", files[:MAX_RECENT])
    settings.sync()


def _players() -> type[QWidget]:
    from app.ui.views.players import PlayersView

    return PlayersView


def _rounds() -> type[QWidget]:
    from app.ui.views.rounds import RoundsView

    return RoundsView


def _team_matches() -> type[QWidget]:
    from app.ui.views.team_matches import TeamMatchesView

    return TeamMatchesView


def _bracket() -> type[QWidget]:
    from app.ui.views.bracket import BracketView

    return BracketView


def _standings() -> type[QWidget]:
    from app.ui.views.standings import StandingsView

    return StandingsView


def _teams() -> type[QWidget]:
    from app.ui.views.teams import TeamsView

    return TeamsView


def _prizes() -> type[QWidget]:
    from app.ui.views.teams import PrizesView

    return PrizesView


def _records() -> type[QWidget]:
    from app.ui.views.records import RecordsView

    return RecordsView


def _settings() -> type[QWidget]:
    from app.ui.views.settings import SettingsView

    return SettingsView


#: The class of each view, imported when the view is first shown (plain import statements, so that
#: PyInstaller finds the modules for the frozen build).
VIEW_CLASSES: dict[str, Callable[[], type[QWidget]]] = {
    "players": _players,
    "rounds": _rounds,
    "team_matches": _team_matches,
    "bracket": _bracket,
    "standings": _standings,
    "teams": _teams,
    "prizes": _prizes,
    "records": _records,
    "settings": _settings,
}


def view_class(key: str) -> Callable[[TournamentDocument, QWidget], QWidget]:
    cls: Callable[[TournamentDocument, QWidget], QWidget] = VIEW_CLASSES[key]()
    return cls


class MainWindow(QMainWindow):
    language_requested = Signal(str)

    def __init__(self, document: TournamentDocument | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document: TournamentDocument | None = None
        self.views: dict[str, QWidget] = {}
        self.resize(QSize(1280, 800))
        self._build_menus()
        self.group_box = QComboBox(self)
        self.group_box.setMinimumContentsLength(8)
        # as wide as its longest group name (天水本地组 is 5 wide characters, not 5 letters)
        self.group_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.group_box.currentTextChanged.connect(self._group_chosen)
        toolbar = QToolBar(self.tr("组别"), self)
        toolbar.setObjectName("groups")
        toolbar.setMovable(False)
        toolbar.addWidget(QLabel(self.tr("组别："), self))
        toolbar.addWidget(self.group_box)
        self.addToolBar(toolbar)
        self.status_group = QLabel(self)
        self.status_round = QLabel(self)
        self.statusBar().addPermanentWidget(self.status_group)
        self.statusBar().addPermanentWidget(self.status_round)
        self.set_document(document)

    # ------------------------------------------------------------------ menus

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("文件"))
        self.new_action = self._action(
            file_menu, self.tr("新建赛事……"), self.new_tournament, QKeySequence.StandardKey.New
        )
        self.new_from_file_action = self._action(
            file_menu, self.tr("从规程文件新建赛事……"), self.new_from_regulation_file
        )
        self._action(file_menu, self.tr("打开……"), self.open_dialog, QKeySequence.StandardKey.Open)
        self.recent_menu = file_menu.addMenu(self.tr("最近打开"))
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file_menu.addSeparator()
        self.copy_action = self._action(file_menu, self.tr("另存副本……"), self.save_copy)
        self.restore_action = self._action(file_menu, self.tr("从备份恢复……"), self.restore_backup)
        self.audit_action = self._action(file_menu, self.tr("审计日志……"), self.show_audit_log)
        file_menu.addSeparator()
        self._action(file_menu, self.tr("退出"), self.close, QKeySequence.StandardKey.Quit)

        self.edit_menu = self.menuBar().addMenu(self.tr("编辑"))
        self._build_print_menu()
        self._build_hall_menu()
        language_menu = self.menuBar().addMenu(self.tr("语言"))
        for code, label in (("zh", "中文"), ("en", "English")):
            action = language_menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(code == current_language())
            action.triggered.connect(lambda _checked=False, code=code: self.language_requested.emit(code))

    def _build_print_menu(self) -> None:
        """打印 (each document previewed first) and 导出 (Excel workbook, static HTML site)."""
        from app.ui.printing import PRINTED

        self.print_menu = self.menuBar().addMenu(self.tr("打印"))
        self.print_actions: dict[str, QAction] = {}
        for name, label in PRINTED:
            if name == "team-cards":
                self.print_menu.addSeparator()
            action = self._action(
                self.print_menu, tr("PrintMenu", label) + "…", functools.partial(self.print_document, name)
            )
            action.setObjectName(f"print:{name}")
            self.print_actions[name] = action
            if name == "table-cards":
                action.setShortcut(QKeySequence(QKeySequence.StandardKey.Print))
        self.print_menu.addSeparator()
        self.excel_action = self._action(self.print_menu, self.tr("导出成绩册（Excel）…"), self.export_excel)
        self.html_action = self._action(self.print_menu, self.tr("导出成绩网页（HTML）…"), self.export_html)

    def _build_hall_menu(self) -> None:
        """赛场网络: the hall server for players' phones and deputies (app/ui/hall.py)."""
        from app.ui.hall import HallController

        self.hall = HallController(self)
        self.hall_menu = self.menuBar().addMenu(self.tr("赛场网络"))
        self.hall_action = self._action(
            self.hall_menu, self.tr("赛场网络（手机查看、副裁判录入）…"), self.show_hall
        )
        self.hall_dialog: HallDialog | None = None

    def adopt_hall(self, other: MainWindow) -> None:
        """Take over another window's running hall server (the language switch rebuilds the window)."""
        if other.hall.running:
            self.hall, other.hall = other.hall, self.hall
            self.hall.setParent(self)
            other.hall.setParent(other)

    def show_hall(self) -> QDialog | None:
        from app.ui.hall import HallDialog

        if self.document is None:
            return None
        if self.hall_dialog is None or self.hall_dialog.document is not self.document:
            if self.hall_dialog is not None:
                self.hall_dialog.deleteLater()
            self.hall_dialog = HallDialog(self.hall, self.document, self)
        self.hall_dialog.show()
        self.hall_dialog.raise_()
        return self.hall_dialog

    def _print_round(self) -> int | None:
        """The round shown in the rounds view (None before that view was first shown: the latest)."""
        view = self.views.get("rounds")
        number = getattr(view, "round_number", 0)
        return int(number) or None

    def _team_round(self) -> int | None:
        """The round shown in the 团体赛 view (None before that view was first shown: the latest)."""
        number = getattr(self.views.get("team_matches"), "round_number", None)
        return int(number) if number else None

    def _team_print_actions(self) -> None:
        """The team documents are offered for a team competition only."""
        from app.services.team_events import is_team_group
        from app.ui.printing import TEAM_PRINTED

        team = self.document is not None and is_team_group(self.document.db, self.document.group)
        for name in TEAM_PRINTED:
            self.print_actions[name].setVisible(team)
        if self.document is not None and hasattr(self, "roster_action"):
            self.roster_action.setEnabled(team and not self.document.read_only)

    def print_document(self, name: str) -> QWidget | None:
        """Render document ``name`` for the chosen group (round documents: the round shown) and preview it."""
        from app.services.exports import IMAGE_DOCUMENTS, ROUND_DOCUMENTS, holds_personal_numbers, render_pdf
        from app.ui.printing import PRINTED, TEAM_PRINTED, PrintPreviewDialog

        if self.document is None:
            return None
        number = (
            (self._team_round() if name in TEAM_PRINTED else self._print_round())
            if name in ROUND_DOCUMENTS
            else None
        )
        doc, _, order = name.partition(":")
        label = tr("PrintMenu", dict(PRINTED)[name])
        db, group = self.document.db, self.document.group
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            pdf = run_with_progress(
                self,
                self.tr("正在生成%1……").replace("%1", label),
                lambda: render_pdf(db, doc, group=group, round_number=number, order=order),
            )
        except UserError as error:
            QApplication.restoreOverrideCursor()
            QMessageBox.warning(self, self.tr("无法打印"), user_message(error))
            return None
        suffix = f"-r{number}" if number else ""
        suggested = str(
            self.document.path.with_name(f"{self.document.group}-{name.replace(':', '-')}{suffix}.pdf")
        )
        try:
            dialog = PrintPreviewDialog(
                f"{label} — {self.document.group}",
                pdf,
                suggested,
                self,
                picture=name in IMAGE_DOCUMENTS,
                private=holds_personal_numbers(doc),
            )
        finally:
            QApplication.restoreOverrideCursor()
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.preview = dialog
        dialog.open()
        return dialog

    def export_excel(self) -> None:
        from app.services.exports import write_result_workbook

        if self.document is None:
            return
        name = file_dialogs.save_file_name(
            self,
            self.tr("导出成绩册"),
            str(self.document.path.with_suffix(".xlsx")),
            self.tr("Excel 工作簿 (*.xlsx)"),
        )
        if not name:
            return
        try:
            db, target = self.document.db, Path(name).with_suffix(".xlsx")
            path = run_with_progress(
                self, self.tr("正在导出成绩册……"), lambda: write_result_workbook(db, target)
            )
        except UserError as error:
            QMessageBox.warning(self, self.tr("无法导出"), user_message(error))
            return
        self.statusBar().showMessage(self.tr("已导出：%1").replace("%1", str(path)), 5000)

    def export_html(self) -> None:
        from app.services.public_pages import write_public_site

        if self.document is None:
            return
        folder = file_dialogs.existing_directory(self, self.tr("导出成绩网页到文件夹"))
        if not folder:
            return
        try:
            db = self.document.db
            files = run_with_progress(
                self, self.tr("正在导出成绩网页……"), lambda: write_public_site(db, Path(folder))
            )
        except UserError as error:
            QMessageBox.warning(self, self.tr("无法导出"), user_message(error))
            return
        self.statusBar().showMessage(
            self.tr("已导出 %1 个网页到 %2").replace("%1", str(len(files))).replace("%2", folder), 5000
        )

    def _action(
        self,
        menu: QWidget,
        text: str,
        slot: Callable[[], object],
        shortcut: QKeySequence.StandardKey | None = None,
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for name in recent_files():
            action = self.recent_menu.addAction(name)
            action.triggered.connect(lambda _checked=False, name=name: self.open_file(Path(name)))
        if not self.recent_menu.actions():
            self.recent_menu.addAction(self.tr("（无）")).setEnabled(False)

    # ------------------------------------------------------------------ documents

    def set_document(self, document: TournamentDocument | None) -> None:
        if self.document is not None and self.document is not document:
            self.hall.stop()  # the server is the open file's guest: it goes first
            if self.hall_dialog is not None:
                self.hall_dialog.close()
                self.hall_dialog.deleteLater()
                self.hall_dialog = None
            self.document.close()
        self.document = document
        file_dialogs.set_default_folder(document.path.parent if document is not None else None)
        if document is not None and not document.read_only:
            self._serve_command_line(document)
        self.edit_menu.clear()
        self.copy_action.setEnabled(document is not None)
        self.print_menu.setEnabled(document is not None)
        self._team_print_actions()
        self.hall_menu.setEnabled(document is not None)
        if document is None:
            self.setCentralWidget(self._welcome())
            self.group_box.clear()
            self._update_title()
            self._update_status()
            return
        undo = document.undo_stack.createUndoAction(self, self.tr("撤销"))
        undo.setShortcut(QKeySequence(QKeySequence.StandardKey.Undo))
        redo = document.undo_stack.createRedoAction(self, self.tr("重做"))
        shortcuts = [QKeySequence("Ctrl+Y")]
        shortcuts += [
            k for k in QKeySequence.keyBindings(QKeySequence.StandardKey.Redo) if k not in shortcuts
        ]
        redo.setShortcuts(shortcuts)
        self.edit_menu.addAction(undo)
        self.edit_menu.addAction(redo)
        self.undo_action, self.redo_action = undo, redo
        self.edit_menu.addSeparator()
        self.roster_action = self._action(self.edit_menu, self.tr("队伍名单……"), self.edit_rosters)
        self.roster_action.setShortcut(QKeySequence("F6"))
        self._team_print_actions()
        document.changed.connect(self._update_status)
        document.group_changed.connect(self._group_changed)
        document.failed.connect(self._service_failed)
        document.announced.connect(lambda text: self.statusBar().showMessage(text, 10_000))
        document.undo_stack.cleanChanged.connect(self._clean_changed)
        self.group_box.blockSignals(True)
        self.group_box.clear()
        self.group_box.addItems(document.groups)
        self.group_box.setCurrentText(document.group)
        self.group_box.blockSignals(False)
        with document.one_reading():  # the first view and the status line read the rounds once
            self.setCentralWidget(self._workspace(document))
            remember_file(document.path)
            self._update_title()
            self._update_status()

    def _welcome(self) -> QWidget:
        page = QWidget(self)
        layout = QVBoxLayout(page)
        layout.addStretch(1)
        title = QLabel(f"<h1>{self.tr('象棋赛事编排系统')}</h1>", page)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(title)
        row = QHBoxLayout()
        row.addStretch(1)
        for text, slot in (
            (self.tr("新建赛事……"), self.new_tournament),
            (self.tr("打开……"), self.open_dialog),
        ):
            button = QPushButton(text, page)
            button.clicked.connect(lambda _checked=False, slot=slot: slot())
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(2)
        return page

    def _serve_command_line(self, document: TournamentDocument) -> None:
        """Offer the file to the command line beside the window (app/ui/command_line.py)."""
        from app.ui.command_line import CommandLineHost

        if document.command_line is None:
            document.command_line = CommandLineHost(document)
        document.command_line.window = self
        document.command_line.changed_by_command_line.connect(self._changed_by_command_line)

    def _changed_by_command_line(self, message: str) -> None:
        self.statusBar().showMessage(message, 15000)

    def _workspace(self, document: TournamentDocument) -> QWidget:
        page = QWidget(self)
        self.navigation = QListWidget(page)
        self.navigation.setObjectName("navigation")
        self.navigation.setStyleSheet("QListWidget::item { padding: 10px 14px; }")
        # wide enough for the longest label in the window's language ("Standings", "Settings" …)
        metrics = self.navigation.fontMetrics()
        longest = max(metrics.horizontalAdvance(tr("MainWindow", label)) for _key, label in VIEWS)
        self.navigation.setFixedWidth(max(120, longest + 2 * 14 + 2 * self.navigation.frameWidth() + 12))
        self.stack = QStackedWidget(page)
        self.views = {}
        for _key, label in VIEWS:
            self.navigation.addItem(tr("MainWindow", label))
            self.stack.addWidget(QWidget(self.stack))  # a place for the view, built when first shown
        self.navigation.currentRowChanged.connect(self._show_row)
        self.navigation.setCurrentRow(1 if document.rounds() else 0)
        layout = QHBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.navigation)
        layout.addWidget(self.stack, 1)
        return page

    def _show_row(self, row: int) -> None:
        if row < 0 or self.document is None:
            return
        key = VIEWS[row][0]
        if key not in self.views:
            view = self._make_view(key, tr("MainWindow", VIEWS[row][1]), self.document)
            placeholder = self.stack.widget(row)
            self.stack.insertWidget(row, view)
            if placeholder is not None:  # the empty page that stood for the view until it was first shown
                self.stack.removeWidget(placeholder)
                placeholder.deleteLater()
            self.views[key] = view
        self.stack.setCurrentIndex(row)

    def _make_view(self, key: str, title: str, document: TournamentDocument) -> QWidget:
        del title  # every view names itself
        return view_class(key)(document, self)

    def edit_rosters(self) -> QWidget | None:
        """编辑 → 队伍名单 (F6), from any view of a team competition: the one roster editor, over the view
        shown (the 团体赛 view keeps track of it and takes the focus back to its line-up box)."""
        from app.ui.dialogs.team_roster import open_roster_editor

        if self.document is None:
            return None
        current = self.stack.currentWidget()
        opener = getattr(current, "edit_rosters", None)
        if callable(opener):
            opener()
            dialog: QWidget | None = getattr(current, "roster_dialog", None)
            return dialog
        return open_roster_editor(self.document, current or self)

    def show_view(self, key: str) -> QWidget:
        keys = [k for k, _ in VIEWS]
        self.navigation.setCurrentRow(keys.index(key))
        self._show_row(keys.index(key))
        return self.views[key]

    def open_file(self, path: Path) -> bool:
        document = open_document(path, self)
        if document is None:
            return False
        self.set_document(document)
        if document.resume_hall is not None:  # taken over from ``xqarbiter serve``: the hall goes on
            self._resume_hall(document, *document.resume_hall)
        return True

    def _resume_hall(self, document: TournamentDocument, host: str, port: int) -> None:
        """Serve the hall where ``xqarbiter serve`` served it (the phones' next request finds it)."""
        document.resume_hall = None
        try:
            url = self.hall.start(document, host, port)
        except UserError as error:
            QMessageBox.warning(
                self,
                self.tr("赛场网络"),
                self.tr(
                    "文件已在本窗口打开，但赛场网络无法在原地址继续：%1\n请在 赛场网络 菜单中重新启动。"
                ).replace("%1", user_message(error)),
            )
            return
        self.statusBar().showMessage(
            self.tr("已从 xqarbiter serve 接管；赛场网络在本窗口继续：%1").replace("%1", url), 15000
        )

    def open_dialog(self) -> None:
        name = file_dialogs.open_file_name(
            self, self.tr("打开赛事"), "", self.tr("赛事文件 (*%1)").replace("%1", FILE_SUFFIX)
        )
        if name:
            self.open_file(Path(name))

    def new_tournament(self) -> None:
        """新建赛事: the event's name, dates, venue, deadline and groups first, then the file."""
        from app.ui.dialogs.new_event import NewEventDialog

        dialog = NewEventDialog(self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        name = file_dialogs.save_file_name(
            self,
            self.tr("新建赛事"),
            dialog.new_event().name.strip(),
            self.tr("赛事文件 (*%1)").replace("%1", FILE_SUFFIX),
        )
        if not name:
            return
        path = Path(name).with_suffix(FILE_SUFFIX)
        try:
            create_event(path, dialog.preset_key, dialog.new_event()).close()
        except UserError as error:
            QMessageBox.warning(self, self.tr("无法新建"), user_message(error))
            return
        self.open_file(path)

    def new_from_regulation_file(self) -> None:
        """A new event from a regulation file exported from an earlier one (regulation files): the file gives
        the settings, the new-event dialog (with the file as its template) this event's own name,
        dates, venue, deadline and groups."""
        from app.services.regulation_files import read_regulation_file
        from app.ui.dialogs.new_event import NewEventDialog

        name = file_dialogs.open_file_name(self, self.tr("选择规程文件"), "", self.tr("规程文件 (*.toml)"))
        if not name:
            return
        try:
            regulation, _paperwork = read_regulation_file(Path(name))
        except UserError as error:
            QMessageBox.warning(self, self.tr("无法新建"), user_message(error))
            return
        dialog = NewEventDialog(self, regulation=regulation, source=Path(name).name)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        target = file_dialogs.save_file_name(
            self,
            self.tr("新建赛事"),
            dialog.new_event().name.strip(),
            self.tr("赛事文件 (*%1)").replace("%1", FILE_SUFFIX),
        )
        if target:
            self.new_from_regulation(Path(name), Path(target).with_suffix(FILE_SUFFIX), dialog.new_event())

    def new_from_regulation(self, regulation: Path, path: Path, event: NewEvent | None = None) -> bool:
        """Create ``path`` from a regulation file, with ``event``'s name, dates, venue, deadline and
        groups (None: the file's own), and open it."""
        from app.services.regulation_files import create_from_regulation_file

        try:
            create_from_regulation_file(path, regulation, event).close()
        except UserError as error:
            QMessageBox.warning(self, self.tr("无法新建"), user_message(error))
            return False
        return self.open_file(path)

    def save_copy(self) -> None:
        if self.document is None:
            return
        name = file_dialogs.save_file_name(
            self, self.tr("另存副本"), "", self.tr("赛事文件 (*%1)").replace("%1", FILE_SUFFIX)
        )
        if name:
            self.save_copy_to(Path(name).with_suffix(FILE_SUFFIX))

    def save_copy_to(self, path: Path) -> None:
        """A full copy of the open tournament (through a snapshot, so the copy is checked on the way)."""
        assert self.document is not None
        try:
            import_snapshot(export_snapshot(self.document.db), path).close()
        except UserError as error:
            QMessageBox.warning(self, self.tr("无法保存副本"), user_message(error))
            return
        self.statusBar().showMessage(self.tr("副本已保存：%1").replace("%1", str(path)), 5000)

    def restore_backup(self) -> None:
        if self.document is None:
            return
        dialog = BackupListDialog(self.document.path, self)
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.chosen() is None:
            return
        self.restore_from(dialog.chosen())

    def restore_from(self, backup: Path | None) -> None:
        """Put a backup in place of the open file (the current state is backed up first), then reopen."""
        if self.document is None or backup is None:
            return
        path = self.document.path
        self.set_document(None)
        try:
            restore_backup(path, backup)
        except UserError as error:
            QMessageBox.warning(self, self.tr("无法恢复"), user_message(error))
        self.open_file(path)

    def show_audit_log(self) -> AuditLogDialog | None:
        if self.document is None:
            return None
        dialog = AuditLogDialog(self.document, self)
        dialog.show()
        return dialog

    # ------------------------------------------------------------------ state shown

    def _group_chosen(self, name: str) -> None:
        if self.document is not None and name:
            self.document.set_group(name)

    def _service_failed(self, error: UserError) -> None:
        QMessageBox.warning(self, self.tr("操作被拒绝"), user_message(error))

    def _clean_changed(self, _clean: bool) -> None:
        self._update_title()

    def _group_changed(self, _name: str) -> None:
        self._team_print_actions()
        self._update_status()

    def _update_title(self) -> None:
        app_name = self.tr("象棋赛事编排系统")
        if self.document is None:
            self.setWindowTitle(app_name)
        else:
            marker = self.tr("（只读）") if self.document.read_only else ""
            self.setWindowTitle(f"{self.document.path.name}{marker}[*] — {app_name}")
            # Every action is committed at once; the marker shows actions that can still be undone.
            self.setWindowModified(not self.document.undo_stack.isClean())

    def _update_status(self) -> None:
        if self.document is None:
            self.status_group.setText("")
            self.status_round.setText("")
            return
        self.status_group.setText(self.tr("组别：%1").replace("%1", self.document.group))
        summaries = self.document.rounds()
        if not summaries:
            self.status_round.setText(self.tr("尚未编排"))
            return
        last = summaries[-1]
        if last.closed:
            state = self.tr("已结束")
        elif last.pending and last.swiss_due:
            state = self.tr("待录入 %1 台，积分编排部分未编排").replace("%1", str(last.pending))
        elif last.pending:
            state = self.tr("待录入 %1 台").replace("%1", str(last.pending))
        elif last.swiss_due:  # the knockout games are in, the continuing Swiss is not paired yet
            state = self.tr("积分编排部分未编排")
        else:
            state = self.tr("成绩已齐")
        self.status_round.setText(
            self.tr("第 %1 轮：%2").replace("%1", str(last.number)).replace("%2", state)
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        # Everything is committed already; closing releases the file's lock for the next start.
        self.hall.stop()
        if self.document is not None:
            self.document.close()
            self.document = None
        event.accept()
