// The protocol of `ollama-chat` (Ollama's `POST /api/chat`), apart from any I/O and from the
// `parlance:` imports, so that Node can test it (test/ollama-chat.test.mjs): the settings, the dialog
// as chat messages, the request body, the decoding of the NDJSON stream and of a refused request.
//
// A request is `{"model", "messages": [{"role", "content"}], "stream", "options"}`. The whole answer
// (`stream: false`) is one object `{"model", "message": {"role", "content"}, "done": true,
// "done_reason", "prompt_eval_count", "eval_count"}`; a streamed one is one such object per line, each
// with the next piece of `message.content` and `"done": false`, and a last line with `"done": true`,
// the finish reason and the token counts. An error after the stream began is a line `{"error": "…"}`.

import { DEFAULT_MODEL, UPSTREAM, errorDetail, failure, snippet, statusFailure } from './common.js';

export const DEFAULT_SYSTEM_PROMPT =
  'You are {character}, a character in a {genre} story, talking with {user}. ' +
  "{situation} Stay in character. Answer with {character}'s next line only, without your name or quotes.";
export const DEFAULT_MAX_HISTORY = 50;

// What `reply` and `start` read from the settings (`s` is common.js's `settings(config)`).
export function chatSettings(s) {
  const options = {};
  const temperature = s.number('temperature', undefined, { min: 0 });
  if (temperature !== undefined) options.temperature = temperature;
  const maxTokens = s.number('max_tokens', undefined, { integer: true, min: 1 });
  if (maxTokens !== undefined) options.num_predict = maxTokens;
  return {
    url: s.endpoint('/api/chat'),
    model: s.get('model', DEFAULT_MODEL),
    systemPrompt: s.get('system_prompt', DEFAULT_SYSTEM_PROMPT),
    maxHistory: s.number('max_history', DEFAULT_MAX_HISTORY, { integer: true, min: 0 }),
    options,
    timeoutMs: s.timeoutMs(),
  };
}

// Replaces each `{name}` in turn, as parlance-openai-compat's `render` does.
export function render(template, values) {
  let out = template;
  for (const [name, value] of values) out = out.split(`{${name}}`).join(value);
  return out;
}

// The dialog as chat messages, as openai-chat maps it: the system prompt (its whitespace collapsed),
// then the last `maxHistory` entries (the character's lines are the assistant's, the user's the
// user's, a third speaker's the user's with the speaker's name in front), then the new message.
export function messages(request, systemPrompt, maxHistory) {
  const situation = (request.situation ?? '').trim();
  const system = render(systemPrompt, [
    ['character', request.toName],
    ['user', request.fromName],
    ['genre', request.genre],
    ['situation', situation],
  ]);
  const out = [{ role: 'system', content: system.split(/\s+/).filter(Boolean).join(' ') }];
  const history = maxHistory > 0 ? request.history.slice(-maxHistory) : [];
  for (const entry of history) {
    if (entry.name === request.toName) out.push({ role: 'assistant', content: entry.message });
    else if (entry.name === request.fromName) out.push({ role: 'user', content: entry.message });
    // A third speaker: keep who said it, since the roles cannot.
    else out.push({ role: 'user', content: `${entry.name}: ${entry.message}` });
  }
  out.push({ role: 'user', content: request.message });
  return out;
}

// Ollama's `options` from the settings, overridden by what the client asked of this generation.
export function generationOptions(base, generation) {
  const options = { ...base };
  if (!generation) return options;
  if (generation.maxTokens !== undefined && generation.maxTokens !== null) options.num_predict = generation.maxTokens;
  if (generation.temperature !== undefined && generation.temperature !== null) {
    // f32 to the nearest short decimal, so that 0.7 is sent as 0.7 and not 0.699999988079071.
    options.temperature = Number(generation.temperature.toPrecision(7));
  }
  if (generation.topP !== undefined && generation.topP !== null) options.top_p = Number(generation.topP.toPrecision(7));
  if (generation.stop && generation.stop.length > 0) options.stop = [...generation.stop];
  if (generation.seed !== undefined && generation.seed !== null) options.seed = BigInt(generation.seed);
  return options;
}

// JSON text of the request body. The seed is an s64, which JavaScript holds as a BigInt and
// JSON.stringify refuses: it is written out as the exact integer.
export function body(model, chatMessages, stream, options) {
  const value = { model, messages: chatMessages, stream };
  if (Object.keys(options).length > 0) value.options = options;
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v)).replace(
    /\{"\$bigint":"(-?\d+)"\}/g,
    '$1',
  );
}

// The upstream request of a streamed reply: an `http-client.request` and its framing.
export function streamStart(settings, request, generation) {
  const chatMessages = messages(request, settings.systemPrompt, settings.maxHistory);
  const text = body(settings.model, chatMessages, true, generationOptions(settings.options, generation));
  return {
    request: {
      method: { tag: 'post' },
      url: settings.url,
      headers: [
        ['content-type', 'application/json'],
        ['accept', 'application/x-ndjson'],
      ],
      body: new TextEncoder().encode(text),
      timeoutMs: Math.min(Math.round(settings.timeoutMs), 4294967295),
    },
    framing: 'ndjson',
  };
}

// The reply in a whole answer (`stream: false`), already parsed by common.js's `parseObject`.
export function replyText(answer, raw) {
  if (typeof answer.message?.content !== 'string') {
    throw failure('bad-response', `${UPSTREAM}'s answer has no \`message.content\` text: ${snippet(raw)}`);
  }
  if (answer.done === false) {
    throw failure('bad-response', `${UPSTREAM}'s answer is incomplete (\`done\` is false)`);
  }
  const reply = answer.message.content.trim();
  if (reply === '') {
    const reason = typeof answer.done_reason === 'string' ? answer.done_reason : 'none';
    throw failure('bad-response', `${UPSTREAM} answered with an empty message (done_reason: ${reason})`);
  }
  return reply;
}

// A token count as a u32, or undefined when absent or not a count.
function count(value) {
  return Number.isInteger(value) && value >= 0 ? Math.min(value, 4294967295) : undefined;
}

// The parts of the reply in one NDJSON line.
function decodeLine(line) {
  let value;
  try {
    value = JSON.parse(line);
  } catch (e) {
    throw failure('bad-response', `${UPSTREAM} streamed a line that is not JSON (${e.message}): ${snippet(line)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw failure('bad-response', `${UPSTREAM} streamed JSON that is not an object: ${snippet(line)}`);
  }
  if (value.error !== undefined && value.error !== null) {
    // Ollama reports a failure after the stream began (the model runner stopped, say) this way.
    throw failure('unavailable', `${UPSTREAM} failed while streaming: ${errorDetail(line)}`);
  }
  const parts = [];
  if (typeof value.model === 'string' && value.model !== '') parts.push({ tag: 'model', val: value.model });
  const content = value.message?.content;
  if (content !== undefined && content !== null && typeof content !== 'string') {
    throw failure('bad-response', `${UPSTREAM} streamed a \`message.content\` that is not text: ${snippet(line)}`);
  }
  if (content) parts.push({ tag: 'delta', val: content });
  if (value.done === true) {
    const inputTokens = count(value.prompt_eval_count);
    const outputTokens = count(value.eval_count);
    if (inputTokens !== undefined || outputTokens !== undefined) {
      parts.push({ tag: 'usage', val: { inputTokens, outputTokens } });
    }
    const reason = typeof value.done_reason === 'string' && value.done_reason !== '' ? value.done_reason : undefined;
    parts.push({ tag: 'done', val: reason });
  }
  return parts;
}

// `chat-stream.decode`: the events (NDJSON lines) that arrived together, oldest first.
export function decode(events) {
  return events.flatMap(decodeLine);
}

// `chat-stream.refusal`: the `plugin-error` an answer outside 2xx means. The body is bytes.
export function refusal(response) {
  const header = (name) => {
    const found = response.headers.find(([key]) => key.toLowerCase() === name);
    return found ? found[1] : null;
  };
  const text = new TextDecoder().decode(response.body);
  return statusFailure(response.status, header, text);
}
