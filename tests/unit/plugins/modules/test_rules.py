# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The security_group module's rules: a rule's canonical form, its readable identity, and the rule sets."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.modules import security_group as _rules

RECORD_RULE = {"id": "r1", "security_group_id": "g1", "direction": "ingress", "ethertype": "IPv6", "protocol": "tcp",
               "port_range_min": 443, "port_range_max": 443, "remote_ip_prefix": "2001:0DB8::/32", "remote_group_id": None,
               "description": "", "revision_number": 0}


def test_a_record_rule_in_canonical_form_and_its_label():
    rule = _rules.canonical(RECORD_RULE)
    assert rule == {"direction": "ingress", "ethertype": "IPv6", "protocol": "tcp", "port_range_min": 443, "port_range_max": 443,
                    "remote_ip_prefix": "2001:db8::/32", "remote_group_id": None, "description": None}
    assert _rules.label(rule) == "ingress IPv6 tcp 443-443 2001:db8::/32"


@pytest.mark.parametrize("given, label", [
    ({"direction": "egress", "ethertype": "IPv4"}, "egress IPv4 any"),
    ({"direction": "egress", "ethertype": "IPv4", "protocol": "any"}, "egress IPv4 any"),
    ({"direction": "ingress", "ethertype": "IPv4", "protocol": "udp", "port_range_max": 53}, "ingress IPv4 udp 53-53"),
    ({"direction": "ingress", "ethertype": "IPv4", "protocol": "icmp", "remote_group_id": "5EC0A11E-0000-4000-8000-000000000001"},
     "ingress IPv4 icmp group 5ec0a11e-0000-4000-8000-000000000001"),
])
def test_labels_name_the_identity_readably(given, label):
    assert _rules.label(_rules.canonical(given)) == label


def test_the_wanted_set_keeps_a_held_description_and_without_purge_the_held_rules():
    record = {"security_group_rules": [dict(RECORD_RULE, description="https v6"),
                                       {"direction": "egress", "ethertype": "IPv4", "protocol": None}]}
    listed = [_rules.canonical({"direction": "ingress", "ethertype": "IPv6", "protocol": "tcp", "port_range_min": 443,
                                "remote_ip_prefix": "2001:db8::/32"})]
    purged = _rules.wanted(listed, record, purge=True)
    assert list(purged) == ["ingress IPv6 tcp 443-443 2001:db8::/32"] and purged[list(purged)[0]]["description"] == "https v6"
    kept = _rules.wanted(listed, record, purge=False)
    assert sorted(kept) == ["egress IPv4 any", "ingress IPv6 tcp 443-443 2001:db8::/32"]
    created, deleted = _rules.differing(purged, _rules.held(record))
    assert created == [] and [rule["direction"] for rule in deleted] == ["egress"]


def test_a_body_rule_sends_any_as_null_and_leaves_out_what_has_no_value():
    rule = _rules.canonical({"direction": "egress", "ethertype": "IPv6", "protocol": "any"})
    assert _rules.body_rule(rule) == {"direction": "egress", "ethertype": "IPv6", "protocol": None}
