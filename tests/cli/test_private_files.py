"""Every file holding full ID numbers or phones is readable by its owner only (0600), like backups and
snapshots: the payout sheet, the internal entry list, the audit export; public documents are not."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from app.cli import main
from app.services.results import enter_result
from app.services.rounds import close_round, pair_next_round, round_view
from app.services.snapshot import import_snapshot
from app.services.tournaments import open_tournament
from tests.factories import player, snapshot

OPEN = "公开组"
pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "e.xqt"
    db = import_snapshot(snapshot([player(i, "棋手" + "甲乙丙丁戊己庚辛"[i - 1]) for i in range(1, 9)]), path)
    try:
        pair_next_round(db, OPEN, seed=1)
        for b in round_view(db, OPEN, 1).boards:
            enter_result(db, OPEN, 1, b.board, "1-0")
        close_round(db, OPEN, 1)
    finally:
        db.close()
    return path


def test_internal_documents_are_owner_only_and_public_ones_are_not(
    event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = os.umask(0o022)
    try:
        internal = tmp_path / "internal.pdf"
        assert (
            main(["print", str(event), "entry-list", "--group", OPEN, "--internal", "-o", str(internal)]) == 0
        )
        public = tmp_path / "public.pdf"
        assert main(["print", str(event), "standings", "--group", OPEN, "-o", str(public)]) == 0
        audit = tmp_path / "audit.csv"
        assert main(["audit", str(event), "--out", str(audit)]) == 0
        snap = tmp_path / "s.json"
        assert main(["export", str(event), str(snap)]) == 0
    finally:
        os.umask(old)
    capsys.readouterr()
    assert _mode(internal) == 0o600
    assert _mode(audit) == 0o600 and _mode(snap) == 0o600
    assert _mode(public) == 0o644


def test_the_window_and_services_write_internal_lists_owner_only(
    event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.services.exports import holds_personal_numbers, write_document

    assert holds_personal_numbers("payout") and not holds_personal_numbers("prizes")
    db = open_tournament(event, read_only=True)
    try:
        out = write_document(db, "entry-list", tmp_path / "w.pdf", group=OPEN, internal=True)
    finally:
        db.close()
    assert _mode(out) == 0o600
