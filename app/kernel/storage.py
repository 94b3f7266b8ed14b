"""Where the console's files live (creative uploads, brand logos, CSV exports, report results): one interface,
two backends, chosen by one setting.

- DSP_FILES_URL empty (the default): the data directory, at the same paths as always (uploads/creatives/…,
  uploads/branding/…, exports/…, reports/…); `file:///path` puts them under another folder (a shared mount).
- DSP_FILES_URL=s3://bucket/prefix: any S3-compatible bucket (AWS, MinIO, Ceph, R2, …), with
  DSP_FILES_S3_ENDPOINT_URL, _REGION, _ACCESS_KEY_ID, _SECRET_ACCESS_KEY (empty keys: boto3's own chain, e.g.
  AWS_* variables or an instance role). Every server process of a fleet then sees the same files.

A file is named by a key: a relative POSIX path such as "exports/abc.csv". Writes are atomic in both backends:
a reader sees the whole file or none of it (local: written aside in the same folder, then renamed; S3: an
object appears only when its upload completes). Every call blocks (disk or network): call it from a worker
thread (sync routes, `app/kernel/db.run_off_loop`, `asyncio.to_thread`), never on the event loop.

boto3 over obstore/fsspec: it is the client every S3-compatible service documents and tests against, moto
(the tests' fake S3) is built on it, and its transfer manager already does multipart uploads of big files.
"""

from __future__ import annotations

import abc
import contextlib
import functools
import io
import os
import shutil
import stat
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from app.kernel.config import Settings, get_settings

if TYPE_CHECKING:
    from mypy_boto3_s3 import S3Client

UPLOADS = "uploads"  # the folder of uploaded files (creatives, logos): the data directory's uploads/ as ever
REPORTS = "reports"  # report runs' results
EXPORTS = "exports"  # CSV exports waiting to be downloaded (they expire)
FOLDERS = (UPLOADS, REPORTS, EXPORTS)  # every folder the console keeps files in (a backup holds each)
CHUNK_BYTES = 256 * 1024  # what a download streams at a time


@dataclass(frozen=True)
class StoredFile:
    key: str
    size: int
    modified: datetime  # UTC
    etag: str  # changes whenever the content does (HTTP caching)


class Storage(abc.ABC):
    """What every backend does. Keys are made by the server (never from a user's file name)."""

    @abc.abstractmethod
    def put(self, key: str, data: bytes) -> None:
        """Write `data` as `key`, replacing what was there, atomically."""

    @abc.abstractmethod
    def writing(self, key: str) -> contextlib.AbstractContextManager[IO[bytes]]:
        """A binary file to write `key` into; it appears, whole, when the block ends without an error (an error
        leaves no trace). For files too big to build in memory (CSV results)."""

    @abc.abstractmethod
    def open(self, key: str, first: int = 0, last: int | None = None) -> contextlib.AbstractContextManager[IO[bytes]]:
        """The file (from byte `first` to byte `last` included, for a range request) for streaming reads;
        FileNotFoundError when it does not exist."""

    @abc.abstractmethod
    def stat(self, key: str) -> StoredFile | None:
        """Size, time and etag of a file, or None when there is none."""

    @abc.abstractmethod
    def delete(self, key: str) -> None:
        """Remove a file; a missing one is no error."""

    @abc.abstractmethod
    def copy(self, source: str, target: str) -> None:
        """`source`'s content as `target` too, without passing it through this process where the backend can;
        FileNotFoundError when there is no `source`."""

    @abc.abstractmethod
    def list(self, prefix: str) -> list[StoredFile]:
        """Every file whose key starts with the folder `prefix` ("exports/"), deeper ones included."""

    @abc.abstractmethod
    def local_path(self, key: str) -> Path | None:
        """The file on this machine's disk, when the backend keeps it there (the /files routes then let the
        server send it directly, with range requests); None for a bucket."""

    def read(self, key: str) -> bytes:
        """The whole file; FileNotFoundError when it does not exist."""
        with self.open(key) as source:
            return source.read()

    def exists(self, key: str) -> bool:
        return self.stat(key) is not None

    def size(self, key: str) -> int:
        """The file's size in bytes; FileNotFoundError when it does not exist."""
        found = self.stat(key)
        if found is None:
            raise FileNotFoundError(key)
        return found.size


def check_key(key: str) -> str:
    """A key as a relative path without "..": the keys are made by the server, but this keeps any slip from
    reaching outside the files' root."""
    if "\\" in key or any(part in ("", ".", "..") for part in key.split("/")):
        raise ValueError(f"not a file key: {key!r}")
    return key


# --- the local directory ------------------------------------------------------------------------------------

class LocalStorage(Storage):
    """Files under `root` (the data directory by default), at their keys' paths."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, key: str) -> Path:
        return self.root / check_key(key)

    def put(self, key: str, data: bytes) -> None:
        with self.writing(key) as out:
            out.write(data)

    @contextlib.contextmanager
    def writing(self, key: str) -> Iterator[IO[bytes]]:
        target = self._path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        # Written aside in the same folder (a dot name: listings skip it) and renamed into place, so a reader
        # never sees half a file; a full disk fails the write part-way, and the half-written file is removed.
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
        try:
            with os.fdopen(handle, "wb") as out:
                yield out
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    @contextlib.contextmanager
    def open(self, key: str, first: int = 0, last: int | None = None) -> Iterator[IO[bytes]]:
        with self._path(key).open("rb") as source:
            source.seek(first)
            if last is None:
                yield source
            else:
                yield io.BytesIO(source.read(last + 1 - first))  # ranges are asked of buckets; kept simple here

    def read(self, key: str) -> bytes:
        return self._path(key).read_bytes()

    def stat(self, key: str) -> StoredFile | None:
        try:
            found = self._path(key).stat()
        except (FileNotFoundError, NotADirectoryError):
            return None
        if not stat.S_ISREG(found.st_mode):
            return None
        return StoredFile(key, found.st_size, datetime.fromtimestamp(found.st_mtime, UTC),
                          f"{found.st_mtime_ns:x}-{found.st_size:x}")

    def delete(self, key: str) -> None:
        self._path(key).unlink(missing_ok=True)

    def copy(self, source: str, target: str) -> None:
        to = self._path(target)
        to.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(self._path(source), to)  # same disk: no copy; deleting either name leaves the other intact
        except FileNotFoundError:
            raise
        except OSError:
            with self.writing(target) as out, self.open(source) as data:
                shutil.copyfileobj(data, out, CHUNK_BYTES)
            return
        # A copy is made now, as in a bucket: the exports' expiry sweep reads this time, and a link would keep the
        # source's (a report generated an hour ago, downloaded now, was swept at the next export).
        os.utime(to)

    def list(self, prefix: str) -> list[StoredFile]:
        folder = self._path(prefix.rstrip("/"))
        if not folder.is_dir():
            return []
        found = []
        for path in folder.rglob("*"):
            if path.name.startswith("."):
                continue  # a write under way
            stored = self.stat(path.relative_to(self.root).as_posix())
            if stored is not None:
                found.append(stored)
        return found

    def local_path(self, key: str) -> Path | None:
        return self._path(key)


# --- an S3-compatible bucket --------------------------------------------------------------------------------

class S3Storage(Storage):
    """Files as objects of `bucket`, under `prefix` ("" or ending in "/")."""

    def __init__(self, client: S3Client, bucket: str, prefix: str) -> None:
        self.client, self.bucket, self.prefix = client, bucket, prefix

    def _name(self, key: str) -> str:
        return self.prefix + check_key(key)

    def put(self, key: str, data: bytes) -> None:
        self.client.put_object(Bucket=self.bucket, Key=self._name(key), Body=data)

    @contextlib.contextmanager
    def writing(self, key: str) -> Iterator[IO[bytes]]:
        name = self._name(key)
        # Spooled to a temporary file, then uploaded from its path: the transfer manager reads a named file part by
        # part as it sends (a file object's parts would be read into memory, up to 10 at once: 61 MB of a 50 MB
        # file, against 9 MB from a path: bench/files_store.py). Big files go up in parts; the object appears only
        # once all have arrived.
        with tempfile.NamedTemporaryFile(prefix="dsp-upload-", suffix=".part") as spool:
            yield spool
            spool.flush()
            self.client.upload_file(spool.name, self.bucket, name)

    @contextlib.contextmanager
    def open(self, key: str, first: int = 0, last: int | None = None) -> Iterator[IO[bytes]]:
        name = self._name(key)
        try:
            if first or last is not None:
                asked = f"bytes={first}-{'' if last is None else last}"
                answer = self.client.get_object(Bucket=self.bucket, Key=name, Range=asked)
            else:  # no Range at all: S3 refuses even "bytes=0-" on an empty object
                answer = self.client.get_object(Bucket=self.bucket, Key=name)
        except self.client.exceptions.NoSuchKey:
            raise FileNotFoundError(key) from None
        body = answer["Body"]
        try:
            yield body  # type: ignore[misc]  # botocore's StreamingBody is a readable binary stream
        finally:
            body.close()

    def stat(self, key: str) -> StoredFile | None:
        from botocore.exceptions import ClientError

        try:
            head = self.client.head_object(Bucket=self.bucket, Key=self._name(key))
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return None
            raise
        return StoredFile(key, head["ContentLength"], head["LastModified"].astimezone(UTC), head["ETag"].strip('"'))

    def delete(self, key: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=self._name(key))  # S3 answers a missing key with 204 too

    def copy(self, source: str, target: str) -> None:
        if self.stat(source) is None:
            raise FileNotFoundError(source)
        # Done by the bucket (in parts for big objects): the bytes never pass through this process.
        self.client.copy({"Bucket": self.bucket, "Key": self._name(source)}, self.bucket, self._name(target))

    def list(self, prefix: str) -> list[StoredFile]:
        found = []
        folder = self._name(prefix.rstrip("/")) + "/"
        for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=folder):
            for item in page.get("Contents", []):
                key = item["Key"][len(self.prefix):]
                found.append(StoredFile(key, item["Size"], item["LastModified"].astimezone(UTC),
                                        item["ETag"].strip('"')))
        return found

    def local_path(self, key: str) -> Path | None:
        return None


# --- the one in use -----------------------------------------------------------------------------------------

_lock = threading.Lock()
_opened: dict[tuple[str, ...], Storage] = {}


def _config(settings: Settings) -> tuple[str, ...]:
    return (settings.files_url, str(settings.data_dir), settings.files_s3_endpoint_url, settings.files_s3_region,
            settings.files_s3_access_key_id, settings.files_s3_secret_access_key, settings.files_s3_addressing_style)


def _open(settings: Settings) -> Storage:
    url = urlsplit(settings.files_url)
    if not settings.files_url:
        return LocalStorage(settings.data_dir)
    if url.scheme == "file":
        return LocalStorage(Path(url.path))
    prefix = url.path.strip("/")
    return S3Storage(_client(settings), url.netloc, f"{prefix}/" if prefix else "")


@functools.cache
def _s3_client(endpoint_url: str, region: str, key_id: str, secret: str,
               addressing_style: Literal["path", "virtual"]) -> S3Client:
    """One client per service and credentials (a boto3 client is thread-safe, and takes ~0.3 s to make)."""
    import boto3
    from botocore.config import Config

    return boto3.session.Session().client(
        "s3", endpoint_url=endpoint_url or None, region_name=region or None,
        aws_access_key_id=key_id or None, aws_secret_access_key=secret or None,
        # Checksums only where S3 requires them: several S3-compatible services refuse the CRC headers that
        # boto3 sends by default since 1.36.
        config=Config(s3={"addressing_style": addressing_style}, request_checksum_calculation="when_required",
                      response_checksum_validation="when_required", retries={"mode": "standard"}))


def _client(settings: Settings) -> S3Client:
    # auto: services other than AWS (MinIO, Ceph) mostly answer only path-style requests (http://host/bucket/key).
    style: Literal["path", "virtual"] = (
        settings.files_s3_addressing_style if settings.files_s3_addressing_style != "auto"
        else "path" if settings.files_s3_endpoint_url else "virtual")
    return _s3_client(settings.files_s3_endpoint_url, settings.files_s3_region, settings.files_s3_access_key_id,
                      settings.files_s3_secret_access_key, style)


def get_storage() -> Storage:
    """The files' backend for the current settings (one per configuration; tests change the settings)."""
    settings = get_settings()
    config = _config(settings)
    with _lock:
        if config not in _opened:
            _opened[config] = _open(settings)
        return _opened[config]
