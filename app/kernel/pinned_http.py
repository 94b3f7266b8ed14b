"""Outgoing HTTP to a host that a user typed: resolve it once, check every address, connect to the checked one.

Resolving for the check and letting httpx resolve again for the request leaves a window (DNS rebinding: a
public answer for the check, 127.0.0.1 for the request). So the request goes to the address the check saw: the
URL's host is replaced by that address, the Host header keeps the name, and TLS keeps it too (httpcore's
`sni_hostname` extension: the certificate is checked against the name, not the address).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Any

import httpx


class Refused(Exception):  # noqa: N818 - a reason shown to the URL's owner
    """The URL's host does not resolve, or (when private addresses are refused) resolves to one."""


@dataclass(frozen=True)
class Target:
    url: httpx.URL  # the URL with the host replaced by `address`
    host_header: str
    sni_hostname: str
    address: str


def resolve(url: str, *, allow_private: bool) -> Target:
    """Resolve `url`'s host once. Unless `allow_private`, refuse it when ANY address it resolves to is not
    global (localhost, private ranges, link-local cloud metadata at 169.254.169.254) or is multicast."""
    parsed = httpx.URL(url)
    host = parsed.host
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise Refused(f"Refused: {host or 'the URL'} does not resolve.") from None
    addresses = list(dict.fromkeys(str(info[4][0]).split("%", 1)[0] for info in infos))
    if not addresses:
        raise Refused(f"Refused: {host or 'the URL'} does not resolve.")
    if not allow_private:
        for address in addresses:
            ip = ipaddress.ip_address(address)
            if not ip.is_global or ip.is_multicast:
                raise Refused(f"Refused: {host} is a private or local address ({ip}).")
    return Target(url=parsed.copy_with(host=addresses[0]), host_header=parsed.netloc.decode("ascii"),
                  sni_hostname=host, address=addresses[0])


def request(client: httpx.Client, method: str, target: Target, **kwargs: Any) -> httpx.Response:
    """Send one request to the resolved address, as if to the name."""
    headers = {**kwargs.pop("headers", {}), "Host": target.host_header}
    return client.request(method, target.url, headers=headers, extensions={"sni_hostname": target.sni_hostname},
                          **kwargs)
