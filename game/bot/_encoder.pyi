"""The compiled game.bot.encoding (game/bot/_encoder.c): `numpy_features`' inputs to the bit."""

import numpy as np
import numpy.typing as npt

def features(states: npt.NDArray[np.uint8] | bytes, out: npt.NDArray[np.float32] | bytes, variant: int, flip: bytes,
         /) -> None: ...
def columns(variant: int, /) -> int: ...
