"""One cache of compiled SQL for every tournament file this process opens.

SQLAlchemy compiles each distinct statement (a query's shape, never its values) to SQL once per
engine and dialect: its caches — the engine's ``compiled_cache`` and the ORM's per-mapper cache of
INSERT/UPDATE/DELETE statements — key a compiled statement by the dialect *object*. The program makes
a new engine, hence a new dialect, for every file it opens (a command, the window opening another
event, a test), so every open file used to compile the same few hundred statements again (~20 % of
the CPU of a service call on a freshly opened file).

Here the engines of :func:`app.db.session.make_engine` use :class:`ArbiterSQLite`, the stock pysqlite
dialect whose instances compare equal when they would compile every statement identically (same
class, same construction, same SQLite library: the settings read by :meth:`_compile_settings`), and
one bounded, thread-safe LRU cache (:data:`COMPILED`) shared by all of them. What is shared is SQL
text and its parameter layout, never a row: the values of every execution are bound afresh, so a file
can never be served another file's data, and a dialect not yet connected (its SQLite settings unread)
equals only itself.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import registry
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.util import LRUCache

#: the URL scheme of the program's engines (``sqlite+xqarbiter:///FILE``)
DRIVER = "sqlite+xqarbiter"

#: how many compiled statements the process keeps (SQLAlchemy's own default per engine is 500; the
#: program issues ~400 distinct statements in all, the test suite a few more). LRUCache prunes back to
#: this size once it has grown by half of it.
CAPACITY = 1200

#: the compiled statements of every engine of :func:`app.db.session.make_engine` (thread-safe: the
#: cache SQLAlchemy itself shares between the threads of one engine)
COMPILED: LRUCache[Any, Any] = LRUCache(CAPACITY)

# What decides how a statement compiles for SQLite, read after the dialect's first connection.
_SETTINGS = (
    "server_version_info",
    "default_schema_name",
    "paramstyle",
    "positional",
    "native_datetime",
    "_json_serializer",
    "_json_deserializer",
    "_broken_dotted_colnames",
    "supports_multivalues_insert",
    "supports_default_values",
    "supports_default_metavalue",
    "insert_returning",
    "update_returning",
    "delete_returning",
    "use_insertmanyvalues",
    "insertmanyvalues_page_size",
    "max_identifier_length",
    "label_length",
    "compiler_linting",
    "isolation_level",
    "default_isolation_level",
    "_on_connect_isolation_level",
    "dbapi",
)

# each distinct tuple of settings, kept once: equal dialects then hold the very same tuple
_KINDS: dict[tuple[object, ...], tuple[object, ...]] = {}


class ArbiterSQLite(SQLiteDialect_pysqlite):
    """SQLite through pysqlite, as SQLAlchemy ships it; instances that compile alike compare equal."""

    supports_statement_cache = True
    _kind: tuple[object, ...] | None = None

    def initialize(self, connection: Any) -> None:
        super().initialize(connection)
        settings = tuple(getattr(self, name, None) for name in _SETTINGS)
        self._kind = _KINDS.setdefault(settings, settings)

    def __eq__(self, other: object) -> bool:
        """Equal: both connected, of this class, with the same settings (hence the same SQL)."""
        if other is self:
            return True
        return (
            type(other) is type(self)
            and self._kind is not None
            and self._kind is getattr(other, "_kind", None)
        )

    def __hash__(self) -> int:
        return hash(type(self))


registry.register(DRIVER.replace("+", "."), __name__, "ArbiterSQLite")
