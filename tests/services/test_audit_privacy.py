"""No personal number goes into the audit log's text, and a player is named, not ``player:99``."""

from __future__ import annotations

import re
from pathlib import Path

from app.services.audit import audit_log, export_audit_csv
from app.services.registration import (
    edit_player,
    list_players,
    player_entry,
    set_fee_paid,
    set_team,
    withdraw_player,
)
from app.services.rounds import pair_next_round
from app.services.snapshot import import_snapshot
from tests.factories import player, snapshot

OPEN = "公开组"


def test_player_actions_log_neither_id_nor_phone_and_name_the_player(tmp_path: Path) -> None:
    data = snapshot([player(i, "棋手" + "甲乙丙丁戊己"[i - 1]) for i in range(1, 7)])
    data["groups"][0]["teams"] = True
    db = import_snapshot(data, tmp_path / "a.xqt")
    try:
        players = {p.no: p for p in list_players(db, OPEN)}
        numbers = [(p.id_number, p.phone) for p in players.values()]
        pair_next_round(db, OPEN, seed=1)
        withdraw_player(db, players[3].id, reason="身体不适")
        set_fee_paid(db, players[4].id, False)
        set_team(db, players[5].id, "兰州队")
        p6 = players[6]
        import dataclasses

        edit_player(
            db,
            p6.id,
            dataclasses.replace(player_entry(p6), phone="13800001111", gender=None),
            reason="改了电话",
        )
        lines = [x for x in audit_log(db) if x.action not in ("import_snapshot", "pair_round")]
        csv = export_audit_csv(db)
    finally:
        db.close()
    assert lines
    for line in lines:
        text = " ".join((line.entity, line.before, line.after, line.reason))
        assert not re.search(r"player:\d", line.entity), line
        for id_number, phone in [*numbers, ("", "13800001111")]:
            if id_number:
                assert id_number not in text, line
            assert phone not in text, line
    withdrawal = next(x for x in lines if x.action == "withdraw_player")
    assert "3号" in withdrawal.entity and "棋手丙" in withdrawal.entity
    assert "13800001111" not in csv and all(i not in csv for i, _ in numbers)
