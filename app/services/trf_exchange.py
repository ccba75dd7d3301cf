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
from app.engine.trf import TrfError, TrfEvent, TrfPlayer, read_trf, write_trf
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
    # issue 16: excused rounds and late entries' compensation (points only) from the snapshot's keys
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
                fide_id=p["id_number"] if p.get("id_type") == "fide" else "",
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


def snapshot_of_trf(event: TrfEvent) -> dict[str, Any]:
    base = preset("tianshui-2024")
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
                "id_type": "fide" if p.fide_id else "passport",
                "id_number": p.fide_id or f"TRF-{p.no:04d}",
                "birth_date": p.birth_date.isoformat() if p.birth_date else "2000-01-01",
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
        "audit": [{"action": "import_trf", "entity": group, "after": f"{len(event.players)} players"}],
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


def import_trf(path_trf: Path | str, path_xqt: Path | str) -> Database:
    """Create a new tournament file from a TRF (one group, its players, rounds and results)."""
    from app.files import read_limited

    raw = read_limited(Path(path_trf), TRF_MAX_BYTES, what_zh="TRF 文件", what_en="TRF file")
    return import_snapshot(snapshot_of_trf(read_trf(decode_trf(raw))), path_xqt)
