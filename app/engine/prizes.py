"""Prize money (奖励, RULES.md §10): every prize line of every table, with totals.

Prizes follow the final ranking; a disqualified player or an unranked team gets nothing and the
prize passes down the ranking (the next eligible player takes the place).

>>> from app.engine.regulations import PrizeKind, PrizeTable
>>> table = PrizeTable("个人", "公开组", PrizeKind.INDIVIDUAL, (300, 200, 100))
>>> prizes = award_prizes([table], {"公开组": [7, 3, 9, 1]}, disqualified={3})
>>> [(line.place, line.no, line.amount) for line in prizes.tables[0].lines]
[(1, 7, 300), (2, 9, 200), (3, 1, 100)]
>>> prizes.grand_total
600
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from app.engine.regulations import PrizeKind, PrizeTable

__all__ = ["PrizeLine", "PrizeList", "TablePrizes", "award_prizes"]


@dataclass(frozen=True, slots=True)
class PrizeLine:
    """One prize: ``place`` of ``table`` goes to player ``no`` or to ``team`` (None: nobody eligible)."""

    table: str
    place: int
    amount: int  # 元, pre-tax
    no: int | None = None
    team: str | None = None

    @property
    def awarded(self) -> bool:
        return self.no is not None or self.team is not None


@dataclass(frozen=True, slots=True)
class TablePrizes:
    table: PrizeTable
    lines: tuple[PrizeLine, ...]

    @property
    def total(self) -> int:
        """The table's total as the regulation sets it."""
        return self.table.total

    @property
    def awarded(self) -> int:
        """What is actually paid (less than ``total`` only if too few eligible recipients)."""
        return sum(line.amount for line in self.lines if line.awarded)


@dataclass(frozen=True, slots=True)
class PrizeList:
    tables: tuple[TablePrizes, ...]

    @property
    def grand_total(self) -> int:
        return sum(t.total for t in self.tables)

    @property
    def grand_awarded(self) -> int:
        return sum(t.awarded for t in self.tables)

    @property
    def lines(self) -> tuple[PrizeLine, ...]:
        return tuple(line for t in self.tables for line in t.lines)


def award_prizes(
    tables: Iterable[PrizeTable],
    individual: Mapping[str, Sequence[int]],
    teams: Mapping[str, Sequence[str]] | None = None,
    *,
    disqualified: Collection[int] = (),
    unranked_teams: Collection[str] = (),
) -> PrizeList:
    """Award every prize table.

    ``individual``: per group, the sequence numbers in final rank order. ``teams``: per group, the
    team names in team-rank order. Disqualified players and unranked teams are skipped (the prize
    passes down); a place with nobody eligible left is listed with no recipient.
    """
    teams = teams or {}
    out: list[TablePrizes] = []
    for table in tables:
        if table.kind is PrizeKind.INDIVIDUAL:
            players = [no for no in individual.get(table.group, ()) if no not in disqualified]
            lines = tuple(
                PrizeLine(table.name, place, amount, no=players[place - 1] if place <= len(players) else None)
                for place, amount in enumerate(table.amounts, start=1)
            )
        else:
            names = [name for name in teams.get(table.group, ()) if name not in unranked_teams]
            lines = tuple(
                PrizeLine(table.name, place, amount, team=names[place - 1] if place <= len(names) else None)
                for place, amount in enumerate(table.amounts, start=1)
            )
        out.append(TablePrizes(table, lines))
    return PrizeList(tuple(out))
