use super::*;
use crate::cache::CacheKind;
use crate::config::SecretSource;
use crate::plugins::defaults;
use std::io::Write;
use std::time::Duration;

fn write(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

fn home_without_keys() -> Env {
    // A HOME with no ~/.api-* files, so that the machine's own key files cannot leak into tests.
    Env::empty().with("HOME", "/nonexistent-home")
}

#[test]
fn defaults_follow_the_seeds() {
    let c = Config::from_env(None, &home_without_keys()).unwrap();
    assert_eq!(c.server.api_port, 8000);
    assert_eq!(c.server.chat_port, 5000);
    assert_eq!(c.server.host.to_string(), "0.0.0.0");
    assert!(!c.server.debug);
    assert_eq!(c.cache.kind(), CacheKind::Redis { url: "redis://localhost:6379/0".into() });
    assert_eq!(c.cache.ttl(), Duration::from_secs(3600));
    assert_eq!(c.paraphrase.rate_limit_per_minute, 60);
    assert_eq!((c.paraphrase.batch_max_size, c.paraphrase.batch_max_workers), (10, 4));
    assert_eq!(c.store.database_file, PathBuf::from("dialogs.db"));
    assert_eq!(c.chat.default_genre, "Romance");
    assert_eq!(c.logging.level.value, "INFO");
    assert_eq!(c.paraphrase.default_provider(), "offline");
    let form = c.plugin("form").unwrap();
    assert_eq!(form.settings["model_url"], "http://localhost:80/path/");
    assert_eq!(form.allowed_hosts[0].to_string(), "http://localhost:80");
}

#[test]
fn model_url_moves_the_form_model_and_its_allow_list() {
    let f = write("[[plugin]]\nid = \"form\"\nconfig = { model_url = \"http://file:1/\" }\n");
    let env = home_without_keys().with("MODEL_URL", "http://127.0.0.1:8081/generate");
    let c = Config::from_env(Some(f.path()), &env).unwrap();
    let form = c.plugin("form").unwrap();
    assert_eq!(form.settings["model_url"], "http://127.0.0.1:8081/generate");
    assert_eq!(
        form.allowed_hosts.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["http://127.0.0.1:8081"]
    );
}

#[test]
fn a_provider_key_makes_openrouter_the_default() {
    let env = home_without_keys().with("PROVIDER_API_KEY", "sk-test");
    let c = Config::from_env(None, &env).unwrap();
    assert_eq!(c.paraphrase.default_provider(), "openrouter");
    let p = c.plugin("openrouter").unwrap();
    assert_eq!(p.settings["api_key"], "sk-test");
    assert_eq!(p.visible_settings()["api_key"], "(secret)");
    assert_eq!(p.allowed_hosts[0].to_string(), "https://openrouter.ai:443");
}

#[test]
fn environment_overrides_the_file() {
    let f = write("[server]\napi_port = 9000\n[cache]\ntype = \"memory\"\n");
    let env = home_without_keys()
        .with("API_PORT", "9100")
        .with("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", "http://127.0.0.1:7000/v1");
    let c = Config::from_env(Some(f.path()), &env).unwrap();
    assert_eq!(c.server.api_port, 9100);
    assert_eq!(c.cache.kind(), CacheKind::Memory);
    let p = c.plugin("openrouter").unwrap();
    assert_eq!(p.settings["base_url"], "http://127.0.0.1:7000/v1");
    assert_eq!(
        p.allowed_hosts.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["http://127.0.0.1:7000"]
    );
}

#[test]
fn every_problem_is_reported_at_once_with_file_and_line() {
    let f = write(
        "[server]\napi_port = \"eighty\"\ncolour = 1\n\n[cache]\nttl_secs = -5\n\n[[plugin]]\nid = \"x\"\nkind = \"gadget\"\n",
    );
    let err =
        Config::from_env(Some(f.path()), &home_without_keys().with("BATCH_MAX_SIZE", "zero")).unwrap_err();
    let text = err.to_string();
    let file = f.path().display().to_string();
    assert!(text.contains(&format!("{file}:2: server.api_port")), "{text}");
    assert!(text.contains(&format!("{file}:3: server.colour: unknown key")), "{text}");
    assert!(text.contains(&format!("{file}:6: cache.ttl_secs")), "{text}");
    assert!(text.contains("plugin[0].kind"), "{text}");
    assert!(text.contains("BATCH_MAX_SIZE"), "{text}");
    assert!(err.problems.len() >= 5, "{text}");
}

#[test]
fn plugin_tables_add_amend_and_remove() {
    let f = write(
        r#"
[[plugin]]
id = "local-llm"
kind = "provider"
component = "builtin:openai"
allowed_hosts = ["http://127.0.0.1:11434"]
config = { base_url = "http://127.0.0.1:11434/v1", model = "llama3", temperature = 0.2 }
secrets = { api_key = { env = "LOCAL_KEY" } }
limits = { timeout_ms = 5000, memory_mb = 32 }

[[plugin]]
id = "openrouter"
config = { model = "other/model" }

[[plugin]]
id = "bleu"
enabled = false
"#,
    );
    let env = home_without_keys().with("LOCAL_KEY", "k");
    let c = Config::from_env(Some(f.path()), &env).unwrap();
    let p = c.plugin("local-llm").unwrap();
    assert_eq!(p.kind, PluginKind::Provider);
    assert_eq!(p.settings["temperature"], "0.2");
    assert_eq!(p.settings["api_key"], "k");
    assert_eq!(p.limits.timeout, Duration::from_millis(5000));
    assert_eq!(p.limits.memory_bytes, 32 << 20);
    let o = c.plugin("openrouter").unwrap();
    assert_eq!(o.settings["model"], "other/model");
    assert_eq!(o.settings["base_url"], defaults::OPENROUTER_BASE_URL);
    assert!(c.plugin("bleu").is_none());
}

/// The key of `openai-chat` and `openrouter` is the hosted upstream's: missing while their `base_url`
/// is OpenRouter's, not once the operator points it at a server of their own (by variable or file),
/// whose origin the allow-list then holds; `PARLANCE_CHAT_MODEL` makes it the chat model. A key
/// declared in the file is needed wherever.
#[test]
fn a_base_url_of_ones_own_needs_no_key() {
    let hosts = |p: &PluginSpec| p.allowed_hosts.iter().map(ToString::to_string).collect::<Vec<_>>();
    let c = Config::from_env(None, &home_without_keys()).unwrap();
    for id in ["openai-chat", "openrouter"] {
        assert_eq!(c.plugin(id).unwrap().missing_secrets(), ["api_key"], "{id}");
    }

    let env = home_without_keys()
        .with("PARLANCE_PLUGIN_OPENAI_CHAT_BASE_URL", "http://127.0.0.1:11434/v1")
        .with("PARLANCE_CHAT_MODEL", "openai-chat");
    let c = Config::from_env(None, &env).unwrap();
    assert_eq!(c.chat.model, "openai-chat");
    let chat = c.plugin("openai-chat").unwrap();
    assert!(chat.missing_secrets().is_empty());
    assert!(!chat.settings.contains_key("api_key"));
    assert_eq!(hosts(chat), ["http://127.0.0.1:11434"]);
    // `openrouter` has its own `base_url`, which the chat model's variable does not move.
    let openrouter = c.plugin("openrouter").unwrap();
    assert_eq!(openrouter.missing_secrets(), ["api_key"]);
    assert_eq!(hosts(openrouter), ["https://openrouter.ai:443"]);
    assert_eq!(c.paraphrase.default_provider(), "offline");

    let env = home_without_keys().with("PARLANCE_PLUGIN_OPENROUTER_BASE_URL", "http://localhost:8000/v1");
    let c = Config::from_env(None, &env).unwrap();
    assert!(c.plugin("openrouter").unwrap().missing_secrets().is_empty());
    assert_eq!(hosts(c.plugin("openrouter").unwrap()), ["http://localhost:8000"]);
    assert_eq!(c.plugin("openai-chat").unwrap().missing_secrets(), ["api_key"]);

    let f = write(
        "[[plugin]]\nid = \"openai-chat\"\nconfig = { base_url = \"http://127.0.0.1:1234/v1\", model = \"m\" }\n\n\
         [[plugin]]\nid = \"openrouter\"\nconfig = { base_url = \"https://openrouter.ai/api/v1/\" }\n",
    );
    let c = Config::from_env(Some(f.path()), &home_without_keys()).unwrap();
    assert!(c.plugin("openai-chat").unwrap().missing_secrets().is_empty());
    assert_eq!(hosts(c.plugin("openai-chat").unwrap()), ["http://127.0.0.1:1234"]);
    // Written out, the hosted default is still the hosted default.
    assert_eq!(c.plugin("openrouter").unwrap().missing_secrets(), ["api_key"]);

    let f = write(
        "[[plugin]]\nid = \"openai-chat\"\nconfig = { base_url = \"http://127.0.0.1:1234/v1\" }\n\
         secrets = { api_key = { env = \"LOCAL_KEY\" } }\n",
    );
    let c = Config::from_env(Some(f.path()), &home_without_keys()).unwrap();
    assert_eq!(c.plugin("openai-chat").unwrap().missing_secrets(), ["api_key"]);
}

#[test]
fn key_files_feed_secrets() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join(".api-openrouter"), "\n  sk-from-file \n").unwrap();
    let env = Env::empty().with("HOME", home.path().to_str().unwrap());
    let source = SecretSource {
        env: Some("PROVIDER_API_KEY".into()),
        file: Some(format!("{}/.api-openrouter", home.path().display())),
    };
    assert_eq!(source.resolve(&env).as_deref(), Some("sk-from-file"));
    let env = env.with("PROVIDER_API_KEY", "sk-env");
    assert_eq!(source.resolve(&env).as_deref(), Some("sk-env"));
}

#[test]
fn unknown_default_provider_is_named() {
    let f = write("[paraphrase]\ndefault_provider = \"nope\"\n");
    let err = Config::from_env(Some(f.path()), &home_without_keys()).unwrap_err();
    assert!(
        err.to_string().contains("`nope`, which is not configured (known: gemini, offline, openrouter)"),
        "{err}"
    );
}

#[test]
fn file_and_environment_give_the_same_error_with_the_same_bounds() {
    let f = write("[paraphrase]\nbatch_max_workers = 5000\n[cache]\nttl_secs = 999999999999\n");
    let from_file = Config::from_env(Some(f.path()), &home_without_keys()).unwrap_err().to_string();
    let env = home_without_keys().with("BATCH_MAX_WORKERS", "5000").with("CACHE_TTL", "999999999999");
    let from_env = Config::from_env(None, &env).unwrap_err().to_string();
    for tail in [
        "paraphrase.batch_max_workers: expected an integer from 1 to 1024, found 5000",
        "cache.ttl_secs: expected an integer from 0 to 31536000, found 999999999999",
    ] {
        assert!(
            from_file.contains(&format!(":2: {tail}")) || from_file.contains(&format!(":4: {tail}")),
            "{from_file}"
        );
        assert!(from_env.contains(tail), "{from_env}");
    }
    assert!(
        from_env.contains("environment variable BATCH_MAX_WORKERS: paraphrase.batch_max_workers"),
        "{from_env}"
    );
}

#[test]
fn database_file_expands_home_from_either_layer() {
    let f = write("[store]\ndatabase_file = \"~/data/dialogs.db\"\n");
    let c = Config::from_env(Some(f.path()), &home_without_keys()).unwrap();
    assert_eq!(c.store.database_file, PathBuf::from("/nonexistent-home/data/dialogs.db"));
    let c = Config::from_env(None, &home_without_keys().with("DATABASE_FILE", "~/x.db")).unwrap();
    assert_eq!(c.store.database_file, PathBuf::from("/nonexistent-home/x.db"));
}

#[test]
fn the_stores_keys_still_work_in_chat_with_one_deprecation_line() {
    let f = write("[chat]\nmodel = \"form\"\ndatabase_file = \"~/old.db\"\ndurability = \"full\"\n");
    let c = Config::from_env(Some(f.path()), &home_without_keys()).unwrap();
    assert_eq!(c.store.database_file, PathBuf::from("/nonexistent-home/old.db"));
    assert_eq!(c.store.durability, crate::store::Durability::Full);
    assert_eq!(
        c.deprecated,
        ["[chat] database_file, durability: deprecated, these keys belong to [store] now"]
    );

    // `[store]` wins over the old place, the environment over both. A relative path in the file is
    // the file's folder's; one in the environment stays relative to the working directory.
    let f = write("[chat]\ndatabase_file = \"old.db\"\n\n[store]\ndatabase_file = \"new.db\"\n");
    let c = Config::from_env(Some(f.path()), &home_without_keys()).unwrap();
    assert_eq!(c.store.database_file, f.path().parent().unwrap().join("new.db"));
    let c = Config::from_env(Some(f.path()), &home_without_keys().with("DATABASE_FILE", "env.db")).unwrap();
    assert_eq!(c.store.database_file, PathBuf::from("env.db"));

    let f = write("[chat]\ndurability = \"sometimes\"\n");
    let err = Config::from_env(Some(f.path()), &home_without_keys()).unwrap_err().to_string();
    assert!(err.contains("chat.durability"), "{err}");
    let c = Config::from_env(None, &home_without_keys()).unwrap();
    assert!(c.deprecated.is_empty());
}

#[test]
fn weights_are_read_and_checked() {
    let f = write(
        "[evaluate.weights]\nbleu = { weight = 0.5, transform = \"scale(100)\" }\nlength_ratio = { weight = 1 }\n\
         word_overlap = { transform = \"inverse\" }\nrouge1 = { weight = 1, transform = \"sideways\" }\n",
    );
    let err = Config::from_env(Some(f.path()), &home_without_keys()).unwrap_err().to_string();
    assert!(err.contains("evaluate.weights.word_overlap: needs a `weight`"), "{err}");
    assert!(err.contains("evaluate.weights.rouge1.transform: \"sideways\" is not a transform"), "{err}");
}

#[test]
fn a_chat_models_history_window_follows_its_setting_unless_the_operator_sets_one() {
    use crate::plugins::spec::HistoryWindow;
    let c = Config::from_env(None, &home_without_keys()).unwrap();
    assert_eq!(c.plugin("form").unwrap().history_window(), HistoryWindow::Chars(2048));
    assert_eq!(c.plugin("openai-chat").unwrap().history_window(), HistoryWindow::Entries(50));
    assert_eq!(c.plugin("offline").unwrap().history_window(), HistoryWindow::Whole);

    let env = home_without_keys().with("PARLANCE_PLUGIN_FORM_PROMPT_MAX_CHARS", "9000");
    let c = Config::from_env(None, &env).unwrap();
    assert_eq!(c.plugin("form").unwrap().history_window(), HistoryWindow::Chars(9000));

    let f = write("[[plugin]]\nid = \"openai-chat\"\nhistory_chars = 4000\nconfig = { max_history = 7 }\n");
    let c = Config::from_env(Some(f.path()), &home_without_keys()).unwrap();
    assert_eq!(c.plugin("openai-chat").unwrap().history_window(), HistoryWindow::Chars(4000));

    let f = write(
        "[[plugin]]\nid = \"form\"\nhistory_chars = 10\nhistory_entries = 2\n\n\
         [[plugin]]\nid = \"offline\"\nhistory_entries = 2\n",
    );
    let text = Config::from_env(Some(f.path()), &home_without_keys()).unwrap_err().to_string();
    assert!(text.contains("sets both `history_entries` and `history_chars`"), "{text}");
    assert!(
        text.contains("plugin \"offline\" is a provider; a history window applies to chat models only"),
        "{text}"
    );
}
