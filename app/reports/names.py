"""Names in notice-board order (拼音): the sort key the printed lists and the pages share."""

from __future__ import annotations


def pinyin_key(name: str) -> str:
    """Sort key for Chinese names by pinyin (notice-board order).

    >>> sorted(["张三", "李四", "王五"], key=pinyin_key)
    ['李四', '王五', '张三']
    """
    from pypinyin import lazy_pinyin  # its dictionaries load in ~0.1 s: only when a list is sorted by name

    return " ".join(lazy_pinyin(name))


def initial(name: str) -> str:
    """The capital letter a name is listed under (``#`` for a name that starts with no letter).

    >>> initial("王天一"), initial("Anna"), initial("1号")
    ('W', 'A', '#')
    """
    from pypinyin import Style, lazy_pinyin

    letters = lazy_pinyin(name[:1], style=Style.FIRST_LETTER)
    first = letters[0][:1].upper() if letters and letters[0] else ""
    return first if "A" <= first <= "Z" else "#"
