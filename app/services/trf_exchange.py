"""TRF exchange: export a group as a FIDE TRF, import a TRF as a new tournament (``app.engine.trf``).

Only the Swiss rounds are exported (a knockout match of several games has no TRF form). Ranks in the
``001`` lines are by points then 序号 unless the caller passes the standings' places.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from app.db.session import Database
from app.engine.attendance import Attendance, with_absences
from app.engine.formats import legacy_stages
from app.engine.regulations import GroupFormat, preset, regulations_from_dict, regulations_to_dict
from app.engine.text import EVENT_NAME_MAX, GROUP_NAME_MAX, clean_text, count_en
from app.engine.trf import TrfError, TrfEvent, TrfPlayer, player_points, read_trf, write_trf
from app.engine.types import Game, GameResult, RoundRecord, UserError
from app.services.snapshot import FORMAT, VERSION, export_snapshot, import_snapshot

SEX = {"male": "m", "female": "w"}
GENDER = {v: k for k, v in SEX.items()}


def trf_event_of(snapshot: dict[str, Any], group: str) -> TrfEvent:
    settings = snapshot["tournament"]["settings"]
    reg = regulations_from_dict(settings)
    if group not in {g["name"] for g in snapshot["groups"]}:
        names = "、".join(g["name"] for g in snapshot["groups"])
        raise UserError(f"没有名为“{group}”的组别（现有：{names}）", f"no group named {group!r}")
    players = [p for p in snapshot["players"] if p["group"] == group and p["no"] is not None]
    teams: dict[str, list[int]] = {}
    for p in players:
        if p["team"]:
            teams.setdefault(p["team"], []).append(p["no"])
    rounds = [
        RoundRecord(
            r["round"],
            tuple(
                Game(g["board"], g["red"], g["black"], GameResult(g["result"]))
                for g in r["games"]
                if g.get("kind", "swiss") == "swiss"
            ),
            tuple(r["byes"]),
        )
        for r in snapshot["rounds"]
        if r["group"] == group and r.get("stage", "swiss") == "swiss"
    ]
    # absence and re-entry: excused rounds and late entries' compensation (points only) from the snapshot's keys
    excused: dict[int, set[int]] = {}
    for a in snapshot.get("absences", []):
        if a.get("group") == group:
            excused.setdefault(a["player"], set()).add(a["round"])
    attendance = [
        Attendance(p["no"], p.get("late_entry_round"), frozenset(excused.get(p["no"], ())))
        for p in players
        if p.get("late_entry_round") is not None or p["no"] in excused
    ]
    rounds = list(with_absences(rounds, attendance, reg.pairing, reg.points))
    tc = reg.swiss_time_control
    fmt = next((g for g in reg.groups if g.name == group), None)
    return TrfEvent(
        name=snapshot["tournament"]["name"],
        group=group,
        players=tuple(
            TrfPlayer(
                no=p["no"],
                name=p["name"],
                rating=p["rating"],
                sex=SEX.get(p.get("gender", ""), ""),
                birth_date=date.fromisoformat(p["birth_date"]) if p.get("birth_date") else None,
                fide_id=p["id_number"]
                if p.get("id_type") == "fide" and not str(p["id_number"]).startswith("TRF-")
                else "",
            )
            for p in players
        ),
        rounds=tuple(rounds),
        points=reg.points,
        teams=tuple((name, tuple(sorted(nos))) for name, nos in teams.items()),
        planned_rounds=None if fmt is None else fmt.rounds,
        venue=reg.venue,
        start_date=reg.start_date,
        end_date=reg.end_date,
        time_control=f"{tc.minutes}'+{tc.increment_seconds}\"",
    )


def export_trf(
    db_or_path: Database | Path | str,
    group: str,
    ranks: Mapping[int, int] | None = None,
    for_pairing: bool = False,
) -> str:
    """The TRF text of one group (opened read-only when given a path).

    ``for_pairing``: for a pairing engine (bbpPairings, JaVaFo) — completed rounds only, no teams.
    """
    if isinstance(db_or_path, Database):
        return _export_trf(db_or_path, group, ranks, for_pairing)
    from app.services.tournaments import open_tournament

    db = open_tournament(db_or_path, read_only=True)
    try:
        return _export_trf(db, group, ranks, for_pairing)
    finally:
        db.close()


def _export_trf(db: Database, group: str, ranks: Mapping[int, int] | None, for_pairing: bool) -> str:
    from app.services.team_events import is_team_group

    snapshot = export_snapshot(db)
    event = trf_event_of(snapshot, group)
    if is_team_group(db, group):
        if for_pairing:
            raise UserError(
                f"{group}是团体赛：团体赛的编排不交给个人赛编排程序（--for-pairing 只用于个人积分编排）",
                f"{group} is a team competition: --for-pairing is for an individual Swiss only",
            )
        event = team_trf_event(db, group, event)
    return write_trf(event, ranks, for_pairing=for_pairing)


def team_trf_event(db: Database, group: str, base: TrfEvent) -> TrfEvent:
    """A team competition as TRF-2026 says it: each player's board games in the ``001`` lines (their
    局分 under the ``162`` scoring), the team section (``310`` teams with 场分, 局分, place and members
    in registered order; ``352`` colours by board; ``362`` 场分; ``320`` byes; ``330`` a team that did
    not appear; ``300`` line-ups out of the registered order; ``299`` a board won because the other
    seat was empty; ``802`` each team's rounds). Tie-break (加赛) games decide a match but are not
    game points: they are not in the ``001`` lines."""
    from app.engine.team_formats import bye_game_points
    from app.engine.team_match import home_is_red
    from app.engine.team_rules import TeamSystem
    from app.engine.trf import TrfTeam, TrfTeamMatch, TrfTeamSection
    from app.services.team_events import (
        team_event_of,
        team_round_numbers,
        team_round_view,
        team_standings_view,
        teams_of,
    )
    from app.services.tournaments import load_regulations

    event = team_event_of(load_regulations(db), group)
    rules = event.match
    standings = team_standings_view(db, group)
    rows = {r.team: r for r in standings.ranking.rows}
    teams = [t for t in teams_of(db, group) if t.no is not None]
    members = {t.no: tuple(p.no for p in t.roster if p.no is not None) for t in teams}
    rounds: list[RoundRecord] = []
    matches: list[TrfTeamMatch] = []
    byes: list[tuple[int, int]] = []
    out_of_order: list[tuple[int, int, int, tuple[int, ...]]] = []
    forfeit_wins: list[tuple[int, int, float]] = []
    for n in team_round_numbers(db, group):
        view = team_round_view(db, group, n)
        games: list[Game] = []
        for m in view.matches:
            if m.away_no is None:  # a Swiss bye scores (320 PAB); a round robin's rest does not (ZPB)
                if event.system is TeamSystem.SWISS:
                    byes.append((n, m.home_no))
                continue
            decided = m.score is not None and m.score.decided
            forfeit = (
                "--"
                if m.home_absent and m.away_absent
                else "-+"
                if m.home_absent
                else "+-"
                if m.away_absent
                else ""
            )
            matches.append(
                TrfTeamMatch(
                    n,
                    m.home_no,
                    m.away_no,
                    float(m.score.home_points) if decided and m.score else None,
                    float(m.score.away_points) if decided and m.score else None,
                    forfeit,
                )
            )
            if not m.seated:
                continue
            for side, opponent, seats in (
                (m.home_no, m.away_no, [b.home.no for b in m.boards]),
                (m.away_no, m.home_no, [b.away.no for b in m.boards]),
            ):
                if tuple(seats) != members.get(side, ())[: len(seats)]:
                    out_of_order.append((n, side, opponent, tuple(no or 0 for no in seats)))
            for b in m.boards:
                if b.home.no is not None and b.away.no is not None:
                    red, black = (b.home.no, b.away.no) if b.home_red else (b.away.no, b.home.no)
                    games.append(Game(b.table, red, black, b.result))
                elif b.points is not None:  # one seat empty: the other wins the board by forfeit
                    for no, value in ((b.home.no, b.points[0]), (b.away.no, b.points[1])):
                        if no is not None:
                            forfeit_wins.append((n, no, float(value)))
        games.sort(key=lambda g: g.board)
        rounds.append(
            RoundRecord(n, tuple(Game(i, g.red, g.black, g.result) for i, g in enumerate(games, 1)))
        )
    mp = rules.match_points
    gp = rules.game_points
    section = TrfTeamSection(
        tuple(
            TrfTeam(
                t.no,
                t.name,
                members[t.no],
                float(rows[t.no].match_points) if t.no in rows else 0.0,
                float(rows[t.no].game_points) if t.no in rows else 0.0,
                rows[t.no].rank if t.no in rows else 0,
            )
            for t in teams
            if t.no is not None
        ),
        tuple(sorted(matches, key=lambda x: (x.round, x.white))),  # TRF has no match numbers
        tuple(byes),
        "".join("W" if home_is_red(b, rules) else "B" for b in range(1, rules.boards + 1)),
        (float(mp.win), float(mp.draw), float(mp.loss)),
        (float(mp.bye), float(bye_game_points(event))) if byes else (2.0, 0.0),  # 320 only with byes
        tuple(out_of_order),
        tuple(forfeit_wins),
    )
    from app.engine.regulations import Points

    return dataclasses.replace(
        base,
        rounds=tuple(rounds),
        points=Points(gp.win, gp.draw, gp.draw, gp.loss, 0, gp.forfeit_win, gp.forfeit_loss),
        teams=(),
        planned_rounds=standings.total_rounds or None,
        kind="Team competition (Chinese Xiangqi Association rules)",
        team_section=section,
    )


def write_trf_file(
    db: Database, group: str, path: Path | str, ranks: Mapping[int, int] | None = None
) -> None:
    from app.files import write_atomic

    write_atomic(path, export_trf(db, group, ranks))


def snapshot_of_trf(event: TrfEvent, group: str | None = None) -> dict[str, Any]:
    """The snapshot of a TRF group; ``group`` names it (else the title's （group） part, else the
    shortened title: see :func:`trf_group_name`)."""
    base = preset("tianshui-2024")
    event = dataclasses.replace(event, group=group or trf_group_name(event))
    rounds = max(event.planned_rounds or 0, len(event.rounds), 1)
    reg = dataclasses.replace(
        base,
        event_name=event.name or event.group,
        venue=event.venue,
        start_date=event.start_date or base.start_date,
        end_date=event.end_date or event.start_date or base.end_date,
        groups=(
            GroupFormat(
                event.group or "TRF", teams=bool(event.teams), stages=legacy_stages(rounds, rounds, 0)
            ),
        ),
        points=event.points,
        prizes=(),
    )
    reg.validate()
    group = reg.groups[0].name
    team_of = {no: name for name, members in event.teams for no in members}
    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {
            "name": reg.event_name,
            "preset": "trf",
            "start_date": reg.start_date.isoformat(),
            "settings": regulations_to_dict(reg),
        },
        "groups": [{"name": group, "teams": reg.groups[0].teams}],
        "teams": [{"name": name, "group": group} for name, _ in event.teams],
        "players": [
            {
                "no": p.no,
                "name": p.name,
                "group": group,
                "team": team_of.get(p.no),
                "id_type": "fide",  # a FIDE ID, or TRF-0001 …: the file gives no identity document
                "id_number": p.fide_id or f"TRF-{p.no:04d}",
                "birth_date": p.birth_date.isoformat() if p.birth_date else None,  # unknown stays unknown
                "gender": GENDER.get(p.sex, ""),
                "phone": "",
                "rating": p.rating,
                "fee_paid": True,
                "checked_in": True,
                "status": "active",
            }
            for p in event.players
        ],
        "rounds": [
            {
                "group": group,
                "round": r.number,
                "games": [
                    {"board": g.board, "red": g.red, "black": g.black, "result": g.result.value}
                    for g in r.games
                ],
                "byes": list(r.byes),
            }
            for r in event.rounds
        ],
        "audit": [{"action": "import_trf", "entity": group, "after": count_en(len(event.players), "player")}],
    }


TRF_MAX_BYTES = 20_000_000


def decode_trf(raw: bytes) -> str:
    """A TRF's text: UTF-8 (with or without BOM), else GB18030 (a superset of GBK, what Chinese tools
    write). Anything else is refused rather than guessed (Latin-1 would turn GBK names into garbage)."""
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise TrfError(
        "TRF 文件的编码无法识别（应为 UTF-8 或 GBK），请另存为 UTF-8",
        "the TRF file's encoding is not recognised (expected UTF-8 or GBK); save it as UTF-8",
    )


def trf_group_name(event: TrfEvent) -> str:
    """The group of a TRF read from another program: the title's （group） part when it has one, else
    the title itself when it is short enough for a group name, else its first characters and …"""
    name = event.group.strip() or event.name.strip() or "TRF"
    if len(name) <= GROUP_NAME_MAX:
        return name
    return name[: GROUP_NAME_MAX - 1].rstrip() + "…"


def _event_name(event: TrfEvent) -> str:
    name = event.name.strip() or event.group.strip() or "TRF"
    return name if len(name) <= EVENT_NAME_MAX else name[: EVENT_NAME_MAX - 1].rstrip() + "…"


def trf_import_notes(event: TrfEvent, group: str | None) -> list[str]:
    """What an import of another program's TRF decided on the user's behalf, in both languages."""
    notes = []
    chosen = group or trf_group_name(event)
    if group:
        notes.append(f"组别取名“{chosen}”（--group） (the group is named {chosen!r}, as given)")
    elif not event.group_given:
        notes.append(
            f"TRF 的赛事名称中没有（组别）部分：组别取名“{chosen}”，可用 --group 另行指定 "
            f"(the TRF title has no (group) part: the group is named {chosen!r}; give --group NAME for another)"
        )
    if len(event.name.strip()) > EVENT_NAME_MAX:
        notes.append(
            f"赛事名称超过 {EVENT_NAME_MAX} 个字符，已截短 (the event name is over {EVENT_NAME_MAX} characters: shortened)"
        )
    if not event.scoring_given:
        p = event.points
        notes.append(
            "TRF 文件没有计分记录（162、XQS 或 BB*）：按 TRF 标准（胜 1、和 ½、负 0）读入，"
            f"换算为本赛事的计分（胜 {p.win}、和 {p.red_draw}、负 {p.loss}、轮空 {p.bye}），积分为文件中的两倍 "
            "(the TRF has no scoring record (162, XQS or BB*): read as TRF's standard 1/½/0 and converted to "
            f"this event's scoring (win {p.win}, draw {p.red_draw}, loss {p.loss}, bye {p.bye}): "
            "every score is twice the file's)"
        )
    differ = _points_that_differ(event)
    if differ:
        shown = "、".join(f"{no} 号（文件 {a:g}，按结果 {b:g}）" for no, a, b in differ[:5])
        shown_en = ", ".join(f"no. {no} (file {a:g}, from the results {b:g})" for no, a, b in differ[:5])
        notes.append(
            f"{len(differ)} 名棋手在文件中的积分与按对局结果算出的不同：{shown}；以对局结果为准 "
            f"({count_en(len(differ), 'player')} whose points in the file differ from their results: "
            f"{shown_en}; the results count)"
        )
    return notes


def _points_that_differ(event: TrfEvent) -> list[tuple[int, float, float]]:
    """Players whose stated points (in the file's own scale) differ from their results'."""
    computed = player_points(event)
    scale = 0.5 if not event.scoring_given else 1.0  # the file's 1/½/0 against our doubled scoring
    return [
        (no, stated, computed.get(no, 0.0) * scale)
        for no, (stated, _rank) in sorted(event.scores.items())
        if abs(stated - computed.get(no, 0.0) * scale) > 1e-9
    ]


def _refuse_a_team_competition(text: str) -> None:
    """A TRF of a team competition (TRF-2026's team section: 310, 320, 330, 300, 299, 802 …) cannot be
    imported: its matches, line-ups and 场分 have no place in an individual event, and dropping them
    without a word would be worse. The first such line is named. (``013`` teams of an individual event
    are imported as its teams.)"""
    from app.engine.trf import TEAM_RECORDS

    for at, line in enumerate(text.splitlines(), start=1):
        if line[:3] in TEAM_RECORDS:
            raise UserError(
                f"TRF 第 {at} 行是团体赛记录（{line[:3]}）：团体赛（队与队对抗）的 TRF 不能导入为新赛事，"
                "请在本程序中登记各队后编排；个人赛的团体（013 行）可以导入。"
                f"该行：{line[:60]}",
                f"TRF line {at} is a team competition record ({line[:3]}): the TRF of a team competition "
                "(team against team) cannot be imported as a new event; register the teams in this program "
                f"instead (an individual event's 013 teams can be imported). The line: {line[:60]}",
            )


def import_trf_with_notes(
    path_trf: Path | str, path_xqt: Path | str, *, group: str | None = None
) -> tuple[Database, list[str]]:
    """Create a new tournament file from a TRF (one group, its players, rounds and results) and say
    what was decided on the way (group name, scoring, points that differ)."""
    from app.files import read_limited

    raw = read_limited(Path(path_trf), TRF_MAX_BYTES, what_zh="TRF 文件", what_en="TRF file")
    text = decode_trf(raw)
    _refuse_a_team_competition(text)
    event = read_trf(text)
    if group is not None:
        group = clean_text(group, "组别名称", "the group name", GROUP_NAME_MAX, required=True)
    event = dataclasses.replace(event, name=_event_name(event))
    notes = trf_import_notes(event, group)
    return import_snapshot(snapshot_of_trf(event, group), path_xqt), notes


def import_trf(path_trf: Path | str, path_xqt: Path | str, *, group: str | None = None) -> Database:
    """Create a new tournament file from a TRF (see :func:`import_trf_with_notes`)."""
    return import_trf_with_notes(path_trf, path_xqt, group=group)[0]
