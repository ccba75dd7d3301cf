"""A finished event of thousands of players in one tournament file, for the command benchmarks.

``big_event(players)`` returns the path of a tournament file holding one group (the preset's 公开组
format: 8 Swiss rounds, a knockout of 8, 11 rounds in all) of ``players`` players, played to the end
through the services exactly as the demo is (pairing, random results, the knockout with its rapid
and deciding games, every round closed). The field is the demo's (names, units, teams, ID numbers),
registered through a snapshot (the demo itself stops at the preset's 160 places). Building 5,000
players takes a few minutes; the file is kept in the system's temporary folder and reused.

    python bench/big_event.py [players]   # build (or find) it and print its path
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GROUP = "公开组"
VERSION = 1  # bump when the event built here changes


def big_event(players: int = 5000, seed: int = 2024, rounds: int | None = None) -> Path:
    """The path of a ``players``-player event (built once, then reused): finished, or with only its
    first ``rounds`` Swiss rounds played and closed (the next one to pair)."""
    folder = Path(tempfile.gettempdir()) / "xqarbiter-bench"
    folder.mkdir(exist_ok=True)
    played = "end" if rounds is None else f"r{rounds}"
    path = folder / f"event-{players}-s{seed}-{played}-v{VERSION}.xqt"
    if path.is_file():
        return _at_head(path)
    building = path.with_suffix(".building.xqt")
    for suffix in ("", "-wal", "-shm"):
        Path(str(building) + suffix).unlink(missing_ok=True)
    _build(building, players, seed, rounds)
    for suffix in ("-wal", "-shm"):
        Path(str(building) + suffix).unlink(missing_ok=True)
    building.rename(path)
    return path


def _at_head(path: Path) -> Path:
    """The event at the program's schema: a file built by an older program is migrated once, as a copy
    beside it (``…-schema0008.xqt``): a read-only command does not migrate a file, and the original may
    be in use by another checkout's benchmarks."""
    from app.db.revisions import file_revision, head_revision

    head = head_revision()
    if file_revision(path) == head:
        return path
    migrated = path.with_name(f"{path.stem}-schema{head}.xqt")
    if not migrated.is_file():
        from app.db.session import open_database

        work = migrated.with_suffix(".migrating.xqt")
        shutil.copy(path, work)
        open_database(work).close()  # opened for writing: migrated
        for suffix in ("-wal", "-shm"):
            Path(str(work) + suffix).unlink(missing_ok=True)
        work.rename(migrated)
    return migrated


def _snapshot(players: int, seed: int) -> dict[str, Any]:
    from app.engine.regulations import preset, regulations_to_dict
    from app.services.demo import demo_field

    reg = preset("tianshui-2024")
    settings = regulations_to_dict(reg)
    settings["groups"] = [g for g in settings["groups"] if g["name"] == GROUP]
    settings["prizes"] = [p for p in settings["prizes"] if p["group"] == GROUP]
    settings["registration"]["capacity"] = players
    field = demo_field(seed, players)
    teams: dict[str, str] = {}
    rows = []
    for no, p in enumerate(field, start=1):
        if p.team is not None:
            teams.setdefault(p.team, p.name)
        rows.append(
            {
                "no": no,
                "name": p.name,
                "group": GROUP,
                "team": p.team,
                "id_type": "resident_id",
                "id_number": p.id_number,
                "birth_date": p.birth_date.isoformat(),
                "gender": p.gender,
                "phone": p.phone,
                "rating": p.rating,
                "unit": p.unit,
                "notes": "",
                "fee_paid": True,
                "insurance": True,
                "pledge": True,
                "checked_in": True,
                "status": "active",
                "registered_at": p.registered_at.isoformat(timespec="seconds"),
            }
        )
    return {
        "format": "xqarbiter-snapshot",
        "version": 1,
        "tournament": {
            "name": reg.event_name,
            "preset": "tianshui-2024",
            "start_date": reg.start_date.isoformat(),
            "created_at": datetime(2024, 7, 1, 9).isoformat(),
            "settings": settings,
        },
        "groups": [{"name": GROUP, "teams": True, "numbers_method": "lot", "numbers_seed": seed}],
        "teams": [{"name": t, "group": GROUP, "leader": leader} for t, leader in teams.items()],
        "players": rows,
        "rounds": [],
        "knockout": [],
        "violations": [],
        "records": [],
        "absences": [],
        "paperwork": None,
        "pair_avoidances": [],
        "audit": [],
    }


def _build(path: Path, players: int, seed: int, rounds: int | None) -> None:
    from app.services.rounds import close_round, pair_next_round
    from app.services.simulation import DEMO_ARBITER, play_demo_to_end, play_random_results
    from app.services.snapshot import import_snapshot

    start = time.perf_counter()
    db = import_snapshot(_snapshot(players, seed), path)
    try:
        if rounds is None:
            play_demo_to_end(db, seed=seed)
        for number in range(1, (rounds or 0) + 1):
            pair_next_round(db, GROUP, seed=seed + number, who=DEMO_ARBITER)
            play_random_results(db, GROUP, number, seed=seed + number, forfeit_rate=0.02, who=DEMO_ARBITER)
            close_round(db, GROUP, number, who=DEMO_ARBITER)
    finally:
        db.close()
    shutil.rmtree(Path(str(path) + ".backups"), ignore_errors=True)
    print(f"built {path} in {time.perf_counter() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    print(big_event(count, rounds=int(sys.argv[2]) if len(sys.argv) > 2 else None))
