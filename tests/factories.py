"""Small hand-made tournaments for tests, as snapshot dicts (the snapshot format of ``xqarbiter export``)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.engine.regulations import preset, regulations_to_dict

if TYPE_CHECKING:
    from app.db.session import Database

WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def resident_id(region: str, born: str, serial: int) -> str:
    """A valid 18-character ID number (checksum computed independently of the app)."""
    first17 = f"{region}{born}{serial:03d}"
    return first17 + "10X98765432"[sum(int(d) * w for d, w in zip(first17, WEIGHTS, strict=True)) % 11]


def player(
    no: int | None, name: str, group: str = "公开组", team: str | None = None, **extra: Any
) -> dict[str, Any]:
    k = no if no is not None else 99
    p = {
        "no": no,
        "name": name,
        "group": group,
        "team": team,
        "id_type": "resident_id",
        "id_number": resident_id(
            "620503" if group == "公开组" else "620502", f"19{70 + k % 30:02d}0{1 + k % 9}1{k % 10}", k
        ),
        "birth_date": f"19{70 + k % 30:02d}-0{1 + k % 9}-1{k % 10}",
        "gender": "male",
        "phone": f"139{k:08d}",
        "rating": None,
        "unit": "",
        "notes": "",
        "fee_paid": True,
        "insurance": True,
        "pledge": True,
        "checked_in": True,
        "status": "active",
        "status_round": None,
        "dq_games": "",
        "registered_at": "2024-07-10T09:00:00",
        "late_entry_round": None,
        "region": "",
        "reentry_round": None,
    }
    p.update(extra)
    return p


def snapshot(
    players: list[dict[str, Any]], rounds: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    teams = sorted({(p["team"], p["group"]) for p in players if p["team"]})
    data: dict[str, Any] = {
        "format": "xqarbiter-snapshot",
        "version": 1,
        "tournament": {
            "name": "测试赛",
            "preset": "tianshui-2024",
            "start_date": "2024-07-26",
            "created_at": "2024-07-01T08:00:00",
            "settings": regulations_to_dict(preset("tianshui-2024")),
        },
        "groups": [
            {"name": "公开组", "teams": True, "numbers_method": "manual", "numbers_seed": None},
            {"name": "天水本地组", "teams": False, "numbers_method": "", "numbers_seed": None},
        ],
        "teams": [{"name": t, "group": g, "leader": ""} for t, g in teams],
        "players": players,
        "rounds": rounds or [],
        "knockout": [],
        "violations": [],
        "records": [],
        "absences": [],
        "paperwork": None,
        "pair_avoidances": [],
        "audit": [],
    }
    data.update(extra)
    return data


def swiss_round(
    number: int, games: list[tuple[int, int, str]], byes: list[int] | None = None, group: str = "公开组"
) -> dict[str, Any]:
    return {
        "group": group,
        "round": number,
        "stage": "swiss",
        "seed": None,
        "paired_at": f"2024-07-26T{8 + number:02d}:00:00",
        "closed_at": None,
        "games": [
            {"board": b, "red": r, "black": k, "result": res, "game_no": 1, "kind": "swiss", "match": None}
            for b, (r, k, res) in enumerate(games, start=1)
        ],
        "byes": byes or [],
        "explanation": None,
    }


def copy_event(template: Path, target: Path) -> Path:
    """A private copy of a shared event file (the file only: a closed file has no WAL beside it)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, target)
    return target


def open_copy(template: Path, target: Path) -> Database:
    """A private copy of a shared event file, opened for editing as the window and the commands open one."""
    from app.services.tournaments import open_tournament

    return open_tournament(copy_event(template, target))
