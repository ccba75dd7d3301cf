"""赛场网络 in the window: a deputy's phone sends a result over the real server, it waits in the rounds
view (待确认), the chief confirms it with one key (Enter in the list) — and a key typed elsewhere
confirms nothing; conflicts are marked; undo; the dialog; the long picture from the print preview."""

from __future__ import annotations

import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.engine.types import GameResult
from app.services import hall
from app.services.audit import audit_log
from app.services.rounds import round_view
from app.ui import file_dialogs
from app.ui.hall import HallDialog
from app.ui.main_window import MainWindow
from app.ui.views.rounds import RoundsView
from tests.ui.questions import until_keys_count

GROUP = "公开组"


def rounds_view(window: MainWindow) -> RoundsView:
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    return view


def result_of(window: MainWindow, board: int) -> GameResult:
    assert window.document is not None
    return next(b.result for b in round_view(window.document.db, GROUP, 2).boards if b.board == board)


def send_from_phone(qtbot: Any, url: str, token: str, board: int, result: str) -> int:
    """A deputy's phone: open the page, send the form (in a thread: the window runs the write)."""
    answer: list[int] = []

    def phone() -> None:
        page = urllib.request.urlopen(url + hall.deputy_path(token), timeout=10).read().decode()
        csrf = re.search(r'name="csrf" value="([A-Za-z0-9_-]+)"', page).group(1)
        data = urllib.parse.urlencode({"csrf": csrf, "board": board, "result": result}).encode()
        request = urllib.request.Request(url + hall.deputy_path(token), data=data, headers={"Origin": url})
        try:
            answer.append(urllib.request.urlopen(request, timeout=10).status)
        except urllib.error.HTTPError as error:
            answer.append(error.code)

    thread = threading.Thread(target=phone)
    thread.start()
    qtbot.waitUntil(lambda: bool(answer), timeout=15_000)  # the Qt loop runs while the phone waits
    thread.join()
    return answer[0]


@pytest.fixture
def served(qtbot, window: MainWindow):
    assert window.document is not None
    url = window.hall.start(window.document, "127.0.0.1", 0)
    yield url
    window.hall.stop()


def test_a_deputy_result_waits_and_one_key_confirms_it(qtbot, window: MainWindow, served: str) -> None:
    assert window.document is not None
    view = rounds_view(window)
    assert not view.pending.isVisible()
    issued = hall.issue_deputy_token(window.document.db, GROUP, 1, 10, "张副裁判")
    assert send_from_phone(qtbot, served, issued.token, 7, "black_win") == 200  # after the 303
    qtbot.waitUntil(lambda: view.pending.isVisible())
    assert view.pending.list.topLevelItemCount() == 1
    assert view.pending.title() == "待确认（1）"
    assert result_of(window, 7) is GameResult.PENDING  # nothing entered yet

    # a key typed with the focus elsewhere confirms nothing
    view.entry.setFocus()
    qtbot.keyClick(view.entry, Qt.Key.Key_Return)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert result_of(window, 7) is GameResult.PENDING
    assert view.pending.list.topLevelItemCount() == 1

    # F8 takes the keyboard to the list; Enter confirms
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_F8)
    assert QApplication.focusWidget() is view.pending.list
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert result_of(window, 7) is GameResult.BLACK_WIN
    assert not view.pending.isVisible()
    actions = [(a.action, a.who) for a in audit_log(window.document.db)[-3:]]
    assert actions == [
        ("deputy_submit_result", "副裁判 张副裁判"),
        ("enter_result", "裁判长"),
        ("confirm_deputy_result", "裁判长"),
    ]
    assert "127.0.0.1" in audit_log(window.document.db)[-3].reason  # which device

    window.undo_action.trigger()
    assert result_of(window, 7) is GameResult.PENDING
    assert view.pending.list.topLevelItemCount() == 1


def test_differing_entries_are_marked_and_delete_sets_one_aside(
    qtbot, window: MainWindow, served: str
) -> None:
    assert window.document is not None
    view = rounds_view(window)
    a = hall.issue_deputy_token(window.document.db, GROUP, 1, 10, "甲")
    b = hall.issue_deputy_token(window.document.db, GROUP, 5, 15, "乙")
    assert send_from_phone(qtbot, served, a.token, 6, "red_win") == 200
    assert send_from_phone(qtbot, served, b.token, 6, "draw") == 200
    qtbot.waitUntil(lambda: view.pending.list.topLevelItemCount() == 2)
    items = [view.pending.list.topLevelItem(i) for i in range(2)]
    assert [i.text(4) for i in items] == ["冲突", "冲突"]
    view.pending.list.setFocus()
    view.pending.list.setCurrentItem(items[0])
    qtbot.keyClick(view.pending.list, Qt.Key.Key_Delete)
    until_keys_count(qtbot)  # keys are discarded for a moment after an entry is set aside
    assert result_of(window, 6) is GameResult.PENDING
    assert view.pending.list.topLevelItemCount() == 1
    assert view.pending.list.topLevelItem(0).text(4) == ""  # no conflict left
    qtbot.keyClick(view.pending.list, Qt.Key.Key_1)  # a result key in the list enters nothing
    assert result_of(window, 6) is GameResult.PENDING
    qtbot.keyClick(view.pending.list, Qt.Key.Key_Enter)
    assert result_of(window, 6) is GameResult.DRAW


def test_a_wrong_token_from_a_phone_changes_nothing(qtbot, window: MainWindow, served: str) -> None:
    assert window.document is not None
    before = len(audit_log(window.document.db))
    answer = urllib.request.Request(
        served + "/d/not-a-token", data=b"csrf=x&board=1&result=red_win", headers={"Origin": served}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(answer, timeout=10)
    assert refused.value.code == 403
    assert len(audit_log(window.document.db)) == before


def test_the_dialog_serves_shows_the_qr_code_and_issues_passes(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    assert window.document is not None
    dialog = window.show_hall()
    assert isinstance(dialog, HallDialog)
    assert dialog.network.currentData() == "127.0.0.1"  # loopback unless the arbiter picks a network
    dialog.port.setValue(0)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    try:
        assert window.hall.running
        url = dialog.address.text()
        assert url.startswith("http://127.0.0.1:")
        picture = tmp_path / "qr.png"
        dialog.qr.pixmap().save(str(picture))
        from PIL import Image

        assert [r.text for r in zxingcpp.read_barcodes(Image.open(picture))] == [url]
        assert "路由器" in dialog.message.text()  # loopback only: how to reach phones
        assert hall.hall_base_url(window.document.db) == ""  # loopback is not printed on paper

        dialog.deputy_name.setText("王副裁判")
        dialog.first_board.setValue(1)
        dialog.last_board.setValue(12)
        issued = dialog.issue()
        assert issued is not None and dialog.passes.topLevelItemCount() == 1
        assert dialog.last_link == url + hall.deputy_path(issued.token)
        dialog.passes.setCurrentItem(dialog.passes.topLevelItem(0))
        dialog.revoke()
        assert dialog.passes.topLevelItem(0).text(4) == "已收回"

        dialog.base_url.setText("http://192.168.1.10:8080/")
        dialog.save_base_url()
        assert hall.hall_base_url(window.document.db) == "http://192.168.1.10:8080"
    finally:
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert not window.hall.running


def test_closing_the_window_stops_the_server(qtbot, window: MainWindow) -> None:
    assert window.document is not None
    window.hall.start(window.document, "127.0.0.1", 0)
    server = window.hall.server
    window.close()
    assert not server.running


def test_the_print_preview_saves_a_long_picture_of_public_lists(
    qtbot, window: MainWindow, tmp_path: Path, monkeypatch
) -> None:

    target = tmp_path / "results.png"
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda *a, **k: str(target))
    preview = window.print_document("pairings")
    assert preview is not None and preview.picture_button.isVisibleTo(preview)
    assert preview.save_picture() == target
    assert target.read_bytes().startswith(b"\x89PNG")
    preview.close()
    payout = window.print_document("table-cards")
    assert payout is not None and not payout.picture_button.isVisibleTo(payout)
    payout.close()


def test_the_server_keeps_running_when_the_language_is_switched(qtbot, event_file: Path) -> None:
    from app.ui.application import Program, application
    from app.ui.document import TournamentDocument
    from app.ui.i18n import install_language

    application()
    install_language("zh")
    program = Program()
    window = program.show(TournamentDocument.open(event_file))
    qtbot.addWidget(window)
    assert window.document is not None
    url = window.hall.start(window.document, "127.0.0.1", 0)
    try:
        program.switch_language("en")
        new = program.window
        assert new is not None and new is not window
        qtbot.addWidget(new)
        assert new.hall.running and new.hall.url == url
        assert urllib.request.urlopen(url + "/", timeout=10).status == 200
        assert new.hall_menu.title() == "Hall network"
    finally:
        install_language("zh")
        program.window.hall.stop()


def test_a_file_opened_read_only_serves_pages_but_writes_nothing(qtbot, event_file: Path) -> None:
    from app.ui.document import TournamentDocument

    other = TournamentDocument.open(event_file)  # another program edits the file
    try:
        document = TournamentDocument.open(event_file, read_only=True)
        window = MainWindow(document)
        qtbot.addWidget(window)
        dialog = window.show_hall()
        assert isinstance(dialog, HallDialog)
        assert not dialog.deputy_name.isEnabled() and not dialog.base_url.isEnabled()
        url = window.hall.start(document, "127.0.0.1", 0)
        assert window.hall.owner is None
        assert urllib.request.urlopen(url + "/g/1/", timeout=10).status == 200
        window.hall.stop()
        window.close()
    finally:
        other.close()
