"""``--tools`` files: [[tool]] tables become AssistantToolsRegister entries; mistakes are named."""

from __future__ import annotations

import pytest

from inspector.live import hub_tools
from inspector.live.errors import SetupError


def test_tables_become_tools_with_input_schema_renamed():
    text = '[[tool]]\nname = "a"\ndescription = "A"\ninput_schema = { type = "object" }\n[[tool]]\nname = "b"\ndescription = ""\n'
    assert hub_tools.parse(text) == [
        {"name": "a", "description": "A", "inputSchema": {"type": "object"}},
        {"name": "b", "description": ""},
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "no [[tool]] tables"),
        ("tool = 3", "no [[tool]] tables"),
        ("[[tools]]\nname='a'", "unknown key 'tools'"),
        ("[[tool]]\nname = 'a'", "'description' must be a string"),
        (
            "[[tool]]\nname = 'a'\ndescription = 'x'\n[[tool]]\nname = 'a'\ndescription = 'y'",
            "declared twice",
        ),
        ("[[tool]]\nname = 'a'\ndescription = 'x'\nschema = {}", "unknown key 'schema'"),
        ("[[tool]]\nname = 'a'\ndescription = 'x'\ninput_schema = 'object'", "must be a table"),
        ("[[tool]]\nname = 'a'\ndescription = 'x'\ninput_schema = { d = 1979-05-27 }", "date or time"),
        ("[[tool", "not valid TOML"),
    ],
)
def test_mistakes_are_named(text, words):
    with pytest.raises(SetupError, match=words.replace("[", r"\[").replace("]", r"\]")):
        hub_tools.parse(text, "t.toml")


def test_unreadable_files_are_named(tmp_path):
    with pytest.raises(SetupError, match="cannot read it"):
        hub_tools.load(str(tmp_path / "missing.toml"))
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SetupError, match="not UTF-8"):
        hub_tools.load(str(binary))
