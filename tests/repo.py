"""Where the tests find the repository's files, wherever in tests/ a test module stands."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
"""The repository's top folder."""
TESTS = ROOT / "tests"
"""The tests' folder (data/, golden/)."""


def benchmark(name: str) -> ModuleType:
    """The script benchmarks/NAME.py as a module (the benchmarks are scripts, not a package a test
    imports), registered under NAME: its dataclasses look their module up."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
