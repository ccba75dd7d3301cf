"""Excel import of the registration form (附件 2) and the empty template."""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook, load_workbook

from app.db.session import Database
from app.engine.registration import PlayerEntry
from app.engine.regulations import preset
from app.engine.types import UserError
from app.reports.excel_template import FORM_COLUMNS, HEADER_ROW, write_registration_template
from app.services.audit import audit_log
from app.services.excel_import import ImportRefused, import_players, preview_import
from app.services.registration import add_player, list_players
from app.services.tournaments import create_tournament
from tests.idnumbers import check_char, make_id

NOW = datetime(2024, 7, 20, 10, 0)
HEADER = ["序号", "姓名", "身份证号", "手机号", "组别", "代表队", "性别", "等级分", "缴费"]


@pytest.fixture
def db(tmp_path: Path) -> Database:
    return create_tournament(tmp_path / "t.xqt")


def good_row(i: int, group: str = "公开组", team: str = "兰州队") -> list[Any]:
    return [
        i,
        f"选手{chr(0x4E00 + i)}",
        make_id(date(1985, 6, 1), serial=i),
        "13912345678",
        group,
        team,
        "男",
        1800,
        "是",
    ]


def workbook(
    path: Path, rows: Sequence[Sequence[Any]], header: Sequence[str] = HEADER, title: bool = True
) -> Path:
    wb = Workbook()
    ws = wb.active
    if title:
        ws.append(["2024 职工象棋公开赛报名表"])
        ws.append([])
    ws.append(list(header))
    for row in rows:
        ws.append(list(row))
    wb.save(path)
    return path


def problems_of(preview: Any, row: int) -> list[str]:
    return [f"{p.column}|{p.header}|{p.message_zh}" for r in preview.rows if r.row == row for p in r.problems]


def test_good_file_with_title_row_and_shuffled_columns(db: Database, tmp_path: Path) -> None:
    header = ["备注", "手机", "队名", "姓名", "组别", "证件号码", "保险", "不相干的列"]
    rows = [
        ["", "139 1234 5678", "兰州队", "张三", "公开组", make_id(date(1985, 6, 1), 1).lower(), "√", "x"],
        ["老将", 18194240701, "", "李四", "本地组", make_id(date(1970, 1, 2), 2, male=False), "", ""],
    ]
    path = workbook(tmp_path / "good.xlsx", rows, header)
    preview = preview_import(db, path, now=NOW)
    assert preview.header_row == 3 and not preview.problems
    assert preview.ignored == ("不相干的列",)
    assert list_players(db) == []  # the preview writes nothing
    result = import_players(db, path, now=NOW)
    assert len(result.added) == 2 and result.skipped == ()
    a, b = list_players(db)
    assert (a.name, a.team, a.phone, a.insurance, a.id_number[-1]) == (
        "张三",
        "兰州队",
        "13912345678",
        True,
        make_id(date(1985, 6, 1), 1)[-1],
    )
    assert (b.name, b.group, b.team, b.phone, b.notes, b.gender) == (
        "李四",
        "天水本地组",
        "",
        "18194240701",
        "老将",
        "female",
    )
    assert audit_log(db, action="import_players")[0].entity == "good.xlsx"


def bad_id_checksum() -> str:
    good = make_id(date(1985, 6, 1), 30)
    return good[:17] + ("1" if good[17] != "1" else "2")


def bad_id_date() -> str:
    first17 = "62050219850231" + "123"
    return first17 + check_char(first17)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({2: bad_id_checksum()}, "C|身份证号|身份证号校验码不符"),
        ({2: bad_id_date()}, "C|身份证号|身份证号第 7–14 位“19850231”不是有效的出生日期"),
        ({2: make_id(date(1958, 7, 1), 30)}, "C|身份证号|比赛首日"),
        ({3: "0938-1234567"}, "D|手机号|手机号"),
        ({4: "少年组"}, "E|组别|没有名为“少年组”的组别"),
        ({4: "天水本地组"}, "F|代表队|天水本地组不设团体"),
        ({1: ""}, "B|姓名|姓名为空"),
        ({2: 620502198506010000}, "C|身份证号|证件号码被 Excel 存成了数字"),
        ({2: 6.20502198506011e17}, "C|身份证号|证件号码被 Excel 存成了数字"),
        ({8: "也许"}, "I|缴费|“也许”应填“是”或留空"),
        ({7: "高手"}, "H|等级分|等级分“高手”不是整数"),
    ],
)
def test_each_kind_of_bad_row_is_reported_with_row_and_column(
    db: Database, tmp_path: Path, change: dict[int, Any], expected: str
) -> None:
    bad = good_row(30)
    for index, value in change.items():
        bad[index] = value
    path = workbook(tmp_path / "bad.xlsx", [good_row(1), bad, good_row(2)])
    preview = preview_import(db, path, now=NOW)
    assert [r.ok for r in preview.rows] == [True, False, True]
    [problem] = problems_of(preview, 5)
    assert problem.startswith(expected), problem


def test_duplicate_within_the_file_and_with_existing(db: Database, tmp_path: Path) -> None:
    existing = make_id(date(1990, 1, 1), 40)
    add_player(db, PlayerEntry("已报名", existing, "13912345678", "公开组"), now=NOW)
    dup_in_file = good_row(1)
    dup_in_file[0] = 9
    dup_existing = good_row(3)
    dup_existing[2] = existing.lower()
    path = workbook(tmp_path / "dup.xlsx", [good_row(1), good_row(2), dup_in_file, dup_existing])
    preview = preview_import(db, path, now=NOW)
    assert [r.ok for r in preview.rows] == [True, True, False, False]
    assert problems_of(preview, 6)[0].endswith("与第 4 行重复")
    assert "已经报名" in problems_of(preview, 7)[0]


def test_all_or_nothing_leaves_the_database_unchanged(db: Database, tmp_path: Path) -> None:
    bad = good_row(5)
    bad[3] = "123"
    path = workbook(tmp_path / "mixed.xlsx", [good_row(1), bad, good_row(2)])
    before = len(audit_log(db))
    with pytest.raises(ImportRefused) as info:
        import_players(db, path, now=NOW)
    assert "第 5 行 D 列（手机号）" in info.value.zh
    assert len(info.value.preview.invalid) == 1
    assert list_players(db) == [] and len(audit_log(db)) == before


def test_valid_only_writes_exactly_the_valid_rows(db: Database, tmp_path: Path) -> None:
    bad = good_row(5)
    bad[1] = ""
    path = workbook(tmp_path / "mixed.xlsx", [good_row(1), bad, good_row(2), good_row(3, "天水本地组", "")])
    result = import_players(db, path, mode="valid_only", now=NOW)
    assert [r.row for r in result.skipped] == [5]
    names = [p.name for p in list_players(db)]
    assert sorted(names) == sorted([good_row(1)[1], good_row(2)[1], good_row(3)[1]])
    assert {p.team for p in list_players(db, "公开组")} == {"兰州队"}  # created once, in its group


def test_capacity_counts_the_whole_import(tmp_path: Path) -> None:
    reg = preset("tianshui-2024")
    db = create_tournament(
        tmp_path / "c.xqt", regulations=replace(reg, registration=replace(reg.registration, capacity=4))
    )
    add_player(db, PlayerEntry("已报名", make_id(date(1990, 1, 1), 40), "13912345678", "公开组"), now=NOW)
    path = workbook(tmp_path / "cap.xlsx", [good_row(i) for i in range(1, 6)])
    preview = preview_import(db, path, now=NOW)
    assert [r.ok for r in preview.rows] == [True, True, True, False, False]
    assert "报名人数已满（4 人）" in problems_of(preview, 7)[0]
    result = import_players(db, path, mode="valid_only", now=NOW)
    assert len(result.added) == 3 and len(list_players(db)) == 4


def test_import_after_the_deadline_needs_a_reason(db: Database, tmp_path: Path) -> None:
    path = workbook(tmp_path / "late.xlsx", [good_row(1)])
    late = datetime(2024, 7, 24, 8, 0)
    with pytest.raises(ImportRefused, match="截止"):
        import_players(db, path, now=late)
    import_players(db, path, now=late, override_reason="补报")
    assert len(audit_log(db, action="deadline_override")) == 1


# --------------------------------------------------------------------------- bad files


def ole_file(path: Path, stream: str) -> Path:
    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504
    path.write_bytes(header + stream.encode("utf-16-le") + b"\x00" * 512)
    return path


def test_corrupt_zip(db: Database, tmp_path: Path) -> None:
    good = workbook(tmp_path / "g.xlsx", [good_row(1)])
    path = tmp_path / "corrupt.xlsx"
    path.write_bytes(good.read_bytes()[:300])
    with pytest.raises(UserError, match=r"corrupt\.xlsx.*已损坏"):
        import_players(db, path, now=NOW)


def test_zip_that_is_not_a_workbook(db: Database, tmp_path: Path) -> None:
    path = tmp_path / "other.xlsx"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(UserError, match="已损坏或不是 Excel 工作簿"):
        import_players(db, path, now=NOW)


def test_legacy_xls(db: Database, tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"old\.xls.*\.xls）文件"):
        import_players(db, ole_file(tmp_path / "old.xls", "Workbook"), now=NOW)


def test_password_protected(db: Database, tmp_path: Path) -> None:
    path = ole_file(tmp_path / "secret.xlsx", "EncryptionInfo\x00EncryptedPackage")
    with pytest.raises(UserError, match="密码"):
        preview_import(db, path, now=NOW)


def test_csv_renamed_xlsx(db: Database, tmp_path: Path) -> None:
    path = tmp_path / "list.xlsx"
    path.write_text("姓名,身份证号,手机号\n张三,11010519491231002X,13912345678\n", encoding="utf-8")
    with pytest.raises(UserError, match="CSV"):
        import_players(db, path, now=NOW)


def test_random_bytes_and_empty_file(db: Database, tmp_path: Path) -> None:
    (tmp_path / "x.xlsx").write_bytes(bytes(range(256)))
    with pytest.raises(UserError, match="不是 Excel"):
        import_players(db, tmp_path / "x.xlsx", now=NOW)
    (tmp_path / "e.xlsx").write_bytes(b"")
    with pytest.raises(UserError, match="空的"):
        import_players(db, tmp_path / "e.xlsx", now=NOW)


def test_empty_workbook(db: Database, tmp_path: Path) -> None:
    path = tmp_path / "empty.xlsx"
    Workbook().save(path)
    with pytest.raises(UserError, match="工作簿是空的"):
        import_players(db, path, now=NOW)


def test_no_header_row(db: Database, tmp_path: Path) -> None:
    path = workbook(tmp_path / "nohead.xlsx", [["张三", "13912345678"]], header=["A", "B"])
    with pytest.raises(UserError, match="找不到表头"):
        import_players(db, path, now=NOW)


def test_missing_required_column_and_no_rows(db: Database, tmp_path: Path) -> None:
    path = workbook(
        tmp_path / "nophone.xlsx", [["张三", make_id(date(1980, 1, 1))]], header=["姓名", "身份证号"]
    )
    with pytest.raises(UserError, match="缺少必填列：手机号"):
        import_players(db, path, now=NOW)
    path = workbook(tmp_path / "norows.xlsx", [], header=HEADER)
    with pytest.raises(UserError, match="没有选手数据"):
        import_players(db, path, now=NOW)


def test_bad_file_changes_nothing(db: Database, tmp_path: Path) -> None:
    before = len(audit_log(db))
    with pytest.raises(UserError):
        import_players(db, ole_file(tmp_path / "old.xls", "Workbook"), now=NOW)
    assert list_players(db) == [] and len(audit_log(db)) == before


# --------------------------------------------------------------------------- template


def test_template_round_trip(db: Database, tmp_path: Path) -> None:
    path = write_registration_template(tmp_path / "报名表.xlsx")
    wb = load_workbook(path)
    ws = wb.active
    labels = [ws.cell(HEADER_ROW, c).value for c in range(1, len(FORM_COLUMNS) + 1)]
    assert labels == [c.label for c in FORM_COLUMNS]
    col = {c.field: i for i, c in enumerate(FORM_COLUMNS, start=1)}
    assert ws.cell(HEADER_ROW + 1, col["id_number"]).number_format == "@"
    lists = [dv.formula1 for dv in ws.data_validations.dataValidation]
    assert '"公开组,天水本地组"' in lists and '"男,女"' in lists
    assert ws.column_dimensions[ws.cell(HEADER_ROW, col["id_number"]).column_letter].width >= 20
    assert ws.cell(HEADER_ROW, col["id_number"]).comment is not None
    fill = [
        {
            "name": "王五",
            "id_number": make_id(date(1975, 3, 3), 7),
            "phone": "13812345678",
            "group": "公开组",
            "team": "天水一队",
            "fee_paid": "是",
            "pledge": "是",
        },
        {
            "name": "赵六",
            "id_type": "护照",
            "id_number": "E12345678",
            "birth_date": date(1980, 5, 6),
            "phone": "15912345678",
            "group": "天水本地组",
            "unit": "麦积区总工会",
            "gender": "女",
        },
    ]
    for r, values in enumerate(fill, start=HEADER_ROW + 1):
        for field, value in values.items():
            ws.cell(r, col[field], value)
    wb.save(path)
    result = import_players(db, path, now=NOW)
    assert len(result.added) == 2
    wang, zhao = list_players(db)
    assert (wang.team, wang.fee_paid, wang.pledge, wang.insurance) == ("天水一队", True, True, False)
    assert (zhao.id_type, zhao.birth_date, zhao.unit, zhao.team, zhao.gender) == (
        "passport",
        date(1980, 5, 6),
        "麦积区总工会",
        "",
        "female",
    )
