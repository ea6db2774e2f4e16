"""Pictures in: real tables and maneuver cards read from photos (docs/capture.md).

The layer beside :mod:`furball.viz` (pictures out): above the game engines, maneuvers
and geometry, below the CLI and the web. OpenCV comes with the ``capture`` extra
(``pip install 'furball[capture]'``); without it every entry point raises a one-line
:class:`~furball.errors.MissingExtra`.

* :func:`~furball.capture.table.capture_table` -> :class:`~furball.capture.table.CapturedTable`
* :func:`~furball.capture.sheet.save_marker_sheet`: the printed markers
* :func:`~furball.capture.card.capture_card`: a maneuver card's motion from a photo
"""
