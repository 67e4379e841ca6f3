"""What the command line hands to the app: paths, format, theme, follow/replay and where things go."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class UiOptions:
    """Options of ``inspector open`` (and the shared part of ``inspector live``)."""

    paths: list[str] = field(default_factory=list)
    format: str | None = None
    theme: str | None = None
    follow: bool = False
    replay: bool = False
    speed: float = 1.0
    claude_dir: str | None = None
    codex_dir: str | None = None
    gemini_dir: str | None = None
    hide_messages: bool = False
    export_dir: str | None = None
    otlp: str | None = None
    """``--otlp URL``: the calls sent as OpenTelemetry spans as they end (inspector.live.otlp_out)."""
    otlp_content: bool = False
    otlp_content_limit: int = 4096
    tick: float = 0.25
    opening: list[str] = field(default_factory=list)
    """What opening the paths found to say: a folder's file skipped, subagents shown without their session."""
    theme_dirs: list[str] | None = None
