# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The tags options are worded once, in plugins/doc_fragments/gcore.py (``TAGS``): every module that takes
``tags``/``purge_tags`` as ``_tags.TAGS_OPTIONS`` declares them documents them through that fragment alone, and the
fragment agrees with the argument spec it documents."""

from __future__ import annotations

import importlib
import pathlib

import pytest
import yaml
from declared import module_class

from ansible_collections.gcore.platform.plugins.doc_fragments.gcore import ModuleDocFragment
from ansible_collections.gcore.platform.plugins.module_utils._tags import TAGS_OPTIONS

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODULES = sorted(path.stem for path in (ROOT / "plugins" / "modules").glob("*.py"))


def _module(name):
    module = importlib.import_module("ansible_collections.gcore.platform.plugins.modules.%s" % name)
    return yaml.safe_load(module.DOCUMENTATION), module_class(module).argument_spec


def test_the_tags_fragment_documents_the_tags_options():
    documented = yaml.safe_load(ModuleDocFragment.TAGS)["options"]
    assert list(documented) == list(TAGS_OPTIONS)
    for option, spec in TAGS_OPTIONS.items():
        assert documented[option]["type"] == spec["type"], option
        assert documented[option].get("default") == spec.get("default"), option


@pytest.mark.parametrize("name", MODULES)
def test_a_module_with_tags_takes_their_words_from_the_fragment(name):
    doc, spec = _module(name)
    fragments = doc.get("extends_documentation_fragment", [])
    takes_tags = all(spec.get(option) == entry for option, entry in TAGS_OPTIONS.items())
    assert ("gcore.platform.gcore.TAGS" in fragments) == takes_tags
    if takes_tags:
        assert not set(TAGS_OPTIONS) & set(doc.get("options", {})), "tags and purge_tags are worded once, in the fragment"


def test_the_named_interfaces_are_the_interfaces_with_parents_by_name():
    """``interfaces.NAMED`` is a literal (ansible-test's yamllint reads a fragment only as a string): it stays
    ``DOCUMENTATION``'s entry but for network and subnet by name and the wider port_id and ip_address."""
    from ansible_collections.gcore.platform.plugins.doc_fragments.interfaces import ModuleDocFragment as Interfaces
    plain = yaml.safe_load(Interfaces.DOCUMENTATION)["options"]["interfaces"]
    named = yaml.safe_load(Interfaces.NAMED)["options"]["interfaces"]
    wider = {"network", "subnet", "port_id", "ip_address"}
    assert set(named["suboptions"]) - set(plain["suboptions"]) == {"network", "subnet"}
    for option, entry in plain["suboptions"].items():
        if option not in wider:
            assert named["suboptions"][option] == entry, option
    assert {key: value for key, value in named.items() if key != "suboptions"} == \
        {key: value for key, value in plain.items() if key != "suboptions"}


def test_the_checked_interfaces_are_the_named_ones_with_a_trunk_group():
    """``interfaces.CHECKED`` (quota_check's: a baremetal_server task's interfaces as they are) is ``NAMED`` with
    ``port_group`` added, word for word otherwise."""
    from ansible_collections.gcore.platform.plugins.doc_fragments.interfaces import ModuleDocFragment as Interfaces
    named = yaml.safe_load(Interfaces.NAMED)["options"]["interfaces"]
    checked = yaml.safe_load(Interfaces.CHECKED)["options"]["interfaces"]
    assert set(checked["suboptions"]) - set(named["suboptions"]) == {"port_group"}
    assert dict((key, value) for key, value in checked["suboptions"].items() if key != "port_group") == named["suboptions"]
    assert dict(checked, suboptions=None) == dict(named, suboptions=None)


# ---- docs say what, fragments say how (issue 44) ----------------------------------------------------------------------

CHANGES = "gcore.platform.attributes"  # the attributes of a module that changes something
PROVISIONING = "gcore.platform.provisioning"
# Sentences of the mechanics every provisioning module shares: the provisioning fragment's notes say them, once.
SHARED = ("Only the options you give are managed", "After an ambiguous failure", "the module waits for the lock to")


def _description(name):
    description = _module(name)[0]["description"]
    return description if isinstance(description, list) else [description]


@pytest.mark.parametrize("name", MODULES)
def test_a_description_says_what_the_module_manages_in_three_bullets_at_most(name):
    description = _description(name)
    assert 1 <= len(description) <= 3, "%s: %d bullets; what is not what it manages goes to its notes" % (name, len(description))
    said = [sentence for sentence in SHARED for item in description if sentence in item]
    assert not said, "%s: the provisioning fragment's notes say %s" % (name, said)


@pytest.mark.parametrize("name", MODULES)
def test_a_module_that_changes_something_takes_the_shared_mechanics_from_the_provisioning_fragment(name):
    fragments = _module(name)[0].get("extends_documentation_fragment", [])
    assert (CHANGES in fragments) == (PROVISIONING in fragments), name


def test_the_guard_counts_bullets_as_ansible_doc_shows_them(monkeypatch):
    """A description of four bullets fails the guard (the guard can fail)."""
    module = importlib.import_module("ansible_collections.gcore.platform.plugins.modules.network")
    doc = yaml.safe_load(module.DOCUMENTATION)
    monkeypatch.setattr(module, "DOCUMENTATION", yaml.safe_dump(dict(doc, description=doc["description"] + ["a", "b"])))
    with pytest.raises(AssertionError, match="network: 5 bullets"):
        test_a_description_says_what_the_module_manages_in_three_bullets_at_most("network")
