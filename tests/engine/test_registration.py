"""Registration checks (docs/rules.md §2) and the draw for sequence numbers (§3)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

import app.engine.registration as registration
from app.engine.registration import (
    CheckedEntry,
    IdNumberError,
    PlayerEntry,
    RegistrationContext,
    age_on,
    check_batch,
    check_entry,
    check_manual_numbers,
    draw_by_lot,
    draw_by_rating,
    normalise_document_number,
    normalise_phone,
    resident_id_check_char,
    validate_resident_id,
)
from app.engine.regulations import RegistrationRules
from app.engine.types import Gender, IdDocument, UserError
from tests.doctests import run_doctests
from tests.idnumbers import check_char, make_id

RULES = RegistrationRules(
    capacity=160,
    deadline=datetime(2024, 7, 23, 18, 0),
    age_limit=65,
    first_day_of_play=date(2024, 7, 26),
)
GROUPS = {"公开组": True, "天水本地组": False}
BEFORE = datetime(2024, 7, 20, 9, 0)


def context(**changes: object) -> RegistrationContext:
    base = RegistrationContext(rules=RULES, groups=GROUPS, now=BEFORE)
    return replace(base, **changes)  # type: ignore[arg-type]


def entry(**changes: object) -> PlayerEntry:
    base = PlayerEntry(name="张三", id_number=make_id(date(1990, 5, 17)), phone="13912345678", group="公开组")
    return replace(base, **changes)  # type: ignore[arg-type]


def fields(checked: CheckedEntry) -> list[str]:
    return [p.field for p in checked.problems]


def test_doctests() -> None:
    assert run_doctests(registration).failed == 0


# --------------------------------------------------------------------------- ID numbers


def test_the_standard_example_with_lowercase_x_is_accepted_and_stored_uppercase() -> None:
    rid = validate_resident_id(" 11010519491231002x ")
    assert rid.number == "11010519491231002X"
    assert rid.birth_date == date(1949, 12, 31)
    assert rid.gender is Gender.FEMALE  # 17th digit 2 is even
    assert rid.province == 11


def test_check_character_agrees_with_the_independent_mod_11_2() -> None:
    for first17 in ("11010519491231002", "62050219900101123", "44030419851111777", "35020320000229004"):
        assert resident_id_check_char(first17) == check_char(first17)


@given(st.text(alphabet="0123456789", min_size=17, max_size=17))
def test_check_character_property(first17: str) -> None:
    assert resident_id_check_char(first17) == check_char(first17)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("110105491231002", "15 位旧身份证号"),
        ("1101051949123100", "应为 18 位，现为 16 位"),
        ("1101051949123100211", "现为 19 位"),
        ("11010519491231A02X", "前 17 位只能是数字"),
        ("11010519491231002Y", "只能是数字或 X"),
        ("99010519491231002X", "省级行政区划代码"),
        ("", "为空"),
    ],
)
def test_each_id_rule_names_itself(text: str, words: str) -> None:
    with pytest.raises(IdNumberError) as info:
        validate_resident_id(text)
    assert words in info.value.zh


def test_a_wrong_check_character_is_refused() -> None:
    good = make_id(date(1990, 1, 1))
    wrong = good[:17] + ("0" if good[17] != "0" else "1")
    with pytest.raises(IdNumberError, match="校验码不符"):
        validate_resident_id(wrong)


@pytest.mark.parametrize("born", ["19900230", "19901301", "19900000", "18991231"])
def test_birth_date_in_the_id_must_be_real(born: str) -> None:
    first17 = "620502" + born + "123"
    with pytest.raises(IdNumberError, match="出生"):
        validate_resident_id(first17 + check_char(first17))


def test_leap_day_is_a_real_date() -> None:
    assert validate_resident_id(make_id(date(2000, 2, 29))).birth_date == date(2000, 2, 29)


def test_other_documents_light_format_checks() -> None:
    assert normalise_document_number(IdDocument.PASSPORT, "e1234 5678") == "E12345678"
    assert normalise_document_number(IdDocument.HK_MACAU_PERMIT, "H-1234-5678") == "H12345678"
    assert normalise_document_number(IdDocument.TAIWAN_PERMIT, "12345678") == "12345678"
    with pytest.raises(IdNumberError, match="格式不对"):
        normalise_document_number(IdDocument.HK_MACAU_PERMIT, "X12345678")
    with pytest.raises(IdNumberError, match="格式不对"):
        normalise_document_number(IdDocument.PASSPORT, "E1")


# --------------------------------------------------------------------------- small rules


def test_age_in_full_years() -> None:
    assert age_on(date(1959, 7, 26), date(2024, 7, 26)) == 65  # birthday on the first day
    assert age_on(date(1959, 7, 25), date(2024, 7, 26)) == 65
    assert age_on(date(1958, 7, 26), date(2024, 7, 26)) == 66
    assert age_on(date(2000, 2, 29), date(2024, 2, 28)) == 23


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("13912345678", "13912345678"),
        ("139 1234 5678", "13912345678"),
        ("139-1234-5678", "13912345678"),
        ("+86 181 9424 0701", "18194240701"),
        ("008618194240701", "18194240701"),
        ("8618194240701", "18194240701"),
    ],
)
def test_phone_normalised(text: str, expected: str) -> None:
    assert normalise_phone(text) == expected


@pytest.mark.parametrize("text", ["", "12912345678", "1391234567", "139123456789", "0938-8212345", "abc"])
def test_bad_phone_refused(text: str) -> None:
    with pytest.raises(UserError):
        normalise_phone(text)


# --------------------------------------------------------------------------- whole entry


def test_good_entry_is_normalised() -> None:
    checked = check_entry(
        entry(name="  欧阳  小明 ", id_number=make_id(date(1990, 5, 17)).lower(), phone="139 1234 5678"),
        context(),
    )
    assert checked.ok, checked.problems
    assert checked.entry.name == "欧阳 小明"
    assert checked.entry.phone == "13912345678"
    assert checked.entry.birth_date == date(1990, 5, 17)
    assert checked.entry.gender is Gender.MALE
    assert not checked.late


def test_all_problems_are_reported_at_once() -> None:
    checked = check_entry(entry(name="", id_number="123", phone="555", group="少年组", rating=-5), context())
    assert sorted(fields(checked)) == ["group", "id_number", "name", "phone", "rating"]
    with pytest.raises(UserError) as info:
        checked.raise_problems()
    assert "姓名为空" in info.value.zh and "手机号" in info.value.zh


def test_age_limit_65_on_the_first_day_of_play() -> None:
    # 65 on the day (birthday 1959-07-26): allowed; one day older than 66 … refused
    assert check_entry(entry(id_number=make_id(date(1959, 7, 26))), context()).ok
    assert check_entry(entry(id_number=make_id(date(1958, 7, 27))), context()).ok  # still 65
    old = check_entry(entry(id_number=make_id(date(1958, 7, 26))), context())
    assert fields(old) == ["birth_date"]
    assert "66" in old.problems[0].message_zh


def test_birth_date_in_the_future_refused() -> None:
    checked = check_entry(entry(id_number=make_id(date(2024, 8, 1))), context())
    assert fields(checked) == ["birth_date"]
    assert "之后" in checked.problems[0].message_zh


def test_gender_and_birth_date_must_agree_with_the_id() -> None:
    checked = check_entry(
        entry(
            id_number=make_id(date(1990, 5, 17), male=True),
            gender=Gender.FEMALE,
            birth_date=date(1990, 5, 18),
        ),
        context(),
    )
    assert sorted(fields(checked)) == ["birth_date", "gender"]


def test_passport_needs_a_hand_entered_birth_date() -> None:
    no_birth = check_entry(entry(id_type=IdDocument.PASSPORT, id_number="E12345678"), context())
    assert fields(no_birth) == ["birth_date"]
    ok = check_entry(
        entry(id_type=IdDocument.PASSPORT, id_number="e12345678", birth_date=date(1980, 1, 2)), context()
    )
    assert ok.ok and ok.entry.id_number == "E12345678"
    too_old = check_entry(
        entry(id_type=IdDocument.TAIWAN_PERMIT, id_number="12345678", birth_date=date(1950, 1, 1)), context()
    )
    assert fields(too_old) == ["birth_date"]


def test_duplicate_id_number_refused() -> None:
    number = make_id(date(1990, 5, 17))
    checked = check_entry(entry(id_number=number.lower()), context(id_numbers=frozenset({number})))
    assert fields(checked) == ["id_number"]
    assert "已经报名" in checked.problems[0].message_zh


def test_capacity_refuses_the_161st_entry() -> None:
    assert check_entry(entry(), context(entries=159)).ok  # the 160th
    full = check_entry(entry(), context(entries=160))
    assert fields(full) == [""]
    assert "160" in full.problems[0].message_zh
    assert check_entry(entry(), context(entries=160), new=False).ok  # an edit is not an entry


def test_deadline_and_override() -> None:
    deadline = RULES.deadline
    assert check_entry(entry(), context(now=deadline)).ok  # 18:00 sharp is still in time
    late = check_entry(entry(), context(now=datetime(2024, 7, 23, 18, 1)))
    assert fields(late) == [""] and "截止" in late.problems[0].message_zh
    blank_reason = check_entry(entry(), context(now=datetime(2024, 7, 24), override_reason="  "))
    assert not blank_reason.ok
    overridden = check_entry(entry(), context(now=datetime(2024, 7, 24), override_reason="主办方同意"))
    assert overridden.ok and overridden.late


def test_team_only_where_the_group_allows_teams() -> None:
    assert check_entry(entry(team="天水一队"), context()).ok
    local = check_entry(entry(group="天水本地组", team="天水一队"), context())
    assert fields(local) == ["team"]
    assert "不设团体" in local.problems[0].message_zh
    assert check_entry(entry(group="天水本地组", unit="麦积区总工会"), context()).ok


@pytest.mark.parametrize("name", ["张3", "a" * 31, "张\x07三", "李四!"])
def test_insane_names_refused(name: str) -> None:
    assert "name" in fields(check_entry(entry(name=name), context()))


def test_names_with_middle_dot_and_latin_letters_accepted() -> None:
    assert check_entry(entry(name="阿卜杜热合曼·买买提"), context()).ok
    assert check_entry(entry(name="John Smith"), context()).ok


def test_batch_flags_duplicates_and_capacity() -> None:
    a, b, c = (make_id(date(1990, 1, 1), serial=i) for i in range(3))
    lines = check_batch(
        [
            ("第 2 行", entry(id_number=a)),
            ("第 3 行", entry(id_number=a.lower())),
            ("第 4 行", entry(id_number="bad")),
            ("第 5 行", entry(id_number=b)),
            ("第 6 行", entry(id_number=c)),
        ],
        context(entries=158),
    )
    assert [line.ok for line in lines] == [True, False, False, True, False]
    assert lines[1].duplicate_of == "第 2 行"
    assert "第 2 行" in lines[1].problems[0].message_zh
    assert "报名人数已满" in lines[4].problems[0].message_zh


# --------------------------------------------------------------------------- sequence numbers


def test_lot_is_reproducible_from_the_seed_and_a_permutation() -> None:
    players = list(range(100, 140))
    first = draw_by_lot(players, 20240726)
    assert first == draw_by_lot(players, 20240726)
    assert sorted(first.values()) == list(range(1, 41))
    assert first != draw_by_lot(players, 20240727)


def test_lot_is_python_random_shuffle_of_the_given_order() -> None:
    import random

    order = ["a", "b", "c", "d", "e"]
    expected = order[:]
    random.Random(5).shuffle(expected)
    assert draw_by_lot(order, 5) == {p: i + 1 for i, p in enumerate(expected)}


def test_by_rating_rated_first_then_unrated_by_lot() -> None:
    players = [("u1", None), ("r1", 1800), ("u2", None), ("r2", 2100), ("r3", 1950), ("u3", None)]
    numbers = draw_by_rating(players, 3)
    assert numbers["r2"] == 1 and numbers["r3"] == 2 and numbers["r1"] == 3
    assert sorted(numbers[p] for p in ("u1", "u2", "u3")) == [4, 5, 6]
    lot = draw_by_lot([p for p, _ in players], 3)
    unrated = sorted(("u1", "u2", "u3"), key=lambda p: lot[p])
    assert [numbers[p] for p in unrated] == [4, 5, 6]


def test_manual_numbers() -> None:
    check_manual_numbers({"a": 2, "b": 1, "c": 3}, ["a", "b", "c"])
    with pytest.raises(UserError, match="重复"):
        check_manual_numbers({"a": 1, "b": 1, "c": 3}, ["a", "b", "c"])
    with pytest.raises(UserError, match="超出"):
        check_manual_numbers({"a": 1, "b": 2, "c": 4}, ["a", "b", "c"])  # a gap: 3 missing
    with pytest.raises(UserError, match="没有序号"):
        check_manual_numbers({"a": 1, "b": 2}, ["a", "b", "c"])
    with pytest.raises(UserError, match="不在本组"):
        check_manual_numbers({"a": 1, "b": 2, "c": 3, "x": 4}, ["a", "b", "c"])
