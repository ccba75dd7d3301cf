"""Absence and re-entry: excuse a player for one round (请假), let a withdrawn player play
again (恢复参赛), and list the late entries (后报名) with what their missed rounds gave them.

The rules are in :mod:`app.engine.attendance`; the pairing service leaves the excused players out of
their round, and the ranking reads the absences from every group's state. Every action is logged.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.mapping import load_group_state
from app.db.models import Absence, Group, Player, Round
from app.db.session import Database
from app.engine.event import GroupState
from app.engine.types import AbsenceKind, PlayerStatus, UserError
from app.services import audit
from app.services.brackets import knockout_players
from app.services.discipline import player_row
from app.services.tournaments import group_row, regulations_of


@dataclass(frozen=True, slots=True)
class AbsenceView:
    """An absence as the window, the CLI and the prints show it."""

    group: str
    no: int
    name: str
    round: int
    kind: AbsenceKind
    points: int
    reason: str = ""

    def as_json(self) -> dict[str, object]:
        return {
            "group": self.group,
            "no": self.no,
            "name": self.name,
            "round": self.round,
            "kind": self.kind.value,
            "points": self.points,
            "reason": self.reason,
        }


def _now() -> datetime:
    return datetime.now().replace(microsecond=0)


def _reason(text: str) -> str:
    return audit.clean_reason(text, required=True)


def _last_round(s: Session, g: Group) -> int:
    numbers = list(s.scalars(select(Round.number).where(Round.group_id == g.id)))
    return max(numbers, default=0)


def _round_paired(s: Session, g: Group, number: int) -> bool:
    """Whether the round's Swiss pairing exists (a knockout round alone does not count)."""
    rnd = s.scalars(select(Round).where(Round.group_id == g.id, Round.number == number)).one_or_none()
    if rnd is None:
        return False
    return bool(rnd.byes) or any(gm.kind == "swiss" for gm in rnd.games)


def excuse_absence(
    db: Database,
    group: str,
    no: int,
    round_number: int,
    reason: str,
    *,
    who: str = audit.DEFAULT_ARBITER,
) -> None:
    """Excuse player ``no`` from round ``round_number`` (请假): not paired, 0 points, no forfeit.

    Only for a round whose Swiss pairing does not exist yet, and for a player who is still in the
    event (not withdrawn or disqualified) and not in the knockout in that round (a knockout game
    missed is a forfeit). The reason is required and logged.
    """
    why = _reason(reason)
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        fmt = reg.group(group)
        p = player_row(s, g, no)
        if not 1 <= round_number <= fmt.rounds:
            raise UserError(f"{group}只有第 1—{fmt.rounds} 轮", f"{group} has rounds 1-{fmt.rounds} only")
        if _round_paired(s, g, round_number):
            raise UserError(
                f"{group}第 {round_number} 轮已编排，不能再请假；请撤销编排后再请假，或按弃权处理",
                f"{group} round {round_number} is paired: unpair it first, or enter a forfeit",
            )
        if p.status != PlayerStatus.ACTIVE.value:
            raise UserError(f"{p.no} 号 {p.name}已不在赛（退赛或取消资格）", f"player {p.no} is not active")
        ko = knockout_players(s, g, reg)
        if ko is not None and no in ko.players and round_number > ko.split_round:
            raise UserError(
                f"{p.no} 号 {p.name}在第 {round_number} 轮参加淘汰赛，不能请假（缺赛按弃权处理）",
                f"player {p.no} plays the knockout in round {round_number}: a missed match is a forfeit",
            )
        exists = s.scalars(
            select(Absence).where(Absence.player_id == p.id, Absence.round_number == round_number)
        ).one_or_none()
        if exists is not None:
            raise UserError(
                f"{p.no} 号 {p.name}第 {round_number} 轮已请假",
                f"player {p.no} is already excused from round {round_number}",
            )
        s.add(Absence(player_id=p.id, round_number=round_number, reason=why, created_at=_now()))
        audit.record(
            s,
            "excuse_absence",
            entity=f"{group} {p.no}号 {p.name}",
            after={"round": round_number},
            reason=why,
            who=who,
        )


def cancel_absence(
    db: Database,
    group: str,
    no: int,
    round_number: int,
    *,
    reason: str = "",
    who: str = audit.DEFAULT_ARBITER,
) -> None:
    """Withdraw an excused absence, only while its round is not paired (afterwards it is history)."""
    with db.session() as s:
        g = group_row(s, group)
        p = player_row(s, g, no)
        row = s.scalars(
            select(Absence).where(Absence.player_id == p.id, Absence.round_number == round_number)
        ).one_or_none()
        if row is None:
            raise UserError(
                f"{p.no} 号 {p.name}第 {round_number} 轮没有请假",
                f"player {p.no} is not excused from round {round_number}",
            )
        if _round_paired(s, g, round_number):
            raise UserError(
                f"第 {round_number} 轮已编排，请假记录不能再取消",
                f"round {round_number} is paired: its absences can no longer be cancelled",
            )
        before = {"round": round_number, "reason": row.reason}
        s.delete(row)
        audit.record(
            s, "cancel_absence", entity=f"{group} {p.no}号 {p.name}", before=before, reason=reason, who=who
        )


def absences(db: Database, group: str) -> list[AbsenceView]:
    """Every absence of the group: excused ones (paired rounds and future ones) and late entries' rounds."""
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        state = load_group_state(s, g, reg)
        reasons = {
            (no, number): reason
            for no, number, reason in s.execute(
                select(Player.no, Absence.round_number, Absence.reason)
                .join(Player, Absence.player_id == Player.id)
                .where(Player.group_id == g.id)
            )
            if no is not None
        }
    return absence_views(state, reasons)


def absence_views(state: GroupState, reasons: dict[tuple[int, int], str]) -> list[AbsenceView]:
    names = {e.no: e.name for e in state.entrants}
    out: dict[tuple[int, int], AbsenceView] = {}
    for r in state.rounds:
        for a in r.absent:
            out[(a.no, r.number)] = AbsenceView(
                state.name,
                a.no,
                names.get(a.no, ""),
                r.number,
                a.kind,
                a.points,
                reasons.get((a.no, r.number), ""),
            )
    for no, number in state.excused:  # rounds not paired yet
        out.setdefault(
            (no, number),
            AbsenceView(
                state.name,
                no,
                names.get(no, ""),
                number,
                AbsenceKind.EXCUSED,
                0,
                reasons.get((no, number), ""),
            ),
        )
    return sorted(out.values(), key=lambda a: (a.round, a.no))


def reenter_player(
    db: Database,
    player_id: int,
    *,
    reason: str,
    from_round: int | None = None,
    who: str = audit.DEFAULT_ARBITER,
) -> int:
    """A withdrawn player plays again (恢复参赛), from ``from_round`` (default: the next round to pair).

    Refused for a disqualified player (取消成绩 is final), for a player not withdrawn, and for a
    round already paired. Results of the rounds missed stand (0 points, no opponent); a run of
    forfeits completed before the re-entry does not withdraw the player again. Returns the round.
    """
    why = _reason(reason)
    with db.session() as s:
        p = s.get(Player, player_id)
        if p is None:
            raise UserError(f"没有编号为 {player_id} 的棋手", f"no player with id {player_id}")
        if p.status == PlayerStatus.DISQUALIFIED.value:
            raise UserError(
                f"{p.name}已被取消资格，不能恢复参赛", f"{p.name} is disqualified and cannot re-enter"
            )
        if p.status != PlayerStatus.WITHDRAWN.value:
            raise UserError(f"{p.name}不是退赛状态", f"{p.name} is not withdrawn")
        reg = regulations_of(s)
        g = p.group
        last = _last_round(s, g)
        first = last + 1 if from_round is None else from_round
        if first <= last and _round_paired(s, g, first):
            raise UserError(
                f"第 {first} 轮已编排，只能从第 {last + 1} 轮起恢复参赛",
                f"round {first} is paired: re-entry from round {last + 1} at the earliest",
            )
        rounds = reg.group(g.name).rounds
        if not 1 <= first <= rounds:
            raise UserError(
                f"恢复参赛的轮次应在 1—{rounds} 之间", f"the round of re-entry must be 1-{rounds}"
            )
        before = {"status": p.status, "status_round": p.status_round, "reentry_round": p.reentry_round}
        p.status, p.status_round, p.reentry_round = PlayerStatus.ACTIVE.value, None, first
        audit.record(
            s,
            "reenter_player",
            entity=f"{g.name} {p.no}号 {p.name}",
            before=before,
            after={"status": p.status, "reentry_round": first},
            reason=why,
            who=who,
        )
        return first


def undo_reentry(
    db: Database, player_id: int, before: dict[str, object], *, who: str = audit.DEFAULT_ARBITER
) -> None:
    """Put back the withdrawal a re-entry replaced (the window's undo), logged like any change."""
    with db.session() as s:
        p = s.get(Player, player_id)
        if p is None:
            raise UserError(f"没有编号为 {player_id} 的棋手", f"no player with id {player_id}")
        status_round = before.get("status_round")
        reentry = before.get("reentry_round")
        p.status = PlayerStatus.WITHDRAWN.value
        p.status_round = status_round if isinstance(status_round, int) else None
        p.reentry_round = reentry if isinstance(reentry, int) else None
        audit.record(s, "undo_reenter_player", entity=f"{p.group.name} {p.no}号 {p.name}", who=who)
