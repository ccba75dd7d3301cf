"""The public web pages' own read models and the static folder (``xqarbiter html``).

Read models of the players' own pages on the hall network and the static site: each player's page
(every round, the place and its neighbours, the next board), the schedule, and a stored game record
move by move.

Built from the same services as the printed lists (the standings are :func:`exports.standings`, a
knockout game's result the bracket's text), so a player's page never disagrees with the paper. Only
public values: no ID, no phone.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import select

from app.db.models import GameRecord as GameRecordRow
from app.db.models import GameRow, Round
from app.db.session import Database
from app.engine.discipline import points_by_round
from app.engine.formats import (
    ColourRule,
    Elimination,
    Entrants,
    LadderStep,
    MatchFormat,
    MatchScope,
    Stage,
    StageKind,
    stages_in_round,
)
from app.engine.knockout import Bracket
from app.engine.privacy import mask_personal
from app.engine.regulations import Regulations
from app.engine.types import Absence, AbsenceKind, Colour, Game, GameResult, PlayerStatus, UserError
from app.engine.xiangqi import Board, format_chinese
from app.reports import model
from app.reports.html import PublicSite, SiteGroup, write_site
from app.services import exports
from app.services.collector import collection_paused
from app.services.exports.common import event_dates
from app.services.exports.event import optional_prizes, paired_groups
from app.services.exports.rounds import game_name
from app.services.game_records import record_of
from app.services.knockout import bracket_of
from app.services.rounds import group_state, rounds_of
from app.services.stages import plan_of, round_robin_rests, rounds_known
from app.services.team_events import is_team_group
from app.services.tournaments import group_row, tournament_info

_STATUS_NOTE = {PlayerStatus.WITHDRAWN: "退赛", PlayerStatus.DISQUALIFIED: "取消资格"}


class Unknown:
    """Not known yet (an argument the function works out itself when not given)."""


UNKNOWN = Unknown()


def stored_records(db: Database, group: str) -> set[tuple[int, int, int]]:
    """(round, board, game) of every game of the group whose moves are stored."""
    with db.session() as s:
        g = group_row(s, group)
        rows = s.execute(
            select(Round.number, GameRow.board, GameRow.game_no)
            .join(GameRow, GameRow.round_id == Round.id)
            .join(GameRecordRow, GameRecordRow.game_id == GameRow.id)
            .where(Round.group_id == g.id, GameRecordRow.pgn != "")
        )
        return {(r, b, n) for r, b, n in rows}


@cache  # a pure function of the two: 110,000 games' sides at 5,000 players
def _outcome(result: GameResult, me: Colour) -> str:
    return model.CrossCell.from_game(0, me, result).outcome


def _knockout_games(
    bracket: Bracket | None, names: dict[int, str], records: set[tuple[int, int, int]]
) -> dict[tuple[int, int], list[tuple[model.PlayerGame, str]]]:
    """Each knockout player's games by (round, 序号), from the player's side, each with its own time
    control (every step of a match's ladder has its own)."""
    out: dict[tuple[int, int], list[tuple[model.PlayerGame, str]]] = {}
    if bracket is None:
        return out
    for m in bracket.matches:
        plan = bracket.plan(m.code)
        for g in m.games:
            text = exports.knockout_game_text(g, bracket, m.code) if not g.result.is_pending else ""
            control = bracket.time_control_of(m.code, g.number).label
            stage = f"{plan.title_zh} 第{g.number}局 {game_name(bracket, m.code, g.number)}（{control}）"
            for me, colour, other in ((g.red, Colour.RED, g.black), (g.black, Colour.BLACK, g.red)):
                outcome = _outcome(g.result, colour)
                if text == "和（黑胜）":
                    outcome = "胜" if colour is Colour.BLACK else "负"
                game = model.PlayerGame(
                    plan.board,
                    colour.zh,
                    other,
                    names.get(other, ""),
                    outcome,
                    stage,
                    text,
                    g.number if (m.round_number, plan.board, g.number) in records else 0,
                )
                out.setdefault((m.round_number, me), []).append((game, control))
    return out


def player_book(
    db: Database, group: str, table: model.Standings | Unknown | None = UNKNOWN
) -> model.PlayerBook:
    """Every player of the group with their own page's content (one reading of the file); ``table``:
    the group's :func:`exports.standings` (``None``: none yet) when the caller has it already."""
    with db.one_reading():
        if isinstance(table, Unknown):
            try:
                table = exports.standings(db, group)
            except UserError:
                table = None  # before round 1 is complete there is no ranking
        return _player_book(db, group, table)


def _player_book(db: Database, group: str, table: model.Standings | None) -> model.PlayerBook:
    info = tournament_info(db)
    reg = info.regulations
    state = group_state(db, group)
    bracket = bracket_of(db, group)
    records = stored_records(db, group)
    names = {e.no: e.name for e in state.entrants}
    ranked = {r.no: i for i, r in enumerate(table.rows)} if table is not None else {}
    rounds = state.scored_rounds
    # each player's score after each round: the rounds' points summed once, in round order
    after: dict[int, dict[int, int]] = {}
    running: dict[int, int] = {}
    for rnd in sorted(rounds, key=lambda r: r.number):
        for no, earned in points_by_round([rnd], reg.points).items():
            running[no] = running.get(no, 0) + earned[rnd.number]
        after[rnd.number] = dict(running)
    knockout = _knockout_games(bracket, names, records)
    rests = round_robin_rests(db, group)
    latest = state.rounds[-1].number if state.rounds else 0
    # each round's games and absences by player, in the round's order (one pass, not one per player)
    games_of: dict[int, dict[int, list[Game]]] = {}
    absences_of: dict[int, dict[int, list[Absence]]] = {}
    for rnd in rounds:
        by_player: dict[int, list[Game]] = {}
        for g in rnd.games:
            by_player.setdefault(g.red, []).append(g)
            if g.black != g.red:
                by_player.setdefault(g.black, []).append(g)
        games_of[rnd.number] = by_player
        absent: dict[int, list[Absence]] = {}
        for absence in rnd.absent:
            absent.setdefault(absence.no, []).append(absence)
        absences_of[rnd.number] = absent
    cards = []
    for e in sorted(state.entrants, key=lambda x: x.no):
        played: list[model.PlayerRound] = []
        next_game: model.NextGame | None = None
        unpaired = ""
        for rnd in rounds:
            games: list[model.PlayerGame] = []
            for g in games_of[rnd.number].get(e.no, ()):
                colour = Colour.RED if g.red == e.no else Colour.BLACK
                other = g.black if colour is Colour.RED else g.red
                games.append(
                    model.PlayerGame(
                        g.board,
                        colour.zh,
                        other,
                        names.get(other, ""),
                        _outcome(g.result, colour),
                        "",
                        "" if g.result.is_pending else g.result.zh,
                        1 if (rnd.number, g.board, 1) in records else 0,
                    )
                )
                if g.result.is_pending and rnd.number == latest:
                    next_game = _next(reg, rnd.number, g.board, colour, other, names, "", "")
            if e.no in rnd.byes or e.no in rests.get(rnd.number, ()):  # a round robin's rest: no points
                games.append(model.PlayerGame(None, outcome="轮空"))
                unpaired = "轮空" if rnd.number == latest else unpaired
            for absence in absences_of[rnd.number].get(e.no, ()):
                if absence.no == e.no:
                    excused = absence.kind is AbsenceKind.EXCUSED
                    games.append(
                        model.PlayerGame(None, outcome=model.CrossCell.absent(excused, absence.points).text)
                    )
                    unpaired = "请假" if excused and rnd.number == latest else unpaired
            for kg, tc in knockout.get((rnd.number, e.no), []):
                games.append(kg)
                if (
                    not kg.outcome
                    and rnd.number == latest
                    and kg.board is not None
                    and kg.opponent is not None
                ):
                    colour = Colour.RED if kg.colour == Colour.RED.zh else Colour.BLACK
                    next_game = _next(reg, rnd.number, kg.board, colour, kg.opponent, names, kg.stage, tc)
            if not games:
                continue
            pending = any(not x.outcome for x in games)
            played.append(
                model.PlayerRound(
                    rnd.number, tuple(games), None if pending else after[rnd.number].get(e.no, 0)
                )
            )
        row = table.rows[ranked[e.no]] if e.no in ranked and table is not None else None
        above = below = None
        if row is not None and table is not None:
            i = ranked[e.no]
            if i > 0:
                up = table.rows[i - 1]
                above = model.Neighbour(up.rank, up.no, up.name, up.separated_by)
            if i + 1 < len(table.rows):
                down = table.rows[i + 1]
                below = model.Neighbour(down.rank, down.no, down.name, row.separated_by)
        cards.append(
            model.PlayerCard(
                e.no,
                e.name,
                e.unit or (e.team or ""),
                tuple(played),
                row.score if row is not None else (after[latest].get(e.no, 0) if latest in after else 0),
                row.rank if row is not None else None,
                row.tiebreaks if row is not None else (),
                above,
                below,
                next_game,
                _STATUS_NOTE.get(e.status, ""),
                unpaired,
            )
        )
    basis = "" if table is None else _basis(table)
    header = model.EventHeader(info.name, group, round_label=basis)
    return model.PlayerBook(header, table.chain if table is not None else (), basis, tuple(cards))


def _basis(table: model.Standings) -> str:
    if table.header.round is None:
        return table.header.round_label
    return f"第 {table.header.round} 轮后"


def _next(
    reg: Regulations,
    number: int,
    board: int,
    colour: Colour,
    other: int,
    names: dict[int, str],
    stage: str,
    tc: str,
) -> model.NextGame:
    slot = reg.round_time(number)
    return model.NextGame(
        number,
        board,
        colour.zh,
        other,
        names.get(other, ""),
        stage,
        slot.label if slot is not None else "",
        tc or reg.swiss_time_control.label,
    )


def schedule(db: Database) -> model.Schedule:
    """赛程: each group's rounds with the announced start, the stages played in each and their time
    controls (a knockout: each step of its matches' ladders with its own)."""
    info = tournament_info(db)
    reg = info.regulations
    swiss = reg.swiss_time_control.label
    groups = []
    for g in info.groups:
        state = group_state(db, g.name)
        plans = plan_of(state)
        bracket = bracket_of(db, g.name)
        total = rounds_known(state) or max((p.last_round for p in plans), default=0)
        lines = []
        for n in range(1, total + 1):
            slot = reg.round_time(n)
            here = stages_in_round(plans, n)
            controls: list[tuple[str, str]] = []
            for p in here:
                label = _stage_label(p.stage)
                if p.stage.kind is StageKind.KNOCKOUT:
                    ladders = _ladders(p.stage, reg, bracket, n)
                    for ladder in ladders:
                        scope = f" {ladder.scope.zh}" if ladder.scope is not MatchScope.ALL else ""
                        if ladder.scope is MatchScope.ALL and len(ladders) > 1:
                            scope = " 其余各场"
                        controls += [
                            (f"{label}{scope} {_step_label(ladder.steps, k)}", step.time.label)
                            for k, step in enumerate(ladder.steps)
                        ]
                else:
                    controls.append((label if len(here) > 1 else "", swiss))
            stage = "、".join(_stage_label(p.stage) for p in here if p.stage.entrants is not Entrants.REST)
            lines.append(
                model.ScheduleLine(n, slot.label if slot else "", stage, tuple(controls) or (("", swiss),))
            )
        groups.append((g.name, tuple(lines)))
    header = model.EventHeader(mask_personal(info.name), dates=event_dates(reg.start_date, reg.end_date))
    return model.Schedule(header, tuple(groups))


def _ladders(stage: Stage, reg: Regulations, bracket: Bracket | None, n: int) -> list[MatchFormat]:
    """The match ladders played in round ``n``: those of its matches once the bracket is drawn, else
    every ladder the stage has (the regulation's [knockout] one for the matches none names)."""
    if bracket is not None and n in bracket.round_numbers:
        out: list[MatchFormat] = []
        for plan in bracket.plans:
            ladder = bracket.ladder_of(plan.code)
            if plan.round_number == n and ladder not in out:
                out.append(ladder)
        return out
    ladders = list(stage.matches)
    scopes = {m.scope for m in ladders}
    every_side = {MatchScope.WINNERS, MatchScope.LOSERS, MatchScope.GRAND_FINAL} <= scopes
    if MatchScope.ALL not in scopes and not (stage.elimination is Elimination.DOUBLE and every_side):
        ladders.insert(0, reg.knockout.match_format)
    return ladders


def _stage_label(stage: Stage) -> str:
    """积分编排 / 单循环 / 淘汰赛 / 双败淘汰, or the stage's own name; 其余棋手 … for the players who are
    not in the stage beside it."""
    if stage.name:
        label = stage.name
    elif stage.kind is StageKind.KNOCKOUT:
        label = "淘汰赛" if stage.elimination is Elimination.SINGLE else "双败淘汰"
    else:
        label = stage.title_zh
    return f"其余棋手 {label}" if stage.entrants is Entrants.REST else label


def _step_label(steps: tuple[LadderStep, ...], k: int) -> str:
    """慢棋; 快棋（换先，如慢棋和）; 附加赛（如再和）; 快棋2局 …"""
    step = steps[k]
    name = step.kind.zh + (f"{step.games}局" if step.games > 1 else "")
    if k == 0:
        return name
    swap = "换先，" if step.colours is ColourRule.SWAP and step.games == 1 else ""
    when = f"如{steps[0].kind.zh}和" if k == 1 else "如再和"
    return f"{name}（{swap}{when}）"


def game_view(db: Database, group: str, number: int, board: int, game_no: int = 1) -> model.GameView:
    """A stored game record move by move (Chinese notation), with the board's players and result."""
    record = record_of(db, group, number, board, game_no=game_no)
    if record is None:
        raise UserError(f"第 {board} 台还没有棋谱", f"board {board} has no game record")
    doc = exports.round_results(db, group, number)
    rows = [r for r in doc.rows if r.board == board]
    if not rows:
        raise UserError(
            f"{group}第 {number} 轮没有第 {board} 台", f"{group} round {number} has no board {board}"
        )
    row = rows[min(game_no, len(rows)) - 1]
    position = Board(record.fen)
    moves = []
    for ply, move in enumerate(record.moves):
        colour = position.turn
        text = format_chinese(position, move)
        position.push(move)
        first = record.first_mover
        number_of = (ply + (0 if first is Colour.RED else 1)) // 2 + 1
        moves.append(model.GameMove(ply + 1, number_of, colour.zh, text, position.fen()))
    return model.GameView(
        doc.header, board, game_no, row.red, row.black, row.result_zh, record.fen, tuple(moves), row.stage
    )


# --------------------------------------------------------------------------- the static folder


def public_site(db: Database) -> PublicSite:
    """The public web pages of every group — entry list, every round, standings, crosstable, teams,
    bracket, each player's own page — the schedule and the prizes (one reading of the file)."""
    with db.one_reading():
        info = tournament_info(db)
        groups = []
        for name, numbers in paired_groups(db):
            g = next(x for x in info.groups if x.name == name)
            summaries = rounds_of(db, name)
            ranked = bool(numbers) and any(r.pending == 0 for r in summaries[:1])
            due = next((r.number for r in summaries if r.swiss_due), None)
            table = exports.standings(db, name) if ranked else None
            groups.append(
                SiteGroup(
                    name,
                    entries=exports.entry_list(db, name) if g.players else None,
                    rounds=tuple(exports.round_results(db, name, n) for n in numbers),
                    standings=table,
                    crosstable=exports.crosstable_of(db, name) if ranked else None,
                    order=exports.order_of_play(db, name) if exports.has_order_of_play(db, name) else None,
                    teams=exports.team_standings_model(db, name) if numbers and g.teams else None,
                    bracket=exports.bracket(db, name) if bracket_of(db, name) is not None else None,
                    players=player_book(db, name, table if ranked else UNKNOWN)
                    if g.players and not is_team_group(db, name)
                    else None,
                    swiss_due=due,
                    **_team_parts(db, name),
                )
            )
        return PublicSite(mask_personal(info.name), tuple(groups), optional_prizes(db), schedule(db))


def _team_parts(db: Database, group: str) -> dict[str, Any]:
    """A team competition's pages for the static folder: each round's matches, and once a round is
    decided the team standings (场分, 局分) and the team crosstable — what the hall shows."""
    from app.services.team_events import team_round_numbers
    from app.services.team_exports import team_book, team_crosstable, team_event_standings, team_round_doc

    if not is_team_group(db, group):
        return {}
    numbers = team_round_numbers(db, group)
    parts: dict[str, Any] = {"team_rounds": tuple(team_round_doc(db, group, n) for n in numbers)}
    # the ranking once a round has every board's result, as the hall shows it
    complete = [r.number for r in rounds_of(db, group) if r.pending == 0 and r.boards > 0]
    if complete:
        parts["team_complete"] = max(complete)
        parts["team_standings"] = team_event_standings(db, group)
        parts["team_crosstable"] = team_crosstable(db, group)
    parts["team_book"] = team_book(db, group, parts["team_rounds"], parts.get("team_standings"))
    return parts


def write_public_site(db: Database, out_dir: str | Path, printed_at: datetime | None = None) -> list[Path]:
    """The public pages in the folder ``out_dir`` (created if missing; pages of an earlier export are
    replaced). They are written into a fresh folder beside it first and renamed in one by one, so a
    failure leaves no half-written page."""
    out = Path(out_dir)
    if not str(out_dir).strip() or "\x00" in str(out_dir):
        raise UserError("没有给出网页要导出到的文件夹", "no output folder was given")
    if out.exists() and not out.is_dir():
        raise UserError(
            f"{out} 是一个文件；网页要导出到一个文件夹", f"{out} is a file; the pages go into a folder"
        )
    if not out.parent.is_dir():
        raise UserError(f"文件夹 {out.parent} 不存在", f"the folder {out.parent} does not exist")
    with collection_paused():  # every page's read model and text: nothing cyclic to free
        return _write_pages(public_site(db), out, printed_at)


def _write_pages(site: PublicSite, out: Path, printed_at: datetime | None) -> list[Path]:
    import os
    import tempfile

    from app.files import os_error

    written: list[Path] = []
    try:
        with tempfile.TemporaryDirectory(dir=out.parent, prefix=f".{out.name}.") as tmp:
            files = write_site(site, tmp, printed_at or datetime.now())
            out.mkdir(exist_ok=True)
            for f in files:
                target = out / f.name
                if target.is_dir():
                    raise UserError(
                        f"{target} 是文件夹，无法写入网页",
                        f"{target} is a folder; the page cannot be written",
                    )
                os.chmod(f, 0o644)
                os.replace(f, target)
                written.append(target)
    except OSError as exc:
        raise os_error(exc, out) from None
    return written
