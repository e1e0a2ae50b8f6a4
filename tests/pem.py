# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Test certificates made when the tests run (no file that expires): ``payload()`` is a secret's valid PEM options.

Every certificate made here holds ``MARK`` in its PEM text (in an extension of its own, placed so that the base64 of
the block shows the mark), so a test can look for it in any output. The default private key is always the same one
(derived from a fixed number): ``KEY_LINE``, a line of its PEM text, is what to look for in an output.
"""

from __future__ import annotations

import base64
import datetime

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

MARK = "SIMTLSPAYLOADMARK"
KEY = ec.derive_private_key(0x5EC7E7A11CE5EC7E7A11CE5EC7E7A11CE, ec.SECP256R1())
MARKED = x509.ObjectIdentifier("1.3.6.1.4.1.55555.1")


def key_pem(key=KEY, password=None):
    encryption = serialization.BestAvailableEncryption(password) if password else serialization.NoEncryption()
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption).decode("ascii")


KEY_LINE = key_pem().splitlines()[2]


def new_key():
    return ec.generate_private_key(ec.SECP256R1())


def issue(common_name, key=KEY, issuer=None, days=(-1, 90)):
    """(certificate, its key): signed by ``issuer`` (a (certificate, key) pair) or by itself; valid from now+days[0] to
    now+days[1] (days)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    signer_name, signer_key = (issuer[0].subject, issuer[1]) if issuer else (name, key)
    for padding in range(3):  # the mark's bytes land on a base64 boundary for one of three paddings
        mark = b"\0" * padding + base64.b64decode(MARK * 8)
        cert = (x509.CertificateBuilder().subject_name(name).issuer_name(signer_name).public_key(key.public_key())
                .serial_number(0x5EC7E7).not_valid_before(now + datetime.timedelta(days=days[0]))
                .not_valid_after(now + datetime.timedelta(days=days[1]))
                .add_extension(x509.BasicConstraints(ca=issuer is None, path_length=None), critical=True)
                .add_extension(x509.UnrecognizedExtension(MARKED, mark), critical=False)
                .sign(signer_key, hashes.SHA256()))
        if MARK in pem(cert):
            return cert, key
    raise AssertionError("the mark could not be placed")  # pragma: no cover


def pem(cert):
    return cert.public_bytes(serialization.Encoding.PEM).decode("ascii")


def payload(common_name="www.example.com"):
    """A secret's PEM options: a self-signed certificate, its own chain, its key."""
    cert = issue(common_name)[0]
    return {"certificate": pem(cert), "certificate_chain": pem(cert), "private_key": key_pem()}


def chain(depth=2):
    """[leaf, intermediate..., root] (certificate, key) pairs, each signed by the next."""
    pairs = [issue("root CA", new_key())]
    for level in range(depth - 1):
        pairs.insert(0, issue("intermediate %d" % level, new_key(), issuer=pairs[0]))
    pairs.insert(0, issue("www.example.com", issuer=pairs[0]))
    return pairs
