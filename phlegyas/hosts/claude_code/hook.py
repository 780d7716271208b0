"""The hook entry that installs of 0.2 wrote (``-c 'from phlegyas.hosts.claude_code.hook import main; …'``):
it forwards to the hook client of every host, ``phlegyas.hosts.hook.client``, so such an install keeps
working until ``phlegyas install`` rewrites it. Nothing else is imported: the hook runs for every tool call.
"""
from phlegyas.hosts.hook.client import main, run

__all__ = ["main", "run"]

if __name__ == "__main__":
    raise SystemExit(main())
