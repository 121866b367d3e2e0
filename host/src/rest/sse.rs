//! Server-sent events with a JSON body, as every streaming route writes them.

use axum::response::sse::Event;

/// `event` with `value` as its `data:` line. The JSON is written in one piece and then handed to the
/// event: axum's own `json_data` passes each of the serializer's small writes through its check for
/// line breaks, which cost a streamed delta about 10,000 instructions (`bench/issue45_stages.py`).
/// Compact JSON never holds a raw line break, so the one check `data` makes finds none.
pub fn json_event(event: Event, value: &impl serde::Serialize) -> Event {
    // Serialising the routes' plain structs cannot fail; an empty event is the harmless fallback.
    match serde_json::to_string(value) {
        Ok(json) => event.data(json),
        Err(_) => Event::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::response::IntoResponse;
    use http_body_util::BodyExt;

    async fn written(event: Event) -> String {
        let stream = futures::stream::iter([Ok::<_, std::convert::Infallible>(event)]);
        let body = axum::response::sse::Sse::new(stream).into_response().into_body();
        String::from_utf8(body.collect().await.unwrap().to_bytes().to_vec()).unwrap()
    }

    #[tokio::test]
    async fn writes_what_json_data_writes() {
        let value = serde_json::json!({"text": "two\nlines and \"quotes\"", "n": 1});
        let ours = written(json_event(Event::default().event("delta"), &value)).await;
        let axums = written(Event::default().event("delta").json_data(&value).unwrap()).await;
        assert_eq!(ours, axums);
        assert_eq!(ours, "event: delta\ndata: {\"n\":1,\"text\":\"two\\nlines and \\\"quotes\\\"\"}\n\n");
    }
}
