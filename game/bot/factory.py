"""The right bot for a variant and level: GNU Backgammon for Backgammon, the shipped network otherwise."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.board import Variant
from game.bot.levels import DEFAULT_LEVEL, Level

if TYPE_CHECKING:
    from game.bot.base import Bot


def make_bot(variant: Variant, level: Level | str = DEFAULT_LEVEL, seed: int | None = None,
             seconds: float | None = None) -> Bot:
    """A bot for `variant` at `level` (a `Level` or its name); `seed` fixes the noise of weak levels
    (and the rollout level's dice); `seconds`: the rollout level's budget a play (its default unless told).

    Backgammon needs GNU Backgammon's bindings and the others numpy: both come with the `bot`
    extra (`pip install -e '.[bot]'`); without them this raises `EngineUnavailable`.
    """
    level = Level.parse(level) if isinstance(level, str) else level
    if level is Level.ROLLOUT:
        from game.bot.rollout_bot import DEFAULT_SECONDS, RolloutBot

        return RolloutBot(make_bot(variant, Level.EXPERT, seed), DEFAULT_SECONDS if seconds is None else seconds,
                          seed=seed)
    if seconds is not None:
        from game.errors import UsageError

        raise UsageError(f"a budget in seconds is for the rollout level only, not {level.value}")
    if variant is Variant.BACKGAMMON:
        from game.bot.gnubg_bot import GnubgBot

        return GnubgBot(level, seed)
    from game.bot.network_bot import NetworkBot

    return NetworkBot.shipped(variant, level, seed)
