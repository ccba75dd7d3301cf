"""Documents of the whole event: the result workbook, the results book, the certificates and the
avoidance list (the public site's pages: :mod:`app.services.public_pages`)."""

from __future__ import annotations

from collections.abc import Sequence

from app.db.session import Database
from app.engine.privacy import KnownNumbers, mask_personal
from app.engine.types import (
    UserError,
)
from app.reports import model
from app.reports.team_model import TeamEventBook
from app.services import paperwork_docs
from app.services.audit import audit_log
from app.services.constraints import pair_avoidances
from app.services.exports.common import event_header, event_info, group_names
from app.services.exports.entries import entry_list
from app.services.exports.knockout import bracket
from app.services.exports.prizes import prize_label, prize_list_model
from app.services.exports.rounds import round_results
from app.services.exports.standings import crosstable, final_view, standings, team_standings_model
from app.services.knockout import bracket_of
from app.services.rounds import group_state, rounds_of
from app.services.standings import is_final


def _scrub(text: str, known: Sequence[str] | KnownNumbers = ()) -> str:
    """Mask every personal number (the event's own in any spelling, and anything shaped like an ID,
    permit, passport or phone number) and cut absolute paths to the file name: audit details may
    quote them (:func:`app.engine.privacy.mask_personal`)."""
    return mask_personal(text, known)


def _personal_numbers(db: Database) -> tuple[str, ...]:
    """Every ID and phone number registered in the event (to recognise them however they are written)."""
    from sqlalchemy import select

    from app.db.models import Group, Player

    with db.session() as s:  # the two columns only, in the players' list order (list_players)
        rows = s.execute(
            select(Player.id_number, Player.phone)
            .join(Group, Player.group_id == Group.id)
            .order_by(Group.position, Player.no.is_(None), Player.no, Player.id)
        )
        return tuple(n for row in rows for n in row if n)


def _audit_lines(db: Database) -> tuple[model.AuditLine, ...]:
    """The audit log for the workbook: when, who, what and why — never the before/after values, never
    a personal number or a folder."""
    known = KnownNumbers(_personal_numbers(db))  # compiled once for every line
    masked: dict[str, str] = {}  # a text met again (the arbiter's name on every line) is masked once

    def scrub(text: str) -> str:
        out = masked.get(text)
        if out is None:
            out = masked[text] = _scrub(text, known)
        return out

    return tuple(
        model.AuditLine(
            f"{a.at:%Y-%m-%d %H:%M:%S}",
            scrub(a.who),
            a.action,
            scrub("；".join(part for part in (a.entity, a.reason) if part)),
        )
        for a in audit_log(db)
    )


def paired_groups(db: Database) -> list[tuple[str, list[int]]]:
    """Each group with its individual rounds (a team competition's rounds are matches: see
    :func:`team_event_books`)."""
    from app.services.team_events import is_team_group

    out = []
    for name in group_names(db):
        numbers = [] if is_team_group(db, name) else sorted(r.number for r in rounds_of(db, name))
        out.append((name, numbers))
    return out


def team_event_books(db: Database) -> tuple[TeamEventBook, ...]:
    """The team competitions that have paired a round, for the workbook."""
    from app.services.team_events import is_team_group, team_round_numbers
    from app.services.team_exports import team_event_book

    return tuple(
        team_event_book(db, name)
        for name in group_names(db)
        if is_team_group(db, name) and team_round_numbers(db, name)
    )


def optional_prizes(db: Database) -> model.PrizeList | None:
    try:
        return prize_list_model(db)
    except UserError:
        return None


def _event_parts(
    db: Database,
) -> tuple[
    list[model.EntryList],
    list[model.PairingList],
    list[model.Standings],
    list[model.Crosstable],
    list[model.TeamStandings],
    list[str],
]:
    info = event_info(db)
    entries, rounds, tables, crosstables, teams, with_bracket = [], [], [], [], [], []
    for name, numbers in paired_groups(db):
        if any(g.name == name and g.players for g in info.groups):
            entries.append(entry_list(db, name))
        for n in numbers:
            rounds.append(round_results(db, name, n))
        if numbers:
            if any(r.pending == 0 for r in rounds_of(db, name)[:1]):  # round 1 complete: a ranking exists
                tables.append(standings(db, name))
                crosstables.append(crosstable(db, name))
            if any(g.name == name and g.teams for g in info.groups):
                teams.append(team_standings_model(db, name))
            if bracket_of(db, name) is not None:
                with_bracket.append(name)
    return entries, rounds, tables, crosstables, teams, with_bracket


def result_workbook(db: Database) -> model.ResultWorkbook:
    """The Excel result workbook: entry list, every round, standings, crosstable, teams, prizes, audit log.

    One reading of the file: each group's state and bracket are read once for all the sheets.
    """
    with db.one_reading():
        entries, rounds, tables, crosstables, teams, _ = _event_parts(db)
        return model.ResultWorkbook(
            event_name=mask_personal(event_info(db).name),
            entries=tuple(entries),
            rounds=tuple(rounds),
            standings=tuple(tables),
            crosstables=tuple(crosstables),
            teams=tuple(teams),
            prizes=optional_prizes(db),
            audit=_audit_lines(db),
            round_robins=_round_robin_tables(db),
        )


def _round_robin_tables(db: Database) -> tuple[model.RoundRobinTable, ...]:
    """The square tables of the groups playing (or having played) a round robin."""
    from app.services.round_robin_docs import round_robin_table

    info = event_info(db)
    out = []
    for g in info.groups:
        state = group_state(db, g.name)
        if any(b.kind.value == "round_robin" for b in state.begun) and state.rounds:
            name = g.name

            def header(n: int | None, label: str, name: str = name) -> model.EventHeader:
                return event_header(info, name, n, label)

            out.append(round_robin_table(db, name, header))
    return tuple(out)


# --------------------------------------------------------------------------- results book, certificates


def results_book(db: Database) -> model.ResultsBook:
    """成绩册: regulation summary, officials, then for each group every round's results, the final
    standings (the current ones, marked 暂列, before the end), the teams and the knockout; the prizes."""
    info = event_info(db)
    label = prize_label(db)
    groups = []
    for name, numbers in paired_groups(db):
        if not numbers:
            continue
        # the final ranking once the group is over (its places explained against the next player, the
        # knockout places first), else the current standings, marked 暂列 — the 名次表 the lists print
        final = final_view(db, name) is not None
        try:
            table = standings(db, name)
        except UserError:
            table = None  # round 1 not complete yet: the results of the rounds only
        teams = (
            team_standings_model(db, name) if any(g.name == name and g.teams for g in info.groups) else None
        )
        groups.append(
            model.BookGroup(
                name,
                tuple(round_results(db, name, n) for n in numbers),
                table,
                final,
                teams,
                bracket(db, name) if bracket_of(db, name) is not None else None,
            )
        )
    if not groups:
        raise UserError(
            "尚未编排任何轮次，还没有成绩册", "no round has been paired yet: there is no results book"
        )
    header = event_header(info, round_label="成绩册" + ("（暂列，比赛尚未结束）" if label else ""))
    return paperwork_docs.results_book(db, header, groups, optional_prizes(db), bool(label))


def avoidance_list(db: Database, group: str) -> model.AvoidanceList:
    """回避名单 (内部): the regulation's unit / region rules and the group's named pairs kept apart."""
    info = event_info(db)
    rules = tuple(
        f"{r.basis.zh}{r.strength.zh}（{r.rounds_zh}）" for r in info.regulations.pairing.avoidances
    )
    pairs = tuple(
        model.AvoidanceLine(
            f"{v.first} {v.first_name}", f"{v.second} {v.second_name}", v.strength.zh, v.rounds_zh, v.reason
        )
        for v in pair_avoidances(db, group)
    )
    return model.AvoidanceList(event_header(info, group), rules, pairs, paperwork_docs.signoff(db))


def certificates(db: Database, group: str | None = None) -> model.Certificates:
    """获奖证书 of every prize awarded (of one group, if given), from the editable template — only for the
    groups whose last round is complete (a certificate is never printed for a provisional place)."""
    info = event_info(db)
    prize_label(db)  # refused before any round
    finished = set()
    for g in info.groups:
        if g.players and is_final(db, g.name):
            finished.add(g.name)
    if (group is not None and group not in finished) or not finished:
        raise UserError(
            f"{group or '各组'}比赛尚未结束，还不能打印获奖证书",
            f"{group or 'no group'} has not finished its last round: no certificates yet",
        )
    return paperwork_docs.certificates(
        db, event_header(info, group or ""), finished if group is None else {group}
    )
