"""Slash commands and their output read as the person typed and saw them, not as their markup."""

from __future__ import annotations

from claude_records_factory import record, write

from inspector.model import CallStore, Message
from inspector.protocols.claude.commands import command_text
from inspector.sources.files import load


def test_a_slash_command_and_its_output_are_messages_with_their_own_words(tmp_path):
    records = [
        record(
            "user",
            "<command-name>/context</command-name>\n<command-message>context</command-message>\n"
            "<command-args></command-args>",
        ),
        record("user", "<local-command-stdout>\x1b[1mContext Usage\x1b[22m 12k/200k</local-command-stdout>"),
        record(
            "user",
            "<command-message>orchestrator is running…</command-message>\n"
            "<command-name>/orchestrator</command-name>\n<command-args>create a TODO app</command-args>",
        ),
        record("user", "<local-command-stdout></local-command-stdout>"),
        record("user", "<b>not a command</b> but a person's text"),
    ]
    store = CallStore()
    load([str(write(tmp_path / "s.jsonl", records))], store=store)
    texts = [item.text for item in store.items if isinstance(item, Message)]
    assert texts == [
        "/context",
        "Context Usage 12k/200k",
        "/orchestrator create a TODO app",
        "(no output)",
        "<b>not a command</b> but a person's text",
    ]
    assert "<command-name>" in store.items[0].raw.read().decode()  # the raw record keeps the markup


def test_command_text_leaves_other_text_alone():
    assert command_text("plain") is None
    assert command_text("<command-name></command-name>") is None
    assert command_text("<command-name>model</command-name>") == "/model"
    assert command_text("<local-command-stdout>a</local-command-stdout> and more") is None
