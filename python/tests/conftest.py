from pathlib import Path

import pytest
from hypothesis import settings

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


# No example database on disk: runs stay independent and leave no files.
settings.register_profile("exactly", database=None)
settings.load_profile("exactly")
