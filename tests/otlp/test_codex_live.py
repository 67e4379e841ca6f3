"""The real Codex CLI, driven for real: its rollout and its own OpenTelemetry export read by the inspector.

``codex exec`` runs against a scripted OpenAI-compatible model (the Responses API, streamed as server-sent
events, on a free port of 127.0.0.1: a custom ``model_provider`` with a ``base_url`` in a ``config.toml``
under a temporary ``CODEX_HOME``; no account, no key). The model asks for shell commands (one that
succeeds, one that exits 3, two at once), Codex runs them and sends their output back, then the model
answers. Codex writes its rollout under ``CODEX_HOME/sessions`` and, with ``[otel]`` set, exports its
logs and traces over OTLP/HTTP protobuf to ``inspector otlp-listen --record``. Then:

- the rollout read with ``stats --json``, ``check`` and ``dump --json`` holds each call the raw records
  hold (counted here from the JSON lines, not by the inspector): its tool, arguments, output and exit code
  (the ``CommandExecution`` item Codex completes for it) and its state;
- the telemetry, as recorded by the listener and as printed live by it, shows the same calls as the
  rollout: same ids (``call_id``), tools, arguments, states, exit codes, output and conversation.

Codex is an npm package with a native binary (about 400 MB): it lives outside the project, under
``$INSPECTOR_CODEX_PREFIX`` or ``~/.cache/inspector-codex`` (``.ci/run`` installs it there with npm);
without it these tests skip, saying so.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("opentelemetry.proto", reason="the otlp extra is not installed (Codex sends protobuf)")

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("codex_live")]

ROOT = Path(__file__).resolve().parents[2]
PREFIX = Path(os.environ.get("INSPECTOR_CODEX_PREFIX") or Path.home() / ".cache" / "inspector-codex")
CODEX = PREFIX / "node_modules" / ".bin" / "codex"

# What the scripted model asks for, turn by turn (a turn ends when Codex sends back every output): a
# command that succeeds, one that exits 3, two at once, and one still running when exec_command returns
# (its output says "Process running with session ID N"), then polled with write_stdin until it exits 4.
SLOW = "sleep 2; echo done; exit 4"
SCRIPT: list[list[tuple[str, str, dict[str, Any]]]] = [
    [("call_echo_hi", "exec_command", {"cmd": "echo hi"})],
    [("call_exit_3", "exec_command", {"cmd": "echo oops >&2; exit 3"})],
    [
        ("call_par_one", "exec_command", {"cmd": "echo one"}),
        ("call_par_two", "exec_command", {"cmd": "echo two"}),
    ],
    [("call_slow", "exec_command", {"cmd": SLOW, "yield_time_ms": 250})],
    [("call_poll", "write_stdin", {"chars": "", "yield_time_ms": 10000})],  # session_id: call_slow's
]
EXPECTED_EXIT = {
    "call_echo_hi": 0,
    "call_exit_3": 3,
    "call_par_one": 0,
    "call_par_two": 0,
    "call_slow": 4,
    "call_poll": 4,  # the poll's output says the process exited 4: the inspector fails the poll too
}
FINAL = "All the commands ran."


@dataclass
class ScriptedModel:
    """An OpenAI Responses API endpoint (``POST /v1/responses``, streamed) that plays :data:`SCRIPT`."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def answer(self, body: dict[str, Any]) -> bytes:
        """The server-sent events of one response: the next turn's function calls, or the final message."""
        given = body.get("input") or []
        done = {
            i.get("call_id") for i in given if isinstance(i, dict) and i.get("type") == "function_call_output"
        }
        outputs = {
            i.get("call_id"): str(i.get("output"))
            for i in given
            if isinstance(i, dict) and i.get("type") == "function_call_output"
        }
        turn = next(
            (n for n, calls in enumerate(SCRIPT) if not all(c in done for c, _, _ in calls)), len(SCRIPT)
        )
        rid = f"resp_scripted_{turn}"
        if turn < len(SCRIPT):
            items = []
            for call_id, tool, args in SCRIPT[turn]:
                if tool == "write_stdin":  # poll the session the slow command's output named
                    found = re.search(r"session ID (\d+)", outputs.get("call_slow", ""))
                    args = {**args, "session_id": int(found.group(1)) if found else -1}
                items.append(
                    {
                        "type": "function_call",
                        "id": f"fc_{call_id}",
                        "call_id": call_id,
                        "name": tool,
                        "arguments": json.dumps(args),
                    }
                )
        else:
            text = {"type": "output_text", "text": FINAL, "annotations": []}
            items = [{"type": "message", "id": "msg_final", "role": "assistant", "content": [text]}]
        usage = {
            "input_tokens": 100,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 10,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 110,
        }
        events: list[dict[str, Any]] = [{"type": "response.created", "response": {"id": rid}}]
        for index, item in enumerate(items):
            events.append({"type": "response.output_item.added", "output_index": index, "item": item})
            events.append({"type": "response.output_item.done", "output_index": index, "item": item})
        events.append({"type": "response.completed", "response": {"id": rid, "usage": usage}})
        return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)

    def __enter__(self) -> ScriptedModel:
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 - the http.server name
                size = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(size) or b"{}")
                if self.path.rstrip("/") != "/v1/responses":
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                model.requests.append(body)
                data = model.answer(body)
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802 - /v1/models and the like: not offered
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.shutdown()
        self.server.server_close()


@dataclass
class Run:
    rollout: Path
    recording: Path
    printed: list[dict[str, Any]]
    model: ScriptedModel
    output: str


def _inspector(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inspector", *args], capture_output=True, text=True, timeout=120, cwd=ROOT
    )


def _listener(recording: Path, log: Path) -> tuple[subprocess.Popen[str], str]:
    """``inspector otlp-listen`` on a free port, and its base URL once it says it listens."""
    args = ["otlp-listen", "--port", "0", "--no-ui", "--json", "--record", str(recording)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "inspector", *args],
        stdout=subprocess.PIPE,
        stderr=log.open("w"),
        text=True,
        cwd=ROOT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        said = log.read_text()
        if "listening on " in said:
            return proc, said.split("listening on ", 1)[1].split()[0]
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.kill()
    pytest.fail(f"otlp-listen did not start: {log.read_text()!r}")


def _calls_in(path: Path) -> list[dict[str, Any]]:
    done = _inspector("dump", "--json", str(path))
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def _version() -> str:
    done = subprocess.run([str(CODEX), "--version"], capture_output=True, text=True, timeout=60)
    return done.stdout.strip()


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    if not CODEX.exists():
        pytest.skip(
            f"the Codex CLI is not installed in {PREFIX} "
            "(.ci/run installs it: npm install --prefix ~/.cache/inspector-codex @openai/codex@0.169.0)"
        )
    top = tmp_path_factory.mktemp("codex_live")
    home, work = top / "codex_home", top / "work"
    home.mkdir()
    work.mkdir()
    recording = top / "telemetry.otlp.jsonl"
    proc, endpoint = _listener(recording, top / "listen.log")
    try:
        with ScriptedModel() as model:
            (home / "config.toml").write_text(
                f"""model = "scripted-model"
model_provider = "scripted"

[model_providers.scripted]
name = "Scripted model (tests)"
base_url = "{model.base_url}"
wire_api = "responses"

[otel]
environment = "test"
log_user_prompt = false
exporter = {{ otlp-http = {{ endpoint = "{endpoint}/v1/logs", protocol = "binary" }} }}
trace_exporter = {{ otlp-http = {{ endpoint = "{endpoint}/v1/traces", protocol = "binary" }} }}
metrics_exporter = "none"
"""
            )
            env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEX_", "OTEL_"))}
            env["CODEX_HOME"] = str(home)
            done = subprocess.run(
                [str(CODEX), "exec", "--skip-git-repo-check", "--sandbox", "danger-full-access",
                 "Run the commands you are given."],
                cwd=work, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300,
            )  # fmt: skip
            output = done.stdout + done.stderr
            assert done.returncode == 0, f"codex exec failed ({done.returncode}): {output[-3000:]}"
        rollouts = sorted((home / "sessions").rglob("rollout-*.jsonl"))
        assert len(rollouts) == 1, f"rollouts under {home}: {rollouts}; codex said: {output[-2000:]}"
        # the exporter sends at exit; the listener writes each body as it comes
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            text = recording.read_text() if recording.exists() else ""
            if all(call_id in text and "codex.tool_result" in text for call_id in EXPECTED_EXIT):
                break
            time.sleep(0.2)
    finally:
        proc.terminate()
        try:
            printed_text, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            printed_text, _ = proc.communicate()
    printed = [json.loads(line) for line in printed_text.splitlines() if line.startswith("{")]
    yield Run(rollouts[0], recording, printed, model, output)


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _raw_rollout_calls(path: Path) -> dict[str, dict[str, Any]]:
    """The calls as the rollout's own records hold them, read here without the inspector."""
    calls: dict[str, dict[str, Any]] = {}
    for record in _records(path):
        payload = record.get("payload") or {}
        if record.get("type") == "response_item" and payload.get("type") == "function_call":
            calls[payload["call_id"]] = {"tool": payload["name"], "params": json.loads(payload["arguments"])}
        elif record.get("type") == "response_item" and payload.get("type") == "function_call_output":
            calls[payload["call_id"]]["output"] = payload["output"]
        elif record.get("type") == "event_msg" and payload.get("type") == "item_completed":
            item = payload.get("item") or {}
            if item.get("type") == "CommandExecution" and item.get("id") in calls:
                calls[item["id"]]["exit_code"] = item["exit_code"]
                calls[item["id"]]["printed"] = item["aggregated_output"]
    for call in calls.values():  # a poll has no CommandExecution item: what its output says
        if "exit_code" not in call:
            found = re.search(r"^Process exited with code (-?\d+)$", call["output"], re.MULTILINE)
            call["exit_code"] = int(found.group(1)) if found else None
            call["printed"] = call["output"].partition("\nOutput:\n")[2]
    return calls


def _raw_telemetry_results(path: Path) -> dict[str, dict[str, Any]]:
    """``codex.tool_result`` log events by ``call_id``, their attributes as plain values."""
    found: dict[str, dict[str, Any]] = {}
    for body in _records(path):
        for logs in body.get("resourceLogs", []):
            for scope in logs.get("scopeLogs", []):
                for record in scope.get("logRecords", []):
                    attrs = {
                        a["key"]: next(iter(a["value"].values()), None) for a in record.get("attributes", [])
                    }
                    if attrs.get("event.name") == "codex.tool_result":
                        found[attrs["call_id"]] = attrs
    return found


def test_codex_ran_the_script_for_real(run: Run) -> None:
    """The model was asked once a turn and once more, each request carrying the real outputs so far."""
    assert len(run.model.requests) == len(SCRIPT) + 1, run.output[-2000:]
    sent = {
        item["call_id"]: item["output"]
        for item in run.model.requests[-1]["input"]
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    }
    assert set(sent) == set(EXPECTED_EXIT)
    assert "hi" in sent["call_echo_hi"].splitlines()
    assert "Process exited with code 3" in sent["call_exit_3"]
    assert "Process running with session ID" in sent["call_slow"]  # still running when it returned
    assert "Process exited with code 4" in sent["call_poll"] and "done" in sent["call_poll"]
    assert FINAL in run.output


def test_rollout_calls_are_the_raw_records_calls(run: Run) -> None:
    raw = _raw_rollout_calls(run.rollout)
    assert set(raw) == set(EXPECTED_EXIT)
    assert {k: v["exit_code"] for k, v in raw.items()} == EXPECTED_EXIT

    stats = _inspector("stats", "--json", str(run.rollout))
    assert stats.returncode == 0, stats.stderr
    figures = json.loads(stats.stdout)
    assert figures["format"] == "codex"
    assert figures["calls"] == len(raw) and figures["top_level"] == len(raw)
    failing = sum(1 for v in raw.values() if v["exit_code"] != 0)
    assert figures["states"]["failed"] == failing
    assert figures["states"]["succeeded"] == len(raw) - failing
    assert figures["states"]["pending"] == 0
    assert figures["tools"] == dict(Counter(call["tool"] for call in raw.values()))
    assert figures["malformed"] == 0 and figures["orphan_results"] == 0

    check = _inspector("check", str(run.rollout))
    assert check.returncode == 0, check.stdout + check.stderr

    shown = {call["id"]: call for call in _calls_in(run.rollout)}
    assert set(shown) == set(raw)
    for call_id, held in raw.items():
        call = shown[call_id]
        assert call["tool"] == held["tool"]
        assert call["params"] == held["params"]
        assert call["state"] == ("succeeded" if held["exit_code"] == 0 else "failed")
        result = call["results"][0]
        assert result["error_code"] == (None if held["exit_code"] == 0 else str(held["exit_code"]))
        assert result["data"] == held["printed"], call_id  # the output, Codex's header taken off
    assert "hi" in shown["call_echo_hi"]["results"][0]["data"].splitlines()
    assert "oops" in shown["call_exit_3"]["results"][0]["data"].splitlines()
    assert shown["call_slow"]["results"][0]["data"] == "done\n"  # decided by the poll, not "running"


def test_telemetry_shows_the_rollouts_calls(run: Run) -> None:
    """Codex's own OTLP export, received by ``otlp-listen``: the same calls as the rollout."""
    raw = _raw_telemetry_results(run.recording)
    assert set(raw) == set(EXPECTED_EXIT), f"codex.tool_result events: {sorted(raw)}"

    from_rollout = {call["id"]: call for call in _calls_in(run.rollout)}
    from_telemetry = {call["id"]: call for call in _calls_in(run.recording)}
    assert set(from_telemetry) == set(from_rollout)
    for call_id, want in from_rollout.items():
        got = from_telemetry[call_id]
        assert got["tool"] == want["tool"] == raw[call_id]["tool_name"]
        assert got["group"] == want["group"]  # conversation.id: the rollout's session id
        assert got["params"] == want["params"]
        assert got["state"] == want["state"], call_id
        got_result, want_result = got["results"][0], want["results"][0]
        for key in ("outcome", "error_code", "error_message", "data"):
            assert got_result[key] == want_result[key], (call_id, key)

    severities = {
        record.get("severityNumber")
        for body in _records(run.recording)
        for logs in body.get("resourceLogs", [])
        for scope in logs.get("scopeLogs", [])
        for record in scope.get("logRecords", [])
    }
    assert severities and all(isinstance(n, int) for n in severities), severities  # OTLP JSON: integers

    stats = _inspector("stats", "--json", str(run.recording))
    figures = json.loads(stats.stdout)
    assert figures["format"] == "otlp"
    assert figures["calls"] == len(raw) and figures["malformed"] == 0
    failing = sum(1 for code in EXPECTED_EXIT.values() if code != 0)
    assert figures["states"]["failed"] == failing and figures["states"]["pending"] == 0

    # and live: what the listener printed as the bodies came, each call as it was last printed
    last = {event["id"]: event for event in run.printed if event.get("event") == "call"}
    assert set(last) == set(from_rollout), run.printed[:10]
    for call_id, want in from_rollout.items():
        got = last[call_id]
        assert (got["tool"], got["state"], got["params"]) == (want["tool"], want["state"], want["params"])
        assert got["results"][0]["error_code"] == want["results"][0]["error_code"]
