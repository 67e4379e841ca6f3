"""Text for copy, export and the pager: a call's id, parameters, result, or calls as JSON or Markdown."""

from __future__ import annotations

import errno
import os
import re
import time
from typing import Any

from inspector.calltext import call_json
from inspector.model import Call, Malformed, Message, OrphanResult
from inspector.model.call import Item
from inspector.model.values import dumps_json, valid_text
from inspector.sources.session import hydrate, with_saved_outputs
from inspector.textsafe import clean, md_code, md_text, one_line
from inspector.timefmt import duration, iso8601
from inspector.userpath import create_new

COPY_CHOICES = (
    ("id", "Call id"),
    ("params", "Parameters (JSON)"),
    ("result", "Result (JSON)"),
    ("call", "The whole call (JSON)"),
)
EXPORT_CHOICES = (
    ("call-json", "Selected call as JSON"),
    ("call-md", "Selected call as Markdown"),
    ("view-json", "Filtered view as JSON"),
    ("view-md", "Filtered view as Markdown"),
)


def _dumps(value: Any) -> str:
    try:  # C1 controls, bidi overrides and lone surrogates become \u escapes (model/values.py)
        return dumps_json(value, indent=2)
    except (TypeError, ValueError, RecursionError):
        return clean(repr(value))


def item_json(item: Item, now: float | None) -> dict[str, Any]:
    """A JSON-ready dict for any list item (calls hydrated, with their nested calls)."""
    if isinstance(item, Call):
        request, results = hydrate(item)
        results = with_saved_outputs(results)  # a saved output in full, as the detail shows it
        data = call_json(item, now if now is not None else 0.0, request, results)
        if item.children:
            data["nested"] = [item_json(child, now) for child in item.children]
        return data
    if isinstance(item, OrphanResult):
        result = item.result
        return {
            "orphan_result": result.call_id,
            "tool": result.tool,
            "outcome": result.outcome.value,
            "ts": result.ts,
            "error_code": result.error_code,
            "error_message": result.error_message,
            "data": result.data,
            "where": result.raw.where if result.raw else None,
        }
    if isinstance(item, Message):
        return {"message": item.kind, "text": item.text, "ts": item.ts, "group": item.group}
    if isinstance(item, Malformed):
        return {"malformed": item.where, "reason": item.reason, "source": item.source}
    return {}


def copy_text(item: Item, choice: str, now: float | None) -> str | None:
    """The text ``choice`` (id, params, result, call) copies for ``item``; None when it has none."""
    if choice == "call":
        return _dumps(item_json(item, now))
    if isinstance(item, OrphanResult):
        return {"id": item.call_id, "result": _dumps(item.result.data), "params": None}.get(choice)
    if not isinstance(item, Call):
        return None
    if choice == "id":
        return item.call_id
    request, results = hydrate(item)
    if choice == "params":
        return _dumps(request.params)
    if choice == "result":
        if not results:
            return None
        first = results[0]
        if first.data is None and (first.error_code or first.error_message):
            return _dumps({"error_code": first.error_code, "error_message": first.error_message})
        return _dumps(first.data)
    return None


# What one OSC 52 copy may send: terminals cap it too (and drop the whole copy past their cap),
# and a 200 MB result must not become a 267 MB escape sequence. The rest goes with an export.
CLIPBOARD_LIMIT = 1_000_000


def clipboard_text(text: str, limit: int = CLIPBOARD_LIMIT) -> tuple[str, bool]:
    """What to put on the clipboard: valid UTF-8 that cannot act on a terminal (an id's ESC or BEL is
    shown as its stand-in, as on screen), at most ``limit`` characters; True when cut."""
    if len(text) <= limit:
        return clean(valid_text(text)), False
    return clean(valid_text(text[:limit])), True


def _fence(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def _block(text: str, lang: str = "json") -> list[str]:
    fence = _fence(text)
    return [f"{fence}{lang}", text, fence, ""]


def item_markdown(item: Item, now: float | None, level: int = 2) -> list[str]:
    """Markdown lines for an item (session text cleaned of control characters)."""
    hashes = "#" * min(level, 6)
    if isinstance(item, Call):
        data = item_json(item, now)
        lines = [
            f"{hashes} {md_text(one_line(item.tool, 120))} {md_code(one_line(item.call_id, 120))}",
            "",
            f"- state: {data['state']}",
            f"- executor: {data['executor'] or '-'}",
        ]
        if data["latency_ms"] is not None:
            lines.append(f"- latency: {duration(max(0.0, data['latency_ms']) / 1000.0)}")
        if item.request.violation:
            lines.append(f"- protocol violation: {one_line(item.request.violation, 300)}")
        lines.insert(3, f"- requested: {iso8601(item.request.ts)}")
        lines += ["", "Parameters:", "", *_block(clean(_dumps(data["params"])))]
        for index, result in enumerate(data["results"]):
            title = "Result" if index == 0 else f"Duplicate result {index}"
            lines += [f"{title} ({result['outcome']}, {iso8601(result['ts'])}):", ""]
            if result["error_code"] or result["error_message"]:
                said = ": ".join(
                    one_line(str(v), 300) for v in (result["error_code"], result["error_message"]) if v
                )
                lines += [f"- error: {md_text(said)}", ""]
            lines += _result_block(result["data"])
        for child in item.children:
            lines += item_markdown(child, now, level + 1)
        return lines
    data = item_json(item, now)
    title = next(iter(data), "item")
    if "ts" in data:
        data["ts"] = iso8601(data["ts"])
    return [f"{hashes} {md_text(title)}", "", *_block(clean(_dumps(data)))]


def _result_block(data: Any) -> list[str]:
    """A result as a reader wants it: text with its real lines (also a list of text blocks), else JSON."""
    text = data if isinstance(data, str) else _texts(data)
    if text is None:
        return _block(clean(_dumps(data)))
    return _block(clean(text), "text")


def _texts(data: Any) -> str | None:
    """The text of a list of content blocks (``[{"type": "text", "text": ...}]``), None for anything else."""
    if not isinstance(data, list) or not data:
        return None
    if not all(
        isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str) for b in data
    ):
        return None
    return "\n\n".join(block["text"] for block in data)


def without_nested_duplicates(items: list[Item]) -> list[Item]:
    """Drop calls whose parent call is exported too (the parent's export already holds them)."""
    chosen = {id(item) for item in items}

    def inside(item: Item) -> bool:
        parent = getattr(item, "parent", None)
        while parent is not None:
            if id(parent) in chosen:
                return True
            parent = parent.parent
        return False

    return [item for item in items if not inside(item)]


def export_items(items: list[Item], fmt: str, now: float | None, title: str) -> str:
    """The text of an export file: ``json`` (a list) or ``md``; nested calls appear under their parent."""
    items = without_nested_duplicates(items)
    if fmt == "json":
        return _dumps([item_json(item, now) for item in items]) + "\n"
    lines = [f"# {md_text(one_line(title, 200))}", "", f"{len(items)} item(s), exported by inspector.", ""]
    for item in items:
        lines += item_markdown(item, now)
    return "\n".join(lines)


def export_path(folder: str, what: str, fmt: str, clock: float | None = None) -> str:
    """A fresh file name in ``folder``: ``inspector-<what>-YYYYmmdd-HHMMSS.<fmt>`` (numbered if taken)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(clock if clock is not None else time.time()))
    base = os.path.join(folder, f"inspector-{what}-{stamp}")
    path = f"{base}.{fmt}"
    counter = 2
    while os.path.lexists(path):
        path = f"{base}-{counter}.{fmt}"
        counter += 1
    return path


def write_export(folder: str, what: str, fmt: str, text: str, clock: float | None = None) -> str:
    """Write ``text`` to a new file named as :func:`export_path` names it; returns its path.

    The file is created with ``O_EXCL | O_NOFOLLOW``: a name taken meanwhile (a file, or a symlink
    planted in a shared folder, dangling or not) is never written through; the next number is tried.
    """
    for _ in range(1000):
        path = export_path(folder, what, fmt, clock)
        try:
            with create_new(path) as fh:
                fh.write(text)
        except FileExistsError:
            continue
        return path
    raise FileExistsError(errno.EEXIST, "no free file name", folder)


def pager_text(item: Item, now: float | None) -> str:
    """What the pager shows: the whole item as indented JSON, cleaned for the terminal."""
    return clean(_dumps(item_json(item, now))) + "\n"
