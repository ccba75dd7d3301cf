"""The players table (报名): every registration flag as a checkable column, filter-as-you-type."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QSortFilterProxyModel,
    Qt,
    Signal,
)

from app.services.registration import PlayerView
from app.ui.i18n import tr, translate_noop
from app.ui.models.base import FixedColumnsModel, Index

# (key, header) — flags are the checkable columns, toggled through services.
COLUMNS = (
    ("no", translate_noop("PlayerTableModel", "序号")),
    ("name", translate_noop("PlayerTableModel", "姓名")),
    ("gender", translate_noop("PlayerTableModel", "性别")),
    ("age", translate_noop("PlayerTableModel", "年龄")),
    ("team", translate_noop("PlayerTableModel", "队伍")),
    ("unit", translate_noop("PlayerTableModel", "单位")),
    ("region", translate_noop("PlayerTableModel", "地区")),
    ("rating", translate_noop("PlayerTableModel", "等级分")),
    ("fee_paid", translate_noop("PlayerTableModel", "缴费")),
    ("insurance", translate_noop("PlayerTableModel", "保险")),
    ("pledge", translate_noop("PlayerTableModel", "承诺书")),
    ("checked_in", translate_noop("PlayerTableModel", "报到")),
    ("status", translate_noop("PlayerTableModel", "状态")),
    ("phone", translate_noop("PlayerTableModel", "电话")),
)
FLAGS = ("fee_paid", "insurance", "pledge", "checked_in")
_STATUS = {
    "active": translate_noop("PlayerTableModel", "正常"),
    "withdrawn": translate_noop("PlayerTableModel", "退赛"),
    "disqualified": translate_noop("PlayerTableModel", "取消成绩"),
}
_GENDER = {
    "male": translate_noop("PlayerTableModel", "男"),
    "female": translate_noop("PlayerTableModel", "女"),
}
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 1
ID_ROLE = Qt.ItemDataRole.UserRole
_KEYS = tuple(key for key, _label in COLUMNS)
_ROLES = frozenset(
    {
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.CheckStateRole,
        Qt.ItemDataRole.TextAlignmentRole,
        ID_ROLE,
        SEARCH_ROLE,
    }
)


def pinyin_initials(name: str) -> str:
    """张三 → ``zs``: what an arbiter types to find a player on a laptop without an IME switch.

    pypinyin (its phrase dictionary takes a few hundred ms to load) is imported on the first search,
    not when the players view opens.
    """
    from pypinyin import Style, lazy_pinyin

    return "".join(s[:1] for s in lazy_pinyin(name, style=Style.FIRST_LETTER)).lower()


def column_of(key: str) -> int:
    return [k for k, _ in COLUMNS].index(key)


class PlayerTableModel(FixedColumnsModel):
    """Players of one group; a click on a flag asks ``flag_toggled`` (the view calls the service)."""

    flag_toggled = Signal(int, str, bool)  # player id, flag, new value
    COLUMNS = tuple(label for _key, label in COLUMNS)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[PlayerView] = []
        self._search: list[str] = []

    def set_players(self, players: list[PlayerView]) -> None:
        self.beginResetModel()
        self._rows = list(players)
        self._search = []  # built on the first search (see search_text)
        self.endResetModel()

    def search_text(self, row: int) -> str:
        """Name, pinyin initials, team and unit of a row, lower-case (the filter's haystack)."""
        if len(self._search) != len(self._rows):
            self._search = [
                " ".join((p.name, pinyin_initials(p.name), p.team, p.unit)).lower() for p in self._rows
            ]
        return self._search[row]

    def player(self, row: int) -> PlayerView:
        return self._rows[row]

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if COLUMNS[index.column()][0] in FLAGS:
            base |= Qt.ItemFlag.ItemIsUserCheckable
        return base

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES:  # most calls (font, colours, size hints …): answered at once
            return None
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        p = self._rows[index.row()]
        key = _KEYS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            if key in FLAGS:
                return None
            if key == "status":
                status = tr("PlayerTableModel", _STATUS.get(p.status, p.status))
                return status if p.ranked else f"{status}{tr('PlayerTableModel', '（不计名次）')}"
            if key == "gender":
                return tr("PlayerTableModel", _GENDER[p.gender]) if p.gender else ""
            value = getattr(p, key)
            return "" if value is None else str(value)
        if role == Qt.ItemDataRole.CheckStateRole and key in FLAGS:
            return Qt.CheckState.Checked if getattr(p, key) else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.TextAlignmentRole and key in ("no", "age", "rating", "gender"):
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == ID_ROLE:
            return p.id
        if role == SEARCH_ROLE:
            return self.search_text(index.row())
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or role != Qt.ItemDataRole.CheckStateRole:
            return False
        key = COLUMNS[index.column()][0]
        if key not in FLAGS:
            return False
        checked = Qt.CheckState(value) == Qt.CheckState.Checked if not isinstance(value, bool) else value
        self.flag_toggled.emit(self._rows[index.row()].id, key, checked)
        return True  # the view refreshes the row from the service's answer

    def replace(self, player: PlayerView) -> None:
        for row, p in enumerate(self._rows):
            if p.id == player.id:
                self._rows[row] = player
                self._search = []  # rebuilt on the next search (a name or team may have changed)
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))
                return


class PlayerFilter(QSortFilterProxyModel):
    """Filter as you type: every word must match name, pinyin initials, team, unit or 序号."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._words: list[str] = []
        self.setSortRole(Qt.ItemDataRole.DisplayRole)

    def set_text(self, text: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9
            self.beginFilterChange()
            self._words = text.lower().split()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:  # pragma: no cover - older Qt
            self._words = text.lower().split()
            self.invalidateFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if not self._words:
            return True
        model = self.sourceModel()
        haystack = str(model.index(source_row, 0, source_parent).data(SEARCH_ROLE) or "")
        no = str(model.index(source_row, 0, source_parent).data() or "")
        return all((w.isdigit() and w == no) or w in haystack for w in self._words)

    def lessThan(self, left: Index, right: Index) -> bool:
        key = COLUMNS[left.column()][0]
        if key in ("no", "age", "rating"):
            a, b = left.data(), right.data()
            return (int(a) if a else 10**9) < (int(b) if b else 10**9)
        return bool(super().lessThan(left, right))
