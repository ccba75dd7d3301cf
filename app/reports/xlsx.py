"""A small .xlsx writer for the result workbook: sheets of values under a bold, shaded header row.

It writes the same parts, byte for byte, as openpyxl's write-only mode wrote for this workbook before
(every sheet's XML, the styles, the workbook, its relations and content types, the theme; only
``docProps/core.xml`` holds the time it was made), without a cell object per value: a workbook of
5,000 players has ~600,000 values. Each sheet is streamed into the zip file as it is made
(``tests/reports/test_excel.py`` compares the parts with openpyxl's, on demo events and odd values).

Every sheet has the same layout: frozen below the header row, the header row printed on every page,
A4 landscape fitted to the width, the given column widths, a centred page header and ``第 &P 页 / 共
&N 页`` at the right of the footer. Values: ``None`` (no cell), text (inline; cut to the 32,767
characters a cell holds; the control characters a workbook cannot hold are left out; ``#N/A`` and
the other error codes are written as errors, as openpyxl did), numbers and booleans. No formulas:
a text is always a text.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from itertools import chain
from typing import BinaryIO

from app import __version__

Value = str | int | float | None

#: what openpyxl refuses in a cell (``openpyxl.cell.cell.ILLEGAL_CHARACTERS_RE``)
_ILLEGAL = re.compile(r"[\000-\010]|[\013-\014]|[\016-\037]")
_ERROR_CODES = frozenset(("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A"))
_MAX_TEXT = 32767
_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTRIBUTE_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"}
)
#: a header or footer's text: characters below 26 written as _xHHHH_ (``openpyxl.utils.escape``)
_HEADER_CONTROLS = re.compile(r"[\001-\031]")
#: what a header's text cannot hold at all (openpyxl wrote them, and the workbook could not be read)
_HEADER_UNHELD = re.compile(r"[\x00\x1a-\x1f\ud800-\udfff\ufffe\uffff]")
_HEADER_FIELDS = {
    "&[Tab]": "&A",
    "&[Pages]": "&N",
    "&[Date]": "&D",
    "&[Path]": "&Z",
    "&[Page]": "&P",
    "&[Time]": "&T",
    "&[File]": "&F",
    "&[Picture]": "&G",
}
_HEADER_FIELD = re.compile("|".join(f"({re.escape(k)})" for k in _HEADER_FIELDS))
_FOOTER = "第 &P 页 / 共 &N 页"
_HEADER_STYLE = ' s="1"'  # the header row's cell style (bold, shaded, centred)

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"


@dataclass(frozen=True, slots=True)
class Sheet:
    """One sheet: its title (made a name Excel accepts as it is written: :func:`sheet_name`), the
    header row, the rows, the width of each column (Excel's character units) and the page header's
    text."""

    title: str
    header: Sequence[str]
    rows: Sequence[Sequence[Value]]
    widths: Sequence[float]
    caption: str


def column_letter(n: int) -> str:
    """``1`` → ``A``, ``27`` → ``AA``."""
    out = ""
    while n > 0:
        n, rest = divmod(n - 1, 26)
        out = chr(65 + rest) + out
    return out


def _number(v: int | float | Decimal) -> str:
    if v != v or v in (float("inf"), float("-inf")):  # openpyxl writes an empty value
        return ""
    return "%.16g" % v  # noqa: UP031 — openpyxl's own formatting of numbers


def _text_cell(text: str, style: str) -> str:
    """The end of a text cell's element (after ``<c r="A1"``)."""
    text = _ILLEGAL.sub("", text[:_MAX_TEXT])
    if text in _ERROR_CODES:
        return f'{style} t="e"><v>{text}</v></c>'
    if text == "":
        return f'{style} t="inlineStr" />'
    stripped = text.strip()
    space = ' xml:space="preserve"' if stripped and text != stripped else ""
    return f'{style} t="inlineStr"><is><t{space}>{text.translate(_TEXT_ESCAPES)}</t></is></c>'


def _other_cell(v: object) -> str:
    """The end of a number's or a truth value's element."""
    if type(v) is bool:
        return f' t="b"><v>{int(v)}</v></c>'
    if isinstance(v, int | float | Decimal):
        text = _number(v)
        return f' t="n"><v>{text}</v></c>' if text else ' t="n"><v /></c>'
    raise TypeError(f"a workbook cell cannot hold {type(v).__name__}: {v!r}")


class _SheetWriter:
    """The XML of sheets, with the cells' texts made once per distinct value."""

    def __init__(self) -> None:
        self.letters: list[str] = []
        self.texts: dict[str, str] = {}
        self.ints: dict[int, str] = {}

    def _letters(self, n: int) -> list[str]:
        while len(self.letters) < n:
            self.letters.append(column_letter(len(self.letters) + 1))
        return self.letters

    def head(self, sheet: Sheet) -> str:
        cols = "".join(
            f'<col width="{_number(float(w))}" customWidth="1" min="{i}" max="{i}" />'
            for i, w in enumerate(sheet.widths, start=1)
        )
        letters = self._letters(len(sheet.header))
        header = "".join(
            f'<c r="{letters[i]}1"{_text_cell(label, _HEADER_STYLE)}' for i, label in enumerate(sheet.header)
        )
        return (
            f'<worksheet xmlns="{_MAIN}"><sheetPr><outlinePr summaryBelow="1" summaryRight="1" />'
            '<pageSetUpPr fitToPage="1" /></sheetPr><sheetViews><sheetView workbookViewId="0">'
            '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen" />'
            '<selection pane="bottomLeft" activeCell="A1" sqref="A1" /></sheetView></sheetViews>'
            '<sheetFormatPr baseColWidth="8" defaultRowHeight="15" />'
            + (f"<cols>{cols}</cols>" if cols else "")
            + f'<sheetData><row r="1">{header}</row>'
        )

    def rows(self, rows: Sequence[Sequence[Value]], chunk: int = 2000) -> Iterable[str]:
        """The rows' XML (row 2 on), a few thousand rows at a time."""
        letters = self._letters(max((len(r) for r in rows), default=0))
        distinct = set(chain.from_iterable(rows))
        distinct.discard(None)
        if any(type(v) is not str and type(v) is not int for v in distinct):
            yield from self._typed_rows(rows, letters, chunk)  # floats, truth values: by type
            return
        # texts and whole numbers only: a value's cell is looked up by the value alone
        texts, ints = self.texts, self.ints
        body: dict[Value, str] = {}
        for v in distinct:
            if type(v) is str:
                b = texts.get(v)
                if b is None:
                    b = texts[v] = _text_cell(v, "")
            else:
                b = ints.get(v)  # type: ignore[arg-type]
                if b is None:
                    b = ints[v] = _other_cell(v)  # type: ignore[index]
            body[v] = b
        get = body.get
        out: list[str] = []
        for index, row in enumerate(rows, start=2):
            r = str(index)
            cells = "".join(
                [f'<c r="{c}{r}"{b}' for c, b in zip(letters, map(get, row), strict=False) if b is not None]
            )
            out.append(f'<row r="{r}">{cells}</row>')
            if len(out) == chunk:
                yield "".join(out)
                out.clear()
        yield "".join(out)

    def _typed_rows(self, rows: Sequence[Sequence[Value]], letters: list[str], chunk: int) -> Iterable[str]:
        texts = self.texts
        out: list[str] = []
        for index, row in enumerate(rows, start=2):
            r = str(index)
            cells = []
            for letter, v in zip(letters, row, strict=False):
                if v is None:
                    continue
                if type(v) is str:
                    body = texts.get(v)
                    if body is None:
                        body = texts[v] = _text_cell(v, "")
                else:
                    body = _other_cell(v)
                cells.append(f'<c r="{letter}{r}"{body}')
            out.append(f'<row r="{r}">{"".join(cells)}</row>')
            if len(out) == chunk:
                yield "".join(out)
                out.clear()
        yield "".join(out)

    @staticmethod
    def tail(sheet: Sheet) -> str:
        header = _header_footer_text("C", sheet.caption)
        footer = _header_footer_text("R", _FOOTER)
        return (
            '</sheetData><pageMargins left="0.75" right="0.75" top="1" bottom="1" header="0.5" '
            'footer="0.5" /><pageSetup orientation="landscape" paperSize="9" fitToHeight="0" '
            f'fitToWidth="1" /><headerFooter><oddHeader>{header}</oddHeader><oddFooter>{footer}'
            "</oddFooter><evenHeader /><evenFooter /><firstHeader /><firstFooter /></headerFooter>"
            "</worksheet>"
        )


def _header_footer_text(position: str, text: str) -> str:
    """A header's or footer's part as openpyxl writes it (``HeaderFooterItem``): ``&C`` + text."""
    packed = _HEADER_FIELD.sub(lambda m: _HEADER_FIELDS[m.group(0)], f"&{position}{text}")
    packed = _HEADER_UNHELD.sub("", packed)
    packed = _HEADER_CONTROLS.sub(lambda m: f"_x{ord(m.group(0)):0>4x}_", packed)
    return packed.translate(_TEXT_ESCAPES)


#: what a sheet's name may not hold: the characters Excel forbids in one, and those the workbook's
#: XML cannot hold (control characters, lone surrogates, U+FFFE/U+FFFF)
_REFUSED_IN_NAME = re.compile(r"[\[\]:*?/\\\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
#: the longest sheet name Excel accepts, in UTF-16 units (Excel's own measure)
SHEET_NAME_UNITS = 31
#: the name Excel keeps for itself (change tracking), in any case
_RESERVED_NAMES = frozenset(("history",))


def name_units(text: str) -> int:
    """A text's length as Excel measures a sheet's name: in UTF-16 units (a character beyond the
    Basic Multilingual Plane, such as an emoji, counts twice)."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def fit_name(text: str, units: int) -> str:
    """``text`` without the characters a sheet's name may not hold, cut to at most ``units`` UTF-16
    units (never inside a character)."""
    text = _REFUSED_IN_NAME.sub("", text)
    if name_units(text) <= units:
        return text
    out = []
    for ch in text:
        units -= 2 if ord(ch) > 0xFFFF else 1
        if units < 0:
            break
        out.append(ch)
    return "".join(out)


def _forms(name: str) -> tuple[str, str, str]:
    """The forms under which Excel may find two names the same (it ignores case)."""
    return name.lower(), name.upper(), name.casefold()


def sheet_name(taken: Sequence[str], title: str) -> str:
    """A name Excel accepts for a sheet titled ``title`` beside the sheets named ``taken``.

    Without the characters Excel forbids (``[]:*?/\\``) and control characters, at most 31 UTF-16
    units, not starting or ending with an apostrophe, not empty (``Sheet``), not ``History``, and
    unlike every name taken, ignoring case. A name already taken is numbered as openpyxl numbered
    one (名次表1, 名次表2, …), cut short enough for its number to fit.
    """
    name = fit_name(title, SHEET_NAME_UNITS).strip("'") or "Sheet"
    seen = {form for t in taken for form in _forms(t)} | _RESERVED_NAMES
    if not seen.intersection(_forms(name)):
        return name
    pattern = re.compile(f"(?P<title>{re.escape(name)})(?P<count>\\d*),?", re.I)
    counts = [int(n) for _, n in pattern.findall(",".join(taken)) if n.isdigit()]
    n = max(counts, default=0) + 1
    while True:
        numbered = fit_name(name, SHEET_NAME_UNITS - len(str(n))).lstrip("'") + str(n)
        if not seen.intersection(_forms(numbered)):
            return numbered
        n += 1


def _workbook_xml(titles: Sequence[str]) -> str:
    sheets = "".join(
        f'<sheet name="{t.translate(_ATTRIBUTE_ESCAPES)}" sheetId="{i}" state="visible" r:id="rId{i}" />'
        for i, t in enumerate(titles, start=1)
    )
    names = "".join(
        f'<definedName name="_xlnm.Print_Titles" localSheetId="{i}">'
        f"{_quoted(t).translate(_TEXT_ESCAPES)}!$1:$1</definedName>"
        for i, t in enumerate(titles)
    )
    return (
        f'<workbook xmlns:r="{_REL}" xmlns="{_MAIN}"><workbookPr /><workbookProtection /><bookViews>'
        '<workbookView visibility="visible" minimized="0" showHorizontalScroll="1" '
        'showVerticalScroll="1" showSheetTabs="1" tabRatio="600" firstSheet="0" activeTab="0" '
        f'autoFilterDateGrouping="1" /></bookViews><sheets>{sheets}</sheets>'
        + f"<definedNames>{names}</definedNames>"
        + '<calcPr calcId="124519" fullCalcOnLoad="1" /></workbook>'
    )


def _quoted(title: str) -> str:
    return "'" + title.replace("'", "''") + "'"


def _workbook_rels(count: int) -> str:
    sheets = "".join(
        f'<Relationship Type="{_REL}/worksheet" Target="/xl/worksheets/sheet{i}.xml" Id="rId{i}" />'
        for i in range(1, count + 1)
    )
    return (
        f'<Relationships xmlns="{_PKG_REL}">{sheets}'
        f'<Relationship Type="{_REL}/styles" Target="styles.xml" Id="rId{count + 1}" />'
        f'<Relationship Type="{_REL}/theme" Target="theme/theme1.xml" Id="rId{count + 2}" />'
        "</Relationships>"
    )


_ROOT_RELS = (
    f'<Relationships xmlns="{_PKG_REL}">'
    f'<Relationship Type="{_REL}/officeDocument" Target="xl/workbook.xml" Id="rId1" />'
    f'<Relationship Type="{_PKG_REL}/metadata/core-properties" Target="docProps/core.xml" Id="rId2" />'
    f'<Relationship Type="{_REL}/extended-properties" Target="docProps/app.xml" Id="rId3" />'
    "</Relationships>"
)

#: the program, as the file names its author (Windows' 作者) and, with its version, the application
#: that wrote it
PROGRAM = "Xiangqi Arbiter (象棋赛事编排系统)"
APPLICATION = f"{PROGRAM} {__version__}"
#: the application that wrote the file, its version in its name. No ``AppVersion``: Office takes it
#: for an Office version (``\d+.\d{4}``, e.g. ``16.0300``) and reports a file where it has another
#: form (``0.16.0``) as damaged; the element may be left out.
_APP = (
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
    f"<Application>{APPLICATION.translate(_TEXT_ESCAPES)}</Application></Properties>"
)


def _core(at: str) -> str:
    return (
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"'
        ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"'
        ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>'
        f"{PROGRAM.translate(_TEXT_ESCAPES)}</dc:creator>"
        f'<dcterms:created xsi:type="dcterms:W3CDTF">{at}</dcterms:created>'
        f'<dcterms:modified xsi:type="dcterms:W3CDTF">{at}</dcterms:modified></cp:coreProperties>'
    )


_INDEXED_COLOURS = [
    "00000000",
    "00FFFFFF",
    "00FF0000",
    "0000FF00",
    "000000FF",
    "00FFFF00",
    "00FF00FF",
    "0000FFFF",
    "00000000",
    "00FFFFFF",
    "00FF0000",
    "0000FF00",
    "000000FF",
    "00FFFF00",
    "00FF00FF",
    "0000FFFF",
    "00800000",
    "00008000",
    "00000080",
    "00808000",
    "00800080",
    "00008080",
    "00C0C0C0",
    "00808080",
    "009999FF",
    "00993366",
    "00FFFFCC",
    "00CCFFFF",
    "00660066",
    "00FF8080",
    "000066CC",
    "00CCCCFF",
    "00000080",
    "00FF00FF",
    "00FFFF00",
    "0000FFFF",
    "00800080",
    "00800000",
    "00008080",
    "000000FF",
    "0000CCFF",
    "00CCFFFF",
    "00CCFFCC",
    "00FFFF99",
    "0099CCFF",
    "00FF99CC",
    "00CC99FF",
    "00FFCC99",
    "003366FF",
    "0033CCCC",
    "0099CC00",
    "00FFCC00",
    "00FF9900",
    "00FF6600",
    "00666699",
    "00969696",
    "00003366",
    "00339966",
    "00003300",
    "00333300",
    "00993300",
    "00993366",
    "00333399",
    "00333333",
]

#: style 0: plain; style 1: the header row (bold, shaded E8E8E8, centred, wrapped)
_STYLES = (
    f'<styleSheet xmlns="{_MAIN}"><numFmts count="0" /><fonts count="2"><font><name val="Calibri" />'
    '<family val="2" /><color theme="1" /><sz val="11" /><scheme val="minor" /></font><font>'
    '<b val="1" /></font></fonts><fills count="3"><fill><patternFill /></fill><fill>'
    '<patternFill patternType="gray125" /></fill><fill><patternFill patternType="solid">'
    '<fgColor rgb="00E8E8E8" /></patternFill></fill></fills><borders count="1"><border><left />'
    '<right /><top /><bottom /><diagonal /></border></borders><cellStyleXfs count="1">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" /></cellStyleXfs><cellXfs count="2">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" pivotButton="0" quotePrefix="0" xfId="0" />'
    '<xf numFmtId="0" fontId="1" fillId="2" borderId="0" applyAlignment="1" pivotButton="0" '
    'quotePrefix="0" xfId="0"><alignment horizontal="center" vertical="center" wrapText="1" /></xf>'
    '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0" hidden="0" />'
    '</cellStyles><tableStyles count="0" defaultTableStyle="TableStyleMedium9" '
    'defaultPivotStyle="PivotStyleLight16" /><colors><indexedColors>'
    + "".join(f'<rgbColor rgb="{c}" />' for c in _INDEXED_COLOURS)
    + "</indexedColors></colors></styleSheet>"
)


def _content_types(count: int) -> str:
    kinds = "application/vnd.openxmlformats-officedocument"
    sheets = "".join(
        f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="{_SHEET_TYPE}" />'
        for i in range(1, count + 1)
    )
    return (
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml" />'
        '<Default Extension="xml" ContentType="application/xml" />'
        f'<Override PartName="/xl/styles.xml" ContentType="{kinds}.spreadsheetml.styles+xml" />'
        f'<Override PartName="/xl/theme/theme1.xml" ContentType="{kinds}.theme+xml" />'
        '<Override PartName="/docProps/core.xml" '
        'ContentType="application/vnd.openxmlformats-package.core-properties+xml" />'
        f'<Override PartName="/docProps/app.xml" ContentType="{kinds}.extended-properties+xml" />'
        f"{sheets}"
        f'<Override PartName="/xl/workbook.xml" ContentType="{kinds}.spreadsheetml.sheet.main+xml" />'
        "</Types>"
    )


def _entry(name: str, compresslevel: int | None) -> zipfile.ZipInfo:
    """A part streamed into the zip file, dated now and readable by its owner (as ``writestr``)."""
    import time

    info = zipfile.ZipInfo(name, date_time=time.localtime(time.time())[:6])
    info.compress_type = zipfile.ZIP_DEFLATED
    info._compresslevel = compresslevel  # type: ignore[attr-defined]
    info.external_attr = 0o600 << 16
    return info


def write_xlsx(out: BinaryIO, sheets: Iterable[Sheet], compresslevel: int | None = None) -> None:
    """Write the workbook to ``out`` (a binary stream), each sheet as it comes.

    ``compresslevel``: zlib's (1 fastest … 9 smallest; ``None``: zlib's default, as openpyxl).
    A workbook must have a sheet: ``ValueError`` if ``sheets`` is empty.
    """
    from app.reports.xlsx_theme import THEME_XML

    at = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    titles: list[str] = []
    writer = _SheetWriter()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, allowZip64=True, compresslevel=compresslevel) as z:
        z.writestr("docProps/app.xml", _APP)
        z.writestr("docProps/core.xml", _core(at))
        z.writestr("xl/theme/theme1.xml", THEME_XML)
        for sheet in sheets:
            titles.append(sheet_name(titles, sheet.title))
            with z.open(_entry(f"xl/worksheets/sheet{len(titles)}.xml", z.compresslevel), "w") as f:
                f.write(writer.head(sheet).encode())
                for chunk in writer.rows(sheet.rows):
                    f.write(chunk.encode())
                f.write(writer.tail(sheet).encode())
        if not titles:
            raise ValueError("a workbook needs at least one sheet")
        z.writestr("xl/styles.xml", _STYLES)
        z.writestr("_rels/.rels", _ROOT_RELS)
        z.writestr("xl/workbook.xml", _workbook_xml(titles))
        z.writestr("xl/_rels/workbook.xml.rels", _workbook_rels(len(titles)))
        z.writestr("[Content_Types].xml", _content_types(len(titles)))
