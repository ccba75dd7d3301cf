"""The round robin's documents: 对局秩序表 printed from the table, and the square crosstable (PDF and
Excel) agreeing with the games played, with no personal number anywhere."""

from __future__ import annotations

import io
import re

import openpyxl

from app.engine.round_robin import schedule
from app.reports.excel import write_workbook
from app.services import exports
from app.services.rounds import group_state

from .conftest import OPEN, DemoEvent, Rendered


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_the_schedule_is_the_rulebooks_table_with_names(
    round_robin_event: DemoEvent, documents: dict[str, Rendered]
) -> None:
    doc = round_robin_event.model("order-of-play")
    [pool] = doc.pools
    assert len(pool.rounds) == 9  # 9 players: 9 rounds, one rests in each
    names = {number: who.split(" ")[1].split("（")[0] for number, who in pool.numbers}
    for printed, table in zip(pool.rounds, schedule(9), strict=True):
        expected = tuple((f"{a} {names[a]}", f"{b} {names[b]}") for a, b in table.pairs)
        assert printed.pairs == expected
        assert printed.rest == f"{table.bye} {names[table.bye]}"  # type: ignore[index]
    text = squash(documents["order-of-play"].text)
    assert "对局秩序表" in text and "每对中前一号执红先走" in text
    assert squash(f"{pool.rounds[0].pairs[0][0]} — {pool.rounds[0].pairs[0][1]}") in text


def test_the_square_table_holds_the_points_of_every_game(
    round_robin_event: DemoEvent, documents: dict[str, Rendered]
) -> None:
    table = round_robin_event.model("crosstable")
    assert table.__class__.__name__ == "RoundRobinTable"
    [pool] = table.pools
    state = group_state(round_robin_event.db, OPEN)
    number_of = {r.no: r.number for r in pool.rows}
    played = 0
    for r in state.rounds:
        for g in r.games:
            red, black = g.red, g.black
            red_cell = pool.rows[number_of[red] - 1].cells[number_of[black] - 1]
            black_cell = pool.rows[number_of[black] - 1].cells[number_of[red] - 1]
            if g.result.value == "red_win":
                assert (red_cell, black_cell) == ("2", "0")
            elif g.result.value == "draw":
                assert (red_cell, black_cell) == ("1", "1")
            elif g.result.value == "black_win":
                assert (red_cell, black_cell) == ("0", "2")
            played += 1
    assert played == 4 * 4  # four rounds of four games
    for i, row in enumerate(pool.rows):
        assert row.cells[i] == "—"
        assert row.score == sum(int(c) for c in row.cells if c.isdigit())
    assert sorted(r.place for r in pool.rows) == list(range(1, 10))  # type: ignore[type-var]
    assert table.chain[:2] == ("直胜", "小分")
    text = squash(documents["crosstable-round-robin"].text)
    assert "循环赛成绩表" in text and "第4轮后" in text


def test_round_robin_documents_show_no_personal_number(
    round_robin_event: DemoEvent, documents: dict[str, Rendered]
) -> None:
    for name in ("order-of-play", "crosstable-round-robin"):
        text = squash(documents[name].text)
        for p in round_robin_event.players:
            assert p.id_number not in text and p.phone not in text and p.id_number[6:14] not in text, (
                name,
                p.no,
            )


def test_the_workbook_has_the_square_table(round_robin_event: DemoEvent) -> None:
    data = exports.result_workbook(round_robin_event.db)
    assert len(data.round_robins) == 1
    buf = io.BytesIO()
    write_workbook(data, buf)
    wb = openpyxl.load_workbook(io.BytesIO(buf.getvalue()))
    [name] = [n for n in wb.sheetnames if n.startswith("循环赛成绩表")]
    ws = wb[name]
    header = [c.value for c in ws[next(r for r in range(1, 6) if ws.cell(r, 1).value == "号")]]
    assert header[:4] == ["号", "序号", "姓名", "单位"] and header[4:13] == [str(k) for k in range(1, 10)]
