# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The words of the WAAP rule docs: rendered with ``_waap_tables.CONDITION_KINDS`` into
plugins/doc_fragments/waap_conditions.py by condition_docs.py (beside it). Not shipped: no module reads it.
"""

from __future__ import annotations

READ_ONLY_DOC = ("The service returns it on rules stored before but no longer accepts it in a write: a rule holding it round-trips "
                 "while its conditions stay as they are (they are then not sent); creating a rule with it, or changing a list that "
                 "holds it, fails before any request.")

# The docs of each condition kind and member; rendered with CONDITION_KINDS (types, requirements, choices)
# into plugins/doc_fragments/waap_conditions.py by tests/tools/condition_docs.py (a unit test fails when that file drifts).
CONDITION_DOCS = {
    'ip': ('The client IP address is O(conditions[].ip.ip_address).', {
        'ip_address': 'An IPv4 or IPv6 address.',
    }),
    'ip_range': ('The client IP address is within a range.', {
        'lower_bound': 'First IPv4 or IPv6 address of the range.',
        'upper_bound': 'Last IPv4 or IPv6 address of the range, of the same family as O(conditions[].ip_range.lower_bound) and not below it.',
    }),
    'url': ('The request URL matches.', {
        'url': ['The URL or pattern, 1 to 500 characters.',
                'With V(Exact) or V(Contains) only letters, digits and the characters C(_ ! $ ~ : # [ ] @ ( ) * + , = / - . %) are allowed; '
                'with V(Regex) it must be a valid regular expression without lookahead or lookbehind.'],
        'match_type': 'How the URL is matched (service default V(Contains)).',
    }),
    'user_agent': ('The C(User-Agent) header matches.', {
        'user_agent': 'The user agent text, at most 300 characters.',
        'match_type': 'How the text is matched (service default V(Contains)).',
    }),
    'header': ('A request header has a value.', {
        'header': 'Header name, 1 to 50 letters, digits and C(-).',
        'value': 'Header value, 1 to 100 printable ASCII characters.',
        'match_type': 'How the value is matched (service default V(Contains)).',
    }),
    'header_exists': ('A request header is present.', {
        'header': 'Header name, 1 to 50 letters, digits and C(-).',
    }),
    'response_header': (['A response header has a value.', READ_ONLY_DOC], {
        'header': 'Header name, 1 to 50 letters, digits and C(-).',
        'value': 'Header value, 1 to 100 printable ASCII characters.',
        'match_type': 'How the value is matched (service default V(Contains)).',
    }),
    'response_header_exists': (['A response header is present.', READ_ONLY_DOC], {
        'header': 'Header name, 1 to 50 letters, digits and C(-).',
    }),
    'http_method': ('The request uses an HTTP method.', {
        'http_method': 'The method.',
    }),
    'file_extension': ('The requested file has one of the extensions.', {
        'file_extension': ['1 to 20 extensions, each 1 to 10 characters ending with a lower-case letter or digit, for example V(pdf).',
                           'The service matches the published pattern C([a-z0-9]+$) without anchoring its start, so it also '
                           'accepts and returns V(.pdf); the module accepts whatever the service returns.'],
    }),
    'content_type': ('The request has one of the content types.', {
        'content_type': '1 to 10 content types, each 1 to 50 characters.',
    }),
    'country': ('The request comes from one of the countries.', {
        'country_code': '1 to 100 ISO 3166-1 alpha-2 country codes in upper case, for example V(DE) (V(de) fails validation).',
    }),
    'organization': ('The client IP address belongs to an organization.', {
        'organization': 'Organization name, at most 100 characters.',
    }),
    'owner_types': ('The client IP address belongs to one of the owner types.', {
        'owner_types': 'At least one owner type (service default V([COMMERCIAL])).',
    }),
    'tags': ('The request carries one of the tags the WAAP assigned.', {
        'tags': '1 to 5 tags.',
    }),
    'session_request_count': ('The session has made at least a number of requests.', {
        'request_count': 'The number of requests, at least 1.',
    }),
    'user_defined_tags': ('The request carries one of the user-defined tags.', {
        'tags': '1 to 10 tags, each 1 to 50 characters, a letter first, then letters, digits and spaces.',
    }),
    'request_rate': (['The client exceeds a request rate on a path.', 'This kind takes no C(negation).'], {
        'path_pattern': 'Regular expression of the paths counted, 1 to 500 characters.',
        'requests': 'Number of requests in O(conditions[].request_rate.time) seconds, at least 20.',
        'time': 'Length of the window in seconds, 1 to 3600.',
        'ips': 'Count only requests from these IP addresses (at most 10).',
        'http_methods': 'Count only requests with these methods.',
        'user_defined_tag': 'Count only requests with this user-defined tag (1 to 50 characters, a letter first, then letters, digits and spaces).',
    }),
    'asn': ('The client IP address belongs to one of the Autonomous Systems (from a WHOIS lookup of the address).', {
        'asns': 'At least one AS number, each 1 to 4294967295.',
    }),
    'ja3': ('The JA3 fingerprint of the client\'s TLS handshake is one of these.', {
        'ja3_fingerprints': 'At least one JA3 fingerprint, 32 hexadecimal characters each, compared (and sent) in lower case.',
    }),
    'ja4': ('The JA4 fingerprint of the client\'s TLS handshake is one of these.', {
        'ja4_fingerprints': 'At least one JA4 fingerprint such as V(t13d1516h2_8daaf6152771_02713d6af862) (10 letters or digits, '
                            'then two groups of 12 hexadecimal characters, each after C(_)), compared (and sent) in lower case.',
    }),
}
NEGATION_DOC = "Invert the condition (service default V(false))."

# The words of one item of the set modules' ``config`` (the options of one rule); rendered with CONDITION_DOCS into the
# CUSTOM_RULES and FIREWALL_RULES fragments of plugins/doc_fragments/waap_conditions.py by tests/tools/condition_docs.py.
RULE_ITEM_DOCS = {
    "name": ["Exact name of the rule, 1 to 100 characters: ASCII letters, digits, whitespace and the characters "
             "C(. : ' \" ; < > ? & | \\) only, and not only whitespace.",
             "Rules are identified by it: two items with one name fail validation, and so do two rules of the domain "
             "with a name the items use."],
    "description": ["Description of the rule, at most 100 characters. A missing, null and empty description are one value.",
                    "Left out: not managed with O(state=merged); V(\"\") with O(state=replaced) and O(state=overridden)."],
    "enabled": ["Whether the rule is enabled.",
                "Left out: V(true) when the rule is created and with O(state=replaced) and O(state=overridden); "
                "not managed with O(state=merged)."],
    "action": ["What the rule does when all its conditions match. Exactly one member must be set.",
               "Required to create the rule; left out, the action of an existing rule is not managed."],
    "conditions": ["The conditions, 1 to 5; all of them must match for the rule to fire. Each item sets exactly one "
                   "condition kind; the order does not matter.",
                   "Every kind except O(config[].conditions[].request_rate) takes C(negation) (bool, the service's "
                   "default V(false)), which inverts the condition.",
                   "Required to create the rule; when given, the list replaces the rule's conditions; left out, they are "
                   "not managed."],
}
FIREWALL_CONDITIONS_DOC = ["The one condition of the rule: a list of exactly 1 item, which sets O(config[].conditions[].ip) "
                           "or O(config[].conditions[].ip_range).",
                           "Required to create the rule; when given, it replaces the rule's condition; left out, it is not managed."]
ACTION_DOCS = {
    "allow": ("Let the request through. Use V({}).", {}),
    "block": ("Block the request. Use V({}) for the service's defaults.", {
        "status_code": ["HTTP status code returned to a blocked request.", "Not managed when left out."],
        "action_duration": ["How long the block applies to later requests of the client, 1 to 10 characters matching "
                            "C(^[1-9][0-9]*[smhd]?$), for example V(30) (seconds), V(60s), V(10m), V(12h) or V(1d).",
                            "Not managed when left out."],
    }),
    "captcha": ("Ask the client to solve a CAPTCHA. Use V({}).", {}),
    "handshake": ("Ask the client for a JavaScript handshake. Use V({}).", {}),
    "monitor": ("Only log the request. Use V({}).", {}),
    "tag": ("Tag the request with user-defined tags.", {"tags": "The tags, 1 to 5."}),
}

# The words of the members of an advanced rule that a custom rule does not have (the ADVANCED_RULES fragment).
ADVANCED_ITEM_DOCS = {
    "source": ["The CEL expression that decides the action, for example C(request.headers['user-agent'] == 'legacy/1.0').",
               "String literals take single quotes. Parsed before any write (each operator with its operands, no name "
               "alone, only functions called) and checked against the service's descriptor (objects, attributes, maps "
               "indexed, functions called with the number and the literal types of the arguments it lists); compared "
               "with its whitespace normalised.",
               "Required to create the rule; left out, not managed."],
    "phase": ["When the rule runs - V(access) (before the request goes to the origin), V(header_filter) (on the response "
              "headers) or V(body_filter) (on the response body).",
              "Left out - V(access) when the rule is created and with O(state=replaced) and O(state=overridden); not managed "
              "with O(state=merged)."],
}

# The words of the members of a policy override that differ from a custom rule's (the POLICY_OVERRIDES fragment).
OVERRIDE_ITEM_DOCS = {
    "name": ["Exact name of the override, not empty.",
             "Overrides are identified by it: two items with one name fail validation, and so do two overrides of the "
             "domain with a name the items use."],
    "description": ["Description of the override. A missing, null and empty description are one value.",
                    "Left out: not managed with O(state=merged); V(\"\") with O(state=replaced) and O(state=overridden)."],
    "enabled": ["Whether the override is enabled.",
                "Left out: V(true) when the override is created and with O(state=replaced) and O(state=overridden); "
                "not managed with O(state=merged)."],
    "target_type": ["What O(config[].targets) hold - V(detector) ids (as the domain's traffic data shows them) or V(rule) ids "
                    "(managed OWASP Top Threats detections).",
                    "Required to create the override. It cannot change on an existing override: a difference replaces the "
                    "override (a new one created first, then the old one deleted; a new id), shown in RV(changes.replaced)."],
    "targets": ["The detector or rule ids the override suppresses, at least one, each greater than 0; compared as a set.",
                "Required to create the override. They cannot change on an existing override: a difference replaces the "
                "override (a new one created first, then the old one deleted; a new id), shown in RV(changes.replaced).",
                "With O(config[].target_type=rule), the ids of an override to create are checked against the domain's OWASP "
                "Top Threats targets (read once, before any write); an id that listing lacks fails naming it, nothing sent. "
                "Detector ids have no listing and are not checked."],
    "conditions": ["Where the override applies - 1 to 5 conditions, all of which must match. Each item sets exactly one "
                   "condition kind; the order does not matter. Overrides take 11 of the custom-rule kinds, with their limits.",
                   "Every kind takes C(negation) (bool, the service's default V(false)), which inverts the condition.",
                   "Required to create the override; when given, the list replaces the override's conditions (by C(PATCH)); "
                   "left out, they are not managed."],
}
