// What the Ollama provider (`ollama.js`) and chat model (`ollama-chat.js`) share: reading settings,
// the `plugin-error` values and the mapping of a refused request to one, and one request with a
// deadline. Nothing here imports `parlance:` interfaces (settings come in as the `config` function),
// so Node can import this module in the unit tests; componentize-js bundles it into each component.
//
// Failures map to the WIT `plugin-error` cases exactly as the Rust plugins map them
// (sdk/src/upstream.rs): 401/403 unauthorized, 429 rate-limited with Retry-After seconds, 408/504
// timeout, other 4xx invalid-input, other statuses unavailable, a body that is not the protocol's
// JSON bad-response, a request that never got an answer unavailable (that includes one the sandbox
// refused: the host then adds which destination it refused), and our own deadline timeout.

export const UPSTREAM = 'Ollama';
export const DEFAULT_BASE_URL = 'http://localhost:11434';
export const DEFAULT_MODEL = 'llama3.2';
export const DEFAULT_TIMEOUT_MS = 60000;

// A `plugin-error` as componentize-js lowers it: a thrown variant value becomes the `err` of the
// export's result, and a returned one is the value of an export that returns a `plugin-error`.
export function failure(tag, val) {
  return { tag, val };
}

// The plugin's settings, read through `config` (the host's `config` import, or a stand-in in tests).
// An unset or empty setting takes its default; a malformed one is `misconfigured`, naming it.
export function settings(config) {
  const get = (key, fallback) => {
    const value = config(key);
    return value === undefined || value === null || value === '' ? fallback : value;
  };
  const invalid = (key, raw) =>
    failure('misconfigured', `the setting \`${key}\` has the invalid value ${JSON.stringify(raw)}`);
  // A number, or `fallback` when unset; `integer` and `min` (inclusive) bound it.
  const number = (key, fallback, { integer = false, min = -Infinity } = {}) => {
    const raw = get(key, undefined);
    if (raw === undefined) return fallback;
    const value = raw.trim() === '' ? NaN : Number(raw.trim());
    if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) throw invalid(key, raw);
    return value;
  };
  return {
    get,
    number,
    timeoutMs() {
      const ms = number('timeout_ms', DEFAULT_TIMEOUT_MS);
      if (ms <= 0) throw invalid('timeout_ms', get('timeout_ms', ''));
      return ms;
    },
    endpoint(path) {
      const base = get('base_url', DEFAULT_BASE_URL);
      if (!/^https?:\/\/[^/\s]+/i.test(base)) {
        throw failure('misconfigured', `the setting \`base_url\` is not an http(s) URL: ${JSON.stringify(base)}`);
      }
      return `${base.replace(/\/+$/, '')}${path}`;
    },
  };
}

// At most 200 characters on one line, so error messages stay readable.
export function snippet(text) {
  const line = text.split(/\s+/).filter(Boolean).join(' ');
  if (line === '') return '(empty body)';
  const chars = Array.from(line);
  return chars.length > 200 ? `${chars.slice(0, 200).join('')}…` : line;
}

// Retry-After in delta-seconds; the HTTP-date form is ignored, as the Rust SDK does, and the host's
// backoff applies.
export function retryAfterSecs(value) {
  if (value === null || value === undefined) return undefined;
  const secs = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(secs) || secs < 0) return undefined;
  return Math.min(Math.ceil(secs), 4294967295);
}

// Ollama reports errors as `{"error": "..."}`; OpenAI-style `{"error": {"message"}}` is accepted too.
export function errorDetail(body) {
  try {
    const value = JSON.parse(body);
    const message = value?.error?.message ?? value?.error ?? value?.message;
    if (message !== undefined && message !== null) {
      return snippet(typeof message === 'string' ? message : JSON.stringify(message));
    }
  } catch {
    // Not JSON: the text itself is the detail.
  }
  return snippet(body);
}

// The error an answer outside 2xx means. `header(name)` gives a response header's value, or null.
export function statusFailure(status, header, body) {
  const message = `${UPSTREAM} answered HTTP ${status}: ${errorDetail(body)}`;
  if (status === 401 || status === 403) return failure('unauthorized', message);
  if (status === 429) {
    return failure('rate-limited', { retryAfterSecs: retryAfterSecs(header('retry-after')), message });
  }
  if (status === 408 || status === 504) return failure('timeout', message);
  if (status >= 400 && status < 500) return failure('invalid-input', message);
  return failure('unavailable', message);
}

// Parses a whole answer that must be one JSON object without an `error`.
export function parseObject(raw, status) {
  let answer;
  try {
    answer = JSON.parse(raw);
  } catch (e) {
    throw failure('bad-response', `${UPSTREAM} answered with something that is not JSON (${e.message}): ${snippet(raw)}`);
  }
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    throw failure('bad-response', `${UPSTREAM} answered with JSON that is not an object: ${snippet(raw)}`);
  }
  if (answer.error !== undefined) {
    throw failure('bad-response', `${UPSTREAM} answered HTTP ${status} with an error: ${errorDetail(raw)}`);
  }
  return answer;
}

// One request with our own deadline racing it: the host's limits end a stalled call too, but only
// this one can say `timeout` rather than a generic transport failure. Anything but a 2xx is turned
// into its `plugin-error`; a 2xx must be a JSON object, returned with its text.
export async function exchange(url, init, timeoutMs) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(failure('timeout', `${UPSTREAM} did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  const attempt = (async () => {
    let response;
    try {
      response = await fetch(url, init);
    } catch (e) {
      throw failure('unavailable', `cannot reach ${UPSTREAM} at ${url}: ${e?.message ?? e}`);
    }
    let raw;
    try {
      raw = await response.text();
    } catch (e) {
      throw failure('unavailable', `${UPSTREAM}'s answer broke off: ${e?.message ?? e}`);
    }
    return { response, raw };
  })();
  let outcome;
  try {
    outcome = await Promise.race([attempt, deadline]);
  } finally {
    clearTimeout(timer);
  }
  const { response, raw } = outcome;
  if (response.status < 200 || response.status > 299) {
    throw statusFailure(response.status, (name) => response.headers.get(name), raw);
  }
  return { answer: parseObject(raw, response.status), raw };
}

// Ollama names a model `name:tag`, and `name` alone means `name:latest`.
export function sameModel(installed, wanted) {
  const full = (m) => (m.includes(':') ? m : `${m}:latest`);
  return full(installed) === full(wanted);
}

// The health probe: `GET /api/tags` answers, and lists `model`.
export async function probeModel(s, model) {
  const url = s.endpoint('/api/tags');
  const { answer, raw } = await exchange(url, { method: 'GET', headers: { accept: 'application/json' } }, s.timeoutMs());
  if (!Array.isArray(answer.models)) {
    throw failure('bad-response', `${UPSTREAM}'s model list has no \`models\` array: ${snippet(raw)}`);
  }
  const names = answer.models.map((m) => m?.name ?? m?.model).filter((n) => typeof n === 'string');
  if (!names.some((n) => sameModel(n, model))) {
    throw failure(
      'misconfigured',
      `the model ${model} is not available on ${UPSTREAM} (it has ${names.join(', ') || 'none'}); run \`ollama pull ${model}\``,
    );
  }
  return `${UPSTREAM} answers; model ${model} is available (${names.length} installed)`;
}
