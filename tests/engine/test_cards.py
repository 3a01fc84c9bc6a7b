"""Card text (RULES.md, "Card text used everywhere"): ranks A 2 .. 10 J Q K (T accepted for 10), suits S H D C
(♠ ♥ ♦ ♣ accepted on input), jokers have their own token."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import JOKER, Card, Rank, Suit, deck, is_conserved, parse_cards, sort_key, standard_deck
from engine.errors import InvalidActionError

ALL_CARDS = [*standard_deck(), JOKER]


@pytest.mark.parametrize("c", ALL_CARDS, ids=str)
def test_text_round_trip(c: Card) -> None:
    assert Card.parse(str(c)) == c


def test_text_of_each_rank_and_suit() -> None:
    ranks = [str(Card(r, Suit.SPADES))[:-1] for r in Rank if r is not Rank.JOKER]
    assert ranks == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert [str(Card(Rank.ACE, s))[-1] for s in Suit] == ["S", "H", "D", "C"]
    assert str(JOKER) == "JK"


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        pytest.param("TH", Rank.TEN, Suit.HEARTS, id="T-for-ten"),
        pytest.param("th", Rank.TEN, Suit.HEARTS, id="t-lower-case"),
        pytest.param("10h", Rank.TEN, Suit.HEARTS, id="10-lower-suit"),
        pytest.param("qs", Rank.QUEEN, Suit.SPADES, id="lower-case"),
        pytest.param("a♠", Rank.ACE, Suit.SPADES, id="spade-symbol"),
        pytest.param("K♥", Rank.KING, Suit.HEARTS, id="heart-symbol"),
        pytest.param("7♦", Rank.SEVEN, Suit.DIAMONDS, id="diamond-symbol"),
        pytest.param("J♣", Rank.JACK, Suit.CLUBS, id="club-symbol"),
        pytest.param("T♣", Rank.TEN, Suit.CLUBS, id="T-with-symbol"),
        pytest.param(" 2d ", Rank.TWO, Suit.DIAMONDS, id="surrounding-spaces"),
    ],
)
def test_accepted_input(text: str, rank: Rank, suit: Suit) -> None:
    assert Card.parse(text) == Card(rank, suit)


def test_joker_tokens() -> None:
    assert Card.parse("JK") == JOKER
    assert Card.parse("jk") == JOKER
    assert JOKER.suit is None


@pytest.mark.parametrize("text", ["1H", "11S", "ZZ", "", "10X", "H", "10", "KK", "0S", "1OS", "AHS", "♠", "J K"])
def test_bad_text_raises(text: str) -> None:
    with pytest.raises(InvalidActionError):
        Card.parse(text)


def test_pretty_uses_symbols() -> None:
    assert Card.parse("10H").pretty() == "10♥"
    assert Card.parse("AS").pretty() == "A♠"


def test_parse_cards() -> None:
    assert parse_cards("3D 10S AH") == [Card(Rank.THREE, Suit.DIAMONDS), Card(Rank.TEN, Suit.SPADES), Card.parse("AH")]
    assert parse_cards("3d,TS  a♥") == parse_cards("3D 10S AH")
    assert parse_cards("") == []
    with pytest.raises(InvalidActionError):
        parse_cards("3D 1S")


def test_standard_deck() -> None:
    deck = standard_deck()
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert JOKER not in deck
    assert {c.suit for c in deck} == set(Suit)
    for suit in Suit:
        assert sorted(c.rank for c in deck if c.suit is suit) == [r for r in Rank if r is not Rank.JOKER]
    assert sorted(c.index for c in deck) == list(range(52))
    assert standard_deck(jokers=2)[-2:] == [JOKER, JOKER]


def test_two_decks_and_four_jokers_as_a_multiset() -> None:
    """Several decks and jokers: every copy survives in a sequence, and conservation is checked as a multiset."""
    cards = deck(decks=2, jokers=4)
    counts = Counter(cards)
    assert len(cards) == 108
    assert counts[JOKER] == 4 and sum(1 for c in cards if c == JOKER) == 4
    assert all(counts[c] == 2 for c in standard_deck())
    assert len(counts) == 53, "52 distinct values and the joker"
    assert deck() == standard_deck() and deck(decks=0, jokers=2) == [JOKER, JOKER]
    # Sorting and splitting keep the duplicates (a set would collapse them).
    ordered = sorted(cards, key=sort_key)
    assert ordered[:4] == [JOKER] * 4 and Counter(ordered) == counts
    places = [cards[:30], cards[30:31], cards[31:]]
    assert is_conserved(places, cards)
    assert not is_conserved([cards[:30], cards[31:]], cards), "a card missing"
    assert not is_conserved([cards, [JOKER]], cards), "a fifth joker"
    assert not is_conserved([cards[:54], cards[:54]], cards), "the first deck twice, the second not at all"
    assert not is_conserved([list(set(cards))], cards), "copies collapsed by a set"


def test_sort_key_orders_by_rank_then_suit() -> None:
    assert [str(c) for c in sorted(parse_cards("KS AH 10C JK 2D AS"), key=sort_key)] == [
        "JK",
        "AH",
        "AS",
        "2D",
        "10C",
        "KS",
    ]


@pytest.mark.parametrize("garbage", [None, 5, b"3D", ["3D"]])
def test_parse_refuses_what_is_not_text(garbage: object) -> None:
    with pytest.raises(InvalidActionError):
        Card.parse(garbage)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        parse_cards(garbage)  # type: ignore[arg-type]


def test_bad_card_message_is_capped() -> None:
    with pytest.raises(InvalidActionError) as refused:
        Card.parse("x" * 100_000)
    assert len(str(refused.value)) < 300
