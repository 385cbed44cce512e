"""The controller: driver events in, a refereed match (or chouette) out.

`Controller` (controller.py) routes each kind of event to the part that owns it: the sensed board
and its debouncer, the dice, the buttons, the links to the boards, the turn and its play flow,
the board checks, the takeback and resignation, the cube dialogue of a match or a chouette
(`cube/`), the bot's seat, the referee's rulings, the chess clock; what the people are told goes
through `prompts` and `outputs`. `session` is what the table plays (a match or a chouette).
"""

from firmware_host.controller.controller import Controller

__all__ = ["Controller"]
