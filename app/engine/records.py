"""``@frozen`` and ``@record``: ``@dataclass(frozen=True, slots=True)`` and ``@dataclass(slots=True)``,
made without the :mod:`dataclasses` module.

Python 3.11's ``dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__`` and ``__delattr__`` as source text and compiles each one when the class is created
(~0.5 ms a class), and importing :mod:`dataclasses` imports :mod:`inspect` (with :mod:`ast`, :mod:`dis`,
:mod:`tokenize`): together about a quarter of a short command such as ``xqarbiter pair``, which creates
~60 records. Here nothing is compiled per class:

- ``__init__`` is a template compiled once per *shape* (how many fields, which have a default factory,
  which are left out of ``__init__``, whether ``__post_init__`` is called, frozen or not) whose code is
  copied for each class with the fields' names put in (:meth:`types.CodeType.replace`); the defaults are
  the function's defaults, the factories its closure — the same parameters, defaults, annotations and
  assignments as the ``__init__`` ``dataclass`` writes;
- ``__repr__``, ``__eq__``, ``__hash__`` and the frozen ``__setattr__``/``__delattr__`` are closures made
  here that read the fields through :func:`operator.attrgetter`: the same tuples compared and hashed,
  the same text, the same exceptions (:class:`dataclasses.FrozenInstanceError`, imported when raised).

A record is a dataclass to the :mod:`dataclasses` module: ``__dataclass_fields__`` and
``__dataclass_params__`` are made (with real :class:`dataclasses.Field` objects) the first time something
asks for them — a caller of :func:`dataclasses.fields`, :func:`~dataclasses.replace`,
:func:`~dataclasses.asdict` or :func:`~dataclasses.is_dataclass` has imported :mod:`dataclasses`
already. A class without a docstring gets ``dataclass``'s (its name and signature) when it is read.
:func:`fields`, :func:`replace` and :func:`is_record` here do the same without :mod:`dataclasses`.

What ``dataclass`` refuses, these refuse (a non-default field after a default one, a mutable default,
a ``field()`` without annotation, a frozen class's own ``__setattr__``); what the program does not use
is not offered: ``InitVar``, ``KW_ONLY`` and ``field(kw_only=…)``, and bases that are dataclasses but not
records, raise :class:`TypeError` (use ``dataclass`` for those). ``tests/engine/test_records.py``
makes every record shape both ways from one class body and compares them behaviour by behaviour.
"""

from __future__ import annotations

import abc
import re
import sys
import typing
from _thread import get_ident
from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from types import CellType, CodeType, FunctionType, MappingProxyType, MemberDescriptorType
from typing import Any, ClassVar, Final, TypeVar, dataclass_transform, overload

T = TypeVar("T")


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<missing>"


class _Factory:
    __slots__ = ()

    def __repr__(self) -> str:  # what ``dataclass``'s marker shows in a signature
        return "<factory>"


MISSING: Final[Any] = _Missing()
"""No default (``dataclasses.MISSING`` for records)."""
_HAS_DEFAULT_FACTORY: Final[Any] = _Factory()
_EMPTY: Final[Mapping[Any, Any]] = MappingProxyType({})


class Field:
    """A record's field: what :class:`dataclasses.Field` says of it (name, type, default, factory, flags)."""

    __slots__ = ("compare", "default", "default_factory", "hash", "init", "metadata", "name", "repr", "type")

    name: str
    type: Any

    def __init__(
        self,
        default: Any,
        default_factory: Any,
        init: bool,
        repr: bool,
        hash: bool | None,
        compare: bool,
        metadata: Mapping[Any, Any] | None,
    ) -> None:
        self.name = ""
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = _EMPTY if metadata is None else MappingProxyType(metadata)

    def __repr__(self) -> str:
        return (
            f"Field(name={self.name!r},type={self.type!r},default={self.default!r},"
            f"default_factory={self.default_factory!r},init={self.init!r},repr={self.repr!r},"
            f"hash={self.hash!r},compare={self.compare!r},metadata={self.metadata!r})"
        )


@overload
def field(
    *,
    default: T,
    init: bool = ...,
    repr: bool = ...,
    hash: bool | None = ...,
    compare: bool = ...,
    metadata: Mapping[Any, Any] | None = ...,
) -> T: ...
@overload
def field(
    *,
    default_factory: Callable[[], T],
    init: bool = ...,
    repr: bool = ...,
    hash: bool | None = ...,
    compare: bool = ...,
    metadata: Mapping[Any, Any] | None = ...,
) -> T: ...
@overload
def field(
    *,
    init: bool = ...,
    repr: bool = ...,
    hash: bool | None = ...,
    compare: bool = ...,
    metadata: Mapping[Any, Any] | None = ...,
) -> Any: ...
def field(
    *,
    default: Any = MISSING,
    default_factory: Any = MISSING,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
) -> Any:
    """:func:`dataclasses.field` for records (the same parameters but ``kw_only``)."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare, metadata)


# --------------------------------------------------------------------------- reading a class body

# dataclass's test of a string annotation: an optional module name, then a name (dataclasses._is_type)
_MODULE_IDENTIFIER = re.compile(r"^(?:\s*(\w+)\s*\.)?\s*(\w+)")


def _names(annotation: str, cls: type, module: Any, wanted: Any) -> bool:
    """Whether the string ``annotation`` names ``wanted`` (an object of ``module``), as ``dataclass`` decides."""
    match = _MODULE_IDENTIFIER.match(annotation)
    if not match:
        return False
    home = sys.modules.get(cls.__module__)
    ns: dict[str, Any] | None = None
    if not match.group(1):
        ns = home.__dict__ if home is not None else None
    elif home is not None and home.__dict__.get(match.group(1)) is module:
        ns = sys.modules[wanted.__module__].__dict__
    if not ns:
        return False
    return _is(ns.get(match.group(2)), wanted)


def _is(value: Any, wanted: Any) -> bool:
    """``value`` is ``wanted`` or a subscripted ``wanted`` (dataclass's test of ``ClassVar[…]``)."""
    if value is wanted:
        return True
    alias: Any = typing._GenericAlias  # type: ignore[attr-defined]
    return type(value) is alias and value.__origin__ is wanted


def _is_classvar(annotation: Any, cls: type) -> bool:
    if _is(annotation, ClassVar):
        return True
    return isinstance(annotation, str) and _names(annotation, cls, typing, ClassVar)


def _refuse_dataclasses_markers(name: str, annotation: Any, cls: type) -> None:
    """``InitVar`` and ``KW_ONLY`` exist only once :mod:`dataclasses` is imported: refused (not offered)."""
    dc = sys.modules.get("dataclasses")
    if dc is None:
        return
    for marker in (dc.InitVar, dc.KW_ONLY):
        if (
            annotation is marker
            or type(annotation) is marker
            or (isinstance(annotation, str) and _names(annotation, cls, dc, marker))
        ):
            raise TypeError(f"{cls.__qualname__}.{name}: {marker.__name__} is not offered by records")


class _Shape:
    """What the decorator learnt of a class: its fields (bases' first), its class variables."""

    __slots__ = ("classvars", "fields")

    def __init__(self, fields: dict[str, Field], classvars: dict[str, Field]) -> None:
        self.fields = fields
        self.classvars = classvars


def _read(cls: type) -> _Shape:
    fields: dict[str, Field] = {}
    for base in cls.__mro__[-1:0:-1]:
        shape: _Shape | None = base.__dict__.get("__record_shape__")
        if shape is not None:
            fields.update(shape.fields)
        elif "__dataclass_fields__" in base.__dict__:
            raise TypeError(f"{cls.__qualname__}: the base {base.__qualname__} is a dataclass, not a record")
    dc = sys.modules.get("dataclasses")
    body = cls.__dict__
    annotations: dict[str, Any] = body.get("__annotations__", {})
    classvars: dict[str, Field] = {}
    for name, annotation in annotations.items():
        default = getattr(cls, name, MISSING)  # dataclass's: a base class's attribute is a default too
        if isinstance(default, Field):
            f = default
        elif dc is not None and isinstance(default, dc.Field):
            if default.kw_only is not dc.MISSING:
                raise TypeError(f"{cls.__qualname__}.{name}: kw_only is not offered by records")
            f = Field(
                MISSING if default.default is dc.MISSING else default.default,
                MISSING if default.default_factory is dc.MISSING else default.default_factory,
                default.init,
                default.repr,
                default.hash,
                default.compare,
                default.metadata or None,
            )
        else:
            if isinstance(default, MemberDescriptorType):  # a slot (a base record's field): no default
                default = MISSING
            f = Field(default, MISSING, True, True, None, True, None)
        f.name = name
        f.type = annotation
        if _is_classvar(annotation, cls):
            if f.default_factory is not MISSING:
                raise TypeError(f"field {name} cannot have a default factory")
            classvars[name] = f
            fields.pop(name, None)
            continue
        _refuse_dataclasses_markers(name, annotation, cls)
        if f.default is not MISSING and f.default.__class__.__hash__ is None:
            raise ValueError(
                f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory"
            )
        fields[name] = f
    for name, value in body.items():
        is_field = isinstance(value, Field) or (dc is not None and isinstance(value, dc.Field))
        if is_field and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
        if is_field and name in classvars:  # dataclass puts a class variable's default in its place
            if classvars[name].default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, classvars[name].default)
    seen_default = False
    for f in fields.values():
        if f.init:
            if not (f.default is MISSING and f.default_factory is MISSING):
                seen_default = True
            elif seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
    return _Shape(fields, classvars)


# --------------------------------------------------------------------------- __init__ by shape

_PARAM = "__xq_param_{}"
_ATTR = "__xq_attr_{}__"
_CELL = "__xq_cell_{}"
_STORE = "__xq_store"  # a frozen record's __init__ assigns with object.__setattr__ (as dataclass's does),
_HAS = "__xq_has"  # a mutable one's with setattr (dataclass: self.name = value, the same call)
_TEMPLATES: dict[tuple[Any, ...], CodeType] = {}

# a field's part in __init__: a parameter, a parameter with a factory, a value made in __init__ by a
# factory, a default set in __init__ (init=False), nothing (init=False, no default)
_PLAIN, _FACTORY_PARAM, _MADE, _SET, _NOTHING = range(5)


def _kind(f: Field) -> int:
    if f.init:
        return _PLAIN if f.default_factory is MISSING else _FACTORY_PARAM
    if f.default_factory is not MISSING:
        return _MADE
    return _NOTHING if f.default is MISSING else _SET


def _template(kinds: tuple[int, ...], frozen: bool, post_init: bool) -> CodeType:
    """The code of ``__init__`` for one shape, its names placeholders (compiled once per shape)."""
    key = (kinds, frozen, post_init)
    code = _TEMPLATES.get(key)
    if code is not None:
        return code
    store = _STORE
    params = [_PARAM.format(i) for i, k in enumerate(kinds) if k in (_PLAIN, _FACTORY_PARAM)]
    cells = [_CELL.format(i) for i, k in enumerate(kinds) if k in (_FACTORY_PARAM, _MADE, _SET)]
    lines = []
    for i, k in enumerate(kinds):
        p, a, c = _PARAM.format(i), repr(_ATTR.format(i)), _CELL.format(i)
        value = {_PLAIN: p, _FACTORY_PARAM: f"{c}() if {p} is {_HAS} else {p}", _MADE: f"{c}()", _SET: c}.get(
            k
        )
        if value is not None:
            lines.append(f"  {store}(self, {a}, {value})")
    if post_init:
        lines.append("  self.__post_init__()")
    source = (
        f"def __make__({', '.join([_STORE, _HAS, *cells])}):\n"
        f" def __init__({', '.join(['self', *params])}):\n"
        + "\n".join(f" {line}" for line in lines or ["  pass"])
        + "\n return __init__\n"
    )
    module = compile(source, "<record>", "exec")
    outer = next(c for c in module.co_consts if isinstance(c, CodeType))
    code = next(c for c in outer.co_consts if isinstance(c, CodeType))
    _TEMPLATES[key] = code
    return code


def _init(cls: type, fields: Sequence[Field], frozen: bool) -> FunctionType:
    kinds = tuple(_kind(f) for f in fields)
    post_init = hasattr(cls, "__post_init__")
    code = _template(kinds, frozen, post_init)
    names = {_PARAM.format(i): f.name for i, f in enumerate(fields)}
    names["self"] = "__dataclass_self__" if any(f.name == "self" for f in fields) else "self"
    attrs = {_ATTR.format(i): f.name for i, f in enumerate(fields)}
    qualname = f"{cls.__qualname__}.__init__"
    code = code.replace(
        co_varnames=tuple(names.get(n, n) for n in code.co_varnames),
        co_consts=tuple(attrs.get(c, c) if type(c) is str else c for c in code.co_consts),
        co_name="__init__",
        co_qualname=qualname,
    )
    values: dict[str, Any] = {
        _CELL.format(i): f.default if f.default_factory is MISSING else f.default_factory
        for i, f in enumerate(fields)
    }
    values[_STORE] = object.__setattr__ if frozen else setattr
    values[_HAS] = _HAS_DEFAULT_FACTORY
    closure = tuple(CellType(values[name]) for name in code.co_freevars)
    params = [f for f in fields if f.init]
    defaults = tuple(
        _HAS_DEFAULT_FACTORY if f.default_factory is not MISSING else f.default
        for f in params
        if f.default is not MISSING or f.default_factory is not MISSING
    )
    home = sys.modules.get(cls.__module__)  # dataclass's __init__ has the class's module as its globals
    init = FunctionType(code, home.__dict__ if home else {}, "__init__", defaults or None, closure or None)
    init.__qualname__ = qualname
    init.__module__ = cls.__module__
    init.__annotations__ = {f.name: f.type for f in params} | {"return": None}
    return init


# --------------------------------------------------------------------------- the other methods


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
    running: set[tuple[int, int]] = set()  # dataclass's guard against a record that contains itself

    def __repr__(self: Any) -> str:
        key = id(self), get_ident()
        if key in running:
            return "..."
        running.add(key)
        try:
            shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        finally:
            running.discard(key)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _frozen_error(text: str) -> Exception:
    from dataclasses import FrozenInstanceError  # only when a program error is raised

    return FrozenInstanceError(text)


_super: Any = super  # dataclass's __setattr__ asks super() of the class before its slots (a TypeError)


def _frozen_methods(cls: type, names: tuple[str, ...]) -> tuple[Callable[..., None], Callable[..., None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot assign to field {name!r}")
        _super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot delete field {name!r}")
        _super(cls, self).__delattr__(name)

    return __setattr__, __delattr__


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, name) for name in self.__record_shape__.fields]


def _setstate(self: Any, state: list[Any]) -> None:
    for name, value in zip(self.__record_shape__.fields, state, strict=False):
        object.__setattr__(self, name, value)  # dataclass's: the record may be frozen


class _DataclassFields:
    """``__dataclass_fields__``, made for the :mod:`dataclasses` module when it first asks."""

    def __init__(self, shape: _Shape) -> None:
        self.shape = shape
        self.made: dict[str, Any] | None = None

    def __get__(self, obj: Any, owner: type | None = None) -> dict[str, Any]:
        if self.made is None:
            import dataclasses

            dc: Any = dataclasses
            made: dict[str, Any] = {}
            groups = (
                (self.shape.fields, dc._FIELD, False),
                (self.shape.classvars, dc._FIELD_CLASSVAR, dc.MISSING),
            )
            for group, kind, kw_only in groups:
                for name, f in group.items():
                    twin = dc.Field(
                        dc.MISSING if f.default is MISSING else f.default,
                        dc.MISSING if f.default_factory is MISSING else f.default_factory,
                        f.init,
                        f.repr,
                        f.hash,
                        f.compare,
                        f.metadata if f.metadata is not _EMPTY else None,
                        kw_only,
                    )
                    twin.name, twin.type, twin._field_type = name, f.type, kind
                    made[name] = twin
            self.made = made
        return self.made


class _DataclassParams:
    """``__dataclass_params__``: what ``dataclass(frozen=…, slots=True)`` records."""

    def __init__(self, frozen: bool) -> None:
        self.frozen = frozen
        self.made: Any = None

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if self.made is None:
            import dataclasses

            dc: Any = dataclasses
            self.made = dc._DataclassParams(True, True, True, False, False, self.frozen)
        return self.made


class _Doc:
    """A record class without a docstring: ``dataclass``'s (name and signature), made when read."""

    def __init__(self) -> None:
        self.text: str | None = None

    def __get__(self, obj: Any, owner: type | None = None) -> str:
        if self.text is None:
            import inspect

            assert owner is not None
            try:
                signature = str(inspect.signature(owner)).replace(" -> None", "")
            except (TypeError, ValueError):  # pragma: no cover - dataclass's own guard
                signature = ""
            self.text = owner.__name__ + signature
        return self.text


# --------------------------------------------------------------------------- the decorators


def _method(cls: type, name: str, function: Callable[..., Any]) -> None:
    function.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, function)


def _make(cls: type[T], frozen: bool) -> type[T]:
    body = cls.__dict__
    anyclass: Any = cls
    if "__slots__" in body:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    shape = _read(cls)
    for base in cls.__mro__[1:-1]:
        params = base.__dict__.get("__dataclass_params__")
        if isinstance(params, _DataclassParams) and params.frozen != frozen:
            raise TypeError(
                "cannot inherit non-frozen dataclass from a frozen one"
                if params.frozen
                else "cannot inherit frozen dataclass from a non-frozen one"
            )
    fields = list(shape.fields.values())
    names = tuple(shape.fields)
    own_eq = "__eq__" in body
    # dataclass's rule: a __hash__ of None that Python set because the class defines __eq__ is not the class's own
    own_hash = "__hash__" in body and not (body["__hash__"] is None and own_eq)
    if "__init__" not in body:
        _method(cls, "__init__", _init(cls, fields, frozen))
    if "__repr__" not in body:
        _method(cls, "__repr__", _repr([f.name for f in fields if f.repr]))
    if not own_eq:
        _method(cls, "__eq__", _eq(_values([f.name for f in fields if f.compare])))
    if frozen:
        for function in _frozen_methods(cls, names):
            if function.__name__ in body:
                raise TypeError(f"Cannot overwrite attribute {function.__name__} in class {cls.__name__}")
            _method(cls, function.__name__, function)
    if not own_hash:
        if frozen:
            hashed = [f.name for f in fields if (f.compare if f.hash is None else f.hash)]
            _method(cls, "__hash__", _hash(_values(hashed)))
        else:
            anyclass.__hash__ = None
    if not body.get("__doc__"):
        anyclass.__doc__ = _Doc()
    if "__match_args__" not in body:
        setattr(anyclass, "__match_args__", tuple(f.name for f in fields if f.init))  # noqa: B010 (mypy)
    anyclass.__record_shape__ = shape
    anyclass.__dataclass_fields__ = _DataclassFields(shape)
    anyclass.__dataclass_params__ = _DataclassParams(frozen)

    # the slots: the class made again (dataclass's _add_slots)
    namespace = dict(cls.__dict__)
    inherited: set[str] = set()
    for base in cls.__mro__[1:-1]:
        slots = base.__dict__.get("__slots__")
        if slots is not None:
            inherited.update((slots,) if isinstance(slots, str) else slots)
    namespace["__slots__"] = tuple(n for n in names if n not in inherited)
    for name in names:
        namespace.pop(name, None)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    qualname = cls.__qualname__
    meta: Any = type(cls)
    made: Any = meta(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = qualname
    if frozen:
        if "__getstate__" not in namespace:
            made.__getstate__ = _getstate
        if "__setstate__" not in namespace:
            made.__setstate__ = _setstate
    abc.update_abstractmethods(made)
    result: type[T] = made
    return result


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def frozen(cls: type[T]) -> type[T]:
    """``@dataclass(frozen=True, slots=True)``, made without :mod:`dataclasses` (module docstring)."""
    return _make(cls, frozen=True)


@dataclass_transform(field_specifiers=(field, Field))
def record(cls: type[T]) -> type[T]:
    """``@dataclass(slots=True)`` (mutable, unhashable), made without :mod:`dataclasses` (module docstring)."""
    return _make(cls, frozen=False)


# --------------------------------------------------------------------------- fields, replace


def is_record(obj: object) -> bool:
    """Whether ``obj`` is a record or a record class (:func:`dataclasses.is_dataclass` for records)."""
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, "__record_shape__")


def fields(obj: object) -> tuple[Field, ...]:
    """A record's (or record class's) fields, in order (:func:`dataclasses.fields`)."""
    shape: _Shape | None = getattr(obj, "__record_shape__", None)
    if shape is None:
        raise TypeError("must be called with a record type or instance")
    return tuple(shape.fields.values())


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record ``obj`` with ``changes`` (:func:`dataclasses.replace`; for a dataclass that is
    not a record, :func:`dataclasses.replace` itself)."""
    shape: _Shape | None = getattr(obj, "__record_shape__", None)
    if shape is None:  # another dataclass (dataclasses is imported: the object was made by it)
        import dataclasses

        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    for name, f in shape.fields.items():
        if not f.init:
            if name in changes:
                raise ValueError(
                    f"field {name} is declared with init=False, it cannot be specified with replace()"
                )
            continue
        if name not in changes:
            changes[name] = getattr(obj, name)
    return obj.__class__(**changes)


__all__ = ["MISSING", "Field", "field", "fields", "frozen", "is_record", "record", "replace"]
