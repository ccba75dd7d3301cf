"""The game page (棋谱): text layer of players, result, diagram and moves; page count by hand."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from app.engine.types import UserError
from app.engine.xiangqi import GameRecord, parse_pgn
from app.reports.model import EventHeader
from app.reports.pdf import render_document
from app.reports.pdf.game import ROWS_FIRST, ROWS_LATER, GameSheet

from .conftest import PRINTED_AT, Rendered

MASTER = Path(__file__).parents[1] / "engine" / "xiangqi" / "data" / "liu_dahua_yang_guanlin_1982.pgn"
HEADER = EventHeader("测试赛", "公开组", 4)


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def render(sheet: GameSheet) -> Rendered:
    buf = io.BytesIO()
    render_document("game", sheet, buf, printed_at=PRINTED_AT)
    return Rendered(buf.getvalue())


@pytest.fixture(scope="module")
def master() -> GameRecord:
    return parse_pgn(MASTER.read_text(encoding="utf-8")).with_header("Round", "4").with_header("Board", "1")


def test_master_game_page_text_and_pages(master: GameRecord) -> None:
    # 63 numbered lines; the first page holds 2 × 24 = 48 under the diagram, the second the last 15
    assert (ROWS_FIRST, ROWS_LATER) == (24, 51)
    pdf = render(GameSheet(HEADER, master))
    assert pdf.pages == 2
    first, second = (squash(t) for t in pdf.page_texts)
    assert "红方柳大华对黑方杨官璘" in first
    assert "结果：和棋1/2-1/2" in first and "63回合" in first and "第4轮" in first
    assert "楚河" in first and "汉界" in first
    assert "第63回合红方走后局面（终局）" in first
    assert "1.炮八平五马２进３" in first and "48." in first and "49." not in first
    assert "49." in second and "63.兵八平九" in second
    assert "第1页/共2页" in first and "第2页/共2页" in second
    # the diagram (between the file numbers and the caption) draws the pieces of the final position
    diagram = first[first.index("９一") + 2 : first.index("第63回合")]
    names = dict(zip("KABNRCPkabnrcp", "帅仕相马车炮兵将士象马车炮卒", strict=True))
    expected = [names[p.symbol] for p in master.replay().pieces().values()]
    assert sorted(diagram) == sorted(expected) and len(diagram) == 18  # 9 a side


def test_start_position_diagram_has_every_piece(master: GameRecord) -> None:
    text = squash(render(GameSheet(HEADER, master, ply=0)).page_texts[0])
    diagram = text[text.index("９一") + 2 : text.index("开局局面")]
    assert sorted(diagram) == sorted("车马相仕帅仕相马车炮炮兵兵兵兵兵" + "车马象士将士象马车炮炮卒卒卒卒卒")


def test_short_game_is_one_page_and_a_bad_ply_is_refused() -> None:
    record = parse_pgn("1. 炮二平五 马８进７\n2. 马二进三 *")
    pdf = render(GameSheet(HEADER, record, ply=1))
    assert pdf.pages == 1
    text = squash(pdf.text)
    assert "第1回合红方走后局面" in text and "2.马二进三" in text
    with pytest.raises(UserError, match="只有 3 步"):
        render(GameSheet(HEADER, record, ply=4))
