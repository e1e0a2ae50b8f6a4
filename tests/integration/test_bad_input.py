# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Bad input across every module: each case fails, its message names the option and the rule, nothing is sent.

The tables run in-process, each module's ``main`` with patched arguments (the argument spec and the modules'
own checks, as ``ansible-playbook`` would run them, without a process per case); a guard on the socket layer
records any connection attempt, and there must be none. ``CASES`` is the table across every module;
``ROUTER_CASES``, ``QUOTA_CASES``, ``PRICE_CASES`` and ``CUSTOM_RULE_CASES`` hold the full tables of the former
``*_invalid`` targets, with their exact expected messages. One end-to-end story
(``test_bad_input_through_ansible_playbook``) proves the wiring: the same refusals through ``ansible-playbook``.
The simulator's own refusals of what the published schemas refuse (422, cloud shape) are checked against the
running simulator over HTTP.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import pathlib
import re
import socket
import sys
from unittest import mock

import pytest
import requests
import responses
from ansible.module_utils.testing import patch_module_args

import pem
from conftest import PROJECT_ID, REGION_ID
from collection_link import collections_path

if collections_path() not in sys.path:
    sys.path.insert(0, collections_path())

KEY = "in-process-bad-input-key"
URL = "http://127.0.0.1:9"  # never reached: the socket guard refuses and records every connection
RULE = {"domain_id": 1001, "name": "ok rule", "action": {"block": {}}, "conditions": [{"ip": {"ip_address": "192.0.2.1"}}]}
EXTERNAL = [{"type": "external"}]
UUID = "3f0e1b5a-6c2d-4e8f-9a1b-2c3d4e5f6a7b"
BM = {"resource": "baremetal", "flavor": "bm1-basic-medium", "names": ["a"], "interfaces": EXTERNAL}
PRICE = {"flavor": "g1-standard-2-4", "names": ["a"], "interfaces": EXTERNAL}
NET = "0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c90"
SUBNET = "7d2f4a1b-3c5e-4f6a-8b9c-0d1e2f3a4b5c"
FIP = "3f8a2c1d-9e4b-4d7a-b6c5-1a2b3c4d5e6f"
PORT = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"
ROUTER_SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
PUBLIC_NET = "c2f1a6d0-0000-4000-8000-00000000e001"  # any UUID: the gateway cases are refused before any lookup


def rule(**changes):
    return dict(RULE, **changes)


def item(**changes):
    """One item of the set modules' config."""
    return dict({key: value for key, value in RULE.items() if key != "domain_id"}, **changes)


# (module, arguments, text the message must contain: the option's name)
CASES = [
    # the documented limits of the options (each module's DOCUMENTATION)
    ("firewall_rules_info", {"page_size": 0}, "page_size"),
    ("firewall_rules_info", {"page_size": 101}, "page_size"),
    ("firewall_rules_info", {"max_results": 0}, "max_results"),
    ("waap_custom_rule", rule(name=""), "name"),
    ("waap_custom_rule", rule(name="x" * 101), "name"),
    ("waap_custom_rule", rule(name="semi-colon-and-dash-"), "name"),
    ("waap_custom_rule", rule(description="d" * 101), "description"),
    ("waap_custom_rule", rule(conditions=[]), "conditions"),
    ("waap_custom_rule", rule(conditions=[{"ip": {"ip_address": "192.0.2.%s" % n}} for n in range(6)]), "conditions"),
    ("router", {"name": "ab"}, "name"),
    ("router", {"name": "r" * 64}, "name"),
    ("router", {"name": "-starts-with-dash"}, "name"),
    ("router", {"name": "ends-with-dash-"}, "name"),
    ("notification_threshold", {"client_id": 1, "threshold": 59}, "threshold"),
    ("notification_threshold", {"client_id": 1, "threshold": 101}, "threshold"),
    # patterns and enums of the contract
    ("router", {"name": "r-1", "routes": [{"destination": "10.0.0.1/24", "nexthop": "10.0.0.254"}]}, "destination"),
    ("router", {"name": "r-1", "routes": [{"destination": "10.0.0.0/33", "nexthop": "10.0.0.254"}]}, "destination"),
    ("router", {"name": "r-1", "routes": [{"destination": "10.0.0.0/24", "nexthop": "10.0.0.999"}]}, "nexthop"),
    ("router", {"name": "r-1", "external_gateway_info": {"network_id": "not-a-uuid"}}, "network_id"),
    ("router", {"name": "r-1", "external_gateway_info": {"type": "manual"}}, "network_id"),
    ("router", {"id": "not-a-uuid"}, "id"),
    ("router", {"name": "r-1", "state": "gone"}, "state"),
    ("waap_custom_rule", rule(action={"block": {"status_code": 404}}), "status_code"),
    ("waap_custom_rule", rule(action={"block": {"action_duration": "0s"}}), "action_duration"),
    ("waap_custom_rule", rule(action={"allow": {}, "block": {}}), "action"),
    ("waap_custom_rule", rule(action={"tag": {"tags": []}}), "tags"),
    ("waap_custom_rule", rule(conditions=[{"ip": {"ip_address": "192.0.2.1"}, "url": {"url": "/a"}}]), "conditions"),
    ("waap_custom_rule", rule(conditions=[{"request_rate": {"path_pattern": "/", "requests": 20, "time": 1, "negation": True}}]),
     "negation"),
    ("waap_custom_rule", rule(conditions=[{"http_method": {"http_method": "FETCH"}}]), "http_method"),
    ("firewall_rules_info", {"action": "captcha"}, "action"),
    ("firewall_rules_info", {"ordering": "size"}, "ordering"),
    ("quota_check", {"resource": "vm"}, "resource"),
    ("quota_check", dict(BM, interfaces=[{"type": "subnet", "network_id": UUID, "subnet_id": UUID, "ip_family": "ipv4"}]), "ip_family"),
    ("quota_check", dict(BM, interfaces=[{"type": "external", "subnet_id": UUID}]), "subnet_id"),
    ("quota_check", dict(BM, interfaces=[{"type": "subnet", "network_id": UUID}]), "subnet_id"),
    ("quota_check", dict(BM, interfaces=[{"type": "external", "interface_name": "i" * 38}]), "interface_name"),
    # issue 48: a baremetal_server task's interfaces as they are (by name, with port_group)
    ("quota_check", dict(BM, interfaces=[{"type": "external", "port_group": 4}]), "interfaces[0].port_group"),
    ("quota_check", dict(BM, interfaces=[{"type": "external", "port_group": -1}]), "interfaces[0].port_group"),
    ("quota_check", dict(BM, interfaces=[{"type": "external", "network": "net-1"}]), "interfaces[0].network"),
    ("quota_check", dict(BM, interfaces=[{"type": "any_subnet", "network": "net-1", "subnet": "sub-1"}]), "interfaces[0].subnet"),
    ("quota_check", dict(BM, interfaces=[{"type": "subnet", "network": "net-1", "subnet": "sub-1", "subnet_id": SUBNET}]), "subnet"),
    ("quota_check", dict(BM, interfaces=[{"type": "reserved_fixed_ip", "ip_address": "10.0.0.5"}]), "interfaces[0]"),
    ("quota_check", {"resource": "instance", "flavor": "g1-standard-2-4", "names": ["a"],
                     "interfaces": [{"type": "external", "port_group": 0}]}, "interfaces[0].port_group"),
    ("quota_check", {"resource": "loadbalancer", "logging": {"enabled": True, "retention_policy": {"period": 1826}}}, "period"),
    ("quota_check", {"resource": "loadbalancer", "logging": {"enabled": True, "topic_name": "Bad_Topic"}}, "topic_name"),
    ("quota_check", {"resource": "loadbalancer", "vip_network_id": UUID, "vip_port_id": UUID}, "vip_network_id"),
    ("quota_check", {"resource": "loadbalancer", "floating_ip": {"source": "existing"}}, "existing_floating_id"),
    ("price_preview", dict(PRICE, volumes=[{"source": "snapshot", "size": 10}]), "snapshot_id"),
    ("price_preview", dict(PRICE, volumes=[{"source": "image", "type_name": "gold"}]), "type_name"),
    ("price_preview", dict(PRICE, volumes=[{"source": "floppy"}]), "source"),
    ("price_preview", {"flavor": "g1-standard-2-4", "interfaces": EXTERNAL}, "names"),
    ("storage", {"storage_id": 1, "type": "nfs"}, "type"),
    ("storage", {"storage_id": 1, "state": "present"}, "state"),
    # wrong types
    ("notification_threshold_info", {"client_id": "abc"}, "client_id"),
    ("notification_threshold", {"client_id": 1, "threshold": "high"}, "threshold"),
    ("firewall_rules_info", {"domain_ids": ["one"]}, "domain_ids"),
    ("firewall_rules_info", {"enabled": "maybe"}, "enabled"),
    ("storage", {"storage_id": "twelve"}, "storage_id"),
    ("storage", {"storage_id": 0}, "storage_id"),
    ("router", {"name": "r-1", "wait_timeout": "soon"}, "wait_timeout"),
    ("router", {"name": "r-1", "routes": "10.0.0.0/24"}, "routes"),
    ("waap_custom_rule", rule(domain_id=0), "domain_id"),
    # unknown options, options of the wrong variant, common options
    ("notification_threshold_info", {"client_id": 1, "region": 76}, "region"),
    ("router", {"name": "r-1", "interface": []}, "interface"),
    # issue 14: router interfaces, gateway removal, router_info
    ("router", {"name": "r-1", "interfaces": [{"subnet_id": UUID}, {"subnet_id": UUID}]}, "interfaces"),
    ("router", {"name": "r-1", "interfaces": [{"subnet_id": "subnet-1"}]}, "interfaces[0].subnet_id"),
    ("router", {"name": "r-1", "interfaces": [{"subnet_id": UUID, "ip_address": "10.0.0.1\n"}]}, "interfaces[0].ip_address"),
    ("router", {"name": "r-1", "external_gateway_info": {"type": "none", "network_id": UUID}}, "external_gateway_info.network_id"),
    ("router_info", {"id": "router-1"}, "id"),
    ("router_info", {"name": "r\u0001x"}, "name"),
    ("router_info", {"id": UUID, "name": "r-1"}, "id|name"),
    ("quota_check", dict(BM, vip_port_id=UUID), "vip_port_id"),
    ("quota_check", {"resource": "loadbalancer", "names": ["a"]}, "names"),
    ("waap_custom_rule_info", {"domain_id": 1001, "page": 2}, "page"),
    ("notification_threshold_info", {"client_id": 1, "api_timeout": 0}, "api_timeout"),
    ("notification_threshold_info", {"client_id": 1, "api_retries": -1}, "api_retries"),
    # issue 11: the common options as plugins/doc_fragments/gcore.py documents them
    ("notification_threshold_info", {"client_id": 1, "api_url": URL + "/cloud"}, "api_url"),  # was: null, "absent"
    ("storage", {"storage_id": 1, "api_url": URL + "/cloud"}, "api_url"),  # was: ok, nothing deleted
    ("notification_threshold_info", {"client_id": 1, "api_url": URL + "/?region=76"}, "api_url"),
    ("notification_threshold_info", {"client_id": 1, "api_url": URL.replace("http://", "")}, "api_url"),
    ("notification_threshold_info", {"client_id": 1, "api_url": ""}, "api_url"),  # was: production
    ("notification_threshold_info", {"client_id": 1, "api_url": "ftp://127.0.0.1"}, "api_url"),
    ("notification_threshold_info", {"client_id": 1, "api_key": "abc\ndef"}, "api_key"),
    ("notification_threshold_info", {"client_id": 1, "api_key": "abc\u2013def"}, "api_key"),  # was: a codec error
    ("notification_threshold_info", {"client_id": 1, "api_timeout": 3601}, "api_timeout"),
    ("notification_threshold_info", {"client_id": 1, "api_retries": 11}, "api_retries"),
    ("price_preview", dict(PRICE, project_id=0), "project_id"),
    ("price_preview", dict(PRICE, region_id=-1), "region_id"),
    ("quota_check", dict(BM, region_id=0), "region_id"),
    # issue 11: numbers that are not numbers
    ("price_preview", dict(PRICE, max_price_per_month="nan"), "max_price_per_month"),  # was: sent, then a crash
    ("price_preview", dict(PRICE, max_price_per_month="inf"), "max_price_per_month"),  # was: no budget at all
    ("price_preview", dict(PRICE, max_price_per_month="-inf"), "max_price_per_month"),
    ("notification_threshold", {"client_id": 1, "threshold": True}, "threshold"),  # was: "True is out of range"
    ("waap_custom_rule", rule(conditions=[{"session_request_count": {"request_count": True}}]), "request_count"),
    # issue 11: WAAP patterns and ranges
    ("waap_custom_rule", rule(conditions=[{"country": {"country_code": ["de"]}}]), "country_code"),
    ("waap_custom_rule", rule(conditions=[{"file_extension": {"file_extension": ["PDF"]}}]), "file_extension"),
    ("waap_custom_rule", rule(conditions=[{"ip_range": {"lower_bound": "192.0.2.9", "upper_bound": "192.0.2.1"}}]), "ip_range"),
    ("waap_custom_rule", rule(conditions=[{"ip_range": {"lower_bound": "192.0.2.1", "upper_bound": "2001:db8::1"}}]), "ip_range"),
    ("waap_custom_rule", rule(name="   "), "name"),
    ("waap_custom_rule", rule(name="ok\x1crule"), "name"),
    # issue 13: the set modules name the item
    ("waap_custom_rules", {"domain_id": 1001, "config": [item(), item(name="ok\x1crule")]}, "config[1].name"),
    ("waap_custom_rules", {"domain_id": 1001, "config": [item(conditions=[{"session_request_count": {"request_count": True}}])]},
     "config[0].conditions[0].session_request_count.request_count"),
    ("waap_custom_rules", {"domain_id": 1001, "config": [item(conditions=[{"request_rate": {"path_pattern": "/", "requests": "nan", "time": 1}}])]},
     "requests"),
    ("waap_custom_rules", {"domain_id": 1001, "config": [item(), item()]}, "config: each custom rule must have its own name"),
    ("waap_firewall_rules", {"domain_id": 1001, "config": [item(conditions=[{"ip": {"ip_address": "192.0.2.1"}}] * 2)]},
     "config[0].conditions"),
    ("waap_firewall_rules", {"domain_id": 1001, "config": [item(conditions=[{"ip": {"ip_address": "192.0.2.256"}}])]},
     "config[0].conditions[0].ip.ip_address"),
    ("waap_firewall_rules", {"domain_id": "nan", "state": "gathered"}, "domain_id"),
    # issue 24: the storage lifecycle modules too
    # issue 38: the SDK 0.59 conditions
    ("waap_custom_rule", rule(conditions=[{"asn": {"asns": [0]}}]), "conditions[0].asn.asns[0]"),
    ("waap_custom_rule", rule(conditions=[{"asn": {"asns": [4294967296]}}]), "asns[0]"),
    ("waap_custom_rule", rule(conditions=[{"ja3": {"ja3_fingerprints": ["e7d705a3286e19ea42f587b344ee686"]}}]), "ja3_fingerprints[0]"),
    ("waap_custom_rule", rule(conditions=[{"ja4": {"ja4_fingerprints": ["t13d1516h2_8daaf6152771"]}}]), "ja4_fingerprints[0]"),
    ("waap_custom_rules", {"domain_id": 1001, "config": [item(conditions=[{"ja4": {"ja4_fingerprints": []}}])]},
     "config[0].conditions[0].ja4.ja4_fingerprints"),
    # issue 38: a domain's status, settings and policies
    ("waap_domain", {"domain_id": 1003, "api_urls": ["api/v1/.*", "/"]}, "api_urls[1]"),
    ("waap_domain", {"domain_id": 1003, "api_urls": ["api/v1/.*", "api/(v1"]}, "api_urls[1]: 'api/(v1' is not a valid regular expression"),
    ("waap_domain", {"domain_id": 1003, "ddos_burst_threshold": 0}, "ddos_burst_threshold"),
    ("waap_domain", {"domain_id": 1003, "ddos_global_threshold": 0}, "ddos_global_threshold"),
    ("waap_domain", {"domain_id": 1003, "status": "bypass"}, "status"),
    ("waap_domain", {"domain_id": 1003, "is_api": "sometimes"}, "is_api"),
    ("waap_domain_info", {"domain_id": 0}, "domain_id"),
    ("waap_policies", {"domain_id": 1003, "policies": [{"name": "Scrapers", "enabled": True}]}, "policies[0].rule_set"),
    ("waap_policies", {"domain_id": 1003, "policies": [{"id": "S55075104"}]}, "enabled"),
    ("waap_advanced_rules", {"domain_id": 1001, "config": [{"name": "r", "source": "request.headers[\"a\"] == 'b'"}]},
     "config[0].source: position 16: a double-quoted string"),
    ("waap_advanced_rules", {"domain_id": 1001, "config": [{"name": "r", "source": "(request.method == 'GET'"}]}, "config[0].source"),
    ("waap_advanced_rules", {"domain_id": 1001, "config": [{"name": "r", "phase": "late"}]}, "phase"),
    # issue 45: the CEL check is a parse (what needs no descriptor fails before any request)
    ("waap_advanced_rules", {"domain_id": 1001, "config": [{"name": "r", "source": "request.path == == '/x'"}]},
     "config[0].source: position 16: expected an operand"),
    ("waap_advanced_rules", {"domain_id": 1001, "config": [{"name": "r", "source": "request.path == '/x' &&"}]},
     "config[0].source: position 23: expected an operand"),
    ("waap_advanced_rules", {"domain_id": 1001, "config": [{"name": "r", "source": "foo"}]},
     "config[0].source: position 0: 'foo' alone is not an expression"),
    ("waap_advanced_rules", {"domain_id": 1001, "config": [{"name": "r", "source": "tags('bot')"}]},
     "config[0].source: position 0: 'tags' is not a function"),
    ("waap_policy_overrides", {"domain_id": 1001, "config": [{"name": "o", "target_type": "detector", "targets": [861], "conditions": [
        {"ip": {"ip_address": "192.0.2.%d" % number}} for number in range(6)]}]},
     "config[0].conditions: 1 to 5 conditions are required (6 given)"),
    ("waap_policy_overrides", {"domain_id": 1001, "config": [{"name": "o", "target_type": "policy", "targets": [861]}]}, "target_type"),
    ("waap_policy_overrides", {"domain_id": 1001, "config": [{"name": "o", "targets": [0]}]}, "config[0].targets[0]"),
    ("waap_policy_overrides", {"config": [{"name": "o"}]}, "one of the following is required: domain_id, domain"),
    ("waap_policy_overrides", {"domain_id": 1001, "domain": "shop.example.com", "config": []}, "mutually exclusive: domain_id|domain"),
    ("waap_policy_overrides", {"domain": " ", "config": []}, "domain: must be the exact name of a WAAP domain"),
    ("waap_advanced_rules", {"state": "gathered"}, "one of the following is required: domain_id, domain"),
    ("waap_advanced_rules", {"domain": "shop.example.com\n", "state": "gathered"}, "domain: must be the exact name of a WAAP domain"),
    ("waap_advanced_rules", {"domain_id": 0, "state": "gathered"}, "domain_id: 0 is out of range"),
    ("waap_policies", {"domain": "", "policies": [{"id": "S55075104", "enabled": True}]}, "domain: must be the exact name"),
    ("storage", {"type": "sftp", "name": "drop"}, "state"),  # issue 25: a forgotten state never deletes by name
    ("storage_bucket", {"storage_id": 101, "name": "Logs"}, "name"),
    ("storage_bucket", {"storage_id": True, "name": "logs"}, "storage_id"),
    ("storage_bucket", {"storage_id": 101, "name": "logs", "lifecycle": {"expiration_days": "nan"}}, "expiration_days"),
    ("storage_info", {"type": "sftp", "storage_id": 0}, "storage_id"),
    ("storage_info", {"type": "ftp"}, "type"),
    ("storage_ssh_key", {"name": "deploy", "public_key": "ssh-ed25519"}, "public_key"),
    ("storage_ssh_key", {"name": "a\tb"}, "name"),
    # issue 26: networks and subnets
    ("network", {"name": "ab"}, "name"),
    ("network", {"name": "net\x07bell"}, "name"),
    ("network", {"network_id": "net-1"}, "network_id"),
    ("network", {"name": "app-net", "type": "flat"}, "type"),
    ("network", {"name": "app-net", "tags": {"a=b": "c"}}, "tags"),
    ("network", {"name": "app-net", "tags": {"k": "line\nbreak"}}, "tags.k"),
    ("network", {"name": "app-net", "wait_timeout": "nan"}, "wait_timeout"),
    ("network_info", {"network_id": NET, "name": "app-net"}, "network_id|name"),
    ("subnet", {"name": "app-subnet", "cidr": "10.0.0.0/24"}, "network_id"),
    ("subnet", {"name": "app-subnet", "network_id": NET, "cidr": "10.0.0.1/24"}, "cidr"),
    ("subnet", {"name": "app-subnet", "network_id": NET, "cidr": "10.0.0.0/24", "gateway_ip": "10.0.1.1"}, "gateway_ip"),
    ("subnet", {"name": "app-subnet", "network_id": NET, "cidr": "10.0.0.0/24", "dns_nameservers": ["8.8.8.8\t"]}, "dns_nameservers[0]"),
    ("subnet", {"name": "app-subnet", "network_id": NET, "cidr": "10.0.0.0/24",
                "host_routes": [{"destination": "10.1.0.0/16", "nexthop": "fd00::1"}]}, "host_routes[0].nexthop"),
    ("subnet", {"name": "app-subnet", "network_id": NET, "cidr": "10.0.0.0/24", "enable_dhcp": "perhaps"}, "enable_dhcp"),
    ("subnet_info", {"name": "app-subnet"}, "network_id"),
    ("subnet_info", {"subnet_id": "s-1"}, "subnet_id"),
]


# ---- the former router_invalid target: (what, module arguments, text the message must contain) ----
ROUTER_CASES = [
    ("name too short", {"name": "ab"}, "name: length 2"),
    ("name too long", {"name": "r" * 64}, "name: length 64"),
    ("name starting with a dash", {"name": "-router"}, "name:"),
    ("name ending with a dash", {"name": "router-"}, "name:"),
    ("name with a backslash", {"name": "edge\\router"}, "name:"),
    ("name with a slash", {"name": "edge/router"}, "name:"),
    ("neither id nor name", {}, "one of the following is required: id, name"),
    ("id not a UUID", {"id": "router-1", "name": "valid-router"}, "id: 'router-1' is not a UUID"),
    ("destination not a CIDR", {"routes": [{"destination": "not-a-cidr", "nexthop": "10.0.0.1"}]},
     "routes[0].destination: 'not-a-cidr' is not a valid CIDR"),
    ("prefix length out of range", {"routes": [{"destination": "10.0.0.0/33", "nexthop": "10.0.0.1"}]},
     "routes[0].destination: '10.0.0.0/33' is not a valid CIDR"),
    ("destination with host bits", {"routes": [{"destination": "10.0.2.0/24", "nexthop": "10.0.0.1"},
                                               {"destination": "10.0.3.1/24", "nexthop": "10.0.0.1"}]},
     "routes[1].destination: '10.0.3.1/24' has host bits set"),
    ("IPv6 destination with host bits", {"routes": [{"destination": "2001:db8::1/64", "nexthop": "2001:db8::2"}]},
     "routes[0].destination: '2001:db8::1/64' has host bits set"),
    ("nexthop not an IP", {"routes": [{"destination": "10.0.3.0/24", "nexthop": "10.0.0.300"}]},
     "routes[0].nexthop: '10.0.0.300' is not a valid IP address"),
    ("nexthop of another IP version", {"routes": [{"destination": "10.0.3.0/24", "nexthop": "2001:db8::1"}]}, "routes[0].nexthop:"),
    ("route without a nexthop", {"routes": [{"destination": "10.0.3.0/24"}]}, "nexthop"),
    ("network_id not a UUID", {"external_gateway_info": {"network_id": "public"}},
     "external_gateway_info.network_id: 'public' is not a UUID"),
    ("manual gateway without network_id", {"external_gateway_info": {"enable_snat": False}},
     "external_gateway_info.network_id: required when external_gateway_info.type is manual"),
    ("default gateway with a network_id", {"external_gateway_info": {"type": "default", "network_id": PUBLIC_NET}},
     "external_gateway_info.network_id: not accepted"),
    ("unknown gateway type", {"external_gateway_info": {"type": "auto"}}, "type"),
    ("gateway type none with a network_id", {"external_gateway_info": {"type": "none", "network_id": PUBLIC_NET}},
     "external_gateway_info.network_id: not accepted with external_gateway_info.type none"),
    ("gateway type none with enable_snat", {"external_gateway_info": {"type": "none", "enable_snat": False}},
     "external_gateway_info.enable_snat: not accepted with external_gateway_info.type none"),
    ("a subnet listed twice", {"interfaces": [{"subnet_id": ROUTER_SUBNET}, {"subnet_id": ROUTER_SUBNET.upper(), "ip_address": "192.168.10.5"}]},
     "interfaces[0] and interfaces[1]: each item must have its own subnet_id; %s is given twice" % ROUTER_SUBNET),
    ("subnet_id not a UUID", {"interfaces": [{"subnet_id": ROUTER_SUBNET}, {"subnet_id": "private-subnet"}]},
     "interfaces[1].subnet_id: 'private-subnet' is not a UUID"),
    ("ip_address not an IP", {"interfaces": [{"subnet_id": ROUTER_SUBNET, "ip_address": "192.168.10.256"}]},
     "interfaces[0].ip_address: '192.168.10.256' is not a valid IPv4 or IPv6 address"),
    ("ip_address a network", {"interfaces": [{"subnet_id": ROUTER_SUBNET, "ip_address": "192.168.10.0/24"}]},
     "interfaces[0].ip_address: '192.168.10.0/24' is not a valid"),
    ("interface without subnet_id", {"interfaces": [{"ip_address": "192.168.10.5"}]}, "subnet_id"),
    ("wait_timeout of zero", {"wait_timeout": 0}, "wait_timeout:"),
    ("unknown state", {"state": "gone"}, "state"),
]


def router_args(args):
    """The target's defaults: a valid name unless the case names the router itself or asks for none."""
    if args and "name" not in args and "id" not in args:
        return dict(args, name="valid-router")
    return args


# ---- the former quota_check_invalid target ----
QUOTA_CASES = [
    ("ip_family on a subnet interface",
     {"interfaces": [{"type": "subnet", "network_id": NET, "subnet_id": SUBNET, "ip_family": "ipv4"}]},
     "interfaces[0].ip_family: not allowed for type subnet (only for type any_subnet or external)"),
    ("ip_family on a reserved_fixed_ip interface (second item)",
     {"interfaces": [{"type": "external"}, {"type": "reserved_fixed_ip", "port_id": PORT, "ip_family": "dual"}]},
     "interfaces[1].ip_family: not allowed for type reserved_fixed_ip"),
    ("floating_ip on an external interface", {"interfaces": [{"type": "external", "floating_ip": {"source": "new"}}]},
     "interfaces[0].floating_ip: not allowed for type external"),
    ("floating_ip on an interface with the default type (external)",
     {"interfaces": [{"interface_name": "eth0", "floating_ip": {"source": "new"}}]}, "interfaces[0].floating_ip: not allowed for type external"),
    ("network_id on an external interface", {"interfaces": [{"type": "external", "network_id": NET}]},
     "interfaces[0].network_id: not allowed for type external"),
    ("subnet_id on an any_subnet interface", {"interfaces": [{"type": "any_subnet", "network_id": NET, "subnet_id": SUBNET}]},
     "interfaces[0].subnet_id: not allowed for type any_subnet (only for type subnet)"),
    ("ip_address on a subnet interface", {"interfaces": [{"type": "subnet", "network_id": NET, "subnet_id": SUBNET, "ip_address": "10.0.0.5"}]},
     "interfaces[0].ip_address: not allowed for type subnet (only for type any_subnet)"),
    ("port_id on a subnet interface", {"interfaces": [{"type": "subnet", "network_id": NET, "subnet_id": SUBNET, "port_id": PORT}]},
     "interfaces[0].port_id: not allowed for type subnet (only for type reserved_fixed_ip)"),
    ("subnet without subnet_id", {"interfaces": [{"type": "subnet", "network_id": NET}]}, "interfaces[0].subnet_id: required for type subnet"),
    ("subnet without network_id", {"interfaces": [{"type": "subnet", "subnet_id": SUBNET}]}, "interfaces[0].network_id: required for type subnet"),
    ("any_subnet without network_id", {"interfaces": [{"type": "external"}, {"type": "any_subnet"}]},
     "interfaces[1].network_id: required for type any_subnet"),
    ("reserved_fixed_ip without port_id", {"interfaces": [{"type": "reserved_fixed_ip"}]},
     "interfaces[0].port_id: required for type reserved_fixed_ip"),
    ("network_id not a UUID", {"interfaces": [{"type": "any_subnet", "network_id": "net-1"}]}, "interfaces[0].network_id: 'net-1' is not a UUID"),
    ("interface_name longer than 37 characters", {"interfaces": [{"type": "external", "interface_name": "x" * 38}]},
     "interfaces[0].interface_name: length 38 is out of range"),
    ("ip_address that is not an address", {"interfaces": [{"type": "any_subnet", "network_id": NET, "ip_address": "10.0.0.300"}]},
     "interfaces[0].ip_address: '10.0.0.300' is not an IPv4 or IPv6 address"),
    ("an existing floating IP without its id",
     {"interfaces": [{"type": "subnet", "network_id": NET, "subnet_id": SUBNET, "floating_ip": {"source": "existing"}}]},
     "interfaces[0].floating_ip.existing_floating_id: required when source is existing"),
    ("a new floating IP with an existing id",
     {"interfaces": [{"type": "any_subnet", "network_id": NET, "floating_ip": {"source": "new", "existing_floating_id": FIP}}]},
     "interfaces[0].floating_ip.existing_floating_id: only allowed when source is existing"),
    ("existing_floating_id not a UUID",
     {"interfaces": [{"type": "reserved_fixed_ip", "port_id": "p-1", "floating_ip": {"source": "existing", "existing_floating_id": "fip-1"}}]},
     "interfaces[0].floating_ip.existing_floating_id: 'fip-1' is not a UUID"),
    ("a security group id that is not a UUID", {"interfaces": [{"type": "external", "security_groups": [{"id": "default"}]}]},
     "interfaces[0].security_groups[0].id: 'default' is not a UUID"),
    ("an unknown interface type", {"interfaces": [{"type": "vlan"}]}, "type must be one of: external, subnet, any_subnet, reserved_fixed_ip"),
    ("an unknown ip_family", {"interfaces": [{"type": "external", "ip_family": "ipv5"}]}, "ip_family must be one of: ipv4, ipv6, dual"),
    ("a field interfaces do not have", {"interfaces": [{"type": "external", "mtu": 1500}]}, "interfaces.mtu"),
    ("neither names nor name_templates", {"flavor": "bm1-basic-medium"}, "names or name_templates: one of them is required for resource baremetal"),
    ("an empty list of names", {"names": []}, "names or name_templates: one of them is required for resource baremetal"),
    ("a load balancer option on a bare metal check", {"vip_network_id": NET},
     "vip_network_id: only for resource loadbalancer, not for resource baremetal"),
    ("a bare metal option on a load balancer check", {"resource": "loadbalancer", "flavor": "bm1-basic-medium"},
     "flavor: only for resource baremetal or instance, not for resource loadbalancer"),
    ("interfaces on a load balancer check", {"resource": "loadbalancer", "interfaces": [{"type": "external"}]}, "interfaces: only for resource baremetal"),
    ("vip_network_id with vip_port_id", {"resource": "loadbalancer", "vip_network_id": NET, "vip_port_id": PORT}, "vip_network_id|vip_port_id"),
    ("vip_port_id not a UUID", {"resource": "loadbalancer", "vip_port_id": "port-1"}, "vip_port_id: 'port-1' is not a UUID"),
    ("a load balancer's existing floating IP without its id", {"resource": "loadbalancer", "floating_ip": {"source": "existing"}},
     "floating_ip.existing_floating_id: required when source is existing"),
    ("an unknown floating IP source", {"resource": "loadbalancer", "floating_ip": {"source": "reuse"}}, "source must be one of: new, existing"),
    ("a topic name against the pattern", {"resource": "loadbalancer", "logging": {"enabled": True, "topic_name": "Bad_Topic"}},
     "logging.topic_name: 'Bad_Topic' does not match"),
    ("a topic name of 224 characters", {"resource": "loadbalancer", "logging": {"topic_name": "a" * 224}},
     "logging.topic_name: length 224 is out of range (must be 1 to 223)"),
    ("a retention period of 0 days", {"resource": "loadbalancer", "logging": {"retention_policy": {"period": 0}}},
     "logging.retention_policy.period: 0 is out of range (must be 1 to 1825)"),
    ("a retention period of 1826 days", {"resource": "loadbalancer", "logging": {"retention_policy": {"period": 1826}}},
     "logging.retention_policy.period: 1826 is out of range (must be 1 to 1825)"),
    ("an unknown vip_ip_family", {"resource": "loadbalancer", "vip_ip_family": "ipv5"}, "vip_ip_family must be one of: ipv4, ipv6, dual"),
]


def quota_args(args):
    """The target's defaults: resource baremetal, and names ['bm-1'] for a bare-metal case that gives neither a flavor
    nor names/name_templates."""
    args = dict(args)
    args.setdefault("resource", "baremetal")
    if args["resource"] == "baremetal" and "flavor" not in args and "names" not in args and "name_templates" not in args:
        args["names"] = ["bm-1"]
    return args


# ---- the former price_preview_invalid target (None: the option is left out) ----
PRICE_CASES = [
    ("neither names nor name_templates", {"names": None}, "names or name_templates: one of them is required"),
    ("no interfaces", {"interfaces": None}, "resource is instance but all of the following are missing: interfaces"),
    ("an empty list of interfaces", {"interfaces": []}, "interfaces: at least one interface is required"),
    ("no flavor", {"flavor": None}, "resource is instance but all of the following are missing: flavor"),
    ("ip_family on a subnet interface",
     {"interfaces": [{"type": "subnet", "network_id": NET, "subnet_id": SUBNET, "ip_family": "ipv6"}]},
     "interfaces[0].ip_family: not allowed for type subnet"),
    ("a reserved_fixed_ip interface without port_id",
     {"interfaces": [{"type": "external"}, {"type": "reserved_fixed_ip", "floating_ip": {"source": "new"}}]},
     "interfaces[1].port_id: required for type reserved_fixed_ip"),
    ("a snapshot volume without snapshot_id", {"volumes": [{"source": "snapshot", "size": 10}]}, "volumes[0].snapshot_id: required when source is snapshot"),
    ("a snapshot_id that is not a UUID", {"volumes": [{"source": "new-volume", "size": 10}, {"source": "snapshot", "snapshot_id": "snap-1"}]},
     "volumes[1].snapshot_id: 'snap-1' is not a UUID"),
    ("an image_id that is not a UUID", {"volumes": [{"source": "image", "image_id": "ubuntu"}]}, "volumes[0].image_id: 'ubuntu' is not a UUID"),
    ("a volume of 0 GiB", {"volumes": [{"source": "new-volume", "size": 0}]}, "volumes[0].size: 0 is out of range (must be at least 1)"),
    ("an unknown volume source", {"volumes": [{"source": "backup"}]},
     "source must be one of: new-volume, image, snapshot, apptemplate, existing-volume"),
    ("an unknown volume type", {"volumes": [{"source": "new-volume", "size": 10, "type_name": "nvme"}]},
     "type_name must be one of: standard, ssd_hiiops, ssd_lowlatency, ssd_local, cold, ultra"),
    ("a volume without source", {"volumes": [{"size": 10}]}, "missing required arguments: source"),
    ("a negative budget", {"max_price_per_month": -1}, "max_price_per_month: -1.0 is out of range (must be at least 0)"),
]


def price_args(args):
    """The target's defaults: an option absent from the case gets a valid value; an option given as None is left out."""
    full = dict({"flavor": "g1-standard-1-2", "names": ["vm-1"], "interfaces": EXTERNAL}, **args)
    return {key: value for key, value in full.items() if value is not None}


# ---- the former waap_custom_rule_invalid target: (what, module, arguments, text or re:pattern) ----
VALID_ACTION = {"block": {"status_code": 403}}
VALID_CONDITIONS = [{"ip": {"ip_address": "192.0.2.1"}}]
LONG = "x" * 101
CUSTOM_RULE_CASES = [(option, args, option) for option, args in [
    ("domain_id", {"domain_id": 0}),
    ("id", {"id": 0}),
    ("name", {"name": ""}),
    ("name", {"name": LONG}),
    ("name", {"name": "Block/bots"}),
    ("name", {"name": "Block bots*"}),
    ("description", {"description": LONG}),
    ("conditions", {"conditions": []}),
    ("conditions", {"conditions": VALID_CONDITIONS * 6}),
    ("conditions[0]", {"conditions": [{"ip": {"ip_address": "192.0.2.1"}, "url": {"url": "/a"}}]}),
    ("conditions[0]", {"conditions": [{}]}),
    ("action", {"action": {"allow": {}, "block": {}}}),
    ("action", {"action": {}}),
    ("status_code", {"action": {"block": {"status_code": 404}}}),
    ("action.block.action_duration", {"action": {"block": {"action_duration": "0s"}}}),
    ("action.block.action_duration", {"action": {"block": {"action_duration": "10w"}}}),
    ("action.block.action_duration", {"action": {"block": {"action_duration": "12345678901"}}}),
    ("action.tag.tags", {"action": {"tag": {"tags": []}}}),
    ("action.tag.tags", {"action": {"tag": {"tags": ["a", "b", "c", "d", "e", "f"]}}}),
    ("request_rate.negation", {"conditions": [{"request_rate": {"path_pattern": "^/login", "requests": 50, "time": 60, "negation": True}}]}),
    ("conditions[0].request_rate.requests", {"conditions": [{"request_rate": {"path_pattern": "^/login", "requests": 10, "time": 60}}]}),
    ("conditions[0].request_rate.time", {"conditions": [{"request_rate": {"path_pattern": "^/login", "requests": 50, "time": 3601}}]}),
    ("conditions[0].request_rate.ips[0]", {"conditions": [{"request_rate": {"path_pattern": "^/", "requests": 50, "time": 60, "ips": ["nope"]}}]}),
    ("conditions[0].ip.ip_address", {"conditions": [{"ip": {"ip_address": "300.1.1.1"}}]}),
    ("conditions[0].ip_range.upper_bound", {"conditions": [{"ip_range": {"lower_bound": "192.0.2.1", "upper_bound": "two"}}]}),
    ("conditions[1].header.header", {"conditions": [{"ip": {"ip_address": "192.0.2.1"}}, {"header": {"header": "X Bad", "value": "v"}}]}),
    ("value", {"conditions": [{"header": {"header": "X-Good"}}]}),
    ("conditions[0].url.url", {"conditions": [{"url": {"url": "/a b"}}]}),
    ("conditions[0].url.url", {"conditions": [{"url": {"url": "^/(?=admin)", "match_type": "Regex"}}]}),
    ("http_method", {"conditions": [{"http_method": {"http_method": "FETCH"}}]}),
    ("owner_types", {"conditions": [{"owner_types": {"owner_types": ["COMPANY"]}}]}),
    ("conditions[0].country.country_code[0]", {"conditions": [{"country": {"country_code": ["USA"]}}]}),
    ("conditions[0].file_extension.file_extension", {"conditions": [{"file_extension": {"file_extension": ["js"] * 21}}]}),
    ("conditions[0].content_type.content_type", {"conditions": [{"content_type": {"content_type": ["text/html"] * 11}}]}),
    ("conditions[0].session_request_count.request_count", {"conditions": [{"session_request_count": {"request_count": 0}}]}),
    ("conditions[0].user_defined_tags.tags[0]", {"conditions": [{"user_defined_tags": {"tags": ["1abc"]}}]}),
    ("conditions[0].organization.organization", {"conditions": [{"organization": {"organization": LONG}}]}),
    ("ja3", {"conditions": [{"ja3": {"ja3_fingerprints": ["abc"]}}]}),
]]


# ---- instance, instance_info and quota_check resource instance (None: the option is left out) ----
IMAGE = {"source": "image", "image_name": "ubuntu-22.04"}
INSTANCE_CASES = [
    ("neither id nor name", {"name": None}, "one of the following is required: instance_id, name"),
    ("a name of two characters", {"name": "ab"}, "name: length 2 is out of range (must be 3 to 63)"),
    ("a name against the pattern", {"name": "-web"}, "name: '-web' does not match"),
    ("a name with a newline", {"name": "web\n1"}, "name: "),
    ("an id that is not a UUID", {"instance_id": "vm-1"}, "instance_id: 'vm-1' is not a UUID"),
    ("an unknown state", {"state": "running"}, "state must be one of: present, started, stopped, restarted, absent"),
    ("an empty flavor", {"flavor": ""}, "flavor: length 0 is out of range"),
    ("no volumes", {"volumes": []}, "volumes: at least one volume is required"),
    ("an image volume without image", {"volumes": [{"source": "image"}]}, "volumes[0]: source image needs exactly one of image_id and image_name"),
    ("an image volume with id and name", {"volumes": [dict(IMAGE, image_id=UUID)]}, "volumes[0]: source image needs exactly one"),
    ("an image id that is not a UUID", {"volumes": [{"source": "image", "image_id": "ubuntu"}]}, "volumes[0].image_id: 'ubuntu' is not a UUID"),
    ("a blank volume without size", {"volumes": [IMAGE, {"source": "new-volume"}]}, "volumes[1].size: required for source new-volume"),
    ("a blank volume with boot_index", {"volumes": [{"source": "new-volume", "size": 1, "boot_index": 0}]},
     "volumes[0].boot_index: not allowed for source new-volume (only for source image or snapshot or apptemplate or existing-volume)"),
    ("an existing volume with a size", {"volumes": [{"source": "existing-volume", "volume_id": UUID, "size": 5}]},
     "volumes[0].size: not allowed for source existing-volume"),
    ("a snapshot volume without size", {"volumes": [{"source": "snapshot", "snapshot_id": UUID}]}, "volumes[0].size: required for source snapshot"),
    ("a snapshot volume with id and name", {"volumes": [{"source": "snapshot", "snapshot_id": UUID, "snapshot_name": "snap-1", "size": 5}]},
     "volumes[0]: source snapshot needs exactly one of snapshot_id and snapshot_name"),
    ("a snapshot name against the name rule", {"volumes": [{"source": "snapshot", "snapshot_name": "s", "size": 5}]},
     "volumes[0].snapshot_name: length 1 is out of range"),
    ("a snapshot name on an image volume", {"volumes": [dict(IMAGE, snapshot_name="snap-1")]},
     "volumes[0].snapshot_name: not allowed for source image (only for source snapshot)"),
    ("a snapshot volume of type cold", {"volumes": [{"source": "snapshot", "snapshot_id": UUID, "size": 5, "type_name": "cold"}]},
     "volumes[0].type_name: a snapshot volume is standard or ssd_hiiops"),
    ("an image_name on a blank volume", {"volumes": [{"source": "new-volume", "size": 1, "image_name": "x"}]},
     "volumes[0].image_name: not allowed for source new-volume (only for source image)"),
    ("a size of 0", {"volumes": [dict(IMAGE, size=0)]}, "volumes[0].size: 0 is out of range"),
    ("a size of nan", {"volumes": [dict(IMAGE, size=float("nan"))]}, "size"),
    ("an attachment tag with a slash", {"volumes": [dict(IMAGE, attachment_tag="a/b")]}, "volumes[0].attachment_tag"),
    ("a volume name against the pattern", {"volumes": [dict(IMAGE, name="x")]}, "volumes[0].name: length 1 is out of range"),
    ("a volume tag key with a space", {"volumes": [dict(IMAGE, tags={"a b": "c"})]}, "volumes[0].tags: key 'a b' breaks the rule"),
    ("an unknown volume source", {"volumes": [{"source": "disk"}]}, "source must be one of"),
    ("no interfaces", {"interfaces": []}, "interfaces: at least one interface is required"),
    ("a subnet interface without subnet_id", {"interfaces": [{"type": "subnet", "network_id": NET}]},
     "interfaces[0].subnet_id: required for type subnet"),
    ("a security group name against the pattern", {"security_groups": ["ok-sg", "-bad"]}, "security_groups[1]: '-bad' does not match"),
    ("a security group twice", {"security_groups": ["ok-sg", "ok-sg"]}, "security_groups[0] and security_groups[1]"),
    ("a tag key with '='", {"tags": {"a=b": "c"}}, "tags: key 'a=b' breaks the rule"),
    ("a tag value with a newline", {"tags": {"env": "a\nb"}}, "tags.env"),
    ("a placement group against the name rule", {"placement_group": "-group"}, "placement_group: '-group' does not match"),
    ("a placement group (alias servergroup_id) of one character", {"servergroup_id": "g"}, "placement_group: length 1 is out of range"),
    ("a wait_timeout of 0", {"wait_timeout": 0}, "wait_timeout: 0 is out of range"),
    ("an empty ssh_key_name", {"ssh_key_name": ""}, "ssh_key_name: length 0 is out of range"),
]


def instance_args(args):
    """A valid instance to create, with the case's changes (None: the option is left out)."""
    full = dict({"name": "web-1", "flavor": "g1-standard-2-4", "volumes": [IMAGE], "interfaces": EXTERNAL}, **args)
    return {key: value for key, value in full.items() if value is not None}


FLEET = {"count": 2, "name_format": "web-{index}", "flavor": "g1-standard-2-4", "volumes": [IMAGE], "interfaces": EXTERNAL}
INSTANCE_MORE = [
    ("instance_info: id and name", "instance_info", {"instance_id": UUID, "name": "web-1"}, "mutually exclusive: instance_id|name"),
    ("instance_info: an id that is not a UUID", "instance_info", {"instance_id": "vm"}, "instance_id: 'vm' is not a UUID"),
    ("instance_info: an unknown status", "instance_info", {"status": "RUNNING"}, "status must be one of"),
    ("instance_info: a tag key with a space", "instance_info", {"tags": {"a b": "c"}}, "tags: key 'a b' breaks the rule"),
    ("instance_info: a name of two characters", "instance_info", {"name": "ab"}, "name: length 2"),
    ("quota_check: volumes on a bare metal check", "quota_check", dict(BM, volumes=[{"source": "image", "size": 5}]),
     "volumes: only for resource instance, not for resource baremetal"),
    ("quota_check: an instance check without names", "quota_check", dict(PRICE, resource="instance", names=[]),
     "names or name_templates: one of them is required for resource instance"),
    ("quota_check: security groups on an instance check", "quota_check",
     dict(PRICE, resource="instance", interfaces=[{"type": "external", "security_groups": [{"id": UUID}]}]),
     "interfaces[0].security_groups: not allowed for resource instance"),
    ("quota_check: a snapshot volume without its id", "quota_check", dict(PRICE, resource="instance", volumes=[{"source": "snapshot"}]),
     "volumes[0].snapshot_id: required when source is snapshot"),
    ("quota_check: an instance volume of size 0", "quota_check", dict(PRICE, resource="instance", volumes=[{"source": "image", "size": 0}]),
     "volumes[0].size: 0 is out of range"),
    ("instances: a name_format without {index}", "instances", dict(FLEET, name_format="web"), "name_format: must hold {index}"),
    ("instances: a count above 1000", "instances", dict(FLEET, count=1001), "count: 1001 is out of range"),
    ("instances: a negative count", "instances", dict(FLEET, count=-1), "count: -1 is out of range"),
    ("instances: purge with names", "instances", {"names": ["web-1", "web-2"], "purge": True}, "purge: only with count and name_format"),
    ("instances: names and count", "instances", dict(FLEET, names=["web-1"]), "mutually exclusive: names|count"),
    ("instances: a name twice", "instances", {"names": ["web-1", "web-1"]}, "names[1]: 'web-1' is listed twice"),
    ("instances: a name_format giving a bad name", "instances", dict(FLEET, name_format="-web-{index}"), "name_format: '-web-1' does not match"),
    ("instances: a rolling batch below 1", "instances", dict(FLEET, rolling={"batch": 0}), "rolling.batch: 0 is out of range"),
    ("instances: a negative rolling pause", "instances", dict(FLEET, rolling={"batch": 2, "pause": -1}), "rolling.pause: -1 is out of range"),
    ("instances: rolling without waiting", "instances", dict(FLEET, rolling={"batch": 2}, wait=False), "rolling: needs wait=true"),
    ("load_balancer: a member with address and instance", "load_balancer", {"name": "web-lb", "listeners": [
        {"name": "http", "protocol": "HTTP", "protocol_port": 80, "pool": {"name": "web-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP",
                                                                            "members": [{"address": "10.0.0.1", "instance": "web-1", "protocol_port": 80}]}}]},
     "listeners[0].pool.members[0]: give exactly one of address and instance"),
]


def custom_rule_args(args):
    return dict({"domain_id": 1001, "name": "Valid rule", "action": VALID_ACTION, "conditions": VALID_CONDITIONS}, **args)


CUSTOM_RULE_MORE = [
    ("neither id nor name", "waap_custom_rule", {"domain_id": 1001, "state": "absent"}, "re:one of the following is required. id, name"),
    ("info: a domain id of 0", "waap_custom_rule_info", {"domain_id": 0}, "domain_id"),
    ("info: an unknown action", "waap_custom_rule_info", {"domain_id": 1001, "action": "deny"}, "action"),
]

ALL_CASES = (
    [("table: %s %s" % (module, number), module, args, text) for number, (module, args, text) in enumerate(CASES)]
    + [("router: " + what, "router", router_args(args), text) for what, args, text in ROUTER_CASES]
    + [("quota_check: " + what, "quota_check", quota_args(args), text) for what, args, text in QUOTA_CASES]
    + [("price_preview: " + what, "price_preview", price_args(args), text) for what, args, text in PRICE_CASES]
    + [("waap_custom_rule: %s %s" % (number, what), "waap_custom_rule", custom_rule_args(args), text)
       for number, (what, args, text) in enumerate(CUSTOM_RULE_CASES)]
    + [("waap_custom_rule: " + what, module, args, text) for what, module, args, text in CUSTOM_RULE_MORE]
    + [("instance: " + what, "instance", instance_args(args), text) for what, args, text in INSTANCE_CASES]
    + list(INSTANCE_MORE)
)

# ---- load_balancer and load_balancer_info: every nested option named by its path ----
LB_LISTENER = {"name": "http", "protocol": "HTTP", "protocol_port": 80, "pool": {
    "name": "web-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP", "members": [{"address": "10.0.0.11", "protocol_port": 8080}],
    "healthmonitor": {"type": "HTTP", "delay": 10, "max_retries": 3, "timeout": 5}}}


def lb_args(*listeners, **changes):
    """A valid load balancer with ``listeners`` (each given as changes to LB_LISTENER, ``pool`` changes merged in)."""
    items = []
    for number, change in enumerate(listeners):
        pool = dict(LB_LISTENER["pool"], **change.pop("pool", {}))
        items.append(dict(dict(LB_LISTENER, name="listener-%s" % number, protocol_port=80 + number, pool=pool), **change))
    return dict({"name": "web-lb", "listeners": items}, **changes)


LB_CASES = [
    ("name too short", lb_args(name="lb"), "name:"),
    ("id not a UUID", lb_args(load_balancer_id="lb-1"), "load_balancer_id"),
    ("unknown listener protocol", lb_args({"protocol": "SCTP"}), "listeners"),
    ("listener name", lb_args({}, {"name": "x"}), "listeners[1].name"),
    ("listener port 0", lb_args({}, {"protocol_port": 0}), "listeners[1].protocol_port"),
    ("listener port nan", lb_args({}, {"protocol_port": "nan"}), "protocol_port"),
    ("listener CIDR", lb_args({"allowed_cidrs": ["10.0.0.0/8", "nope"]}), "listeners[0].allowed_cidrs[1]"),
    ("connection limit", lb_args({"connection_limit": 1000001}), "listeners[0].connection_limit"),
    ("client timeout", lb_args({"timeout_client_data": -1}), "listeners[0].timeout_client_data"),
    ("X-Forwarded on TCP", lb_args({"protocol": "TCP", "insert_x_forwarded": True, "pool": {"healthmonitor": None}}),
     "listeners[0].insert_x_forwarded"),
    ("pool name", lb_args({}, {"pool": {"name": "p"}}), "listeners[1].pool.name"),
    ("member weight", lb_args({}, {"pool": {"members": [{"address": "10.0.0.1", "protocol_port": 80, "weight": 257}]}}),
     "listeners[1].pool.members[0].weight"),
    ("member address", lb_args({"pool": {"members": [{"address": "10.0.0", "protocol_port": 80}]}}), "listeners[0].pool.members[0].address"),
    ("member port", lb_args({"pool": {"members": [{"address": "10.0.0.1", "protocol_port": 65536}]}}),
     "listeners[0].pool.members[0].protocol_port"),
    ("member subnet", lb_args({"pool": {"members": [{"address": "10.0.0.1", "protocol_port": 80, "subnet_id": "s"}]}}),
     "listeners[0].pool.members[0].subnet_id"),
    ("member twice", lb_args({"pool": {"members": [{"address": "10.0.0.1", "protocol_port": 80}, {"address": "10.0.0.1", "protocol_port": 80}]}}),
     "listeners[0].pool.members[0] and listeners[0].pool.members[1]"),
    ("monitor timeout not below delay", lb_args({"pool": {"healthmonitor": {"type": "TCP", "delay": 5, "max_retries": 3, "timeout": 6}}}),
     "listeners[0].pool.healthmonitor.timeout"),
    ("monitor retries", lb_args({"pool": {"healthmonitor": {"type": "TCP", "delay": 5, "max_retries": 11, "timeout": 1}}}),
     "listeners[0].pool.healthmonitor.max_retries"),
    ("monitor path on TCP", lb_args({"pool": {"healthmonitor": {"type": "TCP", "delay": 5, "max_retries": 1, "timeout": 1, "url_path": "/"}}}),
     "listeners[0].pool.healthmonitor.url_path"),
    ("monitor path pattern", lb_args({"pool": {"healthmonitor": {"type": "HTTP", "delay": 5, "max_retries": 1, "timeout": 1, "url_path": "x"}}}),
     "listeners[0].pool.healthmonitor.url_path"),
    ("cookie without APP_COOKIE", lb_args({"pool": {"session_persistence": {"type": "SOURCE_IP", "cookie_name": "sid-cookie"}}}),
     "listeners[0].pool.session_persistence.cookie_name"),
    ("two listeners with one name", lb_args({}, {"name": "listener-0"}), "listeners[0] and listeners[1]"),
    ("two listeners on one port", lb_args({}, {"protocol_port": 80}), "listeners[0] and listeners[1]"),
    ("too many listeners", lb_args(*[{} for _number in range(52)]), "listeners: at most 51"),
    ("floating IP without its id", lb_args(floating_ip={"source": "existing"}), "floating_ip.existing_floating_id"),
    ("vip network and port", lb_args(vip_network_id=NET, vip_port_id=PORT), "mutually exclusive"),
    ("tag value with a newline", lb_args(tags={"env": "a\nb"}), "tags.env"),
    ("info: id and name", {"name": "web-lb", "load_balancer_id": UUID}, "mutually exclusive"),
    ("info: id not a UUID", {"load_balancer_id": "lb"}, "load_balancer_id"),
    # TLS listeners (docs/api_reference.md section 16.2)
    ("TERMINATED_HTTPS without a secret", lb_args({"protocol": "TERMINATED_HTTPS"}),
     "listeners[0].secret: required with protocol TERMINATED_HTTPS"),
    ("a secret on an HTTP listener", lb_args({"secret": "www-cert"}), "listeners[0].secret: only a TERMINATED_HTTPS or PROMETHEUS"),
    ("SNI secrets on a TCP listener", lb_args({}, {"protocol": "TCP", "sni_secrets": ["www-cert"], "pool": {"healthmonitor": None}}),
     "listeners[1].sni_secrets: only a TERMINATED_HTTPS or PROMETHEUS"),
    ("an empty secret", lb_args({"protocol": "TERMINATED_HTTPS", "secret": " "}), "listeners[0].secret: must not be empty"),
    ("an empty SNI secret", lb_args({"protocol": "TERMINATED_HTTPS", "secret": "a", "sni_secrets": ["b", ""]}),
     "listeners[0].sni_secrets[1]: must not be empty"),
    ("a user_list of four", lb_args({"user_list": [{"username": "user-%s" % n, "encrypted_password": "$5$x"} for n in range(4)]}),
     "listeners[0].user_list: at most 3 users"),
    ("a username outside the pattern", lb_args({"user_list": [{"username": "-admin", "encrypted_password": "$5$x"}]}),
     "listeners[0].user_list[0].username"),
    ("a hash too long", lb_args({"user_list": [{"username": "admin", "encrypted_password": "$" * 129}]}),
     "listeners[0].user_list[0].encrypted_password: length 129"),
    ("a user twice", lb_args({"user_list": [{"username": "admin", "encrypted_password": "$5$a"},
                                            {"username": "admin", "encrypted_password": "$5$b"}]}),
     "listeners[0].user_list: each user must have its own username"),
    ("a non-strict CIDR", lb_args({"allowed_cidrs": ["10.0.0.1/8"]}),
     "listeners[0].allowed_cidrs[0]: '10.0.0.1/8' is not a strict CIDR, an IPv4 or IPv6 network without host bits (host bits are "
     "set: the network is 10.0.0.0/8)"),
    ("101 CIDRs", lb_args({"allowed_cidrs": ["10.%s.0.0/16" % n for n in range(101)]}), "listeners[0].allowed_cidrs: at most 100"),
    ("member connect timeout", lb_args({"timeout_member_connect": 86400001}), "listeners[0].timeout_member_connect"),
    ("member data timeout", lb_args({"timeout_member_data": -1}), "listeners[0].timeout_member_data"),
    # L7 policies (docs/api_reference.md section 19.4)
    ("an L7 policy on a TCP listener", lb_args({"protocol": "TCP", "pool": {"healthmonitor": None}, "l7policies": [{"name": "deny", "action": "REJECT"}]}),
     "listeners[0].l7policies: listener 'listener-0' is TCP: only HTTP and TERMINATED_HTTPS listeners take L7 policies"),
    ("an unknown redirect_pool", lb_args({"l7policies": [{"name": "api", "action": "REDIRECT_TO_POOL", "redirect_pool": "api-pool"}]}),
     "listeners[0].l7policies[0].redirect_pool: no pool named 'api-pool' on this load balancer (its pools: web-pool)"),
    ("REDIRECT_TO_URL without redirect_url", lb_args({"l7policies": [{"name": "moved", "action": "REDIRECT_TO_URL"}]}),
     "listeners[0].l7policies[0].redirect_url: required with action REDIRECT_TO_URL"),
    ("two L7 policies with one name", lb_args({"l7policies": [{"name": "deny", "action": "REJECT"}, {"name": "deny", "action": "REJECT"}]}),
     "listeners[0].l7policies: each L7 policy must have its own name"),
    ("a bad compare_type", lb_args({"l7policies": [{"name": "deny", "action": "REJECT", "rules": [
        {"type": "PATH", "compare_type": "LIKE", "value": "/admin"}]}]}), "compare_type must be one of"),
    ("a cookie rule without its key", lb_args({"l7policies": [{"name": "deny", "action": "REJECT", "rules": [
        {"type": "COOKIE", "compare_type": "EQUAL_TO", "value": "1"}]}]}), "listeners[0].l7policies[0].rules[0].key: required with type COOKIE"),
]
ALL_CASES += [("load_balancer: " + what, "load_balancer_info" if what.startswith("info:") else "load_balancer", args, text)
              for what, args, text in LB_CASES]


# ---- issue 48: file_share and file_share_info, every option ----
SHARE = {"name": "uploads", "size": 10, "network": NET}
SHARE_RULE = {"ip_address": "10.0.0.0/24", "access_mode": "rw"}
FILE_SHARE_CASES = [("file_share: " + what, "file_share_info" if what.startswith("info:") else "file_share", args, text)
                    for what, args, text in [
    ("state unknown", dict(SHARE, state="gone"), "state"),
    ("id not a UUID", {"file_share_id": "fs-1"}, "file_share_id: 'fs-1' is not a UUID"),
    ("neither id nor name", {"size": 1}, "one of the following is required: file_share_id, name"),
    ("name too short", dict(SHARE, name="up"), "name: length 2"),
    ("name with a slash", dict(SHARE, name="up/loads"), "name:"),
    ("protocol unknown", dict(SHARE, protocol="CIFS"), "protocol"),
    ("size zero", dict(SHARE, size=0), "size: 0 is out of range (must be at least 1)"),
    ("size a word", dict(SHARE, size="big"), "size"),
    ("type unknown", dict(SHARE, type_name="ddn"), "type_name"),
    ("network name with a slash", dict(SHARE, network="net/1"), "network: 'net/1' does not match"),
    ("network with a vast share", dict(SHARE, type_name="vast"), "network: not with type_name: vast"),
    ("subnet without network", {"name": "uploads", "size": 1, "subnet": SUBNET}, "subnet: only with network"),
    ("subnet name with a newline", dict(SHARE, subnet="sub\n"), "subnet:"),
    ("access not a list of rules", dict(SHARE, access="10.0.0.0/24"), "access"),
    ("access without ip_address", dict(SHARE, access=[{"access_mode": "ro"}]), "ip_address"),
    ("access address with host bits", dict(SHARE, access=[dict(SHARE_RULE, ip_address="10.0.0.1/24")]),
     "access[0].ip_address: '10.0.0.1/24' is not an IP address or a network in CIDR notation without host bits"),
    ("access address a name", dict(SHARE, access=[dict(SHARE_RULE, ip_address="nfs-client")]), "access[0].ip_address"),
    ("access address twice", dict(SHARE, access=[SHARE_RULE, dict(SHARE_RULE, access_mode="ro")]), "access[0] and access[1] are both of ip_address"),
    ("access mode unknown", dict(SHARE, access=[dict(SHARE_RULE, access_mode="rx")]), "access_mode"),
    ("access with a vast share", {"name": "scratch", "size": 1, "type_name": "vast", "access": [SHARE_RULE]}, "access: not with type_name: vast"),
    ("settings with a standard share", dict(SHARE, type_name="standard", share_settings={"root_squash": False}),
     "share_settings: only with type_name: vast"),
    ("settings character rule unknown", {"name": "scratch", "size": 1, "type_name": "vast", "share_settings": {"allowed_characters": "ALL"}},
     "allowed_characters"),
    ("settings path rule unknown", {"name": "scratch", "size": 1, "type_name": "vast", "share_settings": {"path_length": "LONG"}}, "path_length"),
    ("settings root squash a word", {"name": "scratch", "size": 1, "type_name": "vast", "share_settings": {"root_squash": "maybe"}}, "root_squash"),
    ("settings trash with root squash", {"name": "scratch", "size": 1, "type_name": "vast",
                                         "share_settings": {"trash_access": True, "root_squash": True}}, "share_settings.trash_access: true needs"),
    ("settings unknown member", {"name": "scratch", "size": 1, "type_name": "vast", "share_settings": {"colour": "red"}}, "colour"),
    ("tag key with a space", dict(SHARE, tags={"a b": "c"}), "tags: key 'a b'"),
    ("purge_tags a word", dict(SHARE, purge_tags="maybe"), "purge_tags"),
    ("wait_timeout zero", dict(SHARE, wait_timeout=0), "wait_timeout: 0 is out of range"),
    ("info: id not a UUID", {"file_share_id": "fs-1"}, "file_share_id: 'fs-1' is not a UUID"),
    ("info: id and name", {"file_share_id": UUID, "name": "uploads"}, "mutually exclusive"),
    ("info: name with a tab", {"name": "up\tloads"}, "name"),
    ("info: type unknown", {"type_name": "ddn"}, "type_name"),
]]
ALL_CASES += FILE_SHARE_CASES


@contextlib.contextmanager
def no_network():
    """Every connection attempt is recorded and refused: a bad input must send nothing."""
    attempts = []

    def refuse(*args, **_kwargs):
        attempts.append(args[1] if len(args) > 1 else args[0])
        raise ConnectionRefusedError("bad-input test: no connection may be made")

    with mock.patch.object(socket.socket, "connect", refuse), mock.patch.object(socket, "create_connection", refuse):
        yield attempts


def run_module(module, args, monkeypatch):
    """One run of ``plugins/modules/<module>.py``'s main in this process, as ansible-playbook would run it: the
    key, URL, project and region from the GCORE_* environment (as AWX passes them), the case's arguments on top."""
    for name, value in (("GCORE_API_KEY", KEY), ("GCORE_API_URL", URL), ("GCORE_CLOUD_PROJECT_ID", str(PROJECT_ID)),
                        ("GCORE_CLOUD_REGION_ID", str(REGION_ID))):
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("GCORE_BASE_URL", raising=False)
    code = importlib.import_module("ansible_collections.gcore.platform.plugins.modules.%s" % module)
    output = io.StringIO()
    with patch_module_args(args), mock.patch("sys.stdout", output), pytest.raises(SystemExit):
        code.main()
    return json.loads(output.getvalue())


def test_the_tables_are_large_and_cover_every_module():
    assert len(CASES) >= 40
    modules = {case[1] for case in ALL_CASES}
    for name, table in globals().items():  # the tables each module family adds (with a test of its own) count too
        if name.endswith("_CASES") and isinstance(table, list):
            modules |= {case[1] for case in table if len(case) == 4 and isinstance(case[1], str)}
    every = {path.stem for path in (pathlib.Path(collections_path()) / "ansible_collections" / "gcore" / "platform" / "plugins"
                                    / "modules").glob("*.py") if path.stem != "__init__"}
    assert len(every) >= 15 and "storage_bucket" in every
    assert modules == every, "modules without a bad-input case: %s" % sorted(every - modules)
    assert (len(ROUTER_CASES), len(QUOTA_CASES), len(PRICE_CASES), len(CUSTOM_RULE_CASES) + len(CUSTOM_RULE_MORE)) == (28, 36, 14, 41)
    assert len(ALL_CASES) == len(CASES) + 119 + len(LB_CASES) + len(INSTANCE_CASES) + len(INSTANCE_MORE) + len(FILE_SHARE_CASES)
    assert (len(INSTANCE_CASES), len(INSTANCE_MORE)) == (36, 21)


@pytest.mark.every_core
@pytest.mark.parametrize("what, module, args, text", ALL_CASES, ids=[case[0] for case in ALL_CASES])
def test_bad_input_fails_naming_the_option_and_sends_nothing(monkeypatch, what, module, args, text):
    with no_network() as attempts:
        result = run_module(module, args, monkeypatch)
    assert result.get("failed") is True, "%s: did not fail: %s" % (what, result)
    message = result.get("msg", "")
    if text.startswith("re:"):
        assert re.search(text[3:], message), "%s: message does not match %s: %s" % (what, text[3:], message)
    else:
        assert text in message, "%s: message does not name %s: %s" % (what, text, message)
    assert "Traceback" not in json.dumps(result) and "exception" not in result, result
    assert result.get("changed") in (None, False)
    assert KEY not in json.dumps(result)
    assert attempts == [], "%s: bad input must send nothing, but a connection was attempted to %s" % (what, attempts)


@responses.activate
def test_a_router_with_an_ip_address_interface_and_no_wait_reads_once_and_writes_nothing(monkeypatch):
    # An interface at a given address is attached once the router exists; whether it will be created is known only
    # after the lookup, so the run reads (one listing) and writes nothing.
    responses.add(responses.GET, re.compile(re.escape(URL) + r"/cloud/v1/routers/%s/%s(\?.*)?$" % (PROJECT_ID, REGION_ID)),
                  json={"count": 0, "results": []})
    result = run_module("router", {"name": "it-nowait-ifaces", "wait": False, "interfaces": [
        {"subnet_id": ROUTER_SUBNET}, {"subnet_id": ROUTER_SUBNET.replace("b01", "b02"), "ip_address": "192.168.20.5"}]}, monkeypatch)
    assert result["failed"] is True and not result.get("changed"), result
    assert "interfaces[1]: an interface with an ip_address is attached only once the router exists" in result["msg"]
    assert "wait=true" in result["msg"]
    assert [call.request.method for call in responses.calls] == ["GET"]


# ---- the simulator refuses what the published schemas refuse (cloud-shaped 422 with the reason) ----
SCHEMA_REFUSALS = [
    ("/cloud/v1/bminstances/1/76/check_limits",
     {"names": ["a"], "interfaces": [{"type": "subnet", "network_id": NET, "subnet_id": SUBNET, "ip_family": "ipv4"}]},
     "interfaces.0.ip_family: extra fields not permitted"),
    ("/cloud/v1/bminstances/1/76/check_limits", {"names": ["a"], "flavor": "bm9-unknown"}, "flavor: unknown bare metal flavor bm9-unknown"),
    ("/cloud/v1/bminstances/1/76/check_limits", {"names": ["a"], "interfaces": [{"type": "any_subnet"}]}, "interfaces.0.network_id: field required"),
    ("/cloud/v1/bminstances/1/76/check_limits", {"flavor": "bm1-basic-medium"}, "names: either names or name_templates must be specified"),
    ("/cloud/v1/bminstances/1/76/check_limits", {"names": ["a"], "count": 2}, "count: extra fields not permitted"),
    ("/cloud/v1/loadbalancers/1/76/check_limits", {"vip_network_id": NET, "vip_port_id": PORT},
     "vip_port_id: vip_network_id and vip_port_id are mutually exclusive"),
    ("/cloud/v1/loadbalancers/1/76/check_limits", {"logging": {"retention_policy": {"period": 0}}},
     "logging.retention_policy.period: value is out of range"),
    ("/cloud/v2/pricing/1/76/instances", {"names": ["a"], "interfaces": EXTERNAL}, "flavor: field required"),
    ("/cloud/v2/pricing/1/76/instances", {"flavor": "g1-standard-1-2", "names": ["a"]}, "interfaces: field required"),
    ("/cloud/v2/pricing/1/76/instances", {"flavor": "g1-standard-1-2", "names": ["a"], "interfaces": [{"type": "external", "floating_ip": {"source": "new"}}]},
     "interfaces.0.floating_ip: extra fields not permitted"),
    ("/cloud/v2/pricing/1/76/instances", {"flavor": "g1-standard-1-2", "names": ["a"], "interfaces": EXTERNAL, "volumes": [{"source": "snapshot"}]},
     "volumes.0.snapshot_id: snapshot_id is mandatory"),
    ("/cloud/v2/pricing/1/76/instances", {"flavor": "g1-standard-1-2", "names": ["a"], "interfaces": EXTERNAL,
                                          "volumes": [{"source": "image", "type_name": "nvme"}]}, "volumes.0.type_name: value is not one of"),
    ("/cloud/v2/pricing/1/76/instances", {"flavor": "g1-standard-1-2", "names": ["a"], "interfaces": EXTERNAL,
                                          "volumes": [{"source": "image", "bootable": True}]}, "volumes.0.bootable: extra fields not permitted"),
    ("/cloud/v1/networks/1/76", {"name": "app-net", "type": "flat"}, "type: value is not one of vlan, vxlan"),
    ("/cloud/v1/networks/1/76", {"name": "app-net", "mtu": 9000}, "mtu: extra fields not permitted"),
    ("/cloud/v1/subnets/1/76", {"name": "app-subnet", "network_id": NET}, "cidr: field required"),
    ("/cloud/v1/subnets/1/76", {"name": "app-subnet", "network_id": NET, "cidr": "10.0.0.0/24", "gateway_ip": None},
     "connect_to_network_router: must be explicitly false when gateway_ip is null"),
]


@pytest.mark.parametrize("path, body, reason", SCHEMA_REFUSALS, ids=[refusal[2] for refusal in SCHEMA_REFUSALS])
def test_the_simulator_refuses_what_the_published_schemas_refuse(sim, path, body, reason):
    answer = requests.post(sim.url + path, json=body, headers={"Authorization": "apikey %s" % sim.api_key}, timeout=30)
    assert answer.status_code == 422, answer.text
    assert answer.json()["exception_class"] == "UnprocessableEntity"
    assert reason in answer.json()["message"]


@pytest.mark.every_core
def test_bad_input_through_ansible_playbook(playbook, sim, tmp_path):
    """The wiring, end to end: ansible-playbook hands the arguments over, the argument spec and a module's own check
    refuse them, the task fails with the message naming the option, and the simulator receives nothing."""
    cases = [("router", {"name": "ab"}, "name: length 2"),  # a module's own check
             ("notification_threshold", {"client_id": 1, "threshold": "high"}, "threshold"),  # the argument spec's type
             ("waap_custom_rule", rule(conditions=[{"ip": {"ip_address": "192.0.2.1"}, "url": {"url": "/a"}}]), "conditions"),
             ("notification_threshold_info", {"client_id": 1, "api_url": "{{ sim_url }}/cloud"}, "api_url"),
             ("router_info", {"id": UUID, "name": "r-1"}, "id|name")]
    tasks = [{"name": "case %s: %s" % (number, module), "gcore.platform.%s" % module: args, "register": "case_%s" % number,
              "ignore_errors": True} for number, (module, args, _text) in enumerate(cases)]
    tasks.append({"name": "Report", "ansible.builtin.debug": {
        "msg": "RESULTS=" + "{{ [%s] | to_json }}" % ", ".join(
            "{'failed': case_%s.failed | default(false), 'msg': case_%s.msg | default('')}" % (n, n) for n in range(len(cases)))}})
    play = tmp_path / "bad_input.yml"
    play.write_text(json.dumps([{"name": "Bad input", "hosts": "localhost", "gather_facts": False, "tasks": tasks}]))
    run = playbook(str(play))
    assert run.rc == 0, run
    line = [text for text in run.output.splitlines() if '"msg": "RESULTS=' in text][0]
    results = json.loads(json.loads("{%s}" % line.strip())["msg"][len("RESULTS="):])
    for (module, args, text), result in zip(cases, results):
        assert result["failed"] and text in result["msg"], (module, args, result)
    assert "Traceback" not in run.output
    assert sim.log == [], "bad input must send nothing, but the simulator received %s" % sim.log[:3]


def _key_play(tmp_path):
    play = tmp_path / "key.yml"
    play.write_text(json.dumps([{"name": "Key", "hosts": "localhost", "gather_facts": False, "tasks": [
        {"name": "Read", "register": "result", "ignore_errors": True, "gcore.platform.notification_threshold_info": {"client_id": 1}},
        {"name": "Show", "ansible.builtin.debug": {"msg": "RESULT={{ result | to_json }}"}}]}]))
    return play


def _result(run):
    line = [text for text in run.output.splitlines() if '"msg": "RESULT=' in text][0]
    return json.loads(json.loads("{%s}" % line.strip())["msg"][len("RESULT="):])


def test_a_key_read_from_a_file_with_its_newline_works_and_shows_nowhere(playbook, sim, tmp_path):
    # before issue 11 the HTTP library refused the header and msg quoted it: 'apikey <key>\\n'
    run = playbook(str(_key_play(tmp_path)), env={"GCORE_API_KEY": sim.api_key + "\n"})  # the fixture searches -vvvv for the key
    assert run.rc == 0, run
    result = _result(run)
    assert not result.get("failed"), result
    assert result["notification_threshold"] is not None


def test_a_key_with_a_newline_inside_is_refused_showing_none_of_it(playbook, sim, tmp_path):
    half = len(sim.api_key) // 2
    run = playbook(str(_key_play(tmp_path)), env={"GCORE_API_KEY": sim.api_key[:half] + "\n" + sim.api_key[half:]})
    assert run.rc == 0, run
    result = _result(run)
    assert result["failed"] is True and result["msg"].startswith("Invalid input: api_key: "), result
    for part in (sim.api_key[:half], sim.api_key[half:]):
        assert part not in run.output
    assert sim.log == []


# ---- issue 26: security_group and security_group_info (every rule rule, named by the rule's index) ----
SG_RULE = {"direction": "ingress", "protocol": "tcp", "port_range_min": 22, "remote_ip_prefix": "10.0.0.0/8"}


def sg_rules(*rules):
    return {"name": "web", "rules": list(rules)}


SECURITY_GROUP_CASES = [
    ("rule ports with icmp", "security_group", sg_rules(dict(SG_RULE, protocol="icmp")),
     "rules[0].port_range_min/port_range_max: ports are only for the protocols tcp, udp, sctp, dccp, udplite, not icmp"),
    ("rule ports with every protocol", "security_group", sg_rules({"direction": "ingress", "port_range_max": 80}),
     "rules[0].port_range_min/port_range_max"),
    ("rule min above max", "security_group", sg_rules(SG_RULE, dict(SG_RULE, port_range_min=81, port_range_max=80)),
     "rules[1].port_range_min: 81 is above port_range_max 80"),
    ("rule port above 65535", "security_group", sg_rules(dict(SG_RULE, port_range_max=70000)), "rules[0].port_range_max: 70000 is out of range"),
    ("rule port nan", "security_group", sg_rules(dict(SG_RULE, port_range_min="nan")), "port_range_min"),
    ("rule port a boolean", "security_group", sg_rules(dict(SG_RULE, port_range_min=True)), "rules[0].port_range_min: a boolean"),
    ("rule prefix with host bits", "security_group", sg_rules(dict(SG_RULE, remote_ip_prefix="10.1.2.3/8")),
     "rules[0].remote_ip_prefix: '10.1.2.3/8' has host bits set; use the network address 10.0.0.0/8"),
    ("rule prefix not a CIDR", "security_group", sg_rules(dict(SG_RULE, remote_ip_prefix="office")), "rules[0].remote_ip_prefix: 'office'"),
    ("rule prefix with a newline", "security_group", sg_rules(dict(SG_RULE, remote_ip_prefix="10.0.0.0/8\n")), "rules[0].remote_ip_prefix"),
    ("rule prefix of the other IP version", "security_group", sg_rules(dict(SG_RULE, ethertype="IPv6")),
     "rules[0].remote_ip_prefix: 10.0.0.0/8 is an IPv4 network but the rule's ethertype is IPv6"),
    ("rule prefix and group", "security_group", sg_rules(dict(SG_RULE, remote_group_id=UUID)),
     "rules[0]: remote_ip_prefix and remote_group_id are mutually exclusive"),
    ("rule group not a UUID", "security_group", sg_rules({"direction": "egress", "remote_group_id": "web"}), "rules[0].remote_group_id: 'web' is not a UUID"),
    ("rule protocol unknown", "security_group", sg_rules(dict(SG_RULE, protocol="http")), "rules[0].protocol: 'http' is not a protocol"),
    ("rule direction unknown", "security_group", sg_rules(dict(SG_RULE, direction="in")), "direction"),
    ("rule without direction", "security_group", sg_rules({"protocol": "tcp"}), "direction"),
    ("rule ethertype unknown", "security_group", sg_rules(dict(SG_RULE, ethertype="IPv5")), "ethertype"),
    ("rule description too long", "security_group", sg_rules(dict(SG_RULE, description="d" * 256)), "rules[0].description: length 256"),
    ("rule description with a NUL", "security_group", sg_rules(dict(SG_RULE, description="a\x00b")), "rules[0].description"),
    ("rule listed twice", "security_group", sg_rules(SG_RULE, {"direction": "egress"}, dict(SG_RULE, port_range_max=22)),
     "rules[0] and rules[2]: the same rule is listed twice"),
    ("any and null are one protocol", "security_group", sg_rules({"direction": "egress"}, {"direction": "egress", "protocol": "any"}),
     "rules[0] and rules[1]"),
    ("rules not a list of rules", "security_group", {"name": "web", "rules": ["ingress"]}, "rules"),
    ("name with a control character", "security_group", {"name": "web\x01"}, "name:"),
    ("name too short", "security_group", {"name": "sg"}, "name: length 2"),
    ("description with a NUL", "security_group", {"name": "web", "description": "a\x00b"}, "description"),
    ("tag key with a space", "security_group", {"name": "web", "tags": {"a b": "c"}}, "tags: key 'a b'"),
    ("tag value with a newline", "security_group", {"name": "web", "tags": {"a": "b\nc"}}, "tags.a:"),
    ("id not a UUID", "security_group", {"security_group_id": "sg-1"}, "security_group_id: 'sg-1' is not a UUID"),
    ("neither id nor name", "security_group", {}, "one of the following is required: security_group_id, name"),
    ("wait_timeout nan", "security_group", {"name": "web", "wait_timeout": "nan"}, "wait_timeout"),
    ("info: id not a UUID", "security_group_info", {"security_group_id": "sg-1"}, "security_group_id"),
    ("info: name with a tab", "security_group_info", {"name": "we\tb"}, "name"),
    ("info: id and name", "security_group_info", {"security_group_id": UUID, "name": "web"}, "mutually exclusive"),
]


@pytest.mark.parametrize("what, module, args, text", SECURITY_GROUP_CASES, ids=[case[0] for case in SECURITY_GROUP_CASES])
def test_security_group_bad_input_fails_naming_the_rule_and_sends_nothing(monkeypatch, what, module, args, text):
    with no_network() as attempts:
        result = run_module(module, args, monkeypatch)
    assert result.get("failed") is True, "%s: did not fail: %s" % (what, result)
    assert text in result.get("msg", ""), "%s: message does not name %s: %s" % (what, text, result.get("msg"))
    assert "Traceback" not in json.dumps(result) and "exception" not in result, result
    assert result.get("changed") in (None, False) and "changes" not in result
    assert attempts == [], "%s: bad input must send nothing, but a connection was attempted to %s" % (what, attempts)


@pytest.mark.parametrize("value", ["inf", "-inf", "Infinity", float("inf")])
def test_an_infinite_int_fails_naming_the_option(monkeypatch, value):
    """From ansible-core 2.19 Ansible's own int check raises OverflowError on ``inf`` (a traceback); _base refuses it."""
    with no_network() as attempts:
        result = run_module("security_group", sg_rules(dict(SG_RULE, port_range_min=value)), monkeypatch)
        timeout = run_module("router", {"name": "r-inf", "wait_timeout": value}, monkeypatch)
    assert result.get("failed") is True and "port_range_min" in result["msg"] and attempts == [], result
    assert timeout.get("failed") is True and "wait_timeout" in timeout["msg"], timeout


SECURITY_GROUP_REFUSALS = [
    ("/cloud/v2/security_groups/1/76", {"name": "web", "rules": [{"protocol": "tcp"}]}, "rules.0.direction: field required"),
    ("/cloud/v2/security_groups/1/76", {"name": "web", "rules": [dict(SG_RULE, port_range_min=70000)]}, "rules.0.port_range_min"),
    ("/cloud/v2/security_groups/1/76", {"name": "web", "rules": [dict(SG_RULE, protocol="any")]}, "rules.0.protocol: value is not one of"),
    ("/cloud/v2/security_groups/1/76", {"name": "-web"}, "name: string does not match pattern"),
]


@pytest.mark.parametrize("path, body, reason", SECURITY_GROUP_REFUSALS, ids=[refusal[2] for refusal in SECURITY_GROUP_REFUSALS])
def test_the_simulator_refuses_what_the_security_group_schemas_refuse(sim, path, body, reason):
    answer = requests.post(sim.url + path, json=body, headers={"Authorization": "apikey %s" % sim.api_key}, timeout=30)
    assert answer.status_code == 422, answer.text
    assert answer.json()["exception_class"] == "UnprocessableEntity"
    assert reason in answer.json()["message"]


# ---- ssh_key and floating_ip: every option checked before any request (project and region from the environment) ----
PRIVATE = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"
_KEY_AND_FIP = [
    ("ssh_key", {}, "missing required arguments: name"),
    ("ssh_key", {"name": "k-1", "region_id": 76}, "Unsupported parameters"),
    ("ssh_key", {"name": "k-1", "project_id": 0}, "project_id: 0 is out of range"),
    ("ssh_key", {"name": "k-1", "project_id": float("nan")}, "project_id"),
    ("ssh_key", {"name": "ab"}, "name: length 2 is out of range"),
    ("ssh_key", {"name": "k" * 64}, "name: length 64 is out of range"),
    ("ssh_key", {"name": "-k-1"}, "name: "),
    ("ssh_key", {"name": "k-1\x00"}, "name: "),
    ("ssh_key", {"name": "clé-1"}, "name: "),
    ("ssh_key", {"name": "k-1", "ssh_key_id": "not-a-uuid"}, "ssh_key_id"),
    ("ssh_key", {"name": "k-1", "public_key": "ssh-ed25519"}, "public_key: is not an OpenSSH public key"),
    ("ssh_key", {"name": "k-1", "public_key": "ssh-ed25519 AAAA\tx"}, "public_key: is not an OpenSSH public key"),
    ("ssh_key", {"name": "k-1", "public_key": PRIVATE}, "public_key: holds a private key (not shown)"),
    ("ssh_key", {"name": "k-1", "shared_in_project": "perhaps"}, "shared_in_project"),
    ("ssh_key", {"name": "k-1", "wait_timeout": 0}, "wait_timeout: 0 is out of range"),
    ("floating_ip", {}, "floating_ip_id: one of floating_ip_id, address, instance or port_id is required"),
    ("floating_ip", {"floating_ip_id": "not-a-uuid"}, "floating_ip_id"),
    ("floating_ip", {"port_id": "not-a-uuid"}, "port_id"),
    ("floating_ip", {"address": "203.0.113.256"}, "address: '203.0.113.256' is not an IPv4 or IPv6 address"),
    ("floating_ip", {"address": "inf"}, "address: 'inf' is not an IPv4 or IPv6 address"),
    ("floating_ip", {"instance": "web-1", "fixed_ip_address": "2001:db8::1"}, "fixed_ip_address: '2001:db8::1' is not an IPv4"),
    ("floating_ip", {"address": "203.0.113.9", "fixed_ip_address": "10.0.0.5"}, "fixed_ip_address: needs instance or port_id"),
    ("floating_ip", {"address": "203.0.113.9", "floating_ip_id": FIP}, "mutually exclusive: floating_ip_id|address"),
    ("floating_ip", {"instance": "web-1", "port_id": PORT}, "mutually exclusive: instance|port_id"),
    ("floating_ip", {"port_id": PORT, "unassign": True}, "unassign: cannot be true with instance, port_id or fixed_ip_address"),
    ("floating_ip", {"address": "203.0.113.9", "unassign": True, "state": "absent"}, "unassign: is used only with state=present"),
    ("floating_ip", {"instance": ""}, "instance: must be an instance ID or name"),
    ("floating_ip", {"instance": "web\x071"}, "instance: must be an instance ID or name"),
    ("floating_ip", {"instance": "web-1", "tags": {"a=b": "x"}}, "tags: key 'a=b' breaks the rule"),
    ("floating_ip", {"instance": "web-1", "tags": {"k": "x\ty"}}, "tags.k: "),
    ("floating_ip", {"instance": "web-1", "tags": {"k": "v" * 256}}, "tags.k: "),
    ("floating_ip", {"instance": "web-1", "region_id": 0}, "region_id: 0 is out of range"),
    ("floating_ip", {"instance": "web-1", "wait_timeout": -1}, "wait_timeout: -1 is out of range"),
    ("floating_ip", {"instance": "web-1", "state": "assigned"}, "value of state must be one of: present, absent"),
]
KEY_AND_FIP_CASES = [("%s: %s" % (module, text), module, args, text) for module, args, text in _KEY_AND_FIP]


@pytest.mark.parametrize("what, module, args, text", KEY_AND_FIP_CASES, ids=[case[0] for case in KEY_AND_FIP_CASES])
def test_ssh_key_and_floating_ip_bad_input_fails_naming_the_option_and_sends_nothing(monkeypatch, what, module, args, text):
    with no_network() as attempts:
        result = run_module(module, args, monkeypatch)
    assert result.get("failed") is True, "%s: did not fail: %s" % (what, result)
    assert text in result.get("msg", ""), result.get("msg")
    assert "Traceback" not in json.dumps(result) and "exception" not in result, result
    assert result.get("changed") in (None, False)
    assert KEY not in json.dumps(result) and "b3BlbnNzaC1rZXktdjEAAAAA" not in json.dumps(result)  # not even in invocation
    assert attempts == []


# ---- secret and secret_info: every option checked before any request; no PEM value echoed ----
MARK = pem.MARK
CERT = pem.payload()["certificate"]  # made now, holding the mark (a certificate is checked before it is uploaded)
KEY_PEM = pem.key_pem()
SECRET = {"name": "www-cert", "certificate": CERT, "certificate_chain": CERT + CERT, "private_key": KEY_PEM}
SECRET_CASES = [("secret: " + what, module, args, text) for what, module, args, text in [
    ("a certificate without its armour", "secret", dict(SECRET, certificate=MARK), "certificate: is not PEM text"),
    ("a certificate with its END line cut", "secret", dict(SECRET, certificate=CERT.split("-----END", maxsplit=1)[0]), "certificate: is not PEM text"),
    ("a private key as the certificate", "secret", dict(SECRET, certificate=KEY_PEM), "certificate: is not PEM text"),
    ("a chain with text after its blocks", "secret", dict(SECRET, certificate_chain=CERT + MARK), "certificate_chain: is not PEM text"),
    ("a key without its armour", "secret", dict(SECRET, private_key="MIGH" + MARK), "private_key: is not PEM text"),
    ("a certificate as the key", "secret", dict(SECRET, private_key=CERT), "private_key: is not PEM text"),
    ("a key of another certificate", "secret", dict(SECRET, private_key=pem.key_pem(pem.new_key())), "private_key: does not match the certificate"),
    ("a certificate whose validity ended", "secret", dict(SECRET, certificate=pem.pem(pem.issue("old", days=(-9, -1))[0])),
     "certificate: validity ended on"),
    ("a garbage certificate block", "secret", dict(SECRET, certificate_chain="-----BEGIN CERTIFICATE-----\nMIIB%s\n-----END CERTIFICATE-----" % MARK),
     "certificate_chain: is not a certificate"),
    ("an encrypted key", "secret", dict(SECRET, private_key=pem.key_pem(password=b"secret")), "private_key: is encrypted"),
    ("an expiration not a date-time", "secret", dict(SECRET, expiration="next tuesday"), "expiration: 'next tuesday' is not an RFC 3339"),
    ("an empty name", "secret", dict(SECRET, name=""), "name: must not be empty"),
    ("neither id nor name", "secret", {"certificate": CERT}, "one of the following is required: secret_id, name"),
    ("an id not a UUID", "secret", {"secret_id": "cert-1"}, "secret_id: 'cert-1' is not a UUID"),
    ("wait_timeout 0", "secret", dict(SECRET, wait_timeout=0), "wait_timeout: 0 is out of range"),
    ("info: id and name", "secret_info", {"name": "www-cert", "secret_id": UUID}, "mutually exclusive"),
    ("info: an id not a UUID", "secret_info", {"secret_id": "cert-1"}, "secret_id: 'cert-1' is not a UUID"),
    ("info: an empty name", "secret_info", {"name": " "}, "name: must not be empty"),
]]


@pytest.mark.parametrize("what, module, args, text", SECRET_CASES, ids=[case[0] for case in SECRET_CASES])
def test_secret_bad_input_fails_naming_the_option_showing_no_pem_and_sends_nothing(monkeypatch, what, module, args, text):
    with no_network() as attempts:
        result = run_module(module, args, monkeypatch)
    assert result.get("failed") is True, "%s: did not fail: %s" % (what, result)
    assert text in result.get("msg", ""), result.get("msg")
    assert "Traceback" not in json.dumps(result) and result.get("changed") in (None, False)
    assert MARK not in json.dumps(result) and pem.KEY_LINE not in json.dumps(result), "%s: a PEM value is shown: %s" % (what, result)
    assert attempts == []


# ---- issue 35: parents by name (subnet, instance interfaces, router interfaces, rules, load balancer VIP) ----
NET_SUB = {"type": "subnet", "network": "app-net", "subnet": "app-subnet"}
PARENT_CASES = [
    ("subnet: network_id and network", "subnet", {"name": "app-subnet", "network_id": UUID, "network": "app-net"},
     "network_id and network are mutually exclusive"),
    ("subnet: a name without a network", "subnet", {"name": "app-subnet", "cidr": "10.0.0.0/24"},
     "network_id: required to find a subnet by name, or network"),
    ("instance: network_id and network", "instance", {"name": "web-1", "interfaces": [dict(NET_SUB, network_id=UUID)]},
     "interfaces[0]: network_id and network are mutually exclusive"),
    ("instance: subnet_id and subnet", "instance", {"name": "web-1", "interfaces": [dict(NET_SUB, subnet_id=UUID)]},
     "interfaces[0]: subnet_id and subnet are mutually exclusive"),
    ("instance: a subnet interface without its subnet", "instance", {"name": "web-1", "interfaces": [{"type": "subnet", "network": "app-net"}]},
     "interfaces[0].subnet_id: required for type subnet"),
    ("instance: a network on an external interface", "instance", {"name": "web-1", "interfaces": [{"type": "external", "network": "app-net"}]},
     "interfaces[0].network: not allowed for type external"),
    ("instance: a subnet on an any_subnet interface", "instance", {"name": "web-1", "interfaces": [{"type": "any_subnet", "network": "n1", "subnet": "s1"}]},
     "interfaces[0].subnet: not allowed for type any_subnet"),
    ("instance: a reserved fixed IP by address without its network", "instance",
     {"name": "web-1", "interfaces": [{"type": "reserved_fixed_ip", "ip_address": "10.0.0.5"}]}, "by ip_address with network (give both)"),
    ("instance: a reserved fixed IP by network without its address", "instance",
     {"name": "web-1", "interfaces": [{"type": "reserved_fixed_ip", "network": "app-net"}]}, "by ip_address with network (give both)"),
    ("instance: a reserved fixed IP by port and address", "instance",
     {"name": "web-1", "interfaces": [{"type": "reserved_fixed_ip", "port_id": UUID, "ip_address": "10.0.0.5"}]},
     "interfaces[0]: port_id and ip_address are mutually exclusive"),
    ("instance: a reserved fixed IP address that is none", "instance",
     {"name": "web-1", "interfaces": [{"type": "reserved_fixed_ip", "network": "app-net", "ip_address": "10.0.0.500"}]},
     "interfaces[0].ip_address: '10.0.0.500' is not an IPv4 or IPv6 address"),
    ("router: subnet_id and subnet", "router", {"name": "r-1", "interfaces": [{"subnet_id": UUID, "subnet": "app-subnet"}]},
     "interfaces[0].subnet_id: subnet_id and subnet are mutually exclusive"),
    ("router: neither subnet_id nor subnet", "router", {"name": "r-1", "interfaces": [{"network": "app-net"}]},
     "interfaces[0].subnet_id: subnet_id or subnet is required"),
    ("router: a network without a subnet name", "router", {"name": "r-1", "interfaces": [{"subnet_id": UUID, "network": "app-net"}]},
     "interfaces[0].network: only with subnet"),
    ("rules: remote_group and remote_group_id", "security_group",
     {"name": "db-servers", "rules": [{"direction": "ingress", "remote_group": "web", "remote_group_id": UUID}]},
     "rules[0]: remote_group and remote_group_id are mutually exclusive"),
    ("rules: remote_group and remote_ip_prefix", "security_group",
     {"name": "db-servers", "rules": [{"direction": "ingress", "remote_group": "web", "remote_ip_prefix": "10.0.0.0/8"}]},
     "rules[0]: remote_group and remote_ip_prefix are mutually exclusive"),
    ("rules: a bad port beside a remote_group", "security_group",
     {"name": "db-servers", "rules": [{"direction": "ingress", "protocol": "tcp", "port_range_min": 70000, "remote_group": "web"}]},
     "rules[0].port_range_min: 70000 is out of range"),
    ("lb: vip_network_id and vip_network", "load_balancer", {"name": "lb-1", "vip_network_id": UUID, "vip_network": "app-net"},
     "mutually exclusive: vip_network_id|vip_network"),
    ("lb: vip_subnet_id and vip_subnet", "load_balancer", {"name": "lb-1", "vip_subnet_id": UUID, "vip_subnet": "app-subnet"},
     "mutually exclusive: vip_subnet_id|vip_subnet"),
    ("lb: vip_port_id and vip_ip_address", "load_balancer", {"name": "lb-1", "vip_port_id": UUID, "vip_ip_address": "10.0.0.5"},
     "mutually exclusive: vip_port_id|vip_ip_address"),
    ("lb: vip_ip_address without a network", "load_balancer", {"name": "lb-1", "vip_ip_address": "10.0.0.5"},
     "vip_ip_address: needs vip_network or vip_network_id"),
    ("lb: vip_ip_address not an address", "load_balancer", {"name": "lb-1", "vip_network": "app-net", "vip_ip_address": "ten"},
     "vip_ip_address: 'ten' is not a valid IPv4 or IPv6 address"),
    ("lb: vip_ip_address with a subnet", "load_balancer",
     {"name": "lb-1", "vip_network": "app-net", "vip_ip_address": "10.0.0.5", "vip_subnet": "app-subnet"}, "vip_ip_address: not with vip_subnet"),
]


@pytest.mark.parametrize("what, module, args, text", PARENT_CASES, ids=[case[0] for case in PARENT_CASES])
def test_parent_by_name_bad_input_fails_naming_the_option_and_sends_nothing(monkeypatch, what, module, args, text):
    with no_network() as attempts:
        result = run_module(module, args, monkeypatch)
    assert result.get("failed") is True, "%s: did not fail: %s" % (what, result)
    assert text in result.get("msg", ""), "%s: message does not name %s: %s" % (what, text, result.get("msg"))
    assert "Traceback" not in json.dumps(result) and result.get("changed") in (None, False)
    assert attempts == [], "%s: bad input must send nothing, but a connection was attempted to %s" % (what, attempts)


# ---- issue 27: volume and volume_info (every option checked before any request, per source) ----
VOLUME = {"name": "data", "size": 10}

VOLUME_CASES = [
    ("name too short", "volume", dict(VOLUME, name="ab"), "name: length 2"),
    ("name ending with a dash", "volume", dict(VOLUME, name="data-"), "name:"),
    ("name with a control character", "volume", dict(VOLUME, name="da\x01ta"), "name:"),
    ("id not a UUID", "volume", {"volume_id": "vol-1"}, "volume_id: 'vol-1' is not a UUID"),
    ("neither id nor name", "volume", {"size": 1}, "one of the following is required: volume_id, name"),
    ("size zero", "volume", dict(VOLUME, size=0), "size: 0 is out of range"),
    ("size negative", "volume", dict(VOLUME, size=-5), "size: -5 is out of range"),
    ("size nan", "volume", dict(VOLUME, size="nan"), "size"),
    ("size inf", "volume", dict(VOLUME, size="inf"), "size"),
    ("size a boolean", "volume", dict(VOLUME, size=True), "size"),
    ("size a word", "volume", dict(VOLUME, size="big"), "size"),
    ("source unknown", "volume", dict(VOLUME, source="disk"), "source"),
    ("image source without image_id", "volume", dict(VOLUME, source="image"), "image_id: required with source=image"),
    ("image_id with a new volume", "volume", dict(VOLUME, image_id=UUID), "image_id: only with source=image"),
    ("image_id not a UUID", "volume", dict(VOLUME, source="image", image_id="ubuntu"), "image_id: 'ubuntu' is not a UUID"),
    ("snapshot source without snapshot_id", "volume", {"name": "data", "source": "snapshot"}, "snapshot_id: required with source=snapshot"),
    ("snapshot_id with an image source", "volume", dict(VOLUME, source="image", image_id=UUID, snapshot_id=UUID),
     "snapshot_id: only with source=snapshot"),
    ("type unknown", "volume", dict(VOLUME, type_name="nvme"), "type_name"),
    ("instance name with a slash", "volume", dict(VOLUME, instance="web/1"), "instance:"),
    ("instance name with a newline", "volume", dict(VOLUME, instance="web-1\n"), "instance:"),
    ("instance with state absent", "volume", {"name": "data", "state": "absent", "instance": "web-1"}, "instance: only with state=present"),
    ("attachment_tag without instance", "volume", dict(VOLUME, attachment_tag="data"), "attachment_tag: only with a non-empty instance"),
    ("attachment_tag with a detach", "volume", dict(VOLUME, instance="", attachment_tag="data"), "attachment_tag: only with a non-empty instance"),
    ("attachment_tag with a comma", "volume", dict(VOLUME, instance=UUID, attachment_tag="a,b"), "attachment_tag:"),
    ("attachment_tag too long", "volume", dict(VOLUME, instance=UUID, attachment_tag="t" * 61), "attachment_tag:"),
    ("tag key with a space", "volume", dict(VOLUME, tags={"a b": "c"}), "tags: key 'a b'"),
    ("tag value with a newline", "volume", dict(VOLUME, tags={"a": "b\nc"}), "tags.a:"),
    ("wait_timeout zero", "volume", dict(VOLUME, wait_timeout=0), "wait_timeout: 0 is out of range"),
    ("state unknown", "volume", dict(VOLUME, state="gone"), "state"),
    ("info: id not a UUID", "volume_info", {"volume_id": "vol-1"}, "volume_id: 'vol-1' is not a UUID"),
    ("info: name with a tab", "volume_info", {"name": "da\tta"}, "name"),
    ("info: id and name", "volume_info", {"volume_id": UUID, "name": "data"}, "mutually exclusive"),
    ("info: instance with a slash", "volume_info", {"instance": "web/1"}, "instance:"),
]


@pytest.mark.parametrize("what, module, args, text", VOLUME_CASES, ids=[case[0] for case in VOLUME_CASES])
def test_volume_bad_input_fails_naming_the_option_and_sends_nothing(monkeypatch, what, module, args, text):
    with no_network() as attempts:
        result = run_module(module, args, monkeypatch)
    assert result.get("failed") is True, "%s: did not fail: %s" % (what, result)
    assert text in result.get("msg", ""), "%s: message does not name %s: %s" % (what, text, result.get("msg"))
    assert "Traceback" not in json.dumps(result) and "exception" not in result, result
    assert result.get("changed") in (None, False)
    assert attempts == [], "%s: bad input must send nothing, but a connection was attempted to %s" % (what, attempts)


VOLUME_REFUSALS = [
    ("/cloud/v1/volumes/1/76", {"name": "data", "size": 1}, "source: field required"),
    ("/cloud/v1/volumes/1/76", {"source": "new-volume", "name": "data", "size": 1, "type_name": "nvme"}, "type_name: value is not one of"),
    ("/cloud/v1/volumes/1/76", {"source": "new-volume", "name": "data", "size": 0}, "size: value is out of range"),
    ("/cloud/v1/volumes/1/76", {"source": "snapshot", "name": "data", "size": 1}, "snapshot_id: field required"),
    ("/cloud/v1/volumes/1/76", {"source": "new-volume", "name": "data", "size": 1, "attachment_tag": "x"}, "attachment_tag: only used together"),
]


@pytest.mark.parametrize("path, body, reason", VOLUME_REFUSALS, ids=[refusal[2] for refusal in VOLUME_REFUSALS])
def test_the_simulator_refuses_what_the_volume_schemas_refuse(sim, path, body, reason):
    answer = requests.post(sim.url + path, json=body, headers={"Authorization": "apikey %s" % sim.api_key}, timeout=30)
    assert answer.status_code == 422, answer.text
    assert answer.json()["exception_class"] == "UnprocessableEntity"
    assert reason in answer.json()["message"]


# ---- issue 36: placement_group, volume_snapshot, image and their _info modules ----
PRODUCTION_CASES = [
    ("group: name too short", "placement_group", {"name": "ab", "policy": "affinity"}, "name: length 2 is out of range (must be 3 to 110)"),
    ("group: name of 111", "placement_group", {"name": "g" * 111, "policy": "affinity"}, "name: length 111 is out of range (must be 3 to 110)"),
    ("group: name ending with a dash", "placement_group", {"name": "web-", "policy": "affinity"}, "name: 'web-' does not match"),
    ("group: unknown policy", "placement_group", {"name": "web-spread", "policy": "spread"}, "policy must be one of"),
    ("group: id not a UUID", "placement_group", {"placement_group_id": "sg-1"}, "placement_group_id: 'sg-1' is not a UUID"),
    ("group: neither id nor name", "placement_group", {"policy": "affinity"}, "one of the following is required: placement_group_id, name"),
    ("group: tags are not an option", "placement_group", {"name": "web-spread", "tags": {"a": "b"}}, "tags"),
    ("group info: id and name", "placement_group_info", {"placement_group_id": UUID, "name": "web-spread"}, "mutually exclusive"),
    ("group info: name with a newline", "placement_group_info", {"name": "web\nspread"}, "name:"),
    ("snapshot: name too short", "volume_snapshot", {"name": "ab", "volume": "data-1"}, "name: length 2 is out of range"),
    ("snapshot: id not a UUID", "volume_snapshot", {"snapshot_id": "snap-1"}, "snapshot_id: 'snap-1' is not a UUID"),
    ("snapshot: a name without a volume", "volume_snapshot", {"name": "snap-1"}, "volume: required to find a snapshot by name"),
    ("snapshot: a volume name with a slash", "volume_snapshot", {"name": "snap-1", "volume": "data/1"}, "volume:"),
    ("snapshot: a description of 256", "volume_snapshot", {"name": "snap-1", "volume": UUID, "description": "d" * 256}, "description: length 256"),
    ("snapshot: a tag key with '='", "volume_snapshot", {"name": "snap-1", "volume": UUID, "tags": {"a=b": "c"}}, "tags: key 'a=b'"),
    ("snapshot info: id and name", "volume_snapshot_info", {"snapshot_id": UUID, "name": "snap-1"}, "mutually exclusive"),
    ("snapshot info: a volume name with a tab", "volume_snapshot_info", {"volume": "da\tta"}, "volume:"),
    ("image: name too short", "image", {"name": "ab", "source": "url", "url": "https://example.com/a.qcow2"}, "name: length 2"),
    ("image: id not a UUID", "image", {"image_id": "img-1"}, "image_id: 'img-1' is not a UUID"),
    ("image: unknown source", "image", {"name": "img-1", "source": "s3"}, "source must be one of"),
    ("image: url with source volume", "image", {"name": "img-1", "source": "volume", "volume": UUID, "url": "https://x.example/a"},
     "url: only with source=url"),
    ("image: volume with source url", "image", {"name": "img-1", "source": "url", "url": "https://x.example/a", "volume": UUID},
     "volume: only with source=volume"),
    ("image: os_distro from a volume", "image", {"name": "img-1", "source": "volume", "volume": UUID, "os_distro": "Debian"},
     "os_distro: only with source=url"),
    ("image: cow_format from a volume", "image", {"name": "img-1", "source": "volume", "volume": UUID, "cow_format": True},
     "cow_format: only with source=url"),
    ("image: a url without a scheme", "image", {"name": "img-1", "source": "url", "url": "example.com/a.qcow2"}, "url:"),
    ("image: source url without url", "image", {"name": "img-1", "source": "url"}, "url: required with source=url"),
    ("image: source volume without volume", "image", {"name": "img-1", "source": "volume"}, "volume: required with source=volume"),
    ("image: a url with a space", "image", {"name": "img-1", "source": "url", "url": "https://example.com/a b"}, "url:"),
    ("image: unknown architecture", "image", {"name": "img-1", "architecture": "arm64"}, "architecture must be one of"),
    ("image: unknown ssh_key", "image", {"name": "img-1", "ssh_key": "maybe"}, "ssh_key must be one of"),
    ("image: unknown firmware", "image", {"name": "img-1", "hw_firmware_type": "efi"}, "hw_firmware_type must be one of"),
    ("image: an empty os_version", "image", {"name": "img-1", "source": "url", "url": "https://x.example/a", "os_version": ""}, "os_version: length 0"),
    ("image: a volume name with a slash", "image", {"name": "img-1", "source": "volume", "volume": "vol/1"}, "volume:"),
    ("image: a wait_timeout of 0", "image", {"name": "img-1", "wait_timeout": 0}, "wait_timeout: 0 is out of range"),
    ("image: a tag value with a newline", "image", {"name": "img-1", "tags": {"a": "b\nc"}}, "tags.a"),
    ("image info: unknown visibility", "image_info", {"visibility": "internal"}, "visibility must be one of"),
    ("image info: id and name", "image_info", {"image_id": UUID, "name": "img-1"}, "mutually exclusive"),
    ("volume: image_name and image_id", "volume", {"name": "data", "size": 1, "source": "image", "image_id": UUID, "image_name": "deb"},
     "image_id: mutually exclusive with image_name"),
    ("volume: image_name with a new volume", "volume", {"name": "data", "size": 1, "image_name": "deb"}, "image_name: only with source=image"),
    ("volume: an empty image_name", "volume", {"name": "data", "size": 1, "source": "image", "image_name": ""}, "image_name: length 0"),
    ("volume: snapshot_name and snapshot_id", "volume", {"name": "data", "source": "snapshot", "snapshot_id": UUID, "snapshot_name": "snap-1"},
     "snapshot_id: mutually exclusive with snapshot_name"),
    ("volume: snapshot_name with an image source", "volume",
     {"name": "data", "size": 1, "source": "image", "image_id": UUID, "snapshot_name": "snap-1"}, "snapshot_name: only with source=snapshot"),
    ("volume: snapshot_name against the name rule", "volume", {"name": "data", "source": "snapshot", "snapshot_name": "-s"}, "snapshot_name:"),
    ("reserved IP: neither port_id nor an address", "reserved_fixed_ip", {"is_vip": True}, "port_id: give port_id, or network with ip_address"),
    ("reserved IP: a network without an address", "reserved_fixed_ip", {"network": "net-1"}, "ip_address: give port_id, or network with ip_address"),
    ("reserved IP: an address without a network", "reserved_fixed_ip", {"ip_address": "10.0.0.5"}, "network: give port_id, or network with ip_address"),
    ("reserved IP: an address that is not one", "reserved_fixed_ip", {"network": "net-1", "ip_address": "10.0.0.300"},
     "ip_address: '10.0.0.300' is not an IPv4 or IPv6 address"),
    ("reserved IP: a CIDR as the address", "reserved_fixed_ip", {"network": "net-1", "ip_address": "10.0.0.0/24"}, "ip_address: '10.0.0.0/24'"),
    ("reserved IP: a port_id not a UUID", "reserved_fixed_ip", {"port_id": "port-1"}, "port_id: 'port-1' is not a UUID"),
    ("reserved IP: a network name against the rule", "reserved_fixed_ip", {"network": "-net", "ip_address": "10.0.0.5"}, "network: '-net'"),
    ("reserved IP: instances without is_vip", "reserved_fixed_ip", {"port_id": UUID, "connected_instances": ["web-a"]},
     "connected_instances: only with is_vip: true"),
    ("reserved IP: instances of a non-VIP", "reserved_fixed_ip", {"port_id": UUID, "is_vip": False, "connected_instances": []},
     "connected_instances: only with is_vip: true"),
    ("reserved IP: an instance given twice", "reserved_fixed_ip", {"port_id": UUID, "is_vip": True, "connected_instances": ["web-a", "web-a"]},
     "connected_instances[0] and connected_instances[1]"),
    ("reserved IP: an instance id given twice, in two cases", "reserved_fixed_ip",
     {"port_id": UUID, "is_vip": True, "connected_instances": [UUID, UUID.upper()]}, "connected_instances[0] and connected_instances[1]"),
    ("reserved IP: an empty instance", "reserved_fixed_ip", {"port_id": UUID, "is_vip": True, "connected_instances": [""]},
     "connected_instances[0]: length 0"),
    ("reserved IP: an instance name with a newline", "reserved_fixed_ip", {"port_id": UUID, "is_vip": True, "connected_instances": ["web\na"]},
     "connected_instances[0]:"),
    ("reserved IP: a name is not an option", "reserved_fixed_ip", {"port_id": UUID, "name": "vip"}, "name"),
    ("reserved IP: tags are not an option", "reserved_fixed_ip", {"port_id": UUID, "tags": {"a": "b"}}, "tags"),
    ("reserved IP info: an address that is not one", "reserved_fixed_ip_info", {"ip_address": "10.0.0"}, "ip_address: '10.0.0' is not"),
    ("reserved IP info: a port_id not a UUID", "reserved_fixed_ip_info", {"port_id": "port-1"}, "port_id: 'port-1' is not a UUID"),
    ("reserved IP info: a network name with a tab", "reserved_fixed_ip_info", {"network": "net\t1"}, "network:"),
    ("reserved IP info: vip_only not a boolean", "reserved_fixed_ip_info", {"vip_only": "maybe"}, "vip_only"),
    ("reserved IP info: no name option", "reserved_fixed_ip_info", {"name": "Reserved fixed ip 10.0.0.5"}, "name"),
]

# ---- issue 49: snapshot_schedule and snapshot_schedule_info ----
CRON = {"type": "cron", "hour": "2"}
PRODUCTION_CASES += [("schedule: " + what, "snapshot_schedule_info" if what.startswith("info:") else "snapshot_schedule", args, text)
                     for what, args, text in [
    ("name too short", {"name": "ab", "schedules": [CRON]}, "name: length 2 is out of range (must be 3 to 63)"),
    ("name ending with a dash", {"name": "nightly-", "schedules": [CRON]}, "name: 'nightly-' does not match"),
    ("id 0", {"snapshot_schedule_id": 0}, "snapshot_schedule_id: 0 is out of range (must be at least 1)"),
    ("id not an integer", {"snapshot_schedule_id": "nightly"}, "snapshot_schedule_id"),
    ("neither id nor name", {"status": "paused"}, "one of the following is required: snapshot_schedule_id, name"),
    ("unknown status", {"name": "nightly", "status": "stopped"}, "status must be one of: active, paused"),
    ("unknown state", {"name": "nightly", "state": "gone"}, "state must be one of"),
    ("a schedule without a type", {"name": "nightly", "schedules": [{"hour": "2"}]}, "type"),
    ("an unknown schedule type", {"name": "nightly", "schedules": [{"type": "weekly"}]}, "type must be one of: cron, interval"),
    ("a cron hour the API refuses", {"name": "nightly", "schedules": [dict(CRON, hour="25")]},
     "schedules[0].hour: '25' is not an hour (0 to 23), '*' or a comma-separated list of them"),
    ("a cron minute step", {"name": "nightly", "schedules": [dict(CRON, minute="*/5")]}, "schedules[0].minute: '*/5' is not"),
    ("a cron day 0", {"name": "nightly", "schedules": [dict(CRON, day="0")]}, "schedules[0].day: '0' is not"),
    ("a cron month 13", {"name": "nightly", "schedules": [dict(CRON, month="1,13")]}, "schedules[0].month: '1,13' is not"),
    ("a cron week 54", {"name": "nightly", "schedules": [dict(CRON, week="54")]}, "schedules[0].week: '54' is not"),
    ("a day of the week", {"name": "nightly", "schedules": [dict(CRON, day_of_week="mon,funday")]},
     "schedules[0].day_of_week: 'mon,funday' is not a day of the week (mon, tue, wed, thu, fri, sat, sun)"),
    ("a time zone with a space", {"name": "nightly", "schedules": [dict(CRON, timezone="Europe/New York")]}, "schedules[0].timezone:"),
    ("both cron and interval", {"name": "nightly", "schedules": [dict(CRON, days=1)]},
     "schedules[0].days: an interval member, not accepted with type cron (a schedule is cron or interval, not both)"),
    ("both interval and cron", {"name": "nightly", "schedules": [{"type": "interval", "hours": 6, "minute": "0"}]},
     "schedules[0].minute: a cron member, not accepted with type interval"),
    ("an interval without a period", {"name": "nightly", "schedules": [{"type": "interval", "hours": 0}]},
     "schedules[0]: an interval schedule needs a period"),
    ("a negative interval", {"name": "nightly", "schedules": [{"type": "interval", "hours": -6}]}, "schedules[0].hours: -6 is out of range"),
    ("max_quantity 0", {"name": "nightly", "schedules": [dict(CRON, max_quantity=0)]},
     "schedules[0].max_quantity: 0 is out of range (must be 1 to 10000)"),
    ("max_quantity 10001", {"name": "nightly", "schedules": [dict(CRON, max_quantity=10001)]}, "schedules[0].max_quantity: 10001 is out of range"),
    ("a negative retention", {"name": "nightly", "schedules": [dict(CRON, retention_time={"days": -1})]},
     "schedules[0].retention_time.days: -1 is out of range (must be at least 0)"),
    ("a retention member unknown", {"name": "nightly", "schedules": [dict(CRON, retention_time={"months": 1})]}, "months"),
    ("a template placeholder unknown", {"name": "nightly", "schedules": [dict(CRON, resource_name_template="snap {name}")]},
     "schedules[0].resource_name_template: {name} is not a placeholder the service fills"),
    ("an empty template", {"name": "nightly", "schedules": [dict(CRON, resource_name_template=" ")]},
     "schedules[0].resource_name_template: must not be empty"),
    ("eleven schedules", {"name": "nightly", "schedules": [dict(CRON, minute=str(minute)) for minute in range(11)]},
     "schedules: at most 10 schedules (the service's limit), 11 given"),
    ("the same schedule twice", {"name": "nightly", "schedules": [CRON, dict(CRON, minute="0", timezone="UTC")]},
     "schedules[1]: the same schedule as schedules[0]"),
    ("an empty volume", {"name": "nightly", "volumes": [""]}, "volumes[0]: length 0"),
    ("a volume name with a slash", {"name": "nightly", "volumes": ["data/1"]}, "volumes[0]: 'data/1' does not match"),
    ("a volume given twice", {"name": "nightly", "volumes": [UUID, UUID.upper()]}, "volumes[1]: given twice (volumes[0] too)"),
    ("purge_volumes not a boolean", {"name": "nightly", "volumes": [], "purge_volumes": "maybe"}, "purge_volumes"),
    ("info: id and name", {"snapshot_schedule_id": 1, "name": "nightly"}, "mutually exclusive"),
    ("info: id 0", {"snapshot_schedule_id": 0}, "snapshot_schedule_id: 0 is out of range"),
    ("info: a name with a newline", {"name": "night\nly"}, "name:"),
]]


@pytest.mark.parametrize("what, module, args, text", PRODUCTION_CASES, ids=[case[0] for case in PRODUCTION_CASES])
def test_production_bad_input_fails_naming_the_option_and_sends_nothing(monkeypatch, what, module, args, text):
    with no_network() as attempts:
        result = run_module(module, args, monkeypatch)
    assert result.get("failed") is True, "%s: did not fail: %s" % (what, result)
    assert text in result.get("msg", ""), "%s: message does not name %s: %s" % (what, text, result.get("msg"))
    assert "Traceback" not in json.dumps(result) and "exception" not in result, result
    assert result.get("changed") in (None, False)
    assert attempts == [], "%s: bad input must send nothing, but a connection was attempted to %s" % (what, attempts)


# ---- issue 34: what the service would refuse is refused first ----
ED25519_BODY = "AAAAC3NzaC1lZDI1NTE5AAAAIAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB"  # an ed25519 key's base64 body
MONITOR = {"type": "HTTP", "delay": 10, "max_retries": 3, "timeout": 5}
BOOT = dict(IMAGE, boot_index=0)
REFUSED_FIRST_CASES = [("refused first: " + what, module, args, text) for what, module, args, text in [
    ("a PROMETHEUS listener with a pool", "load_balancer", lb_args({"protocol": "PROMETHEUS"}),
     "listeners[0].pool: a PROMETHEUS listener has no pool"),
    ("a UDP pool behind an HTTP listener", "load_balancer", lb_args({"pool": {"protocol": "UDP", "healthmonitor": None}}),
     "listeners[0].pool.protocol: a UDP pool does not fit an HTTP listener (it takes HTTP, PROXY or PROXYV2)"),
    ("an HTTP pool behind a UDP listener", "load_balancer", lb_args({"protocol": "UDP", "pool": {"healthmonitor": None}}),
     "listeners[0].pool.protocol: an HTTP pool does not fit a UDP listener (it takes UDP)"),
    ("expected_codes abc", "load_balancer", lb_args({"pool": {"healthmonitor": dict(MONITOR, expected_codes="abc")}}),
     "listeners[0].pool.healthmonitor.expected_codes: 'abc' is not"),
    ("expected_codes 600", "load_balancer", lb_args({"pool": {"healthmonitor": dict(MONITOR, expected_codes="200,600")}}),
     "listeners[0].pool.healthmonitor.expected_codes"),
    ("expected_codes a backwards range", "load_balancer", lb_args({"pool": {"healthmonitor": dict(MONITOR, expected_codes="302-300")}}),
     "listeners[0].pool.healthmonitor.expected_codes"),
    ("two boot volumes", "instance", instance_args({"volumes": [BOOT, dict(BOOT, image_name="debian-12")]}),
     "volumes[0] and volumes[1]: both have boot_index 0"),
    ("no bootable volume", "instance", instance_args({"volumes": [{"source": "new-volume", "size": 10}]}),
     "volumes: no volume is bootable"),
    ("only a volume marked not bootable", "instance", instance_args({"volumes": [dict(IMAGE, boot_index=-1)]}),
     "volumes: no volume is bootable"),
    ("a volume listed twice", "instance", instance_args({"volumes": [
        BOOT, {"source": "existing-volume", "volume_id": UUID}, {"source": "existing-volume", "volume_id": UUID.upper()}]}),
     "volumes[1] and volumes[2]: volume %s is listed twice" % UUID),
    ("username without password", "instance", instance_args({"username": "deploy"}), "username: needs password"),
    ("an instance volume above the maximum", "instance", instance_args({"volumes": [dict(IMAGE, size=10 ** 20)]}), "volumes[0].size"),
    ("an instance volume of 102401 GiB", "instance", instance_args({"volumes": [dict(IMAGE, size=102401)]}),
     "volumes[0].size: 102401 is out of range (must be 1 to 102400)"),
    ("a volume of 10^20 GiB", "volume", {"name": "data", "size": 10 ** 20}, "size: "),
    ("a volume of 102401 GiB", "volume", {"name": "data", "size": 102401}, "size: 102401 is out of range (must be 1 to 102400)"),
    ("project_id 10^30", "network", {"name": "app-net", "project_id": 10 ** 30}, "project_id: "),
    ("region_id 2^63", "network", {"name": "app-net", "region_id": 2 ** 63}, "region_id: "),
    ("project_id 10^30 of a key", "ssh_key", {"name": "k-1", "project_id": 10 ** 30}, "project_id: "),
    ("an int64 overflow in a nested option", "load_balancer", lb_args({"pool": {"healthmonitor": dict(MONITOR, delay=2 ** 64)}}),
     "listeners[0].pool.healthmonitor.delay"),
    ("an ssh-rsa prefix on an ed25519 body", "ssh_key", {"name": "k-1", "public_key": "ssh-rsa %s me@host" % ED25519_BODY},
     "public_key: its type is ssh-rsa but its body holds an ssh-ed25519 key"),
    ("a public key body cut before its type ends", "ssh_key", {"name": "k-1", "public_key": "ssh-ed25519 AAAAC3Nza"},
     "public_key: its body is not"),
    ("a group description of 256", "security_group", {"name": "web", "description": "d" * 256}, "description: length 256 is out of range"),
    ("a group description of 100000", "security_group", {"name": "web", "description": "d" * 100000}, "description: length 100000"),
    ("a request_rate path_pattern that is no regex", "waap_custom_rule",
     custom_rule_args({"conditions": [{"request_rate": {"path_pattern": "^/login(", "requests": 50, "time": 60}}]}),
     "conditions[0].request_rate.path_pattern: '^/login(' is not a valid regular expression"),
    ("a request_rate path_pattern that is no regex, in a set", "waap_custom_rules",
     {"domain_id": 1001, "config": [item(conditions=[{"request_rate": {"path_pattern": "[", "requests": 50, "time": 60}}])]},
     "config[0].conditions[0].request_rate.path_pattern"),
]]


@pytest.mark.parametrize("what, module, args, text", REFUSED_FIRST_CASES, ids=[case[0] for case in REFUSED_FIRST_CASES])
def test_what_the_service_would_refuse_is_refused_first(monkeypatch, what, module, args, text):
    with no_network() as attempts:
        result = run_module(module, args, monkeypatch)
    assert result.get("failed") is True, "%s: did not fail: %s" % (what, result)
    assert text in result.get("msg", ""), "%s: message does not name %s: %s" % (what, text, result.get("msg"))
    assert "Traceback" not in json.dumps(result) and "exception" not in result, result
    assert result.get("changed") in (None, False)
    assert attempts == [], "%s: bad input must send nothing, but a connection was attempted to %s" % (what, attempts)


FLOATING_IP_INFO_CASES = [("floating_ip_info: " + what, "floating_ip_info", args, text) for what, args, text in [
    ("an id not a UUID", {"floating_ip_id": "fip-1"}, "floating_ip_id: 'fip-1' is not a UUID"),
    ("an address that is not one", {"address": "203.0.113.256"}, "address: '203.0.113.256' is not an IPv4 or IPv6 address"),
    ("an instance name with a slash", {"instance": "web/1"}, "instance: "),
    ("an empty instance", {"instance": ""}, "instance: "),
    ("an unknown status", {"status": "UP"}, "status must be one of: ACTIVE, DOWN, ERROR"),
    ("a name: floating IPs have none", {"name": "fip"}, "Unsupported parameters"),
]]


@pytest.mark.parametrize("what, module, args, text", FLOATING_IP_INFO_CASES, ids=[case[0] for case in FLOATING_IP_INFO_CASES])
def test_floating_ip_info_bad_input_fails_naming_the_option_and_sends_nothing(monkeypatch, what, module, args, text):
    with no_network() as attempts:
        result = run_module(module, args, monkeypatch)
    assert result.get("failed") is True, "%s: did not fail: %s" % (what, result)
    assert text in result.get("msg", ""), "%s: message does not name %s: %s" % (what, text, result.get("msg"))
    assert "Traceback" not in json.dumps(result) and attempts == []


# ---- issue 48: baremetal_server and baremetal_server_info ----
METAL = {"name": "bm-1", "flavor": "bm1-basic-small", "image": "ubuntu-22.04-x64", "interfaces": EXTERNAL}
BAREMETAL_CASES = [("baremetal: " + what, module, args, text) for what, module, args, text in [
    ("name too short", "baremetal_server", dict(METAL, name="ab"), "name: length 2 is out of range"),
    ("name ending with a dash", "baremetal_server", dict(METAL, name="bm-"), "name: 'bm-' does not match"),
    ("id not a UUID", "baremetal_server", {"server_id": "bm-1"}, "server_id: 'bm-1' is not a UUID"),
    ("neither id nor name", "baremetal_server", {"flavor": "bm1-basic-small"}, "one of the following is required: server_id, name"),
    ("an empty flavor", "baremetal_server", dict(METAL, flavor=""), "flavor: length 0"),
    ("an empty image", "baremetal_server", dict(METAL, image=""), "image: length 0"),
    ("an image and an application template", "baremetal_server", dict(METAL, apptemplate="wordpress"),
     "parameters are mutually exclusive: image|apptemplate"),
    ("an application template of 256", "baremetal_server", {"name": "bm-1", "apptemplate": "a" * 256}, "apptemplate: length 256"),
    ("no interface", "baremetal_server", dict(METAL, interfaces=[]), "interfaces: at least one interface is required"),
    ("an interface with security groups", "baremetal_server", dict(METAL, interfaces=[{"type": "external", "security_groups": [{"id": UUID}]}]),
     "security_groups"),
    ("a port group of 4", "baremetal_server", dict(METAL, interfaces=[{"type": "external", "port_group": 4}]),
     "interfaces[0].port_group: 4 is out of range"),
    ("a negative port group", "baremetal_server", dict(METAL, interfaces=[{"type": "external", "port_group": -1}]),
     "interfaces[0].port_group: -1 is out of range"),
    ("an unknown interface type", "baremetal_server", dict(METAL, interfaces=[{"type": "vlan"}]), "type must be one of"),
    ("a subnet interface without its subnet", "baremetal_server", dict(METAL, interfaces=[{"type": "subnet", "network": "net-1"}]),
     "interfaces[0].subnet_id: required for type subnet"),
    ("a network by id and by name", "baremetal_server", dict(METAL, interfaces=[{"type": "any_subnet", "network": "n-1", "network_id": NET}]),
     "interfaces[0]: network_id and network are mutually exclusive"),
    ("a floating IP on an external interface", "baremetal_server", dict(METAL, interfaces=[{"type": "external", "floating_ip": {"source": "new"}}]),
     "interfaces[0].floating_ip: not allowed for type external"),
    ("an existing floating IP without its id", "baremetal_server",
     dict(METAL, interfaces=[{"type": "subnet", "network_id": NET, "subnet_id": SUBNET, "floating_ip": {"source": "existing"}}]),
     "interfaces[0].floating_ip.existing_floating_id: required when source is existing"),
    ("an address that is not one", "baremetal_server", dict(METAL, interfaces=[{"type": "any_subnet", "network_id": NET, "ip_address": "10.0.0.300"}]),
     "interfaces[0].ip_address: '10.0.0.300' is not an IPv4 or IPv6 address"),
    ("an interface name of 38", "baremetal_server", dict(METAL, interfaces=[{"type": "external", "interface_name": "i" * 38}]),
     "interfaces[0].interface_name: length 38"),
    ("an empty ssh_key", "baremetal_server", dict(METAL, ssh_key=""), "ssh_key: length 0"),
    ("a username without a password", "baremetal_server", dict(METAL, username="admin"), "username: needs password"),
    ("an empty username", "baremetal_server", dict(METAL, username="", password="secret-1"), "username: length 0"),
    ("state restarted", "baremetal_server", dict(METAL, state="restarted"), "state must be one of: present, started, stopped, absent"),
    ("a wait_timeout of 0", "baremetal_server", dict(METAL, wait_timeout=0), "wait_timeout: 0 is out of range"),
    ("a tag key with '='", "baremetal_server", dict(METAL, tags={"a=b": "c"}), "tags: key 'a=b'"),
    ("purge_tags not a boolean", "baremetal_server", dict(METAL, purge_tags="maybe"), "purge_tags"),
    ("allow_rebuild not a boolean", "baremetal_server", dict(METAL, allow_rebuild="maybe"), "allow_rebuild"),
    ("delete_floating_ips not a boolean", "baremetal_server", {"name": "bm-1", "state": "absent", "delete_floating_ips": "maybe"},
     "delete_floating_ips"),
    ("volumes are not an option", "baremetal_server", dict(METAL, volumes=[]), "Unsupported parameters"),
    ("info: id and name", "baremetal_server_info", {"server_id": UUID, "name": "bm-1"}, "mutually exclusive"),
    ("info: id not a UUID", "baremetal_server_info", {"server_id": "bm-1"}, "server_id: 'bm-1' is not a UUID"),
    ("info: an unknown status", "baremetal_server_info", {"status": "PAUSED"}, "status must be one of"),
    ("info: flavors not a boolean", "baremetal_server_info", {"flavors": "maybe"}, "flavors"),
    ("info: a name with a newline", "baremetal_server_info", {"name": "bm\n1"}, "name:"),
]]


@pytest.mark.parametrize("what, module, args, text", BAREMETAL_CASES, ids=[case[0] for case in BAREMETAL_CASES])
def test_baremetal_bad_input_fails_naming_the_option_and_sends_nothing(monkeypatch, what, module, args, text):
    with no_network() as attempts:
        secret = module == "baremetal_server" and "username" not in args  # a password given alongside shows nowhere
        result = run_module(module, dict(args, password="never-shown-9") if secret else args, monkeypatch)
    assert result.get("failed") is True, "%s: did not fail: %s" % (what, result)
    assert text in result.get("msg", ""), "%s: message does not name %s: %s" % (what, text, result.get("msg"))
    assert "Traceback" not in json.dumps(result) and "exception" not in result, result
    assert "never-shown-9" not in json.dumps(result) and result.get("changed") in (None, False)
    assert attempts == [], "%s: bad input must send nothing, but a connection was attempted to %s" % (what, attempts)


# ---- issue 47: k8s_cluster and k8s_cluster_info: every option's bad values, refused before any request ----
K8S_POOL = {"name": "workers", "flavor_id": "g1-standard-2-4", "min_node_count": 1, "max_node_count": 3}


def k8s(**changes):
    return dict({"name": "prod", "version": "v1.31.1", "keypair": "deploy", "pools": [K8S_POOL]}, **changes)


def k8s_pool(**changes):
    return k8s(pools=[dict(K8S_POOL, **changes)])


K8S_CASES = [("k8s: " + what, module, args, text) for what, module, args, text in [
    ("no name", "k8s_cluster", {"version": "v1.31.1"}, "missing required arguments: name"),
    ("an upper-case name", "k8s_cluster", k8s(name="Prod"), "name: 'Prod' does not match 2 to 20 lower-case"),
    ("a name of one letter", "k8s_cluster", k8s(name="p"), "name: 'p' does not match"),
    ("a name of 21", "k8s_cluster", k8s(name="p" * 21), "name: '%s' does not match" % ("p" * 21)),
    ("a name ending with a dash", "k8s_cluster", k8s(name="prod-"), "name: 'prod-' does not match"),
    ("an unknown state", "k8s_cluster", k8s(state="gone"), "state must be one of"),
    ("a version that is none", "k8s_cluster", k8s(version="latest"), "version: 'latest' does not match a Kubernetes version"),
    ("allow_upgrade not a boolean", "k8s_cluster", k8s(allow_upgrade="maybe"), "allow_upgrade"),
    ("a keypair of two characters", "k8s_cluster", k8s(keypair="ab"), "keypair: length 2 is out of range"),
    ("a subnet without its network", "k8s_cluster", k8s(fixed_subnet="sub-1"), "fixed_subnet: needs fixed_network"),
    ("a pods pool with host bits", "k8s_cluster", k8s(pods_ip_pool="10.0.0.1/16"), "pods_ip_pool: 10.0.0.1/16 is not an IPv4 network"),
    ("a services pool of IPv6", "k8s_cluster", k8s(services_ip_pool="fd00::/64"), "services_ip_pool: fd00::/64 is not an IPv4 network"),
    ("an unknown CNI provider", "k8s_cluster", k8s(cni={"provider": "flannel"}), "cni.provider: is calico or cilium"),
    ("cilium settings on calico", "k8s_cluster", k8s(cni={"provider": "calico", "cilium": {"encryption": True}}),
     "cni.provider: is calico or cilium (cilium settings need cilium)"),
    ("an OIDC issuer over http", "k8s_cluster", k8s(authentication={"oidc": {"issuer_url": "http://id.example.com"}}),
     "authentication.oidc.issuer_url: must be an https URL"),
    ("authentication without oidc", "k8s_cluster", k8s(authentication={"ldap": {}}), "authentication: takes oidc"),
    ("an autoscaler value not a string", "k8s_cluster", k8s(autoscaler_config={"scan-interval": 15}),
     "autoscaler_config.scan-interval: must be a string"),
    ("a logging topic in capitals", "k8s_cluster", k8s(logging={"enabled": True, "topic_name": "K8s Logs"}), "logging.topic_name"),
    ("a retention of 0 days", "k8s_cluster", k8s(logging={"retention_policy": {"period": 0}}), "logging.retention_policy.period: 0 is out of range"),
    ("an unknown logging member", "k8s_cluster", k8s(logging={"level": "debug"}), "logging: takes enabled"),
    ("an unknown add-on", "k8s_cluster", k8s(add_ons={"istio": {}}), "add_ons: takes slurm"),
    ("a slurm share not a UUID", "k8s_cluster", k8s(add_ons={"slurm": {"enabled": True, "file_share_id": "share-1"}}), "add_ons.slurm"),
    ("no pool", "k8s_cluster", k8s(pools=[]), "pools: a cluster keeps at least one pool"),
    ("a pool without a name", "k8s_cluster", k8s(pools=[{"flavor_id": "g1-standard-2-4"}]), "name"),
    ("a pool given twice", "k8s_cluster", k8s(pools=[K8S_POOL, K8S_POOL]), "pools[1].name: pool workers is given twice"),
    ("a pool name with an underscore", "k8s_cluster", k8s_pool(name="pool_1"), "pools[0].name: 'pool_1' does not match"),
    ("a minimum of 0", "k8s_cluster", k8s_pool(min_node_count=0), "pools[0].min_node_count: 0 is out of range (must be 1 to 200)"),
    ("a maximum of 201", "k8s_cluster", k8s_pool(max_node_count=201), "pools[0].max_node_count: 201 is out of range"),
    ("a node count of 0", "k8s_cluster", k8s_pool(node_count=0), "pools[0].node_count: 0 is out of range"),
    ("a minimum above the maximum", "k8s_cluster", k8s_pool(min_node_count=4), "pools[0].max_node_count: must be at least min_node_count (4)"),
    ("a node count above the maximum", "k8s_cluster", k8s_pool(node_count=5), "pools[0].node_count: must be between min_node_count and max_node_count"),
    ("a boot volume of 5 GiB", "k8s_cluster", k8s_pool(boot_volume_size=5), "pools[0].boot_volume_size: 5 is out of range (must be 10 to 2000)"),
    ("an unknown boot volume type", "k8s_cluster", k8s_pool(boot_volume_type="ssd"), "boot_volume_type must be one of"),
    ("an unknown server group policy", "k8s_cluster", k8s_pool(servergroup_policy="spread"), "servergroup_policy must be one of"),
    ("public IPv4 not a boolean", "k8s_cluster", k8s_pool(is_public_ipv4="maybe"), "is_public_ipv4"),
    ("auto healing not a boolean", "k8s_cluster", k8s_pool(auto_healing_enabled="maybe"), "auto_healing_enabled"),
    ("a label not a string", "k8s_cluster", k8s_pool(labels={"tier": 1}), "pools[0].labels.tier: must be a string"),
    ("a taint without its effect", "k8s_cluster", k8s_pool(taints={"dedicated": "batch"}), "pools[0].taints.dedicated: a taint is 'value:Effect'"),
    ("a kubelet value not a string", "k8s_cluster", k8s_pool(kubelet_config={"podMaxPids": 4096}), "pools[0].kubelet_config.podMaxPids"),
    ("a crio value not a string", "k8s_cluster", k8s_pool(crio_config={"pids_limit": True}), "pools[0].crio_config.pids_limit"),
    ("an unknown pool member", "k8s_cluster", k8s_pool(size=3), "size"),
    ("purge_pools not a boolean", "k8s_cluster", k8s(purge_pools="maybe"), "purge_pools"),
    ("a kubeconfig path that is a directory", "k8s_cluster", k8s(kubeconfig_path="/"), "kubeconfig_path: is a directory"),
    ("a kubeconfig path in no directory", "k8s_cluster", k8s(kubeconfig_path="/no/such/dir/kubeconfig"),
     "kubeconfig_path: its directory /no/such/dir does not exist"),
    ("a wait_timeout of 0", "k8s_cluster", k8s(wait_timeout=0), "wait_timeout: 0 is out of range"),
    ("info: an upper-case name", "k8s_cluster_info", {"name": "Prod"}, "name: 'Prod' does not match"),
    ("info: a kubeconfig without a name", "k8s_cluster_info", {"kubeconfig_path": "/tmp/k"}, "missing parameter(s) required by 'kubeconfig_path': name"),
    ("info: versions not a boolean", "k8s_cluster_info", {"versions": "maybe"}, "versions"),
    ("info: a kubeconfig path in no directory", "k8s_cluster_info", {"name": "prod", "kubeconfig_path": "/no/such/dir/k"},
     "kubeconfig_path: its directory /no/such/dir does not exist"),
]]


@pytest.mark.parametrize("what, module, args, text", K8S_CASES, ids=[case[0] for case in K8S_CASES])
def test_k8s_bad_input_fails_naming_the_option_and_sends_nothing(monkeypatch, what, module, args, text):
    with no_network() as attempts:
        result = run_module(module, args, monkeypatch)
    assert result.get("failed") is True, "%s: did not fail: %s" % (what, result)
    assert text in result.get("msg", ""), "%s: message does not name %s: %s" % (what, text, result.get("msg"))
    assert "Traceback" not in json.dumps(result) and "exception" not in result and attempts == []
