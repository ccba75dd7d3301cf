"""Printable PDFs of every arbiter document (A4, embedded CJK font, header, footer, page count).

``render_document(name, inputs, out, printed_at=...)`` dispatches on the document's name (the names
are listed once, in :mod:`app.reports.documents`; a test keeps :data:`_RENDERERS` equal to them); each
document also has its own ``render_*`` function taking its read model.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from app.engine.types import UserError
from app.reports import model, team_model
from app.reports.documents import NAMES, names
from app.reports.pdf.page import Output

if TYPE_CHECKING:
    from app.reports.pdf.bracket import render_bracket
    from app.reports.pdf.cards import render_record_sheets, render_table_cards
    from app.reports.pdf.game import GameSheet, render_game
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

DOCUMENTS = NAMES  # every document by name (app.reports.documents lists them once)
INTERNAL_DOCUMENTS = names(lambda d: d.internal)  # marked 内部 (entry-list only with --internal)
PUBLIC_DOCUMENTS = names(lambda d: not d.internal)
GAME_DOCUMENTS = ("game",)  # one game record (棋谱) with a diagram, from a GameSheet


def _renderer(module: str, function: str) -> Callable[..., None]:
    """A renderer, its module imported when first asked for: the table cards (drawn on the canvas)
    do not load the layout engine the lists need, nor the other documents' modules."""

    def render(*args: Any, **kwargs: Any) -> None:
        found: Callable[..., None] = getattr(importlib.import_module(f"app.reports.pdf.{module}"), function)
        found(*args, **kwargs)

    return render


def _entry_list(inputs: Any, out: Output, printed_at: datetime, **options: Any) -> None:
    from app.reports.pdf.tables import render_entry_list, render_internal_entry_list

    if isinstance(inputs, model.InternalEntryList):
        render_internal_entry_list(inputs, out, printed_at)
    else:
        render_entry_list(inputs, out, printed_at)


def _crosstable(inputs: Any, out: Output, printed_at: datetime, **options: Any) -> None:
    from app.reports.pdf.round_robin import render_round_robin_table
    from app.reports.pdf.tables import render_crosstable

    if isinstance(inputs, model.RoundRobinTable):  # a round robin's crosstable is the square table
        render_round_robin_table(inputs, out, printed_at)
    else:
        render_crosstable(inputs, out, printed_at)


def _pairings(inputs: Any, out: Output, printed_at: datetime, **options: Any) -> None:
    from app.reports.pdf.tables import render_pairings

    render_pairings(inputs, out, printed_at, **options)


def _results(inputs: Any, out: Output, printed_at: datetime, **options: Any) -> None:
    from app.reports.pdf.tables import render_pairings

    render_pairings(inputs, out, printed_at, with_results=True, **options)


_GAME = "game"  # the game sheet's type lives with its renderer: checked once that is imported

_RENDERERS: dict[str, tuple[type | tuple[type, ...] | str, Callable[..., None]]] = {
    "table-cards": (model.TableCards, _renderer("cards", "render_table_cards")),
    "pairings": (model.PairingList, _pairings),
    "results": (model.PairingList, _results),
    "standings": (model.Standings, _renderer("tables", "render_standings")),
    "crosstable": ((model.Crosstable, model.RoundRobinTable), _crosstable),
    "teams": (model.TeamStandings, _renderer("tables", "render_teams")),
    "prizes": (model.PrizeList, _renderer("tables", "render_prizes")),
    "payout": (model.PayoutSheet, _renderer("tables", "render_payout")),
    "record-sheets": (model.RecordSheets, _renderer("cards", "render_record_sheets")),
    "entry-list": ((model.EntryList, model.InternalEntryList), _entry_list),
    "bracket": (model.Bracket, _renderer("bracket", "render_bracket")),
    "check-in": (model.CheckInSheet, _renderer("paperwork", "render_check_in")),
    "results-book": (model.ResultsBook, _renderer("paperwork", "render_results_book")),
    "certificates": (model.Certificates, _renderer("paperwork", "render_certificates")),
    "avoidances": (model.AvoidanceList, _renderer("paperwork", "render_avoidances")),
    "order-of-play": (model.RoundRobinSchedule, _renderer("round_robin", "render_round_robin_schedule")),
    "team-cards": (team_model.TeamRoundDoc, _renderer("teams", "render_team_cards")),
    "team-sheets": (team_model.TeamRoundDoc, _renderer("teams", "render_team_sheets")),
    "lineup-forms": (team_model.LineupForms, _renderer("teams", "render_lineup_forms")),
    "team-crosstable": (team_model.TeamCrosstable, _renderer("teams", "render_team_crosstable")),
    "team-standings": (team_model.TeamEventStandings, _renderer("teams", "render_team_event_standings")),
    "board-prizes": (team_model.BoardPrizes, _renderer("teams", "render_board_prizes")),
    "game": (_GAME, _renderer("game", "render_game")),
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
    wanted, render = _RENDERERS[name]
    if isinstance(wanted, str):  # the game sheet
        from app.reports.pdf.game import GameSheet

        wanted = GameSheet
    if not isinstance(inputs, wanted):
        raise UserError(
            f"文档“{name}”的数据类型不对", f"document {name!r} cannot be made from {type(inputs).__name__}"
        )
    render(inputs, out, printed_at, **options)


_LAZY = {
    "GameSheet": "game",
    "render_bracket": "bracket",
    "render_crosstable": "tables",
    "render_entry_list": "tables",
    "render_game": "game",
    "render_internal_entry_list": "tables",
    "render_pairings": "tables",
    "render_payout": "tables",
    "render_prizes": "tables",
    "render_record_sheets": "cards",
    "render_standings": "tables",
    "render_table_cards": "cards",
    "render_teams": "tables",
}


def __getattr__(name: str) -> Any:
    """The renderers named in :data:`__all__`, imported from their modules when first asked for."""
    if name in _LAZY:
        return getattr(importlib.import_module(f"app.reports.pdf.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
