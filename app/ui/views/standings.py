"""名次 Standings: every tiebreak column of the chain, after any round, the final ranking, and
"why is A above B" (select two rows, or the context menu on a row: against the row above).

The view opens on the standings after the last round with every result in (a round being played
does not count yet) and follows it as results come in; an earlier round, or the round being played
(marked 未完, provisional), can be chosen.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import UserError
from app.services.standings import StandingsView as StandingsValue
from app.services.standings import final_places, final_standings, group_standings, why_above
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language
from app.ui.models.standings import StandingsTableModel, chain_text
from app.ui.views.live import LiveView, error_text, show_message


class StandingsView(LiveView):
    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.model = StandingsTableModel(self)
        self._follow_latest = True
        self._complete = 0
        self._final_offered = False  # the final ranking was shown by itself once it existed

        self.round_box = QComboBox(self)
        self.round_box.setMinimumContentsLength(10)
        self.round_box.currentIndexChanged.connect(self._round_chosen)
        self.final_box = QCheckBox(self.tr("最终名次"), self)
        self.final_box.toggled.connect(lambda _on: self.refresh())
        self.why_button = QPushButton(self.tr("为什么排在前面？"), self)
        self.why_button.setToolTip(self.tr("选中两行（Ctrl+单击），或在一行上点右键与上一行比较"))
        self.why_button.clicked.connect(self.explain_selection)
        self.title = QLabel(self)
        self.title.setStyleSheet("font-weight: bold")
        self.round_note = QLabel(self)  # "round 4 is not complete: after round 3"
        self.round_note.setStyleSheet("color: #8a5a00")
        self.round_note.hide()

        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._update_why_button())

        self.footnote = QLabel(self)
        self.footnote.setWordWrap(True)
        self.footnote.setStyleSheet("color: #444")
        self.disqualified = QLabel(self)
        self.disqualified.setWordWrap(True)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("名次截至："), self))
        top.addWidget(self.round_box)
        top.addWidget(self.final_box)
        top.addSpacing(16)
        top.addWidget(self.why_button)
        top.addStretch(1)
        top.addWidget(self.title)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.round_note)
        layout.addWidget(self.message)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.footnote)
        layout.addWidget(self.disqualified)
        self._update_why_button()

    # ------------------------------------------------------------------ reading services

    @property
    def after_round(self) -> int | None:
        data = self.round_box.currentData()
        return None if data is None else int(data)

    def set_after_round(self, number: int) -> None:
        index = self.round_box.findData(number)
        if index >= 0:
            self.round_box.setCurrentIndex(index)

    def _fill_rounds(self) -> int:
        """Offer 0 … the last paired round (rounds not complete marked 未完); returns the last paired
        round. Following the latest, the choice is the last round with every result in."""
        summaries = self.document.rounds()
        last = summaries[-1].number if summaries else 0
        complete = 0
        for r in summaries:
            if r.number != complete + 1 or r.pending:
                break
            complete = r.number
        wanted = [(0, self.tr("赛前"))]
        for r in summaries:
            text = self.tr("第 %1 轮后").replace("%1", str(r.number))
            if r.number > complete:
                text = self.tr("第 %1 轮后（未完）").replace("%1", str(r.number))
            wanted.append((r.number, text))
        current = [
            (self.round_box.itemData(i), self.round_box.itemText(i)) for i in range(self.round_box.count())
        ]
        keep = self.after_round
        self.round_box.blockSignals(True)
        if current != wanted:
            self.round_box.clear()
            for n, text in wanted:
                self.round_box.addItem(text, n)
        if self._follow_latest or keep is None or keep > last:
            self.round_box.setCurrentIndex(self.round_box.findData(complete))
        else:
            self.round_box.setCurrentIndex(self.round_box.findData(keep))
        self.round_box.blockSignals(False)
        self._complete = complete
        return last

    def _round_chosen(self, _index: int) -> None:
        self._follow_latest = self.after_round == self._complete
        self.refresh()

    def _final_available(self, last_paired: int) -> str:
        """Empty when the final ranking can be shown, else the reason.

        The service is asked only once the regulation's last round is paired (before that there is
        no final ranking to show, and asking on every result would double the refresh time).
        """
        rounds = self.document.info.regulations.group(self.document.group).rounds
        if last_paired < rounds:
            return self.tr("最终名次在第 %1 轮（最后一轮）结束后产生").replace("%1", str(rounds))
        try:
            final_places(self.document.db, self.document.group)
        except UserError as error:
            return error_text(error)
        return ""

    def refresh(self) -> None:
        db, group = self.document.db, self.document.group
        refusal = self._final_available(self._fill_rounds())
        self.final_box.setEnabled(not refusal)
        self.final_box.setToolTip(refusal)
        if refusal and self.final_box.isChecked():
            self.final_box.blockSignals(True)
            self.final_box.setChecked(False)
            self.final_box.blockSignals(False)
        if not refusal and self._follow_latest and not self._final_offered:
            # the group is over: the standing after its last round is the final ranking (once; the
            # arbiter may uncheck it to see the Swiss standings)
            self._final_offered = True
            self.final_box.blockSignals(True)
            self.final_box.setChecked(True)
            self.final_box.blockSignals(False)
        if refusal:
            self._final_offered = False
        self.round_box.setEnabled(not self.final_box.isChecked())
        try:
            if self.final_box.isChecked():
                value = final_standings(db, group)
            else:
                value = group_standings(db, group, self.after_round)
        except UserError as error:
            self.model.set_standings(None)
            show_message(self.message, error_text(error), error=True)
            return
        first = self.model.rowCount() == 0
        self.model.set_standings(value)
        if first and self.model.rowCount():
            self.table.resizeColumnsToContents()
        self._show_notes(value)
        self._update_why_button()

    def _show_notes(self, value: StandingsValue) -> None:
        english = current_language() == "en"
        title = value.title_en if english else value.title_zh
        self.title.setText(f"{value.group} {title}")
        if value.pending:
            self.title.setStyleSheet("font-weight: bold; color: #b06000")
        else:
            self.title.setStyleSheet("font-weight: bold")
        self.round_note.setText(value.note_en if english else value.note_zh)
        self.round_note.setVisible(bool(self.round_note.text()))
        note = self.tr("名次区分办法：%1。").replace("%1", chain_text(value.chain))
        if value.decided_by_sequence_number:
            note += self.tr("有并列仍无法区分者，按序号排列（序号小者在前）。")
        self.footnote.setText(note)
        if value.disqualified:
            names = "、".join(f"{no} {name}" for no, name in value.disqualified)
            self.disqualified.setText(self.tr("取消资格（不排名次）：%1").replace("%1", names))
            self.disqualified.show()
        else:
            self.disqualified.clear()
            self.disqualified.hide()

    # ------------------------------------------------------------------ why above

    def selected_numbers(self) -> list[int]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [self.model.line(r).no for r in rows]

    def _update_why_button(self) -> None:
        self.why_button.setEnabled(len(self.selected_numbers()) == 2)

    def explain(self, upper: int, lower: int) -> str:
        """The service's sentence for two players (in table order), shown below the buttons."""
        try:
            text = why_above(
                self.document.db,
                self.document.group,
                upper,
                lower,
                self.after_round,
                final=self.final_box.isChecked(),
                language=current_language(),
            )
        except UserError as error:
            show_message(self.message, error_text(error), error=True)
            return ""
        show_message(self.message, text)
        return text

    def explain_selection(self) -> None:
        numbers = self.selected_numbers()
        if len(numbers) != 2:
            QMessageBox.information(self, self.tr("为什么排在前面"), self.tr("请选中两名棋手"))
            return
        self.explain(numbers[0], numbers[1])

    def _context_menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        if not index.isValid():
            return
        row = index.row()
        menu = QMenu(self)
        if row > 0:
            above, this = self.model.line(row - 1), self.model.line(row)
            menu.addAction(
                self.tr("为什么 %1 排在 %2 之前？").replace("%1", above.name).replace("%2", this.name)
            ).triggered.connect(lambda: self.explain(above.no, this.no))
        if row + 1 < self.model.rowCount():
            this, below = self.model.line(row), self.model.line(row + 1)
            menu.addAction(
                self.tr("为什么 %1 排在 %2 之前？").replace("%1", this.name).replace("%2", below.name)
            ).triggered.connect(lambda: self.explain(this.no, below.no))
        if menu.actions():
            menu.exec(self.table.viewport().mapToGlobal(pos))
