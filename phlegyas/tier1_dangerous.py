"""The seed's import path of Tier 1: ``from phlegyas.tier1_dangerous import DangerousPatternDetector``.

The detectors live in ``phlegyas.analysis.tier1``; the seed's class in ``phlegyas.analysis.seed``.
"""
from phlegyas.analysis.seed import DangerousPatternDetector
from phlegyas.analysis.tier1.catalog import CLASSES, FindingClass
from phlegyas.analysis.tier1.findings import file_tool_findings, invocation_findings, script_findings

__all__ = ["CLASSES", "DangerousPatternDetector", "FindingClass", "file_tool_findings", "invocation_findings",
           "script_findings"]
