import os

import pytest
from hypothesis import HealthCheck, settings

# "ci" keeps the whole suite within a few minutes on a 2-core machine; use
# HYPOTHESIS_PROFILE=thorough locally to search harder.
settings.register_profile("ci", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

HEAVY = ("cluster", "browser", "db")
"""Markers of tests that start a real component (a Dask cluster, Chromium, PostgreSQL):
each also counts as ``slow``, so ``pytest -m "not slow"`` is the quick run."""


def pytest_collection_modifyitems(config, items):
    for item in items:
        if any(item.get_closest_marker(name) for name in HEAVY) and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def cli(capsys):
    """Run ``furball ARGS`` in-process: ``code, out, err = cli([...])`` (exit status,
    standard output, standard error). Arguments may be paths or numbers."""
    from furball.scenarios.cli import main

    def run(argv):
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run
