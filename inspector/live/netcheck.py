"""Does this machine have a network address besides loopback? libwebrtc needs one, even for a local server."""

from __future__ import annotations

import socket
import struct
import sys

_SIOCGIFADDR = 0x8915


def _ipv4_address(name: str) -> str | None:
    import fcntl

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            packed = fcntl.ioctl(sock.fileno(), _SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
        except OSError:
            return None
    return socket.inet_ntoa(packed[20:24])


def _ipv6_interfaces() -> set[str]:
    names = set()
    try:
        with open("/proc/net/if_inet6", encoding="ascii") as fh:
            for line in fh:
                fields = line.split()
                if len(fields) >= 6 and not fields[0].startswith("fe80"):
                    names.add(fields[5])
    except OSError:
        pass
    return names


def non_loopback_interfaces() -> list[str] | None:
    """Names of interfaces with a usable (non-loopback, non-link-local) address; None when unknown."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return None
    found = []
    v6 = _ipv6_interfaces()
    for name in names:
        if name == "lo":
            continue
        address = _ipv4_address(name)
        if (address and not address.startswith("127.")) or name in v6:
            found.append(name)
    return found


def only_loopback() -> bool:
    """True when we know for sure that loopback is the only interface with an address."""
    found = non_loopback_interfaces()
    return found is not None and not found


ONLY_LO_EXPLANATION = (
    "this machine has only the loopback interface `lo`: libwebrtc never offers loopback addresses, so the "
    "WebRTC connection cannot come up, even to a server on 127.0.0.1. Run where a network interface "
    "(such as eth0) has an address"
)
