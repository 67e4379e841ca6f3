"""Every real Claude Code transcript of the shared corpus: loads whole, calls nested, traps avoided, outcomes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector.model import CallStore, Message, Outcome, Request
from inspector.model.details import PatchDetail
from inspector.protocols import claude, detect
from inspector.sources.files import load
from inspector.sources.session import hydrate

ROOT = Path(__file__).resolve().parents[2]
CLAUDE = ROOT / ".." / "shared" / "corpus" / "claude"
FILES = sorted(CLAUDE.rglob("*.jsonl")) if CLAUDE.is_dir() else []
TASK_TOOLS = ("Task", "Agent")

pytestmark = pytest.mark.skipif(not FILES, reason="../shared/corpus/claude is not present")


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def blocks(record: dict, kind: str) -> list[dict]:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return (
        [b for b in content if isinstance(b, dict) and b.get("type") == kind]
        if isinstance(content, list)
        else []
    )


def tool_use_ids(path: Path) -> list[str]:
    return list(dict.fromkeys(b["id"] for r in records(path) for b in blocks(r, "tool_use")))


def agent_tasks(path: Path) -> dict[str, str]:
    """agentId -> the Task/Agent call whose result names it (read straight from the JSON)."""
    found = {}
    for r in records(path):
        structured = r.get("toolUseResult")
        if isinstance(structured, dict) and isinstance(structured.get("agentId"), str):
            for block in blocks(r, "tool_result"):
                found[structured["agentId"]] = block["tool_use_id"]
    return found


def subagent_files(path: Path) -> dict[Path, str]:
    """The subagent files of a session, each with the call it belongs under."""
    if path.name.startswith("agent-"):
        return {}
    tasks = agent_tasks(path)
    files = {}
    for agent_id, call_id in tasks.items():
        for candidate in (
            path.with_suffix("") / "subagents" / f"agent-{agent_id}.jsonl",
            path.parent / f"agent-{agent_id}.jsonl",
        ):
            if candidate.is_file():
                files[candidate] = call_id
                break
    return files


def inline_parents(path: Path) -> dict[str, str]:
    """Calls of sidechain records -> the Task whose result follows their block (Claude Code 1.0.x)."""
    parents, pending = {}, []
    for r in records(path):
        if r.get("isSidechain") is True:
            pending += [b["id"] for b in blocks(r, "tool_use")]
            continue
        results = blocks(r, "tool_result")
        if pending and results:
            parents.update(dict.fromkeys(pending, results[0]["tool_use_id"]))
            pending = []
    return parents


def loaded(path: Path, keep_payloads: bool = True) -> CallStore:
    store = CallStore(keep_payloads=keep_payloads)
    load([str(path)], store)
    return store


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CLAUDE)))
def test_every_transcript_loads_whole_with_its_subagents_nested(path):
    assert detect(str(path)) is claude.FORMAT
    store = loaded(path)
    assert store.malformed == [] and store.orphans == [] and store.duplicate_results == 0
    assert all(call.results for call in store.all_calls()), "every tool_use of the corpus has its tool_result"
    expected_parent = {} if path.name.startswith("agent-") else inline_parents(path)
    expected_ids = tool_use_ids(path)
    for sub, call_id in subagent_files(path).items():
        ids = tool_use_ids(sub)
        expected_ids += ids
        expected_parent.update(dict.fromkeys(ids, call_id))
    assert store.call_count == len(set(expected_ids)) == len(expected_ids)
    got = {call.call_id: call.parent.call_id if call.parent else None for call in store.all_calls()}
    assert got == {call_id: expected_parent.get(call_id) for call_id in expected_ids}
    assert store.nested_count == len(expected_parent)


def test_the_corpus_has_all_three_generations_of_subagents():
    nested = {path.name: loaded(path).nested_count for path in FILES if not path.name.startswith("agent-")}
    assert nested["fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"] > 100  # inline sidechains (1.0.98)
    assert nested["a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl"] == 15  # project-level agent file (2.0.55)
    assert nested["ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"] == 77  # subagents/ folder (2.1.114)


def with_progress_copies(source: Path, target: Path) -> Path:
    """The 2.1.x session rewritten the way Claude Code 2.1.x writes it when progress records are on:
    after each Task/Agent call, one agent_progress record per message of its subagent."""
    shutil.copytree(source.with_suffix(""), target / source.stem)
    by_call = {call_id: sub for sub, call_id in subagent_files(source).items()}
    lines = []
    for line in source.read_bytes().splitlines():
        lines.append(line)
        for block in blocks(json.loads(line), "tool_use"):
            sub = by_call.get(block["id"])
            for inner in records(sub) if sub is not None else []:
                if isinstance(inner["message"]["content"], list):
                    lines.append(
                        json.dumps(
                            {
                                "parentUuid": None,
                                "isSidechain": False,
                                "sessionId": inner["sessionId"],
                                "type": "progress",
                                "data": {
                                    "message": {
                                        k: inner[k] for k in ("type", "message", "uuid", "timestamp")
                                    },
                                    "normalizedMessages": [],
                                    "type": "agent_progress",
                                    "prompt": "",
                                    "agentId": inner["agentId"],
                                },
                                "toolUseID": "agent_msg_" + inner["uuid"][:8],
                                "parentToolUseID": block["id"],
                                "uuid": "p" + inner["uuid"][1:],
                                "timestamp": inner["timestamp"],
                            },
                            separators=(",", ":"),
                        ).encode()
                    )
    path = target / source.name
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_progress_copies_of_a_2_1_session_are_counted_once(tmp_path):
    source = next(path for path in FILES if path.name == "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl")
    subs = subagent_files(source)
    main_ids, sub_ids = set(tool_use_ids(source)), {i for sub in subs for i in tool_use_ids(sub)}
    path = with_progress_copies(source, tmp_path)
    assert path.read_bytes().count(b'"agent_progress"') > 100
    for subagents_present in (True, False):
        if not subagents_present:
            shutil.rmtree(tmp_path / source.stem)
        store = loaded(path)
        assert store.malformed == [] and store.orphans == [] and store.duplicate_results == 0
        assert store.call_count == len(main_ids | sub_ids) == len(main_ids) + len(sub_ids)
        assert store.nested_count == len(sub_ids)
        assert {c.call_id for c in store.all_calls() if c.parent is not None} == sub_ids


def outcomes(path: Path) -> list:
    return [call.result for call in loaded(path).all_calls()]


def test_refusals_permissions_and_interruptions_of_real_sessions():
    by_name = {path.name: path for path in FILES}
    sound = outcomes(by_name["7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl"])
    denied = [r for r in sound if r.outcome is Outcome.DENIED]
    assert len(denied) == 4 and "rejected by the user: use pnpm" in [r.error_message for r in denied]
    headless = outcomes(by_name["2b4ed4c0-b905-41de-9238-273db3ec737a.jsonl"])
    assert sum(r.outcome is Outcome.DENIED for r in headless) == 6
    interrupts = sum(
        isinstance(e, Message) and e.kind == "interrupt" for p in FILES for e in claude.read(str(p))
    )
    assert interrupts == sum(
        p.read_bytes().count(b'"text":"[Request interrupted by user for tool use]"') for p in FILES
    )


def test_every_error_result_of_the_corpus_ends_its_call_badly():
    for path in FILES:
        errors = {
            b["tool_use_id"] for r in records(path) for b in blocks(r, "tool_result") if b.get("is_error")
        }
        for event in claude.read(str(path)):
            if getattr(event, "call_id", None) in errors and not isinstance(event, Request):
                assert event.outcome in (Outcome.ERROR, Outcome.DENIED, Outcome.CANCELED), event.raw.where
                assert event.error_message


def test_a_canceled_call_in_the_sample_session():
    sample = next((ROOT / "sample_sessions" / "claude").rglob("5a3e*.jsonl"), None)
    if sample is None:
        pytest.skip("no sample Claude session")
    canceled = [r for r in outcomes(sample) if r is not None and r.outcome is Outcome.CANCELED]
    assert len(canceled) == 1


def test_calls_hydrate_from_the_file_when_payloads_are_dropped():
    path = next(path for path in FILES if path.name == "a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl")
    store = loaded(path, keep_payloads=False)
    patches = 0
    for call in store.all_calls():
        request, results = hydrate(call)
        assert request.params is not None and results[0].data is not None
        if call.has_diff:
            detail = results[0].details  # hunks, or a created file's content (shown all added)
            assert isinstance(detail, PatchDetail) and (detail.hunks or detail.content is not None)
            patches += 1
    assert patches > 10
