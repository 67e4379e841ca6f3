"""Shared test configuration: where the shared corpus lives, the factories on the path, and how many
pytest-xdist workers ``-n auto`` (the addopts) starts."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "live"))  # servers.py: the live tests' servers


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """Workers for ``-n auto``: for the whole suite two more than the cores, for the tests named on the
    command line as many as the cores. The long tests of the suite mostly wait (a room server down for
    30 s, a killed participant timing out on the server): two more workers run other tests meanwhile.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    whole_suite = config.args_source != pytest.Config.ArgsSource.ARGS
    return cores + 2 if whole_suite else cores


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    return CORPUS


@pytest.fixture(scope="session")
def real_livekit(tmp_path_factory):
    """The real ``livekit-server`` (../shared/livekit-real, v1.11.0) for this session: started once per
    session, so once per pytest-xdist worker, each on free ports of its own with its own key and secret;
    stopped at the end. Skips, saying why, where ../shared is not there."""
    from servers import RealServer, real_missing

    reason = real_missing()
    if reason:
        pytest.skip(reason)
    server = RealServer(work=str(tmp_path_factory.mktemp("livekit-real")))
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _data_dir(tmp_path_factory, monkeypatch):
    """The inspector's data folder (stanzaId state) is a temp folder, never the user's."""
    monkeypatch.setenv("INSPECTOR_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(autouse=True)
def _agent_dirs(tmp_path_factory, monkeypatch):
    """Where the browser looks for Claude Code, Codex and Gemini sessions: empty temp folders, never the
    user's own (a test that wants sessions puts them in a folder of its own and points there)."""
    empty = tmp_path_factory.mktemp("agents")
    monkeypatch.setenv("INSPECTOR_CLAUDE_DIR", str(empty / "claude"))
    monkeypatch.setenv("INSPECTOR_CODEX_DIR", str(empty / "codex"))
    monkeypatch.setenv("INSPECTOR_GEMINI_DIR", str(empty / "gemini"))
    monkeypatch.delenv("CODEX_HOME", raising=False)
