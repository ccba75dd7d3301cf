"""The hall pages' HTML: Chinese, mobile-first, one stylesheet and one small script served by the
hall itself (no external asset, no inline script: the Content-Security-Policy forbids both).

Every function here takes public read models of :mod:`app.reports.model` (which have no field for an
ID or a phone number) and returns HTML text; every value is escaped. A page is a ``<main>`` part,
which the script replaces when the file changes, inside a frame with the navigation.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from app.engine.types import GameResult
from app.reports.model import (
    Bracket,
    Crosstable,
    EntryList,
    PairingList,
    PairingRow,
    PlayerLine,
    PrizeList,
    Standings,
    TeamStandings,
    fmt_num,
)

#: The results a deputy can send, in the order of the buttons.
DEPUTY_RESULTS = (
    (GameResult.RED_WIN, "红胜"),
    (GameResult.DRAW, "和"),
    (GameResult.BLACK_WIN, "黑胜"),
    (GameResult.BLACK_FORFEIT, "黑弃权"),
    (GameResult.RED_FORFEIT, "红弃权"),
    (GameResult.DOUBLE_FORFEIT, "双弃权"),
)


def e(value: object) -> str:
    """Escaped text of a value (numbers as printed: 6, 7.5)."""
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return html.escape(fmt_num(value))
    return html.escape(str(value), quote=True)


# --------------------------------------------------------------------------- frame


@dataclass(frozen=True, slots=True)
class NavLink:
    href: str
    label: str
    current: bool = False


def frame(
    event: str, title: str, main: str, version: int, nav: Sequence[NavLink] = (), *, refresh: bool = True
) -> str:
    """A whole page: head, the event's name, the navigation, the ``<main>`` part, the footer."""
    links = "".join(
        f'<a href="{e(n.href)}"{" aria-current=page" if n.current else ""}>{e(n.label)}</a>' for n in nav
    )
    script = '<script src="/static/hall.js?v=2" defer></script>' if refresh else ""
    return (
        '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="same-origin">'
        f"<title>{e(title)} · {e(event)}</title>"
        f'<link rel="stylesheet" href="/static/hall.css?v=2">{script}</head>'
        f'<body><header><a class="home" href="/">{e(event)}</a></header>'
        + (f'<nav class="tabs">{links}</nav>' if links else "")
        + f'<main data-v="{version}">{main}</main>'
        "<footer>赛场网络 · 本页随成绩自动更新 · 不含身份证号和电话</footer></body></html>"
    )


def stamp(at: datetime) -> str:
    return f'<p class="meta">更新于 {at:%H:%M:%S}</p>'


def message_page(event: str, title: str, text: str, version: int = 0) -> str:
    return frame(event, title, f'<h1>{e(title)}</h1><p class="msg">{e(text)}</p>', version, refresh=False)


# --------------------------------------------------------------------------- index and search


@dataclass(frozen=True, slots=True)
class GroupLinks:
    """What the index says of a group: its pages that exist now."""

    index: int
    name: str
    current_round: int | None
    pending: int
    boards: int
    complete_round: int | None
    teams: bool
    bracket: bool
    entries: bool


def index_main(event: str, groups: Sequence[GroupLinks], prizes_final: bool, at: datetime) -> str:
    del event  # the page header names the event already
    parts = [
        '<h1 class="lead">查台次、看成绩</h1>'
        '<form class="search" action="/find" method="get" role="search">'
        '<input type="search" name="q" placeholder="查台次：输入姓名或序号" autocomplete="off" required>'
        "<button>查找</button></form>",
    ]
    for g in groups:
        links = []
        if g.current_round is not None:
            state = f"已录入 {g.boards - g.pending}/{g.boards} 台" if g.boards else ""
            links.append(
                f'<a class="big" href="/g/{g.index}/">第 {g.current_round} 轮对阵与成绩'
                f"<small>{e(state)}</small></a>"
            )
        if g.complete_round is not None:
            links.append(f'<a href="/g/{g.index}/standings">名次（第 {g.complete_round} 轮后）</a>')
            links.append(f'<a href="/g/{g.index}/crosstable">个人成绩总表</a>')
        if g.teams and g.complete_round is not None:
            links.append(f'<a href="/g/{g.index}/teams">团体名次</a>')
        if g.bracket:
            links.append(f'<a href="/g/{g.index}/bracket">淘汰赛对阵</a>')
        if g.entries:
            links.append(f'<a href="/g/{g.index}/entries">参赛名单</a>')
        body = "".join(links) or '<p class="msg">尚未编排</p>'
        parts.append(f'<section class="group"><h2>{e(g.name)}</h2><div class="links">{body}</div></section>')
    if prizes_final:
        parts.append(
            '<section class="group"><h2>奖励</h2><div class="links"><a href="/prizes">获奖名单</a></div></section>'
        )
    parts.append(stamp(at))
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class Found:
    group: str
    group_index: int
    round: int
    row: PairingRow | None
    bye: PlayerLine | None = None


def matches(row: PairingRow, query: str) -> bool:
    """Board search: a number is a board or a 序号; text is part of a name or a unit.

    >>> r = PairingRow(12, PlayerLine(3, "王天一", "杭州"), PlayerLine(40, "李四", "上海"))
    >>> [matches(r, q) for q in ("12", "3", "40", "5", "王", "上海", "赵")]
    [True, True, True, False, True, True, False]
    """
    q = query.strip()
    if not q:
        return True
    if q.isdigit():
        n = int(q)
        return n in (row.board, row.red.no, row.black.no)
    return any(q in text for text in (row.red.name, row.black.name, row.red.unit, row.black.unit))


def bye_matches(p: PlayerLine, query: str) -> bool:
    q = query.strip()
    if q.isdigit():
        return int(q) == p.no
    return bool(q) and (q in p.name or q in p.unit)


def find_main(query: str, found: Sequence[Found], at: datetime) -> str:
    parts = [
        "<h1>查台次</h1>",
        '<form class="search" action="/find" method="get" role="search">'
        f'<input type="search" name="q" value="{e(query)}" placeholder="输入姓名或序号" autocomplete="off" required>'
        "<button>查找</button></form>",
    ]
    if not query.strip():
        parts.append('<p class="msg">请输入姓名、序号或台次。</p>')
    elif not found:
        parts.append(f'<p class="msg">本轮没有找到“{e(query)}”。</p>')
    for f in found:
        parts.append(f"<h2>{e(f.group)} 第 {f.round} 轮</h2>")
        if f.row is not None:
            parts.append(f'<ol class="boards">{board_item(f.row, f.group_index, f.round)}</ol>')
        elif f.bye is not None:
            parts.append(f'<p class="bye">{e(f.bye.no)} {e(f.bye.name)}：本轮轮空</p>')
    parts.append(stamp(at))
    return "".join(parts)


# --------------------------------------------------------------------------- rounds and boards


def _player(p: PlayerLine, side: str) -> str:
    unit = f" · {e(p.unit)}" if p.unit else ""
    return f'<div class="p {side}"><b>{e(p.name)}</b><small>{e(p.no)}号{unit} · {e(p.score)}分</small></div>'


def search_text(row: PairingRow) -> str:
    return " ".join((row.red.name, row.black.name, row.red.unit, row.black.unit))


def board_item(row: PairingRow, group_index: int, number: int) -> str:
    result = row.result_zh or "—"
    marks = f'<small class="marks">{e("，".join(row.marks))}</small>' if row.marks else ""
    state = "done" if row.result_zh else "open"
    return (
        f'<li class="board {state}" id="b{row.board}" data-b="{row.board}" '
        f'data-n="{row.red.no} {row.black.no}" data-s="{e(search_text(row))}">'
        f'<a class="no" href="/g/{group_index}/r/{number}/b/{row.board}">{row.board}</a>'
        f'{_player(row.red, "red")}<span class="res">{e(result)}{marks}</span>{_player(row.black, "black")}</li>'
    )


def round_main(
    p: PairingList, group_index: int, number: int, rounds: Sequence[int], query: str, at: datetime
) -> str:
    entered = sum(1 for r in p.rows if r.result_zh)
    title = "成绩公告" if entered == len(p.rows) and p.rows else "对阵与成绩"
    rows = [r for r in p.rows if matches(r, query)]
    byes = [b for b in p.byes if not query.strip() or bye_matches(b, query)]
    tabs = "".join(
        f'<a href="/g/{group_index}/r/{n}/"{" aria-current=page" if n == number else ""}>{n}</a>'
        for n in rounds
    )
    parts = [
        f"<h1>{e(p.header.group)} 第 {number} 轮 {title}</h1>",
        f'<p class="meta">共 {len(p.rows)} 台，已录入 {entered} 台</p>',
        f'<nav class="rounds" aria-label="轮次">轮次：{tabs}</nav>' if len(rounds) > 1 else "",
        '<form class="search" method="get" role="search">'
        f'<input type="search" id="q" name="q" value="{e(query)}" placeholder="查台次：姓名、序号或台次" '
        'autocomplete="off" inputmode="search"><button>查找</button></form>',
        f'<p class="count" id="count">{f"找到 {len(rows) + len(byes)} 项" if query.strip() else ""}</p>',
        '<ol class="boards">',
        *(board_item(r, group_index, number) for r in rows),
        "</ol>",
    ]
    if byes:
        parts.append(
            '<p class="bye">'
            + "；".join(
                f'<span data-n="{b.no}" data-s="{e(b.name)} {e(b.unit)}">{e(b.no)} {e(b.name)}</span>'
                for b in byes
            )
            + f"：{e(p.bye_label)}</p>"
        )
    excused = [b for b in p.excused if not query.strip() or bye_matches(b, query)]
    if excused:  # 请假 (issue 16): excused from this round, not paired
        parts.append(
            '<p class="bye">'
            + "；".join(
                f'<span data-n="{b.no}" data-s="{e(b.name)} {e(b.unit)}">{e(b.no)} {e(b.name)}</span>'
                for b in excused
            )
            + f"：{e(p.excused_label)}</p>"
        )
    parts.append(stamp(at))
    return "".join(parts)


def board_main(p: PairingList, row: PairingRow, group_index: int, number: int, at: datetime) -> str:
    result = row.result_zh or "尚未录入"
    marks = f'<p class="marks">{e("，".join(row.marks))}</p>' if row.marks else ""
    return (
        f"<h1>{e(p.header.group)} 第 {number} 轮 · 第 {row.board} 台</h1>"
        '<div class="card">'
        f'<div class="side red"><span>红方</span><b>{e(row.red.name)}</b>'
        f"<small>{e(row.red.no)}号 · {e(row.red.unit)} · 赛前 {e(row.red.score)} 分</small></div>"
        f'<div class="side black"><span>黑方</span><b>{e(row.black.name)}</b>'
        f"<small>{e(row.black.no)}号 · {e(row.black.unit)} · 赛前 {e(row.black.score)} 分</small></div>"
        f'<p class="result">{e(result)}</p>{marks}</div>'
        f'<p><a href="/g/{group_index}/r/{number}/#b{row.board}">本轮全部对阵</a></p>' + stamp(at)
    )


# --------------------------------------------------------------------------- tables


def table(
    header: Sequence[str], rows: Iterable[Sequence[object]], text_cols: Sequence[int] = (), sticky: int = -1
) -> str:
    def cell(i: int, v: object, tag: str) -> str:
        cls = []
        if i in text_cols:
            cls.append("t")
        if i == sticky:
            cls.append("s")
        attr = f' class="{" ".join(cls)}"' if cls else ""
        return f"<{tag}{attr}>{e(v)}</{tag}>"

    head = "".join(cell(i, h, "th") for i, h in enumerate(header))
    body = "".join("<tr>" + "".join(cell(i, v, "td") for i, v in enumerate(r)) + "</tr>" for r in rows)
    return f'<div class="wrap"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def standings_main(s: Standings, at: datetime) -> str:
    rows = [
        [
            r.rank,
            r.name + (f"（{r.note}）" if r.note else ""),
            r.no,
            r.unit,
            r.score,
            *(dict(r.tiebreaks).get(c, "") for c in s.chain),
        ]
        for r in s.rows
    ]
    chain = " → ".join(("积分", *s.chain, "序号"))
    note = f'<p class="note">名次区分顺序：{e(chain)}。'
    if s.sequence_ties:
        note += "按序号决定的名次：" + e("；".join(f"{a}号先于{b}号" for a, b in s.sequence_ties)) + "。"
    return (
        f"<h1>{e(s.header.group)} 名次（第 {s.header.round} 轮后）</h1>"
        + table(["名次", "姓名", "序号", "单位", "积分", *s.chain], rows, (1, 3), sticky=1)
        + note
        + "</p>"
        + stamp(at)
    )


def crosstable_main(c: Crosstable, at: datetime) -> str:
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
    return (
        f"<h1>{e(c.header.group)} 个人成绩总表（第 {c.header.round} 轮后）</h1>"
        + table(
            ["序号", "姓名", "单位", *(f"第{n}轮" for n in range(1, c.rounds + 1)), "积分", "名次"],
            rows,
            (1, 2),
            sticky=1,
        )
        + '<p class="note">每格：对手序号 + 执色（红/黑）+ 结果。</p>'
        + stamp(at)
    )


def teams_main(t: TeamStandings, at: datetime) -> str:
    rows = [[r.rank or "", r.team, t.members_text(r), r.total, r.best, r.note] for r in t.rows]
    label = t.header.round_label
    return (
        f"<h1>{e(t.header.group)} 团体名次{e(label)}</h1>"
        + table(
            ["名次", "团体", "队员（名次）", t.total_label, "最好名次", "备注"], rows, (1, 2, 5), sticky=1
        )
        + stamp(at)
    )


def entries_main(x: EntryList, at: datetime) -> str:
    rows = [[line.no or "", line.name, line.unit, line.gender, line.team] for line in x.lines]
    return (
        f"<h1>{e(x.header.group)} 参赛名单</h1>"
        f'<p class="meta">共 {len(rows)} 人</p>'
        + table(["序号", "姓名", "单位", "性别", "团体"], rows, (1, 2, 4), sticky=1)
        + stamp(at)
    )


def prizes_main(p: PrizeList, at: datetime) -> str:
    items = any(x.item for x in p.lines)  # non-cash prizes (issue 16): a column only if any
    rows: list[list[object]] = [
        [x.table, f"第{x.place}名", x.name, x.unit, f"{x.amount:,}", *([x.item] if items else [])]
        for x in p.lines
    ]
    rows.append(["合计", "", "", "", f"{sum(x.amount for x in p.lines):,}", *([""] if items else [])])
    head = ["类别", "名次", "姓名", "单位", "奖金（元，税前）", *(["奖品"] if items else [])]
    return "<h1>获奖名单</h1>" + table(head, rows, (0, 2, 3)) + stamp(at)


def bracket_main(b: Bracket, at: datetime) -> str:
    parts = [f"<h1>{e(b.header.group)} 淘汰赛对阵</h1>"]
    for column in (*b.columns, b.extra):
        for m in column:
            games = "".join(
                f"<li>{e(g.kind)}：红 {e(g.red)} — 黑 {e(g.black)} <b>{e(g.result_zh or '待赛')}</b></li>"
                for g in m.games
            )
            winner = f'<p class="win">胜者：{e(m.winner)}</p>' if m.winner else ""
            parts.append(
                f'<section class="match"><h2>{e(m.title or m.round_name)} <small>{e(m.code)}</small></h2>'
                f"<p>{e(m.high)} <i>对</i> {e(m.low)}</p><ul>{games}</ul>{winner}</section>"
            )
    parts.append(stamp(at))
    return "".join(parts)


# --------------------------------------------------------------------------- deputies


@dataclass(frozen=True, slots=True)
class DeputyLine:
    board: int
    red: str
    black: str
    recorded: str  # "" while pending
    sent: str  # this deputy's entry waiting for the chief, "" if none


def deputy_main(
    deputy: str,
    group: str,
    number: int,
    boards_text: str,
    lines: Sequence[DeputyLine],
    action: str,
    csrf: str,
    notice: str = "",
) -> str:
    """A deputy's page: each board of the pass with one button per result (a form POST each)."""
    parts = [
        f"<h1>副裁判录入 · {e(deputy)}</h1>",
        f'<p class="meta">{e(group)} 第 {number} 轮 {e(boards_text)}。提交后由裁判长确认生效。</p>',
    ]
    if notice:
        parts.append(f'<p class="notice" role="status">{e(notice)}</p>')
    parts.append('<ol class="deputy">')
    for line in lines:
        state = ""
        if line.recorded:
            state = f'<span class="rec">已录入：{e(line.recorded)}</span>'
        if line.sent:
            state += f'<span class="sent">已提交待确认：{e(line.sent)}</span>'
        buttons = "".join(
            f'<button name="result" value="{r.value}" class="{r.value}">{label}</button>'
            for r, label in DEPUTY_RESULTS
        )
        parts.append(
            f'<li id="b{line.board}"><div class="who"><b>第 {line.board} 台</b>'
            f'<span class="red">红 {e(line.red)}</span><span>黑 {e(line.black)}</span>{state}</div>'
            f'<form method="post" action="{e(action)}">'
            f'<input type="hidden" name="csrf" value="{e(csrf)}">'
            f'<input type="hidden" name="board" value="{line.board}">{buttons}</form></li>'
        )
    parts.append("</ol>")
    return "".join(parts)


# --------------------------------------------------------------------------- assets

CSS = """
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.45 "PingFang SC","Microsoft YaHei","Noto Sans CJK SC","WenQuanYi Micro Hei",sans-serif;
color:#1d1d1f;background:#f4f1ea}
header{background:#8b1a1a;color:#fff;padding:10px 12px}
header a{color:#fff;text-decoration:none;font-weight:600}
nav.tabs{display:flex;overflow-x:auto;background:#fff;border-bottom:1px solid #ddd;white-space:nowrap}
nav.tabs a{padding:10px 12px;color:#333;text-decoration:none}
nav.tabs a[aria-current]{color:#8b1a1a;border-bottom:3px solid #8b1a1a;font-weight:600}
main{padding:10px 10px 24px;max-width:900px;margin:0 auto}
h1{font-size:1.15rem;margin:.3em 0 .2em}h2{font-size:1.02rem;margin:.8em 0 .3em;color:#444}
.meta,.note{color:#666;font-size:.85rem;margin:.2em 0 .6em}
.msg{background:#fff;padding:12px;border-radius:8px}
form.search{display:flex;gap:6px;margin:.5em 0}
form.search input{flex:1;min-width:0;font-size:1rem;padding:9px 10px;border:1px solid #bbb;border-radius:8px}
form.search button,.links a,.deputy button{font-size:1rem;border-radius:8px}
form.search button{padding:0 14px;border:0;background:#8b1a1a;color:#fff}
.count{margin:0;color:#8b1a1a;font-size:.9rem;min-height:1em}
.group{background:#fff;border-radius:10px;padding:4px 12px 12px;margin:10px 0}
.links{display:flex;flex-wrap:wrap;gap:8px}
.links a{display:block;padding:9px 12px;background:#f4f1ea;color:#222;text-decoration:none}
.links a.big{flex-basis:100%;background:#8b1a1a;color:#fff;font-weight:600}
.links a small{display:block;font-weight:400;opacity:.85}
ol.boards{list-style:none;margin:0;padding:0}
li.board{display:grid;grid-template-columns:2.4em 1fr 4.2em 1fr;align-items:center;gap:4px;background:#fff;
margin:6px 0;padding:8px 6px;border-radius:8px;border-left:4px solid #ccc}
li.board.done{border-left-color:#2e7d32}
li.board.hit{outline:2px solid #e0a800}
li.board .no{font-weight:700;font-size:1.1rem;text-align:center;color:#333;text-decoration:none}
.p b{display:block;font-size:1.05rem}.p small{color:#666;font-size:.78rem;display:block}
.p.red b,.red{color:#b00000}
.p.black{text-align:right}
.res{text-align:center;font-weight:600}.res small{display:block;color:#b00000;font-weight:400;font-size:.72rem}
.bye{background:#fff;border-radius:8px;padding:8px}
nav.rounds{margin:.3em 0;overflow-x:auto;white-space:nowrap}
nav.rounds a{display:inline-block;min-width:2em;text-align:center;padding:4px 6px;margin:2px;background:#fff;
border-radius:6px;color:#333;text-decoration:none}
nav.rounds a[aria-current]{background:#8b1a1a;color:#fff}
.wrap{overflow-x:auto;-webkit-overflow-scrolling:touch;background:#fff;border-radius:8px}
table{border-collapse:collapse;width:100%;font-size:.88rem}
th,td{border-bottom:1px solid #eee;padding:6px 6px;text-align:center;white-space:nowrap}
th{background:#efe9dd;position:sticky;top:0}
td.t{text-align:left}
.s{position:sticky;left:0;background:#fff;z-index:1}th.s{background:#efe9dd;z-index:2}
.card{background:#fff;border-radius:12px;padding:14px}
.card .side{padding:8px 0;border-bottom:1px solid #eee}.card .side span{color:#666;margin-right:8px}
.card .side b{font-size:1.5rem}.card .side small{display:block;color:#666}
.card .result{font-size:1.6rem;font-weight:700;text-align:center;margin:.5em 0 0}
.match{background:#fff;border-radius:8px;padding:4px 12px;margin:8px 0}.match ul{padding-left:1.2em}
.win{color:#2e7d32;font-weight:600}
ol.deputy{list-style:none;padding:0;margin:0}
ol.deputy li{background:#fff;border-radius:10px;padding:10px;margin:10px 0}
.who span{display:block}.who .rec{color:#2e7d32}.who .sent{color:#e07000}
.deputy form{display:grid;grid-template-columns:repeat(3,1fr);gap:6px;margin-top:8px}
.deputy button{padding:12px 0;border:1px solid #999;background:#fafafa}
.deputy button.red_win{color:#b00000}
.notice{background:#e8f5e9;border-radius:8px;padding:10px;color:#1b5e20}
footer{color:#888;font-size:.75rem;text-align:center;padding:12px}
@media (min-width:700px){li.board{grid-template-columns:3em 1fr 6em 1fr}}
"""

#: The page script (ES5, for old phone browsers): live board search, refresh when the file changes
#: (server-sent events, or polling where EventSource is missing).
JS = r"""
(function () {
  var main = document.querySelector('main');
  if (!main) return;
  var version = main.getAttribute('data-v');
  function filter() {
    var box = document.getElementById('q');
    if (!box) return;
    var q = box.value.replace(/^\s+|\s+$/g, '');
    var items = main.querySelectorAll('li.board, p.bye span');
    var shown = 0;
    for (var i = 0; i < items.length; i++) {
      var el = items[i], hit;
      if (!q) hit = true;
      else if (/^\d+$/.test(q)) {
        var nos = (el.getAttribute('data-n') || '').split(' ');
        hit = el.getAttribute('data-b') === q || nos.indexOf(q) >= 0;
      } else hit = (el.getAttribute('data-s') || '').indexOf(q) >= 0;
      el.style.display = hit ? '' : 'none';
      if (el.classList) el.classList.toggle('hit', !!q && hit);
      if (hit) shown++;
    }
    var count = document.getElementById('count');
    if (count) count.textContent = q ? ('找到 ' + shown + ' 项') : '';
  }
  function bind() {
    var box = document.getElementById('q');
    if (box) box.oninput = filter;
  }
  function reload() {
    var url = location.pathname + location.search + (location.search ? '&' : '?') + 'part=main';
    var box = document.getElementById('q');
    var typed = box ? box.value : null;
    var req = new XMLHttpRequest();
    req.open('GET', url);
    req.onload = function () {
      if (req.status !== 200) return;
      main.innerHTML = req.responseText;
      version = req.getResponseHeader('X-Hall-Version') || version;
      var again = document.getElementById('q');
      if (again && typed !== null) again.value = typed;
      bind();
      filter();
    };
    req.send();
  }
  var waiting = false;
  function seen(v) {
    // a short random wait spreads two hundred phones' requests after each change
    if (!v || v === version || waiting) return;
    waiting = true;
    setTimeout(function () { waiting = false; reload(); }, Math.random() * 1500);
  }
  bind();
  filter();
  if (window.EventSource) {
    var source = new EventSource('/events');
    source.addEventListener('v', function (ev) { seen(ev.data); });
  } else {
    setInterval(function () {
      var req = new XMLHttpRequest();
      req.open('GET', '/version');
      req.onload = function () { if (req.status === 200) seen(req.responseText); };
      req.send();
    }, 15000);
  }
})();
"""
