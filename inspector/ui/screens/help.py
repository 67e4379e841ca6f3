"""The help screen: every key binding (as remapped by the config), with what it does."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from inspector.textsafe import one_line
from inspector.ui import keys

KEY_NAMES = {
    "slash": "/",
    "question_mark": "?",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "plus": "+",
    "minus": "-",
    "equals_sign": "=",
    "escape": "esc",
    "pagedown": "pgdn",
    "pageup": "pgup",
    "space": "space",
    "enter": "enter",
    "tab": "tab",
}

INTRO = (
    "Filter grammar: tool:GLOB  state:pending|overdue|succeeded|failed|timed_out|canceled|denied|orphan|late|dup|violation  "
    'exec:server|client|either  id:PREFIX  group:G  param:TEXT  result:TEXT  error:TEXT  "free text" '
    "(also in parameters and results)  -term negates.  "
    "ctrl+p opens the command palette with every action."
)


def key_label(keys_text: str) -> str:
    """``j,down`` -> ``j / down``; Textual key names shown as the characters they stand for (cleaned:
    a name from the config holding ESC or BEL shows its stand-in, never acts on the terminal)."""
    names = (KEY_NAMES.get(k.strip(), k.strip()) for k in keys_text.split(",") if k.strip())
    return one_line(" / ".join(names), 200)


def bindings_table(overrides: dict[str, str]) -> Table:
    table = Table(box=None, show_header=True, header_style="bold", expand=True, pad_edge=False)
    table.add_column("keys", no_wrap=True, min_width=12, max_width=24)
    table.add_column("action", ratio=1, min_width=20)
    # a header string would be read as markup and lose "[keys]": give it as Text
    table.add_column(Text("id ([keys] in config)"), style="dim", no_wrap=True, min_width=21, max_width=24)
    for scope, title in keys.SCOPE_TITLES.items():
        table.add_row(Text(title, style="bold underline"), "", "")
        for key in keys.KEYS:
            if key.scope == scope:
                table.add_row(
                    Text(key_label(overrides.get(key.id, key.keys)), style="bold"),
                    Text(key.tooltip or key.description),
                    Text(key.id),
                )
        table.add_row("", "", "")
    return table


class HelpScreen(ModalScreen[None]):
    """Keys and the filter grammar; escape, q or ? closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 110; height: 90%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    """

    BINDINGS = [Binding("escape,q,question_mark", "close", "Close", id="help-close")]

    def compose(self) -> ComposeResult:
        overrides = keys.overrides_of(self.app)
        with VerticalScroll():
            yield Static(Text(INTRO, style="italic"), id="help-intro")
            yield Static(bindings_table(overrides), id="help-keys")

    def action_close(self) -> None:
        self.dismiss(None)
