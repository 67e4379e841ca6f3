"""Codex and Gemini reads without result details (what a store that drops payloads asks for) yield the same
events as full reads, details and data aside: the same calls, outcomes, times and has_diff, for every
corpus session and every hostile change of one field. A Gemini session document split in one pass
(protocols/gemini/document.py) gives the same events as the general path, whatever its messages hold."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import hostile_gen as gen
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.model import CallStore, Request, Result, values
from inspector.model.diff import has_hunk, parse_unified_diff
from inspector.protocols import codex, gemini
from inspector.protocols.codex import calls as codex_calls
from inspector.protocols.codex.patch import (
    changes_detail,
    changes_hunks,
    has_hunks,
    patch_changes,
    patch_detail,
)
from inspector.protocols.gemini import document
from inspector.sources.files import open_paths, read_into

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / ".." / "shared" / "corpus"
CODEX_FILES = sorted((CORPUS / "codex").glob("*.jsonl")) if (CORPUS / "codex").is_dir() else []
GEMINI_FILES = sorted((CORPUS / "gemini").glob("*.json*")) if (CORPUS / "gemini").is_dir() else []
REAL_DOCUMENTS = sorted((ROOT / "tests" / "fixtures" / "real").rglob("session-*.json"))

PATCHES = [
    "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n*** End Patch",
    "*** Begin Patch\n*** Update File: a.py\n@@ def f\n ctx\n ctx2\n*** End Patch",  # context only
    "*** Begin Patch\n*** Add File: n.py\n*** End Patch",  # an added file with no line
    "*** Begin Patch\n*** Add File: n.py\nplain\n*** End Patch",
    "*** Begin Patch\n*** Delete File: d.py\n-gone\n*** End Patch",
    "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n+x\n*** End Patch",
    "*** Begin Patch\n@@\n-a\n+b\n*** End Patch",  # lines before any file
    "*** Begin Patch\n*** Update File: a.py\n@@\n-a\n",  # no end
    "cat <<EOF\n*** Begin Patch\\n*** Update File: a.py\\n@@\\n-a\\n+b\\n*** End Patch\nEOF",  # a string literal
    "apply_patch('*** Begin Patch\\n*** Add File: x\\n+y\\n*** End Patch')",
    "*** Begin Patch\r\n*** Update File: a.py\r\n@@\r\n+b\r\n*** End Patch\r\n",
    "*** Begin Patch\n*** Update File: a\n@@\n\n*** End Patch\n*** Begin Patch\n*** Add File: b\n+x\n*** End Patch",
    "*** Begin Patch*** End Patch",
    "no patch here",
    "",
]
DIFFS = [
    "--- a\n+++ a\n@@ -1,1 +1,1 @@\n-a\n+b\n",
    "@@ -1 +1 @@\n x\n",
    "--- a\n+++ b\n",
    "x\r@@ -1 +1 @@",  # a header after a carriage return: a line of its own for splitlines
    "@@ -1 +1 @@x",
    "a@@ -1 +1 @@",
    "\u2028@@ -1 +1 @@\x85",
    "\x1c@@ -1,2 +3,4 @@ f\n",
    "@@ -1 +1\n@@",
    "@@ -\u0661 +1 @@",  # an Arabic-Indic digit: a digit to the regex
    "@@ -a +1 @@\n",
    "",
    *[text for text in gen.BAD_TEXT if isinstance(text, str)],
]


def bare(event: Any) -> Any:
    if isinstance(event, Result):
        return dataclasses.replace(event, details=None, data=None)
    return event


def compare(module: Any, path: Path) -> int:
    """The lean read equals the full one, details and data aside; the results with a diff."""
    full = [bare(event) for event in module.read(str(path))]
    lean = list(module.read(str(path), details=False))
    assert all(event.details is None for event in lean if isinstance(event, Result))
    assert [bare(event) for event in lean] == full
    return sum(1 for event in lean if isinstance(event, Result) and event.has_diff)


@pytest.mark.parametrize("text", PATCHES)
def test_a_patch_has_changes_as_its_detail_says(text: str) -> None:
    detail = patch_detail(text)
    assert patch_changes(text) == (detail is not None and has_hunks(detail))


CHANGES: list[Any] = [
    {"a.py": {"type": "add", "content": "x\ny\n"}},
    {"a.py": {"type": "add", "content": ""}},  # an empty file added: no line changed
    {"a.py": {"type": "add", "content": "\n"}},
    {"a.py": {"type": "add", "content": 7}, "b.py": {"type": "update", "unified_diff": DIFFS[0]}},
    {"a.py": {"type": "update", "unified_diff": DIFFS[1]}},  # context only
    {"a.py": {"type": "update", "unified_diff": DIFFS[1]}, "b.py": {"type": "add", "content": "z"}},
    {"a.py": {"type": "delete", "content": "gone"}},
    {"a.py": {"unified_diff": DIFFS[0]}, "b": "not a change"},
    {"a.py": "not a change"},
    {"a.py": {"type": None, "unified_diff": "@@ -a +1 @@\n-x\n"}},
    {"a.py": {"type": ["add"], "content": "x"}},
    {},
    [],
    None,
    *[{"f": {"type": "update", "unified_diff": text}} for text in DIFFS],
]


@pytest.mark.parametrize("changes", CHANGES)
def test_a_patch_apply_end_has_changes_as_its_detail_says(changes: Any) -> None:
    detail = changes_detail(changes)
    assert changes_hunks(changes) == (None if detail is None else has_hunks(detail))


@pytest.mark.parametrize("text", DIFFS)
def test_a_unified_diff_has_a_hunk_as_its_parse_says(text: str) -> None:
    assert has_hunk(text) == any(file.hunks for file in parse_unified_diff(text))


def test_a_store_that_drops_payloads_reads_the_agents_without_details(tmp_path: Path) -> None:
    for kind, module in (("codex", codex), ("gemini", gemini), ("gemini-json", gemini)):
        path, _ = gen.good_file(tmp_path, kind)
        compare(module, path)
        found = []
        for keep in (True, False):
            store = CallStore(keep_payloads=keep)
            read_into(store, open_paths([str(path)], gen.FORCED.get(kind)))
            calls = list(store.all_calls())
            found.append([(c.request.call_id, c.results[0].outcome, c.results[0].has_diff) for c in calls])
            assert all(c.results[0].details is None for c in calls) != keep
        assert found[0] == found[1]
        assert [call_id for call_id, _, _ in found[0]] == ["k1", "k2", "k3"]
        assert any(diff for _, _, diff in found[0]) == (kind != "codex")  # codex's k2 changes nothing


@pytest.mark.parametrize("kind", ["codex", "gemini", "gemini-json"])
def test_one_hostile_field_reads_the_same_without_details(tmp_path: Path, kind: str) -> None:
    module = codex if kind == "codex" else gemini
    _, base = gen.good_file(tmp_path, kind)
    records = [record for _, record in base]
    count = 0
    for index, record in enumerate(records):
        for path in gen.paths_of(record):
            for value in (*gen.EXTREME_NUMBERS[:6], *gen.BAD_TEXT[:5], *gen.WRONG_TYPES):
                out = gen.write_mutated(tmp_path, kind, base, index, path, value, f"m{count % 50}")
                compare(module, out)
                count += 1
    assert count > 300


@pytest.mark.skipif(not CODEX_FILES or not GEMINI_FILES, reason="../shared/corpus is not present")
def test_every_corpus_session_reads_the_same_without_details() -> None:
    assert sum(compare(codex, path) for path in CODEX_FILES) > 0
    assert sum(compare(gemini, path) for path in GEMINI_FILES) > 0


# -- a session document split in one pass ------------------------------------------------------------


def general(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    with monkeypatch.context() as patched:
        patched.setattr(document, "split", lambda _: None)
        return list(gemini.read(str(path)))


def pretty(header: dict[str, Any], messages: list[Any], indent: int = 2) -> bytes:
    """A session as the CLI writes it: JSON.stringify with an indent (text as it is, not escaped)."""
    text = json.dumps({**header, "messages": messages}, indent=indent, ensure_ascii=False)
    return text.encode("utf-8", "surrogatepass")


def same_both_ways(path: Path, monkeypatch: pytest.MonkeyPatch, split: bool) -> list[Any]:
    events = list(gemini.read(str(path)))
    assert events == general(path, monkeypatch)
    assert (document.split(str(path)) is not None) == split, path.read_bytes()[:300]
    return events


@pytest.mark.parametrize("path", [*(p for p in GEMINI_FILES if p.suffix == ".json"), *REAL_DOCUMENTS])
def test_every_real_document_splits_as_the_general_path_reads_it(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert same_both_ways(path, monkeypatch, split=True)


def test_a_document_with_hostile_messages_splits_or_is_read_the_general_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    messages = [record for _, record in gen.BASES["gemini"][1]() if "$set" not in record]
    path = tmp_path / "session-x.json"
    count = 0
    for index, message in enumerate(messages):
        for where in gen.paths_of(message):
            for value in gen.HOSTILE_VALUES:
                changed = [*messages[:index], gen.replaced(message, where, value), *messages[index + 1 :]]
                path.write_bytes(pretty(gen.GEMINI_HEADER, changed))
                events = list(gemini.read(str(path)))
                assert events == general(path, monkeypatch)
                count += 1
    assert count > 1000
    # valid messages whatever they hold: split; a message that is no JSON: the general path says where
    extra = {"id": "big", "n": 10**30, "t": "LONE"}
    data = pretty(gen.GEMINI_HEADER, [*messages, extra]).replace(b"LONE", b"\\ud800 \\u00e9")
    path.write_bytes(data)
    events = same_both_ways(path, monkeypatch, split=True)
    assert document.split(str(path)).items[-1].value == {"id": "big", "n": 10**30, "t": "\ufffd \u00e9"}  # type: ignore[union-attr]
    assert len(events) > 3
    broken = pretty(gen.GEMINI_HEADER, messages).replace(b'"type": "user"', b'"type": "user",,', 1)
    path.write_bytes(broken)
    assert any(type(e).__name__ == "Malformed" for e in same_both_ways(path, monkeypatch, split=False))
    path.write_bytes(pretty(gen.GEMINI_HEADER, messages).replace(b'"on it"', b'"on \xff it"', 1))
    same_both_ways(path, monkeypatch, split=False)


LAYOUTS: list[tuple[str, bytes, bool]] = [
    ("indent 4", pretty(gen.GEMINI_HEADER, [{"id": "a"}, {"id": "b", "x": [{"y": 1}, {"y": 2}]}], 4), True),
    ("messages first", b'{\n  "messages": [\n    {"id": "a"},\n    {"id": "b"}\n  ],\n  "sessionId": "s"\n}', True),
    ("arrays after", b'{\n  "messages": [\n    {"id": "a"}\n  ],\n  "x": [\n    {"id": "c"},\n    {"id": "d"}\n  ]\n}', True),
    ("a message split inside", b'{\n  "messages": [\n    {"id": "a", "x": [{"y": 1},\n    {"y": 2}]},\n    {"id": "b"}\n  ]\n}', False),
    ("separators in text", b'{\n"messages": [{"id": "a", "t": "},{"},{"id": "b"}]\n}', False),
    ("one line of messages", b'{\n"messages": [{"id": "a", "t": "x"},{"id": "b"}]\n}', True),
    ("messages twice", b'{\n  "messages": [\n    {"id": "a"}\n  ],\n  "messages": []\n}', False),
    ("escaped key", b'{\n  "messag\\u0065s": [{"id": "z"}],\n  "messages": [\n    {"id": "a"}\n  ]\n}', False),
    ("messages in a member", b'{\n  "x": {\n    "messages": [\n      {"id": "a"}\n    ]\n  }\n}', False),
    ("stand-in written", b'{\n  "s": "inspector: the messages of this session were here",\n  "messages": [\n    {"id": "a"}\n  ]\n}', False),
    ("not objects", b'{\n  "messages": [\n    1,\n    {"id": "a"}\n  ]\n}', False),
    ("empty", b'{\n  "messages": []\n}', False),
    ("two documents", b'{\n  "messages": [\n    {"id": "a"}\n  ]\n}\n{"messages": []}', False),
    ("cut", b'{\n  "messages": [\n    {"id": "a"},\n    {"id": "b"', False),
    ("bom", b'\xef\xbb\xbf{\n  "messages": [\n    {"id": "a"}\n  ]\n}\n', True),
    ("a line of its own", b'{"messages": [\n    {"id": "a"}\n  ]\n}', False),
]  # fmt: skip


@pytest.mark.parametrize(("name", "data", "split"), LAYOUTS, ids=[layout[0] for layout in LAYOUTS])
def test_each_layout_splits_only_when_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, data: bytes, split: bool
) -> None:
    path = tmp_path / "session-x.json"
    path.write_bytes(data)
    same_both_ways(path, monkeypatch, split)


def test_every_cut_of_a_document_reads_as_the_general_path_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    messages = [record for _, record in gen.BASES["gemini"][1]() if "$set" not in record]
    data = pretty(gen.GEMINI_HEADER, messages)
    path = tmp_path / "session-x.json"
    for size in range(0, len(data), 7):
        path.write_bytes(data[:size])
        assert list(gemini.read(str(path))) == general(path, monkeypatch)


# -- a record's numbers: exact however long it is and however many values it holds ------------------

MANY = [{"k": index, "s": "v"} for index in range(400)]  # a long record of many small values
LONG = "x" * 9000  # a long record of one long string


@pytest.mark.parametrize("filler", [MANY, LONG], ids=["many values", "one long string"])
@pytest.mark.parametrize("number", [18446744073709551616, -(2**63) - 1, 1e19, 2**62, "1" * 30, 10**400])
def test_a_long_record_keeps_its_integers_exact_and_its_floats_floats(filler: Any, number: Any) -> None:
    for record in ({"a": filler, "n": number}, {"n": number, "a": filler}, {"a": [filler, {"n": [number]}]}):
        data = json.dumps(record).encode()
        assert len(data) > 4096
        value, error = values.loads_json(data)
        assert error is None and repr(value) == repr(record)


def test_a_long_record_read_by_codex_and_gemini_keeps_a_big_integer(tmp_path: Path) -> None:
    big = 2**64 + 1
    args = json.dumps({"many": MANY, "n": big})
    rollout = tmp_path / "rollout.jsonl"
    item = {"type": "function_call", "name": "f", "arguments": args, "call_id": "c1"}
    rollout.write_text(
        json.dumps({"timestamp": "2026-05-12T10:00:01.000Z", "type": "response_item", "payload": item})
    )
    [request] = [e for e in codex.read(str(rollout)) if isinstance(e, Request)]
    assert request.params["n"] == big
    session = tmp_path / "chats" / "session-x.jsonl"
    session.parent.mkdir()
    call = {"id": "c1", "name": "f", "args": {"many": MANY, "n": big}, "status": "executing"}
    message = {"id": "m1", "type": "gemini", "content": "", "toolCalls": [call], "n": -big}
    session.write_text(json.dumps(gen.GEMINI_HEADER) + "\n" + json.dumps(message) + "\n")
    [request] = [e for e in gemini.read(str(session)) if isinstance(e, Request)]
    assert request.params["n"] == big


# -- the last match of a pattern, found from the end ----------------------------------------------------

PIECES = ["Exit code: ", "Exit Code: ", "Process exited with code ", '"exit_code"', ": ", "1", "-2", "1234567890",
          " ", "\n", "\r", "x", "\u0661", "Exit code: 3\n"]  # fmt: skip
PATTERNS = [
    (codex_calls._EXIT_TEXT, ("Exit code: ", "Process exited with code "), True),
    (codex_calls._EXIT_JSON, ('"exit_code"',), False),
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12).map("".join))
def test_the_last_match_found_from_the_end_is_the_last_findall_gives(text: str) -> None:
    for pattern, marks, line_start in PATTERNS:
        found = pattern.findall(text)
        assert codex_calls._last(text, pattern, marks, line_start) == (found[-1] if found else None)
