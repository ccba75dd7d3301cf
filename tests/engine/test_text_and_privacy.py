"""Text hygiene (NFC, no control or bidi characters, limits) and the masking of public text."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import privacy, text
from app.engine.privacy import KnownNumbers, looks_personal, mask_personal
from app.engine.text import clean_text, spreadsheet_safe
from app.engine.types import UserError
from tests.doctests import run_doctests


def test_doctests() -> None:
    assert run_doctests(text).failed == 0
    assert run_doctests(privacy).failed == 0


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ("王\u202e五", "U+202E"),
        ("王\u2067五", "U+2067"),
        ("王\u200b五", "U+200B"),
        ("王\u200d五", "U+200D"),
        ("王\ufeff五", "U+FEFF"),
        ("王\x00五", "U+0000"),
        ("王\x1b五", "U+001B"),
        ("王\u2028五", "U+2028"),
    ],
)
def test_invisible_and_control_characters_are_refused_by_code_point(given: str, code: str) -> None:
    with pytest.raises(UserError, match=code.replace("+", r"\+")):
        clean_text(given, "姓名", "the name", 30)


def test_text_is_nfc_normalised_and_limited() -> None:
    assert clean_text("Jose\u0301", "单位", "the unit", 10) == "José"
    assert clean_text(" a\u3000\tb ", "单位", "the unit", 10) == "a b"
    assert (
        clean_text("第一行  \n第二行\t说明", "备注", "the notes", 50, multiline=True)
        == "第一行\n第二行\t说明"
    )
    with pytest.raises(UserError, match=r"过长.*32767"):
        clean_text("长" * 32_767, "备注", "the notes", 500, multiline=True)
    with pytest.raises(UserError, match="为空"):
        clean_text("   ", "理由", "the reason", 500, required=True)


@pytest.mark.parametrize(
    "cell", ['=HYPERLINK("http://x","y")', "+cmd", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "＝1"]
)
def test_formula_leading_cells_are_neutralised(cell: str) -> None:
    assert spreadsheet_safe(cell) == "'" + cell
    assert spreadsheet_safe("王五") == "王五" and spreadsheet_safe("") == ""


@pytest.mark.parametrize(
    ("given", "hidden"),
    [
        ("电话 139-0000-0526 已通知", "13900000526"),
        ("电话 +86 139 0000 0526", "13900000526"),
        ("电话 (+86)139.0000.0526", "13900000526"),
        ("电话 0086-13900000526", "13900000526"),
        ("电话 139 - 0000 - 0526", "13900000526"),
        ("护照 E12345678", "12345678"),
        ("护照 PE1234567", "1234567"),
        ("回乡证 H12345678", "12345678"),
        ("港澳通行证 M1234567890", "1234567890"),
        ("台胞证 87654321", "87654321"),
        ("台胞证 12345678A1", "12345678"),
        ("身份证 110105194912310021", "19491231"),
        ("身份证 110105 19491231 002x", "19491231"),
        ("旧身份证 110105491231002", "491231"),
    ],
)
def test_every_id_document_and_phone_spelling_is_masked(given: str, hidden: str) -> None:
    masked = mask_personal(given)
    assert hidden not in masked.replace(" ", "").replace("-", "").replace(".", "")
    assert looks_personal(given)


def test_the_events_own_numbers_are_masked_however_written() -> None:
    assert "AB12" not in mask_personal("证件 ab-12 34 56", known=["AB123456"])


def test_paths_are_cut_to_the_file_name_and_ordinary_text_is_left_alone() -> None:
    assert mask_personal(r"从 C:\Users\张三\Desktop\天水.xqt 恢复") == "从 天水.xqt 恢复"
    assert mask_personal(r"\\server\share\赛事\天水.xqt") == "天水.xqt"
    assert mask_personal("/home/zhangsan/赛事/天水.xqt") == "天水.xqt"
    for plain in (
        "公开组 第3轮 第12台",
        "2024-07-26 09:00:00 更正",
        "QF1 第2局",
        "种子 123456",
        "赛事-20240726-093000-manual.xqt",
    ):
        assert mask_personal(plain) == plain


def test_an_amount_followed_by_yuan_in_the_template_says_yuan_once() -> None:
    from app.engine.paperwork import fill_template

    values = {"金额": "2,000 元", "姓名": "王五"}
    assert fill_template("奖金{金额}元", values) == "奖金2,000 元"
    assert fill_template("奖金 {金额} 元整", values) == "奖金 2,000 元整"
    assert fill_template("奖金{金额}", values) == "奖金2,000 元"
    assert fill_template("{姓名}元旦快乐", values) == "王五元旦快乐"  # only after the amount


def _masked_one_by_one(text: str, known: list[str]) -> str:
    """The event's numbers masked pattern by pattern, every pattern run on every text (the reference)."""
    out = text
    for number in known:
        pattern = privacy._known_pattern(number)
        if pattern is not None:
            out = privacy._sub(pattern, out, privacy._mask_found)
    return out


_NUMBERS = [
    "620502199001011235",
    "62050219900101123X",
    "13900000526",
    "H12345678",
    "E1234567",
    "1234567890A1",
]


@settings(max_examples=400, deadline=None)
@given(
    parts=st.lists(
        st.one_of(
            st.sampled_from(_NUMBERS),
            st.text(alphabet="0123456789 -.()（）·xXhHeE号，改为", max_size=12),
        ),
        max_size=6,
    ),
    seps=st.lists(
        st.sampled_from(["", " ", "-", "  ", ".", "（", "—", "/", "、", "，", "_"]), min_size=20, max_size=20
    ),
    lower=st.booleans(),
    lead=st.sampled_from(["", "备注："]),
)
def test_compiled_numbers_mask_exactly_as_each_number_alone(
    parts: list[str], seps: list[str], lower: bool, lead: str
) -> None:
    # the event's numbers spelled with separators between their characters, in either case, among
    # digits and separators: skipping a number whose digits are not in the text changes nothing
    spelled = []
    for part in parts:
        if part in _NUMBERS:
            part = "".join(ch + seps[k % len(seps)] for k, ch in enumerate(part)).strip()
            part = part.lower() if lower else part
        spelled.append(part)
    text_ = lead + "；".join(spelled)  # (no path in it: the paths are cut first either way)
    expected = mask_personal(_masked_one_by_one(text_, _NUMBERS))  # then the dates and the shapes
    assert mask_personal(text_, KnownNumbers(_NUMBERS)) == expected
    assert mask_personal(text_, _NUMBERS) == expected
