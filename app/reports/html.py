"""The public pages' HTML: one renderer for the hall network (``app.web``, served to phones) and for the
static folder (``xqarbiter html``, for a projector or a website).

Pages are Jinja2 templates (``templates/``) with autoescape on: every value from a read model is
escaped unless a template marks it otherwise, and none does. The templates take only the public read
models of :mod:`app.reports.model` (which have no field for an ID or a phone number) and a
:class:`Links` that says where each page lives — the hall's paths (:data:`HALL`) or the static
folder's file names (:class:`StaticLinks`). A page is a ``<main>`` part inside a frame: the hall sends
the part alone when a page refreshes itself; its stylesheet and script are files it serves
(``templates/static``: the hall's Content-Security-Policy forbids inline ones), while a static page
carries the same stylesheet inline and no script.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from app.engine.types import GameResult
from app.reports.links import HALL as HALL
from app.reports.links import Links as Links
from app.reports.links import StaticLinks as StaticLinks
from app.reports.model import (
    Bracket,
    Crosstable,
    EntryList,
    GameView,
    PairingList,
    PairingRow,
    PlayerBook,
    PlayerCard,
    PlayerLine,
    PrizeLine,
    PrizeList,
    RoundRobinSchedule,
    RoundRobinTable,
    Schedule,
    Standings,
    TeamRow,
    TeamStandings,
    fmt_num,
)
from app.reports.names import initial, pinyin_key
from app.reports.team_model import (
    MatchSheet,
    TeamBook,
    TeamCard,
    TeamCrosstable,
    TeamEventStandings,
    TeamRoundDoc,
)

TEMPLATES = Path(__file__).with_name("templates")
STATIC = TEMPLATES / "static"


def _shown(value: object) -> object:
    """What ``{{ value }}`` prints: nothing for ``None``, numbers as printed (6, 7.5)."""
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return fmt_num(value)
    return value


_env = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    finalize=_shown,
    auto_reload=False,
)
_env.filters["num"] = lambda v: fmt_num(v) if v is not None else ""


def render(template: str, **context: object) -> str:
    """One template rendered with ``context`` (escaped)."""
    return _env.get_template(template).render(**context)


def asset(name: str) -> str:
    """The text of a file of ``templates/static`` (the stylesheet, the hall's script)."""
    return (STATIC / name).read_text(encoding="utf-8")


#: The results a deputy can send, in the order of the buttons.
DEPUTY_RESULTS = (
    (GameResult.RED_WIN, "红胜"),
    (GameResult.DRAW, "和"),
    (GameResult.BLACK_WIN, "黑胜"),
    (GameResult.BLACK_FORFEIT, "黑弃权"),
    (GameResult.RED_FORFEIT, "红弃权"),
    (GameResult.DOUBLE_FORFEIT, "双弃权"),
)


# --------------------------------------------------------------------------- where pages live


@dataclass(frozen=True, slots=True)
class Link:
    """A table cell that opens a page (a name, an opponent, a board)."""

    text: object
    href: str

    def __str__(self) -> str:
        return _shown(self.text).__str__()


_env.tests["link"] = lambda v: isinstance(v, Link)
_env.tests["list_of_values"] = lambda v: isinstance(v, list)


def seats(p: PairingList) -> dict[str, list[object]]:
    """Where each player of a round sits (for the index's "这是我" line): the latest game of a board."""
    out: dict[str, list[object]] = {}
    for r in p.rows:
        out[str(r.red.no)] = [r.board, "红", r.black.no, r.black.name, r.result_zh]
        out[str(r.black.no)] = [r.board, "黑", r.red.no, r.red.name, r.result_zh]
    for b in p.byes:
        out[str(b.no)] = [p.bye_label]
    for b in p.excused:
        out[str(b.no)] = [p.excused_label]
    return out


# --------------------------------------------------------------------------- the frame


@dataclass(frozen=True, slots=True)
class NavLink:
    href: str
    label: str
    current: bool = False


def group_nav(
    links: Links, gi: int, name: str, pages: Iterable[str], here: str, *, has_round: bool = True
) -> list[NavLink]:
    """A group's tabs: its current round, then whichever of its other pages exist (``pages``)."""
    labels = {
        "standings": "名次",
        "crosstable": "总表",
        "order": "秩序表",
        "teams": "团体",
        "bracket": "淘汰赛",
        "entries": "名单",
    }
    out = [NavLink(links.group(gi), f"{name} 对阵", here == "round")] if has_round else []
    present = set(pages)
    out += [
        NavLink(links.page(gi, kind), label, kind == here)
        for kind, label in labels.items()
        if kind in present
    ]
    return out


def frame(
    links: Links,
    event: str,
    title: str,
    main: str,
    version: int = 0,
    nav: Sequence[NavLink] = (),
    *,
    refresh: bool = True,
    at: datetime | None = None,
    css: Markup | None = None,
) -> str:
    """A whole page: the event's name, the navigation, the ``<main>`` part, the footer (``css``: the
    stylesheet a static page carries inline, read once by the caller). Python, not a template: the
    static folder of 5,000 players has 10,000 pages."""
    head, tail = frame_parts(links, event, title, main, version, nav, refresh=refresh, at=at)
    if links.live:
        return head + tail
    return "".join((head, css if css is not None else asset("hall.css"), tail))


def frame_parts(
    links: Links,
    event: str,
    title: str,
    main: str,
    version: int = 0,
    nav: Sequence[NavLink] = (),
    *,
    refresh: bool = True,
    at: datetime | None = None,
) -> tuple[str, str]:
    """:func:`frame` as the text before and after a static page's stylesheet (the hall's pages have none:
    the page is the two together). The static folder writes the stylesheet's bytes between them,
    encoded once: it is a third of each of the 5,000 players' pages."""
    script = refresh and links.live
    out = [
        '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="same-origin">\n'
        f"<title>{_h(title)} · {_h(event)}</title>\n"
    ]
    if links.live:
        out.append(f'<link rel="stylesheet" href="{_h(links.css)}">')
        if script:
            out.append(f'<script src="{_h(links.js)}" defer></script>')
        head = ""
    else:
        out.append("<style>")
        head = "".join(out)
        out = ["</style>\n"]
    out.append(f'</head>\n<body><header><a class="home" href="{_h(links.home())}">{_h(event)}</a></header>\n')
    if nav:
        out.append('<nav class="tabs" aria-label="本组页面">')
        current = ' aria-current="page"'
        out += [f'<a href="{_h(n.href)}"{current if n.current else ""}>{_h(n.label)}</a>' for n in nav]
        out.append("</nav>")
    if links.live and script:
        out.append('<p id="net" class="net" role="status" hidden></p>')
    out.append(f'<main data-v="{_h(version)}">{main}</main>\n')
    if links.live:
        out.append(
            f"<footer>赛场网络{' · 本页随成绩自动更新' if script else ''} · 不含身份证号和电话</footer>\n"
        )
    else:
        stamp = at.strftime("%Y-%m-%d %H:%M") if at else ""
        out.append(f"<footer>更新时间：{_h(stamp)} · 不含身份证号和电话</footer>\n")
    out.append("</body></html>")
    return head, "".join(out)


def message_main(title: str, text: str, back: Sequence[NavLink] = ()) -> str:
    return render("message.html", title=title, text=text, back=back)


def message_page(links: Links, event: str, title: str, text: str, version: int = 0) -> str:
    return frame(links, event, title, message_main(title, text), version, refresh=False)


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
    rounds: tuple[int, ...] = ()
    standings: str = ""  # what the standings are after: "第 3 轮后", "最终名次"
    #: where each player of the current round sits, for "这是我" (read by the page's script, nothing sent):
    #: 序号 → [board, colour, opponent 序号, opponent's name, result] or [label] (轮空 / 请假)
    seats: dict[str, list[object]] = field(default_factory=dict)
    order: bool = False  # a round robin is drawn: its 对局秩序表
    #: the current round is a knockout round whose continuing Swiss is not paired yet (as the window says)
    swiss_due: bool = False
    team_event: bool = False  # a team competition: matches of teams, 团体名次 and 团体成绩总表


def index_main(
    links: Links, event: str, groups: Sequence[GroupLinks], prizes_final: bool, at: datetime
) -> str:
    del event  # the page header names the event already
    return render("index.html", links=links, groups=groups, prizes_final=prizes_final, at=at)


@dataclass(frozen=True, slots=True)
class Found:
    group: str
    group_index: int
    round: int
    row: PairingRow | None
    bye: PlayerLine | None = None  # a player not paired this round: a bye, or excused (请假)
    label: str = "轮空"  # 轮空 / 请假


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


def find_main(links: Links, query: str, found: Sequence[Found], at: datetime) -> str:
    return render("find.html", links=links, query=query, found=found, at=at)


# --------------------------------------------------------------------------- rounds and boards


def search_text(row: PairingRow) -> str:
    return " ".join((row.red.name, row.black.name, row.red.unit, row.black.unit))


def number_hit(row: PairingRow, query: str) -> str:
    """What a number search matched on a board: ``台次 9``, ``红方序号 9``, ``黑方序号 9`` (or "")."""
    q = query.strip()
    if not q.isdigit():
        return ""
    n = int(q)
    hits = [f"台次 {n}"] if row.board == n else []
    hits += [f"{side}序号 {n}" for side, p in (("红方", row.red), ("黑方", row.black)) if p.no == n]
    return "，".join(hits)


def _board_ids(rows: Sequence[PairingRow]) -> list[str]:
    """Each line's element id: ``b7`` for a board's latest game (where its page's link lands), ``b7-1``
    … for the earlier games of a knockout board — never the same id twice on a page."""
    last = {r.board: i for i, r in enumerate(rows)}
    count: dict[int, int] = {}
    out = []
    for i, r in enumerate(rows):
        count[r.board] = count.get(r.board, 0) + 1
        out.append(f"b{r.board}" if last[r.board] == i else f"b{r.board}-{count[r.board]}")
    return out


def _shown_escaped(value: object) -> Markup:
    """What ``{{ value }}`` writes: :func:`_shown`, escaped."""
    return escape(_shown(value))


_SEP = '<span class="sep">、</span>'


def cell_value(v: object) -> Markup:
    """A table cell's content: a link, a list of values (、), or the value (what ``{{ v }}`` prints).
    Python, not a macro: a 5,000-player table has ~100,000 cells."""
    return Markup(_cell(v))


def _cell(v: object) -> str:
    kind = v.__class__
    if kind is str or kind is int:
        return _h(v)
    if isinstance(v, Markup):  # written already (a crosstable's cell)
        return v
    if isinstance(v, Link):
        if v.href:
            return f'<a href="{_h(v.href)}">{_h(str(v))}</a>'
        return _h(str(v))
    if isinstance(v, list):
        return _SEP.join(map(_cell, v))
    return _h(v)


def cell_class(i: int, text_cols: Sequence[int], sticky: int) -> Markup:
    """`` class="t s"`` of a table's column: ``t`` for text (left), ``s`` for the sticky one."""
    c = (["t"] if i in text_cols else []) + (["s"] if i == sticky else [])
    return Markup(f' class="{" ".join(c)}"') if c else Markup("")


def table_body(
    rows: Sequence[Any], text_cols: Sequence[int], sticky: int, letters: bool, width: int
) -> Markup:
    """The rows of the ``table`` macro (each ``<tr>`` and a newline; with ``letters`` each item is
    ``(letter, row)`` and a letter's first row is preceded by its heading row)."""
    classes: list[Markup] = []
    out: list[str] = []
    row: Sequence[object]
    for k, item in enumerate(rows):
        if letters:
            letter, row = item
            if k == 0 or letter != rows[k - 1][0]:
                shown = _shown_escaped(letter)
                out.append(
                    f'<tr class="letter" id="L-{shown}"><th colspan="{_shown_escaped(width)}" '
                    f'scope="rowgroup">{shown}</th></tr>\n'
                )
        else:
            row = item
        while len(classes) < len(row):
            classes.append(cell_class(len(classes), text_cols, sticky))
        out.append("<tr>")
        out.extend(f"<td{classes[i]}>{_cell(v)}</td>" for i, v in enumerate(row))
        out.append("</tr>\n")
    return Markup("".join(out))


def _h(value: object) -> str:
    """What ``{{ value }}`` writes, as text: :func:`_shown_escaped` for the values of a table row, quick
    for the plain text and whole numbers that most of them are."""
    if type(value) is str:
        return str(escape(value)) if _SPECIAL.search(value) else value
    if type(value) is int:
        return str(value)
    return str(_shown_escaped(value))


_SPECIAL = re.compile("[&<>'\"]")


def _player_box(links: Links, gi: int, p: PlayerLine, side: str) -> str:
    unit = f" · {_h(p.unit)}" if p.unit else ""
    return (
        f'<div class="p {side}"><b>{_name_html(links, gi, p.no, p.name)}</b><small>{_h(p.no)}号{unit} · '
        f'<span class="nw">{_h(p.score)}分</span></small></div>'
    )


def board_item(links: Links, row: PairingRow, gi: int, number: int, id: str, query: str = "") -> Markup:
    """A board of a round's list (the ``<li>`` and a newline): number, both players, the result and
    what a number search matched. Python, not a macro: a round of 5,000 players has 2,500."""
    why = number_hit(row, query) if query else ""
    e = _h
    if row.stage:
        extra = f'<small class="stage">{e(row.stage)}</small>'
    elif row.marks:
        extra = f'<small class="marks">{escape("，").join(escape(m) for m in row.marks)}</small>'
    else:
        extra = ""
    board = e(row.board)
    return Markup(
        f'<li class="board {"done" if row.result_zh else "open"}" id="{e(id)}" data-b="{board}" '
        f'data-n="{e(row.red.no)} {e(row.black.no)}" data-s="{e(search_text(row))}">'
        f'<a class="no" href="{e(links.board(gi, number, row.board))}" aria-label="第 {board} 台">'
        f"{board}</a>{_player_box(links, gi, row.red, 'red')}"
        f'<span class="res">{e(row.result_zh or "—")}{extra}</span>'
        f"{_player_box(links, gi, row.black, 'black')}"
        f'<small class="why"{"" if why else " hidden"}>{e(why)}</small></li>\n'
    )


#: how many players' names, opponents and boards the page functions keep written (a name is on every list
#: of its player: 165,000 names for the static folder of 5,000 players)
_KEPT = 1 << 15


@lru_cache(maxsize=_KEPT)
def _name_html(links: Links, gi: int, no: int, name: str) -> str:
    href = links.player(gi, no)
    if href:
        return f'<a class="name" href="{_h(href)}">{_h(name)}</a>'
    return _h(name)


def name_link(links: Links, gi: int, p: PlayerLine) -> Markup:
    """A player's name, opening their page when there is one."""
    return Markup(_name_html(links, gi, p.no, p.name))


@lru_cache(maxsize=_KEPT)
def _opponent_html(links: Links, gi: int, no: int | None, name: str) -> str:
    if not no:
        return ""
    href = links.player(gi, no)
    text = f"{_h(no)} {_h(name)}"
    return f'<a href="{_h(href)}">{text}</a>' if href else text


def opponent_link(links: Links, gi: int, no: int | None, name: str) -> Markup:
    """``12 王天一`` (number and name) of an opponent or neighbour, opening their page if there is one."""
    return Markup(_opponent_html(links, gi, no, name))


@lru_cache(maxsize=_KEPT)
def _board_html(links: Links, gi: int, number: int, board: int) -> str:
    """A board's number, opening its place on the round's list."""
    return f'<a href="{_h(links.board(gi, number, board))}">{_h(board)}</a>'


def name_rows(links: Links, gi: int, number: int, lines: Sequence[NameLine]) -> Markup:
    """The rows of a round's list by name: a letter's heading row before its first name, then each
    player with board, colour, opponent and result (or 轮空 / 请假). Python, not template loops: the
    11 rounds of 5,000 players are 55,000 rows."""
    out: list[str] = []
    letter = None
    for x in lines:
        if x.letter != letter:
            letter = x.letter
            shown = _h(letter)
            out.append(
                f'<tr class="letter" id="L-{shown}"><th colspan="6" scope="rowgroup">{shown}</th></tr>\n'
            )
        p = x.player
        if x.board is not None:
            o = x.opponent
            assert o is not None
            out.append(
                f"<tr>{_name_cells(links, gi, p.no, p.name)}<td>{_board_html(links, gi, number, x.board)}</td>"
                f'<td>{_h(x.colour)}</td><td class="t">{_numbered_name(links, gi, o.no, o.name)}</td>'
                f"<td>{_h(x.result or '—')}</td></tr>\n"
            )
        else:
            out.append(f'<tr>{_name_cells(links, gi, p.no, p.name)}<td colspan="4">{_h(x.label)}</td></tr>\n')
    return Markup("".join(out))


@lru_cache(maxsize=_KEPT)
def _name_cells(links: Links, gi: int, no: int, name: str) -> str:
    """A list by name's first two cells: the name, opening the player's page, and the 序号."""
    return f'<td class="t s">{_name_html(links, gi, no, name)}</td><td>{_h(no)}</td>'


@lru_cache(maxsize=_KEPT)
def _numbered_name(links: Links, gi: int, no: int, name: str) -> str:
    """``12 王天一``: the 序号 and the name, opening the player's page."""
    return f"{_h(no)} {_name_html(links, gi, no, name)}"


def player_rows(links: Links, gi: int, c: PlayerCard) -> Markup:
    """The rows of a player's own page's table: each round's games (a knockout round may have several,
    its number and the score after it spanning them). Python, not template loops: 5,000 pages."""
    out: list[str] = []
    for r in c.rounds:
        span = len(r.games)
        for k, x in enumerate(r.games):
            out.append("<tr>")
            if k == 0:
                out.append(f'<th scope="row" rowspan="{span}">{_h(r.round)}</th>')
            if x.board is not None:
                stage = f'<small class="stage">{_h(x.stage)}</small>' if x.stage else ""
                black_wins = "<small>和（黑胜）</small>" if x.result_zh == "和（黑胜）" else ""
                record = links.record(gi, r.round, x.board, x.record) if x.record else ""
                rec = f'<a class="rec" href="{_h(record)}">棋谱</a>' if record else ""
                out.append(
                    f"<td>{_board_html(links, gi, r.round, x.board)}</td>"
                    f'<td>{_h(x.colour)}</td><td class="t">'
                    f"{_opponent_html(links, gi, x.opponent, x.opponent_name)}{stage}</td>"
                    f"<td>{_h(x.outcome or '待赛')}{black_wins}{rec}</td>\n"
                )
            else:
                out.append(f'<td colspan="3"></td><td>{_h(x.outcome)}</td>')
            if k == 0:
                after = r.score_after if r.score_after is not None else "—"
                out.append(f'<td rowspan="{span}">{_h(after)}</td>')
            out.append("</tr>\n")
    return Markup("".join(out))


_env.globals.update(
    opponent=opponent_link,
    search_text=search_text,
    number_hit=number_hit,
    board_ids=_board_ids,
    cell_value=cell_value,
    cell_class=cell_class,
    table_body=table_body,
    board_item=board_item,
    name=name_link,
    name_rows=name_rows,
    player_rows=player_rows,
)


def round_main(
    links: Links,
    p: PairingList,
    group_index: int,
    number: int,
    rounds: Sequence[int],
    query: str,
    at: datetime,
    starts: str = "",
    swiss_due: bool = False,
) -> str:
    """A round's boards (search narrows them on the server; the page's script narrows them as one types).

    ``swiss_due``: a knockout round whose continuing Swiss is not paired yet — the page says so, and
    its knockout games all in do not make it the round's 成绩公告."""
    entered = sum(1 for r in p.rows if r.result_zh)
    q = query.strip()
    rows = [r for r in p.rows if matches(r, query)]
    byes = [b for b in p.byes if not q or bye_matches(b, query)]
    excused = [b for b in p.excused if not q or bye_matches(b, query)]
    count = ""
    if q:
        count = f"找到 {len(rows) + len(byes) + len(excused)} 项"
        if q.isdigit():
            boards = sum(1 for r in rows if r.board == int(q))
            players = sum(1 for r in rows for x in (r.red, r.black) if x.no == int(q))
            players += sum(1 for b in (*byes, *excused) if b.no == int(q))
            count += f"：台次 {q} 有 {boards} 台，序号 {q} 有 {players} 人"
    return render(
        "round.html",
        links=links,
        p=p,
        gi=group_index,
        number=number,
        rounds=rounds,
        query=query,
        at=at,
        entered=entered,
        title="成绩公告" if entered == len(p.rows) and p.rows and not swiss_due else "对阵与成绩",
        swiss_due=swiss_due,
        rows=rows,
        ids=_board_ids(rows),
        byes=byes,
        excused=excused,
        count=count,
        starts=starts,
        time_control=p.header.time_control,
    )


def board_main(
    links: Links,
    p: PairingList,
    row: PairingRow,
    group_index: int,
    number: int,
    at: datetime,
    records: Sequence[int] = (),
) -> str:
    """One board: its players and result; a knockout board lists every game, with its record if stored."""
    games = [r for r in p.rows if r.board == row.board]
    return render(
        "board.html",
        links=links,
        p=p,
        row=row,
        games=games if len(games) > 1 else [],
        gi=group_index,
        number=number,
        at=at,
        records=records,
    )


class NameLine(NamedTuple):
    """A line of a list in 拼音 order: the player, where they sit, and the letter they are listed under
    (a named tuple: 55,000 lines for the 11 rounds of 5,000 players)."""

    letter: str
    player: PlayerLine
    board: int | None = None
    colour: str = ""
    opponent: PlayerLine | None = None
    result: str = ""
    label: str = ""  # 轮空 / 请假


def names_main(
    links: Links, p: PairingList, gi: int, number: int, rounds: Sequence[int], at: datetime
) -> str:
    """A round's players by name (拼音), each with board, colour and opponent: the notice board's list."""
    seen: dict[int, tuple[PlayerLine, int | None, str, PlayerLine | None, str, str]] = {}
    # a knockout board lists each game: the latest one says where a player sits
    for r in p.rows:
        seen[r.red.no] = (r.red, r.board, "红", r.black, r.result_zh, "")
    for r in p.rows:
        seen[r.black.no] = (r.black, r.board, "黑", r.red, r.result_zh, "")
    for b in p.byes:
        seen[b.no] = (b, None, "", None, "", p.bye_label)
    for b in p.excused:
        seen[b.no] = (b, None, "", None, "", p.excused_label)
    ordered = [
        NameLine(initial(x[0].name), *x)
        for x in sorted(seen.values(), key=lambda x: (pinyin_key(x[0].name), x[0].no))
    ]
    return render(
        "names.html",
        links=links,
        p=p,
        gi=gi,
        number=number,
        rounds=rounds,
        lines=ordered,
        letters=sorted({x.letter for x in ordered}),
        at=at,
    )


# --------------------------------------------------------------------------- tables


def _name(links: Links, gi: int, no: int | None, text: str) -> object:
    href = links.player(gi, no) if no else ""
    return Link(text, href) if href else text


def standings_main(links: Links, s: Standings, gi: int, at: datetime) -> str:
    rows = [
        [
            r.rank,
            _name(links, gi, r.no, r.name + (f"（{r.note}）" if r.note else "")),
            r.no,
            r.unit,
            r.score,
            *(dict(r.tiebreaks).get(c, "") for c in s.chain),
            r.separated_by,
        ]
        for r in s.rows
    ]
    header = ["名次", "姓名", "序号", "单位", "积分", *s.chain, "区分依据"]
    chain = " → ".join(("积分", *s.chain, "序号"))
    return render(
        "standings.html",
        links=links,
        s=s,
        gi=gi,
        at=at,
        header=header,
        rows=rows,
        chain=chain,
        basis=basis(s),
    )


def basis(s: Standings) -> str:
    """What a standing is after, as a page heading says it: ``第 3 轮后``, ``最终名次``, or a provisional
    round with the boards still open (``第 4 轮后（暂列：本轮尚有2台未录入）``)."""
    label, number = s.header.round_label, s.header.round
    if number is None:
        return label
    short = f"第{number}轮后"
    return f"第 {number} 轮后" + (label[len(short) :] if label.startswith(short) else "")


def crosstable_main(links: Links, c: Crosstable | RoundRobinTable, gi: int, at: datetime) -> str:
    """个人成绩总表: one line per player, a column per round; a round robin's is the square table."""
    if isinstance(c, RoundRobinTable):
        after = f"第 {c.header.round} 轮后" if c.header.round else c.header.round_label
        return render("roundrobin.html", links=links, t=c, gi=gi, at=at, basis=after)
    rows = [
        [
            r.no,
            _name(links, gi, r.no, r.name),
            r.unit,
            *(_cross_cell(links, gi, cell.opponent, cell.text) for cell in r.per_round),
            *([""] * (c.rounds - len(r.per_round))),
            r.score,
            r.place,
        ]
        for r in c.rows
    ]
    header = ["序号", "姓名", "单位", *(f"第{n}轮" for n in range(1, c.rounds + 1)), "积分", "名次"]
    return render("crosstable.html", links=links, c=c, gi=gi, at=at, header=header, rows=rows)


def _cross_cell(links: Links, gi: int, opponent: int | None, text: str) -> object:
    """A crosstable cell: its text (``17黑胜``), opening the opponent's page — written as the table
    writes a :class:`Link` (a crosstable of 5,000 players has 55,000 of them)."""
    if not opponent:
        return text
    href = links.player(gi, opponent)
    return Markup(f'<a href="{_h(href)}">{_h(text)}</a>') if href else text


def order_main(links: Links, o: RoundRobinSchedule, gi: int, at: datetime, paired: Sequence[int] = ()) -> str:
    """对局秩序表 of a round robin: the draw, then every round's pairs fixed before the first one."""
    return render("order.html", links=links, o=o, gi=gi, at=at, paired=set(paired))


def teams_main(links: Links, t: TeamStandings, gi: int, at: datetime) -> str:
    def members(r: TeamRow) -> list[object]:
        nos = r.member_nos or (None,) * len(r.members)
        points: tuple[int | None, ...] = r.points if t.by_points and r.points else (None,) * len(r.members)
        return [
            _name(links, gi, no, f"{n}（{p}）" if pts is None else f"{n}（{p}名，{pts}分）")
            for (n, p), no, pts in zip(r.members, nos, points, strict=False)
        ]

    rows = [[r.rank, r.team, r.total, r.best, members(r), r.note] for r in t.rows]
    header = ["名次", "团体", t.total_label, "最好名次", "队员（名次）", "备注"]
    return render("teams.html", links=links, t=t, gi=gi, at=at, header=header, rows=rows)


def entries_main(
    links: Links,
    x: EntryList,
    gi: int,
    at: datetime,
    by_name: bool = False,
    player_pages: bool = True,
    teams: Mapping[str, int | None] | None = None,
) -> str:
    """参赛名单 by 序号, or by name (拼音, with the letters to jump to); ``player_pages``: each name opens
    the player's page (not in a team competition, whose players have none); ``teams``: in a team
    competition, each team's number — its name opens the team's page."""
    numbers = teams or {}

    def team(name: str) -> object:
        no = numbers.get(name)
        return Link(name, links.team(gi, no)) if name and no else name

    lines = sorted(x.lines, key=lambda e: (e.no or 10**9, e.name))
    if by_name:
        lines = sorted(x.lines, key=lambda e: (pinyin_key(e.name), e.no))
    rows = [
        (
            initial(e.name) if by_name else "",
            [
                e.no or "",
                _name(links, gi, e.no if player_pages else None, e.name),
                e.unit,
                e.gender,
                team(e.team),
            ],
        )
        for e in lines
    ]
    header = ["序号", "姓名", "单位", "性别", "团体"]
    return render(
        "entries.html",
        links=links,
        x=x,
        gi=gi,
        at=at,
        header=header,
        rows=rows,
        by_name=by_name,
        letters=sorted({letter for letter, _ in rows}) if by_name else [],
    )


def prizes_main(links: Links, p: PrizeList, at: datetime, groups: Sequence[str] = ()) -> str:
    """奖励名单, one table per prize table: place, name, amount — the amount never off a phone's screen."""
    items = any(x.item for x in p.lines)  # non-cash prizes: a column only if any
    tables: dict[str, list[PrizeLine]] = {}
    for x in p.lines:
        tables.setdefault(x.table, []).append(x)

    def who(x: PrizeLine) -> object:
        gi = groups.index(x.group) + 1 if x.group in groups else 0
        return _name(links, gi, x.no, x.name) if gi else x.name

    parts = [
        (
            name,
            [
                [f"第{x.place}名", who(x), f"{x.amount:,}", x.unit, *([x.item] if items else [])]
                for x in lines
            ],
            f"{sum(x.amount for x in lines):,}",
        )
        for name, lines in tables.items()
    ]
    header = ["名次", "姓名", "奖金（元，税前）", "单位", *(["奖品"] if items else [])]
    total = f"{sum(x.amount for x in p.lines):,}"
    return render("prizes.html", links=links, p=p, at=at, header=header, parts=parts, total=total)


def bracket_main(links: Links, b: Bracket, gi: int, at: datetime) -> str:
    return render("bracket.html", links=links, b=b, gi=gi, at=at)


# --------------------------------------------------------------------------- a player's own page


def player_main(links: Links, book: PlayerBook, card: PlayerCard, gi: int, at: datetime) -> str:
    """A player's own page: the next board, the place with its tiebreaks and neighbours, every round.
    Python, not a template (every value escaped by :func:`_h`): the static folder of 5,000 players
    has 5,000 of them."""
    e = _h
    c = card
    note = f"（{e(c.note)}）" if c.note else ""
    unit = f" · {e(c.unit)}" if c.unit else ""
    out = [f'<h1>{e(c.no)}号 {e(c.name)}{note}</h1>\n<p class="meta">{e(book.header.group)}{unit}</p>\n']
    if links.live:
        out.append(
            f'<div class="me-box"><button type="button" id="this-is-me" data-gi="{e(gi)}" '
            f'data-no="{e(c.no)}" data-name="{e(c.name)}" hidden>这是我</button><small id="me-note" hidden>'
            "标记只保存在本机浏览器，不会发送；首页和对阵页会先显示你的台次。</small></div>"
        )
    out.append('<section class="card next" aria-label="下一盘">\n')
    n = c.next_game
    if n:
        stage = f"{e(n.stage)} · " if n.stage else ""
        starts = f"开赛 {e(n.starts)} · " if n.starts else ""
        out.append(
            f'<p class="next-head">第 {e(n.round)} 轮 · <a href="{e(links.board(gi, n.round, n.board))}">'
            f"第 {e(n.board)} 台</a> · 执{e(n.colour)}</p>\n"
            f"<p>对手：{_opponent_html(links, gi, n.opponent, n.opponent_name)}</p>\n"
            f'<p class="meta">{stage}{starts}用时 {e(n.time_control)}</p>\n'
        )
    elif c.unpaired:
        out.append(f'<p class="next-head">本轮{e(c.unpaired)}</p>\n')
    elif c.note:
        out.append(f'<p class="next-head">{e(c.note)}，不再编排</p>\n')
    else:
        out.append('<p class="next-head">下一轮尚未编排</p><p class="meta">编排后本页自动显示台次。</p>')
    basis = f"<small>（{e(book.basis)}）</small>" if book.basis else ""
    out.append(f'</section>\n<section aria-label="名次">\n<h2>名次{basis}</h2>\n')
    if c.rank:
        out.append(f'<p class="place"><b>第 {e(c.rank)} 名</b> · 积分 {e(c.score)}</p>\n')
        if c.tiebreaks:
            out.append('<dl class="tb">')
            out += [f"<div><dt>{e(label)}</dt><dd>{e(v)}</dd></div>" for label, v in c.tiebreaks]
            out.append("</dl>")
        out.append('<ul class="nb">\n')
        for word, x in (("上一名", c.above), ("下一名", c.below)):
            if x:
                out.append(
                    f"<li>{word}：第 {e(x.rank)} 名 {_opponent_html(links, gi, x.no, x.name)}<br>"
                    f"<small>区分依据：{e(x.why or '—')}</small></li>"
                )
        out.append("</ul>\n")
    else:
        first = "" if book.basis else " · 第 1 轮成绩录齐后产生名次"
        out.append(f'<p class="msg">积分 {e(c.score)}{first}</p>')
    out.append("</section>\n<h2>每轮成绩</h2>\n")
    if c.rounds:
        out.append(
            '<div class="wrap" tabindex="0" role="region" aria-label="每轮成绩（可左右滚动）"><table><thead><tr>'
            '<th scope="col">轮次</th><th scope="col">台次</th><th scope="col">执色</th>'
            '<th scope="col" class="t">对手</th><th scope="col">结果</th><th scope="col">积分</th></tr>'
            f"</thead><tbody>\n{player_rows(links, gi, c)}</tbody></table></div>\n"
        )
    else:
        out.append('<p class="msg">尚无对局。</p>')
    standings = f'<a href="{e(links.page(gi, "standings"))}">名次表</a>' if book.basis else ""
    out.append(
        f'<div class="links"><a href="{e(links.group(gi))}">本组对阵</a>{standings}'
        f'<a href="{e(links.schedule())}">赛程</a></div>\n<p class="meta">更新于 {e(at.strftime("%H:%M:%S"))}</p>'
    )
    return "".join(out)


def schedule_main(links: Links, s: Schedule, at: datetime) -> str:
    return render("schedule.html", links=links, s=s, at=at)


# --------------------------------------------------------------------------- a game record on a board

_GLYPHS = {
    "K": "帥", "A": "仕", "B": "相", "N": "傌", "R": "俥", "C": "炮", "P": "兵",
    "k": "將", "a": "士", "b": "象", "n": "馬", "r": "車", "c": "砲", "p": "卒",
}  # fmt: skip


def pieces(fen: str) -> list[tuple[int, int, str, bool]]:
    """(file 0–8 from Red's left, rank 0–9 from Red's side, glyph, red) of every piece of a FEN.

    >>> pieces("4k4/9/9/9/9/9/9/9/9/4K4 w")
    [(4, 9, '將', False), (4, 0, '帥', True)]
    """
    out = []
    for i, line in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in line:
            if ch.isdigit():
                f += int(ch)
            else:
                out.append((f, 9 - i, _GLYPHS.get(ch, "?"), ch.isupper()))
                f += 1
    return out


def board_svg(fen: str, last: tuple[int, int, int, int] | None = None) -> Markup:
    """The position as an SVG diagram (Red at the bottom); the page's script redraws it move by move."""
    return Markup(render("_board.svg", pieces=pieces(fen), last=last))


def record_main(links: Links, game: GameView, gi: int, number: int, ply: int, at: datetime) -> str:
    ply = max(0, min(ply, len(game.moves)))
    fen = game.moves[ply - 1].fen if ply else game.start_fen
    return render(
        "record.html",
        links=links,
        g=game,
        gi=gi,
        number=number,
        ply=ply,
        svg=board_svg(fen),
        at=at,
        base=links.record(gi, number, game.board, game.game_no),
    )


# --------------------------------------------------------------------------- deputies


@dataclass(frozen=True, slots=True)
class DeputyLine:
    board: int
    red: str
    black: str
    recorded: str  # "" while pending
    sent: str  # this deputy's entry waiting for the chief, "" if none
    game: str = ""  # a knockout board: which game is being played (colours swap between games)
    game_no: int = 1


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
    return render(
        "deputy.html",
        deputy=deputy,
        group=group,
        number=number,
        boards_text=boards_text,
        lines=lines,
        action=action,
        csrf=csrf,
        notice=notice,
        results=[(r.value, label) for r, label in DEPUTY_RESULTS],
    )


# --------------------------------------------------------------------------- the static folder


@dataclass(frozen=True, slots=True)
class SiteGroup:
    """One group's public pages for the static folder; a part that does not exist yet is empty."""

    name: str
    entries: EntryList | None = None
    rounds: tuple[PairingList, ...] = ()
    standings: Standings | None = None
    crosstable: Crosstable | RoundRobinTable | None = None
    order: RoundRobinSchedule | None = None  # a round robin's 对局秩序表, once it is drawn
    teams: TeamStandings | None = None
    bracket: Bracket | None = None
    players: PlayerBook | None = None
    #: the knockout round whose continuing Swiss is not paired yet (the pages say so), if any
    swiss_due: int | None = None
    #: a team competition (团体赛): its rounds are matches of teams, ranked by 场分 and 局分
    team_rounds: tuple[TeamRoundDoc, ...] = ()
    team_standings: TeamEventStandings | None = None
    team_crosstable: TeamCrosstable | None = None
    team_complete: int | None = None  # the last team round with every board's result
    team_book: TeamBook | None = None  # every team's own page

    @property
    def round_numbers(self) -> list[int]:
        if self.team_rounds:
            return [r.header.round or 0 for r in self.team_rounds]
        return [r.header.round or 0 for r in self.rounds]


@dataclass(frozen=True, slots=True)
class PublicSite:
    """The public pages to publish: the event's groups, the schedule and, once final, the prizes."""

    event_name: str
    groups: tuple[SiteGroup, ...] = ()
    prizes: PrizeList | None = None
    schedule: Schedule | None = None


Page = tuple[str, str, str, list[NavLink]]  # (file, title, main, nav)


def _group_pages(links: StaticLinks, gi: int, g: SiteGroup, at: datetime) -> Iterator[Page]:
    kinds = [
        kind
        for kind, part in (
            ("standings", g.standings or g.team_standings),
            ("crosstable", g.crosstable or g.team_crosstable),
            ("order", g.order),
            ("teams", g.teams),
            ("bracket", g.bracket),
            ("entries", g.entries),
        )
        if part is not None
    ]
    numbers = g.round_numbers

    def nav(here: str) -> list[NavLink]:
        return group_nav(links, gi, g.name, kinds, here, has_round=bool(numbers))

    for d in g.team_rounds:
        n = d.header.round or 0
        main = team_round_main(links, d, gi, n, numbers, at)
        yield (links.round(gi, n), f"{g.name} 第{n}轮 对阵与成绩", main, nav("round"))
        for m in d.matches:
            main = match_main(links, d, m, gi, n, at)
            yield (links.match(gi, n, m.number), f"第{n}轮 第{m.number}场", main, nav("round"))
    if g.team_book is not None:
        ranked = g.team_standings is not None
        for t in g.team_book.teams:
            main = team_main(links, g.team_book, t, gi, at, ranked)
            yield (links.team(gi, t.no), f"{t.no}号 {t.name}", main, nav(""))
    if g.team_standings is not None:
        main = team_standings_main(links, g.team_standings, gi, at)
        yield (links.page(gi, "standings"), f"{g.name} 团体名次", main, nav("standings"))
    if g.team_crosstable is not None:
        main = team_crosstable_main(links, g.team_crosstable, gi, at)
        yield (links.page(gi, "crosstable"), f"{g.name} 团体成绩总表", main, nav("crosstable"))
    for r in g.rounds:
        n = r.header.round or 0
        due = n == g.swiss_due
        kind = "成绩公告" if r.rows and all(x.result_zh for x in r.rows) and not due else "对阵表"
        yield (
            links.round(gi, n),
            f"{g.name} 第{n}轮 {kind}",
            round_main(links, r, gi, n, numbers, "", at, swiss_due=due),
            nav("round"),
        )
        main = names_main(links, r, gi, n, numbers, at)
        yield (links.names(gi, n), f"{g.name} 第{n}轮 按姓名", main, nav("round"))
    if g.standings is not None:
        main = standings_main(links, g.standings, gi, at)
        yield (links.page(gi, "standings"), f"{g.name} 名次表", main, nav("standings"))
    if g.crosstable is not None:
        main = crosstable_main(links, g.crosstable, gi, at)
        yield (links.page(gi, "crosstable"), f"{g.name} 个人成绩总表", main, nav("crosstable"))
    if g.order is not None:
        main = order_main(links, g.order, gi, at, numbers)
        yield (links.page(gi, "order"), f"{g.name} 对局秩序表", main, nav("order"))
    if g.teams is not None:
        main = teams_main(links, g.teams, gi, at)
        yield (links.page(gi, "teams"), f"{g.name} 团体名次表", main, nav("teams"))
    if g.bracket is not None:
        main = bracket_main(links, g.bracket, gi, at)
        yield (links.page(gi, "bracket"), f"{g.name} 淘汰赛对阵", main, nav("bracket"))
    teams = {t.name: t.no for t in g.team_book.teams} if g.team_book is not None else None
    if g.entries is not None:
        yield (
            links.page(gi, "entries"),
            f"{g.name} 参赛名单",
            entries_main(links, g.entries, gi, at, player_pages=g.players is not None, teams=teams),
            nav("entries"),
        )
        main = entries_main(
            links, g.entries, gi, at, by_name=True, player_pages=g.players is not None, teams=teams
        )
        yield (links.page(gi, "entries/names"), f"{g.name} 参赛名单（按姓名）", main, nav("entries"))
    if g.players is not None:
        for c in g.players.players:
            main = player_main(links, g.players, c, gi, at)
            yield (links.player(gi, c.no), f"{c.no}号 {c.name}", main, nav(""))


def _site_pages(site: PublicSite, links: StaticLinks, at: datetime) -> Iterator[Page]:
    """Every page of the static folder but the index, each made when it is written (the pages of
    5,000 players' event are ~140 MB of text together)."""
    for gi, g in enumerate(site.groups, start=1):
        yield from _group_pages(links, gi, g, at)
    if site.schedule is not None:
        yield (links.schedule(), "赛程", schedule_main(links, site.schedule, at), [])
    if site.prizes is not None:
        names = [g.name for g in site.groups]
        yield (links.prizes(), "奖励名单", prizes_main(links, site.prizes, at, names), [])


def write_site(site: PublicSite, out_dir: str | Path, printed_at: datetime) -> list[Path]:
    """Write index.html and one page per document into ``out_dir``; return the files written."""
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    links = StaticLinks(
        {gi: g.round_numbers[-1] or 1 for gi, g in enumerate(site.groups, 1) if g.round_numbers}
    )
    pages = _site_pages(site, links, printed_at)  # made one by one as they are written
    css = asset("hall.css").encode()
    written = []
    for name, title, main, nav in pages:
        path = folder / name
        head, tail = frame_parts(links, site.event_name, title, main, nav=nav, at=printed_at)
        with open(path, "wb") as f:  # bytes: a text file's encoder costs twice the writing
            f.write(b"".join((head.encode(), css, tail.encode())))
        written.append(path)
    groups = []
    for gi, g in enumerate(site.groups, start=1):
        if g.team_rounds or g.team_standings is not None:
            numbers = tuple(g.round_numbers)
            groups.append(
                GroupLinks(
                    gi,
                    g.name,
                    numbers[-1] if numbers else None,
                    0,
                    0,
                    g.team_complete if g.team_standings is not None else None,
                    False,
                    False,
                    g.entries is not None,
                    numbers,
                    "",
                    team_event=True,
                )
            )
            continue
        numbers = tuple(r.header.round or 0 for r in g.rounds)
        last = g.rounds[-1] if g.rounds else None
        groups.append(
            GroupLinks(
                gi,
                g.name,
                numbers[-1] if numbers else None,
                sum(1 for x in last.rows if not x.result_zh) if last else 0,
                len(last.rows) if last else 0,
                (g.standings.header.round or numbers[-1]) if g.standings is not None and numbers else None,
                g.teams is not None,
                g.bracket is not None,
                g.entries is not None,
                numbers,
                basis(g.standings) if g.standings is not None else "",
                order=g.order is not None,
                swiss_due=bool(numbers) and g.swiss_due == numbers[-1],
            )
        )
    main = index_main(links, site.event_name, groups, site.prizes is not None, printed_at)
    index = folder / "index.html"
    head, tail = frame_parts(links, site.event_name, "首页", main, at=printed_at)
    index.write_bytes(b"".join((head.encode(), css, tail.encode())))
    return [index, *written]


# --------------------------------------------------------------------------- team competitions (团体赛)


@dataclass(frozen=True, slots=True)
class _TeamMatchPart:
    number: int
    code: str
    home: str
    away: str
    score: str
    state: str
    rows: list[list[object]]
    home_no: int = 0
    away_no: int | None = None


def _team_match_part(m: MatchSheet) -> _TeamMatchPart:
    """A match as the round page and the match page show it: each board (who has Red, the players,
    the result, the board's 局分) with its tie-break games under it, and the score read back."""
    seated = any(b.home.no is not None or b.away.no is not None for b in m.boards)
    rows: list[list[object]] = []
    for b in m.boards:
        home_colour, away_colour = ("红", "黑") if b.home_red else ("黑", "红")
        rows.append(
            [
                b.board,
                f"{home_colour} {b.home.label}" if seated else home_colour,
                f"{away_colour} {b.away.label}" if seated else away_colour,
                b.result,
                f"{b.home_points}:{b.away_points}" if b.home_points else "",
            ]
        )
        for t in b.ties:
            kind = f"加赛{t.number} {t.kind}"
            rows.append([kind, f"红 {t.red.label}", f"黑 {t.black.label}", t.result, ""])
    decided = bool(m.home_match_points)
    score = f"{m.home_points}:{m.away_points}" if decided else "对"
    if decided:
        state = f"{m.outcome}；场分 {m.home_match_points}:{m.away_match_points}"
    else:
        state = "进行中" if seated else "待排阵"
    return _TeamMatchPart(m.number, m.code, m.home, m.away, score, state, rows, m.home_no, m.away_no)


def team_round_main(
    links: Links, d: TeamRoundDoc, gi: int, number: int, rounds: Sequence[int], at: datetime
) -> str:
    """A team round: each match with its boards under it (who has Red, the result, the 局分 of the board,
    the tie-break games) and the match score read back (局分, 场分 once decided)."""
    matches = [_team_match_part(m) for m in d.matches]
    header = ["台次", "主队", "客队", "结果", "局分"]
    return render(
        "team_round.html",
        links=links,
        d=d,
        gi=gi,
        number=number,
        rounds=list(rounds),
        matches=matches,
        header=header,
        at=at,
    )


def team_standings_main(links: Links, s: TeamEventStandings, gi: int, at: datetime) -> str:
    """团体名次 of a team competition: 场分, 局分 and the chain's tiebreaks; each team opens its page."""
    header, rows = s.table()
    linked: list[list[object]] = [[*r[:2], Link(r[2], links.team(gi, int(r[1]))), *r[3:]] for r in rows]
    title = f"{s.header.group} 团体名次{s.header.round_label}"
    return render(
        "team_table.html",
        title=title,
        header=header,
        rows=linked,
        text_cols=(2, len(header) - 1),
        notes=s.notes,
        at=at,
    )


def team_crosstable_main(links: Links, c: TeamCrosstable, gi: int, at: datetime) -> str:
    """团体成绩总表: per team and round the opponent (主/客) and the 局分; a team opens its page, a cell
    the match's page."""
    header = ["队号", "队名", *(f"第{n}轮" for n in range(1, c.rounds + 1)), "场分", "局分", "名次"]
    rows: list[list[object]] = []
    for r in c.rows:
        cells: list[object] = []
        for n, cell in enumerate(r.cells, start=1):
            match = r.matches[n - 1] if n <= len(r.matches) else None
            cells.append(Link(cell, links.match(gi, n, match)) if cell and match is not None else cell)
        rows.append([r.no, Link(r.team, links.team(gi, r.no)), *cells, r.match_points, r.game_points, r.rank])
    title = f"{c.header.group} 团体成绩总表{c.header.round_label}"
    return render("team_table.html", title=title, header=header, rows=rows, text_cols=(1,), notes=(), at=at)


def team_main(links: Links, book: TeamBook, t: TeamCard, gi: int, at: datetime, ranked: bool) -> str:
    """A team's own page: its roster in registered order (board order, reserves last; captain and
    leader by name), its place and scores, and its matches round by round seen from its side."""
    roster_header = ["顺序", "序号", "姓名", "备注", "上场局数", "局分"]
    roster = [
        [
            m.order,
            m.no or "",
            m.name,
            "、".join(
                x for x in ("替补" if m.reserve else "", "队长" if m.name == t.captain else "", m.note) if x
            ),
            m.games,
            m.points,
        ]
        for m in t.roster
    ]
    board_header = ["台次", "执色", "本队", "对方", "结果", "局分"]
    rounds = []
    for r in t.rounds:
        rows: list[list[object]] = []
        for b in r.boards:
            rows.append([b.board, b.colour, b.player.label, b.opponent.label, b.result, b.points])
            for x in b.ties:
                ours_red = b.player.no is not None and x.red.no == b.player.no
                ours, theirs = (x.red, x.black) if ours_red else (x.black, x.red)
                kind = f"加赛{x.number} {x.kind}"
                rows.append([kind, "红" if ours_red else "黑", ours.label, theirs.label, x.result, ""])
        rounds.append((r, rows))
    return render(
        "team.html",
        links=links,
        book=book,
        t=t,
        gi=gi,
        at=at,
        ranked=ranked,
        roster_header=roster_header,
        roster=roster,
        board_header=board_header,
        rounds=rounds,
    )


def match_main(links: Links, d: TeamRoundDoc, m: MatchSheet, gi: int, number: int, at: datetime) -> str:
    """One match's own page: both line-ups board by board (who has Red), each board's result and its
    tie-break games, the match score; the round's other matches linked."""
    part = _team_match_part(m)
    others = [_team_match_part(x) for x in d.matches if x.number != m.number]
    header = ["台次", "主队", "客队", "结果", "局分"]
    return render(
        "match.html",
        links=links,
        d=d,
        m=m,
        part=part,
        others=others,
        gi=gi,
        number=number,
        header=header,
        at=at,
    )
