"""The hook entry of installs made before 0.2 (``python -P -c 'from phlegyas.hook import main; …'``).

Settings files written by an earlier ``phlegyas install`` name this module; it forwards to the hook
client, ``phlegyas.hosts.hook.client``, so such an install keeps working until ``phlegyas install``
rewrites it. Nothing else is imported: the hook runs for every tool call.
"""
from phlegyas.hosts.hook.client import main, run

__all__ = ["main", "run"]

if __name__ == "__main__":
    raise SystemExit(main())
