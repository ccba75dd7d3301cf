"""Snapshot: a full-fidelity, versioned JSON export and import of a tournament.

For backup, exchange and tests. Players are referred to by their group and sequence number
(``no``); before the draw for numbers a player's ``no`` is ``null`` and nothing refers to them.
Export then import gives back an identical snapshot (tested).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from app.db.models import (
    Absence,
    AuditEntry,
    Bye,
    GameRecord,
    GameRow,
    Group,
    GroupStage,
    KnockoutMatch,
    PairAvoidance,
    Player,
    Round,
    Setting,
    StageEntry,
    Team,
    TeamLineup,
    TeamLineupBoard,
    TeamMatch,
    Tournament,
    Violation,
)
from app.db.session import Database
from app.engine.paperwork import paperwork_from_dict, paperwork_to_dict
from app.engine.types import GameResult, UserError
from app.services.paperwork import KEY as PAPERWORK_KEY
from app.services.paperwork import stored_paperwork
from app.services.tournaments import tournament_row

FORMAT = "xqarbiter-snapshot"
VERSION = 1


def _dt(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat(timespec="seconds")


def _d(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def export_snapshot(db: Database) -> dict[str, Any]:
    with db.session() as s:
        return snapshot_of(s)


def snapshot_of(s: Session) -> dict[str, Any]:
    t = tournament_row(s)
    groups = list(s.scalars(select(Group).order_by(Group.position, Group.id)))
    group_name = {g.id: g.name for g in groups}
    position = {g.id: g.position for g in groups}
    players = sorted(
        s.scalars(select(Player)),
        key=lambda p: (position[p.group_id], p.no is None, p.no or 0, p.id),
    )
    ref = {p.id: p.no for p in players}
    teams = list(s.scalars(select(Team).order_by(Team.group_id, Team.id)))
    team_name = {tm.id: tm.name for tm in teams}

    # the knockout matches read before the games that name them (``_match_code`` then finds each in the
    # session), and every round's games and byes read together, not with one query per round
    knockout_matches = list(
        s.scalars(select(KnockoutMatch).order_by(KnockoutMatch.group_id, KnockoutMatch.id))
    )
    rounds_out = []
    for r in s.scalars(
        select(Round)
        .order_by(Round.group_id, Round.number)
        .options(selectinload(Round.games), selectinload(Round.byes))
    ):
        games = sorted(r.games, key=lambda g: (g.board, g.game_no))
        rounds_out.append(
            {
                "group": group_name[r.group_id],
                "round": r.number,
                "stage": r.stage,
                "seed": r.seed,
                "paired_at": _dt(r.paired_at),
                "closed_at": _dt(r.closed_at),
                "games": [
                    {
                        "board": g.board,
                        "red": ref[g.red_id],
                        "black": ref[g.black_id],
                        "result": g.result,
                        "game_no": g.game_no,
                        "kind": g.kind,
                        "match": None if g.match_id is None else _match_code(s, g.match_id),
                        **(
                            {}
                            if g.team_match_id is None
                            else {"team_match": _team_match_number(s, g.team_match_id)}
                        ),
                    }
                    for g in games
                ],
                "byes": sorted(no for b in r.byes if (no := ref[b.player_id]) is not None),
                "explanation": r.explanation,
            }
        )
    matches = [
        {
            "group": group_name[m.group_id],
            "code": m.code,
            "round": m.round_number,
            "high": ref.get(m.high_id) if m.high_id else None,
            "low": ref.get(m.low_id) if m.low_id else None,
            "colour_method": m.colour_method,
            "colour_seed": m.colour_seed,
            "first_red": ref.get(m.first_red_id) if m.first_red_id else None,
            "deciding_red": ref.get(m.deciding_red_id) if m.deciding_red_id else None,
            "winner": ref.get(m.winner_id) if m.winner_id else None,
            **_choices_out(m.colour_choices, ref),
        }
        for m in knockout_matches
    ]
    player_group = {p.id: group_name[p.group_id] for p in players}
    violations = [
        {
            "player": ref[v.player_id],
            "group": player_group[v.player_id],
            "round": v.round_number,
            "kind": v.kind,
            "reason": v.reason,
            "source": v.source,
            "board": _board_of(s, v.game_id),
            "created_at": _dt(v.created_at),
        }
        for v in s.scalars(select(Violation).order_by(Violation.id))
    ]
    records = []
    for rec in s.scalars(select(GameRecord).order_by(GameRecord.id)):
        g = s.get(GameRow, rec.game_id)
        assert g is not None
        records.append(
            {
                "group": group_name[g.round.group_id],
                "round": g.round.number,
                "board": g.board,
                "game_no": g.game_no,
                "recorder": ref.get(rec.recorder_id) if rec.recorder_id else None,
                "designated": rec.designated,
                "received": rec.received,
                "moves": rec.moves,
                "pgn": rec.pgn,
                "received_at": _dt(rec.received_at),
            }
        )
    stages = [
        {
            "group": group_name[st.group_id],
            "stage": st.stage,
            "kind": st.kind,
            "seed": st.seed,
            "started_at": _dt(st.started_at),
            "entrants": [
                {"player": ref[e.player_id], "pool": e.pool, "number": e.number, "lot": e.lot}
                for e in s.scalars(
                    select(StageEntry)
                    .where(StageEntry.stage_id == st.id)
                    .order_by(StageEntry.pool, StageEntry.number)
                )
                if ref.get(e.player_id) is not None
            ],
        }
        for st in s.scalars(select(GroupStage).order_by(GroupStage.group_id, GroupStage.stage))
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {
            "name": t.name,
            "preset": t.preset,
            "start_date": _d(t.start_date),
            "created_at": _dt(t.created_at),
            "settings": t.regulations,
        },
        "groups": [
            {
                "name": g.name,
                "teams": g.teams,
                "numbers_method": g.numbers_method,
                "numbers_seed": g.numbers_seed,
            }
            for g in groups
        ],
        "teams": [_team_doc(tm, group_name[tm.group_id]) for tm in teams],
        "players": [
            {
                "no": p.no,
                "name": p.name,
                "group": group_name[p.group_id],
                "team": team_name.get(p.team_id) if p.team_id else None,
                "id_type": p.id_type,
                "id_number": p.id_number,
                "birth_date": _d(p.birth_date),
                "gender": p.gender,
                "phone": p.phone,
                "rating": p.rating,
                "unit": p.unit,
                "notes": p.notes,
                "fee_paid": p.fee_paid,
                "insurance": p.insurance,
                "pledge": p.pledge,
                "checked_in": p.checked_in,
                "status": p.status,
                "status_round": p.status_round,
                "dq_games": p.dq_games,
                "registered_at": _dt(p.registered_at),
                "late_entry_round": p.late_entry_round,
                "region": p.region,
                "reentry_round": p.reentry_round,
                **({"team_order": p.team_order} if p.team_order is not None else {}),
                **({"reserve": True} if p.reserve else {}),
                # formats: written only when set (a snapshot without them reads as ranked, no override)
                **({} if p.ranked else {"ranked": False}),
                **({"rating_rank": p.rating_rank} if p.rating_rank is not None else {}),
                **({"eligibility_override": p.eligibility_override} if p.eligibility_override else {}),
            }
            for p in players
        ],
        "rounds": rounds_out,
        "knockout": matches,
        "violations": violations,
        "records": records,
        # absence and re-entry, pairing constraints: clearly named keys of their own
        "absences": [
            {
                "group": player_group[a.player_id],
                "player": ref[a.player_id],
                "round": a.round_number,
                "reason": a.reason,
                "created_at": _dt(a.created_at),
            }
            for a in s.scalars(select(Absence).order_by(Absence.id))
        ],
        "paperwork": stored_paperwork(s),
        # formats (stages): the begun stages with their entrants, pools, numbers and lots (when any)
        **({"stages": stages} if stages else {}),
        "pair_avoidances": [
            {
                "group": player_group[v.first_id],
                "first": ref[v.first_id],
                "second": ref[v.second_id],
                "strength": v.strength,
                "from_round": v.from_round,
                "to_round": v.to_round,
                "reason": v.reason,
                "created_at": _dt(v.created_at),
            }
            for v in s.scalars(select(PairAvoidance).order_by(PairAvoidance.id))
        ],
        **_team_competition(s, group_name, ref, team_name),
        "audit": [
            {
                "at": _dt(a.at),
                "who": a.who,
                "action": a.action,
                "entity": a.entity,
                "before": a.before,
                "after": a.after,
                "reason": a.reason,
            }
            for a in s.scalars(select(AuditEntry).order_by(AuditEntry.id))
        ],
    }


def _team_doc(tm: Team, group: str) -> dict[str, Any]:
    doc: dict[str, Any] = {"name": tm.name, "group": group, "leader": tm.leader}
    extra = {
        "no": tm.no,
        "captain": tm.captain or None,
        "seed_rank": tm.seed_rank,
        "playoff_place": tm.playoff_place,
        "withdrawn_round": tm.withdrawn_round,
    }
    return doc | {k: v for k, v in extra.items() if v is not None}


def _team_match_number(s: Session, match_id: int) -> int:
    m = s.get(TeamMatch, match_id)
    assert m is not None
    return m.number


def _team_competition(
    s: Session, group_name: dict[int, str], ref: dict[int, int | None], team_name: dict[int, str]
) -> dict[str, Any]:
    """The team competitions' matches and line-ups (absent from files without any)."""
    matches = []
    for m in s.scalars(
        select(TeamMatch).join(Round).order_by(Round.group_id, Round.number, TeamMatch.number)
    ):
        matches.append(
            {
                "group": group_name[m.round.group_id],
                "round": m.round.number,
                "number": m.number,
                "home": team_name[m.home_team_id],
                "away": None if m.away_team_id is None else team_name[m.away_team_id],
                "home_absent": m.home_absent,
                "away_absent": m.away_absent,
                "code": m.code,
                "colour_choices": {
                    board: {step: ref[int(pid)] for step, pid in _board_steps(board, steps).items()}
                    for board, steps in (m.colour_choices or {}).items()
                },
                "explanation": m.explanation,
            }
        )
    lineups = []
    for lu in s.scalars(
        select(TeamLineup).join(Round).order_by(Round.group_id, Round.number, TeamLineup.team_id)
    ):
        rnd = s.get(Round, lu.round_id)
        assert rnd is not None
        lineups.append(
            {
                "group": group_name[rnd.group_id],
                "round": rnd.number,
                "team": team_name[lu.team_id],
                "boards": [None if b.player_id is None else ref[b.player_id] for b in lu.boards],
                "method": lu.method,
                "seed": lu.seed,
                "handed_in_by": lu.handed_in_by,
                "handed_in_at": _dt(lu.handed_in_at),
            }
        )
    if not matches and not lineups:
        return {}
    return {"team_matches": matches, "lineups": lineups}


def _match_code(s: Session, match_id: int) -> str:
    m = s.get(KnockoutMatch, match_id)
    assert m is not None
    return m.code


def _board_of(s: Session, game_id: int | None) -> int | None:
    if game_id is None:
        return None
    g = s.get(GameRow, game_id)
    return None if g is None else g.board


# --------------------------------------------------------------------------- import


class SnapshotError(UserError):
    pass


def _req(obj: dict[str, Any], key: str, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise SnapshotError(f"快照中 {where} 缺少字段“{key}”", f"snapshot: {where} has no field {key!r}")
    return obj[key]


def _parse_dt(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        raise SnapshotError(
            f"快照中 {where} 的时间“{value}”无效", f"snapshot: invalid time at {where}"
        ) from None


def _parse_date(value: Any, where: str) -> date:
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise SnapshotError(
            f"快照中 {where} 的日期“{value}”无效", f"snapshot: invalid date at {where}"
        ) from None


def read_snapshot_file(path: Path | str) -> dict[str, Any]:
    """A snapshot file read strictly (UTF-8 with or without BOM, no duplicate keys, bounded depth)."""
    from app.services.documents import read_json_document

    path = Path(path)
    data = read_json_document(path, "快照文件", "snapshot file")
    if not isinstance(data, dict):
        raise SnapshotError(f"{path.name} 不是赛事快照", f"{path.name} is not a tournament snapshot")
    return data


def checked_snapshot(data: Any) -> dict[str, Any]:
    """The snapshot validated whole against its schema (:func:`app.services.schemas.validate_snapshot`)."""
    from app.services.schemas import validate_snapshot

    return validate_snapshot(data)


def import_snapshot(data: dict[str, Any], path: Path | str) -> Database:
    """Create a new tournament file at ``path`` holding exactly the snapshot; nothing is left on failure.

    The whole document is checked first (every problem named with its JSON path): nothing is created
    for a snapshot with any problem."""
    from app.db.session import open_database

    data = checked_snapshot(data)
    path = Path(path)
    db = open_database(path, create=True)
    try:
        with db.session() as s:
            _fill(s, data)
    except BaseException:
        db.close()
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        raise
    return db


class _Filler:
    """Writes a validated snapshot's parts into a new file, part by part, in the document's order.

    Each part looks up the rows of the parts before it (groups by name, players by group and number,
    matches by code, games by group, round, board and game number).
    """

    def __init__(self, s: Session, data: dict[str, Any]) -> None:
        self.s = s
        self.data = data
        self.groups: dict[str, Group] = {}
        self.teams: dict[tuple[str, str], Team] = {}
        self.players: dict[tuple[str, int], Player] = {}
        self.matches: dict[tuple[str, str], KnockoutMatch] = {}
        self.games: dict[tuple[str, int, int, int], GameRow] = {}

    def group_of(self, name: Any, where: str) -> Group:
        if name not in self.groups:
            raise SnapshotError(
                f"快照中 {where} 的组别“{name}”不存在", f"snapshot: {where} names unknown group {name!r}"
            )
        return self.groups[name]

    def player_id(self, group: str, no: Any, where: str) -> int:
        if (group, no) not in self.players:
            raise SnapshotError(
                f"快照中 {where} 引用了不存在的棋手 {group} {no} 号",
                f"snapshot: {where} refers to unknown player {group} #{no}",
            )
        return self.players[(group, no)].id

    def fill(self) -> None:
        self.tournament()
        self.fill_groups()
        self.fill_teams()
        self.fill_players()
        self.fill_knockout()
        self.fill_rounds()
        self.fill_violations()
        self.fill_records()
        _fill_arbiter_requests(self.s, self.data, self.player_id)
        _fill_lineups(self.s, self.data, self.teams, self.player_id)
        _fill_stages(self.s, self.data, self.group_of, self.player_id)
        self.fill_audit()

    def tournament(self) -> None:
        t = self.data["tournament"]
        self.s.add(
            Tournament(
                id=1,
                name=str(_req(t, "name", "tournament")),
                preset=str(t.get("preset", "")),
                start_date=_parse_date(_req(t, "start_date", "tournament"), "tournament.start_date"),
                regulations=t["settings"],
                created_at=_parse_dt(t.get("created_at"), "tournament.created_at")
                or datetime.now().replace(microsecond=0),
            )
        )

    def fill_groups(self) -> None:
        for i, g in enumerate(_req(self.data, "groups", "顶层")):
            row = Group(
                name=str(_req(g, "name", f"groups[{i}]")),
                teams=bool(_req(g, "teams", f"groups[{i}]")),
                position=i,
                numbers_method=str(g.get("numbers_method", "")),
                numbers_seed=g.get("numbers_seed"),
            )
            self.groups[row.name] = row
            self.s.add(row)
        self.s.flush()

    def fill_teams(self) -> None:
        for i, tm in enumerate(self.data.get("teams", [])):
            g = self.group_of(_req(tm, "group", f"teams[{i}]"), f"teams[{i}]")
            row = Team(
                group_id=g.id,
                name=str(_req(tm, "name", f"teams[{i}]")),
                leader=str(tm.get("leader", "")),
                no=tm.get("no"),
                captain=str(tm.get("captain") or ""),
                seed_rank=tm.get("seed_rank"),
                playoff_place=tm.get("playoff_place"),
                withdrawn_round=tm.get("withdrawn_round"),
            )
            self.teams[(g.name, row.name)] = row
            self.s.add(row)
        self.s.flush()

    def team_id(self, g: Group, team: Any) -> int | None:
        if team is None:
            return None
        if (g.name, team) not in self.teams:
            self.teams[(g.name, team)] = Team(group_id=g.id, name=str(team))
            self.s.add(self.teams[(g.name, team)])
            self.s.flush()
        return self.teams[(g.name, team)].id

    def fill_players(self) -> None:
        for i, p in enumerate(_req(self.data, "players", "顶层")):
            where = f"players[{i}]"
            g = self.group_of(_req(p, "group", where), where)
            row = Player(
                group_id=g.id,
                team_id=self.team_id(g, p.get("team")),
                no=p.get("no"),
                name=str(_req(p, "name", where)),
                gender=str(p.get("gender", "")),
                id_type=str(p.get("id_type", "resident_id")),
                id_number=str(_req(p, "id_number", where)),
                birth_date=None  # unknown: a player read from a TRF file without one
                if p.get("birth_date") is None and p.get("id_type") == "fide"
                else _parse_date(
                    p.get("birth_date") or _birth_from_id(str(p["id_number"])), f"{where}.birth_date"
                ),
                phone=str(_req(p, "phone", where)),
                rating=p.get("rating"),
                rating_rank=p.get("rating_rank"),
                unit=str(p.get("unit", "")),
                notes=str(p.get("notes", "")),
                fee_paid=bool(_req(p, "fee_paid", where)),
                insurance=bool(p.get("insurance", False)),
                pledge=bool(p.get("pledge", False)),
                checked_in=bool(_req(p, "checked_in", where)),
                status=str(_req(p, "status", where)),
                status_round=p.get("status_round"),
                dq_games=str(p.get("dq_games", "")),
                registered_at=_parse_dt(p.get("registered_at"), f"{where}.registered_at")
                or datetime(2000, 1, 1),
                late_entry_round=p.get("late_entry_round"),
                region=str(p.get("region", "")),
                reentry_round=p.get("reentry_round"),
                ranked=bool(p.get("ranked", True)),
                eligibility_override=str(p.get("eligibility_override", "")),
                team_order=p.get("team_order"),
                reserve=bool(p.get("reserve", False)),
            )
            if row.no is not None:
                if (g.name, row.no) in self.players:
                    raise SnapshotError(
                        f"快照中 {g.name} 序号 {row.no} 重复", f"snapshot: {g.name} number {row.no} twice"
                    )
                self.players[(g.name, row.no)] = row
            self.s.add(row)
        self.s.flush()

    def fill_knockout(self) -> None:
        for i, m in enumerate(self.data.get("knockout", [])):
            where = f"knockout[{i}]"
            g = self.group_of(_req(m, "group", where), where)

            def opt(key: str, g: Group = g, m: dict[str, Any] = m, where: str = where) -> int | None:
                return None if m.get(key) is None else self.player_id(g.name, m[key], f"{where}.{key}")

            row = KnockoutMatch(
                group_id=g.id,
                code=str(_req(m, "code", where)),
                round_number=int(_req(m, "round", where)),
                high_id=opt("high"),
                low_id=opt("low"),
                colour_method=str(m.get("colour_method", "")),
                colour_seed=m.get("colour_seed"),
                first_red_id=opt("first_red"),
                winner_id=opt("winner"),
                colour_choices=_colour_choices(m, g.name, where, self.player_id),
            )
            self.matches[(g.name, row.code)] = row
            self.s.add(row)
        self.s.flush()

    def fill_rounds(self) -> None:
        for i, r in enumerate(_req(self.data, "rounds", "顶层")):
            where = f"rounds[{i}]"
            g = self.group_of(_req(r, "group", where), where)
            rnd = Round(
                group_id=g.id,
                number=int(_req(r, "round", where)),
                stage=str(r.get("stage", "swiss")),
                seed=r.get("seed"),
                paired_at=_parse_dt(r.get("paired_at"), f"{where}.paired_at") or datetime(2000, 1, 1),
                closed_at=_parse_dt(r.get("closed_at"), f"{where}.closed_at"),
                explanation=r.get("explanation"),
            )
            self.s.add(rnd)
            self.s.flush()
            team_matches = _fill_team_matches(self.s, self.data, g.name, rnd, self.teams)
            for j, gm in enumerate(_req(r, "games", where)):
                self.fill_game(g, rnd, gm, f"{where}.games[{j}]", team_matches)
            for no in r.get("byes", []):
                self.s.add(Bye(round_id=rnd.id, player_id=self.player_id(g.name, no, f"{where}.byes")))
        self.s.flush()

    def fill_game(
        self, g: Group, rnd: Round, gm: dict[str, Any], gw: str, team_matches: dict[int, TeamMatch]
    ) -> None:
        result = str(_req(gm, "result", gw))
        try:
            GameResult(result)
        except ValueError:
            raise SnapshotError(
                f"快照中 {gw} 的结果“{result}”无效", f"snapshot: invalid result at {gw}"
            ) from None
        match = gm.get("match")
        if match is not None and (g.name, match) not in self.matches:
            raise SnapshotError(
                f"快照中 {gw} 引用了不存在的淘汰赛场次", f"snapshot: {gw} refers to unknown match"
            )
        row = GameRow(
            round_id=rnd.id,
            board=int(_req(gm, "board", gw)),
            game_no=int(gm.get("game_no", 1)),
            red_id=self.player_id(g.name, _req(gm, "red", gw), gw),
            black_id=self.player_id(g.name, _req(gm, "black", gw), gw),
            result=result,
            kind=str(gm.get("kind", "swiss")),
            match_id=None if match is None else self.matches[(g.name, match)].id,
            team_match_id=None if gm.get("team_match") is None else team_matches[int(gm["team_match"])].id,
        )
        self.s.add(row)
        self.games[(g.name, rnd.number, row.board, row.game_no)] = row

    def fill_violations(self) -> None:
        for i, v in enumerate(self.data.get("violations", [])):
            where = f"violations[{i}]"
            gname = str(_req(v, "group", where))
            rnd_no = int(_req(v, "round", where))
            board = v.get("board")
            game = self.games.get((gname, rnd_no, board, 1)) if board is not None else None
            self.s.add(
                Violation(
                    player_id=self.player_id(gname, _req(v, "player", where), where),
                    round_number=rnd_no,
                    game_id=None if game is None else game.id,
                    kind=str(_req(v, "kind", where)),
                    reason=str(v.get("reason", "")),
                    source=str(v.get("source", "arbiter")),
                    created_at=_parse_dt(v.get("created_at"), f"{where}.created_at") or datetime(2000, 1, 1),
                )
            )

    def fill_records(self) -> None:
        for i, rec in enumerate(self.data.get("records", [])):
            where = f"records[{i}]"
            key = (str(rec["group"]), int(rec["round"]), int(rec["board"]), int(rec.get("game_no", 1)))
            if key not in self.games:
                raise SnapshotError(
                    f"快照中 {where} 引用了不存在的对局", f"snapshot: {where} refers to unknown game"
                )
            recorder = rec.get("recorder")
            self.s.add(
                GameRecord(
                    game_id=self.games[key].id,
                    recorder_id=None if recorder is None else self.player_id(key[0], recorder, where),
                    designated=bool(rec.get("designated", False)),
                    received=bool(rec.get("received", False)),
                    moves=rec.get("moves"),
                    pgn=str(rec.get("pgn", "")),
                    received_at=_parse_dt(rec.get("received_at"), f"{where}.received_at"),
                )
            )

    def fill_audit(self) -> None:
        for i, a in enumerate(self.data.get("audit", [])):
            self.s.add(
                AuditEntry(
                    at=_parse_dt(a.get("at"), f"audit[{i}].at") or datetime(2000, 1, 1),
                    who=str(a.get("who", "")),
                    action=str(a.get("action", "")),
                    entity=str(a.get("entity", "")),
                    before=str(a.get("before", "")),
                    after=str(a.get("after", "")),
                    reason=str(a.get("reason", "")),
                )
            )


def _fill(s: Session, data: dict[str, Any]) -> None:
    _Filler(s, data).fill()


def _fill_team_matches(
    s: Session, data: dict[str, Any], group: str, rnd: Round, teams: dict[tuple[str, str], Team]
) -> dict[int, TeamMatch]:
    """A round's team matches (the snapshot's ``team_matches`` of that group and round), by number."""
    out: dict[int, TeamMatch] = {}
    for m in data.get("team_matches", []):
        if m["group"] != group or m["round"] != rnd.number:
            continue
        ids = {k: v for k, v in teams.items() if k[0] == group}
        row = TeamMatch(
            round_id=rnd.id,
            number=int(m["number"]),
            home_team_id=ids[(group, m["home"])].id,
            away_team_id=None if m.get("away") is None else ids[(group, m["away"])].id,
            home_absent=bool(m.get("home_absent", False)),
            away_absent=bool(m.get("away_absent", False)),
            code=str(m.get("code", "")),
            explanation=m.get("explanation"),
        )
        s.add(row)
        out[row.number] = row
    s.flush()
    return out


def _fill_lineups(
    s: Session, data: dict[str, Any], teams: dict[tuple[str, str], Team], player_id: Any
) -> None:
    """The line-ups, and the tie-break colour choices of the team matches (players by number)."""
    for i, m in enumerate(data.get("team_matches", [])):
        if not m.get("colour_choices"):
            continue
        rnd = s.scalars(
            select(Round).join(Group).where(Group.name == m["group"], Round.number == m["round"])
        ).one()
        row = s.scalars(
            select(TeamMatch).where(TeamMatch.round_id == rnd.id, TeamMatch.number == m["number"])
        ).one()
        row.colour_choices = {
            board: {
                step: player_id(m["group"], no, f"team_matches[{i}].colour_choices")
                for step, no in steps.items()
            }
            for board, steps in m["colour_choices"].items()
        }
    for i, lu in enumerate(data.get("lineups", [])):
        where = f"lineups[{i}]"
        rnd = s.scalars(
            select(Round).join(Group).where(Group.name == lu["group"], Round.number == lu["round"])
        ).one()
        lineup = TeamLineup(
            round_id=rnd.id,
            team_id=teams[(lu["group"], lu["team"])].id,
            method=str(lu.get("method", "captain")),
            seed=lu.get("seed"),
            handed_in_by=str(lu.get("handed_in_by", "")),
            handed_in_at=_parse_dt(lu.get("handed_in_at"), f"{where}.handed_in_at") or datetime(2000, 1, 1),
        )
        for board, no in enumerate(lu["boards"], start=1):
            lineup.boards.append(
                TeamLineupBoard(
                    board=board, player_id=None if no is None else player_id(lu["group"], no, where)
                )
            )
        s.add(lineup)


def _whole(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 999:
        raise SnapshotError(f"快照中 {where} 的轮次“{value}”无效", f"snapshot: invalid round at {where}")
    return value


def _fill_stages(s: Session, data: dict[str, Any], group_of: Any, player_id: Any) -> None:
    """The begun stages (formats): their entrants, pools, numbers and lots; absent in older snapshots."""
    for i, st in enumerate(data.get("stages", [])):  # formats: the begun stages
        where = f"stages[{i}]"
        g = group_of(_req(st, "group", where), where)
        row = GroupStage(
            group_id=g.id,
            stage=_whole(_req(st, "stage", where), f"{where}.stage"),
            kind=str(_req(st, "kind", where)),
            seed=st.get("seed"),
            started_at=_parse_dt(st.get("started_at"), f"{where}.started_at") or datetime(2000, 1, 1),
        )
        s.add(row)
        s.flush()
        for j, e in enumerate(_req(st, "entrants", where)):
            ew = f"{where}.entrants[{j}]"
            s.add(
                StageEntry(
                    stage_id=row.id,
                    player_id=player_id(g.name, _req(e, "player", ew), ew),
                    pool=_whole(e.get("pool", 0), f"{ew}.pool"),
                    number=_whole(_req(e, "number", ew), f"{ew}.number"),
                    lot=_whole(e.get("lot", 0), f"{ew}.lot"),
                )
            )


def _fill_arbiter_requests(s: Session, data: dict[str, Any], player_id: Any) -> None:
    """The keys of the arbiters' requests: excused absences, named pair avoidances and the paperwork (officials,
    certificate template), all absent in older snapshots."""
    paperwork = data.get("paperwork")
    for key in ("absences", "pair_avoidances"):
        if not isinstance(data.get(key, []), list):
            raise SnapshotError(f"快照中 {key} 应为列表", f"snapshot: {key} must be a list")
    if paperwork is not None:
        value = paperwork_to_dict(paperwork_from_dict(paperwork))  # validated, in its stored form
        s.add(Setting(key=PAPERWORK_KEY, value=json.dumps(value, ensure_ascii=False, sort_keys=True)))
    for i, a in enumerate(data.get("absences", [])):
        where = f"absences[{i}]"
        group = str(_req(a, "group", where))
        s.add(
            Absence(
                player_id=player_id(group, _req(a, "player", where), where),
                round_number=_whole(_req(a, "round", where), f"{where}.round"),
                reason=str(a.get("reason", "")),
                created_at=_parse_dt(a.get("created_at"), f"{where}.created_at") or datetime(2000, 1, 1),
            )
        )
    for i, v in enumerate(data.get("pair_avoidances", [])):
        where = f"pair_avoidances[{i}]"
        group = str(_req(v, "group", where))
        strength = str(v.get("strength", "absolute"))
        if strength not in ("absolute", "weak"):
            raise SnapshotError(
                f"快照中 {where} 的回避强度“{strength}”无效", f"snapshot: invalid strength at {where}"
            )
        s.add(
            PairAvoidance(
                first_id=player_id(group, _req(v, "first", where), f"{where}.first"),
                second_id=player_id(group, _req(v, "second", where), f"{where}.second"),
                strength=strength,
                from_round=_whole(v.get("from_round", 1), f"{where}.from_round"),
                to_round=_whole(v.get("to_round", 0), f"{where}.to_round"),
                reason=str(v.get("reason", "")),
                created_at=_parse_dt(v.get("created_at"), f"{where}.created_at") or datetime(2000, 1, 1),
            )
        )


def _board_steps(board: str, steps: object) -> dict[Any, Any]:
    """One board's tie-break ladder steps of a team match as stored: {step: Red's player id}."""
    if not isinstance(steps, dict):
        raise TypeError(f"team match board {board}: colour choices {steps!r} are not a mapping")
    return steps


def _choices_out(choices: Mapping[str, object] | None, ref: Mapping[int, int | None]) -> dict[str, Any]:
    """A knockout match's colour choices by game (formats), written only when there are any."""
    out = {k: no for k, v in sorted((choices or {}).items()) if isinstance(v, int) and (no := ref.get(v))}
    return {"colour_choices": out} if out else {}


def _colour_choices(m: dict[str, Any], group: str, where: str, player_id: Any) -> dict[str, object] | None:
    """A match's ladder colour choices (step → Red); an older snapshot's deciding Red is step 3 of the
    old ladder (as migration 0007 moves it)."""
    choices = {
        str(k): player_id(group, v, f"{where}.colour_choices")
        for k, v in dict(m.get("colour_choices") or {}).items()
    }
    if not choices and m.get("deciding_red") is not None:
        choices = {"2": player_id(group, m["deciding_red"], f"{where}.deciding_red")}
    return dict(choices) or None


def _birth_from_id(id_number: str) -> str:
    """The birth date of a resident ID number; "" (refused by the date check) for other documents."""
    if len(id_number) == 18 and id_number[6:14].isdigit():
        return f"{id_number[6:10]}-{id_number[10:12]}-{id_number[12:14]}"
    return ""


def write_snapshot_file(db: Database, path: Path | str) -> None:
    """The snapshot as a file readable by its owner only (it holds every ID and phone number),
    written all at once."""
    from app.files import write_atomic

    write_atomic(path, json.dumps(export_snapshot(db), ensure_ascii=False, indent=1), private=True)
