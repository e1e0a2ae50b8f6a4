# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The module base shared by every gcore.platform module.

This module is internal to the collection: its interface may change at any time.

``GcoreModule`` builds the AnsibleModule (common options included), validates input before any
request, builds the client once, and shapes results and errors: ``execute`` is the one place a run ends.
The flow of the idempotent modules built on it is ``Flow`` in ``_writes.py``.

=============== ======================================================================================
setting         meaning
=============== ======================================================================================
argument_spec   the module's own options (the common ones are added)
cloud           the module has ``project_id`` and ``region_id``
waits           the module has ``wait`` and ``wait_timeout``
module_kwargs   more AnsibleModule arguments, such as ``required_if``
=============== ======================================================================================
"""

from __future__ import annotations

from ansible.module_utils.basic import AnsibleModule, missing_required_lib
from ansible.module_utils.common import parameters as _parameters

from ansible_collections.gcore.platform.plugins.module_utils._client import (
    HAS_REQUESTS,
    REQUESTS_IMPORT_ERROR,
    ApiError,
    Client,
)
from ansible_collections.gcore.platform.plugins.module_utils._checks import (
    API_RETRIES_RANGE,
    API_TIMEOUT_RANGE,
    Refused,
    ValidationError,
    check_api_url,
    check_numbers,
    check_range,
    clean_api_key,
    gcore_argument_spec,
)
from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskError, TaskWaiter


_CHECK_INT = _parameters.DEFAULT_TYPE_VALIDATORS["int"]


def _check_int(value):
    """Ansible's int check, with an infinite value (``inf``) refused like any other non-integer: from ansible-core 2.19
    ``int(Decimal('inf'))`` raises OverflowError there, a traceback instead of a message naming the option."""
    try:
        return _CHECK_INT(value)
    except OverflowError:
        raise TypeError("%r cannot be converted to an int: it is not a finite number" % (value,))


_parameters.DEFAULT_TYPE_VALIDATORS["int"] = _check_int


class _AnsibleModule(AnsibleModule):
    """AnsibleModule reporting every argument-spec error, not only the first.

    The first error alone may not name the option (a list element that is not a dict gives "dictionary
    requested, could not parse JSON or key=value"); the later ones do.

    It also keeps the parameters as the task gave them (``raw_params``): Ansible's ``float`` type turns
    ``true`` into 1.0, and only the raw value shows that a boolean was given for a number.
    """

    raw_params = {}

    def _load_params(self):
        super()._load_params()
        self.raw_params = dict(self.params)  # the validator converts a deep copy: the given values stay as given

    def fail_json(self, msg, **kwargs):
        errors = getattr(getattr(self, "validation_result", None), "errors", None)
        if errors and len(errors.errors) > 1 and msg.endswith(errors.msg):
            msg = msg[:len(msg) - len(errors.msg)] + "; ".join(dict.fromkeys(errors.messages))
        super().fail_json(msg=msg, **kwargs)

    def _log_to_syslog(self, msg):
        # syslog refuses a NUL character (ValueError on Python 3.12, which AnsibleModule turns into "Failed to log to
        # syslog"): log it escaped, so a NUL in an option reaches that option's own check and its message.
        super()._log_to_syslog(msg.replace("\x00", "\\x00"))


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
        self.result = {"changed": False}
        self.client = self.tasks = None

    def prepare(self):
        """Validate (before any request), then build the one client and the one task waiter of the run."""
        if not HAS_REQUESTS:
            raise Refused(missing_required_lib("requests"), exception=str(REQUESTS_IMPORT_ERROR))
        self.validate()
        self.client = Client(
            api_key=self.params["api_key"],
            api_url=self.params["api_url"],
            timeout=self.params["api_timeout"],
            retries=self.params["api_retries"],
            validate_certs=self.params["validate_certs"],
        )
        self.tasks = TaskWaiter(self.client)  # one waiter per run: it keeps the task path that answered

    def validate(self):
        """Cross-field and pattern rules; raise ValidationError. Runs before any request.

        Subclasses call this first: it checks the common options (plugins/doc_fragments/gcore.py) and that every number
        option of the module, nested ones included, holds a real number (no boolean, nan or infinity).
        """
        params = self.params
        key = clean_api_key(params["api_key"])
        if key != params["api_key"]:
            self.module.no_log_values.add(key)  # no_log masks the value as given; mask the stripped key too
            params["api_key"] = key
        check_api_url(params["api_url"])
        check_numbers(self.module.argument_spec, getattr(self.module, "raw_params", {}), params)
        check_range("api_timeout", params["api_timeout"], *API_TIMEOUT_RANGE)
        check_range("api_retries", params["api_retries"], *API_RETRIES_RANGE)
        if self.cloud:
            check_range("project_id", params["project_id"], low=1)
            check_range("region_id", params["region_id"], low=1)
        if self.waits:
            check_range("wait_timeout", params["wait_timeout"], low=1)

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
        """Run, and turn every typed error into the task's result: the one place that ends a module run."""
        try:
            try:
                self.prepare()
            except ValidationError as exc:
                self.result.pop("changed")  # nothing was looked at: a validation failure before any request
                raise Refused("Invalid input: %s" % exc)
            self.result.update(self.run() or {})
        except Refused as exc:
            self.conclude(str(exc), **exc.extra)
        except ValidationError as exc:
            self.conclude("Invalid input: %s" % exc)
        except ApiError as exc:
            self.conclude(exc.message, exc, api_error=exc.as_dict())
        except TaskError as exc:
            self.conclude(str(exc), exc, task=exc.task)
        self.conclude()

    def fail(self, msg, **extra):
        """Stop the run with a failure: raises Refused, which ``execute`` turns into the result (``extra``: members)."""
        raise Refused(msg, **extra)

    def outcome(self, msg, error):
        """The failure message after ``error``; a flow that writes adds what the service accepted (``_writes``)."""
        return msg

    def conclude(self, msg=None, error=None, **extra):
        """The result of the run: success without ``msg``, else a failure with the result so far. The parameters a
        declaration adds for itself (named ``_...``) are dropped first: ``invocation`` shows the task's own."""
        for name in [name for name in self.params if name.startswith("_")]:
            del self.params[name]
        if msg is None:
            self.module.exit_json(**self.result)
        self.module.fail_json(msg=self.outcome(msg, error), **dict(self.result, **extra))

    @classmethod
    def main(cls):
        cls().execute()
