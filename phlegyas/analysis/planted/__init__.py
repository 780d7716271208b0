"""Writes that run later, judged by what they will run (issue 11, item 7).

A hook, a ``package.json`` script, a Makefile recipe, a ``conftest.py`` … is code that an auto-allowed
``git commit``, ``npm test``, ``make`` or ``pytest`` runs with no one asked, so writing one is judged by
its content: ``catalogue`` says which files those are, ``extract`` pulls the code out of new content,
``judge`` analyses it (``write.plants_code`` denies, ``write.plants_unchecked`` asks), and
``shell_writes`` finds the content of Bash writes. Ordinary source files are read for Tier 1 denies
only (``sources``, ``source_readers``); package configuration and manifests for installs pointed at
another source (``package_sources``: ``write.package_source`` asks). ``dispatch`` calls it for the file tools,
``report`` for redirections and ``tee``.
"""
from phlegyas.analysis.planted.catalogue import KINDS, PACKAGE_KINDS, SOURCE_KINDS, PlantedKind, planted_kind
from phlegyas.analysis.planted.judge import (
    PACKAGE_SOURCE,
    PLANTS_CODE,
    PLANTS_UNCHECKED,
    ShellTools,
    content_findings,
)
from phlegyas.analysis.planted.shell_writes import content_shown, shell_write_findings

__all__ = ["KINDS", "PACKAGE_KINDS", "PACKAGE_SOURCE", "PLANTS_CODE", "PLANTS_UNCHECKED", "SOURCE_KINDS", "PlantedKind",
           "ShellTools", "content_findings", "content_shown", "planted_kind", "shell_write_findings"]
