"""Textual's footer, recomposed only when the keys it shows change, and without keeping the keys it let go."""

from __future__ import annotations

from textual._styles_cache import StylesCache
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class SteadyFooter(Footer):
    """The footer of the main screens. Textual's recomposes on every change of bindings (each return
    from the help, each focus move), restyling every key; this one only when what it shows changed.

    Its keys take the footer's ``compact`` when made, not through a data binding: Textual's binding is a
    watcher of the footer's ``compact``, let go only when that value changes (it never does here), so
    every key of every earlier composition stayed in memory with its styles (60 focus moves: 390 keys,
    12 MB)."""

    def __init__(self) -> None:
        super().__init__()
        self._shown: tuple[tuple[str, str, str, bool, str], ...] | None = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        shown = tuple(
            (binding.key, binding.description, binding.action, enabled, tooltip)
            for _, binding, enabled, tooltip in screen.active_bindings.values()
            if binding.show
        )
        if shown == self._shown and self.children:  # composed already, with these very keys
            return
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._shown = shown
            _let_go_of_unmounted_styles()  # the keys about to go (see below)
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                # made in the footer's style: Textual's key is made compact, then bound to the footer's
                # (the palette's key is not bound: it stays compact), and each change restyled it
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
                if getattr(widget, "_reactive_connect", None):  # Textual's data_bind, not yet made a watcher
                    widget._reactive_connect = None
            yield widget


def _let_go_of_unmounted_styles() -> None:
    """Empty Textual's cache of each widget's inner and outer styles (``StylesCache.get_inner_outer``, an
    ``lru_cache`` of 1,024 entries on a method): its keys hold the widgets' style caches, rendered lines
    included, of widgets long gone, such as the keys of each earlier footer (200 focus moves kept 10 MB).
    It fills again as widgets draw (two styles per widget and background)."""
    cached = getattr(StylesCache, "get_inner_outer", None)
    clear = getattr(cached, "cache_clear", None)
    if clear is not None:
        clear()
