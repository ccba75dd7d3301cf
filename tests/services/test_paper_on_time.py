"""Paper at the right time: record sheets when the round starts, knockout cards and pairing lists
with their match, game and time control, the bracket in Chinese, the CLI's bracket and board count."""

from __future__ import annotations

import io
from datetime import datetime
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from app.cli import main
from app.reports.pdf import render_document
from app.services import exports
from app.services.rounds import round_view
from app.services.tournaments import open_tournament
from tests.factories import copy_event

OPEN, LOCAL = "公开组", "天水本地组"


@pytest.fixture(scope="module")
def midway(tmp_path_factory: pytest.TempPathFactory, midway_demo_file: Path):
    """公开组 round 4 paired with boards 1, 2, 3 and 5 entered (5 a forfeit); 天水本地组 round 10 paired
    (semi-finals and 5–8 semi-finals on boards 1–4), round 9's quarter-finals with rapid and deciding games."""
    db = open_tournament(copy_event(midway_demo_file, tmp_path_factory.mktemp("paper") / "mid.xqt"))
    yield db
    db.close()


def pdf_text(name: str, model: object) -> str:
    buf = io.BytesIO()
    render_document(name, model, buf, printed_at=datetime(2024, 7, 27, 8, 0))
    doc = pdfium.PdfDocument(buf.getvalue())
    return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))


def test_record_sheets_are_printable_when_the_round_starts(midway) -> None:
    sheets = exports.record_sheets(midway, LOCAL, 10)  # round 10: nothing played yet
    boards = round_view(midway, LOCAL, 10).boards
    assert all(b.result.is_pending for b in boards if b.board <= 10)
    assert [d.board for d in sheets.duties] == [b for b in range(1, 11) for _ in (0, 1)]  # one per player
    by_board = {b.board: b for b in boards}
    for red_sheet, black_sheet in zip(sheets.duties[::2], sheets.duties[1::2], strict=True):
        b = by_board[red_sheet.board]
        assert red_sheet.recorder.startswith(f"红方 {b.red.no}号 {b.red.name}")
        assert black_sheet.recorder.startswith(f"黑方 {b.black.no}号 {b.black.name}")
        assert "获胜方交谱，和棋由黑方交谱" in red_sheet.recorder
    text = pdf_text("record-sheets", sheets)
    assert by_board[1].red.name in text and by_board[1].black.name in text


def test_record_sheets_follow_the_results_once_they_are_in(midway) -> None:
    sheets = exports.record_sheets(midway, OPEN, 4)
    view = {b.board: b for b in round_view(midway, OPEN, 4).boards}
    per_board: dict[int, list[str]] = {}
    for d in sheets.duties:
        per_board.setdefault(d.board, []).append(d.recorder)
    assert per_board[1] == [f"{view[1].red.no} {view[1].red.name}（第4轮第1台：前10台，获胜方录谱）"]  # 红胜
    assert per_board[2][0].startswith(f"{view[2].black.no} {view[2].black.name}")  # draw: Black records
    assert 5 not in per_board  # a forfeit owes no record
    assert [len(per_board[b]) for b in (4, 6, 7, 8, 9, 10)] == [2] * 6  # no result yet: both players
    assert len(sheets.duties) == 3 + 12


def test_knockout_cards_and_pairing_list_show_match_game_and_time_control(midway) -> None:
    cards = exports.table_cards(midway, LOCAL, 10)
    knockout = [r for r in cards.rows if r.match]
    assert [r.board for r in knockout] == [1, 2, 3, 4]
    assert [r.match for r in knockout] == [
        "半决赛第1场",
        "半决赛第2场",
        "5–8名半决赛第1场",
        "5–8名半决赛第2场",
    ]
    assert {(r.game, r.time_control) for r in knockout} == {("第1局 慢棋", "20′+5″")}
    assert all(not r.match and not r.time_control for r in cards.rows if r.board > 4)
    assert cards.header.time_control == "20′+10″"  # the Swiss boards' control, from the header
    text = pdf_text("table-cards", cards)
    assert "半决赛第1场 第1局 慢棋" in text and "用时 20′+5″" in text and "用时 20′+10″" in text

    listed = exports.pairing_list(midway, LOCAL, 9)  # every game of the quarter-finals
    stages = {(r.match, r.game, r.time_control) for r in listed.rows if r.match}
    assert ("1/4决赛第1场", "第2局 快棋（换先）", "10′+3″") in stages
    assert ("1/4决赛第1场", "第3局 附加赛", "5′+3″") in stages
    text = pdf_text("pairings", listed)
    assert "赛别（用时）" in text and "10′+3″" in text and "5′+3″" in text


def test_the_bracket_pdf_names_matches_in_chinese(midway) -> None:
    text = pdf_text("bracket", exports.bracket(midway, LOCAL))
    for code in ("QF1", "SF1胜者", "3RD", "P5SF1", "P5", "P7"):
        assert code not in text
    assert "半决赛第1场胜者" in text and "5–8名半决赛第1场负者" in text and "第3、4名决赛" in text


def test_cli_bracket_and_pair_say_what_is_true(midway, tmp_path: Path, capsys) -> None:
    path = Path(midway.path)
    assert main(["bracket", str(path), "--group", LOCAL]) == 0
    out = capsys.readouterr().out
    assert "None" not in out and "半决赛第1场胜者（待定）" in out
    assert "black_win" not in out and "黑胜" in out and "和（黑胜）" in out
    # pairing round 10's continuing Swiss: the round has knockout boards 1–4 too
    from app.services.snapshot import export_snapshot, import_snapshot

    copy = tmp_path / "copy.xqt"
    import_snapshot(export_snapshot(midway), copy).close()
    assert main(["unpair", str(copy), "--group", LOCAL, "--round", "10"]) == 0
    capsys.readouterr()
    assert main(["pair", str(copy), "--group", LOCAL, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    from app.services.tournaments import open_tournament

    db = open_tournament(copy)
    try:
        boards = len(round_view(db, LOCAL, 10).boards)
    finally:
        db.close()
    assert f"已编排：{boards} 台（淘汰赛 4 台，积分编排 {boards - 4} 台）" in out
