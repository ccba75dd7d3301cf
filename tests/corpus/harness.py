"""The bad-input corpus: one workspace per case, the command run, and what it did to the files.

A *case* is a command line (run through :func:`app.cli.main` in-process, or through a real
``python -m app.cli`` subprocess) with, optionally, a step that prepares the workspace (a damaged file,
a stale lock, a hostile form …) and a step that checks the outputs. Each case runs in a fresh copy of
one small event (``event.xqt`` with a backup, another event's file, a valid form, snapshot, TRF, PGN
and results file). After it the harness records:

- ``traceback``: an exception escaped ``main`` (or a subprocess printed one) — a defect, always;
- ``refused``: exit code 2 with the two-language message (``错误：…`` on stderr);
- ``changed``: for a refusal, whether any byte of the workspace changed or a file appeared or vanished;
- ``partial``: leftovers — ``*.partial``, ``*.tmp``, ``*.restoring``, a lock file, an empty output;
- ``leaks``: a full ID or phone number of the event in a public output (workbook, web page, TRF, PGN);
- ``problems``: anything the case's own check found (a formula left live in a CSV, …).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
import unicodedata
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GROUP = "公开组"
MASTER_PGN = ROOT / "tests" / "engine" / "xiangqi" / "data" / "liu_dahua_yang_guanlin_1982.pgn"

Prepare = Callable[[Path], None]
Check = Callable[[Path, "Outcome"], list[str]]


@dataclass(frozen=True)
class Case:
    """One bad (or absurd) input. ``argv`` may use ``{ws}`` for the workspace folder."""

    category: str
    name: str
    argv: tuple[str, ...]
    prepare: Prepare | None = None
    check: Check | None = None
    expect: str = "either"  # "refuse" | "accept" | "either"
    subprocess: bool = False
    limit_bytes: int | None = None  # RLIMIT_FSIZE for a subprocess: a full disk
    outputs: tuple[str, ...] = ()  # files the command may create (relative to the workspace)


@dataclass
class Outcome:
    case: Case
    code: int | None = None
    out: str = ""
    err: str = ""
    traceback: str = ""
    refused: bool = False
    clean_message: bool = False
    changed: list[str] = field(default_factory=list)
    partial: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        c = self.case
        if self.traceback or self.partial or self.leaks or self.problems:
            return False
        if self.code not in (0, 1, 2):
            return False
        if self.refused and (self.changed or not self.clean_message):
            return False
        if c.expect == "refuse" and not self.refused:
            return False
        return not (c.expect == "accept" and self.code != 0)

    def describe(self) -> str:
        c = self.case
        bits = [f"[{c.category}] {c.name}: exit {self.code}"]
        if self.traceback:
            bits.append("TRACEBACK " + self.traceback.strip().splitlines()[-1])
        if self.refused and not self.clean_message:
            bits.append("unclear message " + repr(self.err[:200]))
        if c.expect == "refuse" and not self.refused:
            bits.append("accepted, expected a refusal " + repr((self.out + self.err)[:200]))
        if c.expect == "accept" and self.code != 0:
            bits.append("refused, expected to work " + repr(self.err[:300]))
        for label, items in (
            ("changed", self.changed),
            ("partial", self.partial),
            ("leak", self.leaks),
            ("problem", self.problems),
        ):
            if items:
                bits.append(f"{label}: {', '.join(items[:5])}")
        return "; ".join(bits)


# --------------------------------------------------------------------------- the workspace


def _players() -> list[dict[str, object]]:
    from tests.factories import player

    names = ["柳大华", "杨官璘", "胡荣华", "许银川", "吕钦", "赵国荣", "王天一", "郑惟桐", "蒋川", "洪智"]
    teams = ["甲队"] * 4 + ["乙队"] * 4 + [None, None]
    return [player(i, names[i - 1], team=teams[i - 1], unit="天水") for i in range(1, 11)]


def build_template(root: Path) -> Path:
    """The small event every case starts from (built once per process)."""
    from app.reports.excel_template import write_registration_template
    from app.services.backups import make_backup
    from app.services.results import enter_result
    from app.services.rounds import close_round
    from app.services.snapshot import export_snapshot, import_snapshot
    from app.services.trf_exchange import export_trf
    from tests.factories import snapshot, swiss_round

    ws = root / "template"
    ws.mkdir()
    rounds = [
        swiss_round(
            1, [(1, 2, "draw"), (3, 4, "red_win"), (5, 6, "black_win"), (7, 8, "draw"), (9, 10, "red_win")]
        ),
        swiss_round(
            2,
            [(4, 1, "pending"), (2, 5, "pending"), (6, 3, "pending"), (10, 7, "pending"), (8, 9, "pending")],
        ),
    ]
    data = snapshot(_players(), rounds)
    db = import_snapshot(data, ws / "event.xqt")
    close_round(db, GROUP, 1)  # the automatic backup: the backups folder holds one good copy
    enter_result(db, GROUP, 2, 1, "1-0")
    snap = export_snapshot(db)
    db.close()
    make_backup(ws / "event.xqt", "manual")
    other = dict(
        data, tournament=dict(data["tournament"], name="另一场比赛", created_at="2023-01-01T08:00:00")
    )
    import_snapshot(other, ws / "other.xqt").close()
    import json

    (ws / "snapshot.json").write_text(json.dumps(snap, ensure_ascii=False), encoding="utf-8")
    (ws / "results.json").write_text(json.dumps([{"board": 2, "result": "draw"}]), encoding="utf-8")
    (ws / "event.trf").write_text(export_trf(ws / "event.xqt", GROUP), encoding="utf-8")
    (ws / "game.pgn").write_bytes(MASTER_PGN.read_bytes())
    write_form(ws / "form.xlsx", [form_row(21, "新棋手甲"), form_row(22, "新棋手乙")])
    write_registration_template(ws / "blank.xlsx")
    (ws / "out").mkdir()
    for f in ws.rglob("*"):  # the leftovers of building (locks, logs) are not part of the workspace
        if f.name.endswith((".lock", "-wal", "-shm")):
            f.unlink()
    return ws


FORM_HEADER = ["姓名", "身份证号", "手机号", "组别", "代表队", "单位", "缴费", "报到", "备注", "地区"]


def form_row(k: int, name: str, **cells: object) -> list[object]:
    from tests.factories import resident_id

    row: dict[str, object] = {
        "姓名": name,
        "身份证号": resident_id("620503", f"19{70 + k % 30:02d}0{1 + k % 9}1{k % 10}", k),
        "手机号": f"1370000{k:04d}",
        "组别": GROUP,
        "代表队": "",
        "单位": "天水",
        "缴费": "是",
        "报到": "是",
        "备注": "",
        "地区": "",
    }
    row.update({str(key): value for key, value in cells.items()})
    return [row[h] for h in FORM_HEADER]


def write_form(path: Path, rows: Sequence[Sequence[object]], header: Sequence[str] = FORM_HEADER) -> Path:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.append(list(header))
    for row in rows:
        ws.append(list(row))
        for col, value in enumerate(row, start=1):
            if isinstance(value, str) and value.startswith("="):
                ws.cell(ws.max_row, col).data_type = "s"
    wb.save(path)
    return path


_template: Path | None = None
_template_dir: tempfile.TemporaryDirectory[str] | None = None


def _work_dir() -> str | None:
    """Where the workspaces are made: a memory file system where there is one (Linux's /dev/shm), else
    the usual temporary folder. A case copies and deletes a workspace of four event files; on a disk
    deleting them waits on the disk (and SQLite's and the lock's syncs do), in memory it does not. The
    same files, the same commands: only where the folder lives."""
    shm = Path("/dev/shm")
    if sys.platform.startswith("linux") and shm.is_dir() and os.access(shm, os.W_OK | os.X_OK):
        return str(shm)
    return None


WORK_DIR = _work_dir()


def template() -> Path:
    global _template, _template_dir
    if _template is None:
        _template_dir = tempfile.TemporaryDirectory(prefix="xq-corpus-", dir=WORK_DIR)
        _template = build_template(Path(_template_dir.name))
    return _template


@functools.cache
def personal_numbers() -> tuple[str, ...]:
    """Every ID and phone number of the event and of the forms (never in a public output): the same
    for every case, worked out once."""
    from tests.corpus.cases import HOSTILE_NUMBERS

    numbers = []
    for p in _players():
        numbers += [str(p["id_number"]), str(p["phone"])]
    for k in range(20, 40):
        row = form_row(k, "x")
        numbers += [str(row[1]), str(row[2])]
    return (*numbers, *HOSTILE_NUMBERS)


# --------------------------------------------------------------------------- running


def _snapshot_of(folder: Path) -> dict[str, str]:
    """Every entry under ``folder`` (as ``Path.rglob("*")`` finds them, in its sorted order): a folder
    as "dir", a file as the SHA-1 of its bytes. Walked with ``os.scandir`` (one call per folder, the
    entry's type from the listing) rather than through ``Path`` objects: the corpus takes this
    snapshot once or twice per case, about 1,300 times in the fast loop."""
    entries: list[tuple[tuple[str, ...], str, bool]] = []

    def walk(path: str, parts: tuple[str, ...]) -> None:
        try:
            listing = list(os.scandir(path))
        except OSError:  # a folder that cannot be listed: rglob passes over it too
            return
        for entry in listing:
            rel = (*parts, entry.name)
            try:
                is_dir = entry.is_dir()  # as Path.is_dir: through a link
                into = is_dir and not entry.is_symlink()  # rglob does not descend through a link
            except OSError:
                is_dir = into = False
            entries.append((rel, entry.path, is_dir))
            if into:
                walk(entry.path, rel)

    walk(str(folder), ())
    entries.sort(key=lambda e: e[0])  # the order of sorted(Path objects): part by part
    out = {}
    for parts, path, is_dir in entries:
        rel = os.sep.join(parts)
        if is_dir:
            out[rel + "/"] = "dir"
        else:
            try:
                with open(path, "rb") as f:
                    out[rel] = hashlib.sha1(f.read()).hexdigest()
            except OSError:
                out[rel] = "unreadable"
    return out


def _snapshot_by_paths(folder: Path) -> dict[str, str]:
    """:func:`_snapshot_of` as it was written first, through ``Path.rglob`` (a test holds the two equal)."""
    out = {}
    for f in sorted(folder.rglob("*")):
        rel = str(f.relative_to(folder))
        if f.is_dir():
            out[rel + "/"] = "dir"
        else:
            try:
                out[rel] = hashlib.sha1(f.read_bytes()).hexdigest()
            except OSError:
                out[rel] = "unreadable"
    return out


def _sqlite_companion(ws: Path, rel: str, before: dict[str, str]) -> bool:
    """A new, empty write-ahead log (and its index) that SQLite opens beside a file it reads: no data."""
    if rel in before:
        return False
    if rel.endswith("-shm"):
        wal = ws / (rel[: -len("-shm")] + "-wal")
        return not wal.exists() or wal.stat().st_size == 0
    return rel.endswith("-wal") and (ws / rel).stat().st_size == 0


_LEFTOVER = re.compile(r"(\.partial|\.tmp|\.restoring|\.lock|\.partial-journal)$")


def _run_in_process(argv: list[str]) -> tuple[int | None, str, str, str]:
    from app.cli import main

    out, err = io.StringIO(), io.StringIO()
    tb = ""
    code: int | None = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # pragma: no cover - main returns instead
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            tb = traceback.format_exc()
    return code, out.getvalue(), err.getvalue(), tb


def _run_subprocess(argv: list[str], limit: int | None, cwd: Path) -> tuple[int | None, str, str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")

    def limit_file_size() -> None:  # pragma: no cover - runs in the child
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-m", "app.cli", *argv],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        env=env,
        cwd=cwd,
        timeout=120,
        preexec_fn=limit_file_size if limit is not None else None,
    )
    tb = done.stderr if "Traceback (most recent call last)" in done.stderr else ""
    return done.returncode, done.stdout, done.stderr, tb


_CJK = re.compile(r"[\u4e00-\u9fff]")
_LATIN_WORDS = re.compile(r"[A-Za-z]{3,}")


def _clean_message(code: int | None, out: str, err: str, argv: Sequence[str]) -> bool:
    if argv and argv[0] == "check-file":
        return "损坏" in out or "错误：" in err or "版本" in out
    return err.lstrip().startswith("错误：") and bool(_CJK.search(err)) and bool(_LATIN_WORDS.search(err))


def _public_files(ws: Path, before: dict[str, str], after: dict[str, str]) -> list[Path]:
    """The public outputs the command wrote or changed (``after``: the workspace as it is now, by
    :func:`_snapshot_of`, whose files are the entries not marked "dir")."""
    found = []
    for rel, digest in after.items():
        if (digest == "dir" and rel.endswith("/")) or before.get(rel) == digest:
            continue
        f = ws / rel
        if (
            f.suffix.lower() in (".xlsx", ".html", ".trf", ".pgn")
            and f.name
            not in (
                "form.xlsx",
                "blank.xlsx",
            )
            and f.is_file()
        ):
            found.append(f)
    return found


def shows_number(number: str, text: str) -> bool:
    """Whether ``text`` shows ``number`` however it is spelled: full-width or other digits, and up to
    three characters of anything but letters and digits between its characters (written apart from
    the program's own masker, so that the check does not share its blind spots)."""
    if not number:
        return False
    folded = _folded(text)
    if number.upper() not in _letters_and_digits(folded):  # cannot be there: the pattern need not run
        return False
    return _number_pattern(number).search(folded) is not None


@functools.lru_cache(maxsize=4)
def _folded(text: str) -> str:
    """``text`` in NFKC (full-width digits as digits): folded once for the many numbers looked for in
    one output, not once per number."""
    return unicodedata.normalize("NFKC", text)


_SEPARATOR = re.compile(r"[^0-9A-Za-z]+", re.IGNORECASE)  # the pattern's separators, the same class


@functools.lru_cache(maxsize=4)
def _letters_and_digits(folded: str) -> str:
    """``folded`` without what the pattern lets stand between a number's characters, in capitals.
    Wherever the pattern matches, the number's characters follow one another here (only separators
    stood between them), so a number not in this text cannot match: the pattern, which scans the
    whole text once per number (~0.2 ms per number per 10 KB), runs only for those that are."""
    return _SEPARATOR.sub("", folded).upper()


@functools.cache
def _number_pattern(number: str) -> re.Pattern[str]:
    pattern = r"[^0-9A-Za-z]{0,3}".join(re.escape(ch) for ch in number.upper())
    return re.compile(r"(?<![0-9A-Za-z])" + pattern + r"(?![0-9A-Za-z])", re.IGNORECASE)


def text_of(path: Path) -> str:
    """The text a public output shows (an xlsx is unzipped; a page or TRF is read)."""
    if path.suffix.lower() == ".xlsx":
        try:
            with zipfile.ZipFile(path) as z:
                return "\n".join(
                    z.read(n).decode("utf-8", "replace") for n in z.namelist() if n.endswith(".xml")
                )
        except zipfile.BadZipFile:
            return ""
    return path.read_bytes().decode("utf-8", "replace")


_snapshots: dict[Path, dict[str, str]] = {}


def _snapshot_of_copy(source: Path) -> dict[str, str]:
    """The snapshot of a fresh copy of ``source`` (the copy holds the same names and bytes): taken of
    the source once per process, not of every case's copy again."""
    if source not in _snapshots:
        _snapshots[source] = _snapshot_of(source)
    return dict(_snapshots[source])


def run_case(case: Case, base: Path | None = None) -> Outcome:
    outcome = Outcome(case)
    source = base or template()
    with tempfile.TemporaryDirectory(prefix="xq-case-", dir=WORK_DIR) as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(source, ws)
        try:
            if case.prepare is not None:
                case.prepare(ws)
        except Exception:
            outcome.problems.append(
                "the case's own preparation failed: " + traceback.format_exc().splitlines()[-1]
            )
            return outcome
        # a prepared workspace is read as it is; an unprepared one is the source's copy, byte for byte
        before = _snapshot_of(ws) if case.prepare is not None else _snapshot_of_copy(source)
        argv = [a.replace("{ws}", str(ws)) for a in case.argv]
        if case.subprocess:
            code, out, err, tb = _run_subprocess(argv, case.limit_bytes, ws)
        else:
            code, out, err, tb = _run_in_process(argv)
        outcome.code, outcome.out, outcome.err, outcome.traceback = code, out, err, tb
        if "Traceback (most recent call last)" in err and not tb:
            outcome.traceback = err
        outcome.refused = code == 2
        outcome.clean_message = _clean_message(code, out, err, argv)
        after = _snapshot_of(ws)
        if outcome.refused:
            outcome.changed = sorted(
                k
                for k in set(before) | set(after)
                if before.get(k) != after.get(k) and not _sqlite_companion(ws, k, before)
            )
        for rel in after:
            if _LEFTOVER.search(rel.rstrip("/")) and rel not in before:
                outcome.partial.append(rel)
            elif rel in case.outputs and after[rel] == hashlib.sha1(b"").hexdigest():
                outcome.partial.append(rel + " (empty)")
            elif rel.rstrip("/").split("/")[-1].startswith(".") and rel not in before:
                outcome.partial.append(rel)
        numbers = personal_numbers()
        for f in _public_files(ws, before, after):
            text = text_of(f)
            leaked = [n for n in numbers if shows_number(n, text)]
            if leaked:
                outcome.leaks.append(f"{f.name}: {leaked[0][:3]}…")
        if case.check is not None:
            try:
                outcome.problems += case.check(ws, outcome)
            except Exception:
                outcome.problems.append("check raised " + traceback.format_exc().splitlines()[-1])
    return outcome


def run_all(cases: Sequence[Case]) -> list[Outcome]:
    return [run_case(c) for c in cases]


__all__ = [
    "GROUP",
    "Case",
    "Outcome",
    "build_template",
    "form_row",
    "run_all",
    "run_case",
    "template",
    "text_of",
    "write_form",
]
