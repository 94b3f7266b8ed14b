"""Outgoing e-mail: every message lands in the outbox table, in the caller's transaction; SMTP delivers it when
configured (a job of the app's queue, "mail.send", retried with backoff while the server fails), otherwise the
log does at once (so a development install can read its one-time codes). Production without SMTP logs that mail is
not configured, never the text: one-time codes and reset links stay out of its logs.

A message with attachments is sent at once by its caller, which is itself a job (a scheduled report's mail):
the outbox keeps the text of a message, not its files."""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Sequence
from email.message import EmailMessage

from sqlmodel import Session

from app import jobs
from app.kernel.config import get_settings
from app.kernel.db import session_scope
from app.kernel.model_base import utcnow
from app.messaging.models import EmailOutbox

_log = logging.getLogger("dsp.mail")
SEND_ATTEMPTS = 4
SEND_BACKOFF_S = (10.0, 60.0, 300.0)  # an SMTP server restarting, or greylisting, is waited out

MAIL_NOT_CONFIGURED = "mail is not configured (set DSP_SMTP_HOST)"
Attachment = tuple[str, bytes, str]  # (file name, content, MIME type such as "text/csv")


def send_mail(session: Session, *, to: str, subject: str, body: str,
              attachments: Sequence[Attachment] = ()) -> EmailOutbox:
    """Queue (or log) one message in `session`'s transaction: it is sent iff that transaction commits.
    Attachments travel by SMTP at once; the outbox row and the log name them."""
    settings = get_settings()
    if attachments:
        body += "\n\nAttached: " + ", ".join(name for name, _data, _type in attachments)
    item = EmailOutbox(to_address=to, subject=subject, body=body, transport="smtp" if settings.smtp_host else "log")
    session.add(item)
    if not settings.smtp_host and settings.environment == "production":
        # Its subject and text may hold a one-time code or a reset link ("Your code: 123456"): in a production log
        # that is a way into the account. The outbox row keeps them, as it does for SMTP.
        item.error = MAIL_NOT_CONFIGURED
        _log.error("mail to %s NOT sent: %s; its subject and text (which may hold a code or link) were NOT logged",
                   to, MAIL_NOT_CONFIGURED)
        return item
    if not settings.smtp_host:
        item.sent_at = utcnow()
        _log.warning("mail to %s: %s\n%s", to, subject, body)
        return item
    if attachments:
        try:
            _deliver(item, attachments)
            item.sent_at = utcnow()
        except (OSError, smtplib.SMTPException) as error:
            item.error = str(error)[:500]
            _log.error("mail to %s failed: %s", to, error)
        return item
    session.flush()
    assert item.id is not None
    jobs.defer(session, "mail.send", outbox_id=item.id)
    return item


def _deliver(item: EmailOutbox, attachments: Sequence[Attachment] = ()) -> None:
    settings = get_settings()
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = item.to_address
    message["Subject"] = item.subject
    message.set_content(item.body)
    for name, data, mime_type in attachments:
        main, _, sub = mime_type.partition("/")
        message.add_attachment(data, maintype=main, subtype=sub or "octet-stream", filename=name)
    with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=10) as smtp:
        if settings.smtp_starttls:
            smtp.starttls()
        if settings.smtp_user:
            smtp.login(settings.smtp_user, settings.smtp_password)
        smtp.send_message(message)


@jobs.task("mail.send", attempts=SEND_ATTEMPTS, backoff=SEND_BACKOFF_S)
def send_job(outbox_id: int) -> None:
    """Send one outbox message by SMTP. Each failure is written on the row (the operator sees why); the queue
    tries again until SEND_ATTEMPTS. A message already sent is not sent again."""
    with session_scope() as db:
        item = db.get(EmailOutbox, outbox_id)
        if item is None or item.sent_at is not None:
            return
    try:
        _deliver(item)
    except (OSError, smtplib.SMTPException) as error:
        _log.error("mail to %s failed: %s", item.to_address, error)
        with session_scope() as db:
            failed = db.get(EmailOutbox, outbox_id)
            if failed is not None:
                failed.error = str(error)[:500]
                db.add(failed)
        raise jobs.Retry(str(error)) from error
    with session_scope() as db:
        sent = db.get(EmailOutbox, outbox_id)
        if sent is not None:
            sent.sent_at, sent.error = utcnow(), ""
            db.add(sent)
