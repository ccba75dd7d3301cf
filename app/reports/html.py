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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

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


class Links:
    """The hall's paths (``/g/1/r/4/b/7``): the scheme the printed QR codes open.

    ``live``: the page is served (search forms that ask the server, the script that refreshes it).
    """

    live = True
    #: the stylesheet and script, with a version that changes when they do (cached for a day)
    css = "/static/hall.css?v=2"
    js = "/static/hall.js?v=2"

    def home(self) -> str:
        return "/"

    def find(self) -> str:
        return "/find"

    def group(self, gi: int) -> str:
        return f"/g/{gi}/"

    def round(self, gi: int, number: int) -> str:
        return f"/g/{gi}/r/{number}/"

    def board(self, gi: int, number: int, board: int) -> str:
        return f"/g/{gi}/r/{number}/b/{board}"

    def page(self, gi: int, kind: str) -> str:
        """A group's page: ``standings``, ``crosstable``, ``teams``, ``bracket``, ``entries``."""
        return f"/g/{gi}/{kind}"

    def prizes(self) -> str:
        return "/prizes"


class StaticLinks(Links):
    """The static folder's file names (``g1-r4.html``); a board is its line on the round's page."""

    live = False
    css = ""
    js = ""

    def home(self) -> str:
        return "index.html"

    def find(self) -> str:
        return ""

    def group(self, gi: int) -> str:
        return f"g{gi}-r{self.current.get(gi, 1)}.html"

    def round(self, gi: int, number: int) -> str:
        return f"g{gi}-r{number}.html"

    def board(self, gi: int, number: int, board: int) -> str:
        return f"g{gi}-r{number}.html#b{board}"

    def page(self, gi: int, kind: str) -> str:
        return f"g{gi}-{kind}.html"

    def prizes(self) -> str:
        return "prizes.html"

    def __init__(self, current: dict[int, int] | None = None) -> None:
        self.current = current or {}


HALL = Links()


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
) -> str:
    """A whole page: the event's name, the navigation, the ``<main>`` part, the footer."""
    return render(
        "frame.html",
        links=links,
        event=event,
        title=title,
        main=Markup(main),
        version=version,
        nav=nav,
        script=refresh and links.live,
        css=Markup(asset("hall.css")) if not links.live else "",
        at=at,
    )


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


_env.globals["search_text"] = search_text


def round_main(
    links: Links,
    p: PairingList,
    group_index: int,
    number: int,
    rounds: Sequence[int],
    query: str,
    at: datetime,
) -> str:
    entered = sum(1 for r in p.rows if r.result_zh)
    q = query.strip()
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
        title="成绩公告" if entered == len(p.rows) and p.rows else "对阵与成绩",
        rows=[r for r in p.rows if matches(r, query)],
        byes=[b for b in p.byes if not q or bye_matches(b, query)],
        excused=[b for b in p.excused if not q or bye_matches(b, query)],
    )


def board_main(
    links: Links, p: PairingList, row: PairingRow, group_index: int, number: int, at: datetime
) -> str:
    return render("board.html", links=links, p=p, row=row, gi=group_index, number=number, at=at)


# --------------------------------------------------------------------------- tables


def standings_main(links: Links, s: Standings, gi: int, at: datetime) -> str:
    rows = [
        [
            r.rank,
            r.name + (f"（{r.note}）" if r.note else ""),
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


def crosstable_main(links: Links, c: Crosstable, gi: int, at: datetime) -> str:
    rows = [[r.no, r.name, r.unit, *r.round_texts(c.rounds), r.score, r.place] for r in c.rows]
    header = ["序号", "姓名", "单位", *(f"第{n}轮" for n in range(1, c.rounds + 1)), "积分", "名次"]
    return render("crosstable.html", links=links, c=c, gi=gi, at=at, header=header, rows=rows)


def teams_main(links: Links, t: TeamStandings, gi: int, at: datetime) -> str:
    rows = [
        [r.rank, r.team, "、".join(f"{n}（{p}）" for n, p in r.members), r.total, r.best, r.note]
        for r in t.rows
    ]
    header = ["名次", "团体", "队员（名次）", "名次和", "最好名次", "备注"]
    return render("teams.html", links=links, t=t, gi=gi, at=at, header=header, rows=rows)


def entries_main(links: Links, x: EntryList, gi: int, at: datetime) -> str:
    rows = [[line.no or "", line.name, line.unit, line.gender, line.team] for line in x.lines]
    header = ["序号", "姓名", "单位", "性别", "团体"]
    return render("entries.html", links=links, x=x, gi=gi, at=at, header=header, rows=rows)


def prizes_main(links: Links, p: PrizeList, at: datetime) -> str:
    items = any(x.item for x in p.lines)  # non-cash prizes: a column only if any
    rows: list[list[object]] = [
        [x.table, f"第{x.place}名", x.name, x.unit, f"{x.amount:,}", *([x.item] if items else [])]
        for x in p.lines
    ]
    rows.append(["合计", "", "", "", f"{sum(x.amount for x in p.lines):,}", *([""] if items else [])])
    header = ["类别", "名次", "姓名", "单位", "奖金（元，税前）", *(["奖品"] if items else [])]
    return render("prizes.html", links=links, p=p, at=at, header=header, rows=rows)


def bracket_main(links: Links, b: Bracket, gi: int, at: datetime) -> str:
    return render("bracket.html", links=links, b=b, gi=gi, at=at)


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
    crosstable: Crosstable | None = None
    teams: TeamStandings | None = None
    bracket: Bracket | None = None


@dataclass(frozen=True, slots=True)
class PublicSite:
    """The public pages to publish: the event's groups and, once final, the prizes."""

    event_name: str
    groups: tuple[SiteGroup, ...] = ()
    prizes: PrizeList | None = None


def _site_pages(
    site: PublicSite, links: StaticLinks, at: datetime
) -> list[tuple[str, str, str, list[NavLink]]]:
    """(file, title, main, nav) of every page of the static folder but the index."""
    out: list[tuple[str, str, str, list[NavLink]]] = []
    for gi, g in enumerate(site.groups, start=1):
        kinds = [
            kind
            for kind, part in (
                ("standings", g.standings),
                ("crosstable", g.crosstable),
                ("teams", g.teams),
                ("bracket", g.bracket),
                ("entries", g.entries),
            )
            if part is not None
        ]
        numbers = [r.header.round or 0 for r in g.rounds]

        def nav(here: str, gi: int = gi, g: SiteGroup = g, kinds: list[str] = kinds) -> list[NavLink]:
            return group_nav(links, gi, g.name, kinds, here, has_round=bool(g.rounds))

        for r in g.rounds:
            n = r.header.round or 0
            main = round_main(links, r, gi, n, numbers, "", at)
            kind = "成绩公告" if r.rows and all(x.result_zh for x in r.rows) else "对阵表"
            out.append((links.round(gi, n), f"{g.name} 第{n}轮 {kind}", main, nav("round")))
        if g.standings is not None:
            out.append(
                (
                    links.page(gi, "standings"),
                    f"{g.name} 名次表",
                    standings_main(links, g.standings, gi, at),
                    nav("standings"),
                )
            )
        if g.crosstable is not None:
            main = crosstable_main(links, g.crosstable, gi, at)
            out.append((links.page(gi, "crosstable"), f"{g.name} 个人成绩总表", main, nav("crosstable")))
        if g.teams is not None:
            out.append(
                (
                    links.page(gi, "teams"),
                    f"{g.name} 团体名次表",
                    teams_main(links, g.teams, gi, at),
                    nav("teams"),
                )
            )
        if g.bracket is not None:
            main = bracket_main(links, g.bracket, gi, at)
            out.append((links.page(gi, "bracket"), f"{g.name} 淘汰赛对阵", main, nav("bracket")))
        if g.entries is not None:
            main = entries_main(links, g.entries, gi, at)
            out.append((links.page(gi, "entries"), f"{g.name} 参赛名单", main, nav("entries")))
    if site.prizes is not None:
        out.append((links.prizes(), "奖励名单", prizes_main(links, site.prizes, at), []))
    return out


def write_site(site: PublicSite, out_dir: str | Path, printed_at: datetime) -> list[Path]:
    """Write index.html and one page per document into ``out_dir``; return the files written."""
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    links = StaticLinks(
        {gi: g.rounds[-1].header.round or 1 for gi, g in enumerate(site.groups, 1) if g.rounds}
    )
    pages = _site_pages(site, links, printed_at)
    written = []
    for name, title, main, nav in pages:
        path = folder / name
        path.write_text(frame(links, site.event_name, title, main, nav=nav, at=printed_at), encoding="utf-8")
        written.append(path)
    groups = []
    for gi, g in enumerate(site.groups, start=1):
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
            )
        )
    main = index_main(links, site.event_name, groups, site.prizes is not None, printed_at)
    index = folder / "index.html"
    index.write_text(frame(links, site.event_name, "首页", main, at=printed_at), encoding="utf-8")
    return [index, *written]
