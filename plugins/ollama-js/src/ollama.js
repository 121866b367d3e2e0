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
// Failures map to the WIT `plugin-error` cases exactly as the Rust providers map them; that mapping,
// the settings and the request with its deadline are in `common.js`, shared with `ollama-chat.js`.

import { config } from 'parlance:plugin/host@0.1.4';
import { report } from 'parlance:plugin/metering@0.1.4';
import { DEFAULT_MODEL, UPSTREAM, exchange, failure, probeModel, settings, snippet } from './common.js';

const DEFAULT_TEMPLATE =
  'Rewrite the following text so that it says the same thing in different words. Keep the meaning, ' +
  'the language, the tone and roughly the length. Answer with the rewritten text only: no preamble, ' +
  'no quotes, no explanation.\n\n{text}';

const s = settings(config);

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

async function generate(model, text) {
  const url = s.endpoint('/api/generate');
  const template = s.get('prompt_template', DEFAULT_TEMPLATE);
  const body = { model, prompt: template.split('{text}').join(text), stream: false };
  const system = config('system_prompt');
  if (system) body.system = system;
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  };
  const { answer, raw } = await exchange(url, init, s.timeoutMs());
  if (typeof answer.response !== 'string') {
    throw failure('bad-response', `${UPSTREAM}'s answer has no \`response\` text: ${snippet(raw)}`);
  }
  if (answer.done === false) {
    throw failure('bad-response', `${UPSTREAM}'s answer is incomplete (\`done\` is false)`);
  }
  // Ollama counts the prompt's tokens (`prompt_eval_count`) and the answer's (`eval_count`).
  const count = (n) => (Number.isInteger(n) && n >= 0 && n <= 0xffffffff ? n : undefined);
  report({ inputTokens: count(answer.prompt_eval_count), outputTokens: count(answer.eval_count) });
  const paraphrase = clean(answer.response);
  if (paraphrase === '') {
    throw failure('bad-response', `${UPSTREAM} answered with an empty \`response\``);
  }
  return { text: paraphrase, model: typeof answer.model === 'string' && answer.model ? answer.model : model };
}

export const provider = {
  info() {
    return { name: 'Ollama (native /api/generate)', defaultModel: s.get('model', DEFAULT_MODEL) };
  },

  async paraphrase(request) {
    if (request.text.trim() === '') throw failure('invalid-input', 'the text is empty');
    return generate(request.model, request.text);
  },
};

export const probe = {
  check() {
    return probeModel(s, s.get('model', DEFAULT_MODEL));
  },
};
