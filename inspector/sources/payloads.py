"""Payloads for search when a big session's were dropped: the raw records' bytes first, decoded only on a hit."""

from __future__ import annotations

import json
import mmap

from inspector.model import Call
from inspector.model.events import RawRef, Request, Result
from inspector.model.search import Payloads
from inspector.sources.session import hydrate
from inspector.userpath import open_binary


class FilePayloads(Payloads):
    """Reads dropped payloads back from the session files (memory-mapped, never copied whole)."""

    def __init__(self) -> None:
        self._maps: dict[str, mmap.mmap | None] = {}
        self._last: tuple[Call, int, Request, list[Result]] | None = None

    @staticmethod
    def _dropped(call: Call) -> bool:
        if call.request.params is None and call.request.raw is not None:
            return True
        return any(r.data is None and r.details is None and r.raw is not None for r in call.results)

    def _hydrated(self, call: Call) -> tuple[Request, list[Result]]:
        last = self._last
        if last is not None and last[0] is call and last[1] == len(call.results):
            return last[2], last[3]
        request, results = hydrate(call)
        self._last = (call, len(call.results), request, results)
        return request, results

    def request(self, call: Call) -> Request:
        return self._hydrated(call)[0] if self._dropped(call) else call.request

    def results(self, call: Call) -> list[Result]:
        return self._hydrated(call)[1] if self._dropped(call) else call.results

    def may_hold(self, call: Call, needles: tuple[str, ...]) -> bool:
        """False only when no raw record of the call holds a needle (as typed or JSON-escaped)."""
        if not self._dropped(call) or not all(needle.isascii() for needle in needles):
            return True
        raws = [call.request.raw, *(result.raw for result in call.results)]
        blob = b"\x00".join(self._bytes(raw) for raw in raws if raw is not None).lower()
        for needle in needles:
            escaped = json.dumps(needle)[1:-1]
            if needle.encode() in blob or escaped.encode() in blob:
                return True
        return False

    def _bytes(self, raw: RawRef) -> bytes:
        if raw.data is not None:
            return raw.data
        if raw.offset < 0:
            return b""
        end = raw.offset + raw.length
        mapped = self._maps.get(raw.source)
        if mapped is None or end > len(mapped):
            mapped = self._map(raw.source)
        if mapped is None or end > len(mapped):
            try:
                return raw.read()
            except OSError:  # gone, or no longer a regular file: nothing to search in
                return b""
        return mapped[raw.offset : end]

    def _map(self, path: str) -> mmap.mmap | None:
        old = self._maps.pop(path, None)
        if old is not None:
            old.close()
        try:
            with open_binary(path) as fh:
                mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            return None
        self._maps[path] = mapped
        return mapped
