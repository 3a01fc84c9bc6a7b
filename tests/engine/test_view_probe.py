"""A view holds only what its seat may know, from the moment it exists (issue 28, point 4).

A view may be deferred (:class:`engine.game.Deferred`): until a field is first read it keeps a builder and the
arguments it needs. Whatever it keeps must be the seat's own share, frozen: nothing a probe can reach from a
*fresh, unbuilt* view may name a card the seat may not see. The probe walks every object reachable from the view
the way any code handed the view could: instance dictionaries (the builder and its arguments among them), slots,
tuples, lists, dictionaries (keys and values), sets, function closures and defaults, bound methods' ``__self__``,
``functools.partial``'s function and arguments. It does not follow a function's module globals, classes, enum
members (constants) or the engine's registries. An object it cannot look into is itself a failure.

Checked at every step of seeded self-play, for every seat and a spectator, in every registered game (the cases
are the conformance harness's, so a new game is covered by its plug):

- the cards reachable from the unbuilt view, as a multiset, are at most those of the same view built;
- independently, none of them lies in a zone of the state (``zones()``) where this seat may not look, by the
  rules: the game's witness (tests/engine/conformance.py), rebuilt from the full events, says what it may see;
- a game that packs cards into numbers (Big Two's bitmasks) names, through its plug, the numbers that stand for
  cards the seat may not see, and none is reachable;
- nothing reachable is a list, dict, set or other object that can change after the view was made (a view shows
  the moment it was asked for, read from whichever thread).

The meta-tests plant a leak in a fake view (a closure, a tuple, a default, a partial, a bound method, an iterator,
a mask, a live list) and check that the probe finds each one.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections import Counter
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any

import pytest
from conformance import Case, Plug, Witness, cases, make_table

from engine.cards import Card
from engine.game import Deferred, Game, GameEntry, GameState
from engine.registry import GAMES, Registration

NOT_WALKED: tuple[type, ...] = (type, types.ModuleType, Enum, Game, GameEntry, Registration)
"""Constants and shared tables, not a view's contents: classes, modules, enum members, the engine's registries."""
ATOMS: tuple[type, ...] = (str, bytes, float, complex, bool, type(None), range)
CONTAINERS: tuple[type, ...] = (tuple, list, set, frozenset, dict, types.MappingProxyType)


@dataclasses.dataclass
class Reached:
    """What the probe found reachable from one view."""

    cards: Counter[Card] = dataclasses.field(default_factory=Counter)
    """Every card, once for each place that holds it."""
    ints: set[int] = dataclasses.field(default_factory=set)
    opaque: list[str] = dataclasses.field(default_factory=list)
    """Objects the probe could not look into."""
    mutable: list[str] = dataclasses.field(default_factory=list)
    """Objects that can change after the view was made."""


def _slot_values(obj: object) -> Iterable[object]:
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name in ("__dict__", "__weakref__"):
                continue
            if name.startswith("__") and not name.endswith("__"):
                name = f"_{cls.__name__.lstrip('_')}{name}"
            descriptor = cls.__dict__.get(name)
            if descriptor is None or not hasattr(descriptor, "__get__"):
                continue
            try:
                yield descriptor.__get__(obj, cls)
            except AttributeError:  # a slot never set
                continue


def probe(root: object) -> Reached:
    """Walk everything reachable from ``root`` (never reading a field of a deferred view: that would build it)."""
    found = Reached()
    seen: set[int] = set()
    stack: list[object] = [root]
    keep_alive: list[object] = []  # an id is only unique while its object lives
    while stack:
        obj = stack.pop()
        if isinstance(obj, Card):
            found.cards[obj] += 1
            continue
        if isinstance(obj, NOT_WALKED) or isinstance(obj, ATOMS):
            continue
        if isinstance(obj, int):
            found.ints.add(obj)
            continue
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        keep_alive.append(obj)
        kind = type(obj).__name__
        if isinstance(obj, list | set | dict | bytearray):
            found.mutable.append(kind)
        if isinstance(obj, tuple | list | set | frozenset | dict | types.MappingProxyType):
            if isinstance(obj, dict | types.MappingProxyType):
                stack.extend(obj.keys())
                stack.extend(obj.values())
            else:
                stack.extend(obj)
            if type(obj) not in CONTAINERS and _has_dict(obj):  # a subclass's own attributes
                stack.extend(vars(obj).values())
        elif isinstance(obj, types.FunctionType):
            stack.extend(cell.cell_contents for cell in obj.__closure__ or () if _filled(cell))
            stack.extend(obj.__defaults__ or ())
            stack.extend((obj.__kwdefaults__ or {}).values())
            stack.extend(vars(obj).values())
        elif isinstance(obj, types.MethodType):
            stack.extend((obj.__self__, obj.__func__))
        elif isinstance(obj, types.BuiltinMethodType | types.MethodWrapperType):
            stack.append(obj.__self__)  # a module for a plain builtin function: not walked
        elif isinstance(obj, staticmethod | classmethod):
            stack.append(obj.__func__)
        elif isinstance(obj, functools.partial):
            stack.extend((obj.func, *obj.args, *obj.keywords.values()))
            stack.extend(vars(obj).values())
        else:
            attributes = vars(obj) if _has_dict(obj) else None
            slots = list(_slot_values(obj))
            if attributes is None and not slots:
                found.opaque.append(kind)
                continue
            if attributes is not None:
                stack.extend(attributes.values())
                if type(obj).__setattr__ is object.__setattr__:
                    found.mutable.append(kind)  # anyone may assign its attributes
            stack.extend(slots)
    return found


def _filled(cell: types.CellType) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


def _has_dict(obj: object) -> bool:
    try:
        vars(obj)
    except TypeError:
        return False
    return True


def built(view: object) -> object:
    """``view`` with its fields worked out (reading any field of a deferred view builds them all)."""
    getattr(view, dataclasses.fields(view)[0].name)  # type: ignore[arg-type]
    return view


def hidden_cards(state: GameState[Any, Any, Any], seat: int | None, witness: Witness) -> set[Card]:
    """The cards in the state's zones that ``seat`` may not see now, by the rules: not in its own hand, and not
    among those the witness says it has seen (a spectator: public cards only)."""
    allowed = witness.may_see_in_view(seat)
    own = f"hand {seat}" if seat is not None else None
    return {
        card
        for zone, held in state.zones().items()
        if zone != own
        for card in held
        if card is not None and str(card) not in allowed
    }


def problems(
    state: GameState[Any, Any, Any],
    seat: int | None,
    witness: Witness,
    plug: Plug,
    make: Callable[[], object] | None = None,
) -> list[str]:
    """What is wrong with the view of ``seat`` (made by ``make``, by default ``state.view(seat)``)."""
    make = make if make is not None else functools.partial(state.view, seat)
    own = probe(built(make())).cards
    fresh = make()
    unbuilt = set(vars(fresh)) if isinstance(fresh, Deferred) else set()
    reached = probe(fresh)
    found: list[str] = []
    if isinstance(fresh, Deferred) and set(vars(fresh)) != unbuilt:
        found.append("was built by the probe")  # then it walked the fields, not what the view kept
    more = reached.cards - own
    if more:
        found.append(f"holds {sorted(map(str, more.elements()))} more than its built view")
    hidden = hidden_cards(state, seat, witness) & reached.cards.keys()
    if hidden:
        found.append(f"holds {sorted(map(str, hidden))}, which it may not see")
    if plug.hidden_masks is not None:
        masks = set(plug.hidden_masks(state, seat, witness.may_see_in_view(seat))) & reached.ints
        if masks:
            found.append(f"holds the masks {sorted(masks)} of cards it may not see")
    if reached.opaque:
        found.append(f"holds what the probe cannot look into: {reached.opaque}")
    if reached.mutable:
        found.append(f"holds what can change after it was made: {reached.mutable}")
    return found


# ---------------------------------------------------------------------------------------------------------------
# Every game, every seat and a spectator, every step
# ---------------------------------------------------------------------------------------------------------------
def probe_cases() -> list[Case]:
    """For each entry of each registered game: the fewest and the most players, and its most variants together."""
    plain: dict[tuple[str, int], Case] = {}
    together: dict[str, Case] = {}
    for case in cases():
        game = next(g for g in GAMES if g.key == case.game)
        if not case.variants and case.players in (game.min_players, game.max_players):
            plain.setdefault((case.key, case.players), case)
        best = together.get(case.key)
        if case.variants and (best is None or len(case.variants) > len(best.variants)):
            together[case.key] = case
    return [*plain.values(), *together.values()]


CASES = probe_cases()


def test_the_cases_cover_every_game() -> None:
    keys = {case.key for case in CASES}
    for game in GAMES:
        assert {entry.key for entry in game.entries()} <= keys


@pytest.mark.parametrize("case", CASES, ids=str)
def test_no_view_holds_a_card_its_seat_may_not_see(case: Case) -> None:
    """Matches of easy bots, every view at every step: at least 120 steps and a match to its end (a short match
    played again on the next seed), or 600 steps in matches of 400 (a Rank deal of ten players is longer)."""
    steps = 0
    ended = False
    for seed in range(case.seed, case.seed + 100):
        table = make_table(case, seed=seed, bots=["easy"] * case.players)
        state = table.state
        witness = case.plug.witness(case.players)
        fed = 0
        for step in range(400):
            for event in state.history[fed:]:
                witness.feed(event)
            fed = len(state.history)
            for seat in [*range(case.players), None]:
                found = problems(state, seat, witness, case.plug)
                assert not found, f"{case}, seed {seed}, step {step}, view({seat}): " + "; ".join(found)
            if state.is_over:
                ended = True
                break
            table.step_bot()
            steps += 1
        if (steps >= 120 and ended) or steps >= 600:
            break
    assert steps >= 120


# ---------------------------------------------------------------------------------------------------------------
# The probe finds a planted leak
# ---------------------------------------------------------------------------------------------------------------
def _start(key: str, players: int) -> tuple[GameState[Any, Any, Any], Witness, Plug, Any]:
    case = Case(key, key, players, seed=3)
    table = make_table(case, bots=["easy"] * players)
    for _ in range(4):
        table.step_bot()
    state = table.state
    witness = case.plug.witness(players)
    for event in state.history:
        witness.feed(event)
    view = built(state.view(0))
    return state, witness, case.plug, view


def _fake(view: Any, build: Callable[..., dict[str, Any]], *args: Any) -> Any:
    """A view of ``view``'s type, deferred, made by ``build(*args)`` (the fields with a default given at once)."""
    now = {f.name: getattr(view, f.name) for f in dataclasses.fields(view) if f.default is not dataclasses.MISSING}
    return type(view).deferred(build, *args, **now)


def _items(view: Any) -> tuple[tuple[str, Any], ...]:
    return tuple((f.name, getattr(view, f.name)) for f in dataclasses.fields(view))


def _from_items(items: tuple[tuple[str, Any], ...], *ignored: object) -> dict[str, Any]:
    return dict(items)


def _plants(state: GameState[Any, Any, Any], view: Any, secret: Card) -> dict[str, Callable[[], object]]:
    items = _items(view)

    def in_closure() -> dict[str, Any]:
        assert secret is not None
        return dict(items)

    def in_default(items: tuple[tuple[str, Any], ...] = items, card: Card = secret) -> dict[str, Any]:
        return dict(items)

    class Holder:
        __slots__ = ("card",)

        def __init__(self) -> None:
            self.card = secret

        def fields(self) -> dict[str, Any]:
            return dict(items)

    return {
        "a closure": lambda: _fake(view, in_closure),
        "a tuple of arguments": lambda: _fake(view, _from_items, items, ((secret,),)),
        "a default": lambda: _fake(view, in_default),
        "a partial": lambda: _fake(view, functools.partial(_from_items, items, secret)),
        "a bound method's slotted object": lambda: _fake(view, Holder().fields),
        "a dict's key": lambda: _fake(view, _from_items, items, types.MappingProxyType({secret: 1})),
    }


@pytest.mark.parametrize(("key", "players"), [("big2", 4), ("trash", 2), ("rank", 3), ("chase", 3)])
def test_the_probe_finds_a_hidden_card_planted_in_a_view(key: str, players: int) -> None:
    state, witness, plug, view = _start(key, players)
    secret = min(hidden_cards(state, 0, witness), key=str)
    assert not problems(state, 0, witness, plug, lambda: _fake(view, _from_items, _items(view)))  # the control
    for where, make in _plants(state, view, secret).items():
        found = problems(state, 0, witness, plug, make)
        assert any(f"'{secret}'" in line and "may not see" in line for line in found), (where, found)
        assert any("more than its built view" in line for line in found), (where, found)
    # The whole state, through one of its bound methods: what it holds may be packed out of the probe's sight
    # (Big Two's compiled move core), but the state itself is found, and it changes after the view was made.
    found = problems(state, 0, witness, plug, lambda: _fake(view, _from_items, _items(view), state.zones))
    assert any("can change after it was made" in line and type(state).__name__ in line for line in found), found


def test_each_check_finds_a_leak_on_its_own() -> None:
    state, witness, plug, view = _start("trash", 2)
    items = _items(view)
    # A built view that shows every layout card: the unbuilt one holds no more than it, but hidden cards.
    zones = state.zones()
    showing = dict(items) | {"layouts": tuple(tuple(zones[f"layout {s}"]) for s in range(state.players))}
    found = problems(state, 0, witness, plug, lambda: _fake(view, _from_items, tuple(showing.items())))
    assert found and all("more than its built view" not in line for line in found), found
    assert any("may not see" in line for line in found), found
    # A second copy of a card the seat sees: nothing hidden, but more than the built view holds.
    shown = next(iter(probe(view).cards))
    found = problems(state, 0, witness, plug, lambda: _fake(view, _from_items, items, (shown,)))
    assert found == [f"holds {[str(shown)]} more than its built view"], found


def test_the_probe_finds_what_it_cannot_look_into_and_what_can_change() -> None:
    state, witness, plug, view = _start("rank", 3)
    items = _items(view)
    secret = min(hidden_cards(state, 0, witness), key=str)
    found = problems(state, 0, witness, plug, lambda: _fake(view, _from_items, items, iter([secret])))
    assert found == ["holds what the probe cannot look into: ['list_iterator']"], found
    pile = state.zones()["pile"]  # public cards, but in a list: anyone may change it after the view was made
    found = problems(state, 0, witness, plug, lambda: _fake(view, _from_items, items, pile))
    assert any("can change after it was made: ['list']" in line for line in found), found


def test_the_probe_finds_another_seats_hand_as_a_mask() -> None:
    state, witness, plug, view = _start("big2", 4)
    assert plug.hidden_masks is not None
    masks = list(plug.hidden_masks(state, 0, witness.may_see_in_view(0)))
    assert len(masks) == 3
    found = problems(state, 0, witness, plug, lambda: _fake(view, _from_items, _items(view), (masks[1],)))
    assert found == [f"holds the masks {[masks[1]]} of cards it may not see"], found
