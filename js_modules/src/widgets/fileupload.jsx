// <FileUpload url label accept fields name busyLabel onUploaded onError />: a button that sends the chosen
// file to `url` as multipart (field "file", plus `fields`) with the page's own session cookie, and hands
// Python the reply's `data` as JSON text (onUploaded(json)) or its message (onError(message)). Files travel
// over HTTP, never through the websocket, which carries only what the server says about them. The button shows
// how much of the file has been sent (XMLHttpRequest reports upload progress; fetch does not), then that the
// server is reading it.
import { useRef, useState } from 'react';
import { useLatest } from '../lib/hooks.js';

export { bind } from '../lib/bind.js';

// POST with the session cookie, reporting the percent of the body sent; resolves with the answer.
function post(url, body, onSent) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.withCredentials = true;
    request.setRequestHeader('Accept', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onSent(Math.min(100, Math.round((event.loaded * 100) / event.total)));
    };
    request.upload.onload = () => onSent(100);
    request.onload = () => resolve({ ok: request.status >= 200 && request.status < 300, status: request.status,
      statusText: request.statusText, text: request.responseText });
    request.onerror = () => reject(new Error('The upload failed: check the connection and try again.'));
    request.send(body);
  });
}

export function FileUpload({ url, label = 'Upload', busyLabel = 'Uploading…', accept = '', fields = {}, name = 'file', onUploaded, onError }) {
  const inputRef = useRef(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(null); // percent of the file sent, while sending
  const onUploadedRef = useLatest(onUploaded);
  const onErrorRef = useLatest(onError);
  const send = async (event) => {
    const file = event.target.files && event.target.files[0];
    event.target.value = '';
    if (!file) return;
    const body = new FormData();
    body.append('file', file, file.name);
    Object.entries(fields || {}).forEach(([key, value]) => {
      if (value != null && value !== '') body.append(key, String(value));
    });
    setBusy(true);
    setSent(0);
    try {
      const reply = await post(url, body, setSent);
      let payload = null;
      try { payload = JSON.parse(reply.text); } catch { payload = null; }
      if (reply.ok && payload && payload.success) onUploadedRef.current?.(JSON.stringify(payload.data));
      else onErrorRef.current?.(String((payload && payload.message) || `${reply.status} ${reply.statusText}`));
    } catch (error) {
      onErrorRef.current?.(String(error && error.message ? error.message : error));
    } finally {
      setBusy(false);
      setSent(null);
    }
  };
  const sending = busy && sent !== null && sent < 100;
  return (
    <>
      <button type="button" className="btn btn-sm btn-outline-secondary" disabled={busy} data-upload={name} onClick={() => inputRef.current?.click()}>
        {busy ? <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" /> : <i className="bi bi-upload me-1" aria-hidden="true" />}
        {busy ? (sending ? `${busyLabel} ${sent}%` : busyLabel) : label}
      </button>
      {sending && (
        <div className="progress mt-1" style={{ height: '4px' }} role="progressbar" aria-label={busyLabel}
          aria-valuenow={sent} aria-valuemin="0" aria-valuemax="100" data-upload-progress={name}>
          <div className="progress-bar" style={{ width: `${sent}%` }} />
        </div>
      )}
      <input ref={inputRef} type="file" accept={accept} className="d-none" data-file-input={name} onChange={send} />
    </>
  );
}
