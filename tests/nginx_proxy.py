"""The nginx sample, deploy/nginx/dsp-console.conf, run as it is on loopback: only its ports, the release folder and
the certificate are changed (a self-signed one, made here with `cryptography`). tests/test_deploy_kit.py checks it
with `nginx -t`; tests/e2e/test_behind_nginx.py puts it in front of a real server.

The sample is a site file (Debian's /etc/nginx/sites-available/): here a small main configuration around it keeps
nginx's pid, logs and temporary files in the test's folder, so no root-owned path is touched.
"""

from __future__ import annotations

import datetime
import ipaddress
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from app.kernel.config import REPO_ROOT

SAMPLE = REPO_ROOT / "deploy" / "nginx" / "dsp-console.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
MISSING = "nginx is not installed: `make system-test-deps` (run by `make test`) installs Debian's"
# What the sample names that a test on loopback must change: each must appear in it exactly once, so a sample
# edited past what the test knows fails here instead of being tested half-changed.
RELEASE_DIR = "/opt/dsp-console"
UPSTREAM = "server 127.0.0.1:8000;"
HTTP_LISTEN = "listen 80;"
HTTPS_LISTEN = "listen 443 ssl http2;"
CERTIFICATE = "/etc/letsencrypt/live/console.example.com/fullchain.pem"
CERTIFICATE_KEY = "/etc/letsencrypt/live/console.example.com/privkey.pem"

MAIN_CONFIG = """worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {folder}/access.log;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/dsp-console.conf;
}}
"""


def installed() -> bool:
    return Path(NGINX).is_file()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """(certificate, key) files for 127.0.0.1 and localhost, valid for a day."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                    x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


def _replace_once(text: str, old: str, new: str) -> str:
    directives = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert directives.count(old) == 1, f"{SAMPLE.name} should name {old!r} once (tests/nginx_proxy.py changes it)"
    return text.replace(old, new)


@dataclass(frozen=True)
class Proxy:
    folder: Path
    http_port: int
    https_port: int
    certificate: Path

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    @property
    def main_config(self) -> Path:
        return self.folder / "nginx.conf"

    def log(self) -> str:
        return (self.folder / "error.log").read_text(errors="replace") if (self.folder / "error.log").exists() else ""


def configure(folder: Path, *, upstream_port: int) -> Proxy:
    """The sample, changed for loopback, and its main configuration, written into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = self_signed_certificate(folder)
    proxy = Proxy(folder, free_port(), free_port(), cert)
    site = SAMPLE.read_text(encoding="utf-8")
    site = "\n".join(line for line in site.splitlines() if "listen [::]" not in line)  # loopback: IPv4 only
    for old, new in ((RELEASE_DIR, str(REPO_ROOT)), (UPSTREAM, f"server 127.0.0.1:{upstream_port};"),
                     (HTTP_LISTEN, f"listen 127.0.0.1:{proxy.http_port};"),
                     (HTTPS_LISTEN, f"listen 127.0.0.1:{proxy.https_port} ssl http2;"),
                     (CERTIFICATE, str(cert)), (CERTIFICATE_KEY, str(key))):
        site = _replace_once(site, old, new)
    (folder / "dsp-console.conf").write_text(site, encoding="utf-8")
    # Workers as root: they read the release's static/ wherever the checkout is (a real install's www-data reads
    # /opt/dsp-console, which the README makes world-readable). Ignored with a warning when not run as root.
    proxy.main_config.write_text("user root;\n" + MAIN_CONFIG.format(folder=folder), encoding="utf-8")
    return proxy


def check(proxy: Proxy) -> subprocess.CompletedProcess[str]:
    """`nginx -t` on the configuration."""
    return subprocess.run([NGINX, "-t", "-p", str(proxy.folder), "-c", str(proxy.main_config)],
                          capture_output=True, text=True, timeout=60)


class PortTaken(Exception):
    """Another process bound one of the ports between free_port() choosing it and nginx binding it."""


def _start(proxy: Proxy) -> subprocess.Popen[bytes]:
    """nginx in the foreground, once it has bound its ports: it writes its pid file only after that (a connection
    that succeeds is no proof: another process may be the one listening on a port chosen for nginx)."""
    process = subprocess.Popen([NGINX, "-p", str(proxy.folder), "-c", str(proxy.main_config), "-g", "daemon off;"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid_file = proxy.folder / "nginx.pid"
    deadline = time.monotonic() + 30
    while not (pid_file.exists() and pid_file.read_text().strip() == str(process.pid)):
        if process.poll() is not None:
            if "Address already in use" in proxy.log():
                raise PortTaken(proxy.log())
            raise RuntimeError(f"nginx ended (exit {process.returncode}): {proxy.log()}")
        if time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"nginx did not start within 30 s: {proxy.log()}")
        time.sleep(0.05)
    return process


@contextmanager
def running(folder: Path, *, upstream_port: int) -> Iterator[Proxy]:
    """The sample configured in `folder` and served by nginx until the block ends (on other ports if another
    process takes one of the first ones chosen)."""
    for attempt in range(3):
        proxy = configure(folder / f"attempt-{attempt}", upstream_port=upstream_port)
        try:
            process = _start(proxy)
            break
        except PortTaken:
            if attempt == 2:
                raise
    try:
        yield proxy
    finally:
        process.terminate()
        process.wait(timeout=10)
