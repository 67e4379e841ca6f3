"""A small modal menu of choices (copy what, export how); returns the chosen key or None."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option


class ChoiceMenu(ModalScreen[str | None]):
    """``choices`` are (key, label) pairs; enter picks one, escape closes without a choice."""

    DEFAULT_CSS = """
    ChoiceMenu { align: center middle; }
    ChoiceMenu > Vertical {
        width: auto; min-width: 36; max-width: 80%; height: auto;
        border: round $primary; background: $surface; padding: 0 1;
    }
    ChoiceMenu OptionList { height: auto; border: none; }
    ChoiceMenu Label { text-style: bold; }
    """

    BINDINGS = [Binding("escape", "cancel", "Close", id="menu-close")]

    def __init__(self, title: str, choices: tuple[tuple[str, str], ...]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            yield OptionList(*[Option(label, id=key) for key, label in self.choices])

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
