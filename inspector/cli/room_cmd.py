"""Placeholder: room_cmd."""

from __future__ import annotations


def register(sub) -> None:
    pass
