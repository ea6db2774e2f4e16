"""Pictures of furball's answers, drawn with matplotlib, and drawings described as data.

* dogfight pictures: :mod:`.plots` (``furball move``), :mod:`.fan`, :mod:`.zones`,
  :mod:`.turn` and :mod:`.animate` (a turn, still or moving), :mod:`.analyze`,
  :mod:`.dogfight` (a finished game), :mod:`.true_scale` (printable PDFs at 1:1);
* card and board games: :mod:`.sketch` (a drawing as data, drawn by matplotlib here
  through :mod:`.sketch_draw` and as SVG by a room's page), :mod:`.board` (any board
  graph), :mod:`.canuck`, :mod:`.yorktown`, :mod:`.white_christmas`;
* :mod:`.sweep` (the outcome of a sweep, with 95 % intervals);
* shared parts: :mod:`.picture` (what to draw, where, its title), :mod:`.draw`
  (primitives), :mod:`.labels`, :mod:`.style`; :mod:`.api` — what the CLI asks of viz.

The layer above the engines: it imports the engines (and geometry); the CLI and the web
server import it (the server for the drawings its rooms send as data). It draws; it
never decides where a file goes — callers pass the path (the CLI passes a temporary one
and moves it into place). Every drawing function takes an ``ax`` (or creates one) and
returns the artists it drew.
"""
