# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The options every module has (docs: the ``gcore`` doc fragment): their limits, checks and environment fallbacks.

This module is internal to the collection: its interface may change at any time. It needs no AnsibleModule, so the
modules (through ``_base``) and the ``gcore.platform.cloud`` inventory plugin on the controller share it.
"""

from __future__ import annotations

import ipaddress
import os
import re
from urllib.parse import urlsplit

from ansible.module_utils.errors import AnsibleFallbackNotFound

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._client import DEFAULT_API_URL

API_TIMEOUT_RANGE = (1, 3600)
API_RETRIES_RANGE = (0, 10)
API_RETRIES_DEFAULT = 3
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
