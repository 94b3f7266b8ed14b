"""E-mail through a real SMTP conversation (aiosmtpd on loopback), and the outbox fallback."""

from __future__ import annotations

import dataclasses
import smtplib
import socket

import pytest
from aiosmtpd.controller import Controller
from sqlmodel import select

from app import jobs
from app.accounts import service as accounts
from app.jobs import tasks as jobs_tasks
from app.kernel.config import get_settings
from app.messaging import mail
from app.messaging.models import EmailOutbox
from tests.helpers import settle_jobs


class Inbox:
    def __init__(self) -> None:
        self.messages: list[tuple[str, list[str], str]] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content.decode()))
        return "250 OK"


class BoundController(Controller):
    """aiosmtpd's controller serving on a socket bound here: picking a free port and letting the server bind it
    later leaves a window in which another process can take it."""

    def __init__(self, handler, sock: socket.socket) -> None:
        self.sock = sock
        host, port = sock.getsockname()
        super().__init__(handler, hostname=host, port=port)

    def _create_server(self):  # aiosmtpd 1.4's hook; it would bind hostname:port itself
        return self.loop.create_server(self._factory_invoker, sock=self.sock, ssl=self.ssl_context)


@pytest.fixture
def smtp_server(monkeypatch):
    inbox = Inbox()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    controller = BoundController(inbox, sock)
    controller.start()
    settings = get_settings()
    monkeypatch.setattr(settings, "smtp_host", "127.0.0.1")
    monkeypatch.setattr(settings, "smtp_port", port)
    yield inbox
    controller.stop()


def test_forgot_password_code_travels_by_smtp(db, smtp_server):
    accounts.request_password_reset(db, email="advertiser@demo.example")
    db.commit()  # the mail is a job written with the request's transaction
    settle_jobs()
    assert len(smtp_server.messages) == 1
    sender, recipients, content = smtp_server.messages[0]
    assert recipients == ["advertiser@demo.example"] and "no-reply@dsp.example" in sender
    row = db.exec(select(EmailOutbox).where(EmailOutbox.to_address == "advertiser@demo.example")).one()
    assert row.transport == "smtp" and row.sent_at is not None and row.subject.split()[-1] in content


def test_unreachable_smtp_keeps_the_mail_in_the_outbox(db, monkeypatch):
    settings = get_settings()
    monkeypatch.setattr(settings, "smtp_host", "127.0.0.1")
    monkeypatch.setattr(settings, "smtp_port", 1)  # nothing listens there
    send = jobs_tasks.TASKS["mail.send"]  # tried once here, not for minutes
    monkeypatch.setitem(jobs_tasks.TASKS, send.name, dataclasses.replace(send, retry=jobs_tasks.RetryPolicy(1)))
    accounts.request_password_reset(db, email="advertiser@demo.example")
    db.commit()
    settle_jobs()
    row = db.exec(select(EmailOutbox).where(EmailOutbox.to_address == "advertiser@demo.example")).one()
    assert row.sent_at is None and row.error
    assert jobs.failures() == 1


def test_a_mail_the_server_refused_once_is_sent_by_the_next_attempt(db, monkeypatch, smtp_server, caplog):
    send = jobs_tasks.TASKS["mail.send"]  # retried 50 ms apart, not seconds
    monkeypatch.setitem(jobs_tasks.TASKS, send.name, dataclasses.replace(send, retry=jobs_tasks.RetryPolicy(3, (0.05,))))
    real = mail._deliver
    refusals = [smtplib.SMTPServerDisconnected("Connection unexpectedly closed")]

    def flaky(*args, **kwargs):
        if refusals:
            raise refusals.pop()
        return real(*args, **kwargs)

    monkeypatch.setattr(mail, "_deliver", flaky)
    accounts.request_password_reset(db, email="advertiser@demo.example")
    db.commit()
    settle_jobs()
    row = db.exec(select(EmailOutbox).where(EmailOutbox.to_address == "advertiser@demo.example")).one()
    assert row.sent_at is not None and row.error == "" and len(smtp_server.messages) == 1
    assert "Connection unexpectedly closed" in caplog.text  # the failed attempt is in the operator's log


def test_without_smtp_mail_goes_to_outbox_and_log(db, caplog):
    accounts.request_password_reset(db, email="advertiser@demo.example")
    db.flush()
    row = db.exec(select(EmailOutbox)).one()
    assert row.transport == "log" and row.subject.split()[-1] in caplog.text


def test_production_without_smtp_logs_that_mail_is_not_configured_and_never_the_code(db, caplog, monkeypatch):
    monkeypatch.setattr(get_settings(), "environment", "production")
    accounts.request_password_reset(db, email="advertiser@demo.example")
    db.flush()
    row = db.exec(select(EmailOutbox)).one()
    assert row.sent_at is None and row.error == mail.MAIL_NOT_CONFIGURED
    assert "mail to advertiser@demo.example NOT sent: mail is not configured (set DSP_SMTP_HOST)" in caplog.text
    assert row.subject.split()[-1] not in caplog.text  # the reset code (tests/test_production_defaults.py: a server)


def test_unknown_address_gets_no_mail_and_no_hint(db):
    accounts.request_password_reset(db, email="nobody@demo.example")
    db.flush()
    assert db.exec(select(EmailOutbox)).all() == []
