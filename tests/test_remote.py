"""Issue 22: inputs in an object store, against a real S3 API on localhost
(moto's server, started here on a free port): the command and the library
give the records of the local copies, globs and prefixes are listed by the
store, a userinfo never shows, a missing object is a defect."""

from __future__ import annotations

import io
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from urisift import Defect, Record
from urisift.cli.command import main
from urisift.model import DefectKind
from urisift.pipeline.plan import plan
from urisift.pipeline.remote import shown
from urisift.pipeline.scan import ScanOptions, scan_serial
from urisift.pipeline.walking import walk

from .conftest import shared_path

pytest.importorskip("s3fs")
moto_server = pytest.importorskip("moto.server")

BUCKET = "crawls"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def s3() -> Iterator[dict[str, str]]:
    """A moto S3 server on 127.0.0.1 with a bucket of the shared WARC samples,
    the linux-mips mbox and a handful of pages; the objects' keys -> local paths."""
    import boto3
    import fsspec

    port = _free_port()
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=port)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1",
           "FSSPEC_S3_ENDPOINT_URL": endpoint}
    saved = {k: __import__("os").environ.get(k) for k in env}
    __import__("os").environ.update(env)
    fsspec.config.conf.setdefault("s3", {})["endpoint_url"] = endpoint
    client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
    client.create_bucket(Bucket=BUCKET)
    objects: dict[str, str] = {}
    warcs = shared_path("corpora", "warc-samples", "warcio-test-data")
    for path in sorted(warcs.glob("example*.warc*")):
        objects[f"warc/{path.name}"] = str(path)
    for path in sorted(shared_path("corpora", "html-readability-pages").glob("*/source.html"))[:5]:
        objects[f"pages/{path.parent.name}.html"] = str(path)
    objects["mail/linux-mips.mboxrd.xz"] = str(shared_path("corpora", "linux-mips-1996-2007",
                                                            "linux-mips-1996-2007.mboxrd.xz"))
    for key, path in objects.items():
        client.upload_file(path, BUCKET, key)
    try:
        yield objects
    finally:
        fsspec.config.conf["s3"].pop("endpoint_url", None)
        for k, v in saved.items():
            if v is None:
                __import__("os").environ.pop(k, None)
            else:
                __import__("os").environ[k] = v
        server.stop()


def _records(argv: list[str]) -> tuple[list[dict[str, object]], str]:
    out, err = io.StringIO(), io.StringIO()
    assert main(["--format", "jsonl", "--jobs", "1", *argv], stdout=out, stderr=err) in (0, 1)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    for row in rows:
        row.pop("file", None)
    return rows, err.getvalue()


def test_a_glob_of_warcs_gives_the_records_of_the_local_copies(s3: dict[str, str]) -> None:
    keys = sorted(k for k in s3 if k.startswith("warc/"))
    remote, _ = _records([f"s3://{BUCKET}/warc/*.warc*"])
    local, _ = _records([s3[k] for k in keys])
    assert remote == local
    assert sum(1 for r in remote if "uri" in r) > 40


def test_pages_under_a_prefix_and_a_listing_file(s3: dict[str, str], tmp_path: Path) -> None:
    # an object's URL names where its bytes are kept, as a file's path does, not where the page was
    # published: no retrieval URI (issue 53), and the records are those of the local files read as they are
    keys = sorted(k for k in s3 if k.startswith("pages/"))
    mirror = tmp_path / "mirror"
    for key in keys:
        (mirror / key).parent.mkdir(parents=True, exist_ok=True)
        (mirror / key).write_bytes(Path(s3[key]).read_bytes())
    local, _ = _records([str(mirror)])
    assert not any(r.get("base_source") == "retrieval" or str(r.get("target")).startswith("s3:") for r in local)
    remote, _ = _records([f"s3://{BUCKET}/pages/"])
    assert remote == local and sum(1 for r in remote if r.get("target") is None) == 36
    # with --base, an object under a prefix or a glob is a file under a directory: base joined with its key there
    site, _ = _records(["--base", "https://site.example/", str(mirror / "pages")])
    assert {r["base"] for r in site if r.get("base_source") == "retrieval"} == {
        "https://site.example/001.html", "https://site.example/002.html"}
    assert _records(["--base", "https://site.example/", f"s3://{BUCKET}/pages"])[0] == site
    assert _records(["--base", "https://site.example/", f"s3://{BUCKET}/pages/*.html"])[0] == site
    listing = tmp_path / "paths.txt"
    listing.write_text("".join(f"s3://{BUCKET}/{k}\n" for k in keys))
    assert _records(["--from-list", str(listing)])[0] == local


@pytest.mark.skipif(__import__("os").environ.get("URISIFT_SKIP_SLOW") == "1", reason="URISIFT_SKIP_SLOW=1")
def test_the_mbox_reads_the_same_from_the_store(s3: dict[str, str]) -> None:
    remote, _ = _records([f"s3://{BUCKET}/mail/linux-mips.mboxrd.xz"])
    local, _ = _records([s3["mail/linux-mips.mboxrd.xz"]])  # (the object's URL is no base: issue 53)
    assert len(remote) > 10_000 and remote == local


def test_an_object_removed_after_listing_is_a_defect_and_the_rest_goes_on(s3: dict[str, str]) -> None:
    import boto3

    client = boto3.client("s3", endpoint_url=__import__("os").environ["FSSPEC_S3_ENDPOINT_URL"])
    client.put_object(Bucket=BUCKET, Key="gone/a.txt", Body=b"see http://a.example/\n")
    client.put_object(Bucket=BUCKET, Key="gone/b.txt", Body=b"see http://b.example/\n")
    sources = list(walk([f"s3://{BUCKET}/gone/"]))
    client.delete_object(Bucket=BUCKET, Key="gone/a.txt")
    items = [i for i in scan_serial(plan(sources, ScanOptions()), ScanOptions()) if isinstance(i, (Record, Defect))]
    assert [(type(i).__name__, getattr(i, "kind", None), i.origin.file) for i in items] == [
        ("Defect", DefectKind.UNREADABLE, f"s3://{BUCKET}/gone/a.txt"),
        ("Record", None, f"s3://{BUCKET}/gone/b.txt")]


def test_userinfo_is_never_shown_and_a_missing_backend_is_one_line() -> None:
    assert shown("s3://AKIA:secret@bucket/key") == "s3://bucket/key"
    assert shown("https://user:pass@host.example/x") == "https://host.example/x"
    out, err = io.StringIO(), io.StringIO()
    code = main(["gs://bucket/x.warc"], stdout=out, stderr=err)
    import importlib.util

    if importlib.util.find_spec("gcsfs") is None:
        assert (code, err.getvalue()) == (2, "urisift: reading gs:// inputs needs fsspec and gcsfs: "
                                             "pip install 'urisift[gcs]'\n")


class _Flaky:
    """A backend file whose reads fail ``failures`` times (then read ``data``)."""

    def __init__(self, data: bytes, failures: list[int]) -> None:
        self.data, self.failures, self.position = data, failures, 0

    def seek(self, offset: int, whence: int = 0) -> int:
        self.position = offset
        return offset

    def read(self, n: int) -> bytes:
        if self.failures[0] > 0:
            self.failures[0] -= 1
            raise ConnectionResetError(104, "Connection reset by peer")
        chunk = self.data[self.position:self.position + n]
        self.position += len(chunk)
        return chunk

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("failures", "outcome"), [(2, "read"), (10, "unreadable")])
def test_a_read_that_fails_is_retried_then_is_a_defect(monkeypatch: pytest.MonkeyPatch, failures: int,
                                                       outcome: str) -> None:
    import urisift.pipeline.remote as remote

    left = [failures]

    class FS:
        def size(self, path: str) -> int:
            return 35

        def open(self, path: str, mode: str) -> _Flaky:
            return _Flaky(b"see http://flaky.example/ and more\n", left)

    monkeypatch.setattr(remote, "_filesystem", lambda path: (FS(), path))
    monkeypatch.setattr(remote, "BACKOFF", 0.001)
    items = list(scan_serial(plan([remote_input("s3://bucket/flaky.txt")], ScanOptions()), ScanOptions()))
    found = [(type(i).__name__, getattr(i, "uri", None) or getattr(i, "detail", None)) for i in items
             if isinstance(i, (Record, Defect))]
    if outcome == "read":
        assert found == [("Record", "http://flaky.example/")]
    else:
        # (the defect names the input: its detail says why, issue 37)
        assert found == [("Defect", "Connection reset by peer (after 4 attempts)")]


def remote_input(url: str) -> object:
    from urisift.pipeline.sources import Input

    return Input(url)
