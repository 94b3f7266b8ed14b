"""Every API reply is in the spec's envelope {success, code, message, data}: unexpected server errors and
Starlette's own refusals included, never plain text."""

from __future__ import annotations

from starlette.testclient import TestClient

from app.main import create_app
from app.settings import company


def test_an_unexpected_error_is_a_500_in_the_envelope_without_a_traceback(demo_ids, monkeypatch, caplog):
    def broken(*_args, **_kwargs):
        raise RuntimeError("secret internals: password=hunter2")

    monkeypatch.setattr(company, "branding_for_host", broken)
    with TestClient(create_app(), base_url="http://testserver", raise_server_exceptions=False) as client:
        reply = client.get("/api/auth/agency-config")
    assert reply.status_code == 500
    assert reply.headers["content-type"].startswith("application/json")
    body = reply.json()
    assert body["success"] is False and body["code"] == 500
    assert body["data"] == {"request_id": reply.headers["x-request-id"]}  # for the user to quote
    assert "Something went wrong" in body["message"]
    assert "hunter2" not in reply.text and "Traceback" not in reply.text
    assert "secret internals" in caplog.text, "the operator's log must keep what went wrong"
    logged = [r for r in caplog.records if r.name == "app.web.envelope" and r.exc_info]
    assert logged and logged[0].exc_info[0] is RuntimeError, "and where: the traceback"
    assert "in broken" in caplog.text  # the frame that raised


def test_unknown_paths_and_wrong_methods_answer_in_the_envelope(client):
    missing = client.get("/api/no-such-call")
    assert missing.status_code == 404
    assert missing.json() == {"success": False, "code": 404, "message": "No such API call: /no-such-call", "data": None}
    # A wrong method is not "no such call" (issue 21): 405, and Allow lists every method the path takes.
    wrong = client.delete("/api/auth/agency-config")
    assert wrong.status_code == 405
    assert wrong.json()["success"] is False and wrong.json()["code"] == 405
    assert "GET" in wrong.headers["allow"].split(", ")


def test_a_405_allows_every_method_of_the_path_not_only_the_first_route(client):
    # GET and POST /api/campaigns are two routes: Starlette's own header named only the first one.
    reply = client.put("/api/campaigns")
    assert reply.status_code == 405
    assert {"GET", "POST"} <= set(reply.headers["allow"].split(", "))
    assert "PUT" not in reply.headers["allow"]


def test_a_body_that_is_not_json_is_a_400_not_a_field_error(client):
    for body, content_type in ((b'{"email": "a@b.c", ', "application/json"), (b"email=a", "text/plain")):
        reply = client.post("/api/auth/login/", content=body, headers={"content-type": content_type})
        assert reply.status_code == 400, reply.text
        assert reply.json() == {"success": False, "code": 400, "message": "The request body is not valid JSON.",
                                "data": None}


def test_json_of_the_wrong_shape_stays_a_422_naming_the_real_fields(client):
    reply = client.post("/api/auth/login/", json={"email": "a@example.com"})
    assert reply.status_code == 422
    assert list(reply.json()["data"]["fields"]) == ["password"]
    assert client.post("/api/auth/login/", json=[1, 2]).json()["data"]["fields"].keys() == {"body"}


def test_an_api_path_with_a_control_character_answers_in_the_envelope(client):
    # Found by Schemathesis: Starlette's /api mount does not match a path holding a newline, which fell through
    # to the pages' plain-text 404.
    reply = client.get("/api/getChangeLogAppList/1%0A2")
    assert reply.status_code == 404
    body = reply.json()
    assert (body["success"], body["code"], body["data"]) == (False, 404, None)
    assert body["message"].startswith("No such API call: /getChangeLogAppList/")
    assert client.get("/no-such%0Apage").headers["content-type"].startswith("text/plain")  # pages: as before


def test_every_operation_declares_every_error_the_api_answers_in_the_envelope() -> None:
    # Generated clients know an answer only if the document lists it (Schemathesis found 35 operations answering
    # codes they did not declare). Every error class of app/kernel/errors.py, plus 400 (an unreadable body) and 422.
    from app.kernel import errors
    from app.main import create_api

    spec = create_api().openapi()
    expected = {"400", "422"} | {str(cls.code) for cls in vars(errors).values() if isinstance(cls, type)
                                 and issubclass(cls, errors.ServiceError) and cls is not errors.ServiceError}
    assert {"401", "403", "404", "409", "429"} <= expected
    envelope = {"$ref": "#/components/schemas/ErrorEnvelope"}
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            missing = expected - set(responses)
            assert not missing, f"{method.upper()} {path} does not declare {sorted(missing)}"
            for code in expected:
                assert responses[code]["content"]["application/json"]["schema"] == envelope, (method, path, code)
    assert set(spec["components"]["schemas"]["ErrorEnvelope"]["required"]) >= {"code", "message"}


def test_every_api_operation_has_its_own_operation_id() -> None:
    # Generated clients name their methods by operation id: two operations with one id lose one of them.
    from collections import Counter

    from app.main import create_api

    spec = create_api().openapi()
    counts = Counter(op["operationId"] for path in spec["paths"].values() for op in path.values())
    assert [name for name, count in counts.items() if count > 1] == []


def test_a_fault_answers_without_a_traceback_but_a_bug_of_the_same_class_still_is_a_500(demo_ids, monkeypatch,
                                                                                       caplog):
    """A full disk is the operator's to fix, not a bug: 507 and one warning line. Starlette re-raises whatever
    its catch-all handler answered, after sending the answer (uvicorn then logs "Exception in ASGI application"
    with a traceback; a test client raises it): a fault must be answered before that. An OSError that is no
    disk fault is still a bug: 500 with its traceback."""
    import errno

    from app.kernel.faults import DISK_FULL

    raised: list[OSError] = []

    def failing(*_args, **_kwargs):
        raise raised[-1]

    monkeypatch.setattr(company, "branding_for_host", failing)
    with TestClient(create_app(), base_url="http://testserver") as client:  # raises what the server re-raises
        raised.append(OSError(errno.ENOSPC, "No space left on device"))
        full = client.get("/api/auth/agency-config")
    assert (full.status_code, full.json()["message"]) == (507, DISK_FULL)
    assert not [r for r in caplog.records if r.exc_info], "a fault was logged with a traceback"
    with TestClient(create_app(), base_url="http://testserver", raise_server_exceptions=False) as client:
        raised.append(OSError(errno.EINVAL, "Invalid argument"))
        bug = client.get("/api/auth/agency-config")
    assert bug.status_code == 500 and bug.json()["code"] == 500
    assert [r for r in caplog.records if r.name == "app.web.envelope" and r.exc_info], "the bug's traceback"
