"""``inspector export-otlp``: the calls of session files sent as GenAI spans to a real OTLP/HTTP endpoint
(tests/otlp_sink.py decodes what the SDK's exporter sent), and an unreachable endpoint said once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk", reason="the otlp extra is not installed")

from otlp_sink import OtlpSink, SunkSpan  # noqa: E402

from inspector.model import CallStore, State  # noqa: E402
from inspector.sources.files import load  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sample_sessions" / "demo.recording.jsonl"
CLAUDE = (
    ROOT / "sample_sessions" / "claude" / "-home-dev-demo-app" / "5a3e0000-0000-4000-8000-000000000001.jsonl"
)
STATUS_ERROR = 2  # opentelemetry.proto.trace.v1.Status.STATUS_CODE_ERROR
KIND_INTERNAL = 1


def export(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("OTEL_EXPORTER_OTLP_ENDPOINT", None)
    return subprocess.run(
        [sys.executable, "-m", "inspector", "export-otlp", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )


def loaded(path: Path) -> CallStore:
    store = CallStore()
    load([str(path)], store)
    store.clock = store.end_clock()
    return store


def by_call_id(spans: list[SunkSpan]) -> dict[str, SunkSpan]:
    return {s.attributes["gen_ai.tool.call.id"]: s for s in spans if "gen_ai.tool.call.id" in s.attributes}


def test_each_call_is_one_execute_tool_span_with_its_own_times_and_status() -> None:
    store = loaded(DEMO)
    calls = list(store.all_calls())
    now = store.clock.now()
    with OtlpSink() as sink:
        done = export(str(DEMO), "--endpoint", sink.endpoint)
        assert done.returncode == 1, done.stderr  # the sample holds one malformed record: sent, and said
        assert done.stderr == "inspector: 1 malformed record(s) left out\n"
        spans = sink.wait_spans(len(calls) + 1)
    assert len(spans) == len(calls) + 1
    roots = [s for s in spans if s.name.startswith("invoke_agent")]
    assert len(roots) == 1
    root = roots[0]
    assert root.parent_id == ""
    assert root.attributes["gen_ai.operation.name"] == "invoke_agent"
    assert root.attributes["gen_ai.conversation.id"] == calls[0].group
    sent = by_call_id(spans)
    assert set(sent) == {call.call_id for call in calls}
    for call in calls:
        span = sent[call.call_id]
        assert span.name == f"execute_tool {call.tool}"
        assert span.kind == KIND_INTERNAL
        assert span.trace_id == root.trace_id and span.parent_id == root.span_id
        assert span.attributes["gen_ai.operation.name"] == "execute_tool"
        assert span.attributes["gen_ai.tool.name"] == call.tool
        assert span.attributes["gen_ai.tool.type"] == "function"
        assert span.start_ns == round(call.request.ts * 1e9)
        assert "gen_ai.tool.call.arguments" not in span.attributes  # content only when asked
        state = call.state(now)
        if call.result is not None:
            assert span.end_ns == round(call.result.ts * 1e9)
            assert "inspector.call.unfinished" not in span.attributes
        else:
            assert span.attributes["inspector.call.unfinished"] is True
            assert span.end_ns >= span.start_ns
        bad = {
            State.FAILED: "failed",
            State.TIMED_OUT: "timed_out",
            State.CANCELED: "canceled",
            State.DENIED: "denied",
        }
        if state in bad:
            assert span.status == STATUS_ERROR
            assert span.attributes["error.type"] == bad[state]
        else:
            assert span.status != STATUS_ERROR and "error.type" not in span.attributes
    assert root.start_ns == min(s.start_ns for s in spans) and root.end_ns == max(s.end_ns for s in spans)
    states = {call.state(now) for call in calls}
    assert {State.FAILED, State.TIMED_OUT, State.CANCELED, State.PENDING} <= states  # the sample covers them
    assert done.stdout.startswith(f"sent {len(calls) + 1} span(s): {len(calls)} call(s), 1 conversation(s)")


def test_content_only_when_asked_and_cut_to_the_limit() -> None:
    store = loaded(DEMO)
    with OtlpSink() as sink:
        done = export(
            str(DEMO), "--endpoint", sink.endpoint + "/", "--otlp-content", "--otlp-content-limit", "12"
        )
        assert done.returncode == 1, done.stderr
        spans = sink.wait_spans(store.call_count + 1)
    sent = by_call_id(spans)
    weather = sent["tr_weather"]
    arguments = weather.attributes["gen_ai.tool.call.arguments"]
    assert arguments.startswith('{"') and "cut:" in arguments and len(arguments) < 60
    assert "gen_ai.tool.call.result" in weather.attributes
    assert "gen_ai.tool.call.result" not in sent["tr_noexec"].attributes  # no result: nothing sent as one


def test_subagent_calls_are_children_of_the_call_that_started_them() -> None:
    store = loaded(CLAUDE)
    nested = [call for call in store.all_calls() if call.parent is not None]
    assert nested, "the sample holds a subagent"
    with OtlpSink() as sink:
        done = export(str(CLAUDE), "--endpoint", sink.endpoint)
        assert done.returncode == 0, done.stderr
        spans = sink.wait_spans(store.call_count + 1)
    sent = by_call_id(spans)
    root = next(s for s in spans if s.name.startswith("invoke_agent"))
    for call in store.all_calls():
        parent = sent[call.parent.call_id].span_id if call.parent is not None else root.span_id
        assert sent[call.call_id].parent_id == parent, call.call_id


def test_a_real_claude_session_with_subagents(corpus: Path) -> None:
    path = (
        corpus
        / "claude/daaain-real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"
    )
    if not path.exists():
        pytest.skip(f"{path} is not in the corpus")
    store = loaded(path)
    with OtlpSink() as sink:
        done = export(str(path), "--endpoint", sink.endpoint)
        assert done.returncode == 0, done.stderr
        spans = sink.wait_spans(store.call_count + 1)
    assert len(spans) == store.call_count + 1
    sent = by_call_id(spans)
    assert sum(1 for call in store.all_calls() if call.parent is not None) > 10
    for call in store.all_calls():
        if call.parent is not None:
            assert sent[call.call_id].parent_id == sent[call.parent.call_id].span_id


def test_an_unreachable_endpoint_is_one_clear_line_and_its_own_exit_code() -> None:
    with OtlpSink() as sink:  # a port that was just free: nothing listens once the sink is closed
        endpoint = sink.endpoint
    done = export(str(DEMO), "--endpoint", endpoint, "--timeout", "2")
    assert done.returncode == 3
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"inspector: could not send the spans to {endpoint}/v1/traces: ")
    assert "Traceback" not in done.stderr


def test_an_unreadable_path_is_said_before_anything_is_sent(tmp_path: Path) -> None:
    with OtlpSink() as sink:
        done = export(str(tmp_path / "missing.jsonl"), "--endpoint", sink.endpoint)
        assert done.returncode == 2
        assert "no such file" in done.stderr
        assert sink.requests == 0
