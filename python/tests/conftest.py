from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


@pytest.fixture
def testdata() -> Path:
    """The repository's testdata/ folder."""
    return REPO / "testdata"


@pytest.fixture
def data() -> Path:
    """The Python tests' own data folder."""
    return HERE / "data"
