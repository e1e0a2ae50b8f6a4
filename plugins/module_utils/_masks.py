# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Secret members of the records the service returns, masked before a module shows them.

This module is internal to the collection: its interface may change at any time.

``masked`` is a copy of a record (a load balancer with its listeners, a listener, a diff view) with every member named
in ``SECRET_MEMBERS`` replaced by ``MASK`` at any depth: a load balancer listener's ``user_list[].encrypted_password``
(a password hash, which the service answers as it holds it) never reaches a result, a diff or a log.
"""

from __future__ import annotations

MASK = "********"  # as Ansible shows a no_log value
SECRET_MEMBERS = frozenset(("encrypted_password",))


def masked(value):
    """``value`` (a record, a list, a view) with every secret member that holds something replaced by ``MASK``."""
    if isinstance(value, dict):
        return dict((key, MASK if key in SECRET_MEMBERS and item not in (None, "") else masked(item)) for key, item in value.items())
    if isinstance(value, list):
        return [masked(item) for item in value]
    return value
