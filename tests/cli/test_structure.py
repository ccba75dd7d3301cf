"""The command line as a package: one module per command family, no circles, every command and option explained."""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path

import pytest

import app
import app.cli
from app.cli import COMMAND_FAMILIES, build_parser
from app.cli.common import CommandLineError

CLI_DIR = Path(app.cli.__file__).parent


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def test_every_command_and_every_option_says_what_it_does() -> None:
    parser = build_parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    described = {c.dest: c.help for c in sub._choices_actions}
    commands = _subcommands(parser)
    assert len(commands) >= 40
    missing: list[str] = []
    for name, cmd in commands.items():
        if not (described.get(name) or "").strip():
            missing.append(name)
        for action in cmd._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if not (action.help or "").strip() or action.help == argparse.SUPPRESS:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


def test_command_modules_import_only_the_shared_helpers_of_the_package() -> None:
    """No module of app/cli imports a sibling command module (no circles); they share app.cli.common.
    (``hosted`` is no family: it runs the whole command line inside the file's owner.)"""
    families = {p.stem for p in CLI_DIR.glob("*.py")} - {"__init__", "__main__", "common", "hosted"}
    assert len(families) == len(COMMAND_FAMILIES)
    for path in CLI_DIR.glob("*.py"):
        if path.stem in {"__init__", "__main__", "hosted"}:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("app.cli"):
                assert node.module in ("app.cli.common", "app.cli.hosted"), (
                    f"{path.name} imports {node.module}"
                )
                assert path.stem != "common"


def test_every_path_is_read_from_the_folder_of_whoever_typed_it() -> None:
    """Run by the file's owner for a client, a relative path means the client's folder: every
    argument naming a file or a folder has the type that resolves it (common.path_arg)."""
    from app.cli.common import path_arg

    words = ("file", "folder", ".pdf", ".png", ".xlsx", ".json", "pgn", ".toml", "trf", "backup file")
    unresolved = [
        f"{name} {action.dest}"
        for name, cmd in _subcommands(build_parser()).items()
        for action in cmd._actions
        if any(w in (action.help or "").lower() for w in words)
        and action.nargs not in (0,)
        and not isinstance(action, argparse._StoreTrueAction | argparse._HelpAction)
        and action.dest not in ("reason",)
        and action.type is not path_arg
    ]
    assert unresolved == []


def test_no_command_is_defined_twice_and_each_family_registers_its_own() -> None:
    seen: dict[str, str] = {}
    for register in COMMAND_FAMILIES:
        parser = argparse.ArgumentParser()
        register(parser.add_subparsers(dest="command"))
        for name in _subcommands(parser):
            assert name not in seen, f"{name} in {register.__module__} and {seen[name]}"
            seen[name] = register.__module__
    assert set(seen) == set(_subcommands(build_parser()))


def test_the_parser_imports_no_service_and_no_database_library() -> None:
    code = (
        "import sys, app.cli; app.cli.build_parser(); "
        "bad = [m for m in sys.modules if m.startswith(('app.services', 'app.db', 'sqlalchemy', 'alembic', "
        "'PySide6', 'reportlab', 'openpyxl'))]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_python_dash_m_app_cli_runs_the_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "app.cli", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "close-round" in done.stdout


def test_the_print_help_names_exactly_the_documents_the_service_knows() -> None:
    """The parser lists the documents without importing the service: the two lists must not drift."""
    from app.cli.exports import DOCUMENT_NAMES
    from app.services.exports import DOCUMENTS

    assert DOCUMENT_NAMES.split(", ") == list(DOCUMENTS)


def test_each_command_is_listed_with_its_family() -> None:
    """A command builds only its own parser: the table saying which family registers it is complete."""
    registered = {}
    for family in app.cli.FAMILIES:
        parser = argparse.ArgumentParser()
        app.cli._register(family)(parser.add_subparsers(dest="command"))
        registered.update(dict.fromkeys(_subcommands(parser), family))
    assert registered == app.cli.COMMANDS


def test_a_command_parses_as_it_does_in_the_whole_parser() -> None:
    """The parser of one command accepts and refuses exactly what the whole command line does."""
    samples = [
        ["pair", "t.xqt", "--group", "公开组", "--seed", "3"],
        ["print", "t.xqt", "table-cards", "--per-page", "4", "-o", "x.pdf"],
        ["result", "t.xqt", "--group", "公开组", "--round", "2", "--board", "1", "draw"],
        ["standings", "t.xqt", "--group", "公开组", "--json"],
    ]
    for argv in samples:
        whole = build_parser().parse_args(argv)
        alone = build_parser(argv[0]).parse_args(argv)
        assert vars(alone) == vars(whole)
    with pytest.raises(CommandLineError, match="--group"):
        build_parser("pair").parse_args(["pair", "t.xqt"])
    assert set(_subcommands(build_parser("pair"))) == {"pair"}
    assert len(_subcommands(build_parser("no-such-command"))) == len(app.cli.COMMANDS)


def test_the_version_is_read_without_the_package_metadata() -> None:
    from importlib.metadata import version

    from app.db.lock import program_version

    assert program_version() == app.__version__ == version("xqarbiter")


def test_the_installed_command_is_the_one_that_ends_the_process() -> None:
    """``xqarbiter`` runs :func:`app.cli.run` (a whole-event command then skips the collector's last
    passes), as ``python -m app.cli`` does."""
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text("utf-8"))
    assert project["project"]["scripts"]["xqarbiter"] == "app.cli:run"
