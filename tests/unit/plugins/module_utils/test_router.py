# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The router comparison: canonical routes, the gateway view, the changes a PATCH would send, the name lookup."""

from __future__ import annotations

import pytest
import responses

from ansible_collections.gcore.platform.plugins.module_utils._checks import Refused, ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._client import Client
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS, find_named
from ansible_collections.gcore.platform.plugins.module_utils._members import differences, view
from ansible_collections.gcore.platform.plugins.module_utils._networks import canonical_routes, check_routes
from ansible_collections.gcore.platform.plugins.modules.router import Router, desired_gateway, gateway_view


def router_view(held):
    return view(Router.members, held)


def router_changes(held, name=None, routes=None, gateway=None):
    return differences(Router.members, held, {"name": name, "routes": routes, "external_gateway_info": gateway})


NET_1 = "8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a001"
NET_2 = "8c4b5f1e-1a3b-4b4e-9d57-2f0a4cb6a002"
URL = "https://api.test"


def route(destination, nexthop):
    return {"destination": destination, "nexthop": nexthop}


def record(routes=(), gateway=None, name="edge"):
    """A router as GET returns it (docs/api_reference.md 2.1): the gateway has external_fixed_ips and no type."""
    return {"id": "r-1", "name": name, "status": "ACTIVE", "routes": list(routes), "interfaces": [], "task_id": None,
            "external_gateway_info": gateway}


def gateway(network_id=NET_1, enable_snat=True):
    return {"network_id": network_id, "enable_snat": enable_snat,
            "external_fixed_ips": [{"ip_address": "203.0.113.10", "subnet_id": "s-1"}]}


# ---- routes -------------------------------------------------------------------------------------
def test_order_spelling_and_duplicates_do_not_matter():
    given = [route("2001:0DB8:0010:0000::/64", "2001:DB8:0:0:0:0:0:1"), route("10.0.3.0/24", "10.0.0.13"),
             route("10.0.3.0/24", "10.0.0.13")]
    held = [route("10.0.3.0/24", "10.0.0.13"), route("2001:db8:10::/64", "2001:db8::1")]
    assert canonical_routes(given) == canonical_routes(held)
    assert canonical_routes(given) == held


def test_canonical_form_is_compressed_lower_case_ipv6_and_sorted_ipv4_first():
    assert canonical_routes([route("FD00:0:0:1::/64", "FD00::0001"), route("192.168.0.0/16", "10.0.0.1")]) == [
        route("192.168.0.0/16", "10.0.0.1"), route("fd00:0:0:1::/64", "fd00::1")]


def test_a_single_address_destination_is_a_host_route():
    assert canonical_routes([route("10.1.2.3", "10.0.0.1")]) == [route("10.1.2.3/32", "10.0.0.1")]


def test_no_routes():
    assert canonical_routes(None) == []
    assert canonical_routes([]) == []


def test_same_destination_other_nexthop_is_another_route():
    assert len(canonical_routes([route("10.0.3.0/24", "10.0.0.13"), route("10.0.3.0/24", "10.0.0.14")])) == 2


@pytest.mark.parametrize("given, problem", [
    (route("10.0.3.0/24", "10.0.0.13"), None),
    (route("2001:db8::/32", "2001:db8::1"), None),
    (route("10.0.3.1/24", "10.0.0.13"), "routes[0].destination: '10.0.3.1/24' has host bits set; use the network address 10.0.3.0/24"),
    (route("2001:db8::1/64", "2001:db8::2"), "routes[0].destination: '2001:db8::1/64' has host bits set"),
    (route("10.0.0.0/33", "10.0.0.1"), "routes[0].destination: '10.0.0.0/33' is not a valid CIDR"),
    (route("ten/8", "10.0.0.1"), "routes[0].destination: 'ten/8' is not a valid CIDR"),
    (route("10.0.3.0/24", "10.0.0.300"), "routes[0].nexthop: '10.0.0.300' is not a valid IP address"),
    (route("10.0.3.0/24", "10.0.0.0/24"), "routes[0].nexthop: '10.0.0.0/24' is not a valid IP address"),
    (route("10.0.3.0/24", "2001:db8::1"), "routes[0].nexthop: 2001:db8::1 is an IPv6 address but the destination 10.0.3.0/24 is IPv4"),
])
def test_route_problems(given, problem):
    try:
        check_routes("routes", [given])
    except ValidationError as exc:
        assert problem is not None and str(exc).startswith(problem)
    else:
        assert problem is None


# ---- gateway ------------------------------------------------------------------------------------
def test_gateway_view_keeps_network_and_snat_only():
    assert gateway_view(gateway(NET_2, False)) == {"network_id": NET_2, "enable_snat": False}
    assert gateway_view(None) is None
    assert gateway_view({}) is None


def test_gateway_view_snat_defaults_to_true():
    assert gateway_view({"network_id": NET_1, "external_fixed_ips": []}) == {"network_id": NET_1, "enable_snat": True}


def test_desired_manual_gateway():
    wanted = {"type": "manual", "network_id": NET_2, "enable_snat": None}
    assert desired_gateway(wanted, {"network_id": NET_1, "enable_snat": False}) == {"network_id": NET_2, "enable_snat": True}


def test_desired_default_gateway_takes_any_existing_network():
    wanted = {"type": "default", "network_id": None, "enable_snat": False}
    assert desired_gateway(wanted, {"network_id": NET_1, "enable_snat": True}) == {"network_id": NET_1, "enable_snat": False}
    assert desired_gateway(wanted, None) == {"network_id": None, "enable_snat": False}


def test_default_gateway_without_enable_snat_keeps_the_current_setting():
    wanted = {"type": "default", "network_id": None, "enable_snat": None}
    assert desired_gateway(wanted, {"network_id": NET_1, "enable_snat": False}) == {"network_id": NET_1, "enable_snat": False}
    assert desired_gateway(wanted, None) == {"network_id": None, "enable_snat": True}


# ---- what a PATCH would send --------------------------------------------------------------------
def test_nothing_managed_is_no_change():
    assert router_changes(record([route("10.0.3.0/24", "10.0.0.13")], gateway())) == {}


def test_equal_route_sets_are_no_change():
    held = record([route("10.0.3.0/24", "10.0.0.13"), route("2001:db8:10::/64", "2001:db8::1")])
    assert router_changes(held, routes=[route("2001:DB8:10:0::/64", "2001:db8:0::1"), route("10.0.3.0/24", "10.0.0.13")]) == {}


def test_changed_routes_are_sent_whole_and_canonical():
    held = record([route("10.0.3.0/24", "10.0.0.13")])
    assert router_changes(held, routes=[route("10.0.3.0/24", "10.0.0.13"), route("FD00::/8", "FD00::1")]) == {
        "routes": [route("10.0.3.0/24", "10.0.0.13"), route("fd00::/8", "fd00::1")]}


def test_empty_routes_clear_and_omitted_routes_are_unmanaged():
    held = record([route("10.0.3.0/24", "10.0.0.13")])
    assert router_changes(held, routes=[]) == {"routes": []}
    assert router_changes(held, routes=None) == {}
    assert router_changes(record([]), routes=[]) == {}


def test_rename():
    assert router_changes(record(name="edge"), name="edge-2") == {"name": "edge-2"}
    assert router_changes(record(name="edge"), name="edge") == {}


def test_gateway_compared_by_network_and_snat_not_fixed_ips_or_type():
    held = record(gateway=gateway(NET_1, True))
    assert router_changes(held, gateway={"type": "manual", "network_id": NET_1, "enable_snat": True}) == {}
    assert router_changes(held, gateway={"type": "manual", "network_id": NET_1, "enable_snat": None}) == {}
    assert router_changes(held, gateway={"type": "manual", "network_id": NET_1, "enable_snat": False}) == {
        "external_gateway_info": {"network_id": NET_1, "enable_snat": False}}
    assert router_changes(held, gateway={"type": "manual", "network_id": NET_2, "enable_snat": True}) == {
        "external_gateway_info": {"network_id": NET_2, "enable_snat": True}}


def test_a_missing_gateway_is_added():
    assert router_changes(record(), gateway={"type": "manual", "network_id": NET_2, "enable_snat": True}) == {
        "external_gateway_info": {"network_id": NET_2, "enable_snat": True}}


def test_default_gateway_is_satisfied_by_any_gateway_but_snat_is_managed():
    held = record(gateway=gateway(NET_2, True))
    assert router_changes(held, gateway={"type": "default", "network_id": None, "enable_snat": True}) == {}
    assert router_changes(held, gateway={"type": "default", "network_id": None, "enable_snat": False}) == {
        "external_gateway_info": {"network_id": NET_2, "enable_snat": False}}


def test_default_gateway_cannot_be_added_to_an_existing_router():
    with pytest.raises(ValueError, match="default is accepted only when a router is created"):
        router_changes(record(), gateway={"type": "default", "network_id": None, "enable_snat": True})


def test_view_is_the_diff_shape():
    held = record([route("10.0.4.0/24", "10.0.0.1"), route("10.0.3.0/24", "10.0.0.1")], gateway(NET_1, False))
    assert router_view(held) == {"name": "edge", "routes": [route("10.0.3.0/24", "10.0.0.1"), route("10.0.4.0/24", "10.0.0.1")],
                                 "external_gateway_info": {"network_id": NET_1, "enable_snat": False}}


# ---- lookup by name (the core's find_named, on the router kind) --------------------------------------------
@responses.activate
def test_find_named_reads_every_page_and_compares_exactly():
    path = "/cloud/v1/routers/1/76"
    pages = [
        [{"id": "b", "name": "edge-2"}, {"id": "c", "name": "my-edge"}],
        [{"id": "d", "name": "edge"}, {"id": "e", "name": "EDGE"}],
    ]
    for page in pages:
        responses.get(URL + path, json={"count": 4, "results": page + [{"id": "x%d" % n, "name": "x"} for n in range(998)]})
    responses.get(URL + path, json={"count": 4, "results": []})
    ident, found = find_named(Client(api_key="k", api_url=URL), KINDS["router"], {"project_id": 1, "region_id": 76}, "edge", "router")
    assert (ident, found["name"]) == ("d", "edge")
    queries = [call.request.params for call in responses.calls]
    assert queries[:2] == [{"name": "edge", "limit": "1000", "offset": "0"}, {"name": "edge", "limit": "1000", "offset": "1000"}]


@responses.activate
def test_find_named_fails_on_two_of_a_name_listing_their_ids_and_none_when_not_required():
    path = "/cloud/v1/routers/1/76"
    responses.get(URL + path, json={"count": 2, "results": [{"id": "a", "name": "edge"}, {"id": "d", "name": "edge"}]})
    scope = {"project_id": 1, "region_id": 76}
    with pytest.raises(Refused, match=r"router: 2 routers of project 1, region 76 are named 'edge' \(ids a, d\)"):
        find_named(Client(api_key="k", api_url=URL), KINDS["router"], scope, "edge", "router")
    assert find_named(Client(api_key="k", api_url=URL), KINDS["router"], scope, "other", "router", required=False) == (None, None)
