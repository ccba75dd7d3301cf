"""``xqarbiter pair`` without SQLAlchemy: the common case of :func:`app.services.rounds.pair_next_round`.

The command line starts a process per command; SQLAlchemy and its ORM take ~0.25 s to import, ten
times a 160-player pairing. This path reads the group with :mod:`sqlite3` (:mod:`app.db.lite`), pairs it
with the same engine and the same helpers (:mod:`app.services.pairing_plan`), and writes the same rows
in one transaction, with the same audit line and automatic backup. It handles only the plain case — a
Swiss round before any knockout, previous round complete, every player numbered, no one to withdraw for
consecutive forfeits, order by sequence number, the file at the newest schema — and returns None for
anything else, so that the full service decides (and refuses with its own messages). Issue 16's data
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

from app.db.lite import LiteFile, read_group_state, stored_datetime, stored_json
from app.engine.pairing import Pairing, pair_round
from app.engine.pairing.constraints import RoundConstraints
from app.engine.regulations import Regulations, ScoreGroupOrder
from app.engine.types import GameResult, PlayerStatus, RoundStage, UserError
from app.services.pairing_plan import (
    PairingOutcome,
    audit_after,
    audit_text,
    constraints_from_rows,
    explanation_of,
    forfeit_streaks,
    new_pairing_seed,
    next_swiss_round,
    pool_for,
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
        now = stored_datetime(datetime.now().replace(microsecond=0))
        con.execute("BEGIN IMMEDIATE")
        try:
            round_id = con.execute(
                "INSERT INTO rounds (group_id, number, stage, seed, paired_at, closed_at, explanation) "
                "VALUES (?, ?, ?, ?, ?, NULL, ?)",
                (
                    group_id,
                    number,
                    RoundStage.SWISS.value,
                    used_seed,
                    now,
                    stored_json(explanation_of(pairing, 0)),
                ),
            ).lastrowid
            con.executemany(
                "INSERT INTO games (round_id, board, game_no, red_id, black_id, result, match_id, kind) "
                "VALUES (?, ?, 1, ?, ?, ?, NULL, 'swiss')",
                [
                    (round_id, g.board, ids[g.red], ids[g.black], GameResult.PENDING.value)
                    for g in pairing.games
                ],
            )
            if pairing.bye is not None:
                con.execute(
                    "INSERT INTO byes (round_id, player_id) VALUES (?, ?)", (round_id, ids[pairing.bye])
                )
            con.execute(
                "INSERT INTO audit_log (at, who, action, entity, before, after, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    now,
                    who,
                    "pair_round",
                    f"{group} 第{number}轮",
                    "",
                    audit_text(audit_after(pairing, used_seed)),
                    "",
                ),
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
    number = next_swiss_round(state)
    if number > fmt.first_swiss_rounds:  # another stage (a knockout, a round robin …): the full service
        return None
    if number > 1:
        previous = next((r for r in state.rounds if r.number == number - 1), None)
        if previous is None or any(g.result is GameResult.PENDING for g in previous.games):
            return None
    if con.execute(
        "SELECT 1 FROM players WHERE group_id = ? AND no IS NULL AND status = ? LIMIT 1",
        (group_id, PlayerStatus.ACTIVE.value),
    ).fetchone():
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
