"""The headless commands as a user runs them: exit codes, JSON shapes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

from inspector.protocols import FORMAT_NAMES, alicia, recording


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "inspector", *args], capture_output=True, text=True, timeout=60, cwd=cwd
    )


def sample(tmp_path):
    path = tmp_path / "s.jsonl"
    with recording.RecordingWriter(str(path), {"room": "t"}) as rec:
        rec.write(
            "in",
            alicia.encode_envelope(
                type_=6,
                body={
                    "id": "a",
                    "toolName": "calc",
                    "execution": "client",
                    "parameters": {"expression": "1+1"},
                },
                conversation_id="c",
                stanza_id=-1,
            ),
            ts=10.0,
        )
        rec.write(
            "in",
            alicia.encode_tool_result(
                conversation_id="c", stanza_id=1, call_id="a", success=True, result={"answer": 2}
            ),
            ts=10.25,
        )
        rec.write(
            "in",
            alicia.encode_tool_result(
                conversation_id="c", stanza_id=2, call_id="ghost", success=True, result={}
            ),
            ts=11.0,
        )
    return path


def test_stats_json_has_the_documented_keys(tmp_path):
    proc = run("stats", "--json", str(sample(tmp_path)))
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout)
    for key in (
        "format",
        "calls",
        "top_level",
        "nested",
        "states",
        "orphan_results",
        "duplicate_results",
        "with_diff",
        "malformed",
        "tools",
        "p50_ms",
        "p90_ms",
        "p99_ms",
    ):
        assert key in figures
    assert figures["format"] == "recording" and figures["calls"] == 1 and figures["orphan_results"] == 1
    assert (
        figures["states"]["succeeded"] == 1 and figures["tools"] == {"calc": 1} and figures["p50_ms"] == 250.0
    )


def test_dump_json_one_object_per_call_with_payloads(tmp_path):
    proc = run("dump", "--json", str(sample(tmp_path)))
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    calls = [line for line in lines if "id" in line]
    assert calls[0]["params"] == {"expression": "1+1"} and calls[0]["results"][0]["data"] == {"answer": 2}
    assert any(line.get("orphan_result") == "ghost" for line in lines)


def test_dump_text_and_check(tmp_path):
    path = sample(tmp_path)
    proc = run("dump", str(path))
    assert "calc" in proc.stdout and "orphan" in proc.stdout
    check = run("check", str(path))
    assert check.returncode == 1 and "ghost" in check.stdout


def test_unusable_input_is_one_line_and_exit_2(tmp_path):
    missing = run("stats", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "no such file" in missing.stderr and "Traceback" not in missing.stderr
    junk = tmp_path / "junk.txt"
    junk.write_text("hello world\n")
    unknown = run("dump", str(junk))
    assert unknown.returncode == 2 and f"tried {', '.join(FORMAT_NAMES)}" in unknown.stderr
    assert len(unknown.stderr.strip().splitlines()) == 1


def test_malformed_records_exit_1_and_the_rest_still_prints(tmp_path):
    path = tmp_path / "bad.jsonl"
    good = '{"stanzaId": -1, "conversationId": "c", "type": 6, "body": {"id": "a", "toolName": "t", "execution": "server"}}'
    path.write_text(good + "\n{not json\n")
    proc = run("dump", str(path))
    assert proc.returncode == 1 and " t " in proc.stdout + " " and "line 2" in proc.stdout


def test_format_can_be_forced(tmp_path):
    path = tmp_path / "x.data"
    path.write_text('{"stanzaId": -1, "conversationId": "c", "type": 2, "body": {"content": "hi"}}\n')
    proc = run("stats", "--json", "--format", "alicia", str(path))
    assert proc.returncode == 0 and json.loads(proc.stdout)["messages"] == 1


def test_stats_per_tool_json_and_text(tmp_path):
    path = sample(tmp_path)
    figures = json.loads(run("stats", "--json", str(path)).stdout)
    assert figures["per_tool"]["calc"]["count"] == 1 and figures["per_tool"]["calc"]["p50_ms"] == 250.0
    text = run("stats", str(path), cwd=tmp_path)
    row = next(line for line in text.stdout.splitlines() if line.startswith("calc "))
    assert row.split()[1:5] == ["1", "0", "250ms", "250ms"]
    assert all(len(line) <= 80 for line in text.stdout.splitlines()[-3:])


def test_dump_says_an_error_without_a_code_or_a_message_in_one_clean_line():
    from inspector.calltext import format_call
    from inspector.model import CallStore, FakeClock, Outcome, Request, Result

    store = CallStore(clock=FakeClock(20.0))
    for call_id, code, message in (("a", None, "interrupted by the user"), ("b", "timeout", None)):
        store.ingest(Request(call_id=call_id, tool="Bash", ts=10.0))
        store.ingest(
            Result(call_id=call_id, outcome=Outcome.CANCELED, ts=11.0, error_code=code, error_message=message)
        )
    lines = [format_call(call, 20.0).splitlines()[1] for call in store.all_calls()]
    assert lines == ["  ↳ interrupted by the user", "  ↳ timeout"]  # no doubled or trailing space


def test_stats_latency_percentiles_are_in_the_per_tool_tables_units(tmp_path):
    from pathlib import Path

    demo = Path(__file__).resolve().parents[1] / "sample_sessions" / "demo.recording.jsonl"
    proc = run("stats", str(demo))
    [row] = [line for line in proc.stdout.splitlines() if "latency p50/p90/p99" in line]
    assert row.split("p99", 1)[1].split() == ["700ms", "/", "4.3s", "/", "4.3s"]
    assert " ms" not in proc.stdout
    [table_row] = [line for line in proc.stdout.splitlines() if line.startswith("calendar_add ")]
    assert "4.3s" in table_row  # the same figure, written the same way, in the per-tool table
