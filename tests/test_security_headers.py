"""The security headers of app/csp.py on what the server sends, and a page shell with no inline script (the
browser side is tests/e2e/test_content_security_policy.py)."""

from __future__ import annotations

import re

from starlette.testclient import TestClient

from app import csp
from app.main import create_app


def test_pages_carry_the_policy_and_the_shell_has_no_inline_script(demo_ids) -> None:
    with TestClient(create_app(), base_url="http://testserver") as client:
        shell = client.get("/login")
        assert shell.headers["content-security-policy"] == csp.PAGE_POLICY
        assert shell.headers["permissions-policy"] == csp.PERMISSIONS_POLICY
        assert shell.headers["cross-origin-opener-policy"] == "same-origin"
        assert "strict-transport-security" not in shell.headers  # plain http: not promised
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", shell.text, flags=re.S)
        assert scripts and all('src="/static/' in attributes and not body for attributes, body in scripts), scripts
        assert client.get("/docs").headers["content-security-policy"] == csp.DOCS_POLICY
        frame = client.get(csp.CREATIVE_FRAME_PATH)
        assert frame.headers["content-security-policy"] == csp.CREATIVE_FRAME_POLICY
        assert "<script src=" in frame.text
        assert client.get("/api/health").headers["content-security-policy"] == csp.PAGE_POLICY


def test_strict_transport_security_only_over_https(demo_ids) -> None:
    with TestClient(create_app(), base_url="https://testserver") as client:
        assert client.get("/login").headers["strict-transport-security"] == csp.STRICT_TRANSPORT_SECURITY


def test_the_brand_stylesheet_takes_only_hex_colours(demo_ids) -> None:
    with TestClient(create_app(), base_url="http://testserver") as client:
        sheet = client.get("/theme.css", params={"primary": "FF0000", "navbar": "red;}body{display:none"})
        assert sheet.headers["content-type"].startswith("text/css")
        assert "--dsp-primary:#ff0000;" in sheet.text
        assert "--dsp-navbar:#111827;" in sheet.text and "display" not in sheet.text
