"""The progress line: on a terminal only, after a delay, erased when the command ends or prints."""

from __future__ import annotations

import io
import sys
import time

import pytest

from app.cli.common import progress_line


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_slow_command_shows_its_line_and_erases_it(monkeypatch: pytest.MonkeyPatch) -> None:
    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    with progress_line("生成台卡", delay=0.05, interval=0.02):
        time.sleep(0.3)
    shown = term.getvalue()
    assert "\r正在生成台卡…… 0 秒 (working)" in shown
    last = shown.rsplit("\r", 2)
    assert last[-1] == "" and set(last[-2]) == {" "}  # the line is blanked out, the cursor back at its start


def test_output_of_the_command_stops_the_line_first(monkeypatch: pytest.MonkeyPatch) -> None:
    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    with progress_line("生成台卡", delay=0.05, interval=0.02):
        time.sleep(0.15)
        print("已生成 cards.pdf")
        shown_at_print = term.getvalue()
        time.sleep(0.15)
    assert out.getvalue() == "已生成 cards.pdf\n"
    assert term.getvalue() == shown_at_print  # nothing more once the command printed
    assert set(shown_at_print.rsplit("\r", 2)[-2]) == {" "}


def test_nothing_for_a_quick_command_or_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    with progress_line("配对", delay=0.5):
        pass
    assert term.getvalue() == ""
    piped = io.StringIO()  # not a terminal
    monkeypatch.setattr(sys, "stderr", piped)
    with progress_line("配对", delay=0.0, interval=0.01):
        time.sleep(0.1)
    assert piped.getvalue() == ""
