"""Google Gemini CLI sessions: every corpus file loads whole, with counts pinned from a plain JSON scan."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.model import CallStore
from inspector.model.call import State
from inspector.model.details import BashDetail, PatchDetail
from inspector.model.events import Malformed, Message, Outcome, RawRef, Request, Result
from inspector.protocols import claude, detect, gemini
from inspector.protocols.gemini.calls import exit_code
from inspector.sources.files import load
from inspector.sources.session import hydrate

ROOT = Path(__file__).resolve().parents[2]
GEMINI = ROOT / ".." / "shared" / "corpus" / "gemini"
FILES = sorted(GEMINI.glob("session-*")) + sorted(GEMINI.glob("*__session-*")) if GEMINI.is_dir() else []

# Per file: (calls, failed, denied, canceled, unanswered, with diff), as the provenance notes describe
# them (../shared/corpus/AGENTS_PROVENANCE.md); the scan below must find the same.
PINNED = {
    "mischa-thisness_M-Gemini__Archives__session-2026-01-02T02-34-9330d511.json": (27, 10, 0, 1, 0, 0),
    "mischa-thisness_M-Gemini__chat_logs__session-2025-12-24T21-37-2ccb51c5.json": (78, 12, 0, 1, 0, 0),
    "wingorithm_Vibe-Coding-Comparison-Project__session-2026-04-25T08-23-e435870b.jsonl": (7, 1, 1, 0, 0, 0),
    "wingorithm_Vibe-Coding-Comparison-Project__session-2026-04-25T08-46-c737eb36.jsonl": (
        95,
        6,
        0,
        0,
        0,
        59,
    ),
}

pytestmark = pytest.mark.skipif(not FILES, reason="../shared/corpus/gemini is not present")


# -- an independent count: plain json, no parser code -------------------------------------------


def scanned_messages(path: Path) -> list[dict]:
    """The session's messages: the document's list, or the JSONL records folded by id (last wins)."""
    if path.suffix == ".json":
        return json.loads(path.read_text(encoding="utf-8"))["messages"]
    by_id: dict[str, dict] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "$rewindTo" in record:  # the named message and all after it; everything when unknown
            ids = list(by_id)
            start = ids.index(record["$rewindTo"]) if record["$rewindTo"] in by_id else 0
            for dropped in ids[start:]:
                del by_id[dropped]
        elif isinstance(record.get("$set", {}).get("messages"), list):  # a history sync replaces all
            by_id = {m["id"]: m for m in record["$set"]["messages"]}
        elif "id" in record:
            by_id[record["id"]] = record
    return list(by_id.values())


def scanned_counts(path: Path) -> tuple[int, int, int, int, int, int]:
    calls = failed = denied = canceled = unanswered = diffs = 0
    for message in scanned_messages(path):
        for call in message.get("toolCalls") or []:
            calls += 1
            response = {}
            for part in call.get("result") or []:
                response = part.get("functionResponse", {}).get("response", {})
            error = str(response.get("error", ""))
            output = str(response.get("output", ""))
            if not call.get("result") and call.get("status") not in ("success", "error", "cancelled"):
                unanswered += 1
            elif call["status"] == "error":
                failed += 1
            elif call["status"] == "cancelled":
                if "User denied execution." in error:
                    denied += 1
                else:
                    canceled += 1
            elif call["name"] == "run_shell_command":
                codes = re.findall(r"^Exit Code: (\d+)", output, re.MULTILINE)
                failed += bool(codes and codes[-1] != "0")
            display = call.get("resultDisplay")
            diffs += isinstance(display, dict) and "\n@@ " in display.get("fileDiff", "")
    return calls, failed, denied, canceled, unanswered, diffs


def loaded(path: Path) -> CallStore:
    store = CallStore()
    load([str(path)], store)
    return store


def parser_counts(store: CallStore) -> tuple[int, int, int, int, int, int]:
    states = [call.state() for call in store.all_calls()]
    return (
        len(states),
        states.count(State.FAILED),
        states.count(State.DENIED),
        states.count(State.CANCELED),
        states.count(State.PENDING),
        sum(call.has_diff for call in store.all_calls()),
    )


# -- the corpus ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name[:40])
def test_every_corpus_file_loads_whole_with_the_counts_a_plain_scan_finds(path):
    assert detect(str(path)) is gemini.FORMAT
    store = loaded(path)
    assert store.malformed == [] and store.orphans == [] and store.duplicate_results == 0
    expected = scanned_counts(path)
    assert expected == PINNED[path.name]
    assert parser_counts(store) == expected


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name[:40])
def test_call_ids_are_the_files_own_in_order_and_every_message_text_is_kept(path):
    store = loaded(path)
    ids = [c["id"] for m in scanned_messages(path) for c in m.get("toolCalls") or []]
    assert [call.call_id for call in store.all_calls()] == ids
    texts = [m for m in scanned_messages(path) if m.get("content")]
    assert len([item for item in store.items if isinstance(item, Message)]) == len(texts)


@pytest.mark.parametrize("command", ["dump", "stats", "check"])
def test_the_cli_commands_work_on_every_file(command):
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", command, *map(str, FILES)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    if command == "stats":
        assert "gemini" in proc.stdout


def test_file_diffs_render_as_real_diff_hunks_and_shell_calls_show_their_command():
    path = GEMINI / "wingorithm_Vibe-Coding-Comparison-Project__session-2026-04-25T08-46-c737eb36.jsonl"
    store = loaded(path)
    replace = next(c for c in store.all_calls() if c.call_id == "8ht4vqn7")
    _, results = hydrate(replace)
    detail = results[0].details
    assert isinstance(detail, PatchDetail) and detail.path.endswith("build.gradle")
    hunk = detail.hunks[0]
    assert (hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines) == (19, 7, 19, 8)
    shell = next(c for c in store.all_calls() if c.request.tool == "run_shell_command")
    assert shell.request.summary.startswith(shell.request.params["command"][:40])


@pytest.mark.parametrize(
    ("output", "code"),
    [
        ("Exit Code: 2", 2),
        ("out\nExit Code: 1\nmore\nExit Code: 3\n", 3),  # the last line that says one
        ("Exit Code: 4\nsee: Exit Code: 5\n", 4),  # not at a line's start: not one
        ("Exit Code: 6\nExit Code: 7 and more\n", 6),  # text after the number: not one
        ("Exit Code: -1 \t\n\n", -1),
        ("Exit Code: 8\r\nExit Code: x\n", 8),
        ("\u2028Exit Code: 9", None),  # only a newline starts a line
        ("Exit Code: 1234567890", None),  # past nine digits
        ("Exit Code: ", None),
        ("no code", None),
        (None, None),
    ],
)
def test_a_shell_output_s_exit_code_is_its_last_line_that_says_one(output: object, code: int | None) -> None:
    assert exit_code(output) == code


def test_a_shell_call_that_reports_success_with_a_nonzero_exit_code_fails_with_that_code():
    path = GEMINI / "wingorithm_Vibe-Coding-Comparison-Project__session-2026-04-25T08-23-e435870b.jsonl"
    store = loaded(path)
    failed = [c for c in store.all_calls() if c.state() is State.FAILED]
    assert [c.result.error_code for c in failed] == ["exit 1"]
    _, results = hydrate(failed[0])
    assert isinstance(results[0].details, BashDetail) and results[0].details.exit_code == 1
    denied = [c for c in store.all_calls() if c.state() is State.DENIED]
    assert len(denied) == 1 and "denied" in (denied[0].result.error_message or "")


def test_times_come_from_the_records():
    path = GEMINI / "wingorithm_Vibe-Coding-Comparison-Project__session-2026-04-25T08-46-c737eb36.jsonl"
    calls = list(loaded(path).all_calls())
    assert all(c.request.ts is not None and c.latency_ms is not None and c.latency_ms >= 0 for c in calls)


# -- synthetic files: rewrites, rewinds, pending, orphans, bad records --------------------------

HEADER = {"sessionId": "s1", "projectHash": "p", "startTime": "2026-04-25T08:00:00.000Z", "kind": "main"}


def call(call_id, status=None, output=None, name="run_shell_command", when="2026-04-25T08:00:02.000Z"):
    entry = {"id": call_id, "name": name, "args": {"command": "ls -la"}, "timestamp": when}
    if status is not None:
        entry["status"] = status
    if status in ("success", "error", "cancelled"):
        response = {"output": output} if status == "success" else {"error": output}
        entry["result"] = [{"functionResponse": {"id": call_id, "name": name, "response": response}}]
    return entry


def gemini_message(message_id, calls, when="2026-04-25T08:00:01.000Z"):
    return {"id": message_id, "timestamp": when, "type": "gemini", "content": "", "toolCalls": calls}


def write_jsonl(path: Path, records: list) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_message_written_again_updates_its_call_instead_of_repeating_it(tmp_path):
    path = write_jsonl(
        tmp_path / "session.jsonl",
        [
            HEADER,
            {
                "id": "u1",
                "timestamp": "2026-04-25T08:00:00.500Z",
                "type": "user",
                "content": [{"text": "hi"}],
            },
            gemini_message("m1", [call("c1", "executing")]),
            gemini_message("m1", [call("c1", "success", "Exit Code: 0")]),
            {"$set": {"lastUpdated": "2026-04-25T08:00:05.000Z"}},
            gemini_message("m2", [call("c2")]),
        ],
    )
    assert detect(str(path)) is gemini.FORMAT
    store = loaded(path)
    calls = list(store.all_calls())
    assert [(c.call_id, c.state()) for c in calls] == [("c1", State.SUCCEEDED), ("c2", State.PENDING)]
    assert store.malformed == [] and store.orphans == []


def test_following_a_growing_file_adds_the_result_to_the_call_already_shown(tmp_path):
    path = write_jsonl(tmp_path / "session.jsonl", [HEADER, gemini_message("m1", [call("c1")])])
    store = CallStore()
    for event in gemini.read(str(path)):
        store.ingest(event)
    lines = [
        gemini_message("m1", [call("c1")]),
        gemini_message(
            "m1", [call("c1", "cancelled", "[Operation Cancelled] Reason: User denied execution.")]
        ),
        gemini_message("m1", [call("c1", "cancelled", "again"), call("c2", "error", "no such file")]),
        b"{not json\n",
        {"$rewindTo": "m1"},
    ]
    for number, line in enumerate(lines, start=3):
        data = line if isinstance(line, bytes) else json.dumps(line).encode() + b"\n"
        for event in gemini.decode_line(data, RawRef(str(path), f"line {number}")):
            store.ingest(event)
    calls = list(store.all_calls())
    assert [(c.call_id, c.state(), len(c.results)) for c in calls] == [
        ("c1", State.DENIED, 1),
        ("c2", State.FAILED, 1),
    ]
    assert len(store.malformed) == 1 and store.duplicate_results == 0
    assert any(isinstance(i, Message) and "rewound" in i.text for i in store.items)


def test_a_rewind_drops_the_message_it_names_and_everything_after(tmp_path):
    path = write_jsonl(
        tmp_path / "session.jsonl",
        [
            HEADER,
            gemini_message("m1", [call("c1", "success", "ok")]),
            gemini_message("m2", [call("c2", "success", "ok")]),
            gemini_message("m3", [call("c3", "success", "ok")]),
            {"$rewindTo": "m2"},
            gemini_message("m4", [call("c4", "success", "ok")]),
        ],
    )
    assert [c.call_id for c in loaded(path).all_calls()] == ["c1", "c4"]


def test_bad_records_are_malformed_and_the_rest_still_loads(tmp_path):
    path = tmp_path / "session.jsonl"
    orphan = {
        "name": "read_file",
        "result": [{"functionResponse": {"id": "lost", "response": {"output": "x"}}}],
    }
    records = [HEADER, "text", {"id": 5}, gemini_message("m1", [call("c1", "success", "ok"), orphan, "x"])]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n{broken\n", encoding="utf-8")
    events = list(gemini.read(str(path)))
    assert len([e for e in events if isinstance(e, Malformed)]) == 4
    assert [e.call_id for e in events if isinstance(e, Request)] == ["c1"]
    assert [e.call_id for e in events if isinstance(e, Result)] == ["c1", "lost"]
    store = loaded(path)
    assert [o.result.call_id for o in store.orphans] == ["lost"]


def test_an_error_status_fails_and_a_cancel_is_canceled(tmp_path):
    path = write_jsonl(
        tmp_path / "session.jsonl",
        [
            HEADER,
            gemini_message(
                "m1",
                [
                    call("c1", "error", "Path not in workspace", name="read_file"),
                    call("c2", "cancelled", "[Operation Cancelled] Reason: User cancelled the operation."),
                ],
            ),
        ],
    )
    results = [e for e in gemini.read(str(path)) if isinstance(e, Result)]
    assert [r.outcome for r in results] == [Outcome.ERROR, Outcome.CANCELED]
    assert results[0].error_message == "Path not in workspace"


def test_a_claude_transcript_is_not_taken_for_a_gemini_session(tmp_path):
    path = tmp_path / "claude.jsonl"
    record = {"type": "user", "sessionId": "s", "uuid": "u", "message": {"role": "user", "content": "hi"}}
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert detect(str(path)) is claude.FORMAT


def test_the_follow_machinery_reads_a_growing_session_written_by_id_as_the_cli_does(tmp_path):
    from inspector.sources.tail import FileTail, decode_lines

    path = write_jsonl(tmp_path / "session.jsonl", [HEADER, gemini_message("m1", [])])
    store = CallStore()
    for event in gemini.read(str(path)):
        store.ingest(event)
    tail = FileTail.at_end(str(path))
    appended = [
        gemini_message("m1", [call("c1", "executing")]),
        {"$set": {"lastUpdated": "2026-04-25T08:00:03.000Z"}},
        gemini_message("m1", [call("c1", "success", "Output: x\nExit Code: 2")]),
        gemini_message("m1", [call("c1", "success", "Output: x\nExit Code: 2")]),
    ]
    with path.open("a", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in appended))
    chunk = tail.read()
    for event in decode_lines(gemini.FORMAT, chunk.lines, chunk.first_line, str(path), chunk.offset):
        store.ingest(event)
    calls = list(store.all_calls())
    assert [(c.call_id, c.state(), len(c.results)) for c in calls] == [("c1", State.FAILED, 1)]
    assert calls[0].result is not None and calls[0].result.error_code == "exit 2"
    assert calls[0].latency_ms == 1000.0  # stamped with the newest time the file showed ($set)
    assert store.malformed == [] and store.duplicate_results == 0
