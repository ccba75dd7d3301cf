"""淘汰赛 Bracket: the knockout drawn as a tree (rounds as columns, a box per match), and its actions:
产生淘汰赛对阵, the colour lot of a round (by the program with a recorded seed, or a physical draw
entered match by match) and the higher seed's colour choice for a deciding game. Results are entered
in the rounds view (the knockout boards are there); this view follows the document."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.engine.formats import GameKind
from app.engine.knockout import Bracket, ColourMethod, ColourState, DueGame, Feed, Match, MatchResult, Outcome
from app.engine.types import Colour, UserError
from app.services import knockout as knockout_service
from app.services.rounds import group_state
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language, tr, translate_noop
from app.ui.models.pairings import result_label
from app.ui.views.live import LiveView, error_text, show_message

BOX_WIDTH = 300
COLUMN_GAP = 56
ROW_GAP = 14
LINE = 19
MARGIN = 16

_KIND_NAMES = {
    "slow": translate_noop("BracketCanvas", "慢棋"),
    "rapid": translate_noop("BracketCanvas", "快棋"),
    "blitz": translate_noop("BracketCanvas", "超快棋"),
    "deciding": translate_noop("BracketCanvas", "附加赛"),
}


@dataclass(frozen=True, slots=True)
class MatchBox:
    """A match as drawn: where, and everything written in it."""

    code: str
    rect: QRectF
    title: str
    players: tuple[str, str]
    winner: int | None  # 0 / 1: which player line is the winner
    games: tuple[str, ...]
    note: str


class BracketCanvas(QWidget):
    """Paints the bracket; :meth:`set_bracket` lays it out."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.boxes: dict[str, MatchBox] = {}
        self.feeds: list[tuple[str, str, bool]] = []  # (from code, to code, winner feed)
        self.headers: list[tuple[float, str]] = []
        self._size = QSize(400, 200)

    def sizeHint(self) -> QSize:
        return self._size

    def minimumSizeHint(self) -> QSize:
        return self._size

    def set_bracket(self, bracket: Bracket | None, names: dict[int, str]) -> None:
        self.boxes, self.feeds, self.headers = {}, [], []
        if bracket is None:
            self._size = QSize(400, 200)
            self.setMinimumSize(self._size)
            self.update()
            return
        rounds = bracket.round_numbers
        due_by_code: dict[str, DueGame] = {}
        for number in rounds:
            for due in bracket.due_games(number):
                due_by_code[due.code] = due
        games_max = max((len(m.games) for m in bracket.matches), default=0)
        box_height = LINE * (4 + max(games_max, 1)) + 8
        # a double elimination is drawn in two bands: the winners' bracket and the grand final above,
        # the losers' bracket below; rounds are the columns of both
        bands = [[p for p in bracket.plans if p.side != "L"], [p for p in bracket.plans if p.side == "L"]]
        bands = [b for b in bands if b]
        tallest = [
            max((sum(1 for p in band if p.round_number == n) for n in rounds), default=0) for band in bands
        ]
        band_height = [t * (box_height + ROW_GAP) for t in tallest]
        gap = 40 if len(bands) > 1 else 0
        height = MARGIN * 2 + 28 + sum(band_height) + gap
        top = MARGIN + 28.0
        for band, h in zip(bands, band_height, strict=True):
            for c, number in enumerate(rounds):
                x = MARGIN + c * (BOX_WIDTH + COLUMN_GAP)
                if band is bands[0]:
                    self.headers.append((x, tr("BracketCanvas", "第 %1 轮").replace("%1", str(number))))
                plans = sorted((p for p in band if p.round_number == number), key=lambda p: p.board)
                if not plans:
                    continue
                slot = h / len(plans)
                for i, plan in enumerate(plans):
                    y = top + i * slot + (slot - box_height) / 2
                    rect = QRectF(x, y, BOX_WIDTH, box_height)
                    m = bracket.match(plan.code)
                    self.boxes[m.code] = self._box(bracket, m, rect, names, due_by_code.get(m.code))
            top += h + gap
        for plan in bracket.plans:
            for source in plan.sources:
                if isinstance(source, Feed):
                    self.feeds.append((source.match, plan.code, source.takes is Outcome.WINNER))
        width = MARGIN * 2 + len(rounds) * BOX_WIDTH + (len(rounds) - 1) * COLUMN_GAP
        self._size = QSize(int(width), int(height))
        self.setMinimumSize(self._size)
        self.update()

    def _box(
        self, bracket: Bracket, m: Match, rect: QRectF, names: dict[int, str], due: DueGame | None
    ) -> MatchBox:
        plan = bracket.plan(m.code)
        english = current_language() == "en"
        title = f"{m.code}  {plan.title_en if english else plan.title_zh}"
        if plan.winner_place is not None:
            title += tr("BracketCanvas", "（第 %1、%2 名）").replace("%1", str(plan.winner_place))
            title = title.replace("%2", str(plan.loser_place))

        def label(no: int | None, source: int | Feed) -> str:
            if no is None:
                if isinstance(source, Feed):
                    return source.label_en if english else source.label_zh
                return tr("BracketCanvas", "待定")
            seed = bracket.seed_rank(no)
            return f"[{seed}] {no} {names.get(no, '')}"

        players = (
            label(bracket.slot_player(m.code, 0), plan.sources[0]),
            label(bracket.slot_player(m.code, 1), plan.sources[1]),
        )
        result: MatchResult | None = (
            bracket.result(m.code) if m.high is not None or m.low is not None else None
        )
        winner = None
        if result is not None and result.winner is not None:
            winner = 0 if result.winner == m.high else 1
        games = []
        for g in m.games:
            # each step of a ladder has its own time control: show it on the game's line
            control = bracket.time_control_of(m.code, g.number).label
            kind = f"{tr('BracketCanvas', _KIND_NAMES[g.kind.value])} {control}"
            outcome = result_label(g.result) or tr("BracketCanvas", "未赛")
            games.append(
                tr("BracketCanvas", "第%1局 %2  红 %3 — 黑 %4   %5")
                .replace("%1", str(g.number))
                .replace("%2", kind)
                .replace("%3", str(g.red))
                .replace("%4", str(g.black))
                .replace("%5", outcome)
            )
        note = ""
        if result is not None:
            note = result.reason_en if english else result.reason_zh
        elif due is not None and due.colours is ColourState.LOT_NEEDED:
            note = tr("BracketCanvas", "待抽签定先后")
        elif due is not None and due.colours is ColourState.CHOICE_NEEDED:
            if due.kind is GameKind.DECIDING:
                note = tr("BracketCanvas", "附加赛待 %1 号选色").replace("%1", str(due.chooser))
            else:
                note = tr("BracketCanvas", "待 %1 号选先后手").replace("%1", str(due.chooser))
        elif (
            m.colour_method is ColourMethod.LOT
            and m.colour_seed is not None
            and all(g.result.is_pending for g in m.games)
        ):
            note = tr("BracketCanvas", "抽签种子 %1").replace("%1", str(m.colour_seed))
        return MatchBox(m.code, rect, title, players, winner, tuple(games), note)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor("#ffffff"))
        if not self.boxes:
            painter.end()
            return
        bold = QFont(self.font())
        bold.setBold(True)
        painter.setFont(bold)
        for x, text in self.headers:
            painter.drawText(QRectF(x, MARGIN, BOX_WIDTH, 24), int(Qt.AlignmentFlag.AlignCenter), text)
        for source, target, winner in self.feeds:
            a, b = self.boxes.get(source), self.boxes.get(target)
            if a is None or b is None:
                continue
            pen = QPen(QColor("#6b7a8f") if winner else QColor("#c0c0c0"), 1.4)
            if not winner:
                pen.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(pen)
            start = QPointF(a.rect.right(), a.rect.center().y())
            end = QPointF(b.rect.left(), b.rect.center().y())
            mid = (start.x() + end.x()) / 2
            painter.drawPolyline([start, QPointF(mid, start.y()), QPointF(mid, end.y()), end])
        normal = QFont(self.font())
        small = QFont(self.font())
        small.setPointSizeF(max(7.0, self.font().pointSizeF() - 1))
        for box in self.boxes.values():
            self._paint_box(painter, box, bold, normal, small)
        painter.end()

    def _paint_box(self, painter: QPainter, box: MatchBox, bold: QFont, normal: QFont, small: QFont) -> None:
        r = box.rect
        painter.setPen(QPen(QColor("#4a5a70"), 1.2))
        painter.setBrush(QBrush(QColor("#fbfcfe")))
        painter.drawRoundedRect(r, 4, 4)
        header = QRectF(r.left(), r.top(), r.width(), LINE + 2)
        painter.fillRect(header.adjusted(1, 1, -1, 0), QColor("#e4ebf5"))
        painter.setFont(bold)
        painter.setPen(QColor("#1c2a3a"))
        left = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        painter.drawText(header.adjusted(6, 0, -6, 0), left, box.title)
        y = r.top() + LINE + 4
        for i, text in enumerate(box.players):
            line = QRectF(r.left() + 1, y, r.width() - 2, LINE)
            if box.winner == i:
                painter.fillRect(line, QColor("#d8f0d8"))
                painter.setFont(bold)
                painter.setPen(QColor("#145214"))
            else:
                painter.setFont(normal)
                painter.setPen(QColor("#222222") if box.winner is None else QColor("#777777"))
            elided = QFontMetrics(painter.font()).elidedText(
                text, Qt.TextElideMode.ElideRight, int(r.width() - 14)
            )
            painter.drawText(line.adjusted(6, 0, -6, 0), left, elided)
            y += LINE
        painter.setPen(QPen(QColor("#d0d6de"), 1))
        painter.drawLine(QPointF(r.left() + 4, y + 1), QPointF(r.right() - 4, y + 1))
        painter.setFont(small)
        painter.setPen(QColor("#333333"))
        for text in box.games:
            painter.drawText(QRectF(r.left() + 6, y + 2, r.width() - 12, LINE), left, text)
            y += LINE - 2
        if box.note:
            painter.setPen(QColor("#8a5a00"))
            painter.drawText(
                QRectF(r.left() + 6, r.bottom() - LINE - 2, r.width() - 12, LINE), left, box.note
            )


class ManualDrawDialog(QDialog):
    """A physical colour draw entered per match: who drew Red in game 1."""

    def __init__(self, matches: list[Match], names: dict[int, str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("录入现场抽签"))
        form = QFormLayout(self)
        form.addRow(QLabel(self.tr("每场比赛第一局执红的棋手（“程序抽签”的比赛由程序抽签）："), self))
        self.choices: dict[str, QComboBox] = {}
        for m in matches:
            box = QComboBox(self)
            box.addItem(self.tr("程序抽签"), None)
            for no in m.players:
                box.addItem(
                    self.tr("%1 号 %2 执红").replace("%1", str(no)).replace("%2", names.get(no, "")), no
                )
            self.choices[m.code] = box
            form.addRow(m.code, box)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, parent=self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def manual(self) -> dict[str, int]:
        return {
            code: int(box.currentData())
            for code, box in self.choices.items()
            if box.currentData() is not None
        }


class BracketView(LiveView):
    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.bracket: Bracket | None = None
        self.names: dict[int, str] = {}
        self.create_button = QPushButton(self.tr("产生淘汰赛对阵"), self)
        self.create_button.clicked.connect(self.create_knockout)
        self.round_box = QComboBox(self)
        self.draw_button = QPushButton(self.tr("抽签定先后"), self)
        self.draw_button.setToolTip(self.tr("由程序抽签决定本轮各场第一局的先后手，记录抽签种子"))
        self.draw_button.clicked.connect(lambda: self.draw_colours())
        self.manual_button = QPushButton(self.tr("录入现场抽签……"), self)
        self.manual_button.clicked.connect(self.enter_physical_draw)
        self.choice_button = QPushButton(self.tr("附加赛选色……"), self)
        self.choice_button.clicked.connect(self.choose_colour)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.canvas = BracketCanvas(self)
        scroll = QScrollArea(self)
        scroll.setWidget(self.canvas)
        scroll.setWidgetResizable(False)
        scroll.setStyleSheet("QScrollArea { background: white; }")
        self.scroll_area = scroll
        top = QHBoxLayout()
        top.addWidget(self.create_button)
        top.addSpacing(16)
        top.addWidget(QLabel(self.tr("轮次："), self))
        top.addWidget(self.round_box)
        top.addWidget(self.draw_button)
        top.addWidget(self.manual_button)
        top.addWidget(self.choice_button)
        top.addStretch(1)
        hint = QLabel(self.tr("淘汰赛成绩在“编排”中按台次录入；绿色为胜者，虚线为负者的去向。"), self)
        hint.setStyleSheet("color: #555")
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(hint)
        layout.addWidget(self.message)
        layout.addWidget(scroll, 1)

    # ------------------------------------------------------------------ state

    def refresh(self) -> None:
        db, group = self.document.db, self.document.group
        self.bracket = knockout_service.bracket_of(db, group)
        self.names = {e.no: e.name for e in group_state(db, group).entrants} if self.bracket else {}
        self.canvas.set_bracket(self.bracket, self.names)
        fmt = self.document.info.regulations.group(group)
        has_knockout = any(st.kind.value == "knockout" for st in fmt.stages)
        self.create_button.setEnabled(self.bracket is None and has_knockout)
        keep = self.round_box.currentData()
        self.round_box.blockSignals(True)
        self.round_box.clear()
        for number in self.bracket.round_numbers if self.bracket else ():
            self.round_box.addItem(self.tr("第 %1 轮").replace("%1", str(number)), number)
        if keep is not None and self.round_box.findData(keep) >= 0:
            self.round_box.setCurrentIndex(self.round_box.findData(keep))
        elif self.bracket is not None:
            # the first round waiting for its lot, else the latest round whose players are known
            bracket = self.bracket
            waiting = [n for n in bracket.round_numbers if self.lot_open(n)]
            started = [
                n for n in bracket.round_numbers if any(m.players for m in bracket.matches_in_round(n))
            ]
            chosen = waiting[0] if waiting else (started[-1] if started else bracket.round_numbers[0])
            self.round_box.setCurrentIndex(self.round_box.findData(chosen))
        self.round_box.blockSignals(False)
        has = self.bracket is not None
        self.round_box.setEnabled(has)
        self.draw_button.setEnabled(has)
        self.manual_button.setEnabled(has)
        self.choice_button.setEnabled(bool(self.choices_needed()))
        if not has:
            if fmt.knockout_size:
                text = self.tr("%1 第 %2 轮结束后产生 %3 人淘汰赛对阵。")
                text = text.replace("%1", group).replace("%2", str(fmt.swiss_rounds))
                show_message(self.message, text.replace("%3", str(fmt.knockout_size)))
            elif has_knockout:
                show_message(self.message, self.tr("%1 的淘汰赛阶段开始时产生对阵。").replace("%1", group))
            else:
                show_message(self.message, self.tr("%1不设淘汰赛").replace("%1", group))

    def lot_open(self, number: int) -> list[Match]:
        """Matches of a round whose players are known and whose game-1 colours are not drawn yet."""
        if self.bracket is None:
            return []
        due = {d.code for d in self.bracket.due_games(number) if d.colours is ColourState.LOT_NEEDED}
        return [m for m in self.bracket.matches_in_round(number) if m.code in due]

    def choices_needed(self) -> list[DueGame]:
        if self.bracket is None:
            return []
        return [
            d
            for n in self.bracket.round_numbers
            for d in self.bracket.due_games(n)
            if d.colours is ColourState.CHOICE_NEEDED
        ]

    # ------------------------------------------------------------------ actions

    def _run(self, action: object) -> Bracket | None:
        try:
            bracket = action()  # type: ignore[operator]
        except UserError as error:
            show_message(self.message, error_text(error), error=True)
            return None
        self.document.notify()
        return bracket  # type: ignore[no-any-return]

    def create_knockout(self) -> None:
        db, group = self.document.db, self.document.group
        if self._run(lambda: knockout_service.create_knockout(db, group)) is not None:
            show_message(self.message, self.tr("淘汰赛对阵已产生"))

    def draw_colours(self, seed: int | None = None) -> int | None:
        """The program's lot for the chosen round; returns (and shows) the seed it used."""
        number = self.round_box.currentData()
        if number is None:
            return None
        db, group = self.document.db, self.document.group
        bracket = self._run(lambda: knockout_service.draw_round_colours(db, group, int(number), seed=seed))
        if bracket is None:
            return None
        used = next(
            (
                m.colour_seed
                for m in bracket.matches_in_round(int(number))
                if m.colour_method is ColourMethod.LOT and m.colour_seed is not None
            ),
            None,
        )
        show_message(
            self.message,
            self.tr("第 %1 轮先后手已抽签，抽签种子 %2（可据此复核）")
            .replace("%1", str(number))
            .replace("%2", str(used)),
        )
        return used

    def enter_physical_draw(self) -> None:
        number = self.round_box.currentData()
        if number is None:
            return
        matches = self.lot_open(int(number))
        if not matches:
            show_message(self.message, self.tr("本轮没有待抽签的比赛"), error=True)
            return
        dialog = ManualDrawDialog(matches, self.names, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.apply_physical_draw(int(number), dialog.manual())

    def apply_physical_draw(self, number: int, manual: dict[str, int]) -> None:
        db, group = self.document.db, self.document.group
        if (
            self._run(lambda: knockout_service.draw_round_colours(db, group, number, manual=manual))
            is not None
        ):
            show_message(self.message, self.tr("现场抽签结果已录入"))

    def choose_colour(self) -> None:
        needed = self.choices_needed()
        if not needed:
            return
        items: list[str] = []
        options: list[tuple[str, Colour]] = []
        for d in needed:
            for colour, label in ((Colour.RED, self.tr("执红")), (Colour.BLACK, self.tr("执黑"))):
                chooser = f"{d.chooser} {self.names.get(d.chooser or 0, '')}"
                items.append(f"{d.code}：{chooser} {label}")
                options.append((d.code, colour))
        chosen, ok = QInputDialog.getItem(
            self, self.tr("附加赛选色"), self.tr("高种子棋手的选择："), items, 0, False
        )
        if ok:
            code, colour = options[items.index(chosen)]
            self.apply_colour_choice(code, colour)

    def apply_colour_choice(self, code: str, colour: Colour) -> None:
        db, group = self.document.db, self.document.group
        if self._run(lambda: knockout_service.choose_deciding_colour(db, group, code, colour)) is not None:
            show_message(self.message, self.tr("%1 附加赛先后手已确定").replace("%1", code))
