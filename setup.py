"""The compiled kernel of the move generator (game/movegen/_kernel.c), built where it can be.

Everything else about the package is in pyproject.toml. Without a C compiler or Python's
headers the install goes on without the kernel and says so in one line: the pure-Python kernel
(game/movegen/pure.py) gives the same plays, only slower (`python -m game --version` names the
kernel in use).
"""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

KERNEL = Extension("game.movegen._kernel", sources=["game/movegen/_kernel.c"])
CANNOT_BUILD = (CCompilerError, CompileError, ExecError, LinkError, PlatformError, OSError)


class OptionalKernel(build_ext):
    """build_ext that never fails the install: a kernel it cannot build is left out, in one line."""

    def run(self) -> None:
        try:
            super().run()
        except CANNOT_BUILD as exc:
            self._left_out(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except CANNOT_BUILD as exc:
            self._left_out(exc)

    @staticmethod
    def _left_out(exc: BaseException) -> None:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        print(f"smartgammon: the compiled move-generator kernel is not built ({reason}); "
              "the pure-Python kernel will be used", file=sys.stderr)


setup(ext_modules=[KERNEL], cmdclass={"build_ext": OptionalKernel})
