"""A captured table as a dogfight scenario (``furball capture table --out``).

Each base found becomes a plane: its name, side, deck and altitude from the fleet file
(or ``P<n>``, its own side, the shipped deck of its base kind, altitude 1), its base
the sticker's kind, its pose the measured one. The scenario's ``[capture]`` says
``provenance = "measured"``, the photo and the time; each plane's
``placement_error`` gives the standard deviations of its measured pose (the larger
of x and y, and the heading), which ``furball turn --margins`` samples
(docs/capture.md).
"""
from __future__ import annotations

import datetime
import pathlib

from furball.geometry.pose import Pose

from .table import CapturedTable

__all__ = ["captured_scenario", "room_request"]


def captured_scenario(captured: CapturedTable, taken: datetime.datetime | None = None, name: str = ""):
    """The :class:`~furball.scenarios.dogfight.Scenario` of ``captured`` (turn 1, no
    orders). ``taken``: when the photo was taken (default: now, UTC). Raises
    InputError when a base's stand lies off the table (DF.E1) or a fleet deck does not
    load."""
    from furball.maneuvers.bases import shipped_bases
    from furball.maneuvers.deck import find_deck
    from furball.maneuvers.margins import PlacementError
    from furball.maneuvers.plane import PlaneState
    from furball.scenarios.dogfight import Scenario, Table

    bases = shipped_bases()
    planes = []
    for plane, kind, pose in zip(captured.fleet, captured.kinds, captured.poses):
        planes.append(PlaneState(name=plane.name, side=plane.side, deck=find_deck(plane.deck), base=bases[kind],
                                 pose=Pose(float(pose[0]), float(pose[1]), float(pose[2])),
                                 altitude=max(1, plane.altitude)))
    when = (taken or datetime.datetime.now(datetime.UTC)).replace(microsecond=0).isoformat()
    photo = pathlib.Path(captured.photo).name
    notes = (f"measured from the photo {photo} ({when}): {len(planes)} bases found"
             + (f", not found: {', '.join(captured.not_found)}" if captured.not_found else "")
             + (". Sides P<n>: give each plane its side" if any(p.side == p.name for p in captured.fleet) else ""))
    table = Table(width_mm=captured.width_mm, height_mm=captured.height_mm, planes=tuple(planes),
                  name=name or pathlib.Path(photo).stem or "captured table", notes=notes)
    errors = {}
    for n, (xy, heading) in captured.placement_errors().items():
        errors[n] = PlacementError(min(max(xy, 1e-6), 100.0), min(max(heading, 1e-6), 100.0))
    return Scenario(table, {}, placement_errors=errors,
                    capture={"provenance": "measured", "photo": photo, "taken": when,
                             "notes": f"furball capture table; corner noise {captured.noise_px:.2f} px, tilt "
                                      f"{captured.tilt_deg:.0f} deg, {captured.mm_per_px:.2f} mm per pixel"})


def room_request(captured: CapturedTable, title: str = "", seats: list | None = None) -> dict:
    """The request that opens a new dogfight room on the captured table (``POST
    /api/rooms``'s body; :func:`furball.scenarios.web.rooms.make_spec` reads it): the
    room's ``scenario`` option is :func:`captured_scenario`'s file text, so the room
    keeps its ``[capture]`` provenance and each plane's placement error. ``title``:
    default "Captured table: PHOTO"; ``seats``: one entry per side (``None`` for a
    person or a bot name), default every seat a person."""
    from furball.scenarios.dogfight import scenario_toml

    photo = "".join(c for c in pathlib.Path(captured.photo).name if c.isprintable())[:40]
    body: dict = {"game": "dogfight", "options": {"scenario": scenario_toml(captured_scenario(captured))},
                  "title": title or f"Captured table: {photo or 'photo'}"}
    if seats is not None:
        body["seats"] = list(seats)
    return body
