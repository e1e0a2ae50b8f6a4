# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test-only action ``sim``: one call to the simulator's control API (``POST <url>/_sim/<call>``), made on the controller.

The stories reach it through targets/sim.yml (``sim_call``, ``sim_body``); the playbook fixture of
tests/integration/conftest.py puts this folder on ANSIBLE_ACTION_PLUGINS. An action plugin runs inside
ansible-playbook: no module process per mark, fault or release. A refusal of the simulator (any status other
than 200, e.g. 400 for a bad control body) fails the task with the simulator's answer, as the ``uri`` task did.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from ansible.plugins.action import ActionBase


def _plain(value):
    """The templated arguments as plain JSON types (ansible-core 2.19+ hands over tagged subclasses)."""
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)


class ActionModule(ActionBase):
    TRANSFERS_FILES = False
    _VALID_ARGS = frozenset(("url", "call", "body", "timeout"))

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        args = self._task.args
        call = str(args.get("call") or "mark")
        url = "%s/_sim/%s" % (str(args["url"]).rstrip("/"), call)
        body = json.dumps(_plain(args.get("body") or {})).encode("utf-8")
        request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=float(args.get("timeout", 60))) as response:  # nosec B310: the local simulator
                status, text = response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode("utf-8", "replace")
        except (urllib.error.URLError, OSError) as error:
            result.update(failed=True, changed=False, msg="simulator %s: %s" % (call, error))
            return result
        try:
            answer = json.loads(text) if text else None
        except ValueError:
            answer = None
        result.update(changed=False, status=status, json=answer)
        if status != 200:
            result.update(failed=True, msg="simulator %s answered %s: %s" % (call, status, text))
        return result
