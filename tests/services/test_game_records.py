"""Game records attached to boards: a real master game, illegal moves, short draws, headers, GBK, export."""

from pathlib import Path

import pytest

from app.engine.types import GameResult, UserError
from app.engine.xiangqi import parse_pgn, parse_pgn_games
from app.services.game_records import attach_record, board_records, export_round_records, record_of
from app.services.records import record_duty_list
from app.services.results import enter_result
from app.services.snapshot import export_snapshot, import_snapshot
from tests.factories import open_copy, player, snapshot, swiss_round

MASTER = Path(__file__).parents[1] / "engine" / "xiangqi" / "data" / "liu_dahua_yang_guanlin_1982.pgn"
SHORT_DRAW = '[Red "棋手3"]\n[Black "棋手4"]\n1. 炮二平五 马８进７\n2. 马二进三 车９平８\n1/2-1/2\n'


@pytest.fixture(scope="module")
def event_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The event, imported once for the module (read-only: each test opens its own copy)."""
    players = [player(1, "柳大华"), player(2, "杨官璘")] + [player(i, f"棋手{i}") for i in range(3, 9)]
    # round 4: board 1 柳大华 (red) v 杨官璘 drawn; board 2 棋手3 v 棋手4 drawn; 3 and 4 red wins
    rounds = [
        swiss_round(n, [(1, 2, "draw"), (3, 4, "draw"), (5, 6, "red_win"), (7, 8, "pending")])
        for n in (1, 2, 3, 4)
    ]
    path = tmp_path_factory.mktemp("records") / "t.xqt"
    import_snapshot(snapshot(players, rounds), path).close()
    return path


@pytest.fixture
def db(tmp_path: Path, event_file: Path):
    database = open_copy(event_file, tmp_path / "t.xqt")
    yield database
    database.close()


def test_master_game_is_attached_normalised_and_owed_record_marked_received(db) -> None:
    attached = attach_record(db, "公开组", 4, 1, MASTER.read_text(encoding="utf-8"))
    assert attached.full_moves == 63
    assert attached.violations == () and attached.natural_limit == ()
    lines = attached.pgn.splitlines()
    assert lines[:8] == [
        '[Game "Chinese Chess"]',
        '[Event "测试赛"]',
        '[Round "4"]',
        '[Board "1"]',
        '[Date "2024.07.26"]',
        '[Red "柳大华"]',
        '[Black "杨官璘"]',
        '[Result "1/2-1/2"]',
    ]
    assert lines[10] == "1. 炮八平五 马２进３" and lines[-2] == "63. 兵八平九"
    # the draw on board 1 in round 4 is owed by Black (杨官璘); it is now received with 63 moves
    duty = next(d for d in record_duty_list(db, "公开组", 4) if d.board == 1)
    assert (duty.recorder_no, duty.received, duty.moves) == (2, True, 63)
    stored = record_of(db, "公开组", 4, 1)
    original = parse_pgn(MASTER.read_text(encoding="utf-8"))
    assert stored is not None and stored.moves == original.moves and stored.result is GameResult.DRAW
    assert record_of(db, "公开组", 4, 2) is None


def test_illegal_move_is_refused_with_its_number_and_side_and_nothing_stored(db) -> None:
    text = '[Red "柳大华"]\n1. 炮二平五 马８进７\n2. 马二进三 车９平８\n3. 车一进一 马７进７\n1/2-1/2\n'
    with pytest.raises(UserError, match="第 3 回合黑方着法“马７进７”") as caught:
        attach_record(db, "公开组", 4, 1, text)
    assert "move 3 (black)" in caught.value.en
    assert record_of(db, "公开组", 4, 1) is None
    assert export_snapshot(db)["records"] == []


def test_short_drawn_record_raises_both_violations(db) -> None:
    attached = attach_record(db, "公开组", 4, 2, SHORT_DRAW)
    assert attached.full_moves == 2
    assert sorted(v.player_no for v in attached.violations) == [3, 4]
    assert sorted((v["player"], v["kind"]) for v in export_snapshot(db)["violations"]) == [
        (3, "short_draw_record"),
        (4, "short_draw_record"),
    ]


def test_natural_limit_is_reported_not_charged(db) -> None:
    # chariots and horses shuffle 40 moves with no capture and no check
    pairs = ["1. 马二进三 马８进７", "2. 马三退二 马７退８"] * 20
    text = '[Red "棋手5"]\n' + "\n".join(f"{i + 1}. {p.split('. ')[1]}" for i, p in enumerate(pairs))
    attached = attach_record(db, "公开组", 4, 3, text + "\n1-0\n")
    assert [f.move_number for f in attached.natural_limit] == [40]
    assert attached.violations == ()


def test_header_mismatches_are_refused(db) -> None:
    with pytest.raises(UserError, match="棋谱红方为“胡荣华”，第 1 台红方是“柳大华”"):
        attach_record(db, "公开组", 4, 1, '[Red "胡荣华"]\n1. 炮二平五 *')
    with pytest.raises(UserError, match="红黑方与第 1 台对阵相反"):
        attach_record(db, "公开组", 4, 1, '[Red "杨官璘"]\n[Black "柳 大华"]\n1. 炮二平五 *')
    with pytest.raises(UserError, match="棋谱结果 1-0 与第 1 台录入的成绩 1/2-1/2 不符"):
        attach_record(db, "公开组", 4, 1, '[Result "1-0"]\n1. 炮二平五 1-0')
    with pytest.raises(UserError, match="第 4 台尚无成绩"):
        attach_record(db, "公开组", 4, 4, "1. 炮二平五 *")
    assert export_snapshot(db)["records"] == []


def test_missing_headers_and_result_are_filled_from_the_pairing(db) -> None:
    attached = attach_record(db, "公开组", 4, 3, "1. 炮二平五 马８进７ *")
    assert (attached.record.header("Red"), attached.record.header("Black")) == ("棋手5", "棋手6")
    assert '[Result "1-0"]' in attached.pgn


def test_gbk_bytes_are_read(db) -> None:
    data = MASTER.read_text(encoding="utf-8").encode("gbk")
    attached = attach_record(db, "公开组", 4, 1, data)
    assert attached.full_moves == 63


def test_round_export_reimports_identically(db) -> None:
    attach_record(db, "公开组", 4, 2, SHORT_DRAW)
    attach_record(db, "公开组", 4, 1, MASTER.read_bytes())
    attach_record(db, "公开组", 3, 3, "1. 炮二平五 马８进７ 1-0")
    text = export_round_records(db, "公开组", 4)
    games = parse_pgn_games(text)
    assert [g.header("Board") for g in games] == ["1", "2"]
    assert games == (record_of(db, "公开组", 4, 1), record_of(db, "公开组", 4, 2))
    everything = parse_pgn_games(export_round_records(db))
    assert [(g.header("Round"), g.header("Board")) for g in everything] == [
        ("3", "3"),
        ("4", "1"),
        ("4", "2"),
    ]
    assert export_round_records(db, "公开组", 2) == ""


def test_board_list_shows_duties_and_records(db) -> None:
    enter_result(db, "公开组", 4, 4, "0-1")
    attach_record(db, "公开组", 4, 1, MASTER.read_bytes())
    lines = board_records(db, "公开组", 4)
    assert [(ln.board, ln.recorder, ln.received, ln.moves) for ln in lines] == [
        (1, "杨官璘", True, 63),
        (2, "棋手4", False, None),
        (3, "棋手5", False, None),
        (4, "棋手8", False, None),
    ]


def test_print_game_writes_the_stored_record(db, tmp_path: Path) -> None:
    from datetime import datetime

    import pypdfium2 as pdfium

    from app.services.game_records import print_game

    with pytest.raises(UserError, match="第 1 台还没有棋谱"):
        print_game(db, "公开组", 4, 1, tmp_path / "none.pdf", printed_at=datetime(2024, 7, 29, 10, 0))
    attach_record(db, "公开组", 4, 1, MASTER.read_bytes())
    print_game(db, "公开组", 4, 1, tmp_path / "g.pdf", printed_at=datetime(2024, 7, 29, 10, 0), ply=0)
    pdf = pdfium.PdfDocument(str(tmp_path / "g.pdf"))
    text = pdf[0].get_textpage().get_text_range().replace(" ", "")
    assert len(pdf) == 2 and "柳大华" in text and "开局局面" in text and "测试赛" in text
