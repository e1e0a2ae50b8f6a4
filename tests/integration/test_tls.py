# -*- coding: utf-8 -*-
# Copyright: gcore.platform contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""TLS: the simulator over HTTPS with a self-signed certificate. Verification is on by default."""

from __future__ import annotations

import datetime
import json

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from conftest import Simulator


@pytest.fixture(scope="module")
def https_sim(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(__import__("ipaddress").ip_address("127.0.0.1"))]), False)
            .sign(key, hashes.SHA256()))
    (folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                       serialization.NoEncryption()))
    sim = Simulator()
    sim.start(certfile=str(folder / "cert.pem"), keyfile=str(folder / "key.pem"))
    yield sim
    sim.stop()


def adhoc(playbook_runner, tmp_path, url, validate_certs):
    play = tmp_path / "tls.yml"
    play.write_text(json.dumps([{
        "name": "TLS", "hosts": "localhost", "gather_facts": False,
        "tasks": [{"name": "Read over HTTPS", "register": "result", "ignore_errors": True,
                   "gcore.platform.notification_threshold_info": {"client_id": 1, "api_url": url, "validate_certs": validate_certs}},
                  {"name": "Show", "ansible.builtin.debug": {"msg": "RESULT={{ result | to_json }}"}}],
    }]))
    run = playbook_runner(str(play))
    assert run.rc == 0, run
    line = [text for text in run.output.splitlines() if '"msg": "RESULT=' in text][0]
    return json.loads(json.loads("{%s}" % line.strip())["msg"][len("RESULT="):])


def test_self_signed_certificate_is_refused_by_default(playbook, https_sim, tmp_path):
    result = adhoc(playbook, tmp_path, https_sim.url, True)
    assert result["failed"] is True
    assert "TLS certificate verification failed for %s" % https_sim.url in result["msg"]
    assert "validate_certs: false" in result["msg"]
    assert "not a certificate problem" not in result["msg"]
    assert https_sim.log == [], "nothing reaches the handler over an unverified connection"


def test_validate_certs_false_accepts_it(playbook, https_sim, tmp_path):
    result = adhoc(playbook, tmp_path, https_sim.url, False)
    assert "failed" not in result or result["failed"] is False, result
    assert result["notification_threshold"]["threshold"] == 85


@pytest.mark.parametrize("validate_certs", [True, False])
def test_https_to_a_plain_http_port_is_not_called_a_certificate_problem(playbook, sim, tmp_path, validate_certs):
    # before issue 11 every TLS error said "certificate verification failed ... set validate_certs: false", even this one
    # and even with validate_certs already false
    url = sim.url.replace("http://", "https://")
    result = adhoc(playbook, tmp_path, url, validate_certs)
    assert result["failed"] is True
    assert "TLS connection to %s failed" % url in result["msg"], result["msg"]
    assert "not a certificate problem" in result["msg"] and "https:// to a port that serves plain HTTP" in result["msg"]
    assert "validate_certs" not in result["msg"] and "verification" not in result["msg"]
    assert sim.log == []
