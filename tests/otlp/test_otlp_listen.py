"""``otlp-listen``: a real OTLP/HTTP receiver fed by the OpenTelemetry SDK's own exporter (protobuf) and
by JSON bodies, threading what it receives into a store as it comes; a flood of 10,000 spans loses none;
bad or oversized bodies are refused and said; the recording reads back as the calls it received."""

from __future__ import annotations

import asyncio
import gzip
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the otlp extra is not installed")

from inspector.live.otlp_out import SpanOptions, send, store_spans  # noqa: E402
from inspector.model import CallStore, Outcome, Request, Result, State  # noqa: E402
from inspector.sources.files import load  # noqa: E402
from inspector.sources.otlp_receiver import OtlpSource  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "otlp"
CLAUDE = (
    ROOT / "sample_sessions" / "claude" / "-home-dev-demo-app" / "5a3e0000-0000-4000-8000-000000000001.jsonl"
)


async def until(condition, timeout: float = 120.0) -> None:  # type: ignore[no-untyped-def]
    """Wait until ``condition()`` holds (the loop keeps running: the receiver's work lands meanwhile)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "the condition did not hold in time"
        await asyncio.sleep(0.02)


def post(url: str, body: bytes, content_type: str, encoding: str = "") -> tuple[int, bytes]:
    headers = {"Content-Type": content_type}
    if encoding:
        headers["Content-Encoding"] = encoding
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def flood_store(count: int) -> CallStore:
    store = CallStore()
    for index in range(count):
        call_id = f"flood-{index:05d}"
        store.ingest(Request(call_id, f"tool_{index % 7}", group="flood", ts=1_764_000_000 + index / 100))
        outcome = Outcome.ERROR if index % 10 == 0 else Outcome.SUCCESS
        store.ingest(Result(call_id, outcome, group="flood", ts=1_764_000_000 + index / 100 + 0.005))
    store.clock = store.end_clock()
    return store


async def test_a_flood_of_10000_spans_from_the_sdk_exporter_loses_none() -> None:
    sent_store = flood_store(10_000)
    spans = store_spans(sent_store, SpanOptions())
    store = CallStore()
    source = OtlpSource(store, port=0)
    await source.start()
    try:
        loop = asyncio.get_running_loop()
        sent = await loop.run_in_executor(None, send, spans, source.url)
        assert sent == 10_001  # and the invoke_agent span
        await until(lambda: store.call_count == 10_000)
    finally:
        await source.stop()
    now = store.end_clock().now()
    got = {call.call_id: call.state(now) for call in store.all_calls()}
    want = {call.call_id: call.state(now) for call in sent_store.all_calls()}
    assert got == want
    assert source.refused == 0 and source.requests == len(range(0, 10_001, 512))
    assert not store.malformed


async def test_json_and_gzip_bodies_and_what_is_refused() -> None:
    store = CallStore()
    source = OtlpSource(store, port=0, max_body=64 * 1024)
    await source.start()
    try:
        lines = (FIXTURES / "claude_code_logs.jsonl").read_bytes().splitlines()
        assert post(source.url + "/v1/logs", lines[0], "application/json") == (200, b"{}")
        assert post(source.url + "/v1/logs", gzip.compress(lines[1]), "application/json", "gzip")[0] == 200
        await until(lambda: store.call_count == 3)
        assert {c.call_id: c.state() for c in store.all_calls()} == {
            "toolu_read": State.SUCCEEDED,
            "toolu_bash": State.FAILED,
            "toolu_write": State.DENIED,
        }
        assert post(source.url + "/v1/traces", b"\xff\x00 not protobuf", "application/x-protobuf")[0] == 400
        await until(lambda: len(store.malformed) == 1)
        assert "not an OTLP traces protobuf" in store.malformed[0].reason
        big = b"{" + b" " * (64 * 1024) + b"}"
        assert post(source.url + "/v1/traces", big, "application/json")[0] == 413
        bomb = gzip.compress(b"{" + b" " * (1024 * 1024) + b"}")  # small on the wire, 1 MB inflated
        assert len(bomb) < 64 * 1024
        assert post(source.url + "/v1/traces", bomb, "application/json", "gzip")[0] == 400
        assert post(source.url + "/v1/metrics", b"{}", "application/json")[0] == 404
        assert store.call_count == 3  # nothing refused reached the store, nothing else was lost
    finally:
        await source.stop()


async def test_a_body_with_bytes_not_utf8_is_taken_and_said() -> None:
    """A JSON or protobuf body whose strings hold bytes that are not UTF-8: read with U+FFFD for each bad
    byte, its calls kept, and one malformed record says so (it was refused with 400, its calls lost)."""
    store = CallStore()
    source = OtlpSource(store, port=0)
    await source.start()
    try:
        line = (FIXTURES / "claude_code_logs.jsonl").read_bytes().splitlines()[0]
        bad = line.replace(b'"Read"', b'"Re\xffad"', 1)
        assert bad != line
        assert post(source.url + "/v1/logs", bad, "application/json") == (200, b"{}")
        await until(lambda: store.call_count >= 1 and len(store.malformed) == 1)
        assert "invalid UTF-8" in store.malformed[0].reason
        assert "Re\ufffdad" in {c.request.tool for c in store.all_calls()}
        # the same in protobuf: a JavaScript exporter writes a lone surrogate as three bytes that are
        # not UTF-8, and the protobuf runtime refused the whole batch for one such string
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

        request = ExportTraceServiceRequest()
        spans = request.resource_spans.add().scope_spans.add()
        for number, tool in enumerate(("MARKtool", "ok"), 1):
            span = spans.spans.add(
                trace_id=bytes(16), span_id=bytes([number] * 8), name=f"execute_tool {tool}"
            )
            span.start_time_unix_nano, span.end_time_unix_nano = 1764000000000000000, 1764000000500000000
            for key, text in (
                ("gen_ai.operation.name", "execute_tool"),
                ("gen_ai.tool.name", tool),
                ("gen_ai.tool.call.id", f"pb{number}"),
            ):
                span.attributes.add(key=key).value.string_value = text
        body = request.SerializeToString().replace(b"MARK", b"\xed\xa0\x80\xff")
        assert post(source.url + "/v1/traces", body, "application/x-protobuf")[0] == 200
        await until(lambda: {"pb1", "pb2"} <= {c.call_id for c in store.all_calls()})
        assert "\ufffd" * 4 + "tool" in {c.request.tool for c in store.all_calls()}
        assert len(store.malformed) == 2 and "not UTF-8" in store.malformed[1].reason
    finally:
        await source.stop()


CODEX = (
    ROOT
    / "tests/fixtures/real/EdofEngland_code_butler/rollout-2025-11-24T13-02-00-019ab73e-8c11-7ad2-b604-5987891db560.jsonl"
)


@pytest.mark.parametrize("session", [CLAUDE, CODEX], ids=["claude with a subagent", "codex rollout"])
def test_otlp_listen_prints_records_and_reads_back_like_the_transcript(tmp_path: Path, session: Path) -> None:
    """A Claude Code session with a subagent, or a real Codex rollout, sent by ``export-otlp`` to
    ``otlp-listen --no-ui --record``: printed as it comes, and the recording reads back with the
    transcript's ids, tools, states and tree."""
    record = tmp_path / "received.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    listen = subprocess.Popen(
        [sys.executable, "-m", "inspector", "otlp-listen", "--no-ui", "--port", "0", "--record", str(record)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert listen.stderr is not None
        first = listen.stderr.readline()  # waits for the line: the port is bound by then
        assert first.startswith("listening on http://127.0.0.1:"), first
        url = first.split()[2]
        done = subprocess.run(
            [sys.executable, "-m", "inspector", "export-otlp", str(session), "--endpoint", url],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        transcript = CallStore()
        load([str(session)], transcript)
        transcript.clock = transcript.end_clock()
        assert listen.stdout is not None
        printed = []
        while sum(1 for line in printed if " pending " not in line) < transcript.call_count:
            line = listen.stdout.readline()
            assert line, "otlp-listen stopped printing"
            printed.append(line)
    finally:
        listen.send_signal(signal.SIGINT)
        _, err = listen.communicate(timeout=60)
    assert listen.returncode == 0, err
    assert f"stopped: {transcript.call_count} call(s) from 1 request(s)" in err
    back = CallStore()
    infos = load([str(record)], back)
    assert [info.format for info in infos] == ["otlp"]
    back.clock = back.end_clock()

    def shape(store: CallStore) -> list[tuple[str, str, str, str | None]]:
        now = store.clock.now()
        return sorted(
            (c.call_id, c.tool, c.state(now).value, c.parent.call_id if c.parent else None)
            for c in store.all_calls()
        )

    assert shape(back) == shape(transcript)
    if session == CLAUDE:
        assert any(parent for *_, parent in shape(back))  # the subagent's calls are nested
        assert State.PENDING in {c.state(back.clock.now()) for c in back.all_calls()}  # unfinished stays so
