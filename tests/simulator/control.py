# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Checks for what tests send to the control API (``/_sim/...``): settings and faults.

Every check raises ``ControlError`` with a message naming the key and the rule; the control API
answers it as ``400 {"error": message}`` and changes nothing. Settings are declared with a default
and one of the checks below (``core.SETTINGS`` and each resource's ``SETTINGS``).
"""

from __future__ import annotations

import math
import re


class ControlError(ValueError):
    """Bad control input: answered 400, nothing changed."""


HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


# ---- checks: each takes (name, value) and returns the value or raises ControlError -------------

def number(low=0.0, high=None):
    def check(name, value):
        if not _number(value) or value < low or (high is not None and value > high):
            raise ControlError("%s must be a number from %s%s, not %r" % (name, low, " to %s" % high if high is not None else "", value))
        return value
    return check


def integer(low=None):
    def check(name, value):
        if not isinstance(value, int) or isinstance(value, bool) or (low is not None and value < low):
            raise ControlError("%s must be an integer%s, not %r" % (name, " of at least %s" % low if low is not None else "", value))
        return value
    return check


def boolean(name, value):
    if not isinstance(value, bool):
        raise ControlError("%s must be true or false, not %r" % (name, value))
    return value


def text(name, value):
    if not isinstance(value, str):
        raise ControlError("%s must be a string, not %r" % (name, value))
    return value


def anything(_name, value):
    return value


def optional(inner):
    def check(name, value):
        return None if value is None else inner(name, value)
    return check


def mapping(values):
    """An object with string keys, each value checked by ``values``."""
    def check(name, value):
        if not isinstance(value, dict):
            raise ControlError("%s must be an object, not %r" % (name, value))
        for key, item in value.items():
            values("%s.%s" % (name, key), item)
        return value
    return check


def listing(items):
    def check(name, value):
        if not isinstance(value, list):
            raise ControlError("%s must be a list, not %r" % (name, value))
        for index, item in enumerate(value):
            items("%s[%s]" % (name, index), item)
        return value
    return check


def record(fields, required=()):
    """An object with exactly these members (``fields``: name -> check)."""
    def check(name, value):
        if not isinstance(value, dict):
            raise ControlError("%s must be an object, not %r" % (name, value))
        unknown(name, value, fields)
        for key in required:
            if key not in value:
                raise ControlError("%s.%s is required" % (name, key))
        for key, item in value.items():
            fields[key]("%s.%s" % (name, key), item)
        return value
    return check


def decimal_text(name, value):
    """A decimal given as a number or a numeric string (``"0.25"``)."""
    try:
        if _number(value) or (isinstance(value, str) and math.isfinite(float(value))):
            return value
    except ValueError:
        pass
    raise ControlError("%s must be a decimal number or numeric string, not %r" % (name, value))


def unknown(where, given, known):
    extra = sorted(set(given) - set(known))
    if extra:
        raise ControlError("%s: unknown key%s %s (known: %s)"
                           % (where, "s" if len(extra) > 1 else "", ", ".join(extra), ", ".join(sorted(known))))


def regex(name, value):
    text(name, value)
    try:
        re.compile(value)
    except re.error as exc:
        raise ControlError("%s is not a valid regular expression: %s (%r)" % (name, exc, value))
    return value


def method(name, value):
    if value not in HTTP_METHODS:
        raise ControlError("%s must be one of %s, not %r" % (name, ", ".join(HTTP_METHODS), value))
    return value


def status(name, value):
    if not isinstance(value, int) or isinstance(value, bool) or not 100 <= value <= 599:
        raise ControlError("%s must be an HTTP status from 100 to 599, not %r" % (name, value))
    return value


def number_or_text(name, value):
    """A Retry-After value: seconds, or a text sent as it is (an HTTP date)."""
    return value if isinstance(value, str) else number()(name, value)


def check_settings(declared, settings):
    """``settings`` (a dict) against ``declared`` ({name: (default, check)})."""
    if not isinstance(settings, dict):
        raise ControlError("config: a JSON object of settings is required, not %r" % (settings,))
    unknown("config", settings, declared)
    for name, value in settings.items():
        declared[name][1](name, value)
    return settings


# ---- faults ---------------------------------------------------------------------------------------

FAULT_FIELDS = {
    "status": optional(status), "method": optional(method), "path": optional(regex), "times": integer(low=1),
    "retry_after": optional(number_or_text), "drop": boolean, "delay": number(high=600), "body": optional(text), "applied": boolean,
    "retry_after_date": boolean, "skip": integer(low=0),
}
FAULT_DEFAULTS = {"status": None, "method": None, "path": None, "times": 1, "retry_after": None, "drop": False,
                  "delay": 0.0, "body": None, "applied": False, "retry_after_date": False,
                  "skip": 0}


def check_fault(given):
    """A fault as the simulator keeps it (defaults filled), or ControlError."""
    if not isinstance(given, dict):
        raise ControlError("fault: a JSON object is required, not %r" % (given,))
    unknown("fault", given, FAULT_FIELDS)
    fault = dict(FAULT_DEFAULTS, **given)
    for name, value in given.items():
        FAULT_FIELDS[name]("fault." + name, value)
    if fault["drop"] and fault["status"]:
        raise ControlError("fault: status and drop exclude each other (drop answers nothing)")
    if not (fault["status"] or fault["drop"] or fault["delay"]):
        raise ControlError("fault: give status, drop or delay (a fault that does nothing is a mistake)")
    if fault["retry_after"] is not None and not fault["status"]:
        raise ControlError("fault: retry_after needs a status")
    if fault["retry_after_date"] and not _number(fault["retry_after"]):
        raise ControlError("fault: retry_after_date needs retry_after in seconds (a number)")
    if fault["body"] is not None and not fault["status"]:
        raise ControlError("fault: body needs a status")
    return fault


# ---- releasing held tasks -------------------------------------------------------------------------

RELEASE_FIELDS = {
    "task_id": text, "error": text,
    "after": record({"method": optional(method), "path": optional(regex), "times": integer(low=1)}),
}


def check_release(given):
    """The body of POST /_sim/release: ``{task_id?, error?, after?: {method?, path?, times?}}``."""
    if not isinstance(given, dict):
        raise ControlError("release: a JSON object is required, not %r" % (given,))
    unknown("release", given, RELEASE_FIELDS)
    for name, value in given.items():
        RELEASE_FIELDS[name]("release." + name, value)
    return given
