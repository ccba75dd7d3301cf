"""Regulations as files, officials, certificate template and the paperwork documents from the command
line — including the hostile and the absurd file."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from app.cli import main
from app.engine.regulations import PrizeCategory, legacy_group, preset, regulations_to_dict
from app.services.regulation_files import read_regulation_file
from app.services.simulation import play_random_results
from app.services.snapshot import import_snapshot
from app.services.tournaments import load_regulations, open_tournament
from tests.factories import player, snapshot


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_next_years_event_starts_from_this_years_regulation(tmp_path: Path, capsys) -> None:
    reg_file = tmp_path / "2025.toml"
    assert run(capsys, "preset-export", "tianshui-2024", str(reg_file))[0] == 0
    text = reg_file.read_text(encoding="utf-8")
    assert text.startswith("# 象棋赛事编排系统 规程文件") and 'event_name = "2024' in text
    edited = text.replace('event_name = "2024', 'event_name = "2025').replace(
        "late_entry_bye_compensation = false", "late_entry_bye_compensation = true"
    )
    edited += (
        '\n[[prizes]]\nname = "公开组女子"\ngroup = "公开组"\nkind = "individual"\namounts = [800, 500]\n'
        'category = "women"\nitems = ["奖杯"]\n'
        '\n[paperwork]\norganiser = "天水市总工会"\nseal = "竞赛组委会（盖章）"\n'
        '[[paperwork.officials]]\nrole = "裁判长"\nname = "高福荣"\n'
    )
    reg_file.write_text(edited, encoding="utf-8")
    event = tmp_path / "2025.xqt"
    code, out, _ = run(capsys, "new", str(event), "--regulation", str(reg_file))
    assert code == 0 and "规程文件" in out
    db = open_tournament(event)
    try:
        reg = load_regulations(db)
    finally:
        db.close()
    assert reg.event_name.startswith("2025") and reg.pairing.late_entry_bye_compensation
    assert reg.prizes[-1].category is PrizeCategory.WOMEN and reg.prizes[-1].items == ("奖杯",)
    code, out, _ = run(capsys, "officials", str(event), "--json")
    assert json.loads(out)["officials"] == [{"role": "裁判长", "name": "高福荣", "signs": True}]
    again = tmp_path / "again.toml"
    assert run(capsys, "regulation-export", str(event), str(again))[0] == 0
    assert read_regulation_file(again) == read_regulation_file(reg_file)  # the file round-trips exactly


def test_new_from_a_regulation_file_with_the_events_own_name_dates_and_groups(tmp_path: Path, capsys) -> None:
    """The regulation file gives the settings; --name/--start/--venue/--deadline/--groups this event's own
    (as they do for a preset: the new-event options and the regulation files together)."""
    reg_file = tmp_path / "last-year.toml"
    assert run(capsys, "preset-export", "tianshui-2024", str(reg_file))[0] == 0
    text = reg_file.read_text(encoding="utf-8").replace(
        "late_entry_bye_compensation = false", "late_entry_bye_compensation = true"
    )
    reg_file.write_text(text + '\n[paperwork]\norganiser = "天水市总工会"\n', encoding="utf-8")
    event = tmp_path / "2031.xqt"
    code, out, _ = run(
        capsys,
        "new",
        str(event),
        "--regulation",
        str(reg_file),
        "--name",
        "2031年职工象棋公开赛",
        "--start",
        "2031-07-25",
        "--venue",
        "天水市体育馆",
        "--groups",
        "公开组,女子组",
    )
    assert code == 0 and "规程文件 last-year.toml" in out and "2031-07-25—2031-07-27" in out
    db = open_tournament(event)
    try:
        reg = load_regulations(db)
    finally:
        db.close()
    assert (reg.event_name, str(reg.start_date), reg.venue) == (
        "2031年职工象棋公开赛",
        "2031-07-25",
        "天水市体育馆",
    )
    assert [g.name for g in reg.groups] == ["公开组", "女子组"]
    assert reg.pairing.late_entry_bye_compensation  # the file's setting
    assert str(reg.registration.deadline) == "2031-07-22 18:00:00"  # as long before the start as the file's
    assert json.loads(run(capsys, "officials", str(event), "--json")[1])["organiser"] == "天水市总工会"
    code, _, err = run(
        capsys, "new", str(tmp_path / "x.xqt"), "--preset", "tianshui-2024", "--regulation", str(reg_file)
    )
    assert code == 2 and "--regulation" in err and not (tmp_path / "x.xqt").exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"event_name = ", "不是有效的 TOML"),
        ("规程".encode("gbk"), "UTF-8"),
        (b'colour = "red"\n', "regulations.colour"),
        (b"\xef\xbb\xbf" + b"[paperwork]\n", "missing setting|缺少设置项"),
    ],
)
def test_a_bad_regulation_file_is_named_and_changes_nothing(
    tmp_path: Path, capsys, content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_bytes(content)
    code, _, err = run(capsys, "new", str(tmp_path / "x.xqt"), "--regulation", str(bad))
    assert code == 2 and "bad.toml" in err
    assert re.search(message, err), err
    assert not (tmp_path / "x.xqt").exists()


def test_missing_folder_and_oversized_files_are_refused(tmp_path: Path, capsys) -> None:
    event = tmp_path / "t.xqt"
    assert run(capsys, "new", str(event))[0] == 0
    before = load_regulations_of(event)
    for target, message in ((tmp_path / "none.toml", "找不到"), (tmp_path, "文件夹")):
        code, _, err = run(capsys, "regulation-import", str(event), str(target))
        assert code == 2 and message in err
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"#" * 1_100_000)
    code, _, err = run(capsys, "regulation-import", str(event), str(huge))
    assert code == 2 and "过大" in err
    assert load_regulations_of(event) == before
    code, _, err = run(capsys, "regulation-export", str(event), str(tmp_path))
    assert code == 2 and "文件夹" in err


def load_regulations_of(path: Path):
    db = open_tournament(path)
    try:
        return load_regulations(db)
    finally:
        db.close()


def test_an_import_the_event_refuses_changes_nothing(tmp_path: Path, capsys) -> None:
    event = tmp_path / "d.xqt"
    assert run(capsys, "demo", str(event), "--seed", "3")[0] == 0
    assert run(capsys, "pair", str(event), "--group", "天水本地组", "--seed", "1")[0] == 0
    other = tmp_path / "points.toml"
    run(capsys, "preset-export", "tianshui-2024", str(other))
    other.write_text(other.read_text(encoding="utf-8").replace("win = 2", "win = 3"), encoding="utf-8")
    before = load_regulations_of(event)  # the preset, with the demo's schedule
    assert before == dataclasses.replace(preset("tianshui-2024"), schedule=before.schedule)
    code, _, err = run(capsys, "regulation-import", str(event), str(other), "--reason", "试试")
    assert code == 2 and "计分办法" in err
    assert load_regulations_of(event) == before


def test_officials_certificate_template_and_the_paperwork_prints(tmp_path: Path, capsys) -> None:
    event = tmp_path / "d.xqt"
    assert run(capsys, "demo", str(event), "--seed", "4")[0] == 0
    code, _, err = run(capsys, "officials", str(event), "--set", "裁判长")
    assert code == 2 and "职务=姓名" in err
    code, out, _ = run(
        capsys,
        "officials",
        str(event),
        "--set",
        "裁判长=高福荣",
        "仲裁=李明",
        "--unsigned",
        "仲裁",
        "--organiser",
        "天水市总工会",
    )
    assert code == 0 and "仲裁：李明（不在名单上签字）" in out
    template = tmp_path / "cert.toml"
    template.write_text(
        'title = "获奖证书"\nbody = "{姓名}：荣获{奖项}{名次}，奖金{金额}。{签名}"\n', encoding="utf-8"
    )
    code, _, err = run(capsys, "certificate", str(event), "--template", str(template))
    assert code == 2 and "{签名}" in err
    template.write_text(
        'title = "获奖证书"\nbody = "{姓名}：\\n荣获{奖项}{名次}，奖金{金额}。"\n', encoding="utf-8"
    )
    code, out, _ = run(capsys, "certificate", str(event), "--template", str(template))
    assert code == 0 and 'title = "获奖证书"' in out
    out_pdf = tmp_path / "certs.pdf"
    code, _, err = run(capsys, "print", str(event), "certificates", "-o", str(out_pdf))
    assert code == 2 and "尚未编排" in err and not out_pdf.exists()  # nothing before round 1
    check_in = tmp_path / "check-in.pdf"
    code, _, _ = run(
        capsys,
        "print",
        str(event),
        "check-in",
        "--group",
        "天水本地组",
        "--order",
        "rating",
        "-o",
        str(check_in),
    )
    assert code == 0
    text = "".join(p.get_textpage().get_text_range() for p in pdfium.PdfDocument(str(check_in)))
    assert "报到表" in text and "按等级分排列" in text and "高福荣" in text
    code, _, err = run(
        capsys,
        "print",
        str(event),
        "standings",
        "--group",
        "天水本地组",
        "--order",
        "name",
        "-o",
        str(tmp_path / "s.pdf"),
    )
    assert code == 2 and "排列方式" in err
    for number in (1, 2):
        assert run(capsys, "pair", str(event), "--group", "天水本地组", "--seed", str(number))[0] == 0
        db = open_tournament(event)
        try:
            play_random_results(db, "天水本地组", number, seed=number)
        finally:
            db.close()
    code, _, err = run(capsys, "print", str(event), "certificates", "-o", str(out_pdf))
    assert code == 2 and "尚未结束" in err and not out_pdf.exists()  # no certificate for a provisional place
    book = tmp_path / "book.pdf"
    assert run(capsys, "print", str(event), "results-book", "-o", str(book))[0] == 0
    assert "暂列" in pdfium.PdfDocument(str(book))[0].get_textpage().get_text_range()


def test_certificates_once_the_group_is_over(tmp_path: Path, capsys) -> None:
    base = preset("tianshui-2024")
    reg = dataclasses.replace(
        base,
        groups=(legacy_group("公开组", True, rounds=3, swiss_rounds=3, knockout_size=0),),
        prizes=tuple(t for t in base.prizes if t.group == "公开组"),
    )
    data = snapshot([player(i, f"棋手{i}") for i in range(1, 9)])
    data["tournament"]["settings"] = regulations_to_dict(reg)
    data["groups"] = data["groups"][:1]
    event = tmp_path / "small.xqt"
    import_snapshot(data, event).close()
    template = tmp_path / "cert.toml"
    template.write_text(
        'title = "获奖证书"\nbody = "{姓名}：\\n荣获{奖项}{名次}，奖金{金额}。"\n', encoding="utf-8"
    )
    assert run(capsys, "certificate", str(event), "--template", str(template))[0] == 0
    for number in (1, 2, 3):
        assert run(capsys, "pair", str(event), "--group", "公开组", "--seed", str(number))[0] == 0
        db = open_tournament(event)
        try:
            play_random_results(db, "公开组", number, seed=number)
        finally:
            db.close()
    out_pdf = tmp_path / "certs.pdf"
    assert run(capsys, "print", str(event), "certificates", "-o", str(out_pdf))[0] == 0
    pages = pdfium.PdfDocument(str(out_pdf))
    assert len(pages) == 8  # 8 players: every individual place they can fill, no team of 4
    first = pages[0].get_textpage().get_text_range()
    assert "获奖证书" in first and "第一名" in first and "10,000 元" in first
