"""Integrity of a tournament file, and where its backups live.

Backups of ``D/赛事.xqt`` are kept in the folder ``D/赛事.backups/`` as
``赛事-YYYYmmdd-HHMMSS-<reason>.xqt`` (the layout is owned here so that the refusal of a corrupt file
can name the newest good backup; making and restoring backups is ``app.services.backups``).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import Any, NamedTuple

from app.engine.records import frozen
from app.engine.types import UserError
from app.files import DiskFullError, is_disk_full

BACKUP_SUFFIX = ".xqt"


class DatabaseError(UserError):
    """The file cannot be opened as a tournament (corrupt, not ours, or newer than the program)."""


class FileBusyError(UserError):
    """Another program holds the file's lock (writing it) past the wait: nothing is wrong with the file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(
            f"{path.name} 正被另一个程序占用，请稍后重试",
            f"{path.name} is busy in another program; retry",
        )


def is_busy(exc: BaseException) -> bool:
    """Whether an SQLite error says another connection holds the lock (SQLITE_BUSY / SQLITE_LOCKED)."""
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    return (
        name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))
        or "database is locked" in text
        or ("database is busy" in text)
    )


class CorruptFileError(DatabaseError):
    """The file fails SQLite's integrity check; it is never opened for writing."""

    def __init__(self, path: Path, problem: str, good_backup: Path | None = None) -> None:
        self.path = path
        self.problem = problem
        self.good_backup = good_backup
        if good_backup is not None:
            offer_zh = f"最新的完好备份是 {good_backup.name}（在 {good_backup.parent} 中），可从它恢复"
            offer_en = f"the newest good backup is {good_backup.name} (in {good_backup.parent}); restore it"
        else:
            offer_zh, offer_en = "没有找到完好的备份", "no good backup was found"
        problem_zh, problem_en = _halves(problem)
        super().__init__(
            f"{path.name} 已损坏，不能打开（{problem_zh}）。{offer_zh}",
            f"{path.name} is corrupt and cannot be opened ({problem_en}); {offer_en}",
        )


def _halves(problem: str) -> tuple[str, str]:
    """A problem written ``中文 (English)`` (several joined by ``；``) as its Chinese and English halves;
    a problem in one language only (SQLite's own words) is given to both."""
    import re

    zh, en = [], []
    for part in problem.split("；"):
        m = re.fullmatch(r"(.*[\u4e00-\u9fff].*?) \(([^\u4e00-\u9fff]*)\)", part.strip(), re.S)
        zh.append(m.group(1) if m else part)
        en.append(m.group(2) if m else part)
    return "；".join(zh), "; ".join(en)


def integrity_problems(path: Path, *, quick: bool = False, writable: bool = False) -> list[str]:
    """SQLite's ``integrity_check`` (or the faster ``quick_check``): an empty list means sound.

    A file that SQLite cannot read at all gives one problem naming the error. ``writable`` opens the
    file read-write, so that a write-ahead log left by a crash is recovered before the check.
    """
    pragma = "quick_check" if quick else "integrity_check"
    mode = "rw" if writable else "ro"
    try:
        con = sqlite3.connect(f"file:{path.resolve()}?mode={mode}", uri=True)
    except sqlite3.Error as exc:
        if is_disk_full(exc, path):
            raise DiskFullError(path) from None
        return [str(exc)]
    con.text_factory = lambda b: b.decode("utf-8", "replace")  # a damaged name in a message must not crash
    try:
        rows = [str(r[0]) for r in con.execute(f"PRAGMA {pragma}")]
    except sqlite3.DatabaseError as exc:
        if is_disk_full(exc, path):  # the log or its index could not be written: not a damaged file
            raise DiskFullError(path) from None
        return [str(exc)]
    except UnicodeDecodeError:  # SQLite's own message quotes the damaged schema text
        return ["数据库结构中的文字已损坏 (the schema text does not decode)"]
    finally:
        con.close()
    return [] if rows == ["ok"] else rows


# --------------------------------------------------------------------------- what integrity_check cannot see


def _coded_values() -> dict[tuple[str, str], frozenset[str]]:
    """The closed sets of codes stored in text columns, from the engine's enums."""
    from app.engine.knockout import ColourMethod, GameKind
    from app.engine.regulations import AvoidanceStrength
    from app.engine.types import GameResult, Gender, IdDocument, PlayerStatus, RoundStage, ViolationKind

    def values(*enums: Any, extra: tuple[str, ...] = ()) -> frozenset[str]:
        return frozenset(m.value for e in enums for m in e) | frozenset(extra)

    return {
        ("players", "status"): values(PlayerStatus),
        ("players", "gender"): values(Gender, extra=("",)),
        ("players", "id_type"): values(IdDocument, extra=("fide",)),
        ("players", "dq_games"): frozenset({"", "stand", "annul"}),
        ("groups", "numbers_method"): frozenset({"", "lot", "rating", "manual"}),
        ("rounds", "stage"): values(RoundStage),
        ("games", "result"): values(GameResult),
        ("games", "kind"): values(GameKind, extra=("swiss", "board")),  # board: a team match's board
        ("team_lineups", "method"): frozenset({"captain", "registered", "lot"}),
        ("knockout_matches", "colour_method"): values(ColourMethod, extra=("",)),
        ("violations", "kind"): values(ViolationKind),
        ("violations", "source"): frozenset({"arbiter", "auto"}),
        ("pair_avoidances", "strength"): values(AvoidanceStrength),  # pairing constraints
    }


def _checker(kind: str) -> Callable[[Any], bool]:
    def text(v: Any) -> bool:
        return isinstance(v, bytes)

    def integer(v: Any) -> bool:
        return isinstance(v, int)

    def boolean(v: Any) -> bool:
        return v in (0, 1)

    def parsed(parse: Callable[[str], Any]) -> Callable[[Any], bool]:
        def check(v: Any) -> bool:
            try:
                parse(v.decode("utf-8"))
            except (ValueError, AttributeError, RecursionError):
                return False
            return True

        return check

    return {
        "text": text,
        "integer": integer,
        "boolean": boolean,
        "date": parsed(date.fromisoformat),
        "datetime": parsed(datetime.fromisoformat),
        "json": parsed(json.loads),
    }[kind]


class _Column(NamedTuple):
    """A column as the value check reads it (:data:`SCHEMA_COLUMNS`)."""

    name: str
    kind: str  # text, integer, boolean, date, datetime, json, or any
    required: bool  # NOT NULL and not the primary key


def _suspect_condition(table: str, column: _Column, kind: str, allowed: frozenset[str] | None) -> str:
    """SQL that is true for a value of ``column`` that may be damaged (checked precisely afterwards)."""
    c = f'"{column.name}"'
    parts = [f"{c} IS NULL"] if column.required else []
    if kind == "text":
        parts.append(f"typeof({c}) NOT IN ('text', 'null')")
    elif kind == "integer":
        parts.append(f"typeof({c}) NOT IN ('integer', 'null')")
    elif kind == "boolean":
        parts.append(f"({c} IS NOT NULL AND (typeof({c}) != 'integer' OR {c} NOT IN (0, 1)))")
    elif kind == "date":
        parts.append(f"({c} IS NOT NULL AND (typeof({c}) != 'text' OR date({c}) IS NOT {c}))")
    elif kind == "datetime":
        parts.append(
            f"({c} IS NOT NULL AND (typeof({c}) != 'text' OR datetime(substr({c}, 1, 19)) IS NOT substr({c}, 1, 19)"
            f" OR (length({c}) != 19 AND NOT substr({c}, 20) GLOB '.[0-9]*')))"
        )
    elif kind == "json":
        parts.append(f"({c} IS NOT NULL AND (typeof({c}) != 'text' OR NOT json_valid({c})))")
    if allowed is not None:
        values = ", ".join("'" + v.replace("'", "''") + "'" for v in sorted(allowed))
        parts.append(f"({c} IS NOT NULL AND {c} NOT IN ({values}))")
    return " OR ".join(parts)


def content_problems(path: Path, *, limit: int = 10) -> list[str]:
    """What ``PRAGMA integrity_check`` cannot see: a value damaged inside a sound page.

    Every text decodes as UTF-8, every date, time and JSON value parses, every number is a number,
    every coded value (status, result, kind …) is one this program knows, and no required value is
    missing. An empty list means sound; each problem names the table, the row and the column.

    Fast enough for every open: SQL finds the suspect rows and each text column is decoded in one
    piece; only suspects are then looked at value by value.
    """
    coded = _coded_values()
    problems: list[str] = []
    try:
        con = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return [str(exc)]
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        present_by_table = {
            t: {r[1] for r in con.execute(f'PRAGMA table_info("{t}")')} for t in tables if t.isidentifier()
        }
        problems.extend(_structure_problems(con, present_by_table, limit))
        if len(problems) >= limit:
            return problems[:limit]
        con.text_factory = bytes  # decode here, strictly, instead of failing later in the middle of an action
        for table_name, table_columns in SCHEMA_COLUMNS.items():
            present = present_by_table.get(table_name)
            if not present:
                continue
            columns = [_Column(*c) for c in table_columns if c[0] in present]
            kinds = {c.name: c.kind for c in columns}
            suspects: set[int] = set()
            condition = " OR ".join(
                f"({cond})"
                for c in columns
                if (cond := _suspect_condition(table_name, c, kinds[c.name], coded.get((table_name, c.name))))
            )
            if condition:
                suspects |= {
                    r[0]
                    for r in con.execute(f'SELECT rowid FROM "{table_name}" WHERE {condition} LIMIT {limit}')
                }
            for c in columns:
                if kinds[c.name] not in ("text", "json", "date", "datetime"):
                    continue
                joined = con.execute(
                    f'SELECT group_concat(CAST("{c.name}" AS BLOB), x\'0a\') FROM "{table_name}"'
                ).fetchone()[0]
                try:
                    (joined or b"").decode("utf-8")
                except UnicodeDecodeError:
                    suspects |= {
                        r[0]
                        for r in con.execute(f'SELECT rowid, CAST("{c.name}" AS BLOB) FROM "{table_name}"')
                        if not _decodes(r[1])
                    }
            if not suspects:
                continue
            checks = [(c, _checker(kinds[c.name]) if kinds[c.name] != "any" else None) for c in columns]
            names = ", ".join(f'"{c.name}"' for c in columns)
            marks = ", ".join("?" for _ in sorted(suspects)[:limit])
            rows = con.execute(
                f'SELECT rowid, {names} FROM "{table_name}" WHERE rowid IN ({marks}) ORDER BY rowid',
                sorted(suspects)[:limit],
            )
            for row in rows:
                for (column, check), value in zip(checks, row[1:], strict=True):
                    problem = _value_problem(table_name, column, check, coded, value)
                    if problem:
                        problems.append(f"{table_name} 第 {row[0]} 行 {column.name}：{problem}")
                        if len(problems) >= limit:
                            return problems
    except sqlite3.DatabaseError as exc:
        if is_disk_full(exc, path):
            raise DiskFullError(path) from None
        problems.append(str(exc))
    except UnicodeDecodeError:
        problems.append("数据库结构中的文字已损坏 (the schema text does not decode)")
    finally:
        con.close()
    return problems


#: every table of the current schema, in the models' order (``Base.metadata.sorted_tables``), and its
#: columns: (name, kind — as the value check reads it —, whether a value is required). Read by the value
#: and structure checks without SQLAlchemy (the command line's fast paths do not import it); a test
#: keeps it equal to the models (tests/db/test_tables.py prints the text to paste when they differ).
SCHEMA_COLUMNS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "audit_log": (
        ("id", "integer", False),
        ("at", "datetime", True),
        ("who", "text", True),
        ("action", "text", True),
        ("entity", "text", True),
        ("before", "text", True),
        ("after", "text", True),
        ("reason", "text", True),
    ),
    "groups": (
        ("id", "integer", False),
        ("name", "text", True),
        ("teams", "boolean", True),
        ("position", "integer", True),
        ("numbers_method", "text", True),
        ("numbers_seed", "integer", False),
    ),
    "settings": (
        ("key", "text", False),
        ("value", "text", True),
    ),
    "tournament": (
        ("id", "integer", False),
        ("name", "text", True),
        ("preset", "text", True),
        ("start_date", "date", True),
        ("regulations", "json", True),
        ("created_at", "datetime", True),
    ),
    "group_stages": (
        ("id", "integer", False),
        ("group_id", "integer", True),
        ("stage", "integer", True),
        ("kind", "text", True),
        ("seed", "integer", False),
        ("started_at", "datetime", True),
    ),
    "rounds": (
        ("id", "integer", False),
        ("group_id", "integer", True),
        ("number", "integer", True),
        ("stage", "text", True),
        ("seed", "integer", False),
        ("paired_at", "datetime", True),
        ("closed_at", "datetime", False),
        ("explanation", "json", False),
    ),
    "teams": (
        ("id", "integer", False),
        ("group_id", "integer", True),
        ("name", "text", True),
        ("leader", "text", True),
        ("no", "integer", False),
        ("captain", "text", True),
        ("seed_rank", "integer", False),
        ("playoff_place", "integer", False),
        ("withdrawn_round", "integer", False),
    ),
    "deputy_tokens": (
        ("id", "integer", False),
        ("round_id", "integer", True),
        ("deputy", "text", True),
        ("first_board", "integer", True),
        ("last_board", "integer", True),
        ("digest", "text", True),
        ("issued_at", "datetime", True),
        ("issued_by", "text", True),
        ("revoked_at", "datetime", False),
    ),
    "players": (
        ("id", "integer", False),
        ("group_id", "integer", True),
        ("team_id", "integer", False),
        ("no", "integer", False),
        ("name", "text", True),
        ("gender", "text", True),
        ("id_type", "text", True),
        ("id_number", "text", True),
        ("birth_date", "date", False),
        ("phone", "text", True),
        ("rating", "integer", False),
        ("rating_rank", "integer", False),
        ("unit", "text", True),
        ("notes", "text", True),
        ("fee_paid", "boolean", True),
        ("insurance", "boolean", True),
        ("pledge", "boolean", True),
        ("checked_in", "boolean", True),
        ("status", "text", True),
        ("status_round", "integer", False),
        ("dq_games", "text", True),
        ("registered_at", "datetime", True),
        ("late_entry_round", "integer", False),
        ("region", "text", True),
        ("reentry_round", "integer", False),
        ("ranked", "boolean", True),
        ("eligibility_override", "text", True),
        ("team_order", "integer", False),
        ("reserve", "boolean", True),
    ),
    "team_lineups": (
        ("id", "integer", False),
        ("round_id", "integer", True),
        ("team_id", "integer", True),
        ("method", "text", True),
        ("seed", "integer", False),
        ("handed_in_by", "text", True),
        ("handed_in_at", "datetime", True),
    ),
    "team_matches": (
        ("id", "integer", False),
        ("round_id", "integer", True),
        ("number", "integer", True),
        ("home_team_id", "integer", True),
        ("away_team_id", "integer", False),
        ("home_absent", "boolean", True),
        ("away_absent", "boolean", True),
        ("code", "text", True),
        ("colour_choices", "json", False),
        ("explanation", "json", False),
    ),
    "absences": (
        ("id", "integer", False),
        ("player_id", "integer", True),
        ("round_number", "integer", True),
        ("reason", "text", True),
        ("created_at", "datetime", True),
    ),
    "byes": (
        ("round_id", "integer", False),
        ("player_id", "integer", False),
    ),
    "knockout_matches": (
        ("id", "integer", False),
        ("group_id", "integer", True),
        ("code", "text", True),
        ("round_number", "integer", True),
        ("high_id", "integer", False),
        ("low_id", "integer", False),
        ("colour_method", "text", True),
        ("colour_seed", "integer", False),
        ("first_red_id", "integer", False),
        ("deciding_red_id", "integer", False),
        ("winner_id", "integer", False),
        ("colour_choices", "json", False),
    ),
    "pair_avoidances": (
        ("id", "integer", False),
        ("first_id", "integer", True),
        ("second_id", "integer", True),
        ("strength", "text", True),
        ("from_round", "integer", True),
        ("to_round", "integer", True),
        ("reason", "text", True),
        ("created_at", "datetime", True),
    ),
    "pending_results": (
        ("id", "integer", False),
        ("round_id", "integer", True),
        ("token_id", "integer", True),
        ("board", "integer", True),
        ("game_no", "integer", True),
        ("result", "text", True),
        ("device", "text", True),
        ("submitted_at", "datetime", True),
        ("status", "text", True),
        ("decided_at", "datetime", False),
        ("decided_by", "text", True),
    ),
    "stage_entries": (
        ("id", "integer", False),
        ("stage_id", "integer", True),
        ("player_id", "integer", True),
        ("pool", "integer", True),
        ("number", "integer", True),
        ("lot", "integer", True),
    ),
    "team_lineup_boards": (
        ("lineup_id", "integer", False),
        ("board", "integer", False),
        ("player_id", "integer", False),
    ),
    "games": (
        ("id", "integer", False),
        ("round_id", "integer", True),
        ("board", "integer", True),
        ("game_no", "integer", True),
        ("red_id", "integer", True),
        ("black_id", "integer", True),
        ("result", "text", True),
        ("match_id", "integer", False),
        ("kind", "text", True),
        ("team_match_id", "integer", False),
    ),
    "game_records": (
        ("id", "integer", False),
        ("game_id", "integer", True),
        ("recorder_id", "integer", False),
        ("designated", "boolean", True),
        ("received", "boolean", True),
        ("moves", "integer", False),
        ("pgn", "text", True),
        ("received_at", "datetime", False),
    ),
    "violations": (
        ("id", "integer", False),
        ("player_id", "integer", True),
        ("round_number", "integer", True),
        ("game_id", "integer", False),
        ("kind", "text", True),
        ("reason", "text", True),
        ("source", "text", True),
        ("created_at", "datetime", True),
    ),
}

#: the tables of the current schema
SCHEMA_TABLES = tuple(SCHEMA_COLUMNS)


def structure_problems(path: Path, *, limit: int = 10) -> list[str]:
    """Missing tables and dangling references (see :func:`_structure_problems`) without the ORM, for
    the command line's fast path, which does not run :func:`content_problems` (a missing column
    makes its SQL fail, and it then leaves the file to the full path)."""
    try:
        con = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return [str(exc)]
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        present = {
            t: {r[1] for r in con.execute(f'PRAGMA table_info("{t}")')} for t in tables if t.isidentifier()
        }
        return _structure_problems(con, present, limit, orm=False)
    except sqlite3.DatabaseError as exc:
        return [str(exc)]
    finally:
        con.close()


def _structure_problems(
    con: sqlite3.Connection, present: dict[str, set[str]], limit: int, *, orm: bool = True
) -> list[str]:
    """A file of the current schema revision has every table and column the program uses, and every
    reference between its rows (a game's players, a bye's round …) points at a row that exists.

    An older revision is left to its migration (its tables are those of its time)."""
    from app.db.chain import head_revision

    try:
        version = con.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.DatabaseError:
        return []  # no version table: the version guard says what the file is
    if [tuple(v) for v in version] != [(head_revision(),)] and [
        (v[0].decode("utf-8", "replace") if isinstance(v[0], bytes) else v[0],) for v in version
    ] != [(head_revision(),)]:
        return []
    problems: list[str] = []
    for table_name, table_columns in SCHEMA_COLUMNS.items():
        columns = present.get(table_name)
        if columns is None:
            problems.append(f"缺少数据表 {table_name} (the table {table_name} is missing)")
            continue
        if not orm:  # the fast path: a missing column makes its SQL fail (it then leaves the file)
            continue
        missing = [name for name, _, _ in table_columns if name not in columns]
        if missing:
            names = ", ".join(missing)
            problems.append(f"数据表 {table_name} 缺少列 {names} (the table {table_name} lacks {names})")
    if problems:
        return problems[:limit]
    for row in con.execute("PRAGMA foreign_key_check").fetchmany(limit):
        child, rowid, parent = (x.decode("utf-8", "replace") if isinstance(x, bytes) else x for x in row[:3])
        problems.append(
            f"{child} 第 {rowid} 行引用了 {parent} 中不存在的一行 "
            f"(row {rowid} of {child} refers to a row of {parent} that does not exist)"
        )
    return problems


def _decodes(value: Any) -> bool:
    if not isinstance(value, bytes):
        return True
    try:
        value.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _value_problem(
    table: str,
    column: _Column,
    check: Callable[[Any], bool] | None,
    coded: dict[tuple[str, str], frozenset[str]],
    value: Any,
) -> str:
    if value is None:
        return "缺少必填值 (missing value)" if column.required else ""
    if isinstance(value, bytes):
        try:
            text = value.decode("utf-8")
        except UnicodeDecodeError:
            return "文字无法解码（字节损坏）(text does not decode as UTF-8)"
        allowed = coded.get((table, column.name))
        if allowed is not None and text not in allowed:
            return f"未知的取值“{text[:20]}” (unknown value)"
    if check is not None and not check(value):
        return "数据类型或格式不对 (wrong type or format)"
    return ""


@frozen
class BackupFile:
    """One backup copy: where it is, when it was made and why (``paired-公开组-r3``, ``closed-…``)."""

    path: Path
    made_at: datetime
    reason: str

    @property
    def name(self) -> str:
        return self.path.name


def backups_folder(path: Path) -> Path:
    """``D/赛事.xqt`` → ``D/赛事.backups``."""
    return path.with_name(path.stem + ".backups")


def _name_pattern(stem: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(stem)}-(\d{{8}}-\d{{6}})-(.+)\{BACKUP_SUFFIX}$")


def _stamp(text: str) -> datetime:
    """``YYYYmmdd-HHMMSS`` (digits checked by the name pattern) as a time; ``ValueError`` if there is
    no such time. As ``datetime.strptime`` with that format, without loading its parser (~3 ms)."""
    return datetime(
        int(text[0:4]), int(text[4:6]), int(text[6:8]), int(text[9:11]), int(text[11:13]), int(text[13:15])
    )


def backup_files(path: Path) -> list[BackupFile]:
    """The backups of ``path``, oldest first."""
    folder = backups_folder(path)
    if not folder.is_dir():
        return []
    pattern = _name_pattern(path.stem)
    found = []
    for f in folder.iterdir():
        m = pattern.match(f.name)
        if m is None or not f.is_file():
            continue
        try:
            made = _stamp(m.group(1))
        except ValueError:
            continue
        found.append((made, f.stat().st_mtime_ns, BackupFile(f, made, m.group(2))))
    found.sort(key=lambda item: (item[0], item[1], item[2].name))
    return [item[2] for item in found]


def backup_is_good(backup: Path, known: set[str]) -> bool:
    """Sound (``quick_check`` and every value readable) and written by this program or an older one."""
    try:
        if integrity_problems(backup, quick=True) or content_problems(backup, limit=1):
            return False
    except DiskFullError:
        return False
    try:
        con = sqlite3.connect(f"file:{backup.resolve()}?mode=ro", uri=True)
        try:
            rows = con.execute("SELECT version_num FROM alembic_version").fetchall()
        finally:
            con.close()
    except (sqlite3.Error, UnicodeDecodeError):
        return False
    return len(rows) == 1 and str(rows[0][0]) in known


def newest_good_backup(path: Path, known: set[str]) -> Path | None:
    for b in reversed(backup_files(path)):
        if backup_is_good(b.path, known):
            return b.path
    return None
