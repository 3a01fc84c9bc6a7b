"""Trash (RULES.md §2): turn your whole layout face up, one chain of cards at a time.

Every player has a layout of face-down cards, one per slot: slot 1 is the Ace's, slot 10 the ten's. On a turn the
player takes the top card of the stock or of the discard pile and plays a *chain*: a card Ace–10 goes face up on
its own slot, the face-down card there is picked up and played the same way, until a card cannot be placed (a Jack,
a Queen, a number whose slot is already face up, a number above a shrunk layout's size) and is discarded. Kings are
wild. The first player with every slot face up wins the deal.

Nothing in Trash is private to one seat: face-down cards and the order of the stock are hidden from *everybody*
(the owner included), and everything else (the held card, the discard pile, the face-up cards) is public. So every
event is public, and a view is the same for every seat except for its ``seat`` field.

How a deal is dealt (what a :class:`~engine.game.Scenario` deck means): the first player is the seat after the
dealer (the match layer's ``dealer``; it moves one seat on each deal, and so does the first player). Starting with
the first player and going round in turn order, each seat is dealt its whole layout from the deck, slot 1 first;
the card after the last dealt one is the top of the stock, and the stock keeps the deck's order from there.
:meth:`TrashGame.deck_for` builds such an order.

The chain is automatic except where the rules give the player a choice: where a held King goes (phase KING), and
whether a held number card replaces the King on its slot (phase SWAP). Each step of a chain is its own event.

The match layer (:mod:`engine.match`) keeps the totals: without *Match* a game is one deal and a winner's total
goes up by 1; with *Match* the totals are the layout sizes (a deal's winners lose a card, the lowest total wins
and the match ends when a one-card layout has been completed, at 0).

>>> import random
>>> from engine.cards import parse_cards
>>> game = TrashGame()
>>> order = game.deck_for(2, dealer=1, hands=[parse_cards("2C 3C"), parse_cards("4D")], rest=parse_cards("AS"))
>>> state = game.new_match(2, game.options(), random.Random(0), Scenario(decks=(order,), dealer=1))
>>> state.to_move, [str(a) for a in state.legal_actions()]
(0, ['stock'])
>>> [type(e).__name__ for e in state.apply(0, "stock")][:4]
['Drew', 'Placed', 'PickedUp', 'Placed']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import ClassVar

from engine.cards import Card, Rank, plain_text, standard_deck
from engine.dealing import check_dealer, check_planned_decks, check_totals, first_dealer, lay_out, unseen
from engine.errors import InvalidActionError, OptionError, echo
from engine.events import Event
from engine.game import (
    Deferred,
    Figures,
    FinishedMatch,
    Game,
    GameEntry,
    GameState,
    MatchResult,
    Preset,
    Scenario,
    Variant,
    copy_rng,
)
from engine.games.trash import LISTING
from engine.match import MatchProgress, MatchRule

__all__ = [
    "DISCARD",
    "KEEP",
    "STOCK",
    "SWAP",
    "Completed",
    "DealOver",
    "DealStarted",
    "DiscardReason",
    "Discarded",
    "Draw",
    "Drew",
    "FinalRound",
    "Keep",
    "KingPlaced",
    "KingReplaced",
    "PickedUp",
    "PlaceKing",
    "Placed",
    "StockShuffled",
    "Swap",
    "TrashAction",
    "TrashFigures",
    "TrashGame",
    "TrashOptions",
    "TrashPhase",
    "TrashState",
    "TrashView",
    "deck_of",
    "is_king",
    "parse_action",
    "slot_of",
]

MAX_SIZE = 10
"""A layout has at most ten slots: one per pip card, Ace to ten."""
SOURCES = ("stock", "discard")


@dataclass(frozen=True)
class TrashOptions:
    match: bool = False
    """*Match*: play deals until someone completes a one-card layout; a deal's winners get one card fewer."""
    last_turn: bool = False
    """*Last turn*: after the first completion every other player gets one more turn; completers share the win."""
    size: int = MAX_SIZE
    """The starting layout size (every seat's, in the first deal)."""

    def __post_init__(self) -> None:
        for name in ("match", "last_turn"):
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"{name} is true or false, not {echo(getattr(self, name))}")
        if isinstance(self.size, bool) or not isinstance(self.size, int) or not 1 <= self.size <= MAX_SIZE:
            raise OptionError(f"a layout has 1 to {MAX_SIZE} cards, not {echo(self.size)}")


DEFAULT_OPTIONS = TrashOptions()
VARIANTS = (
    Variant(
        "match",
        "Match",
        "Play deal after deal: a deal's winner gets one card fewer next deal (slots Ace … n); whoever completes "
        "a one-card layout wins the match.",
    ),
    Variant(
        "last-turn",
        "Last turn",
        "After a layout is completed, every other player gets one more turn; everyone who completes shares the win.",
    ),
)


def slot_of(card: Card) -> int | None:
    """The slot a pip card belongs on (Ace 1 … ten 10); None for a Jack, Queen, King or joker.

    >>> slot_of(Card.parse("AS")), slot_of(Card.parse("10H")), slot_of(Card.parse("QD"))
    (1, 10, None)
    """
    value = int(card.rank)
    return value if 1 <= value <= MAX_SIZE else None


def is_king(card: Card) -> bool:
    return card.rank is Rank.KING


# ---------------------------------------------------------------------------------------------------------------
# Phases and actions
# ---------------------------------------------------------------------------------------------------------------
class TrashPhase(Enum):
    """What the player to move is asked now."""

    DRAW = "draw"
    """Take the top card of the stock or of the discard pile."""
    KING = "king"
    """Choose the face-down slot the held King goes on."""
    SWAP = "swap"
    """The held number card's slot holds a face-up King: replace it (the King is then held) or not."""
    OVER = "over"


@dataclass(frozen=True)
class Draw:
    """Take the top card of the stock or of the discard pile (``source``)."""

    source: str

    def __str__(self) -> str:
        return self.source


@dataclass(frozen=True)
class PlaceKing:
    """Put the held King on face-down slot ``slot`` (1-based) and pick up the card there."""

    slot: int

    def __str__(self) -> str:
        return f"king {self.slot}"


@dataclass(frozen=True)
class Swap:
    """Replace the face-up King on the held card's slot with the held card; the King is then held."""

    def __str__(self) -> str:
        return "swap"


@dataclass(frozen=True)
class Keep:
    """Leave the King where it is: the held card is discarded and the turn ends."""

    def __str__(self) -> str:
        return "pass"


TrashAction = Draw | PlaceKing | Swap | Keep
STOCK, DISCARD = Draw("stock"), Draw("discard")
SWAP, KEEP = Swap(), Keep()

_WORDS: dict[str, TrashAction] = {
    "stock": STOCK,
    "s": STOCK,
    "discard": DISCARD,
    "d": DISCARD,
    "trash": DISCARD,
    "swap": SWAP,
    "w": SWAP,
    "pass": KEEP,
    "x": KEEP,
    "keep": KEEP,
}
MAX_ACTION_TEXT = 40


def parse_action(text: object) -> TrashAction:
    """An action from its text: ``stock``/``s``, ``discard``/``d``, ``king 3`` (or just ``3``), ``swap``/``w``,
    ``pass``/``x``; InvalidActionError for anything else, whatever object it is.

    >>> parse_action(" Stock "), parse_action("king 3"), parse_action("7"), parse_action("x")
    (Draw(source='stock'), PlaceKing(slot=3), PlaceKing(slot=7), Keep())
    """
    hint = "stock, discard, king N (N a face-down slot, 1 to 10), swap or pass"
    plain = plain_text(text)
    if plain is None or len(plain) > MAX_ACTION_TEXT:
        raise InvalidActionError(f"not a Trash action: {echo(text, 60)} ({hint})")
    words = plain.strip().lower().split()
    if len(words) == 1 and words[0] in _WORDS:
        return _WORDS[words[0]]
    if len(words) == 2 and words[0] in ("king", "k"):
        words = words[1:]
    if len(words) == 1:
        number = {"a": "1", "ace": "1"}.get(words[0], words[0])
        if number.isascii() and number.isdigit() and 1 <= int(number) <= MAX_SIZE:
            return PlaceKing(int(number))
    raise InvalidActionError(f"not a Trash action: {echo(text, 60)} ({hint})")


def validate(action: object) -> None:
    """InvalidActionError unless ``action`` is a well-formed Trash action (its fields of the right kind)."""
    if isinstance(action, Draw):
        if not isinstance(action.source, str) or action.source not in SOURCES:
            raise InvalidActionError(f"draw from the stock or the discard pile, not {echo(action.source, 60)}")
    elif isinstance(action, PlaceKing):
        slot = action.slot
        if isinstance(slot, bool) or not isinstance(slot, int) or not 1 <= slot <= MAX_SIZE:
            raise InvalidActionError(f"a slot is a number from 1 to {MAX_SIZE}, not {echo(slot, 60)}")
    elif not isinstance(action, Swap | Keep):
        raise InvalidActionError(f"not a Trash action: {echo(action, 60)}")


# ---------------------------------------------------------------------------------------------------------------
# Events (all public: Trash has no card one seat alone may see)
# ---------------------------------------------------------------------------------------------------------------
class DiscardReason(Enum):
    """Why a card went to the discard pile (and, but for COMPLETED, why the turn ended)."""

    NO_SLOT = "no_slot"
    """A Jack or Queen, or a number above the layout's size."""
    TAKEN = "taken"
    """Its slot is already face up (and holds no King)."""
    DECLINED = "declined"
    """Its slot holds a King, and the player kept the King there."""
    COMPLETED = "completed"
    """The layout was completed: the card picked up last goes to the discard pile."""
    NO_ROOM = "no_room"
    """It fits only by replacing a King, but no face-down slot is left to move the King to."""


@dataclass(frozen=True, kw_only=True)
class DealStarted(Event):
    """Follows the match layer's ``RoundStarted``: each seat's layout size and who plays first."""

    deal: int
    sizes: tuple[int, ...]
    first: int


@dataclass(frozen=True, kw_only=True)
class StockShuffled(Event):
    """The stock ran out: the discard pile but its top card was shuffled to become the new stock."""

    cards: int


@dataclass(frozen=True, kw_only=True)
class Drew(Event):
    seat: int
    source: str
    """``stock`` or ``discard``."""
    card: Card


@dataclass(frozen=True, kw_only=True)
class Placed(Event):
    """A number card put face up on its own slot (a face-down card there is picked up next: :class:`PickedUp`)."""

    seat: int
    slot: int
    card: Card


@dataclass(frozen=True, kw_only=True)
class KingPlaced(Event):
    """The held King put on face-down slot ``slot``."""

    seat: int
    slot: int
    card: Card


@dataclass(frozen=True, kw_only=True)
class KingReplaced(Event):
    """``card`` replaced the face-up ``king`` on ``slot``; the King is now held and must go on a face-down slot."""

    seat: int
    slot: int
    card: Card
    king: Card


@dataclass(frozen=True, kw_only=True)
class PickedUp(Event):
    """The face-down card at ``slot`` was turned over and is now held."""

    seat: int
    slot: int
    card: Card


@dataclass(frozen=True, kw_only=True)
class Discarded(Event):
    seat: int
    card: Card
    reason: DiscardReason


@dataclass(frozen=True, kw_only=True)
class Completed(Event):
    """``seat``'s layout is all face up, in its ``turn``-th turn of the deal."""

    seat: int
    turn: int


@dataclass(frozen=True, kw_only=True)
class FinalRound(Event):
    """*Last turn*: ``seat`` completed first; every other player gets one more turn, in turn order."""

    seat: int


@dataclass(frozen=True, kw_only=True)
class DealOver(Event):
    """The deal is over; the match layer's ``RoundOver`` (and ``MatchOver`` at the end) follows."""

    winners: tuple[int, ...]
    sizes: tuple[int, ...]
    """The layout sizes this deal."""
    next_sizes: tuple[int, ...] | None
    """*Match*: the sizes next deal (a winner has one card fewer); None when no deal follows."""


# ---------------------------------------------------------------------------------------------------------------
# View
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrashView(Deferred):
    """Everything public, which in Trash is everything anyone may know: no face-down card is in it, not even for
    its owner, and the stock is only a count."""

    seat: int | None
    players: int
    deal: int
    """The deal's number, 1 for the first."""
    first: int
    """Who played first this deal."""
    sizes: tuple[int, ...]
    layouts: tuple[tuple[Card | None, ...], ...]
    """Per seat, index i is slot i+1: None while face down, else the face-up card (a King too)."""
    stock: int
    discard: tuple[Card, ...]
    """The whole discard pile, bottom first (the top is the last)."""
    held: Card | None
    """The card the player to move holds now (public), None between turns."""
    held_from: str | None
    """Where it came from: ``stock``, ``discard``, ``slot`` (picked up) or ``king`` (taken off a slot by a swap)."""
    to_move: int | None
    phase: TrashPhase
    final_round: bool
    completed: tuple[int, ...]
    """The seats that completed this deal, in order."""
    turns: tuple[int, ...]
    """Turns each seat has taken this deal (the one being played included)."""
    options: TrashOptions = DEFAULT_OPTIONS
    totals: tuple[int, ...] = ()
    """The match layer's totals: deals won (one deal: 1 for the winner), or with *Match* the layout sizes."""
    winners: tuple[int, ...] = ()
    """The match's winners once it is over."""

    def face_down(self, seat: int) -> list[int]:
        """The slot numbers of ``seat``'s face-down cards."""
        return [i + 1 for i, card in enumerate(self.layouts[seat]) if card is None]

    def kings(self, seat: int) -> list[int]:
        """The slot numbers of ``seat``'s face-up Kings."""
        return [i + 1 for i, card in enumerate(self.layouts[seat]) if card is not None and is_king(card)]


# ---------------------------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------------------------
def match_rule(options: TrashOptions) -> MatchRule:
    """One deal, won by the completers; or (*Match*) totals that are the layout sizes, the match over at 0."""
    if options.match:
        return MatchRule(low_limit=0, lower_wins=True)
    return MatchRule(rounds=1)


def deck_of(players: int) -> list[Card]:
    """One deck for two players, two shuffled together for three or four."""
    return standard_deck() * (1 if players <= 2 else 2)


def _view_fields(layouts: tuple[tuple[Card | None, ...], ...], discard: tuple[Card, ...]) -> dict[str, object]:
    """The fields of a :class:`TrashView` that :meth:`TrashState._view` left to be put in when read."""
    return {"layouts": layouts, "discard": discard}


@dataclass
class TrashState(GameState[TrashOptions, TrashView, TrashAction]):
    """One match. ``layouts[s][i]`` is the card on seat s's slot i+1, ``face_up[s][i]`` whether it shows."""

    options: TrashOptions = field(default_factory=TrashOptions)
    rng: random.Random = field(default_factory=random.Random)
    progress: MatchProgress = field(default_factory=lambda: MatchProgress.starting(2, MatchRule(rounds=1)))
    sizes: list[int] = field(default_factory=list)
    layouts: list[list[Card]] = field(default_factory=list)
    face_up: list[list[bool]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    """The stock, its top card last."""
    discard: list[Card] = field(default_factory=list)
    """The discard pile, its top card last."""
    held: Card | None = None
    held_from: str | None = None
    phase: TrashPhase = TrashPhase.DRAW
    turn: int = 0
    """The seat to move (meaningless once the match is over)."""
    first: int = 0
    turns: list[int] = field(default_factory=list)
    completed: list[int] = field(default_factory=list)
    final_round: bool = False
    final_left: list[int] = field(default_factory=list)
    """*Last turn*: the seats still to play their last turn, in order (the one to move first)."""

    action_types: ClassVar[tuple[type, ...]] = (Draw, PlaceKing, Swap, Keep)

    # -- figures -------------------------------------------------------------------------------------------------
    @property
    def deal(self) -> int:
        return self.progress.round

    @property
    def over(self) -> bool:
        return self.progress.over

    def face_down(self, seat: int) -> list[int]:
        """The slot numbers of ``seat``'s face-down cards."""
        return [i + 1 for i, up in enumerate(self.face_up[seat]) if not up]

    def is_complete(self, seat: int) -> bool:
        return all(self.face_up[seat])

    def can_place(self, seat: int, card: Card) -> bool:
        """Could ``card`` be placed on ``seat``'s layout now (what taking it from the discard pile needs)?"""
        up = self.face_up[seat]
        if is_king(card):
            return not all(up)  # a face-down slot to put it on
        slot = slot_of(card)
        if slot is None or slot > self.sizes[seat]:
            return False
        if not up[slot - 1]:
            return True
        return is_king(self.layouts[seat][slot - 1]) and not all(up)

    # -- dealing -------------------------------------------------------------------------------------------------
    def start_deal(self) -> list[Event]:
        """Deal every layout from :meth:`next_deck` (see the module docstring) and open the deal."""
        n = self.players
        deck = self.next_deck(deck_of(n), self.rng)
        self.first = self.progress.next_seat(self.progress.dealer)
        order = [(self.first + i) % n for i in range(n)]
        self.layouts = [[] for _ in range(n)]
        position = 0
        for seat in order:
            self.layouts[seat] = deck[position : position + self.sizes[seat]]
            position += self.sizes[seat]
        self.face_up = [[False] * self.sizes[s] for s in range(n)]
        self.stock = list(reversed(deck[position:]))
        self.discard = []
        self.held, self.held_from = None, None
        self.phase = TrashPhase.DRAW
        self.turn = self.first
        self.turns = [0] * n
        self.completed = []
        self.final_round = False
        self.final_left = []
        started = self.progress.start_round(seats=tuple(order))
        return [started, DealStarted(deal=self.deal, sizes=tuple(self.sizes), first=self.first)]

    # -- what is asked -------------------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return None if self.over else self.turn

    def legal_actions(self) -> list[TrashAction]:
        if self.over:
            return []
        seat = self.turn
        if self.phase is TrashPhase.DRAW:
            actions: list[TrashAction] = []
            if self.stock:
                actions.append(STOCK)
            if self.discard and self.can_place(seat, self.discard[-1]):
                actions.append(DISCARD)
            return actions
        if self.phase is TrashPhase.KING:
            return [PlaceKing(slot) for slot in self.face_down(seat)]
        if self.phase is TrashPhase.SWAP:
            return [SWAP] if self.held_from == "discard" else [SWAP, KEEP]
        return []

    def allows(self, action: TrashAction) -> bool:
        """The same answer as ``action in legal_actions()``, without listing them (a refused action is checked
        this way, and every action applied)."""
        if self.over:
            return False
        kind = type(action)
        if self.phase is TrashPhase.DRAW:
            if kind is not Draw:
                return False
            assert isinstance(action, Draw)
            if action.source == "stock":
                return bool(self.stock)
            if action.source == "discard":
                return bool(self.discard) and self.can_place(self.turn, self.discard[-1])
            return False
        if self.phase is TrashPhase.KING:
            return kind is PlaceKing and action in self.legal_actions()
        if self.phase is TrashPhase.SWAP:
            return kind is Swap or (kind is Keep and self.held_from != "discard")
        return False

    def validate_action(self, action: object) -> None:
        validate(action)

    def parse_action(self, text: str) -> TrashAction:
        return parse_action(text)

    # -- playing -------------------------------------------------------------------------------------------------
    def _apply(self, action: TrashAction) -> list[Event]:
        seat = self.turn
        events: list[Event] = []
        if isinstance(action, Draw):
            pile = self.stock if action.source == "stock" else self.discard
            card = pile.pop()
            self.turns[seat] += 1
            self.held, self.held_from = card, action.source
            events.append(Drew(seat=seat, source=action.source, card=card))
            return events + self._chain(seat)
        held = self.held
        assert held is not None
        if isinstance(action, PlaceKing):
            events.append(KingPlaced(seat=seat, slot=action.slot, card=held))
            return events + self._turn_over(seat, action.slot, held)
        if isinstance(action, Swap):
            slot = slot_of(held)
            assert slot is not None
            king = self.layouts[seat][slot - 1]
            self.layouts[seat][slot - 1] = held
            self.held, self.held_from = king, "king"
            self.phase = TrashPhase.KING
            return [KingReplaced(seat=seat, slot=slot, card=held, king=king)]
        return self._discard(seat, held, DiscardReason.DECLINED)

    def _turn_over(self, seat: int, slot: int, card: Card) -> list[Event]:
        """Put ``card`` face up on the face-down ``slot``: pick up the card there, or complete the layout."""
        picked = self.layouts[seat][slot - 1]
        self.layouts[seat][slot - 1] = card
        self.face_up[seat][slot - 1] = True
        if self.is_complete(seat):
            # RULES: completed mid-chain, the card just picked up is discarded and the turn ends.
            self.discard.append(picked)
            self.held, self.held_from = None, None
            events: list[Event] = [Discarded(seat=seat, card=picked, reason=DiscardReason.COMPLETED)]
            self.completed.append(seat)
            events.append(Completed(seat=seat, turn=self.turns[seat]))
            return events + self._end_turn(seat)
        self.held, self.held_from = picked, "slot"
        return [PickedUp(seat=seat, slot=slot, card=picked), *self._chain(seat)]

    def _chain(self, seat: int) -> list[Event]:
        """Play the held card as far as the rules go without a choice: place it, or stop where a choice is asked,
        or discard it and end the turn."""
        card = self.held
        assert card is not None
        down = self.face_down(seat)
        if is_king(card):
            if down:
                self.phase = TrashPhase.KING
                return []
            return self._discard(seat, card, DiscardReason.NO_ROOM)
        slot = slot_of(card)
        if slot is None or slot > self.sizes[seat]:
            return self._discard(seat, card, DiscardReason.NO_SLOT)
        if not self.face_up[seat][slot - 1]:
            events: list[Event] = [Placed(seat=seat, slot=slot, card=card)]
            return events + self._turn_over(seat, slot, card)
        if not is_king(self.layouts[seat][slot - 1]):
            return self._discard(seat, card, DiscardReason.TAKEN)
        if not down:
            return self._discard(seat, card, DiscardReason.NO_ROOM)
        self.phase = TrashPhase.SWAP
        return []

    def _discard(self, seat: int, card: Card, reason: DiscardReason) -> list[Event]:
        self.discard.append(card)
        self.held, self.held_from = None, None
        events: list[Event] = [Discarded(seat=seat, card=card, reason=reason)]
        return events + self._end_turn(seat)

    def _end_turn(self, seat: int) -> list[Event]:
        """The next turn (a reshuffled stock first, if it ran out), or the end of the deal."""
        n = self.players
        events: list[Event] = []
        self.phase = TrashPhase.DRAW
        if self.final_round:
            if self.final_left and self.final_left[0] == seat:
                self.final_left.pop(0)
            if not self.final_left:
                return self._end_deal()
            self.turn = self.final_left[0]
        elif self.completed:
            if not self.options.last_turn:
                return self._end_deal()
            self.final_round = True
            self.final_left = [(seat + i) % n for i in range(1, n)]
            events.append(FinalRound(seat=seat))
            self.turn = self.final_left[0]
        else:
            self.turn = (seat + 1) % n
        if not self.stock and len(self.discard) > 1:
            # RULES: the reshuffle happens before the player chooses where to draw from.
            top = self.discard.pop()
            self.stock, self.discard = self.discard, [top]
            self.rng.shuffle(self.stock)
            events.append(StockShuffled(cards=len(self.stock)))
        return events

    def _end_deal(self) -> list[Event]:
        winners = tuple(self.completed)
        sizes = tuple(self.sizes)
        self.held, self.held_from = None, None
        if self.options.match:
            deltas = [-1 if s in winners else 0 for s in range(self.players)]
        else:
            deltas = [1 if s in winners else 0 for s in range(self.players)]
        next_sizes = tuple(size + delta for size, delta in zip(sizes, deltas, strict=True))
        totals = [t + d for t, d in zip(self.progress.totals, deltas, strict=True)]
        last = self.progress.rule.is_over(self.progress.round, totals)
        over = DealOver(winners=winners, sizes=sizes, next_sizes=None if last or not self.options.match else next_sizes)
        events: list[Event] = [over, *self.progress.end_round(winners=winners, deltas=deltas)]
        if self.progress.over:
            self.phase = TrashPhase.OVER
            return events
        self.sizes = list(next_sizes)
        return events + self.start_deal()

    # -- views and copies ----------------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> TrashView:
        """Deferred (see :class:`~engine.game.Deferred`), holding only public cards: the layouts are shown face up
        or down now (a face-down card is in no view, not even its owner's), the discard pile copied."""
        face_up = self.face_up
        shown = []
        for owner, layout in enumerate(self.layouts):  # not zip(..., strict=True): its keyword is dear here
            ups = face_up[owner]
            shown.append(tuple([card if ups[i] else None for i, card in enumerate(layout)]))
        return TrashView.deferred(
            _view_fields,
            tuple(shown),
            tuple(self.discard),
            seat=seat,
            players=self.players,
            deal=self.deal,
            first=self.first,
            sizes=tuple(self.sizes),
            stock=len(self.stock),
            held=self.held,
            held_from=self.held_from,
            to_move=self.to_move,
            phase=TrashPhase.OVER if self.over else self.phase,
            final_round=self.final_round,
            completed=tuple(self.completed),
            turns=tuple(self.turns),
            options=self.options,
            totals=tuple(self.progress.totals),
            winners=self.progress.winners if self.over else (),
        )

    def clone(self) -> TrashState:
        other = TrashState(
            players=self.players,
            options=self.options,
            rng=copy_rng(self.rng),
            progress=self.progress.copy(),
            sizes=list(self.sizes),
            layouts=[list(layout) for layout in self.layouts],
            face_up=[list(ups) for ups in self.face_up],
            stock=list(self.stock),
            discard=list(self.discard),
            held=self.held,
            held_from=self.held_from,
            phase=self.phase,
            turn=self.turn,
            first=self.first,
            turns=list(self.turns),
            completed=list(self.completed),
            final_round=self.final_round,
            final_left=list(self.final_left),
        )
        self._copy_base(other)
        return other

    @property
    def result(self) -> MatchResult | None:
        if not self.over:
            return None
        totals = self.progress.totals
        # Higher is better: deals won, or (Match) how few cards the layout had left to shrink.
        scores = tuple(float(-t if self.options.match else t) for t in totals)
        return MatchResult(winners=self.progress.winners, scores=scores)

    def zones(self) -> dict[str, Sequence[Card]]:
        places: dict[str, Sequence[Card]] = {
            "stock": list(self.stock),
            "discard": list(self.discard),
            "held": [self.held] if self.held is not None else [],
        }
        for seat, layout in enumerate(self.layouts):
            places[f"layout {seat}"] = list(layout)
        return places

    def full_deck(self) -> list[Card]:
        return deck_of(self.players)


# ---------------------------------------------------------------------------------------------------------------
# Determinization: the hidden cards are the face-down slots and the stock
# ---------------------------------------------------------------------------------------------------------------
def unseen_cards(view: TrashView) -> list[Card]:
    """The cards no one has seen where they are now: the full deck less every face-up, discarded or held card."""
    shown = [c for layout in view.layouts for c in layout if c is not None] + list(view.discard)
    if view.held is not None:
        shown.append(view.held)
    return unseen(deck_of(view.players), shown, lambda card: card.index)


def sample_state(view: TrashView, rng: random.Random) -> TrashState:
    """A full state consistent with ``view``: the unseen cards dealt at random to every face-down slot and the
    stock (any seat's view will do, a spectator's too: they are all the same)."""
    pool = unseen_cards(view)
    rng.shuffle(pool)
    n = view.players
    layouts: list[list[Card]] = []
    face_up: list[list[bool]] = []
    for seat in range(n):
        row: list[Card] = []
        for card in view.layouts[seat]:
            row.append(card if card is not None else pool.pop())
        layouts.append(row)
        face_up.append([card is not None for card in view.layouts[seat]])
    options = view.options
    rule = match_rule(options)
    totals = view.totals or tuple(view.sizes if options.match else [0] * n)
    progress = MatchProgress.starting(n, rule, dealer=(view.first - 1) % n, totals=totals)
    progress.round = view.deal
    if view.phase is TrashPhase.OVER:
        progress.over, progress.winners = True, view.winners
    final_left: list[int] = []
    if view.final_round and view.completed and view.to_move is not None:
        start = view.completed[0]
        order = [(start + i) % n for i in range(1, n)]
        final_left = order[order.index(view.to_move) :]
    phase = view.phase if view.phase is not TrashPhase.OVER else TrashPhase.DRAW
    return TrashState(
        players=n,
        options=options,
        rng=random.Random(rng.getrandbits(64)),
        progress=progress,
        sizes=list(view.sizes),
        layouts=layouts,
        face_up=face_up,
        stock=pool,
        discard=list(view.discard),
        held=view.held,
        held_from=view.held_from,
        phase=phase,
        turn=view.to_move if view.to_move is not None else 0,
        first=view.first,
        turns=list(view.turns),
        completed=list(view.completed),
        final_round=view.final_round,
        final_left=final_left,
    )


# ---------------------------------------------------------------------------------------------------------------
# simulate's figures
# ---------------------------------------------------------------------------------------------------------------
class TrashFigures:
    """``parlour simulate`` figures: deals, and per line-up position the deals won (a shared win shared), how often
    it completed, and ``turns_to_complete``: the mean number of its own turns it took, over the deals it completed
    (None if it never did)."""

    column = "deal_win_rate"
    """Always a number (``turns_to_complete`` has none for a seat that never completed)."""

    def __init__(self) -> None:
        self.games = 0
        self.deals = 0
        self.players = 0
        self.deal_wins: dict[int, float] = {}
        self.completions: dict[int, int] = {}
        self.turn_sums: dict[int, int] = {}

    def add(self, state: FinishedMatch, position: Sequence[int]) -> None:
        self.games += 1
        self.players = max(self.players, len(position))
        for event in state.history:
            if isinstance(event, DealOver):
                self.deals += 1
                for seat in event.winners:
                    where = position[seat]
                    self.deal_wins[where] = self.deal_wins.get(where, 0.0) + 1 / len(event.winners)
            elif isinstance(event, Completed):
                where = position[event.seat]
                self.completions[where] = self.completions.get(where, 0) + 1
                self.turn_sums[where] = self.turn_sums.get(where, 0) + event.turn

    def report(self) -> dict[str, object]:
        return {
            "deals": self.deals,
            "deals_per_game": round(self.deals / self.games, 3) if self.games else 0.0,
            "score": "deals won (Match: minus the cards left in the layout)",
            "seats": [
                {
                    "seat": seat,
                    "deals_won": round(self.deal_wins.get(seat, 0.0), 4),
                    "deal_win_rate": round(self.deal_wins.get(seat, 0.0) / self.deals, 4) if self.deals else 0.0,
                    "completed": self.completions.get(seat, 0),
                    "turns_to_complete": round(self.turn_sums[seat] / self.completions[seat], 3)
                    if self.completions.get(seat)
                    else None,
                }
                for seat in range(self.players)
            ],
        }


# ---------------------------------------------------------------------------------------------------------------
# The spec
# ---------------------------------------------------------------------------------------------------------------
class TrashGame(Game[TrashOptions, TrashView, TrashAction]):
    """Trash for 2 to 4 players (two decks shuffled together for 3 or 4)."""

    key = LISTING.key
    name = "Trash"
    min_players = LISTING.players[0]
    default_players = LISTING.players[1]
    max_players = LISTING.players[2]
    view_type = TrashView

    def entries(self) -> tuple[GameEntry, ...]:
        return LISTING.game_entries(self)

    @property
    def presets(self) -> Sequence[Preset]:
        return (Preset("trash", "Trash", "one deal of ten-card layouts; the first to complete wins at once"),)

    @property
    def variants(self) -> Sequence[Variant]:
        return VARIANTS

    def base_options(self, preset: str | None) -> TrashOptions:
        if preset not in (None, "trash"):
            raise OptionError(f"unknown preset {echo(preset)} for Trash (it has none besides the default)")
        return DEFAULT_OPTIONS

    def with_variant(self, options: TrashOptions, key: str) -> TrashOptions:
        if key == "match":
            return replace(options, match=True)
        if key == "last-turn":
            return replace(options, last_turn=True)
        raise OptionError(f"unknown variant {echo(key)}; choose from: {', '.join(v.key for v in VARIANTS)}")

    def new_match(
        self, players: int, options: TrashOptions, rng: random.Random, scenario: Scenario | None = None
    ) -> TrashState:
        """A match; ``scenario`` may choose the first decks (see the module docstring), the first dealer (the seat
        before the first player) and the starting totals: with *Match* the layout sizes, otherwise the deals won
        before this one (the one deal adds 1 for each winner, and the highest total wins: equal starting totals,
        the default 0, leave the deal's winners the match's)."""
        self.check_players(players)
        if not isinstance(options, TrashOptions):
            raise OptionError(f"not Trash options: {echo(options)}")
        scenario = scenario or Scenario()
        planned = check_planned_decks(scenario.decks, deck_of(players))
        dealer = first_dealer(players, scenario.dealer, rng)
        sizes = [options.size] * players
        totals: list[int] | None = None
        if options.match:
            sizes = check_totals(players, scenario.totals, "starting layout sizes", 1, MAX_SIZE) or sizes
        else:
            totals = check_totals(players, scenario.totals, "starting totals (deals won)")
        if options.match:
            totals = list(sizes)
        state = TrashState(
            players=players,
            options=options,
            rng=rng,
            progress=MatchProgress.starting(players, match_rule(options), dealer, totals),
            sizes=sizes,
        )
        state.planned = planned
        state.history.extend(state.start_deal())
        return state

    def deck_for(
        self,
        players: int,
        dealer: int,
        hands: Sequence[Sequence[Card]],
        rest: Sequence[Card] = (),
        sizes: Sequence[int] | None = None,
    ) -> tuple[Card, ...]:
        """A deck order that deals seat ``s`` the layout ``hands[s]`` (slot 1 first; a layout named short is
        filled with cards not named) when the seat after ``dealer`` plays first, then puts ``rest`` on the stock,
        top card first, then every card not named.

        >>> from engine.cards import parse_cards
        >>> order = TrashGame().deck_for(2, 1, [parse_cards("AS 2S"), parse_cards("3H")], parse_cards("KD"))
        >>> [str(c) for c in order[:2]], str(order[10]), str(order[20])
        (['AS', '2S'], '3H', 'KD')
        """
        self.check_players(players)
        check_dealer(players, dealer)
        counts = list(sizes) if sizes is not None else [MAX_SIZE] * players
        return lay_out(players, dealer, hands, rest, deck_of(players), counts, by_round=False)

    def determinize(self, view: TrashView, rng: random.Random) -> TrashState:
        return sample_state(view, rng)

    def rules_summary(self, options: TrashOptions | None = None) -> str:
        return rules_summary(options or DEFAULT_OPTIONS)

    def figures(self) -> Figures:
        return TrashFigures()

    def codec_types(self) -> Sequence[type]:
        return (
            TrashOptions,
            TrashView,
            TrashPhase,
            DiscardReason,
            Draw,
            PlaceKing,
            Swap,
            Keep,
            DealStarted,
            StockShuffled,
            Drew,
            Placed,
            KingPlaced,
            KingReplaced,
            PickedUp,
            Discarded,
            Completed,
            FinalRound,
            DealOver,
        )


def rules_summary(options: TrashOptions) -> str:
    n = options.size
    lines = [
        "# Trash",
        "",
        f"Each player is dealt **{n} cards face down** in two rows: slots **Ace, 2, 3, 4, 5** on top and **6 … 10**",
        "below. Nobody may look at them, the owner included. The rest form the stock. 2 players use one deck;",
        "**3 or 4 players** use **two decks** shuffled together.",
        "",
        "## A turn",
        "- Take the top card of the **stock** or of the **discard pile** (the trash).",
        "- The very first turn can only take from the stock: the discard pile is empty.",
        "- The top of the discard pile may be taken only when it can be placed: a number card whose slot is face",
        "  down or holds a King, or a King while a face-down slot remains. It must then be placed.",
        "- A card **Ace–10** goes face up on **its own slot**; the face-down card there is picked up and played",
        "  the same way, and so on: a **chain**.",
        "- The chain ends when a card cannot be placed: a **Jack** or **Queen**, or a number whose slot is already",
        "  face up. That card is discarded and the turn ends.",
        "- When the stock runs out, the discard pile except its top card is shuffled to form a new stock, before",
        "  the next player chooses where to draw from.",
        "",
        "## Kings are wild",
        "- A **King** goes on any slot that is still face down (your choice), and the card there is picked up.",
        "  A King in hand must be placed while a face-down slot remains.",
        "- A number card whose slot holds a face-up King **may replace the King** (your choice); the King then",
        "  goes on another face-down slot of your choice, picking up the card there. If you keep the King where",
        "  it is, the number card is discarded and the turn ends.",
        "- A card taken from the discard pile must be placed: if it fits only by replacing a King, the swap is",
        "  compulsory. A King can be swapped out only while a face-down slot remains to move it to.",
        "",
        "## Winning",
        "- The first player whose slots are all face up (Kings count) has completed the layout. When that happens",
        "  in the middle of a chain, the card just picked up is discarded and the turn ends.",
        "- Public: the card a player holds during a turn and the whole discard pile. Hidden from everyone, the",
        "  owner included: face-down cards and the order of the stock.",
    ]
    if options.last_turn:
        lines += [
            "- *Last turn*: only the first completion starts the final round: every other player, in turn order",
            "  after the one who completed, plays once more. Everyone who completes shares the win.",
        ]
    else:
        lines.append("- The first to complete wins at once.")
    if options.match:
        lines += [
            "",
            "## The match",
            "- *Match*: deal after deal. Each winner of a deal gets **one card fewer** next deal; the others keep",
            "  theirs. A layout of n cards has slots Ace … n: a number above n has no slot, so it cannot be placed",
            "  (nor taken from the discard pile).",
            "- Each deal is a fresh shuffle with an empty discard pile, and the first player moves one seat on.",
            "- Whoever completes a **one-card layout** wins the match.",
        ]
        if options.last_turn:
            lines.append(
                "- With *Last turn*, every player who completes in the final round wins the deal and loses a card;"
            )
            lines.append("  players who complete one-card layouts together share the match.")
    else:
        lines += ["", "A game is one deal."]
    return "\n".join(lines) + "\n"
