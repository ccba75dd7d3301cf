"""Who may play in a group (参赛资格): birth dates, age on a day, sex, rating, rating-list rank, residence,
unit.

Each group of a regulation may set :class:`Eligibility`; registration refuses an entrant outside it with
the rule named (:func:`broken_rules`), unless the chief arbiter accepts the entry with a reason (logged).

>>> from datetime import date
>>> u17 = Eligibility(born_from=date(2003, 1, 1), born_to=date(2004, 12, 31))
>>> [zh for zh, _ in broken_rules(u17, birth=date(2002, 6, 1))]
['出生日期须在 2003-01-01 至 2004-12-31 之间（生于 2002-06-01）']
>>> broken_rules(u17, birth=date(2004, 2, 29))
()

A rating-list rank (等级分排名: 1 is the best) bounds a group from both sides. ``max_rank = 32`` admits
only the first 32 of the list (限排名前32名) — a player with no rank is not among them and is refused;
``min_rank = 101`` keeps the first 100 out (全国等级分排名前100名不得参加) — a player with no rank is not
among them and is admitted:

>>> top32 = Eligibility(max_rank=32)
>>> [zh for zh, _ in broken_rules(top32, rating_rank=40)], [zh for zh, _ in broken_rules(top32)]
(['等级分排名须在前 32 名以内（排名第 40 名）'], ['等级分排名须在前 32 名以内（无排名）'])
>>> not_top100 = Eligibility(min_rank=101)
>>> [zh for zh, _ in broken_rules(not_top100, rating_rank=100)], broken_rules(not_top100)
(['等级分排名前 100 名不得参加（排名第 100 名）'], ())
"""

from __future__ import annotations

import enum
from datetime import date

from app.engine.records import frozen
from app.engine.types import Gender

RATING_RANK_MAX = 99_999  # a place on a rating list (national lists hold some tens of thousands)


class Sex(enum.Enum):
    """Who a group is for by sex."""

    ANY = "any"
    MALE = "male"  # 男子组
    FEMALE = "female"  # 女子组

    @property
    def zh(self) -> str:
        return {Sex.ANY: "不限", Sex.MALE: "男子", Sex.FEMALE: "女子"}[self]


@frozen
class Eligibility:
    """The conditions of a group; every field optional (absent or 0: no condition).

    ``born_from``/``born_to``: the birth-date range (U17: 2003-01-01 … 2004-12-31). ``min_age``/``max_age``:
    full years on ``age_on`` (default: the first day of play). ``min_rating``/``max_rating``: the rating
    (等级分; an unrated player fails a minimum, meets a maximum). ``min_rank``/``max_rank``: the place on a
    rating list (等级分排名, 1 the best): ``max_rank`` N admits the first N only (an unranked player
    fails it), ``min_rank`` N admits the N-th and below (前 N−1 名不得参加; an unranked player meets it).
    ``regions``: 地区 names or the leading
    digits of a resident ID number (6205 = 天水市); ``units``: the units (or teams) whose players may play.
    """

    born_from: date | None = None
    born_to: date | None = None
    min_age: int = 0
    max_age: int = 0
    age_on: date | None = None
    sex: Sex = Sex.ANY
    min_rating: int = 0
    max_rating: int = 0
    min_rank: int = 0
    max_rank: int = 0
    regions: tuple[str, ...] = ()
    units: tuple[str, ...] = ()

    @property
    def open(self) -> bool:
        """No condition at all."""
        return self == Eligibility()

    def describe_zh(self, first_day: date) -> str:
        parts = []
        if self.born_from or self.born_to:
            parts.append(
                f"{self.born_from.isoformat() if self.born_from else '不限'} 至 "
                f"{self.born_to.isoformat() if self.born_to else '不限'} 出生"
            )
        day = (self.age_on or first_day).isoformat()
        if self.min_age:
            parts.append(f"{day} 年满 {self.min_age} 周岁")
        if self.max_age:
            parts.append(f"{day} 不超过 {self.max_age} 周岁")
        if self.sex is not Sex.ANY:
            parts.append(f"限{self.sex.zh}")
        if self.min_rating:
            parts.append(f"等级分不低于 {self.min_rating}")
        if self.max_rating:
            parts.append(f"等级分不高于 {self.max_rating}")
        if self.max_rank:
            parts.append(f"限等级分排名前 {self.max_rank} 名")
        if self.min_rank > 1:
            parts.append(f"等级分排名前 {self.min_rank - 1} 名不得参加")
        if self.regions:
            parts.append(f"限地区 {'、'.join(self.regions)}")
        if self.units:
            parts.append(f"限单位 {'、'.join(self.units)}")
        return "；".join(parts) or "不限"


def _age(birth: date, day: date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def _birth_rule(low: date | None, high: date | None, shown: str) -> tuple[str, str]:
    """出生日期须在 2003-01-01 至 2004-12-31 之间; 须在 2007-01-01 或之后; 须在 … 或之前."""
    if low and high:
        return (
            f"出生日期须在 {low.isoformat()} 至 {high.isoformat()} 之间（生于 {shown}）",
            f"born between {low.isoformat()} and {high.isoformat()} (born {shown})",
        )
    if low:
        return (
            f"出生日期须在 {low.isoformat()} 或之后（生于 {shown}）",
            f"born on or after {low} (born {shown})",
        )
    assert high is not None
    return (
        f"出生日期须在 {high.isoformat()} 或之前（生于 {shown}）",
        f"born on or before {high} (born {shown})",
    )


def broken_rules(
    rules: Eligibility,
    *,
    birth: date | None = None,
    gender: Gender | None = None,
    rating: int | None = None,
    rating_rank: int | None = None,
    unit: str = "",
    team: str = "",
    region: str = "",
    id_number: str = "",
    first_day: date | None = None,
) -> tuple[tuple[str, str], ...]:
    """Every condition of ``rules`` the entrant does not meet, as (Chinese, English) sentences naming the
    rule and the entrant's value. A condition that needs a value the entry lacks (a birth date, a sex)
    counts as not met."""
    out: list[tuple[str, str]] = []
    if (rules.born_from or rules.born_to) and (
        birth is None
        or (rules.born_from and birth < rules.born_from)
        or (rules.born_to and birth > rules.born_to)
    ):
        shown = birth.isoformat() if birth else "未知"
        out.append(_birth_rule(rules.born_from, rules.born_to, shown))
    day = rules.age_on or first_day
    if (rules.min_age or rules.max_age) and day is not None:
        age = None if birth is None else _age(birth, day)
        if rules.min_age and (age is None or age < rules.min_age):
            out.append(
                (
                    f"{day.isoformat()} 须年满 {rules.min_age} 周岁（{'未知' if age is None else f'{age} 周岁'}）",
                    f"at least {rules.min_age} on {day.isoformat()} (aged {age if age is not None else 'unknown'})",
                )
            )
        if rules.max_age and (age is None or age > rules.max_age):
            out.append(
                (
                    f"{day.isoformat()} 不得超过 {rules.max_age} 周岁（{'未知' if age is None else f'{age} 周岁'}）",
                    f"at most {rules.max_age} on {day.isoformat()} (aged {age if age is not None else 'unknown'})",
                )
            )
    if rules.sex is not Sex.ANY and (gender is None or gender.value != rules.sex.value):
        out.append(
            (
                f"本组限{rules.sex.zh}（{gender.zh if gender else '性别未填'}）",
                f"the group is for {rules.sex.value} players ({gender.value if gender else 'sex not given'})",
            )
        )
    if rules.min_rating and (rating is None or rating < rules.min_rating):
        out.append(
            (
                f"等级分须不低于 {rules.min_rating}（{rating if rating is not None else '无等级分'}）",
                f"a rating of at least {rules.min_rating} ({rating if rating is not None else 'unrated'})",
            )
        )
    if rules.max_rating and rating is not None and rating > rules.max_rating:
        out.append(
            (
                f"等级分须不高于 {rules.max_rating}（{rating}）",
                f"a rating of at most {rules.max_rating} ({rating})",
            )
        )
    shown = "无排名" if rating_rank is None else f"排名第 {rating_rank} 名"
    shown_en = "unranked" if rating_rank is None else f"ranked {rating_rank}"
    if rules.max_rank and (rating_rank is None or rating_rank > rules.max_rank):
        out.append(
            (
                f"等级分排名须在前 {rules.max_rank} 名以内（{shown}）",
                f"ranked within the first {rules.max_rank} of the rating list ({shown_en})",
            )
        )
    if rules.min_rank > 1 and rating_rank is not None and rating_rank < rules.min_rank:
        out.append(
            (
                f"等级分排名前 {rules.min_rank - 1} 名不得参加（{shown}）",
                f"the first {rules.min_rank - 1} of the rating list may not play ({shown_en})",
            )
        )
    if rules.regions and not any(
        r.strip()
        and (r.strip() == region.strip() or (r.strip().isdigit() and id_number.startswith(r.strip())))
        for r in rules.regions
    ):
        out.append(
            (
                f"本组限地区 {'、'.join(rules.regions)}（{region or '地区未填'}）",
                f"the group is for {', '.join(rules.regions)} ({region or 'no region'})",
            )
        )
    if rules.units and not any(u.strip() and u.strip() in (unit.strip(), team.strip()) for u in rules.units):
        out.append(
            (
                f"本组限单位 {'、'.join(rules.units)}（{unit or team or '单位未填'}）",
                f"the group is for {', '.join(rules.units)} ({unit or team or 'no unit'})",
            )
        )
    return tuple(out)
