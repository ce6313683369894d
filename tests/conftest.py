"""Shared test settings.

Hypothesis runs one of two profiles, chosen by the environment variable
``BIRIBA_HYPOTHESIS_PROFILE``: ``quick`` (the default, for the README's test command) and
``ci`` (``.ci/run``), which tries four times as many examples in every property and fuzz
test. Tests that set their own number of examples write it as ``examples(n)`` (from
:mod:`tests.helpers`), so that it scales with the profile.
"""

from hypothesis import HealthCheck, settings

from .helpers import PROFILE, SCALES

for name, scale in SCALES.items():
    settings.register_profile(
        name,
        max_examples=100 * scale,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        derandomize=True,
    )
settings.load_profile(PROFILE)
