"""Outgoing e-mail: every message lands in the outbox table; SMTP delivers it when configured,
otherwise the log does (so a development install can read its one-time codes)."""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Sequence
from email.message import EmailMessage

from sqlmodel import Session

from app.kernel.config import get_settings
from app.kernel.model_base import utcnow
from app.messaging.models import EmailOutbox

_log = logging.getLogger("dsp.mail")


Attachment = tuple[str, bytes, str]  # (file name, content, MIME type such as "text/csv")


def send_mail(session: Session, *, to: str, subject: str, body: str,
              attachments: Sequence[Attachment] = ()) -> EmailOutbox:
    """Send (or log) one message. Attachments travel by SMTP; the outbox row and the log name them (the table
    keeps the text of a message, not its files)."""
    settings = get_settings()
    if attachments:
        body += "\n\nAttached: " + ", ".join(name for name, _data, _type in attachments)
    item = EmailOutbox(to_address=to, subject=subject, body=body)
    if settings.smtp_host:
        item.transport = "smtp"
        message = EmailMessage()
        message["From"] = settings.mail_from
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        for name, data, mime_type in attachments:
            main, _, sub = mime_type.partition("/")
            message.add_attachment(data, maintype=main, subtype=sub or "octet-stream", filename=name)
        try:
            with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=10) as smtp:
                if settings.smtp_starttls:
                    smtp.starttls()
                if settings.smtp_user:
                    smtp.login(settings.smtp_user, settings.smtp_password)
                smtp.send_message(message)
            item.sent_at = utcnow()
        except (OSError, smtplib.SMTPException) as error:
            item.error = str(error)[:500]
            _log.error("mail to %s failed: %s", to, error)
    else:
        item.transport = "log"
        item.sent_at = utcnow()
        _log.warning("mail to %s: %s\n%s", to, subject, body)
    session.add(item)
    return item
