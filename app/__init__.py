"""Xiangqi Arbiter (象棋赛事编排系统): the arbiter's window, the ``xqarbiter`` command line and the hall server.

``__version__`` is the program's one version: ``pyproject.toml`` reads it from here when the package is
built, ``xqarbiter --version`` and the lock file show it, and CHANGELOG.md says what each version brought.
It is a plain string so that reading it costs nothing (no ``importlib.metadata``, which works in a frozen
build only when the metadata was bundled).
"""

__version__ = "0.18.2"
