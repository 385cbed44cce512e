"""Where the tests find the repository's files, wherever in tests/ a test module stands."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The repository's top folder."""
TESTS = ROOT / "tests"
"""The tests' folder (data/, golden/)."""
