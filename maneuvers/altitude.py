"""Altitude, climb counters and bomb load (DF.H1-DF.H6, DF.B1, DF.B2).

Pure transitions on :class:`~maneuvers.plane.PlaneState` values; each returns the new plane
and a list of human-readable events citing the rule applied (English ``str``, each a
:class:`~furball.i18n.MessageText` that a report renders in its reader's language).

Engine conventions (docs/dogfight.md):

* **Bomb load at exactly half** (DF.B1 vs DF.B2 disagree there): the restrictions end
  as soon as half the bombs are dropped, so a plane is *fully loaded* only while it
  holds strictly more than half of its starting load: ``2 * bombs > bombs_at_start``.
* **Landing**: a descent card at altitude 0 discards every climb counter (DF.H4) and
  the plane, at altitude 0 without a counter, has landed (DF.H3).
* **Unloading at altitude 0** (DF.B2 with DF.H3): the counter DF.B2 discards is never
  the last one of a plane at altitude 0 (it would land in mid-air); it keeps one.
"""
from __future__ import annotations

from furball.errors import InputError
from furball.i18n import MessageText, msg, msg_plural

from .card import ManeuverCard
from .plane import PlaneState, PlaneStatus

__all__ = ["fully_loaded", "effective_climb_rate", "after_card", "after_drop", "AltitudeError"]


class AltitudeError(InputError):
    """A card would take a plane above the ceiling (DF.H3)."""


def fully_loaded(plane: PlaneState) -> bool:
    """DF.B1/DF.B2: more than half of the starting bomb load still aboard."""
    return plane.bombs_at_start > 0 and 2 * plane.bombs > plane.bombs_at_start


def effective_climb_rate(plane: PlaneState) -> int:
    """DF.H6 climb rate, plus 1 while fully loaded (DF.B1)."""
    return plane.climb_rate + (1 if fully_loaded(plane) else 0)


def after_card(plane: PlaneState, card: ManeuverCard, max_altitude: int) -> tuple[PlaneState, list[str]]:
    """Apply a card's altitude effect (flags ``climb`` / ``descent``).

    Raises :class:`AltitudeError` when a climb would exceed ``max_altitude`` (DF.H3).
    """
    if "climb" in card.flags:
        counters = plane.climb_counters + 1
        rate = effective_climb_rate(plane)
        if counters >= rate:
            if plane.altitude + 1 > max_altitude:
                raise AltitudeError(
                    f"plane '{plane.name}': card '{card.id}' would climb to altitude "
                    f"{plane.altitude + 1}, above the ceiling {max_altitude} (DF.H3)")
            return plane.replace(altitude=plane.altitude + 1, climb_counters=0), [MessageText(msg(
                "climbs to altitude {altitude} ({counters}/{rate} counters, DF.H6)", altitude=plane.altitude + 1,
                counters=counters, rate=rate))]
        return plane.replace(climb_counters=counters), [MessageText(msg(
            "takes a climb counter ({counters}/{rate}, DF.H6)", counters=counters, rate=rate))]
    if "descent" in card.flags:
        if plane.altitude == 0:
            return plane.replace(climb_counters=0, status=PlaneStatus.LANDED), [MessageText(msg(
                "descends at altitude 0, discards its climb counters and lands (DF.H4, DF.H3)"))]
        level = plane.altitude - 1
        if level == 0:
            return plane.replace(altitude=0, climb_counters=1), [MessageText(msg(
                "descends to altitude 0 and keeps exactly one climb counter (DF.H4)"))]
        return plane.replace(altitude=level, climb_counters=0), [MessageText(msg(
            "descends to altitude {altitude} and discards its climb counters (DF.H4)", altitude=level))]
    return plane, []


def after_drop(plane: PlaneState, count: int) -> tuple[PlaneState, list[str]]:
    """Drop ``count`` bombs; when that ends the full load, apply DF.B2.

    Raises :class:`InputError` when ``count`` is negative or more than the bombs aboard.
    """
    if count == 0:
        return plane, []
    if not 0 < count <= plane.bombs:
        raise InputError(f"plane '{plane.name}': cannot drop {count} bombs with {plane.bombs} aboard (DF.B1)")
    was_loaded = fully_loaded(plane)
    dropped = plane.replace(bombs=plane.bombs - count)
    events: list[str] = [MessageText(msg_plural("drops {count} bomb ({left}/{bombs_at_start} left)",
                                     "drops {count} bombs ({left}/{bombs_at_start} left)", count,
                                     left=dropped.bombs, bombs_at_start=plane.bombs_at_start))]
    if was_loaded and not fully_loaded(dropped):
        events.append(MessageText(msg("no longer fully loaded: restrictions end (DF.B2)")))
        if dropped.climb_counters >= dropped.climb_rate:
            keep = 1 if dropped.altitude == 0 else 0  # DF.H3: at altitude 0 the last counter keeps it flying
            if dropped.climb_counters - 1 >= keep:
                dropped = dropped.replace(climb_counters=dropped.climb_counters - 1)
                events.append(MessageText(msg("had enough climb counters to climb under its restored rate: "
                                              "stays at its level and discards 1 counter (DF.B2)")))
            else:
                events.append(MessageText(msg("had enough climb counters to climb under its restored rate: "
                                              "stays at its level and keeps its last counter, which keeps it "
                                              "flying at altitude 0 (DF.B2, DF.H3, engine convention)")))
    return dropped, events
