"""The hall's round page lists the players excused from the round (请假), escaped, searchable."""

from datetime import datetime

from app.reports.html import HALL, round_main
from app.reports.model import EventHeader, PairingList, PairingRow, PlayerLine


def test_excused_players_are_listed_after_the_boards() -> None:
    a, b = PlayerLine(1, "甲", "天水"), PlayerLine(2, "乙", "兰州")
    page = PairingList(
        EventHeader("赛", "公开组", 3),
        (PairingRow(1, a, b),),
        excused=(PlayerLine(7, "<丙>", "定西"),),
    )
    html = round_main(HALL, page, 0, 3, [1, 2, 3], "", datetime(2024, 7, 26, 9))
    # escaped, linked to the player's own page, listed as 请假
    assert '7 <a class="name" href="/g/0/p/7">&lt;丙&gt;</a></span>：请假' in html
    assert "请假" not in round_main(
        HALL, page, 0, 3, [1, 2, 3], "甲", datetime(2024, 7, 26, 9)
    )  # search narrows
