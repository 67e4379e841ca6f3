"""RAP message fields read strictly: strings, ids, flags and times, or a schema error naming the field."""

from __future__ import annotations

from typing import Any

import inspector.protocols.common.values as _values

ERROR_PREFIX = "Error: "


class Invalid(ValueError):
    """A message that breaks the RAP schema; becomes a Malformed event."""


def type_name(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def text_field(msg: dict[str, Any], key: str, required: bool = False) -> str | None:
    """A string field; None when absent or null (an error when required)."""
    value = msg.get(key)
    if value is None:
        if required:
            raise Invalid(f"missing {key!r}")
        return None
    if not isinstance(value, str):
        raise Invalid(f"{key!r} must be a string, not {type_name(value)}")
    return value


def ident(msg: dict[str, Any], key: str) -> str:
    value = text_field(msg, key, required=True)
    if not value:
        raise Invalid(f"empty {key!r}")
    return value


def flag(msg: dict[str, Any], key: str) -> bool:
    value = msg.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise Invalid(f"{key!r} must be a boolean, not {type_name(value)}")
    return value


def timestamp(obj: dict[str, Any]) -> float | None:
    for key in ("ts", "time", "timestamp"):
        if key in obj:
            return _values.parse_time(obj[key])
    return None


def present(msg: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: msg[key] for key in keys if msg.get(key) is not None}


def group_of(msg: dict[str, Any]) -> str:
    return text_field(msg, "group_id") or ""
