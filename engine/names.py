"""What a player's name may be, wherever it is given: on the command line, in the settings, over the network.

A name is shown as plain text everywhere (``[b]x[/b]`` stays as typed). Refused: control and format characters
(they could move the cursor, recolour the terminal or reverse the text around them), invisible ones (a zero-width
space, a variation selector after a letter), spaces other than the plain one, a name of accents alone (a lone
combining mark draws nothing of its own), and letters of two scripts (a Cyrillic ``а`` among Latin letters): each
lets one name pass for another, or for none. A zero-width joiner or a variation selector is kept beside a symbol,
as it holds emoji sequences together.

Two names are the same name when their :func:`name_key` is: compared after Unicode NFKC folding (a fullwidth
``Ａ`` is an ``A``), case folding and the removal of accents and invisible characters, so no one can sit beside
"Annabel" as "ANNABEL", "Ａnnabel" or "Annabél".

>>> name_problem("Ann"), name_problem("  "), name_problem("A" * 25)
(None, 'a name needs at least one character other than spaces', 'a name is at most 24 characters, not 25')
>>> name_problem("Ann\\x1b[31m")
"a name may not hold control characters such as '\\\\x1b'"
>>> name_problem("\\u0410nnabel")  # a Cyrillic capital A
'a name may not mix letters of two scripts (Cyrillic and Latin)'
>>> name_key("Annabel") == name_key("ＡＮＮＡＢＥＬ") == name_key("Anna\\u0301bel")
True
"""

from __future__ import annotations

import unicodedata

__all__ = ["NAME_LIMIT", "is_control", "name_key", "name_problem", "printable"]

NAME_LIMIT = 24
"""The longest name, in characters, once trimmed."""
_JOINERS = frozenset("\u200c\u200d")
_VARIATION_SELECTORS = frozenset(chr(c) for c in (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)))
_INVISIBLE = (
    frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0")
    | _VARIATION_SELECTORS
    | _JOINERS
)
"""Characters that draw nothing (beyond the format characters): fillers, blank patterns, selectors, joiners."""
_ONE_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "BOPOMOFO": "CJK", "HANGUL": "CJK", "IDEOGRAPHIC": "CJK"}
"""Scripts that are written together as one (Japanese, Chinese and Korean text mix them)."""


def is_control(char: str) -> bool:
    """A control or format character (a zero-width joiner is neither here)."""
    return char not in _JOINERS and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp")


def _is_invisible(char: str) -> bool:
    return char in _INVISIBLE or unicodedata.category(char) == "Cf"


def _script(char: str) -> str | None:
    """The script of a letter (None for anything else), from its Unicode name: LATIN, CYRILLIC, GREEK, CJK..."""
    if not unicodedata.category(char).startswith("L"):
        return None
    folded = unicodedata.normalize("NFKC", char)[:1] or char
    word = unicodedata.name(folded, "").split(" ", 1)[0]
    return _ONE_SCRIPT.get(word, word) or None


def _invisible_here(name: str, at: int) -> bool:
    """Whether the joiner or selector at ``at`` joins nothing visible: it is not beside a symbol (an emoji)."""
    around = [name[i] for i in (at - 1, at + 1) if 0 <= i < len(name)]
    return not any(unicodedata.category(c) == "So" for c in around)


def name_problem(text: str) -> str | None:
    """Why ``text`` cannot be a name, or None when it can (names are used trimmed)."""
    name = text.strip()
    if not name:
        return "a name needs at least one character other than spaces"
    bad = next((c for c in name if is_control(c)), None)
    if bad is not None:
        return f"a name may not hold control characters such as {bad!a}"
    if len(name) > NAME_LIMIT:
        return f"a name is at most {NAME_LIMIT} characters, not {len(name)}"
    for at, char in enumerate(name):
        if char in _JOINERS or char in _VARIATION_SELECTORS:
            if _invisible_here(name, at):
                return f"a name may not hold invisible characters such as {char!a}"
        elif _is_invisible(char):
            return f"a name may not hold invisible characters such as {char!a}"
        elif char.isspace() and char != " ":
            return f"a name may hold plain spaces only, not {char!a}"
    if not name_key(name):  # accents, enclosing marks and spaces alone: nothing of the name is drawn on its own
        return "a name needs a letter, digit or sign that is not an accent"
    scripts = sorted({script for char in name if (script := _script(char)) is not None})
    if len(scripts) > 1:
        shown = " and ".join(script if script == "CJK" else script.title() for script in scripts[:2])
        return f"a name may not mix letters of two scripts ({shown})"
    return None


def name_key(name: str) -> str:
    """What two names are compared by: equal keys are one name (NFKC, case folding, no accents, no invisibles)."""
    decomposed = unicodedata.normalize("NFKD", name)
    kept = "".join(c for c in decomposed if not _is_invisible(c) and unicodedata.category(c) not in ("Mn", "Me"))
    return " ".join(unicodedata.normalize("NFKC", kept).casefold().split())


def printable(text: str) -> str:
    """``text`` with each control or format character written out as its escape (``\\x1b``), never sent to the
    terminal as it is: for text read from a file or a peer (a name, a file's name).

    >>> print(printable("Ann\x1b]0;owned\x07"), printable("Ben"))
    Ann\\x1b]0;owned\\x07 Ben
    """
    if not any(is_control(char) for char in text):
        return text
    return "".join(ascii(char)[1:-1] if is_control(char) else char for char in text)
