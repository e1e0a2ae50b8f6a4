# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)

"""Certificate checks made before a TLS certificate is uploaded (the ``secret`` module).

This module is internal to the collection: its interface may change at any time.

``check_certificate`` takes the PEM texts (their armour already checked) and raises ``ValidationError`` naming the
option and the problem, never the value: an encrypted private key (by its armour, with or without ``cryptography``);
with the ``cryptography`` library (a dependency of ansible-core): a block that does not decode as what its armour
says, a key that does not match the certificate, a certificate whose validity ended, a chain out of order (each
certificate signed by the next). Without the library it returns the checks it skipped, for a warning.
"""

from __future__ import annotations

import datetime
import re

from ansible_collections.gcore.platform.plugins.module_utils._checks import ValidationError

try:
    from cryptography import x509
    from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.backends import default_backend
    from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
    HAS_CRYPTOGRAPHY = True
except ImportError:  # pragma: no cover - exercised by a unit test that hides the library
    HAS_CRYPTOGRAPHY = False

BLOCK = re.compile(r"-----BEGIN ([A-Z0-9 ]+)-----.*?-----END \1-----", re.S)
ENCRYPTED = ("private_key: is encrypted (a passphrase protects it): the service needs the key without a passphrase (openssl "
             "pkey -in key.pem -out plain.pem)")
SKIPPED = ("the key matching the certificate, the validity dates, the chain's order and each block decoding were not "
           "checked: the cryptography library is not installed on the host the module runs on")


def labels(text):
    """The labels of the PEM blocks of ``text`` (``CERTIFICATE``, ``EC PRIVATE KEY`` ...), in order."""
    return [found.group(1) for found in BLOCK.finditer(text or "")]


def check_certificate(certificate, chain, private_key):
    """Raise ValidationError for the first problem found; return the checks skipped (None when all were made)."""
    if private_key is not None and ("ENCRYPTED" in labels(private_key)[0] or re.search(r"Proc-Type:\s*4,\s*ENCRYPTED", private_key)):
        raise ValidationError(ENCRYPTED)
    if not HAS_CRYPTOGRAPHY:
        return SKIPPED if (certificate, chain, private_key) != (None, None, None) else None
    leaf = certificates("certificate", certificate)
    chained = certificates("certificate_chain", chain)
    key = private_key and load_key(private_key)
    now = datetime.datetime.now(datetime.timezone.utc)
    for where, cert in leaf + chained:
        ended = not_after(cert)
        if ended < now:
            raise ValidationError("%s: validity ended on %s (%s)" % (where, ended.strftime("%Y-%m-%dT%H:%M:%SZ"), subject(cert)))
    if key is not None and leaf and public(key.public_key()) != public(leaf[0][1].public_key()):
        raise ValidationError("private_key: does not match the certificate (its public key is not the one of %s)" % subject(leaf[0][1]))
    ordered, seen = [], set()
    for where, cert in leaf + chained:  # a certificate given again (the chain holds the certificate) counts once
        der = cert.public_bytes(serialization.Encoding.DER)
        if der not in seen:
            seen.add(der)
            ordered.append((where, cert))
    for (where, cert), (next_where, issuer) in zip(ordered, ordered[1:]):
        if not signed_by(cert, issuer):
            raise ValidationError("certificate_chain: not in order: %s (%s) is not signed by the next one, %s (%s); give each "
                                  "certificate before the one that signed it" % (where, subject(cert), next_where, subject(issuer)))
    return None


def certificates(option, text):
    """[(where, certificate)] of each block of ``text``; ValidationError naming a block that is not X.509."""
    found = []
    blocks = [match.group(0) for match in BLOCK.finditer(text or "")]
    for index, block in enumerate(blocks):
        where = option if len(blocks) == 1 else "%s block %d" % (option, index + 1)
        try:
            found.append((where, x509.load_pem_x509_certificate(block.encode("ascii"), default_backend())))  # (before 3.1: required)
        except (ValueError, TypeError, UnsupportedAlgorithm, UnicodeError):
            raise ValidationError("%s: is not a certificate (the block does not decode as X.509; the value is not shown)" % where) from None
    return found


def load_key(text):
    try:
        return serialization.load_pem_private_key(text.encode("ascii"), None, default_backend())
    except TypeError:
        raise ValidationError(ENCRYPTED) from None
    except (ValueError, UnsupportedAlgorithm, UnicodeError):
        raise ValidationError("private_key: is not a private key (the block does not decode as one; the value is not shown)") from None


def public(key):
    return key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def not_after(cert):
    moment = getattr(cert, "not_valid_after_utc", None)  # cryptography 42+; before: a naive UTC datetime
    return moment if moment is not None else cert.not_valid_after.replace(tzinfo=datetime.timezone.utc)


def subject(cert):
    return cert.subject.rfc4514_string() or "no subject"


def signed_by(cert, issuer):
    """Whether ``issuer`` signed ``cert``; True when the library cannot tell (a key type it does not verify)."""
    if cert.issuer != issuer.subject:
        return False
    try:
        if hasattr(cert, "verify_directly_issued_by"):  # cryptography 40+
            cert.verify_directly_issued_by(issuer)
            return True
        key = issuer.public_key()
        if isinstance(key, rsa.RSAPublicKey):
            key.verify(cert.signature, cert.tbs_certificate_bytes, padding.PKCS1v15(), cert.signature_hash_algorithm)
        elif isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(cert.signature, cert.tbs_certificate_bytes, ec.ECDSA(cert.signature_hash_algorithm))
        else:
            key.verify(cert.signature, cert.tbs_certificate_bytes)
    except (InvalidSignature, ValueError):
        return False
    except (TypeError, UnsupportedAlgorithm):
        return True
    return True
