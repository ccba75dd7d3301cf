"""A small HTML tree for the tests: parse a page, find elements by tag and class, read their text."""

from __future__ import annotations

import gc
import re
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass(slots=True)
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
        out: list[Node] = []
        wanted = [(k.rstrip("_").replace("_", "-"), v) for k, v in attrs.items()]

        def walk(node: Node) -> None:
            for c in node.children:
                if type(c) is not str:
                    assert isinstance(c, Node)
                    if (
                        (not tag or c.tag == tag)
                        and (not cls or cls in c.classes)
                        and all(c.attrs.get(k) == v for k, v in wanted)
                    ):
                        out.append(c)
                    walk(c)

        walk(self)
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
    """The standard library's parser: the reference the fast one is checked against (tests/web)."""

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


def parse_reference(html: str) -> Node:
    """A page parsed by :class:`html.parser.HTMLParser` (slower; :func:`parse` builds the same tree)."""
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


# the tokens of a page as the hall and the static folder write it: comments, declarations, end tags,
# start tags (attributes quoted or not), and the text between them
_TOKEN = re.compile(
    r"<!--.*?-->|<![^>]*>|<\?[^>]*>"
    r"|</([a-zA-Z][^\s/>]*)[^>]*>"
    r"|<([a-zA-Z][^\s/>]*)((?:[\s/]+[^\s/>=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?)*)[\s]*(/?)>",
    re.S,
)
_ATTR = re.compile(r"([^\s/>=]+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+))?")
_RAW = {"script": re.compile(r"</script\s*>", re.I), "style": re.compile(r"</style\s*>", re.I)}


def parse(html: str) -> Node:
    """The page as a tree: the same tree :func:`parse_reference` builds (a test compares them on every
    kind of page), several times faster — the tests parse thousands of pages. The tree holds no cycle:
    the cyclic garbage collector is kept from walking it again and again while it grows."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _parse(html)
    finally:
        if collecting:
            gc.enable()


def _parse(html: str) -> Node:
    root = Node("#root")
    stack = [root]
    at = 0
    n = len(html)
    search = _TOKEN.search
    while at < n:
        m = search(html, at)
        if m is None:
            stack[-1].children.append(unescape(html[at:]))
            break
        if m.start() > at:
            stack[-1].children.append(unescape(html[at : m.start()]))
        at = m.end()
        end, start = m.group(1), m.group(2)
        if end is not None:
            name = end.lower()
            for i in range(len(stack) - 1, 0, -1):
                if stack[i].tag == name:
                    del stack[i:]
                    break
        elif start is not None:
            name = start.lower()
            attrs = {
                k.lower(): unescape(v[1:-1] if v[:1] in ("'", '"') else v) if v else ""
                for k, v in _ATTR.findall(m.group(3))
            }
            node = Node(name, attrs)
            stack[-1].children.append(node)
            if m.group(4) or name in VOID:
                continue
            raw = _RAW.get(name)
            if raw is not None:  # a script's or a style's text is not HTML
                close = raw.search(html, at)
                stop = close.start() if close else n
                if stop > at:
                    node.children.append(html[at:stop])
                at = close.end() if close else n
                continue
            stack.append(node)
    return root


def main_of(html: str) -> Node:
    """The page's one ``<main>`` element, parsed alone (a page has exactly one; the frame around it,
    the same on every page, is not parsed again)."""
    assert html.count("<main") == 1 and html.count("</main>") == 1, "a page has exactly one <main>"
    start, end = html.index("<main"), html.index("</main>") + len("</main>")
    return parse(html[start:end]).one("main")
