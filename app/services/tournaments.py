"""Creating and opening tournaments, and reading or changing their regulation."""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path

from sqlalchemy import Text, bindparam, func, select, type_coerce
from sqlalchemy.orm import Session, defer
from sqlalchemy.orm.util import identity_key

# The errors of opening a file, re-exported for the window and the command line (each offers a way out).
from app.db.integrity import CorruptFileError as CorruptFileError
from app.db.lock import FileLockedError as FileLockedError
from app.db.lock import StaleLockError as StaleLockError
from app.db.models import Group, Player, Round, Tournament
from app.db.session import Database, kept, open_database
from app.engine.formats import StageKind, plan_stages
from app.engine.regulations import (
    GroupFormat,
    Regulations,
    RoundTime,
    check_public_texts,
    preset,
    regulations_from_dict,
    regulations_from_toml,
    regulations_to_dict,
    regulations_to_toml,
)
from app.engine.text import EVENT_NAME_MAX, clean_text
from app.engine.types import UserError
from app.services import audit

FILE_SUFFIX = ".xqt"


@dataclass(frozen=True, slots=True)
class GroupInfo:
    name: str
    teams: bool
    players: int


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    name: str
    preset: str
    start_date: date
    regulations: Regulations
    groups: tuple[GroupInfo, ...]


def create_tournament(
    path: Path | str,
    preset_name: str = "tianshui-2024",
    *,
    name: str | None = None,
    regulations: Regulations | None = None,
    who: str = audit.DEFAULT_ARBITER,
) -> Database:
    """Create a new tournament file from a preset (or a given regulation)."""
    reg = regulations or preset(preset_name)
    reg.validate()
    event_name = clean_text(name, "赛事名称", "the event name", EVENT_NAME_MAX) if name is not None else None
    check_public_texts(reg if event_name is None else dataclasses.replace(reg, event_name=event_name))
    db = open_database(path, create=True)
    with discard_on_failure(db):
        _fill_new(db, path, preset_name, reg, event_name, who)
    return db


@contextmanager
def discard_on_failure(db: Database) -> Iterator[None]:
    """For a file being created: if filling it fails, close it and remove it (and its companions)."""
    try:
        yield
    except BaseException:
        db.close()
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(str(db.path) + suffix).unlink(missing_ok=True)
        raise


def _fill_new(
    db: Database, path: Path | str, preset_name: str, reg: Regulations, name: str | None, who: str
) -> None:
    with db.session() as s:
        s.add(
            Tournament(
                id=1,
                name=name or reg.event_name,
                preset=preset_name,
                start_date=reg.start_date,
                regulations=regulations_to_dict(reg),
                created_at=datetime.now().replace(microsecond=0),
            )
        )
        for position, g in enumerate(reg.groups):
            s.add(Group(name=g.name, teams=g.teams, position=position))
        # the file's name only: a full path would show the user's folders in exported audit lists
        audit.record(s, "create_tournament", entity=Path(path).name, after={"preset": preset_name}, who=who)


@dataclass(frozen=True, slots=True)
class NewEvent:
    """What a new event states at once (the rest comes from the preset): name, dates, venue,
    registration deadline, groups."""

    name: str
    start: date
    end: date
    venue: str
    deadline: datetime
    groups: tuple[str, ...]


def _base(template: str | Regulations) -> Regulations:
    """A new event's template: a preset by its key, or a regulation (e.g. read from a regulation file)."""
    return preset(template) if isinstance(template, str) else template


def new_event_defaults(template: str | Regulations, today: date | None = None) -> NewEvent:
    """The template's event moved to a week from today: the same length, the deadline as many days
    before the start as in the template, the template's groups; the name and venue left to fill in.
    ``template``: a preset's key or a regulation (a regulation file's)."""
    base = _base(template)
    start = (today or date.today()) + timedelta(days=7)
    lead = base.start_date - base.registration.deadline.date()
    deadline = datetime.combine(start - lead, base.registration.deadline.time())
    return NewEvent(
        "", start, start + (base.end_date - base.start_date), "", deadline, tuple(g.name for g in base.groups)
    )


def split_group_names(text: str) -> tuple[str, ...]:
    """``公开组、天水本地组`` (or commas, semicolons, spaces) → the names, in order."""
    return tuple(part for part in re.split(r"[、,，;；\s]+", text.strip()) if part)


def new_event_regulations(template: str | Regulations, event: NewEvent) -> Regulations:
    """The template's regulation (a preset's, or a regulation file's) for a new event: its own name,
    dates, venue, deadline and groups; every other setting is the template's.

    Groups take the format (rounds, split, teams) of the template's group at the same position (a
    group beyond the template's takes the last one's), and the prize tables of a template group go to
    the group that replaces it (renamed); the prize tables of a dropped group are dropped.
    """
    base = _base(template)
    name = event.name.strip()
    if not name:
        raise UserError("请填写赛事名称", "the event needs a name")
    if event.end < event.start:
        raise UserError(
            f"结束日期 {event.end} 早于开始日期 {event.start}",
            f"the end {event.end} is before the start {event.start}",
        )
    if event.deadline > datetime.combine(event.start, time(23, 59)):
        raise UserError(
            f"报名截止时间 {event.deadline:%Y-%m-%d %H:%M} 晚于比赛开始日期 {event.start}",
            f"the registration deadline {event.deadline:%Y-%m-%d %H:%M} is after the first day {event.start}",
        )
    names = [g.strip() for g in event.groups if g.strip()]
    if not names:
        raise UserError("至少要有一个组别", "the event needs at least one group")
    if len(set(names)) != len(names):
        raise UserError(f"组别名称重复：{'、'.join(names)}", f"duplicate group names: {', '.join(names)}")
    formats = [
        dataclasses.replace(base.groups[min(i, len(base.groups) - 1)], name=n) for i, n in enumerate(names)
    ]
    renamed = {g.name: names[i] for i, g in enumerate(base.groups) if i < len(names)}
    prizes = tuple(
        dataclasses.replace(t, group=renamed[t.group], name=t.name.replace(t.group, renamed[t.group], 1))
        for t in base.prizes
        if t.group in renamed
    )
    reg = dataclasses.replace(
        base,
        event_name=name,
        start_date=event.start,
        end_date=event.end,
        venue=event.venue.strip(),
        groups=tuple(formats),
        prizes=prizes,
        registration=dataclasses.replace(
            base.registration, deadline=event.deadline, first_day_of_play=event.start
        ),
    )
    reg.validate()
    check_public_texts(reg)
    return reg


def create_event(
    path: Path | str, template: str | Regulations, event: NewEvent, *, who: str = audit.DEFAULT_ARBITER
) -> Database:
    """A new tournament file for ``event``, from a preset (by its key) or a regulation (see
    :func:`new_event_regulations`)."""
    reg = new_event_regulations(template, event)
    preset_name = template if isinstance(template, str) else ""
    return create_tournament(path, preset_name, name=reg.event_name, regulations=reg, who=who)


_lent: contextvars.ContextVar[Database | None] = contextvars.ContextVar("xq_lent_database", default=None)


@contextmanager
def lending(db: Database) -> Iterator[None]:
    """Inside the block, opening ``db``'s file borrows ``db`` (:meth:`Database.borrowed`): the owner of an
    open file runs a command of the command line with its own connections — the file is never opened
    a second time (docs/file-safety.md)."""
    token = _lent.set(db)
    try:
        yield
    finally:
        _lent.reset(token)


def _lent_for(path: Path | str) -> Database | None:
    lent = _lent.get()
    if lent is None:
        return None
    same = os.path.normcase(os.path.realpath(path)) == os.path.normcase(os.path.realpath(lent.path))
    return lent.borrowed() if same else None


def open_tournament(path: Path | str, *, read_only: bool = False, take_over: bool = False) -> Database:
    """Open a tournament for writing (locked, integrity-checked) or read-only (``db.read_only``).

    Raises ``FileLockedError`` when another instance is editing it (open read-only instead),
    ``StaleLockError`` when a crashed instance left its lock (pass ``take_over=True`` to continue),
    ``CorruptFileError`` naming the newest good backup when the file is damaged.
    """
    lent = _lent_for(path)
    if lent is not None:
        return lent
    db = open_database(path, read_only=read_only, take_over=take_over)
    try:
        with db.session() as s:
            if s.get(Tournament, 1) is None:
                raise UserError(f"{Path(path).name} 中没有赛事信息", f"{Path(path).name} holds no tournament")
            if db.lock is not None and db.lock.taken_over:
                holder = db.lock.stale_holder
                audit.record(
                    s,
                    "take_over_lock",
                    entity=Path(path).name,
                    before=holder.describe() if holder else "锁文件内容无法读取 (unreadable lock)",
                    reason="上次未正常关闭，接管遗留的锁 (stale lock of a crashed instance taken over)",
                )
    except BaseException:
        db.close()
        raise
    return db


def file_in_use(path: Path | str) -> bool:
    """Whether a running program holds ``path``'s lock now (it has the file open for writing)."""
    from app.db.lock import lock_in_use

    return lock_in_use(Path(path))


def taken_over_note(db: Database) -> str:
    """The notice for the arbiter when opening took over a crashed instance's lock ("" otherwise)."""
    if db.lock is None or not db.lock.taken_over:
        return ""
    holder = db.lock.stale_holder
    who = holder.describe() if holder else "内容无法读取"
    return f"已接管上次未正常关闭留下的锁（{who}），已记入操作记录 (stale lock taken over and logged)"


# The reads every action makes, built once: building a statement and computing its cache key cost more
# than running it (the values are bound per call; the SQL sent is the same as a statement built per call).
_TOURNAMENT = select(Tournament).where(Tournament.id == 1)
_TOURNAMENT_KEY = identity_key(Tournament, 1)
_GROUP_BY_NAME = select(Group).where(Group.name == bindparam("group_name"))


def tournament_row(session: Session) -> Tournament:
    """The tournament's row: the session's own if it has read it (as ``Session.get``), else read."""
    row = session.identity_map.get(_TOURNAMENT_KEY)
    if row is None:
        row = session.scalars(_TOURNAMENT).one_or_none()
    if row is None:
        raise UserError("文件中没有赛事信息", "the file holds no tournament")
    return row


# the regulation as stored, not decoded: the parsed regulation is cached by the text
_REGULATIONS_TEXT = select(type_coerce(Tournament.regulations, Text)).where(Tournament.id == 1)


def regulations_of(session: Session) -> Regulations:
    """The tournament's regulation: the session's row if it has read it (changed or not, as it stands),
    else the stored text, parsed once per text. Inside :meth:`Database.one_reading` (nothing written)
    it is read once for the whole reading."""
    memo = kept(session)
    if memo is not None:
        if _REGULATIONS_KEPT not in memo:
            memo[_REGULATIONS_KEPT] = _read_regulations(session)
        regulations: Regulations = memo[_REGULATIONS_KEPT]
        return regulations
    return _read_regulations(session)


_REGULATIONS_KEPT = "regulations"


def _read_regulations(session: Session) -> Regulations:
    if session.identity_map.get(_TOURNAMENT_KEY) is None:
        text = session.scalar(_REGULATIONS_TEXT)
        if text is not None:
            return _regulations_from_text(text)
    return _regulations_from_json(json.dumps(tournament_row(session).regulations, sort_keys=True))


@functools.lru_cache(maxsize=8)
def _regulations_from_text(text: str) -> Regulations:
    """The regulation stored as ``text``: as read through the row (decoded, keys sorted, parsed)."""
    return _regulations_from_json(json.dumps(json.loads(text), sort_keys=True))


@functools.lru_cache(maxsize=8)
def _regulations_from_json(text: str) -> Regulations:
    """Parsing and validating the stored regulation is cached: it is read on every action."""
    return regulations_from_dict(json.loads(text))


def load_regulations(db: Database) -> Regulations:
    with db.session() as s:
        return regulations_of(s)


_PLAYER_NUMBERS = select(Player.id, Player.no).where(Player.group_id == bindparam("group_id"))


def player_numbers(session: Session, group: Group) -> dict[int, int]:
    """Each numbered player's number by id: two columns, not the players' rows (5,000 ORM objects to
    read two numbers)."""
    rows = session.execute(_PLAYER_NUMBERS, {"group_id": group.id})
    return {pid: no for pid, no in rows if no is not None}


# built once (the values bound per call; the same SQL as built per call)
_ROUND = select(Round).where(Round.group_id == bindparam("group_id"), Round.number == bindparam("number"))
_ROUND_NO_EXPLANATION = _ROUND.options(defer(Round.explanation, raiseload=True))


def find_round(session: Session, group: Group, number: int, *, explanation: bool = True) -> Round | None:
    """The round's row, or None when it has not been paired (``explanation``: as :func:`app.services.results.round_row`)."""
    query = _ROUND if explanation else _ROUND_NO_EXPLANATION
    return session.scalars(query, {"group_id": group.id, "number": number}).one_or_none()


def group_row(session: Session, name: str) -> Group:
    group = session.scalars(_GROUP_BY_NAME, {"group_name": name}).one_or_none()
    if group is None:
        names = "、".join(session.scalars(select(Group.name).order_by(Group.position)))
        raise UserError(
            f"没有名为“{name}”的组别（现有：{names}）", f"no group named {name!r} (groups: {names})"
        )
    return group


def tournament_info(db: Database) -> TournamentInfo:
    with db.session() as s:
        t = tournament_row(s)
        counts = dict(
            s.execute(select(Player.group_id, func.count(Player.id)).group_by(Player.group_id)).all()
        )
        groups = tuple(
            GroupInfo(g.name, g.teams, counts.get(g.id, 0))
            for g in s.scalars(select(Group).order_by(Group.position))
        )
        return TournamentInfo(t.name, t.preset, t.start_date, regulations_of(s), groups)


def update_regulations(
    db: Database, new: Regulations, *, reason: str = "", who: str = audit.DEFAULT_ARBITER
) -> None:
    """Replace the regulation; refused where a change would alter a round already paired."""
    new.validate()
    check_public_texts(new)
    with db.session() as s:
        t = tournament_row(s)
        old = regulations_of(s)
        paired = {
            g.name: max((r.number for r in s.scalars(select(Round).where(Round.group_id == g.id))), default=0)
            for g in s.scalars(select(Group))
        }
        _refuse_changes_to_played_rounds(old, new, paired)
        new_names = {g.name for g in new.groups}
        for name, rounds in paired.items():
            if name not in new_names:
                if rounds:
                    raise UserError(
                        f"组别“{name}”已编排，不能删除", f"group {name!r} has rounds; it cannot be removed"
                    )
                group = group_row(s, name)
                if group.players:
                    raise UserError(f"组别“{name}”中有棋手，不能删除", f"group {name!r} has players")
                s.delete(group)
        for position, g in enumerate(new.groups):
            if g.name in paired:
                row = group_row(s, g.name)
                row.teams, row.position = g.teams, position
            else:
                s.add(Group(name=g.name, teams=g.teams, position=position))
        t.regulations = regulations_to_dict(new)
        t.start_date = new.start_date
        audit.record(
            s,
            "update_regulations",
            before=regulations_to_dict(old),
            after=regulations_to_dict(new),
            reason=reason,
            who=who,
        )


def set_round_start(
    db: Database, number: int, starts: datetime | None, *, who: str = audit.DEFAULT_ARBITER
) -> Regulations:
    """Set (or, ``starts`` None, clear) the announced start of round ``number`` in the schedule the
    players' pages show; audit-logged like any change of the regulation. Returns the new regulation."""
    reg = load_regulations(db)
    most = max(g.rounds for g in reg.groups)
    if not 1 <= number <= most:
        raise UserError(
            f"第 {number} 轮不存在（共 {most} 轮）", f"there is no round {number} ({most} rounds)"
        )
    slots = [t for t in reg.schedule if t.round != number]
    if starts is not None:
        slots.append(RoundTime(number, starts.replace(second=0, microsecond=0)))
    new = dataclasses.replace(reg, schedule=tuple(sorted(slots, key=lambda t: t.round)))
    what = (
        f"第{number}轮开赛时间：{starts:%Y-%m-%d %H:%M}"
        if starts is not None
        else f"第{number}轮开赛时间：待定"
    )
    update_regulations(db, new, reason=what, who=who)
    return new


def _refuse_changes_to_played_rounds(old: Regulations, new: Regulations, paired: dict[str, int]) -> None:
    """Settings that shape pairings or scores may not change once a round they affect exists."""
    if not any(paired.values()):
        return
    if old.points != new.points:
        raise UserError("已有轮次编排，不能再修改计分办法", "rounds exist: the points cannot change any more")
    if old.pairing.team_avoidance != new.pairing.team_avoidance and any(paired.values()):
        raise UserError(
            "首轮已编排，不能再修改同队回避规则", "round 1 is paired: team avoidance cannot change"
        )
    if old.pairing.seeding != new.pairing.seeding:
        raise UserError("首轮已编排，序号产生办法不能再修改", "round 1 is paired: seeding cannot change")
    old_groups = {g.name: g for g in old.groups}
    for g in new.groups:
        before = old_groups.get(g.name)
        played = paired.get(g.name, 0)
        if before is None or not played:
            continue
        if before.team_event is not None or g.team_event is not None:
            _refuse_changes_to_team_event(g.name, before, g, played)
            continue
        if before.legacy is not None and g.legacy is not None:
            if g.rounds < played:
                raise UserError(
                    f"{g.name}已编排到第 {played} 轮，总轮数不能少于 {played}",
                    f"{g.name} is paired up to round {played}; it cannot have fewer rounds",
                )
            split_changed = (before.swiss_rounds, before.knockout_size) != (g.swiss_rounds, g.knockout_size)
            if split_changed and before.knockout_size and played > before.swiss_rounds:
                raise UserError(
                    f"{g.name}已进入第二阶段，不能再修改分段办法",
                    f"{g.name} is past the split; the split cannot change",
                )
            continue
        _refuse_changes_to_begun_stages(g.name, before, g, played)


def _refuse_changes_to_team_event(name: str, before: GroupFormat, after: GroupFormat, played: int) -> None:
    """A team competition that has begun keeps its system and its matches; a team Swiss may get more rounds
    (never fewer than it has played), and the ranking chain, board prizes and the line-up deadline (for the
    rounds to come) may change."""
    old, new = before.team_event, after.team_event
    if old is None or new is None:
        raise UserError(
            f"{name}已编排，不能在个人赛与团体赛之间改变",
            f"{name} has rounds: it stays a team or individual event",
        )
    keep = dataclasses.replace(
        new,
        match=dataclasses.replace(new.match, lineup_deadline=old.match.lineup_deadline),
        rounds=old.rounds,
        chain=old.chain,
        board_prizes=old.board_prizes,
        board_prize_min_games=old.board_prize_min_games,
        board_prize_basis=old.board_prize_basis,
    )
    if keep != old:
        raise UserError(
            f"{name}团体赛已开始，除轮次（团体积分编排）、名次区分办法和台次奖外不能再修改",
            f"{name}: the team event has begun; only its rounds (Swiss), tiebreaks and board prizes may change",
        )
    if new.rounds < played:
        raise UserError(
            f"{name}已编排到第 {played} 轮，总轮数不能少于 {played}",
            f"{name} is paired up to round {played}; it cannot have fewer rounds",
        )


def _refuse_changes_to_begun_stages(name: str, before: GroupFormat, after: GroupFormat, played: int) -> None:
    """A stage whose rounds have begun keeps its kind and its settings; a Swiss may get more rounds, never
    fewer than it has played."""
    plans = plan_stages(before.stages)
    for i, stage in enumerate(before.stages):
        first = plans[i].first_round
        if not first or first > played:
            continue
        if i >= len(after.stages):
            raise UserError(
                f"{name}第{i + 1}阶段已开始，不能删除",
                f"{name}: stage {i + 1} has begun and cannot be removed",
            )
        new = after.stages[i]
        if stage.kind is StageKind.SWISS and new.kind is StageKind.SWISS:
            if dataclasses.replace(new, rounds=stage.rounds) != stage:
                raise UserError(
                    f"{name}第{i + 1}阶段已开始，除轮次外不能再修改",
                    f"{name}: stage {i + 1} has begun; only its rounds may change",
                )
            if first + new.rounds - 1 < played:
                raise UserError(
                    f"{name}已编排到第 {played} 轮，第{i + 1}阶段的轮次不能少于 {played - first + 1}",
                    f"{name} is paired up to round {played}; stage {i + 1} needs at least {played - first + 1} rounds",
                )
        elif new != stage:
            raise UserError(
                f"{name}第{i + 1}阶段已开始，不能再修改", f"{name}: stage {i + 1} has begun and cannot change"
            )


def export_regulations_toml(db: Database) -> str:
    return regulations_to_toml(load_regulations(db))


def import_regulations_toml(
    db: Database, text: str, *, reason: str = "", who: str = audit.DEFAULT_ARBITER
) -> None:
    update_regulations(db, regulations_from_toml(text), reason=reason or "导入规程", who=who)
