"""dump, stats and check with --filter (the UI's grammar and messages), several files named, stats --per-file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.model.filter import FilterError, parse_filter

SAMPLES = Path(__file__).resolve().parents[1] / "sample_sessions"
DEMO = str(SAMPLES / "demo.recording.jsonl")
RAP = str(SAMPLES / "rap.jsonl")
CLAUDE = str(SAMPLES / "claude" / "-home-dev-demo-app" / "5a3e0000-0000-4000-8000-000000000001.jsonl")


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "inspector", *args], capture_output=True, text=True, timeout=60
    )


def calls(proc) -> list[dict]:
    return [row for row in map(json.loads, proc.stdout.splitlines()) if "tool" in row]


@pytest.mark.parametrize("expr", ["state:bogus", 'tool:"x', "color:red", "-", "exec:robot"])
def test_a_bad_filter_gets_the_uis_message_with_a_caret_and_exit_2(expr):
    with pytest.raises(FilterError) as caught:
        parse_filter(expr)
    for command in ("dump", "stats", "check"):
        proc = run(command, "--filter", expr, DEMO)
        assert proc.returncode == 2 and proc.stdout == ""
        first, shown, caret = proc.stderr.splitlines()
        assert first == f"inspector: --filter: {caught.value.message} (column {caught.value.position + 1})"
        assert shown == f"  {expr}" and caret == "  " + " " * caught.value.position + "^"


def test_dump_keeps_what_the_filter_matches_and_a_negation_is_not_an_option():
    every = calls(run("dump", "--json", DEMO))
    failed = calls(run("dump", "--json", "--filter", "state:failed", DEMO))
    assert failed and all(row["state"] == "failed" for row in failed) and len(failed) < len(every)
    not_ok = calls(run("dump", "--json", "--filter", "-state:ok", DEMO))
    assert {row["id"] for row in not_ok} == {row["id"] for row in every if row["state"] != "succeeded"}


def test_dump_text_keeps_a_parent_as_the_context_of_a_nested_match():
    full = run("dump", CLAUDE).stdout.splitlines()
    nested = [line for line in full if line.startswith("  ") and line.strip()[:1].isdigit()]
    assert nested, "the sample has nested calls"
    tool = nested[0].split()[2]  # Glob, under the Task
    shown = run("dump", "--filter", f"tool:{tool}", CLAUDE).stdout.splitlines()
    assert nested[0] in shown and not shown[0].startswith(" ")  # its Task stays above it
    assert len(shown) < len(full)


def test_stats_counts_only_what_matches_and_per_file_splits_the_figures():
    figures = json.loads(
        run("stats", "--json", "--per-file", "--filter", "tool:book_table,deploy", DEMO, RAP).stdout
    )
    assert figures["filter"] == "tool:book_table,deploy" and figures["calls"] == 2
    per_file = {Path(one["path"]).name: one for one in figures["per_file"]}
    assert per_file["demo.recording.jsonl"]["tools"] == {"book_table": 1}
    assert per_file["rap.jsonl"]["tools"] == {"deploy": 1}
    whole = json.loads(run("stats", "--json", "--per-file", DEMO, RAP).stdout)
    assert sum(one["calls"] for one in whole["per_file"]) == whole["calls"]
    assert sum(one["orphan_results"] for one in whole["per_file"]) == whole["orphan_results"]
    text = run("stats", "--per-file", DEMO, RAP).stdout
    assert text.count("demo.recording.jsonl") >= 2 and "file " in text


def test_check_names_the_file_in_each_line_with_several_files_and_filters():
    lines = run("check", DEMO, RAP).stdout.splitlines()
    assert lines and all(line.startswith((DEMO + " ", RAP + " ")) for line in lines)
    assert any(line.startswith(RAP) for line in lines) and any(line.startswith(DEMO) for line in lines)
    alone = run("check", DEMO).stdout.splitlines()
    assert alone[0].startswith("line ")
    only = run("check", "--filter", "state:orphan", DEMO, RAP).stdout.splitlines()
    assert only and all("orphan result" in line for line in only)
