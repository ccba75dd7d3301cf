"""Import of the registration form (报名表, 附件 2) from an Excel ``.xlsx`` file.

The header row (column names in Chinese, any order, possibly below a title row) is found, every row
is read and checked before anything is written, and every problem is reported with its row number,
column letter and header. :func:`preview_import` shows that without writing; :func:`import_players`
then writes either nothing unless all rows are good (``all_or_nothing``) or exactly the good rows
(``valid_only``), in one transaction.
"""

from __future__ import annotations

import dataclasses
import io
import re
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Literal

from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from sqlalchemy import select

from app.db.models import Group, Player
from app.db.session import Database
from app.engine.registration import BatchLine, PlayerEntry, check_batch
from app.engine.types import Gender, IdDocument, UserError
from app.reports.excel_template import FORM_COLUMNS, header_key
from app.services import audit
from app.services.registration import registration_context, write_entry

ImportMode = Literal["all_or_nothing", "valid_only"]
HEADER_SEARCH_ROWS = 20
#: the largest form read: far above any event (the capacity is 160 in the preset), far below what
#: would keep the tournament file locked for long
MAX_FORM_BYTES = 20 * 1024 * 1024  # the .xlsx file itself
MAX_UNPACKED_BYTES = 60 * 1024 * 1024  # all its parts unpacked (a zip bomb is refused before it opens)
MAX_SHARED_STRINGS_BYTES = 16 * 1024 * 1024
MAX_FORM_ROWS = 20_000
MAX_FORM_CELLS = 1_000_000
REQUIRED = ("name", "id_number", "phone")
LABELS = {c.field: c.label for c in FORM_COLUMNS}
_ALIASES = {header_key(a): c.field for c in FORM_COLUMNS for a in (c.label, *c.aliases)}
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTED_STREAM = "EncryptedPackage".encode("utf-16-le")
_YES = {
    "是",
    "已",
    "有",
    "已交",
    "已缴",
    "已缴费",
    "已交费",
    "已签",
    "已提交",
    "已报到",
    "√",
    "✓",
    "✔",
    "y",
    "yes",
    "true",
    "1",
}
_NO = {
    "",
    "否",
    "无",
    "未",
    "没有",
    "未交",
    "未缴",
    "未缴费",
    "未签",
    "未提交",
    "未报到",
    "×",
    "✗",
    "n",
    "no",
    "false",
    "0",
}
_GENDERS = {"男": Gender.MALE, "女": Gender.FEMALE, "m": Gender.MALE, "f": Gender.FEMALE}
_GENDERS |= {"male": Gender.MALE, "female": Gender.FEMALE}
_DOCUMENTS = {
    "身份证": IdDocument.RESIDENT_ID,
    "居民身份证": IdDocument.RESIDENT_ID,
    "护照": IdDocument.PASSPORT,
    "港澳通行证": IdDocument.HK_MACAU_PERMIT,
    "港澳居民来往内地通行证": IdDocument.HK_MACAU_PERMIT,
    "回乡证": IdDocument.HK_MACAU_PERMIT,
    "台胞证": IdDocument.TAIWAN_PERMIT,
    "台湾居民来往大陆通行证": IdDocument.TAIWAN_PERMIT,
} | {d.value: d for d in IdDocument}


@dataclass(frozen=True, slots=True)
class ImportProblem:
    """A problem of one row: Excel row number, column letter and header ("" for the whole row)."""

    row: int
    column: str
    header: str
    message_zh: str
    message_en: str

    def __str__(self) -> str:
        where = f"第 {self.row} 行" + (f" {self.column} 列（{self.header}）" if self.column else "")
        return f"{where}：{self.message_zh}"

    @property
    def en(self) -> str:
        where = f"row {self.row}" + (f", column {self.column} ({self.header})" if self.column else "")
        return f"{where}: {self.message_en}"


@dataclass(frozen=True, slots=True)
class ImportRow:
    row: int
    entry: PlayerEntry  # normalised where the checks got that far
    problems: tuple[ImportProblem, ...]
    #: not refusals: what the arbiter should look at before importing (the same name and birth date
    #: as another row or as a player already registered — the same person entered twice?)
    warnings: tuple[ImportProblem, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True, slots=True)
class ImportPreview:
    """What the file holds and what is wrong with it, before anything is written."""

    path: Path
    sheet: str
    header_row: int
    columns: dict[str, str]  # PlayerEntry field -> column letter
    headers: dict[str, str]  # column letter -> header text as written
    ignored: tuple[str, ...]  # headers not understood (ignored)
    rows: tuple[ImportRow, ...]

    @property
    def valid(self) -> tuple[ImportRow, ...]:
        return tuple(r for r in self.rows if r.ok)

    @property
    def invalid(self) -> tuple[ImportRow, ...]:
        return tuple(r for r in self.rows if not r.ok)

    @property
    def problems(self) -> tuple[ImportProblem, ...]:
        return tuple(p for r in self.rows for p in r.problems)

    @property
    def warnings(self) -> tuple[ImportProblem, ...]:
        return tuple(w for r in self.rows for w in r.warnings)


@dataclass(frozen=True, slots=True)
class ImportResult:
    added: tuple[int, ...]  # player ids, in row order
    skipped: tuple[ImportRow, ...]
    preview: ImportPreview


class ImportRefused(UserError):
    """Nothing was written; ``preview`` holds every problem."""

    def __init__(self, preview: ImportPreview, zh: str, en: str) -> None:
        super().__init__(zh, en)
        self.preview = preview


# --------------------------------------------------------------------------- the file


def _refuse(path: Path, zh: str, en: str) -> UserError:
    return UserError(f"无法导入“{path.name}”：{zh}", f"cannot import {path.name}: {en}")


def _open_workbook(path: Path) -> Any:
    """Open an .xlsx by its content (not its name); one clear error for anything else."""
    if not path.is_file():
        raise _refuse(path, "文件不存在", "the file does not exist")
    size = path.stat().st_size
    if size > MAX_FORM_BYTES:
        raise _refuse(
            path,
            f"文件过大（{size // 1024 // 1024} MB，报名表最多 {MAX_FORM_BYTES // 1024 // 1024} MB）",
            f"the file is too large ({size // 1024 // 1024} MB; a registration form is at most "
            f"{MAX_FORM_BYTES // 1024 // 1024} MB)",
        )
    from app.files import refuse_live

    refuse_live(path, writing=False)  # the open tournament's own file is never read as a form
    try:
        data = path.read_bytes()
    except OSError as exc:
        from app.files import os_error

        raise os_error(exc, path, reading=True) from None
    if not data:
        raise _refuse(path, "文件是空的（0 字节）", "the file is empty (0 bytes)")
    if data.startswith(_OLE_MAGIC):
        if _ENCRYPTED_STREAM in data:
            raise _refuse(
                path,
                "文件设有打开密码（已加密），请在 Excel 中取消密码后另存为 .xlsx 再导入",
                "the file is password-protected (encrypted); remove the password in Excel and save as .xlsx",
            )
        raise _refuse(
            path,
            "这是旧版 Excel 97-2003（.xls）文件，请在 Excel 中“另存为” .xlsx 格式后再导入",
            "this is a legacy Excel 97-2003 (.xls) file; save it as .xlsx in Excel first",
        )
    if not data.startswith(b"PK"):
        head = data[:4096]
        text = None
        for encoding in ("utf-8-sig", "gb18030"):
            try:
                text = head.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        if text is not None and re.search(r"<\s*(html|table|\?xml)", text, re.I):
            raise _refuse(
                path,
                "这是网页/XML 文件而不是 Excel 工作簿，请在 Excel 中另存为 .xlsx",
                "this is an HTML/XML file, not an Excel workbook; save it as .xlsx",
            )
        if text is not None and ("," in text or "\t" in text or "\n" in text):
            raise _refuse(
                path,
                "这是 CSV/文本文件而不是 Excel 工作簿，请在 Excel 中打开后另存为 .xlsx",
                "this is a CSV/text file, not an Excel workbook; open it in Excel and save as .xlsx",
            )
        raise _refuse(path, "不是 Excel（.xlsx）文件", "not an Excel (.xlsx) file")
    _refuse_huge_parts(path, data)
    try:
        return load_workbook(io.BytesIO(data), data_only=True)
    except Exception as exc:  # openpyxl raises many kinds (BadZipFile, KeyError, InvalidFileException …)
        raise _refuse(
            path,
            f"文件已损坏或不是 Excel 工作簿（{type(exc).__name__}）",
            f"the file is corrupt or not an Excel workbook ({type(exc).__name__}: {exc})",
        ) from None


def _refuse_huge_parts(path: Path, data: bytes) -> None:
    """Refuse, before parsing, a workbook whose parts unpack to more than a form can hold: millions of
    shared strings, a sheet of millions of cells, a zip bomb. Quick: only the zip directory is read."""
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise _refuse(
            path, f"文件已损坏或不是 Excel 工作簿（{type(exc).__name__}）", f"the file is corrupt ({exc})"
        ) from None
    total = sum(i.file_size for i in infos)
    strings = sum(i.file_size for i in infos if i.filename.lower().endswith("sharedstrings.xml"))
    if len(infos) > 10_000 or total > MAX_UNPACKED_BYTES or strings > MAX_SHARED_STRINGS_BYTES:
        raise _refuse(
            path,
            f"工作簿过大（解压后 {total // 1024 // 1024} MB，其中文字表 {strings // 1024 // 1024} MB），"
            "不像是报名表；请只保留报名表的工作表和数据后另存",
            f"the workbook is too large ({total // 1024 // 1024} MB unpacked, shared strings "
            f"{strings // 1024 // 1024} MB) for a registration form; keep only the form and save again",
        )


def _worksheets(wb: Any) -> list[Any]:
    """The workbook's sheets that hold cells (chart sheets have none)."""
    return [ws for ws in wb.worksheets if hasattr(ws, "_cells")]


def _rows(
    ws: Any, *, first: int = 1, last: int | None = None, columns: set[int] | None = None
) -> dict[int, dict[int, Any]]:
    """The cells that really hold a value, by row and column — the sheet's real extent, whatever its
    declared dimension says (one stray cell at XFD1048576 must not make a million empty rows)."""
    rows: dict[int, dict[int, Any]] = {}
    for (r, c), cell in ws._cells.items():
        if r < first or (last is not None and r > last) or (columns is not None and c not in columns):
            continue
        value = cell.value
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        rows.setdefault(r, {})[c] = value
    return rows


def _find_header(ws: Any) -> tuple[int, dict[int, str], dict[int, str]] | None:
    """(row, {column: field}, {column: header text}) of the first row that looks like the header."""
    found = _rows(ws, last=HEADER_SEARCH_ROWS)
    for r in sorted(found):
        fields: dict[int, str] = {}
        texts: dict[int, str] = {}
        for c, value in sorted(found[r].items()):
            if value is None:
                continue
            text = str(value).strip()
            texts[c] = text
            field = _ALIASES.get(header_key(text))
            if field is not None and field not in fields.values():
                fields[c] = field
        if "name" in fields.values() and len(fields) >= 2:
            return r, fields, texts
    return None


# --------------------------------------------------------------------------- cells


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


class _CellError(Exception):
    def __init__(self, zh: str, en: str) -> None:
        super().__init__(zh)
        self.zh, self.en = zh, en


def _id_number(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        raise _CellError(
            "证件号码被 Excel 存成了数字（18 位号码会丢失末几位，X 也无法保存）："
            "请把该列设为“文本”格式后重新输入号码",
            "the ID number was stored by Excel as a number (an 18-digit number loses its last digits "
            "and cannot hold X): format the column as text and type the numbers again",
        )
    return _text(value)


def _date(value: Any) -> date | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = _text(value)
    m = re.fullmatch(r"(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?", text) or re.fullmatch(
        r"(\d{4})(\d{2})(\d{2})", text
    )
    if m:
        try:
            return date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            pass
    raise _CellError(f"“{text}”不是有效日期（例：1990-01-01）", f"{text!r} is not a date (e.g. 1990-01-01)")


def _rating(value: Any) -> int | None:
    text = _text(value)
    if not text or text in ("无", "-", "—"):
        return None
    if isinstance(value, float) and not value.is_integer():
        raise _CellError(f"等级分“{value}”不是整数", f"rating {value!r} is not a whole number")
    if not re.fullmatch(r"\d+", text):
        raise _CellError(f"等级分“{text}”不是整数", f"rating {text!r} is not a whole number")
    return int(text)


def _rank(value: Any) -> int | None:
    """A place on a rating list: 12, 12.0, 第12名, 12名; empty or 无 for none."""
    text = _text(value)
    if not text or text in ("无", "-", "—", "无排名"):
        return None
    if isinstance(value, float) and not value.is_integer():
        raise _CellError(
            f"等级分排名“{value}”不是整数名次", f"rating-list rank {value!r} is not a whole place"
        )
    bare = re.fullmatch(r"第?\s*(\d+)\s*名?", text)
    if bare is None:
        raise _CellError(
            f"等级分排名“{text}”不是名次（应填整数，如 12 或 第12名）",
            f"rating-list rank {text!r} is not a place (a whole number, e.g. 12)",
        )
    return int(bare[1])


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = _text(value).lower()
    if text in _YES:
        return True
    if text in _NO:
        return False
    raise _CellError(f"“{text}”应填“是”或留空", f"{text!r}: expected 是 (yes) or empty")


def _gender(value: Any) -> Gender | None:
    text = _text(value).lower()
    if not text:
        return None
    if text in _GENDERS:
        return _GENDERS[text]
    raise _CellError(f"性别“{text}”应为“男”或“女”", f"gender {text!r}: expected 男 or 女")


def _document(value: Any) -> IdDocument:
    text = re.sub(r"\s+", "", _text(value))
    if not text:
        return IdDocument.RESIDENT_ID
    if text.lower() in _DOCUMENTS:
        return _DOCUMENTS[text.lower()]
    raise _CellError(
        f"证件类型“{text}”无法识别（可填：身份证、护照、港澳通行证、台胞证）",
        f"unknown document type {text!r} (resident ID, passport, HK/Macau permit, Taiwan permit)",
    )


def _group(text: str, groups: list[str]) -> str:
    """Exact name, or the one group whose name contains the text (本地组 → 天水本地组)."""
    if not text:
        return groups[0] if len(groups) == 1 else ""
    if text in groups:
        return text
    matches = [g for g in groups if text in g]
    return matches[0] if len(matches) == 1 else text


_PARSERS: dict[str, Any] = {
    "id_number": _id_number,
    "birth_date": _date,
    "rating": _rating,
    "rating_rank": _rank,
    "gender": _gender,
    "id_type": _document,
    "insurance": _flag,
    "pledge": _flag,
    "fee_paid": _flag,
    "checked_in": _flag,
}


# --------------------------------------------------------------------------- reading and checking


@dataclass(frozen=True, slots=True)
class _Sheet:
    path: Path
    sheet: str
    header_row: int
    fields: dict[int, str]
    texts: dict[int, str]
    rows: tuple[tuple[int, dict[str, Any]], ...]  # (excel row, {field: raw value})


def read_registration_form(path: Path | str) -> _Sheet:
    """Find the header and the data rows; raise one :class:`UserError` for a file that cannot be read."""
    path = Path(path)
    wb = _open_workbook(path)
    try:
        sheets = _worksheets(wb)
        cells = sum(len(ws._cells) for ws in sheets)
        if cells > MAX_FORM_CELLS:
            raise _refuse(
                path,
                f"工作簿有 {cells:,} 个单元格，不像是报名表（最多 {MAX_FORM_CELLS:,} 个）",
                f"the workbook has {cells:,} cells, too many for a registration form (at most {MAX_FORM_CELLS:,})",
            )
        if not any(_rows(ws) for ws in sheets):
            raise _refuse(path, "工作簿是空的", "the workbook is empty")
        found = None
        for ws in sheets:
            header = _find_header(ws)
            if header is not None:
                found = ws, header
                break
        if found is None:
            raise _refuse(
                path,
                f"在前 {HEADER_SEARCH_ROWS} 行中找不到表头（需要“姓名”“身份证号”“手机号”等列名）",
                f"no header row in the first {HEADER_SEARCH_ROWS} rows (need 姓名, 身份证号, 手机号 …)",
            )
        ws, (header_row, fields, texts) = found
        missing = [LABELS[f] for f in REQUIRED if f not in fields.values()]
        if missing:
            shown = "、".join(missing)
            raise _refuse(path, f"缺少必填列：{shown}", f"required column(s) missing: {shown}")
        rows: list[tuple[int, dict[str, Any]]] = []
        data = _rows(ws, first=header_row + 1, columns=set(fields))
        if len(data) > MAX_FORM_ROWS:
            raise _refuse(
                path,
                f"表中有 {len(data):,} 行数据，超过报名表上限 {MAX_FORM_ROWS:,} 行",
                f"the sheet has {len(data):,} data rows, more than a form's {MAX_FORM_ROWS:,}",
            )
        for r in sorted(data):
            raw = {fields[c]: data[r].get(c) for c in fields}
            if all(_text(v) == "" for v in raw.values()):
                continue
            rows.append((r, raw))
        if not rows:
            raise _refuse(path, "表头下面没有选手数据", "there are no player rows under the header")
        return _Sheet(path, ws.title, header_row, fields, texts, tuple(rows))
    finally:
        wb.close()


def _check(
    db_session: Any, sheet: _Sheet, *, now: datetime, override_reason: str
) -> tuple[ImportPreview, list[BatchLine]]:
    context = registration_context(db_session, now=now, override_reason=override_reason)
    group_names = list(context.groups)
    column_of = {f: c for c, f in sheet.fields.items()}
    has_team_column = "team" in column_of

    def place(field: str) -> tuple[str, str]:
        fallback = {"birth_date": "id_number", "gender": "id_number", "team": "unit"}
        c = column_of.get(field) or column_of.get(fallback.get(field, ""))
        return (get_column_letter(c), sheet.texts[c]) if c else ("", "")

    parsed: list[tuple[int, PlayerEntry, list[ImportProblem]]] = []
    for r, raw in sheet.rows:
        problems: list[ImportProblem] = []
        values: dict[str, Any] = {}
        for field, value in raw.items():
            parser = _PARSERS.get(field, _text)
            try:
                values[field] = parser(value)
            except _CellError as e:
                problems.append(ImportProblem(r, *place(field), e.zh, e.en))
        group = _group(values.get("group", ""), group_names)
        unit = values.get("unit", "")
        team = values.get("team", "")
        if not has_team_column and unit and context.groups.get(group, False):
            team = unit  # 单位/代表队: the unit is the team where the group has teams
        entry = PlayerEntry(
            name=values.get("name", ""),
            id_number=values.get("id_number", ""),
            phone=values.get("phone", ""),
            group=group,
            id_type=values.get("id_type", IdDocument.RESIDENT_ID),
            birth_date=values.get("birth_date"),
            gender=values.get("gender"),
            team=team,
            unit=unit,
            region=values.get("region", ""),
            rating=values.get("rating"),
            rating_rank=values.get("rating_rank"),
            notes=values.get("notes", ""),
            fee_paid=values.get("fee_paid", False),
            insurance=values.get("insurance", False),
            pledge=values.get("pledge", False),
            checked_in=values.get("checked_in", False),
        )
        parsed.append((r, entry, problems))

    lines = list(check_batch([(f"第 {r} 行", e) for r, e, _ in parsed], context))
    rows: list[ImportRow] = []
    for (r, _entry, cell_problems), line in zip(parsed, lines, strict=True):
        failed_fields = {p.column for p in cell_problems}
        # an unreadable rating or rank reads as "none": the group's conditions on it would be judged on a
        # value the row does not hold — the cell's own message says what to fix
        unread = any(place(f)[0] in failed_fields for f in ("rating", "rating_rank"))
        problems = list(cell_problems)
        for p in line.problems:
            column, header = place(p.field) if p.field else ("", "")
            if column and column in failed_fields:
                continue  # the cell itself could not be read: that message says more
            if unread and p.field == "group" and "参赛资格" in p.message_zh:
                continue
            problems.append(ImportProblem(r, column, header, p.message_zh, p.message_en))
        rows.append(ImportRow(r, line.checked.entry, tuple(problems)))
    rows = _with_namesakes(db_session, rows, place("name"))
    ignored = tuple(t for c, t in sorted(sheet.texts.items()) if c not in sheet.fields)
    preview = ImportPreview(
        path=sheet.path,
        sheet=sheet.sheet,
        header_row=sheet.header_row,
        columns={f: get_column_letter(c) for c, f in sheet.fields.items()},
        headers={get_column_letter(c): sheet.texts[c] for c in sheet.fields},
        ignored=ignored,
        rows=tuple(rows),
    )
    return preview, lines


def _with_namesakes(session: Any, rows: list[ImportRow], name_column: tuple[str, str]) -> list[ImportRow]:
    """Rows whose name and birth date are those of another row, or of a player already registered,
    get a warning naming the other (the same person entered twice? — the arbiter decides)."""
    registered: dict[tuple[str, date], str] = {}
    query = select(Player.name, Player.birth_date, Player.no, Group.name).join(
        Group, Player.group_id == Group.id
    )
    for name, born, no, group in session.execute(query):
        registered.setdefault((name, born), f"{group} {no} 号 {name}" if no else f"{group} {name}")
    in_file: dict[tuple[str, date], list[int]] = {}
    for row in rows:
        if row.entry.name and row.entry.birth_date is not None:
            in_file.setdefault((row.entry.name, row.entry.birth_date), []).append(row.row)
    out = []
    for row in rows:
        born = row.entry.birth_date
        if not row.entry.name or born is None:
            out.append(row)
            continue
        key = (row.entry.name, born)
        warnings: list[ImportProblem] = []
        if key in registered:
            warnings.append(
                ImportProblem(
                    row.row,
                    *name_column,
                    f"与已报名的 {registered[key]}（{born:%Y-%m-%d}）同名同出生日期：是否重复报名？",
                    f"same name and birth date ({born:%Y-%m-%d}) as {registered[key]}, already registered: "
                    "entered twice?",
                )
            )
        others = [r for r in in_file[key] if r != row.row]
        if others:
            listed = "、".join(f"第 {r} 行" for r in others)
            listed_en = ", ".join(f"row {r}" for r in others)
            warnings.append(
                ImportProblem(
                    row.row,
                    *name_column,
                    f"与{listed}同名同出生日期（{born:%Y-%m-%d}）：是否重复报名？",
                    f"same name and birth date ({born:%Y-%m-%d}) as {listed_en}: entered twice?",
                )
            )
        out.append(dataclasses.replace(row, warnings=tuple(warnings)) if warnings else row)
    return out


def preview_import(
    db: Database, path: Path | str, *, now: datetime | None = None, override_reason: str = ""
) -> ImportPreview:
    """Read and check the form without writing anything."""
    sheet = read_registration_form(path)
    with db.session() as s:
        preview, _ = _check(s, sheet, now=now or _now(), override_reason=override_reason)
        s.rollback()
        return preview


def _now() -> datetime:
    return datetime.now().replace(microsecond=0)


def import_players(
    db: Database,
    path: Path | str,
    *,
    mode: ImportMode = "all_or_nothing",
    now: datetime | None = None,
    override_reason: str = "",
    who: str = audit.DEFAULT_ARBITER,
) -> ImportResult:
    """Import the form in one transaction.

    ``all_or_nothing``: any problem → :class:`ImportRefused` and nothing is written.
    ``valid_only``: the good rows are written, the others returned in ``skipped``.
    """
    if mode not in ("all_or_nothing", "valid_only"):
        raise UserError(f"未知的导入方式“{mode}”", f"unknown import mode {mode!r}")
    sheet = read_registration_form(path)
    at = now or _now()
    with db.session() as s:
        preview, lines = _check(s, sheet, now=at, override_reason=override_reason)
        bad = preview.invalid
        if bad and (mode == "all_or_nothing" or not preview.valid):
            first = "\n".join(str(p) for p in preview.problems[:10])
            more = len(preview.problems) - 10
            tail = f"\n……另有 {more} 处问题" if more > 0 else ""
            raise ImportRefused(
                preview,
                f"“{sheet.path.name}”中有 {len(bad)} 行有问题，未导入任何选手：\n{first}{tail}",
                f"{sheet.path.name}: {len(bad)} row(s) have problems; nothing was imported:\n"
                + "\n".join(p.en for p in preview.problems[:10]),
            )
        added: list[int] = []
        for row, line in zip(preview.rows, lines, strict=True):
            if row.ok:
                player = write_entry(
                    s, line.checked, now=at, who=who, reason=override_reason, action="import_player"
                )
                added.append(player.id)
        audit.record(
            s,
            "import_players",
            entity=sheet.path.name,
            after={"mode": mode, "added": len(added), "skipped": [r.row for r in bad]},
            reason=override_reason,
            who=who,
        )
        return ImportResult(tuple(added), bad, preview)


def write_template(db: Database, path: Path | str) -> Path:
    """The empty registration form with this tournament's groups in the 组别 list."""
    from app.reports.excel_template import template_title, write_registration_template
    from app.services.tournaments import tournament_info

    info = tournament_info(db)
    return write_registration_template(path, [g.name for g in info.groups], title=template_title(info.name))
