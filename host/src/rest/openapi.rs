//! Writing the limits of this configuration into an OpenAPI fragment, so that the document describes
//! what this server accepts rather than what the types alone allow: string lengths, patterns that
//! spell out the handlers' character checks, and array sizes.

use utoipa::openapi::OpenApi;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{Array, Object, Schema};

// The character classes below spell out, for the documented patterns, the checks the handlers make
// with Rust's `char::is_control` (Unicode Cc) and `str::trim` (Unicode White_Space).
/// Unicode control characters.
pub const CONTROLS: &str = "\\u0000-\\u001F\\u007F-\\u009F";
/// Control characters and the slash, which a `user_id` may not hold.
pub const CONTROLS_AND_SLASH: &str = "/\\u0000-\\u001F\\u007F-\\u009F";
/// Control characters other than tab, line feed and carriage return.
pub const CONTROLS_BUT_LINES: &str = "\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F";
/// Unicode White_Space.
pub const WHITE_SPACE: &str =
    "\\t\\n\\u000B\\u000C\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
/// White space that is not a control character.
pub const SPACES: &str = " \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
/// White space allowed in text that spans lines.
pub const LINE_SPACES: &str = "\\t\\n\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";

/// Descriptions of the error responses many routes share, so that every route words them alike. (An
/// OpenAPI Response Object must have a description; code generators and gateways reject one without.)
pub mod responses {
    pub const BAD_CALLER: &str = "A bad `current-user` header (visible ASCII, at most 256 characters)";
    pub const BAD_JSON: &str = "Malformed JSON, or a bad `current-user` header";
    pub const BAD_FORM: &str = "Malformed form data, or a bad `current-user` header";
    pub const TOO_LARGE: &str = "The body is larger than `server.max_body_kb`";
    pub const NOT_JSON: &str = "The body is not `application/json`";
    pub const NOT_FORM: &str = "The body is not `application/x-www-form-urlencoded`";
    pub const BAD_USER_ID: &str =
        "A bad `user_id`: blank, over 256 characters, or holding a control character or `/`";
    pub const NO_SUCH_USER: &str = "No such user for this client";
    pub const OVER_BUDGET: &str = "The caller's key or client is over a budget or a per-minute limit (`budget_exceeded`, naming it and when it resets)";
}

/// Text of allowed characters (none of `forbidden`) that is not only white space: leading `spaces`,
/// then one character that is neither, then the rest. The classes of the first two parts are disjoint,
/// so a backtracking matcher still runs in linear time on long input.
pub fn visible(forbidden: &str, spaces: &str) -> String {
    format!("^[{spaces}]*[^{forbidden}{WHITE_SPACE}][^{forbidden}]*$")
}

/// A string of any characters that is not only white space, at most `max` long.
pub fn text(max: Option<usize>) -> impl Fn(&mut Object) {
    move |o: &mut Object| {
        o.min_length = Some(1);
        o.max_length = max;
        o.pattern = Some(format!("^[{WHITE_SPACE}]*[^{WHITE_SPACE}][\\s\\S]*$"));
    }
}

/// Text that may span lines (tabs and line breaks are the only control characters allowed), at most
/// `max` long, and not blank when `required`.
pub fn lines(max: usize, required: bool) -> impl Fn(&mut Object) {
    move |o: &mut Object| {
        o.max_length = Some(max);
        if required {
            o.min_length = Some(1);
            o.pattern = Some(visible(CONTROLS_BUT_LINES, LINE_SPACES));
        } else {
            o.pattern = Some(format!("^[^{CONTROLS_BUT_LINES}]*$"));
        }
    }
}

/// A one-line name without control characters, at most `max` long.
pub fn name(max: usize) -> impl Fn(&mut Object) {
    move |o: &mut Object| {
        o.min_length = Some(1);
        o.max_length = Some(max);
        o.pattern = Some(visible(CONTROLS, SPACES));
    }
}

/// An array of `min` to `max` items.
pub fn items(min: usize, max: usize) -> impl Fn(&mut Array) {
    move |a: &mut Array| {
        a.min_items = Some(min);
        a.max_items = Some(max);
    }
}

/// The `current-user` header: visible ASCII, inner spaces and tabs allowed. HTTP strips the spaces and
/// tabs around a header value, so the limit applies to what is left.
pub fn client(o: &mut Object) {
    o.min_length = Some(1);
    o.max_length = Some(super::extract::MAX_CLIENT_ID_CHARS);
    o.pattern = Some("^[!-~]([\\t -~]*[!-~])?$".into());
}

fn schema<'a>(doc: &'a mut OpenApi, name: &str, field: &str) -> Option<&'a mut Schema> {
    let components = doc.components.as_mut()?;
    let RefOr::T(Schema::Object(object)) = components.schemas.get_mut(name)? else { return None };
    match object.properties.get_mut(field)? {
        RefOr::T(schema) => Some(schema),
        RefOr::Ref(_) => None,
    }
}

/// Applies `f` to a string property; a missing schema or property is a bug in the caller's names.
pub fn property(doc: &mut OpenApi, name: &str, field: &str, f: impl FnOnce(&mut Object)) {
    match schema(doc, name, field) {
        Some(Schema::Object(o)) => f(o),
        _ => debug_assert!(false, "no string property {name}.{field} in the OpenAPI document"),
    }
}

/// Applies `f` to an array property.
pub fn array(doc: &mut OpenApi, name: &str, field: &str, f: impl FnOnce(&mut Array)) {
    match schema(doc, name, field) {
        Some(Schema::Array(a)) => f(a),
        _ => debug_assert!(false, "no array property {name}.{field} in the OpenAPI document"),
    }
}

/// Applies `f` to every string parameter named `name` of every operation.
pub fn parameter(doc: &mut OpenApi, name: &str, f: impl Fn(&mut Object)) {
    for item in doc.paths.paths.values_mut() {
        for operation in
            [&mut item.get, &mut item.put, &mut item.delete, &mut item.post].into_iter().flatten()
        {
            for parameter in operation.parameters.iter_mut().flatten() {
                let RefOr::T(p) = parameter else { continue };
                let Some(RefOr::T(Schema::Object(o))) = p.schema.as_mut() else { continue };
                if p.name == name {
                    f(o);
                }
            }
        }
    }
}
