"""Keeping personal numbers and the arbiter's folders out of public documents (docs/rules.md §11).

Free text that reaches a public document — the audit log's "what and why" in the result workbook,
a unit — may quote an ID or phone number in any spelling the registration accepts, or a file's full
path (a user name on Windows). :func:`mask_personal` masks:

- the event's own numbers (``known``: every registered ID and phone number), however they are spelled:
  upper or lower case, full-width or half-width, with up to three separators of any kind between
  the characters (spaces, dashes, dots, brackets, ``/``, ``_``, ``:``, ``，``, ``、``, ``；`` …);
- 18-character resident ID numbers and 15-digit legacy ones, with or without such separators;
- mainland mobile numbers, with ``+86`` / ``0086`` / ``86`` in front and any such separators
  (``139-0000-0526``, ``+86 139 0000 0526``, ``(+86)139.0000.0526``, ``139/0000/0526``,
  ``139，0000，0526``, ``１３９００００５２６``);
- passport (``E12345678``, ``PE1234567``), 港澳 (``H12345678``, ``M1234567890``) and 台胞
  (``12345678``, ``1234567890``, ``12345678A1``) numbers, and any other run of eight or more digits;
- absolute paths (``C:\\Users\\张三\\赛事.xqt``, ``\\\\server\\share\\…``, ``/home/zhang/赛事.xqt``): the file's
  name is kept, the folders are not.

>>> mask_personal("更正：联系 +86 139-0000-0526，证件 h1234 5678")
'更正：联系 139****0526，证件 H1*****78'
>>> mask_personal("身份证 62050219900101123 5 已核对")
'身份证 620502********1235 已核对'
>>> mask_personal("电话 139、0000、0526；证件 620502/19900101/1235")
'电话 139****0526；证件 620502********1235'
>>> mask_personal(r"从 C:\\Users\\张三\\Desktop\\赛事.xqt 恢复")
'从 赛事.xqt 恢复'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

from app.engine.types import mask_id_number

# A separator between the characters of a number: anything that is neither a letter nor a digit
# (any script's punctuation, symbols and spaces: ``/ ， 、 _ : ; | ~ ・`` …), at most three in a row.
# The text is first folded to ASCII digits and letters (full-width ``１８７``, ``Ｘ``, other scripts'
# digits), position for position, so that a match is a span of the text as written.
_SEP_CHAR = r"(?:(?![\ue000-\uf8ff])[\W_])"  # private-use characters: the date placeholders below
_SEP = _SEP_CHAR + "{0,3}"
# the separators the registration itself accepts, for the looser shapes (a passport, any long run)
_NARROW = r"[\s\-–—.·()（）]{0,3}"
_NOT_BEFORE = r"(?<![0-9A-Za-z])"
_NOT_AFTER = r"(?![0-9A-Za-z])"

_RESIDENT = re.compile(_NOT_BEFORE + r"\d(?:" + _SEP + r"\d){16}" + _SEP + r"[\dXx]" + _NOT_AFTER)
_LEGACY = re.compile(_NOT_BEFORE + r"\d(?:" + _SEP + r"\d){14}" + _NOT_AFTER)
_PHONE = re.compile(
    r"(?:(?:[(（]\s*)?(?:\+\s*|00)?86"
    + _SEP
    + r")?"
    + _NOT_BEFORE
    + r"1"
    + _SEP
    + r"[3-9](?:"
    + _SEP
    + r"\d){9}"
    + _NOT_AFTER
)
_PERMIT = re.compile(
    _NOT_BEFORE
    + r"[HMhm]"
    + _NARROW
    + r"\d(?:"
    + _NARROW
    + r"\d){7}(?:(?:"
    + _NARROW
    + r"\d){2})?"
    + _NOT_AFTER
)
_PASSPORT = re.compile(
    _NOT_BEFORE + r"[A-Za-z]{1,2}" + _NARROW + r"\d(?:" + _NARROW + r"\d){5,8}" + _NOT_AFTER
)
_TAIWAN_LETTER = re.compile(_NOT_BEFORE + r"\d{8}[A-Za-z]\d?" + _NOT_AFTER)
_LONG_DIGITS = re.compile(_NOT_BEFORE + r"\d(?:" + _NARROW + r"\d){7,}" + _NOT_AFTER)
_DATE = re.compile(
    r"(?<![\d\-./])(?:19|20)\d{2}[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])"
    r"(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?(?![\d\-./])"
    r"|(?<!\d)(?:19|20)\d{6}-\d{6}(?!\d)"  # a backup's time stamp 20240726-093000
)

_WINDOWS_PATH = re.compile(r"(?:[A-Za-z]:|\\\\[^\\/\s]+)[\\/][^\s\"'<>|；;，,、]*")
_POSIX_PATH = re.compile(r"(?<![\w.~])(?:~|/)(?:[^\s/\"'<>|；;，,、]+/)+[^\s/\"'<>|；;，,、]*")
_PLACEHOLDER = re.compile("\ue000([\ue100-\uf8ff])")


def _fold_char(ch: str) -> str:
    if ch.isascii():
        return ch
    code = ord(ch)
    if 0xFF01 <= code <= 0xFF5E:  # full-width ASCII forms
        return chr(code - 0xFEE0)
    if ch == "\u3000":
        return " "
    if ch.isdecimal():
        return str(unicodedata.decimal(ch))
    return ch


class _FoldTable(dict[int, str]):
    """``str.translate``'s table for :func:`_fold_char`, filled as characters are first met."""

    def __missing__(self, code: int) -> str:
        folded = self[code] = _fold_char(chr(code))
        return folded


_FOLDS = _FoldTable()


def _fold(text: str) -> str:
    """``text`` with full-width forms and every script's digits as ASCII, one character for one."""
    if text.isascii():
        return text
    return text.translate(_FOLDS)


_NOT_ALNUM = re.compile(r"[\W_]")


def _squash(text: str) -> str:
    return _NOT_ALNUM.sub("", _fold(text)).upper()


def _masked(found: str) -> str:
    raw = _squash(found)
    if raw.startswith("0086"):
        raw = raw[4:]
    elif raw.startswith("86") and len(raw) == 13:
        raw = raw[2:]
    if len(raw) == 11 and raw.isdigit() and raw[0] == "1":
        return raw[:3] + "****" + raw[-4:]
    if len(raw) in (15, 18) and raw[:-1].isdigit():
        return mask_id_number(raw)  # 620502********1234, as on every public document
    return raw[:2] + "*" * max(len(raw) - 4, 4) + raw[-2:]


def _sub(pattern: re.Pattern[str], text: str, replace: Callable[[str, str], str]) -> str:
    """Each match of ``pattern`` in the folded text replaced, in the text as written, by
    ``replace(as_written, folded)``."""
    folded = _fold(text)
    out: list[str] = []
    at = 0
    for m in pattern.finditer(folded):
        out.append(text[at : m.start()])
        out.append(replace(text[m.start() : m.end()], m.group(0)))
        at = m.end()
    if not out:
        return text
    out.append(text[at:])
    return "".join(out)


def _mask_found(as_written: str, folded: str) -> str:
    return _masked(folded)


def _known_pattern(number: str) -> re.Pattern[str] | None:
    squashed = _squash(number)
    if len(squashed) < 5:
        return None
    body = _SEP.join(re.escape(ch) for ch in squashed)
    return re.compile(_NOT_BEFORE + body + _NOT_AFTER, re.IGNORECASE)


class KnownNumbers:
    """The event's own numbers, made ready once for masking many texts (an audit log).

    For each number it keeps its longest run of digits: any spelling the number's pattern finds has
    those digits one after the other once the separators are taken out (a digit has no other case,
    and every separator the patterns allow between the characters is one :func:`_squash` removes), so a text
    without that run is not searched for it. The numbers are indexed by the run's first five digits,
    so a text is checked only against the numbers whose run could start in it, and a pattern is
    compiled only when first needed.
    """

    HEAD = 5
    _RUNS = re.compile(rf"\d{{{HEAD},}}")  # the runs of digits a number's first HEAD digits can be in

    def __init__(self, numbers: Iterable[str]) -> None:
        self.items: list[tuple[int, str, str]] = []  # (position, longest run of digits, number)
        self._by_head: dict[str, list[tuple[int, str, str]]] = {}
        self._short: list[tuple[int, str, str]] = []  # runs shorter than HEAD: always checked
        self._patterns: dict[str, re.Pattern[str] | None] = {}
        for position, number in enumerate(dict.fromkeys(numbers)):
            squashed = _squash(number)
            if len(squashed) < 5:
                continue
            run = max(re.findall(r"\d+", squashed), key=len, default="")
            item = (position, run, number)
            self.items.append(item)
            if len(run) >= self.HEAD:
                self._by_head.setdefault(run[: self.HEAD], []).append(item)
            else:
                self._short.append(item)

    def candidates(self, squashed: str) -> list[tuple[int, str, str]]:
        """The numbers whose run of digits is in ``squashed``, in their given order."""
        found = [item for item in self._short if item[1] in squashed]
        # a run's first digits stand inside a run of at least HEAD digits of the text
        heads = {
            run[k : k + self.HEAD]
            for run in self._RUNS.findall(squashed)
            for k in range(len(run) - self.HEAD + 1)
        }
        for head in heads:
            items = self._by_head.get(head)
            if items:
                found.extend(item for item in items if item[1] in squashed)
        return sorted(found)

    def pattern(self, number: str) -> re.Pattern[str] | None:
        if number not in self._patterns:
            self._patterns[number] = _known_pattern(number)
        return self._patterns[number]


def _path_name(match: re.Match[str]) -> str:
    text = match.group(0).rstrip("\\/")
    return re.split(r"[\\/]", text)[-1] or "…"


def mask_personal(text: str, known: Iterable[str] | KnownNumbers = ()) -> str:
    """``text`` with every personal number masked and every absolute path cut to its file name.

    ``known``: the event's own numbers (for many texts, a :class:`KnownNumbers` made once)."""
    if not text:
        return text
    out = _WINDOWS_PATH.sub(_path_name, text)
    out = _POSIX_PATH.sub(_path_name, out)
    numbers = known if isinstance(known, KnownNumbers) else KnownNumbers(known)
    if numbers.items:
        squashed = _squash(out)  # masking only ever removes digits: this stays a superset
        for _, _, number in numbers.candidates(squashed):
            pattern = numbers.pattern(number)
            if pattern is not None:
                out = _sub(pattern, out, _mask_found)
    return _mask_shapes(out)


#: six digits one after the other, at most three separators between two of them: every shape below
#: has at least that (a passport: one or two letters and six digits; the others eight or more), and
#: a separator they allow is always one of these (folding keeps a character a digit, a separator or
#: neither, so the text as written is searched)
_SIX_DIGITS = re.compile(r"\d(?:[\W_]{0,3}\d){5}")


def _mask_shapes(out: str) -> str:
    """Every number shaped like an ID, permit, passport or phone number in ``out`` masked (a date is
    kept). A text without six digits close together (most of an audit log: ``公开组 第11轮 第2121台``)
    is returned as it is without being searched."""
    if _SIX_DIGITS.search(out) is None:
        return out
    dates: list[str] = []

    def keep_date(as_written: str, folded: str) -> str:
        if len(dates) >= 0xF800 - 0xE100:  # no placeholder left: the date is read like any text
            return as_written
        dates.append(as_written)
        return "\ue000" + chr(0xE100 + len(dates) - 1)

    # a phone number first: spelled 1900-1-10 0000 it begins like a date, and the date kept would
    # shield it. No date alone has a phone number's shape (eleven digits, 1[3-9] first, none after);
    # a date of 1930-1999 written with a time or digits that make it one (1990-01-1 12:00) is masked:
    # the safer mistake
    out = _sub(_PHONE, out, _mask_found)
    out = _sub(_DATE, out, keep_date)  # a date is not a number to hide
    for pattern in (_RESIDENT, _LEGACY, _PHONE, _PERMIT, _PASSPORT, _TAIWAN_LETTER, _LONG_DIGITS):
        out = _sub(pattern, out, _mask_found)
    if not dates:
        return out
    return _PLACEHOLDER.sub(lambda m: dates[ord(m.group(1)) - 0xE100], out)


def looks_personal(text: str) -> bool:
    """Whether a text holds something :func:`mask_personal` would hide (a number, a path)."""
    return mask_personal(text) != text


__all__ = ["KnownNumbers", "looks_personal", "mask_personal"]
