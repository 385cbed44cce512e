"""The room's MQTT topics, version 1 (hardware_docs/room.md).

    smartgammon/v1/VENUE/table/TABLE/event    table -> director  QoS 1            journal lines
    smartgammon/v1/VENUE/table/TABLE/state    table -> all       QoS 1, retained  the table now
    smartgammon/v1/VENUE/table/TABLE/status   table -> all       QoS 1, retained  online / offline (last will)
    smartgammon/v1/VENUE/table/TABLE/reply    table -> director  QoS 1            a ruling's outcome
    smartgammon/v1/VENUE/table/TABLE/ack      director -> table  QoS 1, retained  events held, per match
    smartgammon/v1/VENUE/table/TABLE/ruling   director -> table  QoS 1            a referee's ruling
    smartgammon/v1/VENUE/table/TABLE/decision director -> table  QoS 1            a chouette member's decision (phone)
    smartgammon/v1/VENUE/table/TABLE/decided  table -> director  QoS 1            what the table did with it
    smartgammon/v1/VENUE/director/status      director -> all    QoS 1, retained  online / offline (last will)

VENUE and TABLE are 1 to 32 characters of A-Z a-z 0-9 _ -, so they never hold a wildcard or a
level separator. A table publishes only under its own TABLE (the broker's ACL enforces it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from firmware_host.errors import ConfigError, MessageRejected

ROOT = "smartgammon"
VERSION = "v1"
NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
TableChannel = Literal["event", "state", "status", "reply", "decided", "ack", "ruling", "decision"]
FROM_TABLE: frozenset[str] = frozenset({"event", "state", "status", "reply", "decided"})
TO_TABLE: frozenset[str] = frozenset({"ack", "ruling", "decision"})


def check_name(kind: str, name: str) -> str:
    """`name` if it is a usable venue or table id, else ConfigError saying why."""
    if not NAME.fullmatch(name):
        raise ConfigError(f"{kind} id {name!r} must be 1 to 32 characters of A-Z a-z 0-9 _ -")
    return name


@dataclass(frozen=True, slots=True)
class Topics:
    """The topics of one venue.

    >>> topics = Topics("club")
    >>> topics.table("t01", "event")
    'smartgammon/v1/club/table/t01/event'
    >>> topics.parse("smartgammon/v1/club/table/t01/ruling"), topics.parse(topics.director_status)
    (('t01', 'ruling'), ('', 'director'))
    >>> topics.parse("smartgammon/v1/hall/table/t01/event")
    Traceback (most recent call last):
    ...
    firmware_host.errors.MessageRejected: topic: 'smartgammon/v1/hall/table/t01/event' is not a topic of venue 'club'
    """

    venue: str

    def __post_init__(self) -> None:
        check_name("venue", self.venue)

    @property
    def prefix(self) -> str:
        """smartgammon/v1/VENUE, the start of every topic of the venue."""
        return f"{ROOT}/{VERSION}/{self.venue}"

    def table(self, table: str, channel: TableChannel) -> str:
        """The topic of `table`'s `channel`."""
        return f"{self.prefix}/table/{table}/{channel}"

    @property
    def director_status(self) -> str:
        """The director's status topic (retained; its last will says offline)."""
        return f"{self.prefix}/director/status"

    @property
    def everything(self) -> str:
        """The director's subscription: all of the venue, so that stray messages are seen and counted."""
        return f"{self.prefix}/#"

    def parse(self, topic: str) -> tuple[str, str]:
        """(table, channel) of a table topic, ("", "director") for the director's; else MessageRejected."""
        if topic == self.director_status:
            return "", "director"
        head = f"{self.prefix}/table/"
        if not topic.startswith(head):
            raise MessageRejected("topic", f"{topic!r} is not a topic of venue {self.venue!r}")
        table, _, channel = topic[len(head):].partition("/")
        if not NAME.fullmatch(table) or channel not in FROM_TABLE | TO_TABLE:
            raise MessageRejected("topic", f"{topic!r} is not TABLE/" + "|".join(sorted(FROM_TABLE | TO_TABLE)))
        return table, channel
