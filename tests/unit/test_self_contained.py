# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The repository stands alone: no file names a path outside it, and every API fact a comment cites
(``docs/api_reference.md section N``) exists in docs/api_reference.md; no file cites documents kept outside it
(the interface contract, the requirements, the API notes, the style guide): a reader of the repository cannot open
them, so a rule is cited from docs/api_reference.md, the README or docs pages, or simply described."""

from __future__ import annotations

import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "api_reference.md"
THIS = pathlib.Path(__file__).resolve()

# A path outside the repository: the shared folder beside a checkout, or an absolute path of one machine.
OUTSIDE = re.compile(r"\.\./shared\b|/work/shared\b|/work/wt-|/work/main\b|\bROOT\.parent\b|"
                     r"""parents\[\d+\]\s*/\s*["']shared["']""")
# A citation of a document kept outside the repository: its file name, or its name followed by a section.
CITED_OUTSIDE = re.compile(r"(?i:\b(?:CONTRACT|REQUIREMENTS|STYLE|API_NOTES)\.md\b)|\bAPI_NOTES\b|"
                           r"\b(?:CONTRACT|REQUIREMENTS|STYLE)\s*(?:sections?\s*\d|§|\"[A-Z])")
NUMBER = r"\d+(?:\.\d+)*(?:\s+rows?\s+\d+)?"
CITATION = re.compile(r"docs/api_reference\.md\s+(?:sections?\s+|§\s*)?"
                      r"(%s(?:(?:\s*,\s*|\s+and\s+)%s)*)" % (NUMBER, NUMBER))
SKIPPED_DIRS = {".git", ".build", "tests/output", "bench/output"}


def repository_files(root=ROOT):
    """The tracked files (git), else every file of the tree outside build outputs and virtual environments."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=str(root),
                                capture_output=True, check=True, timeout=60).stdout.decode("utf-8").split("\0")
        paths = [root / name for name in listed if name]
    except (OSError, subprocess.SubprocessError):
        paths = [path for path in root.rglob("*")
                 if not any(part.startswith(".venv") for part in path.relative_to(root).parts)
                 and not any(str(path.relative_to(root)).startswith(skipped) for skipped in SKIPPED_DIRS)]
    for path in paths:
        if path.is_file() and not path.is_symlink() and path.resolve() != THIS:
            try:
                yield path, path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue


def reference_sections():
    """Section numbers of docs/api_reference.md (its headings), and the row numbers of section 11's table."""
    text = REFERENCE.read_text(encoding="utf-8")
    sections = set(re.findall(r"^#+\s+(\d+(?:\.\d+)*)\.?\s", text, re.MULTILINE))
    part = text.split("\n## 11.", 1)[1].split("\n## ", 1)[0]
    rows = set(re.findall(r"^\|\s*(\d+)\s*\|", part, re.MULTILINE))
    return sections, rows


def citations(text):
    """Every (section, row or None) a text cites."""
    for match in CITATION.finditer(text):
        for item in re.split(r"\s*,\s*|\s+and\s+", match.group(1)):
            number, _separator, row = re.sub(r"\s+rows?\s+", " row ", item).partition(" row ")
            yield number, row or None


def test_the_reference_numbers_its_sections_like_the_citations_expect():
    sections, rows = reference_sections()
    assert {"0.3", "1", "2", "2.1", "2.9", "3", "4", "5", "6", "7", "8", "9", "9.2", "9.4", "10", "11", "12.1", "12.2",
            "12.3", "13", "14", "15"} | {"15.%d" % number for number in range(13)} <= sections
    assert {"1", "8", "30"} <= rows


def test_no_file_names_a_path_outside_the_repository():
    offenders = ["%s: %s" % (path.relative_to(ROOT), match.group(0))
                 for path, text in repository_files() for match in OUTSIDE.finditer(text)]
    assert not offenders, "files that refer outside the repository:\n" + "\n".join(offenders)


def test_every_cited_section_exists_in_the_api_reference():
    sections, rows = reference_sections()
    missing = []
    for path, text in repository_files():
        for number, row in citations(text):
            if number not in sections or (row and (number != "11" or row not in rows)):
                missing.append("%s: section %s%s" % (path.relative_to(ROOT), number, " row %s" % row if row else ""))
    assert not missing, "citations of sections docs/api_reference.md does not have:\n" + "\n".join(missing)


@pytest.mark.parametrize("text, expected", [
    ("see docs/api_reference.md section 11 row 8.", [("11", "8")]),
    ("(docs/api_reference.md sections 3, 4 and 6)", [("3", None), ("4", None), ("6", None)]),
    ("docs/api_reference.md section 12.1: one condition", [("12.1", None)]),
    ("A router (docs/api_reference.md 2.1): the gateway", [("2.1", None)]),
])
def test_citations_are_read_in_every_form_the_code_uses(text, expected):
    assert list(citations(text)) == expected


def outside_citations(root=ROOT):
    """Every ``file:line: citation`` of a document kept outside the repository, in the files under ``root``."""
    return ["%s:%s: %s" % (path.relative_to(root), text.count("\n", 0, match.start()) + 1, match.group(0))
            for path, text in repository_files(root) for match in CITED_OUTSIDE.finditer(text)]


def test_no_file_cites_documents_outside_the_repository():
    offenders = outside_citations()
    assert not offenders, ("files citing documents kept outside the repository (cite docs/api_reference.md by section, "
                           "the README or a docs page instead, or describe the rule):\n" + "\n".join(offenders))


@pytest.mark.parametrize("text", [
    "(CONTRACT.md §2 Lists)", "(CONTRACT section 1)", "# CONTRACT sections 3 and 5", "CONTRACT §3", 'REQUIREMENTS.md "Limits"',
    '# REQUIREMENTS "Limits"', "see API_NOTES §15.3", "API_NOTES.md", "per STYLE.md", "STYLE section 2", "see contract.md",
])
def test_a_citation_outside_the_repository_is_recognised(text):
    assert CITED_OUTSIDE.search(text)


@pytest.mark.parametrize("text", [
    'CONTRACT = pathlib.Path(__file__).parent / "contract"', "tests/contract/README.md", "the contract test",
    "docs/api_reference.md section 11 row 8", "requirements-dev.txt", "STYLE_GUIDE = 1", "# CONTRACT: keys are sorted",
])
def test_other_text_is_not_taken_for_a_citation_outside_the_repository(text):
    assert not CITED_OUTSIDE.search(text)


def test_a_planted_citation_fails_the_guard(tmp_path):
    """The guard's own scan, over a tree (not a git checkout: every file is read) with one citation planted in it."""
    (tmp_path / "plugins" / "modules").mkdir(parents=True)
    (tmp_path / "plugins" / "modules" / "clean.py").write_text("# docs/api_reference.md section 2.1\n", encoding="utf-8")
    assert outside_citations(tmp_path) == []
    planted = tmp_path / "plugins" / "modules" / "planted.py"
    planted.write_text("x = 1\n# validated as CONTRACT.md section 2 asks\n", encoding="utf-8")
    assert outside_citations(tmp_path) == ["plugins/modules/planted.py:2: CONTRACT.md"]
    planted.write_text('"""Limits (REQUIREMENTS "Limits")."""\n', encoding="utf-8")
    assert outside_citations(tmp_path) == ['plugins/modules/planted.py:1: REQUIREMENTS "L']


def test_a_citation_of_a_missing_section_is_caught():
    sections, _rows = reference_sections()
    assert "99.9" not in sections
    assert list(citations("docs/api_reference.md section 99.9")) == [("99.9", None)]
