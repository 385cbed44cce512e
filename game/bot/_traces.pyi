"""The compiled step of game.bot.lockstep's eligibility traces (game/bot/_traces.c): numpy's numbers to the bit."""

import numpy as np
import numpy.typing as npt

def fade_and_add(trace: npt.NDArray[np.float32], back: npt.NDArray[np.float32], x: npt.NDArray[np.float32],
                 slots: npt.NDArray[np.int64], outputs: int, units: int, inputs: int, lam: float, /) -> None: ...
