# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""issue 45: the CEL check of an advanced rule is a parse (plugins/module_utils/_cel.py). Operators need their operands,
an identifier alone is not an expression, only functions are called, a map is indexed, and the literal arguments of a
descriptor function have the types it lists; each failure names the position and what was expected. Expressions the
service takes pass, with or without the descriptor."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._cel import check_source, descriptor_map
from ansible_collections.gcore.platform.plugins.modules import waap_advanced_rules
import simulator.resources.waap  # noqa: F401  pylint: disable=unused-import  # the WAAP family first (it imports the advanced rules)
from simulator.resources.waap_advanced import DESCRIPTOR

import harness

DESCRIBED = descriptor_map(DESCRIPTOR)
OPERAND = "expected an operand (a literal, an object's attribute such as request.path, a call or '(')"

REFUSED_ALWAYS = [
    ("request.path == == '/x'", "position 16: %s, found '=='" % OPERAND),
    ("request.path == '/x' &&", "position 23: %s, found the end" % OPERAND),
    ("request.path == '/x' and", "position 24: %s, found the end" % OPERAND),
    ("!", "position 1: %s, found the end" % OPERAND),
    ("foo", "position 0: 'foo' alone is not an expression: expected an object and one of its attributes"),
    ("request.path == 'x' || bar", "position 23: 'bar' alone is not an expression"),
    ("request", "position 0: 'request' alone is not an expression"),
    ("tags('bot')", "position 0: 'tags' is not a function (only functions are called: bool, bytes"),
    ("(request.path == 'x') request", "position 22: expected an operator or the end of the expression, found 'request'"),
    ("request.path $ 1", "position 13: '$' is not part of CEL"),
    ("request.path == 'x' ? true", "position 26: expected ':' of the '? :' condition, found the end"),
    ("[1, 2", "position 0: '[' is never closed"),
    ("request.rate_limit([] '.*')", "position 22: expected ',' or ')', found \"'.*'\""),
]
REFUSED_BY_THE_DESCRIPTOR = [
    ("request.path('x') == 'y'", "position 0: request.path is not a function (it is a Var): only functions are called"),
    ("request.ip_in_range == true", "position 0: request.ip_in_range is a function: expected '(' and its arguments"),
    ("request.headers == 'x'", "position 0: request.headers is a map: expected an index, request.headers['name']"),
    ("request.headers.host == 'x'", "position 15: request.headers is a map: expected an index, request.headers['name'], not .host"),
    ("request.rate_limit([], '.*', '5', 200, [], [], '', 'ip')",
     "position 29: argument 3 of request.rate_limit (interval) is Int: expected an integer, not the string '5'"),
    ("request.rate_limit('10.0.0.1', '.*', 5, 200, [], [], '', 'ip')",
     "position 19: argument 1 of request.rate_limit (ip_list) is List: expected a list ([...]), not the string '10.0.0.1'"),
    ("request.ip_in_range('10.0.0.1', '10.0.0.x')",
     "position 32: argument 2 of request.ip_in_range (to_ip) is IP: expected an IP address in single quotes, not the string '10.0.0.x'"),
    ("tags.exists(5)", "position 12: argument 1 of tags.exists (tag) is Str: expected a string in single quotes, not an integer"),
    ("request.rate_limit([], '.*events', 5)", "position 0: request.rate_limit takes 8 arguments"),
    ("whois.town == 'x'", "position 0: whois has no attribute 'town'"),
    ("x.y == 1", "position 0: 'x' is not an object of the descriptor"),
]
ACCEPTED = [
    "request.rate_limit([], '.*events', 5, 200, [], [], '', 'ip') and not request.headers['session']",
    "request.headers['user-agent'] == 'legacy-app/1.0'\n and request.path.startsWith('/api/')",
    "request.ip_in_range('10.0.0.1', '10.0.0.255') || session.request_count > 10 ? true : false",
    "whois.country in ['US', 'DE'] && !tags.exists('bot')",
    "'x-token' in request.headers && request.headers.exists(h, h.startsWith('x-'))",
    "size(request.path) > 3 && -5 < session.request_count && request.uri.matches('^/a(b|c)')",
    "client_data.fingerprint['ja3'] == 'abc' || response.status >= 500 && {'a': 1}['a'] == 1",
    "request.ip_in_range('2001:db8::1', '2001:db8::ff') or user_defined_tags.exists('vip')",
]


@pytest.mark.parametrize("source, message", REFUSED_ALWAYS, ids=[case[0] for case in REFUSED_ALWAYS])
def test_what_is_not_an_expression_is_refused_with_or_without_the_descriptor(source, message):
    for descriptor in (None, DESCRIBED):
        with pytest.raises(ValidationError) as raised:
            check_source(source, descriptor)
        assert message in str(raised.value)


@pytest.mark.parametrize("source, message", REFUSED_BY_THE_DESCRIPTOR, ids=[case[0] for case in REFUSED_BY_THE_DESCRIPTOR])
def test_what_the_descriptor_refuses_names_the_position_and_what_was_expected(source, message):
    check_source(source, None)  # the syntax is right: only the descriptor knows
    with pytest.raises(ValidationError) as raised:
        check_source(source, DESCRIBED)
    assert message in str(raised.value)


@pytest.mark.parametrize("source", ACCEPTED)
def test_expressions_the_service_takes_pass(source):
    check_source(source, None)
    check_source(source, DESCRIBED)


@pytest.mark.parametrize("source, message", [
    ("request.path == == '/x'", "config[0].source: position 16: " + OPERAND),
    ("request.headers == 'x'", "config[0].source: position 0: request.headers is a map"),
])
def test_the_module_names_the_item_and_sends_nothing(server, source, message):
    server.reset()
    result = harness.run(server, waap_advanced_rules.WaapAdvancedRules, {"domain_id": 1006, "config": [
        {"name": "Bad", "action": {"block": {}}, "source": source}]})
    assert result["failed"] is True and message in result["msg"], result["msg"]
    assert server.writes() == []
