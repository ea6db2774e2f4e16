"""The error raised for bad user input, anywhere in furball.

Layers below the CLI raise :class:`InputError` with a one-line message naming the file,
the field and what was expected; the CLI prints that line and exits with status 2.
Anything else escaping is a bug in furball, not a user mistake.
"""


class InputError(ValueError):
    """Bad user input: a one-line message naming file, field and what was expected."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))
