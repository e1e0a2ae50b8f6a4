# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Items attached one by one (``_attachments.Attachments``) alone: the plan attaches first, then re-attaches an item
that differs, then detaches what is not listed (a failure half way leaves every listed item attached), a member left
out is not compared, an identity listed twice fails naming both indices, and each write is judged by what the state
read again holds (no module, no HTTP)."""

from __future__ import annotations

import pytest

from ansible_collections.gcore.platform.plugins.module_utils._attachments import Attachments
from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError
from ansible_collections.gcore.platform.plugins.module_utils._writes import changes_of

PARAMS = {"project_id": 1, "region_id": 76}
SHAPE = {"attached": list, "detached": list}


def subnets():
    return Attachments("interfaces", "subnet_id", lambda record: record["interfaces"],
                       ("POST", "/routers/{project_id}/{region_id}/{id}/attach"),
                       ("POST", "/routers/{project_id}/{region_id}/{id}/detach"), said=("attached", "detached"))


def router(*items):
    return {"id": "r-1", "interfaces": [dict(item) for item in items]}


def test_the_plan_attaches_first_then_reattaches_what_differs_then_detaches_what_is_not_listed():
    record = router({"subnet_id": "a", "ip_address": "10.0.0.1"}, {"subnet_id": "b", "ip_address": "10.0.1.1"},
                    {"subnet_id": "c", "ip_address": "10.0.2.1"})
    wanted = [{"subnet_id": "b", "ip_address": "10.0.1.9"}, {"subnet_id": "c", "ip_address": None}, {"subnet_id": "d", "ip_address": None}]
    writes = subnets().plan(record, wanted, PARAMS)
    assert [(write.kind, write.path, write.body) for write in writes] == [
        ("attach", "/routers/1/76/r-1/attach", {"subnet_id": "d", "ip_address": None}),
        ("detach", "/routers/1/76/r-1/detach", {"subnet_id": "b"}),
        ("attach", "/routers/1/76/r-1/attach", {"subnet_id": "b", "ip_address": "10.0.1.9"}),
        ("detach", "/routers/1/76/r-1/detach", {"subnet_id": "a"}),
    ], "c is listed without an address: the one it has satisfies it"
    assert changes_of(SHAPE, writes) == {"attached": ["b", "d"], "detached": ["a", "b"]}, "check mode: what the plan says"


def test_nothing_is_planned_when_the_record_holds_what_is_listed():
    record = router({"subnet_id": "a", "ip_address": "10.0.0.1"})
    assert subnets().plan(record, [{"subnet_id": "a", "ip_address": None}], PARAMS) == []
    assert subnets().views(record, [{"subnet_id": "a", "ip_address": None}], PARAMS)[1] == [{"subnet_id": "a", "ip_address": "10.0.0.1"}], \
        "the diff's after side shows what the record holds for a member left out: no change"


def test_each_write_is_judged_by_what_the_state_read_again_holds():
    record = router({"subnet_id": "a", "ip_address": "10.0.0.1"})
    attach, detach = subnets().plan(record, [{"subnet_id": "b", "ip_address": "10.0.1.5"}], PARAMS)
    assert attach.done(router({"subnet_id": "a"}, {"subnet_id": "b", "ip_address": "10.0.1.5"}))
    assert not attach.done(router({"subnet_id": "a"})), "not attached: the write did not take effect"
    assert not attach.done(router({"subnet_id": "b", "ip_address": "10.0.1.6"})), "attached otherwise is not what was sent"
    assert detach.done(router({"subnet_id": "b", "ip_address": "10.0.1.5"})) and not detach.done(record)


def test_an_identity_listed_twice_fails_naming_both_indices_and_a_name_not_resolved_yet_does_not():
    part = subnets()
    with pytest.raises(ValidationError, match=r"interfaces\[0\] and interfaces\[2\]: each item must have its own subnet_id; a is given twice"):
        part.canonical([{"subnet_id": "a"}, {"subnet_id": "b"}, {"subnet_id": "a"}])
    assert part.canonical([{"subnet_id": None}, {"subnet_id": None}]) == [{"subnet_id": None}, {"subnet_id": None}]
