"""Registration (报名), check-in (报到) and the draw for sequence numbers (序号).

Every function is one arbiter action: it checks through :mod:`app.engine.registration`, writes in
one session and records the change in the audit log. Players are addressed by their database id
(``PlayerView.id``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from app.db.models import Group, Player, Round, Team
from app.db.session import Database
from app.engine.eligibility import Eligibility, broken_rules
from app.engine.registration import (
    CheckedEntry,
    PlayerEntry,
    RegistrationContext,
    age_on,
    check_batch,
    check_entry,
    check_manual_numbers,
    draw_by_lot,
    draw_by_rating,
)
from app.engine.text import LEADER_MAX, TEAM_MAX, public_text
from app.engine.types import Gender, IdDocument, PlayerStatus, UserError, mask_id_number, mask_phone
from app.services import audit
from app.services.tournaments import group_row, regulations_of

NumbersMethod = Literal["lot", "rating", "manual"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A registered player as the GUI, the CLI and the reports see it (full ID and phone: internal)."""

    id: int
    no: int | None
    name: str
    group: str
    team: str
    unit: str
    gender: str  # "", "male", "female"
    id_type: str
    id_number: str
    birth_date: date | None  # None: unknown (a player read from a TRF file without one)
    age: int | None  # full years on the first day of play; None when the birth date is unknown
    phone: str
    rating: int | None
    notes: str
    fee_paid: bool
    insurance: bool
    pledge: bool
    checked_in: bool
    status: str
    status_round: int | None
    registered_at: datetime
    late_entry_round: int | None
    region: str = ""  # 地区
    reentry_round: int | None = None  # re-entered after a withdrawal: paired again from this round
    ranked: bool = True  # False: plays and scores but takes no place (计成绩不计名次)
    rating_rank: int | None = None  # place on a rating list (等级分排名); None: not ranked


# --------------------------------------------------------------------------- context


def _now() -> datetime:
    return datetime.now().replace(microsecond=0)


def registration_context(
    s: Session, *, now: datetime, override_reason: str = "", excluding: int | None = None
) -> RegistrationContext:
    """What the file holds, for the engine's checks (``excluding``: the player being edited; a player
    accepted outside his group's conditions before stays accepted)."""
    reg = regulations_of(s)
    accepted = bool(excluding is not None and (s.get(Player, excluding) or Player()).eligibility_override)
    groups = {g.name: g.teams for g in s.scalars(select(Group).order_by(Group.position))}
    query = select(Player.id_number)
    if excluding is not None:
        query = query.where(Player.id != excluding)
    ids = frozenset(s.scalars(query))
    entries = s.scalar(select(func.count()).select_from(Player)) or 0
    return RegistrationContext(
        rules=reg.registration,
        groups=groups,
        now=now,
        id_numbers=ids,
        entries=entries,
        override_reason=override_reason,
        eligibility={g.name: g.eligibility for g in reg.groups},
        accepted_outside=accepted,
    )


def _paired_rounds(s: Session, group: Group) -> int:
    return s.scalar(select(func.max(Round.number)).where(Round.group_id == group.id)) or 0


def _player(s: Session, player_id: int) -> Player:
    player = s.get(Player, player_id)
    if player is None:
        raise UserError(f"没有编号为 {player_id} 的棋手", f"no player with id {player_id}")
    return player


def team_row(s: Session, group: Group, name: str, *, create: bool) -> Team:
    """The team ``name`` of ``group``, created if ``create`` (refused where the group has no teams)."""
    if not group.teams:
        raise UserError(f"{group.name}不设团体", f"{group.name} has no teams")
    team = s.scalars(select(Team).where(Team.group_id == group.id, Team.name == name)).one_or_none()
    if team is None:
        if not create:
            raise UserError(f"{group.name}中没有代表队“{name}”", f"no team {name!r} in {group.name}")
        team = Team(group_id=group.id, name=name)
        s.add(team)
        s.flush()
        audit.record(s, "create_team", entity=f"{group.name}/{name}")
    return team


def _entity(p: Player) -> str:
    """A player as the audit log names them: group, number and name (never an internal id)."""
    group = p.group.name if p.group else ""
    return f"{group} {p.no}号 {p.name}" if p.no is not None else f"{group} {p.name}"


def _snapshot(p: Player) -> dict[str, object]:
    """A player's registration as the audit log keeps it: the ID number and the phone masked as on
    public documents (docs/rules.md §11) — the log is exported and printed, and personal numbers go into
    no audit text."""
    values = _full(p)
    values["id_number"] = mask_id_number(p.id_number)
    values["phone"] = mask_phone(p.phone)
    return values


def _full(p: Player) -> dict[str, object]:
    return {
        "name": p.name,
        "group": p.group.name if p.group else "",
        "team": p.team.name if p.team else "",
        "unit": p.unit,
        "region": p.region,
        "gender": p.gender,
        "id_type": p.id_type,
        "id_number": p.id_number,
        "birth_date": p.birth_date.isoformat() if p.birth_date else "",
        "phone": p.phone,
        "rating": p.rating,
        "rating_rank": p.rating_rank,
        "notes": p.notes,
        "fee_paid": p.fee_paid,
        "insurance": p.insurance,
        "pledge": p.pledge,
        "checked_in": p.checked_in,
        "status": p.status,
        "no": p.no,
    }


def _next_number(s: Session, group: Group) -> int | None:
    """A new player's number: none before the draw, the next free one after it."""
    if not group.numbers_method:
        return None
    top = s.scalar(select(func.max(Player.no)).where(Player.group_id == group.id)) or 0
    return top + 1


def _close_gap(s: Session, group_id: int, removed_no: int | None) -> None:
    """After a player leaves a drawn group before round 1, numbers above move down by one."""
    if removed_no is None:
        return
    s.flush()
    later = s.scalars(
        select(Player).where(Player.group_id == group_id, Player.no > removed_no).order_by(Player.no)
    ).all()
    for p in later:
        p.no = (p.no or 0) - 1
        s.flush()  # one at a time: (group, no) is unique


def write_entry(
    s: Session,
    checked: CheckedEntry,
    *,
    now: datetime,
    who: str,
    reason: str = "",
    action: str = "add_player",
) -> Player:
    """Insert a checked, problem-free entry in the action's session (used by add and import)."""
    e = checked.entry
    assert checked.ok and e.birth_date is not None
    group = group_row(s, e.group)
    paired = _paired_rounds(s, group)
    team = team_row(s, group, e.team, create=True) if e.team else None
    player = Player(
        group_id=group.id,
        team_id=team.id if team else None,
        no=_next_number(s, group),
        name=e.name,
        gender=e.gender.value if e.gender else "",
        id_type=e.id_type.value,
        id_number=e.id_number,
        birth_date=e.birth_date,
        phone=e.phone,
        rating=e.rating,
        rating_rank=e.rating_rank,
        unit=e.unit,
        region=e.region,
        notes=e.notes,
        fee_paid=e.fee_paid,
        insurance=e.insurance,
        pledge=e.pledge,
        checked_in=e.checked_in,
        status=PlayerStatus.ACTIVE.value,
        registered_at=now,
        late_entry_round=paired + 1 if paired else None,
    )
    s.add(player)
    s.flush()
    if checked.outside:
        player.eligibility_override = reason.strip()
        audit.record(
            s,
            "eligibility_override",
            entity=f"player:{player.id}",
            after={"name": e.name, "group": e.group, "rules": list(checked.outside)},
            reason=reason,
            who=who,
        )
    if checked.late:
        audit.record(
            s,
            "deadline_override",
            entity=_entity(player),
            after={"name": e.name, "at": now.isoformat()},
            reason=reason,
            who=who,
        )
    audit.record(s, action, entity=_entity(player), after=_snapshot(player), reason=reason, who=who)
    return player


# --------------------------------------------------------------------------- actions


def check_new_player(
    db: Database, entry: PlayerEntry, *, now: datetime | None = None, override_reason: str = ""
) -> CheckedEntry:
    """Check an entry without writing (the GUI shows the problems next to the fields)."""
    with db.session() as s:
        return check_entry(entry, registration_context(s, now=now or _now(), override_reason=override_reason))


def check_player_edit(
    db: Database,
    player_id: int,
    entry: PlayerEntry,
    *,
    now: datetime | None = None,
    override_reason: str = "",
) -> CheckedEntry:
    """Check an edit of a registered player without writing, as :func:`edit_player` will."""
    with db.session() as s:
        _player(s, player_id)
        context = registration_context(
            s, now=now or _now(), excluding=player_id, override_reason=override_reason
        )
        return check_entry(entry, context, new=False)


def add_player(
    db: Database,
    entry: PlayerEntry,
    *,
    now: datetime | None = None,
    override_reason: str = "",
    who: str = audit.DEFAULT_ARBITER,
) -> int:
    """Register a player; returns the new player's id. Raises :class:`UserError` listing every problem.

    After the deadline the entry is refused unless ``override_reason`` is given (logged).
    """
    at = now or _now()
    with db.session() as s:
        checked = check_entry(entry, registration_context(s, now=at, override_reason=override_reason))
        checked.raise_problems()
        return write_entry(s, checked, now=at, who=who, reason=override_reason).id


def edit_player(
    db: Database,
    player_id: int,
    entry: PlayerEntry,
    *,
    reason: str = "",
    now: datetime | None = None,
    who: str = audit.DEFAULT_ARBITER,
    override_reason: str = "",
) -> None:
    """Change a player's registration (flags included). A group change is refused once either group
    has paired round 1; a team change is allowed and logged. An edit that puts the player outside the
    group's conditions of entry (a new rating-list rank, say) needs ``override_reason`` (stored, logged),
    unless the player was accepted outside them before."""
    with db.session() as s:
        player = _player(s, player_id)
        context = registration_context(
            s, now=now or _now(), excluding=player_id, override_reason=override_reason
        )
        checked = check_entry(entry, context, new=False)
        checked.raise_problems()
        e = checked.entry
        assert e.birth_date is not None
        before = _snapshot(player)
        old_group = player.group
        group = group_row(s, e.group)
        if group.id != old_group.id:
            if _paired_rounds(s, old_group) or _paired_rounds(s, group):
                raise UserError(
                    "首轮已编排，不能再更换组别", "round 1 is paired: the player cannot change group"
                )
            removed_no = player.no
            player.no = None
            player.group_id = group.id
            s.flush()
            _close_gap(s, old_group.id, removed_no)
            s.refresh(player)
            player.no = _next_number(s, group)
        player.team_id = team_row(s, group, e.team, create=True).id if e.team else None
        player.name = e.name
        player.gender = e.gender.value if e.gender else ""
        player.id_type = e.id_type.value
        player.id_number = e.id_number
        player.birth_date = e.birth_date
        player.phone = e.phone
        player.rating = e.rating
        player.rating_rank = e.rating_rank
        player.unit = e.unit
        player.region = e.region
        player.notes = e.notes
        player.fee_paid, player.insurance = e.fee_paid, e.insurance
        player.pledge, player.checked_in = e.pledge, e.checked_in
        if checked.outside and override_reason.strip() and not player.eligibility_override:
            player.eligibility_override = override_reason.strip()
            audit.record(
                s,
                "eligibility_override",
                entity=f"player:{player.id}",
                after={"name": e.name, "group": e.group, "rules": list(checked.outside)},
                reason=override_reason,
                who=who,
            )
        s.flush()
        s.refresh(player)
        audit.record(
            s,
            "edit_player",
            entity=_entity(player),
            before=before,
            after=_snapshot(player),
            reason=reason,
            who=who,
        )


def set_rating_rank(
    db: Database,
    group: str,
    player: str,
    rank: int | None,
    *,
    override_reason: str = "",
    who: str = audit.DEFAULT_ARBITER,
) -> PlayerView:
    """Set (``None``: clear) the rating-list rank (等级分排名) of ``player`` of ``group`` — a sequence
    number or a name — as an edit of the registration: checked against the group's conditions (outside
    them only with ``override_reason``), logged."""
    players = list_players(db, group)  # refuses an unknown group
    text = player.strip()
    found = [p for p in players if (text.isdigit() and p.no == int(text)) or p.name == text]
    if len(found) != 1:
        raise UserError(
            f"{group}中没有序号或姓名为“{text}”的棋手"
            if not found
            else f"{group}中有 {len(found)} 名棋手叫“{text}”，请用序号",
            f"no player {text!r} in {group}"
            if not found
            else f"{len(found)} players of {group} are named {text!r}: give the number",
        )
    view = found[0]
    edit_player(
        db,
        view.id,
        replace(player_entry(view), rating_rank=rank),
        reason=override_reason,
        who=who,
        override_reason=override_reason,
    )
    return next(p for p in list_players(db, group) if p.id == view.id)


def withdraw_player(
    db: Database,
    player_id: int,
    *,
    remove: bool = False,
    from_round: int | None = None,
    reason: str = "",
    who: str = audit.DEFAULT_ARBITER,
) -> None:
    """A player withdraws (退赛).

    Before round 1 of the group is paired, ``remove=True`` deletes the registration (numbers above
    it close the gap); otherwise the status becomes *withdrawn*. After round 1 only the status
    changes; ``status_round`` is the first round the player is no longer paired in (default: the
    next round to be paired). Results already played stand.
    """
    if not remove and not reason.strip():
        raise UserError("退赛须注明理由", "a withdrawal needs a reason")
    with db.session() as s:
        player = _player(s, player_id)
        before = _snapshot(player)
        paired = _paired_rounds(s, player.group)
        if remove:
            if paired:
                raise UserError(
                    "首轮已编排，只能将棋手标为退赛，不能删除", "round 1 is paired: withdraw, do not delete"
                )
            group_id, removed_no, entity = player.group_id, player.no, _entity(player)
            s.delete(player)
            _close_gap(s, group_id, removed_no)
            audit.record(s, "remove_player", entity=entity, before=before, reason=reason, who=who)
            return
        if player.status != PlayerStatus.ACTIVE.value:
            raise UserError(f"{player.name}已不是在赛状态", f"{player.name} is not active")
        first = from_round if from_round is not None else paired + 1
        if first < 1:
            raise UserError("退赛轮次无效", "invalid round of withdrawal")
        player.status = PlayerStatus.WITHDRAWN.value
        player.status_round = first
        audit.record(
            s,
            "withdraw_player",
            entity=_entity(player),
            before=before,
            after={"status": player.status, "status_round": first},
            reason=reason,
            who=who,
        )


def reinstate_player(
    db: Database, player_id: int, *, reason: str = "", who: str = audit.DEFAULT_ARBITER
) -> None:
    """Undo a withdrawal (the arbiter made a mistake or the player returns)."""
    with db.session() as s:
        player = _player(s, player_id)
        if player.status != PlayerStatus.WITHDRAWN.value:
            raise UserError(f"{player.name}不是退赛状态", f"{player.name} is not withdrawn")
        before = {"status": player.status, "status_round": player.status_round}
        player.status, player.status_round = PlayerStatus.ACTIVE.value, None
        audit.record(s, "reinstate_player", entity=_entity(player), before=before, reason=reason, who=who)


def _set_flag(db: Database, player_id: int, flag: str, value: bool, who: str, reason: str = "") -> None:
    with db.session() as s:
        player = _player(s, player_id)
        before = getattr(player, flag)
        if before == value:
            return
        setattr(player, flag, value)
        audit.record(
            s, f"set_{flag}", entity=_entity(player), before=before, after=value, reason=reason, who=who
        )


def set_fee_paid(
    db: Database, player_id: int, paid: bool = True, *, who: str = audit.DEFAULT_ARBITER
) -> None:
    """Fee (赛事服务费) received; an unpaid player is never paired."""
    _set_flag(db, player_id, "fee_paid", paid, who)


def set_insurance(
    db: Database, player_id: int, received: bool = True, *, who: str = audit.DEFAULT_ARBITER
) -> None:
    """Proof of accident insurance (意外保险证明) received."""
    _set_flag(db, player_id, "insurance", received, who)


def set_pledge(
    db: Database, player_id: int, signed: bool = True, *, who: str = audit.DEFAULT_ARBITER
) -> None:
    """Safety pledge (承诺书) signed."""
    _set_flag(db, player_id, "pledge", signed, who)


def set_checked_in(
    db: Database, player_id: int, present: bool = True, *, who: str = audit.DEFAULT_ARBITER
) -> None:
    """Checked in (报到) / marked present."""
    _set_flag(db, player_id, "checked_in", present, who)


def create_team(
    db: Database, group: str, name: str, *, leader: str = "", who: str = audit.DEFAULT_ARBITER
) -> int:
    """Create a team (代表队) in a group that allows teams; returns its id."""
    clean = public_text(name, "队名", "the team name", TEAM_MAX, required=True)
    leader = public_text(leader, "领队", "the team leader", LEADER_MAX)
    with db.session() as s:
        g = group_row(s, group)
        if s.scalars(select(Team).where(Team.group_id == g.id, Team.name == clean)).one_or_none():
            raise UserError(f"{g.name}中已有代表队“{clean}”", f"{g.name} already has a team {clean!r}")
        team = team_row(s, g, clean, create=True)
        team.leader = leader.strip()
        if team.leader:
            audit.record(s, "set_team_leader", entity=f"{g.name}/{clean}", after=team.leader, who=who)
        return team.id


def set_team(
    db: Database, player_id: int, team: str | None, *, create: bool = True, who: str = audit.DEFAULT_ARBITER
) -> None:
    """Put a player in a team of their group (created if missing and ``create``), or none."""
    with db.session() as s:
        player = _player(s, player_id)
        before = player.team.name if player.team else ""
        name = public_text(team or "", "队名", "the team name", TEAM_MAX)
        player.team_id = team_row(s, player.group, name, create=create).id if name else None
        audit.record(s, "set_team", entity=_entity(player), before=before, after=name, who=who)


# --------------------------------------------------------------------------- reading


#: the player's columns a :class:`PlayerView` shows, in its order (``group``, ``team`` and ``age`` aside)
_VIEW_COLUMNS = (
    "id",
    "no",
    "name",
    "unit",
    "gender",
    "id_type",
    "id_number",
    "birth_date",
    "phone",
    "rating",
    "notes",
    "fee_paid",
    "insurance",
    "pledge",
    "checked_in",
    "status",
    "status_round",
    "registered_at",
    "late_entry_round",
    "region",
    "reentry_round",
    "ranked",
    "rating_rank",
)


def list_players(db: Database, group: str | None = None) -> list[PlayerView]:
    """Players by group (regulation order), then sequence number (undrawn last), then entry order.

    Read as columns (the group's and the team's names joined), not as ORM objects: the players view
    and the entry lists of 5,000 players."""
    with db.session() as s:
        first_day = regulations_of(s).registration.first_day_of_play
        query = (
            select(*(getattr(Player, c) for c in _VIEW_COLUMNS), Group.name, Team.name)
            .join(Group, Player.group_id == Group.id)
            .outerjoin(Team, Player.team_id == Team.id)
        )
        if group is not None:
            query = query.where(Player.group_id == group_row(s, group).id)
        query = query.order_by(Group.position, Player.no.is_(None), Player.no, Player.id)
        out = []
        for row in s.execute(query):
            fields = dict(zip(_VIEW_COLUMNS, row, strict=False))
            born = fields["birth_date"]
            out.append(
                PlayerView(
                    **fields,
                    group=row[-2],
                    team=row[-1] or "",
                    age=None if born is None else age_on(born, first_day),
                )
            )
        return out


def players_outside(db: Database, group: str, rules: Eligibility) -> int:
    """How many players of ``group`` do not meet the conditions ``rules`` (to warn before they are
    changed; nobody is removed). Players accepted outside the conditions with a reason are not counted."""
    if rules.open:
        return 0
    with db.session() as s:
        first_day = regulations_of(s).registration.first_day_of_play
        query = (
            select(Player)
            .where(Player.group_id == group_row(s, group).id, Player.eligibility_override == "")
            .options(selectinload(Player.team))
        )
        return sum(
            1
            for p in s.scalars(query)
            if broken_rules(
                rules,
                birth=p.birth_date,
                gender=Gender(p.gender) if p.gender else None,
                rating=p.rating,
                rating_rank=p.rating_rank,
                unit=p.unit,
                team=p.team.name if p.team else "",
                region=p.region,
                id_number=p.id_number,
                first_day=first_day,
            )
        )


def player_entry(view: PlayerView) -> PlayerEntry:
    """The entry of a listed player, to edit and pass back to :func:`edit_player`."""
    return PlayerEntry(
        name=view.name,
        id_number=view.id_number,
        phone=view.phone,
        group=view.group,
        id_type=IdDocument(view.id_type),
        birth_date=view.birth_date,
        gender=Gender(view.gender) if view.gender else None,
        team=view.team,
        unit=view.unit,
        region=view.region,
        rating=view.rating,
        rating_rank=view.rating_rank,
        notes=view.notes,
        fee_paid=view.fee_paid,
        insurance=view.insurance,
        pledge=view.pledge,
        checked_in=view.checked_in,
    )


# --------------------------------------------------------------------------- sequence numbers


def new_seed() -> int:
    """A seed for the lot, short enough to print and to type back in (1..999999)."""
    return random.SystemRandom().randint(1, 999_999)


def draw_numbers(
    db: Database,
    group: str,
    method: NumbersMethod = "lot",
    seed: int | None = None,
    manual: Mapping[int, int] | None = None,
    *,
    who: str = audit.DEFAULT_ARBITER,
) -> dict[int, int]:
    """Give sequence numbers 1..n to the active players of a group; returns ``{player id: no}``.

    ``lot`` shuffles the players in registration order with ``seed`` (a new one is drawn and
    recorded when none is given); ``rating`` puts rated players first; ``manual`` takes the
    numbers of a physical draw. Refused once round 1 of the group is paired. Withdrawn players
    get no number.
    """
    with db.session() as s:
        g = group_row(s, group)
        if _paired_rounds(s, g):
            raise UserError(
                f"{g.name}首轮已编排，序号不能再改变", f"round 1 of {g.name} is paired: numbers are fixed"
            )
        everyone = s.scalars(select(Player).where(Player.group_id == g.id).order_by(Player.id)).all()
        active = [p for p in everyone if p.status == PlayerStatus.ACTIVE.value]
        if not active:
            raise UserError(f"{g.name}没有棋手", f"{g.name} has no players")
        used_seed: int | None
        if method == "manual":
            if manual is None:
                raise UserError("请给出每名棋手的序号", "give every player's number")
            check_manual_numbers(manual, [p.id for p in active])
            numbers = dict(manual)
            used_seed = None
        elif method in ("lot", "rating"):
            used_seed = new_seed() if seed is None else seed
            if method == "lot":
                numbers = draw_by_lot([p.id for p in active], used_seed)
            else:
                numbers = draw_by_rating([(p.id, p.rating) for p in active], used_seed)
        else:
            raise UserError(f"未知的序号产生办法“{method}”", f"unknown numbering method {method!r}")
        before = {p.id: p.no for p in everyone}
        for p in everyone:
            p.no = None
        s.flush()
        for p in active:
            p.no = numbers[p.id]
        g.numbers_method, g.numbers_seed = method, used_seed
        audit.record(
            s,
            "draw_numbers",
            entity=g.name,
            before=before,
            after={"method": method, "seed": used_seed, "numbers": numbers},
            who=who,
        )
        return numbers


def add_players(
    db: Database,
    entries: list[PlayerEntry],
    *,
    now: datetime | None = None,
    override_reason: str = "",
    who: str = audit.DEFAULT_ARBITER,
) -> list[int]:
    """Register several players in one transaction (all or none); returns their ids in order.

    The entries are checked as a batch (duplicates among them, capacity counting all of them).
    """
    at = now or _now()
    with db.session() as s:
        context = registration_context(s, now=at, override_reason=override_reason)
        lines = check_batch([(f"第 {i} 名", e) for i, e in enumerate(entries, start=1)], context)
        bad = [line for line in lines if not line.ok]
        if bad:
            raise UserError(
                "；".join(f"{line.label}：{p.message_zh}" for line in bad for p in line.problems),
                "; ".join(
                    f"entry {lines.index(line) + 1}: {p.message_en}" for line in bad for p in line.problems
                ),
            )
        return [write_entry(s, line.checked, now=at, who=who, reason=override_reason).id for line in lines]
