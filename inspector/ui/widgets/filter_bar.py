"""The filter bar: the filter box and the line under it that says where a filter's mistake is.

It parses what is typed (a short pause after the last key, or enter) and posts :class:`FilterBar.Chosen`
with the filter; a mistake is shown under the box (a caret at its column) and nothing is posted, so the
filter before stays. Which rows the filter keeps is the calls pane's work; the screen passes it on.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, Static

from inspector.model.filter import Filter, FilterError, parse_filter
from inspector.model.search import Payloads
from inspector.textsafe import one_line
from inspector.ui.widgets.filter_box import FilterBox

TYPING_PAUSE = 0.2
"""Seconds after the last key before what is typed is applied."""


class FilterBar(Vertical):
    """The box (``#filter``, shown while ``-open``) over its mistake (``#filter-error``, with ``-error``);
    styled in main.tcss."""

    class Chosen(Message):
        """A filter was typed (``submitted``: with enter) and parsed."""

        def __init__(self, flt: Filter, submitted: bool) -> None:
            super().__init__()
            self.filter = flt
            self.submitted = submitted

    def __init__(self, payloads: Callable[[], Payloads], *, placeholder: str, id: str | None = None) -> None:
        """``payloads`` gives what free text and param:/result: terms search (the screen's sessions')."""
        super().__init__(id=id)
        self.payloads = payloads
        self.placeholder = placeholder
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield FilterBox(placeholder=self.placeholder, id="filter")
        yield Static("", id="filter-error")

    @property
    def box(self) -> Input:
        return self.query_one("#filter", Input)

    def open(self) -> None:
        """Show the box with the focus in it now (``Widget.focus`` would wait for an idle moment, and the
        keys typed right behind the filter key would go to the list)."""
        self.set_class(True, "-open")
        self.screen.set_focus(self.box)

    def close(self) -> None:
        self.set_class(False, "-open")

    def parse(self, text: str) -> Filter | None:
        """The filter ``text`` says; on a mistake, None, and where it is shown under the box."""
        error = self.query_one("#filter-error", Static)
        try:
            flt = parse_filter(text, self.payloads())  # free text also searches parameters and results
        except FilterError as exc:
            said = one_line(exc.message, 300)  # it quotes what was typed or pasted, ESC and all
            error.update(Text(f"{' ' * (exc.position + 3)}^ column {exc.position + 1}: {said}"))
            self.set_class(True, "-error")
            return None
        error.update("")
        self.set_class(False, "-error")
        return flt

    def _choose(self, text: str, submitted: bool) -> None:
        flt = self.parse(text)
        if flt is not None:
            self.post_message(self.Chosen(flt, submitted))

    @on(Input.Changed, "#filter")
    def _changed(self, event: Input.Changed) -> None:
        if self._timer is not None:
            self._timer.stop()
        value = event.value
        self._timer = self.set_timer(TYPING_PAUSE, lambda: self._choose(value, False))

    @on(Input.Submitted, "#filter")
    def _submitted(self, event: Input.Submitted) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._choose(event.value, True)
