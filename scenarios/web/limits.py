"""How much one client may make a room server hold: the limits on creating rooms and
how long rooms are kept (docs/rooms.md, "Security choices").

A *client* is the address a request comes from (:func:`client_key`: an IPv4 address, or
the /64 network of an IPv6 address, which one machine may fill with addresses at will).
Behind a reverse proxy every request comes from the proxy's address, so every client
shares these limits there. No framework is imported here: the room model uses it.
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from cachetools import TTLCache

from .security import Bucket

__all__ = ["RoomLimits", "Creations", "client_key"]

DAY_S = 86_400.0


@dataclass(frozen=True)
class RoomLimits:
    """The limits on rooms (every one > 0; ``expire_every_s`` 0: never expire).

    * ``create_per_min`` / ``create_burst``: rooms a client may create a minute, with
      bursts of ``create_burst`` (a token bucket per client);
    * ``open_per_client``: the most unfinished rooms one client's creations may hold;
    * ``open_total``: the most unfinished rooms the server holds (from all clients);
    * ``finished_kept_s``: how long a finished game's room (its record) is kept after
      its last move;
    * ``idle_kept_s``: how long an unfinished room is kept after its last event (or its
      creation): an abandoned room;
    * ``expire_every_s``: how often the server removes the rooms past those times;
    * ``chat_per_min`` / ``chat_burst``: chat lines a seat may write a minute, with
      bursts of ``chat_burst`` (a token bucket per seat and room);
    * ``chat_chars``: the longest chat line, in characters;
    * ``chat_lines``: the most chat lines a room keeps (then its chat is full)."""

    create_per_min: float = 6.0
    create_burst: float = 200.0
    open_per_client: int = 200
    open_total: int = 10_000
    finished_kept_s: float = 90 * DAY_S
    idle_kept_s: float = 7 * DAY_S
    expire_every_s: float = 600.0
    chat_per_min: float = 20.0
    chat_burst: float = 5.0
    chat_chars: int = 500
    chat_lines: int = 2000


def client_key(address: str | None) -> str:
    """Whom creation limits count ``address`` as: the address itself, an IPv6 address's
    /64 network, ``"?"`` when unknown."""
    if not address:
        return "?"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Creations:
    """Each client's token bucket for creating rooms (at most ``most_clients`` tracked,
    each forgotten once its bucket would be full again)."""

    def __init__(self, limits: RoomLimits, most_clients: int = 20_000):
        self.rate = limits.create_per_min / 60.0
        self.burst = limits.create_burst
        refill_s = self.burst / self.rate if self.rate > 0 else 3600.0
        self._buckets: TTLCache = TTLCache(maxsize=most_clients, ttl=max(1.0, refill_s))

    def take(self, client: str) -> bool:
        """Whether ``client`` may create a room now (and the room is counted)."""
        bucket = self._buckets.get(client) or Bucket(self.rate, self.burst)
        self._buckets[client] = bucket  # kept until it would be full again
        return bucket.take()
