"""What every command family shares: opening a tournament file, printing JSON, naming a group or a player.

Only this module and the command modules import services, and only inside functions: ``xqarbiter --help``
and the parser itself import no service, no SQLAlchemy.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.engine.types import UserError


def print_json(value: Any) -> None:
    """Print a value as indented JSON with Chinese kept readable (not escaped)."""
    print(json.dumps(value, ensure_ascii=False, indent=1, default=str))


def open_file(path: str, *, read_only: bool = False) -> Any:
    """Open a tournament file for one command (a context manager: the file is closed and unlocked after)."""
    from app.services.tournaments import open_tournament

    return open_tournament(Path(path), read_only=read_only)


def group_of(db: Any, given: str | None) -> str:
    """The --group given, or the only group with players; an error names the groups otherwise."""
    from app.services.tournaments import tournament_info

    if given:
        return given
    groups = [g.name for g in tournament_info(db).groups if g.players]
    if len(groups) == 1:
        return groups[0]
    raise UserError(
        f"请用 --group 指定组别：{'、'.join(groups)}", f"give --group, one of: {', '.join(groups)}"
    )


def player_id(db: Any, group: str, no: int) -> int:
    """The database id of the player with sequence number ``no`` in ``group``."""
    from app.services.registration import list_players

    for p in list_players(db, group):
        if p.no == no:
            return p.id
    raise UserError(f"{group}没有 {no} 号棋手", f"{group} has no player number {no}")
