"""MessagePack nested deeper than its unpacker follows (1,024 levels): the bytes rewritten with each value
past ``values.MAX_DEPTH`` levels replaced by ``values.DEEP_STAND_IN``, so a packet is read with a stand-in
and said, as a JSON record is (``values.loads_noted``), not lost for one deep value. A walk of the bytes
(no unpacker: it is the unpacker's stack that ran out), taken only when an unpack failed for depth."""

from __future__ import annotations

from inspector.model import values

# header byte -> bytes the whole value takes (scalars of a fixed size)
_FIXED = {0xC0: 1, 0xC2: 1, 0xC3: 1, 0xCA: 5, 0xCB: 9, 0xCC: 2, 0xCD: 3, 0xCE: 5, 0xCF: 9}
_FIXED.update({0xD0: 2, 0xD1: 3, 0xD2: 5, 0xD3: 9, 0xD4: 3, 0xD5: 4, 0xD6: 6, 0xD7: 10, 0xD8: 18})
# header byte -> (bytes of its length, bytes between the length and the data: an ext's type)
_SIZED = {0xC4: (1, 0), 0xC5: (2, 0), 0xC6: (4, 0), 0xC7: (1, 1), 0xC8: (2, 1), 0xC9: (4, 1)}
_SIZED.update({0xD9: (1, 0), 0xDA: (2, 0), 0xDB: (4, 0)})
# header byte -> (bytes of its count, values per counted item: a map's key and value)
_COUNTED = {0xDC: (2, 1), 0xDD: (4, 1), 0xDE: (2, 2), 0xDF: (4, 2)}


def _packed_text(text: str) -> bytes:
    raw = text.encode("utf-8")
    return (bytes([0xA0 | len(raw)]) if len(raw) < 32 else bytes([0xD9, len(raw)])) + raw


_STAND_IN = _packed_text(values.DEEP_STAND_IN)


def shallow(data: bytes, start: int = 0) -> tuple[bytes, int, int] | None:
    """The value at ``start`` with what is past ``MAX_DEPTH`` levels replaced by the stand-in, where it
    ended in ``data``, and how deep it went; None when the bytes there are not one whole value (or it
    runs past ``values.SHALLOW_LIMIT``: its walk would cost more than it is worth, as for JSON)."""
    pieces: list[bytes] = []
    stack: list[int] = []  # the values still due in each open container
    deepest, last, cut, at, end = 0, start, -1, start, len(data)
    while True:
        if at >= end or at - start > values.SHALLOW_LIMIT:
            return None
        head, began = data[at], at
        count = -1
        if head <= 0x7F or head >= 0xE0:
            at += 1
        elif head <= 0x8F:
            count, at = 2 * (head & 0x0F), at + 1
        elif head <= 0x9F:
            count, at = head & 0x0F, at + 1
        elif head <= 0xBF:
            at += 1 + (head & 0x1F)
        elif head in _FIXED:
            at += _FIXED[head]
        elif head in _SIZED:
            width, skip = _SIZED[head]
            at += 1 + width + skip + int.from_bytes(data[at + 1 : at + 1 + width], "big")
        elif head in _COUNTED:
            width, per = _COUNTED[head]
            count, at = per * int.from_bytes(data[at + 1 : at + 1 + width], "big"), at + 1 + width
        else:
            return None  # 0xC1: never used
        if at > end:
            return None
        if count >= 0:  # a container opens
            deepest = max(deepest, len(stack) + 1)
            if len(stack) == values.MAX_DEPTH:
                cut = began
            if count > 0:
                stack.append(count)
                continue
            if cut >= 0:  # an empty container past the depth: a stand-in too
                pieces += [data[last:cut], _STAND_IN]
                last, cut = at, -1
        while stack:  # the value is whole: close what it completes
            stack[-1] -= 1
            if stack[-1]:
                break
            stack.pop()
            if len(stack) == values.MAX_DEPTH and cut >= 0:
                pieces += [data[last:cut], _STAND_IN]
                last, cut = at, -1
        if not stack:
            pieces.append(data[last:at])
            return b"".join(pieces), at, deepest


def shallow_all(data: bytes) -> tuple[bytes, int] | None:
    """``shallow`` of every value of ``data`` one after another (a packet may hold several), and the
    deepest; None when they are not whole values."""
    pieces: list[bytes] = []
    at = deepest = 0
    while at < len(data):
        found = shallow(data, at)
        if found is None:
            return None
        piece, at, depth = found
        pieces.append(piece)
        deepest = max(deepest, depth)
    return b"".join(pieces), deepest
