# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What Red Hat's certification checklist and Ansible's collection requirements ask of the files: the license file,
the README's sections and links, the Galaxy metadata. The changelog's part is test_changelog.py; the license headers
and the inventory plugin's ``secret`` are unit tests (tests/unit/test_metadata.py, test_docs_metadata.py)."""

from __future__ import annotations

import hashlib
import json
import re
import tarfile

import yaml

from gcore_packaging import ROOT, galaxy, module_names, tarball  # noqa: F401  pylint: disable=unused-import

# The GNU GPL version 3 as the FSF publishes it (https://www.gnu.org/licenses/gpl-3.0.txt), byte for byte; LICENSE is
# a copy of Debian's /usr/share/common-licenses/GPL-3 (package base-files), the same text.
GPL_3_SHA256 = "3972dc9744f6499f0f9b2dbf76696f2ae7ad8af9b23dde66d6af86c9dfb36986"
SECTIONS = ("Description", "Requirements", "Installation", "Use Cases", "Testing", "Contributing", "Support",
            "Release Notes", "License")
# What the description names for each module (an _info module goes with its resource). The last four are the
# resources planned next (Kubernetes clusters, bare metal servers, file shares, snapshot schedules): when one lands,
# galaxy.yml's description names it.
FAMILIES = {
    "network": "networks", "subnet": "subnets", "router": "routers", "security_group": "security groups",
    "floating_ip": "floating IPs", "reserved_fixed_ip": "reserved fixed IPs", "ssh_key": "SSH keys", "volume": "volumes",
    "volume_snapshot": "volume snapshots", "image": "images", "instance": "instances", "instances": "fleets",
    "placement_group": "placement groups", "load_balancer": "load balancers", "secret": "secrets",
    "quota_check": "quota checks", "price_preview": "price previews", "notification_threshold": "notification thresholds",
    "firewall_rules": "firewall", "waap_domain": "domain's mode and settings", "waap_policies": "built-in policies",
    "waap_policy_overrides": "policy overrides", "waap_custom_rule": "custom", "waap_custom_rules": "custom",
    "waap_firewall_rules": "firewall", "waap_advanced_rules": "advanced rules", "storage": "storages",
    "storage_bucket": "buckets", "storage_ssh_key": "SFTP SSH keys",
    "k8s_cluster": "Kubernetes", "baremetal_server": "bare metal", "file_share": "file shares",
    "snapshot_schedule": "snapshot schedules",
}


def readme():
    return (ROOT / "README.md").read_text(encoding="utf-8")


def section(text, title):
    """The body of a README section (``## title``) up to the next one."""
    found = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(title), text, re.M | re.S)
    assert found, "README.md has no section ## %s" % title
    return found.group(1)


def test_the_license_file_is_the_gpl_3_that_galaxy_yml_names_and_ships(tarball):
    info = galaxy()
    assert info["license"] == ["GPL-3.0-or-later"]
    assert "license_file" not in info, "ansible-galaxy takes license or license_file, never both"
    text = (ROOT / "LICENSE").read_bytes()
    assert hashlib.sha256(text).hexdigest() == GPL_3_SHA256, "LICENSE is not the GPL-3.0 text as published"
    assert not any(pattern.strip("*/") in ("LICENSE", "") for pattern in info["build_ignore"]), info["build_ignore"]
    with tarfile.open(tarball) as archive:
        assert archive.extractfile("LICENSE").read() == text, "the tarball carries LICENSE as it is"
        manifest = json.loads(archive.extractfile("MANIFEST.json").read())
    assert manifest["collection_info"]["license"] == ["GPL-3.0-or-later"]


def test_the_readme_has_the_sections_of_the_checklist():
    titles = re.findall(r"^## (.+)$", readme(), re.M)
    missing = [title for title in SECTIONS if title not in titles]
    assert not missing, "README.md lacks the sections %s" % missing
    order = [titles.index(title) for title in SECTIONS]
    assert order == sorted(order), "README.md's sections are in the checklist's order: %s" % (SECTIONS,)
    repository = galaxy()["repository"]
    assert "%s/blob/main/CHANGELOG.rst" % repository in section(readme(), "Release Notes")
    assert "%s/blob/main/LICENSE" % repository in section(readme(), "License")
    assert galaxy()["issues"] in section(readme(), "Support")
    assert "make demo" in section(readme(), "Testing") and "make test" in section(readme(), "Testing")
    table = section(readme(), "Description")
    listed = set(re.findall(r"^\| `gcore\.platform\.(\w+)` \|", table, re.M))
    assert listed == set(module_names()), "the module table differs from plugins/modules: %s" % sorted(listed ^ set(module_names()))


def test_the_install_line_pins_the_supported_range():
    """``'ansible-core>=<oldest>,<next after the newest>'``: requires_ansible's floor and the newest core tested."""
    runtime = yaml.safe_load((ROOT / "meta" / "runtime.yml").read_text(encoding="utf-8"))
    oldest = re.fullmatch(r">=(\d+\.\d+)\.0", runtime["requires_ansible"]).group(1)
    newest = max(tuple(map(int, path.stem.rsplit("-", 1)[1].split("."))) for path in ROOT.glob("requirements-core-*.txt"))
    pinned = "'ansible-core>=%s,<%d.%d'" % (oldest, newest[0], newest[1] + 1)
    installs = [line for line in readme().splitlines() if re.search(r"pip install .*ansible-core", line)]
    assert installs and all(pinned in line for line in installs), "every install line pins %s: %s" % (pinned, installs)
    assert pinned in section(readme(), "Installation")


def test_every_readme_link_is_absolute_and_resolves():
    """Galaxy and Automation Hub render the README outside the repository: every link is an absolute URL, and a link
    into the repository names a file or folder that exists, on its main branch."""
    text = readme()
    links = re.findall(r"\[[^\]]*\]\(([^)\s]+)\)", text) + re.findall(r"^\[[^\]]+\]:\s*(\S+)", text, re.M)
    links += re.findall(r"""(?:href|src)=["']([^"']+)""", text)
    assert links
    relative = [link for link in links if not link.startswith("https://")]
    assert not relative, "relative or non-https links in README.md: %s" % relative
    repository = galaxy()["repository"]
    for link in links:
        if link.startswith(repository + "/"):
            path = re.match(r"^%s/(?:blob|tree)/main/([^#?]+)$" % re.escape(repository), link)
            assert path and (ROOT / path.group(1)).exists(), "README.md links to %s, not a path of the repository" % link


def test_galaxy_metadata_names_the_repository_its_documentation_and_issues(tarball):
    info = galaxy()
    repository = info["repository"]
    assert re.fullmatch(r"https://github\.com/[A-Za-z0-9-]+/[A-Za-z0-9._-]+", repository), repository
    assert info["issues"] == repository + "/issues"
    documentation = re.fullmatch(r"%s/(?:blob|tree)/main/(.+)" % re.escape(repository), info["documentation"])
    assert documentation and (ROOT / documentation.group(1)).exists(), info["documentation"]
    assert info["homepage"].startswith("https://")
    with tarfile.open(tarball) as archive:
        manifest = json.loads(archive.extractfile("MANIFEST.json").read())["collection_info"]
    assert all(manifest[key] == info[key] for key in ("repository", "documentation", "issues", "homepage")), manifest


def test_the_description_says_what_the_collection_does_today():
    description = " ".join(galaxy()["description"].split()).lower()
    unknown = [name for name in module_names() if re.sub(r"_info$", "", name) not in FAMILIES]
    assert not unknown, "name these modules in galaxy.yml's description, then add them to FAMILIES: %s" % unknown
    missing = sorted({FAMILIES[re.sub(r"_info$", "", name)] for name in module_names()
                      if FAMILIES[re.sub(r"_info$", "", name)].lower() not in description})
    assert not missing, "galaxy.yml's description does not name %s" % missing
    assert "inventory" in description and "role" in description
