"""The main screen's key actions, each a few lines that hand the work to a service or a source.

Typed against :class:`MainView`, a protocol of what they use: this module never imports the screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual.widgets import Input

from inspector.textsafe import one_line

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel
    from textual.widget import Widget

    from inspector.sources.base import Source
    from inspector.sources.feeds import FileSource
    from inspector.sources.files import Opened
    from inspector.ui.calls_out import CallsOut
    from inspector.ui.presenter import MainPresenter
    from inspector.ui.view import RowView
    from inspector.ui.widgets.call_list import CallList
    from inspector.ui.widgets.calls_pane import CallsPane
    from inspector.ui.widgets.detail import DetailPane
    from inspector.ui.widgets.filter_bar import FilterBar


class MainView(Protocol):
    """What the key actions need of the screen they are bound on."""

    source: Source
    files: FileSource | None
    view: RowView
    presenter: MainPresenter

    @property
    def app(self) -> App[object]: ...
    @property
    def focused(self) -> Widget | None: ...
    @property
    def call_list(self) -> CallList: ...
    @property
    def detail(self) -> DetailPane: ...
    @property
    def calls(self) -> CallsPane: ...
    @property
    def filter_bar(self) -> FilterBar: ...
    @property
    def calls_out(self) -> CallsOut: ...
    @property
    def now(self) -> float | None: ...
    @property
    def following(self) -> bool: ...

    def notify(self, message: str, *, severity: SeverityLevel = ..., timeout: float | None = ...) -> None: ...
    def run_worker(self, work: Any, *, group: str, exit_on_error: bool, description: str) -> object: ...
    def cancel_follow(self) -> None: ...
    def clock_changed(self) -> None: ...
    def set_class(self, add: bool, *class_names: str) -> object: ...
    def has_class(self, *class_names: str) -> bool: ...
    def dismiss(self) -> object: ...
    def _update_status(self) -> None: ...


class MainKeys:
    """Mixed into the main screen: every action here is reachable by a key and from the command palette."""

    # -- moving --------------------------------------------------------------------------------
    def action_jump(self: MainView, kind: str) -> None:
        self.calls.jump(kind)

    def action_next_match(self: MainView) -> None:
        self.calls.match(True)

    def action_prev_match(self: MainView) -> None:
        self.calls.match(False)

    def action_back(self: MainView) -> None:
        """Escape: close the filter input, then the open detail, then go back to the session browser."""
        focused = self.focused
        if isinstance(focused, Input):
            self.filter_bar.close()
            self.call_list.focus()
        elif self.has_class("-detail-open"):
            self.set_class(False, "-detail-open")
            self.call_list.focus()
        elif focused is self.detail:
            self.call_list.focus()
        elif len(self.app.screen_stack) > 1:
            self.dismiss()

    def action_focus_detail(self: MainView) -> None:
        if self.has_class("-detail-open"):  # the list is hidden: show it again rather than move it unseen
            self.set_class(False, "-detail-open")
            self.call_list.focus()
        elif self.focused is self.detail:
            self.call_list.focus()
        else:
            self.detail.focus()

    # -- toggles -------------------------------------------------------------------------------
    def action_toggle_raw(self: MainView) -> None:
        self.detail.raw = not self.detail.raw

    def action_toggle_full_text(self: MainView) -> None:
        self.detail.full_text = not self.detail.full_text
        self.notify(
            "Full text: what the model received, long parameters unfolded."
            if self.detail.full_text
            else "Display segments; long parameters folded under a diff.",
            timeout=2,
        )

    def action_toggle_header(self: MainView) -> None:
        self.calls.toggle_header()

    def action_toggle_messages(self: MainView) -> None:
        self.calls.toggle_messages()
        self._update_status()

    def action_toggle_timeline(self: MainView) -> None:
        self.calls.toggle_area()

    def action_toggle_figures(self: MainView) -> None:
        self.calls.toggle_figures()

    def action_toggle_follow(self: MainView) -> None:
        files = self.files
        if files is None or not files.can_follow:
            self.notify("Follow works on session files (not in a replay).", severity="warning", timeout=3)
            return
        if files.following:
            files.following = False
            self.cancel_follow()
        else:
            followable, unable = files.followable()
            if unable:
                names = ", ".join(unable)
                self.notify(f"The {names} format cannot be followed.", severity="warning", timeout=4)
            files.following = True

            def restarted(path: str) -> None:
                self.presenter.watch(files.store)  # a fresh store: the cursor and the filter stay
                self.notify(
                    f"{one_line(path, 200)} was truncated or replaced; reading it again from the top.",
                    severity="warning",
                    timeout=5,
                )
                self._update_status()

            def problem(path: str, why: str) -> None:
                if why:
                    text = (
                        f"Following {one_line(path, 200)}: {one_line(why, 200)}; trying again every second."
                    )
                    self.notify(text, severity="warning", timeout=6)
                else:
                    self.notify(f"Following {one_line(path, 200)} again.", timeout=3)
                self._update_status()

            for opened in followable:
                self.run_worker(
                    files.follow(opened, restarted, problem),
                    group="follow",
                    exit_on_error=False,
                    description=f"following {opened.path}",
                )

            def found(opened: Opened) -> None:  # a session file created in a folder opened
                self.notify(f"New session file {one_line(opened.path, 200)}: following it.", timeout=4)

            if files.folders:
                self.run_worker(
                    files.follow_folders(restarted, problem, found),
                    group="follow",
                    exit_on_error=False,
                    description="following the folders opened",
                )
        self.call_list.follow = files.following
        if files.following:
            self.calls.to_newest()
        self.clock_changed()  # a followed file is judged at the live clock, a finished one at its end

    # -- copy, export, pager, answer: services and the answer screen do the work ----------------
    def action_copy(self: MainView) -> None:
        item = self.call_list.item
        if item is not None:
            self.calls_out.copy(item, self.now)

    def action_export(self: MainView) -> None:
        now = self.now
        title = f"inspector export: {self.presenter.sources_text()}"
        self.calls_out.export(self.call_list.item, lambda: self.view.matched_items(now), title, now)

    def action_pager(self: MainView) -> None:
        item = self.call_list.item
        if item is not None:
            self.calls_out.pager(item, self.now)

    def action_reclaim(self: MainView) -> None:
        """The hub's assistant takes its role back (see sources/hub_role.py)."""
        source = self.source

        async def reclaim() -> None:
            try:
                await source.reclaim()
            except Exception as exc:  # noqa: BLE001 - said, never a crash
                self.app.notify(one_line(str(exc), 300), severity="error", timeout=6)
            else:
                self.app.notify("Took the assistant role back.", timeout=4)

        self.run_worker(reclaim(), group="reclaim", exit_on_error=False, description="taking the role back")

    def action_answer(self: MainView) -> None:
        from inspector.ui.screens.answer import AnswerScreen

        AnswerScreen.open_for(self.app, self.source, self.call_list.item)
