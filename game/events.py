"""The match's events, as typed values: what `Match.events` holds and a record's lines carry.

Each is a dict (a `TypedDict`, so it is written to JSON as it is) with its `type` and the time
`t` it happened; game/RECORD.md documents every field. Narrow a `MatchEvent` by its type:

    >>> from game import Match
    >>> event = Match(clock=lambda: 0.0).events[0]
    >>> event["type"], event["length"]
    ('match_start', 0)
"""

# No `from __future__ import annotations`: on Python 3.11 it hides NotRequired from TypedDict's
# __optional_keys__.

from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, get_args, get_type_hints

PlayerName = Literal["white", "black"]


class ScoreDoc(TypedDict):
    """A score, White's and Black's points."""

    white: int
    black: int


class PlayersDoc(TypedDict):
    """The players' names."""

    white: str
    black: str


class MatchStart(TypedDict):
    """The first event: what is played, by whom."""

    type: Literal["match_start"]
    t: float
    variant: str
    length: int
    options: dict[str, Any]
    players: PlayersDoc
    version: int


class GameStart(TypedDict):
    """A game begins (derived)."""

    type: Literal["game_start"]
    t: float
    game: int
    score: ScoreDoc
    crawford: bool
    position: dict[str, Any]


class OpeningRoll(TypedDict):
    """One die each; equal dice are thrown again."""

    type: Literal["opening_roll"]
    t: float
    game: int
    white: int
    black: int


class Roll(TypedDict):
    """The player on roll rolls."""

    type: Literal["roll"]
    t: float
    game: int
    player: PlayerName
    dice: list[int]


class PlayMade(TypedDict):
    """A play: its moves (mover's numbering) and the position after it, the mover still to play."""

    type: Literal["play"]
    t: float
    game: int
    player: PlayerName
    dice: list[int]
    moves: list[list[int]]
    position: dict[str, Any]
    accepted_illegal: NotRequired[str]


class CubeOffer(TypedDict):
    """A double, or a beaver (the cube offered back), with the value offered."""

    type: Literal["double", "beaver"]
    t: float
    game: int
    player: PlayerName
    value: int


class Take(TypedDict):
    """A double or beaver taken: the cube's value now."""

    type: Literal["take"]
    t: float
    game: int
    player: PlayerName
    value: int


class PlayerAction(TypedDict):
    """A pass, a takeback, or an answer to a resignation: who did it."""

    type: Literal["pass", "takeback", "resign_accept", "resign_decline"]
    t: float
    game: int
    player: PlayerName


class Resign(TypedDict):
    """A resignation offered, and what it gives up."""

    type: Literal["resign"]
    t: float
    game: int
    player: PlayerName
    kind: str


class Forfeit(TypedDict):
    """A player loses the match by a referee's decision (on time, ...)."""

    type: Literal["forfeit"]
    t: float
    game: int
    player: PlayerName
    reason: str


class GameEnd(TypedDict):
    """A game ends (derived); `winner` None for a Remi."""

    type: Literal["game_end"]
    t: float
    game: int
    winner: PlayerName | None
    kind: str
    points: int
    reason: str
    score: ScoreDoc


class MatchEnd(TypedDict):
    """The match ends (derived); `winner` None for a tied money session."""

    type: Literal["match_end"]
    t: float
    winner: PlayerName | None
    score: ScoreDoc


MatchEvent = (MatchStart | GameStart | OpeningRoll | Roll | PlayMade | CubeOffer | Take | PlayerAction | Resign
              | Forfeit | GameEnd | MatchEnd)
"""Any event of the match itself (the controller's own events are in firmware_host)."""


def _types() -> frozenset[str]:
    names: set[str] = set()
    for kind in get_args(MatchEvent):
        names.update(get_args(get_type_hints(kind)["type"]))
    return frozenset(names)


if TYPE_CHECKING:
    MATCH_EVENT_TYPES: frozenset[str]
    """The `type` of every match event; a record's other lines are the controller's own."""


def __getattr__(name: str) -> Any:
    """`MATCH_EVENT_TYPES`, read from the event types above when first asked for: reading them (every
    annotation evaluated) would cost every `python -m game` process a share of its start-up."""
    if name == "MATCH_EVENT_TYPES":
        globals()[name] = types = _types()
        return types
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
