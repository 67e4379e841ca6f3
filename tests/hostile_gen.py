"""A hostile-input generator for every format: good small sessions, and ways to break one record of them.

``BASES`` holds, per format, a few records of good calls (each call's records name its id). A case
replaces one field of one record (extreme numbers, bad text, wrong types, deep nesting), truncates the
file, or declares a huge MessagePack length; the other calls must still be read.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
from hostile_io import (
    SPECIAL_KINDS,
    alicia_request,
    alicia_result,
    claude_pair,
    make_special,
    rap_request,
    rap_result,
)

IDS = ("k1", "k2", "k3")

# -- values ------------------------------------------------------------------------------------
EXTREME_NUMBERS: list[Any] = [
    10**400,
    -(10**400),
    2**64,
    2**63,
    -(2**63) - 1,
    123456789012345678901234567890,
    1e308,
    -1e308,
    5e-324,
    -0.0,
    float("nan"),
    float("inf"),
    float("-inf"),
    0,
    -1,
]
BAD_TEXT: list[Any] = [
    "\ud800",
    "a\udc00b",
    "\x1b]0;title\x07\x1b[2J",
    "\u202e\u2066evil\u2069",
    "\x00\x85\x9b",
    "[bold red]markup[/]",
    "`</code><img src=x onerror=alert(1)>[l](javascript:x)",
    "x" * 70_000,
    "\n" * 2000,
    "@@ -" + "9" * 5000 + ",1 +1,1 @@\n x",
    "--- a\n+++ b\n@@ -99999999999999999999,-3 +-1,0 @@\n-a\n+b",
]
WRONG_TYPES: list[Any] = [None, True, [], [1, "x"], {}, {"x": {"y": None}}, "", "str", 1.5, 7]
DEEP = 50_000  # deeper than any recursive parser or renderer could follow


def deep_value(depth: int = DEEP) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = [value]
    return value


HOSTILE_VALUES = EXTREME_NUMBERS + BAD_TEXT + WRONG_TYPES


# -- good sessions -------------------------------------------------------------------------------
def _alicia_records() -> list[tuple[str, dict]]:
    out: list[tuple[str, dict]] = []
    for call_id in IDS:
        out.append((call_id, alicia_request(call_id, timeoutMs=30000)))
        out.append((call_id, alicia_result(call_id)))
    return out


def _claude_records() -> list[tuple[str, dict]]:
    return [(call_id, record) for call_id in IDS for record in claude_pair(call_id, {"command": "ls"})]


def _rap_records() -> list[tuple[str, dict]]:
    diff = {"type": "diff", "content": {"path": "a", "patch": "--- a\n+++ a\n@@ -1,1 +1,1 @@\n-a\n+b\n"}}
    out: list[tuple[str, dict]] = []
    for call_id in IDS:
        out.append((call_id, rap_request(call_id, timeout_ms=5000)))
        out.append((call_id, rap_result(call_id, display_as=[diff])))
    return out


def _lmkit_records() -> list[tuple[str, dict]]:
    out: list[tuple[str, dict]] = []
    for call_id in IDS:
        out.append((call_id, {"Id": call_id, "Name": "get_weather", "ArgumentsJson": '{"city": "Paris"}'}))
        out.append(
            (
                call_id,
                {"ToolCallId": call_id, "ToolName": "get_weather", "Type": 0, "ResultJson": '{"t": 18}'},
            )
        )
    return out


def _recording_records() -> list[tuple[str, dict]]:
    out: list[tuple[str, dict]] = []
    for index, (call_id, envelope) in enumerate(_alicia_records()):
        record = {"t": 1793527200.0 + index, "dir": "in", "participant": "agent", "topic": "alicia"}
        record.update(reliable=True, raw=base64.b64encode(msgpack.packb(envelope)).decode(), decoded=envelope)
        out.append((call_id, record))
    return out


def _otlp_attrs(**pairs: Any) -> list[dict[str, Any]]:
    return [{"key": k.replace("__", "."), "value": {"stringValue": v}} for k, v in pairs.items()]


def _otlp_records() -> list[tuple[str, dict]]:
    """One OTLP JSON line per record: k1 an execute_tool span, k2 Codex decision and result events, k3 a
    Claude Code tool_result event alone."""
    span = {
        "traceId": "5b8efff798038103d269b633813fc60c",
        "spanId": "a000000000000001",
        "name": "execute_tool get_weather",
        "kind": 1,
        "startTimeUnixNano": "1764000000100000000",
        "endTimeUnixNano": "1764000000900000000",
        "attributes": _otlp_attrs(
            gen_ai__operation__name="execute_tool",
            gen_ai__tool__name="get_weather",
            gen_ai__tool__call__id="k1",
            gen_ai__tool__call__arguments='{"city": "Paris"}',  # sent with --otlp-content
            gen_ai__tool__call__result='{"temp_c": 12}',
        ),
        "status": {},
    }
    resource = {"attributes": _otlp_attrs(service__name="agent")}

    def logs(name: str, **attrs: str) -> dict:
        record = {"timeUnixNano": "1764000001000000000", "body": {"stringValue": name}}
        record["attributes"] = _otlp_attrs(event__name=name, **attrs)
        return {"resourceLogs": [{"resource": resource, "scopeLogs": [{"logRecords": [record]}]}]}

    return [
        ("k1", {"resourceSpans": [{"resource": resource, "scopeSpans": [{"spans": [span]}]}]}),
        ("k2", logs("codex.tool_decision", tool_name="shell", call_id="k2", decision="approved")),
        ("k2", logs("codex.tool_result", tool_name="shell", call_id="k2", success="true", duration_ms="5")),
        ("k3", logs("claude_code.tool_result", tool_name="Read", tool_use_id="k3", success="true")),
    ]


def _gemini_telemetry_records() -> list[tuple[str, dict]]:
    """Gemini CLI's telemetry outfile: one tool call log record per call; ids come from the order within
    the prompt, so each record names its call by its prompt (k1, k2, k3: one call each)."""
    out: list[tuple[str, dict]] = []
    for index, call_id in enumerate(IDS):
        attributes = {
            "event.name": "gemini_cli.tool_call",
            "event.timestamp": f"2025-11-24T16:00:0{index}.000Z",
            "function_name": "read_file",
            "function_args": '{"absolute_path": "/x"}',
            "duration_ms": 5,
            "success": True,
            "prompt_id": call_id,
            "session.id": "s1",
        }
        out.append(
            (call_id, {"hrTime": [1764000000 + index, 0], "attributes": attributes, "body": "Tool call"})
        )
    return out


def _pretty_objects(records: list[Any]) -> bytes:
    return "".join(r if isinstance(r, str) else json.dumps(r, indent=2) + "\n" for r in records).encode(
        "utf-8", "surrogatepass"
    )


RECORDING_HEADER = {"format": "inspector-recording", "version": 1, "created": "2026-11-01T10:00:00+00:00"}

# format name -> (file suffix, records of good calls, how to write them)
Writer = Callable[[list[Any]], bytes]


def _jsonl(records: list[Any]) -> bytes:
    return "".join(r if isinstance(r, str) else json.dumps(r) + "\n" for r in records).encode(
        "utf-8", "surrogatepass"
    )


def _recording(records: list[Any]) -> bytes:
    return _jsonl([RECORDING_HEADER, *records])


def _packable(value: Any) -> Any:
    """What MessagePack can carry for ``value``: ints within 64 bits, strings without lone surrogates."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return max(min(value, 2**64 - 1), -(2**63))
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "surrogatepass")  # bytes that are not UTF-8: bin, read as bad text
        return value
    if isinstance(value, dict):
        return {_packable(k): _packable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_packable(v) for v in value]
    return value


def _msgpack_stream(records: list[Any]) -> bytes:
    return b"".join(r if isinstance(r, bytes) else msgpack.packb(_packable(r)) for r in records)


def _hex_lines(records: list[Any]) -> bytes:
    return b"".join(
        (r if isinstance(r, bytes) else msgpack.packb(_packable(r))).hex().encode() + b"\n" for r in records
    )


def _codex_records() -> list[tuple[str, dict]]:
    """A rollout (envelope layout): a shell call ended by its output, a patch with its patch_apply_end,
    and a legacy shell call whose exec_command_end comes before its JSON output."""

    def item(kind: str, **payload: Any) -> dict:
        return {"timestamp": "2026-05-12T10:00:01.000Z", "type": kind, "payload": payload}

    patch = "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n*** End Patch"
    changes = {"a.py": {"update": {"unified_diff": "@@ -1 +1 @@\n-a\n+b\n", "move_path": None}}}
    legacy = json.dumps({"output": "x", "metadata": {"exit_code": 0, "duration_seconds": 0.5}})
    meta = {"id": "019e0000-0000-7000-8000-0000000000ff", "timestamp": "2026-05-12T10:00:00.000Z"}
    return [
        ("", item("session_meta", **meta, cwd="/w", cli_version="0.126.0", source="cli")),
        ("k1", item("response_item", type="function_call", name="exec_command", arguments='{"cmd": "ls"}',
                    call_id="k1")),
        ("k1", item("response_item", type="function_call_output", call_id="k1",
                    output="Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\nok")),
        ("k2", item("response_item", type="custom_tool_call", name="apply_patch", input=patch, call_id="k2",
                    status="completed")),
        ("k2", item("event_msg", type="patch_apply_end", call_id="k2", success=True, changes=changes)),
        ("k2", item("response_item", type="custom_tool_call_output", call_id="k2", output="Done")),
        ("k3", item("response_item", type="function_call", name="shell",
                    arguments='{"command": ["bash", "-lc", "ls"], "timeout_ms": 1000}', call_id="k3")),
        ("k3", item("event_msg", type="exec_command_end", call_id="k3", exit_code=0,
                    duration={"secs": 0, "nanos": 500}, aggregated_output="x")),
        ("k3", item("response_item", type="function_call_output", call_id="k3", output=legacy)),
    ]  # fmt: skip


GEMINI_HEADER = {"sessionId": "9330d511-0000-0000-0000-0000000000ff", "projectHash": "ab12",
                 "startTime": "2026-04-25T08:00:00.000Z", "lastUpdated": "2026-04-25T08:00:09.000Z"}  # fmt: skip


def _gemini_records() -> list[tuple[str, dict]]:
    """Messages: the user's, then one per call (a shell command, a file edit with its diff, a listing)."""

    def message(message_id: str, call: dict | None, second: int) -> dict:
        out = {"id": message_id, "timestamp": f"2026-04-25T08:00:0{second}.000Z", "type": "gemini",
               "content": [{"text": "on it"}], "tokens": {"input": 1, "output": 2, "total": 3}}  # fmt: skip
        return {**out, "toolCalls": [call]} if call else {**out, "type": "user", "content": "hi"}

    def call(call_id: str, name: str, args: dict, output: str, display: Any) -> dict:
        response = {"functionResponse": {"id": call_id, "name": name, "response": {"output": output}}}
        return {"id": call_id, "name": name, "args": args, "status": "success", "result": [response],
                "timestamp": "2026-04-25T08:00:02.000Z", "resultDisplay": display}  # fmt: skip

    diff = {"fileDiff": "--- a\n+++ a\n@@ -1,1 +1,1 @@\n-a\n+b\n", "fileName": "a.py", "newContent": "b"}
    listing = {"summary": "2 files", "files": [{"name": "a.py"}, {"filePath": "b", "lineNumber": 3}]}
    return [
        ("", message("u1", None, 1)),
        ("k1", message("m1", call("k1", "run_shell_command", {"command": "ls"}, "Exit Code: 0\n", "ok"), 2)),
        ("k2", message("m2", call("k2", "replace", {"file_path": "a.py"}, "done", diff), 3)),
        ("k3", message("m3", call("k3", "list_directory", {"dir_path": "."}, "x", listing), 4)),
        ("", {"$set": {"lastUpdated": "2026-04-25T08:00:09.000Z"}}),
    ]


def _gemini_lines(records: list[Any]) -> bytes:
    return _jsonl([GEMINI_HEADER, *records])


def _gemini_document(records: list[Any]) -> bytes:
    """The JSON layout: the header's fields and the messages (a ``$set`` line has no place there)."""
    messages = ",\n".join(r if isinstance(r, str) else json.dumps(r) for r in records if "$set" not in r)
    head = json.dumps(GEMINI_HEADER)[:-1]
    return f'{head}, "messages": [\n{messages}\n]}}\n'.encode("utf-8", "surrogatepass")


BASES: dict[str, tuple[str, Callable[[], list[tuple[str, dict]]], Writer]] = {
    "claude": (".jsonl", _claude_records, _jsonl),
    "recording": (".recording.jsonl", _recording_records, _recording),
    "alicia-json": (".jsonl", _alicia_records, _jsonl),
    "alicia-hex": (".hex", _alicia_records, _hex_lines),
    "alicia-msgpack": (".msgpack", _alicia_records, _msgpack_stream),
    "rap": (".jsonl", _rap_records, _jsonl),
    "lmkit": (".jsonl", _lmkit_records, _jsonl),
    "codex": (".jsonl", _codex_records, _jsonl),
    "gemini": (".jsonl", _gemini_records, _gemini_lines),
    "gemini-json": (".json", _gemini_records, _gemini_document),
    "otlp": (".jsonl", _otlp_records, _jsonl),
    "gemini_telemetry": (".log", _gemini_telemetry_records, _pretty_objects),
}
FORCED = {
    "alicia-json": "alicia",
    "alicia-hex": "alicia",
    "alicia-msgpack": "alicia",
    "gemini-json": "gemini",
}


def format_of(kind: str) -> str:
    return FORCED.get(kind, kind)


# -- mutations ---------------------------------------------------------------------------------
def paths_of(value: Any, prefix: tuple = (), depth: int = 0, deepest: int = 6) -> list[tuple]:
    """Every key path into ``value`` (each field of each object and each item of each array), down to
    ``deepest`` levels (an OTLP attribute's value is 10 levels down)."""
    found: list[tuple] = []
    if depth > deepest:
        return found
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        found.append((*prefix, key))
        found.extend(paths_of(child, (*prefix, key), depth + 1, deepest))
    return found


def replaced(record: Any, path: tuple, new: Any) -> Any:
    """A copy of ``record`` with the field at ``path`` set to ``new``."""
    copy = json.loads(json.dumps(record))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return copy


def write_case(folder: Path, kind: str, records: list[Any], name: str) -> Path:
    suffix, _, writer = BASES[kind]
    path = folder / f"{name}{suffix}"
    path.write_bytes(writer(records))
    return path


def good_file(folder: Path, kind: str) -> tuple[Path, list[tuple[str, dict]]]:
    base = BASES[kind][1]()
    return write_case(folder, kind, [r for _, r in base], f"{kind}-good"), base


HUGE_MSGPACK = [
    b"\xdb\xff\xff\xff\xff" + b"abc",  # str32 of 4 GB, 3 bytes given
    b"\xc6\xff\xff\xff\xff" + b"abc",  # bin32 of 4 GB
    b"\xdd\xff\xff\xff\xff" + b"\x01",  # array32 of 4 billion items
    b"\xdf\xff\xff\xff\xff" + b"\xa1a\x01",  # map32 of 4 billion pairs
    b"\x86" + b"\xa4type\x06" + b"\xa4body\xdf\x7f\xff\xff\xff",  # an envelope whose body declares 2^31 pairs
    b"\xc1",  # never used
    b"\x91" * 200_000 + b"\xc0",  # arrays nested 200,000 deep
]


def huge_length_files(folder: Path) -> list[tuple[str, Path]]:
    """Files whose one bad packet declares a huge length (binary stream, hex lines, a recording's raw)."""
    out: list[tuple[str, Path]] = []
    good = [r for _, r in _alicia_records()]
    for index, packet in enumerate(HUGE_MSGPACK):
        records = [good[0], good[1], packet, good[4], good[5]]
        out.append(("alicia-msgpack", write_case(folder, "alicia-msgpack", records, f"huge{index}")))
        out.append(("alicia-hex", write_case(folder, "alicia-hex", records, f"huge{index}")))
        rec = [r for _, r in _recording_records()]
        bad = dict(rec[2], raw=base64.b64encode(packet).decode())
        bad.pop("decoded")
        out.append(
            (
                "recording",
                write_case(folder, "recording", [rec[0], rec[1], bad, rec[4], rec[5]], f"huge{index}"),
            )
        )
    return out


def truncations(folder: Path, kind: str, step: int = 1) -> list[Path]:
    """The good file of ``kind`` cut after every ``step``-th byte."""
    path, _ = good_file(folder, kind)
    data = path.read_bytes()
    out = []
    for size in range(0, len(data), step):
        cut = folder / f"cut-{kind}-{size}{BASES[kind][0]}"
        cut.write_bytes(data[:size])
        out.append(cut)
    os.unlink(path)
    return out


DEEP_MARK = "__DEEP__"


def deepen(data: bytes, kind: str) -> bytes:
    """Put a value nested ``DEEP`` levels where a record holds ``DEEP_MARK`` (no recursive encoder can)."""
    if kind in ("alicia-msgpack", "alicia-hex"):
        mark, deep = msgpack.packb(DEEP_MARK), b"\x91" * DEEP + b"\xc0"
        if kind == "alicia-hex":
            mark, deep = mark.hex().encode(), deep.hex().encode()
        return data.replace(mark, deep)
    return data.replace(json.dumps(DEEP_MARK).encode(), b"[" * DEEP + b"]" * DEEP)


def write_mutated(
    folder: Path, kind: str, base: list[tuple[str, dict]], index: int, path: tuple, value: Any, name: str
) -> Path:
    """The good session of ``kind`` with field ``path`` of record ``index`` set to ``value``."""
    records = [r for _, r in base]
    records[index] = replaced(records[index], path, value)
    out = write_case(folder, kind, records, name)
    if value == DEEP_MARK:
        out.write_bytes(deepen(out.read_bytes(), kind))
    return out


# -- special paths (issue 25) -------------------------------------------------------------------------
def special_sessions(folder: Path) -> list[tuple[str, str, Path]]:
    """Every format's session (named as that format's sessions are) replaced by each kind of special
    path: ``(format kind, special kind, path)``. The other places a path is opened (subagent and meta
    files, tool-results/, folders, config, rules, exports...) are walked by test_hostile_paths.PLACES."""
    out = []
    for kind, (suffix, _, _) in BASES.items():
        for special in SPECIAL_KINDS:
            path = folder / kind / f"{special}-session{suffix}"
            out.append((kind, special, make_special(path, special)))
    return out


# -- bytes that are not UTF-8 inside a record (hostile round three) ------------------------------------
BAD_UTF8_MARK = "__BAD_UTF8__"
BAD_UTF8 = b"a\xff\xfe\xe2\x82b\xc0\xaf\xed\xa0\x80"
"""An invalid start byte, a sequence cut short, an overlong encoding and an encoded surrogate."""
BAD_UTF8_READ = "a" + "\ufffd" * 4 + "b" + "\ufffd" * 5
"""What every reader makes of ``BAD_UTF8``: U+FFFD for each byte that is not UTF-8."""


def with_bad_utf8(data: bytes, kind: str, replacement: bytes = BAD_UTF8) -> bytes:
    """The file ``data`` of ``kind`` with the string ``BAD_UTF8_MARK`` holding ``replacement``'s bytes."""
    if kind in ("alicia-msgpack", "alicia-hex"):
        mark = msgpack.packb(BAD_UTF8_MARK)
        bad = (
            bytes([0xA0 | len(replacement)]) if len(replacement) < 32 else b"\xd9" + bytes([len(replacement)])
        )
        bad += replacement
        if kind == "alicia-hex":
            mark, bad = mark.hex().encode(), bad.hex().encode()
        return data.replace(mark, bad)
    return data.replace(json.dumps(BAD_UTF8_MARK).encode(), b'"' + replacement + b'"')


RAW_CONTROLS = b"a\x00b\x1bc\x07d\te\x7f"
"""Control characters raw inside a JSON string (JSON wants them escaped): NUL, ESC, BEL, a tab."""
RAW_CONTROLS_READ = b"a\\u0000b\\u001bc\\u0007d\\te\x7f"
"""The same characters escaped, as a JSON writer writes them."""
BAD_BYTES = {"utf8": (BAD_UTF8, BAD_UTF8_READ.encode()), "controls": (RAW_CONTROLS, RAW_CONTROLS_READ)}


def bad_utf8_pair(
    folder: Path, kind: str, base: list[tuple[str, dict]], index: int, path: tuple, bad_kind: str = "utf8"
) -> tuple[Path, Path]:
    """Two files of ``kind``: field ``path`` of record ``index`` holding the bad bytes of ``bad_kind``
    (``BAD_BYTES``: bytes not UTF-8, control characters raw in a JSON string), and the same file holding
    what they are read as (valid UTF-8, the characters escaped) instead."""
    bad = write_mutated(folder, kind, base, index, path, BAD_UTF8_MARK, "bad-utf8")
    good = folder / ("read-as" + bad.name)
    data = bad.read_bytes()
    raw, read = BAD_BYTES[bad_kind]
    bad.write_bytes(with_bad_utf8(data, kind, raw))
    good.write_bytes(with_bad_utf8(data, kind, read))
    return bad, good


# -- times that are no time (hostile round three) -------------------------------------------------------
TIME_VALUES: list[Any] = [
    "abc",
    "",
    -1,
    "-1",
    -(10**18),
    float("nan"),
    float("inf"),
    10**30,
    "9" * 40,
    2**64,
    "2026-13-45T99:99:99Z",
    "1000000000",  # 1970 and a second, in seconds or nanoseconds: before any call's start
    1000000000,
    0,
    None,
    [],
    {},
]
"""Unparseable, negative, NaN, infinite, huge, impossible and before-the-start values of a time field."""


def is_time_path(path: tuple) -> bool:
    """A field that holds a time or a duration (by its name, in every format's spelling)."""
    key = path[-1]
    if not isinstance(key, str):
        return len(path) > 1 and is_time_path(path[:-1])  # an item of a time (hrTime's [s, ns])
    low = key.lower()
    return "time" in low or low in ("t", "ts", "duration", "duration_ms", "secs", "nanos")
