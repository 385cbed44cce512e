"""Every test's table signs with a key of the test session's, never the user's own; the rules'
tests run with each move-generator kernel; hypothesis has a profile for CI (the examples each test
asks for, the default) and a quick one for work in progress (`--hypothesis-profile=dev`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from needs import require
from played import session_key
from pty_tables import boards, terminals  # noqa: F401 (fixtures of the tables run in a pseudo-terminal)
from tables import scripted  # noqa: F401 (the fixture of the tables a test drives by hand)

from firmware_host.record.signing import KEY_ENV
from game.movegen import available_kernels, use_kernel

settings.register_profile("ci", settings.get_profile("default"))
settings.register_profile("dev", max_examples=10)
settings.load_profile("ci")


@pytest.fixture(autouse=True)
def session_table_key(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """`SMARTGAMMON_TABLE_KEY` points into the session's temporary directory (one key for every worker,
    so that the whole matches `played.played_once` shares are the session's own everywhere)."""
    path = session_key(tmp_path_factory)
    monkeypatch.setenv(KEY_ENV, str(path))
    yield path


@pytest.fixture(scope="module", params=["pure", "compiled"])
def each_kernel(request: pytest.FixtureRequest) -> Iterator[str]:
    """The module's tests run once with each kernel (`pytestmark = pytest.mark.usefixtures("each_kernel")`):
    the compiled one must be built under CI=true."""
    name: str = request.param
    require("the compiled move-generator kernel", name in available_kernels(),
            "a C compiler and Python's headers, then pip install -e . (setup.py builds game/movegen/_kernel.c)")
    with use_kernel(name):
        yield name


SLOW_BY_NATURE = ("room", "browser", "pty", "subprocess")
"""Kinds of test that start processes, brokers or browsers: each is slow, so the fast lane
(`pytest -m "not slow"`) leaves them out without marking every test."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if any(item.get_closest_marker(kind) for kind in SLOW_BY_NATURE):
            item.add_marker(pytest.mark.slow)
