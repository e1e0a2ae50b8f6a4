# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # The network interfaces of a new instance or bare-metal server (NewVmInterfaceSerializersPydantic), documented
    # once for quota_check and price_preview; plugins/module_utils/_interfaces.py is the argument spec they document.
    # A module using it keeps its own interfaces entry with its first description line (and required: true where the
    # option is required): Ansible merges that entry over this one.
    DOCUMENTATION = r"""
options:
  interfaces:
    description:
      - Network interfaces, in order.
      - Each item is one of four variants chosen by O(interfaces[].type).
      - A field given for a type that has no such field, or missing where the type requires it, fails validation before
        any request is sent.
      - Only the fields given are sent.
    type: list
    elements: dict
    suboptions:
      type:
        description:
          - V(external) attaches the server to the default external network (a public IP).
          - V(subnet) takes an address from a given subnet (O(interfaces[].network_id) and O(interfaces[].subnet_id) required).
          - V(any_subnet) takes an address from the subnet with the most free addresses in a network
            (O(interfaces[].network_id) required).
          - V(reserved_fixed_ip) attaches an existing reserved fixed IP port (O(interfaces[].port_id) required).
        type: str
        choices: [external, subnet, any_subnet, reserved_fixed_ip]
        default: external
      interface_name:
        description:
          - Name of the interface, at most 37 characters. Any type.
        type: str
      ip_family:
        description:
          - IP family of the address; V(dual) gives both. Only for V(external) and V(any_subnet).
          - When not set, the service uses V(ipv4).
        type: str
        choices: [ipv4, ipv6, dual]
      network_id:
        description:
          - UUID of the network. Required for V(subnet) and V(any_subnet), not allowed for other types.
        type: str
      subnet_id:
        description:
          - UUID of the subnet. Required for V(subnet), not allowed for other types.
        type: str
      port_id:
        description:
          - ID of the reserved fixed IP port. Required for V(reserved_fixed_ip), not allowed for other types.
        type: str
      ip_address:
        description:
          - A fixed IPv4 or IPv6 address to request from the network. Only for V(any_subnet).
        type: str
      floating_ip:
        description:
          - A floating (public) IP for the interface. Not allowed for V(external).
        type: dict
        suboptions:
          source:
            description:
              - V(new) creates a floating IP; V(existing) attaches O(interfaces[].floating_ip.existing_floating_id).
            type: str
            required: true
            choices: [new, existing]
          existing_floating_id:
            description:
              - UUID of an existing floating IP. Required when O(interfaces[].floating_ip.source=existing), not allowed otherwise.
            type: str
      security_groups:
        description:
          - Security groups applied to the interface. Any type.
        type: list
        elements: dict
        suboptions:
          id:
            description:
              - UUID of the security group.
            type: str
            required: true
"""

    # The interfaces of instance and instances, which take their parents by name as well: DOCUMENTATION's entry with
    # network, subnet, and a reserved fixed IP found by ip_address with network (a literal: ansible-test reads
    # fragments as plain strings; tests/unit/test_doc_fragments.py keeps the two in step).
    NAMED = r"""
options:
  interfaces:
    description:
      - Network interfaces, in order.
      - Each item is one of four variants chosen by O(interfaces[].type).
      - A field given for a type that has no such field, or missing where the type requires it, fails validation before
        any request is sent.
      - Only the fields given are sent.
    type: list
    elements: dict
    suboptions:
      type:
        description:
          - V(external) attaches the server to the default external network (a public IP).
          - V(subnet) takes an address from a given subnet (O(interfaces[].network_id) and O(interfaces[].subnet_id) required).
          - V(any_subnet) takes an address from the subnet with the most free addresses in a network
            (O(interfaces[].network_id) required).
          - V(reserved_fixed_ip) attaches an existing reserved fixed IP port (O(interfaces[].port_id) required).
        type: str
        choices: [external, subnet, any_subnet, reserved_fixed_ip]
        default: external
      interface_name:
        description:
          - Name of the interface, at most 37 characters. Any type.
        type: str
      ip_family:
        description:
          - IP family of the address; V(dual) gives both. Only for V(external) and V(any_subnet).
          - When not set, the service uses V(ipv4).
        type: str
        choices: [ipv4, ipv6, dual]
      network_id:
        description:
          - UUID of the network. Required for V(subnet) and V(any_subnet), not allowed for other types.
        type: str
      subnet_id:
        description:
          - UUID of the subnet. Required for V(subnet), not allowed for other types.
        type: str
      network:
        description:
          - The network by its ID or its exact name, as an alternative to O(interfaces[].network_id) (not with it). Where
            O(interfaces[].network_id) is allowed, and with O(interfaces[].ip_address) for V(reserved_fixed_ip).
          - A name is looked up over every page of the network listing before any write; none or several (their IDs are
            listed) fail the module and nothing is sent. In check mode a network not built yet is assumed to be created
            by an earlier task (a warning says so).
        type: str
        version_added: 1.1.0
      subnet:
        description:
          - The subnet by its ID or its exact name within the interface's network, as an alternative to
            O(interfaces[].subnet_id) (not with it). Only for V(subnet).
          - Looked up before any write as O(interfaces[].network) is (check mode alike).
        type: str
        version_added: 1.1.0
      port_id:
        description:
          - ID of the reserved fixed IP port. For V(reserved_fixed_ip) (or give O(interfaces[].ip_address) with
            O(interfaces[].network)), not allowed for other types.
        type: str
      ip_address:
        description:
          - A fixed IPv4 or IPv6 address to request from the network. For V(any_subnet); it must lie in one of the
            network's subnets (M(gcore.platform.instance), M(gcore.platform.instances) and
            M(gcore.platform.baremetal_server) check it before any write, naming the address and the subnets).
          - For V(reserved_fixed_ip), with O(interfaces[].network) in place of O(interfaces[].port_id), the address of the
            reserved fixed IP to attach, found with C(GET /cloud/v1/reserved_fixed_ips/{project_id}/{region_id}) on that
            network before any write (none fails; check mode assumes an earlier task creates it).
          - The option accepts this use since version 1.1.0.
        type: str
      floating_ip:
        description:
          - A floating (public) IP for the interface. Not allowed for V(external).
        type: dict
        suboptions:
          source:
            description:
              - V(new) creates a floating IP; V(existing) attaches O(interfaces[].floating_ip.existing_floating_id).
            type: str
            required: true
            choices: [new, existing]
          existing_floating_id:
            description:
              - UUID of an existing floating IP. Required when O(interfaces[].floating_ip.source=existing), not allowed otherwise.
            type: str
      security_groups:
        description:
          - Security groups applied to the interface. Any type.
        type: list
        elements: dict
        suboptions:
          id:
            description:
              - UUID of the security group.
            type: str
            required: true
"""

    # quota_check's: NAMED with a bare metal server's port_group, so that a baremetal_server task's interfaces are
    # checked as they are (a literal too; tests/unit/test_doc_fragments.py keeps it NAMED plus port_group).
    CHECKED = r"""
options:
  interfaces:
    description:
      - Network interfaces, in order.
      - Each item is one of four variants chosen by O(interfaces[].type).
      - A field given for a type that has no such field, or missing where the type requires it, fails validation before
        any request is sent.
      - Only the fields given are sent.
    type: list
    elements: dict
    suboptions:
      type:
        description:
          - V(external) attaches the server to the default external network (a public IP).
          - V(subnet) takes an address from a given subnet (O(interfaces[].network_id) and O(interfaces[].subnet_id) required).
          - V(any_subnet) takes an address from the subnet with the most free addresses in a network
            (O(interfaces[].network_id) required).
          - V(reserved_fixed_ip) attaches an existing reserved fixed IP port (O(interfaces[].port_id) required).
        type: str
        choices: [external, subnet, any_subnet, reserved_fixed_ip]
        default: external
      interface_name:
        description:
          - Name of the interface, at most 37 characters. Any type.
        type: str
      ip_family:
        description:
          - IP family of the address; V(dual) gives both. Only for V(external) and V(any_subnet).
          - When not set, the service uses V(ipv4).
        type: str
        choices: [ipv4, ipv6, dual]
      network_id:
        description:
          - UUID of the network. Required for V(subnet) and V(any_subnet), not allowed for other types.
        type: str
      subnet_id:
        description:
          - UUID of the subnet. Required for V(subnet), not allowed for other types.
        type: str
      network:
        description:
          - The network by its ID or its exact name, as an alternative to O(interfaces[].network_id) (not with it). Where
            O(interfaces[].network_id) is allowed, and with O(interfaces[].ip_address) for V(reserved_fixed_ip).
          - A name is looked up over every page of the network listing before any write; none or several (their IDs are
            listed) fail the module and nothing is sent. In check mode a network not built yet is assumed to be created
            by an earlier task (a warning says so).
        type: str
        version_added: 1.1.0
      subnet:
        description:
          - The subnet by its ID or its exact name within the interface's network, as an alternative to
            O(interfaces[].subnet_id) (not with it). Only for V(subnet).
          - Looked up before any write as O(interfaces[].network) is (check mode alike).
        type: str
        version_added: 1.1.0
      port_id:
        description:
          - ID of the reserved fixed IP port. For V(reserved_fixed_ip) (or give O(interfaces[].ip_address) with
            O(interfaces[].network)), not allowed for other types.
        type: str
      ip_address:
        description:
          - A fixed IPv4 or IPv6 address to request from the network. For V(any_subnet); it must lie in one of the
            network's subnets (M(gcore.platform.instance), M(gcore.platform.instances) and
            M(gcore.platform.baremetal_server) check it before any write, naming the address and the subnets).
          - For V(reserved_fixed_ip), with O(interfaces[].network) in place of O(interfaces[].port_id), the address of the
            reserved fixed IP to attach, found with C(GET /cloud/v1/reserved_fixed_ips/{project_id}/{region_id}) on that
            network before any write (none fails; check mode assumes an earlier task creates it).
          - The option accepts this use since version 1.1.0.
        type: str
      floating_ip:
        description:
          - A floating (public) IP for the interface. Not allowed for V(external).
        type: dict
        suboptions:
          source:
            description:
              - V(new) creates a floating IP; V(existing) attaches O(interfaces[].floating_ip.existing_floating_id).
            type: str
            required: true
            choices: [new, existing]
          existing_floating_id:
            description:
              - UUID of an existing floating IP. Required when O(interfaces[].floating_ip.source=existing), not allowed otherwise.
            type: str
      port_group:
        description:
          - The trunk group of a bare metal server's interface, V(0) to V(3), as M(gcore.platform.baremetal_server)
            takes it. Only for bare metal; accepted so that a server's declaration is checked as it is, and not sent
            (the quota does not depend on it).
        type: int
        version_added: 1.2.0
      security_groups:
        description:
          - Security groups applied to the interface. Any type.
        type: list
        elements: dict
        suboptions:
          id:
            description:
              - UUID of the security group.
            type: str
            required: true
"""
