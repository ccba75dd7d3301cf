"""The result workbook as openpyxl wrote it (write-only mode, a cell object per value): the reference
that :mod:`app.reports.excel` (which writes the parts itself) is compared with, part for part.

This is the program's own workbook code as it was before it wrote the XML itself; keep the sheets'
contents here in step with :func:`app.reports.excel.build_workbook`. Two things are the program's
since then, not openpyxl's: the sheets' names (the program's own naming, ``excel.sheet_title`` and
``xlsx.sheet_name``, keeps every name within Excel's limits where openpyxl let a numbered name grow
past 31 characters; it is given to openpyxl here, which keeps a name it is given that is unique) and
``docProps/app.xml`` (the program names itself as the application that wrote the file), which the
comparison sets aside.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet.worksheet import Worksheet

from app.engine.text import FORMULA_LEADS
from app.reports.excel import sheet_title
from app.reports.model import ResultWorkbook
from app.reports.team_model import TeamEventBook
from app.reports.xlsx import sheet_name

Cell = str | int | float | None
HEADER_FILL = PatternFill("solid", fgColor="E8E8E8")


def text_width(value: Cell) -> float:
    """Display width in Excel character units: a CJK character counts as two.

    >>> text_width("王天一"), text_width("12")
    (6, 2)
    """
    if value is None:
        return 0
    return sum(2 if ord(ch) > 0x2E7F else 1 for ch in str(value))


def _sheet(
    wb: Workbook, title: str, header: Sequence[str], rows: Sequence[Sequence[Cell]], caption: str
) -> WriteOnlyWorksheet:
    """One sheet, streamed (openpyxl's write-only mode): its layout first, then the header and the rows."""
    name = sheet_name(wb.sheetnames, title)
    ws = wb.create_sheet(name)
    assert ws.title == name  # openpyxl keeps the name (it would number a name taken)
    ws.freeze_panes = "A2"
    widths: dict[Cell, float] = {}  # the same text recurs (units, results): measured once

    def width(value: Cell) -> float:
        w = widths.get(value)
        if w is None:
            w = widths[value] = text_width(value)
        return w

    for i, label in enumerate(header, start=1):
        widest = max([text_width(label), *(width(r[i - 1]) for r in rows if i - 1 < len(r))])
        ws.column_dimensions[get_column_letter(i)].width = min(max(widest + 2, 5), 48)
    ws.print_title_rows = "1:1"
    ws.page_setup.paperSize = Worksheet.PAPERSIZE_A4
    ws.page_setup.orientation = Worksheet.ORIENTATION_LANDSCAPE
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.oddHeader.center.text = caption
    ws.oddFooter.right.text = "第 &P 页 / 共 &N 页"
    bold = Font(bold=True)
    centred = Alignment(horizontal="center", vertical="center", wrap_text=True)
    heading = []
    for label in header:
        cell = WriteOnlyCell(ws, value=label)
        cell.font, cell.fill, cell.alignment = bold, HEADER_FILL, centred
        heading.append(cell)
    ws.append(heading)
    for row in rows:
        if any(isinstance(v, str) and v[:1] in FORMULA_LEADS for v in row):
            ws.append([_as_text(ws, v) for v in row])
        else:
            ws.append(list(row))
    return ws


def _as_text(ws: WriteOnlyWorksheet, value: Cell) -> Cell | WriteOnlyCell:
    """A text that looks like a formula, stored as text: shown as typed, never run."""
    if not (isinstance(value, str) and value[:1] in FORMULA_LEADS):
        return value
    cell = WriteOnlyCell(ws, value=value)
    cell.data_type = "s"
    return cell


def build_workbook(data: ResultWorkbook, team_events: Sequence[TeamEventBook] = ()) -> Workbook:
    """The workbook, in openpyxl's write-only mode: each sheet's rows are written out as they are
    added, so a 5,000-player event is not held as millions of cell objects (save it once)."""
    wb = Workbook(write_only=True)
    several = len({e.header.group for e in data.entries}) > 1 or len(data.standings) > 1

    def title(base: str, group: str) -> str:
        return sheet_title(base, group if several else "")

    for entries in data.entries:
        _sheet(
            wb,
            title("参赛名单", entries.header.group),
            ["序号", "姓名", "单位", "性别", "团体"],
            [[e.no, e.name, e.unit, e.gender, e.team] for e in entries.lines],
            f"{data.event_name} 参赛名单 {entries.header.group}",
        )
    for rnd in data.rounds:
        rows: list[list[Cell]] = [
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
                "，".join(r.marks),
            ]
            for r in rnd.rows
        ]
        rows += [
            [None, p.no, p.name, p.unit, p.score, rnd.bye_label, None, None, None, None, ""] for p in rnd.byes
        ]
        rows += [
            [None, p.no, p.name, p.unit, p.score, rnd.excused_label, None, None, None, None, ""]
            for p in rnd.excused
        ]
        _sheet(
            wb,
            title(rnd.header.round_text, rnd.header.group),
            [
                "台次",
                "红方序号",
                "红方",
                "红方单位",
                "红方积分",
                "结果",
                "黑方积分",
                "黑方序号",
                "黑方",
                "黑方单位",
                "备注",
            ],
            rows,
            f"{data.event_name} {rnd.header.group} {rnd.header.round_text}",
        )
    for st in data.standings:
        _sheet(
            wb,
            title("名次表", st.header.group),
            ["名次", "序号", "姓名", "单位", "积分", *st.chain, "区分依据", "备注"],
            [
                [
                    s.rank,
                    s.no,
                    s.name,
                    s.unit,
                    s.score,
                    *(dict(s.tiebreaks).get(c) for c in st.chain),
                    s.separated_by,
                    s.note,
                ]
                for s in st.rows
            ],
            f"{data.event_name} 名次表 {st.header.group}",
        )
    for ct in data.crosstables:
        _sheet(
            wb,
            title("个人成绩总表", ct.header.group),
            ["序号", "姓名", "单位", *(f"第{n}轮" for n in range(1, ct.rounds + 1)), "积分", "名次"],
            [
                [
                    r.no,
                    r.name,
                    r.unit,
                    *r.round_texts(ct.rounds, None),
                    r.score,
                    r.place,
                ]
                for r in ct.rows
            ],
            f"{data.event_name} 个人成绩总表 {ct.header.group}",
        )
    for rr in data.round_robins:
        for pool in rr.pools:
            n = len(pool.rows)
            _sheet(
                wb,
                title("循环赛成绩表", f"{rr.header.group}{pool.name}"),
                [
                    "号",
                    "序号",
                    "姓名",
                    "单位",
                    *(str(k) for k in range(1, n + 1)),
                    "积分",
                    *rr.chain,
                    "名次",
                    "备注",
                ],
                [
                    [
                        r.number,
                        r.no,
                        r.name,
                        r.unit,
                        *r.cells,
                        r.score,
                        *(v for _, v in r.tiebreaks),
                        r.place,
                        r.note,
                    ]
                    for r in pool.rows
                ],
                f"{data.event_name} 循环赛成绩表 {rr.header.group}{pool.name}",
            )
    for ts in data.teams:
        n = max((len(r.members) for r in ts.rows), default=4)
        header = ["名次", "团体"]
        for i in range(1, n + 1):
            header += [f"队员{i}", f"队员{i}名次"]
        header += ["名次和", "最好名次", "备注"]
        rows = []
        for r in ts.rows:
            members: list[Cell] = []
            for name, place in r.members:
                members += [name, place]
            members += [None] * (2 * n - len(members))
            rows.append([r.rank, r.team, *members, r.total, r.best, r.note])
        _sheet(wb, title("团体名次表", ts.header.group), header, rows, f"{data.event_name} 团体名次表")
    for book in team_events:
        _team_event_sheets(wb, data.event_name, book, title)
    if data.prizes is not None:
        items = any(p.item for p in data.prizes.lines)  # non-cash prizes (奖品): a column only if any
        _sheet(
            wb,
            "奖励名单",
            ["类别", "名次", "姓名", "单位", "奖金（元，税前）", *(["奖品"] if items else [])],
            [
                [p.table, p.place, p.name, p.unit, p.amount, *([p.item] if items else [])]
                for p in data.prizes.lines
            ],
            f"{data.event_name} 奖励名单",
        )
    if data.audit:
        _sheet(
            wb,
            "操作日志",
            ["时间", "操作人", "操作", "详情"],
            [[a.at, a.who, a.action, a.detail] for a in data.audit],
            f"{data.event_name} 操作日志",
        )
    return wb


def _team_event_sheets(
    wb: Workbook, event: str, book: TeamEventBook, title: Callable[[str, str], str]
) -> None:
    """A team competition: each round's matches board by board (a 合计 line per match with 局分 and 场分,
    the tie-break games under their board), the team standings, the crosstable and the board prizes."""
    group = book.group
    for rnd in book.rounds:
        rows: list[list[Cell]] = []
        for m in rnd.matches:
            seated = any(b.home.no is not None or b.away.no is not None for b in m.boards)
            for b in m.boards:
                home = b.home.label if seated else ""
                away = b.away.label if seated else ""
                points = f"{b.home_points}:{b.away_points}" if b.home_points else ""
                rows.append(
                    [
                        m.number,
                        b.board,
                        m.home,
                        home,
                        m.away,
                        away,
                        "红" if b.home_red else "黑",
                        b.result,
                        points,
                        "",
                    ]
                )
                for t in b.ties:
                    rows.append(
                        [
                            m.number,
                            f"{b.board} 加赛{t.number}",
                            m.home,
                            f"红 {t.red.label}",
                            m.away,
                            f"黑 {t.black.label}",
                            t.kind + (f" {t.time_control}" if t.time_control else ""),
                            t.result,
                            "",
                            "",
                        ]
                    )
            game = f"{m.home_points}:{m.away_points}" if m.home_points else ""
            match = f"{m.home_match_points}:{m.away_match_points}" if m.home_match_points else ""
            rows.append([m.number, "合计", m.home, m.code, m.away, "", "", m.outcome, game, match])
        rows += [[None, None, team, "", "", "", "", "轮空", "", ""] for team in rnd.byes]
        number = rnd.header.round
        _sheet(
            wb,
            title(f"第{number}轮团体对阵", group),
            ["场次", "台次", "主队", "主队棋手", "客队", "客队棋手", "主队执", "结果", "局分", "场分"],
            rows,
            f"{event} {group} 第{number}轮团体对阵 {rnd.scoring}",
        )
    st = book.standings
    header, table_rows = st.table()
    _sheet(
        wb,
        title("团体名次表", group),
        header,
        table_rows,
        f"{event} {group} 团体名次表{st.header.round_label}　" + "".join(st.notes),
    )
    ct = book.crosstable
    _sheet(
        wb,
        title("团体成绩总表", group),
        ["队号", "队名", *(f"第{n}轮" for n in range(1, ct.rounds + 1)), "场分", "局分", "名次"],
        [[r.no, r.team, *r.cells, r.match_points, r.game_points, r.rank] for r in ct.rows],
        f"{event} {group} 团体成绩总表{ct.header.round_label}",
    )
    bp = book.prizes
    _sheet(
        wb,
        title("台次奖", group),
        ["台次", "名次", "序号", "姓名", "队名", "局数", "局分", "得分率", "够局数"],
        [
            [
                t.board,
                p.rank,
                p.no,
                p.name,
                p.team,
                p.games,
                p.points,
                p.percentage,
                "是" if p.eligible else "否",
            ]
            for t in bp.boards
            for p in t.lines
        ],
        f"{event} {group} 台次奖（每台至少 {bp.min_games} 局；{bp.basis}）{bp.header.round_label}",
    )


def write_workbook(
    data: ResultWorkbook, out: str | Path | BinaryIO, team_events: Sequence[TeamEventBook] = ()
) -> None:
    """Write the result workbook to ``out`` (a path, written all at once, or a binary stream); the team
    competitions' sheets after the individual ones."""
    if isinstance(out, str | Path):
        import io

        from app.files import write_atomic

        buf = io.BytesIO()
        build_workbook(data, team_events).save(buf)
        write_atomic(out, buf.getvalue())
        return
    build_workbook(data, team_events).save(out)
