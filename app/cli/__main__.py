"""python -m app.cli … — the same as the xqarbiter command."""

from app.cli import run

run()
