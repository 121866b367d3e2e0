// `ollama`: a paraphrase provider for Ollama's native API (`POST /api/generate` with
// `{"model", "prompt", "stream": false}`, answered by `{"model", "response", "done"}`), written in
// JavaScript and built into a component with componentize-js. `fetch` runs on wasi:http, so every
// request passes the host's allow-list, timeout and size cap.
//
// It also exports the optional `probe` (world `probed-provider-plugin`, parlance:plugin@0.1.1):
// `GET /api/tags` tells whether Ollama answers and has the configured model, for `/health?probe=true`.
//
// Settings: `base_url` (default http://localhost:11434), `model` (the default model, llama3.2),
// `prompt_template` (with a `{text}` placeholder), `system_prompt` (sent as Ollama's `system` when
// set), `timeout_ms` (this plugin's own limit on one request, default 60000; the host's
// `http_timeout_ms` still applies, and the shorter wins).
//
// Failures map to the WIT `plugin-error` cases exactly as the Rust providers map them
// (sdk/src/upstream.rs): 401/403 unauthorized, 429 rate-limited with Retry-After seconds, 408/504
// timeout, other 4xx invalid-input, other statuses unavailable, a body that is not the protocol's
// JSON bad-response, a request that never got an answer unavailable (that includes one the sandbox
// refused: the host then adds which destination it refused), and our own deadline timeout.

import { config } from 'parlance:plugin/host@0.1.3';

const DEFAULT_BASE_URL = 'http://localhost:11434';
const DEFAULT_MODEL = 'llama3.2';
const DEFAULT_TEMPLATE =
  'Rewrite the following text so that it says the same thing in different words. Keep the meaning, ' +
  'the language, the tone and roughly the length. Answer with the rewritten text only: no preamble, ' +
  'no quotes, no explanation.\n\n{text}';
const DEFAULT_TIMEOUT_MS = 60000;
const UPSTREAM = 'Ollama';

// A `plugin-error` as componentize-js lowers it: a thrown variant value becomes the `err` of the
// export's result.
function failure(tag, val) {
  return { tag, val };
}

function setting(key, fallback) {
  const value = config(key);
  return value === undefined || value === '' ? fallback : value;
}

function timeoutSetting() {
  const raw = setting('timeout_ms', String(DEFAULT_TIMEOUT_MS));
  const ms = Number(raw.trim());
  if (!Number.isFinite(ms) || ms <= 0) {
    throw failure('misconfigured', `the setting \`timeout_ms\` has the invalid value ${JSON.stringify(raw)}`);
  }
  return ms;
}

function endpoint(path) {
  const base = setting('base_url', DEFAULT_BASE_URL);
  if (!/^https?:\/\/[^/\s]+/i.test(base)) {
    throw failure('misconfigured', `the setting \`base_url\` is not an http(s) URL: ${JSON.stringify(base)}`);
  }
  return `${base.replace(/\/+$/, '')}${path}`;
}

// At most 200 characters on one line, so error messages stay readable.
function snippet(text) {
  const line = text.split(/\s+/).filter(Boolean).join(' ');
  if (line === '') return '(empty body)';
  const chars = Array.from(line);
  return chars.length > 200 ? `${chars.slice(0, 200).join('')}…` : line;
}

// Retry-After in delta-seconds; the HTTP-date form is ignored, as the Rust SDK does, and the host's
// backoff applies.
function retryAfterSecs(value) {
  if (value === null) return undefined;
  const secs = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(secs) || secs < 0) return undefined;
  return Math.min(Math.ceil(secs), 4294967295);
}

// Ollama reports errors as `{"error": "..."}`; OpenAI-style `{"error": {"message"}}` is accepted too.
function errorDetail(body) {
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

function statusFailure(status, headers, body) {
  const message = `${UPSTREAM} answered HTTP ${status}: ${errorDetail(body)}`;
  if (status === 401 || status === 403) return failure('unauthorized', message);
  if (status === 429) {
    return failure('rate-limited', { retryAfterSecs: retryAfterSecs(headers.get('retry-after')), message });
  }
  if (status === 408 || status === 504) return failure('timeout', message);
  if (status >= 400 && status < 500) return failure('invalid-input', message);
  return failure('unavailable', message);
}

// Models often wrap the answer in quotes or label it despite the instructions; both are removed.
function clean(answer) {
  let text = answer.trim();
  for (const label of ['Paraphrase:', 'Paraphrased text:', 'Rewritten text:']) {
    if (text.startsWith(label)) text = text.slice(label.length).trimStart();
  }
  for (const [open, close] of [['"', '"'], ['“', '”'], ["'", "'"]]) {
    const inner = text.slice(open.length, text.length - close.length);
    if (text.length > 2 && text.startsWith(open) && text.endsWith(close) && !inner.includes(close)) {
      text = inner;
    }
  }
  return text.trim();
}

// One request with our own deadline racing it: the host's limits end a stalled call too, but only
// this one can say `timeout` rather than a generic transport failure. Returns the status, headers
// and the whole body as text; anything but a 2xx is turned into its `plugin-error`.
async function exchange(url, init) {
  const timeoutMs = timeoutSetting();
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
    throw statusFailure(response.status, response.headers, raw);
  }
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
    throw failure('bad-response', `${UPSTREAM} answered HTTP ${response.status} with an error: ${errorDetail(raw)}`);
  }
  return { answer, raw };
}

async function generate(model, text) {
  const url = endpoint('/api/generate');
  const template = setting('prompt_template', DEFAULT_TEMPLATE);
  const body = { model, prompt: template.split('{text}').join(text), stream: false };
  const system = config('system_prompt');
  if (system) body.system = system;
  const { answer, raw } = await exchange(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  if (typeof answer.response !== 'string') {
    throw failure('bad-response', `${UPSTREAM}'s answer has no \`response\` text: ${snippet(raw)}`);
  }
  if (answer.done === false) {
    throw failure('bad-response', `${UPSTREAM}'s answer is incomplete (\`done\` is false)`);
  }
  const paraphrase = clean(answer.response);
  if (paraphrase === '') {
    throw failure('bad-response', `${UPSTREAM} answered with an empty \`response\``);
  }
  return { text: paraphrase, model: typeof answer.model === 'string' && answer.model ? answer.model : model };
}

// Ollama names a model `name:tag`, and `name` alone means `name:latest`.
function sameModel(installed, wanted) {
  const full = (m) => (m.includes(':') ? m : `${m}:latest`);
  return full(installed) === full(wanted);
}

export const provider = {
  info() {
    return { name: 'Ollama (native /api/generate)', defaultModel: setting('model', DEFAULT_MODEL) };
  },

  async paraphrase(request) {
    if (request.text.trim() === '') throw failure('invalid-input', 'the text is empty');
    return generate(request.model, request.text);
  },
};

export const probe = {
  async check() {
    const url = endpoint('/api/tags');
    const model = setting('model', DEFAULT_MODEL);
    const { answer, raw } = await exchange(url, { method: 'GET', headers: { accept: 'application/json' } });
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
  },
};
