"""The seed's import path of Tier 2: ``from phlegyas.tier2_safe import SafeOperationDetector, SafePatternStore``.

The categories and places live in ``phlegyas.analysis.tier2``; the seed's detector in ``phlegyas.analysis.seed``.
"""
from phlegyas.analysis.seed import SafeOperationDetector
from phlegyas.analysis.tier2 import SafePatternError, SafePatternStore

__all__ = ["SafeOperationDetector", "SafePatternError", "SafePatternStore"]
