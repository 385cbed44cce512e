"""gpiozero's pin factories, chosen by the names gpiozero gives them.

gpiozero registers its factories (and any a third party installs) as entry points of the
`gpiozero_pin_factories` group: `lgpio` (the Pi 5, and every Pi on a recent OS), `rpigpio`,
`pigpio`, `native`, `mock`. `open_pin_factory(name)` starts the one named, or with "default" the
one gpiozero chooses (`Device.ensure_pin_factory`, which honours `GPIOZERO_PIN_FACTORY`). An
unknown name is refused in one line naming the choices; a factory that cannot start, or a
machine with no GPIO at all, is said in one line (`GpioUnavailable`), not a gpiozero traceback.
"""

from __future__ import annotations

import warnings
from importlib.metadata import entry_points

from gpiozero import Device, Factory

from drivers.errors import DriverConfigError, GpioUnavailable

GROUP = "gpiozero_pin_factories"
DEFAULT = "default"


def factory_names() -> tuple[str, ...]:
    """"default" and the names of the pin factories installed, as gpiozero knows them."""
    return (DEFAULT, *sorted({point.name for point in entry_points(group=GROUP)}))


def open_pin_factory(name: str) -> Factory:
    """The pin factory called `name` (see `factory_names`), started."""
    if name == DEFAULT:
        return _default()
    points = {point.name: point for point in entry_points(group=GROUP)}
    if name not in points:
        raise DriverConfigError(f"pin factory {name!r} is not one of gpiozero's: {', '.join(factory_names())}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            factory: Factory = points[name].load()()
    except Exception as error:  # gpiozero's factories fail in their own ways (no module, no daemon, no chip)
        raise GpioUnavailable(f"gpiozero's pin factory {name!r} cannot start here: {_reason(error)}") from None
    return factory


def _default() -> Factory:
    if Device.pin_factory is not None:
        return Device.pin_factory
    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except Exception as error:
            tried = ", ".join(str(w.message).removeprefix("Falling back from ").split(":")[0] for w in fallbacks)
            raise GpioUnavailable(
                f"no GPIO here: gpiozero could start no pin factory ({tried or _reason(error)}); on a machine "
                'without GPIO set [gpio] pin_factory = "mock" (and [buttons] source = "keyboard")') from None
    assert Device.pin_factory is not None
    return Device.pin_factory


def _reason(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")
