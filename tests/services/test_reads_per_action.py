"""What an action or a reading reads: the regulation once per reading of one state of the file, the
guard against writes inside a reading set up once per file (not per session), the players' numbers of a
pairing as two columns, and a snapshot's games and byes with one query for every round (the ninth
round's profile of the tests: a third of their CPU in SQLAlchemy, the services' per-call cost on top)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

import app.db.session as session_module
from app.services.rounds import pair_next_round
from app.services.snapshot import snapshot_of
from app.services.tournaments import regulations_of, update_regulations
from tests.factories import open_copy

LOCAL = "天水本地组"


@contextmanager
def sql(engine: Engine) -> Iterator[list[str]]:
    """Every SQL statement sent to the file inside the block, in order."""
    seen: list[str] = []

    def note(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def _regulation_reads(seen: list[str]) -> int:
    return sum(1 for q in seen if "regulations" in q and "FROM tournament" in q)


def test_the_regulation_is_read_once_in_one_reading_and_afresh_by_the_next_action(
    midway_demo: Path, tmp_path: Path
) -> None:
    db = open_copy(midway_demo, tmp_path / "event.xqt")
    try:
        with sql(db.engine) as seen:
            with db.one_reading():
                for _ in range(3):
                    with db.session() as s:
                        first = regulations_of(s)
            assert _regulation_reads(seen) == 1
            seen.clear()
            for _ in range(2):  # outside a reading every action reads it: another may have changed it
                with db.session() as s:
                    assert regulations_of(s) == first
            assert _regulation_reads(seen) == 2
        changed = dataclasses.replace(first, venue="另一个赛场")
        update_regulations(db, changed)
        with db.one_reading(), db.session() as s:  # the next reading sees the change
            assert regulations_of(s).venue == "另一个赛场"
        with db.session() as s:
            assert regulations_of(s).venue == "另一个赛场"
    finally:
        db.close()


def test_a_reading_sets_up_no_listener_per_session_and_still_refuses_writes(
    midway_demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = open_copy(midway_demo, tmp_path / "event.xqt")
    listened: list[object] = []
    real_listen = session_module.event.listen

    def counting(*args: object, **kwargs: object) -> None:
        listened.append(args[1])
        real_listen(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(session_module.event, "listen", counting)
    try:
        with db.one_reading():
            for _ in range(3):
                with db.session() as s:
                    regulations_of(s)
                reg = regulations_of(s)
            with pytest.raises(RuntimeError, match="one_reading"):
                update_regulations(db, dataclasses.replace(reg, venue="另一个赛场"))
        assert listened == []
        with db.session() as s:
            assert regulations_of(s).venue == reg.venue  # nothing of the refused write was kept
        # outside the reading the same file's sessions write as ever
        update_regulations(db, dataclasses.replace(reg, venue="另一个赛场"))
        with db.session() as s:
            assert regulations_of(s).venue == "另一个赛场"
        assert listened == []
        other = db.borrowed()  # a file opened (or lent) sets its guard up once
        assert listened == ["before_flush"]
        other.close()
    finally:
        db.close()


def test_pairing_a_round_reads_no_players_rows(midway_demo: Path, tmp_path: Path) -> None:
    """The players' numbers and the unnumbered players' names are read as columns: the lazy load of
    every player's row of the group (5,000 rows for two numbers each) is not made."""
    db = open_copy(midway_demo, tmp_path / "event.xqt")
    try:
        from app.services.rounds import rounds_of
        from app.services.simulation import play_random_results

        done = max(r.number for r in rounds_of(db, LOCAL))
        play_random_results(db, LOCAL, done, seed=3)
        with sql(db.engine) as seen:
            outcome = pair_next_round(db, LOCAL, seed=7)
        assert outcome.number == done + 1
        flat = [" ".join(q.split()) for q in seen]
        assert [q for q in flat if "FROM players WHERE players.group_id = ?" in q]  # the numbers, as columns
        assert not [q for q in flat if "FROM players WHERE ? = players.group_id" in q]  # no lazy load
    finally:
        db.close()


def test_a_snapshot_reads_the_games_and_byes_of_every_round_at_once(
    midway_demo: Path, tmp_path: Path
) -> None:
    db = open_copy(midway_demo, tmp_path / "event.xqt")
    try:
        with sql(db.engine) as seen, db.session() as s:
            snap = snapshot_of(s)
        rounds = len(snap["rounds"])
        assert rounds >= 5
        assert sum(1 for q in seen if "FROM games" in q and "games.round_id" in q) == 1
        assert sum(1 for q in seen if "FROM byes" in q) == 1
    finally:
        db.close()


def test_a_snapshots_regulation_is_parsed_once_per_text_and_a_changed_one_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checking a snapshot reads its regulation twice (the schema, the references) and the tests import
    the same snapshots again and again: it is parsed once per text. A changed regulation is parsed (and
    refused when wrong) as ever."""
    import copy

    import app.db.lite as regulations_module  # where a regulation text is decoded, once per text
    from app.engine.types import UserError
    from app.selftest import sample_snapshot
    from app.services.snapshot import import_snapshot

    parsed: list[object] = []
    real = regulations_module.regulations_from_dict

    def counting(data: dict[str, object]) -> object:
        parsed.append(data)
        return real(data)

    monkeypatch.setattr(regulations_module, "regulations_from_dict", counting)
    snap = sample_snapshot(4, rounds=1)
    snap["tournament"]["settings"]["venue"] = f"赛场 {tmp_path.name}"  # a text no test parsed before
    import_snapshot(snap, tmp_path / "a.xqt").close()
    import_snapshot(copy.deepcopy(snap), tmp_path / "b.xqt").close()
    assert len(parsed) == 1
    other = copy.deepcopy(snap)
    other["tournament"]["settings"]["venue"] = "另一个赛场"
    with import_snapshot(other, tmp_path / "c.xqt") as db, db.session() as s:
        assert regulations_of(s).venue == "另一个赛场"
    assert len(parsed) == 2
    wrong = copy.deepcopy(snap)
    wrong["tournament"]["settings"]["groups"][0]["rounds"] = -3
    with pytest.raises(UserError):
        import_snapshot(wrong, tmp_path / "d.xqt")
    assert not (tmp_path / "d.xqt").exists()
