# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""instance and instance_info, in process against the simulator over HTTP: create (image and security group names
resolved first, user data base64, BUILD then ACTIVE), a second run sends nothing, check mode, diff, create-only
options refused, security groups as a set (adds first), the flavor change guard, power states, delete with its
query, BUILD past wait_timeout, ERROR; instance_info by id, name, filters and every page. No sleeps: the simulator
holds and releases its tasks."""

from __future__ import annotations

import base64
import json
import pathlib
from urllib.parse import parse_qs

import pytest
import yaml

from ansible_collections.gcore.platform.plugins.doc_fragments.instance import ModuleDocFragment
from ansible_collections.gcore.platform.plugins.module_utils._addresses import classify_addresses
from ansible_collections.gcore.platform.plugins.modules import instance, instance_info, instances
from simulator.resources.instances import FALLBACK_GROUPS, IMAGE_IDS

import harness
from harness import writes

BASE = "/cloud/v1/instances/1/76"
CREATE = "/cloud/v2/instances/1/76"
NET, SUBNET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01", "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3b01"
ARGS = dict(project_id=1, region_id=76, name="srv-1", flavor="g1-standard-2-4",
            volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0},
                     {"source": "new-volume", "size": 20, "type_name": "ssd_hiiops"}],
            interfaces=[{"type": "external"}, {"type": "subnet", "network_id": NET, "subnet_id": SUBNET, "floating_ip": {"source": "new"}}])


def run(server, module=instance, **args):
    return harness.run(server, module, dict(ARGS, **args) if module is instance else args)


def created(server, **args):
    result = run(server, **args)
    assert result["changed"] is True and not result.get("failed"), result.get("msg")
    server.log = []
    return result["instance"]


def record(server, ident):
    return server.call("GET", "%s/%s" % (BASE, ident))[1]


def paths(server):
    return [(method, path.rsplit("/", 1)[-1]) for method, path, _body in writes(server)]


def test_create_resolves_names_first_sends_one_create_and_waits_for_active(server):
    server.hold()
    server.configure(instances_boot_held=True)
    # the create task is let go once the module has seen it running; the boot once it has seen the instance BUILD
    server.release(after={"method": "GET", "path": "^/cloud/v1/tasks/", "times": 1})
    server.release(after={"method": "GET", "path": "^%s/[^/]+$" % BASE, "times": 1})
    result = run(server, wait_timeout=60, security_groups=["legacy-sg"], ssh_key_name="deploy", user_data="#cloud-config\npackages: [nginx]\n",
                 password="s3cret-Passw0rd", tags={"env": "prod"})
    assert not result.get("failed"), result.get("msg")
    (method, path, body), = writes(server)
    assert (method, path) == ("POST", CREATE)
    assert body["name"] == "srv-1" and body["flavor"] == "g1-standard-2-4"
    assert body["volumes"][0] == {"source": "image", "image_id": IMAGE_IDS["ubuntu-22.04"], "size": 10, "boot_index": 0}
    assert body["security_groups"] == [{"id": FALLBACK_GROUPS[0][0]}]
    assert base64.b64decode(body["user_data"]).decode() == "#cloud-config\npackages: [nginx]\n"
    assert body["password"] == "s3cret-Passw0rd" and body["tags"] == {"env": "prod"}
    assert "s3cret-Passw0rd" not in json.dumps(result)
    order = [(entry["method"], entry["path"]) for entry in server.requests()]
    post = order.index(("POST", CREATE))
    assert order.index(("GET", "/cloud/v1/images/1/76")) < post and order.index(("GET", "/cloud/v1/securitygroups/1/76")) < post
    assert result["changed"] is True and result["instance"]["status"] == "ACTIVE"
    assert len(result["tasks"]) == 1
    assert result["addresses"]["floating_ipv4"] and result["addresses"]["private_ipv4"][0].startswith("192.168.10.")
    assert result["addresses"]["public_ipv4"][0].startswith("198.51.100.")
    listed = server.call("GET", BASE, query="name=srv-1")[1]["results"]
    assert [item["id"] for item in listed] == [result["instance"]["id"]]  # the inventory's listing shows it


def test_the_addresses_are_classified_by_the_helper_the_inventory_uses(server):
    # the inventory plugin is not imported here: loading controller code changes where module warnings go
    source = (pathlib.Path(instance.__file__).parents[1] / "inventory" / "cloud.py").read_text()
    assert "from ansible_collections.gcore.platform.plugins.module_utils._addresses import classify_addresses" in source
    result = run(server)
    found = classify_addresses(result["instance"]["addresses"])
    assert dict((key, found["gcore_" + key]) for key in result["addresses"]) == result["addresses"]
    assert result["addresses"]["floating_ipv4"][0] in result["addresses"]["public_ipv4"]


def test_a_second_run_sends_no_write(server):
    created(server, security_groups=["legacy-sg"], tags={"env": "prod"}, ssh_key_name="deploy")
    again = run(server, security_groups=["legacy-sg"], tags={"env": "prod"}, ssh_key_name="deploy", state="started")
    assert again["changed"] is False and writes(server) == []
    assert again["changes"] == {"security_groups": {"added": [], "removed": []}}


def test_check_mode_sends_nothing_and_diff_shows_the_new_instance(server):
    result = run(server, _ansible_check_mode=True, _ansible_diff=True, tags={"env": "prod"}, security_groups=["legacy-sg"])
    assert result["changed"] is True and writes(server) == [] and result["instance"] is None
    assert result["diff"]["before"] == {"state": "absent"}
    assert result["diff"]["after"] == {
        "state": "present", "name": "srv-1", "tags": {"env": "prod"}, "flavor": "g1-standard-2-4", "security_groups": [{"name": "legacy-sg"}],
        "image": "ubuntu-22.04", "user_data": "not set", "password": "not set",  # what the create makes (issue 35)
        "volumes": [{"source": "image", "image_name": "ubuntu-22.04", "size": 10, "boot_index": 0},
                    {"source": "new-volume", "size": 20, "type_name": "ssd_hiiops"}],
        "interfaces": [{"type": "external"}, {"type": "subnet", "network_id": NET, "subnet_id": SUBNET, "floating_ip": "new"}]}


def test_diff_of_an_update_shows_only_what_is_managed(server):
    created(server, tags={"env": "prod", "team": "a"})
    result = run(server, _ansible_diff=True, tags={"env": "dev"}, state="stopped")
    assert result["changed"] is True
    assert result["diff"]["before"]["tags"] == {"env": "prod", "team": "a"} and result["diff"]["after"]["tags"]["env"] == "dev"
    assert (result["diff"]["before"]["status"], result["diff"]["after"]["status"]) == ("ACTIVE", "SHUTOFF")
    assert "password" not in json.dumps(result["diff"])
    assert [(method, body) for method, _path, body in writes(server)] == [
        ("PATCH", {"tags": {"env": "dev", "team": None}}), ("POST", {"action": "stop"})]


@pytest.mark.parametrize("change, words", [
    (dict(ssh_key_name="other-key"), "ssh_key_name: instance %s has ssh_key_name 'deploy', not 'other-key'"),
    (dict(flavor="g1-standard-4-8"), "flavor: instance %s has flavor 'g1-standard-2-4', not 'g1-standard-4-8'"),
])
def test_create_only_options_that_differ_fail_before_any_write(server, change, words):
    ident = created(server, ssh_key_name="deploy")["id"]
    result = run(server, **change)
    assert result["failed"] is True and result["changed"] is False
    assert words % ident in result["msg"] and "nothing was sent" in result["msg"]
    assert writes(server) == []


def test_options_used_at_create_only_are_not_compared(server):
    created(server, user_data="a", password="first-Passw0rd")
    result = run(server, user_data="b", password="other-Passw0rd", volumes=[{"source": "image", "image_name": "ubuntu-22.04", "size": 5}],
                 interfaces=[{"type": "external"}])
    assert result["changed"] is False and writes(server) == []


def test_security_groups_are_a_set_adds_before_removes(server):
    ident = created(server)["id"]
    assert record(server, ident)["security_groups"] == [{"name": "default"}]
    result = run(server, security_groups=["legacy-sg"], _ansible_diff=True)
    assert result["changed"] is True
    assert paths(server) == [("POST", "addsecuritygroup"), ("POST", "delsecuritygroup")]
    assert [body for _method, _path, body in writes(server)] == [{"name": "legacy-sg"}, {"name": "default"}]
    assert result["changes"] == {"security_groups": {"added": ["legacy-sg"], "removed": ["default"]}}
    assert result["instance"]["security_groups"] == [{"name": "legacy-sg"}]
    server.log = []
    checked = run(server, security_groups=[], _ansible_check_mode=True)
    assert checked["changes"] == {"security_groups": {"added": [], "removed": ["legacy-sg"]}} and writes(server) == []
    assert run(server, security_groups=["legacy-sg"])["changed"] is False and writes(server) == []


def test_a_security_group_named_twice_fails_naming_both_indices():
    msg = harness.fail_message(instance, dict(ARGS, security_groups=["legacy-sg", "legacy-sg"]))
    assert "security_groups[0] and security_groups[1]" in msg


@pytest.mark.parametrize("groups, words", [(["shared-sg"], "2 security groups of project 1, region 76 are named 'shared-sg'"),
                                           (["nope-sg"], "security_groups: no security group is named 'nope-sg' in project 1, region 76")])
def test_security_group_names_must_match_exactly_one_group_before_a_create(server, groups, words):
    result = run(server, security_groups=groups)
    assert result["failed"] is True and words in result["msg"] and writes(server) == []


@pytest.mark.parametrize("name, words", [
    ("debian-12", "2 active images of project 1, region 76 are named 'debian-12' (ids %s, %s)" % tuple(IMAGE_IDS["debian-12"])),
    ("centos-7", "the image 'centos-7' of project 1, region 76 is deactivated (id "),
    ("ubuntu", "0 active images"),
])
def test_an_image_name_resolves_to_exactly_one_active_image_before_any_write(server, name, words):
    result = run(server, volumes=[{"source": "image", "image_name": name}])
    assert result["failed"] is True and result["changed"] is False and words in result["msg"]
    assert writes(server) == []


def test_a_flavor_change_needs_allow_resize_and_comes_back_in_the_status_it_had(server):
    ident = created(server, state="stopped")["id"]
    server.log = []
    result = run(server, flavor="g1-standard-4-8", allow_resize=True)
    assert result["changed"] is True and paths(server) == [("POST", "changeflavor")]
    assert writes(server)[0][2] == {"flavor_id": "g1-standard-4-8"}
    assert (result["instance"]["flavor"]["flavor_name"], result["instance"]["status"]) == ("g1-standard-4-8", "SHUTOFF")
    assert record(server, ident)["status"] == "SHUTOFF"


def test_power_states_send_an_action_only_when_the_status_differs(server):
    ident = created(server)["id"]
    stopped = run(server, state="stopped")
    assert stopped["changed"] is True and stopped["instance"]["status"] == "SHUTOFF"
    assert [body for _m, _p, body in writes(server)] == [{"action": "stop"}]
    server.log = []
    assert run(server, state="stopped")["changed"] is False and writes(server) == []
    assert run(server, state="present")["changed"] is False and writes(server) == []
    started = run(server, state="started")
    assert started["changed"] is True and [body for _m, _p, body in writes(server)] == [{"action": "start"}]
    server.log = []
    for _run in range(2):  # restarted: a reboot on every run
        restarted = run(server, state="restarted")
        assert restarted["changed"] is True and restarted["instance"]["status"] == "ACTIVE"
    assert [body for _m, _p, body in writes(server)] == [{"action": "reboot"}, {"action": "reboot"}]
    assert record(server, ident)["status"] == "ACTIVE"


def test_stopped_creates_then_stops_and_restarted_does_not_reboot_a_new_instance(server):
    result = run(server, state="stopped")
    assert result["instance"]["status"] == "SHUTOFF"
    assert [(method, body.get("action") if body else None) for method, _path, body in writes(server)] == [("POST", None), ("POST", "stop")]
    assert len(result["tasks"]) == 2
    server.log = []
    result = run(server, name="srv-2", state="restarted")
    assert result["changed"] is True and paths(server) == [("POST", "76")]


def test_stopped_without_wait_cannot_create(server):
    result = run(server, state="stopped", wait=False)
    assert result["failed"] is True and "needs wait=true" in result["msg"] and writes(server) == []


def test_wait_false_returns_the_task_and_no_record(server):
    server.hold()
    result = run(server, wait=False)
    assert result["changed"] is True and result["instance"] is None and len(result["tasks"]) == 1
    assert server.requests(path="^/cloud/v1/tasks/") == []


def test_absent_deletes_with_floating_ips_and_every_volume_the_service_would_keep(server):
    server.call("POST", CREATE, {"name": "srv-1", "flavor": "g1-standard-2-4", "interfaces": [{"type": "external"}],
                                 "volumes": [{"source": "new-volume", "size": 1, "delete_on_termination": True},
                                             {"source": "new-volume", "size": 2}, {"source": "new-volume", "size": 3}]})
    listed = server.call("GET", BASE, query="name=srv-1")[1]["results"][0]
    kept = [volume["id"] for volume in listed["volumes"] if not volume["delete_on_termination"]]
    server.log = []
    result = run(server, state="absent", delete_floating_ips=True, delete_volumes=True)
    assert result["changed"] is True and result["instance"] is None
    (entry,) = server.writes()
    assert (entry["method"], entry["path"]) == ("DELETE", "%s/%s" % (BASE, listed["id"]))
    assert parse_qs(entry["query"]) == {"volumes": [",".join(kept)]}  # no floating IP: none named
    assert result["deleted"] == {"volumes": [volume["id"] for volume in listed["volumes"]], "floating_ips": []}
    assert result["left"] == {"volumes": [], "floating_ips": []} and not harness.warning_texts(result)
    assert record(server, listed["id"])["exception_class"] == "NotFound"
    server.log = []
    assert run(server, state="absent")["changed"] is False and writes(server) == []
    unknown = run(server, state="absent", instance_id="6C26051A-4760-4D56-9B3F-B97CCBB860C7", name=None)
    assert unknown["changed"] is False and writes(server) == []


def test_absent_without_the_delete_options_sends_no_query_and_says_what_is_left(server):
    made = created(server)
    fips = [item for item in server.call("GET", "/cloud/v1/floatingips/1/76")[1]["results"] if (item["instance"] or {}).get("id") == made["id"]]
    volumes = [volume["id"] for volume in made["volumes"]]
    preview = run(server, state="absent", _ansible_check_mode=True, _ansible_diff=True)
    assert preview["changed"] is True and writes(server) == [] and preview["left"]["volumes"] == volumes
    assert preview["diff"]["before"]["deleted_with_it"] == {"volumes": [], "floating_ips": []}
    assert harness.warning_texts(preview)[0].startswith("instance %s would be deleted; left: volumes" % made["id"])
    result = run(server, state="absent")
    assert [entry["query"] for entry in server.writes()] == [""]
    assert result["deleted"] == {"volumes": [], "floating_ips": []}
    assert result["left"] == {"volumes": volumes, "floating_ips": [item["id"] for item in fips]} and len(fips) == 1
    (text,) = harness.warning_texts(result)
    assert text == ("instance %s was deleted; left: volumes %s (delete_volumes: true deletes them with it); floating IPs %s (%s) "
                    "(unassigned; delete_floating_ips: true deletes them with it)" % (
                        made["id"], ", ".join(volumes), fips[0]["floating_ip_address"], fips[0]["id"]))
    assert server.call("GET", "/cloud/v1/floatingips/1/76/%s" % fips[0]["id"])[1]["status"] == "DOWN"


def test_absent_deletes_only_what_the_instance_had_when_the_run_read_it_and_the_diff_lists_it(server):
    """Issue 34: a data volume another task attaches while the run waits for the instance's lock is not deleted; the
    floating IP is named by id (not ``delete_floatings``, which would take one assigned meanwhile too)."""
    made = created(server)
    fip = next(item for item in server.call("GET", "/cloud/v1/floatingips/1/76")[1]["results"] if (item["instance"] or {}).get("id") == made["id"])
    status, answer = server.call("POST", "/cloud/v1/volumes/1/76", {"source": "new-volume", "name": "data-other", "size": 1})
    data = server.call("GET", "/cloud/v1/tasks/%s" % answer["tasks"][0])[1]["created_resources"]["volumes"][0]
    server.hold()
    server.call("POST", "/cloud/v2/volumes/1/76/%s/attach" % data, {"instance_id": made["id"]})  # held
    reboot = server.call("POST", "/cloud/v2/instances/1/76/%s/action" % made["id"], {"action": "reboot"})[1]["tasks"][0]  # locks
    # The run waits for the reboot's lock (it reads the task once), reads the instance again, then its floating IPs: the
    # attach ends only then, after the run read what the instance had.
    server.release(task_id=reboot, after={"method": "GET", "path": "^/cloud/v1/tasks/%s$" % reboot, "times": 1})
    server.release(after={"method": "GET", "path": "^/cloud/v1/floatingips/1/76$", "times": 1})  # the attach, and the hold
    server.log = []
    result = run(server, state="absent", delete_volumes=True, delete_floating_ips=True, _ansible_diff=True, wait_timeout=30)
    assert not result.get("failed"), result.get("msg")
    (entry,) = server.writes()
    mine = [volume["id"] for volume in made["volumes"]]
    assert parse_qs(entry["query"]) == {"floatings": [fip["id"]], "volumes": [",".join(mine)]}
    assert data not in entry["query"]
    assert result["deleted"] == {"volumes": mine, "floating_ips": [fip["id"]]} and result["left"] == {"volumes": [], "floating_ips": []}
    assert result["diff"]["before"]["deleted_with_it"] == {"volumes": mine, "floating_ips": [fip["id"]]}
    assert server.call("GET", "/cloud/v1/volumes/1/76/%s" % data)[1]["status"] == "available"  # detached, kept
    assert server.call("GET", "/cloud/v1/floatingips/1/76/%s" % fip["id"])[0] == 404


def test_an_id_not_found_fails_for_present(server):
    result = run(server, instance_id="6c26051a-4760-4d56-9b3f-b97ccbb860c7")
    assert result["failed"] is True and "does not exist" in result["msg"] and writes(server) == []


def test_rename_by_id_and_tags_without_purge(server):
    ident = created(server, tags={"env": "prod"})["id"]
    result = run(server, instance_id=ident.upper(), name="srv-renamed", tags={"team": "a"}, purge_tags=False)
    assert result["changed"] is True
    assert writes(server) == [("PATCH", "%s/%s" % (BASE, ident), {"name": "srv-renamed", "tags": {"team": "a"}})]
    assert [(tag["key"], tag["value"]) for tag in result["instance"]["tags"]] == [("env", "prod"), ("team", "a")]


def test_two_instances_with_the_name_fail_listing_their_ids(server):
    created(server)
    second = created(server, name="srv-2")
    server.call("PATCH", "%s/%s" % (BASE, second["id"]), {"name": "srv-1"})
    server.log = []
    result = run(server, tags={"env": "x"})
    assert result["failed"] is True and "2 instances of project 1, region 76 are named 'srv-1'" in result["msg"]
    assert second["id"] in result["msg"] and writes(server) == []


def test_an_instance_stuck_in_build_fails_naming_it_and_the_rerun_waits_for_it(server):
    server.configure(instances_boot_held=True)
    result = run(server, wait_timeout=1)
    assert result["failed"] is True and result["changed"] is True
    ident = server.call("GET", BASE, query="name=srv-1")[1]["results"][0]["id"]
    assert "Instance %s is still BUILD after wait_timeout=1s" % ident in result["msg"]
    assert "the change was sent" in result["msg"] and result["instance"]["status"] == "BUILD"
    server.log = []
    again = run(server, wait_timeout=1)  # still building: found, not created again, waited for (a re-run finishes it)
    assert again["changed"] is False and again["failed"] is True and writes(server) == []
    assert "Instance %s is still BUILD after wait_timeout=1s" % ident in again["msg"]
    server.release()
    assert run(server, state="started")["instance"]["status"] == "ACTIVE" and writes(server) == []


def test_an_instance_in_error_fails_naming_its_id(server):
    server.configure(task_fail={"boot_instance": "no valid host was found"})
    result = run(server)
    ident = server.call("GET", BASE, query="name=srv-1")[1]["results"][0]["id"]
    assert result["failed"] is True and result["changed"] is True
    assert "Instance %s is ERROR, not ACTIVE or SHUTOFF" % ident in result["msg"]


def test_a_locked_instance_is_waited_for_before_a_write(server):
    ident = created(server)["id"]
    server.hold()
    server.call("POST", "/cloud/v2/instances/1/76/%s/action" % ident, {"action": "reboot"})
    server.release(after={"method": "GET", "path": "^%s/%s$" % (BASE, ident), "times": 1})
    server.log = []
    result = run(server, state="stopped", wait_timeout=60)
    assert result["changed"] is True and not result.get("failed"), result.get("msg")
    assert [entry["status"] for entry in server.writes()] == [200]  # sent once the reboot was over, never a 409


# ---- instance_info --------------------------------------------------------------------------

def info(server, **args):
    return run(server, instance_info, project_id=1, region_id=76, **args)


def test_info_by_id_name_and_filters(server):
    ident = created(server, tags={"owner": "srv"})["id"]
    assert [item["id"] for item in info(server, instance_id=ident.upper())["instances"]] == [ident]
    assert info(server, instance_id="6c26051a-4760-4d56-9b3f-b97ccbb860c7")["instances"] == []
    assert info(server, instance_id=ident, status="SHUTOFF")["instances"] == []
    created(server, name="srv-10")
    assert [item["name"] for item in info(server, name="srv-1")["instances"]] == ["srv-1"]  # exact, not a substring
    assert info(server, name="nothing-here")["instances"] == []
    server.log = []
    found = info(server, status="ACTIVE", tags={"owner": "srv"})
    assert [item["id"] for item in found["instances"]] == [ident] and found["changed"] is False
    (entry,) = server.requests(path="^%s$" % BASE)
    assert parse_qs(entry["query"])["status"] == ["ACTIVE"] and json.loads(parse_qs(entry["query"])["tag_key_value"][0]) == {"owner": "srv"}


def test_info_lists_every_page(server):
    server.controls["instances"]({"count": 1500, "pairs": [[1, 76]]})
    found = info(server)
    assert len(found["instances"]) == 1500
    assert len(server.requests(path="^%s$" % BASE)) == 2
    assert found["changed"] is False


def test_info_in_check_mode_reads_as_usual(server):
    assert len(info(server, _ansible_check_mode=True)["instances"]) == 3  # the seeded ones of project 1, region 76


def test_instance_and_instances_take_their_common_options_from_one_fragment():
    """One copy of the options both modules share (issue 44): the fragment documents them, neither module again."""
    shared = set(yaml.safe_load(ModuleDocFragment.DOCUMENTATION)["options"])
    for module in (instance, instances):
        doc = yaml.safe_load(module.DOCUMENTATION)
        assert "gcore.platform.instance" in doc["extends_documentation_fragment"], module.__name__
        assert not set(doc["options"]) & shared, (module.__name__, sorted(set(doc["options"]) & shared))
