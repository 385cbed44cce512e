"""Golden images: pictures compared pixel for pixel with tests/golden/ (regenerate after a deliberate
change to the drawing with UPDATE_GOLDEN=1, after looking at the new pictures). A mismatch fails with
the path of the picture actually drawn, to compare by eye."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from repo import TESTS

GOLDEN = TESTS / "golden"


def assert_golden(image: Image.Image, name: str, tmp_path: Path, directory: Path = GOLDEN,
                  update: bool | None = None) -> None:
    """The image equals DIRECTORY/NAME.png pixel for pixel (or becomes it, under UPDATE_GOLDEN=1)."""
    path = directory / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1" if update is None else update:
        image.save(path, optimize=True)
    actual = tmp_path / f"{name}-actual.png"
    if not path.exists():
        image.save(actual)
        pytest.fail(f"no golden image {path}; drawn: {actual}. Create it with UPDATE_GOLDEN=1.")
    with Image.open(path) as reference:
        expected = reference.convert("RGB")
    problem = ""
    if expected.size != image.size:
        problem = f"size {image.size}, golden {expected.size}"
    else:
        box = ImageChops.difference(expected, image.convert("RGB")).getbbox()
        if box:
            problem = f"pixels differ within {box}"
    if problem:
        image.save(actual)
        pytest.fail(f"{name}: {problem}.\n  golden: {path}\n  drawn:  {actual}\n"
                    "If the change is deliberate, regenerate with UPDATE_GOLDEN=1.")
