# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""issue 45: the simulator refuses what the service refuses, so a lenient fake cannot hide a module's mistake. One fixed
address (an ``any_subnet`` interface's ``ip_address``) is given to one instance (another instance's, a reserved IP's or
a gateway's address: 409; an address in none of the network's subnets: 400), nothing created. (Unknown listener
secrets, override targets and public images: their families' tests, test_tls_listeners_sim.py,
test_waap_overrides_sim.py and test_images_sim.py.)"""

from __future__ import annotations

import pytest

from simulator.core import Simulator
from simulator.resources.instances import IMAGE_IDS

CREATE = "/cloud/v2/instances/1/76"
NET = "5d0c2e7a-9f41-4b1e-8c3a-7e6f5d4c3a01"  # router-net-1: one subnet, 192.168.10.0/24


@pytest.fixture
def sim():
    simulator = Simulator()
    simulator.configure(task_delay=0)
    return simulator


def body(name, address):
    return {"name": name, "flavor": "g1-standard-2-4",
            "interfaces": [{"type": "any_subnet", "network_id": NET, "ip_address": address}],
            "volumes": [{"source": "image", "image_id": IMAGE_IDS["ubuntu-22.04"], "size": 10, "boot_index": 0}]}


def test_one_fixed_address_is_given_to_one_instance(sim):
    assert sim.call("POST", CREATE, body("app-1", "192.168.10.50"))[0] == 200
    count = len(sim.instances)
    status, answer = sim.call("POST", CREATE, body("app-2", "192.168.10.50"))
    assert status == 409 and "192.168.10.50 already allocated" in str(answer)
    assert len(sim.instances) == count  # nothing created


@pytest.mark.parametrize("address, status, text", [
    ("192.168.10.1", 409, "192.168.10.1 already allocated"),  # the subnet's gateway
    ("192.168.20.5", 400, "192.168.20.5 is not a valid IP for the specified network"),
])
def test_a_gateway_or_an_address_outside_the_subnet_is_refused(sim, address, status, text):
    count = len(sim.instances)
    answer = sim.call("POST", CREATE, body("app-1", address))
    assert answer[0] == status and text in str(answer[1])
    assert len(sim.instances) == count
