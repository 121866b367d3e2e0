// The Ollama chat model's protocol and the helpers it shares with the provider, without a component:
// `node --test` from plugins/ollama-js.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retryAfterSecs, settings, snippet } from '../src/common.js';
import {
  body,
  chatSettings,
  decode,
  generationOptions,
  messages,
  refusal,
  replyText,
  streamStart,
} from '../src/ollama-chat-protocol.js';

const configOf = (values) => (key) => values[key];

const request = {
  history: [
    { index: 0, name: 'Ann', message: 'Hi' },
    { index: 1, name: 'Mia', message: 'Hello, Ann' },
    { index: 2, name: 'Bob', message: 'Me too' },
  ],
  message: 'How are you?',
  fromName: 'Ann',
  toName: 'Mia',
  situation: undefined,
  genre: 'Mystery',
};

const noGeneration = {
  maxTokens: undefined,
  temperature: undefined,
  topP: undefined,
  stop: [],
  seed: undefined,
  user: undefined,
};

const bytes = (text) => new TextEncoder().encode(text);

test('the dialog maps to roles as openai-chat maps it', () => {
  const { systemPrompt, maxHistory } = chatSettings(settings(configOf({})));
  const m = messages(request, systemPrompt, maxHistory);
  assert.ok(
    m[0].content.startsWith('You are Mia, a character in a Mystery story, talking with Ann. Stay'),
    m[0].content,
  );
  assert.deepEqual(
    m.map((x) => x.role),
    ['system', 'user', 'assistant', 'user', 'user'],
  );
  assert.equal(m[3].content, 'Bob: Me too');
  assert.equal(m[4].content, 'How are you?');
  assert.equal(messages(request, systemPrompt, 1).length, 3);
  assert.equal(messages(request, systemPrompt, 0).length, 2);
});

test('the system prompt fills every placeholder, the situation included', () => {
  const template = '{character} and {user} ({genre}): {situation}  {character}.';
  const m = messages({ ...request, situation: '  A dark night. ' }, template, 50);
  assert.equal(m[0].content, 'Mia and Ann (Mystery): A dark night. Mia.');
});

test('settings: defaults, options, and a malformed value is misconfigured', () => {
  const defaults = chatSettings(settings(configOf({})));
  assert.equal(defaults.url, 'http://localhost:11434/api/chat');
  assert.equal(defaults.model, 'llama3.2');
  assert.equal(defaults.maxHistory, 50);
  assert.equal(defaults.timeoutMs, 60000);
  assert.deepEqual(defaults.options, {});
  const set = chatSettings(
    settings(configOf({ base_url: 'http://ollama:11434/', model: 'qwen2.5:0.5b', temperature: '0.3', max_tokens: '99' })),
  );
  assert.equal(set.url, 'http://ollama:11434/api/chat');
  assert.equal(set.model, 'qwen2.5:0.5b');
  assert.deepEqual(set.options, { temperature: 0.3, num_predict: 99 });
  for (const [key, value] of [
    ['max_tokens', '1.5'],
    ['max_tokens', '0'],
    ['temperature', 'warm'],
    ['max_history', '-1'],
    ['timeout_ms', '0'],
    ['base_url', 'localhost:11434'],
  ]) {
    assert.throws(
      () => chatSettings(settings(configOf({ [key]: value }))),
      (e) => e.tag === 'misconfigured' && e.val.includes(key),
      `${key}=${value}`,
    );
  }
});

test('start builds a streamed /api/chat request framed as NDJSON, the generation overriding the settings', () => {
  const chat = chatSettings(settings(configOf({ temperature: '0.2', max_tokens: '64', timeout_ms: '5000' })));
  const start = streamStart(chat, request, {
    maxTokens: 20,
    temperature: Math.fround(0.7),
    topP: Math.fround(0.9),
    stop: ['\n'],
    seed: 9007199254740993n,
    user: 'u-1',
  });
  assert.equal(start.framing, 'ndjson');
  assert.deepEqual(start.request.method, { tag: 'post' });
  assert.equal(start.request.url, 'http://localhost:11434/api/chat');
  assert.equal(start.request.timeoutMs, 5000);
  assert.deepEqual(start.request.headers, [
    ['content-type', 'application/json'],
    ['accept', 'application/x-ndjson'],
  ]);
  const text = new TextDecoder().decode(start.request.body);
  assert.ok(text.includes('"seed":9007199254740993}'), text);
  const sent = JSON.parse(text);
  assert.equal(sent.stream, true);
  assert.equal(sent.model, 'llama3.2');
  assert.equal(sent.messages.length, 5);
  assert.deepEqual(
    { ...sent.options, seed: undefined },
    { temperature: 0.7, num_predict: 20, top_p: 0.9, stop: ['\n'], seed: undefined },
  );

  const plain = JSON.parse(new TextDecoder().decode(streamStart(chat, request, noGeneration).request.body));
  assert.deepEqual(plain.options, { temperature: 0.2, num_predict: 64 });
  const bare = chatSettings(settings(configOf({})));
  assert.equal(JSON.parse(new TextDecoder().decode(streamStart(bare, request, noGeneration).request.body)).options, undefined);
});

test('generation options leave the settings alone when the client asked nothing', () => {
  assert.deepEqual(generationOptions({ temperature: 1 }, noGeneration), { temperature: 1 });
  assert.deepEqual(generationOptions({}, { ...noGeneration, seed: -3n }), { seed: -3n });
  assert.equal(body('m', [], false, { seed: -3n }), '{"model":"m","messages":[],"stream":false,"options":{"seed":-3}}');
});

test('decode turns NDJSON lines into deltas, the model, usage and done', () => {
  const parts = decode([
    '{"model":"llama3.2","created_at":"2024-01-01T00:00:00Z","message":{"role":"assistant","content":"Hel"},"done":false}',
    '{"model":"llama3.2","message":{"role":"assistant","content":"lo."},"done":false}',
    '{"model":"llama3.2","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":26,"eval_count":2}',
  ]);
  assert.deepEqual(parts, [
    { tag: 'model', val: 'llama3.2' },
    { tag: 'delta', val: 'Hel' },
    { tag: 'model', val: 'llama3.2' },
    { tag: 'delta', val: 'lo.' },
    { tag: 'model', val: 'llama3.2' },
    { tag: 'usage', val: { inputTokens: 26, outputTokens: 2 } },
    { tag: 'done', val: 'stop' },
  ]);
  assert.deepEqual(decode([]), []);
  // The last line may carry text too; without counts or a reason there is no usage and done has none.
  assert.deepEqual(decode(['{"message":{"content":"!"},"done":true}']), [
    { tag: 'delta', val: '!' },
    { tag: 'done', val: undefined },
  ]);
  assert.deepEqual(decode(['{"done":true,"done_reason":"length","eval_count":7}']), [
    { tag: 'usage', val: { inputTokens: undefined, outputTokens: 7 } },
    { tag: 'done', val: 'length' },
  ]);
});

test('decode fails on an error line, a line that is not JSON, and content that is not text', () => {
  assert.throws(
    () => decode(['{"model":"m","message":{"content":"a"},"done":false}', '{"error":"llama runner process has terminated"}']),
    (e) => e.tag === 'unavailable' && e.val.includes('llama runner process has terminated'),
  );
  assert.throws(
    () => decode(['<html><body>Bad gateway</body></html>']),
    (e) => e.tag === 'bad-response' && e.val.includes('Bad gateway'),
  );
  assert.throws(() => decode(['[1,2]']), (e) => e.tag === 'bad-response');
  assert.throws(() => decode(['{"message":{"content":5}}']), (e) => e.tag === 'bad-response');
});

test('refusal maps statuses as check_status does, reading Ollama\'s error body', () => {
  const refused = (status, headers, text) => refusal({ status, headers, body: bytes(text) });
  assert.deepEqual(refused(401, [], '{"error":"bad key"}'), { tag: 'unauthorized', val: 'Ollama answered HTTP 401: bad key' });
  assert.equal(refused(403, [], '').tag, 'unauthorized');
  assert.deepEqual(refused(429, [['retry-after', '7']], '{"error":"busy"}'), {
    tag: 'rate-limited',
    val: { retryAfterSecs: 7, message: 'Ollama answered HTTP 429: busy' },
  });
  assert.equal(refused(429, [['Retry-After', 'Wed, 21 Oct 2015 07:28:00 GMT']], '').val.retryAfterSecs, undefined);
  assert.equal(refused(408, [], '').tag, 'timeout');
  assert.equal(refused(504, [], '').tag, 'timeout');
  assert.deepEqual(refused(404, [], '{"error":"model \\"x\\" not found, try pulling it first"}'), {
    tag: 'invalid-input',
    val: 'Ollama answered HTTP 404: model "x" not found, try pulling it first',
  });
  assert.deepEqual(refused(503, [], '<html>oops</html>'), { tag: 'unavailable', val: 'Ollama answered HTTP 503: <html>oops</html>' });
  assert.equal(refused(500, [], '').val, 'Ollama answered HTTP 500: (empty body)');
});

test('a whole reply is the trimmed message content', () => {
  const answer = { model: 'm', message: { role: 'assistant', content: '  Fine, thanks. ' }, done: true };
  assert.equal(replyText(answer, ''), 'Fine, thanks.');
  assert.throws(() => replyText({ done: true }, '{"done":true}'), (e) => e.tag === 'bad-response');
  assert.throws(() => replyText({ ...answer, done: false }, ''), (e) => e.tag === 'bad-response');
  assert.throws(
    () => replyText({ message: { content: ' ' }, done: true, done_reason: 'length' }, ''),
    (e) => e.tag === 'bad-response' && e.val.includes('length'),
  );
});

test('shared helpers: snippets and Retry-After', () => {
  assert.equal(snippet('a\n  b'), 'a b');
  assert.equal(snippet(''), '(empty body)');
  assert.ok(Array.from(snippet('x'.repeat(500))).length <= 201);
  assert.equal(retryAfterSecs('3'), 3);
  assert.equal(retryAfterSecs('1.2'), 2);
  assert.equal(retryAfterSecs('-1'), undefined);
  assert.equal(retryAfterSecs(null), undefined);
});
