"""The Excel result workbook: values only, frozen header row, fitted widths, A4 landscape.

One sheet each for the entry list, every round (pairings + results), standings (all tiebreak columns),
crosstable, team standings, prizes and, if given, the audit log. No formulas, so Excel and WPS show the
same thing: a text that looks like one (``=…``, ``+…``) is written as a text. The file itself is written
by :mod:`app.reports.xlsx`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from app.reports.model import ResultWorkbook
from app.reports.team_model import TeamEventBook
from app.reports.xlsx import SHEET_NAME_UNITS, Sheet, fit_name, name_units, write_xlsx

Cell = str | int | float | None
_NARROW = re.compile("[\x00-\u2e7f]+")  # one unit wide; a character after these (CJK …) two
#: zlib's level for the workbook's parts: the fastest (the file is ~20 % larger than at the default
#: level, its contents the same)
COMPRESSION = 1


def text_width(value: Cell) -> float:
    """Display width in Excel character units: a CJK character counts as two.

    >>> text_width("王天一"), text_width("12")
    (6, 2)
    """
    if value is None:
        return 0
    text = value if type(value) is str else str(value)
    if text.isascii():
        return len(text)
    return len(text) + len(_NARROW.sub("", text))  # each wide character once more


_Texts = dict[str, float]  # the width of every text met so far in the workbook


def _sheet(
    texts: _Texts, title: str, header: Sequence[str], rows: Sequence[Sequence[Cell]], caption: str
) -> Sheet:
    """One sheet: its rows, and each column as wide as its widest text (at least 5, at most 48)."""
    widths = _widths(header, rows, texts)
    return Sheet(title, header, rows, widths, caption)


def _widths(header: Sequence[str], rows: Sequence[Sequence[Cell]], texts: dict[str, float]) -> list[float]:
    """Each header column's width, from its widest value: a value recurring in the sheet (units,
    results) is measured once, a text once in the workbook (``texts``: the texts measured so far)."""
    n = len(header)
    if rows and all(len(r) >= n for r in rows):
        columns: Iterable[Iterable[Cell]] = zip(*rows, strict=False)
    else:
        columns = ((r[i] for r in rows if i < len(r)) for i in range(n))
    measured: dict[Cell, float] = {}  # numbers: by value, in the sheet (1 and 1.0 measured as met first)
    widths = []
    for label, column in zip(header, columns, strict=False):
        widest = text_width(label)
        for value in dict.fromkeys(column):  # each distinct value, in the order met
            if type(value) is str:
                w = texts.get(value)
                if w is None:
                    w = texts[value] = text_width(value)
            else:
                w = measured.get(value)
                if w is None:
                    w = measured[value] = text_width(value)
            if w > widest:
                widest = w
                if widest >= 46:  # as wide as a column may be
                    break
        widths.append(min(max(widest + 2, 5), 48))
    return widths


def sheet_title(base: str, group: str) -> str:
    """A sheet's title: the group's name before the sheet's own (``甲组名次表``), the group's name
    shortened so that the sheet's own stays whole within the 31 units a sheet's name may have.
    (The writer makes the title a name Excel accepts, unique in the workbook: ``xlsx.sheet_name``.)

    >>> sheet_title("名次表", "甲组"), sheet_title("名次表", "很长的组名" * 8)
    ('甲组名次表', '很长的组名很长的组名很长的组名很长的组名很长的组名很长的名次表')
    """
    room = SHEET_NAME_UNITS - name_units(base)
    return (fit_name(group, room) if room > 0 else "") + base


def build_workbook(data: ResultWorkbook, team_events: Sequence[TeamEventBook] = ()) -> Iterator[Sheet]:
    """The workbook's sheets, in order, each made when asked for (a sheet's rows are let go once it
    is written)."""
    wb: _Texts = {}
    several = len({e.header.group for e in data.entries}) > 1 or len(data.standings) > 1

    def title(base: str, group: str) -> str:
        return sheet_title(base, group if several else "")

    for entries in data.entries:
        yield _sheet(
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
        yield _sheet(
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
        yield _sheet(
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
        yield _sheet(
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
            yield _sheet(
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
        yield _sheet(wb, title("团体名次表", ts.header.group), header, rows, f"{data.event_name} 团体名次表")
    for book in team_events:
        yield from _team_event_sheets(wb, data.event_name, book, title)
    if data.prizes is not None:
        items = any(p.item for p in data.prizes.lines)  # non-cash prizes (奖品): a column only if any
        yield _sheet(
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
        yield _sheet(
            wb,
            "操作日志",
            ["时间", "操作人", "操作", "详情"],
            [[a.at, a.who, a.action, a.detail] for a in data.audit],
            f"{data.event_name} 操作日志",
        )


def _team_event_sheets(
    wb: _Texts, event: str, book: TeamEventBook, title: Callable[[str, str], str]
) -> Iterator[Sheet]:
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
        yield _sheet(
            wb,
            title(f"第{number}轮团体对阵", group),
            ["场次", "台次", "主队", "主队棋手", "客队", "客队棋手", "主队执", "结果", "局分", "场分"],
            rows,
            f"{event} {group} 第{number}轮团体对阵 {rnd.scoring}",
        )
    st = book.standings
    header, table_rows = st.table()
    yield _sheet(
        wb,
        title("团体名次表", group),
        header,
        table_rows,
        f"{event} {group} 团体名次表{st.header.round_label}　" + "".join(st.notes),
    )
    ct = book.crosstable
    yield _sheet(
        wb,
        title("团体成绩总表", group),
        ["队号", "队名", *(f"第{n}轮" for n in range(1, ct.rounds + 1)), "场分", "局分", "名次"],
        [[r.no, r.team, *r.cells, r.match_points, r.game_points, r.rank] for r in ct.rows],
        f"{event} {group} 团体成绩总表{ct.header.round_label}",
    )
    bp = book.prizes
    yield _sheet(
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
        write_xlsx(buf, build_workbook(data, team_events), COMPRESSION)
        write_atomic(out, buf.getvalue())
        return
    write_xlsx(out, build_workbook(data, team_events), COMPRESSION)
