// <SessionAgent ... />: the browser half of the session rules (spec section 4): cross-tab auth
// marker in localStorage, token refresh, login ticket exchange, logout, language persistence
// and the inactivity prompt. It renders nothing but that prompt. The server stays
// authoritative: the session itself is an HttpOnly cookie this code never sees.
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { LANGUAGES, toBcp47 } from '../lib/locale.js';
import { useLatest } from '../lib/hooks.js';

export { bind } from '../lib/bind.js';

const AUTH_KEY = 'auth';
const LANGUAGE_KEY = 'language';
const LANGUAGE_COOKIE = 'dsp_lang';
const POLL_MS = 1000;
const REFRESH_AT = 0.9; // of the lifetime since issuedAt
const REFRESH_RETRY_MS = 15000; // after a failed (non-401) refresh
const REFRESH_LOCK = 'dsp-session-refresh';
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'scroll', 'wheel', 'touchstart'];

function readMarker() {
  try {
    const marker = JSON.parse(localStorage.getItem(AUTH_KEY));
    return marker && typeof marker.sessionKey === 'string' ? marker : null;
  } catch {
    return null;
  }
}

function writeMarker(sessionKey, expiresAt) {
  localStorage.setItem(AUTH_KEY, JSON.stringify({ sessionKey, expiresAt }));
}

function post(url, body) {
  return fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'dsp-console' },
    body: JSON.stringify(body ?? {}),
  });
}

// Runs `task` while holding a lock shared by all tabs of this origin, so that only one tab
// refreshes and the others adopt its result from the marker.
function withCrossTabLock(task) {
  if (navigator.locks?.request) return navigator.locks.request(REFRESH_LOCK, task);
  return task();
}

export function SessionAgent(props) {
  const {
    sessionKey = null,
    issuedAt = null,
    expiresAt = null,
    refreshUrl,
    logoutUrl,
    ticketUrl,
    ticket = null,
    next = '/',
    logoutRequested = false,
    logoutNext = '/login',
    language = 'en',
    trackInactivity = false,
    inactivityPathMarkers = null,
    inactivityLimitMs = 300_000,
    inactiveTitle = 'This tab was inactive for some time!',
    refreshLabel = 'Refresh',
  } = props;
  const latest = useLatest(props);
  // What this tab believes about its session; refreshes and other tabs move it forward.
  const known = useRef({ sessionKey, issuedAt, expiresAt });
  const busy = useRef({ refreshing: false, retryAfter: 0, loggingOut: false });
  const [inactive, setInactive] = useState(false);

  const refreshTimer = useRef(null);
  const lifetimeOf = () => Number(latest.current.lifetimeMs) || 7_200_000;

  // Spec: refresh on a timer at lifetime minus a random 1%..10% of it, unless the 90% check
  // (on activity and on each poll) comes first. Re-armed whenever the session moves forward.
  const scheduleRefresh = () => {
    clearTimeout(refreshTimer.current);
    refreshTimer.current = null;
    const { sessionKey: key, issuedAt: issued } = known.current;
    if (!key || issued == null) return;
    const lifetime = lifetimeOf();
    const due = issued + lifetime - lifetime * (0.01 + Math.random() * 0.09);
    refreshTimer.current = setTimeout(() => refresh(), Math.max(0, due - Date.now()));
  };

  const adopt = (newExpiresAt, newIssuedAt) => {
    known.current = {
      ...known.current,
      expiresAt: newExpiresAt,
      issuedAt: Number.isFinite(newIssuedAt) ? newIssuedAt : newExpiresAt - lifetimeOf(),
    };
    scheduleRefresh();
  };

  const reload = () => {
    busy.current.loggingOut = true; // nothing else to do in this page
    window.location.reload();
  };

  const logout = async () => {
    if (busy.current.loggingOut) return;
    busy.current.loggingOut = true;
    const { logoutUrl: url, logoutNext: target = '/login' } = latest.current;
    try {
      if (url) await post(url);
    } catch {
      // The server may be unreachable; the local logout still happens.
    }
    // Spec: logout clears all local storage; the language choice survives it.
    const keep = localStorage.getItem(LANGUAGE_KEY);
    localStorage.clear();
    if (keep !== null) localStorage.setItem(LANGUAGE_KEY, keep);
    window.location.assign(target);
  };

  const refresh = async () => {
    const state = busy.current;
    if (state.refreshing || state.loggingOut || Date.now() < state.retryAfter) return;
    state.refreshing = true;
    try {
      await withCrossTabLock(async () => {
        // Another tab may have refreshed while we waited for the lock.
        const marker = readMarker();
        const mine = known.current;
        if (marker && marker.sessionKey === mine.sessionKey && marker.expiresAt > mine.expiresAt) {
          adopt(marker.expiresAt);
          return;
        }
        const response = await post(latest.current.refreshUrl);
        if (response.status === 401) {
          await logout();
          return;
        }
        if (!response.ok) throw new Error(`refresh failed: ${response.status}`);
        const body = await response.json();
        const renewed = Number(body.expiresAt);
        if (!Number.isFinite(renewed)) throw new Error('refresh reply without expiresAt');
        adopt(renewed, Number(body.issuedAt));
        if (known.current.sessionKey) writeMarker(known.current.sessionKey, known.current.expiresAt);
      });
    } catch (error) {
      state.retryAfter = Date.now() + REFRESH_RETRY_MS;
      console.warn('[SessionAgent]', error);
    } finally {
      state.refreshing = false;
    }
  };

  const refreshIfDue = () => {
    const { sessionKey: key, issuedAt: issued } = known.current;
    const lifetime = lifetimeOf();
    if (key && issued != null && Date.now() - issued >= REFRESH_AT * lifetime) refresh();
  };

  // Session facts from the server (first render, or a later server update).
  useEffect(() => {
    known.current = { sessionKey, issuedAt, expiresAt };
    if (sessionKey === null) return undefined; // logged out: another tab's marker stays
    const marker = readMarker();
    if (marker && marker.sessionKey === sessionKey && marker.expiresAt > (expiresAt ?? 0)) {
      adopt(marker.expiresAt); // another tab already refreshed this session
    } else {
      writeMarker(sessionKey, expiresAt);
      scheduleRefresh();
    }
    return () => clearTimeout(refreshTimer.current);
  }, [sessionKey, issuedAt, expiresAt]); // eslint-disable-line react-hooks/exhaustive-deps

  // Other tabs: logout, login, refresh, language.
  useEffect(() => {
    const onStorage = (event) => {
      if (event.storageArea !== localStorage) return;
      if (event.key === AUTH_KEY || event.key === null) {
        if (busy.current.loggingOut) return;
        const marker = readMarker();
        const ours = known.current.sessionKey;
        const theirs = marker ? marker.sessionKey : null;
        if (theirs === null && ours !== null) {
          // Logged out (or storage cleared) in another tab. Log out here too rather than
          // reload: a reload could beat that tab's logout request to the server, come back
          // logged in and write the marker again, so that clearing storage would not log out.
          logout();
        } else if (theirs !== ours) {
          reload(); // logged in elsewhere, as someone else or while we were logged out
        } else if (marker && marker.expiresAt !== known.current.expiresAt) {
          adopt(marker.expiresAt);
        }
      }
      if (event.key === LANGUAGE_KEY && LANGUAGES.includes(event.newValue)) {
        if (event.newValue !== latest.current.language) latest.current.onLanguageDetected?.(event.newValue);
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // While logged in: notice cleared storage, and refresh on time.
  useEffect(() => {
    if (sessionKey === null) return undefined;
    const poll = setInterval(() => {
      if (busy.current.loggingOut) return;
      const marker = readMarker();
      if (!marker) {
        logout(); // spec: clearing storage logs out
        return;
      }
      if (marker.sessionKey !== known.current.sessionKey) {
        reload();
        return;
      }
      refreshIfDue();
    }, POLL_MS);
    return () => clearInterval(poll);
  }, [sessionKey]); // eslint-disable-line react-hooks/exhaustive-deps

  // Login: exchange the one-time ticket for the HttpOnly cookie, then load the next page fully.
  const usedTicket = useRef(null);
  useEffect(() => {
    if (!ticket || usedTicket.current === ticket) return;
    usedTicket.current = ticket;
    post(ticketUrl, { ticket })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        window.location.assign(latest.current.next ?? next);
      })
      .catch((error) => {
        console.warn('[SessionAgent] ticket exchange failed', error);
        latest.current.onTicketError?.(Number(error.message) || 0);
      });
  }, [ticket]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (logoutRequested) logout();
  }, [logoutRequested]); // eslint-disable-line react-hooks/exhaustive-deps

  // Language: the stored choice wins on first load; later changes come from the server.
  const languageMounted = useRef(false);
  useEffect(() => {
    const lang = LANGUAGES.includes(language) ? language : 'en';
    if (!languageMounted.current) {
      languageMounted.current = true;
      const stored = localStorage.getItem(LANGUAGE_KEY);
      if (LANGUAGES.includes(stored) && stored !== lang) {
        latest.current.onLanguageDetected?.(stored);
        return;
      }
    }
    localStorage.setItem(LANGUAGE_KEY, lang);
    const secure = window.location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${LANGUAGE_COOKIE}=${lang}; path=/; SameSite=Lax; max-age=31536000${secure}`;
    document.documentElement.lang = toBcp47(lang);
  }, [language]); // eslint-disable-line react-hooks/exhaustive-deps

  // Activity: inactivity prompt, and the 90% refresh check.
  const lastActivity = useRef(Date.now());
  const lastRefreshCheck = useRef(0);
  useEffect(() => {
    const onActivity = () => {
      const now = Date.now();
      lastActivity.current = now;
      if (now - lastRefreshCheck.current > POLL_MS) {
        lastRefreshCheck.current = now;
        refreshIfDue();
      }
    };
    const options = { capture: true, passive: true };
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, onActivity, options));
    return () => ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, onActivity, options));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // Edit pages are recognised by their path (spec: campaignEditForm, applist/edit, ...). The
  // router changes the path without telling us, so it is checked on a short interval.
  const markersKey = JSON.stringify(inactivityPathMarkers || []);
  const [onEditPath, setOnEditPath] = useState(false);
  useEffect(() => {
    const markers = JSON.parse(markersKey);
    const check = () => setOnEditPath(markers.some((marker) => window.location.pathname.includes(marker)));
    check();
    const timer = setInterval(check, 500);
    window.addEventListener('popstate', check);
    return () => {
      clearInterval(timer);
      window.removeEventListener('popstate', check);
    };
  }, [markersKey]);
  const tracking = trackInactivity || onEditPath;

  useEffect(() => {
    if (!tracking || inactive) return undefined;
    const limit = Math.max(1000, Number(inactivityLimitMs) || 300_000);
    lastActivity.current = Date.now();
    let timer;
    const check = () => {
      const idle = Date.now() - lastActivity.current;
      if (idle >= limit) setInactive(true);
      else timer = setTimeout(check, limit - idle);
    };
    timer = setTimeout(check, limit);
    return () => clearTimeout(timer);
  }, [tracking, inactivityLimitMs, inactive]);

  return inactive ? <InactiveModal title={inactiveTitle} refreshLabel={refreshLabel} /> : null;
}

function InactiveModal({ title, refreshLabel }) {
  const buttonRef = useRef(null);
  useEffect(() => {
    document.body.classList.add('modal-open');
    buttonRef.current?.focus();
    // Blocking: keyboard focus may not leave the prompt.
    const keepFocus = (event) => {
      if (event.key === 'Tab' || !buttonRef.current?.contains(document.activeElement)) {
        event.preventDefault();
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('keydown', keepFocus, true);
    return () => {
      document.removeEventListener('keydown', keepFocus, true);
      document.body.classList.remove('modal-open');
    };
  }, []);
  return createPortal(
    <>
      <div className="modal-backdrop fade show" style={{ zIndex: 2000 }} />
      <div
        className="modal fade show d-block"
        role="dialog"
        aria-modal="true"
        aria-labelledby="dsp-inactive-title"
        tabIndex={-1}
        style={{ zIndex: 2010 }}
      >
        <div className="modal-dialog modal-dialog-centered" style={{ maxWidth: '24rem' }}>
          <div className="modal-content border-0 shadow">
            <div className="modal-body text-center px-4 pt-4 pb-3">
              <i className="bi bi-hourglass-split d-block fs-1 text-warning mb-2" aria-hidden="true" />
              <h5 className="modal-title fs-6" id="dsp-inactive-title">{title}</h5>
            </div>
            <div className="modal-footer border-0 justify-content-center pt-0 pb-4">
              <button
                ref={buttonRef}
                type="button"
                className="btn btn-primary px-4"
                onClick={() => window.location.reload()}
              >
                <i className="bi bi-arrow-clockwise me-1" aria-hidden="true" />
                {refreshLabel}
              </button>
            </div>
          </div>
        </div>
      </div>
    </>,
    document.body,
  );
}
