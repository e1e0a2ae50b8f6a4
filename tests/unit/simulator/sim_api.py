# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the simulator's unit tests of the production families share: a quick simulator and ``Api``, in-process calls
with the checks every test repeats. (Not a conftest: ``tests/integration`` imports its own ``conftest`` by name.)"""

from __future__ import annotations

from simulator.core import Simulator


class Api:
    """In-process calls to a simulator, with the checks every test repeats."""

    def __init__(self, sim):
        self.sim = sim

    def ok(self, method, path, body=None, query=""):
        """The body of an answer that must be 200."""
        status, answer = self.sim.call(method, path, body, query)
        assert status == 200, (status, answer)
        return answer

    def refused(self, method, path, body=None, query=""):
        """``(status, message)`` of an answer that must be an error, in the cloud error shape."""
        status, answer = self.sim.call(method, path, body, query)
        assert status >= 400 and set(answer) >= {"exception_class", "message"}, (status, answer)
        return status, answer["message"]

    def task(self, answer):
        """The only task of an accepted write, still as it is."""
        assert list(answer) == ["tasks"] and len(answer["tasks"]) == 1, answer
        return self.sim.tasks[answer["tasks"][0]]["record"]

    def finished(self, answer):
        """The only task of an accepted write, released and finished."""
        task = self.task(answer)
        self.sim.release()
        self.sim.advance()
        assert task["state"] == "FINISHED", task
        return task

    def failed(self, answer, error="boom"):
        """The only task of an accepted write, released into ERROR."""
        task = self.task(answer)
        self.sim.release(task["id"], error=error)
        self.sim.advance()
        assert task["state"] == "ERROR", task
        return task

    def created(self, method, path, body, key):
        """The id a create's finished task names in ``created_resources[key]`` (exactly one)."""
        made = self.finished(self.ok(method, path, body))["created_resources"][key]
        assert len(made) == 1, made
        return made[0]


def quick_simulator():
    """A simulator whose tasks end at the next request (``hold()`` keeps them running)."""
    simulator = Simulator()
    simulator.configure(task_delay=0)
    return simulator
