// The official OpenAI JavaScript client (pinned by package-lock.json, installed by scripts/setup.sh
// --tests) against Parlance's OpenAI-compatible surface, run by tests/openai_clients.rs with a server
// in front of a fake OpenAI upstream. Every check throws on failure; the last line printed is a JSON
// summary for the Rust side.
//
// Usage: node clients.mjs BASE_URL KEY OTHER_CLIENT_KEY
import assert from 'node:assert/strict';
import OpenAI from 'openai';

const [baseURL, apiKey, otherKey] = process.argv.slice(2);
const client = new OpenAI({ apiKey, baseURL, maxRetries: 0, timeout: 30_000 });
const user = [{ role: 'user', content: 'Hello there' }];
const summary = {};

async function expect(Exception, call, status) {
  try {
    await call();
  } catch (e) {
    assert.ok(e instanceof Exception, `${e.constructor.name} is not ${Exception.name}: ${e.message}`);
    assert.equal(e.status, status);
    for (const field of ['message', 'type', 'param', 'code']) assert.ok(field in e.error, JSON.stringify(e.error));
    return e;
  }
  throw new Error(`${Exception.name} was not thrown`);
}

// Models.
const models = [];
for await (const model of client.models.list()) models.push(model);
assert.equal(models.find((m) => m.id === 'openai-chat').owned_by, 'chat-model builtin:openai-chat');
await expect(OpenAI.NotFoundError, () => client.models.retrieve('nope'), 404);

// Create, plain.
const completion = await client.chat.completions.create({
  model: 'openai-chat', messages: [{ role: 'system', content: 'Be brief.' }, ...user],
  max_completion_tokens: 50, temperature: 0.5, stop: 'END', seed: 7,
});
assert.equal(completion.object, 'chat.completion');
assert.equal(completion.choices[0].message.content, 'word0 word1 word2 word3 word4 ');
assert.equal(completion.choices[0].finish_reason, 'stop');
assert.deepEqual(completion.usage, { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 });

// Streaming with usage.
const stream = await client.chat.completions.create({
  model: 'openai-chat', messages: user, stream: true, stream_options: { include_usage: true },
});
const chunks = [];
for await (const chunk of stream) chunks.push(chunk);
assert.equal(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join(''), 'word0 word1 word2 word3 word4 ');
assert.equal(chunks[0].choices[0].delta.role, 'assistant');
assert.deepEqual(chunks.at(-1).choices, []);
assert.equal(chunks.at(-1).usage.total_tokens, 16);

// A failure after the first chunk throws.
const dying = await client.chat.completions.create({ model: 'openai-chat', messages: [{ role: 'user', content: 'DIE' }], stream: true });
let seen = 0;
await assert.rejects(async () => { for await (const _ of dying) seen += 1; }, OpenAI.APIError);
assert.ok(seen > 0);

// A disconnect mid-stream.
const long = await client.chat.completions.create({ model: 'openai-chat', messages: [{ role: 'user', content: 'LONG' }], stream: true });
let read = 0;
for await (const _ of long) {
  read += 1;
  if (read === 2) break;
}
long.controller.abort();
summary.closed_at = Date.now() / 1000;

// Typed exceptions.
await expect(OpenAI.BadRequestError, () => client.chat.completions.create({ model: 'openai-chat', messages: user, n: 3 }), 400);
const e404 = await expect(OpenAI.NotFoundError, () => client.chat.completions.create({ model: 'nope', messages: user }), 404);
assert.equal(e404.code, 'model_not_found');
await expect(OpenAI.AuthenticationError, () => new OpenAI({ apiKey: 'prl_wrong', baseURL, maxRetries: 0 }).models.list(), 401);
const mismatch = new OpenAI({ apiKey, baseURL, maxRetries: 0, defaultHeaders: { 'current-user': 'someone-else' } });
await expect(OpenAI.PermissionDeniedError, () => mismatch.chat.completions.create({ model: 'openai-chat', messages: user }), 403);
await expect(OpenAI.UnprocessableEntityError, () => client.chat.completions.create({ model: 'openai-chat', messages: user, user: 'a/b' }), 422);
for (let i = 0; i < 2; i += 1) await client.chat.completions.create({ model: 'openai-chat', messages: user, user: 'js-full' });
await expect(OpenAI.ConflictError, () => client.chat.completions.create({ model: 'openai-chat', messages: user, user: 'js-full' }), 409);
await expect(OpenAI.InternalServerError, () => client.chat.completions.create({ model: 'openai-chat', messages: [{ role: 'user', content: 'FAIL401' }] }), 502);
await expect(OpenAI.InternalServerError, () => client.chat.completions.create({ model: 'keyless', messages: user }), 503);
// The rate limit of this key's client: one call a minute to `limited`; another client keeps its own.
await client.chat.completions.create({ model: 'limited', messages: user });
const e429 = await expect(OpenAI.RateLimitError, () => client.chat.completions.create({ model: 'limited', messages: user }), 429);
assert.ok(Number(e429.headers.get('retry-after')) >= 1);
const other = new OpenAI({ apiKey: otherKey, baseURL, maxRetries: 0 });
assert.ok((await other.chat.completions.create({ model: 'limited', messages: user })).choices[0].message.content);

console.log(JSON.stringify(summary));
