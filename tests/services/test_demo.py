"""The demo event: realistic, valid under every registration rule, and reproducible from its seed."""

from collections import Counter
from datetime import datetime
from pathlib import Path

from app.engine.registration import PlayerEntry, RegistrationContext, age_on, check_batch
from app.engine.regulations import preset
from app.engine.types import Gender
from app.services.demo import create_demo, demo_field
from app.services.snapshot import export_snapshot


def test_field_passes_every_registration_rule() -> None:
    reg = preset("tianshui-2024")
    field = demo_field(2024)
    context = RegistrationContext(
        rules=reg.registration,
        groups={g.name: g.teams for g in reg.groups},
        now=datetime(2024, 7, 20, 12, 0),
    )
    entries = [
        (
            p.name,
            PlayerEntry(
                name=p.name,
                id_number=p.id_number,
                phone=p.phone,
                group=p.group,
                gender=Gender(p.gender),
                team=p.team or "",
                unit=p.unit,
                rating=p.rating,
            ),
        )
        for p in field
    ]
    lines = check_batch(entries, context)
    problems = [(line.label, str(pr)) for line in lines for pr in line.problems]
    assert problems == []
    ages = [age_on(p.birth_date, reg.registration.first_day_of_play) for p in field]
    assert min(ages) >= 12 and max(ages) <= 65


def test_field_shape_matches_the_event() -> None:
    field = demo_field(7)
    assert len(field) == 160
    by_group = Counter(p.group for p in field)
    assert by_group == {"公开组": 120, "天水本地组": 40}
    assert all(p.team is None for p in field if p.group == "天水本地组")
    sizes = Counter(p.team for p in field if p.team)
    assert 18 <= len(sizes) <= 24
    assert Counter(sizes.values())[4] >= 15 and {3, 5} <= set(sizes.values())
    assert sum(sizes.values()) > 60  # most of the open group plays in teams
    assert len({p.id_number for p in field}) == 160 and len({p.name for p in field}) == 160


def test_same_seed_same_event_other_seed_other_event(tmp_path: Path) -> None:
    a = export_snapshot(create_demo(tmp_path / "a.xqt", seed=11))
    b = export_snapshot(create_demo(tmp_path / "b.xqt", seed=11))
    c = export_snapshot(create_demo(tmp_path / "c.xqt", seed=12))

    def people(s: dict) -> list:
        return [(p["no"], p["name"], p["group"], p["team"], p["id_number"], p["phone"]) for p in s["players"]]

    assert people(a) == people(b)
    assert people(a) != people(c)
    for group, size in (("公开组", 120), ("天水本地组", 40)):
        numbers = sorted(p["no"] for p in a["players"] if p["group"] == group)
        assert numbers == list(range(1, size + 1))
    assert all(p["fee_paid"] and p["checked_in"] for p in a["players"])
    assert {g["numbers_method"] for g in a["groups"]} == {"lot"}


def test_absent_option_leaves_some_unpaid_and_some_absent() -> None:
    field = demo_field(3, absent=3)
    assert sum(not p.fee_paid for p in field) == 3
    assert sum(not p.checked_in for p in field) == 3
