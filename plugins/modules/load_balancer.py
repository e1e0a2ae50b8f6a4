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
      - One port cannot hold two listeners, so a listener replaced by another on its port (a TLS listener moved to a
        new name, for example) is deleted before the new one is created; a failure between that delete and the create
        leaves neither. The diff says so in the new listener's C(note).
      - When left out, the listeners are not managed. Two items with one name, or with one port, fail naming both
        indices. At most 51 listeners (50 and a V(PROMETHEUS) one).
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
      l7policies:
        description:
          - The listener's L7 policies, in order, each deciding per HTTP request whether to send it to another pool of the
            load balancer, redirect it or reject it. Only V(HTTP) and V(TERMINATED_HTTPS) listeners take them; given
            on another protocol, the task fails naming the listener before any request.
          - Given, the listener holds exactly these policies, found by O(listeners[].l7policies[].name), in this order
            (the list order is each policy's C(position)); a policy missing is created with
            C(POST /cloud/v1/l7policies/{project_id}/{region_id}) and then its rules, one that differs is changed with
            C(PATCH /cloud/v1/l7policies/{project_id}/{region_id}/{l7policy_id}) (which always carries the action and
            its target), and one not listed is deleted with its rules (C(DELETE .../{l7policy_id})).
          - When left out, the listener's policies are not managed; V([]) deletes them all.
          - The pool a policy names and the member its action needs are checked before any write.
        type: list
        elements: dict
        version_added: 1.2.0
        suboptions:
          name:
            description:
              - Name of the policy, its identity within the listener (the same rule as O(name)); two policies of one
                listener with one name fail naming both indices.
            type: str
            required: true
          action:
            description:
              - V(REDIRECT_TO_POOL) sends the matching requests to O(listeners[].l7policies[].redirect_pool);
                V(REDIRECT_TO_URL) redirects them to O(listeners[].l7policies[].redirect_url); V(REDIRECT_PREFIX)
                redirects them to O(listeners[].l7policies[].redirect_prefix) followed by the request's path;
                V(REJECT) refuses them.
              - The member the action needs is required, and the members of the other actions are refused (nothing
                sent).
            type: str
            required: true
            choices: [REDIRECT_TO_POOL, REDIRECT_TO_URL, REDIRECT_PREFIX, REJECT]
          redirect_pool:
            description:
              - The pool the matching requests go to, by the name of a pool of this load balancer (a pool declared in
                O(listeners), or with O(purge_listeners=false) the pool of a listener left undeclared); another name
                fails before any write, listing the pools. Sent as its ID.
            type: str
          redirect_url:
            description:
              - The URL the matching requests are redirected to, V(http://) or V(https://) with a host.
            type: str
          redirect_prefix:
            description:
              - The URL prefix the matching requests are redirected to, their path appended (for example
                V(https://www.example.com) to move every request to HTTPS), V(http://) or V(https://) with a host.
            type: str
          redirect_http_code:
            description:
              - The status of the redirect, with V(REDIRECT_TO_URL) or V(REDIRECT_PREFIX) only. When not given, the
                service's default (V(302)) and not compared.
            type: int
            choices: [301, 302, 303, 307, 308]
          rules:
            description:
              - What a request must match for the policy to apply, as a set (all must match; for "either", declare two
                policies with the same action). Left out means none, which matches every request.
              - A rule is identified by all its members. A rule to remove and one to add are sent as one
                C(PUT .../{l7policy_id}/rules/{l7rule_id}) that turns the first into the second (the service cannot
                remove a rule's key, so a rule with a key is not turned into one without; that is a create, then a
                delete); other rules are created with C(POST .../{l7policy_id}/rules) and deleted with
                C(DELETE .../rules/{l7rule_id}).
              - Two equal rules fail naming both indices.
            type: list
            elements: dict
            suboptions:
              type:
                description:
                  - What is compared.
                type: str
                required: true
                choices: [HOST_NAME, PATH, FILE_TYPE, HEADER, COOKIE, SSL_CONN_HAS_CERT, SSL_VERIFY_RESULT, SSL_DN_FIELD]
              compare_type:
                description:
                  - How it is compared; a V(FILE_TYPE) rule takes V(EQUAL_TO) or V(REGEX) only.
                type: str
                required: true
                choices: [EQUAL_TO, STARTS_WITH, ENDS_WITH, CONTAINS, REGEX]
              value:
                description:
                  - The value compared with, 1 to 255 characters.
                type: str
                required: true
              key:
                description:
                  - The header or cookie name (required with V(HEADER) and V(COOKIE)), or the certificate field with
                    V(SSL_DN_FIELD); at most 255 characters; not accepted with another type.
                type: str
              invert:
                description:
                  - Whether the match is inverted ("equal to" becomes "not equal to").
                type: bool
                default: false
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
  - Each write waits for its task, and for the load balancer to be C(ACTIVE) again, before the next is sent (the
    service refuses a change while the load balancer is not C(ACTIVE)).
  - A load balancer whose C(provisioning_status) becomes C(ERROR) fails the module, naming its ID.
  - After the last write of a run the module waits until the load balancer is C(ACTIVE) again and returns it as read
    then, so a task that follows never meets a pending load balancer.
  - O(state=absent) deletes the load balancer with one C(DELETE /cloud/v1/loadbalancers/{project_id}/{region_id}/{load_balancer_id});
    the service deletes its listeners and pools with it.
  - Diff mode shows C(listeners) as a mapping by listener name, each with its C(pool), whose
    C(members) are a mapping keyed C(address:port); only the listeners that change are shown.
  - Diff mode shows C(l7policies) as a mapping keyed C(listener/policy) of the L7 policies that change, each with its
    rules as text (since 1.2.0).
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

- name: Route /api to its own pool and send plain HTTP on to HTTPS, with L7 policies
  gcore.platform.load_balancer:
    project_id: 1
    region_id: 76
    name: web-lb
    listeners:
      - name: http
        protocol: HTTP
        protocol_port: 80
        pool:
          name: web-pool
          lb_algorithm: ROUND_ROBIN
          protocol: HTTP
          members:
            - address: 10.0.0.11
              protocol_port: 8080
        l7policies:
          - name: api
            action: REDIRECT_TO_POOL
            redirect_pool: api-pool
            rules:
              - type: PATH
                compare_type: STARTS_WITH
                value: /api
          - name: legacy-host
            action: REDIRECT_PREFIX
            redirect_prefix: https://www.example.com
            redirect_http_code: 301
            rules:
              - type: HOST_NAME
                compare_type: EQUAL_TO
                value: old.example.com
      - name: api
        protocol: HTTP
        protocol_port: 8080
        pool:
          name: api-pool
          lb_algorithm: LEAST_CONNECTIONS
          protocol: HTTP
          members:
            - address: 10.0.0.41
              protocol_port: 9000

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
        - Each listener's C(l7policies) (since 1.2.0), its L7 policy records in C(position) order (C(id), C(name),
          C(action), C(position), C(redirect_pool_id), C(redirect_url), C(redirect_prefix), C(redirect_http_code),
          C(provisioning_status), ...), each with C(rules), its rule records (C(id), C(type), C(compare_type), C(value),
          C(key), C(invert), ...).
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
          l7policies:
            - name: api
              action: REDIRECT_TO_POOL
              position: 1
              redirect_pool_id: 3f1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f
              rules: [{type: PATH, compare_type: STARTS_WITH, value: /api, key: null, invert: false}]
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
    - C(l7policies) (since 1.2.0), a mapping keyed C(listener/policy) of the L7 policies that change (created, changed
      or deleted) of the listeners given O(listeners[].l7policies), each with C(action), its target (C(redirect_pool) by
      name, C(redirect_url) or C(redirect_prefix)), C(redirect_http_code), C(position) and C(rules), each rule as one
      text (C(PATH STARTS_WITH /api), C(not HEADER[X-Api] EQUAL_TO v2)). The C(position) of a kept policy is its place
      among the policies kept (the deleted ones are gone first).
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
    - C(l7policies) (since 1.2.0) lists the L7 policies C(created), C(updated) (the policy or its rules) and
      C(deleted), as C(listener/policy). A policy on a load balancer created in the same run is written after the
      load balancer's create, so in check mode it is in the diff but not yet in C(l7policies.created).
  returned: when O(state=present)
  type: dict
  sample: {listeners: {created: [http], updated: [], deleted: []}, members: {added: ["10.0.0.11:8080"], removed: []},
           l7policies: {created: [http/api], updated: [], deleted: []}}
tasks:
  description: IDs of the tasks the run started (with O(wait=true) every one of them has finished).
  returned: success
  type: list
  elements: str
  sample: [d3e4f5a6-b7c8-4d9e-8f0a-1b2c3d4e5f6a]
"""

import ipaddress
from urllib.parse import urlsplit

from ansible_collections.gcore.platform.plugins.module_utils._checks import (
    HTTP_METHODS, Refused, ValidationError, check_length, check_names, check_uuid, require)
from ansible_collections.gcore.platform.plugins.module_utils._children import Children, Held, Plan, by_key
from ansible_collections.gcore.platform.plugins.module_utils._cloud import CloudResource, check_name
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._lb import (
    CREATE_ONLY, L7, L7_TARGETS, MAX_LISTENERS, MONITOR_FIELDS, RULES, TIMEOUTS, check_listener, cidr_set, distinct, expand, held_members,
    listener_body, masked, member_body, member_key, pool_body, pool_view, read_policies, resolve_member_instances, resolve_secrets, rule_text, stripped,
    user_set, wanted_pool)
from ansible_collections.gcore.platform.plugins.module_utils._members import Member
from ansible_collections.gcore.platform.plugins.module_utils._networks import address
from ansible_collections.gcore.platform.plugins.module_utils._parents import resolve_vip
from ansible_collections.gcore.platform.plugins.module_utils._writes import Write, request


LISTENER_PROTOCOLS = ["HTTP", "HTTPS", "TCP", "UDP", "TERMINATED_HTTPS", "PROMETHEUS"]
POOL_PROTOCOLS = ["HTTP", "HTTPS", "TCP", "UDP", "PROXY", "PROXYV2"]
ALGORITHMS = ["ROUND_ROBIN", "LEAST_CONNECTIONS", "SOURCE_IP"]
MONITOR_TYPES = ["HTTP", "HTTPS", "K8S", "PING", "TCP", "TLS-HELLO", "UDP-CONNECT"]
PERSISTENCE_TYPES = ["APP_COOKIE", "HTTP_COOKIE", "SOURCE_IP"]
MEMBER_SPEC = dict(
    address=dict(type="str"),
    instance=dict(type="str"),
    protocol_port=dict(type="int", required=True),
    weight=dict(type="int", default=1),
    subnet_id=dict(type="str"),
    instance_id=dict(type="str"),
    backup=dict(type="bool", default=False),
    admin_state_up=dict(type="bool", default=True),
)
MONITOR_SPEC = dict(
    type=dict(type="str", required=True, choices=MONITOR_TYPES),
    delay=dict(type="int", required=True),
    max_retries=dict(type="int", required=True),
    timeout=dict(type="int", required=True),
    max_retries_down=dict(type="int"),
    url_path=dict(type="str"),
    expected_codes=dict(type="str"),
    http_method=dict(type="str", choices=HTTP_METHODS),
)
PERSISTENCE_SPEC = dict(
    type=dict(type="str", required=True, choices=PERSISTENCE_TYPES),
    cookie_name=dict(type="str"),
)
POOL_SPEC = dict(
    name=dict(type="str", required=True),
    lb_algorithm=dict(type="str", required=True, choices=ALGORITHMS),
    protocol=dict(type="str", required=True, choices=POOL_PROTOCOLS),
    members=dict(type="list", elements="dict", options=MEMBER_SPEC),
    healthmonitor=dict(type="dict", options=MONITOR_SPEC),
    session_persistence=dict(type="dict", options=PERSISTENCE_SPEC),
)
LISTENER_SPEC = dict(
    name=dict(type="str", required=True),
    protocol=dict(type="str", required=True, choices=LISTENER_PROTOCOLS),
    protocol_port=dict(type="int", required=True),
    allowed_cidrs=dict(type="list", elements="str"),
    connection_limit=dict(type="int"),
    timeout_client_data=dict(type="int"),
    timeout_member_connect=dict(type="int"),
    timeout_member_data=dict(type="int"),
    insert_x_forwarded=dict(type="bool"),
    secret=dict(type="str", no_log=False),  # a secret's id or name, not a secret
    sni_secrets=dict(type="list", elements="str", no_log=False),
    user_list=dict(type="list", elements="dict", options=dict(
        username=dict(type="str", required=True),
        encrypted_password=dict(type="str", required=True, no_log=True),
    )),
    pool=dict(type="dict", options=POOL_SPEC),
)
RULE_TYPES = ["HOST_NAME", "PATH", "FILE_TYPE", "HEADER", "COOKIE", "SSL_CONN_HAS_CERT", "SSL_VERIFY_RESULT", "SSL_DN_FIELD"]
L7_SPEC = dict(
    name=dict(type="str", required=True),
    action=dict(type="str", required=True, choices=list(L7_TARGETS)),
    redirect_pool=dict(type="str"),
    redirect_url=dict(type="str"),
    redirect_prefix=dict(type="str"),
    redirect_http_code=dict(type="int", choices=[301, 302, 303, 307, 308]),
    rules=dict(type="list", elements="dict", options=dict(
        type=dict(type="str", required=True, choices=RULE_TYPES),
        compare_type=dict(type="str", required=True, choices=["EQUAL_TO", "STARTS_WITH", "ENDS_WITH", "CONTAINS", "REGEX"]),
        value=dict(type="str", required=True),
        key=dict(type="str", no_log=False),  # a header or cookie name, not a secret
        invert=dict(type="bool", default=False),
    )),
)


POOL_FITS = {"HTTP": ("HTTP", "PROXY", "PROXYV2"), "HTTPS": ("HTTPS", "PROXY", "PROXYV2", "TCP"), "UDP": ("UDP",), "PROMETHEUS": (),
             "TCP": ("HTTP", "HTTPS", "PROXY", "PROXYV2", "TCP"), "TERMINATED_HTTPS": ("HTTP", "PROXY", "PROXYV2")}  # section 15.8

# The load_balancer module's ``changes``: what its writes say (each write of the set says its part of it).
CHANGES = {"listeners": {"created": str, "updated": str, "deleted": str}, "members": {"added": str, "removed": str},
           "l7policies": {"created": str, "updated": str, "deleted": str}}


def check_pool_fits(where, protocol, pool):
    """A listener takes a pool of the protocols ``POOL_FITS`` names (a PROMETHEUS listener none): "an HTTP", "a UDP"."""
    fits, given = POOL_FITS[protocol], (pool or {}).get("protocol", "")

    def article(name):
        return "an" if name.startswith("HTTP") else "a"
    require(pool is None or fits, where + ".pool", "a %s listener has no pool (it serves the load balancer's metrics); leave pool out" % protocol)
    require(pool is None or given in fits, where + ".pool.protocol", "%s %s pool does not fit %s %s listener (it takes %s)" % (
        article(given), given, article(protocol), protocol, " or ".join((", ".join(fits[:-1]), fits[-1]) if len(fits) > 1 else fits)))


def check_member_subnets(client, params, listeners):
    """Each member's address of the IP version of its ``subnet_id`` (the service refuses an IPv6 member on an IPv4
    subnet): every subnet named read once, before any write; an unknown subnet fails naming the member."""
    versions = {}
    for index, item in enumerate(listeners or []):
        for number, member in enumerate((item["pool"] or {}).get("members") or []):
            subnet = member["subnet_id"]
            if subnet is None:
                continue
            where = "listeners[%s].pool.members[%s]" % (index, number)
            if subnet not in versions:
                record = client.get_or_none(KINDS["subnet"].paths["item"].format(**dict(params, id=subnet)))
                require(record is not None, where + ".subnet_id", "no subnet %s in project %s, region %s (nothing was sent)"
                        % (subnet, params["project_id"], params["region_id"]))
                versions[subnet] = ipaddress.ip_network(record["cidr"], strict=False).version
            require(ipaddress.ip_address(member["address"]).version == versions[subnet], where + ".address",
                    "%s is an IPv%s address but subnet %s is IPv%s (nothing was sent)" % (
                        member["address"], ipaddress.ip_address(member["address"]).version, subnet, versions[subnet]))


# ---- the listeners ----------------------------------------------------------------------------------------------------

def find(found, name):
    """The listener named ``name`` in the listeners read again (None when there is none)."""
    return next((listener for listener in found or () if listener.get("name") == name), None)


def nested(writes, said, listing):
    """``writes`` of children nested in a listener's child (a pool's health monitor, a policy's rules): each says ``said``, done by ``listing(state)``."""
    for write in writes:
        write.said, write.done = dict(said), (lambda state, done=write.done: done(listing(state)))
    return writes


# A pool's health monitor: at most one, keyed by its type (a type never changes: one of another type is deleted first and
# created last); one of the same type is changed by a PATCH of the members that differ (docs/api_reference.md section 17).
class Monitors(Children):
    ident = "type"  # addressed by its type


MONITORS = Monitors("", "health monitor", dict(list=KINDS["pool"].path("/{parent_id}/healthmonitor"), item=KINDS["pool"].path(
    "/{parent_id}/healthmonitor")), [Member(field) for field in MONITOR_FIELDS if field != "type"], key="type", mode=lambda params: "overridden",
    body=stripped)


class Pools(Children):
    """A listener's pool: a child collection of at most one, keyed by its listener's name (a pool's name changes by its
    PATCH), compared as its view (``pool_view``, ``wanted_pool``). Its members are one PUT of the whole list (members kept
    by address and port are not recreated, section 17); its health monitor a child collection nested in it
    (``MONITORS``): one removed or retyped goes first, one created last, a pool's first one in its PATCH."""

    def __init__(self):
        super().__init__("", "pool", dict(KINDS["pool"].paths, members="PUT " + KINDS["load_balancer"].path("/pools/{id}/members")), [],
                         key="listener", mode=lambda params: "overridden", body=pool_body)

    def differ(self, item, record, params):
        """What the pool's PATCH sends: the compared views that differ (not its members; a health monitor only as its first)."""
        held, sent = pool_view(record), pool_body(item)
        wanted = wanted_pool(item, held)
        return dict((field, sent.get(field)) for field in ("name", "lb_algorithm", "protocol", "session_persistence", "healthmonitor")
                    if wanted[field] != held[field] and (field != "healthmonitor" or not held[field]))

    def of(self, item, record, params):
        """The writes that give the listener ``item`` (``record``: as held, None: created in this run) its pool; each says
        the listener updated (but in its create), and a create, a delete or a PUT the members it adds and removes."""
        name, pool, asked = item["name"], (record or {}).get("pool"), item["pool"]
        before, after = (pool_view(pool) or {}).get("members", {}), (wanted_pool(asked, pool_view(pool)) or {}).get("members", {})
        held, said = Held([dict(pool, listener=name)] if pool else []), {"listeners.updated": [name]} if record else {}
        held.scope = params
        writes = self.plan(held, [dict(asked, listener=name)] if asked else [], params)
        for write in writes if writes and writes[0].kind == "create" else ():  # the id of its listener, created in this run or not
            write.body_of = lambda state, body=write.body: dict(body, listener_id=(find(state, name) or {}).get("id"))
        if pool and asked and before != after:
            method, path = request(self.paths, "members", params, pool["id"])
            writes.append(Write("update", method, path, [member_body(member) for member in asked["members"] or []], done=lambda listing: any(
                held_members(found) == after for found in listing)))

        def listing(state):
            return [dict(found, listener=name) for found in [(find(state, name) or {}).get("pool")] if found]
        members = dict(said, **{"members.added": sorted(set(after) - set(before)), "members.removed": sorted(set(before) - set(after))})
        for write in writes:
            nested([write], said if write.method == "PATCH" else members, listing)
        if not (pool and asked):
            return writes
        monitors = Held([pool["healthmonitor"]] if pool.get("healthmonitor") else [])
        monitors.scope = dict(params, parent_id=pool["id"])
        plan = MONITORS.planned(monitors, [asked["healthmonitor"]] if asked["healthmonitor"] else [], params)
        first, last = (nested(MONITORS.writes(part, monitors, params), said, lambda state: [
            found["healthmonitor"] for found in listing(state) if found.get("healthmonitor")]) for part in (
            Plan(deletes=plan.deletes), Plan(updates=plan.updates, creates=plan.creates if monitors else [])))  # a first one: in the PATCH
        return first + writes + last


POOLS = Pools()


# What a listener is compared by and shows in the diff, the views of the record and of the item (docs/api_reference.md section 15.8).
LISTENER_MEMBERS = [
    Member("protocol"),
    Member("protocol_port"),
    Member("connection_limit", created=None),
    Member("allowed_cidrs", read=lambda record: cidr_set(record.get("allowed_cidrs")), want=lambda value, record: cidr_set(value), created=[]),
    Member("insert_x_forwarded", read=lambda record: bool((record.get("insert_headers") or {}).get("X-Forwarded-For")), created=False),
    Member("secret_id", "secret", read=lambda record: record.get("secret_id") or None, created=None),
    Member("sni_secret_id", "sni_secrets", read=lambda record: sorted(set(record.get("sni_secret_id") or [])),
           want=lambda value, record: sorted(set(value)), created=[]),
    Member("user_list", read=lambda record: user_set(record.get("user_list")), want=lambda value, record: user_set(value), created=[]),
    Member("pool", read=lambda record: pool_view(record.get("pool")), created=None,
           want=lambda value, record: wanted_pool(value, pool_view((record or {}).get("pool")))),
] + [Member(option, created=None) for option in TIMEOUTS]


class Listeners(Children):
    """A load balancer's listeners as a child collection keyed by name, inside the record once read with two listings
    (``expand``): a purged listener whose port a new one takes is deleted first, the other purged ones last. Each
    listener's pool is a child collection nested in it (``POOLS``), written after the listener's own create or PATCH."""

    inside, locked, own, order = "listeners", True, ("pool",), ("taken", "creates", "updates", "deletes")

    def __init__(self):
        super().__init__("listeners", "listener", KINDS["listener"].paths, LISTENER_MEMBERS, option="listeners", create_only=CREATE_ONLY, replace=None,
                         mode=lambda params: "overridden" if params.get("purge_listeners", True) else "merged")

    def created_said(self, wanted):
        """The load balancer's create carries every listener and member declared."""
        return {"listeners.created": [item["name"] for item in wanted],
                "members.added": [member_key(member) for item in wanted for member in ((item["pool"] or {}).get("members") or [])]}

    def check(self, module):
        """Each listener checked and made canonical (``check_listener``), with the pool it takes; a name or a port twice fails."""
        items = module.params["listeners"] or []
        require(len(items) <= MAX_LISTENERS, "listeners", "at most %s listeners (50 and a PROMETHEUS one)" % MAX_LISTENERS)
        for index, item in enumerate(items):
            check_listener("listeners[%s]" % index, item)
            check_pool_fits("listeners[%s]" % index, item["protocol"], item["pool"])
        for field in ("name", "protocol_port"):
            distinct("listeners", items, "listener", field)

    def fetch(self, get, record, params):
        """The listeners, each with its pool, in the order of their names."""
        held = super().fetch(get, expand(get, params, record), params)
        held.sort(key=lambda listener: str(listener.get("name")))
        return held

    def differ(self, item, record, params):
        """A pool left out is one to delete."""
        return dict(super().differ(item, record, params), **({"pool": None} if item["pool"] is None and record.get("pool") else {}))

    def planned(self, held, wanted, params):
        """A name two listeners hold fails, whether declared or not: a listener is found by its name."""
        balancer = (getattr(held, "parent", None) or {}).get("id")
        for name, found in sorted((name, found) for name, found in by_key(held).items() if len(found) > 1)[:1]:
            raise ValidationError("load balancer %s has %s listeners named %r (ids %s): a listener is found by its name, so rename or delete one of "
                                  "them first" % (balancer, len(found), name, ", ".join(listener["id"] for listener in found)))
        return super().planned(held, wanted, dict(params, parent_id=balancer))

    def fixed(self, index, member, item, record, params):
        return ("listeners[%s].%s: listener %r of load balancer %s has %s %r, not %r, and %s cannot change on an existing listener; delete "
                "the listener (leave it out with purge_listeners) and create it again, or use another name" % (
                    index, member, item["name"], params["parent_id"], member,
                    self.shown_child(record)[member], item[member], member))

    # ---- the diff ----------------------------------------------------------------------------
    def views(self, state, wanted, params):
        """A new listener taking the port of one purged is shown with a ``note``: that one is deleted first (section 15.8)."""
        (before, after), held = (masked(side) for side in super().views(state, wanted, params)), self.held(state or [])
        ports = dict((listener["protocol_port"], name) for name, listener in held.items() if name not in after)
        for name, view in after.items():
            if name not in held and view["protocol_port"] in ports:
                after[name] = dict(view, note="listener %r holds port %s and is deleted first (one port cannot hold two listeners): a failure "
                                   "between that delete and this create leaves neither" % (ports[view["protocol_port"]], view["protocol_port"]))
        return before, after

    # ---- writes ------------------------------------------------------------------------------
    def item_body(self, item, params):
        body = dict(listener_body(item), load_balancer_id=params["parent_id"])
        body.pop("pools", None)
        return body

    def group(self, name, plan, held, params):
        """The deletes of the listeners whose ports new ones take (``taken``) go first, the others (``deletes``) last."""
        if name not in ("taken", "deletes"):
            return super().group(name, plan, held, params)
        ports = set(item["protocol_port"] for item in plan.creates)
        taken = [record for record in plan.deletes if record.get("protocol_port") in ports]
        others = [record for record in plan.deletes if record.get("protocol_port") not in ports]
        return super().group("deletes", Plan(deletes=taken if name == "taken" else others), held, params)

    def writes(self, plan, held, params):
        """A delete takes the listener's pool (``delete_default_pool``) and says the members it takes with it."""
        writes = super().writes(plan, held, params)
        for write, record in zip(writes, plan.deletes):
            write.said, write.query = dict(write.said, **{"members.removed": sorted(held_members(record.get("pool") or {}))}), {"delete_default_pool": "true"}
        return writes

    def child_writes(self, item, record, changes, held, params):
        """A listener's create or PATCH, then the writes of its pool (``POOLS``)."""
        writes = super().child_writes(item, record, dict((key, value) for key, value in changes.items() if key != "pool"), held, params)
        return writes + (POOLS.of(item, record, params) if record is None or "pool" in changes else [])


def check_l7(listeners, purge=True):
    """Each listener's ``l7policies`` checked before any request: the protocol, names, the action's member, the rules, and
    (``purge``: the load balancer keeps only the pools declared) the pool."""
    pools = sorted(set(item["pool"]["name"] for item in listeners or [] if item["pool"]))
    for index, listener in enumerate(listeners or []):
        where, policies = "listeners[%s].l7policies" % index, listener.get("l7policies")
        if policies is None:
            continue
        require(listener["protocol"] in ("HTTP", "TERMINATED_HTTPS") or not policies, where, "listener %r is %s: only HTTP and TERMINATED_HTTPS "
                "listeners take L7 policies (nothing was sent)" % (listener["name"], listener["protocol"]))
        check_names(policies, "L7 policy", where)
        for number, policy in enumerate(policies):
            at, target = "%s[%s]" % (where, number), L7_TARGETS[policy["action"]]
            check_name(at + ".name", policy["name"])
            for member in L7_TARGETS.values():
                if member:
                    require((policy[member] is not None) == (member == target), "%s.%s" % (at, member), "%s with action %s" % (
                        "required" if member == target else "not accepted", policy["action"]))
            require(not purge or policy["redirect_pool"] in pools + [None], at + ".redirect_pool", "no pool named %r on this load balancer "
                    "(its pools: %s); nothing was sent" % (policy["redirect_pool"], ", ".join(pools) or "none"))
            require(policy["redirect_http_code"] is None or target in ("redirect_url", "redirect_prefix"), at + ".redirect_http_code",
                    "only with action REDIRECT_TO_URL or REDIRECT_PREFIX")
            if target in ("redirect_url", "redirect_prefix"):
                url = urlsplit(policy[target])
                require(url.scheme in ("http", "https") and url.netloc, "%s.%s" % (at, target),
                        "%r is not an http:// or https:// URL with a host" % policy[target])
            check_rules(at + ".rules", policy["rules"] or [])


def check_rules(where, rules):
    first = {}
    for index, rule in enumerate(rules):
        at = "%s[%s]" % (where, index)
        check_length(at + ".value", rule["value"], 1, 255)
        check_length(at + ".key", rule["key"], 1, 255)
        require(rule["key"] is not None or rule["type"] not in ("HEADER", "COOKIE"), at + ".key", "required with type %s (the %s name)" % (
            rule["type"], rule["type"].lower()))
        require(rule["key"] is None or rule["type"] in ("HEADER", "COOKIE", "SSL_DN_FIELD"), at + ".key", "only with type HEADER, COOKIE or SSL_DN_FIELD")
        require(rule["type"] != "FILE_TYPE" or rule["compare_type"] in ("EQUAL_TO", "REGEX"), at + ".compare_type",
                "a FILE_TYPE rule compares with EQUAL_TO or REGEX only")
        text = rule_text(rule)
        require(text not in first, at, "the same rule as %s[%s] (%s)" % (where, first.get(text), text))
        first[text] = index


class L7Policies(Children):
    """Each listener's ``l7policies`` as one child collection keyed ``listener/policy``: a listener given them holds
    exactly those, in that order (``position``), the others are not managed. A policy's ``rules`` are a set nested
    under it (``RULES``): a rule to delete and one to create are one PUT of the former where the service can change
    one into the other (a key cannot be removed), else the new one is created before the old one is deleted. Every
    write is ``locked`` by the load balancer: the flow sends it once the load balancer is unlocked and ``ACTIVE`` and
    reads it again after. Bodies are made when sent, from the state read then (a listener, a pool or a policy created
    earlier in the run has its id)."""

    locked = True

    def __init__(self):
        super().__init__("l7policies", "L7 policy", L7.paths, [Member(field) for field in (
            "action", "redirect_pool", "redirect_url", "redirect_prefix", "redirect_http_code", "position")] + [
            Member("rules", read=lambda record: sorted(rule_text(rule) for rule in record.get("rules") or []),
                   want=lambda value, record: sorted(rule_text(rule) for rule in value))], key="ref", mode=lambda params: "overridden",
            body=lambda item: None)  # made when sent (``policy_body``)

    def check(self, module):
        check_l7(module.params.get("listeners"), module.params["purge_listeners"])

    def wanted(self, module):
        listeners = [item for item in module.params.get("listeners") or [] if item.get("l7policies") is not None]
        if module.params["state"] == "absent" or not listeners:
            return None
        return [dict(policy, ref="%s/%s" % (item["name"], policy["name"]), listener=item["name"], position=index, rules=policy["rules"] or [])
                for item in listeners for index, policy in enumerate(item["l7policies"], 1)]

    def fetch(self, get, record, params):
        record = read_policies(get, params, record)
        pools = dict((listener["pool"]["id"], listener["pool"]["name"]) for listener in record["listeners"] if listener.get("pool"))
        held = Held(dict(policy, ref="%s/%s" % (listener["name"], policy.get("name")), listener=listener["name"], rules=self.rules(
            policy, params), redirect_pool=pools.get(policy.get("redirect_pool_id"), policy.get("redirect_pool_id")))
            for listener in record["listeners"] for policy in listener["l7policies"])
        held.again, held.scope, held.parent = (lambda: self.fetch(get, record, params)), params, record
        return held

    @staticmethod
    def rules(policy, params):
        held = Held(dict(rule, rule=rule_text(rule)) for rule in policy.get("rules") or [])
        held.scope = dict(params, parent_id=policy.get("id", "{parent_id}"))  # a policy created in this run: filled when sent
        return held

    def pool_names(self, held, params):
        """The pools a policy may name: the declared ones, and those of the listeners kept undeclared."""
        declared = dict((item["name"], item) for item in params.get("listeners") or [])
        names = set(item["pool"]["name"] for item in declared.values() if item["pool"])
        listeners = (getattr(held, "parent", None) or {}).get("listeners") or []
        return names | set(listener["pool"]["name"] for listener in listeners if listener.get("pool") and listener["name"] not in declared
                           and not params.get("purge_listeners", True))

    def planned(self, held, wanted, params):
        """A kept policy is compared with its rank among the kept ones (a delete renumbers the others), a new one is
        created at its place; a pool no listener holds fails before any write."""
        pools, listeners = self.pool_names(held, params), [item["name"] for item in params["listeners"] if item.get("l7policies") is not None]
        for index, item in enumerate(params["listeners"] if isinstance(held, Held) else ()):  # the plan's (the diff's may have none)
            for number, policy in enumerate(item.get("l7policies") or []):
                require(policy["redirect_pool"] is None or policy["redirect_pool"] in pools, "listeners[%s].l7policies[%s].redirect_pool" % (
                    index, number), "no pool named %r on this load balancer (its pools: %s); nothing was sent" % (
                    policy["redirect_pool"], ", ".join(sorted(pools)) or "none"))
        keys, held = set(item["ref"] for item in wanted), [record for record in held if record["listener"] in listeners]
        refs, ranks = set(record["ref"] for record in held), ({}, {})  # the kept policies' ranks: held, wanted
        for listener in listeners:
            for found, order in zip(ranks, ([record["ref"] for record in held if record["listener"] == listener and record["ref"] in keys],
                                            [item["ref"] for item in wanted if item["listener"] == listener and item["ref"] in refs])):
                found.update((ref, rank) for rank, ref in enumerate(order, 1))
        return super().planned([dict(record, position=ranks[0].get(record["ref"], record.get("position"))) for record in held],
                               [dict(item, position=ranks[1][item["ref"]]) if item["ref"] in refs else item for item in wanted], params)

    def writes(self, plan, held, params):
        own = Plan(plan.deletes, [update for update in plan.updates if set(update[2]) - {"rules"}], plan.creates)
        writes, records = super().writes(own, held, params), dict((record["ref"], record) for record in held)
        for write, item in ((write, item) for write in writes for item in own.creates + [update[0] for update in own.updates]
                            if write.kind != "delete" and write.names == [item["ref"]]):
            write.body_of = lambda state, item=item, create=write.kind == "create": self.policy_body(item, state, create)
        for item in [update[0] for update in plan.updates if "rules" in update[2]] + plan.creates:
            writes += self.rule_writes(item, records.get(item["ref"]), params)
        return writes

    def policy_body(self, item, state, create):
        """A policy's body (a PATCH too needs ``action`` and its target), ids from the state read when it is sent."""
        listeners = dict((listener["name"], listener) for listener in state.parent["listeners"])
        pools = dict((listener["pool"]["name"], listener["pool"]["id"]) for listener in listeners.values() if listener.get("pool"))
        target = L7_TARGETS[item["action"]]
        body = dict(name=item["name"], action=item["action"], position=item["position"], **({target + "_id" if target == "redirect_pool" else target: pools.get(
            item[target]) if target == "redirect_pool" else item[target]} if target else {}))
        if item["redirect_http_code"] is not None:
            body["redirect_http_code"] = item["redirect_http_code"]
        if create and item["listener"] not in listeners or None in body.values():
            raise Refused("listener %r or pool %r of L7 policy %r is gone (nothing was sent)" % (item["listener"], item["redirect_pool"], item["ref"]))
        return dict(body, listener_id=listeners[item["listener"]]["id"]) if create else body

    def rule_writes(self, item, record, params):
        """The writes that make the policy ``item`` (``record``: as held, None: created in this run) hold its rules."""
        held, ref = record["rules"] if record else self.rules({}, params), item["ref"]
        plan, kept = RULES.planned(held, [dict(rule, rule=rule_text(rule)) for rule in item["rules"]], params), []
        for new in list(plan.creates):
            old = next((found for found in plan.deletes if new["key"] is not None or not found.get("key")), None)
            if old is not None:
                plan.deletes.remove(old)
                plan.creates.remove(new)
                kept.append((new, old, RULES.body(new)))
        writes = RULES.writes(Plan((), kept, plan.creates), held, params) + RULES.writes(Plan(plan.deletes), held, params)  # never fewer rules
        nested(writes, self.says("create" if record is None else "update", [ref]), lambda state: next(
            (found["rules"] for found in state if found["ref"] == ref), []))
        for write in writes if record is None else ():
            write.body_of = lambda state, write=write, body=write.body: self.sent_to(write, state, ref, body)
        return writes

    @staticmethod
    def sent_to(write, state, ref, body):
        """A rule of a policy created in this run: sent to the path of the policy's id, read when it is sent."""
        policy = next((found for found in state if found["ref"] == ref), None)
        if policy is None:
            raise Refused("L7 policy %r is gone: its rules were not sent" % ref)
        write.path = write.path.replace("{parent_id}", policy["id"])
        return body


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
        listeners=dict(type="list", elements="dict", options=dict(LISTENER_SPEC, l7policies=dict(type="list", elements="dict", options=L7_SPEC))),
        purge_listeners=dict(type="bool", default=True),
    )
    tagged = True
    module_kwargs = dict(mutually_exclusive=[("vip_network_id", "vip_port_id"), ("vip_network_id", "vip_network"), ("vip_subnet_id", "vip_subnet"),
                                             ("vip_port_id", "vip_network"), ("vip_port_id", "vip_ip_address")])
    uuid_options = ("vip_network_id", "vip_subnet_id", "vip_port_id")
    create_options = ("name", "flavor", "vip_network_id", "vip_subnet_id", "vip_port_id", "vip_ip_family")
    required_to_create = ()
    ready = ("provisioning_status", ("ACTIVE",), ("PENDING_CREATE", "PENDING_UPDATE"))

    members = (Member("name"),)
    parts = (Listeners(), L7Policies())  # with their pools: read with two listings, written one request at a time

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

    def examine(self, record):
        if record is None and self.params["state"] == "present":  # used at create only: the VIP's parents by name
            resolve_vip(self)
            check_l7(self.params["listeners"])  # a new load balancer holds only the pools declared
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
        listeners = self.part_state(self.parts[0], record)  # two listings when not read yet
        return dict(shown, listeners=masked(dict((listener.get("name"), self.parts[0].shown_child(listener)) for listener in listeners)))

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
        """With each listener's ``l7policies`` and their rules, as the L7 part reads them (once per record)."""
        return masked(self.part_state(self.parts[1], record).parent) if self.exists_after(record) else None


def main():
    LoadBalancer.main()


if __name__ == "__main__":
    main()
