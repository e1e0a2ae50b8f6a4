# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulator's declared interface: routes (read-only POSTs declared, not guessed), seeds, settings, state."""

from __future__ import annotations

from simulator.core import SETTINGS, Resource, Simulator, resource_classes, seeds

QUOTA_BODY = {"flavor": "bm1-basic-small", "names": ["a"]}
PRICE_BODY = {"flavor": "g1-standard-1-2", "names": ["a"], "interfaces": [{"type": "external"}]}


def test_every_resource_is_a_declaration():
    classes = resource_classes()
    assert {cls.NAME for cls in classes} == {"baremetal", "file_shares", "floating_ips", "images", "instances", "k8s",
                                             "l7policies", "lifecycle_policies", "load_balancers", "networks", "pricing",
                                             "quota", "reserved_fixed_ips", "routers", "secrets", "security_groups",
                                             "server_groups", "snapshots", "ssh_keys", "storage", "subnets", "tasks", "thresholds",
                                             "volumes", "waap"}
    for cls in classes:
        assert issubclass(cls, Resource) and cls.ROUTES, cls
        for route in cls.ROUTES:
            assert callable(getattr(cls, route.handler)), (cls.NAME, route.handler)


def test_read_only_posts_are_declared_and_are_not_writes():
    sim = Simulator()
    read_only = sorted((route.method, route.pattern.pattern) for route, _handler in sim.routes if route.read_only)
    assert [pattern.rsplit("/", 1)[-1] for _method, pattern in read_only] == ["check_limits$"] * 5 + ["instances$", "clusters$"]
    assert sim.call("POST", "/cloud/v1/bminstances/1/76/check_limits", QUOTA_BODY)[0] == 200
    assert sim.call("POST", "/cloud/v2/pricing/1/76/instances", PRICE_BODY)[0] == 200
    assert sim.writes() == []
    assert sim.call("POST", "/cloud/v1/routers/1/76", {"name": "edge"})[0] == 200
    assert [entry["path"] for entry in sim.writes()] == ["/cloud/v1/routers/1/76"]


def test_a_write_is_decided_by_the_route_not_by_the_path_suffix():
    sim = Simulator()
    sim.call("POST", "/cloud/v1/somewhere/instances", {})  # no such route: a POST is a write
    sim.call("GET", "/cloud/v1/routers/1/76")
    assert [entry["path"] for entry in sim.writes()] == ["/cloud/v1/somewhere/instances"]


def test_every_seed_exists_in_the_state():
    sim = Simulator()
    declared = seeds()
    assert sim.seeds == declared
    routers = declared["routers"]
    assert sim.routers[routers["routers"]["legacy_router"]]["name"] == "legacy-router"
    assert [sim.routers[router_id]["name"] for router_id in routers["routers"]["shared_edge"]] == ["shared-edge", "shared-edge"]
    for network_id in routers["external_networks"].values():
        assert sim.call("PATCH", "/cloud/v2/routers/1/76/" + routers["routers"]["legacy_router"],
                        {"external_gateway_info": {"network_id": network_id}})[0] == 200
        sim.release()
    assert all(sim.waap_domains[domain_id]["name"] == name for name, domain_id in declared["waap"]["domains"].items())
    assert all(sim.storages[storage_id]["name"].endswith(name) for name, storage_id in declared["storage"]["storages"].items())
    assert all(client_id in sim.thresholds for client_id in declared["thresholds"]["clients"])
    assert all(sim.ssh_keys[key_id]["name"] == name for name, key_id in declared["ssh_keys"]["ssh_keys"].items())
    sim.call("GET", "/cloud/v1/floatingips/1/76")  # the floating IPs take their ports once the instances exist
    assert all(sim.floating_ips[fip_id]["floating_ip_address"] == address for address, fip_id in declared["floating_ips"]["floating_ips"].items())
    networks = declared["networks"]
    assert all(sim.networks[network_id]["name"] == name.replace("_", "-") for name, network_id in networks["networks"].items())
    assert [sim.networks[network_id]["name"] for network_id in networks["twin_net"]] == ["twin-net", "twin-net"]
    assert all(sim.subnets[subnet_id]["name"] == name.replace("_", "-") for name, subnet_id in networks["subnets"].items())
    assert set(routers["private_subnets"]) == set(networks["subnets"].values())


def test_settings_are_declared_once_with_their_defaults():
    sim = Simulator()
    declared = dict(SETTINGS)
    for cls in resource_classes():
        assert not set(cls.SETTINGS) & set(declared), cls.NAME
        declared.update(cls.SETTINGS)
    assert sorted(sim.config) == sorted(declared)
    assert all(sim.config[name] == default for name, (default, _check) in declared.items())


def test_state_shows_what_each_resource_declares():
    assert sorted(Simulator().snapshot()) == ["access_rules", "advanced_rules", "baremetal_ids", "bm_images", "custom_rules", "file_shares",
                                              "firewall_rules", "floating_ips", "images", "instances", "k8s_clusters", "l7policies", "lb_listeners", "lb_pools",
                                              "lifecycle_policies", "load_balancers", "networks", "policy_overrides", "reserved_fixed_ips",
                                              "routers", "secrets", "security_groups", "server_groups", "snapshots", "ssh_keys",
                                              "storages", "subnets", "thresholds", "volumes", "waap_domains", "waap_policy_modes",
                                              "waap_settings"]


def test_a_plain_cloud_collection_is_a_declaration_its_routes_and_lookups_come_from():
    from simulator.resources.production import Collection  # pylint: disable=import-outside-toplevel
    from simulator.resources.secrets import Secrets  # pylint: disable=import-outside-toplevel
    collection, one = "/cloud/v1/secrets/(?P<project_id>[^/]+)/(?P<region_id>[^/]+)", "/(?P<secret_id>[^/]+)"
    assert [(route.method, route.pattern.pattern, route.handler) for route in Secrets.ROUTES] == [
        ("GET", "^%s$" % collection, "listing"), ("POST", "^%s$" % collection.replace("v1", "v2"), "create"),
        ("GET", "^%s%s$" % (collection, one), "read"), ("DELETE", "^%s%s$" % (collection, one), "delete"),
        ("POST", "^%s$" % collection, "create_v1")]
    sim = Simulator()
    assert sim.call("PATCH", "/cloud/v1/secrets/1/76/%s" % seeds()["secrets"]["seed_cert"], {})[0] == 405
    families = [resource for resource in sim.resources if isinstance(resource, Collection)]
    assert len(families) == 19
    for family in families:  # an unknown record of the scope: 404 with the noun (an integer id: 422 for a uuid)
        path = family.path("/{id}").replace("(?P<project_id>[^/]+)", "1").replace("(?P<region_id>[^/]+)", "76")
        unknown = "0b7c6a52-61f4-4c1a-9f0e-000000000000"
        status, body = sim.call("GET", path.replace("(?P<%s>[^/]+)" % family.ID_PARAM, unknown))
        wanted = (422, family.ID_PARAM) if family.ID_CHECK == "int" else (404, "%s %s not found" % (family.NOUN, unknown))
        assert (status, body["message"].split(":")[0]) == wanted, family.NAME
