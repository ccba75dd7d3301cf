"""The corpus runs ~2,500 commands through ``app.cli.main`` in one process. A real ``xqarbiter`` process
builds the command line's parser once; here it is built once per test process too, instead of once per
command (which took about 40 % of the corpus's time). The parser keeps no state between parses."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Iterator

import pytest

import app.cli


@pytest.fixture(autouse=True, scope="session")
def one_parser_per_process() -> Iterator[None]:
    build = app.cli.build_parser
    if inspect.signature(build).parameters:  # a parser built per command is not the whole one: leave it
        yield
        return
    app.cli.build_parser = functools.cache(build)  # type: ignore[assignment]
    try:
        yield
    finally:
        app.cli.build_parser = build  # type: ignore[assignment]
