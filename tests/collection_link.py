# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Where ansible finds the working tree as gcore.platform: one definition for the tests and the bench."""

from __future__ import annotations

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
COLLECTIONS = ROOT / ".build" / "collections"


def collections_path():
    """A collections path holding ansible_collections/gcore/platform -> the repo root (a symlink, as the Makefile makes it)."""
    link = COLLECTIONS / "ansible_collections" / "gcore" / "platform"
    if not link.exists():
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(ROOT, target_is_directory=True)
    return str(COLLECTIONS)
