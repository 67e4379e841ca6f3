"""The recording format: versioned header, flushed lines, torn last line, newer versions refused."""

from __future__ import annotations

import json

import pytest

from inspector.model import CallStore, FakeClock, Malformed, State
from inspector.protocols import FormatError, alicia, recording
from inspector.sources.files import load
from inspector.sources.session import UnusableInput, hydrate


def request_packet(call_id="r1", execution="client", stanza=-1):
    return alicia.encode_envelope(
        type_=6,
        body={
            "id": call_id,
            "toolName": "read_file",
            "execution": execution,
            "parameters": {"path": "/x"},
            "timeoutMs": 5000,
        },
        conversation_id="conv_1",
        stanza_id=stanza,
    )


def write_sample(path):
    with recording.RecordingWriter(str(path), {"room": "demo"}) as rec:
        rec.write("in", request_packet(), ts=100.0, participant="agent", topic="alicia")
        rec.event("participant_joined", "agent", ts=100.5)
        answer = alicia.encode_tool_result(
            conversation_id="conv_1", stanza_id=1, call_id="r1", success=True, result={"content": "hi"}
        )
        rec.write("out", answer, ts=101.0, participant="inspector-x", answered_by="inspector")
        rec.write("in", b"\xc1 not msgpack", ts=102.0, participant="agent")
    return path


def test_each_line_is_flushed_as_it_is_written(tmp_path):
    path = tmp_path / "r.jsonl"
    rec = recording.RecordingWriter(str(path), {"room": "demo"})
    rec.write("in", request_packet(), ts=1.0, participant="agent")
    lines = path.read_bytes().splitlines()  # read while the writer is still open
    assert len(lines) == 2
    header, line = json.loads(lines[0]), json.loads(lines[1])
    assert header["format"] == "inspector-recording" and header["version"] == 1
    assert line["dir"] == "in" and line["decoded"]["body"]["id"] == "r1" and line["raw"]
    rec.close()


def test_replay_gives_the_same_calls(tmp_path):
    path = write_sample(tmp_path / "r.jsonl")
    store = CallStore(clock=FakeClock(200.0))
    (info,) = load([str(path)], store)
    assert info.format == "recording"
    (call,) = list(store.all_calls())
    assert call.state() is State.SUCCEEDED and call.result.answered_by == "inspector"
    assert call.request.sender == "agent" and call.request.deadline == 105.0
    assert len(store.malformed) == 1 and "not MessagePack" in store.malformed[0].reason
    request, results = hydrate(call)
    assert request.params == {"path": "/x"} and results[0].data == {"content": "hi"}


def test_torn_last_line_is_reported_and_the_rest_opens(tmp_path):
    path = write_sample(tmp_path / "r.jsonl")
    with open(path, "ab") as fh:
        fh.write(b'{"t": 103.0, "dir": "in", "raw": "gqR0eXBlBq')
    events = list(recording.read(str(path)))
    assert isinstance(events[-1], Malformed) and "torn last line" in events[-1].reason
    assert sum(1 for e in events if type(e).__name__ == "Request") == 1


def test_newer_version_is_a_clear_error(tmp_path):
    path = tmp_path / "new.jsonl"
    path.write_text(json.dumps({"format": "inspector-recording", "version": 99}) + "\n")
    with pytest.raises(FormatError, match="version 99 is newer"):
        list(recording.read(str(path)))
    with pytest.raises(UnusableInput, match="newer"):
        load([str(path)], CallStore())


def test_default_path_is_in_the_data_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = recording.default_recording_path("conv/1 x", when=0)
    assert path.startswith(str(tmp_path)) and "conv_1_x-" in path and path.endswith(".jsonl")
