"""Prize money (奖励, docs/rules.md §10) and category prizes (女子, 老年, 少年, 本地, 单位): every prize line of every table, with totals.

Prizes follow the final ranking; a disqualified player or an unranked team gets nothing and the
prize passes down the ranking (the next eligible player takes the place).

**Category tables** (:class:`~app.engine.regulations.PrizeCategory`): women (女子), seniors (age ≥ the
table's ``age`` on the first day of play), juniors (age ≤ ``age``), local (the player's 地区 contains
one of the table's ``regions``; a region written in digits matches the start of a resident ID number,
``6205`` = 天水市), best of a unit (the player's unit or team is one of ``units``). A category table's
places follow the group's final ranking among the eligible players.

**One prize per player** (``one_per_player``, 不兼得、就高): the prizes are given out slot by slot, the
highest-valued next slot of any individual table first (ties: the table listed first in the
regulation), each to the best-ranked eligible player of that table who has no prize yet. So a woman
who finishes 3rd overall takes the 3rd prize (3,000) rather than the women's first (1,000), and the
women's first passes to the next woman. A table's own places are always filled in order. Non-cash
prizes (``items``) count as a prize; a slot's value is its money, so an item-only slot comes last.
With ``one_per_player=False`` every table is awarded on its own (a player may collect several).
Team tables are never affected by the individual ones.

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

from app.engine.regulations import PrizeCategory, PrizeKind, PrizeTable
from app.engine.types import Gender, UserError

__all__ = ["PrizeCandidate", "PrizeLine", "PrizeList", "TablePrizes", "award_prizes", "eligible"]


@dataclass(frozen=True, slots=True)
class PrizeLine:
    """One prize: ``place`` of ``table`` goes to player ``no`` or to ``team`` (None: nobody eligible).

    ``item`` is the non-cash prize of the place ("" for none).
    """

    table: str
    place: int
    amount: int  # 元, pre-tax
    no: int | None = None
    team: str | None = None
    item: str = ""

    @property
    def awarded(self) -> bool:
        return self.no is not None or self.team is not None


@dataclass(frozen=True, slots=True)
class PrizeCandidate:
    """What the category tables need to know of a player (the engine never sees the ID number itself).

    ``id_prefix`` is the start of a resident ID number (the region code, e.g. ``620503``); "" for
    other documents.
    """

    no: int
    gender: Gender | None = None
    age: int | None = None
    region: str = ""
    unit: str = ""
    team: str = ""
    id_prefix: str = ""


def eligible(table: PrizeTable, who: PrizeCandidate | None) -> bool:
    """Whether ``who`` may win a place of the individual ``table`` (anyone, for an overall table).

    >>> from app.engine.regulations import PrizeKind, PrizeTable
    >>> local = PrizeTable("本地", "公开组", PrizeKind.INDIVIDUAL, (500,), PrizeCategory.LOCAL, regions=("6205", "天水"))
    >>> eligible(local, PrizeCandidate(1, id_prefix="620503")), eligible(local, PrizeCandidate(2, region="甘肃天水"))
    (True, True)
    >>> eligible(local, PrizeCandidate(3, region="兰州", id_prefix="620102"))
    False
    """
    category = table.category
    if category is PrizeCategory.OVERALL:
        return True
    if who is None:
        raise UserError(
            f"奖项“{table.name}”限定类别，需要棋手的资料",
            f"prize table {table.name!r} needs the players' details",
        )
    if category is PrizeCategory.WOMEN:
        return who.gender is Gender.FEMALE
    if category is PrizeCategory.SENIORS:
        return who.age is not None and who.age >= table.age
    if category is PrizeCategory.JUNIORS:
        return who.age is not None and who.age <= table.age
    if category is PrizeCategory.LOCAL:
        for region in (r.strip() for r in table.regions):
            if not region:
                continue
            if region.isdigit():
                if who.id_prefix and who.id_prefix.startswith(region):
                    return True
            elif region in who.region:
                return True
        return False
    units = {" ".join(u.split()) for u in table.units if u.strip()}
    return bool(units & {" ".join(who.unit.split()), " ".join(who.team.split())} - {""})


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
    candidates: Mapping[str, Mapping[int, PrizeCandidate]] | None = None,
    one_per_player: bool = True,
) -> PrizeList:
    """Award every prize table.

    ``individual``: per group, the sequence numbers in final rank order. ``teams``: per group, the
    team names in team-rank order. Disqualified players and unranked teams are skipped (the prize
    passes down); a place with nobody eligible left is listed with no recipient. ``candidates``: per
    group, each player's details for the category tables (needed only when a table has a category).
    ``one_per_player``: a player takes only the highest of the prizes they win (see the module).
    """
    teams = teams or {}
    people = candidates or {}
    all_tables = list(tables)
    lines: dict[int, list[PrizeLine]] = {}
    queues: dict[int, list[int]] = {}  # table index → eligible players in rank order
    for i, table in enumerate(all_tables):
        if table.kind is PrizeKind.TEAM:
            names = [name for name in teams.get(table.group, ()) if name not in unranked_teams]
            lines[i] = [
                PrizeLine(
                    table.name,
                    place,
                    table.amount(place),
                    team=names[place - 1] if place <= len(names) else None,
                    item=table.item(place),
                )
                for place in range(1, table.places + 1)
            ]
            continue
        details = people.get(table.group, {})
        queues[i] = [
            no
            for no in individual.get(table.group, ())
            if no not in disqualified and eligible(table, details.get(no))
        ]
        lines[i] = []
    if one_per_player:
        _award_one_each(all_tables, queues, lines)
    else:
        for i, queue in queues.items():
            table = all_tables[i]
            lines[i] = [
                PrizeLine(
                    table.name,
                    place,
                    table.amount(place),
                    no=queue[place - 1] if place <= len(queue) else None,
                    item=table.item(place),
                )
                for place in range(1, table.places + 1)
            ]
    return PrizeList(tuple(TablePrizes(t, tuple(lines[i])) for i, t in enumerate(all_tables)))


def _award_one_each(
    tables: list[PrizeTable], queues: dict[int, list[int]], lines: dict[int, list[PrizeLine]]
) -> None:
    """Slot by slot, the highest-valued next slot first; each to the best eligible player without a prize.

    Players are told apart by (group, no): the same number in two groups is two people.
    """
    taken: set[tuple[str, int]] = set()
    while True:
        open_tables = [i for i in queues if len(lines[i]) < tables[i].places]
        if not open_tables:
            return
        i = max(open_tables, key=lambda t: (tables[t].amount(len(lines[t]) + 1), -t))
        table = tables[i]
        place = len(lines[i]) + 1
        winner = next((no for no in queues[i] if (table.group, no) not in taken), None)
        if winner is not None:
            taken.add((table.group, winner))
        lines[i].append(PrizeLine(table.name, place, table.amount(place), no=winner, item=table.item(place)))
