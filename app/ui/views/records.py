"""棋谱 Records: the boards of a round with their record duty, a board to enter a game, export, print.

Choose a round, then a board: its stored record (if any) is shown on the board. Enter the game by
clicking or typing moves, or open/paste a PGN file; 保存 attaches it to the board through
:func:`app.services.game_records.attach_record` (checked against the pairing and the result; a short
drawn record raises the record-duty violations). The round's records export as one PGN file, and a
game prints as a PDF page with a diagram.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QItemSelection, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import UserError
from app.engine.xiangqi import GameRecord, export_pgn, parse_pgn_bytes, parse_pgn_games
from app.files import write_atomic
from app.services import game_records
from app.services import records as records_service
from app.ui import file_dialogs
from app.ui.document import TournamentDocument
from app.ui.models.records import BoardRecordsModel
from app.ui.views.live import LiveView
from app.ui.widgets.board import GameEditor


class RecordsView(LiveView):
    """Follows the document like the other views: refreshed while shown, on showing otherwise."""

    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.round_number = 0
        self._group = document.group
        self.loaded: tuple[GameRecord, str | bytes] | None = None  # a PGN opened or pasted, as read

        self.round_box = QComboBox(self)
        self.round_box.currentIndexChanged.connect(self._round_chosen)
        self.export_button = QPushButton(self.tr("导出本轮棋谱……"), self)
        self.export_button.clicked.connect(self.export_dialog)
        self.message = QLabel(self)
        self.message.setWordWrap(True)

        self.model = BoardRecordsModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.selectionModel().selectionChanged.connect(self._board_chosen)

        self.editor = GameEditor(self)
        self.board_label = QLabel(self)
        self.open_button = QPushButton(self.tr("打开 PGN……"), self)
        self.open_button.clicked.connect(self.open_dialog)
        self.paste_button = QPushButton(self.tr("粘贴 PGN"), self)
        self.paste_button.clicked.connect(self.paste)
        self.clear_button = QPushButton(self.tr("重新开始"), self)
        self.clear_button.clicked.connect(self.restart)
        self.save_button = QPushButton(self.tr("保存"), self)
        self.save_button.clicked.connect(self.save)
        self.print_button = QPushButton(self.tr("打印……"), self)
        self.print_button.clicked.connect(self.print_dialog)
        self.paper_button = QPushButton(self.tr("登记纸质棋谱……"), self)
        self.paper_button.setToolTip(
            self.tr("棋谱只交纸质：登记已交及其回合数（和棋不足规定回合自动记犯规）")
        )
        self.paper_button.clicked.connect(self.paper_dialog)
        self.designate_button = QPushButton(self.tr("指定本台录谱"), self)
        self.designate_button.setToolTip(self.tr("前三轮由裁判组指定获胜者录谱"))
        self.designate_button.clicked.connect(self.designate)

        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("轮次："), self))
        top.addWidget(self.round_box)
        top.addWidget(self.export_button)
        top.addStretch(1)
        # two rows of buttons: one row in English would make the whole window wider than a laptop
        buttons = QGridLayout()
        for i, b in enumerate(
            (
                self.open_button,
                self.paste_button,
                self.clear_button,
                self.save_button,
                self.print_button,
                self.paper_button,
                self.designate_button,
            )
        ):
            buttons.addWidget(b, i // 4, i % 4)
        buttons.setColumnStretch(4, 1)
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.board_label)
        right_layout.addWidget(self.editor, 1)
        right_layout.addLayout(buttons)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.table)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setCollapsible(0, False)
        self.splitter = splitter
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.message)
        layout.addWidget(splitter, 1)

        self.reload()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        summaries = self.document.rounds()
        self.round_box.blockSignals(True)
        self.round_box.clear()
        for s in summaries:
            self.round_box.addItem(self.tr("第 %1 轮").replace("%1", str(s.number)), s.number)
        self.round_box.blockSignals(False)
        if summaries:
            self.round_box.setCurrentIndex(len(summaries) - 1)
            self.show_round(summaries[-1].number)
        else:
            self.show_round(0)

    def _round_chosen(self, index: int) -> None:
        if index >= 0:
            self.show_round(int(self.round_box.itemData(index)))

    def show_round(self, number: int) -> None:
        self.round_number = number
        lines = game_records.board_records(self.document.db, self.document.group, number) if number else []
        self.model.set_lines(lines)
        self._fit_table()
        owed = sum(1 for ln in lines if ln.recorder and not ln.received)
        self.export_button.setEnabled(any(ln.has_pgn for ln in lines))
        self.message.setText(self.tr("待交棋谱 %1 份").replace("%1", str(owed)) if number else "")
        self._update_buttons()

    def _fit_table(self) -> None:
        """The board list as wide as its columns (no horizontal scrolling); the editor takes the rest."""
        header = self.table.horizontalHeader()
        header.resizeSections(QHeaderView.ResizeMode.ResizeToContents)
        width = header.length() + 2 * self.table.frameWidth()
        width += self.table.verticalScrollBar().sizeHint().width()
        self.table.setMinimumWidth(width)
        sizes = self.splitter.sizes()
        if sum(sizes) > width:
            self.splitter.setSizes([width, sum(sizes) - width])

    def refresh(self) -> None:
        count = len(self.document.rounds())
        if count != self.round_box.count() or self._group != self.document.group:
            self._group = self.document.group
            self.reload()
            return
        chosen = self.current_board()
        self.show_round(self.round_number)
        if chosen is not None:
            self.select_board(*chosen)

    def current_board(self) -> tuple[int, int] | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        line = self.model.line(rows[0].row())
        return line.board, line.game_no

    def select_board(self, board: int, game_no: int = 1) -> bool:
        row = self.model.row_of_board(board, game_no)
        if row is None:
            return False
        self.table.selectRow(row)
        return True

    def _board_chosen(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        chosen = self.current_board()
        self.loaded = None
        if chosen is None:
            self.board_label.setText("")
        else:
            line = self.model.line(self.model.row_of_board(*chosen) or 0)
            self.board_label.setText(
                self.tr("第 %1 台：%2 对 %3")
                .replace("%1", str(line.board))
                .replace("%2", line.red)
                .replace("%3", line.black)
            )
            try:
                record = game_records.record_of(
                    self.document.db, self.document.group, self.round_number, chosen[0], game_no=chosen[1]
                )
            except UserError as error:
                self.show_error(error)
                record = None
            if record is None:
                self.editor.board.set_game()
            else:
                self.editor.board.set_game(record.moves, record.fen)
        self._update_buttons()

    def _update_buttons(self) -> None:
        chosen = self.current_board()
        for b in (
            self.open_button,
            self.paste_button,
            self.clear_button,
            self.save_button,
            self.paper_button,
            self.designate_button,
        ):
            b.setEnabled(chosen is not None)
        row = self.model.row_of_board(*chosen) if chosen else None
        self.print_button.setEnabled(row is not None and self.model.line(row).has_pgn)

    # ------------------------------------------------------------------ actions

    def load_pgn(self, data: str | bytes) -> bool:
        """Show a PGN (text or file bytes) on the board; 保存 then attaches it with its headers."""
        try:
            games = parse_pgn_bytes(data) if isinstance(data, bytes) else parse_pgn_games(data)
            if len(games) != 1:
                raise UserError(
                    f"应为一局棋谱，实际有 {len(games)} 局", f"expected one game, the text holds {len(games)}"
                )
        except UserError as error:
            self.show_error(error)
            return False
        record = games[0]
        self.editor.board.set_game(record.moves, record.fen)
        self.loaded = (record, data)
        self.message.setText(self.tr("已读入 %1 回合，请核对后保存").replace("%1", str(record.full_moves)))
        return True

    def open_dialog(self) -> None:
        name = file_dialogs.open_file_name(self, self.tr("打开棋谱"), "", self.tr("棋谱 (*.pgn *.PGN)"))
        if not name:
            return
        from app.files import read_limited
        from app.services.game_records import PGN_MAX_BYTES

        try:
            data = read_limited(Path(name), PGN_MAX_BYTES, what_zh="棋谱文件", what_en="PGN file")
        except UserError as error:
            self.show_error(error)
            return
        self.load_pgn(data)

    def paste(self) -> None:
        self.load_pgn(QApplication.clipboard().text())

    def restart(self) -> None:
        self.loaded = None
        self.editor.board.set_game()

    def paper_dialog(self) -> bool:
        chosen = self.current_board()
        if chosen is None:
            return False
        moves, ok = QInputDialog.getInt(
            self,
            self.tr("登记纸质棋谱"),
            self.tr("第 %1 台棋谱的回合数：").replace("%1", str(chosen[0])),
            40,
            0,
            999,
        )
        return ok and self.hand_in_paper(chosen[0], moves)

    def hand_in_paper(self, board: int, moves: int) -> bool:
        """A record handed in on paper only: marked received with its move count (回合)."""
        try:
            found = records_service.hand_in_record(
                self.document.db, self.document.group, self.round_number, board, moves
            )
        except UserError as error:
            self.show_error(error)
            return False
        notes = [
            self.tr("第 %1 台纸质棋谱已登记，%2 回合").replace("%1", str(board)).replace("%2", str(moves))
        ]
        notes += [f"<span style='color:#b22222'>{v.reason}</span>" for v in found]
        self.document.notify()
        self.message.setText("<br>".join(notes))
        return True

    def designate(self) -> bool:
        chosen = self.current_board()
        if chosen is None:
            return False
        try:
            records_service.designate_records(
                self.document.db, self.document.group, self.round_number, [chosen[0]]
            )
        except UserError as error:
            self.show_error(error)
            return False
        self.document.notify()
        self.message.setText(self.tr("第 %1 台已指定录谱").replace("%1", str(chosen[0])))
        return True

    def save(self) -> bool:
        """Attach the game on the board to the chosen board of the round."""
        chosen = self.current_board()
        if chosen is None:
            return False
        board = self.editor.board
        if (
            self.loaded is not None
            and self.loaded[0].moves == board.moves
            and self.loaded[0].fen == board.start_fen
        ):
            pgn: str | bytes = self.loaded[1]  # as opened: its Red/Black/Result headers are checked
        else:
            pgn = export_pgn(board.record())
        try:
            attached = game_records.attach_record(
                self.document.db, self.document.group, self.round_number, chosen[0], pgn, game_no=chosen[1]
            )
        except UserError as error:
            self.show_error(error)
            return False
        notes = [
            self.tr("第 %1 台棋谱已保存，%2 回合")
            .replace("%1", str(chosen[0]))
            .replace("%2", str(attached.full_moves))
        ]
        notes += [f"<span style='color:#b22222'>{v.reason}</span>" for v in attached.violations]
        notes += [_text(f.zh, f.en) for f in attached.natural_limit]
        self.document.notify()
        self.message.setText("<br>".join(notes))
        return True

    def export_dialog(self) -> None:
        name = file_dialogs.save_file_name(
            self,
            self.tr("导出本轮棋谱"),
            f"{self.document.group}-{self.round_number}.pgn",
            self.tr("棋谱 (*.pgn)"),
        )
        if name:
            self.export_to(Path(name))

    def export_to(self, path: Path) -> bool:
        try:
            text = game_records.export_round_records(self.document.db, self.document.group, self.round_number)
            write_atomic(path, text)
        except (UserError, OSError) as error:
            self.show_error(error if isinstance(error, UserError) else UserError(str(error)))
            return False
        self.message.setText(self.tr("已导出 %1").replace("%1", str(path)))
        return True

    def print_dialog(self) -> None:
        name = file_dialogs.save_file_name(self, self.tr("打印棋谱"), "", self.tr("PDF (*.pdf)"))
        if name:
            self.print_to(Path(name))

    def print_to(self, path: Path) -> bool:
        chosen = self.current_board()
        if chosen is None:
            return False
        try:
            import io

            pdf = io.BytesIO()  # rendered whole, then written in one go (never over the open file)
            game_records.print_game(
                self.document.db,
                self.document.group,
                self.round_number,
                chosen[0],
                pdf,
                printed_at=datetime.now().replace(microsecond=0),
                game_no=chosen[1],
            )
            write_atomic(path, pdf.getvalue())
        except (UserError, OSError) as error:
            self.show_error(error if isinstance(error, UserError) else UserError(str(error)))
            return False
        self.message.setText(self.tr("已生成 %1").replace("%1", str(path)))
        return True

    def show_error(self, error: UserError) -> None:
        self.message.setText(f"<span style='color:#b22222'>{_text(error.zh, error.en)}</span>")


def _text(zh: str, en: str) -> str:
    from app.ui.i18n import current_language

    return en if current_language() == "en" else zh
