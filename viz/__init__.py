"""Pictures of furball's answers, drawn with matplotlib.

The top layer: it imports the engine, nothing imports it. The CLI reaches its
renderers through the ``furball.plot`` entry points. Every drawing function takes an
``ax`` (or creates one) and returns the artists it drew.
"""
