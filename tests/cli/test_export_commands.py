"""xqarbiter print / excel / html: files written on success; refusals on stderr, exit 2, no file."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.cli import main
from app.services.demo import create_demo
from app.services.registration import list_players
from app.services.results import enter_result
from app.services.rounds import pair_next_round, round_view

OPEN, LOCAL = "公开组", "天水本地组"


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "demo.xqt"
    db = create_demo(path, seed=2024)
    for group in (OPEN, LOCAL):
        pair_next_round(db, group, seed=1)
        for b in round_view(db, group, 1).boards:
            enter_result(db, group, 1, b.board, "1-0" if b.board % 3 else "=")
        pair_next_round(db, group, seed=2)
    db.close()
    return path


def text_of(path: Path) -> str:
    """The PDF's text, read by pdfium (the characters pypdf reads, many times sooner)."""
    document = pdfium.PdfDocument(path.read_bytes())
    try:
        return "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()


def test_print_table_cards_of_the_latest_round(event: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "cards.pdf"
    assert (
        main(["print", str(event), "table-cards", "--group", LOCAL, "--per-page", "4", "-o", str(out)]) == 0
    )
    reader = PdfReader(out)
    assert len(reader.pages) == 5  # 20 boards, 4 per page
    assert "第2轮" in text_of(out).replace(" ", "")
    assert str(out) in capsys.readouterr().out


def test_print_results_by_name_and_standings(event: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.pdf"
    assert (
        main(["print", str(event), "results", "--group", OPEN, "--round", "1", "--by-name", "-o", str(out)])
        == 0
    )
    assert "红胜" in text_of(out)
    out = tmp_path / "s.pdf"
    assert main(["print", str(event), "standings", "--group", OPEN, "-o", str(out)]) == 0
    assert "对手分" in text_of(out)


def test_payout_and_internal_entry_list_carry_the_numbers(event: Path, tmp_path: Path) -> None:
    from app.services.tournaments import open_tournament

    db = open_tournament(event, read_only=True)
    local = list_players(db, LOCAL)
    db.close()
    out = tmp_path / "e.pdf"
    assert main(["print", str(event), "entry-list", "--group", LOCAL, "--internal", "-o", str(out)]) == 0
    internal = text_of(out)  # read once, searched for every player
    assert all(p.id_number in internal for p in local)
    out = tmp_path / "e2.pdf"
    assert main(["print", str(event), "entry-list", "--group", LOCAL, "-o", str(out)]) == 0
    public = text_of(out)
    assert not any(p.id_number in public or p.phone in public for p in local)
    out = tmp_path / "pay.pdf"
    assert main(["print", str(event), "payout", "-o", str(out)]) == 0
    assert "内部" in text_of(out)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pairings"], "公开组、天水本地组"),  # several groups: the message names them
        (["results", "--group", OPEN, "--round", "3"], "尚未编排"),
        (["bracket", "--group", OPEN], "淘汰赛"),
        (["teams", "--group", LOCAL], "不设团体"),
        (["record-sheets", "--group", OPEN, "--round", "1"], "录谱"),
        (["menu", "--group", OPEN], "未知的文档"),
        (["pairings", "--group", OPEN, "--internal"], "内部"),
    ],
)
def test_refusals_exit_2_with_no_file(
    event: Path, tmp_path: Path, capsys, args: list[str], message: str
) -> None:
    out = tmp_path / "x.pdf"
    assert main(["print", str(event), *args, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and "(" in err  # Chinese, then English
    assert not out.exists()


def test_excel_and_html(event: Path, tmp_path: Path) -> None:
    xlsx = tmp_path / "r.xlsx"
    assert main(["excel", str(event), "-o", str(xlsx)]) == 0
    names = load_workbook(xlsx).sheetnames
    assert f"{OPEN}第1轮" in names and f"{LOCAL}名次表" in names and "操作日志" in names
    site = tmp_path / "site"
    assert main(["html", str(event), "-o", str(site)]) == 0
    assert (site / "index.html").exists()
    rounds = [p for p in site.glob("g*-r*.html") if re.fullmatch(r"g\d+-r\d+\.html", p.name)]
    assert len(rounds) == 4  # every paired round of every group
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("tmp")]  # no temporary folder left


def test_missing_file_is_a_clean_error(tmp_path: Path, capsys) -> None:
    assert main(["excel", str(tmp_path / "none.xqt"), "-o", str(tmp_path / "r.xlsx")]) == 2
    assert not (tmp_path / "r.xlsx").exists()
    assert capsys.readouterr().err


@pytest.mark.parametrize("fail", [False, True], ids=["written", "refused"])
@pytest.mark.parametrize(
    "argv",
    [
        ["print", "EVENT", "results-book", "-o", "OUT.pdf"],
        ["html", "EVENT", "-o", "OUT"],
        ["excel", "EVENT", "-o", "OUT.xlsx"],
        ["standings", "EVENT", "--group", OPEN],
    ],
    ids=["print", "html", "excel", "standings"],
)
def test_whole_event_commands_pause_the_collector_from_opening_the_file(
    event: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], fail: bool
) -> None:
    """The file is opened (and everything after) with Python's cyclic collector paused; it runs again
    once the command is over, also when the command is refused."""
    import gc

    import app.cli.exports as export_commands
    import app.cli.standings as standing_commands
    from app.db.lite import LiteFile
    from app.engine.types import UserError

    seen: list[bool] = []
    real = export_commands.open_file

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        if fail:
            raise UserError("坏文件", "a bad file")
        return real(*args, **kwargs)

    monkeypatch.setattr(export_commands, "open_file", watched)
    monkeypatch.setattr(standing_commands, "open_file", watched)
    # standings opens the file through sqlite3 when it can (app.services.faststandings)
    real_lite = LiteFile.open_for_reading

    def watched_lite(path):
        seen.append(gc.isenabled())
        if fail:
            raise UserError("坏文件", "a bad file")
        return real_lite(path)

    monkeypatch.setattr(LiteFile, "open_for_reading", staticmethod(watched_lite))
    assert gc.isenabled()
    frozen = gc.get_freeze_count()  # the test run's own heap, frozen after collection (tests/conftest.py)
    args = [str(event) if a == "EVENT" else a.replace("OUT", str(tmp_path / "out")) for a in argv]
    assert main(args) == (2 if fail else 0)
    assert seen == [False]
    assert gc.isenabled()
    # a process that goes on (here a test) keeps its collector's work: the command froze nothing more
    # (frozen objects freed meanwhile leave the count; a freeze would add every object made since)
    assert gc.get_freeze_count() <= frozen


#: runs the command line as ``python -m app.cli`` does, and says at the process's end how many objects
#: the collector had set aside for good (``gc.freeze``)
_AT_THE_END = (
    "import atexit, gc, runpy, sys; "
    "atexit.register(lambda: sys.stderr.write(f'frozen={gc.get_freeze_count()}\\n')); "
    "sys.argv = ['xqarbiter', *sys.argv[1:]]; runpy.run_module('app.cli', run_name='__main__')"
)


@pytest.mark.parametrize(
    ("argv", "whole_event"),
    [
        (["print", "EVENT", "avoidances", "--group", OPEN, "-o", "OUT.pdf"], True),
        (["print", "EVENT", "results", "--group", OPEN, "--round", "9", "-o", "OUT.pdf"], True),  # refused
        (["standings", "EVENT", "--group", OPEN], True),
        (["players", "EVENT", "--group", OPEN], False),
    ],
    ids=["print", "refused", "standings", "players"],
)
def test_a_whole_event_command_run_as_a_process_skips_the_collectors_last_passes(
    event: Path, tmp_path: Path, argv: list[str], whole_event: bool
) -> None:
    """``xqarbiter``/``python -m app.cli``: after a whole-event command the process ends, so what the
    command made is set aside (``gc.freeze``) instead of walked once more by the collector's first pass
    and again at the process's end; the output is the same."""
    import subprocess
    import sys

    args = [str(event) if a == "EVENT" else a.replace("OUT", str(tmp_path / "out")) for a in argv]
    done = subprocess.run(
        [sys.executable, "-c", _AT_THE_END, *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == (2 if "9" in argv else 0), done.stderr
    frozen = int(re.findall(r"frozen=(\d+)", done.stderr)[-1])
    if whole_event:
        assert frozen > 10_000  # the imports, the read model, the output
    else:
        assert frozen == 0
    if argv[-1] == "OUT.pdf":
        assert (tmp_path / "out.pdf").is_file() == (done.returncode == 0)
