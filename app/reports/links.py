"""Where each public page lives: the hall network's paths (the scheme the printed QR codes open) or the
static folder's file names. Light on purpose (no template engine): the services that print the QR codes
and the window import it."""

from __future__ import annotations


class Links:
    """The hall's paths (``/g/1/r/4/b/7``): the scheme the printed QR codes open.

    ``live``: the page is served (search forms that ask the server, the script that refreshes it).
    """

    live = True
    #: the stylesheet and script, with a version that changes when they do (cached for a day)
    css = "/static/hall.css?v=5"
    js = "/static/hall.js?v=3"

    def home(self) -> str:
        return "/"

    def find(self) -> str:
        return "/find"

    def schedule(self) -> str:
        return "/schedule"

    def group(self, gi: int) -> str:
        return f"/g/{gi}/"

    def round(self, gi: int, number: int) -> str:
        return f"/g/{gi}/r/{number}/"

    def names(self, gi: int, number: int) -> str:
        """A round's players in 拼音 order (the notice board's list)."""
        return f"/g/{gi}/r/{number}/names"

    def board(self, gi: int, number: int, board: int) -> str:
        return f"/g/{gi}/r/{number}/b/{board}"

    def record(self, gi: int, number: int, board: int, game: int) -> str:
        """A stored game record (棋谱) shown on a board; "" where there is no such page."""
        return f"/g/{gi}/r/{number}/b/{board}/game/{game}"

    def player(self, gi: int, no: int) -> str:
        return f"/g/{gi}/p/{no}"

    def team(self, gi: int, no: int) -> str:
        """A team's own page in a team competition (by team number, 队号)."""
        return f"/g/{gi}/t/{no}"

    def match(self, gi: int, number: int, match: int) -> str:
        """One match (一场) of a team round: both line-ups board by board."""
        return f"/g/{gi}/r/{number}/m/{match}"

    def page(self, gi: int, kind: str) -> str:
        """A group's page: ``standings``, ``crosstable``, ``order`` (a round robin's 对局秩序表), ``teams``,
        ``bracket``, ``entries``,
        ``entries/names`` (the entry list in 拼音 order)."""
        return f"/g/{gi}/{kind}"

    def prizes(self) -> str:
        return "/prizes"


class StaticLinks(Links):
    """The static folder's file names (``g1-r4.html``); a board is its line on the round's page."""

    live = False
    css = ""
    js = ""

    def __init__(self, current: dict[int, int] | None = None) -> None:
        self.current = current or {}

    def home(self) -> str:
        return "index.html"

    def find(self) -> str:
        return ""

    def schedule(self) -> str:
        return "schedule.html"

    def group(self, gi: int) -> str:
        return f"g{gi}-r{self.current.get(gi, 1)}.html"

    def round(self, gi: int, number: int) -> str:
        return f"g{gi}-r{number}.html"

    def names(self, gi: int, number: int) -> str:
        return f"g{gi}-r{number}-names.html"

    def board(self, gi: int, number: int, board: int) -> str:
        return f"g{gi}-r{number}.html#b{board}"

    def record(self, gi: int, number: int, board: int, game: int) -> str:
        return ""

    def player(self, gi: int, no: int) -> str:
        return f"g{gi}-p{no}.html"

    def team(self, gi: int, no: int) -> str:
        return f"g{gi}-t{no}.html"

    def match(self, gi: int, number: int, match: int) -> str:
        return f"g{gi}-r{number}-m{match}.html"

    def page(self, gi: int, kind: str) -> str:
        return f"g{gi}-{kind.replace('/', '-')}.html"

    def prizes(self) -> str:
        return "prizes.html"


HALL = Links()
