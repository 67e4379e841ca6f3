"""Independent counts of real Claude Code, Codex CLI and Gemini CLI sessions (issue 20).

Written from the formats' facts (../shared/reference/agent-formats.md, the corpus README), with plain
``json`` only: it must never import the inspector, so that the two can be pinned against each other.
For one session file it counts the tool calls (requests), the calls with a result, the calls left
without one, the calls that ended badly (and of them, those refused and those interrupted) and the
results whose call is nowhere, subagent files included where the format has them. Run it as a script to print the counts of the paths given.

Traps each format sets, and how they are met here:

* Claude Code: ``progress`` records (2.1.x, ``data.type`` agent_progress) repeat a subagent's
  tool_use/tool_result blocks inside ``data.message``: they are read only for an agent
  (``data.agentId``) whose own file is not there (a session committed without its subagent files
  still holds its subagents' calls in these copies). 1.0.x wrote a subagent's records into the session
  file itself, marked ``isSidechain``: their calls are nested too. A resume written into the
  same file and a compaction agent (``subagents/agent-acompact-*``) repeat the session's own tool_use
  ids: a call is its id, counted once. A subagent file counted on its own has no session call to nest
  under: its calls stand at the top (its records are all ``isSidechain``). Subagents: every ``agent-*.jsonl`` under ``<session>/subagents/``
  at any depth (workflow agents sit under ``subagents/workflows/<id>/``), and project-level
  ``agent-<id>.jsonl`` files whose id a Task/Agent result names (``toolUseResult.agentId``). A
  subagent's calls are nested when a call's result names its ``agentId`` (or, for a workflow's agent, its
  run: ``toolUseResult.runId``, the folder's name, or ``Transcript dir: …/workflows/<run>`` in its text), its first message is a
  Task/Agent call's prompt (the call may have no result yet), or its ``.meta.json`` names the call
  (``toolUseId``, 2.1.2xx) or the ``name`` an Agent call gave it (an in-process teammate); they stand
  alone otherwise, as those of the 'Warmup' agents 2.1.x starts with a session do. A subagent file counted
  on its own (its session is missing) is that file alone: the ``agent_progress`` copies it holds of the
  agents whose files are beside it (a compaction agent, ``agent-acompact-*``, copies the session's, and
  with them its subagents' messages) are those agents' calls, counted from their own files.
  ``tool_result.is_error`` is the error. A model behind an Anthropic-compatible proxy (GLM through
  Claude Code 2.0.76) writes ``server_tool_use`` blocks, answered by a ``tool_result`` in the same
  assistant message: a call like any other.
* Codex CLI: calls are ``function_call``, ``custom_tool_call``, ``local_shell_call`` (by ``call_id``)
  and ``web_search_call`` (no id: its result is in the item, ``status``); outputs are
  ``function_call_output``/``custom_tool_call_output`` (by ``call_id``). Newer versions (0.142, Codex
  Desktop) add ``tool_search_call`` answered by ``tool_search_output`` (by ``call_id``; a status other than
  completed is a failure) and ``image_generation_call``, which holds its own result as a web search does.
  A web search is a ``web_search_call`` item, or a ``web_search_end`` event no such item follows (0.126
  writes both, the event first; 0.145 the event alone). Both layouts (envelope
  ``{"type":"response_item","payload":...}`` and the legacy bare items). Items inside ``compacted``
  replacement histories are history, not new calls. Errors: a non-zero exit code in the output (JSON
  ``metadata.exit_code``, ``Exit code: N``, ``Process exited with code N``) or in ``exec_command_end``,
  a failed ``patch_apply_end``, an MCP ``Err`` result, and the error texts the CLI writes instead of an
  output. A command still running (``Process running with session ID N``) is decided by the end of that
  process, reported by a later ``write_stdin`` on the same session id (that poll, reporting the exit
  code, ends the same way); a process whose end the file never reports leaves its call unanswered.
  A ``spawn_agent`` call's thread (``collab_agent_spawn_end.new_thread_id``, or 0.104's output
  ``{"agent_id": ...}``) is a rollout of its own: when it is there, its calls count, nested.
* Gemini CLI: JSON documents (``messages``) and JSONL logs (header line optional; message records by
  ``id``, the last one wins; ``$set.messages`` replaces the history; ``$rewindTo`` drops the message
  named and everything after it). Each ``toolCalls`` entry is a call and carries its own result
  (``status`` success/error/cancelled, ``result``). Errors: ``status`` error or cancelled, and a shell
  command whose output says ``Exit Code: N`` with N not 0. Sub-agent files: ``chats/<session id>/*.json(l)``.
  A saved chat (``/chat save``: ``checkpoint-<tag>.json``, an array of ``{role, parts}``): a ``functionCall``
  part is answered by the ``functionResponse`` at the same place in the next ``user`` content.

A folder (``folder_sessions``) stands for the sessions the CLIs keep in it, as each lays them out: Claude
Code ``<project>/<session>.jsonl`` (what sits in ``<session>/`` is that session's; ``history.jsonl``, the
prompts typed, is none), Codex
``rollout-*.jsonl`` at any depth, Gemini ``chats/session-*.json(l)`` (``chats/<id>/`` holds sub-agents) and
``checkpoint-*.json`` in a project's folder (beside ``chats`` or ``logs.json``, or named by a 64-hex hash). A ``<session>/subagents/`` folder whose ``<session>.jsonl``
is gone still holds calls that ran: each of its agent files counts as a session of its own, unless a session
of the project resumes that session (its first ``sessionId`` is the missing one's), which reads them; so
does a 2.0.x ``agent-*.jsonl`` beside the sessions whose first ``sessionId`` is no session's there, and
a Gemini ``chats/<session id>/`` that no ``session-*`` file of ``chats`` names (its files each a session). This
is what opening a folder shows (issue 20: a user who opens a folder meets all three CLIs' layouts, and
a deleted session's subagents), written here again from those layouts alone.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass
class Counts:
    """What one session (with its subagent files) holds."""

    format: str
    calls: int = 0
    nested: int = 0  # calls first seen in a subagent's own file
    answered: int = 0
    unanswered: int = 0
    errors: int = 0
    denied: int = 0  # of the errors: refused (by the user, a permission rule or a policy)
    canceled: int = 0  # of the errors: interrupted or aborted by the user
    orphans: int = 0
    files: list[str] = field(default_factory=list)
    failed_ids: set[str] = field(default_factory=set)
    unanswered_ids: set[str] = field(default_factory=set)
    call_ids: set[str] = field(default_factory=set)  # Claude Code: every call, for a folder's count
    nested_ids: set[str] = field(default_factory=set)
    answered_ids: set[str] = field(default_factory=set)  # answered, calls or not (orphans too)

    def as_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if not k.endswith("_ids")}


def _lines(path: Path) -> list[dict]:
    out = []
    for line in path.read_bytes().splitlines():
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


# -- Claude Code ------------------------------------------------------------------------------------


_CLAUDE_CALLS = ("tool_use", "server_tool_use")


def _claude_blocks(record: dict) -> list[dict]:
    if record.get("type") not in ("user", "assistant"):
        return []
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def claude_files(path: Path) -> list[Path]:
    """The session file, then every subagent file that belongs to it (a subagent file counted on its own,
    ``agent-*.jsonl``, is that file alone: the agents beside it are counted on their own)."""
    files = [path]
    if path.name.startswith("agent-"):
        return files
    folder = path.with_suffix("") / "subagents"
    if folder.is_dir():
        files += sorted(folder.rglob("agent-*.jsonl"))
    named = set()
    asked = set()  # the prompts of the session's Task/Agent calls
    records = _lines(path)
    for record in records:
        result = record.get("toolUseResult")
        if isinstance(result, dict) and isinstance(result.get("agentId"), str):
            named.add(result["agentId"])
        for block in _claude_blocks(record):
            given = block.get("input") if block.get("type") == "tool_use" else None
            if block.get("name") in ("Task", "Agent") and isinstance(given, dict):
                asked.add(given.get("prompt"))
    for agent_id in sorted(named):
        beside = path.parent / f"agent-{agent_id}.jsonl"
        if beside.is_file() and beside not in files:
            files.append(beside)
    # 2.0.x: an agent whose call got no result naming it (interrupted, or still running) is found beside
    # the session by its session id and its first message, the call's prompt
    session = next((r["sessionId"] for r in records if isinstance(r.get("sessionId"), str)), path.stem)
    for beside in sorted(path.parent.glob("agent-*.jsonl")):
        if beside in files:
            continue
        first = _first_user(beside)
        said = first.get("message", {}).get("content") if isinstance(first.get("message"), dict) else None
        if first.get("sessionId") == session and isinstance(said, str) and said in asked:
            files.append(beside)
    return files


def _first_user(path: Path) -> dict:
    """The first user record of a file (read up to it; a folder's agent files are asked by each session,
    kept while the file is unchanged)."""
    seen = path.stat()
    return _first_user_of(path, seen.st_mtime_ns, seen.st_size)


@functools.lru_cache(maxsize=4096)
def _first_user_of(path: Path, _mtime: int, _size: int) -> dict:
    with open(path, "rb") as lines:
        for line in lines:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("type") == "user":
                return record
    return {}


def _progress_copy(record: dict, own_files: set[str]) -> dict | None:
    """The subagent message an ``agent_progress`` record copies, when the agent's own file is absent."""
    data = record.get("data") if record.get("type") == "progress" else None
    if not isinstance(data, dict) or data.get("type") != "agent_progress":
        return None
    if data.get("agentId") in own_files or not isinstance(data.get("message"), dict):
        return None
    return data["message"]


def _claude_refusal(text: str) -> str | None:
    """denied or canceled, from an error result's words (the texts Claude Code writes for a refused or an
    interrupted call), else None."""
    if text.startswith("[Request interrupted by user"):
        return "canceled"
    if text.startswith(("The user doesn't want to", "Permission to use ", "User rejected")) or any(
        words in text[:300] for words in ("but you haven't granted it", "was blocked. For security")
    ):
        return "denied"
    first_line = text.split("\n", 1)[0]
    if first_line.startswith(("This ", "The following ")) and "requires approval" in first_line:
        return "denied"  # 2.0.76, a command refused where nobody can approve it ('claude -p')
    return None


_TRANSCRIPT_DIR = re.compile(r"Transcript dir: \S*[/\\]workflows[/\\]([^/\\\s]+)")


def count_claude(path: Path) -> Counts:
    counts = Counts("claude")
    calls: dict[str, None] = {}
    answered: set[str] = set()
    failed: set[str] = set()
    replies: dict[str, str] = {}  # a failed call's answer, its first characters
    files = claude_files(path)
    own_files = {f.stem[len("agent-") :] for f in files if f.stem.startswith("agent-")}
    if path.name.startswith("agent-"):  # on its own: its copies of the agents beside it are theirs
        own_files |= {f.stem[len("agent-") :] for f in path.parent.glob("agent-*.jsonl")}
    started = set()  # agents a call of the session started: their calls nest under it
    prompts = set()  # what the Task/Agent calls asked (an agent's first message is its call's prompt)
    spawns = set()  # the ids of those calls, and the teammate names they asked for
    runs = set()  # workflow runs a Workflow call's result names: the agents of their folders nest under it
    for file in files:
        for record in _lines(file):
            result = record.get("toolUseResult")
            if isinstance(result, dict) and isinstance(result.get("agentId"), str):
                started.add(result["agentId"])
            if isinstance(result, dict) and isinstance(result.get("runId"), str):
                runs.add(result["runId"])
            for block in _claude_blocks(record):  # the launch's text names the run's folder too
                if block.get("type") == "tool_result":
                    named = _TRANSCRIPT_DIR.search(_output_text(block.get("content")))
                    if named:
                        runs.add(named.group(1))
            for block in _claude_blocks(record):
                given = block.get("input") if block.get("type") == "tool_use" else None
                if block.get("name") in ("Task", "Agent") and isinstance(given, dict):
                    prompts.add(given.get("prompt"))
                    spawns.update(
                        (key, value)
                        for key, value in (("id", block.get("id")), ("name", given.get("name")))
                        if isinstance(value, str)
                    )
    for file in files[1:]:
        if file.parent.parent.name == "workflows" and file.parent.name in runs:
            started.add(file.stem[len("agent-") :])
        try:
            meta = json.loads(file.with_suffix(".meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            meta = {}
        named = (
            {("id", meta.get("toolUseId")), ("name", meta.get("name"))} if isinstance(meta, dict) else set()
        )
        if named & spawns:
            started.add(file.stem[len("agent-") :])
        first = next((r for r in _lines(file) if r.get("type") == "user"), {})
        said = first.get("message", {}).get("content") if isinstance(first.get("message"), dict) else None
        if isinstance(said, list):
            said = next(
                (b.get("text") for b in said if isinstance(b, dict) and b.get("type") == "text"), None
            )
        if isinstance(said, str) and said in prompts:
            started.add(file.stem[len("agent-") :])
    alone = path.name.startswith("agent-")
    nested_ids: set[str] = set()
    for file in files:
        counts.files.append(file.name)
        beneath = file != path and file.stem[len("agent-") :] in started
        for record in _lines(file):
            copy = _progress_copy(record, own_files)
            for block in _claude_blocks(record if copy is None else copy):
                if block.get("type") in _CLAUDE_CALLS and isinstance(block.get("id"), str):
                    # 1.0.x: a subagent written inline in its session's file (a subagent file read on its
                    # own is sidechain throughout, and has no call of its session to nest under)
                    inline = file == path and alone is False and record.get("isSidechain") is True
                    if block["id"] not in calls and (beneath or copy is not None or inline):
                        counts.nested += 1
                        nested_ids.add(block["id"])
                    calls.setdefault(block["id"])
                elif block.get("type") == "tool_result" and isinstance(block.get("tool_use_id"), str):
                    answered.add(block["tool_use_id"])
                    if block.get("is_error") is True:
                        failed.add(block["tool_use_id"])
                        replies[block["tool_use_id"]] = _output_text(block.get("content")).lstrip()[:300]
    counts.calls = len(calls)
    counts.answered = len(answered & calls.keys())
    counts.unanswered = counts.calls - counts.answered
    counts.errors = len(failed & calls.keys())
    for call_id in failed & calls.keys():
        kind = _claude_refusal(replies.get(call_id, ""))
        counts.denied += kind == "denied"
        counts.canceled += kind == "canceled"
    counts.orphans = len(answered - calls.keys())
    counts.failed_ids, counts.unanswered_ids = failed & calls.keys(), calls.keys() - answered
    counts.call_ids, counts.nested_ids, counts.answered_ids = set(calls), nested_ids, answered
    return counts


# -- Codex CLI --------------------------------------------------------------------------------------

_CALL_TYPES = ("function_call", "custom_tool_call", "local_shell_call", "tool_search_call")
_OUTPUT_TYPES = (
    "function_call_output",
    "custom_tool_call_output",
    "local_shell_call_output",
    "tool_search_output",
)
_SELF_ANSWERED = ("web_search_call", "image_generation_call")  # the item holds its own result
_EXIT = re.compile(r"^Exit code: (-?\d+)", re.M)
_PROCESS_EXIT = re.compile(r"Process exited with code (-?\d+)")
_RUNNING = re.compile(r"Process running with session ID (\d+)")
_ERROR_TEXTS = (
    "failed to parse function arguments",
    "apply_patch verification failed",
    "tool call error:",
    "exec command rejected by user",
    "exec_command failed",
    "Script failed",
    "error: ",
    "execution error:",
    "aborted by user",
    "failed in sandbox",
    "unsupported call:",
)


def _codex_items(path: Path) -> list[tuple[str, dict]]:
    """(kind, payload) of every record: kind is response_item or event_msg (legacy bare items too)."""
    items = []
    for record in _lines(path):
        kind, payload = record.get("type"), record.get("payload")
        if kind in ("response_item", "event_msg") and isinstance(payload, dict):
            items.append((kind, payload))
        elif kind in _CALL_TYPES + _OUTPUT_TYPES + _SELF_ANSWERED + ("message", "reasoning"):
            items.append(("response_item", record))  # the legacy layout: bare items
    return items


def _output_text(output: object) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return "\n".join(str(i.get("text", "")) for i in output if isinstance(i, dict))
    if isinstance(output, dict):  # a structured output {content, success}
        return _output_text(output.get("content"))
    return ""


def _exec_header(text: str) -> str:
    """The lines an exec output starts with, before ``Output:`` (0.115 begins them with ``Command: <the
    whole command>``, so the exit line can stand far from the start)."""
    head, found, _ = text.partition("\nOutput:\n")
    return head if found else text[:400]


def _codex_verdict(text: str) -> tuple[bool | None, str | None]:
    """(failed?, running session id) read from an output text; failed None: nothing says."""
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if isinstance(value, dict) and isinstance(value.get("metadata"), dict):
        code = value["metadata"].get("exit_code")
        if isinstance(code, int):
            return code != 0, None
        text = str(value.get("output", ""))
    if match := _EXIT.search(text[:200]):
        return int(match.group(1)) != 0, None
    if match := _PROCESS_EXIT.search(_exec_header(text)):
        return int(match.group(1)) != 0, None
    if match := _RUNNING.search(_exec_header(text)):
        return None, match.group(1)
    for line in text.lstrip().splitlines()[:3]:  # "Wall time: 17.0 seconds\naborted by user"
        if line.startswith(_ERROR_TEXTS):
            return True, None
    return None, None


def _codex_threads(path: Path) -> list[str]:
    """The threads a rollout's spawn_agent calls started: ``collab_agent_spawn_end.new_thread_id``, or
    (0.104, no collab events) the call's output ``{"agent_id": <thread id>}``."""
    spawns, threads = set(), []
    for kind, item in _codex_items(path):
        if (
            kind == "response_item"
            and item.get("type") == "function_call"
            and item.get("name") == "spawn_agent"
        ):
            spawns.add(item.get("call_id"))
        elif (
            kind == "response_item"
            and item.get("type") == "function_call_output"
            and item.get("call_id") in spawns
        ):
            try:
                said = json.loads(_output_text(item.get("output")))
            except ValueError:
                said = None
            if isinstance(said, dict) and isinstance(said.get("agent_id"), str):
                threads.append(said["agent_id"])
        elif kind == "event_msg" and item.get("type") == "collab_agent_spawn_end":
            if isinstance(item.get("new_thread_id"), str):
                threads.append(item["new_thread_id"])
    return list(dict.fromkeys(threads))


def _thread_file(path: Path, thread: str) -> Path | None:
    """A thread's rollout: beside the parent, else anywhere under the sessions root (YYYY/MM/DD)."""
    found = sorted(path.parent.glob(f"rollout-*-{thread}.jsonl"))
    if not found and re.search(r"\d{4}/\d{2}/\d{2}$", path.parent.as_posix()):
        found = sorted(path.parents[3].glob(f"*/*/*/rollout-*-{thread}.jsonl"))
    return found[0] if found else None


def count_codex(path: Path, seen: set[Path] | None = None) -> Counts:
    """A rollout, and the sub-agent threads it spawned whose rollouts are there (their calls nested)."""
    seen = {path.resolve()} if seen is None else seen
    counts = _count_rollout(path)
    for thread in _codex_threads(path):
        child = _thread_file(path, thread)
        if child is None or child.resolve() in seen:
            continue
        seen.add(child.resolve())
        sub = count_codex(child, seen)
        counts.files += sub.files
        for name in ("calls", "answered", "unanswered", "errors", "denied", "canceled", "orphans"):
            setattr(counts, name, getattr(counts, name) + getattr(sub, name))
        counts.nested += sub.calls
    return counts


def _count_rollout(path: Path) -> Counts:
    counts = Counts("codex", files=[path.name])
    calls: dict[str, dict] = {}
    outputs: dict[str, str] = {}
    web_searches = web_failed = web_open = 0
    lone_ends = pending_end = 0  # web_search_end events with no web_search_call item (0.145)
    ended: dict[str, bool] = {}  # call_id -> failed, from *_end events
    for kind, item in _codex_items(path):
        kind_of = item.get("type")
        if kind == "response_item":
            if kind_of in _CALL_TYPES:
                call_id = item.get("call_id") or item.get("id")
                if isinstance(call_id, str):
                    calls.setdefault(call_id, item)
            elif kind_of in _OUTPUT_TYPES and isinstance(item.get("call_id"), str):
                outputs.setdefault(item["call_id"], _output_text(item.get("output")))
                if item.get("status") not in (None, "completed"):
                    ended.setdefault(item["call_id"], True)
            elif kind_of == "web_search_call":
                pending_end = 0  # the web_search_end just before it was this search's
                web_searches += 1
                web_failed += item.get("status") == "failed"
            elif kind_of == "image_generation_call":
                web_searches += 1
                web_failed += item.get("status") in ("failed", "incomplete")
                web_open += item.get("status") not in ("completed", "failed", "incomplete")
        elif kind_of == "web_search_end":
            lone_ends += pending_end  # the end before had no web_search_call after it
            pending_end = 1
        elif kind_of == "exec_command_end" and isinstance(item.get("call_id"), str):
            code = item.get("exit_code")
            if isinstance(code, int):
                ended[item["call_id"]] = code != 0
        elif kind_of == "patch_apply_end" and isinstance(item.get("call_id"), str):
            if isinstance(item.get("success"), bool):
                ended[item["call_id"]] = not item["success"]
        elif kind_of == "mcp_tool_call_end" and isinstance(item.get("call_id"), str):
            result = item.get("result")
            if isinstance(result, dict):
                ok = result.get("Ok")
                ended[item["call_id"]] = "Err" in result or (
                    isinstance(ok, dict) and ok.get("isError") is True
                )
    web_searches += lone_ends + pending_end
    failed: set[str] = set()
    running: dict[str, str] = {}  # process session id -> the call that started it
    for call_id, item in calls.items():  # in the order the calls were made
        if call_id not in outputs:
            continue
        verdict, session = _codex_verdict(outputs[call_id])
        if call_id in ended:
            verdict = ended[call_id] or bool(verdict)
        if session is not None and call_id not in ended and item.get("name") != "write_stdin":
            running[session] = call_id  # a poll saying the process still runs starts nothing
        if item.get("name") == "write_stdin":
            try:
                target = str(json.loads(item.get("arguments") or "{}").get("session_id"))
            except (ValueError, AttributeError):
                target = None
            starter = running.get(target) if target else None
            if starter is not None and _PROCESS_EXIT.search(_exec_header(outputs[call_id])):
                if verdict:
                    failed.add(starter)
                running.pop(target, None)
        if verdict:
            failed.add(call_id)
            head = _exec_header(outputs[call_id])[:400]
            counts.denied += any(
                words in head for words in ("rejected by user", "denied by user", "blocked by policy")
            )
            counts.canceled += "aborted by user" in head
    still = set(running.values())  # a process whose end the file never reports: its call is not over
    counts.calls = len(calls) + web_searches
    counts.answered = len((outputs.keys() & calls.keys()) - still) + web_searches - web_open
    counts.unanswered = counts.calls - counts.answered
    counts.errors = len(failed) + web_failed
    counts.orphans = len(outputs.keys() - calls.keys())
    counts.failed_ids, counts.unanswered_ids = failed, (calls.keys() - outputs.keys()) | still
    return counts


# -- Gemini CLI -------------------------------------------------------------------------------------

_GEMINI_EXIT = re.compile(r"Exit Code: (-?\d+)")
# "[Operation Cancelled] Reason: ..." when the user said no at the confirmation prompt: worded "User did
# not allow tool call" by the CLI of 2025 and "User denied execution." from 2026 (both seen in real files)
_GEMINI_REFUSALS = ("User did not allow tool call", "User denied execution")


def _gemini_messages(path: Path) -> list[dict]:
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict) and isinstance(whole.get("messages"), list):
        return [m for m in whole["messages"] if isinstance(m, dict)]
    messages: dict[str, dict] = {}
    for record in _lines(path):
        if isinstance(record.get("id"), str):
            messages[record["id"]] = record  # re-written: the last record wins, in its first place
        elif isinstance(record.get("$set"), dict) and isinstance(record["$set"].get("messages"), list):
            messages = {m["id"]: m for m in record["$set"]["messages"] if isinstance(m, dict) and "id" in m}
        elif "$rewindTo" in record:
            ids = list(messages)
            target = record["$rewindTo"]
            for dropped in ids[ids.index(target) :] if target in messages else ids:
                del messages[dropped]
    return list(messages.values())


def gemini_files(path: Path) -> list[Path]:
    files = [path]
    header = _lines(path)[:1] if path.suffix == ".jsonl" else []
    session = header[0].get("sessionId") if header and "id" not in header[0] else None
    if session is None:
        try:
            whole = json.loads(path.read_text(encoding="utf-8", errors="replace"))
            session = whole.get("sessionId") if isinstance(whole, dict) else None
        except ValueError:
            session = None
    if isinstance(session, str) and (path.parent / session).is_dir():
        files += sorted(
            p for p in (path.parent / session).rglob("*.json*") if p.suffix in (".json", ".jsonl")
        )
    return files


def count_gemini_checkpoint(path: Path, contents: list) -> Counts:
    """A saved chat (``/chat save``: an array of ``{role, parts}``): each ``functionCall`` of a model
    content is answered by the ``functionResponse`` at its place in the next user content."""
    counts = Counts("gemini", files=[path.name])
    for index, content in enumerate(contents):
        if not isinstance(content, dict) or content.get("role") != "model":
            continue
        calls = [
            p["functionCall"]
            for p in content.get("parts") or []
            if isinstance(p, dict) and "functionCall" in p
        ]
        after = contents[index + 1] if index + 1 < len(contents) else {}
        answers = []
        if isinstance(after, dict) and after.get("role") == "user":
            answers = [
                p["functionResponse"]
                for p in after.get("parts") or []
                if isinstance(p, dict) and "functionResponse" in p
            ]
        for place, _call in enumerate(calls):
            counts.calls += 1
            if place >= len(answers):
                counts.unanswered += 1
                continue
            counts.answered += 1
            response = answers[place].get("response") if isinstance(answers[place], dict) else None
            output = response.get("output") if isinstance(response, dict) else None
            exit_code = _GEMINI_EXIT.search(output) if isinstance(output, str) else None
            if (isinstance(response, dict) and "error" in response) or (
                exit_code and int(exit_code.group(1)) != 0
            ):
                counts.errors += 1
                said = str(response.get("error", "")) if isinstance(response, dict) else ""
                if said.startswith("[Operation Cancelled]"):
                    refused = any(reason in said for reason in _GEMINI_REFUSALS)
                    counts.denied += refused
                    counts.canceled += not refused
    return counts


def count_gemini(path: Path) -> Counts:
    try:
        whole = json.loads(path.read_bytes())
    except ValueError:
        whole = None
    if isinstance(whole, list) and whole and isinstance(whole[0], dict) and "parts" in whole[0]:
        return count_gemini_checkpoint(path, whole)
    counts = Counts("gemini")
    calls: dict[str, dict] = {}
    for file in gemini_files(path):
        counts.files.append(file.name)
        for message in _gemini_messages(file):
            for call in message.get("toolCalls") or []:
                if isinstance(call, dict) and isinstance(call.get("id"), str):
                    if call["id"] not in calls and file != path:
                        counts.nested += 1
                    calls[call["id"]] = call
    for call_id, call in calls.items():
        status = call.get("status")
        done = status in ("success", "error", "cancelled") or bool(call.get("result"))
        counts.calls += 1
        counts.answered += done
        bad = status in ("error", "cancelled")
        if not bad and status == "success":
            for part in call.get("result") or []:
                response = (
                    (part.get("functionResponse") or {}).get("response") if isinstance(part, dict) else None
                )
                output = response.get("output") if isinstance(response, dict) else None
                match = _GEMINI_EXIT.search(output) if isinstance(output, str) else None
                bad = bad or (match is not None and int(match.group(1)) != 0)
        counts.errors += bad
        if bad:
            counts.failed_ids.add(call_id)
            words = json.dumps(call.get("result") or "")[:2000]
            if status == "cancelled":
                refused = any(reason in words for reason in _GEMINI_REFUSALS)
                counts.denied += refused
                counts.canceled += not refused
            elif status == "error":
                counts.denied += "denied by policy" in words
        if not done:
            counts.unanswered_ids.add(call_id)
    counts.unanswered = counts.calls - counts.answered
    return counts


# -- any ------------------------------------------------------------------------------------------


def sniff(path: Path) -> str:
    """claude, codex or gemini, from the records themselves."""
    head = path.read_bytes()[:200_000]
    if (
        b'"type":"session_meta"' in head
        or b'"type":"response_item"' in head
        or path.name.startswith("rollout-")
    ):
        return "codex"
    if (
        b'"toolCalls"' in head
        or b'"projectHash"' in head
        or path.name.startswith(("session-", "checkpoint-"))
    ):
        return "gemini"
    if b'"record_type"' in head or b'"function_call' in head:
        return "codex"
    return "claude"


def _first_session_id(path: Path) -> str | None:
    for record in _lines(path)[:50]:
        if isinstance(record.get("sessionId"), str):
            return record["sessionId"]
    return None


def _gemini_session_id(path: Path) -> str | None:
    if path.suffix == ".jsonl":
        records = _lines(path)[:1]
        return records[0].get("sessionId") if records else None
    try:
        whole = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except ValueError:
        return None
    return whole.get("sessionId") if isinstance(whole, dict) else None


def folder_sessions(folder: Path, depth: int = 5) -> list[Path]:
    """The session files a folder holds (see the module's doc), sorted by path."""
    found: list[Path] = []

    def visit(here: Path, level: int) -> None:
        entries = sorted(here.iterdir())
        names = {e.name for e in entries}
        for entry in entries:
            if entry.is_dir():
                if entry.name.startswith(".") or entry.name == "tool-results" or level >= depth:
                    continue
                if here.name == "chats":  # a Gemini session's sub-agents, unless its session is gone
                    ids = {_gemini_session_id(p) for p in entries if p.name.startswith("session-")}
                    if entry.name not in {re.sub("[^A-Za-z0-9_-]", "_", i) for i in ids if i}:
                        found.extend(p for p in sorted(entry.iterdir()) if p.suffix in (".json", ".jsonl"))
                    continue
                if f"{entry.name}.jsonl" in names:
                    continue  # a Claude Code session's own folder
                subagents = entry / "subagents"
                if subagents.is_dir():
                    resumed = any(
                        _first_session_id(p) == entry.name
                        for p in here.glob("*.jsonl")
                        if not p.name.startswith("agent-")
                    )
                    if not resumed:
                        found.extend(subagents.rglob("agent-*.jsonl"))
                    continue
                visit(entry, level + 1)
            elif entry.name == "history.jsonl":
                continue  # ~/.claude's and ~/.codex's prompt history: no session
            elif entry.suffix == ".jsonl" and not entry.name.startswith("agent-"):
                found.append(entry)
            elif entry.suffix == ".jsonl":  # 2.0.x: a subagent beside the sessions, its session's id inside
                sessions = [p for p in entries if p.suffix == ".jsonl" and not p.name.startswith("agent-")]
                kept = {p.stem for p in sessions} | {_first_session_id(p) or p.stem for p in sessions}
                if _first_session_id(entry) not in kept:
                    found.append(entry)
            elif entry.suffix == ".json" and (
                (here.name == "chats" and entry.name.startswith("session-"))
                or (
                    entry.name.startswith("checkpoint-")
                    and ("chats" in names or "logs.json" in names or re.fullmatch("[0-9a-f]{64}", here.name))
                )
            ):
                found.append(entry)

    visit(folder, 0)
    return sorted(found)


def count(path: Path) -> Counts:
    return {"claude": count_claude, "codex": count_codex, "gemini": count_gemini}[sniff(path)](path)


def count_folder(folder: Path) -> Counts:
    """What opening ``folder`` holds: its sessions (``folder_sessions``), a Claude Code call counted once
    however many of its session files hold it (a resumed session repeats the calls of the one it
    continues, with the same ``tool_use`` ids: 1.0.89 wrote them with new uuids and its own session id),
    a Codex thread's rollout counted under the rollout that spawned it, the other counts added up
    (refused and interrupted: the other formats' only)."""
    total = Counts("folder")
    claude: list[Counts] = []
    sessions = folder_sessions(folder)
    spawned = set()  # Codex rollouts of threads another rollout of the folder spawned: counted under it
    for path in sessions:
        if sniff(path) == "codex":
            for thread in _codex_threads(path):
                child = _thread_file(path, thread)
                if child is not None and child.resolve() != path.resolve():
                    spawned.add(child.resolve())
    for path in sessions:
        if path.resolve() in spawned:
            continue
        counts = count(path)
        if counts.format == "claude":
            claude.append(counts)
            continue
        for name in ("calls", "nested", "answered", "unanswered", "errors", "denied", "canceled", "orphans"):
            setattr(total, name, getattr(total, name) + getattr(counts, name))
    calls = set().union(*(c.call_ids for c in claude))
    answered = set().union(*(c.answered_ids for c in claude))
    failed = set().union(*(c.failed_ids for c in claude))
    total.calls += len(calls)
    total.nested += len(set().union(*(c.nested_ids for c in claude)))
    total.answered += len(answered & calls)
    total.unanswered += len(calls - answered)
    total.errors += len(failed)
    total.orphans += len(answered - calls)
    return total


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(name, json.dumps(count(Path(name)).as_dict()))
