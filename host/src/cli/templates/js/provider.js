// `{{name}}`: a Parlance paraphrase provider in JavaScript. It reverses the order of the words and
// appends its `suffix` setting when the operator sets one; replace `paraphrase` with a call to your
// upstream: `fetch` works (an async function is fine) and goes through the host's allow-list. Throw
// a `plugin-error` value ({ tag: 'unavailable', val: 'why' }, …) to fail a call.

import { config } from 'parlance:plugin/host@{{version}}';

export const provider = {
  info() {
    return { name: '{{name}}', defaultModel: config('model') ?? 'reverse' };
  },

  paraphrase(request) {
    if (request.text.trim() === '') throw { tag: 'invalid-input', val: 'the text is empty' };
    let text = request.text.split(/\s+/).filter(Boolean).reverse().join(' ');
    const suffix = config('suffix');
    if (suffix) text = `${text} ${suffix}`;
    return { text, model: request.model };
  },
};
