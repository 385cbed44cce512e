"""Player buttons, the roll button and the pin map, on gpiozero's MockFactory."""

from __future__ import annotations

import queue
import random
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.buttons import BOUNCE_TIME, PlayerButtons, RollButton
from drivers.clock import ManualClock
from drivers.events import ButtonKind, ButtonPressed, DieState, EventQueue, Player
from drivers.pinmap import (
    DEFAULT_BUTTON_PINS,
    DEFAULT_CUBE_PINS,
    HEADER_PIN,
    ROLL_BUTTON_PIN,
    UART_PINS,
)
from drivers.protocol import DieStatus


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


def test_each_press_is_one_event_for_its_player_and_button(factory: MockFactory) -> None:
    clock = ManualClock(5.0)
    with PlayerButtons(pin_factory=factory, clock=clock) as buttons:
        for (player, kind), pin in DEFAULT_BUTTON_PINS.items():
            factory.pin(pin).drive_low()
            assert buttons.is_pressed(player, kind)
            factory.pin(pin).drive_high()
            clock.advance(1.0)
        events = [buttons.events.get_nowait() for _ in DEFAULT_BUTTON_PINS]
        assert buttons.events.empty()
    assert events == [ButtonPressed(source="buttons", timestamp=5.0 + i, player=player,
                                    button=kind)
                      for i, (player, kind) in enumerate(DEFAULT_BUTTON_PINS)]


def test_buttons_pull_up_debounce_and_release_their_pins(factory: MockFactory) -> None:
    events: EventQueue = queue.SimpleQueue()
    pins: dict[tuple[Player, ButtonKind], int] = {("black", ButtonKind.PASS): 21}
    with PlayerButtons(pins, pin_factory=factory, events=events, source="table 3") as buttons:
        pin = factory.pin(21)
        assert (pin.pull, pin.bounce, pin.state) == ("up", BOUNCE_TIME, True)
        assert buttons.events is events
        pin.drive_low()
    [pressed] = [events.get_nowait()]
    assert isinstance(pressed, ButtonPressed) and pressed.source == "table 3"
    with PlayerButtons(pins, pin_factory=factory):  # GPIOPinInUse if the first had not closed
        pass


def test_the_roll_button_throws_two_virtual_dice_from_the_given_source(
        factory: MockFactory) -> None:
    expected = random.Random(9)
    with RollButton(pin_factory=factory, rng=random.Random(9), clock=ManualClock()) as roll:
        for _ in range(3):
            factory.pin(ROLL_BUTTON_PIN).drive_low()
            factory.pin(ROLL_BUTTON_PIN).drive_high()
        events = [roll.events.get_nowait() for _ in range(6)]
    assert events == [DieState(source="roll button", timestamp=0.0, die_id=die,
                               status=DieStatus.SETTLED, face=expected.randint(1, 6),
                               battery_pct=None, throw=throw) for throw in (1, 2, 3) for die in (1, 2)]


def test_default_pins_are_distinct_and_leave_the_uart_free() -> None:
    cube = [*DEFAULT_CUBE_PINS.segments, DEFAULT_CUBE_PINS.dp, *DEFAULT_CUBE_PINS.digits,
            DEFAULT_CUBE_PINS.centre, DEFAULT_CUBE_PINS.white, DEFAULT_CUBE_PINS.black,
            DEFAULT_CUBE_PINS.crawford]
    used = cube + list(DEFAULT_BUTTON_PINS.values()) + [ROLL_BUTTON_PIN]
    assert len(used) == len(set(used)) == 23
    assert not set(used) & set(UART_PINS)
    assert set(used) <= set(HEADER_PIN)


def test_header_pin_numbers_agree_with_gpiozero_board_info(factory: MockFactory) -> None:
    for gpio, header in HEADER_PIN.items():
        assert factory.pin(gpio).info.name == f"GPIO{gpio}"
        assert factory.pin(gpio).info.number == header
