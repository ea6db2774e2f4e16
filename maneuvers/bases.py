"""Bases as data: ``[base.NAME]`` tables in TOML files, and ``LENGTHxWIDTH`` specs.

File format (docs/formats.md)::

    provenance = "reconstruction"      # default for the bases of this file
    notes = "how the numbers were obtained"

    [base.small]
    length_mm = 44.0                   # along the heading
    width_mm = 60.0
    # optional: front_mark_mm, rear_mark_mm (along the axis), stand_x_mm, stand_y_mm,
    #           provenance, notes,
    #           firing_arcs = [ { centre_deg = 0.0, half_width_deg = 45.0 } ]  (from the stand)

The shipped bases live in ``maneuvers/data/bases.toml``.
"""
from __future__ import annotations

import pathlib
import re

from furball.errors import InputError
from furball.geometry.base import Base
from furball.geometry.datafile import MAX_LENGTH_MM, Table, is_file, load_toml
from furball.i18n import N_, msg

from .deck import DATA_DIR

__all__ = ["parse_bases", "load_bases", "shipped_bases", "find_base", "sized_base", "MIN_BASE_MM"]

MIN_BASE_MM = 1.0
"""The smallest base length, width and mark separation accepted, in mm: a base far below
any real miniature's (tens of mm) but far above the geometry's tolerance (1e-6 mm), so a
card's path is always well defined (a 1e-6 mm base made its sampled path NaN)."""

BASE_FIELDS = ("length_mm", "width_mm", "front_mark_mm", "rear_mark_mm", "stand_x_mm",
               "stand_y_mm", "provenance", "notes", "firing_arcs")
_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]*)?)\s*[xX×]\s*([0-9]+(?:\.[0-9]*)?)\s*$")


def _base(raw, name: str, where: str, default_provenance: str | None) -> Base:
    t = Table(raw, f"{where}: base '{name}'").only(BASE_FIELDS)
    provenance = t.provenance() if "provenance" in t or default_provenance is None else default_provenance
    length = t.length("length_mm", positive=True)
    width = t.length("width_mm", positive=True)
    kwargs = {}
    for key in ("front_mark_mm", "rear_mark_mm", "stand_x_mm", "stand_y_mm"):
        if key in t:
            kwargs[key] = t.length(key)
    if "firing_arcs" in t:
        arcs = []
        for i, raw in enumerate(t.list("firing_arcs")):
            arc = Table(raw, f"{t.where}: firing_arcs[{i}]").only(("centre_deg", "half_width_deg"))
            arcs.append((arc.number("centre_deg", minimum=-360.0, maximum=360.0),
                         arc.number("half_width_deg", positive=True, maximum=180.0)))
        if not arcs:
            raise t.error("firing_arcs", "at least one { centre_deg, half_width_deg }", [])
        kwargs["firing_arcs"] = tuple(arcs)
    try:
        base = Base(length, width, name=name, provenance=provenance, source=where, **kwargs)
    except ValueError as exc:
        raise InputError(f"{t.where}: {exc}") from None
    if min(base.length_mm, base.width_mm) < MIN_BASE_MM or base.mark_separation_mm < MIN_BASE_MM:
        raise InputError(msg("{where}: expected a length, a width and marks at least {least} mm apart (got {length} x "
                             "{width} mm, marks {marks} mm apart)", where=t.where, least=format(MIN_BASE_MM, "g"),
                             length=format(base.length_mm, "g"), width=format(base.width_mm, "g"),
                             marks=format(base.mark_separation_mm, "g")))
    return base


def parse_bases(data: dict, source: str) -> dict[str, Base]:
    """The ``[base.NAME]`` tables of parsed TOML ``data``, by name."""
    top = Table(data, source)
    default = top.provenance() if "provenance" in top else None
    bases = top.table("base", None)
    if bases is None:
        raise top.error("base", N_("at least one [base.NAME] table"))
    out = {}
    for name in bases.keys():
        out[name] = _base(bases.data[name], name, source, default)
    if not out:
        raise top.error("base", N_("at least one [base.NAME] table"))
    return out


def load_bases(path: str | pathlib.Path) -> dict[str, Base]:
    """Load the bases of a file (a bases file, or a deck file holding ``[base.*]``)."""
    return parse_bases(load_toml(path), str(path))


def shipped_bases() -> dict[str, Base]:
    """The bases shipped in ``maneuvers/data/bases.toml``, by name."""
    return parse_bases(load_toml(DATA_DIR / "bases.toml"), "maneuvers/data/bases.toml")


def sized_base(spec: str) -> Base | None:
    """The base ``LENGTHxWIDTH`` (mm; marks at the edge middles, stand at the centre), or
    ``None`` when ``spec`` is not of that form. Raises :class:`InputError` for sizes
    below :data:`MIN_BASE_MM` or above 1 km. Never opens a file."""
    m = _SIZE.match(spec)
    if not m:
        return None
    length, width = float(m.group(1)), float(m.group(2))
    if not (MIN_BASE_MM <= length <= MAX_LENGTH_MM and MIN_BASE_MM <= width <= MAX_LENGTH_MM):
        raise InputError(msg("base '{base}': expected LENGTHxWIDTH in millimetres from {least} to {most}", base=spec,
                             least=format(MIN_BASE_MM, "g"), most=format(MAX_LENGTH_MM, "g")))
    return Base(length, width, name=f"{length:g}x{width:g}", provenance="measured")


def find_base(spec: str) -> Base:
    """A base from a CLI/scenario spec.

    ``spec`` is a shipped base's name (``small``), ``LENGTHxWIDTH`` in mm (``44x60``,
    marks at the edge middles, stand at the centre), a file (``bases.toml``: it must
    hold exactly one base) or ``FILE.toml:NAME``. Raises :class:`InputError`.
    """
    sized = sized_base(spec)
    if sized is not None:
        return sized
    path, _, name = spec.rpartition(":") if spec.count(":") and ".toml:" in spec else (spec, "", "")
    if path.endswith(".toml") or "/" in path or is_file(path):
        bases = load_bases(path)
        if name:
            if name not in bases:
                raise InputError(msg("{file}: no base '{name}' (has: {bases})", file=path, name=name, bases=", ".join(bases)))
            return bases[name]
        if len(bases) != 1:
            raise InputError(msg("{file}: holds {count} bases ({bases}); pick one as {file}:NAME", file=path,
                                 count=len(bases), bases=", ".join(bases)))
        return next(iter(bases.values()))
    bases = shipped_bases()
    if spec in bases:
        return bases[spec]
    raise InputError(msg(
        "base '{base}': expected a shipped base ({bases}), LENGTHxWIDTH in mm, or a base file", base=spec[:40],
        bases=", ".join(sorted(bases))
    ))
