"""An optional header row above the call list, naming its columns where the rows put them."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from inspector.ui.render.rows import Layout


class ListHeader(Static):
    """Column titles laid out as the rows are for the same width; hidden unless ``-shown``."""

    DEFAULT_CSS = """
    ListHeader { display: none; height: 1; text-style: bold; color: $text-muted; background: $background; }
    ListHeader.-shown { display: block; }
    CallsPane.-timeline ListHeader { display: none; }
    """

    def __init__(self, *, multi_source: bool, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.source_title = "file" if multi_source else ""

    def set_source_title(self, title: str) -> None:
        """The list's source column changed: ``file``, ``conv`` or none."""
        if title != self.source_title:
            self.source_title = title
            self.refresh()

    def on_mount(self) -> None:
        config = getattr(self.app, "config", None)
        self.set_class(bool(getattr(config, "list_header", False)), "-shown")

    def toggle(self) -> bool:
        """Show or hide the header; True when it is shown now."""
        self.toggle_class("-shown")
        return self.has_class("-shown")

    def render(self) -> Text:
        layout = Layout.for_width(max(1, self.size.width), bool(self.source_title))
        return header_text(layout, self.source_title or "file")


def header_text(layout: Layout, source_title: str = "file") -> Text:
    """The titles at the columns' positions for ``layout``."""
    cells = [" "] * layout.width
    titles: list[tuple[int, str]] = []
    if layout.show_clock:
        titles.append((0, "time"))
    if layout.source_width:
        titles.append((layout.badge_x - layout.source_width - 1, source_title))
    titles += [(layout.badge_x, "state"), (layout.timing_x + Layout.TIMING - len("took"), "took")]
    titles.append((layout.tool_x, "tool"))
    if layout.exec_width:
        titles.append((layout.tool_x + layout.tool_width, "exec"))
    titles.append((layout.summary_x, "summary"))
    for x, title in titles:
        for offset, char in enumerate(title):
            if 0 <= x + offset < layout.width:
                cells[x + offset] = char
    return Text("".join(cells).rstrip(), no_wrap=True, overflow="crop")
