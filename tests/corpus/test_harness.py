"""The corpus's own machinery: its quicker ways of looking hold the same answers as the plain ones."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

from tests.corpus import harness
from tests.corpus.harness import _folded, _number_pattern, _public_files, _snapshot_by_paths, _snapshot_of


def test_a_number_is_found_by_the_quick_look_exactly_where_the_pattern_finds_it() -> None:
    """The look for a personal number first asks whether its characters follow one another once the
    separators are taken out, and runs the pattern only then: over thousands of spellings (separators
    of every kind and length, full-width digits, letters around, an X in either case) the answer is
    the pattern's own."""
    rng = random.Random(20261202)
    numbers = ["620503197001011234", "13912345678", "62050319700111002X", "13700000031", "8"]
    filler = "0123456789xX甲 -._/（）\u3000０１２３abcſK\u212a\n"
    separators = (" ", "-", ".", "_", "\u3000", "（", "／", "·")
    found = missed = 0
    for _ in range(2_000):
        number = rng.choice(numbers)
        text = "".join(rng.choice(filler) for _ in range(rng.randint(0, 24)))
        if rng.random() < 0.6:  # the number written into it, spaced out by up to four separators
            spelled = "".join(
                (chr(ord(ch) + 0xFEE0) if ch.isdigit() and rng.random() < 0.2 else ch)
                + "".join(rng.choice(separators) for _ in range(rng.choice((0, 0, 1, 2, 3, 4))))
                for ch in (number.lower() if rng.random() < 0.3 else number)
            )
            at = rng.randint(0, len(text))
            text = text[:at] + spelled + text[at:]
        expected = _number_pattern(number).search(_folded(text)) is not None
        assert harness.shows_number(number, text) is expected, (number, text)
        found += expected
        missed += not expected
    assert found > 50 and missed > 500, (found, missed)  # both answers were put to the test


def _workspace(ws: Path) -> Path:
    """A folder laid out as a case's workspace (the event, its backups, the forms, the output folder)."""
    (ws / "event.backups").mkdir(parents=True)
    (ws / "out").mkdir()
    for name in (
        "event.xqt",
        "other.xqt",
        "event.trf",
        "game.pgn",
        "form.xlsx",
        "blank.xlsx",
        "snapshot.json",
    ):
        (ws / name).write_bytes(name.encode() * 100)
    (ws / "event.backups" / "event-20261202-161433-manual.xqt").write_bytes(b"backup")
    return ws


def test_the_walk_of_a_workspace_sees_what_rglob_sees(tmp_path: Path) -> None:
    ws = _workspace(tmp_path / "ws")
    (ws / "out" / "site" / "deep").mkdir(parents=True)
    (ws / "out" / "site" / "index.html").write_text("<p>1</p>", encoding="utf-8")
    (ws / "out" / "site" / "deep" / "z.trf").write_bytes(b"012")
    (ws / "event.xqt").write_bytes(b"changed")
    if sys.platform != "win32":
        os.symlink(ws / "out", ws / "linked")  # a link to a folder: listed, not walked through
        os.symlink(ws / "nowhere", ws / "broken.html")
    new, old = _snapshot_of(ws), _snapshot_by_paths(ws)
    assert new == old
    assert list(new) == list(old)  # in the same order
    assert "out/site/deep/z.trf" in new and new["out/site/"] == "dir"


@pytest.mark.skipif(sys.platform == "win32", reason="a link needs rights on Windows")
def test_the_public_outputs_are_the_changed_pages_workbooks_and_exchange_files(tmp_path: Path) -> None:
    ws = _workspace(tmp_path / "ws")
    before = _snapshot_of(ws)
    (ws / "out" / "site").mkdir()
    (ws / "out" / "site" / "index.html").write_text("<p>1</p>", encoding="utf-8")
    (ws / "out" / "book.xlsx").write_bytes(b"PK")
    (ws / "form.xlsx").write_bytes(b"the registration form itself is not a public output")
    (ws / "event.trf").write_text("changed", encoding="utf-8")
    (ws / "out" / "notes.txt").write_text("not a public kind", encoding="utf-8")
    os.symlink(ws / "nowhere", ws / "out" / "broken.html")
    found = _public_files(ws, before, _snapshot_of(ws))
    assert sorted(str(f.relative_to(ws)) for f in found) == [
        "event.trf",
        "out/book.xlsx",
        "out/site/index.html",
    ]
