"""Words about seats and counts that every game's screens use: "you" or a name, "1 card" / "2 cards", "Ana and
Ben". Apart from :mod:`tui.games.chase.words` (Screw Your Neighbor / Chase the Ace), so another game's screen can use
them without loading that game's engine.

The package also holds :mod:`tui.words.clock` (the turn clock in words, whatever the game) and
:mod:`tui.words.faces` (how cards are written on screen). It may import the engine's core only: nothing else of
``tui``.

>>> count_of(1, "card"), count_of(2, "card"), and_list(["Ana", "Ben", "you"])
('1 card', '2 cards', 'Ana, Ben and you')
"""

from __future__ import annotations

from collections.abc import Sequence


def count_of(count: int, word: str) -> str:
    """ "1 card", "2 cards", "0 cards": a number and its word, singular only for one."""
    return f"{count} {word if count == 1 else word + 's'}"


def winner_sentence(seats: Sequence[int], names: Sequence[str], me: int | None) -> str:
    """Who won a match, for its results: "You win", "Ben wins", "Ana and you win", "nobody wins" (the seats named
    in the order given)."""
    if not seats:
        return "nobody wins"
    words = and_list([who(seat, names, me, start=i == 0) for i, seat in enumerate(seats)])
    return f"{words} {'win' if len(seats) > 1 or seats[0] == me else 'wins'}"


def and_list(words: Sequence[str]) -> str:
    """ "Ana", "Ana and Ben", "Ana, Ben and Cleo"."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def who(seat: int, names: Sequence[str], me: int | None, *, start: bool = False) -> str:
    """A seat's name, or "you"/"You" for the seat watching."""
    if seat == me:
        return "You" if start else "you"
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def whose(seat: int, names: Sequence[str], me: int | None, *, start: bool = False) -> str:
    if seat == me:
        return "Your" if start else "your"
    return who(seat, names, me) + "'s"


def count(n: int, word: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards`` (``plural`` where it is not the word and an s: ``2 lives``)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def decks(n: int) -> str:
    """``one deck``, ``two decks`` (the way the rules say it)."""
    return f"{NUMBERS.get(n, str(n))} deck{'' if n == 1 else 's'}"


NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four"}
