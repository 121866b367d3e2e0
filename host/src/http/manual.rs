//! The manual at `/manual`: the mdBook sources under `docs/src/` compiled into the binary and rendered
//! on request (pulldown-cmark), with the book's table of contents as a sidebar, so that an operator of a
//! server without internet access has the same chapters and generated reference pages as the built
//! book, under the documentation pages' content security policy.

use super::docs::same_origin_only;
use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::middleware;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::collections::HashMap;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/manual_files.rs"));

const STYLE: &str = include_str!("manual.css");

/// The routes: `/manual` (the introduction), each chapter at its path with `.html` for `.md`, as the
/// built book names it, the pictures and files beside them, and the style sheet.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/manual", get(|| async { Redirect::permanent("/manual/") }))
        .route("/manual/", get(|| async { page("index.html") }))
        .route("/manual/{*path}", get(|Path(path): Path<String>| async move { page(&path) }))
        .layer(middleware::map_response(same_origin_only))
}

fn file(path: &str) -> Option<&'static [u8]> {
    MANUAL_FILES.iter().find(|(p, _)| *p == path).map(|(_, bytes)| *bytes)
}

fn page(path: &str) -> Response {
    if path == "manual.css" {
        return ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response();
    }
    let path = if path.is_empty() || path == "index.html" { "introduction.html" } else { path };
    if let Some(stem) = path.strip_suffix(".html")
        && let Some(html) = rendered().get(&format!("{stem}.md"))
    {
        return Html(html.clone()).into_response();
    }
    let content_type = match path.rsplit('.').next() {
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("css") => "text/css; charset=utf-8",
        _ => "application/octet-stream",
    };
    match file(path).filter(|_| !path.ends_with(".md")) {
        Some(bytes) => ([(header::CONTENT_TYPE, content_type)], bytes).into_response(),
        None => crate::rest::error::ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("the manual has no page {path}"),
        )
        .into_response(),
    }
}

/// One entry of the table of contents: a part's title, or a chapter with its depth.
enum Entry {
    Part(String),
    Chapter { title: String, path: String, depth: usize },
}

/// `SUMMARY.md` read as mdBook reads it: `# Part` titles, `[Title](path.md)` lines, nested by indent.
fn summary() -> Vec<Entry> {
    let text = String::from_utf8_lossy(file("SUMMARY.md").unwrap_or_default()).into_owned();
    let mut entries = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(title) = trimmed.strip_prefix("# ") {
            if title.trim() != "Summary" {
                entries.push(Entry::Part(title.trim().to_owned()));
            }
        } else if let Some(open) = trimmed.find('[')
            && let Some(close) = trimmed[open..].find("](").map(|i| i + open)
            && let Some(end) = trimmed[close..].find(')').map(|i| i + close)
        {
            let depth = (line.len() - trimmed.len()) / 4;
            entries.push(Entry::Chapter {
                title: trimmed[open + 1..close].to_owned(),
                path: trimmed[close + 2..end].to_owned(),
                depth,
            });
        }
    }
    entries
}

/// Every chapter rendered once, on the first request for any of them.
fn rendered() -> &'static HashMap<String, String> {
    static PAGES: OnceLock<HashMap<String, String>> = OnceLock::new();
    PAGES.get_or_init(|| {
        let entries = summary();
        let chapters: Vec<(&str, &str)> = entries
            .iter()
            .filter_map(|e| match e {
                Entry::Chapter { title, path, .. } => Some((title.as_str(), path.as_str())),
                Entry::Part(_) => None,
            })
            .collect();
        let mut pages = HashMap::new();
        for (i, (title, path)) in chapters.iter().enumerate() {
            let Some(source) = file(path) else { continue };
            let body = to_html(&String::from_utf8_lossy(source));
            let prev = i.checked_sub(1).and_then(|j| chapters.get(j));
            let next = chapters.get(i + 1);
            pages.insert((*path).to_owned(), layout(title, path, &entries, &body, prev, next));
        }
        pages
    })
}

/// How many `../` lead from a page back to the manual's root.
fn to_root(path: &str) -> String {
    "../".repeat(path.matches('/').count())
}

fn html_path(md: &str) -> String {
    md.strip_suffix(".md").map_or_else(|| md.to_owned(), |stem| format!("{stem}.html"))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn layout(
    title: &str,
    path: &str,
    entries: &[Entry],
    body: &str,
    prev: Option<&(&str, &str)>,
    next: Option<&(&str, &str)>,
) -> String {
    let root = to_root(path);
    let mut nav = String::from("<ol class=\"toc\">\n");
    for entry in entries {
        match entry {
            Entry::Part(part) => nav.push_str(&format!("<li class=\"part\">{}</li>\n", escape(part))),
            Entry::Chapter { title: t, path: p, depth } => {
                let current = if p == path { " class=\"current\"" } else { "" };
                nav.push_str(&format!(
                    "<li class=\"depth-{depth}\"><a href=\"{root}{}\"{current}>{}</a></li>\n",
                    html_path(p),
                    escape(t)
                ));
            }
        }
    }
    nav.push_str("</ol>\n");
    let link = |label: &str, target: Option<&(&str, &str)>| {
        target.map_or_else(String::new, |(t, p)| {
            format!("<a class=\"{label}\" href=\"{root}{}\">{}</a>", html_path(p), escape(t))
        })
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} - The Parlance manual</title>\n<link rel=\"stylesheet\" href=\"{root}manual.css\">\n</head>\n\
         <body>\n<nav class=\"sidebar\"><a class=\"book\" href=\"{root}introduction.html\">The Parlance manual</a>\n{nav}</nav>\n\
         <main>\n{body}\n<footer>{}{}</footer>\n</main>\n</body>\n</html>\n",
        escape(title),
        link("prev", prev),
        link("next", next),
    )
}

/// A heading's anchor as mdBook makes it, so that a link to `page.md#anchor` reaches the same heading
/// in the built book and here.
fn normalize_id(text: &str) -> String {
    text.chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// A chapter's markdown as HTML: headings given mdBook's anchors, and links to other chapters' `.md`
/// given their `.html`.
pub fn to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut events: Vec<Event> = Parser::new_ext(markdown, options).collect();
    let mut used: HashMap<String, usize> = HashMap::new();
    for i in 0..events.len() {
        match &events[i] {
            Event::Start(Tag::Heading { id: None, .. }) => {
                let mut text = String::new();
                for e in &events[i + 1..] {
                    match e {
                        Event::End(TagEnd::Heading(_)) => break,
                        Event::Text(t) | Event::Code(t) => text.push_str(t),
                        _ => {}
                    }
                }
                let base = normalize_id(&text);
                let n = used.entry(base.clone()).or_insert(0);
                let id = if *n == 0 { base.clone() } else { format!("{base}-{n}") };
                *n += 1;
                if let Event::Start(Tag::Heading { level, classes, attrs, .. }) = &events[i] {
                    let (level, classes, attrs): (HeadingLevel, _, _) =
                        (*level, classes.clone(), attrs.clone());
                    events[i] =
                        Event::Start(Tag::Heading { level, id: Some(CowStr::from(id)), classes, attrs });
                }
            }
            Event::Start(Tag::Link { link_type, dest_url, title, id }) if is_chapter_link(dest_url) => {
                let (path, anchor) =
                    dest_url.split_once('#').map_or((&**dest_url, None), |(p, a)| (p, Some(a)));
                let mut url = html_path(path);
                if let Some(anchor) = anchor {
                    url = format!("{url}#{anchor}");
                }
                events[i] = Event::Start(Tag::Link {
                    link_type: *link_type,
                    dest_url: CowStr::from(url),
                    title: title.clone(),
                    id: id.clone(),
                });
            }
            _ => {}
        }
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

fn is_chapter_link(url: &str) -> bool {
    let path = url.split('#').next().unwrap_or_default();
    !url.contains("://") && !url.starts_with('/') && path.ends_with(".md")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chapters_link_to_each_other_as_the_built_book_does() {
        let html = to_html(
            "# The chat service\n\nSee [errors](../reference/errors.md#error-codes) and [a site](https://example.com/x.md).\n\n## Chat API (port `PORT`)\n\n## Chat API (port `PORT`)\n",
        );
        assert!(html.contains("<h1 id=\"the-chat-service\">"), "{html}");
        assert!(html.contains("href=\"../reference/errors.html#error-codes\""), "{html}");
        assert!(html.contains("href=\"https://example.com/x.md\""), "{html}");
        assert!(html.contains("id=\"chat-api-port-port\""), "{html}");
        assert!(html.contains("id=\"chat-api-port-port-1\""), "{html}");
    }

    #[test]
    fn every_chapter_of_the_summary_is_compiled_in_and_rendered() {
        let entries = summary();
        let chapters: Vec<&str> = entries
            .iter()
            .filter_map(|e| match e {
                Entry::Chapter { path, .. } => Some(path.as_str()),
                Entry::Part(_) => None,
            })
            .collect();
        assert!(chapters.len() > 20, "{chapters:?}");
        for chapter in chapters {
            assert!(rendered().contains_key(chapter), "SUMMARY.md lists {chapter}, which docs/src lacks");
        }
    }
}
