"""A chess-style clock for a backgammon table: each player has a reserve and a delay per turn.

On each of a player's turns the first `delay` seconds are free (simple delay, as in US
Backgammon Federation rules); after that the player's reserve runs down. A player whose
reserve runs out loses the match on time. Time comes from the caller (`now`), so the clock
is exact in tests and in replays.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_host.errors import ClockNotRunning
from game.board import Color

DEFAULT_DELAY = 12.0
DEFAULT_RESERVE_PER_POINT = 120.0


@dataclass
class GameClock:
    """Both players' reserves, whose clock runs, and who has run out of time."""

    reserve: dict[Color, float]
    delay: float = DEFAULT_DELAY
    running: Color | None = None
    _started: float = 0.0
    flagged: Color | None = field(default=None)

    @classmethod
    def for_match(cls, length: int | None, delay: float = DEFAULT_DELAY,
                  reserve_per_point: float = DEFAULT_RESERVE_PER_POINT) -> GameClock:
        """The defaults: 12 s delay, 2 minutes of reserve per point; a money session gets a 7-point reserve."""
        points = length if length else 7
        return cls({c: reserve_per_point * points for c in Color}, delay)

    def restore(self, history: Iterable[Mapping[str, Any]]) -> None:
        """Take the reserves of the last `clock` event of a journal (a resumed match)."""
        for event in history:
            if event.get("type") == "clock":
                self.reserve = {Color.WHITE: float(event["white"]), Color.BLACK: float(event["black"])}

    def start(self, player: Color, now: float) -> None:
        """Start `player`'s clock (stopping the other's, if it was running)."""
        if self.running is not None:
            self.stop(now)
        self.running, self._started = player, now

    def stop(self, now: float) -> float:
        """Stop the running clock; returns the reserve the player used on this turn."""
        if self.running is None:
            raise ClockNotRunning("no player's clock is running")
        used = max(0.0, now - self._started - self.delay)
        self.reserve[self.running] -= used
        self._check_flag(self.running)
        self.running = None
        return used

    def follow(self, acting: Color | None, now: float) -> None:
        """Run the clock of `acting` (the player the table waits for), or none."""
        if acting is None:
            if self.running is not None:
                self.stop(now)
        elif self.running is not acting:
            self.start(acting, now)

    def remaining(self, player: Color, now: float) -> float:
        """`player`'s reserve as it stands at `now` (negative when it ran out)."""
        left = self.reserve[player]
        if self.running is player:
            left -= max(0.0, now - self._started - self.delay)
        return left

    def delay_left(self, now: float) -> float:
        """Seconds of the running player's delay still free at `now`."""
        if self.running is None:
            return 0.0
        return max(0.0, self.delay - (now - self._started))

    def check(self, now: float) -> Color | None:
        """The player whose time has run out, if any (it stays flagged)."""
        if self.running is not None and self.remaining(self.running, now) < 0:
            self.flagged = self.flagged or self.running
        return self.flagged

    def _check_flag(self, player: Color) -> None:
        if self.reserve[player] < 0:
            self.flagged = self.flagged or player

    def show(self, player: Color, now: float) -> str:
        """`m:ss` of reserve, with the delay still to run in brackets while it runs."""
        left = max(0.0, self.remaining(player, now))
        text = f"{int(left) // 60}:{int(left) % 60:02d}"
        if self.running is player and self.delay_left(now) > 0:
            text += f" (+{self.delay_left(now):.0f}s)"
        return text
