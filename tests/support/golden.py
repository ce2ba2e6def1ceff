"""Golden images: a rendered image compared with its stored PNG, within a tolerance."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

GOLDEN = Path(__file__).resolve().parent.parent / "rendering" / "golden"


def check_golden(image: Image.Image, name: str, tolerance: float = 2.0) -> None:
    """Compare ``image`` with ``tests/rendering/golden/<name>.png``: same size, and a mean
    difference per channel below ``tolerance``. ``UPDATE_GOLDEN=1`` rewrites the file (look at
    it before committing); a missing golden image fails and says how to make it."""
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(parents=True, exist_ok=True)
        image.save(path)
    if not path.exists():
        pytest.fail(f"no golden image {path.name}; run the test with UPDATE_GOLDEN=1 to make it")
    golden = Image.open(path).convert("RGB")
    assert golden.size == image.size, f"{path.name} is {golden.size}, the image is {image.size}"
    difference = ImageChops.difference(golden, image.convert("RGB"))
    mean = sum(ImageStat.Stat(difference).mean) / 3
    assert mean < tolerance, f"{path.name} differs by {mean:.2f} on average"
