"""Every document by name: the read model each one is built from, and the options it takes.

The documents themselves are listed once in :mod:`app.reports.documents` (name, scope, internal,
signed, ordered, linked, …); :data:`BUILDERS` says how the services build each one's read model,
and a test keeps its names equal to that list.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, replace

from app.db.session import Database
from app.engine.types import UserError
from app.reports import model
from app.reports.documents import NAMES, kind, names
from app.reports.links import HALL
from app.reports.team_model import TeamRoundDoc
from app.services import hall, paperwork_docs
from app.services.exports.common import latest_round, resolve_group
from app.services.exports.entries import check_in_sheet, entry_list, internal_entry_list
from app.services.exports.event import avoidance_list, certificates, results_book
from app.services.exports.knockout import bracket
from app.services.exports.prizes import payout_sheet, prize_list_model
from app.services.exports.round_robin import crosstable_of, order_of_play
from app.services.exports.rounds import pairing_list, record_sheets, round_results, table_cards
from app.services.exports.standings import standings, team_standings_model
from app.services.team_exports import TEAM_DOCUMENTS, team_document


@dataclass(frozen=True, slots=True)
class Request:
    """What was asked for besides the document's name (``xqarbiter print``'s options)."""

    group: str | None
    round_number: int | None
    per_page: int
    internal: bool
    order: str

    def group_name(self, db: Database) -> str:
        """The group named, or the only one (refused when several and none is named)."""
        return resolve_group(db, self.group)

    def some_group(self, db: Database) -> str | None:
        """The group named, if any (a document of the whole event narrowed to it)."""
        return resolve_group(db, self.group) if self.group else None

    def round_of(self, db: Database) -> int:
        """The round named, or the group's latest paired round."""
        group = self.group_name(db)
        return latest_round(db, group) if self.round_number is None else self.round_number


def _entry_list(db: Database, r: Request) -> object:
    g = r.group_name(db)
    return internal_entry_list(db, g, r.order) if r.internal else entry_list(db, g, r.order)


def _team_document(name: str) -> Callable[[Database, Request], object]:
    """A team competition's document (round documents: the latest team round unless one is named)."""
    return lambda db, r: team_document(db, name, r.group_name(db), r.round_number)


#: How each document's read model is built (standings and crosstable: after the last complete round
#: unless a round is named; round documents: the latest paired round unless one is named).
BUILDERS: dict[str, Callable[[Database, Request], object]] = {
    "table-cards": lambda db, r: table_cards(db, r.group_name(db), r.round_of(db), r.per_page),
    "pairings": lambda db, r: pairing_list(db, r.group_name(db), r.round_of(db)),
    "results": lambda db, r: round_results(db, r.group_name(db), r.round_of(db)),
    "standings": lambda db, r: standings(db, r.group_name(db), r.round_number),
    "crosstable": lambda db, r: crosstable_of(db, r.group_name(db), r.round_number),
    "teams": lambda db, r: team_standings_model(db, r.group_name(db)),
    "prizes": lambda db, r: prize_list_model(db, r.some_group(db)),
    "payout": lambda db, r: payout_sheet(db, r.some_group(db)),
    "record-sheets": lambda db, r: record_sheets(db, r.group_name(db), r.round_of(db)),
    "entry-list": _entry_list,
    "bracket": lambda db, r: bracket(db, r.group_name(db)),
    "check-in": lambda db, r: check_in_sheet(db, r.group_name(db), r.order),
    "results-book": lambda db, r: results_book(db),
    "certificates": lambda db, r: certificates(db, r.some_group(db)),
    "avoidances": lambda db, r: avoidance_list(db, r.group_name(db)),
    "order-of-play": lambda db, r: order_of_play(db, r.group_name(db)),
    **{name: _team_document(name) for name in TEAM_DOCUMENTS},
}


def document(
    db: Database,
    name: str,
    *,
    group: str | None = None,
    round_number: int | None = None,
    per_page: int = 2,
    internal: bool = False,
    base_url: str | None = None,
    order: str = "",
) -> object:
    """The read model of document ``name`` (one of :data:`app.reports.documents.NAMES`), as
    ``xqarbiter print`` asks (one reading of the file). ``order``: the entry list's or check-in
    sheet's order.

    Table cards, the pairing list and the round results carry links to the hall network's pages
    (printed as QR codes) under ``base_url``; ``None`` takes the address the window recorded when it
    served the hall on a network (:func:`app.services.hall.hall_base_url`), "" prints no QR code.
    """
    with db.one_reading():
        doc = _document(
            db,
            name,
            group=group,
            round_number=round_number,
            per_page=per_page,
            internal=internal,
            order=order,
        )
        if kind(name).linked:
            base = hall.hall_base_url(db) if base_url is None else hall.normalise_base_url(base_url)
            if base:
                doc = _with_links(db, doc, base)
        return doc


def _with_links(db: Database, doc: object, base: str) -> object:
    """The document with its round's and boards' hall pages filled in (a team card: its match's page)."""
    if isinstance(doc, TeamRoundDoc):
        gi = hall.group_index(db, doc.header.group)
        number = doc.header.round or 0
        return replace(
            doc, matches=tuple(replace(m, link=base + HALL.match(gi, number, m.number)) for m in doc.matches)
        )
    assert isinstance(doc, model.PairingList | model.TableCards)
    header = doc.header
    assert header.round is not None
    gi = hall.group_index(db, header.group)
    rows = tuple(replace(r, link=base + hall.board_path(gi, header.round, r.board)) for r in doc.rows)
    if isinstance(doc, model.TableCards):
        return replace(doc, rows=rows)
    return replace(doc, rows=rows, link=base + hall.round_path(gi, header.round))


def _document(
    db: Database,
    name: str,
    *,
    group: str | None,
    round_number: int | None,
    per_page: int,
    internal: bool,
    order: str = "",
) -> object:
    """The document's read model, once its options are checked; the signed documents get the
    officials' signature and seal lines."""
    paperwork_docs.check_order(order)
    if order and (name not in NAMES or not kind(name).ordered):
        ordered = names(lambda d: d.ordered)
        raise UserError(
            f"只有{'、'.join(ordered)}可以指定排列方式", f"only {', '.join(ordered)} can be ordered"
        )
    if name not in NAMES:
        raise UserError(
            f"未知的文档“{name}”，可选：{'、'.join(NAMES)}",
            f"unknown document {name!r}; choose one of {', '.join(NAMES)}",
        )
    if internal and not kind(name).accepts_internal:
        raise UserError(
            "只有参赛名单有内部版本（--internal）", "only the entry list has an internal variant (--internal)"
        )
    if per_page not in (1, 2, 4):
        raise UserError(
            f"每页台卡数应为 1、2 或 4，而不是 {per_page}",
            f"cards per page must be 1, 2 or 4, not {per_page}",
        )
    doc = BUILDERS[name](db, Request(group, round_number, per_page, internal, order))
    if kind(name).signed and dataclasses.is_dataclass(doc) and hasattr(doc, "signoff"):
        doc = dataclasses.replace(doc, signoff=paperwork_docs.signoff(db))  # type: ignore[type-var]
    return doc
