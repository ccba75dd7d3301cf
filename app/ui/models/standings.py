"""Table models of the results views: individual standings, team ranking, prize list.

Each model shows a value returned by a service (``StandingsView``, ``TeamsView``, ``PrizesView``) as
it is; nothing here ranks, sums places or awards money.
"""

from __future__ import annotations

from typing import Any, ClassVar

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from app.engine.prizes import PrizeLine, TablePrizes
from app.engine.regulations import PrizeCategory, PrizeKind, Tiebreak
from app.engine.teams import TeamStanding
from app.engine.types import PlayerStatus
from app.services.standings import PrizesView, StandingLine, StandingsView, TeamsView
from app.ui.i18n import current_language, tr, translate_noop
from app.ui.models.base import FixedColumnsModel, Index

_CENTER = int(Qt.AlignmentFlag.AlignCenter)
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_GREY = QColor("#888888")

TIEBREAK_NAMES = {
    Tiebreak.OPPONENT_SCORE: translate_noop("Tiebreak", "对手分"),
    Tiebreak.WINS: translate_noop("Tiebreak", "胜局"),
    Tiebreak.VIOLATIONS: translate_noop("Tiebreak", "犯规"),
    Tiebreak.BLACK_GAMES: translate_noop("Tiebreak", "后走局数"),
    Tiebreak.BLACK_WINS: translate_noop("Tiebreak", "后走胜局"),
    Tiebreak.PROGRESSIVE: translate_noop("Tiebreak", "累进分"),
    Tiebreak.HEAD_TO_HEAD: translate_noop("Tiebreak", "直胜"),
    Tiebreak.SONNEBORN_BERGER: translate_noop("Tiebreak", "小分"),
    Tiebreak.LOT: translate_noop("Tiebreak", "抽签"),
    Tiebreak.DROP_FIRST_ROUNDS: translate_noop("Tiebreak", "去除前轮得分"),
    Tiebreak.PREVIOUS_ROUNDS: translate_noop("Tiebreak", "前轮成绩"),
}


def tiebreak_name(tiebreak: Tiebreak) -> str:
    return tr("Tiebreak", TIEBREAK_NAMES[tiebreak])


def chain_text(chain: tuple[Tiebreak, ...]) -> str:
    """积分、对手分、…、序号 in the interface language."""
    sep = ", " if current_language() == "en" else "、"
    names = [tr("Tiebreak", "积分"), *(tiebreak_name(t) for t in chain), tr("Tiebreak", "序号")]
    return sep.join(names)


class StandingsTableModel(FixedColumnsModel):
    """名次 序号 姓名 单位 积分, one column per tiebreak of the chain that has a value, 区分依据."""

    FIXED = (
        translate_noop("StandingsTableModel", "名次"),
        translate_noop("StandingsTableModel", "序号"),
        translate_noop("StandingsTableModel", "姓名"),
        translate_noop("StandingsTableModel", "单位"),
        translate_noop("StandingsTableModel", "积分"),
    )
    LAST = translate_noop("StandingsTableModel", "区分依据")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._view: StandingsView | None = None
        self._rows: tuple[StandingLine, ...] = ()
        self._tiebreaks: tuple[Tiebreak, ...] = ()

    # ------------------------------------------------------------------ data in

    def set_standings(self, view: StandingsView | None) -> None:
        """Show a standings value; rows are updated in place when the shape stays the same."""
        lines = view.lines if view is not None else ()
        tiebreaks = tuple(t for t in view.chain if t is not Tiebreak.PREVIOUS_ROUNDS) if view else ()
        self._view = view
        if len(lines) == len(self._rows) and tiebreaks == self._tiebreaks and lines:
            changed = [i for i, (a, b) in enumerate(zip(self._rows, lines, strict=True)) if a != b]
            self._rows = lines
            if changed:
                last = self.columnCount() - 1
                self.dataChanged.emit(self.index(min(changed), 0), self.index(max(changed), last))
            return
        self.beginResetModel()
        self._rows, self._tiebreaks = lines, tiebreaks
        self.endResetModel()

    @property
    def standings(self) -> StandingsView | None:
        return self._view

    @property
    def tiebreaks(self) -> tuple[Tiebreak, ...]:
        return self._tiebreaks

    def line(self, row: int) -> StandingLine:
        return self._rows[row]

    def row_of(self, no: int) -> int | None:
        for row, line in enumerate(self._rows):
            if line.no == no:
                return row
        return None

    # ------------------------------------------------------------------ Qt model

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.FIXED) + len(self._tiebreaks) + 1

    def header_text(self, section: int) -> str | None:
        if section < len(self.FIXED):
            return tr("StandingsTableModel", self.FIXED[section])
        k = section - len(self.FIXED)
        if k < len(self._tiebreaks):
            return tiebreak_name(self._tiebreaks[k])
        return tr("StandingsTableModel", self.LAST)

    def _value(self, line: StandingLine, col: int) -> object:
        rank = f"{line.pool} {line.rank}" if line.pool else line.rank  # a pooled round robin: A组 1
        fixed = (rank, line.no, line.name, line.unit, line.score)
        if col < len(fixed):
            return fixed[col]
        k = col - len(fixed)
        if k < len(self._tiebreaks):
            value = getattr(line, self._tiebreaks[k].value)
            return "" if value is None else value
        return line.separated_by_en if current_language() == "en" else line.separated_by_zh

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        line = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return str(self._value(line, col))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _LEFT if col in (2, 3, self.columnCount() - 1) else _CENTER
        if role == Qt.ItemDataRole.ForegroundRole and line.status is not PlayerStatus.ACTIVE:
            return QBrush(_GREY)
        if role == Qt.ItemDataRole.ToolTipRole and line.status is not PlayerStatus.ACTIVE and col == 2:
            return line.standing.status.value
        if role == Qt.ItemDataRole.UserRole:
            return line.no
        return None


class TeamTableModel(FixedColumnsModel):
    """名次 队名 计分队员（名次） 名次之和 最高名次 区分依据."""

    COLUMNS = (
        translate_noop("TeamTableModel", "名次"),
        translate_noop("TeamTableModel", "队名"),
        translate_noop("TeamTableModel", "计分队员（名次）"),
        translate_noop("TeamTableModel", "名次之和"),
        translate_noop("TeamTableModel", "最高名次"),
        translate_noop("TeamTableModel", "区分依据"),
    )
    _SEPARATED: ClassVar[dict[str, str]] = {
        "total": translate_noop("TeamTableModel", "名次之和"),
        "best_place": translate_noop("TeamTableModel", "最高个人名次"),
        "member_points": translate_noop("TeamTableModel", "队员积分依次比较"),
        "places_sum": translate_noop("TeamTableModel", "名次之和"),
        "member_places": translate_noop("TeamTableModel", "队员名次依次比较"),
    }

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: tuple[TeamStanding, ...] = ()
        self._names: dict[int, str] = {}
        self._by_points = False

    def set_teams(self, view: TeamsView | None) -> None:
        self.beginResetModel()
        self._rows = view.ranking.rows if view is not None else ()
        self._names = dict(view.names) if view is not None else {}
        self._by_points = view is not None and view.by_points
        self.endResetModel()

    def header_text(self, section: int) -> str | None:
        if section == 3 and self._by_points:
            return tr("TeamTableModel", "积分之和")
        return super().header_text(section)

    def team(self, row: int) -> TeamStanding:
        return self._rows[row]

    def members_text(self, row: TeamStanding) -> str:
        if self._by_points and row.member_points:
            return "　".join(
                f"{no} {self._names.get(no, '')}（{place}，{pts}）"
                for (no, place), pts in zip(row.members, row.member_points, strict=False)
            )
        return "　".join(f"{no} {self._names.get(no, '')}（{place}）" for no, place in row.members)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        row = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            separated = self._SEPARATED.get(row.separated_by or "")
            values = (
                row.rank,
                row.team,
                self.members_text(row),
                row.total,
                row.best_place,
                tr("TeamTableModel", separated) if separated else "",
            )
            return str(values[col])
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _LEFT if col in (1, 2, 5) else _CENTER
        if role == Qt.ItemDataRole.UserRole:
            return row.team
        return None


_CATEGORY = {
    PrizeCategory.WOMEN: translate_noop("PrizeTableModel", "女子"),
    PrizeCategory.SENIORS: translate_noop("PrizeTableModel", "老年"),
    PrizeCategory.JUNIORS: translate_noop("PrizeTableModel", "少年"),
    PrizeCategory.LOCAL: translate_noop("PrizeTableModel", "本地"),
    PrizeCategory.UNIT: translate_noop("PrizeTableModel", "单位最佳"),
}


class PrizeTableModel(FixedColumnsModel):
    """Every prize table: its lines (place, recipient, unit, amount) then a subtotal row."""

    COLUMNS = (
        translate_noop("PrizeTableModel", "奖项"),
        translate_noop("PrizeTableModel", "名次"),
        translate_noop("PrizeTableModel", "获奖者"),
        translate_noop("PrizeTableModel", "单位"),
        translate_noop("PrizeTableModel", "金额（元）"),
        translate_noop("PrizeTableModel", "奖品"),
    )

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[TablePrizes, PrizeLine | None]] = []  # None: the table's subtotal row
        self._view: PrizesView | None = None

    def set_prizes(self, view: PrizesView | None) -> None:
        self.beginResetModel()
        self._view = view
        self._rows = []
        for table in view.prizes.tables if view is not None else ():
            self._rows.extend((table, line) for line in table.lines)
            self._rows.append((table, None))
        self.endResetModel()

    def is_total_row(self, row: int) -> bool:
        return self._rows[row][1] is None

    def _recipient(self, table: TablePrizes, line: PrizeLine) -> tuple[str, str]:
        assert self._view is not None
        if line.no is not None:
            key = (table.table.group, line.no)
            return f"{line.no} {self._view.names.get(key, '')}", self._view.units.get(key, "")
        if line.team is not None:
            return line.team, ""
        return tr("PrizeTableModel", "（空缺）"), ""

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        table, line = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if line is None:
                values: tuple[object, ...] = (
                    table.table.name,
                    "",
                    tr("PrizeTableModel", "小计 %1 项").replace("%1", str(len(table.lines))),
                    "",
                    f"{table.total:,}",
                    "",
                )
            else:
                name, unit = self._recipient(table, line)
                values = (table.table.name, line.place, name, unit, f"{line.amount:,}", line.item)
            return str(values[col])
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if col == 4 else (_CENTER if col == 1 else _LEFT)
        if role == Qt.ItemDataRole.FontRole and line is None:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.BackgroundRole and line is None:
            return QBrush(QColor("#eef3fa"))
        if role == Qt.ItemDataRole.ToolTipRole and col == 0:
            kind = table.table.kind
            if kind is PrizeKind.INDIVIDUAL:
                label = tr("PrizeTableModel", "个人")
            else:
                label = tr("PrizeTableModel", "团体")
            category = table.table.category
            if category is not PrizeCategory.OVERALL:
                label += " · " + tr("PrizeTableModel", _CATEGORY[category])
            return f"{table.table.group} · {label}"
        return None
