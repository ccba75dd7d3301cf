"""Names in notice-board order (拼音): the sort key the printed lists and the pages share."""

from __future__ import annotations

from functools import cache


@cache  # a name is looked up on every list it is on (each round's, the entries')
def pinyin_key(name: str) -> str:
    """Sort key for Chinese names by pinyin (notice-board order): ``pypinyin``'s reading of the name.

    A name of Chinese characters none of which, nor any run of them, is a word of ``pypinyin``'s phrase
    dictionary is read character by character — what ``pypinyin`` does for it too — from each
    character's reading, looked up once (``lazy_pinyin`` of a whole name costs ~0.15 ms: 5,000 names
    on a list took most of a second). Any other name is read whole by ``pypinyin``.

    >>> sorted(["张三", "李四", "王五"], key=pinyin_key)
    ['李四', '王五', '张三']
    """
    from pypinyin import lazy_pinyin  # its dictionaries load in ~0.1 s: only when a list is sorted by name

    if _by_character(name):
        return " ".join(map(_reading, name))
    return " ".join(lazy_pinyin(name))


def _by_character(name: str) -> bool:
    """Whether ``pypinyin`` reads ``name`` character by character: Chinese characters only, each with a
    reading, and no part of it (one character or more) in the phrase dictionary."""
    from pypinyin.constants import PHRASES_DICT, PINYIN_DICT, RE_HANS

    if not name or RE_HANS.match(name) is None or any(ord(c) not in PINYIN_DICT for c in name):
        return False
    n = len(name)
    return not any(name[i:j] in PHRASES_DICT for i in range(n) for j in range(i + 1, n + 1))


@cache
def _reading(char: str) -> str:
    """One character's reading (``pypinyin``'s first, without tones)."""
    from pypinyin import lazy_pinyin

    return "".join(lazy_pinyin(char))


def initial(name: str) -> str:
    """The capital letter a name is listed under (``#`` for a name that starts with no letter).

    >>> initial("王天一"), initial("Anna"), initial("1号")
    ('W', 'A', '#')
    """
    return _initial(name[:1])


@cache  # by the first character: a few hundred surnames for thousands of names
def _initial(first: str) -> str:
    from pypinyin import Style, lazy_pinyin

    letters = lazy_pinyin(first, style=Style.FIRST_LETTER)
    letter = letters[0][:1].upper() if letters and letters[0] else ""
    return letter if "A" <= letter <= "Z" else "#"
