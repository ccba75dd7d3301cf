"""The actions on one board of the rounds view (本台操作): pairing edits, explanations, discipline.

:class:`BoardActions` builds the board's menu and runs what the arbiter picks there as undoable
commands. It asks its questions through the view's ``ask_*``/``confirm_*`` methods (tests answer
them there) and writes its outcome on the view's message line. The strings are the rounds view's
(translation context ``RoundsView``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Protocol

from PySide6.QtCore import QPoint
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QMenu,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import UserError, ViolationKind
from app.services import discipline
from app.services import rounds as rounds_service
from app.services.overrides import OverridePreview, SetPair, SwapColours, SwapPlayers, preview_override
from app.services.registration import list_players
from app.services.rounds import RoundView, Seat
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language, tr, translate_noop
from app.ui.models.pairings import PairingTableModel
from app.ui.undo import (
    Change,
    DisqualifyCommand,
    GameDecisionCommand,
    OverrideCommand,
    ServiceCommand,
    ViolationCommand,
    WithdrawCommand,
)

#: Violations the arbiter may record with 记犯规 (the others have their own actions).
VIOLATION_CHOICES = (
    ViolationKind.OTHER,
    ViolationKind.REFUSED_RECORD,
    ViolationKind.SHORT_DRAW_RECORD,
    ViolationKind.LATE,
    ViolationKind.LEFT_TABLE,
    ViolationKind.PHONE,
)
_VIOLATION_NAMES = {
    ViolationKind.OTHER: translate_noop("Violations", "其他犯规"),
    ViolationKind.REFUSED_RECORD: translate_noop("Violations", "拒不录谱"),
    ViolationKind.SHORT_DRAW_RECORD: translate_noop("Violations", "和棋录谱不足回合"),
    ViolationKind.LATE: translate_noop("Violations", "迟到"),
    ViolationKind.LEFT_TABLE: translate_noop("Violations", "擅自离席"),
    ViolationKind.PHONE: translate_noop("Violations", "手机带入赛场"),
}


def violation_name(kind: ViolationKind) -> str:
    return tr("Violations", _VIOLATION_NAMES[kind]) if kind in _VIOLATION_NAMES else kind.zh


def fill(text: str, *values: object) -> str:
    """``%1``, ``%2`` … of a translated text replaced by ``values``."""
    for i, value in enumerate(values, start=1):
        text = text.replace(f"%{i}", str(value))
    return text


class OverrideDialog(QDialog):
    """The pairing after a manual change, the rules it breaks, and the arbiter's reason.

    The reason is required when a rule breaks (the service refuses otherwise); OK stays disabled
    until one is typed.
    """

    def __init__(self, title: str, lines: Sequence[str], breaks: Sequence[str], parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("改动后的对阵："), self))
        layout.addWidget(QLabel("\n".join(lines) or "—", self))
        self.needs_reason = bool(breaks)
        if breaks:
            warning = QLabel(
                "<span style='color:#b22222'>"
                + self.tr("此改动违反编排规则：")
                + "<br>"
                + "<br>".join(f"• {b}" for b in breaks)
                + "</span>",
                self,
            )
            warning.setWordWrap(True)
            layout.addWidget(warning)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(
            self.tr("理由（违反规则时必填）") if breaks else self.tr("理由（可不填）")
        )
        layout.addWidget(self.reason)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(self.tr("确认改动"))
        self.reason.textChanged.connect(self._reason_changed)
        self._reason_changed("")
        layout.addWidget(buttons)

    def _reason_changed(self, text: str) -> None:
        self.ok.setEnabled(not self.needs_reason or bool(text.strip()))


class ReasonDialog(QDialog):
    """A reason (required: OK waits for one), and before it, when given, a choice (a violation's kind,
    what becomes of the games …). The choice stays as made while the reason is still missing."""

    def __init__(
        self,
        title: str,
        label: str,
        parent: QWidget,
        *,
        choice_label: str = "",
        choices: Sequence[str] = (),
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        self.choice = QComboBox(self)
        self.choice.addItems(list(choices))
        if choices:
            layout.addWidget(QLabel(choice_label, self))
            layout.addWidget(self.choice)
        else:
            self.choice.hide()
        layout.addWidget(QLabel(label, self))
        self.reason = QLineEdit(self)
        self.reason.setMinimumWidth(self.reason.fontMetrics().horizontalAdvance("理由") * 12)
        layout.addWidget(self.reason)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.reason.textChanged.connect(lambda text: self.ok.setEnabled(bool(text.strip())))
        self.ok.setEnabled(False)
        layout.addWidget(buttons)
        (self.choice if choices else self.reason).setFocus()

    def accept(self) -> None:
        if self.reason.text().strip():  # Enter with no reason yet: the dialog stays, choice and all
            super().accept()


class RoundsHost(Protocol):
    """What the board's actions need of the rounds view: the round shown, its table and message line,
    running an undoable command, and the questions (answered there by the arbiter, or by a test)."""

    @property
    def document(self) -> TournamentDocument: ...
    @property
    def round_number(self) -> int: ...
    @property
    def view(self) -> RoundView | None: ...
    @property
    def model(self) -> PairingTableModel: ...
    @property
    def table(self) -> QTableView: ...
    @property
    def message(self) -> QLabel: ...

    def then_focus(self, action: Callable[[], object]) -> None: ...
    def show_error(self, error: UserError) -> None: ...
    def run_command(self, command: ServiceCommand) -> bool: ...
    def names(self) -> dict[int, str]: ...
    def ask_text(self, title: str, label: str) -> str | None: ...
    def ask_number(self, title: str, label: str) -> int | None: ...
    def ask_choice_and_reason(
        self, title: str, choice_label: str, items: Sequence[str], label: str
    ) -> tuple[int, str] | None: ...
    def confirm_override(self, title: str, preview: OverridePreview) -> str | None: ...
    def inform(self, title: str, text: str) -> None: ...


class BoardActions:
    """The menu of one board and its actions, on the round the view shows."""

    def __init__(self, view: RoundsHost) -> None:
        self.view = view

    @property
    def document(self) -> TournamentDocument:
        return self.view.document

    # ------------------------------------------------------------------ the board's menu

    def menu_for_current_row(self) -> None:
        table = self.view.table
        index = table.currentIndex()
        if index.isValid():
            rect = table.visualRect(index)
            self.show_menu(index.row(), table.viewport().mapToGlobal(rect.center()))

    def show_menu(self, row: int, where: QPoint) -> None:
        self.board_menu(row).exec(where)

    def board_menu(self, row: int) -> QMenu:
        """The actions on one board: pairing edits, explanations and discipline for Red and Black."""
        view = self.view
        line = view.model.line(row)
        menu = QMenu(view.table)
        swiss = line.match is None
        open_round = view.view is not None and not view.view.closed

        def add(
            target: QMenu, name: str, text: str, slot: Callable[[], object], enabled: bool = True
        ) -> None:
            action = QAction(text, target)
            action.setObjectName(name)
            action.setEnabled(enabled)
            action.triggered.connect(lambda _checked=False: view.then_focus(slot))
            target.addAction(action)

        add(
            menu,
            "swap_colours",
            tr("RoundsView", "交换先后手"),
            lambda: self.swap_colours(line.board),
            swiss and open_round,
        )
        add(
            menu,
            "agreed_result",
            tr("RoundsView", "协商结果（双方弃权）…"),
            lambda: self.agreed_result(line.board),
            open_round,
        )
        for side, seat in (("red", line.red), ("black", line.black)):
            label = tr("RoundsView", "红方") if side == "red" else tr("RoundsView", "黑方")
            sub = menu.addMenu(f"{label}：{seat.no} {seat.name}")
            sub.setObjectName(side)
            add(
                sub,
                f"{side}:why",
                tr("RoundsView", "为什么是这个对手/这个颜色"),
                partial(self.explain, seat.no),
                swiss,
            )
            sub.addSeparator()
            add(
                sub,
                f"{side}:swap",
                tr("RoundsView", "交换两名棋手…"),
                partial(self.swap_players, seat.no),
                swiss and open_round,
            )
            add(
                sub,
                f"{side}:set_pair",
                tr("RoundsView", "指定对阵…"),
                partial(self.set_pair, seat.no),
                swiss and open_round,
            )
            sub.addSeparator()
            for kind, text in (
                (ViolationKind.LATE, tr("RoundsView", "迟到判负…")),
                (ViolationKind.LEFT_TABLE, tr("RoundsView", "离席判负…")),
                (ViolationKind.PHONE, tr("RoundsView", "手机判负…")),
            ):
                add(
                    sub,
                    f"{side}:{kind.value}",
                    text,
                    partial(self.forfeit, seat, line.board, kind),
                    open_round,
                )
            add(sub, f"{side}:violation", tr("RoundsView", "记犯规…"), partial(self.record_violation, seat))
            sub.addSeparator()
            add(sub, f"{side}:withdraw", tr("RoundsView", "退赛…"), partial(self.withdraw, seat))
            add(sub, f"{side}:disqualify", tr("RoundsView", "取消成绩…"), partial(self.disqualify, seat))
        return menu

    # ------------------------------------------------------------------ pairing edits

    def edit_pairing(self, change: Change, text: str) -> bool:
        """Preview ``change``, show the pairing after it and any broken rules, apply it on OK (undoable)."""
        view = self.view
        group, number = self.document.group, view.round_number
        try:
            preview = preview_override(self.document.db, group, number, change)
        except UserError as error:
            view.show_error(error)
            return False
        reason = view.confirm_override(text, preview)
        if reason is None:
            return False
        command = OverrideCommand(
            self.document, group, number, change, text, reason=reason, confirm=bool(preview.breaks)
        )
        if not view.run_command(command):
            return False
        view.message.setText(
            fill(tr("RoundsView", "%1：已改动第 %2 台"), text, "、".join(map(str, preview.changed_boards)))
        )
        return True

    def swap_colours(self, board: int) -> bool:
        return self.edit_pairing(SwapColours(board), fill(tr("RoundsView", "第 %1 台交换先后手"), board))

    def swap_players(self, no: int) -> bool:
        other = self.view.ask_number(
            tr("RoundsView", "交换两名棋手"), fill(tr("RoundsView", "与 %1 号交换位置的棋手序号："), no)
        )
        if other is None:
            return False
        return self.edit_pairing(
            SwapPlayers(no, other), fill(tr("RoundsView", "交换 %1 号与 %2 号"), no, other)
        )

    def set_pair(self, no: int) -> bool:
        other = self.view.ask_number(
            tr("RoundsView", "指定对阵"), fill(tr("RoundsView", "%1 号的对手（序号）："), no)
        )
        if other is None:
            return False
        return self.edit_pairing(SetPair(no, other), fill(tr("RoundsView", "指定 %1 号对 %2 号"), no, other))

    def explain(self, no: int) -> None:
        view = self.view
        try:
            text = rounds_service.pairing_explanation(
                self.document.db,
                self.document.group,
                view.round_number,
                no,
                english=current_language() == "en",
            )
        except UserError as error:
            view.show_error(error)
            return
        view.inform(tr("RoundsView", "编排说明"), f"{no} {view.names().get(no, '')}\n{text}")

    # ------------------------------------------------------------------ discipline

    def _decide_game(self, board: int, action: Callable[[], object], text: str) -> bool:
        command = GameDecisionCommand(
            self.document, self.document.group, self.view.round_number, board, action, text
        )
        if not self.view.run_command(command):
            return False
        self.view.message.setText(text)
        return True

    def forfeit(self, seat: Seat, board: int, kind: ViolationKind) -> bool:
        reason = self.view.ask_text(
            violation_name(kind), fill(tr("RoundsView", "%1 号 %2 判负的理由："), seat.no, seat.name)
        )
        if reason is None:
            return False
        group, number, db = self.document.group, self.view.round_number, self.document.db
        text = fill(
            tr("RoundsView", "第 %1 轮 %2 号 %3：%4判负"), number, seat.no, seat.name, violation_name(kind)
        )
        return self._decide_game(
            board, lambda: discipline.forfeit(db, group, number, seat.no, kind, reason), text
        )

    def agreed_result(self, board: int) -> bool:
        reason = self.view.ask_text(
            tr("RoundsView", "协商结果（双方弃权）"),
            fill(tr("RoundsView", "第 %1 台判双方弃权的理由："), board),
        )
        if reason is None:
            return False
        group, number, db = self.document.group, self.view.round_number, self.document.db
        text = fill(tr("RoundsView", "第 %1 轮第 %2 台：双方弃权"), number, board)
        return self._decide_game(
            board, lambda: discipline.agreed_result(db, group, number, board, reason), text
        )

    def record_violation(self, seat: Seat) -> bool:
        """记犯规: counted where its kind counts; undoable (undo removes it, logged)."""
        view = self.view
        answer = view.ask_choice_and_reason(
            tr("RoundsView", "记犯规"),
            fill(tr("RoundsView", "%1 号 %2 的犯规类型："), seat.no, seat.name),
            [violation_name(k) for k in VIOLATION_CHOICES],
            tr("RoundsView", "犯规的理由："),
        )
        if answer is None:
            return False
        chosen, reason = answer
        kind = VIOLATION_CHOICES[chosen]
        text = fill(tr("RoundsView", "已记录 %1 号 %2 犯规：%3"), seat.no, seat.name, violation_name(kind))
        command = ViolationCommand(
            self.document, self.document.group, seat.no, view.round_number, kind.value, reason, text
        )
        if not view.run_command(command):
            return False
        view.message.setText(text)
        return True

    def _player_id(self, no: int) -> int | None:
        for player in list_players(self.document.db, self.document.group):
            if player.no == no:
                return player.id
        return None

    def withdraw(self, seat: Seat) -> bool:
        view = self.view
        reason = view.ask_text(
            tr("RoundsView", "退赛"), fill(tr("RoundsView", "%1 号 %2 退赛的理由："), seat.no, seat.name)
        )
        if reason is None:
            return False
        player_id = self._player_id(seat.no)
        if player_id is None:
            return False
        text = fill(tr("RoundsView", "%1 号 %2 退赛"), seat.no, seat.name)
        if not view.run_command(WithdrawCommand(self.document, player_id, reason, text)):
            return False
        view.message.setText(text)
        return True

    def disqualify(self, seat: Seat) -> bool:
        """取消成绩 with the arbiter's choice for the games played; undoable (undo lifts it, logged)."""
        view = self.view
        choices = [tr("RoundsView", "已赛对局成绩有效"), tr("RoundsView", "已赛对局作废（对手按弃权胜计）")]
        answer = view.ask_choice_and_reason(
            tr("RoundsView", "取消成绩"),
            fill(tr("RoundsView", "取消 %1 号 %2 的成绩："), seat.no, seat.name),
            choices,
            tr("RoundsView", "取消成绩的理由："),
        )
        if answer is None:
            return False
        chosen, reason = answer
        text = fill(tr("RoundsView", "已取消 %1 号 %2 的成绩"), seat.no, seat.name)
        command = DisqualifyCommand(
            self.document, self.document.group, seat.no, ("stand", "annul")[chosen], reason, text
        )
        if not view.run_command(command):
            return False
        view.message.setText(text)
        return True
