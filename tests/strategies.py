"""Hypothesis strategies shared by the test suite: random records that are well formed for
their game (not necessarily legal), and random legal games drawn from the engines."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import HealthCheck
from hypothesis import strategies as st

from arbiter.adjudicator import get_rules
from arbiter.notation.ast import (
    Button,
    Capture,
    Flip,
    ImploPlace,
    Move,
    Pass,
    Place,
    Point,
    Record,
    Resolve,
    Sow,
    Swap,
    Tag,
    Turn,
)
from arbiter.notation.games import GameDescription, all_games, find_game
from arbiter.notation.position import format_position

SPECIAL = {"Game", "Size", "Komi", "Setup", "Result"}
ALL_COLOURS = {c for game in all_games() for c in game.colours}
GAME_NAMES = [game.name for game in all_games()]
"""The registered games, for parametrized tests."""
EVERY_HEALTH_CHECK: list[HealthCheck] = [c for c in HealthCheck if isinstance(c, HealthCheck)]
"""``list(HealthCheck)``, typed: the metaclass that leaves out the deprecated checks hides
the members' type from a type checker."""

tag_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,11}", fullmatch=True).filter(
    lambda name: name not in SPECIAL and name not in ALL_COLOURS
)
tag_values = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=20
)
comments = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="}"), max_size=20
).map(str.strip)


def points(size: int) -> st.SearchStrategy[Point]:
    return st.builds(Point, st.integers(0, size - 1), st.integers(0, size - 1))


def moves(spec: GameDescription, size: int) -> st.SearchStrategy[Move]:
    """Any move form of the game, anywhere on the board."""
    pt = points(size)
    forms: dict[str, st.SearchStrategy[Move]] = {
        "pass": st.just(Pass()),
        "swap": st.just(Swap()),
        "button": st.just(Button()),
        "move": st.builds(Capture, pt, pt),
        "flip": st.builds(Flip, pt),
        "sow": st.builds(Sow, pt, st.text("nsew", min_size=1, max_size=8)),
    }
    if spec.resolve:
        steps = st.builds(Resolve, pt, st.none() | pt)
        forms["place"] = st.builds(ImploPlace, pt, st.lists(steps, max_size=3).map(tuple))
    else:
        forms["place"] = st.builds(Place, pt)
    return st.one_of(*(forms[name] for name in sorted(spec.moves)))


def results(spec: GameDescription) -> st.SearchStrategy[str]:
    colour = st.sampled_from(spec.colours)
    endings = [st.sampled_from(["+R", "+T", "+F"])]
    if spec.scored:
        endings.append(st.integers(0, 400).map(lambda n: f"+{n}"))
        if spec.half_points:
            endings.append(st.integers(0, 400).map(lambda n: f"+{n}.5"))
    else:
        endings.append(st.just(""))
    return st.just("*") | st.builds(lambda c, e: c + e, colour, st.one_of(*endings))


@st.composite
def setups(draw: st.DrawFn, spec: GameDescription, size: int) -> str:
    cell = st.just("") | st.text(spec.letters, min_size=1, max_size=3)
    grid = tuple(tuple(draw(cell) for _ in range(size)) for _ in range(size))
    return format_position(grid)


@st.composite
def records(draw: st.DrawFn, game: str | None = None, max_moves: int = 30) -> Record:
    """A well-formed record of ``game`` (or any game): any moves, tags, comments, result."""
    spec = find_game(game) if game else draw(st.sampled_from(list(all_games())))
    size = draw(st.sampled_from(spec.sizes))
    names = draw(st.lists(tag_names, max_size=4, unique=True))
    turns = draw(
        # Turn built by hand: st.builds would also fill the defaulted ``where`` of the
        # compiled class (which shows no signature) with something of its own.
        st.lists(
            st.tuples(moves(spec, size), st.none() | comments).map(lambda t: Turn(*t)),
            max_size=max_moves,
        )
    )
    return Record(
        game=spec.name,
        size=size,
        komi=draw(st.integers(-20, 20)) if spec.komi else None,
        setup=draw(st.none() | setups(spec, size)),
        players=tuple((c, draw(tag_values)) for c in spec.colours if draw(st.booleans())),
        tags=tuple(Tag(name, draw(tag_values)) for name in names),
        turns=tuple(turns),
        result=draw(results(spec)),
        comment=draw(st.none() | comments),
    )


def small_sizes(game: str) -> tuple[int, ...]:
    """The sizes random games of ``game`` are played on: its four smallest (engines list
    moves quickly there, and every rule already shows)."""
    return find_game(game).sizes[:4]


@st.composite
def legal_games(draw: st.DrawFn, game: str, max_plies: int = 120) -> Record:
    """A record of a random legal game of ``game``, played to its end or ``max_plies``, its
    result claimed as the rules give it (``*`` when unfinished). Implo moves are written
    with every resolution step, as the engine spells them."""
    rules = get_rules(game)
    spec = find_game(game)
    size = draw(st.sampled_from(small_sizes(game)))
    komi = draw(st.integers(-5, 5)) if spec.komi else None
    state = rules.initial_state(size, komi=komi)
    turns: list[Turn] = []

    def choose(options: Sequence[object]) -> object:
        return draw(st.sampled_from(options))

    while len(turns) < max_plies and (move := rules.random_move(state, choose)) is not None:
        state = rules.play(state, move)
        turns.append(Turn(getattr(state, "last_move", None) or move))
    outcome = rules.outcome(state)
    return Record(
        game=rules.name,
        size=size,
        komi=komi,
        turns=tuple(turns),
        result=outcome.result(rules.colours) if outcome else "*",
    )


def every_move_form(game: str, size: int) -> list[Move]:
    """Every move of the game's forms on the board, legal or not (resolution steps: at most
    one; sowing: a few paths from every square)."""
    description = find_game(game)
    squares = [Point(f, r) for r in range(size) for f in range(size)]
    forms: dict[str, list[Move]] = {
        "pass": [Pass()],
        "swap": [Swap()],
        "button": [Button()],
        "flip": [*map(Flip, squares)],
        "move": [Capture(a, b) for a in squares for b in squares],
        "sow": [Sow(p, path) for p in squares for path in ("n", "e", "ne", "nn", "sw", "nesw")],
        "place": [*map(Place, squares)],
    }
    if description.resolve:
        forms["place"] = [
            *(ImploPlace(p) for p in squares),
            *(ImploPlace(p, (Resolve(q),)) for p in squares for q in squares),
        ]
    return [move for form in description.moves for move in forms[form]]


@st.composite
def histories(
    draw: st.DrawFn, game: str, sizes: Sequence[int], limit: int
) -> list[tuple[object, Move]]:
    """A random legal game as the states before each move and the moves drawn; the last
    pair is the final state with a dummy ``Pass``."""
    rules = get_rules(game)
    state = rules.initial_state(draw(st.sampled_from(sizes)))
    history: list[tuple[object, Move]] = []
    for _ in range(limit):
        moves = list(rules.legal_moves(state))
        if not moves:
            break
        chosen = draw(st.sampled_from(moves))
        history.append((state, chosen))
        state = rules.play(state, chosen)
    history.append((state, Pass()))
    return history
