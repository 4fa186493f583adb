// The console's JSON API, with the session's CSRF token on every call.
import { app } from './state.js';

export async function api(path, options) {
  const response = await fetch(path, {
    credentials: 'same-origin',
    ...options,
    headers: {
      ...(options?.body ? { 'content-type': 'application/json' } : {}),
      ...(app.csrf ? { 'x-csrf-token': app.csrf } : {}),
      ...(options?.headers || {}),
    },
  });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = { status: 'error', error: `HTTP ${response.status}` };
  }
  return { status: response.status, body };
}
