# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Request validation for every simulated resource, in the two dialects the API families answer with.

- Cloud (pydantic v1, ``{exception_class, message, errors}``): ``check_*(loc, value, ...)`` raise the first
  error as a 422 ``"loc: detail"`` (``invalid``); ``loc`` is a dotted path (``interfaces.0.type``).
- WAAP (pydantic v2, problem+json): a schema of ``f(kind, required, **rules)`` fields checked by
  ``check``/``check_fields``, every error collected in ``Invalid`` and raised together as one 422.
"""

from __future__ import annotations

import copy
import ipaddress
import re

from simulator.core import ApiFailure, is_uuid, merge_tags, now_iso


# ---- cloud ---------------------------------------------------------------------------------------


def invalid(loc, detail, status=422, root=()):
    """Refuse the request: ``status`` with ``"loc: detail"`` and ``errors [{loc, detail}]`` (``root`` prefixes the loc)."""
    raise ApiFailure(status, "%s: %s" % (loc, detail), errors=[{"loc": list(root) + loc.split("."), "detail": detail}])


def check_object(loc, value, required, allowed):
    if not isinstance(value, dict):
        invalid(loc, "a JSON object is required")
    for key in sorted(required):
        if key not in value:
            invalid("%s.%s" % (loc, key) if loc else key, "field required")
    extra = sorted(set(value) - set(allowed))
    if extra:
        invalid("%s.%s" % (loc, extra[0]) if loc else extra[0], "extra fields not permitted")


def check_str(loc, value, nullable=False, max_length=None, min_length=None):
    if value is None and nullable:
        return
    if not isinstance(value, str):
        invalid(loc, "a string is required")
    if max_length is not None and len(value) > max_length:
        invalid(loc, "ensure this value has at most %d characters" % max_length)
    if min_length is not None and len(value) < min_length:
        invalid(loc, "ensure this value has at least %d characters" % min_length)


def check_uuid(loc, value):
    if not is_uuid(value):
        invalid(loc, "value is not a valid uuid")


def check_int(loc, value, nullable=False, low=None, high=None):
    if value is None and nullable:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        invalid(loc, "value is not a valid integer")
    if (low is not None and value < low) or (high is not None and value > high):
        invalid(loc, "value is out of range (%s to %s)" % (low, high))


def check_enum(loc, value, choices, nullable=False):
    if value is None and nullable:
        return
    if value not in choices:
        invalid(loc, "value is not one of %s" % ", ".join(choices))


def check_list(loc, value):
    if not isinstance(value, list):
        invalid(loc, "a list is required")
    return value


def check_bool(loc, value):
    if not isinstance(value, bool):
        invalid(loc, "value is not a valid boolean")


# The cloud name rule (networks, subnets, volumes) and the user tags of docs/api_reference.md section 15.0.
NAME_PATTERN = re.compile(r"^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,61}[a-zA-Z0-9._]$")
TAG_KEY = re.compile(r"^[^\s=]+$")
TAG_VALUE = re.compile(r"^[^ \t\n\r\f\v]([^\t\n\r\f\v]*[^ \t\n\r\f\v])?$")


def check_name(loc, value):
    if not isinstance(value, str) or not NAME_PATTERN.match(value):
        invalid(loc, "string does not match pattern %s" % NAME_PATTERN.pattern)


def check_tags(loc, tags, patch=False):
    """``CreateTagsSerializer`` (``patch``: ``UpdateTagsSerializer``, values may be null)."""
    if not isinstance(tags, dict):
        invalid(loc, "a JSON object is required")
    for key, value in tags.items():
        if not TAG_KEY.match(key) or len(key) > 255:
            invalid("%s.%s" % (loc, key), "the key does not match pattern %s or is longer than 255" % TAG_KEY.pattern)
        if value is None and patch:
            continue
        if not isinstance(value, str) or not TAG_VALUE.match(value) or len(value) > 255:
            invalid("%s.%s" % (loc, key), "the value does not match pattern %s or is longer than 255" % TAG_VALUE.pattern)


def patch_name_and_tags(record, body):
    """A synchronous PATCH of ``name`` and ``tags`` (a JSON merge patch; null removes every user tag): the whole body
    is checked before ``record`` changes; ``updated_at`` is stamped."""
    check_object("body", body, (), ("name", "tags"))
    if "name" in body:
        check_name("name", body["name"])
    if body.get("tags") is not None:
        check_tags("tags", body["tags"], patch=True)
    if "name" in body:
        record["name"] = body["name"]
    if "tags" in body:
        merge_tags(record, body["tags"])
    record["updated_at"] = now_iso()
    return record


def body_of(request, required_body=False):
    body = request.json
    if body is None and not required_body:
        return {}
    if not isinstance(body, dict):
        invalid("body", "a JSON object is required")
    return body


# ---- WAAP: schemas ---------------------------------------------------------------------------------

VALIDATION_TITLE = "Request validation error."
VALIDATION_DETAIL = "One or more fields have validation errors."


def f(kind, required=False, **rules):
    return dict(rules, type=kind, required=required)


class Invalid:
    """Collects pydantic-style errors: ``{loc: [...], detail: text}``."""

    def __init__(self):
        self.errors = []

    def add(self, loc, detail):
        self.errors.append({"loc": list(loc), "detail": detail})

    def raise_if_any(self):
        if self.errors:
            raise ApiFailure(422, VALIDATION_DETAIL, errors=self.errors, title=VALIDATION_TITLE)


def _plural(count, word):
    return "%s %s%s" % (count, word, "" if count == 1 else "s")


def enum_text(values):
    shown = [repr(value) if isinstance(value, str) else str(value) for value in values]
    return ", ".join(shown[:-1]) + " or " + shown[-1]


def check(value, spec, loc, errors):
    """The value as the service keeps it, or None (with the errors added to ``errors``)."""
    kind = spec["type"]
    if kind == "free":
        if not isinstance(value, dict):
            errors.add(loc, "Input should be a valid dictionary")
            return None
        return copy.deepcopy(value)
    if kind == "object":
        return check_fields(value, spec["fields"], loc, errors)
    if kind == "list":
        if not isinstance(value, list):
            errors.add(loc, "Input should be a valid list")
            return None
        if len(value) < spec.get("min_items", 0):
            errors.add(loc, "List should have at least %s after validation, not %s" % (_plural(spec["min_items"], "item"), len(value)))
            return None
        if "max_items" in spec and len(value) > spec["max_items"]:
            errors.add(loc, "List should have at most %s after validation, not %s" % (_plural(spec["max_items"], "item"), len(value)))
            return None
        return [check(item, spec["items"], loc + (index,), errors) for index, item in enumerate(value)]
    if kind == "bool":
        if not isinstance(value, bool):
            errors.add(loc, "Input should be a valid boolean")
            return None
        return value
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            errors.add(loc, "Input should be a valid integer")
            return None
        if "enum" in spec and value not in spec["enum"]:
            errors.add(loc, "Input should be %s" % enum_text(spec["enum"]))
        elif "ge" in spec and value < spec["ge"]:
            errors.add(loc, "Input should be greater than or equal to %s" % spec["ge"])
        elif "gt" in spec and value <= spec["gt"]:
            errors.add(loc, "Input should be greater than %s" % spec["gt"])
        elif "le" in spec and value > spec["le"]:
            errors.add(loc, "Input should be less than or equal to %s" % spec["le"])
        return value
    if not isinstance(value, str):
        errors.add(loc, "Input should be a valid string")
        return None
    if kind == "ip":
        try:
            return str(ipaddress.ip_address(value))
        except ValueError:
            errors.add(loc, "Input is not a valid IPv4 or IPv6 address")
            return None
    if len(value) < spec.get("min", 0):
        errors.add(loc, "String should have at least %s" % _plural(spec["min"], "character"))
    elif "max" in spec and len(value) > spec["max"]:
        errors.add(loc, "String should have at most %s" % _plural(spec["max"], "character"))
    elif "pattern" in spec and not re.search(spec["pattern"], value):
        errors.add(loc, "String should match pattern '%s'" % spec["pattern"])
    elif "enum" in spec and value not in spec["enum"]:
        errors.add(loc, "Input should be %s" % enum_text(spec["enum"]))
    return value


def check_fields(value, fields, loc, errors):
    """An object: unknown members rejected, required ones present, defaults filled, unset optional ones left out."""
    if not isinstance(value, dict):
        errors.add(loc, "Input should be a valid dictionary or object to extract fields from")
        return None
    for name in value:
        if name not in fields:
            errors.add(loc + (name,), "Extra inputs are not permitted")
    kept = {}
    for name, spec in fields.items():
        if name not in value or (value[name] is None and spec.get("nullable")):
            if spec["required"]:
                errors.add(loc + (name,), "Field required")
            elif "default" in spec:
                kept[name] = copy.deepcopy(spec["default"])
            continue
        kept[name] = check(value[name], spec, loc + (name,), errors)
    return kept
