# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""issue 45: a certificate is checked before it is uploaded. A key that does not match its certificate,
a certificate whose validity ended, a chain out of order, an encrypted key, a block that is not what its armour says:
each fails naming the option and the problem, shows no PEM text and sends nothing. Without the ``cryptography``
library the upload goes on with a warning naming the checks skipped. The certificates are made when the test runs."""

from __future__ import annotations

import json

import pytest
from cryptography.hazmat.primitives import serialization

from ansible_collections.gcore.platform.plugins.module_utils import _pem
from ansible_collections.gcore.platform.plugins.modules import secret

import harness
import pem

SCOPE = dict(project_id=1, region_id=76, name="www")


def garbage(label):
    return "-----BEGIN %s-----\nMIIB%s\n-----END %s-----\n" % (label, pem.MARK, label)


def cases():
    good = pem.payload()
    leaf, intermediate, root = pem.chain(2)
    expired = pem.issue("old.example.com", days=(-400, -10))[0]
    traditional = pem.KEY.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                        serialization.BestAvailableEncryption(b"passphrase")).decode("ascii")
    public = pem.KEY.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return [
        ("a key of another certificate", dict(good, private_key=pem.key_pem(pem.new_key())),
         "private_key: does not match the certificate (its public key is not the one of CN=www.example.com)"),
        ("a certificate whose validity ended", dict(good, certificate=pem.pem(expired), certificate_chain=pem.pem(expired)),
         "certificate: validity ended on "),
        ("an expired certificate in the chain", dict(good, certificate=pem.pem(leaf[0]), certificate_chain=pem.pem(intermediate[0]) + pem.pem(expired)),
         "certificate_chain block 2: validity ended on "),
        ("a chain in the wrong order", dict(good, certificate=pem.pem(leaf[0]), certificate_chain=pem.pem(root[0]) + pem.pem(intermediate[0])),
         "certificate_chain: not in order: certificate (CN=www.example.com) is not signed by the next one, certificate_chain block 1 (CN=root CA)"),
        ("a chain of another certificate", dict(good, certificate_chain=pem.pem(intermediate[0])),
         "certificate_chain: not in order: certificate (CN=www.example.com) is not signed by the next one, certificate_chain (CN=intermediate 0)"),
        ("an encrypted PKCS 8 key", dict(good, private_key=pem.key_pem(password=b"passphrase")), "private_key: is encrypted"),
        ("an encrypted traditional key", dict(good, private_key=traditional), "private_key: is encrypted"),
        ("a garbage certificate block", dict(good, certificate=garbage("CERTIFICATE")),
         "certificate: is not a certificate (the block does not decode as X.509"),
        ("a garbage block in the chain", dict(good, certificate_chain=good["certificate"] + garbage("CERTIFICATE")),
         "certificate_chain block 2: is not a certificate"),
        ("a garbage key block", dict(good, private_key=garbage("PRIVATE KEY")), "private_key: is not a private key"),
        ("a public key as the certificate", dict(good, certificate=public.decode("ascii")),
         "certificate: is not PEM text: expected one or more '-----BEGIN CERTIFICATE-----' ... '-----END CERTIFICATE-----' "
         "blocks; it holds a PUBLIC KEY block"),
        ("a certificate as the key", dict(good, private_key=good["certificate"]), "private_key: is not PEM text: expected one "
         "'-----BEGIN ... PRIVATE KEY-----' ... '-----END ... PRIVATE KEY-----' block; it holds a CERTIFICATE block"),
    ]


CASES = cases()


@pytest.mark.parametrize("what, payload, text", CASES, ids=[case[0] for case in CASES])
def test_a_bad_certificate_fails_naming_the_problem_and_sends_nothing(what, payload, text):
    result = harness.result_of(secret, dict(SCOPE, **payload, api_key="unit-test-key", api_url="http://127.0.0.1:9"))
    assert result.get("failed") is True, "%s: did not fail: %s" % (what, result)
    assert text in result["msg"], result["msg"]
    shown = json.dumps(result)
    assert pem.MARK not in shown and pem.KEY_LINE not in shown and "changed" not in result


def test_a_chain_in_order_and_the_certificate_as_its_own_chain_are_uploaded(server):
    leaf, intermediate, root = pem.chain(2)
    in_order = dict(certificate=pem.pem(leaf[0]), certificate_chain=pem.pem(intermediate[0]) + pem.pem(root[0]), private_key=pem.key_pem())
    with_the_leaf = dict(in_order, certificate_chain=pem.pem(leaf[0]) + in_order["certificate_chain"])
    for name, payload in (("www", pem.payload()), ("chained", in_order), ("with-leaf", with_the_leaf)):
        result = harness.run(server, secret, dict(SCOPE, name=name, **payload))
        assert result["changed"] is True and not harness.warning_texts(result), result
    assert [write[2]["name"] for write in harness.writes(server)] == ["www", "chained", "with-leaf"]


def test_without_cryptography_the_checks_it_needs_are_skipped_with_a_warning(server, monkeypatch):
    monkeypatch.setattr(_pem, "HAS_CRYPTOGRAPHY", False)
    expired = pem.issue("old.example.com", days=(-400, -10))[0]
    payload = dict(certificate=pem.pem(expired), certificate_chain=pem.pem(expired), private_key=pem.key_pem())
    result = harness.run(server, secret, dict(SCOPE, **payload))
    assert result["changed"] is True
    assert harness.warning_texts(result) == ["certificate: " + _pem.SKIPPED]
    encrypted = harness.run(server, secret, dict(SCOPE, name="other", **dict(payload, private_key=pem.key_pem(password=b"x"))))
    assert encrypted["failed"] is True and "private_key: is encrypted" in encrypted["msg"]  # read from the armour
