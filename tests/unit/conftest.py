# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Make ``ansible_collections.gcore.platform`` importable from the working tree."""

from __future__ import annotations

import pathlib
import sys

TESTS = str(pathlib.Path(__file__).resolve().parents[1])
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

from collection_link import collections_path  # noqa: E402  pylint: disable=wrong-import-position

COLLECTIONS = collections_path()
if COLLECTIONS not in sys.path:
    sys.path.insert(0, COLLECTIONS)
