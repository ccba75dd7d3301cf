"""A Swiss stage's own tiebreak chain in a regulation file: it ranks only the single round robin the
stage becomes with ``round_robin_up_to``; without that key it would be silently ignored (a Swiss ranks
by the regulation's ``[tiebreaks] chain``), so the file is refused — group, stage and key named, exit
code 2, nothing changed (docs/formats.md)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from app.cli import main
from app.engine.formats import Stage, StageKind, Tiebreak
from app.engine.regulations import preset, regulations_to_dict
from app.services.regulation_files import read_regulation_file
from app.services.tournaments import load_regulations, open_tournament, update_regulations

OWN = ["wins", "opponent_score"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _file(tmp_path: Path, **swiss: Any) -> Path:
    """The 2024 preset, its open group's first stage (积分编排 8 轮) given ``swiss``'s keys."""
    data = regulations_to_dict(preset("tianshui-2024"))
    data["groups"][0]["stages"][0].update(swiss)
    path = tmp_path / "reg.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


def test_a_swiss_stages_chain_without_round_robin_up_to_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reg_file = _file(tmp_path, tiebreaks=OWN)
    event = tmp_path / "new.xqt"
    code, _, err = run(capsys, "new", str(event), "--regulation", str(reg_file))
    assert code == 2 and not event.exists()
    assert "公开组第1阶段（积分编排）" in err and "tiebreaks" in err and "round_robin_up_to" in err
    assert "[tiebreaks] chain" in err and "Traceback" not in err

    existing = tmp_path / "d.xqt"
    assert run(capsys, "new", str(existing))[0] == 0
    db = open_tournament(existing)
    before = load_regulations(db)
    db.close()
    code, _, err = run(capsys, "regulation-import", str(existing), str(reg_file), "--reason", "试试")
    assert code == 2 and "公开组第1阶段（积分编排）" in err and "stage 1 (swiss)" in err
    db = open_tournament(existing)
    assert load_regulations(db) == before
    db.close()


def test_with_round_robin_up_to_the_chain_is_read_for_the_round_robin(tmp_path: Path) -> None:
    reg, _ = read_regulation_file(_file(tmp_path, tiebreaks=OWN, round_robin_up_to=8))
    assert reg.groups[0].stages[0].tiebreaks == (Tiebreak.WINS, Tiebreak.OPPONENT_SCORE)
    reg, _ = read_regulation_file(_file(tmp_path))  # no chain of its own: the regulation's ranks it
    assert reg.groups[0].stages[0].tiebreaks == ()


def test_an_event_that_stored_such_a_chain_still_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only input is refused: an event file that took such a chain before still opens, and its
    regulation exported and imported again is refused until the chain is taken out."""
    event = tmp_path / "old.xqt"
    assert run(capsys, "new", str(event))[0] == 0
    db = open_tournament(event)
    reg = load_regulations(db)
    g = reg.groups[0]
    own = dataclasses.replace(g.stages[0], tiebreaks=(Tiebreak.WINS,))
    assert own.kind is StageKind.SWISS and not own.round_robin_up_to
    update_regulations(
        db,
        dataclasses.replace(
            reg, groups=(dataclasses.replace(g, stages=(own, *g.stages[1:])), *reg.groups[1:])
        ),
    )
    db.close()
    db = open_tournament(event)
    assert load_regulations(db).groups[0].stages[0] == own
    db.close()
    out = tmp_path / "exported.toml"
    assert run(capsys, "regulation-export", str(event), str(out))[0] == 0
    code, _, err = run(capsys, "regulation-import", str(event), str(out))
    assert code == 2 and "tiebreaks" in err
    assert Stage(StageKind.SWISS, rounds=8) == dataclasses.replace(own, tiebreaks=())
