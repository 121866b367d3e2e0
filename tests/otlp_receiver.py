"""An OTLP/HTTP trace receiver for the tests: decodes each `ExportTraceServiceRequest` with the official
`opentelemetry-proto` package and appends its spans to a file as JSON lines (ids in hex, attributes as
a flat object, the resource's `service.name`). Prints its port, then serves until killed.

    python otlp_receiver.py [--tls CERT_PEM KEY_PEM] SPANS_FILE
    python otlp_receiver.py --count COUNT_FILE

With `--tls`, it serves HTTPS with that certificate and key.

With `--count` (the benchmarks, where the receiver shares a core with the load generator) each export
is decoded the same way but only the number of spans received so far is kept, in COUNT_FILE.
"""

import json
import ssl
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf.json_format import MessageToDict
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

KINDS = {0: "unspecified", 1: "internal", 2: "server", 3: "client", 4: "producer", 5: "consumer"}
STATUSES = {0: "unset", 1: "ok", 2: "error"}


def value(any_value):
    """An `AnyValue` as plain JSON."""
    field = any_value.WhichOneof("value")
    if field is None:
        return None
    if field in ("array_value", "kvlist_value", "bytes_value"):
        return MessageToDict(any_value)
    return getattr(any_value, field)


def attributes(pairs):
    return {pair.key: value(pair.value) for pair in pairs}


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        if self.path != "/v1/traces":
            self.send_error(404)
            return
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        if self.server.count_only:
            received = sum(len(s.spans) for r in request.resource_spans for s in r.scope_spans)
            with self.server.lock:
                self.server.received += received
                with open(self.server.spans_file, "w", encoding="utf-8") as out:
                    out.write(f"{self.server.received}\n")
            self.reply()
            return
        lines = []
        for resource_spans in request.resource_spans:
            resource = attributes(resource_spans.resource.attributes)
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    lines.append(
                        json.dumps(
                            {
                                "trace_id": span.trace_id.hex(),
                                "span_id": span.span_id.hex(),
                                "parent_span_id": span.parent_span_id.hex(),
                                "trace_state": span.trace_state,
                                "name": span.name,
                                "kind": KINDS.get(span.kind, str(span.kind)),
                                "attributes": attributes(span.attributes),
                                "events": [event.name for event in span.events],
                                "links": [
                                    {"trace_id": link.trace_id.hex(), "span_id": link.span_id.hex()}
                                    for link in span.links
                                ],
                                "status": STATUSES.get(span.status.code, str(span.status.code)),
                                "flags": span.flags,
                                "service": resource.get("service.name"),
                                "start": span.start_time_unix_nano,
                                "end": span.end_time_unix_nano,
                            }
                        )
                    )
        with open(self.server.spans_file, "a", encoding="utf-8") as out:
            out.write("".join(line + "\n" for line in lines))
        self.reply()

    def reply(self):
        reply = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    if sys.argv[1] == "--tls":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    server.count_only = sys.argv[1] == "--count"
    server.spans_file = sys.argv[-1]
    server.received = 0
    server.lock = threading.Lock()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
