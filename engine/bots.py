"""Computer opponents. A bot is ``choose(view, legal_actions, rng) -> action``: it sees only its seat's view.

This module is the machinery every game's bots share. Each game's bots live in ``engine/games/<game>/bots.py``
and are registered by level in :mod:`engine.registry`.

A bot keeps no random state of its own: the table hands it an RNG seeded by the table's seed, the seat and the
decision's number, so thinking twice about the same moment gives the same answer and changes nothing.

A bot that chooses from its legal actions alone may say so with a class attribute ``reads_view = False``:
:meth:`engine.table.Table.run` then gives it ``None`` for its view rather than making one nobody reads.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from engine.game import ActionT, Game, OptionsT, ViewT

if TYPE_CHECKING:
    from hashlib import blake2b

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class _Indexable(Protocol[T_co]):
    """What ``random.Random.choice`` draws from: a length and items by index."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int, /) -> T_co: ...


DIFFICULTIES = ("easy", "medium", "hard")


class Bot(Protocol):
    """Any game's bot, where the game is not known (the registry, a table): its view and its actions are its game's
    own, which no type parameter carries that far, so they are ``Any`` here (the action it chooses is only passed
    on, to be checked by the rules)."""

    difficulty: str

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> object: ...


class RandomBot(Generic[OptionsT, ViewT, ActionT]):
    """``easy``: any legal action, uniformly at random."""

    difficulty = "easy"
    reads_view = False
    """It looks at its legal actions only: a table need not make it a view."""

    def __init__(self, game: Game[OptionsT, ViewT, ActionT]) -> None:
        self.game = game

    def choose(self, view: object, legal: Sequence[ActionT], rng: random.Random) -> ActionT:
        return rng.choice(legal)


class DecisionCancelled(Exception):
    """Raised inside a bot's decision when whoever asked for it no longer wants it (the table is closing).

    Deliberately not a :class:`~engine.errors.ParlourError`: it is a signal that unwinds a decision, not a refusal,
    so no ``except ParlourError`` that answers a refusal (a hint, a move) takes a closing table for one."""


class DecisionRandom(random.Random):
    """The RNG of one decision: a stream of its own, a function of its text (the table's seed, the purpose, the seat
    and the moment) alone, so the same decision always draws the same numbers, wherever it is made.

    The stream starts with the sixteen 32-bit words of the text's BLAKE2b digest, taken at the first draw (a
    decision that draws nothing, such as a deterministic bot's, pays nothing); a draw that needs more goes on with
    ``random.Random(text)``'s Mersenne Twister, which is seeded only then. Seeding a Twister costs more than a
    whole ``easy`` decision (it fills 624 words twice over), and most decisions draw a number or two, so this is
    what lets the table run bots at the engine's pace; a search that draws thousands of numbers pays for the
    seeding once, as before. ``random()`` takes two words and ``getrandbits(k)`` one for ``k`` up to 32 (the top
    ``k`` bits), as the Twister does; every other method of ``random.Random`` draws through these two.
    """

    def __init__(self, text: str) -> None:  # random.Random.__init__ would seed the Twister at once
        self._text: str | None = text
        self._words: list[int] | None = None
        """The digest's words not drawn yet (None: the digest is not made yet; empty: the Twister draws)."""
        self.gauss_next = None  # read by gauss() before it draws, as random.Random.__init__ sets it

    def random(self) -> float:
        words = self._words
        if words is None:
            words = self._words = list(_WORDS.unpack(_blake2b(self._text.encode()).digest()))  # type: ignore[union-attr]
        if len(words) >= 2:
            return ((words.pop() >> 5) * 67108864.0 + (words.pop() >> 6)) * _TWO_TO_MINUS_53
        _to_twister(self)
        value: float = _C_RANDOM.random(self)
        return value

    def getrandbits(self, k: int, /) -> int:
        words = self._words
        if words is None:
            words = self._words = list(_WORDS.unpack(_blake2b(self._text.encode()).digest()))  # type: ignore[union-attr]
        if words and 0 < k <= 32:
            return words.pop() >> 32 - k
        _to_twister(self)
        bits: int = _C_RANDOM.getrandbits(self, k)
        return bits

    def choice(self, seq: _Indexable[T]) -> T:
        """``random.Random.choice`` written out (the same numbers drawn: ``getrandbits`` of the bound's bits until
        one is below it): a bot's usual draw, without two calls."""
        n = len(seq)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        words = self._words
        if words is None:
            words = self._words = list(_WORDS.unpack(_blake2b(self._text.encode()).digest()))  # type: ignore[union-attr]
        k = n.bit_length()
        if k <= 32:
            while words:
                r = words.pop() >> 32 - k
                if r < n:
                    return seq[r]
        return seq[self.randrange(n)]  # the digest ran out: draw on (the Twister)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        """Seeding again makes it a plain ``random.Random`` seeded so."""
        self._text = None
        self._words = []
        random.Random.seed(self, *args, **kwargs)
        if self.__class__ is DecisionRandom:
            self.__class__ = random.Random  # type: ignore[assignment]

    def getstate(self) -> tuple[Any, ...]:
        if self._text is not None:  # still in the digest: its text and the words left
            words = self._words
            return (_DIGEST_STATE, self._text, None if words is None else tuple(words), self.gauss_next)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        if state and state[0] == _DIGEST_STATE:
            _, self._text, words, self.gauss_next = state
            self._words = None if words is None else list(words)
        else:
            self._text = None
            self._words = []
            random.Random.setstate(self, state)

    def __reduce__(self) -> _Reduction:  # pickle and copy: the same stream from the same point
        return _restore_decision_random, (self.getstate(),)


_Reduction = tuple[Callable[[tuple[object, ...]], random.Random], tuple[tuple[object, ...]]]
"""What a decision's RNG gives ``pickle`` and ``copy``: the function that makes it again, and its state."""

_DIGEST_STATE = "parlour-decision-digest"
_TWO_TO_MINUS_53 = 1.0 / 9007199254740992.0


_WORDS = struct.Struct("<16I")
"""A digest as sixteen 32-bit words (the words are made where they are first drawn: a call fewer)."""


def _load_blake2b(data: bytes) -> blake2b:
    """``hashlib.blake2b(data)``, hashlib imported (it loads OpenSSL's digests) at the first digest rather than with
    the engine; from then on :data:`_blake2b` is hashlib's own function."""
    global _blake2b
    from hashlib import blake2b

    _blake2b = blake2b
    return blake2b(data)


_blake2b: Callable[[bytes], blake2b] = _load_blake2b


def _to_twister(rng: DecisionRandom) -> None:
    """The digest is used up: seed the Twister from the text (once) and draw from it from now on."""
    text = rng._text
    if text is not None:
        rng._text = None
        rng._words = []
        random.Random.seed(rng, text)
        if rng.__class__ is DecisionRandom:
            rng.__class__ = random.Random  # type: ignore[assignment]  # from now on the plain generator, at C speed


def _restore_decision_random(state: tuple[object, ...]) -> random.Random:
    if state and state[0] == _DIGEST_STATE:
        made = DecisionRandom("")
        made.setstate(state)
        return made
    plain = random.Random()
    plain.setstate(state)
    return plain


class CancellableRandom(DecisionRandom):
    """A :class:`DecisionRandom` (the same stream for the same text) that stops a decision when asked.

    Every draw first asks ``cancelled()``; once it says yes the next draw raises :class:`DecisionCancelled`. A
    searching bot draws often, so a host that closes stops it within a playout, without the bot knowing.
    """

    def __init__(self, seed: str, cancelled: Callable[[], bool]) -> None:
        self._cancelled = cancelled
        super().__init__(seed)

    def getrandbits(self, k: int, /) -> int:
        if self._cancelled():
            raise DecisionCancelled
        return super().getrandbits(k)

    def random(self) -> float:
        if self._cancelled():
            raise DecisionCancelled
        return super().random()

    def choice(self, seq: _Indexable[T]) -> T:
        if self._cancelled():
            raise DecisionCancelled
        return super().choice(seq)

    def __reduce__(self) -> _Reduction:  # the cancel test is not sent anywhere: a copy draws on uncancelled
        return _restore_decision_random, (self.getstate(),)


_C_RANDOM: Any = random.Random.__mro__[1]
"""The C generator under ``random.Random`` (its ``random`` and ``getrandbits``)."""


def decision_rng(
    seed: int, seat: int, version: int, purpose: str = "bot", cancelled: Callable[[], bool] | None = None
) -> random.Random:
    """The RNG for one decision: the same table, seat and moment always give the same stream
    (:class:`DecisionRandom`; with ``cancelled``, a :class:`CancellableRandom` of the same stream)."""
    text = f"{seed}/{purpose}/{seat}/{version}"
    return DecisionRandom(text) if cancelled is None else CancellableRandom(text, cancelled)
