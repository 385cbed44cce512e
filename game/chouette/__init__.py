"""Chouette: three to nine players at one board, the box against a team, each member's own cube.

    >>> from game.chouette import ChouetteSession
    >>> session = ChouetteSession(["Ann", "Bob", "Cy"])
    >>> for player, die in (("Ann", 6), ("Bob", 4), ("Cy", 2)):
    ...     session.throw(player, die)
    >>> session.box, session.captain, session.roster.line
    ('Ann', 'Bob', ('Bob', 'Cy'))

The rules as the board applies them: game/RULES.md (Chouette); the record: game/RECORD.md.
"""

from game.chouette.awaiting import Awaiting
from game.chouette.options import MAX_PLAYERS, MIN_PLAYERS, ChouetteOptions, Side
from game.chouette.roster import Roster
from game.chouette.session import ChouetteGame, ChouetteSession, Phase
from game.chouette.stakes import Stake

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "Awaiting", "ChouetteGame", "ChouetteOptions", "ChouetteSession",
           "Phase", "Roster", "Side", "Stake"]
