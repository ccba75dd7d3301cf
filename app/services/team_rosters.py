"""Editing a team competition's rosters (队伍名单) one step at a time, as the window's roster editor does:
a player put into a team or taken out, moved up or down the registered order (报名顺序), marked a reserve
(替补) or not, the team's number (队号) set by hand, its name changed; captain and leader go through
:func:`app.services.team_events.set_team_details`.

The rules held here (each refusal names it):

* a player belongs to one team (一名棋手不能为两个队报名);
* a team registers ``roster_min``–``roster_max`` players (the regulation's ``team_event``): more than the
  maximum is refused; fewer than the minimum is refused once the team numbers are drawn (before the draw
  a roster is being built; the draw itself checks every team's size);
* the reserves stand after the players registered before them (替补排在最后);
* once round 1 is paired the registered order, the rosters and the team numbers are fixed (a line-up
  keeps the registered order, and every player's number says team and order); name, captain and leader
  may still change.

Every step is written to the audit log. :func:`roster_state` and :func:`restore_roster_state` let the window
undo a step: the state before it is put back where it differs from the state after it.

After each step the team's players are renumbered (team × 100 + registered order) when the team has a
number, so a number keeps saying the team and the board order.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Group, Player, Team
from app.db.session import Database
from app.engine.team_rules import TeamEvent
from app.engine.types import PlayerStatus, UserError
from app.services import audit
from app.services.team_events import NUMBER_BASE, _roster, _rounds, _team, _teams, team_event_of
from app.services.tournaments import group_row, regulations_of

__all__ = [
    "RosterState",
    "add_to_team",
    "move_in_roster",
    "player_by_name",
    "remove_from_team",
    "rename_team",
    "restore_roster_state",
    "roster_state",
    "set_reserve",
    "set_team_number",
    "unassigned_players",
]


@dataclass(frozen=True, slots=True)
class RosterState:
    """What the roster steps change, for undo: per team (id → name, number, captain, leader) and per
    player of the group (id → team id, registered order, reserve, number)."""

    teams: dict[int, tuple[str, int | None, str, str]]
    players: dict[int, tuple[int | None, int | None, bool, int | None]]


def _state(s: Session, g: Group) -> RosterState:
    teams = {t.id: (t.name, t.no, t.captain, t.leader) for t in _teams(s, g)}
    players = {
        p.id: (p.team_id, p.team_order, p.reserve, p.no)
        for p in s.scalars(select(Player).where(Player.group_id == g.id))
    }
    return RosterState(teams, players)


def roster_state(db: Database, group: str) -> RosterState:
    with db.session() as s:
        return _state(s, group_row(s, group))


def _fixed(s: Session, g: Group) -> bool:
    return bool(_rounds(s, g))


def _refuse_if_paired(s: Session, g: Group, what_zh: str, what_en: str) -> None:
    if _fixed(s, g):
        raise UserError(
            f"{g.name}第 1 轮已编排，{what_zh}（规则：第 1 轮编排后报名顺序和队号不再改变）",
            f"round 1 of {g.name} is paired: {what_en} (rule: the registered order and team numbers are "
            "fixed once round 1 is paired)",
        )


def _event(s: Session, g: Group) -> TeamEvent:
    return team_event_of(regulations_of(s), g.name)


def _player(s: Session, g: Group, player_id: int) -> Player:
    p = s.get(Player, player_id)
    if p is None or p.group_id != g.id:
        raise UserError(f"{g.name}没有这名棋手（编号 {player_id}）", f"{g.name} has no player {player_id}")
    return p


def _reorder(s: Session, g: Group, team: Team, members: list[Player]) -> None:
    """``members`` in their new order (main players first, reserves last): registered order 1 … n, and
    numbers team × 100 + order once the team has a number."""
    main = [p for p in members if not p.reserve]
    reserves = [p for p in members if p.reserve]
    ordered = [*main, *reserves]
    for p in ordered:
        p.no = None
    s.flush()
    for i, p in enumerate(ordered, start=1):
        p.team_order = i
        if team.no is not None and p.status == PlayerStatus.ACTIVE.value:
            p.no = team.no * NUMBER_BASE + i
    s.flush()


def _label(members: list[Player]) -> str:
    return "、".join(f"{p.name}{'（替补）' if p.reserve else ''}" for p in members)


def _record(s: Session, g: Group, t: Team, action: str, before: str, after: str, who: str) -> None:
    audit.record(s, action, entity=f"{g.name}/{t.name}", before=before, after=after, who=who)


def unassigned_players(db: Database, group: str) -> list[tuple[int, str]]:
    """The group's players in no team (id, name), by registration: those a roster can take."""
    with db.session() as s:
        g = group_row(s, group)
        rows = s.scalars(
            select(Player).where(Player.group_id == g.id, Player.team_id.is_(None)).order_by(Player.id)
        )
        return [(p.id, p.name) for p in rows]


def player_by_name(db: Database, group: str, text: str) -> int:
    """The player of the group called ``text`` (or with that registration id or number): the one in no
    team where several share the name; refused when none, or when it stays ambiguous."""
    with db.session() as s:
        g = group_row(s, group)
        players = list(s.scalars(select(Player).where(Player.group_id == g.id).order_by(Player.id)))
        key = text.strip()
        hits = [p for p in players if p.name == key]
        if not hits and key.isdigit():
            hits = [p for p in players if p.no == int(key)] or [p for p in players if p.id == int(key)]
        free = [p for p in hits if p.team_id is None]
        if len(hits) > 1 and len(free) == 1:
            hits = free
        if not hits:
            raise UserError(f"{g.name}没有名为“{key}”的棋手", f"{g.name} has no player called {key!r}")
        if len(hits) > 1:
            raise UserError(
                f"{g.name}有 {len(hits)} 名棋手叫“{key}”，请输入序号",
                f"{g.name} has {len(hits)} players called {key!r}",
            )
        return hits[0].id


def add_to_team(
    db: Database,
    group: str,
    team: str,
    player_id: int,
    *,
    reserve: bool = False,
    who: str = audit.DEFAULT_ARBITER,
) -> str:
    """Put a player of the group into ``team``: after its main players (or last, as a reserve).
    Returns the roster after, as a line."""
    with db.session() as s:
        g = group_row(s, group)
        event = _event(s, g)
        t = _team(s, g, team)
        p = _player(s, g, player_id)
        if p.team_id == t.id:
            raise UserError(f"{p.name}已在{t.name}中", f"{p.name} is in {t.name} already")
        if p.team_id is not None:
            other = s.get(Team, p.team_id)
            raise UserError(
                f"{p.name}已为{other.name if other else '他队'}报名：一名棋手不能为两个队报名"
                "（请先从原队移出）",
                f"{p.name} is registered for {other.name if other else 'another team'}: nobody plays for "
                "two teams (take the player out of that team first)",
            )
        _refuse_if_paired(s, g, "不能再增加队员", "no player can be added")
        members = _roster(s, t)
        if len(members) + 1 > event.roster_max:
            raise UserError(
                f"{t.name}已有 {len(members)} 名队员：规程规定每队报名 {event.roster_min}–{event.roster_max} 人",
                f"{t.name} has {len(members)} players: the regulation allows {event.roster_min}-"
                f"{event.roster_max} a team",
            )
        before = _label(members)
        p.team_id = t.id
        p.reserve = reserve
        s.flush()
        _reorder(s, g, t, [*members, p])
        after = _label(_roster(s, t))
        _record(s, g, t, "team_roster_add", before, after, who)
        return after


def remove_from_team(
    db: Database, group: str, team: str, player_id: int, *, who: str = audit.DEFAULT_ARBITER
) -> str:
    """Take a player out of ``team`` (the player stays registered in the group, in no team)."""
    with db.session() as s:
        g = group_row(s, group)
        event = _event(s, g)
        t = _team(s, g, team)
        p = _player(s, g, player_id)
        if p.team_id != t.id:
            raise UserError(f"{p.name}不是{t.name}的队员", f"{p.name} is not in {t.name}")
        _refuse_if_paired(s, g, "不能再移出队员", "no player can be taken out")
        members = _roster(s, t)
        if t.no is not None and len(members) - 1 < event.roster_min:
            raise UserError(
                f"{t.name}只剩 {len(members) - 1} 人：规程规定每队报名 {event.roster_min}–{event.roster_max} 人"
                "（队号已抽，请先增加队员再移出）",
                f"{t.name} would keep {len(members) - 1}: the regulation wants {event.roster_min}-"
                f"{event.roster_max} a team (numbers are drawn: add a player first)",
            )
        before = _label(members)
        p.no = None
        p.team_id = None
        p.team_order = None
        p.reserve = False
        s.flush()
        _reorder(s, g, t, [m for m in members if m.id != p.id])
        after = _label(_roster(s, t))
        _record(s, g, t, "team_roster_remove", before, after, who)
        return after


def move_in_roster(
    db: Database, group: str, team: str, player_id: int, step: int, *, who: str = audit.DEFAULT_ARBITER
) -> str:
    """Move a player ``step`` places up (−1) or down (+1) the registered order, among the main players or
    among the reserves (a reserve stays after the main players: unmark it first)."""
    with db.session() as s:
        g = group_row(s, group)
        _event(s, g)
        t = _team(s, g, team)
        p = _player(s, g, player_id)
        if p.team_id != t.id:
            raise UserError(f"{p.name}不是{t.name}的队员", f"{p.name} is not in {t.name}")
        _refuse_if_paired(s, g, "报名顺序不能再改变", "the registered order is fixed")
        members = _roster(s, t)
        section = [m for m in members if m.reserve == p.reserve]
        i = section.index(p)
        j = i + step
        if not 0 <= j < len(section):
            if p.reserve and j < 0:
                zh, en = (
                    "替补排在主力队员之后：先取消替补再上移",
                    "reserves stand after the main players: unmark first",
                )
            elif not p.reserve and j >= len(section) and len(section) < len(members):
                zh, en = (
                    "主力队员排在替补之前：先标为替补再下移",
                    "main players stand before the reserves: mark first",
                )
            else:
                zh, en = "已在最前" if j < 0 else "已在最后", "first already" if j < 0 else "last already"
            raise UserError(f"{p.name}{zh}", f"{p.name}: {en}")
        section[i], section[j] = section[j], section[i]
        main = section if not p.reserve else [m for m in members if not m.reserve]
        reserves = section if p.reserve else [m for m in members if m.reserve]
        before = _label(members)
        _reorder(s, g, t, [*main, *reserves])
        after = _label(_roster(s, t))
        _record(s, g, t, "team_roster_move", before, after, who)
        return after


def set_reserve(
    db: Database, group: str, team: str, player_id: int, reserve: bool, *, who: str = audit.DEFAULT_ARBITER
) -> str:
    """Mark a player a reserve (替补: first of the reserves) or a main player again (last of the main)."""
    with db.session() as s:
        g = group_row(s, group)
        _event(s, g)
        t = _team(s, g, team)
        p = _player(s, g, player_id)
        if p.team_id != t.id:
            raise UserError(f"{p.name}不是{t.name}的队员", f"{p.name} is not in {t.name}")
        if p.reserve == reserve:
            return _label(_roster(s, t))
        _refuse_if_paired(s, g, "替补不能再改变", "the reserves are fixed")
        members = _roster(s, t)
        before = _label(members)
        main = [m for m in members if not m.reserve and m.id != p.id]
        reserves = [m for m in members if m.reserve and m.id != p.id]
        p.reserve = reserve
        _reorder(
            s, g, t, [*main, p, *reserves]
        )  # a new reserve leads the reserves; a main player ends the main
        after = _label(_roster(s, t))
        _record(s, g, t, "team_roster_reserve", before, after, who)
        return after


def rename_team(db: Database, group: str, team: str, name: str, *, who: str = audit.DEFAULT_ARBITER) -> str:
    """A team's name (队名) corrected; allowed at any time (it is the same team), logged."""
    from app.engine.text import TEAM_MAX, public_text

    with db.session() as s:
        g = group_row(s, group)
        t = _team(s, g, team)
        clean = public_text(name, "队名", "the team name", TEAM_MAX, required=True).strip()
        if clean == t.name:
            return clean
        if any(o.name == clean for o in _teams(s, g) if o.id != t.id):
            raise UserError(f"{g.name}中已有代表队“{clean}”", f"{g.name} already has a team {clean!r}")
        before = t.name
        t.name = clean
        audit.record(s, "rename_team", entity=f"{g.name}/{before}", before=before, after=clean, who=who)
        return clean


def set_team_number(db: Database, group: str, team: str, no: int, *, who: str = audit.DEFAULT_ARBITER) -> str:
    """Give ``team`` the number ``no`` by hand (1 … the number of teams); a team holding it takes this
    team's number in exchange. The players of both are renumbered. Refused once round 1 is paired."""
    with db.session() as s:
        g = group_row(s, group)
        _event(s, g)
        t = _team(s, g, team)
        teams = [o for o in _teams(s, g) if o.withdrawn_round is None]
        if not 1 <= no <= len(teams):
            raise UserError(
                f"队号应在 1–{len(teams)} 之间（{g.name}共 {len(teams)} 队），不能是 {no}",
                f"a team number must be 1-{len(teams)} ({g.name} has {len(teams)} teams), not {no}",
            )
        if t.no == no:
            return t.name
        _refuse_if_paired(s, g, "队号不能再改变", "the team numbers are fixed")
        other = next((o for o in _teams(s, g) if o.no == no and o.id != t.id), None)
        before = f"{t.name} {t.no or '—'}" + (f"，{other.name} {no}" if other else "")
        old = t.no
        for x in (t, other):
            if x is not None:
                x.no = None
                for p in _roster(s, x):
                    p.no = None
        s.flush()
        t.no = no
        if other is not None:
            other.no = old
        for x in (t, other):
            if x is not None:
                _reorder(s, g, x, _roster(s, x))
        after = f"{t.name} {no}" + (f"，{other.name} {old or '—'}" if other else "")
        audit.record(s, "set_team_number", entity=g.name, before=before, after=after, who=who)
        return after


def restore_roster_state(
    db: Database, group: str, before: RosterState, after: RosterState, *, who: str = audit.DEFAULT_ARBITER
) -> None:
    """Put back ``before`` wherever it differs from ``after`` (undoing one roster step, whatever else has
    changed since). Refused, as the step was, once round 1 is paired — unless only names, captains or
    leaders differ."""
    with db.session() as s:
        g = group_row(s, group)
        changed_players = [pid for pid, v in before.players.items() if after.players.get(pid) != v]
        changed_teams = [tid for tid, v in before.teams.items() if after.teams.get(tid) != v]
        numbers = [
            tid for tid in changed_teams if before.teams[tid][1] != (after.teams.get(tid) or (0, 0))[1]
        ]
        if changed_players or numbers:
            _refuse_if_paired(s, g, "报名顺序不能再改变", "the registered order is fixed")
        players = {pid: s.get(Player, pid) for pid in changed_players}
        teams = {tid: s.get(Team, tid) for tid in changed_teams}
        for p in players.values():
            if p is not None:
                p.no = None
        for tm in teams.values():
            if tm is not None and tm.id in numbers:
                tm.no = None
        s.flush()
        for tid, tm in teams.items():
            if tm is None:
                continue
            name, no, captain, leader = before.teams[tid]
            tm.name, tm.no, tm.captain, tm.leader = name, no, captain, leader
        for pid, p in players.items():
            if p is None:
                continue
            team_id, order, reserve, no = before.players[pid]
            p.team_id, p.team_order, p.reserve, p.no = team_id, order, reserve, no
        audit.record(
            s,
            "restore_team_rosters",
            entity=g.name,
            after=f"{len(changed_teams)} 队、{len(changed_players)} 名棋手",
            who=who,
        )
