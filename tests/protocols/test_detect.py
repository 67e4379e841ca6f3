"""Format detection looks past a first record longer than the head (issue 9: one record never hides the rest)."""

from __future__ import annotations

import json

import pytest

from inspector import protocols
from inspector.model import CallStore
from inspector.sources.files import load

LONG = "x" * (3 * protocols.HEAD_BYTES)

# one ordinary record of each line-oriented format, and a first record whose leading field is huge
SAMPLES = {
    "lmkit": (
        {"Id": "k2", "Name": "get_weather", "ArgumentsJson": "{}"},
        {"Id": LONG, "Name": "get_weather", "ArgumentsJson": "{}"},
    ),
    "rap": (
        {"type": "tool_call", "tool_call_id": "t2", "thread_id": "th", "name": "x", "arguments": {}},
        {
            "arguments": {"blob": LONG},
            "type": "tool_call",
            "tool_call_id": "t1",
            "thread_id": "th",
            "name": "x",
        },
    ),
    "claude": (
        {"type": "user", "sessionId": "s", "uuid": "u2", "message": {"role": "user", "content": "hi"}},
        {"sessionId": LONG, "type": "user", "uuid": "u1", "message": {"role": "user", "content": "hi"}},
    ),
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_huge_first_record_does_not_hide_the_format_of_the_rest(tmp_path, name):
    good, huge = SAMPLES[name]
    path = tmp_path / "case.jsonl"
    path.write_text(json.dumps(huge) + "\n" + json.dumps(good) + "\n")
    assert protocols.detect(str(path)).name == name


def test_a_file_of_one_huge_unknown_line_is_still_unknown_and_ends(tmp_path):
    path = tmp_path / "case.jsonl"
    path.write_text(json.dumps({"what": LONG}) + "\n" + json.dumps({"what": "else"}) + "\n")
    with pytest.raises(protocols.UnknownFormat):
        protocols.detect(str(path))


def test_a_head_of_several_lines_is_decided_by_the_head_alone(tmp_path):
    path = tmp_path / "case.jsonl"
    good, _ = SAMPLES["lmkit"]
    path.write_text(json.dumps({"what": "no"}) + "\n" + json.dumps(good) + "\n")
    assert protocols.detect(str(path)).name == "lmkit"


# Claude Code's bookkeeping records, as 2.1.x writes them (real: fabien-lessirard/dotfiles, a session file
# of 22 file-history-snapshot records and nothing else; the corpus has the others beside messages).
BOOKKEEPING = {
    "file-history-snapshot": {
        "type": "file-history-snapshot",
        "messageId": "e66ad851",
        "snapshot": {"messageId": "e66ad851", "trackedFileBackups": {}, "timestamp": "2026-03-04T16:58:45Z"},
        "isSnapshotUpdate": False,
    },
    "queue-operation": {"type": "queue-operation", "operation": "enqueue", "sessionId": "s", "content": []},
    "last-prompt": {"type": "last-prompt", "lastPrompt": "fix the build", "sessionId": "s"},
    "permission-mode": {"type": "permission-mode", "permissionMode": "acceptEdits", "sessionId": "s"},
    "custom-title": {"type": "custom-title", "customTitle": "1Password", "sessionId": "s"},
    "system": {"type": "system", "subtype": "stop_hook_summary", "uuid": "u", "sessionId": "s"},
    # a session left at once: its one record (real: InvictusAutomation/oc-admin-home-shared, 2.1.71)
    "progress": {
        "parentUuid": None,
        "sessionId": "s",
        "version": "2.1.71",
        "type": "progress",
        "data": {"type": "hook_progress", "hookEvent": "SessionStart", "hookName": "SessionStart:startup"},
        "parentToolUseID": "59a4a229",
        "toolUseID": "59a4a229",
        "uuid": "u",
    },
    "attachment": {"type": "attachment", "attachment": {"type": "deferred_tools_delta"}, "sessionId": "s"},
    "ai-title": {"type": "ai-title", "aiTitle": "Make notifications portable", "sessionId": "s"},
    "agent-name": {"type": "agent-name", "agentName": "fix-expiry", "sessionId": "s"},
    "mode": {"type": "mode", "mode": "normal", "sessionId": "s"},
    "pr-link": {"type": "pr-link", "sessionId": "s", "prNumber": 22, "prUrl": "https://example.org/pull/22"},
    # 2.1.278 (real: MrMarHVD/claude-config-to-rule-them-all): a running cost, and last-prompt by leafUuid
    "cost-state": {
        "type": "cost-state",
        "sessionId": "s",
        "totalCostUSD": 0,
        "totalDuration": 28443,
        "modelUsage": {},
    },
    "last-prompt (2.1.278)": {"type": "last-prompt", "leafUuid": "6c4c66bd", "sessionId": "s"},
}


@pytest.mark.parametrize("kind", sorted(BOOKKEEPING))
def test_a_claude_session_of_bookkeeping_records_only_is_claude(tmp_path, kind):
    path = tmp_path / "1be091e3.jsonl"
    path.write_text("\n".join(json.dumps(BOOKKEEPING[kind]) for _ in range(3)) + "\n")
    assert protocols.detect(str(path)).name == "claude"
    store = CallStore()
    load([str(path)], store)
    assert store.call_count == 0 and store.malformed == []


def test_bookkeeping_kinds_without_their_keys_are_not_claude(tmp_path):
    path = tmp_path / "other.jsonl"
    path.write_text("\n".join(json.dumps({"type": kind, "id": 1}) for kind in BOOKKEEPING) + "\n")
    with pytest.raises(protocols.UnknownFormat):
        protocols.detect(str(path))


@pytest.mark.parametrize("size", ["746946", "124879133"])
def test_a_git_lfs_pointer_is_said_to_be_one(tmp_path, size):
    """A committed ~/.codex whose rollouts were kept in Git LFS (real: leejunha781/Codex), cloned without
    LFS: the pointer was read as Alicia with malformed lines, or refused as an unknown format."""
    path = tmp_path / "rollout-2026-06-06T00-12-07-019e9857-701f-78f0-88af-9312c1b9b8f1.jsonl"
    path.write_text(
        "version https://git-lfs.github.com/spec/v1\n"
        "oid sha256:10559b5906678f4124a9375e07a16d205de10bb4ded60c7aa4eb2fe9cc193bef\n"
        f"size {size}\n"
    )
    with pytest.raises(protocols.UnknownFormat, match="Git LFS pointer"):
        protocols.detect(str(path))
