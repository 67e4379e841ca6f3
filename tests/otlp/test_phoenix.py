"""The round trip through a real tracing backend: sessions exported with ``inspector export-otlp`` to
Arize Phoenix (OTLP/HTTP protobuf, SQLite in a temporary folder) and read back over its REST API give one
span per call with the call's id, name, parent, status and times.

Phoenix is large (about 850 MB): it lives in its own virtual environment outside the project's,
``$INSPECTOR_PHOENIX_VENV`` or ``~/.cache/inspector-phoenix`` (``.ci/run`` installs it there when
missing); without it these tests skip, saying so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the otlp extra is not installed")

from inspector.model import Call, CallStore, State  # noqa: E402
from inspector.sources.files import load  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("phoenix")]

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(os.environ.get("INSPECTOR_PHOENIX_VENV") or Path.home() / ".cache" / "inspector-phoenix")
SESSIONS = {
    "alicia recording": ROOT / "sample_sessions" / "demo.recording.jsonl",
    "claude with a subagent": ROOT
    / "sample_sessions/claude/-home-dev-demo-app/5a3e0000-0000-4000-8000-000000000001.jsonl",
    "codex rollout": ROOT
    / "tests/fixtures/real/EdofEngland_code_butler/rollout-2025-11-24T13-02-00-019ab73e-8c11-7ad2-b604-5987891db560.jsonl",
    "real claude session with subagents (corpus)": ROOT.parent
    / "shared/corpus/claude/daaain-real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl",
}
BAD = {
    State.FAILED: "failed",
    State.DENIED: "denied",
    State.TIMED_OUT: "timed_out",
    State.CANCELED: "canceled",
}
US = 1000  # Phoenix keeps times to the microsecond


def _free_port() -> int:
    """A port below the ephemeral range (tests/live/servers.py): no client's connect takes it meanwhile."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "live"))
    from servers import free_port

    return free_port()


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.loads(answer.read())


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    binary = VENV / "bin" / "phoenix"
    if not binary.exists():
        pytest.skip(
            f"Arize Phoenix is not installed in {VENV} (.ci/run installs it: pip install arize-phoenix)"
        )
    work = tmp_path_factory.mktemp("phoenix")
    port = _free_port()
    env = dict(
        os.environ,
        PHOENIX_WORKING_DIR=str(work),
        PHOENIX_PORT=str(port),
        PHOENIX_GRPC_PORT=str(_free_port()),
        PHOENIX_HOST="127.0.0.1",
    )
    log = open(work / "phoenix.log", "wb")  # noqa: SIM115 - held while it runs
    server = subprocess.Popen([str(binary), "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300  # about 25 s alone; much longer on a loaded machine
        while True:
            assert server.poll() is None, (work / "phoenix.log").read_text()[-3000:]
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            assert time.monotonic() < deadline, "Phoenix did not answer /healthz"
            time.sleep(0.5)  # polling a server that is starting: the condition is the answer above
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def _spans(url: str, project: str, count: int) -> list[dict[str, Any]]:
    """The project's spans once ``count`` of them are in (Phoenix inserts in the background)."""
    deadline = time.monotonic() + 180
    while True:
        found: list[dict[str, Any]] = []
        cursor = None
        try:
            while True:
                query = {"limit": "1000", **({"cursor": cursor} if cursor else {})}
                page = _get(f"{url}/v1/projects/{project}/spans/otlpv1?{urllib.parse.urlencode(query)}")
                found += page["data"]
                cursor = page.get("next_cursor")
                if not cursor:
                    break
        except urllib.error.HTTPError as exc:
            if exc.code != 404:  # the project appears with its first span
                raise
        if len(found) >= count:
            return found
        assert time.monotonic() < deadline, f"{len(found)} of {count} spans in Phoenix"
        time.sleep(0.5)


def _attrs(span: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for pair in span.get("attributes") or []:
        value = pair.get("value") or {}
        out[pair["key"]] = next((v for v in value.values() if v is not None), None)
    return out


@pytest.mark.parametrize("name", list(SESSIONS))
def test_exported_calls_read_back_from_phoenix(phoenix: str, name: str) -> None:
    path = SESSIONS[name]
    if not path.exists():
        pytest.skip(f"{path} is not here (../shared/corpus)")
    store = CallStore()
    load([str(path)], store)
    store.clock = store.end_clock()
    now = store.clock.now()
    calls = list(store.all_calls())
    groups = {call.group for call in calls}
    project = f"inspector-{uuid.uuid4().hex[:12]}"
    env = dict(
        os.environ, PYTHONPATH=str(ROOT), OTEL_RESOURCE_ATTRIBUTES=f"openinference.project.name={project}"
    )
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "export-otlp", str(path), "--endpoint", phoenix],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode in (0, 1), done.stderr  # 1: a malformed record in the file, said and left out
    spans = _spans(phoenix, project, len(calls) + len(groups))
    assert len(spans) == len(calls) + len(groups)
    roots = {
        _attrs(s).get("gen_ai.conversation.id"): s for s in spans if s["name"].startswith("invoke_agent")
    }
    assert set(roots) == groups and all(root["parent_span_id"] is None for root in roots.values())
    by_id = {_attrs(s)["gen_ai.tool.call.id"]: s for s in spans if "gen_ai.tool.call.id" in _attrs(s)}
    assert set(by_id) == {call.call_id for call in calls}

    def parent_span(call: Call) -> str:
        return by_id[call.parent.call_id]["span_id"] if call.parent else roots[call.group]["span_id"]

    for call in calls:
        span = by_id[call.call_id]
        attrs = _attrs(span)
        assert span["name"] == f"execute_tool {call.tool}"
        assert attrs["gen_ai.tool.name"] == call.tool and attrs["gen_ai.operation.name"] == "execute_tool"
        assert span["parent_span_id"] == parent_span(call), call.call_id
        assert span["trace_id"] == roots[call.group]["trace_id"]
        state = call.state(now)
        if state in BAD:
            assert span["status"]["code"] == 2 and attrs["error.type"] == BAD[state], call.call_id
        else:
            assert span["status"]["code"] != 2 and "error.type" not in attrs, call.call_id
        if call.request.ts is not None:
            assert abs(int(span["start_time_unix_nano"]) - round(call.request.ts * 1e9)) <= US
        first = call.result
        if first is not None and first.ts is not None:
            assert abs(int(span["end_time_unix_nano"]) - round(first.ts * 1e9)) <= US
        else:
            assert attrs.get("inspector.call.unfinished") is True
    if name.startswith(("claude", "real claude")):
        assert any(call.parent is not None for call in calls)
