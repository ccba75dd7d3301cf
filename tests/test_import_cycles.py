"""No circles: no module of ``app`` imports itself back through others, counting imports inside functions.

import-linter checks the direction between layers; this checks that inside a layer (services, cli, …)
two modules never need each other, so each has one owner of what it does.
"""

from __future__ import annotations

import dis
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import CodeType
from typing import Any

import app

APP = Path(app.__file__).parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(APP.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


_IMPORT_NAME = bytes([dis.opmap["IMPORT_NAME"]])


def _constants(instructions: list[dis.Instruction]) -> list[Any]:
    """The values the instructions before an IMPORT_NAME load: its level and its names."""
    assert all(i.opname in ("LOAD_CONST", "LOAD_SMALL_INT") for i in instructions), instructions
    return [i.argval for i in instructions]


def _imports(code: CodeType) -> set[str]:
    """The modules a compiled module imports, at its top and inside its functions and classes: for
    ``import a.b`` the module ``a.b``; for ``from a import b, c`` (absolute) ``a``, ``a.b`` and ``a.c``.

    Read from the compiled code (every import statement is an IMPORT_NAME instruction after the two
    constants level and names), not from the syntax tree, which costs three times as long to build.
    """
    deps: set[str] = set()
    todo = [code]
    while todo:
        code = todo.pop()
        todo.extend(c for c in code.co_consts if isinstance(c, CodeType))
        if _IMPORT_NAME not in code.co_code[::2]:  # the opcodes (a quick look before decoding)
            continue
        instructions = [i for i in dis.get_instructions(code) if i.opname not in ("EXTENDED_ARG", "CACHE")]
        for k, instruction in enumerate(instructions):
            if instruction.opname != "IMPORT_NAME":
                continue
            module, (level, names) = instruction.argval, _constants(instructions[k - 2 : k])
            if names is None:  # import a.b (as c)
                deps.add(module)
            elif level == 0:
                deps.add(module)
                deps.update(f"{module}.{name}" for name in names)
    return deps


def _import_graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in APP.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        # the loader's code: the compiled file in the bytecode cache when it is up to date
        code = SourceFileLoader(name, str(path)).get_code(name)
        assert code is not None, path
        deps = _imports(code)
        # a package's __init__ importing its own submodules is not a cycle of the submodules
        graph[name] = {d for d in deps if d in modules and d != name and not d.startswith(name + ".")}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_of_the_program_imports_itself_back() -> None:
    graph = _import_graph()
    assert len(graph) > 100
    assert _cycles(graph) == []
