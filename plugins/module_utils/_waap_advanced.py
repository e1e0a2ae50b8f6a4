# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""A WAAP domain's advanced rules (a CEL expression deciding an action, docs/api_reference.md section 18.5): their kind
(``ADVANCED``) and the check of an expression before any write.

This module is internal to the collection: its interface may change at any time.

``check_source`` checks one expression: balanced parentheses, brackets and braces; string literals in single quotes
(a double quote outside one is refused); then it parses it (``_cel``: operators with their operands, no identifier
alone, only functions called) and, against the service's descriptor (``GET /waap/v1/advanced-rules/descriptor``, read
once a run), checks every object and attribute, that functions are called with the arguments the descriptor lists (a
literal argument of the type it lists) and that maps are indexed. A failure names the position (0-based) and what was
expected. The service still judges the rest (types of expressions, CEL built-ins).
"""

from __future__ import annotations

import re

from ansible_collections.gcore.platform.plugins.module_utils._cel import parse
from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, require
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._waap_rules import RULE_MEMBERS, RuleKind
from ansible_collections.gcore.platform.plugins.module_utils._waap_tables import RULE_ACTIONS

DESCRIPTOR = "/waap/v1/advanced-rules/descriptor"
PHASES = ("access", "header_filter", "body_filter")
DEFAULT_PHASE = "access"
OPENING, CLOSING = "([{", ")]}"


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


def check_source(source, descriptor):
    """The brackets and quotes first (their own messages), then the parse of ``_cel`` (``descriptor``: ``{object:
    {attribute: attr}}``; None: the checks that need none only)."""
    strings_and_brackets(source)
    parse(source, descriptor)


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

    def own_spec(self):
        return dict(source=dict(type="str"), phase=dict(type="str", choices=list(PHASES)))

    def check(self, rule, prefix, descriptor):
        source = rule.get("source")
        if source is None:
            return
        require(source.strip(), prefix + "source", "must hold an expression")
        try:
            check_source(source, descriptor)
        except ValidationError as exc:
            raise ValidationError("%ssource: %s" % (prefix, exc))

    def own(self, rule, body=False):
        return {"source": rule.get("source"), "phase": rule.get("phase") or DEFAULT_PHASE}


ADVANCED = AdvancedKind("advanced", RULE_ACTIONS)
