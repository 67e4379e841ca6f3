"""``dump --json`` carries a Claude Code externalised output in full when its ``tool-results/`` file is
there, and says where the data came from: what a person sees in the detail, a pipeline through jq sees.

Claude Code 2.1.x replaces a result too large for the transcript with a ``<persisted-output>`` stub
naming ``<session>/tool-results/<name>`` on the machine that ran it (Bash results also carry
``toolUseResult.persistedOutputPath`` / ``persistedOutputSize``); claude_persisted.py has the facts.
"""

from __future__ import annotations

import json

import claude_workflows as wf
from hostile_io import run_cli

HOME = "C:\\Users\\dev\\.claude\\projects\\C--work-app"


def stub(name: str, size: str, preview: str) -> str:
    return (
        f"<persisted-output>\nOutput too large ({size}). Full output saved to: {HOME}\\{wf.SID}\\tool-results\\"
        f"{name}\n\nPreview (first 2KB):\n{preview}\n</persisted-output>"
    )


def session(tmp_path):
    """The workflow session of claude_workflows, with three externalised outputs: one in the session
    (its file here, with a test runner's colours), one whose file is missing, one in a Workflow agent."""
    path = wf.session(tmp_path)
    full = "".join(f"\x1b[32m✓\x1b[0m test {i} passed\n" for i in range(5000))
    saved = path.parent / wf.SID / "tool-results"
    saved.mkdir(parents=True)
    (saved / "toolu_01Bash.txt").write_text(full, encoding="utf-8")
    agent_full = "".join(f"renderer.py:{i}: def render_{i}():\n" for i in range(3000))
    (saved / "b7kq2x9zd.txt").write_text(agent_full, encoding="utf-8")
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for record in lines:
        content = record["message"]["content"]
        if isinstance(content, list) and content and content[0].get("tool_use_id") == "toolu_01Bash":
            content[0]["content"] = stub("toolu_01Bash.txt", f"{len(full) / 1024:.1f}KB", full[:2000])
            record["toolUseResult"] = {"stdout": "", "stderr": "", "interrupted": False, "isImage": False,
                                       "persistedOutputPath": f"{HOME}\\{wf.SID}\\tool-results\\toolu_01Bash.txt",
                                       "persistedOutputSize": len(full.encode())}  # fmt: skip
    missing = [
        {**lines[-2], "message": {**lines[-2]["message"], "content": [
            {"type": "tool_use", "id": "toolu_01Grep", "name": "Grep", "input": {"pattern": "TODO"}}]}},
        {**lines[-1], "message": {"role": "user", "content": [
            {"tool_use_id": "toolu_01Grep", "type": "tool_result",
             "content": stub("toolu_01Grep.txt", "61.2KB", "src/a.py:1: TODO")}]}},
    ]  # fmt: skip
    for number, record in enumerate(missing):
        record.pop("toolUseResult", None)
        record["uuid"] = f"5d0c1a7e-0000-4000-8000-00000000000{number}"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines + missing), encoding="utf-8")
    agent = path.parent / wf.SID / "subagents" / "workflows" / wf.RUN / f"agent-{wf.AGENTS[0]}.jsonl"
    records = [json.loads(line) for line in agent.read_text(encoding="utf-8").splitlines()]
    records[4]["message"]["content"][0]["content"] = stub("b7kq2x9zd.txt", "80.5KB", agent_full[:2000])
    agent.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path, full, agent_full


def test_dump_json_carries_the_saved_output_and_says_where_it_came_from(tmp_path):
    path, full, agent_full = session(tmp_path)
    code, out, err = run_cli("dump", "--json", str(path))
    assert code == 0, err
    rows = {row["id"]: row for row in map(json.loads, out.splitlines())}
    bash = rows["toolu_01Bash"]["results"][0]
    assert bash["data"] == full.replace("\x1b[32m", "").replace("\x1b[0m", "")  # as the detail: no colours
    assert bash["saved_output"]["from"] == "tool-results/toolu_01Bash.txt"
    assert bash["saved_output"]["size"] == len(full.encode())
    assert bash["saved_output"]["saved_as"].endswith("\\toolu_01Bash.txt")
    grep = rows["toolu_01Grep"]["results"][0]
    assert grep["saved_output"]["from"] == "transcript"
    assert grep["saved_output"]["problem"] == "not found"
    assert "<persisted-output>" in json.dumps(grep["data"])  # the transcript's stub and preview, as it is
    inner = rows["toolu_01WfGrep"]["results"][0]  # a Workflow agent's: the session's tool-results/
    assert inner["data"] == agent_full and inner["saved_output"]["from"] == "tool-results/b7kq2x9zd.txt"
    assert "saved_output" not in rows["toolu_01WfRead"]["results"][0]  # an inline result is as before


def test_the_text_dump_is_unchanged(tmp_path):
    path, full, _ = session(tmp_path)
    code, out, _ = run_cli("dump", str(path))
    assert code == 0 and "test 4999 passed" not in out
