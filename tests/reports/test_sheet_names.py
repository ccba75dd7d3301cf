"""The result workbook's sheet names: names Excel accepts, whatever the groups are called.

Excel refuses (or "repairs") a workbook whose sheet name is longer than 31 characters (UTF-16
units), holds one of ``[]:*?/\\``, starts or ends with an apostrophe, is empty, is ``History``, or
equals another sheet's name ignoring case.
"""

from __future__ import annotations

import io
import re
import warnings
import zipfile
from collections.abc import Sequence
from dataclasses import replace
from xml.etree import ElementTree

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import __version__
from app.reports.excel import sheet_title, write_workbook
from app.reports.model import ResultWorkbook
from app.reports.xlsx import Sheet, sheet_name, write_xlsx
from app.services import exports

from .conftest import DemoEvent

_FORBIDDEN = re.compile(r"[\[\]:*?/\\\x00-\x1f]")
_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


@pytest.fixture(scope="module")
def data(event: DemoEvent) -> ResultWorkbook:
    return exports.result_workbook(event.db)


def _units(name: str) -> int:
    return len(name.encode("utf-16-le")) // 2


def _names_in(workbook: bytes) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(workbook)) as z:
        root = ElementTree.fromstring(z.read("xl/workbook.xml"))
    return [s.attrib["name"] for s in root.iter(f"{_MAIN}sheet")]


def _assert_excel_accepts(names: Sequence[str]) -> None:
    for name in names:
        assert name, names
        assert _units(name) <= 31, (name, _units(name))
        assert not _FORBIDDEN.search(name), name
        assert not name.startswith("'") and not name.endswith("'"), name
        assert name.casefold() != "history", name
    for fold in (str.lower, str.upper, str.casefold):
        assert len({fold(n) for n in names}) == len(names), names


def _with_groups(data: ResultWorkbook, groups: Sequence[str]) -> ResultWorkbook:
    """The demo event's entry lists, one per group named."""
    entries = data.entries[0]
    return replace(
        data,
        entries=tuple(replace(entries, header=replace(entries.header, group=g)) for g in groups),
    )


def _written(data: ResultWorkbook) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # openpyxl warns of a title longer than 31 characters
        write_workbook(data, buf)
    return buf.getvalue()


def test_long_group_names_that_collide_stay_within_excels_limit(data: ResultWorkbook) -> None:
    """Groups whose long names agree in their first 31 characters, or differ only in case: the
    numbered name of the second sheet used to be 32 characters long."""
    long = "全国象棋锦标赛（个人）男子甲组第一阶段预赛赛区东部"  # 25 characters
    assert len(long + "A组参赛名单") == 31
    groups = [long + "A组", long + "a组", long + "A组（下午）", long + "A组（晚上）"]
    names = _names_in(_written(_with_groups(data, groups)))
    _assert_excel_accepts(names)
    assert names[:4] == [
        f"{long}A组参赛名单",
        f"{long}a组参赛名1",
        f"{long}A组参赛名2",  # the group's name cut to the same 27 characters
        f"{long}A组参赛名3",
    ]


def test_a_long_group_name_is_shortened_not_the_sheets_own(data: ResultWorkbook) -> None:
    """The group's name is cut, the sheet's own name (参赛名单, 第3轮, 名次表) stays whole."""
    group = "很长的组名" * 8
    names = _names_in(_written(_with_groups(data, [group, "公开组"])))
    _assert_excel_accepts(names)
    assert names[0] == group[:27] + "参赛名单"
    assert names[1] == "公开组参赛名单"


def test_hostile_group_names(data: ResultWorkbook) -> None:
    groups = ["'", "''甲''", "[]:*?/\\", "History", "history", "HISTORY参赛名单", "a\x00b\x1fc", "😀" * 20]
    written = _written(_with_groups(data, groups))
    names = _names_in(written)
    _assert_excel_accepts(names)
    assert openpyxl.load_workbook(io.BytesIO(written), read_only=True).sheetnames == names  # (no sheet read)


_GROUP = st.text(
    st.characters(codec="utf-8") | st.sampled_from("'[]:*?/\\ 甲组aAßẞİı\u0130😀\x00\x1f\ufffe"), max_size=40
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_GROUP, min_size=1, max_size=8), st.lists(st.sampled_from(["参赛名单", "第1轮", "名次表", ""]))
)
def test_any_names_make_names_excel_accepts(groups: list[str], bases: list[str]) -> None:
    """Any group names, each with each sheet's own name, then every title again (all taken)."""
    names: list[str] = []
    titles = [sheet_title(b, g) for g in groups for b in [*bases, "参赛名单"]]
    for title in [*titles, *titles]:
        names.append(sheet_name(names, title))
    _assert_excel_accepts(names)


@given(st.lists(st.text(max_size=35), min_size=1, max_size=5))
def test_a_name_excel_accepts_is_kept(titles: list[str]) -> None:
    """A title that is a good name, not yet taken, is the sheet's name unchanged."""
    names: list[str] = []
    for title in titles:
        name = sheet_name(names, title)
        good = (
            title
            and _units(title) <= 31
            and not _FORBIDDEN.search(title)
            and not re.search(r"[\x7f-\x9f\ud800-\udfff\ufffe\uffff]", title)
            and not title.startswith("'")
            and not title.endswith("'")
            and title.casefold() != "history"
            and all(title.casefold() != n.casefold() and title.upper() != n.upper() for n in names)
        )
        if good:
            assert name == title
        names.append(name)


@settings(max_examples=40, deadline=None)
@given(st.lists(_GROUP, min_size=1, max_size=4))
def test_the_workbook_reads_back_with_those_names(groups: list[str]) -> None:
    """openpyxl reads the written workbook (its XML well formed) with the names written."""
    buf = io.BytesIO()
    sheets = [Sheet(g, ["a"], [[1]], [5], "c") for g in groups]
    write_xlsx(buf, sheets)
    names = _names_in(buf.getvalue())
    _assert_excel_accepts(names)
    assert openpyxl.load_workbook(io.BytesIO(buf.getvalue())).sheetnames == names


def test_the_file_names_the_program_that_wrote_it() -> None:
    """Not openpyxl: the program and its version; no ``AppVersion`` (Office reads it as its own
    version, two numbers)."""
    buf = io.BytesIO()
    write_xlsx(buf, [Sheet("名次表", ["a"], [[1]], [5], "c")])
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
        app = z.read("docProps/app.xml").decode()
        core = z.read("docProps/core.xml").decode()
    assert "openpyxl" not in app.lower() and "openpyxl" not in core.lower()
    assert f"<Application>Xiangqi Arbiter (象棋赛事编排系统) {__version__}</Application>" in app
    assert "AppVersion" not in app
    assert "<dc:creator>Xiangqi Arbiter (象棋赛事编排系统)</dc:creator>" in core
    assert openpyxl.load_workbook(io.BytesIO(buf.getvalue())).properties.creator == (
        "Xiangqi Arbiter (象棋赛事编排系统)"
    )
