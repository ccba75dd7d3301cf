"""The README's worked example, run command by command as a newcomer would type it.

The test fills in the registration form between ``template`` and ``import-players`` (as the teams do) and
enters the other boards' results before ``close-round`` (the example shows one); every command of the
example itself runs exactly as written and must succeed.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook

from app.cli import main
from app.reports.excel_template import FORM_COLUMNS, HEADER_ROW
from tests.factories import resident_id

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["张伟", "王芳", "李娜", "刘洋", "陈静", "杨帆", "赵磊", "黄敏", "周杰", "吴刚", "徐丽", "孙浩"]


def example_commands() -> list[list[str]]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## A worked example", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the worked example has no ```sh block"
    commands = [shlex.split(line, comments=True) for line in block.group(1).splitlines() if line.strip()]
    assert all(c[0] == "xqarbiter" for c in commands)
    return [c[1:] for c in commands]


def fill_form(path: Path, group: str) -> None:
    """Twelve players in the template the example exported, in the columns its header names."""
    wb = load_workbook(path)
    ws = wb.active
    assert ws is not None
    column = {c.field: i for i, c in enumerate(FORM_COLUMNS, start=1)}
    for k, name in enumerate(NAMES, start=1):
        row = HEADER_ROW + k
        values = {
            "name": name,
            "id_number": resident_id("620503", f"19{70 + k:02d}0{1 + k % 9}1{k % 10}", k),
            "phone": f"1390000{k:04d}",
            "group": group,
            "team": f"第{'一二三'[k % 3]}队",
            "fee_paid": "是",
            "checked_in": "是",
        }
        for field, value in values.items():
            ws.cell(row=row, column=column[field], value=value)
    wb.save(path)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_until_it_prints_its_address(args: list[str], cwd: Path) -> str:
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", *args, "--port", str(free_port())],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = []
        for line in process.stdout:
            lines.append(line)
            if "http://" in line:
                return "".join(lines)
        raise AssertionError("".join(lines) + (process.stderr.read() if process.stderr else ""))
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # still failing, but not left serving after the run
            process.kill()
            process.wait(timeout=30)
            raise


@pytest.mark.skipif(sys.platform == "win32", reason="Ctrl+C to a child process")
def test_the_worked_example_of_the_readme_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    commands = example_commands()
    assert [c[0] for c in commands] == [
        "new", "template", "import-players", "draw-numbers", "pair", "pairings", "result", "close-round",
        "standings", "print", "serve",
    ]  # fmt: skip
    event = commands[0][1]
    group = commands[3][commands[3].index("--group") + 1]
    for args in commands:
        if args[0] == "serve":
            assert "http://" in serve_until_it_prints_its_address(args, tmp_path)
            continue
        if args[0] == "close-round":  # the example enters board 1; the teams' arbiters the others
            for board in range(2, len(NAMES) // 2 + 1):
                assert (
                    main(["result", event, "--group", group, "--round", "1", "--board", str(board), "="]) == 0
                )
        assert main(args) == 0, f"xqarbiter {shlex.join(args)}: {capsys.readouterr().err}"
        out = capsys.readouterr().out
        if args[0] == "template":
            fill_form(tmp_path / args[1], group)
        if args[0] == "import-players":
            assert f"已导入 {len(NAMES)} 名棋手" in out
        if args[0] == "pairings":  # six boards, every player once
            assert sorted(name for name in NAMES if name in out) == sorted(NAMES)
    pdf = tmp_path / commands[9][commands[9].index("-o") + 1]
    assert pdf.read_bytes().startswith(b"%PDF")
