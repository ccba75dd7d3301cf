"""Team competitions (团体赛) in the file: teams and their registered order, team numbers, pairing a round,
line-ups (排阵), the boards of each match, results by board with the match score read back, tie-break
games, a team that does not appear, standings and board prizes.

A group is a team competition when its format has a ``team_event`` (:mod:`app.engine.team_rules`). Its
rounds are stored as rounds of stage ``team``; each match is a ``team_matches`` row (a team's bye: no away
team); each team's line-up for a round is a ``team_lineups`` row with its boards; when the round's boards
are set (对阵单: :func:`seat_team_round`) every board whose two seats are filled becomes a game (kind
``board``) and a board's tie-break games follow it (game 2, 3 … on the same board). Everything the rules
decide is decided by :mod:`app.engine.team_event` on the state read here (:func:`load_team_state`).

Players of a team competition are numbered by their team: team number × 100 + registered order (101, 102 …
for team 1), so that a number says the team and the board order at a glance.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, selectinload

from app.db.models import GameRow, Group, Player, Round, Team, TeamLineup, TeamLineupBoard, TeamMatch
from app.db.session import Database
from app.engine.knockout import ColourState, KnockoutGame
from app.engine.pairing import NoLegalPairing
from app.engine.regulations import Regulations
from app.engine.team_event import (
    MatchState,
    RoundState,
    TeamEntry,
    TeamEventState,
    board_prize_table,
    hard_rule_breaks,
    knockout_bracket,
    next_round,
    player_colours,
    seat,
    team_ranking,
)
from app.engine.team_formats import TeamRound
from app.engine.team_match import (
    DueTieGame,
    MatchScore,
    RosterPlayer,
    Side,
    TeamBoard,
    board_colours,
    check_lineup,
    colour_limit_breaks,
    default_lineup,
    due_tie_games,
    game_result_of,
    lot_red,
    score_match,
)
from app.engine.team_match import (
    TeamMatch as EngineMatch,
)
from app.engine.team_rules import (
    LineupDeadline,
    MissingLineup,
    TeamEvent,
    TeamSeeding,
    TeamSystem,
    TeamTiebreak,
    lineup_deadline,
)
from app.engine.team_standings import BoardPrizeRow, TeamEventRanking
from app.engine.types import GameResult, PlayerStatus, RoundStage, UserError, ViolationKind
from app.services import audit
from app.services.backups import automatic_backup
from app.services.tournaments import group_row, player_numbers, regulations_of

NUMBER_BASE = 100  # a player's number: team number × 100 + registered order

__all__ = [
    "BoardLine",
    "LineupRecord",
    "MatchView",
    "TeamRoundView",
    "TeamStandingsView",
    "TeamView",
    "draw_team_numbers",
    "enter_board_result",
    "enter_tie_game",
    "hand_in_lineup",
    "is_team_group",
    "lineup_record",
    "load_team_state",
    "pair_team_round",
    "restore_lineup",
    "round_lineup_deadline",
    "seat_team_round",
    "set_playoff",
    "set_roster",
    "set_team_absent",
    "set_team_details",
    "team_event_of",
    "team_round_view",
    "team_standings_view",
    "teams_of",
    "unpair_team_round",
]


# --------------------------------------------------------------------------- reading the group


def team_event_of(reg: Regulations, group: str) -> TeamEvent:
    event = reg.group(group).team_event
    if event is None:
        raise UserError(
            f"{group}不是团体赛（规程中没有 team_event）",
            f"{group} is not a team competition (its format has no team_event)",
        )
    return event


def is_team_group(db: Database, group: str) -> bool:
    with db.session() as s:
        return regulations_of(s).group(group).team_event is not None


# The reads of every team action, built once (the values bound per call; the same SQL as built per call).
_TEAMS = select(Team).where(Team.group_id == bindparam("group_id")).order_by(Team.id)
_ROSTER = select(Player).where(Player.team_id == bindparam("team_id"))
_ROSTERS = select(Player).where(Player.team_id.in_(bindparam("team_ids", expanding=True)))
_TEAM_ROUNDS = (
    select(Round)
    .where(Round.group_id == bindparam("group_id"), Round.stage == RoundStage.TEAM.value)
    .order_by(Round.number)
)
_MATCHES = select(TeamMatch).where(TeamMatch.round_id == bindparam("round_id")).order_by(TeamMatch.number)
_LINEUPS = (
    select(TeamLineup)
    .where(TeamLineup.round_id == bindparam("round_id"))
    .options(selectinload(TeamLineup.boards))  # every match's boards are read: at once, not one by one
)
_GROUP_PLAYERS = select(Player).where(Player.group_id == bindparam("group_id"))
_ROUNDS_LINEUPS = (
    select(TeamLineup)
    .where(TeamLineup.round_id.in_(bindparam("round_ids", expanding=True)))
    .order_by(TeamLineup.id)
    .options(selectinload(TeamLineup.boards))
)
_ROUNDS_MATCHES = (
    select(TeamMatch)
    .where(TeamMatch.round_id.in_(bindparam("round_ids", expanding=True)))
    .order_by(TeamMatch.number, TeamMatch.id)
)


def _teams(s: Session, g: Group) -> list[Team]:
    return list(s.scalars(_TEAMS, {"group_id": g.id}))


def _roster_order(p: Player) -> tuple[bool, int, int]:
    """A team's players in their registered order (the unordered last, by registration)."""
    return (p.team_order is None, p.team_order or 0, p.id)


def _roster(s: Session, team: Team) -> list[Player]:
    players = s.scalars(_ROSTER, {"team_id": team.id}).all()
    return sorted(players, key=_roster_order)


def _team(s: Session, g: Group, name: str) -> Team:
    for t in _teams(s, g):
        if t.name == name or (name.isdigit() and t.no == int(name)):
            return t
    raise UserError(f"{g.name}没有代表队“{name}”", f"{g.name} has no team {name!r}")


def _rounds(s: Session, g: Group) -> list[Round]:
    return list(s.scalars(_TEAM_ROUNDS, {"group_id": g.id}))


def _matches(s: Session, rnd: Round) -> list[TeamMatch]:
    return list(s.scalars(_MATCHES, {"round_id": rnd.id}))


def _lineups(s: Session, rnd: Round) -> dict[int, TeamLineup]:
    return {lu.team_id: lu for lu in s.scalars(_LINEUPS, {"round_id": rnd.id})}


#: a team match's games in the order they are read (by one match, or every match of the group at once)
_GAME_ORDER = (GameRow.board, GameRow.game_no)
_MATCH_GAMES = select(GameRow).where(GameRow.team_match_id == bindparam("match_id")).order_by(*_GAME_ORDER)
_MATCHES_GAMES = (
    select(GameRow)
    .where(GameRow.team_match_id.in_(bindparam("match_ids", expanding=True)))
    .order_by(*_GAME_ORDER, GameRow.id)
)


def _games(s: Session, match: TeamMatch) -> list[GameRow]:
    return list(s.scalars(_MATCH_GAMES, {"match_id": match.id}))


def _seated(match: TeamMatch) -> bool:
    return bool((match.explanation or {}).get("seated"))


@dataclass(frozen=True, slots=True)
class _Ids:
    """The numbers the engine uses and the rows they stand for."""

    player_no: dict[int, int]  # player id → no
    player_id: dict[int, int]  # no → player id
    team_no: dict[int, int]  # team id → team number
    team_id: dict[int, int]  # team number → team id


def _ids_of(teams: Sequence[Team], players: Sequence[Player]) -> _Ids:
    return _ids_from(
        {p.id: p.no for p in players if p.no is not None}, {t.id: t.no for t in teams if t.no is not None}
    )


def _ids_from(player_no: dict[int, int], team_no: dict[int, int]) -> _Ids:
    return _Ids(
        player_no,
        {no: pid for pid, no in player_no.items()},
        team_no,
        {no: tid for tid, no in team_no.items()},
    )


def _numbered_teams(s: Session, g: Group) -> list[Team]:
    return [t for t in _teams(s, g) if t.no is not None]


def _group_players(s: Session, g: Group) -> Sequence[Player]:
    return s.scalars(_GROUP_PLAYERS, {"group_id": g.id}).all()


def _team_ids(s: Session, g: Group, reg: Regulations) -> _Ids:
    """The numbers of :func:`load_team_state` without the rounds (what an action on one match needs);
    refused, as there, for a group that is not a team competition."""
    team_event_of(reg, g.name)
    return _ids_of(_numbered_teams(s, g), _group_players(s, g))


def load_team_state(s: Session, g: Group, reg: Regulations) -> tuple[TeamEventState, _Ids]:
    """The group's team competition as the engine sees it (teams numbered, rounds, matches, boards).

    A fixed number of queries whatever the size: the rosters, line-ups (with their boards), matches and
    games of every round are each read at once and sorted as the one-row-at-a-time reads sort them."""
    event = team_event_of(reg, g.name)
    teams = _numbered_teams(s, g)
    players = _group_players(s, g)
    ids = _ids_of(teams, players)
    rosters = _rosters(s, teams)
    entries = []
    for t in sorted(teams, key=lambda t: t.no or 0):
        roster = tuple(
            RosterPlayer(
                p.no,
                p.team_order or i,
                p.reserve,
                p.status == PlayerStatus.ACTIVE.value,
            )
            for i, p in enumerate(rosters[t.id], start=1)
            if p.no is not None
        )
        assert t.no is not None
        entries.append(TeamEntry(t.no, t.name, roster, t.seed_rank, t.withdrawn_round is not None))
    rounds = []
    team_rounds = _rounds(s, g)
    round_ids = [rnd.id for rnd in team_rounds]
    lineups_of: dict[int, dict[int, TeamLineup]] = {rid: {} for rid in round_ids}
    matches_of: dict[int, list[TeamMatch]] = {rid: [] for rid in round_ids}
    games_of: dict[int, list[GameRow]] = {}
    if round_ids:
        for lu in s.scalars(_ROUNDS_LINEUPS, {"round_ids": round_ids}):
            lineups_of[lu.round_id][lu.team_id] = lu
        for m in s.scalars(_ROUNDS_MATCHES, {"round_ids": round_ids}):
            matches_of[m.round_id].append(m)
        match_ids = [m.id for ms in matches_of.values() for m in ms if m.away_team_id is not None]
        games_of = {mid: [] for mid in match_ids}
        if match_ids:
            for gm in s.scalars(_MATCHES_GAMES, {"match_ids": match_ids}):
                assert gm.team_match_id is not None
                games_of[gm.team_match_id].append(gm)
    for rnd in team_rounds:
        lineups = lineups_of[rnd.id]
        matches = []
        bye = None
        for m in matches_of[rnd.id]:
            if m.away_team_id is None:
                bye = ids.team_no[m.home_team_id]
                continue
            matches.append(
                MatchState(
                    m.number,
                    ids.team_no[m.home_team_id],
                    ids.team_no[m.away_team_id],
                    _engine_match(s, event, m, lineups, ids, games_of[m.id]),
                    m.code,
                )
            )
        rounds.append(RoundState(rnd.number, tuple(matches), bye))
    fouls: dict[int, int] = {}
    from app.db.models import Violation

    for kind, team_id in s.execute(
        select(Violation.kind, Player.team_id)
        .join(Player, Violation.player_id == Player.id)
        .where(Player.group_id == g.id)
    ):
        if ViolationKind(kind).counts_in_tiebreak and team_id in ids.team_no:
            team = ids.team_no[team_id]
            fouls[team] = fouls.get(team, 0) + 1
    playoff = {t.no: t.playoff_place for t in teams if t.no is not None and t.playoff_place is not None}
    return TeamEventState(event, tuple(entries), tuple(rounds), fouls, playoff), ids


def _rosters(s: Session, teams: Sequence[Team]) -> dict[int, list[Player]]:
    """Every team's :func:`_roster`, read at once."""
    members: dict[int, list[Player]] = {t.id: [] for t in teams}
    if members:
        for p in s.scalars(_ROSTERS, {"team_ids": list(members)}):
            assert p.team_id is not None
            members[p.team_id].append(p)
    return {tid: sorted(players, key=_roster_order) for tid, players in members.items()}


def _engine_match(
    s: Session,
    event: TeamEvent,
    m: TeamMatch,
    lineups: Mapping[int, TeamLineup],
    ids: _Ids,
    games: Sequence[GameRow] | None = None,
) -> EngineMatch:
    """The match as the engine sees it (``games``: its games as :func:`_games` reads them, if read)."""
    rules = event.match
    numbers = range(1, rules.boards + 1)
    # each board's fields gathered first, its TeamBoard made once (what replacing it field by field made)
    seats: dict[str, dict[int, int | None]] = {"home": {}, "away": {}}
    seated = _seated(m)
    for team_id, side in ((m.home_team_id, "home"), (m.away_team_id, "away")):
        lu = lineups.get(team_id) if team_id is not None else None
        if lu is None:
            continue
        on = seats[side]
        for lb in lu.boards:
            if 1 <= lb.board <= rules.boards:
                on[lb.board] = ids.player_no.get(lb.player_id) if lb.player_id is not None else None
    choices: dict[str, Any] = dict(m.colour_choices or {})
    home_red: dict[str, Any] = dict(_json(m.explanation).get("home_red") or {})
    first = _first_board(event, m.number)
    tie_reds: dict[int, tuple[tuple[int, int], ...]] = {}
    reds_of: dict[int, bool | None] = {}
    for b in numbers:
        reds = {int(k): ids.player_no[int(v)] for k, v in dict(choices.get(str(b)) or {}).items()}
        colour = home_red.get(str(b))
        tie_reds[b] = tuple(sorted(reds.items()))
        reds_of[b] = None if colour is None else bool(colour)
    results: dict[int, GameResult] = {}
    ties: dict[int, list[KnockoutGame]] = {b: [] for b in numbers}
    for gm in _games(s, m) if games is None else games:
        b = gm.board - first + 1
        if not 1 <= b <= rules.boards:
            continue
        if gm.game_no == 1:
            results[b] = GameResult(gm.result)
        else:
            ties[b].append(
                KnockoutGame(
                    gm.game_no - 1,
                    _kind(gm.kind),
                    ids.player_no[gm.red_id],
                    ids.player_no[gm.black_id],
                    GameResult(gm.result),
                )
            )
    home, away = seats["home"], seats["away"]
    boards = tuple(
        TeamBoard(
            b,
            home.get(b),
            away.get(b),
            results.get(b, GameResult.PENDING),
            tuple(ties[b]),
            tie_reds[b],
            reds_of[b],
        )
        for b in numbers
    )
    return EngineMatch(boards, m.home_absent, m.away_absent, seated)


def _json(value: dict[str, object] | None) -> dict[str, Any]:
    return dict(value or {})


def _kind(value: str) -> Any:
    from app.engine.formats import GameKind

    return GameKind(value)


def _first_board(event: TeamEvent, number: int) -> int:
    """The hall's table number of board 1 of match ``number`` (boards are numbered through the round)."""
    return (number - 1) * event.match.boards + 1


def team_round_numbers(db: Database, group: str) -> list[int]:
    """The team rounds paired so far."""
    with db.session() as s:
        return [r.number for r in _rounds(s, group_row(s, group))]


def _state(db: Database, group: str) -> tuple[TeamEventState, _Ids]:
    with db.session() as s:
        reg = regulations_of(s)
        return load_team_state(s, group_row(s, group), reg)


# --------------------------------------------------------------------------- teams


@dataclass(frozen=True, slots=True)
class RosterLine:
    """A registered player of a team: id, number (after the draw), name, registered order, reserve, status."""

    id: int
    no: int | None
    name: str
    order: int
    reserve: bool
    status: PlayerStatus
    rating: int | None = None


@dataclass(frozen=True, slots=True)
class TeamView:
    """A team as the window and the documents show it."""

    id: int
    no: int | None
    name: str
    leader: str
    captain: str
    seed_rank: int | None
    roster: tuple[RosterLine, ...]
    withdrawn_round: int | None = None

    @property
    def label(self) -> str:
        """``3号 天水一队`` (or the name alone before the numbers are drawn)."""
        return f"{self.no}号 {self.name}" if self.no is not None else self.name


def teams_of(db: Database, group: str) -> list[TeamView]:
    """The group's teams, numbered ones in team-number order, with their registered players in order."""
    with db.session() as s:
        g = group_row(s, group)
        out = []
        for t in _teams(s, g):
            roster = tuple(
                RosterLine(p.id, p.no, p.name, p.team_order or i, p.reserve, PlayerStatus(p.status), p.rating)
                for i, p in enumerate(_roster(s, t), start=1)
            )
            out.append(
                TeamView(t.id, t.no, t.name, t.leader, t.captain, t.seed_rank, roster, t.withdrawn_round)
            )
    return sorted(out, key=lambda t: (t.no is None, t.no or 0, t.id))


def _check_not_started(s: Session, g: Group, what_zh: str, what_en: str) -> None:
    if _rounds(s, g):
        raise UserError(f"{g.name}第 1 轮已编排，{what_zh}", f"round 1 of {g.name} is paired: {what_en}")


def set_team_details(
    db: Database,
    group: str,
    team: str,
    *,
    captain: str | None = None,
    leader: str | None = None,
    seed_rank: int | None = None,
    who: str = audit.DEFAULT_ARBITER,
) -> None:
    """A team's captain (队长), leader (领队) and the earlier season's rank (上届名次, for the seeding)."""
    from app.engine.text import LEADER_MAX, clean_text

    with db.session() as s:
        g = group_row(s, group)
        t = _team(s, g, team)
        before = {"captain": t.captain, "leader": t.leader, "seed_rank": t.seed_rank}
        if captain is not None:
            t.captain = clean_text(captain, "队长", "the captain", LEADER_MAX)
        if leader is not None:
            t.leader = clean_text(leader, "领队", "the leader", LEADER_MAX)
        if seed_rank is not None:
            if not 1 <= seed_rank <= 999:
                raise UserError(
                    f"上届名次应在 1–999 之间，不能是 {seed_rank}", "last season's rank must be 1-999"
                )
            _check_not_started(s, g, "上届名次不能再改变", "the seeding is fixed")
            t.seed_rank = seed_rank
        after = {"captain": t.captain, "leader": t.leader, "seed_rank": t.seed_rank}
        audit.record(s, "set_team_details", entity=f"{g.name}/{t.name}", before=before, after=after, who=who)


def set_roster(
    db: Database,
    group: str,
    team: str,
    order: Sequence[str],
    reserves: Sequence[str] = (),
    *,
    who: str = audit.DEFAULT_ARBITER,
) -> None:
    """A team's registered order (报名顺序): its players' names (or registration ids) in order, the
    reserves (替补) last. Every member of the team is named once; refused once round 1 is paired."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        event = team_event_of(reg, g.name)
        t = _team(s, g, team)
        _check_not_started(s, g, "报名顺序不能再改变", "the registered order is fixed")
        members = _roster(s, t)
        named = [*order, *reserves]
        chosen: list[Player] = []
        for name in named:
            hits = [p for p in members if p.name == name or str(p.id) == name]
            if not hits:
                others = s.scalars(select(Player).where(Player.group_id == g.id, Player.name == name)).all()
                if others and all(p.team_id != t.id for p in others):
                    other = others[0].team.name if others[0].team else "无队"
                    raise UserError(
                        f"{name}已为{other}报名，一名棋手不能为两个队报名",
                        f"{name} is registered for {other}: nobody plays for two teams",
                    )
                raise UserError(f"{t.name}没有队员“{name}”", f"{t.name} has no member {name!r}")
            if len(hits) > 1:
                raise UserError(
                    f"{t.name}有两名队员叫“{name}”，请用报名编号区分",
                    f"{t.name} has two members called {name!r}",
                )
            if hits[0] in chosen:
                raise UserError(f"“{name}”出现了两次", f"{name!r} is named twice")
            chosen.append(hits[0])
        missing = [p.name for p in members if p not in chosen]
        if missing:
            raise UserError(
                f"{t.name}的报名顺序须列出全部队员，缺少：{'、'.join(missing)}",
                f"{t.name}: the registered order must name every member; missing {', '.join(missing)}",
            )
        if not event.roster_min <= len(chosen) <= event.roster_max:
            raise UserError(
                f"{t.name}报名 {len(chosen)} 人，规程要求 {event.roster_min}–{event.roster_max} 人",
                f"{t.name} registers {len(chosen)}; the regulation wants {event.roster_min}-{event.roster_max}",
            )
        before = [(p.name, p.team_order, p.reserve) for p in members]
        for i, p in enumerate(chosen, start=1):
            p.team_order = i
            p.reserve = i > len(order)
        audit.record(
            s,
            "set_team_roster",
            entity=f"{g.name}/{t.name}",
            before=before,
            after=[(p.name, p.team_order, p.reserve) for p in chosen],
            who=who,
        )


def draw_team_numbers(
    db: Database, group: str, *, seed: int | None = None, who: str = audit.DEFAULT_ARBITER
) -> dict[str, int]:
    """Give the teams their numbers (队号 1 … n) by the regulation's seeding — by lot (recorded seed), by the
    earlier season's rank (teams without one after, by lot), or in registration order — and every player
    the number team × 100 + registered order. Each team's size is checked against the regulation. Refused
    once round 1 is paired. Returns team name → number."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        event = team_event_of(reg, g.name)
        _check_not_started(s, g, "队号不能再改变", "the team numbers are fixed")
        teams = [t for t in _teams(s, g) if t.withdrawn_round is None]
        if len(teams) < 2:
            raise UserError(f"{g.name}至少需要两个队", f"{g.name} needs at least two teams")
        if event.system is TeamSystem.ALL_PLAY_ALL and len(teams) != 2:
            raise UserError(
                f"全队轮赛制只能在两队之间进行（{g.name}有 {len(teams)} 队）",
                f"all-play-all is between two sides ({g.name} has {len(teams)})",
            )
        for t in teams:
            size = len([p for p in _roster(s, t) if p.status == PlayerStatus.ACTIVE.value])
            if not event.roster_min <= size <= event.roster_max:
                raise UserError(
                    f"{t.name}有 {size} 名队员，规程要求每队 {event.roster_min}–{event.roster_max} 人",
                    f"{t.name} has {size} players; the regulation wants {event.roster_min}-{event.roster_max}",
                )
            if event.system is TeamSystem.ALL_PLAY_ALL and size < event.match.boards:
                raise UserError(
                    f"全队轮赛制每队须有 {event.match.boards} 名队员，{t.name}只有 {size} 名",
                    f"all-play-all needs {event.match.boards} players a side; {t.name} has {size}",
                )
        used = random.SystemRandom().randint(1, 999_999) if seed is None else seed
        lot = list(teams)
        random.Random(f"teams:{used}").shuffle(lot)
        if event.seeding is TeamSeeding.LAST_SEASON:
            order = sorted(lot, key=lambda t: (t.seed_rank is None, t.seed_rank or 0))
        elif event.seeding is TeamSeeding.REGISTERED:
            order = sorted(teams, key=lambda t: t.id)
        else:
            order = lot
        everyone = s.scalars(select(Player).where(Player.group_id == g.id)).all()
        for p in everyone:
            p.no = None
        for t in _teams(s, g):
            t.no = None
        s.flush()
        numbers = {}
        for no, t in enumerate(order, start=1):
            t.no = no
            numbers[t.name] = no
            for i, p in enumerate(_roster(s, t), start=1):
                p.team_order = p.team_order or i
                if p.status == PlayerStatus.ACTIVE.value:
                    p.no = no * NUMBER_BASE + p.team_order
        g.numbers_method, g.numbers_seed = "lot", used
        audit.record(
            s,
            "draw_team_numbers",
            entity=g.name,
            after={"seeding": event.seeding.value, "seed": used, "numbers": numbers},
            who=who,
        )
    return numbers


# --------------------------------------------------------------------------- pairing a round


@dataclass(frozen=True, slots=True)
class TeamRoundOutcome:
    group: str
    number: int
    matches: tuple[tuple[str, str], ...]  # (home, away) team names
    bye: str | None
    seed: int
    warning: str = ""


def pair_team_round(
    db: Database, group: str, *, seed: int | None = None, who: str = audit.DEFAULT_ARBITER
) -> TeamRoundOutcome:
    """Pair the group's next team round (:func:`app.engine.team_event.next_round`): the matches, home
    first, and the bye; refused while a match of the round before is undecided, before the team numbers
    are drawn, and after the last round."""
    used = random.SystemRandom().randint(1, 999_999) if seed is None else seed
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        team_event_of(reg, g.name)
        if any(t.no is None and t.withdrawn_round is None for t in _teams(s, g)):
            raise UserError(f"{g.name}还没有抽队号，请先抽签", f"{g.name}: draw the team numbers first")
        state, ids = load_team_state(s, g, reg)
        if len(state.teams) < 2:
            raise UserError(f"{g.name}至少需要两个队", f"{g.name} needs at least two teams")
        try:
            pairing: TeamRound = next_round(state, used)
        except NoLegalPairing as exc:
            raise UserError(exc.zh + "；请裁判长手工编排", exc.en + "; pair by hand") from None
        number = len(state.rounds) + 1
        if s.scalars(select(Round).where(Round.group_id == g.id, Round.number == number)).one_or_none():
            raise UserError(f"{g.name}第 {number} 轮已存在", f"{g.name} round {number} exists already")
        rnd = Round(
            group_id=g.id,
            number=number,
            stage=RoundStage.TEAM.value,
            seed=used,
            paired_at=datetime.now().replace(microsecond=0),
        )
        s.add(rnd)
        s.flush()
        names = {t.no: t.name for t in state.teams}
        for i, p in enumerate(pairing.matches, start=1):
            s.add(
                TeamMatch(
                    round_id=rnd.id,
                    number=i,
                    home_team_id=ids.team_id[p.home],
                    away_team_id=ids.team_id[p.away],
                    code=p.code,
                    explanation={"zh": p.zh, "en": p.en},
                )
            )
        if pairing.bye is not None:
            s.add(
                TeamMatch(
                    round_id=rnd.id,
                    number=len(pairing.matches) + 1,
                    home_team_id=ids.team_id[pairing.bye],
                    away_team_id=None,
                    explanation={"zh": pairing.bye_zh, "en": pairing.bye_en},
                )
            )
        outcome = TeamRoundOutcome(
            g.name,
            number,
            tuple((names[p.home], names[p.away]) for p in pairing.matches),
            None if pairing.bye is None else names[pairing.bye],
            used,
        )
        audit.record(
            s,
            "pair_team_round",
            entity=f"{g.name} 第{number}轮",
            after={"seed": used, "matches": [f"{h}—{a}" for h, a in outcome.matches], "bye": outcome.bye},
            who=who,
        )
    warning = automatic_backup(db, f"paired-{group}-r{number}")
    return replace(outcome, warning=warning)


def unpair_team_round(db: Database, group: str, number: int, *, who: str = audit.DEFAULT_ARBITER) -> None:
    """Delete the last team round while none of its results is entered (its line-ups go with it)."""
    with db.session() as s:
        g = group_row(s, group)
        rounds = _rounds(s, g)
        rnd = next((r for r in rounds if r.number == number), None)
        if rnd is None:
            raise UserError(f"{g.name}第 {number} 轮尚未编排", f"{g.name} round {number} is not paired")
        if rounds[-1].number != number:
            raise UserError(f"第 {number} 轮之后已有编排，不能撤销", f"rounds after {number} exist")
        entered = [gm for gm in rnd.games if gm.result != GameResult.PENDING.value]
        absent = [m for m in _matches(s, rnd) if m.home_absent or m.away_absent]
        if entered or absent:
            raise UserError(
                f"第 {number} 轮已录入成绩，不能撤销编排",
                f"round {number} has results; it cannot be unpaired",
            )
        s.delete(rnd)
        audit.record(s, "unpair_team_round", entity=f"{g.name} 第{number}轮", who=who)


# --------------------------------------------------------------------------- line-ups


def _round(s: Session, g: Group, number: int) -> Round:
    for rnd in _rounds(s, g):
        if rnd.number == number:
            return rnd
    raise UserError(f"{g.name}第 {number} 轮尚未编排", f"{g.name} round {number} is not paired")


def _match_of_team(s: Session, rnd: Round, team: Team) -> TeamMatch:
    for m in _matches(s, rnd):
        if team.id in (m.home_team_id, m.away_team_id):
            return m
    raise UserError(
        f"{team.name}第 {rnd.number} 轮没有比赛", f"{team.name} has no match in round {rnd.number}"
    )


def _player_nos(s: Session, g: Group, names: Sequence[int | str | None]) -> list[int | None]:
    """Board by board: a number, a name, or nothing (an empty board)."""
    players = s.scalars(select(Player).where(Player.group_id == g.id)).all()
    out: list[int | None] = []
    for item in names:
        if item is None or item == "" or item == "-":
            out.append(None)
        elif isinstance(item, int) or item.isdigit():
            out.append(int(item))
        else:
            hits = [p for p in players if p.name == item and p.no is not None]
            if len(hits) != 1:
                raise UserError(
                    f"{g.name}{'没有' if not hits else '有多名'}名为“{item}”的棋手，请用序号",
                    f"{g.name}: {'no' if not hits else 'more than one'} player called {item!r}; use the number",
                )
            out.append(hits[0].no)
    return out


def hand_in_lineup(
    db: Database,
    group: str,
    number: int,
    team: str,
    players: Sequence[int | str | None],
    *,
    handed_in_by: str = "",
    who: str = audit.DEFAULT_ARBITER,
    now: datetime | None = None,
    override: str = "",
) -> tuple[int | None, ...]:
    """A team's line-up for round ``number`` (排阵), board by board (a number or a name; ``None`` or "-"
    leaves a board empty). Checked against the registered order, the team's players and each player's
    colour limit; replaces an earlier line-up until a result of the match is in. Who handed it in (the
    captain, by default) and when (``now``, the clock by default) are recorded. After the regulation's
    deadline (``match.lineup_deadline`` minutes before the round's start) it is refused, the rule named,
    unless ``override`` gives the arbiter's reason (written to the audit log with the lateness). Returns
    the line-up as numbers."""
    from app.engine.text import LEADER_MAX, REASON_MAX, clean_text

    handed_at = (now or datetime.now()).replace(microsecond=0)
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        event = team_event_of(reg, g.name)
        rnd = _round(s, g, number)
        t = _team(s, g, team)
        deadline = _deadline(reg, event, number)
        late = deadline is not None and deadline.passed(handed_at)
        reason = clean_text(override, "放行理由", "the override reason", REASON_MAX).strip()
        if late and not reason:
            assert deadline is not None
            raise UserError(
                f"{t.name}第 {number} 轮排阵迟交：{deadline.rule_zh}，现已过 "
                f"{deadline.late_by_zh(handed_at)}；该队按规程"
                f"{event.match.missing_lineup.zh}。裁判长如需接收，请注明理由放行",
                f"{t.name} round {number}: the line-up is late ({deadline.rule_en}; "
                f"{deadline.status_en(handed_at)}); the team plays by the regulation's default. "
                "The chief arbiter may accept it with a reason (override)",
            )
        m = _match_of_team(s, rnd, t)
        if m.away_team_id is None:
            raise UserError(
                f"{t.name}第 {number} 轮轮空，不需排阵", f"{t.name} has the bye in round {number}"
            )
        if event.system is TeamSystem.ALL_PLAY_ALL:
            raise UserError(
                "全队轮赛制的台次由报名顺序和轮次表决定，不需每轮排阵",
                "all-play-all seats follow the registered order and the schedule: no line-up per round",
            )
        _refuse_if_played(s, t, number, m)
        state, ids = load_team_state(s, g, reg)
        nos = _player_nos(s, g, players)
        assert t.no is not None
        entry = state.team(t.no)
        team_of = {p.no: other.name for other in state.teams for p in other.roster if other.no != t.no}
        check_lineup(t.name, nos, entry.roster, event.match, team_of)
        home = m.home_team_id == t.id
        breaks = colour_limit_breaks(nos, home, player_colours(state), event.match)
        if breaks:
            board, who_breaks, colour = breaks[0]
            raise UserError(
                f"{t.name}第 {board} 台的 {who_breaks} 号将连续第 {event.match.player_colour_limit + 1} 次"
                f"执{colour.zh}，超过规程限制",
                f"{t.name} board {board}: player {who_breaks} would have {colour.value} more than "
                f"{event.match.player_colour_limit} times running",
            )
        by = clean_text(handed_in_by or t.captain or "", "交表人", "who handed it in", LEADER_MAX)
        before = _take_out_lineup(s, rnd, t, ids)
        lu = TeamLineup(
            round_id=rnd.id,
            team_id=t.id,
            method="captain",
            handed_in_by=by,
            handed_in_at=handed_at,
        )
        for b, no in enumerate(nos, start=1):
            lu.boards.append(TeamLineupBoard(board=b, player_id=None if no is None else ids.player_id[no]))
        s.add(lu)
        s.flush()
        if _seated(m):
            _seat_match(s, g, event, rnd, m, ids, state)
        after: dict[str, Any] = {"boards": nos, "handed_in_by": by, "handed_in_at": handed_at.isoformat(" ")}
        if late and deadline is not None:
            after |= {"late": deadline.status_zh(handed_at), "override": reason}
        audit.record(
            s,
            "hand_in_lineup",
            entity=f"{g.name} 第{number}轮 {t.name}",
            before=before,
            after=after,
            reason=reason if late else "",
            who=who,
        )
        return tuple(nos)


@dataclass(frozen=True, slots=True)
class LineupRecord:
    """A team's line-up for a round as stored: the players board by board (None: an empty board), how it
    was made (``captain``, or ``registered`` / ``lot`` by the rule for a missing line-up, with its seed),
    who handed it in and when. What the window's undo puts back."""

    boards: tuple[int | None, ...]
    method: str
    seed: int | None
    handed_in_by: str
    handed_in_at: datetime


def _take_out_lineup(s: Session, rnd: Round, t: Team, ids: _Ids) -> list[int | None] | None:
    """Remove the team's line-up of the round, if it has one, before another takes its place; returns
    its boards' player numbers (``None`` for an empty board), for the audit log, or None."""
    old = _lineups(s, rnd).get(t.id)
    if old is None:
        return None
    before = [ids.player_no.get(b.player_id) if b.player_id else None for b in old.boards]
    s.delete(old)
    s.flush()
    return before


def _refuse_if_played(s: Session, t: Team, number: int, m: TeamMatch) -> None:
    if any(gm.result != GameResult.PENDING.value for gm in _games(s, m)) or m.home_absent or m.away_absent:
        raise UserError(
            f"{t.name}第 {number} 轮的比赛已有成绩，排阵不能再改",
            "the match has results: the line-up is fixed",
        )


def lineup_record(db: Database, group: str, number: int, team: str) -> LineupRecord | None:
    """Team ``team``'s line-up for round ``number`` as stored, or None when it has none yet."""
    with db.session() as s:
        g = group_row(s, group)
        rnd, t = _round(s, g, number), _team(s, g, team)
        lu = _lineups(s, rnd).get(t.id)
        if lu is None:
            return None
        ids = _team_ids(s, g, regulations_of(s))
        return LineupRecord(
            tuple(ids.player_no.get(b.player_id) if b.player_id else None for b in lu.boards),
            lu.method,
            lu.seed,
            lu.handed_in_by,
            lu.handed_in_at,
        )


def restore_lineup(
    db: Database,
    group: str,
    number: int,
    team: str,
    record: LineupRecord | None,
    *,
    who: str = audit.DEFAULT_ARBITER,
) -> None:
    """Put team ``team``'s line-up for round ``number`` back as ``record`` says (None: no line-up), exactly
    as it was stored — boards, how it was made, who handed it in and when — and seat the match again if
    its boards were set. The undo (and redo) of a line-up handed in: refused, as a hand-in is, once the
    match has a result; no deadline applies (the line-up put back was accepted when it was handed in).
    Written to the audit log (恢复排阵) with the line-up replaced and the one put back."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        event = team_event_of(reg, g.name)
        rnd, t = _round(s, g, number), _team(s, g, team)
        m = _match_of_team(s, rnd, t)
        _refuse_if_played(s, t, number, m)
        ids = _team_ids(s, g, reg)
        before = _take_out_lineup(s, rnd, t, ids)
        after: dict[str, Any] | None = None
        if record is not None:
            lu = TeamLineup(
                round_id=rnd.id,
                team_id=t.id,
                method=record.method,
                seed=record.seed,
                handed_in_by=record.handed_in_by,
                handed_in_at=record.handed_in_at,
            )
            for b, no in enumerate(record.boards, start=1):
                lu.boards.append(
                    TeamLineupBoard(board=b, player_id=None if no is None else ids.player_id[no])
                )
            s.add(lu)
            s.flush()
            after = {
                "boards": list(record.boards),
                "method": record.method,
                "handed_in_by": record.handed_in_by,
                "handed_in_at": record.handed_in_at.isoformat(" "),
            }
        if _seated(m):
            _seat_match(s, g, event, rnd, m, ids)
        audit.record(
            s,
            "restore_lineup",
            entity=f"{g.name} 第{number}轮 {t.name}",
            before=before,
            after=after,
            who=who,
        )


def _deadline(reg: Regulations, event: TeamEvent, number: int) -> LineupDeadline | None:
    slot = reg.round_time(number)
    return lineup_deadline(event.match, number, None if slot is None else slot.starts)


def round_lineup_deadline(db: Database, group: str, number: int) -> LineupDeadline | None:
    """Round ``number``'s line-up deadline (排阵截止), or None: no deadline in the regulation, or the round's
    start not in the schedule."""
    with db.session() as s:
        reg = regulations_of(s)
        return _deadline(reg, team_event_of(reg, group_row(s, group).name), number)


def seat_team_round(
    db: Database, group: str, number: int, *, who: str = audit.DEFAULT_ARBITER, now: datetime | None = None
) -> tuple[str, ...]:
    """Set the round's boards (对阵单): a team without a line-up gets the regulation's (its first available
    players in the registered order, or by lot with the round's seed; recorded as such), and every board
    whose two seats are filled becomes a game, numbered through the round. Returns a line per team whose
    line-up was made by the rule (saying so when the round's line-up deadline has passed)."""
    now = (now or datetime.now()).replace(microsecond=0)
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        event = team_event_of(reg, g.name)
        rnd = _round(s, g, number)
        deadline = _deadline(reg, event, number)
        state, ids = load_team_state(s, g, reg)
        lineups = _lineups(s, rnd)
        notes = []
        for m in _matches(s, rnd):
            if m.away_team_id is None:
                continue
            for team_id in (m.home_team_id, m.away_team_id):
                if team_id in lineups:
                    continue
                team = state.team(ids.team_no[team_id])
                seed = (rnd.seed or 0) + team.no
                method = event.match.missing_lineup
                if event.system is TeamSystem.ALL_PLAY_ALL:
                    method = MissingLineup.REGISTERED
                nos = default_lineup(team.roster, replace(event.match, missing_lineup=method), seed)
                lu = TeamLineup(
                    round_id=rnd.id,
                    team_id=team_id,
                    method=method.value,
                    seed=seed if method is MissingLineup.LOT else None,
                    handed_in_by="",
                    handed_in_at=now,
                )
                for b, no in enumerate(nos, start=1):
                    lu.boards.append(
                        TeamLineupBoard(board=b, player_id=None if no is None else ids.player_id[no])
                    )
                s.add(lu)
                if event.system is not TeamSystem.ALL_PLAY_ALL:
                    shown = "、".join("空" if n is None else str(n) for n in nos)
                    missed = (
                        "未在排阵截止前交排阵"
                        if deadline is not None and deadline.passed(now)
                        else "未交排阵"
                    )
                    notes.append(f"{team.name}{missed}，{method.zh}：{shown}")
            s.flush()
            _seat_match(s, g, event, rnd, m, ids, state)
        audit.record(s, "seat_team_round", entity=f"{g.name} 第{number}轮", after=notes, who=who)
    return tuple(notes)


def _seat_match(
    s: Session,
    g: Group,
    event: TeamEvent,
    rnd: Round,
    m: TeamMatch,
    ids: _Ids,
    state: TeamEventState | None = None,
) -> None:
    """The match's boards from its line-ups: the games of its filled boards (kind ``board``).

    ``state``: the group's state read earlier in the same action (with ``ids``), where only line-ups and
    games changed since: seating reads only its teams and rosters. None: read afresh."""
    if state is None:
        state, ids = load_team_state(s, g, regulations_of(s))
    home, away = ids.team_no[m.home_team_id], ids.team_no[m.away_team_id or 0]
    if event.system is TeamSystem.ALL_PLAY_ALL:  # the sides' registered orders; the schedule turns side B
        lineups = {t: _registered_lineup(state, t) for t in (home, away)}
    else:
        lineups = {
            ids.team_no[team_id]: tuple(
                ids.player_no.get(b.player_id) if b.player_id else None for b in lu.boards
            )
            for team_id, lu in _lineups(s, rnd).items()
        }
    engine = seat(state, rnd.number, home, away, lineups, rnd.seed or 0)
    for gm in _games(s, m):
        s.delete(gm)
    s.flush()
    first = _first_board(event, m.number)
    home_red: dict[str, bool] = {}
    for b in engine.boards:
        if b.home_red is not None:
            home_red[str(b.board)] = b.home_red
        red, black = board_colours(b, event.match)
        if red is None or black is None:
            continue
        s.add(
            GameRow(
                round_id=rnd.id,
                board=first + b.board - 1,
                game_no=1,
                red_id=ids.player_id[red],
                black_id=ids.player_id[black],
                result=GameResult.PENDING.value,
                kind="board",
                team_match_id=m.id,
            )
        )
    m.explanation = {**dict(m.explanation or {}), "seated": True, "home_red": home_red}
    if event.system is TeamSystem.ALL_PLAY_ALL:
        _store_schedule_seats(s, rnd, m, engine, ids)


def _registered_lineup(state: TeamEventState, team: int) -> tuple[int | None, ...]:
    from app.engine.team_rules import MissingLineup as Missing

    rules = replace(state.event.match, missing_lineup=Missing.REGISTERED)
    return default_lineup(state.team(team).roster, rules)


def _store_schedule_seats(s: Session, rnd: Round, m: TeamMatch, engine: EngineMatch, ids: _Ids) -> None:
    """全队轮赛制: side B's line-up for the round is rewritten in the schedule's board order, so that every
    board's two players are read back from the line-ups as they sit."""
    lineups = _lineups(s, rnd)
    away = lineups.get(m.away_team_id or 0)
    if away is None:
        return
    by_board = {b.board: b.away for b in engine.boards}
    for lb in away.boards:
        no = by_board.get(lb.board)
        lb.player_id = None if no is None else ids.player_id[no]


# --------------------------------------------------------------------------- results


def _team_match(s: Session, rnd: Round, number: int) -> TeamMatch:
    for m in _matches(s, rnd):
        if m.number == number and m.away_team_id is not None:
            return m
    raise UserError(f"第 {rnd.number} 轮没有第 {number} 场比赛", f"round {rnd.number} has no match {number}")


def _score_of(
    s: Session, g: Group, rnd: Round, m: TeamMatch, games: Sequence[GameRow] | None = None
) -> MatchScore:
    """The match's score as stored (``games``: its games as :func:`_games` reads them, if read)."""
    reg = regulations_of(s)
    event = team_event_of(reg, g.name)
    ids = _numbers_of(s, g)
    return score_match(_engine_match(s, event, m, _lineups(s, rnd), ids, games), event.match)


_TEAM_NUMBERS = select(Team.id, Team.no).where(Team.group_id == bindparam("group_id")).order_by(Team.id)


def _numbers_of(s: Session, g: Group) -> _Ids:
    """The numbers of :func:`_team_ids`, read as two columns of each table (no rows made of them)."""
    teams = s.execute(_TEAM_NUMBERS, {"group_id": g.id})
    return _ids_from(player_numbers(s, g), {tid: no for tid, no in teams if no is not None})


def enter_board_result(
    db: Database,
    group: str,
    number: int,
    match: int,
    board: int,
    result: GameResult,
    *,
    who: str = audit.DEFAULT_ARBITER,
) -> MatchScore:
    """The result of a board's game (Red's view, as on the score sheet), or PENDING to clear it; refused
    for an empty board (it is forfeited by itself), before the boards are set, and while the board has
    tie-break games after it. Returns the match's score read back (局分, and 场分 once decided)."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        event = team_event_of(reg, g.name)
        rnd = _round(s, g, number)
        m = _team_match(s, rnd, match)
        if not _seated(m):
            raise UserError(
                f"第 {number} 轮第 {match} 场尚未排定台次（请先交排阵并生成对阵单）",
                f"round {number} match {match}: the boards are not set yet (line-ups first)",
            )
        if not 1 <= board <= event.match.boards:
            raise UserError(f"每场只有 {event.match.boards} 台，没有第 {board} 台", f"no board {board}")
        if m.home_absent or m.away_absent:
            raise UserError(
                "该场比赛有队未到场，各台已按弃权计", "a team did not appear: every board is forfeited"
            )
        table = _first_board(event, m.number) + board - 1
        match_games = _games(s, m)
        games = [gm for gm in match_games if gm.board == table]
        first = next((gm for gm in games if gm.game_no == 1), None)
        if first is None:
            raise UserError(
                f"第 {match} 场第 {board} 台有空台，按弃权计，不需录入",
                f"match {match} board {board} has an empty seat: it is forfeited",
            )
        if any(gm.game_no > 1 for gm in match_games):
            raise UserError(
                f"第 {match} 场已有加赛对局，请先删除加赛再改各台结果",
                f"match {match} has tie-break games: remove them before changing a board's result",
            )
        before = first.result
        first.result = result.value
        s.flush()
        score = _score_of(s, g, rnd, m, match_games)  # the same rows: only a result changed
        audit.record(
            s,
            "enter_board_result",
            entity=f"{g.name} 第{number}轮 第{match}场 第{board}台",
            before=before,
            after={"result": result.value, "score": score.label},
            who=who,
        )
        return score


def enter_tie_game(
    db: Database,
    group: str,
    number: int,
    match: int,
    board: int,
    result: GameResult,
    *,
    red: int | None = None,
    who: str = audit.DEFAULT_ARBITER,
) -> MatchScore:
    """The result of the tie-break game a board needs next (快棋, 超快棋, 决胜局 …: its kind, time control and
    colours follow the ladder). A step whose colours are drawn is drawn with the round's seed; a step whose
    colours a player chooses takes ``red`` (the number of the player who plays Red). Returns the match's
    score read back."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        event = team_event_of(reg, g.name)
        rnd = _round(s, g, number)
        m = _team_match(s, rnd, match)
        ids = _team_ids(s, g, reg)
        engine = _engine_match(s, event, m, _lineups(s, rnd), ids)
        due = next((d for d in due_tie_games(engine, event.match) if d.board == board), None)
        if due is None:
            raise UserError(
                f"第 {match} 场第 {board} 台现在不需要加赛",
                f"match {match} board {board} needs no tie-break now",
            )
        choices: dict[str, Any] = {k: dict(v) for k, v in _json(m.colour_choices).items()}
        if due.colours is not ColourState.SET:
            b = engine.board(board)
            if due.colours is ColourState.LOT_NEEDED:
                chosen = lot_red(b, due.step, rnd.seed or 0)
            else:
                if red is None or red not in (b.home, b.away):
                    raise UserError(
                        f"第 {board} 台加赛第 {due.number} 局由 {due.chooser} 号选择先后手：请给出执红者的序号",
                        f"board {board} tie-break game {due.number}: player {due.chooser} chooses; give Red's number",
                    )
                chosen = red
            choices.setdefault(str(board), {})[str(due.step)] = ids.player_id[chosen]
            m.colour_choices = choices
            s.flush()
            engine = _engine_match(s, event, m, _lineups(s, rnd), ids)
            due = next(d for d in due_tie_games(engine, event.match) if d.board == board)
        assert due.red is not None and due.black is not None
        s.add(
            GameRow(
                round_id=rnd.id,
                board=_first_board(event, m.number) + board - 1,
                game_no=due.number + 1,
                red_id=ids.player_id[due.red],
                black_id=ids.player_id[due.black],
                result=result.value,
                kind=due.kind.value,
                team_match_id=m.id,
            )
        )
        s.flush()
        score = _score_of(s, g, rnd, m)
        audit.record(
            s,
            "enter_tie_game",
            entity=f"{g.name} 第{number}轮 第{match}场 第{board}台 加赛第{due.number}局",
            after={
                "kind": due.kind.value,
                "red": due.red,
                "black": due.black,
                "result": result.value,
                "score": score.label,
            },
            who=who,
        )
        return score


def remove_last_tie_game(
    db: Database, group: str, number: int, match: int, board: int, *, who: str = audit.DEFAULT_ARBITER
) -> None:
    """Delete the last tie-break game of a board (to correct it)."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        event = team_event_of(reg, g.name)
        rnd = _round(s, g, number)
        m = _team_match(s, rnd, match)
        table = _first_board(event, m.number) + board - 1
        games = [gm for gm in _games(s, m) if gm.board == table and gm.game_no > 1]
        if not games:
            raise UserError(f"第 {match} 场第 {board} 台没有加赛对局", f"board {board} has no tie-break game")
        last = games[-1]
        s.delete(last)
        audit.record(
            s,
            "remove_tie_game",
            entity=f"{g.name} 第{number}轮 第{match}场 第{board}台",
            before=last.result,
            who=who,
        )


def set_team_absent(
    db: Database,
    group: str,
    number: int,
    match: int,
    side: Side,
    absent: bool = True,
    *,
    reason: str = "",
    who: str = audit.DEFAULT_ARBITER,
) -> MatchScore:
    """A team that does not appear (不到场): every board of the match is forfeited; refused once a board's
    result is in. ``absent=False`` takes it back."""
    with db.session() as s:
        g = group_row(s, group)
        rnd = _round(s, g, number)
        m = _team_match(s, rnd, match)
        if absent and any(gm.result != GameResult.PENDING.value for gm in _games(s, m)):
            raise UserError(
                "该场比赛已有成绩，不能再记为未到场", "the match has results: it cannot be a no-show"
            )
        before = (m.home_absent, m.away_absent)
        if side is Side.HOME:
            m.home_absent = absent
        else:
            m.away_absent = absent
        m.explanation = {**dict(m.explanation or {}), "seated": True}
        s.flush()
        score = _score_of(s, g, rnd, m)
        audit.record(
            s,
            "team_absent",
            entity=f"{g.name} 第{number}轮 第{match}场 {side.zh}",
            before=before,
            after={"absent": absent, "score": score.label},
            reason=reason,
            who=who,
        )
        return score


def set_playoff(db: Database, group: str, order: Sequence[str], *, who: str = audit.DEFAULT_ARBITER) -> None:
    """The order of a play-off between tied teams (加赛), first to last, as the arbiter enters it."""
    with db.session() as s:
        g = group_row(s, group)
        teams = [_team(s, g, name) for name in order]
        if len({t.id for t in teams}) != len(teams):
            raise UserError("加赛名次中有重复的队", "a team is named twice in the play-off")
        for i, t in enumerate(teams, start=1):
            t.playoff_place = i
        audit.record(s, "set_playoff", entity=g.name, after=[t.name for t in teams], who=who)


# --------------------------------------------------------------------------- read models


@dataclass(frozen=True, slots=True)
class Seat:
    no: int | None
    name: str


@dataclass(frozen=True, slots=True)
class TieLine:
    """A tie-break game of a board: its number in the ladder, kind, time control, colours and result."""

    number: int
    kind_zh: str
    time_control: str
    red: Seat
    black: Seat
    result: GameResult


@dataclass(frozen=True, slots=True)
class BoardLine:
    """A board of a match: the table number in the hall, the board in the match, home and away players,
    which of them is Red, the result, the 局分 it gives (home, away), its tie-break games, the next one."""

    table: int
    board: int
    home: Seat
    away: Seat
    home_red: bool
    result: GameResult
    points: tuple[int, int] | None
    ties: tuple[TieLine, ...] = ()
    due: DueTieGame | None = None


@dataclass(frozen=True, slots=True)
class MatchView:
    """A match with its boards under it, and its score read back."""

    number: int
    code: str
    home: str
    away: str | None  # None: the home team has the bye
    home_no: int
    away_no: int | None
    boards: tuple[BoardLine, ...]
    score: MatchScore | None
    seated: bool
    lineups_in: tuple[bool, bool]
    home_absent: bool = False
    away_absent: bool = False
    why_zh: str = ""
    home_captain: str = ""
    away_captain: str = ""

    @property
    def bye(self) -> bool:
        return self.away is None

    @property
    def score_label(self) -> str:
        """``6:2（场分 2:0）`` or ``4:4 进行中``."""
        if self.score is None:
            return "轮空"
        if self.score.decided:
            return f"{self.score.label}（场分 {self.score.home_match_points}:{self.score.away_match_points}）"
        return f"{self.score.label} 进行中" if self.seated else "待排阵"


@dataclass(frozen=True, slots=True)
class TeamRoundView:
    group: str
    number: int
    matches: tuple[MatchView, ...]
    boards_per_match: int
    tie_rule_zh: str
    closed: bool = False
    title: str = ""

    @property
    def decided(self) -> bool:
        return all(m.bye or (m.score is not None and m.score.decided) for m in self.matches)


def team_round_view(db: Database, group: str, number: int) -> TeamRoundView:
    """A round's matches with the boards under each, as the window, the score sheets and the hall show it."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        event = team_event_of(reg, g.name)
        rnd = _round(s, g, number)
        ids = _team_ids(s, g, reg)
        names = {
            p.no: p.name for p in s.scalars(select(Player).where(Player.group_id == g.id)) if p.no is not None
        }
        teams = {t.id: t for t in _teams(s, g)}
        lineups = _lineups(s, rnd)
        out = []
        for m in _matches(s, rnd):
            home = teams[m.home_team_id]
            if m.away_team_id is None:
                out.append(
                    MatchView(
                        m.number,
                        m.code,
                        home.name,
                        None,
                        home.no or 0,
                        None,
                        (),
                        None,
                        False,
                        (False, False),
                        why_zh=str((m.explanation or {}).get("zh", "")),
                    )
                )
                continue
            away = teams[m.away_team_id]
            engine = _engine_match(s, event, m, lineups, ids)
            score = score_match(engine, event.match)
            due = {d.board: d for d in due_tie_games(engine, event.match)}
            boards = []
            first = _first_board(event, m.number)
            for b, pts in zip(sorted(engine.boards, key=lambda x: x.board), score.board_points, strict=True):
                red, _black = board_colours(b, event.match)
                ties = tuple(
                    TieLine(
                        gm.number,
                        gm.kind.zh,
                        _ladder_time(event, gm.number),
                        Seat(gm.red, names.get(gm.red, "")),
                        Seat(gm.black, names.get(gm.black, "")),
                        gm.result,
                    )
                    for gm in b.tie_games
                )
                boards.append(
                    BoardLine(
                        first + b.board - 1,
                        b.board,
                        Seat(b.home, names.get(b.home, "") if b.home else ""),
                        Seat(b.away, names.get(b.away, "") if b.away else ""),
                        red == b.home if red is not None else b.home_red is not False,
                        game_result_of(b, event.match, m.home_absent, m.away_absent)
                        if engine.seated
                        else b.result,
                        pts,
                        ties,
                        due.get(b.board),
                    )
                )
            out.append(
                MatchView(
                    m.number,
                    m.code,
                    home.name,
                    away.name,
                    home.no or 0,
                    away.no,
                    tuple(boards),
                    score,
                    _seated(m),
                    (home.id in lineups, away.id in lineups),
                    m.home_absent,
                    m.away_absent,
                    str((m.explanation or {}).get("zh", "")),
                    home.captain,
                    away.captain,
                )
            )
        return TeamRoundView(
            g.name, number, tuple(out), event.match.boards, event.match.tie.zh, rnd.closed_at is not None
        )


def _ladder_time(event: TeamEvent, number: int) -> str:
    from app.engine.knockout import game_time_control

    return game_time_control(number, event.match.tie_ladder).label


@dataclass(frozen=True, slots=True)
class TeamStandingsView:
    group: str
    ranking: TeamEventRanking
    names: dict[int, str]  # team number → name
    player_names: dict[int, str]
    board_prizes: tuple[BoardPrizeRow, ...]
    rounds_played: int
    total_rounds: int
    chain: tuple[TeamTiebreak, ...]
    min_games: int
    breaks: tuple[str, ...] = ()
    crosstable: dict[int, dict[int, str]] = field(default_factory=dict)  # team → round → "对手 局分 场分"
    matches: dict[int, dict[int, int]] = field(default_factory=dict)  # team → round → its match's number

    @property
    def final(self) -> bool:
        return self.rounds_played == self.total_rounds


def team_standings_view(db: Database, group: str) -> TeamStandingsView:
    """The team standings (场分, 局分 and the chain), the crosstable by round, and the board prizes."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        state, _ids = load_team_state(s, g, reg)
        players = {
            p.no: p.name for p in s.scalars(select(Player).where(Player.group_id == g.id)) if p.no is not None
        }
    ranking = team_ranking(state)
    names = {t.no: t.name for t in state.teams}
    cross: dict[int, dict[int, str]] = {t.no: {} for t in state.teams}
    numbers: dict[int, dict[int, int]] = {t.no: {} for t in state.teams}
    for r in state.rounds:
        if r.bye is not None:
            cross[r.bye][r.number] = "轮空"
        for m in r.matches:
            numbers[m.home][r.number] = numbers[m.away][r.number] = m.number
            sc = score_match(m.match, state.event.match)
            if not sc.decided:
                cross[m.home][r.number] = f"{m.away}"
                cross[m.away][r.number] = f"{m.home}"
                continue
            cross[m.home][r.number] = f"{m.away}主 {sc.home_points}:{sc.away_points}"
            cross[m.away][r.number] = f"{m.home}客 {sc.away_points}:{sc.home_points}"
    complete = [
        r for r in state.rounds if all(score_match(m.match, state.event.match).decided for m in r.matches)
    ]
    return TeamStandingsView(
        g.name,
        ranking,
        names,
        players,
        board_prize_table(state),
        len(complete),
        state.total_rounds,
        state.event.chain,
        state.event.min_games(len(complete)),
        hard_rule_breaks(state),
        cross,
        numbers,
    )


def team_knockout_places(db: Database, group: str) -> dict[int, int] | None:
    """The final places of a finished team knockout (team number → place), else None."""
    from app.engine.knockout import final_places

    state, _ids = _state(db, group)
    if state.event.system is not TeamSystem.KNOCKOUT or not state.rounds:
        return None
    bracket = knockout_bracket(state)
    return final_places(bracket) if bracket.is_complete else None


def close_team_round(db: Database, group: str, number: int, *, who: str = audit.DEFAULT_ARBITER) -> str:
    """Close a team round once every match is decided; returns a backup warning ("" when it worked)."""
    view = team_round_view(db, group, number)
    open_matches = [m.number for m in view.matches if not m.bye and (m.score is None or not m.score.decided)]
    if open_matches:
        raise UserError(
            f"第 {number} 轮还有 {len(open_matches)} 场比赛未结束：第 {'、'.join(map(str, open_matches))} 场",
            f"round {number} still has undecided matches: {', '.join(map(str, open_matches))}",
        )
    with db.session() as s:
        g = group_row(s, group)
        rnd = _round(s, g, number)
        if rnd.closed_at is not None:
            return ""
        rnd.closed_at = datetime.now().replace(microsecond=0)
        audit.record(s, "close_round", entity=f"{g.name} 第{number}轮", who=who)
    return automatic_backup(db, f"closed-{group}-r{number}")
