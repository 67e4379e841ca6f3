"""Claude's /context output keeps terminal sequences in the transcript: it reads as text, never acts."""

from __future__ import annotations

import json

from claude_records_factory import record, write

from inspector.model import Message
from inspector.protocols import claude
from inspector.textsafe import clean

CONTEXT = (
    "<local-command-stdout>\x1b[?2026h\x1b[?2026l\x1b[?2026h\n \x1b[1mContext Usage\x1b[22m\n"
    "\x1b[38;2;136;136;136m⛁ ⛀ \x1b[39m  66k/200k tokens (33%)\x1b]52;c;aGk=\x07</local-command-stdout>"
)


def messages(path) -> list[Message]:
    return [event for event in claude.read(str(path)) if isinstance(event, Message)]


def test_context_output_reads_as_text_and_other_escapes_stay_visible(tmp_path):
    path = write(tmp_path / "s.jsonl", [record("user", CONTEXT)])
    [message] = messages(path)
    shown = clean(message.text)
    assert "Context Usage" in shown and "66k/200k tokens (33%)" in shown
    assert "[?2026h" not in shown and "[38;2" not in shown and "[1m" not in shown
    assert "␛]52;c;aGk=" in shown and "\x1b" not in shown  # not styling: neutralised, still visible


def test_the_same_sequences_in_a_users_typed_text_stay_visible(tmp_path):
    path = write(tmp_path / "s.jsonl", [record("user", "look: \x1b[31mred\x1b[0m")])
    [message] = messages(path)
    assert clean(message.text) == "look: ␛[31mred␛[0m"


def test_a_real_context_output_from_the_corpus(corpus):
    path = (
        corpus
        / "claude"
        / "daaain-real_projects"
        / "-src-deep-manifest"
        / "a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl"
    )
    if not path.exists():
        import pytest

        pytest.skip("the corpus session with /context output is not here")
    # the output's own text, its <local-command-stdout> markup taken off (test_claude_commands.py)
    outputs = [m.text for m in messages(path) if "Context Usage" in m.text]
    assert outputs and all("\x1b" not in text for text in outputs)
    assert json.dumps(outputs[0])  # plain text
