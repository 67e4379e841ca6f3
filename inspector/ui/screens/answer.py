"""The answer screen: stand in for the client and send a ToolUseResult for a pending request."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Checkbox, Input, Select, Static, TextArea

from inspector.answer import compose
from inspector.answer.compose import Draft
from inspector.model import Call
from inspector.model.call import Item
from inspector.sources.base import Source
from inspector.textsafe import clean, one_line
from inspector.ui import keys
from inspector.ui.host import host_of
from inspector.ui.widgets.inert_input import InertInput, JsonArea

SUCCESS = "success"
KIND_CHOICES = [("success (result map)", SUCCESS)] + [
    (f"failure: {code}", code) for code in compose.ERROR_CHOICES
]
PREVIEW_CHARS = 6_000
"""The preview shows this much of the envelope (the whole of it is sent); more costs every keystroke."""
WRAP_LINE_CHARS = 2_000
"""A line longer than this (pasted minified JSON) turns soft wrapping off: re-wrapping it costs each key."""
DEBOUNCE_CHARS = 4_000
DEBOUNCE_SECONDS = 0.25
"""A draft larger than DEBOUNCE_CHARS is checked once typing pauses, not on every keystroke."""

ISSUE_STYLES = {
    compose.Severity.REFUSE: "bold red",
    compose.Severity.CONFIRM: "bold yellow",
    compose.Severity.NOTE: "dim",
}


class AnswerScreen(ModalScreen[Any]):
    """Compose an answer (success with a JSON map, or an error code and message), preview, confirm, send."""

    BINDINGS = keys.bindings("answer")

    @classmethod
    def open_for(cls, app: App[Any], source: Source, item: Item | None) -> None:
        """Answer ``item`` through ``source``: open this screen, or say why it cannot be answered."""
        if not source.can_answer:
            app.notify("Answering needs a live room (inspector live).", severity="warning", timeout=4)
        elif not isinstance(item, Call):
            app.notify("Select a pending request to answer.", severity="warning", timeout=3)
        elif item.results:
            app.notify(clean(compose.already_answered(item)) + ".", severity="warning", timeout=5)
        elif not item.awaits_client_answer:
            app.notify("Only client or either requests can be answered here.", severity="warning", timeout=4)
        else:
            app.push_screen(cls(item, source))

    def __init__(self, call: Call, source: Source) -> None:
        super().__init__()
        self.call = call
        self.source = source
        self.review: compose.Review | None = None
        self._pending_update: Any = None

    def compose(self) -> ComposeResult:
        with Vertical(id="answer-box"):
            yield Static("", id="answer-head")
            with Horizontal(id="answer-kind-row"):
                yield Select(KIND_CHOICES, value=SUCCESS, allow_blank=False, id="answer-kind")
                yield InertInput(placeholder="custom error code", id="answer-code")
            yield JsonArea("{}", language="json", id="answer-result", show_line_numbers=False)
            yield InertInput(placeholder="error message (errorMessage)", id="answer-message")
            with Horizontal(id="answer-confirms"):
                yield Checkbox("send after the deadline (late)", id="confirm-late")
            with VerticalScroll(id="answer-preview-box"):
                yield Static("", id="answer-issues")
                yield Static("", id="answer-preview")
            yield Static(
                Text(
                    "ctrl+s send (also ctrl+enter, ctrl+j, alt+enter) · ctrl+u unknown tool · "
                    "ctrl+t timeout · esc cancel",
                    style="dim",
                ),
                id="answer-keys",
            )

    def on_mount(self) -> None:
        self.watch(self.app, "now", self._show_head)
        self.query_one("#answer-result", TextArea).focus()
        self._update()

    # -- the draft -------------------------------------------------------------------------------
    @property
    def kind(self) -> str:
        value = self.query_one("#answer-kind", Select).value
        return value if isinstance(value, str) else SUCCESS

    def draft(self) -> tuple[Draft | None, str | None]:
        """The answer as typed, or None and why it cannot be composed (e.g. JSON with a mistake)."""
        text = self.query_one("#answer-result", TextArea).text
        result, problem = compose.parse_result(text)
        if self.kind == SUCCESS:
            return (None, problem) if problem else (compose.success(result), None)
        code = (
            self.query_one("#answer-code", Input).value.strip() if self.kind == compose.CUSTOM else self.kind
        )
        message = self.query_one("#answer-message", Input).value
        partial = result if result else None
        if problem and text.strip() not in ("", "{}"):
            return None, f"partial result: {problem}"
        return compose.failure(code, message if message.strip() else None, result=partial), None

    @on(Select.Changed, "#answer-kind")
    def _kind_changed(self) -> None:
        failing = self.kind != SUCCESS
        self.set_class(failing, "-failure")
        self.set_class(self.kind == compose.CUSTOM, "-custom")
        if failing and self.kind != compose.CUSTOM:
            self.query_one("#answer-message", Input).value = compose.default_message(self.kind, self.call)
        self._update()

    @on(Input.Changed)
    @on(Checkbox.Changed)
    def _changed(self) -> None:
        self._update()

    @on(TextArea.Changed)
    def _text_changed(self, event: TextArea.Changed) -> None:
        if self._pending_update is not None:
            self._pending_update.stop()
            self._pending_update = None
        area = event.text_area
        if area.soft_wrap and len(area.document[area.cursor_location[0]]) > WRAP_LINE_CHARS:
            area.soft_wrap = False
        if len(area.document.text) <= DEBOUNCE_CHARS:
            self._update()
        else:  # a big answer: check and preview it when typing pauses, keep keystrokes cheap
            self._pending_update = self.set_timer(DEBOUNCE_SECONDS, self._update)

    def _update(self) -> None:
        self._pending_update = None
        area = self.query_one("#answer-result", TextArea)
        if area.soft_wrap and any(len(line) > WRAP_LINE_CHARS for line in area.document.lines):
            area.soft_wrap = False
        draft, problem = self.draft()
        issues = Text()
        if problem or draft is None:
            issues.append(one_line(problem or "the answer could not be composed", 300) + "\n", "bold red")
            self.review = None
        else:
            try:
                self.review = self.source.review_answer(self.call, draft)
            except Exception as exc:  # noqa: BLE001 - a source that cannot review says why
                self.review = None
                issues.append(one_line(str(exc), 300) + "\n", "bold red")
        review = self.review
        if review is not None:
            for issue in review.issues:
                issues.append(f"{issue.severity.value}: ", ISSUE_STYLES[issue.severity])
                issues.append(one_line(issue.message, 400) + "\n")
            kinds = {issue.kind for issue in review.confirmations}
            self.set_class("late" in kinds, "-confirm-late")
            preview = _preview_text(review.preview_json()) if review.envelope else Text("")
            stanza = f", stanzaId {review.stanza_id}" if "stanzaId" in (review.envelope or {}) else ""
            size = Text(f"{review.wire_size:,} bytes on the wire{stanza}", style="italic")
            self.query_one("#answer-preview", Static).update(Group(size, preview))
        self.query_one("#answer-issues", Static).update(issues)
        self._show_head(host_of(self).now)

    def _show_head(self, now: float) -> None:
        call = self.call
        head = Text("Answer ", style="bold")
        head.append(one_line(call.tool, 60), "bold")
        head.append(f"  id {one_line(call.call_id, 60)}  ", "dim")
        executor = call.request.executor.value if call.request.executor else "no execution"
        head.append(executor + "  ")
        late = not call.answered and (call.remaining(now) or 1) <= 0
        head.append(compose.time_left_text(call, now), "bold red" if late else "bold yellow")
        head.append("\n" + one_line(call.request.summary, 200), "dim")
        self.query_one("#answer-head", Static).update(head)

    # -- actions ---------------------------------------------------------------------------------
    def action_quick(self, code: str) -> None:
        """One key answers: the spec's unknown_tool or timeout failure with its exact message."""
        self.query_one("#answer-kind", Select).value = code
        self.query_one("#answer-result", TextArea).text = ""

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_send(self) -> None:
        self._send()

    @work(exclusive=True, group="answer", exit_on_error=False, description="sending the answer")
    async def _send(self) -> None:
        from inspector.sources.base import AnswerError, ConfirmationNeeded, PreviewOutdated

        draft, problem = self.draft()
        issues = self.query_one("#answer-issues", Static)
        if draft is None:
            issues.update(Text(one_line(problem or "nothing to send", 300), style="bold red"))
            return
        if self._pending_update is not None or self.review is None or self.review.draft != draft:
            if self._pending_update is not None:
                self._pending_update.stop()
            self._update()  # the preview catches up with the draft first: what is sent is what it shows
        if self.review is None:
            return
        try:
            sent = await self.source.send_answer(
                self.call,
                draft,
                review=self.review,
                confirm_late=self.query_one("#confirm-late", Checkbox).value,
            )
        except ConfirmationNeeded as exc:
            issues.update(Text("confirm first: " + one_line(str(exc), 400), style="bold yellow"))
            return
        except PreviewOutdated as exc:
            self._update()  # show the answer as it would go out now
            issues.update(Text("not sent: " + one_line(str(exc), 400), style="bold red"))
            return
        except AnswerError as exc:
            issues.update(Text("not sent: " + one_line(str(exc), 400), style="bold red"))
            return
        stanza = f" (stanzaId {sent.stanza_id})" if "stanzaId" in sent.envelope else ""
        self.app.notify(f"Answer sent for {one_line(self.call.call_id, 60)}{stanza}.", timeout=4)
        self.dismiss(sent)


def _preview_text(whole: str) -> Text:
    """The envelope as it will be packed, cut at PREVIEW_CHARS with a note (the whole of it is sent)."""
    if len(whole) <= PREVIEW_CHARS:
        return Text(clean(whole), style="dim")
    text = Text(clean(whole[:PREVIEW_CHARS]), style="dim")
    text.append(f"\n… {len(whole) - PREVIEW_CHARS:,} more characters (all of them are sent)", style="italic")
    return text


def reclaim_role(screen: Screen[Any], source: Source) -> None:
    """The hub's assistant takes its role back (see sources/hub_role.py), in a worker of ``screen``; what
    came of it is said in a notice, never a crash."""

    async def take_back() -> None:
        try:
            await source.reclaim()
        except Exception as exc:  # noqa: BLE001 - said, never a crash
            screen.app.notify(one_line(str(exc), 300), severity="error", timeout=6)
        else:
            screen.app.notify("Took the assistant role back.", timeout=4)

    screen.run_worker(take_back(), group="reclaim", exit_on_error=False, description="taking the role back")
