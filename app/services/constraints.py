"""Pairing constraints beyond teams: the named pairs the arbiter keeps apart (家属回避 …) and the
avoidances in force in a round (the regulation's unit / region rules with them), for the pairing, the
overrides' warnings and the window.

Named pairs are stored in ``pair_avoidances`` (both players of one group, each pair once); every change
is logged. The rules themselves are in :mod:`app.engine.pairing.constraints`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Group, PairAvoidance, Player, Round, Team
from app.db.session import Database
from app.engine.pairing.constraints import RoundConstraints
from app.engine.regulations import AvoidanceStrength, Regulations
from app.engine.types import UserError
from app.services import audit
from app.services.discipline import player_row
from app.services.pairing_plan import constraints_from_rows
from app.services.tournaments import group_row, regulations_of


@dataclass(frozen=True, slots=True)
class PairAvoidanceView:
    group: str
    first: int
    first_name: str
    second: int
    second_name: str
    strength: AvoidanceStrength
    from_round: int
    to_round: int
    reason: str

    @property
    def rounds_zh(self) -> str:
        if self.to_round == 0:
            return "每轮" if self.from_round == 1 else f"第{self.from_round}轮起"
        return f"第{self.from_round}—{self.to_round}轮"

    def as_json(self) -> dict[str, object]:
        return {
            "group": self.group,
            "first": self.first,
            "second": self.second,
            "strength": self.strength.value,
            "from_round": self.from_round,
            "to_round": self.to_round,
            "reason": self.reason,
        }


def _strength(value: AvoidanceStrength | str) -> AvoidanceStrength:
    if isinstance(value, AvoidanceStrength):
        return value
    try:
        return AvoidanceStrength(value)
    except ValueError:
        raise UserError(
            f"回避强度“{value}”无效（absolute 绝对回避 或 weak 尽量回避）",
            f"invalid strength {value!r} (absolute or weak)",
        ) from None


def _pair(s: Session, g: Group, first: int, second: int) -> tuple[Player, Player]:
    if first == second:
        raise UserError("回避须是两名不同的棋手", "an avoidance needs two different players")
    a, b = player_row(s, g, first), player_row(s, g, second)
    return (a, b) if (a.no or 0) < (b.no or 0) else (b, a)


def add_pair_avoidance(
    db: Database,
    group: str,
    first: int,
    second: int,
    strength: AvoidanceStrength | str = AvoidanceStrength.ABSOLUTE,
    *,
    from_round: int = 1,
    to_round: int = 0,
    reason: str = "",
    who: str = audit.DEFAULT_ARBITER,
) -> int:
    """Keep players ``first`` and ``second`` of ``group`` apart in rounds ``from_round``..``to_round``
    (0 = to the last round): absolutely or weakly. Refused for a pair already listed, for a reversed
    range and for a range whose every round is already paired (it could never apply); logged.
    Returns the first round it can still apply to (later than ``from_round`` when rounds of the
    range are already paired: their pairings stand)."""
    level = _strength(strength)
    reason = audit.clean_reason(reason)
    if to_round and to_round < from_round:
        raise UserError(
            f"回避轮次无效：至第 {to_round} 轮早于自第 {from_round} 轮",
            f"invalid rounds: the last round {to_round} is before the first round {from_round}",
        )
    with db.session() as s:
        reg = regulations_of(s)
        g = group_row(s, group)
        rounds = reg.group(group).rounds
        if not 1 <= from_round <= rounds or not (to_round == 0 or from_round <= to_round <= rounds):
            raise UserError(
                f"回避轮次应在第 1—{rounds} 轮之间（至第 0 轮表示到最后一轮）",
                f"the rounds must lie within 1-{rounds} (to round 0 = the last)",
            )
        paired = s.scalar(select(func.max(Round.number)).where(Round.group_id == g.id)) or 0
        last = to_round or rounds
        if last <= paired:
            raise UserError(
                f"第 {from_round}—{last} 轮都已编排，这条回避不会再起作用（已编排的轮次不会改变）；"
                f"可从第 {paired + 1} 轮起设回避",
                f"rounds {from_round}-{last} are all already paired: the avoidance could never apply "
                f"(paired rounds do not change); it can start from round {paired + 1}",
            )
        a, b = _pair(s, g, first, second)
        exists = s.scalars(
            select(PairAvoidance).where(PairAvoidance.first_id == a.id, PairAvoidance.second_id == b.id)
        ).one_or_none()
        if exists is not None:
            raise UserError(
                f"{a.no} 号与 {b.no} 号已设回避，请先删除再重设",
                f"{a.no} and {b.no} already avoid each other",
            )
        s.add(
            PairAvoidance(
                first_id=a.id,
                second_id=b.id,
                strength=level.value,
                from_round=from_round,
                to_round=to_round,
                reason=reason,
                created_at=datetime.now().replace(microsecond=0),
            )
        )
        audit.record(
            s,
            "add_pair_avoidance",
            entity=f"{group} {a.no}号 {a.name} — {b.no}号 {b.name}",
            after={"strength": level.value, "from_round": from_round, "to_round": to_round},
            reason=reason,
            who=who,
        )
    return max(from_round, paired + 1)


def remove_pair_avoidance(
    db: Database, group: str, first: int, second: int, *, reason: str = "", who: str = audit.DEFAULT_ARBITER
) -> PairAvoidanceView:
    """Remove a named pair's avoidance (rounds already paired keep their pairing); returns what it was."""
    with db.session() as s:
        g = group_row(s, group)
        a, b = _pair(s, g, first, second)
        row = s.scalars(
            select(PairAvoidance).where(PairAvoidance.first_id == a.id, PairAvoidance.second_id == b.id)
        ).one_or_none()
        if row is None:
            raise UserError(f"{a.no} 号与 {b.no} 号没有设回避", f"{a.no} and {b.no} have no avoidance")
        view = _view(g.name, row, a, b)
        s.delete(row)
        audit.record(
            s,
            "remove_pair_avoidance",
            entity=f"{group} {a.no}号 {a.name} — {b.no}号 {b.name}",
            before=view.as_json(),
            reason=reason,
            who=who,
        )
        return view


def _view(group: str, row: PairAvoidance, a: Player, b: Player) -> PairAvoidanceView:
    return PairAvoidanceView(
        group,
        a.no or 0,
        a.name,
        b.no or 0,
        b.name,
        AvoidanceStrength(row.strength),
        row.from_round,
        row.to_round,
        row.reason,
    )


def pair_avoidances(db: Database, group: str) -> list[PairAvoidanceView]:
    with db.session() as s:
        g = group_row(s, group)
        return _pair_rows(s, g)


def _pair_rows(s: Session, g: Group) -> list[PairAvoidanceView]:
    out = []
    for row in s.scalars(
        select(PairAvoidance)
        .join(Player, PairAvoidance.first_id == Player.id)
        .where(Player.group_id == g.id)
        .order_by(PairAvoidance.id)
    ):
        out.append(_view(g.name, row, row.first, row.second))
    return sorted(out, key=lambda v: (v.first, v.second))


def constraints_in_round(s: Session, g: Group, reg: Regulations, round_number: int) -> RoundConstraints:
    """The avoidances in force in ``round_number`` of the group: the regulation's unit and region rules
    (on each player's unit — the team's name where no unit is given — and region) and the named pairs."""
    teams = dict(s.execute(select(Team.id, Team.name).where(Team.group_id == g.id)).all())
    players = [
        (no, unit, teams.get(team_id, "") if team_id else "", region)
        for no, unit, team_id, region in s.execute(
            select(Player.no, Player.unit, Player.team_id, Player.region).where(
                Player.group_id == g.id, Player.no.is_not(None)
            )
        )
        if no is not None
    ]
    named = [
        (v.first, v.second, v.strength.value, v.from_round, v.to_round, v.reason) for v in _pair_rows(s, g)
    ]
    return constraints_from_rows(reg, round_number, players, named)


def round_constraints_of(db: Database, group: str, round_number: int) -> RoundConstraints:
    with db.session() as s:
        return constraints_in_round(s, group_row(s, group), regulations_of(s), round_number)
