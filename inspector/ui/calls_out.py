"""Taking calls out of the inspector: copy (OSC 52), export to a file, open in ``$PAGER``."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable
from typing import Any

from textual.app import App, SuspendNotSupported

from inspector.model.call import Item
from inspector.textsafe import clean
from inspector.ui import export
from inspector.ui.screens.menus import ChoiceMenu


class CallsOut:
    """The copy, export and pager service of a screen; every outcome is told in a notification."""

    def __init__(self, app: App[Any], export_dir: str | None = None) -> None:
        self.app = app
        self.export_dir = export_dir

    def copy(self, item: Item, now: float | None) -> None:
        """Ask what to copy of ``item`` (id, parameters, result...) and put it on the clipboard."""

        def copy(choice: str | None) -> None:
            if choice is None:
                return
            text = export.copy_text(item, choice, now)
            if text is None:
                self.app.notify("Nothing to copy for that item.", severity="warning", timeout=3)
                return
            sent, cut = export.clipboard_text(text)
            self.app.copy_to_clipboard(sent)
            label = dict(export.COPY_CHOICES)[choice].lower().removeprefix("the ")  # not "the the"
            if cut:  # say so, as terminals that cap OSC 52 do not
                self.app.notify(
                    f"Copied the first {len(sent):,} of {len(text):,} characters of the {label} "
                    "(the clipboard's cap); export it (x) for all of it.",
                    severity="warning",
                    timeout=6,
                )
                return
            self.app.notify(f"Copied the {label} ({len(text)} characters).", timeout=3)

        self.app.push_screen(ChoiceMenu("Copy", export.COPY_CHOICES), copy)

    def export(
        self, item: Item | None, matched: Callable[[], list[Item]], title: str, now: float | None
    ) -> None:
        """Ask call or view, JSON or Markdown; write the file and say where."""

        def write(choice: str | None) -> None:
            if choice is None:
                return
            what, fmt = choice.split("-")
            if what == "call":
                if item is None:
                    self.app.notify("No call selected.", severity="warning", timeout=3)
                    return
                items = [item]
            else:
                items = matched()
            text = export.export_items(items, fmt, now, title)
            folder = self.export_dir or os.getcwd()
            try:
                path = export.write_export(folder, "call" if what == "call" else "view", fmt, text)
            except OSError as exc:
                where = clean(exc.filename or folder, keep_newlines=False)
                self.app.notify(f"Cannot write {where}: {exc.strerror or exc}", severity="error", timeout=6)
                return
            self.app.notify(f"Wrote {len(items)} item(s) to {path}", title="Exported", timeout=6)

        self.app.push_screen(ChoiceMenu("Export", export.EXPORT_CHOICES), write)

    def pager(self, item: Item, now: float | None) -> None:
        """Hand the terminal to ``$PAGER`` (default ``less -R``) on the item as JSON."""
        text = export.pager_text(item, now)
        pager = os.environ.get("PAGER") or "less -R"
        with tempfile.NamedTemporaryFile(
            "w", suffix=".json", prefix="inspector-", delete=False, encoding="utf-8"
        ) as fh:
            fh.write(text)
            path = fh.name
        try:
            with self.app.suspend():
                subprocess.call([*shlex.split(pager), path])
        except SuspendNotSupported:
            self.app.notify("This terminal cannot hand over to a pager.", severity="warning", timeout=4)
        except (OSError, ValueError) as exc:
            self.app.notify(f"Cannot run the pager {pager!r}: {exc}", severity="error", timeout=6)
        finally:
            try:
                os.unlink(path)
            except OSError:
                pass
