"""``--tools tools.toml``: the tools the inspector registers as Alicia's assistant (``[[tool]]`` tables).

```toml
[[tool]]
name = "get_battery"
description = "Battery level of the phone"
input_schema = { type = "object", properties = {} }   # optional
```

Each becomes ``{name, description, inputSchema}`` of an AssistantToolsRegister (longregen/alicia
``shared/protocol/types.go``, ``AssistantTool``). Mistakes are told with the table's number, never a
traceback.
"""

from __future__ import annotations

import sys
from typing import Any

from inspector.live.errors import SetupError
from inspector.smallfile import loads_toml
from inspector.userpath import open_binary

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

MAX_BYTES = 1 << 20


def load(path: str) -> list[dict[str, Any]]:
    """The tools declared in ``path``; raises :class:`SetupError` saying what is wrong and where."""
    try:
        with open_binary(path) as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise SetupError(f"--tools {path}: cannot read it ({exc.strerror or exc})") from None
    if len(raw) > MAX_BYTES:
        raise SetupError(f"--tools {path}: larger than {MAX_BYTES:,} bytes; is it the right file?")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SetupError(f"--tools {path}: not UTF-8 text") from None
    return parse(text, path)


def parse(text: str, path: str = "<tools>") -> list[dict[str, Any]]:
    try:
        doc = loads_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(f"--tools {path}: not valid TOML: {exc}") from None
    unknown = sorted(k for k in doc if k != "tool")
    if unknown:
        raise SetupError(f"--tools {path}: unknown key {unknown[0]!r}; tools are [[tool]] tables")
    tables = doc.get("tool", [])
    if not isinstance(tables, list) or not tables:
        raise SetupError(f"--tools {path}: no [[tool]] tables (each needs name and description)")
    tools: list[dict[str, Any]] = []
    seen: set[str] = set()
    for number, table in enumerate(tables, 1):
        where = f"--tools {path}: tool {number}"
        name, description = table.get("name"), table.get("description")
        if not isinstance(name, str) or not name.strip():
            raise SetupError(f"{where}: 'name' must be a non-empty string")
        if name in seen:
            raise SetupError(f"{where}: the name {name!r} is declared twice")
        if not isinstance(description, str):
            raise SetupError(f"{where} ({name}): 'description' must be a string")
        extra = sorted(k for k in table if k not in ("name", "description", "input_schema"))
        if extra:
            raise SetupError(f"{where} ({name}): unknown key {extra[0]!r} (name, description, input_schema)")
        tool: dict[str, Any] = {"name": name, "description": description}
        schema = table.get("input_schema")
        if schema is not None:
            if not isinstance(schema, dict):
                raise SetupError(f"{where} ({name}): 'input_schema' must be a table")
            if not _plain(schema):
                raise SetupError(f"{where} ({name}): 'input_schema' holds a date or time; use strings")
            tool["inputSchema"] = schema
        seen.add(name)
        tools.append(tool)
    return tools


def _plain(value: Any) -> bool:
    """True for what JSON Schema can hold (TOML dates and times cannot travel as MessagePack)."""
    if isinstance(value, dict):
        return all(_plain(v) for v in value.values())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return isinstance(value, (str, int, float, bool))
