"""Claude Code files of shapes the corpus lacks, built by rewriting its real 2.1.114 session.

The shared corpus has no externalised output, resumed pair, compaction or nested subagent. Public
transcripts that have them are quoted only in pieces (in other tools' tests and notes), so these
builders take the real session ``ef958aa1`` (Claude Code 2.1.114, daaain/claude-code-log test data)
and rewrite some of its records into the shapes those newer versions write, keeping everything else
byte for byte. The shapes, and where they were seen, are described at each builder.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ROOT / ".." / "shared" / "corpus" / "claude" / "daaain-real_projects" / "-experiments-worktrees"
SID = "ef958aa1-0e93-49f0-bb71-150f63befcd1"
SESSION = PROJECT / f"{SID}.jsonl"
ORIGINAL_HOME = "/Users/dain/.claude/projects/-experiments-worktrees"


def available() -> bool:
    return SESSION.is_file()


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def dump(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n" for row in rows)
    path.write_text(text, encoding="utf-8")
    return path


def copy_session(target: Path) -> Path:
    """The real session with its ``subagents/`` folder, copied into ``target``; returns the session file."""
    target.mkdir(parents=True, exist_ok=True)
    shutil.copytree(PROJECT / SID, target / SID)
    shutil.copyfile(SESSION, target / SESSION.name)
    return target / SESSION.name


def result_index(rows: list[dict], call_id: str) -> int:
    for index, row in enumerate(rows):
        content = row.get("message", {}).get("content")
        if isinstance(content, list) and any(
            isinstance(b, dict) and b.get("tool_use_id") == call_id for b in content
        ):
            return index
    raise KeyError(call_id)


def _result_text(row: dict) -> str:
    block = next(b for b in row["message"]["content"] if b.get("type") == "tool_result")
    content = block["content"]
    return content if isinstance(content, str) else "\n".join(b.get("text", "") for b in content)


def stub(saved_to: str, full: str, size: str) -> str:
    """The inline text Claude Code 2.1.x leaves for a result it saved to a file (as quoted from real
    transcripts, e.g. ``Output too large (6.6MB). Full output saved to: C:\\Users\\...\\tool-results\\
    bej1e99ys.txt`` then ``Preview (first 2KB):``)."""
    preview = "\n".join(full.splitlines()[:3])
    return (
        f"<persisted-output>\nOutput too large ({size}). Full output saved to: {saved_to}\n\n"
        f"Preview (first 2KB):\n{preview}\n</persisted-output>"
    )


# Results rewritten by with_persisted_outputs: the Bash merge in the session file (saved as
# <id>.txt, toolUseResult.persistedOutputPath as Bash results carry it), a WebSearch inside the
# subagent alice (a Windows path and a file name that is not the id, content as a list of blocks),
# and a Bash whose saved file is not beside the copy.
MAIN_SAVED = "toolu_01Scjr6RH48Rd6WnNPPjUTFu"
AGENT_SAVED = "toolu_01GWDV9QAkbdrBttNZWNbt6B"
AGENT_FILE = "agent-a4ca7529859c158c2.jsonl"
AGENT_SAVED_NAME = "bq7x1e99y.txt"
MISSING = "toolu_01HssNwhubWrX7RYLZtpTfLh"


def with_persisted_outputs(target: Path) -> tuple[Path, dict[str, str]]:
    """The session with three results externalised; returns it and each call's full output."""
    path = copy_session(target)
    folder = target / SID / "tool-results"
    folder.mkdir()
    full: dict[str, str] = {}
    rows = records(path)
    for call_id in (MAIN_SAVED, MISSING):
        row = rows[result_index(rows, call_id)]
        text = full[call_id] = _result_text(row)
        saved_to = f"{ORIGINAL_HOME}/{SID}/tool-results/{call_id}.txt"
        block = next(b for b in row["message"]["content"] if b.get("type") == "tool_result")
        block["content"] = stub(saved_to, text, f"{len(text) / 1024:.1f}KB")
        row["toolUseResult"] = dict(
            row["toolUseResult"], stdout="", persistedOutputPath=saved_to, persistedOutputSize=len(text)
        )
        if call_id == MAIN_SAVED:
            (folder / f"{call_id}.txt").write_text(text, encoding="utf-8")
    dump(path, rows)
    agent = target / SID / "subagents" / AGENT_FILE
    rows = records(agent)
    row = rows[result_index(rows, AGENT_SAVED)]
    text = full[AGENT_SAVED] = _result_text(row)
    saved_to = "C:\\Users\\Dain Demmel\\.claude\\projects\\C--experiments-worktrees\\" + SID
    saved_to += "\\tool-results\\" + AGENT_SAVED_NAME
    block = next(b for b in row["message"]["content"] if b.get("type") == "tool_result")
    block["content"] = [{"type": "text", "text": stub(saved_to, text, f"{len(text) / 1024:.1f}KB")}]
    (folder / AGENT_SAVED_NAME).write_text(text, encoding="utf-8")
    dump(agent, rows)
    return path, full


# -- compaction ----------------------------------------------------------------------------------------

SUMMARY = (
    "This session is being continued from a previous conversation that ran out of context. "
    "The conversation is summarized below:\nAnalysis:\nThe user set up three teammates (alice, bob, "
    "carol) to research plan mode, teammates and Beads, then merged their branches.\n\nSummary:\n"
    "1. Primary Request and Intent:\n   Run a two-round teammate experiment with worktrees.\n"
    "2. Current Work:\n   Round 1 is merged into master; round 2 asks each teammate for a comparison."
)
COMPACT_AFTER = "toolu_0175bdkZrxmVVCQVE5cMuu4e"  # the Bash call after which the context is compacted
MICRO_AFTER = "toolu_01D1PFFusfALyxiWSDk9WdzD"  # the TaskList call after which results are cleared
CLEARED = [
    "toolu_01EF5USXVKgAdkiavtVPk5zb",
    "toolu_011D4xB3Jy7XVWDTWWDZh6Mc",
    "toolu_01Scjr6RH48Rd6WnNPPjUTFu",
]


def _around(row: dict, uuid: str, parent: str | None, **fields: object) -> dict:
    """A record written next to ``row``: its session fields, a new uuid, the same time plus a bit."""
    keep = ("isSidechain", "userType", "cwd", "sessionId", "version", "gitBranch", "slug")
    made = {"parentUuid": parent} | {k: row[k] for k in keep if k in row}
    return made | fields | {"uuid": uuid, "timestamp": row["timestamp"][:-4] + "999Z"}


def with_compaction(target: Path) -> Path:
    """The session with an automatic compaction (boundary + summary, as 2.x writes them) after one
    call and a microcompaction after another."""
    path = copy_session(target)
    rows = records(path)
    at = result_index(rows, COMPACT_AFTER)
    row = rows[at]
    boundary = _around(
        row,
        "c0a1b2c3-0000-4000-8000-00000000c0a1",
        None,
        logicalParentUuid=row["uuid"],
        type="system",
        subtype="compact_boundary",
        content="Conversation compacted",
        isMeta=False,
        level="info",
        compactMetadata={"trigger": "auto", "preTokens": 155025},
    )
    summary = _around(
        row,
        "c0a1b2c3-0000-4000-8000-00000000c0a2",
        boundary["uuid"],
        type="user",
        message={"role": "user", "content": SUMMARY},
        isVisibleInTranscriptOnly=True,
        isCompactSummary=True,
    )
    rows[at + 1 : at + 1] = [boundary, summary]
    at = result_index(rows, MICRO_AFTER)
    row = rows[at]
    micro = _around(
        row,
        "c0a1b2c3-0000-4000-8000-00000000c0a3",
        row["uuid"],
        type="system",
        subtype="microcompact_boundary",
        content="Context microcompacted",
        isMeta=False,
        level="info",
        microcompactMetadata={
            "trigger": "auto",
            "preTokens": 92000,
            "tokensSaved": 12345,
            "compactedToolIds": CLEARED,
            "clearedAttachmentUUIDs": [],
        },
    )
    rows[at + 1 : at + 1] = [micro]
    return dump(path, rows)


# -- a resumed session ----------------------------------------------------------------------------------

RESUMED = "b7c2e0f4-3a1d-4c5e-9f60-2d8e4a1b9c07"
RESUME_AT = 116  # the second prompt of the real session ("Well, the subagents seem to be either stuck...")


def _agent_ids(rows: list[dict]) -> set[str]:
    return {
        row["toolUseResult"]["agentId"]
        for row in rows
        if isinstance(row.get("toolUseResult"), dict) and isinstance(row["toolUseResult"].get("agentId"), str)
    }


def with_resume(target: Path) -> tuple[Path, Path]:
    """The real session cut in two the way ``claude --resume`` writes it: the first file ends after
    the first turn; the second starts with that file's records again, unchanged (same uuids, the
    old sessionId), then goes on with the second turn under its own sessionId. Each file has the
    subagents its own turns ran. Returns ``(earlier, resumed)``."""
    rows = records(SESSION)
    first, later = rows[:RESUME_AT], rows[RESUME_AT:]
    earlier = dump(target / SESSION.name, first)
    resumed_rows = [dict(row, sessionId=RESUMED) if "sessionId" in row else row for row in later]
    resumed = dump(target / f"{RESUMED}.jsonl", first + resumed_rows)
    for agent_id in _agent_ids(first):
        source = PROJECT / SID / "subagents" / f"agent-{agent_id}.jsonl"
        (target / SID / "subagents").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target / SID / "subagents" / source.name)
        shutil.copyfile(
            source.with_suffix(".meta.json"), target / SID / "subagents" / f"agent-{agent_id}.meta.json"
        )
    for agent_id in _agent_ids(later):
        source = PROJECT / SID / "subagents" / f"agent-{agent_id}.jsonl"
        dump(
            target / RESUMED / "subagents" / source.name,
            [dict(r, sessionId=RESUMED) for r in records(source)],
        )
        shutil.copyfile(
            source.with_suffix(".meta.json"), target / RESUMED / "subagents" / f"agent-{agent_id}.meta.json"
        )
    # the resumed file is written after the earlier one
    os.utime(earlier, (1_776_500_000, 1_776_500_000))
    os.utime(resumed, (1_776_600_000, 1_776_600_000))
    return earlier, resumed


# -- subagents within subagents ------------------------------------------------------------------------

# alice (round 1) runs a subagent of her own after her first Bash call; that one runs another.
# Each nested subagent's file is a real subagent transcript of the session (carol's and bob's round 2)
# given a new agent id and new call ids, stored flat in <session>/subagents/ as 2.1.x stores them.
NEST_IN = "agent-a4ca7529859c158c2.jsonl"  # alice, round 1
NEST_AFTER = "toolu_01LCjj9FHpZLTzS2h6hjtsuG"  # her first Bash call
NESTED = [
    ("a1d2e3f4a5b6c7d80", "agent-a52886dc180afb356.jsonl"),
    ("a9e8d7c6b5a4f3e21", "agent-aef063ba534d73153.jsonl"),
]


def _renamed(rows: list[dict], agent_id: str, tag: str) -> list[dict]:
    text = json.dumps(rows)
    for old in {b["id"] for r in rows for b in _blocks(r, "tool_use")}:
        text = text.replace(old, old[:6] + tag + old[8:])
    return [dict(r, agentId=agent_id) for r in json.loads(text)]


def _blocks(row: dict, kind: str) -> list[dict]:
    content = row.get("message", {}).get("content")
    return (
        [b for b in content if isinstance(b, dict) and b.get("type") == kind]
        if isinstance(content, list)
        else []
    )


def _agent_call(row: dict, call_id: str, agent_id: str, prompt: str, uuid: str) -> list[dict]:
    """An Agent call and its result, in the shapes of the session's own Agent records."""
    use = dict(row, type="assistant", uuid=uuid + "1", parentUuid=row["uuid"])
    use["message"] = {
        "model": "claude-opus-4-7",
        "id": "msg_nested" + uuid[-6:],
        "type": "message",
        "role": "assistant",
        "content": [
            {
                "type": "tool_use",
                "id": call_id,
                "name": "Agent",
                "input": {
                    "description": "Nested research",
                    "subagent_type": "general-purpose",
                    "prompt": prompt,
                },
            }
        ],
    }
    done = dict(row, type="user", uuid=uuid + "2", parentUuid=uuid + "1")
    done["message"] = {
        "role": "user",
        "content": [
            {"tool_use_id": call_id, "type": "tool_result", "content": [{"type": "text", "text": "Done."}]}
        ],
    }
    done["toolUseResult"] = {
        "status": "completed",
        "prompt": prompt,
        "agentId": agent_id,
        "agentType": "general-purpose",
        "content": [{"type": "text", "text": "Done."}],
        "totalDurationMs": 1000,
        "totalTokens": 10,
        "totalToolUseCount": 1,
        "usage": {},
    }
    for key in ("toolUseResult", "sourceToolAssistantUUID"):
        use.pop(key, None)
    return [use, done]


def with_nested_subagents(target: Path) -> tuple[Path, list[str]]:
    """The session where alice's subagent runs a subagent that runs another (three levels deep).
    Returns the session file and the Agent call ids from the outermost inward."""
    path = copy_session(target)
    folder = target / SID / "subagents"
    host = NEST_IN
    after = NEST_AFTER
    calls = []
    for level, (agent_id, source) in enumerate(NESTED, 1):
        rows = records(folder / host)
        at = result_index(rows, after)
        call_id = f"toolu_01NestedAgentCall{level:04d}xx"
        rows[at + 1 : at + 1] = _agent_call(
            rows[at], call_id, agent_id, f"Nested level {level}", f"n{level}aa0b1-0000"
        )
        dump(folder / host, rows)
        nested = _renamed(records(PROJECT / SID / "subagents" / source), agent_id, f"N{level}")
        first_result = next(r for r in nested if _blocks(r, "tool_result"))
        after = _blocks(first_result, "tool_result")[0]["tool_use_id"]
        host = f"agent-{agent_id}.jsonl"
        dump(folder / host, nested)
        calls.append(call_id)
    return path, calls
