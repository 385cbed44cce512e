"""The events of a chouette session, as they go into the JSON Lines record (game/RECORD.md).

Each event is a typed dict: the session builds every one through its class here, so the
record's fields are checked where they are made. *Actions* are what players do; *derived*
events follow the action that causes them, and a validator recomputes and compares them.
Points are whole numbers, or halves (x.5) when a box shares its results with a partner.
"""


from typing import Any, Literal, NotRequired, TypedDict

Points = int | float
Totals = dict[str, Points]  # every player ever seated, in the order they came


class ChouetteStart(TypedDict):
    """The first line: the variant, the house options and the players as given."""

    type: Literal["chouette_start"]
    t: float
    variant: str
    options: dict[str, bool]
    players: list[str]
    version: int


class SeatThrow(TypedDict):
    """A player's throw for the order (tied players throw again)."""

    type: Literal["seat_throw"]
    t: float
    player: str
    die: int


class Seating(TypedDict):
    """Derived: the throws settled the order; the box and the line behind it."""

    type: Literal["seating"]
    t: float
    box: str
    line: list[str]


class GameStart(TypedDict):
    """Derived: a game begins, with its box, captain, line and the totals before it."""

    type: Literal["game_start"]
    t: float
    game: int
    box: str
    captain: str
    line: list[str]
    totals: Totals
    position: dict[str, Any]


class Join(TypedDict):
    """A player arrives between games and joins at the end of the line."""

    type: Literal["join"]
    t: float
    player: str


class Leave(TypedDict):
    """A player leaves between games."""

    type: Literal["leave"]
    t: float
    player: str


class Partner(TypedDict):
    """The box takes a partner for this game (option, six players or more)."""

    type: Literal["partner"]
    t: float
    player: str


class Line(TypedDict):
    """Derived: the roster after a join, a leave or a partner."""

    type: Literal["line"]
    t: float
    box: str
    captain: str
    line: list[str]
    partner: str | None
    reason: str  # "join", "leave" or "partner"


class OpeningRoll(TypedDict):
    """The captain's and the box's dice for the opening roll."""

    type: Literal["opening_roll"]
    t: float
    game: int
    team: int
    box: int


class AutomaticDouble(TypedDict):
    """Derived: equal opening dice doubled every cube (option, once a game)."""

    type: Literal["automatic_double"]
    t: float
    game: int
    value: int


class Roll(TypedDict):
    """The side on roll rolls."""

    type: Literal["roll"]
    t: float
    game: int
    side: str
    player: str
    dice: list[int]


class PlayMade(TypedDict):
    """The captain or the box plays the dice; `position` is the position after the play."""

    type: Literal["play"]
    t: float
    game: int
    side: str
    player: str
    dice: list[int]
    moves: list[list[int]]
    position: dict[str, Any]
    accepted_illegal: NotRequired[str]


class Takeback(TypedDict):
    """The last play is taken back."""

    type: Literal["takeback"]
    t: float
    game: int
    side: str
    player: str


class Double(TypedDict):
    """The side on roll turns a member's cube."""

    type: Literal["double"]
    t: float
    game: int
    player: str  # who turns the cube: the member, or the box
    member: str  # whose cube (with a team cube: the captain's name stands for it)
    value: int  # the value offered


class Take(TypedDict):
    """A double or a beaver is taken."""

    type: Literal["take"]
    t: float
    game: int
    player: str
    member: str
    value: int  # the cube now


class Beaver(TypedDict):
    """A doubled player takes and at once redoubles, keeping the cube (option)."""

    type: Literal["beaver"]
    t: float
    game: int
    player: str
    member: str
    value: int  # the value offered back


class Pass(TypedDict):
    """A double or a beaver is passed: the member's game against the box settles."""

    type: Literal["pass"]
    t: float
    game: int
    player: str
    member: str


class Settle(TypedDict):
    """Derived: a member's game against the box ended, by a pass or on the board."""

    type: Literal["settle"]
    t: float
    game: int
    member: str
    points: Points  # + the member won from the box, - the member paid it
    cube: int
    reason: str  # "pass", "box_pass", "bearoff", "remi"
    kind: str  # "single", "gammon", the variant's triple name, "remi"


class Captain(TypedDict):
    """Derived: the captain's game settled; the next member in line still in captains."""

    type: Literal["captain"]
    t: float
    game: int
    player: str  # the new captain
    previous: str


class GameEnd(TypedDict):
    """Derived: no member is left in the game; everyone's result and the totals."""

    type: Literal["game_end"]
    t: float
    game: int
    winner: str | None  # the side that beat the last captain's game: "team", "box", None (a Remi)
    kind: str
    reason: str  # "bearoff", "pass", "remi"
    captain: str  # the captain at the end
    results: Totals  # this game's points of every player in it (box and partner included)
    totals: Totals


class Rotation(TypedDict):
    """Derived: the roles of the next game."""

    type: Literal["rotation"]
    t: float
    game: int
    box: str
    captain: str
    line: list[str]
    to_end: list[str]


class SessionEnd(TypedDict):
    """The session stops between games."""

    type: Literal["session_end"]
    t: float
    games: int
    totals: Totals


ChouetteEvent = (ChouetteStart | SeatThrow | Seating | GameStart | Join | Leave | Partner | Line | OpeningRoll
                 | AutomaticDouble | Roll | PlayMade | Takeback | Double | Take | Beaver | Pass | Settle | Captain
                 | GameEnd | Rotation | SessionEnd)

EVENT_TYPES: dict[str, type[Any]] = {
    "chouette_start": ChouetteStart, "seat_throw": SeatThrow, "seating": Seating, "game_start": GameStart,
    "join": Join, "leave": Leave, "partner": Partner, "line": Line, "opening_roll": OpeningRoll,
    "automatic_double": AutomaticDouble, "roll": Roll, "play": PlayMade, "takeback": Takeback, "double": Double,
    "take": Take, "beaver": Beaver, "pass": Pass, "settle": Settle, "captain": Captain, "game_end": GameEnd,
    "rotation": Rotation, "session_end": SessionEnd,
}
ACTIONS = frozenset({"seat_throw", "join", "leave", "partner", "opening_roll", "roll", "play", "takeback",
                     "double", "take", "beaver", "pass", "session_end"})
DERIVED = frozenset(EVENT_TYPES) - ACTIONS - {"chouette_start"}
