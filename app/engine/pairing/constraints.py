"""Pairing constraints beyond teams: players kept apart by unit (单位), region (地区) or as a
named pair (家属回避 …), each for a range of rounds, absolutely or weakly.

- **Absolute** (绝对回避): the pair is never made in those rounds — in the matching it has no edge, like
  a rematch (H1). If no pairing satisfies the constraints the engine says so, as for H1–H4.
- **Weak** (尽量回避): the pair is avoided unless avoiding it costs S1 — a criterion ranked just below
  S1 (score groups) and above S2 (colours): the engine minimises the number of weakly avoided pairs among
  the pairings best on S1.

The unit and region rules come from the regulation (:class:`~app.engine.regulations.AvoidanceRule`);
named pairs are the event's own (the arbiter enters them). Every constraint has a label naming it, so
``why`` can say which one decided, and a manual override that breaks one is warned about.

>>> from app.engine.regulations import AvoidanceBasis, AvoidanceRule, AvoidanceStrength
>>> rules = (AvoidanceRule(AvoidanceBasis.UNIT, AvoidanceStrength.ABSOLUTE, 1, 3),)
>>> facts = [ConstraintFacts(1, unit="天水一中"), ConstraintFacts(2, unit="天水一中"), ConstraintFacts(3)]
>>> named = (NamedAvoidance(1, 3, AvoidanceStrength.WEAK, reason="父子"),)
>>> c = round_constraints(rules, facts, named, round_number=2)
>>> c.forbidden(1, 2).zh, [w.zh for w in c.weak(3, 1)]
('同单位（天水一中）绝对回避', ['指定回避（父子）尽量回避'])
>>> round_constraints(rules, facts, (), round_number=4).forbidden(1, 2) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.engine.records import frozen
from app.engine.regulations import AvoidanceBasis, AvoidanceRule, AvoidanceStrength

__all__ = [
    "Constraint",
    "ConstraintFacts",
    "NamedAvoidance",
    "RoundConstraints",
    "round_constraints",
]


@frozen
class ConstraintFacts:
    """What the unit and region rules need to know of a player ("" = unknown: never constrained)."""

    no: int
    unit: str = ""
    region: str = ""


@frozen
class NamedAvoidance:
    """Two named players kept apart in rounds ``from_round``..``to_round`` (0 = the last)."""

    first: int
    second: int
    strength: AvoidanceStrength = AvoidanceStrength.ABSOLUTE
    from_round: int = 1
    to_round: int = 0
    reason: str = ""  # 父子、夫妻、同一教练 …

    def applies(self, round_number: int) -> bool:
        return self.from_round <= round_number and (self.to_round == 0 or round_number <= self.to_round)


@frozen
class Constraint:
    """One constraint between two players in a round: how strong, and its name (zh / en)."""

    strength: AvoidanceStrength
    zh: str
    en: str

    @property
    def absolute(self) -> bool:
        return self.strength is AvoidanceStrength.ABSOLUTE


def _norm(text: str) -> str:
    return " ".join(text.split())


class RoundConstraints:
    """The avoidances in force in one round; ``forbidden`` and ``weak`` answer for a pair in O(1)."""

    def __init__(
        self,
        rules: Sequence[AvoidanceRule],
        facts: Iterable[ConstraintFacts],
        named: Iterable[NamedAvoidance],
        round_number: int,
    ) -> None:
        self.round_number = round_number
        people = list(facts)
        self._keys: list[tuple[AvoidanceRule, dict[int, str]]] = []
        for rule in rules:
            if not rule.applies(round_number):
                continue
            attr = "unit" if rule.basis is AvoidanceBasis.UNIT else "region"
            keys = {p.no: _norm(getattr(p, attr)) for p in people if _norm(getattr(p, attr))}
            self._keys.append((rule, keys))
        self._named: dict[frozenset[int], list[NamedAvoidance]] = {}
        for n in named:
            if n.applies(round_number) and n.first != n.second:
                self._named.setdefault(frozenset((n.first, n.second)), []).append(n)

    @property
    def empty(self) -> bool:
        return not self._keys and not self._named

    def between(self, a: int, b: int) -> tuple[Constraint, ...]:
        """Every constraint between ``a`` and ``b`` this round, absolute ones first."""
        out: list[Constraint] = []
        for rule, keys in self._keys:
            ka = keys.get(a)
            if ka is not None and ka == keys.get(b):
                what = "单位" if rule.basis is AvoidanceBasis.UNIT else "地区"
                out.append(
                    Constraint(
                        rule.strength,
                        f"同{what}（{ka}）{rule.strength.zh}",
                        f"same {rule.basis.value} ({ka}), {rule.strength.value} avoidance",
                    )
                )
        for n in self._named.get(frozenset((a, b)), ()):
            why = f"（{n.reason}）" if n.reason else ""
            out.append(
                Constraint(
                    n.strength,
                    f"指定回避{why}{n.strength.zh}",
                    f"named pair{' (' + n.reason + ')' if n.reason else ''}, {n.strength.value} avoidance",
                )
            )
        out.sort(key=lambda c: not c.absolute)
        return tuple(out)

    def rule_keys(self, strength: AvoidanceStrength) -> list[dict[int, str]]:
        """Per unit/region rule of that strength in force: each player's key (players apart share none)."""
        return [keys for rule, keys in self._keys if rule.strength is strength]

    def named_pairs(self, strength: AvoidanceStrength) -> dict[frozenset[int], int]:
        """Named pairs of that strength in force, with how many such constraints each pair has."""
        out: dict[frozenset[int], int] = {}
        for pair, items in self._named.items():
            count = sum(1 for n in items if n.strength is strength)
            if count:
                out[pair] = count
        return out

    def forbidden(self, a: int, b: int) -> Constraint | None:
        """The first absolute constraint between ``a`` and ``b``, or None."""
        if self.empty:
            return None
        return next((c for c in self.between(a, b) if c.absolute), None)

    def weak(self, a: int, b: int) -> tuple[Constraint, ...]:
        """The weak constraints between ``a`` and ``b`` (their number is the pair's penalty)."""
        if self.empty:
            return ()
        return tuple(c for c in self.between(a, b) if not c.absolute)


def round_constraints(
    rules: Sequence[AvoidanceRule],
    facts: Iterable[ConstraintFacts],
    named: Iterable[NamedAvoidance],
    round_number: int,
) -> RoundConstraints:
    return RoundConstraints(rules, facts, named, round_number)
