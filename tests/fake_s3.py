"""A real S3 endpoint for tests: moto's server (it speaks the S3 HTTP protocol, as MinIO or AWS do) on a free
port of 127.0.0.1, started once per test session; each test gets a fresh bucket and the settings that point the
app's file store at it (DSP_FILES_URL=s3://…, the endpoint URL and keys)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import pytest
from moto.server import ThreadedMotoServer

from app.kernel.config import get_settings
from app.kernel.storage import Storage, get_storage

REGION = "us-east-1"
KEY_ID, SECRET = "test-key", "test-secret"  # moto takes any keys
_buckets = itertools.count(1)


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@dataclass
class Bucket:
    name: str
    prefix: str
    client: Any  # a boto3 S3 client of the test's own, to look inside the bucket
    storage: Storage

    def object_names(self) -> list[str]:
        listed = self.client.list_objects_v2(Bucket=self.name)
        return sorted(item["Key"] for item in listed.get("Contents", []))


@functools.cache
def bucket_client(endpoint: str) -> Any:
    return boto3.session.Session().client("s3", endpoint_url=endpoint, region_name=REGION,
                                          aws_access_key_id=KEY_ID, aws_secret_access_key=SECRET)


@pytest.fixture
def files_in_bucket(s3_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> Bucket:
    """The app's files in a new bucket of the fake S3, under a prefix (as a shared bucket would hold them)."""
    name, prefix = f"dsp-files-{next(_buckets)}", "console/"
    client = bucket_client(s3_endpoint)
    client.create_bucket(Bucket=name)
    settings = get_settings()
    for field, value in (("files_url", f"s3://{name}/{prefix}"), ("files_s3_endpoint_url", s3_endpoint),
                         ("files_s3_region", REGION), ("files_s3_access_key_id", KEY_ID),
                         ("files_s3_secret_access_key", SECRET)):
        monkeypatch.setattr(settings, field, value)
    return Bucket(name, prefix, client, get_storage())
