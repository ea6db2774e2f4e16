"""The one geometric tolerance of furball.

Every predicate that must decide "touching or overlapping?", "through the edge or
through the corner?" or "on the line or beside it?" compares a length against
:data:`TOLERANCE_MM` and nothing else. Lengths are millimetres on the table, so the
tolerance is 1 nm: far below anything a ruler can show, far above the ~1e-12 mm
rounding noise of double precision on a table a few metres across. Because every test
compares a *relative* length (a penetration depth, a distance from a corner) with the
same constant, predicates give the same answer after any rigid motion of the scene
(rounding moves those lengths by ~1e-13 mm, a million times less than the tolerance).

Conventions built on it (see docs/conventions.md):

* two rectangles **overlap** when they interpenetrate by more than the tolerance
  along every separating axis; closer than that they are **touching** (DF.O*, engine
  convention "touching is not overlap");
* a segment **crosses an edge** only through the edge's interior, at more than the
  tolerance from both of its corners (DF.T1 engine convention: a corner crossing is
  not an edge crossing);
* a segment **crosses a base** only when it enters the interior by more than the
  tolerance (grazing an edge or a corner does not block).
"""

TOLERANCE_MM: float = 1e-6
"""Lengths within this many millimetres of a decision boundary count as *on* it."""
