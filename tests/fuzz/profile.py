"""The fuzz tests' hypothesis profile: few examples and derandomized in CI, so a run is short and
the same every time; `FUZZ_EXAMPLES=5000 FUZZ_SEED=random` for a long local hunt."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "100"))
# Derandomized (the same examples every run) unless FUZZ_SEED=random asks for new ones.
RANDOM = os.environ.get("FUZZ_SEED", "") == "random"

settings.register_profile(
    "fuzz",
    max_examples=EXAMPLES,
    derandomize=not RANDOM,
    deadline=None,  # a Django request or a whole turn is not a microbenchmark
    database=None if not RANDOM else settings.default.database,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,  # each example restores the database itself
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
    print_blob=True,
)
FUZZ = settings.get_profile("fuzz")
