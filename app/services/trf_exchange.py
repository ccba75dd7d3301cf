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
        snapshot = export_snapshot(db_or_path)
    else:
        from app.services.tournaments import open_tournament

        db = open_tournament(db_or_path, read_only=True)
        try:
            snapshot = export_snapshot(db)
        finally:
            db.close()
    return write_trf(trf_event_of(snapshot, group), ranks, for_pairing=for_pairing)


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


def import_trf_with_notes(
    path_trf: Path | str, path_xqt: Path | str, *, group: str | None = None
) -> tuple[Database, list[str]]:
    """Create a new tournament file from a TRF (one group, its players, rounds and results) and say
    what was decided on the way (group name, scoring, points that differ)."""
    from app.files import read_limited

    raw = read_limited(Path(path_trf), TRF_MAX_BYTES, what_zh="TRF 文件", what_en="TRF file")
    event = read_trf(decode_trf(raw))
    if group is not None:
        group = clean_text(group, "组别名称", "the group name", GROUP_NAME_MAX, required=True)
    event = dataclasses.replace(event, name=_event_name(event))
    notes = trf_import_notes(event, group)
    return import_snapshot(snapshot_of_trf(event, group), path_xqt), notes


def import_trf(path_trf: Path | str, path_xqt: Path | str, *, group: str | None = None) -> Database:
    """Create a new tournament file from a TRF (see :func:`import_trf_with_notes`)."""
    return import_trf_with_notes(path_trf, path_xqt, group=group)[0]
