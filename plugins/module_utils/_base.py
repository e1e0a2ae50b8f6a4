# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The module base shared by every gcore.platform module.

This module is internal to the collection: its interface may change at any time.

``GcoreModule`` builds the AnsibleModule (common options included), validates input before any
request, builds the client once, and shapes results and errors. The declarative flow of an idempotent
resource built on it is ``GcoreResourceModule`` in ``_resource.py``.
"""

from __future__ import annotations

import os
import re
import uuid

from ansible.module_utils.basic import AnsibleModule, missing_required_lib
from ansible.module_utils.errors import AnsibleFallbackNotFound

from ansible_collections.gcore.platform.plugins.module_utils._client import (
    DEFAULT_API_URL,
    HAS_REQUESTS,
    REQUESTS_IMPORT_ERROR,
    ApiError,
    Client,
)
from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskError, TaskWaiter


def env_fallback(*names):
    """The first of these environment variables that is set and not empty.

    AWX injects every variable of a credential type, empty when the credential leaves it blank:
    an empty variable means "not set", so the option's default or requirement applies.
    """
    for name in names:
        if os.environ.get(name):
            return os.environ[name]
    raise AnsibleFallbackNotFound


def gcore_argument_spec(cloud=False, waits=False):
    """The options every module has (CONTRACT section 1), plus cloud scope and wait options."""
    spec = dict(
        api_key=dict(type="str", required=True, no_log=True, fallback=(env_fallback, ["GCORE_API_KEY"])),
        api_url=dict(type="str", default=DEFAULT_API_URL, fallback=(env_fallback, ["GCORE_API_URL", "GCORE_BASE_URL"])),
        api_timeout=dict(type="int", default=30),
        api_retries=dict(type="int", default=3),
        validate_certs=dict(type="bool", default=True),
    )
    if cloud:
        spec.update(
            project_id=dict(type="int", required=True, fallback=(env_fallback, ["GCORE_CLOUD_PROJECT_ID"])),
            region_id=dict(type="int", required=True, fallback=(env_fallback, ["GCORE_CLOUD_REGION_ID"])),
        )
    if waits:
        spec.update(
            wait=dict(type="bool", default=True),
            wait_timeout=dict(type="int", default=600),
        )
    return spec


class _AnsibleModule(AnsibleModule):
    """AnsibleModule reporting every argument-spec error, not only the first.

    The first error alone may not name the option (a list element that is not a dict gives "dictionary
    requested, could not parse JSON or key=value"); the later ones do.
    """

    def fail_json(self, msg, **kwargs):
        errors = getattr(getattr(self, "validation_result", None), "errors", None)
        if errors and len(errors.errors) > 1 and msg.endswith(errors.msg):
            msg = msg[:len(msg) - len(errors.msg)] + "; ".join(dict.fromkeys(errors.messages))
        super().fail_json(msg=msg, **kwargs)


class ValidationError(Exception):
    """Input that breaks a documented rule; raised before any request is sent."""


def require(condition, option, rule):
    """Fail validation naming the option and the rule unless ``condition`` holds."""
    if not condition:
        raise ValidationError("%s: %s" % (option, rule))


def check_uuid(option, value):
    if value is None:
        return
    try:
        uuid.UUID(str(value))
    except ValueError:
        raise ValidationError("%s: %r is not a UUID" % (option, value))


def check_range(option, value, low=None, high=None):
    if value is None:
        return
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = "%s to %s" % (low, high) if low is not None and high is not None else (
            "at least %s" % low if low is not None else "at most %s" % high)
        raise ValidationError("%s: %r is out of range (must be %s)" % (option, value, bounds))


def check_length(option, value, low=None, high=None):
    if value is None:
        return
    size = len(value)
    if (low is not None and size < low) or (high is not None and size > high):
        raise ValidationError("%s: length %s is out of range (must be %s to %s)" % (option, size, low or 0, high))


def check_pattern(option, value, pattern, rule=None):
    if value is None:
        return
    if not re.search(pattern, value):
        raise ValidationError("%s: %r does not match %s" % (option, value, rule or pattern))


class GcoreModule:
    """Builds the module and its client; owns validation order, results and error shaping."""

    argument_spec = {}
    cloud = False
    waits = False
    module_kwargs = {}

    def __init__(self):
        spec = gcore_argument_spec(cloud=self.cloud, waits=self.waits)
        spec.update(self.argument_spec)
        self.module = _AnsibleModule(argument_spec=spec, supports_check_mode=True, **self.module_kwargs)
        self.params = self.module.params
        self.check_mode = self.module.check_mode
        if not HAS_REQUESTS:
            self.module.fail_json(msg=missing_required_lib("requests"), exception=str(REQUESTS_IMPORT_ERROR))
        try:
            self.validate()
        except ValidationError as exc:
            self.module.fail_json(msg="Invalid input: %s" % exc)
        self.client = Client(
            api_key=self.params["api_key"],
            api_url=self.params["api_url"],
            timeout=self.params["api_timeout"],
            retries=self.params["api_retries"],
            validate_certs=self.params["validate_certs"],
        )
        self.tasks = TaskWaiter(self.client)  # one waiter per run: it keeps the task path that answered
        self.result = {"changed": False}

    def validate(self):
        """Cross-field and pattern rules; raise ValidationError. Runs before any request."""
        require(self.params["api_timeout"] > 0, "api_timeout", "must be at least 1 second")
        require(self.params["api_retries"] >= 0, "api_retries", "must be 0 or more")
        if self.waits:
            require(self.params["wait_timeout"] > 0, "wait_timeout", "must be at least 1 second")

    def cloud_path(self, template, *args):
        """A cloud path with the project and region filled in: template has two leading %s."""
        return template % ((self.params["project_id"], self.params["region_id"]) + args)

    def wait_for(self, task_ids):
        """Wait for every task when ``wait`` is set; return the finished task records (or [])."""
        if not task_ids or not self.params.get("wait", True):
            return []
        return self.tasks.wait(task_ids, self.params["wait_timeout"])

    def cap_warning(self, listing, cap):
        """The one offset-cap warning (``on_cap`` of ``Client.paginate``); ``listing`` names what was listed."""
        def warn(offset):
            self.module.warn("The %s stopped at offset %s, the most the service serves (%s); items beyond it were not read "
                             "(narrow the listing with its filters)" % (listing, offset, cap))
        return warn

    def run(self):
        """Do the work; return the result members (besides ``changed``)."""
        raise NotImplementedError

    def execute(self):
        try:
            self.result.update(self.run() or {})
        except ValidationError as exc:
            self.fail("Invalid input: %s" % exc)
        except ApiError as exc:
            self.fail(exc.message, api_error=exc.as_dict())
        except TaskError as exc:
            self.fail(str(exc), task=exc.task)
        self.module.exit_json(**self.result)

    def fail(self, msg, **extra):
        """Fail the task with the result so far."""
        self.module.fail_json(msg=msg, **dict(self.result, **extra))

    @classmethod
    def main(cls):
        cls().execute()


def strip_none(value):
    """A copy without the members that are None, at every depth (Ansible fills every unset suboption with None)."""
    if isinstance(value, dict):
        return dict((key, strip_none(item)) for key, item in value.items() if item is not None)
    if isinstance(value, list):
        return [strip_none(item) for item in value]
    return value
