# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Parents by name (issue 35): each resolved before the first write (one listing, exact match; several fail
listing their ids, none fails naming the option), and in check mode a parent not built yet is assumed (a warning names
it) so the task previews its create."""

from __future__ import annotations

import requests

from ansible_collections.gcore.platform.plugins.modules import instance, load_balancer, reserved_fixed_ip, router, security_group, subnet, volume_snapshot

import harness
from harness import warning_texts, writes

SCOPE = dict(project_id=1, region_id=76)
NET1, SUB1 = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
NET3, SUB3 = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a03", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b03"
TWINS = ("5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a11", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a12")
VM = dict(SCOPE, name="named-vm", flavor="g1-standard-2-4", volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10}])


def run(server, module, args, **options):
    return harness.run(server, module, dict(SCOPE, **args), **options)


def listings(server, path):
    return server.requests("GET", path)


def test_a_subnet_of_a_network_named_by_name_is_created_once_and_then_left(server):
    args = dict(name="named-subnet", network="router-net-1", cidr="192.168.11.0/24")
    result = run(server, subnet, args)
    assert result["changed"] is True and result["subnet"]["network_id"] == NET1, result
    assert [(method, path) for method, path, _body in writes(server)] == [("POST", "/cloud/v1/subnets/1/76")]
    assert writes(server)[0][2]["network_id"] == NET1
    assert len(listings(server, r"^/cloud/v1/networks/1/76$")) == 1  # one listing resolved the name
    mark = len(server.writes())
    again = run(server, subnet, args)
    assert again["changed"] is False and server.writes()[mark:] == []


def test_a_parent_name_that_matches_nothing_or_two_fails_naming_the_option_and_sends_nothing(server):
    result = run(server, subnet, dict(name="named-subnet", network="no-such-net", cidr="10.1.0.0/24"))
    assert result["failed"] is True and "network: no network is named 'no-such-net' in project 1, region 76" in result["msg"], result
    result = run(server, subnet, dict(name="named-subnet", network="twin-net", cidr="10.1.0.0/24"))
    assert result["failed"] is True and "network: 2 networks of project 1, region 76 are named 'twin-net'" in result["msg"]
    assert all(ident in result["msg"] for ident in TWINS), result["msg"]
    result = run(server, router, dict(name="named-router", interfaces=[{"subnet": "no-such-subnet"}]))
    assert result["failed"] is True and "interfaces[0].subnet: no subnet is named 'no-such-subnet'" in result["msg"], result
    assert writes(server) == []


def test_check_mode_assumes_a_parent_not_built_yet_and_previews_the_create(server):
    args = dict(name="preview-subnet", network="preview-net", cidr="10.2.0.0/24")
    result = run(server, subnet, args, _ansible_check_mode=True, _ansible_diff=True)
    assert result["changed"] is True and result["subnet"] is None, result
    assert result["diff"]["after"]["network_id"] == "(network 'preview-net', not built yet)", result["diff"]
    assert result["diff"]["after"]["cidr"] == "10.2.0.0/24" and result["diff"]["before"] == {"state": "absent"}
    assert any("network: check mode assumes that an earlier task creates the network 'preview-net' for this subnet" in text
               for text in warning_texts(result)), result
    assert writes(server) == [] and listings(server, r"^/cloud/v1/subnets/") == []  # nothing is under a network not built
    # Outside check mode the same task fails as before.
    result = run(server, subnet, args)
    assert result["failed"] is True and "network: no network is named 'preview-net'" in result["msg"] and writes(server) == []


def test_instance_interfaces_by_name_and_a_reserved_fixed_ip_by_address_are_sent_as_ids(server):
    headers = {"Authorization": "apikey %s" % server.api_key}
    answer = requests.post(server.url + "/cloud/v1/reserved_fixed_ips/1/76", headers=headers, timeout=30,
                           json={"type": "ip_address", "network_id": NET3, "ip_address": "192.168.30.50"})
    assert answer.status_code == 200, answer.text
    held = requests.get(server.url + "/cloud/v1/reserved_fixed_ips/1/76", headers=headers, timeout=30).json()["results"]
    port = next(record["port_id"] for record in held if record["fixed_ip_address"] == "192.168.30.50")
    mark = len(server.writes())
    interfaces = [{"type": "subnet", "network": "router-net-1", "subnet": "router-subnet-1"},
                  {"type": "any_subnet", "network": "router-net-1"},
                  {"type": "reserved_fixed_ip", "network": "router-net-3", "ip_address": "192.168.30.50"}]
    result = run(server, instance, dict(VM, interfaces=interfaces))
    assert result["changed"] is True, result
    body = [entry for entry in writes(server)[mark:] if entry[0] == "POST" and entry[1] == "/cloud/v2/instances/1/76"][0][2]
    assert body["interfaces"] == [{"type": "subnet", "network_id": NET1, "subnet_id": SUB1}, {"type": "any_subnet", "network_id": NET1},
                                  {"type": "reserved_fixed_ip", "port_id": port}], body
    # router-net-1 is named twice and router-net-3 once: each name is looked up once.
    assert sorted(entry["query"].split("&")[0] for entry in listings(server, r"^/cloud/v1/networks/1/76$")) == [
        "name=router-net-1", "name=router-net-3"]


def test_router_interfaces_by_subnet_name_within_a_network(server):
    result = run(server, router, dict(name="named-router", interfaces=[{"subnet": "router-subnet-1"},
                                                                       {"subnet": "router-subnet-3", "network": "router-net-3"}]))
    assert result["changed"] is True, result
    body = writes(server)[0][2]
    assert sorted(item["subnet_id"] for item in body["interfaces"]) == [SUB1, SUB3], body
    mark = len(server.writes())
    again = run(server, router, dict(name="named-router", interfaces=[{"subnet": "router-subnet-1"}, {"subnet_id": SUB3}]))
    assert again["changed"] is False and server.writes()[mark:] == [], again


def test_a_rule_names_its_remote_group_by_name(server):
    web = run(server, security_group, dict(name="named-web", rules=[{"direction": "egress"}]))
    assert web["changed"] is True, web
    rules = [{"direction": "ingress", "protocol": "tcp", "port_range_min": 5432, "remote_group": "named-web"}, {"direction": "egress"}]
    result = run(server, security_group, dict(name="named-db", rules=rules))
    assert result["changed"] is True, result
    held = [rule for rule in result["security_group"]["security_group_rules"] if rule["direction"] == "ingress"]
    assert [rule["remote_group_id"] for rule in held] == [web["security_group"]["id"]], held
    mark = len(server.writes())
    assert run(server, security_group, dict(name="named-db", rules=rules))["changed"] is False and server.writes()[mark:] == []


def test_a_load_balancer_vip_by_network_and_subnet_names(server):
    result = run(server, load_balancer, dict(name="named-lb", vip_network="router-net-1", vip_subnet="router-subnet-1"))
    assert result["changed"] is True, result
    body = [entry[2] for entry in writes(server) if entry[1] == "/cloud/v1/loadbalancers/1/76"][0]
    assert (body["vip_network_id"], body["vip_subnet_id"]) == (NET1, SUB1), body
    preview = run(server, load_balancer, dict(name="preview-lb", vip_network="preview-net", vip_ip_address="10.3.0.5"),
                  _ansible_check_mode=True)
    assert preview["changed"] is True and any("the reserved fixed IP 10.3.0.5 on network (network 'preview-net', not built yet)" in text
                                              for text in warning_texts(preview)), preview


def test_check_mode_previews_an_instance_whose_parents_are_not_built_yet(server):
    interfaces = [{"type": "subnet", "network": "preview-net", "subnet": "preview-subnet"}]
    args = dict(VM, interfaces=interfaces, security_groups=["preview-sg"], placement_group="preview-group")
    result = run(server, instance, args, _ansible_check_mode=True, _ansible_diff=True)
    assert result["changed"] is True and writes(server) == [], result
    after = result["diff"]["after"]
    assert after["interfaces"] == [{"type": "subnet", "network": "preview-net", "subnet": "preview-subnet"}], after
    assert after["placement_group"] == "(placement group 'preview-group', not built yet)", after
    assumed = sorted(text.split(":")[0] for text in warning_texts(result) if "check mode assumes" in text)
    assert assumed == ["interfaces[0].network", "interfaces[0].subnet", "placement_group", "security_groups"], warning_texts(result)
    # The subnet under a network not built yet is not looked up: no subnet listing.
    assert listings(server, r"^/cloud/v1/subnets/") == []
    result = run(server, instance, args)
    assert result["failed"] is True and writes(server) == [], result


def test_check_mode_previews_the_production_parents_not_built_yet_and_a_teardown_finds_nothing_under_them(server):
    """Issue 36 (examples/production.yml): a load balancer's certificate and member instances, a reserved fixed IP's
    network and instances, a snapshot's volume, named but not built yet, are assumed in check mode (each warned once) and
    fail outside it; a snapshot whose volume is gone is nothing to delete."""
    pool = {"name": "preview-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP",
            "members": [{"instance": "preview-vm", "protocol_port": 80}]}
    listeners = [{"name": name, "protocol": protocol, "protocol_port": port, "secret": secret, "pool": dict(pool, name=name)}
                 for name, protocol, port, secret in (("https", "TERMINATED_HTTPS", 443, "preview-cert"), ("http", "HTTP", 80, None))]
    tasks = ((load_balancer, dict(name="preview-lb", listeners=listeners),
              ["listeners[0].pool.members[0].instance", "listeners[0].secret"]),
             (reserved_fixed_ip, dict(network="preview-net", ip_address="10.4.0.5", is_vip=True, connected_instances=["preview-vm"]),
              ["connected_instances[0]", "network"]),
             (volume_snapshot, dict(name="preview-snap", volume="preview-volume"), ["volume"]))
    seen = []  # (the warnings of the runs before, which the harness keeps)
    for module, args, options in tasks:
        result = run(server, module, args, _ansible_check_mode=True, _ansible_diff=True)
        assert result["changed"] is True and writes(server) == [], result
        assumed = sorted(text.split(":")[0] for text in warning_texts(result) if "check mode assumes" in text and text not in seen)
        assert assumed == options, warning_texts(result)
        seen += warning_texts(result)
        result = run(server, module, args)
        assert result["failed"] is True and " is named " in result["msg"] and writes(server) == [], result
    result = run(server, volume_snapshot, dict(name="preview-snap", volume="preview-volume", state="absent"))
    assert result["changed"] is False and "failed" not in result and writes(server) == [], result
