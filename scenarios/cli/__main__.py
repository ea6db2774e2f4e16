"""`python -m scenarios.cli ...` is the `furball` command."""
import sys

from . import main

sys.exit(main())
