"""The turn clock in words, whatever the game: the notice when yours starts, and the log's line for a move a bot
made because a clock ran out.

A move made by the clock is told in the game's own words, turned round: the line the game's log would write for
it ("You play a pair of Jacks (J♠ J♥) — 3 left") becomes "The clock ran out: a bot played a pair of Jacks for you
(J♠ J♥) — 3 left". Every game's log starts a seat's move with who made it and the verb ("You play", "Ben draws"),
so this needs no game's rules: only the verbs' past tense.

>>> ran_out_line("You play a pair of Jacks (J♠ J♥) — 3 left", 0, ("Ann", "Ben"), me=0)
['The clock ran out: a bot played a pair of Jacks for you (J♠ J♥) — 3 left']
>>> ran_out_line("Ben draws the 7♥ from the stock", 1, ("Ann", "Ben"), me=0)
['The clock ran out for Ben: a bot drew the 7♥ from the stock for them']
>>> ran_out_line("Ben's K♠ blocked your trade", 0, ("Ann", "Ben"), me=0)
['The clock ran out: a bot moved for you', "Ben's K♠ blocked your trade"]
>>> clock_notice(29.6)
'Your move: 30 s, then a bot plays it for you'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tui.words import who

IRREGULAR = {
    "draw": "drew",
    "take": "took",
    "put": "put",
    "cut": "cut",
    "keep": "kept",
    "lead": "led",
    "win": "won",
    "lose": "lost",
    "hold": "held",
    "give": "gave",
    "get": "got",
    "is": "was",
    "are": "were",
    "go": "went",
}
"""The verbs of the games' logs whose past tense is not made with -ed."""

_CLAUSE_END = re.compile(r" — |: | \(")
"""Where the first clause of a log line ends: "for you" goes there, before the details."""
_SECOND_VERB = re.compile(r" and (?!(?:the|a|an|your|their|his|her|its|no|you|them)\b)([a-z]+)\b")
"""A second verb of the same move in its first clause ("put the 7♥ on slot 7 and turn up the Q♣")."""


def clock_notice(seconds: float) -> str:
    """The one notice a person gets when the clock starts for their move."""
    return f"Your move: {max(0, round(seconds))} s, then a bot plays it for you"


def seconds_text(seconds: int) -> str:
    """The seconds left on a clock, as a seat shows them: "29 s"."""
    return f"{seconds} s"


def past_tense(verb: str) -> str:
    """The past tense of a log's verb, given as the log writes it for you ("play") or for another ("plays"); a
    verb already in the past stays.

    >>> [past_tense(v) for v in ("play", "plays", "passes", "draws", "stayed", "names", "puts", "is", "lost")]
    ['played', 'played', 'passed', 'drew', 'stayed', 'named', 'put', 'was', 'lost']
    """
    if verb.endswith("ed") or verb in IRREGULAR.values():
        return verb
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    plain = verb
    if verb.endswith(("sses", "shes", "ches", "xes")):
        plain = verb[:-2]
    elif verb.endswith("s") and not verb.endswith("ss"):
        plain = verb[:-1]
    if plain in IRREGULAR:
        return IRREGULAR[plain]
    return plain + "d" if plain.endswith("e") else plain + "ed"


def ran_out_line(line: str, seat: int, names: Sequence[str], me: int | None) -> list[str]:
    """The log's lines for ``line``, the first line the log writes after ``seat``'s clock ran out (a bot of the
    table made that move): the line turned round when it tells the seat's move, else a line of its own first.

    ``me`` is the seat the log is written for (None: a spectator)."""
    mine = seat == me
    subject = who(seat, names, me, start=True)
    whose = "" if mine else f" for {subject}"
    for_them = "for you" if mine else "for them"
    verb, _, tail = line.removeprefix(subject + " ").partition(" ")
    if line.startswith(subject + " ") and verb.isalpha() and verb.islower():
        told = f"a bot {past_tense(verb)}" + (f" {tail}" if tail else "")
        end = _CLAUSE_END.search(told)
        at = end.start() if end is not None else len(told)
        clause = _SECOND_VERB.sub(lambda m: f" and {past_tense(m.group(1))}", told[:at], count=1)
        return [f"The clock ran out{whose}: {clause} {for_them}{told[at:]}"]
    return [f"The clock ran out{whose}: a bot moved {for_them}", line]
