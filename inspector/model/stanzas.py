"""Which Alicia envelopes came again: the same stanzaId with the same content, from a sender that numbers
its envelopes one by one.

A server replays what a reconnected client missed with the original stanzaIds
(05-reconnection-semantics), so an inspector in the room sees each of those envelopes twice: the second is
the same envelope, not a second request, result or message. But a stanzaId tells that only where every
envelope of the conversation has its own: a peer that writes one stanzaId on all it sends (0, -1) would
have its real duplicates, a result sent twice, merged away. So an envelope counts as come again only
when its stanzaId came before on an envelope with the same content, and no two different envelopes of
its conversation ever shared a stanzaId; once two did, that conversation's stanzaIds tell nothing.
"""

from __future__ import annotations

from collections.abc import Hashable

LIMIT = 50_000
"""The stanzaIds remembered (the oldest forgotten first): a replay resends what was missed lately."""


class StanzaLog:
    """The first content seen with each stanzaId, per conversation (``ns``, group)."""

    def __init__(self) -> None:
        self._first: dict[tuple[str, str, int], Hashable] = {}
        self._shared: set[tuple[str, str]] = set()  # conversations where two envelopes shared a stanzaId

    def again(self, ns: str, group: str, stanza: int, content: Hashable) -> bool:
        """Whether the envelope (``stanza``, ``content``) is one that came before; remembered if new."""
        key = (ns, group, stanza)
        first = self._first.get(key)
        if first is None:
            if len(self._first) >= LIMIT:
                del self._first[next(iter(self._first))]
            self._first[key] = content
            return False
        if first != content:
            self._shared.add((ns, group))
            return False
        return (ns, group) not in self._shared
