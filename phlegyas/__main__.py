"""``python -m phlegyas`` is the ``phlegyas`` command."""
import sys

from .cli import main

sys.exit(main())
