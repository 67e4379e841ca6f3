"""The otlp format: OTLP JSON files (file exporter layout) read as calls, sniffed without --format, from
GenAI spans, Claude Code spans and log events and Codex log events (fixtures built from the agents' own
code and docs: tests/fixtures/otlp/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

from inspector import protocols
from inspector.model import CallStore, State
from inspector.model.events import RawRef
from inspector.protocols import otlp
from inspector.sources.files import load
from inspector.sources.session import hydrate

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otlp"


def loaded(name: str) -> CallStore:
    store = CallStore()
    infos = load([str(FIXTURES / name)], store)
    assert [info.format for info in infos] == ["otlp"]  # sniffed, no --format
    store.clock = store.end_clock()
    return store


def states(store: CallStore) -> dict[str, State]:
    now = store.clock.now()
    return {call.call_id: call.state(now) for call in store.all_calls()}


def test_every_fixture_is_sniffed_as_otlp() -> None:
    for path in sorted(FIXTURES.glob("*.jsonl")):
        assert protocols.detect(str(path)).name == "otlp", path.name


def test_genai_execute_tool_spans_both_call_id_spellings() -> None:
    store = loaded("genai_spans.jsonl")
    assert states(store) == {
        "call_weather": State.SUCCEEDED,
        "call_search": State.FAILED,  # gen_ai.tool.call_id, the older spelling
        "call_book": State.TIMED_OUT,  # error.type timed_out
    }
    weather = store.find("conv_otlp_0001", "call_weather")
    assert weather is not None and weather.tool == "get_weather"
    assert weather.request.ts == 1_764_000_000.1 and weather.result is not None
    assert abs(weather.result.ts - 1_764_000_000.9) < 1e-6
    assert weather.request.params == {"city": "Paris"} and weather.result.data == {"temp_c": 12}
    search = store.find("conv_otlp_0001", "call_search")
    assert search is not None and search.result is not None
    assert search.result.error_message == "search backend unavailable"
    assert store.skipped == {"span invoke_agent weather_agent": 1}
    assert not store.malformed


def test_claude_code_spans_nest_the_subagent_and_take_the_outcome_of_their_children() -> None:
    store = loaded("claude_code_traces.jsonl")
    assert states(store) == {
        "toolu_read": State.SUCCEEDED,
        "toolu_bash": State.FAILED,  # claude_code.tool.execution success=false
        "toolu_write": State.DENIED,  # claude_code.tool.blocked_on_user decision=reject
        "toolu_agent": State.SUCCEEDED,
        "toolu_sub_grep": State.SUCCEEDED,
    }
    grep = next(call for call in store.all_calls() if call.call_id == "toolu_sub_grep")
    assert grep.parent is not None and grep.parent.call_id == "toolu_agent"  # exported before its parent
    assert [call.tool for call in store.all_calls() if call.depth == 0] == ["Read", "Bash", "Write", "Agent"]


def test_claude_code_log_events_joined_by_tool_use_id() -> None:
    store = loaded("claude_code_logs.jsonl")
    assert states(store) == {
        "toolu_read": State.SUCCEEDED,
        "toolu_bash": State.FAILED,
        "toolu_write": State.DENIED,  # only its decision
    }
    read = next(call for call in store.all_calls() if call.call_id == "toolu_read")
    assert read.request.params == {"file_path": "/home/dev/app/main.py"}  # from the result, on the request
    assert read.request.ts == 1_764_000_000.1  # the decision's time
    bash = next(call for call in store.all_calls() if call.call_id == "toolu_bash")
    assert bash.result is not None and bash.result.error_message == "Exit code 1"
    assert store.call_count == 3 and all(call.group.endswith("logs") for call in store.all_calls())


def test_codex_log_events_joined_by_call_id() -> None:
    store = loaded("codex_logs.jsonl")
    assert states(store) == {"call_ls": State.SUCCEEDED, "call_rm": State.DENIED, "call_patch": State.FAILED}
    ls = next(call for call in store.all_calls() if call.call_id == "call_ls")
    assert ls.request.params == {"command": "ls -la", "workdir": "/repo"}  # as the rollout shows the argv
    assert ls.latency_ms is not None and abs(ls.latency_ms - 250) < 1e-3
    patch = next(call for call in store.all_calls() if call.call_id == "call_patch")
    assert patch.latency_ms is not None and abs(patch.latency_ms - 120) < 1e-3  # start = end - duration_ms
    assert patch.result is not None and patch.result.error_message == "patch did not apply"


def test_a_bad_line_is_one_malformed_record_and_hides_nothing(tmp_path: Path) -> None:
    lines = (FIXTURES / "codex_logs.jsonl").read_text().splitlines()
    path = tmp_path / "telemetry.jsonl"
    bad = [lines[0][:50], '{"resourceSpans": 3}', '["x"]']  # cut, holding nothing, not OTLP
    path.write_text("\n".join([lines[0], *bad, *lines[1:]]) + "\n")
    store = CallStore()
    load([str(path)], store)
    assert store.call_count == 3
    assert len(store.malformed) == 2  # the cut line and the array's item; resourceSpans: 3 holds nothing


def test_lines_decoded_one_at_a_time_adopt_a_child_exported_before_its_parent() -> None:
    """The receiver's way (and a followed file's): one decoder fed line by line, in export order."""
    decoder = otlp.Decoder()
    store = CallStore()
    path = FIXTURES / "claude_code_traces.jsonl"
    for number, line in enumerate(path.read_text().splitlines(), 1):
        raw = RawRef("live", f"line {number}", data=line.encode())
        for event in decoder.feed(json.loads(line), raw):
            store.ingest(event)
    grep = next(call for call in store.all_calls() if call.call_id == "toolu_sub_grep")
    assert grep.parent is not None and grep.parent.call_id == "toolu_agent"
    assert [item.call_id for item in store.items] == [
        "toolu_read",
        "toolu_bash",
        "toolu_write",
        "toolu_agent",
    ]


def test_a_call_redecoded_for_the_detail_has_its_payloads() -> None:
    store = CallStore(keep_payloads=False)
    load([str(FIXTURES / "genai_spans.jsonl")], store)
    weather = next(call for call in store.all_calls() if call.call_id == "call_weather")
    request, results = hydrate(weather)
    assert request.params == {"city": "Paris"}
    assert results[0].data == {"temp_c": 12}


def test_gemini_cli_telemetry_outfile_calls_numbered_within_their_prompt() -> None:
    store = CallStore()
    infos = load([str(FIXTURES / "gemini_telemetry.log")], store)
    assert [info.format for info in infos] == ["gemini_telemetry"]  # sniffed
    store.clock = store.end_clock()
    assert states(store) == {"p-0001#1": State.SUCCEEDED, "p-0001#2": State.DENIED, "p-0002": State.FAILED}
    read = next(call for call in store.all_calls() if call.call_id == "p-0001#1")
    assert read.tool == "read_file" and read.request.params == {"absolute_path": "/home/dev/app/README.md"}
    assert read.latency_ms is not None and abs(read.latency_ms - 120) < 1e-3  # start = end - duration_ms
    assert "no id" in read.notes["no_id"]  # said in the detail
    shell = next(call for call in store.all_calls() if call.call_id == "p-0002")
    assert shell.result is not None and shell.result.error_message == "Command exited with code 1"
    assert sum(store.skipped.values()) == 3  # the prompt event, the span, the metrics
    dropped = CallStore(keep_payloads=False)
    load([str(FIXTURES / "gemini_telemetry.log")], dropped)
    again = next(call for call in dropped.all_calls() if call.call_id == "p-0001#2")
    assert hydrate(again)[0].params == {"file_path": "/home/dev/app/notes.md", "content": "hi"}


def test_a_broken_object_in_the_gemini_outfile_hides_only_itself(tmp_path: Path) -> None:
    text = (FIXTURES / "gemini_telemetry.log").read_text()
    objects = text.split("\n}\n")
    objects[1] = objects[1][: len(objects[1]) // 2]  # the first tool call cut in the middle
    path = tmp_path / "telemetry.log"
    path.write_text("\n}\n".join(objects))
    store = CallStore()
    load([str(path)], store)
    assert len(store.malformed) == 1
    assert store.call_count == 2  # the other two calls


def test_a_gemini_duration_past_any_float_costs_only_the_latency(tmp_path: Path) -> None:
    text = (FIXTURES / "gemini_telemetry.log").read_text()
    before = text.count('"duration_ms"')
    for huge in (str(10**430), "1e400", "true"):  # an int no float holds, a float past the largest, a bool
        path = tmp_path / "telemetry.log"
        path.write_text(text.replace('"duration_ms": 120', f'"duration_ms": {huge}', 1))
        assert (
            f'"duration_ms": {huge}' in path.read_text() and path.read_text().count('"duration_ms"') == before
        )
        store = CallStore()
        load([str(path)], store)  # an OverflowError here was a traceback for every command
        read = next(call for call in store.all_calls() if call.call_id == "p-0001#1")
        assert read.result is not None and read.result.ts is not None and not store.malformed
        assert read.request.ts == read.result.ts  # no duration: the call starts where it ends


def test_a_gemini_outfile_whose_first_object_outgrows_the_head_is_still_recognised(tmp_path: Path) -> None:
    text = (FIXTURES / "gemini_telemetry.log").read_text()
    first = text.index("[", text.index('"hrTime"'))
    end = text.index("]", first) + 1
    for huge in ('"' + "x" * 100_000 + '"', "[" * 50_000 + "]" * 50_000):  # its event name past 64 KB
        path = tmp_path / "telemetry.log"
        path.write_text(text[:first] + huge + text[end:])
        assert protocols.detect(str(path)).name == "gemini_telemetry"  # was: not a format it reads
        store = CallStore()
        load([str(path)], store)
        assert store.call_count >= 2  # the other calls; the first one's own fate is its value's
    plain = tmp_path / "other.json"
    plain.write_text('{\n  "hrTime": [1, 2]\n}\n')  # a short object the head holds whole: no event name
    assert protocols.get("gemini_telemetry").sniff(str(plain), plain.read_bytes()) == 0
