"""The result workbook read back: every sheet, values equal to the input, no formulas, page setup."""

from __future__ import annotations

import io
from dataclasses import replace

import openpyxl
import pytest

from app.reports.excel import text_width, write_workbook
from app.reports.model import EntryLine, ResultWorkbook
from app.services import exports

from .conftest import LOCAL, OPEN, DemoEvent


@pytest.fixture(scope="module")
def data(event: DemoEvent) -> ResultWorkbook:
    return exports.result_workbook(event.db)


@pytest.fixture(scope="module")
def saved(data: ResultWorkbook) -> bytes:
    buf = io.BytesIO()
    write_workbook(data, buf)
    return buf.getvalue()


def test_every_sheet_present(saved: bytes) -> None:
    wb = openpyxl.load_workbook(io.BytesIO(saved))
    # two groups: every sheet of a group carries the group's name
    assert wb.sheetnames == [
        f"{OPEN}参赛名单",
        f"{LOCAL}参赛名单",
        *(f"{OPEN}第{n}轮" for n in range(1, 12)),
        *(f"{LOCAL}第{n}轮" for n in range(1, 12)),
        f"{OPEN}名次表",
        f"{LOCAL}名次表",
        f"{OPEN}个人成绩总表",
        f"{LOCAL}个人成绩总表",
        f"{OPEN}团体名次表",
        "奖励名单",
        "操作日志",
    ]


def _rows(ws: openpyxl.worksheet.worksheet.Worksheet) -> list[list[object]]:
    return [list(r) for r in ws.iter_rows(min_row=2, values_only=True)]


def test_values_equal_input(saved: bytes, data: ResultWorkbook) -> None:
    wb = openpyxl.load_workbook(io.BytesIO(saved))
    entries = _rows(wb[f"{OPEN}参赛名单"])
    assert len(entries) == 120
    assert entries == [[e.no, e.name, e.unit, e.gender, e.team or None] for e in data.entries[0].lines]
    r5 = data.rounds[4]
    assert len(r5.byes) == 1  # someone withdrew after two forfeits: the round has a bye
    assert _rows(wb[f"{OPEN}第5轮"]) == [
        [
            r.board,
            r.red.no,
            r.red.name,
            r.red.unit,
            r.red.score,
            r.result_zh,
            r.black.score,
            r.black.no,
            r.black.name,
            r.black.unit,
            "，".join(r.marks) or None,
        ]
        for r in r5.rows
    ] + [[None, p.no, p.name, p.unit, p.score, "轮空", None, None, None, None, None] for p in r5.byes]
    standings = _rows(wb[f"{OPEN}名次表"])
    assert [row[:5] for row in standings] == [
        [s.rank, s.no, s.name, s.unit, s.score] for s in data.standings[0].rows
    ]
    header = next(wb[f"{OPEN}名次表"].iter_rows(max_row=1, values_only=True))
    assert list(header[5:10]) == ["对手分", "胜局", "犯规", "后走局数", "后走胜局"]
    assert [row[5:10] for row in standings] == [[v for _, v in s.tiebreaks] for s in data.standings[0].rows]
    cross = _rows(wb[f"{OPEN}个人成绩总表"])
    assert cross[0][3:14] == [c.text for c in data.crosstables[0].rows[0].per_round]
    prizes = _rows(wb["奖励名单"])
    assert sum(int(str(r[4])) for r in prizes) == 27800 + 7900 + 3000


def test_no_formulas_and_data_only_equal(saved: bytes) -> None:
    raw = openpyxl.load_workbook(io.BytesIO(saved))
    cached = openpyxl.load_workbook(io.BytesIO(saved), data_only=True)
    for ws in raw.worksheets:
        for row_raw, row_cached in zip(
            ws.iter_rows(values_only=True), cached[ws.title].iter_rows(values_only=True), strict=True
        ):
            assert row_raw == row_cached
            assert not any(isinstance(v, str) and v.startswith("=") for v in row_raw)


def test_name_starting_with_equals_stays_text(data: ResultWorkbook) -> None:
    entries = data.entries[0]
    odd = replace(entries, lines=(EntryLine(1, "=SUM(A1)", "天水", "男"),))
    buf = io.BytesIO()
    write_workbook(replace(data, entries=(odd,), rounds=(), standings=(), crosstables=(), teams=()), buf)
    ws = openpyxl.load_workbook(io.BytesIO(buf.getvalue()))["参赛名单"]
    assert ws["B2"].value == "=SUM(A1)"
    assert ws["B2"].data_type == "s"


def test_page_setup_frozen_header_widths(saved: bytes, data: ResultWorkbook) -> None:
    wb = openpyxl.load_workbook(io.BytesIO(saved))
    for ws in wb.worksheets:
        assert ws.freeze_panes == "A2"
        assert ws.page_setup.orientation == "landscape"
        assert int(ws.page_setup.paperSize) == 9  # A4
        assert ws.print_title_rows == "$1:$1"
    ws = wb[f"{OPEN}名次表"]
    longest_unit = max(text_width(s.unit) for s in data.standings[0].rows)
    assert ws.column_dimensions["D"].width >= longest_unit
    assert text_width("王天一") == 6


def _parts(workbook: bytes) -> dict[str, bytes]:
    import zipfile

    with zipfile.ZipFile(io.BytesIO(workbook)) as z:
        return {n: z.read(n) for n in z.namelist() if n != "docProps/core.xml"}  # core: the time saved


@pytest.mark.parametrize(
    "name",
    ["", " ", "  前后有空格 ", "A&B <C> \"D\" 'E'", "#N/A", "=SUM(A1)", "=", "1.5e3", "x" * 40000, "换\n行"],
)
def test_rows_written_directly_are_openpyxls_xml_byte_for_byte(
    data: ResultWorkbook, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plain rows bypass openpyxl's cell objects: every part of the file stays what openpyxl writes,
    whatever the texts and numbers (a gap, an empty text, spaces, markup, error codes, long texts)."""
    import app.reports.excel as excel

    entries = data.entries[0]
    lines = list(entries.lines)
    lines[0] = replace(lines[0], name=name, unit="")
    lines[1] = replace(lines[1], no=12345678901234567, team=None)
    odd = replace(data, entries=(replace(entries, lines=tuple(lines)), *data.entries[1:]))
    fast = io.BytesIO()
    write_workbook(odd, fast)
    monkeypatch.setattr(excel, "_write_plain_rows_directly", lambda ws: None)  # openpyxl alone
    slow = io.BytesIO()
    write_workbook(odd, slow)
    assert _parts(fast.getvalue()) == _parts(slow.getvalue())
