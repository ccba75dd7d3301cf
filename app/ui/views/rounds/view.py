"""编排 Rounds: one tab per round, pairing the next round, and result entry from the keyboard.

Result entry goes through one box, 录入成绩 (:mod:`app.ui.widgets.result_entry`): the board number and
the result key, e.g. ``12 1``; ``7=`` / ``7+`` / ``7-`` / ``7*`` are taken at once; a result key alone
with Enter goes to the board under the table's cursor; F4 (逐台录入) takes bare result keys for the
highlighted board and moves on. The box has the keyboard focus whenever the view is shown, after a
pairing and after every action, and keys typed while the pairing table (or the list of records
owed, or a button) has the focus are **sent to the box**, never taken as a result for the table's
current row: the same text gives the same result wherever the focus was. Changing a result already
entered asks first (Y changes it; Enter, N or Esc leave it; keys typed before the question appeared
are not its answer). Switching the group or the round drops a half-typed entry. After each result
the cursor moves to the next board without one, and the message line reads back what was stored:
group, round, board, both names and the result.

Keys: ``1`` red wins, ``0`` black wins, ``=`` or ``5`` draw, ``+`` black forfeits (red wins by
forfeit), ``-`` red forfeits, ``*`` both forfeit; Delete on a table row asks to clear its result.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QInputDialog,
    QMessageBox,
    QProgressDialog,
    QTreeWidgetItem,
    QWidget,
)

from app.engine.types import GameResult, UserError
from app.services import records
from app.services import rounds as rounds_service
from app.services.overrides import OverridePreview
from app.services.rounds import BoardLine, RoundView
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language
from app.ui.models.pairings import GAME_COLUMN, RESULT_COLUMN, game_label, result_name
from app.ui.undo import (
    EnterResultCommand,
    PairRoundCommand,
    ServiceCommand,
    UnpairRoundCommand,
    perform,
)
from app.ui.views.rounds.board_actions import BoardActions, OverrideDialog, ReasonDialog
from app.ui.views.rounds.board_actions import fill as _fill
from app.ui.views.rounds.layout import RoundsLayout, typed_text
from app.ui.widgets.key_guard import ask_guarded, guarded
from app.ui.widgets.result_entry import Reading

_ROUND_AND_BOARD = re.compile(r"^第\s*\d+\s*轮第\s*\d+\s*台[：:]\s*")


class RoundsView(RoundsLayout):
    """The round tabs, the pairing table, keyboard result entry, pairing edits and discipline.

    Pairing runs in the GUI thread behind a busy dialog and a wait cursor, not in a ``QThread``:
    every action must be a synchronous ``QUndoCommand.redo`` (redo of a pairing pairs again with
    the same seed), the database session is opened and committed inside the service call, and the
    measured pairing of 160 players takes well under a second.

    Dialogs go through the ``ask_*``/``confirm_*`` methods so tests can answer them.
    """

    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.document = document
        self.round_number = 0
        self.view: RoundView | None = None
        self._change: tuple[int, GameResult] | None = None  # a change of a result, waiting for a yes
        self._stale = False  # a change came while another view was shown
        self._summaries: list[rounds_service.RoundSummary] = []
        self.board_actions = BoardActions(self)

        self.tabs.currentChanged.connect(self._tab_changed)
        for button, slot in (
            (self.pair_button, self.pair_next_round),
            (self.unpair_button, self.unpair_round),
            (self.close_button, self.close_round),
            (self.actions_button, self.board_actions.menu_for_current_row),
        ):
            button.clicked.connect(lambda _checked=False, slot=slot: self.then_focus(slot))
        self.entry_box.submitted.connect(self._submitted)
        self.entry_box.refused.connect(self.show_error)
        self.entry_box.navigate.connect(self._navigate)
        self.entry_box.confirmed.connect(self._change_confirmed)
        self.entry_box.cancelled.connect(self._change_cancelled)
        self.table.typed.connect(self._typed_elsewhere)
        self.table.clear_requested.connect(lambda board: self.enter(board, GameResult.PENDING))
        self.table.menu_requested.connect(self.board_actions.show_menu)
        self.owed_timer.timeout.connect(self._update_owed)
        self.by_board_button.toggled.connect(self._by_board_toggled)
        self.entry_box.mode_changed.connect(self._by_board_changed)
        by_board = QShortcut(QKeySequence(Qt.Key.Key_F4), self)
        by_board.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        by_board.activated.connect(lambda: self.by_board_button.toggle())
        self.pending.said.connect(self.message.setText)
        document.announced.connect(self.message.setText)
        self._routed: list[QWidget] = [self.owed, self.pending.list]  # keys typed here go to the entry box
        for widget in self._routed:
            widget.installEventFilter(self)

        document.changed.connect(self.refresh)
        document.group_changed.connect(self._group_changed)
        self.reload()

    def then_focus(self, action: Callable[[], object]) -> None:
        """Run an action of the view, then give the keyboard back to the entry box."""
        try:
            action()
        finally:
            self.focus_entry()

    def _by_board_toggled(self, on: bool) -> None:
        self.entry_box.set_by_board(on)
        self.focus_entry()

    def _by_board_changed(self, on: bool) -> None:
        self.by_board_button.blockSignals(True)
        self.by_board_button.setChecked(on)
        self.by_board_button.blockSignals(False)

    def _group_changed(self, _name: str) -> None:
        self.message.clear()  # a message about the other group does not belong here
        self.entry_box.reset()  # nor a half-typed entry or a question
        self._change = None
        self.reload()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        """Rebuild the round tabs for the current group and show its latest round."""
        summaries = self.document.rounds()
        self._summaries = summaries
        self.tabs.blockSignals(True)
        while self.tabs.count():
            self.tabs.removeTab(0)
        for s in summaries:
            self.tabs.addTab(self.tr("第 %1 轮").replace("%1", str(s.number)))
        if summaries:  # chosen while the signals are blocked: the round is read once, just below
            self.tabs.setCurrentIndex(len(summaries) - 1)
        self.tabs.blockSignals(False)
        if summaries:
            self.show_round(summaries[-1].number)
        else:
            self.round_number = 0
            self.view = None
            self.model.set_round(None)
            self._update_controls()
            self.pending.set_round(0)

    def _tab_changed(self, index: int) -> None:
        if index >= 0:
            self.show_round(index + 1)

    def show_round(self, number: int) -> None:
        self.round_number = number
        self.view = rounds_service.round_view(self.document.db, self.document.group, number)
        self.model.set_round(self.view)
        self.table.setColumnHidden(GAME_COLUMN, not self.model.has_knockout)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().resizeSection(RESULT_COLUMN, self._result_width())
        if self.model.has_knockout:  # wide enough for the games to come (快棋, 附加赛 …), not only today's
            metrics = self.table.fontMetrics()
            later = [dataclasses.replace(b, kind="deciding", game_no=b.game_no + 3) for b in self.model.lines]
            widest = max(metrics.horizontalAdvance(game_label(b)) for b in later if b.match is not None)
            header = self.table.horizontalHeader()
            header.resizeSection(GAME_COLUMN, max(header.sectionSize(GAME_COLUMN), widest + 24))
        self._move_to_next_empty(after=0)
        self.table.reveal_current()
        self._update_controls()
        self.entry_box.reset()  # a half-typed entry or a question belongs to the round left
        self._change = None
        self.focus_entry()
        self.pending.set_round(number)

    def refresh(self) -> None:
        """After any change: new rounds get tabs, the shown round's results are updated in place.

        While another view is shown this only notes that the view is out of date (a result entered
        with the standings shown pays for the standings, not for this table too); showing it again
        brings it up to date.
        """
        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        self._summaries = self.document.rounds()
        count = len(self._summaries)
        if count != self.tabs.count():
            self.reload()
            return
        if self.round_number:
            self.view = rounds_service.round_view(self.document.db, self.document.group, self.round_number)
            self.model.update_round(self.view)
        self._update_controls()

    def _update_controls(self) -> None:
        has_round = self.round_number > 0
        self.entry.setEnabled(has_round)
        self.close_button.setEnabled(has_round)
        self.actions_button.setEnabled(has_round and bool(self.model.lines))
        pending = [line.board for line in self.model.lines if line.result.is_pending]
        swiss = [b for b in self.view.boards if b.match is None] if self.view else []
        self.unpair_button.setEnabled(
            self.view is not None
            and not self.view.closed
            and self.round_number == self.tabs.count()
            and bool(swiss or self.view.byes)
            and all(b.result.is_pending for b in swiss)
        )
        swiss_due = any(s.number == self.round_number and s.swiss_due for s in self._summaries)
        if not has_round:
            self.next_label.setText(self.tr("尚未编排"))
        elif pending and swiss_due:
            self.next_label.setText(
                self.tr("未录入 %1 台；积分编排部分未编排").replace("%1", str(len(pending)))
            )
        elif pending:
            self.next_label.setText(self.tr("未录入 %1 台").replace("%1", str(len(pending))))
        elif swiss_due:  # the knockout games are in; the players outside it still wait for a pairing
            self.next_label.setText(self.tr("淘汰赛成绩已录入；积分编排部分未编排"))
        else:
            self.next_label.setText(self.tr("本轮成绩已全部录入"))
        self.owed_timer.start()

    def _update_owed(self) -> None:
        self.owed.clear()
        if not self.round_number:
            self.owed_box.setTitle(self.tr("本轮待交棋谱"))
            return
        try:
            owed = records.records_owed(self.document.db, self.document.group, self.round_number)
        except UserError:
            owed = []
        for line in owed:
            # "第4轮第1台：" repeats the round and the board shown beside it; the tooltip has it all
            reason = _ROUND_AND_BOARD.sub("", line.reason)
            item = QTreeWidgetItem([str(line.board), f"{line.recorder_no} {line.recorder_name}", reason])
            item.setToolTip(2, line.reason)
            item.setData(0, Qt.ItemDataRole.UserRole, line.board)
            self.owed.addTopLevelItem(item)
        self.owed_box.setTitle(self.tr("本轮待交棋谱（%1）").replace("%1", str(len(owed))))

    # ------------------------------------------------------------------ dialogs (tests answer these)

    def _input(self, title: str, label: str) -> QInputDialog:
        """A question asking for a value; keys typed before it showed are not its answer."""
        dialog = QInputDialog(self)
        dialog.setWindowTitle(title)
        dialog.setLabelText(label)
        guarded(dialog)
        return dialog

    def ask_text(self, title: str, label: str) -> str | None:
        """A reason (required); ``None`` when the arbiter cancels."""
        dialog = guarded(ReasonDialog(title, label, self))
        try:
            return dialog.reason.text().strip() if dialog.exec() == QDialog.DialogCode.Accepted else None
        finally:
            dialog.deleteLater()

    def ask_choice_and_reason(
        self, title: str, choice_label: str, items: Sequence[str], label: str
    ) -> tuple[int, str] | None:
        """A choice among ``items`` and a reason, in one dialog; ``None`` when the arbiter cancels."""
        dialog = guarded(ReasonDialog(title, label, self, choice_label=choice_label, choices=items))
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return None
            return dialog.choice.currentIndex(), dialog.reason.text().strip()
        finally:
            dialog.deleteLater()

    def ask_number(self, title: str, label: str) -> int | None:
        dialog = self._input(title, label)
        dialog.setInputMode(QInputDialog.InputMode.IntInput)
        dialog.setIntRange(1, 9999)
        dialog.setIntValue(1)
        try:
            return dialog.intValue() if dialog.exec() == QDialog.DialogCode.Accepted else None
        finally:
            dialog.deleteLater()

    def confirm_override(self, title: str, preview: OverridePreview) -> str | None:
        """The reason for the change, or ``None`` when the arbiter cancels."""
        names = self.names()
        lines = [
            _fill(
                self.tr("第 %1 台：%2 %3 — %4 %5"),
                board,
                red,
                names.get(red, ""),
                black,
                names.get(black, ""),
            )
            for board, red, black in preview.games
            if board in preview.changed_boards
        ]
        lines += [_fill(self.tr("轮空：%1 %2"), no, names.get(no, "")) for no in preview.byes]
        english = current_language() == "en"
        dialog = OverrideDialog(title, lines, [b.en if english else b.zh for b in preview.breaks], self)
        guarded(dialog)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.reason.text().strip()

    def confirm_refusals(self, lines: Sequence[str]) -> bool:
        """结束本轮 with records owed: each becomes a 拒不录谱 violation. Default: no."""
        return ask_guarded(
            self,
            self.tr("结束本轮"),
            self.tr("以下棋谱未交，结束本轮将记为拒不录谱（犯规）：")
            + "\n"
            + "\n".join(lines)
            + "\n\n"
            + self.tr("记为拒不录谱并结束本轮吗？（回车＝否）"),
            yes=self.tr("记犯规并结束(&Y)"),
        )

    def inform(self, title: str, text: str) -> None:
        QMessageBox.information(self, title, text)

    # ------------------------------------------------------------------ actions

    def pair_next_round(self) -> None:
        busy = QProgressDialog(self.tr("正在编排……"), "", 0, 0, self)
        busy.setCancelButton(None)
        busy.setWindowModality(Qt.WindowModality.WindowModal)
        busy.setMinimumDuration(0)
        busy.show()
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        QApplication.processEvents()
        command = PairRoundCommand(self.document, self.document.group)
        try:
            perform(self.document, command)
        except UserError as error:
            self.show_error(error)
            return
        finally:
            QApplication.restoreOverrideCursor()
            busy.close()
            busy.deleteLater()
            self.window().activateWindow()  # the busy dialog took the activation (and the shortcuts)
        outcome = command.outcome
        assert outcome is not None
        parts = [
            _fill(self.tr("第 %1 轮已编排：%2 台，随机种子 %3"), outcome.number, outcome.boards, outcome.seed)
        ]
        if outcome.bye is not None:
            parts.append(_fill(self.tr("轮空：%1 号"), outcome.bye))
        if outcome.withdrawn:
            parts.append(
                _fill(self.tr("因连续弃权退赛：%1 号"), "、".join(str(no) for no in outcome.withdrawn))
            )
        text = "；".join(parts)
        if outcome.backup_warning:
            text += f"<br><span style='color:#b22222'>{outcome.backup_warning}</span>"
        self.message.setText(text)

    def unpair_round(self) -> None:
        if not self.round_number:
            return
        command = UnpairRoundCommand(self.document, self.document.group, self.round_number)
        number = self.round_number
        try:
            perform(self.document, command)
        except UserError as error:
            self.show_error(error)
            return
        self.message.setText(_fill(self.tr("第 %1 轮编排已撤销（Ctrl+Z 恢复）"), number))

    def close_round(self) -> None:
        group, number = self.document.group, self.round_number
        try:
            if not any(line.result.is_pending for line in self.model.lines):
                refusals = records.refusals_at_close(self.document.db, group, number)
                if refusals:
                    names = self.names()
                    lines = [
                        _fill(
                            self.tr("第 %1 台 %2 %3：%4"),
                            v.board,
                            v.player_no,
                            names.get(v.player_no, ""),
                            v.reason,
                        )
                        for v in refusals
                    ]
                    if not self.confirm_refusals(lines):
                        return
                    records.confirm_refusals(self.document.db, group, number)
            warning = rounds_service.close_round(self.document.db, group, number)
        except UserError as error:
            self.show_error(error)
            return
        text = self.tr("第 %1 轮已结束").replace("%1", str(number))
        if warning:
            text += f"<br><span style='color:#b22222'>{warning}</span>"
        self.message.setText(text)
        self.document.notify()

    def enter(self, board: int, result: GameResult, *, confirmed: bool = False) -> bool:
        """Enter ``result`` on ``board`` of the shown round (undoable); moves to the next empty board.

        A board that already has another result is changed only ``confirmed``: otherwise the entry
        box asks (Y changes; Enter, N, Esc keep) and ``False`` is returned for now.
        ``GameResult.PENDING`` clears.
        """
        row = self.model.row_of_board(board)
        if row is None:
            self.show_error(UserError(f"本轮没有第 {board} 台", f"this round has no board {board}"))
            return False
        line = self.model.line(row)
        before = line.result
        if before is result:
            self._move_to_next_empty(after=board)
            return True
        if not before.is_pending and not confirmed:
            self._ask_change(board, before, result)
            return False
        if before.is_pending and result.is_pending:
            return True
        number = self.round_number
        command = EnterResultCommand(self.document, self.document.group, number, board, result)
        try:
            perform(self.document, command)
        except UserError as error:
            if before.is_pending:
                self.show_error(error)
                return False
            reason = self.ask_text(self.tr("更正成绩"), _fill(self.tr("更正第 %1 台成绩的理由："), board))
            if not reason:
                self.show_error(error)
                return False
            command = EnterResultCommand(self.document, self.document.group, number, board, result, reason)
            if not self.run_command(command):
                return False
        self.message.setText(self._read_back(line, before, result))
        self._move_to_next_empty(after=board)
        return True

    def board_words(self, line: BoardLine) -> str:
        """The board in words: 公开组 第 2 轮 第 12 台 张三 — 李四 (with the knockout game, if one)."""
        text = _fill(
            self.tr("%1 第 %2 轮 第 %3 台 %4 — %5"),
            self.document.group,
            self.round_number,
            line.board,
            line.red.name,
            line.black.name,
        )
        if line.match is not None:
            text += f"（{game_label(line)}）"
        return text

    def _read_back(self, line: BoardLine, before: GameResult, result: GameResult) -> str:
        """What was stored, in full: group, round, board, both names and the result (and what next)."""
        words = self.board_words(line)
        if before.is_pending:
            text = _fill(self.tr("已录入：%1：%2"), words, result_name(result))
        elif result.is_pending:
            text = _fill(self.tr("已清除：%1：%2"), words, result_name(before))
        else:
            text = _fill(self.tr("已改动：%1：%2 → %3"), words, result_name(before), result_name(result))
        row = self.model.row_of_board(line.board)
        now = self.model.line(row) if row is not None else None
        if line.match is not None and now is not None and now.game_no != line.game_no:
            text += _fill(self.tr("。本台接着下：%1"), game_label(now))
        return text

    def _ask_change(self, board: int, before: GameResult, result: GameResult) -> None:
        self._change = (board, result)
        row = self.model.row_of_board(board)
        words = self.board_words(self.model.line(row)) if row is not None else str(board)
        if result.is_pending:
            question = _fill(self.tr("清除 %1 的成绩 %2？"), words, result_name(before))
        else:
            question = _fill(
                self.tr("%1 已录入 %2，改为 %3？"), words, result_name(before), result_name(result)
            )
        self.message.setText("")
        self.entry_box.ask(question)

    def _change_confirmed(self) -> None:
        change, self._change = self._change, None
        if change is not None:
            self.enter(*change, confirmed=True)
        self.focus_entry()

    def _change_cancelled(self) -> None:
        change, self._change = self._change, None
        if change is not None:
            self.message.setText(_fill(self.tr("第 %1 台的成绩未改动"), change[0]))

    def _move_to_next_empty(self, *, after: int) -> None:
        rows = len(self.model.lines)
        if not rows:
            return
        start = self.model.row_of_board(after)
        start = -1 if start is None else start
        for step in range(1, rows + 1):
            row = (start + step) % rows
            if self.model.line(row).result.is_pending:
                break
        else:
            row = min(start + 1, rows - 1)
        index = self.model.index(row, RESULT_COLUMN)
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)

    def current_board(self) -> int | None:
        index = self.table.currentIndex()
        return self.model.line(index.row()).board if self.model.is_board(index.row()) else None

    # ------------------------------------------------------------------ the entry box

    def _boards(self) -> list[int]:
        return [line.board for line in self.model.lines]

    def _describe(self, reading: Reading) -> str:
        """How the entry box reads: "公开组 第 2 轮 第 12 台 张三 — 李四 红胜", and the board's result if it has one."""
        board = reading.board if reading.board is not None else self.current_board()
        if board is None:
            return self.tr("没有选中的台次")
        row = self.model.row_of_board(board)
        if row is None:
            return _fill(self.tr("本轮没有第 %1 台"), board)
        line = self.model.line(row)
        before = line.result
        if reading.result.is_pending:  # the board alone (逐台录入 shows where the next key goes)
            text = self.board_words(line)
            if not before.is_pending:
                text += _fill(self.tr("（现为 %1）"), result_name(before))
            return text
        text = f"{self.board_words(line)} {result_name(reading.result)}"
        if not before.is_pending and before is not reading.result:
            text += _fill(self.tr("（现为 %1，将询问）"), result_name(before))
        return text

    def _submitted(self, reading: Reading) -> None:
        board = reading.board if reading.board is not None else self.current_board()
        if board is None:
            self.show_error(
                UserError(
                    "光标不在对局上（轮空、请假没有成绩），未录入",
                    "the cursor is not on a board (a bye or an excused player has no result); nothing entered",
                )
            )
            self.entry_box.done(False)
            return
        ok = self.enter(board, reading.result)
        if not self.entry_box.confirming:
            self.entry_box.done(ok)

    def _navigate(self, key: int) -> None:
        """Up/Down/PageUp/PageDown in the entry box move the table's cursor; the focus stays in the box."""
        QApplication.sendEvent(
            self.table, QKeyEvent(QEvent.Type.KeyPress, Qt.Key(key), Qt.KeyboardModifier.NoModifier)
        )
        self.entry_box.show_reading()

    def _typed_elsewhere(self, event: QKeyEvent) -> None:
        """A key typed while the table, the records list or a button had the focus: into the box."""
        if not self.entry.isEnabled():
            return
        self.focus_entry()
        QApplication.sendEvent(self.entry, event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched in self._routed
            and isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and typed_text(event)
        ):
            self._typed_elsewhere(QKeyEvent(event.type(), event.key(), event.modifiers(), event.text()))
            return True
        return super().eventFilter(watched, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Keys no child took (a button or the tabs had the focus) go to the entry box as well."""
        if typed_text(event) and event.text() != " ":
            self._typed_elsewhere(QKeyEvent(event.type(), event.key(), event.modifiers(), event.text()))
            return
        super().keyPressEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()
        QTimer.singleShot(0, self.focus_entry)

    def show_error(self, error: UserError) -> None:
        text = error.en if current_language() == "en" else error.zh
        self.message.setText(f"<span style='color:#b22222'>{text}</span>")

    def focus_entry(self) -> None:
        """The keyboard goes back to the entry box (when the view is shown and a round is open)."""
        if self.isVisible() and self.entry.isEnabled():
            self.entry.setFocus(Qt.FocusReason.OtherFocusReason)

    # ------------------------------------------------------------------ names

    def names(self) -> dict[int, str]:
        """The names of the round's players by number (for the questions and messages)."""
        names: dict[int, str] = {}
        if self.view is not None:
            for line in self.view.boards:
                names[line.red.no], names[line.black.no] = line.red.name, line.black.name
            for seat in self.view.byes:
                names[seat.no] = seat.name
        return names

    def run_command(self, command: ServiceCommand) -> bool:
        """Run an undoable action; a refusal is shown below the table and nothing is pushed."""
        try:
            perform(self.document, command)
        except UserError as error:
            self.show_error(error)
            return False
        return True
