"""describe(): every event in plain words, as the seat watching may see it."""

from __future__ import annotations

from engine.cards import Card
from engine.events import Event
from engine.games.chase.rules import (
    PRESET_OPTIONS,
    Acted,
    CardDealt,
    DeckSwapped,
    Eliminated,
    HandVoid,
    KingShown,
    PackCut,
    Paid,
    PayReason,
    Revealed,
    Stayed,
    Traded,
)
from engine.match import MatchOver, RoundOver, RoundStarted
from tui.games.chase.words import ACTED_TEXT, PAY_REASON_TEXT, acted_text, describe

NAMES = ("You", "Ana", "Ben", "Cleo", "Dev")
ME = 0
CHASE = PRESET_OPTIONS["chase"]
SCREW = PRESET_OPTIONS["screw"]


def c(text: str) -> Card:
    return Card.parse(text)


def seen(event: Event, seat: int = ME) -> Event:
    """The event as ``seat`` receives it (redacted when it is not in the audience)."""
    out = event.for_seat(seat)
    assert out is not None
    return out


def test_hand_started() -> None:
    assert describe(RoundStarted(round=3, dealer=1, seats=(2, 3, 4, 0, 1)), NAMES, ME) == "Hand 3 — Ana deals"
    assert describe(RoundStarted(round=1, dealer=0, seats=(1, 2, 0)), NAMES, ME) == "Hand 1 — you deal"


def test_card_dealt_only_mine() -> None:
    mine = CardDealt(seat=0, card=c("7C"), audience=frozenset({0}))
    assert describe(seen(mine), NAMES, ME) == "You were dealt 7♣"
    theirs = CardDealt(seat=2, card=c("KH"), audience=frozenset({2}))
    redacted = seen(theirs)
    assert isinstance(redacted, CardDealt) and redacted.card is None
    assert describe(redacted, NAMES, ME) is None


def test_trade_with_me_shows_both_cards() -> None:
    event = Traded(seat=1, target=0, gave=c("2D"), got=c("7C"), audience=frozenset({1, 0}))
    assert describe(seen(event), NAMES, ME) == "Ana traded with you: you gave 7♣ and got 2♦"
    mine = Traded(seat=0, target=1, gave=c("7C"), got=c("2D"), audience=frozenset({0, 1}))
    assert describe(seen(mine), NAMES, ME) == "You traded with Ana: you gave 7♣ and got 2♦"


def test_trade_between_others_is_redacted() -> None:
    event = Traded(seat=2, target=3, gave=c("QS"), got=c("3H"), audience=frozenset({2, 3}))
    text = describe(seen(event), NAMES, ME)
    assert text == "Ben traded with Cleo"
    assert "Q♠" not in text and "3♥" not in text


def test_stay_king_and_block() -> None:
    assert describe(Stayed(seat=3), NAMES, ME) == "Cleo stayed"
    assert describe(Stayed(seat=0), NAMES, ME) == "You stayed"
    assert describe(KingShown(seat=4, card=c("KS"), blocked=2), NAMES, ME) == "Dev's K♠ blocked Ben's trade"
    assert describe(KingShown(seat=1, card=c("KS"), blocked=0), NAMES, ME) == "Ana's K♠ blocked your trade"
    assert describe(KingShown(seat=4, card=c("KH")), NAMES, ME) == "Dev's K♥ is turned face up"


def test_dealer_deck_cards() -> None:
    assert describe(PackCut(seat=4, got=c("9H")), NAMES, ME) == "Dev (dealer) cut the pack: 9♥"
    assert describe(PackCut(seat=0, got=c("9H")), NAMES, ME) == "You cut the pack: 9♥"
    swap = DeckSwapped(seat=3, gave=c("5D"), got=c("JC"), audience=frozenset({3}))
    text = describe(seen(swap), NAMES, ME)
    assert text == "Cleo (dealer) swapped with the deck"
    mine = DeckSwapped(seat=0, gave=c("5D"), got=c("JC"), audience=frozenset({0}))
    assert describe(seen(mine), NAMES, ME) == "You swapped with the deck: you gave 5♦ and got J♣"


def test_reveal_and_paying() -> None:
    reveal = Revealed(cards=((1, c("2D")), (2, c("KS")), (0, c("7C"))))
    assert describe(reveal, NAMES, ME) == "Cards up: Ana 2♦, Ben K♠, you 7♣"
    paid = Paid(seat=2, amount=1, card=c("2D"), reason=PayReason.LOWEST, lives_left=1)
    assert describe(paid, NAMES, ME, SCREW) == "Ben pays 1 (the lowest card pays: 2♦) — 1 left"
    # Chase the Ace: the last life is the one on honour.
    assert describe(paid, NAMES, ME, CHASE) == "Ben pays 1 (the lowest card pays: 2♦) — now on honour"
    mine = Paid(seat=0, amount=2, card=c("AH"), reason=PayReason.ACE, lives_left=0)
    assert describe(mine, NAMES, ME, SCREW) == "You pay 2 (an Ace pays 2: A♥) — out"
    high = Paid(seat=3, amount=1, card=c("QD"), reason=PayReason.HIGHEST, lives_left=3)
    assert describe(high, NAMES, ME, SCREW) == "Cleo pays 1 (the highest card pays: Q♦) — 3 left"
    assert set(PAY_REASON_TEXT) == set(PayReason)


def test_void_out_dealer_and_match() -> None:
    assert "nobody pays" in (describe(HandVoid(would_pay=(1, 2)), NAMES, ME) or "")
    assert describe(Eliminated(seat=3), NAMES, ME) == "Cleo is out"
    assert describe(Eliminated(seat=0), NAMES, ME) == "You are out"
    over = RoundOver(round=4, winners=(), deltas=(0, -1, 0, 0, 0), totals=(2, 0, 1, 3, 1), last=False)
    assert describe(over, NAMES, ME) is None, "the lines before it say how the hand went"
    won = MatchOver(winners=(1,), totals=(0, 2, 0, 0, 0))
    assert describe(won, NAMES, ME, SCREW, pot=7) == "Ana wins the match"
    assert describe(won, NAMES, ME, CHASE, pot=7) == "Ana wins the match and the pot of 7"
    assert describe(won, NAMES, ME, CHASE) == "Ana wins the match"
    assert describe(MatchOver(winners=(0,), totals=(1, 0, 0, 0, 0)), NAMES, ME, pot=0) == "You win the match"


def test_what_a_seat_did() -> None:
    assert [acted_text(a) for a in Acted] == [
        "stayed",
        "traded",
        "was traded with",
        "blocked",
        "showed a King",
        "swapped with the deck",
        "cut the pack",
    ]
    assert acted_text(None) is None and set(ACTED_TEXT) == set(Acted)


def test_unknown_event_has_no_line() -> None:
    assert describe(Event(), NAMES, ME) is None
