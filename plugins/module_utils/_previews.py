# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""What a create makes and what a delete takes, as the diff shows them (issue 35): the instance's ``create_shown``
(the ``_resource`` hook) and the load balancer's ``shown`` of a delete.

This module is internal to the collection: its interface may change at any time.

An instance's create diff holds its image, its volumes (source, size, type, what each is made of), its interfaces (the
network and subnet as the task names them: by name when given by name), and whether ``user_data`` and ``password`` are
set (never their values); its security groups, placement group and SSH key are members and parts the diff already
shows. A load balancer's delete diff lists the listeners it takes, each with its pool (``_lb.listener_view``).
"""

from __future__ import annotations

from ansible_collections.gcore.platform.plugins.module_utils._checks import strip_none
from ansible_collections.gcore.platform.plugins.module_utils._lb import expand, listener_view

# A volume's fields the diff shows: what it is made of, its size and type, its name and boot order.
VOLUME_FIELDS = ("source", "image_name", "image_id", "snapshot_name", "snapshot_id", "apptemplate_id", "volume_id", "size",
                 "type_name", "name", "boot_index", "delete_on_termination")
# An interface's fields the diff shows (the network and subnet as given: by name or id; a reserved fixed IP by address).
INTERFACE_FIELDS = ("type", "interface_name", "network", "network_id", "subnet", "subnet_id", "port_id", "ip_address", "ip_family")


def _set(value):
    return "set" if value is not None else "not set"


def instance_created(params):
    """The instance a create makes, beyond its members and parts: ``image``, ``volumes``, ``interfaces``, and whether
    ``user_data`` and ``password`` are set."""
    volumes = [strip_none(dict((field, item.get(field)) for field in VOLUME_FIELDS)) for item in params["volumes"] or []]
    booted = sorted((item for item in volumes if item["source"] == "image"), key=lambda item: item.get("boot_index", 0))
    interfaces = []
    for item in params["interfaces"] or []:
        shown = strip_none(dict((field, item.get(field)) for field in INTERFACE_FIELDS))
        if item.get("floating_ip"):
            shown["floating_ip"] = item["floating_ip"].get("existing_floating_id") or item["floating_ip"]["source"]
        interfaces.append(shown)
    return {"image": (booted[0].get("image_name") or booted[0].get("image_id")) if booted else None, "volumes": volumes,
            "interfaces": interfaces, "user_data": _set(params["user_data"]), "password": _set(params["password"])}


def load_balancer_taken(module, record):
    """The listeners a load balancer's delete takes with it, each with its pool (two listings when not read yet)."""
    listeners = expand(module.client, module.params, record).get("listeners") or []
    return {"listeners": dict((listener.get("name"), listener_view(listener)) for listener in listeners)}
