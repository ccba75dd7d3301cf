"""``xqarbiter pair`` without SQLAlchemy: the common case of :func:`app.services.rounds.pair_next_round`.

The command line starts a process per command; SQLAlchemy and its ORM take ~0.25 s to import, ten
times a 160-player pairing. This path reads the group with :mod:`sqlite3` (:mod:`app.db.lite`), pairs it
with the same engine and the same helpers (:mod:`app.services.pairing_plan`: the same preconditions,
pool and stored explanation), and writes the same rows — columns and defaults taken from the models'
tables (:mod:`app.db.tables`) — in one transaction, with the same audit line and automatic backup. It handles only the plain case — a
Swiss round before any knockout, previous round complete, every player numbered, no one to withdraw for
consecutive forfeits, order by sequence number, the file at the newest schema — and returns None for
anything else, so that the full service decides (and refuses with its own messages). The absences, late entries, re-entries and avoidances
are read as the full service reads them: the group's state through the same row assembly
(:mod:`app.db.group_rows`: excused absences, late entries' compensation, re-entries) and the same
avoidances (:func:`app.services.pairing_plan.constraints_from_rows`), so an excused player is left out
and a constraint decides the same way on both paths. A test pairs copies of the same files — with
and without that data — both ways and compares every row.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

from app.db.lite import LiteFile, insert_rows, read_group_state
from app.engine.pairing import Pairing, pair_round
from app.engine.pairing.constraints import RoundConstraints
from app.engine.regulations import Regulations, RoundOnePairing, ScoreGroupOrder
from app.engine.types import GameResult, PlayerStatus, RoundStage, UserError
from app.services.pairing_plan import (
    PairingOutcome,
    after_split,
    audit_after,
    audit_text,
    constraints_from_rows,
    explanation_of,
    forfeit_streaks,
    new_pairing_seed,
    pool_for,
    round_to_pair,
)

DEFAULT_ARBITER = "裁判长"  # app.services.audit.DEFAULT_ARBITER (not imported: it loads SQLAlchemy)


def pair_next_round_lite(
    path: Path | str, group: str, *, seed: int | None = None, who: str = DEFAULT_ARBITER
) -> PairingOutcome | None:
    """Pair and store the group's next Swiss round as ``pair_next_round`` would, or None (use it)."""
    lite = LiteFile.open(path)
    if lite is None:
        return None
    with lite:
        try:
            plan = _plan(lite, group, seed)
        except (sqlite3.DatabaseError, ValueError, KeyError, TypeError, UnicodeDecodeError):
            return None  # a value it cannot read: the full path checks every value and says what is wrong
        if plan is None:
            return None
        con, group_id, number, used_seed, pairing = plan
        ids = dict(
            con.execute("SELECT no, id FROM players WHERE group_id = ? AND no IS NOT NULL", (group_id,))
        )
        now = datetime.now().replace(microsecond=0)
        con.execute("BEGIN IMMEDIATE")
        try:  # the same rows as the full service: columns and defaults from the models (app.db.tables)
            round_id = insert_rows(
                con,
                "rounds",
                [
                    {
                        "group_id": group_id,
                        "number": number,
                        "stage": RoundStage.SWISS.value,
                        "seed": used_seed,
                        "paired_at": now,
                        "explanation": explanation_of(pairing, 0),
                    }
                ],
            )
            insert_rows(
                con,
                "games",
                [
                    {
                        "round_id": round_id,
                        "board": g.board,
                        "red_id": ids[g.red],
                        "black_id": ids[g.black],
                        "result": GameResult.PENDING.value,
                        "kind": "swiss",
                    }
                    for g in pairing.games
                ],
            )
            if pairing.bye is not None:
                insert_rows(con, "byes", [{"round_id": round_id, "player_id": ids[pairing.bye]}])
            insert_rows(
                con,
                "audit_log",
                [
                    {
                        "at": now,
                        "who": who,
                        "action": "pair_round",
                        "entity": f"{group} 第{number}轮",
                        "before": "",
                        "after": audit_text(audit_after(pairing, used_seed)),
                        "reason": "",
                    }
                ],
            )
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    warning = _backup(Path(path), f"paired-{group}-r{number}")
    return PairingOutcome(group, number, len(pairing.games), pairing.bye, used_seed, (), warning)


def _backup(path: Path, event: str) -> str:
    """As :func:`app.services.backups.automatic_backup`: a failure is reported, never undoes the pairing."""
    from app.services.backups import make_backup, prune_backups

    try:
        make_backup(path, event)
        prune_backups(path)
    except UserError as exc:
        return f"已保存，但自动备份失败：{exc}"
    return ""


def _plan(
    lite: LiteFile, group: str, seed: int | None
) -> tuple[sqlite3.Connection, int, int, int, Pairing] | None:
    """Read the group and pair it, or None where the plain case does not apply (nothing is written)."""
    used_seed = new_pairing_seed() if seed is None else seed
    reg = lite.regulations()
    group_id = lite.group_id(group)
    if reg is None or group_id is None or reg.pairing.score_group_order is not ScoreGroupOrder.SEQUENCE:
        return None
    con = lite.con
    fmt = reg.group(group)
    if fmt.team_event is not None:  # a team competition: the full service says how it is paired
        return None
    state = read_group_state(con, group_id, group, reg)
    unnumbered = [
        name
        for (name,) in con.execute(
            "SELECT name FROM players WHERE group_id = ? AND no IS NULL AND status = ? ORDER BY id",
            (group_id, PlayerStatus.ACTIVE.value),
        )
    ]
    try:
        number = round_to_pair(group, state, fmt, unnumbered)  # the full service refuses, with its message
    except UserError:
        return None
    if after_split(fmt, number):
        return None
    if number == 1 and reg.pairing.round_one is not RoundOnePairing.HALVES:  # by lot or neighbours
        return None
    if (
        con.execute("SELECT 1 FROM rounds WHERE group_id = ? AND number = ?", (group_id, number)).fetchone()
        or con.execute("SELECT 1 FROM knockout_matches WHERE group_id = ? LIMIT 1", (group_id,)).fetchone()
    ):
        return None
    if forfeit_streaks(state, reg):  # someone to withdraw first: the full service does it (and logs it)
        return None
    try:
        pool = pool_for(state, reg, number, set(), None)  # less the excused (请假), as the full service
    except UserError:
        return None
    constraints = _constraints(con, group_id, reg, number)  # 同单位 / 同地区 / 指定回避, as the full service
    pairing = pair_round(pool, number, reg.pairing, used_seed, constraints)
    return con, group_id, number, used_seed, pairing


def _constraints(con: sqlite3.Connection, group_id: int, reg: Regulations, number: int) -> RoundConstraints:
    """The avoidances in force, read as :func:`app.services.constraints.constraints_in_round` reads them."""
    teams = dict(con.execute("SELECT id, name FROM teams WHERE group_id = ?", (group_id,)).fetchall())
    players = [
        (no, unit, teams.get(team_id, "") if team_id else "", region)
        for no, unit, team_id, region in con.execute(
            "SELECT no, unit, team_id, region FROM players WHERE group_id = ? AND no IS NOT NULL", (group_id,)
        )
    ]
    named = con.execute(
        "SELECT a.no, b.no, v.strength, v.from_round, v.to_round, v.reason FROM pair_avoidances v "
        "JOIN players a ON a.id = v.first_id JOIN players b ON b.id = v.second_id "
        "WHERE a.group_id = ? AND a.no IS NOT NULL AND b.no IS NOT NULL ORDER BY v.id",
        (group_id,),
    ).fetchall()
    return constraints_from_rows(reg, number, players, named)
