"""Registration (报名) checks and the draw for sequence numbers (序号), docs/rules.md §2–§3.

Everything here is pure: a :class:`PlayerEntry` and a :class:`RegistrationContext` (what the
tournament already holds, the rules, and the time the caller says it is) go in; a
:class:`CheckedEntry` comes out with the normalised entry and *every* problem found, not only the
first one.

>>> validate_resident_id("11010519491231002x").number
'11010519491231002X'
>>> validate_resident_id("11010519491231002X").birth_date
datetime.date(1949, 12, 31)
>>> resident_id_check_char("11010519491231002")
'X'
>>> normalise_phone("+86 139-1234-5678")
'13912345678'
>>> age_on(date(1959, 7, 27), date(2024, 7, 26))
64
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import TypeVar

from app.engine.eligibility import RATING_RANK_MAX, Eligibility, broken_rules
from app.engine.privacy import looks_personal
from app.engine.regulations import RegistrationRules
from app.engine.text import NAME_MAX, NOTES_MAX, REGION_MAX, TEAM_MAX, UNIT_MAX, clean_text
from app.engine.types import Gender, IdDocument, UserError

K = TypeVar("K", bound=Hashable)

ID_WEIGHTS: tuple[int, ...] = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
ID_CHECK_CHARS = "10X98765432"
# 省级行政区划代码 (GB/T 2260) plus 71 台湾, 81 香港, 82 澳门, 83 (港澳台居民居住证)
PROVINCE_CODES = frozenset(
    {11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46}
    | {50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82, 83}
)
RATING_MAX = 3500
_PHONE = re.compile(r"1[3-9]\d{9}")
_NAME_FORBIDDEN = re.compile(r"[\d\x00-\x1f\x7f@#$%^&*=+<>{}\[\]|\\/?!！？;；:：,，、\"“”]")
_OTHER_DOCUMENT = {
    IdDocument.PASSPORT: (re.compile(r"[A-Z0-9]{5,17}"), "5–17 位字母或数字", "5-17 letters or digits"),
    IdDocument.HK_MACAU_PERMIT: (
        re.compile(r"[HM]\d{8}(\d{2})?"),
        "H 或 M 开头加 8 位（旧版 10 位）数字",
        "H or M followed by 8 (old: 10) digits",
    ),
    IdDocument.TAIWAN_PERMIT: (
        re.compile(r"\d{8}(\d{2})?|\d{8}[A-Z]\d?"),
        "8 位数字（旧版 10 位）",
        "8 digits (old: 10)",
    ),
}


class IdNumberError(UserError):
    """An ID number broke one rule of GB 11643-1999; the message names the rule."""


@dataclass(frozen=True, slots=True)
class ResidentId:
    """A checked 居民身份证号: the number (upper-case X), birth date, gender and province code."""

    number: str
    birth_date: date
    gender: Gender
    province: int


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an entry; ``field`` is the :class:`PlayerEntry` field it concerns."""

    field: str
    message_zh: str
    message_en: str

    def __str__(self) -> str:
        return f"{self.message_zh} ({self.message_en})"


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """A registration as typed by the arbiter or read from the form (附件 2).

    ``birth_date`` is needed only for documents other than the resident ID card (it is read from
    the ID number otherwise, and if both are given they must agree). ``team`` is a team name in
    the player's group; ``unit`` (单位) is free text.
    """

    name: str
    id_number: str
    phone: str
    group: str
    id_type: IdDocument = IdDocument.RESIDENT_ID
    birth_date: date | None = None
    gender: Gender | None = None
    team: str = ""
    unit: str = ""
    rating: int | None = None
    rating_rank: int | None = None  # place on a rating list (等级分排名, 1 the best); None: not ranked
    notes: str = ""
    fee_paid: bool = False
    insurance: bool = False
    pledge: bool = False
    checked_in: bool = False
    region: str = ""  # 地区 (free text): for region avoidance in pairing and local prizes


@dataclass(frozen=True, slots=True)
class RegistrationContext:
    """What the tournament holds when an entry is checked.

    ``groups`` maps each group name to whether it allows teams. ``id_numbers`` are the ID numbers
    already registered (for an edit: without the player being edited). ``entries`` is the number
    of players already registered in the whole tournament. ``now`` is the time of the entry.
    """

    rules: RegistrationRules
    groups: Mapping[str, bool]
    now: datetime
    id_numbers: frozenset[str] = frozenset()
    entries: int = 0
    override_reason: str = ""
    eligibility: Mapping[str, Eligibility] = field(default_factory=dict)  # group → who may play in it
    accepted_outside: bool = False  # an edit of a player already accepted outside the group's conditions


@dataclass(frozen=True, slots=True)
class CheckedEntry:
    """The normalised entry and every problem found; ``late`` when the deadline was overridden."""

    entry: PlayerEntry
    problems: tuple[Problem, ...] = ()
    late: bool = False
    outside: tuple[str, ...] = ()  # the group's conditions the entry breaks, accepted with a reason
    outside_refused: tuple[str, ...] = ()  # the conditions it breaks, refused for want of a reason

    @property
    def ok(self) -> bool:
        return not self.problems

    def raise_problems(self) -> None:
        """Raise one :class:`UserError` listing every problem (for single entries in the GUI)."""
        if self.problems:
            raise UserError(
                "；".join(p.message_zh for p in self.problems), "; ".join(p.message_en for p in self.problems)
            )


# --------------------------------------------------------------------------- ID numbers


def resident_id_check_char(first17: str) -> str:
    """The check character of GB 11643-1999 for the first 17 digits.

    >>> resident_id_check_char("62050219900101123")
    '5'
    """
    if len(first17) != 17 or not first17.isascii() or not first17.isdigit():
        raise ValueError("need exactly 17 digits")
    return ID_CHECK_CHARS[sum(int(d) * w for d, w in zip(first17, ID_WEIGHTS, strict=True)) % 11]


def validate_resident_id(text: str) -> ResidentId:
    """Check a 18-character resident ID number; raise :class:`IdNumberError` naming the rule broken.

    >>> try:
    ...     validate_resident_id("110105194912310021")
    ... except IdNumberError as error:
    ...     print(error.en)
    ID number checksum does not match: the 18th character does not fit the first 17; check the number
    """
    number = re.sub(r"\s+", "", text).upper()
    if not number:
        raise IdNumberError("身份证号为空", "the ID number is empty")
    if len(number) == 15 and number.isascii() and number.isdigit():
        raise IdNumberError(
            "这是 15 位旧身份证号，已停止使用，请提供 18 位身份证号",
            "this is a legacy 15-digit ID number, no longer valid; give the 18-character number",
        )
    if len(number) != 18:
        raise IdNumberError(
            f"身份证号应为 18 位，现为 {len(number)} 位",
            f"an ID number has 18 characters, this one has {len(number)}",
        )
    first17, last = number[:17], number[17]
    if not (first17.isascii() and first17.isdigit()):
        raise IdNumberError(
            "身份证号前 17 位只能是数字", "the first 17 characters of an ID number must be digits"
        )
    if last not in "0123456789X":
        raise IdNumberError(
            f"身份证号第 18 位（校验码）只能是数字或 X，现为“{last}”",
            f"the 18th character (check character) must be a digit or X, not {last!r}",
        )
    province = int(number[:2])
    if province not in PROVINCE_CODES:
        raise IdNumberError(
            f"身份证号前 2 位“{number[:2]}”不是有效的省级行政区划代码",
            f"the first two digits {number[:2]} are not a province code",
        )
    born = number[6:14]
    try:
        birth = date(int(born[:4]), int(born[4:6]), int(born[6:]))
    except ValueError:
        raise IdNumberError(
            f"身份证号第 7–14 位“{born}”不是有效的出生日期",
            f"characters 7-14 ({born}) are not a real birth date",
        ) from None
    if birth.year < 1900:
        raise IdNumberError(
            f"身份证号中的出生年份 {birth.year} 不合理", f"the birth year {birth.year} is not plausible"
        )
    if resident_id_check_char(first17) != last:
        raise IdNumberError(
            "身份证号校验码不符（第 18 位与前 17 位不匹配），请核对号码",
            "ID number checksum does not match: the 18th character does not fit the first 17; "
            "check the number",
        )
    gender = Gender.MALE if int(number[16]) % 2 else Gender.FEMALE
    return ResidentId(number, birth, gender, province)


def normalise_document_number(id_type: IdDocument, text: str) -> str:
    """Upper-case, without spaces and dashes; raise :class:`IdNumberError` on a bad format.

    >>> normalise_document_number(IdDocument.HK_MACAU_PERMIT, "h1234 5678")
    'H12345678'
    """
    if id_type is IdDocument.RESIDENT_ID:
        return validate_resident_id(text).number
    number = re.sub(r"[\s\-]+", "", text).upper()
    if not number:
        raise IdNumberError(f"{id_type.zh}号码为空", f"the {id_type.value} number is empty")
    pattern, zh, en = _OTHER_DOCUMENT[id_type]
    if not pattern.fullmatch(number):
        raise IdNumberError(
            f"{id_type.zh}号码“{number}”格式不对（应为{zh}）",
            f"{id_type.value} number {number!r} has the wrong format (expected {en})",
        )
    return number


# --------------------------------------------------------------------------- small rules


def age_on(birth: date, day: date) -> int:
    """Age in full years (周岁) on ``day``.

    >>> age_on(date(1959, 7, 26), date(2024, 7, 26)), age_on(date(1959, 7, 27), date(2024, 7, 26))
    (65, 64)
    """
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def normalise_phone(text: str) -> str:
    """A mainland mobile number as 11 digits; raise :class:`UserError` if it is not one.

    Spaces, dashes, brackets and a leading ``+86`` / ``0086`` / ``86`` are stripped.
    """
    digits = re.sub(r"[\s\-()（）.]+", "", text)
    if digits.startswith("+86"):
        digits = digits[3:]
    elif digits.startswith("0086"):
        digits = digits[4:]
    elif digits.startswith("86") and len(digits) == 13:
        digits = digits[2:]
    if not digits:
        raise UserError("手机号为空", "the mobile phone number is empty")
    if not _PHONE.fullmatch(digits):
        raise UserError(
            f"手机号“{text.strip()}”无效：应为 1 开头、第二位 3–9 的 11 位大陆手机号",
            f"{text.strip()!r} is not a mainland mobile number (11 digits, 1 then 3-9)",
        )
    return digits


def normalise_name(text: str) -> str:
    """NFC, inner white space collapsed; raise :class:`UserError` if empty, too long or not a name
    (digits, symbols, control, bidi-override and zero-width characters are refused)."""
    name = clean_text(text, "姓名", "the name", NAME_MAX, required=True)
    bad = _NAME_FORBIDDEN.search(name)
    if bad:
        raise UserError(
            f"姓名“{name}”含有不应出现的字符“{bad.group()}”",
            f"the name {name!r} contains {bad.group()!r}",
        )
    return name


# --------------------------------------------------------------------------- the entry


class _Problems:
    """The problems found in one entry, each under the field it belongs to."""

    def __init__(self) -> None:
        self.found: list[Problem] = []

    def fail(self, name: str, error: UserError) -> None:
        self.found.append(Problem(name, error.zh, error.en))

    def clean(self, name: str, value: str, check: Callable[[str], str]) -> str:
        """``check(value)``, or ``value`` as it was with the problem noted under ``name``."""
        try:
            return check(value)
        except UserError as e:
            self.fail(name, e)
            return value


def _check_identity(
    entry: PlayerEntry, context: RegistrationContext, problems: _Problems
) -> tuple[str, date | None, Gender | None]:
    """The ID number normalised, and the birth date and gender it holds (checked against the entry's)."""
    id_number = entry.id_number.strip()
    birth = entry.birth_date
    gender = entry.gender
    try:
        if entry.id_type is IdDocument.RESIDENT_ID:
            rid = validate_resident_id(entry.id_number)
            id_number = rid.number
            if birth is not None and birth != rid.birth_date:
                problems.fail(
                    "birth_date",
                    UserError(
                        f"出生日期 {birth.isoformat()} 与身份证号中的 {rid.birth_date.isoformat()} 不符",
                        f"birth date {birth.isoformat()} differs from the ID number's "
                        f"{rid.birth_date.isoformat()}",
                    ),
                )
            birth = rid.birth_date
            if gender is not None and gender is not rid.gender:
                problems.fail(
                    "gender",
                    UserError(
                        f"性别“{gender.zh}”与身份证号（{rid.gender.zh}）不符",
                        f"gender {gender.value} differs from the ID number ({rid.gender.value})",
                    ),
                )
            gender = gender or rid.gender
        else:
            id_number = normalise_document_number(entry.id_type, entry.id_number)
            if birth is None:
                problems.fail(
                    "birth_date",
                    UserError(
                        f"使用{entry.id_type.zh}报名须填写出生日期",
                        f"a birth date is required with a {entry.id_type.value}",
                    ),
                )
    except UserError as e:
        problems.fail("id_number", e)
    else:
        if id_number in context.id_numbers:
            problems.fail(
                "id_number",
                UserError(
                    f"证件号码 {id_number} 已经报名，不能重复报名",
                    f"ID number {id_number} is already registered",
                ),
            )
    return id_number, birth, gender


def _check_birth(birth: date, context: RegistrationContext, problems: _Problems) -> None:
    """A birth date in the past, after 1900, within the age limit on the first day of play."""
    today = context.now.date()
    first_day = context.rules.first_day_of_play
    if birth > today:
        problems.fail(
            "birth_date",
            UserError(
                f"出生日期 {birth.isoformat()} 在今天之后",
                f"birth date {birth.isoformat()} is in the future",
            ),
        )
    elif birth.year < 1900:
        problems.fail("birth_date", UserError(f"出生年份 {birth.year} 不合理", f"birth year {birth.year}"))
    else:
        age = age_on(birth, first_day)
        if age > context.rules.age_limit:
            problems.fail(
                "birth_date",
                UserError(
                    f"比赛首日（{first_day.isoformat()}）年满 {age} 周岁，超过 {context.rules.age_limit} 周岁的年龄限制",
                    f"aged {age} on the first day of play ({first_day.isoformat()}), "
                    f"over the age limit of {context.rules.age_limit}",
                ),
            )


def _check_public_texts(values: dict[str, str], problems: _Problems) -> None:
    """A unit, team name or region is printed publicly: no phone or ID number or path in it."""
    for field_name, label_zh, label_en in (
        ("unit", "单位", "unit"),
        ("team", "队名", "team name"),
        ("region", "地区", "region"),
    ):
        value = values[field_name]
        if value and looks_personal(value):
            problems.fail(
                field_name,
                UserError(
                    f"{label_zh}“{value}”中像是含有手机号、证件号或文件路径（{label_zh}会印在公开名单上）",
                    f"the {label_en} {value!r} seems to hold a phone or ID number or a path (it is printed publicly)",
                ),
            )


def _check_group(group: str, team: str, context: RegistrationContext, problems: _Problems) -> None:
    if not group:
        problems.fail("group", UserError("组别为空", "the group is empty"))
    elif group not in context.groups:
        names = "、".join(context.groups)
        problems.fail(
            "group",
            UserError(
                f"没有名为“{group}”的组别（现有：{names}）", f"no group named {group!r} (groups: {names})"
            ),
        )
    elif team and not context.groups[group]:
        problems.fail(
            "team",
            UserError(
                f"{group}不设团体，不能填写代表队“{team}”",
                f"{group} has no teams; the team {team!r} is not allowed",
            ),
        )


def _check_eligibility(
    group: str,
    entry: PlayerEntry,
    identity: tuple[str, date | None, Gender | None],
    texts: dict[str, str],
    context: RegistrationContext,
    problems: _Problems,
) -> tuple[list[str], list[str]]:
    """The group's conditions of entry: (accepted outside them, refused for them) — each a list of
    the conditions broken. Outside them is accepted only with the arbiter's reason, or for an edit
    of a player accepted so before."""
    id_number, birth, gender = identity
    rules = context.eligibility.get(group)
    if rules is None or rules.open:
        return [], []
    broken = broken_rules(
        rules,
        birth=birth,
        gender=gender,
        rating=entry.rating,
        rating_rank=entry.rating_rank,
        unit=texts["unit"],
        team=texts["team"],
        region=texts["region"],
        id_number=id_number,
        first_day=context.rules.first_day_of_play,
    )
    if broken and (context.override_reason.strip() or context.accepted_outside):
        return [zh for zh, _ in broken], []
    for zh, en in broken:
        problems.fail(
            "group",
            UserError(
                f"不符合{group}的参赛资格：{zh}；裁判长可注明理由后破例接受",
                f"outside the conditions of {group}: {en}; the arbiter may accept it with a reason",
            ),
        )
    return [], [zh for zh, _ in broken]


def _check_capacity(context: RegistrationContext, problems: _Problems) -> bool:
    """A new entry: room left, and before the deadline (or late with the arbiter's reason: True)."""
    if context.entries >= context.rules.capacity:
        problems.fail(
            "",
            UserError(
                f"报名人数已满（{context.rules.capacity} 人）",
                f"the tournament is full ({context.rules.capacity} entries)",
            ),
        )
    deadline = context.rules.deadline
    if context.now <= deadline:
        return False
    if context.override_reason.strip():
        return True
    problems.fail(
        "",
        UserError(
            f"已过报名截止时间（{deadline:%Y-%m-%d %H:%M}）；裁判长可注明理由后破例接受",
            f"entries closed at {deadline:%Y-%m-%d %H:%M}; the arbiter may accept it with a reason",
        ),
    )
    return False


def check_entry(entry: PlayerEntry, context: RegistrationContext, *, new: bool = True) -> CheckedEntry:
    """Check one entry against every registration rule; return it normalised with all problems.

    ``new=False`` is an edit of an existing player: capacity and deadline do not apply.
    """
    problems = _Problems()
    name = problems.clean("name", entry.name, normalise_name)
    id_number, birth, gender = _check_identity(entry, context, problems)
    if birth is not None:
        _check_birth(birth, context, problems)
    phone = problems.clean("phone", entry.phone, normalise_phone)
    group = entry.group.strip()
    texts = {
        "team": problems.clean(
            "team", entry.team, lambda t: clean_text(t, "队名", "the team name", TEAM_MAX)
        ),
        "unit": problems.clean("unit", entry.unit, lambda t: clean_text(t, "单位", "the unit", UNIT_MAX)),
        "region": problems.clean(
            "region", entry.region, lambda t: clean_text(t, "地区", "the region", REGION_MAX)
        ),
        "notes": problems.clean(
            "notes",
            entry.notes,
            lambda t: clean_text(t, "备注", "the notes", NOTES_MAX, multiline=True),
        ),
    }
    _check_public_texts(texts, problems)
    _check_group(group, texts["team"], context, problems)
    outside, refused = _check_eligibility(group, entry, (id_number, birth, gender), texts, context, problems)
    if entry.rating is not None and not 0 < entry.rating <= RATING_MAX:
        problems.fail(
            "rating",
            UserError(
                f"等级分 {entry.rating} 不在 1–{RATING_MAX} 之间",
                f"rating {entry.rating} is outside 1-{RATING_MAX}",
            ),
        )
    if entry.rating_rank is not None and not 0 < entry.rating_rank <= RATING_RANK_MAX:
        problems.fail(
            "rating_rank",
            UserError(
                f"等级分排名 {entry.rating_rank} 不在 1–{RATING_RANK_MAX} 之间",
                f"rating-list rank {entry.rating_rank} is outside 1-{RATING_RANK_MAX}",
            ),
        )
    late = _check_capacity(context, problems) if new else False
    normalised = replace(
        entry,
        name=name,
        id_number=id_number,
        phone=phone,
        group=group,
        team=texts["team"],
        unit=texts["unit"],
        region=texts["region"],
        notes=texts["notes"],
        birth_date=birth,
        gender=gender,
    )
    return CheckedEntry(normalised, tuple(problems.found), late, tuple(outside), tuple(refused))


@dataclass(frozen=True, slots=True)
class BatchLine:
    """One entry of a batch (an import): its label (``"第 5 行"``) and the checked entry."""

    label: str
    checked: CheckedEntry
    duplicate_of: str = ""  # label of the earlier line with the same ID number
    extra: tuple[Problem, ...] = field(default=())

    @property
    def problems(self) -> tuple[Problem, ...]:
        return self.checked.problems + self.extra

    @property
    def ok(self) -> bool:
        return not self.problems


def check_batch(
    entries: Sequence[tuple[str, PlayerEntry]], context: RegistrationContext
) -> tuple[BatchLine, ...]:
    """Check a batch of new entries as if added one after the other.

    Duplicates inside the batch are reported on the later line; capacity counts the valid lines
    before (the first line that would be entry ``capacity + 1`` and every later one is refused).
    """
    seen: dict[str, str] = {}
    accepted = 0
    lines: list[BatchLine] = []
    for label, entry in entries:
        ctx = replace(context, entries=context.entries + accepted)
        checked = check_entry(entry, ctx)
        extra: tuple[Problem, ...] = ()
        number = checked.entry.id_number
        earlier = seen.get(number, "") if number else ""
        if earlier:
            extra = (
                Problem(
                    "id_number",
                    f"证件号码 {number} 与{earlier}重复",
                    f"ID number {number} repeats the one on {earlier}",
                ),
            )
        elif number and not any(p.field == "id_number" for p in checked.problems):
            seen[number] = label
        line = BatchLine(label, checked, earlier, extra)
        if line.ok:
            accepted += 1
        lines.append(line)
    return tuple(lines)


# --------------------------------------------------------------------------- sequence numbers


def draw_by_lot(players: Sequence[K], seed: int) -> dict[K, int]:
    """Sequence numbers 1..n by lot (抽签): the order of ``players`` shuffled with ``seed``.

    The same players in the same order and the same seed always give the same numbers.

    >>> draw_by_lot(["a", "b", "c"], 7) == draw_by_lot(["a", "b", "c"], 7)
    True
    """
    order = list(players)
    if len(set(order)) != len(order):
        raise ValueError("a player appears twice")
    random.Random(seed).shuffle(order)
    return {p: n for n, p in enumerate(order, start=1)}


def draw_by_rating(players: Sequence[tuple[K, int | None]], seed: int) -> dict[K, int]:
    """Rated players first by rating (highest = 1); equal ratings and the unrated by lot.

    >>> draw_by_rating([("a", None), ("b", 1800), ("c", 2100)], 1)
    {'c': 1, 'b': 2, 'a': 3}
    """
    lot = draw_by_lot([p for p, _ in players], seed)
    rated = sorted((p for p in players if p[1] is not None), key=lambda p: (-(p[1] or 0), lot[p[0]]))
    unrated = sorted((p for p in players if p[1] is None), key=lambda p: lot[p[0]])
    return {p: n for n, (p, _) in enumerate(rated + unrated, start=1)}


def check_manual_numbers(numbers: Mapping[K, int], players: Collection[K]) -> None:
    """Numbers entered by hand from a physical draw must be 1..n, each once, for every player."""
    missing = [p for p in players if p not in numbers]
    if missing:
        raise UserError(
            f"有 {len(missing)} 名棋手没有序号", f"{len(missing)} player(s) have no sequence number"
        )
    unknown = [p for p in numbers if p not in players]
    if unknown:
        raise UserError(
            f"有 {len(unknown)} 个序号给了不在本组的棋手",
            f"{len(unknown)} number(s) given to unknown players",
        )
    n = len(players)
    values = list(numbers.values())
    out_of_range = sorted({v for v in values if not 1 <= v <= n})
    if out_of_range:
        shown = "、".join(map(str, out_of_range))
        raise UserError(f"序号 {shown} 超出 1–{n} 的范围", f"number(s) {shown} outside 1-{n}")
    repeated = sorted({v for v in values if values.count(v) > 1})
    if repeated:
        shown = "、".join(map(str, repeated))
        raise UserError(f"序号 {shown} 重复", f"number(s) {shown} given twice")
    # n distinct values in 1..n: no gaps are possible now
