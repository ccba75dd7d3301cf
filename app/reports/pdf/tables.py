"""Tabular PDFs: 对阵表, 成绩公告, 名次表, 个人成绩总表, 团体名次表, 奖励名单, 奖金发放签收表, 参赛名单."""

from __future__ import annotations

import io
from datetime import datetime

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer

from app.reports.model import (
    Crosstable,
    EntryList,
    InternalEntryList,
    PairingList,
    PairingRow,
    PayoutSheet,
    PlayerLine,
    PrizeList,
    Standings,
    TeamStandings,
    fmt_num,
    yuan,
)
from app.reports.names import pinyin_key
from app.reports.pdf.base import (
    Column,
    Output,
    PageDecor,
    build_story,
    fitted_row_height,
    frame_size,
    grid,
    paragraph_style,
    with_signoff,
)

ROW = 16.0  # points per table row: 43 rows per portrait page, 29 per landscape page


def _pairing_columns(result_label: str, stages: bool = False) -> list[Column]:
    """The pairing columns; ``stages`` adds 赛别 (a knockout game's match, game and time control)."""
    unit = 13 if stages else 17
    columns = [
        Column("台次", 4),
        Column("序号", 4),
        Column("红方", 11),
        Column("单位", unit),
        Column("积分", 4),
        Column(result_label, 9),
        Column("积分", 4),
        Column("序号", 4),
        Column("黑方", 11),
        Column("单位", unit),
    ]
    if stages:
        columns.append(Column("赛别（用时）", 19, size=8))
    return columns


def _stage(r: PairingRow) -> str:
    """``1/4决赛第1场`` over ``第1局 慢棋 20′+5″``."""
    return f"{r.match}\n{r.game} {r.time_control}".strip() if r.match else ""


def _pairing_rows(pairings: PairingList, with_results: bool, stages: bool = False) -> list[list[str]]:
    rows: list[list[str]] = []
    for r in pairings.rows:
        result = r.result_zh if with_results else ""
        marks = () if stages and r.stage else r.marks  # a knockout game's marks are its 赛别 column
        if with_results and marks:
            result = f"{result}\n{'，'.join(marks)}" if result else "，".join(marks)
        rows.append(
            [
                str(r.board),
                str(r.red.no),
                r.red.name,
                r.red.unit,
                fmt_num(r.red.score),
                result,
                fmt_num(r.black.score),
                str(r.black.no),
                r.black.name,
                r.black.unit,
                *([_stage(r)] if stages else []),
            ]
        )
    for p in pairings.byes:
        bye = ["", str(p.no), p.name, p.unit, fmt_num(p.score), pairings.bye_label, "", "", "", ""]
        rows.append(bye + ([""] if stages else []))
    for p in pairings.excused:
        excused = ["", str(p.no), p.name, p.unit, fmt_num(p.score), pairings.excused_label, "", "", "", ""]
        rows.append(excused + ([""] if stages else []))
    return rows


def render_pairings(
    pairings: PairingList,
    out: Output,
    printed_at: datetime,
    *,
    with_results: bool = False,
    sort_by_name: bool = False,
) -> None:
    """对阵表 (or 成绩公告 with results): boards in order, byes last; or one line per player by name."""
    title = "成绩公告" if with_results else "对阵表"
    width, _ = frame_size()
    story = with_signoff(pairings_story(pairings, width, with_results, sort_by_name), pairings.signoff, width)
    build_story(out, PageDecor(pairings.header, title, printed_at, link=pairings.link), story)


def pairings_story(
    pairings: PairingList, width: float, with_results: bool, sort_by_name: bool = False
) -> list[Flowable]:
    story: list[Flowable] = []
    if sort_by_name:
        story.append(_by_name(pairings, width, with_results))
    else:
        stages = any(r.stage for r in pairings.rows)
        rows = _pairing_rows(pairings, with_results, stages)
        story.append(grid(_pairing_columns("结果", stages), rows, width, 20 if stages else ROW))
    if with_results:
        story += [
            Spacer(1, 3 * mm),
            Paragraph(
                "说明：红弃权 / 黑弃权 = 该方弃权判负，双弃权 = 双方均判负；犯规记入名次区分。",
                paragraph_style(8),
            ),
        ]
    return story


def _by_name(pairings: PairingList, width: float, with_results: bool) -> Flowable:
    lines: list[tuple[PlayerLine, str, str, str, str]] = []
    for r in pairings.rows:
        lines.append((r.red, str(r.board), "红", f"{r.black.no} {r.black.name}", r.result_zh))
        lines.append((r.black, str(r.board), "黑", f"{r.red.no} {r.red.name}", r.result_zh))
    for p in pairings.byes:
        lines.append((p, "", "", pairings.bye_label, ""))
    for p in pairings.excused:
        lines.append((p, "", "", pairings.excused_label, ""))
    lines.sort(key=lambda x: (pinyin_key(x[0].name), x[0].no))
    cols = [
        Column("姓名", 12),
        Column("序号", 5),
        Column("单位", 18),
        Column("积分", 5),
        Column("台次", 5),
        Column("执色", 5),
        Column("对手", 16),
    ]
    if with_results:
        cols.append(Column("结果", 8))
    rows = [
        [p.name, str(p.no), p.unit, fmt_num(p.score), board, colour, opp, *([res] if with_results else [])]
        for p, board, colour, opp, res in lines
    ]
    return grid(cols, rows, width, ROW)


def render_standings(standings: Standings, out: Output, printed_at: datetime) -> None:
    """名次表: every tiebreak column of the chain; footnote names the chain and 序号-decided ties."""
    width, _ = frame_size()
    story = with_signoff(standings_story(standings, width), standings.signoff, width)
    build_story(out, PageDecor(standings.header, "名次表", printed_at), story)


def standings_story(standings: Standings, width: float) -> list[Flowable]:
    # 区分依据 says e.g. "前轮比较：第3轮后对手分 11 > 9": it gets the width the names can spare, so it
    # prints at 8–9 pt on one line (two at most), never shrunk to an unreadable size
    cols = [Column("名次", 4), Column("序号", 4), Column("姓名", 9), Column("单位", 12), Column("积分", 4)]
    cols += [Column(label, 5) for label in standings.chain]
    cols.append(Column("区分依据", max(18.0, 42.0 - 5 * len(standings.chain)), size=8.5))
    rows = []
    for s in standings.rows:
        values = dict(s.tiebreaks)
        rows.append(
            [
                str(s.rank),
                str(s.no),
                s.name + (f"（{s.note}）" if s.note else ""),
                s.unit,
                fmt_num(s.score),
                *(fmt_num(values.get(label)) for label in standings.chain),
                s.separated_by,
            ]
        )
    chain = " → ".join(("积分", *standings.chain, "序号"))
    notes = [f"名次区分顺序：{chain}。“区分依据”为该棋手名次列于下一名之前所依据的项目。"]
    if standings.sequence_ties:
        pairs = "；".join(f"{a}号先于{b}号" for a, b in standings.sequence_ties)
        notes.append(f"以下名次各项成绩完全相同，按序号决定：{pairs}。")
    else:
        notes.append("本表没有仅由序号决定的名次。")
    story: list[Flowable] = [grid(cols, rows, width, ROW), Spacer(1, 3 * mm)]
    story += [Paragraph(n, paragraph_style(8)) for n in notes]
    return story


def render_crosstable(table: Crosstable, out: Output, printed_at: datetime) -> None:
    """个人成绩总表 (A4 landscape): per round opponent 序号, colour and result, then score and place."""
    width, _ = frame_size(wide=True)
    story = crosstable_story(table, width)
    build_story(out, PageDecor(table.header, "个人成绩总表", printed_at), story, wide=True)


def crosstable_story(table: Crosstable, width: float) -> list[Flowable]:
    """The crosstable, its legend and the sign-off, with rows fitted so that no page holds a lone row."""
    _, height = frame_size(wide=True)
    cols = [Column("序号", 3.5), Column("姓名", 8), Column("单位", 10)]
    cols += [Column(f"第{n}轮", 6.2, size=8) for n in range(1, table.rounds + 1)]
    cols += [Column("积分", 3.5), Column("名次", 3.5)]
    rows = []
    for r in table.rows:
        cells = r.round_texts(table.rounds)
        rows.append(
            [str(r.no), r.name, r.unit, *cells, fmt_num(r.score), "" if r.place is None else str(r.place)]
        )
    legend = Paragraph(
        "每格：对手序号 + 执色（红/黑）+ 结果（胜/和/负，弃胜/弃负 为对方或本人弃权，双弃 为双方弃权）；轮空 记胜；"
        "请假 不计分、不作弃权；未报名 为报名前已编排的轮次（补n分：按规程补给的分数）。",
        paragraph_style(8),
    )
    spacer = 2 * mm
    tail = with_signoff([Spacer(1, spacer), legend], table.signoff, width)
    tail_height = _height(tail, width) + 1
    # no page with a lone row, a lone legend or a lone sign-off: rows a little shorter instead (≥ 13 pt)
    row = fitted_row_height(len(rows), height, tail=tail_height, preferred=ROW, smallest=13)
    return [grid(cols, rows, width, row), *tail]


def _height(story: list[Flowable], width: float) -> float:
    """The height of flowables laid out one under the other (a KeepTogether: its content's)."""
    scratch = Canvas(io.BytesIO())
    total = 0.0
    for f in story:
        parts = f._content if isinstance(f, KeepTogether) else [f]
        total += sum(
            p.wrapOn(scratch, width, 10_000)[1] + p.getSpaceBefore() + p.getSpaceAfter() for p in parts
        )
    return total


def render_teams(teams: TeamStandings, out: Output, printed_at: datetime) -> None:
    """团体名次表: rank, team, the counted members with their places, sum, best place."""
    width, _ = frame_size()
    story = with_signoff(teams_story(teams, width), teams.signoff, width)
    build_story(out, PageDecor(teams.header, "团体名次表", printed_at), story)


def teams_story(teams: TeamStandings, width: float) -> list[Flowable]:
    n = max((len(r.members) for r in teams.rows), default=4)
    cols = [Column("名次", 4), Column("团体", 13)]
    what = "（名次，积分）" if teams.by_points else "（名次）"
    cols += [Column(f"队员{i + 1}{what}", 10) for i in range(n)]
    cols += [Column(teams.total_label, 6), Column("最好名次", 6), Column("备注", 20, size=8.5)]
    rows = []
    for r in teams.rows:
        if teams.by_points and r.points:
            shown = [
                f"{name}（{place}名，{pts}分）"
                for (name, place), pts in zip(r.members, r.points, strict=False)
            ]
        else:
            shown = [f"{name}（{place}）" for name, place in r.members]
        members = shown + [""] * (n - len(r.members))
        rows.append(
            [
                "" if r.rank is None else str(r.rank),
                r.team,
                *members,
                fmt_num(r.total),
                fmt_num(r.best),
                r.note,
            ]
        )
    note = Paragraph(teams.rule, paragraph_style(8))
    return [grid(cols, rows, width, 20), Spacer(1, 3 * mm), note]


def _money(amount: int) -> str:
    return f"{amount:,}"


def render_prizes(prizes: PrizeList, out: Output, printed_at: datetime) -> None:
    """奖励名单 (public): place, name, unit, amount (and non-cash prize); totals per table and grand total."""
    width, _ = frame_size()
    story = with_signoff(prizes_story(prizes, width), prizes.signoff, width)
    build_story(out, PageDecor(prizes.header, "奖励名单", printed_at), story)


def prizes_story(prizes: PrizeList, width: float) -> list[Flowable]:
    items = any(line.item for line in prizes.lines)
    cols = [
        Column("类别", 12),
        Column("名次", 6),
        Column("姓名", 14),
        Column("单位", 24 if not items else 18),
        Column("奖金（元，税前）", 12),
    ]
    if items:
        cols.append(Column("奖品", 12))
    rows: list[list[str]] = []
    shaded: list[int] = []
    for table in dict.fromkeys(line.table for line in prizes.lines):
        lines = [line for line in prizes.lines if line.table == table]
        for line in lines:
            money = _money(line.amount) if line.amount or not line.item else ""
            row = [line.table, f"第{line.place}名", line.name, line.unit, money]
            rows.append(row + ([line.item] if items else []))
        shaded.append(len(rows))
        rows.append([table, "小计", "", "", _money(sum(x.amount for x in lines))] + ([""] if items else []))
    shaded.append(len(rows))
    rows.append(["合计", "", "", "", _money(sum(x.amount for x in prizes.lines))] + ([""] if items else []))
    story: list[Flowable] = [Paragraph(note, paragraph_style(9)) for note in prizes.notes]
    if prizes.notes:
        story.append(Spacer(1, 2 * mm))
    story.append(grid(cols, rows, width, ROW, shaded_rows=shaded))
    return story


def render_payout(sheet: PayoutSheet, out: Output, printed_at: datetime) -> None:
    """奖金发放签收表 (内部, A4 landscape): full ID number, phone, the amount before tax (奖金为税前), the tax
    withheld and the net amount, a signature column, totals, and the signature lines of who pays and checks."""
    width, _ = frame_size(wide=True)
    pct = sheet.withholding_percent
    cols = [
        Column("类别", 9),
        Column("名次", 5),
        Column("姓名", 8),
        Column("身份证号", 15),
        Column("电话", 10),
        Column("奖金（税前）", 8),
    ]
    if pct:
        cols += [Column(f"代扣个税（{pct}%）", 8), Column("实发金额", 8)]
    if any(x.item for x in sheet.lines):
        cols.append(Column("奖品", 8))
    cols.append(Column("领款人签名", 12))
    items = any(x.item for x in sheet.lines)
    rows = []
    for x in sheet.lines:
        row = [x.table, f"第{x.place}名", x.name, x.id_number, x.phone, _money(x.amount)]
        if pct:
            row += [yuan(x.withheld_fen(pct)), yuan(x.net_fen(pct))]
        rows.append(row + ([x.item] if items else []) + [""])
    total = ["合计", f"{len(sheet.lines)}人", "", "", "", _money(sum(x.amount for x in sheet.lines))]
    if pct:
        total += [
            yuan(sum(x.withheld_fen(pct) for x in sheet.lines)),
            yuan(sum(x.net_fen(pct) for x in sheet.lines)),
        ]
    rows.append(total + ([""] if items else []) + [""])
    note = "奖金为税前金额。" + (
        f"按 {pct}% 代扣代缴个人所得税（偶然所得），实发金额 = 税前奖金 − 代扣个税。"
        if pct
        else "本表未代扣个人所得税。"
    )
    story: list[Flowable] = [
        grid(cols, rows, width, 24, shaded_rows=[len(rows) - 1]),
        Spacer(1, 3 * mm),
        Paragraph(note, paragraph_style(9)),
        Spacer(1, 5 * mm),
        Paragraph(
            "发放人：＿＿＿＿＿＿＿＿　　　复核人：＿＿＿＿＿＿＿＿　　　财务负责人：＿＿＿＿＿＿＿＿　　　"
            "日期：＿＿＿＿年＿＿月＿＿日",
            paragraph_style(10),
        ),
    ]
    story = with_signoff(story, sheet.signoff, width)
    build_story(out, PageDecor(sheet.header, "奖金发放签收表", printed_at, internal=True), story, wide=True)


def render_entry_list(entries: EntryList, out: Output, printed_at: datetime) -> None:
    """参赛名单 (public): 序号, name, unit, gender, team — in the order given (by team)."""
    width, _ = frame_size()
    cols = [Column("序号", 5), Column("姓名", 12), Column("单位", 24), Column("性别", 5), Column("团体", 18)]
    rows = [[str(e.no or ""), e.name, e.unit, e.gender, e.team] for e in entries.lines]
    order = f"（{entries.order_label}）" if entries.order_label else ""
    note = Paragraph(f"共 {len(entries.lines)} 人{order}。", paragraph_style(9))
    story = with_signoff([grid(cols, rows, width, ROW), Spacer(1, 2 * mm), note], entries.signoff, width)
    build_story(out, PageDecor(entries.header, "参赛名单", printed_at), story)


def render_internal_entry_list(entries: InternalEntryList, out: Output, printed_at: datetime) -> None:
    """参赛名单 (内部): adds ID number, phone, check-in, fee and insurance columns (A4 landscape)."""
    width, _ = frame_size(wide=True)
    cols = [
        Column("序号", 4),
        Column("姓名", 10),
        Column("单位", 18),
        Column("性别", 4),
        Column("团体", 14),
        Column("证件号码", 16),
        Column("电话", 11),
        Column("报到", 4),
        Column("缴费", 4),
        Column("保险", 4),
    ]

    def mark(flag: bool) -> str:
        return "√" if flag else "未"

    rows = [
        [
            str(e.no),
            e.name,
            e.unit,
            e.gender,
            e.team,
            e.id_number,
            e.phone,
            mark(e.checked_in),
            mark(e.fee_paid),
            mark(e.insurance),
        ]
        for e in entries.lines
    ]
    summary = (
        f"共 {len(rows)} 人；已报到 {sum(e.checked_in for e in entries.lines)} 人，"
        f"已缴费 {sum(e.fee_paid for e in entries.lines)} 人，已投保 {sum(e.insurance for e in entries.lines)} 人。"
    )
    if entries.order_label:
        summary += f"（{entries.order_label}）"
    story = with_signoff(
        [grid(cols, rows, width, ROW), Spacer(1, 2 * mm), Paragraph(summary, paragraph_style(9))],
        entries.signoff,
        width,
    )
    build_story(
        out,
        PageDecor(entries.header, "参赛名单（内部）", printed_at, internal=True),
        story,
        wide=True,
    )
