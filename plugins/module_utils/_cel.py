# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The check of a WAAP advanced rule's CEL expression before any write (``check_source``), and its comparison
(``normalised_source``); docs/api_reference.md section 18.5.

This module is internal to the collection: its interface may change at any time.

First the brackets and strings: balanced parentheses, brackets and braces, string literals in single quotes (a double
quote outside one is refused). Then a small recursive-descent parser of CEL's grammar (``? :``, ``||``/``or``,
``&&``/``and``, comparisons and ``in``, ``+ - * / %``, ``!``/``not``/``-``, member selection, calls, indexes, list and
map literals, single-quoted strings, numbers, ``true``/``false``/``null``). What it refuses, naming the position
(0-based) and what was expected: an operator without its operands, text left after the expression, an identifier alone
(only an object's attribute, a literal, a call or a variable a macro such as ``exists(h, ...)`` binds is a value), a
call of what is not a function. With the service's descriptor (``descriptor_map``: ``{object: {attribute: {type,
args}}}``, read once a run) also: an object or an attribute it does not list, an object not followed by one of its
attributes, a ``Function`` attribute not called or called with another number of arguments, a ``Var`` or ``Dict``
attribute called, a ``Dict`` (a map) not indexed (``request.headers['x']``; ``'x' in request.headers`` and methods on it
are allowed), and a literal argument whose type is not the one the descriptor lists (``Int``, ``Str``, ``IP``,
``List``). The service judges the rest (types of expressions, built-ins).
"""

from __future__ import annotations

import ipaddress
import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError

TOKEN = re.compile(r"""\s*(?:(?P<string>'(?:[^'\\]|\\.)*')|(?P<number>0x[0-9a-fA-F]+u?|\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+(?:[eE][+-]?\d+)?u?)
    |(?P<name>[A-Za-z_]\w*)|(?P<op>&&|\|\||==|!=|<=|>=|[<>!+\-*/%?:.,()\[\]{}]))""", re.X | re.S)
KEYWORDS = {"and": "&&", "or": "||", "not": "!"}
LITERALS = {"true": "Bool", "false": "Bool", "null": "Null"}
RELATIONS = ("==", "!=", "<", "<=", ">", ">=", "in")
# CEL's standard functions called by name (methods such as startsWith are called on a value and left to the service)
FUNCTIONS = ("bool", "bytes", "double", "duration", "dyn", "has", "int", "matches", "size", "string", "timestamp", "type", "uint")
MACROS = ("all", "exists", "exists_one", "filter", "map")
OPENING, CLOSING = "([{", ")]}"
WANTED = {"Int": "an integer", "Str": "a string in single quotes", "IP": "an IP address in single quotes", "List": "a list ([...])"}


class Node:
    """What a part of the expression is: ``kind`` value, literal (``type`` Int, Str, List ...), object, map or
    function (a descriptor attribute not yet called); ``name`` as written; ``text`` a string literal's content."""

    def __init__(self, kind, position, name=None, type_=None, text=None, attr=None):
        self.kind, self.position, self.name, self.type, self.text, self.attr = kind, position, name, type_, text, attr


class Parser:
    def __init__(self, source, descriptor):
        self.source, self.descriptor, self.bound = source, descriptor, []
        self.tokens, index = [], 0
        while True:
            found = TOKEN.match(source, index)
            if not found or found.end() == index:
                rest = source[index:].lstrip()
                if rest:
                    raise ValidationError("position %d: %r is not part of CEL" % (len(source) - len(rest), rest[0]))
                break
            kind = found.lastgroup
            text = found.group(kind)
            if kind == "name" and text in KEYWORDS:
                kind, text = "op", KEYWORDS[text]
            elif kind == "name" and text == "in":
                kind = "op"
            self.tokens.append((kind, text, found.start(kind)))
            index = found.end()
        self.index = 0

    def peek(self, ahead=0):
        index = self.index + ahead
        return self.tokens[index] if index < len(self.tokens) else ("end", None, len(self.source))

    def take(self, *ops):
        kind, text = self.peek()[:2]
        if kind == "op" and text in ops:
            self.index += 1
            return text
        return None

    def expect(self, op, what):
        if not self.take(op):
            raise self.error("expected %s" % what)

    def error(self, expected):
        kind, text, position = self.peek()
        found = "the end" if kind == "end" else repr(text)
        return ValidationError("position %d: %s, found %s" % (position, expected, found))

    def parse(self):
        node = self.value(self.ternary())
        if self.peek()[0] != "end":
            raise self.error("expected an operator or the end of the expression")
        return node

    def ternary(self):
        node = self.binary(0)
        if self.take("?"):
            self.value(node)
            self.value(self.ternary())
            self.expect(":", "':' of the '? :' condition")
            self.value(self.ternary())
            return Node("value", node.position)
        return node

    LEVELS = (("||",), ("&&",), RELATIONS, ("+", "-"), ("*", "/", "%"))

    def binary(self, level):
        if level == len(self.LEVELS):
            return self.unary()
        node = self.binary(level + 1)
        while True:
            op = self.take(*self.LEVELS[level])
            if not op:
                return node
            self.value(node)
            right = self.binary(level + 1)
            if op != "in" or right.kind != "map":  # 'x' in request.headers: a map's keys
                self.value(right)
            node = Node("value", node.position)

    def unary(self):
        position = self.peek()[2]
        op = self.take("!", "-")
        if not op:
            return self.member(self.primary())
        operand = self.unary()
        if op == "-" and operand.kind == "literal" and operand.type in ("Int", "Double"):
            return Node("literal", position, type_=operand.type)
        self.value(operand)
        return Node("value", position)

    def primary(self):
        kind, text, position = self.peek()
        if kind in ("string", "number"):
            self.index += 1
            if kind == "string":
                return Node("literal", position, type_="Str", text=text[1:-1])
            return Node("literal", position, type_="Double" if re.search(r"[.eE]", text) and not text.startswith("0x") else "Int")
        if kind == "name":
            self.index += 1
            return self.name(text, position)
        if self.take("("):
            node = self.value(self.ternary())
            self.expect(")", "')'")
            return Node("value", node.position, type_=node.type if node.kind == "literal" else None)
        if self.take("["):
            self.items("]", lambda: self.value(self.ternary()))
            return Node("literal", position, type_="List")
        if self.take("{"):
            self.items("}", self.entry)
            return Node("literal", position, type_="Map")
        raise self.error("expected an operand (a literal, an object's attribute such as request.path, a call or '(')")

    def entry(self):
        self.value(self.ternary())
        self.expect(":", "':' between a key and its value")
        self.value(self.ternary())

    def items(self, closing, item):
        """Comma-separated items up to ``closing``; returns them."""
        found = []
        if self.take(closing):
            return found
        while True:
            found.append(item())
            if self.take(closing):
                return found
            if not self.take(","):
                raise self.error("expected ',' or %r" % closing)

    def name(self, text, position):
        if text in LITERALS:
            return Node("literal", position, type_=LITERALS[text])
        if self.peek()[1] == "(" and self.peek()[0] == "op":
            if text not in FUNCTIONS:
                raise ValidationError("position %d: %r is not a function (only functions are called: %s, and methods of a value "
                                      "such as .startsWith('x'))" % (position, text, ", ".join(FUNCTIONS)))
            self.take("(")
            self.items(")", self.ternary)
            return Node("value", position)
        if text in self.bound:
            return Node("value", position, name=text)
        if self.peek()[1] != ".":
            raise ValidationError("position %d: %r alone is not an expression: expected an object and one of its attributes "
                                  "(such as request.path), a literal or a call" % (position, text))
        if self.descriptor is not None and text not in self.descriptor:
            raise ValidationError("position %d: %r is not an object of the descriptor (objects: %s)" % (position, text, ", ".join(sorted(self.descriptor))))
        return Node("object", position, name=text)

    def member(self, node):
        while True:
            position = self.peek()[2]
            if self.take("."):
                kind, attr = self.peek()[:2]
                if kind != "name":
                    raise self.error("expected a name after '.'")
                self.index += 1
                node = self.select(node, attr, position)
            elif self.take("["):
                if node.kind not in ("map", "value"):
                    self.value(node)
                self.value(self.ternary())
                self.expect("]", "']'")
                node = Node("value", node.position)
            else:
                return node

    def select(self, node, attr, position):
        called = self.peek()[:2] == ("op", "(")
        if node.kind == "object":
            return self.attribute(node, attr, called)
        if node.kind == "map" and not called:
            raise ValidationError("position %d: %s is a map: expected an index, %s['name'], not .%s" % (position, node.name, node.name, attr))
        if node.kind != "map":
            self.value(node)
        if called:
            self.take("(")
            variable = self.peek(0)[1] if attr in MACROS and self.peek(0)[0] == "name" and self.peek(1)[1] == "," else None
            if variable:
                self.index += 2
                self.bound.append(variable)
            self.items(")", self.ternary)
            if variable:
                self.bound.pop()
        return Node("value", node.position)

    def attribute(self, node, attr, called):
        where = "%s.%s" % (node.name, attr)
        if self.descriptor is None:
            if called:
                self.take("(")
                self.items(")", self.ternary)
            return Node("value", node.position, name=where)
        attrs = self.descriptor[node.name]
        if attr not in attrs:
            raise ValidationError("position %d: %s has no attribute %r (attributes: %s)" % (node.position, node.name, attr, ", ".join(sorted(attrs))))
        spec = attrs[attr]
        kind = spec.get("type")
        if kind == "Function" or spec.get("args") is not None:
            if not called:
                raise ValidationError("position %d: %s is a function: expected '(' and its arguments" % (node.position, where))
            self.take("(")
            self.arguments(where, node.position, spec.get("args") or [])
            return Node("value", node.position, name=where)
        if called:
            raise ValidationError("position %d: %s is not a function (it is a %s): only functions are called" % (node.position, where, kind or "value"))
        return Node("map" if kind == "Dict" else "value", node.position, name=where)

    def arguments(self, where, position, args):
        given = self.items(")", self.ternary)
        if len(given) != len(args):
            raise ValidationError("position %d: %s takes %d arguments (%s), not %d" % (
                position, where, len(args), ", ".join(arg.get("name", "?") for arg in args), len(given)))
        for number, (node, arg) in enumerate(zip(given, args), 1):
            wanted = arg.get("type")
            if node.kind == "literal" and wanted in WANTED and not literal_fits(node, wanted):
                raise ValidationError("position %d: argument %d of %s (%s) is %s: expected %s, not %s" % (
                    node.position, number, where, arg.get("name", "?"), wanted, WANTED[wanted], described(node)))

    def value(self, node):
        """``node`` as an operand: an object, a function not called or a map not indexed is not one."""
        if node.kind == "object":
            raise ValidationError("position %d: %r alone is not a value: expected one of its attributes (%s.<attribute>)"
                                  % (node.position, node.name, node.name))
        if node.kind == "map":
            raise ValidationError("position %d: %s is a map: expected an index, %s['name']" % (node.position, node.name, node.name))
        return node


def literal_fits(node, wanted):
    if wanted != "IP" or node.type != "Str":
        return node.type == wanted  # an IP is a string
    try:
        ipaddress.ip_address(node.text)
    except ValueError:
        return False
    return True


def described(node):
    if node.type == "Str":
        return "the string '%s'" % (node.text if len(node.text) < 40 else node.text[:37] + "...")
    return {"Int": "an integer", "Double": "a number with a fraction", "List": "a list", "Map": "a map", "Bool": "a boolean",
            "Null": "null"}.get(node.type, "a %s" % node.type)


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


def check_source(source, descriptor=None):
    """Raise ValidationError for the first thing the module docstring lists; ``descriptor`` None: the syntax only."""
    strings_and_brackets(source)
    Parser(source, descriptor).parse()


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
    try:
        spans = strings_and_brackets(source)
    except ValidationError:
        spans = []  # an expression the check refuses: compared with its strings as code
    parts, last = [], 0
    for low, high in spans:
        parts += [code(source[last:low]), source[low:high + 1]]
        last = high + 1
    return "".join(parts + [code(source[last:])]).strip()
