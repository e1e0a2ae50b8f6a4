# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The shared instance interfaces: per-type validation, request bodies, and docs that match the spec."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._interfaces import (
    FIELDS,
    INTERFACE_SPEC,
    interfaces_body,
    validate_floating_ip,
    validate_interfaces,
)

NET = "0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c90"
SUBNET = "7d2f4a1b-3c5e-4f6a-8b9c-0d1e2f3a4b5c"
FIP = "3f8a2c1d-9e4b-4d7a-b6c5-1a2b3c4d5e6f"
SG = "5a6b7c8d-1e2f-4a3b-9c4d-5e6f7a8b9c0d"


def item(**given):
    """An interface as AnsibleModule hands it over: every suboption present, None when not given."""
    value = dict((key, None) for key in INTERFACE_SPEC)
    value["type"] = "external"
    value.update(given)
    return value


VALID = [
    item(),
    item(type="external", interface_name="x" * 37, ip_family="dual", security_groups=[{"id": SG}]),
    item(type="subnet", network_id=NET, subnet_id=SUBNET, floating_ip={"source": "new", "existing_floating_id": None}),
    item(type="any_subnet", network_id=NET, ip_address="2001:db8::5", ip_family="ipv6",
         floating_ip={"source": "existing", "existing_floating_id": FIP}),
    item(type="reserved_fixed_ip", port_id="any-port-id", interface_name=""),
]


@pytest.mark.parametrize("interface", VALID, ids=lambda value: value["type"])
def test_every_variant_with_its_fields_is_accepted(interface):
    validate_interfaces("interfaces", [interface])


@pytest.mark.parametrize("interfaces, message", [
    ([item(type="subnet", network_id=NET, subnet_id=SUBNET, ip_family="ipv4")],
     "interfaces[0].ip_family: not allowed for type subnet (only for type any_subnet or external)"),
    ([item(), item(type="reserved_fixed_ip", port_id="p", ip_family="dual")], "interfaces[1].ip_family: not allowed for type reserved_fixed_ip"),
    ([item(floating_ip={"source": "new", "existing_floating_id": None})], "interfaces[0].floating_ip: not allowed for type external"),
    ([item(network_id=NET)], "interfaces[0].network_id: not allowed for type external (only for type any_subnet or subnet)"),
    ([item(type="any_subnet", network_id=NET, subnet_id=SUBNET)], "interfaces[0].subnet_id: not allowed for type any_subnet (only for type subnet)"),
    ([item(type="subnet", network_id=NET, subnet_id=SUBNET, ip_address="10.0.0.1")], "interfaces[0].ip_address: not allowed for type subnet"),
    ([item(type="any_subnet", network_id=NET, port_id="p")], "interfaces[0].port_id: not allowed for type any_subnet"),
    ([item(type="subnet", network_id=NET)], "interfaces[0].subnet_id: required for type subnet"),
    ([item(type="subnet", subnet_id=SUBNET)], "interfaces[0].network_id: required for type subnet"),
    ([item(type="any_subnet")], "interfaces[0].network_id: required for type any_subnet"),
    ([item(type="reserved_fixed_ip")], "interfaces[0].port_id: required for type reserved_fixed_ip"),
    ([item(type="reserved_fixed_ip", port_id="")], "interfaces[0].port_id: required for type reserved_fixed_ip"),
    ([item(type="subnet", network_id="net", subnet_id=SUBNET)], "interfaces[0].network_id: 'net' is not a UUID"),
    ([item(type="subnet", network_id=NET, subnet_id="sub")], "interfaces[0].subnet_id: 'sub' is not a UUID"),
    ([item(interface_name="x" * 38)], "interfaces[0].interface_name: length 38 is out of range (must be 0 to 37)"),
    ([item(type="any_subnet", network_id=NET, ip_address="10.0.0.256")], "interfaces[0].ip_address: '10.0.0.256' is not an IPv4 or IPv6 address"),
    ([item(type="subnet", network_id=NET, subnet_id=SUBNET, floating_ip={"source": "existing", "existing_floating_id": None})],
     "interfaces[0].floating_ip.existing_floating_id: required when source is existing"),
    ([item(type="subnet", network_id=NET, subnet_id=SUBNET, floating_ip={"source": "existing", "existing_floating_id": "f"})],
     "interfaces[0].floating_ip.existing_floating_id: 'f' is not a UUID"),
    ([item(type="reserved_fixed_ip", port_id="p", floating_ip={"source": "new", "existing_floating_id": FIP})],
     "interfaces[0].floating_ip.existing_floating_id: only allowed when source is existing"),
    ([item(security_groups=[{"id": SG}, {"id": "default"}])], "interfaces[0].security_groups[1].id: 'default' is not a UUID"),
])
def test_a_field_missing_or_out_of_place_names_the_option(interfaces, message):
    with pytest.raises(ValidationError) as error:
        validate_interfaces("interfaces", interfaces)
    assert str(error.value) == message or str(error.value).startswith(message)


def test_at_least_one_interface_when_required():
    validate_interfaces("interfaces", None)
    validate_interfaces("interfaces", [])
    with pytest.raises(ValidationError, match="interfaces: required"):
        validate_interfaces("interfaces", None, at_least_one=True)
    with pytest.raises(ValidationError, match="interfaces: at least one interface is required"):
        validate_interfaces("interfaces", [], at_least_one=True)


def test_load_balancer_floating_ip():
    validate_floating_ip("floating_ip", None)
    validate_floating_ip("floating_ip", {"source": "new", "existing_floating_id": None})
    validate_floating_ip("floating_ip", {"source": "existing", "existing_floating_id": FIP})
    with pytest.raises(ValidationError, match=r"^floating_ip.existing_floating_id: required when source is existing$"):
        validate_floating_ip("floating_ip", {"source": "existing", "existing_floating_id": None})


def test_only_the_fields_given_are_sent_and_type_always():
    interfaces = [
        item(type=None, interface_name="eth0"),
        item(type="subnet", network_id=NET, subnet_id=SUBNET, floating_ip={"source": "new", "existing_floating_id": None},
             security_groups=[{"id": SG}]),
        item(type="any_subnet", network_id=NET, ip_family="dual", floating_ip={"source": "existing", "existing_floating_id": FIP}),
    ]
    assert interfaces_body(interfaces) == [
        {"type": "external", "interface_name": "eth0"},
        {"type": "subnet", "network_id": NET, "subnet_id": SUBNET, "floating_ip": {"source": "new"}, "security_groups": [{"id": SG}]},
        {"type": "any_subnet", "network_id": NET, "ip_family": "dual", "floating_ip": {"source": "existing", "existing_floating_id": FIP}},
    ]
    assert interfaces_body(None) is None


def test_the_field_table_matches_the_published_variants():
    # docs/api_reference.md section 3: every variant has interface_name and security_groups; ip_family only external and any_subnet.
    for kind, (fields, required) in FIELDS.items():
        assert {"interface_name", "security_groups"} <= set(fields), kind
        assert set(required) <= set(fields)
        assert ("ip_family" in fields) == (kind in ("external", "any_subnet"))
        assert ("floating_ip" in fields) == (kind != "external")
    assert set(INTERFACE_SPEC) == {"type"} | set().union(*(fields for fields, _required in FIELDS.values()))
