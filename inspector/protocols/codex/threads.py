"""Codex sub-agent threads nested under the call that spawned them.

A ``spawn_agent`` call's ``collab_agent_spawn_end`` event names the thread it started (``new_thread_id``);
that thread is a rollout of its own, ``rollout-<time>-<thread id>.jsonl``, in the same date folder or
another one under the same ``sessions`` root (its ``session_meta.source.subagent.thread_spawn`` names
the parent thread). Its calls and messages are read after the parent's and placed under the spawn call.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Callable, Iterator

from inspector.model.events import Event
from inspector.protocols.common.nesting import nest_files

_THREAD = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{7,80}")
_DAY = re.compile(r"\d{4}[/\\]\d{2}[/\\]\d{2}$")


def child_file(parent_path: str, thread: str) -> str | None:
    """The rollout of thread ``thread``: beside the parent, else anywhere under its sessions root."""
    if not _THREAD.fullmatch(thread):
        return None
    folder = os.path.dirname(os.path.abspath(parent_path))
    name = f"rollout-*-{glob.escape(thread)}.jsonl"
    found = sorted(glob.glob(os.path.join(glob.escape(folder), name)))
    if not found and _DAY.search(folder):
        root = os.path.dirname(os.path.dirname(os.path.dirname(folder)))
        found = sorted(glob.glob(os.path.join(glob.escape(root), "*", "*", "*", name)))
    return found[0] if found else None


def nested(
    parent_path: str,
    children: dict[str, str],
    read: Callable[[str, set[str]], Iterator[Event]],
    seen: set[str],
) -> Iterator[Event]:
    """The events of each spawned thread whose rollout is here, top-level ones under their spawn call."""
    found = ((child_file(parent_path, thread), call_id) for thread, call_id in children.items())
    return nest_files(found, read, seen, "sub-agent thread")
