// Helpers for a Parlance chat model that streams its reply (`chat-stream`, parlance:plugin@0.1.4).
// Streaming is sans-IO: `start` returns the upstream request and its framing, the host sends it and
// splits the answer into events, `decode` turns a batch of events into parts of the reply (each call
// in a fresh instance or not, so it keeps no state), and `refusal` says what an answer outside 2xx means.
//
// This file imports nothing from the host, so it also runs under Node. It holds the parts every
// streaming plugin needs (part and error values, the request, the status mapping) and the protocol of
// OpenAI-compatible chat completions (`/chat/completions` with `"stream": true`, server-sent events
// ending with `data: [DONE]`). For another protocol keep the first half and write your own decoder.

// Parts of a streamed reply, as `decode` returns them.
export const delta = (text) => ({ tag: 'delta', val: text });
export const model = (name) => ({ tag: 'model', val: name });
export const usage = (inputTokens, outputTokens) => ({ tag: 'usage', val: { inputTokens, outputTokens } });
// The reply is complete, with the upstream's finish reason (`stop`, `length`) when it gave one. A
// stream that ends without `done` is treated by the host as cut off; parts after it are dropped.
export const done = (reason) => ({ tag: 'done', val: reason ?? undefined });

// A `plugin-error`: throw it from `start`, `decode` or `reply`, return it from `refusal`.
export const pluginError = (tag, message) => ({ tag, val: message });

// At most 200 characters on one line, for error messages.
export function snippet(text) {
  const line = String(text).split(/\s+/).filter(Boolean).join(' ');
  if (line === '') return '(empty body)';
  const chars = Array.from(line);
  return chars.length > 200 ? `${chars.slice(0, 200).join('')}…` : line;
}

// `Retry-After` in seconds; the HTTP-date form is ignored (the host's backoff applies).
export function retryAfterSecs(value) {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const secs = Number(value.trim());
  return Number.isFinite(secs) && secs >= 0 ? Math.min(Math.ceil(secs), 4294967295) : undefined;
}

// The useful part of an error body: `error.message`, `error` or `message`, or the text itself.
export function errorDetail(text) {
  try {
    const value = JSON.parse(text);
    const message = value?.error?.message ?? value?.error ?? value?.message;
    if (message !== undefined && message !== null) {
      return snippet(typeof message === 'string' ? message : JSON.stringify(message));
    }
  } catch {
    // Not JSON: the text is the detail.
  }
  return snippet(text);
}

// `refusal`: the error an answer outside 2xx means (an `http-client.response`), mapped as the
// bundled plugins map it: 401/403 unauthorized, 429 rate-limited (with Retry-After), 408/504 timeout,
// other 4xx invalid-input, anything else unavailable.
export function refusal(response, upstream = 'the upstream') {
  const header = (name) => response.headers.find(([key]) => key.toLowerCase() === name)?.[1] ?? null;
  const message = `${upstream} answered HTTP ${response.status}: ${errorDetail(new TextDecoder().decode(response.body))}`;
  const status = response.status;
  if (status === 401 || status === 403) return pluginError('unauthorized', message);
  if (status === 429) {
    return { tag: 'rate-limited', val: { retryAfterSecs: retryAfterSecs(header('retry-after')), message } };
  }
  if (status === 408 || status === 504) return pluginError('timeout', message);
  if (status >= 400 && status < 500) return pluginError('invalid-input', message);
  return pluginError('unavailable', message);
}

// The error `http-client.send` failed with (componentize-js throws it with the `error-code` as its
// `payload`), for `reply`.
export function transportFailure(error, url) {
  const code = error?.payload?.tag ?? error?.message ?? String(error);
  const tag = /timeout/i.test(code) ? 'timeout' : 'unavailable';
  return pluginError(tag, `the request to ${url} failed: ${code}`);
}

// An `http-client.request` with a JSON body. A BigInt (the generation's `seed`) is written as the
// exact integer, which JSON.stringify alone refuses.
export function jsonRequest(method, url, value, { headers = [], timeoutMs } = {}) {
  const text = JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v)).replace(
    /\{"\$bigint":"(-?\d+)"\}/g,
    '$1',
  );
  return {
    method: { tag: method.toLowerCase() },
    url,
    headers: [['content-type', 'application/json'], ...headers],
    body: new TextEncoder().encode(text),
    timeoutMs,
  };
}

// `start`'s answer for an upstream that streams server-sent events, or NDJSON.
export const sse = (request) => ({ request, framing: 'server-sent-events' });
export const ndjson = (request) => ({ request, framing: 'ndjson' });

// Parses a JSON object the upstream sent, or fails with `bad-response`.
export function parseJson(text, upstream = 'the upstream') {
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw pluginError('bad-response', `${upstream} sent something that is not JSON (${e.message}): ${snippet(text)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw pluginError('bad-response', `${upstream} sent JSON that is not an object: ${snippet(text)}`);
  }
  return value;
}

// The dialog as chat messages: the system prompt, the character's lines as the assistant's, the
// user's as the user's, a third speaker's as the user's with the name in front, then the new message.
export function chatMessages(request, system, maxHistory = 50) {
  const out = system ? [{ role: 'system', content: system }] : [];
  for (const entry of maxHistory > 0 ? request.history.slice(-maxHistory) : []) {
    if (entry.name === request.toName) out.push({ role: 'assistant', content: entry.message });
    else if (entry.name === request.fromName) out.push({ role: 'user', content: entry.message });
    else out.push({ role: 'user', content: `${entry.name}: ${entry.message}` });
  }
  out.push({ role: 'user', content: request.message });
  return out;
}

// --- OpenAI-compatible chat completions ---

// The request for `{baseUrl}/chat/completions`, streamed or whole. `generation` (the client's
// `max-tokens`, `temperature`, … when streaming) is applied where it says something.
export function openAiRequest({ baseUrl, apiKey, model: name, messages, stream, generation, timeoutMs }) {
  const body = { model: name, messages, stream };
  if (generation) {
    const f32 = (x) => Number(x.toPrecision(7)); // 0.7 rather than 0.699999988079071
    if (generation.maxTokens != null) body.max_tokens = generation.maxTokens;
    if (generation.temperature != null) body.temperature = f32(generation.temperature);
    if (generation.topP != null) body.top_p = f32(generation.topP);
    if (generation.stop?.length) body.stop = generation.stop;
    if (generation.seed != null) body.seed = BigInt(generation.seed);
    if (generation.user != null) body.user = generation.user;
  }
  const headers = [['accept', stream ? 'text/event-stream' : 'application/json']];
  if (apiKey) headers.push(['authorization', `Bearer ${apiKey}`]);
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return jsonRequest('POST', url, body, { headers, timeoutMs });
}

// A token count as a u32, or undefined when it is absent or not a count.
const count = (value) => (Number.isInteger(value) && value >= 0 ? Math.min(value, 4294967295) : undefined);

// `decode` for OpenAI's server-sent events: each `data` payload is a chunk
// `{"model", "choices": [{"delta": {"content"}, "finish_reason"}], "usage"}`, and the last is `[DONE]`.
// A chunk with a finish reason gives `done(reason)`, after its text and its usage when it has them;
// `[DONE]` gives `done()` for an upstream that never names a reason (the host stops at the first).
export function openAiEvents(events, upstream = 'the upstream') {
  const parts = [];
  for (const event of events) {
    if (event.trim() === '[DONE]') {
      parts.push(done());
      continue;
    }
    const chunk = parseJson(event, upstream);
    if (chunk.error) throw pluginError('unavailable', `${upstream} failed while streaming: ${errorDetail(event)}`);
    if (typeof chunk.model === 'string' && chunk.model) parts.push(model(chunk.model));
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    const content = choice?.delta?.content;
    if (typeof content === 'string' && content) parts.push(delta(content));
    const u = chunk.usage;
    if (u && typeof u === 'object') parts.push(usage(count(u.prompt_tokens), count(u.completion_tokens)));
    if (typeof choice?.finish_reason === 'string') parts.push(done(choice.finish_reason));
  }
  return parts;
}

// The reply in a whole (not streamed) completion, from `http-client.send`'s response.
export function openAiReply(response, upstream = 'the upstream') {
  if (response.status < 200 || response.status > 299) throw refusal(response, upstream);
  const text = new TextDecoder().decode(response.body);
  const content = parseJson(text, upstream).choices?.[0]?.message?.content;
  if (typeof content !== 'string' || content.trim() === '') {
    throw pluginError('bad-response', `${upstream} sent no message: ${snippet(text)}`);
  }
  return content.trim();
}
