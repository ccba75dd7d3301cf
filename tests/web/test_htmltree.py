"""The tests' fast HTML parser builds the tree the standard library's parser builds."""

from __future__ import annotations

from starlette.testclient import TestClient

from .htmltree import Node, parse, parse_reference


def _merged(node: Node) -> Node:
    """The tree with adjacent pieces of text joined (the two parsers may cut a text differently)."""
    kids: list[Node | str] = []
    for c in node.children:
        if isinstance(c, str):
            if kids and isinstance(kids[-1], str):
                kids[-1] += c
            elif c:
                kids.append(c)
        else:
            kids.append(_merged(c))
    return Node(node.tag, node.attrs, kids)


HAND_WRITTEN = """<!DOCTYPE html><html lang="zh"><head><meta charset="utf-8"><title>a &amp; b</title>
<script src="/x.js?v=3" defer></script><script>if (a < b && c > d) { x = "</div>"; }</script>
<style>p > b { color: red }</style></head><body class="x  y" data-v='7'><!-- a comment <b>not</b> -->
<main><h1>第 1 轮 &middot; 对阵</h1><p class=plain>张三&#x3001;李四 &lt;b&gt;<br><br/><img src=a.png alt="">
<a href="/g/1/?q=%E5%BC%A0&amp;x=1" HREF="/dup">link</a><input type=checkbox checked>
<ul><li>one<li>two</ul><div><span>unclosed</div><td>stray</td></p></main></body></html>"""


def test_the_fast_parser_builds_the_reference_tree_of_a_hand_written_page() -> None:
    fast, reference = parse(HAND_WRITTEN), parse_reference(HAND_WRITTEN)
    assert _merged(fast) == _merged(reference)
    main = fast.one("main")
    assert main.one("a").attrs["href"] == "/dup"  # the last of a repeated attribute, as the reference
    assert main.one("p", "plain").own_text().startswith("张三、李四 <b>")
    assert main.one("input").attrs == {"type": "checkbox", "checked": ""}
    assert [s.text() for s in fast.all("script")] == ["", 'if (a < b && c > d) { x = "</div>"; }']


def test_the_fast_parser_builds_the_reference_tree_of_every_kind_of_hall_page(reader: TestClient) -> None:
    paths = ["/", "/g/1/", "/g/1/r/4/b/1", "/g/1/standings", "/g/1/crosstable", "/g/1/teams", "/g/2/bracket"]
    paths += ["/g/1/entries", "/g/1/r/4/names", "/g/1/p/1", "/schedule", "/find?q=1", "/nothing"]
    for path in paths:
        html = reader.get(path).text
        assert _merged(parse(html)) == _merged(parse_reference(html)), path
