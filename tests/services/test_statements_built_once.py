"""The reads every action makes use statements built once, and the tournament's row is read once per
action: building a statement and its cache key cost more than running it on SQLite (the eighth round's
profile of the tests: a third of their time in SQLAlchemy, the group's and the tournament's rows on top)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, Session

from app.db.session import Database
from app.services.brackets import load_bracket
from app.services.results import round_row
from app.services.rounds import rounds_of
from app.services.tournaments import group_row, regulations_of, tournament_row
from tests.factories import open_copy


@contextmanager
def statements() -> Iterator[list[object]]:
    """Every statement the ORM executes inside the block, in order."""
    seen: list[object] = []

    def note(state: ORMExecuteState) -> None:
        seen.append(state.statement)

    event.listen(Session, "do_orm_execute", note)
    try:
        yield seen
    finally:
        event.remove(Session, "do_orm_execute", note)


def reads(db: Database) -> None:
    with db.session() as s:
        g = group_row(s, "天水本地组")
        reg = regulations_of(s)
        round_row(s, g, 9)
        round_row(s, g, 9, explanation=False)
        load_bracket(s, g, reg)
    rounds_of(db, "天水本地组")


def test_the_same_reads_twice_execute_the_very_same_statements(midway_demo: Path, tmp_path: Path) -> None:
    db = open_copy(midway_demo, tmp_path / "event.xqt")
    try:
        reads(db)  # anything built on first use is built here
        with statements() as first:
            reads(db)
        with statements() as second:
            reads(db)
    finally:
        db.close()
    assert len(first) == len(second) >= 9
    assert all(a is b for a, b in zip(first, second, strict=True))


def test_the_tournament_row_is_read_once_per_action(midway_demo: Path, tmp_path: Path) -> None:
    db = open_copy(midway_demo, tmp_path / "event.xqt")
    try:
        with statements() as seen, db.session() as s:
            first = tournament_row(s)
            assert tournament_row(s) is first
            regulations_of(s)
        assert len(seen) == 1
        with db.session() as s:  # a new action reads it again: another may have changed it
            assert tournament_row(s).regulations == first.regulations
            assert tournament_row(s).name == first.name
    finally:
        db.close()


def test_saving_an_unchanged_bracket_marks_no_row_changed(midway_demo: Path, tmp_path: Path) -> None:
    """save_bracket flushes once per match (so new rows get their ids in order): a row set to the values
    it has must not be marked changed, or every one of those flushes works through the whole bracket."""
    from app.services.brackets import save_bracket

    db = open_copy(midway_demo, tmp_path / "event.xqt")
    changed: list[int] = []
    try:
        with db.session() as s:
            g = group_row(s, "天水本地组")
            bracket = load_bracket(s, g, regulations_of(s))
            assert bracket is not None and bracket.matches
            event.listen(s, "before_flush", lambda session, *_: changed.append(len(session.dirty)))
            save_bracket(s, g, bracket)
            after = load_bracket(s, g, regulations_of(s))
        assert not any(changed)  # (a flush with nothing changed is not even begun)
        assert after == bracket
    finally:
        db.close()


def test_the_regulation_is_read_as_its_stored_text_and_an_unsaved_change_is_seen(
    midway_demo: Path, tmp_path: Path
) -> None:
    """regulations_of parses the stored text once per text, without making the tournament's row of it
    (decoding its JSON each action); inside an action that has the row, the row as it stands counts."""
    import dataclasses

    from app.engine.regulations import regulations_to_dict
    from app.services.tournaments import _TOURNAMENT_KEY

    db = open_copy(midway_demo, tmp_path / "event.xqt")
    try:
        with db.session() as s:
            reg = regulations_of(s)
            assert s.identity_map.get(_TOURNAMENT_KEY) is None
        with db.session() as s:
            assert regulations_of(s) is reg  # the same text: the same parsed regulation
            row = tournament_row(s)
            row.regulations = regulations_to_dict(dataclasses.replace(reg, venue="另一个赛场"))
            assert regulations_of(s).venue == "另一个赛场"
            s.rollback()
        with db.session() as s:
            assert regulations_of(s) is reg
    finally:
        db.close()
