"""Printable PDFs of every arbiter document (A4, embedded CJK font, header, footer, page count).

``render_document(name, inputs, out, printed_at=...)`` dispatches on the document's name (the names
are listed once, in :mod:`app.reports.documents`; a test keeps :data:`_RENDERERS` equal to them); each
document also has its own ``render_*`` function taking its read model.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from app.engine.types import UserError
from app.reports import model, team_model
from app.reports.documents import NAMES, names
from app.reports.pdf.base import Output
from app.reports.pdf.bracket import render_bracket
from app.reports.pdf.cards import render_record_sheets, render_table_cards
from app.reports.pdf.game import GameSheet, render_game
from app.reports.pdf.paperwork import (
    render_avoidances,
    render_certificates,
    render_check_in,
    render_results_book,
)
from app.reports.pdf.round_robin import render_round_robin_schedule, render_round_robin_table
from app.reports.pdf.tables import (
    render_crosstable,
    render_entry_list,
    render_internal_entry_list,
    render_pairings,
    render_payout,
    render_prizes,
    render_standings,
    render_teams,
)
from app.reports.pdf.teams import (
    render_board_prizes,
    render_lineup_forms,
    render_team_cards,
    render_team_crosstable,
    render_team_event_standings,
    render_team_sheets,
)

DOCUMENTS = NAMES  # every document by name (app.reports.documents lists them once)
INTERNAL_DOCUMENTS = names(lambda d: d.internal)  # marked 内部 (entry-list only with --internal)
PUBLIC_DOCUMENTS = names(lambda d: not d.internal)
GAME_DOCUMENTS = ("game",)  # one game record (棋谱) with a diagram, from a GameSheet


def _entry_list(inputs: Any, out: Output, printed_at: datetime, **options: Any) -> None:
    if isinstance(inputs, model.InternalEntryList):
        render_internal_entry_list(inputs, out, printed_at)
    else:
        render_entry_list(inputs, out, printed_at)


def _crosstable(inputs: Any, out: Output, printed_at: datetime, **options: Any) -> None:
    if isinstance(inputs, model.RoundRobinTable):  # a round robin's crosstable is the square table
        render_round_robin_table(inputs, out, printed_at)
    else:
        render_crosstable(inputs, out, printed_at)


_RENDERERS: dict[str, tuple[type | tuple[type, ...], Callable[..., None]]] = {
    "table-cards": (model.TableCards, render_table_cards),
    "pairings": (model.PairingList, lambda i, o, t, **kw: render_pairings(i, o, t, **kw)),
    "results": (model.PairingList, lambda i, o, t, **kw: render_pairings(i, o, t, with_results=True, **kw)),
    "standings": (model.Standings, render_standings),
    "crosstable": ((model.Crosstable, model.RoundRobinTable), _crosstable),
    "teams": (model.TeamStandings, render_teams),
    "prizes": (model.PrizeList, render_prizes),
    "payout": (model.PayoutSheet, render_payout),
    "record-sheets": (model.RecordSheets, render_record_sheets),
    "entry-list": ((model.EntryList, model.InternalEntryList), _entry_list),
    "bracket": (model.Bracket, render_bracket),
    "check-in": (model.CheckInSheet, render_check_in),
    "results-book": (model.ResultsBook, render_results_book),
    "certificates": (model.Certificates, render_certificates),
    "avoidances": (model.AvoidanceList, render_avoidances),
    "order-of-play": (model.RoundRobinSchedule, render_round_robin_schedule),
    "team-cards": (team_model.TeamRoundDoc, render_team_cards),
    "team-sheets": (team_model.TeamRoundDoc, render_team_sheets),
    "lineup-forms": (team_model.LineupForms, render_lineup_forms),
    "team-crosstable": (team_model.TeamCrosstable, render_team_crosstable),
    "team-standings": (team_model.TeamEventStandings, render_team_event_standings),
    "board-prizes": (team_model.BoardPrizes, render_board_prizes),
    "game": (GameSheet, render_game),
}


def render_document(name: str, inputs: Any, out: Output, *, printed_at: datetime, **options: Any) -> None:
    """Render document ``name`` (one of :data:`DOCUMENTS` or :data:`GAME_DOCUMENTS`) from its read model into ``out``.

    ``options`` go to the renderer (``sort_by_name=True`` for pairings/results). A wrong name or a read
    model of the wrong kind raises :class:`UserError`.
    """
    if name not in _RENDERERS:
        raise UserError(
            f"未知的文档“{name}”，可选：{'、'.join(DOCUMENTS + GAME_DOCUMENTS)}",
            f"unknown document {name!r}; choose one of {', '.join(DOCUMENTS + GAME_DOCUMENTS)}",
        )
    kind, render = _RENDERERS[name]
    if not isinstance(inputs, kind):
        raise UserError(
            f"文档“{name}”的数据类型不对", f"document {name!r} cannot be made from {type(inputs).__name__}"
        )
    render(inputs, out, printed_at, **options)


__all__ = [
    "DOCUMENTS",
    "GAME_DOCUMENTS",
    "INTERNAL_DOCUMENTS",
    "PUBLIC_DOCUMENTS",
    "GameSheet",
    "render_bracket",
    "render_crosstable",
    "render_document",
    "render_entry_list",
    "render_game",
    "render_internal_entry_list",
    "render_pairings",
    "render_payout",
    "render_prizes",
    "render_record_sheets",
    "render_standings",
    "render_table_cards",
    "render_teams",
]
