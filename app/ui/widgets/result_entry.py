"""The 录入成绩 box: board number + result key from the keyboard, read safely.

What the box reads (``read_entry``):

- ``12 1`` / ``12.0`` / ``12/5`` — board 12, then the result key (taken as soon as it is typed);
- ``7=`` ``7+`` ``7-`` ``7*`` — board 7 and a symbol (taken at once);
- ``121`` then Enter — board 12, red wins: digits only, the last digit is the result key. This is
  refused as **ambiguous** when the whole number is itself a board of the round (``10`` with 20
  boards could be board 10 or board 1 black wins): the arbiter is asked to type ``1 0``;
- a result key alone then Enter — the board under the table's cursor (shown beside the box).

Keys: ``1`` red wins, ``0`` black wins, ``=`` or ``5`` draw, ``+`` black forfeits, ``-`` red forfeits,
``*`` both forfeit. While the arbiter types, the label beside the box says how the entry reads.

A change of a result already entered is not made at once: :meth:`ResultEntry.ask` puts the box in a
*confirming* state — ``Y`` confirms; Enter, ``N`` and Esc leave the result as it is (the harmless
answer is the default: a second Enter typed in a hurry changes nothing); any other key cancels and is
typed as usual. Keys typed before the question appeared, and for a moment after
(:data:`app.ui.widgets.key_guard.GUARD_MS`), are discarded. Ctrl+Z / Ctrl+Y are left to the window's
undo and redo (the box has no text undo of its own).

**逐台录入** (board by board, the Swiss-Manager habit): F4 switches the box to the highlighted board —
each result key (``1 0 = 5 + - *``) is entered at once on the board under the table's cursor, which
then moves to the next board without a result. Digits are never board numbers in this mode (``2`` is
refused, ``1`` ``0`` are results), so ``1``, ``0``, ``=`` typed for boards 7, 8, 9 land on 7, 8 and
9. ↑↓ PgUp PgDn move the cursor; F4 or Esc goes back to typing board numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QWidget

from app.engine.types import GameResult, UserError
from app.ui.i18n import current_language, tr
from app.ui.widgets.key_guard import guard_keys

RESULT_KEYS: dict[str, GameResult] = {
    "1": GameResult.RED_WIN,
    "0": GameResult.BLACK_WIN,
    "=": GameResult.DRAW,
    "5": GameResult.DRAW,
    "+": GameResult.BLACK_FORFEIT,
    "-": GameResult.RED_FORFEIT,
    "*": GameResult.DOUBLE_FORFEIT,
}
_AT_ONCE = re.compile(r"^\s*(\d+)\s*([=+\-*])\s*$|^\s*(\d+)[\s./]+([105])\s*$")
_SEPARATED = re.compile(r"^\s*(\d+)[\s./]*([=+\-*])\s*$|^\s*(\d+)[\s./]+([105])\s*$")
_DIGITS = re.compile(r"^\s*(\d+)([105])\s*$")
_KEY_ALONE = re.compile(r"^\s*([105=+\-*])\s*$")


@dataclass(frozen=True, slots=True)
class Reading:
    """What an entry says: ``board`` (``None``: the board under the cursor) and the result."""

    board: int | None
    result: GameResult


class AmbiguousEntry(UserError):
    """Digits that read both as a board number and as a shorter board plus a result key."""


def read_entry(text: str, boards: Collection[int] = (), *, at_once: bool = False) -> Reading | None:
    """Read the box; ``None`` when the text is not (yet) an entry.

    ``boards`` are the round's boards: digits-only text that is itself one of them is ambiguous and
    raises :class:`AmbiguousEntry` (only on Enter; ``at_once`` never takes digits-only text).

    >>> read_entry("12 1", range(1, 61))
    Reading(board=12, result=<GameResult.RED_WIN: 'red_win'>)
    >>> read_entry("121", range(1, 61))
    Reading(board=12, result=<GameResult.RED_WIN: 'red_win'>)
    >>> read_entry("7+", at_once=True)
    Reading(board=7, result=<GameResult.BLACK_FORFEIT: 'black_forfeit'>)
    >>> read_entry("12", range(1, 61), at_once=True) is None
    True
    """
    pattern = _AT_ONCE if at_once else _SEPARATED
    m = pattern.match(text)
    if m:
        board, key = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        return Reading(int(board), RESULT_KEYS[key])
    if at_once:
        return None
    m = _KEY_ALONE.match(text)
    if m:
        return Reading(None, RESULT_KEYS[m.group(1)])
    m = _DIGITS.match(text)
    if not m:
        return None
    whole, key = text.strip(), m.group(2)
    if int(whole) in boards:
        spaced = f"{m.group(1)} {key}"
        raise AmbiguousEntry(
            f"“{whole}”可读作第 {int(whole)} 台，也可读作第 {int(m.group(1))} 台{RESULT_KEYS[key].zh}："
            f"请在台次和结果之间加空格（{spaced}），未录入",
            f"{whole!r} reads as board {int(whole)} or as board {int(m.group(1))} "
            f"{RESULT_KEYS[key].value.replace('_', ' ')}: put a space between board and result "
            f"({spaced}); nothing entered",
        )
    return Reading(int(m.group(1)), RESULT_KEYS[key])


def _is_redo(event: QKeyEvent) -> bool:
    ctrl_y = event.key() == Qt.Key.Key_Y and event.modifiers() == Qt.KeyboardModifier.ControlModifier
    return ctrl_y or event.matches(QKeySequence.StandardKey.Redo)


class ResultEntry(QWidget):
    """The entry line and the label that reads it back; emits ``submitted`` with a :class:`Reading`.

    ``names`` turns a reading into words for the label (the view knows the boards and results);
    ``boards`` gives the round's boards (for the ambiguity rule). ``refused`` carries the message of
    an entry that cannot be read.
    """

    submitted = Signal(object)  # Reading
    refused = Signal(object)  # UserError
    navigate = Signal(int)  # a Qt.Key the table should act on (Up, Down, PageUp, PageDown)
    confirmed = Signal()
    cancelled = Signal()
    mode_changed = Signal(bool)  # 逐台录入 on / off

    def __init__(
        self,
        boards: Callable[[], Collection[int]],
        describe: Callable[[Reading], str],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._boards = boards
        self._describe = describe
        self.confirming = False
        self.by_board = False  # 逐台录入: result keys go to the board under the cursor, at once
        self.edit = QLineEdit(self)
        self.edit.setObjectName("result_entry")
        self.edit.setPlaceholderText(tr("ResultEntry", "台次+结果，如 12 1 回车"))
        self.edit.setClearButtonEnabled(True)
        self.edit.setMinimumWidth(200)
        self.edit.setMaximumWidth(240)
        self.edit.textEdited.connect(self._edited)
        self.edit.returnPressed.connect(self._committed)
        self.edit.installEventFilter(self)
        self.reading = QLabel(self)
        self.reading.setMinimumWidth(220)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit)
        layout.addWidget(self.reading, 1)

    # ------------------------------------------------------------------ reading

    def _edited(self, text: str) -> None:
        if self.confirming:
            self._cancel()
        try:
            reading = read_entry(text, self._boards(), at_once=True)
        except AmbiguousEntry:  # pragma: no cover - at_once never raises
            reading = None
        if reading is not None:
            self.submitted.emit(reading)
            return
        self.show_reading(text)

    def show_reading(self, text: str | None = None) -> None:
        """Say how the text in the box reads (or what is missing), beside it."""
        text = self.edit.text() if text is None else text
        if self.confirming:
            return
        if self.by_board:
            self.reading.setText(
                "<span style='color:#1f4e8c'>"
                + tr("ResultEntry", "逐台录入（F4 或 Esc 退出）：")
                + self._describe(Reading(None, GameResult.PENDING))
                + "</span>"
            )
            return
        if not text.strip():
            self.reading.setText("")
            return
        try:
            reading = read_entry(text, self._boards())
        except AmbiguousEntry:
            self.reading.setText(
                "<span style='color:#b06000'>" + tr("ResultEntry", "有歧义：请加空格") + "</span>"
            )
            return
        if reading is None:
            if text.strip().isdigit() and int(text) in self._boards():  # the board, named: whose game
                words = self._describe(Reading(int(text), GameResult.PENDING))
                self.reading.setText(tr("ResultEntry", "%1：请输入结果").replace("%1", words))
            elif text.strip().isdigit():
                self.reading.setText(tr("ResultEntry", "第 %1 台：请输入结果").replace("%1", text.strip()))
            else:
                self.reading.setText(
                    "<span style='color:#b22222'>" + tr("ResultEntry", "无法识别") + "</span>"
                )
            return
        self.reading.setText("→ " + self._describe(reading))

    def _committed(self) -> None:
        text = self.edit.text()
        if not text.strip():
            return
        try:
            reading = read_entry(text, self._boards())
        except AmbiguousEntry as error:
            self.refused.emit(error)
            self.edit.selectAll()
            return
        if reading is None:
            self.refused.emit(
                UserError(
                    f"无法识别“{text}”：请输入台次和结果，如 12 1",
                    f"cannot read {text!r}: type the board and the result, e.g. 12 1",
                )
            )
            self.edit.selectAll()
            return
        self.submitted.emit(reading)

    def done(self, ok: bool) -> None:
        """After the view handled a submitted reading: clear the box, or select the text to retype."""
        if ok or self.by_board:
            self.edit.clear()
            self.reading.setText("")
            self.show_reading()
        else:
            self.edit.selectAll()

    # ------------------------------------------------------------------ confirming a change

    def ask(self, question: str) -> None:
        """Wait for Y (``confirmed``) or Enter / N / Esc (``cancelled``); ``question`` is shown beside the box.

        Keys already typed (waiting in the queue) and keys typed in the next moment are discarded.
        """
        self.confirming = True
        self.edit.clear()
        self.edit.setStyleSheet("QLineEdit { background: #fff3cd; }")
        self.reading.setText(
            f"<span style='color:#8a5a00'><b>{question}</b> "
            + tr("ResultEntry", "按 Y 改动；回车、N 或 Esc 不改")
            + "</span>"
        )
        self.edit.setFocus()
        guard_keys()

    def _leave_confirming(self) -> None:
        self.confirming = False
        self._show_mode()
        self.reading.setText("")
        if self.by_board:
            self.show_reading()

    def _cancel(self) -> None:
        self._leave_confirming()
        self.cancelled.emit()

    def cancel(self) -> None:
        """Drop a question still waiting."""
        if self.confirming:
            self._leave_confirming()

    def reset(self) -> None:
        """The round or the group changed: a question waiting and a half-typed entry are dropped."""
        self.cancel()
        self.edit.clear()
        self.reading.setText("")
        self.show_reading()

    # ------------------------------------------------------------------ 逐台录入

    def set_by_board(self, on: bool) -> None:
        """逐台录入 on or off (F4): result keys go at once to the board under the table's cursor."""
        if on == self.by_board:
            return
        self.cancel()
        self.by_board = on
        self.edit.clear()
        self.edit.setReadOnly(on)
        self.edit.setClearButtonEnabled(not on)
        self.edit.setPlaceholderText(
            tr("ResultEntry", "逐台：只按结果键") if on else tr("ResultEntry", "台次+结果，如 12 1 回车")
        )
        self._show_mode()
        self.reading.setText("")
        self.show_reading()
        self.mode_changed.emit(on)

    def _show_mode(self) -> None:
        self.edit.setStyleSheet("QLineEdit { background: #dbe8f7; }" if self.by_board else "")

    def _by_board_key(self, event: QKeyEvent) -> bool:
        """A key in 逐台录入; True when it was taken."""
        key = event.key()
        if key in (Qt.Key.Key_Escape, Qt.Key.Key_F4):
            self.set_by_board(False)
            return True
        text = event.text()
        plain = not event.modifiers() & (
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
        )
        if plain and text in RESULT_KEYS:
            self.submitted.emit(Reading(None, RESULT_KEYS[text]))
            return True
        if plain and text and text.isprintable():
            self.refused.emit(
                UserError(
                    f"逐台录入时只收结果键（1 0 = 5 + - *），“{text}”未录入；按 F4 回到按台次录入",
                    f"board by board takes result keys only (1 0 = 5 + - *); {text!r} was not entered; "
                    "F4 goes back to typing board numbers",
                )
            )
            return True
        return False

    # ------------------------------------------------------------------ keys

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self.edit or not isinstance(event, QKeyEvent):
            return super().eventFilter(watched, event)
        if event.type() == QEvent.Type.ShortcutOverride:
            # Ctrl+Z / Ctrl+Y belong to the window's undo stack, not to the line's text undo.
            if event.matches(QKeySequence.StandardKey.Undo) or _is_redo(event):
                event.ignore()
                return True
            return False
        if event.type() != QEvent.Type.KeyPress:
            return False
        key = event.key()
        if self.confirming:
            if key == Qt.Key.Key_Y:
                self._leave_confirming()
                self.confirmed.emit()
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape, Qt.Key.Key_N):
                self._cancel()
                return True
            if event.text() or key in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete):
                self._cancel()  # and the key is typed as usual
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            self.navigate.emit(int(key))
            return True
        if key == Qt.Key.Key_F4 and not self.by_board and not event.modifiers():
            self.set_by_board(True)
            return True
        if self.by_board and not self.confirming:
            return self._by_board_key(event)
        return False


def message_of(error: UserError) -> str:
    return error.en if current_language() == "en" else error.zh
