"""A demo event of each format, and a whole event of a format played through and checked.

``xqarbiter demo FILE --format F`` makes the event (one group, a realistic seeded field, numbers drawn);
``xqarbiter simulate --format F`` plays one through to the end in a scratch file, through the same
services as the window, and reports what an arbiter checks: hard-rule breaks (there must be none),
byes, colours, and the final ranking.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from app.db.session import Database
from app.engine.format_presets import DEFAULT_PLAYERS, FORMATS, format_stages
from app.engine.formats import StageKind
from app.engine.regulations import GroupFormat, PrizeKind, PrizeTable, Regulations, preset
from app.engine.round_robin import schedule
from app.engine.types import UserError
from app.services import audit
from app.services.demo import PLAYED_TO_END, demo_field
from app.services.tournaments import create_tournament, discard_on_failure

GROUP = "公开组"


def format_regulations(name: str, players: int, rounds: int | None = None) -> Regulations:
    """The 2024 preset with one group playing format ``name`` (its prizes kept for that group)."""
    base = preset("tianshui-2024")
    stages = format_stages(name, players, rounds)
    open_prizes = tuple(t for t in base.prizes if t.group == GROUP)
    capacity = max(base.registration.capacity, players)
    return dataclasses.replace(
        base,
        groups=(GroupFormat(GROUP, True, stages),),
        prizes=open_prizes or (PrizeTable("个人", GROUP, PrizeKind.INDIVIDUAL, (1000, 500, 300)),),
        registration=dataclasses.replace(base.registration, capacity=capacity),
    )


def check_format_size(name: str, players: int) -> None:
    if name not in FORMATS:
        format_stages(name, players)  # raises, naming the formats there are
    low = 4 if name in ("groups-then-knockout", "swiss-knockout") else 3
    if name == "swiss-knockout":
        low = 10
    if not low <= players <= 1000:
        raise UserError(
            f"赛制 {name} 的人数应在 {low}–1000 之间（现为 {players}）",
            f"format {name} needs {low}-1000 players, not {players}",
        )
    format_stages(name, players)  # a round robin of too many is refused here, with the rule named


def create_format_demo(
    path: Path | str,
    name: str,
    *,
    players: int | None = None,
    rounds: int | None = None,
    seed: int = 2024,
    played_to: int | str | None = None,
    who: str = audit.DEFAULT_ARBITER,
) -> Database:
    """A demo event of format ``name``: one group, ``players`` registered (a realistic seeded field), the
    sequence numbers drawn by lot; with ``played_to`` played through the services to round N (or to
    its end: ``"end"``; a round past the end plays it to the end). Nothing is left behind when it cannot
    be made."""
    count = players if players is not None else DEFAULT_PLAYERS.get(name, 16)
    check_format_size(name, count)
    if played_to not in (None, PLAYED_TO_END) and (not isinstance(played_to, int) or played_to < 1):
        raise UserError(
            f"--played-to 应为轮次或 end（现为 {played_to}）",
            f"--played-to must be a round or end, not {played_to}",
        )
    reg = format_regulations(name, count, rounds)
    db = create_tournament(path, "tianshui-2024", regulations=reg, who=who)
    with discard_on_failure(db):
        _register(db, seed, count, who)
        if played_to is not None:
            from app.services.simulation import play_group_to_end

            last = None if played_to == PLAYED_TO_END else int(played_to)
            play_group_to_end(db, GROUP, seed=seed, last=last, who=who)
    return db


def _register(db: Database, seed: int, count: int, who: str) -> None:
    from app.db.models import Player, Team
    from app.services.registration import draw_numbers
    from app.services.tournaments import group_row

    field = demo_field(seed, max(count, 4))[:count]
    with db.session() as s:
        g = group_row(s, GROUP)
        teams: dict[str, Team] = {}
        for p in field:
            if p.team is not None and p.team not in teams:
                teams[p.team] = Team(group_id=g.id, name=p.team, leader="")
                s.add(teams[p.team])
        s.flush()
        for p in field:
            s.add(
                Player(
                    group_id=g.id,
                    team_id=teams[p.team].id if p.team else None,
                    name=p.name,
                    gender=p.gender,
                    id_type="resident_id",
                    id_number=p.id_number,
                    birth_date=p.birth_date,
                    phone=p.phone,
                    rating=p.rating,
                    unit=p.unit,
                    notes="",
                    fee_paid=True,
                    insurance=True,
                    pledge=True,
                    checked_in=True,
                    status="active",
                    registered_at=p.registered_at,
                )
            )
        audit.record(s, "create_demo", entity=GROUP, after={"seed": seed, "players": count}, who=who)
    draw_numbers(db, GROUP, method="lot", seed=seed, who=who)


# --------------------------------------------------------------------------- playing a format through


def simulate_format(
    name: str,
    *,
    players: int | None = None,
    rounds: int | None = None,
    seed: int = 1,
    forfeit_rate: float = 0.0,
) -> dict[str, Any]:
    """Play an event of format ``name`` to its end in a scratch file and report the checks."""
    from app.services.simulation import play_group_to_end

    count = players if players is not None else DEFAULT_PLAYERS.get(name, 16)
    with tempfile.TemporaryDirectory(prefix="xqarbiter-simulate-") as folder:
        db = create_format_demo(Path(folder) / "simulate.xqt", name, players=count, rounds=rounds, seed=seed)
        db.keeps_backups = False  # the scratch file and its folder are removed when the report is made
        try:
            play_group_to_end(db, GROUP, seed=seed, forfeit_rate=forfeit_rate)
            return format_report(db, name, seed)
        finally:
            db.close()


def format_report(db: Database, name: str, seed: int) -> dict[str, Any]:
    """What an arbiter checks after the last round: the hard rules of every stage, byes, colours, the
    final ranking."""
    from app.services.knockout import bracket_of
    from app.services.rounds import group_state
    from app.services.stages import plan_of
    from app.services.standings import final_standings

    state = group_state(db, GROUP)
    plans = plan_of(state)
    breaks = hard_rule_breaks(db)
    colours: Counter[tuple[int, str]] = Counter()
    bracket = bracket_of(db, GROUP)
    knockout = [g for m in (bracket.matches if bracket else ()) for g in m.games]
    for g in [g for r in state.rounds for g in r.games] + knockout:
        if g.result.played_over_board:
            colours[(g.red, "red")] += 1
            colours[(g.black, "black")] += 1
    byes = {no: sum(no in r.byes for r in state.rounds) for no in (e.no for e in state.entrants)}
    rests = _round_robin_rests(state)
    final = final_standings(db, GROUP)
    knockout_games = 0 if bracket is None else sum(len(m.games) for m in bracket.matches)
    by_kind = Counter(g.kind.value for m in (bracket.matches if bracket else ()) for g in m.games)
    return {
        "format": name,
        "players": len(state.entrants),
        "seed": seed,
        "stages": [
            {
                "stage": p.index + 1,
                "kind": p.stage.kind.value,
                "rounds": [p.first_round, p.last_round],
                "entrants": p.entrants,
            }
            for p in plans
        ],
        "rounds": max((r.number for r in state.rounds), default=0),
        "hard_rule_breaks": len(breaks),
        "breaks": breaks,
        "byes": sum(byes.values())
        + sum(1 for m in (bracket.matches if bracket else ()) if m.walkover and len(m.players) == 1),
        "players_with_two_byes": sum(1 for v in byes.values() if v > 1),
        "round_robin_rests": rests,
        "colours": {
            "most_red": max((colours[(e.no, "red")] for e in state.entrants), default=0),
            "most_black": max((colours[(e.no, "black")] for e in state.entrants), default=0),
            "largest_difference": max(
                (abs(colours[(e.no, "red")] - colours[(e.no, "black")]) for e in state.entrants), default=0
            ),
        },
        "knockout_games": knockout_games,
        "knockout_games_by_kind": dict(sorted(by_kind.items())),
        "final_ranking": [{"place": line.rank, "no": line.no, "name": line.name} for line in final.lines],
        # who has no place: a round robin annuls the games of a player who withdrew before half of them
        # (docs/formats.md, withdrawal), and a player who plays but is not ranked (计成绩不计名次)
        "unranked": [
            {"no": e.no, "status": e.status.value}
            for e in state.entrants
            if e.no not in {line.no for line in final.lines}
        ],
    }


def _round_robin_rests(state: Any) -> int:
    rests = 0
    for b in state.begun:
        if b.kind is not StageKind.ROUND_ROBIN:
            continue
        for pool in b.pools():
            if len(pool) % 2:
                stage = state.format.stages[b.index]
                cycles = stage.cycles if stage.kind is StageKind.ROUND_ROBIN else 1
                rests += len(schedule(len(pool), cycles))
    return rests


def hard_rule_breaks(db: Database) -> list[str]:
    """Every broken hard rule of a finished group, named (an empty list for a sound event):

    * nobody plays twice in a round;
    * Swiss stages: no rematch (H1), at most one bye (H4), never the same colour three times running and
      never more than two colours apart (H3; or the limits the regulation sets);
    * round robins: every pair of a table meets once a cycle, with the table's colours (second cycle
      swapped), every player sitting out as the table says;
    * knockouts: a match is played by the players the bracket puts there, and nobody plays on after being
      knocked out; places 1 … n with no tie.
    """
    from app.engine.round_robin import units_round
    from app.services.knockout import bracket_of
    from app.services.rounds import group_state
    from app.services.stages import plan_of
    from app.services.standings import final_standings

    state = group_state(db, GROUP)
    plans = plan_of(state)
    out: list[str] = []
    bracket = bracket_of(db, GROUP)
    from app.services.tournaments import load_regulations

    pairing = load_regulations(db).pairing
    run, apart = pairing.colour_run_limit, pairing.colour_difference_limit
    knockout_seats: dict[int, list[int]] = {}
    if bracket is not None:
        for m in bracket.matches:
            if m.games:
                knockout_seats.setdefault(m.round_number, []).extend(m.players)
    for r in state.rounds:
        seated = (
            [p for g in r.games for p in (g.red, g.black)] + list(r.byes) + knockout_seats.get(r.number, [])
        )
        twice = sorted(p for p, n in Counter(seated).items() if n > 1)
        if twice:
            out.append(f"第{r.number}轮 {twice} 号一轮出场两次")
    swiss_rounds = {
        n
        for p in plans
        if p.stage.kind is StageKind.SWISS and p.rounds
        for n in range(p.first_round, p.last_round + 1)
    }
    elsewhere: dict[int, set[int]] = {}  # round → players of a round robin or knockout played in it
    for b in state.begun:
        if b.kind is StageKind.SWISS:
            continue
        p = plans[b.index]
        for n in range(p.first_round, p.last_round + 1):
            elsewhere.setdefault(n, set()).update(b.players)
    history: dict[int, list[str]] = {}
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    for r in sorted(state.rounds, key=lambda r: r.number):
        if r.number not in swiss_rounds:
            continue
        other = elsewhere.get(r.number, set())
        for g in r.games:
            if g.red in other or g.black in other:
                continue
            pair = frozenset((g.red, g.black))
            if pair in met:
                out.append(f"第{r.number}轮 {g.red} 与 {g.black} 重复对局（H1）")
            met.add(pair)
            if g.result.played_over_board:
                history.setdefault(g.red, []).append("R")
                history.setdefault(g.black, []).append("B")
        for no in r.byes:
            byes[no] += 1
            if byes[no] > 1:
                out.append(f"{no} 号第二次轮空（H4）")
        for no, seq in history.items():
            tail = "".join(seq[-(run + 1) :])
            if tail in ("R" * (run + 1), "B" * (run + 1)) or abs(seq.count("R") - seq.count("B")) > apart:
                out.append(f"第{r.number}轮后 {no} 号先后手违反 H3（{''.join(seq)}）")
                history[no] = seq[-run:]  # report each break once
    for b in state.begun:
        if b.kind is not StageKind.ROUND_ROBIN:
            continue
        plan = plans[b.index]
        stage = state.format.stages[b.index]
        cycles = stage.cycles if stage.kind is StageKind.ROUND_ROBIN else 1
        games = {
            (r.number, frozenset((g.red, g.black))): (g.red, g.black)
            for r in state.rounds
            if plan.first_round <= r.number <= plan.last_round
            for g in r.games
        }
        for members in b.pools():
            if len(members) < 2:
                continue
            numbers = {e.no: e.number for e in members}
            swap = stage.kind is StageKind.ROUND_ROBIN and stage.swap_last_rounds
            for k in range(1, len(schedule(len(members), cycles)) + 1):
                pairs, _bye = units_round(numbers, k, cycles, swap)
                for red, black in pairs:
                    got = games.get((plan.first_round + k - 1, frozenset((red, black))))
                    if got is None:
                        gone = {e.no for e in state.entrants if e.status.value != "active"}
                        if red in gone or black in gone:
                            continue  # a withdrawn player's annulled game is not played
                        out.append(f"循环赛第{k}轮 {red} 对 {black} 未按对局秩序表编排")
                    elif got != (red, black):
                        out.append(f"循环赛第{k}轮 {red} 对 {black} 先后手与对局秩序表不符")
    if bracket is not None:
        losses: Counter[int] = Counter()
        allowed = 2 if bracket.elimination.value == "double" else 1
        for match_plan, m in zip(bracket.plans, bracket.matches, strict=True):
            if match_plan.code == "3RD" or match_plan.code.startswith("P") or not m.games:
                continue
            for who in m.players:
                if losses[who] >= allowed:
                    out.append(f"{who} 号被淘汰后又下了 {match_plan.code}")
            res = bracket.result(m.code)
            if res is not None and res.loser is not None:
                losses[res.loser] += 1
    ranks = [line.rank for line in final_standings(db, GROUP).lines]
    if ranks != list(range(1, len(ranks) + 1)):
        out.append("最终名次有并列或空缺")
    return out
