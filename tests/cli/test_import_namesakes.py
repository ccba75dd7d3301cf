"""``xqarbiter import-players`` flags the same name and birth date as the window's import does.

A row whose name and birth date are those of another row, or of a player already registered, may be
the same person entered twice: the window's preview marks it (⚠) and asks; the command line prints
the same warnings (row, the other, the birth date) — the rows are imported, as the warnings are not
refusals, and the summary says how many rows to check.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from openpyxl import load_workbook

from app.cli import main
from app.engine.registration import PlayerEntry
from app.reports.excel_template import FORM_COLUMNS, HEADER_ROW, write_registration_template
from app.services.registration import add_player, list_players
from app.services.tournaments import create_tournament, open_tournament
from tests.idnumbers import make_id

OPEN, LOCAL = "公开组", "天水本地组"


def _form(path: Path, rows: list[dict[str, str]]) -> Path:
    write_registration_template(path, [OPEN, LOCAL])
    wb = load_workbook(path)
    ws = wb.active
    column = {c.field: i for i, c in enumerate(FORM_COLUMNS, start=1)}
    for i, values in enumerate(rows):
        for field, value in values.items():
            ws.cell(row=HEADER_ROW + 1 + i, column=column[field], value=value)
    wb.save(path)
    return path


def test_import_players_prints_the_namesake_warnings(tmp_path: Path, capsys) -> None:
    event = tmp_path / "event.xqt"
    create_tournament(event, "tianshui-2024").close()
    born = date(1990, 5, 1)
    db = open_tournament(event)
    add_player(
        db,
        PlayerEntry(name="李四", id_number=make_id(born, 1), phone="13800000009", group=OPEN),
        override_reason="测试",
    )
    db.close()
    twin = date(1991, 6, 2)
    form = _form(
        tmp_path / "form.xlsx",
        [  # row 4: 李四 again (already registered); rows 5 and 6: 王五 twice; row 7: nobody's namesake
            {"name": "李四", "id_number": make_id(born, 2), "phone": "13800000001", "group": OPEN},
            {"name": "王五", "id_number": make_id(twin, 3), "phone": "13800000002", "group": OPEN},
            {"name": "王五", "id_number": make_id(twin, 4), "phone": "13800000003", "group": LOCAL},
            {
                "name": "赵六",
                "id_number": make_id(date(1992, 7, 3), 5),
                "phone": "13800000004",
                "group": OPEN,
            },
        ],
    )
    code = main(["import-players", str(event), str(form), "--override-deadline", "补报"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = [line for line in err.splitlines() if "同名同出生日期" in line]
    assert len(lines) == 3, err
    first = next(line for line in lines if "第 4 行" in line)
    assert "已报名" in first and "李四" in first and "1990-05-01" in first
    assert any("第 5 行" in line and "第 6 行" in line for line in lines)  # row 5 names row 6
    assert any(line.startswith("注意") and "第 6 行" in line and "第 5 行" in line for line in lines)
    assert not any("赵六" in line for line in lines)
    assert "已导入 4 名棋手" in out and "3 行与他人同名同出生日期" in out
    db = open_tournament(event, read_only=True)
    try:
        assert len(list_players(db)) == 5  # warnings, not refusals
    finally:
        db.close()


def test_a_refused_form_lists_the_namesakes_with_its_problems(tmp_path: Path, capsys) -> None:
    event = tmp_path / "event.xqt"
    create_tournament(event, "tianshui-2024").close()
    twin = date(1991, 6, 2)
    form = _form(
        tmp_path / "form.xlsx",
        [  # rows 4 and 5: 王五 twice; row 6: no ID number, no birth date (refused)
            {"name": "王五", "id_number": make_id(twin, 3), "phone": "13800000002", "group": OPEN},
            {"name": "王五", "id_number": make_id(twin, 4), "phone": "13800000003", "group": OPEN},
            {"name": "赵六", "id_number": "123", "phone": "13800000004", "group": OPEN},
        ],
    )
    code = main(["import-players", str(event), str(form), "--override-deadline", "补报"])
    _out, err = capsys.readouterr()
    assert code == 2
    assert "未导入任何选手" in err and "第 6 行" in err
    assert sum("同名同出生日期" in line for line in err.splitlines()) == 2, err
