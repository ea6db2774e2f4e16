"""Pictures of furball's answers, drawn with matplotlib.

The layer between the CLI and the engines: it imports the engines (and geometry), and
only the CLI imports it. It draws; it never decides where a file goes — callers pass
the path (the CLI passes a temporary one and moves it into place). Every drawing
function takes an ``ax`` (or creates one) and returns the artists it drew.
"""
