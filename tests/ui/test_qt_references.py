"""The Qt binding keeps Python's reference counts: PySide6 6.12.0 dropped a reference to ``True`` on
every emit of a signal to a Python slot, and Python 3.11 (where ``True`` is an ordinary object) then
aborted the window ("bool_dealloc: deallocating True or False") once the count ran out — after some
thousands of refreshes, with the hall on, or at the latest when the window closed. pyproject keeps
that version out; this test fails on any version that brings the fault back."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Sender(QObject):
    changed = Signal()
    named = Signal(str)


def test_emitting_a_signal_keeps_the_reference_counts_of_true_and_false() -> None:
    sender = _Sender()
    calls: list[int] = []
    sender.changed.connect(lambda: calls.append(1))
    sender.named.connect(lambda text: calls.append(len(text)))
    before = (sys.getrefcount(True), sys.getrefcount(False))
    for _ in range(500):
        sender.changed.emit()
        sender.named.emit("公开组")
    after = (sys.getrefcount(True), sys.getrefcount(False))
    assert len(calls) == 1000
    # a few references may come and go with other objects; a binding that drops one per emit loses 500
    assert after[0] >= before[0] - 20, (before, after)
    assert after[1] >= before[1] - 20, (before, after)
