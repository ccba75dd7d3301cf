"""A small HTML tree for the tests: parse a page, find elements by tag and class, read their text."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def own_text(self) -> str:
        """The text directly inside this element (not in its child elements)."""
        return "".join(c for c in self.children if isinstance(c, str))

    def all(self, tag: str = "", cls: str = "", **attrs: str) -> list[Node]:
        """Every element below (depth first, document order) with this tag, class and attributes."""
        out = []
        for c in self.children:
            if isinstance(c, Node):
                if (
                    (not tag or c.tag == tag)
                    and (not cls or cls in c.classes)
                    and all(c.attrs.get(k.rstrip("_").replace("_", "-")) == v for k, v in attrs.items())
                ):
                    out.append(c)
                out += c.all(tag, cls, **attrs)
        return out

    def one(self, tag: str = "", cls: str = "", **attrs: str) -> Node:
        found = self.all(tag, cls, **attrs)
        assert len(found) == 1, (tag, cls, attrs, len(found))
        return found[0]

    def first(self, tag: str = "", cls: str = "", **attrs: str) -> Node | None:
        found = self.all(tag, cls, **attrs)
        return found[0] if found else None

    def table_rows(self) -> tuple[list[str], list[list[str]]]:
        """The header and body rows of the first table below, as cell texts."""
        table = self if self.tag == "table" else self.all("table")[0]
        header = [c.text().strip() for c in table.one("thead").all("th")]
        body = [
            [c.text().strip() for c in tr.all() if c.tag in ("td", "th")]
            for tr in table.one("tbody").all("tr")
        ]
        return header, body


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


def main_of(html: str) -> Node:
    """The page's one ``<main>`` element, parsed alone (a page has exactly one; the frame around it,
    the same on every page, is not parsed again)."""
    assert html.count("<main") == 1 and html.count("</main>") == 1, "a page has exactly one <main>"
    start, end = html.index("<main"), html.index("</main>") + len("</main>")
    return parse(html[start:end]).one("main")
