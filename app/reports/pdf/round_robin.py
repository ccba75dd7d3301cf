"""Round-robin documents: 循环赛成绩表 (the square crosstable, one per pool) and 对局秩序表."""

from __future__ import annotations

from datetime import datetime

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Paragraph, Spacer

from app.reports.model import RoundRobinSchedule, RoundRobinTable, fmt_num
from app.reports.pdf.base import (
    Column,
    Output,
    PageDecor,
    build_story,
    frame_size,
    grid,
    paragraph_style,
    with_signoff,
)

LEGEND = (
    "每格为本行棋手对该号棋手所得积分（双循环两局各列一值）；+ 为对方弃权、− 为本人弃权、双弃 为双方弃权；"
    "× 为退赛者成绩取消的对局；— 为本人。名次为组内名次。"
)


def render_round_robin_table(table: RoundRobinTable, out: Output, printed_at: datetime) -> None:
    """循环赛成绩表 (A4 landscape): one square table per pool, the stage's tiebreaks and the place."""
    width, _ = frame_size(wide=True)
    build_story(
        out,
        PageDecor(table.header, "循环赛成绩表", printed_at),
        round_robin_table_story(table, width),
        wide=True,
    )


def round_robin_table_story(table: RoundRobinTable, width: float) -> list[Flowable]:
    story: list[Flowable] = []
    for k, pool in enumerate(table.pools):
        n = len(pool.rows)
        cell = 7.5 if table.cycles > 1 else 5.0
        cols = [Column("号", 2.5), Column("姓名", 7), Column("单位", 8)]
        cols += [Column(str(i), cell, size=8) for i in range(1, n + 1)]
        cols += [Column("积分", 3.5)]
        cols += [Column(label, 3.8, size=8) for label in table.chain]
        cols += [Column("名次", 3.2), Column("备注", 5, size=7)]
        rows = [
            [
                str(r.number),
                f"{r.name}（{r.no}）",
                r.unit,
                *r.cells,
                fmt_num(r.score),
                *(fmt_num(v) if not isinstance(v, str) else v for _, v in r.tiebreaks),
                "" if r.place is None else str(r.place),
                r.note,
            ]
            for r in pool.rows
        ]
        block: list[Flowable] = []
        if pool.name:
            block.append(Paragraph(pool.name, paragraph_style(12)))
            block.append(Spacer(1, 1.5 * mm))
        block.append(grid(cols, rows, width, 16))
        if k:
            story.append(CondPageBreak(40 * mm))
            story.append(Spacer(1, 4 * mm))
        story.append(KeepTogether(block))
    legend = Paragraph(LEGEND, paragraph_style(8))
    return [*story, *with_signoff([Spacer(1, 2 * mm), legend], table.signoff, width)]


def render_round_robin_schedule(doc: RoundRobinSchedule, out: Output, printed_at: datetime) -> None:
    """对局秩序表 (A4 portrait): the draw (table numbers), then every round's pairs, pool by pool."""
    wide = max((len(r.pairs) for pool in doc.pools for r in pool.rounds), default=0) > 4
    width, _ = frame_size(wide=wide)
    story: list[Flowable] = []
    offset = 0  # the pools' boards follow each other (A组 on boards 1 …, B组 after them)
    for k, pool in enumerate(doc.pools):
        if k:
            story.append(CondPageBreak(60 * mm))
            story.append(Spacer(1, 4 * mm))
        if pool.name:
            story.append(Paragraph(pool.name, paragraph_style(12)))
            story.append(Spacer(1, 1.5 * mm))
        draw = grid(
            [Column("号", 1.5), Column("队" if doc.teams else "棋手", 12)],
            [[str(n), who] for n, who in pool.numbers],
            width * 0.6,
            15,
        )
        story += [draw, Spacer(1, 3 * mm)]
        most = max((len(r.pairs) for r in pool.rounds), default=1)
        cols = [Column("轮次", 3)] + [
            Column(f"第{offset + i}场（主—客）" if doc.teams else f"第{offset + i}台（红—黑）", 9, size=8)
            for i in range(1, most + 1)
        ]
        offset += most
        cols.append(Column("轮空", 5, size=8))
        rows = [
            [
                f"第{r.number}轮" + (f"（{r.stage_round}）" if r.number != r.stage_round else ""),
                *(f"{red} — {black}" for red, black in r.pairs),
                *[""] * (most - len(r.pairs)),
                r.rest,
            ]
            for r in pool.rounds
        ]
        story.append(grid(cols, rows, width, 18))
    if doc.note:
        story += [Spacer(1, 2 * mm), Paragraph(doc.note, paragraph_style(8))]
    build_story(out, PageDecor(doc.header, "对局秩序表", printed_at), story, wide=wide)
