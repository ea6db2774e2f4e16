"""``python -m furball ...`` is the ``furball`` command."""
import sys

from furball.scenarios.cli import main

sys.exit(main())
