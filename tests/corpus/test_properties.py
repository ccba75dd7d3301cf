"""Properties over generated hostile input (hypothesis): whatever comes in, a clean refusal or a clean value.

The table-driven corpus (``test_corpus.py``) tries what we thought of; these try what hypothesis thinks
of: arbitrary JSON documents for the snapshot and bulk-results schemas, arbitrary text for names, TRF
and PGN, arbitrary strings as command-line numbers, and every spelling of a phone or ID number for the
masking of public documents.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import unicodedata
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.cli import main
from app.cli.common import ROUND, SEED
from app.engine.privacy import mask_personal
from app.engine.registration import PlayerEntry, RegistrationContext, check_entry, normalise_name
from app.engine.regulations import preset
from app.engine.text import FORMULA_LEADS, clean_text, spreadsheet_safe, text_problem
from app.engine.trf import read_trf
from app.engine.types import UserError
from app.engine.xiangqi import parse_pgn_bytes
from app.services.schemas import validate_results, validate_snapshot
from tests.factories import player, resident_id, snapshot, swiss_round

EXAMPLES = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)

SNAPSHOT_KEYS = ("format", "version", "tournament", "groups", "players", "rounds", "violations", "records")


def _valid_snapshot() -> dict[str, object]:
    players = [player(i, f"棋手{i}") for i in range(1, 5)]
    return snapshot(players, [swiss_round(1, [(1, 2, "draw"), (3, 4, "red_win")])])


@EXAMPLES
@given(json_values)
def test_any_json_document_is_a_snapshot_or_a_clean_refusal(doc: object) -> None:
    try:
        validate_snapshot(doc)
    except UserError as exc:
        assert exc.zh and exc.en


@EXAMPLES
@given(st.sampled_from(SNAPSHOT_KEYS), json_values, st.data())
def test_a_valid_snapshot_with_any_part_replaced_is_checked_whole(
    key: str, value: object, data: st.DataObject
) -> None:
    doc = _valid_snapshot()
    target: object = doc
    if key in ("players", "rounds") and data.draw(st.booleans()):
        items = doc[key]
        assert isinstance(items, list)
        target = items[0]
        key = data.draw(st.sampled_from(sorted(items[0])))
    assert isinstance(target, dict)
    target[key] = value
    try:
        plain = validate_snapshot(doc)
    except UserError as exc:
        assert "：" in exc.zh or "快照" in exc.zh
        return
    # whatever passed can be written: every text is clean and every number fits SQLite
    for text in _strings(plain):
        assert text_problem(text, multiline=True) is None
    for number in _ints(plain):
        assert -(2**63) <= number < 2**63


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _ints(value: object) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _ints(v)]
    if isinstance(value, list):
        return [n for v in value for n in _ints(v)]
    return []


@EXAMPLES
@given(json_values)
def test_any_json_is_a_results_list_or_a_clean_refusal(doc: object) -> None:
    try:
        entries = validate_results(doc)
    except UserError as exc:
        assert exc.zh and exc.en
        return
    assert all(isinstance(board, int) and not isinstance(board, bool) and board >= 1 for board, _ in entries)


@EXAMPLES
@given(st.text(max_size=40))
def test_a_name_is_clean_nfc_or_refused(text: str) -> None:
    try:
        name = normalise_name(text)
    except UserError:
        return
    assert name == unicodedata.normalize("NFC", name)
    assert text_problem(name) is None and 0 < len(name) <= 30
    assert name == " ".join(name.split())


@EXAMPLES
@given(st.text(max_size=60), st.text(max_size=60), st.text(max_size=60), st.text(max_size=60))
def test_a_registration_never_crashes_and_stores_only_clean_text(
    name: str, unit: str, team: str, notes: str
) -> None:
    context = RegistrationContext(
        rules=preset("tianshui-2024").registration,
        groups={"公开组": True},
        now=preset("tianshui-2024").registration.deadline,
    )
    entry = PlayerEntry(
        name=name,
        id_number=resident_id("620503", "19800101", 1),
        phone="13900001234",
        group="公开组",
        team=team,
        unit=unit,
        notes=notes,
    )
    checked = check_entry(entry, context)
    if checked.ok:
        for text in (checked.entry.name, checked.entry.unit, checked.entry.team, checked.entry.notes):
            assert text_problem(text, multiline=True) is None
            assert text == unicodedata.normalize("NFC", text)


@EXAMPLES
@given(st.text(max_size=30), st.integers(min_value=1, max_value=80))
def test_clean_text_never_exceeds_its_limit(text: str, limit: int) -> None:
    try:
        out = clean_text(text, "文字", "the text", limit)
    except UserError:
        return
    assert len(out) <= limit


@EXAMPLES
@given(st.text())
def test_a_spreadsheet_cell_never_starts_a_formula(text: str) -> None:
    assert spreadsheet_safe(text)[:1] not in FORMULA_LEADS or spreadsheet_safe(text).startswith("'")


SEPARATORS = st.sampled_from(["", "", "", " ", "-", ".", " - ", "  "])


@EXAMPLES
@given(
    st.from_regex(r"1[3-9][0-9]{9}", fullmatch=True),
    st.lists(SEPARATORS, min_size=10, max_size=10),
    st.sampled_from(["", "+86 ", "+86", "0086-", "(+86)", "86 ", "（+86）"]),
    st.text(alphabet="联系电话是：，。 ", max_size=6),
)
def test_every_spelling_of_a_phone_number_is_masked(
    phone: str, seps: list[str], prefix: str, around: str
) -> None:
    spelled = prefix + "".join(d + s for d, s in zip(phone, [*seps, ""], strict=False))
    masked = mask_personal(f"{around}{spelled}{around}")
    assert phone not in re.sub(r"\D", "", masked)


@EXAMPLES
@given(
    st.integers(min_value=0, max_value=998),
    st.dates(min_value=date(1900, 1, 1), max_value=date(2020, 12, 31)),
    st.lists(st.sampled_from(["", "", "", " ", "  "]), min_size=17, max_size=17),
    st.booleans(),
)
def test_every_spelling_of_an_id_number_is_masked(
    serial: int, born: date, seps: list[str], known: bool
) -> None:
    number = resident_id("620503", f"{born:%Y%m%d}", serial)
    spelled = "".join(c + s for c, s in zip(number, [*seps, ""], strict=False))  # white space is accepted
    if known:
        spelled = spelled.lower()
    masked = mask_personal(f"证件{spelled}已核对", known=[number] if known else [])
    assert number[6:14] not in re.sub(r"[^0-9X]", "", masked.upper())


@EXAMPLES
@given(st.text(max_size=400))
def test_any_trf_text_is_read_or_refused(text: str) -> None:
    with contextlib.suppress(UserError):
        read_trf(text)


@EXAMPLES
@given(st.binary(max_size=400))
def test_any_pgn_bytes_are_read_or_refused(data: bytes) -> None:
    with contextlib.suppress(UserError):
        parse_pgn_bytes(data)


@EXAMPLES
@given(st.text(max_size=40) | st.integers().map(str))
def test_any_text_as_a_command_line_number_is_a_number_or_a_clean_refusal(text: str) -> None:
    for parse in (ROUND, SEED):
        try:
            value = parse(text)
        except argparse.ArgumentTypeError as exc:
            assert "(" in str(exc)
            continue
        assert 0 <= value < 2**63


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from app.services.snapshot import import_snapshot

    path = tmp_path_factory.mktemp("props") / "event.xqt"
    import_snapshot(_valid_snapshot(), path).close()
    return path


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.sampled_from(["--round", "--after-round", "--seed", "--player", "--records-round"]),
    st.text(max_size=30) | st.integers().map(str),
)
def test_any_number_on_the_real_command_line_gives_exit_0_or_2(event: Path, option: str, value: str) -> None:
    argv = {
        "--round": ["pairings", str(event), "--group", "公开组", "--round", value],
        "--after-round": ["standings", str(event), "--group", "公开组", "--after-round", value],
        "--seed": ["draw-numbers", str(event), "--group", "公开组", "--seed", value],
        "--player": ["why", str(event), "--group", "公开组", "--round", "1", "--player", value],
        "--records-round": ["records-due", str(event), "--group", "公开组", "--round", value],
    }[option]
    before = event.read_bytes()
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(argv)
    assert code in (0, 2)
    if code == 2:
        assert err.getvalue().startswith("错误：")
    assert event.read_bytes() == before


def test_the_snapshot_of_the_corpus_event_passes_its_own_schema() -> None:
    """Export → validate → the same document (the schema describes what the program writes)."""
    doc = json.loads(json.dumps(_valid_snapshot()))
    assert validate_snapshot(doc)["players"][0]["name"] == "棋手1"
