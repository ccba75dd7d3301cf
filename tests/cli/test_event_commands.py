"""The event commands end to end through the CLI: pair, results, standings, discipline, knockout, check."""

import json
from pathlib import Path

import pytest

from app.cli import main
from app.services.audit import audit_log
from app.services.simulation import play_random_results
from app.services.tournaments import open_tournament

G = "天水本地组"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """The demo's local group (40 players) played through the CLI to the split (8 rounds)."""
    path = tmp_path_factory.mktemp("cli") / "t.xqt"
    assert main(["demo", str(path), "--seed", "8"]) == 0
    for number in range(1, 9):
        assert main(["pair", str(path), "--group", G, "--seed", str(number)]) == 0
        db = open_tournament(path)
        try:
            play_random_results(db, G, number, seed=number)
        finally:
            db.close()
    return path


def test_pair_is_refused_with_the_pending_boards(tmp_path: Path, capsys) -> None:
    path = tmp_path / "d.xqt"
    main(["demo", str(path), "--seed", "2"])
    assert run(capsys, "pair", str(path), "--group", G, "--seed", "1")[0] == 0
    code, _, err = run(capsys, "pair", str(path), "--group", G)
    assert code == 2 and "未录入成绩" in err and "1、2、3" in err


def test_standings_json_shape_and_no_shared_rank(played: Path, capsys) -> None:
    code, out, _ = run(capsys, "standings", str(played), "--group", G, "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 40
    assert [r["rank"] for r in rows] == list(range(1, 41))
    assert set(rows[0]) == {"rank", "no", "name", "team", "score", "tiebreaks", "separated_by"}
    assert set(rows[0]["tiebreaks"]) == {"opponent_score", "wins", "violations", "black_games", "black_wins"}
    scores = [r["score"] for r in rows]
    assert scores == sorted(scores, reverse=True)
    assert rows[-1]["separated_by"] is None and all(r["separated_by"] for r in rows[:-1])
    earlier = json.loads(
        run(capsys, "standings", str(played), "--group", G, "--after-round", "3", "--json")[1]
    )
    assert max(r["score"] for r in earlier) <= 6


def test_why_above_and_why(played: Path, capsys) -> None:
    rows = json.loads(run(capsys, "standings", str(played), "--group", G, "--json")[1])
    a, b = rows[0]["no"], rows[1]["no"]
    code, out, _ = run(capsys, "why-above", str(played), "--group", G, str(b), str(a))
    assert code == 0 and out.startswith(f"{a} 号排在 {b} 号之前")
    code, out, _ = run(capsys, "why", str(played), "--group", G, "--round", "2", "--player", str(a))
    assert code == 0 and "台" in out


def test_knockout_flow_through_the_cli(played: Path, tmp_path: Path, capsys) -> None:
    path = tmp_path / "k.xqt"
    path.write_bytes(played.read_bytes())
    code, _, err = run(capsys, "pair", str(path), "--group", G)
    assert code == 2 and "淘汰赛" in err
    code, out, _ = run(capsys, "knockout", str(path), "--group", G)
    assert code == 0 and "种子" in out
    assert run(capsys, "knockout", str(path), "--group", G)[0] == 2  # once only
    bracket = json.loads(run(capsys, "bracket", str(path), "--group", G, "--json")[1])
    qf1 = next(m for m in bracket["matches"] if m["code"] == "QF1")
    assert (qf1["high"], qf1["low"]) == (bracket["seeds"][0], bracket["seeds"][7])
    code, out, _ = run(
        capsys,
        "draw-colours",
        str(path),
        "--group",
        G,
        "--round",
        "9",
        "--seed",
        "77",
        "--manual",
        f"QF1={qf1['low']}",
    )
    assert code == 0 and f"QF1: {qf1['low']} 号执红（现场抽签）" in out
    again = json.loads(run(capsys, "bracket", str(path), "--group", G, "--json")[1])
    round9 = {m["code"]: m for m in again["matches"] if m["round"] == 9}
    assert round9["QF1"]["first_red"] == qf1["low"] and round9["QF1"]["colour_seed"] is None
    assert {m["colour_seed"] for code, m in round9.items() if code != "QF1"} == {77}
    db = open_tournament(path)
    try:
        lot = audit_log(db, action="draw_colours")[-1]
    finally:
        db.close()
    assert '"seed": 77' in lot.after and "QF1" in lot.after
    # QF1 game 1 on board 1: a draw brings the rapid game with colours swapped
    assert run(capsys, "result", str(path), "--group", G, "--round", "9", "--board", "1", "=")[0] == 0
    pairings = json.loads(run(capsys, "pairings", str(path), "--group", G, "--round", "9", "--json")[1])
    board1 = next(g for g in pairings["games"] if g["board"] == 1)
    assert (board1["red"], board1["black"], board1["result"]) == (qf1["high"], qf1["low"], "pending")
    # game 2 (rapid) by match code: Black wins, the match is decided
    code, _, err = run(capsys, "result", str(path), "--group", G, "--match", "qf1", "--game", "2", "0-1")
    assert code == 0, err
    decided = json.loads(run(capsys, "bracket", str(path), "--group", G, "--json")[1])
    qf1_after = next(m for m in decided["matches"] if m["code"] == "QF1")
    assert qf1_after["winner"] == qf1["low"] and [g["result"] for g in qf1_after["games"]] == [
        "draw",
        "black_win",
    ]
    code, _, err = run(capsys, "result", str(path), "--group", G, "--match", "QF1", "1-0")
    assert code == 2 and "--game" in err
    assert run(capsys, "pair", str(path), "--group", G, "--seed", "9")[0] == 0  # the continuing Swiss
    swiss = [
        g
        for g in json.loads(run(capsys, "pairings", str(path), "--group", G, "--json")[1])["games"]
        if g["board"] > 4
    ]
    seeds = set(bracket["seeds"])
    assert len(swiss) == 16 and not seeds & {x for g in swiss for x in (g["red"], g["black"])}


def test_discipline_commands(played: Path, tmp_path: Path, capsys) -> None:
    path = tmp_path / "d.xqt"
    path.write_bytes(played.read_bytes())
    assert (
        run(
            capsys,
            "violation",
            str(path),
            "--group",
            G,
            "--player",
            "3",
            "--round",
            "8",
            "--reason",
            "拒绝签字",
        )[0]
        == 0
    )
    assert run(capsys, "withdraw", str(path), "--group", G, "--player", "5", "--reason", "伤病")[0] == 0
    assert (
        run(
            capsys,
            "disqualify",
            str(path),
            "--group",
            G,
            "--player",
            "6",
            "--games",
            "annul",
            "--reason",
            "作弊",
        )[0]
        == 0
    )
    rows = json.loads(run(capsys, "standings", str(path), "--group", G, "--json")[1])
    assert 6 not in [r["no"] for r in rows] and len(rows) == 39
    assert next(r for r in rows if r["no"] == 3)["tiebreaks"]["violations"] == 1
    code, _, err = run(capsys, "forfeit", str(path), "--group", G, "--round", "8", "--kind", "agreed")
    assert code == 2 and "--board" in err


def test_simulate_prints_the_quality_figures(capsys) -> None:
    code, out, _ = run(capsys, "simulate", "--players", "40", "--rounds", "7", "--seed", "3", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["rematches"], data["h3_breaks"], data["double_byes"]) == (0, 0, 0)
    assert len(data["seconds_per_round"]) == 7 and data["peak_memory_mb"] > 0
    assert data["missed_due_colours"] > 0 and data["order_cost"] >= data["largest_order_cost"] > 0
    assert data["rounds_not_proved_optimal"] == 0 and data["long_floats"] >= 0


def test_check_finds_a_planted_rematch(played: Path, tmp_path: Path, capsys) -> None:
    snap = tmp_path / "s.json"
    assert run(capsys, "export", str(played), str(snap))[0] == 0
    assert run(capsys, "check", str(snap))[0] == 0
    data = json.loads(snap.read_text())
    r1 = next(r for r in data["rounds"] if r["group"] == G and r["round"] == 1)["games"][0]
    r2 = next(r for r in data["rounds"] if r["group"] == G and r["round"] == 2)["games"]
    # make two round-1 opponents meet again in round 2 by swapping them into board 1
    a, b = r1["red"], r1["black"]
    # (the occupants of board 1 are read once: a swap must not read a seat it has just changed, or a
    # player ends up twice in the round, which the snapshot's schema now refuses)
    for one, other in ((a, r2[0]["red"]), (b, r2[0]["black"])):
        for g in r2:
            for side in ("red", "black"):
                if g[side] == one:
                    g[side] = other
                elif g[side] == other:
                    g[side] = one
    snap.write_text(json.dumps(data, ensure_ascii=False))
    code, out, _ = run(capsys, "check", str(snap))
    assert code == 1 and "rematch" in out


def test_records_hand_in_and_refusals_at_closing(played: Path, tmp_path: Path, capsys) -> None:
    path = tmp_path / "r.xqt"
    path.write_bytes(played.read_bytes())
    code, out, _ = run(capsys, "records-due", str(path), "--group", G, "--round", "8")
    owed = [line for line in out.splitlines() if "未交" in line]
    assert code == 0 and 1 <= len(owed) <= 10  # winners on boards 1–10, Black for draws
    first_board = int(owed[0].split("台")[0].removeprefix("第"))
    assert (
        run(
            capsys,
            "hand-in",
            str(path),
            "--group",
            G,
            "--round",
            "8",
            "--board",
            str(first_board),
            "--moves",
            "41",
        )[0]
        == 0
    )
    code, _, err = run(capsys, "close-round", str(path), "--group", G, "--round", "8")
    assert code == 2 and "--confirm-refusals" in err and f"{len(owed) - 1} 份" in err
    code, out, _ = run(capsys, "close-round", str(path), "--group", G, "--round", "8", "--confirm-refusals")
    assert code == 0 and f"已记拒不录谱 {len(owed) - 1} 次" in out
    rows = json.loads(run(capsys, "standings", str(path), "--group", G, "--json")[1])
    assert sum(r["tiebreaks"]["violations"] for r in rows) == len(owed) - 1


def test_why_says_why_this_floater_and_not_another(played: Path, capsys) -> None:
    """A pair joining two scores: `why` says the floater and which rule chose them (docs/rules.md §5), in
    Chinese then English; a pair of equal scores says nothing of floating."""
    from app.services.rounds import round_view

    db = open_tournament(played, read_only=True)
    try:
        cross = [
            (n, b) for n in range(2, 9) for b in round_view(db, G, n).boards if b.red.score != b.black.score
        ]
        assert cross, "a Swiss event of 40 players has floats"
        number, board = cross[0]
        same = next(b for b in round_view(db, G, number).boards if b.red.score == b.black.score)
    finally:
        db.close()
    higher = board.red if board.red.score > board.black.score else board.black
    code, out, _ = run(
        capsys, "why", str(played), "--group", G, "--round", str(number), "--player", str(board.red.no)
    )
    assert code == 0
    assert f"第 {board.board} 台" in out and "降组" in out and f"{higher.no}号" in out
    assert "降组人选" in out or "若改由" in out  # which rule chose this floater and not another
    assert "float" in out  # the English line follows
    code, out, _ = run(
        capsys, "why", str(played), "--group", G, "--round", str(number), "--player", str(same.red.no)
    )
    assert code == 0 and "降组" not in out  # equal scores: nobody floated
