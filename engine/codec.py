"""Every view, event, action and options object to plain JSON data and back, losslessly.

``encode(value)`` gives dicts, lists, strings, numbers, booleans and ``None``; ``decode(data)`` gives the value
back, with ``decode(encode(x)) == x``. The rules of the form:

- a card is its text (``"10H"``, ``"JK"``); an enum member is its value;
- a tuple or a list is a list; a set is a list sorted by its encoded items; a dict with text keys is an object,
  any other dict a list of ``[key, value]`` pairs;
- an object (a dataclass registered by its game) is a JSON object of its fields, tagged with ``"game"`` and
  ``"type"``: ``{"game": "big2", "type": "Played", "seat": 2, ...}``. Two games may both have a ``Played``;
  their tags differ by game;
- an enum member where its type is not known from the field it sits in (an action at the top level, or in a list
  of legal actions) is tagged the same way, with its ``"value"``.

A game's classes are registered by the game registry (:mod:`engine.registry`) when it is imported; the match
layer's and the sessions' own classes register with their modules.

Decoding is led by the type hints of each field, so ``tuple[int, ...]`` comes back a tuple and ``frozenset[int]``
a frozenset. Anything that does not fit raises :class:`~engine.errors.CodecError` (a ``ParlourError``): a line
from the network can never raise anything else.

>>> from engine.cards import Card
>>> from engine.match import RoundOver
>>> event = RoundOver(round=2, winners=(1,), deltas=(-3, 3), totals=(-1, 1), last=False)
>>> data = encode(event)
>>> data["game"], data["type"], data["deltas"]
('match', 'RoundOver', [-3, 3])
>>> decode(data) == event
True
>>> encode(Card.parse("TH"))
'10H'
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar, Union

from engine.cards import Card, is_card, standard_deck
from engine.errors import CodecError, ParlourError, echo

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

_BY_TAG: dict[tuple[str, str], type] = {}
_TAG: dict[type, tuple[str, str]] = {}
_HINTS: dict[type, dict[str, object]] = {}


def register(game: str, *classes: type) -> None:
    """Make ``classes`` (dataclasses or enums) known to the codec under ``game``'s tag."""
    for cls in classes:
        if not (dataclasses.is_dataclass(cls) or issubclass(cls, enum.Enum)):
            raise TypeError(f"only dataclasses and enums can be registered, not {cls!r}")
        if dataclasses.is_dataclass(cls) and {f.name for f in dataclasses.fields(cls)} & {"game", "type"}:
            raise TypeError(f"{cls.__name__} has a field named 'game' or 'type', the codec's tag keys")
        tag = (game, cls.__name__)
        known = _BY_TAG.get(tag)
        if known is not None and known is not cls:
            raise TypeError(f"two classes registered as {tag}: {known!r} and {cls!r}")
        _BY_TAG[tag] = cls
        _TAG[cls] = tag


_ON_DEMAND: dict[str, Callable[[], object]] = {}


def load_on_demand(game: str, load: Callable[[], object]) -> None:
    """Call ``load`` (which registers ``game``'s classes, and must be safe to call again and from several threads)
    when data tagged with ``game`` names a class not known yet: the registry loads a game's module only when it is
    needed."""
    _ON_DEMAND[game] = load


def forget(game: str) -> None:
    """Make ``game``'s classes unknown again (the registry's ``unregister``: a game registered by a test)."""
    _ON_DEMAND.pop(game, None)
    for tag in [tag for tag in _BY_TAG if tag[0] == game]:
        _TAG.pop(_BY_TAG.pop(tag), None)


def _class_for(game: str, name: str) -> type | None:
    cls = _BY_TAG.get((game, name))
    if cls is None:
        load = _ON_DEMAND.get(game)  # kept: loading is idempotent, and another thread may be loading it right now
        if load is not None:
            load()
            cls = _BY_TAG.get((game, name))
    return cls


def tag_of(cls: type) -> tuple[str, str]:
    try:
        return _TAG[cls]
    except KeyError:
        raise CodecError(f"{cls.__name__} is not registered with the codec") from None


def _hints(cls: type) -> dict[str, object]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


# ---------------------------------------------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------------------------------------------
def encode(value: object) -> Any:
    """``value`` as plain JSON data (see the module docstring); CodecError for what cannot be sent."""
    try:
        return _encode(value, Any)
    except RecursionError:
        raise CodecError("cannot encode a value nested this deep (or that contains itself)") from None


_CARD_OF_TEXT: dict[str, Card] = {str(card): card for card in standard_deck(jokers=1)}
"""Each card by its text (cards are immutable: a decoded card may be the deck's own)."""
_PLAIN = frozenset({type(None), bool, int, float, str})
"""The types whose values are their own JSON (exactly these: a subclass, such as an IntEnum, is looked at)."""


def _encode(value: Any, hint: object) -> Any:
    cls = type(value)
    if cls in _PLAIN:  # the commonest cases first; the checks below answer the same for these
        return value
    fields = _INIT_FIELDS.get(cls)  # a dataclass met before (only registered ones are): the checks below go there
    if fields is not None:
        return _encode_fields(value, cls, fields)
    if cls is tuple or cls is list:
        return _encode_items(value, hint)
    if value is None or (isinstance(value, bool | int | float | str) and not isinstance(value, enum.Enum)):
        return value
    if isinstance(value, Card):
        if not is_card(value):  # its fields were set past its constructor
            raise CodecError(f"cannot encode a card of rank {echo(value.rank, 60)} and suit {echo(value.suit, 60)}")
        return str(value)
    if isinstance(value, enum.Enum):
        if _names_type(hint, cls):
            return value.value
        game, name = tag_of(cls)
        return {"game": game, "type": name, "value": value.value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        tag_of(cls)  # a class not registered is refused before its fields are looked at
        return _encode_fields(value, cls, _init_fields(cls))
    if isinstance(value, tuple | list):
        return _encode_items(value, hint)
    if isinstance(value, set | frozenset):
        item = _item_hint(hint, 0)
        return sorted((_encode(v, item) for v in value), key=_sort_key)
    if isinstance(value, dict):
        key_hint, value_hint = _dict_hints(hint)
        if all(isinstance(k, str) for k in value):
            return {k: _encode(v, value_hint) for k, v in value.items()}
        return [[_encode(k, key_hint), _encode(v, value_hint)] for k, v in value.items()]
    raise CodecError(f"cannot encode a {type(value).__name__}: {echo(value)}")


def _encode_fields(value: object, cls: type, fields: tuple[tuple[str, object, bool], ...]) -> dict[str, Any]:
    game, name = tag_of(cls)
    out: dict[str, Any] = {"game": game, "type": name}
    for field, field_hint, _required in fields:
        out[field] = _encode(getattr(value, field), field_hint)
    return out


def _encode_items(value: tuple[object, ...] | list[object], hint: object) -> list[Any]:
    every, by_index = _item_hints(hint)
    if by_index is None:
        return [_encode(item, every) for item in value]
    last = len(by_index)
    return [_encode(item, by_index[index] if index < last else Any) for index, item in enumerate(value)]


_INIT_FIELDS: dict[type, tuple[tuple[str, object, bool], ...]] = {}
"""The registered dataclasses met so far (encoded or decoded), by their class: the next value of one goes straight
to its fields."""


def _init_fields(cls: type) -> tuple[tuple[str, object, bool], ...]:
    """The fields a dataclass's ``__init__`` takes (those its encoding holds), each with its type hint and whether
    it has no default; worked out once per class."""
    fields = _INIT_FIELDS.get(cls)
    if fields is None:
        hints = _hints(cls)
        fields = tuple(
            (
                f.name,
                hints.get(f.name, Any),
                f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
            )
            for f in dataclasses.fields(cls)
            if f.init
        )
        _INIT_FIELDS[cls] = fields
    return fields


def _sort_key(data: object) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def _names_type(hint: object, cls: type) -> bool:
    """Does ``hint`` say for sure that a value here is a ``cls`` (so it needs no tag)?"""
    if hint is cls:
        return True
    return bool(_memo(_NAMES_TYPE, (hint, cls), _names_type_of))


def _names_type_of(key: tuple[object, type]) -> bool:
    hint, cls = key
    if _is_union(hint):
        return cls in typing.get_args(hint)
    return False


_NAMES_TYPE: dict[tuple[object, type], bool] = {}
_ITEM_HINTS: dict[object, tuple[object, tuple[object, ...] | None]] = {}
_DICT_HINTS: dict[object, tuple[object, object]] = {}
_DECODING: dict[object, tuple[str, object]] = {}
"""What a type hint means to the codec, worked out once per hint (a hint is looked at for every value sent or
received): whether it names a class, its items' hints, its keys' and values' hints, how to decode into it."""


def _memo(cache: dict[K, V], key: K, make: Callable[[K], V]) -> V:
    """``make(key)``, remembered in ``cache`` (a key that cannot be hashed is worked out every time)."""
    try:
        return cache[key]
    except KeyError:
        found = cache[key] = make(key)
        return found
    except TypeError:
        return make(key)


def _is_union(hint: object) -> bool:
    origin = typing.get_origin(hint)
    return origin is Union or origin is types.UnionType


def _item_hints(hint: object) -> tuple[object, tuple[object, ...] | None]:
    """The hint of the items of a list or tuple with ``hint``: ``(h, None)`` when every item's is ``h``, else
    ``(Any, by_index)``, the hint of the item at each index (``Any`` past its end): :func:`_item_hint` for every
    index, worked out once."""
    return _memo(_ITEM_HINTS, hint, _item_hints_of)


def _item_hints_of(hint: object) -> tuple[object, tuple[object, ...] | None]:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return args[0], None
        return Any, args
    if origin in (list, set, frozenset) and args:
        return args[0], None
    if _is_union(hint):
        containers = [a for a in args if typing.get_origin(a) in (tuple, list, set, frozenset)]
        if len(containers) == 1:
            return _item_hints_of(containers[0])
    return Any, None


def _item_hint(hint: object, index: int) -> object:
    every, by_index = _item_hints(hint)
    if by_index is None:
        return every
    return by_index[index] if index < len(by_index) else Any


def _dict_hints(hint: object) -> tuple[object, object]:
    return _memo(_DICT_HINTS, hint, _dict_hints_of)


def _dict_hints_of(hint: object) -> tuple[object, object]:
    if typing.get_origin(hint) is dict:
        key, value = typing.get_args(hint)
        return key, value
    return Any, Any


# ---------------------------------------------------------------------------------------------------------------
# Decoding
# ---------------------------------------------------------------------------------------------------------------
def decode(data: object) -> object:
    """The value ``data`` (from :func:`encode`) stands for; CodecError when it is not well formed."""
    try:
        return _decode(data, Any)
    except CodecError:
        raise
    except ParlourError as err:
        raise CodecError(str(err)) from None
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as err:
        raise CodecError(f"malformed data: {echo(str(err))}") from None


def decode_as(data: object, cls: type[T]) -> T:
    """:func:`decode`, then check that the value is a ``cls``."""
    value = decode(data)
    if not isinstance(value, cls):
        raise CodecError(f"expected a {cls.__name__}, got {echo(data)}")
    return value


def dumps(value: object) -> str:
    """``value`` encoded as one line of JSON text."""
    data = encode(value)
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (ValueError, TypeError, RecursionError) as err:
        raise CodecError(f"cannot be sent as JSON: {echo(str(err))}") from None


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def loads(text: str | bytes) -> object:
    """The value one line of JSON text stands for; CodecError if the text is not JSON or not well formed."""
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, TypeError, RecursionError) as err:
        raise CodecError(f"not JSON: {echo(str(err))}") from None
    return decode(data)


def _decoding(hint: object) -> tuple[str, object]:
    """How :func:`_decode` reads data into ``hint``: the first of its cases that fits, and the hint's origin."""
    if isinstance(hint, TypeVar) or hint is Any or hint is object:
        return "any", None
    if hint is type(None):
        return "none", None
    if _is_union(hint):
        return "union", None
    origin = typing.get_origin(hint)
    if origin is not None:
        return "generic", origin
    return "other", None


def _decode(data: object, hint: object) -> object:
    try:
        case, origin = _DECODING[hint]  # _memo written out: this runs for every value received
    except (KeyError, TypeError):
        case, origin = _memo(_DECODING, hint, _decoding)
    if case == "any":
        return _decode_any(data)
    if case == "none":
        if data is not None:
            raise CodecError(f"expected null, got {echo(data)}")
        return None
    if case == "union":
        return _decode_union(data, hint)
    if case == "generic":
        return _decode_generic(data, hint, origin)
    if hint is Card:
        if not isinstance(data, str):
            raise CodecError(f"expected a card, got {echo(data)}")
        card = _CARD_OF_TEXT.get(data)  # a card's own text, the usual case; Card.parse reads any other form
        return card if card is not None else Card.parse(data)
    if hint is bool:
        if not isinstance(data, bool):
            raise CodecError(f"expected true or false, got {echo(data)}")
        return data
    if hint is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise CodecError(f"expected a whole number, got {echo(data)}")
        return data
    if hint is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise CodecError(f"expected a number, got {echo(data)}")
        return float(data)
    if hint is str:
        if not isinstance(data, str):
            raise CodecError(f"expected text, got {echo(data)}")
        return data
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        if isinstance(data, dict):
            return _decode_tagged(data)
        try:
            return hint(data)
        except ValueError:
            raise CodecError(f"not a {hint.__name__}: {echo(data)}") from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        value = _decode_tagged(data)
        if not isinstance(value, hint):
            raise CodecError(f"expected a {hint.__name__}, got a {type(value).__name__}")
        return value
    raise CodecError(f"cannot decode into {hint!r}")


def _decode_any(data: object) -> object:
    if data is None or isinstance(data, bool | int | float | str):
        return data
    if isinstance(data, dict):
        if "type" in data and "game" in data:
            return _decode_tagged(data)
        return {str(k): _decode_any(v) for k, v in data.items()}
    if isinstance(data, list):
        return tuple(_decode_any(item) for item in data)
    raise CodecError(f"not JSON data: {echo(data)}")


def _decode_union(data: object, hint: object) -> object:
    members = [a for a in typing.get_args(hint)]
    if data is None:
        if type(None) in members:
            return None
        raise CodecError("a value is missing (null)")
    members = [a for a in members if a is not type(None)]
    if isinstance(data, dict) and "type" in data and "game" in data:
        value = _decode_tagged(data)
        if not any(_is_instance(value, m) for m in members):
            raise CodecError(f"a {type(value).__name__} does not belong here")
        return value
    errors = []
    for member in members:
        try:
            return _decode(data, member)
        except (CodecError, ParlourError, TypeError, ValueError) as err:
            errors.append(str(err))
    raise CodecError(f"does not fit {hint}: {echo(data)}")


def _is_instance(value: object, hint: object) -> bool:
    origin = typing.get_origin(hint) or hint
    return isinstance(origin, type) and isinstance(value, origin)


def _decode_generic(data: object, hint: object, origin: Any) -> object:
    args = typing.get_args(hint)
    if origin is typing.Literal:
        if data not in args:
            raise CodecError(f"expected one of {args}, got {echo(data)}")
        return data
    if origin is tuple:
        if not isinstance(data, list):
            raise CodecError(f"expected a list, got {echo(data)}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(item, args[0]) for item in data)
        if len(args) != len(data):
            raise CodecError(f"expected {len(args)} items, got {len(data)}")
        return tuple(_decode(item, arg) for item, arg in zip(data, args, strict=True))
    if origin in (list, set, frozenset):
        if not isinstance(data, list):
            raise CodecError(f"expected a list, got {echo(data)}")
        item_hint = args[0] if args else Any
        items = [_decode(item, item_hint) for item in data]
        constructor: Callable[[list[Any]], Any] = origin
        return constructor(items)
    if origin is dict:
        key_hint, value_hint = args if args else (Any, Any)
        if isinstance(data, dict):
            return {_decode(k, key_hint): _decode(v, value_hint) for k, v in data.items()}
        if isinstance(data, list):
            out = {}
            for pair in data:
                if not isinstance(pair, list) or len(pair) != 2:
                    raise CodecError(f"expected [key, value] pairs, got {echo(pair)}")
                out[_decode(pair[0], key_hint)] = _decode(pair[1], value_hint)
            return out
        raise CodecError(f"expected an object, got {echo(data)}")
    if origin is typing.ClassVar:
        return _decode(data, args[0])
    return _decode(data, origin)


def _decode_tagged(data: object) -> object:
    if not isinstance(data, dict):
        raise CodecError(f"expected an object, got {echo(data)}")
    game, name = data.get("game"), data.get("type")
    if not isinstance(game, str) or not isinstance(name, str):
        raise CodecError(f"an object needs a text 'game' and 'type': {echo(data)}")
    cls = _class_for(game, name)
    if cls is None:
        raise CodecError(f"unknown type {echo(game)}/{echo(name)}")
    if issubclass(cls, enum.Enum):
        if "value" not in data:
            raise CodecError(f"{name} needs a 'value'")
        try:
            return cls(data["value"])
        except ValueError:
            raise CodecError(f"not a {name}: {echo(data['value'])}") from None
    if not dataclasses.is_dataclass(cls):
        raise CodecError(f"{game}/{name} cannot be decoded")
    kwargs: dict[str, object] = {}
    for field, field_hint, required in _init_fields(cls):
        if field in data:
            kwargs[field] = _decode(data[field], field_hint)
        elif required:
            raise CodecError(f"{game}/{name} needs the field {field!r}")
    try:
        return cls(**kwargs)
    except ParlourError:
        raise
    except (TypeError, ValueError) as err:
        raise CodecError(f"bad {name}: {echo(str(err))}") from None
