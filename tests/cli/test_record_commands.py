"""The record commands: attach a PGN to a board (validated), export the records as one PGN."""

from pathlib import Path

import pytest

from app.cli import main
from app.engine.xiangqi import parse_pgn_bytes
from app.services.snapshot import import_snapshot
from tests.factories import player, snapshot, swiss_round

MASTER = Path(__file__).parent.parent / "engine" / "xiangqi" / "data" / "liu_dahua_yang_guanlin_1982.pgn"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def event(tmp_path: Path) -> Path:
    players = [player(1, "柳大华"), player(2, "杨官璘"), player(3, "棋手3"), player(4, "棋手4")]
    rounds = [swiss_round(1, [(1, 2, "draw"), (3, 4, "draw")]), swiss_round(2, [(1, 3, "draw")], byes=[])]
    import_snapshot(snapshot(players, rounds), tmp_path / "t.xqt").close()
    return tmp_path / "t.xqt"


def test_record_then_records_export(event: Path, tmp_path: Path, capsys) -> None:
    gbk = tmp_path / "game.pgn"
    gbk.write_bytes(MASTER.read_text(encoding="utf-8").encode("gbk"))
    code, out, err = run(
        capsys, "record", str(event), "--group", "公开组", "--round", "1", "--board", "1", "--pgn", str(gbk)
    )
    assert (code, err) == (0, "") and "63 回合" in out
    short = tmp_path / "short.pgn"
    short.write_text("1. 炮二平五 马８进７\n1/2-1/2\n", encoding="utf-8")
    code, out, _ = run(
        capsys, "record", str(event), "--group", "公开组", "--round", "1", "--board", "2", "--pgn", str(short)
    )
    assert code == 0 and out.count("违规") == 2
    target = tmp_path / "out.pgn"
    code, out, _ = run(capsys, "records", str(event), "--round", "1", "-o", str(target))
    assert code == 0 and "2 局" in out
    games = parse_pgn_bytes(target.read_bytes())
    assert [(g.header("Red"), g.full_moves) for g in games] == [("柳大华", 63), ("棋手3", 1)]


def test_illegal_move_is_an_error_on_stderr(event: Path, tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.pgn"
    bad.write_text("1. 炮二平五 马８进７\n2. 炮五进四 车９进９\n*\n", encoding="utf-8")
    code, out, err = run(
        capsys, "record", str(event), "--group", "公开组", "--round", "1", "--board", "1", "--pgn", str(bad)
    )
    assert code == 2 and out == ""
    assert "第 2 回合黑方着法“车９进９”" in err
    code, _, err = run(capsys, "records", str(event), "-o", str(tmp_path / "none.pgn"))
    assert code == 2 and "没有可导出的棋谱" in err
