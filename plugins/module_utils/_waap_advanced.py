# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A WAAP domain's advanced rules (a CEL expression deciding an action, docs/api_reference.md section 18.5): their kind
(``ADVANCED``) and the check of an expression before any write.

This module is internal to the collection: its interface may change at any time.

``check_source`` checks one expression: balanced parentheses, brackets and braces; string literals in single quotes
(a double quote outside one is refused); and, against the service's descriptor (``GET
/waap/v1/advanced-rules/descriptor``, read once a run), every ``object.attribute`` at the root of a path names an object
and one of its attributes, and a function attribute is called with the number of arguments it lists. A failure names
the position (0-based) and the name. The service still judges the rest (types, CEL built-ins).
"""

from __future__ import annotations

import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_length, require, strip_none
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._waap import action_argument_spec, normalise_action, validate_action, validate_rule_name
from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import RULE_MEMBERS, RuleKind
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import RULE_ACTIONS

DESCRIPTOR = "/waap/v1/advanced-rules/descriptor"
PHASES = ("access", "header_filter", "body_filter")
DEFAULT_PHASE = "access"
OPENING, CLOSING = "([{", ")]}"
ROOT = re.compile(r"(?<![\w.\]\)'])([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)(\s*\()?")


def strings_and_brackets(source):
    """The spans of the single-quoted strings of ``source``; raises ValidationError for an unbalanced bracket, a double
    quote or an unterminated string, naming the position."""
    stack, spans, index = [], [], 0
    while index < len(source):
        char = source[index]
        if char == "'":
            end = index + 1
            while end < len(source) and source[end] != "'":
                end += 2 if source[end] == "\\" else 1
            if end >= len(source):
                raise ValidationError("the string opened at position %d is not closed" % index)
            spans.append((index, end))
            index = end
        elif char == '"':
            raise ValidationError("position %d: a double-quoted string; string literals take single quotes ('text')" % index)
        elif char in OPENING:
            stack.append((char, index))
        elif char in CLOSING:
            if not stack or OPENING.index(stack[-1][0]) != CLOSING.index(char):
                raise ValidationError("position %d: %r closes nothing that is open" % (index, char))
            stack.pop()
        index += 1
    if stack:
        raise ValidationError("position %d: %r is never closed" % (stack[-1][1], stack[-1][0]))
    return spans


def call_arguments(source, start):
    """How many arguments the call whose ``(`` is at ``start`` passes (top-level commas; ``()`` is none)."""
    depth, count, seen, index, quoted = 0, 0, False, start, False
    while index < len(source):
        char = source[index]
        if quoted:
            if char == "\\":
                index += 1
            elif char == "'":
                quoted = False
        elif char == "'":
            quoted, seen = True, True
        elif char in OPENING:
            depth += 1
            seen = seen or depth > 1
        elif char in CLOSING:
            depth -= 1
            if depth == 0:
                return count + 1 if seen else 0
        elif char == "," and depth == 1:
            count += 1
        elif not char.isspace() and depth >= 1:
            seen = True
        index += 1
    return count + 1


def check_source(source, descriptor):
    """Every check of the module docstring; ``descriptor``: ``{object: {attribute: attr}}`` (None: the checks that need
    none only)."""
    spans = strings_and_brackets(source)
    if descriptor is None:
        return
    for found in ROOT.finditer(source):
        position = found.start()
        if any(low <= position <= high for low, high in spans):
            continue
        obj, attr = found.group(1), found.group(2)
        if obj not in descriptor:
            raise ValidationError("position %d: %r is not an object of the descriptor (objects: %s)" % (position, obj, ", ".join(sorted(descriptor))))
        attrs = descriptor[obj]
        if attr not in attrs:
            raise ValidationError("position %d: %s has no attribute %r (attributes: %s)" % (position, obj, attr, ", ".join(sorted(attrs))))
        args = attrs[attr].get("args")
        if found.group(3) and args is not None:
            given = call_arguments(source, found.end() - 1)
            if given != len(args):
                raise ValidationError("position %d: %s.%s takes %d arguments (%s), not %d" % (
                    position, obj, attr, len(args), ", ".join(arg.get("name", "?") for arg in args), given))


def descriptor_map(answer):
    """The descriptor's tree as ``{object: {attribute: attr}}``."""
    return dict((obj["name"], dict((attr["name"], attr) for attr in obj.get("attrs") or []))
                for obj in (answer or {}).get("objects") or [])


def normalised_source(source):
    """The expression with its whitespace outside strings collapsed (a reformatted expression is the same one)."""
    if source is None:
        return None

    def code(text):
        return re.sub(r" ?([()\[\],.]) ?", r"\1", re.sub(r"\s+", " ", text))
    parts, last = [], 0
    for low, high in strings_and_spans(source):
        parts += [code(source[last:low]), source[low:high + 1]]
        last = high + 1
    parts.append(code(source[last:]))
    return "".join(parts).strip()


def strings_and_spans(source):
    try:
        return strings_and_brackets(source)
    except ValidationError:
        return []  # an expression the check refuses is compared as it is


class AdvancedKind(RuleKind):
    """Advanced rules: ``source`` (CEL) and ``phase`` instead of conditions; no bulk delete; the toggle for an
    ``enabled``-only change."""

    members = RULE_MEMBERS[:4] + (
        Member("source", same=lambda desired, current: normalised_source(desired) == normalised_source(current)),
        Member("phase", read=lambda record: record.get("phase") or DEFAULT_PHASE, created=DEFAULT_PHASE, reset=DEFAULT_PHASE),
    )
    required_to_create = ("action", "source")
    bulk = False
    toggles = True

    def argument_spec(self):
        return dict(
            name=dict(type="str"),
            description=dict(type="str"),
            enabled=dict(type="bool"),
            action=dict(type="dict", options=action_argument_spec(self.actions)),
            source=dict(type="str"),
            phase=dict(type="str", choices=list(PHASES)),
        )

    def validate(self, rule, prefix=""):
        validate_rule_name(prefix + "name", rule.get("name"))
        check_length(prefix + "description", rule.get("description"), 0, 100)
        validate_action(prefix + "action", rule.get("action"), self.actions)
        self.check(rule, prefix, None)

    def check(self, rule, prefix, descriptor):
        source = rule.get("source")
        if source is None:
            return
        require(source.strip(), prefix + "source", "must hold an expression")
        try:
            check_source(source, descriptor)
        except ValidationError as exc:
            raise ValidationError("%ssource: %s" % (prefix, exc))

    def body(self, rule):
        body = {"name": rule["name"], "enabled": True if rule.get("enabled") is None else rule["enabled"],
                "action": strip_none(rule["action"]), "source": rule["source"], "phase": rule.get("phase") or DEFAULT_PHASE}
        if rule.get("description") is not None:
            body["description"] = rule["description"]
        return body

    def gathered(self, record):
        item = {"name": record.get("name")}
        if record.get("description") is not None:
            item["description"] = record["description"]
        item.update(enabled=record.get("enabled"), action=normalise_action(record.get("action")), source=record.get("source"),
                    phase=record.get("phase") or DEFAULT_PHASE)
        return strip_none(item)


ADVANCED = AdvancedKind("advanced", RULE_ACTIONS)
