"""Which hall pages exist and what they say, built from the services and cached per version of the file.

The *version* is the file's change stamp (:func:`app.services.hall.change_stamp`: every change is
audit-logged). A :class:`Snapshot` belongs to one version; its read models and rendered pages are
made on first use and kept until the file changes. :meth:`HallSite.refresh` notices a change, builds
the next snapshot and renders its busiest pages (the index, each group's current round and standings)
*before* it replaces the current one, so phones never wait for a page to be computed after a result
is entered; they are told of the new version only once it is ready.

Everything here runs in one worker thread of the server (the services open their own sessions); the
event loop only looks up pages already rendered.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.engine.privacy import mask_personal
from app.engine.types import UserError
from app.reports import html as pages
from app.reports.html import HALL
from app.reports.model import PairingList, PrizeList
from app.reports.team_model import TeamBook, TeamRoundDoc
from app.services import exports, hall, public_pages, team_events, team_exports
from app.services.exports.prizes import prize_label
from app.services.knockout import bracket_of
from app.services.rounds import RoundSummary, rounds_of
from app.services.tournaments import tournament_info

Key = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Rendered:
    """A page ready to send: the whole page and its ``<main>`` part, each also gzip-compressed (on
    first use, or at once by :meth:`compress`: the hall server compresses in its worker thread, a
    page read in-process — the tests, the crawl — never needs the compressed bytes)."""

    status: int
    full: bytes
    part: bytes
    cacheable: bool = True
    #: what the page says, as a digest (its ETag): the same for two versions of the file whose page
    #: differs only in what :meth:`of` was told to leave out (the time stamp, the version)
    full_tag: str = ""
    part_tag: str = ""
    _zipped: list[bytes] = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def of(
        cls, status: int, full: str, part: str, *, cacheable: bool = True, ignore: tuple[str, ...] = ()
    ) -> Rendered:
        return cls(
            status,
            full.encode("utf-8"),
            part.encode("utf-8"),
            cacheable,
            _digest(full, ignore),
            _digest(part, ignore),
        )

    def compress(self) -> Rendered:
        """Compute the compressed bytes now (once; two threads at once compute the same bytes)."""
        if not self._zipped:
            self._zipped[:] = [gzip.compress(self.full, 6, mtime=0), gzip.compress(self.part, 6, mtime=0)]
        return self

    @property
    def full_gz(self) -> bytes:
        return self.compress()._zipped[0]

    @property
    def part_gz(self) -> bytes:
        return self.compress()._zipped[1]


def _digest(text: str, ignore: tuple[str, ...]) -> str:
    for marker in ignore:
        text = text.replace(marker, "")
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


@dataclass(frozen=True, slots=True)
class GroupState:
    index: int
    name: str
    teams: bool
    players: int
    rounds: tuple[RoundSummary, ...]
    bracket: bool
    order: bool = False  # a round robin is drawn: its 对局秩序表 is a page
    team_event: bool = False  # a team competition (团体赛): its rounds are matches of teams

    @property
    def current(self) -> RoundSummary | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def complete(self) -> int | None:
        """The last round with every result in (standings are shown after it)."""
        done = [r.number for r in self.rounds if r.pending == 0 and r.boards > 0]
        return max(done) if done else None

    @property
    def numbers(self) -> list[int]:
        return [r.number for r in self.rounds]


def _per_version(snap: Snapshot) -> tuple[str, ...]:
    """What every page of a version says of the version itself rather than of the event: its number
    (``data-v``, for the refresh script) and its time stamp (``更新于 …``). A page's ETag leaves them
    out, so a page that says the same under a new version is answered 304."""
    return (f"更新于 {snap.built_at:%H:%M:%S}", f'data-v="{snap.version}"')


class NotFound(Exception):
    """A page that does not exist (an unknown group, round or board): HTTP 404."""


@dataclass
class Snapshot:
    """The pages of one version of the file."""

    version: int
    event: str
    groups: tuple[GroupState, ...]
    prizes_final: bool
    built_at: datetime
    loader: Callable[[Snapshot, Key], object]
    starts: dict[int, str] = field(default_factory=dict)  # round → announced start ("7月26日 09:00")
    models: dict[Key, object] = field(default_factory=dict)
    pages: dict[Key, Rendered] = field(default_factory=dict)

    def group(self, index: int) -> GroupState:
        if 1 <= index <= len(self.groups):
            return self.groups[index - 1]
        raise NotFound(f"没有第 {index} 个组别")

    def model(self, key: Key) -> Any:
        if key not in self.models:
            self.models[key] = self.loader(self, key)
        return self.models[key]


#: Pages rendered before a new version is announced: the index, each group's current round and each of
#: its boards (the table cards' QR codes open them), and the standings.
def hot_keys(snapshot: Snapshot) -> list[Key]:
    keys: list[Key] = [("index",)]
    for g in snapshot.groups:
        if g.current is not None and g.team_event:
            number = g.current.number
            keys.append(("round", g.index, number))
            doc: TeamRoundDoc = snapshot.model(("round", g.index, number))
            keys += [("match", g.index, number, m.number) for m in doc.matches]
        elif g.current is not None:
            number = g.current.number
            keys.append(("round", g.index, number))
            model: PairingList = snapshot.model(("round", g.index, number))
            keys += [("board", g.index, number, b) for b in sorted({r.board for r in model.rows})]
        if g.complete is not None:
            keys.append(("standings", g.index))
    return keys


class HallSite:
    """The hall's pages of one open tournament (``db`` is the services' ``Database``)."""

    def __init__(
        self, db: Any, clock: Callable[[], datetime] = datetime.now, *, compress: bool = False
    ) -> None:
        self.db = db
        self.clock = clock
        #: compress every page as it is rendered (the server: in its worker, never on the event loop)
        self.compress = compress
        self.current: Snapshot | None = None

    # ------------------------------------------------------------------ versions

    def refresh(self) -> bool:
        """Build and warm the next snapshot if the file changed; True when the version changed."""
        stamp = hall.change_stamp(
            self.db
        )  # read before the data: a change during the build is seen next time
        if self.current is not None and self.current.version == stamp:
            return False
        with self.db.one_reading():  # each group's state read once for the whole build
            snapshot = self._snapshot(stamp)
            for key in hot_keys(snapshot):
                self._render_into(snapshot, key)
        self.current = snapshot
        return True

    def snapshot(self) -> Snapshot:
        if self.current is None:
            self.refresh()
        assert self.current is not None
        return self.current

    def _snapshot(self, stamp: int) -> Snapshot:
        info = tournament_info(self.db)
        groups = tuple(
            GroupState(
                i,
                g.name,
                g.teams,
                g.players,
                tuple(rounds_of(self.db, g.name)),
                bracket_of(self.db, g.name) is not None,
                exports.has_order_of_play(self.db, g.name),
                team_events.is_team_group(self.db, g.name),
            )
            for i, g in enumerate(info.groups, start=1)
        )
        # what exports.prizes_final says, keeping the prize list it reads for the 获奖名单 page (read once)
        prizes: PrizeList | None = None
        try:
            if prize_label(self.db) == "":
                prizes = exports.prize_list_model(self.db)
            prizes_final = prizes is not None and bool(prizes.lines)
        except UserError:
            prizes_final = False
        starts = {t.round: t.label for t in info.regulations.schedule}
        snapshot = Snapshot(
            stamp, mask_personal(info.name), groups, prizes_final, self.clock(), self._load, starts
        )
        if prizes_final:
            snapshot.models[("prizes",)] = prizes
        return snapshot

    # ------------------------------------------------------------------ read models (through the services)

    def _load(self, snap: Snapshot, key: Key) -> object:
        kind = key[0]
        if kind == "prizes":
            return exports.prize_list_model(self.db)
        if kind == "schedule":
            return public_pages.schedule(self.db)
        g = snap.group(key[1])
        if g.team_event:
            return self._load_team(snap, g, key)
        if kind == "round":
            return exports.round_results(self.db, g.name, key[2])
        # what the printed lists say unless a round is named: after the last complete round, and once
        # the group is over its final ranking (knockout places first)
        if kind == "standings":
            return exports.standings(self.db, g.name)
        if kind == "crosstable":  # a round robin's is the square table
            return exports.crosstable_of(self.db, g.name)
        if kind == "order":
            return exports.order_of_play(self.db, g.name)
        if kind == "teams":
            return exports.team_standings_model(self.db, g.name)
        if kind == "bracket":
            return exports.bracket(self.db, g.name)
        if kind == "entries":
            return exports.entry_list(self.db, g.name)
        if kind == "players":
            return public_pages.player_book(self.db, g.name)
        if kind == "records":
            return public_pages.stored_records(self.db, g.name)
        if kind == "record":
            try:
                return public_pages.game_view(self.db, g.name, key[2], key[3], key[4])
            except UserError as missing:
                raise NotFound(missing.zh) from None
        raise NotFound(str(key))

    def _load_team(self, snap: Snapshot, g: GroupState, key: Key) -> object:
        """A team competition's pages: a round's matches, the team standings, the team crosstable."""
        kind = key[0]
        if kind == "round":
            return team_exports.team_round_doc(self.db, g.name, key[2])
        if kind == "standings":
            return team_exports.team_event_standings(self.db, g.name)
        if kind == "crosstable":
            return team_exports.team_crosstable(self.db, g.name)
        if kind == "entries":
            return exports.entry_list(self.db, g.name)
        if kind == "teambook":  # every team's own page, from the round documents already read
            rounds = tuple(snap.model(("round", g.index, n)) for n in g.numbers)
            standings = snap.model(("standings", g.index)) if g.complete is not None else None
            return team_exports.team_book(self.db, g.name, rounds, standings)
        raise NotFound(f"{g.name}是团体赛，没有这一页")

    # ------------------------------------------------------------------ pages

    def page(self, key: Key, query: str = "") -> Rendered:
        """The page ``key`` of the current version (rendered now if it is not yet)."""
        snap = self.snapshot()
        if not query:
            cached = snap.pages.get(key)
            if cached is not None:
                return cached
        with self.db.one_reading():
            return self._render_into(snap, key, query)

    def _render_into(self, snap: Snapshot, key: Key, query: str = "") -> Rendered:
        try:
            title, main, nav = self._main(snap, key, query)
            rendered = Rendered.of(
                200,
                pages.frame(HALL, snap.event, title, main, snap.version, nav),
                main,
                ignore=_per_version(snap),
            )
        except NotFound as missing:
            text = str(missing) or "没有这一页"
            main = pages.message_main("没有这一页", text, [pages.NavLink(HALL.home(), "返回首页")])
            rendered = Rendered.of(
                404, pages.frame(HALL, snap.event, "没有这一页", main, snap.version), main, cacheable=False
            )
            return rendered.compress() if self.compress else rendered
        if self.compress:
            rendered.compress()
        if not query:
            snap.pages[key] = rendered
        return rendered

    def _nav(self, snap: Snapshot, g: GroupState, here: str) -> list[pages.NavLink]:
        kinds = []
        if g.team_event:
            kinds = (["standings", "crosstable"] if g.complete is not None else []) + (
                ["entries"] if g.players else []
            )
            return pages.group_nav(HALL, g.index, g.name, kinds, here)
        if g.complete is not None:
            kinds += ["standings", "crosstable"] + (["teams"] if g.teams else [])
        if g.order:
            kinds.append("order")
        if g.bracket:
            kinds.append("bracket")
        if g.players:
            kinds.append("entries")
        return pages.group_nav(HALL, g.index, g.name, kinds, here)

    def _main(self, snap: Snapshot, key: Key, query: str) -> tuple[str, str, list[pages.NavLink]]:
        kind = key[0]
        at = snap.built_at
        if kind == "index":
            links = []
            for g in snap.groups:
                current: PairingList | None = (
                    snap.model(("round", g.index, g.current.number))
                    if g.current and not g.team_event
                    else None
                )
                links.append(
                    pages.GroupLinks(
                        g.index,
                        g.name,
                        g.current.number if g.current else None,
                        g.current.pending if g.current else 0,
                        g.current.boards if g.current else 0,
                        g.complete,
                        g.teams,
                        g.bracket,
                        g.players > 0,
                        standings=pages.basis(snap.model(("standings", g.index)))
                        if g.complete is not None and not g.team_event
                        else "",
                        seats=pages.seats(current) if current is not None else {},
                        order=g.order,
                        swiss_due=g.current.swiss_due if g.current else False,
                        team_event=g.team_event,
                    )
                )
            return "首页", pages.index_main(HALL, snap.event, links, snap.prizes_final, at), []
        if kind == "find":
            return "查台次", pages.find_main(HALL, query, self._find(snap, query), at), []
        if kind == "schedule":
            return "赛程", pages.schedule_main(HALL, snap.model(("schedule",)), at), []
        if kind == "prizes":
            if not snap.prizes_final:
                raise NotFound("比赛结束后公布获奖名单")
            names = [g.name for g in snap.groups]
            return "获奖名单", pages.prizes_main(HALL, snap.model(key), at, names), []
        g = snap.group(key[1])
        if g.team_event:
            return self._team_main(snap, g, key)
        if kind in ("round", "names"):
            number = key[2] if len(key) > 2 else (g.current.number if g.current else None)
            if number is None or number not in g.numbers:
                raise NotFound(f"{g.name}第 {number} 轮尚未编排" if number else f"{g.name}尚未编排")
            model: PairingList = snap.model(("round", g.index, number))
            if kind == "names":
                main = pages.names_main(HALL, model, g.index, number, g.numbers, at)
                return f"{g.name} 第{number}轮 按姓名", main, self._nav(snap, g, "round")
            starts = snap.starts.get(number, "")
            due = any(r.number == number and r.swiss_due for r in g.rounds)
            main = pages.round_main(HALL, model, g.index, number, g.numbers, query, at, starts, due)
            return f"{g.name} 第{number}轮", main, self._nav(snap, g, "round")
        if kind in ("board", "record"):
            number, board = key[2], key[3]
            if number not in g.numbers:
                raise NotFound(f"{g.name}第 {number} 轮尚未编排")
            model = snap.model(("round", g.index, number))
            rows = [r for r in model.rows if r.board == board]
            if not rows:
                raise NotFound(f"{g.name}第 {number} 轮没有第 {board} 台")
            records = snap.model(("records", g.index))
            if kind == "record":
                if (number, board, key[4]) not in records:
                    raise NotFound(f"第 {board} 台没有这一局的棋谱")
                ply = int(query) if query.isdigit() else 10**6
                main = pages.record_main(HALL, snap.model(key), g.index, number, ply, at)
                return f"第{board}台 棋谱", main, self._nav(snap, g, "round")
            # a knockout board lists each game; the last one is the game being played
            kept = [n for (r, b, n) in records if r == number and b == board]
            main = pages.board_main(HALL, model, rows[-1], g.index, number, at, kept)
            return f"第{board}台", main, self._nav(snap, g, "round")
        if kind == "player":
            book = snap.model(("players", g.index))
            card = book.card(key[2])
            if card is None:
                raise NotFound(f"{g.name}没有 {key[2]} 号棋手")
            return (
                f"{card.no}号 {card.name}",
                pages.player_main(HALL, book, card, g.index, at),
                self._nav(snap, g, ""),
            )
        if kind in ("standings", "crosstable", "teams") and g.complete is None:
            raise NotFound(f"{g.name}还没有完整结束的轮次")
        if kind == "standings":
            return (
                f"{g.name} 名次",
                pages.standings_main(HALL, snap.model(key), g.index, at),
                self._nav(snap, g, kind),
            )
        if kind == "crosstable":
            return (
                f"{g.name} 个人成绩总表",
                pages.crosstable_main(HALL, snap.model(key), g.index, at),
                self._nav(snap, g, kind),
            )
        if kind == "order":
            if not g.order:
                raise NotFound(f"{g.name}没有循环赛对局秩序表")
            return (
                f"{g.name} 对局秩序表",
                pages.order_main(HALL, snap.model(key), g.index, at, g.numbers),
                self._nav(snap, g, kind),
            )
        if kind == "teams":
            if not g.teams:
                raise NotFound(f"{g.name}不设团体")
            return (
                f"{g.name} 团体名次",
                pages.teams_main(HALL, snap.model(key), g.index, at),
                self._nav(snap, g, kind),
            )
        if kind == "bracket":
            if not g.bracket:
                raise NotFound(f"{g.name}尚无淘汰赛对阵")
            return (
                f"{g.name} 淘汰赛",
                pages.bracket_main(HALL, snap.model(key), g.index, at),
                self._nav(snap, g, kind),
            )
        if kind in ("entries", "entries-names"):
            if not g.players:
                raise NotFound(f"{g.name}还没有报名的棋手")
            main = pages.entries_main(
                HALL, snap.model(("entries", g.index)), g.index, at, kind == "entries-names"
            )
            return f"{g.name} 参赛名单", main, self._nav(snap, g, "entries")
        raise NotFound("没有这一页")

    def _team_main(self, snap: Snapshot, g: GroupState, key: Key) -> tuple[str, str, list[pages.NavLink]]:
        """A team competition's round, standings, crosstable and entry list."""
        kind, at = key[0], snap.built_at
        if kind == "round":
            number = key[2] if len(key) > 2 else (g.current.number if g.current else None)
            if number is None or number not in g.numbers:
                raise NotFound(f"{g.name}第 {number} 轮尚未编排" if number else f"{g.name}尚未编排")
            doc = snap.model(("round", g.index, number))
            main = pages.team_round_main(HALL, doc, g.index, number, g.numbers, at)
            return f"{g.name} 第{number}轮", main, self._nav(snap, g, "round")
        if kind == "match":
            number, match = key[2], key[3]
            if number not in g.numbers:
                raise NotFound(f"{g.name}第 {number} 轮尚未编排")
            doc = snap.model(("round", g.index, number))
            sheet = next((m for m in doc.matches if m.number == match), None)
            if sheet is None:
                raise NotFound(f"{g.name}第 {number} 轮没有第 {match} 场")
            main = pages.match_main(HALL, doc, sheet, g.index, number, at)
            return f"第{number}轮 第{match}场", main, self._nav(snap, g, "round")
        if kind == "team":
            book: TeamBook = snap.model(("teambook", g.index))
            card = book.card(key[2])
            if card is None:
                raise NotFound(f"{g.name}没有 {key[2]} 号队")
            main = pages.team_main(HALL, book, card, g.index, at, g.complete is not None)
            return f"{card.no}号 {card.name}", main, self._nav(snap, g, "")
        if kind in ("standings", "crosstable") and g.complete is None:
            raise NotFound(f"{g.name}还没有完整结束的轮次")
        if kind == "standings":
            main = pages.team_standings_main(HALL, snap.model(key), g.index, at)
            return f"{g.name} 团体名次", main, self._nav(snap, g, kind)
        if kind == "crosstable":
            main = pages.team_crosstable_main(HALL, snap.model(key), g.index, at)
            return f"{g.name} 团体成绩总表", main, self._nav(snap, g, kind)
        if kind in ("entries", "entries-names") and g.players:
            main = pages.entries_main(
                HALL,
                snap.model(("entries", g.index)),
                g.index,
                at,
                kind == "entries-names",
                player_pages=False,
                teams={t.name: t.no for t in snap.model(("teambook", g.index)).teams},
            )
            return f"{g.name} 参赛名单", main, self._nav(snap, g, "entries")
        raise NotFound(f"{g.name}是团体赛，没有这一页")

    def _find(self, snap: Snapshot, query: str) -> list[pages.Found]:
        q = query.strip()[:40]
        if not q:
            return []
        found = []
        for g in snap.groups:
            if g.current is None or g.team_event:
                continue
            number = g.current.number
            model: PairingList = snap.model(("round", g.index, number))
            found += [pages.Found(g.name, g.index, number, r) for r in model.rows if pages.matches(r, q)]
            found += [
                pages.Found(g.name, g.index, number, None, b, model.bye_label)
                for b in model.byes
                if pages.bye_matches(b, q)
            ]
            found += [
                pages.Found(g.name, g.index, number, None, b, model.excused_label)
                for b in model.excused
                if pages.bye_matches(b, q)
            ]
        return found[:50]

    # ------------------------------------------------------------------ every page (for tests and the crawl)

    def all_keys(self) -> list[Key]:
        """Every public page of the current version (boards, players and game records included).
        Every round's read model is loaded here, in one reading of the file (each group read once)."""
        snap = self.snapshot()
        with self.db.one_reading():
            return self._all_keys(snap)

    def _all_keys(self, snap: Snapshot) -> list[Key]:
        keys: list[Key] = [("index",), ("schedule",)]
        if snap.prizes_final:
            keys.append(("prizes",))
        for g in snap.groups:
            if g.team_event:
                keys += [("round", g.index, n) for n in g.numbers]
                for n in g.numbers:
                    doc = snap.model(("round", g.index, n))
                    keys += [("match", g.index, n, m.number) for m in doc.matches]
                keys += [("team", g.index, t.no) for t in snap.model(("teambook", g.index)).teams]
                if g.complete is not None:
                    keys += [("standings", g.index), ("crosstable", g.index)]
                if g.players:
                    keys += [("entries", g.index), ("entries-names", g.index)]
                continue
            records = snap.model(("records", g.index)) if g.numbers else set()
            for n in g.numbers:
                keys += [("round", g.index, n), ("names", g.index, n)]
                model: PairingList = snap.model(("round", g.index, n))
                keys += [("board", g.index, n, b) for b in sorted({r.board for r in model.rows})]
            keys += [("record", g.index, n, b, k) for n, b, k in sorted(records)]
            if g.complete is not None:
                keys += [("standings", g.index), ("crosstable", g.index)]
                if g.teams:
                    keys.append(("teams", g.index))
            if g.order:
                keys.append(("order", g.index))
            if g.bracket:
                keys.append(("bracket", g.index))
            if g.players:
                keys += [("entries", g.index), ("entries-names", g.index)]
                book = snap.model(("players", g.index))
                keys += [("player", g.index, c.no) for c in book.players]
        return keys


def path_of(key: Key) -> str:
    """The URL path of a page key (the inverse of the routes in :mod:`app.web.app`)."""
    kind = key[0]
    if kind == "index":
        return HALL.home()
    if kind == "prizes":
        return HALL.prizes()
    if kind == "schedule":
        return HALL.schedule()
    if kind == "round":
        return HALL.round(key[1], key[2])
    if kind == "names":
        return HALL.names(key[1], key[2])
    if kind == "board":
        return HALL.board(key[1], key[2], key[3])
    if kind == "record":
        return HALL.record(key[1], key[2], key[3], key[4])
    if kind == "player":
        return HALL.player(key[1], key[2])
    if kind == "team":
        return HALL.team(key[1], key[2])
    if kind == "match":
        return HALL.match(key[1], key[2], key[3])
    if kind == "entries-names":
        return HALL.page(key[1], "entries/names")
    return HALL.page(key[1], kind)
