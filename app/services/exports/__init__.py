"""Exports: the read models of every printed document, built from the services for a tournament file.

Each function reads the file through the services and returns one read model of
:mod:`app.reports.model`; :func:`write_document`, :func:`write_result_workbook` and
:mod:`app.services.public_pages` render them. A document that cannot exist yet (the results of an
unpaired round, a bracket before the split, team standings of a group without teams, record sheets
when none are due) raises :class:`UserError` before anything is written.

The documents are listed once, in :mod:`app.reports.documents`; :mod:`.registry` builds each by
name. The read models by subject: :mod:`.rounds` (table cards, pairings, results, record sheets),
:mod:`.standings` (standings, crosstable, team standings), :mod:`.prizes`, :mod:`.entries`
(entry lists, check-in sheet), :mod:`.knockout` (bracket), :mod:`.round_robin` (the square crosstable, the order of play), :mod:`.event` (the workbook, the results
book, certificates, avoidances); :mod:`.output` renders and writes them.

Privacy is structural (docs/rules.md §11): only :func:`payout_sheet` and :func:`internal_entry_list`
read ID and phone numbers; every other document is built from values that have no such field.
"""

from __future__ import annotations

from app.reports.documents import NAMES, Scope, names
from app.services.collector import collection_paused
from app.services.exports.common import group_names, latest_round, resolve_group
from app.services.exports.entries import check_in_sheet, entry_list, internal_entry_list
from app.services.exports.event import (
    avoidance_list,
    certificates,
    optional_prizes,
    paired_groups,
    result_workbook,
    results_book,
    team_event_books,
)
from app.services.exports.knockout import bracket, knockout_game_text
from app.services.exports.output import (
    IMAGE_DOCUMENTS,
    ORDERED_DOCUMENTS,
    PRIVATE_DOCUMENTS,
    holds_personal_numbers,
    render_image,
    render_pdf,
    write_document,
    write_result_workbook,
)
from app.services.exports.prizes import payout_sheet, prize_list_model, prizes_final
from app.services.exports.registry import document
from app.services.exports.round_robin import crosstable_of, has_order_of_play, order_of_play
from app.services.exports.rounds import pairing_list, record_sheets, round_results, table_cards
from app.services.exports.standings import crosstable, standings, team_standings_model

#: The documents ``xqarbiter print`` knows, in the order of docs/outputs.md.
DOCUMENTS = NAMES
#: Documents of one round of one group.
ROUND_DOCUMENTS = names(lambda d: d.scope is Scope.ROUND)

__all__ = [
    "DOCUMENTS",
    "IMAGE_DOCUMENTS",
    "ORDERED_DOCUMENTS",
    "PRIVATE_DOCUMENTS",
    "ROUND_DOCUMENTS",
    "avoidance_list",
    "bracket",
    "certificates",
    "check_in_sheet",
    "collection_paused",
    "crosstable",
    "crosstable_of",
    "document",
    "entry_list",
    "group_names",
    "has_order_of_play",
    "holds_personal_numbers",
    "internal_entry_list",
    "knockout_game_text",
    "latest_round",
    "optional_prizes",
    "order_of_play",
    "paired_groups",
    "pairing_list",
    "payout_sheet",
    "prize_list_model",
    "prizes_final",
    "record_sheets",
    "render_image",
    "render_pdf",
    "resolve_group",
    "result_workbook",
    "results_book",
    "round_results",
    "standings",
    "table_cards",
    "team_event_books",
    "team_standings_model",
    "write_document",
    "write_result_workbook",
]
