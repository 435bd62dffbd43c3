"""The screenshot generator of ``tools/render_screens.py``, imported by path (tools/ is no package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parents[2] / "tools" / "render_screens.py"
_spec = importlib.util.spec_from_file_location("render_screens", _PATH)
assert _spec is not None and _spec.loader is not None
render_screens = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("render_screens", render_screens)
_spec.loader.exec_module(render_screens)
