"""The Tier 1 detectors, one module per family; ``findings`` is the entry the shell analysis calls.

Every detector has the signature ``detect(inv, env, out) -> None`` and appends ``Finding`` objects to
``out``. ``dispatch.DETECTORS`` maps a program name to the detectors that care about it, so an
invocation of ``ls`` costs one dict lookup.
"""
