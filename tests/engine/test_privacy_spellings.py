"""Personal numbers however they are spelled: any separators, spaces or full-width forms between the
digits. A run of digits that, with those removed, is a registered number or has the shape of one
(a mainland mobile, a resident ID) is masked."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine.privacy import looks_personal, mask_personal

PHONE = "18780920101"
RESIDENT = "62050219880712301X"

_FULL = str.maketrans("0123456789X", "０１２３４５６７８９Ｘ")


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text.translate(str.maketrans("０１２３４５６７８９", "0123456789")))


@pytest.mark.parametrize(
    "spelling",
    [
        "187/8092/0101",
        "187，8092，0101",
        "187、8092、0101",
        "187；8092；0101",
        "187_8092_0101",
        "187:8092:0101",
        "187|8092|0101",
        "187~8092~0101",
        "187＊8092＊0101".replace("＊", "・"),
        "187 / 8092 / 0101",
        "１８７８０９２０１０１",
        "187\u30008092\u30000101",
        "+86/187/8092/0101",
        "187‐8092‐0101",  # U+2010 hyphen
    ],
)
def test_a_phone_in_any_spelling_is_masked(spelling: str) -> None:
    text = f"更正成绩：联系人电话 {spelling} 已核实"
    out = mask_personal(text, [PHONE])
    assert "8092" not in _digits(out) and "80920" not in out
    assert "****" in out
    assert out.startswith("更正成绩：联系人电话 ") and out.endswith(" 已核实")
    assert mask_personal(text) != text  # the shape alone is enough, registered or not


@pytest.mark.parametrize(
    "spelling",
    [
        "620502/19880712/301X",
        "620502_1988_0712_301X",
        "620502:19880712:301x",
        "６２０５０２１９８８０７１２３０１Ｘ",
        "620502，19880712，301X",
        "6205-0219-8807-1230-1X",
    ],
)
def test_a_resident_id_in_any_spelling_shows_no_more_than_the_mask(spelling: str) -> None:
    out = mask_personal(f"证件 {spelling} 已核对", [RESIDENT])
    digits = _digits(out)
    assert "19880712" not in digits and len(digits) <= 10, out  # 620502 + the last four at most
    assert "*" in out


def test_a_registered_number_of_another_shape_in_odd_spellings() -> None:
    passport = "E12345678"
    for spelling in ("E1234/5678", "Ｅ１２３４５６７８", "e_1234_5678"):
        assert "345" not in mask_personal(f"护照 {spelling}", [passport]), spelling


@pytest.mark.parametrize("spelling", ["1900-1-10 0000", "1900-1-1 00000", "1990.01.0 1234"])
def test_a_phone_that_begins_like_a_date_is_masked(spelling: str) -> None:
    """19001100000 spelled 1900-1-10 0000: its head reads as a date, which is kept, and the date kept
    shielded the number (found by the spelling property test)."""
    for text in (spelling, f"联系{spelling}。"):
        out = mask_personal(text)
        assert "****" in out and _digits(spelling) not in _digits(out), out


@pytest.mark.parametrize(
    "text",
    [
        "1998-05-20 13:30",
        "1990-01-01 12:00:00",
        "第1、2、3轮",
        "2024年7月26日 9:30 开赛",
        "比分 2:0，1:1",
        "奖金 2,000 元",
        "第 3 轮第 12 台",
        "2024-07-26",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert mask_personal(text) == text
    assert not looks_personal(text)


@given(
    st.lists(st.sampled_from([*list("/，、_:;.-· ｜|~"), "\u3000", " / "]), min_size=10, max_size=10),
    st.booleans(),
)
def test_any_separators_between_the_digits_of_a_registered_phone(seps: list[str], wide: bool) -> None:
    digits = PHONE.translate(_FULL) if wide else PHONE
    spelled = digits[0] + "".join(sep + d for sep, d in zip(seps, digits[1:], strict=True))
    out = mask_personal(f"电话{spelled}。", [PHONE])
    assert "0920" not in _digits(out), out


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40))
def test_folding_by_table_is_folding_character_by_character(text: str) -> None:
    """The cached translation table folds every character as the per-character rule does."""
    from app.engine.privacy import _fold, _fold_char

    assert _fold(text) == "".join(_fold_char(ch) for ch in text)
    assert _fold("１２３\u3000٤٥") == "123 45"


_FEW_DIGITS_ALPHABET = [
    *"0123456789０１２３４５６７８９٤٥",
    *"/，、_:;.-· ｜|~()（）+",
    *"HMhmEeXxPpAa",
    "\u3000",
    "第",
    "轮",
    "台",
    "2024-07-26",
    "+86",
    "0086",
]


@given(st.lists(st.sampled_from(_FEW_DIGITS_ALPHABET), max_size=30))
def test_a_text_without_six_digits_together_is_left_alone_unsearched(parts: list[str]) -> None:
    """The shortcut that returns a text without six digits close together unsearched (most audit lines)
    gives what the full search gives: no shape of number has fewer."""
    import app.engine.privacy as privacy

    text = "".join(parts)
    while privacy._SIX_DIGITS.search(text):  # break every chain of six digits with a letter between
        m = privacy._SIX_DIGITS.search(text)
        assert m is not None
        text = text[: m.start() + 1] + "字" + text[m.start() + 1 :]
    shortcut = privacy._SIX_DIGITS
    privacy._SIX_DIGITS = re.compile("")  # found everywhere: always search
    try:
        searched = privacy.mask_personal(text)
    finally:
        privacy._SIX_DIGITS = shortcut
    assert privacy.mask_personal(text) == searched  # a path may still be cut to its name: the same


def test_a_passport_of_six_digits_is_masked_past_the_shortcut() -> None:
    """Six digits is the fewest any shape has (a passport: a letter and six digits)."""
    assert mask_personal("护照 E123456 已核对") != "护照 E123456 已核对"
    assert mask_personal("护照 E12345 已核对") == "护照 E12345 已核对"
