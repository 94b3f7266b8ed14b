// <FileText label accept maxBytes onText onError />: a button that opens the file chooser and hands the
// chosen file's text to Python (onText(text, fileName)), read in the browser. ReactPy's events carry no
// file contents, and a small text file (a CSV of geo-fence points) needs no upload round trip.
// Too big a file calls onError("too_big", fileName) instead; an unreadable one onError("unreadable", ...).
import { useRef } from 'react';
import { useLatest } from '../lib/hooks.js';

export { bind } from '../lib/bind.js';

export function FileText({ label = 'Upload', accept = '.csv,text/csv,text/plain', maxBytes = 1048576, name = 'file', onText, onError }) {
  const inputRef = useRef(null);
  const onTextRef = useLatest(onText);
  const onErrorRef = useLatest(onError);
  const read = (event) => {
    const file = event.target.files && event.target.files[0];
    event.target.value = ''; // choosing the same file again reads it again
    if (!file) return;
    if (file.size > Number(maxBytes)) {
      onErrorRef.current?.('too_big', file.name);
      return;
    }
    file.text().then(
      (text) => onTextRef.current?.(text, file.name),
      () => onErrorRef.current?.('unreadable', file.name),
    );
  };
  return (
    <>
      <button type="button" className="btn btn-sm btn-outline-secondary" data-upload={name} onClick={() => inputRef.current?.click()}>
        <i className="bi bi-upload me-1" aria-hidden="true" />
        {label}
      </button>
      <input ref={inputRef} type="file" accept={accept} className="d-none" data-file-input={name} onChange={read} />
    </>
  );
}
