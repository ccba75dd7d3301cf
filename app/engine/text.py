"""Text the arbiter (or a file) gives the program: normalised, checked, and of a size every output holds.

Names, units, team names, notes and reasons appear on public lists, table cards, TRF files and the
audit log. Each is normalised to NFC (so that the same name typed two ways is one name) and refused
when it holds a character that has no business in a name and can spoof one: control characters,
bidirectional overrides (U+202E …), zero-width and other invisible format characters, line and
paragraph separators. The limits are what the registration form, the printed lists and the FIDE TRF
can hold (a TRF team name has 32 characters, a player name 33).

>>> clean_text("  张\u3000三  ", "姓名", "the name", 30)
'张 三'
>>> text_problem("Bob\u202eevil")
'U+202E'
>>> clean_text("e\u0301", "单位", "the unit", 5)  # decomposed é becomes one character
'é'
"""

from __future__ import annotations

import unicodedata

from app.engine.types import UserError

NAME_MAX = 30  # the registration form and the printed lists; TRF holds 33
TRF_NAME_MAX = 33  # columns 15-47 of a TRF 001 line
TEAM_MAX = 32  # columns 5-36 of a TRF 013 line
UNIT_MAX = 50
REGION_MAX = 50  # 地区: region avoidance in pairing and local prizes
NOTES_MAX = 500
REASON_MAX = 500
EVENT_NAME_MAX = 100
GROUP_NAME_MAX = 20
LEADER_MAX = NAME_MAX

# Unicode categories refused everywhere: controls, format characters (bidi overrides and isolates,
# zero-width space/joiners, BOM, soft hyphen …), surrogates, line and paragraph separators.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})  # Co: private use (no glyph anywhere)
_WHITESPACE_CONTROLS = frozenset("\n\t\r")  # white space: collapsed in one-line text, kept in notes
# letters and symbols that print as nothing (Hangul fillers, the braille blank, the combining grapheme
# joiner, Mongolian vowel separator …): a name of them alone looks empty, inside one they spoof it
_BLANK_LOOKALIKES = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u180e\u17b4\u17b5")


def text_problem(text: str, *, multiline: bool = False) -> str | None:
    """The first refused character as ``U+XXXX``, or None when the text is clean.

    >>> text_problem("王\u200b五"), text_problem("line\\nbreak", multiline=True), text_problem("\\x07")
    ('U+200B', None, 'U+0007')
    >>> text_problem("\u3164"), text_problem("\ue000"), text_problem("张\u2800三")
    ('U+3164', 'U+E000', 'U+2800')
    """
    for ch in text:
        if ch in _WHITESPACE_CONTROLS:
            continue
        if unicodedata.category(ch) in _REFUSED_CATEGORIES or ch in _BLANK_LOOKALIKES:
            return f"U+{ord(ch):04X}"
    return None


def _describe(code: str) -> str:
    name = unicodedata.name(chr(int(code[2:], 16)), "")
    return f"{code} {name}".strip()


def clean_text(
    text: str,
    what_zh: str,
    what_en: str,
    max_len: int,
    *,
    multiline: bool = False,
    required: bool = False,
) -> str:
    """NFC-normalised text with its white space tidied; :class:`UserError` naming what is wrong.

    Single-line text has every run of white space made one space; multi-line text keeps its line
    breaks and loses trailing spaces. ``required`` refuses an empty result.
    """
    if not isinstance(text, str):
        raise UserError(f"{what_zh}应为文字", f"{what_en} must be text")
    normal = unicodedata.normalize("NFC", text)
    bad = text_problem(normal, multiline=multiline)
    if bad is not None:
        raise UserError(
            f"{what_zh}含有不可见或控制字符（{_describe(bad)}），请重新输入",
            f"{what_en} contains an invisible or control character ({_describe(bad)}); type it again",
        )
    if multiline:
        cleaned = "\n".join(line.rstrip() for line in normal.strip().splitlines())  # \r\n, \r → \n
    else:
        cleaned = " ".join(normal.split())
    if required and not cleaned:
        raise UserError(f"{what_zh}为空", f"{what_en} is empty")
    if len(cleaned) > max_len:
        raise UserError(
            f"{what_zh}过长（{len(cleaned)} 个字符，最多 {max_len} 个）",
            f"{what_en} is too long ({len(cleaned)} characters, at most {max_len})",
        )
    return cleaned


def public_text(text: str, what_zh: str, what_en: str, max_len: int, *, required: bool = False) -> str:
    """:func:`clean_text` for a text printed on public lists and pages: a phone or ID number (in any
    spelling) or a path in it is refused, with the field named (docs/rules.md §11)."""
    from app.engine.privacy import looks_personal

    cleaned = clean_text(text, what_zh, what_en, max_len, required=required)
    if cleaned and looks_personal(cleaned):
        raise UserError(
            f"{what_zh}“{cleaned}”中像是含有手机号、证件号或文件路径（{what_zh}会印在公开名单上），请去掉",
            f"{what_en} {cleaned!r} seems to hold a phone or ID number or a path (it is printed publicly); "
            "take it out",
        )
    return cleaned


def count_en(n: int, noun: str) -> str:
    """``1 board``, ``2 boards``: an English count with the noun in the right number.

    >>> count_en(1, "board"), count_en(3, "page"), count_en(0, "player")
    ('1 board', '3 pages', '0 players')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


#: what makes a spreadsheet read a cell as a formula (or a DDE call): ``= + - @``, tab, carriage
#: return, and their full-width forms, which some spreadsheet programs accept too
FORMULA_LEADS = frozenset("=+-@\t\r＝＋－＠")


def spreadsheet_safe(value: str) -> str:
    """A text a spreadsheet will show as text, never run: a formula-leading cell gets a ``'`` in front.

    For CSV files, which Excel and WPS open by guessing each cell's type (OWASP "CSV injection").

    >>> spreadsheet_safe("=1+1"), spreadsheet_safe("-5"), spreadsheet_safe("王五")
    ("'=1+1", "'-5", '王五')
    """
    return "'" + value if value and value[0] in FORMULA_LEADS else value


__all__ = [
    "EVENT_NAME_MAX",
    "GROUP_NAME_MAX",
    "LEADER_MAX",
    "NAME_MAX",
    "NOTES_MAX",
    "REASON_MAX",
    "REGION_MAX",
    "TEAM_MAX",
    "TRF_NAME_MAX",
    "UNIT_MAX",
    "clean_text",
    "count_en",
    "public_text",
    "spreadsheet_safe",
    "text_problem",
]
