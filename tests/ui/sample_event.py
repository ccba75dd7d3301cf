"""A tournament file for UI tests, screenshots and benchmarks, built only through services.

The demo field (``app.services.demo.demo_field``) is registered through a snapshot import, with
sequence numbers in field order and, optionally, rounds paired by a plain fold (1–2, 3–4, …) so the
rounds view has boards to show before the pairing service exists. These pairings are test data,
not Swiss pairings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.engine.regulations import preset, regulations_to_dict
from app.services.demo import demo_field
from app.services.snapshot import import_snapshot

CYCLE = ("red_win", "draw", "black_win", "red_win", "black_win", "draw", "black_forfeit", "red_win")


def make_event(
    path: Path, *, players: int = 160, rounds: int = 0, played: int = 0, seed: int = 2024, absent: int = 0
) -> Path:
    """Write a tournament file; ``rounds`` rounds paired per group, the first ``played`` with results."""
    reg = preset("tianshui-2024")
    field = demo_field(seed, players, absent=absent)
    numbers: dict[str, int] = {}
    snapshot_players: list[dict[str, Any]] = []
    teams: dict[tuple[str, str], None] = {}
    for p in field:
        numbers[p.group] = numbers.get(p.group, 0) + 1
        if p.team:
            teams[(p.team, p.group)] = None
        snapshot_players.append(
            {
                "no": numbers[p.group],
                "name": p.name,
                "group": p.group,
                "team": p.team,
                "unit": p.unit,
                "gender": p.gender,
                "id_number": p.id_number,
                "birth_date": p.birth_date.isoformat(),
                "phone": p.phone,
                "rating": p.rating,
                "fee_paid": p.fee_paid,
                "insurance": True,
                "pledge": True,
                "checked_in": p.checked_in,
                "status": "active",
                "registered_at": p.registered_at.isoformat(),
            }
        )
    snapshot_rounds: list[dict[str, Any]] = []
    for group, count in numbers.items():
        for r in range(1, rounds + 1):
            order = list(range(1, count + 1))
            shift = (r - 1) * 2 % max(count - 1, 1)
            order = order[:1] + order[1:][shift:] + order[1:][:shift]
            games = []
            for board, i in enumerate(range(0, count - 1, 2), start=1):
                red, black = (order[i], order[i + 1]) if (board + r) % 2 else (order[i + 1], order[i])
                result = CYCLE[(board + r) % len(CYCLE)] if r <= played else "pending"
                games.append({"board": board, "red": red, "black": black, "result": result})
            byes = [order[-1]] if count % 2 else []
            snapshot_rounds.append({"group": group, "round": r, "games": games, "byes": byes})
    data = {
        "format": "xqarbiter-snapshot",
        "version": 1,
        "tournament": {
            "name": reg.event_name,
            "preset": "tianshui-2024",
            "start_date": reg.start_date.isoformat(),
            "settings": regulations_to_dict(reg),
        },
        "groups": [{"name": g.name, "teams": g.teams} for g in reg.groups],
        "teams": [{"name": t, "group": g} for t, g in teams],
        "players": snapshot_players,
        "rounds": snapshot_rounds,
        "violations": [],
    }
    import_snapshot(data, path).close()
    return path
