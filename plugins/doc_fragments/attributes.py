# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # A module that changes a resource.
    DOCUMENTATION = r"""
attributes:
  check_mode:
    description: Can run in check_mode and return changed status prediction without modifying target.
    support: full
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check_mode), when in diff mode.
    support: full
  idempotent:
    description:
      - When run twice in a row with the same input, the second run reports no change and sends no write.
    support: full
  action_group:
    description: Use C(group/gcore.platform.all) in C(module_defaults) to set defaults for this module.
    support: full
    membership:
      - gcore.platform.all
"""

    # A module that only reads (info modules and the read-only POST modules).
    INFO_MODULE = r"""
attributes:
  check_mode:
    description: Runs normally in check mode; it never changes anything.
    support: full
    details:
      - This module only reads, so it behaves the same with and without C(--check).
  diff_mode:
    description: Nothing changes, so there is no diff.
    support: N/A
  idempotent:
    description: It only reads, so it never reports a change.
    support: full
  action_group:
    description: Use C(group/gcore.platform.all) in C(module_defaults) to set defaults for this module.
    support: full
    membership:
      - gcore.platform.all
"""
