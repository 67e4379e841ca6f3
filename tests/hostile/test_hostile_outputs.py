"""Every output leaves nothing from a session or a peer active: no ESC, C1, bidi or markup (issue 9 item 6)."""

from __future__ import annotations

import io
import json
import re

import hostile_gen as gen
import pytest
from hostile_io import HEADLESS, alicia_request, alicia_result, envelope, jsonl, run_cli

from inspector.model import CallStore
from inspector.sources.files import load

EVIL = "\x1b]0;pwned\x07\x1b[2J[red]x[/red]\u009b31m\x85\u202eevil\u2066`<img src=x onerror=alert(1)>[l](javascript:x)"
ACTIVE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]"
)


def _session(tmp_path):
    records = [
        alicia_request(EVIL, toolName=EVIL, parameters={EVIL: EVIL}),
        alicia_result(EVIL, result={"out": EVIL}),
        envelope(2, {"id": "m1", "conversationId": "c1", "content": EVIL}),
        alicia_request("orphan-free", toolName="ok"),
    ]
    return jsonl(tmp_path / "evil.jsonl", records)


def _inert(text: str, what: str) -> None:
    found = ACTIVE.search(text)
    assert found is None, (
        f"{what}: {found.group(0)!r} at {found.start()}: {text[max(0, found.start() - 40) : found.start() + 40]!r}"
    )


def test_headless_commands(tmp_path):
    path = _session(tmp_path)
    for command in [*HEADLESS, ["dump", "--messages"]]:
        code, out, err = run_cli(*command, str(path))
        assert code in (0, 1), err
        _inert(out + err, " ".join(command))
    code, out, _ = run_cli("dump", str(path))
    assert "[red]x[/red]" in out  # markup is shown, not applied


def _store(tmp_path) -> CallStore:
    store = CallStore()
    load([str(_session(tmp_path))], store)
    return store


def test_exports_and_pager(tmp_path):
    from inspector.ui.export import copy_text, export_items, pager_text

    store = _store(tmp_path)
    items = list(store.items)
    for fmt in ("json", "md"):
        _inert(export_items(items, fmt, None, EVIL), f"export {fmt}")
    for item in items:
        _inert(pager_text(item, None), "pager")
        for choice in ("id", "params", "result", "call"):
            text = copy_text(item, choice, None)
            if text is not None and choice != "id":
                _inert(text, f"copy {choice}")
    markdown = export_items(items, "md", None, "t")
    heading = next(line for line in markdown.splitlines() if line.startswith("## ") and "evil" in line)
    # the tool name is text with nothing active; the id is one code span (its backtick cannot end it)
    name, span = heading[3:].split(" ``", 1)
    assert "<img" not in name and "[l](" not in name and "&lt;img" in name and r"\[l\]" in name
    assert span.endswith("``") and span.count("``") == 1 and "<img" in span


def test_live_printer_text_and_json(tmp_path):
    from inspector.live.printer import Printer

    for as_json in (False, True):
        out = io.StringIO()
        store = CallStore()
        Printer(store, out, as_json=as_json, color=False).attach()
        load([str(_session(tmp_path))], store)
        Printer(store, out, as_json=as_json, color=False).note("reconnecting", f"reconnecting: {EVIL}")
        assert out.getvalue()
        _inert(out.getvalue(), f"printer json={as_json}")


def test_room_log_and_server_events(capsys):
    from inspector.cli import room_cmd

    room_cmd._log(f"joined: {EVIL} in room {EVIL}")
    _inert(capsys.readouterr().err, "room log")
    from inspector.room.server import RoomServer

    lines: list[str] = []
    RoomServer(port=0, on_event=lines.append)._event(f"{EVIL} joined {EVIL}")
    assert lines
    _inert(lines[0], "room server event")


def _with_evil(value: str) -> str:
    """``value`` with EVIL in it; a JSON object in a string (arguments as the agents write them) gets it
    in its first member, where a format's summary of the arguments reads it."""
    try:
        inner = json.loads(value)
    except ValueError:
        return value + EVIL
    if isinstance(inner, dict) and inner:
        key = next(iter(inner))
        inner[key] = f"{inner[key]}{EVIL}" if isinstance(inner[key], str) else EVIL
        return json.dumps(inner)
    return value + EVIL


@pytest.mark.parametrize("kind", sorted(gen.BASES))
def test_every_text_field_of_every_format_stays_inert_in_every_headless_output(tmp_path, kind):
    """Each string of each record of each format's good session, EVIL in it (one at a time): every
    headless command's output is inert (Codex's and Gemini telemetry's argument summaries and the
    OTLP span's arguments reached ``dump`` raw: a summary is the session's text like any field)."""
    base = gen.BASES[kind][1]()
    forced = gen.FORCED.get(kind)
    tried = 0
    for index, (_, record) in enumerate(base):
        for path in gen.paths_of(record, deepest=12):
            value = record
            for key in path:
                value = value[key]
            if not isinstance(value, str):
                continue
            case = gen.write_mutated(tmp_path, kind, base, index, path, _with_evil(value), "case")
            for command in HEADLESS:
                code, out, err = run_cli(*command, str(case), *(["--format", forced] if forced else []))
                assert code in (0, 1, 2), (path, err)
                _inert(out + err, f"{kind} {' '.join(command)} with EVIL at record {index} {path}")
            tried += 1
    assert tried >= 3
