"""The corpus itself: bad, absurd and hostile inputs for every input path, by category.

Generated from tables (every numeric option × every hostile number, every output command × every bad
path, every free-text field × every hostile string, every snapshot field × every wrong value …) and
from seeded random mutations (TRF, PGN, JSON, flipped bytes in the tournament file), so that the
corpus is large and reproducible. See ``tests/corpus/harness.py`` for what is checked after each case.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sqlite3
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.corpus.harness import GROUP, Case, Outcome, form_row, shows_number, text_of, write_form

EVENT = "{ws}/event.xqt"

# --------------------------------------------------------------------------- numbers on the command line

HOSTILE_INTEGERS = (
    "0",
    "-1",
    "1e3",
    "x",
    "",
    "３",
    "0x10",
    "NaN",
    "1.5",
    "100000000000000000000",
    "9223372036854775808",
    "-9223372036854775809",
    "1" * 5000,
)

# (command line without the number, option); the number goes right after the option
NUMERIC_OPTIONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("result", EVENT, "--group", GROUP, "--board", "1", "1-0"), "--round"),
    (("result", EVENT, "--group", GROUP, "--round", "2", "1-0"), "--board"),
    (("result", EVENT, "--group", GROUP, "--round", "2", "--board", "1", "1-0"), "--game"),
    (("pair", EVENT, "--group", GROUP), "--seed"),
    (("unpair", EVENT, "--group", GROUP), "--round"),
    (("why", EVENT, "--group", GROUP, "--player", "1"), "--round"),
    (("why", EVENT, "--group", GROUP, "--round", "2"), "--player"),
    (("pairings", EVENT, "--group", GROUP), "--round"),
    (("results", EVENT, "--group", GROUP, "--in", "{ws}/results.json"), "--round"),
    (("close-round", EVENT, "--group", GROUP), "--round"),
    (("standings", EVENT, "--group", GROUP), "--after-round"),
    (("why-above", EVENT, "--group", GROUP, "1", "2"), "--after-round"),
    (("draw-colours", EVENT, "--group", GROUP), "--round"),
    (("violation", EVENT, "--round", "1", "--reason", "犯规"), "--player"),
    (("violation", EVENT, "--player", "1", "--reason", "犯规"), "--round"),
    (("forfeit", EVENT, "--player", "1", "--kind", "late"), "--round"),
    (("forfeit", EVENT, "--round", "2", "--kind", "late"), "--player"),
    (("forfeit", EVENT, "--round", "2", "--kind", "agreed", "--reason", "协商"), "--board"),
    (("withdraw", EVENT, "--reason", "因病"), "--player"),
    (("disqualify", EVENT, "--games", "annul", "--reason", "作弊"), "--player"),
    (("records-due", EVENT, "--group", GROUP), "--round"),
    (("hand-in", EVENT, "--group", GROUP, "--round", "1", "--moves", "30"), "--board"),
    (("hand-in", EVENT, "--group", GROUP, "--round", "1", "--board", "1"), "--moves"),
    (("hand-in", EVENT, "--group", GROUP, "--round", "1"), "--designate"),
    (("record", EVENT, "--group", GROUP, "--round", "1", "--pgn", "{ws}/game.pgn"), "--board"),
    (("record", EVENT, "--group", GROUP, "--board", "1", "--pgn", "{ws}/game.pgn"), "--round"),
    (("records", EVENT, "-o", "{ws}/out/r.pgn"), "--round"),
    (("print", EVENT, "pairings", "--group", GROUP, "-o", "{ws}/out/p.pdf"), "--round"),
    (("print", EVENT, "table-cards", "--group", GROUP, "-o", "{ws}/out/c.pdf"), "--per-page"),
    (("demo", "{ws}/demo.xqt"), "--players"),
    (("demo", "{ws}/demo.xqt", "--players", "8"), "--absent"),
    (("demo", "{ws}/demo.xqt", "--players", "8"), "--seed"),
    (("draw-numbers", EVENT, "--group", GROUP), "--seed"),
    (("simulate", "--rounds", "3"), "--players"),
    (("simulate", "--players", "10"), "--rounds"),
    (("simulate", "--players", "10", "--rounds", "2"), "--forfeit-rate"),
    (("image", EVENT, "standings", "--group", GROUP, "-o", "{ws}/out/s.png"), "--round"),
    (("image", EVENT, "standings", "--group", GROUP, "-o", "{ws}/out/s.png"), "--scale"),
    (("deputy", EVENT, "--boards", "1-3", "--name", "副裁判"), "--round"),
    (("pending", EVENT), "--round"),
    (("serve", EVENT), "--port"),
    # absence and re-entry, named pair avoidances
    (("excuse", EVENT, "--round", "3", "--reason", "请假"), "--player"),
    (("excuse", EVENT, "--player", "3", "--reason", "请假"), "--round"),
    (("cancel-excuse", EVENT, "--round", "3"), "--player"),
    (("cancel-excuse", EVENT, "--player", "3"), "--round"),
    (("reenter", EVENT, "--reason", "恢复"), "--player"),
    (("reenter", EVENT, "--player", "9", "--reason", "恢复"), "--from-round"),
    (("avoid", EVENT, "1", "5"), "--from-round"),
    (("avoid", EVENT, "1", "5"), "--to-round"),
)


def cli_numbers() -> list[Case]:
    cases = []
    for base, option in NUMERIC_OPTIONS:
        for value in HOSTILE_INTEGERS:
            shown = value if len(value) < 12 else value[:6] + f"…({len(value)})"
            cases.append(
                Case(
                    "CLI numbers",
                    f"{base[0]} {option} {shown!r}",
                    (*base, option, value),
                    outputs=("out/r.pgn", "out/p.pdf", "out/c.pdf", "out/s.png"),
                )
            )
    # positional numbers of why-above, avoid and unavoid
    for value in HOSTILE_INTEGERS:
        cases.append(
            Case(
                "CLI numbers",
                f"why-above A={value[:8]!r}",
                ("why-above", EVENT, "--group", GROUP, value, "2"),
            )
        )
        for command in ("avoid", "unavoid"):
            cases.append(Case("CLI numbers", f"{command} FIRST={value[:8]!r}", (command, EVENT, value, "2")))
            cases.append(Case("CLI numbers", f"{command} SECOND={value[:8]!r}", (command, EVENT, "1", value)))
    return cases


# --------------------------------------------------------------------------- the rest of the command line

HOSTILE_GROUPS = (
    "",
    " ",
    "少年组",
    "公开组\u202e",
    "公开组\u200b",
    "x" * 10_000,
    "'; DROP TABLE players; --",
    "公开组\x00",
)


def cli_arguments() -> list[Case]:
    cases = [
        Case("CLI arguments", "no command", (), expect="refuse"),
        Case("CLI arguments", "unknown command", ("frobnicate", EVENT), expect="refuse"),
        Case(
            "CLI arguments",
            "unknown option",
            ("standings", EVENT, "--group", GROUP, "--colour"),
            expect="refuse",
        ),
        Case("CLI arguments", "missing FILE", ("standings",), expect="refuse"),
        Case("CLI arguments", "missing required --group", ("pair", EVENT), expect="refuse"),
        Case(
            "CLI arguments",
            "bad choice --kind",
            ("forfeit", EVENT, "--round", "2", "--player", "1", "--kind", "sleep"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "bad choice --games",
            ("disqualify", EVENT, "--player", "1", "--games", "half", "--reason", "x"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "bad colour",
            ("choose-colour", EVENT, "--group", GROUP, "--match", "F", "green"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "choose-colour without a knockout",
            ("choose-colour", EVENT, "--group", GROUP, "--match", "F", "red"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "knockout before the split",
            ("knockout", EVENT, "--group", GROUP),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "bracket before the knockout",
            ("bracket", EVENT, "--group", GROUP),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "draw-colours bad manual",
            ("draw-colours", EVENT, "--group", GROUP, "--round", "9", "--manual", "QF1=x"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "draw-colours huge manual",
            ("draw-colours", EVENT, "--group", GROUP, "--round", "9", "--manual", "QF1=99999999999999999999"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "withdraw empty reason",
            ("withdraw", EVENT, "--player", "3", "--reason", ""),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "withdraw blank reason",
            ("withdraw", EVENT, "--player", "3", "--reason", "   "),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "disqualify empty reason",
            ("disqualify", EVENT, "--player", "3", "--games", "stand", "--reason", ""),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "violation empty reason",
            ("violation", EVENT, "--player", "3", "--round", "1", "--reason", ""),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "violation unknown kind",
            ("violation", EVENT, "--player", "3", "--round", "1", "--kind", "zombie", "--reason", "x"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "agreed without a board",
            ("forfeit", EVENT, "--round", "2", "--kind", "agreed", "--reason", "x"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "forfeit of a player with no game",
            ("forfeit", EVENT, "--round", "1", "--player", "99", "--kind", "late"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "result without a board",
            ("result", EVENT, "--group", GROUP, "1-0"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "knockout result without a game",
            ("result", EVENT, "--group", GROUP, "--match", "QF1", "1-0"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "correct a closed round without a reason",
            ("result", EVENT, "--group", GROUP, "--round", "1", "--board", "1", "1-0"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "hand-in without moves",
            ("hand-in", EVENT, "--group", GROUP, "--round", "1", "--board", "1"),
            expect="refuse",
        ),
        Case(
            "CLI arguments", "pair with results missing", ("pair", EVENT, "--group", GROUP), expect="refuse"
        ),
        Case(
            "CLI arguments",
            "close a round with results missing",
            ("close-round", EVENT, "--group", GROUP, "--round", "2"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "unpair a round with results",
            ("unpair", EVENT, "--group", GROUP, "--round", "2"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "draw numbers after round 1",
            ("draw-numbers", EVENT, "--group", GROUP),
            expect="refuse",
        ),
        Case(
            "CLI arguments", "unknown preset", ("new", "{ws}/n.xqt", "--preset", "nowhere"), expect="refuse"
        ),
        Case("CLI arguments", "new over an existing file", ("new", EVENT), expect="refuse"),
        Case(
            "CLI arguments",
            "import over an existing file",
            ("import", "{ws}/snapshot.json", EVENT),
            expect="refuse",
        ),
        Case(
            "CLI arguments", "demo with 0 players", ("demo", "{ws}/d.xqt", "--players", "0"), expect="refuse"
        ),
        Case(
            "CLI arguments", "demo with 3 players", ("demo", "{ws}/d.xqt", "--players", "3"), expect="refuse"
        ),
        Case(
            "CLI arguments",
            "demo over the capacity",
            ("demo", "{ws}/d.xqt", "--players", "161"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "demo with absent over a quarter",
            ("demo", "{ws}/d.xqt", "--players", "8", "--absent", "5"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "print unknown document",
            ("print", EVENT, "poster", "--group", GROUP, "-o", "{ws}/out/x.pdf"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "print a round not paired",
            ("print", EVENT, "results", "--group", GROUP, "--round", "7", "-o", "{ws}/out/x.pdf"),
            expect="refuse",
        ),
        Case("CLI arguments", "restore a missing backup", ("restore", EVENT, "nope.xqt"), expect="refuse"),
        Case(
            "CLI arguments",
            "restore another event's file",
            ("restore", EVENT, "{ws}/other.xqt"),
            expect="refuse",
        ),
        Case(
            "CLI arguments",
            "import-players empty override reason",
            ("import-players", EVENT, "{ws}/form.xlsx", "--override-deadline", ""),
            expect="refuse",
        ),
        Case("CLI arguments", "export-trf unknown group", ("export-trf", EVENT, "少年组"), expect="refuse"),
        Case("CLI arguments", "why-above same player", ("why-above", EVENT, "--group", GROUP, "1", "1")),
        Case(
            "CLI arguments",
            "records with none stored",
            ("records", EVENT, "-o", "{ws}/out/r.pgn"),
            expect="refuse",
        ),
        # the commands of absence, constraints and paperwork, each asked for what cannot be
        *(
            Case("CLI arguments", name, argv, expect="refuse")
            for name, argv in (
                (
                    "excuse a paired round",
                    ("excuse", EVENT, "--player", "3", "--round", "2", "--reason", "x"),
                ),
                (
                    "excuse past the last round",
                    ("excuse", EVENT, "--player", "3", "--round", "12", "--reason", "x"),
                ),
                (
                    "excuse an unknown player",
                    ("excuse", EVENT, "--player", "99", "--round", "3", "--reason", "x"),
                ),
                (
                    "excuse without a reason",
                    ("excuse", EVENT, "--player", "3", "--round", "3", "--reason", " "),
                ),
                ("cancel an absence never given", ("cancel-excuse", EVENT, "--player", "3", "--round", "3")),
                ("reenter an active player", ("reenter", EVENT, "--player", "3", "--reason", "恢复")),
                ("reenter without a reason", ("reenter", EVENT, "--player", "3", "--reason", "")),
                ("avoid a player with himself", ("avoid", EVENT, "4", "4")),
                ("avoid an unknown player", ("avoid", EVENT, "4", "99")),
                (
                    "avoid rounds backwards",
                    ("avoid", EVENT, "1", "5", "--from-round", "5", "--to-round", "3"),
                ),
                ("avoid past the last round", ("avoid", EVENT, "1", "5", "--from-round", "12")),
                ("unavoid a pair never kept apart", ("unavoid", EVENT, "1", "5")),
                ("officials ROLE without NAME", ("officials", EVENT, "--set", "裁判长")),
                ("officials empty ROLE", ("officials", EVENT, "--set", "=高福荣")),
                (
                    "new from a preset and a regulation",
                    ("new", "{ws}/n.xqt", "--preset", "tianshui-2024", "--regulation", "{ws}/reg.toml"),
                ),
                ("new with a bad start date", ("new", "{ws}/n.xqt", "--start", "2025-02-30")),
                (
                    "new ending before it starts",
                    ("new", "{ws}/n.xqt", "--start", "2025-08-01", "--end", "2025-07-01"),
                ),
                ("preset-export unknown preset", ("preset-export", "nowhere", "{ws}/out/p.toml")),
                (
                    "print certificates before the end",
                    ("print", EVENT, "certificates", "-o", "{ws}/out/c.pdf"),
                ),
                (
                    "print --order zombie",
                    (
                        "print",
                        EVENT,
                        "entry-list",
                        "--group",
                        GROUP,
                        "--order",
                        "zombie",
                        "-o",
                        "{ws}/out/e.pdf",
                    ),
                ),
            )
        ),
    ]
    for code in ("2-0", "", "1-0 ", "½", "red_win\x00", "RED_WIN", "1:0", "--x", "=" * 5000, "\u202e1-0"):
        cases.append(
            Case(
                "CLI arguments",
                f"result code {code[:10]!r}",
                ("result", EVENT, "--group", GROUP, "--round", "2", "--board", "2", code),
            )
        )
    for group in HOSTILE_GROUPS:
        shown = group[:12]
        cases += [
            Case(
                "CLI arguments",
                f"standings group {shown!r}",
                ("standings", EVENT, "--group", group),
                expect="refuse",
            ),
            Case(
                "CLI arguments", f"pair group {shown!r}", ("pair", EVENT, "--group", group), expect="refuse"
            ),
            Case(
                "CLI arguments",
                f"result group {shown!r}",
                ("result", EVENT, "--group", group, "--round", "2", "--board", "2", "="),
                expect="refuse",
            ),
            Case(
                "CLI arguments", f"teams group {shown!r}", ("teams", EVENT, "--group", group), expect="refuse"
            ),
        ]
    for match in ("", "qf1", "ZZ9", "F" * 1000, "QF1'--"):
        cases.append(
            Case(
                "CLI arguments",
                f"match {match[:8]!r}",
                ("result", EVENT, "--group", GROUP, "--match", match, "--game", "1", "1-0"),
                expect="refuse",
            )
        )
    return cases


# --------------------------------------------------------------------------- paths


def _read_only_dir(ws: Path) -> None:
    ro = ws / "ro"
    ro.mkdir()
    os.chmod(ro, 0o500)


def _read_only_target() -> str:
    """A folder this process cannot write (a read-only folder, or /sys when running as root)."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return "/sys/xq-corpus-out"
    return "{ws}/ro/out"


OUTPUT_COMMANDS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("print", ("print", EVENT, "standings", "--group", GROUP, "-o"), ".pdf"),
    ("image", ("image", EVENT, "standings", "--group", GROUP, "-o"), ".png"),
    ("excel", ("excel", EVENT, "-o"), ".xlsx"),
    ("records", ("records", EVENT, "-o"), ".pgn"),
    ("audit", ("audit", EVENT, "--out"), ".csv"),
    ("export-trf", ("export-trf", EVENT, GROUP, "--out"), ".trf"),
    ("export", ("export", EVENT), ".json"),
    ("template", ("template",), ".xlsx"),
    ("html", ("html", EVENT, "-o"), ""),
    ("new", ("new",), ".xqt"),
    ("demo", ("demo",), ".xqt"),
    ("import", ("import", "{ws}/snapshot.json"), ".xqt"),
    ("import-trf", ("import-trf", "{ws}/event.trf"), ".xqt"),
    ("print check-in", ("print", EVENT, "check-in", "--group", GROUP, "-o"), ".pdf"),
    ("print results-book", ("print", EVENT, "results-book", "-o"), ".pdf"),
    ("print avoidances", ("print", EVENT, "avoidances", "--group", GROUP, "-o"), ".pdf"),
    ("regulation-export", ("regulation-export", EVENT), ".toml"),
    ("preset-export", ("preset-export", "tianshui-2024"), ".toml"),
)


def _existing_file(name: str) -> Callable[[Path], None]:
    def make(ws: Path) -> None:
        (ws / name).write_text("old", encoding="utf-8")

    return make


def _records_stored(ws: Path) -> None:
    from app.services.game_records import attach_record
    from app.services.tournaments import open_tournament

    with open_tournament(ws / "event.xqt") as db:
        attach_record(db, GROUP, 1, 1, (ws / "game.pgn").read_bytes())


def paths() -> list[Case]:
    bad_paths: list[tuple[str, str, Callable[[Path], None] | None]] = [
        ("a folder", "{ws}/out", None),
        ("a missing folder", "{ws}/nowhere/x", None),
        ("under a file", "{ws}/event.trf/x", None),
        ("a read-only folder", _read_only_target() + "/x", _read_only_dir),
        ("a NUL byte", "{ws}/out/a\x00b", None),
        ("a 300-character name", "{ws}/out/" + "长" * 300, None),
        ("an empty path", "", None),
        ("a bidi name", "{ws}/out/\u202eabc", None),
    ]
    cases = []
    for name, base, suffix in OUTPUT_COMMANDS:
        for label, target, prepare in bad_paths:
            path = target + suffix if target and target != "{ws}/out" else target
            prep = prepare
            if name == "records":
                prep = _chain(prepare, _records_stored)
            cases.append(Case("Output and input paths", f"{name} to {label}", (*base, path), prepare=prep))
    # an html target that is an existing file; an existing PDF is replaced whole
    cases.append(
        Case(
            "Output and input paths",
            "html onto an existing file",
            ("html", EVENT, "-o", "{ws}/page.html"),
            prepare=_existing_file("page.html"),
            expect="refuse",
        )
    )
    cases.append(
        Case(
            "Output and input paths",
            "regulation-export over an existing file",
            ("regulation-export", EVENT, "{ws}/old.toml"),
            prepare=_existing_file("old.toml"),
            expect="accept",
        )
    )
    cases.append(
        Case(
            "Output and input paths",
            "print over an existing file",
            ("print", EVENT, "standings", "--group", GROUP, "-o", "{ws}/old.pdf"),
            prepare=_existing_file("old.pdf"),
            expect="accept",
        )
    )
    # FILE given as every kind of wrong thing, to every kind of command
    wrong_files: list[tuple[str, str, Callable[[Path], None] | None]] = [
        ("missing", "{ws}/missing.xqt", None),
        ("a folder", "{ws}/out", None),
        ("empty", "{ws}/empty.xqt", _existing_bytes("empty.xqt", b"")),
        ("text", "{ws}/text.xqt", _existing_bytes("text.xqt", "不是数据库\n".encode() * 100)),
        ("a PNG", "{ws}/img.xqt", _existing_bytes("img.xqt", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20)),
        ("another SQLite database", "{ws}/foreign.xqt", _foreign_sqlite),
        ("a NUL path", "{ws}/a\x00.xqt", None),
    ]
    commands = (
        ("standings", "--group", GROUP),
        ("result", "--group", GROUP, "--round", "2", "--board", "2", "="),
        ("players",),
        ("check-file",),
        ("backups",),
        ("audit",),
        ("export-trf", GROUP),
        ("excel", "-o", "{ws}/out/x.xlsx"),
    )
    for label, path, prepare in wrong_files:
        for cmd in commands:
            argv = (cmd[0], path, *cmd[1:])
            # the backups of a damaged file are listed (that is how it is repaired)
            listing = cmd[0] == "backups" and label not in ("missing", "a folder")
            expect = "either" if listing else "refuse"
            cases.append(
                Case(
                    "Output and input paths",
                    f"{cmd[0]} on {label} FILE",
                    argv,
                    prepare=prepare,
                    expect=expect,
                )
            )
    inputs = [
        ("import-players form missing", ("import-players", EVENT, "{ws}/none.xlsx")),
        ("import-players form is a folder", ("import-players", EVENT, "{ws}/out")),
        (
            "results --in missing",
            ("results", EVENT, "--group", GROUP, "--round", "2", "--in", "{ws}/none.json"),
        ),
        ("results --in folder", ("results", EVENT, "--group", GROUP, "--round", "2", "--in", "{ws}/out")),
        (
            "record --pgn missing",
            ("record", EVENT, "--group", GROUP, "--round", "1", "--board", "1", "--pgn", "{ws}/none.pgn"),
        ),
        (
            "record --pgn folder",
            ("record", EVENT, "--group", GROUP, "--round", "1", "--board", "1", "--pgn", "{ws}/out"),
        ),
        ("import snapshot missing", ("import", "{ws}/none.json", "{ws}/n.xqt")),
        ("import snapshot folder", ("import", "{ws}/out", "{ws}/n.xqt")),
        ("import-trf missing", ("import-trf", "{ws}/none.trf", "{ws}/n.xqt")),
        ("check snapshot missing", ("check", "{ws}/none.json")),
        ("restore from a folder", ("restore", EVENT, "{ws}/out")),
        ("regulation-import file missing", ("regulation-import", EVENT, "{ws}/none.toml")),
        ("regulation-import file is a folder", ("regulation-import", EVENT, "{ws}/out")),
        ("new --regulation missing", ("new", "{ws}/n.xqt", "--regulation", "{ws}/none.toml")),
        ("new --regulation folder", ("new", "{ws}/n.xqt", "--regulation", "{ws}/out")),
        ("certificate --template missing", ("certificate", EVENT, "--template", "{ws}/none.toml")),
        ("certificate --template folder", ("certificate", EVENT, "--template", "{ws}/out")),
    ]
    for label, argv in inputs:
        cases.append(Case("Output and input paths", label, argv, expect="refuse"))
    return cases


def _chain(*steps: Callable[[Path], None] | None) -> Callable[[Path], None]:
    def run(ws: Path) -> None:
        for step in steps:
            if step is not None:
                step(ws)

    return run


def _existing_bytes(name: str, data: bytes) -> Callable[[Path], None]:
    def make(ws: Path) -> None:
        (ws / name).write_bytes(data)

    return make


def _foreign_sqlite(ws: Path) -> None:
    con = sqlite3.connect(ws / "foreign.xqt")
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()


# --------------------------------------------------------------------------- hostile strings and privacy

HOSTILE_NUMBERS = ("13900000526", "E12345678", "H87654321", "87654321", "110105194912310021")

HOSTILE_TEXTS: tuple[tuple[str, str, str], ...] = (
    # (label, text, expectation: "refuse" for characters that must never be stored, "either" otherwise)
    ("NUL", "迟到\x00", "refuse"),
    ("BEL", "迟到\x07", "refuse"),
    ("ANSI escape", "\x1b[31m迟到\x1b[0m", "refuse"),
    ("RLO bidi override", "迟到\u202e", "refuse"),
    ("bidi isolate", "\u2066迟到\u2069", "refuse"),
    ("zero-width space", "迟\u200b到", "refuse"),
    ("zero-width joiner", "迟\u200d到", "refuse"),
    ("BOM inside", "迟\ufeff到", "refuse"),
    ("line separator", "迟\u2028到", "refuse"),
    ("32,767 characters", "长" * 32_767, "refuse"),
    ("501 characters", "长" * 501, "refuse"),
    ("=HYPERLINK", '=HYPERLINK("http://x.example/a","点我")', "either"),
    ("+cmd", "+cmd|' /C calc'!A0", "either"),
    ("-2+3", "-2+3", "either"),
    ("@SUM", "@SUM(1+1)*cmd|' /C calc'!A0", "either"),
    ("tab formula", "\t=1+1", "either"),
    ("phone with dashes", "联系 139-0000-0526 说明", "either"),
    ("phone +86", "联系 +86 139 0000 0526", "either"),
    ("passport", "护照 E12345678 已核对", "either"),
    ("HK permit", "回乡证 H8765 4321", "either"),
    ("Taiwan permit", "台胞证 87654321", "either"),
    ("resident ID spaced", "身份证 110105 19491231 0021", "either"),
    # round three: separators the registration does not accept, full-width digits
    ("phone in slashes", "联系 139/0000/0526 说明", "either"),
    ("phone in ideographic commas", "电话139、0000、0526", "either"),
    ("phone in full-width digits", "电话：１３９００００５２６", "either"),
    ("resident ID with colons and underscores", "证件 110105:1949_1231:0021", "either"),
    ("Windows path", r"见 C:\Users\张三\Desktop\赛事.xqt", "either"),
    ("POSIX path", "见 /home/zhangsan/赛事.xqt", "either"),
    ("decomposed accent", "Re\u0301sume\u0301", "either"),
    ("emoji", "迟到⏰", "either"),
    ("SQL", "'); DROP TABLE audit_log; --", "either"),
    ("HTML", "<script>alert(1)</script>", "either"),
)


def _no_live_formula(ws: Path, outcome: Outcome) -> list[str]:
    """After an accepted text: the audit CSV shows no formula, the workbook holds none."""
    from app.cli import main

    problems = []
    if outcome.code != 0:
        return problems
    csv_path = ws / "out" / "audit.csv"
    xlsx = ws / "out" / "book.xlsx"
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        if main(["audit", str(ws / "event.xqt"), "--out", str(csv_path)]) != 0:
            return ["audit export failed"]
        if main(["excel", str(ws / "event.xqt"), "-o", str(xlsx)]) != 0:
            return ["excel export failed"]
    import csv

    with open(csv_path, encoding="utf-8-sig", newline="") as f:
        for row in csv.reader(f):
            for cell in row:
                if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                    problems.append(f"live formula in the audit CSV: {cell[:30]!r}")
    with zipfile.ZipFile(xlsx) as z:
        for n in z.namelist():
            if n.startswith("xl/worksheets/") and "<f>" in z.read(n).decode("utf-8", "replace"):
                problems.append(f"a formula in {n}")
    text = text_of(xlsx)
    for number in HOSTILE_NUMBERS:
        if shows_number(number, text):
            problems.append(f"{number[:3]}… shown in the workbook")
    for folder in ("Users", "zhangsan", "Desktop"):
        if folder in text:
            problems.append(f"the folder {folder!r} shown in the workbook")
    return problems


TEXT_FIELDS: tuple[tuple[str, Callable[[str], tuple[str, ...]]], ...] = (
    ("violation reason", lambda t: ("violation", EVENT, "--player", "3", "--round", "2", "--reason", t)),
    (
        "forfeit reason",
        lambda t: ("forfeit", EVENT, "--round", "2", "--player", "6", "--kind", "late", "--reason", t),
    ),
    ("withdraw reason", lambda t: ("withdraw", EVENT, "--player", "9", "--reason", t)),
    (
        "disqualify reason",
        lambda t: ("disqualify", EVENT, "--player", "10", "--games", "annul", "--reason", t),
    ),
    (
        "correction reason",
        lambda t: ("result", EVENT, "--group", GROUP, "--round", "1", "--board", "2", "--reason", t, "0-1"),
    ),
    ("event name", lambda t: ("new", "{ws}/named.xqt", "--name", t)),
)


def _withdrawn_nine(ws: Path) -> None:
    from app.services.registration import list_players, withdraw_player
    from app.services.tournaments import open_tournament

    with open_tournament(ws / "event.xqt") as db:
        withdraw_player(db, next(p.id for p in list_players(db, GROUP) if p.no == 9), reason="因病")


def _certificate_file(text: str) -> Callable[[Path], None]:
    def make(ws: Path) -> None:
        import tomli_w

        (ws / "cert.toml").write_text(tomli_w.dumps({"title": "荣誉证书", "body": text}), encoding="utf-8")

    return make


#: the free texts of absence, constraints and paperwork: (label, command line, preparation, labels of HOSTILE_TEXTS the field may hold)
TEXT_FIELDS_16: tuple[
    tuple[str, Callable[[str], tuple[str, ...]], Callable[[str], Any] | None, frozenset[str]], ...
] = (
    (
        "excuse reason",
        lambda t: ("excuse", EVENT, "--player", "3", "--round", "3", "--reason", t),
        None,
        frozenset(),
    ),
    (
        "reenter reason",
        lambda t: ("reenter", EVENT, "--player", "9", "--reason", t),
        lambda t: _withdrawn_nine,
        frozenset(),
    ),
    ("avoidance reason", lambda t: ("avoid", EVENT, "1", "5", "--reason", t), None, frozenset()),
    ("official's name", lambda t: ("officials", EVENT, "--set", f"裁判长={t}"), None, frozenset()),
    ("official's role", lambda t: ("officials", EVENT, "--set", f"{t}=高福荣"), None, frozenset()),
    ("organiser", lambda t: ("officials", EVENT, "--organiser", t), None, frozenset()),
    ("seal line", lambda t: ("officials", EVENT, "--seal", t), None, frozenset()),
    (
        "certificate body",
        lambda t: ("certificate", EVENT, "--template", "{ws}/cert.toml"),
        _certificate_file,
        frozenset({"501 characters"}),  # a certificate's body holds 2,000
    ),
)


def _no_number_in_public_papers(ws: Path, outcome: Outcome) -> list[str]:
    """After an accepted paperwork text: the results book (public) shows no personal number or folder."""
    import contextlib
    import io

    import pypdfium2 as pdfium

    from app.cli import main

    if outcome.code != 0:
        return []
    book = ws / "out" / "book.pdf"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        if main(["print", str(ws / "event.xqt"), "results-book", "-o", str(book)]) != 0:
            return ["the results book could not be printed"]
    pdf = pdfium.PdfDocument(book.read_bytes())
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf))).replace(" ", "")
    pdf.close()
    problems = [f"{n[:3]}… in the results book" for n in HOSTILE_NUMBERS if shows_number(n, text)]
    return problems + [f"the folder {f!r} in the results book" for f in ("Users", "zhangsan") if f in text]


def _form_with(field: str, text: str) -> Callable[[Path], None]:
    def make(ws: Path) -> None:
        second = form_row(32, text) if field == "姓名" else form_row(32, "新棋手丁", **{field: text})
        write_form(ws / "hostile.xlsx", [form_row(31, "新棋手丙"), second])

    return make


def _storable_in_xlsx(text: str) -> str:
    """What an .xlsx cell can hold at all (the format has no control characters)."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    return ILLEGAL_CHARACTERS_RE.sub("", text)


def hostile_strings() -> list[Case]:
    cases = []
    for label, text, expect in HOSTILE_TEXTS:
        for field_label, argv in TEXT_FIELDS:
            check = _no_live_formula if field_label in ("violation reason", "correction reason") else None
            cases.append(
                Case(
                    "Hostile strings and privacy",
                    f"{field_label}: {label}",
                    argv(text),
                    check=check,
                    expect=expect,
                )
            )
        for field_label, argv, prepare, may_hold in TEXT_FIELDS_16:
            public = field_label in (
                "official's name",
                "official's role",
                "organiser",
                "seal line",
                "certificate body",
            )
            cases.append(
                Case(
                    "Hostile strings and privacy",
                    f"{field_label}: {label}",
                    argv(text),
                    prepare=None if prepare is None else prepare(text),
                    check=_no_number_in_public_papers if public else None,
                    expect="either" if label in may_hold else expect,
                )
            )
        storable = _storable_in_xlsx(text)
        for column in ("姓名", "单位", "备注", "代表队", "地区"):
            cases.append(
                Case(
                    "Hostile strings and privacy",
                    f"form {column}: {label}",
                    ("import-players", EVENT, "{ws}/hostile.xlsx", "--override-deadline", "补报"),
                    prepare=_form_with(column, storable),
                    check=_no_live_formula,
                    expect=expect if storable == text else "either",
                )
            )
    return cases


# --------------------------------------------------------------------------- JSON documents

WRONG_VALUES: tuple[tuple[str, Any], ...] = (
    ("null", None),
    ("text", "x"),
    ("10^20", 10**20),
    ("2^63", 2**63),
    ("-1", -1),
    ("0", 0),
    ("true", True),
    ('"false"', "false"),
    ("1.5", 1.5),
    ("list", []),
    ("object", {}),
    ("zombie", "zombie"),
    ("bidi", "王\u202e五"),
)

SNAPSHOT_FIELDS: tuple[tuple[str, ...], ...] = (
    ("players",),
    ("rounds",),
    ("groups",),
    ("tournament", "name"),
    ("tournament", "start_date"),
    ("tournament", "settings"),
    ("players", 0, "no"),
    ("players", 0, "name"),
    ("players", 0, "status"),
    ("players", 0, "fee_paid"),
    ("players", 0, "rating"),
    ("players", 0, "birth_date"),
    ("players", 0, "group"),
    ("players", 0, "team"),
    ("players", 0, "id_number"),
    ("players", 0, "gender"),
    ("rounds", 0, "round"),
    ("rounds", 0, "seed"),
    ("rounds", 0, "games", 0, "board"),
    ("rounds", 0, "games", 0, "red"),
    ("rounds", 0, "games", 0, "result"),
    ("rounds", 0, "games", 0, "kind"),
    ("rounds", 0, "byes"),
    ("groups", 0, "teams"),
    ("violations",),
    ("tournament", "settings", "points", "win"),
    # region, absences, named pair avoidances, paperwork
    ("players", 0, "region"),
    ("players", 0, "reentry_round"),
    ("absences",),
    ("pair_avoidances",),
    ("paperwork",),
    ("tournament", "settings", "pairing", "avoidances"),
    ("tournament", "settings", "prize_rules", "withholding_percent"),
)


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        doc = doc[key]
    doc[path[-1]] = value


def _write_doc(name: str, text: str | bytes) -> Callable[[Path], None]:
    def make(ws: Path) -> None:
        (ws / name).write_bytes(text.encode("utf-8") if isinstance(text, str) else text)

    return make


def _mutated_snapshot(path: tuple[Any, ...], value: Any) -> Callable[[Path], None]:
    def make(ws: Path) -> None:
        doc = json.loads((ws / "snapshot.json").read_text(encoding="utf-8"))
        _set(doc, path, value)
        (ws / "bad.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")

    return make


def _edited_snapshot(edit: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def make(ws: Path) -> None:
        doc = json.loads((ws / "snapshot.json").read_text(encoding="utf-8"))
        edit(doc)
        (ws / "bad.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")

    return make


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.random()
    if depth > 4 or pick < 0.35:
        return rng.choice(
            [None, True, False, 0, -1, 2**64, 1.5, "", "x", "王\u202e", "1-0", "red_win", "公开组"]
        )
    if pick < 0.65:
        return [_random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = [
        "format",
        "version",
        "players",
        "rounds",
        "groups",
        "tournament",
        "board",
        "result",
        "no",
        "name",
        "x",
    ]
    return {rng.choice(keys): _random_json(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def json_documents() -> list[Case]:
    cases = []
    importing = ("import", "{ws}/bad.json", "{ws}/new.xqt")
    for path in SNAPSHOT_FIELDS:
        for label, value in WRONG_VALUES:
            cases.append(
                Case(
                    "JSON documents (snapshot, results)",
                    f"snapshot {'.'.join(map(str, path))} = {label}",
                    importing,
                    prepare=_mutated_snapshot(path, value),
                )
            )
    edits: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
        ("duplicate player number", lambda d: d["players"][1].update(no=d["players"][0]["no"])),
        ("duplicate ID number", lambda d: d["players"][1].update(id_number=d["players"][0]["id_number"])),
        ("duplicate round", lambda d: d["rounds"].append(dict(d["rounds"][0]))),
        ("duplicate board", lambda d: d["rounds"][0]["games"].append(dict(d["rounds"][0]["games"][0]))),
        ("duplicate group", lambda d: d["groups"].append(dict(d["groups"][0]))),
        (
            "player paired with himself",
            lambda d: d["rounds"][0]["games"][0].update(black=d["rounds"][0]["games"][0]["red"]),
        ),
        (
            "player twice in a round",
            lambda d: d["rounds"][0]["games"][1].update(red=d["rounds"][0]["games"][0]["red"]),
        ),
        (
            "bye for a player with a game",
            lambda d: d["rounds"][0]["byes"].append(d["rounds"][0]["games"][0]["red"]),
        ),
        ("round 0", lambda d: d["rounds"][0].update(round=0)),
        ("round -3", lambda d: d["rounds"][0].update(round=-3)),
        ("round past the last", lambda d: d["rounds"][0].update(round=31)),
        ("negative points", lambda d: d["tournament"]["settings"]["points"].update(win=-2)),
        ("unknown setting", lambda d: d["tournament"]["settings"].update(colour="blue")),
        (
            "violation of unknown kind",
            lambda d: d["violations"].append({"player": 1, "group": GROUP, "round": 1, "kind": "zombie"}),
        ),
        (
            "violation without group, two groups",
            lambda d: d["violations"].append({"player": 1, "round": 1, "kind": "other"}),
        ),
        (
            "violation of an unknown player",
            lambda d: d["violations"].append({"player": 99, "group": GROUP, "round": 1, "kind": "other"}),
        ),
        (
            "record of an unknown game",
            lambda d: d["records"].append({"group": GROUP, "round": 9, "board": 1}),
        ),
        (
            "knockout match twice",
            lambda d: d["knockout"].extend([{"group": GROUP, "code": "F", "round": 9}] * 2),
        ),
        ("game of an unknown match", lambda d: d["rounds"][0]["games"][0].update(match="QF9", kind="slow")),
        ("unknown top-level field", lambda d: d.update(extra=1)),
        ("format wrong", lambda d: d.update(format="other")),
        ("version 2", lambda d: d.update(version=2)),
        ("time zone on a time", lambda d: d["rounds"][0].update(paired_at="2024-07-26T09:00:00+08:00")),
        ("timestamp as a number", lambda d: d["players"][0].update(birth_date=0)),
        ("explanation 40 deep", lambda d: d["rounds"][0].update(explanation=_nested(40))),
        ("status zombie everywhere", lambda d: [p.update(status="zombie") for p in d["players"]]),
        (
            "player without birth date or resident ID",
            lambda d: d["players"][0].update(id_type="passport", id_number="E1234567", birth_date=None),
        ),
        ("audit line with a control character", lambda d: d["audit"].append({"action": "x\x1b[2J"})),
        # the keys of absence, constraints and paperwork
        (
            "absence of an unknown player",
            lambda d: d.update(absences=[{"group": GROUP, "player": 99, "round": 3}]),
        ),
        (
            "absence past the last round",
            lambda d: d.update(absences=[{"group": GROUP, "player": 3, "round": 12}]),
        ),
        ("absence twice", lambda d: d.update(absences=[{"group": GROUP, "player": 3, "round": 3}] * 2)),
        (
            "absence round as text",
            lambda d: d.update(absences=[{"group": GROUP, "player": 3, "round": "三"}]),
        ),
        (
            "absence reason with a bidi override",
            lambda d: d.update(absences=[{"group": GROUP, "player": 3, "round": 3, "reason": "病\u202e假"}]),
        ),
        (
            "avoidance with himself",
            lambda d: d.update(pair_avoidances=[{"group": GROUP, "first": 2, "second": 2}]),
        ),
        (
            "avoidance twice",
            lambda d: d.update(
                pair_avoidances=[
                    {"group": GROUP, "first": 1, "second": 2},
                    {"group": GROUP, "first": 2, "second": 1},
                ]
            ),
        ),
        (
            "avoidance strength zombie",
            lambda d: d.update(
                pair_avoidances=[{"group": GROUP, "first": 1, "second": 2, "strength": "zombie"}]
            ),
        ),
        (
            "avoidance rounds backwards",
            lambda d: d.update(
                pair_avoidances=[{"group": GROUP, "first": 1, "second": 2, "from_round": 4, "to_round": 2}]
            ),
        ),
        (
            "avoidance of an unknown group",
            lambda d: d.update(pair_avoidances=[{"group": "少年组", "first": 1, "second": 2}]),
        ),
        ("re-entry past the last round", lambda d: d["players"][0].update(reentry_round=31)),
        ("region with a zero-width space", lambda d: d["players"][0].update(region="甘\u200b肃")),
        (
            "paperwork unknown placeholder",
            lambda d: d.update(paperwork={"certificate": {"body": "{昵称}获奖"}}),
        ),
        ("paperwork brace left open", lambda d: d.update(paperwork={"certificate": {"title": "{姓名"}})),
        (
            "paperwork official without a role",
            lambda d: d.update(paperwork={"officials": [{"role": " ", "name": "高福荣"}]}),
        ),
        (
            "paperwork official's name with a control character",
            lambda d: d.update(paperwork={"officials": [{"role": "裁判长", "name": "高\x1b福荣"}]}),
        ),
        (
            "paperwork organiser with a phone number",
            lambda d: d.update(paperwork={"organiser": "联系 13900000526"}),
        ),
        (
            "paperwork 51 officials",
            lambda d: d.update(paperwork={"officials": [{"role": "裁判", "name": "某"}] * 51}),
        ),
        (
            "paperwork body of 2,001 characters",
            lambda d: d.update(paperwork={"certificate": {"body": "长" * 2001}}),
        ),
        ("paperwork unknown field", lambda d: d.update(paperwork={"stamp": "x"})),
        (
            "prize table region with a control character",
            lambda d: d["tournament"]["settings"]["prizes"][0].update(category="local", regions=["天\x07水"]),
        ),
    ]
    for label, edit in edits:
        cases.append(
            Case(
                "JSON documents (snapshot, results)",
                f"snapshot: {label}",
                importing,
                prepare=_edited_snapshot(edit),
                expect="refuse",
            )
        )

    def one_group_violation(d: dict[str, Any]) -> None:
        d["groups"] = [g for g in d["groups"] if g["name"] == GROUP]
        d["violations"].append({"player": 1, "round": 1, "kind": "other", "reason": "一个组别时可省略组别"})

    cases.append(
        Case(
            "JSON documents (snapshot, results)",
            "snapshot: violation without group, one group",
            importing,
            prepare=_edited_snapshot(one_group_violation),
            expect="accept",
            check=_violation_in_group,
        )
    )
    raw = [
        ("empty file", b""),
        ("not JSON", b"{not json"),
        ("BOM then JSON list", "\ufeff[]".encode()),
        ("GBK bytes", '{"format": "xqarbiter-snapshot", "name": "象棋"}'.encode("gbk")),
        ("duplicate keys", b'{"format": "xqarbiter-snapshot", "format": "x", "version": 1}'),
        ("NaN", b'{"format": "xqarbiter-snapshot", "version": NaN}'),
        ("Infinity", b'{"version": Infinity}'),
        ("100,000 deep", b"[" * 100_000 + b"]" * 100_000),
        ("5,000-digit integer", b'{"version": ' + b"9" * 5000 + b"}"),
        ("trailing garbage", b'{"format": "xqarbiter-snapshot"} x'),
        ("a JSON string", b'"xqarbiter-snapshot"'),
        ("lone surrogate", b'{"format": "\\ud800"}'),
        ("NUL bytes", b"\x00" * 100),
    ]
    for label, data in raw:
        cases.append(
            Case(
                "JSON documents (snapshot, results)",
                f"snapshot file: {label}",
                importing,
                prepare=_write_doc("bad.json", data),
                expect="refuse",
            )
        )
        cases.append(
            Case(
                "JSON documents (snapshot, results)",
                f"check file: {label}",
                ("check", "{ws}/bad.json"),
                prepare=_write_doc("bad.json", data),
                expect="refuse",
            )
        )
    # the bulk results file
    results = ("results", EVENT, "--group", GROUP, "--round", "2", "--in", "{ws}/bad.json")
    result_docs: list[tuple[str, Any]] = [
        ("an object", {"board": 2, "result": "draw"}),
        ("null", None),
        ("board as text", [{"board": "2", "result": "draw"}]),
        ("board true", [{"board": True, "result": "draw"}]),
        ("board 1.0", [{"board": 1.0, "result": "draw"}]),
        ("board 0", [{"board": 0, "result": "draw"}]),
        ("board -1", [{"board": -1, "result": "draw"}]),
        ("board 10^20", [{"board": 10**20, "result": "draw"}]),
        ("board 2^63", [{"board": 2**63, "result": "draw"}]),
        ("board missing", [{"result": "draw"}]),
        ("result missing", [{"board": 2}]),
        ("result 1", [{"board": 2, "result": 1}]),
        ("result null", [{"board": 2, "result": None}]),
        ("result zombie", [{"board": 2, "result": "zombie"}]),
        ("extra field", [{"board": 2, "result": "draw", "note": "x"}]),
        ("same board twice", [{"board": 2, "result": "draw"}, {"board": 2, "result": "1-0"}]),
        ("board not in the round", [{"board": 99, "result": "draw"}]),
        ("reset to pending without a reason", [{"board": 1, "result": "pending"}]),
        ("10,001 entries", [{"board": 2, "result": "draw"}] * 10_001),
    ]
    for label, doc in result_docs:
        cases.append(
            Case(
                "JSON documents (snapshot, results)",
                f"results: {label}",
                results,
                prepare=_write_doc("bad.json", json.dumps(doc)),
                expect="refuse",
            )
        )
    cases.append(
        Case(
            "JSON documents (snapshot, results)",
            "results: BOM",
            results,
            prepare=_write_doc("bad.json", "\ufeff" + json.dumps([{"board": 2, "result": "draw"}])),
            expect="accept",
        )
    )
    cases.append(
        Case(
            "JSON documents (snapshot, results)",
            "results: reset to pending with a reason",
            (*results, "--reason", "录错台次"),
            prepare=_write_doc("bad.json", json.dumps([{"board": 1, "result": "pending"}])),
            expect="accept",
        )
    )
    rng = random.Random(20240726)
    for i in range(60):
        doc = _random_json(rng)
        target = importing if i % 2 == 0 else results
        cases.append(
            Case(
                "JSON documents (snapshot, results)",
                f"random document {i}",
                target,
                prepare=_write_doc("bad.json", json.dumps(doc)),
            )
        )
    return cases


def _violation_in_group(ws: Path, outcome: Outcome) -> list[str]:
    con = sqlite3.connect(ws / "new.xqt")
    try:
        found = con.execute(
            "SELECT count(*) FROM violations v JOIN players p ON p.id = v.player_id "
            "JOIN groups g ON g.id = p.group_id WHERE v.reason = '一个组别时可省略组别' AND g.name = ?",
            (GROUP,),
        ).fetchone()[0]
    finally:
        con.close()
    return [] if found == 1 else ["the violation without a group was not stored in the only group"]


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"x": value}
    return value


# --------------------------------------------------------------------------- TRF and PGN


def _trf_variant(transform: Callable[[str], str | bytes]) -> Callable[[Path], None]:
    def make(ws: Path) -> None:
        text = (ws / "event.trf").read_text(encoding="utf-8")
        out = transform(text)
        (ws / "bad.trf").write_bytes(out.encode("utf-8") if isinstance(out, str) else out)

    return make


def _mutate(text: str, rng: random.Random, alphabet: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 5)):
        k = rng.randrange(len(chars))
        op = rng.random()
        if op < 0.5:
            chars[k] = rng.choice(alphabet)
        elif op < 0.7:
            del chars[k]
        else:
            chars.insert(k, rng.choice(alphabet))
    return "".join(chars)


def _mutation(seed: float, alphabet: str) -> Callable[[str], str]:
    def mutate(text: str) -> str:
        return _mutate(text, random.Random(seed), alphabet)

    return mutate


def _self_paired(text: str) -> str:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("001") and len(line) > 100:
            no = line[4:8]
            lines[i] = line[:91] + no + line[95:]  # the first round block: "  OOOO c r" from index 89
            break
    return "\n".join(lines) + "\n"


def trf_and_pgn() -> list[Case]:
    cases = []
    importing = ("import-trf", "{ws}/bad.trf", "{ws}/new.xqt")
    fixed: list[tuple[str, Callable[[str], str | bytes], str]] = [
        ("GBK encoded", lambda t: t.encode("gbk"), "accept"),
        ("UTF-8 with BOM", lambda t: "\ufeff" + t, "accept"),
        ("Latin-1 accents", lambda t: t.replace("柳大华", "Müller").encode("latin-1", "replace"), "either"),
        ("Shift-JIS bytes", lambda t: b"\x82\xa0\x82\xa2" * 50, "refuse"),
        ("empty", lambda t: "", "refuse"),
        (
            "only headers",
            lambda t: "\n".join(line for line in t.splitlines() if not line.startswith("001")),
            "refuse",
        ),
        ("player paired with himself", _self_paired, "refuse"),
        ("start rank 0", lambda t: t.replace("001    1", "001    0", 1), "refuse"),
        ("start rank -1", lambda t: t.replace("001    1", "001   -1", 1), "refuse"),
        ("rank repeated", lambda t: t.replace("001    2", "001    1", 1), "refuse"),
        ("XQS negative points", lambda t: t + "XQS -2 1 1 0 2 2 0\n", "refuse"),
        ("XQS huge points", lambda t: t + "XQS 99999999999999999999 1 1 0 2 2 0\n", "refuse"),
        ("BBW not a number", lambda t: t.replace("BBW  2.0", "BBW  x.y"), "refuse"),
        ("XQB not a number", lambda t: t.replace("XQB   1", "XQB   x"), "refuse"),
        (
            "team member not a number",
            lambda t: t + "013 队伍                                  1 x\n",
            "refuse",
        ),
        ("team name of 40 characters", lambda t: t + "013 " + "长" * 40 + "    1    2\n", "either"),
        ("name with a bidi override", lambda t: t.replace("柳大华", "柳\u202e华"), "refuse"),
        ("NUL bytes", lambda t: t.replace("柳大华", "柳\x00华"), "refuse"),
        ("a player line with a bad rank", lambda t: t + "001 9999 m    x" + "\n", "either"),
    ]
    for label, transform, expect in fixed:
        cases.append(
            Case(
                "TRF and PGN files",
                f"TRF: {label}",
                importing,
                prepare=_trf_variant(transform),
                expect=expect,
            )
        )
    rng = random.Random(7)
    trf_alphabet = "0123456789 -+=wbUF\n:.XQSB\u202e\x00甲"
    for i in range(40):
        cases.append(
            Case(
                "TRF and PGN files",
                f"TRF mutation {i}",
                importing,
                prepare=_trf_variant(_mutation(rng.random(), trf_alphabet)),
            )
        )
    record = ("record", EVENT, "--group", GROUP, "--round", "1", "--board", "1", "--pgn", "{ws}/bad.pgn")

    def pgn_variant(transform: Callable[[bytes], bytes]) -> Callable[[Path], None]:
        def make(ws: Path) -> None:
            (ws / "bad.pgn").write_bytes(transform((ws / "game.pgn").read_bytes()))

        return make

    pgn_fixed: list[tuple[str, Callable[[bytes], bytes], str]] = [
        ("empty", lambda b: b"", "refuse"),
        ("two games", lambda b: b + b"\n" + b, "refuse"),
        ("random bytes", lambda b: bytes(random.Random(1).randrange(256) for _ in range(2000)), "refuse"),
        ("GBK", lambda b: b.decode("utf-8").encode("gbk"), "accept"),
        ("BOM", lambda b: b"\xef\xbb\xbf" + b, "accept"),
        ("illegal move", lambda b: b.replace("炮八平五".encode(), "炮八进九".encode(), 1), "refuse"),
        ("result disagrees", lambda b: b.replace(b"1/2-1/2", b"1-0"), "refuse"),
        (
            "names swapped",
            lambda b: (
                b.replace("柳大华".encode(), b"XX")
                .replace("杨官璘".encode(), "柳大华".encode())
                .replace(b"XX", "杨官璘".encode())
            ),
            "refuse",
        ),
        ("another player's name", lambda b: b.replace("柳大华".encode(), "王天一".encode()), "refuse"),
        ("two megabytes", lambda b: b + b" " * 2_000_000, "refuse"),
        ("NUL in a header", lambda b: b.replace(b"[Event", b"[Ev\x00ent"), "either"),
        (
            "bidi override in a header",
            lambda b: b.replace("1982年全国赛".encode(), "1982\u202e赛".encode()),
            "refuse",
        ),
        ("unterminated comment", lambda b: b + b"{ never closed", "either"),
        ("100,000 nested variations", lambda b: b + b"(" * 100_000, "either"),
    ]
    for label, transform, expect in pgn_fixed:
        cases.append(
            Case("TRF and PGN files", f"PGN: {label}", record, prepare=pgn_variant(transform), expect=expect)
        )
    rng = random.Random(8)
    alphabet = (
        '0123456789 -+=[]"{};.*()\n车马炮兵卒将帅仕士相象进退平一二三四五六七八九前后中abcdehiR\x00\u202e'
    )
    for i in range(30):
        r = random.Random(rng.random())
        cases.append(
            Case(
                "TRF and PGN files",
                f"PGN mutation {i}",
                record,
                prepare=pgn_variant(lambda b, r=r: _mutate(b.decode("utf-8"), r, alphabet).encode("utf-8")),
            )
        )
    return cases


# --------------------------------------------------------------------------- Excel forms


def _xlsx_parts(ws: Path, name: str, parts: dict[str, str | bytes]) -> None:
    with zipfile.ZipFile(ws / name, "w", zipfile.ZIP_DEFLATED) as z:
        for part, data in parts.items():
            z.writestr(part, data)


_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    "</Types>"
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
_WB = (
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
    '<sheet name="报名表" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_WB_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)


def huge_shared_strings(ws: Path, count: int = 3_000_000) -> None:
    """A form whose shared-strings part holds ``count`` strings (about 60 MB unpacked)."""
    body = "".join(f"<si><t>s{i}</t></si>" for i in range(count))
    sst = (
        '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        f'count="{count}" uniqueCount="{count}">{body}</sst>'
    )
    sheet = (
        '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>'
    )
    _xlsx_parts(
        ws,
        "huge.xlsx",
        {
            "[Content_Types].xml": _CONTENT_TYPES,
            "_rels/.rels": _RELS,
            "xl/workbook.xml": _WB,
            "xl/_rels/workbook.xml.rels": _WB_RELS,
            "xl/worksheets/sheet1.xml": sheet,
            "xl/sharedStrings.xml": sst,
        },
    )


def stray_cell(ws: Path) -> None:
    """A valid form with one stray cell at XFD1048576 (declared dimension A1:XFD1048576)."""
    from openpyxl import load_workbook

    write_form(ws / "stray.xlsx", [form_row(41, "新棋手丁"), form_row(42, "新棋手戊")])
    wb = load_workbook(ws / "stray.xlsx")
    wb.active["XFD1048576"] = "x"
    wb.save(ws / "stray.xlsx")


def _form(rows: list[list[object]], header: list[str] | None = None) -> Callable[[Path], None]:
    def make(ws: Path) -> None:
        write_form(ws / "f.xlsx", rows, header or list(_header()))

    return make


def _header() -> list[str]:
    from tests.corpus.harness import FORM_HEADER

    return FORM_HEADER


def excel_forms() -> list[Case]:
    importing = ("import-players", EVENT, "{ws}/f.xlsx", "--override-deadline", "组委会同意补报")
    cat = "Excel registration forms"

    def with_big_rows(ws: Path) -> None:
        from openpyxl import Workbook

        wb = Workbook()
        sheet = wb.active
        sheet.append(_header())
        for i in range(25_000):
            sheet.append([f"x{i}", "", "", "", "", "", "", "", ""])
        wb.save(ws / "f.xlsx")

    def chart_sheet_first(ws: Path) -> None:
        from openpyxl import Workbook
        from openpyxl.chart import BarChart

        wb = Workbook()
        data = wb.active
        data.title = "报名表"
        data.append(_header())
        data.append(form_row(51, "新棋手己"))
        cs = wb.create_chartsheet("图表", 0)
        cs.add_chart(BarChart())
        wb.save(ws / "f.xlsx")

    cases = [
        Case(
            cat,
            "a valid form, end to end",
            importing,
            prepare=_form([form_row(21, "新棋手甲"), form_row(22, "新棋手乙")]),
            expect="accept",
        ),
        Case(
            cat,
            "the same form twice",
            importing,
            prepare=_chain(_form([form_row(21, "新棋手甲")]), _import_once),
            expect="refuse",
        ),
        Case(
            cat,
            "--valid-only with one bad row",
            (*importing, "--valid-only"),
            prepare=_form([form_row(23, "新棋手庚"), form_row(24, "新棋手辛", 身份证号="123")]),
            expect="accept",
        ),
        Case(
            cat,
            "one bad row, all or nothing",
            importing,
            prepare=_form([form_row(25, "新棋手壬"), form_row(26, "新棋手癸", 手机号="12")]),
            expect="refuse",
        ),
        Case(
            cat,
            "stray cell at XFD1048576",
            ("import-players", EVENT, "{ws}/stray.xlsx", "--override-deadline", "补报"),
            prepare=stray_cell,
            expect="accept",
        ),
        Case(
            cat,
            "3 million shared strings",
            ("import-players", EVENT, "{ws}/huge.xlsx", "--override-deadline", "补报"),
            prepare=huge_shared_strings,
            expect="refuse",
        ),
        Case(
            cat,
            "after the deadline without an override",
            ("import-players", EVENT, "{ws}/f.xlsx"),
            prepare=_form([form_row(39, "新棋手戌")]),
            expect="refuse",
        ),
        Case(cat, "25,000 rows", importing, prepare=with_big_rows, expect="refuse"),
        Case(cat, "a chart sheet before the form", importing, prepare=chart_sheet_first, expect="accept"),
        Case(
            cat,
            "an ID number stored as a number",
            importing,
            prepare=_form([form_row(27, "新棋手子", 身份证号=620503198001011234)]),
            expect="refuse",
        ),
        Case(
            cat,
            "a formula cell",
            importing,
            prepare=_form([form_row(28, "新棋手丑", 备注='=HYPERLINK("http://x","点")')]),
            expect="either",
        ),
        Case(
            cat,
            "a date as a name",
            importing,
            prepare=_form([form_row(29, "新棋手寅", 姓名=__import__("datetime").datetime(2024, 1, 1))]),
            expect="refuse",
        ),
        Case(
            cat,
            "a float as a rating",
            importing,
            prepare=_form([[*form_row(30, "新棋手卯"), 1500.5]], [*_header(), "等级分"]),
            expect="refuse",
        ),
        Case(
            cat,
            "a huge rating",
            importing,
            prepare=_form([[*form_row(33, "新棋手辰"), 10**20]], [*_header(), "等级分"]),
            expect="refuse",
        ),
        Case(
            cat,
            "a team of 40 characters",
            importing,
            prepare=_form([form_row(34, "新棋手巳", 代表队="长" * 40)]),
            expect="refuse",
        ),
        Case(
            cat,
            "a unit of 32,767 characters",
            importing,
            prepare=_form([form_row(35, "新棋手午", 单位="长" * 32_767)]),
            expect="refuse",
        ),
        Case(
            cat,
            "a phone number in the unit",
            importing,
            prepare=_form([form_row(36, "新棋手未", 单位="联系13912345678")]),
            expect="refuse",
        ),
        Case(cat, "no header", importing, prepare=_form([["a", "b"]], ["x", "y"]), expect="refuse"),
        Case(cat, "header only", importing, prepare=_form([]), expect="refuse"),
        Case(
            cat,
            "a CSV renamed .xlsx",
            importing,
            prepare=_existing_bytes("f.xlsx", "姓名,身份证号\n王五,1\n".encode()),
            expect="refuse",
        ),
        Case(
            cat,
            "a zip that is no workbook",
            importing,
            prepare=lambda ws: _xlsx_parts(ws, "f.xlsx", {"a.txt": "x"}),
            expect="refuse",
        ),
        Case(
            cat,
            "a zip bomb",
            importing,
            prepare=lambda ws: _xlsx_parts(
                ws, "f.xlsx", {"[Content_Types].xml": "x", "xl/a.xml": "0" * 80_000_000}
            ),
            expect="refuse",
        ),
        Case(
            cat,
            "legacy .xls bytes",
            importing,
            prepare=_existing_bytes("f.xlsx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600),
            expect="refuse",
        ),
        Case(
            cat,
            "random bytes",
            importing,
            prepare=_existing_bytes("f.xlsx", bytes(random.Random(3).randrange(256) for _ in range(5000))),
            expect="refuse",
        ),
        Case(
            cat,
            "the group of another name",
            importing,
            prepare=_form([form_row(38, "新棋手酉", 组别="少年组")]),
            expect="refuse",
        ),
    ]
    return cases


def _import_once(ws: Path) -> None:
    import contextlib
    import io

    from app.cli import main

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert (
            main(["import-players", str(ws / "event.xqt"), str(ws / "f.xlsx"), "--override-deadline", "补报"])
            == 0
        )


# --------------------------------------------------------------------------- the file itself


def _flip(seed: int) -> Callable[[Path], None]:
    def make(ws: Path) -> None:
        path = ws / "event.xqt"
        data = bytearray(path.read_bytes())
        rng = random.Random(seed)
        for _ in range(rng.choice((1, 1, 2, 8))):
            k = rng.randrange(100, len(data))
            data[k] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))

    return make


def _flip_in_text(ws: Path) -> None:
    """A flipped byte inside a player's name: a sound page, an undecodable text."""
    path = ws / "event.xqt"
    data = bytearray(path.read_bytes())
    k = data.find("胡荣华".encode())
    data[k + 1] = 0xFF
    path.write_bytes(bytes(data))


def _sql(statements: str) -> Callable[[Path], None]:
    def make(ws: Path) -> None:
        con = sqlite3.connect(ws / "event.xqt")
        con.executescript(statements)
        con.commit()
        con.close()

    return make


def _stale_lock(ws: Path) -> None:
    import socket

    (ws / "event.xqt.lock").write_text(
        json.dumps(
            {
                "pid": 2**22 + 12345,
                "host": socket.gethostname(),
                "time": "2024-07-26T09:00:00",
                "program": "xqarbiter",
                "version": "0.1.0",
            }
        ),
        encoding="utf-8",
    )


def _leftovers(ws: Path) -> None:
    (ws / "event.xqt.restoring").write_bytes(b"personal data")
    folder = ws / "event.backups"
    (folder / "event-20240726-090000-manual.xqt.999999999.partial").write_bytes(b"personal data")


def _no_leftovers(ws: Path, outcome: Outcome) -> list[str]:
    left = [p.name for p in ws.rglob("*") if p.name.endswith((".restoring", ".partial"))]
    backups = [p for p in (ws / "event.backups").iterdir() if p.is_file()]
    loose = [p.name for p in backups if p.stat().st_mode & 0o077]
    return [f"left behind: {n}" for n in left] + [f"backup readable by others: {n}" for n in loose]


def file_faults() -> list[Case]:
    cat = "Damaged and locked files"
    cases = [
        Case(
            cat,
            "flipped byte in a name: check-file",
            ("check-file", EVENT),
            prepare=_flip_in_text,
            expect="refuse",
        ),
        Case(
            cat,
            "flipped byte in a name: result",
            ("result", EVENT, "--group", GROUP, "--round", "2", "--board", "2", "="),
            prepare=_flip_in_text,
            expect="refuse",
        ),
        Case(
            cat,
            "flipped byte in a name: standings",
            ("standings", EVENT, "--group", GROUP),
            prepare=_flip_in_text,
            expect="refuse",
        ),
        Case(
            cat,
            "status zombie in the file",
            ("standings", EVENT, "--group", GROUP),
            prepare=_sql("UPDATE players SET status='zombie' WHERE id=3"),
            expect="refuse",
        ),
        Case(
            cat,
            "a result of an unknown kind",
            ("excel", EVENT, "-o", "{ws}/out/x.xlsx"),
            prepare=_sql("UPDATE games SET result='win' WHERE id=1"),
            expect="refuse",
        ),
        Case(
            cat,
            "broken settings JSON",
            ("pair", EVENT, "--group", GROUP),
            prepare=_sql("UPDATE tournament SET regulations='{bad'"),
            expect="refuse",
        ),
        Case(
            cat,
            "a date that is no date",
            ("players", EVENT),
            prepare=_sql("UPDATE players SET birth_date='1990-13-45' WHERE id=2"),
            expect="refuse",
        ),
        Case(
            cat,
            "text where a number belongs",
            ("standings", EVENT, "--group", GROUP),
            prepare=_sql("UPDATE games SET board='二' WHERE id=2"),
            expect="refuse",
        ),
        Case(
            cat,
            "two version rows",
            ("pair", EVENT, "--group", GROUP),
            prepare=_sql("INSERT INTO alembic_version VALUES ('0001')"),
            expect="refuse",
        ),
        Case(
            cat,
            "two version rows: read-only",
            ("standings", EVENT, "--group", GROUP),
            prepare=_sql("INSERT INTO alembic_version VALUES ('0001')"),
            expect="refuse",
        ),
        Case(
            cat,
            "a newer version",
            ("standings", EVENT, "--group", GROUP),
            prepare=_sql("UPDATE alembic_version SET version_num='9999'"),
            expect="refuse",
        ),
        Case(
            cat,
            "no version table",
            ("standings", EVENT, "--group", GROUP),
            prepare=_sql("DROP TABLE alembic_version"),
            expect="refuse",
        ),
        Case(
            cat,
            "no tournament row",
            ("standings", EVENT, "--group", GROUP),
            prepare=_sql("PRAGMA foreign_keys=OFF; DELETE FROM tournament"),
            expect="refuse",
        ),
        Case(
            cat,
            "truncated to half",
            ("standings", EVENT, "--group", GROUP),
            prepare=lambda ws: (ws / "event.xqt").write_bytes((ws / "event.xqt").read_bytes()[:8192]),
            expect="refuse",
        ),
        Case(
            cat,
            "stale lock, no take-over",
            ("result", EVENT, "--group", GROUP, "--round", "2", "--board", "2", "="),
            prepare=_stale_lock,
            expect="refuse",
        ),
        Case(
            cat,
            "stale lock, --take-over (logged)",
            ("result", EVENT, "--group", GROUP, "--round", "2", "--board", "2", "=", "--take-over"),
            prepare=_stale_lock,
            expect="accept",
            check=_taken_over_logged,
        ),
        Case(
            cat,
            "stale lock: reading is fine",
            ("standings", EVENT, "--group", GROUP),
            prepare=_stale_lock,
            expect="accept",
        ),
        Case(
            cat,
            "empty lock (crash while writing it)",
            ("pair", EVENT, "--group", GROUP),
            prepare=lambda ws: (ws / "event.xqt.lock").write_bytes(b""),
            expect="refuse",
        ),
        Case(
            cat,
            "leftovers of a killed run are removed",
            ("result", EVENT, "--group", GROUP, "--round", "2", "--board", "2", "="),
            prepare=_leftovers,
            expect="accept",
            check=_no_leftovers,
        ),
        Case(cat, "restore another event's file", ("restore", EVENT, "{ws}/other.xqt"), expect="refuse"),
        Case(
            cat,
            "restore a damaged backup",
            ("restore", EVENT, "{ws}/bad-backup.xqt"),
            prepare=_damaged_backup,
            expect="refuse",
        ),
        Case(
            cat,
            "backups are readable by the owner only",
            ("backups", EVENT, "--make"),
            expect="accept",
            check=_no_leftovers,
        ),
    ]
    for seed in range(40):
        command = (
            ("check-file", EVENT),
            ("result", EVENT, "--group", GROUP, "--round", "2", "--board", "3", "0-1"),
            ("standings", EVENT, "--group", GROUP),
            ("excel", EVENT, "-o", "{ws}/out/x.xlsx"),
        )[seed % 4]
        cases.append(Case(cat, f"random flipped bytes {seed}: {command[0]}", command, prepare=_flip(seed)))
    return [*cases, _restore_first_backup(cat)]


def _restore_first_backup(cat: str) -> Case:
    def prepare(ws: Path) -> None:
        first = sorted((ws / "event.backups").glob("*.xqt"))[0]
        (ws / "chosen.txt").write_text(first.name, encoding="utf-8")
        os.replace(first, ws / "event.backups" / "chosen.xqt")

    return Case(
        cat,
        "restore a good backup of this event",
        ("restore", EVENT, "chosen.xqt"),
        prepare=prepare,
        expect="accept",
    )


def _damaged_backup(ws: Path) -> None:
    first = sorted((ws / "event.backups").glob("*.xqt"))[0]
    data = bytearray(first.read_bytes())
    data[4096:8192] = bytes(4096)
    (ws / "bad-backup.xqt").write_bytes(bytes(data))


def _taken_over_logged(ws: Path, outcome: Outcome) -> list[str]:
    con = sqlite3.connect(ws / "event.xqt")
    try:
        rows = con.execute("SELECT count(*) FROM audit_log WHERE action='take_over_lock'").fetchone()[0]
    finally:
        con.close()
    problems = [] if rows == 1 else ["the take-over is not in the audit log"]
    if "接管" not in outcome.err:
        problems.append("the take-over was not said on stderr")
    return problems


# --------------------------------------------------------------------------- a full disk, and the real entry point


def disk_full() -> list[Case]:
    cat = "Full disk (ulimit -f, real process)"
    commands = [
        ("result", ("result", EVENT, "--group", GROUP, "--round", "2", "--board", "2", "=")),
        ("hand-in", ("hand-in", EVENT, "--group", GROUP, "--round", "1", "--board", "1", "--moves", "30")),
        ("violation", ("violation", EVENT, "--player", "3", "--round", "2", "--reason", "犯规")),
        ("excel", ("excel", EVENT, "-o", "{ws}/out/x.xlsx")),
        ("backups --make", ("backups", EVENT, "--make")),
        ("new", ("new", "{ws}/n.xqt")),
        ("export", ("export", EVENT, "{ws}/out/s.json")),
        ("demo", ("demo", "{ws}/d.xqt", "--players", "8")),
    ]
    cases = []
    for limit in (0, 20_000):
        for label, argv in commands:
            cases.append(
                Case(
                    cat,
                    f"{label} with ulimit -f {limit} bytes",
                    argv,
                    subprocess=True,
                    limit_bytes=limit,
                    expect="refuse" if limit == 0 else "either",
                    check=_said_disk_full,
                    outputs=("out/x.xlsx", "out/s.json"),
                )
            )
    return cases


def _said_disk_full(ws: Path, outcome: Outcome) -> list[str]:
    if outcome.code == 2 and "磁盘已满" not in outcome.err and "disk full" not in outcome.err:
        return [f"not reported as a full disk: {outcome.err[:120]!r}"]
    return []


def real_processes() -> list[Case]:
    cat = "Real subprocess (python -m app.cli)"
    argvs = [
        ("result", EVENT, "--group", GROUP, "--round", "99999999999999999999", "--board", "1", "1-0"),
        ("demo", "{ws}/d.xqt", "--players", "0"),
        ("withdraw", EVENT, "--player", "3", "--reason", ""),
        ("import", "{ws}/bad.json", "{ws}/n.xqt"),
        ("html", EVENT, "-o", "{ws}/event.trf"),
        ("print", EVENT, "standings", "--group", GROUP, "-o", "{ws}/out"),
        ("standings", "{ws}/out", "--group", GROUP),
        ("import-trf", "{ws}/event.gbk.trf", "{ws}/n.xqt"),
        ("frobnicate",),
        ("pair", EVENT, "--group", "公开组\u202e"),
        ("check-file", EVENT),
        ("import-players", EVENT, "{ws}/form.xlsx"),
        ("results", EVENT, "--group", GROUP, "--round", "2", "--in", "{ws}/bad.json"),
        ("simulate", "--players", "10", "--rounds", "2", "--forfeit-rate", "nan"),
        ("violation", EVENT, "--player", "3", "--round", "2", "--reason", "\u202e"),
        ("standings", EVENT, "--group", GROUP),
    ]

    def prepare(ws: Path) -> None:
        (ws / "bad.json").write_bytes(b"[" * 50_000)
        (ws / "event.gbk.trf").write_bytes((ws / "event.trf").read_text(encoding="utf-8").encode("gbk"))

    return [
        Case(
            cat,
            f"{i:02d} " + " ".join(x.replace("{ws}/", "") for x in a[:5]),
            tuple(a),
            prepare=prepare,
            subprocess=True,
        )
        for i, a in enumerate(argvs)
    ]


# --------------------------------------------------------------------------- regulation and template files

REGULATION_MUTATIONS: tuple[tuple[str, Callable[[str], str | bytes]], ...] = (
    ("empty file", lambda t: b""),
    ("not TOML", lambda t: "[[[ 这不是规程"),
    ("GBK bytes", lambda t: t.encode("utf-8").decode("utf-8").encode("gbk", "replace")),
    ("UTF-16", lambda t: t.encode("utf-16")),
    ("NUL bytes", lambda t: b"\x00" * 200),
    ("BOM then the file", lambda t: "\ufeff" + t),
    ("1.1 MB", lambda t: t + "\n#" + "x" * 1_100_000),
    ("unknown setting", lambda t: t + '\ncolour = "blue"\n'),
    ("a whole number as text", lambda t: t.replace("win = 2", 'win = "2"', 1)),
    ("negative points", lambda t: t.replace("win = 2", "win = -2", 1)),
    ("points of 10^20", lambda t: t.replace("win = 2", "win = 100000000000000000000", 1)),
    ("rounds 0", lambda t: t.replace("rounds = 8", "rounds = 0", 1)),  # the first stage (Swiss) of 公开组
    ("group renamed (rounds already paired)", lambda t: t.replace("公开组", "甲组")),
    ("event name with a bidi override", lambda t: t.replace('event_name = "', 'event_name = "\\u202e', 1)),
    ("paperwork unknown placeholder", lambda t: t + '\n[paperwork.certificate]\nbody = "{昵称}"\n'),
    (
        "paperwork organiser with an ID number",
        lambda t: t + '\n[paperwork]\norganiser = "110105194912310021"\n',
    ),
    ("paperwork seal with a zero-width joiner", lambda t: t + '\n[paperwork]\nseal = "盖\\u200d章"\n'),
    (
        "prize item of 51 characters",
        lambda t: t.replace("amounts = [", 'items = ["' + "奖" * 51 + '"]\namounts = [', 1),
    ),
    (
        "avoidance of an unknown basis",
        lambda t: t.replace("avoidances = []", 'avoidances = [{ basis = "zodiac" }]', 1),
    ),
    (
        "avoidance rounds backwards",
        lambda t: t.replace(
            "avoidances = []", 'avoidances = [{ basis = "unit", from_round = 5, to_round = 2 }]', 1
        ),
    ),
    ("withholding 120%", lambda t: t.replace("withholding_percent = 20", "withholding_percent = 120", 1)),
    ("nested 60 tables deep", lambda t: t + "\n[" + ".".join(["x"] * 60) + "]\n"),
    # round three: values checked with the key named, missing keys named, deep arrays, public texts
    ("a loss worth 3 against a win of 2", lambda t: t.replace("loss = 0", "loss = 3", 1)),
    ("age limit -7", lambda t: t.replace("age_limit = 65", "age_limit = -7", 1)),
    ("a time control of -15 minutes", lambda t: t.replace("minutes = 20", "minutes = -15", 1)),
    ("counted_members 6 of 4", lambda t: t.replace("counted_members = 4", "counted_members = 6", 1)),
    ("fee -50", lambda t: t.replace("fee_yuan = 100", "fee_yuan = -50", 1)),
    ("an empty tiebreak chain", lambda t: t.replace("chain = [", "chain = []\nunused = [", 1)),
    ("the event name alone", lambda t: 'event_name = "只有名称"\n'),
    ("an array 900 deep", lambda t: "z = " + "[" * 900 + "]" * 900 + "\n" + t),
    (
        "event name with a phone in slashes",
        lambda t: t.replace('event_name = "', 'event_name = "咨询 138/0013/8000 ', 1),
    ),
    (
        "venue with full-width digits",
        lambda t: t.replace('venue = "', 'venue = "电话１３８００１３８０００ ', 1),
    ),
)


def _exported_regulation(
    mutate: Callable[[str], str | bytes], name: str = "reg.toml"
) -> Callable[[Path], None]:
    def make(ws: Path) -> None:
        data = mutate(_regulation_text_of(ws / "event.xqt"))
        (ws / name).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)

    return make


_regulation_texts: dict[str, str] = {}


def _regulation_text_of(event: Path) -> str:
    """The event's regulation exported as a file's text: read once per process for the same bytes (the
    export reads the file, so equal bytes give an equal text; the corpus mutates it ~90 times)."""
    from app.services.regulation_files import regulation_file_text
    from app.services.tournaments import open_tournament

    digest = hashlib.sha256(event.read_bytes()).hexdigest()
    if digest not in _regulation_texts:
        with open_tournament(event, read_only=True) as db:
            _regulation_texts[digest] = regulation_file_text(db)
        for f in event.parent.glob("event.xqt-*"):  # a read-only open leaves nothing the case should see
            if f.stat().st_size == 0:
                f.unlink()
    return _regulation_texts[digest]


def regulation_files() -> list[Case]:
    cases = []
    category = "Regulation and template files (TOML)"
    for label, mutate in REGULATION_MUTATIONS:
        prepare = _exported_regulation(mutate)
        bom = label == "BOM then the file"
        cases.append(
            Case(
                category,
                f"regulation-import: {label}",
                ("regulation-import", EVENT, "{ws}/reg.toml"),
                prepare=prepare,
                expect="either" if bom else "refuse",
            )
        )
        renamed = label == "group renamed (rounds already paired)"  # a new event may rename its groups
        cases.append(
            Case(
                category,
                f"new --regulation: {label}",
                ("new", "{ws}/n.xqt", "--regulation", "{ws}/reg.toml"),
                prepare=prepare,
                expect="either" if bom or renamed else "refuse",
            )
        )
    rng = random.Random(16)
    for i in range(24):
        seed = rng.random()
        cases.append(
            Case(
                category,
                f"regulation-import: random mutation {i}",
                ("regulation-import", EVENT, "{ws}/reg.toml"),
                prepare=_exported_regulation(_mutation(seed, "[]{}=\"'#\n.,0123456789abc公开组")),
            )
        )
    cases.append(
        Case(
            category,
            "regulation-import: the event's own file",
            ("regulation-import", EVENT, "{ws}/reg.toml"),
            prepare=_exported_regulation(lambda t: t),
            expect="accept",
        )
    )
    templates: list[tuple[str, str | bytes, str]] = [
        ("unknown field", 'stamp = "x"', "refuse"),
        ("a number for the title", "title = 3", "refuse"),
        ("unknown placeholder", 'body = "{昵称}荣获{奖项}"', "refuse"),
        ("brace left open", 'title = "{姓名"', "refuse"),
        ("format string attack", 'body = "{姓名.__class__.__mro__}"', "refuse"),
        ("a bidi override", 'title = "荣誉\\u202e证书"', "refuse"),
        ("a phone number", 'body = "咨询 13900000526"', "refuse"),
        ("2,001 characters", 'body = "' + "长" * 2001 + '"', "refuse"),
        ("not TOML", "body = ", "refuse"),
        ("GBK bytes", 'body = "获奖"'.encode("gbk"), "refuse"),
        ("200 KB", "#" * 200_000, "refuse"),
        (
            "every placeholder",
            'body = "{姓名}{单位}{组别}{奖项}{名次}{金额}{奖品}{赛事}{日期}{地点}{主办单位}"',
            "accept",
        ),
    ]
    for label, text, expect in templates:
        cases.append(
            Case(
                category,
                f"certificate --template: {label}",
                ("certificate", EVENT, "--template", "{ws}/cert.toml"),
                prepare=_write_doc("cert.toml", text),
                expect=expect,
            )
        )
    return cases


# --------------------------------------------------------------------------- round three

DAMAGED_REFERENCES: tuple[tuple[str, str], ...] = (
    ("table byes dropped", "DROP TABLE byes"),
    ("table pair_avoidances dropped", "DROP TABLE pair_avoidances"),
    ("column players.region dropped", "ALTER TABLE players DROP COLUMN region"),
    ("a game's Black is no player", "UPDATE games SET black_id = 4242424 WHERE id = 2"),
    ("a player of no group", "UPDATE players SET group_id = 77 WHERE id = 5"),
    ("round 1 of no group", "UPDATE rounds SET group_id = 99 WHERE number = 1"),
)

DAMAGED_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("check-file", EVENT),
    ("standings", EVENT, "--group", GROUP),
    ("pairings", EVENT, "--group", GROUP, "--round", "1"),
    ("pair", EVENT, "--group", GROUP),
    ("result", EVENT, "--group", GROUP, "--round", "2", "--board", "2", "1-0"),
    ("export", EVENT, "{ws}/out/s.json"),
    ("excel", EVENT, "-o", "{ws}/out/x.xlsx"),
)


def _blank_name(text: str) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        doc["players"][3]["name"] = text

    return edit


def _closed_with_pending(doc: dict[str, Any]) -> None:
    second = next(r for r in doc["rounds"] if r["round"] == 2)
    second["closed_at"] = "2024-07-26T18:00:00"


def _wrong_check_digit(doc: dict[str, Any]) -> None:
    number = doc["players"][4]["id_number"]
    doc["players"][4]["id_number"] = number[:-1] + ("7" if number[-1] != "7" else "8")


def _born_in(day: str) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        doc["players"][6].update(id_type="passport", id_number="G27182818", birth_date=day)

    return edit


def _ghost_team(doc: dict[str, Any]) -> None:
    doc["players"][8]["team"] = "幽灵队"


def _event_named(name: str) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        doc["tournament"]["name"] = name

    return edit


def _venue(text: str) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        doc["tournament"]["settings"]["venue"] = text

    return edit


def _trf_line(code: str, value: str) -> Callable[[str], str]:
    """The TRF with its ``code`` record(s) replaced by ``code value`` (added when missing)."""

    def change(text: str) -> str:
        lines = [line for line in text.splitlines() if not line.startswith(code + " ")]
        return "\n".join([*lines, f"{code} {value}"]) + "\n"

    return change


def _trf_title(title: str, *, drop_scoring: bool = False) -> Callable[[str], str]:
    def change(text: str) -> str:
        lines = [f"012 {title}" if line.startswith("012 ") else line for line in text.splitlines()]
        if drop_scoring:
            lines = [line for line in lines if not line.startswith(("162", "BB", "XQS"))]
        return "\n".join(lines) + "\n"

    return change


def round_three() -> list[Case]:
    """Tracebacks and loose checks the third attack found, each with new inputs of its class."""
    cat = "Round three: damaged references, dates, devices, snapshot rules, new users, TRF"
    cases = [
        Case(cat, f"{label}: {argv[0]}", argv, prepare=_sql(sql), expect="refuse")
        for label, sql in DAMAGED_REFERENCES
        for argv in DAMAGED_COMMANDS
    ]
    for option, value in (
        ("--start", "9999-12-31"),
        ("--start", "0001-01-01"),
        ("--start", "9999-12-26"),
        ("--start", "1989-12-31"),
        ("--start", "2201-01-01"),
        ("--end", "9999-01-01"),
        ("--deadline", "0001-01-01 00:00"),
        ("--deadline", "9999-12-31 23:59"),
    ):
        cases.append(
            Case(cat, f"new {option} {value}", ("new", "{ws}/n.xqt", option, value), expect="refuse")
        )
    for device in ("/dev/zero", "/dev/null", "/dev/urandom"):
        if not Path(device).exists():
            continue
        for argv in (
            ("regulation-import", EVENT, device),
            ("new", "{ws}/n.xqt", "--regulation", device),
            ("certificate", EVENT, "--template", device),
            ("import-trf", device, "{ws}/n.xqt"),
            ("import", device, "{ws}/n.xqt"),
            ("record", EVENT, "--group", GROUP, "--round", "1", "--board", "1", "--pgn", device),
        ):
            cases.append(Case(cat, f"{argv[0]} from {device}", argv, expect="refuse"))
    edits: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
        ("name of Hangul choseong fillers", _blank_name("\u115f\u1160")),
        ("name of a half-width Hangul filler", _blank_name("\uffa0")),
        ("name of Khmer inherent vowels", _blank_name("\u17b4\u17b5")),
        ("name of private-use characters", _blank_name("\ue123\uf8ff")),
        ("name of braille blanks and a space", _blank_name("\u2800 \u2800")),
        ("a Hangul filler inside a name", _blank_name("王\u3164五")),
        ("round 2 closed with a pending game", _closed_with_pending),
        ("an ID number with a wrong check digit", _wrong_check_digit),
        ("born 2091-05-06", _born_in("2091-05-06")),
        ("born 1850-01-01", _born_in("1850-01-01")),
        ("a team not listed", _ghost_team),
        ("event name with a phone in dashes", _event_named("咨询 138-0013-8000 杯")),
        ("event name with an ID in colons", _event_named("110105:19491231:0021 杯")),
        ("venue with a phone in commas", _venue("体育馆（138，0013，8000）")),
    ]
    for label, edit in edits:
        cases.append(
            Case(
                cat,
                f"snapshot import: {label}",
                ("import", "{ws}/bad.json", "{ws}/n.xqt"),
                prepare=_edited_snapshot(edit),
                expect="refuse",
            )
        )
    new_users: list[tuple[str, tuple[str, ...], str]] = [
        (
            "a reason starting with a dash",
            ("violation", EVENT, "--player", "3", "--round", "2", "--reason", "-5+7"),
            "accept",
        ),
        ("a withdrawal reason '-'", ("withdraw", EVENT, "--player", "9", "--reason", "-"), "accept"),
        ("avoid rounds 9 to 3", ("avoid", EVENT, "1", "5", "--from-round", "9", "--to-round", "3"), "refuse"),
        (
            "avoid in round 1 only (closed)",
            ("avoid", EVENT, "2", "6", "--from-round", "1", "--to-round", "1"),
            "refuse",
        ),
        ("players of an unknown group", ("players", EVENT, "--group", "不存在的组"), "refuse"),
        ("export-trf of an unknown group", ("export-trf", EVENT, "--group", "甲组"), "refuse"),
        ("export-trf with the old positional group", ("export-trf", EVENT, GROUP), "accept"),
        ("export-trf with two different groups", ("export-trf", EVENT, GROUP, "--group", "乙组"), "refuse"),
        ("--version", ("--version",), "accept"),
        (
            "officials set twice",
            ("officials", EVENT, "--set", "裁判长=高福荣", "--set", "编排长=刘启"),
            "accept",
        ),
        (
            "image at scale 0.6",
            ("image", EVENT, "standings", "--group", GROUP, "--scale", "0.6", "-o", "{ws}/out/s.png"),
            "accept",
        ),
        (
            "new named with a phone in full-width slashes",
            ("new", "{ws}/n.xqt", "--name", "联系 138／0013／8000 杯"),
            "refuse",
        ),
        (
            "new named with full-width digits",
            ("new", "{ws}/n.xqt", "--name", "电话１３８００１３８０００杯"),
            "refuse",
        ),
        ("new at a venue with an ID", ("new", "{ws}/n.xqt", "--venue", "证 110105_19491231_0021"), "refuse"),
        (
            "import-trf with an empty --group",
            ("import-trf", "{ws}/event.trf", "{ws}/n.xqt", "--group", " "),
            "refuse",
        ),
    ]
    for label, argv, expect in new_users:
        cases.append(Case(cat, label, argv, expect=expect))
    trf: list[tuple[str, Callable[[str], str], str]] = [
        ("XXR 4242", _trf_line("XXR", "4242"), "refuse"),
        ("142 0", _trf_line("142", "0"), "refuse"),
        ("BBW -2.0", lambda t: _trf_line("BBW", "-2.0")(t.replace("162 ", "#62 ")), "refuse"),
        ("162 W -1.0", _trf_line("162", " W -1.0    D  1.0    L  0.0"), "refuse"),
        ("162 W 0.3", _trf_line("162", " W  0.3    D  0.2    L  0.0"), "refuse"),
        ("XQS with -4", _trf_line("XQS", "2 1 1 -4 2 2 0"), "refuse"),
        (
            "a long title without a group",
            _trf_title("Zufallsturnier der Schachfreunde Musterstadt 2026"),
            "accept",
        ),
        ("no scoring record", _trf_title("测试赛（公开组）", drop_scoring=True), "accept"),
        ("a title with a phone", _trf_title("联系 139/0000/0526 杯（公开组）"), "refuse"),
    ]
    for label, change, expect in trf:
        cases.append(
            Case(
                cat,
                f"import-trf: {label}",
                ("import-trf", "{ws}/bad.trf", "{ws}/n.xqt"),
                prepare=_trf_variant(change),
                expect=expect,
                outputs=("n.xqt",),
            )
        )
    return cases


CATEGORIES: tuple[tuple[str, Callable[[], list[Case]]], ...] = (
    ("CLI numbers", cli_numbers),
    ("CLI arguments", cli_arguments),
    ("Output and input paths", paths),
    ("Hostile strings and privacy", hostile_strings),
    ("JSON documents (snapshot, results)", json_documents),
    ("Regulation and template files (TOML)", regulation_files),
    ("TRF and PGN files", trf_and_pgn),
    ("Excel registration forms", excel_forms),
    ("Damaged and locked files", file_faults),
    ("Full disk (ulimit -f, real process)", disk_full),
    ("Real subprocess (python -m app.cli)", real_processes),
    ("Round three: damaged references, dates, devices, snapshot rules, new users, TRF", round_three),
)


def all_cases() -> list[Case]:
    return [case for _, make in CATEGORIES for case in make()]


__all__ = ["CATEGORIES", "HOSTILE_NUMBERS", "all_cases"]
