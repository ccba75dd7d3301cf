"""Pairing through the services: refusals, storage, explanations, unpairing and the arbiter's overrides."""

from pathlib import Path

import pytest

from app.engine.types import UserError
from app.services.audit import audit_log
from app.services.overrides import SetPair, SwapColours, SwapPlayers, apply_override, preview_override
from app.services.results import enter_result
from app.services.rounds import pair_next_round, pairing_explanation, round_view, unpair_round
from app.services.simulation import play_random_results
from app.services.snapshot import import_snapshot
from tests.factories import player, snapshot


@pytest.fixture
def db(tmp_path: Path):
    teams = ["甲队", "甲队", "乙队", "乙队", None, None, None]
    players = [player(i, f"棋手{i}", team=teams[i - 1]) for i in range(1, 8)]
    return import_snapshot(snapshot(players), tmp_path / "t.xqt")


def test_round_one_pairs_halves_gives_the_bye_to_the_last_and_backs_up(db, tmp_path: Path) -> None:
    out = pair_next_round(db, "公开组", seed=5)
    view = round_view(db, "公开组", 1)
    assert (out.number, out.boards, out.bye, out.seed) == (1, 3, 7, 5)
    assert [b.no for b in view.byes] == [7]
    pairs = [frozenset((b.red.no, b.black.no)) for b in view.boards]
    assert pairs == [frozenset((1, 4)), frozenset((2, 5)), frozenset((3, 6))]  # 1–4, 2–5, 3–6
    assert out.backup_warning == ""
    assert any(p.name.endswith("paired-公开组-r1.xqt") for p in (tmp_path / "t.backups").iterdir())
    assert "轮空" in pairing_explanation(db, "公开组", 1, 7)
    assert pairing_explanation(db, "公开组", 1, 1).startswith("第 1 台")
    assert pairing_explanation(db, "公开组", 1, 1, english=True).startswith("Board 1: ")
    assert "bye" in pairing_explanation(db, "公开组", 1, 7, english=True)


def test_next_round_refused_while_results_are_pending(db) -> None:
    pair_next_round(db, "公开组", seed=1)
    enter_result(db, "公开组", 1, 2, "=")
    with pytest.raises(UserError, match="1、3"):
        pair_next_round(db, "公开组", seed=2)


def test_unpair_only_before_results(db) -> None:
    pair_next_round(db, "公开组", seed=1)
    enter_result(db, "公开组", 1, 1, "1-0")
    with pytest.raises(UserError, match="已录入成绩"):
        unpair_round(db, "公开组", 1)
    enter_result(db, "公开组", 1, 1, "pending")
    unpair_round(db, "公开组", 1)
    with pytest.raises(UserError, match="尚未编排"):
        round_view(db, "公开组", 1)
    assert pair_next_round(db, "公开组", seed=3).number == 1


def test_override_names_the_broken_rule_and_needs_confirmation(db) -> None:
    pair_next_round(db, "公开组", seed=1)
    view = round_view(db, "公开组", 1)
    board_of = {b.red.no: b.board for b in view.boards} | {b.black.no: b.board for b in view.boards}
    preview = preview_override(db, "公开组", 1, SetPair(1, 2))  # teammates in round 1 (H2)
    assert [b.kind.value for b in preview.breaks] == ["teammates"]
    with pytest.raises(UserError, match="同队"):
        apply_override(db, "公开组", 1, SetPair(1, 2))
    apply_override(db, "公开组", 1, SetPair(1, 2), confirm=True, reason="双方同意，裁判长批准")
    after = round_view(db, "公开组", 1)
    pairs = {frozenset((b.red.no, b.black.no)) for b in after.boards}
    assert frozenset((1, 2)) in pairs and frozenset((4, 5)) in pairs
    assert "手工调整" in pairing_explanation(db, "公开组", 1, 1)
    line = audit_log(db, action="override_pairing")[-1]
    assert line.reason == "双方同意，裁判长批准" and "teammates" in line.after
    del board_of


def test_clean_swaps_need_no_confirmation_and_the_bye_can_move(db) -> None:
    pair_next_round(db, "公开组", seed=1)
    first = round_view(db, "公开组", 1).boards[0]
    apply_override(db, "公开组", 1, SwapColours(1))
    swapped = round_view(db, "公开组", 1).boards[0]
    assert (swapped.red.no, swapped.black.no) == (first.black.no, first.red.no)
    apply_override(db, "公开组", 1, SwapPlayers(6, 7))  # 7 had the bye
    view = round_view(db, "公开组", 1)
    assert [b.no for b in view.byes] == [6]
    assert any(7 in (b.red.no, b.black.no) for b in view.boards)


def test_rematch_and_second_bye_are_reported(db) -> None:
    pair_next_round(db, "公开组", seed=1)
    r1 = round_view(db, "公开组", 1)
    first_bye = r1.byes[0].no
    play_random_results(db, "公开组", 1, seed=1)
    pair_next_round(db, "公开组", seed=2)
    r2 = round_view(db, "公开组", 2)
    second_bye = r2.byes[0].no
    assert second_bye != first_bye  # H4 held by the engine
    kinds = {
        b.kind.value for b in preview_override(db, "公开组", 2, SwapPlayers(second_bye, first_bye)).breaks
    }
    assert "second_bye" in kinds
    # any round-2 pair of players who met in round 1 would be a rematch: make one
    met = {frozenset((b.red.no, b.black.no)) for b in r1.boards}
    playing = {x for b in r2.boards for x in (b.red.no, b.black.no)}
    a, b = next(tuple(sorted(p)) for p in met if p <= playing)
    kinds = {k.kind.value for k in preview_override(db, "公开组", 2, SetPair(a, b)).breaks}
    assert "rematch" in kinds
