"""团体赛 Team matches: a round's matches with the boards under each, line-up entry and results by board,
from the keyboard, with the match score read back after every entry.

Two entry boxes, keyboard first (Tab goes from one to the other):

* **排阵** (line-up): the team number, then the players board by board — ``3 301 302 304 305``
  (a dash leaves a board empty). Enter hands it in; a line-up out of the registered order, a player of
  another team or one who withdrew is refused with the reason.
* **成绩** (results): the match, the board and the result key — ``2 3 1`` (match 2, board 3, Red wins);
  keys as on the pairing page: ``1`` red wins, ``0`` black wins, ``=`` or ``5`` draw, ``+`` black
  forfeits, ``-`` red forfeits, ``*`` both forfeit. ``2 1 加 =`` enters the next tie-break game of board 1
  (``加`` or ``t``). After every result the match's 局分 (and 场分 once decided) is shown.

* A team that does not appear: ``2 主 不到场`` (or ``2 客 不到场``; ``h``/``a`` and ``absent`` too) forfeits
  every board of match 2; ``2 主 到场`` takes it back.
* A tie-break game whose colours a player chooses takes Red's number last: ``2 1 加 = 305``.

The buttons pair the next round (编排下一轮), set the round's boards (生成对阵单: a team without a line-up
plays by the regulation's rule) and close the round. Board results, tie-break games and no-shows can be
undone (Ctrl+Z) and redone.

Under the title, the round's line-up deadline (排阵截止, ``match.lineup_deadline`` minutes before the round's
announced start) with the time left or how long ago it passed, updated every half minute. A line-up typed
after it asks for the chief arbiter's reason (:mod:`app.ui.dialogs.late_lineup`); without one it is refused
and the team plays by the regulation's default. 队伍名单 (F6, the window's action) opens the roster editor
(:mod:`app.ui.dialogs.team_roster`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.engine.team_match import MatchScore, Side
from app.engine.team_rules import LineupDeadline
from app.engine.types import GameResult, UserError
from app.services import team_events
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language
from app.ui.undo import ServiceCommand, perform
from app.ui.views.live import LiveView, error_text, show_message

KEYS = {
    "1": GameResult.RED_WIN,
    "0": GameResult.BLACK_WIN,
    "=": GameResult.DRAW,
    "5": GameResult.DRAW,
    "+": GameResult.BLACK_FORFEIT,
    "-": GameResult.RED_FORFEIT,
    "*": GameResult.DOUBLE_FORFEIT,
}
_RED = QColor("#b00000")


def parse_result(text: str) -> GameResult:
    """A result key (``1 0 = 5 + - *``) or a code (``1-0``, ``0-1`` …)."""
    key = text.strip()
    if key in KEYS:
        return KEYS[key]
    return GameResult.from_code(key)


_TIE_WORDS = ("加", "加赛", "t", "T")
_SIDES = {"主": Side.HOME, "主队": Side.HOME, "h": Side.HOME, "H": Side.HOME}
_SIDES |= {"客": Side.AWAY, "客队": Side.AWAY, "a": Side.AWAY, "A": Side.AWAY}
_ABSENT = {"不到场": True, "缺席": True, "absent": True, "到场": False, "present": False}


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One line typed in the results box: a board's result, a tie-break game or a team's no-show."""

    match: int
    board: int = 0
    result: GameResult = GameResult.PENDING
    tie: bool = False
    red: int | None = None  # a tie-break game whose colours a player chooses: Red's number
    side: Side | None = None  # a no-show: which team
    absent: bool = True


_SHAPE = UserError(
    "请按“场次 台次 结果”输入，如 2 3 1（第 2 场第 3 台红胜）；加赛：2 1 加 =；未到场：2 主 不到场",
    "type: match board result, e.g. 2 3 1 (match 2, board 3, Red wins); tie-break: 2 1 t =; "
    "no-show: 2 h absent",
)


def parse_result_line(text: str) -> ResultLine:
    """``2 3 1`` → match 2, board 3, Red wins; ``2 1 加 =`` → board 1's next tie-break game (``2 1 加 = 305``:
    player 305 takes Red); ``2 主 不到场`` → the home team of match 2 did not appear."""
    parts = text.replace("，", " ").replace(",", " ").split()
    if len(parts) == 3 and parts[0].isdigit() and parts[1] in _SIDES and parts[2] in _ABSENT:
        return ResultLine(int(parts[0]), side=_SIDES[parts[1]], absent=_ABSENT[parts[2]])
    tie = False
    red: int | None = None
    if len(parts) in (4, 5) and parts[2] in _TIE_WORDS:
        tie = True
        if len(parts) == 5:
            if not parts[4].isdigit():
                raise _SHAPE
            red = int(parts[4])
        parts = [parts[0], parts[1], parts[3]]
    if len(parts) == 2 and len(parts[1]) > 1 and parts[1][-1] in KEYS and parts[1][:-1].isdigit():
        parts = [parts[0], parts[1][:-1], parts[1][-1]]  # "2 31" = match 2, board 3, Red wins
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
        raise _SHAPE
    return ResultLine(int(parts[0]), int(parts[1]), parse_result(parts[2]), tie=tie, red=red)


def parse_lineup_line(text: str) -> tuple[str, list[int | str | None]]:
    """``3 301 302 - 305`` → (team 3, [301, 302, None, 305]); the team may be its name."""
    parts = text.replace("，", " ").replace(",", " ").split()
    if len(parts) < 2:
        raise UserError(
            "请按“队号 一台 二台 ……”输入，如 3 301 302 304 305（- 表示空台）",
            "type: team board1 board2 …, e.g. 3 301 302 304 305 (- for an empty board)",
        )
    return parts[0], [None if p in ("-", "空") else p for p in parts[1:]]


class TeamBoardResultCommand(ServiceCommand):
    """A board's result, undone by putting the result before back."""

    def __init__(
        self,
        document: TournamentDocument,
        number: int,
        match: int,
        board: int,
        result: GameResult,
        before: GameResult,
        text: str,
    ) -> None:
        super().__init__(document, text)
        self.group, self.number, self.match, self.board = document.group, number, match, board
        self.result, self.before = result, before
        self.score_text = ""

    def apply(self) -> None:
        score = team_events.enter_board_result(
            self.document.db, self.group, self.number, self.match, self.board, self.result
        )
        self.score_text = score_text(self.match, score)

    def revert(self) -> None:
        team_events.enter_board_result(
            self.document.db, self.group, self.number, self.match, self.board, self.before
        )


class TeamLineupCommand(ServiceCommand):
    """A team's line-up handed in (排阵), undone by putting back exactly the line-up stored before (or none),
    redone by putting back the one handed in — both through :func:`team_events.restore_lineup`, so the
    deadline is judged once, when the line-up is first handed in."""

    def __init__(
        self,
        document: TournamentDocument,
        number: int,
        team: str,
        players: list[int | str | None],
        now: datetime,
        override: str,
        text: str,
    ) -> None:
        super().__init__(document, text)
        self.group, self.number, self.team = document.group, number, team
        self.players, self.now, self.override = players, now, override
        self.before: team_events.LineupRecord | None = None
        self.after: team_events.LineupRecord | None = None
        self.boards: tuple[int | None, ...] = ()

    def apply(self) -> None:
        db = self.document.db
        if self.after is not None:  # a redo: the line-up as it was handed in
            team_events.restore_lineup(db, self.group, self.number, self.team, self.after)
            return
        before = team_events.lineup_record(db, self.group, self.number, self.team)
        self.boards = team_events.hand_in_lineup(
            db, self.group, self.number, self.team, self.players, now=self.now, override=self.override
        )
        self.before = before
        self.after = team_events.lineup_record(db, self.group, self.number, self.team)

    def revert(self) -> None:
        team_events.restore_lineup(self.document.db, self.group, self.number, self.team, self.before)


class TeamTieGameCommand(ServiceCommand):
    """A board's next tie-break game, undone by deleting the board's last tie-break game."""

    def __init__(self, document: TournamentDocument, number: int, line: ResultLine, text: str) -> None:
        super().__init__(document, text)
        self.group, self.number, self.line = document.group, number, line
        self.score_text = ""

    def apply(self) -> None:
        line = self.line
        score = team_events.enter_tie_game(
            self.document.db, self.group, self.number, line.match, line.board, line.result, red=line.red
        )
        self.score_text = score_text(line.match, score)

    def revert(self) -> None:
        team_events.remove_last_tie_game(
            self.document.db, self.group, self.number, self.line.match, self.line.board
        )


class TeamAbsentCommand(ServiceCommand):
    """A team that did not appear (every board forfeited), undone by taking it back."""

    def __init__(self, document: TournamentDocument, number: int, line: ResultLine, text: str) -> None:
        super().__init__(document, text)
        self.group, self.number, self.line = document.group, number, line
        self.score_text = ""

    def _set(self, absent: bool) -> None:
        assert self.line.side is not None
        score = team_events.set_team_absent(
            self.document.db, self.group, self.number, self.line.match, self.line.side, absent
        )
        self.score_text = score_text(self.line.match, score)

    def apply(self) -> None:
        self._set(self.line.absent)

    def revert(self) -> None:
        self._set(not self.line.absent)


def score_text(match: int, score: MatchScore) -> str:
    """``第 2 场 局分 5:3，场分 2:0（主队胜）`` — the score read back after an entry."""
    reason = score.reason_zh.removeprefix(f"局分 {score.label}，")
    if score.decided:
        mp = f"{score.home_match_points}:{score.away_match_points}"
        return f"第 {match} 场 局分 {score.label}，场分 {mp}（{reason}）"
    return f"第 {match} 场 局分 {score.label}（{reason}）"


class TeamMatchesView(LiveView):
    COLUMNS = ("场次 / 台次", "主队", "客队", "结果", "局分")

    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.title = QLabel(self)
        self.title.setStyleSheet("font-weight: bold")
        self.round_box = QComboBox(self)
        self.round_box.currentIndexChanged.connect(lambda _i: self._fill())
        self.pair_button = QPushButton(self.tr("编排下一轮"), self)
        self.pair_button.clicked.connect(self.pair_next)
        self.seat_button = QPushButton(self.tr("生成对阵单"), self)
        self.seat_button.clicked.connect(self.seat_round)
        self.close_button = QPushButton(self.tr("结束本轮"), self)
        self.close_button.clicked.connect(self.close_round)
        self.roster_button = QPushButton(self.tr("队伍名单(F6)…"), self)
        self.roster_button.clicked.connect(self.edit_rosters)
        self.roster_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        # F6 is the window's 编辑 → 队伍名单 (one key everywhere); here it opens the editor over this view
        self.roster_dialog: QWidget | None = None
        #: the clock the deadline is read against (a test sets its own)
        self.clock: Callable[[], datetime] = datetime.now
        self.deadline: LineupDeadline | None = None
        self.deadline_label = QLabel(self)
        self._deadline_timer = QTimer(self)
        self._deadline_timer.setInterval(30_000)
        self._deadline_timer.timeout.connect(self._show_deadline)
        self._deadline_timer.start()
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addStretch(1)
        top.addWidget(QLabel(self.tr("轮次："), self))
        top.addWidget(self.round_box)
        for button in (self.pair_button, self.seat_button, self.close_button, self.roster_button):
            top.addWidget(button)
        self.tree = QTreeWidget(self)
        self.tree.setColumnCount(len(self.COLUMNS))
        self.tree.setHeaderLabels([self.tr(c) for c in self.COLUMNS])
        self.tree.setAlternatingRowColors(True)
        self.tree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.lineup_entry = QLineEdit(self)
        self.lineup_entry.setPlaceholderText(
            self.tr("队号 一台 二台 ……，如 3 301 302 304 305（- 为空台），回车交排阵")
        )
        self.lineup_entry.returnPressed.connect(self.lineup_entered)
        self.result_entry = QLineEdit(self)
        self.result_entry.setPlaceholderText(self.tr("场次 台次 结果，如 2 3 1；加赛：2 1 加 =；回车录入"))
        self.result_entry.returnPressed.connect(self.result_entered)
        form = QFormLayout()
        form.addRow(self.tr("排阵："), self.lineup_entry)
        form.addRow(self.tr("成绩："), self.result_entry)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.legend = QLabel(
            self.tr("结果键：1 红胜　0 黑胜　= 或 5 和　+ 黑方弃权　- 红方弃权　* 双方弃权（按红方记）"), self
        )
        self.legend.setStyleSheet("color: #555")
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.deadline_label)
        layout.addWidget(self.tree, 1)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(self.legend)
        self.setTabOrder(self.lineup_entry, self.result_entry)

    # ------------------------------------------------------------------ reading

    def _team_group(self) -> bool:
        try:
            return team_events.is_team_group(self.document.db, self.document.group)
        except UserError:
            return False

    def _numbers(self) -> list[int]:
        try:
            return team_events.team_round_numbers(self.document.db, self.document.group)
        except UserError:
            return []

    def refresh(self) -> None:
        team = self._team_group()
        for w in (
            self.pair_button,
            self.seat_button,
            self.close_button,
            self.roster_button,
            self.lineup_entry,
            self.result_entry,
        ):
            w.setEnabled(team and not self.document.read_only)
        if not team:
            self.title.setText(self.tr("%1 团体赛").replace("%1", self.document.group))
            self.tree.clear()
            show_message(self.message, self.tr("本组别不是团体赛（规程中没有 team_event）。"))
            return
        numbers = self._numbers()
        current = self.round_box.currentData()
        self.round_box.blockSignals(True)
        self.round_box.clear()
        for n in numbers:
            self.round_box.addItem(self.tr("第 %1 轮").replace("%1", str(n)), n)
        if numbers:
            self.round_box.setCurrentIndex(numbers.index(current) if current in numbers else len(numbers) - 1)
        self.round_box.blockSignals(False)
        self._fill()
        if self.isVisible():
            self.result_entry.setFocus()

    @property
    def round_number(self) -> int | None:
        value = self.round_box.currentData()
        return int(value) if value is not None else None

    def _fill(self) -> None:
        self.tree.clear()
        number = self.round_number
        group = self.document.group
        self.deadline = None
        self.deadline_label.clear()
        if number is None:
            self.title.setText(self.tr("%1 团体赛：尚未编排").replace("%1", group))
            return
        try:
            view = team_events.team_round_view(self.document.db, group, number)
            self.deadline = team_events.round_lineup_deadline(self.document.db, group, number)
        except UserError as error:
            show_message(self.message, error_text(error), error=True)
            return
        self.title.setText(
            self.tr("%1 第 %2 轮（每场 %3 台，%4）")
            .replace("%1", group)
            .replace("%2", str(number))
            .replace("%3", str(view.boards_per_match))
            .replace("%4", view.tie_rule_zh)
        )
        for m in view.matches:
            item = QTreeWidgetItem(self.tree)
            if m.bye:
                item.setText(0, self.tr("第 %1 场").replace("%1", str(m.number)))
                item.setText(1, m.home)
                item.setText(3, self.tr("轮空"))
                continue
            first = m.boards[0].table if m.boards else 0
            tables = f"（{first}–{first + len(m.boards) - 1}台）" if m.boards else ""
            item.setText(0, self.tr("第 %1 场").replace("%1", str(m.number)) + tables)
            item.setText(1, f"{m.home_no}号 {m.home}")
            item.setText(2, f"{m.away_no}号 {m.away}")
            absent = [side.zh for side, a in ((Side.HOME, m.home_absent), (Side.AWAY, m.away_absent)) if a]
            if absent:
                item.setText(3, self.tr("%1不到场，各台按弃权计").replace("%1", "、".join(absent)))
            elif not m.seated:
                handed = [self.tr("已交") if x else self.tr("未交") for x in m.lineups_in]
                item.setText(
                    3, self.tr("排阵：主队%1，客队%2").replace("%1", handed[0]).replace("%2", handed[1])
                )
            elif m.score is not None and m.score.decided:
                item.setText(3, m.score.reason_zh.removeprefix(f"局分 {m.score.label}，"))
            else:
                item.setText(3, self.tr("进行中"))
            item.setText(4, m.score_label)
            font = item.font(0)
            font.setBold(True)
            for col in range(len(self.COLUMNS)):
                item.setFont(col, font)
            for b in m.boards:
                child = QTreeWidgetItem(item)
                child.setText(0, f"{b.table}台（{b.board}）")
                for col, seat, red in ((1, b.home, b.home_red), (2, b.away, not b.home_red)):
                    name = (
                        f"{seat.no} {seat.name}"
                        if seat.no is not None
                        else (self.tr("空台") if m.seated else "")
                    )
                    child.setText(col, f"{'红' if red else '黑'} {name}")
                    if red:
                        child.setForeground(col, QBrush(_RED))
                result = "" if b.result is GameResult.PENDING else b.result.zh
                if b.due is not None:
                    result += (
                        self.tr("　待加赛第 %1 局 %2")
                        .replace("%1", str(b.due.number))
                        .replace("%2", b.due.kind.zh)
                    )
                child.setText(3, result)
                child.setText(4, "" if b.points is None else f"{b.points[0]}:{b.points[1]}")
                for t in b.ties:
                    tie = QTreeWidgetItem(child)
                    tie.setText(
                        0,
                        self.tr("加赛 %1 %2").replace("%1", str(t.number)).replace("%2", t.kind_zh)
                        + t.time_control,
                    )
                    tie.setText(1, f"红 {t.red.no} {t.red.name}")
                    tie.setText(2, f"黑 {t.black.no} {t.black.name}")
                    tie.setText(3, t.result.zh)
        self._show_deadline()
        self.tree.expandAll()
        for col in range(len(self.COLUMNS)):
            self.tree.resizeColumnToContents(col)

    # ------------------------------------------------------------------ actions

    def _act(self, action: Callable[[], str]) -> None:
        try:
            text = action()
        except UserError as error:
            show_message(self.message, error_text(error), error=True)
            return
        self.document.notify()
        show_message(self.message, text)

    def pair_next(self) -> None:
        def act() -> str:
            out = team_events.pair_team_round(self.document.db, self.document.group)
            self.round_box.blockSignals(True)
            self.round_box.addItem(self.tr("第 %1 轮").replace("%1", str(out.number)), out.number)
            self.round_box.setCurrentIndex(self.round_box.count() - 1)
            self.round_box.blockSignals(False)
            bye = self.tr("，%1 轮空").replace("%1", out.bye) if out.bye else ""
            return (
                self.tr("第 %1 轮已编排：%2 场%3")
                .replace("%1", str(out.number))
                .replace("%2", str(len(out.matches)))
                .replace("%3", bye)
            )

        self._act(act)
        self.lineup_entry.setFocus()

    def seat_round(self) -> None:
        number = self.round_number
        if number is None:
            return

        def act() -> str:
            notes = team_events.seat_team_round(
                self.document.db, self.document.group, number, now=self.clock()
            )
            return "；".join((self.tr("对阵单已生成"), *notes))

        self._act(act)
        self.result_entry.setFocus()

    def close_round(self) -> None:
        number = self.round_number
        if number is None:
            return

        def act() -> str:
            warning = team_events.close_team_round(self.document.db, self.document.group, number)
            return self.tr("第 %1 轮已结束").replace("%1", str(number)) + (
                f"（{warning}）" if warning else ""
            )

        self._act(act)

    def _show_deadline(self) -> None:
        """The round's line-up deadline and the time left (or passed), red once passed."""
        deadline = self.deadline
        if deadline is None:
            self.deadline_label.clear()
            return
        now = self.clock()
        english = current_language() == "en"
        text = deadline.status_en(now) if english else deadline.status_zh(now)
        colour = "#b22222" if deadline.passed(now) else "#1f5f2f"
        self.deadline_label.setText(f"<span style='color:{colour}'>{text}</span>")

    def edit_rosters(self) -> None:
        """队伍名单: the roster editor, over the window (keys typed while it opens are discarded)."""
        from app.ui.dialogs.team_roster import open_roster_editor

        self.roster_dialog = open_roster_editor(self.document, self, self._roster_closed)

    def _roster_closed(self, dialog: QWidget) -> None:
        if self.roster_dialog is dialog:
            self.roster_dialog = None
        self.lineup_entry.setFocus()

    def lineup_entered(self) -> None:
        number = self.round_number
        if number is None:
            return
        now = self.clock()
        override = ""
        try:
            team, players = parse_lineup_line(self.lineup_entry.text())
            text = self.tr("第 %1 轮 %2 队排阵").replace("%1", str(number)).replace("%2", team)
            command = TeamLineupCommand(self.document, number, team, players, now, "", text)
            try:
                perform(self.document, command)
            except UserError as error:
                if self.deadline is None or not self.deadline.passed(now):
                    raise
                from app.ui.dialogs.late_lineup import ask_override

                override = ask_override(self, error_text(error))
                if not override:
                    raise
                command = TeamLineupCommand(self.document, number, team, players, now, override, text)
                perform(self.document, command)
        except UserError as error:
            show_message(self.message, error_text(error), error=True)
            return
        self.lineup_entry.clear()
        nos = command.boards
        boards = "　".join(f"{i}台 {n or '空'}" for i, n in enumerate(nos, start=1))
        text = self.tr("排阵已收：%1").replace("%1", f"{team} {boards}")
        if override:
            text += self.tr("（迟交，经裁判长放行：%1）").replace("%1", override)
        show_message(self.message, text)

    def result_entered(self) -> None:
        number = self.round_number
        if number is None:
            return
        try:
            line = parse_result_line(self.result_entry.text())
            command: TeamBoardResultCommand | TeamTieGameCommand | TeamAbsentCommand
            if line.side is not None:
                word = self.tr("不到场") if line.absent else self.tr("到场")
                text = self.tr("第 %1 场%2%3").replace("%1", str(line.match))
                text = text.replace("%2", line.side.zh).replace("%3", word)
                command = TeamAbsentCommand(self.document, number, line, text)
            elif line.tie:
                text = self.tr("第 %1 场第 %2 台加赛 %3").replace("%1", str(line.match))
                text = text.replace("%2", str(line.board)).replace("%3", line.result.zh)
                command = TeamTieGameCommand(self.document, number, line, text)
            else:
                before = self._board_result(number, line.match, line.board)
                text = self.tr("第 %1 场第 %2 台 %3").replace("%1", str(line.match))
                text = text.replace("%2", str(line.board)).replace("%3", line.result.zh)
                command = TeamBoardResultCommand(
                    self.document, number, line.match, line.board, line.result, before, text
                )
            perform(self.document, command)
        except UserError as error:
            show_message(self.message, error_text(error), error=True)
            return
        self.result_entry.clear()
        show_message(self.message, command.score_text)

    def _board_result(self, number: int, match: int, board: int) -> GameResult:
        view = team_events.team_round_view(self.document.db, self.document.group, number)
        for m in view.matches:
            if m.number == match:
                for b in m.boards:
                    if b.board == board:
                        return b.result
        return GameResult.PENDING
