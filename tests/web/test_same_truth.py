"""The hall tells the same truth as the paper: every public page holds the data of the printed document
of the same name — rows, places, results — at each stage of an event (before round 1, mid-round, after
a closed round, after the split, during the knockout, final). The data is compared, not the pixels:
each page is parsed back into rows and set beside the read model that ``xqarbiter print`` renders
(and, for the ranking and a knockout round, beside the text of the PDF itself).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest

from app.cli import main as cli
from app.engine.types import UserError
from app.reports import model
from app.reports.model import fmt_num
from app.services import exports
from app.services.tournaments import open_tournament, tournament_info
from app.web.site import HallSite, path_of

from .htmltree import Node, main_of, parse
from .stages import LOCAL, OPEN, STAGES


@pytest.fixture(params=STAGES)
def stage(request: pytest.FixtureRequest, stage_files: dict[str, Path]) -> Iterator[tuple[str, Any]]:
    db = open_tournament(stage_files[request.param], read_only=True)
    yield request.param, db
    db.close()


def _document(db: Any, name: str, **options: Any) -> Any:
    """The printed document's read model, or None when it cannot be printed yet."""
    try:
        return exports.document(db, name, base_url="", **options)
    except UserError:
        return None


def _main(site: HallSite, key: tuple[Any, ...]) -> Node:
    rendered = site.page(key)
    assert rendered.status == 200, (key, rendered.status)
    return main_of(rendered.full.decode("utf-8"))


def _text(value: object) -> str:
    return fmt_num(value) if isinstance(value, int | float) or value is None else str(value)


# --------------------------------------------------------------------------- pages read back into rows


def _boards_on_page(main: Node) -> list[tuple[str, ...]]:
    out = []
    for li in main.all("li", "board"):
        red_no, black_no = li.attrs["data-n"].split()
        red = li.one("div", "red").one("b").text().strip()
        black = li.one("div", "black").one("b").text().strip()
        result = li.one("span", "res").own_text().strip()
        out.append((li.attrs["data-b"], red_no, red, black_no, black, result))
    return out


def _unpaired_on_page(main: Node) -> list[tuple[str, str, str]]:
    """(序号, name, label) of every bye and excused player listed after the boards."""
    out = []
    for p in main.all("p", "bye"):
        label = p.own_text().strip().lstrip("：")
        for span in p.all("span"):
            no, name = span.text().split(" ", 1)
            out.append((no, name.strip(), label))
    return out


def _boards_in(doc: model.PairingList) -> list[tuple[str, ...]]:
    return [
        (str(r.board), str(r.red.no), r.red.name, str(r.black.no), r.black.name, r.result_zh or "—")
        for r in doc.rows
    ]


def _unpaired_in(doc: model.PairingList) -> list[tuple[str, str, str]]:
    return [(str(b.no), b.name, doc.bye_label) for b in doc.byes] + [
        (str(b.no), b.name, doc.excused_label) for b in doc.excused
    ]


def _standing_rows(doc: model.Standings) -> list[list[str]]:
    return [
        [
            str(r.rank),
            r.name + (f"（{r.note}）" if r.note else ""),
            str(r.no),
            r.unit,
            _text(r.score),
            *(_text(dict(r.tiebreaks).get(c, "")) for c in doc.chain),
            r.separated_by,
        ]
        for r in doc.rows
    ]


def _crosstable_rows(doc: model.Crosstable) -> list[list[str]]:
    return [
        [
            str(r.no),
            r.name,
            r.unit,
            *(t or "" for t in r.round_texts(doc.rounds)),
            _text(r.score),
            _text(r.place),
        ]
        for r in doc.rows
    ]


def _team_rows(doc: model.TeamStandings) -> list[dict[str, str]]:
    return [
        {
            "rank": _text(r.rank),
            "team": r.team,
            "total": _text(r.total),
            "best": _text(r.best),
            "members": "、".join(f"{n}（{p}）" for n, p in r.members),
        }
        for r in doc.rows
    ]


def _column(header: list[str], rows: list[list[str]], name: str) -> list[str]:
    i = header.index(name)
    return [r[i] for r in rows]


# --------------------------------------------------------------------------- the comparison


def test_every_public_page_holds_what_the_printed_document_of_its_name_holds(stage: tuple[str, Any]) -> None:
    name, db = stage
    site = HallSite(db)
    keys = site.all_keys()
    groups = [g.name for g in tournament_info(db).groups]
    compared: dict[str, int] = {}
    documents: dict[tuple[Any, ...], Any] = {}

    def printed(doc_name: str, **options: Any) -> Any:
        key = (doc_name, *sorted(options.items()))
        if key not in documents:
            documents[key] = _document(db, doc_name, **options)
        return documents[key]

    def seen(kind: str) -> None:
        compared[kind] = compared.get(kind, 0) + 1

    # the file does not change: each group is read once for the pages and the papers alike
    with db.one_reading():
        for key in keys:
            kind = key[0]
            if kind == "round":
                group, number = groups[key[1] - 1], key[2]
                doc = printed("results", group=group, round_number=number)
                main = _main(site, key)
                assert _boards_on_page(main) == _boards_in(doc), (name, path_of(key))
                assert _unpaired_on_page(main) == _unpaired_in(doc), (name, path_of(key))
                seen(kind)
            elif kind == "board":
                group, number, board = groups[key[1] - 1], key[2], key[3]
                doc = printed("results", group=group, round_number=number)
                row = [r for r in doc.rows if r.board == board][-1]  # a knockout board: the latest game
                card = _main(site, key).one("div", "card")
                assert card.one("div", "red").one("b").text().strip() == row.red.name
                assert card.one("div", "black").one("b").text().strip() == row.black.name
                assert card.one("p", "result").text().strip() == (row.result_zh or "尚未录入"), (name, key)
                seen(kind)
            elif kind == "standings":
                group = groups[key[1] - 1]
                doc = printed("standings", group=group)
                main = _main(site, key)
                header, rows = main.table_rows()
                assert header == ["名次", "姓名", "序号", "单位", "积分", *doc.chain, "区分依据"]
                assert rows == _standing_rows(doc), (name, group)
                final = doc.header.round is None
                assert ("最终名次" in main.one("h1").text()) == final, (name, group)
                seen(kind)
            elif kind == "crosstable":
                doc = printed("crosstable", group=groups[key[1] - 1])
                header, rows = _main(site, key).table_rows()
                assert rows == _crosstable_rows(doc), (name, key)
                seen(kind)
            elif kind == "teams":
                doc = printed("teams", group=groups[key[1] - 1])
                header, rows = _main(site, key).table_rows()
                page = [
                    {
                        "rank": r[header.index("名次")],
                        "team": r[header.index("团体")],
                        "total": r[header.index("名次和")],
                        "best": r[header.index("最好名次")],
                        "members": r[header.index("队员（名次）")],
                    }
                    for r in rows
                ]
                assert page == _team_rows(doc), (name, key)
                seen(kind)
            elif kind == "bracket":
                doc = printed("bracket", group=groups[key[1] - 1])
                main = _main(site, key)
                matches = [m for column in (*doc.columns, doc.extra) for m in column]
                sections = main.all("section", "match")
                assert len(sections) == len(matches)
                for section, m in zip(sections, matches, strict=True):
                    games = [li.text().strip() for li in section.all("li")]
                    assert games == [
                        f"{g.kind}：红 {g.red} — 黑 {g.black} {g.result_zh or '待赛'}" for g in m.games
                    ], (name, m.code)
                    win = section.first("p", "win")
                    assert bool(win) == bool(m.winner), (name, m.code)
                    if (
                        m.winner
                    ):  # the paper prints "seed name"; the page says the name, the 序号 and the seed
                        seed, winner = m.winner.split(" ", 1)
                        assert win.text().strip() == f"胜者：{winner} {m.winner_no}号 · 种子{seed}", (
                            name,
                            m.code,
                        )
                seen(kind)
            elif kind == "entries":
                doc = printed("entry-list", group=groups[key[1] - 1])
                header, rows = _main(site, key).table_rows()
                page = {
                    (r[header.index("序号")], r[header.index("姓名")], r[header.index("单位")]) for r in rows
                }
                assert page == {(str(x.no or ""), x.name, x.unit) for x in doc.lines}
                assert len(rows) == len(doc.lines)
                seen(kind)
            elif kind == "prizes":
                doc = printed("prizes", group=None)
                main = _main(site, key)
                page = []
                for table in main.all("div", "wrap"):  # one table per prize table, each under its name
                    header, rows = table.table_rows()
                    page += [(r[header.index("姓名")], r[header.index("奖金（元，税前）")]) for r in rows]
                assert page == [(x.name, f"{x.amount:,}") for x in doc.lines]
                assert f"总计 {sum(x.amount for x in doc.lines):,} 元" in main.text()
                seen(kind)

        # and every document that can be printed has its page (the prizes only once they are final)
        for gi, group in enumerate(groups, start=1):
            for kind, doc_name in (
                ("standings", "standings"),
                ("crosstable", "crosstable"),
                ("bracket", "bracket"),
                ("entries", "entry-list"),
            ):
                assert (printed(doc_name, group=group) is not None) == ((kind, gi) in keys), (
                    name,
                    kind,
                    group,
                )
    expected = {
        "before": {"entries"},
        "midround": {"round", "board", "standings", "crosstable", "teams", "entries"},
        "final": {"round", "board", "standings", "crosstable", "teams", "bracket", "entries", "prizes"},
    }.get(name, {"round", "board", "standings", "crosstable", "teams", "bracket", "entries"})
    if name == "closed":
        expected = expected - {"bracket"}
    assert set(compared) == expected, (name, compared)


def _pdf_text(db: Any, name: str, **options: Any) -> str:
    data = exports.render_pdf(db, name, base_url="", **options)
    pdf = pdfium.PdfDocument(io.BytesIO(data))
    try:
        return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


def _in_order(text: str, names: list[str]) -> bool:
    at = 0
    for n in names:
        found = text.find(n, at)
        if found < 0:
            return False
        at = found + len(n)
    return True


def test_a_finished_groups_ranking_is_its_final_one_on_the_page_the_paper_and_the_command_line(
    stage_files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Once the knockout is over, the 名次 page, the printed 名次表 and ``xqarbiter standings`` (no option)
    all put the knockout's winner first — not the Swiss order after round 11."""
    db = open_tournament(stage_files["final"], read_only=True)
    try:
        site = HallSite(db)
        for gi, group in ((1, OPEN), (2, LOCAL)):
            main = _main(site, ("standings", gi))
            header, rows = main.table_rows()
            page = _column(header, rows, "序号")
            final = exports.document(db, "standings", group=group)
            bracket = exports.document(db, "bracket", group=group)
            champion = bracket.columns[-1][0].winner  # "seed name" of the final's winner
            assert champion.endswith(" " + rows[0][header.index("姓名")]), (group, champion)
            assert page == [str(r.no) for r in final.rows]
            assert "最终名次" in main.one("h1").text()
            index = parse(site.page(("index",)).full.decode("utf-8"))
            assert "最终名次" in index.one("main").text()
            names = _column(header, rows, "姓名")
            assert _in_order(_pdf_text(db, "standings", group=group), names), group
            capsys.readouterr()
            assert cli(["standings", str(stage_files["final"]), "--group", group, "--json"]) == 0
            lines = json.loads(capsys.readouterr().out)
            assert [str(line["no"]) for line in lines] == page
            assert [line["rank"] for line in lines] == list(range(1, len(lines) + 1))
            assert cli(["standings", str(stage_files["final"]), "--group", group]) == 0
            assert "最终名次" in capsys.readouterr().out
            # a round asked for is still the Swiss order after that round
            assert cli(["standings", str(stage_files["final"]), "--group", group, "--after-round", "11"]) == 0
            assert "第 11 轮后名次" in capsys.readouterr().out
    finally:
        db.close()


def test_a_drawn_deciding_game_reads_as_black_winning_on_the_pages_and_the_paper(
    stage_files: dict[str, Path],
) -> None:
    db = open_tournament(stage_files["knockout"], read_only=True)
    try:
        site = HallSite(db)
        doc = exports.document(db, "results", group=LOCAL, round_number=9)
        deciding = [r for r in doc.rows if "附加赛" in r.game]
        assert deciding and deciding[0].result_zh == "和（黑胜）"
        board = deciding[0].board
        rows = [r for r in _boards_on_page(_main(site, ("round", 2, 9))) if r[0] == str(board)]
        assert [r[-1] for r in rows] == ["和", "和", "和（黑胜）"]
        card = _main(site, ("board", 2, 9, board)).one("div", "card")
        assert card.one("p", "result").text().strip() == "和（黑胜）"
        assert "和（黑胜）" in _pdf_text(db, "results", group=LOCAL, round_number=9)
    finally:
        db.close()


def test_a_player_excused_this_round_is_found_by_the_search(stage_files: dict[str, Path]) -> None:
    db = open_tournament(stage_files["closed"], read_only=True)
    try:
        site = HallSite(db)
        doc = exports.document(db, "results", group=LOCAL, round_number=5)
        [excused] = doc.excused
        found = parse(site.page(("find",), excused.name).full.decode("utf-8")).one("main")
        assert "没有找到" not in found.text()
        assert f"{excused.no} {excused.name}：本轮请假" in found.text()
        by_number = parse(site.page(("find",), str(excused.no)).full.decode("utf-8")).one("main")
        assert "本轮请假" in by_number.text()
    finally:
        db.close()
