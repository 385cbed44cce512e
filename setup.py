"""The compiled parts, built where they can be: the move generator's kernel
(game/movegen/_kernel.c), the drivers' frame path (drivers/_frames.c) and the bot's encoder
(game/bot/_encoder.c).

Everything else about the package is in pyproject.toml. Without a C compiler or Python's
headers the install goes on without them and says so, a line each: the pure-Python kernel
(game/movegen/pure.py) gives the same plays, drivers/protocol.py the same frames and the bot's
numpy encoder the same inputs, only slower (`python -m game --version` names the kernel in use,
`drivers.protocol.describe_frame_path()` the frame path, `game.bot.encoding.describe_encoder()` the
encoder; `benchmarks/bench_controller.py` prints the first two, `benchmarks/bench_bot.py` the third).
"""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

KERNEL = Extension("game.movegen._kernel", sources=["game/movegen/_kernel.c"])
FRAMES = Extension("drivers._frames", sources=["drivers/_frames.c"])
ENCODER = Extension("game.bot._encoder", sources=["game/bot/_encoder.c"])
# numpy rounds a * b and then the sum: a fused multiply-add (the default on aarch64) would round once.
TRACES = Extension("game.bot._traces", sources=["game/bot/_traces.c"], extra_compile_args=["-ffp-contract=off"])
WHAT = {KERNEL.name: "the compiled move-generator kernel is not built ({reason}); the pure-Python kernel",
        FRAMES.name: "the compiled frame path is not built ({reason}); the pure-Python frame path",
        ENCODER.name: "the compiled encoder is not built ({reason}); the bot's numpy encoder",
        TRACES.name: "the compiled training traces are not built ({reason}); the bot's numpy training traces"}
CANNOT_BUILD = (CCompilerError, CompileError, ExecError, LinkError, PlatformError, OSError)


class OptionalKernel(build_ext):
    """build_ext that never fails the install: a kernel it cannot build is left out, in one line."""

    def run(self) -> None:
        try:
            super().run()
        except CANNOT_BUILD as exc:
            for ext in self.extensions:
                self._left_out(ext, exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except CANNOT_BUILD as exc:
            self._left_out(ext, exc)

    @staticmethod
    def _left_out(ext: Extension, exc: BaseException) -> None:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        print(f"smartgammon: {WHAT[ext.name].format(reason=reason)} will be used", file=sys.stderr)


setup(ext_modules=[KERNEL, FRAMES, ENCODER, TRACES], cmdclass={"build_ext": OptionalKernel})
