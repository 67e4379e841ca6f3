"""RenderTheme: the colours the detail renderers use, with dark, light and high-contrast defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING

from rich.style import Style

from inspector.model import State

if TYPE_CHECKING:
    from inspector.themes import ThemeSpec

_VARIABLE_FIELDS = {
    "call-pending": "pending",
    "call-overdue": "overdue",
    "call-succeeded": "succeeded",
    "call-failed": "failed",
    "call-timed-out": "timed_out",
    "call-canceled": "canceled",
    "call-denied": "denied",
    "call-orphan": "orphan",
    "call-violation": "violation",
    "diff-added": "diff_added",
    "diff-removed": "diff_removed",
    "diff-added-bg": "diff_added_bg",
    "diff-removed-bg": "diff_removed_bg",
    "line-number": "line_number",
    "json-key": "json_key",
    "json-string": "json_string",
    "json-number": "json_number",
    "json-literal": "json_literal",
    "muted": "muted",
    "heading": "heading",
    "syntax-style": "syntax_style",
}
"""Theme variable name (as in theme files and Textual theme variables) -> RenderTheme field."""


@dataclass(frozen=True)
class RenderTheme:
    """Colours (anything Rich parses: ``#rrggbb``, names) for the detail pane and ``inspector dump``.

    Build one with ``RenderTheme.dark()``, ``.light()``, ``.high_contrast()``, ``from_variables()``
    (Textual theme variables such as ``call-pending`` or ``diff-added-bg``) or ``from_spec()``.
    """

    pending: str = "#6cb6ff"
    overdue: str = "#ffa657"
    succeeded: str = "#7fd48c"
    failed: str = "#ef5f6b"
    timed_out: str = "#e5c07b"
    canceled: str = "#8b949e"
    denied: str = "#d2a8ff"
    orphan: str = "#f778ba"
    violation: str = "#ff7b72"
    diff_added: str = "#7fd48c"
    diff_removed: str = "#ef5f6b"
    diff_added_bg: str = "#12361f"
    diff_removed_bg: str = "#3d1419"
    diff_added_word_bg: str = "#1f6b3a"
    diff_removed_word_bg: str = "#7a2430"
    diff_hunk: str = "#79c0ff"
    line_number: str = "#6e7681"
    json_key: str = "#79c0ff"
    json_string: str = "#a5d6ff"
    json_number: str = "#ffa657"
    json_literal: str = "#d2a8ff"
    muted: str = "#8b949e"
    heading: str = "#4ea1ff"
    syntax_style: str = "monokai"
    dark_mode: bool = True

    # -- presets -------------------------------------------------------------------------------
    @classmethod
    def dark(cls) -> RenderTheme:
        return cls()

    @classmethod
    def light(cls) -> RenderTheme:
        return cls(
            pending="#0969da",
            overdue="#bc4c00",
            succeeded="#1a7f37",
            failed="#cf222e",
            timed_out="#9a6700",
            canceled="#6e7781",
            denied="#8250df",
            orphan="#bf3989",
            violation="#a40e26",
            diff_added="#1a7f37",
            diff_removed="#cf222e",
            diff_added_bg="#dafbe1",
            diff_removed_bg="#ffebe9",
            diff_added_word_bg="#aceebb",
            diff_removed_word_bg="#ffc1bd",
            diff_hunk="#0550ae",
            line_number="#8c959f",
            json_key="#0550ae",
            json_string="#0a3069",
            json_number="#953800",
            json_literal="#8250df",
            muted="#6e7781",
            heading="#0969da",
            syntax_style="default",
            dark_mode=False,
        )

    @classmethod
    def high_contrast(cls) -> RenderTheme:
        return cls(
            pending="#00ffff",
            overdue="#ffaf00",
            succeeded="#00ff00",
            failed="#ff5f5f",
            timed_out="#ffff00",
            canceled="#d0d0d0",
            denied="#ff00ff",
            orphan="#ff87ff",
            violation="#ff0000",
            diff_added="#00ff00",
            diff_removed="#ff5f5f",
            diff_added_bg="#003300",
            diff_removed_bg="#4a0000",
            diff_added_word_bg="#006600",
            diff_removed_word_bg="#8b0000",
            diff_hunk="#00ffff",
            line_number="#c0c0c0",
            json_key="#00ffff",
            json_string="#ffffff",
            json_number="#ffff00",
            json_literal="#ff00ff",
            muted="#c0c0c0",
            heading="#00ffff",
            syntax_style="github-dark",
        )

    @classmethod
    def named(cls, name: str) -> RenderTheme:
        """A preset by name: ``dark``, ``light`` or ``high-contrast`` (anything else gives dark)."""
        if name == "light":
            return cls.light()
        if name in ("high-contrast", "high_contrast"):
            return cls.high_contrast()
        return cls.dark()

    @classmethod
    def from_variables(cls, variables: Mapping[str, str], dark: bool = True) -> RenderTheme:
        """Start from the dark or light preset and take every known variable given (unknown ones ignored).

        Values Rich cannot parse as a colour are ignored, so a bad theme never breaks rendering.
        """
        base = cls.dark() if dark else cls.light()
        changes: dict[str, str] = {}
        for name, value in variables.items():
            field_name = _VARIABLE_FIELDS.get(name)
            if field_name is None or not isinstance(value, str):
                continue
            value = value.strip()
            if field_name == "syntax_style" or _is_rich_color(value):
                changes[field_name] = value
        return replace(base, dark_mode=dark, **changes)  # type: ignore[arg-type]

    @classmethod
    def from_spec(cls, spec: ThemeSpec) -> RenderTheme:
        """From a checked theme file (inspector.themes.ThemeSpec)."""
        return cls.from_variables(spec.variables, dark=spec.dark)

    # -- styles ----------------------------------------------------------------------------------
    def state_color(self, state: State | str) -> str:
        """The colour of a call state (``orphan`` and ``violation`` too)."""
        key = state.value if isinstance(state, State) else str(state)
        return getattr(self, key, self.muted) if key in _COLOR_FIELDS else self.muted

    def style(self, name: str, **extra: object) -> Style:
        """A Rich Style with the named colour as foreground (``bold=True`` etc. may be added)."""
        return Style(color=getattr(self, name), **extra)  # type: ignore[arg-type]


_COLOR_FIELDS = {f.name for f in fields(RenderTheme) if f.name not in ("syntax_style", "dark_mode")}


def _is_rich_color(value: str) -> bool:
    from rich.color import Color, ColorParseError

    try:
        Color.parse(value)
    except ColorParseError:
        return False
    return True
