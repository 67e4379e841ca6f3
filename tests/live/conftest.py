"""Live tests run real SDK scenarios in child processes, on 127.0.0.1, on two servers: our loopback room
and the real LiveKit server (``servers.py``). Every test that takes ``scenario`` runs on both
(``[loopback]``, ``[real]``); the real server is started once per session, which under pytest-xdist is
once per worker, each on free ports of its own, and stopped at the end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from servers import RealServer

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that runs a real SDK scenario in a child process is a long end-to-end one: marked ``slow``."""
    for item in items:
        if {"scenario", "live_env"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


def _skip_reason() -> str | None:
    from inspector.live import netcheck

    if netcheck.only_loopback():
        return "only the loopback interface `lo` has an address: libwebrtc cannot connect here"
    try:
        import aiortc  # noqa: F401
        import livekit.rtc  # noqa: F401
        import websockets  # noqa: F401
    except ImportError as exc:
        return f"the room extra is not installed ({exc.name}): pip install 'toolcall-inspector[room]'"
    return None


@pytest.fixture(params=["loopback", "real"])
def live_server(request) -> RealServer | None:
    """Which server a scenario runs on: None for the loopback room (each scenario starts its own), else
    the session's real server (``real_livekit``, tests/conftest.py)."""
    if request.param == "real":
        reason = _skip_reason()
        if reason:
            pytest.skip(reason)
        return request.getfixturevalue("real_livekit")
    return None


@pytest.fixture
def scenario(tmp_path, live_server):
    """Run ``live_scenarios.py NAME`` in a child process (on the ``live_server``) and return its result."""
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)

    def run(name: str, timeout: float = 150.0) -> dict:
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        env["INSPECTOR_TEST_ROOM"] = f"conv_test-{tmp_path.name}"[:60]  # a room of its own, on any server
        env.pop("INSPECTOR_TEST_LIVEKIT", None)
        if live_server is not None:
            env["INSPECTOR_TEST_LIVEKIT"] = live_server.spec()
        proc = subprocess.run(
            [sys.executable, str(HERE / "live_scenarios.py"), name, str(tmp_path)],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        result_file = tmp_path / "result.json"
        assert result_file.exists(), (
            f"scenario {name} wrote nothing (exit {proc.returncode}): {proc.stderr[-3000:]}"
        )
        result = json.loads(result_file.read_text())
        assert "error" not in result, result["error"]
        return result

    return run


@pytest.fixture
def live_env():
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "real_server: runs a real server from ../shared (Alicia's stack: test_alicia_real.py); skips without it",
    )
