# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""The module base shared by every gcore.platform module (``GcoreModule``; the flow built on it: ``_flow``).

This module is internal to the collection: its interface may change at any time.

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

from ansible.module_utils.basic import missing_required_lib

from ansible_collections.gcore.platform.plugins.module_utils._argspec import ArgSpecModule
from ansible_collections.gcore.platform.plugins.module_utils._client import HAS_REQUESTS, REQUESTS_IMPORT_ERROR, ApiError, Client
from ansible_collections.gcore.platform.plugins.module_utils._checks import API_RETRIES_RANGE, API_TIMEOUT_RANGE, Refused, ValidationError, check_api_url
from ansible_collections.gcore.platform.plugins.module_utils._checks import check_numbers, check_range, clean_api_key, gcore_argument_spec, strip_none
from ansible_collections.gcore.platform.plugins.module_utils._tasks import TaskError, TaskWaiter


class GcoreModule:
    argument_spec = {}
    cloud = False
    waits = False
    module_kwargs = {}

    def __init__(self):
        spec = dict(gcore_argument_spec(cloud=self.cloud, waits=self.waits), **self.argument_spec)
        self.module = ArgSpecModule(argument_spec=spec, supports_check_mode=True, **self.module_kwargs)
        self.params = self.module.params
        self.check_mode = self.module.check_mode
        self.result = {"changed": False}
        self.client = self.tasks = None
        self.named_ids = {}  # the names resolved to ids in this run, each once (``_parents.parent_id``)

    def prepare(self):
        """Validate input (before any request), then build the one client and the one task waiter of the run."""
        if not HAS_REQUESTS:
            raise Refused(missing_required_lib("requests"), exception=str(REQUESTS_IMPORT_ERROR))
        self.validate()
        params = self.params
        self.client = Client(api_key=params["api_key"], api_url=params["api_url"], timeout=params["api_timeout"], retries=params["api_retries"],
                             validate_certs=params["validate_certs"], secrets=self.module.no_log_values)  # secrets: scrubbed from error texts
        self.tasks = TaskWaiter(self.client)  # one waiter per run: it keeps the task path that answered

    def validate(self):
        """Rules before any request (raise ValidationError); a subclass calls it first: the common options (doc_fragments
        /gcore.py), and every number option (nested ones too) a real number, not a boolean, nan or infinity."""
        params = self.params
        params["api_key"] = clean_api_key(params["api_key"])
        self.module.no_log_values.add(params["api_key"])  # no_log masks the value as given; mask the stripped key too
        check_api_url(params["api_url"])
        check_numbers(self.module.argument_spec, getattr(self.module, "raw_params", {}), params)
        check_range("api_timeout", params["api_timeout"], *API_TIMEOUT_RANGE)
        check_range("api_retries", params["api_retries"], *API_RETRIES_RANGE)
        if self.cloud:
            check_range("project_id", params["project_id"], low=1)
            check_range("region_id", params["region_id"], low=1)
        if self.waits:
            check_range("wait_timeout", params["wait_timeout"], low=1)

    def run(self):
        """Do the work; return the result members (besides ``changed``)."""
        raise NotImplementedError

    def execute(self):
        """Prepare, run, and turn every typed error into the task's result: the one place that ends a module run."""
        try:
            self.prepare()
            self.result.update(self.run() or {})
        except Refused as exc:
            self.conclude(str(exc), exc, **exc.extra)
        except ValidationError as exc:
            if self.client is None:  # nothing was looked at: a validation failure before any request
                self.result.pop("changed")
            self.conclude("Invalid input: %s" % exc)
        except ApiError as exc:
            self.conclude(exc.message, exc, api_error=exc.as_dict())
        except TaskError as exc:
            self.conclude(str(exc), exc, task=exc.task)
        self.conclude()

    def outcome(self, msg, error):
        """The failure message after ``error``; a flow that writes adds what the service accepted (``_flow``)."""
        return msg

    def conclude(self, msg=None, error=None, **extra):
        """The result of the run: success without ``msg``, else a failure with the result so far. ``invocation`` shows
        the task's own parameters, the items of a list option without the suboptions left unset (Ansible fills each with
        None: 1,000 rules echo 3 times their size)."""
        msg = msg if msg is None else self.outcome(msg, error)
        for name in list(self.params):
            if isinstance(self.params[name], list) and self.params[name] and isinstance(self.params[name][0], dict):
                self.params[name] = strip_none(self.params[name])
        if msg is None:
            self.module.exit_json(**self.result)
        self.module.fail_json(msg=msg, **dict(self.result, **extra))

    @classmethod
    def main(cls):
        cls().execute()
