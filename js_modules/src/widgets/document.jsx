// <DocumentEffects title favicon fullscreen onFullscreenChange download dashboardView
// scrollTopKey navigateTo onEscape />: document-level effects that only the browser can perform, driven by props
// from Python. Renders nothing.
import { useEffect, useRef } from 'react';
import { useChangeEffect, useLatest } from '../lib/hooks.js';

export { bind } from '../lib/bind.js';

// Download ids already started in this page: a widget remount must not start one twice.
const startedDownloads = new Set();

// Only http(s) URLs: a javascript: URL in a clicked link would run script.
function isSafeUrl(url) {
  try {
    return ['http:', 'https:'].includes(new URL(url, window.location.href).protocol);
  } catch {
    return false;
  }
}

function startDownload({ url, filename }) {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename || '';
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

function setFavicon(href) {
  let link = document.querySelector('link[rel~="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  if (link.getAttribute('href') !== href) link.href = href;
}

export function DocumentEffects({
  title,
  favicon,
  fullscreen,
  onFullscreenChange,
  download = null,
  dashboardView,
  scrollTopKey,
  navigateTo = null,
  onEscape = null,
}) {
  const onFullscreenChangeRef = useLatest(onFullscreenChange);

  // Escape anywhere in the page (a dialog open): wherever the focus is, even on the button behind the dialog that
  // opened it, or nowhere after a click on the dialog's text.
  const onEscapeRef = useLatest(onEscape);
  const listensForEscape = Boolean(onEscape);
  useEffect(() => {
    if (!listensForEscape) return undefined;
    const listener = (event) => {
      if (event.key === 'Escape' && !event.defaultPrevented) onEscapeRef.current?.();
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [listensForEscape, onEscapeRef]);

  useEffect(() => {
    if (title) document.title = title;
  }, [title]);

  useEffect(() => {
    if (favicon) setFavicon(favicon);
  }, [favicon]);

  // Report the browser's real state (Esc, F11 exits, a refused request) back to Python.
  useEffect(() => {
    const report = () => onFullscreenChangeRef.current?.(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', report);
    return () => document.removeEventListener('fullscreenchange', report);
  }, [onFullscreenChangeRef]);

  // Acts on a change of the prop (or a `true` at mount) only, so that a second instance
  // that leaves `fullscreen` unset, or mounts with false, never exits the user's fullscreen.
  const fullscreenMounted = useRef(false);
  useEffect(() => {
    const first = !fullscreenMounted.current;
    fullscreenMounted.current = true;
    if (typeof fullscreen !== 'boolean' || (first && !fullscreen)) return;
    const isFullscreen = Boolean(document.fullscreenElement);
    if (fullscreen && !isFullscreen) {
      // Needs a recent user gesture; when the browser refuses, tell Python we are not fullscreen.
      Promise.resolve(document.documentElement.requestFullscreen?.()).catch(() =>
        onFullscreenChangeRef.current?.(false),
      );
    } else if (!fullscreen && isFullscreen) {
      Promise.resolve(document.exitFullscreen?.()).catch(() => {});
    }
  }, [fullscreen, onFullscreenChangeRef]);

  const downloadId = download && download.id != null ? String(download.id) : null;
  const downloadRef = useLatest(download);
  useEffect(() => {
    if (downloadId === null || startedDownloads.has(downloadId)) return;
    const { url, filename } = downloadRef.current;
    if (typeof url !== 'string' || !isSafeUrl(url)) return;
    startedDownloads.add(downloadId);
    startDownload({ url, filename });
  }, [downloadId, downloadRef]);

  useChangeEffect((view) => {
    window.dispatchEvent(new CustomEvent('viewChanged', { detail: { view } }));
  }, dashboardView);

  useChangeEffect(() => {
    window.scrollTo(0, 0);
  }, scrollTopKey);

  // A full page load of a same-origin path, after the server changed the session (e.g. acting
  // as another user): every component must start again from the new session.
  const navigationId = navigateTo && navigateTo.id != null ? String(navigateTo.id) : null;
  const navigateRef = useLatest(navigateTo);
  useEffect(() => {
    if (navigationId === null) return;
    const { url } = navigateRef.current;
    if (typeof url === 'string' && url.startsWith('/') && !url.startsWith('//')) window.location.assign(url);
  }, [navigationId, navigateRef]);

  return null;
}
