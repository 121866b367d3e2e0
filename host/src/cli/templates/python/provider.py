"""`{{name}}`: a Parlance paraphrase provider in Python. It reverses the order of the words and
appends its `suffix` setting when the operator sets one; replace `paraphrase` with a call to your
upstream (the world imports wasi:http, which the host restricts to the plugin's allowed_hosts)."""

import gc

from componentize_py_types import Err
from wit_world import exports
from wit_world.exports.provider import ParaphraseRequest, ParaphraseResponse, ProviderInfo
from wit_world.imports import host
from wit_world.imports.parlance_plugin_types import PluginError_InvalidInput


class Provider(exports.Provider):
    def info(self) -> ProviderInfo:
        return ProviderInfo(name="{{name}}", default_model=host.config("model") or "reverse")

    def paraphrase(self, request: ParaphraseRequest) -> ParaphraseResponse:
        if not request.text.strip():
            raise Err(PluginError_InvalidInput("the text is empty"))
        text = " ".join(reversed(request.text.split()))
        suffix = host.config("suffix")
        if suffix:
            text = f"{text} {suffix}"
        return ParaphraseResponse(text=text, model=request.model)


# Every instance is made from the memory snapshot taken once this module is imported.
# Freezing moves the snapshot's objects out of the cycle collector's reach: otherwise a collection
# during a call walks the whole interpreter heap, and each page it writes to is copied. A metric's
# 100-pair call took about a fifth less time frozen; what a call allocates is still collected.
gc.freeze()
