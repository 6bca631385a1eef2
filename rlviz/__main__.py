"""``python -m rlviz app|compare|balancer ...``, the same as the ``rlviz`` command: see :mod:`rlviz.cli`."""

import sys

from rlviz.cli import main

sys.exit(main())
