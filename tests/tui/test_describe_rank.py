"""Rank's words: the event log's lines as each seat reads them, the Joker's two events made one line, the turn
line's "what you may do", and names kept as typed."""

from __future__ import annotations

from engine.cards import JOKER, Card, Rank
from engine.games.rank.rules import (
    DRAW,
    PASS,
    CameBack,
    DealOver,
    DealStarted,
    Drew,
    Named,
    OutForGood,
    Passed,
    Play,
    Played,
    PlayKind,
    RankPhase,
    RankView,
    StockShuffled,
    WentOut,
)
from engine.match import MatchOver
from tui.games.rank.words import RankNarrator, a_rank, describe_rank, options_text, ordinal, top_text

NAMES = ("You", "Ben", "Cleo", "Dev")


def card(text: str) -> Card:
    return Card.parse(text)


def view(rank: Rank, *, top: Card | None = None, phase: RankPhase = RankPhase.PLAY) -> RankView:
    shown = top or Card(rank, card("5S").suit)
    return RankView(
        seat=0,
        players=4,
        deal=1,
        deals=5,
        dealer=3,
        hand=(),
        counts=(5, 5, 5, 5),
        top=shown,
        named=rank if shown == JOKER else None,
        rank=rank,
        pile=1,
        stock=30,
        to_move=0,
        phase=phase,
        pending=None,
        out=(),
        penalties=(0, 0, 0, 0),
        winners=(),
    )


def test_plays_in_words_for_you_and_for_others() -> None:
    normal = Played(seat=1, card=card("6C"), kind=PlayKind.NORMAL, left=4)
    assert describe_rank(normal, NAMES, 0) == "Ben plays the 6♣"
    assert describe_rank(normal, NAMES, 1) == "You play the 6♣"
    ace = Played(seat=2, card=card("AH"), kind=PlayKind.ACE, left=3)
    assert describe_rank(ace, NAMES, 0) == "Cleo plays the A♥ as an escape"
    follow = Played(seat=0, card=card("5C"), kind=PlayKind.FOLLOW, left=2)
    assert describe_rank(follow, NAMES, 0) == "You add the 5♣"
    drawn = Played(seat=3, card=card("7D"), kind=PlayKind.DRAWN, left=5)
    assert describe_rank(drawn, NAMES, 0) == "Dev plays the drawn 7♦ at once"


def test_a_draw_shows_its_card_only_to_the_drawer() -> None:
    assert describe_rank(Drew(seat=0, card=card("9S")), NAMES, 0) == "You draw the 9♠"
    assert describe_rank(Drew(seat=1, card=None), NAMES, 0) == "Ben draws a card"


def test_going_out_coming_back_and_the_deal_lost() -> None:
    assert describe_rank(CameBack(seat=2, cards=None, count=2), NAMES, 0) == "Cleo is back with two cards"
    mine = CameBack(seat=0, cards=(card("4S"), card("9H")), count=2)
    assert describe_rank(mine, NAMES, 0) == "You are back with two cards: 4♠ 9♥"
    assert describe_rank(CameBack(seat=2, cards=None, count=1), NAMES, 0) == "Cleo is back with one card"
    assert describe_rank(OutForGood(seat=2, place=2), NAMES, 0) == "Cleo is out (2nd)"
    assert describe_rank(OutForGood(seat=0, place=1), NAMES, 0) == "You are out (1st)"
    over = DealOver(loser=3, penalties=(0, 0, 0, 1), hands=((), (), (), (card("KD"),)))
    assert describe_rank(over, NAMES, 0) == "Dev loses the deal: 1 penalty point"
    again = DealOver(loser=0, penalties=(3, 0, 0, 1), hands=((card("KD"),), (), (), ()))
    assert describe_rank(again, NAMES, 0) == "You lose the deal: 1 penalty point (3 in all)"
    assert describe_rank(StockShuffled(cards=12), NAMES, 0) == (
        "The pile but its top card is shuffled into a new stock (12 cards)"
    )
    match = MatchOver(winners=(1, 2), totals=(2, 0, 0, 3))
    assert describe_rank(match, NAMES, 0) == "Ben and Cleo win the match with 0 penalty points each"


def test_the_narrator_joins_a_joker_and_its_rank_and_says_who_is_waited_on() -> None:
    n = RankNarrator(NAMES, 0)
    assert n.feed(DealStarted(deal=1, dealer=3, first=0, counts=(5, 5, 5, 5))) == ["You start"]
    assert n.feed(Played(seat=1, card=JOKER, kind=PlayKind.JOKER, left=4)) == []
    assert n.feed(Named(seat=1, rank=Rank.SIX)) == ["Ben plays a Joker and names 6"]
    assert n.feed(Passed(seat=1)) == ["Ben adds no card"]
    # Cleo plays her last card; Dev is the next holding cards.
    n.counts[2] = 1
    assert n.feed(Played(seat=2, card=card("7C"), kind=PlayKind.NORMAL, left=0)) == ["Cleo plays the 7♣"]
    assert n.feed(WentOut(seat=2)) == ["Cleo played the last card: waiting on Dev"]
    # Dev answers with a Joker: Cleo comes back before the rank is named; the lines keep the table's sense.
    assert n.feed(Played(seat=3, card=JOKER, kind=PlayKind.JOKER, left=4)) == []
    assert n.feed(CameBack(seat=2, cards=None, count=2)) == []
    lines = n.feed(Named(seat=3, rank=Rank.QUEEN))
    assert lines == ["Dev plays a Joker and names Queen", "Cleo is back with two cards"]


def test_a_joker_being_named_is_written_alone_and_its_rank_after() -> None:
    n = RankNarrator(NAMES, 0)
    n.feed(Played(seat=0, card=JOKER, kind=PlayKind.JOKER, left=3))
    assert n.flush() == ["You play a Joker"]
    assert n.feed(Named(seat=0, rank=Rank.TEN)) == ["You name 10"]


def test_what_you_may_do() -> None:
    assert options_text(view(Rank.SIX), [Play(card("5S")), Play(card("7H"))]) == "play a 5 or a 7"
    assert options_text(view(Rank.SEVEN), [Play(card("8S"))]) == "play a 6 or an 8"
    assert options_text(view(Rank.KING), [Play(card("QS"))]) == "play a Queen or an Ace"
    assert options_text(view(Rank.FIVE), [Play(card("AS")), Play(JOKER), DRAW]) == (
        "no normal play: an Ace, a Joker or draw (d)"
    )
    assert options_text(view(Rank.TWO), [DRAW]) == "no normal play: draw (d)"
    assert options_text(view(Rank.TWO), [PASS]) == "nothing to play and nothing to draw: pass (x)"
    follow = view(Rank.SIX, top=JOKER, phase=RankPhase.FOLLOW)
    assert options_text(follow, [Play(card("5C")), PASS]) == "you may add a 5 or a 7, or not"
    assert options_text(view(Rank.SIX, phase=RankPhase.NAME), []) == "name the Joker's rank"


def test_small_words() -> None:
    assert top_text(JOKER, Rank.SIX) == "Joker as 6"
    assert top_text(JOKER, None) == "Joker (to be named)"
    assert top_text(card("QH"), None) == "Q♥"
    assert [a_rank(r) for r in (Rank.ACE, Rank.EIGHT, Rank.KING, Rank.TEN)] == ["an Ace", "an 8", "a King", "a 10"]
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21)] == ["1st", "2nd", "3rd", "4th", "11th", "12th", "21st"]


def test_names_are_plain_text() -> None:
    names = ("You", "[b]Ben[/b]")
    assert describe_rank(Passed(seat=1), names, 0) == "[b]Ben[/b] passes"
