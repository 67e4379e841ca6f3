"""Fuzz every format module: whatever a file holds, read() yields well-formed events and never raises."""

from __future__ import annotations

import binascii
import functools
import importlib
import json
import random
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector import protocols
from inspector.model import Malformed, Message, Outcome, RawRef, Request, Result, Skipped
from inspector.protocols.format import Format

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"
SAMPLES = ROOT / "sample_sessions"
FUZZ = settings(
    max_examples=120,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# A file of a known format that cannot be read at all (e.g. a recording from a newer version) may say so.
WHOLE_FILE_ERRORS = (getattr(protocols, "FormatError", OSError),)
WRONG_VALUES = [
    None,
    0,
    -1,
    2**70,
    1.5,
    True,
    [],
    [1, "x"],
    {},
    {"x": {"y": None}},
    "",
    "str",
    "\ud800",
    "Error: x",
    "\x1b[31m[red]\u202e",
]
PACKABLE_VALUES = [v for v in WRONG_VALUES if v != 2**70 and v != "\ud800"] + [2**64 - 1, -(2**63), b"\xff"]


def format_module(name: str) -> Format:
    """The format ``name`` (a plain import of its module: a renamed or missing module fails, never skips)."""
    return importlib.import_module(f"inspector.protocols.{name}").FORMAT


# -- valid examples per format, to break in every field ------------------------------------------


def _json_lines(path: Path, limit: int = 40, max_len: int = 4000) -> list[dict]:
    if not path.is_file():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and len(line) <= max_len:
            value = json.loads(line)
            if isinstance(value, dict):
                records.append(value)
        if len(records) >= limit:
            break
    return records


def _claude_records() -> list[dict]:
    records = []
    for path in sorted((CORPUS / "claude").rglob("*.jsonl"))[:6] + sorted(
        (SAMPLES / "claude").rglob("*.jsonl")
    ):
        records += [r for r in _json_lines(path, 60) if r.get("type") in ("assistant", "user", "progress")]
    return records[:80]


@functools.cache
def examples(name: str) -> tuple[list[bytes], list[dict]]:
    """``(prefix lines, records)``: a file of this format is the prefix then records, one per line."""
    if name == "rap":
        records = [r["body"] for r in _json_lines(CORPUS / "rap" / "rap_spec_examples.jsonl")]
        return [], records + _json_lines(SAMPLES / "rap.jsonl")
    if name == "lmkit":
        return [], _json_lines(SAMPLES / "lmkit.jsonl") + [
            {"Id": "c1", "Name": "t", "ArgumentsJson": '{"a": 1}'},
            {
                "ToolCallId": "c1",
                "ToolName": "t",
                "Type": "Error",
                "ResultJson": '{"error": {"message": "m"}}',
            },
            {"conversationId": "x", "toolCalls": [{"id": "c2", "name": "t", "argumentsJson": "{}"}]},
        ]
    if name == "alicia":
        return [], _json_lines(CORPUS / "alicia" / "derived_spec_examples.envelopes.jsonl")
    if name == "recording":
        lines = (SAMPLES / "demo.recording.jsonl").read_bytes().splitlines() if SAMPLES.is_dir() else []
        return lines[:1], [json.loads(line) for line in lines[1:40]]
    if name == "claude":
        return [], _claude_records()
    if name == "codex":  # both layouts: the legacy bare one and the envelope one of 0.58-0.126
        records = []
        for path in sorted((CORPUS / "codex").glob("*.jsonl")):
            records += _json_lines(path, 30)
        return [], records[:120]
    if name == "gemini":  # the JSONL layout: its header line, then message records and updates
        paths = sorted((CORPUS / "gemini").glob("*.jsonl"))
        lines = [line for path in paths for line in path.read_bytes().splitlines()[1:40] if len(line) <= 4000]
        header = paths[0].read_bytes().splitlines()[:1] if paths else []
        return header, [json.loads(line) for line in lines if line.strip()]
    return [], []


def records_or_skip(name: str) -> tuple[list[bytes], list[dict]]:
    prefix, records = examples(name)
    if not records:
        pytest.skip(f"no valid {name} examples to mutate")
    return prefix, records


def key_paths(value: Any, depth: int = 0) -> list[tuple]:
    """Every key (and the first item of every list) down to depth 4, as paths."""
    paths: list[tuple] = []
    if depth >= 4:
        return paths
    children = (
        value.items() if isinstance(value, dict) else enumerate(value[:1]) if isinstance(value, list) else []
    )
    for key, child in children:
        paths.append((key,))
        paths += [(key, *rest) for rest in key_paths(child, depth + 1)]
    return paths


def replaced(record: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    copy = dict(record) if isinstance(record, dict) else list(record)
    copy[path[0]] = replaced(copy[path[0]], path[1:], new)
    return copy


# -- checking what comes out ---------------------------------------------------------------------


def check(events: list, module) -> None:
    """Only events, each well-formed; every Malformed says where and why; redecode holds up too."""
    for event in events:
        assert isinstance(event, (Request, Result, Message, Malformed, Skipped)), type(event)
        if isinstance(event, Malformed):
            assert isinstance(event.where, str) and event.where, event
            assert isinstance(event.reason, str) and event.reason, event
        elif isinstance(event, Request):
            assert (
                isinstance(event.call_id, str)
                and isinstance(event.tool, str)
                and isinstance(event.group, str)
            )
            assert isinstance(event.summary, str)
        elif isinstance(event, Result):
            assert isinstance(event.call_id, str) and isinstance(event.group, str)
            assert isinstance(event.outcome, Outcome)
        elif isinstance(event, Message):
            assert isinstance(event.kind, str) and isinstance(event.text, str)
    for event in events[:20]:
        raw = getattr(event, "raw", None)
        if raw is not None and raw.protocol == module.name:
            again = module.redecode(raw)
            assert isinstance(again, list)
            check_flat(again)


def check_flat(events: list) -> None:
    for event in events:
        assert isinstance(event, (Request, Result, Message, Malformed, Skipped)), type(event)
        if isinstance(event, Malformed):
            assert event.where and event.reason


def read_file(module, path: Path, whole_file_errors: tuple = WHOLE_FILE_ERRORS) -> list:
    head = path.read_bytes()[: protocols.HEAD_BYTES]
    score = module.sniff(str(path), head)
    assert isinstance(score, int) and not isinstance(score, bool)
    try:
        events = list(module.read(str(path)))
    except whole_file_errors as exc:
        assert str(exc), "a whole-file error must say why"
        return []
    check(events, module)
    return events


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "case.bin"


def write(path: Path, prefix: list[bytes], body: bytes) -> Path:
    path.write_bytes(b"".join(line + b"\n" for line in prefix) + body)
    return path


def dumps(value: Any) -> bytes:
    return json.dumps(value).encode()


FORMATS = pytest.mark.parametrize("name", protocols.FORMAT_NAMES)


# -- strategies over whole files ----------------------------------------------------------------


@FORMATS
@FUZZ
@given(data=st.binary(max_size=3000))
def test_arbitrary_bytes(name, scratch, data):
    module = format_module(name)
    read_file(module, write(scratch, [], data))


@FORMATS
@FUZZ
@given(
    text=st.text(alphabet=st.sampled_from(list('{}[]",:0123456789 .-eEtrufalsn\\\n\tux"\'abc')), max_size=400)
)
def test_json_shaped_noise(name, scratch, text):
    module = format_module(name)
    read_file(module, write(scratch, examples(name)[0], text.encode("utf-8", "surrogatepass")))


@FORMATS
@FUZZ
@given(data=st.data())
def test_truncated_valid_lines(name, scratch, data):
    module = format_module(name)
    prefix, records = records_or_skip(name)
    chosen = data.draw(st.lists(st.sampled_from(records), min_size=1, max_size=4))
    lines = [dumps(record) for record in chosen]
    cut = data.draw(st.integers(0, len(lines[-1])))
    body = b"\n".join(lines[:-1] + [lines[-1][:cut]])
    if data.draw(st.booleans()):
        body += b"\n" + dumps(records[0]) + b"\n"
    read_file(module, write(scratch, prefix, body))


@FORMATS
@FUZZ
@given(data=st.data())
def test_wrong_types_in_every_field(name, scratch, data):
    module = format_module(name)
    prefix, records = records_or_skip(name)
    record = data.draw(st.sampled_from(records))
    paths = key_paths(record)
    if not paths:
        return
    path = data.draw(st.sampled_from(paths))
    value = data.draw(st.sampled_from(WRONG_VALUES))
    mutated = replaced(record, path, value)
    read_file(module, write(scratch, prefix, dumps(mutated) + b"\n" + dumps(record) + b"\n"))


@FORMATS
@FUZZ
@given(data=st.data())
def test_deep_nesting(name, scratch, data):
    module = format_module(name)
    prefix, records = examples(name)
    depth = data.draw(st.one_of(st.integers(1, 1200), st.sampled_from([5_000, 10_000, 50_000])))
    opener, closer = data.draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
    deep = (opener * depth + "1" + closer * depth).encode()
    if records and data.draw(st.booleans()):
        record = data.draw(st.sampled_from(records))
        paths = key_paths(record)
        path = data.draw(st.sampled_from(paths)) if paths else ()
        body = dumps(replaced(record, path, "__DEEP__")).replace(b'"__DEEP__"', deep)
    else:
        body = deep
    read_file(module, write(scratch, prefix, body + b"\n"))


@FORMATS
@settings(max_examples=12, deadline=None, database=None)
@given(data=st.data())
def test_huge_strings(name, scratch, data):
    module = format_module(name)
    prefix, records = records_or_skip(name)
    record = data.draw(st.sampled_from(records))
    paths = key_paths(record)
    path = data.draw(st.sampled_from(paths)) if paths else ()
    size = data.draw(st.sampled_from([100_000, 2_000_000]))
    huge = data.draw(st.sampled_from(["x", "é", "\n", "\\", "\x1b", "\ud800"])) * size
    read_file(module, write(scratch, prefix, dumps(replaced(record, path, huge)) + b"\n"))


@FORMATS
@FUZZ
@given(data=st.data())
def test_invalid_utf8_inside_valid_lines(name, scratch, data):
    module = format_module(name)
    prefix, records = records_or_skip(name)
    line = dumps(data.draw(st.sampled_from(records)))
    at = data.draw(st.integers(0, len(line)))
    junk = data.draw(
        st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x00", b"\xc0\xaf"])
    )
    read_file(module, write(scratch, prefix, line[:at] + junk + line[at:] + b"\n" + line + b"\n"))


@FORMATS
@FUZZ
@given(data=st.data())
def test_lone_surrogates_in_keys_and_values(name, scratch, data):
    module = format_module(name)
    prefix, records = records_or_skip(name)
    record = data.draw(st.sampled_from(records))
    surrogate = data.draw(st.sampled_from(["\ud800", "\udfff", "a\udc80b", "\ud83d"]))
    paths = key_paths(record)
    if paths and data.draw(st.booleans()):
        mutated = replaced(record, data.draw(st.sampled_from(paths)), surrogate)
    else:
        mutated = {surrogate: 1, **record} if isinstance(record, dict) else record
    read_file(module, write(scratch, prefix, dumps(mutated) + b"\n"))


@FORMATS
@FUZZ
@given(data=st.data())
def test_per_line_decoder(name, scratch, data):
    """Formats that can follow a growing file decode any appended line without raising."""
    module = format_module(name)
    decode_line = module.decode_line
    if decode_line is None:
        pytest.skip(f"{name} has no per-line decoder")
    _prefix, records = examples(name)
    line = data.draw(
        st.one_of(
            st.binary(max_size=500),
            st.sampled_from(records or [{}]).map(dumps),
            st.sampled_from(records or [{}]).flatmap(
                lambda r: st.sampled_from(key_paths(r) or [()]).flatmap(
                    lambda path: st.sampled_from(WRONG_VALUES).map(lambda v: dumps(replaced(r, path, v)))
                )
            ),
        )
    )
    path = write(scratch, [], line + b"\n")
    raw = RawRef(str(path), "line 1", 0, len(line) + 1, protocol=module.name)
    events = decode_line(line + b"\n", raw)
    check(list(events), module)


def test_a_json_array_document_of_broken_records(scratch):
    """A whole-document layout (one JSON array) with a broken item in the middle, for every format."""
    for name in protocols.FORMAT_NAMES:
        module = format_module(name)
        prefix, records = examples(name)
        rng = random.Random(7)
        items = [replaced(r, rng.choice(key_paths(r) or [()]), None) for r in records[:10]]
        read_file(module, write(scratch, prefix, json.dumps(items, indent=2).encode()[:-40]))


# -- Alicia packets ------------------------------------------------------------------------------


def alicia_module():
    from inspector.protocols import alicia

    return alicia


def decode(alicia, data: bytes) -> list:
    events = alicia.decode_packet(data, where="fuzz")
    events = list(events)
    check_flat(events)
    return events


@functools.lru_cache(maxsize=1)
def corpus_packets() -> list[bytes]:
    packets = []
    for name in ("derived_spec_examples.msgpack.hex", "derived_spec_edgecases.msgpack.hex"):
        path = CORPUS / "alicia" / name
        if path.is_file():
            for line in path.read_text().split():
                try:
                    packets.append(binascii.unhexlify(line))
                except (binascii.Error, ValueError):
                    continue
    return packets


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**64 - 1),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.binary(max_size=30),
)
KEYS = st.one_of(
    st.sampled_from(
        [
            "type",
            "body",
            "id",
            "toolName",
            "parameters",
            "execution",
            "timeoutMs",
            "success",
            "result",
            "error",
            "errorCode",
            "conversationId",
            "stanzaId",
            "meta",
            "requestId",
            "toolUseRequestId",
        ]
    ),
    st.text(max_size=8),
    st.integers(-(2**63), 2**63 - 1),
)
STRUCTURES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=6),
    max_leaves=30,
)


@FUZZ
@given(data=st.binary(max_size=2000))
def test_alicia_packet_arbitrary_bytes(data):
    decode(alicia_module(), data)


@FUZZ
@given(data=st.data())
def test_alicia_packet_truncated(data):
    alicia = alicia_module()
    packets = corpus_packets()
    if not packets:
        pytest.skip("no Alicia corpus packets")
    packet = data.draw(st.sampled_from(packets))
    decode(alicia, packet[: data.draw(st.integers(0, len(packet)))])


@FUZZ
@given(
    value=STRUCTURES, type_=st.one_of(st.sampled_from([6, 7, 1, 2, 9, 0, 99]), st.none(), st.text(max_size=3))
)
def test_alicia_packet_random_structures(value, type_):
    alicia = alicia_module()
    decode(alicia, msgpack.packb(value, use_bin_type=True))
    envelope = {"stanzaId": 1, "conversationId": "c", "type": type_, "meta": {}, "body": value}
    decode(alicia, msgpack.packb(envelope, use_bin_type=True))


@FUZZ
@given(data=st.data())
def test_alicia_packet_wrong_types_in_every_field(data):
    alicia = alicia_module()
    _prefix, records = records_or_skip("alicia")
    record = data.draw(st.sampled_from(records))
    paths = key_paths(record)
    mutated = replaced(record, data.draw(st.sampled_from(paths)), data.draw(st.sampled_from(PACKABLE_VALUES)))
    decode(alicia, msgpack.packb(mutated, use_bin_type=True))


@pytest.mark.parametrize("depth", [100, 2_000, 100_000])
def test_alicia_packet_deep_nesting(depth):
    alicia = alicia_module()
    decode(alicia, b"\x91" * depth + b"\xc0")
    decode(alicia, b"\x81\xa1a" * depth + b"\xc0")
