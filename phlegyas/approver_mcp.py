"""The seed's path of the MCP permission server (``phlegyas.hosts.mcp.server``), kept working.

The seed's MCP config runs this file by path, ``python path/to/phlegyas/approver_mcp.py``; ``python -m
phlegyas.approver_mcp`` works too. Run by path, Python puts this file's directory (the package itself)
first on ``sys.path``: it is taken off, and the directory holding the package put in its place, so
``phlegyas`` imports as the package and none of its sub-packages shadows a top-level module.
"""
import os
import sys

if not __package__:  # run as a file
    _PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _PACKAGE_DIR]
    sys.path.insert(0, os.path.dirname(_PACKAGE_DIR))

from phlegyas.hosts.mcp.server import ApprovalService, build_server, configure_logging, main, serve  # noqa: E402 - after the path is set

__all__ = ["ApprovalService", "build_server", "configure_logging", "main", "serve"]

if __name__ == "__main__":
    sys.exit(main())
