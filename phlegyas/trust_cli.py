"""``python -m phlegyas.trust_cli``, the earlier module path of ``phlegyas-trust`` (``phlegyas.cli.trust``)."""
import sys

from phlegyas.cli.trust import main

if __name__ == "__main__":
    sys.exit(main())
