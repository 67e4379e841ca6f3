"""Every key binding of the inspector, each with an id (remappable through the config's [keys] table)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

if TYPE_CHECKING:
    from inspector.sources.base import Source


@dataclass(frozen=True)
class Key:
    """One binding: ``id`` for remapping, default ``keys``, the ``action`` it runs and where it applies."""

    id: str
    keys: str
    action: str
    description: str
    scope: str
    show: bool = False
    tooltip: str = ""
    priority: bool = False

    def binding(self) -> Binding:
        return Binding(
            self.keys,
            self.action,
            self.description,
            show=self.show,
            id=self.id,
            tooltip=self.tooltip or self.description,
            priority=self.priority,
        )


KEYS: tuple[Key, ...] = (
    # the call list (when it has focus)
    Key("cursor-down", "j,down", "cursor_down", "Next row", "list"),
    Key("cursor-up", "k,up", "cursor_up", "Previous row", "list"),
    Key("first", "g,home", "first", "First row", "list"),
    Key("last", "G,end", "last", "Last row", "list"),
    Key("page-down", "pagedown,ctrl+f", "page_down", "Page down", "list"),
    Key("page-up", "pageup,ctrl+b", "page_up", "Page up", "list"),
    Key(
        "select",
        "enter",
        "select",
        "Open / fold",
        "list",
        show=True,
        tooltip="Open the detail of the call, or fold/unfold the calls nested under it",
    ),
    Key("fold", "h,left", "fold", "Fold / go to parent", "list"),
    Key("unfold", "l,right", "unfold", "Unfold", "list"),
    # the timeline (when it has focus: + and - zoom there, and change the replay speed elsewhere)
    Key("zoom-in", "plus,equals_sign,greater_than_sign", "zoom(2)", "Zoom in", "timeline", show=True),
    Key("zoom-out", "minus,less_than_sign", "zoom(0.5)", "Zoom out", "timeline", show=True),
    Key("pan-left", "shift+left,H", "pan(-1)", "Pan left", "timeline"),
    Key("pan-right", "shift+right,L", "pan(1)", "Pan right", "timeline"),
    Key("fit-all", "z", "fit", "Fit all", "timeline", show=True, tooltip="Show the whole session"),
    Key("follow-now", "full_stop", "follow_now", "Follow now", "timeline", tooltip="Keep now at the right"),
    Key("idle-gaps", "c", "toggle_gaps", "Collapse gaps", "timeline", tooltip="Collapse or expand idle gaps"),
    # the detail pane (when it has focus; arrows, page keys, home and end scroll it too)
    Key("detail-down", "j", "scroll_down", "Scroll down", "detail"),
    Key("detail-up", "k", "scroll_up", "Scroll up", "detail"),
    Key("detail-top", "g", "scroll_home", "Top", "detail"),
    Key("detail-bottom", "G", "scroll_end", "Bottom", "detail"),
    Key("detail-page-down", "ctrl+f", "page_down", "Page down", "detail"),
    Key("detail-page-up", "ctrl+b", "page_up", "Page up", "detail"),
    # the main screen
    Key(
        "filter",
        "slash",
        "filter",
        "Filter",
        "main",
        show=True,
        tooltip="Filter: tool:GLOB state:STATE exec:WHO id:PREFIX group:G, free text, -negation",
        priority=True,  # taken as it arrives: the keys queued behind it then go to the filter box
    ),
    Key("next-match", "n", "next_match", "Next match", "main"),
    Key("prev-match", "N", "prev_match", "Previous match", "main"),
    Key("next-pending", "p", "jump('pending')", "Next pending", "main"),
    Key("next-failed", "e", "jump('failed')", "Next failed", "main"),
    Key("next-orphan", "o", "jump('orphan')", "Next orphan", "main"),
    Key("back", "escape", "back", "Back", "main"),
    Key("raw", "r", "toggle_raw", "Raw", "main", tooltip="Show the raw records of the call"),
    Key(
        "full-text",
        "f",
        "toggle_full_text",
        "Full text",
        "main",
        tooltip="Show the full text the model received instead of the display segments",
    ),
    Key("header", "H", "toggle_header", "Header row", "main", tooltip="Show or hide the list's header row"),
    Key("messages", "m", "toggle_messages", "Messages", "main", tooltip="Hide or show conversation messages"),
    Key(
        "follow", "F", "toggle_follow", "Follow", "main", show=True, tooltip="Watch the file for new records"
    ),
    Key("copy", "y", "copy", "Copy", "main", show=True, tooltip="Copy the id, parameters or result"),
    Key(
        "export",
        "x",
        "export",
        "Export",
        "main",
        tooltip="Write the selected call or the filtered view to a JSON or Markdown file",
    ),
    Key("pager", "P", "pager", "Pager", "main", tooltip="Open the payload in $PAGER"),
    Key(
        "answer", "a", "answer", "Answer", "main", show=True, tooltip="Answer a pending client request (live)"
    ),
    Key(
        "reclaim",
        "R",
        "reclaim",
        "Take the role back",
        "main",
        tooltip="Hub assistant displaced by another: subscribe as the assistant again (heartbeats resume)",
    ),
    Key(
        "play-pause", "space", "play_pause", "Play/pause", "main", show=True, tooltip="Replay: play or pause"
    ),
    Key("step-prev", "left_square_bracket", "step(-1)", "Step back", "main", show=True),
    Key("step-next", "right_square_bracket", "step(1)", "Step", "main", show=True),
    Key("faster", "plus,equals_sign", "speed(1)", "Faster", "main", show=True),
    Key("slower", "minus", "speed(-1)", "Slower", "main"),
    Key(
        "timeline",
        "w",
        "toggle_timeline",
        "Timeline",
        "main",
        show=True,
        tooltip="Switch the main area between the list, the timeline and both",
    ),
    Key("figures", "s", "toggle_figures", "Figures", "main", tooltip="Per-tool figures for the filter"),
    Key(
        "focus-detail",
        "tab",
        "focus_detail",
        "Detail",
        "main",
        tooltip="Move focus between the list and the detail (from a full-screen detail: back to both)",
    ),
    # the answer screen (ctrl+enter rarely reaches a terminal app: ctrl+j and alt+enter stand in)
    Key(
        "answer-send",
        "ctrl+s,ctrl+enter,ctrl+j,alt+enter",
        "send",
        "Send the answer",
        "answer",
        priority=True,
    ),
    Key(
        "answer-unknown-tool",
        "ctrl+u",
        "quick('unknown_tool')",
        "Answer: unknown tool",
        "answer",
        priority=True,
    ),
    Key("answer-timeout", "ctrl+t", "quick('timeout')", "Answer: timeout", "answer", priority=True),
    Key("answer-cancel", "escape", "cancel", "Cancel", "answer"),
    # the whole app
    Key("help", "question_mark,f1", "app.help", "Help", "app", show=True),
    Key("theme", "t", "app.cycle_theme", "Theme", "app", tooltip="Next theme"),
    Key("quit", "q", "app.quit", "Quit", "app", show=True),
)

BY_ID = {key.id: key for key in KEYS}

MODE_ACTIONS = {
    "play_pause": "replay",
    "step": "replay",
    "speed": "replay",
    "toggle_follow": "files",
    "answer": "live",
    "reclaim": "reclaim",
}
"""Actions that only mean something in one kind of session (hidden from the footer and palette elsewhere)."""


def session_mode(source: Source) -> str:
    """``replay``, ``live``, ``files`` or ``store``: which mode keys apply to ``source`` (from its
    capabilities)."""
    if source.can_seek:
        return "replay"
    return "live" if source.is_live else "files" if source.can_follow else "store"


def means_something(action: str, source: Source) -> bool:
    """False for the keys of another mode (replay transport, follow, answer), hidden from the footer and
    palette, and for taking a role back where no peer can take it (only the hub's assistant can)."""
    wanted = MODE_ACTIONS.get(action)
    if wanted == "reclaim":
        return source.can_reclaim
    return wanted is None or wanted == session_mode(source)


def action_name(action: str) -> str:
    """``step(1)`` -> ``step``; ``app.help`` -> ``help``."""
    return action.split("(", 1)[0].rsplit(".", 1)[-1]


def bindings(scope: str) -> list[BindingType]:
    return [key.binding() for key in KEYS if key.scope == scope]


CALL_LIST_BINDINGS = bindings("list")
TIMELINE_BINDINGS = bindings("timeline")
DETAIL_BINDINGS = bindings("detail")
MAIN_BINDINGS = bindings("main")
APP_BINDINGS = bindings("app")

SCOPE_TITLES = {
    "list": "Call list",
    "main": "Main screen",
    "timeline": "Timeline",
    "detail": "Detail (when it has focus)",
    "answer": "Answer screen",
    "app": "Everywhere",
}


def check_keymap(keymap: dict[str, object]) -> tuple[dict[str, str], list[str]]:
    """The usable part of a user's [keys] table, and one line per entry that was ignored."""
    usable: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, value in keymap.items():
        if binding_id not in BY_ID:
            problems.append(f"unknown key id {binding_id!r}")
        elif isinstance(value, str) and value.strip():
            usable[binding_id] = value.strip()
        elif isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
            usable[binding_id] = ",".join(v.strip() for v in value)
        else:
            problems.append(f"keys for {binding_id!r} must be a key name or a list of key names")
    return usable, problems


def overrides_of(app: object) -> dict[str, str]:
    """The keys the user remapped (``[keys]`` in the config) on ``app``, if it is the inspector's app."""
    found = getattr(app, "keymap_overrides", None)
    return found if isinstance(found, dict) else {}
