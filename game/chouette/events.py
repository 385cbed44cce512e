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
    type: Literal["chouette_start"]
    t: float
    variant: str
    options: dict[str, bool]
    players: list[str]
    version: int


class SeatThrow(TypedDict):
    type: Literal["seat_throw"]
    t: float
    player: str
    die: int


class Seating(TypedDict):
    type: Literal["seating"]
    t: float
    box: str
    line: list[str]


class GameStart(TypedDict):
    type: Literal["game_start"]
    t: float
    game: int
    box: str
    captain: str
    line: list[str]
    totals: Totals
    position: dict[str, Any]


class Join(TypedDict):
    type: Literal["join"]
    t: float
    player: str


class Leave(TypedDict):
    type: Literal["leave"]
    t: float
    player: str


class Partner(TypedDict):
    type: Literal["partner"]
    t: float
    player: str


class Line(TypedDict):
    type: Literal["line"]
    t: float
    box: str
    captain: str
    line: list[str]
    partner: str | None
    reason: str  # "join", "leave" or "partner"


class OpeningRoll(TypedDict):
    type: Literal["opening_roll"]
    t: float
    game: int
    team: int
    box: int


class AutomaticDouble(TypedDict):
    type: Literal["automatic_double"]
    t: float
    game: int
    value: int


class Roll(TypedDict):
    type: Literal["roll"]
    t: float
    game: int
    side: str
    player: str
    dice: list[int]


class Play(TypedDict):
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
    type: Literal["takeback"]
    t: float
    game: int
    side: str
    player: str


class Double(TypedDict):
    type: Literal["double"]
    t: float
    game: int
    player: str  # who turns the cube: the member, or the box
    member: str  # whose cube (with a team cube: the captain's name stands for it)
    value: int  # the value offered


class Take(TypedDict):
    type: Literal["take"]
    t: float
    game: int
    player: str
    member: str
    value: int  # the cube now


class Beaver(TypedDict):
    type: Literal["beaver"]
    t: float
    game: int
    player: str
    member: str
    value: int  # the value offered back


class Pass(TypedDict):
    type: Literal["pass"]
    t: float
    game: int
    player: str
    member: str


class Settle(TypedDict):
    type: Literal["settle"]
    t: float
    game: int
    member: str
    points: Points  # + the member won from the box, - the member paid it
    cube: int
    reason: str  # "pass", "box_pass", "bearoff", "remi"
    kind: str  # "single", "gammon", the variant's triple name, "remi"


class Captain(TypedDict):
    type: Literal["captain"]
    t: float
    game: int
    player: str  # the new captain
    previous: str


class GameEnd(TypedDict):
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
    type: Literal["rotation"]
    t: float
    game: int
    box: str
    captain: str
    line: list[str]
    to_end: list[str]


class SessionEnd(TypedDict):
    type: Literal["session_end"]
    t: float
    games: int
    totals: Totals


ChouetteEvent = (ChouetteStart | SeatThrow | Seating | GameStart | Join | Leave | Partner | Line | OpeningRoll
                 | AutomaticDouble | Roll | Play | Takeback | Double | Take | Beaver | Pass | Settle | Captain
                 | GameEnd | Rotation | SessionEnd)

EVENT_TYPES: dict[str, type[Any]] = {
    "chouette_start": ChouetteStart, "seat_throw": SeatThrow, "seating": Seating, "game_start": GameStart,
    "join": Join, "leave": Leave, "partner": Partner, "line": Line, "opening_roll": OpeningRoll,
    "automatic_double": AutomaticDouble, "roll": Roll, "play": Play, "takeback": Takeback, "double": Double,
    "take": Take, "beaver": Beaver, "pass": Pass, "settle": Settle, "captain": Captain, "game_end": GameEnd,
    "rotation": Rotation, "session_end": SessionEnd,
}
ACTIONS = frozenset({"seat_throw", "join", "leave", "partner", "opening_roll", "roll", "play", "takeback",
                     "double", "take", "beaver", "pass", "session_end"})
DERIVED = frozenset(EVENT_TYPES) - ACTIONS - {"chouette_start"}
