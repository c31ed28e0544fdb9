"""The words of games and events on the pages, in the page's language.

What the events' layer says of a game (its title, whether it counts and why, who won, the
trail's entries) it says in English, once, for the API, the TRF and the pages alike. The
pages say it in their reader's language: from what a game holds where that is at hand
(:func:`title`, :func:`result_words`, :func:`verdict`, :func:`progress`), and otherwise by
reading the English sentence against the phrase book, :data:`PHRASES`, each of whose
entries is an English sentence with its variable parts as ``%(name)s``, translated in the
catalogues like any message (:func:`phrase`). A part named ``phrase`` is itself a phrase,
one named ``error`` a record's error (``illegal-move at ply 31: ...``); the others
(names, numbers, results) are kept as they are. In English nothing is read again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from arbiter.service.web.codes import RECORD_CODES, record_error
from arbiter.service.web.languages import (
    DEFAULT,
    N_,
    gettext,
    language,
    number,
    pgettext,
    translations,
)

# --- the games' own words ----------------------------------------------------------------

COLOURS: Mapping[str, str] = {
    "Blue": N_("Blue"),
    "Orange": N_("Orange"),
    "Black": N_("Black"),
    "White": N_("White"),
    "Red": N_("Red"),
}
"""The games' colours, as their rules name them."""

TERMINATIONS: Mapping[str, str] = {
    "rules": N_("by the rules"),
    "resignation": N_("by resignation"),
    "time": N_("on time"),
    "forfeit": N_("by forfeit"),
}
"""How a game ended (a report's ``termination``)."""

TIEBREAKS: Mapping[str, tuple[str, str, str]] = {
    "buchholz": (N_("Buchholz"), N_("BH"), N_(
        "the sum of the scores of the opponents met (unplayed rounds as FIDE's regulations "
        "count them)")),
    "sonneborn-berger": (N_("Sonneborn-Berger"), N_("SB"), N_(
        "the sum of the scores of the opponents beaten")),
    "wins": (N_("Games won"), N_("Wins"), N_(
        "the number of games won over the board (forfeits not counted)")),
    "direct": (N_("Direct encounter"), N_("DE"), N_(
        "the place among the players still tied, by their games against each other; blank "
        "for a player who was not tied when it was reached")),
    "margin": (N_("Margin"), N_("Mgn"), N_(
        "the sum of the player's winning and losing margins in scored games")),
}  # fmt: skip
"""Each tie-break's name, short heading and explanation, as FIDE's handbook names them in
each language (the English ones are :data:`arbiter.adjudicator.tiebreaks.TITLES` and
``EXPLANATIONS``: a test holds them together)."""

WARNINGS: Mapping[str, str] = {
    "no-event-tag": N_(
        "the record has no Event tag; it counts for the event it was uploaded to"),
    "event-tag-differs": N_(
        "the record's Event tag names another event; it counts for the event it was "
        "uploaded to"),
    "names-taken": N_("the director placed it: its names are taken as the board's players"),
    "names-folded": N_("its board was found by its players' names written otherwise"),
}  # fmt: skip
"""What a director should look at in a record that counts all the same, by its code."""


def colour(name: str) -> str:
    """A colour of a game, in the page's language."""
    return gettext(COLOURS[name]) if name in COLOURS else name


def letters(colours: Sequence[str]) -> dict[str, str]:
    """The letter each colour is shown with in the crosstable: its initial in the page's
    language, lower case, or the first and second letters of ``white, black`` in it when
    the two initials are the same (as :func:`~arbiter.service.core.standings_formats.
    colour_letters` does in English)."""
    if len(colours) != 2:
        return {}
    first, second = colours
    a, b = colour(first)[:1].lower(), colour(second)[:1].lower()
    if a == b:
        a, b = pgettext("letter of white", "w"), pgettext("letter of black", "b")
    return {first: a, second: b}


def termination(word: str | None) -> str:
    """How a game ended (a report's ``termination``): the word itself in English, as the
    crosstable has always said it, words in another language."""
    if word is None:
        return ""
    if language() == DEFAULT or word not in TERMINATIONS:
        return word
    return gettext(TERMINATIONS[word])


def tiebreak_title(name: str) -> str:
    return gettext(TIEBREAKS[name][0]) if name in TIEBREAKS else name


def tiebreak_short(name: str) -> str:
    return gettext(TIEBREAKS[name][1]) if name in TIEBREAKS else name


def tiebreak_explanation(name: str) -> str:
    return gettext(TIEBREAKS[name][2]) if name in TIEBREAKS else ""


def warning(one: Any) -> str:
    """A record's warning: its sentence in English, what its code means in another
    language."""
    if language() == DEFAULT or one.code not in WARNINGS:
        return str(one.message)
    return gettext(WARNINGS[one.code])


# --- a game as the pages name it ---------------------------------------------------------


def title(game: Any) -> str:
    """``Round 3 · Board 2 · A v B`` (``Round 3 · Record 12 · A v B`` without boards)."""
    parts = [gettext("Round %(round)s", round=game.round)] if game.round is not None else []
    if game.board is not None:
        parts.append(gettext("Board %(board)s", board=game.board))
    elif game.record is not None:
        parts.append(gettext("Record %(record)s", record=game.record.record))
    parts.append(gettext("%(first)s v %(second)s", first=game.first, second=game.second))
    return " · ".join(parts)


def result_words(game: Any) -> str:
    """Who won, in words, with the result: ``Ana Ruiz won, Orange+17``, ``Bo Chen won by
    forfeit, -+``, ``both lost by forfeit (--)``; empty while it waits."""
    said = game.shown or game.result
    if said is None or game.counting.state != "counts":
        return ""
    if game.result == "--":
        return gettext("both lost by forfeit (--)")
    if game.winner is None:
        return str(said)
    if game.result in ("+-", "-+") or said.endswith("+F"):
        return gettext("%(winner)s won by forfeit, %(result)s", winner=game.winner, result=said)
    return gettext("%(winner)s won, %(result)s", winner=game.winner, result=said)


def verdict(game: Any) -> str:
    """The adjudicator's verdict on a game's record: its result and validity, or its first
    error; empty for a board without a record."""
    record = game.record
    if record is None:
        return ""
    if record.valid:
        return gettext("%(result)s, valid", result=record.adjudicated_result)
    errors = record.report.get("errors") or []
    return record_error(errors[0]) if errors else gettext("invalid")


def progress(games: Any) -> str:
    """Where the event stands: ``round 2 of 5 in play``, ``round 2 of 5 finished``, ``all 5
    rounds played``, ``no round paired yet``; for an event without pairings, the highest
    round of a counted game."""
    summary = games.summary
    planned = summary.rounds
    if not summary.paired:
        return gettext("round %(round)s of %(planned)s", round=summary.rounds_played,
                       planned=planned or "?")  # fmt: skip
    if not games.rounds:
        return gettext("no round paired yet")
    last = max(games.rounds)
    if any(line.result is None for line in games.rounds[last]):
        if planned:
            return gettext("round %(round)s of %(planned)s in play", round=last, planned=planned)
        return gettext("round %(round)s in play", round=last)
    if planned is not None and last >= planned:
        return gettext("all %(planned)s rounds played", planned=planned)
    if planned:
        return gettext("round %(round)s of %(planned)s finished", round=last, planned=planned)
    return gettext("round %(round)s finished", round=last)


def hint(item: Mapping[str, Any], claimed: str | None) -> str:
    """A repair suggestion in words: ``did you mean ply 23 c4 (written c3: rank off by one;
    then the game replays to Blue+5, as claimed)``."""
    from arbiter.service.core.suggestions import said, shown

    if language() == DEFAULT:
        return said(item, claimed)
    parts = []
    written, slip = item.get("written"), item.get("slip")
    text = gettext("written %(move)s", move=shown(written)) if isinstance(written, str) else ""
    if isinstance(slip, str) and slip:
        slip_text = phrase(slip)
        text = f"{text}: {slip_text}" if text else slip_text
    if text:
        parts.append(text)
    result = item.get("result")
    if item.get("replays") is not True:
        parts.append(gettext("then that ply is legal"))
    elif not isinstance(result, str):
        parts.append(gettext("then every move is legal"))
    elif item.get("claimed") is True:
        parts.append(gettext("then the game replays to %(result)s, as claimed",
                             result=shown(result)))  # fmt: skip
    elif claimed and claimed != "*":
        parts.append(gettext("then the game replays to %(result)s, not the claimed %(claimed)s",
                             result=shown(result), claimed=shown(claimed)))  # fmt: skip
    else:
        parts.append(gettext("then the game replays to %(result)s", result=shown(result)))
    return gettext("did you mean ply %(ply)s %(move)s (%(why)s)", ply=item["ply"],
                   move=shown(item["move"]), why="; ".join(parts))  # fmt: skip


def board_words(fit: Any) -> str:
    """A board a record may belong to: ``round 2 board 3, Ana Ruiz v Bo Chen``."""
    return gettext("round %(round)s board %(board)s, %(first)s v %(second)s", round=fit.round,
                   board=fit.board, first=fit.first, second=fit.second)  # fmt: skip


# --- the phrase book ---------------------------------------------------------------------

PHRASES: Sequence[str] = (
    # whether a record counts, and why (events.pages.counting)
    N_("waits for the director's confirmation"),
    N_("does not count: excluded by the director: %(why)s"),
    N_("does not count: excluded by the director"),
    N_("does not count: %(error)s; board %(board)s waits for its result"),
    N_("does not count: %(phrase)s"),
    N_("stands on board %(board)s but gives no finished result"),
    N_("counts on board %(board)s of round %(round)s"),
    N_("counts with the official result"),
    N_("counts"),
    N_("counts with the result the director gave the board"),
    N_("counts with the result both players reported"),
    N_("disputed: its players reported different results; the director decides"),
    N_("one player reported its result; waits for the other's report"),
    N_("waits for its record"),
    # why a record stands on no board (events.rules.PLACEMENT_WORDS)
    N_("its players were not paired together in its round"),
    N_("its players were paired the other way round (first seat, second seat)"),
    N_("its players were not paired in the round its tags give"),
    N_("its board has a result or a record already"),
    N_("it could not be read, so it names no players"),
    N_("it was sent with an upload token made for a player not on its board"),
    N_("the record is a game of another game"),
    N_("the record is a game of %(game)s; this event is of %(event_game)s"),
    # what the standings say of a record they leave out (adjudicator.standings)
    N_("the record has no Event tag"),
    N_("the record does not name both players (%(tags)s tags)"),
    N_("%(name)s is named for both colours"),
    N_("the record has no Round tag"),
    N_("Round %(value)s is not a round number (a whole number from 1 to %(most)s)"),
    N_("the game is not finished and the record gives no result (*)"),
    N_("the report names no player of this record as the winner"),
    N_("%(name)s already has a counted game in round %(round)s (%(phrase)s)"),
    N_("%(first)s and %(second)s already have a counted game in round %(round)s "
       "(%(phrase)s), which gives the other winner"),
    N_("%(first)s and %(second)s already have a counted game in round %(round)s (%(phrase)s)"),
    N_("record %(record)s"),
    N_("the names %(names)s differ only in letter case; they are different players here"),
    N_("no game counts in round %(round)s"),
    N_("%(player)s withdrew from round %(round)s having played %(played)s of %(games)s games, "
       "fewer than half: no game of theirs counts in the standings, for them or for their "
       "opponents (FIDE's rule for a round robin)"),
    # a player's round (events.pages.PlayerRound.outcome)
    N_("won"),
    N_("lost"),
    N_("no winner"),
    N_("waits for its result"),
    N_("lost by forfeit (both absent)"),
    N_("won by forfeit"),
    N_("lost by forfeit"),
    N_("absent (not paired)"),
    N_("not checked in (not paired)"),
    N_("pairing-allocated bye, %(points)s point"),
    N_("pairing-allocated bye, %(points)s points"),
    N_("bye asked for, %(points)s point"),
    N_("bye asked for, %(points)s points"),
    # the slips of repair suggestions (adjudicator.hints)
    N_("a character doubled"),
    N_("a character dropped"),
    N_("a character too many"),
    N_("a direction doubled"),
    N_("a direction dropped"),
    N_("a direction miswritten"),
    N_("a direction reversed"),
    N_("a look-alike character"),
    N_("a neighbouring key"),
    N_("file off by one"),
    N_("file off by two"),
    N_("rank off by one"),
    N_("rank off by two"),
    N_("the directions reversed"),
    N_("the two squares swapped"),
    N_("two characters swapped"),
    N_("two directions swapped"),
    N_("two squares swapped"),
    # the trail: who (events.trail_words.who_did_it)
    N_("the server"),
    N_("%(label)s (upload token %(token)s)"),
    N_("%(label)s (player token %(token)s)"),
    N_("%(label)s (director token %(token)s)"),
    N_("%(label)s (token %(token)s)"),
    # the trail: what (events.trail_words, events.actions)
    N_("%(action)s (its details cannot be read)"),
    N_("record %(record)s (round %(round)s, %(names)s)"),
    N_("record %(record)s (%(names)s)"),
    N_("record %(record)s (round %(round)s, unreadable)"),
    N_("record %(record)s (unreadable)"),
    N_("%(phrase)s: excluded"),
    N_("%(phrase)s: counted again"),
    N_("%(phrase)s: official result %(result)s (adjudicated %(adjudicated)s)"),
    N_("%(phrase)s: official result taken back: the adjudicated result counts"),
    N_("created the event %(name)s (%(game)s)"),
    N_("created the event %(name)s (%(game)s, %(rounds)s rounds planned)"),
    N_("created the event %(name)s (%(game)s, paired (%(system)s))"),
    N_("created the event %(name)s (%(game)s, %(rounds)s rounds planned, paired (%(system)s))"),
    N_("created the event %(name)s (%(game)s, %(rounds)s rounds planned, paired (%(system)s), "
       "Baku acceleration)"),
    N_("changed %(changes)s"),
    N_("finalised the event: its results are final"),
    N_("issued an upload token (token %(token)s) for %(label)s"),
    N_("issued a player's token (token %(token)s) for %(label)s"),
    N_("issued a director's token (token %(token)s) for %(label)s"),
    N_("revoked token %(token)s"),
    N_("uploaded %(file)s: no record"),
    N_("uploaded %(file)s: record %(record)s"),
    N_("uploaded %(file)s: record %(record)s, %(waiting)s waiting for confirmation"),
    N_("uploaded %(file)s: records %(first)s-%(last)s"),
    N_("uploaded %(file)s: records %(first)s-%(last)s, %(waiting)s waiting for confirmation"),
    N_("confirmed %(phrase)s: it counts"),
    N_("added webhook %(webhook)s (%(kinds)s)"),
    N_("removed webhook %(webhook)s"),
    N_("%(name)s entered"),
    N_("%(name)s (rating %(rating)s) entered"),
    N_("%(name)s entered, a late entry from round %(round)s"),
    N_("%(name)s (rating %(rating)s) entered, a late entry from round %(round)s"),
    N_("player %(number)s %(name)s: %(changes)s"),
    N_("%(name)s (number %(number)s) removed: entered by mistake, never paired"),
    N_("%(name)s (number %(number)s): the half-point bye of round %(round)s is cancelled"),
    N_("%(name)s (number %(number)s): the zero-point bye of round %(round)s is cancelled"),
    N_("%(name)s (number %(number)s): the withdrawal from round %(was)s is taken back; "
       "paired again from round %(round)s"),
    N_("%(name)s (number %(number)s) withdrawn from round %(round)s"),
    N_("%(name)s (number %(number)s) asks for a half-point bye in round %(round)s"),
    N_("%(name)s (number %(number)s) asks for a zero-point bye in round %(round)s"),
    N_("round %(round)s paired as a draft (its boards shown once published)"),
    N_("round %(round)s paired as a draft: %(boards)s"),
    N_("round %(round)s paired: %(boards)s"),
    N_("round %(round)s paired by hand: %(boards)s; the system's pairing: %(others)s; "
       "warned: %(warnings)s"),
    N_("round %(round)s paired by hand: %(boards)s; the system's pairing: %(others)s"),
    N_("round %(round)s unpaired"),
    N_("round %(round)s published"),
    N_("%(name)s (number %(number)s) checked in for round %(round)s"),
    N_("%(name)s (number %(number)s) no longer checked in for round %(round)s"),
    N_("round %(round)s board %(board)s: result %(result)s taken back"),
    N_("round %(round)s board %(board)s: result %(result)s"),
    N_("record %(record)s counted on round %(round)s board %(board)s (it was %(was)s); "
       "its %(taken)s"),
    N_("record %(record)s counted on round %(round)s board %(board)s; its %(taken)s"),
    N_("record %(record)s counted on round %(round)s board %(board)s (it was %(was)s)"),
    N_("record %(record)s counted on round %(round)s board %(board)s"),
    N_("%(name)s (number %(number)s) reported %(result)s on round %(round)s board %(board)s"),
    N_("prohibition %(number)s: no two of %(players)s are paired together in %(rounds)s"),
    N_("prohibition %(number)s: no two of %(players)s are paired together in %(rounds)s "
       "(added after round %(round)s was paired)"),
    N_("prohibition %(number)s taken back"),
    N_("prohibition %(number)s taken back: %(players)s in %(rounds)s"),
    N_("prohibition %(number)s taken back: %(players)s in %(rounds)s; it held in %(held)s, "
       "paired already"),
)  # fmt: skip
"""Every English sentence of the lower layers that a page shows, as a message."""

FIELDS: Mapping[str, str] = {
    "the name": N_("the name"),
    "the planned rounds": N_("the planned rounds"),
    "the tie-break order": N_("the tie-break order"),
    "the acceleration": N_("the acceleration"),
    "whether players' uploads wait for confirmation": N_(
        "whether players' uploads wait for confirmation"),
    "name": N_("name"),
    "rating": N_("rating"),
    "federation": N_("federation"),
    "id": N_("FIDE id"),
}  # fmt: skip
"""The fields the trail says were changed (an event's, a player's)."""

VALUES: Mapping[str, str] = {
    "yes": N_("yes"), "no": N_("no"), "none": N_("none"), "baku": N_("Baku"),
}  # fmt: skip

SYSTEMS: Mapping[str, str] = {
    "dutch": N_("Swiss (FIDE Dutch)"),
    "round-robin": N_("round robin"),
    "double-round-robin": N_("double round robin"),
    "double-round-robin-plain": N_("double round robin, the table's order"),
}
"""The pairing systems an event is created with."""

KINDS: Mapping[str, str] = {
    "round-published": N_("rounds published"),
    "result": N_("results"),
    "correction": N_("corrections"),
    "finalised": N_("the event finalised"),
}
"""The kinds of change a webhook sends."""

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
_ERROR = re.compile(
    r"(?P<code>[a-z]+(?:-[a-z]+)*)(?: at ply (?P<ply>\d+)|"
    r" \(line (?P<line>\d+), column (?P<column>[^)]*)\))?: (?P<message>.*)",
    re.DOTALL,
)


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str, int], ...]:
    """Each phrase as a pattern that reads its variable parts, with the length of its own
    words."""
    made = []
    for message in PHRASES:
        pieces = _PLACEHOLDER.split(message)
        regex = "".join(
            re.escape(piece) if i % 2 == 0 else f"(?P<{piece}>.+?)"
            for i, piece in enumerate(pieces)
        )
        made.append((re.compile(regex, re.DOTALL), message, len(_PLACEHOLDER.sub("", message))))
    return tuple(made)


MISSED: list[str] = []
"""The sentences :func:`phrase` found in no entry of the phrase book, for the tests."""


def _read(text: str) -> tuple[int, str, dict[str, str]] | None:
    """The entry of the phrase book that reads ``text`` with the most of its words, those
    of the phrases within it counted (``does not count: A and B already have ...`` is an
    exclusion whose reason is a phrase, not a phrase whose first name is ``does not count:
    A``), with its variable parts; None when no entry reads it."""
    best: tuple[int, str, dict[str, str]] | None = None
    for pattern, message, said in _patterns():
        found = pattern.fullmatch(text)
        if found is None:
            continue
        parts = found.groupdict()
        inner = _read(parts["phrase"]) if "phrase" in parts else None
        score = said + (inner[0] if inner is not None else 0)
        if best is None or score > best[0]:
            best = (score, message, parts)
    return best


def phrase(text: str) -> str:
    """An English sentence of the lower layers in the page's language (as it is in
    English, or when the phrase book has no entry for it)."""
    if language() == DEFAULT or not text:
        return text
    found = _read(text)
    if found is not None:
        _score, message, parts = found
        return gettext(message, **{name: _part(name, value) for name, value in parts.items()})
    error = _ERROR.fullmatch(text)
    if error is not None and error["code"] in RECORD_CODES or text == "invalid":
        return record_error(error.groupdict()) if error is not None else gettext("invalid")
    MISSED.append(text)
    return text


def _part(name: str, value: str) -> str:
    """A variable part of a phrase, in the page's language where it is words."""
    reader = _PARTS.get(name)
    return reader(value) if reader is not None else value


def _error(value: str) -> str:
    found = _ERROR.fullmatch(value)
    return record_error(found.groupdict()) if found is not None else phrase(value)


def _changes(value: str) -> str:
    """``the planned rounds to 5, whether ... to yes`` (an event's) or ``rating 1500 to
    1600`` (a player's), field by field."""
    fields = "|".join(re.escape(field) for field in sorted(FIELDS, key=len, reverse=True))
    said = []
    for part in re.split(rf", (?=(?:{fields}) )", value):
        found = re.fullmatch(rf"({fields}) (?:(.*?) )?to (.*)", part, re.DOTALL)
        if found is None:
            said.append(part)
            continue
        field, was, now = found.groups()
        now = gettext(VALUES[now]) if now in VALUES else now
        named = gettext(FIELDS[field])
        said.append(gettext("%(field)s %(was)s to %(value)s", field=named, was=was, value=now)
                    if was is not None else gettext("%(field)s to %(value)s", field=named,
                                                    value=now))  # fmt: skip
    return ", ".join(said)


def _kinds(value: str) -> str:
    return ", ".join(gettext(KINDS[kind]) if kind in KINDS else kind for kind in value.split(", "))


def _boards(value: str) -> str:
    return value.replace(" byes ", " " + gettext("byes") + " ")


def _file(value: str) -> str:
    return gettext("a request body") if value == "a request body" else value


def _rounds(value: str) -> str:
    """``round 2`` or ``rounds 2-5`` (the rounds a prohibition holds in)."""
    found = re.fullmatch(r"rounds (\d+)-(\d+)", value)
    if found is not None:
        return gettext("rounds %(first)s-%(last)s", first=found[1], last=found[2])
    found = re.fullmatch(r"round (\d+)", value)
    return gettext("round %(round)s", round=found[1]) if found is not None else value


def _points(value: str) -> str:
    try:
        return number(float(value))
    except ValueError:
        return value


_PARTS: Mapping[str, Callable[[str], str]] = {
    "phrase": phrase,
    "error": _error,
    "changes": _changes,
    "kinds": _kinds,
    "boards": _boards,
    "others": _boards,
    "file": _file,
    "points": _points,
    "rounds": _rounds,
    "held": _rounds,
    "names": lambda value: value.replace(" v ", " " + gettext("v") + " "),
    "tags": lambda value: value.replace(" and ", " " + gettext("and") + " "),
    "system": lambda value: gettext(SYSTEMS[value]) if value in SYSTEMS else value,
}


def counted(game: Any) -> str:
    """Whether a game counts and why, in words."""
    return phrase(str(game.counting.words))


def outcome(one: Any) -> str:
    """What came of a player's round, in words."""
    return phrase(str(one.outcome))


def trail_who(text: str) -> str:
    return phrase(text)


def trail_what(text: str) -> str:
    return phrase(text)


def known(message: str) -> bool:
    """Whether the page's catalogue translates ``message`` (English knows them all)."""
    return language() == DEFAULT or translations().gettext(message) != message


def points_text(points: float) -> str:
    """Points beside a name: ``1 pt``, ``2.5 pts``."""
    if points == 1:
        return gettext("%(points)s pt", points=number(points))
    return gettext("%(points)s pts", points=number(points))


def colour_legend(shown: Mapping[str, str]) -> str:
    """The crosstable's letters and their colours: ``b Blue, o Orange``."""
    return ", ".join(f"{letter} {colour(name)}" for name, letter in shown.items())


KIND_WORDS: Mapping[str, str] = {"none": N_("none: records are uploaded"), **SYSTEMS}
"""Each kind of event as the creation form offers it (a kind without words here is offered
by its own, in English: :attr:`~arbiter.service.events.kind.EventKind.words`)."""


def kind_words(kind: Any) -> str:
    """A kind of event (:mod:`arbiter.service.events.kinds`) in the page's language."""
    said = KIND_WORDS.get(kind.stored)
    return gettext(said) if said is not None else str(kind.words)
