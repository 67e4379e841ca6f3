"""Regenerate the bundled sample sessions: ``python sample_sessions/make_samples.py``.

One small session per format, together showing every call state, an orphan result, a duplicate
result, a late result, a protocol violation, a RAP ``display_as`` diff with a text fallback, Claude
Code ``structuredPatch`` edits and subagent calls nested under their Task call.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from inspector.protocols import alicia, recording  # noqa: E402

T0 = 1_793_527_200.0  # 2026-11-01 10:00:00 UTC: fixed so the files never change
CONV = "conv_demo0000000000001"


def iso(seconds: float) -> str:
    from datetime import datetime, timezone

    return (
        datetime.fromtimestamp(T0 + seconds, timezone.utc)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


# -- Alicia recording ----------------------------------------------------------------------
def make_recording(path: Path) -> None:
    agent_stanza = [0]
    client_stanza = [0]

    def agent(type_, body):
        agent_stanza[0] -= 1
        return alicia.encode_envelope(
            type_=type_,
            body=body,
            conversation_id=CONV,
            stanza_id=agent_stanza[0],
            meta={"timestamp": iso(0)},
        )

    def client(type_, body):
        client_stanza[0] += 1
        return alicia.encode_envelope(
            type_=type_, body=body, conversation_id=CONV, stanza_id=client_stanza[0]
        )

    def request(call_id, tool, execution, params, timeout_ms=None):
        body = {
            "id": call_id,
            "messageId": "msg_answer01",
            "conversationId": CONV,
            "toolName": tool,
            "parameters": params,
        }
        if execution is not None:
            body["execution"] = execution
        if timeout_ms is not None:
            body["timeoutMs"] = timeout_ms
        return agent(6, body)

    def result(call_id, *, ok=True, data=None, code=None, message=None, by_client=False):
        body = alicia.tool_result_body(
            call_id=call_id, success=ok, result=data, error_code=code, error_message=message
        )
        return client(7, body) if by_client else agent(7, body)

    packets = [
        (
            0.0,
            "in",
            "client-web",
            client(
                2,
                {
                    "id": "msg_user01",
                    "conversationId": CONV,
                    "content": "Plan my evening in Rome and read my notes file.",
                },
            ),
        ),
        (
            0.3,
            "in",
            "alicia-agent",
            agent(13, {"id": "msg_answer01", "previousId": "msg_user01", "conversationId": CONV}),
        ),
        (0.5, "in", "alicia-agent", request("tr_weather", "get_weather", "server", {"city": "Rome"}, 10000)),
        (1.2, "in", "alicia-agent", result("tr_weather", data={"temperature": 21, "sky": "clear"})),
        (
            1.4,
            "in",
            "alicia-agent",
            request("tr_notes", "read_local_file", "client", {"filePath": "/Users/alice/notes.txt"}, 5000),
        ),
        (
            2.1,
            "out",
            "inspector-demo",
            result(
                "tr_notes", data={"content": "Buy [bold]basil[/bold]\x1b[31m!", "size": 18}, by_client=True
            ),
        ),
        (
            2.3,
            "in",
            "alicia-agent",
            request(
                "tr_search", "web_search", "either", {"query": "trattoria near Pantheon", "limit": 3}, 8000
            ),
        ),
        (
            3.0,
            "in",
            "client-web",
            result(
                "tr_search", ok=False, code="execution_error", message="Network unreachable", by_client=True
            ),
        ),
        (
            3.2,
            "in",
            "alicia-agent",
            request("tr_slow", "book_table", "server", {"restaurant": "Armando"}, 2000),
        ),
        (
            5.4,
            "in",
            "alicia-agent",
            result("tr_slow", ok=False, code="timeout", message="Tool execution exceeded timeout of 2000ms"),
        ),
        (
            5.6,
            "in",
            "alicia-agent",
            request("tr_cal", "calendar_add", "client", {"title": "Dinner", "at": "20:00"}, 3000),
        ),
        (9.9, "in", "client-web", result("tr_cal", data={"eventId": "ev_42"}, by_client=True)),  # late
        (
            10.0,
            "in",
            "alicia-agent",
            request("tr_math", "calculator", "client", {"expression": "2 * 21"}, 4000),
        ),
        (10.4, "in", "client-web", result("tr_math", data={"answer": 42}, by_client=True)),
        (10.6, "in", "client-web", result("tr_math", data={"answer": 42}, by_client=True)),  # duplicate
        (
            11.0,
            "in",
            "client-web",
            result(
                "tr_ghost",
                ok=False,
                code="unknown_tool",
                message="Tool 'ghost' is not supported by this client",
                by_client=True,
            ),
        ),
        (11.5, "in", "alicia-agent", request("tr_noexec", "send_sms", None, {"to": "+3906000"}, 5000)),
        (12.0, "in", "alicia-agent", request("tr_cancel", "play_music", "client", {"song": "Volare"}, 6000)),
        (
            12.8,
            "in",
            "client-web",
            result("tr_cancel", ok=False, code="canceled", message="User stopped playback", by_client=True),
        ),
        (
            13.0,
            "in",
            "alicia-agent",
            request("tr_deny", "delete_file", "client", {"filePath": "/etc/hosts"}, 6000),
        ),
        (
            13.4,
            "in",
            "client-web",
            result("tr_deny", ok=False, code="denied", message="Permission denied by user", by_client=True),
        ),
        (14.0, "in", "alicia-agent", request("tr_wait", "take_photo", "client", {"camera": "front"}, 600000)),
        (
            14.2,
            "in",
            "alicia-agent",
            agent(
                1,
                {
                    "id": "err_1",
                    "conversationId": CONV,
                    "code": 304,
                    "message": "Tool execution timeout: book_table exceeded 2s limit",
                    "severity": 1,
                    "recoverable": True,
                },
            ),
        ),
        (
            14.5,
            "in",
            "alicia-agent",
            agent(
                3,
                {
                    "id": "msg_answer01",
                    "previousId": "msg_user01",
                    "conversationId": CONV,
                    "content": "It is 21°C and clear in Rome. Dinner is booked at 20:00.",
                },
            ),
        ),
    ]
    if path.exists():
        path.unlink()
    with recording.RecordingWriter(str(path), {"room": CONV, "note": "sample session"}) as rec:
        for offset, direction, who, data in packets:
            rec.write(
                direction,
                data,
                ts=T0 + offset,
                participant=who,
                topic="alicia",
                answered_by="inspector" if direction == "out" else None,
            )
        rec.write("in", b"\xc1\x00 garbage packet", ts=T0 + 15.0, participant="alicia-agent", topic="alicia")


# -- Claude Code transcript --------------------------------------------------------------------
def make_claude(folder: Path) -> None:
    session = "5a3e0000-0000-4000-8000-000000000001"
    project = folder / "-home-dev-demo-app"
    sub = project / session / "subagents"
    sub.mkdir(parents=True, exist_ok=True)
    counter = [0]

    def uid():
        counter[0] += 1
        return f"00000000-0000-4000-8000-{counter[0]:012d}"

    def base(kind, t, **extra):
        return {
            "parentUuid": None,
            "isSidechain": False,
            "userType": "external",
            "cwd": "/home/dev/demo-app",
            "sessionId": session,
            "version": "2.1.30",
            "type": kind,
            "uuid": uid(),
            "timestamp": iso(t),
            **extra,
        }

    def user_text(t, text):
        return base("user", t, message={"role": "user", "content": text})

    def tool_use(t, tid, name, params, text=None):
        content = ([{"type": "text", "text": text}] if text else []) + [
            {"type": "tool_use", "id": tid, "name": name, "input": params}
        ]
        return base(
            "assistant",
            t,
            message={
                "id": f"msg_{tid}",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": content,
            },
        )

    def tool_result(t, tid, content, result=None, error=False):
        block = {"type": "tool_result", "tool_use_id": tid, "content": content}
        if error:
            block["is_error"] = True
        record = base("user", t, message={"role": "user", "content": [block]})
        if result is not None:
            record["toolUseResult"] = result
        return record

    app_old = "def greet(name):\n    return 'Hello ' + name\n"
    records = [
        user_text(0, "Fix the greeting, run the tests and tidy up."),
        tool_use(
            2, "toolu_read01", "Read", {"file_path": "/home/dev/demo-app/app.py"}, "Let me look at the code."
        ),
        tool_result(
            3,
            "toolu_read01",
            "     1→def greet(name):\n     2→    return 'Hello ' + name\n",
            {
                "type": "text",
                "file": {
                    "filePath": "/home/dev/demo-app/app.py",
                    "content": app_old,
                    "numLines": 2,
                    "startLine": 1,
                    "totalLines": 2,
                },
            },
        ),
        tool_use(
            5,
            "toolu_edit01",
            "Edit",
            {
                "file_path": "/home/dev/demo-app/app.py",
                "old_string": "return 'Hello ' + name",
                "new_string": 'return f"Hello, {name}!"',
            },
        ),
        tool_result(
            6,
            "toolu_edit01",
            "The file /home/dev/demo-app/app.py has been updated.",
            {
                "filePath": "/home/dev/demo-app/app.py",
                "oldString": "return 'Hello ' + name",
                "newString": 'return f"Hello, {name}!"',
                "originalFile": app_old,
                "replaceAll": False,
                "userModified": False,
                "structuredPatch": [
                    {
                        "oldStart": 1,
                        "oldLines": 2,
                        "newStart": 1,
                        "newLines": 2,
                        "lines": [
                            " def greet(name):",
                            "-    return 'Hello ' + name",
                            '+    return f"Hello, {name}!"',
                        ],
                    }
                ],
            },
        ),
        tool_use(
            8,
            "toolu_write01",
            "Write",
            {
                "file_path": "/home/dev/demo-app/test_app.py",
                "content": "from app import greet\n\n\ndef test_greet():\n    assert greet('Ada') == 'Hello, Ada!'\n",
            },
        ),
        tool_result(
            9,
            "toolu_write01",
            "File created successfully at: /home/dev/demo-app/test_app.py",
            {
                "type": "create",
                "filePath": "/home/dev/demo-app/test_app.py",
                "content": "from app import greet\n\n\ndef test_greet():\n    assert greet('Ada') == 'Hello, Ada!'\n",
                "structuredPatch": [],
                "originalFile": None,
            },
        ),
        tool_use(11, "toolu_bash01", "Bash", {"command": "pytest -q", "description": "Run the tests"}),
        tool_result(
            14,
            "toolu_bash01",
            "1 passed in 0.02s",
            {"stdout": "1 passed in 0.02s", "stderr": "", "interrupted": False, "isImage": False},
        ),
        tool_use(15, "toolu_bash02", "Bash", {"command": "ruff check ."}),
        tool_result(
            16, "toolu_bash02", "Error: Exit code 1\napp.py:1:1: D100 Missing docstring", None, error=True
        ),
        tool_use(
            17,
            "toolu_todo01",
            "TodoWrite",
            {
                "todos": [
                    {"content": "Fix greeting", "status": "completed", "activeForm": "Fixing greeting"},
                    {"content": "Add docstring", "status": "in_progress", "activeForm": "Adding docstring"},
                ]
            },
        ),
        tool_result(
            18,
            "toolu_todo01",
            "Todos have been modified successfully.",
            {
                "oldTodos": [
                    {"content": "Fix greeting", "status": "in_progress", "activeForm": "Fixing greeting"}
                ],
                "newTodos": [
                    {"content": "Fix greeting", "status": "completed", "activeForm": "Fixing greeting"},
                    {"content": "Add docstring", "status": "in_progress", "activeForm": "Adding docstring"},
                ],
            },
        ),
        tool_use(
            20,
            "toolu_task01",
            "Task",
            {
                "description": "Survey the repo",
                "prompt": "List the Python files and grep for TODO.",
                "subagent_type": "general-purpose",
            },
        ),
        tool_result(
            31,
            "toolu_task01",
            [{"type": "text", "text": "Found 2 Python files and 1 TODO."}],
            {
                "status": "completed",
                "prompt": "List the Python files and grep for TODO.",
                "agentId": "a1b2c3d4e5f600001",
                "content": [{"type": "text", "text": "Found 2 Python files and 1 TODO."}],
                "totalDurationMs": 11000,
                "totalTokens": 1200,
                "totalToolUseCount": 2,
            },
        ),
        tool_use(
            33, "toolu_fetch01", "WebFetch", {"url": "https://example.com/style", "prompt": "Summarise"}
        ),
        tool_result(
            35,
            "toolu_fetch01",
            "A short style guide.",
            {
                "url": "https://example.com/style",
                "code": 200,
                "codeText": "OK",
                "bytes": 5120,
                "durationMs": 840,
                "result": "A short style guide.",
            },
        ),
        tool_use(36, "toolu_bash03", "Bash", {"command": "sleep 600"}),
        tool_result(40, "toolu_bash03", "[Request interrupted by user for tool use]", None, error=True),
        tool_use(41, "toolu_rm01", "Bash", {"command": "rm -rf build/"}),
        tool_result(
            43,
            "toolu_rm01",
            "The user doesn't want to proceed with this tool use. The tool use was rejected "
            "(eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing "
            "and wait for the user to tell you how to proceed.",
            None,
            error=True,
        ),
        tool_use(44, "toolu_pending01", "Bash", {"command": "npm run build"}),
        base(
            "assistant",
            45,
            message={
                "role": "assistant",
                "content": [{"type": "text", "text": "Done: the greeting is fixed and tested."}],
            },
        ),
    ]
    agent_id = "a1b2c3d4e5f600001"

    def sub_base(kind, t, **extra):
        record = base(kind, t, **extra)
        record.update(isSidechain=True, agentId=agent_id)
        return record

    sub_records = [
        sub_base("user", 21, message={"role": "user", "content": "List the Python files and grep for TODO."}),
        sub_base(
            "assistant",
            22,
            message={
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_glob01",
                        "name": "Glob",
                        "input": {"pattern": "**/*.py"},
                    }
                ],
            },
        ),
        sub_base(
            "user",
            23,
            message={
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_glob01", "content": "app.py\ntest_app.py"}
                ],
            },
            toolUseResult={
                "filenames": ["app.py", "test_app.py"],
                "numFiles": 2,
                "durationMs": 3,
                "truncated": False,
            },
        ),
        sub_base(
            "assistant",
            25,
            message={
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_grep01",
                        "name": "Grep",
                        "input": {"pattern": "TODO", "output_mode": "content"},
                    }
                ],
            },
        ),
        sub_base(
            "user",
            27,
            message={
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_grep01", "content": "app.py:3:# TODO: i18n"}
                ],
            },
            toolUseResult={
                "mode": "content",
                "numFiles": 1,
                "filenames": [],
                "content": "app.py:3:# TODO: i18n",
                "numLines": 1,
            },
        ),
        sub_base(
            "assistant",
            30,
            message={
                "role": "assistant",
                "content": [{"type": "text", "text": "Found 2 Python files and 1 TODO."}],
            },
        ),
    ]
    write_jsonl(project / f"{session}.jsonl", records)
    write_jsonl(sub / f"agent-{agent_id}.jsonl", sub_records)
    (sub / f"agent-{agent_id}.meta.json").write_text(
        json.dumps({"agentType": "general-purpose", "description": "Survey the repo"}) + "\n"
    )


def write_jsonl(path: Path, records: list) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")


# -- RAP ---------------------------------------------------------------------------------------
def make_rap(path: Path) -> None:
    group = "thread_demo"
    patch = (
        '--- src/main.rs\n+++ src/main.rs\n@@ -1,3 +1,4 @@\n fn main() {\n+    println!("hello");\n'
        "     run();\n }\n"
    )

    def invoke(t, call_id, operation, arguments):
        return {
            "ts": iso(t),
            "operation": operation,
            "arguments": arguments,
            "id": call_id,
            "call_id": None,
            "callback_url": "https://agent.example.com/callback",
            "group_id": group,
            "user_id": "user_42",
        }

    def result(t, call_id, text, display_as=None, **extra):
        body = {
            "ts": iso(t),
            "type": "tool_result",
            "group_id": group,
            "id": call_id,
            "call_id": None,
            "text": text,
        }
        if display_as is not None:
            body["display_as"] = display_as
        body.update(extra)
        return body

    records = [
        invoke(0, "call_edit", "edit_file", {"path": "src/main.rs", "insert": 'println!("hello");'}),
        result(
            1.5,
            "call_edit",
            "Replaced text in src/main.rs",
            [
                {"type": "diff", "content": {"path": "src/main.rs", "patch": patch}},
                {"type": "text", "content": "edit_file src/main.rs — 1 insertion"},
            ],
        ),
        invoke(2, "call_deploy", "deploy", {"service": "api", "region": "eu-west-1"}),
        result(6, "call_deploy", "Error: API rate limit exceeded. Retry after 60 seconds."),
        invoke(
            7,
            "call_sub",
            "subscribe_github_events",
            {"owner": "acme", "repo": "api", "event_type": "pull_request"},
        ),
        result(7.4, "call_sub", "Subscribed to pull_request events on acme/api.", subscription=True),
        {
            "ts": iso(9),
            "type": "subscription_event",
            "group_id": group,
            "tool_call_id": "call_sub",
            "text": '{"event_type": "pull_request", "action": "opened", "number": 42}',
        },
        result(
            9.5, "call_sub", "Subscribed to pull_request events on acme/api.", subscription=True
        ),  # duplicate
        result(10, "call_unknown", "Done."),  # orphan
        invoke(11, "call_wait", "run_pipeline", {"pipeline": "nightly"}),
    ]
    write_jsonl(path, records)


# -- LM-Kit ------------------------------------------------------------------------------------
def make_lmkit(path: Path) -> None:
    def call(cid, name, args):
        return {"Id": cid, "Name": name, "ArgumentsJson": json.dumps(args)}

    def res(cid, name, type_, payload):
        return {"ToolCallId": cid, "ToolName": name, "Type": type_, "ResultJson": json.dumps(payload)}

    records = [
        call("call_0001", "get_weather", {"city": "Paris"}),
        res("call_0001", "get_weather", 0, {"tempC": 18}),
        call("call_0002", "read_file", {"path": "/missing"}),
        res("call_0002", "read_file", "Error", {"error": {"message": "File not found", "code": "ENOENT"}}),
        call("call_0003", "long_job", {}),
        res("call_0003", "long_job", 2, {"canceled": {"reason": "user left", "by": "user"}}),
        call("call_0004", "slow_api", {}),
        res("call_0004", "slow_api", "Timeout", {"timeout": {"durationMs": 30000}}),
        call("call_0005", "rm", {"path": "/"}),
        res("call_0005", "rm", 4, {"denied": {"tool": "rm", "reason": "policy"}}),
        call("call_0006", "translate", {"text": "hola"}),
    ]
    write_jsonl(path, records)


def main() -> None:
    make_recording(HERE / "demo.recording.jsonl")
    make_claude(HERE / "claude")
    make_rap(HERE / "rap.jsonl")
    make_lmkit(HERE / "lmkit.jsonl")
    print("wrote", ", ".join(sorted(str(p.relative_to(HERE)) for p in HERE.rglob("*.json*"))))


if __name__ == "__main__":
    os.chdir(HERE)
    main()
