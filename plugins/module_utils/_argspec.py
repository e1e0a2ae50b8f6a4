# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Ansible's argument-spec validation as every gcore.platform module uses it (``GcoreModule`` in ``_base`` builds it).

This module is internal to the collection: its interface may change at any time.

Three things differ from ansible-core's own, each so that bad input gets a message naming the option, never a
traceback: every argument-spec error is reported (not only the first), ``inf`` is refused as an int like any other
non-integer, and a NUL character in an option reaches that option's own check.
"""

from __future__ import annotations

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.common import parameters as _parameters

_CHECK_INT = _parameters.DEFAULT_TYPE_VALIDATORS["int"]


def _check_int(value):
    """Ansible's int check, with an infinite value (``inf``) refused like any other non-integer: from ansible-core 2.19
    ``int(Decimal('inf'))`` raises OverflowError there, a traceback instead of a message naming the option."""
    try:
        return _CHECK_INT(value)
    except OverflowError:
        raise TypeError("%r cannot be converted to an int: it is not a finite number" % (value,))


_parameters.DEFAULT_TYPE_VALIDATORS["int"] = _check_int


class ArgSpecModule(AnsibleModule):
    """AnsibleModule reporting every argument-spec error, not only the first.

    The first error alone may not name the option (a list element that is not a dict gives "dictionary
    requested, could not parse JSON or key=value"); the later ones do.

    It also keeps the parameters as the task gave them (``raw_params``): Ansible's ``float`` type turns
    ``true`` into 1.0, and only the raw value shows that a boolean was given for a number.
    """

    raw_params = {}

    def _load_params(self):
        super()._load_params()
        self.raw_params = dict(self.params)  # the validator converts a deep copy: the given values stay as given

    def fail_json(self, msg, **kwargs):
        errors = getattr(getattr(self, "validation_result", None), "errors", None)
        if errors and len(errors.errors) > 1 and msg.endswith(errors.msg):
            msg = msg[:len(msg) - len(errors.msg)] + "; ".join(dict.fromkeys(errors.messages))
        super().fail_json(msg=msg, **kwargs)

    def _log_to_syslog(self, msg):
        # syslog refuses a NUL character (ValueError on Python 3.12, which AnsibleModule turns into "Failed to log to
        # syslog"): log it escaped, so a NUL in an option reaches that option's own check and its message.
        super()._log_to_syslog(msg.replace("\x00", "\\x00"))
