# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Reading ``ansible-inventory --list`` output, shared by the inventory stories and ``make bench``."""

from __future__ import annotations


def plain(value):
    """The --list output without its marks of untrusted text (ansible-core 2.19 writes ``{"__ansible_unsafe": text}``)."""
    if isinstance(value, dict):
        if list(value) == ["__ansible_unsafe"]:
            return value["__ansible_unsafe"]
        return dict((key, plain(item)) for key, item in value.items())
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value
