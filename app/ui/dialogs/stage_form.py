"""The stages of a group field by field (赛制逐项设置): each stage's system, entrants, rounds or cycles and
pools, its tiebreak chain (名次区分办法: the criteria of its system, in order), and a knockout's match ladders
(each step's games, colours and time control, the deciding game's rule).

The form edits :class:`~app.engine.formats.Stage` values; the dialog checks what it holds by writing it
as the regulation file's text and reading that back (``stages_from_text``), so the form, the text tab and
a regulation file are checked by one and the same loader. Stages that have begun are shown but locked.
Everything is reachable by the keyboard: the stage list takes the arrow keys, Tab walks the fields, the
buttons have Alt shortcuts.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, TypeVar

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from app.engine.formats import (
    MAX_KNOCKOUT,
    MAX_POOLS,
    MAX_ROUND_ROBIN,
    ColourRule,
    DecidingDraw,
    Elimination,
    Entrants,
    GameKind,
    LadderStep,
    MatchFormat,
    MatchScope,
    PlacementRule,
    PoolDraw,
    Seeding,
    Stage,
    StageKind,
    Tiebreak,
    TimeControl,
    WithdrawalRule,
    stage_tiebreaks,
)
from app.ui.models.standings import tiebreak_name

E = TypeVar("E", bound=enum.Enum)

_ENTRANTS = {
    Entrants.ALL: "全部棋手",
    Entrants.TOP: "前一阶段前 N 名",
    Entrants.REST: "前一阶段其余棋手",
    Entrants.POOL_TOP: "各小组前 N 名",
}
_DRAW = {DecidingDraw.BLACK_WINS: "和棋黑胜", DecidingDraw.REPEAT: "和棋则换先重赛至分出胜负"}
_STEP_COLUMNS = ("棋类", "局数", "先后手", "每方分钟", "每步加秒", "黑方分钟")


def _combo(parent: QWidget, items: Sequence[tuple[str, object]]) -> QComboBox:
    box = QComboBox(parent)
    for text, data in items:
        box.addItem(text, data)
    return box


def _spin(parent: QWidget, low: int, high: int, special: str = "") -> QSpinBox:
    spin = QSpinBox(parent)
    spin.setRange(low, high)
    if special:
        spin.setSpecialValueText(special)
    return spin


def _select(box: QComboBox, value: object) -> None:
    index = box.findData(value)
    box.setCurrentIndex(max(index, 0))


def _data(box: QComboBox, kind: type[E]) -> E:
    value = box.currentData()
    assert isinstance(value, kind)
    return value


class StageForm(QWidget):
    """The stages as a list and the selected stage's fields; ``changed`` after every edit."""

    changed = Signal()

    def __init__(self, stages: Sequence[Stage], begun: int = 0, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.stages: list[Stage] = list(stages)
        self.begun = begun  # the first ``begun`` stages have begun: locked
        self._loading = False
        # -- the list of stages and its buttons
        self.stage_list = QListWidget(self)
        self.stage_list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.stage_list.currentRowChanged.connect(self._show_stage)
        self.add_button = QPushButton(self.tr("添加阶段(&A)"), self)
        self.remove_button = QPushButton(self.tr("删除阶段(&D)"), self)
        self.up_button = QPushButton(self.tr("上移(&U)"), self)
        self.down_button = QPushButton(self.tr("下移(&J)"), self)
        self.add_button.clicked.connect(self.add_stage)
        self.remove_button.clicked.connect(self.remove_stage)
        self.up_button.clicked.connect(lambda: self.move_stage(-1))
        self.down_button.clicked.connect(lambda: self.move_stage(1))
        left = QVBoxLayout()
        left.addWidget(self.stage_list, 1)
        for b in (self.add_button, self.remove_button, self.up_button, self.down_button):
            left.addWidget(b)
        # -- the fields of a stage
        self.fields = QWidget(self)
        self.locked_note = QLabel(self.tr("此阶段已开始，不能修改。"), self)
        self.locked_note.setStyleSheet("color: #b00020")
        self.kind = _combo(self, [(k.zh, k) for k in StageKind])
        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("不填则按赛制自动命名"))
        self.entrants = _combo(self, [(text, e) for e, text in _ENTRANTS.items()])
        self.count = _spin(self, 0, MAX_KNOCKOUT * MAX_POOLS, self.tr("—"))
        self.alongside = QCheckBox(self.tr("与前一阶段同时进行（如淘汰赛期间其余棋手继续积分编排）"), self)
        self.rounds = _spin(self, 1, 60)
        self.round_robin_up_to = _spin(self, 0, MAX_ROUND_ROBIN, self.tr("不改"))
        self.cycles = _spin(self, 1, 4)
        self.swap_last_rounds = QCheckBox(
            self.tr("第一循环最后两轮互换（国际棋联 C.05 建议，避免连续三局同色）"), self
        )
        self.pools = _spin(self, 1, MAX_POOLS)
        self.pool_draw = _combo(self, [(d.zh, d) for d in PoolDraw])
        self.seeding = _combo(self, [(s.zh, s) for s in Seeding])
        self.withdrawal = _combo(self, [(w.zh, w) for w in WithdrawalRule])
        self.elimination = _combo(self, [(e.zh, e) for e in Elimination])
        self.places = _combo(
            self, [(self.tr("按规程 [knockout] 的名次办法"), ""), *[(p.zh, p) for p in PlacementRule]]
        )
        self.qualifier = QCheckBox(self.tr("有轮空时第一轮称资格赛"), self)
        self.grand_final_reset = QCheckBox(self.tr("总决赛败者组胜者胜则加赛一场"), self)
        self.form = QFormLayout(self.fields)
        self.form.addRow(self.locked_note)
        self.form.addRow(self.tr("赛制(&K)"), self.kind)
        self.form.addRow(self.tr("名称"), self.name)
        self.form.addRow(self.tr("参加者"), self.entrants)
        self.form.addRow(self.tr("人数 N"), self.count)
        self.form.addRow("", self.alongside)
        self.form.addRow(self.tr("轮数(&R)"), self.rounds)
        self.form.addRow(self.tr("人数不多于此时改为单循环"), self.round_robin_up_to)
        self.form.addRow(self.tr("循环次数(&C)"), self.cycles)
        self.form.addRow("", self.swap_last_rounds)
        self.form.addRow(self.tr("小组数"), self.pools)
        self.form.addRow(self.tr("分组办法"), self.pool_draw)
        self.form.addRow(self.tr("编号/种子"), self.seeding)
        self.form.addRow(self.tr("退赛处理"), self.withdrawal)
        self.form.addRow(self.tr("淘汰办法"), self.elimination)
        self.form.addRow(self.tr("名次办法"), self.places)
        self.form.addRow("", self.qualifier)
        self.form.addRow("", self.grand_final_reset)
        self.ladders = LadderEditor(self)
        self.form.addRow(self.ladders)
        self.chain = ChainEditor(self)
        self.form.addRow(self.chain)
        self._by_kind: dict[StageKind, tuple[QWidget, ...]] = {
            StageKind.SWISS: (self.rounds, self.round_robin_up_to),
            StageKind.ROUND_ROBIN: (
                self.cycles,
                self.swap_last_rounds,
                self.pools,
                self.pool_draw,
                self.seeding,
                self.withdrawal,
                self.chain,
            ),
            StageKind.KNOCKOUT: (
                self.elimination,
                self.seeding,
                self.places,
                self.qualifier,
                self.grand_final_reset,
                self.ladders,
            ),
        }
        combos = (self.kind, self.entrants, self.pool_draw, self.seeding, self.withdrawal, self.elimination)
        for combo in (*combos, self.places):
            combo.currentIndexChanged.connect(self._edited)
        for spin in (self.count, self.rounds, self.round_robin_up_to, self.cycles, self.pools):
            spin.valueChanged.connect(self._edited)
        for box in (self.alongside, self.swap_last_rounds, self.qualifier, self.grand_final_reset):
            box.toggled.connect(self._edited)
        self.name.textEdited.connect(self._edited)
        self.ladders.changed.connect(self._edited)
        self.chain.changed.connect(self._edited)
        layout = QHBoxLayout(self)
        layout.addLayout(left, 1)
        layout.addWidget(self.fields, 3)
        self._fill_list()

    # ------------------------------------------------------------------ the list

    def set_stages(self, stages: Sequence[Stage]) -> None:
        """Show ``stages`` (a ready-made format, or the text tab's stages)."""
        row = max(self.stage_list.currentRow(), 0)
        self.stages = list(stages)
        self._fill_list(min(row, len(self.stages) - 1))

    def _fill_list(self, row: int = 0) -> None:
        self._loading = True
        self.stage_list.clear()
        for i, st in enumerate(self.stages):
            lock = self.tr("（已开始）") if i < self.begun else ""
            self.stage_list.addItem(f"第{i + 1}阶段 {st.title_zh}{lock}")
        self._loading = False
        if self.stages:
            self.stage_list.setCurrentRow(max(row, 0))
        self._show_stage(self.stage_list.currentRow())

    def _relabel(self, i: int) -> None:
        item = self.stage_list.item(i)
        if item is not None:
            lock = self.tr("（已开始）") if i < self.begun else ""
            item.setText(f"第{i + 1}阶段 {self.stages[i].title_zh}{lock}")

    def add_stage(self) -> None:
        """A new stage at the end: the top 8 of the stage before into a knockout (edit it from there)."""
        new = (
            Stage(StageKind.KNOCKOUT, entrants=Entrants.TOP, count=8)
            if self.stages
            else Stage(StageKind.SWISS, rounds=7)
        )
        self.stages.append(new)
        self._fill_list(len(self.stages) - 1)
        self.changed.emit()

    def remove_stage(self) -> None:
        i = self.stage_list.currentRow()
        if i < self.begun or not 0 <= i < len(self.stages):
            return
        del self.stages[i]
        self._fill_list(min(i, len(self.stages) - 1))
        self.changed.emit()

    def move_stage(self, step: int) -> None:
        i = self.stage_list.currentRow()
        j = i + step
        if min(i, j) < self.begun or not (0 <= i < len(self.stages) and 0 <= j < len(self.stages)):
            return
        self.stages[i], self.stages[j] = self.stages[j], self.stages[i]
        self._fill_list(j)
        self.changed.emit()

    # ------------------------------------------------------------------ one stage

    def _show_stage(self, i: int) -> None:
        if self._loading:
            return
        valid = 0 <= i < len(self.stages)
        locked = not valid or i < self.begun
        self.fields.setEnabled(valid)
        for w in self._editors():
            w.setEnabled(not locked)
        self.locked_note.setVisible(valid and i < self.begun)
        self.remove_button.setEnabled(not locked)
        self.up_button.setEnabled(not locked and i - 1 >= self.begun)
        self.down_button.setEnabled(not locked and i + 1 < len(self.stages))
        if not valid:
            return
        st = self.stages[i]
        self._loading = True
        try:
            _select(self.kind, st.kind)
            self.name.setText(st.name)
            _select(self.entrants, st.entrants)
            self.count.setValue(st.count)
            self.alongside.setChecked(st.alongside)
            self.rounds.setValue(max(st.rounds, 1))
            self.round_robin_up_to.setValue(st.round_robin_up_to)
            self.cycles.setValue(st.cycles)
            self.swap_last_rounds.setChecked(st.swap_last_rounds)
            self.pools.setValue(st.pools)
            _select(self.pool_draw, st.pool_draw)
            _select(self.seeding, st.seeding)
            _select(self.withdrawal, st.withdrawal)
            _select(self.elimination, st.elimination)
            _select(self.places, st.places or "")
            self.qualifier.setChecked(st.qualifier)
            self.grand_final_reset.setChecked(st.grand_final_reset)
            self.ladders.set_matches(st.matches)
            self.chain.set_chain(st)
        finally:
            self._loading = False
        self._show_rows(st.kind)

    def _editors(self) -> tuple[QWidget, ...]:
        return (
            self.kind,
            self.name,
            self.entrants,
            self.count,
            self.alongside,
            *{w for ws in self._by_kind.values() for w in ws},
        )

    def _show_rows(self, kind: StageKind) -> None:
        shown = set(self._by_kind[kind])
        for ws in self._by_kind.values():
            for w in ws:
                self.form.setRowVisible(w, w in shown)
        self.form.setRowVisible(
            self.count, _data(self.entrants, Entrants) in (Entrants.TOP, Entrants.REST, Entrants.POOL_TOP)
        )
        double = _data(self.elimination, Elimination) is Elimination.DOUBLE
        self.form.setRowVisible(self.grand_final_reset, kind is StageKind.KNOCKOUT and double)
        # a Swiss ranks by the regulation's chain; its own chain is that of the round robin it becomes
        fallback = kind is StageKind.SWISS and self.round_robin_up_to.value() > 0
        self.form.setRowVisible(self.chain, kind is StageKind.ROUND_ROBIN or fallback)

    def _edited(self) -> None:
        if self._loading:
            return
        i = self.stage_list.currentRow()
        if not self.begun <= i < len(self.stages):
            return
        before = self.stages[i]
        self.stages[i] = self.stage_from_fields(before)
        if self.stages[i].kind is not before.kind:  # another system: its default chain
            self.chain.set_chain(self.stages[i])
        self._show_rows(self.stages[i].kind)
        self._relabel(i)
        self.changed.emit()

    def stage_from_fields(self, before: Stage) -> Stage:
        """The stage the fields describe: the keys of its kind (the others at their defaults, as the
        regulation file leaves them out); its tiebreak chain as the chain editor holds it (a change of
        system starts from that system's default)."""
        kind = _data(self.kind, StageKind)
        entrants = _data(self.entrants, Entrants)
        common: dict[str, Any] = {
            "kind": kind,
            "name": self.name.text().strip(),
            "entrants": entrants,
            "count": self.count.value() if entrants is not Entrants.ALL else 0,
            "alongside": self.alongside.isChecked(),
            "tiebreaks": self.chain.chain() if before.kind is kind else (),
        }
        if kind is StageKind.SWISS:  # its own chain ranks the round robin it may become; none, none
            up_to = self.round_robin_up_to.value()
            if not up_to:
                common["tiebreaks"] = ()
            return Stage(**common, rounds=self.rounds.value(), round_robin_up_to=up_to)
        if kind is StageKind.ROUND_ROBIN:
            return Stage(
                **common,
                cycles=self.cycles.value(),
                swap_last_rounds=self.swap_last_rounds.isChecked(),
                pools=self.pools.value(),
                pool_draw=_data(self.pool_draw, PoolDraw),
                seeding=_data(self.seeding, Seeding),
                withdrawal=_data(self.withdrawal, WithdrawalRule),
            )
        places = self.places.currentData()
        return Stage(
            **common,
            elimination=_data(self.elimination, Elimination),
            seeding=_data(self.seeding, Seeding),
            places=places if isinstance(places, PlacementRule) else None,
            qualifier=self.qualifier.isChecked(),
            grand_final_reset=self.grand_final_reset.isChecked(),
            matches=self.ladders.matches() if before.kind is StageKind.KNOCKOUT else (),
        )


class ChainEditor(QGroupBox):
    """A stage's tiebreak chain (名次区分办法, after 积分): the criteria in order, chosen from those of the
    stage's system (:func:`~app.engine.formats.stage_tiebreaks`). Empty means the system's default chain,
    shown as such; the first edit writes the chain out. Keys in the list: Delete removes the criterion,
    Ctrl+↑ / Ctrl+↓ move it, Insert goes to the criteria that may be added."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("名次区分办法（积分相同时依次比较）"))
        self._chain: list[Tiebreak] = []
        self._own = False  # False: the stage has no chain of its own (the default is shown)
        self._kind = StageKind.ROUND_ROBIN
        self.items = QListWidget(self)
        self.items.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.items.setMaximumHeight(150)
        self.items.installEventFilter(self)
        self.default_note = QLabel(self)
        self.default_note.setStyleSheet("color: #555")
        self.default_note.setWordWrap(True)
        self.available = QComboBox(self)
        self.add_button = QPushButton(self.tr("加入(&I)"), self)
        self.remove_button = QPushButton(self.tr("移除(&X)"), self)
        self.up_button = QPushButton(self.tr("前移(&P)"), self)
        self.down_button = QPushButton(self.tr("后移(&N)"), self)
        self.default_button = QPushButton(self.tr("恢复默认(&E)"), self)
        self.add_button.clicked.connect(self.add)
        self.remove_button.clicked.connect(self.remove)
        self.up_button.clicked.connect(lambda: self.shift(-1))
        self.down_button.clicked.connect(lambda: self.shift(1))
        self.default_button.clicked.connect(self.restore_default)
        add_row = QHBoxLayout()
        add_row.addWidget(self.available, 1)
        add_row.addWidget(self.add_button)
        buttons = QHBoxLayout()
        for b in (self.remove_button, self.up_button, self.down_button, self.default_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.items)
        layout.addWidget(self.default_note)
        layout.addLayout(buttons)
        layout.addLayout(add_row)

    def chain(self) -> tuple[Tiebreak, ...]:
        """The stage's own chain; empty while it keeps the default."""
        return tuple(self._chain) if self._own else ()

    def set_chain(self, stage: Stage) -> None:
        self._kind = stage.kind
        self._own = bool(stage.tiebreaks)
        self._chain = list(stage.tiebreaks or stage_tiebreaks(stage.kind).default)
        self._refill(0)

    def _refill(self, row: int) -> None:
        self.items.clear()
        for k, t in enumerate(self._chain, start=1):
            self.items.addItem(f"{k}. {tiebreak_name(t)}")
        if self._chain:
            self.items.setCurrentRow(max(0, min(row, len(self._chain) - 1)))
        self.available.clear()
        for t in stage_tiebreaks(self._kind).offered:
            if t not in self._chain:
                self.available.addItem(tiebreak_name(t), t)
        self.add_button.setEnabled(self.available.count() > 0)
        self.remove_button.setEnabled(len(self._chain) > 1)
        self.default_note.setText(
            (self.tr("未单独设置：按此赛制的默认办法。") if not self._own else self.tr("本阶段自定的办法。"))
            + self.tr("列表中：Delete 移除，Ctrl+↑/↓ 调整顺序，Insert 选择要加入的办法。")
        )

    def _edit(self, chain: list[Tiebreak], row: int) -> None:
        self._chain = chain
        self._own = True
        self._refill(row)
        self.changed.emit()

    def add(self) -> None:
        t = self.available.currentData()
        if isinstance(t, Tiebreak):
            self._edit([*self._chain, t], len(self._chain))
            self.items.setFocus()

    def remove(self) -> None:
        """Take the chosen criterion out (the last one stays: an empty chain would mean the default)."""
        i = self.items.currentRow()
        if 0 <= i < len(self._chain) and len(self._chain) > 1:
            self._edit([t for k, t in enumerate(self._chain) if k != i], i)

    def shift(self, step: int) -> None:
        i = self.items.currentRow()
        j = i + step
        if 0 <= i < len(self._chain) and 0 <= j < len(self._chain):
            chain = list(self._chain)
            chain[i], chain[j] = chain[j], chain[i]
            self._edit(chain, j)

    def restore_default(self) -> None:
        self._own = False
        self._chain = list(stage_tiebreaks(self._kind).default)
        self._refill(0)
        self.changed.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.items
            and self.isEnabled()  # a begun stage's chain is locked
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
        ):
            key, ctrl = event.key(), bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
            if key == Qt.Key.Key_Delete:
                self.remove()
                return True
            if ctrl and key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
                self.shift(-1 if key == Qt.Key.Key_Up else 1)
                return True
            if key == Qt.Key.Key_Insert:
                self.available.setFocus()
                return True
        return super().eventFilter(watched, event)


class LadderEditor(QGroupBox):
    """A knockout stage's match formats: per kind of match (scope) a ladder of steps and the rule of a
    drawn deciding game. None: the regulation's ``[knockout]`` time controls."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("每场比赛的赛制（局数、先后手、用时、决胜局）"))
        self._matches: list[MatchFormat] = []
        self._loading = False
        self.pick = QComboBox(self)
        self.pick.currentIndexChanged.connect(self._show_ladder)
        self.add_ladder = QPushButton(self.tr("添加比赛赛制(&M)"), self)
        self.remove_ladder = QPushButton(self.tr("删除此赛制"), self)
        self.add_ladder.clicked.connect(self.add)
        self.remove_ladder.clicked.connect(self.remove)
        self.scope = _combo(self, [(s.zh, s) for s in MatchScope])
        self.deciding_draw = _combo(self, [(text, d) for d, text in _DRAW.items()])
        self.steps = QTableWidget(0, len(_STEP_COLUMNS), self)
        self.steps.setHorizontalHeaderLabels([self.tr(c) for c in _STEP_COLUMNS])
        self.steps.setTabKeyNavigation(False)  # Tab walks the cells' own editors
        self.steps.setMinimumHeight(150)
        self.add_step = QPushButton(self.tr("添加一级(&S)"), self)
        self.remove_step = QPushButton(self.tr("删除最后一级"), self)
        self.add_step.clicked.connect(self.append_step)
        self.remove_step.clicked.connect(self.drop_step)
        self.none_note = QLabel(
            self.tr("未设：按规程 [knockout] 的用时（慢棋，平则快棋换先，再平则决胜局）"), self
        )
        self.none_note.setWordWrap(True)
        self.scope.currentIndexChanged.connect(self._edited)
        self.deciding_draw.currentIndexChanged.connect(self._edited)
        top = QHBoxLayout()
        top.addWidget(self.pick, 1)
        top.addWidget(self.add_ladder)
        top.addWidget(self.remove_ladder)
        form = QFormLayout()
        form.addRow(self.tr("适用于"), self.scope)
        form.addRow(self.tr("最后一局和棋"), self.deciding_draw)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_step)
        buttons.addWidget(self.remove_step)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.none_note)
        layout.addLayout(form)
        layout.addWidget(self.steps)
        layout.addLayout(buttons)
        self.set_matches(())

    def matches(self) -> tuple[MatchFormat, ...]:
        return tuple(self._matches)

    def set_matches(self, matches: Sequence[MatchFormat], row: int = 0) -> None:
        self._matches = list(matches)
        self._loading = True
        self.pick.clear()
        for m in self._matches:
            self.pick.addItem(m.scope.zh, m.scope)
        self._loading = False
        if self._matches:
            self.pick.setCurrentIndex(min(row, len(self._matches) - 1))
        self._show_ladder(self.pick.currentIndex())

    def add(self) -> None:
        used = {m.scope for m in self._matches}
        scope = next((s for s in MatchScope if s not in used), MatchScope.ALL)
        steps = (
            LadderStep(GameKind.SLOW, 2, TimeControl(60, 30), ColourRule.LOT),
            LadderStep(GameKind.RAPID, 2, TimeControl(10, 5), ColourRule.SWAP),
            LadderStep(GameKind.DECIDING, 1, TimeControl(5, 3), ColourRule.HIGHER_SEED_CHOOSES),
        )
        self._matches.append(MatchFormat(scope, steps))
        self.set_matches(self._matches, len(self._matches) - 1)
        self.changed.emit()

    def remove(self) -> None:
        j = self.pick.currentIndex()
        if 0 <= j < len(self._matches):
            del self._matches[j]
            self.set_matches(self._matches, j)
            self.changed.emit()

    def _show_ladder(self, j: int) -> None:
        if self._loading:
            return
        has = 0 <= j < len(self._matches)
        self.none_note.setVisible(not self._matches)
        for w in (
            self.remove_ladder,
            self.scope,
            self.deciding_draw,
            self.steps,
            self.add_step,
            self.remove_step,
        ):
            w.setVisible(has)
        if not has:
            return
        m = self._matches[j]
        self._loading = True
        try:
            _select(self.scope, m.scope)
            _select(self.deciding_draw, m.deciding_draw)
            self.steps.setRowCount(0)
            for step in m.steps:
                self._add_row(step)
        finally:
            self._loading = False

    def _add_row(self, step: LadderStep) -> None:
        r = self.steps.rowCount()
        self.steps.insertRow(r)
        kind = _combo(self.steps, [(k.zh, k) for k in GameKind])
        _select(kind, step.kind)
        games = _spin(self.steps, 1, 8)
        games.setValue(step.games)
        colours = _combo(self.steps, [(c.zh, c) for c in ColourRule])
        _select(colours, step.colours)
        minutes = _spin(self.steps, 1, 600)
        minutes.setValue(step.time.minutes)
        increment = _spin(self.steps, 0, 600, self.tr("包干"))
        increment.setValue(step.time.increment_seconds)
        black = _spin(self.steps, 0, 600, self.tr("同红方"))
        black.setValue(step.time.black_minutes)
        for c, w in enumerate((kind, games, colours, minutes, increment, black)):
            self.steps.setCellWidget(r, c, w)
        for combo in (kind, colours):
            combo.currentIndexChanged.connect(self._edited)
        for spin in (games, minutes, increment, black):
            spin.valueChanged.connect(self._edited)

    def append_step(self) -> None:
        j = self.pick.currentIndex()
        if not 0 <= j < len(self._matches):
            return
        self._add_row(LadderStep(GameKind.DECIDING, 1, TimeControl(5, 3), ColourRule.SWAP))
        self._edited()

    def drop_step(self) -> None:
        if self.steps.rowCount() > 1:
            self.steps.removeRow(self.steps.rowCount() - 1)
            self._edited()

    def _step(self, r: int) -> LadderStep:
        w = [self.steps.cellWidget(r, c) for c in range(len(_STEP_COLUMNS))]
        kind, games, colours, minutes, increment, black = w
        assert isinstance(kind, QComboBox) and isinstance(colours, QComboBox)
        assert isinstance(games, QSpinBox) and isinstance(minutes, QSpinBox)
        assert isinstance(increment, QSpinBox) and isinstance(black, QSpinBox)
        return LadderStep(
            _data(kind, GameKind),
            games.value(),
            TimeControl(minutes.value(), increment.value(), black.value()),
            _data(colours, ColourRule),
        )

    def _edited(self) -> None:
        if self._loading:
            return
        j = self.pick.currentIndex()
        if not 0 <= j < len(self._matches):
            return
        scope = _data(self.scope, MatchScope)
        self._matches[j] = MatchFormat(
            scope,
            tuple(self._step(r) for r in range(self.steps.rowCount())),
            _data(self.deciding_draw, DecidingDraw),
        )
        self.pick.setItemText(j, scope.zh)
        self.changed.emit()
