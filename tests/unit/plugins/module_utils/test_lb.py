# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A load balancer's listeners and pools alone (``_lb`` and the load_balancer module's ``POOLS``), no module, no HTTP:
the record expanded from two listings, a key given twice failing naming both, a member checked and canonical, and the
writes of a listener's pool (its health monitor nested: one retyped deleted first and created last; its members one PUT;
a pool's create made when sent with its listener's id), each saying what the module's ``changes`` tell."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._lb import check_member, distinct, expand
from ansible_collections.gcore.platform.plugins.modules.load_balancer import POOLS

PARAMS = {"project_id": 1, "region_id": 76}
MONITOR = {"type": "HTTP", "delay": 10, "max_retries": 3, "timeout": 5, "max_retries_down": None, "url_path": None, "expected_codes": None,
           "http_method": None}


def member(address, port=80, **more):
    return dict({"address": address, "instance": None, "protocol_port": port, "weight": 1, "subnet_id": None, "instance_id": None,
                 "backup": False, "admin_state_up": True}, **more)


def pool(**more):
    return dict({"name": "web-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP", "members": [member("10.0.0.1")],
                 "healthmonitor": dict(MONITOR), "session_persistence": None}, **more)


def held(**more):
    """The pool record as the service returns it (its health monitor's other members filled)."""
    return dict({"id": "p-1", "name": "web-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP", "session_persistence": None,
                 "members": [{"address": "10.0.0.1", "protocol_port": 80, "weight": 1, "subnet_id": "s-1"}],
                 "healthmonitor": dict(MONITOR, id="m-1")}, **more)


def test_the_record_is_expanded_from_one_listing_of_listeners_and_one_of_pools():
    calls = []

    def get(path, query=None):
        calls.append((path, query))
        if "lblisteners" in path:
            return [{"id": "l-1", "name": "http", "protocol": "HTTP"}, {"id": "l-2", "name": "tcp", "protocol": "TCP"}]
        return [{"id": "p-1", "listeners": [{"id": "l-1"}]}]
    record = expand(get, PARAMS, {"id": "lb-1", "listeners": [{"id": "l-1"}, {"id": "l-2"}]})
    assert [(listener["name"], (listener["pool"] or {}).get("id")) for listener in record["listeners"]] == [("http", "p-1"), ("tcp", None)]
    assert calls == [("/cloud/v1/lblisteners/1/76", {"load_balancer_id": "lb-1"}),
                     ("/cloud/v1/lbpools/1/76", {"load_balancer_id": "lb-1", "details": "true"})]
    assert expand(get, PARAMS, record) is record and len(calls) == 2  # expanded already: not read again


def test_a_key_given_twice_fails_naming_both_and_none_is_not_compared():
    with pytest.raises(ValidationError, match=r"^listeners\[0\] and listeners\[2\]: each listener must have its own name; a is given twice$"):
        distinct("listeners", [{"name": "a"}, {"name": "b"}, {"name": "a"}], "listener", "name")
    distinct("members", [{"name": None}, {"name": None}], "member", "name")


def test_a_member_is_checked_and_canonical():
    given = member("2001:DB8::1", subnet_id="0B3E1E4C-5C3D-4A8E-9D6F-2F6B8E1A7C90")
    check_member("members[0]", given)
    assert given["address"] == "2001:db8::1" and given["subnet_id"] == "0b3e1e4c-5c3d-4a8e-9d6f-2f6b8e1a7c90"
    with pytest.raises(ValidationError, match=r"^members\[0\]: give exactly one of address and instance"):
        check_member("members[0]", member("10.0.0.1", instance="web-1"))


def test_a_kept_pool_sends_its_monitor_delete_its_patch_its_members_then_its_new_monitor():
    item = {"name": "http", "pool": pool(lb_algorithm="LEAST_CONNECTIONS", members=[member("10.0.0.1"), member("10.0.0.2")],
                                         healthmonitor=dict(MONITOR, type="TCP"))}
    writes = POOLS.of(item, {"id": "l-1", "name": "http", "pool": held()}, PARAMS)
    assert [(write.method, write.path) for write in writes] == [
        ("DELETE", "/cloud/v1/lbpools/1/76/p-1/healthmonitor"), ("PATCH", "/cloud/v2/lbpools/1/76/p-1"),
        ("PUT", "/cloud/v1/loadbalancers/1/76/pools/p-1/members"), ("POST", "/cloud/v1/lbpools/1/76/p-1/healthmonitor")]
    assert writes[1].body == {"lb_algorithm": "LEAST_CONNECTIONS"}
    assert [body["address"] for body in writes[2].body] == ["10.0.0.1", "10.0.0.2"]
    assert writes[1].said == {"listeners.updated": ["http"]}
    assert writes[2].said == {"listeners.updated": ["http"], "members.added": ["10.0.0.2:80"], "members.removed": []}
    after = [{"name": "http", "pool": held(lb_algorithm="LEAST_CONNECTIONS")}]
    assert writes[1].done(after) and not writes[2].done(after)  # each judged by the listener's pool read again


def test_a_pool_left_out_is_deleted_and_a_pool_created_names_its_listener_when_sent():
    deleted = POOLS.of({"name": "http", "pool": None}, {"id": "l-1", "name": "http", "pool": held()}, PARAMS)
    assert [(write.method, write.path, write.said) for write in deleted] == [
        ("DELETE", "/cloud/v1/lbpools/1/76/p-1", {"listeners.updated": ["http"], "members.added": [], "members.removed": ["10.0.0.1:80"]})]
    created = POOLS.of({"name": "http", "pool": pool(healthmonitor=None)}, None, PARAMS)  # the listener created in this run
    assert [(write.method, write.path) for write in created] == [("POST", "/cloud/v1/lbpools/1/76")]
    assert created[0].said == {"members.added": ["10.0.0.1:80"], "members.removed": []}
    assert created[0].body_of([{"id": "l-9", "name": "http"}])["listener_id"] == "l-9"
    assert POOLS.of({"name": "http", "pool": pool()}, {"id": "l-1", "name": "http", "pool": held()}, PARAMS) == []
