"""``@frozen`` behaves as ``@dataclass(frozen=True, slots=True)`` and ``@record`` as ``@dataclass(slots=True)``:
each record shape below is made both ways from the same class body and the two are compared value by
value — text, equality, hash, immutability, the dataclass functions and the records' own (``fields``,
``replace``, ``is_record``), copying, pickling, pattern matching, ``__init__``'s signature and errors,
``__post_init__``, fields left out of ``__init__``, the docstring of a class without one, and what each
refuses when the class is defined."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import math
import pickle
import typing
from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine import records
from app.engine.records import frozen, record

# a class body takes the field specifier of its decorator: the records' own, or dataclasses'
FIELD: dict[bool, Callable[..., Any]] = {True: records.field, False: field}


def _shapes(decorate: Callable[[type], type], ours: bool = True) -> dict[str, type]:
    """The record shapes, each decorated with ``decorate`` (the twins share their class bodies)."""
    field = FIELD[ours]

    class Empty:
        """No fields."""

    class One:
        """One field."""

        a: Any

    class Many:
        """Fields with defaults, a factory, a class variable."""

        LIMIT: ClassVar[int] = 3
        a: Any
        b: Any = 0
        c: tuple[int, ...] = ()
        d: list[int] = field(default_factory=list)

    class Options:
        """Fields left out of the text, the comparison, the hash."""

        a: Any
        hidden: Any = field(default=0, repr=False)
        loose: Any = field(default=0, compare=False)
        unhashed: Any = field(default=0, hash=False)
        hashed_only: Any = field(default=0, compare=False, hash=True)

    class OwnMethods:
        """The class's own comparison and text are kept; its hash comes from the fields."""

        a: Any
        b: Any = 0

        def __eq__(self, other: object) -> bool:
            return isinstance(other, type(self)) and self.a == other.a

        def __repr__(self) -> str:
            return f"own {self.a}"

    class OwnHash:
        """The class's own hash is kept."""

        a: Any

        def __hash__(self) -> int:
            return 7

    class NoDoc:
        a: Any
        b: tuple[int, ...] = ()
        c: list[int] = field(default_factory=list)

    class NotInit:
        """Fields left out of ``__init__``: a default, a factory, and one set by ``__post_init__``."""

        a: Any
        b: Any = field(default=5, init=False)
        c: list[int] = field(default_factory=list, init=False)
        d: Any = field(init=False, repr=False, compare=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "d", ("seen", self.a))

    class SelfField:
        """A field named ``self`` (``__init__``'s own first parameter is renamed, as dataclass does)."""

        self: Any
        other: Any = None

    class Wide:
        """Many fields, defaults and factories interleaved with plain ones after the first default."""

        a: Any
        b: Any
        c: Any = 1
        d: list[int] = field(default_factory=list)
        e: Any = (2,)
        f: dict[str, int] = field(default_factory=dict)

    bodies = (Empty, One, Many, Options, OwnMethods, OwnHash, NoDoc, NotInit, SelfField, Wide)
    made = {cls.__name__: decorate(cls) for cls in bodies}

    class Child(made["Many"]):  # type: ignore[misc, valid-type]
        """A record extending a record."""

        e: Any = None

    made["Child"] = decorate(Child)
    return made


def _dataclass(cls: type) -> type:
    return dataclass(frozen=True, slots=True)(cls)


def _mutable_dataclass(cls: type) -> type:
    return dataclass(slots=True)(cls)


# the frozen twins by shape name, the mutable ones by "mutable " + shape name
OURS = _shapes(frozen) | {f"mutable {k}": v for k, v in _shapes(record).items()}
THEIRS = _shapes(_dataclass, ours=False) | {
    f"mutable {k}": v for k, v in _shapes(_mutable_dataclass, ours=False).items()
}
VALUES = (0, 1, 1.0, -0.0, "甲", (1, 2), None, math.nan, frozenset({1}))


def _instances(name: str, values: tuple[Any, ...]) -> tuple[Any, Any]:
    names = [f.name for f in dataclasses.fields(THEIRS[name]) if f.init]
    args = dict(zip(names, values, strict=False))
    if "d" in args:  # the list field
        args["d"] = [1] if args["d"] else []
    if "f" in args:  # the dict field
        args["f"] = {"k": 1} if args["f"] else {}
    return OURS[name](**args), THEIRS[name](**args)


def _field_facts(f: Any) -> tuple[Any, ...]:
    return (f.name, f.type, f.init, f.repr, f.compare, f.hash, f.default_factory, dict(f.metadata))


def test_each_shape_is_a_slotted_dataclass_like_its_twin() -> None:
    for name, ours in OURS.items():
        theirs = THEIRS[name]
        assert dataclasses.is_dataclass(ours) and records.is_record(ours)
        assert not records.is_record(theirs)
        assert ours.__slots__ == theirs.__slots__  # type: ignore[attr-defined]
        assert ours.__match_args__ == theirs.__match_args__  # type: ignore[attr-defined]
        assert str(inspect.signature(ours)) == str(inspect.signature(theirs))
        assert ours.__init__.__annotations__ == theirs.__init__.__annotations__  # type: ignore[misc]
        assert ours.__init__.__qualname__ == theirs.__init__.__qualname__  # type: ignore[misc]
        assert ours.__init__.__globals__ is theirs.__init__.__globals__  # type: ignore[misc]
        assert typing.get_type_hints(ours.__init__) == typing.get_type_hints(theirs.__init__)  # type: ignore[misc]
        assert ours.__doc__ == theirs.__doc__, name
        assert repr(ours.__dataclass_params__) == repr(theirs.__dataclass_params__)  # type: ignore[attr-defined]
        assert [_field_facts(f) for f in dataclasses.fields(ours)] == [
            _field_facts(f) for f in dataclasses.fields(theirs)
        ]
        assert [f.default for f in dataclasses.fields(ours)] == [
            f.default for f in dataclasses.fields(theirs)
        ]
        mine = records.fields(ours)
        assert [(f.name, f.type, f.init, f.repr, f.compare, f.hash) for f in mine] == [
            (f.name, f.type, f.init, f.repr, f.compare, f.hash) for f in dataclasses.fields(theirs)
        ]
        assert [f.default is records.MISSING for f in mine] == [
            f.default is dataclasses.MISSING for f in dataclasses.fields(theirs)
        ]
        assert ("__hash__" in ours.__dict__) == ("__hash__" in theirs.__dict__)
        assert (ours.__hash__ is None) == (theirs.__hash__ is None)
        assert {k for k, v in vars(ours).items() if callable(v)} >= {
            k for k, v in vars(theirs).items() if callable(v) and k != "__dataclass_params__"
        } - {"__doc__"}


def test_init_errors_say_what_dataclass_says() -> None:
    for name, ours in OURS.items():
        theirs = THEIRS[name]
        for args, kwargs in (((), {}), ((1,) * 9, {}), ((), {"zz": 1}), ((1,), {"a": 2})):
            told = []
            for cls in (ours, theirs):
                try:
                    cls(*args, **kwargs)
                    told.append("made")
                except TypeError as exc:
                    told.append(str(exc))
            assert told[0] == told[1], name


def test_refused_definitions_are_refused_with_dataclass_words() -> None:
    def body(ours: bool, case: str) -> type:
        field = FIELD[ours]
        if case == "default first":

            class A:
                a: int = 1
                b: int

            return A
        if case == "mutable default":

            class B:
                a: list[int] = []  # noqa: RUF012

            return B
        if case == "no annotation":

            class C:
                a = field(default=1)

            return C
        if case == "own setattr":

            class D:
                a: int

                def __setattr__(self, name: str, value: Any) -> None:
                    pass

            return D
        if case == "class variable factory":

            class E:
                a: ClassVar[list[int]] = field(default_factory=list)

            return E

        class F:
            __slots__ = ("a",)
            a: int

        return F

    cases = (
        "default first",
        "mutable default",
        "no annotation",
        "own setattr",
        "class variable factory",
        "slots",
    )
    for case in cases:
        with pytest.raises((TypeError, ValueError)) as ours:
            frozen(body(True, case))
        with pytest.raises((TypeError, ValueError)) as theirs:
            _dataclass(body(False, case))
        assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value)), case


def test_what_records_do_not_offer_is_refused() -> None:
    class WithInitVar:
        a: dataclasses.InitVar[int]

    class WithKwOnly:
        a: int = field(default=1, kw_only=True)

    class FromDataclass(_dataclass(type("Base", (), {"__annotations__": {"a": "int"}}))):  # type: ignore[misc]
        b: int = 0

    for cls in (WithInitVar, WithKwOnly, FromDataclass):
        with pytest.raises(TypeError, match="record"):
            frozen(cls)
    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):

        class Thawed(OURS["One"]):  # type: ignore[misc, valid-type]
            b: Any = 0

        record(Thawed)


def test_shapes_that_share_a_template_keep_their_own_names() -> None:
    @frozen
    class First:
        x: int
        y: list[int] = records.field(default_factory=list)

    @frozen
    class Second:
        p: int
        q: list[int] = records.field(default_factory=lambda: [7])

    assert (
        repr(First(1)) == "test_shapes_that_share_a_template_keep_their_own_names.<locals>.First(x=1, y=[])"
    )
    assert Second(p=2).q == [7] and Second(2, [1]).q == [1]
    with pytest.raises(TypeError, match="unexpected keyword argument 'x'"):
        Second(x=1)  # type: ignore[call-arg]


value = st.sampled_from(VALUES)


@given(st.sampled_from(sorted(THEIRS)), st.tuples(*[value] * 6), st.tuples(*[value] * 6))
def test_text_equality_and_hash_are_the_dataclass_ones(
    name: str, first: tuple[Any, ...], second: tuple[Any, ...]
) -> None:
    ours_a, theirs_a = _instances(name, first)
    ours_b, theirs_b = _instances(name, second)
    assert repr(ours_a) == repr(theirs_a)
    assert dataclasses.astuple(ours_a) == dataclasses.astuple(theirs_a) or math.nan in first
    assert (ours_a == ours_b) == (theirs_a == theirs_b)
    assert (ours_a != ours_b) == (theirs_a != theirs_b)
    assert (ours_a == ours_a) == (theirs_a == theirs_a)  # the same object: NaN fields compare equal
    assert (ours_a == theirs_a) is False  # another class: NotImplemented both ways
    try:
        expected: Any = hash(theirs_a)
    except TypeError as exc:  # an unhashable value (a list field)
        expected = type(exc)
    try:
        got: Any = hash(ours_a)
    except TypeError as exc:
        got = type(exc)
    assert got == expected


def test_frozen_copy_pickle_replace_and_match() -> None:
    for name in OURS:
        ours, theirs = _instances(name, (1, 2, (3,), [4], 5, 6))
        for victim in (ours, theirs):
            has_a = any(f.name == "a" for f in dataclasses.fields(victim))
            if name.startswith("mutable "):
                if has_a:
                    victim.a = 9
                    assert victim.a == 9
                    victim.a = 1
                with pytest.raises((AttributeError, TypeError)):
                    victim.not_a_field = 1
                continue
            if has_a:
                with pytest.raises(FrozenInstanceError):
                    victim.a = 9
                with pytest.raises(FrozenInstanceError):
                    del victim.a
            with pytest.raises((AttributeError, TypeError)):
                victim.not_a_field = 1
        for twin in (copy.copy(ours), copy.deepcopy(ours)):
            assert twin == ours and repr(twin) == repr(ours)
        first = [f.name for f in dataclasses.fields(ours) if f.init][:1]
        if first:
            key = first[0]
            changed = dataclasses.replace(ours, **{key: "乙"})
            expected = repr(dataclasses.replace(theirs, **{key: "乙"}))
            assert getattr(changed, key) == "乙" and repr(changed) == expected
            assert repr(records.replace(ours, **{key: "乙"})) == expected
            assert records.replace(ours) == ours and records.replace(ours) is not ours
        for shut in (f.name for f in dataclasses.fields(theirs) if not f.init):
            with pytest.raises(ValueError) as mine:
                records.replace(ours, **{shut: 1})
            with pytest.raises(ValueError) as dcs:
                dataclasses.replace(theirs, **{shut: 1})
            assert str(mine.value) == str(dcs.value)
        if name in ("One", "Many", "Options", "Child"):
            kind: Any = OURS[name]
            match ours:
                case kind(1):  # positionally, through __match_args__
                    pass
                case _:
                    pytest.fail("pattern matching by keyword")
        assert dataclasses.asdict(ours) == dataclasses.asdict(theirs)


def test_recursive_text_is_cut_as_dataclass_cuts_it() -> None:
    ours, theirs = OURS["One"]([]), THEIRS["One"]([])
    ours.a.append(ours)
    theirs.a.append(theirs)
    assert repr(ours) == repr(theirs) == "_shapes.<locals>.One(a=[...])"


def test_the_programs_records_pickle_and_compare() -> None:
    from app.engine.regulations import preset, regulations_from_dict, regulations_to_dict

    reg = preset("tianshui-2024")
    again = pickle.loads(pickle.dumps(reg))
    assert again == reg and hash(again) == hash(reg) and repr(again) == repr(reg)
    assert regulations_from_dict(regulations_to_dict(reg)) == reg
    assert reg.__dataclass_params__.frozen  # type: ignore[attr-defined]
