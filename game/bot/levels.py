"""The bot's levels (no engine needed to name them)."""

from __future__ import annotations

import enum

from game.errors import UnknownLevel


class Level(enum.Enum):
    """How strongly a bot plays, GNU Backgammon's names from weakest to strongest.

    The weaker levels add noise to their judgement of each play (GNU Backgammon's beginner,
    casual and intermediate players do the same); the stronger ones look further ahead, and
    `rollout` plays games out from the expert level's best candidates within a time budget.
    """

    BEGINNER = "beginner"
    CASUAL = "casual"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"
    EXPERT = "expert"
    WORLD_CLASS = "world-class"
    GRANDMASTER = "grandmaster"
    ROLLOUT = "rollout"  # the expert's best plays rolled out within a time budget (rollout_bot.py)

    @classmethod
    def parse(cls, text: str) -> Level:
        """A level by its name (`world-class`, `world_class`, case ignored)."""
        try:
            return cls(text.strip().lower().replace("_", "-"))
        except ValueError:
            names = ", ".join(level.value for level in cls)
            raise UnknownLevel(f"no bot level {text!r} (levels: {names})") from None

    @property
    def noise(self) -> float:
        """The standard deviation of the noise added to each play's equity."""
        return {Level.BEGINNER: 0.06, Level.CASUAL: 0.04, Level.INTERMEDIATE: 0.015}.get(self, 0.0)


DEFAULT_LEVEL = Level.EXPERT
