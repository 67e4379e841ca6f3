"""Editable fields that show what they hold inertly: an Input's value and a pasted text reach the terminal
only as visible characters, never as control, escape or bidi characters.

Textual's Input writes its value to the terminal as it is: an id copied from a session (``y``) and pasted
into the filter, or a tool name the answer screen puts in its message, could hold ESC, C1 controls or a
bidi override that the terminal would act on (a title set, the clipboard written with OSC 52). The value
stays as typed (a filter compares it, an answer sends it); only what is drawn changes, one character for
one character, so the cursor and the selection stay where Textual puts them.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.expand_tabs import expand_tabs_inline
from textual.widgets import Input, TextArea

from inspector.textsafe import char_for_char


class InertInput(Input):
    """An Input whose value is drawn with :func:`~inspector.textsafe.char_for_char`'s stand-ins."""

    @property
    def _value(self) -> Text:
        if self.password:
            return super()._value
        text = Text(char_for_char(self.value), no_wrap=True, overflow="ignore", end="")
        return self.highlighter(text) if self.highlighter is not None else text

    def _position_to_cell(self, position: int) -> int:
        return cell_len(expand_tabs_inline(char_for_char(self.value[:position]), 4))


def json_escaped(text: str) -> str:
    """``text`` with each character a terminal could act on (but tabs and line breaks) written as its
    JSON ``\\u`` escape: raw, such a character is no valid JSON outside a string, and the same character
    inside one."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() or char in "\t\n\r" else f"\\u{ord(char):04x}" for char in text)


class JsonArea(TextArea):
    """A TextArea for a JSON answer: a paste holding characters a terminal could act on has them written
    as JSON escapes (what they mean in a JSON string), never drawn raw."""

    async def _on_paste(self, event: events.Paste) -> None:
        event.prevent_default()  # TextArea's own handler would insert the paste as it is
        if self.read_only:
            return
        if result := self._replace_via_keyboard(json_escaped(event.text), *self.selection):
            self.move_cursor(result.end_location)
            self.focus()
        event.stop()
