"""The 拼音 order of names: the quick reading of a name agrees with pypinyin's reading of it."""

from __future__ import annotations

from pypinyin import Style, lazy_pinyin

from app.reports.names import _by_character, initial, pinyin_key
from app.services.demo import SURNAMES, demo_field

# words of pypinyin's phrase dictionary inside a name (a surname of two characters, a heteronym read
# by its word), names not all Chinese, characters without a reading
ODD = [
    "欧阳修",
    "长孙无忌",
    "单于",
    "曾国藩",
    "重庆队",
    "王行长",
    "银行",
    "王 Anna",
    "Anna",
    "1号",
    "李㐀",
    "",
    "〇",
]


def test_the_quick_reading_is_pypinyins_for_every_name_of_a_large_field() -> None:
    names = [p.name for p in demo_field(seed=7, players=5000)] + ODD + [s + "行长" for s in SURNAMES[:20]]
    quick = 0
    for name in names:
        assert pinyin_key.__wrapped__(name) == " ".join(lazy_pinyin(name)), name
        quick += _by_character(name)
    assert quick > 0.8 * len(names)  # the quick reading is the one mostly taken
    # read by its word: 单于 is chán yú, not dān yú; 行长 háng zhǎng
    assert not _by_character("单于") and pinyin_key("单于") == "chan yu"
    assert not _by_character("王行长") and pinyin_key("王行长") == "wang hang zhang"
    assert not _by_character("王 Anna")


def test_initial_is_the_first_letter_of_the_first_character() -> None:
    for name in [p.name for p in demo_field(seed=3, players=400)] + ODD:
        letters = lazy_pinyin(name[:1], style=Style.FIRST_LETTER)
        first = letters[0][:1].upper() if letters and letters[0] else ""
        assert initial(name) == (first if "A" <= first <= "Z" else "#"), name
