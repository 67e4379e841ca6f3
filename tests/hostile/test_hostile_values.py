"""Numbers and text a session should never be able to break (issue 9, items 1-4 and 9): each failed once."""

from __future__ import annotations

import json

import pytest
from hostile_io import (
    HEADLESS,
    alicia_request,
    alicia_result,
    claude_pair,
    envelope,
    jsonl,
    rap_request,
    rap_result,
    run_cli,
)

from inspector.model.diff import hunks_from_structured_patch, parse_unified_diff

HUGE = 10**400
BIG = 123456789012345678901234567890


def _recording(tmp_path, decoded: list[dict]):
    import base64

    import msgpack

    header = {"format": "inspector-recording", "version": 1, "created": "2026-11-01T10:00:00+00:00"}
    lines = [header]
    for index, obj in enumerate(decoded):
        line = {"t": 1793527200.0 + index, "dir": "in", "participant": "agent", "topic": "alicia"}
        if _packable(obj):  # a number past 64 bits cannot be MessagePack: only its decoded form is kept
            line["raw"] = base64.b64encode(msgpack.packb(obj)).decode()
        lines.append({**line, "reliable": True, "decoded": obj})
    return jsonl(tmp_path / "r.recording.jsonl", lines)


def _packable(obj) -> bool:
    import msgpack

    try:
        msgpack.packb(obj)
    except (OverflowError, ValueError, TypeError):
        return False
    return True


@pytest.mark.parametrize("fmt", ["alicia", "recording", "rap"])
def test_a_timeout_past_any_float_counts_and_never_crashes(tmp_path, fmt):
    if fmt == "alicia":
        path = jsonl(tmp_path / "a.jsonl", [alicia_request(timeoutMs=HUGE), alicia_result()])
    elif fmt == "recording":
        path = _recording(tmp_path, [alicia_request(timeoutMs=HUGE), alicia_result()])
    else:
        path = jsonl(tmp_path / "r.jsonl", [rap_request(timeout_ms=HUGE), rap_result()])
    for command in HEADLESS:
        code, out, err = run_cli(*command, str(path))
        assert code in (0, 1), (command, err)
    code, out, _ = run_cli("stats", "--json", str(path))
    assert json.loads(out)["calls"] == 1


def test_a_timestamp_past_time_t_is_no_time(tmp_path):
    path = jsonl(
        tmp_path / "a.jsonl",
        [
            envelope(6, {"id": "t1", "toolName": "x", "execution": "server"}, {"timestamp": 1e308}),
            alicia_result(),
        ],
    )
    code, out, err = run_cli("dump", str(path))
    assert code == 0, err
    assert "x" in out


def test_a_hunk_header_of_5000_digits_is_invalid_and_the_rest_loads(tmp_path):
    patch = "--- a\n+++ a\n@@ -" + "9" * 5000 + ",3 +1,4 @@\n x\n+y\n"
    diff = {"type": "diff", "content": {"path": "a", "patch": patch}}
    path = jsonl(
        tmp_path / "r.jsonl",
        [rap_request("c1"), rap_result("c1", display_as=[diff]), rap_request("c2"), rap_result("c2")],
    )
    code, out, err = run_cli("stats", "--json", str(path))
    assert code == 0, err
    assert json.loads(out)["calls"] == 2
    [file_diff] = parse_unified_diff(patch)
    [hunk] = file_diff.hunks
    assert hunk.invalid and "invalid" in hunk.title and "5000 digits" in hunk.title
    assert all(line.old_no is None and line.new_no is None for line in hunk.lines)


def test_structured_patch_numbers_show_as_written_and_marked_invalid():
    [huge] = hunks_from_structured_patch(
        [{"oldStart": 10**300, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": [" a"]}]
    )
    assert (
        huge.invalid is not None
        and "(invalid line numbers)" in huge.title
        and "100000000000…(301 digits)" in huge.title
    )
    [negative] = hunks_from_structured_patch(
        [{"oldStart": -5, "oldLines": -3, "newStart": 1, "newLines": 1, "lines": ["-a"]}]
    )
    assert negative.title == "@@ --5,-3 +1,1 @@ (invalid line numbers)"
    [fine] = hunks_from_structured_patch(
        [{"oldStart": 3, "oldLines": 1, "newStart": 3, "newLines": 1, "lines": [" a"]}]
    )
    assert fine.invalid is None and fine.title == "@@ -3,1 +3,1 @@" and fine.lines[0].old_no == 3


@pytest.mark.parametrize("fmt", ["claude", "alicia", "rap"])
def test_integers_past_64_bits_stay_exact(tmp_path, fmt):
    if fmt == "claude":
        path = jsonl(tmp_path / "s.jsonl", claude_pair("toolu_1", {"n": BIG, "m": -(2**63) - 1}))
    elif fmt == "alicia":
        path = jsonl(tmp_path / "a.jsonl", [alicia_request(parameters={"n": BIG, "m": -(2**63) - 1})])
    else:
        path = jsonl(tmp_path / "r.jsonl", [rap_request(arguments={"n": BIG, "m": -(2**63) - 1})])
    code, out, err = run_cli("dump", "--json", str(path))
    assert code in (0, 1), err
    [call] = [json.loads(line) for line in out.splitlines()]
    assert call["params"] == {"n": BIG, "m": -(2**63) - 1}
    code, out, _ = run_cli("dump", str(path))
    assert str(BIG) in out.replace("\n", "")


def test_integers_too_long_for_python_are_kept_as_their_digits():
    from inspector.model import values

    value, error = values.loads_json(b'{"n": ' + b"7" * 5000 + b"}")
    assert error is None and value == {"n": "7" * 5000}


@pytest.mark.parametrize("fmt", ["claude", "alicia", "rap"])
def test_lone_surrogates_become_replacement_characters(tmp_path, fmt):
    if fmt == "claude":
        records = claude_pair("toolu_1", {"p": "x"}, "y")
        line = (
            json.dumps(records[0]).replace('"name": "Bash"', '"name": "\\ud800"').replace('"x"', '"\\udc00"')
        )
        path = jsonl(tmp_path / "s.jsonl", [line, records[1]])
    elif fmt == "alicia":
        line = json.dumps(alicia_request(parameters={"p": "x"})).replace('"get_weather"', '"\\ud800"')
        path = jsonl(tmp_path / "a.jsonl", [line.replace('"x"', '"\\udc00"')])
    else:
        line = json.dumps(rap_request(arguments={"p": "x"})).replace('"deploy"', '"\\ud800"')
        path = jsonl(tmp_path / "r.jsonl", [line.replace('"x"', '"\\udc00"')])
    for command in HEADLESS:
        code, out, err = run_cli(*command, str(path))
        assert code in (0, 1), (command, err)
        out.encode("utf-8")
    code, out, _ = run_cli("dump", "--json", str(path))
    call = json.loads(out.splitlines()[0])
    assert call["tool"] == "\ufffd" and call["params"] == {"p": "\ufffd"}


def test_json_outputs_escape_c1_and_bidi(tmp_path):
    path = jsonl(tmp_path / "a.jsonl", [alicia_request("t\u009b1\u202e", toolName="x\x85y\u2066")])
    for command in (["dump", "--json"], ["stats", "--json"]):
        code, out, err = run_cli(*command, str(path))
        assert code in (0, 1), err
        assert not any(0x7F <= ord(ch) <= 0x9F or ch in "\u202e\u2066" for ch in out), command
    code, out, _ = run_cli("dump", "--json", str(path))
    assert "\\u009b" in out and "\\u202e" in out
    assert json.loads(out)["id"] == "t\u009b1\u202e"


def test_json_outputs_stay_strict_json_with_nan_and_infinities_in_a_session(tmp_path):
    """Python's JSON reader takes NaN and Infinity from a file; dump --json echoed them, which strict
    readers (jq, browsers, Go) refuse: they are written as strings."""
    path = tmp_path / "nan.jsonl"
    line = json.dumps(alicia_request("t1", parameters={"x": float("nan"), "y": [float("inf")]}))
    path.write_text(line + "\n")

    def strict(constant: str):
        raise ValueError(f"not strict JSON: {constant}")

    for command in (["dump", "--json"], ["stats", "--json"]):
        code, out, err = run_cli(*command, str(path))
        assert code in (0, 1), err
        for text in out.splitlines():
            json.loads(text, parse_constant=strict)
    code, out, _ = run_cli("dump", "--json", str(path))
    assert json.loads(out.splitlines()[0])["params"] == {"x": "NaN", "y": ["Infinity"]}


def test_values_clamp_times_and_durations():
    from inspector.model import values

    assert (
        values.time_s(1e308) is None and values.time_s(float("nan")) is None and values.time_s(HUGE) is None
    )
    assert values.time_s(1793527200.5) == 1793527200.5
    assert values.duration_ms(HUGE) == values.MAX_DURATION_MS and values.duration_ms(-5) == 0
    assert (
        values.duration_ms(float("inf")) == values.MAX_DURATION_MS
        and values.duration_ms(float("nan")) is None
    )


def test_a_hex_line_over_64_kb_is_detected_without_format(tmp_path):
    import msgpack

    packet = msgpack.packb(alicia_request(parameters={"blob": "A" * 40_000}))
    path = tmp_path / "long.hex"
    path.write_text(packet.hex() + "\n")
    code, out, err = run_cli("stats", "--json", str(path))
    assert code == 0, err
    assert json.loads(out)["format"] == "alicia" and json.loads(out)["calls"] == 1


def test_one_truncated_binary_packet_is_a_malformed_record_exit_1(tmp_path):
    import msgpack

    path = tmp_path / "cut.msgpack"
    path.write_bytes(msgpack.packb(alicia_request())[:-4])
    code, out, err = run_cli("check", str(path))
    assert code == 1 and "truncated" in out, (out, err)


def test_a_bad_packet_inside_a_binary_stream_hides_nothing_after_it(tmp_path):
    import msgpack

    good = [msgpack.packb(alicia_request(f"k{i}")) for i in range(3)]
    path = tmp_path / "s.msgpack"
    path.write_bytes(good[0] + b"\xdb\xff\xff\xff\xffabc" + good[1] + b"\xc1" + good[2])
    code, out, err = run_cli("dump", "--json", str(path))
    assert code == 1, err
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["k0", "k1", "k2"]


def test_lines_longer_than_the_read_buffer_are_read_whole_with_exact_spans(tmp_path):
    from inspector.protocols import claude

    records = []
    for index, size in enumerate([10, 1_000_000, 10, 600_000, 10]):
        records += claude_pair(f"toolu_{index}", {"command": "cat"}, "y" * size)
    path = jsonl(tmp_path / "long.jsonl", records)
    lines = path.read_bytes().splitlines()
    events = [e for e in claude.read(str(path)) if type(e).__name__ == "Result"]
    assert [e.call_id for e in events] == [f"toolu_{i}" for i in range(5)]
    for event in events:
        number = int(event.raw.where.split()[-1])
        assert event.raw.read() == lines[number - 1]
    code, out, _ = run_cli("stats", "--json", str(path))
    assert code == 0 and json.loads(out)["calls"] == 5


def test_a_record_past_the_huge_size_is_read_as_text_exact_and_valid(tmp_path):
    from inspector.model import values
    from inspector.protocols import claude

    big = "z" * (values.HUGE_TEXT + 1000)
    records = claude_pair("toolu_a", {"n": BIG}) + claude_pair("toolu_b", {"n": 1}, big)
    line = json.dumps(records[3]).replace('"zzz', '"\\ud800zz', 1)
    path = jsonl(tmp_path / "huge.jsonl", [*records[:3], line])
    results = [e for e in claude.read(str(path)) if type(e).__name__ == "Result"]
    assert [r.call_id for r in results] == ["toolu_a", "toolu_b"]
    assert results[1].data.startswith("\ufffdzz") and len(results[1].data) == len(big)
    assert results[1].raw.read() == line.encode()


@pytest.mark.parametrize(
    "text, expected",
    [
        (b'{"n": [123456789012345678901234567890]}', {"n": [123456789012345678901234567890]}),
        (b'{"a": {"b": -9223372036854775809}}', {"a": {"b": -9223372036854775809}}),
        (b"[18446744073709551616, 1]", [18446744073709551616, 1]),
        (b"[18446744073709551615]", [18446744073709551615]),
        (b'{"f": 1e19, "s": "1234567890123456789012"}', {"f": 1e19, "s": "1234567890123456789012"}),
        (b'{"f": 1e300}', {"f": 1e300}),
    ],
)
def test_integers_past_64_bits_are_read_exactly_and_big_floats_stay_floats(text, expected):
    from inspector.model import values

    value, error = values.loads_json(text)
    assert error is None
    assert repr(value) == repr(expected)  # ints stay ints, exactly; floats stay floats


def test_one_packet_of_many_values_is_not_a_flood_of_records():
    """200,000 tiny values concatenated into one frame were 200,000 malformed records (the list grew
    without end); the good envelopes of a batch still decode and the rest is counted in one record."""
    import msgpack

    import inspector.protocols.alicia.decode as alicia_decode
    from inspector.model.events import Malformed, Request

    good = msgpack.packb(
        {
            "stanzaId": -1,
            "conversationId": "c1",
            "type": 6,
            "meta": {},
            "body": {"id": "r1", "toolName": "t", "execution": "client", "parameters": {}},
        }
    )
    events = alicia_decode.decode_packet(good + b"\x01" * 200_000 + good)
    malformed = [e for e in events if isinstance(e, Malformed)]
    assert len([e for e in events if isinstance(e, Request)]) == 2
    assert len(malformed) == alicia_decode.MALFORMED_PER_PACKET + 1
    assert "199980 more items" in malformed[-1].reason
