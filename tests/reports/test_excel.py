"""The result workbook read back: every sheet, values equal to the input, no formulas, page setup."""

from __future__ import annotations

import io
from dataclasses import replace

import openpyxl
import pytest

from app.reports.excel import text_width, write_workbook
from app.reports.model import EntryLine, ResultWorkbook
from app.reports.team_model import TeamEventBook
from app.services import exports

from . import excel_openpyxl
from .conftest import LOCAL, OPEN, DemoEvent


@pytest.fixture(scope="module")
def data(event: DemoEvent) -> ResultWorkbook:
    return exports.result_workbook(event.db)


@pytest.fixture(scope="module")
def saved(data: ResultWorkbook) -> bytes:
    buf = io.BytesIO()
    write_workbook(data, buf)
    return buf.getvalue()


@pytest.fixture(scope="module")
def loaded(saved: bytes) -> openpyxl.Workbook:
    """The saved workbook as openpyxl reads it back, read once for the tests that only look at it."""
    return openpyxl.load_workbook(io.BytesIO(saved))


@pytest.fixture(scope="module")
def reference(data: ResultWorkbook) -> bytes:
    """The demo's workbook as openpyxl wrote it, written once for the tests that compare with it."""
    buf = io.BytesIO()
    excel_openpyxl.write_workbook(data, buf)
    return buf.getvalue()


#: the rows kept of each of the workbook's lists in the cases that vary a text or a name
VARIED_ROWS = 12


@pytest.fixture(scope="module")
def varied(data: ResultWorkbook) -> ResultWorkbook:
    """The demo's workbook for the cases that vary a text or a name: every sheet of every kind and
    group, but of the rounds only each group's first and last (with their byes), and of each list
    (the entries, the boards, the standings, the crosstables, the teams, the prizes and the audit
    log's 961 lines) the first 12 rows. An odd text reaches the cells of the first entries (the
    first seven lines) and every other sheet only through the event's name in its page header,
    written alike whatever the rows below it (every row of the full workbook is compared part for
    part in test_every_part_is_what_openpyxl_wrote): openpyxl writing the reference of each case
    takes half the time it took with every row."""
    n = VARIED_ROWS
    kept = []
    for group in dict.fromkeys(r.header.group for r in data.rounds):
        rounds = [r for r in data.rounds if r.header.group == group]
        kept += [rounds[0], rounds[-1]]
    assert len(kept) == 4 < len(data.rounds)
    lists = (data.entries, kept, data.standings, data.crosstables, data.teams)
    assert all(len(x.rows if hasattr(x, "rows") else x.lines) > n for kind in lists for x in kind)
    assert data.prizes is not None and len(data.prizes.lines) > n and len(data.audit) > n
    assert not data.round_robins  # (their square tables: test_every_part_is_…_for_teams_and_round_robins)
    return replace(
        data,
        entries=tuple(replace(e, lines=e.lines[:n]) for e in data.entries),
        rounds=tuple(replace(r, rows=r.rows[:n]) for r in kept),
        standings=tuple(replace(s, rows=s.rows[:n]) for s in data.standings),
        crosstables=tuple(replace(c, rows=c.rows[:n]) for c in data.crosstables),
        teams=tuple(replace(t, rows=t.rows[:n]) for t in data.teams),
        prizes=replace(data.prizes, lines=data.prizes.lines[:n]),
        audit=data.audit[:n],
    )


def test_every_sheet_present(loaded: openpyxl.Workbook) -> None:
    wb = loaded
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


def test_values_equal_input(loaded: openpyxl.Workbook, data: ResultWorkbook) -> None:
    wb = loaded
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


def test_no_formulas_and_data_only_equal(saved: bytes, loaded: openpyxl.Workbook) -> None:
    raw = loaded
    cached = openpyxl.load_workbook(io.BytesIO(saved), data_only=True, read_only=True)  # (values only)
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
    ws = openpyxl.load_workbook(io.BytesIO(buf.getvalue()), read_only=True)["参赛名单"]  # (one sheet read)
    assert ws["B2"].value == "=SUM(A1)"
    assert ws["B2"].data_type == "s"


def test_page_setup_frozen_header_widths(loaded: openpyxl.Workbook, data: ResultWorkbook) -> None:
    wb = loaded
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


def _as_openpyxl_wrote_it(data: ResultWorkbook, teams: tuple[TeamEventBook, ...] = ()) -> dict[str, bytes]:
    """Every part of the workbook (but its time), ours and openpyxl's (the program's code before it
    wrote the XML itself), with the parts in the same order."""
    ours, theirs = io.BytesIO(), io.BytesIO()
    write_workbook(data, ours, teams)
    excel_openpyxl.write_workbook(data, theirs, teams)
    return _parts_that_differ(ours.getvalue(), theirs.getvalue())


def _parts_that_differ(ours: bytes, theirs: bytes) -> dict[str, bytes]:
    """The parts of our workbook that are not openpyxl's (none but its time set aside), with the parts
    in the same order."""
    mine, reference = _parts(ours), _parts(theirs)
    assert list(mine) == list(reference)
    for parts in (mine, reference):  # the application that wrote it: the program, not openpyxl
        del parts["docProps/app.xml"]  # (test_sheet_names.test_the_file_names_the_program_that_wrote_it)
    return {n: mine[n] for n in mine if mine[n] != reference[n]}


def test_every_part_is_what_openpyxl_wrote(saved: bytes, reference: bytes) -> None:
    """The demo event (two groups, knockout, forfeits, byes, teams, prizes, the audit log): every
    sheet's XML, the styles, the workbook, its relations and content types, byte for byte."""
    assert _parts_that_differ(saved, reference) == {}


def test_every_part_is_what_openpyxl_wrote_for_teams_and_round_robins(
    team_event: DemoEvent, round_robin_event: DemoEvent
) -> None:
    team_data = exports.result_workbook(team_event.db)
    teams = exports.team_event_books(team_event.db)
    assert teams
    assert _as_openpyxl_wrote_it(team_data, teams) == {}
    rr = exports.result_workbook(round_robin_event.db)
    assert rr.round_robins
    assert _as_openpyxl_wrote_it(rr) == {}


ODD_TEXTS = [
    "",
    " ",
    "  前后有空格 ",
    "全角空格\u3000",
    "A&B <C> \"D\" 'E'",
    "#N/A",
    "#DIV/0!",
    "=SUM(A1)",
    "=",
    "+1",
    "-",
    "@x",
    "\t=1+1",
    "\r",
    "1.5e3",
    "x" * 40000,
    "长" * 32768,
    "换\n行",
    "回车\r行",
    "迟到⏰",
    "&[Page] &P",
]


@pytest.mark.parametrize("name", ODD_TEXTS)
def test_odd_texts_and_numbers_are_written_as_openpyxl_wrote_them(varied: ResultWorkbook, name: str) -> None:
    """Gaps, empty texts, surrounding spaces, markup, error codes, texts read as formulas, long texts,
    big and fractional numbers, truth values — in a cell, a sheet's name and the page header."""
    data = varied
    entries = data.entries[0]
    lines = list(entries.lines)
    lines[0] = replace(lines[0], name=name, unit="")
    lines[1] = replace(lines[1], no=12345678901234567, team=None)
    lines[2] = replace(lines[2], no=2.5, name=f"x{name}y")  # type: ignore[arg-type]
    lines[3] = replace(lines[3], no=True, unit=None)  # type: ignore[arg-type]
    lines[4] = replace(lines[4], no=-0.0)  # type: ignore[arg-type]
    lines[5] = replace(lines[5], no=float("nan"))  # type: ignore[arg-type]
    lines[6] = replace(lines[6], no=1e-7)  # type: ignore[arg-type]
    odd = replace(
        data,
        event_name=f"赛{name[:50]}",
        entries=(replace(entries, lines=tuple(lines)), *data.entries[1:]),
    )
    assert _as_openpyxl_wrote_it(odd) == {}


@pytest.mark.parametrize("group", ["A'B", "名次表", 'a&b<c>"d"', "第1轮", "很长的组名" * 8])
def test_sheet_names_as_openpyxl_wrote_them(varied: ResultWorkbook, group: str) -> None:
    """Quotes and markup in a sheet's name, a long group's name cut, titles that collide (numbered
    as openpyxl numbers them): the names are the program's (given to openpyxl in the reference; what
    Excel accepts: test_sheet_names.py), the parts that hold them as openpyxl wrote them."""
    data = varied
    entries = data.entries[0]
    renamed = replace(entries, header=replace(entries.header, group=group))
    odd = replace(data, entries=(renamed, renamed, *data.entries[1:]))
    assert _as_openpyxl_wrote_it(odd) == {}


def test_control_characters_are_left_out(data: ResultWorkbook) -> None:
    """A workbook cannot hold most control characters (openpyxl refused the whole workbook): they are
    left out of the cell, the rest of the text kept."""
    entries = data.entries[0]
    lines = list(entries.lines)
    lines[0] = replace(lines[0], name="迟\x00到\x07")
    buf = io.BytesIO()
    write_workbook(replace(data, entries=(replace(entries, lines=tuple(lines)),)), buf)
    ws = openpyxl.load_workbook(io.BytesIO(buf.getvalue()), read_only=True)[
        f"{OPEN}参赛名单"
    ]  # (one sheet read)
    assert ws["B2"].value == "迟到"


def test_the_theme_is_openpyxls() -> None:
    from openpyxl.writer.theme import theme_xml

    from app.reports.xlsx_theme import THEME_XML

    assert theme_xml == THEME_XML


def test_the_workbook_reads_back_cell_by_cell(loaded: openpyxl.Workbook, reference: bytes) -> None:
    """Read back by openpyxl: every sheet's cells, number formats, styles, widths, frozen panes and
    merged cells are those of the workbook openpyxl wrote."""
    ours = loaded
    theirs = openpyxl.load_workbook(io.BytesIO(reference))
    assert ours.sheetnames == theirs.sheetnames
    for a, b in zip(ours.worksheets, theirs.worksheets, strict=True):
        assert a.freeze_panes == b.freeze_panes == "A2"
        assert a.merged_cells.ranges == b.merged_cells.ranges
        assert {k: d.width for k, d in a.column_dimensions.items()} == {
            k: d.width for k, d in b.column_dimensions.items()
        }
        assert a.oddHeader.center.text == b.oddHeader.center.text
        assert a.print_title_rows == b.print_title_rows
        cells_a = [
            (c.coordinate, c.value, c.data_type, c.number_format, c.font.b, c.fill.fgColor.rgb)
            for row in a.iter_rows()
            for c in row
        ]
        cells_b = [
            (c.coordinate, c.value, c.data_type, c.number_format, c.font.b, c.fill.fgColor.rgb)
            for row in b.iter_rows()
            for c in row
        ]
        assert cells_a == cells_b
