"""Abstract Play game records (``APGameRecord``) of Pletore: read into a Record, written back.

Implements ``spec/abstractplay.md``. Reading checks the record's structure here, then hands
its values to :func:`arbiter.notation.build.build_record`, the meaning checks the GRN and
JSON readers end in, so that a game means the same whichever way it came in. Everything the
record holds that GRN has no field for is kept in ordinary tags (``AP...``), and the writer
reads them back, so that AP -> GRN -> AP -> GRN is a fixed point. Problems are located by a
JSON pointer: ``/moves/R/S`` names the round R and the seat S (both from 0, as in the file).

Nothing here knows the rules of play: the writer is given the winner and the scores
(:mod:`arbiter.adjudicator.abstractplay` computes them by replaying the record).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Final, cast

from arbiter.notation.ast import Location, Move, Record, Tag, Turn, tuple_of
from arbiter.notation.build import RawValue, build_record
from arbiter.notation.errors import (
    InvalidRecordError,
    NotationSyntaxError,
    RecordError,
    SchemaError,
)
from arbiter.notation.games import find_game
from arbiter.notation.grn_reader import parse_move
from arbiter.notation.json_reader import check_structure
from arbiter.notation.plain import Plain

GAME = "Pletore"
NO_KOMI = ("no komi offer", "nokomi")
"""Variant names (display string, or identifier) of a game played without komi bid or pie."""
KOMI_OFFER = "Komi offer"
SIZE_NAMES = {
    11: "Smaller board (11x11)",
    13: "Default board (13x13)",
    15: "Larger board (15x15)",
    17: "Largest board (17x17)",
}
"""The display strings the site gives its boards; any other size is written "Board (NxN)"."""
DEFAULT_SIZE = 13
ENDINGS = {"resign": "R", "timeout": "T"}
"""End words of the move list and the GRN termination each one becomes."""
UNREADABLE_ENDINGS = ("draw", "abandoned")
END_WORDS = (*ENDINGS, *UNREADABLE_ENDINGS)
PIE = "pie"
PIE_FLAGS = ("pied", "pie-invoked")
"""Header flags saying that the second player swapped seats (archive, game download)."""
KEPT = "kept"
"""``APPie`` value: the pie entry was written but the seats were not swapped."""
BID = re.compile(r"-?[0-9]{1,9}")
"""A komi bid as the site accepts it: an optional minus sign and digits ("-0", "08"); a
longer one could not be within the limit anyway."""
_SIZE = re.compile(r"\((\d{1,9})x(\d{1,9})\)|^size-(\d{1,9})$")

# Tags that keep what GRN has no field for (spec/abstractplay.md, "Tags").
GAME_ID = "APGameId"
DATE_TAGS = {
    "date-start": "APDateStart",
    "date-end": "APDateEnd",
    "date-generated": "APDateGenerated",
}
VARIANTS = "APVariants"
KOMI_BID = "APKomiBid"
PIE_TAG = "APPie"
UNRATED = "APUnrated"
EXTRA = "APExtra"
VARIANT_SEPARATOR = "; "
PLAYER_TAGS = (("UserId", "userid"), ("AI", "is_ai"), ("Score", "score"))
"""Player fields kept in tags: ``AP<colour><what>`` holds the player's ``key``."""
HEADER_KEYS = frozenset(
    {"game", "event", "round", "site", *DATE_TAGS, "unrated", "players", *PIE_FLAGS}
)
PLAYER_KEYS = frozenset({"name", "userid", "is_ai", "score", "result"})


def player_tag(colour: str, what: str) -> str:
    """The tag keeping one of a player's fields: ``APBlackUserId``, ``APWhiteScore``..."""
    return f"AP{colour}{what}"


def is_abstractplay(value: object) -> bool:
    """Whether a parsed JSON value has the shape of an Abstract Play record (an object with
    a ``header`` and no ``game``: the project's own JSON records have ``game`` at the top)."""
    return isinstance(value, dict) and "header" in value and "game" not in value


# --- reading -------------------------------------------------------------------------------


def record_from_abstractplay(obj: object, index: int = 0) -> Record:
    """Return the record that the parsed Abstract Play record ``obj`` describes.

    Raises :class:`SchemaError` (code ``schema``) for a structure the format does not
    have, ``NotationSyntaxError`` for a move string that is no move, and
    :class:`InvalidRecordError` for values Pletore cannot have (``bad-komi``, ``bad-size``,
    ``bad-result``, ``result-conflict``, ...), each with a pointer and ``index``."""
    try:
        check_structure(obj)
        return _read(_object(obj, ""), index)
    except RecordError as err:
        raise err.located(index=index) from None


class _Entry(Plain):
    """One string of the move list and where it stands (round and seat)."""

    _fields = ("text", "round", "seat")
    __slots__ = _fields

    def __init__(self, text: str, round: int, seat: int) -> None:
        self.text: Final = text
        self.round: Final = round
        self.seat: Final = seat

    @property
    def where(self) -> Location:
        return Location(pointer=f"/moves/{self.round}/{self.seat}")


class _Opening(Plain):
    """What comes before the first stone: the komi, the bid as typed (None: no bid phase, no
    komi offer; "": the game ended before it), the pie ("pied", "pie-invoked", KEPT, or None
    when no pie entry was written) and how many entries of the move list it takes."""

    _fields = ("komi", "bid", "pie", "length")
    __slots__ = _fields

    def __init__(self, komi: RawValue, bid: str | None, pie: str | None, length: int) -> None:
        self.komi: Final = komi
        self.bid: Final = bid
        self.pie: Final = pie
        self.length: Final = length


def _read(root: dict[str, Any], index: int) -> Record:
    _only(root, ("header", "moves"), "")
    header = _object(_member(root, "header", ""), "/header")
    entries = _entries(_member(root, "moves", ""))
    game = _object(_member(header, "game", "/header"), "/header/game")
    _only(game, ("name", "variants"), "/header/game")
    name = _string(game, "name", "/header/game")
    if name.lower() != GAME.lower():
        raise InvalidRecordError(
            f"Abstract Play records are read for {GAME} only, not {name!r}",
            code="unknown-game",
            pointer="/header/game/name",
        )
    variants = _variants(game)
    size = _board_size(variants)
    seats = _players(header)
    swapped = _swap_flag(header)
    opening = _opening(entries, variants, int(size.text), swapped)
    turns, ending = _turns(entries, opening.length)
    colours = find_game(GAME).colours
    # Each value in a local of its own, in the order the call gave them: compiled, an
    # attribute read in the call's arguments (opening.komi) was borrowed, and its owner
    # released before the call.
    komi = opening.komi
    players = [(c, RawValue(s.name, s.at("name"))) for c, s in zip(colours, seats, strict=True)]
    tags = _tags(header, variants, opening, seats, colours)
    result = _claim(seats, ending, colours)
    return build_record(
        game=RawValue(GAME, Location(pointer="/header/game/name")),
        size=size,
        komi=komi,
        players=players,
        tags=tags,
        turns=turns,
        result=result,
        index=index,
        start=Location(pointer=""),
    )


def _entries(moves: object) -> list[str]:
    """The move list, round by round, as one sequence of entries (plies of the site).

    Every round but the last holds two entries, so entry ``k`` stands in round ``k // 2``,
    seat ``k % 2`` (:func:`_entry`)."""
    rounds = _array(moves, "/moves")
    entries: list[str] = []
    last = len(rounds) - 1
    for number, round_ in enumerate(rounds):
        if type(round_) is not list or not (
            len(round_) == 2 or (len(round_) == 1 and number == last)
        ):
            _strings(entries)  # a problem in an earlier round is said first
            _round(round_, number, last)
        entries += round_
    _strings(entries)
    return entries


def _round(value: object, number: int, last: int) -> None:
    """Raise ``SchemaError`` unless ``value`` is round ``number`` of a move list whose last
    round is ``last``: one entry per seat (two), only the last round may hold one."""
    pointer = f"/moves/{number}"
    items = _array(value, pointer)
    if not 1 <= len(items) <= 2 or (len(items) == 1 and number != last):
        raise SchemaError(
            f"round {number} has {len(items)} entries: every round holds one move per "
            "seat (two), only the last may hold one",
            pointer=pointer,
        )


def _strings(entries: list[Any]) -> None:
    """Raise ``SchemaError`` at the first entry that is not a string."""
    for number, item in enumerate(entries):
        if type(item) is not str and not isinstance(item, str):
            raise SchemaError(
                f"a {GAME} move is a string, not {_kind(item)}",
                pointer=f"/moves/{number >> 1}/{number & 1}",
            )


def _entry(entries: list[str], number: int) -> _Entry:
    """Entry ``number`` of the move list, and where it stands."""
    return _Entry(entries[number], number >> 1, number & 1)


def _variants(game: dict[str, Any]) -> tuple[str, ...] | None:
    if "variants" not in game:
        return None
    items = _array(game["variants"], "/header/game/variants")
    for number, item in enumerate(items):
        if not isinstance(item, str) or item in items[:number]:
            what = f"{item!r} is listed twice" if isinstance(item, str) else _kind(item)
            raise SchemaError(
                f"the variants are distinct strings: {what}",
                pointer=f"/header/game/variants/{number}",
            )
    return tuple(items)


def _board_size(variants: tuple[str, ...] | None) -> RawValue:
    """The board's side, read from a variant such as "Smaller board (11x11)"; 13 without one.

    Raises ``InvalidRecordError`` (``bad-size``) for a board that is not square, or for two
    variants that give different sizes."""
    found: RawValue | None = None
    for number, text in enumerate(variants or ()):
        match = _SIZE.search(text)
        if match is None:
            continue
        where = Location(pointer=f"/header/game/variants/{number}")
        width, height, named = match.groups()
        if named is None and width != height:
            raise InvalidRecordError(
                f"the board {width}x{height} is not square", code="bad-size", where=where
            )
        side = str(int(named or width))
        if found is not None and found.text != side:
            raise InvalidRecordError(
                f"two variants give two board sizes, {found.text} and {side}",
                code="bad-size",
                where=where,
            )
        found = RawValue(side, where)
    return found or RawValue(str(DEFAULT_SIZE), Location(pointer="/header/game"))


def _no_komi_offer(variants: Sequence[str] | None) -> bool:
    return any(v.strip().lower() in NO_KOMI for v in variants or ())


def _swap_flag(header: dict[str, Any]) -> str | None:
    """The header flag that says the seats were swapped ("pied", "pie-invoked"), if set."""
    for flag in PIE_FLAGS:
        if flag in header and _boolean(header[flag], f"/header/{flag}"):
            return flag
    return None


def _opening(
    entries: list[str], variants: tuple[str, ...] | None, size: int, swapped: str | None
) -> _Opening:
    """The komi bid and the pie that open a game with komi offer (none without one)."""
    if _no_komi_offer(variants):
        opening = _Opening(RawValue("0", Location(pointer="/header/game/variants")), None, None, 0)
    elif not entries or entries[0] in END_WORDS:
        opening = _Opening(RawValue("0", Location(pointer="/moves")), "", None, 0)
    else:
        komi = _bid(_entry(entries, 0), size)
        second = entries[1] if len(entries) > 1 else None
        if second == PIE:
            opening = _Opening(komi, entries[0], swapped or KEPT, 2)
        elif second is None or second in END_WORDS:
            opening = _Opening(komi, entries[0], None, 1)
        else:
            raise NotationSyntaxError(
                f"expected 'pie' (the second player's choice of seats) after the komi bid, "
                f"found {second!r}",
                where=_entry(entries, 1).where,
            )
    if swapped is not None and opening.pie is None:
        raise InvalidRecordError(
            f"the header says the seats were swapped ({swapped!r}), but the move list has no pie",
            code="bad-pie",
            pointer=f"/header/{swapped}",
        )
    return opening


def _bid(entry: _Entry, size: int) -> RawValue:
    """The komi a bid gives; the site takes whole numbers up to the points plus one."""
    limit = size * size + 1
    if not BID.fullmatch(entry.text) or abs(int(entry.text)) > limit:
        raise InvalidRecordError(
            f"expected the komi bid, a whole number from -{limit} to {limit}, found "
            f"{entry.text!r} (a game without komi offer says so in its variants: "
            f"'No komi offer')",
            code="bad-komi",
            where=entry.where,
        )
    return RawValue(str(int(entry.text)), entry.where)


def _turns(entries: list[str], start: int) -> tuple[list[Turn], _Entry | None]:
    """The turns of the game from entry ``start`` on, and the end word (``resign``,
    ``timeout``) if there is one."""
    turns: list[Turn] = []
    last = len(entries) - 1
    known = _MOVES
    for number in range(start, last + 1):
        word = entries[number]
        move = known.get(word)
        if move is None:
            if word in ENDINGS:
                if number != last:
                    raise NotationSyntaxError(
                        f"{entries[number + 1]!r} stands after {word!r}, which ends the game",
                        where=_entry(entries, number + 1).where,
                    )
                return turns, _entry(entries, number)
            move = _move(_entry(entries, number))
            if len(known) >= MAX_MOVES_KEPT:
                known.clear()
            known[word] = move
        turns.append(_OF(_TURN, move, None, _where(number)))
    return turns, None


MAX_MOVES_KEPT: Final = 10_000
_MOVES: Final[dict[str, Move]] = {}
"""Moves already read, by their entry's text (moves are immutable values, and a site's
records name the same few hundred squares over and over); emptied when full."""
_OF: Final = tuple_of()
_TURN: Final[type[Turn]] = Turn
"""Constants: compiled code looks a class that is not compiled (a named tuple) up among the
module's globals at every use, here every ply, and reads a constant from a static."""
_PLACES: Final[list[Location]] = []
"""Where each entry of a move list stands, by its number: the same for every record."""


def _where(number: int) -> Location:
    """Where entry ``number`` of a move list stands (``/moves/ROUND/SEAT``)."""
    places = _PLACES
    while len(places) <= number:
        count = len(places)
        places.append(Location(pointer=f"/moves/{count >> 1}/{count & 1}"))
    return places[number]


def _move(entry: _Entry) -> Move:
    word = entry.text
    if word in UNREADABLE_ENDINGS:
        raise InvalidRecordError(
            f"the game ends with {word!r}: {GAME} has no draw, and a GRN result cannot say "
            "that a game was abandoned",
            code="bad-result",
            where=entry.where,
        )
    if word == PIE:
        raise NotationSyntaxError(
            "'pie' stands only after the komi bid, as the second entry of the first round",
            where=entry.where,
        )
    try:
        return parse_move(word)
    except RecordError as err:
        raise err.located(where=entry.where) from None


class _Seat(Plain):
    """One entry of ``header.players``: a seat, in the final seat order."""

    _fields = ("number", "name", "result", "fields")
    __slots__ = _fields

    def __init__(self, number: int, name: str, result: int, fields: Mapping[str, Any]) -> None:
        self.number: Final = number
        self.name: Final = name
        self.result: Final = result
        self.fields: Final = fields

    def at(self, key: str) -> Location:
        return Location(pointer=f"/header/players/{self.number}/{key}")


def _players(header: dict[str, Any]) -> list[_Seat]:
    players = _array(_member(header, "players", "/header"), "/header/players")
    if len(players) != 2:
        raise SchemaError(
            f"a {GAME} record has two players, this one has {len(players)}",
            pointer="/header/players",
        )
    return [_seat(number, item) for number, item in enumerate(players)]


def _seat(number: int, item: object) -> _Seat:
    pointer = f"/header/players/{number}"
    player = _object(item, pointer)
    name = _string(player, "name", pointer)
    result = _member(player, "result", pointer)
    if not (_is_number(result) and (isinstance(result, int) or result.is_integer())):
        raise SchemaError(
            f"a result is an integer, not {_kind(result)}", pointer=f"{pointer}/result"
        )
    checks = {"userid": str, "is_ai": bool}
    for key, kind in checks.items():
        if key in player and not isinstance(player[key], kind):
            raise SchemaError(
                f"{key!r} is a {kind.__name__}, not {_kind(player[key])}",
                pointer=f"{pointer}/{key}",
            )
    if "score" in player and not _is_number(player["score"]):
        raise SchemaError(
            f"a score is a number, not {_kind(player['score'])}", pointer=f"{pointer}/score"
        )
    return _Seat(number, name, int(result), player)


def _claim(seats: list[_Seat], ending: _Entry | None, colours: tuple[str, str]) -> RawValue:
    """The result the record claims: the winner from ``players[].result`` (never from the
    column of the end word), ``+R``/``+T`` for a resignation or a timeout, else the margin
    of the header's scores (checked on replay against the moves).

    Raises ``InvalidRecordError``: ``bad-result`` when both players have the same result,
    ``result-conflict`` when a timeout stands in the winner's column."""
    first, second = (seat.result for seat in seats)
    if first == second:
        raise InvalidRecordError(
            f"both players have the result {first}: {GAME} has no draw, so the record does not "
            "say who won",
            code="bad-result",
            pointer="/header/players/1/result",
        )
    winner = 0 if first > second else 1
    if ending is not None:
        if ending.text == "timeout" and ending.seat == winner:
            raise InvalidRecordError(
                f"'timeout' stands in the column of {seats[winner].name}, whom the header makes "
                "the winner: a timeout stands in the loser's column",
                code="result-conflict",
                where=ending.where,
            )
        return RawValue(f"{colours[winner]}+{ENDINGS[ending.text]}", ending.where)
    margin = _margin(seats[winner].fields.get("score"), seats[1 - winner].fields.get("score"))
    text = colours[winner] if margin is None else f"{colours[winner]}+{margin}"
    return RawValue(text, Location(pointer="/header/players"))


def _margin(won: object, lost: object) -> str | None:
    """The winning margin as a GRN result writes it, or None when the scores do not give
    one (missing, not ahead, or not a multiple of one half)."""
    if not (_is_number(won) and _is_number(lost)):
        return None
    return _margin_of(cast(int | float, won), cast(int | float, lost))


def _margin_of(won: int | float, lost: int | float) -> str | None:
    if won <= lost:
        return None
    try:
        margin = float(won) - float(lost)
    except OverflowError:  # an integer beyond a double: no score of a real game
        return None
    if not math.isfinite(margin):
        return None
    if margin == int(margin):
        return str(int(margin))
    return f"{int(margin)}.5" if margin * 2 == int(margin * 2) else None


def _tags(
    header: dict[str, Any],
    variants: tuple[str, ...] | None,
    opening: _Opening,
    seats: list[_Seat],
    colours: tuple[str, str],
) -> list[Tag]:
    tags = [*_site_tags(header), *_date_tags(header)]
    if variants is not None:
        tags.append(Tag(VARIANTS, _variants_text(variants), _at("/header/game/variants")))
    if opening.bid is not None:
        tags.append(Tag(KOMI_BID, opening.bid, opening.komi.where))
    if opening.pie is not None:
        tags.append(Tag(PIE_TAG, opening.pie, _at("/moves/0/1")))
    if "unrated" in header:
        value = _boolean(header["unrated"], "/header/unrated")
        tags.append(Tag(UNRATED, _json_text(value), _at("/header/unrated")))
    tags.extend(_seat_tags(seats, colours))
    extra = _extra(header, seats)
    if extra:
        tags.append(Tag(EXTRA, json.dumps(extra, ensure_ascii=False, separators=(",", ":"))))
    return tags


def _variants_text(variants: Sequence[str]) -> str:
    """The ``APVariants`` value: the variants joined by "; ", or, when that could not be
    split back into the same list, the list as JSON (a value that starts with "[")."""
    joined = VARIANT_SEPARATOR.join(variants)
    if variants_from_text(joined) == list(variants):
        return joined
    return json.dumps(list(variants), ensure_ascii=False)


def variants_from_text(text: str) -> list[str]:
    """The variants an ``APVariants`` value lists (see :func:`_variants_text`)."""
    if text.startswith("["):
        value = _json_value(text)
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return value
    return text.split(VARIANT_SEPARATOR) if text else []


def _site_tags(header: dict[str, Any]) -> Iterator[Tag]:
    """The tags a PGN reader knows (Event, Site, Date, Round), then the site's game id."""
    if "event" in header:
        yield Tag("Event", _text(header["event"], "/header/event"), _at("/header/event"))
    site = _object(_member(header, "site", "/header"), "/header/site")
    _only(site, ("name", "gameid"), "/header/site")
    yield Tag("Site", _string(site, "name", "/header/site"), _at("/header/site/name"))
    start = _date(_member(header, "date-start", "/header"), "/header/date-start")
    day = f"{start.year:04d}.{start.month:02d}.{start.day:02d}"
    yield Tag("Date", day, _at("/header/date-start"))
    if "round" in header:
        yield Tag("Round", _text(header["round"], "/header/round"), _at("/header/round"))
    if "gameid" in site:
        yield Tag(GAME_ID, _text(site["gameid"], "/header/site/gameid"), _at("/header/site/gameid"))


def _date_tags(header: dict[str, Any]) -> Iterator[Tag]:
    """The three dates, which the format requires, kept as written."""
    for key, tag in DATE_TAGS.items():
        _date(_member(header, key, "/header"), f"/header/{key}")
        yield Tag(tag, header[key], _at(f"/header/{key}"))


def _seat_tags(seats: list[_Seat], colours: tuple[str, str]) -> Iterator[Tag]:
    for what, key in PLAYER_TAGS:
        for colour, seat in zip(colours, seats, strict=True):
            if key in seat.fields:
                value = seat.fields[key]
                text = value if isinstance(value, str) else _json_text(value)
                yield Tag(player_tag(colour, what), text, seat.at(key))


def _extra(header: dict[str, Any], seats: list[_Seat]) -> dict[str, Any]:
    """Header and player fields this reader has no tag for, kept whole (``APExtra``)."""
    extra: dict[str, Any] = {}
    others = {
        key: value
        for key, value in header.items()
        if key not in HEADER_KEYS or (key in PIE_FLAGS and value is False)  # kept as written
    }
    if others:
        extra["header"] = others
    players = [{k: v for k, v in s.fields.items() if k not in PLAYER_KEYS} for s in seats]
    if any(players):
        extra["players"] = players
    return extra


# --- small structural checks ---------------------------------------------------------------


def _at(pointer: str) -> Location:
    return Location(pointer=pointer)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def _object(value: object, pointer: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SchemaError(f"expected an object, found {_kind(value)}", pointer=pointer)
    return value


def _array(value: object, pointer: str) -> list[Any]:
    if not isinstance(value, list):
        raise SchemaError(f"expected an array, found {_kind(value)}", pointer=pointer)
    return value


def _member(obj: dict[str, Any], key: str, pointer: str) -> Any:
    if key not in obj:
        what = "the record" if not pointer else repr(pointer.rsplit("/", 1)[-1])
        raise SchemaError(f"{what} needs {key!r}", pointer=pointer)
    return obj[key]


def _only(obj: dict[str, Any], keys: tuple[str, ...], pointer: str) -> None:
    """The format closes some objects (the record, ``game``, ``site``): refuse other keys."""
    for key in obj:
        if key not in keys:
            raise SchemaError(
                f"{key!r} is not a field of {'the record' if not pointer else repr(pointer)}",
                pointer=f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}",
            )


def _string(obj: dict[str, Any], key: str, pointer: str) -> str:
    value = _member(obj, key, pointer)
    if not isinstance(value, str):
        raise SchemaError(f"{key!r} is a string, not {_kind(value)}", pointer=f"{pointer}/{key}")
    return value


def _text(value: object, pointer: str) -> str:
    """A string, or a number kept as its JSON text (an id or a round may be either)."""
    if isinstance(value, str):
        return value
    if _is_number(value):
        return _json_text(value)
    raise SchemaError(f"expected a string, found {_kind(value)}", pointer=pointer)


def _boolean(value: object, pointer: str) -> bool:
    if not isinstance(value, bool):
        raise SchemaError(f"expected true or false, found {_kind(value)}", pointer=pointer)
    return value


def _date(value: object, pointer: str) -> datetime:
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass
    raise SchemaError(
        f"expected a date and time (ISO 8601), found {_describe(value)}", pointer=pointer
    )


def _is_number(value: object) -> bool:
    """A JSON number (``1e999`` reads as infinity: not one)."""
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, int) and not isinstance(value, bool)


def _json_text(value: object) -> str:
    return json.dumps(value)


def _describe(value: object) -> str:
    return repr(value[:40]) if isinstance(value, str) else _kind(value)


# --- writing -------------------------------------------------------------------------------

UNKNOWN = "?"
"""A required name the record does not give (PGN's convention for an unknown value)."""
KNOWN_TAGS = frozenset(
    {
        "Event",
        "Site",
        "Date",
        "Round",
        GAME_ID,
        *DATE_TAGS.values(),
        VARIANTS,
        KOMI_BID,
        PIE_TAG,
        UNRATED,
        EXTRA,
    }
)


def record_to_abstractplay(
    record: Record,
    *,
    winner: str | None = None,
    scores: Mapping[str, int | float] | None = None,
) -> dict[str, Any]:
    """Return the Abstract Play record of ``record`` (``spec/abstractplay.md``, "Writing").

    The winner is the one the record's result names, else ``winner``; each player's score
    comes from the record's ``AP<colour>Score`` tag, else from ``scores`` (by colour), else
    is left out. The tags the reader writes are read back, so that a record read from
    Abstract Play is written as it came (see :func:`abstractplay_losses` for what is left
    out); such a record gets no score it did not have.

    Raises :class:`InvalidRecordError` (code ``cannot-convert``) for a record the format
    cannot hold: another game than Pletore, a Setup, a komi the site does not take, no
    winner, a forfeit, or a timeout of the player who was not to move."""
    _check_writable(record)
    tags = {tag.name: tag.value for tag in record.tags}
    colours = find_game(GAME).colours
    won = colours.index(_written_winner(record, winner))
    nokomi = _written_no_komi(record, tags)
    entries = [*_opening_entries(record, tags, nokomi), *(str(t.move) for t in record.turns)]
    ending = _written_ending(record, won, len(entries))
    if ending is not None:
        entries.append(ending)
    header: dict[str, Any] = {"game": _written_game(record, tags, nokomi)}
    header.update(_written_site(tags))
    header.update(_written_dates(tags))
    if tags.get(UNRATED) in ("true", "false"):
        header["unrated"] = tags[UNRATED] == "true"
    computed = None if _from_site(tags) else scores
    header["players"] = [
        _written_player(record, tags, colour, number == won, computed)
        for number, colour in enumerate(colours)
    ]
    if tags.get(PIE_TAG) in PIE_FLAGS and PIE in entries[1:2]:
        header[tags[PIE_TAG]] = True
    _add_extra(header, tags.get(EXTRA))
    rounds = [entries[start : start + 2] for start in range(0, len(entries), 2)]
    return {"header": header, "moves": rounds}


def abstractplay_losses(record: Record) -> list[str]:
    """What the Abstract Play form of ``record`` leaves out: comments, and the tags it has
    no field for. Empty for a record read from Abstract Play."""
    colours = find_game(GAME).colours
    kept = KNOWN_TAGS | {player_tag(c, what) for c in colours for what, _ in PLAYER_TAGS}
    lost = [f"tag {tag.name!r}" for tag in record.tags if tag.name not in kept]
    notes = sum(turn.comment is not None for turn in record.turns) + (record.comment is not None)
    if notes:
        lost.insert(0, f"{notes} comment(s)")
    return lost


def _from_site(tags: Mapping[str, str]) -> bool:
    """Whether the record was read from Abstract Play: every such record has one of these."""
    return KOMI_BID in tags or VARIANTS in tags


def _cannot(message: str) -> InvalidRecordError:
    return InvalidRecordError(message, code="cannot-convert")


def _check_writable(record: Record) -> None:
    if record.game != GAME:
        raise _cannot(f"Abstract Play records are written for {GAME} only, not {record.game}")
    if record.setup is not None:
        raise _cannot("an Abstract Play game starts from the empty board; this record has a Setup")
    limit = record.size * record.size + 1
    if record.komi is None or abs(record.komi) > limit:
        raise _cannot(
            f"Abstract Play takes a komi from -{limit} to {limit} on {record.size}x{record.size}"
        )


def _written_winner(record: Record, winner: str | None) -> str:
    colour = record.result.partition("+")[0]
    if colour in find_game(GAME).colours:
        return colour
    if winner is None:
        raise _cannot("an Abstract Play record needs the winner; this game has no result yet")
    return winner


def _written_no_komi(record: Record, tags: Mapping[str, str]) -> bool:
    """A game without komi offer stays one only while its komi is 0 and it has no bid."""
    variants = variants_from_text(tags[VARIANTS]) if VARIANTS in tags else None
    return _no_komi_offer(variants) and record.komi == 0 and KOMI_BID not in tags


def _opening_entries(record: Record, tags: Mapping[str, str], nokomi: bool) -> list[str]:
    """The bid and the pie, as the record read from Abstract Play had them; a record from
    elsewhere gets the bid of its komi and the pie without a swap."""
    if nokomi:
        return []
    bid = tags.get(KOMI_BID)
    if bid == "" and not record.turns and record.komi == 0:
        return []  # the game ended before the bid
    if bid is None or not BID.fullmatch(bid) or int(bid) != record.komi:
        bid = str(record.komi)
    pie = PIE_TAG in tags or bool(record.turns) or KOMI_BID not in tags
    return [bid, PIE] if pie else [bid]


def _written_ending(record: Record, won: int, count: int) -> str | None:
    """``resign`` or ``timeout`` from the result's ``+R``/``+T``; ``count`` entries precede
    it, so the seat to move is ``count % 2``."""
    how = record.result.partition("+")[2]
    if how == "F":
        raise _cannot("Abstract Play records have no forfeit")
    if how == "T" and count % 2 == won:
        raise _cannot(
            "on Abstract Play the player who runs out of time is the one to move; here the "
            "winner on time was to move"
        )
    words = {code: word for word, code in ENDINGS.items()}
    return words.get(how)


def _written_game(record: Record, tags: Mapping[str, str], nokomi: bool) -> dict[str, Any]:
    game: dict[str, Any] = {"name": GAME}
    if VARIANTS in tags:
        written = variants_from_text(tags[VARIANTS])
        if (
            _size_of(written) == record.size
            and _no_komi_offer(written) == nokomi
            and len(set(written)) == len(written)
        ):
            game["variants"] = written
            return game
    elif _from_site(tags) and record.size == DEFAULT_SIZE and not nokomi:
        return game  # read from a record that listed no variants
    size = SIZE_NAMES.get(record.size, f"Board ({record.size}x{record.size})")
    game["variants"] = [size, NO_KOMI[0].capitalize() if nokomi else KOMI_OFFER]
    return game


def _size_of(variants: list[str]) -> int | None:
    try:
        return int(_board_size(tuple(variants)).text)
    except RecordError:
        return None


def _written_site(tags: Mapping[str, str]) -> dict[str, Any]:
    header: dict[str, Any] = {}
    for tag, key in (("Event", "event"), ("Round", "round")):
        if tag in tags:
            header[key] = tags[tag]
    site = {"name": tags.get("Site", UNKNOWN)}
    if GAME_ID in tags:
        site["gameid"] = tags[GAME_ID]
    header["site"] = site
    return header


def _written_dates(tags: Mapping[str, str]) -> dict[str, str]:
    """The three dates: kept ones where they agree with the ``Date`` tag, else that date at
    midnight (UTC), else the time of writing."""
    day = _pgn_day(tags.get("Date"))
    start = _iso(tags.get(DATE_TAGS["date-start"]))
    if start is None or (day is not None and not start.startswith(day)):
        start = f"{day}T00:00:00.000Z" if day is not None else None
    end = _iso(tags.get(DATE_TAGS["date-end"])) or start
    generated = _iso(tags.get(DATE_TAGS["date-generated"])) or end
    now = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {
        "date-start": start or now,
        "date-end": end or now,
        "date-generated": generated or now,
    }


def _pgn_day(text: str | None) -> str | None:
    """The ISO day (``2026-06-08``) of a GRN ``Date`` (``2026.06.08``), or None."""
    try:
        return datetime.strptime(text or "", "%Y.%m.%d").date().isoformat()
    except ValueError:
        return None


def _iso(text: str | None) -> str | None:
    """``text`` if it is a date and time in ISO 8601, else None."""
    try:
        return text if text and datetime.fromisoformat(text) else None
    except ValueError:
        return None


def _written_player(
    record: Record,
    tags: Mapping[str, str],
    colour: str,
    won: bool,
    scores: Mapping[str, int | float] | None,  # not float: compiled, 13 would become 13.0
) -> dict[str, Any]:
    name = record.player(colour)
    player: dict[str, Any] = {"name": UNKNOWN if name is None else name}
    for what, key in PLAYER_TAGS:
        text = tags.get(player_tag(colour, what))
        if text is None:
            continue
        if key == "userid":
            player[key] = text
        elif (value := _json_value(text)) is not None and _fits(key, value):
            player[key] = value
    if "score" not in player and scores is not None and colour in scores:
        player["score"] = scores[colour]
    player["result"] = 1 if won else 0
    return player


def _fits(key: str, value: object) -> bool:
    return isinstance(value, bool) if key == "is_ai" else _is_number(value)


def _json_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _add_extra(header: dict[str, Any], text: str | None) -> None:
    """Put back the fields kept in ``APExtra`` (never over a field written above)."""
    extra = _json_value(text) if text else None
    if not isinstance(extra, dict):
        return
    if isinstance(extra.get("header"), dict):
        for key, value in extra["header"].items():
            header.setdefault(key, value)
    players = extra.get("players")
    if isinstance(players, list):
        for player, fields in zip(header["players"], players, strict=False):
            if isinstance(fields, dict):
                for key, value in fields.items():
                    player.setdefault(key, value)
