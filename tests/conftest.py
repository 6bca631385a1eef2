"""Shared test setup: the repository root on sys.path, so `import rlviz` and `app_common` work
however pytest is started."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
