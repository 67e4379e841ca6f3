"""Shared test configuration: where the shared corpus lives, and the factories on the path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    return CORPUS
