"""队伍名单 The roster editor of a team competition, keyboard first.

Opened by :func:`open_roster_editor`: from the 团体赛 view or the registration view (their buttons), or
编辑 → 队伍名单 (F6) in any view of a team competition. The teams are listed on the left (↑ ↓ choose one); on the
right the chosen team's name, number, captain and leader (each taken with Enter) and its registered
players in order, the reserves (替补) last. In the roster table:

* **Ctrl+↑ / Ctrl+↓** move the player up or down the registered order;
* **Ctrl+R** marks the player a reserve, or a main player again;
* **Delete** takes the player out of the team (the player stays registered, in no team);
* **Insert** (or Ctrl+N) goes to the 增加队员 box: a name (or registration number) of a player in no team,
  Enter adds him after the main players — with 替补 ticked, as the last reserve.

Ctrl+Z / Ctrl+Y undo and redo every step, here as in the window. Whatever the rules refuse (a player in two
teams, more players than the regulation allows, changes to the order after round 1 is paired …) is said in
the message line, naming the rule, and nothing changes. Only names are shown: never an ID or a phone
number. Keys typed while the dialog is opening are discarded (:func:`app.ui.widgets.key_guard.guarded`).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QCompleter,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import PlayerStatus, UserError
from app.services import team_events, team_rosters
from app.services.team_events import TeamView
from app.services.tournaments import load_regulations
from app.ui.dialogs.actions import ActionDialog
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language, tr
from app.ui.undo import ServiceCommand
from app.ui.widgets.key_guard import guarded

_UNDO_KEYS = {QKeySequence(k) for k in ("Ctrl+Z", "Ctrl+Y", "Ctrl+Shift+Z")}


def _is_undo_key(event: QKeyEvent) -> bool:
    return QKeySequence(event.keyCombination()) in _UNDO_KEYS


class RosterCommand(ServiceCommand):
    """One roster step; undo puts back the rosters as they were before it (where the step changed them)."""

    def __init__(
        self, document: TournamentDocument, group: str, step: Callable[[], object], text: str
    ) -> None:
        super().__init__(document, text)
        self.group, self.step = group, step
        self.before: team_rosters.RosterState | None = None
        self.after: team_rosters.RosterState | None = None

    def apply(self) -> None:
        before = team_rosters.roster_state(self.document.db, self.group)
        self.step()
        self.before, self.after = before, team_rosters.roster_state(self.document.db, self.group)

    def revert(self) -> None:
        assert self.before is not None and self.after is not None
        team_rosters.restore_roster_state(self.document.db, self.group, self.before, self.after)


class TeamRosterDialog(ActionDialog):
    COLUMNS = ("顺序", "序号", "姓名", "替补", "状态")

    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.group = document.group
        self.setWindowTitle(self.tr("队伍名单 — %1").replace("%1", self.group))
        self.teams: list[TeamView] = []
        self.team_list = QListWidget(self)
        self.team_list.setMinimumWidth(180)
        self.team_list.currentRowChanged.connect(lambda _row: self._show_team())
        self.name_edit = QLineEdit(self)
        self.name_edit.returnPressed.connect(self._rename)
        self.number_edit = QSpinBox(self)
        self.number_edit.setRange(0, 999)
        self.number_edit.setSpecialValueText(self.tr("未抽"))
        self.number_edit.lineEdit().returnPressed.connect(self._renumber)
        self.captain_edit = QLineEdit(self)
        self.captain_edit.returnPressed.connect(lambda: self._details(captain=self.captain_edit.text()))
        self.leader_edit = QLineEdit(self)
        self.leader_edit.returnPressed.connect(lambda: self._details(leader=self.leader_edit.text()))
        form = QFormLayout()
        form.addRow(self.tr("队名："), self.name_edit)
        form.addRow(self.tr("队号："), self.number_edit)
        form.addRow(self.tr("队长："), self.captain_edit)
        form.addRow(self.tr("领队："), self.leader_edit)
        self.table = QTableWidget(0, len(self.COLUMNS), self)
        self.table.setHorizontalHeaderLabels([self.tr(c) for c in self.COLUMNS])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.installEventFilter(self)
        self.size_note = QLabel(self)
        self.add_edit = QLineEdit(self)
        self.add_edit.setPlaceholderText(self.tr("未分队棋手的姓名，回车加入本队"))
        self.add_edit.returnPressed.connect(self._add)
        self.add_reserve = QCheckBox(self.tr("替补"), self)
        add_row = QHBoxLayout()
        add_row.addWidget(QLabel(self.tr("增加队员："), self))
        add_row.addWidget(self.add_edit, 1)
        add_row.addWidget(self.add_reserve)
        self.keys = QLabel(
            self.tr(
                "Ctrl+↑/↓ 调整报名顺序　Ctrl+R 替补/主力　Delete 移出本队　Insert 增加队员　"
                "Ctrl+Z 撤销　Ctrl+Y 重做　Esc 关闭"
            ),
            self,
        )
        self.keys.setStyleSheet("color: #555")
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        close = QPushButton(self.tr("关闭"), self)
        close.setAutoDefault(False)
        close.clicked.connect(self.accept)
        right = QVBoxLayout()
        right.addLayout(form)
        right.addWidget(self.table, 1)
        right.addWidget(self.size_note)
        right.addLayout(add_row)
        body = QHBoxLayout()
        body.addWidget(self.team_list)
        body.addLayout(right, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(body, 1)
        layout.addWidget(self.keys)
        layout.addWidget(self.message)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(close)
        layout.addLayout(bottom)
        for seq, slot in (
            (QKeySequence("Ctrl+Z"), self._undo),
            (QKeySequence("Ctrl+Y"), self._redo),
            (QKeySequence("Ctrl+Shift+Z"), self._redo),
            (QKeySequence("Insert"), self.add_edit.setFocus),
            (QKeySequence("Ctrl+N"), self.add_edit.setFocus),
        ):
            shortcut = QShortcut(seq, self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        # Ctrl+Z / Ctrl+Y undo roster steps from the text boxes as well, not the typing in them
        for box in (
            self.name_edit,
            self.number_edit.lineEdit(),
            self.captain_edit,
            self.leader_edit,
            self.add_edit,
        ):
            box.installEventFilter(self)
        self.setTabOrder(self.team_list, self.table)
        self.setTabOrder(self.table, self.add_edit)
        self.setTabOrder(self.add_edit, self.add_reserve)
        self.setTabOrder(self.add_reserve, self.name_edit)
        self.setTabOrder(self.name_edit, self.number_edit)
        self.setTabOrder(self.number_edit, self.captain_edit)
        self.setTabOrder(self.captain_edit, self.leader_edit)
        self.resize(760, 480)
        guarded(self)
        self.document.changed.connect(self.refresh)
        self.document.announced.connect(self._show)
        self.document.failed.connect(self._failed)
        self.refresh()
        self.table.setFocus()

    # ------------------------------------------------------------------ reading

    @property
    def team(self) -> TeamView | None:
        row = self.team_list.currentRow()
        return self.teams[row] if 0 <= row < len(self.teams) else None

    def refresh(self) -> None:
        current = self.team.id if self.team is not None else None
        try:
            self.teams = team_events.teams_of(self.document.db, self.group)
            event = team_events.team_event_of(load_regulations(self.document.db), self.group)
            free = team_rosters.unassigned_players(self.document.db, self.group)
        except UserError as error:
            self._show(error.en if current_language() == "en" else error.zh, error=True)
            return
        self.roster_min, self.roster_max = event.roster_min, event.roster_max
        self.free = free
        completer = QCompleter([name for _id, name in free], self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.add_edit.setCompleter(completer)
        self.team_list.blockSignals(True)
        self.team_list.clear()
        for t in self.teams:
            QListWidgetItem(
                self.tr("%1（%2 人）").replace("%1", t.label).replace("%2", str(len(t.roster))),
                self.team_list,
            )
        ids = [t.id for t in self.teams]
        self.team_list.setCurrentRow(ids.index(current) if current in ids else (0 if ids else -1))
        self.team_list.blockSignals(False)
        self._show_team()

    def _show_team(self, keep_row: int | None = None) -> None:
        t = self.team
        row = self.table.currentRow() if keep_row is None else keep_row
        self.table.setRowCount(0)
        if t is None:
            return
        self.name_edit.setText(t.name)
        self.number_edit.setValue(t.no or 0)
        self.captain_edit.setText(t.captain)
        self.leader_edit.setText(t.leader)
        self.table.setRowCount(len(t.roster))
        for r, p in enumerate(t.roster):
            status = {
                PlayerStatus.ACTIVE: "",
                PlayerStatus.WITHDRAWN: self.tr("退赛"),
                PlayerStatus.DISQUALIFIED: self.tr("取消资格"),
            }[p.status]
            values = (p.order, p.no or "", p.name, self.tr("替补") if p.reserve else "", status)
            for c, value in enumerate(values):
                item = QTableWidgetItem(str(value))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(r, c, item)
        if t.roster:
            self.table.selectRow(max(0, min(row, len(t.roster) - 1)))
        size = len(t.roster)
        note = (
            self.tr("%1 人（规程每队 %2–%3 人）")
            .replace("%1", str(size))
            .replace("%2", str(self.roster_min))
            .replace("%3", str(self.roster_max))
        )
        if size < self.roster_min:
            note += self.tr("：人数不足，抽队号时将被拒绝")
        self.size_note.setText(note)
        self.size_note.setStyleSheet("color: #b22222" if size < self.roster_min else "color: #444")

    def _player_id(self) -> int | None:
        t = self.team
        row = self.table.currentRow()
        return t.roster[row].id if t is not None and 0 <= row < len(t.roster) else None

    # ------------------------------------------------------------------ steps

    def _step(self, step: Callable[[], object], text: str, row: int | None = None) -> bool:
        ok = self._run(RosterCommand(self.document, self.group, step, text), text)
        if ok and row is not None:
            self._show_team(keep_row=row)
        return ok

    def _move(self, delta: int) -> None:
        t, pid = self.team, self._player_id()
        if t is None or pid is None:
            return
        name = t.roster[self.table.currentRow()].name
        word = self.tr("上移") if delta < 0 else self.tr("下移")
        text = tr("UndoCommands", "%1：%2 %3").replace("%1", t.name).replace("%2", name).replace("%3", word)
        self._step(
            lambda: team_rosters.move_in_roster(self.document.db, self.group, t.name, pid, delta),
            text,
            row=self.table.currentRow() + delta,
        )

    def _toggle_reserve(self) -> None:
        t, pid = self.team, self._player_id()
        if t is None or pid is None:
            return
        p = t.roster[self.table.currentRow()]
        word = self.tr("改为主力") if p.reserve else self.tr("标为替补")
        text = tr("UndoCommands", "%1：%2 %3").replace("%1", t.name).replace("%2", p.name).replace("%3", word)
        self._step(
            lambda: team_rosters.set_reserve(self.document.db, self.group, t.name, pid, not p.reserve), text
        )

    def _remove(self) -> None:
        t, pid = self.team, self._player_id()
        if t is None or pid is None:
            return
        p = t.roster[self.table.currentRow()]
        word = self.tr("移出本队")
        text = tr("UndoCommands", "%1：%2 %3").replace("%1", t.name).replace("%2", p.name).replace("%3", word)
        self._step(lambda: team_rosters.remove_from_team(self.document.db, self.group, t.name, pid), text)

    def _add(self) -> None:
        t = self.team
        typed = self.add_edit.text().strip()
        if t is None or not typed:
            return
        try:
            pid = team_rosters.player_by_name(self.document.db, self.group, typed)
        except UserError as error:
            self._show(error.en if current_language() == "en" else error.zh, error=True)
            return
        reserve = self.add_reserve.isChecked()
        word = self.tr("加为替补") if reserve else self.tr("加入本队")
        text = tr("UndoCommands", "%1：%2 %3").replace("%1", t.name).replace("%2", typed).replace("%3", word)
        if self._step(
            lambda: team_rosters.add_to_team(self.document.db, self.group, t.name, pid, reserve=reserve), text
        ):
            self.add_edit.clear()

    def _rename(self) -> None:
        t = self.team
        new = self.name_edit.text().strip()
        if t is None or new == t.name:
            return
        text = tr("UndoCommands", "队名 %1 → %2").replace("%1", t.name).replace("%2", new)
        self._step(lambda: team_rosters.rename_team(self.document.db, self.group, t.name, new), text)

    def _renumber(self) -> None:
        t = self.team
        no = self.number_edit.value()
        if t is None or no == (t.no or 0):
            return
        text = tr("UndoCommands", "%1 队号 %2").replace("%1", t.name).replace("%2", str(no))
        self._step(lambda: team_rosters.set_team_number(self.document.db, self.group, t.name, no), text)

    def _details(self, *, captain: str | None = None, leader: str | None = None) -> None:
        t = self.team
        if t is None:
            return
        what, value = (self.tr("队长"), captain) if captain is not None else (self.tr("领队"), leader)
        text = (
            tr("UndoCommands", "%1：%2 %3")
            .replace("%1", t.name)
            .replace("%2", what)
            .replace("%3", value or "—")
        )
        self._step(
            lambda: team_events.set_team_details(
                self.document.db, self.group, t.name, captain=captain, leader=leader
            ),
            text,
        )

    def _failed(self, error: UserError) -> None:
        """An undo or redo the rules refused (round 1 paired since): said here as well."""
        self._show(error.en if current_language() == "en" else error.zh, error=True)

    def _undo(self) -> None:
        self.document.undo_stack.undo()

    def _redo(self) -> None:
        self.document.undo_stack.redo()

    # ------------------------------------------------------------------ keys

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is not self.table
            and event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and _is_undo_key(event)
        ):
            return True  # not the box's own undo: the dialog's shortcut takes it
        if watched is self.table and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key, mods = event.key(), event.modifiers()
            ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
            if ctrl and key == Qt.Key.Key_Up:
                self._move(-1)
                return True
            if ctrl and key == Qt.Key.Key_Down:
                self._move(+1)
                return True
            if ctrl and key == Qt.Key.Key_R:
                self._toggle_reserve()
                return True
            if key == Qt.Key.Key_Delete and not mods:
                self._remove()
                return True
        return super().eventFilter(watched, event)


def roster_editor_available(document: TournamentDocument) -> bool:
    """The roster editor is for a team competition's group, in a file open for writing."""
    if document.read_only:
        return False
    try:
        return team_events.is_team_group(document.db, document.group)
    except UserError:
        return False


def open_roster_editor(
    document: TournamentDocument, parent: QWidget, closed: Callable[[TeamRosterDialog], object] | None = None
) -> TeamRosterDialog | None:
    """Open the one roster editor over ``parent`` (window-modal; keys typed while it opens are discarded):
    from the 团体赛 view, the registration view's button, or 编辑 → 队伍名单 (F6) anywhere in the window.
    ``closed`` is told when it closes; None (nothing opened) outside a team competition."""
    if not roster_editor_available(document):
        return None
    dialog = TeamRosterDialog(document, parent)

    def finished(_code: int) -> None:
        if closed is not None:
            closed(dialog)
        dialog.deleteLater()

    dialog.finished.connect(finished)
    dialog.open()
    return dialog
