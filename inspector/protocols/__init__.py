"""Wire formats: one module per format, each turning records or packets into model events.

Each format module ends with ``FORMAT``, a typed :class:`~inspector.protocols.format.Format` (name,
description, ``sniff`` with a score, ``read``, ``redecode``, and the optional ``decode_line``,
``read_set`` and ``raw_record``); this registry finds them by name or by sniffing a file's content.
Sniffing imports only each format's sniffer (``SNIFFERS``: a small module apart from a big reader); the
reader of the format found is imported when it is asked for.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from typing import BinaryIO

import inspector.protocols.common.jsonhead as _jsonhead
from inspector.model.events import Event
from inspector.protocols.format import Format, Sniff
from inspector.userpath import open_binary

# Order matters only for ties in sniffing: the most specific formats first.
FORMAT_NAMES = (
    "recording",
    "claude",
    "codex",
    "gemini",
    "otlp",
    "gemini_telemetry",
    "alicia",
    "rap",
    "lmkit",
)

# The module holding a format's ``sniff`` when it is not the format's own module (a package whose reader
# takes milliseconds to import); that format's ``FORMAT.sniff`` is the same function.
SNIFFERS = {
    "recording": "inspector.protocols.sniffers.recording",
    "claude": "inspector.protocols.sniffers.claude",
    "codex": "inspector.protocols.sniffers.codex",
    "gemini": "inspector.protocols.sniffers.gemini",
    "alicia": "inspector.protocols.sniffers.alicia",
    "rap": "inspector.protocols.sniffers.rap",
    "otlp": "inspector.protocols.sniffers.otlp",
    "gemini_telemetry": "inspector.protocols.sniffers.gemini_telemetry",
    "lmkit": "inspector.protocols.sniffers.lmkit",
}

HEAD_BYTES = 64 * 1024
SHORT_HEAD = 256 * 1024  # the shortened head's bytes (long strings cut), past which a first record's end
SCAN_BYTES = 1024 * 1024 * 1024  # how far a shortened head reads, at most (one pass, bounded blocks)
LATER_HEADS = 3  # first records passed over, each in turn, when a first line overruns the head


class UnknownFormat(Exception):
    """No format accepted the file."""


class FormatError(ValueError):
    """A file of a known format that cannot be read at all (e.g. written by a newer version)."""


def get(name: str) -> Format:
    """The format called ``name`` (its module is imported the first time it is asked for)."""
    if name not in FORMAT_NAMES:
        raise UnknownFormat(f"unknown format {name!r} (known: {', '.join(FORMAT_NAMES)})")
    found = importlib.import_module(f"inspector.protocols.{name}").FORMAT
    assert isinstance(found, Format), f"inspector.protocols.{name}.FORMAT is not a Format"
    return found


def release_buffers() -> None:
    """Let go of what the readers read so far keep for their next read (a reader of lines keeps a 256 KB
    buffer between files): for a process that has read its files and stays up (the app)."""
    for name in FORMAT_NAMES:
        module = sys.modules.get(f"inspector.protocols.{name}")
        release = getattr(module, "release_buffers", None)
        if release is not None:
            release()


def detect(path: str) -> Format:
    """Pick the format of ``path`` from its content (the name only breaks ties).

    The head of the file decides; when a first record is longer than the head (one hostile or huge
    line), the heads after it are tried too, so one record never hides the format of the rest.
    """
    with open_binary(path) as fh:
        for head in _heads(fh):
            if head.startswith(_LFS_POINTER):
                raise UnknownFormat(
                    f"{path}: a Git LFS pointer, not the file itself (get it with: git lfs pull)"
                )
            found = _best(path, head)
            if found is not None:
                return found
    raise UnknownFormat(f"{path}: not a format the inspector reads (tried {', '.join(FORMAT_NAMES)})")


# What a repository cloned without Git LFS holds in place of a large file (real: a committed ~/.codex whose
# rollouts were kept in LFS); its three lines are no session, and one of them looked like Alicia's hex.
_LFS_POINTER = b"version https://git-lfs.github.com/spec/v1\n"


def _best(path: str, head: bytes) -> Format | None:
    best: tuple[int, str] | None = None
    for name in FORMAT_NAMES:
        sniff = _sniffer(name)
        if sniff is None:
            continue  # a format being written; every shipped format is tested to import
        score = sniff(path, head)
        if score > 0 and (best is None or score > best[0]):
            best = (score, name)
    return None if best is None else get(best[1])


def _sniffer(name: str) -> Sniff | None:
    """The ``sniff`` of format ``name``, imported from its sniffer module alone where it has one; None
    when its module does not exist (yet)."""
    module = SNIFFERS.get(name, f"inspector.protocols.{name}")
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        return None
    sniff: Sniff = found.FORMAT.sniff if name not in SNIFFERS else found.sniff
    return sniff


def first_head(fh: BinaryIO) -> bytes:
    """What detection looks at first in an open file: its head, or its first line whole with its long
    strings shortened when that line runs past the head (for a reader that looks a session's id or
    start up in the head: a long leading field hides it no more than it hides the format)."""
    return next(_heads(fh), b"")


def _heads(fh: BinaryIO) -> Iterator[bytes]:
    """The file's head (``HEAD_BYTES``), then, when it decides nothing or its first line overruns it,
    the file's start with its long JSON strings shortened (``jsonhead.shortened_head``), read on through
    the first record whatever its length (within ``SCAN_BYTES``) and the records after it: a record
    whose field runs past the head (a pasted image, a file's contents, long instructions) or a document
    whose keys come after long messages shows its keys and shape all the same, so no field's length and
    no record's decides the format. A first line that overruns the head is shown shortened first (its
    cut head would only mislead), then as it is (a binary stream is judged by its first bytes), then
    from the next record on (up to ``LATER_HEADS`` times: a first value too deep to parse)."""
    head = fh.read(HEAD_BYTES)
    if len(head) < HEAD_BYTES:
        yield head  # the whole file
        return
    overruns = b"\n" not in head.rstrip(b"\r\n")
    if not overruns:
        yield head
    short, cut, after = _jsonhead.shortened_head(fh, head, size=SHORT_HEAD, scan=SCAN_BYTES)
    if cut or overruns:
        yield short
    if not overruns:
        return
    yield head
    for _ in range(LATER_HEADS):  # a first value no parser reads (too deep) hides not the records after it
        if after is None or not fh.seekable():
            return
        fh.seek(after)
        start = fh.read(HEAD_BYTES)
        if not start.strip():
            return
        short, _, later = _jsonhead.shortened_head(fh, start, size=SHORT_HEAD, scan=SCAN_BYTES, offset=after)
        yield short
        after = later


def readers(
    files: list[tuple[str, Format]], *, details: bool = True, lean: bool = False
) -> list[Iterator[Event]]:
    """The events of each ``(path, format)``, in order; nothing is read until iterated.

    Files of a format that offers ``read_set`` are read as one set (each iterator still yields
    only its own file's events). ``details=False``: the results' details will be dropped, so a
    format with a bare reading (``read_bare``) does not build them. ``lean``: payloads kept, details
    not shown (``read_lean`` where a format has it).
    """
    found: list[Iterator[Event] | None] = [None] * len(files)
    by_format: dict[int, list[int]] = {}
    for index, (_, fmt) in enumerate(files):
        by_format.setdefault(id(fmt), []).append(index)
    for indexes in by_format.values():
        fmt = files[indexes[0]][1]
        read_set = fmt.set_reader(details, lean)
        if read_set is not None and len(indexes) > 1:
            for index, events in zip(indexes, read_set([files[i][0] for i in indexes]), strict=True):
                found[index] = events
        else:
            read = fmt.reader(details, lean)
            for index in indexes:
                found[index] = read(files[index][0])
    return [events for events in found if events is not None]
