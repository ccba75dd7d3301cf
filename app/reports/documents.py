"""Every printed document, listed once: its name and what kind of document it is.

The command line's parser lists these names without importing a service or a renderer (this module
imports nothing); the services build each document's read model by name
(:data:`app.services.exports.registry.BUILDERS`) and :func:`app.reports.pdf.render_document` renders
it. Tests keep both of those tables equal to this one, so a document is added here first.

>>> kind("standings").scope, kind("standings").signed
(<Scope.GROUP: 'group'>, True)
>>> names(lambda d: d.scope is Scope.ROUND)
('table-cards', 'pairings', 'results', 'record-sheets', 'team-cards', 'team-sheets', 'lineup-forms')
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass


class Scope(enum.Enum):
    """What a document is of."""

    ROUND = "round"  # one round of one group (default: the group's latest paired round)
    GROUP = "group"  # one group (standings and crosstable: after a chosen round, default the last complete)
    EVENT = "event"  # the whole event (prizes, payout and certificates can be narrowed to one group)


@dataclass(frozen=True, slots=True)
class DocumentKind:
    """One document ``xqarbiter print`` and the window's print menu know."""

    name: str  # as typed on the command line
    scope: Scope
    internal: bool = False  # marked 内部: personal numbers or internal data, never published
    internal_variant: bool = False  # has an internal variant (--internal) beside the public one
    accepts_internal: bool = False  # --internal is accepted (the variant, or the document is internal)
    signed: bool = False  # carries the officials' signature and seal lines
    ordered: bool = False  # can be ordered by number, name (pinyin), rating or team
    linked: bool = False  # carries QR codes to the hall network's pages when its address is known
    image: bool = False  # a public list that can be made into one tall picture (WeChat)
    by_name: bool = False  # its rows can be sorted by name (for the notice board)


#: In the order of docs/outputs.md.
DOCUMENTS: tuple[DocumentKind, ...] = (
    DocumentKind("table-cards", Scope.ROUND, linked=True),
    DocumentKind("pairings", Scope.ROUND, signed=True, linked=True, image=True, by_name=True),
    DocumentKind("results", Scope.ROUND, signed=True, linked=True, image=True, by_name=True),
    DocumentKind("standings", Scope.GROUP, signed=True, image=True),
    DocumentKind("crosstable", Scope.GROUP, signed=True, image=True),
    DocumentKind("teams", Scope.GROUP, signed=True, image=True),
    DocumentKind("prizes", Scope.EVENT, signed=True, image=True),
    DocumentKind("payout", Scope.EVENT, internal=True, signed=True),
    DocumentKind("record-sheets", Scope.ROUND),
    DocumentKind(
        "entry-list",
        Scope.GROUP,
        internal_variant=True,
        accepts_internal=True,
        signed=True,
        ordered=True,
        image=True,
    ),
    DocumentKind("bracket", Scope.GROUP, image=True),
    DocumentKind("check-in", Scope.GROUP, internal=True, accepts_internal=True, signed=True, ordered=True),
    DocumentKind("results-book", Scope.EVENT, accepts_internal=True),
    DocumentKind("certificates", Scope.EVENT, accepts_internal=True),
    DocumentKind("avoidances", Scope.GROUP, internal=True, accepts_internal=True),
    DocumentKind("order-of-play", Scope.GROUP, signed=True),  # a round robin's 对局秩序表, printed in advance
    # a team competition (团体赛)
    DocumentKind("team-cards", Scope.ROUND, linked=True),  # one card per match with its boards
    DocumentKind("team-sheets", Scope.ROUND),  # 对阵单: every board, the captains' and arbiter's signatures
    DocumentKind("lineup-forms", Scope.ROUND),  # 排阵单 of each team
    DocumentKind("team-crosstable", Scope.GROUP, signed=True),
    DocumentKind("team-standings", Scope.GROUP, signed=True),
    DocumentKind("board-prizes", Scope.GROUP, signed=True),  # 台次奖
)

NAMES: tuple[str, ...] = tuple(d.name for d in DOCUMENTS)

_BY_NAME = {d.name: d for d in DOCUMENTS}


def kind(name: str) -> DocumentKind:
    """The document called ``name`` (``KeyError`` for an unknown name: check :data:`NAMES` first)."""
    return _BY_NAME[name]


def names(which: Callable[[DocumentKind], bool]) -> tuple[str, ...]:
    """The names of the documents ``which`` selects, in the registry's order."""
    return tuple(d.name for d in DOCUMENTS if which(d))
