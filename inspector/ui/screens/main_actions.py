"""The main screen's key actions: jumps, toggles, copy, export, pager, follow, replay transport, answer."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from typing import TYPE_CHECKING

from textual.app import SuspendNotSupported
from textual.widgets import Input

from inspector.model import Call, Executor
from inspector.ui import export
from inspector.ui.screens.menus import ChoiceMenu
from inspector.ui.view import JUMPS

if TYPE_CHECKING:
    from inspector.ui.screens.main import MainScreen

JUMP_NAMES = {"pending": "pending call", "failed": "failed call", "orphan": "orphan result"}


class MainActions:
    """Mixed into MainScreen: every action here is reachable by a key and from the command palette."""

    # -- moving --------------------------------------------------------------------------------
    def action_jump(self: MainScreen, kind: str) -> None:
        test = JUMPS.get(kind)
        if test is None:
            return
        found = self.view.find(self.call_list.cursor, True, test, self.now)
        if found is None:
            self.notify(f"No {JUMP_NAMES.get(kind, kind)} in the list.", timeout=3)
        else:
            self.call_list.move_to(found)

    def _match(self: MainScreen, forward: bool) -> None:
        if self.view.filter is None:
            self.notify("No filter: press / to filter, then n and N move between matches.", timeout=3)
            return
        found = self.view.find_match(self.call_list.cursor, forward, self.now)
        if found is None:
            self.notify("No row matches the filter.", timeout=3)
        else:
            self.call_list.move_to(found)

    def action_next_match(self: MainScreen) -> None:
        self._match(True)

    def action_prev_match(self: MainScreen) -> None:
        self._match(False)

    def action_back(self: MainScreen) -> None:
        """Escape: close the filter input, then the open detail, then go back to the session browser."""
        focused = self.focused
        if isinstance(focused, Input):
            self.set_class(False, "-filtering")
            self.call_list.focus()
        elif self.has_class("-detail-open"):
            self.set_class(False, "-detail-open")
            self.call_list.focus()
        elif focused is self.detail:
            self.call_list.focus()
        elif len(self.app.screen_stack) > 1:
            self.dismiss()

    def action_focus_detail(self: MainScreen) -> None:
        if self.focused is self.detail:
            self.call_list.focus()
        else:
            self.detail.focus()

    # -- toggles -------------------------------------------------------------------------------
    def action_toggle_raw(self: MainScreen) -> None:
        self.detail.raw = not self.detail.raw

    def action_toggle_full_text(self: MainScreen) -> None:
        self.detail.full_text = not self.detail.full_text
        self.notify(
            "Full text the model received." if self.detail.full_text else "Display segments.", timeout=2
        )

    def action_toggle_messages(self: MainScreen) -> None:
        self.view.hide_messages = not self.view.hide_messages
        self.view.rebuild(self.now)
        self.call_list.rows_changed()
        self._update_status()
        self.notify("Messages hidden." if self.view.hide_messages else "Messages shown.", timeout=2)

    def action_toggle_follow(self: MainScreen) -> None:
        if self.replay is not None or not self.session.opened:
            self.notify("Follow works on session files (not in a replay).", severity="warning", timeout=3)
            return
        if self.following:
            self.following = False
            self.workers.cancel_group(self, "follow")
        else:
            from inspector.sources.tail import supports_follow

            followable = [o for o in self.session.opened if supports_follow(o.module)]
            skipped = [o for o in self.session.opened if o not in followable]
            if skipped:
                names = ", ".join(sorted({o.module.NAME for o in skipped}))
                self.notify(f"The {names} format cannot be followed.", severity="warning", timeout=4)
            if not followable:
                return
            self.following = True
            for opened in followable:
                self.run_worker(
                    self._follow(opened),
                    group="follow",
                    exit_on_error=False,
                    description=f"following {opened.path}",
                )
        self.call_list.follow = self.following
        self.app.tick()  # a followed file runs on the live clock, one that is not on its recording's end
        self._update_status()

    async def _follow(self: MainScreen, opened) -> None:
        from inspector.sources.tail import FileTail, follow

        def on_events(events) -> None:
            for event in events:
                self.store.ingest(event, opened.ns)

        def on_restart() -> None:
            self.notify(
                f"{opened.path} was truncated or replaced; reading it again from the top.",
                severity="warning",
                timeout=5,
            )

        # start where the load stopped, so lines written since are not missed
        tail = (
            FileTail.at_offset(opened.path, opened.reached)
            if opened.reached >= 0
            else FileTail.at_end(opened.path)
        )
        await follow(opened.path, opened.module, on_events, tail=tail, on_restart=on_restart)

    # -- replay --------------------------------------------------------------------------------
    def _replay_or_say(self: MainScreen):
        if self.replay is None:
            self.notify("Not a replay: open a recording with --replay to play it back.", timeout=3)
        return self.replay

    def action_play_pause(self: MainScreen) -> None:
        if (control := self._replay_or_say()) is not None:
            self.replay_apply(control.toggle())

    def action_step(self: MainScreen, direction: int) -> None:
        if (control := self._replay_or_say()) is not None:
            self.replay_apply(control.step(direction))

    def action_speed(self: MainScreen, direction: int) -> None:
        if (control := self._replay_or_say()) is not None:
            label = control.speed(direction)
            self.replay_apply(False)
            self.notify(f"Replay speed {label}.", timeout=2)

    # -- copy, export, pager -------------------------------------------------------------------
    def action_copy(self: MainScreen) -> None:
        item = self.call_list.item
        if item is None:
            return

        def copy(choice: str | None) -> None:
            if choice is None:
                return
            text = export.copy_text(item, choice, self.now)
            if text is None:
                self.notify("Nothing to copy for that item.", severity="warning", timeout=3)
                return
            sent, cut = export.clipboard_text(text)
            self.app.copy_to_clipboard(sent)
            label = dict(export.COPY_CHOICES)[choice].lower()
            if cut:  # say so, as terminals that cap OSC 52 do not
                self.notify(
                    f"Copied the first {len(sent):,} of {len(text):,} characters of the {label} "
                    "(the clipboard's cap); export it (x) for all of it.",
                    severity="warning",
                    timeout=6,
                )
                return
            self.notify(f"Copied the {label} ({len(text)} characters).", timeout=3)

        self.app.push_screen(ChoiceMenu("Copy", export.COPY_CHOICES), copy)

    def action_export(self: MainScreen) -> None:
        def write(choice: str | None) -> None:
            if choice is None:
                return
            what, fmt = choice.split("-")
            item = self.call_list.item
            if what == "call":
                if item is None:
                    self.notify("No call selected.", severity="warning", timeout=3)
                    return
                items = [item]
            else:
                items = self.view.matched_items(self.now)
            title = f"inspector export: {self._sources_text()}"
            text = export.export_items(items, fmt, self.now, title)
            folder = getattr(self.app, "export_dir", None) or os.getcwd()
            path = export.export_path(folder, "call" if what == "call" else "view", fmt)
            try:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(text)
            except OSError as exc:
                self.notify(f"Cannot write {path}: {exc.strerror or exc}", severity="error", timeout=6)
                return
            self.notify(f"Wrote {len(items)} item(s) to {path}", title="Exported", timeout=6)

        self.app.push_screen(ChoiceMenu("Export", export.EXPORT_CHOICES), write)

    def action_pager(self: MainScreen) -> None:
        item = self.call_list.item
        if item is None:
            return
        text = export.pager_text(item, self.now)
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
            self.notify("This terminal cannot hand over to a pager.", severity="warning", timeout=4)
        except (OSError, ValueError) as exc:
            self.notify(f"Cannot run the pager {pager!r}: {exc}", severity="error", timeout=6)
        finally:
            try:
                os.unlink(path)
            except OSError:
                pass

    # -- answering -----------------------------------------------------------------------------
    def action_answer(self: MainScreen) -> None:
        source = self.session.source
        item = self.call_list.item
        if source is None or not getattr(source, "can_answer", False):
            self.notify("Answering needs a live room (inspector live).", severity="warning", timeout=4)
            return
        if not isinstance(item, Call) or item.results:
            self.notify("Select a pending request to answer.", severity="warning", timeout=3)
            return
        if item.request.executor not in (Executor.CLIENT, Executor.EITHER):
            self.notify("Only client or either requests can be answered here.", severity="warning", timeout=4)
            return
        from inspector.ui.screens.answer import AnswerScreen

        self.app.push_screen(AnswerScreen(item, source))
