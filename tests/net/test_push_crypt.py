# SPDX-License-Identifier: MIT
"""Web Push (src/net/push) checked by another implementation: Python's
cryptography (Debian's python3-cryptography). The unit test binary
test_push_crypt, with FIG_PUSH_EXPORT naming a file, makes a VAPID key and
the Authorization header for an endpoint, and encrypts a message to a key
pair made here (its test_export); this file verifies the JWT's ES256
signature (r || s turned into DER), its header and claims, the key's two
texts, and decrypts the message by RFC 8291 with its own HKDF and AES-GCM.

The binary is the sanitizer build's, next to FIGARO (tests/run.sh), else
build/test/test_push_crypt."""
import base64
import json
import os
import subprocess
import time

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, hmac, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
ENDPOINT = "https://Push.Example.NET:8443/wpush/v2/gAAAAABh?x=1"
SUB = "mailto:operator@example.org"
PLAIN = "It is your turn at table K7QX (round 2)."


def b64d(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def binary():
    fig = os.environ.get("FIGARO")
    here = os.path.join(os.path.dirname(os.path.join(ROOT, fig)), "test_push_crypt") \
        if fig else ""
    if not (here and os.path.isfile(here) and os.access(here, os.X_OK)):
        here = os.path.join(ROOT, "build", "test", "test_push_crypt")
    assert os.access(here, os.X_OK), "no test_push_crypt: make build/test/test_push_crypt"
    return here


def point(public_key):
    return public_key.public_bytes(serialization.Encoding.X962,
                                   serialization.PublicFormat.UncompressedPoint)


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    """What the C side made: its lines as a dict, and the user agent's keys."""
    ua = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    out = tmp_path_factory.mktemp("push") / "export.txt"
    env = dict(os.environ, FIG_PUSH_EXPORT=str(out), FIG_PUSH_ENDPOINT=ENDPOINT,
               FIG_PUSH_SUB=SUB, FIG_PUSH_PLAIN=PLAIN, FIG_PUSH_P256DH=b64e(point(ua.public_key())),
               FIG_PUSH_AUTH=b64e(auth))
    before = int(time.time())
    run = subprocess.run([binary()], env=env, capture_output=True, text=True, timeout=60)
    after = int(time.time())
    assert run.returncode == 0, run.stdout + run.stderr
    assert "[       OK ] test_export" in run.stdout, run.stdout + run.stderr
    lines = dict(line.split(" ", 1) for line in out.read_text().splitlines())
    return lines, ua, auth, before, after


def test_vapid_jwt_verifies(export):
    lines, _, _, before, after = export
    header = lines["header"]
    assert header.startswith("vapid t=")
    jwt, k = header[len("vapid t="):].split(", k=")
    assert k == lines["public"]
    pub = b64d(k)
    assert len(pub) == 65 and pub[0] == 4
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), pub)
    head, claims, sig = jwt.split(".")
    assert json.loads(b64d(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = b64d(sig)
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, (head + "." + claims).encode(), ec.ECDSA(hashes.SHA256()))
    with pytest.raises(InvalidSignature):
        key.verify(der, (head + "." + claims + "x").encode(), ec.ECDSA(hashes.SHA256()))
    c = json.loads(b64d(claims))
    assert c == {"aud": "https://push.example.net:8443", "exp": c["exp"], "sub": SUB}
    now = int(lines["now"])
    assert before <= now <= after
    assert now < c["exp"] <= now + 24 * 3600


def test_vapid_key_texts(export):
    lines, *_ = export
    priv = b64d(lines["private"])
    assert len(lines["private"]) == 43 and len(priv) == 32
    key = ec.derive_private_key(int.from_bytes(priv, "big"), ec.SECP256R1())
    assert b64e(point(key.public_key())) == lines["public"]


def hkdf_extract(salt, ikm):
    h = hmac.HMAC(salt, hashes.SHA256())
    h.update(ikm)
    return h.finalize()


def hkdf_expand(prk, info, length):
    return HKDFExpand(hashes.SHA256(), length, info).derive(prk)


def test_message_decrypts(export):
    """RFC 8291 §3.3-3.4 and RFC 8188, written again here."""
    lines, ua, auth, _, _ = export
    body = b64d(lines["body"])
    salt, rs, idlen = body[:16], int.from_bytes(body[16:20], "big"), body[20]
    assert rs == 4096 and idlen == 65
    as_pub = body[21:86]
    sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), as_pub)
    secret = ua.exchange(ec.ECDH(), sender)
    ua_pub = point(ua.public_key())
    ikm = hkdf_expand(hkdf_extract(auth, secret), b"WebPush: info\0" + ua_pub + as_pub, 32)
    prk = hkdf_extract(salt, ikm)
    cek = hkdf_expand(prk, b"Content-Encoding: aes128gcm\0", 16)
    nonce = hkdf_expand(prk, b"Content-Encoding: nonce\0", 12)
    record = AESGCM(cek).decrypt(nonce, body[86:], None)
    assert record == PLAIN.encode() + b"\x02"
    assert len(body) == 86 + len(PLAIN) + 1 + 16
