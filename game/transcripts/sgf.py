"""GNU Backgammon's own match file, `.sgf` (Smart Game Format, GM[6]): reading and writing.

A file is one game tree per game, each headed by a root node with the match (`MI[length:7][game:0]
[ws:0][bs:2]`), the players (`PW`, `PB`), the rules (`RU[Crawford:CrawfordGame]`, `RU[Jacoby]`) and
the game's result (`RE[W+2R]`: W won 2 points, by resignation); the nodes after it are the actions:
`;B[41lpab]` (the dice, then each checker's move die by die), `;W[63]` (a roll that is not played),
`;B[double]`, `;W[take]`, `;W[drop]`, `;B[beaver]`. Analysis, comments and the like are kept by GNU
Backgammon and ignored here.

GNU Backgammon's player 0 is `W` in the file, the left column of its `.mat` export: Black here, as
`game.mat` has it, so a match reads the same from either of GNU Backgammon's files. Points are
letters `a`-`x` counted from player 0's ace point (`a` is W's 1-point and B's 24-point), `y` the
bar and `z` off.

Reading turns a file into the events of a `.mat` transcript (`game.transcripts.reading`), replayed
by the same driver: every play checked by the rules, every result line compared with the game's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from game.board import BAR, OFF, OWN_TO_BOARD, Color, Variant
from game.errors import MatFormatError, PositionError
from game.match import NO_OPTIONS, Match, MatchOptions
from game.plays import Play
from game.position import Position
from game.replay import MAT_WINS, UNREADABLE
from game.transcripts.dialect import Dialect
from game.transcripts.layout import Layout
from game.transcripts.reading import Transcript

SGF_PLAYER = {"W": Color.BLACK, "B": Color.WHITE}  # GNU Backgammon's player 0 (W) is the left column, Black
SGF_LETTER = {Color.BLACK: "W", Color.WHITE: "B"}
_TOKEN = re.compile(r"\s*(?:(?P<open>\()|(?P<close>\))|(?P<node>;)"
                    r"|(?P<key>[A-Za-z]+)\s*(?P<values>(?:\[[^\]\\]*(?:\\.[^\]\\]*)*\]\s*)+))", re.DOTALL)
_KEPT = frozenset({"GM", "AP", "MI", "PW", "PB", "RU", "RE", "B", "W", "AE", "AB", "AW", "PL", "CV", "CP", "DI"})
_VALUE = re.compile(r"\[([^\]\\]*(?:\\.[^\]\\]*)*)\]", re.DOTALL)  # the loop unrolled: a tenth of the time
_RESULT = re.compile(r"^([WB])\+(\d+)(R?)$")
_ROLL = re.compile(r"^([1-6])([1-6])([a-z]*)$")
_SETUP = ("AE", "AB", "AW", "PL", "CV", "CP", "DI")
SGF_MOVES = "sgf_moves"  # a play event's checkers moved, as GNU Backgammon wrote them: (from, to) own points
Node = tuple[int, dict[str, list[str]]]  # (line, properties)


def is_sgf(data: bytes) -> bool:
    """Whether the file is a Smart Game Format collection (it starts with `(;`)."""
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:2] == b"(;"


def parse_collection(text: str) -> list[list[Node]]:
    """Each game tree's main line: its nodes with their properties and lines (variations, which GNU
    Backgammon does not write for a match, are read past). Only the properties read here are kept:
    a file GNU Backgammon has analysed is mostly its evaluations."""
    games: list[list[Node]] = []
    depth, line, at = 0, 1, 0
    nodes: list[Node] | None = None
    properties: dict[str, list[str]] | None = None
    for token in _TOKEN.finditer(text):
        start = token.start()
        if start != at:
            break  # text that is no token: said below
        kind = token.lastgroup
        if kind == "node":
            line += text.count("\n", at, token.end())
            properties = {}
            if nodes is not None and depth == 1:
                nodes.append((line, properties))
        elif kind == "values":
            if properties is not None and token["key"] in _KEPT:
                properties.setdefault(token["key"], []).extend(
                    re.sub(r"\\(.)", r"\1", value) if "\\" in value else value
                    for value in _VALUE.findall(token["values"]))
            line += token["values"].count("\n") + text.count("\n", at, token.start("values"))
        else:
            line += text.count("\n", at, token.end())
            properties = None
            depth += 1 if kind == "open" else -1
            if depth < 0:
                raise MatFormatError(f"line {line}: a ')' that closes no game tree")
            if kind == "open" and depth == 1:
                nodes = []
                games.append(nodes)
        at = token.end()
    rest = text[at:].strip()
    if rest:
        raise MatFormatError(f"line {line + text.count(chr(10), at, len(text) - len(text[at:].lstrip()))}: "
                             f"cannot read {rest[:40]!r} in an .sgf file")
    if depth:
        raise MatFormatError("the file ends inside a game tree: it was cut")
    return games


def read_sgf(text: str, options: MatchOptions = NO_OPTIONS) -> Transcript:
    """GNU Backgammon's `.sgf` as a transcript's events (raises `MatFormatError` when it holds no match)."""
    games = [nodes for nodes in parse_collection(text.lstrip("\ufeff")) if nodes]
    if not games:
        raise MatFormatError("an .sgf file with no game in it")
    root = games[0][0][1]
    if root.get("GM", ["6"])[0] != "6":
        raise MatFormatError(f"an .sgf file of another game (GM[{root['GM'][0]}]), not backgammon (GM[6])")
    info = _match_info(root)
    length = info.get("length", 0)
    rules = _rules(root)
    if any(rule in rules for rule in ("Nackgammon", "HyperGammon1", "HyperGammon2", "HyperGammon3")):
        raise MatFormatError(f"a GNU Backgammon match of a variation the project does not play ({' '.join(rules)})")
    nodes_of = [properties for nodes in games for _, properties in nodes]
    if any(key in node for node in nodes_of for key in ("AE", "AB", "AW")) and not any(
            "B" in node or "W" in node for node in nodes_of):
        raise MatFormatError("a GNU Backgammon position file (saved with 'save position'): a position, not a "
                             "match; give its Position ID or XGID to the position commands, or save the match "
                             "('save match FILE.sgf')")
    producer = root.get("AP", ["not named in the file"])[0].split(":", 1)[0]
    dialect = Dialect(producer, marks_hits=False)
    layout = Layout({"AP": root.get("AP", [""])[0]}, length, games[0][0][0], [])
    transcript = Transcript(layout, dialect)
    if length == 0 and "Jacoby" in rules:
        options = options.replace(jacoby=True)
    beaver = next(((line, game + 1) for game, nodes in enumerate(games) for line, node in nodes
                   if any(value == "beaver" for key in ("B", "W") for value in node.get(key, []))), None)
    if length == 0 and beaver is not None and not options.beavers:
        # GNU Backgammon keeps its beaver setting out of the file: a beaver in it says the session played them
        options = options.replace(beavers=True)
        transcript.notes.append((beaver[0], f"game {beaver[1]} has a beaver, and an .sgf does not say whether "
                                            f"the session plays them: read with beavers"))
    names = root.get("PW", [""])[0], root.get("PB", [""])[0]
    transcript.entries.append((games[0][0][0], {
        "type": "match_start", "variant": Variant.BACKGAMMON.value, "length": length,
        "options": options.to_document(), "players": {"white": names[1], "black": names[0]}}))
    for number, nodes in enumerate(games, 1):
        _game(transcript, number, nodes)
    return transcript


def _match_info(root: Mapping[str, list[str]]) -> dict[str, int]:
    info: dict[str, int] = {}
    for value in root.get("MI", []):
        key, _, number = value.partition(":")
        if number.strip().lstrip("-").isdigit():
            info[key.strip()] = int(number)
    return info


def _rules(root: Mapping[str, list[str]]) -> list[str]:
    return [rule for value in root.get("RU", []) for rule in value.split(":") if rule]


def _game(transcript: Transcript, number: int, nodes: list[Node]) -> None:
    entries = transcript.entries
    line, root = nodes[0]
    info = _match_info(root)
    game = info.get("game", number - 1) + 1
    transcript.game_starts.append(len(entries))
    start: dict[str, Any] = {"type": "game_start", "game": game,
                             "score": {"white": info.get("bs", 0), "black": info.get("ws", 0)}}
    entries.append((line, start))
    opening = True
    for at, properties in nodes[1:]:
        if set(properties) & set(_SETUP) == {"PL", "DI"} and properties["PL"][0] in SGF_PLAYER:
            # dice set and not played: the player rolled and then resigned (or the file stops there)
            player = SGF_PLAYER[properties["PL"][0]]
            entries.extend((at, event) for event in _action(player, properties["DI"][0], opening))
            opening = False
            continue
        if any(key in properties for key in _SETUP):
            setup = " ".join(f"{key}[{']['.join(properties[key])}]" for key in _SETUP if key in properties)
            entries.append((at, {"type": UNREADABLE, "rule": f"game {game} sets up the board or the cube "
                                                              f"({setup}): no game from the opening is written"}))
            break
        for color in ("B", "W"):
            if color in properties:
                entries.extend((at, event) for event in _action(SGF_PLAYER[color], properties[color][0], opening))
                opening = opening and not _ROLL.match(properties[color][0])
    result = _RESULT.match(root.get("RE", [""])[0])
    if result:
        winner = SGF_PLAYER[result[1]]
        entries.append((line, {"type": MAT_WINS, "player": winner.value, "points": int(result[2]),
                               "form": "resigned" if result[3] else "wins"}))


def _action(player: Color, value: str, opening: bool) -> list[dict[str, Any]]:
    word = value.strip().lower()
    if word == "double":
        return [{"type": "double", "player": player.value}]
    if word == "beaver":
        return [{"type": "beaver", "player": player.value}]
    if word in ("take", "drop"):
        return [{"type": "take" if word == "take" else "pass", "player": player.value}]
    roll = _ROLL.match(word)
    if not roll or len(roll[3]) % 2:
        return [{"type": UNREADABLE, "rule": f"cannot read the action {value!r} of {player.value}"}]
    d1, d2 = int(roll[1]), int(roll[2])
    if opening:
        if d1 == d2:
            return [{"type": UNREADABLE, "rule": f"the opening roll cannot be a double ({d1}{d2})"}]
        dice = {player.value: max(d1, d2), player.opponent.value: min(d1, d2)}
        events: list[dict[str, Any]] = [{"type": "opening_roll", "white": dice["white"], "black": dice["black"]}]
    else:
        events = [{"type": "roll", "player": player.value, "dice": [d1, d2]}]
    letters = roll[3]
    moves = [(_own(player, letters[i]), _own(player, letters[i + 1])) for i in range(0, len(letters), 2)]
    text = " ".join(f"{_named(source)}/{_named(target)}" for source, target in moves)
    events.append({"type": "play", "player": player.value, "text": text, SGF_MOVES: moves})
    return events


def _named(own: int) -> str:
    return "bar" if own == BAR else "off" if own == OFF else str(own)


def resolve_moves(position: Position, dice: tuple[int, int], moves: list[tuple[int, int]]) -> Play | None:
    """The legal play GNU Backgammon's moves make, or None. Its moves are checkers moved from and to
    points, not always in an order the dice allow (it writes 7/2 2/off for 53 with checkers on the
    3-point, where only 7/4/off is legal): the play is the legal one that leaves the same board."""
    mover = position.turn
    own, theirs = mover.char, mover.opponent.char
    board = OWN_TO_BOARD[position.variant, mover]
    points = list(position.points)
    bar, off = list(position.bar), list(position.off)
    for source, target in moves:
        if source == BAR:
            bar[mover.index] -= 1
        elif 1 <= source <= 24 and points[board[source] - 1][-1:] == own:
            points[board[source] - 1] = points[board[source] - 1][:-1]
        else:
            return None
        if target == OFF:
            off[mover.index] += 1
            continue
        if not 1 <= target <= 24:
            return None
        stack = points[board[target] - 1]
        if stack == theirs:  # a blot hit
            bar[mover.opponent.index] += 1
            stack = ""
        points[board[target] - 1] = stack + own
    try:
        after = Position(position.variant, mover, tuple(points), (bar[0], bar[1]), (off[0], off[1]))
    except PositionError:
        return None
    return position.legal_plays(dice).find(after)


def _own(player: Color, letter: str) -> int:
    """A letter as the mover's own point: `a` is W's 1-point and B's 24-point, `y` the bar (25), `z` off (0)."""
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    index = ord(letter) - ord("a")
    return index + 1 if player is Color.BLACK else 24 - index


def _letter(player: Color, own: int) -> str:
    if own == 25:
        return "y"
    if own == 0:
        return "z"
    return chr(ord("a") + (own - 1 if player is Color.BLACK else 24 - own))


# -- writing ------------------------------------------------------------------------

def export_sgf(match: Match, application: str = "smartgammon") -> str:
    """The match as GNU Backgammon's `.sgf`: one game tree per game, its plays, cube actions and result."""
    if match.variant is not Variant.BACKGAMMON:
        raise MatFormatError(f".sgf match files hold Backgammon only here, not {match.variant.value}")
    if match.options.automatic_doubles:
        raise MatFormatError("GNU Backgammon's .sgf is not written with automatic doubles here")
    out = []
    for events in _games(match):
        out.append(_export_game(match, events, application))
    return "".join(out)


def _games(match: Match) -> Iterator[list[Mapping[str, Any]]]:
    game: list[Mapping[str, Any]] = []
    for event in match.events:
        if event["type"] == "game_start":
            if game:
                yield game
            game = []
        if game or event["type"] == "game_start":
            game.append(event)
    if game and any(e["type"] not in ("game_start", "opening_roll") for e in game):
        yield game


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _export_game(match: Match, events: list[Mapping[str, Any]], application: str) -> str:
    start = events[0]
    white, black = match.players
    score = start["score"]
    root = [f"(;FF[4]GM[6]CA[UTF-8]AP[{_escape(application)}]",
            f"MI[length:{match.length or 0}][game:{int(start['game']) - 1}][ws:{score['black']}][bs:{score['white']}]",
            f"PW[{_escape(black)}]PB[{_escape(white)}]"]
    rules = []
    if match.length is not None:
        rules.append("Crawford" + (":CrawfordGame" if start.get("crawford") else ""))
    elif match.options.jacoby:
        rules.append("Jacoby")
    if rules:
        root.append(f"RU[{':'.join(rules)}]")
    nodes = []
    for event in events[1:]:
        kind = event["type"]
        player = Color(event["player"]) if "player" in event else None
        if kind == "play" and player is not None and "accepted_illegal" not in event:
            moves = "".join(_letter(player, source) + _letter(player, target) for source, target in event["moves"])
            dice = event["dice"]
            nodes.append(f"\n;{SGF_LETTER[player]}[{dice[0]}{dice[1]}{moves}]")
        elif kind == "play":
            raise MatFormatError("an illegal play let stand cannot be written as GNU Backgammon's .sgf")
        elif kind in ("double", "beaver", "take", "pass") and player is not None:
            word = {"pass": "drop"}.get(kind, kind)
            nodes.append(f"\n;{SGF_LETTER[player]}[{word}]")
        elif kind == "game_end":
            winner = Color(event["winner"])
            resigned = "R" if event["reason"] == "resign" else ""
            root.append(f"RE[{SGF_LETTER[winner]}+{event['points']}{resigned}]")
        elif kind == "forfeit":
            raise MatFormatError("a match conceded cannot be written as GNU Backgammon's .sgf")
    return "".join(root) + "".join(nodes) + ")\n"
