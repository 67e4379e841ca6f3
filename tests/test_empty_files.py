"""An empty file is a session with no calls yet: its format from --format, its name or folder; follow waits."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from inspector.protocols import empty
from inspector.sources.session import resolve_format

SAMPLES = Path(__file__).resolve().parents[1] / "sample_sessions"
DEMO = SAMPLES / "demo.recording.jsonl"


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "inspector", *args], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("relative", "expected"),
    [
        ("5a3e0000-0000-4000-8000-000000000009.jsonl", "claude"),
        (".claude/projects/-home-dev-x/notes.jsonl", "claude"),
        ("s/subagents/agent-a1.jsonl", "claude"),
        ("room.recording.jsonl", "recording"),
        ("calls.rap.json", "rap"),
        ("lmkit/calls.json", "lmkit"),
        ("lm-kit-calls.jsonl", "lmkit"),
        ("envelopes.alicia.jsonl", "alicia"),
    ],
)
def test_an_empty_file_takes_the_format_its_name_or_folder_says(tmp_path, relative, expected):
    path = tmp_path / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    assert resolve_format(str(path)).name == expected


def test_an_empty_file_with_a_plain_name_reads_as_no_calls_and_forced_format_wins(tmp_path):
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"\n")
    module = resolve_format(str(path))
    assert module.name == empty.NAME and list(module.read(str(path))) == []
    assert resolve_format(str(path), "recording").name == "recording"


@pytest.mark.parametrize("forced", ["recording", "claude", "alicia", "rap", "lmkit"])
def test_every_format_reads_an_empty_file_as_no_calls(tmp_path, forced):
    path = tmp_path / "x.jsonl"
    path.write_bytes(b"")
    proc = run("dump", "--format", forced, str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""


def test_one_empty_file_among_several_does_not_stop_stats_or_check(tmp_path):
    blank = tmp_path / "started.jsonl"
    blank.write_bytes(b"")
    stats = run("stats", "--json", str(DEMO), str(blank))
    assert stats.returncode == run("stats", "--json", str(DEMO)).returncode, stats.stderr
    assert '"calls":' in stats.stdout and "started.jsonl" in stats.stdout
    check = run("check", str(blank), str(SAMPLES / "rap.jsonl"))
    assert check.returncode in (0, 1), check.stderr
    assert "not a format" not in check.stderr and check.stdout.strip()
