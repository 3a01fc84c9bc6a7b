"""One conformance harness for every game (the way OpenSpiel's ``random_sim_test`` checks every game).

A game plugs in with a :class:`Plug`: a *witness* that, fed the FULL event stream (``state.history``, never
redacted), says which cards each seat (and a spectator) has legitimately seen so far, by the rules of RULES.md and
independently of the engine's own redaction; and a few sizes that keep its runs short. Cases are derived from the
registry: every game in ``engine.registry.GAMES``, each of its entries (presets), several player counts and variant
sets. A registered game without a plug fails ``test_every_game_has_a_plug_and_its_cases``: a game plugs in with a
witness class (a :class:`RoundWitness` subclass of about ten lines) and its ``PLUG``, in its own test helpers
(``tests/engine/<key>_helpers.py``), where :data:`PLUGS` finds it by the game's key.

:func:`self_play` plays one case on a :class:`~engine.table.Table` whose seats are all people, choosing seeded
random legal actions and now and then a bot's move, and after every action checks:

- every card is somewhere exactly once, as a multiset (``is_conserved(zones, full_deck)``);
- the seat to move has a legal action, or the match is over (and then it has a result); every legal action reads
  back from its text (one random move in four is submitted as text);
- ``view(seat)`` works for every seat and a spectator (also from inside a subscriber, mid-delivery), is the game's
  view type, and round-trips through the codec (``decode(encode(v)) == v`` and ``loads(dumps(v)) == v``: at the
  start, the end and every third action, since decoding a view takes about a millisecond; its JSON every time);
- every event round-trips through the codec (the full one and each seat's redacted one);
- redaction on the JSON text: every card token in every line a seat receives (its events through
  ``Table.subscribe`` and its views) is a card its witness says it may see; a spectator sees no private card.
  The table's options (public rules, which may name a card as a rule: Big Two's lead card) are cut out of a view's
  text first; a witness is per round (a hand, a deal), with the last round's publicly shown cards allowed in views
  only (their summary of the last round), never in events;
- rejected actions (an illegal action of the game, garbage objects, text, another seat's turn, a bad seat) raise
  a ParlourError with a short message, change nothing (every view's JSON, the version, the history) and publish
  nothing;
- the bots' choices are legal (``easy`` and ``medium`` at every step, ``hard`` a few times per game).

Then :func:`replay` checks determinism: the same seed and the recorded actions (sent through the codec) give
byte-identical JSON for the history and for every seat's event lines.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine import codec
from engine.cards import Card, is_conserved
from engine.errors import (
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    ParlourError,
    SeatError,
)
from engine.events import Event
from engine.game import Game, GameState, Scenario
from engine.match import RoundStarted
from engine.registry import GAMES, bot_levels, get_entry, make_bot
from engine.table import Table

CARD_TOKEN = re.compile(r'"((?:10|[2-9AJQK])[SHDC]|JK)"')
"""A card as the codec writes it, a whole JSON string: ``"10H"``, ``"QS"``, ``"JK"``."""

MESSAGE_LIMIT = 300
"""An error message may quote what was sent, but never more than about this many characters."""


def card_tokens(line: str) -> set[str]:
    return set(CARD_TOKEN.findall(line))


# ---------------------------------------------------------------------------------------------------------------
# What a game plugs in
# ---------------------------------------------------------------------------------------------------------------
class Witness(Protocol):
    """What each observer may have seen, rebuilt from the full events by the rules alone."""

    def feed(self, event: Event) -> None:
        """Learn from one FULL event (as in ``state.history``), in order."""

    def may_see(self, seat: int | None) -> set[str]:
        """The card texts ``seat`` (None: a spectator) may have seen by now."""

    def may_see_in_view(self, seat: int | None) -> set[str]:
        """What ``seat``'s view may name now: :meth:`may_see`, and whatever the view keeps of an earlier round."""


class RoundWitness:
    """A witness whose knowledge lasts one round (a hand, a deal): a fresh round forgets everything.

    Subclasses say what a full event shows to whom with :meth:`show` (a seat) and :meth:`show_all`.
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.seen: dict[int | None, set[str]] = {}
        self.carried: set[str] = set()
        """Cards shown to everybody at the end of the last round, that a view may keep showing (not events)."""
        self.carry: set[str] = set()
        self.reset()

    def reset(self) -> None:
        self.seen = {seat: set() for seat in [*range(self.players), None]}
        self.carried, self.carry = self.carry, set()

    def show(self, seat: int, cards: Iterable[Card | None]) -> None:
        self.seen[seat].update(str(c) for c in cards if c is not None)

    def show_all(self, cards: Iterable[Card | None]) -> None:
        texts = [str(c) for c in cards if c is not None]
        for seen in self.seen.values():
            seen.update(texts)

    def feed(self, event: Event) -> None:
        if isinstance(event, RoundStarted) or self.starts_round(event):
            self.reset()
        self.learn(event)

    def starts_round(self, event: Event) -> bool:
        return False

    def learn(self, event: Event) -> None:
        raise NotImplementedError

    def may_see(self, seat: int | None) -> set[str]:
        return set(self.seen[seat])

    def may_see_in_view(self, seat: int | None) -> set[str]:
        return self.seen[seat] | self.carried


@dataclass(frozen=True)
class Plug:
    """How a game plugs into the harness."""

    witness: Callable[[int], Witness]
    """A witness for a table of that many players."""
    max_actions: int = 120
    """Actions per case at most (a match may end sooner)."""
    deals: int | None = None
    """For a game played in a fixed number of deals: how many in a case (keeps matches short)."""
    totals: Callable[[int], tuple[int, ...]] | None = None
    """Starting totals (a Scenario) that keep a match short, by the number of players."""
    player_counts: Callable[[Game[Any, Any, Any]], Sequence[int]] | None = None
    """Player counts to try (default: the fewest, the usual and the most)."""
    chance_variants: tuple[str, ...] = ()
    """Variants under which chance is used after the first deal (Trash: one deal draws nothing at random once
    dealt unless the stock runs out, which it rarely does; *Match* deals again)."""
    leak_in_events: Callable[[Any], None] | None = None
    """For a game with no private events (Trash: every event is public, the hidden cards are hidden from all):
    given a ``pytest.MonkeyPatch``, break the game so that an event names a hidden card (the meta-test's default,
    sending every seat the full events, would leak nothing)."""
    leak_in_view: Callable[[Any], None] | None = None
    """The same for views (the default gives a spectator seat 0's view, which leaks nothing where all is public)."""
    hidden_masks: Callable[[Any, int | None, set[str]], Iterable[int]] | None = None
    """For a game that packs cards into numbers (Big Two's bitmasks): given the state, a seat (None: a spectator)
    and the card texts its witness says it may see, the numbers that stand for cards it may not see (another
    seat's hand); tests/engine/test_view_probe.py finds none of them reachable from that seat's view."""


def _plugs() -> dict[str, Plug]:
    return PLUGS


# ---------------------------------------------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    key: str
    """The registry key (an entry: ``screw``, ``chase``, ``big2``)."""
    game: str
    """The game's key (its plug)."""
    players: int
    variants: tuple[str, ...] = ()
    seed: int = 1
    bot_every: int = 5
    """One action in this many is a bot's move (``medium``), the others random legal actions."""
    hard: int = 0
    """How many times to ask the ``hard`` bot (it is slow; a few decisions only)."""
    max_actions: int | None = None
    """Overrides the plug's bound on the number of actions."""

    def __str__(self) -> str:
        variants = "+".join(self.variants) or "plain"
        return f"{self.key}-{self.players}p-{variants}"

    @property
    def plug(self) -> Plug:
        return _plugs()[self.game]


def _compatible(game: Game[Any, Any, Any], preset: str | None, keys: Sequence[str]) -> tuple[str, ...]:
    """The longest run of ``keys`` (in order) that the game accepts together."""
    chosen: list[str] = []
    for key in keys:
        try:
            game.options(preset, [*chosen, key])
        except ParlourError:
            continue
        chosen.append(key)
    return tuple(chosen)


def cases() -> list[Case]:
    """Every registered game, each entry, several player counts and variant sets."""
    out: list[Case] = []
    seed = 11
    for game in GAMES:
        plug = _plugs().get(game.key)
        if plug is None:
            continue  # test_every_game_has_a_plug_and_its_cases fails for it
        counts = (
            list(plug.player_counts(game))
            if plug.player_counts
            else sorted({game.min_players, game.default_players, game.max_players})
        )
        first = True
        for entry in game.entries():
            variants = [v.key for v in game.useful_variants(entry.preset)]
            for players in counts:
                seed += 1
                out.append(Case(entry.key, game.key, players, (), seed, hard=2 if first else 0))
                first = False
            for key in variants:
                seed += 1
                out.append(Case(entry.key, game.key, game.default_players, (key,), seed))
            together = _compatible(game, entry.preset, variants)
            if len(together) > 1:
                seed += 1
                out.append(Case(entry.key, game.key, counts[0], together, seed))
    return out


def make_table(case: Case, seed: int | None = None, bots: Sequence[str | None] = ()) -> Table:
    plug = case.plug
    totals = plug.totals(case.players) if plug.totals else None
    return Table.create(
        case.key,
        players=case.players,
        seed=case.seed if seed is None else seed,
        bots=bots,
        variants=case.variants,
        deals=plug.deals,
        scenario=Scenario(totals=totals) if totals is not None else None,
    )


# ---------------------------------------------------------------------------------------------------------------
# Garbage
# ---------------------------------------------------------------------------------------------------------------
class _BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


BIG_TEXT = "x" * 1_000_000

GARBAGE: tuple[object, ...] = (
    None,
    0,
    5,
    -1,
    3.5,
    float("nan"),
    True,
    b"pass",
    bytearray(b"stay"),
    object(),
    _BadRepr(),
    [],
    {},
    (),
    set(),
    "",
    "   ",
    "\x00",
    "garbage",
    "stay trade",
    "play",
    "play ZZ",
    "3D 3D 3D 3D 3D 3D",
    "10X",
    "♠",
    Card.parse("3D"),
    [Card.parse("3D")],
    (Card.parse("3D"),),
    Ellipsis,
    int,
    print,
    ValueError("x"),
)
BAD_SEATS: tuple[object, ...] = (-1, "0", True, None, 1.0, 10**30)


def garbage_actions(state: GameState[Any, Any, Any]) -> list[object]:
    """Objects of this game's action classes with garbage inside (as a decoder or a careless caller might make)."""
    out: list[object] = []
    fillers: tuple[object, ...] = (None, 5, "x", ("x",), (None,), [Card.parse("3D")], (Card.parse("3D"), 7), _BadRepr())
    for cls in state.action_types:
        if not dataclasses.is_dataclass(cls):
            continue
        fields = [f for f in dataclasses.fields(cls) if f.init]
        for f in fields:
            for filler in fillers:
                obj = object.__new__(cls)
                for other in fields:
                    object.__setattr__(obj, other.name, filler if other is f else _sample(other.type))
                out.append(obj)
    return out


def _sample(hint: object) -> object:
    text = str(hint)
    if "Card" in text:
        return (Card.parse("3D"),)
    if "int" in text:
        return 0
    if "str" in text:
        return "x"
    return None


def foreign_actions(game: Game[Any, Any, Any]) -> list[object]:
    """Legal actions of the other registered games (a wrong game's action is garbage here)."""
    out: list[object] = []
    for other in GAMES:
        if other.key == game.key:
            continue
        state = other.new_match(other.default_players, other.options(), random.Random(0))
        out.extend(state.legal_actions())
    return out


# ---------------------------------------------------------------------------------------------------------------
# One run
# ---------------------------------------------------------------------------------------------------------------
@dataclass
class Run:
    case: Case
    table: Table
    actions: list[tuple[int, Any]] = field(default_factory=list)
    lines: dict[int | None, list[str]] = field(default_factory=dict)
    """Every JSON line each seat received through its subscription."""
    checked_lines: int = 0
    rejections: int = 0
    bot_moves: int = 0

    def history_json(self) -> list[str]:
        return [codec.dumps(e) for e in self.table.state.history]


def _watchers(players: int) -> list[int | None]:
    return [*range(players), None]


def fingerprint(table: Table, views: Sequence[str] | None = None) -> tuple[Any, ...]:
    """Everything a rejected action must leave as it was, as JSON text (``views``: every seat's view as JSON, if
    just made)."""
    state = table.state
    if views is None:
        views = [codec.dumps(state.view(s)) for s in _watchers(state.players)]
    return (tuple(views), state.version, len(state.history), state.to_move, codec.dumps(state.legal_actions()))


def check_round_trip(value: Any) -> str:
    data = codec.encode(value)
    back = codec.decode(data)
    assert back == value, f"decode(encode(x)) != x for {type(value).__name__}:\n{value!r}\n{back!r}"
    text = codec.dumps(value)
    assert codec.loads(text) == value, f"loads(dumps(x)) != x for {type(value).__name__}"
    return text


def check_redacted(text: str, allowed: set[str], who: int | None, what: str) -> None:
    leaked = card_tokens(text) - allowed
    assert not leaked, f"seat {who} was sent {sorted(leaked)} it may not see, in {what}: {text[:400]}"


def check_invariants(state: GameState[Any, Any, Any], game: Game[Any, Any, Any]) -> None:
    zones = state.zones()
    full = state.full_deck()
    assert is_conserved(zones.values(), full), f"cards not conserved: {_diff(zones, full)}"
    to_move = state.to_move
    assert (to_move is None) == state.is_over
    if to_move is None:
        assert state.legal_actions() == []
        assert state.result is not None, "the match is over without a result"
    else:
        assert 0 <= to_move < state.players
        legal = state.legal_actions()
        assert legal, f"seat {to_move} is to move with no legal action"
        assert state.result is None
        for action in legal:  # actions round-trip through their text, as cards do
            assert state.parse_action(str(action)) == action, f"{action!r} does not read back from {str(action)!r}"


def _diff(zones: dict[str, Sequence[Card]], full: list[Card]) -> str:
    from collections import Counter

    found: Counter[Card] = Counter()
    for place in zones.values():
        found.update(place)
    want = Counter(full)
    return f"extra {sorted(map(str, (found - want).elements()))}, missing {sorted(map(str, (want - found).elements()))}"


def _expect_rejected(run: Run, seat: object, action: object, kind: type[ParlourError] = ParlourError) -> None:
    table = run.table
    counts = {w: len(lines) for w, lines in run.lines.items()}
    state = table.state
    version, length = state.version, len(state.history)
    try:
        table.submit(seat, action)  # type: ignore[arg-type]
    except ParlourError as err:
        assert isinstance(err, kind), f"{type(err).__name__} ({err}) for {_short(action)} by {_short(seat)}"
        assert len(str(err)) <= MESSAGE_LIMIT, f"a {len(str(err))}-character message for {_short(action)}"
    else:
        raise AssertionError(f"seat {_short(seat)} was allowed {_short(action)}")
    assert (state.version, len(state.history)) == (version, length), f"{_short(action)} changed the state"
    assert {w: len(lines) for w, lines in run.lines.items()} == counts, f"{_short(action)} published events"
    run.rejections += 1


def _short(value: object) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text[:80]


def _is_legal(action: object, legal: Sequence[Any]) -> bool:
    try:
        return any(type(action) is type(other) and action == other for other in legal)
    except Exception:
        return False


def try_rejections(
    run: Run, rng: random.Random, pool: list[Any], extra: Sequence[object], views: Sequence[str] | None = None
) -> None:
    """Submit actions that must all be refused, then check that nothing at all changed."""
    table = run.table
    state = table.state
    before = fingerprint(table, views)
    legal = state.legal_actions()
    to_move = state.to_move
    seats = range(state.players)
    if to_move is None:
        for action in rng.sample(pool, min(4, len(pool))):
            _expect_rejected(run, rng.choice(seats), action, GameOverError)
    else:
        # Illegal actions of the game: well-formed ones that are not allowed now.
        illegal = [a for a in pool if a not in legal]
        for action in rng.sample(illegal, min(4, len(illegal))):
            _expect_rejected(run, to_move, action, IllegalActionError)
            _expect_rejected(run, to_move, str(action), IllegalActionError)
        # Another seat's turn: a legal action, as an object and as text.
        others = [s for s in seats if s != to_move]
        for seat in rng.sample(others, min(2, len(others))):
            action = rng.choice(legal)
            _expect_rejected(run, seat, action, NotYourTurnError)
            _expect_rejected(run, seat, str(action), NotYourTurnError)
        # Not a seat at all.
        for seat in BAD_SEATS:
            _expect_rejected(run, seat, legal[0], SeatError)
        _expect_rejected(run, state.players, legal[0], SeatError)
    for action in extra:
        if _is_legal(action, legal):
            continue  # a "garbage" object that happens to be a legal action (Trash's PlaceKing(5))
        _expect_rejected(run, to_move if to_move is not None else 0, action)
    assert fingerprint(table) == before, "a rejected action changed a view, the version or the history"


def self_play(
    case: Case, *, reject_every: int = 3, round_trip_every: int = 3, levels: Sequence[str] = ("easy", "medium")
) -> Run:
    """Play ``case`` with random legal actions and some bot moves, checking everything after every action."""
    plug = case.plug
    table = make_table(case)
    game = table.game
    state = table.state
    players = state.players
    assert isinstance(state, GameState)
    rng = random.Random(case.seed * 7919)
    run = Run(case, table, lines={w: [] for w in _watchers(players)})
    received: dict[int | None, list[Event]] = {w: [] for w in _watchers(players)}

    def subscriber(watcher: int | None) -> Callable[[Event], None]:
        def got(event: Event) -> None:
            received[watcher].append(event)
            run.lines[watcher].append(codec.dumps(event))
            # A screen may look at its view at any moment, in the middle of a delivery too.
            assert isinstance(table.state.view(watcher), game.view_type)

        return got

    for watcher in _watchers(players):
        table.subscribe(watcher, subscriber(watcher))

    witness = plug.witness(players)
    bots = {level: make_bot(game, level) for level in bot_levels(game)}
    hard_left = case.hard if "hard" in bots else 0
    pool: list[Any] = []
    garbage = [*GARBAGE, *garbage_actions(state), *foreign_actions(game)]
    done = 0  # events of the history already checked

    def check_new_events() -> None:
        nonlocal done
        assert table.subscriber_errors == 0, "a subscriber's check failed (see the log)"
        history = state.history
        cursor = {w: len(received[w]) - sum(1 for e in history[done:] if e.for_seat(w) is not None) for w in received}
        for event in history[done:]:
            witness.feed(event)
            check_round_trip(event)
            for watcher in received:
                expected = event.for_seat(watcher)
                if expected is None:
                    continue
                got = received[watcher][cursor[watcher]]
                cursor[watcher] += 1
                assert got == expected, f"seat {watcher} was sent {got!r} for {expected!r}"
                text = check_round_trip(got)
                check_redacted(text, witness.may_see(watcher), watcher, f"event {type(got).__name__}")
                run.checked_lines += 1
        assert all(cursor[w] == len(received[w]) for w in received), "a subscriber got events out of the history"
        done = len(history)

    # The table's options are public rules, the same for every seat; they may name a card as a rule (Big Two's
    # lead card "3D"), which is no card's whereabouts: they are taken out of a view's text before the check.
    rules = codec.dumps(table.options)

    def check_views(full: bool) -> list[str]:
        """Every seat's view, as JSON; its codec round trip in ``full`` (a Big Two view takes milliseconds)."""
        texts = []
        for watcher in _watchers(players):
            view = state.view(watcher)
            assert isinstance(view, game.view_type), f"view({watcher}) is a {type(view).__name__}"
            text = check_round_trip(view) if full else codec.dumps(view)
            check_redacted(text.replace(rules, ""), witness.may_see_in_view(watcher), watcher, "its view")
            run.checked_lines += 1
            texts.append(text)
        return texts

    check_new_events()
    views = check_views(True)
    check_invariants(state, game)
    # The 1 MB text and the whole garbage list once, at the start and at the end; a sample in between.
    try_rejections(run, rng, pool, [BIG_TEXT, *garbage], views)
    for step in range(case.max_actions or plug.max_actions):
        if state.is_over:
            break
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        pool.extend(a for a in legal if a not in pool)
        view = state.view(seat)
        for level, bot in bots.items():
            if level == "hard":
                if hard_left <= 0:
                    continue
                hard_left -= 1
            elif level not in levels and step % 10:
                continue
            choice = bot.choose(view, legal, random.Random(rng.random()))
            assert choice in legal, f"the {level} bot chose {choice!r}, not among {legal!r}"
        if step % case.bot_every == case.bot_every - 1:
            action = bots["medium" if "medium" in bots else next(iter(bots))].choose(view, legal, random.Random(step))
            run.bot_moves += 1
        else:
            action = rng.choice(legal)
            if step % 4 == 1:
                action = str(action)  # as typed at the command line or sent as text
        table.submit(seat, action)
        run.actions.append((seat, action))
        check_new_events()
        views = check_views(step % round_trip_every == 0 or state.is_over)
        check_invariants(state, game)
        if step % reject_every == 0:
            try_rejections(run, rng, pool, rng.sample(garbage, 4), views)
    try_rejections(run, rng, pool, garbage, views)
    return run


def replay(run: Run) -> None:
    """The same seed and the recorded actions (sent through the codec) give byte-identical JSON."""
    case = run.case
    again = make_table(case)
    lines: dict[int | None, list[str]] = {w: [] for w in _watchers(case.players)}
    for watcher, out in lines.items():
        again.subscribe(watcher, lambda e, out=out: out.append(codec.dumps(e)))
    for seat, action in run.actions:
        wire = codec.loads(codec.dumps(action))
        assert wire == action
        again.submit(seat, wire)
    assert [codec.dumps(e) for e in again.state.history] == run.history_json()
    assert lines == run.lines
    assert again.state.version == run.table.state.version


def bot_table_transcript(case: Case, levels: Sequence[str], steps: int, think_twice: bool) -> list[str]:
    """A table of bots, stepped ``steps`` times (with extra ``think()`` calls if asked): its history as JSON."""
    known = [level for level in levels if level in bot_levels(get_entry(case.key).game)] or ["easy"]
    table = make_table(case, bots=[known[s % len(known)] for s in range(case.players)])
    for _ in range(steps):
        if table.state.is_over:
            break
        if think_twice:
            first = table.think()
            version = table.state.version
            assert table.think() == first
            assert table.state.version == version
        seat, action = table.think()
        assert action in table.state.legal_actions()
        table.submit(seat, action)
    return [codec.dumps(e) for e in table.state.history]


# ---------------------------------------------------------------------------------------------------------------
# The games' plugs: each beside its game's tests
# ---------------------------------------------------------------------------------------------------------------
class _Plugs(Mapping[str, Plug]):
    """Every registered game's plug, by the game's key: ``PLUG`` in the module ``<key>_helpers`` of its tests
    (``tests/engine/chase_helpers.py``...), found by the key alone: no list of the games here."""

    def __getitem__(self, key: str) -> Plug:
        name = f"{key}_helpers"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name == name:
                raise KeyError(key) from None
            raise
        plug = getattr(module, "PLUG", None)
        if not isinstance(plug, Plug):
            raise KeyError(key)
        return plug

    def __iter__(self) -> Iterator[str]:
        return iter([game.key for game in GAMES if game.key in self])

    def __len__(self) -> int:
        return len(list(self))


PLUGS: Mapping[str, Plug] = _Plugs()
"""Every registered game's plug, by the game's key."""
