"""The analysis: shell parsing, program knowledge, paths, Tier 1 findings and Tier 2 categories.

``dispatch.analyze(call, env)`` turns one tool call into a ``core.analysis.Analysis``. This layer
imports only ``phlegyas.core``.
"""
