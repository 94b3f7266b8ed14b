// <FileUpload url label accept fields name busyLabel onUploaded onError />: a button that sends the chosen
// file to `url` as multipart (field "file", plus `fields`) with the page's own session cookie, and hands
// Python the reply's `data` as JSON text (onUploaded(json)) or its message (onError(message)). Files travel
// over HTTP, never through the websocket, which carries only what the server says about them.
import { useRef, useState } from 'react';
import { useLatest } from '../lib/hooks.js';

export { bind } from '../lib/bind.js';

export function FileUpload({ url, label = 'Upload', busyLabel = 'Uploading…', accept = '', fields = {}, name = 'file', onUploaded, onError }) {
  const inputRef = useRef(null);
  const [busy, setBusy] = useState(false);
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
    try {
      const reply = await fetch(url, { method: 'POST', body, credentials: 'same-origin', headers: { Accept: 'application/json' } });
      const payload = await reply.json().catch(() => null);
      if (reply.ok && payload && payload.success) onUploadedRef.current?.(JSON.stringify(payload.data));
      else onErrorRef.current?.(String((payload && payload.message) || `${reply.status} ${reply.statusText}`));
    } catch (error) {
      onErrorRef.current?.(String(error && error.message ? error.message : error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="btn btn-sm btn-outline-secondary" disabled={busy} data-upload={name} onClick={() => inputRef.current?.click()}>
        {busy ? <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" /> : <i className="bi bi-upload me-1" aria-hidden="true" />}
        {busy ? busyLabel : label}
      </button>
      <input ref={inputRef} type="file" accept={accept} className="d-none" data-file-input={name} onChange={send} />
    </>
  );
}
