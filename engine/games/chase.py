"""Screw Your Neighbor and Chase the Ace: one game, two presets (RULES.md §1).

Seats are numbered clockwise: the player to the *left* of seat ``s`` is the next seat still in after ``s``.

>>> import random
>>> game = ChaseGame()
>>> state = game.new_match(3, game.options("screw"), random.Random(7))
>>> state.to_move, [str(a) for a in state.legal_actions()]
(2, ['stay', 'trade'])
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from engine.cards import Card, Rank, Suit, standard_deck
from engine.errors import InvalidActionError, OptionError
from engine.events import Event
from engine.game import Game, GameState, MatchResult, Preset, Variant

# Screw Your Neighbor breaks ties by suit: Spades > Hearts > Clubs > Diamonds.
SUIT_ORDER = {Suit.DIAMONDS: 0, Suit.CLUBS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}


class ChaseAction(StrEnum):
    STAY = "stay"
    TRADE = "trade"
    SWAP = "swap"  # Screw Your Neighbor: the dealer swaps with the top card of the deck
    CUT = "cut"  # Chase the Ace: the dealer cuts the pack and must use the card turned up

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ChaseOptions:
    preset: str = "screw"
    lives: int = 3
    on_honour: bool = False
    """After the last token a player plays on, until they must pay again."""
    ties_all_pay: bool = False
    """Chase the Ace: every player tied for the paying card pays. Screw: the suit breaks the tie."""
    kings_face_up: bool = False
    """Chase the Ace: Kings are turned up at the deal. Screw: a King is shown when it blocks a trade."""
    dealer_cuts: bool = False
    """Chase the Ace: the dealer cuts the pack. Screw: the dealer may swap with the top card of the deck."""
    high_card_pays: bool = False

    @property
    def dealer_action(self) -> ChaseAction:
        return ChaseAction.CUT if self.dealer_cuts else ChaseAction.SWAP


PRESET_OPTIONS = {
    "screw": ChaseOptions(preset="screw"),
    "chase": ChaseOptions(preset="chase", on_honour=True, ties_all_pay=True, kings_face_up=True, dealer_cuts=True),
}

PRESETS = (
    Preset("screw", "Screw Your Neighbor", "3 lives; ties broken by suit; a King blocks a trade; dealer may swap"),
    Preset("chase", "Chase the Ace", "3 tokens + a life on honour; tied players all pay; Kings face up; dealer cuts"),
)
VARIANTS = (
    Variant("high-card-pays", "High card pays", "The highest card pays 1 (a King never pays); every Ace pays 2."),
    Variant("on-honour", "On honour", "After the last life a player plays on until they must pay again."),
    Variant("no-honour", "No honour life", "A player is out as soon as the last token is paid."),
)


def card_strength(card: Card, options: ChaseOptions) -> int:
    """Higher is better for the holder when the lowest card pays. The suit counts only where it breaks ties."""
    if options.ties_all_pay:
        return int(card.rank)
    assert card.suit is not None
    return int(card.rank) * 4 + SUIT_ORDER[card.suit]


def payments(cards: dict[int, Card], options: ChaseOptions) -> dict[int, int]:
    """Who pays how many lives at the end of a hand, from the cards the players still in hold.

    >>> from engine.cards import parse_cards
    >>> a, b, c = parse_cards("5S 5D KH")
    >>> payments({0: a, 1: b, 2: c}, PRESET_OPTIONS["screw"])
    {1: 1}
    >>> payments({0: a, 1: b, 2: c}, PRESET_OPTIONS["chase"])
    {0: 1, 1: 1}
    """
    if not cards:
        return {}
    owed: dict[int, int] = {}
    if options.high_card_pays:
        candidates = {s: c for s, c in cards.items() if c.rank is not Rank.KING}
        if candidates:
            top = max(card_strength(c, options) for c in candidates.values())
            for seat, card in candidates.items():
                if card_strength(card, options) == top:
                    owed[seat] = 1
        for seat, card in cards.items():
            if card.rank is Rank.ACE:
                owed[seat] = 2  # an Ace pays 2 in all, even when it is also the highest card that pays
    else:
        low = min(card_strength(c, options) for c in cards.values())
        for seat, card in cards.items():
            if card_strength(card, options) == low:
                owed[seat] = 1
    return dict(sorted(owed.items()))


# ---------------------------------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class HandStarted(Event):
    hand: int
    dealer: int
    seats: tuple[int, ...]
    """The seats still in, in turn order (left of the dealer first, the dealer last)."""


@dataclass(frozen=True, kw_only=True)
class CardDealt(Event):
    seat: int
    card: Card | None

    def redacted(self) -> Event:
        return replace(self, card=None, audience=None)


@dataclass(frozen=True, kw_only=True)
class KingShown(Event):
    seat: int
    card: Card
    blocked: int | None = None
    """The seat whose trade this King blocked (Screw), or ``None`` when Kings are turned up at the deal."""


@dataclass(frozen=True, kw_only=True)
class Stayed(Event):
    seat: int


@dataclass(frozen=True, kw_only=True)
class Traded(Event):
    """``seat`` traded with ``target``: it gave ``gave`` and got ``got``. Only the two of them see the cards."""

    seat: int
    target: int
    gave: Card | None
    got: Card | None

    def redacted(self) -> Event:
        return replace(self, gave=None, got=None, audience=None)


@dataclass(frozen=True, kw_only=True)
class DeckSwapped(Event):
    """The dealer swapped with the top card of the deck (Screw); only the dealer sees the cards."""

    seat: int
    gave: Card | None
    got: Card | None

    def redacted(self) -> Event:
        return replace(self, gave=None, got=None, audience=None)


@dataclass(frozen=True, kw_only=True)
class PackCut(Event):
    """The dealer cut the pack (Chase); the card turned up is seen by all and is now the dealer's."""

    seat: int
    got: Card


@dataclass(frozen=True, kw_only=True)
class Revealed(Event):
    cards: tuple[tuple[int, Card], ...]


@dataclass(frozen=True, kw_only=True)
class Paid(Event):
    seat: int
    amount: int
    card: Card
    reason: str
    lives_left: int
    """Lives left after paying, the life on honour included."""


@dataclass(frozen=True, kw_only=True)
class HandVoid(Event):
    """Every player still in would be out: nobody pays and the hand is dealt again."""

    would_pay: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class Eliminated(Event):
    seat: int


@dataclass(frozen=True, kw_only=True)
class DealerMoved(Event):
    dealer: int


@dataclass(frozen=True, kw_only=True)
class MatchOver(Event):
    winner: int
    pot: int


# ---------------------------------------------------------------------------------------------------------------
# What a seat knows
# ---------------------------------------------------------------------------------------------------------------
@dataclass
class Knowledge:
    """What one seat knows about the cards in play this hand (it follows the cards through public trades)."""

    known: dict[int, Card] = field(default_factory=dict)
    """Seat -> the card that seat holds now."""
    not_king: set[int] = field(default_factory=set)
    """Seats known to hold no King."""
    gone: set[Card] = field(default_factory=set)
    """Cards known to be out of play this hand (a dealer's swapped or cut-away card)."""


@dataclass(frozen=True)
class ChaseView:
    """Everything one seat may know. Built by :meth:`ChaseState.view`; holds no card the seat may not see."""

    seat: int | None
    players: int
    options: ChaseOptions
    hand: int
    dealer: int
    lives: tuple[int, ...]
    """Lives left per seat, the life on honour included (0: out)."""
    pot: int
    order: tuple[int, ...]
    turn: int
    to_move: int | None
    acted: tuple[str | None, ...]
    """What each seat did this hand, in words ("stayed", "traded", ...), or None."""
    known: tuple[tuple[int, Card], ...]
    """Cards this seat knows the holder of now: its own, Kings shown, cards it traded."""
    not_king: frozenset[int]
    gone: frozenset[Card]
    legal: tuple[ChaseAction, ...]
    winner: int | None

    @property
    def my_card(self) -> Card | None:
        return dict(self.known).get(self.seat) if self.seat is not None else None

    def tokens(self, seat: int) -> int:
        """Tokens (or lives) shown for a seat; the life on honour is not a token."""
        return max(0, self.lives[seat] - (1 if self.options.on_honour else 0))

    def on_honour(self, seat: int) -> bool:
        return self.options.on_honour and self.lives[seat] == 1

    def alive(self, seat: int) -> bool:
        return self.lives[seat] > 0

    def left_of(self, seat: int) -> int:
        return left_of(seat, self.lives)


def left_of(seat: int, lives: Sequence[int]) -> int:
    n = len(lives)
    for step in range(1, n + 1):
        other = (seat + step) % n
        if lives[other] > 0:
            return other
    return seat


# ---------------------------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------------------------
@dataclass
class ChaseState(GameState):
    options: ChaseOptions = field(default_factory=ChaseOptions)
    rng: random.Random = field(default_factory=random.Random)
    lives: list[int] = field(default_factory=list)
    pot: int = 0
    dealer: int = 0
    hand: int = 0
    cards: list[Card | None] = field(default_factory=list)
    deck: list[Card] = field(default_factory=list)
    order: tuple[int, ...] = ()
    turn: int = 0
    acted: list[str | None] = field(default_factory=list)
    knowledge: list[Knowledge] = field(default_factory=list)
    winner: int | None = None
    out_order: list[int] = field(default_factory=list)
    """Hand number at which each seat went out (0 while in); decides placings."""

    # -- the match -------------------------------------------------------------------------------------------
    def start_hand(self) -> list[Event]:
        """Shuffle, deal one card to each seat still in from the dealer's left, show Kings where the rules say."""
        self.hand += 1
        deck = standard_deck()
        self.rng.shuffle(deck)
        seats = [s for s in range(self.players) if self.lives[s] > 0]
        first = left_of(self.dealer, self.lives)
        start = seats.index(first)
        self.order = tuple(seats[start:] + seats[:start])
        self.turn = 0
        self.cards = [None] * self.players
        self.acted = [None] * self.players
        for seat in self.order:
            self.cards[seat] = deck.pop()
        self.deck = deck
        events: list[Event] = [HandStarted(hand=self.hand, dealer=self.dealer, seats=self.order)]
        # One entry per seat, and a last one for a spectator (who only ever learns what is public).
        self.knowledge = [Knowledge() for _ in range(self.players + 1)]
        for seat in self.order:
            card = self._card(seat)
            self.knowledge[seat].known[seat] = card
            events.append(CardDealt(seat=seat, card=card, audience=frozenset({seat})))
        if self.options.kings_face_up:
            for seat in self.order:
                card = self._card(seat)
                if card.rank is Rank.KING:
                    events.append(KingShown(seat=seat, card=card))
                    for k in self.knowledge:
                        k.known[seat] = card
            for k in self.knowledge:
                k.not_king.update(s for s in self.order if self._card(s).rank is not Rank.KING)
        return events

    def _card(self, seat: int) -> Card:
        card = self.cards[seat]
        assert card is not None, f"seat {seat} holds no card"
        return card

    @property
    def to_move(self) -> int | None:
        if self.winner is not None:
            return None
        return self.order[self.turn]

    def legal_actions(self) -> list[ChaseAction]:
        seat = self.to_move
        if seat is None:
            return []
        return _legal(seat, self.dealer, self._card(seat), self.lives, self.options, self._shown_king_left(seat))

    def _shown_king_left(self, seat: int) -> bool:
        left = left_of(seat, self.lives)
        card = self.knowledge[seat].known.get(left)
        return self.options.kings_face_up and card is not None and card.rank is Rank.KING

    def parse_action(self, text: str) -> ChaseAction:
        return parse_action(text)

    def _apply(self, action: ChaseAction) -> list[Event]:
        action = ChaseAction(action)  # "stay" passed the check as equal to ChaseAction.STAY; act on the member
        seat = self.order[self.turn]
        events: list[Event]
        if action is ChaseAction.STAY:
            self.acted[seat] = "stayed"
            events = [Stayed(seat=seat)]
        elif action is ChaseAction.TRADE:
            events = self._trade(seat)
        else:
            events = self._deck_card(seat, action)
        self.turn += 1
        if self.turn == len(self.order):
            events.extend(self._end_hand())
        return events

    def _trade(self, seat: int) -> list[Event]:
        target = left_of(seat, self.lives)
        mine, theirs = self._card(seat), self._card(target)
        if theirs.rank is Rank.KING:
            # Only in Screw Your Neighbor can this happen: the King was hidden until it blocked the trade.
            self.acted[seat] = "blocked"
            self.acted[target] = "showed a King"
            for k in self.knowledge:
                k.known[target] = theirs
            return [KingShown(seat=target, card=theirs, blocked=seat)]
        self.cards[seat], self.cards[target] = theirs, mine
        self.acted[seat] = "traded"
        if self.acted[target] is None:
            self.acted[target] = "was traded with"
        for observer, k in enumerate(self.knowledge):
            if observer in (seat, target):
                k.known[seat], k.known[target] = theirs, mine
            else:
                a, b = k.known.pop(seat, None), k.known.pop(target, None)
                if a is not None:
                    k.known[target] = a
                if b is not None:
                    k.known[seat] = b
            # The trader held no King (a King holder must stay) and the target's card did not block: neither
            # card that changed hands is a King.
            k.not_king.update((seat, target))
        return [Traded(seat=seat, target=target, gave=mine, got=theirs, audience=frozenset({seat, target}))]

    def _deck_card(self, seat: int, action: ChaseAction) -> list[Event]:
        old = self._card(seat)
        if action is ChaseAction.CUT:
            new = self.deck.pop(self.rng.randrange(len(self.deck)))
        else:
            new = self.deck.pop()
        self.cards[seat] = new
        for observer, k in enumerate(self.knowledge):
            if k.known.get(seat) == old:
                k.gone.add(old)
            if observer == seat or action is ChaseAction.CUT:
                k.known[seat] = new
                if new.rank is Rank.KING:
                    k.not_king.discard(seat)
                else:
                    k.not_king.add(seat)
            else:
                k.known.pop(seat, None)
                k.not_king.discard(seat)
        if action is ChaseAction.CUT:
            self.acted[seat] = "cut the pack"
            return [PackCut(seat=seat, got=new)]
        self.acted[seat] = "swapped with the deck"
        return [DeckSwapped(seat=seat, gave=old, got=new, audience=frozenset({seat}))]

    def _end_hand(self) -> list[Event]:
        held = {s: self._card(s) for s in self.order}
        events: list[Event] = [Revealed(cards=tuple(held.items()))]
        owed = payments(held, self.options)
        if owed and all(self.lives[s] - owed.get(s, 0) <= 0 for s in self.order):
            events.append(HandVoid(would_pay=tuple(owed)))
            events.extend(self.start_hand())
            return events
        honour = 1 if self.options.on_honour else 0
        for seat, amount in owed.items():
            paid = min(amount, self.lives[seat])
            # Only tokens go into the pot: a player on honour has none left to pay with.
            self.pot += min(paid, max(0, self.lives[seat] - honour))
            self.lives[seat] -= paid
            events.append(
                Paid(
                    seat=seat,
                    amount=paid,
                    card=held[seat],
                    reason=_pay_reason(held[seat], self.options),
                    lives_left=self.lives[seat],
                )
            )
        for seat in owed:
            if self.lives[seat] <= 0:
                self.out_order[seat] = self.hand
                events.append(Eliminated(seat=seat))
        alive = [s for s in range(self.players) if self.lives[s] > 0]
        if len(alive) == 1:
            self.winner = alive[0]
            events.append(MatchOver(winner=self.winner, pot=self.pot))
            return events
        self.dealer = left_of(self.dealer, self.lives)
        events.append(DealerMoved(dealer=self.dealer))
        events.extend(self.start_hand())
        return events

    # -- views -----------------------------------------------------------------------------------------------
    def view(self, seat: int | None) -> ChaseView:
        k = self.knowledge[self.players if seat is None else seat]
        known, not_king, gone = dict(k.known), frozenset(k.not_king), frozenset(k.gone)
        return ChaseView(
            seat=seat,
            players=self.players,
            options=self.options,
            hand=self.hand,
            dealer=self.dealer,
            lives=tuple(self.lives),
            pot=self.pot,
            order=self.order,
            turn=self.turn,
            to_move=self.to_move,
            acted=tuple(self.acted),
            known=tuple(sorted(known.items())),
            not_king=not_king,
            gone=gone,
            legal=tuple(self.legal_actions()) if seat is not None and seat == self.to_move else (),
            winner=self.winner,
        )

    def determinize(self, seat: int, rng: random.Random) -> ChaseState:
        return sample_state(self.view(seat), rng)

    def clone(self) -> ChaseState:
        return copy.deepcopy(self)

    @property
    def result(self) -> MatchResult | None:
        if self.winner is None:
            return None
        # Score: how many opponents a seat outlasted (players out in the same hand share a place).
        went_out = [hand or self.hand + 1 for hand in self.out_order]
        scores = [float(sum(1 for other in went_out if other < mine)) for mine in went_out]
        return MatchResult(winners=(self.winner,), scores=tuple(scores))


def _legal(
    seat: int, dealer: int, card: Card, lives: Sequence[int], options: ChaseOptions, king_shown_left: bool
) -> list[ChaseAction]:
    if card.rank is Rank.KING:
        return [ChaseAction.STAY]
    if seat == dealer:
        return [ChaseAction.STAY, options.dealer_action]
    if king_shown_left:
        return [ChaseAction.STAY]
    return [ChaseAction.STAY, ChaseAction.TRADE]


def _pay_reason(card: Card, options: ChaseOptions) -> str:
    if options.high_card_pays:
        return "an Ace pays 2" if card.rank is Rank.ACE else "the highest card pays"
    return "the lowest card pays"


def parse_action(text: str) -> ChaseAction:
    word = text.strip().lower()
    aliases = {"s": "stay", "t": "trade", "keep": "stay", "pass": "stay", "exchange": "trade", "deck": "swap"}
    try:
        return ChaseAction(aliases.get(word, word))
    except ValueError:
        raise InvalidActionError(f"not an action: {text!r} (stay, trade, swap or cut)") from None


def sample_state(view: ChaseView, rng: random.Random) -> ChaseState:
    """A full state consistent with ``view``: every card the view does not show is dealt at random from the cards
    the seat has not seen, Kings kept away from seats known to hold none."""
    if view.seat is None:
        raise ValueError("a spectator's view cannot be determinized")
    known = dict(view.known)
    seen = set(known.values()) | set(view.gone)
    pool = [c for c in standard_deck() if c not in seen]
    rng.shuffle(pool)
    cards: list[Card | None] = [None] * view.players
    cards_known = dict(known)
    hidden = [s for s in view.order if s not in known]
    # Seats known to hold no King first, from the non-Kings, then the rest.
    hidden.sort(key=lambda s: s not in view.not_king)
    for seat in hidden:
        if seat in view.not_king:
            index = next(i for i, c in enumerate(pool) if c.rank is not Rank.KING)
        else:
            index = 0
        cards_known[seat] = pool.pop(index)
    for seat in view.order:
        cards[seat] = cards_known[seat]
    state = ChaseState(
        players=view.players,
        options=view.options,
        rng=random.Random(rng.getrandbits(64)),
        lives=list(view.lives),
        pot=view.pot,
        dealer=view.dealer,
        hand=view.hand,
        cards=cards,
        deck=pool,
        order=view.order,
        turn=view.turn,
        acted=list(view.acted),
        winner=view.winner,
        out_order=[0] * view.players,
    )
    # In the sample every seat knows what the viewer knows, plus its own card.
    state.knowledge = []
    for seat in range(view.players + 1):
        k = Knowledge(known=dict(known), not_king=set(view.not_king), gone=set(view.gone))
        if seat < view.players and cards[seat] is not None:
            k.known[seat] = cards[seat]  # type: ignore[assignment]
        state.knowledge.append(k)
    return state


class ChaseGame(Game[ChaseOptions]):
    key = "chase"
    name = "Screw Your Neighbor / Chase the Ace"
    aliases = ("screw", "screw-your-neighbor", "chase-the-ace", "syn", "cta")
    min_players = 2
    max_players = 10
    default_players = 5

    @property
    def presets(self) -> Sequence[Preset]:
        return PRESETS

    @property
    def variants(self) -> Sequence[Variant]:
        return VARIANTS

    def options(self, preset: str | None = None, variants: Sequence[str] = ()) -> ChaseOptions:
        preset = (preset or "screw").lower()
        if preset not in PRESET_OPTIONS:
            raise OptionError(f"unknown preset {preset!r}; choose one of: {', '.join(PRESET_OPTIONS)}")
        options = PRESET_OPTIONS[preset]
        for key in variants:
            key = key.lower()
            if key == "high-card-pays":
                options = replace(options, high_card_pays=True)
            elif key == "on-honour":
                options = replace(options, on_honour=True)
            elif key == "no-honour":
                options = replace(options, on_honour=False)
            else:
                known = ", ".join(v.key for v in VARIANTS)
                raise OptionError(f"unknown variant {key!r}; choose from: {known}")
        return options

    def new_match(self, players: int, options: ChaseOptions, rng: random.Random) -> ChaseState:
        self.check_players(players)
        lives = options.lives + (1 if options.on_honour else 0)
        state = ChaseState(
            players=players,
            options=options,
            rng=rng,
            lives=[lives] * players,
            dealer=rng.randrange(players),
            out_order=[0] * players,
        )
        state.history.extend(state.start_hand())
        return state

    def determinize(self, view: ChaseView, rng: random.Random) -> ChaseState:  # type: ignore[override]
        return sample_state(view, rng)

    def rules_summary(self, options: ChaseOptions | None = None) -> str:
        return rules_summary(options or PRESET_OPTIONS["screw"])


def rules_summary(options: ChaseOptions) -> str:
    chase = options.preset == "chase"
    title = "Chase the Ace" if chase else "Screw Your Neighbor"
    life, lives = ("token", "tokens") if chase else ("life", "lives")
    lines = [
        f"# {title}",
        "",
        f"Every player starts with **{options.lives} {lives}** and is dealt **one card**. Ace is low, King is high.",
        "",
        "## A hand",
        "- Starting left of the dealer and going clockwise, each player **stays** or **trades** with the player to",
        "  their left, who must accept. Nobody trades back.",
        "- Both players in a trade see both cards; nobody else does.",
    ]
    if options.kings_face_up:
        lines += [
            "- A **King** is turned face up at the deal. Its holder must stay, and the player to its right may not",
            "  trade into it.",
        ]
    else:
        lines += [
            "- A **King** holder must stay. A trade into a King is **blocked**, and the King is shown.",
        ]
    if options.dealer_cuts:
        lines.append("- The **dealer** goes last: stay, or **cut** the pack and use the card turned up (even a King).")
    else:
        lines.append("- The **dealer** goes last: stay, or **swap** with the top card of the deck (even a King).")
    lines += ["", "## Who pays"]
    if options.high_card_pays:
        lines += [
            "- *High card pays*: the **highest** card pays 1. A King never pays, so a Queen is the highest that can.",
            "- Every **Ace** pays 2 (an Ace that is also the highest card pays 2 in all).",
        ]
    else:
        lines.append("- The **lowest** card pays 1.")
    if options.ties_all_pay:
        lines.append("- Ties: **every** tied player pays.")
    else:
        lines.append("- Ties are broken by suit, **♠ > ♥ > ♣ > ♦**: exactly one player pays.")
    lines.append("- If a hand would knock out every player still in, nobody pays and the hand is dealt again.")
    lines += ["", "## The match"]
    if options.on_honour:
        lines.append(f"- After the last {life} a player plays **on honour** until they must pay again, then is out.")
    else:
        lines.append(f"- A player with no {life} left is out.")
    lines.append("- The dealer button moves one seat to the left after every hand, skipping players who are out.")
    lines.append(f"- The last player with a {life} left wins" + (" and takes the pot." if chase else "."))
    return "\n".join(lines) + "\n"
