"""What every game provides: one spec (options, players, bots, figures, rules text) and a state driven by actions.

A game is written as two classes: a :class:`Game` (the definition, registered once in :mod:`engine.registry`) and a
:class:`GameState` (one match). ``Game[OptionsT, ViewT, ActionT]`` names the game's typed options, the view a seat
gets, and its actions.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar, TypeVarTuple

from engine.cards import Card
from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionError,
    SeatError,
    echo,
)
from engine.events import Event

if TYPE_CHECKING:
    from engine.bots import Bot

OptionsT = TypeVar("OptionsT")
ViewT = TypeVar("ViewT")
ActionT = TypeVar("ActionT")
Args = TypeVarTuple("Args")
Action = object
"""Any game's action, where the game is not known (a table, a session)."""


class Deferred:
    """A frozen dataclass (a game's view) whose fields may be worked out only when one of them is first read.

    A table asks for a view at every step (a bot's decision, a snapshot) and many are never read: an ``easy`` bot
    looks only at its legal actions, a host's snapshot may be replaced before a screen draws it. ``deferred`` makes
    an instance that holds only ``build`` and the arguments it needs; the first read of any field calls
    ``build(*args)`` once, which returns every field by name. The arguments must be a snapshot (numbers, tuples,
    frozen objects) taken when the view is asked for, never the live state, so the view shows that moment however
    late it is read and from whichever thread. They hold only the seat's own share, as the fields do: its own
    cards, the others' counts, public cards and the public log (a spectator: public information only), never a
    card the seat may not see, since any code handed the view can reach them (``tests/engine/test_view_probe.py``
    walks everything a view holds). Equality, ``repr``, the codec, ``copy`` and pickling all read the fields, so a
    deferred view cannot be told from one built at once.
    """

    @classmethod
    def deferred(cls, build: Callable[[*Args], Mapping[str, object]], *args: *Args, **now: object) -> Self:
        """A view whose fields ``build(*args)`` returns when one is first read; ``now`` are fields given at once.

        A field with a default must be among ``now``: the dataclass keeps its default on the class, where it would
        be read before the view could build the true value."""
        defaulted = _DEFAULTED.get(cls)
        if defaulted is None:
            defaulted = _DEFAULTED[cls] = frozenset(
                f.name
                for f in dataclasses.fields(cls)  # type: ignore[arg-type]
                if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            )
        if defaulted and not defaulted <= now.keys():
            raise TypeError(f"{cls.__name__}.deferred needs {', '.join(sorted(defaulted - now.keys()))} at once")
        view = object.__new__(cls)
        fields = view.__dict__
        fields["_build"] = (build, args)
        if now:
            fields.update(now)
        return view

    def _materialize(self) -> dict[str, object]:
        fields = self.__dict__
        pending = fields.get("_build")
        if pending is not None:
            build, args = pending
            fields.update(build(*args))
            fields.pop("_build", None)  # only after the fields are in: a second thread never finds neither
        return fields

    if not TYPE_CHECKING:  # for mypy, a view has its declared fields and nothing else

        def __getattr__(self, name: str) -> object:
            """Only called for a name not in the instance: a field of a deferred view not built yet."""
            fields = self.__dict__ if name.startswith("__") else self._materialize()
            try:
                return fields[name]
            except KeyError:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}") from None

    def __getstate__(self) -> dict[str, object]:
        """What ``pickle`` and ``copy`` keep: the fields, built (the builder is not sent anywhere)."""
        return dict(self._materialize())


_DEFAULTED: dict[type, frozenset[str]] = {}
"""By deferred view class: its fields that have a default (see :meth:`Deferred.deferred`)."""


@dataclass(frozen=True)
class Variant:
    """A named house-rule option, discoverable by key (``--variant high-card-pays``)."""

    key: str
    name: str
    description: str
    excludes: tuple[str, ...] = ()
    """Variants that contradict this one (the pair is refused, naming both)."""
    presets: tuple[str, ...] = ()
    """The presets this variant changes something for (empty: all of them); elsewhere it is refused."""


@dataclass(frozen=True)
class Preset:
    key: str
    name: str
    description: str


class GameEntry:
    """A registry key: a game and, for a game with presets, the preset the key stands for (``screw``, ``chase``).

    ``game`` may be given as a function that makes it: the registry lists every game's keys without importing the
    games, and a game's module is loaded the first time its entry's ``game`` is read (a table of one game does not
    wait for the others to load). Two entries are equal when their key, preset, title and aliases are."""

    __slots__ = ("_game", "_make", "aliases", "key", "preset", "title")

    def __init__(
        self,
        key: str,
        game: Game[Any, Any, Any] | Callable[[], Game[Any, Any, Any]],
        preset: str | None,
        title: str,
        aliases: tuple[str, ...] = (),
    ) -> None:
        self.key = key
        self._game: Game[Any, Any, Any] | None = game if isinstance(game, Game) else None
        self._make = game
        self.preset = preset
        self.title = title
        self.aliases = aliases

    @property
    def game(self) -> Game[Any, Any, Any]:
        game = self._game
        if game is None:  # not an isinstance check: Game is an ABC, and a table reads its entry's game often
            make = self._make
            assert callable(make)
            game = self._game = make()
        return game

    def _fields(self) -> tuple[str, str | None, str, tuple[str, ...]]:
        return self.key, self.preset, self.title, self.aliases

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameEntry) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"GameEntry(key={self.key!r}, preset={self.preset!r}, title={self.title!r}, aliases={self.aliases!r})"


@dataclass(frozen=True)
class MatchResult:
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    """One figure per seat, higher is better (lives left, points...)."""


@dataclass(frozen=True)
class Scenario:
    """A chosen start for a match, for tests, docs and puzzles: stacked decks, the first dealer, the standing.

    ``decks`` are the deck orders of the first deals, each a permutation of the game's deck with the card dealt
    first at index 0 (how a game deals from it is in its module's docstring); later deals are shuffled by the
    table's RNG. ``dealer`` is the first dealer (default: drawn by lot). ``totals`` are the seats' starting totals
    in the game's own terms (Screw/Chase: lives, the life on honour included, 0 for a seat that is out; Big Two:
    points).

    >>> from engine.registry import get_entry
    >>> from engine.cards import parse_cards
    >>> game = get_entry("screw").game
    >>> hands = [parse_cards("2C"), parse_cards("9H"), parse_cards("KD")]
    >>> order = game.deck_for(players=3, dealer=2, hands=hands)
    >>> state = game.new_match(3, game.options("screw"), random.Random(0), Scenario(decks=(order,), dealer=2))
    >>> [str(c) for c in state.zones()["hand 0"]], state.to_move
    (['2C'], 0)
    """

    decks: tuple[tuple[Card, ...], ...] = ()
    dealer: int | None = None
    totals: tuple[int, ...] | None = None


class FinishedMatch(Protocol):
    """What :class:`Figures` and ``parlour simulate`` read of a finished match (any game's :class:`GameState` is
    one)."""

    @property
    def players(self) -> int: ...

    @property
    def history(self) -> Sequence[Event]: ...

    @property
    def result(self) -> MatchResult | None: ...


class Figures(Protocol):
    """Game-specific figures for ``parlour simulate``: fed each finished match, then reported as JSON data."""

    column: str
    """The per-seat figure the plain-text table shows beside the wins."""

    def add(self, state: FinishedMatch, position: Sequence[int]) -> None:
        """Count a finished match; seat ``s`` held line-up position ``position[s]``."""

    def report(self) -> dict[str, object]: ...


@dataclass
class GameState(ABC, Generic[OptionsT, ViewT, ActionT]):
    """The full, authoritative state of one match. Changes only through :meth:`apply`."""

    players: int
    history: list[Event] = field(default_factory=list, init=False)
    version: int = field(default=0, init=False)
    """How many actions have been applied: the number a snapshot or a bot's decision is taken at."""
    planned: list[tuple[Card, ...]] = field(default_factory=list, init=False)
    """Deck orders still to be dealt from a :class:`Scenario` (first deal first)."""

    action_types: ClassVar[tuple[type, ...]] = ()
    """The classes this game's actions are instances of (anything else is refused before the rules see it)."""

    # -- what every state answers ------------------------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat that must act now, or ``None`` when the match is over."""

    @abstractmethod
    def legal_actions(self) -> list[ActionT]:
        """Every action the seat to move may take now (empty when the match is over)."""

    @abstractmethod
    def _apply(self, action: ActionT) -> list[Event]:
        """Carry out a legal action for the seat to move and return the events it caused."""

    @abstractmethod
    def _view(self, seat: int | None) -> ViewT:
        """What ``seat`` may know now (``None``: a spectator); ``seat`` has been checked."""

    @abstractmethod
    def clone(self) -> GameState[OptionsT, ViewT, ActionT]:
        """An independent deep copy (the RNG included, of its own class and state)."""

    @property
    @abstractmethod
    def result(self) -> MatchResult | None:
        """The outcome once the match is over."""

    @abstractmethod
    def parse_action(self, text: str) -> ActionT:
        """Read an action from its text form; raise InvalidActionError when it is not one."""

    @abstractmethod
    def zones(self) -> dict[str, Sequence[Card]]:
        """Where every card of the game is now, by place, for invariant checks: ``"hand S"`` for seat S's cards,
        and the game's own names for the rest (``"deck"``, ``"discard"``, ``"played"``, ``"set aside"``)."""

    @abstractmethod
    def full_deck(self) -> list[Card]:
        """Every card this match is played with (several decks and jokers counted as many times as they are in)."""

    # -- seats and actions from outside ------------------------------------------------------------------------
    def check_seat(self, seat: object, *, spectator: bool = False) -> int | None:
        """``seat`` as a seat number of this table (a plain ``int`` from 0); SeatError for any other object (``None``
        only for a spectator)."""
        if type(seat) is int and 0 <= seat < self.players:  # the usual answer first: a table asks at every step
            return seat
        if seat is None and spectator:
            return None
        # Only a plain int is a seat: a bool, an enum member or another int subclass is refused, so whatever seat
        # is kept (a record, an event) is a plain number that every other edge reads back the same.
        raise SeatError(f"not a seat at this table: {echo(seat)} (seats are the whole numbers 0 to {self.players - 1})")

    def view(self, seat: int | None) -> ViewT:
        """What ``seat`` may know now (``None``: a spectator, who sees only what is public)."""
        return self._view(self.check_seat(seat, spectator=True))

    def coerce_action(self, action: object) -> ActionT:
        """``action`` as one of this game's actions: text is read, an action object is checked, anything else is
        refused with InvalidActionError."""
        if isinstance(action, str):
            return self.parse_action(action)
        if self.action_types and isinstance(action, self.action_types):
            self.validate_action(action)
            return action  # type: ignore[return-value]
        raise InvalidActionError(f"not an action of this game: {echo(action)}")

    def validate_action(self, action: object) -> None:
        """Check the inside of an action object (its cards are cards...); InvalidActionError when it is garbage."""

    # -- check, then do ----------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def allows(self, action: ActionT) -> bool:
        """Is ``action`` (well formed) one of the :meth:`legal_actions` now? A game may answer without listing them
        all (the answer must be the same)."""
        return action in self.legal_actions()

    def check(self, seat: int, action: ActionT) -> None:
        """Raise the error that :meth:`apply` would raise, without changing anything."""
        if self.is_over:
            raise GameOverError("the match is over")
        if seat != self.to_move:
            raise NotYourTurnError(f"it is not seat {seat}'s turn (seat {self.to_move} is to move)")
        if not self.allows(action):
            allowed = ", ".join(str(a) for a in self.legal_actions())
            raise IllegalActionError(f"{echo(str(action))} is not allowed now; you may: {echo(allowed)}")

    def apply(self, seat: int, action: object) -> list[Event]:
        """Check then do: apply ``action`` for ``seat`` and return the new events (appended to the history).

        Whatever ``seat`` and ``action`` are, a rejection raises a :class:`~engine.errors.ParlourError` and leaves
        the state exactly as it was.
        """
        checked_seat = self.check_seat(seat)
        assert checked_seat is not None
        move = self.coerce_action(action)
        self.check(checked_seat, move)
        events = self._apply(move)
        self.version += 1
        self.history.extend(events)
        return events

    # -- dealing -----------------------------------------------------------------------------------------------
    def next_deck(self, cards: list[Card], rng: random.Random) -> list[Card]:
        """The deck for the next deal, dealt from index 0: a planned order from the scenario, else ``cards``
        shuffled by ``rng``."""
        if self.planned:
            order = list(self.planned.pop(0))
            if sorted(map(str, order)) != sorted(map(str, cards)):
                raise OptionError("a planned deck must hold exactly the cards of the game's deck")
            return order
        deck = list(cards)
        rng.shuffle(deck)
        return deck

    def _copy_base(self, other: GameState[OptionsT, ViewT, ActionT]) -> None:
        """Copy what the base class keeps into ``other`` (a subclass's ``clone`` calls this)."""
        other.history = list(self.history)
        other.version = self.version
        other.planned = list(self.planned)


def copy_rng(rng: random.Random) -> random.Random:
    """An independent RNG of the same class in the same state (an injected subclass keeps its own state).

    Not ``copy.deepcopy``: ``Random.__reduce__`` rebuilds the copy by calling the class with no arguments and drops
    the instance's own fields, so a subclass with a required argument or a field of its own would break.
    """
    cls = type(rng)
    other = cls.__new__(cls)
    if hasattr(rng, "__dict__"):
        other.__dict__.update(copy.deepcopy(rng.__dict__))
    other.setstate(rng.getstate())
    return other


BotFactory = Callable[["Game[Any, Any, Any]"], "Bot"]


class Game(ABC, Generic[OptionsT, ViewT, ActionT]):
    """A game's spec: its name, players, options, variants, simulate figures, rules text and wire classes.

    Registered once, with its bots, in :mod:`engine.registry`; nothing else in the engine, the CLI or the UI
    matches on its key.
    """

    key: ClassVar[str]
    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    view_type: ClassVar[type]
    """The class of this game's views (the codec and the sessions use it)."""

    @property
    @abstractmethod
    def presets(self) -> Sequence[Preset]: ...

    @property
    @abstractmethod
    def variants(self) -> Sequence[Variant]: ...

    @abstractmethod
    def base_options(self, preset: str | None) -> OptionsT:
        """The options of a preset (``None``: the default one); OptionError for an unknown preset."""

    @abstractmethod
    def with_variant(self, options: OptionsT, key: str) -> OptionsT:
        """``options`` with one more variant switched on (its key already known to be one of :attr:`variants`)."""

    def options(self, preset: str | None = None, variants: Sequence[str] = ()) -> OptionsT:
        """Typed options from a preset key and variant keys.

        OptionError for an unknown key, two variants that contradict each other, or a variant that changes
        nothing under this preset; the message names both.
        """
        options = self.base_options(preset)
        chosen: list[Variant] = []
        known = {v.key: v for v in self.variants}
        for raw in variants:
            key = raw.strip().lower() if isinstance(raw, str) else raw
            variant = known.get(key) if isinstance(key, str) else None
            if variant is None:
                if not known:
                    raise OptionError(f"unknown variant {echo(raw)}: {self.name} has no variants")
                raise OptionError(f"unknown variant {echo(raw)}; choose from: {', '.join(known)}")
            if variant in chosen:
                continue
            for other in chosen:
                if other.key in variant.excludes or variant.key in other.excludes:
                    raise OptionError(f"the variants {other.key!r} and {variant.key!r} cannot be played together")
            preset_key = self.preset_key(options)
            if variant.presets and preset_key not in variant.presets:
                raise OptionError(
                    f"the variant {variant.key!r} changes nothing in the preset {preset_key!r}: "
                    f"{self.preset_name(preset_key)} already plays that way"
                )
            chosen.append(variant)
            options = self.with_variant(options, variant.key)
        return options

    def preset_key(self, options: OptionsT) -> str:
        """The key of the preset ``options`` were built from."""
        preset = getattr(options, "preset", None)
        return preset if isinstance(preset, str) else self.presets[0].key

    def preset_name(self, key: str) -> str:
        return next((p.name for p in self.presets if p.key == key), key)

    def useful_variants(self, preset: str | None) -> list[Variant]:
        """The variants that may be chosen under ``preset`` (a menu shows these)."""
        key = self.preset_key(self.base_options(preset))
        return [v for v in self.variants if not v.presets or key in v.presets]

    @abstractmethod
    def new_match(
        self, players: int, options: OptionsT, rng: random.Random, scenario: Scenario | None = None
    ) -> GameState[OptionsT, ViewT, ActionT]:
        """A match for ``players`` under ``options``, its chance from ``rng`` (or from ``scenario``'s decks)."""

    @abstractmethod
    def determinize(self, view: ViewT, rng: random.Random) -> GameState[OptionsT, ViewT, ActionT]:
        """A full state consistent with everything in ``view``, every card the view does not show sampled.

        Built from the view alone, so a search bot using it cannot learn a hidden card.
        """

    @abstractmethod
    def rules_summary(self, options: OptionsT | None = None) -> str:
        """Markdown shown in the rules pane, by ``parlour rules`` and in ``docs/rules.md``."""

    @abstractmethod
    def figures(self) -> Figures:
        """A fresh collector of this game's ``simulate`` figures."""

    @abstractmethod
    def codec_types(self) -> Sequence[type]:
        """Every class of this game that crosses a wire: options, view, events, actions and what they hold.

        Registered with the codec under :attr:`key` by :mod:`engine.registry`."""

    def entries(self) -> tuple[GameEntry, ...]:
        """The registry keys this game is played under (one per preset that has a name of its own)."""
        return (GameEntry(self.key, self, None, self.name, self.aliases),)

    def deck_for(
        self, players: int, dealer: int, hands: Sequence[Sequence[Card]], rest: Sequence[Card] = ()
    ) -> tuple[Card, ...]:
        """A deck order (for a :class:`Scenario`) that deals seat ``s`` the cards ``hands[s]`` when ``dealer``
        deals, with ``rest`` next in the deck, then every card not named."""
        raise NotImplementedError(f"{self.name} has no deck_for helper")

    def check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"the number of players must be a whole number, not {echo(players)}")
        if not self.min_players <= players <= self.max_players:
            raise OptionError(f"{self.name} takes {self.min_players} to {self.max_players} players, not {players}")
