"""Static HTML export of the public pages into one folder: index.html plus one page per document.

No external assets (CSS inline), readable on a phone (tables scroll sideways inside their box, sticky
header row). Only public read models are accepted, so no ID or phone number can reach a web page.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from app.reports.model import (
    Bracket,
    Crosstable,
    EntryList,
    PairingList,
    PrizeList,
    Standings,
    TeamStandings,
    fmt_num,
)

CSS = """
*{box-sizing:border-box}
body{font-family:"Microsoft YaHei","PingFang SC","Noto Sans CJK SC","WenQuanYi Micro Hei",sans-serif;
margin:0;padding:12px;color:#222;background:#fafafa;line-height:1.5}
h1{font-size:1.25rem;margin:.2em 0}h2{font-size:1.05rem;margin:.2em 0 .6em;color:#555}
nav a{margin-right:1em}
.wrap{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%;border:1px solid #ccc;background:#fff}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{border:1px solid #ddd;padding:4px 6px;text-align:center;white-space:nowrap}
td.t{text-align:left;white-space:normal;min-width:6em}
th{background:#eee;position:sticky;top:0}
tr:nth-child(even) td{background:#f7f7f7}
.red{color:#c00}.note{font-size:.85rem;color:#555}
ul.links li{margin:.4em 0}
footer{margin-top:1em;font-size:.8rem;color:#777}
@media (max-width:600px){body{padding:6px}table{font-size:.8rem}th,td{padding:3px 4px}}
"""


def _e(value: object) -> str:
    return html.escape(fmt_num(value) if isinstance(value, int | float) or value is None else str(value))


def _table(header: Sequence[str], rows: Sequence[Sequence[object]], text_cols: Sequence[int] = ()) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="t">{_e(v)}</td>' if i in text_cols else f"<td>{_e(v)}</td>"
            for i, v in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    return (
        f'<div class="wrap"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
    )


def _page(event: str, title: str, body: str, printed_at: datetime) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="zh-CN"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)} - {_e(event)}</title><style>{CSS}</style></head><body>"
        f'<nav><a href="index.html">返回目录</a></nav><h1>{_e(event)}</h1><h2>{_e(title)}</h2>{body}'
        f"<footer>更新时间：{printed_at:%Y-%m-%d %H:%M}</footer></body></html>\n"
    )


@dataclass(frozen=True, slots=True)
class PublicSite:
    """The public pages to publish; every field optional."""

    event_name: str
    entries: tuple[EntryList, ...] = ()
    rounds: tuple[PairingList, ...] = ()
    standings: tuple[Standings, ...] = ()
    crosstables: tuple[Crosstable, ...] = ()
    teams: tuple[TeamStandings, ...] = ()
    prizes: PrizeList | None = None
    brackets: tuple[Bracket, ...] = ()


def _pairing_page(p: PairingList) -> str:
    rows: list[list[object]] = [
        [
            r.board,
            r.red.no,
            r.red.name,
            r.red.unit,
            r.red.score,
            r.result_zh or "—",
            r.black.score,
            r.black.no,
            r.black.name,
            r.black.unit,
            "，".join(r.marks),
        ]
        for r in p.rows
    ]
    rows += [["", b.no, b.name, b.unit, b.score, p.bye_label, "", "", "", "", ""] for b in p.byes]
    rows += [["", b.no, b.name, b.unit, b.score, p.excused_label, "", "", "", "", ""] for b in p.excused]
    return _table(
        ["台次", "序号", "红方", "单位", "积分", "结果", "积分", "序号", "黑方", "单位", "备注"],
        rows,
        (2, 3, 8, 9),
    )


def _standings_page(s: Standings) -> str:
    rows = [
        [r.rank, r.no, r.name, r.unit, r.score, *(dict(r.tiebreaks).get(c) for c in s.chain), r.separated_by]
        for r in s.rows
    ]
    chain = " → ".join(("积分", *s.chain, "序号"))
    note = f'<p class="note">名次区分顺序：{_e(chain)}。'
    if s.sequence_ties:
        note += "按序号决定的名次：" + _e("；".join(f"{a}号先于{b}号" for a, b in s.sequence_ties)) + "。"
    note += "</p>"
    return _table(["名次", "序号", "姓名", "单位", "积分", *s.chain, "区分依据"], rows, (2, 3)) + note


def _crosstable_page(c: Crosstable) -> str:
    rows = [
        [
            r.no,
            r.name,
            r.unit,
            *r.round_texts(c.rounds),
            r.score,
            r.place,
        ]
        for r in c.rows
    ]
    return _table(
        ["序号", "姓名", "单位", *(f"第{n}轮" for n in range(1, c.rounds + 1)), "积分", "名次"], rows, (1, 2)
    )


def _teams_page(t: TeamStandings) -> str:
    rows = [[r.rank, r.team, t.members_text(r), r.total, r.best, r.note] for r in t.rows]
    return _table(["名次", "团体", "队员（名次）", t.total_label, "最好名次", "备注"], rows, (1, 2))


def _prizes_page(p: PrizeList) -> str:
    items = any(x.item for x in p.lines)  # non-cash prizes (issue 16): a column only if any
    rows: list[list[object]] = [
        [x.table, x.place, x.name, x.unit, f"{x.amount:,}", *([x.item] if items else [])] for x in p.lines
    ]
    rows.append(["合计", "", "", "", f"{sum(x.amount for x in p.lines):,}", *([""] if items else [])])
    notes = "".join(f"<p>{html.escape(note)}</p>" for note in p.notes)
    return notes + _table(
        ["类别", "名次", "姓名", "单位", "奖金（元，税前）", *(["奖品"] if items else [])], rows, (2, 3)
    )


def _bracket_page(b: Bracket) -> str:
    rows = []
    for m in (*(m for col in b.columns for m in col), *b.extra):
        games = "；".join(f"{g.kind}：红 {g.red} — 黑 {g.black} {g.result_zh or '待赛'}" for g in m.games)
        rows.append([m.title or m.round_name, m.high, m.low, games or "待赛", m.winner])
    return _table(["比赛", "上签", "下签", "各局", "胜者"], rows, (1, 2, 3, 4))


def write_site(site: PublicSite, out_dir: str | Path, printed_at: datetime) -> list[Path]:
    """Write index.html and one page per document into ``out_dir``; return the files written."""
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    pages: list[tuple[str, str, str]] = []  # (file, title, body)
    for i, e in enumerate(site.entries):
        rows = [[x.no, x.name, x.unit, x.gender, x.team] for x in e.lines]
        pages.append(
            (
                f"entry-list-{i + 1}.html",
                f"参赛名单 {e.header.group}",
                _table(["序号", "姓名", "单位", "性别", "团体"], rows, (1, 2, 4)),
            )
        )
    for i, r in enumerate(site.rounds):
        kind = "成绩公告" if any(x.result_zh for x in r.rows) else "对阵表"
        pages.append((f"round-{i + 1}.html", f"{kind} {r.header.subtitle}", _pairing_page(r)))
    for i, s in enumerate(site.standings):
        pages.append((f"standings-{i + 1}.html", f"名次表 {s.header.subtitle}", _standings_page(s)))
    for i, c in enumerate(site.crosstables):
        pages.append((f"crosstable-{i + 1}.html", f"个人成绩总表 {c.header.group}", _crosstable_page(c)))
    for i, t in enumerate(site.teams):
        pages.append((f"teams-{i + 1}.html", f"团体名次表 {t.header.group}", _teams_page(t)))
    if site.prizes is not None:
        pages.append(("prizes.html", "奖励名单", _prizes_page(site.prizes)))
    for i, b in enumerate(site.brackets):
        pages.append((f"bracket-{i + 1}.html", f"淘汰赛对阵 {b.header.group}", _bracket_page(b)))
    written = []
    for name, title, body in pages:
        path = folder / name
        path.write_text(_page(site.event_name, title, body, printed_at), encoding="utf-8")
        written.append(path)
    links = "".join(f'<li><a href="{_e(name)}">{_e(title)}</a></li>' for name, title, _ in pages)
    index = folder / "index.html"
    index.write_text(
        _page(site.event_name, "目录", f'<ul class="links">{links}</ul>', printed_at), encoding="utf-8"
    )
    return [index, *written]
