# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Make ``ansible_collections.gcore.platform`` importable from the working tree."""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
COLLECTIONS = ROOT / ".build" / "collections"
LINK = COLLECTIONS / "ansible_collections" / "gcore" / "platform"
if not LINK.exists():
    LINK.parent.mkdir(parents=True, exist_ok=True)
    LINK.symlink_to(ROOT, target_is_directory=True)
for path in (str(COLLECTIONS), str(ROOT / "tests")):
    if path not in sys.path:
        sys.path.insert(0, path)
