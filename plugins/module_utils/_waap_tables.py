# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The WAAP limits and the table of the 21 custom-rule condition kinds (docs/api_reference.md sections 9.2 and 18.6): the one
home of each; ``_waap`` derives the argument spec, the validation and the normalisation of conditions from it.

This module is internal to the collection: its interface may change at any time.
"""

from __future__ import annotations

import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import HTTP_METHODS

# WAAP lists: limit 0-100 (we ask for at least 1), offset 0-100000.
PAGE_SIZE = 100
DOMAINS = "/waap/v2/domains"  # every page of it: a domain found by its exact name
MAX_OFFSET = 100000

ORDERING_FIELDS = ("id", "name", "description", "enabled", "action")
ORDERING = list(ORDERING_FIELDS) + ["-%s" % field for field in ORDERING_FIELDS]
FIREWALL_ACTIONS = ["allow", "block"]
RULE_ACTIONS = ["allow", "block", "captcha", "handshake", "monitor", "tag"]
# A domain's firewall rule (docs/api_reference.md section 12.1): exactly one condition, of one of these kinds.
FIREWALL_CONDITIONS = ("ip", "ip_range")
# A policy override (docs/api_reference.md section 18.4): at most 5 conditions of these kinds, and what it targets.
OVERRIDE_CONDITIONS = ("ip", "ip_range", "url", "user_agent", "header", "header_exists", "http_method", "country", "organization",
                       "ja3", "ja4")
TARGET_TYPES = ("detector", "rule")

# Every pattern is matched against the whole value (check_pattern uses re.fullmatch). NAME_PATTERN is matched with
# re.ASCII: its \s means space, tab and line breaks, not the control characters \x1c-\x1f Python counts as whitespace.
NAME_PATTERN = r"^[A-Za-z0-9\s.:'\";<>?&|\\]+$"
NAME_RULE = "the allowed characters (ASCII letters, digits, whitespace and . : ' \" ; < > ? & | \\)"
STATUS_CODES = [403, 405, 418, 429]
DURATION_PATTERN = r"^[1-9][0-9]*[smhd]?$"
OWNER_TYPES = ["COMMERCIAL", "EDUCATIONAL", "GOVERNMENT", "HOSTING_SERVICES", "ISP", "MOBILE_NETWORK", "NETWORK", "RESERVED"]
HEADER_PATTERN = r"^[a-zA-Z0-9-]+$"
# The spec's pattern for header values, verbatim ("9-_" is a range, as in the service).
HEADER_VALUE_PATTERN = r"^[a-zA-Z0-9-_ :;.\/\"'?!(){}\[\]@<>=\-\+\*#$&`|~^%]+$"
URL_PATTERN = r"^[\w!\$~:#\[\]@\(\)*\+,=\/\-\.\%]+$"
USER_TAG = (r"^[a-zA-Z]+[ a-zA-Z0-9]*$", "the tag pattern (a letter first, then letters, digits and spaces)")  # a pattern and its rule
LOOKAROUND = re.compile(r"\(\?<?[=!]")

# The JA3 and JA4 TLS fingerprints (docs/api_reference.md section 18.6): 32 hex characters; a 10-character prefix and two
# 12-character hex hashes. Any case, compared lower-case.
JA3_PATTERN = r"^[0-9a-fA-F]{32}$"
JA4_PATTERN = r"^[A-Za-z0-9]{10}_[0-9a-fA-F]{12}_[0-9a-fA-F]{12}$"
FINGERPRINT_MEMBERS = ("ja3_fingerprints", "ja4_fingerprints")
ASN_RANGE = (1, 4294967295)  # a 32-bit AS number
# Conditions the service returns on rules stored before, but no longer accepts in a create or an update
# (docs/api_reference.md section 18.6): they round-trip, and are never sent.
READ_ONLY_CONDITIONS = ("response_header", "response_header_exists")

# Service defaults filled into conditions (docs/api_reference.md section 9.4).
DEFAULT_MATCH_TYPE = "Contains"
DEFAULT_OWNER_TYPES = ["COMMERCIAL"]
NO_NEGATION = ("request_rate",)


def _member(kind="str", required=False, **rules):
    """One member of a condition kind: its Ansible type plus the rules checked before any request.

    rules: ``length`` (low, high) of a string, ``pattern`` (regex, rule text), ``ip`` (an IP address),
    ``choices``, ``elements`` (list item type), ``items`` (low, high) list size, ``item_length``,
    ``item_pattern``, ``item_ip``, ``item_range`` (low, high) of an int item, ``range`` (low, high) of an int.
    """
    return dict(rules, type=kind, required=required)


HEADER = _member(required=True, length=(1, 50), pattern=(HEADER_PATTERN, "the header name characters (letters, digits and -)"))
HEADER_VALUE = _member(required=True, length=(1, 100), pattern=(HEADER_VALUE_PATTERN, "the header value characters (printable ASCII)"))
MATCH_TYPES = ["Exact", "Contains"]  # a URL also takes "Regex"

CONDITION_KINDS = {
    "ip": dict(ip_address=_member(required=True, ip=True)),
    "ip_range": dict(lower_bound=_member(required=True, ip=True), upper_bound=_member(required=True, ip=True)),
    "url": dict(url=_member(required=True, length=(1, 500)), match_type=_member(choices=MATCH_TYPES + ["Regex"])),
    "user_agent": dict(user_agent=_member(required=True, length=(0, 300)), match_type=_member(choices=MATCH_TYPES)),
    "header": dict(header=HEADER, value=HEADER_VALUE, match_type=_member(choices=MATCH_TYPES)),
    "header_exists": dict(header=HEADER),
    "response_header": dict(header=HEADER, value=HEADER_VALUE, match_type=_member(choices=MATCH_TYPES)),
    "response_header_exists": dict(header=HEADER),
    "http_method": dict(http_method=_member(required=True, choices=HTTP_METHODS)),
    "file_extension": dict(file_extension=_member("list", True, elements="str", items=(1, 20), item_length=(1, 10),
                                                  # the spec's pattern "[a-z0-9]+$" is unanchored at the start: the service accepts
                                                  # (and returns) ".pdf"; never stricter than the service (the round trip)
                                                  item_pattern=(r"[\s\S]*[a-z0-9]", "the service's pattern [a-z0-9]+$ (ending with a-z or 0-9)"))),
    "content_type": dict(content_type=_member("list", True, elements="str", items=(1, 10), item_length=(1, 50))),
    "country": dict(country_code=_member("list", True, elements="str", items=(1, 100),
                                         # the spec's "^\w{2}$" also lets "de" or "1_" through; ISO 3166-1 alpha-2 codes are upper case
                                         item_pattern=(r"^[A-Z]{2}$", "an ISO 3166-1 alpha-2 code, two upper-case letters such as DE"))),
    "organization": dict(organization=_member(required=True, length=(0, 100))),
    "owner_types": dict(owner_types=_member("list", elements="str", choices=OWNER_TYPES, items=(1, None))),
    "tags": dict(tags=_member("list", True, elements="str", items=(1, 5))),
    "session_request_count": dict(request_count=_member("int", True, range=(1, None))),
    "user_defined_tags": dict(tags=_member("list", True, elements="str", items=(1, 10), item_length=(1, 50), item_pattern=USER_TAG)),
    "request_rate": dict(
        path_pattern=_member(required=True, length=(1, 500)),
        requests=_member("int", True, range=(20, None)),
        time=_member("int", True, range=(1, 3600)),
        ips=_member("list", elements="str", items=(0, 10), item_ip=True),
        http_methods=_member("list", elements="str", choices=HTTP_METHODS),
        user_defined_tag=_member(length=(1, 50), pattern=USER_TAG),
    ),
    "asn": dict(asns=_member("list", True, elements="int", items=(1, None), item_range=ASN_RANGE)),
    "ja3": dict(ja3_fingerprints=_member("list", True, elements="str", items=(1, None),
                                         item_pattern=(JA3_PATTERN, "a JA3 fingerprint (32 hexadecimal characters)"))),
    "ja4": dict(ja4_fingerprints=_member("list", True, elements="str", items=(1, None),
                                         item_pattern=(JA4_PATTERN, "a JA4 fingerprint (10 letters or digits, then two groups of 12 "
                                                                    "hexadecimal characters, each after _: t13d1516h2_8daaf6152771_02713d6af862)"))),
}
MATCH_TYPE_KINDS = tuple(kind for kind, members in CONDITION_KINDS.items() if "match_type" in members)
IP_MEMBERS = ("ip_address", "lower_bound", "upper_bound")
