# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
name: cloud
short_description: Gcore Cloud instances and bare metal servers as inventory hosts
version_added: 1.0.0
description:
  - Lists the instances (C(GET /cloud/v1/instances/{project_id}/{region_id})) and the bare metal servers
    (C(GET /cloud/v1/bminstances/{project_id}/{region_id})) of one or more Gcore Cloud projects in one or more regions,
    every page, up to 1000 servers a page, and makes each server a host. O(server_types) says which of the two
    listings are read.
  - Every (project, region) pair of O(projects) and O(regions) is listed; O(filters) are sent to the service as
    query parameters of both listings, so only matching servers are transferred.
  - Every host is in the group C(gcore), in C(instance) or C(baremetal) (what it is), in C(gcore_region_<region_id>)
    and in C(gcore_status_<status>) (the status in lower case, such as C(gcore_status_active)); O(keyed_groups),
    O(groups) and O(compose) add more.
  - Host names are the instance names (O(hostname=name)) or IDs (O(hostname=id)). When two instances would get one
    host name (the same name in two regions, say), each gets C(<name>_<first 8 characters of its ID>) and a warning
    lists them.
  - Host variables, all prefixed C(gcore_) - C(gcore_id), C(gcore_name), C(gcore_status), C(gcore_vm_state),
    C(gcore_flavor) (the flavor name), C(gcore_project_id), C(gcore_region_id), C(gcore_region) (the region name),
    C(gcore_tags) (a dictionary of the instance's tags, key to value), C(gcore_addresses) (as the service gives them,
    by network name), C(gcore_public_ipv4), C(gcore_private_ipv4), C(gcore_floating_ipv4), C(gcore_public_ipv6)
    (lists, in the service's order), C(gcore_security_groups) (names) and C(gcore_created_at). A bare metal server
    gets the same variables, from its record the same way (its record has no security groups, so
    C(gcore_security_groups) is empty).
  - An address is B(floating) when its C(type) is C(floating); B(private) when it lies in C(10.0.0.0/8),
    C(172.16.0.0/12), C(192.168.0.0/16), C(100.64.0.0/10) or C(fc00::/7); B(public) otherwise (floating addresses
    included).
  - The configuration file name must end in C(gcore.yml) or C(gcore.yaml).
author:
  - gcore.platform developers (@gcore-platform)
requirements:
  - python >= 3.11
  - requests >= 2.25.0
extends_documentation_fragment:
  - constructed
  - inventory_cache
options:
  plugin:
    description: The name of this plugin; it must be V(gcore.platform.cloud) for the file to be used.
    type: str
    required: true
    choices: [gcore.platform.cloud]
  api_key:
    description:
      - 'Gcore API key (a permanent API token), sent in the header C(Authorization: apikey <key>).'
      - If not set (or set empty), the value of the E(GCORE_API_KEY) environment variable is used; one of the two is
        required (it is not needed when a fresh cache answers).
      - May be a vaulted value (C(!vault)) or a template, such as
        V({{ lookup('ansible.builtin.env', 'MY_GCORE_KEY') }}) or a C(lookup) of a secret store; it is resolved before use,
        as amazon.aws's C(aws_ec2) and hetzner.hcloud's C(hcloud) inventories do.
      - Surrounding whitespace is removed; what remains must be non-empty printable ASCII without spaces, or the source
        fails naming C(api_key), saying what was given (a template, a vaulted value, E(GCORE_API_KEY)) and showing no
        part of it.
      - The key is never logged or shown in an error message, at any verbosity.
    type: str
    secret: true
    env:
      - name: GCORE_API_KEY
  api_url:
    description:
      - Root URL of the Gcore API, V(https://) or V(http://), a host, an optional port and an optional trailing C(/).
      - If not set, E(GCORE_API_URL) is used, then E(GCORE_BASE_URL), else V(https://api.gcore.com). An environment
        variable that is set but empty counts as not set.
      - May be a template (resolved before use), as O(api_key).
      - A path, a query, a fragment or user info, another scheme or an empty value fails the source naming C(api_url).
    type: str
    default: https://api.gcore.com
    env:
      - name: GCORE_API_URL
      - name: GCORE_BASE_URL
  api_timeout:
    description:
      - Timeout in seconds for each HTTP request (connect and read), V(1) to V(3600).
    type: int
    default: 30
  api_retries:
    description:
      - How many times a listing that failed with HTTP 429, 502, 503 or 504, a connection error or a timeout is sent
        again (V(0) - never), V(0) to V(10), honouring C(Retry-After), as the modules of this collection do.
    type: int
    default: 3
  validate_certs:
    description:
      - Whether to verify the TLS certificate of O(api_url). Set to V(false) only for a trusted test endpoint.
      - A failure says whether the certificate failed verification or the TLS connection failed otherwise.
    type: bool
    default: true
  projects:
    description:
      - The Cloud project IDs to list (each at least V(1)).
      - If not set, the project in the E(GCORE_CLOUD_PROJECT_ID) environment variable; one of the two is required.
    type: list
    elements: int
  regions:
    description:
      - The region IDs to list in every project (each at least V(1)).
      - If not set, the region in the E(GCORE_CLOUD_REGION_ID) environment variable; one of the two is required.
    type: list
    elements: int
  server_types:
    description:
      - Which servers become hosts - V(instance) (virtual machines, the instance listing) and V(baremetal) (bare metal
        servers, the bare metal listing). Each type given is one listing per (project, region) pair.
      - A non-empty list; any other value fails the source naming C(server_types).
    type: list
    elements: str
    choices: [instance, baremetal]
    default: [instance, baremetal]
    version_added: 1.2.0
  filters:
    description:
      - Filters sent to the service as query parameters of every listing; only matching servers are returned.
      - C(status) - one instance status, such as V(ACTIVE) or V(SHUTOFF) (C(ACTIVE), C(BUILD), C(ERROR), C(HARD_REBOOT),
        C(MIGRATING), C(PAUSED), C(REBOOT), C(REBUILD), C(RESIZE), C(REVERT_RESIZE), C(SHELVED), C(SHELVED_OFFLOADED),
        C(SHUTOFF), C(SOFT_DELETED), C(SUSPENDED), C(VERIFY_RESIZE)). Bare metal servers have fewer (C(ACTIVE), C(BUILD),
        C(ERROR), C(HARD_REBOOT), C(REBOOT), C(REBUILD), C(RESCUE), C(SHUTOFF), C(SUSPENDED)); with a status only
        instances have, the bare metal listing is not read (no bare metal server can match); C(RESCUE) is a bare metal
        status only, so with it the instance listing is not read.
      - C(name) - a full or partial server name (the service matches names that contain it).
      - C(flavor_prefix) - the start of the flavor ID, such as V(g2-).
      - C(tag_key_value) - a dictionary of tags (tag key to tag value); a server must have every one of them.
      - C(tag_value) - a list of tag values.
      - Any other key fails the source; a tag key holds no whitespace or C(=), a tag value no tab or line break
        and no surrounding space, each 1 to 255 characters.
    type: dict
    default: {}
  connect_with:
    description:
      - What C(ansible_host) is set to.
      - V(public_ipv4) - the first public IPv4 address (a floating one included); V(private_ipv4) - the first private
        IPv4 address; V(floating_ipv4) - the first floating IPv4 address; V(public_ipv6) - the first public IPv6
        address; V(name) - the instance's own name, even when its host name had to be made unique.
      - A host with no address of that kind gets no C(ansible_host) and a warning names it; it stays in the inventory.
    type: str
    default: public_ipv4
    choices: [public_ipv4, private_ipv4, floating_ipv4, public_ipv6, name]
  hostname:
    description:
      - The host name - the instance V(name) (made unique when two instances share it) or its V(id).
    type: str
    default: name
    choices: [name, id]
  strict_permissions:
    description:
      - When a (project, region) pair answers HTTP 403 (the key may not see it), fail the source (V(true)), or skip
        that pair with a warning naming the project and region and list the other pairs' hosts (V(false)).
      - A bad key (HTTP 401), an unreachable API or a server error left after the retries always fails the source.
    type: bool
    default: true
notes:
  - With O(cache=true) and a fresh cache, no request is sent at all. The cache holds the listing of the
    O(projects), O(regions), O(server_types), O(filters) and O(api_url) it was made for; a change of any of them reads the service again.
  - A fresh cache answers without the API key - none is needed and the one given is not checked (a wrong or revoked
    key gets the cached hosts until O(cache_timeout) runs out). Whoever can read the cache (O(cache_connection)) sees
    the inventory; keep it where only the user that runs Ansible can read it.
  - 'A source that fails (a bad key, an unreachable API, an HTTP 403 with O(strict_permissions=true)) is by Ansible''s
    default only a warning - C(ansible-playbook) goes on with the other sources, or with none, its plays say
    C(skipping: no hosts matched), and it exits with 0. In CI and in AWX, set E(ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED=true)
    (or C(any_unparsed_is_failed = true) in the C([inventory]) section of C(ansible.cfg); in AWX for example in the
    C(AWX_TASK_ENV) setting, "Extra Environment Variables") so that a failed source fails the run with its message.'
  - 'Host variables are plain data - C(ansible-inventory --list --export), which AWX reads with a plain JSON parser
    when it imports the source, gives strings as strings on every supported ansible-core: the C(gcore_*) variables,
    C(ansible_host) and every variable O(compose) sets (C(ansible_user) for one). Only a string that may be
    a template (one holding C({{), C({%) or C({#), or starting with C(#jinja2:)) is marked unsafe (exported as
    C({"__ansible_unsafe": "<the string>"})), so a playbook never renders a value that came from the service.'
  - In AWX or Automation Platform, use this file as an inventory source from a project, with a credential of the
    collection's credential type (it sets E(GCORE_API_KEY) and E(GCORE_API_URL)).
seealso:
  - name: Gcore API reference
    description: The published Gcore API documentation.
    link: https://api.gcore.com/docs
"""

EXAMPLES = r"""
# cloud.gcore.yml - every instance and bare metal server of projects 1 and 2 in regions 76 and 1 (in the groups
# "instance" and "baremetal"); the key comes from GCORE_API_KEY.
# Reach hosts by their first public IPv4 address; group them by their "env" tag (env_prod, env_staging, ...)
# and set the user from a tag.
plugin: gcore.platform.cloud
projects: [1, 2]
regions: [76, 1]
connect_with: public_ipv4
keyed_groups:
  - key: gcore_tags.env | default('untagged')
    prefix: env
  - key: gcore_flavor
    prefix: flavor
compose:
  ansible_user: gcore_tags.user | default('ubuntu')
groups:
  web: "'web' in gcore_name"

# prod.gcore.yml - only the running production instances, reached on their private address (a bastion or a VPN),
# named by ID, virtual machines only; the listing is cached for ten minutes (no request while the cache is fresh).
plugin: gcore.platform.cloud
projects: [1]
regions: [76]
server_types: [instance]
hostname: id
connect_with: private_ipv4
filters:
  status: ACTIVE
  tag_key_value:
    env: prod
strict_permissions: false
cache: true
cache_plugin: ansible.builtin.jsonfile
cache_connection: /tmp/gcore_inventory_cache
cache_timeout: 600
"""

import json
from collections import Counter

from ansible.errors import AnsibleError
from ansible.module_utils.common.text.converters import to_text
from ansible.plugins.inventory import BaseInventoryPlugin, Cacheable, Constructable
from ansible.release import __version__ as ansible_version
from ansible.utils.display import Display

from ansible_collections.gcore.platform.plugins.module_utils._addresses import classify_addresses
from ansible_collections.gcore.platform.plugins.module_utils._checks import (
    API_RETRIES_RANGE,
    API_TIMEOUT_RANGE,
    ValidationError,
    check_api_url,
    check_range,
    clean_api_key,
    from_environment,
)
from ansible_collections.gcore.platform.plugins.module_utils._client import (
    DEFAULT_API_URL,
    HAS_REQUESTS,
    ApiError,
    Client,
)
from ansible_collections.gcore.platform.plugins.module_utils._cloud import PAGE_SIZE
from ansible_collections.gcore.platform.plugins.module_utils._kinds import KINDS
from ansible_collections.gcore.platform.plugins.module_utils._instance import BAREMETAL_STATUSES, STATUSES

try:  # ansible-core 2.19 and later: a vaulted value is an EncryptedString (a str that decrypts when used)
    from ansible.parsing.vault import EncryptedString as _VAULTED
except ImportError:  # earlier cores: AnsibleVaultEncryptedUnicode
    from ansible.parsing.yaml.objects import AnsibleVaultEncryptedUnicode as _VAULTED

display = Display()

# What the service says is data, never a template (a tag "{{ lookup('pipe', ...) }}" must stay that text), and plain
# JSON for AWX, which reads `ansible-inventory --list --export` with json.loads: only a string that could be a template
# is marked (exported as {"__ansible_unsafe": text}); every other string is text that templates to itself. Cores
# before 2.19 template every string not marked unsafe; 2.19 and later template none not marked trusted, and export
# every string not marked trusted as {"__ansible_unsafe": text}. (community.general's make_unsafe, #8225, for cores
# before 2.19.)
_DATA_TAGGING = tuple(int(part) for part in ansible_version.split(".")[:2] if part.isdigit()) >= (2, 19)
if _DATA_TAGGING:
    from ansible.template import trust_as_template
else:  # wrap_var only below 2.19, where it is needed (ansible.utils.unsafe_proxy is slated for deprecation)
    from ansible.utils.unsafe_proxy import wrap_var
TEMPLATE_MARKERS = ("{{", "{%", "{#")
JINJA_HEADER = "#jinja2:"  # at the start of a string, it may set other markers

# server type -> (its listing, what it lists in words, the statuses its servers show)
LISTINGS = {"instance": (KINDS["instance"].paths["list"], "instances", STATUSES),
            "baremetal": (KINDS["bare_metal_server"].paths["list"], "bare metal servers", BAREMETAL_STATUSES)}
FILTERS = ("status", "name", "flavor_prefix", "tag_key_value", "tag_value")
CONNECT_WITH = {"public_ipv4": "gcore_public_ipv4", "private_ipv4": "gcore_private_ipv4",
                "floating_ipv4": "gcore_floating_ipv4", "public_ipv6": "gcore_public_ipv6"}
_TAG_KEY_FORBIDDEN = " \t\n\r\f\v="
_TAG_VALUE_EDGE = " \t\n\r\f\v"
CACHE_FORMAT = 2  # 2: the hosts' server types, and server_types in the request
WARN_HOSTS = 50  # hosts named in one warning; the rest are counted


# ---- the pure parts: addresses, host variables, host names ---------------------------------------

def may_be_template(text):
    """Whether Jinja could see a template in ``text``."""
    return text.startswith(JINJA_HEADER) or any(marker in text for marker in TEMPLATE_MARKERS)


def as_data(value):
    """A value from the service (or composed from one) as a host variable: every string that may be a template marked
    unsafe (never rendered), every other string plain text (trusted on 2.19 and later, where it would otherwise be
    exported as {"__ansible_unsafe": text}; before 2.19 a plain str, where a composed one may be unsafe text);
    dictionaries and lists item by item, their keys too."""
    if isinstance(value, str):
        if may_be_template(value):
            return value if _DATA_TAGGING else wrap_var(value)
        return trust_as_template(value) if _DATA_TAGGING else str.__str__(value)  # plain str: composed text may be unsafe
    if isinstance(value, dict):
        return dict((as_data(key), as_data(item)) for key, item in value.items())
    if isinstance(value, list):
        return [as_data(item) for item in value]
    return value


def host_variables(record):
    """The ``gcore_*`` variables of one instance record."""
    flavor = record.get("flavor") or {}
    variables = {
        "gcore_id": record.get("id"),
        "gcore_name": record.get("name"),
        "gcore_status": record.get("status"),
        "gcore_vm_state": record.get("vm_state"),
        "gcore_flavor": flavor.get("flavor_name") if isinstance(flavor, dict) else None,
        "gcore_project_id": record.get("project_id"),
        "gcore_region_id": record.get("region_id"),
        "gcore_region": record.get("region"),
        "gcore_tags": dict((tag.get("key"), tag.get("value")) for tag in record.get("tags") or [] if isinstance(tag, dict)),
        "gcore_addresses": record.get("addresses") or {},
        "gcore_security_groups": [group.get("name") for group in record.get("security_groups") or [] if isinstance(group, dict)],
        "gcore_created_at": record.get("created_at"),
    }
    variables.update(classify_addresses(variables["gcore_addresses"]))
    return variables


def unique_host_names(hosts, hostname="name"):
    """The host name of every instance (its ``gcore_*`` variables), and the renamed ones as (name, id, host name).

    With ``hostname: name``, instances that share a name each get ``<name>_<first 8 characters of the id>``
    (the whole ID in the unlikely case that this is taken too); an instance without a name is named by its ID.
    """
    if hostname == "id":
        return [host["gcore_id"] for host in hosts], []
    wanted = [host["gcore_name"] or host["gcore_id"] for host in hosts]
    counts = Counter(wanted)
    taken = set(name for name in wanted if counts[name] == 1)
    names, renamed = [], []
    for host, name in zip(hosts, wanted):
        if counts[name] > 1:
            unique = "%s_%s" % (name, host["gcore_id"][:8])
            if unique in taken:
                unique = "%s_%s" % (name, host["gcore_id"])
            taken.add(unique)
            renamed.append((name, host["gcore_id"], unique))
            name = unique
        names.append(name)
    return names, renamed


def group_suffix(value):
    """A group name part: lower case, every character but letters, digits and _ made _."""
    return "".join(char if char.isalnum() or char == "_" else "_" for char in str(value).lower())


# ---- option checks (before any request) ---------------------------------------------------------

def check_id_list(option, value):
    if not isinstance(value, list) or not value:
        raise ValidationError("%s: a non-empty list of IDs is required, not %r" % (option, value))
    for index, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int):
            raise ValidationError("%s[%d]: %r is not an integer ID" % (option, index, item))
        check_range("%s[%d]" % (option, index), item, low=1)
    return list(dict.fromkeys(int(item) for item in value))


def check_tag_value(option, value):
    if not isinstance(value, str) or not 1 <= len(value) <= 255:
        raise ValidationError("%s: a tag value is a string of 1 to 255 characters, not %r" % (option, value))
    if value[0] in _TAG_VALUE_EDGE or value[-1] in _TAG_VALUE_EDGE or any(char in value for char in "\t\n\r\f\v"):
        raise ValidationError("%s: %r holds a tab or a line break, or starts or ends with whitespace" % (option, value))


def filter_params(filters):
    """The query parameters for ``filters``; ValidationError names the member and the rule."""
    if filters is None:
        return {}
    if not isinstance(filters, dict):
        raise ValidationError("filters: a dictionary is required, not %r" % (filters,))
    unknown = sorted(set(filters) - set(FILTERS))
    if unknown:
        raise ValidationError("filters: unknown key%s %s (known: %s)" % ("s" if len(unknown) > 1 else "", ", ".join(map(str, unknown)),
                                                                         ", ".join(FILTERS)))
    params = {}
    for key in ("name", "flavor_prefix", "status"):
        value = filters.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or not value.strip() or any(ord(char) < 32 or ord(char) == 127 for char in value):
            raise ValidationError("filters.%s: a non-empty string without control characters is required, not %r" % (key, value))
        params[key] = str(value)  # a plain string (ansible-core 2.19 gives tagged ones), as the cache keeps it
    if "status" in params:
        status = params["status"].upper()
        known = tuple(dict.fromkeys(STATUSES + BAREMETAL_STATUSES))
        if status not in known:
            raise ValidationError("filters.status: %r is not one of %s" % (params["status"], ", ".join(known)))
        params["status"] = status
    tags = filters.get("tag_key_value")
    if tags is not None:
        if not isinstance(tags, dict) or not tags:
            raise ValidationError("filters.tag_key_value: a non-empty dictionary of tags (key: value) is required, not %r" % (tags,))
        for key, value in tags.items():
            if not isinstance(key, str) or not 1 <= len(key) <= 255 or any(char in key for char in _TAG_KEY_FORBIDDEN):
                raise ValidationError("filters.tag_key_value: tag key %r must be 1 to 255 characters without whitespace or '='" % (key,))
            check_tag_value("filters.tag_key_value.%s" % key, value)
        params["tag_key_value"] = json.dumps(dict((str(key), str(value)) for key, value in tags.items()), separators=(",", ":"))
    values = filters.get("tag_value")
    if values is not None:
        values = [values] if isinstance(values, str) else values
        if not isinstance(values, list) or not values:
            raise ValidationError("filters.tag_value: a non-empty list of tag values is required, not %r" % (values,))
        for index, value in enumerate(values):
            check_tag_value("filters.tag_value[%d]" % index, value)
        params["tag_value"] = [str(value) for value in values]
    return params


def check_server_types(value):
    """The server types to list, each once, in the order given."""
    if not isinstance(value, list) or not value:
        raise ValidationError("server_types: a non-empty list of %s is required, not %r" % (" and ".join(LISTINGS), value))
    for index, item in enumerate(value):
        if item not in LISTINGS:
            raise ValidationError("server_types[%d]: %r is not one of %s" % (index, item, ", ".join(LISTINGS)))
    return list(dict.fromkeys(str(item) for item in value))


def kind_of(value):
    """What a value is, in words (ansible-core 2.19 gives tagged subclasses of int, list, ...)."""
    for kind, name in ((bool, "a boolean"), (int, "a number"), (float, "a number"), (list, "a list"), (dict, "a dictionary")):
        if isinstance(value, kind):
            return name
    return "a %s" % type(value).__name__


def given_as(value):
    """What an option's value was given as, in words, for messages that never show it."""
    if isinstance(value, _VAULTED):
        return "a vaulted value"
    return "a value"


class InventoryModule(BaseInventoryPlugin, Constructable, Cacheable):
    NAME = "gcore.platform.cloud"

    def verify_file(self, path):
        return super().verify_file(path) and to_text(path).endswith(("gcore.yml", "gcore.yaml"))

    def parse(self, inventory, loader, path, cache=True):
        super().parse(inventory, loader, path, cache)
        try:
            config = self._read_config_data(path)
        except Exception as exc:  # pylint: disable=broad-exception-caught  # re-raised unless it may show the key
            if "api_key" in to_text(exc):  # Ansible's own message about a value of the wrong type shows the value
                raise AnsibleError("gcore.platform.cloud: invalid option in %s: api_key: a string is required (the value is not shown)"
                                   % to_text(path)) from None
            raise
        try:
            settings = self._settings(config)
        except ValidationError as exc:
            raise AnsibleError("gcore.platform.cloud: invalid option in %s: %s" % (to_text(path), exc)) from None

        cache_key = self.get_cache_key(path)
        use_cache = self.get_option("cache") and cache
        update_cache = self.get_option("cache") and not cache
        listing = None
        if use_cache:
            try:
                listing = self._cache[cache_key]
            except KeyError:
                update_cache = True
            if listing is not None and (not isinstance(listing, dict) or listing.get("format") != CACHE_FORMAT
                                        or listing.get("request") != settings["request"]):
                listing, update_cache = None, True  # made for another request (or by another version)
        if listing is None:
            listing = self._read_service(settings)
        if update_cache:
            self._cache[cache_key] = listing
        for project_id, region_id, reason, what in listing["skipped"]:
            skipped = "the %s of project" % what if what else "project"  # one listing of a pair, or the pair
            display.warning("gcore.platform.cloud: %s %s, region %s skipped (strict_permissions is false): %s"
                            % (skipped, project_id, region_id, reason))
        self._populate(listing["hosts"], listing["types"])

    # ---- options -------------------------------------------------------------------------------
    def _resolved(self, option, config):
        """An option read through ``get_option``, a template or a vaulted value resolved (as amazon.aws's ``aws_ec2`` and
        hetzner.hcloud's ``hcloud`` do), and what it was given as, in words (for messages that never show it)."""
        given = config.get(option)
        if given is not None and not isinstance(given, (str, _VAULTED)):
            raise ValidationError("%s: a string is required, not %s%s" % (option, kind_of(given),
                                                                          " (the value is not shown)" if option == "api_key" else ""))
        value = self.get_option(option)
        vaulted = isinstance(value, _VAULTED) or isinstance(given, _VAULTED)
        if vaulted:
            try:
                return to_text(value), "the vaulted value"
            except Exception as exc:  # pylint: disable=broad-exception-caught  # the text of a vault error may show data
                raise ValidationError("%s: a vaulted value was given and could not be decrypted (%s); check the vault "
                                      "password given to Ansible" % (option, type(exc).__name__)) from None
        if isinstance(value, str) and self.templar.is_template(value):
            try:
                rendered = self.templar.template(value)
            except Exception as exc:  # pylint: disable=broad-exception-caught  # any error of the template, said as such
                detail = type(exc).__name__ if option == "api_key" else to_text(exc)
                raise ValidationError("%s: a template was given and could not be rendered (%s)" % (option, detail)) from None
            return rendered, "the value the template gave"
        return value, "the value given"

    def _settings(self, config):
        """Every option checked before any request (read through ``get_option``; ``api_key`` and ``api_url`` may be
        templates or vaulted values); the request part is what the cache is for."""
        if "api_url" in config:
            api_url, url_given = self._resolved("api_url", config)
        else:  # the first of the variables that is set and not empty (an empty one, as AWX injects it, is not set)
            api_url, url_given = from_environment("GCORE_API_URL", "GCORE_BASE_URL") or DEFAULT_API_URL, "the value given"
        if "api_key" in config:
            api_key, key_given = self._resolved("api_key", config)
        else:
            api_key, key_given = from_environment("GCORE_API_KEY"), "GCORE_API_KEY"
        if api_url is not None and not isinstance(api_url, str):
            raise ValidationError("api_url: a string is required, not %s" % kind_of(api_url)
                                  + ("" if url_given == "the value given" else " (%s)" % url_given))
        if api_key is not None and not isinstance(api_key, str):
            raise ValidationError("api_key: a string is required, and %s is %s (the value is not shown)" % (key_given, kind_of(api_key)))
        try:
            check_api_url(api_url)
        except ValidationError as exc:
            raise ValidationError("%s%s" % (exc, "" if url_given == "the value given" else " (%s)" % url_given)) from None
        numbers = {}
        for option, limits in (("api_timeout", API_TIMEOUT_RANGE), ("api_retries", API_RETRIES_RANGE)):
            value = self.get_option(option)
            if isinstance(config.get(option), bool) or isinstance(value, bool) or not isinstance(value, int):
                raise ValidationError("%s: %r is not an integer number" % (option, config.get(option, value)))
            check_range(option, value, *limits)
            numbers[option] = int(value)
        validate_certs = self.get_option("validate_certs")
        if not isinstance(validate_certs, bool):
            raise ValidationError("validate_certs: true or false is required, not %r" % (validate_certs,))
        scope = {}
        for option, variable in (("projects", "GCORE_CLOUD_PROJECT_ID"), ("regions", "GCORE_CLOUD_REGION_ID")):
            value = self.get_option(option)
            if value is None:
                text = from_environment(variable)
                if text is None:
                    raise ValidationError("%s: not set, and %s is not set either; give the IDs to list" % (option, variable))
                try:
                    value = [int(text)]
                except ValueError:
                    raise ValidationError("%s: %s=%r is not an integer ID" % (option, variable, text)) from None
            scope[option] = check_id_list(option, value)
        params = filter_params(self.get_option("filters"))
        server_types = check_server_types(self.get_option("server_types"))
        for option, choices in (("connect_with", ("public_ipv4", "private_ipv4", "floating_ipv4", "public_ipv6", "name")),
                                ("hostname", ("name", "id"))):
            if self.get_option(option) not in choices:
                raise ValidationError("%s: %r is not one of %s" % (option, self.get_option(option), ", ".join(choices)))
        return {
            "api_key": api_key, "api_key_given": key_given, "api_url": api_url, "timeout": numbers["api_timeout"],
            "retries": numbers["api_retries"], "validate_certs": validate_certs,
            "request": {"api_url": api_url.rstrip("/"), "projects": scope["projects"], "regions": scope["regions"],
                        "server_types": server_types, "filters": params},
        }

    # ---- the service -----------------------------------------------------------------------------
    def _read_service(self, settings):
        """``{format, request, hosts: [gcore_* variables], types: [server type of each host], skipped: [[project, region,
        reason, the listing in words or None for the whole pair]]}`` from every pair: its instance listing, then its bare metal one (as ``server_types`` asks; a
        status filter no server of a type can have skips that type's listing). A pair whose first listing answers 403
        is skipped whole (with ``strict_permissions: false``)."""
        if not HAS_REQUESTS:
            raise AnsibleError("gcore.platform.cloud needs the Python library requests on the controller")
        try:
            api_key = clean_api_key(settings["api_key"])
        except ValidationError as exc:  # "api_key: holds a space" -> "api_key: the value the template gave holds a space"
            raise AnsibleError("gcore.platform.cloud: invalid option: %s"
                               % str(exc).replace("api_key: ", "api_key: %s " % settings["api_key_given"], 1)) from None
        client = Client(api_key=api_key, api_url=settings["api_url"], timeout=settings["timeout"], retries=settings["retries"],
                        validate_certs=settings["validate_certs"])
        request = settings["request"]
        hosts, types, skipped = [], [], []
        status = request["filters"].get("status")
        listed = [kind for kind in ("instance", "baremetal") if kind in request["server_types"]
                  and (status is None or status in LISTINGS[kind][2])]
        for project_id in request["projects"]:
            for region_id in request["regions"]:
                for kind in listed:
                    path, what, _statuses = LISTINGS[kind]
                    try:
                        records = list(client.paginate(path.format(project_id=project_id, region_id=region_id), params=request["filters"],
                                                       page_size=PAGE_SIZE, total_key="count"))
                    except ApiError as exc:
                        if exc.status == 403 and not self.get_option("strict_permissions"):
                            if kind == listed[0]:  # the key may not see the pair: its other listing is not asked
                                skipped.append([project_id, region_id, exc.message, None])
                                break
                            skipped.append([project_id, region_id, exc.message, what])
                            continue
                        hint = (" (set strict_permissions: false to skip a project or region the key may not see)"
                                if exc.status == 403 else "")
                        raise AnsibleError("gcore.platform.cloud: listing the %s of project %s, region %s failed: %s%s"
                                           % (what, project_id, region_id, exc.message, hint)) from None
                    found = [host_variables(record) for record in records if isinstance(record, dict)]
                    hosts.extend(found)
                    types.extend([kind] * len(found))
        return {"format": CACHE_FORMAT, "request": request, "hosts": hosts, "types": types, "skipped": skipped}

    # ---- the inventory -------------------------------------------------------------------------
    def _populate(self, hosts, types):
        inventory = self.inventory
        names, renamed = unique_host_names(hosts, self.get_option("hostname"))
        if renamed:
            display.warning("gcore.platform.cloud: instances share a name, so their host names were made unique: %s"
                            % ", ".join("%s (id %s) as %s" % item for item in renamed))
        connect_with = self.get_option("connect_with")
        compose, groups, keyed_groups = self.get_option("compose"), self.get_option("groups"), self.get_option("keyed_groups")
        strict = self.get_option("strict")
        inventory.add_group("gcore")
        for kind in self.get_option("server_types"):
            inventory.add_group(kind)
        known_groups = set()
        unreachable = []
        for name, variables, kind in zip(names, hosts, types):
            inventory.add_host(name, group="gcore")
            inventory.add_child(kind, name)
            for key, value in variables.items():
                inventory.set_variable(name, key, as_data(value))
            if connect_with == "name":
                address = variables["gcore_name"]
            else:
                found = variables[CONNECT_WITH[connect_with]]
                address = found[0] if found else None
            if address:
                inventory.set_variable(name, "ansible_host", as_data(address))
            else:
                unreachable.append("%s (id %s)" % (name, variables["gcore_id"]))
            for group in ("gcore_region_%s" % group_suffix(variables["gcore_region_id"]),
                          "gcore_status_%s" % group_suffix(variables["gcore_status"])):
                if group not in known_groups:
                    inventory.add_group(group)
                    known_groups.add(group)
                inventory.add_child(group, name)
            if compose or groups or keyed_groups:
                host_vars = inventory.get_host(name).get_vars()
                self._set_composite_vars(compose, host_vars, name, strict=strict)
                composed = inventory.get_host(name).get_vars()
                for key in [key for key in compose or {} if key in composed]:  # a composed value is data too (as_data)
                    inventory.set_variable(name, key, as_data(composed[key]))
                self._add_host_to_composed_groups(groups, host_vars, name, strict=strict)
                self._add_host_to_keyed_groups(keyed_groups, host_vars, name, strict=strict)
        if unreachable:
            more = len(unreachable) - WARN_HOSTS
            display.warning("gcore.platform.cloud: %s host%s without a %s address, so without ansible_host: %s%s"
                            % (len(unreachable), "" if len(unreachable) == 1 else "s", connect_with,
                               ", ".join(unreachable[:WARN_HOSTS]), " and %s more" % more if more > 0 else ""))
