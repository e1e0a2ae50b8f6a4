# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    # The options every module has: authentication and transport.
    DOCUMENTATION = r"""
options:
  api_key:
    description:
      - 'Gcore API key (a permanent API token), sent in the header C(Authorization: apikey <key>).'
      - If not set, the value of the E(GCORE_API_KEY) environment variable is used; one of the two is required.
      - Surrounding whitespace (such as the trailing newline of a key read from a file) is removed. What remains must be
        non-empty printable ASCII without spaces; a key holding a space, a control character (a newline inside it) or a
        non-ASCII character fails validation before any request, and the message shows no part of it.
      - The module never logs or returns the key, and none of its error messages shows it.
      - For ad hoc commands (C(ansible localhost -m ...)) set E(GCORE_API_KEY) instead of passing C(api_key=...) in C(-a).
        When a task fails, ansible-core prints the ad hoc arguments, and the module's C(no_log) does not reach there.
    type: str
    required: true
  api_url:
    description:
      - Root URL of the Gcore API; every API path (such as C(/cloud/v1/routers/...)) is appended to it.
      - Exactly V(https://) or V(http://), a host, an optional port and an optional trailing C(/), for example
        V(https://api.gcore.com) or V(http://127.0.0.1:8080).
      - A path (such as V(https://api.gcore.com/cloud)), a query, a fragment or user info, another scheme, a value
        without a scheme or an empty value fails validation before any request. A path would turn every answer into
        HTTP 404, which reads as "absent".
      - If not set, E(GCORE_API_URL) is used, then E(GCORE_BASE_URL), else V(https://api.gcore.com). An environment
        variable that is set but empty counts as not set.
    type: str
    default: https://api.gcore.com
  api_timeout:
    description:
      - Timeout in seconds for each HTTP request (connect and read), V(1) to V(3600).
      - This is not the time a module waits for an asynchronous task; modules that start tasks have their own C(wait_timeout).
    type: int
    default: 30
  api_retries:
    description:
      - How many times a retryable failure is retried, V(0) to V(10); V(0) never retries.
      - Safe calls (GET, and the read-only POSTs of M(gcore.platform.quota_check) and M(gcore.platform.price_preview))
        are retried on HTTP 429, 502, 503, 504, connection errors and timeouts.
      - Writes are retried only on HTTP 429 and on a connection that failed before the request was sent.
      - The wait honours C(Retry-After) (seconds or an HTTP date, at most 60 seconds), otherwise capped exponential
        backoff with jitter.
    type: int
    default: 3
  validate_certs:
    description:
      - Whether to verify the TLS certificate of O(api_url).
      - Set to V(false) only for a trusted test endpoint.
      - A failure message says whether the certificate failed verification (only then does it mention this option) or
        the TLS connection failed otherwise, for example V(https://) to a port that serves plain HTTP.
    type: bool
    default: true
requirements:
  - python >= 3.11
  - requests >= 2.25.0
notes:
  - Use C(module_defaults) with the action group C(group/gcore.platform.all) to set the API key once for every module.
  - Every number option, nested ones included, must be a number of its type; a boolean (such as V(true)) or, for a
    float, V(nan) or an infinity fails validation before any request.
seealso:
  - name: Gcore API reference
    description: The published Gcore API documentation.
    link: https://api.gcore.com/docs
"""

    # Cloud scope: project and region.
    CLOUD = r"""
options:
  project_id:
    description:
      - Cloud project ID, at least V(1).
      - If not set, the value of the E(GCORE_CLOUD_PROJECT_ID) environment variable is used; one of the two is required.
    type: int
    required: true
  region_id:
    description:
      - Cloud region ID, at least V(1).
      - If not set, the value of the E(GCORE_CLOUD_REGION_ID) environment variable is used; one of the two is required.
    type: int
    required: true
"""

    # Waiting for asynchronous cloud tasks.
    WAIT = r"""
options:
  wait:
    description:
      - Wait until every task the change started has finished.
      - With V(false) the module returns at once with the started task IDs in RV(tasks).
      - A resource found locked by a task or on its way to ready (for example an instance in C(BUILD), left by an
        earlier run with O(wait=false)) is waited for before it is compared; with O(wait=false) it is compared and
        returned as found, with a warning naming its status or its task.
    type: bool
    default: true
  wait_timeout:
    description:
      - How many seconds to wait for the tasks when O(wait=true), at least V(1).
      - A task still running after this time fails the module with the task ID and its last state.
      - A resource locked by a task that has already ended in C(ERROR) fails the module at once (O(state=absent)
        too), naming the task and its error, since waiting would not clear such a lock.
      - The poll interval starts at half a second and grows to a few seconds for long tasks.
      - Also the longest a write whose answer was lost (a 5xx, a dropped connection) is read back for; if the state
        does not show it by then, the module fails with C(changed=true), saying the change could not be confirmed,
        and never sends it again.
    type: int
    default: 600
notes:
  - Names are not unique in Gcore Cloud, and the module finds a resource by its exact name. Two runs that create
    one name at the same time make two resources, and every later task by that name fails listing their ids; run a
    task that manages a shared resource once (C(run_once)), serialise it across hosts (C(throttle)), or give each
    host its own name. A rename into a name another resource of the kind already holds fails naming its id.
"""

    # User tags of a cloud resource (plugins/module_utils/_tags.py: TAGS_OPTIONS, check_tags, tags_member).
    TAGS = r"""
options:
  tags:
    description:
      - User tags, as a mapping of key to value.
      - A key is 1 to 255 characters without whitespace or C(=); a value 1 to 255 characters without tabs or line
        breaks and with no space at either end.
      - With O(purge_tags=true), the user tags become exactly these (V({}) removes them all); with
        O(purge_tags=false) they are added or updated and the other tags kept.
      - Read-only tags (set by the service) are never changed or compared.
      - Sent in the create request, and as a JSON merge patch in the PATCH (a removed key is sent as V(null)).
      - Leaving the option out keeps the tags as they are.
    type: dict
  purge_tags:
    description:
      - Whether user tags not in O(tags) are removed. Has no effect without O(tags).
    type: bool
    default: true
"""

    # Cloud client scope: the account a client-level setting belongs to.
    CLIENT = r"""
options:
  client_id:
    description:
      - Gcore client (account) ID.
    type: int
    required: true
"""
