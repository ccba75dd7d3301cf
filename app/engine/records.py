"""``@frozen``: an immutable record, exactly ``@dataclass(frozen=True, slots=True)``, cheaper to create.

Python 3.11's ``dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__`` and ``__delattr__`` as source text and compiles each one when the class is created:
~0.5 ms a class, paid by every process at import. ``xqarbiter pair`` imports ~60 such classes (the
regulations, the group's state, the pairing engine) — a third of what the whole command costs at
160 players. ``@frozen`` lets ``dataclass`` write only what must be compiled per class (``__init__``
and the frozen ``__setattr__``/``__delattr__``) and gives ``__repr__``, ``__eq__`` and ``__hash__``
as functions made once, here, that read the fields through :func:`operator.attrgetter`; they return
what the generated ones return — the same tuples compared, the same tuples hashed, the same text
(a test compares each record class with its ``dataclass(frozen=True, slots=True)`` twin).

A ``@frozen`` class is a dataclass: :func:`dataclasses.fields`, :func:`dataclasses.replace`,
:func:`dataclasses.asdict`, ``field(compare=False, repr=False, hash=…)``, pattern matching, copying
and pickling work as for ``@dataclass(frozen=True, slots=True)``; methods the class defines itself
(``__eq__``, ``__hash__``, ``__repr__``) are kept as ``dataclass`` keeps them. Only
``__dataclass_params__`` tells the difference (it records ``eq=False, repr=False``: the methods were
added after).
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


def _values(names: Sequence[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of ``names``' values of an object (what ``dataclass``'s methods compare and hash)."""
    if len(names) >= 2:
        return attrgetter(*names)
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _eq(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _repr(names: Sequence[str]) -> Callable[[Any], str]:
    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _method(cls: type, name: str, function: Callable[..., Any]) -> None:
    function.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, function)


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen(cls: type[T]) -> type[T]:
    """``@dataclass(frozen=True, slots=True)``, with the comparison, hash and text made without compiling."""
    body = cls.__dict__
    own_eq = "__eq__" in body
    own_repr = "__repr__" in body
    # dataclass's rule: a __hash__ of None that Python set because the class defines __eq__ is not the class's own
    own_hash = "__hash__" in body and not (body["__hash__"] is None and own_eq)
    made: type[T] = dataclasses.dataclass(frozen=True, slots=True, eq=False, repr=False)(cls)
    fields = dataclasses.fields(made)  # type: ignore[arg-type]
    if not own_repr:
        _method(made, "__repr__", _repr([f.name for f in fields if f.repr]))
    if not own_eq:
        _method(made, "__eq__", _eq(_values([f.name for f in fields if f.compare])))
    if not own_hash:
        hashed = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
        _method(made, "__hash__", _hash(_values(hashed)))
    return made


__all__ = ["frozen"]
