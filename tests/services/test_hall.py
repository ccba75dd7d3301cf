"""Deputies' passes and their results waiting for the chief: tokens, refusals, conflicts, audit, undo."""

from pathlib import Path

import pytest
from sqlalchemy import select

from app.db.models import DeputyToken, PendingResult
from app.engine.types import GameResult, UserError
from app.services import hall
from app.services.audit import audit_log
from app.services.results import enter_result
from app.services.rounds import close_round, round_view, unpair_round
from app.services.snapshot import import_snapshot
from tests.factories import player, snapshot, swiss_round


@pytest.fixture
def db(tmp_path: Path):
    players = [player(i, f"棋手{i}") for i in range(1, 10)]
    rounds = [
        swiss_round(1, [(1, 5, "pending"), (6, 2, "pending"), (3, 7, "pending"), (8, 9, "pending")], byes=[4])
    ]
    return import_snapshot(snapshot(players, rounds), tmp_path / "t.xqt")


def stored_results(db) -> list[GameResult]:
    return [b.result for b in round_view(db, "公开组", 1).boards]


def test_only_a_digest_of_the_token_is_stored(db) -> None:
    issued = hall.issue_deputy_token(db, "公开组", 1, 2, "王裁判")
    assert len(issued.token) >= 22
    with db.session() as s:
        row = s.scalars(select(DeputyToken)).one()
        assert row.digest == hall.token_digest(issued.token) != issued.token
    raw = db.path.read_bytes() + (
        db.path.with_name(db.path.name + "-wal").read_bytes()
        if db.path.with_name(db.path.name + "-wal").exists()
        else b""
    )
    assert issued.token.encode() not in raw
    assert issued.deputy_pass.active and issued.deputy_pass.round == 1
    assert [e.action for e in audit_log(db)][-1] == "issue_deputy_token"


def test_two_tokens_differ(db) -> None:
    a = hall.issue_deputy_token(db, "公开组", 1, 2, "甲")
    b = hall.issue_deputy_token(db, "公开组", 1, 2, "甲")
    assert a.token != b.token


@pytest.mark.parametrize(
    ("first", "last", "name", "message"),
    [
        (0, 2, "甲", "无效"),
        (3, 2, "甲", "无效"),
        (10, 12, "甲", "没有第"),
        (1, 2, "  ", "姓名"),
        (1, 2, "甲" * 65, "过长|超过"),
        (1, 2, "王\u202e裁判", "U\\+202E"),  # a bidi override would spoof the name on the deputy's page
        (1, 2, "王\u200b裁判", "U\\+200B"),
        (1, 2, "王\x07裁判", "U\\+0007"),
    ],
)
def test_bad_passes_are_refused(db, first: int, last: int, name: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        hall.issue_deputy_token(db, "公开组", first, last, name)
    assert hall.deputy_passes(db) == []


def test_deputy_sees_only_their_boards_with_names_and_numbers(db) -> None:
    issued = hall.issue_deputy_token(db, "公开组", 2, 3, "王裁判")
    view = hall.deputy_view(db, issued.token)
    assert [b.board for b in view.boards] == [2, 3]
    assert view.boards[0].red == "6 棋手6" and view.boards[0].black == "2 棋手2"


@pytest.mark.parametrize("token", ["", "x", "A" * 22, "A" * 500])
def test_a_wrong_token_is_refused_and_nothing_stored(db, token: str) -> None:
    hall.issue_deputy_token(db, "公开组", 1, 4, "王裁判")
    before = len(audit_log(db))
    with pytest.raises(hall.TokenRefused):
        hall.deputy_view(db, token)
    with pytest.raises(hall.TokenRefused):
        hall.submit_deputy_result(db, token, 1, GameResult.RED_WIN, "phone")
    assert len(audit_log(db)) == before
    with db.session() as s:
        assert s.scalars(select(PendingResult)).all() == []


def test_a_board_outside_the_pass_is_refused(db) -> None:
    issued = hall.issue_deputy_token(db, "公开组", 1, 2, "王裁判")
    with pytest.raises(hall.TokenRefused, match="不在您的录入范围"):
        hall.submit_deputy_result(db, issued.token, 3, GameResult.DRAW, "phone")
    assert hall.pending_results(db, "公开组", 1) == []


def test_a_submission_waits_and_changes_no_game(db) -> None:
    issued = hall.issue_deputy_token(db, "公开组", 1, 4, "王裁判")
    hall.submit_deputy_result(
        db, issued.token, 2, GameResult.BLACK_WIN, "192.168.1.23 Mozilla/5.0\x00\n(iPhone)"
    )
    assert stored_results(db) == [GameResult.PENDING] * 4
    [line] = hall.pending_results(db, "公开组", 1)
    assert (line.board, line.result, line.deputy, line.conflict) == (2, GameResult.BLACK_WIN, "王裁判", False)
    assert line.device == "192.168.1.23 Mozilla/5.0 (iPhone)"
    last = audit_log(db)[-1]
    assert (last.action, last.who, last.after) == ("deputy_submit_result", "副裁判 王裁判", "black_win")
    assert "192.168.1.23" in last.reason and "第2台" in last.entity
    assert hall.deputy_view(db, issued.token).boards[1].sent is GameResult.BLACK_WIN


def test_a_deputy_correcting_themself_supersedes_without_conflict(db) -> None:
    issued = hall.issue_deputy_token(db, "公开组", 1, 4, "王裁判")
    hall.submit_deputy_result(db, issued.token, 1, GameResult.RED_WIN, "a")
    hall.submit_deputy_result(db, issued.token, 1, GameResult.DRAW, "a")
    [line] = hall.pending_results(db, "公开组", 1)
    assert line.result is GameResult.DRAW and not line.conflict


def test_two_deputies_who_differ_are_marked_as_a_conflict(db) -> None:
    a = hall.issue_deputy_token(db, "公开组", 1, 4, "甲")
    b = hall.issue_deputy_token(db, "公开组", 1, 2, "乙")
    hall.submit_deputy_result(db, a.token, 1, GameResult.RED_WIN, "a")
    hall.submit_deputy_result(db, b.token, 1, GameResult.BLACK_WIN, "b")
    hall.submit_deputy_result(db, a.token, 2, GameResult.DRAW, "a")
    hall.submit_deputy_result(db, b.token, 2, GameResult.DRAW, "b")
    lines = hall.pending_results(db, "公开组", 1)
    assert [(x.board, x.conflict) for x in lines] == [(1, True), (1, True), (2, False), (2, False)]


def test_a_result_recorded_differently_is_a_conflict(db) -> None:
    a = hall.issue_deputy_token(db, "公开组", 1, 4, "甲")
    enter_result(db, "公开组", 1, 3, GameResult.RED_WIN)
    hall.submit_deputy_result(db, a.token, 3, GameResult.BLACK_WIN, "a")
    hall.submit_deputy_result(db, a.token, 4, GameResult.DRAW, "a")
    enter_result(db, "公开组", 1, 4, GameResult.DRAW)
    three, four = hall.pending_results(db, "公开组", 1)
    assert three.conflict and not three.agrees
    assert not four.conflict and four.agrees


def test_confirming_enters_the_result_rejects_the_rest_and_can_be_undone(db) -> None:
    a = hall.issue_deputy_token(db, "公开组", 1, 4, "甲")
    b = hall.issue_deputy_token(db, "公开组", 1, 4, "乙")
    first = hall.submit_deputy_result(db, a.token, 1, GameResult.RED_WIN, "a")
    second = hall.submit_deputy_result(db, b.token, 1, GameResult.BLACK_WIN, "b")
    done = hall.confirm_pending_result(db, second)
    assert stored_results(db)[0] is GameResult.BLACK_WIN
    assert done.rejected == (first,) and done.entered and done.before is GameResult.PENDING
    assert hall.pending_results(db, "公开组", 1) == []
    actions = [(e.action, e.who) for e in audit_log(db)[-2:]]
    assert actions == [("enter_result", "裁判长"), ("confirm_deputy_result", "裁判长")]
    assert "乙" in audit_log(db)[-1].reason
    with pytest.raises(UserError, match="已处理"):
        hall.confirm_pending_result(db, second)
    hall.undo_confirmation(db, done)
    assert stored_results(db)[0] is GameResult.PENDING
    assert {x.id for x in hall.pending_results(db, "公开组", 1)} == {first, second}


def test_rejecting_changes_no_game(db) -> None:
    a = hall.issue_deputy_token(db, "公开组", 1, 4, "甲")
    entry = hall.submit_deputy_result(db, a.token, 1, GameResult.RED_WIN, "a")
    hall.reject_pending_result(db, entry)
    assert hall.pending_results(db, "公开组", 1) == []
    assert stored_results(db)[0] is GameResult.PENDING
    assert audit_log(db)[-1].action == "reject_deputy_result"


def test_tokens_expire_when_the_round_is_closed(db) -> None:
    a = hall.issue_deputy_token(db, "公开组", 1, 4, "甲")
    for board in range(1, 5):
        enter_result(db, "公开组", 1, board, GameResult.DRAW)
    close_round(db, "公开组", 1)
    with pytest.raises(hall.TokenRefused):
        hall.deputy_view(db, a.token)
    with pytest.raises(hall.TokenRefused):
        hall.submit_deputy_result(db, a.token, 1, GameResult.RED_WIN, "a")
    assert not hall.deputy_passes(db)[0].active
    with pytest.raises(UserError, match="已结束"):
        hall.issue_deputy_token(db, "公开组", 1, 4, "乙")


def test_revoked_tokens_and_unpaired_rounds_refuse(db) -> None:
    a = hall.issue_deputy_token(db, "公开组", 1, 4, "甲")
    b = hall.issue_deputy_token(db, "公开组", 1, 4, "乙")
    hall.submit_deputy_result(db, b.token, 1, GameResult.RED_WIN, "b")
    hall.revoke_deputy_token(db, a.deputy_pass.id)
    with pytest.raises(hall.TokenRefused):
        hall.submit_deputy_result(db, a.token, 1, GameResult.RED_WIN, "a")
    assert audit_log(db)[-1].action == "revoke_deputy_token"
    unpair_round(db, "公开组", 1)
    with pytest.raises(hall.TokenRefused):
        hall.deputy_view(db, b.token)
    with db.session() as s:
        assert s.scalars(select(PendingResult)).all() == []


def test_printed_address(db) -> None:
    assert hall.hall_base_url(db) == ""
    assert hall.set_hall_base_url(db, " http://192.168.1.10:8080/ ") == "http://192.168.1.10:8080"
    assert hall.hall_base_url(db) == "http://192.168.1.10:8080"
    assert audit_log(db)[-1].action == "set_hall_address"
    for bad in (
        "ftp://x",
        "http://",
        "http://a b",
        "192.168.1.10",
        "http://x/y?z",
        "http://u@x",
        "http://x:99999",
    ):
        with pytest.raises(UserError, match="网址"):
            hall.set_hall_base_url(db, bad)
    assert hall.hall_base_url(db) == "http://192.168.1.10:8080"
    assert hall.set_hall_base_url(db, "") == ""


def test_change_stamp_grows_with_every_change(db) -> None:
    before = hall.change_stamp(db)
    enter_result(db, "公开组", 1, 1, GameResult.DRAW)
    assert hall.change_stamp(db) > before


def test_paths() -> None:
    assert hall.group_path(2) == "/g/2/"
    assert hall.board_path(1, 4, 12) == "/g/1/r/4/b/12"
    assert hall.is_loopback("127.0.0.1") and hall.is_loopback("::1") and not hall.is_loopback("192.168.1.2")
