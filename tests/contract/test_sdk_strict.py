# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The simulator read by a client nobody here wrote.

The official Python SDK ``gcore`` (pinned in requirements-dev.txt) drives one simulator, started in this process, with
strict response validation (``_strict_response_validation=True``: an answer missing a member the SDK requires, or
``null`` where it wants a value, raises ``APIResponseValidationError``). For every resource the collection manages:
list (paged, two records a page), get, create and wait for its task, update, delete, and the sub-resource operations,
including the ones that moved since the published copy (docs/api_reference.md section 17). Every answer must parse;
a validation failure fails the test with the SDK's own words. The run ends with the figure ``SDK strict: N calls,
N parsed`` (tests/contract/conftest.py).
"""

from __future__ import annotations

import gcore
import httpx
import pytest

from simulator.core import DEFAULT_API_KEY, Simulator

PROJECT, REGION = 1, 76
PAGE = 2  # records a page: every list is read over several pages


class Sdk:
    """Calls the SDK and counts: every HTTP request it sends is a call; a call whose method returned parsed."""

    def __init__(self, client, counts, sent):
        self.client = client
        self.counts = counts
        self.sent = sent

    def __call__(self, method, *args, **kwargs):
        before = self.sent[0]
        try:
            result = method(*args, **kwargs)
        except gcore.APIResponseValidationError as error:
            self.counts["calls"] += self.sent[0] - before
            raise AssertionError("strict parsing failed: %s %s\n%s" % (error.request.method, error.request.url,
                                                                       error.__cause__ or error)) from None
        self.counts["calls"] += self.sent[0] - before
        self.counts["parsed"] += self.sent[0] - before
        return result

    def refused(self, status, method, *args, **kwargs):
        """The call is refused with ``status`` (the SDK raises its status error); the error's text."""
        before = self.sent[0]
        with pytest.raises(gcore.APIStatusError) as info:
            method(*args, **kwargs)
        sent = self.sent[0] - before
        self.counts["calls"] += sent
        self.counts["parsed"] += sent - 1  # the requests before the refused one (a poll, a read) parsed
        self.counts["refused"] += 1
        assert info.value.status_code == status, info.value
        return str(info.value)

    def pages(self, method, *args, **kwargs):
        """Every record of a list, read ``PAGE`` at a time through the SDK's own next-page call."""
        page = self(method, *args, limit=PAGE, **kwargs)
        items = list(page.results)
        while page.has_next_page():
            page = self(page.get_next_page)
            items += page.results
        assert len(items) == page.count
        return items


@pytest.fixture(scope="module")
def sdk(sdk_counts):
    simulator = Simulator()
    url = simulator.start()
    simulator.configure(task_delay=0)  # a task ends at the next request: the SDK's first poll finds it finished
    sent = [0]

    def count(_request):
        sent[0] += 1

    http = httpx.Client(event_hooks={"request": [count]})
    client = gcore.Gcore(api_key=DEFAULT_API_KEY, base_url=url, cloud_project_id=PROJECT, cloud_region_id=REGION,
                         max_retries=0, http_client=http, _strict_response_validation=True)
    yield Sdk(client, sdk_counts, sent)
    client.close()
    simulator.stop()


def ids(records):
    return [record.id for record in records]


def test_networks_and_subnets(sdk):
    cloud = sdk.client.cloud
    network = sdk(cloud.networks.create_and_poll, name="sdk-net", tags={"env": "sdk"})
    assert network.name == "sdk-net" and network.task_id is None
    assert network.id in ids(sdk.pages(cloud.networks.list))
    assert sdk(cloud.networks.get, network.id).id == network.id
    renamed = sdk(cloud.networks.update_and_poll, network.id, name="sdk-net-2", tags={"env": None, "tier": "a"})
    assert renamed.name == "sdk-net-2" and [(tag.key, tag.value) for tag in renamed.tags] == [("tier", "a")]
    assert sdk(cloud.networks.update, network.id, name="sdk-net-2").tasks == []  # nothing changes: no task
    subnet = sdk(cloud.networks.subnets.create_and_poll, name="sdk-subnet", network_id=network.id, cidr="10.77.0.0/24",
                 dns_nameservers=["8.8.8.8"])
    assert subnet.gateway_ip == "10.77.0.1" and subnet.has_router is True  # the network's own router (create_router)
    assert subnet.id in ids(sdk.pages(cloud.networks.subnets.list, network_id=network.id))
    assert sdk(cloud.networks.subnets.update, subnet.id, name="sdk-subnet-2").name == "sdk-subnet-2"
    assert sdk(cloud.networks.subnets.get, subnet.id).dns_nameservers == ["8.8.8.8"]
    sdk.pages(cloud.networks.subnets.list)
    task = sdk(cloud.networks.subnets.delete, subnet.id)
    sdk(cloud.tasks.poll, task.tasks[0])
    sdk(cloud.networks.delete_and_poll, network.id)
    sdk.refused(404, cloud.networks.get, network.id)


def test_the_task_listing(sdk):
    """GET /cloud/v1/tasks as the waiter reads it (project, region, since a time, oldest first) and with the other
    filters, every page; a wrong value is refused."""
    cloud = sdk.client.cloud
    first = sdk(cloud.networks.create, name="sdk-tasks-net-1").tasks[0]
    second = sdk(cloud.networks.create, name="sdk-tasks-net-2").tasks[0]
    since = sdk(cloud.tasks.get, first).created_on
    listed = sdk.pages(cloud.tasks.list, project_id=[PROJECT], region_id=[REGION], from_timestamp=since, order_by="asc")
    assert ids(listed)[-2:] == [first, second], ids(listed)
    assert [task.id for task in sdk(cloud.tasks.list, limit=1000).results][:2] == [second, first]  # newest first
    assert sdk(cloud.tasks.list, project_id=[PROJECT + 1]).results == []
    finished = sdk.pages(cloud.tasks.list, state=["FINISHED", "ERROR"], task_type="create_network", to_timestamp=since)
    assert all(task.state in ("FINISHED", "ERROR") and task.task_type == "create_network" for task in finished)
    sdk.refused(422, cloud.tasks.list, limit=1001)
    for task_id in (first, second):
        sdk(cloud.tasks.poll, task_id)


def test_routers(sdk):
    cloud = sdk.client.cloud
    network = sdk(cloud.networks.create_and_poll, name="sdk-router-net")
    subnet = sdk(cloud.networks.subnets.create_and_poll, name="sdk-router-subnet", network_id=network.id,
                 cidr="10.78.0.0/24", connect_to_network_router=False)
    task = sdk(cloud.networks.routers.create, name="sdk-router")
    router_id = sdk(cloud.tasks.poll, task.tasks[0]).created_resources.routers[0]
    assert router_id in ids(sdk.pages(cloud.networks.routers.list))
    router = sdk(cloud.networks.routers.attach_subnet, router_id, subnet_id=subnet.id)
    assert [interface.subnet_id for item in router.interfaces for interface in item.ip_assignments] == [subnet.id]
    assert sdk(cloud.networks.subnets.get, subnet.id).has_router is True
    sdk(cloud.networks.routers.update_and_poll, router_id, name="sdk-router-2",
        routes=[{"destination": "10.99.0.0/16", "nexthop": "10.78.0.254"}])
    assert sdk(cloud.networks.routers.get, router_id).name == "sdk-router-2"
    sdk(cloud.networks.routers.detach_subnet, router_id, subnet_id=subnet.id)
    assert sdk(cloud.networks.subnets.get, subnet.id).has_router is False
    sdk(cloud.tasks.poll, sdk(cloud.networks.routers.delete, router_id).tasks[0])
    sdk(cloud.networks.delete_and_poll, network.id)


def test_security_groups_and_rules(sdk):
    cloud = sdk.client.cloud
    group = sdk(cloud.security_groups.create_and_poll, name="sdk-sg", tags={"env": "sdk"},
                rules=[{"direction": "ingress", "protocol": "tcp", "port_range_min": 22, "port_range_max": 22,
                        "remote_ip_prefix": "10.0.0.0/8", "ethertype": "IPv4"}])
    assert group.description == ""  # no description: a string all the same
    assert [rule.port_range_min for rule in group.security_group_rules if rule.direction == "ingress"] == [22]
    assert group.id in ids(sdk.pages(cloud.security_groups.list))
    group = sdk(cloud.security_groups.update_and_poll, group.id, name="sdk-sg-2", description="from the SDK")
    assert (group.name, group.description) == ("sdk-sg-2", "from the SDK")
    # The rules are a sub-resource written whole by the v2 PATCH (what the collection uses; the SDK's per-rule calls
    # are the v1 rule family, which the collection does not use and the simulator does not serve).
    group = sdk(cloud.security_groups.update_and_poll, group.id, rules=[
        {"direction": "egress", "protocol": "udp", "port_range_min": 53, "port_range_max": 53, "ethertype": "IPv4",
         "remote_ip_prefix": "0.0.0.0/0"}])
    assert [(rule.direction, rule.protocol) for rule in group.security_group_rules] == [("egress", "udp")]
    assert ids(sdk(cloud.security_groups.get, group.id).security_group_rules) == ids(group.security_group_rules)
    sdk(cloud.security_groups.delete, group.id)
    sdk.refused(404, cloud.security_groups.get, group.id)


def test_ssh_keys(sdk):
    cloud = sdk.client.cloud
    key = sdk(cloud.ssh_keys.create, name="sdk-key")  # generated: the private key is answered once
    assert key.private_key and key.public_key.startswith("ssh-")
    assert key.id in ids(sdk.pages(cloud.ssh_keys.list))
    assert sdk(cloud.ssh_keys.update, key.id, shared_in_project=False).shared_in_project is False
    assert sdk(cloud.ssh_keys.get, key.id).name == "sdk-key"
    sdk(cloud.ssh_keys.delete, key.id)
    sdk.refused(404, cloud.ssh_keys.get, key.id)


def test_volumes(sdk):
    cloud = sdk.client.cloud
    task = sdk(cloud.volumes.create, name="sdk-volume", size=2, source="new-volume", tags={"env": "sdk"})
    volume_id = sdk(cloud.tasks.poll, task.tasks[0]).created_resources.volumes[0]
    assert volume_id in ids(sdk.pages(cloud.volumes.list))
    assert sdk(cloud.volumes.update, volume_id, name="sdk-volume-2").name == "sdk-volume-2"
    sdk(cloud.tasks.poll, sdk(cloud.volumes.resize, volume_id, size=3).tasks[0])
    assert sdk(cloud.volumes.get, volume_id).size == 3
    sdk(cloud.tasks.poll, sdk(cloud.volumes.delete, volume_id).tasks[0])
    sdk.refused(404, cloud.volumes.get, volume_id)


UBUNTU = "1a6e0c3e-0000-4000-8000-000000000001"  # a seeded active image (simulator.resources.instances.IMAGE_IDS)


def test_instances_interfaces_and_floating_ips(sdk):
    cloud = sdk.client.cloud
    assert "g1-standard-1-2" in [flavor.flavor_name for flavor in sdk(cloud.instances.flavors.list).results]
    assert all(image.tags_v2 is not None for image in sdk(cloud.instances.images.list).results)
    network = sdk(cloud.networks.create_and_poll, name="sdk-vm-net")
    subnet = sdk(cloud.networks.subnets.create_and_poll, name="sdk-vm-subnet", network_id=network.id, cidr="10.79.0.0/24")
    group = sdk(cloud.security_groups.create_and_poll, name="sdk-vm-sg")
    instance = sdk(cloud.instances.create_and_poll, name="sdk-vm", flavor="g1-standard-1-2", security_groups=[{"id": group.id}],
                   interfaces=[{"type": "subnet", "network_id": network.id, "subnet_id": subnet.id,
                                "floating_ip": {"source": "new"}}],
                   volumes=[{"source": "image", "image_id": UBUNTU, "size": 10, "boot_index": 0}], tags={"env": "sdk"})
    assert instance.name == "sdk-vm" and instance.task_id is None
    fixed = [address for address in instance.addresses["sdk-vm-net"] if address.type == "fixed"]
    assert [address.subnet_name for address in fixed] == ["sdk-vm-subnet"]  # the subnet's own name
    assert instance.id in ids(sdk.pages(cloud.instances.list))
    # The image an instance boots from, as its boot volume shows it (the instance record does not).
    boot = [volume for volume in sdk.pages(cloud.volumes.list, bootable=True) if volume.is_root_volume and any(
        item.server_id == instance.id for item in volume.attachments or [])]
    assert [volume.volume_image_metadata["image_id"] for volume in boot] == [UBUNTU]
    assert sdk(cloud.instances.update, instance.id, name="sdk-vm-2").name == "sdk-vm-2"
    ports = sdk.pages(cloud.instances.interfaces.list, instance.id)
    assert ports[0].network_details.name == "sdk-vm-net" and [item.id for item in ports[0].network_details.subnets] == [subnet.id]
    # Security groups: by name for every port, and in the documented per-port form.
    sdk(cloud.instances.unassign_security_group, instance.id, name="sdk-vm-sg")
    sdk(cloud.instances.assign_security_group, instance.id,
        ports_security_group_names=[{"port_id": ports[0].port_id, "security_group_names": ["sdk-vm-sg"]}])
    assert [item.name for item in sdk(cloud.instances.get, instance.id).security_groups] == ["sdk-vm-sg"]
    sdk.refused(404, cloud.instances.assign_security_group, instance.id, name="no-such-group")
    # Actions and a new flavor, each a task.
    sdk(cloud.instances.action_and_poll, instance.id, action="stop")
    assert sdk(cloud.instances.get, instance.id).status == "SHUTOFF"
    sdk(cloud.instances.action_and_poll, instance.id, action="start")
    sdk(cloud.instances.resize_and_poll, instance.id, flavor_id="g1-standard-2-4")
    assert sdk(cloud.instances.get, instance.id).flavor.flavor_name == "g1-standard-2-4"
    # Floating IPs: the one made with the instance, a new one, moved and released.
    held = [item for item in sdk.pages(cloud.floating_ips.list) if item.port_id == ports[0].port_id]
    assert [item.instance.id for item in held] == [instance.id]
    task = sdk(cloud.floating_ips.create, tags={"env": "sdk"})
    floating_id = sdk(cloud.tasks.poll, task.tasks[0]).created_resources.floatingips[0]
    floating = sdk(cloud.floating_ips.get, floating_id)
    assert floating.status == "DOWN" and floating.port_id is None
    sdk(cloud.floating_ips.update_and_poll, held[0].id, port_id=None)
    sdk(cloud.floating_ips.update_and_poll, floating_id, port_id=ports[0].port_id, tags={"env": None})
    assert sdk(cloud.floating_ips.get, floating_id).status == "ACTIVE"
    sdk(cloud.tasks.poll, sdk(cloud.floating_ips.delete, held[0].id).tasks[0])
    sdk(cloud.instances.delete_and_poll, instance.id, delete_floatings=True)
    sdk.refused(404, cloud.instances.get, instance.id)
    sdk.refused(404, cloud.floating_ips.get, floating_id)
    sdk(cloud.security_groups.delete, group.id)
    sdk(cloud.networks.delete_and_poll, network.id)


BM_UBUNTU, BM_DEBIAN = "b3a10000-0000-4000-8000-000000000001", "b3a10000-0000-4000-8000-000000000002"  # baremetal.IMAGES


def test_baremetal_servers_flavors_and_images(sdk):
    cloud = sdk.client.cloud
    bm = cloud.baremetal
    flavors = sdk(bm.flavors.list, include_capacity=True).results
    assert [flavor.capacity for flavor in flavors if flavor.flavor_name == "bm1-basic-medium"] == [1]
    assert BM_UBUNTU in ids(sdk(bm.images.list).results)
    network = sdk(cloud.networks.create_and_poll, name="sdk-bm-net")
    subnet = sdk(cloud.networks.subnets.create_and_poll, name="sdk-bm-subnet", network_id=network.id, cidr="10.80.0.0/24")
    private = {"type": "subnet", "network_id": network.id, "subnet_id": subnet.id, "floating_ip": {"source": "new"}, "port_group": 1}
    server = sdk(bm.servers.create_and_poll, name="sdk-bm", flavor="bm1-basic-medium", image_id=BM_UBUNTU, tags={"env": "sdk"},
                 interfaces=[{"type": "external"}, private])
    assert server.status == "ACTIVE" and server.task_id is None
    assert [tag.value for tag in server.tags if tag.key == "image_id"] == [BM_UBUNTU]
    assert server.id in ids(sdk.pages(bm.servers.list))
    assert server.id not in ids(sdk.pages(cloud.instances.list))  # the VM listing leaves bare metal out
    assert sdk(bm.servers.update, server.id, name="sdk-bm-2", tags={"env": None}).name == "sdk-bm-2"
    sdk.refused(400, bm.servers.create, name="sdk-bm-3", flavor="bm1-basic-medium", image_id=BM_UBUNTU,
                interfaces=[{"type": "external"}])  # none of the flavor left in the region
    sdk(cloud.tasks.poll, sdk(bm.servers.action, server.id, action="stop").tasks[0])
    assert sdk(bm.servers.get, server.id).status == "SHUTOFF"
    sdk(cloud.tasks.poll, sdk(bm.servers.action, server.id, action="start", activate_profile=False).tasks[0])
    rebuilt = sdk(bm.servers.rebuild_and_poll, server.id, image_id=BM_DEBIAN)
    assert [tag.value for tag in rebuilt.tags if tag.key == "image_name"] == ["debian-12-x64"]
    sdk(cloud.tasks.poll, sdk(bm.servers.delete, server.id, all_floating_ips=True).tasks[0])
    sdk.refused(404, bm.servers.get, server.id)
    sdk(cloud.networks.delete_and_poll, network.id)


def test_load_balancers_listeners_pools_members_and_health_monitors(sdk):
    cloud = sdk.client.cloud
    lbs = cloud.load_balancers
    network = sdk(cloud.networks.create_and_poll, name="sdk-lb-net")
    subnet = sdk(cloud.networks.subnets.create_and_poll, name="sdk-lb-subnet", network_id=network.id, cidr="10.80.0.0/24")
    lb = sdk(lbs.create_and_poll, name="sdk-lb", vip_network_id=network.id, vip_subnet_id=subnet.id, tags={"env": "sdk"},
             listeners=[{"name": "http", "protocol": "HTTP", "protocol_port": 80, "pools": [
                 {"name": "http-pool", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP",
                  "members": [{"address": "10.80.0.11", "protocol_port": 8080, "subnet_id": subnet.id}],
                  "healthmonitor": {"type": "HTTP", "delay": 10, "max_retries": 3, "timeout": 5}}]}])
    assert lb.provisioning_status == "ACTIVE" and len(lb.listeners) == 1
    assert lb.id in ids(sdk.pages(lbs.list))
    # The SDK's own update is the deprecated v1 PATCH; the collection uses the v2 PATCH, called here by path.
    task = sdk(sdk.client.patch, "/cloud/v2/loadbalancers/%s/%s/%s" % (PROJECT, REGION, lb.id), body={"name": "sdk-lb-2"},
               cast_to=gcore.types.cloud.TaskIDList)
    sdk(cloud.tasks.poll, task.tasks[0])
    assert sdk(lbs.get, lb.id).name == "sdk-lb-2"
    # Listeners.
    listener = sdk(lbs.listeners.create_and_poll, load_balancer_id=lb.id, name="tcp", protocol="TCP", protocol_port=5432)
    assert listener.id in ids(sdk.pages(lbs.listeners.list, load_balancer_id=lb.id))
    listener = sdk(lbs.listeners.update_and_poll, listener.id, name="tcp-2", allowed_cidrs=["10.0.0.0/8"])
    assert (listener.name, listener.allowed_cidrs) == ("tcp-2", ["10.0.0.0/8"])
    # Pools: one on the new listener, one on the load balancer alone (no listener: the schema allows it).
    pool = sdk(lbs.pools.create_and_poll, name="tcp-pool", lb_algorithm="LEAST_CONNECTIONS", protocol="TCP",
               listener_id=listener.id)
    lone = sdk(lbs.pools.create_and_poll, name="lone-pool", lb_algorithm="ROUND_ROBIN", protocol="HTTP", load_balancer_id=lb.id)
    assert lone.listeners == []
    assert {pool.id, lone.id} <= set(ids(sdk.pages(lbs.pools.list, load_balancer_id=lb.id)))
    pool = sdk(lbs.pools.update_and_poll, pool.id, name="tcp-pool-2",
               members=[{"address": "10.80.0.21", "protocol_port": 5432, "subnet_id": subnet.id}])
    assert [member.address for member in pool.members] == ["10.80.0.21"]
    # Members, the family SDK 0.59 maps: add one, update one, replace the whole set, delete one.
    member = sdk(lbs.pools.members.create_and_poll, pool.id, address="10.80.0.22", protocol_port=5432, subnet_id=subnet.id)
    assert member.id in ids(sdk.pages(lbs.pools.members.list, pool.id))
    member = sdk(lbs.pools.members.update_and_poll, member.id, pool_id=pool.id, weight=5)
    assert member.weight == 5 and sdk(lbs.pools.members.get, member.id, pool_id=pool.id).weight == 5
    members = sdk(lbs.pools.members.replace_and_poll, pool.id, body=[
        {"address": "10.80.0.22", "protocol_port": 5432, "subnet_id": subnet.id, "weight": 5},
        {"address": "10.80.0.23", "protocol_port": 5432, "subnet_id": subnet.id}])
    assert sorted(item.address for item in members) == ["10.80.0.22", "10.80.0.23"] and member.id in ids(members)
    assert sdk(lbs.pools.members.replace, pool.id, body=[
        {"address": "10.80.0.22", "protocol_port": 5432, "subnet_id": subnet.id, "weight": 5},
        {"address": "10.80.0.23", "protocol_port": 5432, "subnet_id": subnet.id}]).tasks == []  # the set already
    sdk(lbs.pools.members.delete_and_poll, member.id, pool_id=pool.id)
    sdk.refused(404, lbs.pools.members.get, member.id, pool_id=pool.id)
    # Health monitor: create, read, patch (no type), delete.
    sdk(cloud.tasks.poll, sdk(lbs.pools.health_monitors.create, pool.id, type="TCP", delay=10, max_retries=3,
                              api_timeout=5).tasks[0])
    assert sdk(lbs.pools.health_monitors.get, pool.id).type == "TCP"
    sdk(cloud.tasks.poll, sdk(lbs.pools.health_monitors.update, pool.id, delay=20, api_timeout=4).tasks[0])
    monitor = sdk(lbs.pools.health_monitors.get, pool.id)
    assert (monitor.delay, monitor.timeout) == (20, 4)
    sdk(lbs.pools.health_monitors.delete, pool.id)
    sdk.refused(404, lbs.pools.health_monitors.get, pool.id)
    sdk(lbs.pools.delete_and_poll, lone.id)
    sdk(lbs.listeners.delete_and_poll, listener.id)
    sdk(lbs.delete_and_poll, lb.id)
    sdk.refused(404, lbs.get, lb.id)
    sdk(cloud.networks.delete_and_poll, network.id)


def test_l7_policies_and_rules(sdk):
    cloud = sdk.client.cloud
    lbs, l7 = cloud.load_balancers, cloud.load_balancers.l7_policies
    lb = sdk(lbs.create_and_poll, name="sdk-l7-lb", listeners=[
        {"name": "http", "protocol": "HTTP", "protocol_port": 80, "pools": [{"name": "web", "lb_algorithm": "ROUND_ROBIN", "protocol": "HTTP"}]},
        {"name": "tcp", "protocol": "TCP", "protocol_port": 5432}])
    listeners = dict((item.name, item.id) for item in sdk.pages(lbs.listeners.list, load_balancer_id=lb.id))
    pool = sdk.pages(lbs.pools.list, load_balancer_id=lb.id)[0]
    api = sdk(l7.create_and_poll, action="REDIRECT_TO_POOL", listener_id=listeners["http"], redirect_pool_id=pool.id, name="api")
    https = sdk(l7.create_and_poll, action="REDIRECT_PREFIX", listener_id=listeners["http"], redirect_prefix="https://example.com",
                name="https", position=1, redirect_http_code=301)
    assert (sdk(l7.get, api.id).position, https.position) == (2, 1)  # inserted at 1: the other renumbered
    assert {api.id, https.id} <= set(ids(sdk.pages(l7.list)))
    rule = sdk(l7.rules.create_and_poll, api.id, type="PATH", compare_type="STARTS_WITH", value="/api")
    assert rule.id in ids(sdk.pages(l7.rules.list, api.id)) and sdk(l7.get, api.id).rules[0].id == rule.id
    rule = sdk(l7.rules.replace_and_poll, rule.id, l7policy_id=api.id, type="HEADER", compare_type="EQUAL_TO", value="v2", key="X-Api")
    assert (sdk(l7.rules.get, rule.id, l7policy_id=api.id).key, rule.value) == ("X-Api", "v2")
    https = sdk(l7.update_and_poll, https.id, action="REDIRECT_TO_URL", redirect_url="https://example.com", position=2)
    assert (https.redirect_url, https.redirect_prefix, https.position, sdk(l7.get, api.id).position) == ("https://example.com", None, 2, 1)
    sdk.refused(400, l7.create, action="REJECT", listener_id=listeners["tcp"])  # no L7 on a TCP listener
    sdk.refused(400, l7.create, action="REDIRECT_TO_POOL", listener_id=listeners["http"], redirect_pool_id="1b000000-0000-4000-8000-000000000021")
    sdk.refused(400, l7.rules.create, api.id, type="COOKIE", compare_type="EQUAL_TO", value="x")  # a cookie rule needs its key
    sdk(l7.rules.delete_and_poll, rule.id, l7policy_id=api.id)
    sdk.refused(404, l7.rules.get, rule.id, l7policy_id=api.id)
    sdk(l7.delete_and_poll, https.id)
    assert sdk(l7.get, api.id).position == 1
    sdk(lbs.listeners.delete_and_poll, listeners["http"])  # its policies go with it
    sdk.refused(404, l7.get, api.id)
    sdk(lbs.delete_and_poll, lb.id)


def test_storage_s3_sftp_buckets_locations_and_keys(sdk):
    storage = sdk.client.storage
    locations = sdk.pages(storage.locations.list)
    s3_location = next(item.name for item in locations if item.type == "s3_compatible")
    sftp_location = next(item.name for item in locations if item.type == "sftp")
    # S3: create (credentials once), list, get, buckets with their settings, delete.
    s3 = sdk(storage.object_storages.create, name="sdk-s3", location_name=s3_location)
    assert s3.type == "standard" and s3.access_keys
    assert s3.id in ids(sdk.pages(storage.object_storages.list))
    assert s3.id in ids(sdk.pages(storage.object_storages.list, type="standard"))
    assert sdk(storage.object_storages.list, type="fast").count == 0
    assert sdk(storage.object_storages.get, s3.id).type == "standard"
    bucket = sdk(storage.object_storages.buckets.create, s3.id, name="sdk-bucket", lifecycle={"expiration_days": 7})
    assert bucket.lifecycle.expiration_days == 7 and bucket.cors.allowed_origins == []  # objects, never null
    sdk(storage.object_storages.buckets.create, s3.id, name="sdk-bucket-2")
    assert ["sdk-bucket", "sdk-bucket-2"] == [item.name for item in sdk.pages(storage.object_storages.buckets.list, s3.id)]
    bucket = sdk(storage.object_storages.buckets.update, "sdk-bucket", storage_id=s3.id,
                 cors={"allowed_origins": ["https://example.com"]}, lifecycle={"expiration_days": 0})
    assert bucket.cors.allowed_origins == ["https://example.com"] and bucket.lifecycle.expiration_days == 0
    assert sdk(storage.object_storages.buckets.get, "sdk-bucket", storage_id=s3.id).policy.is_public is False
    sdk(storage.object_storages.buckets.delete, "sdk-bucket-2", storage_id=s3.id)
    sdk.refused(404, storage.object_storages.buckets.get, "sdk-bucket-2", storage_id=s3.id)
    # SSH keys, then SFTP: the password in `password` (SDK 0.59), set again with password_mode set.
    key = sdk(storage.ssh_keys.create, name="sdk-storage-key", public_key="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIsdk sdk@host")
    assert key.id in ids(sdk.pages(storage.ssh_keys.list))
    sftp = sdk(storage.sftp_storages.create, name="sdk-sftp", location_name=sftp_location, password_mode="set",
               password="sim-cred-sdk-1", ssh_key_ids=[key.id])
    assert sftp.password == "sim-cred-sdk-1" and sftp.has_password is True
    assert sftp.id in ids(sdk.pages(storage.sftp_storages.list))
    updated = sdk(storage.sftp_storages.update, sftp.id, password_mode="set", password="sim-cred-sdk-2", server_alias="")
    assert updated.password == "sim-cred-sdk-2"
    assert sdk(storage.sftp_storages.update, sftp.id, password_mode="none").has_password is False
    assert "password" not in sdk(storage.sftp_storages.get, sftp.id).to_dict()  # a read never carries it
    sdk(storage.sftp_storages.delete, sftp.id)
    sdk(storage.object_storages.delete, s3.id)
    assert sdk(storage.ssh_keys.get, key.id).name == "sdk-storage-key"
    sdk(storage.ssh_keys.delete, key.id)
    sdk.refused(404, storage.ssh_keys.get, key.id)


def test_snapshot_schedules(sdk):
    cloud = sdk.client.cloud
    task = sdk(cloud.volumes.create, name="sdk-scheduled", size=1, source="new-volume")
    volume_id = sdk(cloud.tasks.poll, task.tasks[0]).created_resources.volumes[0]
    policy = sdk(cloud.snapshot_schedules.create, action="volume_snapshot", name="sdk-nightly", volume_ids=[volume_id],
                 schedules=[{"type": "cron", "hour": "2", "max_quantity": 7, "retention_time": {"days": 7}}])
    assert isinstance(policy.id, int) and policy.schedules[0].type == "cron" and policy.schedules[0].minute == "0"
    assert policy.id in ids(sdk(cloud.snapshot_schedules.list).results)
    shown = sdk(cloud.snapshot_schedules.get, policy.id, extra_query={"need_volumes": "true"})
    assert [volume.volume_id for volume in shown.volumes] == [volume_id]
    assert sdk(cloud.snapshot_schedules.update, policy.id, name="sdk-nightly-2", status="paused").status == "paused"
    added = sdk(cloud.snapshot_schedules.add_schedules, policy.id, schedules=[{"type": "interval", "hours": 6}])
    assert [schedule.type for schedule in added.schedules] == ["cron", "interval"]
    kept = sdk(cloud.snapshot_schedules.remove_schedules, policy.id, schedule_ids=[added.schedules[0].id])
    assert [schedule.type for schedule in kept.schedules] == ["interval"]
    sdk(cloud.snapshot_schedules.remove_volumes, policy.id, volume_ids=[volume_id])
    assert sdk(cloud.snapshot_schedules.add_volumes, policy.id, volume_ids=[volume_id]).name == "sdk-nightly-2"
    assert "max_quantity" in sdk.refused(422, cloud.snapshot_schedules.add_schedules, policy.id,
                                         schedules=[{"type": "cron", "max_quantity": 0}])
    sdk(cloud.snapshot_schedules.delete, policy.id)
    sdk.refused(404, cloud.snapshot_schedules.get, policy.id)


def test_file_shares_and_access_rules(sdk):
    shares = sdk.client.cloud.file_shares
    network = sdk(sdk.client.cloud.networks.create_and_poll, name="sdk-share-net")
    subnet = sdk(sdk.client.cloud.networks.subnets.create_and_poll, name="sdk-share-subnet", network_id=network.id,
                 cidr="10.81.0.0/24")
    share = sdk(shares.create_and_poll, name="sdk-share", protocol="NFS", size=2, type_name="standard",
                network={"network_id": network.id, "subnet_id": subnet.id}, access=[{"ip_address": "10.81.0.0/24", "access_mode": "rw"}],
                tags={"env": "sdk"})
    assert share.status == "available" and share.connection_point and share.network.subnet_name == "sdk-share-subnet"
    vast = sdk(shares.create_and_poll, name="sdk-vast", protocol="NFS", size=1, type_name="vast",
               share_settings={"root_squash": False, "trash_access": True})
    assert vast.share_settings.type_name == "vast" and vast.share_network_name is None
    assert {share.id, vast.id} <= set(ids(sdk.pages(shares.list)))
    assert ids(sdk.pages(shares.list, name="sdk-vast", type_name="vast")) == [vast.id]
    share = sdk(shares.update_and_poll, share.id, name="sdk-share-2", tags={"env": None, "tier": "a"})
    assert share.name == "sdk-share-2" and [(tag.key, tag.value) for tag in share.tags] == [("tier", "a")]
    assert sdk(shares.update_and_poll, vast.id, share_settings={"allowed_characters": "NPL"}).share_settings.allowed_characters == "NPL"
    assert sdk(shares.resize_and_poll, share.id, size=4).size == 4
    sdk.refused(400, shares.resize, share.id, size=3)  # the path only grows a share
    rule = sdk(shares.access_rules.create, share.id, ip_address="192.168.5.1", access_mode="ro")
    assert (rule.access_to, rule.access_level) == ("192.168.5.1", "ro")
    rules = sdk.pages(shares.access_rules.list, share.id)
    assert sorted(item.access_to for item in rules) == ["10.81.0.0/24", "192.168.5.1"]
    sdk(shares.access_rules.delete, rule.id, file_share_id=share.id)
    assert ids(sdk.pages(shares.access_rules.list, share.id)) == [item.id for item in rules if item.id != rule.id]
    sdk(shares.delete_and_poll, share.id)
    sdk(shares.delete_and_poll, vast.id)
    sdk.refused(404, shares.get, share.id)
    sdk(sdk.client.cloud.networks.delete_and_poll, network.id)


def test_k8s_clusters_pools_versions_and_kubeconfig(sdk):
    k8s = sdk.client.cloud.k8s
    versions = [item.version for item in sdk.pages(k8s.list_versions)]
    pool = {"name": "workers", "flavor_id": "g1-standard-2-4", "min_node_count": 1, "max_node_count": 3,
            "servergroup_policy": "anti-affinity", "labels": {"tier": "web"}}
    cluster = sdk(k8s.clusters.create_and_poll, name="sdk-k8s", keypair="deploy", version=versions[0], pools=[pool],
                  cni={"provider": "cilium"}, autoscaler_config={"scan-interval": "15s"})
    assert cluster.name == "sdk-k8s" and cluster.pools[0].name == "workers" and cluster.cni.cilium.routing_mode == "tunnel"
    for _read in range(2):  # the cluster settles after its task (section 19.3)
        cluster = sdk(k8s.clusters.get, "sdk-k8s")
    assert cluster.status == "Provisioned" and cluster.pools[0].status == "Running"
    assert "sdk-k8s" in [item.name for item in sdk.pages(k8s.clusters.list)]
    config = sdk(k8s.clusters.kubeconfig.get, "sdk-k8s")
    assert config.config.startswith("apiVersion: v1") and config.host.startswith("https://")
    sdk(k8s.clusters.update_and_poll, "sdk-k8s", authentication={"oidc": {"issuer_url": "https://id.example.com", "client_id": "k8s"}},
        logging={"enabled": True, "topic_name": "k8s.logs"})
    sdk(k8s.clusters.get, "sdk-k8s")
    created = sdk(k8s.clusters.pools.create_and_poll, "sdk-k8s", name="gpu", flavor_id="g1-standard-4-8", min_node_count=1,
                  max_node_count=2, servergroup_policy="soft-anti-affinity")
    assert created.name == "gpu" and created.servergroup_policy == "soft-anti-affinity"
    for _read in range(2):
        sdk(k8s.clusters.pools.get, "gpu", cluster_name="sdk-k8s")
    patched = sdk(k8s.clusters.pools.update, "gpu", cluster_name="sdk-k8s", labels={"tier": "gpu"}, auto_healing_enabled=True)
    assert patched.labels == {"tier": "gpu"} and patched.auto_healing_enabled is True
    sdk(k8s.clusters.pools.resize_and_poll, "gpu", cluster_name="sdk-k8s", node_count=2)
    for _read in range(2):
        sdk(k8s.clusters.pools.get, "gpu", cluster_name="sdk-k8s")
    assert [item.node_count for item in sdk.pages(k8s.clusters.pools.list, "sdk-k8s")] == [1, 2]
    assert sdk(k8s.clusters.pools.check_quota, flavor_id="g1-standard-1-2", node_count=1).model_dump(exclude_none=True) == {}
    sdk(k8s.clusters.pools.delete_and_poll, "gpu", cluster_name="sdk-k8s")
    sdk.refused(400, k8s.clusters.pools.delete, "workers", cluster_name="sdk-k8s")  # the last pool stays
    upgrades = [item.version for item in sdk.pages(k8s.clusters.list_versions_for_upgrade, "sdk-k8s")]
    sdk.refused(400, k8s.clusters.upgrade, "sdk-k8s", version="v1.0.0")
    sdk(k8s.clusters.upgrade_and_poll, "sdk-k8s", version=upgrades[0])
    sdk(k8s.clusters.get, "sdk-k8s")
    assert sdk(k8s.clusters.get, "sdk-k8s").version == upgrades[0]
    sdk(k8s.clusters.delete_and_poll, "sdk-k8s")
    sdk.refused(404, k8s.clusters.get, "sdk-k8s")


def test_waap_domain_settings(sdk):
    """A WAAP domain's settings: read, API discovery on (``api.is_api`` alone), the thresholds, read again."""
    settings = sdk.client.waap.domains.settings
    before = sdk(settings.get, 1003)
    assert before.api.is_api is False and before.ddos.sub_second_threshold == 50
    assert sdk(settings.update, 1003, api={"is_api": True}).api.is_api is True
    sdk(settings.update, 1003, ddos={"burst_threshold": 1500, "global_threshold": 8000})
    after = sdk(settings.get, 1003)
    assert after.api.is_api is True and after.api.api_urls == before.api.api_urls and after.ddos.burst_threshold == 1500
    sdk.refused(422, settings.update, 1003, api={"api_urls": ["/"]})
