# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The rules a value must follow, checked before any request (re-exported by ``_base``), the errors of a run that
stops before or besides the API (``ValidationError``, ``Refused``), and the options every module has (docs: the
``gcore`` doc fragment): their limits, checks and environment fallbacks.

This module is internal to the collection: its interface may change at any time. Each check raises
``ValidationError`` naming the option and the rule. It needs no AnsibleModule, so the modules (through ``_base``)
and the ``gcore.platform.cloud`` inventory plugin on the controller share it.
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
import stat
import tempfile
import uuid
from urllib.parse import urlsplit

from ansible.module_utils.errors import AnsibleFallbackNotFound

from ansible_collections.gcore.platform.plugins.module_utils._client import DEFAULT_API_URL


class ValidationError(Exception):
    """Input that breaks a documented rule; raised before any request is sent."""


class Refused(Exception):
    """The flow refuses to go on (for example: several resources have the name); ``extra``: result members."""
    def __init__(self, msg, **extra):
        super().__init__(msg)
        self.extra = extra


class Settled(Refused):
    """A refusal after writes whose outcome is known (accepted, or confirmed by the state read again): the failure says
    they were accepted, not that they could not be confirmed."""


class Unfinished(Settled):
    """A record the service could not finish (an error status): deleting it and creating it again is the way out."""


def require(condition, option, rule):
    """Fail validation naming the option and the rule unless ``condition`` holds."""
    if not condition:
        raise ValidationError("%s: %s" % (option, rule))


def is_uuid(value):
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True


def check_uuid(option, value):
    require(value is None or is_uuid(value), option, "%r is not a UUID" % (value,))


def uuid_text(option, value):
    """A UUID checked, in its canonical form: lower-case (the service's ids are lower-case); None stays None."""
    check_uuid(option, value)
    return None if value is None else str(uuid.UUID(value))


def canonical_uuid(params, option):
    """Check a UUID option and keep it in its canonical form."""
    params[option] = uuid_text(option, params.get(option))


def canonical_ip(value):
    """An IP address in one text form: ``ipaddress``'s, except that an IPv4-mapped IPv6 address keeps its dotted
    tail (``::ffff:10.0.0.1``, the form the service expects, where ``ipaddress`` prints ``::ffff:a00:1``).
    Raises ValueError for text that is not an address."""
    address = ipaddress.ip_address(value)
    if address.version == 6 and address.ipv4_mapped is not None:
        return "::ffff:%s" % address.ipv4_mapped
    return str(address)


def checked_address(option, value):
    """An IPv4 or IPv6 address checked (the error names the option) and canonical (``canonical_ip``); None stays None."""
    if value is None:
        return None
    try:
        return canonical_ip(value)
    except ValueError:
        raise ValidationError("%s: %r is not an IPv4 or IPv6 address" % (option, value))


def canonical_address(value):
    """An IP address as ``ipaddress`` prints it (a value that is none is kept as it is)."""
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return value


def _bounds(low, high):
    if low is not None and high is not None:
        return "%s to %s" % (low, high)
    return "at least %s" % low if low is not None else "at most %s" % high


def check_number(option, value):
    """A number is a finite int or float, never a boolean (YAML ``yes`` is not 1)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValidationError("%s: %r is not a number (a %s was given)" % (option, value, type(value).__name__))
    if isinstance(value, float) and not math.isfinite(value):
        raise ValidationError("%s: %r is not a finite number (nan and infinity are refused)" % (option, value))


def check_range(option, value, low=None, high=None):
    if value is None:
        return
    check_number(option, value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValidationError("%s: %r is out of range (must be %s)" % (option, value, _bounds(low, high)))


def check_length(option, value, low=None, high=None):
    if value is None:
        return
    size = len(value)
    if (low is not None and size < low) or (high is not None and size > high):
        raise ValidationError("%s: length %s is out of range (must be %s to %s)" % (option, size, low or 0, high))


def check_pattern(option, value, pattern, rule=None, flags=0):
    """The whole value must match (``re.fullmatch``: a ``$`` in the pattern does not let a trailing newline through)."""
    if value is None:
        return
    if not re.fullmatch(pattern, value, flags):
        raise ValidationError("%s: %r does not match %s" % (option, value, rule or pattern))


NAME_PATTERN = r"^[a-zA-Z0-9][a-zA-Z 0-9._\-]{1,%d}[a-zA-Z0-9._]$"  # every Cloud resource name follows it
NAME_RULE = " (3 to %d letters, digits, spaces, '.', '_' or '-'; first a letter or digit, last a letter, digit, '.' or '_')"


def check_name(option, value, what=None, longest=63):
    """A Cloud resource name (3 to ``longest`` characters of the one pattern every Cloud name follows; ``longest`` None:
    a kind whose names follow no rule, only not empty)."""
    if longest is None:
        require(value is None or value.strip(), option, "must not be empty")
        return
    check_length(option, value, 3, longest)
    pattern = NAME_PATTERN % (longest - 2)
    check_pattern(option, value, pattern, (what + ": " if what else "") + pattern + NAME_RULE % longest)


def check_not_blank(option, value):
    """A text that must hold more than whitespace."""
    if value is not None and value and not value.strip():
        raise ValidationError("%s: must not be only whitespace" % option)


def check_names(items, noun="item", option="config", key="name"):
    """Two items with one key fail naming both indices and the key; returns warnings for names with leading or
    trailing whitespace (a different name to the service)."""
    first, twice, warnings, said = {}, [], [], "named" if key == "name" else "of %s" % key
    for index, item in enumerate(items):
        name = item[key]
        if name in first:
            twice.append("%s[%s] and %s[%s] are both %s %r" % (option, first[name], option, index, said, name))
        first.setdefault(name, index)
        if isinstance(name, str) and name != name.strip():
            warnings.append("%s[%s].name %r has leading or trailing whitespace: the service keeps it, so it is another "
                            "name than %r" % (option, index, name, name.strip()))
    if twice:
        raise ValidationError("%s: each %s must have its own %s; %s" % (option, noun, key, "; ".join(twice)))
    return warnings


INT64 = (-2 ** 63, 2 ** 63 - 1)  # every integer of the APIs is an int64 at most (ids, sizes, counts)


def check_int64(option, value):
    """An integer the service can hold: the APIs' integers are int64 (a larger one is refused, or worse, wrapped)."""
    if isinstance(value, int) and not INT64[0] <= value <= INT64[1]:
        raise ValidationError("%s: %s is out of range (must be %s to %s, an int64)" % (option, value, INT64[0], INT64[1]))


def check_numbers(spec, raw, params, prefix=""):
    """Every int and float option (nested ones too) holds a real number: not a boolean, not nan or infinity; an int fits an int64.

    ``raw`` is the task's input (Ansible's float type turns ``true`` into 1.0), ``params`` the converted values.
    Only the options that are numbers or hold some are walked (a list of a thousand rules costs what its numbers cost).
    """
    for name, option in _numeric(spec):
        _check_value(prefix + name, option, option.get("type", "str"), _lookup(raw, name, option), (params or {}).get(name))


def _check_value(label, option, kind, given, value):
    """One value of ``kind`` (the option's type, or its ``elements`` for an item of a list) as given and converted."""
    if kind in ("int", "float"):
        if isinstance(given, bool) or isinstance(value, bool):
            raise ValidationError("%s: a boolean (%s) was given where a number is required" % (label, given))
        check_number(label, value)
        if kind == "int":
            check_int64(label, value)
    elif kind == "list" and isinstance(value, list):
        for index, item in enumerate(value):
            raw_item = given[index] if isinstance(given, list) and index < len(given) else item
            _check_value("%s[%d]" % (label, index), option, option.get("elements"), raw_item, item)
    elif kind == "dict" and option.get("options") and isinstance(value, dict):
        check_numbers(option["options"], given if isinstance(given, dict) else {}, value, label + ".")


_NUMERIC = {}  # id(spec) -> (spec, its options that are numbers or hold some)


def _numeric(spec):
    if id(spec) not in _NUMERIC:
        _NUMERIC[id(spec)] = (spec, [(name, option) for name, option in spec.items() if _holds_number(option)])
    return _NUMERIC[id(spec)][1]


def _holds_number(option):
    kinds = (option.get("type", "str"), option.get("elements"))
    return "int" in kinds or "float" in kinds or any(_holds_number(sub) for sub in (option.get("options") or {}).values())


def _lookup(raw, name, option):
    """The value the task gave for an option, under its name or one of its aliases."""
    if not isinstance(raw, dict):
        return None
    for key in [name] + list(option.get("aliases") or []):
        if key in raw:
            return raw[key]
    return None


# ---- the options every module has ----------------------------------------------------------------------------

API_TIMEOUT_RANGE = (1, 3600)
API_RETRIES_RANGE = (0, 10)
HTTP_METHODS = ["CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE"]  # a listener's, a WAAP rule's
_HOST_LABEL = r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)"
_HOST_NAME = r"%s(\.%s)*\.?" % (_HOST_LABEL, _HOST_LABEL)


def from_environment(*names):
    """The first of these environment variables that is set and not empty, else None.

    AWX injects every variable of a credential type, empty when the credential leaves it blank:
    an empty variable means "not set", so the option's default or requirement applies.
    """
    for name in names:
        if os.environ.get(name):
            return os.environ[name]
    return None


def env_fallback(*names):
    """``from_environment`` as an AnsibleModule fallback: raises AnsibleFallbackNotFound when none is set."""
    value = from_environment(*names)
    if value is None:
        raise AnsibleFallbackNotFound
    return value


def clean_api_key(value):
    """The API key with surrounding whitespace removed; ValidationError (showing no part of it) unless the rest is
    non-empty printable ASCII without spaces."""
    key = (value or "").strip()
    rule = "it must be printable ASCII without spaces or control characters (the key is not shown)"
    if not key:
        raise ValidationError("api_key: is empty; set the option or GCORE_API_KEY")
    for char in key:
        if char == " ":
            raise ValidationError("api_key: holds a space; %s" % rule)
        if ord(char) < 32 or ord(char) == 127:
            raise ValidationError("api_key: holds a control character (such as a newline or a tab) inside it; %s" % rule)
        if ord(char) > 127 or not char.isprintable():
            raise ValidationError("api_key: holds a non-ASCII character; %s" % rule)
    return key


def check_api_url(value):
    """``http(s)://host[:port][/]`` and nothing else: a path would make every 404 read as absent."""
    rule = "api_url must be http:// or https://, a host, an optional port and an optional trailing / (such as %s)" % DEFAULT_API_URL
    if value is None or not value.strip():
        raise ValidationError("api_url: must not be empty (leave it out for the default %s)" % DEFAULT_API_URL)
    if "@" in value:
        raise ValidationError("api_url: holds user info (user@, not shown); the API key goes in api_key; %s" % rule)
    if any(ord(char) < 33 or ord(char) > 126 for char in value):
        raise ValidationError("api_url: %r holds a space, a control or a non-ASCII character; %s" % (value, rule))
    if "://" not in value:
        raise ValidationError("api_url: %r has no scheme; write it with https:// (or http:// for a plain-HTTP endpoint), "
                              "such as %s" % (value, DEFAULT_API_URL))
    try:
        parts = urlsplit(value)
        parts.port  # pylint: disable=pointless-statement  # raises ValueError on a bad port
    except ValueError as exc:
        raise ValidationError("api_url: %r is not a valid URL (%s); %s" % (value, exc, rule))
    if parts.scheme.lower() not in ("http", "https"):
        raise ValidationError("api_url: scheme %r is not supported; %s" % (parts.scheme, rule))
    if parts.path not in ("", "/"):
        raise ValidationError("api_url: %r has a path (%s), so every API path would miss and every resource read as absent; "
                              "%s" % (value, parts.path, rule))
    if parts.query or parts.fragment or "?" in value or "#" in value:
        raise ValidationError("api_url: %r has a query or a fragment; %s" % (value, rule))
    match = re.fullmatch(r"(\[[^\]]*\]|[^:\[\]]*)(?::([^:]*))?", parts.netloc)
    if not match or not _valid_host(match.group(1)):
        raise ValidationError("api_url: %r has no valid host; %s" % (value, rule))
    port = match.group(2)
    if port is not None and not (port.isdigit() and 1 <= int(port) <= 65535):
        raise ValidationError("api_url: %r has an invalid port (must be 1 to 65535); %s" % (value, rule))


def _valid_host(host):
    """A DNS name, an IPv4 address or a bracketed IPv6 address."""
    try:
        if host.startswith("["):
            return ipaddress.ip_address(host[1:-1]).version == 6
        if re.fullmatch(r"[0-9.]+", host):
            return ipaddress.ip_address(host).version == 4
    except ValueError:
        return False
    return bool(re.fullmatch(_HOST_NAME, host))


def gcore_argument_spec(cloud=False, waits=False):
    """The options every module has (plugins/doc_fragments/gcore.py), plus cloud scope and wait options."""
    spec = dict(
        api_key=dict(type="str", required=True, no_log=True, fallback=(env_fallback, ["GCORE_API_KEY"])),
        api_url=dict(type="str", default=DEFAULT_API_URL, fallback=(env_fallback, ["GCORE_API_URL", "GCORE_BASE_URL"])),
        api_timeout=dict(type="int", default=30),
        api_retries=dict(type="int", default=3),
        validate_certs=dict(type="bool", default=True),
    )
    if cloud:
        spec.update(project_id=dict(type="int", required=True, fallback=(env_fallback, ["GCORE_CLOUD_PROJECT_ID"])),
                    region_id=dict(type="int", required=True, fallback=(env_fallback, ["GCORE_CLOUD_REGION_ID"])))
    if waits:
        spec.update(
            wait=dict(type="bool", default=True),
            wait_timeout=dict(type="int", default=600),
        )
    return spec


def strip_none(value):
    """A copy without the members that are None, at every depth (Ansible fills every unset suboption with None)."""
    if isinstance(value, dict):
        return dict((key, strip_none(item)) for key, item in value.items() if item is not None)
    if isinstance(value, list):
        return [strip_none(item) for item in value]
    return value


def check_secret_path(option, path):
    """A file a secret is written to: not a directory, in a directory that exists."""
    if path is not None:
        require(not os.path.isdir(path), option, "is a directory; give a file's path")
        require(os.path.isdir(os.path.dirname(os.path.abspath(path))), option, "its directory %s does not exist" % os.path.dirname(os.path.abspath(path)))


def save_secret(module, option, path, content, check=False):
    """Write ``content`` (a secret: masked in every output of the run from now on) to ``path`` with mode 0600 when the file
    holds another content or mode (``check``: write nothing); whether it did (would)."""
    module.no_log_values.add(content)
    try:
        with open(path, encoding="utf-8") as handle:
            same = handle.read() == content and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    except FileNotFoundError:
        same = False
    except (OSError, UnicodeDecodeError) as exc:
        raise Refused("%s: %s cannot be read (%s)" % (option, path, getattr(exc, "strerror", None) or exc.__class__.__name__))
    if same or check:
        return not same
    try:
        handle, temporary = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".gcore-")  # mode 0600
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(content)
        os.replace(temporary, path)
    except OSError as exc:
        raise Refused("%s: %s cannot be written (%s)" % (option, path, exc.strerror))
    return True
