#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: load_balancer
short_description: Create, update and delete a Gcore Cloud load balancer with its listeners, pools and members
version_added: 1.0.0
description:
  - Makes a Gcore Cloud load balancer match what you describe, with its listeners, each listener's pool, the pool's
    members, health monitor and session persistence, all in one task; or removes it. Does nothing when it already
    matches.
  - Found by O(load_balancer_id) or by its exact O(name); created in one request with every listener, pool, member and
    health monitor, then waited for until C(ACTIVE).
  - On an existing load balancer only the differences of its listeners and pools are sent (see O(listeners)), each write
    waiting for the load balancer to be C(ACTIVE) again; O(state=absent) deletes it with its listeners and pools.
author:
  - gcore.platform developers (@gcore-platform)
options:
  state:
    description:
      - V(present) creates or updates the load balancer; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  load_balancer_id:
    description:
      - ID (UUID) of the load balancer, in any letter case (sent lower-case).
      - When given, the load balancer is found by this ID and O(name) is its desired name.
      - With O(state=present), an ID that does not exist fails the module (an ID cannot be created).
      - One of O(load_balancer_id) and O(name) is required.
    type: str
  name:
    description:
      - Name of the load balancer, matched exactly; required to create one.
      - 3 to 63 letters, digits, spaces, V(.), V(_) or V(-); first a letter or digit, last a letter, digit, V(.) or V(_).
    type: str
  flavor:
    description:
      - Load balancer flavor name, for example V(lb1-1-2). Create-only.
      - On an existing load balancer whose flavor differs, the module fails before any write, naming both flavors.
      - When not given, the service chooses its default flavor.
    type: str
  vip_network_id:
    description:
      - ID of the network of the virtual IP; when not given, the region's default external network. Used at create only
        and not compared.
    type: str
  vip_subnet_id:
    description:
      - ID of the subnet of the virtual IP, within O(vip_network_id). Used at create only and not compared.
    type: str
  vip_port_id:
    description:
      - ID of an existing reserved fixed IP port to use as the virtual IP; not with O(vip_network_id). Used at create
        only and not compared.
    type: str
  vip_network:
    description:
      - The network of the virtual IP by its ID or its exact name, as an alternative to O(vip_network_id) (not with it,
        nor with O(vip_port_id)). With O(vip_ip_address), the network of the reserved fixed IP to use.
      - Looked up before the create (every page of the network listing); none or several (their IDs are listed) fail the
        module and nothing is sent. In check mode a network not built yet does not fail; the module warns that it
        assumes an earlier task creates it and previews the create. Used at create only and not compared.
    type: str
    version_added: 1.1.0
  vip_subnet:
    description:
      - The subnet of the virtual IP by its ID or its exact name (within the virtual IP's network when it is given), as an
        alternative to O(vip_subnet_id) (not with it). Looked up as O(vip_network) is. Used at create only and not
        compared.
    type: str
    version_added: 1.1.0
  vip_ip_address:
    description:
      - The address of an existing reserved fixed IP on O(vip_network) (or O(vip_network_id)) to use as the virtual IP,
        as an alternative to O(vip_port_id) (not with it). It is found with
        C(GET /cloud/v1/reserved_fixed_ips/{project_id}/{region_id}) before the create, which then sends its
        C(vip_port_id) (and no network); none fails the module (in check mode it is assumed built by an earlier task). Used at
        create only and not compared.
    type: str
    version_added: 1.1.0
  vip_ip_family:
    description:
      - IP family of the virtual IP, when the subnet is chosen automatically. Used at create only and not compared.
    type: str
    choices: [dual, ipv4, ipv6]
  floating_ip:
    description:
      - A floating IP for the virtual IP. Used at create only and not compared.
    type: dict
    suboptions:
      source:
        description:
          - V(new) makes a floating IP; V(existing) uses O(floating_ip.existing_floating_id).
        type: str
        choices: [new, existing]
        required: true
      existing_floating_id:
        description:
          - ID of the floating IP; required with O(floating_ip.source=existing), not accepted with V(new).
        type: str
  listeners:
    description:
      - The listeners of the load balancer, as a set identified by O(listeners[].name).
      - A listener missing is created with C(POST /cloud/v1/lblisteners/{project_id}/{region_id}), then its pool with
        C(POST /cloud/v1/lbpools/{project_id}/{region_id}).
      - A listener that differs gets one C(PATCH /cloud/v2/lblisteners/{project_id}/{region_id}/{listener_id}) with
        only the options that differ; O(listeners[].protocol), O(listeners[].protocol_port) and
        O(listeners[].insert_x_forwarded) cannot change, and when one differs the module fails before any write,
        naming the listener and the option (delete the listener and create it again, or use another name).
      - The secrets the listeners name (O(listeners[].secret), O(listeners[].sni_secrets)) are resolved to IDs before
        any write.
      - With O(purge_listeners=true), listeners not listed are deleted with their pool
        (C(DELETE /cloud/v1/lblisteners/{project_id}/{region_id}/{listener_id}?delete_default_pool=true)); a listener
        whose port a new listener takes is deleted first, the others after the creates and updates.
      - When left out, the listeners are not managed. Two items with one name, or with one port, fail naming both
        indices. At most 51 listeners (50 and a V(PROMETHEUS) one).
      - After an ambiguous failure of a write (a 5xx, a timeout or a dropped connection) the load balancer is read
        again and the request is never sent twice; when the state shows the write took effect, the module goes on
        and warns.
    type: list
    elements: dict
    suboptions:
      name:
        description:
          - Name of the listener, its identity within the load balancer (the same rule as O(name)).
        type: str
        required: true
      protocol:
        description:
          - Protocol of the listener. Create-only.
        type: str
        required: true
        choices: [HTTP, HTTPS, TCP, UDP, TERMINATED_HTTPS, PROMETHEUS]
      protocol_port:
        description:
          - Port the listener listens on, V(1) to V(65535). Create-only.
        type: int
        required: true
      allowed_cidrs:
        description:
          - The CIDRs allowed to connect, as a set (at most 100); V([]) allows everyone. When not given, not managed.
          - Each must be a strict network, without host bits (V(10.0.0.0/8), not V(10.0.0.1/8)), as the service requires;
            another fails validation naming the network it would be.
        type: list
        elements: str
      connection_limit:
        description:
          - Largest number of connections, V(-1) to V(1000000) (V(-1) is the service's default, 100000). When not
            given, not managed.
        type: int
      timeout_client_data:
        description:
          - Client inactivity timeout in milliseconds, V(0) to V(86400000). When not given, not managed.
        type: int
      timeout_member_connect:
        description:
          - Timeout in milliseconds for connecting to a member, V(0) to V(86400000). When not given, not managed.
          - The service marks it deprecated on the listener (set on the pool instead); it is still accepted.
        type: int
      timeout_member_data:
        description:
          - Member inactivity timeout in milliseconds, V(0) to V(86400000). When not given, not managed.
          - The service marks it deprecated on the listener (set on the pool instead); it is still accepted.
        type: int
      insert_x_forwarded:
        description:
          - Whether the listener adds C(X-Forwarded-For) and C(X-Forwarded-Port) headers; only V(HTTP) and
            V(TERMINATED_HTTPS) listeners. Create-only; when not given, not compared.
        type: bool
      secret:
        description:
          - The certificate the listener ends TLS with, a secret (M(gcore.platform.secret)) given by its ID or its exact
            name. Sent as C(secret_id).
          - Required with O(listeners[].protocol=TERMINATED_HTTPS); accepted with V(PROMETHEUS); with V(HTTP), V(HTTPS),
            V(TCP) or V(UDP) it fails validation.
          - A name is looked up over every page of C(GET /cloud/v1/secrets/{project_id}/{region_id}) before any write
            (one listing for every name of the task); a name no secret has, or that several secrets have, fails the
            module and nothing is sent. An ID is used as given (the service answers 404 for an unknown one).
          - Changed on an existing listener with its PATCH; this is how a certificate is rotated (see
            M(gcore.platform.secret)). When not given, not managed.
        type: str
      sni_secrets:
        description:
          - More certificates, chosen by the host name the client asks for (SNI), as a set of secret IDs or exact names
            (resolved as O(listeners[].secret)). Sent as C(sni_secret_id), whole. Only with V(TERMINATED_HTTPS) or
            V(PROMETHEUS).
          - V([]) removes them all. When not given, not managed.
        type: list
        elements: str
      user_list:
        description:
          - Users of HTTP Basic authentication on the listener, at most 3, each with its own username; compared as a set
            and sent whole.
          - When not given, not managed; V([]) removes them all.
        type: list
        elements: dict
        suboptions:
          username:
            description:
              - User name, 3 to 32 characters matching C(^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,30}[a-zA-Z0-9._]$).
            type: str
            required: true
          encrypted_password:
            description:
              - The password as a crypt(3) hash (for example SHA-256-crypt, C($5$...) from C(mkpasswd -m sha-256)), at
                most 128 characters. The service answers the hash it holds, and it is compared as given. C(no_log).
            type: str
            required: true
      pool:
        description:
          - The listener's pool, declared whole. When left out, the listener has no pool, and an existing one is deleted
            (C(DELETE /cloud/v1/lbpools/{project_id}/{region_id}/{pool_id})).
          - A V(PROMETHEUS) listener has no pool (one given fails before any request).
          - A pool that differs gets one C(PATCH /cloud/v2/lbpools/{project_id}/{region_id}/{pool_id}) carrying
            what differs of its name, algorithm, protocol, session persistence, or a new health monitor.
          - Its members, when they differ, are sent as the whole list in one
            C(PUT /cloud/v1/loadbalancers/{project_id}/{region_id}/pools/{pool_id}/members) (members equal by address
            and port are kept, not recreated); a weight change is that PUT too.
          - A health monitor of the same type that differs gets C(PATCH /cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}/healthmonitor)
            with the members that differ. One left out is removed (C(DELETE .../{pool_id}/healthmonitor)); one whose
            O(listeners[].pool.healthmonitor.type) differs is deleted and created again (C(POST .../{pool_id}/healthmonitor)),
            as the service cannot change a type.
        type: dict
        suboptions:
          name:
            description:
              - Name of the pool (the same rule as O(name)).
            type: str
            required: true
          lb_algorithm:
            description:
              - How connections are spread over the members.
            type: str
            required: true
            choices: [ROUND_ROBIN, LEAST_CONNECTIONS, SOURCE_IP]
          protocol:
            description:
              - Protocol to the members. It must fit the listener's O(listeners[].protocol), as the service requires
                (else the task fails before any request) - V(HTTP) and V(TERMINATED_HTTPS) listeners take V(HTTP),
                V(PROXY) or V(PROXYV2) pools; V(HTTPS) takes V(HTTPS), V(PROXY), V(PROXYV2) or V(TCP); V(TCP) takes
                V(HTTP), V(HTTPS), V(PROXY), V(PROXYV2) or V(TCP); V(UDP) takes V(UDP).
            type: str
            required: true
            choices: [HTTP, HTTPS, TCP, UDP, PROXY, PROXYV2]
          members:
            description:
              - The members, as a set keyed by O(listeners[].pool.members[].address) and
                O(listeners[].pool.members[].protocol_port); left out means none. A key given twice fails naming both
                indices.
            type: list
            elements: dict
            suboptions:
              address:
                description:
                  - IPv4 or IPv6 address of the member. Exactly one of O(listeners[].pool.members[].address) and
                    O(listeners[].pool.members[].instance) is required.
                type: str
              instance:
                description:
                  - The member's instance, an instance ID (a UUID) or its exact name (for example a member of a
                    M(gcore.platform.instances) fleet), in place of O(listeners[].pool.members[].address).
                  - The member's address is the instance's fixed address in O(listeners[].pool.members[].subnet_id),
                    else in O(vip_subnet_id), else its one private IPv4 address. It is resolved before any write
                    (names from one listing of every page of the instances); no such instance, several of the name,
                    or not exactly one such address fails the task naming the member, and nothing is sent.
                  - The instance's ID is sent as the member's C(instance_id) when that is not given.
                type: str
                version_added: 1.1.0
              protocol_port:
                description:
                  - Port of the member, V(1) to V(65535).
                type: int
                required: true
              weight:
                description:
                  - Weight of the member, V(1) to V(256).
                type: int
                default: 1
              subnet_id:
                description:
                  - ID of the member's subnet. When not given, whatever subnet the member has is accepted.
                  - Each subnet given is read before any write; a member whose address is not of the subnet's IP version
                    (an IPv6 address on an IPv4 subnet) fails the task, and nothing is sent.
                type: str
              instance_id:
                description:
                  - ID of the member's instance. The service does not show it, so it is used when the member is added
                    and not compared.
                type: str
              backup:
                description:
                  - Whether the member is a backup, used only when every other member is down.
                type: bool
                default: false
              admin_state_up:
                description:
                  - Whether the member is enabled.
                type: bool
                default: true
          healthmonitor:
            description:
              - The pool's health monitor; left out means none.
              - Its options not given are not compared (the service fills its defaults).
            type: dict
            suboptions:
              type:
                description:
                  - Kind of check; it cannot change, so a different type deletes the health monitor and creates it again.
                type: str
                required: true
                choices: [HTTP, HTTPS, K8S, PING, TCP, TLS-HELLO, UDP-CONNECT]
              delay:
                description:
                  - Seconds between two checks, V(1) to V(2147483647).
                type: int
                required: true
              max_retries:
                description:
                  - Checks that must pass to mark a member up, V(1) to V(10).
                type: int
                required: true
              timeout:
                description:
                  - Seconds a check may take, V(0) to V(2147483) and below O(listeners[].pool.healthmonitor.delay).
                type: int
                required: true
              max_retries_down:
                description:
                  - Checks that must fail to mark a member down, V(1) to V(10).
                type: int
              url_path:
                description:
                  - Path requested (V(HTTP) and V(HTTPS) only), starting with V(/).
                type: str
              expected_codes:
                description:
                  - Status codes that mean healthy (V(HTTP) and V(HTTPS) only), for example V(200,202,300-302), that
                    is codes from V(100) to V(599) and ranges of them, comma-separated. Anything else fails before any request.
                type: str
              http_method:
                description:
                  - Method of the request (V(HTTP) and V(HTTPS) only).
                type: str
                choices: [CONNECT, DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT, TRACE]
          session_persistence:
            description:
              - How a client sticks to one member; left out means none.
            type: dict
            suboptions:
              type:
                description:
                  - Kind of persistence.
                type: str
                required: true
                choices: [APP_COOKIE, HTTP_COOKIE, SOURCE_IP]
              cookie_name:
                description:
                  - Name of the application's cookie; required with V(APP_COOKIE), not accepted otherwise.
                type: str
  purge_listeners:
    description:
      - Whether listeners of the load balancer not in O(listeners) are deleted. Ignored when O(listeners) is left out.
    type: bool
    default: true
notes:
  - The load balancer is found by O(load_balancer_id) when it is given, otherwise by its exact O(name) over every page
    of the load balancer list. More than one load balancer with that name fails the module and lists their IDs.
  - A missing load balancer is created with one C(POST /cloud/v1/loadbalancers/{project_id}/{region_id}) carrying
    every listener, pool, member and health monitor; its ID is read from the finished task's
    C(created_resources.loadbalancers), then the module waits until its C(provisioning_status) is C(ACTIVE).
  - On an existing load balancer, its listeners and pools are read with one listing each and only the differences
    are sent (see O(listeners)); O(name) and O(tags) change with
    C(PATCH /cloud/v2/loadbalancers/{project_id}/{region_id}/{load_balancer_id}).
  - Each write waits for its task, and for the load balancer to be unlocked again, before the next is sent (the
    service refuses a change while the load balancer is not C(ACTIVE); such a C(409 Conflict) answer applied nothing
    and is sent again once the load balancer is unlocked, at most 3 times and never more than O(api_retries)).
  - A load balancer whose C(provisioning_status) becomes C(ERROR) fails the module, naming its ID.
  - After the last write of a run the module waits until the load balancer is C(ACTIVE) again and returns it as read
    then, so a task that follows never meets a pending load balancer.
  - O(state=absent) deletes the load balancer with one C(DELETE /cloud/v1/loadbalancers/{project_id}/{region_id}/{load_balancer_id});
    the service deletes its listeners and pools with it.
  - Check mode sends no write. Diff mode shows C(listeners) as a mapping by listener name, each with its C(pool), whose
    C(members) are a mapping keyed C(address:port); only the listeners that change are shown.
  - With O(wait=false) the module returns the task IDs in RV(tasks) without waiting for them; a write sent while the
    load balancer is still busy waits for it all the same (the service refuses it meanwhile).
extends_documentation_fragment:
  - gcore.platform.gcore
  - gcore.platform.gcore.CLOUD
  - gcore.platform.gcore.WAIT
  - gcore.platform.gcore.TAGS
  - gcore.platform.attributes
  - gcore.platform.provisioning
seealso:
  - module: gcore.platform.load_balancer_info
    description: Read load balancers.
  - module: gcore.platform.floating_ip
    description: Give the load balancer's VIP port a public address.
  - module: gcore.platform.instance
    description: The instances that serve as pool members.
  - module: gcore.platform.secret
    description: The TLS certificates of V(TERMINATED_HTTPS) listeners, and how to rotate one.
"""

EXAMPLES = r"""
- name: A load balancer with an HTTP listener, its pool of two members and a health monitor
  gcore.platform.load_balancer:
    project_id: 1
    region_id: 76
    name: web-lb
    flavor: lb1-1-2
    tags:
      env: production
    listeners:
      - name: http
        protocol: HTTP
        protocol_port: 80
        insert_x_forwarded: true
        pool:
          name: web-pool
          lb_algorithm: ROUND_ROBIN
          protocol: HTTP
          members:
            - address: 10.0.0.11
              protocol_port: 8080
            - address: 10.0.0.12
              protocol_port: 8080
              weight: 5
          healthmonitor:
            type: HTTP
            delay: 10
            max_retries: 3
            timeout: 5
            url_path: /health
  register: lb

- name: Add a TCP listener without touching the others
  gcore.platform.load_balancer:
    project_id: 1
    region_id: 76
    load_balancer_id: "{{ lb.load_balancer.id }}"
    purge_listeners: false
    listeners:
      - name: postgres
        protocol: TCP
        protocol_port: 5432
        allowed_cidrs: [10.0.0.0/8]
        pool:
          name: db-pool
          lb_algorithm: LEAST_CONNECTIONS
          protocol: TCP
          members:
            - address: 10.0.0.21
              protocol_port: 5432

- name: Delete the load balancer with its listeners and pools
  gcore.platform.load_balancer:
    project_id: 1
    region_id: 76
    name: web-lb
    state: absent
"""

RETURN = r"""
load_balancer:
  description:
    - The load balancer as the service returned it when last read, with C(listeners) holding the listener records,
      each with its C(pool) record (members and health monitor included) or V(null).
    - A listener's C(user_list[].encrypted_password) (a password hash) is masked, V(********).
    - V(null) after a delete, when O(state=absent) found none, and in check mode when it would be created.
  returned: success
  type: dict
  contains:
    id:
      description: Load balancer ID.
      type: str
      sample: 5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d
    name:
      description: Name.
      type: str
      sample: web-lb
    provisioning_status:
      description: C(ACTIVE), C(PENDING_CREATE), C(PENDING_UPDATE), C(PENDING_DELETE), C(ERROR) or C(DELETED).
      type: str
      sample: ACTIVE
    operating_status:
      description: C(ONLINE), C(OFFLINE), C(DEGRADED), C(DRAINING), C(NO_MONITOR) or C(ERROR).
      type: str
      sample: ONLINE
    vip_address:
      description: The virtual IP address.
      type: str
      sample: 203.0.113.11
    flavor:
      description: The flavor, with C(flavor_id), C(flavor_name), C(vcpus) and C(ram).
      type: dict
      sample: {flavor_id: lb1-1-2, flavor_name: lb1-1-2, vcpus: 1, ram: 2048}
    tags_v2:
      description: Tags as C({key, value, read_only}) items.
      type: list
      elements: dict
      sample: [{key: env, value: production, read_only: false}]
    listeners:
      description:
        - The listener records (C(id), C(name), C(protocol), C(protocol_port), C(allowed_cidrs), C(connection_limit),
          C(timeout_client_data), C(timeout_member_connect), C(timeout_member_data), C(secret_id), C(sni_secret_id),
          C(user_list), C(insert_headers), C(provisioning_status), ...), each with C(pool), the pool record
          (C(id), C(name), C(lb_algorithm), C(protocol), C(members), C(healthmonitor), C(session_persistence), ...) or V(null).
      type: list
      elements: dict
      sample:
        - id: 7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f
          name: http
          protocol: HTTP
          protocol_port: 80
          pool:
            name: web-pool
            lb_algorithm: ROUND_ROBIN
            members: [{address: 10.0.0.11, protocol_port: 8080, weight: 1}]
            healthmonitor: {type: HTTP, delay: 10, max_retries: 3, timeout: 5}
    task_id:
      description: ID of the task that currently locks the load balancer, or V(null).
      type: str
      sample: null
diff:
  description:
    - The managed members before and after the change (in check mode, what would change), with C(state); just
      C(state=absent) for a load balancer that does not exist (before a create, after a delete).
    - C(name) and C(tags) (a mapping of the user tags); with O(state=present), C(listeners), a mapping by listener
      name of the listeners that change (created, changed or deleted; unchanged ones are left out), each with its
      C(pool) (or V(null)), whose C(members) are a mapping keyed C(address:port).
    - A listener shows its certificates as IDs (C(secret_id), C(sni_secret_id) sorted), C(allowed_cidrs) sorted,
      C(user_list) sorted by username (the password hashes masked), and its timeouts.
    - With O(state=absent), C(before) lists C(listeners), every listener (with its pool) the delete takes with the
      load balancer (since 1.1.0).
  returned: success
  type: dict
  sample:
    before:
      state: present
      name: web-lb
      tags: {env: prod}
      listeners:
        http:
          protocol: HTTP
          protocol_port: 80
          allowed_cidrs: []
          connection_limit: 100000
          timeout_client_data: 50000
          timeout_member_connect: 5000
          timeout_member_data: 50000
          insert_x_forwarded: true
          secret_id: null
          sni_secret_id: []
          user_list: []
          pool:
            name: web-pool
            lb_algorithm: ROUND_ROBIN
            protocol: HTTP
            members:
              "10.0.0.11:8080": {weight: 1, backup: false, admin_state_up: true, subnet_id: null}
            healthmonitor: {type: HTTP, delay: 10, max_retries: 3, timeout: 5, max_retries_down: 3, url_path: /health,
                            expected_codes: "200", http_method: GET}
            session_persistence: null
    after:
      state: present
      name: web-lb
      tags: {env: prod}
      listeners:
        http:
          protocol: HTTP
          protocol_port: 80
          allowed_cidrs: []
          connection_limit: 100000
          timeout_client_data: 50000
          timeout_member_connect: 5000
          timeout_member_data: 50000
          insert_x_forwarded: true
          secret_id: null
          sni_secret_id: []
          user_list: []
          pool:
            name: web-pool
            lb_algorithm: ROUND_ROBIN
            protocol: HTTP
            members:
              "10.0.0.11:8080": {weight: 1, backup: false, admin_state_up: true, subnet_id: null}
              "10.0.0.13:8080": {weight: 1, backup: false, admin_state_up: true, subnet_id: null}
            healthmonitor: {type: HTTP, delay: 10, max_retries: 3, timeout: 5, max_retries_down: 3, url_path: /health,
                            expected_codes: "200", http_method: GET}
            session_persistence: null
changes:
  description:
    - What the service accepted (or the state read afterwards confirmed), on success and on failure; in check mode,
      what would be sent.
    - C(listeners) lists listener names C(created), C(updated) (the listener or its pool) and C(deleted); C(members) the
      members C(added) and C(removed), as C(address:port).
  returned: when O(state=present)
  type: dict
  sample: {listeners: {created: [http], updated: [], deleted: []}, members: {added: ["10.0.0.11:8080"], removed: []}}
tasks:
  description: IDs of the tasks the run started (with O(wait=true) every one of them has finished).
  returned: success
  type: list
  elements: str
  sample: [d3e4f5a6-b7c8-4d9e-8f0a-1b2c3d4e5f6a]
"""

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError, check_uuid, require
from ansible_collections.gcore.platform.plugins.module_utils._cloud import KINDS, CloudResource
from ansible_collections.gcore.platform.plugins.module_utils._lb import LISTENER_SPEC, expand, listener_body, listener_view, resolve_secrets
from ansible_collections.gcore.platform.plugins.module_utils._lb_instances import resolve_member_instances
from ansible_collections.gcore.platform.plugins.module_utils._lb_listeners import CHANGES, Listeners, check_member_subnets
from ansible_collections.gcore.platform.plugins.module_utils._checks import masked
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._networks import address
from ansible_collections.gcore.platform.plugins.module_utils._parents import resolve_vip
from ansible_collections.gcore.platform.plugins.module_utils._tags import tags_member


class LoadBalancer(CloudResource):
    kind = KINDS["load_balancer"]
    options = dict(
        flavor=dict(type="str"),
        vip_network_id=dict(type="str"),
        vip_subnet_id=dict(type="str"),
        vip_port_id=dict(type="str"),
        vip_network=dict(type="str"),
        vip_subnet=dict(type="str"),
        vip_ip_address=dict(type="str"),
        vip_ip_family=dict(type="str", choices=["dual", "ipv4", "ipv6"]),
        floating_ip=dict(type="dict", options=dict(
            source=dict(type="str", required=True, choices=["new", "existing"]),
            existing_floating_id=dict(type="str"),
        )),
        listeners=dict(type="list", elements="dict", options=LISTENER_SPEC),
        purge_listeners=dict(type="bool", default=True),
    )
    tagged = True
    module_kwargs = dict(mutually_exclusive=[("vip_network_id", "vip_port_id"), ("vip_network_id", "vip_network"), ("vip_subnet_id", "vip_subnet"),
                                             ("vip_port_id", "vip_network"), ("vip_port_id", "vip_ip_address")])
    uuid_options = ("vip_network_id", "vip_subnet_id", "vip_port_id")
    create_options = ("name", "flavor", "vip_network_id", "vip_subnet_id", "vip_port_id", "vip_ip_family")
    required_to_create = ()
    ready = ("provisioning_status", ("ACTIVE",), ("PENDING_CREATE", "PENDING_UPDATE"))

    @property
    def members(self):
        return (Member("name"), tags_member(self.params, "tags_v2"))

    parts = (Listeners(),)  # with their pools: a set read with two listings, written one request at a time (_lb_listeners)

    @property
    def changes(self):
        return CHANGES if self.params["state"] == "present" else None

    def validate(self):
        super().validate()
        params = self.params
        floating = params["floating_ip"]
        if floating:
            check_uuid("floating_ip.existing_floating_id", floating["existing_floating_id"])
            require((floating["source"] == "existing") == (floating["existing_floating_id"] is not None),
                    "floating_ip.existing_floating_id", "required with floating_ip.source existing, not accepted with new")
        if params["vip_ip_address"] is not None:
            require(params["vip_network"] is not None or params["vip_network_id"] is not None, "vip_ip_address",
                    "needs vip_network or vip_network_id (the network of the reserved fixed IP holding it)")
            address("vip_ip_address", params["vip_ip_address"])
            require(params["vip_subnet"] is None and params["vip_subnet_id"] is None, "vip_ip_address",
                    "not with vip_subnet or vip_subnet_id (the reserved fixed IP holds the address)")

    # ---- hooks -----------------------------------------------------------------------------
    def resolve(self):
        """The listeners' secrets by name, turned into ids, and the members named by instance given their address, before any
        write (one listing of the secrets, one of the instances); then the members' subnets read, each member's address of
        its subnet's IP version."""
        if self.params["state"] == "present":
            resolve_secrets(self, self.params["listeners"])
            resolve_member_instances(self, self.params["listeners"])
            check_member_subnets(self.client, self.params, self.params["listeners"])

    def report(self, record):
        if record is None and self.params["state"] == "present":  # used at create only: the VIP's parents by name
            resolve_vip(self)
        wanted, held = self.params["flavor"], ((record or {}).get("flavor") or {}).get("flavor_name")
        if record is not None and wanted is not None and held is not None and wanted != held and self.params["state"] == "present":
            raise ValidationError("flavor: load balancer %s has flavor %r and a flavor cannot change here (create-only); "
                                  "delete the load balancer and create it again, or use another name for %r"
                                  % (record["id"], held, wanted))

    def shown(self, record):
        """A delete's before side lists the listeners it takes with the load balancer, each with its pool."""
        shown = super().shown(record)
        if self.params["state"] != "absent":
            return shown
        listeners = expand(self.client, self.params, record).get("listeners") or []  # two listings when not read yet
        return dict(shown, listeners=masked(dict((listener.get("name"), listener_view(listener)) for listener in listeners)))

    def create_body(self):
        params = self.params
        body = super().create_body()
        if params["floating_ip"]:
            body["floating_ip"] = dict((key, value) for key, value in params["floating_ip"].items() if value is not None)
        if params["tags"]:
            body["tags"] = params["tags"]
        if params["listeners"]:
            body["listeners"] = [listener_body(item) for item in params["listeners"]]
        return body

    def returned(self, record):
        return masked(expand(self.client, self.params, record)) if self.exists_after(record) else None


def main():
    LoadBalancer.main()


if __name__ == "__main__":
    main()
