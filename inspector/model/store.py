"""The call store: threads requests and results by (group, call id) as events arrive."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping

from inspector.model.call import NO_CHILDREN, NOTES, Call, HoldWindow, Item, OrphanResult
from inspector.model.clock import Clock, EndOfRecording, SystemClock
from inspector.model.events import Adopt, Event, Malformed, Message, Request, Result, Skipped
from inspector.model.stanzas import StanzaLog

MAX_GROUPS = 10_000
"""Conversations remembered by name (enough to know there are several; a flood of names stays bounded)."""

Listener = Callable[[Item], None]

_NO_IDS: dict[str, Call] = {}
"""What a namespace without calls looks ids up in (only read)."""


class CallsByKey(Mapping[tuple[str, str, str], Call]):
    """The first call of each ``(namespace, group, call id)``.

    Kept as the first call of each id in its namespace, whatever its group (what the store looks a
    parent or a result without a group up by: ``first_of``), and apart the rare first call of an id in
    another group of the namespace: a dict per namespace and group, besides one by id, was 0.2 MB of a
    100 MB transcript's 8,469 calls (and a key tuple per call 0.5 MB before that).
    """

    __slots__ = ("_first", "_others", "_count")

    def __init__(self) -> None:
        self._first: dict[str, dict[str, Call]] = {}
        self._others: dict[str, dict[tuple[str, str], Call]] = {}
        self._count = 0

    def first_of(self, ns: str, call_id: str) -> Call | None:
        """The first call of this id in the namespace, whatever its group."""
        return self._first.get(ns, _NO_IDS).get(call_id)

    def find(self, ns: str, group: str, call_id: str) -> Call | None:
        first = self._first.get(ns, _NO_IDS).get(call_id)
        if first is None or first.request.group == group:
            return first
        return self._others.get(ns, _NO_OTHERS).get((group, call_id))

    def first_or_add(self, ns: str, group: str, call_id: str, call: Call) -> Call | None:
        """The call kept under this key, or None once ``call`` is kept there (find and add in one walk)."""
        ids = self._first.get(ns)
        if ids is None:
            ids = self._first[ns] = {}
        first = ids.get(call_id)
        if first is None:
            ids[call_id] = call
            self._count += 1
            return None
        if first.request.group == group:
            return first
        others = self._others.get(ns)
        if others is None:
            others = self._others[ns] = {}
        found = others.get((group, call_id))
        if found is None:
            others[(group, call_id)] = call
            self._count += 1
        return found

    def __getitem__(self, key: tuple[str, str, str]) -> Call:
        found = self.find(*key)
        if found is None:
            raise KeyError(key)
        return found

    def __iter__(self) -> Iterator[tuple[str, str, str]]:
        for ns, ids in self._first.items():
            for call_id, call in ids.items():
                yield ns, call.request.group, call_id
            for group, call_id in self._others.get(ns, _NO_OTHERS):
                yield ns, group, call_id

    def __len__(self) -> int:
        return self._count

    def each(self) -> Iterator[Call]:
        """Every call kept (``values()`` builds each key and looks it up again)."""
        for ns, ids in self._first.items():
            yield from ids.values()
            yield from self._others.get(ns, _NO_OTHERS).values()


_NO_OTHERS: dict[tuple[str, str], Call] = {}


MALFORMED_KEPT = 1000
"""Malformed records a store keeps whole; past it each is counted under one row per kind (its source and
reason), so a million bad lines cost a count each, not an object (issue 25: 6-15 s and 270-380 MB)."""
MALFORMED_KINDS = 100
"""Kinds of malformed record past ``MALFORMED_KEPT`` given a row each; later kinds share one per source."""


class CallStore:
    """Everything one session holds, in arrival order, with calls threaded by id.

    ``items`` lists top-level items (calls, orphan results, conversation messages and
    malformed records); calls made inside a subagent sit in their parent's ``children``.
    With ``keep_payloads=False`` parameters and result data are dropped after threading
    (they can be read back from ``raw``), which keeps memory low on big transcripts.
    """

    def __init__(self, clock: Clock | None = None, keep_payloads: bool = True) -> None:
        self.clock: Clock = clock or SystemClock()
        self.keep_payloads = keep_payloads
        self.items: list[Item] = []
        self.calls = CallsByKey()
        self.orphans: list[OrphanResult] = []
        self.hold = HoldWindow()
        self.listening_since: float | None = None
        """The last moment the session began to listen to a conversation already under way (a room event
        with ``unseen: "before"``: participants already in the room, a hub joined, a rejoin): a result
        soon after it whose request is unknown may answer one sent before, not seen (rooms keep no history)."""
        self.retransmitted = 0
        """Envelopes received again with the stanzaId they had (the server's replay to a reconnected
        client): threaded once, noted on their call."""
        self._stanzas = StanzaLog()  # which envelopes came again (model/stanzas.py)
        self._server_last: dict[tuple[str, str], int] = {}  # per conversation: the last server stanzaId seen
        self._gapless: dict[tuple[str, str], bool] = {}  # since listening began: no server stanzaId skipped
        self._held: dict[tuple[str, str], list[OrphanResult]] = {}
        self.malformed: list[Malformed] = []
        """The malformed records kept whole: the first ``MALFORMED_KEPT``, then one per kind standing for
        every later one of its kind (``folded``)."""
        self.malformed_count = 0
        """Every malformed record, exact (``len(malformed)`` counts rows, not records)."""
        self._folds: dict[tuple[str, str], tuple[Malformed, str]] = {}
        self.folded: dict[int, int] = {}
        """How many records each kind's row (by ``id``) stands for, past ``MALFORMED_KEPT``."""
        self.call_count = 0
        self.groups: set[str] = set()
        """The conversations (groups) requests came in, up to ``MAX_GROUPS``."""
        self.nested_count = 0
        self.message_count = 0
        self.version = 0
        self.skipped: dict[str, int] = {}
        self.joined = 0
        """Results that came before their request and were joined to it when it arrived."""
        self.removed_top = 0
        """Top-level rows taken out (a second early result of one request, joined to it)."""
        self.last_ts: float | None = None
        """The latest time any record carried (a finished recording is judged at it)."""
        self._listeners: list[Listener] = []

    # -- listening -------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(item)`` after every change (the item created or updated)."""
        self._listeners.append(listener)

    def touch(self, item: Item) -> None:
        """Tell the listeners that ``item`` changed though no event came (a note added to a call)."""
        self._changed(item)

    def _changed(self, item: Item) -> None:
        self.version += 1
        for listener in self._listeners:
            listener(item)

    # -- ingest ----------------------------------------------------------------------
    def ingest_many(self, events: Iterable[Event]) -> None:
        for event in events:
            self.ingest(event)

    def ingest(self, event: Event, ns: str = "") -> Item:
        """Thread one event and return the item it created or updated.

        ``ns`` keeps sources apart: two files opened side by side never thread into each other.
        """
        kind = type(event)
        if kind is Skipped:  # a third of a transcript's events: counted, nothing else (no time)
            skipped = self.skipped
            skipped[event.kind] = skipped.get(event.kind, 0) + 1  # type: ignore[union-attr]
            return event  # type: ignore[return-value]
        ts = getattr(event, "ts", None)
        if ts is not None:  # a time past the latest one (a record's time, made finite by its event)
            last = self.last_ts
            if isinstance(ts, (int, float)) and (last is None or ts > last) and math.isfinite(ts):
                self.last_ts = float(ts)
        if self.listening_since is not None:  # a live Alicia session (or its recording): stanzas tell gaps
            self._note_stanza(event, ns)
        # the common kinds by their exact type first (a request, a result: two thirds of the events)
        if kind is Request:
            item: Item = self._add_request(event, ns)  # type: ignore[arg-type]
        elif kind is Result:
            item = self._add_result(event, ns)  # type: ignore[arg-type]
        elif isinstance(event, Request):
            item = self._add_request(event, ns)
        elif isinstance(event, Result):
            item = self._add_result(event, ns)
        elif isinstance(event, Message):
            if event.extra and self._again(event, ns):
                return event  # the same envelope again (the server's replay): shown once
            self.message_count += 1
            item = event
            if event.extra and event.extra.get("unseen") == "before" and isinstance(ts, (int, float)):
                self.listening_since = float(ts)
                self._gapless = {}  # what the server sent before may have been missed: seen again below
            self._place(event, event.parent_id, ns)
        elif isinstance(event, Adopt):
            adopted = self._adopt(event, ns)
            if adopted is None:
                return event  # type: ignore[return-value] # either call is gone: nothing moves
            item = adopted
        elif isinstance(event, Skipped):
            self.skipped[event.kind] = self.skipped.get(event.kind, 0) + 1
            return event  # type: ignore[return-value]
        elif isinstance(event, Malformed):
            self.malformed_count += 1
            if self.malformed_count > MALFORMED_KEPT:
                item = self._fold(event)
            else:
                self.malformed.append(event)
                item = event
                self.items.append(event)
        else:  # pragma: no cover - a parser bug, reported rather than crashing
            item = Malformed(where="?", reason=f"unknown event type {type(event).__name__}")
            self.malformed_count += 1
            self.malformed.append(item)
            self.items.append(item)
        self.version += 1  # what _changed does, without its call
        if self._listeners:
            for listener in self._listeners:
                listener(item)
        return item

    def _fold(self, event: Malformed) -> Malformed:
        """A malformed record past ``MALFORMED_KEPT``: counted under the row of its kind (its source and
        reason; past ``MALFORMED_KINDS`` kinds, its source's 'other kinds'), the first of its kind kept as
        that row, which says how many more it stands for."""
        kind = (event.source, event.reason)
        if kind not in self._folds and len(self._folds) >= MALFORMED_KINDS:
            kind = (event.source, "")
        found = self._folds.get(kind)
        if found is None:
            said = event.reason if kind[1] else "of other kinds"
            self._folds[kind] = found = (event, said)
            self.folded[id(event)] = 0
            self.malformed.append(event)
            self.items.append(event)
        row, said = found
        count = self.folded[id(row)] = self.folded[id(row)] + 1
        if count > 1:
            row.reason = f"{said} (… and {count - 1} more malformed lines like this)"
        return row

    def malformed_weight(self, row: Malformed) -> int:
        """How many malformed records ``row`` stands for (1, or its kind's count past ``MALFORMED_KEPT``)."""
        return self.folded.get(id(row), 1) if self.folded else 1

    def withdraw(self, malformed: list[Malformed]) -> None:
        """Take top-level malformed records out again (a file's unfinished last line, read before the
        rest of it was written: following it reads the whole line when it ends). A record counted under
        its kind's row takes one off that row's count (the row goes with its last record)."""
        kept = {id(item) for item in self.malformed}
        gone: set[int] = set()
        changed = False
        for item in malformed:
            row = item
            if id(item) not in kept:  # counted under its kind's row
                found = self._folds.get((item.source, item.reason)) or self._folds.get((item.source, ""))
                if found is None:
                    continue
                row = found[0]
            self.malformed_count -= 1
            changed = True
            count = self.folded.get(id(row), 1) - 1
            if count <= 0:
                gone.add(id(row))
                self.folded.pop(id(row), None)
                self._folds = {kind: fold for kind, fold in self._folds.items() if fold[0] is not row}
                continue
            self.folded[id(row)] = count
            said = next(fold[1] for fold in self._folds.values() if fold[0] is row)
            row.reason = said if count == 1 else f"{said} (… and {count - 1} more malformed lines like this)"
        if not changed:
            return
        items = [item for item in self.items if id(item) not in gone]
        self.removed_top += len(self.items) - len(items)
        self.items = items
        self.malformed = [item for item in self.malformed if id(item) not in gone]
        self._changed(malformed[0])

    def _place(self, item: Item, parent_id: str | None, ns: str) -> None:
        if parent_id:
            parent = self.calls.first_of(ns, parent_id)
            if parent is not None:
                self._attach(parent, item)
                return
        self.items.append(item)

    def _adopt(self, event: Adopt, ns: str) -> Call | None:
        """Move a top-level call under its parent (both threaded already); None when one is unknown."""
        child = self.find(event.group, event.call_id, ns)
        parent = self.calls.first_of(ns, event.parent_id)
        if child is None or parent is None or child.parent is not None or child is parent:
            return None
        if any(node is child for node in parent.walk()) or any(node is parent for node in child.walk()):
            return None
        index = next((i for i in range(len(self.items) - 1, -1, -1) if self.items[i] is child), None)
        if index is None:
            return None
        del self.items[index]
        self.removed_top += 1
        child.request.parent_id = event.parent_id
        self._attach(parent, child)
        return child

    def _attach(self, parent: Call, item: Item) -> None:
        if parent.children is NO_CHILDREN:  # its first: a list of its own (see call.NO_CHILDREN)
            parent.children = [item]
        else:
            parent.children.append(item)
        if isinstance(item, (Call, OrphanResult)):
            item.parent = parent
            item.depth = parent.depth + 1
            if isinstance(item, Call):
                self.nested_count += 1
                if item.children:  # a call just made has none (one that took early results may)
                    self._fix_depths(item)

    def _fix_depths(self, call: Call) -> None:
        for child in call.children:
            if isinstance(child, (Call, OrphanResult)):
                child.depth = call.depth + 1
                if isinstance(child, Call):
                    self._fix_depths(child)

    def _again(self, message: Message, ns: str) -> bool:
        """Whether ``message`` came before, the same envelope (then it is counted, not kept)."""
        stanza = message.extra.get("stanzaId")
        if type(stanza) is not int:
            return False
        if self._stanzas.again(ns, message.group, stanza, ("message", message.kind, message.text)):
            self.retransmitted += 1
            return True
        return False

    def _note_stanza(self, event: Event, ns: str) -> None:
        """The server numbers its envelopes -1, -2, ... per conversation: the first one seen since the
        session began listening tells whether any before it was missed (it is one below the last seen)."""
        extra = getattr(event, "extra", None)
        stanza = extra.get("stanzaId") if extra else None
        if type(stanza) is not int or stanza >= 0:
            return
        key = (ns, getattr(event, "group", ""))
        last = self._server_last.get(key, 0)
        if key not in self._gapless:
            self._gapless[key] = stanza == last - 1
        if stanza < last:
            self._server_last[key] = stanza

    def _add_request(self, request: Request, ns: str) -> Call:
        if not self.keep_payloads:
            request.params = None
        self.call_count += 1
        call = Call(request, self.call_count)
        group, call_id = request.group, request.call_id
        extra = request.extra
        stanza = extra.get("stanzaId") if extra else None
        again = type(stanza) is int and self._stanzas.again(
            ns, group, stanza, ("request", call_id, request.tool)
        )
        groups = self.groups
        if group and group not in groups and len(groups) < MAX_GROUPS:
            groups.add(group)
        first = self.calls.first_or_add(ns, group, call_id, call)
        if first is not None:
            if again and stanza == _stanza(first.request):
                self.call_count -= 1  # the same envelope again: no second call
                _again(first.request, stanza)  # type: ignore[arg-type]
                self.retransmitted += 1
                return first
            request.violation = request.violation or (
                f"duplicate request id {call_id!r}: results go to the first request"
            )
        timeout_ms = request.timeout_ms
        if timeout_ms is not None and timeout_ms / 1000.0 > self.hold.seconds:
            self.hold.seconds = timeout_ms / 1000.0
        # results held for a request that had not come (rare: only then is the hold looked at)
        early = self._take_held(ns, request) if first is None and self._held else None
        if early:
            self._join(call, early, ns)
        else:
            self._place(call, request.parent_id, ns)
        return call

    def _take_held(self, ns: str, request: Request) -> list[OrphanResult]:
        held = self._held.get((ns, request.call_id))
        if not held:
            return []
        mine = [o for o in held if not o.result.group or not request.group or o.result.group == request.group]
        rest = [o for o in held if o not in mine]
        if rest:
            self._held[(ns, request.call_id)] = rest
        else:
            del self._held[(ns, request.call_id)]
        return mine

    def _join(self, call: Call, early: list[OrphanResult], ns: str) -> None:
        """A request whose results came first takes them; a top-level request also takes the first
        held result's row, a nested one goes under its parent and every held row leaves the list."""
        parent_id = call.request.parent_id
        parent = self.calls.first_of(ns, parent_id) if parent_id else None
        first = early[0]
        index = next((i for i, item in enumerate(self.items) if item is first), None)
        if parent is not None:
            self._attach(parent, call)
        elif index is not None:
            self.items[index] = call
        else:
            self.items.append(call)
        for orphan in early:
            call.results.append(orphan.result)
            self.orphans = [o for o in self.orphans if o is not orphan]
            if orphan is not first or (parent is not None and index is not None):
                self.items = [item for item in self.items if item is not orphan]
                self.removed_top += 1
        self.joined += len(early)

    def find(self, group: str, call_id: str, ns: str = "") -> Call | None:
        """The call a result with this group and id belongs to, if any.

        A result without a group matches by id alone.
        """
        call = self.calls.find(ns, group, call_id)
        if call is None and not group:
            call = self.calls.first_of(ns, call_id)
        return call

    def _add_result(self, result: Result, ns: str) -> Item:
        if not self.keep_payloads:
            result.data = None
            result.details = None
        group = result.group
        extra = result.extra
        stanza = extra.get("stanzaId") if extra else None
        again = type(stanza) is int and self._stanzas.again(
            ns, group, stanza, ("result", result.call_id, result.outcome, result.error_message)
        )
        call = self.calls.find(ns, group, result.call_id)
        if call is None and not group:  # find's second look, without its call
            call = self.calls.first_of(ns, result.call_id)
        if call is None:
            since = result.ts if result.ts is not None else self.clock.now()
            listening = self.listening_since
            unseen = (
                listening
                if listening is not None
                and since - listening <= self.hold.seconds
                and not self._gapless.get((ns, group), False)  # every server envelope seen: an orphan
                else None
            )
            orphan = OrphanResult(
                result, seq=len(self.orphans) + 1, since=since, window=self.hold, unseen_before=unseen
            )
            self.orphans.append(orphan)
            self.items.append(orphan)
            self._held.setdefault((ns, result.call_id), []).append(orphan)
            return orphan
        if call.results:
            if again and any(_stanza(r) == stanza for r in call.results):
                _again(call.request, stanza)  # type: ignore[arg-type]
                self.retransmitted += 1
                return call  # the same envelope again: not a second result
            call.results.append(result)
        else:  # a list of one (an append would make room for four: 24 bytes more a call)
            call.results = [result]
        return call

    def end(self) -> None:
        """The session ended: a result still waiting for its request is an orphan from now on."""
        self.hold.ended = True

    # -- queries ---------------------------------------------------------------------
    def all_calls(self) -> Iterator[Call]:
        """Every call, nested ones included, in tree order."""
        for item in self.items:
            if isinstance(item, Call):
                if item.children:
                    yield from item.walk()
                else:  # most calls: itself, without a generator of its own
                    yield item

    def end_clock(self) -> EndOfRecording:
        """A clock at this store's last record (for a file that is read, not followed)."""
        return EndOfRecording(lambda: self.last_ts, self.clock)

    @property
    def duplicate_results(self) -> int:
        # Call.duplicates of each call, without a call of it for every call (stats reads this of a whole file)
        return sum(len(results) - 1 for results in [call.results for call in self.calls.each()] if results)


RETRANSMITTED = "retransmitted"
"""The note of a call whose request or result came again with its stanzaId (see ``_add_request``)."""


def _stanza(event: Request | Result) -> int | None:
    """An Alicia envelope's stanzaId (None for other formats' events, and envelopes without one)."""
    extra = event.extra
    stanza = extra.get("stanzaId") if extra else None
    return stanza if type(stanza) is int else None


def _again(request: Request, stanza: int) -> None:
    """Note on ``request``'s call that an envelope of it came again with its stanzaId ``stanza``."""
    notes = request.extra.get(NOTES)
    if not isinstance(notes, dict):
        notes = request.extra[NOTES] = {}
    seen = request.extra.setdefault("retransmitted_stanzas", [])
    if stanza not in seen:
        seen.append(stanza)
    ids = ", ".join(str(s) for s in seen)
    notes[RETRANSMITTED] = (
        f"came again with the same stanzaId ({ids}), as a server replays what a reconnected client missed "
        "(05-reconnection-semantics): the same envelope, not a second request or result"
    )
