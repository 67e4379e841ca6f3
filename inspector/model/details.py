"""Typed result details: the parts of a result a person wants to see, per kind of tool."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.model.diff import FileDiff, Hunk
from inspector.userpath import open_sized


@dataclass(slots=True)
class TextDetail:
    """Plain text output."""

    text: str


@dataclass(slots=True)
class BashDetail:
    stdout: str = ""
    stderr: str = ""
    interrupted: bool = False
    note: str | None = None
    background_id: str | None = None
    exit_code: int | None = None


@dataclass(slots=True)
class FileDetail:
    """File content as read (Read), or an image placeholder."""

    path: str
    content: str = ""
    start_line: int = 1
    num_lines: int | None = None
    total_lines: int | None = None
    is_image: bool = False
    mime: str | None = None


@dataclass(slots=True)
class PatchDetail:
    """A file change (Edit, MultiEdit, Write) as diff hunks."""

    path: str
    hunks: list[Hunk] = field(default_factory=list)
    kind: str = "update"
    content: str | None = None
    user_modified: bool = False
    from_request: bool = False
    """The hunks were computed from the request's own parameters (the result carried no diff)."""

    @property
    def file_diff(self) -> FileDiff:
        return FileDiff(self.path, self.hunks)


@dataclass(slots=True)
class TodoItem:
    content: str
    status: str = "pending"
    active_form: str = ""


@dataclass(slots=True)
class TodoDetail:
    old: list[TodoItem] = field(default_factory=list)
    new: list[TodoItem] = field(default_factory=list)


@dataclass(slots=True)
class FileListDetail:
    """Glob/Grep results."""

    files: list[str] = field(default_factory=list)
    num_files: int | None = None
    truncated: bool = False
    content: str | None = None
    mode: str | None = None
    num_lines: int | None = None


@dataclass(slots=True)
class FetchDetail:
    """WebFetch: the URL, the HTTP status and what came back."""

    url: str
    code: int | None = None
    code_text: str = ""
    size: int | None = None
    duration_ms: float | None = None
    result: str = ""


@dataclass(slots=True)
class SearchDetail:
    """WebSearch: the query and the results."""

    query: str
    results: list[Any] = field(default_factory=list)
    duration_s: float | None = None


@dataclass(slots=True)
class TaskDetail:
    """Task/Agent: the subagent run that the nested calls belong to."""

    agent_id: str | None = None
    status: str | None = None
    description: str = ""
    prompt: str = ""
    content: str = ""
    tool_count: int | None = None
    duration_ms: float | None = None
    tokens: int | None = None


@dataclass(slots=True)
class Segment:
    """One RAP ``display_as`` segment; ``diff`` segments carry their parsed file diffs."""

    type: str
    content: Any
    diffs: list[FileDiff] = field(default_factory=list)


@dataclass(slots=True)
class DisplayDetail:
    """RAP display segments plus the full text the model received."""

    segments: list[Segment] = field(default_factory=list)
    text: str = ""

    SUPPORTED = ("diff", "text")

    def preferred(self) -> Segment | None:
        """The first segment whose type the inspector renders (the spec's rule), else None."""
        for segment in self.segments:
            if segment.type in self.SUPPORTED:
                return segment
        return None


@dataclass(slots=True)
class PersistedDetail:
    """A result too large for the transcript: Claude Code saved it to a file and kept a preview.

    ``saved_as`` is the path the transcript names (on the machine that ran the session); ``local``
    is where that file is beside this transcript (``<session>/tool-results/<name>``). Nothing is
    read until :meth:`read` is called, when the result is shown.
    """

    saved_as: str
    local: str
    size: int | None = None
    preview: str = ""
    inner: Any = None  # the tool's own detail (a Bash result's flags and stderr), if it has one

    def read(self, limit: int) -> tuple[str | None, int, str]:
        """``(text, size, problem)``: up to ``limit`` bytes of the saved output, decoded as UTF-8, and
        the file's size; ``(None, 0, why)`` when it cannot be read here."""
        try:  # never blocks: a FIFO or device put there is refused, not waited on or read forever
            fh, size = open_sized(self.local)
            with fh:
                data = fh.read(max(0, limit))
        except FileNotFoundError as exc:
            return (
                None,
                0,
                "not found" if exc.strerror in (None, "No such file or directory") else exc.strerror,
            )
        except OSError as exc:
            return None, 0, exc.strerror or str(exc)
        return data.decode("utf-8", "replace"), size, ""
