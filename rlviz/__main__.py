"""``python -m rlviz compare ...``: see :mod:`rlviz.cli`."""

import sys

from rlviz.cli import main

sys.exit(main())
